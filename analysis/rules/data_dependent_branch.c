/* GM101 data-dependent-branch (GB0170 "Data-dependent branching"): Python control flow whose
 * condition is a tensor. Dynamo cannot know which way it goes while tracing. GM103
 * data-dependent-guard (also GB0170): the same break on `if not <cond>: raise ...`, a validation
 * guard that torch._assert_async can replace. GM104 tensor-not (GB0033 "Data dependent
 * operator"): `not <tensor>` as a value; torch 2.13 cannot resume after it and runs the whole
 * function eagerly. */
#include <stdio.h>
#include <string.h>

#include "analysis/mends/mends.h"
#include "analysis/module_facts/symbols.h"
#include "analysis/rules/emit.h"
#include "analysis/rules/rules.h"
#include "analysis/value_kinds/numpy_values.h"
#include "analysis/value_kinds/value_kinds.h"

static bool is_dtype_read(const gm_syntax *syn, const char *text, TSNode n) {
    return gm_is(n, syn->sym.attribute) &&
           gm_node_text_is(gm_child(n, syn->field.attribute), text, "dtype");
}

/* Collects into out (comma-separated, at most cap bytes) the dtypes of torch.<name> operands of
 * a dtype test: `x.dtype == torch.float16`, `torch.float16 == x.dtype`, `x.dtype in
 * (torch.float16, torch.bfloat16)`. Returns whether n is such a test. */
static bool dtype_test(const gm_region *region, TSNode n, char *out, size_t cap) {
    const gm_syntax *syn = region->stmt->syntax;
    const char *text = region->stmt->text;
    n = gm_unparen(syn, n);
    if (!gm_is(n, syn->sym.comparison_operator) || ts_node_named_child_count(n) != 2)
        return false;
    /* only `==` and `in` ask for the dtype (`!=`, `not in` ask for any other) */
    for (uint32_t i = 0; i < ts_node_child_count(n); i++) {
        TSNode c = ts_node_child(n, i);
        if (!ts_node_is_named(c) && strcmp(ts_node_type(c), "==") != 0 &&
            strcmp(ts_node_type(c), "in") != 0)
            return false;
    }
    TSNode left = gm_unparen(syn, ts_node_named_child(n, 0));
    TSNode right = gm_unparen(syn, ts_node_named_child(n, 1));
    TSNode other; /* the side that is not `x.dtype` */
    if (is_dtype_read(syn, text, left))
        other = right;
    else if (is_dtype_read(syn, text, right))
        other = left;
    else
        return false;
    TSNode items[8];
    uint32_t count = 0;
    if (gm_is(other, syn->sym.tuple) || gm_is(other, syn->sym.list) || gm_is(other, syn->sym.set)) {
        for (uint32_t i = 0; i < ts_node_named_child_count(other) && count < 8; i++)
            items[count++] = ts_node_named_child(other, i);
    } else {
        items[count++] = other;
    }
    size_t used = strlen(out);
    for (uint32_t i = 0; i < count; i++) {
        char name[GM_NAME_MAX];
        if (!gm_symbols_resolve(region->stmt->symbols, syn, text, items[i], name, sizeof name) ||
            strncmp(name, "torch.", 6) != 0 || strchr(name + 6, '.'))
            return false;
        int written = snprintf(out + used, cap - used, "%s%s", used ? "," : "", name + 6);
        if (written < 0 || (size_t)written >= cap - used)
            return false;
        used += (size_t)written;
    }
    return count > 0;
}

#define GM_MAX_CONJUNCTS 16

/* The conjuncts of `a and b and ...` in source order (a lone conjunct for anything else); the
 * tree nests them to the left: ((a and b) and c). Returns how many. */
