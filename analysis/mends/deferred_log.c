/* [Defer] made safe, for GM402/GM403: a Logger method or warnings.warn called with a message
 * (and no tensor) in compiled code goes through a function of the file's own, which the file adds
 * to torch._dynamo.config.reorderable_logging_functions:
 *
 *     def _graphmend_logger_warning(*args):
 *         logger.warning(*args, stacklevel=2)
 *
 *
 *     torch._dynamo.config.reorderable_logging_functions.add(_graphmend_logger_warning)
 *
 * and the call becomes `_graphmend_logger_warning("...")`. Why this is equal where the unsafe
 * mends are not:
 * - eager: the function makes the same call; stacklevel=2 (warnings: the call's own level + 1)
 *   makes the record or warning point at the original line, as before. The *_once methods
 *   (transformers' lru_cache'd warning_once) get no stacklevel: their cache key stays the
 *   arguments and their record points into the library, as before.
 * - compiled: dynamo runs a reorderable function after the graph it is traced in, with the
 *   arguments' values (constants and strings only here: no tensor, which later in-place
 *   updates would change), before the code that follows the graph; where it cannot defer an
 *   argument it breaks and calls the function eagerly, as the original did. The message, its
 *   level, logger and category are the same, and its order against every other Python-visible
 *   effect too (a graph has none: anything with one breaks or is deferred in order). What
 *   moves is when, inside the graph, the message is written: it is lost only when the graph
 *   raises after the call, so calls inside try/with are declined (an exception caught there is
 *   control flow, not invalid input). Under compile the record's line number and function name
 *   are the compiled function's (its first line or a resume function), as they already are for
 *   the original's calls after a break.
 * - the setting names only the file's new function: unlike adding print or warnings.warn, it
 *   changes nothing else in the process.
 * Declined (the unsafe mends stay): keyword arguments (exc_info, stack_info, extra,
 * stacklevel of a Logger method), splats, a tensor argument or interpolation, Logger.exception
 * (it reads the exception being handled), Logger.warn (it warns about itself), a logger that is
 * not a module-level name, a category that is not a builtin warning class. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/logging_calls/logging_config.h"
#include "analysis/logging_calls/logging_outcome.h"
#include "analysis/mends/mends.h"
#include "analysis/mends/rewrite_text.h"
#include "analysis/mends/setting_suggestion.h"
#include "analysis/syntax/line_breaks.h"
#include "analysis/value_kinds/value_kinds.h"

/* Logger methods whose call the function repeats with the record pointing where it did. */
static const char *const stacked_methods[] = {"debug", "info", "warning", "error", "critical"};
/* transformers' lru_cache'd methods: called as they are, no stacklevel. */
static const char *const once_methods[] = {"warning_once", "info_once"};

/* The builtin warning classes a category may name (a class of the file or a library could be
 * rebound, or be no plain class, so the function could not hold it). */
static const char *const warning_classes[] = {
    "Warning",        "UserWarning",   "DeprecationWarning",        "FutureWarning",
    "RuntimeWarning", "SyntaxWarning", "PendingDeprecationWarning", "ImportWarning",
    "UnicodeWarning", "BytesWarning",  "ResourceWarning"};

#define COUNT(list) (sizeof(list) / sizeof(list)[0])

static bool in_list(const char *const *list, size_t count, gm_slice name) {
    for (size_t i = 0; i < count; i++)
        if (gm_slice_is(name, list[i]))
            return true;
    return false;
}

/* Whether n may hold a tensor: an operand or argument the analysis does not know to be a Python
 * value (a literal, an f-string, a static value such as a shape, or a Python scalar). Deferred,
 * a tensor (or a str.format() of one, which dynamo formats late) would be printed as it is at
 * the end of the graph. */
