/* Python source -> findings. The analyzer keeps results per top-level statement so that after an
 * edit only the statements the edit touched are analysed again (unless something file-wide, such
 * as the imports, changed). While the text does not parse, the file-wide facts of the last text
 * that did are kept: the results of an incremental run on a broken text may then differ from a
 * fresh analysis's, for statements whose analysis reads facts that only the error changed. */
#ifndef GM_ANALYSIS_ANALYZER_H
#define GM_ANALYSIS_ANALYZER_H

#include <stdbool.h>
#include <stddef.h>
#include <tree_sitter/api.h>

#include "analysis/findings/findings.h"
#include "analysis/options/analysis_options.h"

typedef struct gm_analyzer gm_analyzer;

gm_analyzer *gm_analyzer_new(void); /* caller frees with gm_analyzer_free */
void gm_analyzer_free(gm_analyzer *analyzer);

/* Tells the analyzer about an edit applied to the text (the same TSInputEdit given to
 * ts_tree_edit), so cached results can be shifted or dropped. Every change of the text between
 * two runs must be noted (or gm_analyzer_reset called). The list of the last run stays as it
 * was until the next run. */
void gm_analyzer_note_edit(gm_analyzer *analyzer, const TSInputEdit *edit);

/* The functions of this file ("f", "C.m") that compiled code of other modules calls: they are
 * compiled regions as if decorated (the workspace's cross-module reachability). Copies keys;
 * the next run uses them. Returns 0, or -1 on OOM (the previous ones stay). */
int gm_analyzer_set_external_roots(gm_analyzer *analyzer, const char *const *keys, size_t count);

/* Calls work(work_context, i) once for each i in [0, count), possibly on several threads at the
 * same time, and returns when every call has returned (their writes visible to the caller). */
typedef void gm_each_runner(void *runner_context, size_t count,
                            void (*work)(void *work_context, size_t index), void *work_context);

/* A run analyses the statements it does not reuse through run_each when at least two of them
 * need analysing and their text is at least GM_ANALYZER_PARALLEL_MIN_BYTES and a sixteenth of
 * the file (an import edit, a file opened): below that, starting the threads and building
 * before them what the statements share (the module's word index: about 3 ns a byte of the
 * file) costs more than the second core saves, and a keystroke analyses one statement. Each
 * statement's analysis reads only what the run built before it and writes only its own
 * results, so the findings are the same as one after the other. NULL (the default): one after
 * the other. The threads and their number are the caller's business. */
void gm_analyzer_set_parallel(gm_analyzer *analyzer, gm_each_runner *run_each,
                              void *runner_context);
#define GM_ANALYZER_PARALLEL_MIN_BYTES (16u * 1024u)
#define GM_ANALYZER_PARALLEL_FILE_SHARE 16u
/* One threshold in bytes instead of those two (0: every run with two statements to analyse
 * goes through the runner; tests and the equivalence check use it). */
void gm_analyzer_set_parallel_min_bytes(gm_analyzer *analyzer, size_t min_bytes);

/* Forgets every cached result, so that the next run analyses everything: for a change of the
 * text that was not described with gm_analyzer_note_edit (a whole-document replacement). */
void gm_analyzer_reset(gm_analyzer *analyzer);

/* Analyses the tree of text. The list is owned by the analyzer and stays valid until the next
 * gm_analyzer_run or gm_analyzer_free. */
const gm_finding_list *gm_analyzer_run(gm_analyzer *analyzer, const TSTree *tree, const char *text,
                                       size_t len, const gm_analysis_options *options);

/* What other modules need to know of this one (analysis/module_facts/module_summary.h), from the
 * last run. summary is overwritten. Returns 0, or -1 on OOM. */
struct gm_module_summary;
int gm_analyzer_module_summary(gm_analyzer *analyzer, struct gm_module_summary *summary);

/* The compile calls of imported names in the last run's text (gm_imported_compile_sites),
 * from the run's call parts. Returns 0, or -1 on OOM or when there was no run. */
struct gm_compile_site_list;
int gm_analyzer_compile_sites(gm_analyzer *analyzer, struct gm_compile_site_list *sites);

/* A digest of what gm_analyzer_compile_sites reads (the summary digest and where the compile
 * calls are): equal digests give the same sites. 0 when there was no run. */
uint64_t gm_analyzer_compile_sites_digest(const gm_analyzer *analyzer);

/* What the last gm_analyzer_run did: top-level statements it saw, and how many of them it took
 * from the cache instead of analysing them again. */
typedef struct {
    size_t statements;
    size_t reused;
    bool recomputed_all; /* the fingerprint or the options changed (or there was no cache) */
    /* only import statements changed: the symbols were rebuilt, and only the statements that
     * mention a name whose binding changed were analysed again */
    bool rebound_imports;
    /* the tree has a syntax error and the file-wide facts changed: those of the last run kept
     * (the last text that parsed), and only the statements the edit touched analysed */
    bool kept_last_good;
    /* the statements analysed (not reused) went through the runner of gm_analyzer_set_parallel */
    bool parallel;
} gm_analyzer_stats;

void gm_analyzer_last_stats(const gm_analyzer *analyzer, gm_analyzer_stats *stats);

/* A digest of everything gm_analyzer_module_summary reads after the last run (the statements'
 * call parts and the file-wide facts): two runs with the same digest give the same summary, so a
 * keystroke that changes neither need not build it again. 0 when unknown (build it). */
uint64_t gm_analyzer_summary_digest(const gm_analyzer *analyzer);

/* One-shot: parse and analyse text into list (caller frees list). Returns 0, or -1 when the
 * parser could not be created or timed out. */
int gm_analyze_source(const char *text, size_t len, const gm_analysis_options *options,
                      gm_finding_list *list);
/* The same, with the functions that other modules' compiled code calls
 * (gm_analyzer_set_external_roots). */
int gm_analyze_source_with_roots(const char *text, size_t len, const gm_analysis_options *options,
                                 const char *const *external_roots, size_t external_count,
                                 gm_finding_list *list);

/* The same, also giving the module's summary from that run (analysis/module_facts/module_summary.h;
 * summary is overwritten): a command-line check parses each file once to index and analyse it. */
int gm_analyze_source_with_summary(const char *text, size_t len, const gm_analysis_options *options,
                                   const char *const *external_roots, size_t external_count,
                                   gm_finding_list *list, struct gm_module_summary *summary);

#endif
