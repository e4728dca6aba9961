/* Mends for gm_mend_tensor_to_python (see mends.h). */
#include "mends.h"

int gm_mend_tensor_to_python(gm_region *region, TSNode call, gm_fix *out) {
    (void)call;
    (void)out;
    region->mend_declined = "graphmend has no rewrite for this form yet";
    return 0;
}
