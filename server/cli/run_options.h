/* The options `graphmend profile` and `graphmend confirm` share: how the user's file is run. */
#ifndef GM_SERVER_CLI_RUN_OPTIONS_H
#define GM_SERVER_CLI_RUN_OPTIONS_H

#include <stdbool.h>

#include "server/profile/job.h"

/* When argv[*i] is --entry, --python, --device, --output-format or --timeout: checks and stores
 * its value (json for --output-format json), advances *i past it and returns 1. 0 when it is none
 * of them; 2 after printing the problem, prefixed with command ("graphmend profile"). */
int gm_cli_run_option(const char *command, int argc, char **argv, int *i,
                      gm_profile_request *request, bool *json);

#endif
