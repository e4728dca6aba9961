/* What `graphmend profile` and the editor's graphmend.profile command use when not told. */
#ifndef GM_SERVER_PROFILE_DEFAULTS_H
#define GM_SERVER_PROFILE_DEFAULTS_H

#include <stdbool.h>

#include "server/profile/job.h"

/* The workspace/executeCommand command of the language server. */
#define GM_PROFILE_COMMAND "graphmend.profile"
/* The editor's `graphmend confirm`: verdicts on the document's diagnostics. */
#define GM_CONFIRM_COMMAND "graphmend.confirm"
#define GM_PROFILE_DEFAULT_ENTRY "graphmend_profile_entry"
#define GM_PROFILE_MODES "default, reduce-overhead, max-autotune, max-autotune-no-cudagraphs"
#define GM_PROFILE_BACKENDS "inductor, aot_eager, eager"

/* The defaults: python $GRAPHMEND_PYTHON or python3, entry GM_PROFILE_DEFAULT_ENTRY, device
 * auto, mode default, backend inductor, 50 timed calls after 5 warm-up calls, 600 s in all.
 * The file and texts are left NULL. */
void gm_profile_request_default(gm_profile_request *request);

bool gm_profile_mode_valid(const char *mode);
bool gm_profile_backend_valid(const char *backend);

#endif
