#include "analysis/region_walk.h"

#include <stdint.h>
#include <string.h>

#include "analysis/logging_calls/logging_config.h"
#include "analysis/rules/rules.h"
#include "analysis/value_kinds/value_kinds.h"

#define GM_MAX_NESTING 200

static void walk_block(gm_region *r, TSNode block, int depth);
static void walk_statement_kind(gm_region *r, TSNode n, int depth);
static void scan_expr(gm_region *r, TSNode n, int depth);
static void scan_test(gm_region *r, TSNode n, int depth);
typedef void (*branch_walker)(gm_region *r, TSNode n, int depth);
static void walk_guarded(gm_region *r, TSNode test, TSNode node, int depth, branch_walker walk);
static void scan_comprehension(gm_region *r, TSNode n, int depth);

static const gm_syntax *syn_of(const gm_region *r) {
    return r->stmt->syntax;
}

/* After rules ran: a break they predicted in a loop body or try/with makes dynamo skip the
 * frame (verified on torch 2.13: it reports none of the function's later breaks). Findings a
 * dynamo setting turns off are no break. One in a comprehension that is a frame of its own
 * (Python 3.11) skips that frame only: the function breaks at the comprehension and resumes. */
static void note_breaks(gm_region *r, size_t before) {
    const gm_finding_list *out = r->stmt->out;
    if (r->frame_skipped ||
        (r->loop_depth == r->comprehension_frame_depth && r->try_depth == 0))
        return;
    for (size_t i = before; i < out->count; i++)
        if (!out->items[i].suppressed &&
            gm_analysis_rule_enabled(r->stmt->options, out->items[i].rule))
            r->frame_skipped = true;
}

static bool is_comprehension(const gm_syntax *syn, TSSymbol t) {
    return t == syn->sym.list_comprehension || t == syn->sym.set_comprehension ||
           t == syn->sym.dictionary_comprehension || t == syn->sym.generator_expression;
}

/* `a and b` / `a or b` used as a value: dynamo jumps on the truthiness of the left operand, so a
 * tensor there breaks as a branch does (GB0170). A left operand that is itself the same operator
 * was already looked at. */
static void visit_boolean_operator(gm_region *r, TSNode n) {
    const gm_syntax *syn = syn_of(r);
    TSNode left = gm_unparen(syn, gm_child(n, syn->field.left));
    TSNode op = gm_child(n, syn->field.operator);
    if (gm_is(left, syn->sym.not_operator))
        return; /* the `not` itself breaks first (GM104) */
    if (gm_is(left, syn->sym.boolean_operator)) {
        TSNode inner = gm_child(left, syn->field.operator);
        if (!ts_node_is_null(op) && !ts_node_is_null(inner) &&
            ts_node_symbol(op) == ts_node_symbol(inner))
            return;
    }
    const char *construct = "and/or";
    if (!ts_node_is_null(op))
        construct = strcmp(ts_node_type(op), "and") == 0 ? "and" : "or";
    gm_rule_data_dependent_branch(r, left, gm_value_of(r, left), construct);
}

/* Whether the boolean operator n is `and` (else `or`). */
static bool is_and(gm_region *r, TSNode n) {
    TSNode op = gm_child(n, syn_of(r)->field.operator);
    return !ts_node_is_null(op) && strcmp(ts_node_type(op), "and") == 0;
}

/* Whether the left operand of `a and b` / `a or b` folds to the value that decides the whole
 * (False for and, True for or: `self.training and ...` in eval mode): Python then never
 * evaluates the right operand, and torch.compile does not trace it. */
static bool left_decides(gm_region *r, TSNode n) {
    const gm_syntax *syn = syn_of(r);
    if (ts_node_is_null(gm_child(n, syn->field.operator)))
        return false;
    gm_value left = gm_value_of(r, gm_child(n, syn->field.left));
    return left.constant == (is_and(r, n) ? 0 : 1);
}

/* The part of a short-circuit operand that decides at run time: `self.training and p > 0` is
 * `p > 0` in train mode, where self.training folds to True. */
static TSNode undecided_part(gm_region *r, TSNode operand) {
    const gm_syntax *syn = syn_of(r);
    for (int guard = 0; guard < 16; guard++) {
        operand = gm_unparen(syn, operand);
        if (!gm_is(operand, syn->sym.boolean_operator))
            break;
        int lets_right_run = is_and(r, operand) ? 1 : 0;
        if (gm_value_of(r, gm_child(operand, syn->field.left)).constant != lets_right_run)
            break;
        operand = gm_child(operand, syn->field.right);
    }
    return operand;
}

/* Scans the right operand of n (whose left operand does not decide it) as Python runs it:
 * only when the left operand is true (`and`) or false (`or`), which the findings there give as
 * their condition. A left operand that folds to the value that lets the right one run adds no
 * condition. */
