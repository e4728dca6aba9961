#include "server/lsp/package_mend_stage.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "server/config/pyproject_config.h"
#include "server/config/settings.h"
#include "server/packages/package_locate.h"
#include "server/packages/package_mend.h"

typedef struct {
    uv_work_t work;
    char *python, *names, *script; /* owned */
    bool unsafe;
    gm_package_stage_done done;
    void *context;
    /* the worker's answer */
    int status;
    char map[4200], launcher[4200], error[1400];
    gm_package_mend_stats stats;
} package_stage;

static void free_stage(package_stage *stage) {
    free(stage->python);
    free(stage->names);
    free(stage->script);
    free(stage);
}

/* On a threadpool thread: nothing here touches the server's state. */
static void mend_in_worker(uv_work_t *work) {
    package_stage *stage = work->data;
    stage->status = -1;
    const char *names[32];
    size_t count = 0;
    for (char *save = NULL, *name = strtok_r(stage->names, ",", &save);
         name && count < sizeof names / sizeof names[0]; name = strtok_r(NULL, ",", &save)) {
        names[count++] = name;
    }
    gm_package_locations where;
    if (gm_locate_packages(stage->python, names, count, &where, stage->error,
                           sizeof stage->error) != 0) {
        return;
    }
    /* the packages are analysed for the Python that will import them, as `profile --packages` */
    gm_analysis_options options;
    memset(&options, 0, sizeof options);
    gm_analysis_options_default(&options);
    options.python_version = gm_python_version_nearest_supported(where.python_version);
    unsigned set = 0;
    char problem[600];
    if (stage->script &&
        gm_pyproject_load_for_file(stage->script, &options, &set, problem, sizeof problem) != 0) {
        snprintf(stage->error, sizeof stage->error, "invalid [tool.graphmend] in %s", problem);
        gm_package_locations_free(&where);
        return;
    }
    options.unsafe_fixes = options.unsafe_fixes || stage->unsafe;
    stage->status = gm_mend_packages(&where, &options, stage->map, sizeof stage->map,
                                     stage->launcher, sizeof stage->launcher, &stage->stats,
                                     stage->error, sizeof stage->error);
    gm_package_locations_free(&where);
}

static void after_worker(uv_work_t *work, int status) {
    package_stage *stage = work->data;
    if (status != 0 && stage->status == 0) {
        snprintf(stage->error, sizeof stage->error, "the package mend was cancelled");
        stage->status = -1;
    }
    if (stage->status == 0) {
        stage->done(stage->context, stage->launcher, stage->map, stage->stats.mends, NULL);
    } else {
        stage->done(stage->context, NULL, NULL, 0,
                    stage->error[0] ? stage->error : "the packages could not be mended");
    }
    free_stage(stage);
}

int gm_package_stage_start(struct uv_loop_s *loop, const char *python, const char *names,
                           const char *script, bool unsafe, gm_package_stage_done done,
                           void *context, char *error, size_t error_size) {
    package_stage *stage = calloc(1, sizeof *stage);
    if (!stage || !(stage->python = strdup(python)) || !(stage->names = strdup(names)) ||
        (script && !(stage->script = strdup(script)))) {
        if (stage) {
            free_stage(stage);
        }
        snprintf(error, error_size, "out of memory");
        return -1;
    }
    stage->unsafe = unsafe;
    stage->done = done;
    stage->context = context;
    stage->work.data = stage;
    int rc = uv_queue_work(loop, &stage->work, mend_in_worker, after_worker);
    if (rc != 0) {
        snprintf(error, error_size, "cannot start the package mend: %s", uv_strerror(rc));
        free_stage(stage);
        return -1;
    }
    return 0;
}
