/* Python functions that need a tensor's data, reached from tensor_to_python.c for every
 * call in the region (verified on torch 2.13):
 * - GM101 (GB0170 "Data-dependent branching"): the builtin any()/all() over a tensor, whose
 *   polyfill tests each element's truth value: `any(x > 5)`, `all(mask)`, `any([t.sum() > 0,
 *   ...])`. A comparison that is not `in`/`is` can only be iterated when it is an elementwise
 *   one (on a tensor or a NumPy array, traced as a tensor), so `any(x > 5)` counts whatever x
 *   is. Generator expressions are not looked at (their names are not the function's).
 * - GM202 (GB0033 "Data dependent operator"): a `math` function of a tensor (`math.sqrt(t)`,
 *   `math.isnan(t)`: the tensor becomes a Python float); `torch._assert(t, msg)` with a tensor
 *   condition (unlike the assert statement, it converts it to a Python bool); `torch.equal`,
 *   `torch.allclose` and the `t.equal(o)`, `t.allclose(o)` methods, which return a Python bool
 *   computed from the data; `v in t` (Tensor.__contains__ calls Tensor.item(); dynamo cannot
 *   resume after it, so the function runs eagerly).
 * Calls of NumPy functions go to numpy_call.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/mends/mends.h"
#include "analysis/module_facts/symbols.h"
#include "analysis/rules/emit.h"
#include "analysis/rules/rules.h"
#include "analysis/value_kinds/value_kinds.h"

/* math functions that convert their arguments to Python numbers (sorted: bsearch). */
static const char *const math_functions[] = {
    "acos",  "acosh",    "asin",     "asinh",     "atan",    "atan2",   "atanh",     "cbrt",
    "ceil",  "copysign", "cos",      "cosh",      "degrees", "erf",     "erfc",      "exp",
    "exp2",  "expm1",    "fabs",     "factorial", "floor",   "fmod",    "frexp",     "gamma",
    "hypot", "isclose",  "isfinite", "isinf",     "isnan",   "ldexp",   "lgamma",    "log",
    "log10", "log1p",    "log2",     "modf",      "pow",     "radians", "remainder", "sin",
    "sinh",  "sqrt",     "tan",      "tanh",      "trunc"};

static int compare_slice(const void *key, const void *item) {
    const gm_slice *s = key;
    const char *word = *(const char *const *)item;
    size_t n = strlen(word);
    int c = memcmp(s->ptr, word, s->len < n ? s->len : n);
    if (c != 0)
        return c;
    return s->len < n ? -1 : s->len > n;
}

static bool is_math_function(gm_slice name) {
    return name.len <= 9 &&
           bsearch(&name, math_functions, sizeof math_functions / sizeof math_functions[0],
                   sizeof math_functions[0], compare_slice) != NULL;
}

/* The callee's canonical name, when its head is imported and not rebound in the function. */
static bool imported_name(gm_region *region, TSNode fn, char *buf, size_t cap) {
    const gm_stmt_ctx *st = region->stmt;
    TSNode head = gm_chain_head(st->syntax, fn);
    return !ts_node_is_null(head) &&
           gm_symbols_is_imported(st->symbols, gm_node_slice(head, st->text)) &&
           !gm_region_binds_node(region, head) &&
           gm_symbols_resolve(st->symbols, st->syntax, st->text, fn, buf, cap);
}

static bool is_tensor(gm_region *region, TSNode expr) {
    return gm_value_of(region, expr).kind == GM_KIND_TENSOR;
}

/* Whether any positional argument of call is a tensor. */
static bool tensor_argument(gm_region *region, TSNode call) {
    const gm_syntax *syn = region->stmt->syntax;
    TSNode args = gm_child(call, syn->field.arguments);
    if (!gm_is(args, syn->sym.argument_list))
        return false;
    uint32_t count = ts_node_named_child_count(args);
    for (uint32_t i = 0; i < count; i++) {
        TSNode a = ts_node_named_child(args, i);
        if (!gm_is(a, syn->sym.keyword_argument) && !gm_is(a, syn->sym.comment) &&
            is_tensor(region, a))
            return true;
    }
    return false;
}

