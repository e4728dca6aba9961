#include "analysis/options/closest_name.h"

#include <string.h>

/* Longer words are never a typo of a known name: the distance is not worth computing. */
#define GM_CLOSEST_MAX_LEN 64

/* The optimal string alignment distance of a and b (insertions, deletions, substitutions and
 * swaps of neighbours), case-insensitive for ASCII letters. */
static size_t edit_distance(const char *a, size_t n, const char *b, size_t m) {
    size_t rows[3][GM_CLOSEST_MAX_LEN + 1];
    size_t *before = rows[0], *last = rows[1], *row = rows[2];
    for (size_t j = 0; j <= m; j++)
        last[j] = j;
    for (size_t i = 1; i <= n; i++) {
        row[0] = i;
        for (size_t j = 1; j <= m; j++) {
            char x = a[i - 1], y = b[j - 1];
            if (x >= 'A' && x <= 'Z')
                x = (char)(x - 'A' + 'a');
            if (y >= 'A' && y <= 'Z')
                y = (char)(y - 'A' + 'a');
            size_t best = last[j - 1] + (x != y);
            if (last[j] + 1 < best)
                best = last[j] + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
                before[j - 2] + 1 < best)
                best = before[j - 2] + 1;
            row[j] = best;
        }
        size_t *spare = before;
        before = last;
        last = row;
        row = spare;
    }
    return last[m];
}

const char *gm_closest_name(const char *word, const char *const *names, size_t count) {
    size_t n = strlen(word);
    if (n == 0 || n > GM_CLOSEST_MAX_LEN)
        return NULL;
    size_t allowed = n / 3 > 1 ? n / 3 : 1;
    const char *best = NULL;
    size_t best_distance = allowed + 1;
    for (size_t i = 0; i < count && names[i]; i++) {
        size_t m = strlen(names[i]);
        if (m > GM_CLOSEST_MAX_LEN || (m > n ? m - n : n - m) > allowed)
            continue;
        size_t d = edit_distance(word, n, names[i], m);
        if (d < best_distance) {
            best = names[i];
            best_distance = d;
        }
    }
    return best;
}
