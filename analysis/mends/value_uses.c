#include "analysis/mends/value_uses.h"

#include <string.h>

#include "analysis/value_kinds/value_kinds.h"

static bool type_is(TSNode node, const char *type) {
    return !ts_node_is_null(node) && strcmp(ts_node_type(node), type) == 0;
}

static bool same_node(TSNode a, TSNode b) {
    return !ts_node_is_null(a) && !ts_node_is_null(b) && ts_node_eq(a, b);
}

TSNode gm_mend_enclosing_function(const gm_syntax *syntax, TSNode node) {
    TSNode null = {0};
    for (TSNode p = ts_node_parent(node); !ts_node_is_null(p); p = ts_node_parent(p)) {
        if (gm_is(p, syntax->sym.function_definition))
            return p;
        if (gm_is(p, syntax->sym.lambda) || gm_is(p, syntax->sym.class_definition) ||
            gm_is(p, syntax->sym.list_comprehension) || gm_is(p, syntax->sym.set_comprehension) ||
            gm_is(p, syntax->sym.dictionary_comprehension) ||
            gm_is(p, syntax->sym.generator_expression))
            return null;
    }
    return null;
}

bool gm_mend_identifier_is_variable(const gm_syntax *syntax, TSNode id) {
    TSNode p = ts_node_parent(id);
    if (gm_is(p, syntax->sym.attribute) && same_node(gm_child(p, syntax->field.attribute), id))
        return false;
    if (gm_is(p, syntax->sym.keyword_argument) && same_node(gm_child(p, syntax->field.name), id))
        return false;
    return true;
}

bool gm_mend_identifier_is_binding(const gm_syntax *syntax, TSNode id) {
    TSNode n = id, p = ts_node_parent(id);
    /* climb out of target patterns: `a, (b, c) = ...`, `for i, x in ...`, `*rest` */
    while (gm_is(p, syntax->sym.pattern_list) || gm_is(p, syntax->sym.tuple_pattern) ||
           gm_is(p, syntax->sym.list_pattern) || gm_is(p, syntax->sym.list_splat_pattern) ||
           gm_is(p, syntax->sym.parenthesized_expression)) {
        n = p;
        p = ts_node_parent(p);
    }
    if (ts_node_is_null(p))
        return false;
    if (gm_is(p, syntax->sym.assignment) || gm_is(p, syntax->sym.augmented_assignment) ||
        gm_is(p, syntax->sym.for_statement) || type_is(p, "for_in_clause"))
        return same_node(gm_child(p, syntax->field.left), n);
    if (gm_is(p, syntax->sym.named_expression) || gm_is(p, syntax->sym.function_definition) ||
        gm_is(p, syntax->sym.class_definition) || gm_is(p, syntax->sym.default_parameter) ||
        gm_is(p, syntax->sym.typed_default_parameter))
        return same_node(gm_child(p, syntax->field.name), n);
    return gm_is(p, syntax->sym.parameters) || type_is(p, "lambda_parameters") ||
           gm_is(p, syntax->sym.typed_parameter) || gm_is(p, syntax->sym.global_statement) ||
           gm_is(p, syntax->sym.nonlocal_statement) || gm_is(p, syntax->sym.as_pattern_target) ||
           gm_is(p, syntax->sym.dotted_name) || gm_is(p, syntax->sym.aliased_import) ||
           gm_is(p, syntax->sym.dictionary_splat_pattern) || type_is(p, "delete_statement") ||
           (type_is(p, "expression_list") && type_is(ts_node_parent(p), "delete_statement"));
}

typedef struct {
    const gm_syntax *syntax;
    const char *text;
    gm_slice name;
    TSNode binding; /* the allowed binding's target identifier, or null */
    gm_use_visit visit;
    void *payload;
    bool ok;
} walk_state;

static void walk(walk_state *w, TSNode node) {
    if (!w->ok)
        return;
    if (gm_is(node, w->syntax->sym.identifier)) {
        if (!gm_slice_eq(gm_node_slice(node, w->text), w->name) ||
            !gm_mend_identifier_is_variable(w->syntax, node))
            return;
        if (gm_mend_identifier_is_binding(w->syntax, node)) {
            if (!same_node(node, w->binding))
                w->ok = false;
            return;
        }
        if (!w->visit(w->payload, node))
            w->ok = false;
        return;
    }
    uint32_t n = ts_node_named_child_count(node);
    for (uint32_t i = 0; i < n && w->ok; i++)
        walk(w, ts_node_named_child(node, i));
}

