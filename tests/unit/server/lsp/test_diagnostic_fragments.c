/* publishDiagnostics built from the fragments kept between publications (diagnostic_fragments.h)
 * is byte for byte what serialising every diagnostic afresh gives, and what jansson's compact
 * serialisation of the same diagnostics gives, over a long sequence of random edits: characters
 * typed and deleted anywhere (non-ASCII ones included, so that UTF-16 columns move), lines
 * inserted and joined, breaks added and removed, and fullgraph toggled (the same messages with
 * another severity). */
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "protocol/framing.h"
#include "protocol/position.h"
#include "server/lsp/diagnostic_fragments.h"
#include "server/lsp/lsp_internal.h"

typedef struct {
    char *last_publication; /* the body of the last publishDiagnostics, owned */
    size_t last_len;
    int publications;
} capture;

static void capture_write(void *context, const char *data, size_t len) {
    capture *out = context;
    gm_frame_reader *reader = gm_frame_reader_new(GM_FRAME_DEFAULT_MAX_BODY);
    gm_frame_reader_feed(reader, data, len);
    const char *body, *error;
    size_t body_len;
    while (gm_frame_reader_next(reader, &body, &body_len, &error) == GM_FRAME_MESSAGE) {
        if (strstr(body, "\"method\":\"textDocument/publishDiagnostics\"")) {
            free(out->last_publication);
            out->last_publication = malloc(body_len + 1);
            memcpy(out->last_publication, body, body_len + 1);
            out->last_len = body_len;
            out->publications++;
        }
    }
    gm_frame_reader_free(reader);
}

static void send_json(gm_server *server, json_t *message) {
    char *body = json_dumps(message, JSON_COMPACT);
    char header[64];
    size_t n = gm_frame_header(header, sizeof header, strlen(body));
    gm_server_feed(server, header, n);
    gm_server_feed(server, body, strlen(body));
    free(body);
    json_decref(message);
}

static uint64_t rng_state = 0x2545f4914f6cdd1dull;
static uint32_t next_random(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 16);
}

static const char *uri = "file:///fragments.py";

/* A module whose forward methods break in several ways, some on lines with non-ASCII text. */
static char *initial_text(void) {
    static const char head[] = "import torch\nimport torch.nn as nn\n\n";
    static const char block[] =
        "class Block%d(nn.Module):\n"
        "    def forward(self, x):\n"
        "        label = \"\xc3\xa9\xf0\x9f\x9a\x80\"; print(label, x)\n"
        "        if x.sum() > 0:\n"
        "            x = x * 2\n"
        "        n = x.item()\n"
        "        return x + n\n\n\n";
    static const char tail[] = "model = torch.compile(Block0(), fullgraph=False)\n";
    size_t cap = sizeof head + 40 * (sizeof block + 8) + sizeof tail;
    char *text = malloc(cap);
    size_t len = (size_t)snprintf(text, cap, "%s", head);
    for (int i = 0; i < 40; i++)
        len += (size_t)snprintf(text + len, cap - len, block, i);
    snprintf(text + len, cap - len, "%s", tail);
    return text;
}

/* The expected diagnostics array, built as jansson values from the server's findings. */
static json_t *jansson_diagnostics(gm_server *server, gm_document *doc) {
    const gm_finding_list *findings = gm_server_findings(server, doc);
    json_t *array = json_array();
    for (size_t i = 0; i < findings->count; i++) {
        const gm_finding *f = &findings->items[i];
        uint32_t sl, sc, el, ec;
        gm_offset_to_position(doc->text, doc->len, &doc->lines, server->encoding,
                              f->span.start_byte, &sl, &sc);
        gm_offset_to_position(doc->text, doc->len, &doc->lines, server->encoding,
                              f->span.end_byte, &el, &ec);
        json_t *d = json_pack("{s:{s:{s:i,s:i},s:{s:i,s:i}},s:i,s:s,s:s,s:s}", "range", "start",
                              "line", (json_int_t)sl, "character", (json_int_t)sc, "end", "line",
                              (json_int_t)el, "character", (json_int_t)ec, "severity",
                              (int)gm_finding_severity(f), "code", f->rule->id, "source",
                              "graphmend", "message", f->message);
        if (f->rule->url)
            json_object_set_new(d, "codeDescription", json_pack("{s:s}", "href", f->rule->url));
        json_array_append_new(array, d);
    }
    return array;
}

/* The diagnostics array of a publication: from "diagnostics": to the closing "}}". */
static char *published_array(const capture *out) {
    const char *at = strstr(out->last_publication, ",\"diagnostics\":");
    if (!at || out->last_len < 2)
        return NULL;
    at += strlen(",\"diagnostics\":");
    size_t n = (size_t)(out->last_publication + out->last_len - 2 - at);
    char *array = malloc(n + 1);
    memcpy(array, at, n);
    array[n] = '\0';
    return array;
}

static bool is_continuation(char c) {
    return ((unsigned char)c & 0xC0) == 0x80;
}

