/* Unit tests for protocol/position: line index, UTF-8/16/32 conversions, clamping, splits,
 * invalid UTF-8, and a randomized round trip. */
#include "check.h"
#include "protocol/position.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const gm_position_encoding U8 = GM_ENCODING_UTF8, U16 = GM_ENCODING_UTF16,
                                  U32 = GM_ENCODING_UTF32;

/* A heap copy of exactly len bytes, so that ASan catches any read past the text. */
static char *exact(const char *s, size_t len) {
    char *p = malloc(len ? len : 1);
    if (!p)
        abort();
    memcpy(p, s, len);
    return p;
}

static void test_encoding_names(void) {
    gm_position_encoding e = U16;
    CHECK_EQ_INT(gm_position_encoding_parse("utf-8", &e), 0);
    CHECK_EQ_INT(e, U8);
    CHECK_EQ_INT(gm_position_encoding_parse("utf-32", &e), 0);
    CHECK_EQ_INT(e, U32);
    CHECK_EQ_INT(gm_position_encoding_parse("utf-16", &e), 0);
    CHECK_EQ_INT(e, U16);
    CHECK_EQ_INT(gm_position_encoding_parse("UTF-8", &e), -1);
    CHECK_EQ_INT(gm_position_encoding_parse("utf8", &e), -1);
    CHECK_EQ_INT(gm_position_encoding_parse(NULL, &e), -1);
    CHECK_EQ_STR(gm_position_encoding_name(U8), "utf-8");
    CHECK_EQ_STR(gm_position_encoding_name(U16), "utf-16");
    CHECK_EQ_STR(gm_position_encoding_name(U32), "utf-32");
}

static void test_line_index(void) {
    gm_line_index idx;
    gm_line_index_init(&idx);
    /* Before any build: one empty line. */
    CHECK_EQ_INT(gm_line_index_line_of(&idx, 0), 0);

    const char *t = "ab\r\ncd\ref\n\n\r\r\ng";
    size_t len = strlen(t);
    CHECK_EQ_INT(gm_line_index_build(&idx, t, len), 0);
    /* Lines: "ab" CRLF, "cd" CR, "ef" LF, "" LF, "" CR, "" CRLF, "g" */
    size_t want[] = {0, 4, 7, 10, 11, 12, 14};
    CHECK_EQ_INT(idx.count, 7);
    for (size_t i = 0; i < 7 && i < idx.count; i++)
        CHECK_EQ_INT(idx.starts[i], want[i]);
    CHECK_EQ_INT(gm_line_index_line_end(&idx, t, len, 0), 2);
    CHECK_EQ_INT(gm_line_index_line_end(&idx, t, len, 1), 6);
    CHECK_EQ_INT(gm_line_index_line_end(&idx, t, len, 2), 9);
    CHECK_EQ_INT(gm_line_index_line_end(&idx, t, len, 3), 10);
    CHECK_EQ_INT(gm_line_index_line_end(&idx, t, len, 4), 11);
    CHECK_EQ_INT(gm_line_index_line_end(&idx, t, len, 5), 12);
    CHECK_EQ_INT(gm_line_index_line_end(&idx, t, len, 6), 15);
    CHECK_EQ_INT(gm_line_index_line_of(&idx, 0), 0);
    CHECK_EQ_INT(gm_line_index_line_of(&idx, 2), 0);
    CHECK_EQ_INT(gm_line_index_line_of(&idx, 3), 0); /* the '\n' of "\r\n" */
    CHECK_EQ_INT(gm_line_index_line_of(&idx, 4), 1);
    CHECK_EQ_INT(gm_line_index_line_of(&idx, 13), 5);
    CHECK_EQ_INT(gm_line_index_line_of(&idx, 15), 6);

    /* A final newline gives an empty last line; rebuilding reuses the index. */
    CHECK_EQ_INT(gm_line_index_build(&idx, "x\n", 2), 0);
    CHECK_EQ_INT(idx.count, 2);
    CHECK_EQ_INT(idx.starts[1], 2);
    CHECK_EQ_INT(gm_line_index_build(&idx, "x\r", 2), 0);
    CHECK_EQ_INT(idx.count, 2);
    CHECK_EQ_INT(gm_line_index_build(&idx, "", 0), 0);
    CHECK_EQ_INT(idx.count, 1);
    CHECK_EQ_INT(idx.starts[0], 0);
    gm_line_index_free(&idx);
    CHECK(idx.starts == NULL && idx.count == 0);
}

