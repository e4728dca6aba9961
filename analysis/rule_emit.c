#include "rule_emit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logging_config.h"
#include "suppression.h"
#include "value_kinds.h"

static void fixes_free(gm_fix *fixes, size_t count) {
    for (size_t i = 0; i < count; i++)
        gm_fix_free(&fixes[i]);
}

/* What the break does to the compiled code. On torch 2.13 (checked with explain) a break in a
 * loop skips the frame with or without nested graph breaks. One in try/with: without nested
 * breaks a called function is skipped and its caller resumes after the call; with them the
 * caller is not resumed either (explain: step_unsupported, compiled up to the last resumable
 * point). */
static const char *consequence(const gm_region *region, bool fullgraph) {
    if (fullgraph)
        return "; with fullgraph=True this is an error: compiling raises "
               "torch._dynamo.exc.Unsupported instead of splitting the graph";
    if (region->loop_depth > 0)
        return "; the break is inside a loop, so dynamo skips the frame and the whole function "
               "runs eagerly";
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
 * fullgraph replaces. */
static size_t message_core(const char *message, bool fullgraph) {
    static const char *const markers[] = {"; ", " and cannot resume"};
    size_t core = strlen(message);
    for (size_t i = 0; fullgraph && i < sizeof markers / sizeof markers[0]; i++) {
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
    region->mend_declined = NULL;
    bool fullgraph = gm_options_fullgraph(st->options, region->site.fullgraph);
    if (gm_options_fullgraph_traces(st->options, fullgraph, rule) ||
        gm_line_suppresses(st->syntax, st->text, st->len, start, sp.column, scopes, 2, rule)) {
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
    if (fullgraph)
        f.severity = GM_SEVERITY_ERROR;
    const char *suffix = consequence(region, fullgraph);
    size_t core = message_core(message, fullgraph);
    size_t n = core + strlen(suffix) + 1;
    f.message = malloc(n);
    f.fixes = calloc(count + 1, sizeof *f.fixes);
    if (!f.message || !f.fixes)
        goto oom;
    snprintf(f.message, n, "%.*s%s", (int)core, message, suffix);
    if (declined && count == 0 && !(f.mend_declined = strdup(declined)))
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

static bool is_literal(const gm_syntax *syn, TSNode n) {
    n = gm_unparen(syn, n);
    if (gm_is(n, syn->sym.string)) {
        for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
            if (strcmp(ts_node_type(ts_node_named_child(n, i)), "interpolation") == 0)
                return false;
        return true;
    }
    return gm_is(n, syn->sym.integer) || gm_is(n, syn->sym.float_literal) ||
           gm_is(n, syn->sym.true_literal) || gm_is(n, syn->sym.false_literal) ||
           gm_is(n, syn->sym.none) || gm_is(n, syn->sym.concatenated_string) ||
           (gm_is(n, syn->sym.unary_operator) && is_literal(syn, gm_child(n, syn->field.argument)));
}

/* Builtin classes users pass to logging calls (warnings.warn(msg, UserWarning)): dynamo holds
 * them as class variables, which it cannot defer. */
static const char *const builtin_classes[] = {
    "Warning",
    "UserWarning",
    "DeprecationWarning",
    "FutureWarning",
    "RuntimeWarning",
    "SyntaxWarning",
    "PendingDeprecationWarning",
    "ImportWarning",
    "UnicodeWarning",
    "BytesWarning",
    "ResourceWarning",
    "Exception",
    "ValueError",
    "RuntimeError",
    "TypeError",
    "str",
    "int",
    "float",
    "object",
    "type",
};

/* Whether dynamo 2.13 can defer an argument of value arg: it must become a tensor, a constant
 * or a str.format() result. What is not known to fail counts as deferrable. */
static bool deferrable_argument(gm_region *region, TSNode arg) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    arg = gm_unparen(syn, arg);
    if (ts_node_is_null(arg))
        return true;
    TSSymbol t = ts_node_symbol(arg);
    const gm_syntax_symbols *s = &syn->sym;
    if (t == s->list || t == s->tuple || t == s->dictionary || t == s->set ||
        t == s->list_comprehension || t == s->dictionary_comprehension ||
        t == s->set_comprehension || t == s->generator_expression || t == s->lambda)
        return false;
    if (t == s->identifier) {
        gm_slice name = gm_node_slice(arg, st->text);
        if (region->self_name.len && name.len == region->self_name.len &&
            memcmp(name.ptr, region->self_name.ptr, name.len) == 0)
            return false; /* the module object */
        for (size_t i = 0; i < sizeof builtin_classes / sizeof builtin_classes[0]; i++)
            if (gm_slice_is(name, builtin_classes[i]))
                return gm_region_binds_node(region, arg);
    }
    if (t == s->attribute) {
        TSNode attr = gm_child(arg, syn->field.attribute);
        if (gm_node_text_is(attr, st->text, "shape"))
            return false; /* torch.Size */
        char name[GM_NAME_MAX];
        if (gm_symbols_resolve(st->symbols, syn, st->text, arg, name, sizeof name) &&
            (strcmp(name, "sys.stdout") == 0 || strcmp(name, "sys.stderr") == 0))
            return false;
    }
    if (t == s->call) {
        TSNode fn = gm_child(arg, syn->field.function);
        TSNode args = gm_child(arg, syn->field.arguments);
        if (gm_is(fn, s->attribute) &&
            gm_node_text_is(gm_child(fn, syn->field.attribute), st->text, "size") &&
            ts_node_named_child_count(args) == 0)
            return false; /* t.size() is a torch.Size */
        if (gm_is(fn, s->identifier) &&
            (gm_node_text_is(fn, st->text, "str") || gm_node_text_is(fn, st->text, "repr")))
            return gm_region_binds_node(region, fn); /* str(tensor) breaks by itself */
    }
    if (t == s->binary_operator) {
        TSNode left = gm_unparen(syn, gm_child(arg, syn->field.left));
        if ((gm_is(left, s->string) || gm_is(left, s->concatenated_string)) &&
            gm_value_of(region, gm_child(arg, syn->field.right)).kind == GM_KIND_TENSOR)
            return false; /* "%s" % tensor */
    }
    if (gm_value_of(region, arg).kind != GM_KIND_SCALAR)
        return true;
    /* A captured .item() is a symbolic value dynamo cannot defer; an uncaptured one breaks
     * the graph itself and comes back as a constant. */
    const gm_analysis_options *options = st->options;
    bool fullgraph = gm_options_fullgraph(options, region->site.fullgraph);
    return !options->capture_scalar_outputs &&
           !gm_options_fullgraph_traces(options, fullgraph, gm_rule_by_id("GM201"));
}

/* Whether every argument of call (keyword values included) passes test. */
static bool all_arguments(gm_region *region, TSNode call, bool literal_only) {
    const gm_syntax *syn = region->stmt->syntax;
    TSNode args = gm_child(call, syn->field.arguments);
    if (!gm_is(args, syn->sym.argument_list))
        return !literal_only;
    for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
        TSNode arg = ts_node_named_child(args, i);
        if (gm_is(arg, syn->sym.comment))
            continue;
        if (gm_is(arg, syn->sym.keyword_argument))
            arg = gm_child(arg, syn->field.value);
        else if (strcmp(ts_node_type(arg), "list_splat") == 0 ||
                 strcmp(ts_node_type(arg), "dictionary_splat") == 0) {
            if (literal_only)
                return false;
            continue; /* unknown elements */
        }
        if (literal_only ? !is_literal(syn, arg) : !deferrable_argument(region, arg))
            return false;
    }
    return true;
}

bool gm_logging_arguments_deferrable(gm_region *region, TSNode call) {
    return all_arguments(region, call, false);
}

gm_log_outcome gm_logging_call_outcome(gm_region *region, TSNode call, const char *name) {
    const gm_analysis_options *options = region->stmt->options;
    bool logger_method = strncmp(name, "logging.Logger.", 15) == 0;
    /* dynamo looks a callee up in the reorderable set first; Logger methods never are on
     * 2.13 (a bound method is not a plain function). */
    if (!logger_method && (gm_options_reorders(options, name, all_arguments(region, call, true)) ||
                           gm_file_reorders_logging(region->stmt, name)))
        return all_arguments(region, call, false) ? GM_LOG_DEFERRED : GM_LOG_NOT_DEFERRABLE;
    if (gm_options_ignores(options, name))
        return GM_LOG_DROPPED;
    return GM_LOG_BREAKS;
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
        gm_emit_finding(region, rule, call, message, fixes, count);
        return;
    }
    char text[512];
    snprintf(text, sizeof text,
             "`%s()` call: it is in reorderable_logging_functions, but torch.compile defers only "
             "calls whose arguments are tensors, constants and format strings, and this one's "
             "are not, so it breaks the graph here (GB0296 \"attempted to reorder a debugging "
             "function that can't actually be reordered\"); the code before and after runs as "
             "separate graphs",
             name);
    gm_emit_finding(region, rule, call, text, fixes, count);
}
