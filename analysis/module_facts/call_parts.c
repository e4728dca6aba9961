#include "analysis/module_facts/call_parts.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/module_facts/compile_constants.h"
#include "analysis/module_facts/compile_targets.h"
#include "analysis/module_facts/decorators.h"
#include "analysis/module_facts/statement_functions.h"

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
    free(part->bound);
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

/* A callee found in a function's body, before the body's walk is over: guard is the name whose
 * local binding makes it not the module's function (`g` for g(...), `m` for m.f(...)), empty
 * for self.m(...). */
typedef struct {
    gm_call_key key;
    gm_slice guard;
} candidate;

/* The instance attributes of a class followed into their classes' methods. */
#define GM_MAX_INSTANCE_ATTRIBUTES 32

typedef struct {
    const gm_symbols *symbols;
    const gm_syntax *syntax;
    const char *text;
    gm_call_part *part;
    gm_call_node *node;
    TSNode function;
    const char *class_name; /* NULL for a plain function */
    gm_slice self_name;     /* empty when not a method */
    char class_buf[GM_NAME_MAX];
    gm_name_set bound;     /* what function binds locally (complete at the end of its walk) */
    candidate *candidates; /* of the current function, distinct (key, guard) pairs */
    uint32_t candidate_count, candidate_capacity;
    /* The bodies of the traceable nodes, in source order: the statement's one walk for compile
     * targets collects their calls when it gets there (collect_statement). */
    struct pending_body {
        TSNode fn, body;
        TSNode decorated; /* the decorated_definition around fn, or a null node */
        gm_slice self_name;
        uint32_t node;
        int depth;       /* of body below the statement */
        uint32_t parent; /* the node of the enclosing function (nested defs), or UINT32_MAX */
        /* A nested def its enclosing function returns: wrapped is that function's first
         * parameter (the function a decorator wraps), else empty. */
        gm_slice wrapped;
    } * bodies;
    uint32_t body_count, body_capacity;
    uint32_t next_body;     /* the next one the walk meets */
    uint32_t top_start;     /* the statement's first byte */
    gm_name_set properties; /* methods of the statement's class decorated with @property */
    /* `self.attr = Cls(...)` in the class's __init__: a call `self.attr.m(...)` runs Cls.m */
    struct instance_attribute {
        gm_slice attr, cls;
    } instance_attrs[GM_MAX_INSTANCE_ATTRIBUTES];
    uint32_t instance_attr_count;
    /* The defs directly inside the function being walked (not inside its nested defs):
     * function_definition nodes, and the decorated_definition around each (or null). */
    struct nested_def {
        TSNode fn, decorated;
    } * nested;
    uint32_t nested_count, nested_capacity;
    uint32_t body_index; /* the pending body being walked */
    /* The function child of the last call the walk met: the walk is pre-order and a call's
     * function is its first child, so an attribute equal to it is the function of its parent
     * call (cheaper than asking the tree for the parent). */
    TSNode last_call_function;
    bool oom;
} call_collect;

static void call_collect_free(call_collect *c) {
    for (uint32_t i = 0; i < c->candidate_count; i++)
        free(c->candidates[i].key.key);
    free(c->candidates);
    free(c->bodies);
    free(c->nested);
    gm_name_set_free(&c->bound);
    gm_name_set_free(&c->properties);
}

/* A new, zeroed entry at the end of c's pending bodies; NULL on OOM. */
static struct pending_body *push_pending_body(call_collect *c) {
    if (c->body_count == c->body_capacity) {
        uint32_t cap = c->body_capacity ? c->body_capacity * 2 : 4;
        struct pending_body *items = realloc(c->bodies, cap * sizeof *items);
        if (!items)
            return NULL;
        c->bodies = items;
        c->body_capacity = cap;
    }
    struct pending_body *b = &c->bodies[c->body_count++];
    memset(b, 0, sizeof *b);
    return b;
}

const char *gm_call_self_dispatch(const char *caller, const char *callee) {
    const char *dot = strchr(callee, '.');
    if (!dot || dot == callee || strchr(dot + 1, '.') || strchr(callee, '<') || dot[1] == '\0')
        return NULL;
    size_t class_len = (size_t)(dot - callee);
    if (strncmp(caller, callee, class_len + 1) != 0)
        return NULL;
    return dot + 1;
}

static void add_callee(call_collect *c, const char *prefix, gm_slice name, gm_slice guard) {
    size_t plen = prefix ? strlen(prefix) : 0;
    size_t need = plen + (prefix ? 1 : 0) + name.len + 1;
    char stack[256];
    char *key = need <= sizeof stack ? stack : malloc(need);
    if (!key) {
        c->oom = true;
        return;
    }
    size_t at = 0;
    if (prefix) {
        memcpy(key, prefix, plen);
        key[plen] = '.';
        at = plen + 1;
    }
    memcpy(key + at, name.ptr, name.len);
    key[at + name.len] = '\0';
    uint64_t hash = gm_call_key_hash(key);
    for (uint32_t i = 0; i < c->candidate_count; i++) {
        const candidate *d = &c->candidates[i];
        if (d->key.hash == hash && gm_slice_eq(d->guard, guard) && strcmp(d->key.key, key) == 0) {
            if (key != stack)
                free(key);
            return;
        }
    }
    if (c->candidate_count == c->candidate_capacity) {
        uint32_t cap = c->candidate_capacity ? c->candidate_capacity * 2 : 16;
        candidate *items = realloc(c->candidates, cap * sizeof *items);
        if (!items) {
            if (key != stack)
                free(key);
            c->oom = true;
            return;
        }
        c->candidates = items;
        c->candidate_capacity = cap;
    }
    char *owned = key != stack ? key : malloc(need);
    if (!owned) {
        c->oom = true;
        return;
    }
    if (owned != key)
        memcpy(owned, key, need);
    c->candidates[c->candidate_count++] = (candidate){{hash, owned}, guard};
}

