/* [Eager-only decision] for GM101 on a test that compares a fresh random draw (`p =
 * torch.rand([])`; `if p < self.layerdrop: continue`, LayerDrop as most transformers models of
 * 2024 write it): no select or torch.cond fits a `continue` or a skipped layer, and dynamo 2.13
 * cannot trace Python's random.random() either. The test becomes `not torch.compiler.
 * is_compiling() and <test>`, which dynamo folds to False without reading the draw: under
 * torch.compile the random branch is never taken (no layer is dropped), eager runs are
 * unchanged. The same for a test whose body only sets names to None (`if not mask.any(): mask =
 * None`, FSMT's padding mask dropped when it masks nothing): under torch.compile the value is
 * kept, which changes the result only where code treats a tensor that does nothing differently
 * from None. Unsafe, and the title says what changes. */
#include <string.h>

#include "analysis/mends/mends.h"
#include "analysis/mends/rewrite_text.h"
#include "analysis/module_facts/symbols.h"
#include "analysis/regions/binding_lookup.h"

/* torch functions that draw uniformly at random. */
static const char *const draws[] = {"torch.rand", "torch.rand_like", NULL};

static bool is_draw(gm_region *region, TSNode n, int depth) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    n = gm_unparen(syn, n);
    if (ts_node_is_null(n) || depth > 4)
        return false;
    if (gm_is(n, syn->sym.identifier)) {
        TSNode value = gm_lookup_local(region, gm_node_slice(n, st->text), n);
        return !ts_node_is_null(value) && is_draw(region, value, depth + 1);
    }
    if (!gm_is(n, syn->sym.call))
        return false;
    TSNode fn = gm_unparen(syn, gm_child(n, syn->field.function));
    /* `torch.empty(()).uniform_()` and the like */
    if (gm_is(fn, syn->sym.attribute) &&
        gm_node_text_is(gm_child(fn, syn->field.attribute), st->text, "uniform_"))
        return true;
    char name[GM_NAME_MAX];
    if (!gm_symbols_resolve(st->symbols, syn, st->text, fn, name, sizeof name))
        return false;
    for (const char *const *d = draws; *d; d++)
        if (strcmp(name, *d) == 0)
            return true;
    return false;
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

int gm_mend_random_decision(gm_region *region, TSNode condition, gm_fix *out) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    const char *alias = st->symbols->torch_alias;
    if (!alias || st->options->torch_version < 203) /* torch.compiler.is_compiling: 2.3 */
        return 0;
    bool draw = compares_draw(region, condition, 0);
    if (!draw && !drops_optional_values(syn, condition))
        return 0;
    TSNode op = gm_is(condition, syn->sym.boolean_operator) ? gm_child(condition, syn->field.operator)
                                                           : (TSNode){0};
    bool wrap = (!ts_node_is_null(op) && strcmp(ts_node_type(op), "or") == 0) ||
                gm_is(condition, syn->sym.conditional_expression);
    gm_text_builder tb;
    gm_tb_init(&tb);
    gm_tb_appendf(&tb, "not %s.compiler.is_compiling() and %s", alias, wrap ? "(" : "");
    gm_tb_append_node(&tb, st->text, condition);
    gm_tb_append_str(&tb, wrap ? ")" : "");
    return gm_mend_fix_single(out, GM_FIX_UNSAFE,
                              draw ? "take the random branch in eager only"
                                   : "drop the value in eager mode only",
                              draw ? "Mend graph break: take the random branch in eager mode only "
                                     "(unsafe: under torch.compile it is never taken, so "
                                     "LayerDrop drops no layer)"
                                   : "Mend graph break: drop the value in eager mode only "
                                     "(unsafe: under torch.compile it is kept instead of None)",
                              ts_node_start_byte(condition), ts_node_end_byte(condition),
                              gm_tb_take(&tb));
}