/* "aé€😀b\r\nx\ry\n": line 0 has a 1-, 2-, 3-, 4-byte character then 'b'. */
static void test_conversions(void) {
    const char *src = "a\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80"
                      "b\r\nx\ry\n";
    size_t len = strlen(src);
    CHECK_EQ_INT(len, 17);
    char *t = exact(src, len);
    gm_line_index idx;
    gm_line_index_init(&idx);
    CHECK_EQ_INT(gm_line_index_build(&idx, t, len), 0);
    CHECK_EQ_INT(idx.count, 4);

    size_t off = 999;
    /* UTF-16: a=1 é=1 €=1 😀=2 b=1 */
    uint32_t u16_ok[][2] = {{0, 0}, {1, 1}, {2, 3}, {3, 6}, {5, 10}, {6, 11}};
    for (size_t i = 0; i < 6; i++) {
        CHECK_EQ_INT(gm_position_to_offset(t, len, &idx, U16, 0, u16_ok[i][0], &off),
                     GM_POSITION_OK);
        CHECK_EQ_INT(off, u16_ok[i][1]);
    }
    CHECK_EQ_INT(gm_position_to_offset(t, len, &idx, U16, 0, 4, &off), GM_POSITION_SPLIT_CHAR);
    CHECK_EQ_INT(off, 6);
    CHECK_EQ_INT(gm_position_to_offset(t, len, &idx, U16, 0, 7, &off), GM_POSITION_CLAMPED);
    CHECK_EQ_INT(off, 11);
    CHECK_EQ_INT(gm_position_to_offset(t, len, &idx, U16, 0, 1000000, &off), GM_POSITION_CLAMPED);
    CHECK_EQ_INT(off, 11);

    /* UTF-8: bytes; inside a multibyte sequence is a split. */
    uint32_t u8_ok[] = {0, 1, 3, 6, 10, 11};
    for (size_t i = 0; i < 6; i++) {
        CHECK_EQ_INT(gm_position_to_offset(t, len, &idx, U8, 0, u8_ok[i], &off), GM_POSITION_OK);
        CHECK_EQ_INT(off, u8_ok[i]);
    }
    uint32_t u8_split[][2] = {{2, 1}, {4, 3}, {5, 3}, {7, 6}, {8, 6}, {9, 6}};
    for (size_t i = 0; i < 6; i++) {
        CHECK_EQ_INT(gm_position_to_offset(t, len, &idx, U8, 0, u8_split[i][0], &off),
                     GM_POSITION_SPLIT_CHAR);
        CHECK_EQ_INT(off, u8_split[i][1]);
    }
    CHECK_EQ_INT(gm_position_to_offset(t, len, &idx, U8, 0, 12, &off), GM_POSITION_CLAMPED);
    CHECK_EQ_INT(off, 11);

    /* UTF-32: code points. */
    uint32_t u32_ok[][2] = {{0, 0}, {1, 1}, {2, 3}, {3, 6}, {4, 10}, {5, 11}};
    for (size_t i = 0; i < 6; i++) {
        CHECK_EQ_INT(gm_position_to_offset(t, len, &idx, U32, 0, u32_ok[i][0], &off),
                     GM_POSITION_OK);
        CHECK_EQ_INT(off, u32_ok[i][1]);
    }
    CHECK_EQ_INT(gm_position_to_offset(t, len, &idx, U32, 0, 6, &off), GM_POSITION_CLAMPED);
    CHECK_EQ_INT(off, 11);

    /* CR and LF lines, the empty last line, and lines past the end. */
    CHECK_EQ_INT(gm_position_to_offset(t, len, &idx, U16, 1, 0, &off), GM_POSITION_OK);
    CHECK_EQ_INT(off, 13);
    CHECK_EQ_INT(gm_position_to_offset(t, len, &idx, U16, 1, 1, &off), GM_POSITION_OK);
    CHECK_EQ_INT(off, 14);
    CHECK_EQ_INT(gm_position_to_offset(t, len, &idx, U16, 1, 2, &off), GM_POSITION_CLAMPED);
    CHECK_EQ_INT(off, 14); /* before the "\r", not after it */
    CHECK_EQ_INT(gm_position_to_offset(t, len, &idx, U16, 2, 5, &off), GM_POSITION_CLAMPED);
    CHECK_EQ_INT(off, 16);
    CHECK_EQ_INT(gm_position_to_offset(t, len, &idx, U16, 3, 0, &off), GM_POSITION_OK);
    CHECK_EQ_INT(off, 17);
    CHECK_EQ_INT(gm_position_to_offset(t, len, &idx, U16, 3, 1, &off), GM_POSITION_CLAMPED);
    CHECK_EQ_INT(off, 17);
    CHECK_EQ_INT(gm_position_to_offset(t, len, &idx, U16, 4, 0, &off), GM_POSITION_BAD_LINE);
    CHECK_EQ_INT(gm_position_to_offset(t, len, &idx, U8, UINT32_MAX, 0, &off),
                 GM_POSITION_BAD_LINE);

    /* Offset -> position, including offsets inside characters and inside "\r\n". */
    struct {
        size_t offset;
        uint32_t line, c8, c16, c32;
    } inv[] = {
        {0, 0, 0, 0, 0},   {1, 0, 1, 1, 1},   {2, 0, 1, 1, 1},   {3, 0, 3, 2, 2},
        {5, 0, 3, 2, 2},   {6, 0, 6, 3, 3},   {7, 0, 6, 3, 3},   {9, 0, 6, 3, 3},
        {10, 0, 10, 5, 4}, {11, 0, 11, 6, 5}, {12, 0, 11, 6, 5}, {13, 1, 0, 0, 0},
        {14, 1, 1, 1, 1},  {15, 2, 0, 0, 0},  {16, 2, 1, 1, 1},  {17, 3, 0, 0, 0},
        {500, 3, 0, 0, 0},
    };
    for (size_t i = 0; i < sizeof inv / sizeof inv[0]; i++) {
        uint32_t line = 99, ch = 99;
        gm_offset_to_position(t, len, &idx, U8, inv[i].offset, &line, &ch);
        CHECK_EQ_INT(line, inv[i].line);
        CHECK_EQ_INT(ch, inv[i].c8);
        gm_offset_to_position(t, len, &idx, U16, inv[i].offset, &line, &ch);
        CHECK_EQ_INT(ch, inv[i].c16);
        gm_offset_to_position(t, len, &idx, U32, inv[i].offset, &line, &ch);
        CHECK_EQ_INT(ch, inv[i].c32);
    }

    CHECK_EQ_INT(gm_count_units(t, 0, 11, U8), 11);
    CHECK_EQ_INT(gm_count_units(t, 0, 11, U16), 6);
    CHECK_EQ_INT(gm_count_units(t, 0, 11, U32), 5);
    CHECK_EQ_INT(gm_count_units(t, 6, 10, U16), 2);
    CHECK_EQ_INT(gm_count_units(t, 3, 3, U16), 0);

    gm_line_index_free(&idx);
    free(t);
}

