#include "analysis/module_facts/module_summary.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/module_facts/call_graph.h"
#include "analysis/module_facts/compile_targets.h"
#include "analysis/syntax/python_parser.h"
#include "analysis/syntax/syntax.h"

#define GM_SUMMARY_PARSE_TIMEOUT_MICROS (10u * 1000u * 1000u)

static void strings_free(char **items, size_t count) {
    for (size_t i = 0; i < count; i++)
        free(items[i]);
    free(items);
}

void gm_module_summary_free(gm_module_summary *s) {
    for (size_t i = 0; i < s->node_count; i++)
        free(s->nodes[i].key);
    free(s->nodes);
    strings_free(s->callees, s->callee_count);
    strings_free(s->externals, s->external_count);
    strings_free(s->target_names, s->target_count);
    strings_free(s->target_members, s->target_count);
    for (size_t i = 0; i < s->import_count; i++) {
        free(s->imports[i].local);
        free(s->imports[i].canonical);
    }
    free(s->imports);
    for (size_t i = 0; i < s->class_count; i++) {
        free(s->classes[i].name);
        strings_free(s->classes[i].bases, s->classes[i].base_count);
    }
    free(s->classes);
    strings_free(s->property_facts, s->property_fact_count);
    memset(s, 0, sizeof *s);
}

/* A copy of count strings (entries may be NULL), or NULL with *failed set. */
static char **strings_copy(char *const *items, size_t count, bool *failed) {
    if (count == 0 || *failed)
        return NULL;
    char **copy = calloc(count, sizeof *copy);
    if (!copy) {
        *failed = true;
        return NULL;
    }
    for (size_t i = 0; i < count; i++)
        if (items[i] && !(copy[i] = strdup(items[i])))
            *failed = true;
    return copy;
}

int gm_module_summary_copy(const gm_module_summary *src, gm_module_summary *dst) {
    *dst = *src;
    bool failed = false;
    dst->nodes = src->node_count ? calloc(src->node_count, sizeof *dst->nodes) : NULL;
    dst->imports = src->import_count ? calloc(src->import_count, sizeof *dst->imports) : NULL;
    dst->classes = src->class_count ? calloc(src->class_count, sizeof *dst->classes) : NULL;
    failed = (src->node_count && !dst->nodes) || (src->import_count && !dst->imports) ||
             (src->class_count && !dst->classes);
    for (size_t i = 0; !failed && i < src->node_count; i++) {
        dst->nodes[i] = src->nodes[i];
        failed = !(dst->nodes[i].key = strdup(src->nodes[i].key));
    }
    for (size_t i = 0; !failed && i < src->import_count; i++) {
        dst->imports[i].local = strdup(src->imports[i].local);
        dst->imports[i].canonical = strdup(src->imports[i].canonical);
        dst->imports[i].type_only = src->imports[i].type_only;
        failed = !dst->imports[i].local || !dst->imports[i].canonical;
    }
    for (size_t i = 0; !failed && i < src->class_count; i++) {
        dst->classes[i] = src->classes[i];
        dst->classes[i].bases = NULL;
        failed = !(dst->classes[i].name = strdup(src->classes[i].name));
        dst->classes[i].bases =
            strings_copy(src->classes[i].bases, src->classes[i].base_count, &failed);
    }
    dst->callees = strings_copy(src->callees, src->callee_count, &failed);
    dst->externals = strings_copy(src->externals, src->external_count, &failed);
    dst->target_names = strings_copy(src->target_names, src->target_count, &failed);
    dst->property_facts = strings_copy(src->property_facts, src->property_fact_count, &failed);
    dst->target_members = src->target_count ? calloc(src->target_count, sizeof(char *)) : NULL;
    failed |= src->target_count && !dst->target_members;
    for (size_t i = 0; !failed && i < src->target_count; i++)
        if (src->target_members[i] && !(dst->target_members[i] = strdup(src->target_members[i])))
            failed = true;
    if (failed) {
        /* a count whose array was not copied would make the free walk it: zero them */
        if (!dst->nodes)
            dst->node_count = 0;
        if (!dst->imports)
            dst->import_count = 0;
        if (!dst->classes)
            dst->class_count = 0;
        for (size_t i = 0; i < dst->class_count; i++)
            if (!dst->classes[i].bases)
                dst->classes[i].base_count = 0;
        if (!dst->callees)
            dst->callee_count = 0;
        if (!dst->externals)
            dst->external_count = 0;
        if (!dst->property_facts)
            dst->property_fact_count = 0;
        if (!dst->target_names || !dst->target_members) {
            strings_free(dst->target_names, dst->target_names ? dst->target_count : 0);
            free(dst->target_members);
            dst->target_names = dst->target_members = NULL;
            dst->target_count = 0;
        }
        gm_module_summary_free(dst);
        return -1;
    }
    return 0;
}

