/* GM610: a tensor's method whose arguments break the graph (`h.masked_scatter(m, norm(h[m]))`).
 * Python looks the bound method up before it evaluates the arguments; when dynamo breaks inside
 * them and resumes, the bound method `h.masked_scatter` is a value the resumed frame receives,
 * which dynamo cannot trace ("Attempted to call function marked as skipped", GB0007): the call
 * breaks again. A torch function (`torch.add(h, h[m].sum())`) is known to dynamo as a value and
 * does not; a break dynamo does not resume from (in a loop, in try, `.item()` inside an argument)
 * leaves nothing to resume, nor does one inside a module gradient checkpointing runs in training
 * (said as a condition). Verified on torch 2.13 CPU. Called by the dynamic-shape rule (GM301),
 * whose breaks dynamo resumes after mid-expression. */
#include <stdio.h>
#include <string.h>

#include "analysis/rules/emit.h"
#include "analysis/rules/rules.h"
#include "analysis/value_kinds/value_kinds.h"

void gm_rule_method_across_break(gm_region *region, TSNode breaking) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    if (region->frame_skipped || region->try_depth > 0 ||
        region->loop_depth > region->comprehension_frame_depth)
        return;
    TSNode n = breaking;
    for (int depth = 0; depth < 32; depth++) {
        TSNode parent = ts_node_parent(n);
        if (ts_node_is_null(parent) || gm_is(parent, syn->sym.block) ||
            strstr(ts_node_type(parent), "statement") || gm_is(parent, syn->sym.lambda) ||
            strstr(ts_node_type(parent), "comprehension"))
            return;
        TSNode call = ts_node_parent(parent);
        TSNode fn = gm_is(parent, syn->sym.argument_list) && gm_is(call, syn->sym.call)
                        ? gm_unparen(syn, gm_child(call, syn->field.function))
                        : (TSNode){0};
        TSNode receiver = gm_is(fn, syn->sym.attribute) ? gm_child(fn, syn->field.object) : fn;
        if (gm_is(fn, syn->sym.attribute) && gm_value_of(region, receiver).kind == GM_KIND_TENSOR) {
            gm_slice method = gm_node_slice(gm_child(fn, syn->field.attribute), st->text);
            gm_slice object = gm_node_slice(receiver, st->text);
            char message[400];
            snprintf(message, sizeof message,
                     "`%.*s.%.*s` was looked up before the graph break in its arguments: dynamo "
                     "resumes with the bound method as a value it cannot trace and breaks the "
                     "graph again at this call",
                     (int)(object.len > 60 ? 60 : object.len), object.ptr,
                     (int)(method.len > 40 ? 40 : method.len), method.ptr);
            /* under a checkpoint the break ends the traced body: nothing resumes */
            if (gm_region_may_run_checkpointed(region))
                region->only_when_condition = "gradient checkpointing is off for this module";
            region->mend_declined =
                "compute the breaking argument into a local before the call, so the method is "
                "looked up after the break";
            gm_emit_finding(region, gm_rule_by_id("GM610"), call, message, NULL, 0);
        }
        n = parent;
    }
}
