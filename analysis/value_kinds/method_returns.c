/* What a call of a method of one of the file's classes returns, for `obj.m(...)` on an object
 * of unknown kind: the class of obj where the code says it (`self.cache = Cache()` in
 * __init__, `self.layers = [Layer()]` and `self.layers[i]`, a parameter annotated with the
 * class), else every class of the file that defines m. The method's return statements are
 * walked with the kinds of its own names; `return self.length` reads an attribute the class
 * only ever assigns tensors, `return self.layers[i].m()` follows the next class, and
 * `a if test else 0` counts both branches. A method that returns a tensor on some paths only
 * (a StaticCache's `get_seq_length()`: its layer's `cumulative_length`, or 0) makes the call a
 * tensor under a condition, which findings say (gm_kinds_conditional_tensor). */
#include "analysis/value_kinds/value_kinds.h"
#include "analysis/value_kinds/value_kinds_internal.h"

#include <stdio.h>
#include <string.h>

/* Methods of Python's builtin types (dict, list, str, set, tuple, numbers): an object of unknown
 * kind calling one may be such a value, whatever a class of the file defines under that name. */
static const char *const builtin_type_methods[] = {
    "append", "clear",     "copy",      "count",      "extend",  "get",        "index",
    "insert", "items",     "keys",      "pop",        "popitem", "remove",     "reverse",
    "setdefault", "sort",  "update",    "values",     "add",     "discard",    "difference",
    "intersection", "union", "issubset", "issuperset", "split",  "join",       "strip",
    "lstrip", "rstrip",    "startswith", "endswith",  "replace", "format",     "lower",
    "upper",  "find",      "encode",    "decode",     "partition", "bit_length", "conjugate",
    "real",   "imag",      "is_integer", "__call__",  NULL};

/* The method name defined in the body of class_node (a decorated def unwrapped), or null. */
static TSNode class_method(const gm_region *r, TSNode class_node, gm_slice name) {
    const gm_syntax *syn = syn_of(r);
    TSNode body = gm_child(class_node, syn->field.body);
    TSNode found = {0};
    uint32_t count = ts_node_is_null(body) ? 0 : ts_node_named_child_count(body);
    for (uint32_t i = 0; i < count; i++) {
        TSNode m = ts_node_named_child(body, i);
        if (gm_is(m, syn->sym.decorated_definition))
            m = gm_child(m, syn->field.definition);
        if (gm_is(m, syn->sym.function_definition) &&
            gm_slice_eq(gm_node_slice(gm_child(m, syn->field.name), text_of(r)), name))
            found = m; /* the last definition wins */
    }
    return found;
}

/* The top-level class of the file called name (the last one), or null. */
static TSNode file_class(gm_region *r, gm_slice name) {
    const gm_keyed_class *first;
    uint32_t count = name.len ? gm_module_index_classes(r->stmt->module_index, name, &first) : 0;
    return count ? first[count - 1].node : (TSNode){0};
}

static bool class_is_module(const gm_region *r, TSNode class_node) {
    gm_slice name = gm_node_slice(gm_child(class_node, syn_of(r)->field.name), text_of(r));
    for (size_t i = 0; i < r->stmt->symbols->class_count; i++) {
        const char *c = r->stmt->symbols->classes[i].name;
        if (strlen(c) == name.len && memcmp(c, name.ptr, name.len) == 0)
            return r->stmt->symbols->classes[i].is_module;
    }
    return false;
}

/* The class of the file a constructor call `C(...)` makes, or null. */
static TSNode constructed_class(gm_region *r, TSNode value) {
    const gm_syntax *syn = syn_of(r);
    value = gm_unparen(syn, value);
    if (!gm_is(value, syn->sym.call))
        return (TSNode){0};
    TSNode fn = gm_unparen(syn, gm_child(value, syn->field.function));
    return gm_is(fn, syn->sym.identifier) ? file_class(r, gm_node_slice(fn, text_of(r)))
                                          : (TSNode){0};
}

