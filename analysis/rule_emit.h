/* Turning a rule's hit into a finding: the consequence dynamo really has (a break in a loop
 * makes the whole function eager; one in try/with falls back; under fullgraph it is an error,
 * with severity error, and scalar and dynamic-shape captures stop breaking), line suppression,
 * the suppression fix, and what the logging settings do to print/logging/warnings calls. */
#ifndef GM_ANALYSIS_RULE_EMIT_H
#define GM_ANALYSIS_RULE_EMIT_H

#include "region.h"

/* Adds a finding for rule at node to region's statement output, with message (the construct
 * and what dynamo does) followed by the loop or try/with consequence. Takes ownership of the
 * mend fixes (fixes, count): they go first, the suppression fix last. With no mend, the
 * finding records region->mend_declined (the reason a mend builder gave); either way that
 * field is cleared. Does nothing when a
 * `# graphmend: ignore` comment on the node's first line covers the rule. On OOM sets
 * region->stmt->oom. */
void gm_emit_finding(gm_region *region, const gm_rule *rule, TSNode node, const char *message,
                     gm_fix *fixes, size_t count);

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

/* gm_emit_finding for a logging call named name (as above): nothing when dynamo drops or
 * defers it, message when it breaks, and a GB0296 message when it cannot be deferred. */
void gm_emit_logging_call(gm_region *region, const gm_rule *rule, TSNode call, const char *name,
                          const char *message, gm_fix *fixes, size_t count);

#endif
