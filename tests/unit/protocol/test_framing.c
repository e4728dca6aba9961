/* Unit tests for protocol/framing: chunking, coalescing, header forms, errors and resync. */
#include "check.h"
#include "protocol/framing.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One event from the reader: a body or an error. */
typedef struct {
    gm_frame_status kind;
    char *text; /* body bytes, or the error message */
    size_t len;
} event;

typedef struct {
    event *items;
    size_t count, cap;
} events;

typedef struct {
    char *data;
    size_t len, cap;
} strbuf;

static void sb_append(strbuf *b, const char *s, size_t n) {
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n + 1)
            cap *= 2;
        b->data = realloc(b->data, cap);
        if (!b->data)
            abort();
        b->cap = cap;
    }
    memcpy(b->data + b->len, s, n);
    b->len += n;
    b->data[b->len] = '\0';
}

static void sb_str(strbuf *b, const char *s) {
    sb_append(b, s, strlen(s));
}

/* Appends a well-formed message with the given body. */
static void sb_message(strbuf *b, const char *body) {
    char h[64];
    size_t n = gm_frame_header(h, sizeof h, strlen(body));
    sb_append(b, h, n);
    sb_str(b, body);
}

static void events_push(events *e, gm_frame_status kind, const char *text, size_t len) {
    if (e->count == e->cap) {
        e->cap = e->cap ? e->cap * 2 : 16;
        e->items = realloc(e->items, e->cap * sizeof *e->items);
        if (!e->items)
            abort();
    }
    char *copy = malloc(len + 1);
    if (!copy)
        abort();
    memcpy(copy, text, len);
    copy[len] = '\0';
    e->items[e->count++] = (event){kind, copy, len};
}

static void events_free(events *e) {
    for (size_t i = 0; i < e->count; i++)
        free(e->items[i].text);
    free(e->items);
    memset(e, 0, sizeof *e);
}

/* Drains the reader; checks the NUL terminator of every body. Returns how many bodies had a
 * missing terminator (0 expected). */
static int drain(gm_frame_reader *r, events *e) {
    int bad_nul = 0;
    for (;;) {
        const char *body, *error;
        size_t len;
        gm_frame_status st = gm_frame_reader_next(r, &body, &len, &error);
        if (st == GM_FRAME_NEED_MORE)
            return bad_nul;
        if (st == GM_FRAME_MESSAGE) {
            if (body[len] != '\0')
                bad_nul++;
            events_push(e, st, body, len);
        } else {
            events_push(e, st, error ? error : "(null error)", error ? strlen(error) : 12);
        }
    }
}

/* Feeds data in chunks whose sizes come from sizes[] cyclically (or 1 when NULL). */
static int feed_chunks(gm_frame_reader *r, events *e, const char *data, size_t len,
                       const size_t *sizes, size_t nsizes) {
    int bad = 0;
    size_t k = 0;
    for (size_t i = 0; i < len;) {
        size_t n = sizes ? sizes[k++ % nsizes] : 1;
        if (n > len - i)
            n = len - i;
        if (gm_frame_reader_feed(r, data + i, n) != 0)
            bad++;
        bad += drain(r, e);
        i += n;
    }
    return bad;
}

/* xorshift64*: a seeded, reproducible PRNG. */
static uint64_t rng_next(uint64_t *s) {
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1DULL;
}

static void test_single_and_header(void) {
    char h[64];
    CHECK_EQ_INT(gm_frame_header(h, sizeof h, 42), 22);
    CHECK_EQ_STR(h, "Content-Length: 42\r\n\r\n");
    CHECK_EQ_INT(gm_frame_header(h, 10, 42), 0);

    gm_frame_reader *r = gm_frame_reader_new(0);
    CHECK(r != NULL);
    const char *body, *error;
    size_t len;
    CHECK_EQ_INT(gm_frame_reader_next(r, &body, &len, &error), GM_FRAME_NEED_MORE);
    const char *msg = "Content-Length: 7\r\n\r\n{\"a\":1}";
    CHECK_EQ_INT(gm_frame_reader_feed(r, msg, 10), 0);
    CHECK_EQ_INT(gm_frame_reader_next(r, &body, &len, &error), GM_FRAME_NEED_MORE);
    CHECK_EQ_INT(gm_frame_reader_pending(r), 10);
    CHECK_EQ_INT(gm_frame_reader_feed(r, msg + 10, strlen(msg) - 10), 0);
    CHECK_EQ_INT(gm_frame_reader_next(r, &body, &len, &error), GM_FRAME_MESSAGE);
    CHECK_EQ_INT(len, 7);
    CHECK_EQ_STR(body, "{\"a\":1}");
    CHECK_EQ_INT(gm_frame_reader_next(r, &body, &len, &error), GM_FRAME_NEED_MORE);
    CHECK_EQ_INT(gm_frame_reader_pending(r), 0);
    gm_frame_reader_free(r);
    gm_frame_reader_free(NULL);
}

