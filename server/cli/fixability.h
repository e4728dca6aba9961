/* Whether `graphmend fix` would mend a finding, as ruff's `[*]` says: fixable (a mend fix applies
 * under the file's unsafe-fixes setting), hidden (only an unsafe mend, not enabled), or neither. */
#ifndef GM_SERVER_CLI_FIXABILITY_H
#define GM_SERVER_CLI_FIXABILITY_H

#include <stdbool.h>

#include "analysis/findings/findings.h"

typedef enum { GM_NOT_FIXABLE, GM_FIXABLE, GM_FIX_HIDDEN } gm_fixability;

gm_fixability gm_finding_fixability(const gm_finding *finding, bool unsafe_fixes);

#endif
