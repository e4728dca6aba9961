#include "server/config/summary_cache.h"

#include <stdio.h>
#include <stdlib.h>

#include "server/config/project_files.h"
#include "server/config/pyproject_config.h"

gm_summary_store *gm_project_summary_store(const char *file, const char *project_root,
                                           const char *directory,
                                           const gm_analysis_options *options) {
    if (directory)
        return gm_summary_store_open(directory, project_root, options);
    gm_project_files *project = calloc(1, sizeof *project);
    if (!project)
        return NULL;
    gm_analysis_options ignored;
    gm_analysis_options_default(&ignored);
    unsigned set = 0;
    char error[600], configured[8192];
    const char *chosen = NULL;
    /* an invalid pyproject.toml is reported by the file's own options; here it names nothing */
    if (gm_pyproject_load_project(file, &ignored, &set, project, error, sizeof error) == 0 &&
        project->cache_dir[0]) {
        if (project->cache_dir[0] == '/')
            snprintf(configured, sizeof configured, "%s", project->cache_dir);
        else
            snprintf(configured, sizeof configured, "%s/%s", project->root, project->cache_dir);
        chosen = configured;
    }
    gm_summary_store *store = gm_summary_store_open(chosen, project_root, options);
    free(project);
    return store;
}
