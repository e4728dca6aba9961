#include "server/cli/progress.h"

#include <stdio.h>
#include <time.h>
#include <unistd.h>

#define SHOW_AFTER_SECONDS 0.5
#define REDRAW_SECONDS 0.1

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void gm_progress_start(gm_progress *progress, const char *verb, size_t total) {
    progress->active = total > 1 && isatty(fileno(stderr)) == 1;
    progress->shown = false;
    progress->verb = verb;
    progress->total = total;
    progress->started = progress->active ? now_seconds() : 0;
    progress->last_drawn = 0;
}

void gm_progress_update(gm_progress *progress, size_t done) {
    if (!progress->active) {
        return;
    }
    double now = now_seconds();
    if (now - progress->started < SHOW_AFTER_SECONDS ||
        now - progress->last_drawn < REDRAW_SECONDS) {
        return;
    }
    fprintf(stderr, "\r%s %zu/%zu files\033[K", progress->verb, done, progress->total);
    fflush(stderr);
    progress->shown = true;
    progress->last_drawn = now;
}

void gm_progress_finish(gm_progress *progress) {
    if (progress->shown) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
    progress->active = false;
    progress->shown = false;
}
