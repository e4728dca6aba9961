/* [Cond] for GM101: an if whose branches cannot be one select (several statements, calls of
 * submodules) but are pure becomes torch.cond over two local functions. Their parameters,
 * the explicit operands, are the tensors the branches read; other names (self, modules,
 * Python values) are closed over, as torch.cond allows. They return the names the branches
 * bind and the code after the if reads (a branch that does not bind one returns a clone of its
 * value before the if: torch.cond forbids returning an input). Only the taken branch runs, but
 * both are traced and must give tensors of the same shape and dtype, or compiling fails: the
 * mend is unsafe. The branch bodies are copied verbatim, comments included. */
#include <stdlib.h>
#include <string.h>

#include "analysis/mends/branch.h"
#include "analysis/mends/mends.h"
#include "analysis/value_kinds/value_kinds.h"

#define MAX_NAMES 32
#define MAX_DEPTH 100

typedef struct {
    gm_slice items[MAX_NAMES];
    TSNode last_value[MAX_NAMES]; /* for assigned names: the value last bound in the branch */
    unsigned count;
} name_list;

static int list_find(const name_list *l, gm_slice s) {
    for (unsigned i = 0; i < l->count; i++)
        if (gm_slice_eq(l->items[i], s))
            return (int)i;
    return -1;
}

static bool list_add(name_list *l, gm_slice s) {
    if (list_find(l, s) >= 0)
        return true;
    if (l->count == MAX_NAMES)
        return false;
    l->items[l->count++] = s;
    return true;
}

typedef struct {
    gm_region *region;
    const gm_branch_if *branch;
    name_list operands;
    const char *why;
} cond_ctx;

typedef struct {
    const gm_branch_arm *arm;
    name_list will_assign; /* every name the branch binds */
    name_list assigned;    /* the names bound so far, in order */
    TSNode returned;       /* the value of the branch's final return, or null */
} arm_info;

static bool is_self(const gm_region *r, gm_slice s) {
    return r->self_name.len > 0 && gm_slice_eq(s, r->self_name);
}

/* A name the branch reads before binding it itself: a tensor becomes an operand. */
static bool read_name(cond_ctx *c, arm_info *a, TSNode id) {
    const char *text = c->region->stmt->text;
    gm_slice s = gm_node_slice(id, text);
    if (list_find(&a->assigned, s) >= 0 || is_self(c->region, s) ||
        !gm_region_binds_node(c->region, id))
        return true;
    if (gm_value_of(c->region, id).kind == GM_KIND_TENSOR) {
        if (!list_add(&c->operands, s)) {
            c->why = "the branches read too many tensors to pass to torch.cond";
            return false;
        }
        return true;
    }
    if (list_find(&a->will_assign, s) >= 0) {
        c->why = "a branch reads a name before rebinding it, and the name is not known to be a "
                 "tensor that torch.cond could take as an operand";
        return false;
    }
    return true; /* closed over */
}

static bool reads(cond_ctx *c, arm_info *a, TSNode n, int depth) {
    const gm_syntax *syn = c->region->stmt->syntax;
    if (ts_node_is_null(n))
        return true;
    if (depth > MAX_DEPTH) {
        c->why = "a branch is too deeply nested to rewrite";
        return false;
    }
    if (gm_is(n, syn->sym.identifier))
        return read_name(c, a, n);
    if (gm_is(n, syn->sym.attribute))
        return reads(c, a, gm_child(n, syn->field.object), depth + 1);
    if (gm_is(n, syn->sym.keyword_argument))
        return reads(c, a, gm_child(n, syn->field.value), depth + 1);
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
        if (!reads(c, a, ts_node_named_child(n, i), depth + 1))
            return false;
    return true;
}

/* The names a target binds: a name or a tuple of names. */
static bool target_names(cond_ctx *c, TSNode t, name_list *out, TSNode value) {
    const gm_syntax *syn = c->region->stmt->syntax;
    if (gm_is(t, syn->sym.identifier)) {
        gm_slice s = gm_node_slice(t, c->region->stmt->text);
        if (!list_add(out, s)) {
            c->why = "the branches bind too many names to rewrite";
            return false;
        }
        out->last_value[list_find(out, s)] = value;
        return true;
    }
    if (gm_is(t, syn->sym.pattern_list) || gm_is(t, syn->sym.tuple_pattern)) {
        /* each name gets a part of value: judged by value as a whole */
        for (uint32_t i = 0; i < ts_node_named_child_count(t); i++)
            if (!target_names(c, ts_node_named_child(t, i), out, value))
                return false;
        return true;
    }
    c->why = "a branch writes an attribute or item, an effect torch.cond cannot hold";
    return false;
}