static void scan_right_operand(gm_region *r, TSNode n, int depth, bool as_test) {
    const gm_syntax *syn = syn_of(r);
    TSNode left = gm_child(n, syn->field.left);
    bool conjunction = is_and(r, n);
    char saved[sizeof r->short_circuit];
    memcpy(saved, r->short_circuit, sizeof saved);
    if (gm_value_of(r, left).constant < 0) {
        char shown[72];
        gm_node_shown(undecided_part(r, left), r->stmt->text, shown, sizeof shown);
        size_t at = strlen(r->short_circuit);
        snprintf(r->short_circuit + at, sizeof r->short_circuit - at, "%s%s%s%s",
                 at ? ", and " : "", conjunction ? "" : "not (", shown, conjunction ? "" : ")");
    }
    TSNode right = gm_child(n, syn->field.right);
    if (as_test)
        scan_test(r, right, depth);
    else
        scan_expr(r, right, depth);
    memcpy(r->short_circuit, saved, sizeof saved);
}

/* A tested expression (of if/elif/while or a conditional expression): its top-level `and`,
 * `or` and `not` are part of the test the branch rule reports, so only what lies below them is
 * scanned. */
static void scan_test(gm_region *r, TSNode n, int depth) {
    const gm_syntax *syn = syn_of(r);
    TSNode u = gm_unparen(syn, n);
    if (depth > GM_MAX_NESTING || ts_node_is_null(u)) {
        return;
    } else if (gm_is(u, syn->sym.boolean_operator)) {
        scan_test(r, gm_child(u, syn->field.left), depth + 1);
        if (!left_decides(r, u))
            scan_right_operand(r, u, depth + 1, true);
    } else if (gm_is(u, syn->sym.not_operator)) {
        scan_test(r, gm_child(u, syn->field.argument), depth + 1);
    } else {
        scan_expr(r, n, depth);
    }
}

