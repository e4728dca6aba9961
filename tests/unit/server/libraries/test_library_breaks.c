/* Installed packages on a real directory tree: the interpreter asked where a package is (a shell
 * wrapper that puts a temporary site directory on PYTHONPATH and counts its runs), the file
 * that defines a class a package re-exports lazily (a modular_*.py copy its __init__ never
 * names loses), and the breaks on a model's path with the cache that keeps them until a file
 * changes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "server/libraries/class_definition.h"
#include "server/libraries/library_breaks.h"
#include "server/libraries/library_finding.h"
#include "server/libraries/package_directory.h"
#include "server/packages/package_locate.h"

static char root[] = "/tmp/gm-libraries-XXXXXX";

static const char *in_root(const char *name) {
    static char path[2][512];
    static int turn;
    turn ^= 1;
    snprintf(path[turn], sizeof path[turn], "%s/%s", root, name);
    return path[turn];
}

static void make(const char *name, const char *text) {
    FILE *f = fopen(in_root(name), "w");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

static size_t runs_of_interpreter(void) {
    FILE *f = fopen(in_root("runs"), "r");
    size_t n = 0;
    for (int c; f && (c = fgetc(f)) != EOF;)
        n += c == '\n';
    if (f)
        fclose(f);
    return n;
}

static void build_tree(void) {
    CHECK(mkdtemp(root) != NULL);
    mkdir(in_root("site"), 0755);
    mkdir(in_root("site/tinylib"), 0755);
    mkdir(in_root("site/tinylib/models"), 0755);
    /* imported, it would leave a marker: nothing may import it */
    make("site/tinylib/__init__.py", "open(__file__ + '.imported', 'w').close()\n");
    make("site/tinylib/models/__init__.py", "from .modeling_tiny import *\n");
    make("site/tinylib/models/modular_tiny.py",
         "import torch.nn as nn\nclass TinyNet(nn.Module):\n    pass\n");
    make("site/tinylib/models/modeling_tiny.py",
         "import torch\nimport torch.nn as nn\nfrom ..ops import check\n"
         "class Layer(nn.Module):\n"
         "    def forward(self, x):\n        return check(x)\n"
         "class TinyNet(nn.Module):\n"
         "    def __init__(self):\n        super().__init__()\n"
         "        self.layers = nn.ModuleList([Layer() for _ in range(2)])\n"
         "    def forward(self, x):\n"
         "        for layer in self.layers:\n            x = layer(x)\n        return x\n"
         "class Other(nn.Module):\n"
         "    def forward(self, x):\n        return x.item()\n");
    make("site/tinylib/ops.py",
         "import torch\ndef check(h):\n    if h.max() > 1:\n        h = h / 2\n    return h\n");
    char script[1024];
    snprintf(script, sizeof script,
             "#!/bin/sh\necho run >> %s/runs\nPYTHONPATH=%s/site exec python3 \"$@\"\n", root,
             root);
    make("python", script);
    chmod(in_root("python"), 0755);
}

static void package_names(void) {
    CHECK(gm_package_name_valid("transformers"));
    CHECK(gm_package_name_valid("_private2"));
    CHECK(!gm_package_name_valid(""));
    CHECK(!gm_package_name_valid("2fast"));
    CHECK(!gm_package_name_valid("a.b"));
    CHECK(!gm_package_name_valid("-c"));
    CHECK(!gm_package_name_valid("x; rm -rf /"));
}

static void package_directories(void) {
    char dir[1024], error[512], expected[1024];
    CHECK_EQ_INT(gm_package_directory(in_root("python"), "tinylib", dir, sizeof dir, error,
                                      sizeof error),
                 0);
    snprintf(expected, sizeof expected, "%s/site/tinylib", root);
    CHECK_EQ_STR(dir, expected);
    CHECK(access(in_root("site/tinylib/__init__.py.imported"), F_OK) != 0);
    CHECK_EQ_INT(gm_package_directory(in_root("python"), "not_there_at_all", dir, sizeof dir,
                                      error, sizeof error),
                 -1);
    CHECK(strstr(error, "package 'not_there_at_all' is not installed for") != NULL);
    CHECK_EQ_INT(gm_package_directory(in_root("no-such-python"), "tinylib", dir, sizeof dir,
                                      error, sizeof error),
                 -1);
    CHECK(strstr(error, "cannot run the Python interpreter") != NULL);
    /* a module, not a package: nothing to follow */
    CHECK_EQ_INT(gm_package_directory(in_root("python"), "json", dir, sizeof dir, error,
                                      sizeof error) == 0 ||
                     strstr(error, "single module") == NULL,
                 1);
}

static void class_definitions(void) {
    char path[1024];
    /* lazily re-exported: found by search; the modular copy its __init__ never names loses */
    CHECK_EQ_INT(gm_find_class_definition(in_root("site/tinylib"), "tinylib.TinyNet", path,
                                          sizeof path),
                 0);
    CHECK_EQ_STR(path, in_root("site/tinylib/models/modeling_tiny.py"));
    /* named by its module */
    CHECK_EQ_INT(gm_find_class_definition(in_root("site/tinylib"),
                                          "tinylib.models.modeling_tiny.Layer", path,
                                          sizeof path),
                 0);
    CHECK_EQ_STR(path, in_root("site/tinylib/models/modeling_tiny.py"));
    CHECK_EQ_INT(gm_find_class_definition(in_root("site/tinylib"), "tinylib.Missing", path,
                                          sizeof path),
                 -1);
}

