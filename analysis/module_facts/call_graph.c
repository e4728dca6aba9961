#include "analysis/module_facts/call_graph.h"

#include <stdio.h>
#include <stdlib.h>
#include <stddef.h>
#include <string.h>

/* Private flag bits: reached from a root that splits graphs at breaks (plain), from one
 * compiled with fullgraph=True, or from an entry point compiled only if a user compiles it. */
enum { REACH_PLAIN = 1u << 6, REACH_FULL = 1u << 7, REACH_ENTRY = 1u << 5 };

void gm_call_graph_free(gm_call_graph *g) {
    free(g->nodes);
    free(g->owner);
    free(g->flags);
    free(g->via);
    free(g->queue);
    free(g->table);
    free(g->table_hash);
    free(g->slot_last);
    free(g->slot_count);
    free(g->slot_colors);
    free(g->same_next);
    free(g->classes);
    free(g->subclass_head);
    free(g->subclass_edges);
    memset(g, 0, sizeof *g);
}

void gm_call_graph_invalidate(gm_call_graph *g) {
    g->have_digest = false;
}

/* A cheap 64-bit combine. */
static uint64_t mix(uint64_t digest, uint64_t value) {
    digest ^= value + 0x9e3779b97f4a7c15ull + (digest << 6) + (digest >> 2);
    return digest * 0xff51afd7ed558ccdull;
}

static uint64_t text_hash(const char *s) {
    return s ? gm_hash_bytes(GM_HASH_INIT, s, strlen(s)) : 0;
}

static int reserve(gm_call_graph *g, size_t n) {
    if (n <= g->capacity)
        return 0;
    size_t cap = g->capacity ? g->capacity : 64;
    while (cap < n)
        cap *= 2;
    const gm_call_node **nodes = realloc(g->nodes, cap * sizeof *nodes);
    if (!nodes)
        return -1;
    g->nodes = nodes;
    const gm_call_part **owner = realloc(g->owner, cap * sizeof *owner);
    if (!owner)
        return -1;
    g->owner = owner;
    uint8_t *flags = realloc(g->flags, cap * sizeof *flags);
    if (!flags)
        return -1;
    g->flags = flags;
    uint32_t *via = realloc(g->via, cap * sizeof *via);
    if (!via)
        return -1;
    g->via = via;
    size_t *queue = realloc(g->queue, cap * sizeof *queue);
    if (!queue)
        return -1;
    g->queue = queue;
    size_t *table = realloc(g->table, 2 * cap * sizeof *table);
    if (!table)
        return -1;
    g->table = table;
    uint64_t *table_hash = realloc(g->table_hash, 2 * cap * sizeof *table_hash);
    if (!table_hash)
        return -1;
    g->table_hash = table_hash;
    size_t *slot_last = realloc(g->slot_last, 2 * cap * sizeof *slot_last);
    if (!slot_last)
        return -1;
    g->slot_last = slot_last;
    size_t *slot_count = realloc(g->slot_count, 2 * cap * sizeof *slot_count);
    if (!slot_count)
        return -1;
    g->slot_count = slot_count;
    uint8_t *slot_colors = realloc(g->slot_colors, 2 * cap * sizeof *slot_colors);
    if (!slot_colors)
        return -1;
    g->slot_colors = slot_colors;
    size_t *same_next = realloc(g->same_next, cap * sizeof *same_next);
    if (!same_next)
        return -1;
    g->same_next = same_next;
    g->capacity = cap;
    return 0;
}

/* The slot of key (hash), or -1 when no node has it. */
static ptrdiff_t key_slot(const gm_call_graph *g, uint64_t hash, const char *key) {
    size_t mask = g->table_size - 1;
    for (size_t at = (size_t)hash & mask; g->table[at]; at = (at + 1) & mask)
        if (g->table_hash[at] == hash && strcmp(g->nodes[g->table[at] - 1]->key.key, key) == 0)
            return (ptrdiff_t)at;
    return -1;
}

/* Marks the traceable nodes named by key that color has not reached yet and queues them;
 * returns how many nodes have that key. */
