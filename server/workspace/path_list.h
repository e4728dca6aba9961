/* A growable list of owned paths. */
#ifndef GM_SERVER_WORKSPACE_PATH_LIST_H
#define GM_SERVER_WORKSPACE_PATH_LIST_H

#include <stddef.h>

typedef struct {
    char **paths; /* owned */
    size_t count;
    size_t capacity;
} gm_path_list;

/* Appends path, taking it (freed on failure). Returns 0, or -1 on OOM. */
int gm_path_list_push(gm_path_list *list, char *path);
void gm_path_list_free(gm_path_list *list);

#endif
