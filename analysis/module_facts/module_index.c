#include "analysis/module_facts/module_index.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct gm_mentioned_word {
    gm_slice word; /* len 0: an empty slot */
    uint32_t hash; /* of word (word_hash) */
    uint32_t first, count; /* while building: the newest posting and how many */
    uint32_t last_statement;
};

void gm_module_index_reset(gm_module_index *index, const gm_syntax *syntax, const char *text,
                           TSNode module) {
    index->syntax = syntax;
    index->text = text;
    index->module = module;
    index->fact_nodes = NULL;
    index->facts = NULL;
    index->fact_count = 0;
    index->built = false;
    index->oom = false;
    index->name_count = 0;
    index->base_count = 0;
    index->function_count = 0;
    index->import_count = 0;
    index->mentions_built = false;
    index->statement_count = 0;
    index->mention_count = 0;
    index->word_table_size = 0;
}

void gm_module_index_free(gm_module_index *index) {
    free(index->by_name);
    free(index->by_base);
    free(index->functions);
    free(index->imports);
    free(index->statements);
    free(index->words);
    free(index->mention_statements);
    memset(index, 0, sizeof *index);
}

static int slice_order(gm_slice a, gm_slice b) {
    size_t n = a.len < b.len ? a.len : b.len;
    int c = memcmp(a.ptr, b.ptr, n);
    if (c != 0)
        return c;
    return a.len < b.len ? -1 : a.len > b.len;
}

/* By key, then file order. */
static int key_order(const void *pa, const void *pb) {
    const gm_keyed_class *a = pa, *b = pb;
    int c = slice_order(a->key, b->key);
    if (c != 0)
        return c;
    uint32_t sa = ts_node_start_byte(a->node), sb = ts_node_start_byte(b->node);
    return sa < sb ? -1 : sa > sb;
}

static void sort_keyed(gm_keyed_class *items, uint32_t count) {
    if (count > 1) /* qsort of a NULL array is undefined even with no elements */
        qsort(items, count, sizeof *items, key_order);
}

void gm_index_orders_free(gm_index_orders *orders) {
    free(orders->names.items);
    free(orders->bases.items);
    free(orders->functions.items);
    memset(orders, 0, sizeof *orders);
}

void gm_module_index_use_orders(gm_module_index *index, gm_index_orders *orders) {
    index->orders = orders;
}

/* items (count, in file order) rearranged by the kept order when that sorts them, checked one
 * neighbour at a time; false when it does not (items unchanged). The order is a permutation of
 * [0, count) by construction (sort_table). */
static bool apply_order(gm_keyed_class *items, uint32_t count, const gm_index_order *order,
                        gm_keyed_class *scratch) {
    if (order->count != count)
        return false;
    for (uint32_t i = 0; i < count; i++) {
        scratch[i] = items[order->items[i]];
        if (i > 0 && key_order(&scratch[i - 1], &scratch[i]) > 0)
            return false;
    }
    memcpy(items, scratch, count * sizeof *items);
    return true;
}

typedef struct {
    gm_keyed_class item;
    uint32_t built; /* its position in file order */
} numbered_class;

static int numbered_order(const void *pa, const void *pb) {
    const numbered_class *a = pa, *b = pb;
    int c = key_order(&a->item, &b->item);
    return c ? c : (a->built > b->built) - (a->built < b->built);
}

/* Sorts a table by key, then file order: by the kept order when it still holds, else afresh,
 * keeping the new order. Without memory (or an order) it sorts as sort_keyed. */
static void sort_table(gm_keyed_class *items, uint32_t count, gm_index_order *order) {
    if (!order || count < 2) {
        sort_keyed(items, count);
        if (order)
            order->count = 0;
        return;
    }
    numbered_class *numbered = malloc(count * sizeof *numbered);
    if (!numbered) {
        sort_keyed(items, count);
        order->count = 0;
        return;
    }
    /* numbered has room for count classes: it is the scratch of the check */
    if (apply_order(items, count, order, (gm_keyed_class *)numbered)) {
        free(numbered);
        return;
    }
    for (uint32_t i = 0; i < count; i++)
        numbered[i] = (numbered_class){items[i], i};
    qsort(numbered, count, sizeof *numbered, numbered_order);
    if (order->capacity < count) {
        uint32_t *grown = realloc(order->items, count * sizeof *grown);
        if (grown) {
            order->items = grown;
            order->capacity = count;
        }
    }
    order->count = order->capacity >= count ? count : 0;
    for (uint32_t i = 0; i < count; i++) {
        items[i] = numbered[i].item;
        if (order->count)
            order->items[i] = numbered[i].built;
    }
    free(numbered);
}

