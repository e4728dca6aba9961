/* [Trap] for GM103: `if not <cond>: raise E("literal")` becomes the in-graph assertion
 * `torch._assert_async(<cond as a boolean tensor>, "E: literal")`, which dynamo traces without a
 * break (torch._check needs a Python bool, not a tensor). On failure it raises RuntimeError
 * with that message instead of E (checked on torch 2.13, eager and compiled; asynchronously on
 * an accelerator), so the mend is unsafe. The condition becomes a tensor as follows:
 * - `x.all()`, `x.any()`, torch.all/any(...), a comparison or any other tensor: as written;
 * - `torch.equal(a, b)` / `a.equal(b)`: `(a == b).all() if a.shape == b.shape else
 *   a.new_zeros((), dtype=torch.bool)` (the shape test keeps broadcasting from passing unequal
 *   shapes, and stays a Python test dynamo folds); `(a == b).all()` alone when one operand is
 *   the other's `expand_as` (equal shapes by construction);
 * - `torch.allclose(...)` / `a.allclose(...)`: the same call as isclose, then `.all()`. */
#include <stdio.h>
#include <string.h>

#include "analysis/mends/branch.h"
#include "analysis/mends/mends.h"
#include "analysis/mends/setting_suggestion.h"
#include "analysis/mends/rewrite_text.h"
#include "analysis/syntax/line_breaks.h"
#include "analysis/value_kinds/value_kinds.h"

/* Builtin exception classes whose meaning a message-prefixed RuntimeError still conveys. */
static const char *const builtin_exceptions[] = {
    "Exception",           "ValueError",        "RuntimeError",  "TypeError",
    "AssertionError",      "IndexError",        "KeyError",      "LookupError",
    "ArithmeticError",     "ZeroDivisionError", "OverflowError", "FloatingPointError",
    "NotImplementedError", "AttributeError",
};

typedef struct {
    gm_region *region;
    const gm_stmt_ctx *st;
    const gm_syntax *syn;
} trap_ctx;

static bool is_type(TSNode n, const char *type) {
    return !ts_node_is_null(n) && strcmp(ts_node_type(n), type) == 0;
}

/* The builtin exception class an identifier names (not rebound by the function, an import or a
 * class of the file), or NULL. */
static const char *builtin_exception(const trap_ctx *c, TSNode name) {
    if (!gm_is(name, c->syn->sym.identifier))
        return NULL;
    gm_slice text = gm_node_slice(name, c->st->text);
    const char *found = NULL;
    for (size_t i = 0; i < sizeof builtin_exceptions / sizeof builtin_exceptions[0]; i++)
        if (gm_slice_is(text, builtin_exceptions[i]))
            found = builtin_exceptions[i];
    if (!found || gm_symbols_is_imported(c->st->symbols, text) ||
        gm_region_binds_node(c->region, name))
        return NULL;
    for (size_t i = 0; i < c->st->symbols->class_count; i++)
        if (gm_slice_is(text, c->st->symbols->classes[i].name))
            return NULL;
    return found;
}

/* A plain string literal (or an implicit concatenation of them): no f-string, no bytes. */
static bool is_plain_string(const trap_ctx *c, TSNode n) {
    if (gm_is(n, c->syn->sym.concatenated_string)) {
        for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
            if (!is_plain_string(c, ts_node_named_child(n, i)))
                return false;
        return true;
    }
    if (!gm_is(n, c->syn->sym.string))
        return false;
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
        TSNode part = ts_node_named_child(n, i);
        if (is_type(part, "interpolation"))
            return false;
        if (is_type(part, "string_start")) {
            gm_slice start = gm_node_slice(part, c->st->text);
            for (uint32_t k = 0; k < start.len; k++)
                if (strchr("fFbBtT", start.ptr[k]))
                    return false;
        }
    }
    return true;
}

/* Where the `f` of an f-string message is (one literal, no other prefix than f or r), so that
 * dropping it leaves a plain literal that shows the fields as written (`"invalid discriminant
 * {discriminant}"`, VITS's spline): UINT32_MAX when the message is no such f-string, or when a
 * field holds the literal's quote or a backslash (the plain literal would end or escape there). */
