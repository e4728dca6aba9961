/* Facts about boolean masks and the tensors they select from, shared by the mask mends
 * (dynamic_shape.c, masked_rows.c). */
#ifndef GM_ANALYSIS_MENDS_MASK_SHAPE_H
#define GM_ANALYSIS_MENDS_MASK_SHAPE_H

#include <stdbool.h>
#include <tree_sitter/api.h>

#include "analysis/regions/region.h"

/* Whether call calls the torch function canonical ("torch.full"), resolved through the file's
 * imports. */
bool gm_mend_calls(gm_region *region, TSNode call, const char *canonical);

/* Whether the mask m (names bound once in function followed) is a comparison, or `~`, `&`,
 * `|` of such, with src among the compared values: it then has src's shape. */
bool gm_mend_mask_compares(gm_region *region, TSNode function, TSNode m, gm_slice src,
                           int depth);

/* Whether value makes a new tensor of src's shape and dtype: `torch.zeros_like(src)` (ones,
 * empty, full), `src.clone()`, `torch.clone(src)`. */
bool gm_mend_fresh_like(gm_region *region, TSNode value, gm_slice src);

#endif
