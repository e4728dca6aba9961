/* `graphmend confirm PATH`: runs a file's entry function under real dynamo (the profile helper
 * with --confirm) and judges graphmend's findings for the file against the breaks dynamo found:
 * confirmed, not reached by this input, or contradicted; with precision and recall. */
#ifndef GM_SERVER_CLI_CONFIRM_COMMAND_H
#define GM_SERVER_CLI_CONFIRM_COMMAND_H

/* argv[0] is "confirm". Returns the exit status: 0 it ran, 2 error. */
int gm_cli_confirm(int argc, char **argv);

#endif
