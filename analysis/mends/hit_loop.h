/* A loop over the indices nonzero() finds, for GM301 (hit_loop.c): every index visited
 * instead, as the dense expert loops need. */
#ifndef GM_ANALYSIS_MENDS_HIT_LOOP_H
#define GM_ANALYSIS_MENDS_HIT_LOOP_H

#include <tree_sitter/api.h>

#include "analysis/findings/findings.h"
#include "analysis/regions/region.h"

/* call is `<mask>.nonzero()` bound to a name whose one use is `for e in <name>:` starting with
 * `e = e[0]`. Writes at most one fix (unsafe) and returns 1, 0 (with region->mend_declined when
 * the loop is there but cannot be rewritten), or -1 on OOM. */
int gm_mend_hit_loop(gm_region *region, TSNode call, gm_fix *out);

/* condition, a test a data-dependent if makes, reads the index of such a loop (`if e ==
 * self.num_experts: continue`): the same mend, after which the index is a Python int. */
int gm_mend_hit_loop_of_test(gm_region *region, TSNode condition, gm_fix *out);

#endif
