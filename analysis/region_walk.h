/* Walks one compiled region statement by statement: tracks value kinds through assignments,
 * the loop and try/with context, folds compile-time constant branches (code under
 * `if not torch.compiler.is_compiling():` is never traced), and calls the rules at the
 * constructs they look at. Nested function and class bodies are not part of the region. */
#ifndef GM_ANALYSIS_REGION_WALK_H
#define GM_ANALYSIS_REGION_WALK_H

#include "analysis/regions/region.h"

/* Analyses the region at site, adding findings to stmt->out. */
void gm_region_analyze(gm_stmt_ctx *stmt, const gm_region_site *site);

#endif
