/* The queries on a region under analysis that the rules and mends share: which names its
 * function binds, the module's disabled functions and generators, objects by the class that
 * made them, and marking the frame skipped. */
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
    gm_name_set_free(&region->rnn_named_attributes);
    gm_name_set_free(&region->disabled_methods);
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

/* What one top-level statement s adds to the scan. */
static void scan_statement(const gm_stmt_ctx *st, gm_module_scan *r, TSNode s) {
    const gm_syntax *syn = st->syntax;
    const unsigned dcap = sizeof r->disabled / sizeof r->disabled[0];
    const unsigned gcap = sizeof r->generators / sizeof r->generators[0];
    const unsigned rcap = sizeof r->random_instances / sizeof r->random_instances[0];
    if (!ts_node_is_named(s))
        return;
    if (gm_is(s, syn->sym.decorated_definition)) {
        TSNode def = gm_child(s, syn->field.definition);
        if (!gm_is(def, syn->sym.function_definition))
            return;
        for (uint32_t k = 0; k < ts_node_named_child_count(s); k++) {
            TSNode d = ts_node_named_child(s, k);
            if (gm_is(d, syn->sym.decorator) && is_disable_decorator(st, d)) {
                add_name(r->disabled, &r->disabled_count, dcap,
                         gm_node_slice(gm_child(def, syn->field.name), st->text));
                break;
            }
        }
        return;
    }
    if (!gm_is(s, syn->sym.expression_statement) || ts_node_named_child_count(s) == 0)
        return;
    TSNode a = ts_node_named_child(s, 0);
    if (!gm_is(a, syn->sym.assignment))
        return;
    TSNode left = gm_child(a, syn->field.left), right = gm_child(a, syn->field.right);
    if (!gm_is(left, syn->sym.identifier) || !gm_is(right, syn->sym.call))
        return;
    TSNode fn = gm_unparen(syn, gm_child(right, syn->field.function));
    char name[GM_NAME_MAX];
    if (is_disable_callee(st, fn))
        add_name(r->disabled, &r->disabled_count, dcap, gm_node_slice(left, st->text));
    else if (gm_symbols_resolve(st->symbols, syn, st->text, fn, name, sizeof name) &&
             strcmp(name, "torch.Generator") == 0)
        add_name(r->generators, &r->generator_count, gcap, gm_node_slice(left, st->text));
    else if (gm_symbols_resolve(st->symbols, syn, st->text, fn, name, sizeof name) &&
             strcmp(name, "random.Random") == 0)
        add_name(r->random_instances, &r->random_instance_count, rcap,
                 gm_node_slice(left, st->text));
}

static const gm_module_scan *scan_module(const gm_stmt_ctx *st) {
    gm_module_scan *r = st->module_scan;
    if (r->scanned)
        return r;
    r->scanned = true;
    /* The analyzer's array of the module's children when it lent one to the module index: a
     * walk of the tree takes a cursor through every level of the module's repetition nodes,
     * a cost that grows with the file on every keystroke. */
    const gm_module_index *index = st->module_index;
    if (index && index->fact_nodes) {
        for (uint32_t i = 0; i < index->fact_count; i++)
            scan_statement(st, r, index->fact_nodes[i]);
        return r;
    }
    TSNode module = ts_node_parent(st->top);
    if (ts_node_is_null(module))
        return r;
    /* a cursor: taking the module's children by index costs quadratic time */
    TSTreeCursor cursor = ts_tree_cursor_new(module);
    bool more = ts_tree_cursor_goto_first_child(&cursor);
    for (; more; more = ts_tree_cursor_goto_next_sibling(&cursor))
        scan_statement(st, r, ts_tree_cursor_current_node(&cursor));
    ts_tree_cursor_delete(&cursor);
    return r;
}

const gm_module_scan *gm_region_scan_module(gm_region *region) {
    return scan_module(region->stmt);
}