/* The class whose instances a list display `[C(...), ...]` or comprehension `[C(...) for ...]`
 * holds (every element the same class), or null. */
static TSNode element_class(gm_region *r, TSNode value) {
    const gm_syntax *syn = syn_of(r);
    value = gm_unparen(syn, value);
    if (gm_is(value, syn->sym.list_comprehension))
        return constructed_class(r, gm_child(value, syn->field.body));
    if (!gm_is(value, syn->sym.list))
        return (TSNode){0};
    TSNode cls = {0};
    uint32_t count = ts_node_named_child_count(value);
    for (uint32_t i = 0; i < count; i++) {
        TSNode c = constructed_class(r, ts_node_named_child(value, i));
        if (ts_node_is_null(c) || (i > 0 && !ts_node_eq(c, cls)))
            return (TSNode){0};
        cls = c;
    }
    return cls;
}

/* The class the region's class's __init__ makes `self.attribute` (or, for element, each entry
 * of it) an instance of, when every assignment of it there agrees; null otherwise. */
static TSNode attribute_class(gm_region *r, gm_slice attribute, bool element) {
    const gm_syntax *syn = syn_of(r);
    gm_slice self_name;
    TSNode init = ts_node_is_null(r->site.class_node)
                      ? (TSNode){0}
                      : gm_class_init(syn, text_of(r), r->site.class_node, &self_name);
    TSNode body = ts_node_is_null(init) ? init : gm_child(init, syn->field.body);
    TSNode found = {0};
    uint32_t count = ts_node_is_null(body) ? 0 : ts_node_named_child_count(body);
    for (uint32_t i = 0; i < count; i++) {
        TSNode st = ts_node_named_child(body, i);
        TSNode a = gm_is(st, syn->sym.expression_statement) && ts_node_named_child_count(st)
                       ? ts_node_named_child(st, 0)
                       : (TSNode){0};
        TSNode left = gm_is(a, syn->sym.assignment) ? gm_child(a, syn->field.left) : (TSNode){0};
        TSNode object = gm_is(left, syn->sym.attribute) ? gm_child(left, syn->field.object)
                                                        : (TSNode){0};
        if (!gm_is(object, syn->sym.identifier) ||
            !gm_slice_eq(gm_node_slice(object, text_of(r)), self_name) ||
            !gm_slice_eq(gm_node_slice(gm_child(left, syn->field.attribute), text_of(r)),
                         attribute))
            continue;
        TSNode right = gm_child(a, syn->field.right);
        TSNode cls = element ? element_class(r, right) : constructed_class(r, right);
        if (ts_node_is_null(cls) || (!ts_node_is_null(found) && !ts_node_eq(cls, found)))
            return (TSNode){0};
        found = cls;
    }
    return found;
}

/* The class a parameter's annotation names (`cache: Cache`, `Cache | None`, `"Cache"`), when
 * it is a class of the file; null otherwise. */
static TSNode annotated_class(gm_region *r, gm_slice name) {
    const gm_syntax *syn = syn_of(r);
    TSNode type = gm_parameter_annotation(syn, text_of(r), r->site.function, name);
    if (gm_is(type, syn->sym.type) && ts_node_named_child_count(type) > 0)
        type = ts_node_named_child(type, 0);
    if (gm_is(type, syn->sym.binary_operator)) {
        TSNode left = gm_child(type, syn->field.left), right = gm_child(type, syn->field.right);
        type = gm_is(right, syn->sym.none)  ? left
               : gm_is(left, syn->sym.none) ? right
                                            : (TSNode){0};
    }
    if (ts_node_is_null(type))
        return type;
    gm_slice s = gm_node_slice(type, text_of(r));
    if (gm_is(type, syn->sym.string) && s.len >= 2)
        s = (gm_slice){s.ptr + 1, s.len - 2};
    else if (!gm_is(type, syn->sym.identifier))
        return (TSNode){0};
    return file_class(r, s);
}

/* ---- what a method returns ------------------------------------------------------------ */

typedef struct {
    TSNode class_node;
    unsigned tensor, other, unknown;
} return_tally;

