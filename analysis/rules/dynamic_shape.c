/* Dynamic-shape operators: GM301 dynamic-shape-op (GB0036 "Dynamic shape operator" on torch
 * 2.13 with capture_dynamic_output_shape_ops off) for `torch.nonzero`, `torch.argwhere`,
 * `torch.unique`, `torch.masked_select`, `torch.bincount`, one-argument `torch.where(c)`,
 * `torch.repeat_interleave(t, repeats)` with tensor repeats and no `output_size`,
 * `t.nonzero()`/`t.unique()` on a tensor, and boolean-mask indexing `x[x > 0]` read from a
 * tensor; GM302 one-hot-no-num-classes (GB0246) for `F.one_hot(t)` without `num_classes`. Names
 * are matched after import resolution; a name the function binds locally shadows the import. */
#include <string.h>

#include "analysis/mends/mends.h"
#include "analysis/module_facts/symbols.h"
#include "analysis/rules/emit.h"
#include "analysis/rules/rules.h"
#include "analysis/value_kinds/value_kinds.h"

/* Whether head names a module-level import the function does not shadow. */
static bool head_is_import(gm_region *region, TSNode head) {
    const gm_stmt_ctx *st = region->stmt;
    if (ts_node_is_null(head))
        return false;
    return gm_symbols_is_imported(st->symbols, gm_node_slice(head, st->text)) &&
           !gm_region_binds_node(region, head);
}

typedef struct {
    size_t positional;
    TSNode first, second;
    bool has_keyword[3]; /* output_size, num_classes, repeats */
    TSNode repeats_kw, num_classes_kw;
    bool splat;
} call_args;

static call_args read_args(const gm_region *region, TSNode call) {
    const gm_syntax *syn = region->stmt->syntax;
    const char *text = region->stmt->text;
    call_args a;
    memset(&a, 0, sizeof a);
    TSNode args = gm_child(call, syn->field.arguments);
    if (!gm_is(args, syn->sym.argument_list)) {
        a.splat = true;
        return a;
    }
    uint32_t n = ts_node_named_child_count(args);
    for (uint32_t i = 0; i < n; i++) {
        TSNode c = ts_node_named_child(args, i);
        if (gm_is(c, syn->sym.keyword_argument)) {
            TSNode name = gm_child(c, syn->field.name);
            if (gm_node_text_is(name, text, "output_size"))
                a.has_keyword[0] = true;
            else if (gm_node_text_is(name, text, "num_classes")) {
                a.has_keyword[1] = true;
                a.num_classes_kw = gm_child(c, syn->field.value);
            } else if (gm_node_text_is(name, text, "repeats")) {
                a.has_keyword[2] = true;
                a.repeats_kw = gm_child(c, syn->field.value);
            }
            continue;
        }
        const char *type = ts_node_type(c);
        if (strcmp(type, "list_splat") == 0 || strcmp(type, "dictionary_splat") == 0) {
            a.splat = true;
            continue;
        }
        if (a.positional == 0)
            a.first = c;
        else if (a.positional == 1)
            a.second = c;
        a.positional++;
    }
    return a;
}

static bool is_tensor(gm_region *region, TSNode n) {
    return !ts_node_is_null(n) && gm_value_of(region, n).kind == GM_KIND_TENSOR;
}

/* Whether n is an order or equality comparison (`deg == i`, `x > 0`; not `in` or `is`) whose
 * value has the method called on it: a Python bool has no nonzero() or unique(), so the value
 * is a tensor (or a NumPy array, traced as one) computed in the graph, whatever its operands'
 * kinds are known to be; unless a class of the file defines the method (an object overloading
 * `==` might return one of them). */
static bool computed_comparison(gm_region *region, TSNode n, const char *method) {
    const gm_syntax *syn = region->stmt->syntax;
    n = gm_unparen(syn, n);
    if (!gm_is(n, syn->sym.comparison_operator))
        return false;
    uint32_t count = ts_node_child_count(n);
    for (uint32_t i = 0; i < count; i++) {
        TSNode c = ts_node_child(n, i);
        if (ts_node_is_named(c))
            continue;
        const char *op = ts_node_type(c);
        if (strcmp(op, "==") != 0 && strcmp(op, "!=") != 0 && strcmp(op, "<") != 0 &&
            strcmp(op, ">") != 0 && strcmp(op, "<=") != 0 && strcmp(op, ">=") != 0)
            return false;
    }
    return !gm_file_defines_method(region->stmt, method);
}

