/* Calls that torch.compile folds to a constant truth value while it traces: the ones torch
 * itself provides (torch.compiler.is_compiling() is True, torch.jit.is_tracing() False), and the
 * functions of a module whose every return folds to one (transformers' is_tracing(x) returns
 * `is_torchdynamo_compiling() or ...`, True under dynamo), found from their source so that a
 * call in another module folds too (workspace_graph.h carries them across imports). */
#ifndef GM_ANALYSIS_MODULE_FACTS_COMPILE_CONSTANTS_H
#define GM_ANALYSIS_MODULE_FACTS_COMPILE_CONSTANTS_H

#include <stdbool.h>
#include <stddef.h>
#include <tree_sitter/api.h>

#include "analysis/module_facts/return_annotations.h"
#include "analysis/module_facts/symbols.h"
#include "analysis/syntax/syntax.h"

/* The constant a call of the function named name (resolved: "torch.compiler.is_compiling")
 * folds to under torch.compile, 1 or 0, or -1 when it is not one torch provides. A name whose
 * last part is is_torchdynamo_compiling counts as the True one (the helper every Hugging Face
 * library defines, often outside the files a check sees). */
int gm_torch_compile_constant(const char *name);

/* Whether some name gm_torch_compile_constant knows ends in last ("is_compiling"). */
bool gm_torch_compile_constant_ends(const char *last);

/* A function whose calls the analysis knows something of, by the name the calling module's
 * symbols resolve a call of it to ("norm" in its own module, ".utils.is_tracing" through an
 * import): the compile-time constant it returns, and the tensors its return annotation
 * declares. */
typedef struct {
    const char *name;
    int constant;            /* the truth value every call folds to, or -1 */
    gm_return_kinds returns; /* return_annotations.h; tensors 0 when none */
} gm_function_fact;

/* The truth value every return of the function_definition fn folds to while dynamo traces it,
 * or -1: each return (those of except handlers aside: the eager fallback of a failed import)
 * folds the same way through `not`, `and`, `or`, True/False, calls gm_torch_compile_constant
 * knows, calls of the known functions (sorted by name; may be NULL), and locals whose every
 * assignment folds (`flag = is_compiling() or ...; flag |= other(x)`), and the body cannot end
 * without a return. Generators, async and decorated functions are -1. */
int gm_function_constant_return(const gm_symbols *symbols, const gm_syntax *syntax,
                                const char *text, TSNode fn, const gm_function_fact *known,
                                size_t known_count);

/* The known function named name (sorted by name), or NULL. */
const gm_function_fact *gm_function_fact_find(const gm_function_fact *known, size_t count,
                                              const char *name);

#endif
