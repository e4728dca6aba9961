#include "server/config/settings.h"

#include <stdio.h>
#include <string.h>

#include "server/config/interpreter_version.h"

void gm_settings_default(gm_settings *settings) {
    gm_analysis_options_default(&settings->analysis);
    settings->analysis_set = 0;
    settings->log_level = 3;
    settings->python[0] = '\0';
}

int gm_python_version_nearest_supported(int version) {
    return version < GM_PYTHON_VERSION_MIN   ? GM_PYTHON_VERSION_MIN
           : version > GM_PYTHON_VERSION_MAX ? GM_PYTHON_VERSION_MAX
                                             : version;
}

void gm_analysis_options_default_with_interpreter(gm_analysis_options *options) {
    gm_analysis_options_default_with_version(options, gm_interpreter_python_version());
}

void gm_analysis_options_default_with_version(gm_analysis_options *options, int interpreter) {
    gm_analysis_options_default(options);
    if (interpreter) {
        options->python_version = gm_python_version_nearest_supported(interpreter);
    }
}

void gm_analysis_options_overlay(gm_analysis_options *target, const gm_analysis_options *source,
                                 unsigned mask) {
    if (mask & GM_SET_COMPILE_FORWARD)
        target->forward_is_compiled = source->forward_is_compiled;
    if (mask & GM_SET_TRAINING)
        target->training = source->training;
    if (mask & GM_SET_TORCH_VERSION)
        target->torch_version = source->torch_version;
    if (mask & GM_SET_PYTHON_VERSION)
        target->python_version = source->python_version;
    if (mask & GM_SET_CAPTURE_SCALAR_OUTPUTS)
        target->capture_scalar_outputs = source->capture_scalar_outputs;
    if (mask & GM_SET_CAPTURE_DYNAMIC_OUTPUT_SHAPE_OPS)
        target->capture_dynamic_output_shape_ops = source->capture_dynamic_output_shape_ops;
    if (mask & GM_SET_ALLOW_RNN)
        target->allow_rnn = source->allow_rnn;
    if (mask & GM_SET_FULLGRAPH)
        target->fullgraph = source->fullgraph;
    if (mask & GM_SET_NESTED_GRAPH_BREAKS)
        target->nested_graph_breaks = source->nested_graph_breaks;
    if (mask & GM_SET_REORDERABLE_LOGGING_FUNCTIONS)
        target->reorderable_logging_functions = source->reorderable_logging_functions;
    if (mask & GM_SET_IGNORE_LOGGING_FUNCTIONS)
        target->ignore_logging_functions = source->ignore_logging_functions;
    if (mask & GM_SET_SELECT)
        target->select = source->select;
    if (mask & GM_SET_IGNORE)
        target->ignore = source->ignore;
    if (mask & GM_SET_UNSAFE_FIXES)
        target->unsafe_fixes = source->unsafe_fixes;
}

static const char *const log_level_names[] = {"error", "warning", "info", "debug"};

static void note_problem(char *problems, size_t size, const char *key, const char *expected) {
    size_t used = strlen(problems);
    if (used < size) {
        snprintf(problems + used, size - used, "%sgraphmend.%s must be %s", used ? "; " : "", key,
                 expected);
    }
}

static bool apply_bool(const json_t *section, const char *key, bool *target, unsigned bit,
                       unsigned *set, char *problems, size_t size) {
    json_t *value = json_object_get(section, key);
    if (!value || json_is_null(value)) {
        return false;
    }
    if (!json_is_boolean(value)) {
        note_problem(problems, size, key, "true or false");
        return false;
    }
    bool next = json_is_true(value);
    bool changed = next != *target || !(*set & bit);
    *target = next;
    *set |= bit;
    return changed;
}

static bool apply_selectors(const json_t *section, const char *key, gm_rule_selectors *target,
                            unsigned bit, unsigned *set, char *problems, size_t size) {
    json_t *value = json_object_get(section, key);
    if (!value || json_is_null(value)) {
        return false;
    }
    const char *ids[GM_MAX_RULE_SELECTORS];
    size_t count = json_is_array(value) ? json_array_size(value) : 0;
    bool ok = json_is_array(value) && count <= GM_MAX_RULE_SELECTORS;
    for (size_t i = 0; ok && i < count; i++) {
        json_t *item = json_array_get(value, i);
        ok = json_is_string(item);
        ids[i] = ok ? json_string_value(item) : NULL;
    }
    if (!ok) {
        note_problem(problems, size, key, "an array of rule ids or prefixes (\"GM4\", \"GM401\")");
        return false;
    }
    gm_rule_selectors next;
    char error[128];
    if (gm_rule_selectors_set(&next, ids, count, error, sizeof error) != 0) {
        note_problem(problems, size, key, error);
        return false;
    }
    bool changed = !(*set & bit) || next.count != target->count ||
                   memcmp(next.items, target->items, sizeof next.items) != 0;
    *target = next;
    *set |= bit;
    return changed;
}

