#include "analysis/regions/binding_lookup.h"

#include <string.h>

#define GM_LOOKUP_MAX_DEPTH 64

/* What one statement does to a name: nothing, binds it to rhs, or binds it otherwise. */
typedef enum { BIND_NONE, BIND_VALUE, BIND_OTHER } bind_effect;

/* Whether the target pattern (a tuple or list of targets, a starred target) names name. */
static bool pattern_names(const gm_syntax *syn, const char *text, TSNode target, gm_slice name,
                          int depth) {
    if (ts_node_is_null(target) || depth > 16)
        return false;
    if (gm_is(target, syn->sym.identifier))
        return gm_slice_eq(gm_node_slice(target, text), name);
    if (gm_is(target, syn->sym.pattern_list) || gm_is(target, syn->sym.tuple_pattern) ||
        gm_is(target, syn->sym.list_pattern) || gm_is(target, syn->sym.list_splat_pattern) ||
        gm_is(target, syn->sym.parenthesized_expression) || gm_is(target, syn->sym.tuple) ||
        gm_is(target, syn->sym.list)) {
        uint32_t count = ts_node_named_child_count(target);
        for (uint32_t i = 0; i < count; i++)
            if (pattern_names(syn, text, ts_node_named_child(target, i), name, depth + 1))
                return true;
    }
    return false;
}

/* The value an assignment chain `a = b = rhs` stores: its innermost right side. */
static TSNode chain_value(const gm_syntax *syn, TSNode assignment) {
    TSNode rhs = gm_child(assignment, syn->field.right);
    for (int i = 0; i < 16 && gm_is(rhs, syn->sym.assignment); i++)
        rhs = gm_child(rhs, syn->field.right);
    return gm_is(rhs, syn->sym.assignment) ? (TSNode){0} : rhs;
}

/* What the statement stmt (a child of a block) does to the local name, with the value in
 * *rhs. */
static bind_effect statement_binds(const gm_syntax *syn, const char *text, TSNode stmt,
                                   gm_slice name, TSNode *rhs) {
    if (gm_is(stmt, syn->sym.for_statement))
        return pattern_names(syn, text, gm_child(stmt, syn->field.left), name, 0) ? BIND_OTHER
                                                                                  : BIND_NONE;
    if (!gm_is(stmt, syn->sym.expression_statement))
        return BIND_NONE;
    bind_effect effect = BIND_NONE;
    uint32_t count = ts_node_named_child_count(stmt);
    for (uint32_t i = 0; i < count; i++) {
        TSNode e = ts_node_named_child(stmt, i);
        if (gm_is(e, syn->sym.augmented_assignment)) {
            if (pattern_names(syn, text, gm_child(e, syn->field.left), name, 0))
                effect = BIND_OTHER;
            continue;
        }
        if (!gm_is(e, syn->sym.assignment))
            continue;
        TSNode value = chain_value(syn, e);
        for (TSNode a = e; gm_is(a, syn->sym.assignment); a = gm_child(a, syn->field.right)) {
            TSNode left = gm_child(a, syn->field.left);
            if (gm_is(left, syn->sym.identifier)) {
                if (gm_slice_eq(gm_node_slice(left, text), name)) {
                    effect = ts_node_is_null(value) ? BIND_OTHER : BIND_VALUE;
                    *rhs = value;
                }
            } else if (pattern_names(syn, text, left, name, 0)) {
                effect = BIND_OTHER;
            }
        }
    }
    return effect;
}

unsigned gm_lookup_path(const gm_region *region, TSNode at, TSNode *nodes, TSFieldId *fields,
                        unsigned cap) {
    const gm_syntax *syn = region->stmt->syntax;
    TSNode body = gm_child(region->site.function, syn->field.body);
    uint32_t start = ts_node_start_byte(at), end = ts_node_end_byte(at);
    if (ts_node_is_null(body) || start < ts_node_start_byte(body) || end > ts_node_end_byte(body))
        return 0;
    unsigned count = 0;
    TSTreeCursor cursor = ts_tree_cursor_new(body);
    for (;;) {
        if (count == cap || ts_tree_cursor_goto_first_child_for_byte(&cursor, start) < 0) {
            count = 0;
            break;
        }
        TSNode n = ts_tree_cursor_current_node(&cursor);
        /* several nodes may start where at does (a statement and its call): find the one
         * holding at among this node and its next siblings */
        while (ts_node_start_byte(n) <= start && ts_node_end_byte(n) < end &&
               ts_tree_cursor_goto_next_sibling(&cursor))
            n = ts_tree_cursor_current_node(&cursor);
        if (ts_node_start_byte(n) > start || ts_node_end_byte(n) < end) {
            count = 0;
            break;
        }
        TSSymbol t = ts_node_symbol(n);
        nodes[count] = n;
        fields[count] = ts_tree_cursor_current_field_id(&cursor);
        count++;
        if (ts_node_eq(n, at))
            break;
        if (t == syn->sym.function_definition || t == syn->sym.class_definition ||
            t == syn->sym.lambda) {
            count = 0;
            break;
        }
    }
    ts_tree_cursor_delete(&cursor);
    return count;
}

