#include "server/cli/commands.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analyzer.h"
#include "analysis/mend_apply.h"
#include "server/cli/check_analysis.h"
#include "server/cli/file_rewrite.h"
#include "server/cli/report.h"
#include "server/cli/unified_diff.h"
#include "server/config/pyproject_config.h"
#include "server/workspace/file_reader.h"
#include "server/workspace/python_files.h"
#include "server/workspace/workspace_index.h"

/* Most files of the workspace read to follow compiled code across imports. */
#define MAX_WORKSPACE_FILES 20000

typedef struct {
    gm_output_format format;
    bool diff;
    gm_path_list files;
    bool path_error;
    gm_analysis_options rules; /* --select / --ignore, as the bits of rules_set say */
    unsigned rules_set;
} cli_options;

static void print_usage(FILE *out, const char *command) {
    if (strcmp(command, "check") == 0) {
        fprintf(out, "usage: graphmend check [--output-format text|json|sarif] [--select IDS] "
                     "[--ignore IDS] PATHS...\n");
    } else {
        fprintf(out, "usage: graphmend fix [--unsafe-fixes|--no-unsafe-fixes] [--diff] [--select "
                     "IDS] [--ignore IDS] "
                     "PATHS...\n");
    }
}

/* --select/--ignore value: comma-separated rule ids or prefixes. Returns 0, or 2. */
static int parse_selectors(const char *flag, const char *list, gm_rule_selectors *target) {
    char copy[512];
    const char *ids[GM_MAX_RULE_SELECTORS];
    size_t count = 0;
    snprintf(copy, sizeof copy, "%s", list);
    for (char *save = NULL, *id = strtok_r(copy, ", ", &save); id;
         id = strtok_r(NULL, ", ", &save)) {
        if (count == GM_MAX_RULE_SELECTORS) {
            fprintf(stderr, "graphmend: too many rule selectors in %s\n", flag);
            return 2;
        }
        ids[count++] = id;
    }
    char error[128];
    if (gm_rule_selectors_set(target, ids, count, error, sizeof error) != 0) {
        fprintf(stderr, "graphmend: %s: %s\n", flag, error);
        return 2;
    }
    return 0;
}

/* The options for the file at path: defaults (python_version that of the python3 on PATH), its
 * pyproject.toml, then the command line.
 * Returns 0, or -1 after printing the problem with the pyproject.toml. */
static int file_options(const char *path, const cli_options *cli, gm_analysis_options *options) {
    gm_analysis_options_default_with_interpreter(options);
    unsigned set = 0;
    char error[600];
    if (gm_pyproject_load_for_file(path, options, &set, error, sizeof error) != 0) {
        fprintf(stderr, "graphmend: invalid [tool.graphmend] in %s\n", error);
        return -1;
    }
    gm_analysis_options_overlay(options, &cli->rules, cli->rules_set);
    return 0;
}

/* Adds the rest of each file's project and the workspace files they import, transitively (compiled
 * code there may call into the given files), then follows calls across them. NULL on OOM (the
 * workspace is freed): each file is then analysed alone. */
static gm_workspace_index *complete_workspace(gm_workspace_index *workspace,
                                              const cli_options *cli) {
    if (!workspace) {
        return NULL;
    }
    gm_analysis_options options;
    gm_analysis_options_default(&options);
    char previous[4096] = "";
    for (size_t i = 0; i < cli->files.count; i++) {
        char root[4096];
        gm_workspace_scan_stats stats;
        if (gm_project_root_for_path(cli->files.paths[i], root, sizeof root) == 0 &&
            strcmp(root, previous) != 0) {
            gm_workspace_index_scan(workspace, root, &options, MAX_WORKSPACE_FILES, &stats);
            snprintf(previous, sizeof previous, "%s", root);
        }
    }
    if (gm_workspace_index_load_imports(workspace, &options, MAX_WORKSPACE_FILES) != 0 ||
        gm_workspace_index_solve(workspace) != 0) {
        gm_workspace_index_free(workspace);
        return NULL;
    }
    return workspace;
}

/* The modules of the paths and the workspace files they import, transitively, for calls from
 * compiled code of one file into another. NULL on OOM: each file is then analysed alone. */
static gm_workspace_index *build_workspace(const cli_options *cli) {
    gm_workspace_index *workspace = gm_workspace_index_new();
    if (!workspace) {
        return NULL;
    }
    gm_analysis_options options;
    for (size_t i = 0; i < cli->files.count; i++) {
        if (file_options(cli->files.paths[i], cli, &options) == 0) {
            gm_workspace_index_add_file(workspace, cli->files.paths[i], &options);
        }
    }
    return complete_workspace(workspace, cli);
}

