/* Line index and position conversion between byte offsets and LSP (line, character). */
#include "protocol/position.h"

#include <stdbool.h>

#include <stdlib.h>
#include <string.h>

int gm_position_encoding_parse(const char *name, gm_position_encoding *out) {
    if (!name)
        return -1;
    if (strcmp(name, "utf-8") == 0)
        *out = GM_ENCODING_UTF8;
    else if (strcmp(name, "utf-16") == 0)
        *out = GM_ENCODING_UTF16;
    else if (strcmp(name, "utf-32") == 0)
        *out = GM_ENCODING_UTF32;
    else
        return -1;
    return 0;
}

const char *gm_position_encoding_name(gm_position_encoding encoding) {
    switch (encoding) {
    case GM_ENCODING_UTF8:
        return "utf-8";
    case GM_ENCODING_UTF32:
        return "utf-32";
    case GM_ENCODING_UTF16:
        break;
    }
    return "utf-16";
}

void gm_line_index_init(gm_line_index *index) {
    index->starts = NULL;
    index->count = 0;
    index->capacity = 0;
}

void gm_line_index_free(gm_line_index *index) {
    free(index->starts);
    gm_line_index_init(index);
}

int gm_line_index_build(gm_line_index *index, const char *text, size_t len) {
    /* Count first so that the array is allocated once. */
    size_t lines = 1;
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '\n' || (text[i] == '\r' && !(i + 1 < len && text[i + 1] == '\n')))
            lines++;
    }
    if (lines > index->capacity) {
        size_t *s = realloc(index->starts, lines * sizeof *s);
        if (!s) {
            index->count = 0;
            return -1;
        }
        index->starts = s;
        index->capacity = lines;
    }
    size_t n = 0;
    index->starts[n++] = 0;
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '\n' || (text[i] == '\r' && !(i + 1 < len && text[i + 1] == '\n')))
            index->starts[n++] = i + 1;
    }
    index->count = n;
    return 0;
}

/* Is offset p (1 <= p <= len) the start of a line? text[len] must be readable ('\0'). */
static bool starts_line(const char *text, size_t len, size_t p) {
    char before = text[p - 1];
    return before == '\n' || (before == '\r' && !(p < len && text[p] == '\n'));
}

int gm_line_index_update(gm_line_index *index, const char *text, size_t len, size_t start,
                         size_t old_end, size_t new_end) {
    if (index->count == 0 || start > old_end || start > new_end || new_end > len) {
        return gm_line_index_build(index, text, len);
    }
    /* A start s depends on text[s-1] and text[s]: those below start are untouched, those above
     * old_end (old coordinates) only move. */
    size_t keep_before = gm_line_index_line_of(index, start > 0 ? start - 1 : 0) + 1;
    while (keep_before > 1 && index->starts[keep_before - 1] >= start) {
        keep_before--;
    }
    size_t first_after = keep_before;
    while (first_after < index->count && index->starts[first_after] <= old_end) {
        first_after++;
    }
    size_t after = index->count - first_after;
    size_t added = 0;
    size_t from = start > 1 ? start : 1;
    for (size_t p = from; p <= new_end && p <= len; p++) {
        added += starts_line(text, len, p);
    }
    size_t needed = keep_before + added + after;
    if (needed > index->capacity) {
        size_t capacity = needed + needed / 2 + 16;
        size_t *grown = realloc(index->starts, capacity * sizeof *grown);
        if (!grown) {
            index->count = 0;
            return -1;
        }
        index->starts = grown;
        index->capacity = capacity;
    }
    memmove(index->starts + keep_before + added, index->starts + first_after,
            after * sizeof *index->starts);
    size_t n = keep_before;
    for (size_t p = from; p <= new_end && p <= len; p++) {
        if (starts_line(text, len, p)) {
            index->starts[n++] = p;
        }
    }
    /* Shift what followed the edit by the change in length. */
    for (size_t i = n; i < n + after; i++) {
        index->starts[i] = index->starts[i] - old_end + new_end;
    }
    index->count = n + after;
    return 0;
}

/* An empty index (never built, or after OOM) behaves as one line starting at 0. */
static size_t line_count(const gm_line_index *index) {
    return index->count ? index->count : 1;
}

static size_t line_start(const gm_line_index *index, size_t line) {
    return index->count ? index->starts[line] : 0;
}