/* The first positional argument, or a null node. */
static TSNode first_positional(const gm_syntax *syn, TSNode call) {
    TSNode args = gm_child(call, syn->field.arguments);
    if (!gm_is(args, syn->sym.argument_list) || ts_node_named_child_count(args) == 0)
        return (TSNode){0};
    TSNode a = ts_node_named_child(args, 0);
    return gm_is(a, syn->sym.keyword_argument) ? (TSNode){0} : a;
}

/* The if statement whose whole test is call, or `not call`, when it is a raise guard
 * (`if not torch.equal(a, b): raise ValueError(...)`); else a null node. */
static TSNode raise_guard_of(gm_region *region, TSNode call) {
    const gm_syntax *syn = region->stmt->syntax;
    TSNode test = call, parent = ts_node_parent(call);
    while (gm_is(parent, syn->sym.parenthesized_expression) ||
           (gm_is(parent, syn->sym.not_operator) && ts_node_eq(test, gm_child(parent, syn->field.argument)))) {
        test = parent;
        parent = ts_node_parent(parent);
    }
    if (!gm_is(parent, syn->sym.if_statement) ||
        !ts_node_eq(gm_child(parent, syn->field.condition), test) ||
        !gm_mend_is_raise_guard(syn, parent))
        return (TSNode){0};
    return parent;
}

static void emit(gm_region *region, const char *rule, TSNode call, const char *message,
                 const char *declined) {
    region->mend_declined = declined;
    gm_emit_finding(region, gm_rule_by_id(rule), call, message, NULL, 0);
}

/* A comparison whose operators are all ordering or equality (not in / is), with an operand
 * that is not known to be a Python value. */
