#include "server/workspace/python_files.h"

#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static int push(gm_path_list *list, char *path) {
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

static bool is_python_file(const char *name) {
    size_t n = strlen(name);
    return n > 3 && strcmp(name + n - 3, ".py") == 0;
}

/* Hidden directories, caches, and installed packages (virtual environments, site-packages):
 * not the user's code. */
static bool skip_directory(const char *path, const char *name) {
    if (name[0] == '.' || strcmp(name, "__pycache__") == 0 || strcmp(name, "node_modules") == 0 ||
        strcmp(name, "site-packages") == 0)
        return true;
    char marker[4096];
    struct stat info;
    int n = snprintf(marker, sizeof marker, "%s/pyvenv.cfg", path);
    return n > 0 && (size_t)n < sizeof marker && stat(marker, &info) == 0;
}

typedef struct {
    gm_path_list *list;
    size_t max_files;
    bool quiet;
    bool truncated;
} walk_state;

static int compare_names(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int walk(const char *dir, walk_state *state) {
    gm_path_list *list = state->list;
    DIR *handle = opendir(dir);
    if (!handle) {
        if (!state->quiet) {
            fprintf(stderr, "graphmend: cannot read directory %s: %s\n", dir, strerror(errno));
        }
        return -1;
    }
    gm_path_list entries = {0};
    struct dirent *entry;
    while ((entry = readdir(handle)) != NULL) {
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) {
            continue;
        }
        size_t n = strlen(dir) + strlen(entry->d_name) + 2;
        char *child = malloc(n);
        if (!child) {
            break;
        }
        snprintf(child, n, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", entry->d_name);
        push(&entries, child);
    }
    closedir(handle);
    if (entries.count > 1) {
        qsort(entries.paths, entries.count, sizeof *entries.paths, compare_names);
    }
    int status = 0;
    for (size_t i = 0; i < entries.count; i++) {
        char *child = entries.paths[i];
        const char *name = strrchr(child, '/') + 1;
        struct stat info;
        if (stat(child, &info) != 0) {
            free(child); /* dangling symlink and the like: not a file we were asked for */
            continue;
        }
        if (list->count >= state->max_files) {
            state->truncated = true;
            free(child);
        } else if (S_ISDIR(info.st_mode)) {
            if (!skip_directory(child, name) && walk(child, state) != 0) {
                status = -1;
            }
            free(child);
        } else if (S_ISREG(info.st_mode) && is_python_file(name)) {
            push(list, child);
        } else {
            free(child);
        }
    }
    free(entries.paths);
    return status;
}

int gm_collect_python_files(const char *path, gm_path_list *list) {
    struct stat info;
    if (stat(path, &info) != 0) {
        fprintf(stderr, "graphmend: %s: %s\n", path, strerror(errno));
        return -1;
    }
    if (S_ISDIR(info.st_mode)) {
        walk_state state = {list, (size_t)-1, false, false};
        return walk(path, &state);
    }
    char *copy = strdup(path);
    return copy ? push(list, copy) : -1;
}

int gm_find_python_files(const char *dir, gm_path_list *list, size_t max_files, bool *truncated) {
    walk_state state = {list, max_files, true, false};
    int status = walk(dir, &state);
    *truncated = state.truncated;
    return status;
}

void gm_path_list_free(gm_path_list *list) {
    for (size_t i = 0; i < list->count; i++) {
        free(list->paths[i]);
    }
    free(list->paths);
    memset(list, 0, sizeof *list);
}

char *gm_read_file(const char *path, size_t *len) {
    FILE *file = fopen(path, "rb");
    if (!file) {
        return NULL;
    }
    size_t capacity = 4096, used = 0;
    char *data = malloc(capacity);
    while (data) {
        size_t n = fread(data + used, 1, capacity - used - 1, file);
        used += n;
        if (n == 0) {
            break;
        }
        if (capacity - used - 1 == 0) {
            char *grown = realloc(data, capacity * 2);
            if (!grown) {
                free(data);
                data = NULL;
                errno = ENOMEM;
                break;
            }
            data = grown;
            capacity *= 2;
        }
    }
    int failed = ferror(file);
    fclose(file);
    if (!data || failed) {
        free(data);
        if (failed) {
            errno = EIO;
        }
        return NULL;
    }
    data[used] = '\0';
    *len = used;
    return data;
}
