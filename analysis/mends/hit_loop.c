/* gm_mend_hit_loop (see hit_loop.h): a loop over the indices `nonzero()` finds, as GPT-OSS's
 * mixture-of-experts layers (and the OpenAI privacy filter) visit the experts some token was
 * routed to:
 *
 *     hit = (mask.sum(dim=(-1, -2)) > 0).nonzero()        hit = (mask.sum(dim=(-1, -2)) > 0)
 *     for e in hit:                                  ->   for e in range(hit.shape[0]):
 *         e = e[0]                                            (deleted)
 *
 * The loop visits every index instead of the hit ones, in the same ascending order, with e a
 * Python int instead of a one-element tensor; nonzero's data-dependent size goes. An index that
 * was not hit now runs the body too: equal when the body does nothing for an index with no
 * routed rows (an expert loop that gathers its tokens by the mask and adds back with index_add_,
 * which the dense expert loop mend then rewrites), and when the mask is one-dimensional (one
 * index per hit, which `e = e[0]` takes). Unsafe, and the title says so. */
#include <stdlib.h>
#include <string.h>

#include "analysis/mends/hit_loop.h"
#include "analysis/mends/rewrite_text.h"
#include "analysis/mends/value_uses.h"

/* Identifiers named name in n, from byte from on; *only is set to the single one (or null). */
static int count_names(const gm_syntax *syn, const char *text, TSNode n, gm_slice name,
                       uint32_t from, TSNode *only) {
    int count = 0;
    TSTreeCursor cursor = ts_tree_cursor_new(n);
    for (;;) {
        TSNode c = ts_tree_cursor_current_node(&cursor);
        if (ts_node_end_byte(c) > from && gm_is(c, syn->sym.identifier) &&
            ts_node_start_byte(c) >= from && gm_slice_eq(gm_node_slice(c, text), name)) {
            TSNode parent = ts_node_parent(c);
            bool member = gm_is(parent, syn->sym.attribute) &&
                          ts_node_eq(gm_child(parent, syn->field.attribute), c);
            bool keyword = gm_is(parent, syn->sym.keyword_argument) &&
                           ts_node_eq(gm_child(parent, syn->field.name), c);
            if (!member && !keyword) {
                count++;
                *only = c;
            }
        }
        if (ts_node_end_byte(c) > from && ts_tree_cursor_goto_first_child(&cursor))
            continue;
        while (!ts_tree_cursor_goto_next_sibling(&cursor))
            if (!ts_tree_cursor_goto_parent(&cursor)) {
                ts_tree_cursor_delete(&cursor);
                return count;
            }
    }
}

/* Whether stmt is `e = e[0]` for the name e. */
static bool takes_first(const gm_syntax *syn, const char *text, TSNode stmt, gm_slice e) {
    TSNode a = gm_is(stmt, syn->sym.expression_statement) && ts_node_named_child_count(stmt) == 1
                   ? ts_node_named_child(stmt, 0)
                   : (TSNode){0};
    if (!gm_is(a, syn->sym.assignment))
        return false;
    TSNode left = gm_child(a, syn->field.left), right = gm_child(a, syn->field.right);
    if (!gm_is(left, syn->sym.identifier) || !gm_slice_eq(gm_node_slice(left, text), e) ||
        !gm_is(right, syn->sym.subscript))
        return false;
    TSNode value = gm_child(right, syn->field.value);
    TSNode index = ts_node_named_child(right, 1);
    return ts_node_named_child_count(right) == 2 && gm_is(value, syn->sym.identifier) &&
           gm_slice_eq(gm_node_slice(value, text), e) && gm_is(index, syn->sym.integer) &&
           gm_node_text_is(index, text, "0");
}

static int decline(gm_region *region, const char *why) {
    region->mend_declined = why;
    return 0;
}

