#include "analysis/module_facts/breaking_properties.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/module_facts/decorators.h"
#include "analysis/module_facts/symbols.h"

void gm_breaking_properties_free(gm_breaking_properties *set) {
    free(set->items);
    memset(set, 0, sizeof *set);
}

/* Rules about the file itself (GM0xx) or its comments (GM9xx) predict no break. */
static bool predicts_break(const gm_finding *finding) {
    const char *id = finding->rule ? finding->rule->id : "";
    return strncmp(id, "GM0", 3) != 0 && strncmp(id, "GM9", 3) != 0;
}

/* "Class.name" of the @property getter whose own body holds byte (not a def nested in it), or
 * false. */
static bool getter_key(const gm_syntax *syn, const char *text, TSNode root, uint32_t byte,
                       char *key, size_t size) {
    TSNode n = ts_node_descendant_for_byte_range(root, byte, byte);
    while (!ts_node_is_null(n) && !gm_is(n, syn->sym.function_definition) &&
           !gm_is(n, syn->sym.lambda))
        n = ts_node_parent(n);
    if (ts_node_is_null(n) || !gm_is(n, syn->sym.function_definition))
        return false;
    TSNode decorated = ts_node_parent(n);
    if (!gm_is(decorated, syn->sym.decorated_definition) ||
        !gm_decorators_have_plain_property(syn, text, decorated))
        return false;
    TSNode block = ts_node_parent(decorated);
    TSNode cls = ts_node_is_null(block) ? block : ts_node_parent(block);
    if (!gm_is(cls, syn->sym.class_definition))
        return false;
    gm_slice class_name = gm_node_slice(gm_child(cls, syn->field.name), text);
    gm_slice name = gm_node_slice(gm_child(n, syn->field.name), text);
    if (class_name.len == 0 || name.len == 0 || class_name.len + name.len + 2 > size)
        return false;
    snprintf(key, size, "%.*s.%.*s", (int)class_name.len, class_name.ptr, (int)name.len,
             name.ptr);
    return true;
}

int gm_breaking_properties_collect(gm_breaking_properties *set, const gm_syntax *syntax,
                                   const char *text, TSNode root, const gm_finding_list *findings) {
    uint64_t digest = GM_HASH_INIT;
    size_t count = 0;
    for (size_t i = 0; i < findings->count; i++) {
        const gm_finding *f = &findings->items[i];
        char key[sizeof set->items[0].key];
        if (!predicts_break(f) ||
            !getter_key(syntax, text, root, f->span.start_byte, key, sizeof key))
            continue;
        bool seen = false; /* findings are in file order: the first one of a getter stays */
        for (size_t j = 0; j < count && !seen; j++)
            seen = strcmp(set->items[j].key, key) == 0;
        if (seen)
            continue;
        if (count == set->capacity) {
            size_t capacity = set->capacity ? set->capacity * 2 : 4;
            gm_breaking_property *items = realloc(set->items, capacity * sizeof *items);
            if (!items) {
                gm_breaking_properties_free(set);
                return -1;
            }
            set->items = items;
            set->capacity = capacity;
        }
        gm_breaking_property *entry = &set->items[count++];
        memcpy(entry->key, key, sizeof key);
        entry->rule = f->rule;
        entry->row = f->span.start.row;
        digest = gm_hash_bytes(digest, key, strlen(key));
        digest = gm_hash_bytes(digest, f->rule->id, strlen(f->rule->id));
        digest = gm_hash_bytes(digest, &entry->row, sizeof entry->row);
    }
    set->count = count;
    if (count == 0)
        digest = 0; /* what a new analyzer starts from: no second run for a file without any */
    bool changed = digest != set->digest;
    set->digest = digest;
    return changed;
}

static bool key_is(const char *key, gm_slice class_name, gm_slice property) {
    return strlen(key) == class_name.len + 1 + property.len &&
           memcmp(key, class_name.ptr, class_name.len) == 0 && key[class_name.len] == '.' &&
           memcmp(key + class_name.len + 1, property.ptr, property.len) == 0;
}

const gm_breaking_property *gm_breaking_properties_find(const gm_breaking_properties *set,
                                                        gm_slice class_name, gm_slice property) {
    for (size_t i = 0; set && i < set->count; i++)
        if (key_is(set->items[i].key, class_name, property))
            return &set->items[i];
    return NULL;
}

bool gm_breaking_properties_has_name(const gm_breaking_properties *set, gm_slice property) {
    for (size_t i = 0; set && i < set->count; i++) {
        const char *dot = strrchr(set->items[i].key, '.');
        if (dot && strlen(dot + 1) == property.len && memcmp(dot + 1, property.ptr, property.len) == 0)
            return true;
    }
    return false;
}
