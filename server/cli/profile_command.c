#include "server/cli/profile_command.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/mend_apply.h"
#include "server/cli/job_runner.h"
#include "server/cli/mended_packages.h"
#include "server/cli/run_options.h"
#include "server/config/pyproject_config.h"
#include "server/profile/defaults.h"
#include "server/profile/job.h"
#include "server/profile/report.h"
#include "server/workspace/file_reader.h"

typedef struct {
    const char *path;
    gm_profile_request request;
    bool json;
    bool unsafe_fixes;
    bool quiet;
    gm_package_names packages; /* --packages: mended in the mended arm */
} profile_options;

typedef struct {
    bool json;
    int status;
} profile_run;

static void print_usage(FILE *out) {
    fprintf(
        out,
        "usage: graphmend profile PATH [--entry NAME] [--device auto|cuda|cpu] [--python PYTHON]\n"
        "                         [--output-format text|json] [--unsafe-fixes] [--timeout "
        "SECONDS]\n"
        "                         [--iterations N] [--warmup N] [--mode MODE] [--backend BACKEND]\n"
        "                         [--packages NAMES] [--quiet]\n"
        "\n"
        "Runs PATH's entry function (default %s: no parameters,\n"
        "returns the model and a tuple of inputs) in two fresh Python processes, as written\n"
        "and with graphmend's mends applied to a private copy, and compares graphs, breaks,\n"
        "compile time, cold-start and steady-state latency and outputs. This executes the\n"
        "code of PATH. The interpreter is --python, else $GRAPHMEND_PYTHON, else python3.\n"
        "--backend aot_eager counts graphs without generating code; --mode reduce-overhead\n"
        "uses CUDA graphs (launches counted on CUDA). When no mend applies at the fix level,\n"
        "nothing runs. --packages transformers,diffusers: the mended arm also imports those\n"
        "installed packages mended (as `graphmend run` does; their files are never written),\n"
        "the original arm as installed. Exit status: 0 profiled (or nothing to compare), 2\n"
        "error.\n"
        "\n"
        "options:\n"
        "  --entry NAME            the entry function (default %s)\n"
        "  --device WHERE          auto (default: CUDA when there is one), cuda, cpu\n"
        "  --python PYTHON         the interpreter that runs the code (has torch)\n"
        "  --output-format FORMAT  text (default) or json\n"
        "  --unsafe-fixes          mend with the unsafe mends too\n"
        "  --timeout SECONDS       give up after this many seconds (default 600)\n"
        "  --iterations N          timed steady-state calls (default 50)\n"
        "  --warmup N              untimed calls before them (default 5)\n"
        "  --mode MODE             torch.compile's mode: default, reduce-overhead,\n"
        "                          max-autotune, max-autotune-no-cudagraphs\n"
        "  --backend BACKEND       torch.compile's backend: inductor (default), aot_eager,\n"
        "                          eager\n"
        "  --packages NAMES        also mend these installed packages in the mended arm\n"
        "  -q, --quiet             no progress lines on stderr\n"
        "  -h, --help              this help\n",
        GM_PROFILE_DEFAULT_ENTRY, GM_PROFILE_DEFAULT_ENTRY);
}

static int parse_int(const char *flag, const char *text, int low, int *out) {
    char *end = NULL;
    long value = strtol(text, &end, 10);
    if (!text[0] || *end || value < low || value > 1000000) {
        fprintf(stderr, "graphmend profile: %s needs a whole number >= %d, not '%s'\n", flag, low,
                text);
        return 2;
    }
    *out = (int)value;
    return 0;
}

