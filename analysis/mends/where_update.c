/* [Where], the else-less shape (see where.h): `if [s and] c: x = a` updating tensors
 * bound before the if becomes `x = torch.where(c, a, x)`; leading static conjuncts s stay a
 * Python `if` (dynamo folds them) and names first bound in the body are computed
 * unconditionally (GraphMend's Florence-2 overflow guard). */
#include <stdlib.h>
#include <string.h>

#include "analysis/mends/where.h"
#include "analysis/value_kinds/value_kinds.h"

/* if [s and] c: x = a; ... -> [if s:] x = torch.where(c, a, x); ... (x tensors bound before;
 * a name first bound here, like GraphMend's clamp bound, is computed unconditionally) */
int gm_where_update(gm_where_ctx *w, gm_fix *out) {
    const gm_branch_if *b = w->branch;
    const gm_stmt_ctx *st = w->region->stmt;
    const gm_syntax *syn = st->syntax;
    TSNode targets[GM_BRANCH_MAX_STMTS], values[GM_BRANCH_MAX_STMTS];
    bool kept[GM_BRANCH_MAX_STMTS];
    unsigned updates = 0;
    if (b->then_arm.count == 0) {
        w->why = gm_where_not_a_select;
        return 0;
    }
    for (unsigned i = 0; i < b->then_arm.count; i++) {
        if (!gm_branch_assignment(syn, b->then_arm.stmts[i], &targets[i], &values[i]) ||
            !gm_is(targets[i], syn->sym.identifier)) {
            w->why = "the if without else does more than assign names: no select fits";
            return 0;
        }
    }
    for (unsigned i = 0; i < b->then_arm.count; i++) {
        kept[i] = !gm_branch_bound_before(w->region, gm_node_slice(targets[i], st->text));
        if (kept[i]) {
            if (!gm_where_admit(w, values[i]))
                return 0;
            continue;
        }
        if (gm_value_of(w->region, targets[i]).kind != GM_KIND_TENSOR) {
            w->why = "a name the if assigns is not a tensor bound before it, so there is no "
                     "value to keep when the condition is false";
            return 0;
        }
        if (!gm_where_is_tensor(w, values[i]) || !gm_where_admit(w, values[i]))
            return 0;
        updates++;
    }
    if (updates == 0) {
        w->why = "the if updates no tensor";
        return 0;
    }
    if (!gm_where_admit_condition(w, b->condition))
        return 0;
    gm_text_builder cond;
    gm_tb_init(&cond);
    uint32_t static_end = 0;
    if (!gm_branch_append_tensor_conjuncts(&cond, w->region, b->condition, b->torch, &static_end,
                                           &w->why)) {
        gm_tb_free(&cond);
        return 0;
    }
    char *cond_text = gm_tb_take(&cond);
    if (!cond_text)
        return -1;
    bool hoist = updates > 1;
    char name[64];
    if (hoist && !gm_fresh_name(st->text + ts_node_start_byte(st->top), gm_node_length(st->top),
                                "gm_cond", name, sizeof name)) {
        free(cond_text);
        w->why = "no fresh name is free for the condition";
        return 0;
    }
    const char *select_cond = hoist ? name : cond_text;
    const char *title = gm_where_title(
        w->effect, "Mend graph break: update with a torch.where select instead of branching",
        "Mend graph break: update with a torch.where select instead of branching "
        "(unsafe: the new value is computed even when the condition is false, and "
        "may raise, give non-finite values or differ in shape)");
    gm_applicability applicability = w->effect == GM_EXPR_TOTAL ? GM_FIX_SAFE : GM_FIX_UNSAFE;
    int rc;
    if (static_end == 0) {
        /* the whole if becomes the updates */
        gm_text_builder tb;
        gm_tb_init(&tb);
        gm_branch_append_comments(&tb, w->region, b->stmt, (TSNode){0}, (TSNode){0}, &b->layout);
        if (hoist) {
            gm_tb_appendf(&tb, "%s = %s", name, cond_text);
            gm_branch_newline(&tb, &b->layout);
        }
        for (unsigned i = 0; i < b->then_arm.count; i++) {
            if (i > 0)
                gm_branch_newline(&tb, &b->layout);
            if (kept[i]) {
                gm_tb_append_node(&tb, st->text, b->then_arm.stmts[i]);
                continue;
            }
            gm_tb_append_node(&tb, st->text, targets[i]);
            gm_tb_append_str(&tb, " = ");
            gm_where_append(&tb, w, select_cond, values[i], targets[i]);
        }
        rc = gm_mend_fix_single(out, applicability, "update with a torch.where select", title, ts_node_start_byte(b->stmt),
                                ts_node_end_byte(b->stmt), gm_tb_take(&tb));
        free(cond_text);
        return rc;
    }
    /* the static conjuncts stay the if's test; its body updates with selects */
    gm_stmt_layout body;
    gm_stmt_layout_of(st->text, st->len, b->then_arm.stmts[0], &body);
    if (hoist && !body.alone) {
        free(cond_text);
        w->why = "another statement shares a line of the if's body";
        return 0;
    }
    rc = gm_mend_fix_single(out, applicability, "update with a torch.where select", title, static_end, ts_node_end_byte(b->condition),
                            strdup(""));
    if (rc == 1 && hoist) {
        gm_text_builder tb;
        gm_tb_init(&tb);
        gm_tb_appendf(&tb, "%s = %s", name, cond_text);
        gm_branch_newline(&tb, &body);
        uint32_t at = ts_node_start_byte(b->then_arm.stmts[0]);
        if (gm_mend_fix_add_edit(out, at, at, gm_tb_take(&tb)) != 0)
            rc = -1;
    }
    for (unsigned i = 0; rc == 1 && i < b->then_arm.count; i++) {
        if (kept[i])
            continue;
        gm_text_builder tb;
        gm_tb_init(&tb);
        gm_where_append(&tb, w, select_cond, values[i], targets[i]);
        if (gm_mend_fix_add_edit(out, ts_node_start_byte(values[i]), ts_node_end_byte(values[i]),
                                 gm_tb_take(&tb)) != 0)
            rc = -1;
    }
    free(cond_text);
    if (rc < 0 && out->title) {
        gm_fix_free(out);
        memset(out, 0, sizeof *out);
    }
    return rc;
}
