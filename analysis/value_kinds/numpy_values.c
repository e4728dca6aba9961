#include "analysis/value_kinds/numpy_values.h"

#include <string.h>

#include "analysis/module_facts/symbols.h"
#include "analysis/regions/binding_lookup.h"
#include "analysis/value_kinds/value_kinds_internal.h"

#define GM_NUMPY_MAX_DEPTH 12
/* How many constructor calls a value is followed back through (`Block(up=up)` in an __init__
 * whose own `up` comes from the constructor call of its class). */
#define GM_NUMPY_MAX_CONSTRUCTOR_HOPS 3
static _Thread_local int constructor_hops;

/* Where an expression is: in the region's function, at module level, or in a class body or
 * __init__ (where only calls and attributes of imported modules are looked at). */
typedef enum { SCOPE_REGION, SCOPE_MODULE, SCOPE_OUTER } numpy_scope;

/* numpy functions that return no array or NumPy scalar. */
static const char *const non_arrays[] = {"numpy.dtype",
                                         "numpy.finfo",
                                         "numpy.iinfo",
                                         "numpy.shape",
                                         "numpy.ndim",
                                         "numpy.size",
                                         "numpy.isscalar",
                                         "numpy.issubdtype",
                                         "numpy.result_type",
                                         "numpy.promote_types",
                                         "numpy.can_cast",
                                         "numpy.errstate",
                                         "numpy.printoptions",
                                         "numpy.set_printoptions",
                                         "numpy.get_printoptions",
                                         "numpy.vectorize",
                                         "numpy.frompyfunc",
                                         "numpy.save",
                                         "numpy.savez",
                                         "numpy.savetxt",
                                         "numpy.random.seed",
                                         "numpy.random.default_rng",
                                         "numpy.random.RandomState",
                                         "numpy.random.Generator",
                                         "numpy.random.get_state",
                                         "numpy.random.set_state"};

/* ndarray methods that return no array or NumPy scalar. */
static const char *const non_array_methods[] = {"item", "tolist", "tobytes",  "tostring",
                                                "dump", "dumps",  "tofile",   "fill",
                                                "sort", "resize", "setflags", "__len__"};

static bool numpy_imported(const gm_symbols *symbols) {
    for (size_t i = 0; i < symbols->import_count; i++) {
        const char *c = symbols->imports[i].canonical;
        if (strncmp(c, "numpy", 5) == 0 && (c[5] == '\0' || c[5] == '.'))
            return true;
    }
    return false;
}

static bool numpy_function(const char *name) {
    if (strncmp(name, "numpy.", 6) != 0)
        return false;
    for (size_t i = 0; i < sizeof non_arrays / sizeof non_arrays[0]; i++)
        if (strcmp(name, non_arrays[i]) == 0)
            return false;
    return true;
}

static bool numpy_expression(gm_region *region, TSNode expr, numpy_scope scope, int depth);

/* A call: of a numpy function (the callee's head imported, and not rebound by the function in
 * the region), or of an array-returning method on a NumPy value. */
static bool numpy_call(gm_region *region, TSNode call, numpy_scope scope, int depth) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    TSNode head;
    TSNode fn = gm_call_target(syn, call, &head);
    if (!ts_node_is_null(fn) &&
        gm_symbols_is_imported(st->symbols, gm_node_slice(head, st->text)) &&
        !(scope == SCOPE_REGION && gm_region_binds_node(region, head))) {
        char name[GM_NAME_MAX];
        return gm_symbols_resolve(st->symbols, syn, st->text, fn, name, sizeof name) &&
               numpy_function(name);
    }
    fn = gm_unparen(syn, gm_child(call, syn->field.function));
    if (!gm_is(fn, syn->sym.attribute))
        return false;
    TSNode attr = gm_child(fn, syn->field.attribute);
    if (ts_node_is_null(attr))
        return false;
    for (size_t i = 0; i < sizeof non_array_methods / sizeof non_array_methods[0]; i++)
        if (gm_node_text_is(attr, st->text, non_array_methods[i]))
            return false;
    return numpy_expression(region, gm_child(fn, syn->field.object), scope, depth + 1);
}

