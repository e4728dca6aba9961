/* GM101 data-dependent-branch (GB0170 "Data-dependent branching"): Python control flow whose
 * condition is a tensor. Dynamo cannot know which way it goes while tracing. */
#include <stdio.h>

#include "rule_emit.h"
#include "rules.h"

void gm_rule_data_dependent_branch(gm_region *region, TSNode condition, gm_value value,
                                   const char *construct) {
    if (value.kind != GM_KIND_TENSOR || value.constant >= 0)
        return;
    char message[256];
    snprintf(message, sizeof message,
             "`%s` on a tensor value: torch.compile breaks the graph here (data-dependent "
             "branching); the code before and after runs as separate graphs",
             construct);
    gm_emit_finding(region, gm_rule_by_id("GM101"), condition, message, NULL, 0);
}
