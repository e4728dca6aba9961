/* A profile job (server/profile/job.h) run to its end on a loop of its own, as `graphmend
 * profile` and `graphmend confirm` run theirs: progress on stderr unless quiet, and Ctrl-C or
 * SIGTERM cancel it (its helpers run in process groups of their own and would not see them). */
#ifndef GM_SERVER_CLI_JOB_RUNNER_H
#define GM_SERVER_CLI_JOB_RUNNER_H

#include <jansson.h>
#include <stdbool.h>

#include "server/profile/job.h"

/* Runs request; done gets the job's result once. Returns 0 after done ran, or 2 after printing
 * why the job could not start, prefixed with command ("graphmend profile"). */
int gm_cli_run_profile_job(const char *command, const gm_profile_request *request, bool quiet,
                           void (*done)(void *context, json_t *result), void *context);

#endif
