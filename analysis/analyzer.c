/* Orchestration and the incremental cache. Findings are kept per top-level statement (child of
 * the module). An edit drops the entries whose lines it touches and shifts those after it; a run
 * reuses every entry whose statement still spans exactly the same bytes, unless the file-wide
 * fingerprint (imports, class names and bases, decorators, top-level bindings of print) or the
 * options changed, or the set of its functions that compiled code reaches (through calls from
 * other statements: each entry keeps its part of the file's call graph, and every run recomputes
 * what is reached over all parts). Each entry keeps its own part of the fingerprint, so a run
 * hashes only the statements it has not seen. File-level `ignore-file` comments are applied when
 * the result is put together, so changing one needs no re-analysis. A run walks the module's
 * children and nothing else of the unchanged statements. */
#include "analyzer.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_options.h"
#include "compiled_regions.h"
#include "python_parser.h"
#include "region.h"
#include "region_walk.h"
#include "suppression.h"
#include "symbols.h"
#include "syntax.h"
#include "syntax_errors.h"

#define GM_ANALYZE_SOURCE_TIMEOUT_MICROS (10u * 1000u * 1000u)

typedef struct {
    uint32_t start_byte, end_byte; /* the statement */
    /* From the start of the statement's first line to the end of its last line: suppression
     * comments and the "alone on its line" checks of mends look there. */
    uint32_t dep_start, dep_end;
    uint32_t start_row;
    TSSymbol symbol;
    uint64_t contribution; /* its part of the file-wide fingerprint (GM_HASH_INIT: none) */
    bool dead;             /* an edit touched it; freed at the next run */
    int64_t pending_bytes; /* shifts noted since the findings were last adjusted */
    int64_t pending_rows;
    gm_finding *findings; /* owned, sorted */
    size_t count;
    gm_call_part calls;  /* owned: its functions in the file's call graph */
    uint64_t membership; /* which of them compiled code reached when it was analysed (0: none) */
} cache_entry;

typedef struct {
    cache_entry *items;
    size_t count, capacity;
} entry_list;

/* Per module child during a run: the cached entry it matches (or -1) and its fingerprint part. */
typedef struct {
    ptrdiff_t match;
    uint64_t contribution;
    bool statement;     /* a named child other than a comment or an ERROR node */
    gm_call_part calls; /* owned until moved into the new entry */
    size_t node_offset; /* of its call nodes in the run's graph */
    uint64_t membership;
} child_info;

/* One run's call graph over all statements' parts: which functions compiled code reaches. */
typedef struct {
    const gm_call_node **nodes; /* all nodes, statement by statement */
    const gm_call_part **owner; /* the part each node belongs to */
    bool *reached;
    size_t *queue;
    size_t *table;        /* open addressing: node index + 1, 0 empty */
    uint64_t *table_hash; /* the key hash of each table slot */
    size_t count, capacity, table_size;
    size_t *classes; /* the symbols' classes by name, built when first needed in a run */
    size_t class_capacity, class_table_size;
    bool classes_ready;
    uint64_t digest; /* of the graph whose reachability `reached` holds */
    bool have_digest;
} call_graph;

struct gm_analyzer {
    gm_syntax syntax;
    entry_list entries;
    entry_list spare; /* the next run builds its entries here, then the two swap */
    bool have_state;  /* fingerprint, options and symbols describe the cached entries */
    uint64_t fingerprint;
    gm_analysis_options options;
    gm_symbols symbols;
    gm_finding_list result;    /* shallow copies of the entries' findings (+ syntax_finding) */
    gm_finding syntax_finding; /* owned */
    TSNode *children;
    child_info *info;
    size_t children_capacity;
    call_graph graph;
    gm_analyzer_stats stats;
};

static void entry_free(cache_entry *e) {
    for (size_t i = 0; i < e->count; i++)
        gm_finding_free(&e->findings[i]);
    free(e->findings);
    e->findings = NULL;
    e->count = 0;
    gm_call_part_free(&e->calls);
}

static void entries_clear(entry_list *list) {
    for (size_t i = 0; i < list->count; i++)
        entry_free(&list->items[i]);
    list->count = 0;
}

gm_analyzer *gm_analyzer_new(void) {
    gm_analyzer *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    if (gm_syntax_init(&a->syntax, gm_python_language()) != 0) {
        free(a);
        return NULL;
    }
    gm_symbols_init(&a->symbols);
    gm_finding_list_init(&a->result);
    return a;
}

