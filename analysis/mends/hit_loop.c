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
 * index per hit, which `e = e[0]` takes). Unsafe, and the title says so.
 *
 * What the mend relies on, checked on the code: the mask's indices are the classes of a
 * `one_hot(..., num_classes=K)` (through any chain of method calls on it: a permute), so that
 * every index the loop now visits names a class, or the mend is declined with the reason. When
 * K is `A + n` (classes beyond A for tokens an expert drops, with no expert of their own) and
 * the body does not skip them first (`if e == A: continue`), the loop runs over `range(A)`:
 * visiting them would index past the experts (an IndexError the original never meets, as no
 * token is routed there), and where a token is routed there the original raises itself. */
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

static TSNode last_binding(const gm_syntax *syn, const char *text, TSNode loop, gm_slice name);

/* The identifier whose `.sum(...)` the hit mask reduces (`torch.greater(mask.sum(dim=...), 0)`,
 * `(mask.sum(-1) > 0)`), looked for in n; a null node when there is none. */
static TSNode summed_mask(const gm_syntax *syn, const char *text, TSNode n, int depth) {
    if (ts_node_is_null(n) || depth > 8)
        return (TSNode){0};
    if (gm_is(n, syn->sym.attribute) &&
        gm_node_text_is(gm_child(n, syn->field.attribute), text, "sum") &&
        gm_is(gm_child(n, syn->field.object), syn->sym.identifier))
        return gm_child(n, syn->field.object);
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; i++) {
        TSNode found = summed_mask(syn, text, ts_node_named_child(n, i), depth + 1);
        if (!ts_node_is_null(found))
            return found;
    }
    return (TSNode){0};
}

/* The class count of the one_hot the mask named name comes from, before node: following
 * `name = name.permute(...)`-like rebindings back to `name = <...>.one_hot(x, num_classes=K)`
 * (or K passed second). A null node when the mask is not a one-hot of a known class count. */
static TSNode one_hot_classes(const gm_syntax *syn, const char *text, TSNode node, gm_slice name) {
    TSNode value = {0};
    for (int step = 0; step < 16; step++) {
        if (ts_node_is_null(value))
            value = gm_unparen(syn, last_binding(syn, text, node, name));
        if (!gm_is(value, syn->sym.call))
            return (TSNode){0};
        TSNode fn = gm_child(value, syn->field.function);
        TSNode args = gm_child(value, syn->field.arguments);
        TSNode callee = gm_is(fn, syn->sym.attribute) ? gm_child(fn, syn->field.attribute) : fn;
        if (gm_node_text_is(callee, text, "one_hot")) {
            uint32_t count = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
            uint32_t positional = 0;
            for (uint32_t i = 0; i < count; i++) {
                TSNode a = ts_node_named_child(args, i);
                if (gm_is(a, syn->sym.keyword_argument)) {
                    if (gm_node_text_is(gm_child(a, syn->field.name), text, "num_classes"))
                        return gm_child(a, syn->field.value);
                } else if (positional++ == 1) {
                    return a;
                }
            }
            return (TSNode){0};
        }
        /* `one_hot(...).permute(2, 1, 0)`, `name = name.permute(2, 1, 0)`: the same mask,
         * rearranged */
        TSNode object = gm_is(fn, syn->sym.attribute)
                            ? gm_unparen(syn, gm_child(fn, syn->field.object))
                            : (TSNode){0};
        if (gm_is(object, syn->sym.call)) {
            value = object;
            continue;
        }
        if (!gm_is(object, syn->sym.identifier) || !gm_slice_eq(gm_node_slice(object, text), name))
            return (TSNode){0};
        node = value;
        value = (TSNode){0};
    }
    return (TSNode){0};
}

