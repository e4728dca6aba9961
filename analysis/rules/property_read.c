/* Reads of a @property whose getter breaks the graph (module_facts/breaking_properties.h), and
 * the attribute stores of tensors that decide how dynamo reports them. Checked against dynamo
 * (torch 2.13): the getter's break is reported in the getter, and the reading function runs
 * eagerly from the read on, since dynamo cannot break at a LOAD_ATTR; when the function stored
 * a tensor into an attribute before the read (itself, or in a method of the file it called),
 * dynamo also reports the read (explain's step_unsupported) and keeps the graph before it. */
#include <stdio.h>
#include <string.h>

#include "analysis/module_facts/breaking_properties.h"
#include "analysis/rules/emit.h"
#include "analysis/rules/rules.h"
#include "analysis/value_kinds/value_kinds.h"

static bool any_breaking(const gm_region *r) {
    return r->stmt->breaking_properties && r->stmt->breaking_properties->count > 0;
}

static bool is_self(const gm_region *r, TSNode n) {
    return r->self_name.len > 0 && gm_is(n, r->stmt->syntax->sym.identifier) &&
           gm_slice_eq(gm_node_slice(n, r->stmt->text), r->self_name);
}

static gm_slice class_name_of(const gm_region *r, TSNode cls) {
    return ts_node_is_null(cls) ? (gm_slice){r->stmt->text, 0}
                                : gm_node_slice(gm_child(cls, r->stmt->syntax->field.name),
                                                r->stmt->text);
}

/* The method `name` defined in the body of class cls (decorated or not), or a null node. */
static TSNode method_of(const gm_region *r, TSNode cls, gm_slice name) {
    const gm_syntax *syn = r->stmt->syntax;
    TSNode body = gm_child(cls, syn->field.body);
    uint32_t n = ts_node_is_null(body) ? 0 : ts_node_named_child_count(body);
    for (uint32_t i = 0; i < n; i++) {
        TSNode c = ts_node_named_child(body, i);
        if (gm_is(c, syn->sym.decorated_definition))
            c = gm_child(c, syn->field.definition);
        if (gm_is(c, syn->sym.function_definition) &&
            gm_slice_eq(gm_node_slice(gm_child(c, syn->field.name), r->stmt->text), name))
            return c;
    }
    return (TSNode){0};
}

/* The top-level class of the module called name, or a null node. */
static TSNode module_class(gm_region *r, gm_slice name) {
    const gm_keyed_class *first;
    if (name.len == 0 || gm_module_index_classes(r->stmt->module_index, name, &first) == 0)
        return (TSNode){0};
    return first->node;
}

/* The first parameter of a method (its self), or an empty slice. */
static gm_slice self_parameter(const gm_region *r, TSNode function) {
    if (ts_node_is_null(function))
        return (gm_slice){r->stmt->text, 0};
    TSNode parameters = gm_child(function, r->stmt->syntax->field.parameters);
    TSNode first = ts_node_is_null(parameters) || ts_node_named_child_count(parameters) == 0
                       ? (TSNode){0}
                       : ts_node_named_child(parameters, 0);
    return gm_is(first, r->stmt->syntax->sym.identifier) ? gm_node_slice(first, r->stmt->text)
                                                         : (gm_slice){r->stmt->text, 0};
}

/* Calls visit on each assignment of the block, not looking into nested defs or classes;
 * stops when it returns true. */
static bool each_assignment(gm_region *r, TSNode n, int depth,
                            bool (*visit)(gm_region *r, TSNode assignment, void *context),
                            void *context) {
    const gm_syntax *syn = r->stmt->syntax;
    if (depth > 32 || ts_node_is_null(n) || gm_is(n, syn->sym.function_definition) ||
        gm_is(n, syn->sym.class_definition) || gm_is(n, syn->sym.lambda))
        return false;
    if (gm_is(n, syn->sym.assignment))
        return visit(r, n, context);
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; i++)
        if (each_assignment(r, ts_node_named_child(n, i), depth + 1, visit, context))
            return true;
    return false;
}

typedef struct {
    gm_slice self_name, attribute, found_class;
} init_lookup;