static int push(gm_keyed_class **items, uint32_t *count, uint32_t *cap, gm_slice key, TSNode n) {
    if (*count == *cap) {
        uint32_t grown = *cap ? *cap * 2 : 64;
        gm_keyed_class *more = realloc(*items, grown * sizeof *more);
        if (!more)
            return -1;
        *items = more;
        *cap = grown;
    }
    (*items)[(*count)++] = (gm_keyed_class){key, n};
    return 0;
}

static int add_class(gm_module_index *index, TSNode cls, uint32_t *name_cap, uint32_t *base_cap) {
    const gm_syntax *syn = index->syntax;
    TSNode name = gm_child(cls, syn->field.name);
    if (ts_node_is_null(name))
        return 0;
    if (push(&index->by_name, &index->name_count, name_cap, gm_node_slice(name, index->text),
             cls) != 0)
        return -1;
    TSNode bases = gm_child(cls, syn->field.superclasses);
    uint32_t count = ts_node_is_null(bases) ? 0 : ts_node_named_child_count(bases);
    for (uint32_t i = 0; i < count; i++) {
        TSNode b = ts_node_named_child(bases, i);
        if (gm_is(b, syn->sym.attribute))
            b = gm_child(b, syn->field.attribute);
        if (gm_is(b, syn->sym.identifier) &&
            push(&index->by_base, &index->base_count, base_cap, gm_node_slice(b, index->text),
                 cls) != 0)
            return -1;
    }
    return 0;
}

void gm_module_index_use_facts(gm_module_index *index, const TSNode *nodes,
                               const gm_index_facts *facts, uint32_t count) {
    index->fact_nodes = nodes;
    index->facts = facts;
    index->fact_count = count;
    index->built = false;
}

void gm_index_facts_free(gm_index_facts *facts) {
    free(facts->bases);
    memset(facts, 0, sizeof *facts);
}

int gm_index_facts_of(const gm_syntax *syn, const char *text, TSNode statement,
                      gm_index_facts *facts) {
    (void)text;
    memset(facts, 0, sizeof *facts);
    uint32_t start = ts_node_start_byte(statement);
    TSNode s = statement;
    if (gm_is(s, syn->sym.import_statement) || gm_is(s, syn->sym.import_from_statement)) {
        facts->kind = GM_INDEX_IMPORT;
        return 0;
    }
    if (gm_is(s, syn->sym.decorated_definition)) {
        s = gm_child(s, syn->field.definition);
        facts->decorated = true;
    }
    bool is_class = gm_is(s, syn->sym.class_definition);
    if (!is_class && !gm_is(s, syn->sym.function_definition))
        return 0;
    TSNode name = gm_child(s, syn->field.name);
    if (ts_node_is_null(name))
        return 0;
    facts->kind = is_class ? GM_INDEX_CLASS : GM_INDEX_FUNCTION;
    facts->name_offset = ts_node_start_byte(name) - start;
    facts->name_len = ts_node_end_byte(name) - ts_node_start_byte(name);
    TSNode bases = is_class ? gm_child(s, syn->field.superclasses) : (TSNode){0};
    uint32_t count = ts_node_is_null(bases) ? 0 : ts_node_named_child_count(bases);
    if (count == 0)
        return 0;
    facts->bases = malloc(2 * count * sizeof *facts->bases);
    if (!facts->bases)
        return -1;
    TSTreeCursor cursor = ts_tree_cursor_new(bases);
    for (bool more = ts_tree_cursor_goto_first_child(&cursor); more;
         more = ts_tree_cursor_goto_next_sibling(&cursor)) {
        TSNode b = ts_tree_cursor_current_node(&cursor);
        if (!ts_node_is_named(b))
            continue;
        if (gm_is(b, syn->sym.attribute))
            b = gm_child(b, syn->field.attribute);
        if (!gm_is(b, syn->sym.identifier) || facts->base_count == count)
            continue;
        facts->bases[2 * facts->base_count] = ts_node_start_byte(b) - start;
        facts->bases[2 * facts->base_count + 1] = ts_node_end_byte(b) - ts_node_start_byte(b);
        facts->base_count++;
    }
    ts_tree_cursor_delete(&cursor);
    return 0;
}

