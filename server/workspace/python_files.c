#include "server/workspace/python_files.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "server/workspace/python_walk.h"

/* Entries per step when nothing else waits: the step size only bounds the work between checks. */
#define WALK_STEP_ENTRIES 4096

static int walk_whole(const char *dir, gm_path_list *list, size_t max_files, bool quiet,
                      bool *truncated) {
    gm_python_walk *walk = gm_python_walk_new(dir, max_files, quiet);
    if (!walk) {
        return -1;
    }
    while (gm_python_walk_step(walk, list, WALK_STEP_ENTRIES)) {
    }
    *truncated = gm_python_walk_truncated(walk);
    int status = gm_python_walk_failed(walk) ? -1 : 0;
    gm_python_walk_free(walk);
    return status;
}

int gm_collect_python_files(const char *path, gm_path_list *list) {
    struct stat info;
    if (stat(path, &info) != 0) {
        fprintf(stderr, "graphmend: %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (S_ISDIR(info.st_mode)) {
        bool truncated = false;
        int status = walk_whole(path, list, GM_COLLECT_MAX_FILES, false, &truncated);
        if (truncated) {
            fprintf(stderr,
                    "graphmend: %s: more than %d Python files or %d directories; only those "
                    "found first are checked\n",
                    path, GM_COLLECT_MAX_FILES, GM_WALK_MAX_DIRECTORIES);
            status = -1;
        }
        return status;
    }
    /* A file named on the command line is taken as it is: the reader says if it is no file. */
    char *copy = strdup(path);
    return copy ? gm_path_list_push(list, copy) : -1;
}

int gm_find_python_files(const char *dir, gm_path_list *list, size_t max_files, bool *truncated) {
    return walk_whole(dir, list, max_files, true, truncated);
}
