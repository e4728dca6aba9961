#include "analysis/mends/rewrite_text.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/syntax/line_breaks.h"
void gm_tb_init(gm_text_builder *tb) {
    memset(tb, 0, sizeof *tb);
}

void gm_tb_free(gm_text_builder *tb) {
    free(tb->data);
    gm_tb_init(tb);
}

static bool reserve(gm_text_builder *tb, size_t extra) {
    if (tb->oom)
        return false;
    if (tb->len + extra + 1 <= tb->capacity)
        return true;
    size_t capacity = tb->capacity ? tb->capacity : 128;
    while (capacity < tb->len + extra + 1)
        capacity *= 2;
    char *data = realloc(tb->data, capacity);
    if (!data) {
        tb->oom = true;
        return false;
    }
    tb->data = data;
    tb->capacity = capacity;
    return true;
}

void gm_tb_append(gm_text_builder *tb, const char *data, size_t len) {
    if (!reserve(tb, len))
        return;
    memcpy(tb->data + tb->len, data, len);
    tb->len += len;
    tb->data[tb->len] = '\0';
}

void gm_tb_append_str(gm_text_builder *tb, const char *str) {
    gm_tb_append(tb, str, strlen(str));
}

void gm_tb_appendf(gm_text_builder *tb, const char *format, ...) {
    va_list args;
    va_start(args, format);
    int n = vsnprintf(NULL, 0, format, args);
    va_end(args);
    if (n < 0 || !reserve(tb, (size_t)n)) {
        tb->oom = true;
        return;
    }
    va_start(args, format);
    vsnprintf(tb->data + tb->len, (size_t)n + 1, format, args);
    va_end(args);
    tb->len += (size_t)n;
}

void gm_tb_append_node(gm_text_builder *tb, const char *text, TSNode node) {
    uint32_t start = ts_node_start_byte(node);
    gm_tb_append(tb, text + start, ts_node_end_byte(node) - start);
}

void gm_tb_append_argument(gm_text_builder *tb, const gm_syntax *syntax, const char *text,
                           TSNode node) {
    const char *type = ts_node_type(node);
    bool wrap = gm_is(node, syntax->sym.expression_list) || strcmp(type, "yield") == 0;
    if (wrap)
        gm_tb_append_str(tb, "(");
    gm_tb_append_node(tb, text, node);
    if (wrap)
        gm_tb_append_str(tb, ")");
}

char *gm_tb_take(gm_text_builder *tb) {
    char *data = tb->oom ? NULL : tb->data;
    if (!data && !tb->oom)
        data = calloc(1, 1);
    if (tb->oom)
        free(tb->data);
    gm_tb_init(tb);
    return data;
}

static bool is_blank(char c) {
    return c == ' ' || c == '\t' || c == '\f';
}

/* One level of indentation: the extra indentation of the first indented line after a line
 * ending in ':' within [from, len), else four spaces (or a tab where that text uses tabs). */
static void indent_unit(const char *text, uint32_t from, uint32_t len, gm_stmt_layout *out) {
    uint32_t p = from;
    while (p < len) {
        uint32_t line = p, q = p;
        while (q < len && is_blank(text[q]))
            q++;
        uint32_t indent = q - line;
        uint32_t eol = q;
        while (eol < len && !gm_ends_line(text, len, eol))
            eol++;
        uint32_t last = eol;
        while (last > q && (text[last - 1] == '\r' || is_blank(text[last - 1])))
            last--;
        p = eol < len ? eol + 1 : len;
        if (last == q || text[last - 1] != ':' || memchr(text + q, '#', last - q))
            continue;
        /* the next non-blank line */
        uint32_t n = p;
        while (n < len) {
            uint32_t r = n;
            while (r < len && is_blank(text[r]))
                r++;
            if (r < len && text[r] != '\n' && text[r] != '\r' && text[r] != '#') {
                if (r - n > indent && memcmp(text + n, text + line, indent) == 0) {
                    out->unit = text + n + indent;
                    out->unit_len = r - n - indent;
                    return;
                }
                break;
            }
            while (r < len && !gm_ends_line(text, len, r))
                r++;
            n = r < len ? r + 1 : len;
        }
    }
    out->unit = memchr(text + from, '\t', len - from) ? "\t" : "    ";
    out->unit_len = strlen(out->unit);
}

