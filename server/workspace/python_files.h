/* The Python files under a path (a file as given, a directory walked for *.py), for the command
 * line's arguments and the editor's workspace folders. */
#ifndef GM_SERVER_WORKSPACE_PYTHON_FILES_H
#define GM_SERVER_WORKSPACE_PYTHON_FILES_H

#include <stdbool.h>
#include <stddef.h>

#include "server/workspace/path_list.h"

/* Most files one command-line path may name: a walk beyond it is an error, not a silent cut. */
#define GM_COLLECT_MAX_FILES 100000

/* Appends the files of path to list (directories recursively, skipping hidden directories,
 * __pycache__, node_modules, site-packages and virtual environments; sorted; each file once).
 * Returns 0, or -1 after printing why to stderr (missing or unreadable path, too many files). */
int gm_collect_python_files(const char *path, gm_path_list *list);

/* The same walk of a directory for the workspace index, in one go: quiet (unreadable directories
 * are skipped; -1 tells that some were), at most max_files, *truncated when more were there. */
int gm_find_python_files(const char *dir, gm_path_list *list, size_t max_files, bool *truncated);

#endif
