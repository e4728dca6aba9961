/* GM101 data-dependent-branch (GB0170 "Data-dependent branching"): Python control flow whose
 * condition is a tensor. Dynamo cannot know which way it goes while tracing. GM103
 * data-dependent-guard (also GB0170): the same break on `if not <cond>: raise ...`, a validation
 * guard that torch._assert_async can replace. GM104 tensor-not (GB0033 "Data dependent
 * operator"): `not <tensor>` as a value; torch 2.13 cannot resume after it and runs the whole
 * function eagerly. */
#include <stdio.h>

#include "analysis/mends/mends.h"
#include "analysis/rules/emit.h"
#include "analysis/rules/rules.h"

/* A tensor whose truth value torch.compile cannot fold at trace time. */
static bool is_runtime_tensor(gm_value value) {
    return value.kind == GM_KIND_TENSOR && value.constant < 0;
}

void gm_rule_data_dependent_branch(gm_region *region, TSNode condition, gm_value value,
                                   const char *construct) {
    /* `list(t.size()) == [n, m]` with a tensor n breaks at the comparison itself */
    if (value.kind != GM_KIND_TENSOR && gm_rule_sequence_comparison(region, condition))
        return;
    if (!is_runtime_tensor(value))
        return;
    char message[256];
    snprintf(message, sizeof message,
             "`%s` on a tensor value: torch.compile breaks the graph here (data-dependent "
             "branching); the code before and after runs as separate graphs",
             construct);
    gm_fix mends[GM_MENDS_MAX];
    int count = gm_mend_data_dependent_branch(region, condition, mends);
    if (count < 0) {
        region->stmt->oom = true;
        return;
    }
    gm_emit_finding(region, gm_rule_by_id("GM101"), condition, message, mends, (size_t)count);
}

void gm_rule_data_dependent_guard(gm_region *region, TSNode condition, gm_value value) {
    if (!is_runtime_tensor(value))
        return;
    gm_fix mends[GM_MENDS_MAX];
    int count = gm_mend_validation_guard(region, condition, mends);
    if (count < 0) {
        region->stmt->oom = true;
        return;
    }
    gm_emit_finding(region, gm_rule_by_id("GM103"), condition,
                    "validation guard `if not ...: raise` on a tensor value: torch.compile breaks "
                    "the graph here (data-dependent branching); the code before and after runs "
                    "as separate graphs",
                    mends, (size_t)count);
}

void gm_rule_tensor_not(gm_region *region, TSNode not_operator, gm_value operand) {
    if (!is_runtime_tensor(operand))
        return;
    gm_emit_finding(region, gm_rule_by_id("GM104"), not_operator,
                    "`not` on a tensor value: torch.compile needs the tensor's data and breaks "
                    "the graph here; it cannot resume after it, so the whole function runs "
                    "eagerly",
                    NULL, 0);
    gm_region_skip_frame(region, "GM104");
}
