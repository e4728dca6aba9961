/* Unit tests for protocol/jsonrpc: classification, error cases, builders, ids. */
#include "check.h"
#include "protocol/jsonrpc.h"

#include <stdlib.h>
#include <string.h>

static void parse(const char *body, gm_rpc_message *m) {
    gm_rpc_parse(body, strlen(body), m);
}

static void test_valid_kinds(void) {
    gm_rpc_message m;

    parse("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"a\":1}}", &m);
    CHECK_EQ_INT(m.kind, GM_RPC_REQUEST);
    CHECK(json_is_integer(m.id) && json_integer_value(m.id) == 1);
    CHECK_EQ_STR(m.method, "initialize");
    CHECK(json_is_object(m.params));
    CHECK(m.result == NULL && m.error == NULL);
    gm_rpc_message_clear(&m);
    CHECK(m.root == NULL && m.id == NULL && m.method == NULL);

    parse("{\"id\":\"abc\",\"method\":\"shutdown\",\"jsonrpc\":\"2.0\"}", &m);
    CHECK_EQ_INT(m.kind, GM_RPC_REQUEST);
    CHECK(json_is_string(m.id));
    CHECK_EQ_STR(json_string_value(m.id), "abc");
    CHECK(m.params == NULL);
    gm_rpc_message_clear(&m);

    /* "params": null is tolerated as absent (sent by real clients with shutdown/exit). */
    parse("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"shutdown\",\"params\":null}", &m);
    CHECK_EQ_INT(m.kind, GM_RPC_REQUEST);
    CHECK(m.params == NULL);
    gm_rpc_message_clear(&m);

    parse("{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/didOpen\",\"params\":[1,2]}", &m);
    CHECK_EQ_INT(m.kind, GM_RPC_NOTIFICATION);
    CHECK(m.id == NULL);
    CHECK_EQ_STR(m.method, "textDocument/didOpen");
    CHECK(json_is_array(m.params));
    gm_rpc_message_clear(&m);

    parse("{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}", &m);
    CHECK_EQ_INT(m.kind, GM_RPC_NOTIFICATION);
    CHECK(m.params == NULL);
    gm_rpc_message_clear(&m);

    parse("{\"jsonrpc\":\"2.0\",\"id\":3,\"result\":null}", &m);
    CHECK_EQ_INT(m.kind, GM_RPC_RESPONSE);
    CHECK(json_integer_value(m.id) == 3);
    CHECK(json_is_null(m.result));
    CHECK(m.error == NULL && m.method == NULL);
    gm_rpc_message_clear(&m);

    parse("{\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"error\":{\"code\":-32601,\"message\":\"no\"}}", &m);
    CHECK_EQ_INT(m.kind, GM_RPC_RESPONSE);
    CHECK(json_is_object(m.error));
    CHECK(m.result == NULL);
    gm_rpc_message_clear(&m);

    /* A response to an unparseable request carries a null id. */
    parse("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":\"x\"}}", &m);
    CHECK_EQ_INT(m.kind, GM_RPC_RESPONSE);
    CHECK(m.id == NULL);
    gm_rpc_message_clear(&m);

    /* Not NUL-terminated input: the length is what counts. */
    const char *two = "{\"jsonrpc\":\"2.0\",\"method\":\"a\"}{\"junk\"";
    gm_rpc_parse(two, 30, &m);
    CHECK_EQ_INT(m.kind, GM_RPC_NOTIFICATION);
    CHECK_EQ_STR(m.method, "a");
    gm_rpc_message_clear(&m);

    /* Multibyte UTF-8 and an escaped NUL in a string are valid JSON. */
    parse("{\"jsonrpc\":\"2.0\",\"method\":\"m\","
          "\"params\":{\"t\":\"\xC3\xA9\\u0000\xF0\x9F\x98\x80\"}}",
          &m);
    CHECK_EQ_INT(m.kind, GM_RPC_NOTIFICATION);
    CHECK_EQ_INT(json_string_length(json_object_get(m.params, "t")), 7);
    gm_rpc_message_clear(&m);
}

typedef struct {
    const char *body;
    int code;
    int id_kind; /* 0: no id, 1: integer id 5, 2: string id "q" */
    const char *message_part;
} invalid_case;

