/* The mend builders: source rewrites that remove a predicted graph break, in the spirit of
 * GraphMend's transforms ([Where], [Trap], [Defer]) and beyond. A rule calls its builder just
 * before it emits the finding. Each builder writes at most GM_MENDS_MAX fixes into out (kind
 * GM_FIX_KIND_MEND, title "Mend graph break: ...", applicability safe, unsafe or display-only
 * as ruff defines them) and returns how many, or -1 on OOM. A builder that writes none may set
 * region->mend_declined to why (a static string, shown in the hover). Mends are conservative:
 * a rewrite is offered only where it provably keeps the program's meaning. */
#ifndef GM_ANALYSIS_MENDS_MENDS_H
#define GM_ANALYSIS_MENDS_MENDS_H

#include "analysis/regions/region.h"

#define GM_MENDS_MAX 3

/* GM101 (where.c, cond.c): the condition of a data-dependent `if` (or a ternary,
 * while, ...): torch.where / torch.cond rewrites. */
int gm_mend_data_dependent_branch(gm_region *region, TSNode condition, gm_fix *out);

/* GM101 (random_decision.c) when no other mend fits: a test that compares a fresh random draw
 * (LayerDrop's `if torch.rand([]) < p`) taken in eager mode only. */
int gm_mend_random_decision(gm_region *region, TSNode condition, gm_fix *out);

/* GM103 (trap.c): the condition of `if not <cond>: raise E("...")`: an in-graph assert.
 * GM101's builder hands it `if <cond>: raise ...` too (asserting not cond). */
int gm_mend_validation_guard(gm_region *region, TSNode condition, gm_fix *out);
/* GM101 (trap.c) on the test of `assert <tensor cond>, "literal"`: an in-graph assert. */
int gm_mend_assert_guard(gm_region *region, TSNode condition, gm_fix *out);
/* Whether if_stmt is a guard: no elif or else, and a body of one raise (and comments). */
bool gm_mend_is_raise_guard(const gm_syntax *syntax, TSNode if_stmt);

/* GM401, GM402, GM403 (defer.c): a print, logging or warnings call named name ("print",
 * "warnings.warn", "logging.info", "logging.Logger.warning"): moved out of the graph, or run
 * in eager mode only. */
int gm_mend_logging_call(gm_region *region, TSNode call, const char *name, gm_fix *out);
/* GM402, GM403 (deferred_log.c), the safe one of gm_mend_logging_call's: a Logger method or
 * warnings.warn with a message and no tensor, called through a function the file defines and
 * adds to reorderable_logging_functions. 0 with region->mend_declined set when it does not
 * apply. */
int gm_mend_deferred_log(gm_region *region, TSNode call, const char *name, gm_fix *out);

/* GM608 (buffer_store.c): `self.pos = self.pos.to(...)` of an nn.Buffer, the assignment:
 * stored only when the conversion made a new tensor. */
int gm_mend_buffer_store(gm_region *region, TSNode assignment, gm_fix *out);

/* GM607 (cached_property.c): a read of a functools.cached_property whose definition (decorated,
 * with its decorator) the class holds: the decorator becomes @property. */
int gm_mend_cached_property(gm_region *region, TSNode decorated, TSNode decorator, gm_fix *out);

/* GM606 (comprehension_loop.c): a list, set or dict comprehension compiled as a frame of its
 * own (Python < 3.12): the loop Python 3.12+ runs in the function's frame. */
int gm_mend_comprehension_loop(gm_region *region, TSNode comprehension, gm_fix *out);

/* GM611 (iterator_to_list.c): the iterator `max(...)`/`min(...)` takes with a keyword (a
 * generator expression, or a call of map, filter, zip or enumerate): a list. */
int gm_mend_iterator_to_list(gm_region *region, TSNode iterator, gm_fix *out);

/* GM201, GM202 (scalar.c): `.item()`, `.tolist()`, int()/float()/bool() of a tensor. */
int gm_mend_tensor_to_python(gm_region *region, TSNode call, gm_fix *out);

/* GM202 (fill_value.c): a tensor fill value of `x.new_full(...)` or `torch.full_like(...)`: the
 * empty tensor filled in place with it, `.fill_(value.detach().reshape(()))`. */
int gm_mend_tensor_fill(gm_region *region, TSNode call, gm_fix *out);

/* GM201, GM202 (capture_scalars.c): a data-dependent number no rewrite keeps a tensor, whose
 * uses dynamo traces as a symbolic int: capture_scalar_outputs switched on after the module's
 * imports (unsafe). Writes nothing when the file's options have it on already, or (saying why)
 * when torch is imported only under a condition. */
int gm_mend_capture_scalars(gm_region *region, gm_fix *out);

/* GM301, GM302 (dynamic_shape.c): dynamic-shape calls and boolean-mask subscripts. */
int gm_mend_dynamic_shape(gm_region *region, TSNode node, gm_fix *out);

#endif