void gm_stmt_layout_of(const char *text, uint32_t len, TSNode stmt, gm_stmt_layout *out) {
    uint32_t start = ts_node_start_byte(stmt), end = ts_node_end_byte(stmt);
    uint32_t line_start = start - ts_node_start_point(stmt).column;
    out->line_start = line_start;
    out->indent.ptr = text + line_start;
    out->indent.len = start - line_start;
    out->alone = true;
    for (uint32_t p = line_start; p < start; p++)
        if (!is_blank(text[p]))
            out->alone = false;
    out->indent.len = 0;
    while (out->indent.len < start - line_start && is_blank(text[line_start + out->indent.len]))
        out->indent.len++;
    uint32_t p = end;
    while (p < len && is_blank(text[p]))
        p++;
    if (p < len && text[p] != '\n' && text[p] != '\r' && text[p] != '#')
        out->alone = false;
    while (p < len && text[p] != '\n' && text[p] != '\r')
        p++;
    out->newline = gm_line_break_at(text, len, p);
    /* Only the top-level statement holding stmt is read: the analyzer reuses a statement's
     * findings, fixes included, while the text outside it changes. */
    TSNode top = stmt;
    for (TSNode up = ts_node_parent(top);
         !ts_node_is_null(up) && !ts_node_is_null(ts_node_parent(up)); up = ts_node_parent(up))
        top = up;
    indent_unit(text, ts_node_start_byte(top) - ts_node_start_point(top).column,
                ts_node_end_byte(top) < len ? ts_node_end_byte(top) : len, out);
}

static bool is_word_char(char c) {
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           (unsigned char)c >= 0x80;
}

bool gm_text_has_word(const char *text, uint32_t start, uint32_t end, gm_slice word) {
    for (uint32_t p = start; p + word.len <= end; p++) {
        const char *hit = memchr(text + p, word.ptr[0], end - word.len + 1 - p);
        if (!hit)
            return false;
        p = (uint32_t)(hit - text);
        if (memcmp(hit, word.ptr, word.len) == 0 && (p == 0 || !is_word_char(text[p - 1])) &&
            (p + word.len >= end || !is_word_char(text[p + word.len])))
            return true;
    }
    return false;
}

bool gm_mend_inside_string(const gm_syntax *syntax, TSNode n, uint32_t at) {
    if (at < ts_node_start_byte(n) || at >= ts_node_end_byte(n))
        return false;
    if (gm_is(n, syntax->sym.string))
        return true;
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
        if (gm_mend_inside_string(syntax, ts_node_named_child(n, i), at))
            return true;
    return false;
}

bool gm_mend_is_primary(const gm_syntax *syntax, TSNode node) {
    return gm_is(node, syntax->sym.identifier) || gm_is(node, syntax->sym.attribute) ||
           gm_is(node, syntax->sym.call) || gm_is(node, syntax->sym.subscript) ||
           gm_is(node, syntax->sym.parenthesized_expression);
}

bool gm_fresh_name(const char *text, uint32_t len, const char *base, char *out, size_t size) {
    for (unsigned i = 0; i < 1000; i++) {
        int n = i == 0 ? snprintf(out, size, "%s", base) : snprintf(out, size, "%s_%u", base, i);
        if (n < 0 || (size_t)n >= size)
            return false;
        gm_slice word = {out, (uint32_t)n};
        if (n == 0 || !gm_text_has_word(text, 0, len, word))
            return true;
    }
    return false;
}

int gm_mend_fix_single(gm_fix *fix, gm_applicability applicability, const char *label,
                       const char *title, uint32_t start, uint32_t end, char *replacement) {
    memset(fix, 0, sizeof *fix);
    fix->kind = GM_FIX_KIND_MEND;
    fix->applicability = applicability;
    fix->label = strdup(label);
    fix->title = strdup(title);
    if (!fix->label || !fix->title)
        free(replacement);
    /* gm_mend_fix_add_edit frees replacement when it fails */
    if (!fix->label || !fix->title || gm_mend_fix_add_edit(fix, start, end, replacement) != 0) {
        gm_fix_free(fix);
        memset(fix, 0, sizeof *fix);
        return -1;
    }
    return 1;
}

int gm_mend_fix_add_edit(gm_fix *fix, uint32_t start, uint32_t end, char *replacement) {
    if (!replacement)
        return -1;
    gm_text_edit *edits = realloc(fix->edits, (fix->edit_count + 1) * sizeof *edits);
    if (!edits) {
        free(replacement);
        return -1;
    }
    fix->edits = edits;
    size_t at = fix->edit_count;
    while (at > 0 && edits[at - 1].start_byte > start)
        at--;
    memmove(&edits[at + 1], &edits[at], (fix->edit_count - at) * sizeof *edits);
    edits[at].start_byte = start;
    edits[at].end_byte = end;
    edits[at].replacement = replacement;
    edits[at].after_imports = false;
    fix->edit_count++;
    return 0;
}
