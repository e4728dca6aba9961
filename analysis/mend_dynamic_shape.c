/* Mends for gm_mend_dynamic_shape (see mends.h). */
#include "mends.h"

int gm_mend_dynamic_shape(gm_region *region, TSNode node, gm_fix *out) {
    (void)node;
    (void)out;
    region->mend_declined = "graphmend has no rewrite for this form yet";
    return 0;
}
