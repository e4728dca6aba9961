/* The version of the python3 on PATH, asked without holding up the first diagnostics. At
 * initialize the server takes the answer remembered on disk for that interpreter
 * (server/config/interpreter_version.c; the default when there is none) and analyses with it.
 * When nothing is remembered, or the interpreter is a script whose answer may change without it
 * changing (a pyenv shim), the interpreter is asked in a child process on the loop, once the
 * first diagnostics are out (or a second after initialized when no file is opened by then): on
 * a loaded machine the question must not compete with the first analysis. A different answer
 * is remembered, and documents are analysed again and published only where their diagnostics
 * change. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "server/config/interpreter_version.h"
#include "server/lsp/lsp_internal.h"

/* Without a first publish by then, the question is asked anyway. */
#define PROBE_DELAY_MS 1000
/* An interpreter that has not answered by then is killed: no answer, nothing changes. */
#define PROBE_TIMEOUT_MS 10000

typedef enum { PROBE_WAITING, PROBE_RUNNING, PROBE_DONE } probe_state;

struct gm_interpreter_probe {
    gm_server *server; /* NULL once stopped: callbacks then do nothing */
    gm_interpreter_id id;
    char cache_file[1100];
    bool cacheable;
    int remembered;
    probe_state state;
    uv_timer_t timer;
    uv_process_t process;
    uv_pipe_t output;
    bool process_open; /* uv_spawn was called: the process handle needs closing */
    int awaited;       /* exit and end of output */
    char answer[256];
    size_t answer_len;
    double started_us;
};

void gm_interpreter_probe_prepare(gm_server *server) {
    gm_interpreter_id id;
    server->interpreter_version = 0;
    if (gm_interpreter_find(&id) != 0)
        return; /* no python3 at all: the default, as before */
    char cache_file[1100];
    bool cacheable = gm_interpreter_cache_file(cache_file, sizeof cache_file) == 0;
    int remembered = cacheable ? gm_interpreter_cache_lookup(cache_file, &id) : 0;
    server->interpreter_version = remembered;
    if ((remembered && !id.script) || !server->loop)
        return; /* known for good, or no loop to ask on (unit tests, fuzzing) */
    struct gm_interpreter_probe *probe = calloc(1, sizeof *probe);
    if (!probe)
        return;
    probe->server = server;
    probe->id = id;
    memcpy(probe->cache_file, cache_file, sizeof cache_file);
    probe->cacheable = cacheable;
    probe->remembered = remembered;
    probe->state = PROBE_WAITING;
    uv_timer_init(server->loop, &probe->timer);
    probe->timer.data = probe;
    server->probe = probe;
}

static void close_handles(struct gm_interpreter_probe *probe) {
    if (!uv_is_closing((uv_handle_t *)&probe->timer))
        uv_close((uv_handle_t *)&probe->timer, NULL);
    if (probe->process_open) {
        probe->process_open = false;
        uv_close((uv_handle_t *)&probe->process, NULL);
        uv_close((uv_handle_t *)&probe->output, NULL);
    }
}

static void answered(struct gm_interpreter_probe *probe) {
    probe->state = PROBE_DONE;
    close_handles(probe);
    gm_server *server = probe->server;
    if (!server)
        return;
    int version = gm_python_version_answer(probe->answer, probe->answer_len);
    if (server->trace_timing)
        fprintf(stderr, "timing: python3 version query answered %d in %.0f us\n", version,
                gm_server_now_us() - probe->started_us);
    gm_server_log(server, 4, "%s answered the version query with %d.%d%s", probe->id.path,
                  version / 100, version % 100, version ? "" : " (no answer: the default stays)");
    if (version && version != probe->remembered && probe->cacheable &&
        gm_interpreter_cache_store(probe->cache_file, &probe->id, version) != 0)
        gm_server_log(server, 4, "could not remember the python3 version in %s",
                      probe->cache_file);
    /* Versions that give the same options (none answered and the default) change nothing. */
    gm_analysis_options before, after;
    gm_analysis_options_default_with_version(&before, server->interpreter_version);
    gm_analysis_options_default_with_version(&after, version);
    server->interpreter_version = version;
    if (before.python_version == after.python_version)
        return;
    for (gm_document *doc = server->documents.head; doc; doc = doc->next) {
        doc->findings = NULL;
        doc->diagnostics_dirty = true;
        doc->publish_if_changed = true;
    }
    if (server->client.pull_diagnostics && server->client.diagnostic_refresh)
        gm_server_request(server, "workspace/diagnostic/refresh", NULL);
    gm_publish_dirty_diagnostics(server);
}