void gm_analyzer_free(gm_analyzer *analyzer) {
    if (!analyzer)
        return;
    entries_clear(&analyzer->entries);
    free(analyzer->entries.items);
    free(analyzer->spare.items);
    gm_symbols_free(&analyzer->symbols);
    free(analyzer->result.items); /* shallow: the members belong to the entries */
    gm_finding_free(&analyzer->syntax_finding);
    free(analyzer->children);
    free(analyzer->info);
    free(analyzer->graph.nodes);
    free(analyzer->graph.owner);
    free(analyzer->graph.reached);
    free(analyzer->graph.queue);
    free(analyzer->graph.table);
    free(analyzer->graph.table_hash);
    free(analyzer->graph.classes);
    free(analyzer);
}

void gm_analyzer_reset(gm_analyzer *analyzer) {
    for (size_t i = 0; i < analyzer->entries.count; i++)
        analyzer->entries.items[i].dead = true;
    analyzer->have_state = false;
    analyzer->graph.have_digest = false;
}

void gm_analyzer_note_edit(gm_analyzer *analyzer, const TSInputEdit *edit) {
    int64_t bytes = (int64_t)edit->new_end_byte - (int64_t)edit->old_end_byte;
    int64_t rows = (int64_t)edit->new_end_point.row - (int64_t)edit->old_end_point.row;
    for (size_t i = 0; i < analyzer->entries.count; i++) {
        cache_entry *e = &analyzer->entries.items[i];
        if (e->dead || edit->start_byte > e->dep_end)
            continue; /* before the edit: unchanged */
        if (edit->old_end_byte < e->dep_start) {
            /* After the edit, which ends on an earlier line: only bytes and rows move. */
            e->start_byte = (uint32_t)(e->start_byte + bytes);
            e->end_byte = (uint32_t)(e->end_byte + bytes);
            e->dep_start = (uint32_t)(e->dep_start + bytes);
            e->dep_end = (uint32_t)(e->dep_end + bytes);
            e->start_row = (uint32_t)(e->start_row + rows);
            e->pending_bytes += bytes;
            e->pending_rows += rows;
        } else {
            e->dead = true; /* findings may be in the last result: freed at the next run */
        }
    }
}

static int entries_reserve(entry_list *list, size_t n) {
    if (n <= list->capacity)
        return 0;
    size_t cap = list->capacity ? list->capacity : 16;
    while (cap < n)
        cap *= 2;
    cache_entry *items = realloc(list->items, cap * sizeof *items);
    if (!items)
        return -1;
    list->items = items;
    list->capacity = cap;
    return 0;
}