/* Returns 0, or 2 after printing the problem. */
static int parse_options(int argc, char **argv, profile_options *options) {
    memset(options, 0, sizeof *options);
    gm_profile_request_default(&options->request);
    for (int i = 1; i < argc; i++) {
        int shared = gm_cli_run_option("graphmend profile", argc, argv, &i, &options->request,
                                       &options->json);
        if (shared == 2) {
            return 2;
        }
        if (shared == 1) {
            continue;
        }
        const char *arg = argv[i];
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        bool takes_value = strcmp(arg, "--iterations") == 0 || strcmp(arg, "--warmup") == 0 ||
                           strcmp(arg, "--mode") == 0 || strcmp(arg, "--backend") == 0 ||
                           strcmp(arg, "--packages") == 0;
        if (takes_value && !value) {
            fprintf(stderr, "graphmend profile: %s needs a value\n", arg);
            return 2;
        }
        if (takes_value) {
            i++;
        }
        if (strcmp(arg, "--iterations") == 0) {
            if (parse_int(arg, value, 1, &options->request.iterations) != 0) {
                return 2;
            }
        } else if (strcmp(arg, "--warmup") == 0) {
            if (parse_int(arg, value, 0, &options->request.warmup) != 0) {
                return 2;
            }
        } else if (strcmp(arg, "--mode") == 0) {
            if (!gm_profile_mode_valid(value)) {
                fprintf(stderr, "graphmend profile: unknown mode '%s' (%s)\n", value,
                        GM_PROFILE_MODES);
                return 2;
            }
            options->request.mode = value;
        } else if (strcmp(arg, "--backend") == 0) {
            if (!gm_profile_backend_valid(value)) {
                fprintf(stderr, "graphmend profile: unknown backend '%s' (%s)\n", value,
                        GM_PROFILE_BACKENDS);
                return 2;
            }
            options->request.backend = value;
        } else if (strcmp(arg, "--packages") == 0) {
            if (gm_cli_add_package_names("graphmend profile", value, &options->packages) != 0) {
                return 2;
            }
        } else if (strcmp(arg, "--unsafe-fixes") == 0) {
            options->unsafe_fixes = true;
        } else if (strcmp(arg, "--quiet") == 0 || strcmp(arg, "-q") == 0) {
            options->quiet = true;
        } else if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            print_usage(stdout);
            exit(0);
        } else if (arg[0] == '-' && arg[1] != '\0') {
            fprintf(stderr, "graphmend profile: unknown option '%s'\n", arg);
            print_usage(stderr);
            return 2;
        } else if (options->path) {
            fprintf(stderr, "graphmend profile: one file at a time ('%s' and '%s')\n",
                    options->path, arg);
            return 2;
        } else {
            options->path = arg;
        }
    }
    if (!options->path) {
        fprintf(stderr, "graphmend profile: no file given\n");
        print_usage(stderr);
        return 2;
    }
    return 0;
}

static void on_done(void *context, json_t *result) {
    profile_run *run = context;
    bool ok = json_is_true(json_object_get(result, "ok"));
    if (run->json) {
        char *text = json_dumps(result, JSON_INDENT(2) | JSON_SORT_KEYS);
        if (text) {
            printf("%s\n", text);
            free(text);
        }
    } else if (ok) {
        gm_profile_report_print_text(stdout, result);
    }
    if (!ok) {
        gm_profile_error_print_text(stderr, result);
    }
    fflush(stdout);
    run->status = ok ? 0 : 2;
}

/* The file's text and its mended copy, with the options of its pyproject.toml. Returns 0, or 2
 * after printing the problem. */
static int prepare_texts(const char *path, bool *unsafe, char **text, size_t *len, char **mended,
                         size_t *mended_len, size_t *applied) {
    *text = gm_read_file(path, len);
    if (!*text) {
        fprintf(stderr, "graphmend profile: cannot read %s: %s\n", path,
                gm_read_file_error(errno));
        return 2;
    }
    gm_analysis_options analysis;
    memset(&analysis, 0, sizeof analysis); /* the default leaves fields it does not know alone */
    gm_analysis_options_default_with_interpreter(&analysis);
    unsigned set = 0;
    char error[600];
    if (gm_pyproject_load_for_file(path, &analysis, &set, error, sizeof error) != 0) {
        fprintf(stderr, "graphmend profile: invalid [tool.graphmend] in %s\n", error);
        return 2;
    }
    *applied = 0;
    *unsafe = *unsafe || analysis.unsafe_fixes; /* unsafe-fixes = true in pyproject.toml */
    *mended = gm_mend_text(*text, *len, *unsafe, &analysis, NULL, 0, mended_len, applied);
    if (!*mended) {
        fprintf(stderr, "graphmend profile: out of memory mending %s\n", path);
        return 2;
    }
    return 0;
}

