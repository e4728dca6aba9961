#include "server/cli/job_runner.h"

#include <signal.h>
#include <stdio.h>
#include <uv.h>

typedef struct {
    bool quiet;
    uv_signal_t interrupt, terminate;
    gm_profile_job *job;
    void (*done)(void *context, json_t *result);
    void *context;
} job_run;

static void on_progress(void *context, const char *message, unsigned percent) {
    job_run *run = context;
    if (!run->quiet) {
        fprintf(stderr, "[%3u%%] %s\n", percent, message);
    }
}

static void stop_signals(job_run *run) {
    uv_close((uv_handle_t *)&run->interrupt, NULL);
    uv_close((uv_handle_t *)&run->terminate, NULL);
}

static void on_done(void *context, json_t *result) {
    job_run *run = context;
    run->job = NULL;
    stop_signals(run);
    run->done(run->context, result);
}

static void on_signal(uv_signal_t *handle, int signum) {
    job_run *run = handle->data;
    (void)signum;
    if (run->job) {
        gm_profile_job_cancel(run->job);
    }
}

int gm_cli_run_profile_job(const char *command, const gm_profile_request *request, bool quiet,
                           void (*done)(void *context, json_t *result), void *context) {
    uv_loop_t loop;
    uv_loop_init(&loop);
    job_run run = {.quiet = quiet, .done = done, .context = context};
    uv_signal_init(&loop, &run.interrupt);
    uv_signal_init(&loop, &run.terminate);
    run.interrupt.data = run.terminate.data = &run;
    uv_signal_start(&run.interrupt, on_signal, SIGINT);
    uv_signal_start(&run.terminate, on_signal, SIGTERM);
    gm_profile_callbacks callbacks = {.progress = on_progress, .done = on_done, .context = &run};
    char error[512];
    run.job = gm_profile_job_start(&loop, request, &callbacks, error, sizeof error);
    int status = 0;
    if (!run.job) {
        fprintf(stderr, "%s: %s\n", command, error);
        stop_signals(&run);
        status = 2;
    }
    uv_run(&loop, UV_RUN_DEFAULT);
    uv_loop_close(&loop);
    return status;
}