/* Header names in any case and order, optional whitespace, bare "\n", stray blank lines. */
static void test_header_forms(void) {
    static const char *const forms[] = {
        "Content-Length: 2\r\n\r\n{}",
        "content-length: 2\r\n\r\n{}",
        "CONTENT-LENGTH:2\r\n\r\n{}",
        "Content-Length:   2  \r\n\r\n{}",
        "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: 2\r\n\r\n{}",
        "Content-Length: 2\r\ncontent-type: application/vscode-jsonrpc; charset=utf-8\r\n\r\n{}",
        "Content-Length: 2\n\n{}",
        "Content-Type: x\nContent-Length: 2\r\n\n{}",
        "X-Unknown: whatever\r\nContent-Length: 2\r\n\r\n{}",
        "Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}",
        "Content-Length: 002\r\n\r\n{}",
        "\r\n\r\nContent-Length: 2\r\n\r\n{}",
        "\nContent-Length: 2\r\n\r\n{}",
    };
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        for (int bytewise = 0; bytewise < 2; bytewise++) {
            gm_frame_reader *r = gm_frame_reader_new(0);
            events e = {0};
            strbuf s = {0};
            sb_str(&s, forms[i]);
            sb_message(&s, "[1]");
            if (bytewise)
                CHECK_EQ_INT(feed_chunks(r, &e, s.data, s.len, NULL, 0), 0);
            else {
                CHECK_EQ_INT(gm_frame_reader_feed(r, s.data, s.len), 0);
                CHECK_EQ_INT(drain(r, &e), 0);
            }
            CHECK_EQ_INT(e.count, 2);
            if (e.count == 2) {
                CHECK_EQ_INT(e.items[0].kind, GM_FRAME_MESSAGE);
                CHECK_EQ_STR(e.items[0].text, "{}");
                CHECK_EQ_INT(e.items[1].kind, GM_FRAME_MESSAGE);
                CHECK_EQ_STR(e.items[1].text, "[1]");
            }
            if (e.count != 2)
                fprintf(stderr, "  form %zu (bytewise=%d)\n", i, bytewise);
            events_free(&e);
            free(s.data);
            gm_frame_reader_free(r);
        }
    }
}

/* Bodies with multibyte UTF-8: Content-Length counts bytes. */
static char *make_body(size_t i) {
    static const char *const texts[] = {
        "h\xC3\xA9llo", "\xE2\x82\xAC 5", "\xF0\x9F\x98\x80",
        "plain",        "a\\nb",          "\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80"};
    char *b = malloc(256);
    if (!b)
        abort();
    snprintf(b, 256, "{\"jsonrpc\":\"2.0\",\"id\":%zu,\"params\":{\"text\":\"%s%*s\"}}", i,
             texts[i % 6], (int)(i % 37), "");
    return b;
}

/* A stream of n good messages with varied header spellings. */
static void build_stream(strbuf *s, size_t n) {
    for (size_t i = 0; i < n; i++) {
        char *b = make_body(i);
        char h[128];
        switch (i % 4) {
        case 0:
            snprintf(h, sizeof h, "Content-Length: %zu\r\n\r\n", strlen(b));
            break;
        case 1:
            snprintf(h, sizeof h,
                     "content-type: application/vscode-jsonrpc; charset=utf-8\r\n"
                     "content-length: %zu\r\n\r\n",
                     strlen(b));
            break;
        case 2:
            snprintf(h, sizeof h, "CONTENT-LENGTH:%zu\r\nContent-Type: x\r\n\r\n", strlen(b));
            break;
        default:
            snprintf(h, sizeof h, "Content-Length: %zu\n\n", strlen(b));
            break;
        }
        sb_str(s, h);
        sb_str(s, b);
        free(b);
    }
}

static int stream_matches(const events *e, size_t n) {
    if (e->count != n)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char *b = make_body(i);
        int ok = e->items[i].kind == GM_FRAME_MESSAGE && e->items[i].len == strlen(b) &&
                 memcmp(e->items[i].text, b, e->items[i].len) == 0;
        free(b);
        if (!ok)
            return 0;
    }
    return 1;
}

