/* The tree-sitter Python parser, hiding API differences between tree-sitter 0.20 (Debian 12)
 * and newer runtimes. */
#ifndef GM_ANALYSIS_SYNTAX_PYTHON_PARSER_H
#define GM_ANALYSIS_SYNTAX_PYTHON_PARSER_H

#include <stddef.h>
#include <stdint.h>
#include <stdbool.h>
#include <tree_sitter/api.h>

const TSLanguage *gm_python_language(void);

/* A new parser for Python with a parse-time bound (0 = none). Caller frees with
 * ts_parser_delete. NULL when the runtime refuses the grammar's ABI. */
TSParser *gm_python_parser_new(uint64_t timeout_micros);

/* Why text is not given to the parser at all, or NULL when it is: tree-sitter 0.20 (Debian 12's)
 * keeps a node's child count in 16 bits, so a run of 65,535 comments (or line continuations)
 * with no token between them makes a node whose children it miscounts, and deleting that tree
 * frees a pointer into the middle of an array (heap corruption); so do comments that error
 * recovery gathers across code, and the tokens it gathers inside one bracket. A file of that
 * many comment lines, or a bracket open over that many lines, far beyond any written module,
 * is refused from GM_PARSER_MAX_EXTRAS_RUN on. */
#define GM_PARSER_MAX_EXTRAS_RUN 60000u
const char *gm_python_text_refused(const char *text, size_t len);

/* Parses text (reusing old_tree, already gm_tree_edit'ed, when non-NULL). Returns a new tree
 * (caller deletes with gm_tree_delete) or NULL when the time bound was hit or the text is
 * refused (gm_python_text_refused). Lines end at "\n",
 * "\r\n" or a lone "\r", as in CPython: a row of the tree is a line as LSP counts them, so the
 * points of an edit must count a lone "\r" as a line break too. */
TSTree *gm_python_parse(TSParser *parser, const TSTree *old_tree, const char *text, size_t len);
/* The same, told whether text may hold a "\r" at all: a caller that knows it holds none spares
 * the scan of the whole text for lone ones on every keystroke. */
TSTree *gm_python_parse_text(TSParser *parser, const TSTree *old_tree, const char *text,
                             size_t len, bool may_hold_cr);

/* ts_tree_delete and ts_tree_edit for every tree the analysis may have looked at: they also
 * forget the field lookups gm_child remembers (syntax.h), whose subtrees may be freed or changed
 * now. */
void gm_tree_delete(TSTree *tree);
void gm_tree_edit(TSTree *tree, const TSInputEdit *edit);

#endif
