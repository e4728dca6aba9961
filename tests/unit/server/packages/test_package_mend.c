/* Packages mended into the cache: a helper that only another module's compiled code reaches is
 * mended (the package is one workspace), a file that is not UTF-8 is left as installed with the
 * reason in the map, a second run reads the manifest and analyses nothing, a changed file is
 * mended again, unsafe mends are a setting of their own; and the interpreter, not a guess, says
 * where a package is. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "server/packages/mend_cache.h"
#include "server/packages/package_locate.h"
#include "server/packages/package_mend.h"
#include "server/workspace/file_reader.h"

static char root[] = "/tmp/gm-package-mend-XXXXXX";

static const char *in_root(const char *name) {
    static char paths[4][512];
    static int turn;
    char *path = paths[turn++ % 4];
    snprintf(path, 512, "%s/%s", root, name);
    return path;
}

static void make(const char *name, const char *text) {
    FILE *f = fopen(in_root(name), "w");
    CHECK(f != NULL);
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* helpers.py alone has no compiled code: only model.py's forward makes scale() traced. */
static const char helpers_py[] = "import torch\n"
                                 "\n"
                                 "\n"
                                 "def scale(x: torch.Tensor) -> torch.Tensor:\n"
                                 "    return x * 2 if x.sum() > 0 else x\n";
static const char model_py[] = "import torch\n"
                               "\n"
                               "from .helpers import scale\n"
                               "\n"
                               "\n"
                               "class Model(torch.nn.Module):\n"
                               "    def forward(self, x):\n"
                               "        return scale(x)\n";

static gm_package_locations package_here(void) {
    gm_package_locations where = {.python_version = 311};
    where.items = calloc(1, sizeof *where.items);
    where.count = 1;
    where.items[0].name = strdup("pkg");
    gm_path_list_push(&where.items[0].roots, strdup(in_root("pkg")));
    return where;
}

static char *map_text(const char *path) {
    size_t len = 0;
    char *text = gm_read_file(path, &len);
    CHECK(text != NULL);
    return text ? text : strdup("");
}

static void mends_a_package_through_the_cache(void) {
    char cache_home[512];
    snprintf(cache_home, sizeof cache_home, "%s", in_root("cache"));
    unsetenv("GRAPHMEND_CACHE_DIR"); /* it would win over XDG_CACHE_HOME */
    setenv("XDG_CACHE_HOME", cache_home, 1);
    CHECK_EQ_INT(mkdir(in_root("pkg"), 0755), 0);
    make("pkg/__init__.py", "from .model import Model\n");
    make("pkg/helpers.py", helpers_py);
    make("pkg/model.py", model_py);
    make("pkg/legacy.py", "# -*- coding: latin-1 -*-\nNAME = 'caf\xe9'\n");
    gm_package_locations where = package_here();
    gm_analysis_options options;
    gm_analysis_options_default(&options);
    options.python_version = 311;
    char map[4200], launcher[4200], error[600] = "";
    gm_package_mend_stats stats;
    CHECK_EQ_INT(gm_mend_packages(&where, &options, map, sizeof map, launcher, sizeof launcher,
                                  &stats, error, sizeof error),
                 0);
    CHECK_EQ_STR(error, "");
    CHECK_EQ_INT((int)stats.files, 4);
    CHECK_EQ_INT((int)stats.analysed, 4);
    CHECK_EQ_INT((int)stats.mended_files, 1); /* helpers.py, for model.py's forward */
    CHECK_EQ_INT((int)stats.mends, 1);
    CHECK_EQ_INT((int)stats.failed_files, 1);
    char *text = map_text(map);
    char expected[600];
    snprintf(expected, sizeof expected, "mended\t%s\t", in_root("pkg/helpers.py"));
    CHECK(strstr(text, expected) != NULL);
    CHECK(strstr(text, "\tkept\n") != NULL);
    snprintf(expected, sizeof expected, "failed\t%s\tnot UTF-8", in_root("pkg/legacy.py"));
    CHECK(strstr(text, expected) != NULL);
    CHECK(strstr(text, "package\tpkg\n") == text);
    /* the mended copy holds the mend; the installed file is as it was */
    const char *copy = strstr(text, "mended\t");
    char copy_path[600] = "";
    if (copy) {
        copy = strchr(copy + 7, '\t') + 1;
        snprintf(copy_path, sizeof copy_path, "%.*s", (int)(strchr(copy, '\t') - copy), copy);
    }
    size_t len = 0;
    char *mended = gm_read_file(copy_path, &len);
    CHECK(mended && strstr(mended, "torch.where(x.sum() > 0, x * 2, x)") != NULL);
    free(mended);
    char *installed = gm_read_file(in_root("pkg/helpers.py"), &len);
    CHECK(installed && strcmp(installed, helpers_py) == 0);
    free(installed);
    CHECK(gm_cache_has(launcher));
    free(text);

    /* again: every file as recorded, nothing analysed, the same map */
    char again[4200];
    CHECK_EQ_INT(gm_mend_packages(&where, &options, again, sizeof again, launcher,
                                  sizeof launcher, &stats, error, sizeof error),
                 0);
    CHECK_EQ_INT((int)stats.analysed, 0);
    CHECK_EQ_INT((int)stats.mended_files, 1);
    CHECK_EQ_STR(again, map);

    /* a changed file: analysed again, a new copy */
    make("pkg/helpers.py", "import torch\n\n\ndef scale(x: torch.Tensor) -> torch.Tensor:\n"
                           "    return x * 3 if x.sum() > 0 else x\n");
    CHECK_EQ_INT(gm_mend_packages(&where, &options, again, sizeof again, launcher,
                                  sizeof launcher, &stats, error, sizeof error),
                 0);
    CHECK_EQ_INT((int)stats.analysed, 4);
    CHECK(strcmp(again, map) != 0);
    text = map_text(again);
    CHECK(strstr(text, copy_path) == NULL);
    free(text);

    /* unsafe mends: another settings key, so another manifest and other copies */
    gm_analysis_options unsafe = options;
    unsafe.unsafe_fixes = true;
    CHECK(gm_mend_settings_key(&unsafe) != gm_mend_settings_key(&options));
    gm_analysis_options same = options;
    CHECK(gm_mend_settings_key(&same) == gm_mend_settings_key(&options));
    CHECK_EQ_INT(gm_mend_packages(&where, &unsafe, again, sizeof again, launcher,
                                  sizeof launcher, &stats, error, sizeof error),
                 0);
    CHECK_EQ_INT((int)stats.analysed, 4);
    gm_package_locations_free(&where);
}

