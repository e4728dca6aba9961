#include "server/profile/job.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "server/config/interpreter_path.h"
#include "server/profile/helper_script.h"
#include "server/profile/process_tag.h"
#include "server/profile/report.h"
#include "server/profile/workdir.h"

extern char **environ;

/* Bytes of the children's stdout and stderr kept for a failure message (the end of it). */
#define OUTPUT_TAIL 6000
#define PROGRESS_LINE 512
#define ARM_COUNT 2

static const char *const arm_names[ARM_COUNT] = {"original", "mended"};

/* The pipes of one running arm: stdout, stderr, and descriptor 3 for the helper's progress. */
enum { PIPE_STDOUT, PIPE_STDERR, PIPE_PROGRESS, PIPE_COUNT };

struct gm_profile_job {
    uv_loop_t *loop;
    gm_profile_callbacks callbacks;
    char dir[1024];
    char *python, *display_path, *module_dir, *entry, *device, *mode, *backend;
    char *mended_imports_launcher, *mended_imports_map; /* NULL: packages as installed */
    int iterations, warmup;
    size_t mends_applied, package_mends;
    bool unsafe_fixes;
    bool confirm; /* one arm, the helper's --confirm answer is the result */
    double timeout_s;

    uv_timer_t timer;
    uv_process_t process;
    uv_pipe_t pipes[PIPE_COUNT];
    int arm;     /* the arm running or last run */
    long pid;    /* its pid while it runs, also its process group; 0 otherwise */
    int awaited; /* exit + EOF of each pipe still to come for the current arm */
    bool pipe_done[PIPE_COUNT]; /* its EOF came, or the deadline gave up on it */
    char tag[GM_PROCESS_TAG_SIZE]; /* in every process of the job (process_tag.h) */
    int closing; /* handles of the current arm not closed yet */
    int64_t exit_status;
    int term_signal;

    char output[OUTPUT_TAIL];
    size_t output_len;
    char line[PROGRESS_LINE];
    size_t line_len;

    json_t *arms[ARM_COUNT];
    json_t *failure;   /* {"kind", "message", ...} once the run failed */
    bool arm_open;     /* the current arm's handles are initialised and not being closed */
    bool timer_closed; /* the run is over: the timer's close callback has come */
    bool finishing, abandoned;
};

static void spawn_arm(gm_profile_job *job, int arm);
static void finish(gm_profile_job *job);

static char *copy_string(const char *text) {
    return strdup(text ? text : "");
}

static void fail(gm_profile_job *job, const char *kind, const char *message) {
    if (job->failure) {
        return; /* the first failure is the one to report */
    }
    job->failure =
        json_pack("{s:s,s:s,s:s}", "kind", kind, "message", message, "arm", arm_names[job->arm]);
    if (!job->failure) { /* a message that is not UTF-8 (a path): say less rather than nothing */
        job->failure = json_pack("{s:s,s:s,s:s}", "kind", kind, "message",
                                 "the profile failed (the message could not be encoded)", "arm",
                                 arm_names[job->arm]);
    }
}

static void kill_group(gm_profile_job *job) {
    if (job->pid > 0) {
        /* The helper runs in a session of its own (UV_PROCESS_DETACHED): inductor's compile
         * workers go with it. */
        kill((pid_t)-job->pid, SIGKILL);
    }
    /* and what left it for a session of its own, keeping the pipes open */
    if (job->tag[0])
        gm_process_tag_kill(job->tag);
}

static unsigned stage_percent(const char *stage) {
    static const struct {
        const char *prefix;
        unsigned percent;
    } stages[] = {
        {"starting", 0},       {"importing", 5},  {"eager", 10},
        {"torch._dynamo", 20}, {"compiling", 35}, {"warm-up", 75},
        {"timing", 80},        {"counting", 95},  {"done", 100},
    };
    for (size_t i = 0; i < sizeof stages / sizeof stages[0]; i++) {
        if (strncmp(stage, stages[i].prefix, strlen(stages[i].prefix)) == 0) {
            return stages[i].percent;
        }
    }
    return 0;
}