/* Invalid UTF-8 counts one unit per byte in every encoding and is never over-read. */
static void test_invalid_utf8(void) {
    static const struct {
        const char *bytes;
        size_t len;
        uint32_t units; /* the same in all three encodings */
    } cases[] = {
        {"\xFF", 1, 1},
        {"\x80", 1, 1},             /* lone continuation */
        {"\xC0\xAF", 2, 2},         /* overlong '/' */
        {"\xE0\x80\xAF", 3, 3},     /* overlong 3-byte */
        {"\xF0\x80\x80\xAF", 4, 4}, /* overlong 4-byte */
        {"\xED\xA0\x80", 3, 3},     /* encoded surrogate */
        {"\xF4\x90\x80\x80", 4, 4}, /* above U+10FFFF */
        {"\xF5\x80\x80\x80", 4, 4},
        {"\xE2\x82", 2, 2}, /* truncated at the end of the text */
        {"\xF0\x9F\x98", 3, 3},
        {"\xC3", 1, 1},
        {"\xE2\x82z", 3, 3},            /* truncated by the next character */
        {"\xF0\x9F\x98\xC3\xA9", 5, 4}, /* three invalid bytes then a valid é (1 unit) */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *t = exact(cases[i].bytes, cases[i].len);
        size_t len = cases[i].len;
        gm_line_index idx;
        gm_line_index_init(&idx);
        CHECK_EQ_INT(gm_line_index_build(&idx, t, len), 0);
        gm_position_encoding encs[] = {U8, U16, U32};
        for (int e = 0; e < 3; e++) {
            uint32_t expect = cases[i].units;
            /* In UTF-8 the valid é of the last case is 2 units. */
            if (encs[e] == U8 && i == sizeof cases / sizeof cases[0] - 1)
                expect = 5;
            CHECK_EQ_INT(gm_count_units(t, 0, len, encs[e]), expect);
            uint32_t line, ch;
            gm_offset_to_position(t, len, &idx, encs[e], len, &line, &ch);
            CHECK_EQ_INT(line, 0);
            CHECK_EQ_INT(ch, expect);
            size_t off = 0;
            CHECK_EQ_INT(gm_position_to_offset(t, len, &idx, encs[e], 0, expect, &off),
                         GM_POSITION_OK);
            CHECK_EQ_INT(off, len);
            CHECK_EQ_INT(gm_position_to_offset(t, len, &idx, encs[e], 0, expect + 1, &off),
                         GM_POSITION_CLAMPED);
        }
        gm_line_index_free(&idx);
        free(t);
    }

    /* A truncated sequence before a line terminator does not swallow the terminator. */
    char *t = exact("\xE2\x82\nq", 4);
    gm_line_index idx;
    gm_line_index_init(&idx);
    CHECK_EQ_INT(gm_line_index_build(&idx, t, 4), 0);
    CHECK_EQ_INT(idx.count, 2);
    size_t off = 0;
    CHECK_EQ_INT(gm_position_to_offset(t, 4, &idx, U16, 0, 2, &off), GM_POSITION_OK);
    CHECK_EQ_INT(off, 2);
    CHECK_EQ_INT(gm_position_to_offset(t, 4, &idx, U16, 0, 3, &off), GM_POSITION_CLAMPED);
    CHECK_EQ_INT(off, 2);
    CHECK_EQ_INT(gm_position_to_offset(t, 4, &idx, U16, 1, 1, &off), GM_POSITION_OK);
    CHECK_EQ_INT(off, 4);
    gm_line_index_free(&idx);
    free(t);
}

