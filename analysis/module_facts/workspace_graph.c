#include "analysis/module_facts/workspace_graph.h"

#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GM_REEXPORT_DEPTH 4 /* __init__ re-exporting a re-export ... */

/* A growing list of owned strings. */
typedef struct {
    char **items;
    size_t count, capacity;
} string_list;

static int string_list_push(string_list *l, char *owned) {
    if (!owned)
        return -1;
    if (l->count == l->capacity) {
        size_t cap = l->capacity ? l->capacity * 2 : 8;
        char **items = realloc(l->items, cap * sizeof *items);
        if (!items) {
            free(owned);
            return -1;
        }
        l->items = items;
        l->capacity = cap;
    }
    l->items[l->count++] = owned;
    return 0;
}

typedef struct {
    char *root; /* owned: the directory its absolute imports start from */
    char *name; /* owned */
    bool is_package;
    gm_module_summary summary;
    bool star_imports; /* the summary has a star import (set per solve, by build_table) */
    bool *reached; /* per summary node, during a solve */
    bool *entered; /* per summary node: compiled code of another module calls it */
    /* per summary node, during a solve: 1 + the index into the graph's entries of the entry
     * point that alone reaches it (library modules' public functions), or 0 */
    uint32_t *via;
    /* the module's public functions and methods are entry points a user may compile (it is
     * part of a library being checked) */
    bool library;
    char **roots;  /* owned strings (the keys of entered nodes), sorted */
    size_t root_count;
    /* per solve, owned: "args:KEY:MASK" for its functions that other modules' compiled code
     * passes tensors to (collect_roots moves them into roots) */
    string_list passed;
    uint64_t roots_digest;
    /* solved, roots not collected yet: collect_roots runs when they are first asked for
     * (gm_workspace_graph_roots), as a run asks for few of a project's modules */
    bool roots_pending;
    size_t name_len;
} module;

/* A class of the workspace naming another as a base (resolved through the imports): the base
 * and the subclass, both by their class in their module's summary. */
typedef struct {
    const gm_summary_class *base;
    const gm_summary_class *sub;
    size_t sub_module;
} subclass_edge;

/* The names a module binds through its star imports (`from .functional import *`), each with
 * the module that binds it itself, built on first use per solve: a package `__init__` that
 * star-imports hundreds of modules (transformers' models/) is then one lookup per name, not a
 * search through every module it imports. */
typedef struct {
    uint64_t hash; /* 0: an empty slot */
    char *name;    /* owned */
    size_t to;     /* index + 1 of the module that binds the name */
} star_name;

typedef struct {
    star_name *slots;
    size_t size, count; /* size: 0 or a power of two */
    uint8_t state;      /* 0: not built, 1: being built (a cycle of star imports), 2: built */
} star_table;

struct gm_workspace_graph {
    /* per module, per solve: mutable through a const graph, a cache that resolve() fills on
     * the solving thread */
    star_table *star_tables;
    size_t star_table_count;
    subclass_edge *subclasses; /* per solve, sorted by base */
    size_t subclass_count, subclass_capacity;
    module *modules;
    size_t count, capacity;
    size_t *table; /* module index + 1 by name hash, built per solve */
    size_t table_size;
    /* module index + 1 by root and name, kept while modules are added (finding a module by a
     * walk of all made adding a project's modules quadratic); 0 size: to be rebuilt */
    size_t *by_place;
    size_t by_place_size;
    struct {
        size_t module, node;
    } * queue;
    size_t queue_capacity;
    /* per solve: the names of the entry points (library modules' public API that compiled
     * code does not reach anyway), owned */
    char **entry_names;
    size_t entry_count, entry_capacity;
    bool entry_phase;     /* reaching from the entry points */
    uint32_t current_via; /* what reach() marks in that phase */
    /* base_class answers by the base's string (a summary's own pointer), kept while no summary
     * changes: a solve asks for each class's bases once per method it looks up through them */
    struct base_answer *bases_known;
    size_t bases_known_size, bases_known_count;
    /* some module's roots_pending: collected before any module changes */
    bool roots_pending;
    /* held while roots are collected: analyses on several threads ask for them at once */
    pthread_mutex_t collecting;
};

typedef struct base_answer {
    const char *base; /* NULL: an empty slot */
    size_t module;    /* index + 1 of the module that defines it; 0: none */
    char *key;        /* owned: the class's key there */
} base_answer;

static void bases_known_clear(gm_workspace_graph *g) {
    for (size_t i = 0; i < g->bases_known_size; i++)
        free(g->bases_known[i].key);
    free(g->bases_known);
    g->bases_known = NULL;
    g->bases_known_size = g->bases_known_count = 0;
}

gm_workspace_graph *gm_workspace_graph_new(void) {
    gm_workspace_graph *g = calloc(1, sizeof(gm_workspace_graph));
    if (g && pthread_mutex_init(&g->collecting, NULL) != 0) {
        free(g);
        return NULL;
    }
    return g;
}

static void star_tables_free(gm_workspace_graph *g) {
    for (size_t i = 0; i < g->star_table_count; i++) {
        star_table *t = &g->star_tables[i];
        for (size_t k = 0; k < t->size; k++)
            free(t->slots[k].name);
        free(t->slots);
    }
    free(g->star_tables);
    g->star_tables = NULL;
    g->star_table_count = 0;
}

static void passed_clear(module *m) {
    for (size_t i = 0; i < m->passed.count; i++)
        free(m->passed.items[i]);
    free(m->passed.items);
    memset(&m->passed, 0, sizeof m->passed);
}

static void roots_clear(module *m) {
    for (size_t i = 0; i < m->root_count; i++)
        free(m->roots[i]);
    free(m->roots);
    m->roots = NULL;
    m->root_count = 0;
    m->roots_digest = 0;
}

static void module_free(module *m) {
    free(m->root);
    free(m->name);
    gm_module_summary_free(&m->summary);
    free(m->reached);
    free(m->entered);
    free(m->via);
    roots_clear(m);
    passed_clear(m);
}

void gm_workspace_graph_free(gm_workspace_graph *g) {
    if (!g)
        return;
    for (size_t i = 0; i < g->count; i++)
        module_free(&g->modules[i]);
    free(g->modules);
    free(g->table);
    free(g->by_place);
    free(g->queue);
    for (size_t i = 0; i < g->entry_count; i++)
        free(g->entry_names[i]);
    free(g->entry_names);
    free(g->subclasses);
    star_tables_free(g);
    bases_known_clear(g);
    pthread_mutex_destroy(&g->collecting);
    free(g);
}

size_t gm_workspace_graph_module_count(const gm_workspace_graph *g) {
    return g->count;
}

static size_t place_hash(const char *root, const char *name) {
    uint64_t h = gm_hash_bytes(GM_HASH_INIT, root, strlen(root) + 1);
    return (size_t)gm_hash_bytes(h, name, strlen(name));
}

static void place_insert(size_t *table, size_t size, const module *m, size_t index) {
    size_t at = place_hash(m->root, m->name) & (size - 1);
    while (table[at])
        at = (at + 1) & (size - 1);
    table[at] = index + 1;
}

/* Rebuilds the table for room modules at least. Returns 0, or -1 on OOM (no table then). */
static int places_rebuild(gm_workspace_graph *g, size_t room) {
    size_t size = 64;
    while (size < 2 * room)
        size *= 2;
    free(g->by_place);
    g->by_place_size = 0;
    g->by_place = calloc(size, sizeof *g->by_place);
    if (!g->by_place)
        return -1;
    g->by_place_size = size;
    for (size_t i = 0; i < g->count; i++)
        place_insert(g->by_place, size, &g->modules[i], i);
    return 0;
}

