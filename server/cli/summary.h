/* The lines after the findings, as ruff prints them: how many were found, how many `graphmend
 * fix` mends (and how many more with --unsafe-fixes), what fix mended; and --statistics. */
#ifndef GM_SERVER_CLI_SUMMARY_H
#define GM_SERVER_CLI_SUMMARY_H

#include <stdbool.h>
#include <stdio.h>

#include "server/cli/report.h"

typedef struct {
    size_t findings;
    size_t fixable; /* `graphmend fix` would mend them ([*]) */
    size_t hidden;  /* only an unsafe mend, not enabled */
} gm_finding_counts;

gm_finding_counts gm_count_findings(const gm_file_report *files, size_t count);

/* `check`: "All checks passed!", or "Found N predicted graph breaks." and what is fixable. */
void gm_print_check_summary(FILE *out, gm_finding_counts counts);

/* `fix`: "Found N predicted graph breaks (F mended, R remaining)." and the unsafe ones left. */
void gm_print_fix_summary(FILE *out, size_t mended, gm_finding_counts remaining);

/* --show-fixes: after header, per file the mends by rule ("    2 × GM401 (print-call)"), of
 * the findings that are fixable under each file's settings. Prints nothing when there are none. */
void gm_print_fix_listing(FILE *out, const char *header, const gm_file_report *files,
                          size_t count);

/* --statistics: a line per rule (count, id, [*] when some are fixable, name), most frequent
 * first; as a JSON array for the JSON format. */
void gm_print_statistics(FILE *out, const gm_file_report *files, size_t count, bool json);

#endif
