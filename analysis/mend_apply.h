/* Applies graphmend's own mends to a source text: what `graphmend fix` writes and what the mended
 * arm of `graphmend profile` runs. */
#ifndef GM_ANALYSIS_MEND_APPLY_H
#define GM_ANALYSIS_MEND_APPLY_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/options/analysis_options.h"

/* Applies the safe mends (and the unsafe ones when unsafe is set) to text, pass after pass until
 * none applies, so that mends that overlapped in one pass are taken in the next. roots are the
 * functions that compiled code of other files calls (may be NULL with root_count 0). Returns the
 * new text (malloc'ed, NUL-terminated, *out_len bytes; the caller frees it), or NULL on OOM.
 * *applied is increased by the number of mends applied. */
char *gm_mend_text(const char *text, size_t len, bool unsafe, const gm_analysis_options *options,
                   const char *const *roots, size_t root_count, size_t *out_len, size_t *applied);

#endif
