/* [Plain property] for GM607: a functools.cached_property of the module read in a compiled
 * region. Before Python 3.12 its first read takes an RLock dynamo cannot enter, and dynamo skips
 * the whole frame. The decorator becomes @property: the body then runs at every read, which
 * dynamo traces (a property's getter is inlined). Unsafe, and the title says what changes: the
 * value is computed at every read instead of once, so it follows later changes of what it reads,
 * and a body with side effects runs them again. Declined when the class stores or deletes the
 * attribute (a plain property has no setter or deleter), or when the getter calls anything. */
#include <string.h>

#include "analysis/mends/mends.h"
#include "analysis/mends/rewrite_text.h"

/* Whether n stores to or deletes `<x>.name`, or calls something (anything but a read of
 * attributes, subscripts, literals and operators), in its subtree. */
typedef struct {
    const gm_syntax *syn;
    const char *text;
    gm_slice name;
} scan;

static bool is_member(const scan *s, TSNode n) {
    n = gm_unparen(s->syn, n);
    return gm_is(n, s->syn->sym.attribute) &&
           gm_slice_eq(gm_node_slice(gm_child(n, s->syn->field.attribute), s->text), s->name);
}

static bool writes_member(const scan *s, TSNode n, int depth) {
    if (ts_node_is_null(n) || depth > 200)
        return depth > 200; /* too deep to tell: say yes */
    const gm_syntax *syn = s->syn;
    if ((gm_is(n, syn->sym.assignment) || gm_is(n, syn->sym.augmented_assignment)) &&
        is_member(s, gm_child(n, syn->field.left)))
        return true;
    if (gm_is(n, syn->sym.delete_statement)) {
        uint32_t count = ts_node_named_child_count(n);
        for (uint32_t i = 0; i < count; i++) {
            TSNode target = ts_node_named_child(n, i);
            if (is_member(s, target) || gm_is(target, syn->sym.expression_list) ||
                gm_is(target, syn->sym.subscript))
                return true; /* `del self.x`, or a tuple or `__dict__[...]` that may hold it */
        }
    }
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; i++)
        if (writes_member(s, ts_node_named_child(n, i), depth + 1))
            return true;
    return false;
}

static bool calls_anything(const gm_syntax *syn, TSNode n, int depth) {
    if (ts_node_is_null(n) || depth > 200)
        return depth > 200;
    if (gm_is(n, syn->sym.call) || gm_is(n, syn->sym.function_definition) ||
        gm_is(n, syn->sym.lambda))
        return true;
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; i++)
        if (calls_anything(syn, ts_node_named_child(n, i), depth + 1))
            return true;
    return false;
}

int gm_mend_cached_property(gm_region *region, TSNode decorated, TSNode decorator, gm_fix *out) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    TSNode definition = gm_child(decorated, syn->field.definition);
    if (ts_node_is_null(definition) || ts_node_is_null(decorator))
        return 0;
    TSNode name = gm_child(definition, syn->field.name);
    if (ts_node_is_null(name))
        return 0;
    if (ts_node_named_child_count(decorated) != 2) {
        region->mend_declined = "the cached property has other decorators";
        return 0;
    }
    scan s = {syn, st->text, gm_node_slice(name, st->text)};
    if (writes_member(&s, region->site.class_node, 0)) {
        region->mend_declined = "the class stores or deletes the attribute, which a plain "
                                "property cannot take";
        return 0;
    }
    if (calls_anything(syn, gm_child(definition, syn->field.body), 0)) {
        region->mend_declined = "the cached property calls code whose cost or effects a plain "
                                "property would repeat at every read";
        return 0;
    }
    TSNode expr = ts_node_named_child(decorator, 0);
    return gm_mend_fix_single(out, GM_FIX_UNSAFE, "make the cached property a @property",
                              "Mend graph break: make the cached property a plain @property "
                              "(unsafe: computed at every read instead of once)",
                              ts_node_start_byte(expr), ts_node_end_byte(expr), strdup("property"));
}
