/* Turning a rule's hit into a finding: the consequence dynamo really has (a break in a loop
 * makes the whole function eager; one in try/with falls back; under fullgraph it is an error,
 * with severity error, and scalar and dynamic-shape captures stop breaking), line suppression,
 * the suppression fix, and the finding for a print/logging/warnings call (or none, when the
 * logging settings drop or defer it). */
#ifndef GM_ANALYSIS_RULES_EMIT_H
#define GM_ANALYSIS_RULES_EMIT_H

#include "analysis/logging_calls/logging_outcome.h"
#include "analysis/regions/region.h"

/* Adds a finding for rule at node to region's statement output, with message (the construct
 * and what dynamo does) followed by the loop or try/with consequence. Takes ownership of the
 * mend fixes (fixes, count): they go first, the suppression fix last. With no mend, the
 * finding records region->mend_declined (the reason a mend builder gave); either way that
 * field is cleared, and so is region->only_when_dtypes, which the finding records. Does nothing when a
 * `# graphmend: ignore` comment on the node's first line covers the rule. On OOM sets
 * region->stmt->oom. */
void gm_emit_finding(gm_region *region, const gm_rule *rule, TSNode node, const char *message,
                     gm_fix *fixes, size_t count);

/* gm_emit_finding for a logging call named name (as above): nothing when dynamo drops or
 * defers it, message when it breaks, and a GB0296 message when it cannot be deferred. */
void gm_emit_logging_call(gm_region *region, const gm_rule *rule, TSNode call, const char *name,
                          const char *message, gm_fix *fixes, size_t count);

/* gm_emit_finding with the construct message names first, in backquotes, by its generic name
 * ("`open()` call: ...", "`Tensor.backward()` call: ...") shown as written at node instead
 * ("`open(path, "w")` call: ..."), so that the Problems panel tells findings apart. A message
 * that does not start with a backquoted name is emitted as it is. */
void gm_emit_finding_as_written(gm_region *region, const gm_rule *rule, TSNode node,
                                const char *message, gm_fix *fixes, size_t count);

/* The room a message gives the construct it names as written (gm_node_shown). */
#define GM_SHOWN_SIZE 72

/* " (`x` is a tensor because it is passed to `torch.tanh`)", why the analysis takes operand for
 * a tensor (gm_kinds_tensor_because), for a message to add after the construct it names; "" when
 * no name of operand has a recorded reason. */
void gm_tensor_operand_note(gm_region *region, TSNode operand, char *out, size_t cap);

#endif