/* Says that no mend applies, without running anything. Returns 0, or 2 when the file's
 * settings cannot be read again. */
static int nothing_to_compare(const char *path, const char *text, size_t len,
                              const profile_options *options) {
    gm_analysis_options analysis;
    memset(&analysis, 0, sizeof analysis);
    gm_analysis_options_default_with_interpreter(&analysis);
    unsigned set = 0;
    char error[600];
    if (gm_pyproject_load_for_file(path, &analysis, &set, error, sizeof error) != 0) {
        fprintf(stderr, "graphmend profile: invalid [tool.graphmend] in %s\n", error);
        return 2;
    }
    json_t *answer = gm_profile_nothing_to_compare(path, text, len, &analysis, NULL, 0,
                                                   options->unsafe_fixes, "--unsafe-fixes");
    if (options->json) {
        char *dumped = json_dumps(answer, JSON_INDENT(2) | JSON_SORT_KEYS);
        if (dumped) {
            printf("%s\n", dumped);
            free(dumped);
        }
    } else {
        gm_profile_report_print_text(stdout, answer);
    }
    json_decref(answer);
    return 0;
}

static int profile(profile_options *options);

int gm_cli_profile(int argc, char **argv) {
    profile_options options;
    int status = parse_options(argc, argv, &options);
    if (status == 0) {
        status = profile(&options);
    }
    gm_package_names_free(&options.packages);
    return status;
}

static int profile(profile_options *given) {
    profile_options options = *given;
    int status;
    char absolute[PATH_MAX];
    if (!realpath(options.path, absolute)) {
        fprintf(stderr, "graphmend profile: cannot read %s: %s\n", options.path, strerror(errno));
        return 2;
    }
    char *text = NULL, *mended = NULL;
    size_t len = 0, mended_len = 0, applied = 0;
    status =
        prepare_texts(absolute, &options.unsafe_fixes, &text, &len, &mended, &mended_len, &applied);
    if (status != 0) {
        free(text);
        free(mended);
        return status;
    }
    gm_mended_packages *packages = NULL;
    if (options.packages.count > 0) {
        packages = calloc(1, sizeof *packages);
        status = packages ? gm_cli_mend_packages("graphmend profile", options.request.python,
                                                 &options.packages, absolute,
                                                 options.unsafe_fixes, options.quiet, packages)
                          : 2;
        if (status != 0 || packages->stats.mends == 0) {
            free(packages); /* no package mend: the arms differ by the file's mends only */
            packages = NULL;
        }
        if (status != 0) {
            free(text);
            free(mended);
            return status;
        }
    }
    size_t package_mends = packages ? packages->stats.mends : 0;
    if (packages) {
        options.request.mended_imports_launcher = packages->launcher;
        options.request.mended_imports_map = packages->map;
    }
    if (applied + package_mends == 0) {
        /* Both arms would run the same code: a difference would be noise only. */
        status = nothing_to_compare(absolute, text, len, &options);
        free(text);
        free(mended);
        return status;
    }
    options.request.display_path = absolute;
    options.request.original_text = text;
    options.request.original_len = len;
    options.request.mended_text = mended;
    options.request.mended_len = mended_len;
    options.request.mends_applied = applied;
    options.request.package_mends = package_mends;
    options.request.unsafe_fixes = options.unsafe_fixes;
    if (!options.quiet) {
        fprintf(stderr, "graphmend profile: %zu mend%s applied to the copy%s%s\n", applied,
                applied == 1 ? "" : "s",
                package_mends ? ", the packages' mended modules imported in the mended arm" : "",
                options.unsafe_fixes ? "" : " (unsafe ones too with --unsafe-fixes)");
    }

    profile_run run = {.json = options.json, .status = 2};
    if (gm_cli_run_profile_job("graphmend profile", &options.request, options.quiet, on_done,
                               &run) != 0) {
        run.status = 2;
    }
    free(text);
    free(mended);
    free(packages);
    return run.status;
}