static bool apply_names(const json_t *section, const char *key, gm_function_names *target,
                        unsigned bit, unsigned *set, char *problems, size_t size) {
    json_t *value = json_object_get(section, key);
    if (!value || json_is_null(value)) {
        return false;
    }
    const char *items[GM_MAX_FUNCTION_NAMES];
    size_t count = json_is_array(value) ? json_array_size(value) : 0;
    bool ok = json_is_array(value) && count <= GM_MAX_FUNCTION_NAMES;
    for (size_t i = 0; ok && i < count; i++) {
        json_t *item = json_array_get(value, i);
        ok = json_is_string(item);
        items[i] = ok ? json_string_value(item) : NULL;
    }
    if (!ok) {
        note_problem(problems, size, key,
                     "an array of at most 16 dotted function names (\"print\", "
                     "\"logging.Logger.info\")");
        return false;
    }
    gm_function_names next;
    char error[160];
    if (gm_function_names_set(&next, items, count, error, sizeof error) != 0) {
        note_problem(problems, size, key, error);
        return false;
    }
    bool changed = !(*set & bit) || next.count != target->count ||
                   memcmp(next.items, target->items, sizeof next.items) != 0;
    *target = next;
    *set |= bit;
    return changed;
}

/* nestedGraphBreaks: true, false, or null (follow torch_version; clears the key). */
static bool apply_nested(const json_t *section, gm_analysis_options *analysis, unsigned *set,
                         char *problems, size_t size) {
    json_t *value = json_object_get(section, "nestedGraphBreaks");
    if (!value) {
        return false;
    }
    gm_nested_setting next;
    if (json_is_null(value)) {
        next = GM_NESTED_DEFAULT;
    } else if (json_is_boolean(value)) {
        next = json_is_true(value) ? GM_NESTED_ON : GM_NESTED_OFF;
    } else {
        note_problem(problems, size, "nestedGraphBreaks", "true, false or null");
        return false;
    }
    bool was_set = *set & GM_SET_NESTED_GRAPH_BREAKS;
    bool changed =
        next != analysis->nested_graph_breaks || (was_set != (next != GM_NESTED_DEFAULT));
    analysis->nested_graph_breaks = next;
    if (next == GM_NESTED_DEFAULT) {
        *set &= ~(unsigned)GM_SET_NESTED_GRAPH_BREAKS;
    } else {
        *set |= GM_SET_NESTED_GRAPH_BREAKS;
    }
    return changed;
}

/* pythonVersion: "3.11", or null (follow the project: requires-python, else the python3 on
 * PATH; clears the key). */
static bool apply_python_version(const json_t *section, gm_analysis_options *analysis,
                                 unsigned *set, char *problems, size_t size) {
    json_t *value = json_object_get(section, "pythonVersion");
    if (!value) {
        return false;
    }
    bool was_set = *set & GM_SET_PYTHON_VERSION;
    if (json_is_null(value)) {
        gm_analysis_options defaults;
        gm_analysis_options_default(&defaults);
        analysis->python_version = defaults.python_version;
        *set &= ~(unsigned)GM_SET_PYTHON_VERSION;
        return was_set;
    }
    int parsed;
    if (!json_is_string(value) || gm_parse_python_version(json_string_value(value), &parsed) != 0 ||
        !gm_python_version_supported(parsed)) {
        note_problem(problems, size, "pythonVersion",
                     "a \"MAJOR.MINOR\" string from \"3.9\" to \"3.15\", such as \"3.11\", "
                     "or null");
        return false;
    }
    bool changed = parsed != analysis->python_version || !was_set;
    analysis->python_version = parsed;
    *set |= GM_SET_PYTHON_VERSION;
    return changed;
}

