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
        !gm_region_is_instance_of(region, obj, GM_INSTANCE_TORCH_GENERATOR))
        return;
    gm_slice m = gm_node_slice(method, st->text);
    char message[256];
    snprintf(message, sizeof message,
             "`torch.Generator.%.*s()` call: torch.compile cannot trace stateful RNG "
             "operations on a generator and breaks the graph here",
             (int)(m.len > 64 ? 64 : m.len), m.ptr);
    gm_emit_finding_as_written(region, gm_rule_by_id("GM508"), call, message, NULL, 0);
}