/* Emits rule's finding at node with the dynamic-shape mends. */
static void emit(gm_region *region, const char *rule, TSNode node, const char *message) {
    gm_fix mends[GM_MENDS_MAX];
    int count = gm_mend_dynamic_shape(region, node, mends);
    if (count < 0) {
        region->stmt->oom = true;
        return;
    }
    gm_emit_finding(region, gm_rule_by_id(rule), node, message, mends, (size_t)count);
}

static void emit_301(gm_region *region, TSNode node, const char *message) {
    size_t before = gm_finding_list_unsuppressed(region->stmt->out);
    emit(region, "GM301", node, message);
    if (gm_finding_list_unsuppressed(region->stmt->out) > before)
        gm_rule_method_across_break(region, node);
}

/* `-1`, the num_classes default spelled out: one_hot then reads the class count from the data. */
static bool is_minus_one(const gm_region *region, TSNode n) {
    const gm_syntax *syn = region->stmt->syntax;
    n = gm_unparen(syn, n);
    if (!gm_is(n, syn->sym.unary_operator))
        return false;
    TSNode op = gm_child(n, syn->field.operator);
    TSNode arg = gm_unparen(syn, gm_child(n, syn->field.argument));
    return !ts_node_is_null(op) && strcmp(ts_node_type(op), "-") == 0 &&
           gm_is(arg, syn->sym.integer) && gm_node_text_is(arg, region->stmt->text, "1");
}

void gm_rule_dynamic_shape_call(gm_region *region, TSNode call) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    gm_rule_tensor_as_int_call(region, call);
    TSNode fn = gm_unparen(syn, gm_child(call, syn->field.function));
    if (!gm_is(fn, syn->sym.attribute) && !gm_is(fn, syn->sym.identifier))
        return;
    call_args a = read_args(region, call);
    if (a.splat)
        return;
    /* Tensor methods: t.nonzero(), t.unique(). */
    if (gm_is(fn, syn->sym.attribute)) {
        TSNode attr = gm_child(fn, syn->field.attribute);
        TSNode object = gm_child(fn, syn->field.object);
        const char *method = ts_node_is_null(attr)                         ? NULL
                             : gm_node_text_is(attr, st->text, "nonzero") ? "nonzero"
                             : gm_node_text_is(attr, st->text, "unique")  ? "unique"
                             : gm_node_text_is(attr, st->text, "unique_consecutive")
                                 ? "unique_consecutive"
                                 : NULL;
        if (method &&
            (is_tensor(region, object) || computed_comparison(region, object, method))) {
            char shown[GM_SHOWN_SIZE], because[160], message[480];
            gm_node_shown(call, st->text, shown, sizeof shown);
            gm_tensor_operand_note(region, object, because, sizeof because);
            snprintf(message, sizeof message,
                     "`%s` on a tensor%s: its output shape depends on the data, so "
                     "torch.compile breaks the graph here (dynamic shape operator)",
                     shown, because);
            emit_301(region, call, message);
            return;
        }
    }
    TSNode head = gm_chain_head(syn, fn);
    if (!head_is_import(region, head))
        return;
    char name[GM_NAME_MAX];
    if (!gm_symbols_resolve(st->symbols, syn, st->text, fn, name, sizeof name))
        return;
    /* each names the call as written (one %s) */
    const char *format = NULL;
    if (strcmp(name, "torch.nonzero") == 0 || strcmp(name, "torch.argwhere") == 0 ||
        strcmp(name, "torch.unique") == 0 || strcmp(name, "torch.unique_consecutive") == 0 ||
        strcmp(name, "torch.masked_select") == 0 || strcmp(name, "torch.bincount") == 0)
        format = "`%s`: its output shape depends on the data, so torch.compile breaks the graph "
                 "here (dynamic shape operator)";
    else if (strcmp(name, "torch.where") == 0 && a.positional == 1 && !a.has_keyword[0] &&
             ts_node_named_child_count(gm_child(call, syn->field.arguments)) == 1)
        format = "one-argument `%s`: it returns the indices of true elements, whose count "
                 "depends on the data, so torch.compile breaks the graph here (dynamic shape "
                 "operator)";
    else if (strcmp(name, "torch.repeat_interleave") == 0 && !a.has_keyword[0] &&
             is_tensor(region, a.has_keyword[2] ? a.repeats_kw : a.second))
        format = "`%s` with tensor repeats and no `output_size`: its output length depends on "
                 "the data, so torch.compile breaks the graph here (dynamic shape operator)";
    else if (strcmp(name, "torch.nn.functional.one_hot") == 0 &&
             ((!a.has_keyword[1] && a.positional == 1) ||
              (a.has_keyword[1] && a.positional == 1 && is_minus_one(region, a.num_classes_kw)) ||
              (!a.has_keyword[1] && a.positional == 2 && is_minus_one(region, a.second))))
        format = "`%s` without `num_classes`: the number of classes is read from the data, so "
                 "torch.compile breaks the graph here";
    if (!format)
        return;
    char shown[GM_SHOWN_SIZE], message[400];
    gm_node_shown(call, st->text, shown, sizeof shown);
    snprintf(message, sizeof message, format, shown);
    if (strcmp(name, "torch.nn.functional.one_hot") == 0)
        emit(region, "GM302", call, message);
    else
        emit_301(region, call, message);
}

