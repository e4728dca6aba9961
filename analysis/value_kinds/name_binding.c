/* Binding names to kinds: assignments (tuple targets element-wise, marks for masks,
 * comparisons and guessed tensors, compile-time constants), augmented assignments, `for`
 * targets, and the evidence a tensor-only method call gives about its receiver. */
#include "analysis/value_kinds/value_kinds.h"
#include "analysis/value_kinds/value_kinds_internal.h"

#include <string.h>

static bool is_target_pattern(const gm_syntax *syn, TSNode n) {
    return gm_is(n, syn->sym.pattern_list) || gm_is(n, syn->sym.tuple_pattern) ||
           gm_is(n, syn->sym.list_pattern);
}

static bool is_sequence_literal(const gm_syntax *syn, TSNode n) {
    return gm_is(n, syn->sym.expression_list) || gm_is(n, syn->sym.tuple) ||
           gm_is(n, syn->sym.list);
}

bool gm_vk_has_splat(const gm_syntax *syn, TSNode n) {
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; i++) {
        TSNode c = ts_node_named_child(n, i);
        if (gm_is(c, syn->sym.list_splat_pattern) || strcmp(ts_node_type(c), "list_splat") == 0)
            return true;
    }
    return false;
}

/* Why the names bind takes get their kind, and the source that says so. */
typedef struct {
    gm_tensor_because because;
    TSNode evidence;
} provenance;

static const provenance unsaid = {GM_BECAUSE_NONE, {{0}, 0, 0}};

bool gm_vk_is_self_attribute(const gm_region *r, TSNode n) {
    const gm_syntax *syn = syn_of(r);
    if (!gm_is(n, syn->sym.attribute))
        return false;
    TSNode object = gm_child(n, syn->field.object), attr = gm_child(n, syn->field.attribute);
    return !ts_node_is_null(attr) && gm_is(object, syn->sym.identifier) && gm_vk_is_self(r, object) &&
           ts_node_end_byte(object) + 1 == ts_node_start_byte(attr) &&
           ts_node_end_byte(attr) == ts_node_end_byte(n);
}

static void bind(gm_region *r, TSNode target, gm_kind kind, provenance why, int depth) {
    const gm_syntax *syn = syn_of(r);
    if (ts_node_is_null(target) || depth > 64)
        return;
    /* `self.mask = x > 0` in the method: later reads of self.mask in it are that tensor (a
     * value of another kind says less than what the class says of the attribute: a module's
     * attribute may hold nn.Parameter, which the kinds call static) */
    if (gm_vk_is_self_attribute(r, target) && kind != GM_KIND_TENSOR)
        return;
    if (gm_is(target, syn->sym.identifier) || gm_vk_is_self_attribute(r, target)) {
        gm_vk_env_set_because(r, gm_node_slice(target, text_of(r)), kind, why.because,
                              why.evidence);
        return;
    }
    if (gm_is(target, syn->sym.list_splat_pattern)) {
        bind(r, ts_node_named_child(target, 0), GM_KIND_UNKNOWN, unsaid, depth + 1);
        return;
    }
    if (is_target_pattern(syn, target) || gm_is(target, syn->sym.parenthesized_expression)) {
        uint32_t count = ts_node_named_child_count(target);
        for (uint32_t i = 0; i < count; i++)
            bind(r, ts_node_named_child(target, i), kind, why, depth + 1);
    }
}

void gm_kinds_bind(gm_region *region, TSNode target, gm_kind kind) {
    bind(region, target, kind, unsaid, 0);
}

/* Whether a constant value comes from what torch.compile folds (is_compiling(), self.training,
 * ...) rather than from a literal: `use_cache = False` is a default that later code may
 * change on some paths, `is_tracing = torch.jit.is_tracing() or is_compiling()` is not. */
static bool is_folded_call(gm_region *r, TSNode rhs) {
    const gm_syntax *syn = syn_of(r);
    for (int depth = 0; depth < 8; depth++) {
        rhs = gm_unparen(syn, rhs);
        if (!gm_is(rhs, syn->sym.not_operator))
            break;
        rhs = gm_child(rhs, syn->field.argument);
    }
    return !gm_is(rhs, syn->sym.true_literal) && !gm_is(rhs, syn->sym.false_literal);
}

/* Whether the assignment target is in a statement directly in the function body: the names
 * are flow-insensitive, so a constant assigned under an `if` or in a loop (which may not run,
 * or run after a test of the name) is not taken as the name's value. */