/* Visits the calls and conditional expressions of an expression (not lambdas). */
static void scan_children(gm_region *r, TSNode n, TSSymbol t, int depth) {
    /* The few children most expressions have are cheaper to take by index than with a cursor;
     * a node with many (a long literal) uses one, as an index lookup walks the children before
     * it. Names after a dot or before a keyword argument's `=` and the text of plain strings
     * hold nothing a rule looks at, and are not visited. */
    uint32_t first, end;
    gm_running_children(syn_of(r), r->stmt->text, n, t, &first, &end);
    if (end <= 8) {
        for (uint32_t i = first; i < end && !r->frame_skipped; i++)
            scan_expr(r, ts_node_named_child(n, i), depth + 1);
        return;
    }
    TSTreeCursor cursor = ts_tree_cursor_new(n);
    uint32_t named = 0;
    if (ts_tree_cursor_goto_first_child(&cursor)) {
        do {
            TSNode c = ts_tree_cursor_current_node(&cursor);
            if (ts_node_is_named(c) && named++ >= first)
                scan_expr(r, c, depth + 1);
        } while (!r->frame_skipped && named < end && ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
}

/* The rules of an operation whose operands Python evaluates before it: a call, a subscript, a
 * comparison, a binary operator, `not`, a walrus. */
static void check_operation(gm_region *r, TSNode n, TSSymbol t) {
    const gm_syntax *syn = syn_of(r);
    if (t == syn->sym.call) {
        gm_kinds_note_call(r, n);
        gm_kinds_note_passed_tensors(r, n);
        for (size_t i = 0; i < gm_call_rule_count; i++)
            gm_call_rules[i](r, n);
    } else if (t == syn->sym.subscript) {
        for (size_t i = 0; i < gm_subscript_rule_count; i++)
            gm_subscript_rules[i](r, n);
    } else if (t == syn->sym.comparison_operator) {
        for (size_t i = 0; i < gm_comparison_rule_count; i++)
            gm_comparison_rules[i](r, n);
    } else if (t == syn->sym.binary_operator) {
        for (size_t i = 0; i < gm_binary_rule_count; i++)
            gm_binary_rules[i](r, n);
    } else if (t == syn->sym.named_expression) {
        gm_value_of(r, n); /* binds the walrus target */
    } else if (t == syn->sym.not_operator) {
        gm_rule_tensor_not(r, n, gm_value_of(r, gm_child(n, syn->field.argument)));
    }
}

/* A comprehension as Python runs it: its first iterable once, before the loop (`[f(x) for x in
 * t.tolist()]` reads t once, outside any loop), then the clauses and the body per element, as a
 * loop (a break there makes dynamo skip the frame). */
static void scan_comprehension(gm_region *r, TSNode n, int depth) {
    uint32_t count = ts_node_named_child_count(n);
    TSNode first = {0};
    for (uint32_t i = 0; i < count && ts_node_is_null(first); i++) {
        TSNode c = ts_node_named_child(n, i);
        if (strcmp(ts_node_type(c), "for_in_clause") == 0)
            first = c;
    }
    TSNode iterable = ts_node_is_null(first) ? first : gm_child(first, syn_of(r)->field.right);
    scan_expr(r, iterable, depth + 1);
    bool own_frame = gm_options_comprehension_frames(r->stmt->options) &&
                     !gm_is(n, syn_of(r)->sym.generator_expression);
    r->loop_depth++;
    r->comprehension_frame_depth += own_frame;
    /* the clauses (binding the names), then the body (child 0) */
    for (uint32_t i = 1; i < count && !r->frame_skipped; i++) {
        TSNode c = ts_node_named_child(n, i);
        bool clause = strcmp(ts_node_type(c), "for_in_clause") == 0;
        if (!ts_node_eq(c, first))
            scan_expr(r, clause ? gm_child(c, syn_of(r)->field.right) : c, depth + 1);
        /* its names hold the elements (`[v.item() for v in t]`: 0-d tensors made in the graph) */
        if (clause)
            gm_kinds_bind_for(r, gm_child(c, syn_of(r)->field.left),
                              gm_child(c, syn_of(r)->field.right));
    }
    if (count > 0 && !r->frame_skipped)
        scan_expr(r, ts_node_named_child(n, 0), depth + 1);
    r->loop_depth--;
    r->comprehension_frame_depth -= own_frame;
    if (r->comprehension_frame_depth == 0)
        r->comprehension_frame_ended = false;
}

/* Rules run in the order Python evaluates: operands before the operation that uses them, so
 * that a break after which dynamo cannot resume (frame_skipped) hides what comes later. */
static void scan_expr(gm_region *r, TSNode n, int depth) {
    const gm_syntax *syn = syn_of(r);
    if (ts_node_is_null(n) || depth > GM_MAX_NESTING || r->stmt->oom || r->frame_skipped ||
        r->comprehension_frame_ended)
        return;
    TSSymbol t = ts_node_symbol(n);
    if (t == syn->sym.lambda || t == syn->sym.function_definition || t == syn->sym.class_definition)
        return;
    size_t before = r->stmt->out->count;
    if (t == syn->sym.conditional_expression && ts_node_named_child_count(n) >= 3) {
        TSNode cond = ts_node_named_child(n, 1);
        scan_test(r, cond, depth + 1);
        if (r->frame_skipped)
            return;
        gm_value v = gm_value_of(r, cond);
        gm_rule_data_dependent_branch(r, cond, v, "conditional expression");
        note_breaks(r, before);
        if (v.constant != 0) {
            gm_kind_narrowing narrowing;
            bool narrowed = gm_kinds_narrow_begin(r, cond, &narrowing);
            walk_guarded(r, cond, ts_node_named_child(n, 0), depth + 1, scan_expr);
            if (narrowed)
                gm_kinds_narrow_end(r, &narrowing);
        }
        if (v.constant != 1)
            scan_expr(r, ts_node_named_child(n, 2), depth + 1);
        return;
    }
    if (t == syn->sym.boolean_operator) {
        /* the left operand, the jump on it, then the right operand */
        scan_expr(r, gm_child(n, syn->field.left), depth + 1);
        if (r->frame_skipped)
            return;
        visit_boolean_operator(r, n);
        note_breaks(r, before);
        if (!r->frame_skipped && !left_decides(r, n))
            scan_right_operand(r, n, depth + 1, false);
        return;
    }
    bool operation = t == syn->sym.call || t == syn->sym.subscript ||
                     t == syn->sym.comparison_operator || t == syn->sym.named_expression ||
                     t == syn->sym.not_operator || t == syn->sym.binary_operator;
    if (is_comprehension(syn, t)) {
        scan_comprehension(r, n, depth);
        return;
    }
    scan_children(r, n, t, depth);
    if (t == syn->sym.attribute && !r->frame_skipped) {
        gm_rule_cached_property_read(r, n);
        if (!r->frame_skipped)
            gm_rule_property_read(r, n);
        note_breaks(r, before);
    }
    if (operation && !r->frame_skipped) {
        check_operation(r, n, t);
        note_breaks(r, before);
    }
}

/* Whether class (an isinstance() class argument) names torch.Tensor or nn.Parameter, or is a
 * tuple of only such classes. */
static bool names_tensor_class(gm_region *r, TSNode cls, int depth) {
    const gm_syntax *syn = syn_of(r);
    cls = gm_unparen(syn, cls);
    if (gm_is(cls, syn->sym.tuple) && depth == 0) {
        uint32_t count = ts_node_named_child_count(cls);
        for (uint32_t i = 0; i < count; i++)
            if (!names_tensor_class(r, ts_node_named_child(cls, i), depth + 1))
                return false;
        return count > 0;
    }
    char name[GM_NAME_MAX];
    if (!gm_symbols_resolve(r->stmt->symbols, syn, r->stmt->text, cls, name, sizeof name))
        return false;
    return strcmp(name, "torch.Tensor") == 0 || strcmp(name, "torch.nn.Parameter") == 0 ||
           strcmp(name, "torch.nn.parameter.Parameter") == 0;
}

/* The `isinstance(x, torch.Tensor)` that test (or one of its top-level `and` operands)
 * consists of, when the analysis does not know x for a tensor: the branch it guards runs only
 * for a tensor. Writes it as shown into out. */
static bool tensor_type_guard(gm_region *r, TSNode test, char *out, size_t cap, int depth) {
    const gm_syntax *syn = syn_of(r);
    TSNode u = gm_unparen(syn, test);
    if (ts_node_is_null(u) || depth > 8)
        return false;
    if (gm_is(u, syn->sym.boolean_operator))
        return is_and(r, u) && (tensor_type_guard(r, gm_child(u, syn->field.left), out, cap,
                                                  depth + 1) ||
                                tensor_type_guard(r, gm_child(u, syn->field.right), out, cap,
                                                  depth + 1));
    if (!gm_is(u, syn->sym.call))
        return false;
    TSNode fn = gm_child(u, syn->field.function);
    TSNode args = gm_child(u, syn->field.arguments);
    if (!gm_node_text_is(fn, r->stmt->text, "isinstance") || ts_node_is_null(args) ||
        ts_node_named_child_count(args) != 2 || gm_region_binds(r, "isinstance"))
        return false;
    TSNode value = ts_node_named_child(args, 0), cls = ts_node_named_child(args, 1);
    if (!names_tensor_class(r, cls, 0) || gm_value_of(r, value).kind == GM_KIND_TENSOR)
        return false;
    gm_node_shown(u, r->stmt->text, out, cap);
    return true;
}

/* Walks (with walk) node in the branch test guards: findings there get the type guard's
 * condition (see gm_region.type_guard). */
static void walk_guarded(gm_region *r, TSNode test, TSNode node, int depth, branch_walker walk) {
    char saved[sizeof r->type_guard];
    memcpy(saved, r->type_guard, sizeof saved);
    char guard[sizeof r->type_guard];
    if (!r->type_guard[0] && tensor_type_guard(r, test, guard, sizeof guard, 0))
        memcpy(r->type_guard, guard, sizeof guard);
    walk(r, node, depth);
    memcpy(r->type_guard, saved, sizeof saved);
}

/* A condition of if/elif/while: the branch rule (the guard rule when guard), then the calls
 * inside it. */
static gm_value visit_condition(gm_region *r, TSNode cond, const char *construct, bool guard,
                                int depth) {
    /* the test is evaluated before the jump on it */
    scan_test(r, cond, depth + 1);
    size_t before = r->stmt->out->count;
    gm_value v = gm_value_of(r, cond);
    if (r->frame_skipped)
        return v;
    /* Dynamo reports the line of the tested expression, not of an opening parenthesis. */
    if (guard)
        gm_rule_data_dependent_guard(r, gm_unparen(syn_of(r), cond), v);
    else
        gm_rule_data_dependent_branch(r, gm_unparen(syn_of(r), cond), v, construct);
    note_breaks(r, before);
    return v;
}

/* `if not <cond>: raise ...` with no elif/else: a validation guard. */
static bool is_guard(gm_region *r, TSNode if_stmt) {
    const gm_syntax *syn = syn_of(r);
    if (!ts_node_is_null(gm_child(if_stmt, syn->field.alternative)))
        return false;
    if (!gm_is(gm_unparen(syn, gm_child(if_stmt, syn->field.condition)), syn->sym.not_operator))
        return false;
    TSNode body = gm_child(if_stmt, syn->field.consequence);
    for (uint32_t i = 0; !ts_node_is_null(body) && i < ts_node_named_child_count(body); i++) {
        TSNode s = ts_node_named_child(body, i);
        if (gm_is(s, syn->sym.comment))
            continue;
        return gm_is(s, syn->sym.raise_statement);
    }
    return false;
}

/* `assert cond, msg`: dynamo rewrites an assert with no message or a constant string message
 * to torch._assert_async; any other message makes it branch on the tensor (GB0170). */
static void walk_assert(gm_region *r, TSNode n, int depth) {
    uint32_t count = ts_node_named_child_count(n);
    if (count == 0)
        return;
    TSNode cond = ts_node_named_child(n, 0);
    size_t before = r->stmt->out->count;
    if (count >= 2 && !gm_is_constant_string(syn_of(r), ts_node_named_child(n, 1)))
        gm_rule_data_dependent_branch(r, gm_unparen(syn_of(r), cond), gm_value_of(r, cond),
                                      "assert with a non-string message");
    note_breaks(r, before);
    for (uint32_t i = 0; i < count; i++)
        scan_expr(r, ts_node_named_child(n, i), depth + 1);
}

/* Whether a test has the truth value truth (1 or 0) whatever values its unknown parts have: a
 * folded constant, or an operator that short-circuits on such an operand: `or` for true
 * (`is_fx_proxy(x) or is_torchdynamo_compiling()`), `and` for false (`x.mean() > 0 and
 * self.training` in eval mode: the tensor test still runs, and breaks, but the body never does),
 * and for false also `not` of an always-true test. */
static bool always_is(gm_region *r, TSNode test, int truth, int depth) {
    const gm_syntax *syn = syn_of(r);
    TSNode u = gm_unparen(syn, test);
    if (ts_node_is_null(u) || depth > GM_MAX_NESTING)
        return false;
    if (gm_is(u, syn->sym.boolean_operator)) {
        TSNode op = gm_child(u, syn->field.operator);
        /* `or` decides true from its left side, `and` decides false */
        bool decides = !ts_node_is_null(op) && strcmp(ts_node_type(op), truth ? "or" : "and") == 0;
        bool left = always_is(r, gm_child(u, syn->field.left), truth, depth + 1);
        if (left == decides)
            return left; /* `T or x` is true; otherwise the right side decides */
        return always_is(r, gm_child(u, syn->field.right), truth, depth + 1);
    }
    if (!truth && gm_is(u, syn->sym.not_operator))
        return always_is(r, gm_child(u, syn->field.argument), 1, depth + 1);
    return gm_value_of(r, u).constant == truth;
}

/* A break that makes dynamo skip the frame, inside one branch of an if whose test is a Python
 * value the analysis cannot decide (`if self._use_flash_attention_2:`): dynamo follows the
 * branch the value picks at trace time, so the code after the if is still traced on the other
 * paths, and its breaks are reported there. The frame counts as skipped after the if only when
 * every branch skips it. */
static void walk_if(gm_region *r, TSNode n, int depth) {
    const gm_syntax *syn = syn_of(r);
    TSNode test = gm_child(n, syn->field.condition);
    gm_value v = visit_condition(r, test, "if", is_guard(r, n), depth);
    if (r->frame_skipped)
        return; /* the test itself */
    bool every_branch_skips = true, has_else = false;
    gm_kind_branches kinds;
    gm_kinds_branches_begin(r, &kinds);
    if (v.constant != 0 && !always_is(r, test, 0, 0)) {
        gm_kind_narrowing narrowing;
        bool narrowed = gm_kinds_narrow_begin(r, test, &narrowing);
        walk_guarded(r, test, gm_child(n, syn->field.consequence), depth + 1, walk_block);
        if (narrowed)
            gm_kinds_narrow_end(r, &narrowing);
        every_branch_skips = r->frame_skipped;
        r->frame_skipped = false;
    }
    gm_kinds_branch_next(r, &kinds);
    bool leaves = r->exited && (v.constant == 1 || always_is(r, test, 1, 0));
    r->exited = leaves;
    if (v.constant == 1 || leaves) {
        gm_kinds_branches_end(r, &kinds);
        r->frame_skipped = every_branch_skips && v.constant != 0 && !always_is(r, test, 0, 0);
        return; /* the alternatives are dead code under torch.compile */
    }
    TSTreeCursor cursor = ts_tree_cursor_new(n);
    bool done = false;
    if (ts_tree_cursor_goto_first_child(&cursor)) {
        do {
            if (ts_tree_cursor_current_field_id(&cursor) != syn->field.alternative)
                continue;
            TSNode alt = ts_tree_cursor_current_node(&cursor);
            if (gm_is(alt, syn->sym.elif_clause)) {
                TSNode elif_test = gm_child(alt, syn->field.condition);
                gm_value ev = visit_condition(r, elif_test, "elif", false, depth);
                if (r->frame_skipped) {
                    has_else = true; /* the elif's test skips the frame on every later path */
                    break;
                }
                if (ev.constant != 0 && !always_is(r, elif_test, 0, 0)) {
                    gm_kind_narrowing narrowing;
                    bool narrowed = gm_kinds_narrow_begin(r, elif_test, &narrowing);
                    walk_guarded(r, elif_test, gm_child(alt, syn->field.consequence), depth + 1,
                                 walk_block);
                    if (narrowed)
                        gm_kinds_narrow_end(r, &narrowing);
                }
                gm_kinds_branch_next(r, &kinds);
                every_branch_skips = every_branch_skips && r->frame_skipped;
                r->frame_skipped = false;
                done = ev.constant == 1;
                has_else = done;
            } else if (gm_is(alt, syn->sym.else_clause)) {
                walk_block(r, gm_child(alt, syn->field.body), depth + 1);
                gm_kinds_branch_next(r, &kinds);
                every_branch_skips = every_branch_skips && r->frame_skipped;
                r->frame_skipped = false;
                has_else = true;
            }
            r->exited = false; /* one branch leaving does not make the if leave */
        } while (!done && ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
    gm_kinds_branches_end(r, &kinds);
    r->frame_skipped = every_branch_skips && has_else;
}

static void walk_else(gm_region *r, TSNode stmt, int depth) {
    TSNode alt = gm_child(stmt, syn_of(r)->field.alternative);
    if (gm_is(alt, syn_of(r)->sym.else_clause))
        walk_block(r, gm_child(alt, syn_of(r)->field.body), depth + 1);
}

static void walk_while(gm_region *r, TSNode n, int depth) {
    const gm_syntax *syn = syn_of(r);
    /* Dynamo breaks at a while's own tensor test and resumes after it (verified on torch 2.13:
     * three graphs); only breaks in the body make it skip the frame. */
    gm_value v = visit_condition(r, gm_child(n, syn->field.condition), "while", false, depth);
    r->loop_depth++;
    if (v.constant != 0)
        walk_block(r, gm_child(n, syn->field.body), depth + 1);
    r->exited = false;
    r->loop_depth--;
    walk_else(r, n, depth);
    r->exited = false;
}

static void walk_for(gm_region *r, TSNode n, int depth) {
    const gm_syntax *syn = syn_of(r);
    TSNode left = gm_child(n, syn->field.left), right = gm_child(n, syn->field.right);
    scan_expr(r, right, depth + 1);
    gm_kinds_bind_for(r, left, right);
    r->loop_depth++;
    walk_block(r, gm_child(n, syn->field.body), depth + 1);
    r->exited = false;
    r->loop_depth--;
    walk_else(r, n, depth);
    r->exited = false;
}

static void walk_try(gm_region *r, TSNode n, int depth) {
    const gm_syntax *syn = syn_of(r);
    TSTreeCursor cursor = ts_tree_cursor_new(n);
    if (ts_tree_cursor_goto_first_child(&cursor)) {
        do {
            TSNode c = ts_tree_cursor_current_node(&cursor);
            TSSymbol t = ts_node_symbol(c);
            if (t == syn->sym.block) {
                r->try_depth++;
                walk_block(r, c, depth + 1);
                r->try_depth--;
            } else if (t == syn->sym.except_clause || t == syn->sym.except_group_clause ||
                       t == syn->sym.finally_clause) {
                /* Handlers and finally run inside the try's exception-table entry too. */
                r->try_depth++;
                uint32_t count = ts_node_named_child_count(c);
                for (uint32_t i = 0; i < count; i++) {
                    TSNode part = ts_node_named_child(c, i);
                    if (gm_is(part, syn->sym.block))
                        walk_block(r, part, depth + 1);
                    else if (gm_is(part, syn->sym.as_pattern) &&
                             ts_node_named_child_count(part) > 0)
                        scan_expr(r, ts_node_named_child(part, 0), depth + 1);
                    else
                        scan_expr(r, part, depth + 1);
                }
                r->try_depth--;
            } else if (t == syn->sym.else_clause) {
                walk_block(r, gm_child(c, syn->field.body), depth + 1);
            }
            r->exited = false; /* a handler may resume after a raise */
        } while (ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
}

static void walk_with(gm_region *r, TSNode n, int depth) {
    const gm_syntax *syn = syn_of(r);
    bool resumable = true;
    TSTreeCursor cursor = ts_tree_cursor_new(n);
    if (ts_tree_cursor_goto_first_child(&cursor)) {
        do {
            TSNode clause = ts_tree_cursor_current_node(&cursor);
            if (!gm_is(clause, syn->sym.with_clause))
                continue;
            uint32_t count = ts_node_named_child_count(clause);
            for (uint32_t i = 0; i < count; i++) {
                TSNode item = ts_node_named_child(clause, i);
                if (!gm_is(item, syn->sym.with_item))
                    continue;
                TSNode value = gm_child(item, syn->field.value);
                TSNode target = {0};
                if (gm_is(value, syn->sym.as_pattern) && ts_node_named_child_count(value) > 0) {
                    target = gm_child(value, syn->field.alias);
                    value = ts_node_named_child(value, 0);
                }
                scan_expr(r, value, depth + 1);
                if (!gm_is_torch_context_manager(r, value))
                    resumable = false;
                if (!ts_node_is_null(target) && ts_node_named_child_count(target) > 0)
                    gm_kinds_bind(r, ts_node_named_child(target, 0), GM_KIND_UNKNOWN);
            }
        } while (ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
    r->try_depth += !resumable;
    walk_block(r, gm_child(n, syn->field.body), depth + 1);
    /* a context manager may swallow a raise (torch's do not), never a return */
    r->exited = r->exited && (!r->exited_by_raise || resumable);
    r->try_depth -= !resumable;
}

static void walk_expression_statement(gm_region *r, TSNode n, int depth) {
    const gm_syntax *syn = syn_of(r);
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; i++) {
        TSNode e = ts_node_named_child(n, i);
        if (gm_is(e, syn->sym.assignment)) {
            TSNode left = gm_child(e, syn->field.left), right = gm_child(e, syn->field.right);
            scan_expr(r, right, depth + 1);
            scan_expr(r, left, depth + 1); /* calls in subscript targets */
            if (!r->frame_skipped) {
                gm_rule_autograd_store(r, left);
                gm_rule_buffer_store(r, left);
                gm_rule_checkpoint_side_effect(r, left, false);
                gm_note_attribute_store(r, left, right);
            }
            gm_kinds_assign(r, left, right);
        } else if (gm_is(e, syn->sym.augmented_assignment)) {
            TSNode left = gm_child(e, syn->field.left), right = gm_child(e, syn->field.right);
            scan_expr(r, right, depth + 1);
            scan_expr(r, left, depth + 1);
            if (!r->frame_skipped)
                gm_rule_checkpoint_side_effect(r, left, false);
            gm_kinds_augment(r, left, right);
        } else {
            scan_expr(r, e, depth + 1);
        }
    }
}

static void walk_statement(gm_region *r, TSNode n, int depth) {
    if (depth > GM_MAX_NESTING || r->stmt->oom || r->frame_skipped)
        return;
    size_t before = r->stmt->out->count;
    walk_statement_kind(r, n, depth);
    note_breaks(r, before);
}

/* `del a, b.c` (its targets, in an expression_list when several): to the rules on state. */
static void delete_targets(gm_region *r, TSNode n) {
    TSNode targets = ts_node_named_child(n, 0);
    if (ts_node_is_null(targets))
        return;
    bool list = strcmp(ts_node_type(targets), "expression_list") == 0;
    uint32_t count = list ? ts_node_named_child_count(targets) : 1;
    for (uint32_t i = 0; i < count; i++)
        gm_rule_checkpoint_side_effect(r, list ? ts_node_named_child(targets, i) : targets, true);
}

static void walk_statement_kind(gm_region *r, TSNode n, int depth) {
    const gm_syntax *syn = syn_of(r);
    TSSymbol t = ts_node_symbol(n);
    if (t == syn->sym.expression_statement)
        walk_expression_statement(r, n, depth);
    else if (t == syn->sym.if_statement)
        walk_if(r, n, depth);
    else if (t == syn->sym.while_statement)
        walk_while(r, n, depth);
    else if (t == syn->sym.for_statement)
        walk_for(r, n, depth);
    else if (t == syn->sym.try_statement)
        walk_try(r, n, depth);
    else if (t == syn->sym.with_statement)
        walk_with(r, n, depth);
    else if (t == syn->sym.assert_statement)
        walk_assert(r, n, depth);
    else if (t == syn->sym.class_definition)
        gm_rule_class_in_region(r, n); /* its body is a separate frame */
    else if (t == syn->sym.function_definition || t == syn->sym.decorated_definition ||
             t == syn->sym.comment)
        return; /* nested definitions are separate frames, not part of this region */
    else {
        /* return, assert, raise, del, match, ...: their expressions, and any blocks. A raise's
         * are built only on the way out with an error (`raise ValueError(f"{n.item()}")`): a
         * run that works never evaluates them, and one that fails is not worth a graph. */
        if (strcmp(ts_node_type(n), "delete_statement") == 0)
            delete_targets(r, n);
        TSTreeCursor cursor = ts_tree_cursor_new(n);
        if (t != syn->sym.raise_statement && ts_tree_cursor_goto_first_child(&cursor)) {
            do {
                TSNode c = ts_tree_cursor_current_node(&cursor);
                if (!ts_node_is_named(c))
                    continue;
                if (gm_is(c, syn->sym.block))
                    walk_block(r, c, depth + 1); /* match's case clauses come through here */
                else
                    scan_expr(r, c, depth + 1);
                r->exited = false;
            } while (ts_tree_cursor_goto_next_sibling(&cursor));
        }
        ts_tree_cursor_delete(&cursor);
        r->exited_by_raise = t == syn->sym.raise_statement;
        r->exited = r->exited_by_raise || t == syn->sym.return_statement ||
                    t == syn->sym.break_statement || t == syn->sym.continue_statement;
    }
}

static void walk_block(gm_region *r, TSNode block, int depth) {
    if (ts_node_is_null(block) || depth > GM_MAX_NESTING)
        return;
    TSTreeCursor cursor = ts_tree_cursor_new(block);
    if (ts_tree_cursor_goto_first_child(&cursor)) {
        do {
            TSNode c = ts_tree_cursor_current_node(&cursor);
            if (ts_node_is_named(c))
                walk_statement(r, c, depth + 1);
        } while (!r->stmt->oom && !r->frame_skipped && !r->exited &&
                 ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
}

#define GM_MAX_LOCAL_IMPORTS 16

/* The import statements of a function body (not of defs or classes nested in it). */
static void collect_local_imports(const gm_syntax *syn, TSNode n, TSNode *out, size_t *count,
                                  int depth) {
    if (depth >= 16)
        return;
    TSTreeCursor cursor = ts_tree_cursor_new(n);
    if (ts_tree_cursor_goto_first_child(&cursor)) {
        do {
            TSNode c = ts_tree_cursor_current_node(&cursor);
            TSSymbol t = ts_node_symbol(c);
            if (t == syn->sym.import_statement || t == syn->sym.import_from_statement)
                out[(*count)++] = c;
            else if (t == syn->sym.block || t == syn->sym.if_statement ||
                     t == syn->sym.elif_clause || t == syn->sym.else_clause ||
                     t == syn->sym.try_statement || t == syn->sym.except_clause ||
                     t == syn->sym.finally_clause || t == syn->sym.with_statement ||
                     t == syn->sym.for_statement || t == syn->sym.while_statement)
                collect_local_imports(syn, c, out, count, depth + 1);
        } while (*count < GM_MAX_LOCAL_IMPORTS && ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
}

/* Whether the region is a module-level function the file adds to reorderable_logging_functions
 * (the safe [Defer] mend's): dynamo defers its calls and never traces its body. */
static bool deferred_by_file(const gm_stmt_ctx *stmt, const gm_region_site *site) {
    if (!ts_node_is_null(site->class_node) || site->nested ||
        !stmt->symbols->mentions_reorderable_logging)
        return false;
    TSNode name = gm_child(site->function, stmt->syntax->field.name);
    gm_slice s = gm_node_slice(name, stmt->text);
    char buf[GM_NAME_MAX];
    if (ts_node_is_null(name) || s.len >= sizeof buf)
        return false;
    memcpy(buf, s.ptr, s.len);
    buf[s.len] = '\0';
    return gm_file_reorders_logging(stmt, buf);
}

void gm_region_analyze(gm_stmt_ctx *stmt, const gm_region_site *site) {
    if (deferred_by_file(stmt, site))
        return;
    gm_region region = {.stmt = stmt, .site = *site, .print_shadowed = -1,
                        .local_imports_from = SIZE_MAX};
    /* `import torch` inside the function: its names resolve as the module's imports do, for
     * this region only */
    TSNode imports[GM_MAX_LOCAL_IMPORTS];
    size_t import_count = 0;
    const gm_symbols *module_symbols = stmt->symbols;
    gm_symbols overlay;
    TSNode function_body = gm_child(site->function, stmt->syntax->field.body);
    /* no import statement without the word: most bodies are not walked for one */
    if (!ts_node_is_null(function_body) &&
        gm_slice_contains(gm_node_slice(function_body, stmt->text), "import"))
        collect_local_imports(stmt->syntax, function_body, imports, &import_count, 0);
    bool overlaid = import_count > 0 &&
                    gm_symbols_overlay(&overlay, module_symbols, stmt->syntax, stmt->text, imports,
                                       import_count) == 0;
    if (overlaid) {
        region.local_imports_from = module_symbols->import_count;
        stmt->symbols = &overlay;
    }
    gm_kinds_seed_parameters(&region);
    if (site->nested && region.self_name.len == 0)
        region.self_name = site->outer_self; /* `self` of the method around a nested def */
    TSNode body = gm_child(site->function, stmt->syntax->field.body);
    walk_block(&region, body, 0);
    gm_rule_comprehension_frames(&region, body);
    gm_kind_env_free(&region.env);
    gm_region_free_name_sets(&region);
    if (overlaid) {
        stmt->symbols = module_symbols;
        gm_symbols_overlay_free(&overlay, module_symbols);
    }
}
