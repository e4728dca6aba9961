/* A walk of a directory tree for *.py files that can be stepped a few entries at a time, so the
 * language server interleaves it with requests (a workspace folder may be `/`). Each directory
 * and each file is visited once however many symlinks reach it, and the walk stops at a cap of
 * files and of directories. */
#ifndef GM_SERVER_WORKSPACE_PYTHON_WALK_H
#define GM_SERVER_WORKSPACE_PYTHON_WALK_H

#include <stdbool.h>
#include <stddef.h>

#include "server/workspace/path_list.h"

/* Most directories one walk opens: beyond it the walk ends as truncated. */
#define GM_WALK_MAX_DIRECTORIES 100000

typedef struct gm_python_walk gm_python_walk;

/* A walk of dir that finds at most max_files files; quiet: no message for unreadable
 * directories. NULL on OOM. */
gm_python_walk *gm_python_walk_new(const char *dir, size_t max_files, bool quiet);

/* Visits up to entries directory entries, appending the Python files found to list (in sorted
 * order, depth first). Returns true while there is more to walk. */
bool gm_python_walk_step(gm_python_walk *walk, gm_path_list *list, size_t entries);

/* After the walk: whether a cap stopped it, and whether a directory could not be read (the root
 * too) or memory ran out. */
bool gm_python_walk_truncated(const gm_python_walk *walk);
bool gm_python_walk_failed(const gm_python_walk *walk);

void gm_python_walk_free(gm_python_walk *walk);

#endif
