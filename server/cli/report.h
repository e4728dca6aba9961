/* Printing the findings of `graphmend check` (and what `fix` leaves): ruff's full and concise
 * text, ruff-shaped JSON, SARIF 2.1.0, GitHub workflow commands, GitLab code quality. */
#ifndef GM_SERVER_CLI_REPORT_H
#define GM_SERVER_CLI_REPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "analysis/findings/findings.h"
#include "protocol/position.h"

typedef struct {
    const char *path;
    const char *text;
    size_t len;
    gm_line_index lines;
    gm_finding_list findings;
    bool unsafe_fixes; /* the file's unsafe-fixes setting: its unsafe mends count as fixable */
} gm_file_report;

typedef enum {
    GM_OUTPUT_FULL,    /* ruff's default: a code frame under each finding */
    GM_OUTPUT_CONCISE, /* path:line:col: CODE message ("text" is its old name) */
    GM_OUTPUT_JSON,
    GM_OUTPUT_SARIF,
    GM_OUTPUT_GITHUB,
    GM_OUTPUT_GITLAB,
} gm_output_format;

int gm_output_format_parse(const char *name, gm_output_format *out); /* 0, or -1 */

/* Whether the format is one of the text ones, for people, followed by a summary. */
bool gm_output_format_is_text(gm_output_format format);

/* 1-based row and character column of a byte offset of file. */
void gm_report_location(const gm_file_report *file, size_t offset, uint32_t *row,
                        uint32_t *column);

/* The mend `graphmend fix` would apply to finding (the first, as ruff shows one), or NULL. */
const gm_fix *gm_report_primary_fix(const gm_finding *finding);

/* Prints all findings of files in the chosen format to out. Rows and columns are 1-based; columns
 * count characters (code points). color: the text formats use terminal colours. */
void gm_print_reports(FILE *out, const gm_file_report *files, size_t count,
                      gm_output_format format, bool color);

/* The text formats, each finding in turn (report_text.c). */
void gm_print_concise(FILE *out, const gm_file_report *file, const gm_finding *finding,
                      bool color);
void gm_print_full(FILE *out, const gm_file_report *file, const gm_finding *finding, bool color);

/* The CI formats (report_ci.c). */
void gm_print_github(FILE *out, const gm_file_report *files, size_t count);
void gm_print_gitlab(FILE *out, const gm_file_report *files, size_t count);

#endif
