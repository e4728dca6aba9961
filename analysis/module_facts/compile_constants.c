#include "analysis/module_facts/compile_constants.h"

#include <stdlib.h>
#include <string.h>

#define GM_FOLD_DEPTH 16 /* nested operators and locals followed before giving up */

static const struct {
    const char *name;
    int value;
} torch_constants[] = {
    {"torch.compiler.is_compiling", 1}, {"torch.compiler.is_dynamo_compiling", 1},
    {"torch._dynamo.is_compiling", 1},  {"torch._utils.is_compiling", 1},
    {"torch.jit.is_scripting", 0},      {"torch.jit.is_tracing", 0},
    {"torch.compiler.is_exporting", 0}, {"torch.onnx.is_in_onnx_export", 0},
};

int gm_torch_compile_constant(const char *name) {
    for (size_t i = 0; i < sizeof torch_constants / sizeof torch_constants[0]; i++)
        if (strcmp(name, torch_constants[i].name) == 0)
            return torch_constants[i].value;
    return gm_name_last_is(name, "is_torchdynamo_compiling") ? 1 : -1;
}

bool gm_torch_compile_constant_ends(const char *last) {
    for (size_t i = 0; i < sizeof torch_constants / sizeof torch_constants[0]; i++)
        if (gm_name_last_is(torch_constants[i].name, last))
            return true;
    return strcmp(last, "is_torchdynamo_compiling") == 0;
}

/* Whether name is one of the functions gm_torch_compile_constant knows, or a module on the way
 * to one ("torch.compiler", "torch._dynamo"): something the torch assumed here has, which a
 * feature test (`hasattr(torch.compiler, "is_compiling")`) finds. */
static bool torch_api_known(const char *name) {
    size_t len = strlen(name);
    for (size_t i = 0; i < sizeof torch_constants / sizeof torch_constants[0]; i++) {
        const char *known = torch_constants[i].name;
        if (strncmp(known, name, len) == 0 && (known[len] == '\0' || known[len] == '.'))
            return true;
    }
    return false;
}

static int known_order(const void *key, const void *item) {
    return strcmp((const char *)key, ((const gm_function_fact *)item)->name);
}

const gm_function_fact *gm_function_fact_find(const gm_function_fact *known, size_t count,
                                              const char *name) {
    return known && count ? bsearch(name, known, count, sizeof *known, known_order) : NULL;
}

/* ---- folding one function ------------------------------------------------------------------ */

typedef struct {
    const gm_symbols *symbols;
    const gm_syntax *syn;
    const char *text;
    TSNode fn;
    const gm_function_fact *known;
    size_t known_count;
} fold_ctx;

static int fold(const fold_ctx *c, TSNode n, int depth);

/* Subtrees whose statements are not the function's own path while dynamo traces it: nested
 * scopes, and except handlers (the eager fallback when a guarded import fails). */
static bool skipped_scope(const gm_syntax *syn, TSNode n) {
    TSSymbol s = ts_node_symbol(n);
    return gm_is_nested_scope(syn, n) || s == syn->sym.except_clause ||
           s == syn->sym.except_group_clause;
}

/* How name is bound in the function: the value its plain assignments all fold to, kept by
 * `|=` when True and `&=` when False; -1 for anything else (no assignment, a disagreement, a
 * binding form other than `name = ...`). */
typedef struct {
    gm_slice name;
    int value; /* -2: no assignment seen yet */
    bool spoiled;
    int depth;
} name_fold;