/* A line "arm: stage" from the helper. */
static void report_progress_line(gm_profile_job *job, const char *line) {
    const char *stage = strstr(line, ": ");
    stage = stage ? stage + 2 : line;
    unsigned percent = job->confirm ? stage_percent(stage)
                                    : (unsigned)job->arm * 50 + stage_percent(stage) / 2;
    char message[PROGRESS_LINE + 32];
    if (job->confirm) {
        snprintf(message, sizeof message, "%s", stage);
    } else {
        snprintf(message, sizeof message, "%s arm: %s", arm_names[job->arm], stage);
    }
    if (job->callbacks.progress && !job->abandoned) {
        job->callbacks.progress(job->callbacks.context, message, percent);
    }
}

static void keep_output(gm_profile_job *job, const char *data, size_t len) {
    if (len >= OUTPUT_TAIL) {
        data += len - OUTPUT_TAIL;
        len = OUTPUT_TAIL;
    }
    if (job->output_len + len > OUTPUT_TAIL) {
        size_t drop = job->output_len + len - OUTPUT_TAIL;
        memmove(job->output, job->output + drop, job->output_len - drop);
        job->output_len -= drop;
    }
    memcpy(job->output + job->output_len, data, len);
    job->output_len += len;
}

static void keep_progress(gm_profile_job *job, const char *data, size_t len) {
    for (size_t i = 0; i < len; i++) {
        if (data[i] == '\n') {
            job->line[job->line_len] = '\0';
            report_progress_line(job, job->line);
            job->line_len = 0;
        } else if (job->line_len + 1 < sizeof job->line) {
            job->line[job->line_len++] = data[i];
        }
    }
}

static void alloc_buffer(uv_handle_t *handle, size_t suggested, uv_buf_t *buf) {
    (void)handle;
    buf->base = malloc(suggested);
    buf->len = buf->base ? suggested : 0;
}

static void on_handle_closed(uv_handle_t *handle);

/* Closes the current arm's pipes and, when uv_spawn initialised it, its process handle. */
static void close_arm_handles(gm_profile_job *job, bool with_process) {
    job->arm_open = false;
    job->awaited = 0;
    job->closing = PIPE_COUNT + (with_process ? 1 : 0);
    if (with_process) {
        uv_close((uv_handle_t *)&job->process, on_handle_closed);
    }
    for (int i = 0; i < PIPE_COUNT; i++) {
        uv_close((uv_handle_t *)&job->pipes[i], on_handle_closed);
    }
}

static void one_less_awaited(gm_profile_job *job) {
    if (--job->awaited == 0) {
        close_arm_handles(job, true);
    }
}

static void on_read(uv_stream_t *stream, ssize_t nread, const uv_buf_t *buf) {
    gm_profile_job *job = stream->data;
    if (nread > 0) {
        if (stream == (uv_stream_t *)&job->pipes[PIPE_PROGRESS]) {
            keep_progress(job, buf->base, (size_t)nread);
        } else {
            keep_output(job, buf->base, (size_t)nread);
        }
    } else if (nread < 0) {
        uv_read_stop(stream);
        for (int i = 0; i < PIPE_COUNT; i++)
            if (stream == (uv_stream_t *)&job->pipes[i] && !job->pipe_done[i]) {
                job->pipe_done[i] = true;
                one_less_awaited(job);
            }
    }
    free(buf->base);
}

/* At the deadline: the pipes are not waited for any longer (a process that escaped every kill
 * may hold them open for ever); the arm ends when its process has. */
static void abandon_pipes(gm_profile_job *job) {
    for (int i = 0; i < PIPE_COUNT && job->arm_open; i++)
        if (!job->pipe_done[i]) {
            job->pipe_done[i] = true;
            uv_read_stop((uv_stream_t *)&job->pipes[i]);
            one_less_awaited(job);
        }
}

