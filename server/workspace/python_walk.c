#include "server/workspace/python_walk.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "server/workspace/ignore_rules.h"
#include "server/workspace/inode_set.h"

/* A directory being walked: its entries' paths, sorted, and the next one to visit. */
typedef struct {
    gm_path_list entries;
    size_t next;
} frame;

struct gm_python_walk {
    frame *stack;
    size_t depth, stack_capacity;
    gm_inode_set seen; /* directories and files */
    gm_ignore_rules ignores; /* the .gitignore files of the directories entered */
    size_t max_files, files, directories;
    bool quiet, truncated, failed;
};

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

static int compare_names(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *join(const char *dir, const char *name) {
    size_t n = strlen(dir) + strlen(name) + 2;
    char *path = malloc(n);
    if (path) {
        snprintf(path, n, "%s%s%s", dir, dir[strlen(dir) - 1] == '/' ? "" : "/", name);
    }
    return path;
}

/* Reads dir's entries onto the stack. */
static void enter(gm_python_walk *walk, const char *dir) {
    if (walk->directories >= GM_WALK_MAX_DIRECTORIES) {
        walk->truncated = true;
        return;
    }
    if (walk->depth == walk->stack_capacity) {
        size_t capacity = walk->stack_capacity ? walk->stack_capacity * 2 : 16;
        frame *grown = realloc(walk->stack, capacity * sizeof *grown);
        if (!grown) {
            walk->failed = true;
            return;
        }
        walk->stack = grown;
        walk->stack_capacity = capacity;
    }
    DIR *handle = opendir(dir);
    if (!handle) {
        if (!walk->quiet) {
            fprintf(stderr, "graphmend: cannot read directory %s: %s\n", dir, strerror(errno));
        }
        walk->failed = true;
        return;
    }
    walk->directories++;
    if (gm_ignore_rules_load(&walk->ignores, dir) != 0)
        walk->failed = true;
    frame *top = &walk->stack[walk->depth++];
    memset(top, 0, sizeof *top);
    struct dirent *entry;
    while ((entry = readdir(handle)) != NULL) {
        if (strcmp(entry->d_name, ".") == 0 || strcmp(entry->d_name, "..") == 0) {
            continue;
        }
        char *child = join(dir, entry->d_name);
        if (!child || gm_path_list_push(&top->entries, child) != 0) {
            walk->failed = true;
            break;
        }
    }
    closedir(handle);
    if (top->entries.count > 1) {
        qsort(top->entries.paths, top->entries.count, sizeof *top->entries.paths, compare_names);
    }
}

/* Whether (dev, ino) is new to the walk; an OOM counts as seen, so the walk still ends. */
static bool first_visit(gm_python_walk *walk, const struct stat *info) {
    int added = gm_inode_set_add(&walk->seen, info->st_dev, info->st_ino);
    if (added < 0) {
        walk->failed = true;
    }
    return added == 1;
}

gm_python_walk *gm_python_walk_new(const char *dir, size_t max_files, bool quiet) {
    gm_python_walk *walk = calloc(1, sizeof *walk);
    if (!walk) {
        return NULL;
    }
    walk->max_files = max_files;
    walk->quiet = quiet;
    struct stat info;
    if (stat(dir, &info) != 0) {
        if (!quiet) {
            fprintf(stderr, "graphmend: cannot read directory %s: %s\n", dir, strerror(errno));
        }
        walk->failed = true;
    } else if (first_visit(walk, &info)) {
        enter(walk, dir);
    }
    return walk;
}

/* Visits one entry of the top directory: a directory is entered, a Python file taken, the rest
 * (dangling links, FIFOs, devices, files seen before) passed by. The entry's path is taken. */
static void visit(gm_python_walk *walk, gm_path_list *list, char *child) {
    const char *name = strrchr(child, '/') + 1;
    struct stat info;
    if (stat(child, &info) != 0) {
        free(child);
    } else if (S_ISDIR(info.st_mode)) {
        if (!skip_directory(child, name) && !gm_ignore_rules_match(&walk->ignores, child, true) &&
            first_visit(walk, &info)) {
            enter(walk, child);
        }
        free(child);
    } else if (S_ISREG(info.st_mode) && is_python_file(name) &&
               !gm_ignore_rules_match(&walk->ignores, child, false) && first_visit(walk, &info)) {
        if (walk->files >= walk->max_files) {
            walk->truncated = true;
            free(child);
        } else if (gm_path_list_push(list, child) == 0) {
            walk->files++;
        } else {
            walk->failed = true;
        }
    } else {
        free(child);
    }
}

static void leave(gm_python_walk *walk) {
    gm_path_list_free(&walk->stack[--walk->depth].entries);
}

bool gm_python_walk_step(gm_python_walk *walk, gm_path_list *list, size_t entries) {
    while (entries > 0 && walk->depth > 0) {
        if (walk->truncated) {
            while (walk->depth > 0) {
                leave(walk);
            }
            break;
        }
        frame *top = &walk->stack[walk->depth - 1];
        if (top->next == top->entries.count) {
            leave(walk);
            continue;
        }
        char *child = top->entries.paths[top->next];
        top->entries.paths[top->next++] = NULL;
        visit(walk, list, child);
        entries--;
    }
    return walk->depth > 0;
}

bool gm_python_walk_truncated(const gm_python_walk *walk) {
    return walk->truncated;
}

bool gm_python_walk_failed(const gm_python_walk *walk) {
    return walk->failed;
}

void gm_python_walk_free(gm_python_walk *walk) {
    if (!walk) {
        return;
    }
    while (walk->depth > 0) {
        leave(walk);
    }
    free(walk->stack);
    gm_inode_set_free(&walk->seen);
    gm_ignore_rules_free(&walk->ignores);
    free(walk);
}
