#include "analysis/logging_calls/logging_outcome.h"

#include <string.h>

#include "analysis/logging_calls/logging_config.h"
#include "analysis/value_kinds/value_kinds.h"

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
