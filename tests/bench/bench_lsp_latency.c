/* Latency benchmark of the graphmend language server.
 *
 * usage: bench_lsp_latency [--no-header] [--server-log FILE] GRAPHMEND MODEL_FILE [EDITS]
 *
 * Spawns `GRAPHMEND serve` with pipes, opens MODEL_FILE (push diagnostics, UTF-8 positions) and
 * makes EDITS (default 300) single-character edits inside function bodies: each pair of edits
 * inserts one character (a space at the end of a line, or an 'x' typed at the end of an
 * identifier) and then deletes it again, so the text stays sane. For every edit it times the
 * interval from writing textDocument/didChange to reading the publishDiagnostics whose version
 * matches; in the same process it times tree-sitter's incremental reparse of the same edit alone
 * (ts_tree_edit + reparse with the old tree). Before shutdown it reads the server's peak RSS
 * (VmHWM in /proc/PID/status). It prints one table row (after a header unless --no-header) with
 * informational PASS/FAIL marks against the targets, and details on stderr.
 *
 * Exit status: 0 when the run completed (whatever the timings), 1 when the server crashed, a
 * response never came or the server did not exit with status 0, 2 on bad usage. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>
#include <tree_sitter/api.h>

#include "analysis/syntax/python_parser.h"
#include "bench_files.h"
#include "protocol/framing.h"

#define DEFAULT_EDITS 300
#define RESPONSE_TIMEOUT_MS 60000 /* a response slower than this counts as never coming */
#define EXIT_TIMEOUT_MS 10000

/* Targets from the issue. The small-file targets apply to files of up to SMALL_FILE_LINES. */
#define SMALL_FILE_LINES 20000
#define TARGET_SMALL_P50_MS 2.0
#define TARGET_SMALL_P99_MS 5.0
#define TARGET_LARGE_P50_MS 10.0
#define TARGET_RATIO_P50 2.0
#define TARGET_PEAK_RSS_MB 50.0

/* ------------------------------------------------------------------------------- utilities */

static void fail(const char *format, ...) {
    va_list args;
    va_start(args, format);
    fprintf(stderr, "bench_lsp_latency: ");
    vfprintf(stderr, format, args);
    fprintf(stderr, "\n");
    va_end(args);
}

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static double ns_to_ms(uint64_t ns) {
    return (double)ns / 1e6;
}

static void sleep_ms(long ms) {
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR) {
    }
}

static char *read_file(const char *path, size_t *len) {
    char *data = bench_read_file(path, len);
    if (!data)
        fail("cannot read %s: %s", path, strerror(errno));
    return data;
}

static int compare_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Nearest-rank percentile of sorted values. */
static double percentile_ms(const uint64_t *sorted, size_t count, double pct) {
    if (count == 0) {
        return 0.0;
    }
    size_t rank = (size_t)((pct / 100.0) * (double)count + 0.999999);
    if (rank < 1) {
        rank = 1;
    }
    if (rank > count) {
        rank = count;
    }
    return ns_to_ms(sorted[rank - 1]);
}

/* ------------------------------------------------------------------------ server connection */

typedef struct {
    pid_t pid;
    int to_server;   /* the server's stdin */
    int from_server; /* the server's stdout */
    gm_frame_reader *reader;
    uint64_t last_read_ns; /* when the latest chunk of stdout was read */
    bool eof;
    bool reaped;
    int wait_status;
    json_int_t next_id;
} server_conn;

static int set_nonblocking(int fd) {
    int flags = fcntl(fd, F_GETFL);
    return flags < 0 ? -1 : fcntl(fd, F_SETFL, flags | O_NONBLOCK);
}