/* The class_definition a method's function_definition lies in, or a null node. */
static TSNode class_of_method(const gm_syntax *syn, TSNode function) {
    TSNode n = ts_node_parent(function);
    if (gm_is(n, syn->sym.decorated_definition))
        n = ts_node_parent(n);
    n = gm_is(n, syn->sym.block) ? ts_node_parent(n) : (TSNode){0};
    return gm_is(n, syn->sym.class_definition) ? n : (TSNode){0};
}

/* A region standing for another function of the file (an __init__, a caller), in which values
 * are looked up as in the region's own function. Free with gm_region_free_name_sets. */
static void region_of_function(gm_region *tmp, gm_region *region, TSNode function) {
    memset(tmp, 0, sizeof *tmp);
    tmp->stmt = region->stmt;
    tmp->site.function = function;
    tmp->site.class_node = class_of_method(region->stmt->syntax, function);
    tmp->print_shadowed = -1;
    tmp->local_imports_from = SIZE_MAX;
    if (!ts_node_is_null(tmp->site.class_node))
        tmp->self_name = gm_first_parameter(region->stmt->syntax, region->stmt->text, function);
}

/* expr evaluated in function (a null node: at module level). */
static bool numpy_in_function(gm_region *region, TSNode function, TSNode expr, int depth) {
    if (ts_node_is_null(function))
        return numpy_expression(region, expr, SCOPE_MODULE, depth);
    gm_region tmp;
    region_of_function(&tmp, region, function);
    bool found = numpy_expression(&tmp, expr, SCOPE_REGION, depth);
    gm_region_free_name_sets(&tmp);
    return found;
}

typedef struct {
    gm_slice class_name, param;
    int index;
    bool found;
} constructor_search;

/* The calls `ClassName(...)` below n: whether one passes a NumPy value for the parameter, seen
 * in the function that makes the call. */
static void visit_constructor_calls(gm_region *region, TSNode n, constructor_search *q,
                                    int depth) {
    const gm_syntax *syn = region->stmt->syntax;
    if (ts_node_is_null(n) || depth > 100 || q->found || region->stmt->oom ||
        gm_is(n, syn->sym.lambda))
        return;
    if (gm_is(n, syn->sym.call)) {
        TSNode fn = gm_unparen(syn, gm_child(n, syn->field.function));
        if (gm_is(fn, syn->sym.identifier) &&
            gm_slice_eq(gm_node_slice(fn, region->stmt->text), q->class_name)) {
            bool bad = false;
            TSNode arg = gm_vk_argument_for(region, n, q->index, q->param, &bad);
            TSNode caller = n;
            while (!ts_node_is_null(caller) && !gm_is(caller, syn->sym.function_definition))
                caller = ts_node_parent(caller);
            if (!bad && !ts_node_is_null(arg) &&
                numpy_in_function(region, caller, arg, GM_NUMPY_MAX_DEPTH / 2)) {
                q->found = true;
                return;
            }
        }
    }
    char needle[GM_NAME_MAX + 2];
    int len = snprintf(needle, sizeof needle, "%.*s(", (int)q->class_name.len, q->class_name.ptr);
    TSTreeCursor cursor = ts_tree_cursor_new(n);
    for (bool more = ts_tree_cursor_goto_first_child(&cursor); more && !q->found;
         more = ts_tree_cursor_goto_next_sibling(&cursor)) {
        TSNode c = ts_tree_cursor_current_node(&cursor);
        if (ts_node_is_named(c) && len > 0 && (size_t)len < sizeof needle &&
            gm_slice_contains(gm_node_slice(c, region->stmt->text), needle))
            visit_constructor_calls(region, c, q, depth + 1);
    }
    ts_tree_cursor_delete(&cursor);
}

/* A parameter of the region's __init__: a NumPy value when a call of the class's constructor
 * in the file passes one for it (`Block(up=i >= np.log2(r))`). */