static bool is_top_level(gm_region *r, TSNode target) {
    const gm_syntax *syn = syn_of(r);
    TSNode n = ts_node_parent(target); /* the assignment, or the pattern an element is of */
    while (gm_is(n, syn->sym.pattern_list) || gm_is(n, syn->sym.tuple_pattern) ||
           gm_is(n, syn->sym.list_pattern))
        n = ts_node_parent(n); /* `p, flag = self.p, self.training`: element by element */
    while (gm_is(n, syn->sym.assignment))
        n = ts_node_parent(n);
    if (!gm_is(n, syn->sym.expression_statement))
        return false;
    TSNode block = ts_node_parent(n);
    return gm_is(block, syn->sym.block) && ts_node_eq(ts_node_parent(block), r->site.function);
}

static void assign(gm_region *r, TSNode target, TSNode rhs, int depth) {
    const gm_syntax *syn = syn_of(r);
    if (ts_node_is_null(target) || ts_node_is_null(rhs) || depth > 64)
        return;
    if (gm_is(rhs, syn->sym.assignment)) {
        /* a = b = v: bind b first, then a to v. */
        assign(r, gm_child(rhs, syn->field.left), gm_child(rhs, syn->field.right), depth + 1);
        assign(r, target, gm_child(rhs, syn->field.right), depth + 1);
        return;
    }
    if (is_target_pattern(syn, target) && is_sequence_literal(syn, rhs) &&
        ts_node_named_child_count(target) == ts_node_named_child_count(rhs) &&
        !gm_vk_has_splat(syn, target) && !gm_vk_has_splat(syn, rhs)) {
        uint32_t count = ts_node_named_child_count(target);
        for (uint32_t i = 0; i < count; i++)
            assign(r, ts_node_named_child(target, i), ts_node_named_child(rhs, i), depth + 1);
        return;
    }
    /* `a, b = self.m(...)` where m returns a tuple display: element by element. */
    if (is_target_pattern(syn, target) && gm_is(rhs, syn->sym.call) &&
        !gm_vk_has_splat(syn, target)) {
        gm_kind kinds[16];
        uint32_t count = ts_node_named_child_count(target);
        if (count <= 16 && gm_vk_call_returns_tuple(r, rhs, kinds, count)) {
            for (uint32_t i = 0; i < count; i++)
                bind(r, ts_node_named_child(target, i), kinds[i],
                     (provenance){GM_BECAUSE_RETURNED, rhs}, 0);
            return;
        }
        /* `a, b = f(...)` where f is annotated `-> Tuple[Tensor, Tensor]` */
        gm_return_kinds declared = gm_vk_declared_returns(r, rhs);
        if (declared.arity == count) {
            for (uint32_t i = 0; i < count; i++)
                bind(r, ts_node_named_child(target, i),
                     declared.tensors >> i & 1u ? GM_KIND_TENSOR : GM_KIND_UNKNOWN,
                     (provenance){GM_BECAUSE_RETURNED, rhs}, 0);
            return;
        }
    }
    /* `stride = strides[i]` in a module-level function: an element of a parameter its callers
     * (in the file, or compiled code of other modules) pass a tensor to. Not for methods: their
     * callers are looked for only where a rule needs it (a search over the file's classes). */
    TSNode element_of = gm_unparen(syn, rhs);
    if (ts_node_is_null(r->site.class_node) && gm_is(element_of, syn->sym.subscript) &&
        ts_node_named_child_count(element_of) == 2 &&
        (gm_is(ts_node_named_child(element_of, 1), syn->sym.identifier) ||
         strcmp(ts_node_type(ts_node_named_child(element_of, 1)), "integer") == 0)) {
        /* one element (`strides[i]`, `strides[0]`), not a slice of an input (`x[..., :h]`) */
        TSNode value = gm_unparen(syn, gm_child(element_of, syn->field.value));
        if (gm_is(value, syn->sym.identifier) &&
            !gm_vk_env_find(&r->env, gm_node_slice(value, text_of(r))))
            gm_vk_resolve_parameter(r, value);
    }
    /* Unpacking a tensor yields tensors, a shape yields ints, unknown yields unknown. */
    unsigned conditional_before = r->conditional_calls;
    gm_value v = gm_value_of(r, rhs);
    /* before the binding replaces what the right side reads (`m = m.to(x.device)`) */
    bool mask = v.kind == GM_KIND_TENSOR && gm_kinds_is_mask(r, rhs);
    /* a tensor only when a method of the file returns one on its path */
    bool conditional = false;
    if (v.kind == GM_KIND_TENSOR && r->conditional_calls != conditional_before &&
        !r->conditional_tensors_off) {
        r->conditional_tensors_off = true;
        conditional = gm_value_of(r, rhs).kind != GM_KIND_TENSOR;
        r->conditional_tensors_off = false;
    }
    bind(r, target, v.kind, (provenance){GM_BECAUSE_ASSIGNED, rhs}, 0);
    if (gm_is(target, syn->sym.identifier) || gm_vk_is_self_attribute(r, target)) {
        gm_slice name = gm_node_slice(target, text_of(r));
        if (conditional)
            gm_vk_mark_set(r, name, GM_MARK_CONDITIONAL);
        else if (mask)
            gm_vk_mark_set(r, name, GM_MARK_MASK);
        else if (v.kind == GM_KIND_UNKNOWN && gm_vk_is_order_comparison(r, gm_unparen(syn, rhs)))
            gm_vk_mark_set(r, name, GM_MARK_CMP);
        else if (v.kind == GM_KIND_TENSOR && gm_is(gm_unparen(syn, rhs), syn->sym.call) &&
                 gm_vk_is_submodule(r, gm_child(gm_unparen(syn, rhs), syn->field.function)))
            gm_vk_mark_set(r, name, GM_MARK_GUESSED); /* an inherited method may return an int */
    }
    if (v.constant >= 0 && gm_is(target, syn->sym.identifier) && is_folded_call(r, rhs) &&
        is_top_level(r, target))
        gm_vk_constant_set(r, gm_node_slice(target, text_of(r)), v.constant);
}

