#include "server/cli/confirm_command.h"

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analyzer.h"
#include "server/config/pyproject_config.h"
#include "server/cli/job_runner.h"
#include "server/cli/run_options.h"
#include "server/config/settings.h"
#include "server/profile/confirm_report.h"
#include "server/profile/defaults.h"
#include "server/profile/job.h"
#include "server/profile/report.h"
#include "server/workspace/file_reader.h"

typedef struct {
    const char *path;
    gm_profile_request request;
    bool json;
    bool quiet;
} confirm_options;

typedef struct {
    const char *file, *entry;
    const gm_finding_list *findings;
    bool json;
    int status;
} confirm_run;

static void print_usage(FILE *out) {
    fprintf(out,
            "usage: graphmend confirm PATH [--entry NAME] [--python PYTHON]\n"
            "                         [--output-format text|json] [--timeout SECONDS]\n"
            "                         [--device auto|cuda|cpu] [--quiet]\n"
            "\n"
            "Runs PATH's entry function (default %s: no parameters,\n"
            "returns the model and a tuple of inputs) once under torch._dynamo.explain in a\n"
            "fresh Python process, and judges each graph break graphmend predicts in PATH:\n"
            "confirmed (dynamo broke on that line), not reached (dynamo did not trace the line\n"
            "on this input) or contradicted (traced, no break). Breaks dynamo found in PATH that\n"
            "graphmend did not predict are listed with dynamo's reason and registry id, then\n"
            "precision and recall of the predictions on that run. This executes the code of\n"
            "PATH. The interpreter is --python, else $GRAPHMEND_PYTHON, else python3.\n"
            "Exit status: 0 it ran, 2 error (no torch, no entry, the code raised, ...).\n"
            "\n"
            "options:\n"
            "  --entry NAME            the entry function (default %s)\n"
            "  --python PYTHON         the interpreter that runs the code (has torch)\n"
            "  --output-format FORMAT  text (default) or json\n"
            "  --timeout SECONDS       give up after this many seconds (default 600)\n"
            "  --device WHERE          auto (default: CUDA when there is one), cuda, cpu\n"
            "  -q, --quiet             no progress lines on stderr\n"
            "  -h, --help              this help\n",
            GM_PROFILE_DEFAULT_ENTRY, GM_PROFILE_DEFAULT_ENTRY);
}

/* Returns 0, -1 after --help, or 2 after printing the problem. */
static int parse_options(int argc, char **argv, confirm_options *options) {
    memset(options, 0, sizeof *options);
    gm_profile_request_default(&options->request);
    options->request.confirm = true;
    for (int i = 1; i < argc; i++) {
        int shared = gm_cli_run_option("graphmend confirm", argc, argv, &i, &options->request,
                                       &options->json);
        if (shared == 2) {
            return 2;
        }
        if (shared == 1) {
            continue;
        }
        const char *arg = argv[i];
        if (strcmp(arg, "--quiet") == 0 || strcmp(arg, "-q") == 0) {
            options->quiet = true;
        } else if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            print_usage(stdout);
            return -1;
        } else if (arg[0] == '-' && arg[1] != '\0') {
            fprintf(stderr, "graphmend confirm: unknown option '%s'\n", arg);
            print_usage(stderr);
            return 2;
        } else if (options->path) {
            fprintf(stderr, "graphmend confirm: one file at a time ('%s' and '%s')\n",
                    options->path, arg);
            return 2;
        } else {
            options->path = arg;
        }
    }
    if (!options->path) {
        fprintf(stderr, "graphmend confirm: no file given\n");
        print_usage(stderr);
        return 2;
    }
    return 0;
}

static void on_done(void *context, json_t *result) {
    confirm_run *run = context;
    if (!json_is_true(json_object_get(result, "ok"))) {
        if (run->json) {
            char *text = json_dumps(result, JSON_INDENT(2) | JSON_SORT_KEYS);
            if (text) {
                printf("%s\n", text);
                free(text);
            }
        }
        gm_profile_error_print_text_for(stderr, result, "graphmend confirm");
        run->status = 2;
        return;
    }
    json_t *report = gm_confirm_report_build(run->file, run->entry, run->findings, result);
    if (!report) {
        fprintf(stderr, "graphmend confirm: out of memory\n");
        run->status = 2;
        return;
    }
    if (run->json) {
        char *text = json_dumps(report, JSON_INDENT(2) | JSON_SORT_KEYS);
        if (text) {
            printf("%s\n", text);
            free(text);
        }
    } else {
        gm_confirm_report_print_text(stdout, report);
    }
    fflush(stdout);
    json_decref(report);
    run->status = 0;
}

/* graphmend's findings for the file, with the options of its pyproject.toml. Returns 0, or 2
 * after printing the problem. */
static int predict(const char *path, const char *text, size_t len, gm_finding_list *findings) {
    gm_analysis_options analysis;
    memset(&analysis, 0, sizeof analysis);
    gm_analysis_options_default_with_interpreter(&analysis);
    unsigned set = 0;
    char error[600];
    if (gm_pyproject_load_for_file(path, &analysis, &set, error, sizeof error) != 0) {
        fprintf(stderr, "graphmend confirm: invalid [tool.graphmend] in %s\n", error);
        return 2;
    }
    if (gm_analyze_source(text, len, &analysis, findings) != 0) {
        fprintf(stderr,
                "graphmend confirm: cannot analyse %s (too large, or the parser timed out)\n",
                path);
        return 2;
    }
    return 0;
}

int gm_cli_confirm(int argc, char **argv) {
    confirm_options options;
    int status = parse_options(argc, argv, &options);
    if (status != 0) {
        return status < 0 ? 0 : status;
    }
    char absolute[PATH_MAX];
    if (!realpath(options.path, absolute)) {
        fprintf(stderr, "graphmend confirm: cannot read %s: %s\n", options.path, strerror(errno));
        return 2;
    }
    size_t len = 0;
    char *text = gm_read_file(absolute, &len);
    if (!text) {
        fprintf(stderr, "graphmend confirm: cannot read %s: %s\n", absolute,
                gm_read_file_error(errno));
        return 2;
    }
    gm_finding_list findings;
    gm_finding_list_init(&findings);
    status = predict(absolute, text, len, &findings);
    if (status != 0) {
        gm_finding_list_free(&findings);
        free(text);
        return status;
    }
    options.request.display_path = absolute;
    options.request.original_text = text;
    options.request.original_len = len;

    confirm_run run = {.file = options.path,
                       .entry = options.request.entry,
                       .findings = &findings,
                       .json = options.json,
                       .status = 2};
    if (gm_cli_run_profile_job("graphmend confirm", &options.request, options.quiet, on_done,
                               &run) != 0) {
        run.status = 2;
    }
    gm_finding_list_free(&findings);
    free(text);
    return run.status;
}
