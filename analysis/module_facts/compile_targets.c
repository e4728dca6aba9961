#include "analysis/module_facts/compile_targets.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/module_facts/decorators.h"

typedef struct {
    const gm_symbols *symbols;
    const gm_syntax *syntax;
    const char *text;
    gm_call_part *part; /* receives the targets and instance bindings */
} walk;

static int add_target(gm_call_part *p, TSNode call, const char *name, size_t name_len,
                      const char *member, size_t member_len, bool fullgraph, bool module_compile) {
    if (p->target_count == p->target_capacity) {
        uint32_t cap = p->target_capacity ? p->target_capacity * 2 : 2;
        gm_compile_target *items = realloc(p->targets, cap * sizeof *items);
        if (!items)
            return -1;
        p->targets = items;
        p->target_capacity = cap;
    }
    gm_compile_target *t = &p->targets[p->target_count];
    t->name = strndup(name, name_len);
    t->member = member ? strndup(member, member_len) : NULL;
    t->fullgraph = fullgraph;
    t->module_compile = module_compile;
    TSPoint start = ts_node_start_point(call), end = ts_node_end_point(call);
    t->start_byte = ts_node_start_byte(call);
    t->end_byte = ts_node_end_byte(call);
    t->start_row = start.row;
    t->start_column = start.column;
    t->end_row = end.row;
    t->end_column = end.column;
    if (!t->name || (member && !t->member)) {
        free(t->name);
        free(t->member);
        return -1;
    }
    p->target_count++;
    return 0;
}

/* The length of the class in `Cls.from_xxx` or `pkg.Cls.from_xxx` (name, len bytes): an
 * alternate constructor, by Python's naming convention (`Model.from_pretrained(...)`,
 * `Model.from_config(cfg)`, `dict.fromkeys`) a classmethod that returns an instance of the
 * class; the class is a capitalised name. Else len: the name names what is called. */
static const char *last_dot(const char *s, size_t len) {
    while (len > 0 && s[len - 1] != '.')
        len--;
    return len > 0 ? s + len - 1 : NULL;
}

static size_t constructed_class_len(const char *name, size_t len) {
    const char *dot = last_dot(name, len);
    if (!dot || dot == name)
        return len;
    const char *method = dot + 1;
    size_t method_len = (size_t)(name + len - method);
    bool alternate = (method_len > 4 && strncmp(method, "from", 4) == 0) ||
                     (method_len > 5 && strncmp(method, "_from", 5) == 0);
    const char *cls = last_dot(name, (size_t)(dot - name));
    cls = cls ? cls + 1 : name;
    if (!alternate || cls >= dot || *cls < 'A' || *cls > 'Z')
        return len;
    return (size_t)(dot - name);
}

/* The thing torch.compile is given: `f`, `obj.method`, `mod.f` (an import), `Net(...)`,
 * `Net.from_pretrained(...)`. */
static int add_target_expr(const walk *w, TSNode call, TSNode arg, bool fullgraph) {
    const gm_syntax *syn = w->syntax;
    arg = gm_unparen(syn, arg);
    bool built = gm_is(arg, syn->sym.call);
    if (built)
        arg = gm_unparen(syn, gm_child(arg, syn->field.function)); /* a module built in place */
    char name[GM_NAME_MAX];
    size_t len = 0;
    if (!gm_dotted_name_text(syn, w->text, arg, name, sizeof name, &len))
        return 0;
    if (built && constructed_class_len(name, len) < len) {
        len = constructed_class_len(name, len);
        name[len] = '\0';
        TSNode head = gm_chain_head(syn, arg);
        return gm_symbols_is_imported(w->symbols, gm_node_slice(head, w->text)) ||
                       !strchr(name, '.')
                   ? add_target(w->part, call, name, len, NULL, 0, fullgraph, false)
                   : 0;
    }
    TSNode head = gm_chain_head(syn, arg);
    const char *dot = strchr(name, '.');
    if (dot && !gm_symbols_is_imported(w->symbols, gm_node_slice(head, w->text))) {
        /* obj.method: the method of whatever class obj is an instance of */
        if (strchr(dot + 1, '.'))
            return 0;
        return add_target(w->part, call, name, (size_t)(dot - name), dot + 1, strlen(dot + 1),
                          fullgraph, false);
    }
    return add_target(w->part, call, name, len, NULL, 0, fullgraph, false);
}