static void test_byte_by_byte_and_coalesced(void) {
    const size_t n = 60;
    strbuf s = {0};
    build_stream(&s, n);

    gm_frame_reader *r = gm_frame_reader_new(0);
    events e = {0};
    CHECK_EQ_INT(feed_chunks(r, &e, s.data, s.len, NULL, 0), 0);
    CHECK(stream_matches(&e, n));
    CHECK_EQ_INT(gm_frame_reader_pending(r), 0);
    events_free(&e);
    gm_frame_reader_free(r);

    r = gm_frame_reader_new(0);
    CHECK_EQ_INT(gm_frame_reader_feed(r, s.data, s.len), 0);
    CHECK_EQ_INT(drain(r, &e), 0);
    CHECK(stream_matches(&e, n));
    events_free(&e);
    gm_frame_reader_free(r);
    free(s.data);

    /* Many messages coalesced in one large feed. */
    const size_t big = 20000;
    strbuf s2 = {0};
    build_stream(&s2, big);
    r = gm_frame_reader_new(0);
    CHECK_EQ_INT(gm_frame_reader_feed(r, s2.data, s2.len), 0);
    CHECK_EQ_INT(drain(r, &e), 0);
    CHECK(stream_matches(&e, big));
    events_free(&e);
    gm_frame_reader_free(r);
    free(s2.data);
}

static void test_random_chunks(void) {
    const size_t n = 40;
    strbuf s = {0};
    build_stream(&s, n);
    uint64_t seed = 0x9E3779B97F4A7C15ULL;
    int failures = 0;
    for (int iter = 0; iter < 3000; iter++) {
        size_t sizes[64];
        /* Mix tiny chunks with large ones. */
        uint64_t mode = rng_next(&seed) % 3;
        for (size_t k = 0; k < 64; k++) {
            uint64_t x = rng_next(&seed);
            sizes[k] = mode == 0 ? 1 + x % 4 : mode == 1 ? 1 + x % 64 : 1 + x % 2048;
        }
        gm_frame_reader *r = gm_frame_reader_new(0);
        events e = {0};
        int bad = feed_chunks(r, &e, s.data, s.len, sizes, 64);
        if (bad != 0 || !stream_matches(&e, n) || gm_frame_reader_pending(r) != 0)
            failures++;
        events_free(&e);
        gm_frame_reader_free(r);
    }
    CHECK_EQ_INT(failures, 0);
    free(s.data);
}

/* Builds a stream of error cases, each followed by a good message, and returns the expected
 * kinds (E = error, M = message). */
typedef struct {
    const char *bad; /* raw bytes of the faulty message */
    const char *expect;
    const char *error_substring;
} error_case;

static const error_case error_cases[] = {
    {"Content-Type: application/vscode-jsonrpc\r\n\r\n{\"a\":1}", "E", "missing Content-Length"},
    {"Content-Type: x\r\n\r\n", "E", "missing Content-Length"},
    {"Content-Length: abc\r\n\r\n{}", "E", "invalid Content-Length"},
    {"Content-Length: -5\r\n\r\n{\"x\":1}", "E", "invalid Content-Length"},
    {"Content-Length: 12abc\r\n\r\n{}", "E", "invalid Content-Length"},
    {"Content-Length: \r\n\r\n{}", "E", "invalid Content-Length"},
    {"Content-Length: 99999999999999999999\r\n\r\n{}", "E", "too large"},
    {"Content-Length: 184467440737095516160\r\n\r\n{}", "E", "too large"},
    {"Content-Length: 0\r\n\r\n", "E", "0"},
    {"Content-Length: 2\r\nthis line has no colon\r\n\r\n{}", "E", "without a colon"},
    {"garbage\r\n\r\n{}", "E", "without a colon"},
    {"Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}", "E", "conflicting"},
    {"Content-Length: 300\r\n\r\n", "E", "exceeds the limit"}, /* body added below */
    /* the blank line missing: the body runs into the next message's header */
    {"Content-Length: 10\r\n{\"a\":1234}", "E", "not \"Name: value\""},
    {"Content-Length: 10\r\n{\"a\":1234}\r\n", "E", "not \"Name: value\""},
    {"Content-Length: 3\r\nabc\r\n", "E", "without a colon"},
};

