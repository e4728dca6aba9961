/* [Identity-guarded store] for GM608: `self.pos = self.pos.to(x.dtype)` where __init__ made
 * self.pos an nn.Buffer. The conversion goes to a local, and the store happens only when the
 * conversion made a new tensor:
 *
 *     pos = self.pos.to(x.dtype)
 *     if pos is not self.pos:
 *         self.pos = pos
 *
 * A no-op conversion returns the buffer itself, and storing it back re-registers the same object
 * with the same flags: skipping that store changes nothing, so the mend is safe. Dynamo folds the
 * identity test; a real conversion is stored as a new tensor, which does not break (verified on
 * torch 2.13). */
#include <string.h>

#include "analysis/mends/branch.h"
#include "analysis/mends/mends.h"
#include "analysis/mends/rewrite_text.h"

/* Whether name occurs in n as a plain name (not as `.name` of an attribute, nor a keyword
 * argument's name), so that a local of that name would change what the code reads. */
static bool reads_name(const gm_syntax *syn, const char *text, TSNode n, gm_slice name) {
    TSTreeCursor cursor = ts_tree_cursor_new(n);
    bool found = false;
    for (;;) {
        TSNode c = ts_tree_cursor_current_node(&cursor);
        if (gm_is(c, syn->sym.identifier) && gm_slice_eq(gm_node_slice(c, text), name)) {
            TSNode parent = ts_node_parent(c);
            bool member = gm_is(parent, syn->sym.attribute) &&
                          ts_node_eq(gm_child(parent, syn->field.attribute), c);
            bool keyword = gm_is(parent, syn->sym.keyword_argument) &&
                           ts_node_eq(gm_child(parent, syn->field.name), c);
            if (!member && !keyword) {
                found = true;
                break;
            }
        }
        if (ts_tree_cursor_goto_first_child(&cursor))
            continue;
        while (!ts_tree_cursor_goto_next_sibling(&cursor))
            if (!ts_tree_cursor_goto_parent(&cursor))
                goto done;
    }
done:
    ts_tree_cursor_delete(&cursor);
    return found;
}

int gm_mend_buffer_store(gm_region *region, TSNode assignment, gm_fix *out) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    TSNode stmt = ts_node_parent(assignment);
    TSNode target = gm_child(assignment, syn->field.left);
    TSNode value = gm_child(assignment, syn->field.right);
    if (!gm_is(stmt, syn->sym.expression_statement) || ts_node_named_child_count(stmt) != 1 ||
        ts_node_is_null(target) || ts_node_is_null(value)) {
        region->mend_declined = "the store is part of a larger statement";
        return 0;
    }
    gm_stmt_layout layout;
    gm_stmt_layout_of(st->text, st->len, stmt, &layout);
    if (!layout.alone) {
        region->mend_declined = "another statement shares the store's line";
        return 0;
    }
    /* the local is named after the attribute, unless the code reads that name already */
    gm_slice attribute = gm_node_slice(gm_child(target, syn->field.attribute), st->text);
    char base[80], local[96];
    if (attribute.len + 1 > sizeof base - 10)
        return 0;
    memcpy(base, attribute.ptr, attribute.len);
    base[attribute.len] = '\0';
    if (reads_name(syn, st->text, st->top, attribute)) {
        memcpy(base + attribute.len, "_converted", sizeof "_converted");
        if (!gm_fresh_name(st->text + ts_node_start_byte(st->top), gm_node_length(st->top), base,
                           local, sizeof local)) {
            region->mend_declined = "no fresh name is free for the converted tensor";
            return 0;
        }
    } else {
        memcpy(local, base, attribute.len + 1);
    }
    gm_text_builder tb;
    gm_tb_init(&tb);
    gm_tb_appendf(&tb, "%s = ", local);
    gm_tb_append_node(&tb, st->text, value);
    gm_branch_newline(&tb, &layout);
    gm_tb_appendf(&tb, "if %s is not ", local);
    gm_tb_append_node(&tb, st->text, target);
    gm_tb_append_str(&tb, ":");
    gm_branch_newline(&tb, &layout);
    gm_tb_append(&tb, layout.unit, layout.unit_len);
    gm_tb_append_node(&tb, st->text, target);
    gm_tb_appendf(&tb, " = %s", local);
    return gm_mend_fix_single(out, GM_FIX_SAFE, "store the buffer only when converted",
                              "Mend graph break: store the converted buffer only when the "
                              "conversion made a new tensor",
                              ts_node_start_byte(stmt), ts_node_end_byte(stmt), gm_tb_take(&tb));
}
