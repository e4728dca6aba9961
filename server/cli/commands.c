#include "server/cli/commands.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/analyzer.h"
#include "analysis/findings/syntax_errors.h"
#include "analysis/mend_apply.h"
#include "analysis/syntax/python_parser.h"
#include "server/cli/check_analysis.h"
#include "server/cli/cli_options.h"
#include "server/cli/file_rewrite.h"
#include "server/cli/file_selection.h"
#include "server/cli/library_check.h"
#include "server/cli/progress.h"
#include "server/cli/report.h"
#include "server/cli/stdin_source.h"
#include "server/cli/summary.h"
#include "server/cli/terminal_style.h"
#include "server/cli/unified_diff.h"
#include "server/config/pyproject_config.h"
#include "server/config/summary_cache.h"
#include "server/profile/defaults.h"
#include "server/workspace/file_reader.h"
#include "server/workspace/parallel_each.h"
#include "server/workspace/python_files.h"
#include "server/workspace/summary_store.h"
#include "server/workspace/workspace_index.h"

/* Most files of the workspace read to follow compiled code across imports. */
#define MAX_WORKSPACE_FILES 20000

/* The options for the file at path: defaults (python_version that of the python3 on PATH), its
 * pyproject.toml, then the command line, then the pyproject.toml's per-file-ignores for it.
 * Returns 0, or -1 after printing the problem with the pyproject.toml. */
static int file_options(const char *path, const gm_cli_options *cli,
                        gm_analysis_options *options) {
    gm_analysis_options_default_with_interpreter(options);
    unsigned set = 0;
    char error[600];
    gm_project_files *project = malloc(sizeof *project);
    if (!project) {
        fprintf(stderr, "graphmend: out of memory\n");
        return -1;
    }
    if (gm_pyproject_load_project(path, options, &set, project, error, sizeof error) != 0) {
        fprintf(stderr, "graphmend: invalid [tool.graphmend] in %s\n", error);
        free(project);
        return -1;
    }
    if ((cli->rules_set & GM_SET_SELECT) && !(cli->rules_set & GM_SET_IGNORE)) {
        options->ignore.count = 0; /* --select starts the selection afresh, as ruff's does */
    }
    gm_analysis_options_overlay(options, &cli->rules, cli->rules_set);
    gm_project_add_file_ignores(project, path, &options->ignore);
    free(project);
    return 0;
}

/* Adds the rest of each file's project and the workspace files they import, transitively (compiled
 * code there may call into the given files), then follows calls across them. NULL on OOM (the
 * workspace is freed): each file is then analysed alone. */
/* Whether path is a package directory (a directory with an __init__.py): checking it checks a
 * library, whose public functions a user may compile. */
static bool is_package_directory(const char *path) {
    char init[4096];
    struct stat info;
    return stat(path, &info) == 0 && S_ISDIR(info.st_mode) &&
           snprintf(init, sizeof init, "%s/__init__.py", path) < (int)sizeof init &&
           stat(init, &info) == 0 && S_ISREG(info.st_mode);
}

/* Reads and writes the summaries of the project of path through its cache (unless --no-cache):
 * the store, or NULL when there is none. */
static gm_summary_store *use_summary_cache(gm_workspace_index *workspace, const char *path,
                                           const char *project_root, const gm_cli_options *cli,
                                           const gm_analysis_options *options) {
    if (cli->no_cache)
        return NULL;
    gm_summary_store *store = gm_project_summary_store(path, project_root, cli->cache_dir, options);
    if (store) {
        gm_summary_memo memo = gm_summary_store_memo(store);
        gm_workspace_index_set_memo(workspace, &memo);
    }
    return store;
}

static void finish_summary_cache(gm_workspace_index *workspace, gm_summary_store *store) {
    gm_workspace_index_set_memo(workspace, NULL);
    if (store && gm_summary_store_save(store) != 0)
        fprintf(stderr, "graphmend: warning: could not write the cache %s (%s)\n",
                gm_summary_store_path(store), strerror(errno));
    gm_summary_store_free(store);
}