TSNode gm_lookup_local(gm_region *region, gm_slice name, TSNode at) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    TSNode null = {0};
    TSNode path[GM_LOOKUP_MAX_DEPTH];
    TSFieldId fields[GM_LOOKUP_MAX_DEPTH];
    unsigned count = gm_lookup_path(region, at, path, fields, GM_LOOKUP_MAX_DEPTH);
    if (count == 0)
        return null;
    /* The statements before the path in each block it passes through, outermost first: the
     * function's body, then each block on the path. */
    TSNode value = null;
    for (unsigned b = 0; b < count; b++) {
        TSNode block = b == 0 ? gm_child(region->site.function, syn->field.body) : path[b - 1];
        if (b > 0 && !gm_is(block, syn->sym.block))
            continue;
        uint32_t stop = ts_node_start_byte(path[b]);
        TSTreeCursor cursor = ts_tree_cursor_new(block);
        for (bool more = ts_tree_cursor_goto_first_child(&cursor); more;
             more = ts_tree_cursor_goto_next_sibling(&cursor)) {
            TSNode s = ts_tree_cursor_current_node(&cursor);
            if (ts_node_start_byte(s) >= stop)
                break;
            TSNode rhs = null;
            bind_effect e = statement_binds(syn, st->text, s, name, &rhs);
            if (e == BIND_VALUE)
                value = rhs;
            else if (e == BIND_OTHER)
                value = null;
        }
        ts_tree_cursor_delete(&cursor);
    }
    return value;
}

/* The last `name = rhs` among the direct children of block (a module or a class body). */
static TSNode last_assignment_in(const gm_syntax *syn, const char *text, TSNode block,
                                 gm_slice name) {
    TSNode value = {0};
    if (ts_node_is_null(block))
        return value;
    TSTreeCursor cursor = ts_tree_cursor_new(block);
    for (bool more = ts_tree_cursor_goto_first_child(&cursor); more;
         more = ts_tree_cursor_goto_next_sibling(&cursor)) {
        TSNode s = ts_tree_cursor_current_node(&cursor);
        TSNode rhs = {0};
        bind_effect e = statement_binds(syn, text, s, name, &rhs);
        if (e == BIND_VALUE)
            value = rhs;
        else if (e == BIND_OTHER)
            value = (TSNode){0};
    }
    ts_tree_cursor_delete(&cursor);
    return value;
}

TSNode gm_lookup_class_attribute(gm_region *region, gm_slice attr) {
    const gm_syntax *syn = region->stmt->syntax;
    if (ts_node_is_null(region->site.class_node))
        return (TSNode){0};
    TSNode body = gm_child(region->site.class_node, syn->field.body);
    if (!gm_is(body, syn->sym.block))
        return (TSNode){0};
    return last_assignment_in(syn, region->stmt->text, body, attr);
}

TSNode gm_lookup_module_assignment(gm_region *region, gm_slice name) {
    const gm_stmt_ctx *st = region->stmt;
    TSNode module = ts_node_parent(st->top);
    if (!gm_is(module, st->syntax->sym.module))
        return (TSNode){0};
    return last_assignment_in(st->syntax, st->text, module, name);
}

/* The values `self_name.attr = rhs` assigns below n (statements only: blocks and compound
 * statements are entered, expressions and nested definitions are not): the last in last, and
 * each in all while it has room (count counts them all). */
typedef struct {
    TSNode last;
    TSNode *all;
    unsigned count, cap;
} attribute_values;