static int spawn_server(server_conn *conn, const char *binary, const char *log_path) {
    int in[2], out[2];
    if (pipe(in) != 0) {
        fail("pipe: %s", strerror(errno));
        return -1;
    }
    if (pipe(out) != 0) {
        fail("pipe: %s", strerror(errno));
        close(in[0]);
        close(in[1]);
        return -1;
    }
    pid_t pid = fork();
    if (pid < 0) {
        fail("fork: %s", strerror(errno));
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        return -1;
    }
    if (pid == 0) {
        if (dup2(in[0], STDIN_FILENO) < 0 || dup2(out[1], STDOUT_FILENO) < 0) {
            _exit(127);
        }
        if (log_path) {
            int log_fd = open(log_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
            if (log_fd >= 0) {
                dup2(log_fd, STDERR_FILENO);
                close(log_fd);
            }
        }
        close(in[0]);
        close(in[1]);
        close(out[0]);
        close(out[1]);
        execl(binary, binary, "serve", (char *)NULL);
        fprintf(stderr, "bench_lsp_latency: cannot run %s: %s\n", binary, strerror(errno));
        _exit(127);
    }
    close(in[0]);
    close(out[1]);
    memset(conn, 0, sizeof *conn);
    conn->pid = pid;
    conn->to_server = in[1];
    conn->from_server = out[0];
    conn->next_id = 1;
    conn->reader = gm_frame_reader_new(GM_FRAME_DEFAULT_MAX_BODY);
    if (!conn->reader || set_nonblocking(conn->to_server) != 0 ||
        set_nonblocking(conn->from_server) != 0) {
        fail("cannot set up the server's pipes");
        return -1;
    }
    return 0;
}

/* Reads what is available on the server's stdout into the frame reader. Returns 1 when bytes
 * were read, 0 when none were ready, -1 on EOF or error. */
static int read_available(server_conn *conn) {
    char buf[1 << 16];
    ssize_t n = read(conn->from_server, buf, sizeof buf);
    if (n > 0) {
        conn->last_read_ns = now_ns();
        if (gm_frame_reader_feed(conn->reader, buf, (size_t)n) != 0) {
            fail("out of memory buffering the server's output");
            return -1;
        }
        return 1;
    }
    if (n == 0) {
        conn->eof = true;
        return -1;
    }
    if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) {
        return 0;
    }
    fail("reading the server's stdout: %s", strerror(errno));
    conn->eof = true;
    return -1;
}

/* Writes a whole frame, reading the server's output meanwhile so that neither side can block
 * the other on a full pipe. */
static int write_all(server_conn *conn, const char *data, size_t len) {
    uint64_t deadline = now_ns() + (uint64_t)RESPONSE_TIMEOUT_MS * 1000000u;
    while (len > 0) {
        ssize_t n = write(conn->to_server, data, len);
        if (n > 0) {
            data += n;
            len -= (size_t)n;
            continue;
        }
        if (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR) {
            fail("writing to the server: %s", strerror(errno));
            return -1;
        }
        uint64_t now = now_ns();
        if (now >= deadline) {
            fail("the server stopped reading its input");
            return -1;
        }
        struct pollfd fds[2] = {{conn->to_server, POLLOUT, 0}, {conn->from_server, POLLIN, 0}};
        nfds_t nfds = conn->eof ? 1 : 2;
        if (poll(fds, nfds, (int)((deadline - now) / 1000000u) + 1) < 0 && errno != EINTR) {
            fail("poll: %s", strerror(errno));
            return -1;
        }
        if (nfds == 2 && (fds[1].revents & (POLLIN | POLLHUP)) && read_available(conn) < 0 &&
            !conn->eof) {
            return -1;
        }
    }
    return 0;
}

/* A Content-Length framed copy of message (malloc'ed). */
static char *make_frame(json_t *message, size_t *frame_len) {
    char *body = json_dumps(message, JSON_COMPACT);
    if (!body) {
        return NULL;
    }
    size_t body_len = strlen(body);
    char header[64];
    size_t header_len = gm_frame_header(header, sizeof header, body_len);
    char *frame = malloc(header_len + body_len);
    if (frame) {
        memcpy(frame, header, header_len);
        memcpy(frame + header_len, body, body_len);
        *frame_len = header_len + body_len;
    }
    free(body);
    return frame;
}

/* Sends message (and releases it). */
static int send_message(server_conn *conn, json_t *message) {
    size_t len = 0;
    char *frame = message ? make_frame(message, &len) : NULL;
    json_decref(message);
    if (!frame) {
        fail("cannot serialise a message");
        return -1;
    }
    int rc = write_all(conn, frame, len);
    free(frame);
    return rc;
}