/* One random edit of doc as a didChange (its positions in the server's encoding). */
static json_t *random_change(const gm_server *server, const gm_document *doc, int version) {
    static const char *const inserts[] = {
        "x", " ", "\n", "\xc3\xa9", "\xf0\x9f\x9a\x80", "#", "\n        print(x)",
        "\n        y = x.item()", "(", ")", "\n\n", "pass\n"};
    size_t start, end;
    const char *text = "";
    const char *toggle = (next_random() % 9 == 0) ? strstr(doc->text, "fullgraph=") : NULL;
    if (toggle) {
        start = (size_t)(toggle - doc->text) + strlen("fullgraph=");
        bool on = strncmp(doc->text + start, "True", 4) == 0;
        end = start + (on ? 4 : 5);
        text = on ? "False" : "True";
    } else {
        start = doc->len ? next_random() % doc->len : 0;
        while (start > 0 && is_continuation(doc->text[start]))
            start--;
        end = start;
        if (next_random() % 2) {
            text = inserts[next_random() % (sizeof inserts / sizeof inserts[0])];
        } else {
            end = start + 1 + next_random() % 3;
            if (end > doc->len)
                end = doc->len;
            while (end < doc->len && is_continuation(doc->text[end]))
                end++;
        }
    }
    uint32_t sl, sc, el, ec;
    gm_offset_to_position(doc->text, doc->len, &doc->lines, server->encoding, start, &sl, &sc);
    gm_offset_to_position(doc->text, doc->len, &doc->lines, server->encoding, end, &el, &ec);
    return json_pack(
        "{s:s,s:s,s:{s:{s:s,s:i},s:[{s:{s:{s:i,s:i},s:{s:i,s:i}},s:s}]}}", "jsonrpc", "2.0",
        "method", "textDocument/didChange", "params", "textDocument", "uri", uri, "version",
        version, "contentChanges", "range", "start", "line", (json_int_t)sl, "character",
        (json_int_t)sc, "end", "line", (json_int_t)el, "character", (json_int_t)ec, "text", text);
}

static void fake_tail(gm_json_writer *writer, const gm_finding *finding, const char *note) {
    char text[256];
    snprintf(text, sizeof text, "|%d|%s|%s|%s", (int)gm_finding_severity(finding),
             finding->rule->id, finding->message, note ? note : "-");
    gm_json_raw_str(writer, text);
}

/* One publication of a single finding; returns whether its tail was reused. */
static bool publish_one(gm_diagnostic_fragments *fragments, const gm_finding *finding,
                        const char *note, char *text, size_t size) {
    gm_diagnostic_fragment_stats before, after;
    gm_diagnostic_fragments_stats(fragments, &before);
    gm_json_writer writer;
    gm_json_writer_init(&writer);
    gm_diagnostic_fragments_begin(fragments);
    gm_diagnostic_fragments_write(fragments, &writer, finding, note, fake_tail);
    gm_diagnostic_fragments_end(fragments);
    snprintf(text, size, "%s", writer.data);
    gm_json_writer_free(&writer);
    gm_diagnostic_fragments_stats(fragments, &after);
    return after.reused > before.reused;
}

/* A kept tail is reused only for the same rule, severity, message text and note: the message's
 * address alone (the lookup's key) decides nothing. */
static void reuse_needs_every_part_equal(void) {
    gm_diagnostic_fragments *fragments = gm_diagnostic_fragments_new();
    char message[64] = "print() breaks the graph";
    gm_finding finding = {.rule = gm_rule_by_id("GM401"), .message = message};
    CHECK(finding.rule != NULL);
    if (!finding.rule)
        return;
    char text[256];
    CHECK(!publish_one(fragments, &finding, NULL, text, sizeof text));
    CHECK(publish_one(fragments, &finding, NULL, text, sizeof text));
    char expected[256];
    snprintf(expected, sizeof expected, "|%d|GM401|print() breaks the graph|-",
             (int)gm_finding_severity(&finding));
    CHECK_EQ_STR(text, expected);
    finding.severity = GM_SEVERITY_ERROR; /* fullgraph: same message, another severity */
    CHECK(!publish_one(fragments, &finding, NULL, text, sizeof text));
    CHECK_EQ_STR(text, "|1|GM401|print() breaks the graph|-");
    strcpy(message, "print() breaks the graph!"); /* new text at the same address */
    CHECK(!publish_one(fragments, &finding, NULL, text, sizeof text));
    CHECK_EQ_STR(text, "|1|GM401|print() breaks the graph!|-");
    CHECK(!publish_one(fragments, &finding, "confirmed", text, sizeof text));
    char note[16] = "confirmed"; /* the same note at another address */
    CHECK(publish_one(fragments, &finding, note, text, sizeof text));
    CHECK_EQ_STR(text, "|1|GM401|print() breaks the graph!|confirmed");
    CHECK(!publish_one(fragments, &finding, NULL, text, sizeof text));
    finding.rule = gm_rule_by_id("GM101");
    CHECK(finding.rule != NULL);
    if (finding.rule) {
        CHECK(!publish_one(fragments, &finding, NULL, text, sizeof text));
        CHECK_EQ_STR(text, "|1|GM101|print() breaks the graph!|-");
    }
    /* An unfinished publication (begin without end) loses nothing of the next one. */
    gm_diagnostic_fragments_begin(fragments);
    CHECK(publish_one(fragments, &finding, NULL, text, sizeof text));
    gm_diagnostic_fragments_free(fragments);
}

