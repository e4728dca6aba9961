#include "analysis/mends/setting_suggestion.h"

#include <stdint.h>
#include <string.h>

#include "analysis/mends/rewrite_text.h"

int gm_mend_setting_suggestion(gm_region *region, gm_applicability applicability,
                               const char *config_assignment, const char *label,
                               const char *title, gm_fix *out) {
    const gm_stmt_ctx *st = region->stmt;
    const char *alias = st->symbols->torch_alias;
    if (!alias || !gm_mend_torch_bound_at_import(st, UINT32_MAX))
        return 0; /* the line would raise NameError when the module is imported */
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

/* Whether the import statement c binds alias to the torch module (`import torch`,
 * `import torch.x`, `import torch as alias`). */
static bool import_binds_torch(const gm_stmt_ctx *st, TSNode c, gm_slice alias) {
    const gm_syntax *syn = st->syntax;
    uint32_t count = ts_node_named_child_count(c);
    for (uint32_t k = 0; k < count; k++) {
        TSNode item = ts_node_named_child(c, k);
        TSNode dotted = item, bound = (TSNode){0};
        if (gm_is(item, syn->sym.aliased_import)) {
            dotted = gm_child(item, syn->field.name);
            bound = gm_child(item, syn->field.alias);
        }
        if (!gm_is(dotted, syn->sym.dotted_name) || ts_node_named_child_count(dotted) == 0)
            continue;
        if (!gm_node_text_is(ts_node_named_child(dotted, 0), st->text, "torch"))
            continue;
        if (ts_node_is_null(bound) ? gm_slice_is(alias, "torch")
                                   : ts_node_named_child_count(dotted) == 1 &&
                                         gm_slice_eq(gm_node_slice(bound, st->text), alias))
            return true;
    }
    return false;
}

bool gm_mend_torch_bound_at_import(const gm_stmt_ctx *st, uint32_t before) {
    const char *alias = st->symbols->torch_alias;
    if (!alias)
        return false;
    gm_slice want = {alias, strlen(alias)};
    /* the module's statements through one cursor: by index, each would walk those before it */
    TSTreeCursor cursor = ts_tree_cursor_new(ts_node_parent(st->top));
    bool bound = false;
    if (ts_tree_cursor_goto_first_child(&cursor)) {
        do {
            TSNode c = ts_tree_cursor_current_node(&cursor);
            if (ts_node_start_byte(c) >= before)
                break;
            bound = gm_is(c, st->syntax->sym.import_statement) && import_binds_torch(st, c, want);
        } while (!bound && ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
    return bound;
}

const char *gm_mend_no_torch_reason(const gm_stmt_ctx *st) {
    return st->symbols->torch_type_checking_only
               ? "the file imports torch only under `if TYPE_CHECKING:` (it keeps torch "
                 "optional), and the mend needs torch when the code runs"
               : "the file does not import torch, which the mend needs";
}
