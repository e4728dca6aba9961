/* The one table that describes every rule: our id, the PyTorch graph-break registry id it
 * corresponds to, its reference page, explanation, hint and default severity. */
#ifndef GM_ANALYSIS_RULES_CATALOGUE_RULE_CATALOGUE_H
#define GM_ANALYSIS_RULES_CATALOGUE_RULE_CATALOGUE_H

#include <stdbool.h>
#include <stddef.h>

typedef enum {
    GM_SEVERITY_ERROR = 1, /* values match LSP DiagnosticSeverity */
    GM_SEVERITY_WARNING = 2,
    GM_SEVERITY_INFORMATION = 3,
    GM_SEVERITY_HINT = 4,
} gm_severity;

typedef struct {
    const char *id;          /* ours, e.g. "GM101" */
    const char *name;        /* kebab-case, e.g. "data-dependent-branch" */
    const char *registry_id; /* PyTorch graph-break registry id, e.g. "GB0170"; NULL for ours */
    const char *gb_type;     /* dynamo's gb_type string */
    const char *url;         /* reference page for registry_id */
    const char *summary;     /* one line */
    const char *explanation; /* why dynamo breaks here */
    const char *hint;        /* what the user can do */
    gm_severity severity;    /* default */
    /* selected only by a selector more specific than "GM" (as ruff's RUF100 is off by default):
     * a rule about the comments rather than about graph breaks */
    bool opt_in;
} gm_rule;

/* All rules, in id order. */
const gm_rule *gm_rules(size_t *count);
/* Rule by id ("GM101"), or NULL. */
const gm_rule *gm_rule_by_id(const char *id);

#endif
