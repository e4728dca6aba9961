/* Dense masked computation for GM301 (masked_rows.c): rows a boolean mask gathers, passed
 * through functions and written back under the same mask, computed on every row instead and
 * selected with torch.where. */
#ifndef GM_ANALYSIS_MENDS_MASKED_ROWS_H
#define GM_ANALYSIS_MENDS_MASKED_ROWS_H

#include <tree_sitter/api.h>

#include "analysis/findings/findings.h"
#include "analysis/regions/region.h"

/* subscript is a boolean-mask read `x[m]` (`x[m, :]`) or the store `y[m] = ...` / `y[m] += ...`
 * of such a routing. Writes at most one fix (unsafe) and returns 1, 0 (with
 * region->mend_declined when the routing is there but cannot be rewritten), or -1 on OOM. */
int gm_mend_masked_rows_dense(gm_region *region, TSNode subscript, gm_fix *out);

#endif
