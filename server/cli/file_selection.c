#include "server/cli/file_selection.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "server/config/pyproject_config.h"
#include "server/workspace/python_files.h"

/* The project patterns of the last directory asked about: walks list a directory's files
 * together, so one pyproject.toml is read per directory. */
typedef struct {
    char dir[4096];
    gm_project_files project;
} project_cache;

static const gm_project_files *project_of(project_cache *cache, const char *path) {
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash) {
        *slash = '\0';
    } else {
        snprintf(dir, sizeof dir, ".");
    }
    if (strcmp(dir, cache->dir) != 0) {
        gm_analysis_options ignored;
        gm_analysis_options_default(&ignored);
        unsigned set = 0;
        char error[8]; /* a broken pyproject.toml is reported when the file is analysed */
        if (gm_pyproject_load_project(path, &ignored, &set, &cache->project, error,
                                      sizeof error) != 0) {
            memset(&cache->project, 0, sizeof cache->project);
        }
        snprintf(cache->dir, sizeof cache->dir, "%s", dir);
    }
    return &cache->project;
}

static bool is_directory(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int gm_cli_select_files(const gm_cli_options *options, gm_path_list *files) {
    int status = 0;
    project_cache *cache = calloc(1, sizeof *cache);
    if (!cache) {
        fprintf(stderr, "graphmend: out of memory\n");
        return -1;
    }
    for (int i = 0; i < options->path_count; i++) {
        const char *named = options->paths[i];
        bool walked = is_directory(named);
        gm_path_list found = {0};
        if (gm_collect_python_files(named, &found) != 0) {
            status = -1;
        }
        for (size_t f = 0; f < found.count; f++) {
            char *path = found.paths[f];
            found.paths[f] = NULL;
            /* as ruff: exclude applies to what a walk finds, and to a file named on the command
             * line only with --force-exclude */
            if ((walked || options->force_exclude) &&
                gm_project_excludes(project_of(cache, path), path, walked ? named : NULL)) {
                free(path);
                continue;
            }
            if (strncmp(path, "./", 2) == 0 && path[2] != '\0') { /* shown as "m.py", as ruff */
                memmove(path, path + 2, strlen(path + 2) + 1);
            }
            if (gm_path_list_push(files, path) != 0) {
                status = -1;
            }
        }
        gm_path_list_free(&found);
    }
    free(cache);
    return status;
}
