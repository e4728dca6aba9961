/* Mends for gm_mend_data_dependent_branch (see mends.h). */
#include "mends.h"

int gm_mend_data_dependent_branch(gm_region *region, TSNode condition, gm_fix *out) {
    (void)condition;
    (void)out;
    region->mend_declined = "graphmend has no rewrite for this form yet";
    return 0;
}