/* Whether every assignment of `self.attribute` in the class's methods stores a tensor (one
 * that stores the attribute's own value converted, `self.t = self.t.to(device)`, counts for
 * nothing), and there is one. */
static bool attribute_holds_tensor(gm_region *fr, TSNode class_node, gm_slice attribute) {
    const gm_syntax *syn = syn_of(fr);
    TSNode body = gm_child(class_node, syn->field.body);
    unsigned tensors = 0;
    uint32_t count = ts_node_is_null(body) ? 0 : ts_node_named_child_count(body);
    for (uint32_t i = 0; i < count; i++) {
        TSNode m = ts_node_named_child(body, i);
        if (gm_is(m, syn->sym.decorated_definition))
            m = gm_child(m, syn->field.definition);
        if (!gm_is(m, syn->sym.function_definition))
            continue;
        gm_slice self_name = gm_first_parameter(syn, text_of(fr), m);
        TSNode block = gm_child(m, syn->field.body);
        uint32_t statements = ts_node_is_null(block) ? 0 : ts_node_named_child_count(block);
        /* the statements of the method's body, not those nested in its blocks: where a class
         * sets its state */
        for (uint32_t j = 0; j < statements && self_name.len; j++) {
            TSNode st = ts_node_named_child(block, j);
            TSNode a = gm_is(st, syn->sym.expression_statement) && ts_node_named_child_count(st)
                           ? ts_node_named_child(st, 0)
                           : (TSNode){0};
            TSNode left = gm_is(a, syn->sym.assignment) ? gm_child(a, syn->field.left)
                                                        : (TSNode){0};
            TSNode object = gm_is(left, syn->sym.attribute) ? gm_child(left, syn->field.object)
                                                            : (TSNode){0};
            if (!gm_is(object, syn->sym.identifier) ||
                !gm_slice_eq(gm_node_slice(object, text_of(fr)), self_name) ||
                !gm_slice_eq(gm_node_slice(gm_child(left, syn->field.attribute), text_of(fr)),
                             attribute))
                continue;
            TSNode right = gm_unparen(syn, gm_child(a, syn->field.right));
            TSNode head = gm_chain_head(syn, right);
            TSNode read = gm_is(head, syn->sym.identifier) ? ts_node_parent(head) : (TSNode){0};
            if (!ts_node_is_null(head) &&
                gm_slice_eq(gm_node_slice(head, text_of(fr)), self_name) &&
                gm_is(read, syn->sym.attribute) &&
                gm_slice_eq(gm_node_slice(gm_child(read, syn->field.attribute), text_of(fr)),
                            attribute))
                continue; /* self.t = self.t.to(...) */
            /* judged alone: torch.tensor(...), torch.zeros(...) are tensors in any method */
            if (gm_value_of(fr, right).kind != GM_KIND_TENSOR)
                return false;
            tensors++;
        }
    }
    return tensors > 0;
}

static void tally_expression(gm_region *fr, TSNode e, return_tally *t, int depth) {
    const gm_syntax *syn = syn_of(fr);
    e = gm_unparen(syn, e);
    if (depth > 8) {
        t->unknown++;
        return;
    }
    if (ts_node_is_null(e) || gm_is(e, syn->sym.none) || gm_is(e, syn->sym.integer) ||
        gm_is(e, syn->sym.float_literal) || gm_is(e, syn->sym.true_literal) ||
        gm_is(e, syn->sym.false_literal) || gm_is(e, syn->sym.string)) {
        t->other++;
        return;
    }
    if (gm_is(e, syn->sym.conditional_expression) && ts_node_named_child_count(e) == 3) {
        gm_value test = gm_value_of(fr, ts_node_named_child(e, 1));
        if (test.constant != 0)
            tally_expression(fr, ts_node_named_child(e, 0), t, depth + 1);
        if (test.constant != 1)
            tally_expression(fr, ts_node_named_child(e, 2), t, depth + 1);
        return;
    }
    if (gm_is(e, syn->sym.attribute) && gm_vk_is_self(fr, gm_child(e, syn->field.object)) &&
        attribute_holds_tensor(fr, t->class_node,
                               gm_node_slice(gm_child(e, syn->field.attribute), text_of(fr)))) {
        t->tensor++;
        return;
    }
    gm_kind k = gm_value_of(fr, e).kind;
    if (gm_is(e, syn->sym.call) && fr->conditional_calls > 0 && k == GM_KIND_TENSOR) {
        /* another method's call that returns a tensor on some paths only */
        fr->conditional_tensors_off = true;
        gm_kind without = gm_value_of(fr, e).kind;
        fr->conditional_tensors_off = false;
        if (without != GM_KIND_TENSOR) {
            t->tensor++;
            t->other++;
            return;
        }
    }
    if (k == GM_KIND_TENSOR)
        t->tensor++;
    else if (k == GM_KIND_STATIC || k == GM_KIND_SCALAR)
        t->other++;
    else
        t->unknown++;
}