/* `x[x > 0]`, `x[(x != pad) & ...]`: x indexed by a comparison of itself. Whatever x is, only
 * a tensor (or a NumPy array, which dynamo traces as one) takes that index, and the comparison
 * is then a boolean mask. */
static bool compares_itself(gm_region *region, TSNode value, TSNode index) {
    const gm_syntax *syn = region->stmt->syntax;
    value = gm_unparen(syn, value);
    index = gm_unparen(syn, index);
    if (gm_is(index, syn->sym.binary_operator)) {
        TSNode op = gm_child(index, syn->field.operator);
        return !ts_node_is_null(op) && strcmp(ts_node_type(op), "&") == 0 &&
               (compares_itself(region, value, gm_child(index, syn->field.left)) ||
                compares_itself(region, value, gm_child(index, syn->field.right)));
    }
    if (!gm_kinds_is_order_comparison(region, index))
        return false;
    gm_slice v = gm_node_slice(value, region->stmt->text);
    uint32_t count = ts_node_named_child_count(index);
    for (uint32_t i = 0; i < count; i++) {
        TSNode operand = gm_unparen(syn, ts_node_named_child(index, i));
        if (gm_slice_eq(gm_node_slice(operand, region->stmt->text), v))
            return true;
    }
    return false;
}

void gm_rule_boolean_mask(gm_region *region, TSNode subscript) {
    const gm_syntax *syn = region->stmt->syntax;
    gm_rule_tensor_as_int_subscript(region, subscript);
    if (region->frame_skipped)
        return;
    uint32_t count = ts_node_named_child_count(subscript);
    if (count < 2)
        return;
    /* An assignment target (`x[x > 0] = 0`) is an index_put dynamo traces; an augmented one
     * (`y[mask] += v`) reads y[mask] first. */
    TSNode function = region->site.function;
    TSNode target = subscript, parent = gm_parent_within(function, subscript);
    while (gm_is(parent, syn->sym.pattern_list) || gm_is(parent, syn->sym.tuple_pattern) ||
           gm_is(parent, syn->sym.list_pattern) || gm_is(parent, syn->sym.expression_list) ||
           gm_is(parent, syn->sym.tuple) || gm_is(parent, syn->sym.list) ||
           gm_is(parent, syn->sym.parenthesized_expression)) {
        target = parent; /* `a[m], b[m] = f(...)`: each a store */
        parent = gm_parent_within(function, parent);
    }
    if (gm_is(parent, syn->sym.assignment) && ts_node_eq(gm_child(parent, syn->field.left), target))
        return;
    TSNode value = ts_node_named_child(subscript, 0);
    /* a mask among the indices (`x[mask]`, `x[:, mask]`, verified on torch 2.13) */
    bool masked = false;
    TSNode mask = {0};
    for (uint32_t i = 1; i < count && !masked; i++) {
        TSNode index = gm_unparen(syn, ts_node_named_child(subscript, i));
        if (gm_is(index, syn->sym.comment))
            continue;
        masked = gm_kinds_is_mask(region, index) || compares_itself(region, value, index);
        mask = index;
    }
    /* what a boolean tensor indexes is a tensor (a list or a number cannot be indexed by one;
     * a NumPy array is traced as a tensor): only values known to be Python ones are left out */
    gm_kind kind = masked ? gm_value_of(region, value).kind : GM_KIND_UNKNOWN;
    if (!masked || kind == GM_KIND_STATIC || kind == GM_KIND_SCALAR ||
        gm_in_dead_operand(region, subscript))
        return;
    char shown[GM_SHOWN_SIZE], because[160], message[560];
    gm_node_shown(subscript, region->stmt->text, shown, sizeof shown);
    gm_tensor_operand_note(region, mask, because, sizeof because);
    snprintf(message, sizeof message,
             "boolean-mask indexing `%s`%s: the result's length depends on how many elements "
             "are true, so torch.compile breaks the graph here (dynamic shape operator)",
             shown, because);
    emit_301(region, subscript, message);
}
