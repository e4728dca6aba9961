/* [Eager-only decision] for GM101 on a test that compares a fresh random draw (`p =
 * torch.rand([])`; `if p < self.layerdrop: continue`, LayerDrop as most transformers models of
 * 2024 write it): no select or torch.cond fits a `continue` or a skipped layer, and dynamo 2.13
 * cannot trace Python's random.random() either. The test becomes `not torch.compiler.
 * is_compiling() and <test>`, which dynamo folds to False without reading the draw: under
 * torch.compile the random branch is never taken (no layer is dropped), eager runs are
 * unchanged. The same for a test whose body only sets names to None (`if not mask.any(): mask =
 * None`, FSMT's padding mask dropped when it masks nothing): under torch.compile the value is
 * kept, which changes the result only where code treats a tensor that does nothing differently
 * from None. Unsafe, and the title says what changes.
 *
 * [Zero probability] offered before it, safe: `draw < p` where the draw lies in [0, 1)
 * (torch.rand, rand_like, a bare uniform_()) and p is a plain name or attribute that is not a
 * tensor becomes `p > 0 and draw < p`. A draw is never below a p <= 0 (nor below NaN), so the
 * test is false exactly when it was, and the draw is still made (the random stream is the
 * same); dynamo reads a module's float attribute as a constant, so with LayerDrop off (p == 0,
 * the default of most configs) `and` stops before the tensor and nothing breaks. Not offered
 * when a `p > 0` test already guards the comparison (transformers 5's `if self.training and
 * self.layerdrop > 0.0:`): it would change nothing. */
#include <stdlib.h>
#include <string.h>

#include "analysis/mends/mends.h"
#include "analysis/mends/rewrite_text.h"
#include "analysis/module_facts/symbols.h"
#include "analysis/regions/binding_lookup.h"
#include "analysis/value_kinds/value_kinds.h"

/* torch functions that draw uniformly at random. */
static const char *const draws[] = {"torch.rand", "torch.rand_like", NULL};

/* unit: only draws known to lie in [0, 1) (a uniform_ with bounds may be negative). */
static bool is_draw_in(gm_region *region, TSNode n, int depth, bool unit) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    n = gm_unparen(syn, n);
    if (ts_node_is_null(n) || depth > 4)
        return false;
    if (gm_is(n, syn->sym.identifier)) {
        TSNode value = gm_lookup_local(region, gm_node_slice(n, st->text), n);
        return !ts_node_is_null(value) && is_draw_in(region, value, depth + 1, unit);
    }
    if (!gm_is(n, syn->sym.call))
        return false;
    TSNode fn = gm_unparen(syn, gm_child(n, syn->field.function));
    /* `torch.empty(()).uniform_()` and the like */
    if (gm_is(fn, syn->sym.attribute) &&
        gm_node_text_is(gm_child(fn, syn->field.attribute), st->text, "uniform_")) {
        TSNode args = gm_child(n, syn->field.arguments);
        return !unit || (!ts_node_is_null(args) && ts_node_named_child_count(args) == 0);
    }
    char name[GM_NAME_MAX];
    if (!gm_symbols_resolve(st->symbols, syn, st->text, fn, name, sizeof name))
        return false;
    for (const char *const *d = draws; *d; d++)
        if (strcmp(name, *d) == 0)
            return true;
    return false;
}

static bool is_draw(gm_region *region, TSNode n, int depth) {
    return is_draw_in(region, n, depth, false);
}

/* Whether the test compares a random draw somewhere in its and/or/not structure. */
static bool compares_draw(gm_region *region, TSNode test, int depth) {
    const gm_syntax *syn = region->stmt->syntax;
    test = gm_unparen(syn, test);
    if (ts_node_is_null(test) || depth > 8)
        return false;
    if (gm_is(test, syn->sym.comparison_operator)) {
        uint32_t count = ts_node_named_child_count(test);
        for (uint32_t i = 0; i < count; i++)
            if (is_draw(region, ts_node_named_child(test, i), 0))
                return true;
        return false;
    }
    if (gm_is(test, syn->sym.boolean_operator))
        return compares_draw(region, gm_child(test, syn->field.left), depth + 1) ||
               compares_draw(region, gm_child(test, syn->field.right), depth + 1);
    if (gm_is(test, syn->sym.not_operator))
        return compares_draw(region, gm_child(test, syn->field.argument), depth + 1);
    return false;
}

/* Whether condition is the test of an if (no elif or else) whose body only sets names to None
 * (`if not mask.any(): mask = None`: an optional tensor dropped when it would do nothing). */