static bool elementwise_comparison(gm_region *region, TSNode n) {
    const gm_syntax *syn = region->stmt->syntax;
    if (!gm_is(n, syn->sym.comparison_operator))
        return false;
    bool ok = true;
    TSTreeCursor cursor = ts_tree_cursor_new(n);
    if (ts_tree_cursor_goto_first_child(&cursor)) {
        do {
            if (ts_tree_cursor_current_field_id(&cursor) != syn->field.operators)
                continue;
            const char *op = ts_node_type(ts_tree_cursor_current_node(&cursor));
            if (strcmp(op, "<") != 0 && strcmp(op, ">") != 0 && strcmp(op, "<=") != 0 &&
                strcmp(op, ">=") != 0 && strcmp(op, "==") != 0 && strcmp(op, "!=") != 0)
                ok = false;
        } while (ok && ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
    return ok && gm_value_of(region, n).kind != GM_KIND_STATIC;
}

/* any()/all() over a tensor. */
static void any_all(gm_region *region, TSNode call, TSNode fn) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    const char *which = gm_node_text_is(fn, st->text, "any")   ? "any"
                        : gm_node_text_is(fn, st->text, "all") ? "all"
                                                               : NULL;
    if (!which)
        return;
    TSNode args = gm_child(call, syn->field.arguments);
    TSNode arg;
    if (gm_is(args, syn->sym.generator_expression)) /* `any(t > 0 for t in ts)` */
        arg = args;
    else if (gm_is(args, syn->sym.argument_list) && ts_node_named_child_count(args) == 1)
        arg = gm_unparen(syn, ts_node_named_child(args, 0));
    else
        return;
    if (gm_is(arg, syn->sym.keyword_argument) ||
        gm_symbols_is_imported(st->symbols, gm_node_slice(fn, st->text)) ||
        gm_region_binds_node(region, fn))
        return;
    bool tensor, generator = gm_is(arg, syn->sym.generator_expression);
    if (gm_is(arg, syn->sym.list) || gm_is(arg, syn->sym.tuple)) {
        /* the first element is tested first: a tensor there breaks */
        tensor =
            ts_node_named_child_count(arg) > 0 && is_tensor(region, ts_node_named_child(arg, 0));
    } else if (generator) {
        /* `any(t.isnan().any() for t in hs)`: the element, with the loop's names bound by the
         * walk of the generator (operands go first) */
        tensor = ts_node_named_child_count(arg) > 0 &&
                 is_tensor(region, ts_node_named_child(arg, 0));
    } else {
        tensor = is_tensor(region, arg) || elementwise_comparison(region, arg);
    }
    if (!tensor)
        return;
    char message[320];
    snprintf(message, sizeof message,
             "builtin `%s()` over a tensor: it tests each element's truth value in Python, "
             "which torch.compile cannot trace (data-dependent branching), and breaks the graph "
             "here; `torch.%s(...)` keeps the result a tensor",
             which, which);
    emit(region, "GM101", call, message,
         "the rewrite to torch.any/torch.all is left to you: the branch that tests it still "
         "needs a tensor-valued rewrite");
    /* dynamo cannot rebuild the half-consumed generator to resume after the break */
    if (generator)
        gm_region_skip_frame(region, "GM101");
}

void gm_rule_tensor_data_call(gm_region *region, TSNode call, TSNode fn) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    char name[GM_NAME_MAX];
    char message[512];
    if (gm_is(fn, syn->sym.identifier)) {
        gm_slice s = gm_node_slice(fn, st->text);
        if (gm_slice_is(s, "any") || gm_slice_is(s, "all")) {
            any_all(region, call, fn);
            return;
        }
        /* `from math import sqrt` (also `as root`), `from numpy.random import uniform` */
        bool imported = imported_name(region, fn, name, sizeof name);
        if (imported && gm_rule_numpy_call(region, call, fn, name))
            return;
        if (!imported || strncmp(name, "math.", 5) != 0 ||
            strchr(name + 5, '.') ||
            !is_math_function((gm_slice){name + 5, (uint32_t)strlen(name + 5)}) ||
            !tensor_argument(region, call))
            return;
    } else if (gm_is(fn, syn->sym.attribute)) {
        TSNode attr = gm_child(fn, syn->field.attribute);
        if (ts_node_is_null(attr))
            return;
        gm_slice a = gm_node_slice(attr, st->text);
        if (imported_name(region, fn, name, sizeof name) &&
            gm_rule_numpy_call(region, call, fn, name))
            return;
        bool equal = gm_slice_is(a, "equal") || gm_slice_is(a, "allclose");
        if (gm_slice_is(a, "_check_tensor_all") || gm_slice_is(a, "_check_tensor_all_with")) {
            /* torch._check_tensor_all(cond): it takes only a tensor, and reads it with
             * Tensor.item() (verified on torch 2.13: GB0124, whatever the condition is) */
            if (imported_name(region, fn, name, sizeof name) &&
                (strcmp(name, "torch._check_tensor_all") == 0 ||
                 strcmp(name, "torch._check_tensor_all_with") == 0))
                emit(region, "GM201", call,
                     "`torch._check_tensor_all()` reads the condition's data with "
                     "Tensor.item(), which torch.compile cannot trace (capture_scalar_outputs is "
                     "off), so it breaks the graph here; `torch._assert_async(cond.all())` keeps "
                     "the check in the graph",
                     "torch._assert_async raises at a later point, so the rewrite is left to "
                     "you");
            return;
        }
        if (!equal && !gm_slice_is(a, "_assert") && !is_math_function(a))
            return;
        TSNode object = gm_unparen(syn, gm_child(fn, syn->field.object));
        if (equal || gm_slice_is(a, "_assert")) {
            if (imported_name(region, fn, name, sizeof name)) {
                if (strcmp(name, "torch._assert") == 0) {
                    TSNode cond = first_positional(syn, call);
                    if (ts_node_is_null(cond) || !is_tensor(region, cond))
                        return;
                    emit(region, "GM202", call,
                         "`torch._assert()` on a tensor condition: it converts the tensor to a "
                         "Python bool, which needs its data, so torch.compile breaks the graph "
                         "here; `torch._assert_async` keeps the check in the graph",
                         "torch._assert_async raises at a later point, so the rewrite is left to "
                         "you");
                    return;
                }
                if (strcmp(name, "torch.equal") != 0 && strcmp(name, "torch.allclose") != 0)
                    return;
            } else if (!equal || !is_tensor(region, object)) {
                return;
            }
            snprintf(message, sizeof message,
                     "`%s%.*s()` of tensors: it returns a Python bool computed from their data, "
                     "which torch.compile cannot trace, and breaks the graph here; a tensor-valued "
                     "comparison (`(a == b).all()`, `torch.isclose(a, b).all()`) keeps it in the "
                     "graph",
                     gm_is(object, syn->sym.identifier) &&
                             imported_name(region, fn, name, sizeof name)
                         ? "torch."
                         : ".",
                     (int)a.len, a.ptr);
            /* the test of a raise guard (`if not torch.equal(a, b): raise ...`): the whole
             * guard becomes an in-graph assertion (trap.c) */
            TSNode guard = raise_guard_of(region, call);
            if (!ts_node_is_null(guard)) {
                gm_fix mends[GM_MENDS_MAX];
                int count = gm_mend_validation_guard(
                    region, gm_child(guard, syn->field.condition), mends);
                if (count < 0) {
                    region->stmt->oom = true;
                    return;
                }
                gm_emit_finding(region, gm_rule_by_id("GM202"), call, message, mends,
                                (size_t)count);
                return;
            }
            emit(region, "GM202", call, message,
                 "a tensor-valued comparison differs for tensors of other shapes, so the rewrite "
                 "is left to you");
            return;
        }
        if (!is_math_function(a) || !gm_is(object, syn->sym.identifier) ||
            !imported_name(region, fn, name, sizeof name) || strncmp(name, "math.", 5) != 0 ||
            !tensor_argument(region, call))
            return;
    } else {
        return;
    }
    snprintf(message, sizeof message,
             "`%.64s()` of a tensor: the math module converts the tensor to a Python number, which "
             "needs its data, so torch.compile breaks the graph here; the torch function keeps "
             "it a tensor",
             name);
    emit(region, "GM202", call, message,
         "the torch equivalent returns a tensor, which the code after it may not expect");
}

void gm_rule_tensor_contains(gm_region *region, TSNode comparison) {
    const gm_syntax *syn = region->stmt->syntax;
    bool after_containment = false, found = false;
    TSTreeCursor cursor = ts_tree_cursor_new(comparison);
    if (ts_tree_cursor_goto_first_child(&cursor)) {
        do {
            TSNode c = ts_tree_cursor_current_node(&cursor);
            if (ts_tree_cursor_current_field_id(&cursor) == syn->field.operators) {
                const char *t = ts_node_type(c);
                after_containment = strcmp(t, "in") == 0 || strcmp(t, "not in") == 0;
            } else if (ts_node_is_named(c) && !gm_is(c, syn->sym.comment)) {
                found = after_containment && is_tensor(region, c);
                after_containment = false;
            }
        } while (!found && ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
    if (!found)
        return;
    emit(region, "GM202", comparison,
         "`in` on a tensor: Tensor.__contains__ reads the data with Tensor.item(), which "
         "torch.compile cannot trace; it cannot resume after it, so the whole function runs "
         "eagerly; `(t == v).any()` keeps the test in the graph as a tensor",
         "the rewrite changes a Python bool into a tensor, so it is left to you");
    gm_region_skip_frame(region, "GM202");
}