/* Whether stmt is `if e == A: continue` (or `e >= A`) for the index e and the bound A. */
static bool skips_from(const gm_syntax *syn, const char *text, TSNode stmt, gm_slice e,
                       gm_slice bound) {
    if (!gm_is(stmt, syn->sym.if_statement) || ts_node_named_child_count(stmt) != 2)
        return false; /* no elif / else */
    TSNode test = gm_unparen(syn, gm_child(stmt, syn->field.condition));
    TSNode body = gm_child(stmt, syn->field.consequence);
    if (!gm_is(test, syn->sym.comparison_operator) || ts_node_named_child_count(test) != 2 ||
        ts_node_is_null(body) || ts_node_named_child_count(body) != 1 ||
        !gm_is(ts_node_named_child(body, 0), syn->sym.continue_statement))
        return false;
    TSNode left = ts_node_named_child(test, 0), right = ts_node_named_child(test, 1);
    TSNode op = ts_node_child(test, 1);
    gm_slice spelled = gm_node_slice(op, text);
    return gm_is(left, syn->sym.identifier) && gm_slice_eq(gm_node_slice(left, text), e) &&
           gm_slice_eq(gm_node_slice(right, text), bound) &&
           (gm_slice_is(spelled, "==") || gm_slice_is(spelled, ">="));
}

/* Why the indices the mended loop visits cannot be made ones the body can use (NULL: they
 * can): the mask of the nonzero() call hit_call must be a one-hot of a known class count.
 * *bound is set to `A` of `num_classes=A + n` when the body does not skip the classes from A
 * on itself (the statement after first): the loop must then stop before them. */
static const char *unvisitable_indices(const gm_syntax *syn, const char *text, TSNode hit_call,
                                       TSNode stmt, TSNode first, gm_slice e, gm_slice *bound) {
    *bound = (gm_slice){0};
    TSNode fn = gm_child(hit_call, syn->field.function);
    TSNode mask = summed_mask(syn, text, gm_child(fn, syn->field.object), 0);
    TSNode classes = ts_node_is_null(mask)
                         ? mask
                         : one_hot_classes(syn, text, stmt, gm_node_slice(mask, text));
    if (ts_node_is_null(classes))
        return "the mask is not a one_hot of a known number of classes: the mended loop would "
               "visit indices the body may not be able to index";
    classes = gm_unparen(syn, classes);
    if (!gm_is(classes, syn->sym.binary_operator))
        return NULL;
    TSNode op = ts_node_child(classes, 1), extra = gm_child(classes, syn->field.right);
    if (!gm_slice_is(gm_node_slice(op, text), "+") || !gm_is(extra, syn->sym.integer))
        return NULL;
    TSNode experts = gm_child(classes, syn->field.left);
    gm_slice spelled = gm_node_slice(experts, text);
    TSNode next = ts_node_next_named_sibling(first);
    while (!ts_node_is_null(next) && gm_is(next, syn->sym.comment))
        next = ts_node_next_named_sibling(next);
    if (!ts_node_is_null(next) && skips_from(syn, text, next, e, spelled))
        return NULL;
    if (!gm_mend_is_primary(syn, experts) ||
        gm_text_has_word(text, ts_node_start_byte(experts), ts_node_end_byte(experts), e))
        return "the one_hot has classes beyond the experts (num_classes=A + n) the loop does not "
               "skip, and `A` is not a plain value the loop can stop at";
    *bound = spelled;
    return NULL;
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
    gm_slice bound;
    const char *unvisitable =
        unvisitable_indices(syn, text, call, stmt, first, gm_node_slice(e, text), &bound);
    if (unvisitable)
        return decline(region, unvisitable);
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
    if (bound.len)
        gm_tb_appendf(&tb, "range(%.*s)", (int)bound.len, bound.ptr);
    else
        gm_tb_appendf(&tb, "range(%.*s.shape[0])", (int)hit_name.len, hit_name.ptr);
    char *every = gm_tb_take(&tb);
    char *none = strdup(""), *gone = strdup("");
    if (!every || !none || !gone) {
        free(every), free(none), free(gone);
        return -1;
    }
    const char *title =
        bound.len ? "Mend graph break: loop over every expert instead of the ones nonzero() "
                    "finds, stopping before the one-hot's classes that have no expert (unsafe: "
                    "the body also runs for the experts not hit; equal when it does nothing for "
                    "them, as an expert loop with no routed tokens; a token routed past the "
                    "experts, where the original raises, is skipped)"
                  : "Mend graph break: loop over every index of the mask instead of the "
                    "ones nonzero() finds (unsafe: the body also runs for the indices not "
                    "hit; equal when it does nothing for them, as an expert loop with no "
                    "routed tokens, and when the mask is one-dimensional)";
    if (gm_mend_fix_single(out, GM_FIX_UNSAFE, "loop over every index, not nonzero's", title,
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
