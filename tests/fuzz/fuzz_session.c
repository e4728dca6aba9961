/* libFuzzer target: LSP sessions. The input is a program of editor operations on three
 * documents (open, full and incremental changes of random size and range, pulls of
 * diagnostics, hovers, code actions, close), each sent as a well-formed framed message after a
 * valid initialize, so that the fuzzer drives the document store, the incremental parse and
 * the analysis through their states rather than the JSON-RPC front. Texts are built from
 * Python-ish characters and tokens, and a repeat operation makes long runs (up to 70,000 lines:
 * past the 65,535 comments that tree-sitter 0.20 miscounts). Every write of the server must be
 * exactly one well-formed framed JSON message. */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
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
    if (gm_frame_reader_next(reader, &body, &body_len, &error) != GM_FRAME_MESSAGE)
        abort();
    json_t *value = json_loadb(body, body_len, 0, NULL);
    if (!value || gm_frame_reader_next(reader, &body, &body_len, &error) != GM_FRAME_NEED_MORE)
        abort();
    json_decref(value);
    gm_frame_reader_free(reader);
}

typedef struct {
    const uint8_t *data;
    size_t size, at;
} program;

static unsigned byte(program *p) {
    return p->at < p->size ? p->data[p->at++] : 0;
}

static void send(gm_server *server, json_t *message) {
    char *body = json_dumps(message, JSON_COMPACT);
    json_decref(message);
    if (!body)
        return;
    char header[64];
    size_t len = strlen(body);
    size_t header_len = gm_frame_header(header, sizeof header, len);
    gm_server_feed(server, header, header_len);
    gm_server_feed(server, body, len);
    free(body);
}

static const char alphabet[] = "abcxyzn0129 \t\n\n()[]{}:.,=+-*/<>#'\"\\@";
static const char *const tokens[] = {
    "import torch\n",      "def f(x):\n",          "    print(x)\n",   "    return x\n",
    "@torch.compile\n",    "if x.sum() > 0:\n",    "class M(torch.nn.Module):\n",
    "    def forward(self, x):\n", "        y = x.item()\n", "# comment\n", "\"\"\"",
    "\r\n",                "\r",                   "\xc3\xa9",        "    ",
};

/* Appends text built from the program to buf (at most cap bytes). */
static size_t build_text(program *p, char *buf, size_t cap) {
    size_t n = 0, pieces = byte(p) % 48;
    for (size_t i = 0; i < pieces; i++) {
        unsigned b = byte(p);
        if (b < 200) {
            if (n + 1 < cap)
                buf[n++] = alphabet[b % (sizeof alphabet - 1)];
        } else if (b < 250) {
            const char *t = tokens[b % (sizeof tokens / sizeof *tokens)];
            size_t l = strlen(t);
            if (n + l < cap) {
                memcpy(buf + n, t, l);
                n += l;
            }
        } else { /* a long run of the last piece */
            size_t high = byte(p), times = (high << 8 | byte(p)) % 70000;
            const char *piece = b % 2 ? "#\n" : "x = 1\n";
            size_t l = strlen(piece);
            for (size_t k = 0; k < times && n + l < cap; k++) {
                memcpy(buf + n, piece, l);
                n += l;
            }
        }
    }
    buf[n] = '\0';
    return n;
}

static const char *const uris[3] = {"file:///fuzz/doc0.py", "file:///fuzz/doc1.py",
                                     "file:///fuzz/sub/doc2.py"};

static json_t *text_document(int doc) {
    return json_pack("{s:s}", "uri", uris[doc]);
}

static json_t *position(program *p) {
    return json_pack("{s:i,s:i}", "line", (int)(byte(p) % 40), "character", (int)(byte(p) % 40));
}

#define TEXT_CAP (1u << 18)

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    gm_server *server = gm_server_new(check_write, NULL);
    if (!server)
        return 0;
    static char text[TEXT_CAP];
    program p = {data, size, 0};
    send(server, json_pack("{s:s,s:i,s:s,s:{s:o,s:{s:{s:{}}}}}", "jsonrpc", "2.0", "id", 0,
                           "method", "initialize", "params", "processId", json_null(),
                           "capabilities", "textDocument", "diagnostic"));
    send(server, json_pack("{s:s,s:s,s:{}}", "jsonrpc", "2.0", "method", "initialized", "params"));
    int versions[3] = {0, 0, 0}, id = 1;
    for (int ops = 0; ops < 64 && p.at < p.size; ops++) {
        unsigned op = byte(&p) % 8;
        int doc = (int)(byte(&p) % 3);
        json_t *message = NULL;
        if (op == 0 || op == 1) { /* open (again), or replace the whole text */
            build_text(&p, text, sizeof text);
            json_t *content = json_stringn(text, strlen(text));
            if (!content)
                continue;
            versions[doc]++;
            message = op == 0 ? json_pack("{s:s,s:s,s:{s:{s:s,s:s,s:i,s:o}}}", "jsonrpc", "2.0",
                                          "method", "textDocument/didOpen", "params",
                                          "textDocument", "uri", uris[doc], "languageId",
                                          "python", "version", versions[doc], "text", content)
                              : json_pack("{s:s,s:s,s:{s:{s:s,s:i},s:[{s:o}]}}", "jsonrpc", "2.0",
                                          "method", "textDocument/didChange", "params",
                                          "textDocument", "uri", uris[doc], "version",
                                          versions[doc], "contentChanges", "text", content);
        } else if (op == 2) { /* an edit of a range, which may lie past the end */
            build_text(&p, text, 4096);
            json_t *content = json_stringn(text, strlen(text));
            if (!content)
                continue;
            versions[doc]++;
            message = json_pack("{s:s,s:s,s:{s:o,s:[{s:{s:o,s:o},s:o}]}}", "jsonrpc", "2.0",
                                "method", "textDocument/didChange", "params", "textDocument",
                                json_pack("{s:s,s:i}", "uri", uris[doc], "version", versions[doc]),
                                "contentChanges", "range", "start", position(&p), "end",
                                position(&p), "text", content);
        } else if (op == 3 || op == 4) {
            message = json_pack("{s:s,s:i,s:s,s:{s:o}}", "jsonrpc", "2.0", "id", id++, "method",
                                "textDocument/diagnostic", "params", "textDocument",
                                text_document(doc));
        } else if (op == 5) {
            message = json_pack("{s:s,s:i,s:s,s:{s:o,s:o}}", "jsonrpc", "2.0", "id", id++,
                                "method", "textDocument/hover", "params", "textDocument",
                                text_document(doc), "position", position(&p));
        } else if (op == 6) {
            message = json_pack("{s:s,s:i,s:s,s:{s:o,s:{s:o,s:o},s:{s:[]}}}", "jsonrpc", "2.0",
                                "id", id++, "method", "textDocument/codeAction", "params",
                                "textDocument", text_document(doc), "range", "start",
                                position(&p), "end", position(&p), "context", "diagnostics");
        } else {
            message = json_pack("{s:s,s:s,s:{s:o}}", "jsonrpc", "2.0", "method",
                                "textDocument/didClose", "params", "textDocument",
                                text_document(doc));
        }
        if (message)
            send(server, message);
    }
    send(server, json_pack("{s:s,s:i,s:s}", "jsonrpc", "2.0", "id", id, "method", "shutdown"));
    send(server, json_pack("{s:s,s:s}", "jsonrpc", "2.0", "method", "exit"));
    gm_server_eof(server);
    gm_server_free(server);
    return 0;
}