static const invalid_case invalid_cases[] = {
    {"", GM_RPC_PARSE_ERROR, 0, "parse error"},
    {"{", GM_RPC_PARSE_ERROR, 0, "parse error"},
    {"{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"x\"", GM_RPC_PARSE_ERROR, 0, "parse error"},
    {"{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"x\"} trailing", GM_RPC_PARSE_ERROR, 0,
     "parse error"},
    {"not json", GM_RPC_PARSE_ERROR, 0, "parse error"},
    {"[{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"x\"}]", GM_RPC_INVALID_REQUEST, 0, "batch"},
    {"[]", GM_RPC_INVALID_REQUEST, 0, "batch"},
    {"42", GM_RPC_INVALID_REQUEST, 0, "JSON object"},
    {"\"str\"", GM_RPC_INVALID_REQUEST, 0, "JSON object"},
    {"null", GM_RPC_INVALID_REQUEST, 0, "JSON object"},
    {"{\"id\":5,\"method\":\"x\"}", GM_RPC_INVALID_REQUEST, 1, "\"jsonrpc\" must be \"2.0\""},
    {"{\"jsonrpc\":\"1.0\",\"id\":5,\"method\":\"x\"}", GM_RPC_INVALID_REQUEST, 1,
     "\"jsonrpc\" must be \"2.0\""},
    {"{\"jsonrpc\":2.0,\"id\":\"q\",\"method\":\"x\"}", GM_RPC_INVALID_REQUEST, 2,
     "\"jsonrpc\" must be \"2.0\""},
    {"{\"jsonrpc\":\"2.0\\u0000x\",\"id\":5,\"method\":\"x\"}", GM_RPC_INVALID_REQUEST, 1,
     "\"jsonrpc\" must be \"2.0\""},
    {"{\"jsonrpc\":\"2.0\",\"id\":null,\"method\":\"x\"}", GM_RPC_INVALID_REQUEST, 0, "\"id\""},
    {"{\"jsonrpc\":\"2.0\",\"id\":1.5,\"method\":\"x\"}", GM_RPC_INVALID_REQUEST, 0, "\"id\""},
    {"{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"x\"}", GM_RPC_INVALID_REQUEST, 0, "\"id\""},
    {"{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"x\"}", GM_RPC_INVALID_REQUEST, 0, "\"id\""},
    {"{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":7}", GM_RPC_INVALID_REQUEST, 1,
     "\"method\" must be a string"},
    {"{\"jsonrpc\":\"2.0\",\"method\":null}", GM_RPC_INVALID_REQUEST, 0,
     "\"method\" must be a string"},
    {"{\"jsonrpc\":\"2.0\",\"id\":\"q\",\"method\":\"a\\u0000b\"}", GM_RPC_INVALID_REQUEST, 2,
     "NUL"},
    {"{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"x\",\"params\":3}", GM_RPC_INVALID_REQUEST, 1,
     "\"params\" must be an object or an array"},
    {"{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":\"s\"}", GM_RPC_INVALID_REQUEST, 0,
     "\"params\" must be an object or an array"},
    {"{\"jsonrpc\":\"2.0\",\"method\":\"x\",\"params\":false}", GM_RPC_INVALID_REQUEST, 0,
     "\"params\""},
    {"{\"jsonrpc\":\"2.0\"}", GM_RPC_INVALID_REQUEST, 0, "\"method\""},
    /* valid JSON with an integer beyond 64 bits: an invalid request, its id null unless a
     * string */
    {"{\"jsonrpc\":\"2.0\",\"id\":18446744073709551616,\"method\":\"x\"}",
     GM_RPC_INVALID_REQUEST, 0, "64-bit"},
    {"{\"jsonrpc\":\"2.0\",\"id\":-9223372036854775809,\"method\":\"x\"}",
     GM_RPC_INVALID_REQUEST, 0, "64-bit"},
    {"{\"jsonrpc\":\"2.0\",\"id\":\"q\",\"method\":\"x\",\"params\":{\"n\":18446744073709551616}}",
     GM_RPC_INVALID_REQUEST, 2, "64-bit"},
    {"{\"jsonrpc\":\"2.0\",\"id\":18446744073709551616,\"method\":\"x\"", GM_RPC_PARSE_ERROR,
     0, "parse error"},
};

