/* What the files of analysis/value_kinds/ share with one another, and only they include: the
 * name tables, the kind environment with its constants and marks, and the few helpers one file
 * defines and another calls. Everyone else uses value_kinds.h. */
#ifndef GM_ANALYSIS_VALUE_KINDS_VALUE_KINDS_INTERNAL_H
#define GM_ANALYSIS_VALUE_KINDS_VALUE_KINDS_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "analysis/regions/region.h"

static inline const gm_syntax *syn_of(const gm_region *r) {
    return r->stmt->syntax;
}

static inline const char *text_of(const gm_region *r) {
    return r->stmt->text;
}

/* ---- name tables (name_tables.c): lists end with NULL ------------------------------------ */

extern const char *const gm_vk_static_attributes[];
extern const char *const gm_vk_tensor_attributes[];
extern const char *const gm_vk_scalar_methods[];
extern const char *const gm_vk_static_methods[];
extern const char *const gm_vk_other_methods[];
extern const char *const gm_vk_tensor_reductions[];
extern const char *const gm_vk_tensor_evidence_methods[];
extern const char *const gm_vk_bool_methods[];
extern const char *const gm_vk_mask_methods[];
extern const char *const gm_vk_torch_static_functions[];
extern const char *const gm_vk_torch_scalar_functions[];
extern const char *const gm_vk_torch_static_prefixes[];
extern const char *const gm_vk_static_builtins[];

/* Whether list holds word / the text of s / a prefix of name. */
bool gm_vk_in_list(const char *const *list, const char *word);
/* Whether torch.Tensor has an attribute of this name (tensor_api_names.c). */
bool gm_vk_is_tensor_api_name(gm_slice name);
bool gm_vk_slice_in_list(const char *const *list, gm_slice s);
bool gm_vk_has_prefix_in(const char *const *list, const char *name);

/* ---- the kind environment (kind_env.c) --------------------------------------------------- */

/* The binding of name (its latest), or NULL. */
gm_binding *gm_vk_env_find(const gm_kind_env *env, gm_slice name);

/* Binds name to kind; ends the name's compile-time constant and its mark. */
void gm_vk_env_set(gm_region *r, gm_slice name, gm_kind kind);
/* The same, recording why a tensor is one (kept only for GM_KIND_TENSOR) and the source the
 * reason points at (evidence; a null node for GM_BECAUSE_CALLERS_PASS). */
void gm_vk_env_set_because(gm_region *r, gm_slice name, gm_kind kind, gm_tensor_because because,
                           TSNode evidence);

/* The truth value name was assigned as a compile-time constant, or -1. */
int gm_vk_constant_of(const gm_region *r, gm_slice name);

void gm_vk_constant_set(gm_region *r, gm_slice name, int truth);

/* Facts about a name beyond its kind, kept in the environment beside its binding. A name's mark
 * goes when the name is bound again. */
typedef enum {
    GM_MARK_NONE = 0,
    GM_MARK_MASK = 1,      /* a boolean tensor (`keep = x > 0`, `m = w.bool()`) */
    GM_MARK_CMP = 2,       /* a comparison of unknown operands: a bool, or a boolean tensor */
    GM_MARK_ELEM = 3,      /* an element of iterating over a tensor: made in the graph (a select) */
    GM_MARK_TRIED = 4,     /* a parameter whose call sites were looked at without result */
    GM_MARK_CLEARED = 5,   /* a dead mark */
    GM_MARK_ANNOTATED = 6, /* a parameter that is a tensor by its annotation only */
    GM_MARK_GUESSED = 7,   /* a tensor by the guess that self.<attribute>(...) is a submodule */
    GM_MARK_PASSED_MADE = 8, /* a parameter every caller passes a tensor it computed: inlined
                                into the caller's graph, the value is made in the graph */
    GM_MARK_CONDITIONAL = 9, /* a tensor only when a call it was computed from returns one
                                (gm_region.conditional_calls) */
} gm_vk_mark;

gm_vk_mark gm_vk_mark_of(const gm_region *r, gm_slice name);
void gm_vk_mark_set(gm_region *r, gm_slice name, gm_vk_mark code);

/* ---- expressions (expression_kinds.c) ---------------------------------------------------- */

/* The kind of an operation combining operands of kinds a and b. */
gm_kind gm_vk_combine(gm_kind a, gm_kind b);

