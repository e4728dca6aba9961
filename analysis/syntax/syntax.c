/* memmem: GNU and BSD C libraries have it */
#define _GNU_SOURCE
#include "analysis/syntax/syntax.h"

#include <stdatomic.h>
#include <stdint.h>
#include <string.h>

#include "analysis/syntax/line_breaks.h"
static uint32_t name_hash(const char *s) {
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 16777619u;
    return h;
}

/* The symbols are resolved in one pass over the grammar's symbols against a small hash table of
 * the wanted names: ts_language_symbol_for_name scans every symbol for each name, which cost
 * more than analysing a small file (and the CLI makes one analyzer per file). A name that only
 * one named, visible symbol has resolves to it; a name several have (aliases) is left to
 * ts_language_symbol_for_name, which knows which of them parsed nodes carry. Tests check that
 * both ways agree. */
/* The grammar's ids of the symbols and fields the analysis reads, looked up by name. */
static int resolve_syntax(gm_syntax *syntax, const TSLanguage *language) {
    memset(syntax, 0, sizeof *syntax);
    static const struct {
        const char *name;
        size_t offset;
    } wanted[] = {
#define GM_SYNTAX_WANTED(member, name) {name, offsetof(gm_syntax, sym.member)},
        GM_SYNTAX_SYMBOLS(GM_SYNTAX_WANTED)
#undef GM_SYNTAX_WANTED
    };
    enum { COUNT = sizeof wanted / sizeof wanted[0], SLOTS = 256 };
    _Static_assert(2 * COUNT <= SLOTS, "the table of wanted symbol names is too small");
    uint16_t table[SLOTS] = {0}; /* index into wanted + 1 */
    uint8_t seen[COUNT] = {0};   /* symbols of that name met, up to 2 */
    for (size_t w = 0; w < COUNT; w++) {
        uint32_t at = name_hash(wanted[w].name) & (SLOTS - 1);
        while (table[at])
            at = (at + 1) & (SLOTS - 1);
        table[at] = (uint16_t)(w + 1);
    }
    uint32_t symbols = ts_language_symbol_count(language);
    for (uint32_t i = 0; i < symbols; i++) {
        if (ts_language_symbol_type(language, (TSSymbol)i) != TSSymbolTypeRegular)
            continue;
        const char *name = ts_language_symbol_name(language, (TSSymbol)i);
        if (!name)
            continue;
        for (uint32_t at = name_hash(name) & (SLOTS - 1); table[at]; at = (at + 1) & (SLOTS - 1)) {
            size_t w = table[at] - 1u;
            if (strcmp(wanted[w].name, name) != 0)
                continue;
            if (seen[w] == 0)
                *(TSSymbol *)((char *)syntax + wanted[w].offset) = (TSSymbol)i;
            if (seen[w] < 2)
                seen[w]++;
        }
    }
    for (size_t w = 0; w < COUNT; w++) {
        TSSymbol *slot = (TSSymbol *)((char *)syntax + wanted[w].offset);
        /* ERROR, the runtime's builtin symbol, is none of the grammar's: seen[w] == 0 */
        if (seen[w] != 1)
            *slot = ts_language_symbol_for_name(language, wanted[w].name,
                                                (uint32_t)strlen(wanted[w].name), true);
        if (*slot == 0)
            return -1;
    }
#define GM_SYNTAX_RESOLVE_FIELD(member, name)                                                      \
    syntax->field.member = ts_language_field_id_for_name(language, name, (uint32_t)strlen(name));  \
    if (syntax->field.member == 0)                                                                 \
        return -1;
    GM_SYNTAX_FIELDS(GM_SYNTAX_RESOLVE_FIELD)
#undef GM_SYNTAX_RESOLVE_FIELD
    return 0;
}

int gm_syntax_init(gm_syntax *syntax, const TSLanguage *language) {
    /* Resolved once per thread and language: an analyzer is made per file, and the lookups
     * cost a few percent of a cold file's analysis. */
    static _Thread_local const TSLanguage *resolved_language;
    static _Thread_local gm_syntax resolved;
    if (language != resolved_language) {
        if (resolve_syntax(&resolved, language) != 0)
            return resolve_syntax(syntax, language);
        resolved_language = language;
    }
    *syntax = resolved;
    return 0;
}

const char *gm_text_find(const char *text, size_t len, const char *word, size_t word_len) {
    return memmem(text, len, word, word_len);
}