bool gm_settings_apply_json(gm_settings *settings, const json_t *section, char *problems,
                            size_t problems_size) {
    if (problems_size) {
        problems[0] = '\0';
    }
    if (!json_is_object(section)) {
        return false;
    }
    bool changed = false;
    gm_analysis_options *analysis = &settings->analysis;
    unsigned *set = &settings->analysis_set;
    changed |= apply_bool(section, "compileForward", &analysis->forward_is_compiled,
                          GM_SET_COMPILE_FORWARD, set, problems, problems_size);
    changed |= apply_bool(section, "training", &analysis->training, GM_SET_TRAINING, set, problems,
                          problems_size);
    changed |= apply_bool(section, "captureScalarOutputs", &analysis->capture_scalar_outputs,
                          GM_SET_CAPTURE_SCALAR_OUTPUTS, set, problems, problems_size);
    changed |= apply_bool(section, "captureDynamicOutputShapeOps",
                          &analysis->capture_dynamic_output_shape_ops,
                          GM_SET_CAPTURE_DYNAMIC_OUTPUT_SHAPE_OPS, set, problems, problems_size);
    changed |= apply_bool(section, "allowRnn", &analysis->allow_rnn, GM_SET_ALLOW_RNN, set,
                          problems, problems_size);
    changed |= apply_bool(section, "fullgraph", &analysis->fullgraph, GM_SET_FULLGRAPH, set,
                          problems, problems_size);
    changed |= apply_nested(section, analysis, set, problems, problems_size);
    changed |= apply_names(section, "reorderableLoggingFunctions",
                           &analysis->reorderable_logging_functions,
                           GM_SET_REORDERABLE_LOGGING_FUNCTIONS, set, problems, problems_size);
    changed |= apply_names(section, "ignoreLoggingFunctions", &analysis->ignore_logging_functions,
                           GM_SET_IGNORE_LOGGING_FUNCTIONS, set, problems, problems_size);
    changed |= apply_selectors(section, "select", &analysis->select, GM_SET_SELECT, set, problems,
                               problems_size);
    changed |= apply_selectors(section, "ignore", &analysis->ignore, GM_SET_IGNORE, set, problems,
                               problems_size);
    changed |= apply_bool(section, "unsafeFixes", &analysis->unsafe_fixes, GM_SET_UNSAFE_FIXES, set,
                          problems, problems_size);
    json_t *version = json_object_get(section, "torchVersion");
    if (version && !json_is_null(version)) {
        int parsed;
        if (json_is_string(version) &&
            gm_parse_torch_version(json_string_value(version), &parsed) == 0 &&
            gm_torch_version_supported(parsed)) {
            changed |= parsed != analysis->torch_version || !(*set & GM_SET_TORCH_VERSION);
            analysis->torch_version = parsed;
            *set |= GM_SET_TORCH_VERSION;
        } else {
            note_problem(problems, problems_size, "torchVersion",
                         "a \"MAJOR.MINOR\" string from \"2.0\" to \"2.20\", such as \"2.13\"");
        }
    }
    changed |= apply_python_version(section, analysis, set, problems, problems_size);
    json_t *python = json_object_get(section, "python");
    if (python && (json_is_null(python) || json_is_string(python))) {
        const char *value = json_is_string(python) ? json_string_value(python) : "";
        if (strlen(value) < sizeof settings->python && !memchr(value, '\n', strlen(value))) {
            changed |= strcmp(value, settings->python) != 0;
            strcpy(settings->python, value);
        } else {
            note_problem(problems, problems_size, "python", "a path of an interpreter");
        }
    } else if (python) {
        note_problem(problems, problems_size, "python", "a path of an interpreter, or null");
    }
    json_t *level = json_object_get(section, "logLevel");
    if (level && !json_is_null(level)) {
        int found = 0;
        for (int i = 0; i < 4 && json_is_string(level); i++) {
            if (strcmp(json_string_value(level), log_level_names[i]) == 0) {
                found = i + 1;
            }
        }
        if (found) {
            settings->log_level = found;
        } else {
            note_problem(problems, problems_size, "logLevel",
                         "one of \"error\", \"warning\", \"info\", \"debug\"");
        }
    }
    return changed;
}

json_t *gm_settings_defaults_json(void) {
    gm_settings defaults;
    gm_settings_default(&defaults);
    char version[16];
    snprintf(version, sizeof version, "%d.%d", defaults.analysis.torch_version / 100,
             defaults.analysis.torch_version % 100);
    json_t *select = json_array();
    for (size_t i = 0; i < defaults.analysis.select.count; i++) {
        json_array_append_new(select, json_string(defaults.analysis.select.items[i]));
    }
    json_t *ignore = json_array();
    for (size_t i = 0; i < defaults.analysis.ignore.count; i++) {
        json_array_append_new(ignore, json_string(defaults.analysis.ignore.items[i]));
    }
    json_t *reorderable = json_array();
    json_t *ignored = json_array();
    const gm_function_names *lists[2] = {&defaults.analysis.reorderable_logging_functions,
                                         &defaults.analysis.ignore_logging_functions};
    for (size_t l = 0; l < 2; l++) {
        for (size_t i = 0; i < lists[l]->count; i++) {
            json_array_append_new(l ? ignored : reorderable, json_string(lists[l]->items[i]));
        }
    }
    /* nestedGraphBreaks defaults to null: on from torch 2.14, off before. pythonVersion too:
     * requires-python's lower bound, else the python3 on PATH, else 3.11. */
    return json_pack(
        "{s:b,s:b,s:s,s:n,s:b,s:b,s:b,s:b,s:n,s:o,s:o,s:o,s:o,s:b,s:s}", "compileForward",
        defaults.analysis.forward_is_compiled, "training", defaults.analysis.training,
        "torchVersion", version, "pythonVersion", "captureScalarOutputs",
        defaults.analysis.capture_scalar_outputs,
        "captureDynamicOutputShapeOps", defaults.analysis.capture_dynamic_output_shape_ops,
        "allowRnn", defaults.analysis.allow_rnn, "fullgraph", defaults.analysis.fullgraph,
        "nestedGraphBreaks", "reorderableLoggingFunctions", reorderable, "ignoreLoggingFunctions",
        ignored, "select", select, "ignore", ignore, "unsafeFixes", defaults.analysis.unsafe_fixes,
        "logLevel", log_level_names[defaults.log_level - 1]);
}
