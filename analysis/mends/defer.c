/* [Defer] for GM401/GM402/GM403: print, logging and warnings calls in a compiled region. Two
 * mends, both unsafe, the first preferred:
 * - deferred: when dynamo can reorder the call (a plain function whose arguments are tensors,
 *   constants and format strings; never a Logger method, which dynamo reaches through the
 *   logger object whatever the settings), insert
 *   `torch._dynamo.config.reorderable_logging_functions.add(<callee>)` on its own line after
 *   the module's imports (the analyzer places it there on every run: gm_text_edit.after_imports;
 *   before the top-level statement holding the call when the imports do not come first). Dynamo
 *   then runs the call after the graph with the values the arguments had: the message is still
 *   produced, but later, and the setting holds for the whole process. Every such mend of the
 *   file inserts the identical line at the same place, which the fix applier takes once; once
 *   the line is in the file, dynamo (and analysis/logging_calls/logging_config.c) defers the
 *   calls and no mend is offered again.
 * - eager-only: `if not torch.compiler.is_compiling():` around the call, which dynamo folds to
 *   False and skips: under torch.compile the message is not produced. */
#include <stdio.h>
#include <string.h>

#include "analysis/logging_calls/logging_outcome.h"
#include "analysis/syntax/line_breaks.h"
#include "analysis/mends/mends.h"
#include "analysis/mends/setting_suggestion.h"
#include "analysis/mends/rewrite_text.h"

/* The last import statement among the module's children before the statement under analysis,
 * or a null node. Only module-level imports count: one inside try/if may not run. */
static TSNode last_import(const gm_stmt_ctx *st) {
    return gm_module_index_import_before(st->module_index, ts_node_start_byte(st->top));
}

/* The callee as a module-level expression: print, or a dotted name whose head an import binds
 * (the rules have checked that the function does not rebind it). */
static bool callee_is_module_level(const gm_stmt_ctx *st, TSNode callee) {
    const gm_syntax *syn = st->syntax;
    TSNode head = callee;
    while (gm_is(head, syn->sym.attribute))
        head = gm_child(head, syn->field.object);
    if (!gm_is(head, syn->sym.identifier))
        return false;
    if (gm_is(callee, syn->sym.identifier) && gm_node_text_is(callee, st->text, "print"))
        return !st->symbols->module_binds_print;
    return gm_symbols_is_imported(st->symbols, gm_node_slice(head, st->text));
}

/* The deferred mend, or 0 when the call does not qualify (the eager-only guard's reason then
 * stands). */
static int deferred(gm_region *region, TSNode call, const char *name, gm_fix *out) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    const char *alias = st->symbols->torch_alias;
    TSNode callee = gm_child(call, syn->field.function);
    if (!alias || strncmp(name, "logging.Logger.", 15) == 0 ||
        st->options->torch_version < 203 || /* reorderable_logging_functions came in 2.3 */
        gm_logging_call_outcome(region, call, name) != GM_LOG_BREAKS ||
        !gm_logging_arguments_deferrable(region, call) || !callee_is_module_level(st, callee))
        return 0;
    if (ts_node_is_null(last_import(st)))
        return 0; /* torch is imported after the statement */
    gm_stmt_layout layout;
    gm_stmt_layout_of(st->text, st->len, st->top, &layout);
    if (layout.indent.len != 0 || layout.line_start != ts_node_start_byte(st->top))
        return 0;
    const gm_syntax_symbols *sym = &syn->sym;
    bool definition = gm_is(st->top, sym->function_definition) ||
                      gm_is(st->top, sym->class_definition) ||
                      gm_is(st->top, sym->decorated_definition);
    bool after_imports = gm_module_head_end(syn, st->text, st->len, ts_node_parent(st->top)) <=
                         layout.line_start;
    gm_text_builder tb;
    gm_tb_init(&tb);
    gm_tb_appendf(&tb, "%s._dynamo.config.reorderable_logging_functions.add(", alias);
    gm_tb_append_node(&tb, st->text, callee);
    gm_tb_appendf(&tb, ")%s", layout.newline);
    if (definition && !after_imports) /* two blank lines before a top-level definition */
        gm_tb_appendf(&tb, "%s%s", layout.newline, layout.newline);
    uint32_t at = layout.line_start;
    gm_slice callee_text = gm_node_slice(callee, st->text);
    /* A deferred warning is reported at the compiled function's first line (torch 2.13). */
    bool warning = strcmp(name, "warnings.warn") == 0;
    char label[48];
    snprintf(label, sizeof label, "defer %.*s after the graph",
             (int)(callee_text.len > 20 ? 20 : callee_text.len), callee_text.ptr);
    char title[320];
    snprintf(title, sizeof title,
             "Mend graph break: run the call after the graph (adds %.*s to "
             "torch._dynamo.config.reorderable_logging_functions, for the whole process%s)",
             (int)(callee_text.len > 64 ? 64 : callee_text.len), callee_text.ptr,
             warning ? "; the warning then points at the function's first line" : "");
    int rc = gm_mend_fix_single(out, GM_FIX_UNSAFE, label, title, at, at, gm_tb_take(&tb));
    if (rc == 1)
        out->edits[0].after_imports = after_imports;
    return rc;
}

