#include "syntax.h"

#include <string.h>

int gm_syntax_init(gm_syntax *syntax, const TSLanguage *language) {
    memset(syntax, 0, sizeof *syntax);
#define GM_SYNTAX_RESOLVE_SYMBOL(member, name)                                                     \
    syntax->sym.member =                                                                           \
        ts_language_symbol_for_name(language, name, (uint32_t)strlen(name), true);                 \
    if (syntax->sym.member == 0)                                                                   \
        return -1;
    GM_SYNTAX_SYMBOLS(GM_SYNTAX_RESOLVE_SYMBOL)
#undef GM_SYNTAX_RESOLVE_SYMBOL
#define GM_SYNTAX_RESOLVE_FIELD(member, name)                                                      \
    syntax->field.member = ts_language_field_id_for_name(language, name, (uint32_t)strlen(name));  \
    if (syntax->field.member == 0)                                                                 \
        return -1;
    GM_SYNTAX_FIELDS(GM_SYNTAX_RESOLVE_FIELD)
#undef GM_SYNTAX_RESOLVE_FIELD
    return 0;
}

bool gm_slice_is(gm_slice slice, const char *word) {
    size_t n = strlen(word);
    return slice.len == n && memcmp(slice.ptr, word, n) == 0;
}

bool gm_node_text_is(TSNode node, const char *text, const char *word) {
    return gm_slice_is(gm_node_slice(node, text), word);
}

/* The one named child of a parenthesized expression that is not a comment, or a null node. */
static TSNode sole_inner_expression(const gm_syntax *syntax, TSNode node) {
    TSNode found = {0};
    uint32_t count = ts_node_named_child_count(node);
    for (uint32_t i = 0; i < count; i++) {
        TSNode child = ts_node_named_child(node, i);
        if (gm_is(child, syntax->sym.comment))
            continue;
        if (!ts_node_is_null(found))
            return (TSNode){0};
        found = child;
    }
    return found;
}

TSNode gm_unparen(const gm_syntax *syntax, TSNode node) {
    while (gm_is(node, syntax->sym.parenthesized_expression)) {
        TSNode inner = sole_inner_expression(syntax, node);
        if (ts_node_is_null(inner))
            break;
        node = inner;
    }
    return node;
}

TSNode gm_chain_head(const gm_syntax *syntax, TSNode node) {
    node = gm_unparen(syntax, node);
    while (gm_is(node, syntax->sym.attribute))
        node = gm_unparen(syntax, gm_child(node, syntax->field.object));
    if (gm_is(node, syntax->sym.identifier))
        return node;
    return (TSNode){0};
}

TSNode gm_call_target(const gm_syntax *syntax, TSNode call, TSNode *head) {
    TSNode fn = gm_unparen(syntax, gm_child(call, syntax->field.function));
    *head = (TSNode){0};
    if (!gm_is(fn, syntax->sym.attribute) && !gm_is(fn, syntax->sym.identifier))
        return (TSNode){0};
    *head = gm_chain_head(syntax, fn);
    return ts_node_is_null(*head) ? (TSNode){0} : fn;
}
