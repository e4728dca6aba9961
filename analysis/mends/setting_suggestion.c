#include "analysis/mends/setting_suggestion.h"

#include "analysis/mends/rewrite_text.h"

int gm_mend_setting_suggestion(gm_region *region, const char *config_assignment, const char *title,
                               gm_fix *out) {
    const gm_stmt_ctx *st = region->stmt;
    const char *alias = st->symbols->torch_alias;
    if (!alias)
        return 0;
    /* Inserted before the top-level statement that holds the region, not after the imports:
     * the incremental analyzer keeps a statement's findings across edits elsewhere and shifts
     * them as it shifts the statement, so an edit must not point outside the statement. */
    gm_stmt_layout layout;
    gm_stmt_layout_of(st->text, st->len, st->top, &layout);
    if (layout.indent.len != 0 || layout.line_start != ts_node_start_byte(st->top))
        return 0;
    gm_text_builder tb;
    gm_tb_init(&tb);
    gm_tb_appendf(&tb, "%s.%s%s%s%s", alias, config_assignment, layout.newline, layout.newline,
                  layout.newline);
    return gm_mend_fix_single(out, GM_FIX_DISPLAY_ONLY, title, layout.line_start, layout.line_start,
                              gm_tb_take(&tb));
}
