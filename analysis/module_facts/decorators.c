#include "analysis/module_facts/decorators.h"

#include <string.h>

bool gm_is_compile_name(const char *name) {
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
    if (gm_is_compile_name(name))
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
            gm_is_compile_name(name))
            return GM_DECORATOR_COMPILE;
    }
    return GM_DECORATOR_OTHER;
}

/* Whether call has keyword argument kw=True. */
static bool has_true_keyword(const gm_syntax *syn, const char *text, TSNode call, const char *kw) {
    TSNode args = gm_child(call, syn->field.arguments);
    uint32_t n = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
    for (uint32_t i = 0; i < n; i++) {
        TSNode a = ts_node_named_child(args, i);
        if (!gm_is(a, syn->sym.keyword_argument))
            continue;
        TSNode name = gm_child(a, syn->field.name);
        if (!ts_node_is_null(name) && gm_node_text_is(name, text, kw))
            return gm_is(gm_unparen(syn, gm_child(a, syn->field.value)), syn->sym.true_literal);
    }
    return false;
}

/* Whether a compile call (torch.compile(...), torch._dynamo.optimize(...), a compile decorator
 * with arguments) asks for one graph: the first break then raises instead of splitting. */
bool gm_compile_call_asks_fullgraph(const gm_syntax *syn, const char *text, TSNode call) {
    return gm_is(call, syn->sym.call) &&
           (has_true_keyword(syn, text, call, "fullgraph") ||
            has_true_keyword(syn, text, call, "nopython") ||
            has_true_keyword(syn, text, call, "error_on_graph_break"));
}

/* The decorators of a decorated_definition, summarised; *fullgraph tells whether a compile
 * decorator asks for fullgraph=True. */
gm_decorator_kind gm_decorators_kind(const gm_symbols *symbols, const gm_syntax *syntax,
                                     const char *text, TSNode decorated, bool *fullgraph) {
    gm_decorator_kind kind = GM_DECORATOR_OTHER;
    *fullgraph = false;
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
            if (k == GM_DECORATOR_COMPILE && ts_node_named_child_count(d) > 0 &&
                gm_compile_call_asks_fullgraph(syntax, text,
                                               gm_unparen(syntax, ts_node_named_child(d, 0))))
                *fullgraph = true;
        } while (ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
    return kind;
}

static bool has_property_decorator(const gm_syntax *syn, const char *text, TSNode decorated,
                                   bool cached_too) {
    if (ts_node_is_null(decorated))
        return false;
    uint32_t n = ts_node_named_child_count(decorated);
    for (uint32_t i = 0; i < n; i++) {
        TSNode d = ts_node_named_child(decorated, i);
        if (!gm_is(d, syn->sym.decorator) || ts_node_named_child_count(d) == 0)
            continue;
        TSNode e = gm_unparen(syn, ts_node_named_child(d, 0));
        if (gm_is(e, syn->sym.attribute))
            e = gm_child(e, syn->field.attribute);
        if (gm_is(e, syn->sym.identifier) &&
            (gm_node_text_is(e, text, "property") ||
             (cached_too && gm_node_text_is(e, text, "cached_property"))))
            return true;
    }
    return false;
}

/* Whether a decorated_definition has @property (or functools.cached_property): reading the
 * attribute runs the method, and dynamo inlines it into the reading frame. */
bool gm_decorators_have_property(const gm_syntax *syn, const char *text, TSNode decorated) {
    return has_property_decorator(syn, text, decorated, true);
}

bool gm_decorators_have_plain_property(const gm_syntax *syn, const char *text, TSNode decorated) {
    return has_property_decorator(syn, text, decorated, false);
}

bool gm_decorators_keep_function(const gm_symbols *symbols, const gm_syntax *syntax,
                                 const char *text, TSNode decorated) {
    static const char *const markers[] = {"torch.jit.unused", "torch.jit.ignore",
                                          "torch.jit.export", "typing.final"};
    uint32_t count = ts_node_named_child_count(decorated);
    bool any = false;
    for (uint32_t i = 0; i < count; i++) {
        TSNode d = ts_node_named_child(decorated, i);
        if (!gm_is(d, syntax->sym.decorator))
            continue;
        if (ts_node_named_child_count(d) != 1)
            return false;
        char name[GM_NAME_MAX];
        if (!gm_symbols_resolve(symbols, syntax, text, ts_node_named_child(d, 0), name,
                                sizeof name))
            return false;
        bool marker = false;
        for (size_t m = 0; m < sizeof markers / sizeof markers[0] && !marker; m++)
            marker = strcmp(name, markers[m]) == 0;
        if (!marker)
            return false;
        any = true;
    }
    return any;
}
