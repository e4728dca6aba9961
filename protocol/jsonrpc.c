/* JSON-RPC 2.0 classification and construction (jansson only). */
#include "protocol/jsonrpc.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static void invalid(gm_rpc_message *out, int code, const char *fmt, ...) {
    va_list ap;
    out->kind = GM_RPC_INVALID;
    out->error_code = code;
    va_start(ap, fmt);
    vsnprintf(out->error_message, sizeof out->error_message, fmt, ap);
    va_end(ap);
    /* Nothing but the id may be used from an invalid message. */
    out->method = NULL;
    out->params = NULL;
    out->result = NULL;
    out->error = NULL;
}

/* A response is never answered, however malformed: answering could start an endless exchange
 * with a client that answers errors in turn. */
static void bad_response(gm_rpc_message *out, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out->error_message, sizeof out->error_message, fmt, ap);
    va_end(ap);
    out->kind = GM_RPC_BAD_RESPONSE;
    out->error_code = GM_RPC_INVALID_REQUEST;
    out->method = NULL;
    out->params = NULL;
    out->result = NULL;
    out->error = NULL;
}

static int is_id(const json_t *v) {
    return json_is_integer(v) || json_is_string(v);
}

void gm_rpc_parse(const char *body, size_t len, gm_rpc_message *out) {
    memset(out, 0, sizeof *out);
    json_error_t jerr;
    /* JSON_DECODE_ANY: a non-object top level is an invalid request, not a parse error.
     * JSON_ALLOW_NUL: "\u0000" is valid JSON and may occur in document text; consumers of
     * document text must use json_string_length. */
    const size_t flags = JSON_DECODE_ANY | JSON_ALLOW_NUL;
    json_t *root = json_loadb(body, len, flags, &jerr);
    /* An integer beyond 64 bits is valid JSON that jansson refuses: read it again with integers
     * as reals to tell a valid message (an invalid request) from a broken one. Its integers are
     * then reals, so only a string id survives. */
    bool out_of_range = false;
    if (!root && json_error_code(&jerr) == json_error_numeric_overflow) {
        json_error_t again;
        root = json_loadb(body, len, flags | JSON_DECODE_INT_AS_REAL, &again);
        out_of_range = root != NULL;
    }
    if (!root) {
        invalid(out, GM_RPC_PARSE_ERROR, "parse error at line %d, column %d: %s", jerr.line,
                jerr.column, jerr.text);
        return;
    }
    out->root = root;
    if (json_is_array(root)) {
        invalid(out, GM_RPC_INVALID_REQUEST, "batch requests (JSON arrays) are not supported");
        return;
    }
    if (!json_is_object(root)) {
        invalid(out, GM_RPC_INVALID_REQUEST, "a message must be a JSON object");
        return;
    }

    json_t *id = json_object_get(root, "id");
    if (is_id(id))
        out->id = id; /* set first so that an error reply can carry it */

    json_t *method = json_object_get(root, "method");
    json_t *result = json_object_get(root, "result");
    json_t *error = json_object_get(root, "error");
    bool response = !method && (id || result || error);

    if (out_of_range) {
        static const char range[] = "a number is outside the range of 64-bit integers";
        if (response)
            bad_response(out, "%s", range);
        else
            invalid(out, GM_RPC_INVALID_REQUEST, range);
        return;
    }

    json_t *version = json_object_get(root, "jsonrpc");
    if (!json_is_string(version) || strcmp(json_string_value(version), "2.0") != 0 ||
        json_string_length(version) != 3) {
        if (response)
            bad_response(out, "\"jsonrpc\" must be \"2.0\"");
        else
            invalid(out, GM_RPC_INVALID_REQUEST, "\"jsonrpc\" must be \"2.0\"");
        return;
    }

    if (method) {
        if (!json_is_string(method)) {
            invalid(out, GM_RPC_INVALID_REQUEST, "\"method\" must be a string");
            return;
        }
        if (strlen(json_string_value(method)) != json_string_length(method)) {
            invalid(out, GM_RPC_INVALID_REQUEST, "\"method\" must not contain NUL characters");
            return;
        }
        if (id && !is_id(id)) {
            invalid(out, GM_RPC_INVALID_REQUEST, "\"id\" must be an integer or a string");
            return;
        }
        json_t *params = json_object_get(root, "params");
        /* "params": null is tolerated as absent: several clients send it with "shutdown" and
         * "exit" (Atom, Zed, eglot before 2023) and rejecting it breaks their shutdown. */
        if (params && !json_is_null(params) && !json_is_object(params) && !json_is_array(params)) {
            invalid(out, GM_RPC_INVALID_REQUEST, "\"params\" must be an object or an array");
            return;
        }
        out->method = json_string_value(method);
        out->params = json_is_null(params) ? NULL : params;
        out->kind = id ? GM_RPC_REQUEST : GM_RPC_NOTIFICATION;
        return;
    }

    if (response) {
        if (!id) {
            bad_response(out, "a response must have an \"id\"");
            return;
        }
        /* A response's id may be null (the reply to an unparseable request). */
        if (!is_id(id) && !json_is_null(id)) {
            bad_response(out, "\"id\" must be an integer, a string or null");
            return;
        }
        if (result && error) {
            bad_response(out, "a response must not have both \"result\" and \"error\"");
            return;
        }
        if (!result && !error) {
            bad_response(out, "a response needs \"result\" or \"error\"");
            out->lacks_method = out->id != NULL;
            return;
        }
        if (error && (!json_is_object(error) || !json_is_integer(json_object_get(error, "code")))) {
            bad_response(out, "\"error\" must be an object with an integer \"code\"");
            return;
        }
        out->kind = GM_RPC_RESPONSE;
        out->result = result;
        out->error = error;
        return;
    }

    invalid(out, GM_RPC_INVALID_REQUEST, "a message needs \"method\", \"result\" or \"error\"");
}

