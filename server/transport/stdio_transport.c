#include "server/transport/stdio_transport.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uv.h>

#include "server/lsp/lsp_server.h"

#define READ_CHUNK (64 * 1024)

#ifdef __linux__
#ifndef F_SETPIPE_SZ
#define F_SETPIPE_SZ 1031 /* Linux's fcntl, declared only under _GNU_SOURCE */
#endif
/* What a pipe to the client holds: the diagnostics of a 50k-line file (120 KB) go out in one
 * write instead of waiting twice for the client to empty the default 64 KB. Unprivileged
 * processes may ask up to /proc/sys/fs/pipe-max-size (1 MiB by default). */
#define STDOUT_PIPE_BYTES (1024 * 1024)
#endif

typedef struct {
    uv_loop_t *loop;
    gm_server *server;
    union {
        uv_pipe_t pipe;
        uv_tty_t tty;
    } input;
    uv_fs_t file_read; /* regular-file stdin */
    char *file_buffer;
    bool write_failed;
    uv_idle_t background; /* runs the server's background work while no input is waiting */
    /* Input was just handled: the loop looks for more before the next slice of background
     * work, so that a message already sent (the didOpen after initialized) goes first. */
    bool input_just_handled;
} gm_transport;

/* Slice of background work per loop iteration: input that arrives meanwhile waits at most this. */
#define BACKGROUND_SLICE_MS 20

/* Writes synchronously from the loop thread: replies leave in order and are never lost when the
 * process exits right after. stdout may share a non-blocking file description with stdin. */
static void write_stdout(void *context, const char *data, size_t len) {
    gm_transport *transport = context;
    while (len > 0 && !transport->write_failed) {
        ssize_t written = write(STDOUT_FILENO, data, len);
        if (written > 0) {
            data += written;
            len -= (size_t)written;
        } else if (written < 0 && errno == EINTR) {
            continue;
        } else if (written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            struct pollfd pfd = {.fd = STDOUT_FILENO, .events = POLLOUT};
            poll(&pfd, 1, -1);
        } else {
            fprintf(stderr, "graphmend: cannot write to stdout: %s\n", strerror(errno));
            transport->write_failed = true;
        }
    }
}

static void stop(gm_transport *transport) {
    uv_stop(transport->loop);
}

static void on_idle(uv_idle_t *idle) {
    gm_transport *transport = idle->data;
    if (transport->input_just_handled) {
        /* While an idle handle is active the loop polls without waiting: this costs one turn. */
        transport->input_just_handled = false;
        return;
    }
    gm_server_background_work(transport->server, BACKGROUND_SLICE_MS);
    if (!gm_server_has_background_work(transport->server)) {
        uv_idle_stop(idle);
    }
}

static void after_input(gm_transport *transport) {
    if (gm_server_finished(transport->server, NULL) || transport->write_failed) {
        stop(transport);
    } else if (gm_server_has_background_work(transport->server)) {
        transport->input_just_handled = true;
        uv_idle_start(&transport->background, on_idle);
    }
}

static void alloc_chunk(uv_handle_t *handle, size_t suggested, uv_buf_t *buf) {
    (void)handle;
    (void)suggested;
    buf->base = malloc(READ_CHUNK);
    buf->len = buf->base ? READ_CHUNK : 0;
}

static void on_stream_read(uv_stream_t *stream, ssize_t nread, const uv_buf_t *buf) {
    gm_transport *transport = stream->data;
    if (nread > 0) {
        gm_server_feed(transport->server, buf->base, (size_t)nread);
    } else if (nread < 0) {
        if (nread != UV_EOF) {
            fprintf(stderr, "graphmend: reading stdin failed: %s\n", uv_strerror((int)nread));
        }
        gm_server_eof(transport->server);
    }
    free(buf->base);
    after_input(transport);
}

static void read_file_chunk(gm_transport *transport);

