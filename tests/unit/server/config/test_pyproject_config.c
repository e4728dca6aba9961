/* The [tool.graphmend] reader of pyproject.toml, and rule gating by the analysis options. */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "analysis/analyzer.h"
#include "analysis/syntax/python_parser.h"
#include "check.h"
#include "server/config/pyproject_config.h"

static int parse(const char *text, gm_analysis_options *options, unsigned *set, char *error) {
    gm_analysis_options_default(options);
    *set = 0;
    error[0] = '\0';
    return gm_pyproject_parse(text, strlen(text), options, set, error, 256);
}

static void reads_the_table(void) {
    gm_analysis_options o;
    unsigned set;
    char error[256];
    const char *text = "[project]\n"
                       "name = \"x\"\n"
                       "description = \"\"\"\n"
                       "[tool.graphmend]\n"
                       "\"\"\"\n"
                       "[tool.graphmend]  # ours\n"
                       "# a comment\n"
                       "torch-version = \"2.7\"\n"
                       "capture-scalar-outputs = true\n"
                       "capture-dynamic-output-shape-ops = false # no\n"
                       "select = [\n"
                       "  \"GM1\",  # data-dependent\n"
                       "  'GM401',\n"
                       "]\n"
                       "ignore = []\n"
                       "\n"
                       "[tool.ruff]\n"
                       "line-length = 99\n"
                       "weird = { a = [1, 2] }\n";
    CHECK_EQ_INT(parse(text, &o, &set, error), 0);
    CHECK(error[0] == '\0');
    CHECK_EQ_INT(o.torch_version, 207);
    CHECK(o.capture_scalar_outputs && !o.capture_dynamic_output_shape_ops);
    CHECK_EQ_INT(o.select.count, 2);
    CHECK(strcmp(o.select.items[0], "GM1") == 0 && strcmp(o.select.items[1], "GM401") == 0);
    CHECK_EQ_INT(o.ignore.count, 0);
    CHECK_EQ_INT(set, GM_SET_TORCH_VERSION | GM_SET_CAPTURE_SCALAR_OUTPUTS |
                          GM_SET_CAPTURE_DYNAMIC_OUTPUT_SHAPE_OPS | GM_SET_SELECT | GM_SET_IGNORE);

    CHECK_EQ_INT(parse("[tool.black]\nx = 1\n", &o, &set, error), 0);
    CHECK_EQ_INT(set, 0);
    CHECK_EQ_INT(o.torch_version, 213);
}

/* The dynamo settings beyond the capture options. */
static void reads_dynamo_settings(void) {
    gm_analysis_options o;
    unsigned set;
    char error[256];
    const char *text = "[tool.graphmend]\n"
                       "allow-rnn = true\n"
                       "fullgraph = true\n"
                       "nested-graph-breaks = false\n"
                       "reorderable-logging-functions = [\"print\", \"warnings.warn\"]\n"
                       "ignore-logging-functions = [\n"
                       "  \"logging.Logger.info\",  # any logger\n"
                       "]\n";
    CHECK_EQ_INT(parse(text, &o, &set, error), 0);
    CHECK(error[0] == '\0');
    CHECK(o.allow_rnn && o.fullgraph);
    CHECK_EQ_INT(o.nested_graph_breaks, GM_NESTED_OFF);
    CHECK_EQ_INT(o.reorderable_logging_functions.count, 2);
    CHECK_EQ_STR(o.reorderable_logging_functions.items[1], "warnings.warn");
    CHECK_EQ_INT(o.ignore_logging_functions.count, 1);
    CHECK_EQ_STR(o.ignore_logging_functions.items[0], "logging.Logger.info");
    CHECK_EQ_INT(set, GM_SET_ALLOW_RNN | GM_SET_FULLGRAPH | GM_SET_NESTED_GRAPH_BREAKS |
                          GM_SET_REORDERABLE_LOGGING_FUNCTIONS | GM_SET_IGNORE_LOGGING_FUNCTIONS);
    CHECK(!gm_options_nested_graph_breaks(&o));

    /* Left out, nested graph breaks follow the version: on from 2.14. */
    CHECK_EQ_INT(parse("[tool.graphmend]\ntorch-version = \"2.14\"\n", &o, &set, error), 0);
    CHECK_EQ_INT(o.nested_graph_breaks, GM_NESTED_DEFAULT);
    CHECK(gm_options_nested_graph_breaks(&o));
    CHECK_EQ_INT(parse("[tool.graphmend]\nnested-graph-breaks = true\n", &o, &set, error), 0);
    CHECK(gm_options_nested_graph_breaks(&o));
    gm_analysis_options_default(&o);
    CHECK(!gm_options_nested_graph_breaks(&o));

    /* The overlay copies exactly the keys the mask names. */
    gm_analysis_options target;
    gm_analysis_options_default(&target);
    CHECK_EQ_INT(parse(text, &o, &set, error), 0);
    gm_analysis_options_overlay(&target, &o, GM_SET_ALLOW_RNN | GM_SET_IGNORE_LOGGING_FUNCTIONS);
    CHECK(target.allow_rnn && !target.fullgraph);
    CHECK_EQ_INT(target.reorderable_logging_functions.count, 0);
    CHECK_EQ_INT(target.ignore_logging_functions.count, 1);
    gm_analysis_options_overlay(&target, &o, set);
    CHECK(gm_analysis_options_equal(&target, &o));
}

