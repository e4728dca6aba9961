/* GM607: reading a functools.cached_property of the module. Before Python 3.12 its __get__
 * computes the value under an RLock, which dynamo cannot enter (GB0142, "Unsupported context
 * manager"): on the first call, before the value is cached on the instance, dynamo skips the
 * frame and the whole function runs eagerly. Verified on torch 2.13 with Python 3.11; 3.12
 * dropped the lock. */
#include <stdio.h>
#include <string.h>

#include "analysis/mends/mends.h"
#include "analysis/rules/emit.h"
#include "analysis/rules/rules.h"

/* The @cached_property / @functools.cached_property decorator of a decorated_definition, as the
 * module's imports resolve it, or a null node. */
static TSNode cached_property_decorator(const gm_stmt_ctx *st, TSNode decorated) {
    const gm_syntax *syn = st->syntax;
    uint32_t n = ts_node_named_child_count(decorated);
    for (uint32_t i = 0; i < n; i++) {
        TSNode d = ts_node_named_child(decorated, i);
        if (!gm_is(d, syn->sym.decorator) || ts_node_named_child_count(d) == 0)
            continue;
        char name[128], resolved[128];
        size_t len = 0;
        if (!gm_dotted_name_text(syn, st->text, gm_unparen(syn, ts_node_named_child(d, 0)), name,
                                 sizeof name, &len))
            continue;
        if (gm_symbols_resolve_imported(st->symbols, name, resolved, sizeof resolved) &&
            strcmp(resolved, "functools.cached_property") == 0)
            return d;
    }
    return (TSNode){0};
}

static bool is_cached_property(const gm_stmt_ctx *st, TSNode decorated) {
    return !ts_node_is_null(cached_property_decorator(st, decorated));
}

/* The class body's decorated definition of the cached property called name, or a null node. */
static TSNode find_definition(gm_region *r, gm_slice name) {
    const gm_syntax *syn = r->stmt->syntax;
    TSNode body = gm_child(r->site.class_node, syn->field.body);
    uint32_t n = ts_node_is_null(body) ? 0 : ts_node_named_child_count(body);
    for (uint32_t i = 0; i < n; i++) {
        TSNode c = ts_node_named_child(body, i);
        if (!gm_is(c, syn->sym.decorated_definition))
            continue;
        TSNode definition = gm_child(c, syn->field.definition);
        TSNode def_name = ts_node_is_null(definition) ? definition
                                                       : gm_child(definition, syn->field.name);
        if (!ts_node_is_null(def_name) &&
            gm_slice_eq(gm_node_slice(def_name, r->stmt->text), name) &&
            is_cached_property(r->stmt, c))
            return c;
    }
    return (TSNode){0};
}

/* Fills region->cached_properties from the class body, once. */
static void scan_class(gm_region *r) {
    r->cached_properties_scanned = true;
    const gm_syntax *syn = r->stmt->syntax;
    TSNode body = gm_child(r->site.class_node, syn->field.body);
    uint32_t n = ts_node_is_null(body) ? 0 : ts_node_named_child_count(body);
    for (uint32_t i = 0; i < n; i++) {
        TSNode c = ts_node_named_child(body, i);
        if (!gm_is(c, syn->sym.decorated_definition) || !is_cached_property(r->stmt, c))
            continue;
        TSNode name = gm_child(gm_child(c, syn->field.definition), syn->field.name);
        if (!ts_node_is_null(name) &&
            gm_name_set_add(&r->cached_properties, gm_node_slice(name, r->stmt->text)) != 0)
            r->stmt->oom = true;
    }
}

void gm_rule_cached_property_read(gm_region *region, TSNode attribute) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    if (region->self_name.len == 0 || ts_node_is_null(region->site.class_node) ||
        !gm_options_comprehension_frames(st->options) /* Python before 3.12 */)
        return;
    TSNode object = gm_child(attribute, syn->field.object), member;
    if (!gm_is(object, syn->sym.identifier) ||
        !gm_slice_eq(gm_node_slice(object, st->text), region->self_name))
        return;
    if (!region->cached_properties_scanned)
        scan_class(region);
    member = gm_child(attribute, syn->field.attribute);
    if (ts_node_is_null(member) ||
        !gm_name_set_has(&region->cached_properties, gm_node_slice(member, st->text)))
        return;
    TSNode parent = ts_node_parent(attribute); /* asked last: the tree walks down to it */
    if ((gm_is(parent, syn->sym.assignment) || gm_is(parent, syn->sym.augmented_assignment)) &&
        ts_node_eq(gm_child(parent, syn->field.left), attribute))
        return; /* a store */
    char message[400];
    gm_slice m = gm_node_slice(member, st->text);
    snprintf(message, sizeof message,
             "read of `%.*s.%.*s`, a functools.cached_property: before Python 3.12 computing it "
             "takes an RLock that torch.compile cannot enter, so on the first call (before the "
             "value is cached on the instance) dynamo cannot resume after this break and the "
             "whole function runs eagerly",
             (int)(region->self_name.len > 32 ? 32 : region->self_name.len), region->self_name.ptr,
             (int)(m.len > 64 ? 64 : m.len), m.ptr);
    gm_fix mends[GM_MENDS_MAX];
    TSNode decorated = find_definition(region, m);
    int count = ts_node_is_null(decorated)
                    ? 0
                    : gm_mend_cached_property(region, decorated,
                                              cached_property_decorator(st, decorated), mends);
    if (count < 0) {
        region->stmt->oom = true;
        return;
    }
    gm_emit_finding(region, gm_rule_by_id("GM607"), attribute, message, mends, (size_t)count);
    gm_region_skip_frame(region, "GM607");
}