static size_t reach(gm_call_graph *g, uint64_t hash, const char *key, uint8_t color, size_t *tail) {
    ptrdiff_t at = key_slot(g, hash, key);
    if (at < 0)
        return 0;
    if (g->slot_colors[at] & color)
        return g->slot_count[at]; /* marked already, every node of the key */
    g->slot_colors[at] |= color;
    for (size_t next = g->table[at]; next; next = g->same_next[next - 1]) {
        size_t n = next - 1;
        if (!(g->flags[n] & color) && g->nodes[n]->traceable) {
            g->flags[n] |= color;
            if (color == REACH_ENTRY)
                g->via[n] = g->current_via;
            g->queue[(*tail)++] = n;
        }
    }
    return g->slot_count[at];
}

/* Whether b repeats a: the same name and bases. A class defined again the same way (a file
 * of many copies of a module) adds no key and no base to the graph, whose nodes are keyed by
 * name, so the table keeps the first only: every lookup of the name would walk them all. */
static bool same_class(const gm_class_symbol *a, const gm_class_symbol *b) {
    if (strcmp(a->name, b->name) != 0 || a->base_count != b->base_count)
        return false;
    for (size_t i = 0; i < a->base_count; i++)
        if (strcmp(a->bases[i], b->bases[i]) != 0)
            return false;
    return true;
}

static void build_class_table(gm_call_graph *g, const gm_symbols *symbols) {
    size_t size = 16;
    while (size < 2 * symbols->class_count)
        size *= 2;
    if (size > g->class_capacity) {
        size_t *classes = realloc(g->classes, size * sizeof *classes);
        if (!classes)
            return; /* out of memory: inherited methods are not followed */
        g->classes = classes;
        g->class_capacity = size;
    }
    g->class_table_size = size;
    memset(g->classes, 0, size * sizeof *g->classes);
    for (size_t c = 0; c < symbols->class_count; c++) {
        const char *name = symbols->classes[c].name;
        size_t at = (size_t)gm_hash_bytes(GM_HASH_INIT, name, strlen(name)) & (size - 1);
        bool again = false;
        for (; g->classes[at] && !again; at = (at + 1) & (size - 1))
            again = same_class(&symbols->classes[g->classes[at] - 1], &symbols->classes[c]);
        if (!again)
            g->classes[at] = c + 1;
    }
    g->classes_ready = true;
}

/* Whether class c is in the table (not a repeat of a class defined before it). */
static bool class_in_table(const gm_call_graph *g, const gm_symbols *symbols, size_t c) {
    const char *name = symbols->classes[c].name;
    size_t mask = g->class_table_size - 1;
    for (size_t at = (size_t)gm_hash_bytes(GM_HASH_INIT, name, strlen(name)) & mask;
         g->classes[at]; at = (at + 1) & mask)
        if (g->classes[at] == c + 1)
            return true;
    return false;
}

/* The index + 1 of the first class of the table named by name[0..len) at or after slot *at,
 * advancing *at past it; 0 when there is none. */
static size_t next_class_named(const gm_call_graph *g, const gm_symbols *symbols, const char *name,
                               size_t len, size_t *at) {
    size_t mask = g->class_table_size - 1;
    for (; g->classes[*at]; *at = (*at + 1) & mask) {
        size_t c = g->classes[*at];
        const char *cls = symbols->classes[c - 1].name;
        if (strlen(cls) == len && memcmp(cls, name, len) == 0) {
            *at = (*at + 1) & mask;
            return c;
        }
    }
    return 0;
}

static size_t class_slot(const gm_call_graph *g, const char *name, size_t len) {
    return (size_t)gm_hash_bytes(GM_HASH_INIT, name, len) & (g->class_table_size - 1);
}

/* `self.m()` in a method of C where C does not define m: the same-file base classes' m. */
static void reach_inherited(gm_call_graph *g, const gm_symbols *symbols, const char *key,
                            uint8_t color, size_t *tail, int depth) {
    const char *dot = strchr(key, '.');
    if (!dot || depth > 8 || symbols->class_count == 0)
        return;
    if (!g->classes_ready)
        build_class_table(g, symbols);
    if (!g->classes_ready)
        return;
    size_t class_len = (size_t)(dot - key), at = class_slot(g, key, class_len), found;
    while ((found = next_class_named(g, symbols, key, class_len, &at)) != 0) {
        const gm_class_symbol *cls = &symbols->classes[found - 1];
        for (size_t b = 0; b < cls->base_count; b++) {
            if (strchr(cls->bases[b], '.'))
                continue; /* not a class of this file */
            char base_key[2 * GM_NAME_MAX];
            int n = snprintf(base_key, sizeof base_key, "%s%s", cls->bases[b], dot);
            if (n < 0 || (size_t)n >= sizeof base_key)
                continue;
            if (reach(g, gm_call_key_hash(base_key), base_key, color, tail) == 0)
                reach_inherited(g, symbols, base_key, color, tail, depth + 1);
        }
    }
}

