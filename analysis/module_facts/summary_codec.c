#include "analysis/module_facts/summary_codec.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

void gm_byte_buffer_free(gm_byte_buffer *buffer) {
    free(buffer->data);
    memset(buffer, 0, sizeof *buffer);
}

int gm_byte_buffer_append(gm_byte_buffer *buffer, const void *data, size_t len) {
    if (len > SIZE_MAX / 2 - buffer->len)
        return -1;
    if (buffer->len + len > buffer->cap) {
        size_t cap = buffer->cap ? buffer->cap : 256;
        while (cap < buffer->len + len)
            cap *= 2;
        uint8_t *grown = realloc(buffer->data, cap);
        if (!grown)
            return -1;
        buffer->data = grown;
        buffer->cap = cap;
    }
    if (len)
        memcpy(buffer->data + buffer->len, data, len);
    buffer->len += len;
    return 0;
}

/* ---- encoding: integers little-endian whatever the machine, strings length-prefixed ---- */

typedef struct {
    gm_byte_buffer *out;
    bool failed;
} writer;

static void put_bytes(writer *w, const void *data, size_t len) {
    if (!w->failed && gm_byte_buffer_append(w->out, data, len) != 0)
        w->failed = true;
}

static void put_u8(writer *w, unsigned value) {
    uint8_t byte = (uint8_t)value;
    put_bytes(w, &byte, 1);
}

static void put_u32(writer *w, uint64_t value) {
    if (value > UINT32_MAX) {
        w->failed = true;
        return;
    }
    uint8_t bytes[4];
    for (int i = 0; i < 4; i++)
        bytes[i] = (uint8_t)(value >> (8 * i));
    put_bytes(w, bytes, sizeof bytes);
}

static void put_u64(writer *w, uint64_t value) {
    uint8_t bytes[8];
    for (int i = 0; i < 8; i++)
        bytes[i] = (uint8_t)(value >> (8 * i));
    put_bytes(w, bytes, sizeof bytes);
}

/* A string, or NULL (which only the members of compile targets may be): length + 1, 0 for NULL. */
static void put_string(writer *w, const char *text) {
    if (!text) {
        put_u32(w, 0);
        return;
    }
    size_t len = strlen(text);
    put_u32(w, (uint64_t)len + 1);
    put_bytes(w, text, len);
}

static void put_strings(writer *w, char *const *items, size_t count) {
    put_u32(w, count);
    for (size_t i = 0; i < count; i++)
        put_string(w, items[i]);
}

int gm_summary_encode(const gm_module_summary *s, gm_byte_buffer *out) {
    writer w = {out, false};
    put_u64(&w, s->digest);
    put_u8(&w, s->forward_is_compiled);
    put_u32(&w, s->node_count);
    for (size_t i = 0; i < s->node_count; i++) {
        const gm_summary_node *n = &s->nodes[i];
        put_string(&w, n->key);
        put_u8(&w, (unsigned)n->root | (unsigned)n->traceable << 1);
        put_u8(&w, (uint8_t)n->returns_constant);
        put_u8(&w, n->returns.arity);
        put_u8(&w, n->returns.tensors);
        put_u32(&w, n->callee_start);
        put_u32(&w, n->callee_count);
        put_u32(&w, n->external_start);
        put_u32(&w, n->external_count);
    }
    put_strings(&w, s->callees, s->callee_count);
    put_strings(&w, s->externals, s->external_count);
    put_strings(&w, s->target_names, s->target_count);
    for (size_t i = 0; i < s->target_count; i++)
        put_string(&w, s->target_members[i]);
    put_u32(&w, s->import_count);
    for (size_t i = 0; i < s->import_count; i++) {
        put_string(&w, s->imports[i].local);
        put_string(&w, s->imports[i].canonical);
        put_u8(&w, s->imports[i].type_only);
    }
    put_u32(&w, s->class_count);
    for (size_t i = 0; i < s->class_count; i++) {
        put_string(&w, s->classes[i].name);
        put_u8(&w, s->classes[i].is_module);
        put_strings(&w, s->classes[i].bases, s->classes[i].base_count);
    }
    put_strings(&w, s->property_facts, s->property_fact_count);
    return w.failed ? -1 : 0;
}

/* ---- decoding: every read checked against the end ---- */

typedef struct {
    const uint8_t *at, *end;
    bool failed; /* malformed or out of memory: everything after reads as zero */
} reader;

static const uint8_t *take(reader *r, size_t len) {
    if (r->failed || (size_t)(r->end - r->at) < len) {
        r->failed = true;
        return NULL;
    }
    const uint8_t *p = r->at;
    r->at += len;
    return p;
}

static unsigned get_u8(reader *r) {
    const uint8_t *p = take(r, 1);
    return p ? *p : 0;
}

static uint32_t get_u32(reader *r) {
    const uint8_t *p = take(r, 4);
    uint32_t value = 0;
    for (int i = 0; p && i < 4; i++)
        value |= (uint32_t)p[i] << (8 * i);
    return value;
}

