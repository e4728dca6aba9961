/* Building blocks shared by the mend builders: a growable text buffer, the layout of the
 * statement a mend rewrites (its indentation and whether it stands alone on its lines), fresh
 * names that cannot clash with the file's own, and the gm_fix a mend returns. Mends keep the
 * user's text: they copy expression source verbatim and only add what the rewrite needs. */
#ifndef GM_ANALYSIS_MENDS_REWRITE_TEXT_H
#define GM_ANALYSIS_MENDS_REWRITE_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "analysis/findings/findings.h"
#include "analysis/syntax/syntax.h"

typedef struct {
    char *data; /* NUL-terminated while not oom */
    size_t len, capacity;
    bool oom; /* an append failed; every later append is ignored */
} gm_text_builder;

void gm_tb_init(gm_text_builder *tb);
void gm_tb_free(gm_text_builder *tb);
void gm_tb_append(gm_text_builder *tb, const char *data, size_t len);
void gm_tb_append_str(gm_text_builder *tb, const char *str);
/* printf-style append. */
void gm_tb_appendf(gm_text_builder *tb, const char *format, ...)
    __attribute__((format(printf, 2, 3)));
/* The source text of node. */
void gm_tb_append_node(gm_text_builder *tb, const char *text, TSNode node);
/* The source text of node as one argument of a call: a bare tuple (`a, b`) or a yield gets
 * parentheses. */
void gm_tb_append_argument(gm_text_builder *tb, const gm_syntax *syntax, const char *text,
                           TSNode node);
/* Hands the text over (the caller frees it); NULL when an append failed. The builder is
 * empty afterwards. */
char *gm_tb_take(gm_text_builder *tb);

/* Where a statement sits in its file. */
typedef struct {
    uint32_t line_start; /* byte offset of the start of the statement's first line */
    gm_slice indent;     /* the whitespace before the statement on that line */
    /* one level of indentation as the statement's top-level statement writes it ("    ",
     * "\t", ...) */
    const char *unit;
    size_t unit_len;
    const char *newline; /* "\n", "\r\n" or "\r", as the statement's line ends */
    /* Nothing but whitespace precedes the statement on its first line and nothing but
     * whitespace or a comment follows it on its last: a mend may replace or wrap it whole. */
    bool alone;
} gm_stmt_layout;

void gm_stmt_layout_of(const char *text, uint32_t len, TSNode stmt, gm_stmt_layout *out);

/* A name starting with base ("gm_cond", "gm_cond_1", ...) that does not occur as a word
 * anywhere in text, written into out (size bytes). Returns false when none fits. Mends pass
 * the text of the top-level statement they rewrite (gm_node_length): a name unused there
 * cannot clash with what the rewritten code reads, and the fix then depends on nothing the
 * incremental analyzer might change without re-analysing the statement. */
bool gm_fresh_name(const char *text, uint32_t len, const char *base, char *out, size_t size);

/* Fills fix with one mend edit replacing [start, end) by replacement (ownership taken; freed
 * on failure), labelled label (a short name for menus) and titled title (the full sentence).
 * Returns 1, or -1 on OOM. */
int gm_mend_fix_single(gm_fix *fix, gm_applicability applicability, const char *label,
                       const char *title, uint32_t start, uint32_t end, char *replacement);
/* Appends one edit to fix, keeping edits sorted by start (ownership of replacement taken).
 * The edits of one fix must not overlap. Returns 0, or -1 on OOM. */
int gm_mend_fix_add_edit(gm_fix *fix, uint32_t start, uint32_t end, char *replacement);

/* Whether word occurs in text[start, end) as a whole word (an identifier, not part of one). */
bool gm_text_has_word(const char *text, uint32_t start, uint32_t end, gm_slice word);

/* Whether byte offset at lies inside a string literal of the subtree n (a multi-line string's
 * own lines must keep their indentation when a mend re-indents a statement). */
bool gm_mend_inside_string(const gm_syntax *syntax, TSNode n, uint32_t at);

/* Whether node's source can stand as the object of `.attr` or a call's callee without
 * parentheses (a name, attribute, call, subscript or parenthesised expression). */
bool gm_mend_is_primary(const gm_syntax *syntax, TSNode node);

static inline uint32_t gm_node_length(TSNode node) {
    return ts_node_end_byte(node) - ts_node_start_byte(node);
}

#endif