static gm_workspace_index *complete_workspace(gm_workspace_index *workspace,
                                              const gm_path_list *files,
                                              const gm_cli_options *cli) {
    if (!workspace) {
        return NULL;
    }
    gm_analysis_options options;
    gm_analysis_options_default(&options);
    char previous[4096] = "";
    gm_summary_store *store = NULL;
    for (size_t i = 0; i < files->count; i++) {
        char root[4096];
        gm_workspace_scan_stats stats;
        if (gm_project_root_for_path(files->paths[i], root, sizeof root) == 0 &&
            strcmp(root, previous) != 0) {
            /* the first project's cache: summaries are kept by content, good in any project */
            if (!previous[0])
                store = use_summary_cache(workspace, files->paths[i], root, cli, &options);
            gm_workspace_index_scan(workspace, root, &options, MAX_WORKSPACE_FILES, &stats);
            snprintf(previous, sizeof previous, "%s", root);
        }
    }
    int loaded = gm_workspace_index_load_imports(workspace, &options, MAX_WORKSPACE_FILES);
    finish_summary_cache(workspace, store);
    if (loaded != 0) {
        gm_workspace_index_free(workspace);
        return NULL;
    }
    for (int i = 0; i < cli->path_count; i++)
        if (is_package_directory(cli->paths[i]))
            gm_workspace_index_mark_library(workspace, cli->paths[i]);
    if (gm_workspace_index_solve(workspace) != 0) {
        gm_workspace_index_free(workspace);
        return NULL;
    }
    return workspace;
}

/* The functions of path that compiled code of other files calls. */
static const char *const *external_roots(const gm_workspace_index *workspace, const char *path,
                                         size_t *count) {
    uint64_t digest;
    *count = 0;
    return workspace ? gm_workspace_index_roots(workspace, path, count, &digest) : NULL;
}

static void free_report(gm_file_report *report) {
    free((char *)report->text);
    gm_line_index_free(&report->lines);
    gm_finding_list_free(&report->findings);
}

static bool reads_stdin(const gm_cli_options *options) {
    return options->stdin_filename ||
           (options->path_count == 1 && strcmp(options->paths[0], "-") == 0);
}

/* The name stdin's source is reported under (and whose pyproject.toml applies). */
static const char *stdin_name(const gm_cli_options *options) {
    return options->stdin_filename ? options->stdin_filename : "-";
}

static int add_stdin_path(gm_path_list *files, const gm_cli_options *options) {
    char *name = strdup(stdin_name(options));
    return name ? gm_path_list_push(files, name) : -1;
}

/* The paths to work on: stdin's name, or the files the command line selects. Returns 0, or -1
 * (files then holds what could be selected; gm_cli_select_files has said why). */
static int collect_paths(const gm_cli_options *options, bool from_stdin, gm_path_list *files) {
    int rc = from_stdin ? add_stdin_path(files, options) : gm_cli_select_files(options, files);
    if (rc == 0 && files->count == 0) /* as ruff says it: nothing was checked */
        fprintf(stderr, "graphmend: warning: No Python files found under the given path(s)\n");
    return rc;
}

/* Reads the source of path (stdin when from_stdin) into report (text owned by the report) and
 * its options. Returns 0, or -1 after printing why. */
static int load_source(const char *path, bool from_stdin, const gm_cli_options *cli,
                       gm_file_report *report, gm_analysis_options *options) {
    memset(report, 0, sizeof *report);
    report->path = path;
    gm_line_index_init(&report->lines);
    gm_finding_list_init(&report->findings);
    size_t len = 0;
    char *text = from_stdin ? gm_read_stdin_source(&len) : gm_read_file(path, &len);
    if (!text) {
        if (!from_stdin) {
            fprintf(stderr, "graphmend: cannot read %s: %s\n", path, gm_read_file_error(errno));
        }
        return -1;
    }
    report->text = text;
    report->len = len;
    size_t bad = gm_utf8_first_invalid(text, len);
    if (bad < len) /* never a silent check: Python reads source as UTF-8 unless it says */
        fprintf(stderr,
                "graphmend: warning: %s is not valid UTF-8 (byte %zu): it is checked as UTF-8 "
                "all the same, and names or columns after that byte may be off\n",
                path, bad + 1);
    if (file_options(path, cli, options) != 0) {
        return -1;
    }
    report->unsafe_fixes = options->unsafe_fixes;
    if (gm_line_index_build(&report->lines, text, len) != 0) {
        fprintf(stderr, "graphmend: out of memory reading %s\n", path);
        return -1;
    }
    return 0;
}

