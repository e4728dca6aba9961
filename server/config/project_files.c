#include "server/config/project_files.h"

#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* path relative to project's root, written to out; false when it lies outside the project. The
 * path need not exist (a --stdin-filename): then it is taken from the current directory. */
static bool relative_to_root(const gm_project_files *project, const char *path, char *out,
                             size_t size) {
    char absolute[PATH_MAX];
    if (!realpath(path, absolute)) {
        char cwd[PATH_MAX];
        if (path[0] == '/') {
            snprintf(absolute, sizeof absolute, "%s", path);
        } else if (getcwd(cwd, sizeof cwd)) {
            snprintf(absolute, sizeof absolute, "%.2047s/%.2047s", cwd, path);
        } else {
            return false;
        }
    }
    size_t n = strlen(project->root);
    if (n == 0 || strncmp(absolute, project->root, n) != 0 ||
        (absolute[n] != '/' && !(n == 1 && project->root[0] == '/'))) {
        return false;
    }
    const char *rest = absolute + n + (absolute[n] == '/');
    snprintf(out, size, "%s", rest);
    return *out != '\0';
}

static bool glob_matches(const char *glob, const char *relative, const char *name) {
    if (strncmp(glob, "./", 2) == 0) {
        glob += 2;
    }
    return fnmatch(glob, relative, 0) == 0 || fnmatch(glob, name, 0) == 0;
}

bool gm_project_excludes(const gm_project_files *project, const char *path,
                         const char *walked_from) {
    char relative[PATH_MAX], floor[PATH_MAX] = "";
    if (project->exclude_count == 0 ||
        !relative_to_root(project, path, relative, sizeof relative)) {
        return false;
    }
    if (walked_from) {
        relative_to_root(project, walked_from, floor, sizeof floor);
    }
    /* the file, then each directory above it ("a/b/c.py", "a/b", "a") */
    for (;;) {
        if (walked_from && strcmp(relative, floor) == 0) {
            return false;
        }
        const char *slash = strrchr(relative, '/');
        const char *name = slash ? slash + 1 : relative;
        for (size_t i = 0; i < project->exclude_count; i++) {
            if (glob_matches(project->exclude[i], relative, name)) {
                return true;
            }
        }
        if (!slash) {
            return false;
        }
        relative[slash - relative] = '\0';
    }
}

void gm_project_add_file_ignores(const gm_project_files *project, const char *path,
                                 gm_rule_selectors *ignore) {
    char relative[PATH_MAX];
    if (project->per_file_ignore_count == 0 ||
        !relative_to_root(project, path, relative, sizeof relative)) {
        return;
    }
    const char *slash = strrchr(relative, '/');
    const char *name = slash ? slash + 1 : relative;
    for (size_t i = 0; i < project->per_file_ignore_count; i++) {
        const gm_per_file_ignore *entry = &project->per_file_ignores[i];
        if (!glob_matches(entry->glob, relative, name)) {
            continue;
        }
        for (size_t r = 0; r < entry->rules.count && ignore->count < GM_MAX_RULE_SELECTORS; r++) {
            memcpy(ignore->items[ignore->count++], entry->rules.items[r],
                   sizeof ignore->items[0]);
        }
    }
}