static void tally_return(gm_region *fr, TSNode ret, void *context) {
    TSNode e = ts_node_named_child_count(ret) ? ts_node_named_child(ret, 0) : (TSNode){0};
    tally_expression(fr, e, context, 0);
}

static gm_vk_returns method_returns(gm_region *r, TSNode class_node, gm_slice method) {
    gm_slice class_name = gm_node_slice(gm_child(class_node, syn_of(r)->field.name), text_of(r));
    r->stmt->class_deps |= gm_dependency_bit(class_name.ptr, class_name.len);
    gm_method_memo *memo = &r->stmt->method_returns;
    uint32_t class_start = ts_node_start_byte(class_node);
    for (unsigned i = 0; i < memo->count; i++)
        if (memo->items[i].class_start == class_start &&
            gm_slice_eq(memo->items[i].method, method))
            return (gm_vk_returns)memo->items[i].result;
    TSNode def = class_method(r, class_node, method);
    return_tally t = {.class_node = class_node};
    if (ts_node_is_null(def) ||
        !gm_vk_each_return(r, def, class_node, class_is_module(r, class_node), tally_return, &t))
        return GM_RETURNS_UNKNOWN; /* not remembered: a shallower walk may get further */
    gm_vk_returns result = t.tensor == 0 ? (t.unknown == 0 && t.other > 0 ? GM_RETURNS_NO_TENSOR
                                                                          : GM_RETURNS_UNKNOWN)
                           : t.other == 0 && t.unknown == 0 ? GM_RETURNS_TENSOR
                                                            : GM_RETURNS_SOMETIMES;
    if (memo->count < sizeof memo->items / sizeof memo->items[0]) {
        memo->items[memo->count].class_start = class_start;
        memo->items[memo->count].method = method;
        memo->items[memo->count].result = (uint8_t)result;
        memo->count++;
    }
    return result;
}

/* The most statements mentioning a method name that the guess from every class defining it
 * looks through. */
#define GM_GUESS_MAX_MENTIONS 64

/* What every class of the file that defines method returns from it, taken together: a
 * tensor at most on some paths, since the object may be of a class the file does not have. */
static gm_vk_returns classes_defining(gm_region *r, gm_slice method) {
    const gm_syntax *syn = syn_of(r);
    const TSNode *mentioning;
    uint32_t count = gm_module_index_mentions(r->stmt->module_index, method, &mentioning);
    bool tensor = false;
    /* a class that comes to define it changes the answer */
    r->stmt->class_deps |= gm_dependency_bit(method.ptr, method.len);
    /* a name that many statements mention (`forward` in a file of a thousand modules) says
     * little of the object's class, and looking through them at every call made the analysis
     * grow with the square of the file */
    if (count > GM_GUESS_MAX_MENTIONS)
        return GM_RETURNS_UNKNOWN;
    for (uint32_t i = 0; i < count; i++) {
        TSNode c = mentioning[i];
        if (gm_is(c, syn->sym.decorated_definition))
            c = gm_child(c, syn->field.definition);
        if (!gm_is(c, syn->sym.class_definition) || ts_node_is_null(class_method(r, c, method)))
            continue;
        gm_vk_returns k = method_returns(r, c, method);
        tensor |= k == GM_RETURNS_TENSOR || k == GM_RETURNS_SOMETIMES;
    }
    return tensor ? GM_RETURNS_SOMETIMES : GM_RETURNS_UNKNOWN;
}

