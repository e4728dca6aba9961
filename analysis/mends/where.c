/* [Where] for GM101: a data-dependent branch becomes one torch.where select, which dynamo
 * keeps in the graph. Shapes (GraphMend §1.1): a conditional expression; if/else assigning the
 * same targets in the same order; if/else returning; an else-less if updating tensors, whose
 * leading static conjuncts stay a Python `if` (dynamo folds them). The condition is lowered
 * to a boolean tensor (`and`/`or`/`not` as torch.logical_*). A select evaluates both branches:
 * safe only when every branch value is an elementwise expression that raises nothing and
 * gives finite values and gradients; unsafe when one may raise or give non-finite values
 * (their gradient would reach the taken branch as NaN) or reduces (the select broadcasts the
 * branches to one shape); declined when one may have effects or calls code not seen here. Where no
 * select fits, [Cond] (cond.c) may. This file: the entry point, the conditional expression
 * and what the shapes share; the if shapes are in where_chain.c and where_update.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/mends/mends.h"
#include "analysis/mends/setting_suggestion.h"
#include "analysis/mends/where.h"
#include "analysis/value_kinds/value_kinds.h"

/* Why Where declined when the branches are not one of its shapes: Cond gets to say more. */
const char *const gm_where_not_a_select =
    "the branches do not assign the same names or both return: no select fits";

/* Why Where declined a target that is computed or a tuple: Cond may take a tuple. */
const char *const gm_where_computed_target =
    "a branch assigns a target that is not a plain name, attribute or item";

/* Why Where declined a branch that calls unseen code: Cond, which runs only the taken
 * branch, gets to say more too. */
const char *const gm_where_opaque_call =
    "a branch calls code graphmend cannot see (a submodule or function), which a select would "
    "run although its branch is not taken";

const char *gm_where_title(gm_expr_effect effect, const char *safe, const char *unsafe) {
    return effect == GM_EXPR_TOTAL ? safe : unsafe;
}

/* Reductions: a select broadcasts its branches to one shape, so a branch value that reduces
 * may come out with another shape than the branch gave (only a condition may reduce freely). */
static const char *const reductions[] = {
    "sum",       "mean",          "any",    "all",     "max", "min",    "amax",
    "amin",      "prod",          "norm",   "std",     "var", "argmax", "argmin",
    "logsumexp", "count_nonzero", "nansum", "nanmean", NULL,
};

static bool reduces(const gm_syntax *syn, const char *text, TSNode n, int depth) {
    if (ts_node_is_null(n) || depth > 100)
        return false;
    if (gm_is(n, syn->sym.call)) {
        TSNode fn = gm_unparen(syn, gm_child(n, syn->field.function));
        TSNode name = gm_is(fn, syn->sym.attribute) ? gm_child(fn, syn->field.attribute) : fn;
        if (gm_is(name, syn->sym.identifier))
            for (size_t i = 0; reductions[i]; i++)
                if (gm_node_text_is(name, text, reductions[i]))
                    return true;
    }
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
        if (reduces(syn, text, ts_node_named_child(n, i), depth + 1))
            return true;
    return false;
}

/* Folds the effect of expr into the mend's; false when it rules the select out. A branch
 * value (not a condition) that reduces is at best unsafe. */
static bool admit_as(gm_where_ctx *w, TSNode expr, bool value) {
    const char *why = NULL;
    gm_expr_effect e = gm_branch_expr_effect(w->region, expr, &why);
    if (e == GM_EXPR_EFFECTFUL) {
        w->why = why;
        return false;
    }
    if (e == GM_EXPR_OPAQUE) {
        w->why = gm_where_opaque_call;
        return false;
    }
    if (value && e == GM_EXPR_TOTAL &&
        reduces(w->region->stmt->syntax, w->region->stmt->text, expr, 0))
        e = GM_EXPR_PARTIAL;
    if (e > w->effect)
        w->effect = e;
    return true;
}

bool gm_where_admit(gm_where_ctx *w, TSNode expr) {
    if (gm_branch_joins_tensors(w->region->stmt->syntax, w->region->stmt->text, expr)) {
        w->why = "a branch value joins tensors (torch.cat, torch.stack), so the branches differ in "
                 "shape and no select fits";
        return false;
    }
    return admit_as(w, expr, true);
}

