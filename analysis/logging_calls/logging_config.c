#include "analysis/logging_calls/logging_config.h"

#include <string.h>

#define REORDERABLE_SET "torch._dynamo.config.reorderable_logging_functions"

/* The argument of `<chain>.add(<argument>)` when chain resolves to the reorderable set, or a
 * null node. */
static TSNode added_function(const gm_stmt_ctx *st, TSNode stmt) {
    const gm_syntax *syn = st->syntax;
    TSNode null = {0};
    if (!gm_is(stmt, syn->sym.expression_statement) || ts_node_named_child_count(stmt) != 1)
        return null;
    TSNode call = ts_node_named_child(stmt, 0);
    if (!gm_is(call, syn->sym.call))
        return null;
    TSNode fn = gm_child(call, syn->field.function);
    TSNode args = gm_child(call, syn->field.arguments);
    if (!gm_is(fn, syn->sym.attribute) || !gm_is(args, syn->sym.argument_list) ||
        ts_node_named_child_count(args) != 1 ||
        !gm_node_text_is(gm_child(fn, syn->field.attribute), st->text, "add"))
        return null;
    char set[sizeof REORDERABLE_SET + 1];
    if (!gm_symbols_resolve(st->symbols, syn, st->text, gm_child(fn, syn->field.object), set,
                            sizeof set) ||
        strcmp(set, REORDERABLE_SET) != 0)
        return null;
    return ts_node_named_child(args, 0);
}

bool gm_file_reorders_logging(const gm_stmt_ctx *st, const char *name) {
    if (st->options->torch_version < 203 || /* reorderable_logging_functions came in 2.3 */
        !st->symbols->mentions_reorderable_logging)
        return false;
    TSNode module = ts_node_parent(st->top);
    if (ts_node_is_null(module))
        return false;
    /* A cursor: ts_node_named_child(module, i) walks from the first child every time. */
    bool found = false;
    TSTreeCursor cursor = ts_tree_cursor_new(module);
    for (bool more = ts_tree_cursor_goto_first_child(&cursor); more && !found;
         more = ts_tree_cursor_goto_next_sibling(&cursor)) {
        TSNode child = ts_tree_cursor_current_node(&cursor);
        if (!gm_is(child, st->syntax->sym.expression_statement))
            continue;
        TSNode function = added_function(st, child);
        char added[GM_NAME_MAX];
        found =
            !ts_node_is_null(function) &&
            gm_symbols_resolve(st->symbols, st->syntax, st->text, function, added, sizeof added) &&
            strcmp(added, name) == 0;
    }
    ts_tree_cursor_delete(&cursor);
    return found;
}