static void on_arm_exit(uv_process_t *process, int64_t exit_status, int term_signal) {
    gm_profile_job *job = process->data;
    job->exit_status = exit_status;
    job->term_signal = term_signal;
    /* Whatever the helper left behind in its group would keep the pipes open. */
    kill_group(job);
    job->pid = 0;
    one_less_awaited(job);
}

/* The output tail as a JSON string; bytes that are not UTF-8 (or a character cut in two by
 * the tail) become '?'. */
static json_t *output_tail_json(const gm_profile_job *job) {
    json_t *text = json_stringn(job->output, job->output_len);
    if (text) {
        return text;
    }
    char *ascii = malloc(job->output_len + 1);
    if (!ascii) {
        return json_string("");
    }
    for (size_t i = 0; i < job->output_len; i++) {
        unsigned char c = (unsigned char)job->output[i];
        ascii[i] = c >= 0x80 || (c < 0x20 && c != '\n' && c != '\t') ? '?' : (char)c;
    }
    text = json_stringn(ascii, job->output_len);
    free(ascii);
    return text ? text : json_string("");
}

/* The arm's process has exited and its handles are closed: read what it wrote. */
static void arm_finished(gm_profile_job *job) {
    int arm = job->arm;
    if (job->failure) { /* cancelled or timed out meanwhile */
        finish(job);
        return;
    }
    char name[32];
    snprintf(name, sizeof name, "%s.json", arm_names[arm]);
    char *text = gm_profile_workdir_read(job->dir, name, NULL);
    json_t *result = text ? json_loads(text, 0, NULL) : NULL;
    free(text);
    if (!json_is_object(result)) {
        char message[256];
        if (job->term_signal) {
            snprintf(message, sizeof message,
                     "the %s arm's Python was killed by signal %d before it wrote a result",
                     arm_names[arm], job->term_signal);
        } else {
            snprintf(message, sizeof message,
                     "the %s arm's Python exited with status %lld without a result (see its "
                     "output)",
                     arm_names[arm], (long long)job->exit_status);
        }
        fail(job, "crashed", message);
        json_decref(result);
        finish(job);
        return;
    }
    if (!json_is_true(json_object_get(result, "ok"))) {
        json_t *error = json_object_get(result, "error");
        job->failure = json_is_object(error) ? json_incref(error)
                                             : json_pack("{s:s,s:s}", "kind", "crashed", "message",
                                                         "the helper reported an unknown error");
        json_object_set_new(job->failure, "arm", json_string(arm_names[arm]));
        json_decref(result);
        finish(job);
        return;
    }
    job->arms[arm] = result;
    if (arm + 1 < ARM_COUNT && !job->confirm) {
        spawn_arm(job, arm + 1);
    } else {
        finish(job);
    }
}

static void free_job(gm_profile_job *job) {
    gm_profile_workdir_remove(job->dir);
    for (int i = 0; i < ARM_COUNT; i++) {
        json_decref(job->arms[i]);
    }
    json_decref(job->failure);
    free(job->python);
    free(job->display_path);
    free(job->module_dir);
    free(job->entry);
    free(job->device);
    free(job->mode);
    free(job->backend);
    free(job->mended_imports_launcher);
    free(job->mended_imports_map);
    free(job);
}

/* An abandoned job is freed once every handle it opened has closed. */
static void free_if_abandoned_and_closed(gm_profile_job *job) {
    if (job->abandoned && job->closing == 0 && !job->arm_open && job->timer_closed) {
        free_job(job);
    }
}

static void on_handle_closed(uv_handle_t *handle) {
    gm_profile_job *job = handle->data;
    if (--job->closing > 0) {
        return;
    }
    if (job->abandoned) {
        free_if_abandoned_and_closed(job);
    } else {
        arm_finished(job);
    }
}