static void fold_bindings(const fold_ctx *c, TSNode n, name_fold *nf) {
    const gm_syntax *syn = c->syn;
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count && !nf->spoiled; i++) {
        TSNode child = ts_node_named_child(n, i);
        if (skipped_scope(syn, child))
            continue;
        TSSymbol s = ts_node_symbol(child);
        if (s == syn->sym.assignment || s == syn->sym.augmented_assignment) {
            TSNode left = gm_child(child, syn->field.left);
            bool ours = gm_is(left, syn->sym.identifier) &&
                        gm_slice_eq(gm_node_slice(left, c->text), nf->name);
            if (ours && s == syn->sym.assignment) {
                int v = fold(c, gm_child(child, syn->field.right), nf->depth + 1);
                if (v < 0 || (nf->value != -2 && nf->value != v))
                    nf->spoiled = true;
                nf->value = v;
                continue;
            }
            if (ours) {
                TSNode op = gm_child(child, syn->field.operator);
                const char *t = ts_node_is_null(op) ? "" : ts_node_type(op);
                if (!((strcmp(t, "|=") == 0 && nf->value == 1) ||
                      (strcmp(t, "&=") == 0 && nf->value == 0)))
                    nf->spoiled = true;
                continue;
            }
        } else if (s == syn->sym.global_statement || s == syn->sym.nonlocal_statement ||
                   s == syn->sym.for_statement || s == syn->sym.with_item ||
                   s == syn->sym.named_expression || s == syn->sym.pattern_list ||
                   s == syn->sym.tuple_pattern || s == syn->sym.list_pattern) {
            /* other ways to bind the name: give up if they mention it at all */
            gm_slice whole = gm_node_slice(child, c->text);
            for (uint32_t k = 0; k + nf->name.len <= whole.len; k++)
                if (memcmp(whole.ptr + k, nf->name.ptr, nf->name.len) == 0) {
                    nf->spoiled = true;
                    break;
                }
            if (nf->spoiled)
                return;
        }
        fold_bindings(c, child, nf);
    }
}

/* Whether the name or attribute chain n (not a local of the function) resolves to something
 * torch_api_known knows. */
static bool names_known_api(const fold_ctx *c, TSNode n) {
    char name[GM_NAME_MAX];
    return gm_symbols_resolve(c->symbols, c->syn, c->text, n, name, sizeof name) &&
           torch_api_known(name);
}

/* `hasattr(obj, "name")` and `getattr(obj, "name"[, default])` of a name the torch assumed
 * here has: 1 (getattr gives the function, which is truthy); else -1. */
static int fold_feature_test(const fold_ctx *c, TSNode call) {
    const gm_syntax *syn = c->syn;
    TSNode fn = gm_child(call, syn->field.function);
    bool has = gm_node_text_is(fn, c->text, "hasattr");
    if (!has && !gm_node_text_is(fn, c->text, "getattr"))
        return -1;
    TSNode args = gm_child(call, syn->field.arguments);
    uint32_t count = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
    if (count < 2 || count > (has ? 2u : 3u))
        return -1;
    char object[GM_NAME_MAX], attribute[64];
    TSNode target = ts_node_named_child(args, 0);
    if (gm_parameters_bind_name(c->syn, c->text, c->fn, gm_node_slice(target, c->text)) ||
        !gm_symbols_resolve(c->symbols, syn, c->text, target, object, sizeof object) ||
        !gm_string_spells_name(syn, c->text, ts_node_named_child(args, 1), attribute,
                               sizeof attribute))
        return -1;
    size_t len = strlen(object);
    if (len + 1 + strlen(attribute) + 1 > sizeof object)
        return -1;
    object[len] = '.';
    memcpy(object + len + 1, attribute, strlen(attribute) + 1);
    return torch_api_known(object) ? 1 : -1;
}

static int fold_name(const fold_ctx *c, TSNode ident, int depth) {
    gm_slice name = gm_node_slice(ident, c->text);
    if (gm_parameters_bind_name(c->syn, c->text, c->fn, name))
        return -1;
    if (gm_slice_is(name, "True"))
        return 1;
    if (gm_slice_is(name, "False"))
        return 0;
    name_fold nf = {name, -2, false, depth};
    TSNode body = gm_child(c->fn, c->syn->field.body);
    if (ts_node_is_null(body))
        return -1;
    fold_bindings(c, body, &nf);
    if (nf.value == -2 && !nf.spoiled)
        return names_known_api(c, ident) ? 1 : -1; /* a function object is truthy */
    return nf.spoiled || nf.value < 0 ? -1 : nf.value;
}