/* Responses that are malformed: never answered, so not invalid requests. */
static const invalid_case bad_response_cases[] = {
    {"{\"jsonrpc\":\"2.0\",\"id\":5}", GM_RPC_INVALID_REQUEST, 1, "\"result\" or \"error\""},
    {"{\"jsonrpc\":\"2.0\",\"result\":1}", GM_RPC_INVALID_REQUEST, 0, "\"id\""},
    {"{\"jsonrpc\":\"2.0\",\"id\":5,\"result\":1,\"error\":{\"code\":1,\"message\":\"m\"}}",
     GM_RPC_INVALID_REQUEST, 1, "both"},
    {"{\"jsonrpc\":\"2.0\",\"id\":5,\"error\":\"bad\"}", GM_RPC_INVALID_REQUEST, 1, "\"error\""},
    {"{\"jsonrpc\":\"2.0\",\"id\":\"q\",\"error\":{\"message\":\"no code\"}}",
     GM_RPC_INVALID_REQUEST, 2, "\"code\""},
    {"{\"jsonrpc\":\"2.0\",\"id\":[1],\"result\":1}", GM_RPC_INVALID_REQUEST, 0, "\"id\""},
    {"{\"id\":5,\"result\":1}", GM_RPC_INVALID_REQUEST, 1, "\"jsonrpc\""},
    {"{\"jsonrpc\":\"2.0\",\"id\":18446744073709551616,\"result\":1}", GM_RPC_INVALID_REQUEST, 0,
     "64-bit"},
};

static void check_invalid(const invalid_case *cases, size_t count, gm_rpc_kind kind) {
    for (size_t i = 0; i < count; i++) {
        const invalid_case *c = &cases[i];
        gm_rpc_message m;
        parse(c->body, &m);
        int ok = m.kind == kind && m.error_code == c->code &&
                 strstr(m.error_message, c->message_part) != NULL;
        if (c->code == GM_RPC_PARSE_ERROR)
            ok = ok && m.root == NULL;
        if (c->id_kind == 0)
            ok = ok && m.id == NULL;
        else if (c->id_kind == 1)
            ok = ok && json_is_integer(m.id) && json_integer_value(m.id) == 5;
        else
            ok = ok && json_is_string(m.id) && strcmp(json_string_value(m.id), "q") == 0;
        /* Nothing but the id may leak out of an invalid message. */
        ok = ok && m.method == NULL && m.params == NULL && m.result == NULL && m.error == NULL;
        CHECK(ok);
        if (!ok)
            fprintf(stderr, "  invalid case %zu: %s -> kind %d code %d \"%s\"\n", i, c->body,
                    m.kind, m.error_code, m.error_message);
        gm_rpc_message_clear(&m);
    }
}

static void test_invalid(void) {
    check_invalid(invalid_cases, sizeof invalid_cases / sizeof invalid_cases[0], GM_RPC_INVALID);
    check_invalid(bad_response_cases, sizeof bad_response_cases / sizeof bad_response_cases[0],
                  GM_RPC_BAD_RESPONSE);
    gm_rpc_message_clear(NULL);
    /* of those, only the one with an id and neither result nor error may be a request that
     * lacks its method (the server answers it -32600 when the id is none of its requests) */
    for (size_t i = 0; i < sizeof bad_response_cases / sizeof bad_response_cases[0]; i++) {
        gm_rpc_message m;
        gm_rpc_parse(bad_response_cases[i].body, strlen(bad_response_cases[i].body), &m);
        CHECK(m.lacks_method == (i == 0));
        gm_rpc_message_clear(&m);
    }
}

static void check_serialized(json_t *v, const char *expected) {
    size_t len = 0;
    char *s = gm_rpc_serialize(v, &len);
    CHECK_EQ_STR(s, expected);
    CHECK_EQ_INT(len, s ? strlen(s) : 0);
    free(s);
    json_decref(v);
}

