/* "Checking 120/4000 files" on stderr while a long run goes on, on a terminal only (a pipe or a
 * CI log gets nothing), shown after half a second and cleared at the end. */
#ifndef GM_SERVER_CLI_PROGRESS_H
#define GM_SERVER_CLI_PROGRESS_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    bool active;
    bool shown;
    const char *verb;
    size_t total;
    double started;
    double last_drawn;
} gm_progress;

void gm_progress_start(gm_progress *progress, const char *verb, size_t total);
void gm_progress_update(gm_progress *progress, size_t done);
void gm_progress_finish(gm_progress *progress);

#endif
