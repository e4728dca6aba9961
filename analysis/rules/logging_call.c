/* Printing and logging beyond print: GM402 logger-call, a logging.Logger method called on a
 * logger (GB0291 on torch 2.13: every Logger method, isEnabledFor included, breaks), or a
 * module-level `logging.info(...)`-style function (torch 2.13 reports GB4841 "Unsupported
 * python_type() call" for those), or `logging.getLogger(name)` itself (dynamo cannot trace the
 * logger registry); GM403 warnings-warn, `warnings.warn(...)` (GB0007, `_warnings.warn` is a
 * skipped builtin). Names are matched after import resolution, and a name the function binds
 * locally shadows the module-level one. A logger is a module-level `name =
 * logging.getLogger(...)`, a getLogger call inline, a class attribute or an attribute __init__
 * sets read through self, or a local bound to one of these
 * (analysis/logging_calls/logger_bindings.c); a Logger method bound to a local (`warn =
 * self.log.warning; warn(...)`) breaks where it is called. Calls in the body of `if
 * logger.isEnabledFor(logging.DEBUG):` are not reported: dynamo breaks at the test and the body
 * does not run. Under the reorderable_logging_functions and ignore_logging_functions settings
 * dynamo defers or drops the call instead (gm_emit_logging_call). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/logging_calls/logger_bindings.h"
#include "analysis/mends/mends.h"
#include "analysis/module_facts/symbols.h"
#include "analysis/rules/emit.h"
#include "analysis/rules/rules.h"

/* logging.Logger's methods (sorted: bsearch), with the *_once ones libraries add (transformers'
 * warning_once, info_once): dynamo 2.13 reports GB0291 for any method call on a Logger. */
static const char *const logger_methods[] = {
    "addFilter",   "addHandler", "callHandlers",      "critical",
    "debug",       "error",      "exception",         "fatal",
    "findCaller",  "getChild",   "getEffectiveLevel", "handle",
    "hasHandlers", "info",       "info_once",         "isEnabledFor",
    "log",         "makeRecord", "removeFilter",      "removeHandler",
    "setLevel",    "warn",       "warning",           "warning_once"};

/* The logging module's functions that log through the root logger. */
static const char *const module_functions[] = {"debug",     "info",     "warning", "warn", "error",
                                               "exception", "critical", "fatal",   "log"};

static bool in_list(const char *const *list, size_t count, const char *name) {
    for (size_t i = 0; i < count; i++)
        if (strcmp(name, list[i]) == 0)
            return true;
    return false;
}

static int compare_name(const void *key, const void *item) {
    return strcmp(key, *(const char *const *)item);
}

static bool is_logger_method(const char *name) {
    return bsearch(name, logger_methods, sizeof logger_methods / sizeof logger_methods[0],
                   sizeof logger_methods[0], compare_name) != NULL;
}

/* The attribute name of an attribute callee into buf, or false when it does not fit. */
static bool attribute_name(const gm_stmt_ctx *st, TSNode attribute, char *buf, size_t cap) {
    TSNode attr = gm_child(attribute, st->syntax->field.attribute);
    if (ts_node_is_null(attr))
        return false;
    gm_slice a = gm_node_slice(attr, st->text);
    if (a.len >= cap)
        return false;
    memcpy(buf, a.ptr, a.len);
    buf[a.len] = '\0';
    return true;
}

/* Whether the getLogger call is the receiver of a Logger method call that the rule reports
 * (`logging.getLogger(name).warning(...)`): one finding for the line, at the outer call. */
static bool receiver_of_method_call(const gm_stmt_ctx *st, TSNode call) {
    const gm_syntax *syn = st->syntax;
    TSNode parent = ts_node_parent(call);
    while (gm_is(parent, syn->sym.parenthesized_expression))
        parent = ts_node_parent(parent);
    if (!gm_is(parent, syn->sym.attribute))
        return false;
    TSNode outer = ts_node_parent(parent);
    char method[24];
    return gm_is(outer, syn->sym.call) &&
           ts_node_eq(gm_unparen(syn, gm_child(outer, syn->field.function)), parent) &&
           attribute_name(st, parent, method, sizeof method) && is_logger_method(method);
}

