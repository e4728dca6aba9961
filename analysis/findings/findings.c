#include "analysis/findings/findings.h"

#include <stdlib.h>
#include <string.h>

const char *gm_applicability_name(gm_applicability applicability) {
    switch (applicability) {
    case GM_FIX_SAFE:
        return "safe";
    case GM_FIX_UNSAFE:
        return "unsafe";
    case GM_FIX_DISPLAY_ONLY:
        return "display-only";
    }
    return "unknown";
}

void gm_finding_list_init(gm_finding_list *list) {
    list->items = NULL;
    list->count = 0;
    list->capacity = 0;
}

void gm_finding_list_free(gm_finding_list *list) {
    for (size_t i = 0; i < list->count; i++)
        gm_finding_free(&list->items[i]);
    free(list->items);
    gm_finding_list_init(list);
}

size_t gm_finding_list_unsuppressed(const gm_finding_list *list) {
    size_t n = 0;
    for (size_t i = 0; i < list->count; i++)
        n += !list->items[i].suppressed;
    return n;
}

int gm_finding_list_push(gm_finding_list *list, gm_finding *finding) {
    if (list->count == list->capacity) {
        size_t capacity = list->capacity ? list->capacity * 2 : 8;
        gm_finding *items = realloc(list->items, capacity * sizeof *items);
        if (!items)
            return -1;
        list->items = items;
        list->capacity = capacity;
    }
    /* Keep the list sorted by start byte; findings normally arrive in order, so this is O(1). */
    size_t at = list->count;
    while (at > 0 && list->items[at - 1].span.start_byte > finding->span.start_byte)
        at--;
    memmove(&list->items[at + 1], &list->items[at], (list->count - at) * sizeof *list->items);
    list->items[at] = *finding;
    list->count++;
    return 0;
}

bool gm_fix_auto_applies(const gm_fix *fix, bool unsafe) {
    return fix->kind == GM_FIX_KIND_MEND &&
           (fix->applicability == GM_FIX_SAFE || (unsafe && fix->applicability == GM_FIX_UNSAFE));
}

void gm_fix_free(gm_fix *fix) {
    free(fix->title);
    free(fix->label);
    for (size_t i = 0; i < fix->edit_count; i++)
        free(fix->edits[i].replacement);
    free(fix->edits);
}

void gm_finding_free(gm_finding *finding) {
    free(finding->message);
    free(finding->mend_declined);
    free(finding->only_when_dtypes);
    free(finding->only_when_condition);
    for (size_t i = 0; i < finding->fix_count; i++)
        gm_fix_free(&finding->fixes[i]);
    free(finding->fixes);
    memset(finding, 0, sizeof *finding);
}

gm_severity gm_finding_severity(const gm_finding *finding) {
    return finding->severity ? finding->severity : finding->rule->severity;
}

static uint32_t shift_u32(uint32_t value, int64_t delta) {
    return (uint32_t)((int64_t)value + delta);
}

static char *dup_or_null(const char *s, int *failed) {
    if (!s)
        return NULL;
    char *copy = strdup(s);
    if (!copy)
        *failed = 1;
    return copy;
}

int gm_finding_copy_shifted(const gm_finding *src, gm_finding *dst, int64_t byte_delta,
                            int64_t row_delta) {
    int failed = 0;
    memset(dst, 0, sizeof *dst);
    dst->rule = src->rule;
    dst->span = src->span;
    dst->span.start_byte = shift_u32(src->span.start_byte, byte_delta);
    dst->span.end_byte = shift_u32(src->span.end_byte, byte_delta);
    dst->span.start.row = shift_u32(src->span.start.row, row_delta);
    dst->span.end.row = shift_u32(src->span.end.row, row_delta);
    dst->message = dup_or_null(src->message, &failed);
    dst->mend_declined = dup_or_null(src->mend_declined, &failed);
    dst->only_when_dtypes = dup_or_null(src->only_when_dtypes, &failed);
    dst->only_when_condition = dup_or_null(src->only_when_condition, &failed);
    dst->severity = src->severity;
    dst->suppressed = src->suppressed;
    if (src->fix_count) {
        dst->fixes = calloc(src->fix_count, sizeof *dst->fixes);
        if (!dst->fixes) {
            gm_finding_free(dst);
            return -1;
        }
        dst->fix_count = src->fix_count;
    }
    for (size_t i = 0; i < src->fix_count && !failed; i++) {
        const gm_fix *sf = &src->fixes[i];
        gm_fix *df = &dst->fixes[i];
        df->kind = sf->kind;
        df->applicability = sf->applicability;
        df->title = dup_or_null(sf->title, &failed);
        df->label = dup_or_null(sf->label, &failed);
        if (sf->edit_count) {
            df->edits = calloc(sf->edit_count, sizeof *df->edits);
            if (!df->edits) {
                failed = 1;
                break;
            }
            df->edit_count = sf->edit_count;
        }
        for (size_t j = 0; j < sf->edit_count && !failed; j++) {
            df->edits[j].start_byte = shift_u32(sf->edits[j].start_byte, byte_delta);
            df->edits[j].end_byte = shift_u32(sf->edits[j].end_byte, byte_delta);
            df->edits[j].replacement = dup_or_null(sf->edits[j].replacement, &failed);
            df->edits[j].after_imports = sf->edits[j].after_imports;
        }
    }
    if (failed) {
        gm_finding_free(dst);
        return -1;
    }
    return 0;
}

void gm_finding_shift(gm_finding *finding, int64_t byte_delta, int64_t row_delta) {
    finding->span.start_byte = shift_u32(finding->span.start_byte, byte_delta);
    finding->span.end_byte = shift_u32(finding->span.end_byte, byte_delta);
    finding->span.start.row = shift_u32(finding->span.start.row, row_delta);
    finding->span.end.row = shift_u32(finding->span.end.row, row_delta);
    for (size_t i = 0; i < finding->fix_count; i++) {
        gm_fix *fix = &finding->fixes[i];
        for (size_t j = 0; j < fix->edit_count; j++) {
            fix->edits[j].start_byte = shift_u32(fix->edits[j].start_byte, byte_delta);
            fix->edits[j].end_byte = shift_u32(fix->edits[j].end_byte, byte_delta);
        }
    }
}
