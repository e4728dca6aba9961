/* [Defer] for GM401/GM402/GM403: print, logging and warnings calls in a compiled region.
 * Today: run the call only in eager mode, under `if not torch.compiler.is_compiling():`, which
 * dynamo folds to False and skips (unsafe: under torch.compile the message is not produced). */
#include <string.h>

#include "mend_text.h"
#include "mends.h"

/* The eager-only guard, when the call is a whole statement alone on its lines in a block and
 * torch is imported. */
static int eager_only(gm_region *region, TSNode call, gm_fix *out) {
    const gm_stmt_ctx *st = region->stmt;
    const char *alias = st->symbols->torch_alias;
    TSNode stmt = ts_node_parent(call);
    if (!alias) {
        region->mend_declined = "the file does not import torch, which the mend needs";
        return 0;
    }
    if (!gm_is(stmt, st->syntax->sym.expression_statement) ||
        ts_node_start_byte(stmt) != ts_node_start_byte(call) ||
        ts_node_end_byte(stmt) != ts_node_end_byte(call) ||
        !gm_is(ts_node_parent(stmt), st->syntax->sym.block)) {
        region->mend_declined = "the call is not a statement of its own";
        return 0;
    }
    gm_stmt_layout layout;
    gm_stmt_layout_of(st->text, st->len, stmt, &layout);
    if (!layout.alone) {
        region->mend_declined = "another statement shares the call's line";
        return 0;
    }
    gm_text_builder tb;
    gm_tb_init(&tb);
    gm_tb_appendf(&tb, "if not %s.compiler.is_compiling():%s", alias, layout.newline);
    gm_tb_append(&tb, layout.indent.ptr, layout.indent.len);
    gm_tb_append(&tb, layout.unit, layout.unit_len);
    gm_tb_append_node(&tb, st->text, stmt);
    return gm_mend_fix_single(out, GM_FIX_UNSAFE,
                              "Mend graph break: run the call only in eager mode (skipped under "
                              "torch.compile)",
                              ts_node_start_byte(stmt), ts_node_end_byte(stmt), gm_tb_take(&tb));
}

int gm_mend_logging_call(gm_region *region, TSNode call, const char *name, gm_fix *out) {
    (void)name;
    return eager_only(region, call, out);
}
