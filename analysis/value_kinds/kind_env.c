/* The kind environment of a region: the kinds of its names (latest binding wins), the names
 * assigned a compile-time constant, and the marks that record facts about a name beyond its
 * kind. */
#include "analysis/value_kinds/value_kinds.h"
#include "analysis/value_kinds/value_kinds_internal.h"

#include <stdlib.h>
#include <string.h>

void gm_kind_env_free(gm_kind_env *env) {
    free(env->items);
    env->items = NULL;
    env->count = env->capacity = 0;
}

gm_binding *gm_vk_env_find(const gm_kind_env *env, gm_slice name) {
    for (size_t i = env->count; i-- > 0;) {
        gm_binding *b = &env->items[i];
        if (b->name.len == name.len && memcmp(b->name.ptr, name.ptr, name.len) == 0)
            return b;
    }
    return NULL;
}

/* The truth value name was assigned as a compile-time constant, or -1. */
int gm_vk_constant_of(const gm_region *r, gm_slice name) {
    for (unsigned i = 0; i < r->constant_count; i++)
        if (gm_slice_eq(r->constants[i].name, name))
            return r->constants[i].truth;
    return -1;
}

static void constant_forget(gm_region *r, gm_slice name) {
    for (unsigned i = 0; i < r->constant_count; i++)
        if (gm_slice_eq(r->constants[i].name, name)) {
            r->constants[i] = r->constants[--r->constant_count];
            return;
        }
}

void gm_vk_constant_set(gm_region *r, gm_slice name, int truth) {
    constant_forget(r, name);
    if (r->constant_count < sizeof r->constants / sizeof r->constants[0]) {
        r->constants[r->constant_count].name = name;
        r->constants[r->constant_count].truth = truth;
        r->constant_count++;
    }
}

/* Facts about a name beyond its kind live in the environment too, as entries whose name length
 * carries GM_MARK_BIT (so that no lookup of a real name, here or in the mends, matches them) and
 * whose kind field holds a gm_vk_mark. A name's mark goes when the name is bound again. */
#define GM_MARK_BIT 0x80000000u

static gm_binding *mark_find(const gm_kind_env *env, gm_slice name) {
    uint32_t len = name.len | GM_MARK_BIT;
    for (size_t i = env->count; i-- > 0;) {
        gm_binding *b = &env->items[i];
        if (b->name.len == len && memcmp(b->name.ptr, name.ptr, name.len) == 0)
            return b;
    }
    return NULL;
}

static bool env_grow(gm_region *r) {
    gm_kind_env *env = &r->env;
    if (env->count < env->capacity)
        return true;
    size_t cap = env->capacity ? env->capacity * 2 : 16;
    gm_binding *items = realloc(env->items, cap * sizeof *items);
    if (!items) {
        r->stmt->oom = true;
        return false;
    }
    env->items = items;
    env->capacity = cap;
    return true;
}

gm_vk_mark gm_vk_mark_of(const gm_region *r, gm_slice name) {
    const gm_binding *b = mark_find(&r->env, name);
    return b ? (gm_vk_mark)b->kind : GM_MARK_NONE;
}

void gm_vk_mark_set(gm_region *r, gm_slice name, gm_vk_mark code) {
    if (name.len == 0 || (name.len & GM_MARK_BIT))
        return;
    gm_binding *b = mark_find(&r->env, name);
    if (b) {
        b->kind = (gm_kind)code;
        return;
    }
    if (!env_grow(r))
        return;
    gm_binding *m = &r->env.items[r->env.count++];
    m->name.ptr = name.ptr;
    m->name.len = name.len | GM_MARK_BIT;
    m->kind = (gm_kind)code;
    m->because = GM_BECAUSE_NONE;
    m->evidence_start = m->evidence_end = 0;
}

void gm_vk_env_set(gm_region *r, gm_slice name, gm_kind kind) {
    gm_vk_env_set_because(r, name, kind, GM_BECAUSE_NONE, (TSNode){0});
}

