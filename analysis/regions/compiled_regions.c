#include "analysis/regions/compiled_regions.h"

#include "analysis/module_facts/statement_functions.h"

typedef struct {
    const uint8_t *reach;
    const gm_call_part *calls;
    gm_region_fn fn;
    void *payload;
} visit;

/* A function of the statement is a region when it is a root, or when compiled code reaches it
 * and may enter it. */
static int visit_function(void *payload, const gm_statement_function *f) {
    const visit *v = payload;
    uint8_t flags = v->reach ? v->reach[f->index] : 0;
    if (!f->root && !(f->traceable && (flags & GM_REACH_REACHED)))
        return 0;
    gm_region_site site = {.function = f->function,
                           .class_node = f->class_node,
                           .module_class = f->module_class,
                           .fullgraph = (flags & GM_REACH_FULLGRAPH) != 0,
                           .calls = v->calls,
                           .node = f->index};
    return v->fn(v->payload, &site);
}

int gm_compiled_regions_each(const gm_symbols *symbols, const gm_syntax *syntax, const char *text,
                             const gm_analysis_options *options, TSNode top, const uint8_t *reach,
                             gm_region_fn fn, void *payload) {
    return gm_compiled_regions_each_with(symbols, syntax, text, options, top, reach, NULL, fn,
                                         payload);
}

/* The first parameter of the method a nested def lies in, when every function between them
 * (the nested def included) leaves the name alone: what `self` means inside the nested def. */
static gm_slice outer_self(const gm_syntax *syn, const char *text, TSNode fn) {
    gm_slice none = {text, 0};
    TSNode chain[16];
    unsigned count = 0;
    TSNode n = fn;
    for (int guard = 0; guard < 400 && !ts_node_is_null(n); guard++, n = ts_node_parent(n)) {
        if (gm_is(n, syn->sym.class_definition) || gm_is(n, syn->sym.lambda))
            break;
        if (gm_is(n, syn->sym.function_definition)) {
            if (count == sizeof chain / sizeof chain[0])
                return none;
            chain[count++] = n;
        }
    }
    if (count < 2 || !gm_is(n, syn->sym.class_definition))
        return none;
    gm_slice self = gm_first_parameter(syn, text, chain[count - 1]);
    for (unsigned i = 0; i + 1 < count && self.len > 0; i++)
        if (gm_parameters_bind_name(syn, text, chain[i], self))
            return none;
    return self;
}

/* The function_definition a nested node stands for. */
static TSNode nested_function(const gm_syntax *syn, TSNode top, uint32_t start) {
    TSNode n = ts_node_descendant_for_byte_range(top, start, start);
    for (int guard = 0; guard < 400 && !ts_node_is_null(n); guard++, n = ts_node_parent(n)) {
        if (ts_node_start_byte(n) != start)
            break;
        if (gm_is(n, syn->sym.function_definition))
            return n;
    }
    return (TSNode){0};
}

int gm_compiled_regions_each_with(const gm_symbols *symbols, const gm_syntax *syntax,
                                  const char *text, const gm_analysis_options *options, TSNode top,
                                  const uint8_t *reach, const gm_call_part *calls, gm_region_fn fn,
                                  void *payload) {
    visit v = {reach, calls, fn, payload};
    int rc = gm_statement_functions_each(symbols, syntax, text, options, top, visit_function, &v);
    if (rc != 0 || !calls)
        return rc;
    /* defs nested in traceable functions: regions when compiled code calls them */
    uint32_t top_start = ts_node_start_byte(top);
    for (uint32_t k = 0; k < calls->node_count && rc == 0; k++) {
        const gm_call_node *node = &calls->nodes[k];
        if (node->kind != GM_CALL_NESTED || !node->traceable)
            continue;
        uint8_t flags = reach ? reach[k] : 0;
        if (!node->root && !(flags & GM_REACH_REACHED))
            continue;
        TSNode def = nested_function(syntax, top, top_start + node->def_offset);
        if (ts_node_is_null(def))
            continue;
        gm_region_site site = {.function = def,
                               .fullgraph = (flags & GM_REACH_FULLGRAPH) != 0,
                               .calls = calls,
                               .node = k,
                               .nested = true,
                               .outer_self = outer_self(syntax, text, def)};
        rc = fn(payload, &site);
    }
    return rc;
}

bool gm_region_site_bound_names(const gm_region_site *site, const char *text, TSNode top,
                                gm_name_set *out) {
    const gm_call_part *p = site->calls;
    if (!p || site->node >= p->node_count || !p->nodes[site->node].has_bound)
        return false;
    const gm_call_node *node = &p->nodes[site->node];
    const char *base = text + ts_node_start_byte(top);
    for (uint32_t i = 0; i < node->bound_count; i++) {
        const gm_bound_name *b = &p->bound[node->bound_start + i];
        if (gm_name_set_add(out, (gm_slice){base + b->offset, b->len}) != 0)
            return false;
    }
    return true;
}
