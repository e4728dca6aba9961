#include "analysis/mends/branch.h"
#include "analysis/mends/setting_suggestion.h"

#include <string.h>

#include "analysis/value_kinds/value_kinds.h"

#define GM_BRANCH_MAX_DEPTH 100

static bool is_type(TSNode n, const char *type) {
    return !ts_node_is_null(n) && strcmp(ts_node_type(n), type) == 0;
}

static bool in_words(const char *const *words, gm_slice s) {
    for (size_t i = 0; words[i]; i++)
        if (gm_slice_is(s, words[i]))
            return true;
    return false;
}

/* ---- the if statement ---------------------------------------------------------------- */

static const char *fill_arm(const gm_syntax *syn, TSNode block, gm_branch_arm *arm) {
    memset(arm, 0, sizeof *arm);
    arm->block = block;
    uint32_t n = ts_node_is_null(block) ? 0 : ts_node_named_child_count(block);
    for (uint32_t i = 0; i < n; i++) {
        TSNode s = ts_node_named_child(block, i);
        if (gm_is(s, syn->sym.comment) || is_type(s, "pass_statement"))
            continue;
        if (arm->count == GM_BRANCH_MAX_STMTS)
            return "a branch is too long to rewrite";
        arm->stmts[arm->count++] = s;
    }
    return NULL;
}