void gm_kinds_assign(gm_region *region, TSNode target, TSNode rhs) {
    assign(region, target, rhs, 0);
}

void gm_kinds_augment(gm_region *region, TSNode target, TSNode rhs) {
    if (!gm_is(target, syn_of(region)->sym.identifier))
        return;
    gm_kind k = gm_vk_combine(gm_value_of(region, target).kind, gm_value_of(region, rhs).kind);
    /* `h += b` keeps the reason h was a tensor before */
    const gm_binding *before = gm_vk_env_find(&region->env, gm_node_slice(target, text_of(region)));
    if (before && before->kind == GM_KIND_TENSOR && before->because != GM_BECAUSE_NONE) {
        gm_binding kept = *before;
        gm_vk_env_set(region, kept.name, k);
        gm_binding *after = gm_vk_env_find(&region->env, kept.name);
        if (after && k == GM_KIND_TENSOR) {
            after->because = kept.because;
            after->evidence_start = kept.evidence_start;
            after->evidence_end = kept.evidence_end;
        }
        return;
    }
    bind(region, target, k, unsaid, 0);
}

static bool is_builtin_call(gm_region *r, TSNode n, const char *name) {
    const gm_syntax *syn = syn_of(r);
    n = gm_unparen(syn, n);
    if (!gm_is(n, syn->sym.call))
        return false;
    TSNode fn = gm_child(n, syn->field.function);
    if (!gm_is(fn, syn->sym.identifier) || !gm_node_text_is(fn, text_of(r), name))
        return false;
    gm_slice s = gm_node_slice(fn, text_of(r));
    return !gm_vk_env_find(&r->env, s) && !gm_symbols_is_imported(r->stmt->symbols, s);
}

static gm_kind element_kind(gm_region *r, TSNode iterable) {
    if (is_builtin_call(r, iterable, "range"))
        return GM_KIND_STATIC;
    const gm_syntax *syn = syn_of(r);
    TSNode literal = gm_unparen(syn, iterable);
    if (gm_is(literal, syn->sym.list) || gm_is(literal, syn->sym.tuple)) {
        /* `for t in (x, y)`: the elements' kind when they all have the same one */
        uint32_t count = ts_node_named_child_count(literal);
        gm_kind common = GM_KIND_UNKNOWN;
        for (uint32_t i = 0; i < count; i++) {
            TSNode e = ts_node_named_child(literal, i);
            if (!ts_node_is_named(e) || gm_is(e, syn->sym.comment))
                continue;
            if (gm_is(e, syn->sym.list_splat))
                return GM_KIND_UNKNOWN;
            gm_kind k = gm_value_of(r, e).kind;
            if (k != GM_KIND_TENSOR && k != GM_KIND_STATIC)
                return GM_KIND_UNKNOWN;
            if (common != GM_KIND_UNKNOWN && k != common)
                return GM_KIND_UNKNOWN;
            common = k;
        }
        return common;
    }
    gm_kind k = gm_value_of(r, iterable).kind;
    return k == GM_KIND_TENSOR || k == GM_KIND_STATIC ? k : GM_KIND_UNKNOWN;
}

