/* The analysis behind `graphmend check`: each file named on the command line is parsed once. The
 * same run gives its findings and the summary the workspace index needs; only a file in which the
 * solved workspace finds functions that other files' compiled code calls is analysed again, with
 * those functions as roots. */
#ifndef GM_SERVER_CLI_CHECK_ANALYSIS_H
#define GM_SERVER_CLI_CHECK_ANALYSIS_H

#include <stddef.h>

#include "analysis/findings/findings.h"
#include "analysis/module_facts/module_summary.h"
#include "analysis/options/analysis_options.h"
#include "server/workspace/workspace_index.h"

/* Analyses text as if nothing else called into it, appending the findings to list and giving
 * the module's summary (for the workspace index) in *summary. Touches nothing shared: files may
 * be analysed on several threads at once. Returns 0, or -1 when the parser gave up (too large,
 * timed out) or on OOM. */
int gm_cli_analyse(const char *text, size_t len, const gm_analysis_options *options,
                   gm_finding_list *list, gm_module_summary *summary);

/* After the workspace is solved: when other files' compiled code calls functions of path,
 * analyses text again with them as roots and replaces list's findings; summary, when not NULL,
 * gets that run's summary (its getters that break are known only now: compiled code of other
 * files reaches them), and is left as it was when nothing was analysed. Only reads the
 * workspace: files may be analysed on several threads at once. Returns 0 (also when nothing
 * changed), or -1 when the analysis failed (list then keeps its findings). */
int gm_cli_reanalyse_with_roots(const char *path, const char *text, size_t len,
                                const gm_analysis_options *options,
                                const gm_workspace_index *workspace, gm_finding_list *list,
                                gm_module_summary *summary);

#endif