/* The files of a check, analysed on every core: the reports (sources read in file order),
 * their options, and per file the summary of the first analysis and whether each pass failed. */
typedef struct {
    gm_file_report *reports;
    const gm_analysis_options *options;
    gm_module_summary *summaries;
    bool *failed;
    const gm_workspace_index *workspace;
} check_batch;

static void first_analysis(void *context, size_t i) {
    check_batch *batch = context;
    gm_file_report *report = &batch->reports[i];
    batch->failed[i] = gm_cli_analyse(report->text, report->len, &batch->options[i],
                                      &report->findings, &batch->summaries[i]) != 0;
}

static void analysis_with_roots(void *context, size_t i) {
    check_batch *batch = context;
    gm_file_report *report = &batch->reports[i];
    batch->failed[i] = gm_cli_reanalyse_with_roots(report->path, report->text, report->len,
                                                   &batch->options[i], batch->workspace,
                                                   &report->findings,
                                                   batch->summaries ? &batch->summaries[i]
                                                                    : NULL) != 0;
}

/* The files spread_property_facts analyses once more: changed[k] indexes batch's reports. */
typedef struct {
    check_batch *batch;
    const gm_workspace_index *workspace;
    const size_t *changed;
    bool *failed; /* per job */
} reanalysis_batch;

static void reanalyse_changed(void *context, size_t k) {
    reanalysis_batch *re = context;
    gm_file_report *report = &re->batch->reports[re->changed[k]];
    re->failed[k] = gm_cli_reanalyse_with_roots(report->path, report->text, report->len,
                                                &re->batch->options[re->changed[k]],
                                                re->workspace, &report->findings, NULL) != 0;
}

/* The files analysed with roots may have found getters that break only now, where other files'
 * compiled code reaches them (and the methods of their classes that store tensors): the index
 * learns them from those runs' summaries, and a file that reads them, whose facts from the
 * workspace change with it, is analysed once more. Returns false on OOM (the findings then stay
 * those of the runs before). */
static bool spread_property_facts(check_batch *batch, size_t analysed,
                                  gm_workspace_index *workspace) {
    uint64_t *before = calloc(analysed + 1, sizeof *before);
    if (!before)
        return false;
    bool learned = false;
    for (size_t i = 0; i < analysed; i++) {
        size_t count;
        gm_workspace_index_roots(workspace, batch->reports[i].path, &count, &before[i]);
        if (batch->summaries[i].property_fact_count > 0 && !batch->failed[i]) {
            learned |= gm_workspace_index_update(workspace, batch->reports[i].path,
                                                 &batch->summaries[i]) == 1;
        }
        gm_module_summary_free(&batch->summaries[i]);
    }
    if (learned && gm_workspace_index_solve(workspace) != 0) {
        free(before);
        return false;
    }
    /* the files whose facts changed, analysed again on every core (in transformers, hundreds
     * whose classes other files' compiled code reaches) */
    size_t *changed = learned ? calloc(analysed + 1, sizeof *changed) : NULL;
    size_t again = 0;
    for (size_t i = 0; changed && i < analysed; i++) {
        size_t count;
        uint64_t after = 0;
        gm_workspace_index_roots(workspace, batch->reports[i].path, &count, &after);
        if (after != before[i] && !batch->failed[i])
            changed[again++] = i;
    }
    free(before);
    if (learned && !changed)
        return false;
    reanalysis_batch re = {batch, workspace, changed, calloc(again + 1, sizeof(bool))};
    if (!re.failed) {
        free(changed);
        return false;
    }
    gm_parallel_each(again, gm_parallel_threads(), reanalyse_changed, &re);
    bool ok = true;
    for (size_t k = 0; k < again; k++)
        ok &= !re.failed[k];
    free(re.failed);
    free(changed);
    return ok;
}