static bool may_hold_tensor(gm_region *region, TSNode n, int depth) {
    if (depth > 64)
        return true;
    if (!ts_node_is_named(n))
        return false;
    const gm_syntax *syn = region->stmt->syntax;
    const gm_syntax_symbols *s = &syn->sym;
    /* dynamo formats an f-string where it stands: a tensor in it breaks the graph there (as in
     * the original), anything else is text by the time the call is deferred */
    if (gm_is(n, s->string) || gm_is(n, s->concatenated_string))
        return false;
    if (gm_is(n, s->identifier) || gm_is(n, s->attribute) || gm_is(n, s->call) ||
        gm_is(n, s->subscript)) {
        gm_kind kind = gm_value_of(region, n).kind;
        return kind != GM_KIND_STATIC && kind != GM_KIND_SCALAR;
    }
    if (gm_is(n, s->lambda) || gm_is(n, s->list_comprehension) ||
        gm_is(n, s->generator_expression) || gm_is(n, s->dictionary_comprehension) ||
        gm_is(n, s->set_comprehension))
        return true;
    for (uint32_t i = 0; i < ts_node_named_child_count(n); i++)
        if (may_hold_tensor(region, ts_node_named_child(n, i), depth + 1))
            return true;
    return false;
}

/* Whether the call is a statement of its own inside its function, outside try and with (a
 * message deferred there would be lost when the graph raises an exception the code handles). */
static const char *placement_problem(const gm_syntax *syn, TSNode call) {
    TSNode stmt = ts_node_parent(call);
    if (!gm_is(stmt, syn->sym.expression_statement) ||
        ts_node_start_byte(stmt) != ts_node_start_byte(call) ||
        ts_node_end_byte(stmt) != ts_node_end_byte(call))
        return "the call's value is used (it is not a statement of its own)";
    for (TSNode n = ts_node_parent(stmt); !ts_node_is_null(n); n = ts_node_parent(n)) {
        if (gm_is(n, syn->sym.function_definition))
            return NULL;
        if (gm_is(n, syn->sym.try_statement) || gm_is(n, syn->sym.with_statement))
            return "the call is inside try or with: deferred to the graph's end, its message "
                   "would be lost when the graph raises an exception that code handles";
    }
    return NULL;
}

typedef struct {
    TSNode message_args[8]; /* the arguments the new function receives, in order */
    size_t count;
    gm_slice category;      /* warnings: the class, or empty for UserWarning's default */
    long stacklevel;        /* warnings: the call's own level (default 1) */
} call_shape;

/* Splits the call's arguments; NULL when they fit, else why not. Logger methods take
 * positional arguments only; warnings.warn(message[, category][, stacklevel]), the last two
 * positional or by keyword. */
static const char *read_arguments(gm_region *region, TSNode call, bool warning, call_shape *out) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    memset(out, 0, sizeof *out);
    out->stacklevel = 1;
    TSNode args = gm_child(call, syn->field.arguments);
    if (!gm_is(args, syn->sym.argument_list))
        return "the call has no argument list";
    size_t positional = 0;
    for (uint32_t i = 0; i < ts_node_named_child_count(args); i++) {
        TSNode arg = ts_node_named_child(args, i);
        if (gm_is(arg, syn->sym.comment)) {
            if (warning)
                return "a comment sits among the call's arguments, which the mend rewrites";
            continue;
        }
        const char *type = ts_node_type(arg);
        if (strcmp(type, "list_splat") == 0 || strcmp(type, "dictionary_splat") == 0)
            return "the call passes * or ** arguments, which the analysis cannot see";
        TSNode value = arg;
        gm_slice keyword = {0};
        if (gm_is(arg, syn->sym.keyword_argument)) {
            keyword = gm_node_slice(gm_child(arg, syn->field.name), st->text);
            value = gm_child(arg, syn->field.value);
            if (!warning)
                return "the call passes keyword arguments (exc_info, stack_info, extra, "
                       "stacklevel), which the deferred call would change";
        }
        bool is_category = warning && (keyword.len ? gm_slice_is(keyword, "category")
                                                   : positional == 1);
        bool is_level = warning && (keyword.len ? gm_slice_is(keyword, "stacklevel")
                                                : positional == 2);
        if (!keyword.len)
            positional++;
        if (is_category) {
            value = gm_unparen(syn, value);
            gm_slice name = gm_node_slice(value, st->text);
            if (!gm_is(value, syn->sym.identifier) ||
                !in_list(warning_classes, COUNT(warning_classes), name) ||
                gm_region_binds_node(region, value) ||
                gm_symbols_is_imported(st->symbols, name))
                return "the warning's category is not a builtin warning class";
            out->category = name;
            continue;
        }
        if (is_level) {
            value = gm_unparen(syn, value);
            gm_slice level = gm_node_slice(value, st->text);
            if (!gm_is(value, syn->sym.integer) || level.len > 3)
                return "the warning's stacklevel is not a small integer literal";
            out->stacklevel = strtol(level.ptr, NULL, 10);
            continue;
        }
        if (keyword.len || (warning && positional > 1))
            return "the call passes an argument the deferred call would not keep";
        if (out->count == sizeof out->message_args / sizeof out->message_args[0])
            return "the call passes too many arguments";
        if (may_hold_tensor(region, value, 0))
            return "an argument may be a tensor (the analysis cannot tell it is a Python "
                   "value): deferred, it would be printed with the values it has at the end of "
                   "the graph";
        out->message_args[out->count++] = value;
    }
    if (out->count == 0)
        return "the call passes no message";
    return NULL;
}