static module *find_module_at(const gm_workspace_graph *g, const char *root, const char *name) {
    if (!g->by_place_size) { /* no memory for the table: the walk */
        for (size_t i = 0; i < g->count; i++)
            if (strcmp(g->modules[i].name, name) == 0 && strcmp(g->modules[i].root, root) == 0)
                return &g->modules[i];
        return NULL;
    }
    size_t mask = g->by_place_size - 1;
    for (size_t at = place_hash(root, name) & mask; g->by_place[at]; at = (at + 1) & mask) {
        module *m = &g->modules[g->by_place[at] - 1];
        if (strcmp(m->name, name) == 0 && strcmp(m->root, root) == 0)
            return m;
    }
    return NULL;
}

/* The nodes of summary keyed key (a name may be defined twice: they are adjacent, the nodes
 * being sorted): [*first, end), empty when there is none. */
static size_t key_range(const gm_module_summary *summary, const char *key, size_t *first) {
    const gm_summary_node *found = gm_module_summary_find(summary, key);
    if (!found) {
        *first = 0;
        return 0;
    }
    size_t start = (size_t)(found - summary->nodes), end = start + 1;
    while (start > 0 && strcmp(summary->nodes[start - 1].key, key) == 0)
        start--;
    while (end < summary->node_count && strcmp(summary->nodes[end].key, key) == 0)
        end++;
    *first = start;
    return end;
}

static int collect_roots(const gm_workspace_graph *g, module *m);

/* Collects the roots still pending: what the last solve found must not change with the
 * summaries that change after it. */
static void collect_pending_roots(gm_workspace_graph *g) {
    if (!g->roots_pending)
        return;
    for (size_t i = 0; i < g->count; i++)
        if (g->modules[i].roots_pending) {
            g->modules[i].roots_pending = false;
            collect_roots(g, &g->modules[i]); /* on OOM the module has none */
        }
    g->roots_pending = false;
}

int gm_workspace_graph_set(gm_workspace_graph *g, const char *root, const char *name,
                           bool is_package, gm_module_summary *summary) {
    collect_pending_roots(g);
    bases_known_clear(g);
    module *m = find_module_at(g, root, name);
    if (m) {
        bool same = m->is_package == is_package && m->summary.digest == summary->digest;
        gm_module_summary_free(&m->summary);
        m->summary = *summary;
        memset(summary, 0, sizeof *summary);
        m->is_package = is_package;
        free(m->reached);
        free(m->entered);
        free(m->via);
        m->reached = m->entered = NULL;
        m->via = NULL;
        return same ? 0 : 1;
    }
    if (g->count == g->capacity) {
        size_t cap = g->capacity ? g->capacity * 2 : 16;
        module *items = realloc(g->modules, cap * sizeof *items);
        if (!items) {
            gm_module_summary_free(summary);
            return -1;
        }
        g->modules = items;
        g->capacity = cap;
    }
    m = &g->modules[g->count];
    memset(m, 0, sizeof *m);
    m->name = strdup(name);
    m->root = strdup(root);
    if (!m->name || !m->root) {
        free(m->name);
        free(m->root);
        gm_module_summary_free(summary);
        return -1;
    }
    m->name_len = strlen(name);
    m->is_package = is_package;
    m->summary = *summary;
    memset(summary, 0, sizeof *summary);
    g->count++;
    if (2 * g->count > g->by_place_size)
        places_rebuild(g, g->count * 2);
    else
        place_insert(g->by_place, g->by_place_size, m, g->count - 1);
    return 1;
}

int gm_workspace_graph_set_library(gm_workspace_graph *g, const char *root, const char *name,
                                   bool library) {
    collect_pending_roots(g);
    module *m = find_module_at(g, root, name);
    if (!m)
        return -1;
    m->library = library;
    return 0;
}

void gm_workspace_graph_remove(gm_workspace_graph *g, const char *root, const char *name) {
    collect_pending_roots(g);
    bases_known_clear(g);
    module *m = find_module_at(g, root, name);
    if (!m)
        return;
    module_free(m);
    size_t at = (size_t)(m - g->modules);
    memmove(m, m + 1, (g->count - at - 1) * sizeof *m);
    g->count--;
    places_rebuild(g, g->count); /* the modules after it moved */
}

/* ---- solving ------------------------------------------------------------------------------ */

static uint64_t hash_span(const char *s, size_t n) {
    return gm_hash_bytes(GM_HASH_INIT, s, n);
}

static int build_table(gm_workspace_graph *g) {
    star_tables_free(g); /* module indexes may have changed */
    g->star_tables = calloc(g->count + 1, sizeof *g->star_tables);
    if (!g->star_tables)
        return -1;
    g->star_table_count = g->count;
    for (size_t i = 0; i < g->count; i++) {
        module *m = &g->modules[i];
        m->star_imports = false;
        for (size_t k = 0; k < m->summary.import_count && !m->star_imports; k++)
            m->star_imports = strcmp(m->summary.imports[k].local, GM_STAR_IMPORT) == 0;
    }
    size_t size = 16;
    while (size < 2 * g->count)
        size *= 2;
    size_t *table = realloc(g->table, size * sizeof *table);
    if (!table)
        return -1;
    g->table = table;
    g->table_size = size;
    memset(table, 0, size * sizeof *table);
    for (size_t i = 0; i < g->count; i++) {
        const char *name = g->modules[i].name;
        size_t at = (size_t)hash_span(name, strlen(name)) & (size - 1);
        while (table[at])
            at = (at + 1) & (size - 1);
        table[at] = i + 1;
    }
    return 0;
}

/* The module name as seen from a module under root: one under the same root when there is one
 * (two script directories may each have their own utils.py), else any. */
static module *find_module(const gm_workspace_graph *g, const char *root, const char *name,
                           size_t len) {
    size_t mask = g->table_size - 1;
    module *any = NULL;
    for (size_t at = (size_t)hash_span(name, len) & mask; g->table[at]; at = (at + 1) & mask) {
        module *m = &g->modules[g->table[at] - 1];
        if (m->name_len != len || memcmp(m->name, name, len) != 0)
            continue;
        if (strcmp(m->root, root) == 0)
            return m;
        if (!any)
            any = m;
    }
    return any;
}

bool gm_module_absolute_name(const char *module_name, bool is_package, const char *name, char *buf,
                             size_t cap) {
    if (name[0] != '.') {
        if (strlen(name) + 1 > cap)
            return false;
        strcpy(buf, name);
        return true;
    }
    size_t dots = 0;
    while (name[dots] == '.')
        dots++;
    size_t base = strlen(module_name);
    if (!is_package) {
        const char *last = strrchr(module_name, '.');
        if (!last)
            return false; /* a top-level module has no package to be relative to */
        base = (size_t)(last - module_name);
    }
    for (size_t up = 1; up < dots; up++) {
        while (base > 0 && module_name[base - 1] != '.')
            base--;
        if (base == 0)
            return false;
        base--; /* the dot */
    }
    const char *rest = name + dots;
    size_t rest_len = strlen(rest);
    if (base + 1 + rest_len + 1 > cap)
        return false;
    memcpy(buf, module_name, base);
    if (rest_len) {
        buf[base] = '.';
        memcpy(buf + base + 1, rest, rest_len + 1);
    } else {
        buf[base] = '\0';
    }
    return true;
}

static module *resolve_star_export(const gm_workspace_graph *g, const module *m, const char *rest,
                                   char *key, size_t key_cap, int depth);

/* Which module a name of module from lives in and its key there ("f", "C.m", or a class name):
 * the longest prefix that is a known module, then through the re-exports of that module's
 * imports. NULL when the name is outside the workspace. */