int gm_module_summary_set_property_facts(gm_module_summary *summary, const char *const *facts,
                                         size_t count) {
    strings_free(summary->property_facts, summary->property_fact_count);
    summary->property_facts = NULL;
    summary->property_fact_count = 0;
    if (count == 0)
        return 0;
    bool failed = false;
    char **copy = strings_copy((char *const *)facts, count, &failed);
    if (failed)
        return -1;
    summary->property_facts = copy;
    summary->property_fact_count = count;
    for (size_t i = 0; i < count; i++)
        summary->digest = gm_hash_bytes(summary->digest, facts[i], strlen(facts[i]) + 1);
    return 0;
}

static int class_order(const void *a, const void *b) {
    return strcmp(((const gm_summary_class *)a)->name, ((const gm_summary_class *)b)->name);
}

const gm_summary_class *gm_module_summary_class(const gm_module_summary *s, const char *name) {
    /* the first class not ordered before name (a name defined many times is a long run: a
     * step back per copy made every lookup linear in the copies) */
    size_t low = 0, high = s->class_count;
    while (low < high) {
        size_t mid = low + (high - low) / 2;
        if (strcmp(s->classes[mid].name, name) < 0)
            low = mid + 1;
        else
            high = mid;
    }
    return low < s->class_count && strcmp(s->classes[low].name, name) == 0 ? &s->classes[low]
                                                                           : NULL;
}

/* The names of the file's top-level classes, sorted: asked once per callee and base, a scan of
 * every class each time made building the summary quadratic (10 ms a keystroke at 50k lines). */
typedef struct {
    const char **names; /* borrowed from the symbols */
    size_t count;
} class_names;