static void test_empty_text(void) {
    gm_line_index idx;
    gm_line_index_init(&idx);
    char *t = exact("", 0);
    CHECK_EQ_INT(gm_line_index_build(&idx, t, 0), 0);
    CHECK_EQ_INT(idx.count, 1);
    size_t off = 7;
    CHECK_EQ_INT(gm_position_to_offset(t, 0, &idx, U16, 0, 0, &off), GM_POSITION_OK);
    CHECK_EQ_INT(off, 0);
    CHECK_EQ_INT(gm_position_to_offset(t, 0, &idx, U16, 0, 3, &off), GM_POSITION_CLAMPED);
    CHECK_EQ_INT(off, 0);
    CHECK_EQ_INT(gm_position_to_offset(t, 0, &idx, U16, 1, 0, &off), GM_POSITION_BAD_LINE);
    uint32_t line = 9, ch = 9;
    gm_offset_to_position(t, 0, &idx, U16, 5, &line, &ch);
    CHECK_EQ_INT(line, 0);
    CHECK_EQ_INT(ch, 0);
    gm_line_index_free(&idx);
    free(t);
}

/* --- randomized round trip ------------------------------------------------------------------ */

static uint64_t rng_next(uint64_t *s) {
    *s ^= *s >> 12;
    *s ^= *s << 25;
    *s ^= *s >> 27;
    return *s * 0x2545F4914F6CDD1DULL;
}

