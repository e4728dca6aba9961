#include "analysis/rules/emit.h"

#include "analysis/module_facts/decorators.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/findings/suppression.h"
#include "analysis/module_facts/decorators.h"
#include "analysis/value_kinds/value_kinds.h"

static void fixes_free(gm_fix *fixes, size_t count) {
    for (size_t i = 0; i < count; i++)
        gm_fix_free(&fixes[i]);
}

/* What the break does to the compiled code. On torch 2.13 (checked with explain) a break in a
 * loop skips the frame with or without nested graph breaks. One in try/with: without nested
 * breaks a called function is skipped and its caller resumes after the call; with them the
 * caller is not resumed either (explain: step_unsupported, compiled up to the last resumable
 * point). */
/* Whether the region is the getter of a @property: dynamo inlines it into the function that
 * reads the attribute, and cannot break at that read (a LOAD_ATTR, not a call). */
static bool in_property_getter(const gm_region *region) {
    const gm_syntax *syn = region->stmt->syntax;
    TSNode decorated = ts_node_parent(region->site.function);
    return !region->site.nested && gm_is(decorated, syn->sym.decorated_definition) &&
           gm_decorators_have_plain_property(syn, region->stmt->text, decorated);
}

static const char *consequence(const gm_region *region, bool fullgraph) {
    if (fullgraph)
        return "; with fullgraph=True this is an error: compiling raises "
               "torch._dynamo.exc.Unsupported instead of splitting the graph";
    if (in_property_getter(region))
        return "; it is in a property's getter, which dynamo inlines where the property is "
               "read and cannot resume after a break in, so the function that reads it runs "
               "eagerly from the read on";
    if (region->loop_depth > region->comprehension_frame_depth)
        return "; the break is inside a loop, so dynamo skips the frame and the whole function "
               "runs eagerly";
    if (region->loop_depth > 0 && region->try_depth == 0)
        return "; the break is inside a comprehension, which before Python 3.12 is a frame of "
               "its own: dynamo runs the comprehension eagerly and resumes the function after it";
    if (region->try_depth > 0 && gm_options_nested_graph_breaks(region->stmt->options))
        return "; the break is inside try/with, so dynamo cannot resume after it and runs this "
               "function eagerly; with nested graph breaks a compiled caller also runs eagerly "
               "from the call on";
    if (region->try_depth > 0)
        return "; the break is inside try/with, so dynamo falls back to eager for the rest of "
               "the function";
    return "";
}

/* The length of message without the rule's own consequence clause ("; the code before and
 * after runs as separate graphs", " and cannot resume after this break, ..."), which
 * fullgraph or a property getter replaces. */
static size_t message_core(const char *message, bool cut_consequence) {
    static const char *const markers[] = {"; ", " and cannot resume"};
    size_t core = strlen(message);
    for (size_t i = 0; cut_consequence && i < sizeof markers / sizeof markers[0]; i++) {
        const char *cut = strstr(message, markers[i]);
        if (cut && (size_t)(cut - message) < core)
            core = (size_t)(cut - message);
    }
    while (core > 0 && (message[core - 1] == ',' || message[core - 1] == ' '))
        core--;
    return core;
}