bool gm_mend_each_use(const gm_syntax *syntax, const char *text, TSNode function, gm_slice name,
                      TSNode binding, gm_use_visit visit, void *payload) {
    walk_state w = {syntax, text, name, binding, visit, payload, true};
    walk(&w, function);
    return w.ok;
}

static bool accept_any(void *payload, TSNode identifier) {
    (void)payload;
    (void)identifier;
    return true;
}

TSNode gm_mend_only_assignment(const gm_syntax *syntax, const char *text, TSNode function,
                               gm_slice name) {
    TSNode null = {0};
    /* the first `name = rhs` statement of the body, found by a walk over the statements */
    TSNode body = gm_child(function, syntax->field.body);
    TSNode found = null;
    TSNode stack[64];
    unsigned depth = 0;
    if (ts_node_is_null(body))
        return null;
    stack[depth++] = body;
    while (depth > 0 && ts_node_is_null(found)) {
        TSNode node = stack[--depth];
        if (gm_is(node, syntax->sym.assignment)) {
            TSNode left = gm_child(node, syntax->field.left);
            if (gm_is(left, syntax->sym.identifier) && gm_slice_eq(gm_node_slice(left, text), name))
                found = node;
            continue;
        }
        if (gm_is(node, syntax->sym.function_definition) ||
            gm_is(node, syntax->sym.class_definition))
            continue;
        uint32_t n = ts_node_named_child_count(node);
        for (uint32_t i = n; i > 0 && depth < 64; i--)
            stack[depth++] = ts_node_named_child(node, i - 1);
    }
    if (ts_node_is_null(found))
        return null;
    TSNode rhs = gm_child(found, syntax->field.right);
    if (ts_node_is_null(rhs) || gm_is(rhs, syntax->sym.assignment))
        return null;
    if (!gm_mend_each_use(syntax, text, function, name, gm_child(found, syntax->field.left),
                          accept_any, NULL))
        return null;
    return rhs;
}

static bool text_in(TSNode node, const char *text, const char *const *words) {
    for (; *words; words++)
        if (gm_node_text_is(node, text, *words))
            return true;
    return false;
}

/* A value passed to call. */
static gm_use argument_use(gm_region *region, TSNode call) {
    const gm_syntax *syn = region->stmt->syntax;
    const char *text = region->stmt->text;
    static const char *const python_needs[] = {"range", "int", "bool", "len", NULL};
    static const char *const shape_methods[] = {
        "view",      "reshape",  "expand",   "repeat",       "narrow",    "zeros",
        "ones",      "empty",    "full",     "arange",       "new_zeros", "new_ones",
        "new_empty", "new_full", "split",    "chunk",        "topk",      "randn",
        "rand",      "randint",  "linspace", "tile",         "unflatten", "roll",
        "unfold",    "pad",      "select",   "index_select", NULL};
    gm_use use = {.kind = GM_USE_OTHER,
                  .why = "it is passed to a function, which may need a Python number"};
    TSNode fn = gm_unparen(syn, gm_child(call, syn->field.function));
    if (gm_is(fn, syn->sym.identifier) && text_in(fn, text, python_needs)) {
        use.kind = GM_USE_BREAKS;
        use.why = "it is passed to range(), int(), bool() or len(), which need a concrete value";
    } else if (gm_is(fn, syn->sym.attribute) &&
               text_in(gm_child(fn, syn->field.attribute), text, shape_methods)) {
        use.kind = GM_USE_BREAKS;
        use.why = "it is used as a shape or size argument";
    }
    return use;
}

