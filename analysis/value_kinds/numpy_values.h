/* NumPy values in a compiled region. Dynamo traces NumPy arrays and scalars as tensors
 * (torch._numpy), so what needs a tensor's data (`.item()`, `.tolist()`) breaks on them too:
 * a value made by a `numpy.*` call (in the region, in a module-level assignment, or in the
 * class body or __init__ for `self.attr`), and what arithmetic, indexing and most methods
 * make of one. */
#ifndef GM_ANALYSIS_VALUE_KINDS_NUMPY_VALUES_H
#define GM_ANALYSIS_VALUE_KINDS_NUMPY_VALUES_H

#include "analysis/regions/region.h"

/* Whether expr (in the region) is a NumPy array or scalar. */
bool gm_numpy_value(gm_region *region, TSNode expr);

#endif