static unsigned conjuncts_of(const gm_syntax *syn, TSNode condition, TSNode *out) {
    TSNode reversed[GM_MAX_CONJUNCTS];
    unsigned count = 0;
    TSNode n = gm_unparen(syn, condition);
    while (gm_is(n, syn->sym.boolean_operator) && count < GM_MAX_CONJUNCTS - 1) {
        TSNode op = gm_child(n, syn->field.operator);
        if (ts_node_is_null(op) || strcmp(ts_node_type(op), "and") != 0)
            break;
        reversed[count++] = gm_child(n, syn->field.right);
        n = gm_unparen(syn, gm_child(n, syn->field.left));
    }
    reversed[count++] = n;
    for (unsigned i = 0; i < count; i++)
        out[i] = reversed[count - 1 - i];
    return count;
}

/* The dtypes a dtype test among the leading conjuncts of `a and b and ...` asks for, before the
 * first conjunct that is a tensor: in any other dtype `and` stops at the test, and the tensor is
 * never tested. False when there is no such test. */
static bool guarding_dtypes(gm_region *region, TSNode condition, char *out, size_t cap) {
    TSNode conjuncts[GM_MAX_CONJUNCTS];
    unsigned count = conjuncts_of(region->stmt->syntax, condition, conjuncts);
    out[0] = '\0';
    for (unsigned i = 0; count > 1 && i < count; i++) {
        if (dtype_test(region, conjuncts[i], out, cap))
            return true;
        if (gm_value_of(region, conjuncts[i]).kind == GM_KIND_TENSOR)
            return false;
    }
    return false;
}

/* The Python conjuncts ahead of the first tensor one in `a and b and ...`, as source text with
 * whitespace runs collapsed (`pixels is not None and self.config.x`): dynamo evaluates them at
 * trace time and, when they are false, never tests the tensor. False when there are none (or
 * all of them fold to constants, which the walk has already decided). */
static bool guarding_condition(gm_region *region, TSNode condition, char *out, size_t cap) {
    TSNode conjuncts[GM_MAX_CONJUNCTS];
    unsigned count = conjuncts_of(region->stmt->syntax, condition, conjuncts);
    size_t used = 0;
    bool truncated = false;
    out[0] = '\0';
    for (unsigned i = 0; count > 1 && i < count; i++) {
        gm_value v = gm_value_of(region, conjuncts[i]);
        if (v.kind == GM_KIND_TENSOR)
            break;
        if (v.constant >= 0)
            continue;
        gm_slice text = gm_node_slice(conjuncts[i], region->stmt->text);
        if (used && used + 5 < cap) {
            memcpy(out + used, " and ", 5);
            used += 5;
        }
        bool space = false;
        for (uint32_t k = 0; k < text.len; k++) {
            char c = text.ptr[k];
            bool blank = c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\\';
            if (blank) {
                space = true;
                continue;
            }
            if (used + (space ? 2 : 1) + 4 >= cap) {
                truncated = true;
                break;
            }
            if (space && used > 0 && out[used - 1] != '(' && out[used - 1] != '[' && c != ')' &&
                c != ']')
                out[used++] = ' ';
            space = false;
            out[used++] = c;
        }
        if (truncated)
            break;
    }
    if (truncated)
        memcpy(out + used, "...", 4);
    else
        out[used] = '\0';
    return used > 0;
}

/* A tensor whose truth value torch.compile cannot fold at trace time. */
static bool is_runtime_tensor(gm_value value) {
    return value.kind == GM_KIND_TENSOR && value.constant < 0;
}

/* A branch on a NumPy array or scalar (`if self.up:` where __init__ got `up = i >=
 * np.log2(r)`): dynamo traces NumPy values as tensors, so the jump needs data it does not
 * have (GB0170, "generic_jump ... NumpyNdarrayVariable"). */
static void numpy_branch(gm_region *region, TSNode condition, const char *construct) {
    char message[400];
    snprintf(message, sizeof message,
             "`%s` on a NumPy value: torch.compile traces NumPy arrays and scalars as tensors, "
             "so it breaks the graph here (data-dependent branching); the code before and after "
             "runs as separate graphs",
             construct);
    region->mend_declined = "the condition is a NumPy value: make it a Python bool where it is "
                            "computed (`bool(...)`, or math instead of numpy), and the branch "
                            "folds while tracing";
    gm_emit_finding(region, gm_rule_by_id("GM101"), condition, message, NULL, 0);
}

