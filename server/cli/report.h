/* Printing the findings of `graphmend check`: text lines, ruff-shaped JSON, or SARIF 2.1.0. */
#ifndef GM_SERVER_CLI_REPORT_H
#define GM_SERVER_CLI_REPORT_H

#include <stdio.h>

#include "analysis/findings/findings.h"
#include "protocol/position.h"

typedef struct {
    const char *path;
    const char *text;
    size_t len;
    gm_line_index lines;
    gm_finding_list findings;
} gm_file_report;

typedef enum { GM_OUTPUT_TEXT, GM_OUTPUT_JSON, GM_OUTPUT_SARIF } gm_output_format;

int gm_output_format_parse(const char *name, gm_output_format *out); /* 0, or -1 */

/* Prints all findings of files in the chosen format to out. Rows and columns are 1-based; columns
 * count characters (code points). */
void gm_print_reports(FILE *out, const gm_file_report *files, size_t count,
                      gm_output_format format);

#endif
