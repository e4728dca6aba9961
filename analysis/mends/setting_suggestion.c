#include "analysis/mends/setting_suggestion.h"

#include "analysis/mends/rewrite_text.h"

int gm_mend_setting_suggestion(gm_region *region, gm_applicability applicability,
                               const char *config_assignment, const char *label,
                               const char *title, gm_fix *out) {
    const gm_stmt_ctx *st = region->stmt;
    const char *alias = st->symbols->torch_alias;
    if (!alias)
        return 0;
    /* After the imports (placed there by the analyzer on every run, see
     * gm_text_edit.after_imports) when the module's imports come before the statement; else
     * before the top-level statement that holds the region. Either way the edit is made here
     * inside the statement's own range, which the incremental analyzer keeps in step. */
    gm_stmt_layout layout;
    gm_stmt_layout_of(st->text, st->len, st->top, &layout);
    if (layout.indent.len != 0 || layout.line_start != ts_node_start_byte(st->top))
        return 0;
    bool after_imports = gm_module_head_end(st->syntax, st->text, st->len,
                                            ts_node_parent(st->top)) <= layout.line_start;
    gm_text_builder tb;
    gm_tb_init(&tb);
    gm_tb_appendf(&tb, "%s.%s%s", alias, config_assignment, layout.newline);
    if (!after_imports)
        gm_tb_appendf(&tb, "%s%s", layout.newline, layout.newline);
    int rc = gm_mend_fix_single(out, applicability, label, title, layout.line_start,
                                layout.line_start, gm_tb_take(&tb));
    if (rc == 1)
        out->edits[0].after_imports = after_imports;
    return rc;
}