static uint32_t fstring_prefix(const trap_ctx *c, TSNode n) {
    if (!gm_is(n, c->syn->sym.string))
        return UINT32_MAX;
    uint32_t f = UINT32_MAX;
    char quote = 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
        TSNode part = ts_node_named_child(n, i);
        gm_slice piece = gm_node_slice(part, c->st->text);
        if (is_type(part, "string_start")) {
            for (uint32_t k = 0; k < piece.len; k++) {
                if (piece.ptr[k] == 'f' || piece.ptr[k] == 'F')
                    f = ts_node_start_byte(part) + k;
                else if (piece.ptr[k] == '"' || piece.ptr[k] == '\'')
                    quote = quote ? quote : piece.ptr[k];
                else if (piece.ptr[k] != 'r' && piece.ptr[k] != 'R')
                    return UINT32_MAX; /* bytes, a template string */
            }
        } else if (is_type(part, "interpolation")) {
            for (uint32_t k = 0; k < piece.len; k++)
                if (piece.ptr[k] == quote || piece.ptr[k] == '\\')
                    return UINT32_MAX;
        }
    }
    return quote ? f : UINT32_MAX;
}

/* The end of the opening quotes of a plain string literal (the first part of a
 * concatenation): where "E: " goes. */
static uint32_t message_insertion_point(const trap_ctx *c, TSNode literal) {
    if (gm_is(literal, c->syn->sym.concatenated_string))
        return message_insertion_point(c, ts_node_named_child(literal, 0));
    for (uint32_t i = 0; i < ts_node_child_count(literal); i++) {
        TSNode part = ts_node_child(literal, i);
        if (is_type(part, "string_start"))
            return ts_node_end_byte(part);
    }
    return ts_node_start_byte(literal) + 1;
}

/* Whether the subtree calls .item(), .tolist(), int(), float() or bool(): a Python value read
 * out of a tensor, which an in-graph assertion cannot keep. */
static bool reads_python_value(const trap_ctx *c, TSNode n, int depth) {
    if (ts_node_is_null(n) || depth > 64)
        return false;
    if (gm_is(n, c->syn->sym.call)) {
        TSNode fn = gm_child(n, c->syn->field.function);
        TSNode name = gm_is(fn, c->syn->sym.attribute) ? gm_child(fn, c->syn->field.attribute) : fn;
        const char *methods[] = {"item", "tolist"};
        const char *builtins[] = {"int", "float", "bool"};
        for (size_t i = 0; i < 2; i++)
            if (gm_is(fn, c->syn->sym.attribute) && gm_node_text_is(name, c->st->text, methods[i]))
                return true;
        for (size_t i = 0; i < 3; i++)
            if (gm_is(fn, c->syn->sym.identifier) && gm_node_text_is(fn, c->st->text, builtins[i]))
                return true;
    }
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
        if (reads_python_value(c, ts_node_named_child(n, i), depth + 1))
            return true;
    return false;
}

/* A name, attribute or subscript chain without calls: safe to evaluate twice. */
static bool is_plain_reference(const trap_ctx *c, TSNode n, int depth) {
    n = gm_unparen(c->syn, n);
    if (depth > 32)
        return false;
    if (gm_is(n, c->syn->sym.identifier))
        return true;
    if (gm_is(n, c->syn->sym.attribute))
        return is_plain_reference(c, gm_child(n, c->syn->field.object), depth + 1);
    if (gm_is(n, c->syn->sym.subscript)) {
        TSNode value = gm_child(n, c->syn->field.value);
        for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
            TSNode index = ts_node_named_child(n, i);
            if (ts_node_eq(index, value))
                continue;
            if (!gm_is(index, c->syn->sym.integer) && !gm_is(index, c->syn->sym.identifier) &&
                !is_type(index, "slice"))
                return false;
        }
        return is_plain_reference(c, value, depth + 1);
    }
    return false;
}

typedef enum { COND_AS_IS, COND_EQUAL, COND_ALLCLOSE, COND_NONE } cond_form;

/* How the condition becomes a boolean tensor; for torch.equal, *a and *b are its operands, for
 * allclose *a is the identifier to rename. */
