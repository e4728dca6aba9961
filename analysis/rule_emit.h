/* Turning a rule's hit into a finding: the consequence dynamo really has (a break in a loop
 * makes the whole function eager; one in try/with falls back), line suppression, and the
 * suppression fix. */
#ifndef GM_ANALYSIS_RULE_EMIT_H
#define GM_ANALYSIS_RULE_EMIT_H

#include "region.h"

/* Adds a finding for rule at node to region's statement output, with message (the construct
 * and what dynamo does) followed by the loop or try/with consequence. Takes ownership of the
 * mend fixes (fixes, count): they go first, the suppression fix last. Does nothing when a
 * `# graphmend: ignore` comment on the node's first line covers the rule. On OOM sets
 * region->stmt->oom. */
void gm_emit_finding(gm_region *region, const gm_rule *rule, TSNode node, const char *message,
                     gm_fix *fixes, size_t count);

#endif
