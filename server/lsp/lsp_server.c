/* The server core: frames -> JSON-RPC messages -> queue -> dispatch -> responses. */
#include <stdarg.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/lsp_params.h"
#include "server/lsp/lsp_internal.h"

typedef struct {
    const char *method;
    gm_request_handler request;           /* set for requests */
    gm_notification_handler notification; /* set for notifications */
} gm_method;

static const gm_method methods[] = {
    {"initialize", gm_handle_initialize, NULL},
    {"shutdown", gm_handle_shutdown, NULL},
    {"textDocument/diagnostic", gm_handle_document_diagnostic, NULL},
    {"textDocument/codeAction", gm_handle_code_action, NULL},
    {"textDocument/hover", gm_handle_hover, NULL},
    {"textDocument/codeLens", gm_handle_code_lens, NULL},
    {"workspace/executeCommand", gm_handle_execute_command, NULL},
    {"initialized", NULL, gm_handle_initialized},
    {"exit", NULL, gm_handle_exit},
    {"textDocument/didOpen", NULL, gm_handle_did_open},
    {"textDocument/didChange", NULL, gm_handle_did_change},
    {"textDocument/didClose", NULL, gm_handle_did_close},
    {"textDocument/didSave", NULL, gm_handle_did_save},
    {"workspace/didChangeConfiguration", NULL, gm_handle_did_change_configuration},
    {"window/workDoneProgress/cancel", NULL, gm_handle_work_done_progress_cancel},
};

static const gm_method *find_method(const char *name) {
    for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++) {
        if (strcmp(methods[i].method, name) == 0) {
            return &methods[i];
        }
    }
    return NULL;
}

gm_server *gm_server_new(gm_server_write_fn write, void *context) {
    gm_server *server = calloc(1, sizeof *server);
    if (!server) {
        return NULL;
    }
    server->write = write;
    server->write_context = context;
    server->reader = gm_frame_reader_new(GM_FRAME_DEFAULT_MAX_BODY);
    server->encoding = GM_ENCODING_UTF16;
    server->exit_code = 1;
    server->next_outgoing_id = 1;
    gm_settings_default(&server->settings);
    server->trace_timing = getenv("GRAPHMEND_TRACE_TIMING") != NULL;
    if (!server->reader || gm_document_store_init(&server->documents) != 0) {
        gm_server_free(server);
        return NULL;
    }
    return server;
}

void gm_server_free(gm_server *server) {
    if (!server) {
        return;
    }
    for (size_t i = 0; i < server->queue_count; i++) {
        gm_rpc_message_clear(&server->queue[i].message);
    }
    gm_server_stop_jobs(server);
    gm_interpreter_probe_free(server);
    free(server->queue);
    free(server->outgoing);
    gm_json_writer_free(&server->publish_writer);
    gm_frame_reader_free(server->reader);
    gm_document_store_free(&server->documents);
    gm_workspace_free(server);
    gm_library_free(server);
    gm_server_forget_pyprojects(server);
    free(server);
}

double gm_server_now_us(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec * 1e6 + (double)now.tv_nsec / 1e3;
}

bool gm_server_finished(const gm_server *server, int *exit_code) {
    if (exit_code) {
        *exit_code = server->exit_code;
    }
    return server->finished;
}

/* ---------------------------------------------------------------- sending */

static json_t result_sent_marker;
json_t *const GM_RESULT_SENT = &result_sent_marker;

const json_t *gm_server_current_id(const gm_server *server) {
    return server->current_id;
}

void gm_server_send(gm_server *server, json_t *message) {
    size_t body_len = 0;
    char *body = gm_rpc_serialize(message, &body_len);
    json_decref(message);
    if (!body) {
        fprintf(stderr, "graphmend: could not serialise a message\n");
        return;
    }
    gm_server_send_body(server, body, body_len);
    free(body);
}

void gm_server_send_raw_result(gm_server *server, const json_t *id, const char *result_json,
                               size_t len) {
    char *id_text = json_dumps(id ? id : json_null(), JSON_ENCODE_ANY | JSON_COMPACT);
    if (!id_text) {
        return;
    }
    static const char prefix[] = "{\"jsonrpc\":\"2.0\",\"id\":";
    size_t id_len = strlen(id_text);
    size_t body_len = sizeof prefix - 1 + id_len + 10 + len + 1;
    char *body = malloc(body_len + 1);
    if (body) {
        int n = snprintf(body, body_len + 1, "%s%s,\"result\":", prefix, id_text);
        memcpy(body + n, result_json, len);
        body[n + len] = '}';
        gm_server_send_body(server, body, (size_t)n + len + 1);
        free(body);
    }
    free(id_text);
}