gm_vk_returns gm_vk_method_call_returns(gm_region *r, TSNode call) {
    const gm_syntax *syn = syn_of(r);
    TSNode fn = gm_unparen(syn, gm_child(call, syn->field.function));
    TSNode attr = gm_is(fn, syn->sym.attribute) ? gm_child(fn, syn->field.attribute) : (TSNode){0};
    if (ts_node_is_null(attr))
        return GM_RETURNS_UNKNOWN;
    gm_slice method = gm_node_slice(attr, text_of(r));
    /* a method torch.Tensor has: the object may be a tensor */
    if (gm_vk_is_tensor_api_name(method) || r->stmt->module_index == NULL)
        return GM_RETURNS_UNKNOWN;
    TSNode receiver = gm_unparen(syn, gm_child(fn, syn->field.object));
    bool element = gm_is(receiver, syn->sym.subscript);
    if (element)
        receiver = gm_unparen(syn, gm_child(receiver, syn->field.value));
    TSNode cls = {0};
    if (gm_is(receiver, syn->sym.attribute) &&
        gm_vk_is_self(r, gm_child(receiver, syn->field.object)))
        cls = attribute_class(
            r, gm_node_slice(gm_child(receiver, syn->field.attribute), text_of(r)), element);
    else if (!element && gm_is(receiver, syn->sym.identifier) && !gm_vk_is_self(r, receiver) &&
             gm_parameters_bind_name(syn, text_of(r), r->site.function,
                                     gm_node_slice(receiver, text_of(r))))
        cls = annotated_class(r, gm_node_slice(receiver, text_of(r)));
    /* annotated with something other than a class of the file or a tensor type (which the code
     * contradicts by calling a method torch.Tensor lacks): the object is of that other class */
    bool other_class = false;
    if (ts_node_is_null(cls) && gm_is(receiver, syn->sym.identifier)) {
        TSNode type = gm_parameter_annotation(syn, text_of(r), r->site.function,
                                              gm_node_slice(receiver, text_of(r)));
        other_class = !ts_node_is_null(type) &&
                      !gm_slice_contains(gm_node_slice(type, text_of(r)), "Tensor");
    }
    gm_vk_returns result;
    if (!ts_node_is_null(cls))
        result = method_returns(r, cls, method);
    else if (!element && !other_class && gm_is(receiver, syn->sym.identifier) &&
             !gm_vk_is_self(r, receiver) &&
             !gm_symbols_is_imported(r->stmt->symbols, gm_node_slice(receiver, text_of(r))) &&
             !gm_vk_slice_in_list(builtin_type_methods, method))
        result = classes_defining(r, method);
    else
        result = GM_RETURNS_UNKNOWN;
    if (r->stmt->module_index->oom)
        r->stmt->oom = true;
    return result;
}

bool gm_kinds_conditional_tensor(gm_region *region, TSNode expr, char *out, size_t cap) {
    if (cap)
        out[0] = '\0';
    if (region->conditional_calls == 0 || ts_node_is_null(region->conditional_call))
        return false;
    /* without first: a walrus in expr binds its name again, and the binding it keeps is the
     * one of the evaluation with them */
    region->conditional_tensors_off = true;
    gm_kind without = gm_value_of(region, expr).kind;
    region->conditional_tensors_off = false;
    gm_kind with = gm_value_of(region, expr).kind; /* names a call of expr's own, if any */
    if (with == GM_KIND_UNKNOWN || with == without)
        return false;
    char shown[96];
    gm_node_shown(region->conditional_call, text_of(region), shown, sizeof shown);
    snprintf(out, cap, "`%s` returns a tensor", shown);
    return true;
}
