/* Dense expert loops for GM301 (index_routing.c): `k, t = torch.where(E)` whose token indices
 * gather tokens for an expert and add its weighted output back with index_add_, computed on
 * every token with the routing weight as a factor instead. */
#ifndef GM_ANALYSIS_MENDS_INDEX_ROUTING_H
#define GM_ANALYSIS_MENDS_INDEX_ROUTING_H

#include <tree_sitter/api.h>

#include "analysis/findings/findings.h"
#include "analysis/regions/region.h"

/* call is a one-argument torch.where unpacked into (pair, token) indices. Writes at most one
 * fix (unsafe) and returns 1, 0 (with region->mend_declined when the loop is there but cannot
 * be rewritten), or -1 on OOM. */
int gm_mend_index_routing_dense(gm_region *region, TSNode call, gm_fix *out);

#endif
