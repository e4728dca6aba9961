/* GM401 print-call (GB0059 "Failed to trace builtin operator"): the builtin print inside a
 * compiled region. Its mends are mend_defer.c's. Under the reorderable_logging_functions and
 * ignore_logging_functions settings dynamo defers or drops the call instead
 * (gm_emit_logging_call). */
#include "mends.h"
#include "rule_emit.h"
#include "rules.h"
#include "symbols.h"

static bool is_builtin_print(gm_region *region, TSNode call) {
    const gm_stmt_ctx *st = region->stmt;
    TSNode fn = gm_child(call, st->syntax->field.function);
    if (!gm_is(fn, st->syntax->sym.identifier) || !gm_node_text_is(fn, st->text, "print"))
        return false;
    if (st->symbols->module_binds_print)
        return false;
    if (region->print_shadowed < 0)
        region->print_shadowed = gm_region_binds(region, "print");
    return !region->print_shadowed;
}

void gm_rule_print_call(gm_region *region, TSNode call) {
    if (!is_builtin_print(region, call))
        return;
    gm_fix mends[GM_MENDS_MAX];
    int count = gm_mend_logging_call(region, call, "print", mends);
    if (count < 0) {
        region->stmt->oom = true;
        return;
    }
    gm_emit_logging_call(region, gm_rule_by_id("GM401"), call, "print",
                         "`print()` call: torch.compile cannot trace this builtin and breaks the "
                         "graph here; the code before and after runs as separate graphs",
                         mends, (size_t)count);
}