/* No piece starts with a continuation byte, so pieces never merge into other characters. */
typedef struct {
    const char *bytes;
    int newline; /* a line terminator */
    int invalid; /* every byte is its own one-unit character */
} piece;

static const piece pieces[] = {
    {"a", 0, 0},
    {"Z", 0, 0},
    {" ", 0, 0},
    {"\xC3\xA9", 0, 0},         /* é */
    {"\xE2\x82\xAC", 0, 0},     /* € */
    {"\xF0\x9F\x98\x80", 0, 0}, /* 😀 */
    {"\xF4\x8F\xBF\xBF", 0, 0}, /* U+10FFFF */
    {"\n", 1, 0},
    {"\r\n", 1, 0},
    {"\r", 1, 0},
    {"\xFF", 0, 1},
    {"\xC0\xAF", 0, 1},
    {"\xED\xA0\x80", 0, 1},
    {"\xF0\x9F", 0, 1},
    {"\xE2\x82", 0, 1},
};

typedef struct {
    size_t offset;
    uint32_t line, ch[3]; /* indexed by encoding */
} boundary;

static void test_random_round_trip(void) {
    uint64_t seed = 0xC0FFEE;
    gm_line_index idx;
    gm_line_index_init(&idx);
    const gm_position_encoding encs[3] = {U8, U16, U32};
    int failures = 0;
    long points = 0;
    for (int iter = 0; iter < 3000; iter++) {
        char buf[512];
        boundary bs[256];
        size_t len = 0, nb = 0;
        uint32_t line = 0, ch[3] = {0, 0, 0};
        int prev_cr = 0;
        size_t npieces = rng_next(&seed) % 60;
        for (size_t k = 0; k < npieces; k++) {
            const piece *p = &pieces[rng_next(&seed) % (sizeof pieces / sizeof pieces[0])];
            if (prev_cr && p->bytes[0] == '\n')
                continue; /* "\r" + "\n" would be one terminator, not two */
            size_t pl = strlen(p->bytes);
            bs[nb++] = (boundary){len, line, {ch[0], ch[1], ch[2]}};
            if (p->newline) {
                line++;
                ch[0] = ch[1] = ch[2] = 0;
            } else if (p->invalid) {
                for (size_t b = 0; b < pl; b++) {
                    if (b > 0)
                        bs[nb++] = (boundary){len + b, line, {ch[0], ch[1], ch[2]}};
                    ch[0]++;
                    ch[1]++;
                    ch[2]++;
                }
            } else {
                ch[0] += (uint32_t)pl;
                ch[1] += pl == 4 ? 2 : 1;
                ch[2] += 1;
            }
            memcpy(buf + len, p->bytes, pl);
            len += pl;
            prev_cr = p->bytes[0] == '\r' && pl == 1;
        }
        bs[nb++] = (boundary){len, line, {ch[0], ch[1], ch[2]}};
        char *t = exact(buf, len);
        if (gm_line_index_build(&idx, t, len) != 0 || idx.count != line + 1) {
            failures++;
            free(t);
            continue;
        }
        for (int e = 0; e < 3; e++) {
            size_t b = 0;
            for (size_t o = 0; o <= len; o++) {
                while (b + 1 < nb && bs[b + 1].offset <= o)
                    b++;
                /* Any offset maps to the position of the boundary at or before it. */
                uint32_t l, c;
                gm_offset_to_position(t, len, &idx, encs[e], o, &l, &c);
                if (l != bs[b].line || c != bs[b].ch[e])
                    failures++;
                /* A line hint, right, near or wrong, never changes the answer. */
                size_t hints[] = {l, l ? l - 1 : 0, l + 1, idx.count,
                                  (size_t)iter * 7919 % (line + 2)};
                for (size_t h = 0; h < sizeof hints / sizeof hints[0]; h++) {
                    uint32_t hl, hc;
                    gm_offset_to_position_near(t, len, &idx, encs[e], o, hints[h], &hl, &hc);
                    if (hl != l || hc != c)
                        failures++;
                }
                if (bs[b].offset != o)
                    continue;
                /* At a boundary: position -> offset is the identity's other half. */
                size_t back = SIZE_MAX;
                gm_position_status st = gm_position_to_offset(t, len, &idx, encs[e], l, c, &back);
                if (st != GM_POSITION_OK || back != o) {
                    failures++;
                    if (failures < 5)
                        fprintf(stderr, "  iter %d enc %d offset %zu -> (%u,%u) -> %zu (%d)\n",
                                iter, e, o, l, c, back, st);
                }
                points++;
            }
            /* One past each line's end clamps to the line end. */
            for (size_t ln = 0; ln < idx.count; ln++) {
                size_t end = gm_line_index_line_end(&idx, t, len, ln);
                uint32_t units = gm_count_units(t, idx.starts[ln], end, encs[e]);
                size_t got = 0;
                if (gm_position_to_offset(t, len, &idx, encs[e], (uint32_t)ln, units + 1, &got) !=
                        GM_POSITION_CLAMPED ||
                    got != end)
                    failures++;
            }
            size_t got = 0;
            if (gm_position_to_offset(t, len, &idx, encs[e], (uint32_t)idx.count, 0, &got) !=
                GM_POSITION_BAD_LINE)
                failures++;
        }
        /* Every 4-byte character has a UTF-16 position between its surrogates. */
        for (size_t b = 0; b + 1 < nb; b++) {
            if (bs[b].line == bs[b + 1].line && bs[b + 1].ch[1] - bs[b].ch[1] == 2) {
                size_t got = 0;
                if (gm_position_to_offset(t, len, &idx, U16, bs[b].line, bs[b].ch[1] + 1, &got) !=
                        GM_POSITION_SPLIT_CHAR ||
                    got != bs[b].offset)
                    failures++;
            }
        }
        free(t);
    }
    CHECK_EQ_INT(failures, 0);
    CHECK(points > 100000);
    gm_line_index_free(&idx);
}