/* The tables from the statements' facts (gm_module_index_use_facts): what build's walk would
 * find, without asking the tree for names and bases. */
static void build_from_facts(gm_module_index *index, uint32_t *name_cap, uint32_t *base_cap,
                             uint32_t *function_cap, uint32_t *import_cap) {
    const gm_syntax *syn = index->syntax;
    for (uint32_t i = 0; i < index->fact_count && !index->oom; i++) {
        const gm_index_facts *f = &index->facts[i];
        TSNode s = index->fact_nodes[i];
        if (f->kind == GM_INDEX_NOTHING)
            continue;
        if (f->kind == GM_INDEX_IMPORT) {
            if (index->import_count == *import_cap) {
                *import_cap = *import_cap ? *import_cap * 2 : 16;
                TSNode *more = realloc(index->imports, *import_cap * sizeof *more);
                if (!more) {
                    index->oom = true;
                    break;
                }
                index->imports = more;
            }
            index->imports[index->import_count++] = s;
            continue;
        }
        const char *at = index->text + ts_node_start_byte(s);
        if (f->decorated)
            s = gm_child(s, syn->field.definition);
        gm_slice name = {at + f->name_offset, f->name_len};
        if (f->kind == GM_INDEX_FUNCTION) {
            if (push(&index->functions, &index->function_count, function_cap, name, s) != 0)
                index->oom = true;
            continue;
        }
        if (push(&index->by_name, &index->name_count, name_cap, name, s) != 0)
            index->oom = true;
        for (uint32_t b = 0; b < f->base_count && !index->oom; b++)
            if (push(&index->by_base, &index->base_count, base_cap,
                     (gm_slice){at + f->bases[2 * b], f->bases[2 * b + 1]}, s) != 0)
                index->oom = true;
    }
}

static void build(gm_module_index *index) {
    index->built = true;
    if (ts_node_is_null(index->module))
        return;
    const gm_syntax *syn = index->syntax;
    uint32_t name_cap = 0, base_cap = 0, function_cap = 0, import_cap = 0;
    free(index->by_name);
    free(index->by_base);
    free(index->functions);
    free(index->imports);
    index->by_name = index->by_base = index->functions = NULL;
    index->imports = NULL;
    if (index->facts && index->fact_count > 0) {
        /* Each child adds at most one name, function or import (bases can be more and grow):
         * sized once, the tables are not grown through a chain of reallocations on every run. */
        uint32_t n = index->fact_count;
        index->by_name = malloc(n * sizeof *index->by_name);
        index->by_base = malloc(n * sizeof *index->by_base);
        index->functions = malloc(n * sizeof *index->functions);
        index->imports = malloc(n * sizeof *index->imports);
        if (!index->by_name || !index->by_base || !index->functions || !index->imports) {
            index->oom = true;
            return;
        }
        name_cap = base_cap = function_cap = import_cap = n;
    }
    if (index->facts)
        build_from_facts(index, &name_cap, &base_cap, &function_cap, &import_cap);
    /* a cursor: taking the module's children by index costs quadratic time */
    TSTreeCursor cursor = ts_tree_cursor_new(index->module);
    for (bool more = !index->facts && ts_tree_cursor_goto_first_child(&cursor);
         more && !index->oom; more = ts_tree_cursor_goto_next_sibling(&cursor)) {
        TSNode s = ts_tree_cursor_current_node(&cursor);
        if (gm_is(s, syn->sym.import_statement) || gm_is(s, syn->sym.import_from_statement)) {
            if (index->import_count == import_cap) {
                import_cap = import_cap ? import_cap * 2 : 16;
                TSNode *more_imports = realloc(index->imports, import_cap * sizeof *more_imports);
                if (!more_imports) {
                    index->oom = true;
                    break;
                }
                index->imports = more_imports;
            }
            index->imports[index->import_count++] = s;
            continue;
        }
        if (gm_is(s, syn->sym.decorated_definition))
            s = gm_child(s, syn->field.definition);
        if (gm_is(s, syn->sym.class_definition) && add_class(index, s, &name_cap, &base_cap) != 0)
            index->oom = true;
        TSNode name = gm_is(s, syn->sym.function_definition) ? gm_child(s, syn->field.name)
                                                             : (TSNode){0};
        if (!ts_node_is_null(name) &&
            push(&index->functions, &index->function_count, &function_cap,
                 gm_node_slice(name, index->text), s) != 0)
            index->oom = true;
    }
    ts_tree_cursor_delete(&cursor);
    if (index->oom) {
        index->name_count = index->base_count = index->function_count = index->import_count = 0;
        return;
    }
    gm_index_orders *orders = index->orders;
    sort_table(index->functions, index->function_count, orders ? &orders->functions : NULL);
    sort_table(index->by_name, index->name_count, orders ? &orders->names : NULL);
    sort_table(index->by_base, index->base_count, orders ? &orders->bases : NULL);
}

