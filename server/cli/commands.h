/* `graphmend check` and `graphmend fix`: the analysis without the server, for CI. Each returns the
 * process exit status: 0 nothing found, 1 findings remain, 2 error. */
#ifndef GM_SERVER_CLI_COMMANDS_H
#define GM_SERVER_CLI_COMMANDS_H

int gm_cli_check(int argc, char **argv); /* argv[0] is "check" */
int gm_cli_fix(int argc, char **argv);   /* argv[0] is "fix" */

#endif
