/* Why the analysis takes an operand for a tensor, said in a message: the first name in an
 * expression that the kind environment holds as a tensor for a recorded reason ("`x` is a tensor
 * because it is passed to `torch.tanh`"). */
#include "analysis/value_kinds/value_kinds.h"
#include "analysis/value_kinds/value_kinds_internal.h"

#include <stdio.h>

/* The first identifier of n bound to a tensor with a reason, or NULL: pre-order, the operands
 * that are tensors first (in `x.size(0) > 2 and mask.any()` the tensor tested is mask), then
 * left to right; attribute names, keyword names and nested scopes left out. */
static const gm_binding *first_explained(gm_region *r, TSNode n, TSNode *name, int depth) {
    const gm_syntax *syn = syn_of(r);
    if (ts_node_is_null(n) || depth > 32 || gm_is_nested_scope(syn, n))
        return NULL;
    if (gm_is(n, syn->sym.identifier)) {
        const gm_binding *b = gm_vk_env_find(&r->env, gm_node_slice(n, text_of(r)));
        if (b && b->kind == GM_KIND_TENSOR && b->because != GM_BECAUSE_NONE) {
            *name = n;
            return b;
        }
        return NULL;
    }
    if (gm_is(n, syn->sym.attribute))
        return first_explained(r, gm_child(n, syn->field.object), name, depth + 1);
    if (gm_is(n, syn->sym.keyword_argument))
        return first_explained(r, gm_child(n, syn->field.value), name, depth + 1);
    uint32_t count = ts_node_named_child_count(n);
    if (count > 64)
        count = 64;
    uint64_t tensors = 0;
    for (uint32_t i = 0; i < count; i++)
        if (gm_value_of(r, ts_node_named_child(n, i)).kind == GM_KIND_TENSOR)
            tensors |= (uint64_t)1 << i;
    for (int tensor_pass = 1; tensor_pass >= 0; tensor_pass--)
        for (uint32_t i = 0; i < count; i++) {
            if (((tensors >> i) & 1) != (uint64_t)tensor_pass)
                continue;
            const gm_binding *b = first_explained(r, ts_node_named_child(n, i), name, depth + 1);
            if (b)
                return b;
        }
    return NULL;
}

bool gm_kinds_tensor_because(gm_region *region, TSNode expr, char *out, size_t cap) {
    TSNode name = {0};
    const gm_binding *b = first_explained(region, expr, &name, 0);
    if (!b || cap < 16) {
        if (cap > 0)
            out[0] = '\0';
        return false;
    }
    char shown_name[48], evidence[64] = "";
    gm_node_shown(name, text_of(region), shown_name, sizeof shown_name);
    if (b->evidence_end > b->evidence_start && b->evidence_end <= region->stmt->len)
        gm_slice_shown((gm_slice){text_of(region) + b->evidence_start,
                                  b->evidence_end - b->evidence_start},
                       evidence, sizeof evidence);
    switch (b->because) {
    case GM_BECAUSE_ANNOTATED:
        snprintf(out, cap, "`%s` is a tensor because it is annotated `%s`", shown_name, evidence);
        break;
    case GM_BECAUSE_PASSED_TO:
        snprintf(out, cap, "`%s` is a tensor because it is passed to `%s`", shown_name, evidence);
        break;
    case GM_BECAUSE_TENSOR_METHOD:
        snprintf(out, cap, "`%s` is a tensor because the tensor method `.%s()` is called on it",
                 shown_name, evidence);
        break;
    case GM_BECAUSE_ASSIGNED:
        snprintf(out, cap, "`%s` is a tensor because it is assigned `%s`", shown_name, evidence);
        break;
    case GM_BECAUSE_RETURNED:
        snprintf(out, cap, "`%s` is a tensor because `%s` returns one in its place", shown_name,
                 evidence);
        break;
    case GM_BECAUSE_ITERATED:
        snprintf(out, cap, "`%s` is a tensor because it is an element of the tensor `%s`",
                 shown_name, evidence);
        break;
    case GM_BECAUSE_CALLERS_PASS:
        snprintf(out, cap, "`%s` is a tensor because every call in this file passes it one",
                 shown_name);
        break;
    case GM_BECAUSE_MODULES_PASS:
        snprintf(out, cap,
                 "`%s` is a tensor because compiled code in another module passes it one",
                 shown_name);
        break;
    case GM_BECAUSE_NONE:
        out[0] = '\0';
        return false;
    }
    return true;
}

bool gm_kinds_assigned_from(gm_region *region, TSNode identifier, TSNode *rhs) {
    const gm_syntax *syn = syn_of(region);
    *rhs = (TSNode){0};
    if (!gm_is(identifier, syn->sym.identifier))
        return false;
    const gm_binding *b = gm_vk_env_find(&region->env, gm_node_slice(identifier, text_of(region)));
    if (!b || b->kind != GM_KIND_TENSOR || b->because != GM_BECAUSE_ASSIGNED ||
        b->evidence_end <= b->evidence_start)
        return false;
    TSNode n = ts_node_descendant_for_byte_range(region->site.function, b->evidence_start,
                                                 b->evidence_end);
    /* the outermost node of exactly that range (an expression, not its first token) */
    for (TSNode up = ts_node_parent(n);
         !ts_node_is_null(up) && ts_node_start_byte(up) == b->evidence_start &&
         ts_node_end_byte(up) == b->evidence_end;
         up = ts_node_parent(up))
        n = up;
    if (ts_node_is_null(n) || ts_node_start_byte(n) != b->evidence_start ||
        ts_node_end_byte(n) != b->evidence_end)
        return false;
    *rhs = n;
    return true;
}
