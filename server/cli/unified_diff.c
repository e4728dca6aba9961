/* Myers' O(ND) line diff, then hunks with three lines of context. */
#include "server/cli/unified_diff.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define CONTEXT 3

typedef struct {
    const char *start;
    size_t len; /* including the terminator */
} line_ref;

typedef struct {
    line_ref *items;
    size_t count;
} line_list;

static int split_lines(const char *text, size_t len, line_list *out) {
    size_t count = 0;
    for (size_t i = 0; i < len; i++) {
        count += text[i] == '\n';
    }
    out->items = malloc((count + 1) * sizeof *out->items);
    if (!out->items) {
        return -1;
    }
    out->count = 0;
    size_t start = 0;
    for (size_t i = 0; i < len; i++) {
        if (text[i] == '\n') {
            out->items[out->count++] = (line_ref){text + start, i + 1 - start};
            start = i + 1;
        }
    }
    if (start < len) {
        out->items[out->count++] = (line_ref){text + start, len - start};
    }
    return 0;
}

static bool same_line(line_ref a, line_ref b) {
    return a.len == b.len && memcmp(a.start, b.start, a.len) == 0;
}

/* op per line of the edit script: ' ' keep, '-' delete (old), '+' insert (new). */
typedef struct {
    char op;
    size_t old_index, new_index;
} edit_op;

/* Computes the shortest edit script; returns the number of ops or -1. */
static long myers(const line_list *a, const line_list *b, edit_op **out) {
    long n = (long)a->count, m = (long)b->count, max = n + m;
    long offset = max + 1;
    size_t width = (size_t)(2 * max + 3);
    /* trace[d] holds V[-d..d] after step d: O(D^2) memory. */
    long *v = calloc(width, sizeof *v);
    long **trace = calloc((size_t)max + 2, sizeof *trace);
    if (!v || !trace) {
        free(v);
        free(trace);
        return -1;
    }
    long found = -1;
    for (long d = 0; d <= max && found < 0; d++) {
        for (long k = -d; k <= d; k += 2) {
            long x;
            if (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1])) {
                x = v[offset + k + 1];
            } else {
                x = v[offset + k - 1] + 1;
            }
            long y = x - k;
            while (x < n && y < m && same_line(a->items[x], b->items[y])) {
                x++;
                y++;
            }
            v[offset + k] = x;
            if (x >= n && y >= m) {
                found = d;
                break;
            }
        }
        trace[d] = malloc((size_t)(2 * d + 1) * sizeof(long));
        if (!trace[d]) {
            found = -2;
            break;
        }
        memcpy(trace[d], v + offset - d, (size_t)(2 * d + 1) * sizeof(long));
    }
    long result = -1;
    edit_op *ops = found >= 0 ? malloc((size_t)(n + m + 1) * sizeof *ops) : NULL;
    if (ops) {
        /* Walk back from (n, m), emitting ops in reverse. */
        long x = n, y = m, count = 0;
        for (long d = found; d >= 0; d--) {
            /* V of step d-1, indexed by k + (d - 1). */
            long *vd = d > 0 ? trace[d - 1] : NULL;
            long base = d - 1;
            long k = x - y;
            long prev_k = 0, prev_x = 0, prev_y = 0;
            if (d > 0) {
                prev_k =
                    (k == -d || (k != d && vd[base + k - 1] < vd[base + k + 1])) ? k + 1 : k - 1;
                prev_x = vd[base + prev_k];
                prev_y = prev_x - prev_k;
            }
            while (x > prev_x && y > prev_y) {
                ops[count++] = (edit_op){' ', (size_t)(x - 1), (size_t)(y - 1)};
                x--;
                y--;
            }
            if (d > 0) {
                if (x == prev_x) {
                    ops[count++] = (edit_op){'+', (size_t)x, (size_t)(y - 1)};
                } else {
                    ops[count++] = (edit_op){'-', (size_t)(x - 1), (size_t)y};
                }
                x = prev_x;
                y = prev_y;
            }
        }
        for (long i = 0; i < count / 2; i++) {
            edit_op t = ops[i];
            ops[i] = ops[count - 1 - i];
            ops[count - 1 - i] = t;
        }
        *out = ops;
        result = count;
    }
    for (long d = 0; d <= max + 1 && d <= (found >= 0 ? found : max); d++) {
        free(trace[d]);
    }
    free(trace);
    free(v);
    return result;
}

static void print_line(FILE *out, char op, line_ref line) {
    fputc(op, out);
    fwrite(line.start, 1, line.len, out);
    if (line.len == 0 || line.start[line.len - 1] != '\n') {
        fputs("\n\\ No newline at end of file\n", out);
    }
}

int gm_print_unified_diff(FILE *out, const char *path, const char *old_text, size_t old_len,
                          const char *new_text, size_t new_len) {
    if (old_len == new_len && memcmp(old_text, new_text, old_len) == 0) {
        return 0;
    }
    line_list a = {0}, b = {0};
    edit_op *ops = NULL;
    long count = -1;
    if (split_lines(old_text, old_len, &a) == 0 && split_lines(new_text, new_len, &b) == 0) {
        count = myers(&a, &b, &ops);
    }
    if (count < 0) {
        free(a.items);
        free(b.items);
        return -1;
    }
    fprintf(out, "--- a/%s\n+++ b/%s\n", path, path);
    long i = 0;
    while (i < count) {
        while (i < count && ops[i].op == ' ') {
            i++;
        }
        if (i >= count) {
            break;
        }
        /* A hunk: from CONTEXT keeps before the first change to CONTEXT keeps after the last
         * change that is separated from the next by at most 2*CONTEXT keeps. */
        long first = i - CONTEXT < 0 ? 0 : i - CONTEXT;
        while (first < i && ops[first].op != ' ') {
            first++;
        }
        long last = i;
        for (long j = i; j < count; j++) {
            if (ops[j].op != ' ') {
                last = j;
            } else if (j - last > 2 * CONTEXT) {
                break;
            }
        }
        long end = last + CONTEXT + 1 > count ? count : last + CONTEXT + 1;
        size_t old_start = 0, new_start = 0, old_lines = 0, new_lines = 0;
        bool have_old = false, have_new = false;
        for (long j = first; j < end; j++) {
            if (ops[j].op != '+') {
                if (!have_old) {
                    old_start = ops[j].old_index;
                    have_old = true;
                }
                old_lines++;
            }
            if (ops[j].op != '-') {
                if (!have_new) {
                    new_start = ops[j].new_index;
                    have_new = true;
                }
                new_lines++;
            }
        }
        if (!have_old) {
            old_start = ops[first].old_index;
        }
        if (!have_new) {
            new_start = ops[first].new_index;
        }
        /* Unified diff numbers a zero-length range by the line before it. */
        fprintf(out, "@@ -%zu,%zu +%zu,%zu @@\n", old_lines ? old_start + 1 : old_start, old_lines,
                new_lines ? new_start + 1 : new_start, new_lines);
        for (long j = first; j < end; j++) {
            line_ref line =
                ops[j].op == '+' ? b.items[ops[j].new_index] : a.items[ops[j].old_index];
            print_line(out, ops[j].op, line);
        }
        i = end;
    }
    free(ops);
    free(a.items);
    free(b.items);
    return 0;
}