/* The functions of path that compiled code of other files calls. */
static const char *const *external_roots(const gm_workspace_index *workspace, const char *path,
                                         size_t *count) {
    uint64_t digest;
    *count = 0;
    return workspace ? gm_workspace_index_roots(workspace, path, count, &digest) : NULL;
}

/* Returns 0, or 2 after printing the problem. */
static int parse_options(int argc, char **argv, bool fix, cli_options *options) {
    memset(options, 0, sizeof *options);
    gm_analysis_options_default(&options->rules);
    int paths = 0;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!fix && strcmp(arg, "--output-format") == 0 && i + 1 < argc) {
            if (gm_output_format_parse(argv[++i], &options->format) != 0) {
                fprintf(stderr, "graphmend: unknown output format '%s' (text, json, sarif)\n",
                        argv[i]);
                return 2;
            }
        } else if (!fix && strncmp(arg, "--output-format=", 16) == 0) {
            if (gm_output_format_parse(arg + 16, &options->format) != 0) {
                fprintf(stderr, "graphmend: unknown output format '%s' (text, json, sarif)\n",
                        arg + 16);
                return 2;
            }
        } else if ((strcmp(arg, "--select") == 0 || strcmp(arg, "--ignore") == 0) && i + 1 < argc) {
            bool select = arg[2] == 's';
            if (parse_selectors(arg, argv[++i],
                                select ? &options->rules.select : &options->rules.ignore) != 0) {
                return 2;
            }
            options->rules_set |= select ? GM_SET_SELECT : GM_SET_IGNORE;
        } else if (strncmp(arg, "--select=", 9) == 0 || strncmp(arg, "--ignore=", 9) == 0) {
            bool select = arg[2] == 's';
            char flag[9];
            snprintf(flag, sizeof flag, "%.8s", arg);
            if (parse_selectors(flag, arg + 9,
                                select ? &options->rules.select : &options->rules.ignore) != 0) {
                return 2;
            }
            options->rules_set |= select ? GM_SET_SELECT : GM_SET_IGNORE;
        } else if (fix &&
                   (strcmp(arg, "--unsafe-fixes") == 0 || strcmp(arg, "--no-unsafe-fixes") == 0)) {
            /* beats unsafe-fixes in pyproject.toml, like the rule selectors */
            options->rules.unsafe_fixes = arg[2] == 'u';
            options->rules_set |= GM_SET_UNSAFE_FIXES;
        } else if (fix && strcmp(arg, "--diff") == 0) {
            options->diff = true;
        } else if (strcmp(arg, "--help") == 0 || strcmp(arg, "-h") == 0) {
            print_usage(stdout, argv[0]);
            exit(0);
        } else if (arg[0] == '-' && arg[1] != '\0') {
            fprintf(stderr, "graphmend %s: unknown option '%s'\n", argv[0], arg);
            print_usage(stderr, argv[0]);
            return 2;
        } else {
            paths++;
            if (gm_collect_python_files(arg, &options->files) != 0) {
                options->path_error = true;
            }
        }
    }
    if (paths == 0) {
        fprintf(stderr, "graphmend %s: no paths given\n", argv[0]);
        print_usage(stderr, argv[0]);
        return 2;
    }
    return 0;
}

static void free_report(gm_file_report *report) {
    free((char *)report->text);
    gm_line_index_free(&report->lines);
    gm_finding_list_free(&report->findings);
}

/* Reads and analyses one file into report (text owned by the report), as if no other file called
 * into it, and gives the index its summary. Returns 0, or -1. */
static int analyse_file(const char *path, const cli_options *cli, gm_workspace_index *workspace,
                        gm_file_report *report, gm_analysis_options *options) {
    memset(report, 0, sizeof *report);
    report->path = path;
    gm_line_index_init(&report->lines);
    gm_finding_list_init(&report->findings);
    size_t len = 0;
    char *text = gm_read_file(path, &len);
    if (!text) {
        fprintf(stderr, "graphmend: cannot read %s: %s\n", path, gm_read_file_error(errno));
        return -1;
    }
    report->text = text;
    report->len = len;
    if (file_options(path, cli, options) != 0) {
        return -1;
    }
    if (gm_line_index_build(&report->lines, text, len) != 0 ||
        gm_cli_analyse_and_index(path, text, len, options, workspace, &report->findings) != 0) {
        fprintf(stderr, "graphmend: could not analyse %s (too large or parse timed out)\n", path);
        return -1;
    }
    return 0;
}

