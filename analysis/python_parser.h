/* The tree-sitter Python parser, hiding API differences between tree-sitter 0.20 (Debian 12)
 * and newer runtimes. */
#ifndef GM_ANALYSIS_PYTHON_PARSER_H
#define GM_ANALYSIS_PYTHON_PARSER_H

#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

const TSLanguage *gm_python_language(void);

/* A new parser for Python with a parse-time bound (0 = none). Caller frees with
 * ts_parser_delete. NULL when the runtime refuses the grammar's ABI. */
TSParser *gm_python_parser_new(uint64_t timeout_micros);

/* Parses text (reusing old_tree, already ts_tree_edit'ed, when non-NULL). Returns a new tree
 * (caller deletes) or NULL when the time bound was hit. */
TSTree *gm_python_parse(TSParser *parser, const TSTree *old_tree, const char *text, size_t len);

#endif