/* The next message from the server (caller decrefs); *arrival_ns is when its last byte was
 * read. NULL when the server closed its stdout, sent something unparsable or nothing came in
 * time. */
static json_t *next_message(server_conn *conn, uint64_t deadline, uint64_t *arrival_ns) {
    for (;;) {
        const char *body = NULL, *problem = NULL;
        size_t body_len = 0;
        gm_frame_status status = gm_frame_reader_next(conn->reader, &body, &body_len, &problem);
        if (status == GM_FRAME_MESSAGE) {
            json_error_t error;
            json_t *message = json_loadb(body, body_len, 0, &error);
            if (!message) {
                fail("the server sent a body that is not JSON: %s", error.text);
                return NULL;
            }
            if (arrival_ns) {
                *arrival_ns = conn->last_read_ns;
            }
            return message;
        }
        if (status == GM_FRAME_ERROR) {
            fail("the server sent a malformed frame: %s", problem ? problem : "?");
            return NULL;
        }
        if (conn->eof) {
            fail("the server closed its stdout");
            return NULL;
        }
        uint64_t now = now_ns();
        if (now >= deadline) {
            fail("no response from the server within %d ms", RESPONSE_TIMEOUT_MS);
            return NULL;
        }
        struct pollfd fds[1] = {{conn->from_server, POLLIN, 0}};
        int ready = poll(fds, 1, (int)((deadline - now) / 1000000u) + 1);
        if (ready < 0 && errno != EINTR) {
            fail("poll: %s", strerror(errno));
            return NULL;
        }
        if (ready > 0 && read_available(conn) < 0 && !conn->eof) {
            return NULL;
        }
    }
}

/* Answers the server's own requests (workspace/configuration and the like) so it never waits on
 * us; notifications other than the awaited one are dropped. */
static int handle_incidental(server_conn *conn, json_t *message) {
    json_t *id = json_object_get(message, "id");
    const char *method = json_string_value(json_object_get(message, "method"));
    if (!id || !method) {
        return 0;
    }
    json_t *result = json_null();
    if (strcmp(method, "workspace/configuration") == 0) {
        json_t *items = json_object_get(json_object_get(message, "params"), "items");
        result = json_array();
        for (size_t i = 0; i < json_array_size(items); i++) {
            json_array_append_new(result, json_null());
        }
    }
    return send_message(conn,
                        json_pack("{s:s,s:O,s:o}", "jsonrpc", "2.0", "id", id, "result", result));
}

static json_t *wait_for_response(server_conn *conn, json_int_t id) {
    uint64_t deadline = now_ns() + (uint64_t)RESPONSE_TIMEOUT_MS * 1000000u;
    for (;;) {
        json_t *message = next_message(conn, deadline, NULL);
        if (!message) {
            return NULL;
        }
        json_t *got = json_object_get(message, "id");
        if (!json_object_get(message, "method") && json_is_integer(got) &&
            json_integer_value(got) == id) {
            return message;
        }
        int rc = handle_incidental(conn, message);
        json_decref(message);
        if (rc != 0) {
            return NULL;
        }
    }
}

/* Waits for publishDiagnostics of uri at version. Returns the number of diagnostics, or -1. */
static long wait_for_diagnostics(server_conn *conn, const char *uri, json_int_t version,
                                 uint64_t *arrival_ns) {
    uint64_t deadline = now_ns() + (uint64_t)RESPONSE_TIMEOUT_MS * 1000000u;
    for (;;) {
        json_t *message = next_message(conn, deadline, arrival_ns);
        if (!message) {
            fail("(while waiting for diagnostics of version %lld)", (long long)version);
            return -1;
        }
        const char *method = json_string_value(json_object_get(message, "method"));
        json_t *params = json_object_get(message, "params");
        if (method && strcmp(method, "textDocument/publishDiagnostics") == 0 &&
            !json_object_get(message, "id")) {
            const char *got_uri = json_string_value(json_object_get(params, "uri"));
            json_t *got_version = json_object_get(params, "version");
            if (got_uri && strcmp(got_uri, uri) == 0 && json_is_integer(got_version) &&
                json_integer_value(got_version) == version) {
                long count = (long)json_array_size(json_object_get(params, "diagnostics"));
                json_decref(message);
                return count;
            }
        }
        int rc = handle_incidental(conn, message);
        json_decref(message);
        if (rc != 0) {
            return -1;
        }
    }
}

