/* Mends for gm_mend_validation_guard (see mends.h). */
#include "mends.h"

int gm_mend_validation_guard(gm_region *region, TSNode condition, gm_fix *out) {
    (void)condition;
    (void)out;
    region->mend_declined = "graphmend has no rewrite for this form yet";
    return 0;
}