static bool drops_optional_values(const gm_syntax *syn, TSNode condition) {
    TSNode stmt = ts_node_parent(condition);
    if (!gm_is(stmt, syn->sym.if_statement) ||
        !ts_node_eq(gm_child(stmt, syn->field.condition), condition) ||
        !ts_node_is_null(gm_child(stmt, syn->field.alternative)))
        return false;
    TSNode body = gm_child(stmt, syn->field.consequence);
    uint32_t count = ts_node_is_null(body) ? 0 : ts_node_named_child_count(body);
    unsigned drops = 0;
    for (uint32_t i = 0; i < count; i++) {
        TSNode s = ts_node_named_child(body, i);
        if (gm_is(s, syn->sym.comment))
            continue;
        TSNode a = ts_node_named_child_count(s) == 1 ? ts_node_named_child(s, 0) : (TSNode){0};
        if (!gm_is(s, syn->sym.expression_statement) || !gm_is(a, syn->sym.assignment) ||
            !gm_is(gm_child(a, syn->field.left), syn->sym.identifier) ||
            !gm_is(gm_child(a, syn->field.right), syn->sym.none))
            return false;
        drops++;
    }
    return drops > 0;
}

/* Whether n is `<p> > 0` or `0 < <p>` (0 or 0.0), p's text equal to threshold's. */
static bool tests_positive(const gm_syntax *syn, const char *text, TSNode n, gm_slice threshold) {
    n = gm_unparen(syn, n);
    if (!gm_is(n, syn->sym.comparison_operator) || ts_node_named_child_count(n) != 2 ||
        ts_node_child_count(n) != 3)
        return false;
    const char *op = ts_node_type(ts_node_child(n, 1));
    TSNode left = gm_unparen(syn, ts_node_named_child(n, 0));
    TSNode right = gm_unparen(syn, ts_node_named_child(n, 1));
    TSNode name = strcmp(op, ">") == 0 ? left : strcmp(op, "<") == 0 ? right : (TSNode){0};
    TSNode zero = strcmp(op, ">") == 0 ? right : left;
    if (ts_node_is_null(name) || !gm_slice_eq(gm_node_slice(name, text), threshold))
        return false;
    return (gm_is(zero, syn->sym.integer) || gm_is(zero, syn->sym.float_literal)) &&
           strtod(gm_node_slice(zero, text).ptr, NULL) == 0.0;
}

/* Whether an `and` conjunct of test is `<threshold> > 0`. */
static bool conjunct_tests_positive(const gm_syntax *syn, const char *text, TSNode test,
                                    gm_slice threshold, int depth) {
    test = gm_unparen(syn, test);
    if (ts_node_is_null(test) || depth > 8)
        return false;
    if (gm_is(test, syn->sym.boolean_operator)) {
        TSNode op = gm_child(test, syn->field.operator);
        return strcmp(ts_node_type(op), "and") == 0 &&
               (conjunct_tests_positive(syn, text, gm_child(test, syn->field.left), threshold,
                                        depth + 1) ||
                conjunct_tests_positive(syn, text, gm_child(test, syn->field.right), threshold,
                                        depth + 1));
    }
    return tests_positive(syn, text, test, threshold);
}

/* Whether `<threshold> > 0` already guards the comparison: a conjunct of the test, or of an
 * enclosing if (of the same function) whose body holds it. */
static bool guarded_positive(const gm_syntax *syn, const char *text, TSNode condition,
                             gm_slice threshold) {
    if (conjunct_tests_positive(syn, text, condition, threshold, 0))
        return true;
    for (TSNode n = ts_node_parent(condition); !ts_node_is_null(n) && !gm_is_nested_scope(syn, n);
         n = ts_node_parent(n)) {
        TSNode body = gm_is(n, syn->sym.if_statement) ? gm_child(n, syn->field.consequence)
                                                      : (TSNode){0};
        if (ts_node_is_null(body) || ts_node_start_byte(condition) < ts_node_start_byte(body) ||
            ts_node_end_byte(condition) > ts_node_end_byte(body))
            continue;
        if (conjunct_tests_positive(syn, text, gm_child(n, syn->field.condition), threshold, 0))
            return true;
    }
    return false;
}

/* The comparison `draw < p` (or `p > draw`) of test, found through `and` only, with p: a
 * name or an attribute (reading it twice reads the same value) that is not a tensor. */