static module *resolve(const gm_workspace_graph *g, const module *from, const char *name, char *key,
                       size_t key_cap, int depth) {
    char abs[2 * GM_NAME_MAX];
    if (depth > GM_REEXPORT_DEPTH ||
        !gm_module_absolute_name(from->name, from->is_package, name, abs, sizeof abs))
        return NULL;
    size_t len = strlen(abs);
    for (size_t cut = len; cut > 0; cut--) {
        if (abs[cut - 1] != '.')
            continue;
        module *m = find_module(g, from->root, abs, cut - 1);
        if (!m)
            continue;
        const char *rest = abs + cut;
        if (strlen(rest) + 1 > key_cap)
            return NULL;
        strcpy(key, rest);
        if (gm_module_summary_find(&m->summary, rest))
            return m;
        /* `from .helpers import norm` in pkg/__init__.py, then `from pkg import norm` */
        const char *dot = strchr(rest, '.');
        size_t head = dot ? (size_t)(dot - rest) : strlen(rest);
        for (size_t i = m->summary.import_count; i-- > 0;) {
            const gm_import *imp = &m->summary.imports[i];
            if (strlen(imp->local) != head || memcmp(imp->local, rest, head) != 0)
                continue;
            char next[2 * GM_NAME_MAX];
            size_t cl = strlen(imp->canonical), tail = strlen(rest + head);
            if (cl + tail + 1 > sizeof next)
                return NULL;
            memcpy(next, imp->canonical, cl);
            memcpy(next + cl, rest + head, tail + 1);
            return resolve(g, m, next, key, key_cap, depth + 1);
        }
        char head_name[GM_NAME_MAX];
        if (head < sizeof head_name) {
            memcpy(head_name, rest, head);
            head_name[head] = '\0';
        }
        if (head < sizeof head_name && !gm_module_summary_class(&m->summary, head_name)) {
            module *star = resolve_star_export(g, m, rest, key, key_cap, depth);
            if (star)
                return star;
            strcpy(key, rest);
        }
        return m;
    }
    return NULL;
}

static star_name *star_table_find(const star_table *t, const char *name, uint64_t h) {
    if (t->size == 0)
        return NULL;
    for (size_t i = h & (t->size - 1);; i = (i + 1) & (t->size - 1)) {
        star_name *e = &t->slots[i];
        if (e->hash == 0)
            return NULL;
        if (e->hash == h && strcmp(e->name, name) == 0)
            return e;
    }
}

static uint64_t star_name_hash(const char *name) {
    uint64_t h = gm_hash_bytes(GM_HASH_INIT, name, strlen(name));
    return h ? h : 1;
}

/* Binds name to module index to - 1 unless a later import bound it already (the imports are
 * walked last to first). Returns 0, or -1 on OOM. */
static int star_table_add(star_table *t, const char *name, size_t to) {
    if (name[0] == '_' || strcmp(name, GM_STAR_IMPORT) == 0)
        return 0; /* `import *` binds public names only */
    uint64_t h = star_name_hash(name);
    if (star_table_find(t, name, h))
        return 0;
    if (2 * (t->count + 1) > t->size) {
        size_t size = t->size ? 2 * t->size : 64;
        star_name *slots = calloc(size, sizeof *slots);
        if (!slots)
            return -1;
        for (size_t i = 0; i < t->size; i++) {
            if (t->slots[i].hash == 0)
                continue;
            size_t k = t->slots[i].hash & (size - 1);
            while (slots[k].hash != 0)
                k = (k + 1) & (size - 1);
            slots[k] = t->slots[i];
        }
        free(t->slots);
        t->slots = slots;
        t->size = size;
    }
    char *copy = strdup(name);
    if (!copy)
        return -1;
    size_t k = h & (t->size - 1);
    while (t->slots[k].hash != 0)
        k = (k + 1) & (t->size - 1);
    t->slots[k] = (star_name){h, copy, to};
    t->count++;
    return 0;
}

/* The star table of module index mi, built when it is not (NULL on OOM, or while it is being
 * built further up a cycle of star imports). */
static const star_table *star_table_of(const gm_workspace_graph *g, size_t mi, int depth) {
    if (mi >= g->star_table_count || depth > GM_REEXPORT_DEPTH)
        return NULL;
    star_table *t = &g->star_tables[mi];
    if (t->state != 0)
        return t->state == 2 ? t : NULL;
    t->state = 1;
    const module *m = &g->modules[mi];
    int rc = 0;
    for (size_t i = m->summary.import_count; rc == 0 && i-- > 0;) {
        const gm_import *imp = &m->summary.imports[i];
        char abs[2 * GM_NAME_MAX];
        if (strcmp(imp->local, GM_STAR_IMPORT) != 0 ||
            !gm_module_absolute_name(m->name, m->is_package, imp->canonical, abs, sizeof abs))
            continue;
        const module *from = find_module(g, m->root, abs, strlen(abs));
        if (!from || from == m)
            continue;
        size_t to = (size_t)(from - g->modules) + 1;
        const gm_module_summary *sm = &from->summary;
        for (size_t n = 0; rc == 0 && n < sm->node_count; n++)
            if (!strchr(sm->nodes[n].key, '.'))
                rc = star_table_add(t, sm->nodes[n].key, to);
        for (size_t c = 0; rc == 0 && c < sm->class_count; c++)
            rc = star_table_add(t, sm->classes[c].name, to);
        for (size_t k = 0; rc == 0 && k < sm->import_count; k++)
            rc = star_table_add(t, sm->imports[k].local, to);
        const star_table *inner = from->star_imports ? star_table_of(g, to - 1, depth + 1) : NULL;
        for (size_t k = 0; rc == 0 && inner && k < inner->size; k++)
            if (inner->slots[k].hash != 0)
                rc = star_table_add(t, inner->slots[k].name, inner->slots[k].to);
    }
    t->state = rc == 0 ? 2 : 0;
    return rc == 0 ? t : NULL;
}

/* A name m neither defines nor imports by name, looked for in the names m's star imports bind
 * (`from .functional import *` in pkg/__init__.py, then `from pkg import norm`): the module
 * that defines it, with its key, or NULL. */
static module *resolve_star_export(const gm_workspace_graph *g, const module *m, const char *rest,
                                   char *key, size_t key_cap, int depth) {
    if (!m->star_imports)
        return NULL;
    const star_table *t = star_table_of(g, (size_t)(m - g->modules), 0);
    char head[GM_NAME_MAX];
    size_t head_len = strcspn(rest, ".");
    if (!t || head_len >= sizeof head)
        return NULL;
    memcpy(head, rest, head_len);
    head[head_len] = '\0';
    const star_name *e = star_table_find(t, head, star_name_hash(head));
    if (!e)
        return NULL;
    const module *by = &g->modules[e->to - 1];
    char name[2 * GM_NAME_MAX];
    size_t nl = strlen(by->name), rl = strlen(rest);
    if (nl + 1 + rl + 1 > sizeof name)
        return NULL;
    memcpy(name, by->name, nl);
    name[nl] = '.';
    memcpy(name + nl + 1, rest, rl + 1);
    module *to = resolve(g, by, name, key, key_cap, depth + 1);
    if (to && to != m &&
        (gm_module_summary_find(&to->summary, key) || gm_module_summary_class(&to->summary, key)))
        return to;
    return NULL;
}

static int queue_push(gm_workspace_graph *g, size_t *tail, size_t m, size_t n) {
    if (*tail == g->queue_capacity) {
        size_t cap = g->queue_capacity ? g->queue_capacity * 2 : 256;
        void *items = realloc(g->queue, cap * sizeof *g->queue);
        if (!items)
            return -1;
        g->queue = items;
        g->queue_capacity = cap;
    }
    g->queue[*tail].module = m;
    g->queue[*tail].node = n;
    (*tail)++;
    return 0;
}

/* Reaches the nodes of m with key (all of them: a name may be defined twice), marking them
 * entered when the caller is another module. */
static int reach(gm_workspace_graph *g, size_t *tail, module *m, const char *key, bool entered) {
    size_t first, end = key_range(&m->summary, key, &first);
    for (size_t n = first; n < end; n++) {
        if (!m->summary.nodes[n].traceable)
            continue;
        if (g->entry_phase) { /* reached through an entry point: compiled when it is */
            if (m->reached[n] || m->via[n])
                continue;
            m->via[n] = g->current_via;
        } else {
            if (entered && !m->summary.nodes[n].root)
                m->entered[n] = true;
            if (m->reached[n])
                continue;
            m->reached[n] = true;
        }
        if (queue_push(g, tail, (size_t)(m - g->modules), n) != 0)
            return -1;
    }
    return 0;
}