/* Peak resident set size of pid in KiB (VmHWM), or -1. */
static long peak_rss_kib(pid_t pid) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/status", (long)pid);
    FILE *f = fopen(path, "r");
    if (!f) {
        return -1;
    }
    char line[256];
    long kib = -1;
    while (fgets(line, sizeof line, f)) {
        if (strncmp(line, "VmHWM:", 6) == 0) {
            kib = strtol(line + 6, NULL, 10);
            break;
        }
    }
    fclose(f);
    return kib;
}

/* Waits for the server to exit. Returns its wait status, or -1 (it is then killed). */
static int reap_server(server_conn *conn, int timeout_ms) {
    if (conn->reaped) {
        return conn->wait_status;
    }
    for (int waited = 0;; waited += 5) {
        int status;
        pid_t got = waitpid(conn->pid, &status, WNOHANG);
        if (got == conn->pid) {
            conn->reaped = true;
            conn->wait_status = status;
            return status;
        }
        if (got < 0 && errno != EINTR) {
            return -1;
        }
        if (waited >= timeout_ms) {
            kill(conn->pid, SIGKILL);
            waitpid(conn->pid, &status, 0);
            conn->reaped = true;
            conn->wait_status = -1;
            return -1;
        }
        sleep_ms(5);
    }
}

static void close_server(server_conn *conn) {
    if (conn->to_server >= 0) {
        close(conn->to_server);
        conn->to_server = -1;
    }
    if (conn->from_server >= 0) {
        close(conn->from_server);
        conn->from_server = -1;
    }
    if (conn->pid > 0 && !conn->reaped) {
        reap_server(conn, 1000);
    }
    gm_frame_reader_free(conn->reader);
    conn->reader = NULL;
}

static void describe_exit(int status) {
    if (status == -1) {
        fail("the server did not exit within %d ms and was killed", EXIT_TIMEOUT_MS);
    } else if (WIFSIGNALED(status)) {
        fail("the server died of signal %d", WTERMSIG(status));
    } else if (WIFEXITED(status) && WEXITSTATUS(status) != 0) {
        fail("the server exited with status %d", WEXITSTATUS(status));
    }
}

/* ------------------------------------------------------------------------------ the edits */

typedef struct {
    const char *text;
    size_t len;
    size_t *starts; /* byte offset of each line's start */
    size_t *ends;   /* byte offset of each line's '\n' (or of the end of the text) */
    size_t count;
} line_table;

static int index_lines(line_table *lines, const char *text, size_t len) {
    size_t capacity = 1024;
    lines->starts = malloc(capacity * sizeof *lines->starts);
    lines->ends = malloc(capacity * sizeof *lines->ends);
    lines->count = 0;
    lines->text = text;
    lines->len = len;
    size_t start = 0;
    bool oom = !lines->starts || !lines->ends;
    while (!oom && start < len) {
        const char *nl = memchr(text + start, '\n', len - start);
        size_t end = nl ? (size_t)(nl - text) : len;
        if (lines->count == capacity) {
            capacity *= 2;
            size_t *s = realloc(lines->starts, capacity * sizeof *s);
            if (s) {
                lines->starts = s;
            }
            size_t *e = realloc(lines->ends, capacity * sizeof *e);
            if (e) {
                lines->ends = e;
            }
            oom = !s || !e;
            if (oom) {
                break;
            }
        }
        lines->starts[lines->count] = start;
        lines->ends[lines->count] = end;
        lines->count++;
        start = end + 1;
    }
    if (oom) {
        fail("out of memory indexing lines");
        return -1;
    }
    return 0;
}