static void one_less_awaited(struct gm_interpreter_probe *probe) {
    if (--probe->awaited == 0)
        answered(probe);
}

static void alloc_answer(uv_handle_t *handle, size_t suggested, uv_buf_t *buf) {
    struct gm_interpreter_probe *probe = handle->data;
    (void)suggested;
    size_t room = sizeof probe->answer - probe->answer_len;
    /* Past the room, reads land in the last byte and make the answer odd (it is too long). */
    *buf = room ? uv_buf_init(probe->answer + probe->answer_len, (unsigned)room)
                : uv_buf_init(probe->answer + sizeof probe->answer - 1, 1);
}

static void on_answer(uv_stream_t *stream, ssize_t nread, const uv_buf_t *buf) {
    struct gm_interpreter_probe *probe = stream->data;
    (void)buf;
    if (nread > 0 && probe->answer_len < sizeof probe->answer)
        probe->answer_len += (size_t)nread;
    else if (nread > 0)
        probe->answer[0] = '?';
    else if (nread < 0) {
        uv_read_stop(stream);
        one_less_awaited(probe);
    }
}

static void on_probe_exit(uv_process_t *process, int64_t exit_status, int term_signal) {
    (void)exit_status;
    (void)term_signal;
    one_less_awaited(process->data);
}

static void on_timeout(uv_timer_t *timer) {
    struct gm_interpreter_probe *probe = timer->data;
    if (probe->state == PROBE_RUNNING) {
        uv_process_kill(&probe->process, SIGKILL); /* its exit ends the question, unanswered */
        probe->answer_len = 0;
    } else {
        gm_interpreter_probe_start(probe->server);
    }
}

void gm_interpreter_probe_start(gm_server *server) {
    struct gm_interpreter_probe *probe = server ? server->probe : NULL;
    if (!probe || probe->state != PROBE_WAITING)
        return;
    probe->state = PROBE_RUNNING;
    probe->started_us = gm_server_now_us();
    char *args[] = {probe->id.path, (char *)gm_python_version_arguments[0],
                    (char *)gm_python_version_arguments[1], NULL};
    uv_pipe_init(server->loop, &probe->output, 0);
    probe->output.data = probe;
    probe->process.data = probe;
    uv_stdio_container_t stdio[3];
    stdio[0].flags = UV_IGNORE; /* stdin: the client's pipe is ours alone */
    stdio[1].flags = UV_CREATE_PIPE | UV_WRITABLE_PIPE;
    stdio[1].data.stream = (uv_stream_t *)&probe->output;
    stdio[2].flags = UV_IGNORE; /* a broken python3 is no problem worth showing */
    uv_process_options_t options = {
        .exit_cb = on_probe_exit,
        .file = probe->id.path,
        .args = args,
        .stdio_count = 3,
        .stdio = stdio,
    };
    probe->process_open = true; /* uv_spawn initialises the handle even when it fails */
    if (uv_spawn(server->loop, &probe->process, &options) != 0) {
        probe->answer_len = 0;
        answered(probe);
        return;
    }
    probe->awaited = 2;
    uv_read_start((uv_stream_t *)&probe->output, alloc_answer, on_answer);
    uv_timer_start(&probe->timer, on_timeout, PROBE_TIMEOUT_MS, 0);
}

void gm_interpreter_probe_initialized(gm_server *server) {
    struct gm_interpreter_probe *probe = server->probe;
    if (probe && probe->state == PROBE_WAITING)
        uv_timer_start(&probe->timer, on_timeout, PROBE_DELAY_MS, 0);
}

void gm_interpreter_probe_stop(gm_server *server) {
    struct gm_interpreter_probe *probe = server->probe;
    if (!probe)
        return;
    probe->server = NULL;
    if (probe->state == PROBE_RUNNING)
        uv_process_kill(&probe->process, SIGKILL);
    /* The transport closes the loop's handles before the server is freed. */
}

void gm_interpreter_probe_free(gm_server *server) {
    free(server->probe);
    server->probe = NULL;
}