/* The statement's text with its continuation lines one indentation unit deeper (they move into
 * the guard's block with the first line), except lines inside string literals and blank ones. */
static void append_indented(const gm_stmt_ctx *st, TSNode stmt, const gm_stmt_layout *layout,
                            gm_text_builder *tb) {
    uint32_t end = ts_node_end_byte(stmt);
    for (uint32_t at = ts_node_start_byte(stmt); at < end; at++) {
        gm_tb_append(tb, st->text + at, 1);
        if (gm_ends_line(st->text, st->len, at) && at + 1 < end && st->text[at + 1] != '\n' &&
            st->text[at + 1] != '\r' && !gm_mend_inside_string(st->syntax, stmt, at))
            gm_tb_append(tb, layout->unit, layout->unit_len);
    }
}

/* Whether the guard may import torch itself: the module's imports come before the statement
 * (the import goes after them, as setting lines do) and the statement does not use the name
 * torch for something else. */
static bool may_import_torch(const gm_stmt_ctx *st) {
    gm_stmt_layout top;
    gm_stmt_layout_of(st->text, st->len, st->top, &top);
    gm_slice torch = {"torch", 5};
    return top.indent.len == 0 && top.line_start == ts_node_start_byte(st->top) &&
           gm_module_head_end(st->syntax, st->text, st->len, ts_node_parent(st->top)) <=
               top.line_start &&
           !gm_text_has_word(st->text, ts_node_start_byte(st->top), ts_node_end_byte(st->top),
                             torch);
}

/* The eager-only guard, when the call is a whole statement alone on its lines in a block. A
 * file that does not import torch gets `import torch` after its imports (a line every such mend
 * of the file inserts identically, which the fix applier takes once), unless it imports torch
 * under `if TYPE_CHECKING:` only: such a module keeps torch optional. */
static int eager_only(gm_region *region, TSNode call, gm_fix *out) {
    const gm_stmt_ctx *st = region->stmt;
    const char *alias = st->symbols->torch_alias;
    TSNode stmt = ts_node_parent(call);
    bool import_torch = !alias;
    if (import_torch && (st->symbols->torch_type_checking_only || !may_import_torch(st))) {
        region->mend_declined = gm_mend_no_torch_reason(region->stmt);
        return 0;
    }
    if (import_torch)
        alias = "torch";
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
    append_indented(st, stmt, &layout, &tb);
    int rc = gm_mend_fix_single(out, GM_FIX_UNSAFE, "run the call only in eager mode",
                                import_torch ? "Mend graph break: run the call only in eager mode "
                                               "(skipped under torch.compile; imports torch)"
                                             : "Mend graph break: run the call only in eager mode "
                                               "(skipped under torch.compile)",
                                ts_node_start_byte(stmt), ts_node_end_byte(stmt), gm_tb_take(&tb));
    if (rc == 1 && import_torch) {
        gm_stmt_layout top;
        gm_stmt_layout_of(st->text, st->len, st->top, &top);
        uint32_t at = top.line_start;
        char line_text[16];
        snprintf(line_text, sizeof line_text, "import torch%s", layout.newline);
        char *line = strdup(line_text);
        if (gm_mend_fix_add_edit(out, at, at, line) != 0) {
            gm_fix_free(out);
            memset(out, 0, sizeof *out);
            return -1;
        }
        out->edits[0].after_imports = true; /* the analyzer places it after the imports */
    }
    return rc;
}

int gm_mend_logging_call(gm_region *region, TSNode call, const char *name, gm_fix *out) {
    /* The safe mend, when it applies, makes the process-wide deferral pointless; its reason
     * for declining is the one the user sees when the unsafe ones apply neither. */
    int count = gm_mend_deferred_log(region, call, name, out);
    if (count == 0)
        count = deferred(region, call, name, out);
    if (count < 0)
        return -1;
    const char *safe_declined = region->mend_declined;
    int guard = eager_only(region, call, out + count);
    if (guard == 0 && count == 0 && !region->mend_declined)
        region->mend_declined = safe_declined;
    if (guard < 0) {
        for (int i = 0; i < count; i++)
            gm_fix_free(&out[i]);
        return -1;
    }
    return count + guard;
}
