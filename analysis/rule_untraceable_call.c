/* Untraceable calls, each with the registry id torch 2.13 reports: GM501 untraceable-call
 * (GB0007, a function dynamo marks as skipped) for the `time` clocks, `os.getpid()`,
 * `os.path.exists()`, `pickle.dumps()` and `random.random()`; GM502 graph-break-call (GB0025)
 * for `torch._dynamo.graph_break()`; GM503 open-call (GB0059) for the builtin `open()`. Names
 * are matched after import resolution (any alias, `from time import perf_counter`); a name the
 * function binds locally shadows the import or builtin. */
#include <stdio.h>
#include <string.h>

#include "rule_emit.h"
#include "rules.h"
#include "symbols.h"

static const char *const skipped[] = {
    "time.time", "time.perf_counter", "time.monotonic", "time.process_time",
    "os.getpid", "os.path.exists",    "pickle.dumps",   "random.random",
};

void gm_rule_untraceable_call(gm_region *region, TSNode call) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    TSNode head;
    TSNode fn = gm_call_target(syn, call, &head);
    if (ts_node_is_null(fn))
        return;
    if (gm_region_binds_node(region, head))
        return;
    gm_slice hs = gm_node_slice(head, st->text);
    if (!gm_symbols_is_imported(st->symbols, hs)) {
        if (gm_is(fn, syn->sym.identifier) && gm_node_text_is(fn, st->text, "open"))
            gm_emit_finding(region, gm_rule_by_id("GM503"), call,
                            "`open()` call: torch.compile cannot trace this builtin (file I/O) "
                            "and breaks the graph here",
                            NULL, 0);
        return;
    }
    char name[GM_NAME_MAX];
    if (!gm_symbols_resolve(st->symbols, syn, st->text, fn, name, sizeof name))
        return;
    if (strcmp(name, "torch._dynamo.graph_break") == 0) {
        gm_emit_finding(region, gm_rule_by_id("GM502"), call,
                        "`torch._dynamo.graph_break()` call: an explicit graph break; the code "
                        "before and after runs as separate graphs",
                        NULL, 0);
        return;
    }
    for (size_t i = 0; i < sizeof skipped / sizeof skipped[0]; i++) {
        if (strcmp(name, skipped[i]) != 0)
            continue;
        char message[GM_NAME_MAX + 128];
        snprintf(message, sizeof message,
                 "`%s()` call: torch.compile skips this function (it cannot trace it) and "
                 "breaks the graph here",
                 name);
        gm_emit_finding(region, gm_rule_by_id("GM501"), call, message, NULL, 0);
        return;
    }
}
