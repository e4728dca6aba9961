/* JSON-RPC 2.0 messages: classification of incoming bodies and construction of outgoing ones. */
#ifndef GM_PROTOCOL_JSONRPC_H
#define GM_PROTOCOL_JSONRPC_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* JSON-RPC and LSP error codes. */
enum {
    GM_RPC_PARSE_ERROR = -32700,
    GM_RPC_INVALID_REQUEST = -32600,
    GM_RPC_METHOD_NOT_FOUND = -32601,
    GM_RPC_INVALID_PARAMS = -32602,
    GM_RPC_INTERNAL_ERROR = -32603,
    GM_RPC_SERVER_NOT_INITIALIZED = -32002,
    GM_RPC_UNKNOWN_ERROR_CODE = -32001,
    GM_RPC_REQUEST_FAILED = -32803,
    GM_RPC_SERVER_CANCELLED = -32802,
    GM_RPC_CONTENT_MODIFIED = -32801,
    GM_RPC_REQUEST_CANCELLED = -32800,
};

typedef enum {
    GM_RPC_REQUEST,      /* method + id */
    GM_RPC_NOTIFICATION, /* method, no id */
    GM_RPC_RESPONSE,     /* id + result or error (a reply to a request the server sent) */
    GM_RPC_INVALID,      /* see error_code / error_message; id is set when one could be read */
    GM_RPC_BAD_RESPONSE, /* shaped as a response (no method; an id, result or error) but
                            malformed: never answered; error_message says why, id is set when
                            one could be read */
} gm_rpc_kind;

typedef struct {
    gm_rpc_kind kind;
    json_t *root;       /* owned: the whole parsed value (NULL on a parse error) */
    json_t *id;         /* borrowed from root: integer or string; NULL when absent/unreadable */
    const char *method; /* borrowed from root */
    json_t *params;     /* borrowed from root; NULL when absent */
    json_t *result;     /* responses only */
    json_t *error;      /* responses only */
    int error_code;     /* GM_RPC_PARSE_ERROR or GM_RPC_INVALID_REQUEST when kind is INVALID */
    /* a BAD_RESPONSE with an id but neither "result" nor "error": a request that lacks its
     * "method" unless the id names a request of the receiver's (which then answers -32600) */
    bool lacks_method;
    char error_message[160];
} gm_rpc_message;

/* Parses one message body. Always fills *out; release it with gm_rpc_message_clear.
 * Invalid JSON gives GM_RPC_PARSE_ERROR; a value that is not a valid JSON-RPC 2.0 request or
 * notification (wrong "jsonrpc", bad id type, non-string method, params that are neither
 * object nor array, batches, an integer outside the 64-bit range) gives
 * GM_RPC_INVALID_REQUEST; a malformed response gives GM_RPC_BAD_RESPONSE. */
void gm_rpc_parse(const char *body, size_t len, gm_rpc_message *out);
void gm_rpc_message_clear(gm_rpc_message *msg);

/* Builders. Each returns a new reference (owned by the caller). id and result/data are
 * borrowed (increfed as needed); a NULL id becomes JSON null, a NULL result becomes null. */
json_t *gm_rpc_make_result(json_t *id, json_t *result);
json_t *gm_rpc_make_error(json_t *id, int code, const char *message, json_t *data);
json_t *gm_rpc_make_notification(const char *method, json_t *params);
json_t *gm_rpc_make_request(json_t *id, const char *method, json_t *params);

/* Serialises compactly to a malloc'ed NUL-terminated string (caller frees); *len gets strlen. */
char *gm_rpc_serialize(const json_t *message, size_t *len);

/* A stable string key for an id ("i:42" or "s:abc"), for pending-request tables.
 * Writes into buf; returns buf. */
const char *gm_rpc_id_key(const json_t *id, char *buf, size_t buf_size);

#endif
