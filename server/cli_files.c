#include "cli_files.h"

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

static bool skip_directory(const char *name) {
    return name[0] == '.' || strcmp(name, "__pycache__") == 0 || strcmp(name, "node_modules") == 0;
}

static int compare_names(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int walk(const char *dir, gm_path_list *list) {
    DIR *handle = opendir(dir);
    if (!handle) {
        fprintf(stderr, "graphmend: cannot read directory %s: %s\n", dir, strerror(errno));
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
    qsort(entries.paths, entries.count, sizeof *entries.paths, compare_names);
    int status = 0;
    for (size_t i = 0; i < entries.count; i++) {
        char *child = entries.paths[i];
        const char *name = strrchr(child, '/') + 1;
        struct stat info;
        if (stat(child, &info) != 0) {
            free(child); /* dangling symlink and the like: not a file we were asked for */
            continue;
        }
        if (S_ISDIR(info.st_mode)) {
            if (!skip_directory(name) && walk(child, list) != 0) {
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
        return walk(path, list);
    }
    char *copy = strdup(path);
    return copy ? push(list, copy) : -1;
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