size_t gm_line_index_line_of(const gm_line_index *index, size_t offset) {
    if (index->count == 0)
        return 0;
    /* Last line whose start is <= offset. */
    size_t lo = 0, hi = index->count;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (index->starts[mid] <= offset)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

size_t gm_line_index_line_end(const gm_line_index *index, const char *text, size_t len,
                              size_t line) {
    size_t count = line_count(index);
    if (line + 1 >= count)
        return len; /* the last line has no terminator */
    size_t start = line_start(index, line);
    size_t end = index->starts[line + 1];
    if (end > len)
        end = len; /* an index built for another text: stay in bounds */
    if (end > start && text[end - 1] == '\n')
        end--;
    if (end > start && text[end - 1] == '\r')
        end--;
    return end;
}

/* Decodes one UTF-8 sequence at s (n > 0 bytes available). Returns its length in bytes; a byte
 * that does not start a well-formed sequence (RFC 3629: no overlongs, no surrogates, nothing
 * above U+10FFFF, no truncation) is returned as a sequence of length 1. *four is set when the
 * sequence is a 4-byte one (a UTF-16 surrogate pair). */
static size_t utf8_seq(const unsigned char *s, size_t n, int *four) {
    unsigned char c = s[0];
    *four = 0;
    if (c < 0x80)
        return 1;
    size_t need;
    unsigned char lo = 0x80, hi = 0xBF; /* allowed range of the second byte */
    if (c >= 0xC2 && c <= 0xDF) {
        need = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        need = 3;
        if (c == 0xE0)
            lo = 0xA0;
        else if (c == 0xED)
            hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        need = 4;
        if (c == 0xF0)
            lo = 0x90;
        else if (c == 0xF4)
            hi = 0x8F;
    } else {
        return 1;
    }
    if (n < need || s[1] < lo || s[1] > hi)
        return 1;
    for (size_t k = 2; k < need; k++)
        if ((s[k] & 0xC0) != 0x80)
            return 1;
    *four = need == 4;
    return need;
}

/* Units one sequence of `bytes` bytes takes in the encoding. Invalid bytes (length 1) count as 1
 * everywhere. */
static uint32_t seq_units(size_t bytes, int four, gm_position_encoding encoding) {
    switch (encoding) {
    case GM_ENCODING_UTF8:
        return (uint32_t)bytes;
    case GM_ENCODING_UTF16:
        return four ? 2 : 1;
    case GM_ENCODING_UTF32:
        break;
    }
    return 1;
}

uint32_t gm_count_units(const char *text, size_t from, size_t to, gm_position_encoding encoding) {
    const unsigned char *s = (const unsigned char *)text;
    uint64_t units = 0;
    size_t i = from;
    while (i < to) {
        if (s[i] < 0x80) {
            units++;
            i++;
            continue;
        }
        int four;
        size_t n = utf8_seq(s + i, to - i, &four);
        units += seq_units(n, four, encoding);
        i += n;
    }
    return units > UINT32_MAX ? UINT32_MAX : (uint32_t)units;
}

gm_position_status gm_position_to_offset(const char *text, size_t len, const gm_line_index *index,
                                         gm_position_encoding encoding, uint32_t line,
                                         uint32_t character, size_t *offset) {
    if ((size_t)line >= line_count(index)) {
        *offset = len;
        return GM_POSITION_BAD_LINE;
    }
    const unsigned char *s = (const unsigned char *)text;
    size_t i = line_start(index, line);
    size_t end = gm_line_index_line_end(index, text, len, line);
    uint64_t units = 0;
    while (units < character) {
        if (i >= end) {
            *offset = end;
            return GM_POSITION_CLAMPED;
        }
        if (s[i] < 0x80) {
            units++;
            i++;
            continue;
        }
        int four;
        size_t n = utf8_seq(s + i, end - i, &four);
        uint32_t u = seq_units(n, four, encoding);
        if (units + u > character) {
            *offset = i; /* the start of the character that the position splits */
            return GM_POSITION_SPLIT_CHAR;
        }
        units += u;
        i += n;
    }
    *offset = i;
    return GM_POSITION_OK;
}

static void position_on_line(const char *text, size_t len, const gm_line_index *index,
                             gm_position_encoding encoding, size_t offset, size_t l,
                             uint32_t *line, uint32_t *character);

void gm_offset_to_position(const char *text, size_t len, const gm_line_index *index,
                           gm_position_encoding encoding, size_t offset, uint32_t *line,
                           uint32_t *character) {
    if (offset > len)
        offset = len;
    position_on_line(text, len, index, encoding, offset, gm_line_index_line_of(index, offset),
                     line, character);
}

void gm_offset_to_position_near(const char *text, size_t len, const gm_line_index *index,
                                gm_position_encoding encoding, size_t offset, size_t hint,
                                uint32_t *line, uint32_t *character) {
    if (offset > len)
        offset = len;
    /* The line is the last whose start is <= offset (starts increase strictly): hint when it
     * is that line, else the binary search's. */
    bool on_hint = index->count && hint < index->count && index->starts[hint] <= offset &&
                   (hint + 1 == index->count || index->starts[hint + 1] > offset);
    position_on_line(text, len, index, encoding, offset,
                     on_hint ? hint : gm_line_index_line_of(index, offset), line, character);
}

static void position_on_line(const char *text, size_t len, const gm_line_index *index,
                             gm_position_encoding encoding, size_t offset, size_t l,
                             uint32_t *line, uint32_t *character) {
    size_t start = line_start(index, l);
    size_t end = gm_line_index_line_end(index, text, len, l);
    if (offset > end)
        offset = end; /* inside a "\r\n" terminator: back to the end of the content */
    const unsigned char *s = (const unsigned char *)text;
    uint64_t units = 0;
    size_t i = start;
    while (i < offset) {
        int four = 0;
        size_t n = s[i] < 0x80 ? 1 : utf8_seq(s + i, end - i, &four);
        if (i + n > offset)
            break; /* offset inside a character: report its start */
        units += seq_units(n, four, encoding);
        i += n;
    }
    *line = l > UINT32_MAX ? UINT32_MAX : (uint32_t)l;
    *character = units > UINT32_MAX ? UINT32_MAX : (uint32_t)units;
}
