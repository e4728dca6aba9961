#include "analysis/logging_calls/logger_bindings.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/module_facts/symbols.h"
#include "analysis/regions/binding_lookup.h"

#define GM_LOGGER_MAX_DEPTH 4

bool gm_logger_factory_name(const char *name) {
    size_t n = strlen(name);
    return strcmp(name, "logging.getLogger") == 0 ||
           (n > 19 && strcmp(name + n - 19, ".logging.get_logger") == 0);
}

/* A call of a logger factory whose head the file imports (and, in the region, the function
 * does not rebind). */
static bool factory_call(gm_region *region, TSNode call, bool in_region) {
    const gm_stmt_ctx *st = region->stmt;
    TSNode head;
    TSNode fn = gm_call_target(st->syntax, call, &head);
    if (ts_node_is_null(fn) || !gm_symbols_is_imported(st->symbols, gm_node_slice(head, st->text)))
        return false;
    if (in_region && gm_region_binds_node(region, head))
        return false;
    char name[GM_NAME_MAX];
    return gm_symbols_resolve(st->symbols, st->syntax, st->text, fn, name, sizeof name) &&
           gm_logger_factory_name(name);
}

/* A logger as the value of a class-body or __init__ assignment: a factory call, or a
 * module-level logger name. */
static bool outer_logger(gm_region *region, TSNode rhs) {
    const gm_stmt_ctx *st = region->stmt;
    rhs = gm_unparen(st->syntax, rhs);
    if (gm_is(rhs, st->syntax->sym.call))
        return factory_call(region, rhs, false);
    if (gm_is(rhs, st->syntax->sym.identifier))
        return gm_symbols_is_logger(st->symbols, gm_node_slice(rhs, st->text));
    return false;
}

static bool logger_expression(gm_region *region, TSNode expr, int depth) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    expr = gm_unparen(syn, expr);
    if (ts_node_is_null(expr) || depth > GM_LOGGER_MAX_DEPTH)
        return false;
    if (gm_is(expr, syn->sym.call))
        return factory_call(region, expr, true);
    if (gm_is(expr, syn->sym.identifier)) {
        gm_slice name = gm_node_slice(expr, st->text);
        if (!gm_region_binds_node(region, expr))
            return gm_symbols_is_logger(st->symbols, name);
        TSNode rhs = gm_lookup_local(region, name, expr);
        return !ts_node_is_null(rhs) && logger_expression(region, rhs, depth + 1);
    }
    if (!gm_is(expr, syn->sym.attribute))
        return false;
    TSNode object = gm_unparen(syn, gm_child(expr, syn->field.object));
    TSNode attr = gm_child(expr, syn->field.attribute);
    if (ts_node_is_null(attr) || !gm_is(object, syn->sym.identifier))
        return false;
    gm_slice a = gm_node_slice(attr, st->text);
    if (gm_lookup_is_self(region, object))
        return outer_logger(region, gm_lookup_self_attribute(region, a));
    /* Model.logger for the region's own class Model */
    if (!ts_node_is_null(region->site.class_node)) {
        TSNode cls = gm_child(region->site.class_node, syn->field.name);
        if (!ts_node_is_null(cls) &&
            gm_slice_eq(gm_node_slice(cls, st->text), gm_node_slice(object, st->text)) &&
            !gm_region_binds_node(region, object))
            return outer_logger(region, gm_lookup_class_attribute(region, a));
    }
    return false;
}

bool gm_logger_expression(gm_region *region, TSNode expr) {
    return logger_expression(region, expr, 0);
}

bool gm_logger_bound_method(gm_region *region, TSNode callee, char *method, size_t cap) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    if (!gm_is(callee, syn->sym.identifier) || !gm_region_binds_node(region, callee))
        return false;
    TSNode rhs = gm_unparen(syn, gm_lookup_local(region, gm_node_slice(callee, st->text), callee));
    if (!gm_is(rhs, syn->sym.attribute))
        return false;
    TSNode attr = gm_child(rhs, syn->field.attribute);
    if (ts_node_is_null(attr))
        return false;
    gm_slice a = gm_node_slice(attr, st->text);
    if (a.len >= cap || !logger_expression(region, gm_child(rhs, syn->field.object), 1))
        return false;
    memcpy(method, a.ptr, a.len);
    method[a.len] = '\0';
    return true;
}

/* Whether level is one logging's default configuration (root at WARNING) does not enable. */
static bool level_below_warning(gm_region *region, TSNode level) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    level = gm_unparen(syn, level);
    if (gm_is(level, syn->sym.integer)) {
        gm_slice s = gm_node_slice(level, st->text);
        char digits[8];
        if (s.len == 0 || s.len >= sizeof digits)
            return false;
        memcpy(digits, s.ptr, s.len);
        digits[s.len] = '\0';
        char *end;
        long v = strtol(digits, &end, 10);
        return *end == '\0' && v < 30;
    }
    TSNode head = gm_chain_head(syn, level);
    char name[GM_NAME_MAX];
    if (ts_node_is_null(head) ||
        !gm_symbols_is_imported(st->symbols, gm_node_slice(head, st->text)) ||
        gm_region_binds_node(region, head) ||
        !gm_symbols_resolve(st->symbols, syn, st->text, level, name, sizeof name))
        return false;
    return strcmp(name, "logging.DEBUG") == 0 || strcmp(name, "logging.INFO") == 0 ||
           strcmp(name, "logging.NOTSET") == 0;
}

/* Whether the test is false under the default logging configuration because it calls
 * `<logger>.isEnabledFor(<level below WARNING>)` (alone or as an operand of `and`). */
static bool test_disabled(gm_region *region, TSNode test, int depth) {
    const gm_syntax *syn = region->stmt->syntax;
    test = gm_unparen(syn, test);
    if (ts_node_is_null(test) || depth > 8)
        return false;
    if (gm_is(test, syn->sym.boolean_operator)) {
        TSNode op = gm_child(test, syn->field.operator);
        if (ts_node_is_null(op) || strcmp(ts_node_type(op), "and") != 0)
            return false;
        return test_disabled(region, gm_child(test, syn->field.left), depth + 1) ||
               test_disabled(region, gm_child(test, syn->field.right), depth + 1);
    }
    if (!gm_is(test, syn->sym.call))
        return false;
    TSNode fn = gm_unparen(syn, gm_child(test, syn->field.function));
    TSNode args = gm_child(test, syn->field.arguments);
    if (!gm_is(fn, syn->sym.attribute) ||
        !gm_node_text_is(gm_child(fn, syn->field.attribute), region->stmt->text, "isEnabledFor") ||
        !gm_is(args, syn->sym.argument_list) || ts_node_named_child_count(args) != 1)
        return false;
    return level_below_warning(region, ts_node_named_child(args, 0)) &&
           logger_expression(region, gm_child(fn, syn->field.object), 0);
}

bool gm_in_disabled_logging_guard(gm_region *region, TSNode node) {
    const gm_syntax *syn = region->stmt->syntax;
    TSNode path[64];
    TSFieldId fields[64];
    unsigned count = gm_lookup_path(region, node, path, fields, 64);
    for (unsigned i = 0; i + 1 < count; i++) {
        TSSymbol t = ts_node_symbol(path[i]);
        if ((t == syn->sym.if_statement || t == syn->sym.elif_clause) &&
            fields[i + 1] == syn->field.consequence &&
            test_disabled(region, gm_child(path[i], syn->field.condition), 0))
            return true;
    }
    return false;
}
