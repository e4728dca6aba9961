/* GM001: the first syntax error (ERROR or MISSING node) of the file. */
#ifndef GM_ANALYSIS_FINDINGS_SYNTAX_ERRORS_H
#define GM_ANALYSIS_FINDINGS_SYNTAX_ERRORS_H

#include <stdbool.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "analysis/findings/findings.h"

/* The first ERROR or MISSING node under root in document order; false when there is none. Only
 * descends into subtrees that contain errors. */
bool gm_first_syntax_error(TSNode root, TSNode *error);

/* Fills *finding (caller owns it) for the error node: span clipped to the node's first line,
 * message "syntax error: ... (analysis continues on the parts that parse)". Returns 0 or -1 on
 * OOM. */
int gm_syntax_error_finding(TSNode error, const char *text, uint32_t len, gm_finding *finding);

/* Copies src into dst (cap bytes, NUL-terminated), replacing bytes that are not valid UTF-8 and
 * control characters with '?', and cutting only between characters. Returns the bytes written. */
size_t gm_copy_utf8_sanitized(char *dst, size_t cap, const char *src, size_t len);

/* The offset of the first byte of text that does not begin a valid UTF-8 sequence (overlong
 * forms, surrogates and code points past U+10FFFF are invalid), or len when all of it is. */
size_t gm_utf8_first_invalid(const char *text, size_t len);

#endif
