/* GM401 print-call (GB0059 "Failed to trace builtin operator"): the builtin print inside a
 * compiled region. Mend: run it only in eager mode, under
 * `if not torch.compiler.is_compiling():`, which dynamo folds to False and skips. Under the
 * reorderable_logging_functions and ignore_logging_functions settings dynamo defers or drops
 * the call instead (gm_emit_logging_call). */
#include <stdlib.h>
#include <string.h>

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

static bool is_blank(char c) {
    return c == ' ' || c == '\t';
}

/* The mend, when the call is a whole statement alone on its lines and torch is imported. */
static int build_mend(gm_region *region, TSNode call, gm_fix *fix) {
    const gm_stmt_ctx *st = region->stmt;
    const char *alias = st->symbols->torch_alias;
    TSNode stmt = ts_node_parent(call);
    if (!alias || !gm_is(stmt, st->syntax->sym.expression_statement) ||
        ts_node_start_byte(stmt) != ts_node_start_byte(call) ||
        ts_node_end_byte(stmt) != ts_node_end_byte(call) ||
        !gm_is(ts_node_parent(stmt), st->syntax->sym.block))
        return 0;
    uint32_t start = ts_node_start_byte(stmt), end = ts_node_end_byte(stmt);
    uint32_t line_start = start - ts_node_start_point(stmt).column;
    for (uint32_t p = line_start; p < start; p++)
        if (!is_blank(st->text[p]))
            return 0; /* another statement (or the block's header) precedes it on the line */
    uint32_t p = end;
    while (p < st->len && is_blank(st->text[p]))
        p++;
    if (p < st->len && st->text[p] != '\n' && st->text[p] != '\r' && st->text[p] != '#')
        return 0; /* `print(x); y = 1` */
    const char *indent = st->text + line_start;
    size_t indent_len = start - line_start;
    const char *unit = memchr(indent, '\t', indent_len) ? "\t" : "    ";
    static const char head[] = "if not ";
    static const char tail[] = ".compiler.is_compiling():\n";
    size_t body_len = end - start;
    size_t n = strlen(head) + strlen(alias) + strlen(tail) + indent_len + strlen(unit) + body_len;
    char *replacement = malloc(n + 1);
    if (!replacement)
        return -1;
    size_t at = 0;
#define GM_APPEND(ptr, len)                                                                        \
    do {                                                                                           \
        memcpy(replacement + at, (ptr), (len));                                                    \
        at += (len);                                                                               \
    } while (0)
    GM_APPEND(head, strlen(head));
    GM_APPEND(alias, strlen(alias));
    GM_APPEND(tail, strlen(tail));
    GM_APPEND(indent, indent_len);
    GM_APPEND(unit, strlen(unit));
    GM_APPEND(st->text + start, body_len);
#undef GM_APPEND
    replacement[at] = '\0';
    memset(fix, 0, sizeof *fix);
    fix->kind = GM_FIX_KIND_MEND;
    fix->applicability = GM_FIX_UNSAFE;
    fix->title = strdup("Mend graph break: run print only in eager mode (skipped under "
                        "torch.compile)");
    fix->edits = calloc(1, sizeof *fix->edits);
    if (!fix->title || !fix->edits) {
        free(replacement);
        free(fix->title);
        free(fix->edits);
        return -1;
    }
    fix->edits[0].start_byte = start;
    fix->edits[0].end_byte = end;
    fix->edits[0].replacement = replacement;
    fix->edit_count = 1;
    return 1;
}

void gm_rule_print_call(gm_region *region, TSNode call) {
    if (!is_builtin_print(region, call))
        return;
    gm_fix mend;
    int rc = build_mend(region, call, &mend);
    if (rc < 0) {
        region->stmt->oom = true;
        return;
    }
    gm_emit_logging_call(region, gm_rule_by_id("GM401"), call, "print",
                         "`print()` call: torch.compile cannot trace this builtin and breaks the "
                         "graph here; the code before and after runs as separate graphs",
                         rc ? &mend : NULL, (size_t)rc);
}