static void on_timer_closed(uv_handle_t *handle) {
    gm_profile_job *job = handle->data;
    job->timer_closed = true;
    if (job->abandoned) {
        free_if_abandoned_and_closed(job);
        return;
    }
    if (job->callbacks.done) {
        json_t *result;
        if (!job->failure && (!job->arms[0] || (!job->confirm && !job->arms[1]))) {
            fail(job, "internal", "the profile ended without the results of both arms");
        }
        if (job->failure) {
            json_object_set_new(job->failure, "output", output_tail_json(job));
            if (!json_object_get(job->failure, "traceback")) {
                json_object_set_new(job->failure, "traceback", json_string(""));
            }
            result = json_pack("{s:b,s:O}", "ok", 0, "error", job->failure);
        } else if (job->confirm) {
            result = json_incref(job->arms[0]);
        } else {
            gm_profile_report_info info = {
                .file = job->display_path,
                .entry = job->entry,
                .mode = job->mode,
                .backend = job->backend,
                .mends_applied = job->mends_applied,
                .package_mends = job->package_mends,
                .unsafe_fixes = job->unsafe_fixes,
            };
            result = gm_profile_report_build(&info, job->arms[0], job->arms[1]);
        }
        job->callbacks.done(job->callbacks.context, result);
        json_decref(result);
    }
    free_job(job);
}

/* Every arm is over (or could not start): stop the clock, then report from its close callback,
 * so that done is never called from inside gm_profile_job_start. */
static void finish(gm_profile_job *job) {
    if (job->finishing) {
        return;
    }
    job->finishing = true;
    uv_timer_stop(&job->timer);
    uv_close((uv_handle_t *)&job->timer, on_timer_closed);
}

static void on_timeout(uv_timer_t *timer) {
    gm_profile_job *job = timer->data;
    char message[256];
    if (job->confirm) {
        snprintf(message, sizeof message,
                 "the run did not finish within %g s; its processes were killed. Give more time "
                 "with --timeout or use smaller inputs",
                 job->timeout_s);
    } else {
        snprintf(message, sizeof message,
                 "the profile did not finish within %g s (it was in the %s arm); its processes "
                 "were killed. Give more time with --timeout or profile a smaller model",
                 job->timeout_s, arm_names[job->arm]);
    }
    fail(job, "timeout", message);
    kill_group(job);
    abandon_pipes(job);
}

/* The children's environment: ours, with a private inductor (and triton) cache per arm and no
 * bytecode written next to the user's files. NULL on OOM; frees with free_environment. */
static char **child_environment(const gm_profile_job *job, int arm) {
    static const char *const replaced[] = {
        "TORCHINDUCTOR_CACHE_DIR=", "TRITON_CACHE_DIR=", "PYTHONDONTWRITEBYTECODE="};
    size_t count = 0;
    while (environ[count]) {
        count++;
    }
    char **env = calloc(count + 5, sizeof *env);
    if (!env) {
        return NULL;
    }
    size_t used = 0;
    for (size_t i = 0; i < count; i++) {
        bool skip = false;
        for (size_t j = 0; j < sizeof replaced / sizeof replaced[0]; j++) {
            skip = skip || strncmp(environ[i], replaced[j], strlen(replaced[j])) == 0;
        }
        if (!skip) {
            env[used++] = environ[i];
        }
    }
    char *own[3];
    size_t size = strlen(job->dir) + 64;
    own[0] = malloc(size);
    own[1] = malloc(size);
    own[2] = strdup("PYTHONDONTWRITEBYTECODE=1");
    if (!own[0] || !own[1] || !own[2]) {
        free(own[0]);
        free(own[1]);
        free(own[2]);
        free(env);
        return NULL;
    }
    snprintf(own[0], size, "TORCHINDUCTOR_CACHE_DIR=%s/inductor-%s", job->dir, arm_names[arm]);
    snprintf(own[1], size, "TRITON_CACHE_DIR=%s/triton-%s", job->dir, arm_names[arm]);
    for (int i = 0; i < 3; i++) {
        env[used++] = own[i];
    }
    env[used++] = (char *)job->tag; /* the job owns it: free_environment leaves it */
    env[used] = NULL;
    return env;
}