static cond_form classify(const trap_ctx *c, TSNode cond, TSNode *a, TSNode *b) {
    const gm_syntax *syn = c->syn;
    if (gm_is(cond, syn->sym.call)) {
        TSNode fn = gm_child(cond, syn->field.function);
        TSNode args = gm_child(cond, syn->field.arguments);
        char name[GM_NAME_MAX];
        bool resolved = gm_symbols_resolve(c->st->symbols, syn, c->st->text, fn, name, sizeof name);
        bool is_method =
            gm_is(fn, syn->sym.attribute) && !(resolved && strncmp(name, "torch.", 6) == 0);
        TSNode attr = gm_is(fn, syn->sym.attribute) ? gm_child(fn, syn->field.attribute) : fn;
        uint32_t argc = gm_is(args, syn->sym.argument_list) ? ts_node_named_child_count(args) : 0;
        bool equal = resolved && strcmp(name, "torch.equal") == 0 && argc == 2;
        bool equal_method = is_method && gm_node_text_is(attr, c->st->text, "equal") && argc == 1;
        if (equal || equal_method) {
            *a = equal ? ts_node_named_child(args, 0) : gm_child(fn, syn->field.object);
            *b = ts_node_named_child(args, equal ? 1 : 0);
            if (gm_is(*a, syn->sym.keyword_argument) || gm_is(*b, syn->sym.keyword_argument))
                return COND_NONE;
            return COND_EQUAL;
        }
        if ((resolved && strcmp(name, "torch.allclose") == 0) ||
            (is_method && gm_node_text_is(attr, c->st->text, "allclose"))) {
            *a = attr;
            return COND_ALLCLOSE;
        }
    }
    TSSymbol t = ts_node_symbol(cond);
    if (t == syn->sym.boolean_operator || t == syn->sym.not_operator)
        return COND_NONE; /* Python and/or/not ask for the tensor's truth value */
    if (t == syn->sym.comparison_operator) {
        /* one operator: a chained comparison is an and of two */
        if (ts_node_named_child_count(cond) != 2)
            return COND_NONE;
        for (uint32_t i = 0; i < 2; i++)
            if (gm_value_of(c->region, ts_node_named_child(cond, i)).kind == GM_KIND_TENSOR)
                return COND_AS_IS;
        return COND_NONE;
    }
    return gm_value_of(c->region, cond).kind == GM_KIND_TENSOR ? COND_AS_IS : COND_NONE;
}

/* Whether value is `<anything>.expand_as(other)` with other written as a plain name or attribute:
 * a tensor of other's shape. */
static bool expands_to(const trap_ctx *c, TSNode value, TSNode other) {
    const gm_syntax *syn = c->syn;
    value = gm_unparen(syn, value);
    other = gm_unparen(syn, other);
    if (!gm_is(value, syn->sym.call) || !is_plain_reference(c, other, 0))
        return false;
    TSNode fn = gm_unparen(syn, gm_child(value, syn->field.function));
    TSNode args = gm_child(value, syn->field.arguments);
    if (!gm_is(fn, syn->sym.attribute) ||
        !gm_node_text_is(gm_child(fn, syn->field.attribute), c->st->text, "expand_as") ||
        !gm_is(args, syn->sym.argument_list) || ts_node_named_child_count(args) != 1)
        return false;
    gm_slice arg = gm_node_slice(gm_unparen(syn, ts_node_named_child(args, 0)), c->st->text);
    return gm_slice_eq(arg, gm_node_slice(other, c->st->text));
}

/* The condition as a boolean tensor, appended to tb; false (with region->mend_declined set)
 * when it cannot be one. */