/* A condition (or part of one) that the select always evaluates: its `and`/`or`/`not` are
 * lowered, so only its operands count. */
bool gm_where_admit_test(gm_where_ctx *w, TSNode cond, bool evaluated_anyway) {
    const gm_syntax *syn = w->region->stmt->syntax;
    cond = gm_unparen(syn, cond);
    if (gm_is(cond, syn->sym.not_operator))
        return gm_where_admit_test(w, gm_child(cond, syn->field.argument), evaluated_anyway);
    if (gm_is(cond, syn->sym.boolean_operator))
        return gm_where_admit_test(w, gm_child(cond, syn->field.left), evaluated_anyway) &&
               gm_where_admit_test(w, gm_child(cond, syn->field.right), false);
    return evaluated_anyway || admit_as(w, cond, false);
}

/* The parts of the condition that `and`/`or` evaluated only sometimes and the select
 * always evaluates. */
bool gm_where_admit_condition(gm_where_ctx *w, TSNode cond) {
    return gm_where_admit_test(w, cond, true);
}

/* self.NAME where the class registers a buffer "NAME": a tensor the value kinds cannot see. */
static bool is_buffer(gm_where_ctx *w, TSNode expr) {
    const gm_syntax *syn = w->region->stmt->syntax;
    const char *text = w->region->stmt->text;
    TSNode cls = w->region->site.class_node;
    expr = gm_unparen(syn, expr);
    if (!gm_is(expr, syn->sym.attribute) || ts_node_is_null(cls) || w->region->self_name.len == 0 ||
        !gm_slice_eq(gm_node_slice(gm_child(expr, syn->field.object), text), w->region->self_name))
        return false;
    gm_slice name = gm_node_slice(gm_child(expr, syn->field.attribute), text);
    char quoted[GM_NAME_MAX];
    for (int q = 0; q < 2 && name.len + 2 < sizeof quoted; q++) {
        char mark = q == 0 ? '"' : '\'';
        quoted[0] = mark;
        memcpy(quoted + 1, name.ptr, name.len);
        quoted[name.len + 1] = mark;
        gm_slice literal = {quoted, name.len + 2};
        if (gm_where_registers(text, ts_node_start_byte(cls), ts_node_end_byte(cls), literal))
            return true;
    }
    return false;
}

bool gm_where_is_tensor(gm_where_ctx *w, TSNode expr) {
    if (gm_value_of(w->region, expr).kind == GM_KIND_TENSOR || is_buffer(w, expr))
        return true;
    w->why = "a branch value is not known to be a tensor (a select would change its type)";
    return false;
}

void gm_where_append(gm_text_builder *tb, gm_where_ctx *w, const char *cond, TSNode a, TSNode b) {
    const gm_stmt_ctx *st = w->region->stmt;
    gm_tb_appendf(tb, "%s.where(%s, ", w->branch->torch, cond);
    gm_tb_append_argument(tb, st->syntax, st->text, a);
    gm_tb_append_str(tb, ", ");
    gm_tb_append_argument(tb, st->syntax, st->text, b);
    gm_tb_append_str(tb, ")");
}

/* Whether text[start, end) holds `register_buffer(` followed by the literal. */
bool gm_where_registers(const char *text, uint32_t start, uint32_t end, gm_slice literal) {
    static const char call[] = "register_buffer(";
    size_t n = sizeof call - 1;
    for (uint32_t p = start; p + n <= end; p++) {
        if (memcmp(text + p, call, n) != 0)
            continue;
        uint32_t q = p + (uint32_t)n;
        while (q < end && (text[q] == ' ' || text[q] == '\n' || text[q] == '\r' || text[q] == '\t'))
            q++;
        if (q + literal.len <= end && memcmp(text + q, literal.ptr, literal.len) == 0)
            return true;
    }
    return false;
}