static void cache_directory_follows_xdg_then_home(void) {
    char path[4096], error[300];
    unsetenv("GRAPHMEND_CACHE_DIR");
    setenv("XDG_CACHE_HOME", in_root("xdg"), 1);
    CHECK_EQ_INT(gm_mend_cache_root(path, sizeof path, error, sizeof error), 0);
    char expected[600];
    snprintf(expected, sizeof expected, "%s/graphmend", in_root("xdg"));
    CHECK_EQ_STR(path, expected);
    setenv("XDG_CACHE_HOME", "relative/ignored", 1); /* the XDG spec ignores relative paths */
    setenv("HOME", in_root("home"), 1);
    CHECK_EQ_INT(gm_mend_cache_root(path, sizeof path, error, sizeof error), 0);
    snprintf(expected, sizeof expected, "%s/.cache/graphmend", in_root("home"));
    CHECK_EQ_STR(path, expected);
    make("blocker", "a file where the cache would go\n");
    setenv("XDG_CACHE_HOME", in_root("blocker"), 1);
    CHECK_EQ_INT(gm_mend_cache_root(path, sizeof path, error, sizeof error), -1);
    CHECK(strstr(error, "cannot make the cache directory") != NULL);
}

static void the_interpreter_says_where_packages_are(void) {
    gm_package_locations where;
    char error[600] = "";
    const char *json[] = {"json"};
    if (gm_locate_packages("python3", json, 1, &where, error, sizeof error) != 0) {
        fprintf(stderr, "no python3 to ask (%s): skipping the interpreter checks\n", error);
        return;
    }
    CHECK_EQ_INT((int)where.count, 1);
    CHECK(where.python_version >= 300);
    CHECK(where.items[0].roots.count == 1 &&
          strstr(where.items[0].roots.paths[0], "/json") != NULL);
    gm_package_locations_free(&where);
    const char *missing[] = {"json", "no_such_package_graphmend_test"};
    CHECK_EQ_INT(gm_locate_packages("python3", missing, 2, &where, error, sizeof error), -1);
    CHECK(strstr(error, "no_such_package_graphmend_test") && strstr(error, "not installed"));
    const char *bad[] = {"scikit-learn"};
    CHECK_EQ_INT(gm_locate_packages("python3", bad, 1, &where, error, sizeof error), -1);
    CHECK(strstr(error, "not a top-level import name") != NULL);
    CHECK_EQ_INT(gm_locate_packages("/no/such/python", json, 1, &where, error, sizeof error), -1);
    CHECK(strstr(error, "cannot start") != NULL);
}

int main(void) {
    if (!mkdtemp(root)) {
        perror("mkdtemp");
        return 1;
    }
    mends_a_package_through_the_cache();
    cache_directory_follows_xdg_then_home();
    the_interpreter_says_where_packages_are();
    char command[600];
    snprintf(command, sizeof command, "rm -rf '%s'", root);
    if (system(command) != 0) {
        fprintf(stderr, "could not remove %s\n", root);
    }
    return check_exit_code("package_mend");
}