static bool append_tensor_condition(const trap_ctx *c, TSNode cond, gm_text_builder *tb) {
    if (reads_python_value(c, cond, 0)) {
        c->region->mend_declined =
            "the condition reads a Python value out of a tensor (.item(), .tolist(), int(), "
            "float() or bool()), so it cannot stay a tensor for an in-graph assertion";
        return false;
    }
    TSNode a = {0}, b = {0};
    const char *text = c->st->text;
    switch (classify(c, cond, &a, &b)) {
    case COND_AS_IS:
        gm_tb_append_argument(tb, c->syn, text, cond);
        return true;
    case COND_ALLCLOSE:
        gm_tb_append(tb, text + ts_node_start_byte(cond),
                     ts_node_start_byte(a) - ts_node_start_byte(cond));
        gm_tb_append_str(tb, "isclose");
        gm_tb_append(tb, text + ts_node_end_byte(a), ts_node_end_byte(cond) - ts_node_end_byte(a));
        gm_tb_append_str(tb, ".all()");
        return true;
    case COND_EQUAL:
        if (expands_to(c, b, a) || expands_to(c, a, b)) {
            /* `torch.equal(m, m[:, :1].expand_as(m))`: the shapes are equal by construction */
            gm_tb_append_str(tb, "(");
            gm_tb_append_node(tb, text, a);
            gm_tb_append_str(tb, " == ");
            gm_tb_append_node(tb, text, b);
            gm_tb_append_str(tb, ").all()");
            return true;
        }
        if (!is_plain_reference(c, a, 0) || !is_plain_reference(c, b, 0)) {
            c->region->mend_declined =
                "the operands of torch.equal are not plain names or attributes, and the "
                "assertion evaluates them twice (shapes, then values)";
            return false;
        }
        gm_tb_append_str(tb, "(");
        gm_tb_append_node(tb, text, a);
        gm_tb_append_str(tb, " == ");
        gm_tb_append_node(tb, text, b);
        gm_tb_append_str(tb, ").all() if ");
        gm_tb_append_node(tb, text, a);
        gm_tb_append_str(tb, ".shape == ");
        gm_tb_append_node(tb, text, b);
        gm_tb_append_str(tb, ".shape else ");
        gm_tb_append_node(tb, text, a);
        gm_tb_appendf(tb, ".new_zeros((), dtype=%s.bool)", c->st->symbols->torch_alias);
        return true;
    case COND_NONE:
        break;
    }
    TSSymbol t = ts_node_symbol(cond);
    if (t == c->syn->sym.boolean_operator || t == c->syn->sym.not_operator) {
        /* `a < lo or b > hi` (VITS's spline domain check): torch.logical_or/and/not of the
         * parts, as the assert's Trap lowers them; both operands are evaluated, where Python's
         * `or` stopped at the first true one (the mend is unsafe anyway) */
        const char *why = NULL;
        if (gm_branch_append_condition(tb, c->region, cond, c->st->symbols->torch_alias, &why))
            return true;
        if (why) {
            c->region->mend_declined = why;
            return false;
        }
    }
    c->region->mend_declined =
        "the condition is not one graphmend can turn into a boolean tensor (.all(), .any(), "
        "torch.equal, allclose, one comparison or a tensor)";
    return false;
}

/* Whether the statement sits inside a try statement of its own function. */
static bool inside_try(const trap_ctx *c, TSNode stmt) {
    for (TSNode p = ts_node_parent(stmt); !ts_node_is_null(p); p = ts_node_parent(p)) {
        if (gm_is(p, c->syn->sym.function_definition) || gm_is(p, c->syn->sym.class_definition))
            return false;
        if (gm_is(p, c->syn->sym.try_statement))
            return true;
    }
    return false;
}

/* The single raise statement of the guard's body, or a null node. */
/* The raise statement that is the whole body of if_stmt (comments aside), or a null node. */
static TSNode only_raise(const gm_syntax *syn, TSNode if_stmt) {
    TSNode null = {0}, found = {0};
    TSNode body = gm_child(if_stmt, syn->field.consequence);
    for (uint32_t i = 0; !ts_node_is_null(body) && i < ts_node_named_child_count(body); i++) {
        TSNode s = ts_node_named_child(body, i);
        if (gm_is(s, syn->sym.comment))
            continue;
        if (!ts_node_is_null(found) || !is_type(s, "raise_statement"))
            return null;
        found = s;
    }
    return found;
}

bool gm_mend_is_raise_guard(const gm_syntax *syntax, TSNode if_stmt) {
    return gm_is(if_stmt, syntax->sym.if_statement) &&
           ts_node_is_null(gm_child(if_stmt, syntax->field.alternative)) &&
           !ts_node_is_null(only_raise(syntax, if_stmt));
}

/* Appends every comment inside the if statement but outside the ranges copied verbatim (the
 * condition, the raise's arguments), each on its own line: the rewrite keeps them above the
 * assertion. */
