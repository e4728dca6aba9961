/* libFuzzer target: bytes from a client -> framing -> JSON-RPC -> dispatch -> handlers. The input
 * follows a valid initialize so the fuzzer reaches the LSP handlers, not only the -32002 path.
 * Every write of the server must be exactly one well-formed framed JSON message. */
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/framing.h"
#include "server/lsp/lsp_server.h"

static void check_write(void *context, const char *data, size_t len) {
    (void)context;
    gm_frame_reader *reader = gm_frame_reader_new(GM_FRAME_DEFAULT_MAX_BODY);
    gm_frame_reader_feed(reader, data, len);
    const char *body, *error;
    size_t body_len;
    if (gm_frame_reader_next(reader, &body, &body_len, &error) != GM_FRAME_MESSAGE) {
        abort();
    }
    json_t *value = json_loadb(body, body_len, 0, NULL);
    if (!value || gm_frame_reader_next(reader, &body, &body_len, &error) != GM_FRAME_NEED_MORE) {
        abort();
    }
    json_decref(value);
    gm_frame_reader_free(reader);
}

static const char initialize[] =
    "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"capabilities\":{}}}";

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    gm_server *server = gm_server_new(check_write, NULL);
    if (!server) {
        return 0;
    }
    char header[64];
    size_t header_len = gm_frame_header(header, sizeof header, sizeof initialize - 1);
    gm_server_feed(server, header, header_len);
    gm_server_feed(server, initialize, sizeof initialize - 1);
    /* Split the input at a data-chosen point to exercise partial reads. */
    size_t split = size > 1 ? data[0] % size : 0;
    gm_server_feed(server, (const char *)data, split);
    gm_server_feed(server, (const char *)data + split, size - split);
    gm_server_eof(server);
    gm_server_free(server);
    return 0;
}
