/* "Did you mean": the known name nearest to a word someone typed (a command, an option, a
 * configuration key, a rule id), by edit distance with transpositions. */
#ifndef GM_ANALYSIS_OPTIONS_CLOSEST_NAME_H
#define GM_ANALYSIS_OPTIONS_CLOSEST_NAME_H

#include <stddef.h>

/* The name of names[0..count) nearest to word, or NULL when none is near enough to be what was
 * meant: at most a third of the word's length away, one edit at least ("GM410" for "GM401": a
 * swap of neighbours is one); letters compare case-insensitively.
 * Ask for words that are not known names. A NULL entry ends names early. */
const char *gm_closest_name(const char *word, const char *const *names, size_t count);

#endif
