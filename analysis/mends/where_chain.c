/* [Where], the if/elif/else shape (see where.h): every branch assigns the same targets,
 * makes the same calls or returns, statement by statement. Each statement becomes one select,
 * nested for an elif chain (`torch.where(c1, a1, torch.where(c2, a2, b))`); calls of one callee
 * whose positional arguments differ take the select in those arguments and run once (GraphMend's
 * common-call shape); `self.register_buffer("name", v)` of a buffer the class registers
 * elsewhere updates it in place with copy_ (rebinding made GraphMend's Phi-4 case recompile).
 * Conditions are hoisted into fresh names when more than one statement would read them. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/mends/where.h"
#include "analysis/value_kinds/value_kinds.h"

static bool is_return(TSNode stmt) {
    return !ts_node_is_null(stmt) && strcmp(ts_node_type(stmt), "return_statement") == 0;
}

/* The branches of an if/elif/else chain in order; conds[k] selects arms[k], arms[n] is the
 * else. */
typedef struct {
    unsigned n;
    TSNode conds[GM_BRANCH_MAX_ELIFS + 1];
    const gm_branch_arm *arms[GM_BRANCH_MAX_ELIFS + 2];
    /* per branch: its leading setup statements, hoisted; the statements after them line up */
    unsigned skip[GM_BRANCH_MAX_ELIFS + 2];
} chain;

#define MAX_DIFFS 8

/* Statement i of every branch: the same target assigned, the same call made or a return. */
typedef struct {
    TSNode target; /* the assigned target; null for a call statement or a return */
    bool is_return;
    TSNode values[GM_BRANCH_MAX_ELIFS + 2]; /* per branch: the value, call or returned value */
    /* A common call: the values are calls of the same callee whose arguments differ only in
     * the positional ones listed; the select goes into those arguments. */
    bool call;
    unsigned diff_count;
    uint32_t diffs[MAX_DIFFS];
    /* `self.register_buffer("name", v)` of a buffer the class registers elsewhere: updated in
     * place, `self.name.copy_(select)`, not rebound (rebinding made GraphMend's Phi-4 case
     * recompile). */
    gm_slice buffer;
} select_stmt;

static bool same_text(const char *text, TSNode a, TSNode b) {
    return gm_slice_eq(gm_node_slice(a, text), gm_node_slice(b, text));
}

/* A target a select may write: a name, or an attribute or subscript of names and literals
 * (no call whose second evaluation could differ). */
static bool plain_target(const gm_syntax *syn, TSNode t) {
    if (gm_is(t, syn->sym.identifier) || gm_is(t, syn->sym.integer) || gm_is(t, syn->sym.string))
        return true;
    if (gm_is(t, syn->sym.attribute))
        return plain_target(syn, gm_child(t, syn->field.object));
    if (gm_is(t, syn->sym.subscript)) {
        for (uint32_t i = 0; i < ts_node_named_child_count(t); i++)
            if (!plain_target(syn, ts_node_named_child(t, i)))
                return false;
        return true;
    }
    return false;
}

/* The j-th argument of a call (comments skipped), or a null node. */
static TSNode argument(const gm_syntax *syn, TSNode call, uint32_t j) {
    TSNode args = gm_child(call, syn->field.arguments);
    uint32_t seen = 0;
    for (uint32_t i = 0; gm_is(args, syn->sym.argument_list) && i < ts_node_named_child_count(args);
         i++) {
        TSNode a = ts_node_named_child(args, i);
        if (gm_is(a, syn->sym.comment))
            continue;
        if (seen++ == j)
            return a;
    }
    TSNode null = {0};
    return null;
}

static uint32_t argument_count(const gm_syntax *syn, TSNode call) {
    uint32_t n = 0;
    while (!ts_node_is_null(argument(syn, call, n)))
        n++;
    return n;
}

/* Whether the values are calls of one callee differing only in positional arguments (none
 * differing is fine: the call is then the same in every branch). */