static int fold_call(const fold_ctx *c, TSNode call, int depth) {
    const gm_syntax *syn = c->syn;
    TSNode fn = gm_child(call, syn->field.function);
    TSNode args = gm_child(call, syn->field.arguments);
    if (gm_node_text_is(fn, c->text, "bool") && !ts_node_is_null(args) &&
        ts_node_named_child_count(args) == 1 && !gm_symbols_is_imported(c->symbols, (gm_slice){"bool", 4}))
        return fold(c, ts_node_named_child(args, 0), depth + 1);
    int feature = fold_feature_test(c, call);
    if (feature >= 0)
        return feature;
    TSNode head;
    TSNode target = gm_call_target(c->syn, call, &head);
    if (ts_node_is_null(target))
        return -1;
    if (gm_parameters_bind_name(c->syn, c->text, c->fn, gm_node_slice(head, c->text)))
        return -1;
    char name[GM_NAME_MAX];
    if (!gm_symbols_resolve(c->symbols, c->syn, c->text, target, name, sizeof name))
        return -1;
    int v = gm_torch_compile_constant(name);
    if (v >= 0)
        return v;
    const gm_function_fact *k = gm_function_fact_find(c->known, c->known_count, name);
    return k ? k->constant : -1;
}

/* `f is not None` / `f is None` where f names a function torch_api_known knows (an alias of
 * it, resolved through the symbols): it exists, so not None. */
static int fold_none_test(const fold_ctx *c, TSNode n) {
    const gm_syntax *syn = c->syn;
    if (ts_node_named_child_count(n) != 2)
        return -1;
    TSNode left = gm_unparen(syn, ts_node_named_child(n, 0));
    TSNode right = ts_node_named_child(n, 1);
    if (!gm_is(right, syn->sym.none) ||
        !(gm_is(left, syn->sym.identifier) || gm_is(left, syn->sym.attribute)) ||
        gm_parameters_bind_name(syn, c->text, c->fn, gm_node_slice(left, c->text)))
        return -1;
    /* the operator token between the operands: "is" or "is not" */
    TSNode op = gm_child(n, syn->field.operators);
    const char *type = ts_node_is_null(op) ? "" : ts_node_type(op);
    bool is_not = strcmp(type, "is not") == 0;
    if ((!is_not && strcmp(type, "is") != 0) || !names_known_api(c, left))
        return -1;
    return is_not ? 1 : 0;
}

static int fold(const fold_ctx *c, TSNode n, int depth) {
    const gm_syntax *syn = c->syn;
    n = gm_unparen(syn, n);
    if (ts_node_is_null(n) || depth > GM_FOLD_DEPTH)
        return -1;
    TSSymbol s = ts_node_symbol(n);
    if (s == syn->sym.true_literal)
        return 1;
    if (s == syn->sym.false_literal)
        return 0;
    if (s == syn->sym.not_operator) {
        int v = fold(c, gm_child(n, syn->field.argument), depth + 1);
        return v < 0 ? -1 : !v;
    }
    if (s == syn->sym.boolean_operator) {
        TSNode op = gm_child(n, syn->field.operator);
        int decisive = !ts_node_is_null(op) && strcmp(ts_node_type(op), "or") == 0 ? 1 : 0;
        int left = fold(c, gm_child(n, syn->field.left), depth + 1);
        if (left == decisive)
            return left;
        int right = fold(c, gm_child(n, syn->field.right), depth + 1);
        /* `x or True` is truthy whatever x is (these helpers test Python values, not tensors) */
        if (right == decisive)
            return right;
        return left < 0 ? -1 : right;
    }
    if (s == syn->sym.call)
        return fold_call(c, n, depth);
    if (s == syn->sym.conditional_expression && ts_node_named_child_count(n) == 3) {
        /* `a if test else b` */
        int test = fold(c, ts_node_named_child(n, 1), depth + 1);
        if (test >= 0)
            return fold(c, ts_node_named_child(n, test ? 0 : 2), depth + 1);
        int a = fold(c, ts_node_named_child(n, 0), depth + 1);
        return a >= 0 && a == fold(c, ts_node_named_child(n, 2), depth + 1) ? a : -1;
    }
    if (s == syn->sym.comparison_operator)
        return fold_none_test(c, n);
    if (s == syn->sym.identifier)
        return fold_name(c, n, depth);
    return -1;
}