/* gm_line_index_update after random replacements (including ones that split or join "\r\n")
 * must equal a full rebuild. */
static void test_incremental_update(void) {
    uint64_t seed = 0x1234567ull;
    static const char alphabet[] = "ab\n\r\r\n\xC3\xA9 ";
    char text[512];
    size_t len = 0;
    gm_line_index updated, rebuilt;
    gm_line_index_init(&updated);
    gm_line_index_init(&rebuilt);
    text[0] = '\0';
    gm_line_index_build(&updated, text, len);
    int mismatches = 0;
    for (int round = 0; round < 20000; round++) {
        size_t a = len ? rng_next(&seed) % (len + 1) : 0;
        size_t b = len ? rng_next(&seed) % (len + 1) : 0;
        size_t start = a < b ? a : b, end = a < b ? b : a;
        if (end - start > 8) {
            end = start + (rng_next(&seed) % 8);
        }
        char insert[8];
        size_t insert_len = rng_next(&seed) % (len > 300 ? 2 : 7);
        for (size_t i = 0; i < insert_len; i++) {
            insert[i] = alphabet[rng_next(&seed) % (sizeof alphabet - 1)];
        }
        memmove(text + start + insert_len, text + end, len - end);
        memcpy(text + start, insert, insert_len);
        len = len - (end - start) + insert_len;
        text[len] = '\0';
        CHECK(gm_line_index_update(&updated, text, len, start, end, start + insert_len) == 0);
        gm_line_index_build(&rebuilt, text, len);
        if (updated.count != rebuilt.count ||
            memcmp(updated.starts, rebuilt.starts, rebuilt.count * sizeof(size_t)) != 0) {
            mismatches++;
            gm_line_index_build(&updated, text, len);
        }
    }
    CHECK_EQ_INT(mismatches, 0);
    gm_line_index_free(&updated);
    gm_line_index_free(&rebuilt);
}

int main(void) {
    test_incremental_update();
    test_encoding_names();
    test_line_index();
    test_conversions();
    test_invalid_utf8();
    test_empty_text();
    test_random_round_trip();
    return check_exit_code("test_position");
}
