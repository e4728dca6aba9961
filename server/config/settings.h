/* User settings of the server: the "graphmend" section of the client's configuration
 * (initializationOptions, workspace/configuration, didChangeConfiguration). */
#ifndef GM_SERVER_CONFIG_SETTINGS_H
#define GM_SERVER_CONFIG_SETTINGS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "analysis/analyzer.h"

/* Which analysis options a source of settings gave explicitly (gm_settings.analysis_set). */
enum {
    GM_SET_COMPILE_FORWARD = 1u << 0,
    GM_SET_TRAINING = 1u << 1,
    GM_SET_TORCH_VERSION = 1u << 2,
    GM_SET_CAPTURE_SCALAR_OUTPUTS = 1u << 3,
    GM_SET_CAPTURE_DYNAMIC_OUTPUT_SHAPE_OPS = 1u << 4,
    GM_SET_SELECT = 1u << 5,
    GM_SET_IGNORE = 1u << 6,
    GM_SET_ALLOW_RNN = 1u << 7,
    GM_SET_FULLGRAPH = 1u << 8,
    GM_SET_NESTED_GRAPH_BREAKS = 1u << 9,
    GM_SET_REORDERABLE_LOGGING_FUNCTIONS = 1u << 10,
    GM_SET_IGNORE_LOGGING_FUNCTIONS = 1u << 11,
    GM_SET_UNSAFE_FIXES = 1u << 12,
    GM_SET_PYTHON_VERSION = 1u << 13,
};

/* Copies into *target the options of source that mask names. */
void gm_analysis_options_overlay(gm_analysis_options *target, const gm_analysis_options *source,
                                 unsigned mask);

/* The options a file starts from, before its pyproject.toml and the client's keys: the defaults,
 * with python_version that of the python3 on PATH when one answers (as ruff's target-version
 * follows the project's Python; 3.11 when none does). */
void gm_analysis_options_default_with_interpreter(gm_analysis_options *options);

/* The same with the interpreter's version already known (0: none answered, the default stays):
 * the language server's, which never waits for the interpreter to answer. */
void gm_analysis_options_default_with_version(gm_analysis_options *options, int interpreter);

/* version (major*100+minor) moved into [GM_PYTHON_VERSION_MIN, GM_PYTHON_VERSION_MAX]: a Python
 * dynamo does not support counts as the supported one nearest to it. */
int gm_python_version_nearest_supported(int version);

typedef struct {
    gm_analysis_options analysis;
    unsigned analysis_set; /* GM_SET_* bits: the keys the client gave (they beat pyproject.toml) */
    int log_level; /* window/logMessage types up to this are sent: 1 error .. 4 log; default 3 */
    /* the Python interpreter that has the user's packages (where an installed model's code is
     * found); "" for the default, $GRAPHMEND_PYTHON, then python3 */
    char python[1024];
} gm_settings;

void gm_settings_default(gm_settings *settings);

/* Applies the keys present in section (an object; anything else is ignored): compileForward
 * (bool), training (bool), torchVersion ("2.13"), pythonVersion ("3.11", or null for "as the
 * project's Python": requires-python, else the python3 on PATH), captureScalarOutputs (bool),
 * captureDynamicOutputShapeOps (bool), allowRnn (bool), fullgraph (bool), nestedGraphBreaks
 * (bool, or null for "as torch_version does"), reorderableLoggingFunctions and
 * ignoreLoggingFunctions (arrays of dotted function names), select and ignore (arrays of rule
 * ids or prefixes), unsafeFixes (bool: fix-all applies unsafe mends too), logLevel
 * ("error"|"warning"|"info"|"debug"), python (a path or a name on PATH; "" or null for the
 * default). torchVersion must lie in 2.0..2.20, pythonVersion in
 * 3.9..3.15. Keys with bad values are skipped (the previous value stays) and named in problems
 * (empty when none). Returns true when something changed. */
bool gm_settings_apply_json(gm_settings *settings, const json_t *section, char *problems,
                            size_t problems_size);

/* The defaults as a JSON object with the same keys (for the client-parity test). */
json_t *gm_settings_defaults_json(void);

#endif
