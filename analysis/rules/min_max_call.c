/* GM611 min-max-iterator-keyword (GB0193 "invalid call to builtin op handler"): `max(...)` or
 * `min(...)` with a `default=` or `key=` keyword over an iterator, a generator expression or a
 * call of map, filter, zip or enumerate. torch 2.13's handler of the two builtins takes no
 * keyword with an iterator and breaks the graph; over a list, tuple, range or set it traces (the
 * mend makes the iterator a list). Over a generator expression dynamo cannot resume (it cannot
 * rebuild the generator on the stack) and runs the rest of the function eagerly. Checked one form
 * at a time on torch 2.13: a generator function or a dict view breaks too, but the call alone
 * does not say it is one. */
#include <stdio.h>
#include <string.h>

#include "analysis/mends/mends.h"
#include "analysis/module_facts/symbols.h"
#include "analysis/rules/emit.h"
#include "analysis/rules/rules.h"

static bool is_builtin_named(gm_region *region, TSNode fn, const char *const *names, size_t count) {
    const gm_stmt_ctx *st = region->stmt;
    if (!gm_is(fn, st->syntax->sym.identifier))
        return false;
    gm_slice name = gm_node_slice(fn, st->text);
    for (size_t i = 0; i < count; i++) {
        if (strlen(names[i]) != name.len || memcmp(names[i], name.ptr, name.len) != 0)
            continue;
        /* a name the module imports or the function binds is not the builtin */
        return !gm_symbols_is_imported(st->symbols, name) && !gm_region_binds(region, names[i]);
    }
    return false;
}

/* Whether argument is an iterator the call itself makes: a generator expression or a call of
 * the builtin map, filter, zip or enumerate. */
static bool is_iterator(gm_region *region, TSNode argument) {
    const gm_syntax *syn = region->stmt->syntax;
    if (gm_is(argument, syn->sym.generator_expression))
        return true;
    static const char *const makers[] = {"map", "filter", "zip", "enumerate"};
    return gm_is(argument, syn->sym.call) &&
           is_builtin_named(region, gm_unparen(syn, gm_child(argument, syn->field.function)),
                            makers, sizeof makers / sizeof makers[0]);
}

void gm_rule_min_max_call(gm_region *region, TSNode call) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    static const char *const builtins[] = {"max", "min"};
    TSNode fn = gm_unparen(syn, gm_child(call, syn->field.function));
    if (!is_builtin_named(region, fn, builtins, 2))
        return;
    TSNode args = gm_child(call, syn->field.arguments);
    if (ts_node_is_null(args) || !gm_is(args, syn->sym.argument_list))
        return;
    TSNode positional = {0}, keyword = {0};
    uint32_t positional_count = 0, count = ts_node_named_child_count(args);
    for (uint32_t i = 0; i < count; i++) {
        TSNode arg = ts_node_named_child(args, i);
        if (gm_is(arg, syn->sym.comment))
            continue;
        if (!gm_is(arg, syn->sym.keyword_argument)) {
            positional = arg;
            positional_count++;
            continue;
        }
        TSNode name = gm_child(arg, syn->field.name);
        if (gm_node_text_is(name, st->text, "default") || gm_node_text_is(name, st->text, "key"))
            keyword = arg;
    }
    if (positional_count != 1 || ts_node_is_null(keyword) || !is_iterator(region, positional))
        return;
    char message[320];
    snprintf(message, sizeof message,
             "`%s(<iterator>, %.*s=...)` call: torch.compile's min/max handler takes no keyword "
             "argument with an iterator (a generator expression, map, filter, zip or enumerate) "
             "and breaks the graph here",
             gm_node_text_is(fn, st->text, "max") ? "max" : "min",
             (int)gm_node_slice(gm_child(keyword, syn->field.name), st->text).len,
             gm_node_slice(gm_child(keyword, syn->field.name), st->text).ptr);
    gm_fix mends[GM_MENDS_MAX];
    int mended = gm_mend_iterator_to_list(region, positional, mends);
    if (mended < 0) {
        region->stmt->oom = true;
        return;
    }
    gm_emit_finding_as_written(region, gm_rule_by_id("GM611"), call, message, mends,
                               (size_t)mended);
    /* the generator is on the stack at the break, and dynamo cannot rebuild it to resume */
    if (gm_is(positional, syn->sym.generator_expression))
        gm_region_skip_frame(region, "GM611");
}
