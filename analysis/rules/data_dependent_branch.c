/* GM101 data-dependent-branch (GB0170 "Data-dependent branching"): Python control flow whose
 * condition is a tensor. Dynamo cannot know which way it goes while tracing. GM103
 * data-dependent-guard (also GB0170): the same break on `if not <cond>: raise ...`, a validation
 * guard that torch._assert_async can replace. GM104 tensor-not (GB0033 "Data dependent
 * operator"): `not <tensor>` as a value; torch 2.13 cannot resume after it and runs the whole
 * function eagerly. */
#include <stdio.h>
#include <string.h>

#include "analysis/mends/hit_loop.h"
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

/* A tensor whose truth value torch.compile cannot fold at trace time. */
static bool is_runtime_tensor(gm_value value) {
    return value.kind == GM_KIND_TENSOR && value.constant < 0;
}

/* The guard under construction: Python tests joined by " and ", whitespace runs collapsed. */
typedef struct {
    char *out;
    size_t cap, used;
    bool truncated;
} guard_text;

static void guard_append(guard_text *g, const char *text, size_t len) {
    if (g->truncated)
        return;
    size_t room = g->cap > g->used + 4 ? g->cap - g->used - 4 : 0;
    bool cut;
    g->used += gm_collapse_whitespace((gm_slice){text, (uint32_t)len}, g->out + g->used, room, &cut);
    g->truncated = cut;
}

/* Appends text as it is (separators). */
static void guard_raw(guard_text *g, const char *text) {
    size_t len = strlen(text);
    if (g->used + len + 4 >= g->cap) {
        g->truncated = true;
        return;
    }
    memcpy(g->out + g->used, text, len);
    g->used += len;
}

/* Adds the test that e comes out true (or false, negated): `x is None` negated reads
 * `x is not None`, `not x` negated reads `x`, anything else `not (...)`. */
static void guard_add_test(gm_region *region, guard_text *g, TSNode e, bool negated) {
    const gm_syntax *syn = region->stmt->syntax;
    const char *text = region->stmt->text;
    if (g->used)
        guard_raw(g, " and ");
    e = gm_unparen(syn, e);
    if (negated && gm_is(e, syn->sym.not_operator)) {
        gm_slice inner = gm_node_slice(gm_child(e, syn->field.argument), text);
        guard_append(g, inner.ptr, inner.len);
        return;
    }
    gm_slice whole = gm_node_slice(e, text);
    if (negated && gm_is(e, syn->sym.comparison_operator) && ts_node_child_count(e) == 3) {
        TSNode op = ts_node_child(e, 1);
        gm_slice left = gm_node_slice(ts_node_child(e, 0), text);
        gm_slice right = gm_node_slice(ts_node_child(e, 2), text);
        const char *flipped = gm_node_text_is(op, text, "is")       ? " is not "
                              : gm_node_text_is(op, text, "is not") ? " is "
                              : gm_node_text_is(op, text, "==")     ? " != "
                              : gm_node_text_is(op, text, "!=")     ? " == "
                                                                    : NULL;
        if (flipped) {
            guard_append(g, left.ptr, left.len);
            guard_raw(g, flipped);
            guard_append(g, right.ptr, right.len);
            return;
        }
    }
    if (negated) {
        bool simple = gm_is(e, syn->sym.identifier) || gm_is(e, syn->sym.attribute) ||
                      gm_is(e, syn->sym.call) || gm_is(e, syn->sym.subscript);
        guard_raw(g, simple ? "not " : "not (");
        guard_append(g, whole.ptr, whole.len);
        if (!simple)
            guard_raw(g, ")");
        return;
    }
    guard_append(g, whole.ptr, whole.len);
}

static bool is_operator(const gm_syntax *syn, TSNode e, const char *op) {
    if (!gm_is(e, syn->sym.boolean_operator))
        return false;
    TSNode o = gm_child(e, syn->field.operator);
    return !ts_node_is_null(o) && strcmp(ts_node_type(o), op) == 0;
}

/* Adds the tests that e, an operand of an `op` chain evaluated before the tensor, comes out as
 * the chain needs to go on (true for and, false for or): each operand of a nested chain of the
 * same operator on its own, leaving out those that fold to constants. */