/* A value known not to be a tensor (a literal, a shape, an .item()). */
static bool is_python_value(gm_region *r, TSNode value) {
    gm_kind k = gm_value_of(r, value).kind;
    return k == GM_KIND_STATIC || k == GM_KIND_SCALAR;
}

/* Operations whose result may share storage with their input (or be the input itself):
 * torch.cond forbids a branch to return such an alias of an operand. */
static const char *const aliasing_methods[] = {
    "view",         "view_as",    "reshape",
    "reshape_as",   "chunk",      "split",
    "tensor_split", "unbind",     "transpose",
    "permute",      "t",          "squeeze",
    "unsqueeze",    "expand",     "expand_as",
    "narrow",       "select",     "flatten",
    "unflatten",    "contiguous", "detach",
    "movedim",      "swapaxes",   "diagonal",
    "as_strided",   "unfold",     "to",
    "type",         "type_as",    "float",
    "half",         "double",     "bfloat16",
    "int",          "long",       "bool",
    "cpu",          "cuda",       "split_with_sizes",
    NULL,
};

/* Whether value may be an input itself or share its storage. */
static bool may_alias(const gm_syntax *syn, const char *text, TSNode value) {
    value = gm_unparen(syn, value);
    if (gm_is(value, syn->sym.identifier) || gm_is(value, syn->sym.attribute) ||
        gm_is(value, syn->sym.subscript))
        return true;
    if (!gm_is(value, syn->sym.call))
        return false;
    TSNode fn = gm_unparen(syn, gm_child(value, syn->field.function));
    TSNode name = gm_is(fn, syn->sym.attribute) ? gm_child(fn, syn->field.attribute) : fn;
    if (!gm_is(name, syn->sym.identifier))
        return false;
    gm_slice s = gm_node_slice(name, text);
    for (size_t i = 0; aliasing_methods[i]; i++)
        if (gm_slice_is(s, aliasing_methods[i]))
            return true;
    return false;
}

static bool is_return(TSNode stmt) {
    return !ts_node_is_null(stmt) && strcmp(ts_node_type(stmt), "return_statement") == 0;
}

static bool admit_effect(cond_ctx *c, TSNode expr) {
    const char *why = NULL;
    if (gm_branch_expr_effect(c->region, expr, &why) == GM_EXPR_EFFECTFUL) {
        c->why = why;
        return false;
    }
    return true;
}

/* Checks one branch: assignments of names only, then an optional return. */
static bool scan_arm(cond_ctx *c, const gm_branch_arm *arm, arm_info *a) {
    const gm_syntax *syn = c->region->stmt->syntax;
    memset(a, 0, sizeof *a);
    a->arm = arm;
    for (unsigned i = 0; i < arm->count; i++) {
        TSNode target, value;
        if (gm_branch_assignment(syn, arm->stmts[i], &target, &value)) {
            if (!target_names(c, target, &a->will_assign, value))
                return false;
        } else if (!(is_return(arm->stmts[i]) && i + 1 == arm->count)) {
            c->why = "a branch holds a statement other than assignments (torch.cond branches "
                     "must be pure functions)";
            return false;
        }
    }
    for (unsigned i = 0; i < arm->count; i++) {
        TSNode target, value;
        if (gm_branch_assignment(syn, arm->stmts[i], &target, &value)) {
            if (gm_branch_joins_tensors(syn, c->region->stmt->text, value)) {
                c->why = "a branch value joins tensors (torch.cat, torch.stack), so the branches "
                         "differ in shape, which torch.cond does not allow";
                return false;
            }
            if (!admit_effect(c, value) || !reads(c, a, value, 0) ||
                !target_names(c, target, &a->assigned, value))
                return false;
        } else {
            a->returned = ts_node_named_child(arm->stmts[i], 0);
            if (ts_node_is_null(a->returned)) {
                c->why = "a branch returns nothing";
                return false;
            }
            if (!admit_effect(c, a->returned) || !reads(c, a, a->returned, 0))
                return false;
            if ((gm_is(a->returned, syn->sym.identifier) &&
                 list_find(&a->assigned, gm_node_slice(a->returned, c->region->stmt->text)) < 0) ||
                (!gm_is(a->returned, syn->sym.identifier) &&
                 may_alias(syn, c->region->stmt->text, a->returned))) {
                c->why = "a branch returns an input unchanged or a view of one, which torch.cond "
                         "does not allow";
                return false;
            }
        }
    }
    return true;
}