int gm_mend_hit_loop(gm_region *region, TSNode call, gm_fix *out) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    const char *text = st->text;
    TSNode fn = gm_child(call, syn->field.function);
    TSNode args = gm_child(call, syn->field.arguments);
    /* `<mask>.nonzero()` */
    if (!gm_is(call, syn->sym.call) || !gm_is(fn, syn->sym.attribute) ||
        !gm_node_text_is(gm_child(fn, syn->field.attribute), text, "nonzero") ||
        !gm_is(args, syn->sym.argument_list) || ts_node_named_child_count(args) != 0)
        return 0;
    TSNode assignment = ts_node_parent(call);
    TSNode stmt = ts_node_parent(assignment);
    TSNode hit = gm_is(assignment, syn->sym.assignment) ? gm_child(assignment, syn->field.left)
                                                        : (TSNode){0};
    if (!gm_is(hit, syn->sym.identifier) || !gm_is(stmt, syn->sym.expression_statement) ||
        !ts_node_eq(gm_child(assignment, syn->field.right), call))
        return 0;
    TSNode function = gm_mend_enclosing_function(syn, stmt);
    if (ts_node_is_null(function))
        return 0;
    /* its one use: the iterable of `for e in hit:` whose body starts with `e = e[0]` */
    TSNode use = {0};
    gm_slice hit_name = gm_node_slice(hit, text);
    if (count_names(syn, text, function, hit_name, ts_node_end_byte(stmt), &use) != 1)
        return 0;
    TSNode loop = ts_node_parent(use);
    if (!gm_is(loop, syn->sym.for_statement) || !ts_node_eq(gm_child(loop, syn->field.right), use))
        return 0;
    TSNode e = gm_child(loop, syn->field.left);
    TSNode body = gm_child(loop, syn->field.body);
    TSNode first = {0};
    uint32_t count = ts_node_is_null(body) ? 0 : ts_node_named_child_count(body);
    for (uint32_t i = 0; i < count && ts_node_is_null(first); i++)
        if (!gm_is(ts_node_named_child(body, i), syn->sym.comment))
            first = ts_node_named_child(body, i);
    if (!gm_is(e, syn->sym.identifier) || ts_node_is_null(first) ||
        !takes_first(syn, text, first, gm_node_slice(e, text)))
        return decline(region, "the loop over the nonzero() indices does not take each index "
                               "as `e = e[0]` first");
    TSNode after = {0};
    if (count_names(syn, text, function, gm_node_slice(e, text), ts_node_end_byte(loop), &after) != 0)
        return decline(region, "the loop's index is used after the loop");
    gm_stmt_layout layout;
    gm_stmt_layout_of(text, st->len, first, &layout);
    uint32_t end = ts_node_end_byte(first);
    size_t newline = strlen(layout.newline);
    if (!layout.alone || end + newline > st->len ||
        strncmp(text + end, layout.newline, newline) != 0)
        return decline(region, "the statement `e = e[0]` shares its line with another");
    end += (uint32_t)newline;
    /* the mask instead of its indices, every index instead of the hit ones, the rename gone */
    gm_text_builder tb;
    gm_tb_init(&tb);
    gm_tb_appendf(&tb, "range(%.*s.shape[0])", (int)hit_name.len, hit_name.ptr);
    char *every = gm_tb_take(&tb);
    char *none = strdup(""), *gone = strdup("");
    if (!every || !none || !gone) {
        free(every), free(none), free(gone);
        return -1;
    }
    if (gm_mend_fix_single(out, GM_FIX_UNSAFE, "loop over every index, not nonzero's",
                           "Mend graph break: loop over every index of the mask instead of the "
                           "ones nonzero() finds (unsafe: the body also runs for the indices not "
                           "hit; equal when it does nothing for them, as an expert loop with no "
                           "routed tokens, and when the mask is one-dimensional)",
                           ts_node_end_byte(gm_child(fn, syn->field.object)), ts_node_end_byte(call),
                           none) < 0) {
        free(every), free(gone);
        return -1;
    }
    /* gm_mend_fix_add_edit frees its replacement when it fails */
    if (gm_mend_fix_add_edit(out, ts_node_start_byte(use), ts_node_end_byte(use), every) < 0) {
        free(gone);
        gm_fix_free(out);
        return -1;
    }
    if (gm_mend_fix_add_edit(out, layout.line_start, end, gone) < 0) {
        gm_fix_free(out);
        return -1;
    }
    return 1;
}