static void append_comments(const trap_ctx *c, TSNode n, const TSNode copied[2],
                            const gm_stmt_layout *layout, gm_text_builder *tb, int depth) {
    if (depth > 64)
        return;
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
        TSNode child = ts_node_named_child(n, i);
        bool inside = false;
        for (int k = 0; k < 2; k++)
            inside |= !ts_node_is_null(copied[k]) &&
                      ts_node_start_byte(copied[k]) <= ts_node_start_byte(child) &&
                      ts_node_end_byte(child) <= ts_node_end_byte(copied[k]);
        if (inside)
            continue;
        if (gm_is(child, c->syn->sym.comment)) {
            gm_tb_append_node(tb, c->st->text, child);
            gm_tb_append_str(tb, layout->newline);
            gm_tb_append(tb, layout->indent.ptr, layout->indent.len);
        } else {
            append_comments(c, child, copied, layout, tb, depth + 1);
        }
    }
}

/* Appends text[start, end) of the raise's arguments, with "E: " at insert, and with one
 * indentation unit less on each continuation line (the arguments move up from the raise's
 * block to the guard's level), except inside string literals. */
static void append_arguments(const trap_ctx *c, TSNode args, uint32_t start, uint32_t end,
                             uint32_t insert, uint32_t skip, const char *exception,
                             const gm_stmt_layout *layout, gm_text_builder *tb) {
    const char *text = c->st->text;
    for (uint32_t at = start; at < end; at++) {
        if (at == insert)
            gm_tb_appendf(tb, "%s: ", exception);
        if (at == skip) /* an f-string's f: the literal shows its fields as written */
            continue;
        gm_tb_append(tb, text + at, 1);
        if (gm_ends_line(text, c->st->len, at) && at + 1 < end &&
            !gm_mend_inside_string(c->syn, args, at) &&
            (uint32_t)(end - at - 1) >= layout->unit_len &&
            memcmp(text + at + 1, layout->unit, layout->unit_len) == 0)
            at += (uint32_t)layout->unit_len;
    }
    if (insert == end)
        gm_tb_appendf(tb, "%s: ", exception);
}

