#include "rule_emit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "suppression.h"

static void fixes_free(gm_fix *fixes, size_t count) {
    for (size_t i = 0; i < count; i++)
        gm_fix_free(&fixes[i]);
}

static const char *consequence(const gm_region *region) {
    if (region->loop_depth > 0)
        return "; the break is inside a loop, so dynamo skips the frame and the whole function "
               "runs eagerly";
    if (region->try_depth > 0)
        return "; the break is inside try/with, so dynamo falls back to eager for the rest of "
               "the function";
    return "";
}

void gm_emit_finding(gm_region *region, const gm_rule *rule, TSNode node, const char *message,
                     gm_fix *fixes, size_t count) {
    gm_stmt_ctx *st = region->stmt;
    TSNode scopes[2] = {st->top, st->next};
    uint32_t start = ts_node_start_byte(node);
    TSPoint sp = ts_node_start_point(node), ep = ts_node_end_point(node);
    gm_finding f;
    memset(&f, 0, sizeof f);
    if (gm_line_suppresses(st->syntax, st->text, st->len, start, sp.column, scopes, 2, rule)) {
        fixes_free(fixes, count);
        return;
    }
    f.rule = rule;
    f.span.start_byte = start;
    f.span.end_byte = ts_node_end_byte(node);
    f.span.start.row = sp.row;
    f.span.start.column = sp.column;
    f.span.end.row = ep.row;
    f.span.end.column = ep.column;
    const char *suffix = consequence(region);
    size_t n = strlen(message) + strlen(suffix) + 1;
    f.message = malloc(n);
    f.fixes = calloc(count + 1, sizeof *f.fixes);
    if (!f.message || !f.fixes)
        goto oom;
    snprintf(f.message, n, "%s%s", message, suffix);
    if (count)
        memcpy(f.fixes, fixes, count * sizeof *fixes);
    f.fix_count = count;
    count = 0; /* owned by f from here */
    int rc = gm_suppress_fix(st->syntax, st->text, st->len, start, sp.column, scopes, 2, rule,
                             &f.fixes[f.fix_count]);
    if (rc < 0)
        goto oom;
    f.fix_count += (size_t)rc;
    if (gm_finding_list_push(st->out, &f) != 0)
        goto oom;
    return;
oom:
    fixes_free(fixes, count);
    gm_finding_free(&f);
    st->oom = true;
}