static void guard_add_operand(gm_region *region, guard_text *g, TSNode e, const char *op) {
    const gm_syntax *syn = region->stmt->syntax;
    e = gm_unparen(syn, e);
    if (is_operator(syn, e, op)) {
        guard_add_operand(region, g, gm_child(e, syn->field.left), op);
        guard_add_operand(region, g, gm_child(e, syn->field.right), op);
        return;
    }
    if (gm_value_of(region, e).constant < 0)
        guard_add_test(region, g, e, strcmp(op, "or") == 0);
}

/* Whether evaluating e tests a runtime tensor, adding to g the Python tests that must come out
 * as they do for evaluation to get there: the operands before it in `and` (true) and `or`
 * (false) chains, at any depth (`a is None or (not cache.ok and mask.all())`). Operands that
 * fold to constants add nothing (the walk has decided them). */
static bool tensor_reached_when(gm_region *region, TSNode e, guard_text *g, int depth) {
    const gm_syntax *syn = region->stmt->syntax;
    e = gm_unparen(syn, e);
    if (depth > 32)
        return false;
    if (gm_is(e, syn->sym.not_operator))
        return tensor_reached_when(region, gm_child(e, syn->field.argument), g, depth + 1);
    if (!gm_is(e, syn->sym.boolean_operator))
        return is_runtime_tensor(gm_value_of(region, e));
    TSNode left = gm_child(e, syn->field.left), right = gm_child(e, syn->field.right);
    if (tensor_reached_when(region, left, g, depth + 1))
        return true;
    size_t before = g->used;
    bool truncated_before = g->truncated;
    guard_add_operand(region, g, left, is_operator(syn, e, "or") ? "or" : "and");
    if (tensor_reached_when(region, right, g, depth + 1))
        return true;
    g->used = before; /* no tensor on this side: its tests say nothing */
    g->truncated = truncated_before;
    return false;
}

/* The Python tests that must hold for the condition to test its tensor operand, as source text
 * (`pixels is not None and self.config.x`): dynamo evaluates them at trace time and, when they
 * do not hold, never tests the tensor. False when there are none. */
static bool guarding_condition(gm_region *region, TSNode condition, char *out, size_t cap) {
    guard_text g = {out, cap, 0, false};
    out[0] = '\0';
    if (!tensor_reached_when(region, condition, &g, 0) || g.used == 0)
        return false;
    if (g.truncated)
        memcpy(out + g.used, "...", 4);
    else
        out[g.used] = '\0';
    return true;
}


/* A branch on a NumPy array or scalar (`if self.up:` where __init__ got `up = i >=
 * np.log2(r)`): dynamo traces NumPy values as tensors, so the jump needs data it does not
 * have (GB0170, "generic_jump ... NumpyNdarrayVariable"). */
static void numpy_branch(gm_region *region, TSNode condition, const char *construct) {
    char message[400];
    snprintf(message, sizeof message,
             "`%s` on a NumPy value: torch.compile traces NumPy arrays and scalars as tensors, "
             "so it breaks the graph here (data-dependent branching)",
             construct);
    region->mend_declined = "the condition is a NumPy value: make it a Python bool where it is "
                            "computed (`bool(...)`, or math instead of numpy), and the branch "
                            "folds while tracing";
    gm_emit_finding(region, gm_rule_by_id("GM101"), condition, message, NULL, 0);
}

/* The construct as the user wrote it, so that findings differ at a glance: `if
 * probs.isnan().any()`, `... if mask.any() else ...`, `flag and ...`; the condition's
 * whitespace collapsed and a long one cut. The bare construct when it has no such form. */