void gm_server_send_body(gm_server *server, const char *body, size_t body_len) {
    char header[64];
    size_t header_len = gm_frame_header(header, sizeof header, body_len);
    char *frame = malloc(header_len + body_len);
    if (frame) {
        memcpy(frame, header, header_len);
        memcpy(frame + header_len, body, body_len);
        server->write(server->write_context, frame, header_len + body_len);
        free(frame);
    }
}

void gm_server_send_framed(gm_server *server, char *buffer, size_t body_len) {
    char header[GM_SERVER_FRAME_ROOM];
    size_t header_len = gm_frame_header(header, sizeof header, body_len);
    if (header_len == 0)
        return;
    char *frame = buffer + GM_SERVER_FRAME_ROOM - header_len;
    memcpy(frame, header, header_len);
    server->write(server->write_context, frame, header_len + body_len);
}

void gm_server_notify(gm_server *server, const char *method, json_t *params) {
    gm_server_send(server, gm_rpc_make_notification(method, params));
    json_decref(params);
}

int64_t gm_server_request(gm_server *server, const char *method, json_t *params) {
    if (server->outgoing_count == server->outgoing_capacity) {
        size_t capacity = server->outgoing_capacity ? server->outgoing_capacity * 2 : 8;
        gm_outgoing_request *grown = realloc(server->outgoing, capacity * sizeof *grown);
        if (!grown) {
            json_decref(params);
            return 0;
        }
        server->outgoing = grown;
        server->outgoing_capacity = capacity;
    }
    gm_outgoing_request *pending = &server->outgoing[server->outgoing_count++];
    pending->id = server->next_outgoing_id++;
    snprintf(pending->method, sizeof pending->method, "%s", method);
    int64_t sent = pending->id;
    json_t *id = json_integer(sent);
    gm_server_send(server, gm_rpc_make_request(id, method, params));
    json_decref(id);
    json_decref(params);
    return sent;
}

static void send_message_va(gm_server *server, const char *method, int type, const char *format,
                            va_list args) {
    char text[1024];
    vsnprintf(text, sizeof text, format, args);
    static const char *const type_names[] = {"", "error", "warning", "info", "log"};
    fprintf(stderr, "graphmend [%s] %s\n", type_names[type >= 1 && type <= 4 ? type : 4], text);
    if (server->lifecycle == GM_LIFECYCLE_UNINITIALIZED) {
        return; /* nothing but responses may be sent before initialize */
    }
    gm_server_notify(server, method, json_pack("{s:i,s:s}", "type", type, "message", text));
}

void gm_server_log(gm_server *server, int type, const char *format, ...) {
    if (type > server->settings.log_level) {
        return;
    }
    va_list args;
    va_start(args, format);
    send_message_va(server, "window/logMessage", type, format, args);
    va_end(args);
}

void gm_server_show(gm_server *server, int type, const char *format, ...) {
    va_list args;
    va_start(args, format);
    send_message_va(server, "window/showMessage", type, format, args);
    va_end(args);
}

static void send_error(gm_server *server, json_t *id, int code, const char *message) {
    gm_server_send(server, gm_rpc_make_error(id, code, message, NULL));
}

/* ---------------------------------------------------------------- receiving */

/* A response to one of the server's requests: a malformed one (kind GM_RPC_BAD_RESPONSE) still
 * settles the request it names, as a failure, so that nothing waits for it forever. */
static bool names_outgoing(const gm_server *server, const json_t *id) {
    for (size_t i = 0; json_is_integer(id) && i < server->outgoing_count; i++)
        if (server->outgoing[i].id == (int64_t)json_integer_value(id))
            return true;
    return false;
}