int main(void) {
    reuse_needs_every_part_equal();
    capture out = {0};
    gm_server *server = gm_server_new(capture_write, &out);
    send_json(server, json_pack("{s:s,s:i,s:s,s:{s:{s:{s:[s]}}}}", "jsonrpc", "2.0", "id", 1,
                                "method", "initialize", "params", "capabilities", "general",
                                "positionEncodings", "utf-16"));
    send_json(server, json_pack("{s:s,s:s,s:{}}", "jsonrpc", "2.0", "method", "initialized",
                                "params"));
    char *text = initial_text();
    send_json(server, json_pack("{s:s,s:s,s:{s:{s:s,s:s,s:i,s:s}}}", "jsonrpc", "2.0", "method",
                                "textDocument/didOpen", "params", "textDocument", "uri", uri,
                                "languageId", "python", "version", 1, "text", text));
    free(text);
    gm_document *doc = gm_document_store_find(&server->documents, uri);
    CHECK(doc != NULL);
    CHECK_EQ_INT(out.publications, 1);
    /* Keystrokes in one method body (a space typed after "return x + n" and deleted): each
     * publication writes afresh at most the diagnostics of that statement. */
    int version = 2;
    for (int k = 0; doc && k < 20; k++, version++) {
        const char *line = strstr(doc->text, "class Block20(");
        line = line ? strstr(line, "return x + n") : NULL;
        CHECK(line != NULL);
        if (!line)
            break;
        size_t at = (size_t)(line - doc->text) + strlen("return x + n");
        uint32_t l, c;
        gm_offset_to_position(doc->text, doc->len, &doc->lines, server->encoding, at, &l, &c);
        uint32_t end = c + (k % 2);
        gm_diagnostic_fragment_stats before = {0}, after = {0};
        if (doc->fragments)
            gm_diagnostic_fragments_stats(doc->fragments, &before);
        send_json(server,
                  json_pack("{s:s,s:s,s:{s:{s:s,s:i},s:[{s:{s:{s:i,s:i},s:{s:i,s:i}},s:s}]}}",
                            "jsonrpc", "2.0", "method", "textDocument/didChange", "params",
                            "textDocument", "uri", uri, "version", version, "contentChanges",
                            "range", "start", "line", (json_int_t)l, "character", (json_int_t)c,
                            "end", "line", (json_int_t)l, "character", (json_int_t)end, "text",
                            k % 2 ? "" : " "));
        if (doc->fragments)
            gm_diagnostic_fragments_stats(doc->fragments, &after);
        CHECK(after.written - before.written <= 3);
        CHECK(after.reused - before.reused >= 110);
    }
    int mismatches = 0, jansson_mismatches = 0, largest = 0;
    for (; doc && version < 600; version++) {
        send_json(server, random_change(server, doc, version));
        CHECK_EQ_INT(doc->version, version);
        char *published = published_array(&out);
        gm_json_writer fresh;
        gm_json_writer_init(&fresh);
        gm_write_diagnostics_uncached(server, doc, &fresh);
        if (!published || strcmp(published, fresh.data) != 0) {
            if (mismatches++ < 3)
                fprintf(stderr, "version %d: published\n  %.300s\nserialised afresh\n  %.300s\n",
                        version, published ? published : "(none)", fresh.data);
        }
        json_t *expected = jansson_diagnostics(server, doc);
        char *dumped = json_dumps(expected, JSON_COMPACT);
        if (!published || strcmp(published, dumped) != 0) {
            if (jansson_mismatches++ < 3)
                fprintf(stderr, "version %d: published\n  %.300s\njansson\n  %.300s\n", version,
                        published ? published : "(none)", dumped);
        }
        int count = (int)json_array_size(expected);
        largest = count > largest ? count : largest;
        free(dumped);
        json_decref(expected);
        gm_json_writer_free(&fresh);
        free(published);
    }
    CHECK_EQ_INT(mismatches, 0);
    CHECK_EQ_INT(jansson_mismatches, 0);
    CHECK(largest >= 80); /* the module keeps most of its breaks through the edits */
    CHECK_EQ_INT(out.publications, 599); /* one per version */
    /* Random edits reuse fewer (a deletion often breaks the parse; fullgraph changes every
     * severity), but the comparisons above ran over reused fragments. */
    gm_diagnostic_fragment_stats stats = {0};
    if (doc && doc->fragments)
        gm_diagnostic_fragments_stats(doc->fragments, &stats);
    CHECK(stats.reused > stats.written);
    free(out.last_publication);
    gm_server_free(server);
    return check_exit_code("server/lsp/diagnostic_fragments");
}
