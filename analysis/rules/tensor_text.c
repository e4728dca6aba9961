/* A tensor turned into text in a compiled region (verified on torch 2.13 with explain and the
 * graph_breaks log), GM202:
 * - `str(t)` (GB0059 "Failed to trace builtin operator") and `repr(t)` ("repr() on tensor"):
 *   dynamo ends the graph at the call and resumes after it;
 * - printf-style formatting, `"%s" % t` or `"... %d" % (t, n)`: dynamo cannot resume after it
 *   and runs the whole function eagerly.
 * An f-string or str.format of a tensor traces, and so does text made of sizes (`str(x.shape)`).
 */
#include <stdio.h>
#include <string.h>

#include "analysis/module_facts/symbols.h"
#include "analysis/rules/emit.h"
#include "analysis/rules/rules.h"
#include "analysis/value_kinds/value_kinds.h"

static bool is_tensor(gm_region *region, TSNode n) {
    return !ts_node_is_null(n) && gm_value_of(region, n).kind == GM_KIND_TENSOR;
}

static void emit(gm_region *region, TSNode node, TSNode operand, const char *format) {
    char shown[GM_SHOWN_SIZE], because[160], message[640];
    gm_node_shown(node, region->stmt->text, shown, sizeof shown);
    gm_tensor_operand_note(region, operand, because, sizeof because);
    snprintf(message, sizeof message, format, shown, because);
    region->mend_declined = "graphmend has no rewrite for this construct; format the tensor "
                            "outside the compiled code, or with an f-string, which traces";
    gm_emit_finding(region, gm_rule_by_id("GM202"), node, message, NULL, 0);
}

void gm_rule_tensor_text_call(gm_region *region, TSNode call) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    TSNode fn = gm_unparen(syn, gm_child(call, syn->field.function));
    if (!gm_is(fn, syn->sym.identifier) ||
        !(gm_node_text_is(fn, st->text, "str") || gm_node_text_is(fn, st->text, "repr")) ||
        gm_symbols_is_imported(st->symbols, gm_node_slice(fn, st->text)) ||
        gm_region_binds_node(region, fn))
        return;
    TSNode args = gm_child(call, syn->field.arguments);
    if (!gm_is(args, syn->sym.argument_list) || ts_node_named_child_count(args) != 1)
        return;
    TSNode arg = ts_node_named_child(args, 0);
    if (gm_is(arg, syn->sym.keyword_argument) || !is_tensor(region, arg) ||
        gm_in_dead_operand(region, call))
        return;
    emit(region, call, arg,
         "`%s` of a tensor%s: torch.compile cannot build a tensor's text while tracing and "
         "breaks the graph here; an f-string (`f\"{t}\"`) traces");
}

/* The operand of `%` that is a tensor: the right side, or an element of a tuple there. */
static TSNode tensor_format_operand(gm_region *region, TSNode right) {
    const gm_syntax *syn = region->stmt->syntax;
    right = gm_unparen(syn, right);
    if (!gm_is(right, syn->sym.tuple))
        return is_tensor(region, right) ? right : (TSNode){0};
    for (uint32_t i = 0; i < ts_node_named_child_count(right); i++) {
        TSNode element = ts_node_named_child(right, i);
        if (is_tensor(region, element))
            return element;
    }
    return (TSNode){0};
}

void gm_rule_tensor_text_format(gm_region *region, TSNode binary) {
    const gm_syntax *syn = region->stmt->syntax;
    TSNode op = gm_child(binary, syn->field.operator);
    if (ts_node_is_null(op) || strcmp(ts_node_type(op), "%") != 0)
        return;
    TSNode left = gm_unparen(syn, gm_child(binary, syn->field.left));
    if (!gm_is(left, syn->sym.string) && !gm_is(left, syn->sym.concatenated_string))
        return;
    TSNode operand = tensor_format_operand(region, gm_child(binary, syn->field.right));
    if (ts_node_is_null(operand) || gm_in_dead_operand(region, binary))
        return;
    emit(region, binary, operand,
         "`%s` formats a tensor%s with `%%`: torch.compile cannot trace it and cannot resume "
         "after the break, so the whole function runs eagerly; an f-string (`f\"{t}\"`) traces");
    gm_region_skip_frame(region, "GM202");
}
