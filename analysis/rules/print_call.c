/* GM401 print-call (GB0059 "Failed to trace builtin operator"): the builtin print inside a
 * compiled region, called by its name or through the builtins module (`builtins.print(...)`,
 * `from builtins import print as p`). Its mends are analysis/mends/defer.c's. Under the
 * reorderable_logging_functions and ignore_logging_functions settings dynamo defers or drops
 * the call instead (gm_emit_logging_call). A print in the body of
 * `if logger.isEnabledFor(logging.DEBUG):` is not reported: dynamo breaks at the test and the
 * body does not run. */
#include <stdio.h>
#include <string.h>

#include "analysis/logging_calls/logger_bindings.h"
#include "analysis/mends/mends.h"
#include "analysis/module_facts/symbols.h"
#include "analysis/rules/emit.h"
#include "analysis/rules/rules.h"

/* Whether callee resolves to builtins.print through an import the function does not shadow. */
static bool is_builtins_print(gm_region *region, TSNode callee) {
    const gm_stmt_ctx *st = region->stmt;
    TSNode head = gm_chain_head(st->syntax, callee);
    char name[GM_NAME_MAX];
    return !ts_node_is_null(head) &&
           gm_symbols_is_imported(st->symbols, gm_node_slice(head, st->text)) &&
           gm_symbols_resolve(st->symbols, st->syntax, st->text, callee, name, sizeof name) &&
           strcmp(name, "builtins.print") == 0 && !gm_region_binds_node(region, head);
}

static bool is_builtin_print(gm_region *region, TSNode call) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    TSNode fn = gm_unparen(syn, gm_child(call, syn->field.function));
    if (gm_is(fn, syn->sym.attribute)) {
        /* builtins.print */
        return gm_node_text_is(gm_child(fn, syn->field.attribute), st->text, "print") &&
               is_builtins_print(region, fn);
    }
    if (!gm_is(fn, syn->sym.identifier))
        return false;
    if (!gm_node_text_is(fn, st->text, "print") || st->symbols->module_binds_print) {
        /* `from builtins import print as p` (or without as): an import of the builtin; an
         * identifier resolves to a dotted name only through an import */
        char name[GM_NAME_MAX];
        return gm_symbols_resolve(st->symbols, syn, st->text, fn, name, sizeof name) &&
               strcmp(name, "builtins.print") == 0 && !gm_region_binds_node(region, fn);
    }
    if (region->print_shadowed < 0)
        region->print_shadowed = gm_region_binds(region, "print");
    return !region->print_shadowed;
}

void gm_rule_print_call(gm_region *region, TSNode call) {
    if (!is_builtin_print(region, call) || gm_in_disabled_logging_guard(region, call))
        return;
    gm_fix mends[GM_MENDS_MAX];
    int count = gm_mend_logging_call(region, call, "print", mends);
    if (count < 0) {
        region->stmt->oom = true;
        return;
    }
    char shown[72], message[200];
    gm_node_shown(call, region->stmt->text, shown, sizeof shown);
    snprintf(message, sizeof message,
             "`%s`: torch.compile cannot trace the builtin print and breaks the graph here",
             shown);
    gm_emit_logging_call(region, gm_rule_by_id("GM401"), call, "print", message, mends,
                         (size_t)count);
}
