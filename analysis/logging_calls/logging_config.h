/* The dynamo logging settings a file makes itself: module-level statements
 * `torch._dynamo.config.reorderable_logging_functions.add(f)`, which the [Defer] mend inserts.
 * Dynamo then defers calls of f whose arguments allow it, as under the setting. */
#ifndef GM_ANALYSIS_LOGGING_CALLS_LOGGING_CONFIG_H
#define GM_ANALYSIS_LOGGING_CALLS_LOGGING_CONFIG_H

#include <stdbool.h>

#include "analysis/regions/region.h"

/* Whether a module-level statement of the file adds the function named name (resolved through
 * the imports: "print", "warnings.warn", "logging.info") to reorderable_logging_functions. */
bool gm_file_reorders_logging(const gm_stmt_ctx *st, const char *name);

#endif