/* `self.attribute = Cls(...)`, Cls a class of the module. */
static bool note_constructed(gm_region *r, TSNode assignment, void *context) {
    const gm_syntax *syn = r->stmt->syntax;
    init_lookup *lookup = context;
    TSNode left = gm_child(assignment, syn->field.left);
    TSNode right = gm_unparen(syn, gm_child(assignment, syn->field.right));
    if (!gm_is(left, syn->sym.attribute) || !gm_is(right, syn->sym.call))
        return false;
    TSNode object = gm_child(left, syn->field.object);
    TSNode function = gm_child(right, syn->field.function);
    if (!gm_is(object, syn->sym.identifier) || !gm_is(function, syn->sym.identifier) ||
        !gm_slice_eq(gm_node_slice(object, r->stmt->text), lookup->self_name) ||
        !gm_slice_eq(gm_node_slice(gm_child(left, syn->field.attribute), r->stmt->text),
                     lookup->attribute))
        return false;
    gm_slice cls = gm_node_slice(function, r->stmt->text);
    /* a class of the module, or one an import binds (what other modules say of it comes with
     * the workspace's facts) */
    if (ts_node_is_null(module_class(r, cls)) && !gm_symbols_is_imported(r->stmt->symbols, cls))
        return false;
    lookup->found_class = cls; /* the last such assignment wins, as at run time */
    return false;
}

/* The class whose instance `self.attribute` is: the class of the module the region's class's
 * __init__ assigns to it, or an empty slice. */
static gm_slice attribute_class(gm_region *r, gm_slice attribute) {
    TSNode init = method_of(r, r->site.class_node, (gm_slice){"__init__", 8});
    init_lookup lookup = {self_parameter(r, init), attribute, {r->stmt->text, 0}};
    if (!ts_node_is_null(init) && lookup.self_name.len > 0)
        each_assignment(r, gm_child(init, r->stmt->syntax->field.body), 0, note_constructed,
                        &lookup);
    return lookup.found_class;
}

/* The class of the object `object` names in the region: `self`, or `self.attr` made in
 * __init__; an empty slice when unknown. */
static gm_slice object_class(gm_region *r, TSNode object) {
    const gm_syntax *syn = r->stmt->syntax;
    if (ts_node_is_null(r->site.class_node))
        return (gm_slice){r->stmt->text, 0};
    object = gm_unparen(syn, object);
    if (is_self(r, object))
        return class_name_of(r, r->site.class_node);
    if (gm_is(object, syn->sym.attribute) && is_self(r, gm_child(object, syn->field.object)))
        return attribute_class(r, gm_node_slice(gm_child(object, syn->field.attribute),
                                                r->stmt->text));
    return (gm_slice){r->stmt->text, 0};
}

static bool is_tensor_attribute_store(gm_region *r, TSNode left, TSNode right) {
    return gm_is(left, r->stmt->syntax->sym.attribute) &&
           gm_value_of(r, right).kind == GM_KIND_TENSOR;
}

void gm_note_attribute_store(gm_region *region, TSNode left, TSNode right) {
    if (any_breaking(region) && !region->tensor_attribute_stored &&
        is_tensor_attribute_store(region, left, right))
        region->tensor_attribute_stored = true;
}

static bool stores_tensor(gm_region *r, TSNode assignment, void *context) {
    (void)context;
    const gm_syntax *syn = r->stmt->syntax;
    return is_tensor_attribute_store(r, gm_child(assignment, syn->field.left),
                                     gm_child(assignment, syn->field.right));
}

void gm_rule_property_state_call(gm_region *region, TSNode call) {
    const gm_syntax *syn = region->stmt->syntax;
    if (!any_breaking(region) || region->tensor_attribute_stored)
        return;
    TSNode function = gm_unparen(syn, gm_child(call, syn->field.function));
    if (!gm_is(function, syn->sym.attribute))
        return;
    gm_slice class_name = object_class(region, gm_child(function, syn->field.object));
    gm_slice method_name =
        gm_node_slice(gm_child(function, syn->field.attribute), region->stmt->text);
    TSNode cls = module_class(region, class_name);
    if (ts_node_is_null(cls)) {
        /* a class of another module: what its module's analysis found */
        if (class_name.len > 0 &&
            gm_breaking_properties_stores(region->stmt->breaking_properties, class_name,
                                          method_name))
            region->tensor_attribute_stored = true;
        return;
    }
    TSNode method = method_of(region, cls, method_name);
    /* the callee's expressions are judged with the caller's kinds: what makes a tensor there
     * (torch.tensor(...), x @ w on tensors) is what a store of one looks like */
    if (!ts_node_is_null(method) &&
        each_assignment(region, gm_child(method, syn->field.body), 0, stores_tensor, NULL))
        region->tensor_attribute_stored = true;
}

