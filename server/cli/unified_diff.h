/* Unified diffs of two versions of a file (for `graphmend fix --diff`). */
#ifndef GM_SERVER_CLI_UNIFIED_DIFF_H
#define GM_SERVER_CLI_UNIFIED_DIFF_H

#include <stddef.h>
#include <stdio.h>

/* Prints a unified diff (3 lines of context) of old -> new with "a/path" and "b/path" headers.
 * Prints nothing when the texts are equal. Returns 0, or -1 when out of memory. */
int gm_print_unified_diff(FILE *out, const char *path, const char *old_text, size_t old_len,
                          const char *new_text, size_t new_len);

#endif
