/* The Python files under a path (a file as given, a directory walked for *.py), for the command
 * line's arguments and the editor's workspace folders, and reading a file whole. */
#ifndef GM_SERVER_WORKSPACE_PYTHON_FILES_H
#define GM_SERVER_WORKSPACE_PYTHON_FILES_H

#include <stdbool.h>
#include <stddef.h>

typedef struct {
    char **paths; /* owned */
    size_t count;
    size_t capacity;
} gm_path_list;

/* Appends the files of path to list (directories recursively, skipping hidden directories,
 * __pycache__, node_modules, site-packages and virtual environments; sorted). Returns 0, or -1
 * after printing why to stderr (missing or unreadable path). */
int gm_collect_python_files(const char *path, gm_path_list *list);
void gm_path_list_free(gm_path_list *list);

/* The same walk of a directory for the workspace index: quiet (unreadable directories are
 * skipped; -1 tells that some were), at most max_files, *truncated when more were there. */
int gm_find_python_files(const char *dir, gm_path_list *list, size_t max_files, bool *truncated);

/* Reads a whole file into a malloc'ed NUL-terminated buffer; NULL (errno set) on failure. */
char *gm_read_file(const char *path, size_t *len);

#endif