static void handle_response(gm_server *server, gm_rpc_message *msg) {
    bool malformed = msg->kind == GM_RPC_BAD_RESPONSE;
    /* {"jsonrpc": "2.0", "id": 5}: no request of ours has that id, so it is a request without
     * "method" (JSON-RPC: -32600), not a response to answer nothing to */
    if (malformed && msg->lacks_method && !names_outgoing(server, msg->id)) {
        send_error(server, msg->id, GM_RPC_INVALID_REQUEST,
                   "a request needs a \"method\" (a response, \"result\" or \"error\")");
        return;
    }
    if (malformed) {
        gm_server_log(server, 2, "ignored a malformed response: %s", msg->error_message);
    }
    if (!json_is_integer(msg->id)) {
        return;
    }
    int64_t id = (int64_t)json_integer_value(msg->id);
    for (size_t i = 0; i < server->outgoing_count; i++) {
        if (server->outgoing[i].id != id) {
            continue;
        }
        gm_outgoing_request request = server->outgoing[i];
        server->outgoing[i] = server->outgoing[--server->outgoing_count];
        bool failed = malformed || msg->error;
        if (strcmp(request.method, "window/workDoneProgress/create") == 0) {
            gm_profile_progress_created(server, id, !failed);
        } else if (failed) {
            gm_server_log(server, 2, "client answered %s with an error", request.method);
        } else if (strcmp(request.method, "workspace/configuration") == 0) {
            gm_handle_configuration_response(server, msg->result);
        }
        return;
    }
    gm_server_log(server, 4, "response to unknown request id %lld", (long long)id);
}

static void dispatch_request(gm_server *server, gm_rpc_message *msg) {
    const gm_method *method = find_method(msg->method);
    if (server->lifecycle == GM_LIFECYCLE_UNINITIALIZED &&
        !(method && strcmp(method->method, "initialize") == 0)) {
        send_error(server, msg->id, GM_RPC_SERVER_NOT_INITIALIZED,
                   "the server is not initialized: send initialize first");
        return;
    }
    if (server->lifecycle == GM_LIFECYCLE_SHUTDOWN) {
        send_error(server, msg->id, GM_RPC_INVALID_REQUEST,
                   "shutdown was requested: only exit is accepted now");
        return;
    }
    if (!method || !method->request) {
        char text[256];
        snprintf(text, sizeof text, "unknown method: %.200s", msg->method);
        send_error(server, msg->id, GM_RPC_METHOD_NOT_FOUND, text);
        return;
    }
    if (msg->params && !json_is_object(msg->params) && strcmp(method->method, "shutdown") != 0) {
        send_error(server, msg->id, GM_RPC_INVALID_PARAMS, "params must be an object");
        return;
    }
    int error_code = GM_RPC_INTERNAL_ERROR;
    char error[512] = "internal error";
    server->current_id = msg->id;
    json_t *result = method->request(server, msg->params, &error_code, error, sizeof error);
    server->current_id = NULL;
    if (result == GM_RESULT_SENT) {
        return;
    }
    if (result) {
        gm_server_send(server, gm_rpc_make_result(msg->id, result));
        json_decref(result);
    } else {
        send_error(server, msg->id, error_code, error);
    }
}

static void dispatch_notification(gm_server *server, gm_rpc_message *msg) {
    const gm_method *method = find_method(msg->method);
    if (server->lifecycle == GM_LIFECYCLE_UNINITIALIZED &&
        !(method && strcmp(method->method, "exit") == 0)) {
        return; /* the specification says: drop notifications before initialize, except exit */
    }
    if (!method || !method->notification) {
        /* Unknown notifications ($/setTrace, $/progress, ...) are never answered. */
        if (strncmp(msg->method, "$/", 2) != 0) {
            gm_server_log(server, 4, "ignored notification %.200s", msg->method);
        }
        return;
    }
    if (msg->params && !json_is_object(msg->params) && !json_is_null(msg->params)) {
        gm_server_log(server, 1, "%s: params must be an object", msg->method);
        return;
    }
    method->notification(server, msg->params);
}

static void process_message(gm_server *server, gm_queued_message *queued) {
    gm_rpc_message *msg = &queued->message;
    if (server->finished) {
        return;
    }
    switch (msg->kind) {
    case GM_RPC_INVALID:
        send_error(server, msg->id, msg->error_code, msg->error_message);
        break;
    case GM_RPC_RESPONSE:
    case GM_RPC_BAD_RESPONSE:
        handle_response(server, msg);
        break;
    case GM_RPC_REQUEST:
        if (queued->cancelled) {
            send_error(server, msg->id, GM_RPC_REQUEST_CANCELLED, "request cancelled");
        } else {
            dispatch_request(server, msg);
        }
        break;
    case GM_RPC_NOTIFICATION:
        dispatch_notification(server, msg);
        break;
    }
}

