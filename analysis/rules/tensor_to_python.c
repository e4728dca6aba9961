/* Tensor to Python value: GM201 tensor-item (GB0124) for `t.item()`, and GM202
 * tensor-to-python for `int(t)`, `float(t)`, `bool(t)` (GB0124 on torch 2.13: dynamo turns
 * them into Tensor.item()) and `t.tolist()` (GB0109 on a non-integer tensor, GB0033 on an
 * integer one). Only receivers/arguments whose value kind is tensor count, and NumPy values
 * (analysis/value_kinds/numpy_values.c), which dynamo traces as tensors. Other calls that need
 * tensor data (any(), math functions, torch._assert, torch.equal) are tensor_data.c's, called from
 * here. */
#include <stdio.h>
#include <string.h>

#include "analysis/logging_calls/logger_bindings.h"
#include "analysis/mends/mends.h"
#include "analysis/module_facts/symbols.h"
#include "analysis/rules/emit.h"
#include "analysis/rules/rules.h"
#include "analysis/value_kinds/numpy_values.h"
#include "analysis/value_kinds/value_kinds.h"

static bool has_no_arguments(const gm_region *region, TSNode call) {
    TSNode args = gm_child(call, region->stmt->syntax->field.arguments);
    return gm_is(args, region->stmt->syntax->sym.argument_list) &&
           ts_node_named_child_count(args) == 0;
}

/* The single positional argument of call, or a null node. */
static TSNode only_argument(const gm_region *region, TSNode call) {
    const gm_syntax *syn = region->stmt->syntax;
    TSNode args = gm_child(call, syn->field.arguments);
    TSNode null = {0};
    if (!gm_is(args, syn->sym.argument_list) || ts_node_named_child_count(args) != 1)
        return null;
    TSNode a = ts_node_named_child(args, 0);
    if (gm_is(a, syn->sym.keyword_argument))
        return null; /* a splat is of unknown kind, so it never counts either */
    return a;
}

/* `int`/`float`/`bool` naming the builtin: not imported, not bound in the function. */
static const char *builtin_conversion(gm_region *region, TSNode fn) {
    const gm_stmt_ctx *st = region->stmt;
    static const char *const names[] = {"int", "float", "bool"};
    if (!gm_is(fn, st->syntax->sym.identifier))
        return NULL;
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        if (!gm_node_text_is(fn, st->text, names[i]))
            continue;
        if (gm_symbols_is_imported(st->symbols, gm_node_slice(fn, st->text)) ||
            gm_region_binds(region, names[i]))
            return NULL;
        return names[i];
    }
    return NULL;
}

/* Whether the name expr starts from is bound by the function itself other than as a parameter
 * (`W = [1.0]`): what the function made, the kinds know; unknown there means not a tensor. */
static bool bound_in_function(gm_region *region, TSNode expr) {
    const gm_stmt_ctx *st = region->stmt;
    TSNode head = gm_chain_head(st->syntax, expr);
    if (ts_node_is_null(head) || !gm_is(head, st->syntax->sym.identifier) ||
        !gm_region_binds_node(region, head))
        return false;
    return !gm_parameters_bind_name(st->syntax, st->text, region->site.function,
                                    gm_node_slice(head, st->text));
}

/* Whether a top-level class of the file defines a method named method (`def item(self)`):
 * then the name says nothing about a value's kind. */
bool gm_file_defines_method(const gm_stmt_ctx *st, const char *method) {
    const gm_syntax *syn = st->syntax;
    const TSNode *statements;
    uint32_t count = gm_module_index_mentions(st->module_index,
                                              (gm_slice){method, (uint32_t)strlen(method)},
                                              &statements);
    for (uint32_t i = 0; i < count; i++) {
        TSNode c = statements[i];
        if (gm_is(c, syn->sym.decorated_definition))
            c = gm_child(c, syn->field.definition);
        if (!gm_is(c, syn->sym.class_definition))
            continue;
        TSNode body = gm_child(c, syn->field.body);
        for (uint32_t k = 0; !ts_node_is_null(body) && k < ts_node_named_child_count(body); k++) {
            TSNode d = ts_node_named_child(body, k);
            if (gm_is(d, syn->sym.decorated_definition))
                d = gm_child(d, syn->field.definition);
            if (gm_is(d, syn->sym.function_definition) &&
                gm_node_text_is(gm_child(d, syn->field.name), st->text, method))
                return true;
        }
    }
    return false;
}

/* Emits rule's finding at call with the scalar mends; message takes the call as written and
 * why its operand is a tensor (two %s). */
static void emit(gm_region *region, const char *rule, TSNode call, TSNode operand,
                 const char *format) {
    char shown[GM_SHOWN_SIZE], because[160], message[640];
    gm_node_shown(call, region->stmt->text, shown, sizeof shown);
    gm_tensor_operand_note(region, operand, because, sizeof because);
    snprintf(message, sizeof message, format, shown, because);
    if (gm_in_disabled_logging_guard(region, call))
        return; /* dynamo breaks at the guard's test and never runs its body */
    gm_fix mends[GM_MENDS_MAX];
    int count = gm_mend_tensor_to_python(region, call, mends);
    if (count < 0) {
        region->stmt->oom = true;
        return;
    }
    gm_emit_finding(region, gm_rule_by_id(rule), call, message, mends, (size_t)count);
}

