/* What is known about a tensor beyond its kind: whether it is a boolean mask, an element of a
 * tensor a `for` loop iterates over, or a tensor by a guess only. */
#include "analysis/value_kinds/value_kinds.h"
#include "analysis/value_kinds/value_kinds_internal.h"

#include <string.h>

/* A comparison with only ==, !=, <, <=, >, >= (not is, in): a bool, or a boolean tensor. */
bool gm_vk_is_order_comparison(gm_region *r, TSNode n) {
    const gm_syntax *syn = syn_of(r);
    if (!gm_is(n, syn->sym.comparison_operator))
        return false;
    bool any = false, ok = true;
    TSTreeCursor cursor = ts_tree_cursor_new(n);
    if (ts_tree_cursor_goto_first_child(&cursor)) {
        do {
            if (ts_tree_cursor_current_field_id(&cursor) != syn->field.operators)
                continue;
            const char *t = ts_node_type(ts_tree_cursor_current_node(&cursor));
            any = true;
            if (strcmp(t, "<") != 0 && strcmp(t, ">") != 0 && strcmp(t, "<=") != 0 &&
                strcmp(t, ">=") != 0 && strcmp(t, "==") != 0 && strcmp(t, "!=") != 0)
                ok = false;
        } while (ok && ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
    return any && ok;
}

/* Tensor methods whose result keeps the receiver's dtype (`to` only without a dtype). */
static const char *const mask_keeping_methods[] = {
    "to",      "clone",  "detach",   "contiguous", "cpu",     "cuda", "unsqueeze",
    "squeeze", "expand", "expand_as", "view",      "reshape", "flatten", "repeat",
    NULL};

/* Whether an argument of call mentions a dtype (`.to(x.dtype)`, `.to(torch.float16)`,
 * `.to(device, dtype=...)`): a `.to` that may change what a mask holds. */
static bool names_a_dtype(gm_region *r, TSNode call) {
    const gm_syntax *syn = syn_of(r);
    TSNode args = gm_child(call, syn->field.arguments);
    if (ts_node_is_null(args))
        return false;
    gm_slice text = gm_node_slice(args, text_of(r));
    for (uint32_t i = 0; i + 5 <= text.len; i++)
        if (memcmp(text.ptr + i, "dtype", 5) == 0 || memcmp(text.ptr + i, "torch", 5) == 0)
            return true;
    return false;
}

/* Whether node names torch.bool (through the file's imports). */
static bool names_torch_bool(gm_region *r, TSNode node) {
    char name[GM_NAME_MAX];
    return gm_symbols_resolve(r->stmt->symbols, syn_of(r), text_of(r), gm_unparen(syn_of(r), node),
                              name, sizeof name) &&
           strcmp(name, "torch.bool") == 0;
}

/* Whether a call makes a boolean tensor by its dtype: a tensor factory or conversion given
 * `dtype=torch.bool` (`torch.zeros(n, dtype=torch.bool)`, `x.new_ones(s, dtype=torch.bool)`),
 * or `x.to(torch.bool)` / `x.type(torch.bool)`. */
static bool makes_bool_tensor(gm_region *r, TSNode call) {
    const gm_syntax *syn = syn_of(r);
    TSNode args = gm_child(call, syn->field.arguments);
    if (ts_node_is_null(args) || !gm_slice_contains(gm_node_slice(args, text_of(r)), "bool"))
        return false;
    uint32_t count = ts_node_named_child_count(args);
    bool bool_dtype = false;
    for (uint32_t i = 0; i < count && !bool_dtype; i++) {
        TSNode a = ts_node_named_child(args, i);
        if (gm_is(a, syn->sym.keyword_argument))
            bool_dtype = gm_node_text_is(gm_child(a, syn->field.name), text_of(r), "dtype") &&
                         names_torch_bool(r, gm_child(a, syn->field.value));
    }
    if (!bool_dtype && count > 0) {
        TSNode fn = gm_unparen(syn, gm_child(call, syn->field.function));
        TSNode attr = gm_is(fn, syn->sym.attribute) ? gm_child(fn, syn->field.attribute)
                                                    : (TSNode){0};
        bool converts = !ts_node_is_null(attr) && (gm_node_text_is(attr, text_of(r), "to") ||
                                                   gm_node_text_is(attr, text_of(r), "type"));
        bool_dtype = converts && names_torch_bool(r, ts_node_named_child(args, 0));
    }
    return bool_dtype && gm_value_of(r, call).kind == GM_KIND_TENSOR;
}

static bool is_mask(gm_region *r, TSNode n, int depth) {
    const gm_syntax *syn = syn_of(r);
    n = gm_unparen(syn, n);
    if (ts_node_is_null(n) || depth > 16)
        return false;
    if (gm_vk_is_order_comparison(r, n))
        return gm_value_of(r, n).kind == GM_KIND_TENSOR;
    if (gm_is(n, syn->sym.identifier) || gm_vk_is_self_attribute(r, n)) {
        gm_slice name = gm_node_slice(n, text_of(r));
        const gm_binding *b = gm_vk_env_find(&r->env, name);
        return b && b->kind == GM_KIND_TENSOR && gm_vk_mark_of(r, name) == GM_MARK_MASK;
    }
    if (gm_is(n, syn->sym.unary_operator)) {
        TSNode op = gm_child(n, syn->field.operator);
        return !ts_node_is_null(op) && strcmp(ts_node_type(op), "~") == 0 &&
               is_mask(r, gm_child(n, syn->field.argument), depth + 1);
    }
    if (gm_is(n, syn->sym.binary_operator)) {
        TSNode op = gm_child(n, syn->field.operator);
        const char *t = ts_node_is_null(op) ? "" : ts_node_type(op);
        TSNode left = gm_child(n, syn->field.left), right = gm_child(n, syn->field.right);
        /* the product of two boolean tensors is a boolean tensor (their logical and: kornia's
         * `detections * (ratio >= t)`); with a number or a float tensor it is not */
        if (strcmp(t, "*") == 0)
            return is_mask(r, left, depth + 1) && is_mask(r, right, depth + 1);
        if (strcmp(t, "&") != 0 && strcmp(t, "|") != 0 && strcmp(t, "^") != 0)
            return false;
        /* `a | b` of two tensors is taken for a mask even when neither is known to be one
         * (`image_mask | video_mask` of annotated parameters): integer bitwise arithmetic is
         * not what code indexes or branches with */
        bool lt = gm_value_of(r, left).kind == GM_KIND_TENSOR;
        bool rt = gm_value_of(r, right).kind == GM_KIND_TENSOR;
        if (lt && rt)
            return true;
        bool lm = is_mask(r, left, depth + 1), rm = is_mask(r, right, depth + 1);
        return (lm && rm) || (lm && rt) || (rm && lt);
    }
    if (gm_is(n, syn->sym.call)) {
        if (makes_bool_tensor(r, n))
            return true;
        TSNode fn = gm_unparen(syn, gm_child(n, syn->field.function));
        if (gm_is(fn, syn->sym.attribute)) {
            TSNode attr = gm_child(fn, syn->field.attribute);
            TSNode head = gm_chain_head(syn, fn);
            char name[GM_NAME_MAX];
            if (!ts_node_is_null(head) && !gm_vk_head_is_local(r, head) &&
                gm_symbols_resolve(r->stmt->symbols, syn, text_of(r), fn, name, sizeof name) &&
                strncmp(name, "torch.", 6) == 0) {
                /* torch.isnan(x), torch.logical_and(a, b) */
                const char *last = strrchr(name, '.') + 1;
                TSNode arg = gm_vk_first_argument(r, n);
                return strchr(name + 6, '.') == NULL && gm_vk_in_list(gm_vk_mask_methods, last) &&
                       strcmp(last, "bool") != 0 && !ts_node_is_null(arg) &&
                       gm_value_of(r, arg).kind == GM_KIND_TENSOR;
            }
            if (ts_node_is_null(attr))
                return false;
            gm_slice method = gm_node_slice(attr, text_of(r));
            TSNode object = gm_child(fn, syn->field.object);
            /* a mask moved or reshaped is still a mask: `m.to(x.device)`, `m.unsqueeze(-1)` */
            if (gm_vk_slice_in_list(mask_keeping_methods, method) &&
                is_mask(r, object, depth + 1))
                return !gm_slice_is(method, "to") || !names_a_dtype(r, n);
            gm_kind recv = gm_value_of(r, object).kind;
            /* only tensors have .bool() */
            if (gm_slice_is(method, "bool"))
                return recv == GM_KIND_TENSOR || recv == GM_KIND_UNKNOWN;
            return gm_vk_slice_in_list(gm_vk_mask_methods, method) && recv == GM_KIND_TENSOR;
        }
    }
    return false;
}

bool gm_kinds_is_order_comparison(gm_region *region, TSNode n) {
    return gm_vk_is_order_comparison(region, n);
}

bool gm_kinds_is_mask(gm_region *region, TSNode expr) {
    return is_mask(region, expr, 0);
}

bool gm_kinds_is_iteration_element(gm_region *region, TSNode identifier) {
    if (!gm_is(identifier, syn_of(region)->sym.identifier))
        return false;
    gm_slice name = gm_node_slice(identifier, text_of(region));
    const gm_binding *b = gm_vk_env_find(&region->env, name);
    return b && b->kind == GM_KIND_TENSOR && gm_vk_mark_of(region, name) == GM_MARK_ELEM;
}

bool gm_kinds_is_guessed_tensor(gm_region *region, TSNode expr) {
    const gm_syntax *syn = syn_of(region);
    expr = gm_unparen(syn, expr);
    if (gm_is(expr, syn->sym.identifier)) {
        return gm_vk_mark_of(region, gm_node_slice(expr, text_of(region))) == GM_MARK_GUESSED;
    }
    return gm_is(expr, syn->sym.call) &&
           gm_vk_is_submodule(region, gm_child(expr, syn->field.function));
}