#define GM_MRO_DEPTH 12 /* classes between a method's caller and its definition */

/* The module where base (a base of a class of m, as the summary spells it) is defined, with its
 * class name there in key; NULL when it is no class of the workspace. */
static module *base_class_resolved(const gm_workspace_graph *g, module *m, const char *base,
                                   char *key, size_t key_cap) {
    module *bm = m;
    if (strchr(base, '.') || !gm_module_summary_class(&m->summary, base)) {
        bm = resolve(g, m, base, key, key_cap, 0);
        if (!bm || strchr(key, '.'))
            return NULL;
    } else if (strlen(base) < key_cap) {
        strcpy(key, base);
    } else {
        return NULL;
    }
    return gm_module_summary_class(&bm->summary, key) ? bm : NULL;
}

static base_answer *base_answer_slot(const gm_workspace_graph *g, const char *base) {
    size_t mask = g->bases_known_size - 1;
    size_t at = (size_t)(((uintptr_t)base >> 3) * 0x9e3779b97f4a7c15ull) & mask;
    while (g->bases_known[at].base && g->bases_known[at].base != base)
        at = (at + 1) & mask;
    return &g->bases_known[at];
}

static void base_answer_grow(gm_workspace_graph *g) {
    size_t size = g->bases_known_size ? g->bases_known_size * 2 : 1024;
    base_answer *old = g->bases_known;
    size_t old_size = g->bases_known_size;
    g->bases_known = calloc(size, sizeof *g->bases_known);
    if (!g->bases_known) { /* only a memo: start again empty */
        g->bases_known = old;
        g->bases_known_size = old_size;
        bases_known_clear(g);
        return;
    }
    g->bases_known_size = size;
    for (size_t i = 0; i < old_size; i++)
        if (old[i].base)
            *base_answer_slot(g, old[i].base) = old[i];
    free(old);
}

/* The module and key (written to key) of the class base names, as m's imports make it, or NULL
 * when it is no class of the workspace. base is one of m's summary's strings. */
static module *base_class(const gm_workspace_graph *g, module *m, const char *base, char *key,
                          size_t key_cap) {
    gm_workspace_graph *memo = (gm_workspace_graph *)g; /* a cache, like the star tables */
    if (memo->bases_known_size) {
        const base_answer *known = base_answer_slot(g, base);
        if (known->base) {
            if (!known->module || strlen(known->key) >= key_cap)
                return NULL;
            strcpy(key, known->key);
            return &g->modules[known->module - 1];
        }
    }
    module *bm = base_class_resolved(g, m, base, key, key_cap);
    if (2 * (memo->bases_known_count + 1) > memo->bases_known_size)
        base_answer_grow(memo);
    if (memo->bases_known_size) {
        char *copy = bm ? strdup(key) : NULL;
        if (!bm || copy) {
            base_answer *slot = base_answer_slot(g, base);
            slot->base = base;
            slot->module = bm ? (size_t)(bm - g->modules) + 1 : 0;
            slot->key = copy;
            memo->bases_known_count++;
        }
    }
    return bm;
}

/* `self.m()` in a method of class cls of module m, where cls does not define m: the first
 * definition of method in cls's bases, depth first and left to right, in the same module or
 * through the imports that spell the bases. Nodes of a module other than from (where the call
 * is) are entered from outside. Sets *found when a base defines it. */
static int reach_inherited(gm_workspace_graph *g, size_t *tail, module *m, const char *cls,
                           const char *method, const module *from, int depth, bool *found) {
    const gm_summary_class *c = gm_module_summary_class(&m->summary, cls);
    if (!c || depth > GM_MRO_DEPTH)
        return 0;
    for (size_t b = 0; b < c->base_count && !*found; b++) {
        char key[2 * GM_NAME_MAX];
        module *bm = base_class(g, m, c->bases[b], key, sizeof key);
        if (!bm)
            continue;
        size_t n = strlen(key);
        char method_key[2 * GM_NAME_MAX];
        if (n + strlen(method) + 2 > sizeof method_key)
            continue;
        memcpy(method_key, key, n);
        method_key[n] = '.';
        strcpy(method_key + n + 1, method);
        if (gm_module_summary_find(&bm->summary, method_key)) {
            *found = true;
            return reach(g, tail, bm, method_key, bm != from);
        }
        if (reach_inherited(g, tail, bm, key, method, from, depth + 1, found) != 0)
            return -1;
    }
    return 0;
}

/* Reaches key of m, or, for "C.m" that m's class C does not define, the method its bases
 * define (reach_inherited). */
static int reach_method(gm_workspace_graph *g, size_t *tail, module *m, const char *key,
                        bool entered, const module *from) {
    if (gm_module_summary_find(&m->summary, key))
        return reach(g, tail, m, key, entered);
    const char *dot = strchr(key, '.');
    if (!dot || strchr(dot + 1, '.') || strchr(key, '<') || (size_t)(dot - key) >= 2 * GM_NAME_MAX)
        return 0;
    char cls[2 * GM_NAME_MAX];
    memcpy(cls, key, (size_t)(dot - key));
    cls[dot - key] = '\0';
    bool found = false;
    return reach_inherited(g, tail, m, cls, dot + 1, from, 0, &found);
}

static int subclass_edge_order(const void *a, const void *b) {
    uintptr_t x = (uintptr_t)((const subclass_edge *)a)->base;
    uintptr_t y = (uintptr_t)((const subclass_edge *)b)->base;
    return x < y ? -1 : x > y;
}

/* Every (base, subclass) pair of the workspace's classes, sorted by base. */
static int build_subclasses(gm_workspace_graph *g) {
    g->subclass_count = 0;
    for (size_t i = 0; i < g->count; i++) {
        module *m = &g->modules[i];
        for (size_t c = 0; c < m->summary.class_count; c++) {
            const gm_summary_class *cls = &m->summary.classes[c];
            for (size_t b = 0; b < cls->base_count; b++) {
                char key[2 * GM_NAME_MAX];
                module *bm = base_class(g, m, cls->bases[b], key, sizeof key);
                const gm_summary_class *base = bm ? gm_module_summary_class(&bm->summary, key) : NULL;
                if (!base || base == cls)
                    continue;
                if (g->subclass_count == g->subclass_capacity) {
                    size_t cap = g->subclass_capacity ? 2 * g->subclass_capacity : 64;
                    subclass_edge *items = realloc(g->subclasses, cap * sizeof *items);
                    if (!items)
                        return -1;
                    g->subclasses = items;
                    g->subclass_capacity = cap;
                }
                g->subclasses[g->subclass_count++] = (subclass_edge){base, cls, i};
            }
        }
    }
    if (g->subclass_count > 1)
        qsort(g->subclasses, g->subclass_count, sizeof *g->subclasses, subclass_edge_order);
    return 0;
}

/* `self.method(...)` in a method of cls: the instance may be of a subclass, whose override runs.
 * Reaches method of every subclass of cls in the workspace that defines it, and of their
 * subclasses; nodes of a module other than from are entered from outside. */
static int reach_overrides(gm_workspace_graph *g, size_t *tail, const gm_summary_class *cls,
                           const char *method, const module *from, int depth) {
    if (depth > GM_MRO_DEPTH)
        return 0;
    size_t lo = 0, hi = g->subclass_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if ((uintptr_t)g->subclasses[mid].base < (uintptr_t)cls)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t e = lo; e < g->subclass_count && g->subclasses[e].base == cls; e++) {
        module *sm = &g->modules[g->subclasses[e].sub_module];
        const gm_summary_class *sub = g->subclasses[e].sub;
        char key[2 * GM_NAME_MAX];
        int n = snprintf(key, sizeof key, "%s.%s", sub->name, method);
        if (n > 0 && (size_t)n < sizeof key && reach(g, tail, sm, key, sm != from) != 0)
            return -1;
        if (reach_overrides(g, tail, sub, method, from, depth + 1) != 0)
            return -1;
    }
    return 0;
}