void gm_emit_finding(gm_region *region, const gm_rule *rule, TSNode node, const char *message,
                     gm_fix *fixes, size_t count) {
    gm_stmt_ctx *st = region->stmt;
    TSNode scopes[2] = {st->top, st->next};
    uint32_t start = ts_node_start_byte(node);
    TSPoint sp = ts_node_start_point(node), ep = ts_node_end_point(node);
    gm_finding f;
    memset(&f, 0, sizeof f);
    const char *declined = region->mend_declined;
    const char *dtypes = region->only_when_dtypes;
    const char *condition = region->only_when_condition;
    region->mend_declined = NULL;
    region->only_when_dtypes = NULL;
    region->only_when_condition = NULL;
    /* a tensor only when a method of the file's classes returns one on the call's path: the
     * finding says so, beside any Python test that guards it */
    char returns[160], joined[1024], note[800] = "", guarded[480];
    /* in the right operand of `and`/`or`: only when the left one lets Python get there */
    if (region->short_circuit[0]) {
        if (condition)
            snprintf(guarded, sizeof guarded, "%s, and %s", region->short_circuit, condition);
        else
            snprintf(guarded, sizeof guarded, "%s", region->short_circuit);
        condition = guarded;
        snprintf(note, sizeof note,
                 " (only when `%s` holds: otherwise Python's `and`/`or` stops before it and "
                 "nothing breaks)",
                 region->short_circuit);
    }
    /* in the branch of an `isinstance(x, torch.Tensor)` test, x not known for a tensor */
    char typed[sizeof region->type_guard + 8 + 480];
    if (region->type_guard[0]) {
        if (condition)
            snprintf(typed, sizeof typed, "%s, and %s", region->type_guard, condition);
        else
            snprintf(typed, sizeof typed, "%s", region->type_guard);
        condition = typed;
        size_t at = strlen(note);
        snprintf(note + at, sizeof note - at,
                 " (only when `%s` holds: dynamo knows the type while it traces and takes this "
                 "branch only for a tensor)",
                 region->type_guard);
    }
    if (region->conditional_calls > 0 &&
        gm_kinds_conditional_tensor(region, node, returns, sizeof returns)) {
        if (condition)
            snprintf(joined, sizeof joined, "%s, and %s", condition, returns);
        else
            snprintf(joined, sizeof joined, "%s", returns);
        condition = joined;
        size_t at = strlen(note);
        snprintf(note + at, sizeof note - at,
                 " (only when %s, as a method of this file's classes does on some paths: "
                 "on others it returns a Python value and nothing breaks)",
                 returns);
    }
    /* reached only from a library's entry point: the break holds when a user compiles it */
    char entered[GM_NAME_MAX * 2 + sizeof joined + 32];
    if (region->site.entry) {
        if (condition)
            snprintf(entered, sizeof entered, "%s is compiled, and %s", region->site.entry,
                     condition);
        else
            snprintf(entered, sizeof entered, "%s is compiled", region->site.entry);
        condition = entered;
        size_t at = strlen(note);
        snprintf(note + at, sizeof note - at, " (when `%s` is compiled)", region->site.entry);
    }
    bool fullgraph = gm_options_fullgraph(st->options, region->site.fullgraph);
    if (gm_options_fullgraph_traces(st->options, fullgraph, rule)) {
        fixes_free(fixes, count);
        return;
    }
    f.suppressed =
        gm_line_suppresses(st->syntax, st->text, st->len, start, sp.column, scopes, 2, rule);
    if (!f.suppressed && region->comprehension_frame_depth > 0 &&
        gm_analysis_rule_enabled(st->options, rule))
        region->comprehension_frame_ended = true;
    f.rule = rule;
    f.span.start_byte = start;
    f.span.end_byte = ts_node_end_byte(node);
    f.span.start.row = sp.row;
    f.span.start.column = sp.column;
    f.span.end.row = ep.row;
    f.span.end.column = ep.column;
    if (fullgraph)
        f.severity = GM_SEVERITY_ERROR;
    const char *suffix = consequence(region, fullgraph);
    /* a consequence of the region's own replaces the rule's "code before and after" */
    size_t core = message_core(message, fullgraph || in_property_getter(region));
    size_t n = core + strlen(note) + strlen(suffix) + 1;
    f.message = malloc(n);
    f.fixes = calloc(count + 1, sizeof *f.fixes);
    if (!f.message || !f.fixes)
        goto oom;
    snprintf(f.message, n, "%.*s%s%s", (int)core, message, note, suffix);
    /* a setting line shown for the whole process (display only) mends no code: why the code
     * itself is not rewritten is still said */
    bool rewrites = false;
    for (size_t i = 0; i < count; i++)
        rewrites |= fixes[i].applicability != GM_FIX_DISPLAY_ONLY;
    if (declined && !rewrites && !(f.mend_declined = strdup(declined)))
        goto oom;
    /* every finding without a mend says why and what to do instead: the rule's own advice
     * where the rule has no rewrite at all */
    if (!declined && count == 0 && rule->hint) {
        static const char lead[] = "graphmend has no rewrite for this construct; instead: ";
        size_t m = sizeof lead + strlen(rule->hint);
        if (!(f.mend_declined = malloc(m)))
            goto oom;
        snprintf(f.mend_declined, m, "%s%s", lead, rule->hint);
    }
    if (dtypes && !(f.only_when_dtypes = strdup(dtypes)))
        goto oom;
    if (condition && !(f.only_when_condition = strdup(condition)))
        goto oom;
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

void gm_emit_logging_call(gm_region *region, const gm_rule *rule, TSNode call, const char *name,
                          const char *message, gm_fix *fixes, size_t count) {
    gm_log_outcome outcome = gm_logging_call_outcome(region, call, name);
    if (outcome == GM_LOG_DROPPED || outcome == GM_LOG_DEFERRED) {
        fixes_free(fixes, count);
        region->mend_declined = NULL;
        return;
    }
    if (outcome == GM_LOG_BREAKS) {
        gm_emit_finding_as_written(region, rule, call, message, fixes, count);
        return;
    }
    char text[512];
    snprintf(text, sizeof text,
             "`%s()` call: it is in reorderable_logging_functions, but torch.compile defers only "
             "calls whose arguments are tensors, constants and format strings, and this one's "
             "are not, so it breaks the graph here (GB0296 \"attempted to reorder a debugging "
             "function that can't actually be reordered\")",
             name);
    gm_emit_finding_as_written(region, rule, call, text, fixes, count);
}

void gm_tensor_operand_note(gm_region *region, TSNode operand, char *out, size_t cap) {
    char because[200];
    if (cap == 0)
        return;
    out[0] = '\0';
    if (gm_kinds_tensor_because(region, operand, because, sizeof because))
        snprintf(out, cap, " (%s)", because);
}

void gm_emit_finding_as_written(gm_region *region, const gm_rule *rule, TSNode node,
                                const char *message, gm_fix *fixes, size_t count) {
    const char *close = message[0] == '`' ? strchr(message + 1, '`') : NULL;
    if (!close) {
        gm_emit_finding(region, rule, node, message, fixes, count);
        return;
    }
    char shown[GM_SHOWN_SIZE], named[1024];
    gm_node_shown(node, region->stmt->text, shown, sizeof shown);
    snprintf(named, sizeof named, "`%s%s", shown, close);
    gm_emit_finding(region, rule, node, named, fixes, count);
}