/* python-version, and without it the lower bound of [project] requires-python. */
static void reads_python_version(void) {
    gm_analysis_options o;
    unsigned set;
    char error[256];
    CHECK_EQ_INT(parse("[tool.graphmend]\npython-version = \"3.10\"\n", &o, &set, error), 0);
    CHECK_EQ_INT(o.python_version, 310);
    CHECK_EQ_INT(set, GM_SET_PYTHON_VERSION);
    CHECK(gm_options_comprehension_frames(&o));
    CHECK_EQ_INT(parse("[tool.graphmend]\npython-version = '3.13'\n", &o, &set, error), 0);
    CHECK_EQ_INT(o.python_version, 313);
    CHECK(!gm_options_comprehension_frames(&o));

    /* requires-python of [project], wherever the table stands; its other keys, whatever their
     * form, are no error. */
    const char *project = "[project]\n"
                          "name = \"x\"\n"
                          "description = \"\"\"\n"
                          "requires-python = \">=3.14\"\n"
                          "\"\"\"\n"
                          "version = 1.5\n"
                          "authors = [{ name = \"A\", email = \"a@example.com\" }]\n"
                          "dependencies = [\n"
                          "  \"torch>=2.5\",\n"
                          "]\n"
                          "requires-python = \">=3.10, <4\"  # the oldest we run on\n"
                          "dynamic = [\"readme\"]\n"
                          "\n"
                          "[project.urls]\n"
                          "requires-python = \">=3.13\"\n"
                          "[tool.graphmend]\n"
                          "fullgraph = true\n";
    CHECK_EQ_INT(parse(project, &o, &set, error), 0);
    CHECK(error[0] == '\0');
    CHECK_EQ_INT(o.python_version, 310);
    CHECK(o.fullgraph);
    CHECK_EQ_INT(set, GM_SET_PYTHON_VERSION | GM_SET_FULLGRAPH);
    CHECK_EQ_INT(parse("[tool.graphmend]\n"
                       "allow-rnn = true\n"
                       "[project]\n"
                       "requires-python = \"~=3.12.1\"\n",
                       &o, &set, error),
                 0);
    CHECK_EQ_INT(o.python_version, 312);
    CHECK_EQ_INT(set, GM_SET_PYTHON_VERSION | GM_SET_ALLOW_RNN);
    /* python-version beats requires-python. */
    CHECK_EQ_INT(parse("[project]\n"
                       "requires-python = \">=3.10\"\n"
                       "[tool.graphmend]\n"
                       "python-version = \"3.13\"\n",
                       &o, &set, error),
                 0);
    CHECK_EQ_INT(o.python_version, 313);
    CHECK_EQ_INT(set, GM_SET_PYTHON_VERSION);
    /* Elsewhere requires-python means nothing. */
    CHECK_EQ_INT(parse("[tool.poetry]\nrequires-python = \">=3.13\"\n", &o, &set, error), 0);
    CHECK_EQ_INT(o.python_version, 311);
    CHECK_EQ_INT(set, 0);
    /* Errors of [tool.graphmend] still name their line after it. */
    CHECK_EQ_INT(parse("[project]\n"
                       "requires-python = \">=3.10\"\n"
                       "[tool.graphmend]\n"
                       "colour = \"red\"\n",
                       &o, &set, error),
                 -1);
    CHECK_EQ_STR(error, "line 4: unknown key 'colour' in [tool.graphmend]");

    /* The specifier forms: the largest lower bound wins, outside 3.9..3.15 the nearest end;
     * what gives no lower bound, or is not read, leaves the default. */
    static const struct {
        const char *spec;
        int version; /* 0: no bound, the bit stays clear */
    } specs[] = {
        {">=3.9", 309},          {">= 3.11", 311},       {">=3.9,<4", 309},
        {"<4, >=3.12", 312},     {">=3.9, >=3.11", 311}, {"~=3.12.1", 312},
        {"==3.13.*", 313},       {">3.10", 310},         {">=3.11.4", 311},
        {">=3.8", 309},          {">=2.7", 309},         {">=3.16", 315},
        {"<3.12", 0},            {"!=3.10.*", 0},        {"3.10", 0},
        {">=3", 0},              {">=3.10rc1", 0},       {"===3.10", 0},
        {"", 0},                 {">=three", 0},         {"<=3.13", 0},
    };
    for (size_t i = 0; i < sizeof specs / sizeof specs[0]; i++) {
        char text[128];
        snprintf(text, sizeof text, "[project]\nrequires-python = '%s'\n", specs[i].spec);
        CHECK_EQ_INT(parse(text, &o, &set, error), 0);
        if (o.python_version != (specs[i].version ? specs[i].version : 311))
            fprintf(stderr, "requires-python '%s'\n", specs[i].spec);
        CHECK_EQ_INT(o.python_version, specs[i].version ? specs[i].version : 311);
        CHECK_EQ_INT(set, specs[i].version ? GM_SET_PYTHON_VERSION : 0u);
    }
    /* requires-python in a form this does not read is no error either. */
    const char *odd[] = {"requires-python = [\">=3.10\"]\n", "requires-python = 3.10\n",
                         "requires-python = \"\"\">=3.10\"\"\"\n", "requires-python = \">=3.10\" x\n"};
    for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++) {
        char text[128];
        snprintf(text, sizeof text, "[project]\n%s[tool.graphmend]\nfullgraph = true\n", odd[i]);
        CHECK_EQ_INT(parse(text, &o, &set, error), 0);
        CHECK_EQ_INT(o.python_version, 311);
        CHECK_EQ_INT(set, GM_SET_FULLGRAPH);
    }
}

