#include "protocol/json_writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void gm_json_writer_init(gm_json_writer *writer) {
    memset(writer, 0, sizeof *writer);
}

void gm_json_writer_free(gm_json_writer *writer) {
    free(writer->data);
    memset(writer, 0, sizeof *writer);
}

void gm_json_writer_reset(gm_json_writer *writer) {
    writer->len = 0;
    writer->failed = false;
    if (writer->data) {
        writer->data[0] = '\0';
    }
}

static bool reserve(gm_json_writer *writer, size_t extra) {
    if (writer->failed) {
        return false;
    }
    if (writer->len + extra + 1 <= writer->capacity) {
        return true;
    }
    size_t capacity = writer->capacity ? writer->capacity : 256;
    while (capacity < writer->len + extra + 1) {
        capacity *= 2;
    }
    char *grown = realloc(writer->data, capacity);
    if (!grown) {
        writer->failed = true;
        return false;
    }
    writer->data = grown;
    writer->capacity = capacity;
    return true;
}

void gm_json_raw(gm_json_writer *writer, const char *text, size_t len) {
    if (!reserve(writer, len)) {
        return;
    }
    memcpy(writer->data + writer->len, text, len);
    writer->len += len;
    writer->data[writer->len] = '\0';
}

void gm_json_raw_str(gm_json_writer *writer, const char *text) {
    gm_json_raw(writer, text, strlen(text));
}

/* Length of the valid UTF-8 sequence at text[i], or 0 when it is not one. */
static size_t utf8_sequence(const unsigned char *text, size_t i, size_t len) {
    unsigned char b = text[i];
    size_t need;
    uint32_t min;
    if (b < 0x80) {
        return 1;
    } else if (b >= 0xC2 && b <= 0xDF) {
        need = 2, min = 0x80;
    } else if (b >= 0xE0 && b <= 0xEF) {
        need = 3, min = 0x800;
    } else if (b >= 0xF0 && b <= 0xF4) {
        need = 4, min = 0x10000;
    } else {
        return 0;
    }
    if (i + need > len) {
        return 0;
    }
    uint32_t code = b & (0xFF >> (need + 1));
    for (size_t k = 1; k < need; k++) {
        if ((text[i + k] & 0xC0) != 0x80) {
            return 0;
        }
        code = (code << 6) | (text[i + k] & 0x3F);
    }
    if (code < min || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) {
        return 0;
    }
    return need;
}

void gm_json_string(gm_json_writer *writer, const char *text, size_t len) {
    /* Worst case: every byte becomes "\u00XX" or U+FFFD (3 bytes). */
    if (!reserve(writer, 6 * len + 2)) {
        return;
    }
    const unsigned char *in = (const unsigned char *)text;
    char *out = writer->data + writer->len;
    *out++ = '"';
    for (size_t i = 0; i < len;) {
        unsigned char c = in[i];
        if (c == '"' || c == '\\') {
            *out++ = '\\';
            *out++ = (char)c;
            i++;
        } else if (c < 0x20) {
            static const char hex[] = "0123456789abcdef";
            const char *short_form = c == '\n'   ? "\\n"
                                     : c == '\t' ? "\\t"
                                     : c == '\r' ? "\\r"
                                                 : NULL;
            if (short_form) {
                memcpy(out, short_form, 2);
                out += 2;
            } else {
                memcpy(out, "\\u00", 4);
                out[4] = hex[c >> 4];
                out[5] = hex[c & 15];
                out += 6;
            }
            i++;
        } else {
            size_t n = utf8_sequence(in, i, len);
            if (n == 0) {
                memcpy(out, "\xEF\xBF\xBD", 3);
                out += 3;
                i++;
            } else {
                memcpy(out, in + i, n);
                out += n;
                i += n;
            }
        }
    }
    *out++ = '"';
    writer->len = (size_t)(out - writer->data);
    writer->data[writer->len] = '\0';
}

/* The digits of value as "%lld" writes them, without snprintf's cost (ranges of every
 * diagnostic on every keystroke). */
void gm_json_int(gm_json_writer *writer, int64_t value) {
    char digits[24];
    char *end = digits + sizeof digits;
    char *p = end;
    uint64_t magnitude = value < 0 ? (uint64_t)0 - (uint64_t)value : (uint64_t)value;
    do {
        *--p = (char)('0' + magnitude % 10);
        magnitude /= 10;
    } while (magnitude);
    if (value < 0)
        *--p = '-';
    gm_json_raw(writer, p, (size_t)(end - p));
}
