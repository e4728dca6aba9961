#include "server/cli/fixability.h"

gm_fixability gm_finding_fixability(const gm_finding *finding, bool unsafe_fixes) {
    bool hidden = false;
    for (size_t i = 0; i < finding->fix_count; i++) {
        const gm_fix *fix = &finding->fixes[i];
        if (gm_fix_auto_applies(fix, unsafe_fixes)) {
            return GM_FIXABLE;
        }
        hidden |= fix->kind == GM_FIX_KIND_MEND && fix->applicability == GM_FIX_UNSAFE;
    }
    return hidden ? GM_FIX_HIDDEN : GM_NOT_FIXABLE;
}
