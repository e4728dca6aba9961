#include "server/workspace/path_list.h"

#include <stdlib.h>
#include <string.h>

int gm_path_list_push(gm_path_list *list, char *path) {
    if (list->count == list->capacity) {
        size_t capacity = list->capacity ? list->capacity * 2 : 16;
        char **grown = realloc(list->paths, capacity * sizeof *grown);
        if (!grown) {
            free(path);
            return -1;
        }
        list->paths = grown;
        list->capacity = capacity;
    }
    list->paths[list->count++] = path;
    return 0;
}

void gm_path_list_free(gm_path_list *list) {
    for (size_t i = 0; i < list->count; i++) {
        free(list->paths[i]);
    }
    free(list->paths);
    memset(list, 0, sizeof *list);
}