static uint32_t equal_range(const gm_keyed_class *items, uint32_t count, gm_slice key,
                            const gm_keyed_class **first) {
    uint32_t lo = 0, hi = count;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (slice_order(items[mid].key, key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    uint32_t end = lo;
    while (end < count && slice_order(items[end].key, key) == 0)
        end++;
    *first = items ? items + lo : NULL;
    return end - lo;
}

uint32_t gm_module_index_classes(gm_module_index *index, gm_slice name,
                                 const gm_keyed_class **first) {
    if (!index->built)
        build(index);
    return equal_range(index->by_name, index->name_count, name, first);
}

uint32_t gm_module_index_functions(gm_module_index *index, gm_slice name,
                                   const gm_keyed_class **first) {
    if (!index->built)
        build(index);
    return equal_range(index->functions, index->function_count, name, first);
}

TSNode gm_module_index_import_before(gm_module_index *index, uint32_t byte) {
    if (!index->built)
        build(index);
    uint32_t lo = 0, hi = index->import_count; /* the first import starting at or after byte */
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (ts_node_start_byte(index->imports[mid]) < byte)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo ? index->imports[lo - 1] : (TSNode){0};
}

uint32_t gm_module_index_subclasses(gm_module_index *index, gm_slice name,
                                    const gm_keyed_class **first) {
    if (!index->built)
        build(index);
    return equal_range(index->by_base, index->base_count, name, first);
}

static bool word_byte(unsigned char c) {
    return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c >= 0x80; /* part of a non-ASCII identifier: over-inclusion only widens the superset */
}

static uint32_t word_hash(gm_slice s) {
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < s.len; i++)
        h = (h ^ (unsigned char)s.ptr[i]) * 16777619u;
    return h;
}

/* The slot of word (whose hash is hash) in table (size a power of two): its own, or the empty
 * one where it goes. */
static struct gm_mentioned_word *slot_in(struct gm_mentioned_word *table, uint32_t size,
                                         gm_slice word, uint32_t hash) {
    uint32_t mask = size - 1;
    uint32_t at = hash & mask;
    while (table[at].word.len &&
           (table[at].hash != hash || !gm_slice_eq(table[at].word, word)))
        at = (at + 1) & mask;
    return &table[at];
}

static struct gm_mentioned_word *word_slot(gm_module_index *index, gm_slice word) {
    return slot_in(index->words, index->word_table_size, word, word_hash(word));
}

/* Postings: (statement, previous posting of the same word) while building. */
typedef struct {
    uint32_t statement, previous;
} posting;

static int collect_statements(gm_module_index *index) {
    TSTreeCursor cursor = ts_tree_cursor_new(index->module);
    int rc = 0;
    for (bool more = ts_tree_cursor_goto_first_child(&cursor); more && rc == 0;
         more = ts_tree_cursor_goto_next_sibling(&cursor)) {
        TSNode s = ts_tree_cursor_current_node(&cursor);
        if (!ts_node_is_named(s))
            continue;
        if (index->statement_count == index->statement_capacity) {
            uint32_t cap = index->statement_capacity ? index->statement_capacity * 2 : 256;
            TSNode *more_items = realloc(index->statements, cap * sizeof *more_items);
            if (!more_items) {
                rc = -1;
                break;
            }
            index->statements = more_items;
            index->statement_capacity = cap;
        }
        index->statements[index->statement_count++] = s;
    }
    ts_tree_cursor_delete(&cursor);
    return rc;
}

/* Doubles the word table (kept at most half full): a file has far fewer distinct words than
 * words, so the table grows with the former (sizing it by the latter cleared megabytes for a
 * large file, a fifth of the index's cost). */
static int grow_words(gm_module_index *index) {
    uint32_t size = index->word_table_size ? index->word_table_size * 2 : 1024;
    if (size > UINT32_MAX / 4)
        return -1;
    struct gm_mentioned_word *table = calloc(size, sizeof *table);
    if (!table)
        return -1;
    for (uint32_t k = 0; k < index->word_table_size; k++)
        if (index->words[k].word.len)
            *slot_in(table, size, index->words[k].word, index->words[k].hash) = index->words[k];
    free(index->words);
    index->words = table;
    index->word_table_size = size;
    return 0;
}

static int build_mentions(gm_module_index *index) {
    index->mentions_built = true;
    if (ts_node_is_null(index->module))
        return 0;
    if (collect_statements(index) != 0)
        return -1;
    free(index->words);
    index->words = NULL;
    index->word_table_size = 0;
    if (grow_words(index) != 0)
        return -1;
    bool is_word[256];
    for (unsigned c = 0; c < 256; c++)
        is_word[c] = word_byte((unsigned char)c);
    uint32_t distinct = 0, used = 0, capacity = 4096;
    posting *postings = malloc(capacity * sizeof *postings);
    if (!postings)
        return -1;
    const unsigned char *text = (const unsigned char *)index->text;
    for (uint32_t i = 0; i < index->statement_count; i++) {
        uint32_t at = ts_node_start_byte(index->statements[i]);
        uint32_t end = ts_node_end_byte(index->statements[i]);
        while (at < end) {
            if (!is_word[text[at]]) {
                at++;
                continue;
            }
            uint32_t start = at;
            uint32_t hash = 2166136261u; /* word_hash, as the bytes go by */
            while (at < end && is_word[text[at]])
                hash = (hash ^ text[at++]) * 16777619u;
            if (text[start] >= '0' && text[start] <= '9')
                continue; /* a number */
            gm_slice word = {index->text + start, at - start};
            struct gm_mentioned_word *w = slot_in(index->words, index->word_table_size, word, hash);
            if (w->word.len == 0) {
                if (2 * (distinct + 1) > index->word_table_size) {
                    if (grow_words(index) != 0) {
                        free(postings);
                        return -1;
                    }
                    w = slot_in(index->words, index->word_table_size, word, hash);
                }
                distinct++;
                w->word = word;
                w->hash = hash;
                w->count = 0;
            } else if (w->last_statement == i) {
                continue;
            }
            if (used == capacity) {
                posting *more = capacity < UINT32_MAX / 2
                                    ? realloc(postings, 2 * (size_t)capacity * sizeof *postings)
                                    : NULL;
                if (!more) {
                    free(postings);
                    return -1;
                }
                postings = more;
                capacity *= 2;
            }
            postings[used] = (posting){i, w->count ? w->first : UINT32_MAX};
            w->first = used++;
            w->count++;
            w->last_statement = i;
        }
    }
    /* Lay each word's statements out contiguously, in file order. */
    free(index->mention_statements);
    index->mention_statements = malloc((used + 1) * sizeof *index->mention_statements);
    if (!index->mention_statements) {
        free(postings);
        return -1;
    }
    uint32_t next = 0;
    for (uint32_t k = 0; k < index->word_table_size; k++) {
        struct gm_mentioned_word *w = &index->words[k];
        if (w->word.len == 0)
            continue;
        uint32_t p = w->first;
        for (uint32_t j = w->count; j-- > 0; p = postings[p].previous)
            index->mention_statements[next + j] = index->statements[postings[p].statement];
        w->first = next;
        next += w->count;
    }
    index->mention_count = next;
    free(postings);
    return 0;
}

void gm_module_index_build_all(gm_module_index *index) {
    if (!index->built)
        build(index);
    const TSNode *unused;
    gm_module_index_mentions(index, (gm_slice){"", 0}, &unused);
}

uint32_t gm_module_index_mentions(gm_module_index *index, gm_slice name, const TSNode **first) {
    *first = NULL;
    if (!index->mentions_built && build_mentions(index) != 0) {
        index->oom = true;
        index->word_table_size = 0;
    }
    if (index->word_table_size == 0 || name.len == 0)
        return 0;
    const struct gm_mentioned_word *w = word_slot(index, name);
    if (w->word.len == 0)
        return 0;
    *first = index->mention_statements + w->first;
    return w->count;
}
