/* The report of `graphmend profile`: the JSON both front ends return, built from the two arms'
 * helper results, and its renderings as text (the CLI) and markdown (the editor). */
#ifndef GM_SERVER_PROFILE_REPORT_H
#define GM_SERVER_PROFILE_REPORT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "analysis/options/analysis_options.h"

typedef struct {
    const char *file;
    const char *entry;
    const char *mode;
    const char *backend;
    size_t mends_applied;
    size_t package_mends; /* `--packages`: mends in the installed packages' mended copies */
    bool unsafe_fixes;
} gm_profile_report_info;

/* {"ok": true, "file", "entry", "device", "torch", "mode", "backend", "mends_applied",
 *  "unsafe_fixes", "package_mends" (only with `--packages`),
 *  "fallback" (only when auto fell back to the CPU), "original": {...}, "mended": {...},
 *  "outputs_match"}, each arm with graphs, breaks, break_reasons, compile_s, cold_ms, steady_ms,
 * steady_p90_ms, the spread of the steady calls (steady_q1_ms, steady_q3_ms, steady_min_ms,
 * steady_max_ms, steady_calls) (and eager_ms, cudagraph_launches, peak_memory_mb when measured). Returns a new
 * reference. */
/* "steady_comparison": {"verdict": "within noise", "faster" or "slower", "ratio" (original
 * median / mended median, only when the arms' interquartile ranges do not overlap)} is added
 * when both arms measured their spread. */
json_t *gm_profile_report_build(const gm_profile_report_info *info, json_t *original,
                                json_t *mended);

/* The answer when no mend applies to text at the chosen fix level (unsafe or safe only), given
 * instead of running the arms: {"ok": true, "nothing_to_compare": true, "message": "nothing to
 * compare: no mend applies to FILE at this fix level (N findings, none mendable)", "file",
 * "findings", "unsafe_mendable", "mends_applied": 0, "unsafe_fixes"}. unsafe_hint names how to
 * ask for unsafe mends ("--unsafe-fixes"), for when some would apply. Returns a new reference. */
json_t *gm_profile_nothing_to_compare(const char *file, const char *text, size_t len,
                                      const gm_analysis_options *options,
                                      const char *const *roots, size_t root_count, bool unsafe,
                                      const char *unsafe_hint);

/* A table and bar charts of the two arms, for a terminal. */
void gm_profile_report_print_text(FILE *out, const json_t *report);

/* The same as markdown (malloc'ed; the caller frees it), or NULL on OOM. */
char *gm_profile_report_markdown(const json_t *report);

/* One line naming a failed run's error ({"ok": false, "error": {...}}), then its traceback and
 * the end of the output when there are any. */
void gm_profile_error_print_text(FILE *out, const json_t *result);
/* The same, the line starting with command ("graphmend confirm") instead of "graphmend profile"
 * and, for another command than the profile, without naming an arm. */
void gm_profile_error_print_text_for(FILE *out, const json_t *result, const char *command);

#endif