int gm_mend_validation_guard(gm_region *region, TSNode condition, gm_fix *out) {
    trap_ctx c = {region, region->stmt, region->stmt->syntax};
    const gm_syntax *syn = c.syn;
    const char *alias = c.st->symbols->torch_alias;
    TSNode if_stmt = ts_node_parent(condition);
    while (gm_is(if_stmt, syn->sym.parenthesized_expression))
        if_stmt = ts_node_parent(if_stmt);
    if (!gm_is(if_stmt, syn->sym.if_statement) ||
        !ts_node_eq(gm_unparen(syn, gm_child(if_stmt, syn->field.condition)),
                    gm_unparen(syn, condition))) {
        region->mend_declined = "the guard is not `if <condition>: raise ...`";
        return 0;
    }
    if (!ts_node_is_null(gm_child(if_stmt, syn->field.alternative))) {
        region->mend_declined = "the guard has an elif or else branch, which an assertion cannot "
                                "keep";
        return 0;
    }
    /* `if not c: raise` asserts c; `if c: raise` (GraphMend's later Trap form) asserts not c */
    condition = gm_unparen(syn, condition);
    bool negated = gm_is(condition, syn->sym.not_operator);
    if (!alias) {
        region->mend_declined = gm_mend_no_torch_reason(region->stmt);
        return 0;
    }
    TSNode raise = only_raise(syn, if_stmt);
    if (ts_node_is_null(raise)) {
        region->mend_declined = "the guard's body is more than one raise statement";
        return 0;
    }
    for (uint32_t i = 0; i < ts_node_child_count(raise); i++)
        if (is_type(ts_node_child(raise, i), "from")) {
            region->mend_declined = "the raise has a `from` clause, which an assertion cannot keep";
            return 0;
        }
    TSNode raised = gm_unparen(syn, ts_node_named_child(raise, 0));
    TSNode exception_class =
        gm_is(raised, syn->sym.call) ? gm_child(raised, syn->field.function) : raised;
    const char *exception = builtin_exception(&c, exception_class);
    if (!exception) {
        region->mend_declined = "the raised exception is not a builtin exception class";
        return 0;
    }
    TSNode message = {0};
    uint32_t fstring_f = UINT32_MAX;
    if (gm_is(raised, syn->sym.call)) {
        TSNode args = gm_child(raised, syn->field.arguments);
        uint32_t argc = gm_is(args, syn->sym.argument_list) ? ts_node_named_child_count(args) : 0;
        if (argc == 1)
            fstring_f = fstring_prefix(&c, gm_unparen(syn, ts_node_named_child(args, 0)));
        if (argc > 1 || !gm_is(args, syn->sym.argument_list) ||
            (argc == 1 && fstring_f == UINT32_MAX &&
             !is_plain_string(&c, gm_unparen(syn, ts_node_named_child(args, 0))))) {
            region->mend_declined =
                "the exception message is not a plain string literal (an f-string or a computed "
                "message would have to run in the graph)";
            return 0;
        }
        if (argc == 1)
            message = gm_unparen(syn, ts_node_named_child(args, 0));
    }
    if (inside_try(&c, if_stmt)) {
        region->mend_declined = "the guard is inside a try statement of its function, whose "
                                "handlers would see a different exception";
        return 0;
    }
    gm_stmt_layout layout;
    gm_stmt_layout_of(c.st->text, c.st->len, if_stmt, &layout);
    if (!layout.alone) {
        region->mend_declined = "another statement shares the guard's line";
        return 0;
    }
    TSNode inner = negated ? gm_unparen(syn, gm_child(condition, syn->field.argument)) : condition;
    TSNode args = gm_is(raised, syn->sym.call) ? gm_child(raised, syn->field.arguments) : raised;
    TSNode none = {0};
    TSNode copied[2] = {inner, ts_node_is_null(message) ? none : args};
    gm_text_builder tb;
    gm_tb_init(&tb);
    append_comments(&c, if_stmt, copied, &layout, &tb, 0);
    gm_tb_appendf(&tb, "%s._assert_async(", alias);
    /* Arguments laid out one per line in the raise: the condition gets a line too. */
    uint32_t args_open = ts_node_start_byte(args) + 1;
    bool one_per_line = !ts_node_is_null(message) && args_open < c.st->len &&
                        (c.st->text[args_open] == '\n' || c.st->text[args_open] == '\r');
    if (one_per_line) {
        gm_tb_append_str(&tb, layout.newline);
        gm_tb_append(&tb, layout.indent.ptr, layout.indent.len);
        gm_tb_append(&tb, layout.unit, layout.unit_len);
    }
    if (!negated)
        gm_tb_appendf(&tb, "%s.logical_not(", alias);
    if (!append_tensor_condition(&c, inner, &tb)) {
        gm_tb_free(&tb);
        return 0;
    }
    if (!negated)
        gm_tb_append_str(&tb, ")");
    gm_tb_append_str(&tb, one_per_line ? "," : ", ");
    if (ts_node_is_null(message)) {
        gm_tb_appendf(&tb, "\"%s\")", exception);
    } else {
        /* The message keeps the layout of the raise's arguments, closing parenthesis included */
        append_arguments(&c, args, args_open, ts_node_end_byte(args),
                         message_insertion_point(&c, message), fstring_f, exception, &layout,
                         &tb);
    }
    char title[320];
    if (fstring_f != UINT32_MAX)
        snprintf(title, sizeof title,
                 "Mend graph break: check the condition in the graph with %s._assert_async (a "
                 "failure raises RuntimeError%s%s, asynchronously on GPU, and the message shows "
                 "the f-string's fields as written, not their values)",
                 alias, strcmp(exception, "RuntimeError") == 0 ? "" : " instead of ",
                 strcmp(exception, "RuntimeError") == 0 ? "" : exception);
    else if (strcmp(exception, "RuntimeError") == 0)
        snprintf(title, sizeof title,
                 "Mend graph break: check the condition in the graph with %s._assert_async (a "
                 "failure still raises RuntimeError, asynchronously on GPU)",
                 alias);
    else
        snprintf(title, sizeof title,
                 "Mend graph break: check the condition in the graph with %s._assert_async (a "
                 "failure raises RuntimeError instead of %s, asynchronously on GPU)",
                 alias, exception);
    return gm_mend_fix_single(out, GM_FIX_UNSAFE, "check the condition with _assert_async", title,
                              ts_node_start_byte(if_stmt), ts_node_end_byte(if_stmt),
                              gm_tb_take(&tb));
}