/* Whether the names the part kept for node (keep_bound) include name. */
static bool node_binds(const call_collect *c, uint32_t node, gm_slice name) {
    const gm_call_part *p = c->part;
    const gm_call_node *n = &p->nodes[node];
    if (!n->has_bound)
        return false;
    const char *base = c->text + c->top_start;
    for (uint32_t i = 0; i < n->bound_count; i++) {
        const gm_bound_name *b = &p->bound[n->bound_start + i];
        if (b->len == name.len && memcmp(base + b->offset, name.ptr, name.len) == 0)
            return true;
    }
    return false;
}

/* The name a nested node's key ends in ("g" of "F.<locals>.g"). */
static gm_slice key_last(const char *key) {
    const char *dot = strrchr(key, '.');
    const char *at = dot ? dot + 1 : key;
    return (gm_slice){at, (uint32_t)strlen(at)};
}

/* The GM_CALL_NESTED node of parent named name, or UINT32_MAX. */
static uint32_t nested_node_named(const gm_call_part *p, uint32_t parent, gm_slice name) {
    for (uint32_t k = p->node_count; k-- > 0;)
        if (p->nodes[k].kind == GM_CALL_NESTED && p->nodes[k].parent == parent &&
            gm_slice_eq(key_last(p->nodes[k].key.key), name))
            return k;
    return UINT32_MAX;
}

/* Gives a candidate the key `owned` (NULL: out of memory). */
static bool take_key(candidate *d, char *owned) {
    if (!owned)
        return false;
    free(d->key.key);
    d->key.key = owned;
    d->key.hash = gm_call_key_hash(owned);
    return true;
}

/* Re-keys a candidate to the def `name` nested in the function keyed `prefix`. */
static bool rekey_nested(candidate *d, const char *prefix, gm_slice name) {
    size_t plen = strlen(prefix);
    char *owned = malloc(plen + 10 + name.len + 1);
    if (owned) {
        memcpy(owned, prefix, plen);
        memcpy(owned + plen, ".<locals>.", 10);
        memcpy(owned + plen + 10, name.ptr, name.len);
        owned[plen + 10 + name.len] = '\0';
    }
    return take_key(d, owned);
}

/* Where a call by name lands when the function (pending body b) or a function around it binds
 * the name: a def nested there (the candidate is re-keyed to it), or a local value (false).
 * Names bound nowhere around are the module's (true, unchanged). Sets *wrapped when the name is
 * the function the enclosing decorator wraps. */
static bool resolve_local(call_collect *c, const struct pending_body *b, candidate *d,
                          bool *wrapped) {
    gm_slice guard = d->guard;
    if (guard.len == 0)
        return true;
    bool plain = strlen(d->key.key) == guard.len && memcmp(d->key.key, guard.ptr, guard.len) == 0;
    if (gm_name_set_has(&c->bound, guard)) {
        if (!plain)
            return false;
        for (uint32_t i = 0; i < c->nested_count; i++) {
            TSNode name = gm_child(c->nested[i].fn, c->syntax->field.name);
            if (!ts_node_is_null(name) && gm_slice_eq(gm_node_slice(name, c->text), guard)) {
                if (!rekey_nested(d, c->node->key.key, guard))
                    c->oom = true;
                return !c->oom;
            }
        }
        return false;
    }
    for (uint32_t up = b->parent; up != UINT32_MAX; up = c->part->nodes[up].parent) {
        if (!node_binds(c, up, guard))
            continue;
        if (!plain)
            return false;
        if (b->wrapped.len > 0 && up == b->parent && gm_slice_eq(guard, b->wrapped))
            *wrapped = true;
        uint32_t k = nested_node_named(c->part, up, guard);
        if (k == UINT32_MAX)
            return false;
        if (!take_key(d, strdup(c->part->nodes[k].key.key)))
            c->oom = true;
        return !c->oom;
    }
    return true;
}

/* After the walk of a function: its callees, in the order first found, leaving out those whose
 * guard the function (or one around it) binds locally (a local name, not the module's function)
 * unless it names a nested def. Returns whether the function calls the function its enclosing
 * decorator wraps. */
static bool settle_callees(call_collect *c, const struct pending_body *b) {
    gm_call_part *p = c->part;
    bool wrapped = false;
    for (uint32_t k = 0; k < c->candidate_count; k++) {
        candidate *d = &c->candidates[k];
        bool keep = !c->oom && resolve_local(c, b, d, &wrapped);
        for (uint32_t i = c->node->callee_start; keep && i < p->callee_count; i++)
            if (p->callees[i].hash == d->key.hash && strcmp(p->callees[i].key, d->key.key) == 0)
                keep = false;
        if (keep && p->callee_count == p->callee_capacity) {
            uint32_t cap = p->callee_capacity ? p->callee_capacity * 2 : 8;
            gm_call_key *items = realloc(p->callees, cap * sizeof *items);
            if (!items) {
                c->oom = true;
                keep = false;
            } else {
                p->callees = items;
                p->callee_capacity = cap;
            }
        }
        if (!keep) {
            free(d->key.key);
            continue;
        }
        p->callees[p->callee_count++] = d->key;
        c->node->callee_count++;
    }
    c->candidate_count = 0;
    return wrapped;
}

/* `m.f(...)` where an import binds m (and the function does not rebind it): a call into another
 * module, kept as written. */
static void add_module_callee(call_collect *c, TSNode fn) {
    TSNode head = gm_chain_head(c->syntax, fn);
    if (ts_node_is_null(head) || !gm_symbols_is_imported(c->symbols, gm_node_slice(head, c->text)))
        return;
    char name[GM_NAME_MAX];
    size_t len = 0;
    if (!gm_dotted_name_text(c->syntax, c->text, fn, name, sizeof name, &len))
        return;
    gm_slice hs = gm_node_slice(head, c->text);
    if (hs.len >= GM_NAME_MAX)
        return;
    add_callee(c, NULL, (gm_slice){name, (uint32_t)len}, hs);
}

/* `self.attr.m(...)` where __init__ made attr an instance of Cls: a call of "Cls.m" (resolved
 * through the imports when Cls is imported). */