static bool numpy_constructor_argument(gm_region *region, gm_slice param) {
    const gm_syntax *syn = region->stmt->syntax;
    TSNode function = region->site.function, cls = region->site.class_node;
    TSNode fname = gm_child(function, syn->field.name);
    if (ts_node_is_null(cls) || !gm_node_text_is(fname, region->stmt->text, "__init__") ||
        constructor_hops >= GM_NUMPY_MAX_CONSTRUCTOR_HOPS)
        return false;
    constructor_search q = {
        .class_name = gm_node_slice(gm_child(cls, syn->field.name), region->stmt->text),
        .param = param,
        .index = gm_vk_parameter_index(region, function, param, true)};
    if (q.index < 0 || q.class_name.len == 0)
        return false;
    constructor_hops++;
    visit_constructor_calls(region, ts_tree_root_node(cls.tree), &q, 0);
    constructor_hops--;
    return q.found;
}

/* self.attr: what __init__ assigns it (looked up in __init__, whose parameters come from the
 * constructor calls), else what the class body assigns it. */
static bool numpy_self_attribute(gm_region *region, gm_slice attr, int depth) {
    const gm_syntax *syn = region->stmt->syntax;
    TSNode value = gm_lookup_init_attribute(region, attr);
    if (ts_node_is_null(value))
        return numpy_expression(region, gm_lookup_class_attribute(region, attr), SCOPE_OUTER,
                                depth);
    gm_slice init_self;
    TSNode init = gm_class_init(syn, region->stmt->text, region->site.class_node, &init_self);
    return !ts_node_is_null(init) && numpy_in_function(region, init, value, depth);
}

static bool numpy_expression(gm_region *region, TSNode expr, numpy_scope scope, int depth) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    expr = gm_unparen(syn, expr);
    if (ts_node_is_null(expr) || depth > GM_NUMPY_MAX_DEPTH)
        return false;
    TSSymbol t = ts_node_symbol(expr);
    if (t == syn->sym.call)
        return numpy_call(region, expr, scope, depth);
    if (t == syn->sym.identifier) {
        gm_slice name = gm_node_slice(expr, st->text);
        if (scope == SCOPE_OUTER)
            return false;
        if (scope == SCOPE_REGION && gm_region_binds_node(region, expr)) {
            TSNode local = gm_lookup_local(region, name, expr);
            if (ts_node_is_null(local))
                return gm_parameters_bind_name(syn, st->text, region->site.function, name) &&
                       numpy_constructor_argument(region, name);
            return numpy_expression(region, local, SCOPE_REGION, depth + 1);
        }
        if (gm_symbols_is_imported(st->symbols, name))
            return false;
        return numpy_expression(region, gm_lookup_module_assignment(region, name), SCOPE_MODULE,
                                depth + 1);
    }
    if (t == syn->sym.attribute) {
        TSNode object = gm_unparen(syn, gm_child(expr, syn->field.object));
        TSNode attr = gm_child(expr, syn->field.attribute);
        if (scope != SCOPE_REGION || ts_node_is_null(attr) || !gm_lookup_is_self(region, object))
            return false;
        return numpy_self_attribute(region, gm_node_slice(attr, st->text), depth + 1);
    }
    if (t == syn->sym.comparison_operator) { /* a NumPy bool when an operand is NumPy */
        uint32_t count = ts_node_named_child_count(expr);
        for (uint32_t i = 0; i < count; i++)
            if (numpy_expression(region, ts_node_named_child(expr, i), scope, depth + 1))
                return true;
        return false;
    }
    if (t == syn->sym.subscript)
        return numpy_expression(region, gm_child(expr, syn->field.value), scope, depth + 1);
    if (t == syn->sym.unary_operator)
        return numpy_expression(region, gm_child(expr, syn->field.argument), scope, depth + 1);
    if (t == syn->sym.binary_operator)
        return numpy_expression(region, gm_child(expr, syn->field.left), scope, depth + 1) ||
               numpy_expression(region, gm_child(expr, syn->field.right), scope, depth + 1);
    return false;
}

bool gm_numpy_value(gm_region *region, TSNode expr) {
    return numpy_imported(region->stmt->symbols) && numpy_expression(region, expr, SCOPE_REGION, 0);
}