static void expect_error(const char *text, const char *message) {
    gm_analysis_options o;
    unsigned set;
    char error[256];
    CHECK_EQ_INT(parse(text, &o, &set, error), -1);
    if (!strstr(error, message)) {
        fprintf(stderr, "error \"%s\" lacks \"%s\"\n", error, message);
        CHECK(0);
    }
    CHECK_EQ_INT(set, 0);
    CHECK(!o.capture_scalar_outputs);
}

static void reads_region_keys(void) {
    gm_analysis_options o;
    unsigned set;
    char error[256];
    CHECK_EQ_INT(
        parse("[tool.graphmend]\ncompile-forward = false\ntraining = true\n", &o, &set, error), 0);
    CHECK(!o.forward_is_compiled);
    CHECK(o.training);
    CHECK_EQ_INT(set, GM_SET_COMPILE_FORWARD | GM_SET_TRAINING);
}

static void rejects_what_it_does_not_know(void) {
    const char *head = "[tool.graphmend]\ncapture-scalar-outputs = true\n";
    char text[512];
#define ERR(tail, message)                                                                         \
    do {                                                                                           \
        snprintf(text, sizeof text, "%s%s", head, tail);                                           \
        expect_error(text, message);                                                               \
    } while (0)
    ERR("select = [\"GM8\"]\n", "line 3: select: unknown rule selector \"GM8\"");
    ERR("colour = \"red\"\n", "line 3: unknown key 'colour'");
    ERR("torch-version = 2.13\n", "line 3: unsupported value");
    ERR("torch-version = \"two\"\n", "line 3: torch-version must be");
    ERR("capture-dynamic-output-shape-ops = \"yes\"\n", "line 3: capture-dynamic-output");
    ERR("select = [1]\n", "line 3: arrays in [tool.graphmend] may hold only strings");
    ERR("select = [\"GM1\"\n", "expected ',' or ']'");
    ERR("capture-scalar-outputs = false\n", "line 3: duplicate key");
    ERR("\nignore = \"GM401\"\n", "line 4: ignore must be an array");
    ERR("ignore = [\n\"GM401\",\n]\nx\n", "line 6: expected 'key = value'");
    ERR("select = [\"GM1\"] trailing\n", "line 3: unexpected text");
    ERR("name = \"a\n", "line 3: string not closed");
    ERR("[tool.graphmend.extra]\n", "line 3: only the [tool.graphmend] and "
                                     "[tool.graphmend.per-file-ignores] tables");
    ERR("exclude = \"build\"\n", "line 3: exclude must be an array of glob patterns");
    ERR("extend-select = [\"GM8\"]\n", "line 3: extend-select: unknown rule selector");
    ERR("per-file-ignores = 1\n", "line 3: write per-file-ignores as a [tool.graphmend.per-");
    ERR("[tool.graphmend.per-file-ignores]\n\"t/*\" = \"GM401\"\n",
        "line 4: per-file-ignores: each glob takes an array of rule ids");
    ERR("[tool.graphmend.per-file-ignores]\n\"t/*\" = [\"XX\"]\n",
        "line 4: per-file-ignores: unknown rule selector");
    ERR("[tool]\n[tool.graphmend]\n", "line 4: duplicate [tool.graphmend] table");
    ERR("torch-version = \"1.13\"\n", "line 3: torch-version must be from \"2.0\" to \"2.20\"");
    ERR("training = \"yes\"\n", "line 3: training must be true or false");
    ERR("compile-forward = \"no\"\n", "line 3: compile-forward must be true or false");
    ERR("torch-version = \"2.21\"\n", "line 3: torch-version must be from \"2.0\" to \"2.20\"");
    ERR("allow-rnn = \"yes\"\n", "line 3: allow-rnn must be true or false");
    ERR("fullgraph = [\"x\"]\n", "line 3: fullgraph must be true or false");
    ERR("nested-graph-breaks = \"on\"\n", "line 3: nested-graph-breaks must be true or false");
    ERR("reorderable-logging-functions = \"print\"\n",
        "line 3: reorderable-logging-functions must be an array");
    ERR("ignore-logging-functions = [\"logging..info\"]\n",
        "line 3: ignore-logging-functions: \"logging..info\" is not a dotted function name");
    ERR("ignore-logging-functions = [\"print()\"]\n", "is not a dotted function name");
    ERR("allow-rnn = true\nallow-rnn = false\n", "line 4: duplicate key 'allow-rnn'");
    ERR("python-version = 3.11\n", "line 3: unsupported value");
    ERR("python-version = \"three\"\n",
        "line 3: python-version must be a \"MAJOR.MINOR\" string such as \"3.11\"");
    ERR("python-version = \"3.11.2\"\n", "line 3: python-version must be a \"MAJOR.MINOR\"");
    ERR("python-version = [\"3.11\"]\n", "line 3: python-version must be a \"MAJOR.MINOR\"");
    ERR("python-version = \"3.8\"\n", "line 3: python-version must be from \"3.9\" to \"3.15\"");
    ERR("python-version = \"3.16\"\n", "line 3: python-version must be from \"3.9\" to \"3.15\"");
    ERR("python-version = \"2.7\"\n", "line 3: python-version must be from \"3.9\" to \"3.15\"");
    ERR("python-version = \"3.10\"\npython-version = \"3.11\"\n",
        "line 4: duplicate key 'python-version'");
#undef ERR
}