static bool common_call(gm_where_ctx *w, const chain *c, select_stmt *s) {
    const gm_syntax *syn = w->region->stmt->syntax;
    const char *text = w->region->stmt->text;
    TSNode first = s->values[0];
    if (!gm_is(first, syn->sym.call) ||
        !gm_is(gm_child(first, syn->field.arguments), syn->sym.argument_list))
        return false;
    uint32_t count = argument_count(syn, first);
    for (unsigned k = 1; k <= c->n; k++) {
        TSNode v = s->values[k];
        if (!gm_is(v, syn->sym.call) ||
            !same_text(text, gm_child(v, syn->field.function),
                       gm_child(first, syn->field.function)) ||
            !gm_is(gm_child(v, syn->field.arguments), syn->sym.argument_list) ||
            argument_count(syn, v) != count)
            return false;
    }
    s->diff_count = 0;
    for (uint32_t j = 0; j < count; j++) {
        TSNode a0 = argument(syn, first, j);
        bool differs = false;
        for (unsigned k = 1; k <= c->n; k++)
            differs |= !same_text(text, a0, argument(syn, s->values[k], j));
        if (!differs)
            continue;
        for (unsigned k = 0; k <= c->n; k++) {
            TSNode a = argument(syn, s->values[k], j);
            if (gm_is(a, syn->sym.keyword_argument) || strcmp(ts_node_type(a), "list_splat") == 0 ||
                strcmp(ts_node_type(a), "dictionary_splat") == 0 ||
                gm_is(a, syn->sym.generator_expression))
                return false;
        }
        if (s->diff_count == MAX_DIFFS)
            return false;
        s->diffs[s->diff_count++] = j;
    }
    s->call = true;
    return true;
}

static bool word_char(char ch) {
    return ch == '_' || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
           (ch >= '0' && ch <= '9');
}

/* The buffer name of a common `self.register_buffer("name", <differs>[, persistent=...])`
 * whose buffer the class registers elsewhere too. */
static bool registered_buffer(gm_where_ctx *w, const select_stmt *s, gm_slice *name) {
    const gm_syntax *syn = w->region->stmt->syntax;
    const char *text = w->region->stmt->text;
    TSNode fn = gm_child(s->values[0], syn->field.function);
    TSNode object = gm_child(fn, syn->field.object), attr = gm_child(fn, syn->field.attribute);
    TSNode cls = w->region->site.class_node;
    if (!s->call || !ts_node_is_null(s->target) || s->is_return || s->diff_count != 1 ||
        s->diffs[0] != 1 || !gm_is(fn, syn->sym.attribute) || ts_node_is_null(cls) ||
        w->region->self_name.len == 0 ||
        !gm_slice_eq(gm_node_slice(object, text), w->region->self_name) ||
        !gm_node_text_is(attr, text, "register_buffer"))
        return false;
    TSNode literal = argument(syn, s->values[0], 0);
    if (!gm_is(literal, syn->sym.string))
        return false;
    gm_slice q = gm_node_slice(literal, text);
    if (q.len < 3 || (q.ptr[0] != '"' && q.ptr[0] != '\''))
        return false;
    for (uint32_t i = 1; i + 1 < q.len; i++)
        if (!word_char(q.ptr[i]))
            return false;
    uint32_t if_start = ts_node_start_byte(w->branch->stmt),
             if_end = ts_node_end_byte(w->branch->stmt);
    if (!gm_where_registers(text, ts_node_start_byte(cls), if_start, q) &&
        !gm_where_registers(text, if_end, ts_node_end_byte(cls), q))
        return false;
    name->ptr = q.ptr + 1;
    name->len = q.len - 2;
    return true;
}