static TSNode draw_below_threshold(gm_region *region, TSNode test, TSNode *threshold, int depth) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    test = gm_unparen(syn, test);
    if (ts_node_is_null(test) || depth > 8)
        return (TSNode){0};
    if (gm_is(test, syn->sym.boolean_operator)) {
        if (strcmp(ts_node_type(gm_child(test, syn->field.operator)), "and") != 0)
            return (TSNode){0};
        TSNode found = draw_below_threshold(region, gm_child(test, syn->field.left), threshold,
                                            depth + 1);
        return ts_node_is_null(found) ? draw_below_threshold(region, gm_child(test, syn->field.right),
                                                             threshold, depth + 1)
                                      : found;
    }
    if (!gm_is(test, syn->sym.comparison_operator) || ts_node_named_child_count(test) != 2 ||
        ts_node_child_count(test) != 3)
        return (TSNode){0};
    const char *op = ts_node_type(ts_node_child(test, 1));
    TSNode left = ts_node_named_child(test, 0), right = ts_node_named_child(test, 1);
    TSNode draw = strcmp(op, "<") == 0 ? left : strcmp(op, ">") == 0 ? right : (TSNode){0};
    TSNode p = strcmp(op, "<") == 0 ? right : left;
    if (ts_node_is_null(draw) || !is_draw_in(region, draw, 0, true))
        return (TSNode){0};
    p = gm_unparen(syn, p);
    if (!gm_is(p, syn->sym.identifier) && !gm_is(p, syn->sym.attribute))
        return (TSNode){0};
    for (TSNode a = p; gm_is(a, syn->sym.attribute); a = gm_child(a, syn->field.object))
        if (!gm_is(gm_child(a, syn->field.object), syn->sym.identifier) &&
            !gm_is(gm_child(a, syn->field.object), syn->sym.attribute))
            return (TSNode){0};
    if (gm_value_of(region, p).kind == GM_KIND_TENSOR || gm_kinds_is_guessed_tensor(region, p))
        return (TSNode){0};
    *threshold = p;
    return test;
}

/* The safe [Zero probability] mend, or 0 when it does not apply. */
static int zero_probability_mend(gm_region *region, TSNode condition, gm_fix *out) {
    const gm_stmt_ctx *st = region->stmt;
    TSNode threshold = {0};
    TSNode comparison = draw_below_threshold(region, condition, &threshold, 0);
    if (ts_node_is_null(comparison) ||
        guarded_positive(st->syntax, st->text, condition, gm_node_slice(threshold, st->text)))
        return 0;
    gm_text_builder tb;
    gm_tb_init(&tb);
    gm_tb_append_node(&tb, st->text, threshold);
    gm_tb_append_str(&tb, " > 0 and ");
    return gm_mend_fix_single(out, GM_FIX_SAFE, "skip the draw's test when p is 0",
                              "Mend graph break: test the random draw only when the probability "
                              "is above 0 (a draw in [0, 1) is never below 0; no break when it "
                              "is 0, as LayerDrop's default is)",
                              ts_node_start_byte(comparison), ts_node_start_byte(comparison),
                              gm_tb_take(&tb));
}

int gm_mend_random_decision(gm_region *region, TSNode condition, gm_fix *out) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    const char *alias = st->symbols->torch_alias;
    if (!alias || st->options->torch_version < 203) /* torch.compiler.is_compiling: 2.3 */
        return 0;
    bool draw = compares_draw(region, condition, 0);
    if (!draw && !drops_optional_values(syn, condition))
        return 0;
    int count = draw ? zero_probability_mend(region, condition, out) : 0;
    if (count < 0)
        return -1;
    TSNode op = gm_is(condition, syn->sym.boolean_operator) ? gm_child(condition, syn->field.operator)
                                                           : (TSNode){0};
    bool wrap = (!ts_node_is_null(op) && strcmp(ts_node_type(op), "or") == 0) ||
                gm_is(condition, syn->sym.conditional_expression);
    gm_text_builder tb;
    gm_tb_init(&tb);
    gm_tb_appendf(&tb, "not %s.compiler.is_compiling() and %s", alias, wrap ? "(" : "");
    gm_tb_append_node(&tb, st->text, condition);
    gm_tb_append_str(&tb, wrap ? ")" : "");
    int rc = gm_mend_fix_single(&out[count], GM_FIX_UNSAFE,
                              draw ? "take the random branch in eager only"
                                   : "drop the value in eager mode only",
                              draw ? "Mend graph break: take the random branch in eager mode only "
                                     "(unsafe: under torch.compile it is never taken, so "
                                     "LayerDrop drops no layer)"
                                   : "Mend graph break: drop the value in eager mode only "
                                     "(unsafe: under torch.compile it is kept instead of None)",
                              ts_node_start_byte(condition), ts_node_end_byte(condition),
                              gm_tb_take(&tb));
    if (rc < 0) {
        for (int i = 0; i < count; i++)
            gm_fix_free(&out[i]);
        return -1;
    }
    return count + rc;
}