void gm_rule_data_dependent_branch(gm_region *region, TSNode condition, gm_value value,
                                   const char *construct) {
    /* `list(t.size()) == [n, m]` with a tensor n breaks at the comparison itself */
    if (value.kind != GM_KIND_TENSOR && gm_rule_sequence_comparison(region, condition))
        return;
    if (value.kind != GM_KIND_TENSOR && value.constant < 0 && gm_numpy_value(region, condition)) {
        numpy_branch(region, condition, construct);
        return;
    }
    if (!is_runtime_tensor(value))
        return;
    char message[640], dtypes[64], shown[128], guard[128];
    if (guarding_dtypes(region, condition, dtypes, sizeof dtypes)) {
        size_t at = 0; /* "float16,bfloat16" -> "float16 or bfloat16" */
        for (const char *c = dtypes; *c && at + 4 < sizeof shown; c++) {
            if (*c == ',') {
                memcpy(shown + at, " or ", 4);
                at += 4;
            } else {
                shown[at++] = *c;
            }
        }
        shown[at] = '\0';
        snprintf(message, sizeof message,
                 "`%s` on a tensor value, behind a dtype test: when the value is %s, "
                 "torch.compile breaks the graph here (data-dependent branching) and the code "
                 "before and after runs as separate graphs; in other dtypes `and` stops at the "
                 "dtype test and nothing breaks",
                 construct, shown);
        region->only_when_dtypes = dtypes;
    } else if (guarding_condition(region, condition, guard, sizeof guard)) {
        snprintf(message, sizeof message,
                 "`%s` on a tensor value, behind a Python test: when `%s` holds, torch.compile "
                 "breaks the graph here (data-dependent branching) and the code before and after "
                 "runs as separate graphs; otherwise `and` stops before the tensor and nothing "
                 "breaks",
                 construct, guard);
        region->only_when_condition = guard;
    } else {
        snprintf(message, sizeof message,
                 "`%s` on a tensor value: torch.compile breaks the graph here (data-dependent "
                 "branching); the code before and after runs as separate graphs",
                 construct);
    }
    gm_fix mends[GM_MENDS_MAX];
    int count = gm_mend_data_dependent_branch(region, condition, mends);
    if (count == 0) {
        const char *declined = region->mend_declined;
        count = gm_mend_random_decision(region, condition, mends);
        region->mend_declined = count == 0 ? declined : NULL;
    }
    if (count < 0) {
        region->stmt->oom = true;
        return;
    }
    gm_emit_finding(region, gm_rule_by_id("GM101"), condition, message, mends, (size_t)count);
}

void gm_rule_data_dependent_guard(gm_region *region, TSNode condition, gm_value value) {
    if (!is_runtime_tensor(value))
        return;
    gm_fix mends[GM_MENDS_MAX];
    int count = gm_mend_validation_guard(region, condition, mends);
    if (count < 0) {
        region->stmt->oom = true;
        return;
    }
    gm_emit_finding(region, gm_rule_by_id("GM103"), condition,
                    "validation guard `if not ...: raise` on a tensor value: torch.compile breaks "
                    "the graph here (data-dependent branching); the code before and after runs "
                    "as separate graphs",
                    mends, (size_t)count);
}

void gm_rule_tensor_not(gm_region *region, TSNode not_operator, gm_value operand) {
    if (!is_runtime_tensor(operand))
        return;
    gm_emit_finding(region, gm_rule_by_id("GM104"), not_operator,
                    "`not` on a tensor value: torch.compile needs the tensor's data and breaks "
                    "the graph here; it cannot resume after it, so the whole function runs "
                    "eagerly",
                    NULL, 0);
    gm_region_skip_frame(region, "GM104");
}
