/* JSON-RPC dispatch of the server core, driven in memory: every error code from the input that
 * should produce it, exactly one response per request, cancellation, lifecycle and exit codes. */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "protocol/framing.h"
#include "server/lsp/lsp_server.h"

typedef struct {
    json_t *messages; /* array of everything the server wrote */
} capture;

static void capture_write(void *context, const char *data, size_t len) {
    capture *out = context;
    gm_frame_reader *reader = gm_frame_reader_new(GM_FRAME_DEFAULT_MAX_BODY);
    gm_frame_reader_feed(reader, data, len);
    const char *body, *error;
    size_t body_len;
    int frames = 0;
    while (gm_frame_reader_next(reader, &body, &body_len, &error) == GM_FRAME_MESSAGE) {
        json_array_append_new(out->messages, json_loadb(body, body_len, 0, NULL));
        frames++;
    }
    CHECK_EQ_INT(frames, 1); /* each write is exactly one framed message */
    gm_frame_reader_free(reader);
}

static void send_raw(gm_server *server, const char *body) {
    char header[64];
    size_t n = gm_frame_header(header, sizeof header, strlen(body));
    gm_server_feed(server, header, n);
    gm_server_feed(server, body, strlen(body));
}

/* The responses (messages with an id and no method) for id, counted. */
static json_t *response_for(capture *out, json_int_t id, int *count) {
    json_t *found = NULL;
    size_t i;
    json_t *message;
    *count = 0;
    json_array_foreach(out->messages, i, message) {
        json_t *mid = json_object_get(message, "id");
        if (json_is_integer(mid) && json_integer_value(mid) == id &&
            !json_object_get(message, "method")) {
            found = message;
            (*count)++;
        }
    }
    return found;
}

static int error_code(capture *out, json_int_t id) {
    int count;
    json_t *response = response_for(out, id, &count);
    CHECK_EQ_INT(count, 1);
    json_t *error = json_object_get(response, "error");
    return error ? (int)json_integer_value(json_object_get(error, "code")) : 0;
}

static int null_id_error_count(capture *out, int code) {
    int n = 0;
    size_t i;
    json_t *message;
    json_array_foreach(out->messages, i, message) {
        json_t *error = json_object_get(message, "error");
        if (error && json_is_null(json_object_get(message, "id")) &&
            json_integer_value(json_object_get(error, "code")) == code) {
            n++;
        }
    }
    return n;
}

static const char *initialize =
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"capabilities\":"
    "{\"general\":{\"positionEncodings\":[\"utf-32\",\"utf-8\"]}}}}";

static void errors_and_lifecycle(void) {
    capture out = {json_array()};
    gm_server *server = gm_server_new(capture_write, &out);

    send_raw(server,
             "{\"jsonrpc\":\"2.0\",\"id\":50,\"method\":\"textDocument/hover\",\"params\":{}}");
    CHECK_EQ_INT(error_code(&out, 50), -32002);
    /* Notifications before initialize are dropped silently. */
    size_t before = json_array_size(out.messages);
    send_raw(server, "{\"jsonrpc\":\"2.0\",\"method\":\"initialized\",\"params\":{}}");
    CHECK_EQ_INT(json_array_size(out.messages), before);

    send_raw(server, initialize);
    int count;
    json_t *init = response_for(&out, 1, &count);
    CHECK_EQ_INT(count, 1);
    CHECK_EQ_STR(
        json_string_value(json_object_get(
            json_object_get(json_object_get(init, "result"), "capabilities"), "positionEncoding")),
        "utf-32");
    send_raw(server, "{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"initialize\",\"params\":"
                     "{\"capabilities\":{}}}");
    CHECK_EQ_INT(error_code(&out, 11), -32600); /* initialize only once */

    send_raw(server, "{not json");
    CHECK_EQ_INT(null_id_error_count(&out, -32700), 1);
    send_raw(server, "{\"jsonrpc\":\"1.0\",\"id\":2,\"method\":\"shutdown\"}");
    CHECK_EQ_INT(error_code(&out, 2), -32600);
    send_raw(server, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"no/such\"}");
    CHECK_EQ_INT(error_code(&out, 3), -32601);
    before = json_array_size(out.messages);
    send_raw(server, "{\"jsonrpc\":\"2.0\",\"method\":\"no/such/notification\"}");
    send_raw(server,
             "{\"jsonrpc\":\"2.0\",\"method\":\"$/setTrace\",\"params\":{\"value\":\"off\"}}");
    /* At most log messages, never a response. */
    for (size_t i = before; i < json_array_size(out.messages); i++) {
        CHECK(json_object_get(json_array_get(out.messages, i), "method") != NULL);
    }
    send_raw(server, "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"textDocument/hover\",\"params\":"
                     "{\"textDocument\":{},\"position\":{\"line\":0,\"character\":0}}}");
    CHECK_EQ_INT(error_code(&out, 4), -32602);
    send_raw(server, "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"textDocument/hover\",\"params\":"
                     "{\"textDocument\":{\"uri\":\"file:///none.py\"},\"position\":{\"line\":\"0\","
                     "\"character\":0}}}");
    CHECK_EQ_INT(error_code(&out, 5), -32602);

    /* A request and its cancellation in one chunk: -32800, and only that. */
    const char *hover =
        "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"textDocument/hover\",\"params\":"
        "{\"textDocument\":{\"uri\":\"file:///none.py\"},\"position\":{\"line\":0,"
        "\"character\":0}}}";
    const char *cancel =
        "{\"jsonrpc\":\"2.0\",\"method\":\"$/cancelRequest\",\"params\":{\"id\":6}}";
    char chunk[1024];
    char h1[64], h2[64];
    gm_frame_header(h1, sizeof h1, strlen(hover));
    gm_frame_header(h2, sizeof h2, strlen(cancel));
    snprintf(chunk, sizeof chunk, "%s%s%s%s", h1, hover, h2, cancel);
    gm_server_feed(server, chunk, strlen(chunk));
    CHECK_EQ_INT(error_code(&out, 6), -32800);

    int exit_code = -1;
    CHECK(!gm_server_finished(server, &exit_code));
    send_raw(server, "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"shutdown\"}");
    CHECK_EQ_INT(error_code(&out, 7), 0);
    send_raw(server,
             "{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"textDocument/hover\",\"params\":{}}");
    CHECK_EQ_INT(error_code(&out, 8), -32600);
    send_raw(server, "{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}");
    CHECK(gm_server_finished(server, &exit_code));
    CHECK_EQ_INT(exit_code, 0);
    gm_server_free(server);
    json_decref(out.messages);
}