/* The call of callee by the function keyed caller of m, when it goes through `self`. */
static int reach_dispatched(gm_workspace_graph *g, size_t *tail, module *m, const char *caller,
                            const char *callee) {
    const char *method = gm_call_self_dispatch(caller, callee);
    if (!method || g->subclass_count == 0)
        return 0;
    char cls[2 * GM_NAME_MAX];
    size_t len = (size_t)(method - 1 - callee);
    if (len >= sizeof cls)
        return 0;
    memcpy(cls, callee, len);
    cls[len] = '\0';
    const gm_summary_class *c = gm_module_summary_class(&m->summary, cls);
    return c ? reach_overrides(g, tail, c, method, m, 0) : 0;
}

/* A compiled function or class instance of another module: name, and member for a class. */
static int reach_target(gm_workspace_graph *g, size_t *tail, const module *from, const char *name,
                        const char *member) {
    char key[2 * GM_NAME_MAX];
    module *m = resolve(g, from, name, key, sizeof key, 0);
    if (!m || m == from)
        return 0;
    if (!member && gm_module_summary_find(&m->summary, key))
        return reach(g, tail, m, key, true);
    size_t n = strlen(key);
    const char *method = member ? member : "forward";
    if (n + strlen(method) + 2 > sizeof key)
        return 0;
    key[n] = '.';
    strcpy(key + n + 1, method);
    return reach_method(g, tail, m, key, true, from);
}

/* Whether class cls of module m subclasses torch.nn.Module: known in its own module, or through
 * its bases, in the same module or through the imports that spell them. */
static bool class_is_module(const gm_workspace_graph *g, module *m, const char *cls, int depth) {
    const gm_summary_class *c = gm_module_summary_class(&m->summary, cls);
    if (!c || depth > GM_MRO_DEPTH)
        return false;
    if (c->is_module)
        return true;
    for (size_t b = 0; b < c->base_count; b++) {
        char key[2 * GM_NAME_MAX];
        module *bm = base_class(g, m, c->bases[b], key, sizeof key);
        if (bm && class_is_module(g, bm, key, depth + 1))
            return true;
    }
    return false;
}

/* forward of the classes of m that are Modules only through bases in other modules: compiled,
 * as forward of a Module is (when the module's options say so). */
static int reach_inherited_modules(gm_workspace_graph *g, size_t *tail, module *m) {
    if (!m->summary.forward_is_compiled)
        return 0;
    for (size_t i = 0; i < m->summary.class_count; i++) {
        const gm_summary_class *c = &m->summary.classes[i];
        char key[2 * GM_NAME_MAX];
        if (c->is_module || c->base_count == 0 || strlen(c->name) + 9 > sizeof key)
            continue;
        snprintf(key, sizeof key, "%s.forward", c->name);
        if (gm_module_summary_find(&m->summary, key) && class_is_module(g, m, c->name, 0) &&
            reach(g, tail, m, key, true) != 0)
            return -1;
    }
    return 0;
}

static int node_key_order(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}


static char *constant_fact(const char *name, const char *member, int value) {
    size_t n = strlen(name), k = member ? strlen(member) + 1 : 0;
    char *fact = malloc(n + k + 3);
    if (!fact)
        return NULL;
    memcpy(fact, name, n);
    if (member) {
        fact[n] = '.';
        memcpy(fact + n + 1, member, k - 1);
    }
    fact[n + k] = '=';
    fact[n + k + 1] = value ? '1' : '0';
    fact[n + k + 2] = '\0';
    return fact;
}

/* What a visitor of imported functions is given: the call's name as m's import spells it
 * (canonical, and member for a function of a module imported whole, else NULL), and the
 * function's node in its module's summary. Returns 1 when it took a function imported by name
 * (the name is then not also tried as a module), 0 when not, -1 on OOM. */
typedef int (*imported_function_visitor)(const char *canonical, const char *member,
                                         const gm_module_summary *summary,
                                         const gm_summary_node *node, string_list *out);

/* Whether m binds name itself: a function it defines or a name an import binds. */
static bool binds_name(const module *m, const char *name) {
    if (gm_module_summary_find(&m->summary, name) || gm_module_summary_class(&m->summary, name))
        return true;
    for (size_t i = 0; i < m->summary.import_count; i++)
        if (strcmp(m->summary.imports[i].local, name) == 0)
            return true;
    return false;
}

/* Visits the public module-level functions of the module that `from <canonical> import *` in
 * m binds, each named as m calls it (bare) unless m binds that name itself. */
static int each_star_imported_function(const gm_workspace_graph *g, module *m,
                                       const char *canonical, imported_function_visitor visit,
                                       string_list *out) {
    char abs[2 * GM_NAME_MAX];
    if (!gm_module_absolute_name(m->name, m->is_package, canonical, abs, sizeof abs))
        return 0;
    module *whole = find_module(g, m->root, abs, strlen(abs));
    if (!whole || whole == m)
        return 0;
    for (size_t n = 0; n < whole->summary.node_count; n++) {
        const gm_summary_node *f = &whole->summary.nodes[n];
        if (strchr(f->key, '.') || f->key[0] == '_' || binds_name(m, f->key) ||
            (n > 0 && strcmp(whole->summary.nodes[n - 1].key, f->key) == 0))
            continue;
        if (visit(f->key, NULL, &whole->summary, f, out) < 0)
            return -1;
    }
    return 0;
}

/* Visits the module-level functions of other modules that m imports: one imported by name
 * (`from .utils import is_tracing`), or each of a module imported whole (`from . import
 * utils`). */
static int each_imported_function(const gm_workspace_graph *g, module *m,
                                  imported_function_visitor visit, string_list *out) {
    for (size_t i = 0; i < m->summary.import_count; i++) {
        const char *canonical = m->summary.imports[i].canonical;
        if (strcmp(m->summary.imports[i].local, GM_STAR_IMPORT) == 0) {
            if (each_star_imported_function(g, m, canonical, visit, out) != 0)
                return -1;
            continue;
        }
        char key[2 * GM_NAME_MAX];
        module *to = resolve(g, m, canonical, key, sizeof key, 0);
        const gm_summary_node *node = to ? gm_module_summary_find(&to->summary, key) : NULL;
        if (to && to != m && node) {
            int took = visit(canonical, NULL, &to->summary, node, out);
            if (took < 0)
                return -1;
            if (took)
                continue;
        }
        char abs[2 * GM_NAME_MAX];
        if (!gm_module_absolute_name(m->name, m->is_package, canonical, abs, sizeof abs))
            continue;
        module *whole = find_module(g, m->root, abs, strlen(abs));
        if (!whole || whole == m)
            continue;
        for (size_t n = 0; n < whole->summary.node_count; n++) {
            const gm_summary_node *f = &whole->summary.nodes[n];
            if (!strchr(f->key, '.') && visit(canonical, f->key, &whole->summary, f, out) < 0)
                return -1;
        }
    }
    return 0;
}

/* The functions of other modules that m imports and that return a compile-time constant, as
 * "name=value" with name as m's imports spell a call of it: `from .utils import is_tracing`
 * gives ".utils.is_tracing=1", `from . import utils` gives ".utils.is_tracing=1" for each such
 * function of utils. */
static int visit_constant(const char *canonical, const char *member,
                          const gm_module_summary *summary, const gm_summary_node *node,
                          string_list *out) {
    (void)summary;
    if (node->returns_constant < 0)
        return 0;
    return string_list_push(out, constant_fact(canonical, member, node->returns_constant)) != 0
               ? -1
               : 1;
}

/* The tensors the return annotation of the function of summary with node's key declares: an
 * @overload stub shares its key with the definition, and only the undecorated definition has
 * them (call_parts.h); two definitions that disagree say nothing. */
