/* The file patterns of a project's [tool.graphmend], as ruff spells them: exclude and
 * extend-exclude (files the walk leaves out) and per-file-ignores (rules not reported in the
 * files a glob matches). Globs are matched, as ruff does, against the path relative to the
 * pyproject.toml's directory and against the file's (or a parent directory's) name; `*` also
 * matches `/`. */
#ifndef GM_SERVER_CONFIG_PROJECT_FILES_H
#define GM_SERVER_CONFIG_PROJECT_FILES_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/options/analysis_options.h"

#define GM_MAX_PROJECT_PATTERNS 64
#define GM_PROJECT_PATTERN_SIZE 256

typedef struct {
    char glob[GM_PROJECT_PATTERN_SIZE];
    gm_rule_selectors rules;
} gm_per_file_ignore;

typedef struct {
    char root[4096]; /* the pyproject.toml's directory, absolute; "" when there is none */
    size_t exclude_count;
    char exclude[GM_MAX_PROJECT_PATTERNS][GM_PROJECT_PATTERN_SIZE]; /* and extend-exclude */
    size_t per_file_ignore_count;
    gm_per_file_ignore per_file_ignores[GM_MAX_PROJECT_PATTERNS];
    /* cache-dir as written (relative to root unless absolute); "" when not given */
    char cache_dir[4096];
} gm_project_files;

/* Whether an exclude pattern of project matches path or a directory above it in the project,
 * below walked_from (the directory a walk started from, itself never excluded, as in ruff; NULL
 * for a file named on the command line). */
bool gm_project_excludes(const gm_project_files *project, const char *path,
                         const char *walked_from);

/* Adds to *ignore the rules per-file-ignores names for path (as many as fit). */
void gm_project_add_file_ignores(const gm_project_files *project, const char *path,
                                 gm_rule_selectors *ignore);

#endif