static void parses_versions_and_selectors(void) {
    int v = 0;
    CHECK(gm_parse_torch_version("2.13", &v) == 0 && v == 213);
    CHECK(gm_parse_torch_version("3.0", &v) == 0 && v == 300);
    CHECK(gm_parse_torch_version("2", &v) != 0);
    CHECK(gm_parse_torch_version("2.13.1", &v) != 0);
    CHECK(gm_parse_torch_version(".5", &v) != 0);
    gm_rule_selectors s;
    char error[128];
    const char *good[] = {"GM", "GM4", "GM401"};
    CHECK(gm_rule_selectors_set(&s, good, 3, error, sizeof error) == 0 && s.count == 3);
    const char *bad[] = {"GM4", "G401"};
    CHECK(gm_rule_selectors_set(&s, bad, 2, error, sizeof error) != 0);
    CHECK(strstr(error, "G401") != NULL);
    CHECK_EQ_INT(s.count, 3); /* unchanged */
    CHECK(gm_torch_version_supported(200) && gm_torch_version_supported(220));
    CHECK(!gm_torch_version_supported(113) && !gm_torch_version_supported(221));
    gm_function_names names;
    const char *ok[] = {"print", "builtins.print", "logging.Logger.info", "_m.f2"};
    CHECK(gm_function_names_set(&names, ok, 4, error, sizeof error) == 0 && names.count == 4);
    CHECK(gm_function_names_has(&names, "print") && gm_function_names_has(&names, "_m.f2"));
    CHECK(!gm_function_names_has(&names, "logging.info"));
    const char *not_names[] = {"print", "2x"};
    CHECK(gm_function_names_set(&names, not_names, 2, error, sizeof error) != 0);
    CHECK(strstr(error, "2x") != NULL);
    CHECK_EQ_INT(names.count, 4); /* unchanged */
    const char *trailing[] = {"logging."};
    CHECK(gm_function_names_set(&names, trailing, 1, error, sizeof error) != 0);
}

