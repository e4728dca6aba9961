/* The kinds a region's parameters start with: tensors and Python scalars by their annotations,
 * and the name of self (the first parameter of a method that is not static). */
#include "analysis/value_kinds/value_kinds.h"
#include "analysis/value_kinds/value_kinds_internal.h"

#include <string.h>

static bool name_is_tensor_type(const char *name) {
    if (strcmp(name, "Tensor") == 0)
        return true;
    if (strncmp(name, "torch.", 6) != 0)
        return false;
    size_t n = strlen(name);
    return n >= 6 && strcmp(name + n - 6, "Tensor") == 0; /* torch.Tensor, torch.LongTensor */
}

/* torch.Tensor, Tensor, Optional[Tensor], Tensor | None. */
static bool is_tensor_annotation(gm_region *r, TSNode type, int depth) {
    const gm_syntax *syn = syn_of(r);
    if (ts_node_is_null(type) || depth > 8)
        return false;
    if (gm_is(type, syn->sym.type) && ts_node_named_child_count(type) > 0)
        return is_tensor_annotation(r, ts_node_named_child(type, 0), depth + 1);
    char name[GM_NAME_MAX];
    if (gm_is(type, syn->sym.identifier) || gm_is(type, syn->sym.attribute))
        return gm_symbols_resolve(r->stmt->symbols, syn, text_of(r), type, name, sizeof name) &&
               name_is_tensor_type(name);
    if (gm_is(type, syn->sym.generic_type) && ts_node_named_child_count(type) == 2) {
        TSNode outer = ts_node_named_child(type, 0);
        TSNode params = ts_node_named_child(type, 1);
        if (!gm_symbols_resolve(r->stmt->symbols, syn, text_of(r), outer, name, sizeof name) ||
            !gm_name_last_is(name, "Optional") || ts_node_named_child_count(params) != 1)
            return false;
        return is_tensor_annotation(r, ts_node_named_child(params, 0), depth + 1);
    }
    if (gm_is(type, syn->sym.binary_operator)) {
        TSNode left = gm_child(type, syn->field.left), right = gm_child(type, syn->field.right);
        bool lt = is_tensor_annotation(r, left, depth + 1);
        bool rt = is_tensor_annotation(r, right, depth + 1);
        return (lt || rt) && (lt || gm_is(left, syn->sym.none)) &&
               (rt || gm_is(right, syn->sym.none));
    }
    return false;
}

/* Whether the region's function is decorated with @staticmethod: its first parameter is then
 * an ordinary argument, not self. */
bool gm_vk_is_static_method(const gm_region *region) {
    const gm_syntax *syn = syn_of(region);
    TSNode decorated = ts_node_parent(region->site.function);
    if (!gm_is(decorated, syn->sym.decorated_definition))
        return false;
    uint32_t n = ts_node_named_child_count(decorated);
    for (uint32_t i = 0; i < n; i++) {
        TSNode d = ts_node_named_child(decorated, i);
        if (gm_is(d, syn->sym.decorator) && ts_node_named_child_count(d) > 0 &&
            gm_node_text_is(ts_node_named_child(d, 0), text_of(region), "staticmethod"))
            return true;
    }
    return false;
}

static bool is_static_annotation(gm_region *r, TSNode type) {
    const gm_syntax *syn = syn_of(r);
    if (gm_is(type, syn->sym.type) && ts_node_named_child_count(type) > 0)
        type = ts_node_named_child(type, 0);
    if (!gm_is(type, syn->sym.identifier))
        return false;
    gm_slice s = gm_node_slice(type, text_of(r));
    return gm_slice_is(s, "int") || gm_slice_is(s, "bool") || gm_slice_is(s, "float") ||
           gm_slice_is(s, "str");
}

void gm_kinds_seed_parameters(gm_region *region) {
    const gm_syntax *syn = syn_of(region);
    TSNode params = gm_child(region->site.function, syn->field.parameters);
    uint32_t count = ts_node_is_null(params) ? 0 : ts_node_named_child_count(params);
    for (uint32_t i = 0; i < count; i++) {
        TSNode p = ts_node_named_child(params, i);
        TSNode name = {0}, type = {0};
        if (gm_is(p, syn->sym.identifier)) {
            name = p;
        } else if (gm_is(p, syn->sym.typed_parameter)) {
            if (ts_node_named_child_count(p) > 0 &&
                gm_is(ts_node_named_child(p, 0), syn->sym.identifier))
                name = ts_node_named_child(p, 0);
            type = gm_child(p, syn->field.type);
        } else if (gm_is(p, syn->sym.typed_default_parameter) ||
                   gm_is(p, syn->sym.default_parameter)) {
            name = gm_child(p, syn->field.name);
            type = gm_child(p, syn->field.type);
        }
        if (i == 0 && !ts_node_is_null(region->site.class_node) &&
            gm_is(name, syn->sym.identifier) && !gm_vk_is_static_method(region)) {
            region->self_name = gm_node_slice(name, text_of(region));
            continue;
        }
        if (!gm_is(name, syn->sym.identifier) || ts_node_is_null(type))
            continue;
        if (is_tensor_annotation(region, type, 0)) {
            gm_vk_env_set(region, gm_node_slice(name, text_of(region)), GM_KIND_TENSOR);
            gm_vk_mark_set(region, gm_node_slice(name, text_of(region)), GM_MARK_ANNOTATED);
        } else if (is_static_annotation(region, type))
            gm_vk_env_set(region, gm_node_slice(name, text_of(region)), GM_KIND_STATIC);
    }
}