/* ---- the returns --------------------------------------------------------------------------- */

typedef struct {
    int value; /* -2: no return seen yet */
    bool spoiled;
} return_fold;

/* Whether n may hold a statement: a block, a compound statement or one of its clauses (not an
 * expression statement, whose expressions hold no return). */
static bool may_hold_statements(const gm_syntax *syn, TSNode n) {
    TSSymbol s = ts_node_symbol(n);
    if (s == syn->sym.block)
        return true;
    if (s == syn->sym.expression_statement)
        return false;
    const char *type = ts_node_type(n);
    size_t len = strlen(type);
    return (len > 10 && strcmp(type + len - 10, "_statement") == 0) ||
           (len > 7 && strcmp(type + len - 7, "_clause") == 0);
}

static bool always_leaves(const gm_syntax *syn, TSNode block, int depth);
static void fold_returns(const fold_ctx *c, TSNode n, bool expressions, return_fold *rf);

/* An if statement whose tests fold (`if hasattr(torch, "compiler"):`, a version test torch
 * answers): only the branch that runs counts. Folds that branch's returns into rf and returns 1
 * when it always leaves (what follows the if never runs), 0 when it may fall through (or no
 * branch runs), -1 when which branch runs is not certain (the caller visits them all). */
static int fold_certain_if(const fold_ctx *c, TSNode if_statement, return_fold *rf) {
    const gm_syntax *syn = c->syn;
    int test = fold(c, gm_child(if_statement, syn->field.condition), 0);
    if (test < 0)
        return -1;
    TSNode taken = test ? gm_child(if_statement, syn->field.consequence) : (TSNode){0};
    uint32_t count = ts_node_named_child_count(if_statement);
    for (uint32_t i = 0; i < count && !test; i++) {
        TSNode alt = ts_node_named_child(if_statement, i);
        if (gm_is(alt, syn->sym.elif_clause)) {
            test = fold(c, gm_child(alt, syn->field.condition), 0);
            if (test < 0)
                return -1;
            if (test)
                taken = gm_child(alt, syn->field.consequence);
        } else if (gm_is(alt, syn->sym.else_clause)) {
            taken = gm_child(alt, syn->field.body);
            test = 1;
        }
    }
    if (!test)
        return 0;
    if (ts_node_is_null(taken))
        return -1;
    fold_returns(c, taken, false, rf);
    return always_leaves(syn, taken, 0) ? 1 : 0;
}

/* The returns of the function below n, into rf; with expressions, also its `yield` and `await`
 * (which spoil it: a generator or a coroutine returns no constant). Without (the function's
 * text names neither), only statements are visited: returns are statements, and of an if
 * statement whose tests fold only the branch that runs (and nothing after it, when that branch
 * always leaves). */
