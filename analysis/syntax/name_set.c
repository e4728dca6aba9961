#include "analysis/syntax/name_set.h"

#include <stdlib.h>
#include <string.h>

void gm_name_set_free(gm_name_set *set) {
    free(set->items);
    free(set->table);
    memset(set, 0, sizeof *set);
}

void gm_name_set_clear(gm_name_set *set) {
    set->count = 0;
    if (set->table)
        memset(set->table, 0, set->table_size * sizeof *set->table);
}

static uint32_t slice_hash(gm_slice s) {
    uint32_t h = 2166136261u;
    for (uint32_t i = 0; i < s.len; i++)
        h = (h ^ (unsigned char)s.ptr[i]) * 16777619u;
    return h;
}

/* The slot of name, or of the empty slot where it would go. */
static uint32_t slot_of(const gm_name_set *set, gm_slice name) {
    uint32_t mask = set->table_size - 1;
    uint32_t at = slice_hash(name) & mask;
    while (set->table[at] && !gm_slice_eq(set->items[set->table[at] - 1], name))
        at = (at + 1) & mask;
    return at;
}

static int grow(gm_name_set *set) {
    uint32_t cap = set->capacity ? set->capacity * 2 : 16;
    gm_slice *items = realloc(set->items, cap * sizeof *items);
    if (!items)
        return -1;
    set->items = items;
    uint32_t *table = calloc(2 * cap, sizeof *table);
    if (!table)
        return -1;
    free(set->table);
    set->table = table;
    set->table_size = 2 * cap;
    set->capacity = cap;
    for (uint32_t i = 0; i < set->count; i++)
        set->table[slot_of(set, set->items[i])] = i + 1;
    return 0;
}

int gm_name_set_add(gm_name_set *set, gm_slice name) {
    if (set->count == set->capacity && grow(set) != 0)
        return -1;
    uint32_t at = slot_of(set, name);
    if (set->table[at])
        return 0;
    set->items[set->count++] = name;
    set->table[at] = set->count;
    return 0;
}

bool gm_name_set_has(const gm_name_set *set, gm_slice name) {
    return set->count > 0 && set->table[slot_of(set, name)] != 0;
}

bool gm_name_set_has_cstr(const gm_name_set *set, const char *name) {
    return gm_name_set_has(set, (gm_slice){name, (uint32_t)strlen(name)});
}