/* `t.is_nonzero()` on a tensor: the truth value of its one element, read into a Python bool
 * (GB0033 "Data dependent operator" on torch 2.13). */
static void is_nonzero_call(gm_region *region, TSNode call, TSNode object) {
    if (gm_value_of(region, object).kind != GM_KIND_TENSOR ||
        gm_in_disabled_logging_guard(region, call))
        return;
    char shown[GM_SHOWN_SIZE], because[160], message[480];
    gm_node_shown(call, region->stmt->text, shown, sizeof shown);
    gm_tensor_operand_note(region, object, because, sizeof because);
    snprintf(message, sizeof message,
             "`%s` on a tensor%s: torch.compile reads the tensor's value into a Python bool "
             "(Tensor.item(), capture_scalar_outputs is off) and breaks the graph here",
             shown, because);
    region->mend_declined = "the rewrite keeps the test a tensor: `t != 0` (and torch.where or "
                            "torch.cond where it is branched on)";
    gm_emit_finding(region, gm_rule_by_id("GM202"), call, message, NULL, 0);
}

void gm_rule_tensor_to_python(gm_region *region, TSNode call) {
    const gm_syntax *syn = region->stmt->syntax;
    TSNode fn = gm_unparen(syn, gm_child(call, syn->field.function));
    gm_rule_tensor_data_call(region, call, fn); /* any()/all(), math, torch._assert, equal */
    if (gm_is(fn, syn->sym.attribute)) {
        TSNode attr = gm_child(fn, syn->field.attribute);
        if (ts_node_is_null(attr) || !has_no_arguments(region, call))
            return;
        bool item = gm_node_text_is(attr, region->stmt->text, "item");
        bool tolist = !item && gm_node_text_is(attr, region->stmt->text, "tolist");
        if (!item && !tolist) {
            if (gm_node_text_is(attr, region->stmt->text, "is_nonzero"))
                is_nonzero_call(region, call, gm_child(fn, syn->field.object));
            return;
        }
        gm_kind receiver = gm_value_of(region, gm_child(fn, syn->field.object)).kind;
        if (receiver == GM_KIND_UNKNOWN && !bound_in_function(region, gm_child(fn, syn->field.object)) &&
            !gm_file_defines_method(region->stmt, item ? "item" : "tolist") &&
            !gm_numpy_value(region, gm_child(fn, syn->field.object))) {
            /* no Python builtin has .item() or .tolist() without arguments: a value of unknown
             * kind from outside the function (a parameter, an attribute, a global) that has
             * them is a tensor or a NumPy array (traced as one), and both break, unless a class
             * of the file defines the method */
            receiver = GM_KIND_TENSOR;
        }
        if (receiver != GM_KIND_TENSOR) {
            /* NumPy values are traced as tensors: their .item()/.tolist() break alike */
            if (!gm_numpy_value(region, gm_child(fn, syn->field.object)) ||
                gm_in_disabled_logging_guard(region, call))
                return;
            region->mend_declined = "the value is a NumPy array or scalar, which the mend does "
                                    "not rewrite";
            char shown[GM_SHOWN_SIZE], message[400];
            gm_node_shown(call, region->stmt->text, shown, sizeof shown);
            snprintf(message, sizeof message,
                     item ? "`%s` on a NumPy value: torch.compile traces NumPy values as "
                            "tensors and cannot turn one's data into a Python number "
                            "(capture_scalar_outputs is off), so it breaks the graph here"
                          : "`%s` on a NumPy value: torch.compile traces NumPy values as "
                            "tensors and cannot turn one's data into a Python list, so it "
                            "breaks the graph here",
                     shown);
            gm_emit_finding(region, gm_rule_by_id(item ? "GM201" : "GM202"), call, message,
                            NULL, 0);
            return;
        }
        TSNode object = gm_child(fn, syn->field.object);
        if (item)
            emit(region, "GM201", call, object,
                 "`%s` on a tensor%s: torch.compile cannot trace a tensor's value into a Python "
                 "number (capture_scalar_outputs is off) and breaks the graph here");
        else
            emit(region, "GM202", call, object,
                 "`%s` on a tensor%s: torch.compile cannot turn tensor data into a Python list "
                 "while tracing and breaks the graph here");
        return;
    }
    const char *conv = builtin_conversion(region, fn);
    if (!conv)
        return;
    TSNode arg = only_argument(region, call);
    if (ts_node_is_null(arg) || gm_value_of(region, arg).kind != GM_KIND_TENSOR)
        return;
    emit(region, "GM202", call, arg,
         "`%s` of a tensor%s: torch.compile reads the tensor's value with Tensor.item(), which it "
         "cannot trace (capture_scalar_outputs is off), and breaks the graph here");
}
