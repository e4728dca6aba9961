/* The graph breaks graphmend predicts inside an installed package on the path of a model, a
 * bound method or a function that a user's file compiles (`from transformers import BartModel;
 * torch.compile(BartModel(cfg))`, `torch.compile(model.generate)`, `torch.compile(torchsde.
 * sdeint)`): the package is found through the user's interpreter (package_directory.h), the
 * definition's file in it (class_definition.h); that file and the modules it imports within the
 * package are summarised, the classes the model is built of become the roots (their forward, and
 * the method compiled), or the function itself, compiled code
 * is followed across the package's files as across a workspace, and the files it reaches are
 * analysed. Blocking and self-contained: the language server runs it on a worker thread, the
 * command line in place. */
#ifndef GM_SERVER_LIBRARIES_LIBRARY_BREAKS_H
#define GM_SERVER_LIBRARIES_LIBRARY_BREAKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/options/analysis_options.h"
#include "analysis/rules/catalogue/rule_catalogue.h"

/* Most package files one model's analysis summarises (the class's module and what it imports
 * within the package, transitively). */
#define GM_LIBRARY_MAX_FILES 800

/* One predicted break in a package file. Rows are 0-based; columns are bytes of the line, which
 * is kept so that a client's encoding (UTF-16) can be counted from it. */
typedef struct {
    char *path; /* owned */
    uint32_t start_row, start_column, end_row, end_column;
    char *start_line, *end_line; /* owned: the text of those lines (no newline) */
    const gm_rule *rule;
    char *message; /* owned */
    /* owned, or NULL: when the break needs a condition the analysis cannot decide ("when
     * `x is not None and ...` holds", "in float16"), from the finding's only_when */
    char *condition;
    /* the break happens only when another one does (GM606: a comprehension that dynamo runs as
     * a frame of its own because the function around it breaks): no break of its own */
    bool follows_other_break;
} gm_library_break;

typedef struct {
    char *package;    /* owned: "transformers" */
    char *target;     /* owned: the class as the user's imports name it, "transformers.BartModel" */
    char *class_name; /* owned: "BartModel" */
    char *class_path; /* owned, or NULL: the file that defines it */
    char *package_dir; /* owned, or NULL: where the interpreter has the package */
    gm_library_break *breaks; /* owned, by file then position */
    size_t break_count;
    size_t files_summarised, files_analysed, classes;
    bool truncated; /* the package had more files to follow than GM_LIBRARY_MAX_FILES */
    char *error;    /* owned, or NULL: why there is no analysis (not installed, no class, ...) */
    double seconds; /* what the analysis took */
} gm_library_report;

void gm_library_report_free(gm_library_report *report);
/* A deep copy (for a cache that hands results to other threads). Returns 0, or -1 on OOM. */
int gm_library_report_copy(const gm_library_report *src, gm_library_report *dst);

/* Where package lives for python (cached per (python, package) by the caller's cache). */
typedef struct gm_library_cache gm_library_cache;

gm_library_cache *gm_library_cache_new(void); /* NULL on OOM */
void gm_library_cache_free(gm_library_cache *cache);

/* The target a compile site of an imported name asks a report for: the class or function
 * ("transformers.BartModel", "torchsde.sdeint"), or "name:member" for a bound method
 * (`torch.compile(model.generate)`: "litgpt.GPT:generate"). Returns 0, or -1 when it does not
 * fit in buf. */
int gm_library_target_of(const char *name, const char *member, char *buf, size_t cap);

/* The report for target (gm_library_target_of: an absolute dotted name whose first part is the
 * package, and a bound method's ":member") under the
 * user's options, for python. A package inside the project of user_path (the nearest directory
 * with pyproject.toml, setup.py, setup.cfg or .git; NULL: none) is the project's own code,
 * which the workspace analysis covers: the report then says so in error. Thread-safe: the cache keeps the
 * package directory per (python, package) and each report until a file it read changes (size or
 * modification time). report is overwritten; the caller frees it. Returns 0 (report->error may
 * still say why nothing was analysed), or -1 on OOM. */
int gm_library_report_get(gm_library_cache *cache, const char *python, const char *target,
                          const gm_analysis_options *user_options, const char *user_path,
                          gm_library_report *report);

/* A digest of what of the user's options changes a report (PyTorch and Python versions, dynamo
 * settings, training): two option sets with equal digests give equal reports. */
uint64_t gm_library_options_digest(const gm_analysis_options *options);

/* Whether a top-level name is one no library analysis is asked for: torch itself (dynamo has
 * its own rules for it) and Python's own modules that compile nothing. */
bool gm_library_package_skipped(const char *package);

#endif
