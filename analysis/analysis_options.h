/* What an analysis assumes: the PyTorch version, dynamo settings a user declares, which
 * functions count as compiled, and which rules are reported. */
#ifndef GM_ANALYSIS_ANALYSIS_OPTIONS_H
#define GM_ANALYSIS_ANALYSIS_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>

#include "rule_catalogue.h"

#define GM_MAX_RULE_SELECTORS 32
#define GM_RULE_SELECTOR_SIZE 8 /* "GM12345" and its NUL */

/* Rule ids or prefixes of them, as ruff's select/ignore: "GM4" stands for GM401..GM4xx. */
typedef struct {
    size_t count;
    char items[GM_MAX_RULE_SELECTORS][GM_RULE_SELECTOR_SIZE];
} gm_rule_selectors;

typedef struct {
    bool forward_is_compiled;    /* nn.Module.forward counts as a compiled region (default true) */
    bool training;               /* self.training folds to this (default false: eval) */
    bool report_syntax_errors;   /* emit GM001 for the first syntax error (default true) */
    int torch_version;           /* major*100+minor of the PyTorch assumed (default 213: 2.13) */
    bool capture_scalar_outputs; /* dynamo setting: .item() etc. do not break */
    bool capture_dynamic_output_shape_ops; /* dynamo setting: nonzero() etc. do not break */
    gm_rule_selectors select;              /* rules reported (default "GM": all) */
    gm_rule_selectors ignore;              /* rules dropped even when selected (default none) */
} gm_analysis_options;

void gm_analysis_options_default(gm_analysis_options *options);

/* Whether a finding of rule is reported under options: selected, not ignored, and not
 * switched off by a dynamo setting. The one place rule gating happens. */
bool gm_analysis_rule_enabled(const gm_analysis_options *options, const gm_rule *rule);

/* Replaces *selectors with ids (count of them). Each must be a prefix of some rule id ("GM",
 * "GM4", "GM401"). Returns 0, or -1 with a message naming the bad one in error. */
int gm_rule_selectors_set(gm_rule_selectors *selectors, const char *const *ids, size_t count,
                          char *error, size_t error_size);

/* "2.13" -> 213. Returns 0, or -1 when text is not MAJOR.MINOR. */
int gm_parse_torch_version(const char *text, int *version);

/* Whether two option sets give the same findings (a cached analysis stays valid). */
bool gm_analysis_options_equal(const gm_analysis_options *a, const gm_analysis_options *b);

#endif