static void on_file_read(uv_fs_t *request) {
    gm_transport *transport = request->data;
    ssize_t nread = request->result;
    uv_fs_req_cleanup(request);
    if (nread > 0) {
        gm_server_feed(transport->server, transport->file_buffer, (size_t)nread);
        after_input(transport);
        if (!gm_server_finished(transport->server, NULL) && !transport->write_failed) {
            read_file_chunk(transport);
        }
        return;
    }
    if (nread < 0) {
        fprintf(stderr, "graphmend: reading stdin failed: %s\n", uv_strerror((int)nread));
    }
    gm_server_eof(transport->server);
    after_input(transport);
}

static void read_file_chunk(gm_transport *transport) {
    uv_buf_t buf = uv_buf_init(transport->file_buffer, READ_CHUNK);
    transport->file_read.data = transport;
    int rc =
        uv_fs_read(transport->loop, &transport->file_read, STDIN_FILENO, &buf, 1, -1, on_file_read);
    if (rc < 0) {
        fprintf(stderr, "graphmend: reading stdin failed: %s\n", uv_strerror(rc));
        gm_server_eof(transport->server);
        stop(transport);
    }
}

static int start_reading(gm_transport *transport) {
    uv_handle_type type = uv_guess_handle(STDIN_FILENO);
    uv_stream_t *stream = NULL;
    int rc = 0;
    if (type == UV_FILE) {
        transport->file_buffer = malloc(READ_CHUNK);
        if (!transport->file_buffer) {
            return UV_ENOMEM;
        }
        read_file_chunk(transport);
        return 0;
    }
    if (type == UV_TTY) {
        rc = uv_tty_init(transport->loop, &transport->input.tty, STDIN_FILENO, 1);
        stream = (uv_stream_t *)&transport->input.tty;
    } else {
        /* Pipes, sockets and anything unknown. */
        rc = uv_pipe_init(transport->loop, &transport->input.pipe, 0);
        if (rc == 0) {
            rc = uv_pipe_open(&transport->input.pipe, STDIN_FILENO);
        }
        stream = (uv_stream_t *)&transport->input.pipe;
    }
    if (rc != 0) {
        return rc;
    }
    stream->data = transport;
    return uv_read_start(stream, alloc_chunk, on_stream_read);
}

static void close_handle(uv_handle_t *handle, void *arg) {
    (void)arg;
    if (!uv_is_closing(handle)) {
        uv_close(handle, NULL);
    }
}

int gm_stdio_serve(void) {
    signal(SIGPIPE, SIG_IGN); /* a vanished client shows up as a write error, not a signal */
    gm_transport transport = {0};
    transport.loop = uv_default_loop();
    transport.server = gm_server_new(write_stdout, &transport);
    if (!transport.server) {
        fprintf(stderr, "graphmend: could not start the server (out of memory or grammar ABI)\n");
        return 1;
    }
    gm_server_attach_loop(transport.server, transport.loop);
#ifdef STDOUT_PIPE_BYTES
    if (uv_guess_handle(STDOUT_FILENO) == UV_NAMED_PIPE)
        (void)fcntl(STDOUT_FILENO, F_SETPIPE_SZ, STDOUT_PIPE_BYTES); /* a smaller pipe works too */
#endif
    uv_idle_init(transport.loop, &transport.background);
    transport.background.data = &transport;
    int rc = start_reading(&transport);
    if (rc != 0) {
        fprintf(stderr, "graphmend: cannot read stdin: %s\n", uv_strerror(rc));
        gm_server_free(transport.server);
        return 1;
    }
    uv_run(transport.loop, UV_RUN_DEFAULT);
    int exit_code = 1;
    if (!gm_server_finished(transport.server, &exit_code)) {
        exit_code = 1;
    }
    gm_server_stop_jobs(transport.server); /* kills profile children before handles close */
    if (transport.file_buffer && transport.file_read.type == UV_FS) {
        uv_cancel((uv_req_t *)&transport.file_read);
    }
    uv_walk(transport.loop, close_handle, NULL);
    uv_run(transport.loop, UV_RUN_DEFAULT);
    uv_loop_close(transport.loop);
    gm_server_free(transport.server);
    free(transport.file_buffer);
    return exit_code;
}
