#include "rule_catalogue.h"

#include <string.h>

#define GM_GB_URL(n) "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb" n ".html"

/* In id order; gm_rule_by_id relies on nothing but the ids being unique. */
static const gm_rule rules[] = {
    {
        .id = "GM001",
        .name = "syntax-error",
        .registry_id = NULL,
        .gb_type = NULL,
        .url = NULL,
        .summary = "The file does not parse as Python",
        .explanation =
            "The parser could not read part of the file. Graph-break analysis runs on the "
            "parts that parse, so findings near the error may be missing.",
        .hint = "Fix the syntax error; the findings update as you type.",
        .severity = GM_SEVERITY_ERROR,
    },
    {
        .id = "GM101",
        .name = "data-dependent-branch",
        .registry_id = "GB0170",
        .gb_type = "Data-dependent branching",
        .url = GM_GB_URL("0170"),
        .summary = "Branch on a tensor value inside a compiled region",
        .explanation = "Which way an `if`/`while` goes depends on the data in a tensor, which "
                       "TorchDynamo does not know while tracing. It ends the graph before the "
                       "branch, runs the branch in Python and traces what follows as a new graph.",
        .hint = "Express the choice with tensor operations (torch.where(cond, a, b)) or with "
                "torch.cond(pred, true_fn, false_fn, operands); branch on shapes, dtypes or Python "
                "values rather than tensor data.",
        .severity = GM_SEVERITY_WARNING,
    },
    {
        .id = "GM401",
        .name = "print-call",
        .registry_id = "GB0059",
        .gb_type = "Failed to trace builtin operator",
        .url = GM_GB_URL("0059"),
        .summary = "print() inside a compiled region",
        .explanation = "TorchDynamo has no handler for the builtin print, so it ends the graph, "
                       "runs print in Python and traces what follows as a new graph.",
        .hint = "Remove the print, run it only in eager mode under "
                "`if not torch.compiler.is_compiling():`, or add print to "
                "torch._dynamo.config.reorderable_logging_functions (tensor and constant "
                "arguments only).",
        .severity = GM_SEVERITY_WARNING,
    },
};

const gm_rule *gm_rules(size_t *count) {
    *count = sizeof rules / sizeof rules[0];
    return rules;
}

const gm_rule *gm_rule_by_id(const char *id) {
    if (!id)
        return NULL;
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++)
        if (strcmp(rules[i].id, id) == 0)
            return &rules[i];
    return NULL;
}