/* $/cancelRequest marks a queued request, or stops a running profile (answered when its
 * children are gone); one already answered is left alone, as the specification allows. */
static void apply_cancel(gm_server *server, const gm_rpc_message *cancel) {
    json_t *target = json_is_object(cancel->params) ? json_object_get(cancel->params, "id") : NULL;
    if (!json_is_integer(target) && !json_is_string(target)) {
        gm_server_log(server, 2, "$/cancelRequest without a valid id");
        return;
    }
    if (gm_profile_cancel_request(server, target)) {
        return;
    }
    char wanted[128], key[128];
    gm_rpc_id_key(target, wanted, sizeof wanted);
    for (size_t i = 0; i < server->queue_count; i++) {
        gm_rpc_message *msg = &server->queue[i].message;
        if (msg->kind == GM_RPC_REQUEST &&
            strcmp(gm_rpc_id_key(msg->id, key, sizeof key), wanted) == 0) {
            server->queue[i].cancelled = true;
        }
    }
}

static int enqueue(gm_server *server, const char *body, size_t len) {
    if (server->queue_count == server->queue_capacity) {
        size_t capacity = server->queue_capacity ? server->queue_capacity * 2 : 16;
        gm_queued_message *grown = realloc(server->queue, capacity * sizeof *grown);
        if (!grown) {
            return -1;
        }
        server->queue = grown;
        server->queue_capacity = capacity;
    }
    gm_queued_message *queued = &server->queue[server->queue_count];
    queued->cancelled = false;
    gm_rpc_parse(body, len, &queued->message);
    if (queued->message.kind == GM_RPC_NOTIFICATION &&
        strcmp(queued->message.method, "$/cancelRequest") == 0) {
        apply_cancel(server, &queued->message);
        gm_rpc_message_clear(&queued->message);
        return 0;
    }
    server->queue_count++;
    return 0;
}

/* Diagnostics of earlier changes go out before any request is answered, so a client sees the
 * state its request was made in, and a shutdown in the same read cannot swallow them. */
static bool publishes_first(const gm_rpc_message *msg) {
    return msg->kind == GM_RPC_REQUEST ||
           (msg->kind == GM_RPC_NOTIFICATION && strcmp(msg->method, "exit") == 0);
}

static void drain_queue(gm_server *server) {
    for (size_t i = 0; i < server->queue_count; i++) {
        /* Anything but typing may read what other files see of the open documents. */
        const gm_rpc_message *msg = &server->queue[i].message;
        if (!server->finished && !(msg->kind == GM_RPC_NOTIFICATION &&
                                   strcmp(msg->method, "textDocument/didChange") == 0))
            gm_workspace_flush_summaries(server);
        if (publishes_first(&server->queue[i].message) && !server->finished) {
            gm_publish_dirty_diagnostics(server);
        }
        process_message(server, &server->queue[i]);
        gm_rpc_message_clear(&server->queue[i].message);
    }
    server->queue_count = 0;
}

void gm_server_feed(gm_server *server, const char *data, size_t len) {
    if (server->finished) {
        return;
    }
    if (gm_frame_reader_feed(server->reader, data, len) != 0) {
        gm_server_log(server, 1, "out of memory while reading a message");
        return;
    }
    for (;;) {
        const char *body = NULL;
        const char *problem = NULL;
        size_t body_len = 0;
        gm_frame_status status = gm_frame_reader_next(server->reader, &body, &body_len, &problem);
        if (status == GM_FRAME_NEED_MORE) {
            break;
        }
        if (status == GM_FRAME_ERROR) {
            /* No id can be known: the message is reported and dropped. */
            gm_server_log(server, 1, "dropped a malformed message: %s", problem);
            continue;
        }
        if (enqueue(server, body, body_len) != 0) {
            gm_server_log(server, 1, "out of memory while queueing a message");
        }
    }
    drain_queue(server);
    if (!server->finished) {
        gm_publish_dirty_diagnostics(server);
    }
}

void gm_server_eof(gm_server *server) {
    if (gm_frame_reader_pending(server->reader) > 0) {
        fprintf(stderr, "graphmend: input ended inside a message (%zu bytes dropped)\n",
                gm_frame_reader_pending(server->reader));
    }
    if (!server->finished) {
        server->finished = true;
        server->exit_code = server->lifecycle == GM_LIFECYCLE_SHUTDOWN ? 0 : 1;
    }
}
