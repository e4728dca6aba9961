/* What the analysis produces: findings (predicted graph breaks) with their fixes as byte-offset
 * text edits. Positions are 0-based rows and byte columns, as tree-sitter reports them; callers
 * convert to the encoding they need. */
#ifndef GM_ANALYSIS_FINDINGS_FINDINGS_H
#define GM_ANALYSIS_FINDINGS_FINDINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/rules/catalogue/rule_catalogue.h"

typedef struct {
    uint32_t row;    /* 0-based line */
    uint32_t column; /* 0-based byte column */
} gm_point;

typedef struct {
    uint32_t start_byte;
    uint32_t end_byte;
    gm_point start;
    gm_point end;
} gm_span;

/* ruff's applicability levels: fix-all applies SAFE only; UNSAFE is offered one at a time;
 * DISPLAY_ONLY is shown but never applied automatically. */
typedef enum { GM_FIX_SAFE, GM_FIX_UNSAFE, GM_FIX_DISPLAY_ONLY } gm_applicability;

const char *gm_applicability_name(gm_applicability applicability); /* "safe", "unsafe", ... */

typedef struct {
    uint32_t start_byte; /* replaced range [start_byte, end_byte) of the analysed text */
    uint32_t end_byte;
    char *replacement; /* owned, NUL-terminated */
    /* An insertion of a module-level setting line that belongs after the module's imports
     * (gm_module_head_end): the analyzer places it there when it puts the file's findings
     * together, so that it stays right whichever statements an edit moved, and every mend that
     * adds the same line adds it at the same place. */
    bool after_imports;
} gm_text_edit;

typedef enum {
    GM_FIX_KIND_MEND,     /* rewrites code so the break goes away */
    GM_FIX_KIND_SUPPRESS, /* adds a "# graphmend: ignore[ID]" comment */
} gm_fix_kind;

typedef struct {
    gm_fix_kind kind;
    gm_applicability applicability;
    char *title;         /* owned, the full sentence: "Mend graph break: run the call ..." */
    gm_text_edit *edits; /* owned array, sorted by start_byte, non-overlapping */
    size_t edit_count;
    /* owned, or NULL (suppressions): a short name of what a mend does, under 40 characters, for
     * menus that add the rule and the applicability ("defer print after the graph") */
    char *label;
} gm_fix;

typedef struct {
    const gm_rule *rule; /* static catalogue entry */
    gm_span span;
    char *message;        /* owned: names the construct and the consequence */
    gm_severity severity; /* 0: the rule's; else this finding's (fullgraph makes breaks errors) */
    gm_fix *fixes;        /* owned array */
    size_t fix_count;
    /* owned, or NULL: why no mend is offered (the legality check that failed), for the hover */
    char *mend_declined;
    /* owned, or NULL: the dtypes ("float16,bfloat16") the break needs, when a dtype test the
     * analysis cannot decide guards the tensor test (`if h.dtype == torch.float16 and
     * torch.isinf(h).any():` breaks only in float16: in other dtypes `and` stops first) */
    char *only_when_dtypes;
    /* owned, or NULL: the Python condition (source text) that must hold for the break, when
     * Python values dynamo evaluates at trace time guard the tensor test (`if pixels is not
     * None and (ids == k).any():` breaks only when pixels are given: `and` stops first) */
    char *only_when_condition;
    /* A line suppression comment hides it: kept (not reported) so that the analyzer can tell
     * which suppressions are used (GM901). */
    bool suppressed;
} gm_finding;

typedef struct {
    gm_finding *items; /* sorted by span.start_byte */
    size_t count;
    size_t capacity;
} gm_finding_list;

void gm_finding_list_init(gm_finding_list *list);
void gm_finding_list_free(gm_finding_list *list); /* frees items and everything they own */
/* Adds a finding after those that start at or before it (so the list stays sorted), taking
 * ownership of its owned members. Returns 0, or -1 on OOM (the caller then still owns them). */
int gm_finding_list_push(gm_finding_list *list, gm_finding *finding);
/* Deep copy of one finding with every byte offset shifted by byte_delta and every row of the
 * span by row_delta (used to reuse cached results after edits elsewhere). Returns 0 or -1. */
int gm_finding_copy_shifted(const gm_finding *src, gm_finding *dst, int64_t byte_delta,
                            int64_t row_delta);
void gm_finding_free(gm_finding *finding);
/* How many findings of list no suppression comment hides. */
size_t gm_finding_list_unsuppressed(const gm_finding_list *list);
/* The severity to report: the finding's own, else its rule's default. */
gm_severity gm_finding_severity(const gm_finding *finding);
/* Whether fix-all and `graphmend fix` apply fix: a mend that is safe, or unsafe when unsafe
 * fixes are asked for (never a display-only one or a suppression). */
bool gm_fix_auto_applies(const gm_fix *fix, bool unsafe);
/* Frees what fix owns (title, edits and their replacements). */
void gm_fix_free(gm_fix *fix);
/* Shifts every byte offset of finding (span and fix edits) by byte_delta and its span rows by
 * row_delta, in place. */
void gm_finding_shift(gm_finding *finding, int64_t byte_delta, int64_t row_delta);

#endif
