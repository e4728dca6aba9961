#include "analysis/rules/tensor_rank.h"

#include <string.h>

#include "analysis/module_facts/symbols.h"
#include "analysis/regions/binding_lookup.h"

/* torch functions that return a 1-d tensor whatever their arguments (randperm, arange,
 * linspace, logspace); torch.tensor only for a flat list. */
static const char *const one_dim_makers[] = {"torch.arange", "torch.linspace", "torch.logspace",
                                             "torch.randperm", NULL};

/* Methods that keep the receiver's rank. */
static const char *const rank_keeping[] = {"to",   "long",  "int",    "float", "double", "half",
                                           "bfloat16", "cpu", "cuda", "clone", "detach", "flip",
                                           "contiguous", "type", NULL};

static bool word_in(const char *const *list, gm_slice s) {
    for (; *list; list++)
        if (gm_slice_is(s, *list))
            return true;
    return false;
}

/* A list or tuple display none of whose elements is itself a display or a splat. */
static bool is_flat_display(const gm_syntax *syn, TSNode n) {
    n = gm_unparen(syn, n);
    if (!gm_is(n, syn->sym.list) && !gm_is(n, syn->sym.tuple))
        return false;
    uint32_t count = ts_node_named_child_count(n);
    if (count == 0)
        return false;
    for (uint32_t i = 0; i < count; i++) {
        TSNode e = gm_unparen(syn, ts_node_named_child(n, i));
        const char *type = ts_node_type(e);
        if (gm_is(e, syn->sym.list) || gm_is(e, syn->sym.tuple) ||
            strcmp(type, "list_comprehension") == 0 || strcmp(type, "list_splat") == 0)
            return false;
    }
    return true;
}

/* `-1` (or `(-1,)`): the only size of a view that makes it 1-d. */
static bool is_minus_one_only(const gm_region *r, TSNode args) {
    const gm_syntax *syn = r->stmt->syntax;
    if (ts_node_named_child_count(args) != 1)
        return false;
    TSNode a = gm_unparen(syn, ts_node_named_child(args, 0));
    if ((gm_is(a, syn->sym.tuple) || gm_is(a, syn->sym.list)) && ts_node_named_child_count(a) == 1)
        a = gm_unparen(syn, ts_node_named_child(a, 0));
    gm_slice s = gm_node_slice(a, r->stmt->text);
    return gm_slice_is(s, "-1");
}

static bool one_dim(gm_region *r, TSNode n, bool locals, int depth);

/* A call that makes a 1-d tensor. */
static bool one_dim_call(gm_region *r, TSNode call, bool locals, int depth) {
    const gm_stmt_ctx *st = r->stmt;
    const gm_syntax *syn = st->syntax;
    TSNode fn = gm_unparen(syn, gm_child(call, syn->field.function));
    TSNode args = gm_child(call, syn->field.arguments);
    if (!gm_is(args, syn->sym.argument_list))
        return false;
    if (gm_is(fn, syn->sym.attribute)) {
        gm_slice method = gm_node_slice(gm_child(fn, syn->field.attribute), st->text);
        TSNode receiver = gm_child(fn, syn->field.object);
        if (gm_slice_is(method, "flatten") && ts_node_named_child_count(args) == 0)
            return true;
        if ((gm_slice_is(method, "view") || gm_slice_is(method, "reshape")) &&
            is_minus_one_only(r, args))
            return true;
        if (word_in(rank_keeping, method) && one_dim(r, receiver, locals, depth + 1))
            return true;
    }
    char resolved[GM_NAME_MAX];
    if (!gm_symbols_resolve(st->symbols, syn, st->text, fn, resolved, sizeof resolved))
        return false;
    for (const char *const *m = one_dim_makers; *m; m++)
        if (strcmp(resolved, *m) == 0)
            return true;
    if (strcmp(resolved, "torch.tensor") == 0 || strcmp(resolved, "torch.as_tensor") == 0 ||
        strcmp(resolved, "torch.LongTensor") == 0 || strcmp(resolved, "torch.IntTensor") == 0)
        return ts_node_named_child_count(args) > 0 &&
               is_flat_display(syn, ts_node_named_child(args, 0));
    return false;
}

#define MAX_ATTRIBUTE_VALUES 8

/* self.attr where every assignment of it in the class makes a 1-d tensor (an assignment from
 * the attribute itself, `self.t = self.t.to(device)`, keeps what it had). The values lie in other
 * methods, so their locals are not followed. */
static bool one_dim_attribute(gm_region *r, TSNode attribute, int depth) {
    const gm_syntax *syn = r->stmt->syntax;
    TSNode object = gm_unparen(syn, gm_child(attribute, syn->field.object));
    if (!gm_lookup_is_self(r, object))
        return false;
    gm_slice attr = gm_node_slice(gm_child(attribute, syn->field.attribute), r->stmt->text);
    TSNode values[MAX_ATTRIBUTE_VALUES];
    unsigned count = gm_lookup_method_attribute_values(r, attr, values, MAX_ATTRIBUTE_VALUES);
    if (count == 0 || count > MAX_ATTRIBUTE_VALUES)
        return false;
    unsigned making = 0;
    for (unsigned i = 0; i < count; i++) {
        TSNode v = gm_unparen(syn, values[i]);
        TSNode fn = gm_is(v, syn->sym.call) ? gm_unparen(syn, gm_child(v, syn->field.function))
                                            : (TSNode){0};
        bool from_itself =
            gm_is(fn, syn->sym.attribute) &&
            gm_slice_eq(gm_node_slice(gm_unparen(syn, gm_child(fn, syn->field.object)),
                                      r->stmt->text),
                        gm_node_slice(attribute, r->stmt->text));
        if (from_itself)
            continue;
        if (!one_dim(r, v, false, depth + 1))
            return false;
        making++;
    }
    return making > 0;
}

static bool one_dim(gm_region *r, TSNode n, bool locals, int depth) {
    const gm_syntax *syn = r->stmt->syntax;
    n = gm_unparen(syn, n);
    if (ts_node_is_null(n) || depth > 12)
        return false;
    if (gm_is(n, syn->sym.identifier)) {
        if (!locals)
            return false;
        TSNode value = gm_lookup_local(r, gm_node_slice(n, r->stmt->text), n);
        return !ts_node_is_null(value) && one_dim(r, value, locals, depth + 1);
    }
    if (gm_is(n, syn->sym.attribute))
        return locals && one_dim_attribute(r, n, depth);
    if (gm_is(n, syn->sym.call))
        return one_dim_call(r, n, locals, depth);
    return false;
}

bool gm_is_one_dim_tensor(gm_region *region, TSNode n) {
    return one_dim(region, n, true, 0);
}