/* Marks the names of target as elements of a tensor (made in the graph by a select). */
static void mark_elements(gm_region *r, TSNode target, int depth) {
    const gm_syntax *syn = syn_of(r);
    if (ts_node_is_null(target) || depth > 8)
        return;
    if (gm_is(target, syn->sym.identifier)) {
        gm_vk_mark_set(r, gm_node_slice(target, text_of(r)), GM_MARK_ELEM);
        return;
    }
    if (is_target_pattern(syn, target) || gm_is(target, syn->sym.parenthesized_expression)) {
        uint32_t count = ts_node_named_child_count(target);
        for (uint32_t i = 0; i < count; i++)
            mark_elements(r, ts_node_named_child(target, i), depth + 1);
    }
}

static void bind_elements(gm_region *r, TSNode target, TSNode iterable) {
    const gm_syntax *syn = syn_of(r);
    TSNode it = gm_unparen(syn, iterable);
    if (gm_is(it, syn->sym.identifier) && !gm_vk_env_find(&r->env, gm_node_slice(it, text_of(r))))
        gm_vk_resolve_parameter(r, it); /* a parameter its callers pass a tensor to */
    gm_kind k = element_kind(r, iterable);
    /* an annotation alone is no proof enough that the elements are made in the graph: RT-DETRv2
     * passes a list of int pairs to a `value_spatial_shapes: Tensor` parameter */
    bool annotated = gm_is(it, syn->sym.identifier) &&
                     gm_vk_mark_of(r, gm_node_slice(it, text_of(r))) == GM_MARK_ANNOTATED;
    bind(r, target, k, (provenance){GM_BECAUSE_ITERATED, iterable}, 0);
    if (k == GM_KIND_TENSOR && !annotated)
        mark_elements(r, target, 0);
}

void gm_kinds_bind_for(gm_region *region, TSNode target, TSNode iterable) {
    const gm_syntax *syn = syn_of(region);
    if ((gm_is(target, syn->sym.pattern_list) || gm_is(target, syn->sym.tuple_pattern)) &&
        ts_node_named_child_count(target) == 2 && is_builtin_call(region, iterable, "enumerate")) {
        TSNode arg = gm_vk_first_argument(region, gm_unparen(syn, iterable));
        bind(region, ts_node_named_child(target, 0), GM_KIND_STATIC, unsaid, 0);
        if (ts_node_is_null(arg))
            bind(region, ts_node_named_child(target, 1), GM_KIND_UNKNOWN, unsaid, 0);
        else
            bind_elements(region, ts_node_named_child(target, 1), arg);
        return;
    }
    /* `for a, b in zip(xs, ys)`: each name an element of its own iterable (positional
     * arguments only, as many as the names) */
    if ((gm_is(target, syn->sym.pattern_list) || gm_is(target, syn->sym.tuple_pattern)) &&
        is_builtin_call(region, iterable, "zip") && !gm_vk_has_splat(syn, target)) {
        TSNode args = gm_child(gm_unparen(syn, iterable), syn->field.arguments);
        uint32_t count = ts_node_named_child_count(target);
        bool plain = gm_is(args, syn->sym.argument_list) &&
                     ts_node_named_child_count(args) == count;
        for (uint32_t i = 0; plain && i < count; i++) {
            TSNode a = ts_node_named_child(args, i);
            plain = !gm_is(a, syn->sym.keyword_argument) && ts_node_is_named(a) &&
                    strcmp(ts_node_type(a), "list_splat") != 0;
        }
        if (plain) {
            for (uint32_t i = 0; i < count; i++)
                bind_elements(region, ts_node_named_child(target, i), ts_node_named_child(args, i));
            return;
        }
    }
    bind_elements(region, target, iterable);
}

