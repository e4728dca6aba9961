/* GM507 disabled-function-call (GB0098 "Skip calling `torch.compiler.disable()`d function"): a
 * call, from a region, of a function torch.compiler.disable / torch._dynamo.disable wrapped.
 * Found: a same-file function decorated with it (`@torch.compiler.disable`,
 * `@disable(recursive=False)`, which torch 2.13 reports as GB0099), a module-level
 * `g = torch.compiler.disable(f)`, a method of the region's class decorated with it called on
 * self, and `torch.compiler.disable(f)(...)` written in the region. */
#include <stdio.h>
#include <string.h>

#include "analysis/module_facts/decorators.h"
#include "analysis/module_facts/symbols.h"
#include "analysis/rules/emit.h"
#include "analysis/rules/rules.h"

static bool names_disable(const gm_stmt_ctx *st, TSNode fn) {
    char name[GM_NAME_MAX];
    if (!gm_symbols_resolve(st->symbols, st->syntax, st->text, fn, name, sizeof name))
        return false;
    return strcmp(name, "torch.compiler.disable") == 0 ||
           strcmp(name, "torch._dynamo.disable") == 0;
}

/* The methods of the class around the region's method decorated with disable, into
 * region->disabled_methods: once per region, not at every `self.m(...)`. */
static void scan_disabled_methods(gm_region *region) {
    region->disabled_methods_scanned = true;
    gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    if (ts_node_is_null(region->site.class_node))
        return;
    TSNode body = gm_child(region->site.class_node, syn->field.body);
    if (!gm_is(body, syn->sym.block))
        return;
    TSTreeCursor cursor = ts_tree_cursor_new(body);
    bool more = ts_tree_cursor_goto_first_child(&cursor);
    for (; more; more = ts_tree_cursor_goto_next_sibling(&cursor)) {
        TSNode dd = ts_tree_cursor_current_node(&cursor);
        if (!gm_is(dd, syn->sym.decorated_definition))
            continue;
        TSNode def = gm_child(dd, syn->field.definition);
        if (!gm_is(def, syn->sym.function_definition))
            continue;
        for (uint32_t k = 0; k < ts_node_named_child_count(dd); k++) {
            TSNode d = ts_node_named_child(dd, k);
            if (gm_is(d, syn->sym.decorator) &&
                gm_decorator_classify(st->symbols, syn, st->text, d) == GM_DECORATOR_DISABLE) {
                if (gm_name_set_add(&region->disabled_methods,
                                    gm_node_slice(gm_child(def, syn->field.name), st->text)) != 0)
                    st->oom = true;
                break;
            }
        }
    }
    ts_tree_cursor_delete(&cursor);
}

/* Whether the class around the region's method defines method decorated with disable. */
static bool is_disabled_method(gm_region *region, gm_slice method) {
    if (!region->disabled_methods_scanned)
        scan_disabled_methods(region);
    return gm_name_set_has(&region->disabled_methods, method);
}

static void emit(gm_region *region, TSNode call, gm_slice name) {
    char message[GM_NAME_MAX + 200];
    snprintf(message, sizeof message,
             "call of `%.*s`, wrapped by torch.compiler.disable: torch.compile does not trace "
             "it, so it breaks the graph here and runs the function eagerly",
             (int)(name.len > GM_NAME_MAX ? GM_NAME_MAX : name.len), name.ptr);
    gm_emit_finding(region, gm_rule_by_id("GM507"), call, message, NULL, 0);
}

void gm_rule_disabled_call(gm_region *region, TSNode call) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    TSNode fn = gm_unparen(syn, gm_child(call, syn->field.function));
    if (gm_is(fn, syn->sym.call)) {
        /* torch.compiler.disable(f)(...) */
        if (names_disable(st, gm_unparen(syn, gm_child(fn, syn->field.function))))
            emit(region, call, gm_node_slice(fn, st->text));
        return;
    }
    if (gm_is(fn, syn->sym.attribute)) {
        TSNode obj = gm_child(fn, syn->field.object);
        gm_slice attr = gm_node_slice(gm_child(fn, syn->field.attribute), st->text);
        if (region->self_name.len > 0 && gm_is(obj, syn->sym.identifier) &&
            gm_slice_eq(gm_node_slice(obj, st->text), region->self_name) &&
            is_disabled_method(region, attr))
            emit(region, call, gm_node_slice(fn, st->text));
        return;
    }
    if (!gm_is(fn, syn->sym.identifier))
        return;
    gm_slice name = gm_node_slice(fn, st->text);
    if (gm_symbols_is_imported(st->symbols, name) || gm_region_binds_node(region, fn))
        return;
    const gm_module_scan *scan = gm_region_scan_module(region);
    for (unsigned i = 0; i < scan->disabled_count; i++)
        if (gm_slice_eq(scan->disabled[i], name)) {
            emit(region, call, name);
            return;
        }
}
