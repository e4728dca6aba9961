#include "server/profile/defaults.h"

#include <stdlib.h>
#include <string.h>

void gm_profile_request_default(gm_profile_request *request) {
    memset(request, 0, sizeof *request);
    const char *python = getenv("GRAPHMEND_PYTHON");
    request->python = python && python[0] ? python : "python3";
    request->entry = GM_PROFILE_DEFAULT_ENTRY;
    request->device = "auto";
    request->mode = "default";
    request->backend = "inductor";
    request->iterations = 50;
    request->warmup = 5;
    request->timeout_s = 600;
}

static bool in_list(const char *value, const char *const *list) {
    for (size_t i = 0; list[i]; i++) {
        if (strcmp(value, list[i]) == 0) {
            return true;
        }
    }
    return false;
}

bool gm_profile_mode_valid(const char *mode) {
    static const char *const modes[] = {"default", "reduce-overhead", "max-autotune",
                                        "max-autotune-no-cudagraphs", NULL};
    return mode && in_list(mode, modes);
}

bool gm_profile_backend_valid(const char *backend) {
    static const char *const backends[] = {"inductor", "aot_eager", "eager", NULL};
    return backend && in_list(backend, backends);
}