void gm_kinds_note_call(gm_region *region, TSNode call) {
    const gm_syntax *syn = syn_of(region);
    TSNode fn = gm_unparen(syn, gm_child(call, syn->field.function));
    if (!gm_is(fn, syn->sym.attribute))
        return;
    TSNode obj = gm_unparen(syn, gm_child(fn, syn->field.object));
    TSNode attr = gm_child(fn, syn->field.attribute);
    if (!gm_is(obj, syn->sym.identifier) || ts_node_is_null(attr) || gm_vk_is_self(region, obj))
        return;
    gm_slice name = gm_node_slice(obj, text_of(region));
    gm_slice method = gm_node_slice(attr, text_of(region));
    if (!gm_vk_slice_in_list(gm_vk_tensor_evidence_methods, method)) {
        /* `mask = a > b; mask.nonzero()`: a bool has no such method, so mask is a tensor */
        const gm_binding *b = gm_vk_env_find(&region->env, name);
        if (b && b->kind == GM_KIND_UNKNOWN && gm_vk_mark_of(region, name) == GM_MARK_CMP &&
            !gm_vk_slice_in_list(gm_vk_bool_methods, method) &&
            !(method.len > 0 && method.ptr[0] == '_')) {
            gm_vk_env_set_because(region, name, GM_KIND_TENSOR, GM_BECAUSE_TENSOR_METHOD, attr);
            gm_vk_mark_set(region, name, GM_MARK_MASK);
        }
        return;
    }
    const gm_binding *b = gm_vk_env_find(&region->env, name);
    if (b ? b->kind != GM_KIND_UNKNOWN : !gm_region_binds_node(region, obj))
        return; /* known already, or not a local (a module, an import) */
    gm_vk_env_set_because(region, name, GM_KIND_TENSOR, GM_BECAUSE_TENSOR_METHOD, attr);
}

/* Whether cls (an isinstance() class argument) names only builtin classes that no tensor is. */
static bool names_plain_classes(gm_region *r, TSNode cls, int depth) {
    const gm_syntax *syn = syn_of(r);
    cls = gm_unparen(syn, cls);
    if (gm_is(cls, syn->sym.tuple) && depth == 0) {
        uint32_t count = ts_node_named_child_count(cls);
        for (uint32_t i = 0; i < count; i++)
            if (!names_plain_classes(r, ts_node_named_child(cls, i), depth + 1))
                return false;
        return count > 0;
    }
    static const char *const plain[] = {"dict", "list",      "tuple", "str",   "bytes", "int",
                                        "float", "bool",     "set",   "frozenset", NULL};
    if (!gm_is(cls, syn->sym.identifier))
        return false;
    gm_slice s = gm_node_slice(cls, text_of(r));
    for (size_t i = 0; plain[i]; i++)
        if (gm_slice_is(s, plain[i]))
            return !gm_vk_env_find(&r->env, s) && !gm_symbols_is_imported(r->stmt->symbols, s);
    return false;
}

bool gm_kinds_narrow_begin(gm_region *r, TSNode test, gm_kind_narrowing *narrowing) {
    const gm_syntax *syn = syn_of(r);
    TSNode call = gm_unparen(syn, test);
    if (!is_builtin_call(r, call, "isinstance"))
        return false;
    TSNode args = gm_child(call, syn->field.arguments);
    if (!gm_is(args, syn->sym.argument_list) || ts_node_named_child_count(args) != 2)
        return false;
    TSNode name = ts_node_named_child(args, 0);
    if (!gm_is(name, syn->sym.identifier) || !names_plain_classes(r, ts_node_named_child(args, 1), 0))
        return false;
    gm_slice s = gm_node_slice(name, text_of(r));
    const gm_binding *b = gm_vk_env_find(&r->env, s);
    if (!b || b->kind != GM_KIND_TENSOR)
        return false;
    narrowing->name = s;
    narrowing->before = *b;
    gm_vk_env_set(r, s, GM_KIND_UNKNOWN);
    /* marks the narrowed binding: one the branch makes anew has no such evidence */
    gm_binding *narrowed = gm_vk_env_find(&r->env, s);
    if (narrowed)
        narrowed->evidence_start = narrowed->evidence_end = UINT32_MAX;
    return true;
}

void gm_kinds_narrow_end(gm_region *r, const gm_kind_narrowing *narrowing) {
    gm_binding *b = gm_vk_env_find(&r->env, narrowing->name);
    if (b && b->kind == GM_KIND_UNKNOWN && b->evidence_start == UINT32_MAX &&
        b->evidence_end == UINT32_MAX)
        *b = narrowing->before;
}