const char *gm_branch_if_of(gm_region *region, TSNode condition, gm_branch_if *out) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    memset(out, 0, sizeof *out);
    TSNode node = condition, parent = ts_node_parent(condition);
    while (gm_is(parent, syn->sym.parenthesized_expression)) {
        node = parent;
        parent = ts_node_parent(parent);
    }
    if (gm_is(parent, syn->sym.elif_clause))
        return "the test belongs to an elif: a mend, if any, is offered on the if that starts the "
               "chain";
    if (gm_is(parent, syn->sym.while_statement))
        return "a while loop on a tensor cannot become a select (its trip count depends on data)";
    if (!gm_is(parent, syn->sym.if_statement) ||
        !ts_node_eq(gm_child(parent, syn->field.condition), node))
        return "the tensor is tested outside an if statement (and/or, assert, ...)";
    out->stmt = parent;
    out->condition = condition;
    TSNode else_block = {0};
    TSTreeCursor cursor = ts_tree_cursor_new(parent);
    const char *why = NULL;
    if (ts_tree_cursor_goto_first_child(&cursor)) {
        do {
            if (ts_tree_cursor_current_field_id(&cursor) != syn->field.alternative)
                continue;
            TSNode alt = ts_tree_cursor_current_node(&cursor);
            if (gm_is(alt, syn->sym.elif_clause)) {
                if (out->elif_count == GM_BRANCH_MAX_ELIFS) {
                    why = "the elif chain is too long to rewrite";
                    break;
                }
                out->elif_conditions[out->elif_count] =
                    gm_unparen(syn, gm_child(alt, syn->field.condition));
                why = fill_arm(syn, gm_child(alt, syn->field.consequence),
                               &out->elif_arms[out->elif_count++]);
            } else if (gm_is(alt, syn->sym.else_clause)) {
                else_block = gm_child(alt, syn->field.body);
            }
        } while (!why && ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
    if (why)
        return why;
    if (!st->symbols->torch_alias)
        return gm_mend_no_torch_reason(st);
    out->torch = st->symbols->torch_alias;
    if (!gm_is(ts_node_parent(parent), syn->sym.block))
        return "the if is not inside a function body";
    gm_stmt_layout_of(st->text, st->len, parent, &out->layout);
    if (!out->layout.alone)
        return "another statement shares the if's line";
    why = fill_arm(syn, gm_child(parent, syn->field.consequence), &out->then_arm);
    if (!why)
        why = fill_arm(syn, else_block, &out->else_arm);
    return why;
}

/* ---- effects of an expression evaluated unconditionally ------------------------------ */

/* Elementwise operations that raise nothing and give finite values and gradients. */
static const char *const total_functions[] = {
    "abs",       "neg",        "negative",    "relu",       "relu6",       "leaky_relu",
    "hardtanh",  "sigmoid",    "tanh",        "clamp",      "clamp_min",   "clamp_max",
    "clip",      "maximum",    "minimum",     "where",      "masked_fill", "zeros_like",
    "ones_like", "full_like",  "detach",      "clone",      "contiguous",  "add",
    "sub",       "mul",        "square",      "sin",        "cos",         "isinf",
    "isnan",     "isfinite",   "logical_and", "logical_or", "logical_not", "eq",
    "ne",        "gt",         "ge",          "lt",         "le",          "any",
    "all",       "nan_to_num", "silu",        "gelu",       "bool",        "finfo",
    "iinfo",     "sum",        NULL,
};

/* Calls that draw random numbers or write state: running them when their branch is not
 * taken changes the program. */
static const char *const effectful_functions[] = {
    "rand",      "randn",     "randint",         "rand_like",     "randn_like",  "randint_like",
    "randperm",  "bernoulli", "multinomial",     "normal",        "poisson",     "dropout",
    "dropout1d", "dropout2d", "dropout3d",       "alpha_dropout", "manual_seed", "seed",
    "print",     "copy_",     "register_buffer", "set_",          NULL,
};

static gm_expr_effect worst(gm_expr_effect a, gm_expr_effect b) {
    return a > b ? a : b;
}

static bool is_nonzero_number(const gm_syntax *syn, TSNode n, const char *text) {
    n = gm_unparen(syn, n);
    if (!gm_is(n, syn->sym.integer) && !gm_is(n, syn->sym.float_literal))
        return false;
    gm_slice s = gm_node_slice(n, text);
    for (uint32_t i = 0; i < s.len; i++)
        if (s.ptr[i] >= '1' && s.ptr[i] <= '9')
            return true;
    return false;
}

static gm_expr_effect effect(gm_region *r, TSNode n, const char **why, int depth);

static gm_expr_effect children_effect(gm_region *r, TSNode n, const char **why, int depth) {
    gm_expr_effect e = GM_EXPR_TOTAL;
    for (uint32_t i = 0; i < ts_node_named_child_count(n) && e != GM_EXPR_EFFECTFUL; i++) {
        TSNode c = ts_node_named_child(n, i);
        if (!gm_is(c, r->stmt->syntax->sym.comment))
            e = worst(e, effect(r, c, why, depth + 1));
    }
    return e;
}

/* The last name of what a call calls: `relu` in torch.nn.functional.relu(x) or x.relu(). */
static gm_slice callee_name(const gm_syntax *syn, TSNode fn, const char *text) {
    gm_slice none = {text, 0};
    if (gm_is(fn, syn->sym.identifier))
        return gm_node_slice(fn, text);
    if (gm_is(fn, syn->sym.attribute)) {
        TSNode attr = gm_child(fn, syn->field.attribute);
        return ts_node_is_null(attr) ? none : gm_node_slice(attr, text);
    }
    return none;
}

static gm_expr_effect call_effect(gm_region *r, TSNode call, const char **why, int depth) {
    const gm_syntax *syn = r->stmt->syntax;
    const char *text = r->stmt->text;
    TSNode fn = gm_unparen(syn, gm_child(call, syn->field.function));
    gm_slice name = callee_name(syn, fn, text);
    gm_expr_effect args = children_effect(r, gm_child(call, syn->field.arguments), why, depth);
    if (args == GM_EXPR_EFFECTFUL)
        return args;
    if (name.len == 0)
        return worst(args, GM_EXPR_OPAQUE);
    if (in_words(effectful_functions, name) ||
        (name.len > 1 && name.ptr[name.len - 1] == '_' && name.ptr[name.len - 2] != '_')) {
        *why = "a branch calls an operation with effects (in-place, random or I/O), which a "
               "select would run although its branch is not taken";
        return GM_EXPR_EFFECTFUL;
    }
    char full[GM_NAME_MAX];
    TSNode head = gm_chain_head(syn, fn);
    bool torch_function = !ts_node_is_null(head) && !gm_region_binds_node(r, head) &&
                          gm_symbols_resolve(r->stmt->symbols, syn, text, fn, full, sizeof full) &&
                          strncmp(full, "torch.", 6) == 0;
    bool tensor_method = false;
    if (!torch_function && gm_is(fn, syn->sym.attribute)) {
        TSNode object = gm_child(fn, syn->field.object);
        tensor_method = gm_value_of(r, object).kind == GM_KIND_TENSOR;
    }
    if (!torch_function && !tensor_method)
        return worst(args, GM_EXPR_OPAQUE);
    return worst(args, in_words(total_functions, name) ? GM_EXPR_TOTAL : GM_EXPR_PARTIAL);
}

static gm_expr_effect binary_effect(gm_region *r, TSNode n, const char **why, int depth) {
    const gm_syntax *syn = r->stmt->syntax;
    TSNode op = gm_child(n, syn->field.operator);
    TSNode right = gm_child(n, syn->field.right);
    gm_expr_effect e = children_effect(r, n, why, depth);
    const char *o = ts_node_is_null(op) ? "" : ts_node_type(op);
    if (strcmp(o, "/") == 0 || strcmp(o, "//") == 0 || strcmp(o, "%") == 0)
        return worst(e, is_nonzero_number(syn, right, r->stmt->text) ? GM_EXPR_TOTAL
                                                                     : GM_EXPR_PARTIAL);
    if (strcmp(o, "**") == 0)
        return worst(e, gm_is(gm_unparen(syn, right), syn->sym.integer) ? GM_EXPR_TOTAL
                                                                        : GM_EXPR_PARTIAL);
    if (strcmp(o, "@") == 0)
        return worst(e, GM_EXPR_PARTIAL);
    return e;
}

static gm_expr_effect effect(gm_region *r, TSNode n, const char **why, int depth) {
    const gm_syntax *syn = r->stmt->syntax;
    const gm_syntax_symbols *s = &syn->sym;
    if (ts_node_is_null(n))
        return GM_EXPR_TOTAL;
    if (depth > GM_BRANCH_MAX_DEPTH)
        return GM_EXPR_OPAQUE;
    TSSymbol t = ts_node_symbol(n);
    if (t == s->identifier || t == s->integer || t == s->float_literal || t == s->true_literal ||
        t == s->false_literal || t == s->none || t == s->string || t == s->concatenated_string ||
        t == s->comment)
        return GM_EXPR_TOTAL;
    if (t == s->attribute)
        return effect(r, gm_child(n, syn->field.object), why, depth + 1);
    if (t == s->call)
        return call_effect(r, n, why, depth);
    if (t == s->binary_operator)
        return binary_effect(r, n, why, depth);
    if (t == s->parenthesized_expression || t == s->unary_operator || t == s->comparison_operator ||
        t == s->argument_list || t == s->keyword_argument || t == s->tuple || t == s->list ||
        t == s->expression_list)
        return children_effect(r, n, why, depth);
    if (t == s->subscript || t == s->boolean_operator || t == s->not_operator ||
        t == s->conditional_expression)
        return worst(GM_EXPR_PARTIAL, children_effect(r, n, why, depth));
    if (t == s->named_expression) {
        *why = "a branch binds a name with `:=`";
        return GM_EXPR_EFFECTFUL;
    }
    if (is_type(n, "yield") || is_type(n, "await")) {
        *why = "a branch yields or awaits";
        return GM_EXPR_EFFECTFUL;
    }
    return worst(GM_EXPR_OPAQUE, children_effect(r, n, why, depth));
}

gm_expr_effect gm_branch_expr_effect(gm_region *region, TSNode expr, const char **why) {
    return effect(region, expr, why, 0);
}

/* ---- the condition as a boolean tensor ----------------------------------------------- */

/* Expressions whose value is already a boolean tensor when their operands are tensors. */
static const char *const bool_results[] = {
    "any",         "all",  "isinf", "isnan",   "isfinite", "logical_and", "logical_or",
    "logical_not", "eq",   "ne",    "gt",      "ge",       "lt",          "le",
    "isclose",     "bool", "isin",  "signbit", NULL,
};

static bool is_boolean_tensor(const gm_syntax *syn, TSNode n, const char *text) {
    if (gm_is(n, syn->sym.comparison_operator))
        return true;
    if (!gm_is(n, syn->sym.call))
        return false;
    TSNode fn = gm_unparen(syn, gm_child(n, syn->field.function));
    gm_slice name = callee_name(syn, fn, text);
    return name.len > 0 && in_words(bool_results, name);
}

/* Whether n calls Python's random module: dynamo feeds such draws to the graph as tensors,
 * but in eager mode they are Python numbers, which a select cannot take as its condition. */
static bool draws_python_random(gm_region *r, TSNode n, int depth) {
    const gm_syntax *syn = r->stmt->syntax;
    if (ts_node_is_null(n) || depth > GM_BRANCH_MAX_DEPTH)
        return false;
    if (gm_is(n, syn->sym.call)) {
        char name[GM_NAME_MAX];
        TSNode fn = gm_unparen(syn, gm_child(n, syn->field.function));
        if (gm_symbols_resolve(r->stmt->symbols, syn, r->stmt->text, fn, name, sizeof name) &&
            strncmp(name, "random.", 7) == 0)
            return true;
    }
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
        if (draws_python_random(r, ts_node_named_child(n, i), depth + 1))
            return true;
    return false;
}

static bool append_lowered(gm_text_builder *tb, gm_region *r, TSNode n, const char *torch,
                           const char **why, int depth) {
    const gm_syntax *syn = r->stmt->syntax;
    const char *text = r->stmt->text;
    n = gm_unparen(syn, n);
    if (ts_node_is_null(n) || depth > GM_BRANCH_MAX_DEPTH) {
        *why = "the condition is too deeply nested to rewrite";
        return false;
    }
    if (gm_is(n, syn->sym.boolean_operator)) {
        TSNode op = gm_child(n, syn->field.operator);
        bool is_and = !ts_node_is_null(op) && strcmp(ts_node_type(op), "and") == 0;
        gm_tb_appendf(tb, "%s.%s(", torch, is_and ? "logical_and" : "logical_or");
        if (!append_lowered(tb, r, gm_child(n, syn->field.left), torch, why, depth + 1))
            return false;
        gm_tb_append_str(tb, ", ");
        if (!append_lowered(tb, r, gm_child(n, syn->field.right), torch, why, depth + 1))
            return false;
        gm_tb_append_str(tb, ")");
        return true;
    }
    if (gm_is(n, syn->sym.not_operator)) {
        gm_tb_appendf(tb, "%s.logical_not(", torch);
        if (!append_lowered(tb, r, gm_child(n, syn->field.argument), torch, why, depth + 1))
            return false;
        gm_tb_append_str(tb, ")");
        return true;
    }
    if (gm_value_of(r, n).kind != GM_KIND_TENSOR) {
        *why = "part of the condition is not a tensor (a Python value that a select cannot "
               "combine)";
        return false;
    }
    if (draws_python_random(r, n, 0)) {
        *why = "the condition draws from Python's random module: a Python number, not a tensor, "
               "outside torch.compile";
        return false;
    }
    if (is_boolean_tensor(syn, n, text)) {
        gm_tb_append_node(tb, text, n);
    } else if (gm_is(n, syn->sym.identifier)) {
        /* a name may hold what `a and t` left: False when a was, a tensor otherwise */
        gm_tb_appendf(tb, "%s.as_tensor(", torch);
        gm_tb_append_node(tb, text, n);
        gm_tb_append_str(tb, ").bool()");
    } else if (gm_mend_is_primary(syn, n)) {
        gm_tb_append_node(tb, text, n);
        gm_tb_append_str(tb, ".bool()");
    } else {
        gm_tb_append_str(tb, "(");
        gm_tb_append_node(tb, text, n);
        gm_tb_append_str(tb, ").bool()");
    }
    return true;
}

bool gm_branch_append_condition(gm_text_builder *tb, gm_region *region, TSNode cond,
                                const char *torch, const char **why) {
    return append_lowered(tb, region, cond, torch, why, 0);
}

/* The conjuncts of an unparenthesized `and` chain, in source order. */
static unsigned conjuncts(const gm_syntax *syn, TSNode n, TSNode *out, unsigned max) {
    TSNode op = gm_child(n, syn->field.operator);
    if (!gm_is(n, syn->sym.boolean_operator) || ts_node_is_null(op) ||
        strcmp(ts_node_type(op), "and") != 0) {
        out[0] = n;
        return 1;
    }
    unsigned k = conjuncts(syn, gm_child(n, syn->field.left), out, max - 1);
    if (k < max)
        out[k++] = gm_child(n, syn->field.right);
    return k;
}

bool gm_branch_append_tensor_conjuncts(gm_text_builder *tb, gm_region *region, TSNode cond,
                                       const char *torch, uint32_t *static_end, const char **why) {
    const gm_syntax *syn = region->stmt->syntax;
    TSNode parts[64];
    unsigned count = conjuncts(syn, cond, parts, 64), first = 0;
    *static_end = 0;
    while (first < count && gm_value_of(region, parts[first]).kind != GM_KIND_TENSOR)
        *static_end = ts_node_end_byte(parts[first++]);
    if (first == count) {
        *why = "no part of the condition is a tensor";
        return false;
    }
    for (unsigned i = first + 1; i < count; i++)
        gm_tb_appendf(tb, "%s.logical_and(", torch);
    for (unsigned i = first; i < count; i++) {
        if (i > first)
            gm_tb_append_str(tb, ", ");
        if (!append_lowered(tb, region, parts[i], torch, why, 1))
            return false;
        if (i > first)
            gm_tb_append_str(tb, ")");
    }
    return true;
}

/* ---- text ---------------------------------------------------------------------------- */

void gm_branch_newline(gm_text_builder *tb, const gm_stmt_layout *layout) {
    gm_tb_append_str(tb, layout->newline);
    gm_tb_append(tb, layout->indent.ptr, layout->indent.len);
}

static bool inside(TSNode n, TSNode outer) {
    return !ts_node_is_null(outer) && ts_node_start_byte(n) >= ts_node_start_byte(outer) &&
           ts_node_end_byte(n) <= ts_node_end_byte(outer);
}

static void comments_in(gm_text_builder *tb, gm_region *r, TSNode n, TSNode skip_a, TSNode skip_b,
                        const gm_stmt_layout *layout, int depth) {
    if (depth > GM_BRANCH_MAX_DEPTH || inside(n, skip_a) || inside(n, skip_b))
        return;
    if (gm_is(n, r->stmt->syntax->sym.comment)) {
        gm_tb_append_node(tb, r->stmt->text, n);
        gm_branch_newline(tb, layout);
        return;
    }
    for (uint32_t i = 0; i < ts_node_child_count(n); i++)
        comments_in(tb, r, ts_node_child(n, i), skip_a, skip_b, layout, depth + 1);
}

void gm_branch_append_comments(gm_text_builder *tb, gm_region *region, TSNode node, TSNode skip_a,
                               TSNode skip_b, const gm_stmt_layout *layout) {
    comments_in(tb, region, node, skip_a, skip_b, layout, 0);
}

bool gm_branch_assignment(const gm_syntax *syntax, TSNode stmt, TSNode *target, TSNode *value) {
    if (!gm_is(stmt, syntax->sym.expression_statement) || ts_node_named_child_count(stmt) != 1)
        return false;
    TSNode a = ts_node_named_child(stmt, 0);
    if (!gm_is(a, syntax->sym.assignment) || !ts_node_is_null(gm_child(a, syntax->field.type)))
        return false;
    *target = gm_child(a, syntax->field.left);
    *value = gm_child(a, syntax->field.right);
    return !ts_node_is_null(*target) && !ts_node_is_null(*value) &&
           !gm_is(*value, syntax->sym.assignment);
}

TSNode gm_branch_function_of(const gm_syntax *syntax, TSNode node) {
    for (TSNode p = ts_node_parent(node); !ts_node_is_null(p); p = ts_node_parent(p))
        if (gm_is(p, syntax->sym.function_definition))
            return p;
    TSNode null = {0};
    return null;
}

bool gm_branch_bound_before(const gm_region *region, gm_slice name) {
    for (size_t i = region->env.count; i-- > 0;)
        if (gm_slice_eq(region->env.items[i].name, name))
            return true;
    return false;
}

/* Calls whose result has more elements along a dim than their operands: a branch value made by
 * one (SAM-HQ's `tokens = torch.cat([output_tokens, sparse], dim=2)` against `tokens =
 * output_tokens`) cannot share a shape with the other branch, and a select would broadcast or
 * fail. */
static const char *const joins[] = {"cat", "concat", "concatenate", "stack", "hstack", "vstack",
                                    "dstack", "column_stack", "row_stack", NULL};

bool gm_branch_joins_tensors(const gm_syntax *syn, const char *text, TSNode expr) {
    expr = gm_unparen(syn, expr);
    if (!gm_is(expr, syn->sym.call))
        return false;
    TSNode fn = gm_unparen(syn, gm_child(expr, syn->field.function));
    TSNode name = gm_is(fn, syn->sym.attribute) ? gm_child(fn, syn->field.attribute) : fn;
    if (!gm_is(name, syn->sym.identifier))
        return false;
    for (size_t i = 0; joins[i]; i++)
        if (gm_node_text_is(name, text, joins[i]))
            return true;
    return false;
}