gm_use gm_mend_use_of(gm_region *region, TSNode expr, gm_slice known_tensor) {
    const gm_syntax *syn = region->stmt->syntax;
    const char *text = region->stmt->text;
    static const char *const arithmetic[] = {"+", "-", "*", "/", "//", "%", "**", NULL};
    gm_use use = {.kind = GM_USE_OTHER, .why = "it is used where a Python number may be needed"};
    TSNode n = expr, p = ts_node_parent(expr);
    while (gm_is(p, syn->sym.parenthesized_expression)) {
        n = p;
        p = ts_node_parent(p);
    }
    if (ts_node_is_null(p))
        return use;
    if (gm_is(p, syn->sym.binary_operator)) {
        TSNode left = gm_child(p, syn->field.left), right = gm_child(p, syn->field.right);
        TSNode other = gm_unparen(syn, same_node(left, n) ? right : left);
        if (!text_in(gm_child(p, syn->field.operator), text, arithmetic)) {
            use.why = "it is an operand of an operator other than + - * / // % **";
        } else if (gm_value_of(region, other).kind == GM_KIND_TENSOR ||
                   (known_tensor.len && gm_is(other, syn->sym.identifier) &&
                    gm_slice_eq(gm_node_slice(other, text), known_tensor))) {
            use.kind = GM_USE_TENSOR_ARITH;
            use.why = "tensor arithmetic";
            use.other = other;
            use.dividend =
                same_node(left, n) && gm_node_text_is(gm_child(p, syn->field.operator), text, "/");
        } else if (gm_is(other, syn->sym.integer) || gm_is(other, syn->sym.float_literal)) {
            use = gm_mend_use_of(region, p, known_tensor);
            use.via_literals = true;
        } else {
            use.why = "it is used in arithmetic with a value not known to be a tensor";
        }
        return use;
    }
    if (type_is(p, "return_statement") ||
        ((gm_is(p, syn->sym.expression_list) || gm_is(p, syn->sym.tuple)) &&
         type_is(ts_node_parent(p), "return_statement"))) {
        use.kind = GM_USE_RETURNED;
        use.why = "it is returned, and a tensor would change what the caller gets";
        return use;
    }
    if (gm_is(p, syn->sym.if_statement) || gm_is(p, syn->sym.elif_clause) ||
        gm_is(p, syn->sym.while_statement) || gm_is(p, syn->sym.conditional_expression) ||
        gm_is(p, syn->sym.boolean_operator) || gm_is(p, syn->sym.not_operator) ||
        gm_is(p, syn->sym.comparison_operator) || type_is(p, "assert_statement")) {
        use.kind = GM_USE_BREAKS;
        use.why = "it feeds a comparison or Python control flow";
        return use;
    }
    if (gm_is(p, syn->sym.keyword_argument) && same_node(gm_child(p, syn->field.value), n))
        p = ts_node_parent(p);
    if (gm_is(p, syn->sym.argument_list) && gm_is(ts_node_parent(p), syn->sym.call))
        return argument_use(region, ts_node_parent(p));
    if ((gm_is(p, syn->sym.subscript) && !same_node(gm_child(p, syn->field.value), n)) ||
        type_is(p, "slice")) {
        use.kind = GM_USE_BREAKS;
        use.why = "it is used as an index or slice";
        return use;
    }
    if (gm_is(p, syn->sym.for_statement)) {
        use.kind = GM_USE_BREAKS;
        use.why = "it is iterated over";
        return use;
    }
    if (type_is(p, "interpolation"))
        use.why = "it is formatted into a string";
    else if (type_is(p, "pair") || gm_is(p, syn->sym.list) || gm_is(p, syn->sym.set) ||
             gm_is(p, syn->sym.tuple) || gm_is(p, syn->sym.expression_list) ||
             gm_is(p, syn->sym.dictionary))
        use.why = "it is stored in a container";
    else if (gm_is(p, syn->sym.assignment) || gm_is(p, syn->sym.augmented_assignment))
        use.why = "it is assigned on to another name or attribute";
    return use;
}

static unsigned count_bindings(const gm_syntax *syntax, const char *text, TSNode node,
                               gm_slice name) {
    if (gm_is(node, syntax->sym.identifier))
        return gm_slice_eq(gm_node_slice(node, text), name) &&
               gm_mend_identifier_is_variable(syntax, node) &&
               gm_mend_identifier_is_binding(syntax, node);
    unsigned total = 0;
    uint32_t n = ts_node_named_child_count(node);
    for (uint32_t i = 0; i < n; i++)
        total += count_bindings(syntax, text, ts_node_named_child(node, i), name);
    return total;
}

unsigned gm_mend_binding_count(const gm_syntax *syntax, const char *text, TSNode function,
                               gm_slice name) {
    return count_bindings(syntax, text, function, name);
}

bool gm_mend_names_stable(const gm_syntax *syntax, const char *text, TSNode function, TSNode expr) {
    if (gm_is(expr, syntax->sym.identifier))
        return !gm_mend_identifier_is_variable(syntax, expr) ||
               gm_mend_binding_count(syntax, text, function, gm_node_slice(expr, text)) <= 1;
    uint32_t n = ts_node_named_child_count(expr);
    for (uint32_t i = 0; i < n; i++)
        if (!gm_mend_names_stable(syntax, text, function, ts_node_named_child(expr, i)))
            return false;
    return true;
}