/* a if c else b -> torch.where(c, a, b) */
static int conditional_expression(gm_region *region, TSNode expr, gm_fix *out) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    if (!st->symbols->torch_alias) {
        region->mend_declined = gm_mend_no_torch_reason(region->stmt);
        return 0;
    }
    gm_branch_if branch;
    memset(&branch, 0, sizeof branch);
    branch.torch = st->symbols->torch_alias;
    gm_where_ctx w = {region, &branch, GM_EXPR_TOTAL, NULL};
    TSNode a = ts_node_named_child(expr, 0), cond = ts_node_named_child(expr, 1),
           b = ts_node_named_child(expr, 2);
    if (!gm_where_is_tensor(&w, a) || !gm_where_is_tensor(&w, b) || !gm_where_admit(&w, a) ||
        !gm_where_admit(&w, b) || !gm_where_admit_condition(&w, cond)) {
        region->mend_declined = w.why;
        return 0;
    }
    gm_text_builder tb;
    gm_tb_init(&tb);
    gm_text_builder c;
    gm_tb_init(&c);
    if (!gm_branch_append_condition(&c, region, cond, branch.torch, &w.why)) {
        gm_tb_free(&c);
        region->mend_declined = w.why;
        return 0;
    }
    char *cond_text = gm_tb_take(&c);
    if (!cond_text)
        return -1;
    gm_where_append(&tb, &w, cond_text, a, b);
    free(cond_text);
    (void)syn;
    return gm_mend_fix_single(
        out, w.effect == GM_EXPR_TOTAL ? GM_FIX_SAFE : GM_FIX_UNSAFE, "select with torch.where",
        gm_where_title(w.effect,
                       "Mend graph break: select with torch.where instead of a conditional "
                       "expression",
                       "Mend graph break: select with torch.where instead of a conditional "
                       "expression (unsafe: the untaken side may raise, give non-finite values or "
                       "differ in shape)"),
        ts_node_start_byte(expr), ts_node_end_byte(expr), gm_tb_take(&tb));
}

static int where_if(gm_where_ctx *w, gm_fix *out) {
    const gm_branch_if *b = w->branch;
    if (ts_node_is_null(b->else_arm.block)) {
        if (b->elif_count > 0) {
            w->why = "the elif chain has no else, so no select covers every case";
            return 0;
        }
        return gm_where_update(w, out);
    }
    return gm_where_chain(w, out);
}

int gm_mend_data_dependent_branch(gm_region *region, TSNode condition, gm_fix *out) {
    const gm_syntax *syn = region->stmt->syntax;
    TSNode node = condition, parent = ts_node_parent(condition);
    while (gm_is(parent, syn->sym.parenthesized_expression)) {
        node = parent;
        parent = ts_node_parent(parent);
    }
    if (gm_mend_is_raise_guard(syn, parent) &&
        ts_node_eq(gm_child(parent, syn->field.condition), node))
        return gm_mend_validation_guard(region, condition, out);
    if (gm_is(parent, syn->sym.conditional_expression) && ts_node_named_child_count(parent) >= 3 &&
        ts_node_eq(ts_node_named_child(parent, 1), node))
        return conditional_expression(region, parent, out);
    gm_branch_if branch;
    const char *why = gm_branch_if_of(region, condition, &branch);
    if (why) {
        region->mend_declined = why;
        return 0;
    }
    gm_where_ctx w = {region, &branch, GM_EXPR_TOTAL, NULL};
    int count = where_if(&w, out);
    if (count < 0)
        return -1;
    if (count == 1 && out[0].applicability == GM_FIX_SAFE)
        return 1;
    /* No select, or one that evaluates a branch that may fail: torch.cond runs only the
     * taken branch. */
    const char *cond_why = NULL;
    int cond = gm_mend_branch_cond(region, &branch, out + count, &cond_why);
    if (cond < 0) {
        for (int i = 0; i < count; i++)
            gm_fix_free(&out[i]);
        return -1;
    }
    if (count + cond == 0)
        region->mend_declined = ((w.why == gm_where_not_a_select || w.why == gm_where_opaque_call ||
                                  w.why == gm_where_computed_target) &&
                                 cond_why)
                                    ? cond_why
                                    : w.why;
    return count + cond;
}
