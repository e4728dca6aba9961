/* What the mask mends know about a boolean mask and the tensors it selects from: which torch
 * function a call calls, whether a mask compares a tensor (so it has that tensor's shape), and
 * whether a value is a new tensor shaped like another. */
#include <string.h>

#include "analysis/mends/mask_shape.h"
#include "analysis/mends/value_uses.h"
#include "analysis/module_facts/symbols.h"

/* Whether call calls the torch function canonical ("torch.full"). */
bool gm_mend_calls(gm_region *region, TSNode call, const char *canonical) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    char name[GM_NAME_MAX];
    if (!gm_is(call, syn->sym.call))
        return false;
    TSNode fn = gm_unparen(syn, gm_child(call, syn->field.function));
    TSNode head = gm_chain_head(syn, fn);
    if (ts_node_is_null(head) ||
        !gm_symbols_is_imported(st->symbols, gm_node_slice(head, st->text)) ||
        gm_region_binds_node(region, head))
        return false;
    return gm_symbols_resolve(st->symbols, syn, st->text, fn, name, sizeof name) &&
           strcmp(name, canonical) == 0;
}

/* Whether the mask m (a name bound once, followed) is a comparison, or `~`, `&`, `|` of such,
 * with src among the compared values: its shape then covers src's, and src[m] working means it
 * is src's shape exactly. */
bool gm_mend_mask_compares(gm_region *region, TSNode function, TSNode m, gm_slice src, int depth) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    m = gm_unparen(syn, m);
    if (ts_node_is_null(m) || depth > 8)
        return false;
    if (gm_is(m, syn->sym.identifier)) {
        gm_slice name = gm_node_slice(m, st->text);
        if (gm_slice_eq(name, src))
            return true;
        TSNode value = gm_mend_only_assignment(syn, st->text, function, name);
        return !ts_node_is_null(value) && gm_mend_mask_compares(region, function, value, src, depth + 1);
    }
    if (gm_is(m, syn->sym.comparison_operator)) {
        uint32_t count = ts_node_named_child_count(m);
        for (uint32_t i = 0; i < count; i++) {
            TSNode operand = gm_unparen(syn, ts_node_named_child(m, i));
            if (gm_is(operand, syn->sym.identifier) &&
                gm_slice_eq(gm_node_slice(operand, st->text), src))
                return true;
        }
        return false;
    }
    if (gm_is(m, syn->sym.unary_operator)) {
        TSNode op = gm_child(m, syn->field.operator);
        return !ts_node_is_null(op) && strcmp(ts_node_type(op), "~") == 0 &&
               gm_mend_mask_compares(region, function, gm_child(m, syn->field.argument), src, depth + 1);
    }
    if (gm_is(m, syn->sym.binary_operator)) {
        TSNode op = gm_child(m, syn->field.operator);
        const char *o = ts_node_is_null(op) ? "" : ts_node_type(op);
        if (strcmp(o, "&") != 0 && strcmp(o, "|") != 0)
            return false;
        return gm_mend_mask_compares(region, function, gm_child(m, syn->field.left), src, depth + 1) ||
               gm_mend_mask_compares(region, function, gm_child(m, syn->field.right), src, depth + 1);
    }
    return false;
}

/* Whether value makes a new tensor of src's shape and dtype: `torch.zeros_like(src)` (ones,
 * empty, full, rand, randn), `src.clone()`, `torch.clone(src)`. */
bool gm_mend_fresh_like(gm_region *region, TSNode value, gm_slice src) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    value = gm_unparen(syn, value);
    if (!gm_is(value, syn->sym.call))
        return false;
    TSNode fn = gm_unparen(syn, gm_child(value, syn->field.function));
    TSNode args = gm_child(value, syn->field.arguments);
    if (!gm_is(args, syn->sym.argument_list))
        return false;
    if (gm_is(fn, syn->sym.attribute) &&
        gm_node_text_is(gm_child(fn, syn->field.attribute), st->text, "clone") &&
        ts_node_named_child_count(args) == 0)
        return gm_slice_eq(gm_node_slice(gm_unparen(syn, gm_child(fn, syn->field.object)), st->text), src);
    static const char *const makers[] = {"torch.zeros_like", "torch.ones_like", "torch.empty_like",
                                         "torch.full_like", "torch.clone"};
    bool made = false;
    for (size_t i = 0; i < sizeof makers / sizeof makers[0] && !made; i++)
        made = gm_mend_calls(region, value, makers[i]);
    if (!made || ts_node_named_child_count(args) == 0)
        return false;
    /* only the tensor (and a fill value): a dtype= keyword would change the result's dtype */
    for (uint32_t i = 1; i < ts_node_named_child_count(args); i++)
        if (gm_is(ts_node_named_child(args, i), syn->sym.keyword_argument))
            return false;
    return gm_slice_eq(gm_node_slice(gm_unparen(syn, ts_node_named_child(args, 0)), st->text), src);
}

