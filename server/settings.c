#include "settings.h"

#include <stdio.h>
#include <string.h>

void gm_settings_default(gm_settings *settings) {
    gm_analysis_options_default(&settings->analysis);
    settings->log_level = 3;
}

static const char *const log_level_names[] = {"error", "warning", "info", "debug"};

static void note_problem(char *problems, size_t size, const char *key, const char *expected) {
    size_t used = strlen(problems);
    if (used < size) {
        snprintf(problems + used, size - used, "%sgraphmend.%s must be %s", used ? "; " : "", key,
                 expected);
    }
}

static bool apply_bool(const json_t *section, const char *key, bool *target, char *problems,
                       size_t size) {
    json_t *value = json_object_get(section, key);
    if (!value || json_is_null(value)) {
        return false;
    }
    if (!json_is_boolean(value)) {
        note_problem(problems, size, key, "true or false");
        return false;
    }
    bool next = json_is_true(value);
    bool changed = next != *target;
    *target = next;
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
    changed |= apply_bool(section, "compileForward", &settings->analysis.forward_is_compiled,
                          problems, problems_size);
    changed |=
        apply_bool(section, "training", &settings->analysis.training, problems, problems_size);
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
    return json_pack("{s:b,s:b,s:s}", "compileForward", defaults.analysis.forward_is_compiled,
                     "training", defaults.analysis.training, "logLevel",
                     log_level_names[defaults.log_level - 1]);
}