static void emit_logger_method(gm_region *region, TSNode call, const char *method) {
    const gm_stmt_ctx *st = region->stmt;
    char logger_name[48]; /* "logging.Logger.<method>": what ignore_logging_functions names */
    char text[400], shown[72], plain[200];
    snprintf(logger_name, sizeof logger_name, "logging.Logger.%s", method);
    const char *config = gm_options_ignore_config_name(st->options);
    gm_node_shown(call, st->text, shown, sizeof shown);
    snprintf(plain, sizeof plain,
             "`%s`: torch.compile does not support `logging.Logger` methods and breaks the graph "
             "here",
             shown);
    const char *message = plain;
    if (config) {
        snprintf(text, sizeof text,
                 "%s (adding %s to torch._dynamo.config.%s drops the call "
                 "instead)",
                 message, logger_name, config);
        message = text;
    }
    if (gm_in_disabled_logging_guard(region, call))
        return;
    gm_fix mends[GM_MENDS_MAX];
    int count = gm_mend_logging_call(region, call, logger_name, mends);
    if (count < 0) {
        region->stmt->oom = true;
        return;
    }
    gm_emit_logging_call(region, gm_rule_by_id("GM402"), call, logger_name, message, mends,
                         (size_t)count);
}

void gm_rule_logging_call(gm_region *region, TSNode call) {

    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    TSNode callee = gm_unparen(syn, gm_child(call, syn->field.function));
    char method[24];
    /* `<logger>.<method>(...)` where the logger is no dotted name (getLogger(name).info) */
    if (gm_is(callee, syn->sym.attribute) &&
        gm_is(gm_unparen(syn, gm_child(callee, syn->field.object)), syn->sym.call)) {
        if (attribute_name(st, callee, method, sizeof method) && is_logger_method(method) &&
            gm_logger_expression(region, gm_child(callee, syn->field.object)))
            emit_logger_method(region, call, method);
        return;
    }
    TSNode head;
    TSNode fn = gm_call_target(syn, call, &head);
    if (ts_node_is_null(fn))
        return;
    char name[GM_NAME_MAX];
    if (!gm_symbols_resolve(st->symbols, syn, st->text, fn, name, sizeof name))
        return;
    bool imported = gm_symbols_is_imported(st->symbols, gm_node_slice(head, st->text));
    if (imported && strcmp(name, "warnings.warn") == 0) {
        if (gm_region_binds_node(region, head))
            return;
        gm_fix mends[GM_MENDS_MAX];
        int count = gm_mend_logging_call(region, call, name, mends);
        if (count < 0) {
            region->stmt->oom = true;
            return;
        }
        gm_emit_logging_call(region, gm_rule_by_id("GM403"), call, name,
                             "`warnings.warn()` call: torch.compile cannot trace the builtin "
                             "_warnings.warn and breaks the graph here",
                             mends, (size_t)count);
        return;
    }
    if (imported && strncmp(name, "logging.", 8) == 0 &&
        in_list(module_functions, sizeof module_functions / sizeof module_functions[0], name + 8)) {
        if (gm_region_binds_node(region, head) || gm_in_disabled_logging_guard(region, call))
            return;
        gm_fix mends[GM_MENDS_MAX];
        int count = gm_mend_logging_call(region, call, name, mends);
        if (count < 0) {
            region->stmt->oom = true;
            return;
        }
        gm_emit_logging_call(region, gm_rule_by_id("GM402"), call, name,
                             "`logging.function()` call: torch.compile does not trace the "
                             "logging module and breaks the graph here",
                             mends, (size_t)count);
        return;
    }
    if (imported && gm_logger_factory_name(name)) {
        /* getLogger() without a name returns the root logger without a registry lookup */
        TSNode args = gm_child(call, syn->field.arguments);
        if (!gm_is(args, syn->sym.argument_list) || ts_node_named_child_count(args) == 0 ||
            gm_region_binds_node(region, head) || receiver_of_method_call(st, call) ||
            gm_in_disabled_logging_guard(region, call))
            return;
        region->mend_declined = "the logger is created in compiled code; create it at module "
                                "level instead";
        gm_emit_finding_as_written(region, gm_rule_by_id("GM402"), call,
                        "`logging.getLogger()` call: torch.compile cannot trace the logging "
                        "module's logger registry and breaks the graph here",
                        NULL, 0);
        return;
    }
    if (gm_is(fn, syn->sym.attribute)) {
        if (attribute_name(st, fn, method, sizeof method) && is_logger_method(method) &&
            gm_logger_expression(region, gm_child(fn, syn->field.object)))
            emit_logger_method(region, call, method);
        return;
    }
    /* `warn = self.logger.warning` earlier in the function, then `warn(...)` */
    if (gm_logger_bound_method(region, fn, method, sizeof method) && is_logger_method(method))
        emit_logger_method(region, call, method);
}
