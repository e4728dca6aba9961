/* RNG generator objects: GM508 generator-method (GB7650 "torch.Generator method") for
 * manual_seed/seed/initial_seed/get_state/set_state/graphsafe_* on a torch.Generator (a
 * module-level `G = torch.Generator(...)`, a parameter annotated torch.Generator, or a name
 * the function assigns torch.Generator(...)); GM509 generator-in-region (GB0363 "An opaque
 * object was created in the middle of the program.") for torch.Generator(...) itself. Global
 * seeding (torch.manual_seed) is a skipped function: GM501. */
#include <stdio.h>
#include <string.h>

#include "analysis/module_facts/symbols.h"
#include "analysis/rules/emit.h"
#include "analysis/rules/rules.h"

static const char *const methods[] = {
    "manual_seed",         "seed", "initial_seed", "get_state", "set_state", "graphsafe_get_state",
    "graphsafe_set_state",
};

static bool is_generator_ctor(const gm_stmt_ctx *st, TSNode call) {
    const gm_syntax *syn = st->syntax;
    char name[GM_NAME_MAX];
    return gm_is(call, syn->sym.call) &&
           gm_symbols_resolve(st->symbols, syn, st->text,
                              gm_unparen(syn, gm_child(call, syn->field.function)), name,
                              sizeof name) &&
           strcmp(name, "torch.Generator") == 0;
}

/* Whether n (the function body, not nested definitions) assigns `name = torch.Generator(...)`. */
static bool assigns_generator(const gm_stmt_ctx *st, TSNode n, gm_slice name, int depth) {
    const gm_syntax *syn = st->syntax;
    if (ts_node_is_null(n) || depth > 64)
        return false;
    TSSymbol t = ts_node_symbol(n);
    if (t == syn->sym.function_definition || t == syn->sym.class_definition || t == syn->sym.lambda)
        return false;
    if (t == syn->sym.assignment) {
        TSNode left = gm_child(n, syn->field.left);
        if (gm_is(left, syn->sym.identifier) && gm_slice_eq(gm_node_slice(left, st->text), name) &&
            is_generator_ctor(st, gm_unparen(syn, gm_child(n, syn->field.right))))
            return true;
    }
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
        if (assigns_generator(st, ts_node_named_child(n, i), name, depth + 1))
            return true;
    return false;
}

/* Whether name is a parameter of the function annotated torch.Generator. */
static bool annotated_generator(const gm_stmt_ctx *st, TSNode function, gm_slice name) {
    const gm_syntax *syn = st->syntax;
    TSNode type = gm_parameter_annotation(syn, st->text, function, name);
    char resolved[GM_NAME_MAX];
    return !ts_node_is_null(type) && ts_node_named_child_count(type) > 0 &&
           gm_symbols_resolve(st->symbols, syn, st->text, ts_node_named_child(type, 0), resolved,
                              sizeof resolved) &&
           strcmp(resolved, "torch.Generator") == 0;
}

static bool is_generator(gm_region *region, TSNode obj) {
    const gm_stmt_ctx *st = region->stmt;
    gm_slice name = gm_node_slice(obj, st->text);
    if (gm_region_binds_node(region, obj))
        return annotated_generator(st, region->site.function, name) ||
               assigns_generator(st, gm_child(region->site.function, st->syntax->field.body), name,
                                 0);
    const gm_module_scan *scan = gm_region_scan_module(region);
    for (unsigned i = 0; i < scan->generator_count; i++)
        if (gm_slice_eq(scan->generators[i], name))
            return true;
    return false;
}

void gm_rule_rng_state_call(gm_region *region, TSNode call) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    if (is_generator_ctor(st, call)) {
        gm_emit_finding_as_written(region, gm_rule_by_id("GM509"), call,
                        "`torch.Generator()` created in compiled code: torch.compile cannot "
                        "create this opaque object while tracing and breaks the graph here",
                        NULL, 0);
        return;
    }
    TSNode fn = gm_unparen(syn, gm_child(call, syn->field.function));
    if (!gm_is(fn, syn->sym.attribute))
        return;
    TSNode obj = gm_unparen(syn, gm_child(fn, syn->field.object));
    TSNode method = gm_child(fn, syn->field.attribute);
    bool known = false;
    for (size_t i = 0; i < sizeof methods / sizeof methods[0] && !known; i++)
        known = gm_node_text_is(method, st->text, methods[i]);
    if (!known || !gm_is(obj, syn->sym.identifier) ||
        gm_symbols_is_imported(st->symbols, gm_node_slice(obj, st->text)) ||
        !is_generator(region, obj))
        return;
    gm_slice m = gm_node_slice(method, st->text);
    char message[256];
    snprintf(message, sizeof message,
             "`torch.Generator.%.*s()` call: torch.compile cannot trace stateful RNG "
             "operations on a generator and breaks the graph here",
             (int)(m.len > 64 ? 64 : m.len), m.ptr);
    gm_emit_finding_as_written(region, gm_rule_by_id("GM508"), call, message, NULL, 0);
}
