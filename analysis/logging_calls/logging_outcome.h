/* What dynamo does with a print, logging or warnings call in a compiled region, under the
 * analysis options and the file's own logging settings: break, drop or defer it. */
#ifndef GM_ANALYSIS_LOGGING_CALLS_LOGGING_OUTCOME_H
#define GM_ANALYSIS_LOGGING_CALLS_LOGGING_OUTCOME_H

#include <stdbool.h>

#include "analysis/regions/region.h"

/* What dynamo does with a call of a logging function (print, warnings.warn, logging.info, or a
 * Logger method, named "logging.Logger.info") under the settings: break on it, drop it
 * (ignore_logging_functions), defer it to after the graph (reorderable_logging_functions, set
 * or added to by the file itself, or warnings.warn with constant arguments on torch >= 2.14),
 * or fail to defer it because an
 * argument is not a tensor, constant or format string (GB0296). */
typedef enum {
    GM_LOG_BREAKS,
    GM_LOG_DROPPED,
    GM_LOG_DEFERRED,
    GM_LOG_NOT_DEFERRABLE,
} gm_log_outcome;

gm_log_outcome gm_logging_call_outcome(gm_region *region, TSNode call, const char *name);

/* Whether every argument of the logging call is one dynamo can defer (a tensor, a constant or a
 * format string), so that reorderable_logging_functions would move it after the graph. */
bool gm_logging_arguments_deferrable(gm_region *region, TSNode call);

#endif