void gm_rule_property_read(gm_region *region, TSNode attribute) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    if (!any_breaking(region))
        return;
    TSNode member = gm_child(attribute, syn->field.attribute);
    gm_slice name = gm_node_slice(member, st->text);
    if (ts_node_is_null(member) || !gm_breaking_properties_has_name(st->breaking_properties, name))
        return;
    TSNode parent = ts_node_parent(attribute);
    if ((gm_is(parent, syn->sym.assignment) || gm_is(parent, syn->sym.augmented_assignment)) &&
        ts_node_eq(gm_child(parent, syn->field.left), attribute))
        return; /* a store runs the setter, not the getter */
    const gm_breaking_property *property = gm_breaking_properties_find(
        st->breaking_properties, object_class(region, gm_child(attribute, syn->field.object)),
        name);
    if (!property)
        return;
    if (region->tensor_attribute_stored) {
        char message[700], where[200] = "";
        if (property->module[0])
            snprintf(where, sizeof where, " of `%s`", property->module);
        region->mend_declined = "the break is in the property's getter: mend it there";
        snprintf(message, sizeof message,
                 "read of `%s`, a property whose getter breaks the graph (%s, line %u%s): dynamo "
                 "cannot resume inside an attribute read, and this function stored a tensor "
                 "into an attribute before it, so the graph breaks here too and the rest of "
                 "the function runs eagerly",
                 property->key, property->rule->id, property->row + 1, where);
        gm_emit_finding(region, property->rule, attribute, message, NULL, 0);
    }
    /* either way dynamo traces no more of this function */
    gm_region_skip_frame(region, property->rule->id);
}

int gm_rule_property_tensor_stores(gm_stmt_ctx *st, gm_breaking_properties *set) {
    const gm_syntax *syn = st->syntax;
    size_t count = set->count; /* the entries added below are not looked at */
    for (size_t i = 0; i < count; i++) {
        const gm_breaking_property *p = &set->items[i];
        const char *dot = strchr(p->key, '.');
        if (p->stores_tensor || p->module[0] || !dot)
            continue;
        /* a copy: adding entries may move the set's items */
        char name[sizeof p->key];
        memcpy(name, p->key, (size_t)(dot - p->key));
        gm_slice class_name = {name, (uint32_t)(dot - p->key)};
        const gm_keyed_class *first;
        if (gm_module_index_classes(st->module_index, class_name, &first) == 0)
            continue;
        TSNode cls = first->node;
        TSNode body = gm_child(cls, syn->field.body);
        uint32_t n = ts_node_is_null(body) ? 0 : ts_node_named_child_count(body);
        for (uint32_t j = 0; j < n; j++) {
            TSNode def = ts_node_named_child(body, j);
            if (gm_is(def, syn->sym.decorated_definition))
                def = gm_child(def, syn->field.definition);
            /* __init__ runs when the object is made, not as a call before a read */
            if (!gm_is(def, syn->sym.function_definition) ||
                gm_node_text_is(gm_child(def, syn->field.name), st->text, "__init__"))
                continue;
            gm_region region = {.stmt = st, .print_shadowed = -1};
            region.site.function = def;
            region.site.class_node = cls;
            gm_kinds_seed_parameters(&region);
            bool stores = each_assignment(&region, gm_child(def, syn->field.body), 0,
                                          stores_tensor, NULL);
            gm_kind_env_free(&region.env);
            gm_region_free_name_sets(&region);
            if (stores && gm_breaking_properties_add_store(
                              set, class_name, gm_node_slice(gm_child(def, syn->field.name),
                                                             st->text)) != 0)
                return -1;
        }
    }
    return 0;
}