static void report_unanalysed(const gm_file_report *report) {
    const char *refused = report->text ? gm_python_text_refused(report->text, report->len) : NULL;
    fprintf(stderr, "graphmend: could not analyse %s (%s)\n", report->path,
            refused ? refused : "the parse timed out");
}

/* What `check` prints for the analysed reports, to out, in the chosen format. */
static void print_check_output(FILE *out, const gm_cli_options *options,
                               const gm_file_report *reports, size_t analysed, bool error) {
    bool color = gm_use_color(options->color, out);
    bool text = gm_output_format_is_text(options->format);
    if (options->statistics) {
        gm_print_statistics(out, reports, analysed, options->format == GM_OUTPUT_JSON);
    } else {
        gm_print_reports(out, reports, analysed, options->format, color);
    }
    if (!text) {
        return;
    }
    if (options->show_fixes && !options->statistics) {
        gm_print_fix_listing(out, "Fixes `graphmend fix` would apply:", reports, analysed);
    }
    gm_finding_counts counts = gm_count_findings(reports, analysed);
    if (!error || counts.findings > 0) { /* after an error, "All checks passed!" would be wrong */
        gm_print_check_summary(out, counts);
    }
}

/* Analyses the loaded files (reports[0..*analysed), their sources read) as `check` does: each
 * once on every core, whose summary indexes it in workspace (NULL: each file alone, as from
 * stdin); then the rest of each file's project and the files they import, with calls followed
 * across them; then each file again with the functions other files' compiled code calls (the
 * findings left in reports), the getters those runs find spread to the files that read them.
 * A file whose analysis fails is reported and dropped (*analysed shrinks, *error is set).
 * Returns the completed workspace (NULL when none, or on OOM). */
static gm_workspace_index *analyse_files(gm_file_report *reports,
                                         gm_analysis_options *file_analysis, size_t *count,
                                         const gm_path_list *files, const gm_cli_options *cli,
                                         gm_workspace_index *workspace, bool *error_out) {
    size_t analysed = *count;
    bool error = false;
    gm_module_summary *summaries = calloc(analysed + 1, sizeof *summaries);
    bool *failed = calloc(analysed + 1, sizeof *failed);
    error |= !summaries || !failed;
    check_batch batch = {reports, file_analysis, summaries, failed, NULL};
    unsigned threads = gm_parallel_threads();
    if (summaries && failed) {
        gm_parallel_each(analysed, threads, first_analysis, &batch);
    } else {
        analysed = 0; /* out of memory: nothing is reported */
    }
    size_t kept = 0;
    for (size_t i = 0; i < analysed; i++) {
        if (failed[i]) {
            report_unanalysed(&reports[i]);
            free_report(&reports[i]);
            error = true;
            continue;
        }
        if (workspace) {
            gm_workspace_index_update(workspace, reports[i].path, &summaries[i]); /* takes it */
        } else {
            gm_module_summary_free(&summaries[i]);
        }
        reports[kept] = reports[i];
        file_analysis[kept++] = file_analysis[i];
    }
    analysed = kept;
    workspace = complete_workspace(workspace, files, cli);
    batch.workspace = workspace;
    if (failed) {
        memset(failed, 0, analysed * sizeof *failed);
        if (summaries) {
            memset(summaries, 0, analysed * sizeof *summaries); /* the index took them */
        }
        gm_parallel_each(analysed, threads, analysis_with_roots, &batch);
        if (workspace && summaries) {
            error |= !spread_property_facts(&batch, analysed, workspace);
        }
    }
    for (size_t i = 0; failed && i < analysed; i++) {
        if (failed[i]) {
            report_unanalysed(&reports[i]);
            error = true;
        }
    }
    free(summaries);
    free(failed);
    *count = analysed;
    *error_out |= error;
    return workspace;
}

