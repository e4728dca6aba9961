/* The LSP settings section ("graphmend" in initializationOptions, workspace/configuration and
 * didChangeConfiguration): the dynamo settings, their validation and the GM_SET_* mask. */
#include <stdlib.h>

#include "check.h"
#include "server/config/settings.h"

static bool apply(gm_settings *s, const char *json, char *problems) {
    json_error_t error;
    json_t *section = json_loads(json, 0, &error);
    CHECK(section != NULL);
    bool changed = gm_settings_apply_json(s, section, problems, 512);
    json_decref(section);
    return changed;
}

static void reads_dynamo_settings(void) {
    gm_settings s;
    gm_settings_default(&s);
    char problems[512];
    CHECK(apply(&s,
                "{\"allowRnn\": true, \"fullgraph\": true, \"nestedGraphBreaks\": true,"
                " \"reorderableLoggingFunctions\": [\"print\", \"warnings.warn\"],"
                " \"ignoreLoggingFunctions\": [\"logging.Logger.info\"]}",
                problems));
    CHECK_EQ_STR(problems, "");
    CHECK(s.analysis.allow_rnn && s.analysis.fullgraph);
    CHECK_EQ_INT(s.analysis.nested_graph_breaks, GM_NESTED_ON);
    CHECK_EQ_INT(s.analysis.reorderable_logging_functions.count, 2);
    CHECK_EQ_STR(s.analysis.reorderable_logging_functions.items[0], "print");
    CHECK_EQ_STR(s.analysis.ignore_logging_functions.items[0], "logging.Logger.info");
    CHECK_EQ_INT(s.analysis_set, GM_SET_ALLOW_RNN | GM_SET_FULLGRAPH | GM_SET_NESTED_GRAPH_BREAKS |
                                     GM_SET_REORDERABLE_LOGGING_FUNCTIONS |
                                     GM_SET_IGNORE_LOGGING_FUNCTIONS);
    /* The same values again change nothing; a different list does. */
    CHECK(!apply(&s,
                 "{\"allowRnn\": true, \"reorderableLoggingFunctions\": [\"print\", "
                 "\"warnings.warn\"]}",
                 problems));
    CHECK(apply(&s, "{\"reorderableLoggingFunctions\": [\"print\"]}", problems));
    CHECK_EQ_INT(s.analysis.reorderable_logging_functions.count, 1);
    /* null for nestedGraphBreaks goes back to "as the torch version says" and clears its bit,
     * so a pyproject.toml value applies again. */
    CHECK(apply(&s, "{\"nestedGraphBreaks\": null}", problems));
    CHECK_EQ_INT(s.analysis.nested_graph_breaks, GM_NESTED_DEFAULT);
    CHECK(!(s.analysis_set & GM_SET_NESTED_GRAPH_BREAKS));
    CHECK(!apply(&s, "{\"nestedGraphBreaks\": null}", problems));
    CHECK(apply(&s, "{\"nestedGraphBreaks\": false}", problems));
    CHECK_EQ_INT(s.analysis.nested_graph_breaks, GM_NESTED_OFF);
}

static void rejects_bad_values(void) {
    gm_settings s;
    gm_settings_default(&s);
    char problems[512];
    CHECK(!apply(&s,
                 "{\"allowRnn\": \"yes\", \"fullgraph\": 1, \"nestedGraphBreaks\": \"on\","
                 " \"reorderableLoggingFunctions\": \"print\","
                 " \"ignoreLoggingFunctions\": [\"print\", \"a b\"]}",
                 problems));
    CHECK(strstr(problems, "graphmend.allowRnn must be true or false") != NULL);
    CHECK(strstr(problems, "graphmend.fullgraph must be true or false") != NULL);
    CHECK(strstr(problems, "graphmend.nestedGraphBreaks must be true, false or null") != NULL);
    CHECK(strstr(problems, "graphmend.reorderableLoggingFunctions must be an array") != NULL);
    CHECK(strstr(problems, "\"a b\" is not a dotted function name") != NULL);
    CHECK_EQ_INT(s.analysis_set, 0);
    CHECK(!s.analysis.allow_rnn && s.analysis.ignore_logging_functions.count == 0);
    /* torchVersion outside 2.0..2.20 keeps the previous value. */
    CHECK(apply(&s, "{\"torchVersion\": \"2.20\"}", problems));
    CHECK_EQ_INT(s.analysis.torch_version, 220);
    const char *bad[] = {"{\"torchVersion\": \"2.21\"}", "{\"torchVersion\": \"1.13\"}",
                         "{\"torchVersion\": \"3.0\"}"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(!apply(&s, bad[i], problems));
        CHECK(strstr(problems, "graphmend.torchVersion must be") != NULL &&
              strstr(problems, "\"2.20\"") != NULL);
        CHECK_EQ_INT(s.analysis.torch_version, 220);
    }
    /* Too many names. */
    char many[2048] = "{\"ignoreLoggingFunctions\": [";
    for (int i = 0; i <= GM_MAX_FUNCTION_NAMES; i++)
        snprintf(many + strlen(many), sizeof many - strlen(many), "%s\"f%d\"", i ? "," : "", i);
    strcat(many, "]}");
    CHECK(!apply(&s, many, problems));
    CHECK(strstr(problems, "graphmend.ignoreLoggingFunctions") != NULL);
}

/* The client's keys beat pyproject.toml's: the overlay copies exactly the masked ones. */
static void overlay_follows_the_mask(void) {
    gm_settings s;
    gm_settings_default(&s);
    char problems[512];
    apply(&s, "{\"fullgraph\": true, \"ignoreLoggingFunctions\": [\"print\"]}", problems);
    gm_analysis_options from_file;
    gm_analysis_options_default(&from_file);
    from_file.allow_rnn = true;
    from_file.fullgraph = false;
    gm_analysis_options_overlay(&from_file, &s.analysis, s.analysis_set);
    CHECK(from_file.allow_rnn && from_file.fullgraph);
    CHECK_EQ_INT(from_file.ignore_logging_functions.count, 1);
}

static void defaults(void) {
    json_t *d = gm_settings_defaults_json();
    CHECK(json_is_false(json_object_get(d, "allowRnn")));
    CHECK(json_is_false(json_object_get(d, "fullgraph")));
    CHECK(json_is_null(json_object_get(d, "nestedGraphBreaks")));
    CHECK(json_is_array(json_object_get(d, "reorderableLoggingFunctions")));
    CHECK(json_is_array(json_object_get(d, "ignoreLoggingFunctions")));
    /* Applying the defaults back is accepted without problems. */
    gm_settings s;
    gm_settings_default(&s);
    char problems[512];
    gm_settings_apply_json(&s, d, problems, sizeof problems);
    CHECK_EQ_STR(problems, "");
    gm_analysis_options o;
    gm_analysis_options_default(&o);
    CHECK(gm_analysis_options_equal(&s.analysis, &o));
    json_decref(d);
}

int main(void) {
    reads_dynamo_settings();
    rejects_bad_values();
    overlay_follows_the_mask();
    defaults();
    return check_exit_code("server/config/settings");
}
