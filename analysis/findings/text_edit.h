/* Applying byte-offset text edits. */
#ifndef GM_ANALYSIS_FINDINGS_TEXT_EDIT_H
#define GM_ANALYSIS_FINDINGS_TEXT_EDIT_H

#include <stddef.h>

#include "analysis/findings/findings.h"

/* Returns a malloc'ed copy of text with the edits applied (edits sorted by start_byte,
 * non-overlapping, within [0, len]); *out_len receives its length. NULL when the edits overlap,
 * are out of range or memory runs out. */
char *gm_apply_text_edits(const char *text, size_t len, const gm_text_edit *edits, size_t count,
                          size_t *out_len);

/* Collects into *out (malloc'ed, caller frees; *out_count entries, sorted) the edits of the given
 * fixes, skipping any fix whose edits overlap an edit already taken; an edit identical to one
 * already taken (same range, same replacement) is shared, not a conflict, and taken once. Returns 0
 * or -1 on OOM. The edits' replacement strings are borrowed from the fixes. *fixes_taken (when not
 * NULL) receives the number of fixes whose edits were all taken. */
int gm_collect_non_overlapping(const gm_fix *const *fixes, size_t fix_count, gm_text_edit **out,
                               size_t *out_count, size_t *fixes_taken);

#endif