void gm_stmt_prepare_shared(gm_stmt_ctx *st) {
    gm_module_index_build_all(st->module_index);
    scan_module(st);
}

static const char *instance_class_name(gm_instance_class cls) {
    return cls == GM_INSTANCE_TORCH_GENERATOR ? "torch.Generator" : "random.Random";
}

static bool is_constructor_call(const gm_stmt_ctx *st, TSNode n, const char *class_name) {
    const gm_syntax *syn = st->syntax;
    char name[GM_NAME_MAX];
    return gm_is(n, syn->sym.call) &&
           gm_symbols_resolve(st->symbols, syn, st->text,
                              gm_unparen(syn, gm_child(n, syn->field.function)), name,
                              sizeof name) &&
           strcmp(name, class_name) == 0;
}

/* Whether n (the function body, not nested definitions) assigns `name = <class_name>(...)`. */
static bool assigns_instance(const gm_stmt_ctx *st, TSNode n, gm_slice name,
                             const char *class_name, int depth) {
    const gm_syntax *syn = st->syntax;
    if (ts_node_is_null(n) || depth > 64)
        return false;
    TSSymbol t = ts_node_symbol(n);
    if (t == syn->sym.function_definition || t == syn->sym.class_definition || t == syn->sym.lambda)
        return false;
    if (t == syn->sym.assignment) {
        TSNode left = gm_child(n, syn->field.left);
        if (gm_is(left, syn->sym.identifier) && gm_slice_eq(gm_node_slice(left, st->text), name) &&
            is_constructor_call(st, gm_unparen(syn, gm_child(n, syn->field.right)), class_name))
            return true;
    }
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; i++)
        if (assigns_instance(st, ts_node_named_child(n, i), name, class_name, depth + 1))
            return true;
    return false;
}

/* Whether name is a parameter of function annotated class_name. */
static bool annotated_instance(const gm_stmt_ctx *st, TSNode function, gm_slice name,
                               const char *class_name) {
    const gm_syntax *syn = st->syntax;
    TSNode type = gm_parameter_annotation(syn, st->text, function, name);
    char resolved[GM_NAME_MAX];
    return !ts_node_is_null(type) && ts_node_named_child_count(type) > 0 &&
           gm_symbols_resolve(st->symbols, syn, st->text, ts_node_named_child(type, 0), resolved,
                              sizeof resolved) &&
           strcmp(resolved, class_name) == 0;
}

bool gm_region_is_instance_of(gm_region *region, TSNode expr, gm_instance_class cls) {
    const gm_stmt_ctx *st = region->stmt;
    const char *class_name = instance_class_name(cls);
    expr = gm_unparen(st->syntax, expr);
    if (is_constructor_call(st, expr, class_name))
        return true;
    if (!gm_is(expr, st->syntax->sym.identifier))
        return false;
    gm_slice name = gm_node_slice(expr, st->text);
    if (gm_symbols_is_imported(st->symbols, name))
        return false;
    if (gm_region_binds_node(region, expr))
        return annotated_instance(st, region->site.function, name, class_name) ||
               assigns_instance(st, gm_child(region->site.function, st->syntax->field.body), name,
                                class_name, 0);
    const gm_module_scan *scan = gm_region_scan_module(region);
    const gm_slice *names =
        cls == GM_INSTANCE_TORCH_GENERATOR ? scan->generators : scan->random_instances;
    unsigned count =
        cls == GM_INSTANCE_TORCH_GENERATOR ? scan->generator_count : scan->random_instance_count;
    for (unsigned i = 0; i < count; i++)
        if (gm_slice_eq(names[i], name))
            return true;
    return false;
}

void gm_stmt_release(gm_stmt_ctx *st) {
    for (size_t i = 0; i < st->pass_count; i++)
        free(st->passes[i]);
    free(st->passes);
    st->passes = NULL;
    st->pass_count = st->pass_capacity = 0;
    gm_name_set_free(&st->class_buffers);
    st->class_buffers_of = 0;
}
