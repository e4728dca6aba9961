#include "analysis/value_kinds/numpy_values.h"

#include <string.h>

#include "analysis/module_facts/symbols.h"
#include "analysis/regions/binding_lookup.h"

#define GM_NUMPY_MAX_DEPTH 6

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
        if (scope == SCOPE_REGION && gm_region_binds_node(region, expr))
            return numpy_expression(region, gm_lookup_local(region, name, expr), SCOPE_REGION,
                                    depth + 1);
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
        return numpy_expression(region,
                                gm_lookup_self_attribute(region, gm_node_slice(attr, st->text)),
                                SCOPE_OUTER, depth + 1);
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