void gm_rpc_message_clear(gm_rpc_message *msg) {
    if (!msg)
        return;
    json_decref(msg->root);
    memset(msg, 0, sizeof *msg);
}

/* Copies id, or JSON null when absent. jansson's json_null() is a singleton: no allocation. */
static json_t *id_or_null(json_t *id) {
    return id ? json_incref(id) : json_null();
}

static json_t *new_message(void) {
    json_t *m = json_object();
    if (m && json_object_set_new(m, "jsonrpc", json_string("2.0")) != 0) {
        json_decref(m);
        return NULL;
    }
    return m;
}

json_t *gm_rpc_make_result(json_t *id, json_t *result) {
    json_t *m = new_message();
    if (!m)
        return NULL;
    if (json_object_set_new(m, "id", id_or_null(id)) != 0 ||
        json_object_set_new(m, "result", result ? json_incref(result) : json_null()) != 0) {
        json_decref(m);
        return NULL;
    }
    return m;
}

json_t *gm_rpc_make_error(json_t *id, int code, const char *message, json_t *data) {
    json_t *m = new_message();
    json_t *err = json_object();
    if (!m || !err)
        goto fail;
    if (json_object_set_new(err, "code", json_integer(code)) != 0 ||
        json_object_set_new(err, "message", json_string(message ? message : "")) != 0)
        goto fail;
    if (data && json_object_set(err, "data", data) != 0)
        goto fail;
    if (json_object_set_new(m, "id", id_or_null(id)) != 0)
        goto fail;
    if (json_object_set_new(m, "error", err) != 0) {
        err = NULL; /* set_new consumed it even on failure */
        goto fail;
    }
    return m;
fail:
    json_decref(err);
    json_decref(m);
    return NULL;
}

json_t *gm_rpc_make_notification(const char *method, json_t *params) {
    json_t *m = new_message();
    if (!m)
        return NULL;
    if (json_object_set_new(m, "method", json_string(method)) != 0 ||
        (params && json_object_set(m, "params", params) != 0)) {
        json_decref(m);
        return NULL;
    }
    return m;
}

json_t *gm_rpc_make_request(json_t *id, const char *method, json_t *params) {
    json_t *m = gm_rpc_make_notification(method, params);
    if (m && json_object_set_new(m, "id", id_or_null(id)) != 0) {
        json_decref(m);
        return NULL;
    }
    return m;
}

char *gm_rpc_serialize(const json_t *message, size_t *len) {
    char *s = json_dumps(message, JSON_COMPACT);
    if (len)
        *len = s ? strlen(s) : 0;
    return s;
}

const char *gm_rpc_id_key(const json_t *id, char *buf, size_t buf_size) {
    if (!buf || buf_size == 0)
        return buf;
    if (json_is_integer(id)) {
        snprintf(buf, buf_size, "i:%" JSON_INTEGER_FORMAT, json_integer_value(id));
    } else if (json_is_string(id)) {
        /* An embedded NUL truncates the key; ids with NULs are not worth distinguishing. */
        snprintf(buf, buf_size, "s:%s", json_string_value(id));
    } else {
        snprintf(buf, buf_size, "null");
    }
    return buf;
}