static int add_instance(gm_call_part *p, gm_slice var, const char *class_name, size_t len) {
    if (p->instance_count == p->instance_capacity) {
        uint32_t cap = p->instance_capacity ? p->instance_capacity * 2 : 2;
        gm_instance_binding *items = realloc(p->instances, cap * sizeof *items);
        if (!items)
            return -1;
        p->instances = items;
        p->instance_capacity = cap;
    }
    gm_instance_binding *b = &p->instances[p->instance_count];
    b->var = strndup(var.ptr, var.len);
    b->class_name = strndup(class_name, len);
    if (!b->var || !b->class_name) {
        free(b->var);
        free(b->class_name);
        return -1;
    }
    p->instance_count++;
    return 0;
}

/* `var = Cls(...)` or `var = Cls.from_pretrained(...)` (an alternate constructor), also through
 * `.eval()`, `.to(device)` and similar calls on the result. A
 * callee on self (`h = self.proj(h)`, most assignments in a model) names no class: the call
 * graph finds Cls.forward only for a class of the module or an import, and self shadows both. */
static int note_instance(const walk *w, TSNode assignment, gm_slice self_name) {
    const gm_syntax *syn = w->syntax;
    TSNode left = gm_child(assignment, syn->field.left);
    TSNode right = gm_unparen(syn, gm_child(assignment, syn->field.right));
    if (!gm_is(left, syn->sym.identifier) || !gm_is(right, syn->sym.call))
        return 0;
    for (int depth = 0; depth < 8; depth++) {
        TSNode fn = gm_unparen(syn, gm_child(right, syn->field.function));
        if (!gm_is(fn, syn->sym.attribute))
            break;
        TSNode object = gm_unparen(syn, gm_child(fn, syn->field.object));
        if (!gm_is(object, syn->sym.call))
            break;
        right = object;
    }
    TSNode callee = gm_child(right, syn->field.function);
    TSNode head = self_name.len > 0 ? gm_chain_head(syn, callee) : (TSNode){0};
    if (!ts_node_is_null(head) && gm_slice_eq(gm_node_slice(head, w->text), self_name))
        return 0;
    char name[GM_NAME_MAX];
    size_t len = 0;
    if (!gm_dotted_name_text(syn, w->text, callee, name, sizeof name, &len))
        return 0;
    return add_instance(w->part, gm_node_slice(left, w->text), name,
                        constructed_class_len(name, len));
}

/* Whether a call's callee (parentheses stripped) may resolve to torch.compile,
 * torch._dynamo.optimize or a .compile method: resolution only rewrites the head of a chain, so
 * a longer chain must end in one of those words, and a bare name must be an import. Saves
 * resolving the callee of every call of a statement. */
static bool may_name_compile(const walk *w, TSNode fn) {
    const gm_syntax *syn = w->syntax;
    if (gm_is(fn, syn->sym.identifier))
        return gm_symbols_is_imported(w->symbols, gm_node_slice(fn, w->text));
    if (!gm_is(fn, syn->sym.attribute))
        return false;
    TSNode attr = gm_child(fn, syn->field.attribute);
    return !ts_node_is_null(attr) && (gm_node_text_is(attr, w->text, "compile") ||
                                      gm_node_text_is(attr, w->text, "optimize"));
}