/* The value of the last `name = <value>` of loop's function before loop (in any block: the
 * binding may sit in a `with torch.no_grad():`), or a null node. gm_mend_hit_loop checks that
 * nothing else binds or reads the name after it. */
static TSNode last_binding(const gm_syntax *syn, const char *text, TSNode loop, gm_slice name) {
    TSNode function = gm_mend_enclosing_function(syn, loop);
    TSNode found = {0};
    if (ts_node_is_null(function))
        return found;
    TSTreeCursor cursor = ts_tree_cursor_new(function);
    for (;;) {
        TSNode c = ts_tree_cursor_current_node(&cursor);
        bool before = ts_node_end_byte(c) <= ts_node_start_byte(loop);
        if (before && gm_is(c, syn->sym.assignment)) {
            TSNode left = gm_child(c, syn->field.left);
            if (gm_is(left, syn->sym.identifier) && gm_slice_eq(gm_node_slice(left, text), name))
                found = gm_child(c, syn->field.right);
        }
        bool descend = ts_node_start_byte(c) < ts_node_start_byte(loop) &&
                       (ts_node_eq(c, function) || !gm_is_nested_scope(syn, c));
        if (descend && ts_tree_cursor_goto_first_child(&cursor))
            continue;
        bool moved = false;
        while (!(moved = ts_tree_cursor_goto_next_sibling(&cursor)))
            if (!ts_tree_cursor_goto_parent(&cursor))
                break;
        if (!moved)
            break;
    }
    ts_tree_cursor_delete(&cursor);
    return found;
}

/* The loop index e of `for e in hit:` over hit = `<mask>.nonzero()` named in n (an operand of a
 * test), or a null node. */
static TSNode hit_index_call(gm_region *region, TSNode n, int depth) {
    const gm_syntax *syn = region->stmt->syntax;
    const char *text = region->stmt->text;
    n = gm_unparen(syn, n);
    if (ts_node_is_null(n) || depth > 6)
        return (TSNode){0};
    if (!gm_is(n, syn->sym.identifier)) {
        uint32_t count = ts_node_named_child_count(n);
        for (uint32_t i = 0; i < count; i++) {
            TSNode found = hit_index_call(region, ts_node_named_child(n, i), depth + 1);
            if (!ts_node_is_null(found))
                return found;
        }
        return (TSNode){0};
    }
    gm_slice e = gm_node_slice(n, text);
    for (TSNode loop = ts_node_parent(n); !ts_node_is_null(loop) && !gm_is_nested_scope(syn, loop);
         loop = ts_node_parent(loop)) {
        if (!gm_is(loop, syn->sym.for_statement))
            continue;
        TSNode left = gm_child(loop, syn->field.left), right = gm_child(loop, syn->field.right);
        if (!gm_is(left, syn->sym.identifier) || !gm_slice_eq(gm_node_slice(left, text), e) ||
            !gm_is(right, syn->sym.identifier))
            return (TSNode){0};
        TSNode value = last_binding(syn, text, loop, gm_node_slice(right, text));
        return !ts_node_is_null(value) && gm_is(gm_unparen(syn, value), syn->sym.call)
                   ? gm_unparen(syn, value)
                   : (TSNode){0};
    }
    return (TSNode){0};
}

int gm_mend_hit_loop_of_test(gm_region *region, TSNode condition, gm_fix *out) {
    TSNode call = hit_index_call(region, condition, 0);
    if (ts_node_is_null(call))
        return 0;
    const char *why = region->mend_declined;
    int rc = gm_mend_hit_loop(region, call, out);
    if (rc == 0)
        region->mend_declined = why;
    return rc;
}