static void free_environment(char **env) {
    if (!env) {
        return;
    }
    size_t count = 0;
    while (env[count]) {
        count++;
    }
    /* the three strings child_environment made, before the job's tag (which the job owns) */
    for (size_t i = count - 4; i < count - 1; i++) {
        free(env[i]);
    }
    free(env);
}

static void spawn_arm(gm_profile_job *job, int arm) {
    job->arm = arm;
    gm_process_tag_new(job->tag);
    job->output_len = 0;
    job->line_len = 0;
    char script[1100], copy[1100], result[1100], outputs[1100], reference[1100];
    char iterations[16], warmup[16];
    snprintf(script, sizeof script, "%s/profile_helper.py", job->dir);
    snprintf(copy, sizeof copy, "%s/%s.py", job->dir, arm_names[arm]);
    snprintf(result, sizeof result, "%s/%s.json", job->dir, arm_names[arm]);
    snprintf(outputs, sizeof outputs, "%s/%s-outputs.pt", job->dir, arm_names[arm]);
    snprintf(reference, sizeof reference, "%s/%s-outputs.pt", job->dir, arm_names[0]);
    snprintf(iterations, sizeof iterations, "%d", job->iterations);
    snprintf(warmup, sizeof warmup, "%d", job->warmup);
    char *args[] = {job->python,
                    script,
                    "--arm",
                    (char *)arm_names[arm],
                    "--file",
                    copy,
                    "--display-path",
                    job->display_path,
                    "--module-dir",
                    job->module_dir,
                    "--entry",
                    job->entry,
                    "--device",
                    job->device,
                    "--mode",
                    job->mode,
                    "--backend",
                    job->backend,
                    "--iterations",
                    iterations,
                    "--warmup",
                    warmup,
                    "--result",
                    result,
                    "--outputs",
                    outputs,
                    "--progress-fd",
                    "3",
                    job->confirm ? "--confirm" : arm > 0 ? "--reference" : NULL,
                    job->confirm ? NULL : reference,
                    NULL,
                    NULL,
                    NULL,
                    NULL};
    if (arm > 0 && !job->confirm && job->mended_imports_map) {
        size_t last = 0; /* the first of the NULLs after --reference */
        while (args[last]) {
            last++;
        }
        args[last] = "--mended-imports";
        args[last + 1] = job->mended_imports_launcher;
        args[last + 2] = job->mended_imports_map;
    }

    for (int i = 0; i < PIPE_COUNT; i++) {
        uv_pipe_init(job->loop, &job->pipes[i], 0);
        job->pipes[i].data = job;
    }
    job->process.data = job;
    uv_stdio_container_t stdio[1 + PIPE_COUNT];
    stdio[0].flags = UV_IGNORE;
    for (int i = 0; i < PIPE_COUNT; i++) {
        stdio[1 + i].flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE;
        stdio[1 + i].data.stream = (uv_stream_t *)&job->pipes[i];
    }
    char **env = child_environment(job, arm);
    bool spawn_called = env != NULL; /* uv_spawn initialises the process handle, even failing */
    uv_process_options_t options = {
        .exit_cb = on_arm_exit,
        .file = job->python,
        .args = args,
        .env = env,
        .cwd = job->module_dir,
        .flags = UV_PROCESS_DETACHED,
        .stdio_count = 1 + PIPE_COUNT,
        .stdio = stdio,
    };
    int rc = env ? uv_spawn(job->loop, &job->process, &options) : UV_ENOMEM;
    free_environment(env);
    if (rc != 0) {
        char message[1400];
        snprintf(message, sizeof message,
                 "cannot start the Python interpreter '%s': %s (choose one with --python or "
                 "$GRAPHMEND_PYTHON)",
                 job->python, uv_strerror(rc));
        fail(job, rc == UV_ENOENT ? "no_python" : "spawn_failed", message);
        close_arm_handles(job, spawn_called);
        return;
    }
    job->arm_open = true;
    job->pid = job->process.pid;
    job->awaited = 1 + PIPE_COUNT;
    for (int i = 0; i < PIPE_COUNT; i++) {
        job->pipe_done[i] = false;
        uv_read_start((uv_stream_t *)&job->pipes[i], alloc_buffer, on_read);
    }
    if (job->callbacks.started && !job->abandoned) {
        job->callbacks.started(job->callbacks.context, arm_names[arm], job->pid);
    }
}

