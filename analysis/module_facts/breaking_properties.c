#include "analysis/module_facts/breaking_properties.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/module_facts/decorators.h"
#include "analysis/module_facts/symbols.h"
#include "analysis/rules/catalogue/rule_catalogue.h"

void gm_breaking_properties_free(gm_breaking_properties *set) {
    free(set->items);
    memset(set, 0, sizeof *set);
}

/* Rules about the file itself (GM0xx) or its comments (GM9xx) predict no break. */
bool gm_breaking_properties_counts(const gm_finding *finding) {
    const char *id = finding->rule ? finding->rule->id : "";
    return strncmp(id, "GM0", 3) != 0 && strncmp(id, "GM9", 3) != 0;
}

/* The innermost def or lambda of scope (itself included) whose bytes hold byte, with its three
 * nearest ancestors (the decorated definition, the block, the class when it is a getter);
 * false when none. Goes down from scope with a cursor: ts_node_parent walks down from the root
 * past every earlier top-level statement, which made this cost the file's length per finding. */
static bool enclosing_function(const gm_syntax *syn, TSNode scope, uint32_t byte,
                               TSNode chain[4]) {
    if (byte < ts_node_start_byte(scope) || byte >= ts_node_end_byte(scope))
        return false;
    TSNode path[256];
    size_t depth = 0, found = SIZE_MAX;
    TSTreeCursor cursor = ts_tree_cursor_new(scope);
    for (;;) {
        TSNode n = ts_tree_cursor_current_node(&cursor);
        if (depth == sizeof path / sizeof path[0])
            break; /* deeper than any def worth naming: the innermost one found so far */
        path[depth] = n;
        if (gm_is(n, syn->sym.function_definition) || gm_is(n, syn->sym.lambda))
            found = depth;
        depth++;
        if (ts_tree_cursor_goto_first_child_for_byte(&cursor, byte) < 0)
            break;
        TSNode child = ts_tree_cursor_current_node(&cursor);
        if (ts_node_start_byte(child) > byte || ts_node_end_byte(child) <= byte)
            break; /* byte is between children: n is the deepest node that holds it */
    }
    ts_tree_cursor_delete(&cursor);
    if (found == SIZE_MAX)
        return false;
    for (size_t k = 0; k < 4; k++)
        chain[k] = found >= k ? path[found - k] : (TSNode){0};
    return true;
}

bool gm_breaking_property_getter_key(const gm_syntax *syn, const char *text, TSNode scope,
                                     uint32_t byte, char *key, size_t size) {
    TSNode chain[4];
    if (!enclosing_function(syn, scope, byte, chain) ||
        !gm_is(chain[0], syn->sym.function_definition))
        return false;
    TSNode n = chain[0], decorated = chain[1], cls = chain[3];
    if (ts_node_is_null(decorated) || !gm_is(decorated, syn->sym.decorated_definition) ||
        !gm_decorators_have_plain_property(syn, text, decorated))
        return false;
    if (ts_node_is_null(cls) || !gm_is(cls, syn->sym.class_definition))
        return false;
    gm_slice class_name = gm_node_slice(gm_child(cls, syn->field.name), text);
    gm_slice name = gm_node_slice(gm_child(n, syn->field.name), text);
    if (class_name.len == 0 || name.len == 0 || class_name.len + name.len + 2 > size)
        return false;
    snprintf(key, size, "%.*s.%.*s", (int)class_name.len, class_name.ptr, (int)name.len,
             name.ptr);
    return true;
}

static gm_breaking_property *append(gm_breaking_properties *set, size_t *count) {
    if (*count == set->capacity) {
        size_t capacity = set->capacity ? set->capacity * 2 : 4;
        gm_breaking_property *items = realloc(set->items, capacity * sizeof *items);
        if (!items)
            return NULL;
        set->items = items;
        set->capacity = capacity;
    }
    gm_breaking_property *entry = &set->items[(*count)++];
    memset(entry, 0, sizeof *entry);
    return entry;
}

/* Copies the part of s up to the first stop character (or its end) into out; returns where it
 * stopped, or NULL when it does not fit. */
static const char *field(const char *s, char stop, char *out, size_t cap) {
    size_t n = 0;
    while (s[n] && s[n] != stop)
        n++;
    if (n == 0 || n >= cap)
        return NULL;
    memcpy(out, s, n);
    out[n] = '\0';
    return s + n;
}

