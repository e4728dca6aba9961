#include "server/lsp/diagnostic_fragments.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *key; /* the finding's message address when it was kept: the lookup's hint */
    const gm_rule *rule;
    gm_severity severity;
    char *message; /* owned copy: what the tail was made for */
    char *note;    /* owned copy, or NULL */
    char *tail;    /* owned; NULL once moved to the next publication */
    size_t tail_len;
} fragment;

typedef struct {
    fragment *items;
    size_t count, capacity;
} fragment_list;

struct gm_diagnostic_fragments {
    fragment_list kept; /* the last publication's: candidates for reuse */
    fragment_list made; /* this publication's */
    size_t *slots;      /* kept's open-addressing table by key: index + 1, 0 for empty */
    size_t slot_count;  /* a power of two, or 0 */
    gm_diagnostic_fragment_stats stats;
};

static void fragment_free(fragment *f) {
    free(f->message);
    free(f->note);
    free(f->tail);
    memset(f, 0, sizeof *f);
}

static void list_clear(fragment_list *list) {
    for (size_t i = 0; i < list->count; i++)
        fragment_free(&list->items[i]);
    list->count = 0;
}

gm_diagnostic_fragments *gm_diagnostic_fragments_new(void) {
    return calloc(1, sizeof(gm_diagnostic_fragments));
}

void gm_diagnostic_fragments_free(gm_diagnostic_fragments *fragments) {
    if (!fragments)
        return;
    list_clear(&fragments->kept);
    list_clear(&fragments->made);
    free(fragments->kept.items);
    free(fragments->made.items);
    free(fragments->slots);
    free(fragments);
}

static size_t slot_of(const char *key, size_t mask) {
    uint64_t h = (uint64_t)(uintptr_t)key * 0x9e3779b97f4a7c15ull;
    return (size_t)(h >> 32) & mask;
}

/* Indexes kept by key; without memory for the table nothing is reused (lookups find nothing). */
static void index_kept(gm_diagnostic_fragments *fragments) {
    size_t want = 16;
    while (want < 2 * fragments->kept.count)
        want *= 2;
    if (want != fragments->slot_count) {
        size_t *slots = realloc(fragments->slots, want * sizeof *slots);
        if (!slots) {
            free(fragments->slots);
            fragments->slots = NULL;
            fragments->slot_count = 0;
            return;
        }
        fragments->slots = slots;
        fragments->slot_count = want;
    }
    memset(fragments->slots, 0, fragments->slot_count * sizeof *fragments->slots);
    size_t mask = fragments->slot_count - 1;
    for (size_t i = 0; i < fragments->kept.count; i++) {
        size_t s = slot_of(fragments->kept.items[i].key, mask);
        while (fragments->slots[s])
            s = (s + 1) & mask;
        fragments->slots[s] = i + 1;
    }
}

void gm_diagnostic_fragments_begin(gm_diagnostic_fragments *fragments) {
    fragment_list *kept = &fragments->kept, *made = &fragments->made;
    if (kept->count == 0) {
        fragment_list swap = *kept;
        *kept = *made;
        *made = swap;
    } else {
        /* The last publication did not end: its candidates and what it made stay candidates
         * (those it moved are dropped from kept; without memory, what it made is lost). */
        size_t n = 0;
        for (size_t i = 0; i < kept->count; i++)
            if (kept->items[i].tail)
                kept->items[n++] = kept->items[i];
        kept->count = n;
        fragment *items = kept->count + made->count > kept->capacity
                              ? realloc(kept->items, (kept->count + made->count) * sizeof *items)
                              : kept->items;
        if (items) {
            kept->items = items;
            kept->capacity = kept->count + made->count > kept->capacity
                                 ? kept->count + made->count
                                 : kept->capacity;
            memcpy(kept->items + kept->count, made->items, made->count * sizeof *items);
            kept->count += made->count;
            made->count = 0;
        }
        list_clear(made);
    }
    index_kept(fragments);
}

static fragment *find_kept(gm_diagnostic_fragments *fragments, const char *key) {
    if (!fragments->slot_count)
        return NULL;
    size_t mask = fragments->slot_count - 1;
    for (size_t s = slot_of(key, mask); fragments->slots[s]; s = (s + 1) & mask) {
        fragment *f = &fragments->kept.items[fragments->slots[s] - 1];
        if (f->key == key)
            return f;
    }
    return NULL;
}

static bool same_note(const char *a, const char *b) {
    return a == b || (a && b && strcmp(a, b) == 0);
}

static bool reusable(const fragment *f, const gm_finding *finding, gm_severity severity,
                     const char *note) {
    return f && f->tail && f->rule == finding->rule && f->severity == severity &&
           strcmp(f->message, finding->message) == 0 && same_note(f->note, note);
}

static fragment *made_slot(gm_diagnostic_fragments *fragments) {
    fragment_list *made = &fragments->made;
    if (made->count == made->capacity) {
        size_t capacity = made->capacity ? made->capacity * 2 : 64;
        fragment *items = realloc(made->items, capacity * sizeof *items);
        if (!items)
            return NULL;
        made->items = items;
        made->capacity = capacity;
    }
    fragment *f = &made->items[made->count++];
    memset(f, 0, sizeof *f);
    return f;
}

void gm_diagnostic_fragments_write(gm_diagnostic_fragments *fragments, gm_json_writer *writer,
                                   const gm_finding *finding, const char *note,
                                   gm_diagnostic_tail_fn write_tail) {
    gm_severity severity = gm_finding_severity(finding);
    fragment *kept = find_kept(fragments, finding->message);
    if (reusable(kept, finding, severity, note)) {
        gm_json_raw(writer, kept->tail, kept->tail_len);
        fragment *slot = made_slot(fragments);
        if (slot) {
            *slot = *kept;
            slot->key = finding->message;
            kept->tail = kept->message = kept->note = NULL; /* moved */
        }
        fragments->stats.reused++;
        return;
    }
    size_t from = writer->len;
    write_tail(writer, finding, note);
    fragments->stats.written++;
    if (writer->failed)
        return;
    fragment *slot = made_slot(fragments);
    if (!slot)
        return;
    slot->key = finding->message;
    slot->rule = finding->rule;
    slot->severity = severity;
    slot->message = strdup(finding->message);
    slot->note = note ? strdup(note) : NULL;
    slot->tail_len = writer->len - from;
    slot->tail = malloc(slot->tail_len ? slot->tail_len : 1);
    if (!slot->message || (note && !slot->note) || !slot->tail) {
        fragment_free(slot);
        fragments->made.count--;
        return;
    }
    memcpy(slot->tail, writer->data + from, slot->tail_len);
}

void gm_diagnostic_fragments_end(gm_diagnostic_fragments *fragments) {
    list_clear(&fragments->kept);
}

void gm_diagnostic_fragments_stats(const gm_diagnostic_fragments *fragments,
                                   gm_diagnostic_fragment_stats *stats) {
    *stats = fragments->stats;
}
