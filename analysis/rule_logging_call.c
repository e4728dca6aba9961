/* Printing and logging beyond print: GM402 logger-call, a logging.Logger method called on a
 * module-level `name = logging.getLogger(...)` (GB0291 on torch 2.13), or a module-level
 * `logging.info(...)`-style function (torch 2.13 reports GB4841 "Unsupported python_type()
 * call" for those); GM403 warnings-warn, `warnings.warn(...)` (GB0007, `_warnings.warn` is a
 * skipped builtin). Names are matched after import resolution, and a name the function binds
 * locally shadows the module-level one. Under the reorderable_logging_functions and
 * ignore_logging_functions settings dynamo defers or drops the call instead
 * (gm_emit_logging_call). */
#include <stdio.h>
#include <string.h>

#include "mends.h"
#include "rule_emit.h"
#include "rules.h"
#include "symbols.h"

/* Logger methods, with the *_once ones libraries add (transformers' warning_once, info_once):
 * dynamo 2.13 reports GB0291 for them as for the rest. */
static const char *const log_methods[] = {"debug",        "info",      "warning",  "warn",
                                          "error",        "exception", "critical", "log",
                                          "warning_once", "info_once"};

static bool is_log_method(const char *name) {
    for (size_t i = 0; i < sizeof log_methods / sizeof log_methods[0]; i++)
        if (strcmp(name, log_methods[i]) == 0)
            return true;
    return false;
}

void gm_rule_logging_call(gm_region *region, TSNode call) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    TSNode head;
    TSNode fn = gm_call_target(syn, call, &head);
    if (ts_node_is_null(fn))
        return;
    char name[GM_NAME_MAX];
    if (!gm_symbols_resolve(st->symbols, syn, st->text, fn, name, sizeof name))
        return;
    const char *rule = NULL;
    const char *message = NULL;
    char logger_name[40]; /* "logging.Logger.<method>": what ignore_logging_functions names */
    char text[320];
    if (strcmp(name, "warnings.warn") == 0 &&
        gm_symbols_is_imported(st->symbols, gm_node_slice(head, st->text))) {
        rule = "GM403";
        message = "`warnings.warn()` call: torch.compile cannot trace the builtin "
                  "_warnings.warn and breaks the graph here";
    } else if (strncmp(name, "logging.", 8) == 0 && is_log_method(name + 8) &&
               gm_symbols_is_imported(st->symbols, gm_node_slice(head, st->text))) {
        rule = "GM402";
        message = "`logging` module function call: torch.compile does not trace the logging "
                  "module and breaks the graph here";
    } else if (gm_is(fn, syn->sym.attribute)) {
        TSNode object = gm_unparen(syn, gm_child(fn, syn->field.object));
        TSNode attr = gm_child(fn, syn->field.attribute);
        if (!gm_is(object, syn->sym.identifier) || ts_node_is_null(attr))
            return;
        gm_slice a = gm_node_slice(attr, st->text);
        char method[16];
        if (a.len >= sizeof method)
            return;
        memcpy(method, a.ptr, a.len);
        method[a.len] = '\0';
        if (!is_log_method(method) ||
            !gm_symbols_is_logger(st->symbols, gm_node_slice(object, st->text)))
            return;
        rule = "GM402";
        snprintf(logger_name, sizeof logger_name, "logging.Logger.%s", method);
        const char *config = gm_options_ignore_config_name(st->options);
        message = "`logging.Logger` method call: torch.compile does not support Logger methods "
                  "and breaks the graph here";
        if (config) {
            snprintf(text, sizeof text,
                     "%s (adding %s to torch._dynamo.config.%s drops the call "
                     "instead)",
                     message, logger_name, config);
            message = text;
        }
        strcpy(name, logger_name);
    } else {
        return;
    }
    if (gm_region_binds_node(region, head))
        return;
    gm_fix mends[GM_MENDS_MAX];
    int count = gm_mend_logging_call(region, call, name, mends);
    if (count < 0) {
        region->stmt->oom = true;
        return;
    }
    gm_emit_logging_call(region, gm_rule_by_id(rule), call, name, message, mends, (size_t)count);
}
