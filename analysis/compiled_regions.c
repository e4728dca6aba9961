#include "compiled_regions.h"

#include <stdio.h>
#include <stdlib.h>
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
static bool asks_fullgraph(const gm_syntax *syn, const char *text, TSNode call) {
    return gm_is(call, syn->sym.call) &&
           (has_true_keyword(syn, text, call, "fullgraph") ||
            has_true_keyword(syn, text, call, "nopython") ||
            has_true_keyword(syn, text, call, "error_on_graph_break"));
}

/* The decorators of a decorated_definition, summarised; *fullgraph tells whether a compile
 * decorator asks for fullgraph=True. */
static gm_decorator_kind decorators_kind(const gm_symbols *symbols, const gm_syntax *syntax,
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
                asks_fullgraph(syntax, text, gm_unparen(syntax, ts_node_named_child(d, 0))))
                *fullgraph = true;
        } while (ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
    return kind;
}

/* ---- the call graph's parts ------------------------------------------------------------ */

uint64_t gm_call_key_hash(const char *key) {
    return gm_hash_bytes(GM_HASH_INIT, key, strlen(key));
}

void gm_call_part_free(gm_call_part *part) {
    for (uint32_t i = 0; i < part->node_count; i++)
        free(part->nodes[i].key.key);
    for (uint32_t i = 0; i < part->callee_count; i++)
        free(part->callees[i].key);
    for (uint32_t i = 0; i < part->target_count; i++) {
        free(part->targets[i].name);
        free(part->targets[i].member);
    }
    for (uint32_t i = 0; i < part->instance_count; i++) {
        free(part->instances[i].var);
        free(part->instances[i].class_name);
    }
    free(part->nodes);
    free(part->callees);
    free(part->targets);
    free(part->instances);
    memset(part, 0, sizeof *part);
}

static int key_make(gm_call_key *k, const char *prefix, gm_slice name) {
    size_t plen = prefix ? strlen(prefix) : 0;
    k->key = malloc(plen + (prefix ? 1 : 0) + name.len + 1);
    if (!k->key)
        return -1;
    size_t at = 0;
    if (prefix) {
        memcpy(k->key, prefix, plen);
        k->key[plen] = '.';
        at = plen + 1;
    }
    memcpy(k->key + at, name.ptr, name.len);
    k->key[at + name.len] = '\0';
    k->hash = gm_call_key_hash(k->key);
    return 0;
}

typedef struct {
    const gm_symbols *symbols;
    const gm_syntax *syntax;
    const char *text;
    gm_call_part *part;
    gm_call_node *node;
    TSNode function;
    const char *class_name; /* NULL for a plain function */
    gm_slice self_name;     /* empty when not a method */
    bool oom;
} call_collect;

static void add_callee(call_collect *c, const char *prefix, gm_slice name) {
    gm_call_part *p = c->part;
    gm_call_key k;
    if (key_make(&k, prefix, name) != 0) {
        c->oom = true;
        return;
    }
    for (uint32_t i = c->node->callee_start; i < p->callee_count; i++)
        if (p->callees[i].hash == k.hash && strcmp(p->callees[i].key, k.key) == 0) {
            free(k.key);
            return;
        }
    if (!prefix && gm_function_binds(c->syntax, c->text, c->function, k.key)) {
        free(k.key);
        return; /* a local name, not the module's function */
    }
    if (p->callee_count == p->callee_capacity) {
        uint32_t cap = p->callee_capacity ? p->callee_capacity * 2 : 8;
        gm_call_key *items = realloc(p->callees, cap * sizeof *items);
        if (!items) {
            free(k.key);
            c->oom = true;
            return;
        }
        p->callees = items;
        p->callee_capacity = cap;
    }
    p->callees[p->callee_count++] = k;
    c->node->callee_count++;
}

/* The text of a chain of names (`a.b.c`, parentheses and spaces dropped) into buf; false for
 * anything else or when it does not fit. */
static bool chain_text(const gm_syntax *syn, const char *text, TSNode n, char *buf, size_t cap,
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
        !chain_text(syn, text, gm_child(n, syn->field.object), buf, cap, len))
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

/* `m.f(...)` where an import binds m (and the function does not rebind it): a call into another
 * module, kept as written. */
static void add_module_callee(call_collect *c, TSNode fn) {
    TSNode head = gm_chain_head(c->syntax, fn);
    if (ts_node_is_null(head) || !gm_symbols_is_imported(c->symbols, gm_node_slice(head, c->text)))
        return;
    char name[GM_NAME_MAX];
    size_t len = 0;
    if (!chain_text(c->syntax, c->text, fn, name, sizeof name, &len))
        return;
    char head_name[GM_NAME_MAX];
    gm_slice hs = gm_node_slice(head, c->text);
    if (hs.len >= sizeof head_name)
        return;
    memcpy(head_name, hs.ptr, hs.len);
    head_name[hs.len] = '\0';
    if (gm_function_binds(c->syntax, c->text, c->function, head_name))
        return;
    add_callee(c, NULL, (gm_slice){name, (uint32_t)len});
}