static char *directory_of(const char *path) {
    const char *slash = strrchr(path, '/');
    if (!slash) {
        return strdup(".");
    }
    if (slash == path) {
        return strdup("/");
    }
    return strndup(path, (size_t)(slash - path));
}

gm_profile_job *gm_profile_job_start(uv_loop_t *loop, const gm_profile_request *request,
                                     const gm_profile_callbacks *callbacks, char *error,
                                     size_t error_size) {
    gm_profile_job *job = calloc(1, sizeof *job);
    if (!job) {
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    job->loop = loop;
    job->callbacks = *callbacks;
    job->python = gm_interpreter_path(request->python ? request->python : "");
    job->display_path = copy_string(request->display_path);
    job->module_dir = directory_of(job->display_path ? job->display_path : ".");
    job->entry = copy_string(request->entry);
    job->device = copy_string(request->device);
    job->mode = copy_string(request->mode);
    job->backend = copy_string(request->backend);
    job->iterations = request->iterations;
    job->warmup = request->warmup;
    job->mends_applied = request->mends_applied;
    job->package_mends = request->package_mends;
    job->unsafe_fixes = request->unsafe_fixes;
    job->timeout_s = request->timeout_s;
    job->confirm = request->confirm;
    if (request->mended_imports_map && request->mended_imports_launcher) {
        job->mended_imports_launcher = strdup(request->mended_imports_launcher);
        job->mended_imports_map = strdup(request->mended_imports_map);
        if (!job->mended_imports_launcher || !job->mended_imports_map) {
            snprintf(error, error_size, "out of memory");
            free_job(job);
            return NULL;
        }
    }
    if (!job->python || !job->display_path || !job->module_dir || !job->entry || !job->device ||
        !job->mode || !job->backend) {
        snprintf(error, error_size, "out of memory");
        free_job(job);
        return NULL;
    }
    if (gm_profile_workdir_create(job->dir, sizeof job->dir) != 0 ||
        gm_profile_workdir_write(job->dir, "profile_helper.py", gm_profile_helper_script,
                                 gm_profile_helper_script_len) != 0 ||
        gm_profile_workdir_write(job->dir, "original.py", request->original_text,
                                 request->original_len) != 0 ||
        (!job->confirm && gm_profile_workdir_write(job->dir, "mended.py", request->mended_text,
                                                   request->mended_len) != 0)) {
        snprintf(error, error_size, "cannot prepare a temporary directory for the profile: %s",
                 strerror(errno));
        free_job(job);
        return NULL;
    }
    uv_timer_init(loop, &job->timer);
    job->timer.data = job;
    if (job->timeout_s > 0) {
        uv_timer_start(&job->timer, on_timeout, (uint64_t)(job->timeout_s * 1000.0), 0);
    }
    spawn_arm(job, 0);
    return job;
}

void gm_profile_job_cancel(gm_profile_job *job) {
    fail(job, "cancelled", "the profile was cancelled; its processes were killed");
    kill_group(job);
    abandon_pipes(job);
}

void gm_profile_job_abandon(gm_profile_job *job) {
    gm_profile_job_cancel(job);
    job->abandoned = true;
    gm_profile_workdir_remove(job->dir);
    job->dir[0] = '\0';
    if (job->arm_open) { /* still running or draining its pipes: stop listening now */
        close_arm_handles(job, true);
    }
    if (!job->finishing) {
        job->finishing = true;
        uv_timer_stop(&job->timer);
        uv_close((uv_handle_t *)&job->timer, on_timer_closed);
    }
}
