#include "analysis/findings/text_edit.h"

#include <stdlib.h>
#include <string.h>

char *gm_apply_text_edits(const char *text, size_t len, const gm_text_edit *edits, size_t count,
                          size_t *out_len) {
    size_t total = len;
    size_t prev_end = 0;
    for (size_t i = 0; i < count; i++) {
        const gm_text_edit *e = &edits[i];
        if (e->start_byte > e->end_byte || e->end_byte > len || e->start_byte < prev_end)
            return NULL;
        size_t rlen = e->replacement ? strlen(e->replacement) : 0;
        total = total - (e->end_byte - e->start_byte) + rlen;
        prev_end = e->end_byte;
    }
    char *out = malloc(total + 1);
    if (!out)
        return NULL;
    size_t at = 0, from = 0;
    for (size_t i = 0; i < count; i++) {
        const gm_text_edit *e = &edits[i];
        memcpy(out + at, text + from, e->start_byte - from);
        at += e->start_byte - from;
        size_t rlen = e->replacement ? strlen(e->replacement) : 0;
        if (rlen)
            memcpy(out + at, e->replacement, rlen);
        at += rlen;
        from = e->end_byte;
    }
    memcpy(out + at, text + from, len - from);
    at += len - from;
    out[at] = '\0';
    if (out_len)
        *out_len = at;
    return out;
}

/* Two edits conflict when their ranges share a byte, or when an insertion (empty range) lies
 * inside or at either end of the other: applying both would depend on their order. */
static int edits_conflict(const gm_text_edit *a, const gm_text_edit *b) {
    if (a->start_byte < b->end_byte && b->start_byte < a->end_byte)
        return 1;
    if (a->start_byte == a->end_byte && b->start_byte <= a->start_byte &&
        a->start_byte <= b->end_byte)
        return 1;
    if (b->start_byte == b->end_byte && a->start_byte <= b->start_byte &&
        b->start_byte <= a->end_byte)
        return 1;
    return 0;
}

/* The same edit: the same range and the same replacement. Fixes may share such an edit (every
 * deferred-logging mend of a file inserts the same setting line at the same place): applied
 * once, it serves them all. */
static int same_edit(const gm_text_edit *a, const gm_text_edit *b) {
    return a->start_byte == b->start_byte && a->end_byte == b->end_byte &&
           strcmp(a->replacement ? a->replacement : "", b->replacement ? b->replacement : "") == 0;
}

static int already_taken(const gm_text_edit *edit, const gm_text_edit *taken, size_t n) {
    for (size_t k = 0; k < n; k++)
        if (same_edit(edit, &taken[k]))
            return 1;
    return 0;
}

static int edit_order(const void *pa, const void *pb) {
    const gm_text_edit *a = pa, *b = pb;
    if (a->start_byte != b->start_byte)
        return a->start_byte < b->start_byte ? -1 : 1;
    if (a->end_byte != b->end_byte)
        return a->end_byte < b->end_byte ? -1 : 1;
    return 0;
}

int gm_collect_non_overlapping(const gm_fix *const *fixes, size_t fix_count, gm_text_edit **out,
                               size_t *out_count, size_t *fixes_taken) {
    size_t total = 0, accepted = 0;
    if (fixes_taken)
        *fixes_taken = 0;
    for (size_t i = 0; i < fix_count; i++)
        total += fixes[i]->edit_count;
    *out = NULL;
    *out_count = 0;
    if (total == 0)
        return 0;
    gm_text_edit *taken = malloc(total * sizeof *taken);
    if (!taken)
        return -1;
    size_t n = 0;
    for (size_t i = 0; i < fix_count; i++) {
        const gm_fix *fix = fixes[i];
        int ok = 1;
        /* A fix whose own edits conflict with each other is malformed: skip it too. */
        for (size_t j = 0; j < fix->edit_count && ok; j++) {
            for (size_t k = 0; k < n && ok; k++)
                if (!same_edit(&fix->edits[j], &taken[k]) &&
                    edits_conflict(&fix->edits[j], &taken[k]))
                    ok = 0;
            for (size_t k = 0; k < j && ok; k++)
                if (edits_conflict(&fix->edits[j], &fix->edits[k]))
                    ok = 0;
        }
        if (!ok)
            continue;
        size_t before = n;
        for (size_t j = 0; j < fix->edit_count; j++)
            if (!already_taken(&fix->edits[j], taken, before))
                taken[n++] = fix->edits[j];
        accepted++;
    }
    if (fixes_taken)
        *fixes_taken = accepted;
    qsort(taken, n, sizeof *taken, edit_order);
    if (n == 0) {
        free(taken);
        taken = NULL;
    }
    *out = taken;
    *out_count = n;
    return 0;
}