static gm_return_kinds declared_returns(const gm_module_summary *summary,
                                        const gm_summary_node *node) {
    gm_return_kinds found = {0, 0};
    size_t at = (size_t)(node - summary->nodes), first = at;
    while (first > 0 && strcmp(summary->nodes[first - 1].key, node->key) == 0)
        first--;
    for (size_t i = first; i < summary->node_count && strcmp(summary->nodes[i].key, node->key) == 0;
         i++) {
        gm_return_kinds r = summary->nodes[i].returns;
        if (!r.tensors)
            continue;
        if (found.tensors && (found.arity != r.arity || found.tensors != r.tensors))
            return (gm_return_kinds){0, 0};
        found = r;
    }
    return found;
}

static char *returns_fact(const char *name, const char *member, gm_return_kinds kinds) {
    char spelled[16];
    gm_return_kinds_format(kinds, spelled, sizeof spelled);
    size_t n = strlen("returns:") + strlen(name) + (member ? strlen(member) + 1 : 0) +
               strlen(spelled) + 2;
    char *fact = malloc(n);
    if (fact)
        snprintf(fact, n, "returns:%s%s%s:%s", name, member ? "." : "", member ? member : "",
                 spelled);
    return fact;
}

/* The functions of other modules that m imports and whose return annotation declares tensors,
 * as "returns:<name>:<arity>:<tensors>" with name as m's imports spell a call of it: `from
 * ..utils import to_edge_index` of a function annotated `-> Tuple[Tensor, Tensor]` gives
 * "returns:..utils.to_edge_index:2:3". */
static int visit_declared_returns(const char *canonical, const char *member,
                                  const gm_module_summary *summary, const gm_summary_node *node,
                                  string_list *out) {
    if (member && node > summary->nodes && strcmp(node[-1].key, node->key) == 0)
        return 0; /* a key already looked at (declared_returns reads them all) */
    gm_return_kinds kinds = declared_returns(summary, node);
    if (!kinds.tensors)
        return 0;
    return string_list_push(out, returns_fact(canonical, member, kinds)) != 0 ? -1 : 1;
}

/* The bases of m's classes that are Modules defined in other modules, as "module:<base>" with
 * base as m's imports spell it (`class L(GradientCheckpointingLayer)` after `from
 * ..modeling_layers import GradientCheckpointingLayer` gives
 * "module:..modeling_layers.GradientCheckpointingLayer"): m's own analysis then knows L is a
 * Module. */
static int collect_module_bases(const gm_workspace_graph *g, module *m, string_list *out) {
    for (size_t i = 0; i < m->summary.class_count; i++) {
        const gm_summary_class *c = &m->summary.classes[i];
        for (size_t b = 0; b < c->base_count; b++) {
            char key[2 * GM_NAME_MAX];
            module *bm = base_class(g, m, c->bases[b], key, sizeof key);
            if (!bm || bm == m || !class_is_module(g, bm, key, 0))
                continue;
            size_t n = strlen(c->bases[b]);
            char *fact = malloc(n + 8);
            if (!fact)
                return -1;
            memcpy(fact, "module:", 7);
            memcpy(fact + 7, c->bases[b], n + 1);
            if (string_list_push(out, fact) != 0)
                return -1;
        }
    }
    return 0;
}

/* The getters that break, and the methods that store tensors, of the classes of other modules
 * that m imports by name (breaking_properties.h), as m's import spells the class and with the
 * module that defines it: `from ..schedulers import Scheduler` and a breaking getter
 * Scheduler.sigma give "property:Scheduler.sigma:GM202:146:pkg.schedulers.scheduling". */
static int collect_property_facts(const gm_workspace_graph *g, module *m, string_list *out) {
    for (size_t i = 0; i < m->summary.import_count; i++) {
        const gm_import *imp = &m->summary.imports[i];
        char key[2 * GM_NAME_MAX];
        module *to = resolve(g, m, imp->canonical, key, sizeof key, 0);
        if (!to || to == m || strchr(key, '.') || !gm_module_summary_class(&to->summary, key))
            continue;
        size_t key_len = strlen(key);
        for (size_t f = 0; f < to->summary.property_fact_count; f++) {
            const char *fact = to->summary.property_facts[f];
            const char *colon = strchr(fact, ':');
            if (!colon || strncmp(colon + 1, key, key_len) != 0 || colon[1 + key_len] != '.')
                continue;
            size_t prefix = (size_t)(colon + 1 - fact);
            const char *rest = colon + 1 + key_len;
            size_t n = prefix + strlen(imp->local) + strlen(rest) + strlen(to->name) + 2;
            char *local = malloc(n);
            if (!local)
                return -1;
            snprintf(local, n, "%.*s%s%s:%s", (int)prefix, fact, imp->local, rest, to->name);
            if (string_list_push(out, local) != 0)
                return -1;
        }
    }
    return 0;
}

/* The "passes:NAME:MASK" facts of every module (its compiled code calls NAME, a function of
 * another module, with tensors at the positional arguments of MASK), handed to the module
 * that defines NAME as "args:KEY:MASK": one pass over the facts, each resolved once. */
static int distribute_passed_args(gm_workspace_graph *g) {
    static const char prefix[] = "passes:";
    for (size_t i = 0; i < g->count; i++) {
        module *from = &g->modules[i];
        for (size_t f = 0; f < from->summary.property_fact_count; f++) {
            const char *fact = from->summary.property_facts[f];
            if (strncmp(fact, prefix, sizeof prefix - 1) != 0)
                continue;
            const char *name = fact + sizeof prefix - 1, *colon = strrchr(name, ':');
            if (!colon || colon == name || (size_t)(colon - name) >= 2 * GM_NAME_MAX)
                continue;
            char canonical[2 * GM_NAME_MAX], key[2 * GM_NAME_MAX];
            memcpy(canonical, name, (size_t)(colon - name));
            canonical[colon - name] = '\0';
            module *to = resolve(g, from, canonical, key, sizeof key, 0);
            if (!to || to == from || !gm_module_summary_find(&to->summary, key))
                continue;
            size_t n = sizeof "args:" + strlen(key) + strlen(colon);
            char *arg = malloc(n);
            if (!arg)
                return -1;
            snprintf(arg, n, "args:%s%s", key, colon);
            if (string_list_push(&to->passed, arg) != 0)
                return -1;
        }
    }
    return 0;
}

/* "entry:KEY=ENTRY" for each function of m that only an entry point reaches: ENTRY is that
 * entry point's name ("pkg.solve", "pkg.mod.C.m"). */
static int collect_entry_facts(const gm_workspace_graph *g, const module *m, string_list *out) {
    for (size_t n = 0; n < m->summary.node_count; n++) {
        uint32_t via = m->via[n];
        if (!via || m->reached[n] ||
            (n > 0 && strcmp(m->summary.nodes[n - 1].key, m->summary.nodes[n].key) == 0))
            continue;
        const char *entry = g->entry_names[via - 1];
        const char *key = m->summary.nodes[n].key;
        size_t len = sizeof "entry:=" + strlen(key) + strlen(entry);
        char *fact = malloc(len);
        if (!fact)
            return -1;
        snprintf(fact, len, "entry:%s=%s", key, entry);
        if (string_list_push(out, fact) != 0)
            return -1;
    }
    return 0;
}