static void init_assignments(const gm_syntax *syn, const char *text, TSNode n, gm_slice self_name,
                             gm_slice attr, attribute_values *value, int depth) {
    if (ts_node_is_null(n) || depth > GM_LOOKUP_MAX_DEPTH)
        return;
    TSSymbol t = ts_node_symbol(n);
    if (t == syn->sym.function_definition || t == syn->sym.class_definition ||
        t == syn->sym.decorated_definition)
        return;
    if (t == syn->sym.expression_statement) {
        uint32_t count = ts_node_named_child_count(n);
        for (uint32_t i = 0; i < count; i++) {
            TSNode e = ts_node_named_child(n, i);
            if (!gm_is(e, syn->sym.assignment))
                continue;
            TSNode rhs = chain_value(syn, e);
            for (TSNode a = e; gm_is(a, syn->sym.assignment); a = gm_child(a, syn->field.right)) {
                TSNode left = gm_child(a, syn->field.left);
                if (!gm_is(left, syn->sym.attribute))
                    continue;
                TSNode obj = gm_unparen(syn, gm_child(left, syn->field.object));
                TSNode name = gm_child(left, syn->field.attribute);
                if (gm_is(obj, syn->sym.identifier) && !ts_node_is_null(name) &&
                    gm_slice_eq(gm_node_slice(obj, text), self_name) &&
                    gm_slice_eq(gm_node_slice(name, text), attr)) {
                    value->last = rhs;
                    if (value->count < value->cap)
                        value->all[value->count] = rhs;
                    value->count++;
                }
            }
        }
        return;
    }
    if (t != syn->sym.block && t != syn->sym.if_statement && t != syn->sym.elif_clause &&
        t != syn->sym.else_clause && t != syn->sym.for_statement && t != syn->sym.while_statement &&
        t != syn->sym.try_statement && t != syn->sym.except_clause &&
        t != syn->sym.finally_clause && t != syn->sym.with_statement)
        return;
    TSTreeCursor cursor = ts_tree_cursor_new(n);
    for (bool more = ts_tree_cursor_goto_first_child(&cursor); more;
         more = ts_tree_cursor_goto_next_sibling(&cursor)) {
        TSNode c = ts_tree_cursor_current_node(&cursor);
        if (ts_node_is_named(c))
            init_assignments(syn, text, c, self_name, attr, value, depth + 1);
    }
    ts_tree_cursor_delete(&cursor);
}

TSNode gm_lookup_init_attribute(gm_region *region, gm_slice attr) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    attribute_values value = {0};
    gm_slice self_name;
    TSNode init = gm_class_init(syn, st->text, region->site.class_node, &self_name);
    if (!ts_node_is_null(init))
        init_assignments(syn, st->text, gm_child(init, syn->field.body), self_name, attr, &value,
                         0);
    return value.last;
}

unsigned gm_lookup_method_attribute_values(gm_region *region, gm_slice attr, TSNode *values,
                                           unsigned cap) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    attribute_values value = {.all = values, .cap = cap};
    TSNode body = ts_node_is_null(region->site.class_node)
                      ? (TSNode){0}
                      : gm_child(region->site.class_node, syn->field.body);
    uint32_t count = gm_is(body, syn->sym.block) ? ts_node_named_child_count(body) : 0;
    for (uint32_t i = 0; i < count; i++) {
        TSNode fn = ts_node_named_child(body, i);
        if (gm_is(fn, syn->sym.decorated_definition))
            fn = gm_child(fn, syn->field.definition);
        if (!gm_is(fn, syn->sym.function_definition))
            continue;
        gm_slice self_name = gm_first_parameter(syn, st->text, fn);
        if (self_name.len > 0)
            init_assignments(syn, st->text, gm_child(fn, syn->field.body), self_name, attr, &value,
                             0);
    }
    return value.count;
}

TSNode gm_lookup_self_attribute(gm_region *region, gm_slice attr) {
    TSNode value = gm_lookup_init_attribute(region, attr);
    if (ts_node_is_null(value))
        value = gm_lookup_class_attribute(region, attr);
    return value;
}

bool gm_lookup_is_self(const gm_region *region, TSNode n) {
    return region->self_name.len > 0 && gm_is(n, region->stmt->syntax->sym.identifier) &&
           gm_slice_eq(gm_node_slice(n, region->stmt->text), region->self_name);
}
