#include "analysis/module_facts/statement_functions.h"

#include "analysis/module_facts/decorators.h"

typedef struct {
    const gm_symbols *symbols;
    const gm_syntax *syntax;
    const char *text;
    const gm_analysis_options *options;
    gm_statement_function_fn fn;
    void *payload;
} walk;

/* Whether a method of a class is a region on its own, and whether compiled code may enter it. */
static void classify_method(const walk *w, bool module_class, TSNode decorated, TSNode fn,
                            bool *root, bool *traceable, bool *fullgraph) {
    const gm_syntax *syn = w->syntax;
    gm_decorator_kind kind = gm_decorators_kind(w->symbols, syn, w->text, decorated, fullgraph);
    TSNode name = gm_child(fn, syn->field.name);
    *root = kind == GM_DECORATOR_COMPILE;
    if (kind == GM_DECORATOR_OTHER && module_class && w->options->forward_is_compiled)
        *root = !ts_node_is_null(name) && gm_node_text_is(name, w->text, "forward");
    *traceable = kind != GM_DECORATOR_DISABLE && !ts_node_is_null(name) &&
                 !gm_node_text_is(name, w->text, "__init__");
}

static int visit_class(const walk *w, TSNode cls, int class_depth) {
    const gm_syntax *syn = w->syntax;
    TSNode body = gm_child(cls, syn->field.body);
    if (ts_node_is_null(body))
        return 0;
    gm_statement_function f = {.class_node = cls};
    f.module_class = gm_symbols_bases_are_module(w->symbols, syn, w->text,
                                                 gm_child(cls, syn->field.superclasses));
    TSTreeCursor cursor = ts_tree_cursor_new(body);
    int rc = 0;
    uint32_t index = 0;
    if (ts_tree_cursor_goto_first_child(&cursor)) {
        do {
            TSNode member = ts_tree_cursor_current_node(&cursor);
            TSNode decorated = {0};
            TSNode fn = member;
            if (gm_is(member, syn->sym.decorated_definition)) {
                decorated = member;
                fn = gm_child(member, syn->field.definition);
            }
            if (!gm_is(fn, syn->sym.function_definition) ||
                ts_node_is_null(gm_child(fn, syn->field.name)))
                continue;
            classify_method(w, f.module_class, decorated, fn, &f.root, &f.traceable, &f.fullgraph);
            f.function = fn;
            f.decorated = decorated;
            f.index = index++;
            /* the method is at depth 2 (class body) or 3 (decorated) below cls */
            f.depth = class_depth + (ts_node_is_null(decorated) ? 2 : 3);
            rc = w->fn(w->payload, &f);
        } while (rc == 0 && ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
    return rc;
}

int gm_statement_functions_each(const gm_symbols *symbols, const gm_syntax *syntax,
                                const char *text, const gm_analysis_options *options, TSNode top,
                                gm_statement_function_fn fn, void *payload) {
    walk w = {symbols, syntax, text, options, fn, payload};
    TSNode def = top;
    TSNode decorated = {0};
    if (gm_is(top, syntax->sym.decorated_definition)) {
        decorated = top;
        def = gm_child(top, syntax->field.definition);
    }
    if (gm_is(def, syntax->sym.class_definition))
        return visit_class(&w, def, ts_node_is_null(decorated) ? 0 : 1);
    if (!gm_is(def, syntax->sym.function_definition) ||
        ts_node_is_null(gm_child(def, syntax->field.name)))
        return 0;
    gm_statement_function f = {.function = def, .decorated = decorated};
    gm_decorator_kind kind = gm_decorators_kind(symbols, syntax, text, decorated, &f.fullgraph);
    f.root = kind == GM_DECORATOR_COMPILE;
    f.traceable = kind != GM_DECORATOR_DISABLE;
    f.depth = ts_node_is_null(decorated) ? 0 : 1;
    return fn(payload, &f);
}