/* Lines up statement i of every branch; false when they do not match. */
static bool match_stmt(gm_where_ctx *w, const chain *c, unsigned i, select_stmt *s) {
    const gm_syntax *syn = w->region->stmt->syntax;
    const char *text = w->region->stmt->text;
    memset(s, 0, sizeof *s);
    TSNode first = c->arms[0]->stmts[c->skip[0] + i];
    s->is_return = is_return(first);
    bool assignment = false, call = false;
    for (unsigned k = 0; k <= c->n; k++) {
        TSNode stmt = c->arms[k]->stmts[c->skip[k] + i], target, value;
        if (s->is_return) {
            if (!is_return(stmt))
                return false;
            s->values[k] = ts_node_named_child(stmt, 0);
            if (ts_node_is_null(s->values[k])) {
                w->why = "a branch returns nothing";
                return false;
            }
        } else if (gm_branch_assignment(syn, stmt, &target, &value)) {
            if (call || (k > 0 && !same_text(text, target, s->target)))
                return false;
            assignment = true;
            s->target = target;
            s->values[k] = value;
        } else if (gm_is(stmt, syn->sym.expression_statement) &&
                   ts_node_named_child_count(stmt) == 1 &&
                   gm_is(ts_node_named_child(stmt, 0), syn->sym.call)) {
            if (assignment)
                return false;
            call = true;
            s->values[k] = ts_node_named_child(stmt, 0);
        } else {
            return false;
        }
    }
    if (assignment && !plain_target(syn, s->target)) {
        w->why = gm_where_computed_target;
        return false;
    }
    if (common_call(w, c, s)) {
        registered_buffer(w, s, &s->buffer);
        return true;
    }
    return !call;
}

/* Whether the selected values are tensors and may all be evaluated. */
static bool admit_stmt(gm_where_ctx *w, const chain *c, const select_stmt *s) {
    const gm_syntax *syn = w->region->stmt->syntax;
    for (unsigned k = 0; k <= c->n; k++) {
        if (!s->call) {
            if (!gm_where_is_tensor(w, s->values[k]) || !gm_where_admit(w, s->values[k]))
                return false;
            continue;
        }
        for (unsigned d = 0; d < s->diff_count; d++) {
            TSNode a = argument(syn, s->values[k], s->diffs[d]);
            if (!gm_where_is_tensor(w, a) || !gm_where_admit(w, a))
                return false;
        }
    }
    return true;
}

/* torch.where(c1, v1, torch.where(c2, v2, ... vn)) */
static void append_nested(gm_text_builder *tb, gm_where_ctx *w, const chain *c, char **conds,
                          TSNode *values) {
    const gm_stmt_ctx *st = w->region->stmt;
    for (unsigned k = 0; k < c->n; k++) {
        gm_tb_appendf(tb, "%s.where(%s, ", w->branch->torch, conds[k]);
        gm_tb_append_argument(tb, st->syntax, st->text, values[k]);
        gm_tb_append_str(tb, ", ");
    }
    gm_tb_append_argument(tb, st->syntax, st->text, values[c->n]);
    for (unsigned k = 0; k < c->n; k++)
        gm_tb_append_str(tb, ")");
}

static void append_select(gm_text_builder *tb, gm_where_ctx *w, const chain *c, char **conds,
                          const select_stmt *s) {
    const gm_stmt_ctx *st = w->region->stmt;
    if (!s->call) {
        append_nested(tb, w, c, conds, (TSNode *)s->values);
        return;
    }
    if (s->buffer.len > 0) {
        TSNode args[GM_BRANCH_MAX_ELIFS + 2];
        for (unsigned k = 0; k <= c->n; k++)
            args[k] = argument(st->syntax, s->values[k], 1);
        gm_tb_append(tb, w->region->self_name.ptr, w->region->self_name.len);
        gm_tb_append_str(tb, ".");
        gm_tb_append(tb, s->buffer.ptr, s->buffer.len);
        gm_tb_append_str(tb, ".copy_(");
        append_nested(tb, w, c, conds, args);
        gm_tb_append_str(tb, ")");
        return;
    }
    /* the call of the first branch, its differing arguments replaced by selects */
    uint32_t at = ts_node_start_byte(s->values[0]);
    for (unsigned d = 0; d < s->diff_count; d++) {
        TSNode args[GM_BRANCH_MAX_ELIFS + 2];
        for (unsigned k = 0; k <= c->n; k++)
            args[k] = argument(st->syntax, s->values[k], s->diffs[d]);
        gm_tb_append(tb, st->text + at, ts_node_start_byte(args[0]) - at);
        append_nested(tb, w, c, conds, args);
        at = ts_node_end_byte(args[0]);
    }
    gm_tb_append(tb, st->text + at, ts_node_end_byte(s->values[0]) - at);
}

static int select_statements(gm_where_ctx *w, const chain *cp, unsigned count, unsigned setups,
                             gm_fix *out);