static void fold_returns(const fold_ctx *c, TSNode n, bool expressions, return_fold *rf) {
    const gm_syntax *syn = c->syn;
    /* one cursor along the children: taking each by index walks those before it again */
    TSTreeCursor cursor = ts_tree_cursor_new(n);
    for (bool more = ts_tree_cursor_goto_first_child(&cursor); more && !rf->spoiled;
         more = ts_tree_cursor_goto_next_sibling(&cursor)) {
        TSNode child = ts_tree_cursor_current_node(&cursor);
        if (expressions) {
            const char *type = ts_node_type(child);
            if (strcmp(type, "yield") == 0 || strcmp(type, "await") == 0) {
                rf->spoiled = true;
                break;
            }
        }
        if (!ts_node_is_named(child) || skipped_scope(syn, child))
            continue;
        if (gm_is(child, syn->sym.return_statement)) {
            TSNode value = ts_node_named_child_count(child) ? ts_node_named_child(child, 0)
                                                            : (TSNode){0};
            int v = ts_node_is_null(value) ? -1 : fold(c, value, 0);
            if (v < 0 || (rf->value != -2 && rf->value != v))
                rf->spoiled = true;
            rf->value = v;
            continue;
        }
        if (!expressions && gm_is(child, syn->sym.if_statement)) {
            int certain = fold_certain_if(c, child, rf);
            if (certain == 1)
                break;
            if (certain == 0)
                continue;
        }
        if (expressions || may_hold_statements(syn, child))
            fold_returns(c, child, expressions, rf);
    }
    ts_tree_cursor_delete(&cursor);
}

static TSNode last_statement(const gm_syntax *syn, TSNode block) {
    for (uint32_t i = ts_node_named_child_count(block); i-- > 0;) {
        TSNode s = ts_node_named_child(block, i);
        if (!gm_is(s, syn->sym.comment))
            return s;
    }
    return (TSNode){0};
}

/* Whether the block cannot finish without a return or a raise (falling off the end returns
 * None, which no constant covers). */
static bool always_leaves(const gm_syntax *syn, TSNode block, int depth) {
    TSNode last = last_statement(syn, block);
    if (ts_node_is_null(last) || depth > GM_FOLD_DEPTH)
        return false;
    TSSymbol s = ts_node_symbol(last);
    if (s == syn->sym.return_statement || s == syn->sym.raise_statement)
        return true;
    if (s == syn->sym.try_statement)
        return always_leaves(syn, gm_child(last, syn->field.body), depth + 1);
    if (s == syn->sym.if_statement) {
        if (!always_leaves(syn, gm_child(last, syn->field.consequence), depth + 1))
            return false;
        bool has_else = false;
        uint32_t n = ts_node_named_child_count(last);
        for (uint32_t i = 0; i < n; i++) {
            TSNode alt = ts_node_named_child(last, i);
            if (!gm_is(alt, syn->sym.elif_clause) && !gm_is(alt, syn->sym.else_clause))
                continue;
            has_else |= gm_is(alt, syn->sym.else_clause);
            TSNode body = gm_child(alt, gm_is(alt, syn->sym.elif_clause) ? syn->field.consequence
                                                                         : syn->field.body);
            if (!always_leaves(syn, body, depth + 1))
                return false;
        }
        return has_else;
    }
    return false;
}

int gm_function_constant_return(const gm_symbols *symbols, const gm_syntax *syntax,
                                const char *text, TSNode fn, const gm_function_fact *known,
                                size_t known_count) {
    if (!gm_is(fn, syntax->sym.function_definition))
        return -1;
    if (ts_node_child_count(fn) > 0 && strcmp(ts_node_type(ts_node_child(fn, 0)), "async") == 0)
        return -1;
    TSNode body = gm_child(fn, syntax->field.body);
    if (ts_node_is_null(body) || !always_leaves(syntax, body, 0))
        return -1;
    fold_ctx c = {symbols, syntax, text, fn, known, known_count};
    return_fold rf = {-2, false};
    gm_slice fn_text = gm_node_slice(fn, text);
    bool expressions = gm_slice_contains(fn_text, "yield") || gm_slice_contains(fn_text, "await");
    fold_returns(&c, body, expressions, &rf);
    return rf.spoiled || rf.value < 0 ? -1 : rf.value;
}