static void reports_and_cache(void) {
    gm_library_cache *cache = gm_library_cache_new();
    CHECK(cache != NULL);
    gm_analysis_options options;
    gm_analysis_options_default(&options);
    size_t runs = runs_of_interpreter();
    gm_library_report r;
    CHECK_EQ_INT(gm_library_report_get(cache, in_root("python"), "tinylib.TinyNet", &options,
                                       NULL, &r),
                 0);
    CHECK(r.error == NULL);
    CHECK_EQ_STR(r.package, "tinylib");
    CHECK_EQ_STR(r.class_name, "TinyNet");
    CHECK_EQ_INT((int)r.classes, 2); /* TinyNet and the Layer it builds */
    /* the branch in ops.check, which Layer.forward calls; not Other's .item() */
    CHECK_EQ_INT((int)r.break_count, 1);
    if (r.break_count == 1) {
        CHECK_EQ_STR(r.breaks[0].path, in_root("site/tinylib/ops.py"));
        CHECK_EQ_INT((int)r.breaks[0].start_row, 2);
        CHECK_EQ_STR(r.breaks[0].rule->id, "GM101");
        CHECK_EQ_STR(r.breaks[0].start_line, "    if h.max() > 1:");
    }
    gm_library_report_free(&r);
    CHECK_EQ_INT((int)(runs_of_interpreter() - runs), 1);
    /* asked again: from the cache, without the interpreter */
    CHECK_EQ_INT(gm_library_report_get(cache, in_root("python"), "tinylib.TinyNet", &options,
                                       NULL, &r),
                 0);
    CHECK_EQ_INT((int)r.break_count, 1);
    gm_library_report_free(&r);
    CHECK_EQ_INT((int)(runs_of_interpreter() - runs), 1);
    /* a file of the path changes: analysed again (the package's place is still known) */
    make("site/tinylib/ops.py", "import torch\ndef check(h):\n    if h.max() > 1:\n"
                                "        h = h / 2\n    print(h)\n    return h\n");
    CHECK_EQ_INT(gm_library_report_get(cache, in_root("python"), "tinylib.TinyNet", &options,
                                       NULL, &r),
                 0);
    CHECK_EQ_INT((int)r.break_count, 2);
    gm_library_report_free(&r);
    CHECK_EQ_INT((int)(runs_of_interpreter() - runs), 1);
    /* a package the interpreter lacks: said in error, no breaks */
    CHECK_EQ_INT(gm_library_report_get(cache, in_root("python"), "nolib.Model", &options, NULL,
                                       &r),
                 0);
    CHECK(r.error && strstr(r.error, "not installed"));
    CHECK_EQ_INT((int)r.break_count, 0);
    gm_library_report_free(&r);
    /* the user's file is in the project that holds the package: the project's own code */
    make(".git", "");
    make("site/train.py", "");
    CHECK_EQ_INT(gm_library_report_get(cache, in_root("python"), "tinylib.TinyNet", &options,
                                       in_root("site/train.py"), &r),
                 0);
    CHECK(r.error && strstr(r.error, "is part of the project"));
    gm_library_report_free(&r);
    CHECK(access(in_root("site/tinylib/__init__.py.imported"), F_OK) != 0);
    gm_library_cache_free(cache);
}

/* A break that only follows another (GM606's comprehension frame) makes no finding on its own
 * and is not counted; a break under a condition is counted and says it. */
static void finding_counts(void) {
    gm_library_break breaks[3] = {
        {.path = "/site/pkg/a.py", .start_row = 9, .rule = gm_rule_by_id("GM608"),
         .message = "buffer conversion", .condition = "when `x is y` holds"},
        {.path = "/site/pkg/b.py", .start_row = 4, .rule = gm_rule_by_id("GM606"),
         .message = "comprehension frame", .condition = "when `f() breaks` holds",
         .follows_other_break = true},
        {.path = "/site/pkg/b.py", .start_row = 7, .rule = gm_rule_by_id("GM101"),
         .message = "branch"},
    };
    gm_library_report report = {.package = "pkg", .breaks = breaks, .break_count = 3};
    gm_compile_site site = {.class_as_written = "Net"};
    gm_finding finding;
    CHECK_EQ_INT((int)gm_library_certain_breaks(&report), 2);
    CHECK_EQ_INT(gm_library_finding(&report, &site, true, &finding), 0);
    CHECK(strstr(finding.message, "predicts 2 graph breaks in pkg on the path of `Net`, in 2 "
                                  "files of the package, and 1 more that breaks only when "
                                  "another does") != NULL);
    CHECK(strstr(finding.message, "pkg/a.py:10:1 GM608 (buffer conversion), only when `x is y` "
                                  "holds") != NULL);
    gm_finding_free(&finding);
    report.break_count = 2; /* the conversion and the comprehension, */
    breaks[0].follows_other_break = true; /* both only following others: no finding */
    CHECK_EQ_INT(gm_library_finding(&report, &site, false, &finding), 1);
}

int main(void) {
    build_tree();
    package_names();
    package_directories();
    class_definitions();
    reports_and_cache();
    finding_counts();
    char command[600];
    snprintf(command, sizeof command, "rm -rf '%s'", root);
    CHECK_EQ_INT(system(command), 0);
    return check_exit_code("server/libraries/library_breaks");
}