void gm_vk_env_set_because(gm_region *r, gm_slice name, gm_kind kind, gm_tensor_because because,
                           TSNode evidence) {
    gm_binding binding = {name, kind, GM_BECAUSE_NONE, 0, 0};
    if (kind == GM_KIND_TENSOR && because != GM_BECAUSE_NONE &&
        (because == GM_BECAUSE_CALLERS_PASS || because == GM_BECAUSE_MODULES_PASS ||
         !ts_node_is_null(evidence))) {
        binding.because = because;
        if (!ts_node_is_null(evidence)) {
            binding.evidence_start = ts_node_start_byte(evidence);
            binding.evidence_end = ts_node_end_byte(evidence);
        }
    }
    if (r->constant_count)
        constant_forget(r, name);
    /* one pass: the binding, and the name's mark, which the new binding ends */
    gm_binding *b = NULL;
    uint32_t marked = name.len | GM_MARK_BIT;
    gm_kind_env *env = &r->env;
    for (size_t i = env->count; i-- > 0;) {
        gm_binding *e = &env->items[i];
        if (e->name.len == name.len && !b) {
            if (memcmp(e->name.ptr, name.ptr, name.len) == 0)
                b = e;
        } else if (e->name.len == marked && memcmp(e->name.ptr, name.ptr, name.len) == 0) {
            e->kind = (gm_kind)GM_MARK_CLEARED;
        }
    }
    if (b) {
        *b = binding;
        return;
    }
    if (!env_grow(r))
        return;
    env->items[env->count++] = binding;
}

static bool env_copy(gm_region *r, gm_kind_env *dst, const gm_kind_env *src) {
    dst->items = NULL;
    dst->count = dst->capacity = 0;
    if (src->count == 0)
        return true;
    dst->items = malloc(src->count * sizeof *dst->items);
    if (!dst->items) {
        r->stmt->oom = true;
        return false;
    }
    memcpy(dst->items, src->items, src->count * sizeof *dst->items);
    dst->count = dst->capacity = src->count;
    return true;
}

void gm_kinds_branches_begin(gm_region *region, gm_kind_branches *branches) {
    memset(branches, 0, sizeof *branches);
    env_copy(region, &branches->before, &region->env);
}

/* Sets name's entry (a name or a mark: the length carries the mark bit) in env to kind. */
static void env_put(gm_region *r, gm_kind_env *env, gm_binding binding) {
    for (size_t i = env->count; i-- > 0;)
        if (env->items[i].name.len == binding.name.len &&
            memcmp(env->items[i].name.ptr, binding.name.ptr, binding.name.len & ~GM_MARK_BIT) == 0) {
            env->items[i].kind = binding.kind;
            return;
        }
    if (env->count == env->capacity) {
        size_t cap = env->capacity ? env->capacity * 2 : 16;
        gm_binding *items = realloc(env->items, cap * sizeof *items);
        if (!items) {
            r->stmt->oom = true;
            return;
        }
        env->items = items;
        env->capacity = cap;
    }
    env->items[env->count++] = binding;
}

void gm_kinds_branch_next(gm_region *region, gm_kind_branches *branches) {
    gm_kind_env *env = &region->env, *before = &branches->before;
    if (region->stmt->oom)
        return;
    if (!branches->have_after) {
        /* the first branch: what it leaves is the start of the result */
        branches->after = *env;
        branches->have_after = true;
        env_copy(region, env, before);
        return;
    }
    /* entries are appended or updated in place, never removed: a change is an entry past the
     * snapshot's or one whose kind differs from it */
    for (size_t i = 0; i < env->count; i++)
        if (i >= before->count || env->items[i].kind != before->items[i].kind)
            env_put(region, &branches->after, env->items[i]);
    if (env->capacity < before->count) {
        gm_binding *items = realloc(env->items, before->count * sizeof *items);
        if (!items) {
            region->stmt->oom = true;
            return;
        }
        env->items = items;
        env->capacity = before->count;
    }
    if (before->count)
        memcpy(env->items, before->items, before->count * sizeof *env->items);
    env->count = before->count;
}

void gm_kinds_branches_end(gm_region *region, gm_kind_branches *branches) {
    if (branches->have_after) {
        gm_kind_env_free(&region->env);
        region->env = branches->after;
    }
    gm_kind_env_free(&branches->before);
    memset(branches, 0, sizeof *branches);
}
