/* GM901 (unused-suppression, as ruff's RUF100): line suppression comments that hide no finding,
 * or name codes that are no rule, with the safe fix that removes them. */
#ifndef GM_ANALYSIS_FINDINGS_UNUSED_SUPPRESSIONS_H
#define GM_ANALYSIS_FINDINGS_UNUSED_SUPPRESSIONS_H

#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "analysis/findings/findings.h"
#include "analysis/findings/suppression.h"
#include "analysis/syntax/syntax.h"

/* A finding a line comment hid: its rule and the start of its first line. */
typedef struct {
    const gm_rule *rule;
    uint32_t line_start;
} gm_suppression_hit;

/* Appends to out a GM901 finding for each line directive in the comments of text (root its
 * tree) that hid none of hits: a code naming only rules not in reported is left alone (it may
 * hide findings once they are selected). Returns 0, or -1 on OOM. */
int gm_unused_suppressions(const gm_syntax *syntax, TSNode root, const char *text, uint32_t len,
                           const gm_suppression_hit *hits, size_t hit_count,
                           const gm_rule_set *reported, gm_finding_list *out);

#endif