static int collect_roots(const gm_workspace_graph *g, module *m) {
    roots_clear(m);
    string_list facts = {0};
    for (size_t n = 0; n < m->summary.node_count; n++) {
        if (!m->entered[n])
            continue;
        const char *key = m->summary.nodes[n].key;
        if (facts.count > 0 && strcmp(facts.items[facts.count - 1], key) == 0)
            continue; /* nodes are sorted: duplicates are adjacent */
        if (string_list_push(&facts, strdup(key)) != 0)
            goto oom;
    }
    if (collect_entry_facts(g, m, &facts) != 0 ||
        each_imported_function(g, m, visit_constant, &facts) != 0 ||
        each_imported_function(g, m, visit_declared_returns, &facts) != 0 ||
        collect_module_bases(g, m, &facts) != 0 || collect_property_facts(g, m, &facts) != 0)
        goto oom;
    for (size_t i = 0; i < m->passed.count; i++) {
        char *arg = m->passed.items[i];
        m->passed.items[i] = NULL; /* moved (string_list_push frees it on failure) */
        if (string_list_push(&facts, arg) != 0)
            goto oom;
    }
    if (facts.count > 1)
        qsort(facts.items, facts.count, sizeof *facts.items, node_key_order);
    size_t kept = 0; /* two classes with the same base give the same fact */
    for (size_t i = 0; i < facts.count; i++) {
        if (kept > 0 && strcmp(facts.items[kept - 1], facts.items[i]) == 0)
            free(facts.items[i]);
        else
            facts.items[kept++] = facts.items[i];
    }
    facts.count = kept;
    uint64_t digest = GM_HASH_INIT;
    for (size_t i = 0; i < facts.count; i++)
        digest = gm_hash_bytes(digest, facts.items[i], strlen(facts.items[i]) + 1);
    m->roots = facts.items;
    m->root_count = facts.count;
    m->roots_digest = facts.count ? digest : 0;
    return 0;
oom:
    for (size_t i = 0; i < facts.count; i++)
        free(facts.items[i]);
    free(facts.items);
    return -1;
}

/* Follows the calls of the queued nodes (from head to the end of the queue, which grows), and
 * returns where the queue ends then, or -1 on OOM. */
static ptrdiff_t propagate(gm_workspace_graph *g, size_t head, size_t tail) {
    for (; head < tail; head++) {
        module *m = &g->modules[g->queue[head].module];
        const gm_summary_node *node = &m->summary.nodes[g->queue[head].node];
        if (g->entry_phase)
            g->current_via = m->via[g->queue[head].node]; /* the entry it was reached through */
        for (uint32_t c = 0; c < node->callee_count; c++) {
            const char *callee = m->summary.callees[node->callee_start + c];
            if (reach_method(g, &tail, m, callee, false, m) != 0 ||
                reach_dispatched(g, &tail, m, node->key, callee) != 0)
                return -1;
        }
        for (uint32_t e = 0; e < node->external_count; e++) {
            char key[2 * GM_NAME_MAX];
            module *to =
                resolve(g, m, m->summary.externals[node->external_start + e], key, sizeof key, 0);
            if (to && to != m && reach(g, &tail, to, key, true) != 0)
                return -1;
        }
    }
    return (ptrdiff_t)tail;
}

/* Whether a module is a test or an example of its package, not its API ("pkg.tests.test_x",
 * "conftest"): its public functions are not entry points. */
static bool test_module(const char *name) {
    for (const char *seg = name; seg && *seg; seg = strchr(seg, '.') ? strchr(seg, '.') + 1 : NULL) {
        size_t n = strcspn(seg, ".");
        if ((n == 4 && strncmp(seg, "test", 4) == 0) || (n == 5 && strncmp(seg, "tests", 5) == 0) ||
            (n == 7 && strncmp(seg, "testing", 7) == 0) ||
            (n == 8 && strncmp(seg, "conftest", 8) == 0) || strncmp(seg, "test_", 5) == 0 ||
            (n > 5 && strncmp(seg + n - 5, "_test", 5) == 0) ||
            (n == 8 && strncmp(seg, "examples", 8) == 0) ||
            (n == 10 && strncmp(seg, "benchmarks", 10) == 0))
            return true;
    }
    return false;
}

/* Whether a function's key names public API: "f" or "C.m" with no part private ("_f",
 * "_C.m", "C._m") or special ("__call__"), not a nested def or a decorator's return. */
static bool public_key(const char *key) {
    if (!key[0] || strchr(key, '<'))
        return false;
    for (const char *seg = key; seg; seg = strchr(seg, '.') ? strchr(seg, '.') + 1 : NULL)
        if (*seg == '_' || *seg == '\0')
            return false;
    return true;
}

/* Whether a module is public API of its package: no part of its name private ("pkg._core"). */
static bool public_module(const char *name) {
    for (const char *seg = name; seg; seg = strchr(seg, '.') ? strchr(seg, '.') + 1 : NULL)
        if (*seg == '_')
            return false;
    return true;
}

/* Makes the traceable nodes of m keyed key (unless compiled code or an entry reaches them
 * already) entry points named name ("pkg.solve"), queued. */
static int add_entry(gm_workspace_graph *g, size_t *tail, size_t mi, const char *key,
                     const char *name) {
    module *m = &g->modules[mi];
    size_t first, end = key_range(&m->summary, key, &first);
    for (size_t k = first; k < end; k++) {
        const gm_summary_node *node = &m->summary.nodes[k];
        if (m->reached[k] || m->via[k] || !node->traceable)
            continue;
        if (g->entry_count == g->entry_capacity) {
            size_t cap = g->entry_capacity ? 2 * g->entry_capacity : 64;
            char **items = realloc(g->entry_names, cap * sizeof *items);
            if (!items)
                return -1;
            g->entry_names = items;
            g->entry_capacity = cap;
        }
        if (!(g->entry_names[g->entry_count] = strdup(name)))
            return -1;
        m->via[k] = (uint32_t)++g->entry_count;
        if (queue_push(g, tail, mi, k) != 0)
            return -1;
    }
    return 0;
}

/* The entry points a public name of a library gives: the function of m keyed key, or the
 * public methods of the class named key; each named after prefix ("pkg.solve", "pkg.Net"). */
static int add_entries_named(gm_workspace_graph *g, size_t *tail, size_t mi, const char *key,
                             const char *prefix) {
    const module *m = &g->modules[mi];
    size_t key_len = strlen(key);
    char name[4 * GM_NAME_MAX];
    for (size_t k = 0; k < m->summary.node_count; k++) {
        const char *node_key = m->summary.nodes[k].key;
        if (k > 0 && strcmp(m->summary.nodes[k - 1].key, node_key) == 0)
            continue; /* add_entry takes every node of a key */
        bool function = strcmp(node_key, key) == 0;
        bool method = strncmp(node_key, key, key_len) == 0 && node_key[key_len] == '.' &&
                      public_key(node_key + key_len + 1);
        if (!(function || method) || !public_key(node_key))
            continue;
        int n = snprintf(name, sizeof name, "%s%s", prefix, node_key + key_len);
        if (n > 0 && (size_t)n < sizeof name && add_entry(g, tail, mi, node_key, name) != 0)
            return -1;
    }
    return 0;
}

/* The second phase of a solve: the public API of the library modules that compiled code does
 * not reach is a set of entry points a user may compile (torch.compile(solve),
 * torch.compile(model.generate)): the functions and public methods of public classes that its
 * public packages' __init__ import from the library's other modules (`from ._core.sdeint
 * import sdeint`, named as the package spells them), that its public modules define, and that
 * its private modules define. What each
 * reaches in turn is compiled when it is, and keeps in via the entry it was first reached
 * through. */
static int reach_entries(gm_workspace_graph *g) {
    for (size_t i = 0; i < g->entry_count; i++)
        free(g->entry_names[i]);
    g->entry_count = 0;
    size_t tail = 0;
    g->entry_phase = true;
    char prefix[4 * GM_NAME_MAX], key[2 * GM_NAME_MAX];
    /* what public packages' __init__ import first: the spelling users import names an entry */
    for (size_t i = 0; i < g->count; i++) {
        module *m = &g->modules[i];
        if (!m->library || !m->is_package || test_module(m->name) || !public_module(m->name))
            continue;
        for (size_t k = 0; k < m->summary.import_count; k++) {
            const gm_import *imp = &m->summary.imports[k];
            module *to = public_key(imp->local) ? resolve(g, m, imp->canonical, key, sizeof key, 0)
                                                : NULL;
            int n = snprintf(prefix, sizeof prefix, "%s.%s", m->name, imp->local);
            if (!to || to == m || !to->library || !key[0] || n <= 0 || (size_t)n >= sizeof prefix)
                continue;
            if (add_entries_named(g, &tail, (size_t)(to - g->modules), key, prefix) != 0)
                return -1;
        }
    }
    /* then the public names the public modules define, then those of private modules that
     * nothing above reaches (a solver's step method that a dispatch the graph cannot follow
     * calls), each stage's reach followed before the next, so that a name reached from the
     * package's API is named after it */
    size_t head = 0;
    for (int stage = 0; stage < 3; stage++) {
        for (size_t i = 0; stage > 0 && i < g->count; i++) {
            module *m = &g->modules[i];
            if (!m->library || test_module(m->name) || public_module(m->name) != (stage == 1))
                continue;
            for (size_t k = 0; k < m->summary.node_count; k++) {
                const char *node_key = m->summary.nodes[k].key;
                int n = snprintf(prefix, sizeof prefix, "%s.%s", m->name, node_key);
                if (public_key(node_key) && n > 0 && (size_t)n < sizeof prefix &&
                    add_entry(g, &tail, i, node_key, prefix) != 0)
                    return -1;
            }
        }
        ptrdiff_t end = propagate(g, head, tail);
        if (end < 0)
            return -1;
        head = tail = (size_t)end;
    }
    g->entry_phase = false;
    return 0;
}