/* GraphMend's setup statements: a branch longer than the others starts with assignments of
 * new names (bound nowhere before the if, nor in another branch), which run unconditionally
 * before the selects. Their tensor kinds are bound for the selects to see (the caller restores
 * the kinds afterwards). */
static bool hoist_setups(gm_where_ctx *w, const chain *c) {
    const gm_stmt_ctx *st = w->region->stmt;
    const gm_syntax *syn = st->syntax;
    for (unsigned k = 0; k <= c->n; k++) {
        for (unsigned j = 0; j < c->skip[k]; j++) {
            TSNode target, value;
            if (!gm_branch_assignment(syn, c->arms[k]->stmts[j], &target, &value) ||
                !gm_is(target, syn->sym.identifier)) {
                w->why = gm_where_not_a_select;
                return false;
            }
            gm_slice name = gm_node_slice(target, st->text);
            /* a rebinding cannot run unconditionally: not a select (Cond may say more) */
            if (gm_branch_bound_before(w->region, name)) {
                w->why = gm_where_not_a_select;
                return false;
            }
            for (unsigned o = 0; o <= c->n; o++) {
                TSNode block = c->arms[o]->block;
                if (o != k && gm_text_has_word(st->text, ts_node_start_byte(block),
                                               ts_node_end_byte(block), name)) {
                    w->why = gm_where_not_a_select; /* another branch uses the name too */
                    return false;
                }
            }
            if (!gm_where_admit(w, value))
                return false;
        }
    }
    for (unsigned k = 0; k <= c->n; k++) {
        for (unsigned j = 0; j < c->skip[k]; j++) {
            TSNode target, value;
            gm_branch_assignment(syn, c->arms[k]->stmts[j], &target, &value);
            gm_kinds_assign(w->region, target, value);
        }
    }
    return true;
}

/* if c1: S1 elif c2: S2 ... else: Sn, where every Sk assigns the same targets, makes the same
 * calls or returns, in the same order (after setups) -> one select per statement. */
int gm_where_chain(gm_where_ctx *w, gm_fix *out) {
    const gm_branch_if *b = w->branch;
    chain c;
    c.n = b->elif_count + 1;
    c.conds[0] = b->condition;
    c.arms[0] = &b->then_arm;
    for (unsigned k = 0; k < b->elif_count; k++) {
        c.conds[k + 1] = b->elif_conditions[k];
        c.arms[k + 1] = &b->elif_arms[k];
    }
    c.arms[c.n] = &b->else_arm;
    unsigned count = b->then_arm.count, setups = 0;
    for (unsigned k = 0; k <= c.n; k++)
        if (c.arms[k]->count < count)
            count = c.arms[k]->count;
    if (count == 0) {
        w->why = gm_where_not_a_select;
        return 0;
    }
    for (unsigned k = 0; k <= c.n; k++) {
        c.skip[k] = c.arms[k]->count - count;
        setups += c.skip[k];
    }
    size_t kinds_before = w->region->env.count;
    int rc = setups > 0 && !hoist_setups(w, &c) ? 0 : select_statements(w, &c, count, setups, out);
    /* the setups' kinds were for the selects only: the walk binds them in its own time */
    if (w->region->env.count > kinds_before)
        w->region->env.count = kinds_before;
    return rc;
}

