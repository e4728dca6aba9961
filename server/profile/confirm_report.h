/* The report of `graphmend confirm`: graphmend's findings for a file judged against the break
 * sites real dynamo found in it on one run of the file's entry (the profile helper's --confirm
 * answer), and its rendering as text. */
#ifndef GM_SERVER_PROFILE_CONFIRM_REPORT_H
#define GM_SERVER_PROFILE_CONFIRM_REPORT_H

#include <jansson.h>
#include <stdio.h>

#include "analysis/findings/findings.h"

/* Each unsuppressed finding of a graph-break rule (not GM0xx, GM9xx) gets a verdict:
 * "confirmed" (dynamo broke on a line of its span), "not_reached" (dynamo traced no line of its
 * span on this input) or "contradicted" (traced, no break). dynamo is the helper's answer
 * ("breaks", "traced_lines", "torch", "python", ...). Returns a new reference:
 *   {"ok": true, "file", "entry", "torch", "python", "device", "graphs", "graph_breaks",
 *    "findings": [{"code", "line", "column", "end_line", "message", "verdict", and when
 *                  confirmed "dynamo_reason", "registry_id", "dynamo_sources" (where dynamo
 *                  named it: "break_reasons", "log") and "skips_frame"}],
 *    "unpredicted": [the break sites no finding covers: {"line", "reason", "explanation",
 *                    "registry_id", "url", "sources", "skips_frame"}],
 *    "counts": {"confirmed", "not_reached", "contradicted", "dynamo_breaks",
 *               "predicted_breaks"},
 *    "precision" (confirmed / (confirmed + contradicted); null when none was reached),
 *    "recall" (break sites a finding covers / all break sites; null when there are none),
 *    "summary" (the precision and recall line)}.
 * NULL on OOM. */
json_t *gm_confirm_report_build(const char *file, const char *entry,
                                const gm_finding_list *findings, const json_t *dynamo);

/* torch's version as the verdicts name it: "2.13.0+cpu" -> "2.13". */
void gm_confirm_short_version(const char *version, char *out, size_t size);

/* The verdicts, the unpredicted breaks and the summary line, for a terminal. */
void gm_confirm_report_print_text(FILE *out, const json_t *report);

#endif
