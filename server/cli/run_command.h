/* `graphmend run`: runs a Python program with installed packages mended as they are imported. */
#ifndef GM_SERVER_CLI_RUN_COMMAND_H
#define GM_SERVER_CLI_RUN_COMMAND_H

/* argv[0] is "run". Mends the packages into the cache, then becomes the program's interpreter
 * (exec): the program's exit status is the command's, and signals reach it as they would reach
 * python itself. Returns only on an error: 2 after printing it. */
int gm_cli_run(int argc, char **argv);

#endif