static uint64_t get_u64(reader *r) {
    const uint8_t *p = take(r, 8);
    uint64_t value = 0;
    for (int i = 0; p && i < 8; i++)
        value |= (uint64_t)p[i] << (8 * i);
    return value;
}

/* A count of items each at least min_bytes long: one the remaining bytes cannot hold is
 * malformed, which also bounds what a corrupted count makes us allocate. */
static size_t get_count(reader *r, size_t min_bytes) {
    uint32_t count = get_u32(r);
    if (!r->failed && (size_t)(r->end - r->at) / min_bytes < count)
        r->failed = true;
    return r->failed ? 0 : count;
}

/* A string (malloc'ed), or NULL: a NULL in the encoding when nullable, else malformed. */
static char *get_string(reader *r, bool nullable) {
    uint32_t len = get_u32(r);
    if (r->failed)
        return NULL;
    if (len == 0) {
        r->failed |= !nullable;
        return NULL;
    }
    const uint8_t *p = take(r, len - 1);
    if (!p)
        return NULL;
    if (memchr(p, '\0', len - 1)) { /* a name never holds one */
        r->failed = true;
        return NULL;
    }
    char *text = malloc(len);
    if (!text) {
        r->failed = true;
        return NULL;
    }
    memcpy(text, p, len - 1);
    text[len - 1] = '\0';
    return text;
}

static void *get_array(reader *r, size_t count, size_t size) {
    if (r->failed || count == 0)
        return NULL;
    void *items = calloc(count, size);
    r->failed |= !items;
    return items;
}

static char **get_strings(reader *r, size_t *count) {
    *count = get_count(r, 4);
    char **items = get_array(r, *count, sizeof *items);
    if (!items)
        *count = 0;
    for (size_t i = 0; i < *count; i++)
        items[i] = get_string(r, false);
    return items;
}

/* The node ranges index callees and externals: each range must lie inside its array. */
static bool ranges_fit(const gm_module_summary *s) {
    for (size_t i = 0; i < s->node_count; i++) {
        const gm_summary_node *n = &s->nodes[i];
        if ((uint64_t)n->callee_start + n->callee_count > s->callee_count ||
            (uint64_t)n->external_start + n->external_count > s->external_count)
            return false;
    }
    return true;
}

int gm_summary_decode(const uint8_t *data, size_t len, gm_module_summary *s) {
    memset(s, 0, sizeof *s);
    reader r = {data, data + len, false};
    s->digest = get_u64(&r);
    s->forward_is_compiled = get_u8(&r) != 0;
    s->node_count = get_count(&r, 4 + 4 + 16);
    s->nodes = get_array(&r, s->node_count, sizeof *s->nodes);
    if (!s->nodes)
        s->node_count = 0;
    for (size_t i = 0; i < s->node_count; i++) {
        gm_summary_node *n = &s->nodes[i];
        n->key = get_string(&r, false);
        unsigned flags = get_u8(&r);
        n->root = flags & 1;
        n->traceable = (flags >> 1) & 1;
        n->returns_constant = (int8_t)get_u8(&r);
        n->returns.arity = (uint8_t)get_u8(&r);
        n->returns.tensors = (uint8_t)get_u8(&r);
        n->callee_start = get_u32(&r);
        n->callee_count = get_u32(&r);
        n->external_start = get_u32(&r);
        n->external_count = get_u32(&r);
    }
    s->callees = get_strings(&r, &s->callee_count);
    s->externals = get_strings(&r, &s->external_count);
    s->target_names = get_strings(&r, &s->target_count);
    s->target_members = get_array(&r, s->target_count, sizeof *s->target_members);
    if (!s->target_members) { /* the free walks both arrays by target_count */
        for (size_t i = 0; i < s->target_count; i++)
            free(s->target_names[i]);
        free(s->target_names);
        s->target_names = NULL;
        s->target_count = 0;
    }
    for (size_t i = 0; i < s->target_count; i++)
        s->target_members[i] = get_string(&r, true);
    s->import_count = get_count(&r, 4 + 4 + 1);
    s->imports = get_array(&r, s->import_count, sizeof *s->imports);
    if (!s->imports)
        s->import_count = 0;
    for (size_t i = 0; i < s->import_count; i++) {
        s->imports[i].local = get_string(&r, false);
        s->imports[i].canonical = get_string(&r, false);
        s->imports[i].type_only = get_u8(&r) != 0;
    }
    s->class_count = get_count(&r, 4 + 1 + 4);
    s->classes = get_array(&r, s->class_count, sizeof *s->classes);
    if (!s->classes)
        s->class_count = 0;
    for (size_t i = 0; i < s->class_count; i++) {
        s->classes[i].name = get_string(&r, false);
        s->classes[i].is_module = get_u8(&r) != 0;
        s->classes[i].bases = get_strings(&r, &s->classes[i].base_count);
    }
    s->property_facts = get_strings(&r, &s->property_fact_count);
    if (r.failed || r.at != r.end || !ranges_fit(s)) {
        gm_module_summary_free(s);
        return -1;
    }
    return 0;
}
