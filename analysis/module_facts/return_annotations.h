/* What a function's annotations say its values are: whether an annotation names torch.Tensor
 * (Tensor, torch.Tensor, torch.LongTensor, Optional[Tensor], Tensor | None), and which values a
 * function returns are tensors by its return annotation (`-> Tensor`, `-> Tuple[Tensor,
 * Tensor]`). A call of a function in another module, whose body the caller's analysis never
 * walks, takes its kinds from these (workspace_graph.h carries them across imports). */
#ifndef GM_ANALYSIS_MODULE_FACTS_RETURN_ANNOTATIONS_H
#define GM_ANALYSIS_MODULE_FACTS_RETURN_ANNOTATIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "analysis/module_facts/symbols.h"
#include "analysis/syntax/syntax.h"

/* Which values a call of a function returns are tensors: arity 0 is one value (tensors 1 when
 * it is a tensor), arity n a tuple of n values (bit i of tensors: element i is one). tensors 0:
 * nothing is known to be a tensor. */
#define GM_RETURN_TUPLE_MAX 8
typedef struct {
    uint8_t arity;
    uint8_t tensors;
} gm_return_kinds;

/* Whether the annotation type (a `type` node or the expression in it) names a tensor type; with
 * allow_optional, Optional[...] and `... | None` of one count too. *boolean (may be NULL) is set
 * when the type is torch.BoolTensor. */
bool gm_annotation_is_tensor(const gm_symbols *symbols, const gm_syntax *syntax, const char *text,
                             TSNode type, bool allow_optional, bool *boolean);

/* The tensors the return annotation of function_definition fn declares. An Optional return
 * (or tuple element) is not counted: the value may be None. */
gm_return_kinds gm_function_return_kinds(const gm_symbols *symbols, const gm_syntax *syntax,
                                         const char *text, TSNode fn);

/* A return kind as facts spell it, "<arity>:<tensors>", and back; parse returns false on a
 * malformed spelling. */
void gm_return_kinds_format(gm_return_kinds kinds, char *out, size_t cap);
bool gm_return_kinds_parse(const char *spelled, gm_return_kinds *kinds);

#endif