/* Whether n is the identifier of the region's self. */
bool gm_vk_is_self(const gm_region *r, TSNode n);
/* Whether n is `self.name`, written without spaces: the region's kinds keep what it assigns
 * such an attribute under the node's text, as under a local name. */
bool gm_vk_is_self_attribute(const gm_region *r, TSNode n);

/* Whether the head of an attribute chain is a name of the function (a local or self). */
bool gm_vk_head_is_local(const gm_region *r, TSNode head);

/* self.<attr> where attr is not a method of the class: a submodule in a Module's region. */
bool gm_vk_is_submodule(gm_region *r, TSNode n);

/* The first positional argument of call, or a null node. */
TSNode gm_vk_first_argument(const gm_region *r, TSNode call);

/* The position of name among the parameters of def that a call passes (the first left out when
 * skip_first: self of a method that is not static), or -1 (also when def takes *args, **kwargs,
 * a bare * or /). */
int gm_vk_parameter_index(const gm_region *r, TSNode def, gm_slice name, bool skip_first);

/* The argument a call passes for the parameter at index called name (by keyword or position),
 * or a null node; sets *bad when the call unpacks arguments (it may pass it unseen). */
TSNode gm_vk_argument_for(const gm_region *r, TSNode call, int index, gm_slice name, bool *bad);

/* ---- tensor facts (tensor_facts.c) ------------------------------------------------------- */

/* A comparison with only ==, !=, <, <=, >, >= (not is, in): a bool, or a boolean tensor. */
bool gm_vk_is_order_comparison(gm_region *r, TSNode n);

/* ---- binding (name_binding.c) ------------------------------------------------------------ */

/* Whether a target or sequence display n has a starred element. */
bool gm_vk_has_splat(const gm_syntax *syn, TSNode n);

/* ---- parameters (parameter_kinds.c) ------------------------------------------------------ */

/* Whether the region's function is decorated with @staticmethod. */
bool gm_vk_is_static_method(const gm_region *region);

/* ---- other functions of the file (cross_function_kinds.c) -------------------------------- */

/* The tensors the return annotation of the function call runs declares (a module-level
 * function of this module or, through the workspace's facts, of another), or none. */
gm_return_kinds gm_vk_declared_returns(gm_region *r, TSNode call);

/* Whether call runs a same-file function whose every return is a tuple display of count
 * elements; kinds gets, per element, tensor where every return has a tensor. */
bool gm_vk_call_returns_tuple(gm_region *r, TSNode call, gm_kind *kinds, uint32_t count);

/* Whether call (`f(...)`, a name) runs a same-file function whose every return is a tensor, as
 * the function's own kinds say (its parameters by their annotations and evidence): the
 * caller's statement then depends on the function's (class_deps). */
bool gm_vk_call_returns_tensor(gm_region *r, TSNode call);

/* Walks the body of def (a method of class_node, a Module's when module_class; a plain function
 * when class_node is null) in a region of its own, seeded from its parameters, calling
 * on_return for each return statement with the kinds its names have there. False, without a
 * walk, when the chain of such walks is already as deep as it may go. */
bool gm_vk_each_return(gm_region *r, TSNode def, TSNode class_node, bool module_class,
                       void (*on_return)(gm_region *function_region, TSNode ret, void *context),
                       void *context);

/* ---- methods of the file's classes (method_returns.c) ------------------------------------ */

/* What a method returns, over its return statements. */
typedef enum {
    GM_RETURNS_UNKNOWN = 0,
    GM_RETURNS_TENSOR,      /* a tensor on every path */
    GM_RETURNS_SOMETIMES,   /* a tensor on some paths (or for some classes), not on others */
    GM_RETURNS_NO_TENSOR,   /* never a tensor: Python values on every path */
} gm_vk_returns;

/* For `receiver.method(...)` whose receiver is of unknown kind: what the method returns, from
 * the class the receiver is known to be an instance of (`self.cache` made `Cache()` in
 * __init__, `self.layers[i]` of `[Layer()]`, a parameter annotated with a class of the file),
 * else from every class of the file that defines a method of that name (then at most
 * GM_RETURNS_SOMETIMES: the object may be of another class). GM_RETURNS_UNKNOWN for a method
 * torch.Tensor or Python's builtin types have. */
gm_vk_returns gm_vk_method_call_returns(gm_region *r, TSNode call);

/* Makes identifier, a method parameter of unknown kind, a tensor when every `self.m(...)` call
 * in the class passes it one. */
void gm_vk_resolve_parameter(gm_region *r, TSNode identifier);

#endif
