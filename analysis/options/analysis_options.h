/* What an analysis assumes: the PyTorch version, dynamo settings a user declares, which
 * functions count as compiled, and which rules are reported. */
#ifndef GM_ANALYSIS_OPTIONS_ANALYSIS_OPTIONS_H
#define GM_ANALYSIS_OPTIONS_ANALYSIS_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/rules/catalogue/rule_catalogue.h"

#define GM_MAX_RULE_SELECTORS 32
#define GM_RULE_SELECTOR_SIZE 8 /* "GM12345" and its NUL */
#define GM_MAX_FUNCTION_NAMES 16
#define GM_FUNCTION_NAME_SIZE 64

/* The oldest and newest PyTorch a torch_version setting may name (major*100+minor). */
#define GM_TORCH_VERSION_MIN 200
#define GM_TORCH_VERSION_MAX 220
/* The oldest and newest Python a python_version setting may name (major*100+minor): the
 * Pythons dynamo supports. */
#define GM_PYTHON_VERSION_MIN 309
#define GM_PYTHON_VERSION_MAX 315

/* Rule ids or prefixes of them, as ruff's select/ignore: "GM4" stands for GM401..GM4xx. */
typedef struct {
    size_t count;
    char items[GM_MAX_RULE_SELECTORS][GM_RULE_SELECTOR_SIZE];
} gm_rule_selectors;

/* Dotted names of Python functions, as a user writes them for a dynamo setting: "print",
 * "warnings.warn", "logging.info", "logging.Logger.info". */
typedef struct {
    size_t count;
    char items[GM_MAX_FUNCTION_NAMES][GM_FUNCTION_NAME_SIZE];
} gm_function_names;

/* nested_graph_breaks as the user gave it, or unset: then it follows torch_version. */
typedef enum {
    GM_NESTED_DEFAULT,
    GM_NESTED_OFF,
    GM_NESTED_ON,
} gm_nested_setting;

typedef struct {
    bool forward_is_compiled;    /* nn.Module.forward counts as a compiled region (default true) */
    bool training;               /* self.training folds to this (default false: eval) */
    bool report_syntax_errors;   /* emit GM001 for the first syntax error (default true) */
    int torch_version;           /* major*100+minor of the PyTorch assumed (default 213: 2.13) */
    /* major*100+minor of the Python assumed (default 311): before 3.12 a comprehension runs as a
     * frame of its own (PEP 709 inlined them), which dynamo compiles apart when it runs the
     * enclosing frame eagerly. */
    int python_version;
    bool capture_scalar_outputs; /* dynamo setting: .item() etc. do not break */
    bool capture_dynamic_output_shape_ops; /* dynamo setting: nonzero() etc. do not break */
    bool allow_rnn;                        /* dynamo setting: nn.LSTM/GRU/RNN are traced */
    bool fullgraph; /* every region compiles with fullgraph=True: breaks raise */
    gm_nested_setting nested_graph_breaks; /* dynamo setting; see gm_options_nested_graph_breaks */
    gm_function_names reorderable_logging_functions; /* deferred to after the graph */
    gm_function_names ignore_logging_functions;      /* dropped while tracing */
    gm_rule_selectors select;                        /* rules reported (default "GM": all) */
    gm_rule_selectors ignore; /* rules dropped even when selected (default none) */
    /* fix-all and `graphmend fix` apply unsafe mends too (as ruff's unsafe-fixes); the rules
     * never read it */
    bool unsafe_fixes;
} gm_analysis_options;

void gm_analysis_options_default(gm_analysis_options *options);

/* Whether a finding of rule is reported under options: selected, not ignored, and not
 * switched off by a dynamo setting. The one place rule gating happens. */
bool gm_analysis_rule_enabled(const gm_analysis_options *options, const gm_rule *rule);

/* The rule id nearest to id, a selector or rule id no rule has ("GM410" for "GM401"), or NULL
 * (closest_name.h). */
const char *gm_closest_rule_id(const char *id);

/* Replaces *selectors with ids (count of them). Each must be a prefix of some rule id ("GM",
 * "GM4", "GM401"). Returns 0, or -1 with a message naming the bad one in error. */
int gm_rule_selectors_set(gm_rule_selectors *selectors, const char *const *ids, size_t count,
                          char *error, size_t error_size);

/* "2.13" -> 213. Returns 0, or -1 when text is not MAJOR.MINOR. */
int gm_parse_torch_version(const char *text, int *version);

/* Whether version lies in [GM_TORCH_VERSION_MIN, GM_TORCH_VERSION_MAX]. */
bool gm_torch_version_supported(int version);
/* "3.11" -> 311, as gm_parse_torch_version; and whether it lies in [GM_PYTHON_VERSION_MIN,
 * GM_PYTHON_VERSION_MAX]. */
int gm_parse_python_version(const char *text, int *version);
bool gm_python_version_supported(int version);
/* Whether comprehensions run as frames of their own (Python before 3.12). */
bool gm_options_comprehension_frames(const gm_analysis_options *options);

/* Replaces *names with names (count of them). Each must be a dotted Python name ("print",
 * "logging.Logger.info"). Returns 0, or -1 with a message naming the bad one in error. */
int gm_function_names_set(gm_function_names *names, const char *const *items, size_t count,
                          char *error, size_t error_size);

/* Whether names holds name. */
bool gm_function_names_has(const gm_function_names *names, const char *name);

/* Whether dynamo resumes inside called functions after a break (nested_graph_breaks): the
 * user's setting, else on from torch 2.14. */
bool gm_options_nested_graph_breaks(const gm_analysis_options *options);

/* The name of dynamo's ignore set for torch_version: ignore_logging_functions from 2.10,
 * ignore_logger_methods before (it only held Logger methods then), NULL before 2.6. */
const char *gm_options_ignore_config_name(const gm_analysis_options *options);

/* Whether a call of the function named name (resolved: "print", "warnings.warn",
 * "logging.info") is deferred by dynamo when its arguments allow: it is in
 * reorderable_logging_functions, or it is warnings.warn on torch >= 2.14, which reorders it
 * by default when every argument is a constant (constant_args). */
bool gm_options_reorders(const gm_analysis_options *options, const char *name, bool constant_args);

/* Whether dynamo drops calls of the function named name (as above) or, for a logging.Logger
 * method, of method ("info") on any logger: name is then "logging.Logger.info". Before torch
 * 2.10 only Logger methods could be ignored. */
bool gm_options_ignores(const gm_analysis_options *options, const char *name);

/* Whether breaks in code compiled with fullgraph (the setting, or fullgraph=True at the
 * compile site) raise instead of splitting. */
bool gm_options_fullgraph(const gm_analysis_options *options, bool site_fullgraph);

/* Whether, for the fullgraph state given, rule's construct is traced rather than broken on:
 * on torch >= 2.10 fullgraph=True captures scalar outputs and dynamic-output-shape operators
 * (GM201, GM202, GM301). */
bool gm_options_fullgraph_traces(const gm_analysis_options *options, bool fullgraph,
                                 const gm_rule *rule);

/* Whether two option sets give the same findings (a cached analysis stays valid). */
bool gm_analysis_options_equal(const gm_analysis_options *a, const gm_analysis_options *b);

/* A digest of everything gm_analysis_options_equal compares: equal options, equal digests (what
 * a cache of results made with some options is keyed by). */
uint64_t gm_analysis_options_digest(const gm_analysis_options *options);

#endif