/* Links every class to the same-file classes that name it as a base. Leaves subclasses_ready
 * false on OOM (overrides are then not followed). */
static void build_subclass_lists(gm_call_graph *g, const gm_symbols *symbols) {
    size_t classes = symbols->class_count, edges = 0;
    for (size_t c = 0; c < classes; c++)
        edges += symbols->classes[c].base_count;
    if (classes > g->subclass_head_capacity) {
        size_t *heads = realloc(g->subclass_head, classes * sizeof *heads);
        if (!heads)
            return;
        g->subclass_head = heads;
        g->subclass_head_capacity = classes;
    }
    if (2 * edges > g->subclass_edge_capacity) {
        size_t *pairs = realloc(g->subclass_edges, 2 * edges * sizeof *pairs);
        if (!pairs)
            return;
        g->subclass_edges = pairs;
        g->subclass_edge_capacity = 2 * edges;
    }
    memset(g->subclass_head, 0, classes * sizeof *g->subclass_head);
    size_t used = 0;
    for (size_t c = 0; c < classes; c++) {
        const gm_class_symbol *cls = &symbols->classes[c];
        if (!class_in_table(g, symbols, c))
            continue; /* a repeat: its subclass edges would be the first one's again */
        for (size_t b = 0; b < cls->base_count; b++) {
            const char *base = cls->bases[b];
            if (strchr(base, '.'))
                continue; /* not a class of this file */
            size_t len = strlen(base), at = class_slot(g, base, len), found;
            /* a name defined twice: either definition may be the base */
            while ((found = next_class_named(g, symbols, base, len, &at)) != 0 && used < edges) {
                if (found - 1 == c)
                    continue;
                g->subclass_edges[2 * used] = c + 1;
                g->subclass_edges[2 * used + 1] = g->subclass_head[found - 1];
                g->subclass_head[found - 1] = ++used;
            }
        }
    }
    g->subclasses_ready = true;
}

/* `self.m(...)` in a method of cls: the instance may be of a subclass, whose m runs instead.
 * Reaches m of every same-file subclass of cls that defines it, and of their subclasses. */
static void reach_overrides(gm_call_graph *g, const gm_symbols *symbols, size_t cls,
                            const char *method, uint8_t color, size_t *tail, int depth) {
    if (depth > 12)
        return;
    for (size_t e = g->subclass_head[cls]; e; e = g->subclass_edges[2 * (e - 1) + 1]) {
        size_t sub = g->subclass_edges[2 * (e - 1)] - 1;
        char key[2 * GM_NAME_MAX];
        int n = snprintf(key, sizeof key, "%s.%s", symbols->classes[sub].name, method);
        if (n > 0 && (size_t)n < sizeof key)
            reach(g, gm_call_key_hash(key), key, color, tail);
        reach_overrides(g, symbols, sub, method, color, tail, depth + 1);
    }
}

/* caller calls callee through `self`: the overrides of the method in subclasses. */
static void reach_dispatched(gm_call_graph *g, const gm_symbols *symbols, const char *caller,
                             const char *callee, uint8_t color, size_t *tail) {
    const char *method = gm_call_self_dispatch(caller, callee);
    if (!method || symbols->class_count < 2)
        return;
    if (!g->classes_ready)
        build_class_table(g, symbols);
    if (!g->classes_ready)
        return;
    if (!g->subclasses_ready)
        build_subclass_lists(g, symbols);
    if (!g->subclasses_ready)
        return;
    size_t len = (size_t)(method - 1 - callee), at = class_slot(g, callee, len), found;
    while ((found = next_class_named(g, symbols, callee, len, &at)) != 0)
        reach_overrides(g, symbols, found - 1, method, color, tail, 0);
}

static void reach_key(gm_call_graph *g, const gm_symbols *symbols, const char *key, uint8_t color,
                      size_t *tail) {
    if (reach(g, gm_call_key_hash(key), key, color, tail) == 0)
        reach_inherited(g, symbols, key, color, tail, 0);
}

static bool is_class(const gm_symbols *symbols, const char *name) {
    for (size_t c = 0; c < symbols->class_count; c++)
        if (strcmp(symbols->classes[c].name, name) == 0)
            return true;
    return false;
}

