/* The LSP settings section ("graphmend" in initializationOptions, workspace/configuration and
 * didChangeConfiguration): the dynamo settings, their validation and the GM_SET_* mask. */
#include <stdlib.h>

#include "check.h"
#include "server/config/pyproject_config.h"
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

/* pythonVersion: "MAJOR.MINOR" in 3.9..3.15; null goes back to the project's Python. */
static void reads_python_version(void) {
    gm_settings s;
    gm_settings_default(&s);
    char problems[512];
    CHECK(apply(&s, "{\"pythonVersion\": \"3.10\"}", problems));
    CHECK_EQ_STR(problems, "");
    CHECK_EQ_INT(s.analysis.python_version, 310);
    CHECK_EQ_INT(s.analysis_set, GM_SET_PYTHON_VERSION);
    CHECK(!apply(&s, "{\"pythonVersion\": \"3.10\"}", problems));
    CHECK(apply(&s, "{\"pythonVersion\": \"3.15\"}", problems));
    CHECK_EQ_INT(s.analysis.python_version, 315);
    const char *bad[] = {"{\"pythonVersion\": \"3.8\"}", "{\"pythonVersion\": \"3.16\"}",
                         "{\"pythonVersion\": \"three\"}", "{\"pythonVersion\": 3.1}",
                         "{\"pythonVersion\": \"3.11.2\"}"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        CHECK(!apply(&s, bad[i], problems));
        CHECK(strstr(problems, "graphmend.pythonVersion must be") != NULL &&
              strstr(problems, "\"3.15\"") != NULL);
        CHECK_EQ_INT(s.analysis.python_version, 315);
        CHECK_EQ_INT(s.analysis_set, GM_SET_PYTHON_VERSION);
    }
    /* null clears the key, so that pyproject.toml or the interpreter decides again. */
    CHECK(apply(&s, "{\"pythonVersion\": null}", problems));
    CHECK_EQ_STR(problems, "");
    CHECK_EQ_INT(s.analysis_set, 0);
    CHECK_EQ_INT(s.analysis.python_version, 311);
    CHECK(!apply(&s, "{\"pythonVersion\": null}", problems));
    CHECK(apply(&s, "{\"torchVersion\": \"2.13\"}", problems));
    CHECK_EQ_INT(s.analysis_set, GM_SET_TORCH_VERSION); /* another key leaves it clear */
}

/* The layers of gm_server_document_options: the base, the pyproject.toml (python-version, else
 * requires-python), then the client's pythonVersion. */
static void python_version_layers(void) {
    gm_analysis_options project;
    gm_analysis_options_default(&project);
    unsigned project_set = 0;
    char error[256];
    const char *text = "[project]\nrequires-python = \">=3.12\"\n";
    CHECK_EQ_INT(gm_pyproject_parse(text, strlen(text), &project, &project_set, error, sizeof error),
                 0);

    gm_analysis_options options;
    gm_analysis_options_default(&options);
    options.python_version = 309; /* as if the python3 on PATH were 3.9 */
    gm_analysis_options_overlay(&options, &project, project_set);
    CHECK_EQ_INT(options.python_version, 312); /* requires-python beats the interpreter */

    gm_settings s;
    gm_settings_default(&s);
    char problems[512];
    CHECK(apply(&s, "{\"pythonVersion\": \"3.10\"}", problems));
    gm_analysis_options_overlay(&options, &s.analysis, s.analysis_set);
    CHECK_EQ_INT(options.python_version, 310); /* the client beats pyproject.toml */

    CHECK(apply(&s, "{\"pythonVersion\": null}", problems));
    gm_analysis_options_default(&options);
    options.python_version = 309;
    gm_analysis_options_overlay(&options, &project, project_set);
    gm_analysis_options_overlay(&options, &s.analysis, s.analysis_set);
    CHECK_EQ_INT(options.python_version, 312);

    /* Versions outside what dynamo supports count as the nearest end. */
    CHECK_EQ_INT(gm_python_version_nearest_supported(308), 309);
    CHECK_EQ_INT(gm_python_version_nearest_supported(313), 313);
    CHECK_EQ_INT(gm_python_version_nearest_supported(400), 315);
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
    CHECK(json_is_null(json_object_get(d, "pythonVersion")));
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
    reads_python_version();
    python_version_layers();
    overlay_follows_the_mask();
    defaults();
    return check_exit_code("server/config/settings");
}