static void test_builders(void) {
    json_t *id = json_integer(9);
    json_t *sid = json_string("x1");
    json_t *obj = json_pack("{s:i}", "a", 1);

    check_serialized(gm_rpc_make_result(id, obj),
                     "{\"jsonrpc\":\"2.0\",\"id\":9,\"result\":{\"a\":1}}");
    check_serialized(gm_rpc_make_result(sid, NULL),
                     "{\"jsonrpc\":\"2.0\",\"id\":\"x1\",\"result\":null}");
    check_serialized(gm_rpc_make_error(NULL, GM_RPC_PARSE_ERROR, "bad json", NULL),
                     "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{\"code\":-32700,\"message\":"
                     "\"bad json\"}}");
    check_serialized(gm_rpc_make_error(id, GM_RPC_INVALID_PARAMS, "p", obj),
                     "{\"jsonrpc\":\"2.0\",\"id\":9,\"error\":{\"code\":-32602,\"message\":\"p\","
                     "\"data\":{\"a\":1}}}");
    check_serialized(gm_rpc_make_notification("window/logMessage", obj),
                     "{\"jsonrpc\":\"2.0\",\"method\":\"window/logMessage\",\"params\":{\"a\":1}}");
    check_serialized(gm_rpc_make_notification("exit", NULL),
                     "{\"jsonrpc\":\"2.0\",\"method\":\"exit\"}");
    check_serialized(gm_rpc_make_request(sid, "workspace/configuration", obj),
                     "{\"jsonrpc\":\"2.0\",\"method\":\"workspace/configuration\",\"params\":{"
                     "\"a\":1},\"id\":\"x1\"}");
    /* Non-ASCII stays UTF-8, NUL is escaped so strlen is the length. */
    json_t *t = json_stringn("\xC3\xA9\0z", 4);
    check_serialized(gm_rpc_make_result(id, t),
                     "{\"jsonrpc\":\"2.0\",\"id\":9,\"result\":\"\xC3\xA9\\u0000z\"}");
    json_decref(t);

    /* The builders borrowed: the caller's references are intact. */
    CHECK_EQ_INT(id->refcount, 1);
    CHECK_EQ_INT(sid->refcount, 1);
    CHECK_EQ_INT(obj->refcount, 1);

    /* A built request parses back to the same classification. */
    json_t *req = gm_rpc_make_request(id, "textDocument/hover", obj);
    char *s = gm_rpc_serialize(req, NULL);
    gm_rpc_message m;
    parse(s, &m);
    CHECK_EQ_INT(m.kind, GM_RPC_REQUEST);
    CHECK_EQ_STR(m.method, "textDocument/hover");
    CHECK(json_equal(m.params, obj));
    gm_rpc_message_clear(&m);
    free(s);
    json_decref(req);

    json_decref(id);
    json_decref(sid);
    json_decref(obj);
}

static void test_id_key(void) {
    char a[64], b[64];
    json_t *i1 = json_integer(1), *s1 = json_string("1"), *neg = json_integer(-42);
    json_t *big = json_integer(9007199254740993LL);
    CHECK_EQ_STR(gm_rpc_id_key(i1, a, sizeof a), "i:1");
    CHECK_EQ_STR(gm_rpc_id_key(s1, b, sizeof b), "s:1");
    CHECK(strcmp(a, b) != 0);
    CHECK_EQ_STR(gm_rpc_id_key(neg, a, sizeof a), "i:-42");
    CHECK_EQ_STR(gm_rpc_id_key(big, a, sizeof a), "i:9007199254740993");
    CHECK_EQ_STR(gm_rpc_id_key(NULL, a, sizeof a), "null");
    /* Truncation stays NUL-terminated. */
    CHECK_EQ_STR(gm_rpc_id_key(big, a, 5), "i:90");
    CHECK(gm_rpc_id_key(i1, a, 0) == a);

    /* An id parsed from a message and a built one give the same key. */
    gm_rpc_message m;
    parse("{\"jsonrpc\":\"2.0\",\"id\":\"1\",\"result\":0}", &m);
    CHECK_EQ_STR(gm_rpc_id_key(m.id, a, sizeof a), gm_rpc_id_key(s1, b, sizeof b));
    gm_rpc_message_clear(&m);

    json_decref(i1);
    json_decref(s1);
    json_decref(neg);
    json_decref(big);
}

int main(void) {
    test_valid_kinds();
    test_invalid();
    test_builders();
    test_id_key();
    return check_exit_code("test_jsonrpc");
}