static void test_errors_then_recovery(void) {
    const size_t cap = 200;
    for (size_t c = 0; c < sizeof error_cases / sizeof error_cases[0]; c++) {
        strbuf s = {0};
        sb_str(&s, error_cases[c].bad);
        if (strstr(error_cases[c].bad, "Content-Length: 300")) {
            for (int k = 0; k < 30; k++)
                sb_str(&s, "0123456789");
        }
        sb_message(&s, "{\"ok\":true}");
        sb_message(&s, "{\"ok\":2}");
        for (int mode = 0; mode < 3; mode++) {
            gm_frame_reader *r = gm_frame_reader_new(cap);
            events e = {0};
            size_t sizes[] = {3, 1, 7, 2, 11};
            if (mode == 0) {
                CHECK_EQ_INT(gm_frame_reader_feed(r, s.data, s.len), 0);
                CHECK_EQ_INT(drain(r, &e), 0);
            } else {
                CHECK_EQ_INT(feed_chunks(r, &e, s.data, s.len, mode == 1 ? NULL : sizes, 5), 0);
            }
            int ok = e.count == 3 && e.items[0].kind == GM_FRAME_ERROR &&
                     strstr(e.items[0].text, error_cases[c].error_substring) != NULL &&
                     e.items[1].kind == GM_FRAME_MESSAGE &&
                     strcmp(e.items[1].text, "{\"ok\":true}") == 0 &&
                     e.items[2].kind == GM_FRAME_MESSAGE &&
                     strcmp(e.items[2].text, "{\"ok\":2}") == 0;
            CHECK(ok);
            if (!ok) {
                fprintf(stderr, "  error case %zu mode %d: %zu events\n", c, mode, e.count);
                for (size_t k = 0; k < e.count; k++)
                    fprintf(stderr, "    %d %s\n", e.items[k].kind, e.items[k].text);
            }
            events_free(&e);
            gm_frame_reader_free(r);
        }
        free(s.data);
    }
}

/* A header block that never ends is dropped after 8 KiB; what follows still parses. */
static void test_header_too_long(void) {
    for (int variant = 0; variant < 3; variant++) {
        strbuf s = {0};
        if (variant == 0) {
            sb_str(&s, "X-Junk: ");
            for (int k = 0; k < 1000; k++)
                sb_str(&s, "abcdefghij");
            sb_str(&s, "\r\n\r\n");
        } else if (variant == 1) {
            for (int k = 0; k < 2000; k++)
                sb_str(&s, "X-Junk: abcdefghij\r\n"); /* many short lines */
            sb_str(&s, "\r\n");
        } else {
            for (int k = 0; k < 3000; k++)
                sb_str(&s, "no newline at all "); /* ends directly in the next header */
        }
        sb_message(&s, "{\"after\":1}");
        for (int mode = 0; mode < 3; mode++) {
            gm_frame_reader *r = gm_frame_reader_new(0);
            events e = {0};
            size_t sizes[] = {5, 700, 3, 4096};
            size_t max_pending = 0;
            if (mode == 0) {
                CHECK_EQ_INT(gm_frame_reader_feed(r, s.data, s.len), 0);
                CHECK_EQ_INT(drain(r, &e), 0);
            } else {
                /* Chunked, tracking how much the reader holds: never far beyond 8 KiB. */
                size_t k = 0;
                for (size_t i = 0; i < s.len;) {
                    size_t n = mode == 1 ? 1 : sizes[k++ % 4];
                    if (n > s.len - i)
                        n = s.len - i;
                    CHECK_EQ_INT(gm_frame_reader_feed(r, s.data + i, n) == 0, 1);
                    if (gm_frame_reader_pending(r) > max_pending)
                        max_pending = gm_frame_reader_pending(r);
                    drain(r, &e);
                    i += n;
                }
                CHECK(max_pending <= 8192 + 4096 + 1);
            }
            int ok = e.count == 2 && e.items[0].kind == GM_FRAME_ERROR &&
                     strstr(e.items[0].text, "header block longer") != NULL &&
                     e.items[1].kind == GM_FRAME_MESSAGE &&
                     strcmp(e.items[1].text, "{\"after\":1}") == 0;
            CHECK(ok);
            if (!ok)
                fprintf(stderr, "  too-long variant %d mode %d: %zu events\n", variant, mode,
                        e.count);
            events_free(&e);
            gm_frame_reader_free(r);
        }
        free(s.data);
    }
}

