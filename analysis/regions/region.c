/* The queries on a region under analysis that the rules and mends share: which names its
 * function binds, the module's disabled functions and generators, and marking the frame skipped. */
#include "analysis/regions/region.h"

#include <stdint.h>
#include <string.h>

void gm_region_skip_frame(gm_region *region, const char *rule_id) {
    const gm_rule *rule = gm_rule_by_id(rule_id);
    if (rule && gm_analysis_rule_enabled(region->stmt->options, rule))
        region->frame_skipped = true;
}

void gm_region_free_name_sets(gm_region *region) {
    gm_name_set_free(&region->bound_names);
    gm_name_set_free(&region->rnn_attributes);
    gm_name_set_free(&region->rnn_subclass_attributes);
    gm_name_set_free(&region->disabled_methods);
    gm_name_set_free(&region->buffers);
    gm_name_set_free(&region->cached_properties);
    gm_name_set_free(&region->plain_callables);
}

static bool region_binds_slice(gm_region *region, gm_slice name) {
    if (region->local_imports_from != SIZE_MAX &&
        gm_symbols_imported_after(region->stmt->symbols, region->local_imports_from, name))
        return false; /* bound by an import in the body: resolved like a module import */
    if (!region->bound_ready) {
        const gm_stmt_ctx *st = region->stmt;
        gm_name_set_clear(&region->bound_names);
        /* the call part found them already; else one walk of the function */
        if (!gm_region_site_bound_names(&region->site, st->text, st->top, &region->bound_names) &&
            gm_function_bound_names(st->syntax, st->text, region->site.function,
                                    &region->bound_names) != 0) {
            region->stmt->oom = true;
            return true; /* nothing is assumed about the name */
        }
        region->bound_ready = true;
    }
    return gm_name_set_has(&region->bound_names, name);
}

bool gm_region_binds(gm_region *region, const char *name) {
    return region_binds_slice(region, (gm_slice){name, (uint32_t)strlen(name)});
}

bool gm_region_binds_node(gm_region *region, TSNode identifier) {
    gm_slice s = gm_node_slice(identifier, region->stmt->text);
    if (s.len >= GM_NAME_MAX)
        return true;
    return region_binds_slice(region, s);
}

static bool is_disable_callee(const gm_stmt_ctx *st, TSNode fn) {
    char name[GM_NAME_MAX];
    if (!gm_symbols_resolve(st->symbols, st->syntax, st->text, fn, name, sizeof name))
        return false;
    return strcmp(name, "torch.compiler.disable") == 0 ||
           strcmp(name, "torch._dynamo.disable") == 0 ||
           strcmp(name, "torch._dynamo.eval_frame.disable") == 0;
}

/* `@disable`, `@disable(...)`: the decorator's expression names one of the disable wrappers. */
static bool is_disable_decorator(const gm_stmt_ctx *st, TSNode decorator) {
    const gm_syntax *syn = st->syntax;
    if (ts_node_named_child_count(decorator) == 0)
        return false;
    TSNode e = gm_unparen(syn, ts_node_named_child(decorator, 0));
    if (gm_is(e, syn->sym.call))
        e = gm_unparen(syn, gm_child(e, syn->field.function));
    return is_disable_callee(st, e);
}

static void add_name(gm_slice *items, unsigned *count, unsigned cap, gm_slice name) {
    if (*count < cap)
        items[(*count)++] = name;
}

const gm_module_scan *gm_region_scan_module(gm_region *region) {
    gm_module_scan *r = region->stmt->module_scan;
    if (r->scanned)
        return r;
    r->scanned = true;
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    TSNode module = ts_node_parent(st->top);
    if (ts_node_is_null(module))
        return r;
    const unsigned dcap = sizeof r->disabled / sizeof r->disabled[0];
    const unsigned gcap = sizeof r->generators / sizeof r->generators[0];
    /* a cursor: taking the module's children by index costs quadratic time */
    TSTreeCursor cursor = ts_tree_cursor_new(module);
    bool more = ts_tree_cursor_goto_first_child(&cursor);
    for (; more; more = ts_tree_cursor_goto_next_sibling(&cursor)) {
        TSNode s = ts_tree_cursor_current_node(&cursor);
        if (!ts_node_is_named(s))
            continue;
        if (gm_is(s, syn->sym.decorated_definition)) {
            TSNode def = gm_child(s, syn->field.definition);
            if (!gm_is(def, syn->sym.function_definition))
                continue;
            for (uint32_t k = 0; k < ts_node_named_child_count(s); k++) {
                TSNode d = ts_node_named_child(s, k);
                if (gm_is(d, syn->sym.decorator) && is_disable_decorator(st, d)) {
                    add_name(r->disabled, &r->disabled_count, dcap,
                             gm_node_slice(gm_child(def, syn->field.name), st->text));
                    break;
                }
            }
            continue;
        }
        if (!gm_is(s, syn->sym.expression_statement) || ts_node_named_child_count(s) == 0)
            continue;
        TSNode a = ts_node_named_child(s, 0);
        if (!gm_is(a, syn->sym.assignment))
            continue;
        TSNode left = gm_child(a, syn->field.left), right = gm_child(a, syn->field.right);
        if (!gm_is(left, syn->sym.identifier) || !gm_is(right, syn->sym.call))
            continue;
        TSNode fn = gm_unparen(syn, gm_child(right, syn->field.function));
        char name[GM_NAME_MAX];
        if (is_disable_callee(st, fn))
            add_name(r->disabled, &r->disabled_count, dcap, gm_node_slice(left, st->text));
        else if (gm_symbols_resolve(st->symbols, syn, st->text, fn, name, sizeof name) &&
                 strcmp(name, "torch.Generator") == 0)
            add_name(r->generators, &r->generator_count, gcap, gm_node_slice(left, st->text));
    }
    ts_tree_cursor_delete(&cursor);
    return r;
}