static bool is_ident_start(char c) {
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool is_ident_char(char c) {
    return is_ident_start(c) || (c >= '0' && c <= '9');
}

static bool is_keyword(const char *word, size_t len) {
    static const char *const keywords[] = {
        "False",   "None",     "True",     "and",    "as",   "assert", "async",  "await",
        "break",   "class",    "continue", "def",    "del",  "elif",   "else",   "except",
        "finally", "for",      "from",     "global", "if",   "import", "in",     "is",
        "lambda",  "nonlocal", "not",      "or",     "pass", "raise",  "return", "try",
        "while",   "with",     "yield",    "match",  "case", "print",  "self",   "super",
    };
    for (size_t i = 0; i < sizeof keywords / sizeof keywords[0]; i++) {
        if (strlen(keywords[i]) == len && memcmp(keywords[i], word, len) == 0) {
            return true;
        }
    }
    return false;
}

/* A line is a candidate when it lies inside a method body (indented 8 or more), is not blank,
 * a comment or a docstring. */
static bool is_body_line(const line_table *lines, size_t line) {
    const char *p = lines->text + lines->starts[line];
    const char *end = lines->text + lines->ends[line];
    size_t indent = 0;
    while (p < end && *p == ' ') {
        p++;
        indent++;
    }
    return indent >= 8 && p < end && *p != '#' && *p != '"' && *p != '\'';
}

/* Column (in bytes) just after the first identifier of the line that is not a keyword (or a
 * name whose change would alter the findings); -1 when none comes before a string literal. */
static long identifier_end_column(const line_table *lines, size_t line) {
    const char *start = lines->text + lines->starts[line];
    const char *end = lines->text + lines->ends[line];
    const char *p = start;
    while (p < end) {
        if (*p == '"' || *p == '\'' || *p == '#') {
            return -1;
        }
        if (*p >= '0' && *p <= '9') {
            while (p < end && (is_ident_char(*p) || *p == '.')) {
                p++;
            }
            continue;
        }
        if (is_ident_start(*p)) {
            const char *word = p;
            while (p < end && is_ident_char(*p)) {
                p++;
            }
            if (!is_keyword(word, (size_t)(p - word))) {
                return (long)(p - start);
            }
            continue;
        }
        p++;
    }
    return -1;
}

typedef struct {
    size_t line;
    size_t column;
    size_t byte;
    bool insert; /* else delete the character at (line, column) */
    char ch;
} bench_edit;

static uint64_t rng_state = 0x9E3779B97F4A7C15u;

static uint64_t next_random(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

/* ---------------------------------------------------------------------------------- main */

typedef struct {
    const char *binary;
    const char *model;
    const char *server_log;
    long edits;
    bool header;
} options;

static int parse_args(int argc, char **argv, options *opts) {
    memset(opts, 0, sizeof *opts);
    opts->edits = DEFAULT_EDITS;
    opts->header = true;
    int positional = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--no-header") == 0) {
            opts->header = false;
        } else if (strcmp(argv[i], "--server-log") == 0 && i + 1 < argc) {
            opts->server_log = argv[++i];
        } else if (argv[i][0] == '-' && argv[i][1] != '\0') {
            return -1;
        } else if (positional == 0) {
            opts->binary = argv[i];
            positional++;
        } else if (positional == 1) {
            opts->model = argv[i];
            positional++;
        } else if (positional == 2) {
            char *end;
            errno = 0;
            opts->edits = strtol(argv[i], &end, 10);
            if (errno || *end || opts->edits < 1 || opts->edits > 1000000) {
                return -1;
            }
            positional++;
        } else {
            return -1;
        }
    }
    return positional >= 2 ? 0 : -1;
}

static char *file_uri(const char *path) {
    char *absolute = realpath(path, NULL);
    if (!absolute) {
        fail("realpath %s: %s", path, strerror(errno));
        return NULL;
    }
    static const char hex[] = "0123456789ABCDEF";
    size_t n = strlen(absolute);
    char *uri = malloc(7 + 3 * n + 1);
    if (uri) {
        char *o = uri;
        memcpy(o, "file://", 7);
        o += 7;
        for (const unsigned char *p = (const unsigned char *)absolute; *p; p++) {
            if (is_ident_char((char)*p) || *p == '/' || *p == '.' || *p == '-' || *p == '~') {
                *o++ = (char)*p;
            } else {
                *o++ = '%';
                *o++ = hex[*p >> 4];
                *o++ = hex[*p & 15];
            }
        }
        *o = '\0';
    }
    free(absolute);
    return uri;
}