int gm_cli_check(int argc, char **argv) {
    cli_options options;
    int status = parse_options(argc, argv, false, &options);
    if (status != 0) {
        gm_path_list_free(&options.files);
        return status;
    }
    gm_file_report *reports = calloc(options.files.count + 1, sizeof *reports);
    size_t analysed = 0, total = 0, files_with_findings = 0;
    bool error = options.path_error || !reports;
    gm_analysis_options *file_analysis = calloc(options.files.count + 1, sizeof *file_analysis);
    error |= !file_analysis;
    /* Each file is parsed once: that run indexes it too. */
    gm_workspace_index *workspace = gm_workspace_index_new();
    for (size_t i = 0; reports && file_analysis && i < options.files.count; i++) {
        if (analyse_file(options.files.paths[i], &options, workspace, &reports[analysed],
                         &file_analysis[analysed]) != 0) {
            free_report(&reports[analysed]);
            error = true;
            continue;
        }
        analysed++;
    }
    workspace = complete_workspace(workspace, &options);
    for (size_t i = 0; i < analysed; i++) {
        gm_file_report *report = &reports[i];
        if (gm_cli_reanalyse_with_roots(report->path, report->text, report->len, &file_analysis[i],
                                        workspace, &report->findings) != 0) {
            fprintf(stderr, "graphmend: could not analyse %s (too large or parse timed out)\n",
                    report->path);
            error = true;
        }
        total += report->findings.count;
        files_with_findings += report->findings.count > 0;
    }
    if (reports) {
        gm_print_reports(stdout, reports, analysed, options.format);
    }
    fflush(stdout);
    if (total > 0) {
        fprintf(stderr, "Found %zu predicted graph break%s in %zu file%s (%zu checked).\n", total,
                total == 1 ? "" : "s", files_with_findings, files_with_findings == 1 ? "" : "s",
                analysed);
    } else {
        fprintf(stderr, "No predicted graph breaks (%zu file%s checked).\n", analysed,
                analysed == 1 ? "" : "s");
    }
    for (size_t i = 0; i < analysed; i++) {
        free_report(&reports[i]);
    }
    free(reports);
    free(file_analysis);
    gm_workspace_index_free(workspace);
    gm_path_list_free(&options.files);
    return error ? 2 : total > 0 ? 1 : 0;
}

int gm_cli_fix(int argc, char **argv) {
    cli_options options;
    int status = parse_options(argc, argv, true, &options);
    if (status != 0) {
        gm_path_list_free(&options.files);
        return status;
    }
    bool error = options.path_error;
    size_t fixed = 0, remaining = 0;
    bool any_safe_only = false; /* a file was mended without its unsafe fixes */
    gm_workspace_index *workspace = build_workspace(&options);
    for (size_t i = 0; i < options.files.count; i++) {
        const char *path = options.files.paths[i];
        size_t len = 0, new_len = 0, applied = 0;
        char *text = gm_read_file(path, &len);
        if (!text) {
            fprintf(stderr, "graphmend: cannot read %s: %s\n", path, gm_read_file_error(errno));
            error = true;
            continue;
        }
        gm_analysis_options analysis;
        if (file_options(path, &options, &analysis) != 0) {
            error = true;
            free(text);
            continue;
        }
        size_t root_count;
        const char *const *roots = external_roots(workspace, path, &root_count);
        any_safe_only |= !analysis.unsafe_fixes;
        char *mended = gm_mend_text(text, len, analysis.unsafe_fixes, &analysis, roots, root_count,
                                    &new_len, &applied);
        if (!mended) {
            fprintf(stderr, "graphmend: out of memory fixing %s\n", path);
            error = true;
            free(text);
            continue;
        }
        const char *why = NULL;
        bool changed = new_len != len || memcmp(text, mended, len) != 0;
        if (changed && options.diff) {
            gm_print_unified_diff(stdout, path, text, len, mended, new_len);
        } else if (changed && gm_rewrite_file(path, mended, new_len, &why) != 0) {
            fprintf(stderr, "graphmend: cannot write %s: %s\n", path, why);
            error = true;
        }
        fixed += applied;
        gm_finding_list left;
        gm_finding_list_init(&left);
        if (gm_analyze_source_with_roots(mended, new_len, &analysis, roots, root_count, &left) ==
            0) {
            remaining += left.count;
        }
        gm_finding_list_free(&left);
        free(mended);
        free(text);
    }
    fflush(stdout);
    fprintf(stderr, "%s %zu graph break%s; %zu remaining%s.\n",
            options.diff ? "Would mend" : "Mended", fixed, fixed == 1 ? "" : "s", remaining,
            any_safe_only && remaining ? " (some may be mended with --unsafe-fixes)" : "");
    gm_path_list_free(&options.files);
    gm_workspace_index_free(workspace);
    if (error) {
        return 2;
    }
    if (options.diff) {
        return fixed > 0 ? 1 : 0;
    }
    return remaining > 0 ? 1 : 0;
}
