#include "compiled_regions.h"

#include <string.h>

static bool is_compile_name(const char *name) {
    return strcmp(name, "torch.compile") == 0 || strcmp(name, "torch._dynamo.optimize") == 0;
}

static bool is_disable_name(const char *name) {
    return strcmp(name, "torch.compiler.disable") == 0 ||
           strcmp(name, "torch._dynamo.disable") == 0;
}

gm_decorator_kind gm_decorator_classify(const gm_symbols *symbols, const gm_syntax *syntax,
                                        const char *text, TSNode decorator) {
    if (ts_node_named_child_count(decorator) == 0)
        return GM_DECORATOR_OTHER;
    TSNode expr = gm_unparen(syntax, ts_node_named_child(decorator, 0));
    char name[GM_NAME_MAX];
    TSNode callee = expr;
    if (gm_is(expr, syntax->sym.call))
        callee = gm_child(expr, syntax->field.function);
    if (!gm_symbols_resolve(symbols, syntax, text, callee, name, sizeof name))
        return GM_DECORATOR_OTHER;
    if (is_compile_name(name))
        return GM_DECORATOR_COMPILE;
    if (is_disable_name(name))
        return GM_DECORATOR_DISABLE;
    /* @functools.partial(torch.compile, mode=...) */
    if (gm_is(expr, syntax->sym.call) &&
        (strcmp(name, "functools.partial") == 0 || strcmp(name, "partial") == 0)) {
        TSNode args = gm_child(expr, syntax->field.arguments);
        if (!ts_node_is_null(args) && ts_node_named_child_count(args) > 0 &&
            gm_symbols_resolve(symbols, syntax, text, ts_node_named_child(args, 0), name,
                               sizeof name) &&
            is_compile_name(name))
            return GM_DECORATOR_COMPILE;
    }
    return GM_DECORATOR_OTHER;
}

/* The decorators of a decorated_definition, summarised. */
static gm_decorator_kind decorators_kind(const gm_symbols *symbols, const gm_syntax *syntax,
                                         const char *text, TSNode decorated) {
    gm_decorator_kind kind = GM_DECORATOR_OTHER;
    if (ts_node_is_null(decorated))
        return kind;
    TSTreeCursor cursor = ts_tree_cursor_new(decorated);
    if (ts_tree_cursor_goto_first_child(&cursor)) {
        do {
            TSNode d = ts_tree_cursor_current_node(&cursor);
            if (!gm_is(d, syntax->sym.decorator))
                continue;
            gm_decorator_kind k = gm_decorator_classify(symbols, syntax, text, d);
            if (k == GM_DECORATOR_DISABLE)
                kind = GM_DECORATOR_DISABLE;
            else if (k == GM_DECORATOR_COMPILE && kind == GM_DECORATOR_OTHER)
                kind = GM_DECORATOR_COMPILE;
        } while (ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
    return kind;
}

typedef struct {
    const gm_symbols *symbols;
    const gm_syntax *syntax;
    const char *text;
    const gm_analysis_options *options;
    gm_region_fn fn;
    void *payload;
} walk;

static int visit_class(const walk *w, TSNode cls) {
    const gm_syntax *syn = w->syntax;
    TSNode body = gm_child(cls, syn->field.body);
    if (ts_node_is_null(body))
        return 0;
    gm_region_site site = {.class_node = cls};
    site.module_class = gm_symbols_bases_are_module(w->symbols, syn, w->text,
                                                    gm_child(cls, syn->field.superclasses));
    TSTreeCursor cursor = ts_tree_cursor_new(body);
    int rc = 0;
    if (ts_tree_cursor_goto_first_child(&cursor)) {
        do {
            TSNode member = ts_tree_cursor_current_node(&cursor);
            TSNode decorated = {0};
            TSNode fn = member;
            if (gm_is(member, syn->sym.decorated_definition)) {
                decorated = member;
                fn = gm_child(member, syn->field.definition);
            }
            if (!gm_is(fn, syn->sym.function_definition))
                continue;
            gm_decorator_kind kind = decorators_kind(w->symbols, syn, w->text, decorated);
            bool region = kind == GM_DECORATOR_COMPILE;
            if (kind == GM_DECORATOR_OTHER && site.module_class &&
                w->options->forward_is_compiled) {
                TSNode name = gm_child(fn, syn->field.name);
                region = !ts_node_is_null(name) && gm_node_text_is(name, w->text, "forward");
            }
            if (!region)
                continue;
            site.function = fn;
            rc = w->fn(w->payload, &site);
        } while (rc == 0 && ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
    return rc;
}

int gm_compiled_regions_each(const gm_symbols *symbols, const gm_syntax *syntax, const char *text,
                             const gm_analysis_options *options, TSNode top, gm_region_fn fn,
                             void *payload) {
    walk w = {symbols, syntax, text, options, fn, payload};
    TSNode def = top;
    TSNode decorated = {0};
    if (gm_is(top, syntax->sym.decorated_definition)) {
        decorated = top;
        def = gm_child(top, syntax->field.definition);
    }
    if (gm_is(def, syntax->sym.class_definition))
        return visit_class(&w, def);
    if (gm_is(def, syntax->sym.function_definition) &&
        decorators_kind(symbols, syntax, text, decorated) == GM_DECORATOR_COMPILE) {
        gm_region_site site = {.function = def};
        return fn(payload, &site);
    }
    return 0;
}
