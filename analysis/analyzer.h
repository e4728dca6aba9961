/* Python source -> findings. The analyzer keeps results per top-level statement so that after an
 * edit only the statements the edit touched are analysed again (unless something file-wide, such
 * as the imports, changed). */
#ifndef GM_ANALYSIS_ANALYZER_H
#define GM_ANALYSIS_ANALYZER_H

#include <stdbool.h>
#include <stddef.h>
#include <tree_sitter/api.h>

#include "findings.h"

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

typedef struct gm_analyzer gm_analyzer;

gm_analyzer *gm_analyzer_new(void); /* caller frees with gm_analyzer_free */
void gm_analyzer_free(gm_analyzer *analyzer);

/* Tells the analyzer about an edit applied to the text (the same TSInputEdit given to
 * ts_tree_edit), so cached results can be shifted or dropped. Every change of the text between
 * two runs must be noted (or gm_analyzer_reset called). The list of the last run stays as it
 * was until the next run. */
void gm_analyzer_note_edit(gm_analyzer *analyzer, const TSInputEdit *edit);

/* Forgets every cached result, so that the next run analyses everything: for a change of the
 * text that was not described with gm_analyzer_note_edit (a whole-document replacement). */
void gm_analyzer_reset(gm_analyzer *analyzer);

/* Analyses the tree of text. The list is owned by the analyzer and stays valid until the next
 * gm_analyzer_run or gm_analyzer_free. */
const gm_finding_list *gm_analyzer_run(gm_analyzer *analyzer, const TSTree *tree, const char *text,
                                       size_t len, const gm_analysis_options *options);

/* What the last gm_analyzer_run did: top-level statements it saw, and how many of them it took
 * from the cache instead of analysing them again. */
typedef struct {
    size_t statements;
    size_t reused;
    bool recomputed_all; /* the fingerprint or the options changed (or there was no cache) */
} gm_analyzer_stats;

void gm_analyzer_last_stats(const gm_analyzer *analyzer, gm_analyzer_stats *stats);

/* One-shot: parse and analyse text into list (caller frees list). Returns 0, or -1 when the
 * parser could not be created or timed out. */
int gm_analyze_source(const char *text, size_t len, const gm_analysis_options *options,
                      gm_finding_list *list);

#endif
