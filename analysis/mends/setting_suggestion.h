/* Mends that switch on a dynamo setting instead of rewriting the code: one edit inserting
 * `torch._dynamo.config.<name> = <value>` as a module-level statement. The setting changes
 * every compiled function of the process, so such a fix is display-only (never applied by
 * `graphmend fix`: an editor user may pick it) or, where the setting is known to remove the
 * break and keep the values, unsafe (applied with --unsafe-fixes only). */
#ifndef GM_ANALYSIS_MENDS_SETTING_SUGGESTION_H
#define GM_ANALYSIS_MENDS_SETTING_SUGGESTION_H

#include "analysis/regions/region.h"

/* Writes one fix of the given applicability (display-only for a suggestion; unsafe where the
 * setting is the mend: analysis/mends/capture_scalars.c) into out, labelled label and titled
 * title ("Mend graph break: set ..."), whose edit inserts config_assignment (the text after `<torch alias>.`:
 * "_dynamo.config.capture_scalar_outputs = True") as a statement of its own after the module's
 * imports (the module runs it before any call of the compiled function), or, when the imports
 * do not come before the statement holding the region, followed by two blank lines just before
 * it. Returns 1, 0 when the file does not import torch as a module, or -1 on OOM. Never sets
 * region->mend_declined: the caller's own reason stands. */
int gm_mend_setting_suggestion(gm_region *region, gm_applicability applicability,
                               const char *config_assignment, const char *label,
                               const char *title, gm_fix *out);

/* Whether a module-level `import torch` (`import torch as <alias>`, `import torch.x`) that runs
 * whenever the module does binds the file's torch alias before byte `before`: a line that uses
 * torch at import time (a setting, a function registered with dynamo) needs it there. Imports
 * under a condition, a `try:` or inside functions do not count. */
bool gm_mend_torch_bound_at_import(const gm_stmt_ctx *st, uint32_t before);

/* Why a mend that needs torch declines in a file with no torch alias: the file does not import
 * torch, or imports it only under `if TYPE_CHECKING:` (a module that keeps torch optional). */
const char *gm_mend_no_torch_reason(const gm_stmt_ctx *st);

#endif
