/* `graphmend profile PATH`: profiles the model of a file's entry function as written and with
 * graphmend's mends applied to a private copy, and prints the comparison. */
#ifndef GM_SERVER_CLI_PROFILE_COMMAND_H
#define GM_SERVER_CLI_PROFILE_COMMAND_H

/* argv[0] is "profile". Returns the exit status: 0 profiled, 2 error. */
int gm_cli_profile(int argc, char **argv);

#endif