static void collect_calls(call_collect *c, TSNode n, int depth) {
    const gm_syntax *syn = c->syntax;
    if (ts_node_is_null(n) || depth > 200 || c->oom)
        return;
    TSSymbol t = ts_node_symbol(n);
    if (depth > 0 && (t == syn->sym.lambda || t == syn->sym.function_definition ||
                      t == syn->sym.class_definition || t == syn->sym.decorated_definition))
        return;
    if (t == syn->sym.call) {
        TSNode fn = gm_unparen(syn, gm_child(n, syn->field.function));
        if (gm_is(fn, syn->sym.identifier)) {
            add_callee(c, NULL, gm_node_slice(fn, c->text));
        } else if (gm_is(fn, syn->sym.attribute)) {
            TSNode object = gm_unparen(syn, gm_child(fn, syn->field.object));
            TSNode attr = gm_child(fn, syn->field.attribute);
            gm_slice o = gm_node_slice(object, c->text);
            if (c->class_name && c->self_name.len > 0 && gm_is(object, syn->sym.identifier) &&
                !ts_node_is_null(attr) && o.len == c->self_name.len &&
                memcmp(o.ptr, c->self_name.ptr, o.len) == 0)
                add_callee(c, c->class_name, gm_node_slice(attr, c->text));
            else
                add_module_callee(c, fn);
        }
    }
    TSTreeCursor cursor = ts_tree_cursor_new(n);
    if (ts_tree_cursor_goto_first_child(&cursor)) {
        do {
            TSNode ch = ts_tree_cursor_current_node(&cursor);
            if (ts_node_is_named(ch))
                collect_calls(c, ch, depth + 1);
        } while (!c->oom && ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
}

/* The first parameter of fn when it is a plain name: self in a method. */
static gm_slice first_parameter(const gm_syntax *syn, const char *text, TSNode fn) {
    gm_slice none = {text, 0};
    TSNode params = gm_child(fn, syn->field.parameters);
    if (ts_node_is_null(params) || ts_node_named_child_count(params) == 0)
        return none;
    TSNode p = ts_node_named_child(params, 0);
    return gm_is(p, syn->sym.identifier) ? gm_node_slice(p, text) : none;
}

static int add_node(call_collect *c, TSNode fn, bool root, bool traceable, bool fullgraph) {
    const gm_syntax *syn = c->syntax;
    gm_call_part *p = c->part;
    TSNode name = gm_child(fn, syn->field.name);
    if (ts_node_is_null(name))
        return -1; /* cannot happen for a parsed definition; keeps the order honest */
    if (p->node_count == p->node_capacity) {
        uint32_t cap = p->node_capacity ? p->node_capacity * 2 : 4;
        gm_call_node *items = realloc(p->nodes, cap * sizeof *items);
        if (!items)
            return -1;
        p->nodes = items;
        p->node_capacity = cap;
    }
    gm_call_node *node = &p->nodes[p->node_count];
    memset(node, 0, sizeof *node);
    if (key_make(&node->key, c->class_name, gm_node_slice(name, c->text)) != 0)
        return -1;
    p->node_count++;
    node->root = root;
    node->traceable = traceable;
    node->fullgraph = root && fullgraph;
    node->callee_start = p->callee_count;
    c->node = node;
    c->function = fn;
    c->self_name = c->class_name ? first_parameter(syn, c->text, fn) : (gm_slice){c->text, 0};
    if (traceable)
        collect_calls(c, gm_child(fn, syn->field.body), 1);
    return c->oom ? -1 : 0;
}

/* ---- regions ------------------------------------------------------------------------- */

typedef struct {
    const gm_symbols *symbols;
    const gm_syntax *syntax;
    const char *text;
    const gm_analysis_options *options;
    const uint8_t *reach;
    gm_region_fn fn;
    void *payload;
    gm_call_part *part; /* when building the call graph's part instead of visiting regions */
} walk;

/* Whether a method of a class is a region on its own, and whether compiled code may enter it. */
static void classify_method(const walk *w, bool module_class, TSNode decorated, TSNode fn,
                            bool *root, bool *traceable, bool *fullgraph) {
    const gm_syntax *syn = w->syntax;
    gm_decorator_kind kind = decorators_kind(w->symbols, syn, w->text, decorated, fullgraph);
    TSNode name = gm_child(fn, syn->field.name);
    *root = kind == GM_DECORATOR_COMPILE;
    if (kind == GM_DECORATOR_OTHER && module_class && w->options->forward_is_compiled)
        *root = !ts_node_is_null(name) && gm_node_text_is(name, w->text, "forward");
    *traceable = kind != GM_DECORATOR_DISABLE && !ts_node_is_null(name) &&
                 !gm_node_text_is(name, w->text, "__init__");
}

static int visit_class(const walk *w, TSNode cls) {
    const gm_syntax *syn = w->syntax;
    TSNode body = gm_child(cls, syn->field.body);
    if (ts_node_is_null(body))
        return 0;
    gm_region_site site = {.class_node = cls};
    site.module_class = gm_symbols_bases_are_module(w->symbols, syn, w->text,
                                                    gm_child(cls, syn->field.superclasses));
    char class_name[GM_NAME_MAX];
    call_collect collect = {.symbols = w->symbols, .syntax = syn, .text = w->text, .part = w->part};
    if (w->part) {
        TSNode name = gm_child(cls, syn->field.name);
        gm_slice s = ts_node_is_null(name) ? (gm_slice){w->text, 0} : gm_node_slice(name, w->text);
        if (s.len >= sizeof class_name)
            s.len = sizeof class_name - 1;
        memcpy(class_name, s.ptr, s.len);
        class_name[s.len] = '\0';
        collect.class_name = class_name;
    }
    TSTreeCursor cursor = ts_tree_cursor_new(body);
    int rc = 0;
    size_t index = 0;
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
            bool root, traceable, fullgraph;
            classify_method(w, site.module_class, decorated, fn, &root, &traceable, &fullgraph);
            size_t at = index++;
            if (w->part) {
                rc = add_node(&collect, fn, root, traceable, fullgraph);
                continue;
            }
            uint8_t flags = w->reach ? w->reach[at] : 0;
            if (!root && !(traceable && (flags & GM_REACH_REACHED)))
                continue;
            site.function = fn;
            site.fullgraph = (flags & GM_REACH_FULLGRAPH) != 0;
            rc = w->fn(w->payload, &site);
        } while (rc == 0 && ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
    return rc;
}

static int visit_top(const walk *w, TSNode top) {
    const gm_syntax *syntax = w->syntax;
    TSNode def = top;
    TSNode decorated = {0};
    if (gm_is(top, syntax->sym.decorated_definition)) {
        decorated = top;
        def = gm_child(top, syntax->field.definition);
    }
    if (gm_is(def, syntax->sym.class_definition))
        return visit_class(w, def);
    if (!gm_is(def, syntax->sym.function_definition) ||
        ts_node_is_null(gm_child(def, syntax->field.name)))
        return 0;
    bool fullgraph;
    gm_decorator_kind kind = decorators_kind(w->symbols, syntax, w->text, decorated, &fullgraph);
    if (w->part) {
        call_collect collect = {
            .symbols = w->symbols, .syntax = syntax, .text = w->text, .part = w->part};
        return add_node(&collect, def, kind == GM_DECORATOR_COMPILE, kind != GM_DECORATOR_DISABLE,
                        fullgraph);
    }
    uint8_t flags = w->reach ? w->reach[0] : 0;
    if (kind == GM_DECORATOR_COMPILE ||
        (kind != GM_DECORATOR_DISABLE && (flags & GM_REACH_REACHED))) {
        gm_region_site site = {.function = def, .fullgraph = (flags & GM_REACH_FULLGRAPH) != 0};
        return w->fn(w->payload, &site);
    }
    return 0;
}

/* ---- compile targets and instances ----------------------------------------------------- */

static char *dup_text(const char *s, size_t n) {
    char *out = malloc(n + 1);
    if (out) {
        memcpy(out, s, n);
        out[n] = '\0';
    }
    return out;
}

static int add_target(gm_call_part *p, const char *name, size_t name_len, const char *member,
                      size_t member_len, bool fullgraph, bool module_compile) {
    if (p->target_count == p->target_capacity) {
        uint32_t cap = p->target_capacity ? p->target_capacity * 2 : 2;
        gm_compile_target *items = realloc(p->targets, cap * sizeof *items);
        if (!items)
            return -1;
        p->targets = items;
        p->target_capacity = cap;
    }
    gm_compile_target *t = &p->targets[p->target_count];
    t->name = dup_text(name, name_len);
    t->member = member ? dup_text(member, member_len) : NULL;
    t->fullgraph = fullgraph;
    t->module_compile = module_compile;
    if (!t->name || (member && !t->member)) {
        free(t->name);
        free(t->member);
        return -1;
    }
    p->target_count++;
    return 0;
}

/* The thing torch.compile is given: `f`, `obj.method`, `mod.f` (an import), `Net(...)`. */
static int add_target_expr(const walk *w, TSNode arg, bool fullgraph) {
    const gm_syntax *syn = w->syntax;
    arg = gm_unparen(syn, arg);
    if (gm_is(arg, syn->sym.call))
        arg = gm_unparen(syn, gm_child(arg, syn->field.function)); /* a module built in place */
    char name[GM_NAME_MAX];
    size_t len = 0;
    if (!chain_text(syn, w->text, arg, name, sizeof name, &len))
        return 0;
    TSNode head = gm_chain_head(syn, arg);
    const char *dot = strchr(name, '.');
    if (dot && !gm_symbols_is_imported(w->symbols, gm_node_slice(head, w->text))) {
        /* obj.method: the method of whatever class obj is an instance of */
        if (strchr(dot + 1, '.'))
            return 0;
        return add_target(w->part, name, (size_t)(dot - name), dot + 1, strlen(dot + 1), fullgraph,
                          false);
    }
    return add_target(w->part, name, len, NULL, 0, fullgraph, false);
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
    b->var = dup_text(var.ptr, var.len);
    b->class_name = dup_text(class_name, len);
    if (!b->var || !b->class_name) {
        free(b->var);
        free(b->class_name);
        return -1;
    }
    p->instance_count++;
    return 0;
}

/* `var = Cls(...)`, also through `.eval()`, `.to(device)` and similar calls on the result. */
static int note_instance(const walk *w, TSNode assignment) {
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
    char name[GM_NAME_MAX];
    size_t len = 0;
    if (!chain_text(syn, w->text, gm_child(right, syn->field.function), name, sizeof name, &len))
        return 0;
    return add_instance(w->part, gm_node_slice(left, w->text), name, len);
}

static int collect_targets(const walk *w, TSNode n, int depth) {
    const gm_syntax *syn = w->syntax;
    if (ts_node_is_null(n) || depth > 200)
        return 0;
    TSSymbol t = ts_node_symbol(n);
    int rc = 0;
    if (t == syn->sym.assignment) {
        rc = note_instance(w, n);
    } else if (t == syn->sym.call) {
        TSNode fn = gm_unparen(syn, gm_child(n, syn->field.function));
        TSNode args = gm_child(n, syn->field.arguments);
        TSNode first = ts_node_is_null(args) || ts_node_named_child_count(args) == 0
                           ? (TSNode){0}
                           : ts_node_named_child(args, 0);
        char name[GM_NAME_MAX];
        if (gm_is(fn, syn->sym.call)) {
            /* torch._dynamo.optimize(backend, nopython=...)(f) */
            TSNode inner = gm_unparen(syn, gm_child(fn, syn->field.function));
            if (!ts_node_is_null(first) && !gm_is(first, syn->sym.keyword_argument) &&
                gm_symbols_resolve(w->symbols, syn, w->text, inner, name, sizeof name) &&
                strcmp(name, "torch._dynamo.optimize") == 0)
                rc = add_target_expr(w, first, asks_fullgraph(syn, w->text, fn));
        } else if (gm_symbols_resolve(w->symbols, syn, w->text, fn, name, sizeof name)) {
            TSNode head = gm_chain_head(syn, fn);
            if (is_compile_name(name) && strcmp(name, "torch._dynamo.optimize") != 0) {
                if (!ts_node_is_null(first) && !gm_is(first, syn->sym.keyword_argument))
                    rc = add_target_expr(w, first, asks_fullgraph(syn, w->text, n));
            } else if (gm_is(fn, syn->sym.attribute) && gm_name_last_is(name, "compile") &&
                       gm_is(gm_unparen(syn, gm_child(fn, syn->field.object)),
                             syn->sym.identifier) &&
                       !gm_symbols_is_imported(w->symbols, gm_node_slice(head, w->text))) {
                /* model.compile(): nn.Module.compile compiles the module's forward */
                gm_slice obj = gm_node_slice(head, w->text);
                rc = add_target(w->part, obj.ptr, obj.len, NULL, 0, asks_fullgraph(syn, w->text, n),
                                true);
            }
        }
    }
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count && rc == 0; i++)
        rc = collect_targets(w, ts_node_named_child(n, i), depth + 1);
    return rc;
}

int gm_call_part_build(const gm_symbols *symbols, const gm_syntax *syntax, const char *text,
                       const gm_analysis_options *options, TSNode top, gm_call_part *part) {
    walk w = {symbols, syntax, text, options, NULL, NULL, NULL, part};
    if (visit_top(&w, top) != 0 || collect_targets(&w, top, 0) != 0) {
        gm_call_part_free(part);
        return -1;
    }
    return 0;
}

int gm_compiled_regions_each(const gm_symbols *symbols, const gm_syntax *syntax, const char *text,
                             const gm_analysis_options *options, TSNode top, const uint8_t *reach,
                             gm_region_fn fn, void *payload) {
    walk w = {symbols, syntax, text, options, reach, fn, payload, NULL};
    return visit_top(&w, top);
}
