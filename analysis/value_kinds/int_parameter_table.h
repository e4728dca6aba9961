/* The torch operators whose arguments take ints or Python numbers, generated from torch's operator schemas by
 * tools/gen-int-parameters (int_parameter_table.c): a tensor made in the graph passed there is
 * read with Tensor.__index__, a data-dependent graph break (tensor_as_int.c). */
#ifndef GM_ANALYSIS_VALUE_KINDS_INT_PARAMETER_TABLE_H
#define GM_ANALYSIS_VALUE_KINDS_INT_PARAMETER_TABLE_H

#include <stddef.h>
#include <stdint.h>

/* How Python calls an operator: torch.NAME, tensor.NAME, torch.nn.functional.NAME; and what a
 * call says of its argument: torch.NAME(x, ...) takes only a tensor first (a number or a list
 * is an error), x.NAME(...) is a method only a tensor has (no ndarray, Python value or
 * nn.Module has one of that name). */
enum {
    GM_INT_FUNCTION = 1u,
    GM_INT_METHOD = 2u,
    GM_INT_FUNCTIONAL = 4u,
    GM_OP_TENSOR_FIRST = 8u,
    GM_OP_TENSOR_ONLY_METHOD = 16u,
};


typedef struct {
    const char *name;
    unsigned forms;
    /* bit i: the schema's argument i (self first) takes ints in every overload */
    uint32_t positions;
    const char *keywords; /* comma-separated, sorted: the keywords that take ints */
    /* the same for a Python number (the schema's Scalar): a tensor there is read with
     * Tensor.item(), graph input or not */
    uint32_t number_positions;
    const char *number_keywords;
} gm_int_parameter_op;

extern const gm_int_parameter_op gm_int_parameter_ops[]; /* sorted by name */

/* The operator named name[0..len) (binary search; int_parameter_lookup.c), or NULL. */
const gm_int_parameter_op *gm_int_parameter_op_named(const char *name, size_t len);
extern const size_t gm_int_parameter_op_count;

#endif