/* An oversized body arriving in many chunks is skipped without being buffered. */
static void test_cap_streaming_skip(void) {
    const size_t cap = 1000, body = 5 * 1000 * 1000;
    gm_frame_reader *r = gm_frame_reader_new(cap);
    events e = {0};
    char h[64];
    size_t hn = gm_frame_header(h, sizeof h, body);
    char chunk[4096];
    memset(chunk, 'x', sizeof chunk);
    memcpy(chunk, h, hn);
    /* The first chunk carries the header and the start of the body. */
    CHECK_EQ_INT(gm_frame_reader_feed(r, chunk, sizeof chunk), 0);
    drain(r, &e);
    CHECK_EQ_INT(e.count, 1);
    CHECK(e.count >= 1 && e.items[0].kind == GM_FRAME_ERROR &&
          strstr(e.items[0].text, "exceeds the limit") != NULL);
    size_t sent = sizeof chunk - hn, max_pending = 0;
    memset(chunk, 'x', sizeof chunk);
    while (sent < body) {
        size_t n = body - sent < sizeof chunk ? body - sent : sizeof chunk;
        CHECK_EQ_INT(gm_frame_reader_feed(r, chunk, n) == 0, 1);
        if (gm_frame_reader_pending(r) > max_pending)
            max_pending = gm_frame_reader_pending(r);
        drain(r, &e);
        sent += n;
    }
    CHECK_EQ_INT(max_pending, 0);
    CHECK_EQ_INT(e.count, 1);
    /* The last body chunk coalesced with the next message. */
    strbuf s = {0};
    sb_message(&s, "{\"next\":1}");
    CHECK_EQ_INT(gm_frame_reader_feed(r, s.data, s.len), 0);
    drain(r, &e);
    CHECK_EQ_INT(e.count, 2);
    CHECK(e.count == 2 && e.items[1].kind == GM_FRAME_MESSAGE &&
          strcmp(e.items[1].text, "{\"next\":1}") == 0);
    free(s.data);
    events_free(&e);

    /* A body exactly at the cap is accepted; one byte more is not. */
    strbuf a = {0};
    char *at = malloc(cap + 2);
    memset(at, 'y', cap + 1);
    at[cap + 1] = '\0';
    sb_message(&a, at);
    at[cap] = '\0';
    sb_message(&a, at);
    CHECK_EQ_INT(gm_frame_reader_feed(r, a.data, a.len), 0);
    drain(r, &e);
    CHECK_EQ_INT(e.count, 2);
    CHECK(e.count == 2 && e.items[0].kind == GM_FRAME_ERROR &&
          e.items[1].kind == GM_FRAME_MESSAGE && e.items[1].len == cap);
    free(at);
    free(a.data);
    events_free(&e);
    gm_frame_reader_free(r);
}

/* Random streams of good and faulty messages: the events must not depend on chunking. */
static void test_random_mixed(void) {
    uint64_t seed = 12345;
    int failures = 0;
    for (int iter = 0; iter < 300; iter++) {
        strbuf s = {0};
        size_t expected_messages = 0, expected_errors = 0;
        for (int m = 0; m < 12; m++) {
            uint64_t x = rng_next(&seed);
            if (x % 4 == 0) {
                size_t c = (size_t)(x >> 8) % (sizeof error_cases / sizeof error_cases[0]);
                sb_str(&s, error_cases[c].bad);
                if (strstr(error_cases[c].bad, "Content-Length: 300")) {
                    for (int k = 0; k < 30; k++)
                        sb_str(&s, "0123456789");
                }
                /* A good message after each fault: a resync lands on it, not on another fault. */
                sb_message(&s, "{\"resync\":true}");
                expected_errors++;
                expected_messages++;
            } else {
                char *b = make_body((size_t)m);
                sb_message(&s, b);
                free(b);
                expected_messages++;
            }
        }
        size_t sizes[16];
        for (size_t k = 0; k < 16; k++)
            sizes[k] = 1 + rng_next(&seed) % 97;
        gm_frame_reader *r1 = gm_frame_reader_new(200), *r2 = gm_frame_reader_new(200);
        events e1 = {0}, e2 = {0};
        gm_frame_reader_feed(r1, s.data, s.len);
        drain(r1, &e1);
        feed_chunks(r2, &e2, s.data, s.len, sizes, 16);
        size_t msgs = 0, errs = 0;
        int same = e1.count == e2.count;
        for (size_t k = 0; same && k < e1.count; k++) {
            same = e1.items[k].kind == e2.items[k].kind && e1.items[k].len == e2.items[k].len &&
                   memcmp(e1.items[k].text, e2.items[k].text, e1.items[k].len) == 0;
            msgs += e1.items[k].kind == GM_FRAME_MESSAGE;
            errs += e1.items[k].kind == GM_FRAME_ERROR;
        }
        if (!same || msgs != expected_messages || errs != expected_errors)
            failures++;
        events_free(&e1);
        events_free(&e2);
        gm_frame_reader_free(r1);
        gm_frame_reader_free(r2);
        free(s.data);
    }
    CHECK_EQ_INT(failures, 0);
}

int main(void) {
    test_single_and_header();
    test_header_forms();
    test_byte_by_byte_and_coalesced();
    test_random_chunks();
    test_errors_then_recovery();
    test_header_too_long();
    test_cap_streaming_skip();
    test_random_mixed();
    return check_exit_code("test_framing");
}