const char *gm_call_graph_target_class(const gm_call_part *const *parts, size_t part_count,
                                       const gm_symbols *symbols, const gm_compile_target *target) {
    if (is_class(symbols, target->name))
        return target->name;
    for (size_t i = 0; i < part_count; i++)
        for (uint32_t b = 0; b < parts[i]->instance_count; b++)
            if (strcmp(parts[i]->instances[b].var, target->name) == 0)
                return parts[i]->instances[b].class_name;
    return NULL;
}

/* Queues what the compile targets of the file name, in color (plain or fullgraph ones). */
static void reach_targets(gm_call_graph *g, const gm_call_part *const *parts, size_t part_count,
                          const gm_symbols *symbols, uint8_t color, size_t *tail) {
    bool want_full = color == REACH_FULL;
    for (size_t i = 0; i < part_count; i++) {
        for (uint32_t t = 0; t < parts[i]->target_count; t++) {
            const gm_compile_target *target = &parts[i]->targets[t];
            if (target->fullgraph != want_full)
                continue;
            if (!target->member && !target->module_compile &&
                reach(g, gm_call_key_hash(target->name), target->name, color, tail) > 0)
                continue; /* torch.compile(f) */
            const char *cls = gm_call_graph_target_class(parts, part_count, symbols, target);
            if (!cls)
                continue;
            char key[2 * GM_NAME_MAX];
            int n = snprintf(key, sizeof key, "%s.%s", cls,
                             target->member ? target->member : "forward");
            if (n > 0 && (size_t)n < sizeof key)
                reach_key(g, symbols, key, color, tail);
        }
    }
}

static void propagate(gm_call_graph *g, const gm_symbols *symbols, uint8_t color, size_t tail) {
    for (size_t head = 0; head < tail; head++) {
        const gm_call_node *node = g->nodes[g->queue[head]];
        g->current_via = g->via[g->queue[head]]; /* what it reaches, it reaches through the same entry */
        const gm_call_part *part = g->owner[g->queue[head]];
        for (uint32_t c = 0; c < node->callee_count; c++) {
            const gm_call_key *callee = &part->callees[node->callee_start + c];
            if (reach(g, callee->hash, callee->key, color, &tail) == 0)
                reach_inherited(g, symbols, callee->key, color, &tail, 0);
            reach_dispatched(g, symbols, node->key.key, callee->key, color, &tail);
        }
    }
}

uint64_t gm_call_graph_part_digest(const gm_call_part *part) {
    uint64_t digest = mix(GM_HASH_INIT, part->node_count);
    for (uint32_t k = 0; k < part->node_count; k++) {
        const gm_call_node *node = &part->nodes[k];
        digest = mix(digest, node->key.hash ^ ((uint64_t)node->root << 1) ^
                                 ((uint64_t)node->fullgraph << 2) ^ node->traceable);
        for (uint32_t c = 0; c < node->callee_count; c++)
            digest = mix(digest, part->callees[node->callee_start + c].hash);
    }
    for (uint32_t t = 0; t < part->target_count; t++) {
        const gm_compile_target *target = &part->targets[t];
        digest = mix(digest, text_hash(target->name) ^ (text_hash(target->member) << 1) ^
                                 ((uint64_t)target->fullgraph << 2) ^ target->module_compile);
    }
    for (uint32_t b = 0; b < part->instance_count; b++)
        digest = mix(digest, text_hash(part->instances[b].var) ^
                                 (text_hash(part->instances[b].class_name) << 1));
    return digest;
}

/* Everything reachability depends on. */
static uint64_t inputs_digest(const gm_call_part *const *parts, size_t part_count,
                              const uint64_t *part_digests, uint64_t fingerprint,
                              const char *const *external_keys, size_t external_count,
                              const char *const *entry_keys, size_t entry_count) {
    uint64_t digest = mix(GM_HASH_INIT, fingerprint);
    for (size_t i = 0; i < part_count; i++)
        digest = mix(digest, part_digests ? part_digests[i] : gm_call_graph_part_digest(parts[i]));
    digest = mix(digest, external_count);
    for (size_t e = 0; e < external_count; e++)
        digest = mix(digest, text_hash(external_keys[e]));
    digest = mix(digest, entry_count);
    for (size_t e = 0; e < entry_count; e++)
        digest = mix(digest, text_hash(entry_keys[e]));
    return digest;
}