static void print_header(void) {
    printf("%-16s %6s %6s %7s %7s %12s %12s %10s %12s  %s\n", "file", "lines", "edits", "p50 ms",
           "p99 ms", "reparse p50", "reparse p99", "ratio p50", "peak RSS MB", "targets");
}

static const char *mark(bool ok) {
    return ok ? "PASS" : "FAIL";
}

int main(int argc, char **argv) {
    options opts;
    if (parse_args(argc, argv, &opts) != 0) {
        fprintf(stderr,
                "usage: %s [--no-header] [--server-log FILE] GRAPHMEND MODEL_FILE "
                "[EDITS (default %d)]\n",
                argv[0], DEFAULT_EDITS);
        return 2;
    }
    signal(SIGPIPE, SIG_IGN); /* a dead server shows up as EPIPE, not as our death */

    size_t len = 0;
    char *original = read_file(opts.model, &len);
    char *uri = file_uri(opts.model);
    if (!original || !uri) {
        return 1;
    }
    line_table lines;
    if (index_lines(&lines, original, len) != 0) {
        return 1;
    }
    size_t *candidates = malloc((lines.count ? lines.count : 1) * sizeof *candidates);
    size_t candidate_count = 0;
    for (size_t i = 0; candidates && i < lines.count; i++) {
        if (is_body_line(&lines, i)) {
            candidates[candidate_count++] = i;
        }
    }
    if (candidate_count == 0) {
        fail("%s has no lines inside function bodies to edit", opts.model);
        return 1;
    }

    /* Our own copy of the text, edited along with the server's, for the reparse timings. */
    char *text = malloc(len + 2);
    size_t text_len = len;
    TSParser *parser = gm_python_parser_new(0);
    if (!text || !parser) {
        fail("cannot set up the parser");
        return 1;
    }
    memcpy(text, original, len + 1);
    uint64_t parse_start = now_ns();
    TSTree *tree = gm_python_parse(parser, NULL, text, text_len);
    uint64_t full_parse_ns = now_ns() - parse_start;
    if (!tree) {
        fail("tree-sitter could not parse %s", opts.model);
        return 1;
    }

    server_conn conn;
    if (spawn_server(&conn, opts.binary, opts.server_log) != 0) {
        return 1;
    }
    int exit_code = 1;
    uint64_t *latency = calloc((size_t)opts.edits, sizeof *latency);
    uint64_t *reparse = calloc((size_t)opts.edits, sizeof *reparse);
    long diagnostics = -1, mismatches = 0, peak_kib = -1;
    uint64_t open_ns = 0;
    if (!latency || !reparse) {
        fail("out of memory");
        goto done;
    }

    /* initialize / initialized / didOpen, then the diagnostics of version 1. */
    json_int_t id = conn.next_id++;
    if (send_message(&conn, json_pack("{s:s,s:I,s:s,s:{s:i,s:n,s:{s:s,s:s},s:{s:{s:[s]}}}}",
                                      "jsonrpc", "2.0", "id", id, "method", "initialize", "params",
                                      "processId", (int)getpid(), "rootUri", "clientInfo", "name",
                                      "bench_lsp_latency", "version", "1", "capabilities",
                                      "general", "positionEncodings", "utf-8")) != 0) {
        goto done;
    }
    json_t *response = wait_for_response(&conn, id);
    if (!response) {
        goto done;
    }
    const char *encoding = json_string_value(json_object_get(
        json_object_get(json_object_get(response, "result"), "capabilities"), "positionEncoding"));
    if (!encoding || strcmp(encoding, "utf-8") != 0) {
        fprintf(stderr, "bench_lsp_latency: note: server chose position encoding %s\n",
                encoding ? encoding : "(none: utf-16)");
    }
    json_decref(response);
    if (send_message(&conn, json_pack("{s:s,s:s,s:{}}", "jsonrpc", "2.0", "method", "initialized",
                                      "params")) != 0) {
        goto done;
    }
    json_int_t version = 1;
    uint64_t arrival = 0;
    uint64_t open_start = now_ns();
    if (send_message(&conn, json_pack("{s:s,s:s,s:{s:{s:s,s:s,s:I,s:s%}}}", "jsonrpc", "2.0",
                                      "method", "textDocument/didOpen", "params", "textDocument",
                                      "uri", uri, "languageId", "python", "version", version,
                                      "text", original, len)) != 0) {
        goto done;
    }
    diagnostics = wait_for_diagnostics(&conn, uri, version, &arrival);
    if (diagnostics < 0) {
        goto done;
    }
    open_ns = arrival - open_start;

    for (long k = 0; k < opts.edits; k++) {
        static bench_edit pending; /* the insertion that the next edit takes back */
        bench_edit edit;
        if (k % 2 == 0) {
            size_t line = candidates[next_random() % candidate_count];
            long column = -1;
            char ch = ' ';
            if ((k / 2) % 2 == 1) {
                column = identifier_end_column(&lines, line);
                ch = 'x';
            }
            if (column < 0) { /* a space at the end of the line */
                column = (long)(lines.ends[line] - lines.starts[line]);
                ch = ' ';
            }
            edit =
                (bench_edit){line, (size_t)column, lines.starts[line] + (size_t)column, true, ch};
            pending = edit;
        } else {
            edit = pending;
            edit.insert = false;
        }

        /* Our copy of the text. */
        if (edit.insert) {
            memmove(text + edit.byte + 1, text + edit.byte, text_len - edit.byte + 1);
            text[edit.byte] = edit.ch;
            text_len++;
        } else {
            memmove(text + edit.byte, text + edit.byte + 1, text_len - edit.byte);
            text_len--;
        }

        /* The server's copy: time from writing didChange to its diagnostics. */
        version++;
        char inserted[2] = {edit.ch, '\0'};
        json_t *change = json_pack(
            "{s:s,s:s,s:{s:{s:s,s:I},s:[{s:{s:{s:I,s:I},s:{s:I,s:I}},s:s}]}}", "jsonrpc", "2.0",
            "method", "textDocument/didChange", "params", "textDocument", "uri", uri, "version",
            version, "contentChanges", "range", "start", "line", (json_int_t)edit.line, "character",
            (json_int_t)edit.column, "end", "line", (json_int_t)edit.line, "character",
            (json_int_t)(edit.column + (edit.insert ? 0 : 1)), "text", edit.insert ? inserted : "");
        size_t frame_len = 0;
        char *frame = change ? make_frame(change, &frame_len) : NULL;
        json_decref(change);
        if (!frame) {
            fail("cannot build didChange");
            goto done;
        }
        uint64_t sent = now_ns();
        int rc = write_all(&conn, frame, frame_len);
        free(frame);
        if (rc != 0) {
            goto done;
        }
        long count = wait_for_diagnostics(&conn, uri, version, &arrival);
        if (count < 0) {
            goto done;
        }
        latency[k] = arrival - sent;
        if (!edit.insert && count != diagnostics) {
            mismatches++; /* the text is back to the original: so should the findings be */
        }

        /* tree-sitter alone, on the same edit. */
        TSInputEdit input_edit = {
            .start_byte = (uint32_t)edit.byte,
            .old_end_byte = (uint32_t)(edit.byte + (edit.insert ? 0 : 1)),
            .new_end_byte = (uint32_t)(edit.byte + (edit.insert ? 1 : 0)),
            .start_point = {(uint32_t)edit.line, (uint32_t)edit.column},
            .old_end_point = {(uint32_t)edit.line, (uint32_t)(edit.column + !edit.insert)},
            .new_end_point = {(uint32_t)edit.line, (uint32_t)(edit.column + edit.insert)},
        };
        uint64_t reparse_start = now_ns();
        gm_tree_edit(tree, &input_edit);
        TSTree *new_tree = gm_python_parse(parser, tree, text, text_len);
        reparse[k] = now_ns() - reparse_start;
        gm_tree_delete(tree);
        tree = new_tree;
        if (!tree) {
            fail("tree-sitter could not reparse after edit %ld", k + 1);
            goto done;
        }
    }

    /* Peak RSS just before shutdown, then shutdown + exit. */
    peak_kib = peak_rss_kib(conn.pid);
    id = conn.next_id++;
    if (send_message(&conn, json_pack("{s:s,s:I,s:s}", "jsonrpc", "2.0", "id", id, "method",
                                      "shutdown")) != 0) {
        goto done;
    }
    response = wait_for_response(&conn, id);
    if (!response) {
        goto done;
    }
    json_decref(response);
    if (send_message(&conn, json_pack("{s:s,s:s}", "jsonrpc", "2.0", "method", "exit")) != 0) {
        goto done;
    }
    close(conn.to_server);
    conn.to_server = -1;
    int status = reap_server(&conn, EXIT_TIMEOUT_MS);
    if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        describe_exit(status);
        goto done;
    }
    exit_code = 0;