/* [Trap] for `assert <tensor cond>, "literal"` (GM101 on the test or a part of it: no select
 * fits a statement): `torch._assert_async(<cond lowered>, "AssertionError: literal")` with the
 * message's layout kept. A failure raises RuntimeError instead of AssertionError
 * (asynchronously on GPU), and `python -O`, which strips asserts, keeps it: unsafe. */
int gm_mend_assert_guard(gm_region *region, TSNode condition, gm_fix *out) {
    trap_ctx c = {region, region->stmt, region->stmt->syntax};
    const gm_syntax *syn = c.syn;
    const char *text = c.st->text;
    const char *alias = c.st->symbols->torch_alias;
    /* the test a part of it (an and/or operand, a negation) belongs to */
    TSNode stmt = ts_node_parent(condition);
    while (gm_is(stmt, syn->sym.boolean_operator) || gm_is(stmt, syn->sym.not_operator) ||
           gm_is(stmt, syn->sym.parenthesized_expression)) {
        condition = stmt;
        stmt = ts_node_parent(stmt);
    }
    if (!gm_is(stmt, syn->sym.assert_statement) || !alias ||
        !ts_node_eq(ts_node_named_child(stmt, 0), condition))
        return 0;
    uint32_t count = ts_node_named_child_count(stmt);
    TSNode message = count == 2 ? gm_unparen(syn, ts_node_named_child(stmt, 1)) : (TSNode){0};
    if (count > 2 || (count == 2 && !is_plain_string(&c, message))) {
        region->mend_declined = "the assert's message is not a plain string literal (an f-string "
                                "or a computed message would have to run in the graph)";
        return 0;
    }
    if (reads_python_value(&c, condition, 0)) {
        region->mend_declined = "the condition reads a Python value out of a tensor (.item(), "
                                "int(), ...), so it cannot stay a tensor for an in-graph assertion";
        return 0;
    }
    if (inside_try(&c, stmt)) {
        region->mend_declined = "the assert is inside a try statement of its function, whose "
                                "handlers would see a different exception";
        return 0;
    }
    gm_stmt_layout layout;
    gm_stmt_layout_of(text, c.st->len, stmt, &layout);
    if (!layout.alone) {
        region->mend_declined = "another statement shares the assert's line";
        return 0;
    }
    gm_text_builder tb;
    gm_tb_init(&tb);
    gm_branch_append_comments(&tb, region, stmt, condition, message, &layout);
    gm_tb_appendf(&tb, "%s._assert_async(", alias);
    const char *why = NULL;
    if (!gm_branch_append_condition(&tb, region, condition, alias, &why)) {
        gm_tb_free(&tb);
        region->mend_declined = why ? why : "the condition is not a boolean tensor";
        return 0;
    }
    gm_tb_append_str(&tb, ", ");
    if (ts_node_is_null(message)) {
        gm_tb_append_str(&tb, "\"AssertionError\")");
    } else {
        /* the literal as written (parentheses and line breaks included), "AssertionError: "
         * after its opening quotes */
        TSNode written = ts_node_named_child(stmt, 1);
        uint32_t at = message_insertion_point(&c, message);
        gm_tb_append(&tb, text + ts_node_start_byte(written), at - ts_node_start_byte(written));
        gm_tb_append_str(&tb, "AssertionError: ");
        gm_tb_append(&tb, text + at, ts_node_end_byte(written) - at);
        gm_tb_append_str(&tb, ")");
    }
    char title[256];
    snprintf(title, sizeof title,
             "Mend graph break: check the assertion in the graph with %s._assert_async (a "
             "failure raises RuntimeError instead of AssertionError, asynchronously on GPU, "
             "and python -O keeps it)",
             alias);
    return gm_mend_fix_single(out, GM_FIX_UNSAFE, "check the assert with _assert_async", title,
                              ts_node_start_byte(stmt), ts_node_end_byte(stmt), gm_tb_take(&tb));
}