static void add_instance_method_name(call_collect *c, TSNode attribute, const char *method) {
    gm_slice attr = gm_node_slice(attribute, c->text);
    for (uint32_t i = 0; i < c->instance_attr_count; i++) {
        if (!gm_slice_eq(c->instance_attrs[i].attr, attr))
            continue;
        gm_slice cls = c->instance_attrs[i].cls, m = {method, (uint32_t)strlen(method)};
        char name[GM_NAME_MAX];
        if (cls.len + 1 + m.len >= sizeof name)
            return;
        memcpy(name, cls.ptr, cls.len);
        name[cls.len] = '.';
        memcpy(name + cls.len + 1, m.ptr, m.len);
        add_callee(c, NULL, (gm_slice){name, (uint32_t)(cls.len + 1 + m.len)},
                   (gm_slice){c->text, 0});
        return;
    }
}

static void add_instance_method_callee(call_collect *c, TSNode attribute, TSNode method) {
    char name[GM_NAME_MAX];
    gm_slice m = gm_node_slice(method, c->text);
    if (m.len >= sizeof name)
        return;
    memcpy(name, m.ptr, m.len);
    name[m.len] = '\0';
    add_instance_method_name(c, attribute, name);
}

static void note_call(call_collect *c, TSNode n) {
    const gm_syntax *syn = c->syntax;
    c->last_call_function = gm_child(n, syn->field.function);
    TSNode fn = gm_unparen(syn, c->last_call_function);
    if (gm_is(fn, syn->sym.identifier)) {
        add_callee(c, NULL, gm_node_slice(fn, c->text), gm_node_slice(fn, c->text));
    } else if (gm_is(fn, syn->sym.attribute)) {
        TSNode object = gm_unparen(syn, gm_child(fn, syn->field.object));
        TSNode attr = gm_child(fn, syn->field.attribute);
        gm_slice o = gm_node_slice(object, c->text);
        TSNode inner = gm_is(object, syn->sym.attribute)
                           ? gm_unparen(syn, gm_child(object, syn->field.object))
                           : (TSNode){0};
        if (c->class_name && c->self_name.len > 0 && gm_is(object, syn->sym.identifier) &&
            !ts_node_is_null(attr) && o.len == c->self_name.len &&
            memcmp(o.ptr, c->self_name.ptr, o.len) == 0) {
            add_callee(c, c->class_name, gm_node_slice(attr, c->text), (gm_slice){c->text, 0});
            /* `self.processor(...)` on an object __init__ made: its class's __call__ runs */
            add_instance_method_name(c, attr, "__call__");
        }
        else if (c->class_name && c->self_name.len > 0 && gm_is(inner, syn->sym.identifier) &&
                 gm_slice_eq(gm_node_slice(inner, c->text), c->self_name) && !ts_node_is_null(attr))
            add_instance_method_callee(c, gm_child(object, syn->field.attribute), attr);
        else
            add_module_callee(c, fn);
    }
}

/* `self.p` where p is a @property of the class: a call of its getter. */
static void note_property_read(call_collect *c, TSNode n) {
    const gm_syntax *syn = c->syntax;
    if (!c->class_name || c->self_name.len == 0)
        return;
    TSNode object = gm_unparen(syn, gm_child(n, syn->field.object));
    if (gm_is(object, syn->sym.identifier)) {
        if (c->properties.count == 0 || !gm_slice_eq(gm_node_slice(object, c->text), c->self_name))
            return;
        TSNode attr = gm_child(n, syn->field.attribute);
        gm_slice name = ts_node_is_null(attr) ? (gm_slice){0} : gm_node_slice(attr, c->text);
        if (name.len > 0 && gm_name_set_has(&c->properties, name))
            add_callee(c, c->class_name, name, (gm_slice){c->text, 0});
        return;
    }
    /* `self.attr.p` on an object __init__ made (not a call, which note_call takes): a property
     * of its class runs; a name that is no function there reaches nothing */
    if (c->instance_attr_count == 0 || !gm_is(object, syn->sym.attribute))
        return;
    TSNode inner = gm_unparen(syn, gm_child(object, syn->field.object));
    if (!gm_is(inner, syn->sym.identifier) ||
        !gm_slice_eq(gm_node_slice(inner, c->text), c->self_name))
        return;
    TSNode attr = gm_child(n, syn->field.attribute);
    if (ts_node_is_null(attr) || ts_node_eq(c->last_call_function, n))
        return;
    add_instance_method_callee(c, gm_child(object, syn->field.attribute), attr);
}

/* Moves the cursor to the next node of a pre-order walk that does not enter the current node:
 * its next sibling, or that of the nearest ancestor that has one; false at the end of the walk
 * (the cursor's root). *depth follows the levels climbed. */
static bool cursor_skip(TSTreeCursor *cursor, int *depth) {
    while (!ts_tree_cursor_goto_next_sibling(cursor)) {
        if (!ts_tree_cursor_goto_parent(cursor))
            return false;
        (*depth)--;
    }
    return true;
}

/* Adds fn as a node of the part; its calls are collected later, by the statement's walk
 * (depth: of fn below the statement). */
static int add_node(call_collect *c, TSNode fn, TSNode decorated, bool root, bool traceable,
                    bool fullgraph, int depth) {
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
    node->kind = GM_CALL_FUNCTION;
    node->parent = UINT32_MAX;
    node->root = root;
    node->traceable = traceable;
    node->fullgraph = root && fullgraph;
    node->returns_constant =
        !c->class_name &&
                (ts_node_is_null(decorated) ||
                 gm_decorators_keep_function(c->symbols, syn, c->text, decorated))
            ? (int8_t)gm_function_constant_return(c->symbols, syn, c->text, fn, NULL, 0)
            : -1;
    if (!c->class_name && ts_node_is_null(decorated))
        node->returns = gm_function_return_kinds(c->symbols, syn, c->text, fn);
    TSNode body = gm_child(fn, syn->field.body);
    /* __init__ is never traced, but what it builds is what the module's forward runs: its calls
     * name the classes of the model's path (gm_workspace_graph_model_classes). Nothing reaches
     * an untraceable node, so its calls lead nowhere else. */
    bool builds_module = c->class_name && gm_node_text_is(name, c->text, "__init__");
    if ((!traceable && !builds_module) || ts_node_is_null(body))
        return 0; /* no calls to collect */
    struct pending_body *b = push_pending_body(c);
    if (!b)
        return -1;
    b->fn = fn;
    b->body = body;
    b->decorated = decorated;
    b->self_name = c->class_name ? gm_first_parameter(syn, c->text, fn) : (gm_slice){c->text, 0};
    b->node = p->node_count - 1;
    b->depth = depth + 1;
    b->parent = UINT32_MAX;
    b->wrapped = (gm_slice){c->text, 0};
    return 0;
}