static void describe_construct(gm_region *region, TSNode condition, const char *construct,
                               char *out, size_t cap) {
    char shown[72];
    gm_node_shown(condition, region->stmt->text, shown, sizeof shown);
    if (strcmp(construct, "if") == 0 || strcmp(construct, "elif") == 0 ||
        strcmp(construct, "while") == 0)
        snprintf(out, cap, "%s %s", construct, shown);
    else if (strcmp(construct, "conditional expression") == 0)
        snprintf(out, cap, "... if %s else ...", shown);
    else if (strcmp(construct, "and") == 0 || strcmp(construct, "or") == 0)
        snprintf(out, cap, "%s %s ...", shown, construct);
    else if (strncmp(construct, "assert", 6) == 0)
        snprintf(out, cap, "assert %s, <message>", shown);
    else
        snprintf(out, cap, "%s", construct);
}

void gm_rule_data_dependent_branch(gm_region *region, TSNode condition, gm_value value,
                                   const char *kind) {
    char construct[160];
    describe_construct(region, condition, kind, construct, sizeof construct);
    /* `list(t.size()) == [n, m]` with a tensor n breaks at the comparison itself */
    if (value.kind != GM_KIND_TENSOR && gm_rule_sequence_comparison(region, condition))
        return;
    if (value.kind != GM_KIND_TENSOR && value.constant < 0 && gm_numpy_value(region, condition)) {
        numpy_branch(region, condition, construct);
        return;
    }
    if (!is_runtime_tensor(value))
        return;
    char message[800], dtypes[64], shown[128], guard[128], because[160];
    gm_tensor_operand_note(region, condition, because, sizeof because);
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
                 "`%s` on a tensor value%s, behind a dtype test: when the value is %s, "
                 "torch.compile breaks the graph here (data-dependent branching); in other dtypes "
                 "`and` stops at the dtype test and nothing breaks",
                 construct, because, shown);
        region->only_when_dtypes = dtypes;
    } else if (guarding_condition(region, condition, guard, sizeof guard)) {
        snprintf(message, sizeof message,
                 "`%s` on a tensor value%s, behind a Python test: when `%s` holds, torch.compile "
                 "breaks the graph here (data-dependent branching); otherwise Python's `and`/`or` "
                 "stops before the tensor and nothing breaks",
                 construct, because, guard);
        region->only_when_condition = guard;
    } else {
        snprintf(message, sizeof message,
                 "`%s` on a tensor value%s: torch.compile breaks the graph here (data-dependent "
                 "branching)",
                 construct, because);
    }
    gm_fix mends[GM_MENDS_MAX];
    int count = gm_mend_data_dependent_branch(region, condition, mends);
    if (count == 0) {
        const char *declined = region->mend_declined;
        count = gm_mend_random_decision(region, condition, mends);
        if (count == 0)
            count = gm_mend_hit_loop_of_test(region, condition, mends);
        if (count == 0) {
            const char *why = region->mend_declined;
            count = gm_mend_assert_guard(region, condition, mends);
            if (count != 0 || !region->mend_declined)
                region->mend_declined = why;
            else
                declined = region->mend_declined;
        }
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
    char shown[GM_SHOWN_SIZE], because[160], message[560];
    gm_node_shown(condition, region->stmt->text, shown, sizeof shown);
    gm_tensor_operand_note(region, condition, because, sizeof because);
    snprintf(message, sizeof message,
             "validation guard `if not %s: raise` on a tensor value%s: torch.compile breaks the "
             "graph here (data-dependent branching); the code before and after runs as separate "
             "graphs",
             shown, because);
    gm_emit_finding(region, gm_rule_by_id("GM103"), condition, message, mends, (size_t)count);
}

void gm_rule_tensor_not(gm_region *region, TSNode not_operator, gm_value operand) {
    if (!is_runtime_tensor(operand))
        return;
    char shown[GM_SHOWN_SIZE], because[160], message[560];
    gm_node_shown(not_operator, region->stmt->text, shown, sizeof shown);
    gm_tensor_operand_note(region, gm_child(not_operator, region->stmt->syntax->field.argument),
                           because, sizeof because);
    snprintf(message, sizeof message,
             "`%s` on a tensor value%s: torch.compile needs the tensor's data and breaks the graph "
             "here; it cannot resume after it, so the whole function runs eagerly",
             shown, because);
    gm_emit_finding(region, gm_rule_by_id("GM104"), not_operator, message, NULL, 0);
    gm_region_skip_frame(region, "GM104");
}