#define SOURCE                                                                                     \
    "import torch\n"                                                                               \
    "\n"                                                                                           \
    "@torch.compile\n"                                                                             \
    "def f(x: torch.Tensor):\n"                                                                    \
    "    print(x)\n"                                                                               \
    "    n = x.sum().item()\n"                                                                     \
    "    idx = torch.nonzero(x)\n"                                                                 \
    "    return x + n\n"

static size_t count_rule(const gm_analysis_options *options, const char *id) {
    gm_finding_list list;
    gm_finding_list_init(&list);
    CHECK(gm_analyze_source(SOURCE, strlen(SOURCE), options, &list) == 0);
    size_t n = 0;
    for (size_t i = 0; i < list.count; i++)
        n += strcmp(list.items[i].rule->id, id) == 0;
    gm_finding_list_free(&list);
    return n;
}

static void gates_rules(void) {
    gm_analysis_options o;
    gm_analysis_options_default(&o);
    CHECK_EQ_INT(count_rule(&o, "GM201"), 1);
    CHECK_EQ_INT(count_rule(&o, "GM301"), 1);
    CHECK_EQ_INT(count_rule(&o, "GM401"), 1);
    o.capture_scalar_outputs = true;
    CHECK_EQ_INT(count_rule(&o, "GM201"), 0);
    CHECK_EQ_INT(count_rule(&o, "GM301"), 1);
    o.capture_dynamic_output_shape_ops = true;
    CHECK_EQ_INT(count_rule(&o, "GM301"), 0);
    CHECK_EQ_INT(count_rule(&o, "GM401"), 1);
    gm_analysis_options_default(&o);
    const char *ignore[] = {"GM4"};
    CHECK(gm_rule_selectors_set(&o.ignore, ignore, 1, NULL, 0) == 0);
    CHECK_EQ_INT(count_rule(&o, "GM401"), 0);
    CHECK_EQ_INT(count_rule(&o, "GM201"), 1);
    gm_analysis_options_default(&o);
    const char *select[] = {"GM401"};
    CHECK(gm_rule_selectors_set(&o.select, select, 1, NULL, 0) == 0);
    CHECK_EQ_INT(count_rule(&o, "GM401"), 1);
    CHECK_EQ_INT(count_rule(&o, "GM201"), 0);
    CHECK_EQ_INT(count_rule(&o, "GM301"), 0);
}

/* The analyzer's cache must not keep findings of rules that the options now drop. */
static void cache_follows_options(void) {
    TSParser *parser = gm_python_parser_new(0);
    TSTree *tree = gm_python_parse(parser, NULL, SOURCE, strlen(SOURCE));
    gm_analyzer *a = gm_analyzer_new();
    gm_analysis_options o;
    gm_analysis_options_default(&o);
    size_t all = gm_analyzer_run(a, tree, SOURCE, strlen(SOURCE), &o)->count;
    CHECK(all >= 3);
    o.capture_scalar_outputs = true;
    CHECK_EQ_INT(gm_analyzer_run(a, tree, SOURCE, strlen(SOURCE), &o)->count, all - 1);
    const char *ignore[] = {"GM401"};
    CHECK(gm_rule_selectors_set(&o.ignore, ignore, 1, NULL, 0) == 0);
    CHECK_EQ_INT(gm_analyzer_run(a, tree, SOURCE, strlen(SOURCE), &o)->count, all - 2);
    gm_analysis_options_default(&o);
    CHECK_EQ_INT(gm_analyzer_run(a, tree, SOURCE, strlen(SOURCE), &o)->count, all);
    gm_analyzer_free(a);
    gm_tree_delete(tree);
    ts_parser_delete(parser);
}