/* Whether the function reads or binds name outside the if (so the if's value of it matters). */
static bool used_outside(cond_ctx *c, gm_slice name) {
    const gm_stmt_ctx *st = c->region->stmt;
    TSNode fn = gm_branch_function_of(st->syntax, c->branch->stmt);
    if (ts_node_is_null(fn))
        return true;
    uint32_t s = ts_node_start_byte(c->branch->stmt), e = ts_node_end_byte(c->branch->stmt);
    return gm_text_has_word(st->text, ts_node_start_byte(fn), s, name) ||
           gm_text_has_word(st->text, e, ts_node_end_byte(fn), name);
}

/* The line indentation of a branch's first statement; false (with c->why) when the statement
 * shares the line of its if or else. */
static bool arm_indent(cond_ctx *c, const gm_branch_arm *arm, gm_slice *indent) {
    gm_stmt_layout l;
    gm_stmt_layout_of(c->region->stmt->text, c->region->stmt->len, arm->stmts[0], &l);
    *indent = l.indent;
    if (!l.alone)
        c->why = "a branch shares a line with its if or else";
    return l.alone;
}

static void append_outputs(gm_text_builder *tb, cond_ctx *c, const name_list *outputs,
                           const arm_info *a) {
    const gm_syntax *syn = c->region->stmt->syntax;
    for (unsigned i = 0; i < outputs->count; i++) {
        if (i > 0)
            gm_tb_append_str(tb, ", ");
        gm_tb_append(tb, outputs->items[i].ptr, outputs->items[i].len);
        int at = list_find(&a->assigned, outputs->items[i]);
        /* not bound, or bound to what may be an input or a view of one: a copy, as torch.cond
         * wants */
        if (at < 0 || may_alias(syn, c->region->stmt->text, a->assigned.last_value[at]))
            gm_tb_append_str(tb, ".clone()");
    }
}

static void append_function(gm_text_builder *tb, cond_ctx *c, const char *name, const arm_info *a,
                            gm_slice indent, const name_list *outputs) {
    const gm_stmt_ctx *st = c->region->stmt;
    const gm_stmt_layout *layout = &c->branch->layout;
    gm_tb_appendf(tb, "def %s(", name);
    for (unsigned i = 0; i < c->operands.count; i++) {
        if (i > 0)
            gm_tb_append_str(tb, ", ");
        gm_tb_append(tb, c->operands.items[i].ptr, c->operands.items[i].len);
    }
    gm_tb_appendf(tb, "):%s", layout->newline);
    if (!ts_node_is_null(a->arm->block) && a->arm->count > 0) {
        gm_tb_append(tb, indent.ptr, indent.len);
        gm_tb_append_node(tb, st->text, a->arm->block);
        gm_tb_append_str(tb, layout->newline);
    }
    if (ts_node_is_null(a->returned)) {
        gm_tb_append(tb, indent.ptr, indent.len);
        gm_tb_append_str(tb, "return ");
        append_outputs(tb, c, outputs, a);
        gm_tb_append_str(tb, layout->newline);
    }
    gm_tb_append(tb, layout->indent.ptr, layout->indent.len);
}