static int name_order(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int class_names_init(class_names *set, const gm_symbols *symbols) {
    set->count = 0;
    set->names = symbols->class_count ? malloc(symbols->class_count * sizeof *set->names) : NULL;
    if (symbols->class_count && !set->names)
        return -1;
    for (size_t c = 0; c < symbols->class_count; c++)
        set->names[set->count++] = symbols->classes[c].name;
    if (set->count > 1)
        qsort(set->names, set->count, sizeof *set->names, name_order);
    return 0;
}

/* Whether the file defines a top-level class named name. */
static bool defines_class(const class_names *set, const char *name) {
    return set->count && bsearch(&name, set->names, set->count, sizeof *set->names, name_order);
}

/* The module's classes and their bases (gm_summary_class). Returns 0, or -1 on OOM. */
static int add_classes(const gm_symbols *symbols, const class_names *defined,
                       gm_module_summary *out) {
    if (symbols->class_count == 0)
        return 0;
    out->classes = calloc(symbols->class_count, sizeof *out->classes);
    if (!out->classes)
        return -1;
    for (size_t c = 0; c < symbols->class_count; c++) {
        const gm_class_symbol *cls = &symbols->classes[c];
        gm_summary_class *sc = &out->classes[out->class_count++];
        sc->name = strdup(cls->name);
        sc->is_module = cls->is_module;
        sc->bases = cls->base_count ? calloc(cls->base_count, sizeof *sc->bases) : NULL;
        if (!sc->name || (cls->base_count && !sc->bases))
            return -1;
        for (size_t b = 0; b < cls->base_count; b++) {
            const char *base = cls->bases[b];
            char canonical[2 * GM_NAME_MAX];
            const char *spelled = NULL;
            if (!strchr(base, '.') && defines_class(defined, base) &&
                !gm_symbols_is_imported(symbols, (gm_slice){base, (uint32_t)strlen(base)}))
                spelled = base;
            else if (gm_symbols_resolve_imported(symbols, base, canonical, sizeof canonical))
                spelled = canonical;
            if (!spelled)
                continue;
            sc->bases[sc->base_count] = strdup(spelled);
            if (!sc->bases[sc->base_count])
                return -1;
            sc->base_count++;
        }
    }
    if (out->class_count > 1)
        qsort(out->classes, out->class_count, sizeof *out->classes, class_order);
    return 0;
}

static int node_order(const void *a, const void *b) {
    return strcmp(((const gm_summary_node *)a)->key, ((const gm_summary_node *)b)->key);
}

const gm_summary_node *gm_module_summary_find(const gm_module_summary *s, const char *key) {
    gm_summary_node probe = {.key = (char *)key};
    return s->node_count ? bsearch(&probe, s->nodes, s->node_count, sizeof *s->nodes, node_order)
                         : NULL;
}

/* A growing array of owned strings. */
typedef struct {
    char **items;
    size_t count, capacity;
} string_list;

static int string_push(string_list *l, const char *s) {
    if (l->count == l->capacity) {
        size_t cap = l->capacity ? l->capacity * 2 : 8;
        char **items = realloc(l->items, cap * sizeof *items);
        if (!items)
            return -1;
        l->items = items;
        l->capacity = cap;
    }
    char *copy = s ? strdup(s) : NULL;
    if (s && !copy)
        return -1;
    l->items[l->count++] = copy;
    return 0;
}

static uint64_t hash_text(uint64_t h, const char *s) {
    h = gm_hash_bytes(h, s ? s : "", s ? strlen(s) + 1 : 1);
    return h;
}

typedef struct {
    const gm_call_part *const *parts;
    size_t part_count;
    const gm_symbols *symbols;
    gm_module_summary *out;
    string_list externals, target_names, target_members;
    gm_compile_site_list *sites; /* or NULL: the compile calls of imported names */
    class_names classes;
} builder;

static gm_summary_node *find_mut(gm_module_summary *s, const char *key) {
    return (gm_summary_node *)gm_module_summary_find(s, key);
}

void gm_compile_site_list_free(gm_compile_site_list *sites) {
    for (size_t i = 0; i < sites->count; i++) {
        free(sites->items[i].name);
        free(sites->items[i].member);
        free(sites->items[i].class_as_written);
    }
    free(sites->items);
    memset(sites, 0, sizeof *sites);
}

/* A compile call whose target lives in another module, named absolutely (a relative import
 * names a module of the same package, never an installed one). Returns nonzero on OOM. */
static int add_site(gm_compile_site_list *sites, const gm_compile_target *t, const char *name,
                    const char *cls) {
    if (!sites || name[0] == '.')
        return 0;
    if (sites->count == sites->capacity) {
        size_t cap = sites->capacity ? sites->capacity * 2 : 4;
        gm_compile_site *items = realloc(sites->items, cap * sizeof *items);
        if (!items)
            return -1;
        sites->items = items;
        sites->capacity = cap;
    }
    gm_compile_site *s = &sites->items[sites->count];
    memset(s, 0, sizeof *s);
    s->name = strdup(name);
    s->member = t->member ? strdup(t->member) : NULL;
    s->class_as_written = strdup(cls ? cls : t->name);
    if (!s->name || (t->member && !s->member) || !s->class_as_written) {
        free(s->name);
        free(s->member);
        free(s->class_as_written);
        return -1;
    }
    s->start_byte = t->start_byte;
    s->end_byte = t->end_byte;
    s->start_row = t->start_row;
    s->start_column = t->start_column;
    s->end_row = t->end_row;
    s->end_column = t->end_column;
    sites->count++;
    return 0;
}

/* What one compile target of the module stands for: a root here, or a name elsewhere. */
static int add_target(builder *b, const gm_compile_target *t) {
    gm_module_summary *s = b->out;
    gm_summary_node *node;
    if (!t->member && !t->module_compile && (node = find_mut(s, t->name)) != NULL) {
        node->root = node->traceable;
        return 0;
    }
    const char *cls = gm_call_graph_target_class(b->parts, b->part_count, b->symbols, t);
    char name[2 * GM_NAME_MAX];
    if (cls) {
        size_t n = strlen(cls);
        const char *member = t->member ? t->member : "forward";
        if (n + strlen(member) + 2 <= sizeof name) {
            memcpy(name, cls, n);
            name[n] = '.';
            strcpy(name + n + 1, member);
            if ((node = find_mut(s, name)) != NULL) {
                node->root = node->traceable;
                return 0;
            }
        }
        if (!gm_symbols_resolve_imported(b->symbols, cls, name, sizeof name))
            return 0;
        return string_push(&b->target_names, name) != 0 ||
                       string_push(&b->target_members, t->member) != 0 ||
                       add_site(b->sites, t, name, cls)
                   ? -1
                   : 0;
    }
    if (t->module_compile || !gm_symbols_resolve_imported(b->symbols, t->name, name, sizeof name))
        return 0;
    return string_push(&b->target_names, name) != 0 ||
                   string_push(&b->target_members, t->member) != 0 ||
                   add_site(b->sites, t, name, NULL)
               ? -1
               : 0;
}

static int build_summary(const gm_call_part *const *parts, size_t part_count,
                         const gm_symbols *symbols, bool forward_is_compiled,
                         gm_module_summary *out, gm_compile_site_list *sites) {
    memset(out, 0, sizeof *out);
    builder b = {
        .parts = parts, .part_count = part_count, .symbols = symbols, .out = out, .sites = sites};
    string_list callees = {0};
    if (class_names_init(&b.classes, symbols) != 0)
        return -1;
    size_t total = 0;
    for (size_t i = 0; i < part_count; i++)
        total += parts[i]->node_count;
    out->nodes = total ? calloc(total, sizeof *out->nodes) : NULL;
    if (total && !out->nodes)
        goto oom;
    /* Nodes first (sorted, so that callees can be told local or not), then their calls. */
    for (size_t i = 0; i < part_count; i++)
        for (uint32_t k = 0; k < parts[i]->node_count; k++) {
            const gm_call_node *node = &parts[i]->nodes[k];
            gm_summary_node *n = &out->nodes[out->node_count++];
            n->key = strdup(node->key.key);
            if (!n->key)
                goto oom;
            n->root = node->root && node->traceable;
            n->traceable = node->traceable;
            n->returns_constant = node->kind == GM_CALL_FUNCTION ? node->returns_constant : -1;
            if (node->kind == GM_CALL_FUNCTION)
                n->returns = node->returns.tensors ? node->returns : node->inferred_returns;
            /* remember where its calls are: part i, node k */
            n->callee_start = (uint32_t)i;
            n->callee_count = k;
        }
    if (out->node_count > 1)
        qsort(out->nodes, out->node_count, sizeof *out->nodes, node_order);
    /* Two nodes may share a key (a function defined twice): calls of both are kept. */
    for (size_t n = 0; n < out->node_count; n++) {
        gm_summary_node *sn = &out->nodes[n];
        const gm_call_part *part = parts[sn->callee_start];
        const gm_call_node *node = &part->nodes[sn->callee_count];
        sn->callee_start = (uint32_t)callees.count;
        sn->callee_count = 0;
        sn->external_start = (uint32_t)b.externals.count;
        sn->external_count = 0;
        for (uint32_t c = 0; c < node->callee_count; c++) {
            const char *key = part->callees[node->callee_start + c].key;
            char canonical[2 * GM_NAME_MAX];
            if (strstr(key, ".<locals>.") != NULL) {
                /* a def nested in a function of this module */
                if (string_push(&callees, key) != 0)
                    goto oom;
                sn->callee_count++;
            } else if (gm_module_summary_find(out, key) || strchr(key, '.') != NULL) {
                /* a function of this module, or C.m / m.f (m.f is resolved below) */
                if (strchr(key, '.') &&
                    gm_symbols_resolve_imported(symbols, key, canonical, sizeof canonical)) {
                    if (string_push(&b.externals, canonical) != 0)
                        goto oom;
                    sn->external_count++;
                    continue;
                }
                if (gm_name_last_is(key, "<return>") && !gm_module_summary_find(out, key))
                    continue; /* a decorator from outside the workspace (or not a function) */
                if (string_push(&callees, key) != 0)
                    goto oom;
                sn->callee_count++;
            } else if (gm_symbols_resolve_imported(symbols, key, canonical, sizeof canonical)) {
                if (string_push(&b.externals, canonical) != 0)
                    goto oom;
                sn->external_count++;
            } else if (defines_class(&b.classes, key)) {
                /* `Block(config)` in __init__: the classes a model is built of (its path:
                 * gm_workspace_graph_model_classes); no node has the key, so no call follows */
                if (string_push(&callees, key) != 0)
                    goto oom;
                sn->callee_count++;
            } else if (!strchr(key, '.') && key[0] != '_') {
                /* a public name no statement here binds may come from a star import: the
                 * function of that name in each star-imported module (those that have none
                 * resolve to nothing in the workspace) */
                for (size_t k = 0; k < symbols->import_count; k++) {
                    const gm_import *imp = &symbols->imports[k];
                    if (strcmp(imp->local, GM_STAR_IMPORT) != 0 ||
                        strlen(imp->canonical) + 1 + strlen(key) + 1 > sizeof canonical)
                        continue;
                    size_t cl = strlen(imp->canonical);
                    memcpy(canonical, imp->canonical, cl);
                    canonical[cl] = '.';
                    memcpy(canonical + cl + 1, key, strlen(key) + 1);
                    if (string_push(&b.externals, canonical) != 0)
                        goto oom;
                    sn->external_count++;
                }
            }
        }
    }
    for (size_t i = 0; i < part_count; i++)
        for (uint32_t t = 0; t < parts[i]->target_count; t++)
            if (add_target(&b, &parts[i]->targets[t]) != 0)
                goto oom;
    if (add_classes(symbols, &b.classes, out) != 0)
        goto oom;
    free(b.classes.names);
    b.classes.names = NULL;
    out->forward_is_compiled = forward_is_compiled;
    out->imports =
        symbols->import_count ? calloc(symbols->import_count, sizeof *out->imports) : NULL;
    if (symbols->import_count && !out->imports)
        goto oom;
    for (size_t i = 0; i < symbols->import_count; i++) {
        out->imports[i].local = strdup(symbols->imports[i].local);
        out->imports[i].canonical = strdup(symbols->imports[i].canonical);
        out->imports[i].type_only = symbols->imports[i].type_only;
        out->import_count++;
        if (!out->imports[i].local || !out->imports[i].canonical)
            goto oom;
    }
    out->callees = callees.items;
    out->callee_count = callees.count;
    out->externals = b.externals.items;
    out->external_count = b.externals.count;
    out->target_names = b.target_names.items;
    out->target_members = b.target_members.items;
    out->target_count = b.target_names.count;
    uint64_t h = GM_HASH_INIT;
    for (size_t n = 0; n < out->node_count; n++) {
        const gm_summary_node *sn = &out->nodes[n];
        h = hash_text(h, sn->key);
        h = gm_hash_bytes(
            h, &(uint8_t){(uint8_t)(sn->root | sn->traceable << 1 | (sn->returns_constant + 1) << 2)},
            1);
        h = gm_hash_bytes(h, &sn->returns, sizeof sn->returns);
        for (uint32_t c = 0; c < sn->callee_count; c++)
            h = hash_text(h, out->callees[sn->callee_start + c]);
        h = hash_text(h, "|");
        for (uint32_t e = 0; e < sn->external_count; e++)
            h = hash_text(h, out->externals[sn->external_start + e]);
    }
    for (size_t t = 0; t < out->target_count; t++) {
        h = hash_text(h, out->target_names[t]);
        h = hash_text(h, out->target_members[t]);
    }
    for (size_t i = 0; i < out->import_count; i++) {
        h = hash_text(h, out->imports[i].local);
        h = hash_text(h, out->imports[i].canonical);
    }
    h = hash_text(h, "|classes");
    for (size_t i = 0; i < out->class_count; i++) {
        h = hash_text(h, out->classes[i].name);
        for (size_t k = 0; k < out->classes[i].base_count; k++)
            h = hash_text(h, out->classes[i].bases[k]);
        h = hash_text(h, out->classes[i].is_module ? "|module" : "|");
    }
    h = hash_text(h, out->forward_is_compiled ? "|forward" : "|");
    out->digest = h;
    return 0;
oom:
    free(b.classes.names);
    strings_free(callees.items, callees.count);
    strings_free(b.externals.items, b.externals.count);
    strings_free(b.target_names.items, b.target_names.count);
    strings_free(b.target_members.items, b.target_members.count);
    out->callees = NULL;
    out->callee_count = 0;
    for (size_t n = 0; n < out->node_count; n++)
        out->nodes[n].callee_count = out->nodes[n].external_count = 0;
    gm_module_summary_free(out);
    return -1;
}

int gm_imported_compile_sites_of_parts(const gm_call_part *const *parts, size_t part_count,
                                       const gm_symbols *symbols, bool forward_is_compiled,
                                       gm_compile_site_list *sites) {
    memset(sites, 0, sizeof *sites);
    gm_module_summary summary;
    if (build_summary(parts, part_count, symbols, forward_is_compiled, &summary, sites) != 0) {
        gm_compile_site_list_free(sites);
        return -1;
    }
    gm_module_summary_free(&summary);
    return 0;
}

int gm_module_summary_build(const gm_call_part *const *parts, size_t part_count,
                            const gm_symbols *symbols, bool forward_is_compiled,
                            gm_module_summary *out) {
    return build_summary(parts, part_count, symbols, forward_is_compiled, out, NULL);
}

int gm_module_summary_build_with_sites(const gm_call_part *const *parts, size_t part_count,
                                       const gm_symbols *symbols, bool forward_is_compiled,
                                       gm_module_summary *out, gm_compile_site_list *sites) {
    memset(sites, 0, sizeof *sites);
    if (build_summary(parts, part_count, symbols, forward_is_compiled, out, sites) != 0) {
        gm_compile_site_list_free(sites);
        return -1;
    }
    return 0;
}

static char *copy_or_null(const char *s, bool *failed) {
    char *copy = s ? strdup(s) : NULL;
    *failed |= s && !copy;
    return copy;
}

int gm_compile_site_list_copy(const gm_compile_site_list *src, gm_compile_site_list *dst) {
    memset(dst, 0, sizeof *dst);
    if (src->count == 0)
        return 0;
    dst->items = calloc(src->count, sizeof *dst->items);
    if (!dst->items)
        return -1;
    dst->capacity = src->count;
    bool failed = false;
    for (size_t i = 0; i < src->count; i++) {
        const gm_compile_site *from = &src->items[i];
        gm_compile_site *to = &dst->items[dst->count++];
        *to = *from;
        to->name = copy_or_null(from->name, &failed);
        to->member = copy_or_null(from->member, &failed);
        to->class_as_written = copy_or_null(from->class_as_written, &failed);
    }
    if (failed) {
        gm_compile_site_list_free(dst);
        return -1;
    }
    return 0;
}

static int summary_from_source(const char *text, size_t len, const gm_analysis_options *options,
                               gm_module_summary *summary, gm_compile_site_list *sites);

int gm_module_summary_from_source(const char *text, size_t len, const gm_analysis_options *options,
                                  gm_module_summary *summary) {
    return summary_from_source(text, len, options, summary, NULL);
}

int gm_imported_compile_sites(const char *text, size_t len, const gm_analysis_options *options,
                              gm_compile_site_list *sites) {
    memset(sites, 0, sizeof *sites);
    gm_module_summary summary;
    int rc = summary_from_source(text, len, options, &summary, sites);
    if (rc == 0)
        gm_module_summary_free(&summary);
    else
        gm_compile_site_list_free(sites);
    return rc;
}

static int summary_from_source(const char *text, size_t len, const gm_analysis_options *options,
                               gm_module_summary *summary, gm_compile_site_list *sites) {
    memset(summary, 0, sizeof *summary);
    gm_syntax syntax;
    if (gm_syntax_init(&syntax, gm_python_language()) != 0)
        return -1;
    TSParser *parser = gm_python_parser_new(GM_SUMMARY_PARSE_TIMEOUT_MICROS);
    if (!parser)
        return -1;
    TSTree *tree = gm_python_parse(parser, NULL, text, len);
    ts_parser_delete(parser);
    if (!tree)
        return -1;
    TSNode root = ts_tree_root_node(tree);
    uint32_t count = ts_node_named_child_count(root);
    gm_symbols symbols;
    gm_symbols_init(&symbols);
    gm_call_part *parts = count ? calloc(count, sizeof *parts) : NULL;
    const gm_call_part **views = count ? calloc(count, sizeof *views) : NULL;
    TSNode *children = count ? calloc(count, sizeof *children) : NULL;
    int rc = count && (!parts || !views || !children) ? -1 : 0;
    uint32_t built = 0;
    /* the module's children through a cursor: taking them by index costs quadratic time */
    uint32_t found = 0;
    TSTreeCursor cursor = ts_tree_cursor_new(root);
    bool more = rc == 0 && ts_tree_cursor_goto_first_child(&cursor);
    for (; more && found < count; more = ts_tree_cursor_goto_next_sibling(&cursor)) {
        TSNode child = ts_tree_cursor_current_node(&cursor);
        if (ts_node_is_named(child))
            children[found++] = child;
    }
    ts_tree_cursor_delete(&cursor);
    count = found;
    for (uint32_t i = 0; i < count && rc == 0; i++) {
        uint64_t unused = GM_HASH_INIT;
        rc = gm_symbols_scan_top(&symbols, &syntax, text, children[i], &unused);
    }
    if (rc == 0)
        rc = gm_symbols_finish(&symbols);
    bool with_targets = gm_text_may_name_compile(text, len);
    for (uint32_t i = 0; i < count && rc == 0; i++) {
        TSNode child = children[i];
        if (gm_is(child, syntax.sym.comment) || gm_is(child, syntax.sym.error))
            continue;
        rc = gm_call_part_build(&symbols, &syntax, text, options, child, with_targets,
                                &parts[built]);
        if (rc == 0) {
            views[built] = &parts[built];
            built++;
        }
    }
    if (rc == 0)
        rc = build_summary(views, built, &symbols, options->forward_is_compiled, summary, sites);
    for (uint32_t i = 0; i < built; i++)
        gm_call_part_free(&parts[i]);
    free(parts);
    free(views);
    free(children);
    gm_symbols_free(&symbols);
    gm_tree_delete(tree);
    return rc;
}
