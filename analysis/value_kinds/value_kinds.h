/* Value kinds inside a compiled region: whether an expression is a tensor, a data-dependent
 * Python scalar (t.item()), a static value TorchDynamo knows while tracing (shapes, dtypes,
 * literals, compile-time constants), or unknown. Names take the kind of their latest
 * assignment in statement order; the branches of an if each start from the kinds before it. An unannotated parameter is unknown until
 * the code gives evidence (a tensor-only method called on it). */
#ifndef GM_ANALYSIS_VALUE_KINDS_VALUE_KINDS_H
#define GM_ANALYSIS_VALUE_KINDS_VALUE_KINDS_H

#include "analysis/regions/region.h"

void gm_kind_env_free(gm_kind_env *env);

/* The branches of an if: each is walked from the kinds before the if (an assignment in one
 * branch does not reach another), and after the if each name has the kind the last branch that
 * binds it gave it (the order a walk of the branches one after another would give).
 * begin snapshots the environment; next, after each branch, keeps what the branch changed and
 * restores the snapshot; end puts the kept changes in place and frees the rest. */
typedef struct {
    gm_kind_env before, after;
    bool have_after;
} gm_kind_branches;
void gm_kinds_branches_begin(gm_region *region, gm_kind_branches *branches);
void gm_kinds_branch_next(gm_region *region, gm_kind_branches *branches);
void gm_kinds_branches_end(gm_region *region, gm_kind_branches *branches);

/* Seeds the region's names from its parameters (tensor annotations) and sets self_name. */
void gm_kinds_seed_parameters(gm_region *region);

/* Whether every return of def, a plain module-level function, is a tensor by its own body
 * (its parameters known by their annotations and the evidence the body gives, not by any
 * caller's arguments): what other modules learn of an unannotated helper. False for a
 * function with a return annotation, a generator, a function without a value returned, or one
 * the walk cannot finish. */
bool gm_kinds_function_returns_tensor(gm_stmt_ctx *stmt, TSNode def);

/* The kind (and compile-time truth value) of expr. */
gm_value gm_value_of(gm_region *region, TSNode expr);

/* Records the kinds an assignment `target = rhs` gives to the names in target (tuple targets
 * element-wise when rhs is a tuple of the same length). */
void gm_kinds_assign(gm_region *region, TSNode target, TSNode rhs);

/* `target op= rhs`. */
void gm_kinds_augment(gm_region *region, TSNode target, TSNode rhs);

/* Binds every name in target to kind. */
void gm_kinds_bind(gm_region *region, TSNode target, gm_kind kind);

/* Evidence from a call about to be looked at: a local name (a parameter, say) of unknown kind
 * on which a tensor-only method is called (`mask.long()`, `mask.unsqueeze(1)`) is a tensor from
 * there on. */
void gm_kinds_note_call(gm_region *region, TSNode call);

/* A call of another module's function (through the imports) with tensors as positional
 * arguments: noted in the statement's passes (gm_stmt_ctx), for the workspace to tell that
 * module which of its function's parameters take tensors. */
void gm_kinds_note_passed_tensors(gm_region *region, TSNode call);

/* A name that an `isinstance(name, dict)` test (classes no tensor is: dict, list, tuple, str,
 * numbers, sets) narrows in the branch it guards: there the name is no tensor, whatever the
 * analysis took it for (a method whose one return is a tensor and the other a dict). */
typedef struct {
    gm_slice name;
    gm_binding before;
} gm_kind_narrowing;
/* Narrows the name test names, when test is such an isinstance() of a name taken for a tensor:
 * true, with what to give back in *narrowing. */
bool gm_kinds_narrow_begin(gm_region *region, TSNode test, gm_kind_narrowing *narrowing);
/* After the branch: the name's kind before, unless the branch bound it anew. */
void gm_kinds_narrow_end(gm_region *region, const gm_kind_narrowing *narrowing);

/* Binds the target of `for target in iterable`. */
void gm_kinds_bind_for(gm_region *region, TSNode target, TSNode iterable);

/* Whether expr is a boolean tensor: a comparison of tensors, `t.bool()`, `torch.isnan(t)`,
 * `~m`, `m & n`, or a name assigned one of these. */
bool gm_kinds_is_mask(gm_region *region, TSNode expr);

/* Whether n is a comparison with only ==, !=, <, <=, >, >= (a bool, or a boolean tensor). */
bool gm_kinds_is_order_comparison(gm_region *region, TSNode n);

/* Whether identifier names an element of a tensor a `for` loop iterates over (a value dynamo
 * makes in the graph, not an input). */
bool gm_kinds_is_iteration_element(gm_region *region, TSNode identifier);

/* gm_value_of, after giving the method parameters expr names that are of unknown kind the kind
 * their callers pass: a parameter every `self.m(...)` call in the class passes a tensor to is a
 * tensor. Costs a walk of the callers; meant for the few places a rule needs it. */
gm_value gm_value_of_resolved(gm_region *region, TSNode expr);

/* Whether the parameter identifier is a tensor that every caller in the file computes before
 * passing it (gm_value_of_resolved): inlined into the caller's graph, a value made in the graph
 * rather than a graph input. */
bool gm_kinds_is_passed_made(gm_region *region, TSNode identifier);

/* Whether expr is a tensor on weak evidence only: a `self.<attribute>(...)` call taken for a
 * submodule (an inherited method may return an int), or a name assigned one. */
bool gm_kinds_is_guessed_tensor(gm_region *region, TSNode expr);

/* Why expr is taken for a tensor, as a message says it: the first name in expr that holds a
 * tensor for a recorded reason, "`x` is a tensor because it is passed to `torch.tanh`" (also:
 * annotated `torch.Tensor`, assigned `self.lin(h)`, a tensor method called on it, an element of
 * a tensor, returned by a function of the file, passed by every caller), written to out (at
 * most cap bytes). False, with out empty, when no name of expr has one. */
bool gm_kinds_tensor_because(gm_region *region, TSNode expr, char *out, size_t cap);

/* Whether expr is a tensor only because a call it reads (directly or through a name assigned
 * from it) may return one: a method of the file's classes that returns a tensor on some paths
 * or for some classes (`past_key_values.get_seq_length()` where a StaticLayer-like class
 * returns a tensor attribute or 0). The condition, "`cache.get_seq_length()` returns a
 * tensor", goes to out (at most cap bytes). */
bool gm_kinds_conditional_tensor(gm_region *region, TSNode expr, char *out, size_t cap);

/* The right side a tensor name was last assigned in the region so far (`loss = self.zero`), as
 * a node of the function, into *rhs; false when the name holds no tensor assigned from an
 * expression (a parameter, a loop element, an unknown value). */
bool gm_kinds_assigned_from(gm_region *region, TSNode identifier, TSNode *rhs);

/* Whether the call is to a torch context manager that dynamo can resume around a break
 * (torch.no_grad(), autocast, set_grad_enabled, torch.device(...), ...). */
bool gm_is_torch_context_manager(gm_region *region, TSNode expr);

#endif