/* The new function's name into buf: _graphmend_<logger>_<method>, or
 * _graphmend_warn_<Category>[_<stacklevel>]. */
static void function_name(const call_shape *shape, gm_slice logger, gm_slice method, char *buf,
                          size_t cap) {
    if (logger.len) {
        snprintf(buf, cap, "_graphmend_%.*s_%.*s", (int)logger.len, logger.ptr, (int)method.len,
                 method.ptr);
        return;
    }
    int n = snprintf(buf, cap, "_graphmend_warn%s%.*s", shape->category.len ? "_" : "",
                     (int)shape->category.len, shape->category.ptr);
    if (shape->stacklevel != 1 && n > 0 && (size_t)n < cap)
        snprintf(buf + n, cap - (size_t)n, "_%ld", shape->stacklevel);
}


int gm_mend_deferred_log(gm_region *region, TSNode call, const char *name, gm_fix *out) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    const char *alias = st->symbols->torch_alias;
    bool warning = strcmp(name, "warnings.warn") == 0;
    bool logger_method = strncmp(name, "logging.Logger.", 15) == 0;
    if (!alias || (!warning && !logger_method) || st->options->torch_version < 203 ||
        gm_logging_call_outcome(region, call, name) != GM_LOG_BREAKS)
        return 0;
    const char *why = placement_problem(syn, call);
    TSNode callee = gm_unparen(syn, gm_child(call, syn->field.function));
    gm_slice logger = {0}, method = {0};
    if (!why && logger_method) {
        TSNode object = gm_is(callee, syn->sym.attribute)
                            ? gm_unparen(syn, gm_child(callee, syn->field.object))
                            : (TSNode){0};
        TSNode attribute = gm_is(callee, syn->sym.attribute)
                               ? gm_child(callee, syn->field.attribute)
                               : (TSNode){0};
        if (!ts_node_is_null(attribute))
            method = gm_node_slice(attribute, st->text);
        bool once = in_list(once_methods, COUNT(once_methods), method);
        if (ts_node_is_null(attribute) || !gm_is(object, syn->sym.identifier) ||
            gm_region_binds_node(region, object))
            why = "the logger is not a module-level name the new function could call";
        else if (!once &&
                 !in_list(stacked_methods, COUNT(stacked_methods), method))
            why = "Logger.exception reads the exception being handled and Logger.warn warns "
                  "about itself; only debug, info, warning, error, critical and the *_once "
                  "methods are deferred";
        else
            logger = gm_node_slice(object, st->text);
    }
    if (!why && warning) {
        TSNode head = callee;
        while (gm_is(head, syn->sym.attribute))
            head = gm_child(head, syn->field.object);
        if (!gm_is(head, syn->sym.identifier) || gm_region_binds_node(region, head) ||
            !gm_symbols_is_imported(st->symbols, gm_node_slice(head, st->text)))
            why = "warnings.warn is not reached through a module-level import";
    }
    call_shape shape;
    if (!why)
        why = read_arguments(region, call, warning, &shape);
    gm_stmt_layout top;
    gm_stmt_layout_of(st->text, st->len, st->top, &top);
    if (!why && (top.indent.len != 0 || top.line_start != ts_node_start_byte(st->top) ||
                 gm_module_head_end(syn, st->text, st->len, ts_node_parent(st->top)) >
                     top.line_start))
        why = "the module's imports do not all come before the function, so the new function "
              "has no place after them";
    if (!why && !gm_mend_torch_bound_at_import(st, top.line_start))
        why = "torch is not imported at the top of the module (only under a condition or inside "
              "functions), and the setting the mend adds needs it when the module is imported";
    if (why) {
        region->mend_declined = why;
        return 0;
    }
    char fn[96];
    function_name(&shape, logger, method, fn, sizeof fn);
    gm_slice fn_slice = {fn, strlen(fn)};
    /* The file already has the function (a call mended before): only the call changes. A
     * name the file uses otherwise is left alone. */
    bool defined = gm_file_reorders_logging(st, fn);
    if (!defined && gm_text_has_word(st->text, 0, st->len, fn_slice)) {
        region->mend_declined = "the name of the function the mend would add is taken";
        return 0;
    }
    const char *nl = top.newline;
    /* A Logger call keeps its argument list as written (comments, line breaks): only the
     * callee changes. A warning loses its category and stacklevel, which the function holds. */
    gm_text_builder call_text;
    gm_tb_init(&call_text);
    uint32_t end = ts_node_end_byte(call);
    if (logger.len) {
        gm_tb_append_str(&call_text, fn);
        end = ts_node_end_byte(callee);
    } else {
        gm_tb_appendf(&call_text, "%s(", fn);
        for (size_t i = 0; i < shape.count; i++) {
            if (i)
                gm_tb_append_str(&call_text, ", ");
            gm_tb_append_node(&call_text, st->text, shape.message_args[i]);
        }
        gm_tb_append_str(&call_text, ")");
    }
    char title[360];
    snprintf(title, sizeof title,
             "Mend graph break: call a function of this file that dynamo runs after the graph "
             "(%s, added to torch._dynamo.config.reorderable_logging_functions; the message is "
             "the same)",
             fn);
    int rc = gm_mend_fix_single(out, GM_FIX_SAFE, "defer through a file function", title,
                                ts_node_start_byte(call), end, gm_tb_take(&call_text));
    if (rc != 1 || defined)
        return rc;
    gm_text_builder block;
    gm_tb_init(&block);
    gm_tb_appendf(&block, "%s%sdef %s(%s):%s", nl, nl, fn, logger.len ? "*args" : "message", nl);
    gm_tb_append(&block, top.unit, top.unit_len);
    if (logger.len) {
        bool once = in_list(once_methods, COUNT(once_methods), method);
        gm_tb_appendf(&block, "%.*s.%.*s(*args%s)%s", (int)logger.len, logger.ptr,
                      (int)method.len, method.ptr, once ? "" : ", stacklevel=2", nl);
    } else {
        gm_tb_append_node(&block, st->text, callee);
        gm_tb_append_str(&block, "(message");
        if (shape.category.len)
            gm_tb_appendf(&block, ", %.*s", (int)shape.category.len, shape.category.ptr);
        gm_tb_appendf(&block, ", stacklevel=%ld)%s", shape.stacklevel + 1, nl);
    }
    gm_tb_appendf(&block, "%s%s%s._dynamo.config.reorderable_logging_functions.add(%s)%s", nl, nl,
                  alias, fn, nl);
    uint32_t at = top.line_start;
    if (gm_mend_fix_add_edit(out, at, at, gm_tb_take(&block)) != 0) {
        gm_fix_free(out);
        memset(out, 0, sizeof *out);
        return -1;
    }
    out->edits[0].after_imports = true; /* the analyzer places it after the imports */
    return rc;
}