int gm_cli_check(int argc, char **argv) {
    gm_cli_options options;
    int status = gm_cli_parse_options(argc, argv, false, &options);
    if (status != 0) {
        gm_cli_options_free(&options);
        return status;
    }
    bool from_stdin = reads_stdin(&options);
    gm_path_list files = {0};
    bool error = collect_paths(&options, from_stdin, &files) != 0;
    gm_file_report *reports = calloc(files.count + 1, sizeof *reports);
    size_t analysed = 0;
    error |= !reports;
    gm_analysis_options *file_analysis = calloc(files.count + 1, sizeof *file_analysis);
    error |= !file_analysis;
    /* Sources are read in file order (their errors print in that order), then each file is
     * parsed and analysed once, all on every core; that run's summary indexes it. Source from
     * stdin is analysed alone. */
    gm_workspace_index *workspace = from_stdin ? NULL : gm_workspace_index_new();
    gm_progress progress;
    gm_progress_start(&progress, "Checking", files.count);
    for (size_t i = 0; reports && file_analysis && i < files.count; i++) {
        gm_progress_update(&progress, i);
        if (load_source(files.paths[i], from_stdin, &options, &reports[analysed],
                        &file_analysis[analysed]) != 0) {
            free_report(&reports[analysed]);
            error = true;
            continue;
        }
        analysed++;
    }
    workspace =
        analyse_files(reports, file_analysis, &analysed, &files, &options, workspace, &error);
    if (analysed > 0) {
        gm_profile_request defaults;
        gm_profile_request_default(&defaults);
        error |= gm_cli_add_library_findings(reports, analysed, file_analysis,
                                             options.python ? options.python
                                                            : defaults.python) != 0;
    }
    gm_progress_finish(&progress);
    fflush(stderr);
    print_check_output(stdout, &options, reports, analysed, error);
    fflush(stdout);
    gm_finding_counts counts = gm_count_findings(reports, analysed);
    for (size_t i = 0; i < analysed; i++) {
        free_report(&reports[i]);
    }
    free(reports);
    free(file_analysis);
    gm_workspace_index_free(workspace);
    gm_path_list_free(&files);
    gm_cli_options_free(&options);
    if (error) {
        return 2;
    }
    return counts.findings > 0 && !options.exit_zero ? 1 : 0;
}

/* Mends one loaded source (original, taken over: its text read once by gm_cli_fix, its findings
 * those of the analysis with the workspace when analysed): writes it back (or, from stdin,
 * prints it), or prints the diff; fills after with what is left (the mended text, its findings)
 * and, when before is not NULL, before with the original and its findings. Returns 0, or -1
 * after printing why. */
static int fix_source(gm_file_report *original, const gm_analysis_options *analysis,
                      bool analysed, bool from_stdin, const gm_cli_options *cli,
                      const gm_workspace_index *workspace, gm_file_report *after,
                      gm_file_report *before, size_t *mended_count) {
    const char *path = original->path;
    *mended_count = 0;
    memset(after, 0, sizeof *after);
    size_t root_count;
    const char *const *roots = external_roots(workspace, path, &root_count);
    size_t new_len = 0;
    char *mended = gm_mend_text(original->text, original->len, analysis->unsafe_fixes, analysis,
                                roots, root_count, &new_len, mended_count);
    if (!mended) {
        fprintf(stderr, "graphmend: out of memory fixing %s\n", path);
        free_report(original);
        return -1;
    }
    int status = 0;
    const char *why = NULL;
    bool changed = new_len != original->len || memcmp(original->text, mended, new_len) != 0;
    if (changed && cli->diff) {
        gm_print_unified_diff(stdout, path, original->text, original->len, mended, new_len);
    } else if (from_stdin && !cli->diff) {
        fwrite(mended, 1, new_len, stdout);
    } else if (changed && gm_rewrite_file(path, original->text, original->len, mended, new_len,
                                          &why) != 0) {
        fprintf(stderr, "graphmend: cannot write %s: %s\n", path, why);
        status = -1;
    }
    if (before && (analysed || gm_analyze_source_with_roots(original->text, original->len,
                                                            analysis, roots, root_count,
                                                            &original->findings) == 0)) {
        *before = *original;
    } else {
        free_report(original);
    }
    after->path = path;
    after->text = mended;
    after->len = new_len;
    after->unsafe_fixes = analysis->unsafe_fixes;
    gm_line_index_init(&after->lines);
    gm_finding_list_init(&after->findings);
    if (gm_line_index_build(&after->lines, mended, new_len) != 0 ||
        gm_analyze_source_with_roots(mended, new_len, analysis, roots, root_count,
                                     &after->findings) != 0) {
        gm_finding_list_free(&after->findings);
        gm_finding_list_init(&after->findings);
    }
    return status;
}