/* The defaults docs/configuration.md's settings tables state. */
static void defaults_match_readme(void) {
    json_t *d = gm_settings_defaults_json();
    CHECK(json_is_true(json_object_get(d, "compileForward")));
    CHECK(json_is_false(json_object_get(d, "training")));
    CHECK(strcmp(json_string_value(json_object_get(d, "torchVersion")), "2.13") == 0);
    CHECK(json_is_null(json_object_get(d, "pythonVersion"))); /* from the project's Python */
    CHECK(json_is_false(json_object_get(d, "captureScalarOutputs")));
    CHECK(json_is_false(json_object_get(d, "captureDynamicOutputShapeOps")));
    json_t *select = json_object_get(d, "select");
    CHECK(json_array_size(select) == 1 &&
          strcmp(json_string_value(json_array_get(select, 0)), "GM") == 0);
    CHECK(json_array_size(json_object_get(d, "ignore")) == 0);
    CHECK(strcmp(json_string_value(json_object_get(d, "logLevel")), "info") == 0);
    CHECK(json_is_false(json_object_get(d, "allowRnn")));
    CHECK(json_is_false(json_object_get(d, "fullgraph")));
    CHECK(json_is_null(json_object_get(d, "nestedGraphBreaks")));
    CHECK(json_array_size(json_object_get(d, "reorderableLoggingFunctions")) == 0);
    CHECK(json_array_size(json_object_get(d, "ignoreLoggingFunctions")) == 0);
    json_decref(d);
}

/* exclude, extend-exclude and per-file-ignores are kept for the command line's walk and files;
 * extend-select adds to select. */
static void reads_project_files(void) {
    const char *text = "[tool.graphmend]\n"
                       "select = [\"GM2\"]\n"
                       "extend-select = [\"GM401\"]\n"
                       "exclude = [\"build\"]\n"
                       "extend-exclude = [\"gen/*\"]\n"
                       "\n"
                       "[tool.graphmend.per-file-ignores]\n"
                       "\"tests/*\" = [\"GM4\", \"GM201\"]  # noisy there\n"
                       "'__init__.py' = []\n";
    gm_analysis_options o;
    gm_analysis_options_default(&o);
    unsigned set = 0;
    char error[256] = "";
    gm_project_files *files = calloc(1, sizeof *files);
    CHECK_EQ_INT(gm_pyproject_parse(text, strlen(text), &o, &set, error, sizeof error), 0);
    CHECK(o.select.count == 2 && strcmp(o.select.items[1], "GM401") == 0);
    char dir[] = "/tmp/gm-project-files-XXXXXX", cwd[4096];
    CHECK(mkdtemp(dir) != NULL && getcwd(cwd, sizeof cwd) != NULL && chdir(dir) == 0);
    FILE *f = fopen("pyproject.toml", "w");
    CHECK(f != NULL);
    fputs(text, f);
    fclose(f);
    gm_analysis_options_default(&o);
    CHECK_EQ_INT(gm_pyproject_load_project("tests/x.py", &o, &set, files, error, sizeof error), 0);
    CHECK(files->root[0] == '/');
    CHECK(files->exclude_count == 2 && strcmp(files->exclude[1], "gen/*") == 0);
    CHECK(files->per_file_ignore_count == 2 && files->per_file_ignores[0].rules.count == 2);
    CHECK(gm_project_excludes(files, "build/m.py", NULL));
    CHECK(gm_project_excludes(files, "pkg/build/m.py", NULL)); /* a directory's name */
    CHECK(gm_project_excludes(files, "gen/sub/m.py", NULL));   /* `*` crosses `/`, as in ruff */
    CHECK(!gm_project_excludes(files, "build/m.py", "build")); /* the walk's start is kept */
    CHECK(!gm_project_excludes(files, "src/m.py", NULL));
    gm_rule_selectors ignore = {0};
    gm_project_add_file_ignores(files, "tests/t.py", &ignore);
    CHECK(ignore.count == 2 && strcmp(ignore.items[0], "GM4") == 0);
    ignore.count = 0;
    gm_project_add_file_ignores(files, "src/t.py", &ignore);
    CHECK(ignore.count == 0);
    remove("pyproject.toml");
    CHECK(chdir(cwd) == 0);
    rmdir(dir);
    free(files);
}

int main(void) {
    defaults_match_readme();
    reads_project_files();
    reads_the_table();
    reads_dynamo_settings();
    reads_region_keys();
    reads_python_version();
    rejects_what_it_does_not_know();
    parses_versions_and_selectors();
    gates_rules();
    cache_follows_options();
    return check_exit_code("server/config/pyproject_config");
}
