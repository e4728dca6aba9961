#include "analysis/findings/syntax_errors.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/findings/suppression.h"

static bool is_error_node(TSNode n) {
    return strcmp(ts_node_type(n), "ERROR") == 0;
}

bool gm_first_syntax_error(TSNode root, TSNode *error) {
    if (!ts_node_has_error(root))
        return false;
    if (is_error_node(root) || ts_node_is_missing(root)) {
        *error = root;
        return true;
    }
    TSTreeCursor cursor = ts_tree_cursor_new(root);
    bool found = false;
    if (ts_tree_cursor_goto_first_child(&cursor)) {
        for (;;) {
            TSNode n = ts_tree_cursor_current_node(&cursor);
            if (ts_node_is_missing(n) || is_error_node(n)) {
                *error = n;
                found = true;
                break;
            }
            if (ts_node_has_error(n) && ts_tree_cursor_goto_first_child(&cursor))
                continue;
            bool moved = false;
            while (!(moved = ts_tree_cursor_goto_next_sibling(&cursor)))
                if (!ts_tree_cursor_goto_parent(&cursor))
                    break;
            if (!moved)
                break;
        }
    }
    ts_tree_cursor_delete(&cursor);
    return found;
}

/* Length of the valid UTF-8 sequence at p (1-4), or 0 when invalid. */
static size_t utf8_sequence(const unsigned char *p, size_t avail) {
    unsigned char c = p[0];
    size_t n;
    uint32_t cp;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
        cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        cp = c & 0x07;
    } else {
        return 0;
    }
    if (avail < n)
        return 0;
    for (size_t i = 1; i < n; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        cp = (cp << 6) | (p[i] & 0x3F);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return n;
}

size_t gm_utf8_first_invalid(const char *text, size_t len) {
    const unsigned char *p = (const unsigned char *)text;
    for (size_t i = 0; i < len;) {
        size_t n = utf8_sequence(p + i, len - i);
        if (n == 0)
            return i;
        i += n;
    }
    return len;
}

size_t gm_copy_utf8_sanitized(char *dst, size_t cap, const char *src, size_t len) {
    size_t at = 0;
    const unsigned char *p = (const unsigned char *)src;
    for (size_t i = 0; i < len;) {
        size_t n = utf8_sequence(p + i, len - i);
        if (n == 0 || (n == 1 && (p[i] < 0x20 || p[i] == 0x7F))) {
            if (at + 1 >= cap)
                break;
            dst[at++] = '?';
            i += n ? n : 1;
            continue;
        }
        if (at + n >= cap)
            break;
        memcpy(dst + at, p + i, n);
        at += n;
        i += n;
    }
    if (cap)
        dst[at] = '\0';
    return at;
}

int gm_syntax_error_finding(TSNode error, const char *text, uint32_t len, gm_finding *finding) {
    memset(finding, 0, sizeof *finding);
    uint32_t start = ts_node_start_byte(error), end = ts_node_end_byte(error);
    TSPoint sp = ts_node_start_point(error), ep = ts_node_end_point(error);
    uint32_t line_end = gm_line_end(text, len, start);
    if (end > line_end) {
        end = line_end;
        ep.row = sp.row;
        ep.column = sp.column + (line_end - start);
    }
    char what[128];
    if (ts_node_is_missing(error)) {
        const char *type = ts_node_type(error);
        char clean[64];
        gm_copy_utf8_sanitized(clean, sizeof clean, type, strlen(type));
        snprintf(what, sizeof what, ts_node_is_named(error) ? "missing %s" : "missing `%s`", clean);
    } else if (end > start) {
        char snippet[48];
        uint32_t n = end - start;
        gm_copy_utf8_sanitized(snippet, sizeof snippet, text + start, n > 40 ? 40 : n);
        snprintf(what, sizeof what, "unexpected `%s`%s", snippet, n > 40 ? "..." : "");
    } else {
        snprintf(what, sizeof what, "unexpected end of input");
    }
    static const char prefix[] = "syntax error: ";
    static const char suffix[] = " (analysis continues on the parts that parse)";
    size_t size = strlen(prefix) + strlen(what) + strlen(suffix) + 1;
    finding->message = malloc(size);
    if (!finding->message)
        return -1;
    snprintf(finding->message, size, "%s%s%s", prefix, what, suffix);
    finding->rule = gm_rule_by_id("GM001");
    finding->span.start_byte = start;
    finding->span.end_byte = end;
    finding->span.start.row = sp.row;
    finding->span.start.column = sp.column;
    finding->span.end.row = ep.row;
    finding->span.end.column = ep.column;
    return 0;
}
