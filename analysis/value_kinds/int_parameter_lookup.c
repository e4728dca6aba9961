/* The generated operator table's lookup by name (int_parameter_table.h). */
#include "analysis/value_kinds/int_parameter_table.h"

#include <string.h>

const gm_int_parameter_op *gm_int_parameter_op_named(const char *name, size_t len) {
    size_t lo = 0, hi = gm_int_parameter_op_count;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const char *candidate = gm_int_parameter_ops[mid].name;
        int c = strncmp(candidate, name, len);
        if (c == 0 && candidate[len] != '\0')
            c = 1;
        if (c == 0)
            return &gm_int_parameter_ops[mid];
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}