static void exit_without_shutdown_fails(void) {
    capture out = {json_array()};
    gm_server *server = gm_server_new(capture_write, &out);
    send_raw(server, initialize);
    send_raw(server, "{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}");
    int exit_code = -1;
    CHECK(gm_server_finished(server, &exit_code));
    CHECK_EQ_INT(exit_code, 1);
    gm_server_free(server);

    server = gm_server_new(capture_write, &out);
    send_raw(server, initialize);
    gm_server_eof(server);
    CHECK(gm_server_finished(server, &exit_code));
    CHECK_EQ_INT(exit_code, 1);
    gm_server_free(server);
    json_decref(out.messages);
}

/* Byte-at-a-time delivery of a didOpen yields exactly one publishDiagnostics with a finding. */
static void diagnostics_survive_partial_reads(void) {
    capture out = {json_array()};
    gm_server *server = gm_server_new(capture_write, &out);
    send_raw(server, initialize);
    const char *open =
        "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":{\"textDocument\":"
        "{\"uri\":\"file:///m.py\",\"languageId\":\"python\",\"version\":3,\"text\":"
        "\"import torch\\n\\n@torch.compile\\ndef f(x):\\n    print(x)\\n    return x\\n\"}}}";
    char header[64];
    size_t n = gm_frame_header(header, sizeof header, strlen(open));
    for (size_t i = 0; i < n; i++) {
        gm_server_feed(server, header + i, 1);
    }
    for (size_t i = 0; i < strlen(open); i++) {
        gm_server_feed(server, open + i, 1);
    }
    int published = 0;
    size_t i;
    json_t *message;
    json_array_foreach(out.messages, i, message) {
        const char *method = json_string_value(json_object_get(message, "method"));
        if (method && strcmp(method, "textDocument/publishDiagnostics") == 0) {
            published++;
            json_t *params = json_object_get(message, "params");
            CHECK_EQ_INT(json_integer_value(json_object_get(params, "version")), 3);
            json_t *diagnostics = json_object_get(params, "diagnostics");
            CHECK_EQ_INT(json_array_size(diagnostics), 1);
            json_t *first = json_array_get(diagnostics, 0);
            CHECK_EQ_STR(json_string_value(json_object_get(first, "code")), "GM401");
            json_t *start = json_object_get(json_object_get(first, "range"), "start");
            CHECK_EQ_INT(json_integer_value(json_object_get(start, "line")), 4);
            CHECK_EQ_INT(json_integer_value(json_object_get(start, "character")), 4);
        }
    }
    CHECK_EQ_INT(published, 1);
    gm_server_free(server);
    json_decref(out.messages);
}

int main(void) {
    errors_and_lifecycle();
    exit_without_shutdown_fails();
    diagnostics_survive_partial_reads();
    return check_exit_code("server/lsp/server_dispatch");
}
