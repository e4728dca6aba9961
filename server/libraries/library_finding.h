/* A library report (library_breaks.h) as a finding of the user's file: GM902 at the compile
 * call, saying how many breaks graphmend predicts in the package on the model's path. The
 * language server adds the breaks as related locations; the command line, which has none,
 * names the first few in the message. */
#ifndef GM_SERVER_LIBRARIES_LIBRARY_FINDING_H
#define GM_SERVER_LIBRARIES_LIBRARY_FINDING_H

#include <stdbool.h>

#include "analysis/findings/findings.h"
#include "analysis/module_facts/module_summary.h"
#include "server/libraries/library_breaks.h"

/* How many break locations the command line's message names before "and N more". */
#define GM_LIBRARY_MESSAGE_LOCATIONS 3

/* The report's breaks that do not merely follow another break (library_breaks.h): a GM902
 * finding (and its profile action) is made only when there is one. Breaks under a condition the
 * analysis cannot decide (a no-op conversion, a dtype) count, their locations saying it. */
size_t gm_library_certain_breaks(const gm_library_report *report);

/* Builds the finding for site from report into finding (owned members: free with
 * gm_finding_free). with_locations: the message ends with the first locations. Returns 0; 1
 * when there is nothing to report (the report has an error, or predicts no break); -1 on OOM. */
int gm_library_finding(const gm_library_report *report, const gm_compile_site *site,
                       bool with_locations, gm_finding *finding);

#endif