done:
    if (exit_code != 0 && !conn.reaped) {
        /* Say why the server went away if it did. */
        int status;
        if (waitpid(conn.pid, &status, WNOHANG) == conn.pid) {
            conn.reaped = true;
            describe_exit(status);
        } else {
            kill(conn.pid, SIGKILL);
        }
    }
    close_server(&conn);
    if (exit_code == 0) {
        size_t n = (size_t)opts.edits;
        qsort(latency, n, sizeof *latency, compare_u64);
        qsort(reparse, n, sizeof *reparse, compare_u64);
        double p50 = percentile_ms(latency, n, 50), p99 = percentile_ms(latency, n, 99);
        double r50 = percentile_ms(reparse, n, 50), r99 = percentile_ms(reparse, n, 99);
        double ratio = r50 > 0 ? p50 / r50 : 0.0;
        double rss_mb = peak_kib >= 0 ? (double)peak_kib / 1024.0 : -1.0;
        char targets[256];
        if (lines.count <= SMALL_FILE_LINES) {
            snprintf(targets, sizeof targets, "p50<%gms %s, p99<%gms %s, ", TARGET_SMALL_P50_MS,
                     mark(p50 < TARGET_SMALL_P50_MS), TARGET_SMALL_P99_MS,
                     mark(p99 < TARGET_SMALL_P99_MS));
        } else {
            snprintf(targets, sizeof targets, "p50<%gms %s, ", TARGET_LARGE_P50_MS,
                     mark(p50 < TARGET_LARGE_P50_MS));
        }
        size_t used = strlen(targets);
        snprintf(targets + used, sizeof targets - used, "ratio<=%g %s, RSS<%gMB %s",
                 TARGET_RATIO_P50, mark(ratio <= TARGET_RATIO_P50), TARGET_PEAK_RSS_MB,
                 mark(rss_mb >= 0 && rss_mb < TARGET_PEAK_RSS_MB));
        const char *name = strrchr(opts.model, '/');
        name = name ? name + 1 : opts.model;
        if (opts.header) {
            print_header();
        }
        printf("%-16s %6zu %6ld %7.3f %7.3f %12.3f %12.3f %10.2f %12.1f  %s\n", name, lines.count,
               opts.edits, p50, p99, r50, r99, ratio, rss_mb, targets);
        fflush(stdout);
        fprintf(stderr,
                "%s: didOpen to first diagnostics %.1f ms, full parse %.1f ms, %ld diagnostics, "
                "latency max %.3f ms, reparse max %.3f ms\n",
                name, ns_to_ms(open_ns), ns_to_ms(full_parse_ns), diagnostics,
                ns_to_ms(latency[n - 1]), ns_to_ms(reparse[n - 1]));
        if (diagnostics == 0) {
            fprintf(stderr, "%s: warning: the server published no diagnostics\n", name);
        }
        if (mismatches) {
            fprintf(stderr,
                    "%s: warning: %ld times the restored text got a diagnostic count other than "
                    "the original %ld\n",
                    name, mismatches, diagnostics);
        }
    }
    free(latency);
    free(reparse);
    gm_tree_delete(tree);
    ts_parser_delete(parser);
    free(text);
    free(candidates);
    free(lines.starts);
    free(lines.ends);
    free(original);
    free(uri);
    return exit_code;
}