static int note_target_call(const walk *w, TSNode n) {
    const gm_syntax *syn = w->syntax;
    TSNode fn = gm_unparen(syn, gm_child(n, syn->field.function));
    bool wrapped = gm_is(fn, syn->sym.call);
    TSNode inner = wrapped ? gm_unparen(syn, gm_child(fn, syn->field.function)) : fn;
    if (!may_name_compile(w, inner))
        return 0;
    TSNode args = gm_child(n, syn->field.arguments);
    TSNode first = ts_node_is_null(args) || ts_node_named_child_count(args) == 0
                       ? (TSNode){0}
                       : ts_node_named_child(args, 0);
    char name[GM_NAME_MAX];
    if (wrapped) {
        /* torch._dynamo.optimize(backend, nopython=...)(f) */
        if (!ts_node_is_null(first) && !gm_is(first, syn->sym.keyword_argument) &&
            gm_symbols_resolve(w->symbols, syn, w->text, inner, name, sizeof name) &&
            strcmp(name, "torch._dynamo.optimize") == 0)
            return add_target_expr(w, n, first, gm_compile_call_asks_fullgraph(syn, w->text, fn));
    } else if (gm_symbols_resolve(w->symbols, syn, w->text, fn, name, sizeof name)) {
        TSNode head = gm_chain_head(syn, fn);
        if (gm_is_compile_name(name) && strcmp(name, "torch._dynamo.optimize") != 0) {
            if (!ts_node_is_null(first) && !gm_is(first, syn->sym.keyword_argument))
                return add_target_expr(w, n, first, gm_compile_call_asks_fullgraph(syn, w->text, n));
        } else if (gm_is(fn, syn->sym.attribute) && gm_name_last_is(name, "compile") &&
                   gm_is(gm_unparen(syn, gm_child(fn, syn->field.object)), syn->sym.identifier) &&
                   !gm_symbols_is_imported(w->symbols, gm_node_slice(head, w->text))) {
            /* model.compile(): nn.Module.compile compiles the module's forward */
            gm_slice obj = gm_node_slice(head, w->text);
            return add_target(w->part, n, obj.ptr, obj.len, NULL, 0,
                              gm_compile_call_asks_fullgraph(syn, w->text, n), true);
        }
    }
    return 0;
}

int gm_compile_target_note(const gm_symbols *symbols, const gm_syntax *syntax, const char *text,
                           gm_call_part *part, TSNode n, TSSymbol t, gm_slice self_name) {
    const walk wk = {symbols, syntax, text, part};
    const walk *w = &wk;
    if (t == w->syntax->sym.assignment)
        return note_instance(w, n, self_name);
    if (t == w->syntax->sym.call)
        return note_target_call(w, n);
    return 0;
}

/* Whether word at text[at] is followed by `(` (spaces, tabs, newlines and line continuations
 * between). */
static bool called_at(const char *text, size_t len, size_t at) {
    while (at < len && (text[at] == ' ' || text[at] == '\t' || text[at] == '\n' ||
                        text[at] == '\r' || text[at] == '\\'))
        at++;
    return at < len && text[at] == '(';
}

static bool word_called(const char *text, size_t len, const char *word, size_t word_len) {
    const char first = word[0];
    for (const char *p = text; (p = memchr(p, first, (size_t)(text + len - p))); p++) {
        size_t at = (size_t)(p - text);
        if (len - at >= word_len && memcmp(p, word, word_len) == 0 &&
            called_at(text, len, at + word_len))
            return true;
    }
    return false;
}

static bool is_word_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

static bool word_named(const char *text, size_t len, const char *word, size_t word_len) {
    for (const char *p = text; (p = gm_text_find(p, (size_t)(text + len - p), word, word_len)); p++) {
        size_t at = (size_t)(p - text);
        if ((at == 0 || !is_word_char(text[at - 1])) &&
            (at + word_len == len || !is_word_char(text[at + word_len])))
            return true;
    }
    return false;
}

bool gm_text_may_name_compile(const char *text, size_t len) {
    return word_named(text, len, "compile", 7) || word_named(text, len, "optimize", 8);
}

bool gm_text_may_call_compile(const char *text, size_t len) {
    return word_called(text, len, "compile", 7) || word_called(text, len, "optimize", 8);
}