static int select_statements(gm_where_ctx *w, const chain *cp, unsigned count, unsigned setups,
                             gm_fix *out) {
    const gm_branch_if *b = w->branch;
    const gm_stmt_ctx *st = w->region->stmt;
    chain c = *cp;
    select_stmt stmts[GM_BRANCH_MAX_STMTS];
    unsigned selects = 0;
    for (unsigned i = 0; i < count; i++) {
        if (!match_stmt(w, &c, i, &stmts[i]) || (stmts[i].is_return && i + 1 != count)) {
            if (!w->why)
                w->why = gm_where_not_a_select;
            return 0;
        }
        selects += stmts[i].call ? stmts[i].diff_count : 1;
    }
    for (unsigned i = 0; i < count; i++)
        if (!admit_stmt(w, &c, &stmts[i]))
            return 0;
    if (!gm_where_admit_condition(w, c.conds[0]))
        return 0;
    for (unsigned k = 1; k < c.n; k++)
        if (!gm_where_admit_test(w, c.conds[k], false))
            return 0;
    if (selects == 0) {
        w->why = "every branch does the same: nothing to select";
        return 0;
    }
    /* the conditions, hoisted into fresh names when a select would evaluate one twice */
    gm_text_builder tb;
    gm_tb_init(&tb);
    gm_branch_append_comments(&tb, w->region, b->stmt, (TSNode){0}, (TSNode){0}, &b->layout);
    char *conds[GM_BRANCH_MAX_ELIFS + 1] = {0};
    /* a statement before the last select may rebind what the condition reads */
    bool hoist = selects > 1 || count + setups > 1, ok = true;
    char first_name[96] = "";
    for (unsigned k = 0; ok && k < c.n; k++) {
        gm_text_builder lowered;
        gm_tb_init(&lowered);
        ok = gm_branch_append_condition(&lowered, w->region, c.conds[k], b->torch, &w->why);
        conds[k] = gm_tb_take(&lowered);
        ok = ok && conds[k];
        if (!ok || !hoist)
            continue;
        char base[112], name[96];
        if (k == 0)
            snprintf(base, sizeof base, "gm_cond");
        else
            snprintf(base, sizeof base, "%s_%u", first_name, k);
        if (!gm_fresh_name(st->text + ts_node_start_byte(st->top), gm_node_length(st->top), base,
                           name, sizeof name)) {
            w->why = "no fresh name is free for the condition";
            ok = false;
            continue;
        }
        if (k == 0)
            snprintf(first_name, sizeof first_name, "%s", name);
        gm_tb_appendf(&tb, "%s = %s", name, conds[k]);
        gm_branch_newline(&tb, &b->layout);
        free(conds[k]);
        conds[k] = strdup(name);
        ok = conds[k] != NULL;
    }
    for (unsigned k = 0; ok && k <= c.n; k++) {
        for (unsigned j = 0; j < c.skip[k]; j++) {
            gm_tb_append_node(&tb, st->text, c.arms[k]->stmts[j]);
            gm_branch_newline(&tb, &b->layout);
        }
    }
    for (unsigned i = 0; ok && i < count; i++) {
        if (i > 0)
            gm_branch_newline(&tb, &b->layout);
        if (stmts[i].is_return) {
            gm_tb_append_str(&tb, "return ");
        } else if (!ts_node_is_null(stmts[i].target)) {
            gm_tb_append_node(&tb, st->text, stmts[i].target);
            gm_tb_append_str(&tb, " = ");
        }
        append_select(&tb, w, &c, conds, &stmts[i]);
    }
    for (unsigned k = 0; k < c.n; k++)
        free(conds[k]);
    if (!ok) {
        bool oom = tb.oom;
        gm_tb_free(&tb);
        return oom ? -1 : 0;
    }
    bool returns = stmts[count - 1].is_return, buffers = false;
    for (unsigned i = 0; i < count; i++)
        buffers |= stmts[i].buffer.len > 0;
    if (buffers)
        return gm_mend_fix_single(
            out, GM_FIX_UNSAFE, "update the buffer in place with copy_",
            "Mend graph break: update the registered buffer in place with copy_ of a "
            "torch.where select (unsafe: the buffer keeps its shape, dtype and persistence)",
            ts_node_start_byte(b->stmt), ts_node_end_byte(b->stmt), gm_tb_take(&tb));
    return gm_mend_fix_single(
        out, w->effect == GM_EXPR_TOTAL ? GM_FIX_SAFE : GM_FIX_UNSAFE,
        returns ? "return a torch.where select" : "select the branches with torch.where",
        returns ? gm_where_title(
                      w->effect, "Mend graph break: return a torch.where select of the branches",
                      "Mend graph break: return a torch.where select of the branches "
                      "(unsafe: an untaken branch may raise, give non-finite values or differ in "
                      "shape)")
                : gm_where_title(w->effect,
                                 "Mend graph break: compute the branches and select with "
                                 "torch.where",
                                 "Mend graph break: compute the branches and select with "
                                 "torch.where (unsafe: an untaken branch may raise, give "
                                 "non-finite values or differ in shape)"),
        ts_node_start_byte(b->stmt), ts_node_end_byte(b->stmt), gm_tb_take(&tb));
}