int gm_call_graph_run(gm_call_graph *g, const gm_call_part *const *parts, size_t part_count,
                      const uint64_t *part_digests, const gm_symbols *symbols,
                      uint64_t fingerprint, const char *const *external_keys,
                      size_t external_count, const char *const *entry_keys,
                      size_t entry_count) {
    size_t total = 0;
    for (size_t i = 0; i < part_count; i++)
        total += parts[i]->node_count;
    g->classes_ready = false;
    g->subclasses_ready = false;
    /* Most edits change no call: then what is reached is what the last run found. */
    uint64_t digest = inputs_digest(parts, part_count, part_digests, fingerprint, external_keys,
                                    external_count, entry_keys, entry_count);
    bool unchanged = g->have_digest && g->digest == digest && g->count == total;
    g->count = total;
    g->digest = digest;
    g->have_digest = total > 0;
    if (total == 0 || unchanged)
        return 0;
    if (reserve(g, total) != 0) {
        g->have_digest = false;
        return -1;
    }
    g->table_size = 2 * g->capacity;
    memset(g->table, 0, g->table_size * sizeof *g->table);
    size_t mask = g->table_size - 1, n = 0;
    bool any_full = false;
    for (size_t i = 0; i < part_count; i++) {
        const gm_call_part *part = parts[i];
        for (uint32_t k = 0; k < part->node_count; k++, n++) {
            const gm_call_node *node = &part->nodes[k];
            g->nodes[n] = node;
            g->owner[n] = part;
            g->flags[n] = 0;
            g->via[n] = 0;
            any_full |= node->fullgraph;
            g->same_next[n] = 0;
            ptrdiff_t same = key_slot(g, node->key.hash, node->key.key);
            if (same >= 0) { /* the key again: after the nodes that have it already */
                g->same_next[g->slot_last[same] - 1] = n + 1;
                g->slot_last[same] = n + 1;
                g->slot_count[same]++;
                continue;
            }
            size_t at = (size_t)node->key.hash & mask;
            while (g->table[at])
                at = (at + 1) & mask;
            g->table[at] = g->slot_last[at] = n + 1;
            g->table_hash[at] = node->key.hash;
            g->slot_count[at] = 1;
            g->slot_colors[at] = 0;
        }
        for (uint32_t t = 0; t < part->target_count; t++)
            any_full |= part->targets[t].fullgraph;
    }
    /* Plain roots first, then fullgraph ones: code both reach splits graphs at its breaks. */
    g->current_via = 0;
    for (int pass = 0; pass < (any_full ? 2 : 1); pass++) {
        uint8_t color = pass == 0 ? REACH_PLAIN : REACH_FULL;
        size_t tail = 0;
        for (n = 0; n < total; n++) {
            const gm_call_node *node = g->nodes[n];
            if (node->root && node->traceable && node->fullgraph == (pass == 1)) {
                g->flags[n] |= color;
                g->queue[tail++] = n;
            }
        }
        if (pass == 0)
            for (size_t e = 0; e < external_count; e++)
                reach_key(g, symbols, external_keys[e], color, &tail);
        reach_targets(g, parts, part_count, symbols, color, &tail);
        propagate(g, symbols, color, tail);
    }
    /* Then the entry points a user may compile: each entry key reaches what it calls through
     * itself (via), unless the roots above reach it anyway. */
    if (entry_count > 0) {
        size_t tail = 0;
        for (size_t e = 0; e < entry_count; e++) {
            g->current_via = (uint32_t)(e + 1);
            reach_key(g, symbols, entry_keys[e], REACH_ENTRY, &tail);
        }
        propagate(g, symbols, REACH_ENTRY, tail);
    }
    for (n = 0; n < total; n++) {
        uint8_t f = g->flags[n];
        bool compiled = (f & (REACH_PLAIN | REACH_FULL)) != 0;
        if (compiled || !(f & REACH_ENTRY))
            g->via[n] = 0;
        g->flags[n] = (uint8_t)((compiled || (f & REACH_ENTRY) ? GM_REACH_REACHED : 0) |
                                ((f & REACH_FULL) && !(f & REACH_PLAIN) ? GM_REACH_FULLGRAPH : 0) |
                                (!compiled && (f & REACH_ENTRY) ? GM_REACH_ENTRY : 0));
    }
    return 0;
}
