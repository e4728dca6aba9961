/* What `graphmend check` says about models of installed packages that a checked file compiles:
 * a GM902 finding at each such compile call (server/libraries/library_finding.h), the package
 * found through the --python interpreter (asked synchronously, once per package). */
#ifndef GM_SERVER_CLI_LIBRARY_CHECK_H
#define GM_SERVER_CLI_LIBRARY_CHECK_H

#include <stddef.h>

#include "analysis/options/analysis_options.h"
#include "server/cli/report.h"

/* Adds the GM902 findings of each report (options[i] its file's options; a file whose options
 * do not select GM902 is skipped). python: the interpreter to ask. Problems that keep a
 * package from being analysed (not installed, no interpreter) are printed to stderr once per
 * package and are no error. Returns 0, or -1 on OOM. */
int gm_cli_add_library_findings(gm_file_report *reports, size_t count,
                                const gm_analysis_options *options, const char *python);

#endif
