/* [Where] for GM101 (where.c, where_chain.c, where_update.c): what its shapes
 * share. A select evaluates every branch, so each value it takes is judged (admitted) for what
 * evaluating it unconditionally may do; the worst judgement sets the mend's applicability. */
#ifndef GM_ANALYSIS_MENDS_WHERE_H
#define GM_ANALYSIS_MENDS_WHERE_H

#include <stdbool.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "analysis/mends/branch.h"

typedef struct {
    gm_region *region;
    const gm_branch_if *branch; /* the if being rewritten (only torch set for a ternary) */
    gm_expr_effect effect;      /* the worst of what was admitted: TOTAL means safe */
    const char *why;            /* why the shape was declined (a static string) */
} gm_where_ctx;

/* Decline reasons that leave [Cond] to say more: the branches are not a select shape, call
 * code graphmend cannot see, or assign a target that is not plain. */
extern const char *const gm_where_not_a_select;
extern const char *const gm_where_opaque_call;
extern const char *const gm_where_computed_target;

/* safe when effect is TOTAL, else unsafe. */
const char *gm_where_title(gm_expr_effect effect, const char *safe, const char *unsafe);

/* Folds what evaluating the branch value expr unconditionally may do into w; false (with
 * w->why) when the select is ruled out. */
bool gm_where_admit(gm_where_ctx *w, TSNode expr);
/* The same for a condition (or a part of one) lowered to logical_*: its operands are admitted
 * except where evaluated_anyway and the original evaluated them first. */
bool gm_where_admit_test(gm_where_ctx *w, TSNode cond, bool evaluated_anyway);
/* The test of the if: its first operand was evaluated anyway. */
bool gm_where_admit_condition(gm_where_ctx *w, TSNode cond);

/* Whether expr is known to be a tensor (a value kind, or a buffer the class registers); false
 * with w->why otherwise. */
bool gm_where_is_tensor(gm_where_ctx *w, TSNode expr);

/* torch.where(cond, a, b), a and b as written. */
void gm_where_append(gm_text_builder *tb, gm_where_ctx *w, const char *cond, TSNode a, TSNode b);

/* Whether text[start, end) holds `register_buffer(` followed by literal (a quoted name). */
bool gm_where_registers(const char *text, uint32_t start, uint32_t end, gm_slice literal);

/* if/elif/else whose branches assign the same targets, make the same calls or return
 * (where_chain.c). Returns 1, 0 with w->why, or -1 on OOM. */
int gm_where_chain(gm_where_ctx *w, gm_fix *out);

/* An if without else updating tensors bound before it (where_update.c). */
int gm_where_update(gm_where_ctx *w, gm_fix *out);

#endif