/* The statement's walk that builds its part. */
typedef struct {
    const gm_symbols *symbols;
    const gm_syntax *syntax;
    const char *text;
    gm_call_part *part;
    call_collect *collect;
} walk;

/* A dotted name (`Cls`, `mod.Cls`): letters, digits, underscores and inner dots. */
static bool is_dotted_name(gm_slice s) {
    if (s.len == 0 || s.ptr[0] == '.' || s.ptr[s.len - 1] == '.')
        return false;
    for (uint32_t i = 0; i < s.len; i++) {
        char ch = s.ptr[i];
        if (!(ch == '_' || ch == '.' || (ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'z') ||
              (ch >= 'A' && ch <= 'Z')))
            return false;
    }
    return true;
}

/* The class an annotation names: `Cls`, `mod.Cls`, the string `"Cls"` (a forward reference),
 * or either of those or'ed with None; an empty slice for anything else. */
static gm_slice annotated_class(const call_collect *c, TSNode type) {
    const gm_syntax *syn = c->syntax;
    TSNode n = gm_unparen(syn, type);
    if (gm_is(n, syn->sym.binary_operator)) {
        TSNode left = gm_unparen(syn, gm_child(n, syn->field.left));
        TSNode right = gm_unparen(syn, gm_child(n, syn->field.right));
        n = gm_is(left, syn->sym.none) ? right : gm_is(right, syn->sym.none) ? left : (TSNode){0};
    }
    if (gm_is(n, syn->sym.identifier) || gm_is(n, syn->sym.attribute)) {
        gm_slice s = gm_node_slice(n, c->text);
        return is_dotted_name(s) ? s : (gm_slice){c->text, 0};
    }
    if (gm_is(n, syn->sym.string) && gm_is_constant_string(syn, n)) {
        gm_slice s = gm_node_slice(n, c->text);
        if (s.len >= 2 && (s.ptr[0] == '"' || s.ptr[0] == '\'') && s.ptr[s.len - 1] == s.ptr[0]) {
            gm_slice inner = {s.ptr + 1, s.len - 2};
            if (is_dotted_name(inner))
                return inner;
        }
    }
    return (gm_slice){c->text, 0};
}

/* The class the annotation of the parameter name of the function fn names (see
 * annotated_class), or an empty slice. */
static gm_slice parameter_class(const call_collect *c, TSNode fn, gm_slice name) {
    TSNode type = gm_parameter_annotation(c->syntax, c->text, fn, name);
    if (ts_node_is_null(type) || ts_node_named_child_count(type) == 0)
        return (gm_slice){c->text, 0};
    return annotated_class(c, ts_node_named_child(type, 0));
}

/* Whether c can be part of an identifier (bytes of non-ASCII letters included). */
static bool is_word_byte(unsigned char c) {
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c >= 0x80;
}

/* Whether an assignment can be below n: a block, a statement or a clause of one. */
static bool holds_statements(const gm_syntax *syn, TSNode n) {
    if (gm_is(n, syn->sym.block))
        return true;
    const char *type = ts_node_type(n);
    size_t len = strlen(type);
    return (len > 10 && strcmp(type + len - 10, "_statement") == 0) ||
           (len > 7 && strcmp(type + len - 7, "_clause") == 0);
}

/* The `self.attr = Cls(...)` / `self.attr = mod.Cls(...)` assignments below n in the __init__
 * init (statements and their blocks, not nested definitions), and `self.attr = param` where a
 * parameter of init is annotated with a class (`processor: "AttnProcessor"`), into
 * c->instance_attrs. A name the class also binds otherwise stays: the later assignment wins at
 * run time, which the order here follows. */
