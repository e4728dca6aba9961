/* Helpers shared by the analysis unit tests. Include after check.h. */
#ifndef GM_TESTS_ANALYSIS_TEST_H
#define GM_TESTS_ANALYSIS_TEST_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analyzer.h"
#include "analysis/findings/text_edit.h"
#include "analysis/syntax/python_parser.h"

static inline gm_finding_list at_analyze_with(const char *src, const gm_analysis_options *o) {
    gm_finding_list list;
    gm_finding_list_init(&list);
    int rc = gm_analyze_source(src, strlen(src), o, &list);
    CHECK_EQ_INT(rc, 0);
    return list;
}

static inline gm_finding_list at_analyze(const char *src) {
    gm_analysis_options o;
    gm_analysis_options_default(&o);
    return at_analyze_with(src, &o);
}

static inline size_t at_count(const gm_finding_list *l, const char *rule_id) {
    size_t n = 0;
    for (size_t i = 0; i < l->count; i++)
        if (strcmp(l->items[i].rule->id, rule_id) == 0)
            n++;
    return n;
}

static inline const gm_finding *at_find(const gm_finding_list *l, const char *rule_id, size_t nth) {
    for (size_t i = 0; i < l->count; i++)
        if (strcmp(l->items[i].rule->id, rule_id) == 0 && nth-- == 0)
            return &l->items[i];
    return NULL;
}

/* The source text a finding's span covers (static buffer). */
static inline const char *at_span_text(const char *src, const gm_finding *f) {
    static char buf[512];
    size_t n = f->span.end_byte - f->span.start_byte;
    if (n >= sizeof buf)
        n = sizeof buf - 1;
    memcpy(buf, src + f->span.start_byte, n);
    buf[n] = '\0';
    return buf;
}

static inline const gm_fix *at_fix(const gm_finding *f, gm_fix_kind kind) {
    for (size_t i = 0; f && i < f->fix_count; i++)
        if (f->fixes[i].kind == kind)
            return &f->fixes[i];
    return NULL;
}

/* src with the fix applied (caller frees), or NULL. */
static inline char *at_apply(const char *src, const gm_fix *fix) {
    size_t out_len;
    return gm_apply_text_edits(src, strlen(src), fix->edits, fix->edit_count, &out_len);
}

static inline bool at_parses_cleanly(const char *src) {
    TSParser *p = gm_python_parser_new(0);
    TSTree *t = gm_python_parse(p, NULL, src, strlen(src));
    bool ok = t && !ts_node_has_error(ts_tree_root_node(t));
    if (t)
        gm_tree_delete(t);
    ts_parser_delete(p);
    return ok;
}

static inline void at_dump(const char *src, const gm_finding_list *l) {
    for (size_t i = 0; i < l->count; i++)
        fprintf(stderr, "  %u:%u %s `%s` %s\n", l->items[i].span.start.row + 1,
                l->items[i].span.start.column, l->items[i].rule->id,
                at_span_text(src, &l->items[i]), l->items[i].message);
}

static inline bool at_same_text(const char *a, const char *b) {
    return a == b || (a && b && strcmp(a, b) == 0);
}

/* Whether two findings say the same: rule, span, severity, message, conditions, mends. */
static inline bool at_findings_equal(const gm_finding *x, const gm_finding *y) {
    if (x->rule != y->rule || memcmp(&x->span, &y->span, sizeof x->span) != 0 ||
        x->severity != y->severity || x->suppressed != y->suppressed ||
        !at_same_text(x->message, y->message) ||
        !at_same_text(x->mend_declined, y->mend_declined) ||
        !at_same_text(x->only_when_dtypes, y->only_when_dtypes) ||
        !at_same_text(x->only_when_condition, y->only_when_condition) ||
        x->fix_count != y->fix_count)
        return false;
    for (size_t j = 0; j < x->fix_count; j++) {
        const gm_fix *a = &x->fixes[j], *b = &y->fixes[j];
        if (a->kind != b->kind || a->applicability != b->applicability ||
            !at_same_text(a->title, b->title) || !at_same_text(a->label, b->label) ||
            a->edit_count != b->edit_count)
            return false;
        for (size_t k = 0; k < a->edit_count; k++)
            if (a->edits[k].start_byte != b->edits[k].start_byte ||
                a->edits[k].end_byte != b->edits[k].end_byte ||
                a->edits[k].after_imports != b->edits[k].after_imports ||
                !at_same_text(a->edits[k].replacement, b->edits[k].replacement))
                return false;
    }
    return true;
}

/* The index of the first finding where two lists differ, or -1 when they are equal. */
static inline long at_lists_differ_at(const gm_finding_list *a, const gm_finding_list *b) {
    size_t n = a->count < b->count ? a->count : b->count;
    for (size_t i = 0; i < n; i++)
        if (!at_findings_equal(&a->items[i], &b->items[i]))
            return (long)i;
    return a->count == b->count ? -1 : (long)n;
}

/* Checks that src has exactly n findings of rule; dumps the findings when not. */
#define AT_EXPECT(src, rule, n)                                                                    \
    do {                                                                                           \
        gm_finding_list at_l_ = at_analyze(src);                                                   \
        size_t at_n_ = at_count(&at_l_, rule);                                                     \
        CHECK_EQ_INT(at_n_, n);                                                                    \
        if (at_n_ != (size_t)(n)) {                                                                \
            fprintf(stderr, "---- source:\n%s---- findings:\n", src);                              \
            at_dump(src, &at_l_);                                                                  \
        }                                                                                          \
        gm_finding_list_free(&at_l_);                                                              \
    } while (0)

#endif