int gm_cli_fix(int argc, char **argv) {
    gm_cli_options options;
    int status = gm_cli_parse_options(argc, argv, true, &options);
    if (status != 0) {
        gm_cli_options_free(&options);
        return status;
    }
    bool from_stdin = reads_stdin(&options);
    gm_path_list files = {0};
    bool error = collect_paths(&options, from_stdin, &files) != 0;
    gm_file_report *left = calloc(files.count + 1, sizeof *left);
    gm_file_report *before = calloc(files.count + 1, sizeof *before);
    gm_file_report *sources = calloc(files.count + 1, sizeof *sources);
    gm_analysis_options *source_options = calloc(files.count + 1, sizeof *source_options);
    size_t done = 0, mended = 0, loaded = 0;
    error |= !left || !before || !sources || !source_options;
    /* Sources are read once, in file order, and analysed as `check` analyses them, so that the
     * workspace they are mended with holds what only analyses give (tensors passed to another
     * module's function, getters that break): fix mends what check reports. */
    for (size_t i = 0; left && before && sources && source_options && i < files.count; i++) {
        if (load_source(files.paths[i], from_stdin, &options, &sources[loaded],
                        &source_options[loaded]) != 0) {
            free_report(&sources[loaded]);
            error = true;
            continue;
        }
        loaded++;
    }
    gm_workspace_index *workspace = NULL;
    if (!from_stdin && loaded > 0) {
        workspace = analyse_files(sources, source_options, &loaded, &files, &options,
                                  gm_workspace_index_new(), &error);
    }
    gm_progress progress;
    gm_progress_start(&progress, "Mending", loaded);
    for (size_t i = 0; i < loaded; i++) {
        gm_progress_update(&progress, i);
        size_t applied = 0;
        gm_file_report *original = options.show_fixes ? &before[done] : NULL;
        if (original) {
            memset(original, 0, sizeof *original);
        }
        if (fix_source(&sources[i], &source_options[i], !from_stdin, from_stdin, &options,
                       workspace, &left[done], original, &applied) != 0) {
            error = true;
        }
        mended += applied;
        if (left[done].text) {
            done++;
        }
    }
    free(sources);
    free(source_options);
    gm_progress_finish(&progress);
    fflush(stdout);
    /* From stdin, stdout holds the mended source: the rest goes to stderr (as ruff). */
    FILE *out = from_stdin || options.diff ? stderr : stdout;
    gm_finding_counts remaining = gm_count_findings(left, done);
    if (options.diff) {
        fprintf(stderr, "Would mend %zu graph break%s.\n", mended, mended == 1 ? "" : "s");
    } else {
        gm_print_reports(out, left, done, options.format, gm_use_color(options.color, out));
        if (gm_output_format_is_text(options.format)) {
            if (options.show_fixes) {
                char header[64];
                snprintf(header, sizeof header, "Mended %zu graph break%s:", mended,
                         mended == 1 ? "" : "s");
                gm_print_fix_listing(out, header, before, done);
            }
            if (!error || remaining.findings + mended > 0) {
                gm_print_fix_summary(out, mended, remaining);
            }
        }
    }
    for (size_t i = 0; i < done; i++) {
        free_report(&left[i]);
        if (options.show_fixes) {
            free_report(&before[i]);
        }
    }
    free(left);
    free(before);
    gm_path_list_free(&files);
    gm_workspace_index_free(workspace);
    gm_cli_options_free(&options);
    if (error) {
        return 2;
    }
    if (options.exit_zero) {
        return 0;
    }
    if (options.diff) {
        return mended > 0 ? 1 : 0;
    }
    return remaining.findings > 0 ? 1 : 0;
}