int gm_mend_branch_cond(gm_region *region, const gm_branch_if *branch, gm_fix *out,
                        const char **why) {
    const gm_stmt_ctx *st = region->stmt;
    cond_ctx c;
    memset(&c, 0, sizeof c);
    c.region = region;
    c.branch = branch;
    arm_info then_info, else_info;
    if (branch->elif_count > 0) {
        *why = "the if has an elif chain without a select shape, and torch.cond takes two "
               "branches";
        return 0;
    }
    if (branch->then_arm.count == 0) {
        *why = "the if does nothing when taken";
        return 0;
    }
    if (!scan_arm(&c, &branch->then_arm, &then_info) ||
        !scan_arm(&c, &branch->else_arm, &else_info)) {
        *why = c.why;
        return 0;
    }
    bool returns = !ts_node_is_null(then_info.returned);
    if (returns != !ts_node_is_null(else_info.returned) || (returns && else_info.arm->count == 0)) {
        *why = "only one branch returns: torch.cond needs both to give the same structure";
        return 0;
    }
    name_list outputs;
    memset(&outputs, 0, sizeof outputs);
    for (int arm = 0; !returns && arm < 2; arm++) {
        const name_list *bound = arm == 0 ? &then_info.assigned : &else_info.assigned;
        for (unsigned i = 0; i < bound->count; i++) {
            gm_slice name = bound->items[i];
            if (list_find(&outputs, name) >= 0)
                continue;
            bool tensor_before = false;
            for (size_t k = region->env.count; k-- > 0;)
                if (gm_slice_eq(region->env.items[k].name, name)) {
                    tensor_before = region->env.items[k].kind == GM_KIND_TENSOR;
                    break;
                }
            if (!tensor_before && !used_outside(&c, name))
                continue; /* a temporary of the branch */
            const name_list *other = arm == 0 ? &else_info.assigned : &then_info.assigned;
            if (list_find(other, name) < 0) {
                if (!tensor_before) {
                    *why = "a name is bound on one branch only and is not a tensor before the "
                           "if, so the other branch has no value to give";
                    return 0;
                }
                if (!list_add(&c.operands, name)) {
                    *why = "the branches read too many tensors to pass to torch.cond";
                    return 0;
                }
            }
            for (int k = 0; k < 2; k++) {
                const name_list *l = k == 0 ? &then_info.assigned : &else_info.assigned;
                int at = list_find(l, name);
                if (at >= 0 && !ts_node_is_null(l->last_value[at]) &&
                    is_python_value(region, l->last_value[at])) {
                    *why = "a branch gives a Python value, not a tensor, which torch.cond cannot "
                           "return";
                    return 0;
                }
            }
            if (!list_add(&outputs, name)) {
                *why = "the branches bind too many names to rewrite";
                return 0;
            }
        }
    }
    if (returns && (is_python_value(region, then_info.returned) ||
                    is_python_value(region, else_info.returned))) {
        *why = "a branch gives a Python value, not a tensor, which torch.cond cannot return";
        return 0;
    }
    if (!returns && outputs.count == 0) {
        *why = "the branches bind nothing the code after the if reads";
        return 0;
    }
    if (gm_branch_expr_effect(region, branch->condition, why) == GM_EXPR_EFFECTFUL)
        return 0;
    gm_slice then_indent, else_indent;
    if (!arm_indent(&c, &branch->then_arm, &then_indent) ||
        (else_info.arm->count > 0 && !arm_indent(&c, &branch->else_arm, &else_indent))) {
        *why = c.why;
        return 0;
    }
    if (else_info.arm->count == 0) {
        /* the missing else: one level below the if */
        else_indent = then_indent;
    }
    char true_name[64], false_name[64];
    if (!gm_fresh_name(st->text + ts_node_start_byte(st->top), gm_node_length(st->top),
                       "gm_true_branch", true_name, sizeof true_name) ||
        !gm_fresh_name(st->text + ts_node_start_byte(st->top), gm_node_length(st->top),
                       "gm_false_branch", false_name, sizeof false_name)) {
        *why = "no fresh name is free for the branch functions";
        return 0;
    }
    gm_text_builder cond;
    gm_tb_init(&cond);
    if (!gm_branch_append_condition(&cond, region, branch->condition, branch->torch, why)) {
        gm_tb_free(&cond);
        return 0;
    }
    char *cond_text = gm_tb_take(&cond);
    if (!cond_text)
        return -1;
    gm_text_builder tb;
    gm_tb_init(&tb);
    gm_branch_append_comments(&tb, region, branch->stmt, branch->then_arm.block,
                              branch->else_arm.block, &branch->layout);
    append_function(&tb, &c, true_name, &then_info, then_indent, &outputs);
    append_function(&tb, &c, false_name, &else_info, else_indent, &outputs);
    if (returns) {
        gm_tb_append_str(&tb, "return ");
    } else {
        for (unsigned i = 0; i < outputs.count; i++) {
            if (i > 0)
                gm_tb_append_str(&tb, ", ");
            gm_tb_append(&tb, outputs.items[i].ptr, outputs.items[i].len);
        }
        gm_tb_append_str(&tb, " = ");
    }
    gm_tb_appendf(&tb, "%s.cond(%s, %s, %s, (", branch->torch, cond_text, true_name, false_name);
    for (unsigned i = 0; i < c.operands.count; i++) {
        if (i > 0)
            gm_tb_append_str(&tb, ", ");
        gm_tb_append(&tb, c.operands.items[i].ptr, c.operands.items[i].len);
    }
    gm_tb_append_str(&tb, c.operands.count == 1 ? ",))" : "))");
    free(cond_text);
    bool several = !returns && outputs.count > 1;
    return gm_mend_fix_single(
        out, GM_FIX_UNSAFE, "run the branches as torch.cond",
        several ? "Mend graph break: run the branches as torch.cond (unsafe: both branches must "
                  "give tensors of the same shape and dtype, or compiling fails; in training, "
                  "torch 2.13 fails to differentiate outputs whose incoming gradients are one "
                  "tensor, as in `a + b`)"
                : "Mend graph break: run the branches as torch.cond (unsafe: both branches must "
                  "give tensors of the same shape and dtype, or compiling fails)",
        ts_node_start_byte(branch->stmt), ts_node_end_byte(branch->stmt), gm_tb_take(&tb));
}