static void note_instance_attributes(call_collect *c, TSNode init, TSNode n, gm_slice self_name,
                                     int depth) {
    const gm_syntax *syn = c->syntax;
    if (ts_node_is_null(n) || depth > 32)
        return;
    TSSymbol t = ts_node_symbol(n);
    if (t == syn->sym.function_definition || t == syn->sym.class_definition ||
        t == syn->sym.decorated_definition || t == syn->sym.lambda)
        return;
    if (t == syn->sym.assignment) {
        /* `self.attr = ...` starts with the word self (or a parenthesis): the text turns the
         * other assignments away before their children are looked up */
        gm_slice s = gm_node_slice(n, c->text);
        if (s.len <= self_name.len ||
            (s.ptr[0] != '(' && (memcmp(s.ptr, self_name.ptr, self_name.len) != 0 ||
                                 is_word_byte((unsigned char)s.ptr[self_name.len]))))
            return;
        TSNode left = gm_unparen(syn, gm_child(n, syn->field.left));
        TSNode right = gm_unparen(syn, gm_child(n, syn->field.right));
        TSNode object = gm_unparen(syn, gm_child(left, syn->field.object));
        TSNode fn = gm_is(right, syn->sym.call) ? gm_unparen(syn, gm_child(right, syn->field.function))
                                                : (TSNode){0};
        if (!gm_is(left, syn->sym.attribute) || !gm_is(object, syn->sym.identifier) ||
            !gm_slice_eq(gm_node_slice(object, c->text), self_name))
            return;
        gm_slice cls = {c->text, 0};
        if (gm_is(fn, syn->sym.identifier) || gm_is(fn, syn->sym.attribute))
            cls = gm_node_slice(fn, c->text);
        else if (gm_is(right, syn->sym.identifier))
            cls = parameter_class(c, init, gm_node_slice(right, c->text));
        if (cls.len == 0)
            return;
        gm_slice attr = gm_node_slice(gm_child(left, syn->field.attribute), c->text);
        uint32_t i = 0;
        while (i < c->instance_attr_count && !gm_slice_eq(c->instance_attrs[i].attr, attr))
            i++;
        if (i == GM_MAX_INSTANCE_ATTRIBUTES)
            return;
        c->instance_attrs[i] = (struct instance_attribute){attr, cls};
        if (i == c->instance_attr_count)
            c->instance_attr_count++;
        return;
    }
    if (!holds_statements(syn, n))
        return; /* an expression: no assignment below it */
    TSTreeCursor cursor = ts_tree_cursor_new(n);
    if (ts_tree_cursor_goto_first_child(&cursor)) {
        do {
            TSNode child = ts_tree_cursor_current_node(&cursor);
            if (ts_node_is_named(child))
                note_instance_attributes(c, init, child, self_name, depth + 1);
        } while (ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
}

/* Each function of the statement becomes a node; a method's node key is "Class.method", and
 * the class's @property methods are remembered (reading one runs it). */
static int add_function_node(void *payload, const gm_statement_function *f) {
    const walk *w = payload;
    call_collect *c = w->collect;
    const gm_syntax *syn = w->syntax;
    if (!ts_node_is_null(f->class_node) && f->index == 0) {
        TSNode name = gm_child(f->class_node, syn->field.name);
        gm_slice s = ts_node_is_null(name) ? (gm_slice){w->text, 0} : gm_node_slice(name, w->text);
        if (s.len >= sizeof c->class_buf)
            s.len = sizeof c->class_buf - 1;
        memcpy(c->class_buf, s.ptr, s.len);
        c->class_buf[s.len] = '\0';
        c->class_name = c->class_buf;
        gm_slice init_self;
        TSNode init = gm_class_init(syn, w->text, f->class_node, &init_self);
        c->instance_attr_count = 0;
        if (!ts_node_is_null(init))
            note_instance_attributes(c, init, gm_child(init, syn->field.body), init_self, 0);
    }
    if (!ts_node_is_null(f->class_node) &&
        gm_decorators_have_property(syn, w->text, f->decorated) &&
        gm_name_set_add(&c->properties,
                        gm_node_slice(gm_child(f->function, syn->field.name), w->text)) != 0)
        return -1;
    return add_node(c, f->function, f->decorated, f->root, f->traceable, f->fullgraph, f->depth);
}

/* A def directly inside the function being walked. */
static void note_nested(call_collect *c, TSNode fn, TSNode decorated) {
    if (c->nested_count == c->nested_capacity) {
        uint32_t cap = c->nested_capacity ? c->nested_capacity * 2 : 4;
        struct nested_def *items = realloc(c->nested, cap * sizeof *items);
        if (!items) {
            c->oom = true;
            return;
        }
        c->nested = items;
        c->nested_capacity = cap;
    }
    c->nested[c->nested_count++] = (struct nested_def){fn, decorated};
}

/* What collect_body's walk does at one named node n, at depth below the function (base more
 * below the statement), with each of its parts on or off; tells which parts go on below n. */
static void body_step_all(const walk *w, TSNode n, TSSymbol t, int depth, int base, bool calls,
                          bool binds, bool targets, bool *call_descend, bool *bind_descend,
                          bool *target_descend) {
    call_collect *c = w->collect;
    const gm_syntax *syn = c->syntax;
    *call_descend = *bind_descend = *target_descend = false;
    if (calls) {
        bool nested =
            depth > 1 && (t == syn->sym.lambda || t == syn->sym.function_definition ||
                          t == syn->sym.class_definition || t == syn->sym.decorated_definition);
        if (!nested) {
            if (t == syn->sym.call)
                note_call(c, n);
            else if (t == syn->sym.attribute && (c->properties.count || c->instance_attr_count))
                note_property_read(c, n);
            *call_descend = depth < 200;
        } else if (t == syn->sym.function_definition) {
            note_nested(c, n, (TSNode){0});
        } else if (t == syn->sym.decorated_definition) {
            TSNode def = gm_child(n, syn->field.definition);
            if (gm_is(def, syn->sym.function_definition))
                note_nested(c, def, n);
        }
    }
    if (targets && depth + base <= 200) {
        if (gm_compile_target_note(w->symbols, w->syntax, w->text, w->part, n, t, c->self_name) != 0)
            c->oom = true;
        *target_descend = depth + base < 200;
    }
    if (binds)
        *bind_descend = gm_body_node_binds(syn, c->text, n, &c->bound, &c->oom);
}

/* The walk below root (at depth0) with a cursor: for subtrees too deep to recurse into. Each
 * part is switched off below the depth (*_off; 0: on, -1: off throughout) where it stopped. */
static void cursor_walk(const walk *w, TSNode root, int depth0, int base, bool calls, bool binds,
                        bool targets) {
    call_collect *c = w->collect;
    TSTreeCursor cursor = ts_tree_cursor_new(root);
    int depth = depth0;
    int call_off = calls ? 0 : -1, bind_off = binds ? 0 : -1, target_off = targets ? 0 : -1;
    for (;;) {
        TSNode n = ts_tree_cursor_current_node(&cursor);
        if (call_off > 0 && depth <= call_off)
            call_off = 0;
        if (bind_off > 0 && depth <= bind_off)
            bind_off = 0;
        if (target_off > 0 && depth <= target_off)
            target_off = 0;
        bool call_descend = false, bind_descend = false, target_descend = false;
        if (ts_node_is_named(n))
            body_step_all(w, n, ts_node_symbol(n), depth, base, !call_off, !bind_off,
                          !target_off, &call_descend, &bind_descend, &target_descend);
        if (c->oom)
            break;
        if ((call_descend || bind_descend || target_descend) &&
            ts_tree_cursor_goto_first_child(&cursor)) {
            if (!call_off && !call_descend)
                call_off = depth;
            if (!bind_off && !bind_descend)
                bind_off = depth;
            if (!target_off && !target_descend)
                target_off = depth;
            depth++;
            continue;
        }
        if (!cursor_skip(&cursor, &depth))
            break;
    }
    ts_tree_cursor_delete(&cursor);
}

/* The same walk by recursion, taking the few children most nodes have by index (cheaper than
 * moving a cursor); a node with many children, or one too deep, goes through a cursor. Only
 * named nodes matter to any part of the walk, and of those only the ones where something can
 * run (gm_running_children: not the name of an attribute or a keyword argument, not the text
 * of a plain string, which no part of the walk looks at). */
static void body_visit(const walk *w, TSNode n, int depth, int base, bool calls, bool binds,
                       bool targets) {
    call_collect *c = w->collect;
    if (depth >= 96) {
        cursor_walk(w, n, depth, base, calls, binds, targets);
        return;
    }
    bool call_descend, bind_descend, target_descend;
    TSSymbol t = ts_node_symbol(n);
    body_step_all(w, n, t, depth, base, calls, binds, targets, &call_descend, &bind_descend,
                  &target_descend);
    if (c->oom || !(call_descend || bind_descend || target_descend))
        return;
    uint32_t first, end;
    gm_running_children(c->syntax, c->text, n, t, &first, &end);
    if (end <= 8) {
        for (uint32_t i = first; i < end && !c->oom; i++)
            body_visit(w, ts_node_named_child(n, i), depth + 1, base, call_descend, bind_descend,
                       target_descend);
        return;
    }
    TSTreeCursor cursor = ts_tree_cursor_new(n);
    uint32_t named = 0;
    if (ts_tree_cursor_goto_first_child(&cursor)) {
        do {
            TSNode child = ts_tree_cursor_current_node(&cursor);
            if (ts_node_is_named(child) && named++ >= first)
                body_visit(w, child, depth + 1, base, call_descend, bind_descend, target_descend);
        } while (!c->oom && named < end && ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
}

static void note_decorators(call_collect *c, TSNode decorated);

/* The body of a traceable node, walked once for three things: its calls (named nodes at most
 * 200 levels below the function, not inside nested lambdas, functions, classes or decorated
 * definitions), the names it binds locally (gm_body_node_binds decides where that walk goes),
 * and compile targets (named nodes at most 200 levels below the statement, as
 * collect_statement looks for them). Walking a tree costs more than looking at its nodes, so
 * the three share one walk. */
static void collect_body(const walk *w, const struct pending_body *b, bool targets) {
    call_collect *c = w->collect;
    const gm_syntax *syn = c->syntax;
    c->node = &c->part->nodes[b->node];
    c->node->callee_start = c->part->callee_count;
    c->function = b->fn;
    c->self_name = b->self_name;
    c->nested_count = 0;
    gm_name_set_clear(&c->bound);
    if (gm_parameters_bind(syn, c->text, b->fn, &c->bound) != 0)
        c->oom = true;
    if (ts_node_is_null(b->body) || c->oom)
        return;
    body_visit(w, b->body, 1, b->depth - 1, true, true, targets);
    if (!ts_node_is_null(b->decorated))
        note_decorators(c, b->decorated);
}

/* The key suffix of what a decorator returns (GM_CALL_RETURNS). */
#define GM_RETURN_SUFFIX ".<return>"

/* `@dec`, `@mod.dec` or `@dec(...)` on a traceable function (not torch.compile or disable, not
 * property & co.): calling the function runs what dec returns, "dec.<return>" (for a factory
 * called with arguments, what the decorator it returns returns: add_returns_node keys both). */
static void note_decorators(call_collect *c, TSNode decorated) {
    const gm_syntax *syn = c->syntax;
    uint32_t n = ts_node_named_child_count(decorated);
    for (uint32_t i = 0; i < n; i++) {
        TSNode d = ts_node_named_child(decorated, i);
        if (!gm_is(d, syn->sym.decorator) || ts_node_named_child_count(d) == 0)
            continue;
        TSNode e = gm_unparen(syn, ts_node_named_child(d, 0));
        if (gm_is(e, syn->sym.call))
            e = gm_unparen(syn, gm_child(e, syn->field.function));
        if (!gm_is(e, syn->sym.identifier) && !gm_is(e, syn->sym.attribute))
            continue;
        if (gm_is(e, syn->sym.identifier) && (gm_node_text_is(e, c->text, "property") ||
                                              gm_node_text_is(e, c->text, "staticmethod") ||
                                              gm_node_text_is(e, c->text, "classmethod")))
            continue;
        char name[GM_NAME_MAX + sizeof GM_RETURN_SUFFIX];
        size_t len = 0;
        if (!gm_dotted_name_text(syn, c->text, e, name, GM_NAME_MAX, &len) ||
            gm_decorator_classify(c->symbols, syn, c->text, d) != GM_DECORATOR_OTHER)
            continue;
        memcpy(name + len, GM_RETURN_SUFFIX, sizeof GM_RETURN_SUFFIX);
        add_callee(c, NULL, (gm_slice){name, (uint32_t)(len + sizeof GM_RETURN_SUFFIX - 1)},
                   (gm_slice){c->text, 0});
    }
}

/* Keeps the function's local names in the part, for its region's rules. */
static void keep_bound(call_collect *c) {
    gm_call_part *p = c->part;
    const gm_name_set *set = &c->bound;
    if (p->bound_count + set->count > p->bound_capacity) {
        uint32_t cap = p->bound_capacity ? p->bound_capacity : 32;
        while (cap < p->bound_count + set->count)
            cap *= 2;
        gm_bound_name *items = realloc(p->bound, cap * sizeof *items);
        if (!items) {
            c->oom = true;
            return;
        }
        p->bound = items;
        p->bound_capacity = cap;
    }
    c->node->has_bound = true;
    c->node->bound_start = p->bound_count;
    c->node->bound_count = set->count;
    for (uint32_t i = 0; i < set->count; i++)
        p->bound[p->bound_count++] = (gm_bound_name){
            (uint32_t)(set->items[i].ptr - c->text) - c->top_start, set->items[i].len};
}

/* The names `return name` statements of a function's body return (not those of nested
 * definitions or lambdas), up to cap; returns how many. */
static uint32_t returned_names(const gm_syntax *syn, const char *text, TSNode n, gm_slice *out,
                               uint32_t count, uint32_t cap, int depth) {
    TSSymbol t = ts_node_symbol(n);
    if (depth > 100 || t == syn->sym.function_definition || t == syn->sym.class_definition ||
        t == syn->sym.decorated_definition || t == syn->sym.lambda)
        return count;
    if (t == syn->sym.return_statement) {
        if (ts_node_named_child_count(n) == 1 && count < cap) {
            TSNode v = gm_unparen(syn, ts_node_named_child(n, 0));
            if (gm_is(v, syn->sym.identifier))
                out[count++] = gm_node_slice(v, text);
        }
        return count;
    }
    uint32_t k = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < k; i++)
        count = returned_names(syn, text, ts_node_named_child(n, i), out, count, cap, depth + 1);
    return count;
}

/* The name of fn's first parameter, typed or with a default (`func=None` of a decorator that
 * also takes arguments), or an empty slice. */
static gm_slice wrapped_parameter(const gm_syntax *syn, const char *text, TSNode fn) {
    TSNode params = gm_child(fn, syn->field.parameters);
    if (ts_node_is_null(params) || ts_node_named_child_count(params) == 0)
        return (gm_slice){text, 0};
    TSNode p = ts_node_named_child(params, 0);
    if (gm_is(p, syn->sym.default_parameter) || gm_is(p, syn->sym.typed_default_parameter))
        p = gm_child(p, syn->field.name);
    else if (gm_is(p, syn->sym.typed_parameter) && ts_node_named_child_count(p) > 0)
        p = ts_node_named_child(p, 0);
    return gm_is(p, syn->sym.identifier) ? gm_node_slice(p, text) : (gm_slice){text, 0};
}

/* Adds a node to the part (its key owned by the node from then on). */
static gm_call_node *push_node(gm_call_part *p, char *key) {
    if (p->node_count == p->node_capacity) {
        uint32_t cap = p->node_capacity ? p->node_capacity * 2 : 4;
        gm_call_node *items = realloc(p->nodes, cap * sizeof *items);
        if (!items)
            return NULL;
        p->nodes = items;
        p->node_capacity = cap;
    }
    gm_call_node *node = &p->nodes[p->node_count++];
    memset(node, 0, sizeof *node);
    node->key.key = key;
    node->key.hash = gm_call_key_hash(key);
    node->parent = UINT32_MAX;
    return node;
}

static char *key_join(const char *prefix, const char *middle, gm_slice name) {
    size_t plen = strlen(prefix), mlen = strlen(middle);
    char *key = malloc(plen + mlen + name.len + 1);
    if (key) {
        memcpy(key, prefix, plen);
        memcpy(key + plen, middle, mlen);
        memcpy(key + plen + mlen, name.ptr, name.len);
        key[plen + mlen + name.len] = '\0';
    }
    return key;
}

/* The nested defs of the function of pending body bi, as nodes (and pending bodies when
 * traceable), after its walk. */
static int add_nested_nodes(call_collect *c, uint32_t bi) {
    const gm_syntax *syn = c->syntax;
    gm_call_part *p = c->part;
    struct pending_body outer = c->bodies[bi];
    gm_slice returned[8];
    uint32_t returned_count = returned_names(syn, c->text, outer.body, returned, 0, 8, 0);
    /* a decorator: a plain function whose first parameter is the function it wraps */
    gm_slice first = outer.self_name.len == 0 && returned_count > 0
                         ? wrapped_parameter(syn, c->text, outer.fn)
                         : (gm_slice){c->text, 0};
    for (uint32_t i = 0; i < c->nested_count; i++) {
        struct nested_def nd = c->nested[i];
        TSNode name = gm_child(nd.fn, syn->field.name);
        if (ts_node_is_null(name))
            continue;
        gm_slice ns = gm_node_slice(name, c->text);
        bool fullgraph;
        gm_decorator_kind kind =
            gm_decorators_kind(c->symbols, syn, c->text, nd.decorated, &fullgraph);
        char *key = key_join(p->nodes[outer.node].key.key, ".<locals>.", ns);
        gm_call_node *node = key ? push_node(p, key) : NULL;
        if (!node) {
            free(key);
            return -1;
        }
        node->kind = GM_CALL_NESTED;
        node->returns_constant = -1;
        node->parent = outer.node;
        node->def_offset = ts_node_start_byte(nd.fn) - c->top_start;
        node->root = kind == GM_DECORATOR_COMPILE;
        node->traceable = kind != GM_DECORATOR_DISABLE;
        node->fullgraph = node->root && fullgraph;
        TSNode body = gm_child(nd.fn, syn->field.body);
        if (!node->traceable || ts_node_is_null(body))
            continue;
        struct pending_body *b = push_pending_body(c);
        if (!b)
            return -1;
        b->fn = nd.fn;
        b->body = body;
        b->decorated = nd.decorated;
        b->self_name = outer.self_name.len > 0 &&
                               !gm_parameters_bind_name(syn, c->text, nd.fn, outer.self_name)
                           ? outer.self_name
                           : (gm_slice){c->text, 0};
        b->node = p->node_count - 1;
        b->depth = outer.depth + 2;
        b->parent = outer.node;
        b->wrapped = (gm_slice){c->text, 0};
        for (uint32_t r = 0; r < returned_count && first.len > 0; r++)
            if (gm_slice_eq(returned[r], ns))
                b->wrapped = first;
    }
    return 0;
}

/* The decorator's "<return>" node, calling the wrapper. */
static int push_returns_node(call_collect *c, uint32_t decorator, uint32_t wrapper) {
    gm_call_part *p = c->part;
    char *key = key_join(p->nodes[decorator].key.key, GM_RETURN_SUFFIX, (gm_slice){"", 0});
    char *callee = strdup(p->nodes[wrapper].key.key);
    if (!key || !callee || p->callee_count == UINT32_MAX) {
        free(key);
        free(callee);
        return -1;
    }
    if (p->callee_count == p->callee_capacity) {
        uint32_t cap = p->callee_capacity ? p->callee_capacity * 2 : 8;
        gm_call_key *items = realloc(p->callees, cap * sizeof *items);
        if (!items) {
            free(key);
            free(callee);
            return -1;
        }
        p->callees = items;
        p->callee_capacity = cap;
    }
    gm_call_node *node = push_node(p, key);
    if (!node) {
        free(key);
        free(callee);
        return -1;
    }
    node->kind = GM_CALL_RETURNS;
    node->returns_constant = -1;
    node->parent = decorator;
    node->traceable = true;
    node->callee_start = p->callee_count;
    node->callee_count = 1;
    p->callees[p->callee_count++] = (gm_call_key){gm_call_key_hash(callee), callee};
    return 0;
}

/* Whether node is a nested def its enclosing function returns (a level of a decorator). */
static bool returned_by_parent(const call_collect *c, uint32_t node) {
    for (uint32_t i = 0; i < c->body_count; i++)
        if (c->bodies[i].node == node)
            return c->bodies[i].wrapped.len > 0;
    return false;
}

/* A wrapper its decorator returns that calls the wrapped function: the decorator's
 * "<return>" node, calling the wrapper; and the same for each level of a decorator factory
 * that returns the level below (`def dec(func=None, *, flag=True): def deco(func): def
 * wrapper(...): ... return wrapper; ... return deco`): @dec and @dec(...) run the wrapper. */
static int add_returns_node(call_collect *c, uint32_t wrapper) {
    uint32_t decorator = c->part->nodes[wrapper].parent;
    for (int level = 0; decorator != UINT32_MAX && level < 4; level++) {
        if (push_returns_node(c, decorator, wrapper) != 0)
            return -1;
        if (c->part->nodes[decorator].kind != GM_CALL_NESTED || !returned_by_parent(c, decorator))
            break;
        decorator = c->part->nodes[decorator].parent;
    }
    return 0;
}

static void collect_pending_body(const walk *w, bool targets) {
    call_collect *c = w->collect;
    uint32_t bi = c->next_body++;
    collect_body(w, &c->bodies[bi], targets);
    if (!c->oom)
        keep_bound(c);
    bool wrapped = settle_callees(c, &c->bodies[bi]);
    if (!c->oom && wrapped && add_returns_node(c, c->bodies[bi].node) != 0)
        c->oom = true;
    if (!c->oom && c->nested_count > 0 && add_nested_nodes(c, bi) != 0)
        c->oom = true;
}

/* Compile targets and instance bindings anywhere in the statement (named nodes, at most 200
 * levels down), and, when the walk reaches the body of a traceable node, that node's calls
 * (collect_body, which also takes over the targets there). Children are taken by index, which
 * tree-sitter answers faster than a cursor moves for the few children most nodes have; a node
 * with many uses a cursor (an index lookup walks the children before it). */
static void collect_statement(const walk *w, TSNode n, int depth) {
    call_collect *c = w->collect;
    if (c->next_body < c->body_count && ts_node_eq(n, c->bodies[c->next_body].body)) {
        collect_pending_body(w, true);
        return;
    }
    TSSymbol t = ts_node_symbol(n);
    if (gm_compile_target_note(w->symbols, w->syntax, w->text, w->part, n, t,
                               (gm_slice){w->text, 0}) != 0)
        c->oom = true;
    if (c->oom || depth >= 200)
        return;
    uint32_t first, end;
    gm_running_children(w->syntax, w->text, n, t, &first, &end);
    if (end <= 8) {
        for (uint32_t i = first; i < end && !c->oom; i++)
            collect_statement(w, ts_node_named_child(n, i), depth + 1);
        return;
    }
    TSTreeCursor cursor = ts_tree_cursor_new(n);
    uint32_t named = 0;
    if (ts_tree_cursor_goto_first_child(&cursor)) {
        do {
            TSNode child = ts_tree_cursor_current_node(&cursor);
            if (ts_node_is_named(child) && named++ >= first)
                collect_statement(w, child, depth + 1);
        } while (!c->oom && named < end && ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
}

int gm_call_part_build(const gm_symbols *symbols, const gm_syntax *syntax, const char *text,
                       const gm_analysis_options *options, TSNode top, bool with_targets,
                       gm_call_part *part) {
    /* On the stack (1.5 KB): a heap block that size makes glibc first merge the small blocks
     * freed since its last such request, which after a reparse are thousands. */
    call_collect collect;
    memset(&collect, 0, sizeof collect);
    call_collect *c = &collect;
    c->symbols = symbols;
    c->syntax = syntax;
    c->text = text;
    c->part = part;
    c->top_start = ts_node_start_byte(top);
    walk w = {symbols, syntax, text, part, c};
    int rc =
        gm_statement_functions_each(symbols, syntax, text, options, top, add_function_node, &w);
    part->targets_collected = with_targets;
    if (rc == 0) {
        /* without targets to look for, nothing outside the bodies matters */
        if (with_targets)
            collect_statement(&w, top, 0);
        /* bodies the walk did not reach (none in a parsed tree): their calls all the same */
        while (!c->oom && c->next_body < c->body_count)
            collect_pending_body(&w, false);
        /* callee ranges in node order; a node without calls starts where the next one does */
        uint32_t at = 0;
        for (uint32_t i = 0; i < part->node_count; i++) {
            if (part->nodes[i].callee_count == 0)
                part->nodes[i].callee_start = at;
            at = part->nodes[i].callee_start + part->nodes[i].callee_count;
        }
        rc = c->oom ? -1 : 0;
    }
    call_collect_free(c);
    if (rc != 0)
        gm_call_part_free(part);
    return rc;
}
