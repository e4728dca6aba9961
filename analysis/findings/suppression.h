/* Suppression comments: `# graphmend: ignore` on a finding's first line (all rules, or
 * `ignore[GM101, GM4]`: ids or prefixes), ruff's `# noqa` there too (bare: every rule;
 * `# noqa: GM401, E501`: the GM codes of the list, the others being other tools'), or file-wide
 * on a top-level line of its own (`ignore-file`, `ignore-file[GM401]`); and the suppression fix
 * that adds one. */
#ifndef GM_ANALYSIS_FINDINGS_SUPPRESSION_H
#define GM_ANALYSIS_FINDINGS_SUPPRESSION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "analysis/findings/findings.h"
#include "analysis/syntax/syntax.h"

#define GM_RULE_SET_WORDS 4 /* room for 256 rules */

typedef struct {
    bool all;
    uint64_t bits[GM_RULE_SET_WORDS]; /* by index in gm_rules() */
} gm_rule_set;

bool gm_rule_set_has(const gm_rule_set *set, const gm_rule *rule);

/* Adds to *set what the ignore directives in comment (its text) say. file_level selects
 * `ignore-file` directives, otherwise line `ignore` and `noqa` ones. Returns whether one was
 * found. */
bool gm_parse_ignore_comment(const char *comment, size_t len, bool file_level, gm_rule_set *set);

#define GM_MAX_DIRECTIVE_CODES 16

typedef struct {
    uint32_t start; /* bytes of the code in the text given to gm_parse_line_directives */
    uint32_t end;
    bool ours; /* a GM code; a noqa list may name other tools' codes too */
} gm_directive_code;

/* One line directive: `graphmend: ignore[...]` or `noqa: ...`. */
typedef struct {
    bool noqa;
    bool all;       /* no list: every rule */
    uint32_t start; /* the directive's bytes, from "graphmend:" or the '#' before noqa */
    uint32_t end;
    size_t code_count;
    gm_directive_code codes[GM_MAX_DIRECTIVE_CODES];
} gm_line_directive;

/* The line directives of the comment text[start, end) that concern graphmend (a noqa list of
 * other tools' codes only does not), at most max. */
size_t gm_parse_line_directives(const char *text, uint32_t start, uint32_t end,
                                gm_line_directive *out, size_t max);

/* Adds to *set the rules a code (an id or a prefix, text[start, end)) names. Returns false when
 * it names none (an unknown code). */
bool gm_code_rules(const char *text, uint32_t start, uint32_t end, gm_rule_set *set);

/* End of the line holding byte pos: the offset of its last line-break byte, the "\n" of a
 * "\r\n" (or len). */
uint32_t gm_line_end(const char *text, uint32_t len, uint32_t pos);

/* The comment token on the line [line_start, line_end), looked up in the given scopes (nodes
 * that together cover the line). Returns false when the line has none. */
bool gm_find_line_comment(const gm_syntax *syntax, const char *text, uint32_t line_start,
                          uint32_t line_end, const TSNode *scopes, size_t scope_count,
                          TSNode *comment);

/* Whether a `# graphmend: ignore` comment on the line of byte pos (with the given column)
 * suppresses rule. */
bool gm_line_suppresses(const gm_syntax *syntax, const char *text, uint32_t len, uint32_t pos,
                        uint32_t column, const TSNode *scopes, size_t scope_count,
                        const gm_rule *rule);

/* Builds the fix adding `# graphmend: ignore[ID]` to the line of byte pos (or ID to an ignore
 * comment already there). Returns 1 with *fix filled (caller owns it), 0 when no comment can go
 * on that line (it ends inside a string or with a backslash continuation), -1 on OOM. */
int gm_suppress_fix(const gm_syntax *syntax, const char *text, uint32_t len, uint32_t pos,
                    uint32_t column, const TSNode *scopes, size_t scope_count, const gm_rule *rule,
                    gm_fix *fix);

#endif