/* "property:Local.name:GM202:146:pkg.mod" or "stores:Local.method:pkg.mod" into entry. */
static bool parse_external(const char *fact, gm_breaking_property *entry) {
    char rule[16], row[16];
    if (strncmp(fact, "stores:", 7) == 0) {
        const char *at = field(fact + 7, ':', entry->key, sizeof entry->key);
        if (!at || *at != ':' || !field(at + 1, '\0', entry->module, sizeof entry->module))
            return false;
        entry->stores_tensor = true;
        return true;
    }
    if (strncmp(fact, "property:", 9) != 0)
        return false;
    const char *at = field(fact + 9, ':', entry->key, sizeof entry->key);
    at = at && *at == ':' ? field(at + 1, ':', rule, sizeof rule) : NULL;
    at = at && *at == ':' ? field(at + 1, ':', row, sizeof row) : NULL;
    if (!at || *at != ':' || !field(at + 1, '\0', entry->module, sizeof entry->module))
        return false;
    entry->rule = gm_rule_by_id(rule);
    entry->row = (uint32_t)strtoul(row, NULL, 10);
    return entry->rule != NULL && strchr(entry->key, '.') != NULL;
}

int gm_breaking_properties_collect(gm_breaking_properties *set, const gm_getter_break *breaks,
                                   size_t break_count, const char *const *external,
                                   size_t external_count) {
    uint64_t digest = GM_HASH_INIT;
    size_t count = 0;
    for (size_t i = 0; i < break_count; i++) {
        const char *key = breaks[i].key;
        bool seen = false; /* breaks are in file order: the first one of a getter stays */
        for (size_t j = 0; j < count && !seen; j++)
            seen = strcmp(set->items[j].key, key) == 0;
        if (seen)
            continue;
        gm_breaking_property *entry = append(set, &count);
        if (!entry) {
            gm_breaking_properties_free(set);
            return -1;
        }
        snprintf(entry->key, sizeof entry->key, "%s", key);
        entry->rule = breaks[i].rule;
        entry->row = breaks[i].row;
        digest = gm_hash_bytes(digest, key, strlen(key));
        digest = gm_hash_bytes(digest, entry->rule->id, strlen(entry->rule->id));
        digest = gm_hash_bytes(digest, &entry->row, sizeof entry->row);
    }
    for (size_t i = 0; i < external_count; i++) {
        gm_breaking_property *entry = append(set, &count);
        if (!entry) {
            gm_breaking_properties_free(set);
            return -1;
        }
        if (!parse_external(external[i], entry)) {
            count--; /* a fact this build does not read: nothing is assumed */
            continue;
        }
        digest = gm_hash_bytes(digest, external[i], strlen(external[i]) + 1);
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
        if (!set->items[i].stores_tensor && key_is(set->items[i].key, class_name, property))
            return &set->items[i];
    return NULL;
}

bool gm_breaking_properties_stores(const gm_breaking_properties *set, gm_slice class_name,
                                   gm_slice method) {
    for (size_t i = 0; set && i < set->count; i++)
        if (set->items[i].stores_tensor && key_is(set->items[i].key, class_name, method))
            return true;
    return false;
}

int gm_breaking_properties_add_store(gm_breaking_properties *set, gm_slice class_name,
                                     gm_slice method) {
    if (class_name.len + method.len + 2 > sizeof set->items[0].key ||
        gm_breaking_properties_stores(set, class_name, method))
        return 0;
    size_t count = set->count;
    gm_breaking_property *entry = append(set, &count);
    if (!entry)
        return -1;
    snprintf(entry->key, sizeof entry->key, "%.*s.%.*s", (int)class_name.len, class_name.ptr,
             (int)method.len, method.ptr);
    entry->stores_tensor = true;
    set->count = count;
    return 0;
}

bool gm_breaking_property_fact(const gm_breaking_property *entry, char *out, size_t cap) {
    int n = entry->stores_tensor
                ? snprintf(out, cap, "stores:%s", entry->key)
                : snprintf(out, cap, "property:%s:%s:%u", entry->key,
                           entry->rule ? entry->rule->id : "", entry->row);
    return n > 0 && (size_t)n < cap && (entry->stores_tensor || entry->rule);
}

bool gm_breaking_properties_has_name(const gm_breaking_properties *set, gm_slice property) {
    for (size_t i = 0; set && i < set->count; i++) {
        if (set->items[i].stores_tensor)
            continue;
        const char *dot = strrchr(set->items[i].key, '.');
        if (dot && strlen(dot + 1) == property.len && memcmp(dot + 1, property.ptr, property.len) == 0)
            return true;
    }
    return false;
}