static int collect_children(gm_analyzer *a, TSNode root, size_t *count) {
    size_t n = 0;
    TSTreeCursor cursor = ts_tree_cursor_new(root);
    if (ts_tree_cursor_goto_first_child(&cursor)) {
        do {
            if (n == a->children_capacity) {
                size_t cap = a->children_capacity ? a->children_capacity * 2 : 256;
                TSNode *items = realloc(a->children, cap * sizeof *items);
                if (items)
                    a->children = items;
                child_info *info = items ? realloc(a->info, cap * sizeof *info) : NULL;
                if (!info) {
                    ts_tree_cursor_delete(&cursor);
                    return -1;
                }
                a->info = info;
                a->children_capacity = cap;
            }
            a->children[n++] = ts_tree_cursor_current_node(&cursor);
        } while (ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
    *count = n;
    return 0;
}

/* A top-level comment alone on its line may carry `# graphmend: ignore-file[...]`. */
static void note_file_ignore(const gm_syntax *syn, const char *text, TSNode comment,
                             gm_rule_set *ignored) {
    (void)syn;
    uint32_t start = ts_node_start_byte(comment);
    uint32_t col = ts_node_start_point(comment).column;
    for (uint32_t p = start - col; p < start; p++)
        if (text[p] != ' ' && text[p] != '\t')
            return;
    gm_slice s = gm_node_slice(comment, text);
    gm_parse_ignore_comment(s.ptr, s.len, true, ignored);
}

static int analyze_region(void *payload, const gm_region_site *site) {
    gm_stmt_ctx *stmt = payload;
    gm_region_analyze(stmt, site);
    return stmt->oom ? -1 : 0;
}

static int analyze_statement(gm_analyzer *a, TSNode top, TSNode next, const char *text,
                             uint32_t len, const bool *reached, cache_entry *entry) {
    gm_finding_list out;
    gm_finding_list_init(&out);
    gm_stmt_ctx st = {
        .syntax = &a->syntax,
        .symbols = &a->symbols,
        .options = &a->options,
        .text = text,
        .len = len,
        .top = top,
        .next = next,
        .out = &out,
    };
    gm_compiled_regions_each(&a->symbols, &a->syntax, text, &a->options, top, reached,
                             analyze_region, &st);
    memset(entry, 0, sizeof *entry);
    entry->start_byte = ts_node_start_byte(top);
    entry->end_byte = ts_node_end_byte(top);
    entry->start_row = ts_node_start_point(top).row;
    entry->dep_start = entry->start_byte - ts_node_start_point(top).column;
    entry->dep_end = gm_line_end(text, len, entry->end_byte);
    entry->symbol = ts_node_symbol(top);
    entry->findings = out.items;
    entry->count = out.count;
    return st.oom ? -1 : 0;
}

static bool entry_matches(const cache_entry *e, TSNode child, TSSymbol symbol) {
    return !e->dead && e->symbol == symbol && e->start_byte == ts_node_start_byte(child) &&
           e->end_byte == ts_node_end_byte(child) &&
           e->start_row == ts_node_start_point(child).row && !ts_node_has_error(child);
}

static int result_push(gm_finding_list *list, const gm_finding *f) {
    if (list->count == list->capacity) {
        size_t cap = list->capacity ? list->capacity * 2 : 64;
        gm_finding *items = realloc(list->items, cap * sizeof *items);
        if (!items)
            return -1;
        list->items = items;
        list->capacity = cap;
    }
    list->items[list->count++] = *f;
    return 0;
}

/* The GM001 finding, placed after the findings that start before or at it. */
static int add_syntax_error(gm_analyzer *a, TSNode root, const char *text, uint32_t len,
                            const gm_rule_set *ignored) {
    TSNode error;
    if (!gm_first_syntax_error(root, &error))
        return 0;
    gm_finding f;
    if (gm_syntax_error_finding(error, text, len, &f) != 0)
        return -1;
    TSNode scopes[1] = {root};
    if (gm_rule_set_has(ignored, f.rule) || !gm_analysis_rule_enabled(&a->options, f.rule) ||
        gm_line_suppresses(&a->syntax, text, len, f.span.start_byte, f.span.start.column, scopes, 1,
                           f.rule)) {
        gm_finding_free(&f);
        return 0;
    }
    if (result_push(&a->result, &f) != 0) {
        gm_finding_free(&f);
        return -1;
    }
    a->syntax_finding = f;
    gm_finding *items = a->result.items;
    size_t at = a->result.count - 1;
    while (at > 0 && items[at - 1].span.start_byte > f.span.start_byte) {
        items[at] = items[at - 1];
        at--;
    }
    items[at] = f;
    return 0;
}

/* A cheap 64-bit combine: runs over every statement and call node on every run. */
static uint64_t mix(uint64_t digest, uint64_t value) {
    digest ^= value + 0x9e3779b97f4a7c15ull + (digest << 6) + (digest >> 2);
    return digest * 0xff51afd7ed558ccdull;
}

/* ---- the call graph ------------------------------------------------------------------ */

static int graph_reserve(call_graph *g, size_t n) {
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
    bool *reached = realloc(g->reached, cap * sizeof *reached);
    if (!reached)
        return -1;
    g->reached = reached;
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
    g->capacity = cap;
    return 0;
}

/* Marks the untraced-so-far traceable nodes named by key and queues them; returns how many
 * nodes have that key. */
static size_t graph_reach(call_graph *g, uint64_t hash, const char *key, size_t *tail) {
    size_t mask = g->table_size - 1, found = 0;
    for (size_t at = (size_t)hash & mask; g->table[at]; at = (at + 1) & mask) {
        size_t n = g->table[at] - 1;
        if (g->table_hash[at] != hash || strcmp(g->nodes[n]->key.key, key) != 0)
            continue;
        found++;
        if (!g->reached[n] && g->nodes[n]->traceable) {
            g->reached[n] = true;
            g->queue[(*tail)++] = n;
        }
    }
    return found;
}

/* `self.m()` in a method of C where C does not define m: the same-file base classes' m. */
static void graph_reach_inherited(call_graph *g, const gm_symbols *symbols, const char *key,
                                  size_t *tail, int depth) {
    const char *dot = strchr(key, '.');
    if (!dot || depth > 8 || symbols->class_count == 0)
        return;
    if (!g->classes_ready) {
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
            while (g->classes[at])
                at = (at + 1) & (size - 1);
            g->classes[at] = c + 1;
        }
        g->classes_ready = true;
    }
    size_t class_len = (size_t)(dot - key), mask = g->class_table_size - 1;
    for (size_t at = (size_t)gm_hash_bytes(GM_HASH_INIT, key, class_len) & mask; g->classes[at];
         at = (at + 1) & mask) {
        const gm_class_symbol *cls = &symbols->classes[g->classes[at] - 1];
        if (strlen(cls->name) != class_len || memcmp(cls->name, key, class_len) != 0)
            continue;
        for (size_t b = 0; b < cls->base_count; b++) {
            if (strchr(cls->bases[b], '.'))
                continue; /* not a class of this file */
            char base_key[2 * GM_NAME_MAX];
            int n = snprintf(base_key, sizeof base_key, "%s%s", cls->bases[b], dot);
            if (n < 0 || (size_t)n >= sizeof base_key)
                continue;
            if (graph_reach(g, gm_call_key_hash(base_key), base_key, tail) == 0)
                graph_reach_inherited(g, symbols, base_key, tail, depth + 1);
        }
    }
}

/* Computes which functions of the statements compiled code reaches, transitively, and each
 * statement's membership (a hash of its reached non-root functions, 0 when there are none). */
/* Everything reachability depends on: the file-wide fingerprint (classes and their bases) and
 * every node and callee key, in statement order. */
static uint64_t graph_digest(const gm_analyzer *a, size_t nchildren) {
    uint64_t digest = mix(GM_HASH_INIT, a->fingerprint);
    for (size_t i = 0; i < nchildren; i++) {
        const gm_call_part *part = &a->info[i].calls;
        if (!a->info[i].statement)
            continue;
        digest = mix(digest, part->node_count);
        for (uint32_t k = 0; k < part->node_count; k++) {
            const gm_call_node *node = &part->nodes[k];
            digest = mix(digest, node->key.hash ^ ((uint64_t)node->root << 1) ^ node->traceable);
            for (uint32_t c = 0; c < node->callee_count; c++)
                digest = mix(digest, part->callees[node->callee_start + c].hash);
        }
    }
    return digest;
}

static int graph_run(gm_analyzer *a, size_t nchildren) {
    call_graph *g = &a->graph;
    size_t total = 0;
    for (size_t i = 0; i < nchildren; i++) {
        a->info[i].node_offset = total;
        a->info[i].membership = 0;
        if (a->info[i].statement)
            total += a->info[i].calls.node_count;
    }
    g->classes_ready = false;
    /* Most edits change no call: then what is reached is what the last run found. */
    uint64_t digest = graph_digest(a, nchildren);
    bool unchanged = g->have_digest && g->digest == digest && g->count == total;
    g->count = total;
    g->digest = digest;
    g->have_digest = total > 0;
    if (total == 0)
        return 0;
    if (unchanged)
        goto membership;
    if (graph_reserve(g, total) != 0) {
        g->have_digest = false;
        return -1;
    }
    g->table_size = 2 * g->capacity;
    memset(g->table, 0, g->table_size * sizeof *g->table);
    size_t tail = 0, mask = g->table_size - 1;
    for (size_t i = 0; i < nchildren; i++) {
        const gm_call_part *part = &a->info[i].calls;
        if (!a->info[i].statement)
            continue;
        for (uint32_t k = 0; k < part->node_count; k++) {
            size_t n = a->info[i].node_offset + k;
            const gm_call_node *node = &part->nodes[k];
            g->nodes[n] = node;
            g->owner[n] = part;
            g->reached[n] = node->root && node->traceable;
            if (g->reached[n])
                g->queue[tail++] = n;
            size_t at = (size_t)node->key.hash & mask;
            while (g->table[at])
                at = (at + 1) & mask;
            g->table[at] = n + 1;
            g->table_hash[at] = node->key.hash;
        }
    }
    for (size_t head = 0; head < tail; head++) {
        const gm_call_node *node = g->nodes[g->queue[head]];
        const gm_call_part *part = g->owner[g->queue[head]];
        for (uint32_t c = 0; c < node->callee_count; c++) {
            const gm_call_key *callee = &part->callees[node->callee_start + c];
            if (graph_reach(g, callee->hash, callee->key, &tail) == 0)
                graph_reach_inherited(g, &a->symbols, callee->key, &tail, 0);
        }
    }
membership:
    for (size_t i = 0; i < nchildren; i++) {
        child_info *info = &a->info[i];
        if (!info->statement)
            continue;
        for (uint32_t k = 0; k < info->calls.node_count; k++)
            if (g->reached[info->node_offset + k] && !info->calls.nodes[k].root)
                info->membership = mix(info->membership ? info->membership : GM_HASH_INIT, k);
    }
    return 0;
}

static void free_child_calls(gm_analyzer *a, size_t nchildren) {
    for (size_t i = 0; i < nchildren; i++)
        gm_call_part_free(&a->info[i].calls);
}

static int run(gm_analyzer *a, TSNode root, const char *text, uint32_t len,
               const gm_analysis_options *options) {
    const gm_syntax *syn = &a->syntax;
    size_t nchildren;
    if (collect_children(a, root, &nchildren) != 0)
        return -1;
    memset(&a->stats, 0, sizeof a->stats);

    /* Pass 1, over the module's children only: match them with the surviving entries (both in
     * byte order), and compute the file-wide fingerprint from the cached parts of matched
     * statements and fresh parts of the others. Also collect file-level ignore comments. */
    entry_list *old = &a->entries;
    uint64_t fingerprint = GM_HASH_INIT;
    gm_rule_set ignored = {0};
    size_t j = 0;
    for (size_t i = 0; i < nchildren; i++) {
        TSNode c = a->children[i];
        child_info *info = &a->info[i];
        TSSymbol symbol = ts_node_symbol(c);
        info->match = -1;
        info->contribution = GM_HASH_INIT;
        info->statement = false;
        memset(&info->calls, 0, sizeof info->calls);
        if (symbol == syn->sym.comment) {
            note_file_ignore(syn, text, c, &ignored);
            continue;
        }
        if (symbol == syn->sym.error || !ts_node_is_named(c))
            continue;
        info->statement = true;
        a->stats.statements++;
        uint32_t start = ts_node_start_byte(c);
        while (j < old->count && (old->items[j].dead || old->items[j].start_byte < start))
            j++;
        if (j < old->count && entry_matches(&old->items[j], c, symbol)) {
            info->match = (ptrdiff_t)j;
            info->contribution = old->items[j].contribution;
            j++;
        } else if (gm_symbols_scan_top(NULL, syn, text, c, &info->contribution) != 0) {
            return -1;
        }
        if (info->contribution != GM_HASH_INIT)
            fingerprint = mix(fingerprint, info->contribution);
    }

    /* Something other statements depend on changed: rebuild the symbols, reuse nothing. */
    if (!a->have_state || fingerprint != a->fingerprint ||
        !gm_analysis_options_equal(options, &a->options)) {
        a->stats.recomputed_all = true;
        for (size_t i = 0; i < nchildren; i++)
            a->info[i].match = -1;
        gm_symbols_free(&a->symbols);
        for (size_t i = 0; i < nchildren; i++) {
            uint64_t unused = GM_HASH_INIT;
            if (a->info[i].statement &&
                gm_symbols_scan_top(&a->symbols, syn, text, a->children[i], &unused) != 0)
                return -1;
        }
        if (gm_symbols_finish(&a->symbols) != 0)
            return -1;
        a->fingerprint = fingerprint;
        a->options = *options;
        a->have_state = true;
    }

    /* The call graph: each statement's part (cached, or built now), then what compiled code
     * reaches. A statement whose reached functions changed is analysed again. */
    for (size_t i = 0; i < nchildren; i++) {
        child_info *info = &a->info[i];
        if (!info->statement)
            continue;
        if (info->match >= 0) {
            cache_entry *e = &old->items[info->match];
            info->calls = e->calls;
            memset(&e->calls, 0, sizeof e->calls);
        } else if (gm_call_part_build(&a->symbols, syn, text, options, a->children[i],
                                      &info->calls) != 0) {
            free_child_calls(a, nchildren);
            return -1;
        }
    }
    if (graph_run(a, nchildren) != 0) {
        free_child_calls(a, nchildren);
        return -1;
    }
    for (size_t i = 0; i < nchildren; i++) {
        child_info *info = &a->info[i];
        if (info->match >= 0 && old->items[info->match].membership != info->membership)
            info->match = -1;
    }

    /* Pass 2: the new entry list, moving reused entries over and analysing the rest. */
    entry_list *fresh = &a->spare;
    fresh->count = 0;
    if (entries_reserve(fresh, a->stats.statements) != 0) {
        free_child_calls(a, nchildren);
        return -1;
    }
    int rc = 0;
    for (size_t i = 0; i < nchildren && rc == 0; i++) {
        TSNode c = a->children[i];
        if (!a->info[i].statement)
            continue;
        cache_entry *slot = &fresh->items[fresh->count++];
        child_info *info = &a->info[i];
        if (info->match >= 0) {
            cache_entry *e = &old->items[a->info[i].match];
            if (e->pending_bytes || e->pending_rows) {
                for (size_t k = 0; k < e->count; k++)
                    gm_finding_shift(&e->findings[k], e->pending_bytes, e->pending_rows);
                e->pending_bytes = e->pending_rows = 0;
            }
            *slot = *e;
            e->findings = NULL; /* moved */
            e->count = 0;
            slot->calls = info->calls;
            memset(&info->calls, 0, sizeof info->calls);
            a->stats.reused++;
            continue;
        }
        TSNode next = i + 1 < nchildren ? a->children[i + 1] : (TSNode){0};
        const bool *reached = info->calls.node_count ? &a->graph.reached[info->node_offset] : NULL;
        rc = analyze_statement(a, c, next, text, len, reached, slot);
        slot->contribution = info->contribution;
        slot->calls = info->calls;
        slot->membership = info->membership;
        memset(&info->calls, 0, sizeof info->calls);
    }
    free_child_calls(a, nchildren);
    entries_clear(old); /* what was not moved: dropped, replaced or dead */
    entry_list built = *fresh;
    a->spare = *old;
    a->entries = built;
    fresh = &a->entries;
    if (rc != 0)
        return -1;

    bool any_ignored = ignored.all;
    for (size_t w = 0; w < GM_RULE_SET_WORDS; w++)
        any_ignored |= ignored.bits[w] != 0;
    for (size_t i = 0; i < fresh->count; i++) {
        const cache_entry *e = &fresh->items[i];
        for (size_t k = 0; k < e->count; k++)
            if ((!any_ignored || !gm_rule_set_has(&ignored, e->findings[k].rule)) &&
                gm_analysis_rule_enabled(options, e->findings[k].rule) &&
                result_push(&a->result, &e->findings[k]) != 0)
                return -1;
    }
    if (options->report_syntax_errors && add_syntax_error(a, root, text, len, &ignored) != 0)
        return -1;
    return 0;
}

const gm_finding_list *gm_analyzer_run(gm_analyzer *analyzer, const TSTree *tree, const char *text,
                                       size_t len, const gm_analysis_options *options) {
    gm_analysis_options defaults;
    if (!options) {
        gm_analysis_options_default(&defaults);
        options = &defaults;
    }
    analyzer->result.count = 0;
    gm_finding_free(&analyzer->syntax_finding);
    if (!tree || len > UINT32_MAX) {
        gm_analyzer_reset(analyzer);
        return &analyzer->result;
    }
    if (run(analyzer, ts_tree_root_node(tree), text, (uint32_t)len, options) != 0) {
        /* Out of memory: report what was gathered and recompute everything next time. */
        gm_analyzer_reset(analyzer);
    }
    return &analyzer->result;
}

void gm_analyzer_last_stats(const gm_analyzer *analyzer, gm_analyzer_stats *stats) {
    *stats = analyzer->stats;
}

int gm_analyze_source(const char *text, size_t len, const gm_analysis_options *options,
                      gm_finding_list *list) {
    TSParser *parser = gm_python_parser_new(GM_ANALYZE_SOURCE_TIMEOUT_MICROS);
    if (!parser)
        return -1;
    TSTree *tree = gm_python_parse(parser, NULL, text, len);
    ts_parser_delete(parser);
    if (!tree)
        return -1;
    gm_analyzer *analyzer = gm_analyzer_new();
    if (!analyzer) {
        ts_tree_delete(tree);
        return -1;
    }
    const gm_finding_list *found = gm_analyzer_run(analyzer, tree, text, len, options);
    int rc = 0;
    for (size_t i = 0; i < found->count && rc == 0; i++) {
        gm_finding copy;
        if (gm_finding_copy_shifted(&found->items[i], &copy, 0, 0) != 0) {
            rc = -1;
        } else if (gm_finding_list_push(list, &copy) != 0) {
            gm_finding_free(&copy);
            rc = -1;
        }
    }
    gm_analyzer_free(analyzer);
    ts_tree_delete(tree);
    return rc;
}