int gm_workspace_graph_solve(gm_workspace_graph *g) {
    g->roots_pending = false;
    bases_known_clear(g); /* star tables are rebuilt, and resolve reads them */
    for (size_t i = 0; i < g->count; i++) {
        g->modules[i].roots_pending = false;
        roots_clear(&g->modules[i]);
        passed_clear(&g->modules[i]);
    }
    if (g->count == 0)
        return 0;
    if (build_table(g) != 0 || build_subclasses(g) != 0)
        return -1;
    size_t tail = 0;
    for (size_t i = 0; i < g->count; i++) {
        module *m = &g->modules[i];
        size_t n = m->summary.node_count;
        free(m->reached);
        free(m->entered);
        free(m->via);
        m->reached = calloc(n ? n : 1, sizeof *m->reached);
        m->entered = calloc(n ? n : 1, sizeof *m->entered);
        m->via = calloc(n ? n : 1, sizeof *m->via);
        if (!m->reached || !m->entered || !m->via)
            return -1;
        for (size_t k = 0; k < n; k++)
            if (m->summary.nodes[k].root) {
                m->reached[k] = true;
                if (queue_push(g, &tail, i, k) != 0)
                    return -1;
            }
    }
    for (size_t i = 0; i < g->count; i++)
        if (reach_inherited_modules(g, &tail, &g->modules[i]) != 0)
            return -1;
    for (size_t i = 0; i < g->count; i++) {
        module *m = &g->modules[i];
        for (size_t t = 0; t < m->summary.target_count; t++)
            if (reach_target(g, &tail, m, m->summary.target_names[t],
                             m->summary.target_members[t]) != 0)
                return -1;
    }
    if (propagate(g, 0, tail) < 0 || reach_entries(g) != 0 || distribute_passed_args(g) != 0)
        return -1;
    for (size_t i = 0; i < g->count; i++)
        g->modules[i].roots_pending = true;
    g->roots_pending = true;
    return 0;
}

const gm_module_summary *gm_workspace_graph_summary(const gm_workspace_graph *g, const char *root,
                                                    const char *name) {
    const module *m = find_module_at(g, root, name);
    return m ? &m->summary : NULL;
}

const char *const *gm_workspace_graph_roots(const gm_workspace_graph *g, const char *root,
                                            const char *name, size_t *count, uint64_t *digest) {
    module *m = find_module_at(g, root, name);
    if (m && g->roots_pending) { /* only a solve or a change writes g->roots_pending */
        gm_workspace_graph *mutable_graph = (gm_workspace_graph *)g; /* the lazy part of a solve */
        pthread_mutex_lock(&mutable_graph->collecting);
        if (m->roots_pending) {
            collect_roots(g, m); /* on OOM the module has none */
            m->roots_pending = false;
        }
        pthread_mutex_unlock(&mutable_graph->collecting);
    }
    *count = m ? m->root_count : 0;
    *digest = m ? m->roots_digest : 0;
    return m ? (const char *const *)m->roots : NULL;
}

/* ---- the classes a model is built of ------------------------------------------------------ */

typedef struct {
    module *m;
    char *cls; /* owned */
} class_ref;

static int class_visit(class_ref **items, size_t *count, size_t *cap, module *m, const char *cls) {
    for (size_t i = 0; i < *count; i++)
        if ((*items)[i].m == m && strcmp((*items)[i].cls, cls) == 0)
            return 0;
    if (!gm_module_summary_class(&m->summary, cls))
        return 0; /* a function, or nothing the workspace defines */
    if (*count == *cap) {
        size_t n = *cap ? *cap * 2 : 16;
        class_ref *grown = realloc(*items, n * sizeof *grown);
        if (!grown)
            return -1;
        *items = grown;
        *cap = n;
    }
    char *copy = strdup(cls);
    if (!copy)
        return -1;
    (*items)[(*count)++] = (class_ref){m, copy};
    return 0;
}

/* The classes __init__ of cls (in m) instantiates, as its summary node's calls name them. */
static int visit_init_calls(const gm_workspace_graph *g, module *m, const char *cls,
                            class_ref **items, size_t *count, size_t *cap) {
    char key[2 * GM_NAME_MAX];
    if (strlen(cls) + sizeof ".__init__" > sizeof key)
        return 0;
    snprintf(key, sizeof key, "%s.__init__", cls);
    size_t first, end = key_range(&m->summary, key, &first);
    for (size_t n = first; n < end; n++) {
        const gm_summary_node *node = &m->summary.nodes[n];
        for (uint32_t c = 0; c < node->callee_count; c++)
            if (class_visit(items, count, cap, m, m->summary.callees[node->callee_start + c]) != 0)
                return -1;
        for (uint32_t e = 0; e < node->external_count; e++) {
            char where[2 * GM_NAME_MAX];
            module *to = resolve(g, m, m->summary.externals[node->external_start + e], where,
                                 sizeof where, 0);
            if (to && !strchr(where, '.') && class_visit(items, count, cap, to, where) != 0)
                return -1;
        }
    }
    return 0;
}

int gm_workspace_graph_model_classes(gm_workspace_graph *g, const char *root, const char *name,
                                     const char *cls, char ***out) {
    *out = NULL;
    module *start = find_module_at(g, root, name);
    if (!start || build_table(g) != 0)
        return start ? -1 : 0;
    class_ref *items = NULL;
    size_t count = 0, cap = 0;
    int rc = class_visit(&items, &count, &cap, start, cls);
    /* breadth first: the list grows while it is walked */
    for (size_t i = 0; rc == 0 && i < count; i++) {
        module *m = items[i].m;
        const gm_summary_class *c = gm_module_summary_class(&m->summary, items[i].cls);
        for (size_t b = 0; rc == 0 && c && b < c->base_count; b++) {
            char key[2 * GM_NAME_MAX];
            module *bm = base_class(g, m, c->bases[b], key, sizeof key);
            if (bm)
                rc = class_visit(&items, &count, &cap, bm, key);
        }
        if (rc == 0)
            rc = visit_init_calls(g, m, items[i].cls, &items, &count, &cap);
    }
    char **names = rc == 0 && count ? calloc(count, sizeof *names) : NULL;
    if (count && !names)
        rc = -1;
    for (size_t i = 0; i < count; i++) {
        if (rc == 0) {
            size_t n = strlen(items[i].m->name), k = strlen(items[i].cls);
            names[i] = malloc(n + k + 2);
            if (names[i]) {
                memcpy(names[i], items[i].m->name, n);
                names[i][n] = '.';
                memcpy(names[i] + n + 1, items[i].cls, k + 1);
            } else {
                rc = -1;
            }
        }
        free(items[i].cls);
    }
    free(items);
    if (rc != 0) {
        for (size_t i = 0; names && i < count; i++)
            free(names[i]);
        free(names);
        return -1;
    }
    *out = names;
    return (int)count;
}