bool gm_slice_contains(gm_slice text, const char *word) {
    return gm_text_find(text.ptr, text.len, word, strlen(word)) != NULL;
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

void gm_running_children(const gm_syntax *syntax, const char *text, TSNode node, TSSymbol t,
                         uint32_t *first, uint32_t *end) {
    *first = 0;
    *end = ts_node_named_child_count(node);
    if (*end == 0 || ts_node_has_error(node))
        return;
    if (t == syntax->sym.attribute) {
        *end = 1; /* the object; the attribute's name follows it */
    } else if (t == syntax->sym.keyword_argument) {
        *first = 1; /* the value; the name comes first */
    } else if (t == syntax->sym.string) {
        /* the prefix, up to the quote: only f (and t) strings hold expressions */
        uint32_t at = ts_node_start_byte(node), stop = ts_node_end_byte(node);
        for (; at < stop && text[at] != '"' && text[at] != '\''; at++)
            if (text[at] == 'f' || text[at] == 'F' || text[at] == 't' || text[at] == 'T')
                return;
        *end = 0;
    }
}

TSNode gm_parent_within(TSNode ancestor, TSNode node) {
    if (ts_node_is_null(ancestor) || ts_node_is_null(node) || ts_node_eq(ancestor, node))
        return ts_node_parent(node);
    uint32_t start = ts_node_start_byte(node), end = ts_node_end_byte(node);
    if (start < ts_node_start_byte(ancestor) || end > ts_node_end_byte(ancestor))
        return ts_node_parent(node);
    TSTreeCursor cursor = ts_tree_cursor_new(ancestor);
    TSNode parent = ancestor, found = {0};
    bool done = false;
    for (int depth = 0; depth < 1000 && !done; depth++) {
        if (ts_tree_cursor_goto_first_child_for_byte(&cursor, start) < 0)
            break;
        TSNode n = ts_tree_cursor_current_node(&cursor);
        /* the child that holds node among this one and its next siblings */
        while (ts_node_start_byte(n) <= start && ts_node_end_byte(n) < end &&
               ts_tree_cursor_goto_next_sibling(&cursor))
            n = ts_tree_cursor_current_node(&cursor);
        if (ts_node_start_byte(n) > start || ts_node_end_byte(n) < end)
            break;
        if (ts_node_eq(n, node)) {
            found = parent;
            done = true;
        }
        parent = n;
    }
    ts_tree_cursor_delete(&cursor);
    return done ? found : ts_node_parent(node);
}

bool gm_is_constant_string(const gm_syntax *syntax, TSNode node) {
    node = gm_unparen(syntax, node);
    uint32_t count = ts_node_named_child_count(node);
    if (gm_is(node, syntax->sym.concatenated_string)) {
        for (uint32_t i = 0; i < count; i++)
            if (!gm_is_constant_string(syntax, ts_node_named_child(node, i)))
                return false;
        return true;
    }
    if (!gm_is(node, syntax->sym.string))
        return false;
    for (uint32_t i = 0; i < count; i++)
        if (strcmp(ts_node_type(ts_node_named_child(node, i)), "interpolation") == 0)
            return false;
    return true;
}

bool gm_string_spells_name(const gm_syntax *syntax, const char *text, TSNode node, char *buf,
                           size_t cap) {
    node = gm_unparen(syntax, node);
    if (!gm_is(node, syntax->sym.string))
        return false;
    gm_slice s = gm_node_slice(node, text);
    if (s.len < 3 || (s.ptr[0] != '"' && s.ptr[0] != '\'') || s.ptr[s.len - 1] != s.ptr[0] ||
        s.len - 2 >= cap)
        return false;
    for (uint32_t i = 1; i + 1 < s.len; i++) {
        char c = s.ptr[i];
        if (!(c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')))
            return false;
    }
    memcpy(buf, s.ptr + 1, s.len - 2);
    buf[s.len - 2] = '\0';
    return true;
}

TSNode gm_class_init(const gm_syntax *syntax, const char *text, TSNode class_node,
                     gm_slice *self_name) {
    TSNode found = {0};
    TSNode body =
        ts_node_is_null(class_node) ? (TSNode){0} : gm_child(class_node, syntax->field.body);
    if (!gm_is(body, syntax->sym.block))
        return found;
    TSTreeCursor cursor = ts_tree_cursor_new(body);
    for (bool more = ts_tree_cursor_goto_first_child(&cursor); more;
         more = ts_tree_cursor_goto_next_sibling(&cursor)) {
        TSNode def = ts_tree_cursor_current_node(&cursor);
        if (gm_is(def, syntax->sym.decorated_definition))
            def = gm_child(def, syntax->field.definition);
        if (gm_is(def, syntax->sym.function_definition) &&
            gm_node_text_is(gm_child(def, syntax->field.name), text, "__init__"))
            found = def;
    }
    ts_tree_cursor_delete(&cursor);
    TSNode params = ts_node_is_null(found) ? found : gm_child(found, syntax->field.parameters);
    if (ts_node_is_null(params) || ts_node_named_child_count(params) == 0 ||
        !gm_is(ts_node_named_child(params, 0), syntax->sym.identifier))
        return (TSNode){0};
    *self_name = gm_node_slice(ts_node_named_child(params, 0), text);
    return found;
}

/* ---- remembered field lookups ------------------------------------------------------------ */

typedef struct {
    const void *id; /* the node: its subtree, tree and position */
    const TSTree *tree;
    uint32_t start;
    TSFieldId field;
    unsigned long generation; /* of the cache when stored: older entries are forgotten */
    TSNode child;
} child_entry;

#define CHILD_CACHE_SIZE 1024u /* direct-mapped: a statement's nodes fit */
static _Thread_local child_entry child_cache[CHILD_CACHE_SIZE];
/* Starts at 1 so that the zeroed entries are stale. Atomic: a tree may be deleted on another
 * thread than the one that looked at it. */
static atomic_ulong child_cache_generation = 1;

void gm_child_cache_forget(void) {
    atomic_fetch_add_explicit(&child_cache_generation, 1, memory_order_relaxed);
}

TSNode gm_child(TSNode node, TSFieldId field) {
    if (!node.id)
        return ts_node_child_by_field_id(node, field);
    unsigned long generation = atomic_load_explicit(&child_cache_generation, memory_order_relaxed);
    uintptr_t hash = ((uintptr_t)node.id >> 4) * 31u + field;
    child_entry *e = &child_cache[hash % CHILD_CACHE_SIZE];
    if (e->generation == generation && e->id == node.id && e->tree == node.tree &&
        e->start == node.context[0] && e->field == field)
        return e->child;
    TSNode child = ts_node_child_by_field_id(node, field);
    *e = (child_entry){node.id, node.tree, node.context[0], field, generation, child};
    return child;
}
/* The text of a chain of names (`a.b.c`, parentheses and spaces dropped) into buf; false for
 * anything else or when it does not fit. */
bool gm_dotted_name_text(const gm_syntax *syn, const char *text, TSNode n, char *buf, size_t cap,
                         size_t *len) {
    n = gm_unparen(syn, n);
    if (gm_is(n, syn->sym.identifier)) {
        gm_slice s = gm_node_slice(n, text);
        if (*len + s.len + 1 > cap)
            return false;
        memcpy(buf + *len, s.ptr, s.len);
        *len += s.len;
        buf[*len] = '\0';
        return true;
    }
    if (!gm_is(n, syn->sym.attribute))
        return false;
    TSNode attr = gm_child(n, syn->field.attribute);
    if (ts_node_is_null(attr) ||
        !gm_dotted_name_text(syn, text, gm_child(n, syn->field.object), buf, cap, len))
        return false;
    gm_slice s = gm_node_slice(attr, text);
    if (*len + s.len + 2 > cap)
        return false;
    buf[(*len)++] = '.';
    memcpy(buf + *len, s.ptr, s.len);
    *len += s.len;
    buf[*len] = '\0';
    return true;
}

/* The first parameter of fn when it is a plain name: self in a method. */
gm_slice gm_first_parameter(const gm_syntax *syn, const char *text, TSNode fn) {
    gm_slice none = {text, 0};
    TSNode params = gm_child(fn, syn->field.parameters);
    if (ts_node_is_null(params) || ts_node_named_child_count(params) == 0)
        return none;
    TSNode p = ts_node_named_child(params, 0);
    return gm_is(p, syn->sym.identifier) ? gm_node_slice(p, text) : none;
}

/* Whether a parameter of fn binds name. */
bool gm_parameters_bind_name(const gm_syntax *syn, const char *text, TSNode fn, gm_slice name) {
    TSNode params = gm_child(fn, syn->field.parameters);
    uint32_t n = ts_node_is_null(params) ? 0 : ts_node_named_child_count(params);
    for (uint32_t i = 0; i < n; i++) {
        TSNode p = ts_node_named_child(params, i);
        TSNode id = p;
        if (gm_is(p, syn->sym.default_parameter) || gm_is(p, syn->sym.typed_default_parameter))
            id = gm_child(p, syn->field.name);
        else if (!gm_is(p, syn->sym.identifier) && ts_node_named_child_count(p) > 0)
            id = ts_node_named_child(p, 0); /* typed, *args, **kwargs */
        if (gm_is(id, syn->sym.identifier) && gm_slice_eq(gm_node_slice(id, text), name))
            return true;
    }
    return false;
}

/* Whether a top-level try statement's body imports (`try: import apex` / `except ImportError`). */
static bool try_imports(const gm_syntax *syn, TSNode n) {
    TSNode body = gm_child(n, syn->field.body);
    uint32_t count = ts_node_is_null(body) ? 0 : ts_node_named_child_count(body);
    for (uint32_t i = 0; i < count; i++) {
        TSNode c = ts_node_named_child(body, i);
        if (gm_is(c, syn->sym.import_statement) || gm_is(c, syn->sym.import_from_statement))
            return true;
    }
    return false;
}

uint32_t gm_module_head_end(const gm_syntax *syntax, const char *text, uint32_t len, TSNode module) {
    uint32_t end = UINT32_MAX;
    uint32_t count = ts_node_named_child_count(module);
    for (uint32_t i = 0; i < count; i++) {
        TSNode c = ts_node_named_child(module, i);
        if (gm_is_nested_scope(syntax, c))
            break;
        const char *type = ts_node_type(c);
        if (gm_is(c, syntax->sym.import_statement) || gm_is(c, syntax->sym.import_from_statement) ||
            strcmp(type, "future_import_statement") == 0 ||
            (gm_is(c, syntax->sym.try_statement) && try_imports(syntax, c)))
            end = ts_node_end_byte(c);
    }
    if (end == UINT32_MAX)
        return end;
    while (end < len && !gm_ends_line(text, len, end))
        end++;
    return end < len ? end + 1 : UINT32_MAX; /* an import on the last line without newline */
}

TSNode gm_parameter_annotation(const gm_syntax *syn, const char *text, TSNode fn, gm_slice name) {
    TSNode params = gm_child(fn, syn->field.parameters);
    TSNode type = {0};
    if (ts_node_is_null(params))
        return type;
    /* a cursor: taking the parameters by index walks the ones before each again */
    TSTreeCursor cursor = ts_tree_cursor_new(params);
    bool more = ts_tree_cursor_goto_first_child(&cursor);
    for (; more; more = ts_tree_cursor_goto_next_sibling(&cursor)) {
        TSNode p = ts_tree_cursor_current_node(&cursor);
        if (!gm_is(p, syn->sym.typed_parameter) && !gm_is(p, syn->sym.typed_default_parameter))
            continue;
        TSNode id = gm_child(p, syn->field.name);
        if (ts_node_is_null(id) && ts_node_named_child_count(p) > 0)
            id = ts_node_named_child(p, 0); /* a typed_parameter names it as a plain child */
        if (gm_is(id, syn->sym.identifier) && gm_slice_eq(gm_node_slice(id, text), name)) {
            type = gm_child(p, syn->field.type);
            break;
        }
    }
    ts_tree_cursor_delete(&cursor);
    return type;
}

size_t gm_collapse_whitespace(gm_slice s, char *out, size_t room, bool *cut) {
    size_t used = 0;
    bool space = false;
    *cut = false;
    for (uint32_t k = 0; k < s.len; k++) {
        char c = s.ptr[k];
        if (c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\\') {
            space = used > 0;
            continue;
        }
        bool gap = space && out[used - 1] != '(' && out[used - 1] != '[' && c != ')' && c != ']';
        if (used + (gap ? 2 : 1) > room) {
            *cut = true;
            break;
        }
        if (gap)
            out[used++] = ' ';
        space = false;
        out[used++] = c;
    }
    return used;
}

void gm_slice_shown(gm_slice source, char *out, size_t cap) {
    bool cut;
    size_t used = gm_collapse_whitespace(source, out, cap - 4, &cut);
    memcpy(out + used, cut ? "..." : "", cut ? 4 : 1);
}

void gm_node_shown(TSNode node, const char *text, char *out, size_t cap) {
    gm_slice_shown(gm_node_slice(node, text), out, cap);
}
