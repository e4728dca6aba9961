/* The rules. The region walker runs them at the constructs they look at: those that look at one
 * node go through the rule table below, the others are called with what they need (a condition's
 * value, the construct's name). Each reports through gm_emit_finding. */
#ifndef GM_ANALYSIS_RULES_RULES_H
#define GM_ANALYSIS_RULES_RULES_H

#include "analysis/regions/region.h"

/* GM101: condition of an if/elif/while or conditional expression, the left operand of a value
 * `and`/`or`, or the test of an assert with a non-string message, with its value. construct
 * names it for the message ("if", "elif", "while", "conditional expression", "and", ...). */
void gm_rule_data_dependent_branch(gm_region *region, TSNode condition, gm_value value,
                                   const char *construct);

/* GM103: the condition of `if not <cond>: raise ...` (a validation guard), reported instead of
 * GM101. */
void gm_rule_data_dependent_guard(gm_region *region, TSNode condition, gm_value value);

/* GM104: `not <cond>` used as a value (outside if/while/ternary tests), with its operand's value.
 */
void gm_rule_tensor_not(gm_region *region, TSNode not_operator, gm_value operand);

/* GM601: a class definition statement in the region. */
void gm_rule_class_in_region(gm_region *region, TSNode class_definition);

/* GM602 (nn.Parameter(...)), GM603 (next() on an iterator passed in as a parameter), GM604
 * (self.rnn(...) where __init__ sets self.rnn = nn.LSTM/GRU/RNN(...)) and GM605 (.send() /
 * .throw() on a generator passed in as a parameter): every call in the region. */
void gm_rule_python_construct_call(gm_region *region, TSNode call);

/* GM611 (max(...)/min(...) with default= or key= over a generator expression or a call of
 * map, filter, zip or enumerate): every call in the region. */
void gm_rule_min_max_call(gm_region *region, TSNode call);

/* GM612 (storage(), storage_offset(), is_pinned(), resize_() on a tensor): every call in the
 * region. */
void gm_rule_untraceable_tensor_method(gm_region *region, TSNode call);

/* GM606: after the walk of a region's body, the comprehensions dynamo compiles as frames of
 * their own because it runs the function eagerly (before Python 3.12). */
void gm_rule_comprehension_frames(gm_region *region, TSNode body);

/* GM607: every attribute read in the region (`self.p`, p a functools.cached_property). */
void gm_rule_cached_property_read(gm_region *region, TSNode attribute);

/* Reads of a @property whose getter breaks (st->breaking_properties): every attribute read in
 * the region; the stores and calls before them that put a tensor into an attribute. */
void gm_rule_property_read(gm_region *region, TSNode attribute);
void gm_note_attribute_store(gm_region *region, TSNode left, TSNode right);
void gm_rule_property_state_call(gm_region *region, TSNode call);
/* Adds to set (which st reads too) the methods of the module's classes with a breaking getter
 * of their own that store a tensor into an attribute (each judged with its own parameters'
 * kinds), for other modules that read those getters. Returns 0, or -1 on OOM. */
struct gm_breaking_properties;
int gm_rule_property_tensor_stores(gm_stmt_ctx *st, struct gm_breaking_properties *set);

/* GM610: the tensor-method calls whose arguments hold breaking, a node just reported by a rule
 * whose break dynamo resumes after mid-expression (GM301). */
void gm_rule_method_across_break(gm_region *region, TSNode breaking);
/* GM609: the target of every assignment and del in the region (deletes: a del), with the
 * training setting in a file that checkpoints modules. */
void gm_rule_checkpoint_side_effect(gm_region *region, TSNode target, bool deletes);
/* Whether gradient checkpointing may run the region (a method of a module of a file that
 * checkpoints modules, other than the class making the call) with the training setting: then a
 * break inside it ends the checkpoint's traced body, and dynamo resumes nothing there. */
bool gm_region_may_run_checkpointed(const gm_region *region);
/* GM608: the target of every assignment in the region (`self.b = ...`, b an nn.Buffer). */
void gm_rule_buffer_store(gm_region *region, TSNode target);

/* GM401: every call in the region. */
void gm_rule_print_call(gm_region *region, TSNode call);

/* GM201 (t.item()) and GM202 (int/float/bool of a tensor, t.tolist()): every call in the
 * region. */
void gm_rule_tensor_to_python(gm_region *region, TSNode call);

/* GM402 (logging.Logger methods, logging.* functions) and GM403 (warnings.warn): every call in
 * the region. */
void gm_rule_logging_call(gm_region *region, TSNode call);

/* GM511 (a NumPy function torch._numpy lacks) and GM202 (np.random.choice, a NumPy random draw
 * of one number): a call whose callee resolves to name; false when name is not a numpy one. */
bool gm_rule_numpy_call(gm_region *region, TSNode call, TSNode callee, const char *name);

/* GM202 for a tensor turned into text: `str(t)`, `repr(t)` (every call in the region) and
 * printf-style `"%s" % t` (every binary operator; dynamo then skips the frame). */
void gm_rule_tensor_text_call(gm_region *region, TSNode call);
void gm_rule_tensor_text_format(gm_region *region, TSNode binary);

/* GM301 (nonzero, argwhere, unique, masked_select, bincount, one-argument where,
 * repeat_interleave with tensor repeats) and GM302 (one_hot without num_classes): every call in
 * the region. */
void gm_rule_dynamic_shape_call(gm_region *region, TSNode call);

/* GM301 boolean-mask indexing `x[x > 0]`: every subscript in the region. */
void gm_rule_boolean_mask(gm_region *region, TSNode subscript);

/* GM501 (time, os, pickle, torch.save/load, re.finditer, threading, seeding and RNG state),
 * GM502 (torch._dynamo.graph_break()), GM503 (open()), GM504 (input()), GM505 (json), GM506
 * (copy.deepcopy of a tensor) and GM510 (third-party modules dynamo skips): every call in the
 * region. */
void gm_rule_untraceable_call(gm_region *region, TSNode call);

/* GM507: a call of a function wrapped by torch.compiler.disable / torch._dynamo.disable (a
 * same-file decorated function or method, a module-level `g = disable(f)`, or
 * `disable(f)(...)`): every call in the region. */
void gm_rule_disabled_call(gm_region *region, TSNode call);

/* GM508 (torch.Generator methods) and GM509 (torch.Generator() created in the region): every
 * call in the region. */
void gm_rule_rng_state_call(gm_region *region, TSNode call);

/* GM701 (Tensor.backward()), GM702 (torch.autograd.grad), GM703 (requires_grad_() on an input,
 * a parameter or a global), GM705 (a factory with requires_grad=True) and GM706
 * (Tensor.retain_grad()): every call in the region. */
void gm_rule_autograd_call(gm_region *region, TSNode call);

/* GM704: the target of an assignment, `t.requires_grad = ...`. */
void gm_rule_autograd_store(gm_region *region, TSNode target);

/* GM101 (builtin any()/all() over a tensor) and GM202 (math functions of a tensor,
 * torch._assert with a tensor condition, torch.equal/allclose and their methods): every call in
 * the region, with its callee (parentheses stripped), through gm_rule_tensor_to_python
 * (tensor_data.c). */
void gm_rule_tensor_data_call(gm_region *region, TSNode call, TSNode callee);

/* GM202 for `v in t` / `v not in t` with a tensor t: Tensor.__contains__ reads the data with
 * Tensor.item(), and dynamo cannot resume after it, so the function runs eagerly
 * (tensor_data.c). Every comparison in the region. */
void gm_rule_tensor_contains(gm_region *region, TSNode comparison);

/* GM202 for a tensor where Python needs an int, which dynamo reads with Tensor.item(): a slice
 * bound (`x[:, a:b]` with a tensor a or b; dynamo cannot resume after it, so the function runs
 * eagerly), a tensor made in the graph passed as a size, length or step (`torch.arange(n + 1)`,
 * `x.narrow(-1, m, x.size(-1) - m)`, `torch.linspace(0, 1, h)` for h an element of a tensor a
 * `for` loop iterates over) and indexing with a 0-d tensor made in the graph
 * (`h[h.argmax() // 8]`). GM101 for a comparison of a list or tuple display holding a tensor
 * (`list(t.size()) == [n, m]`). Called by gm_rule_dynamic_shape_call (every call) and
 * gm_rule_boolean_mask (every subscript). */
void gm_rule_tensor_as_int_call(gm_region *region, TSNode call);
void gm_rule_tensor_as_int_subscript(gm_region *region, TSNode subscript);

/* GM101 for a comparison of a list or tuple display holding a tensor: dynamo compares element
 * by element, gets a tensor and breaks (list_richcompare_nonconst). Returns whether it
 * reported. */
bool gm_rule_sequence_comparison(gm_region *region, TSNode condition);

/* Whether a class of the file defines a method of this name (a receiver of unknown kind may
 * then be one of its instances rather than a tensor). */
bool gm_file_defines_method(const gm_stmt_ctx *st, const char *method);

/* Whether node lies in an operand dynamo never evaluates: the right side of `<False> and ...`
 * or `<True> or ...` with a compile-time constant left side. */
bool gm_in_dead_operand(gm_region *region, TSNode node);

/* The rule table (rule_table.c): the rules run at every call, subscript and comparison of a
 * region, in the order they report. */
typedef void (*gm_node_rule)(gm_region *region, TSNode node);
extern const gm_node_rule gm_call_rules[];
extern const size_t gm_call_rule_count;
extern const gm_node_rule gm_subscript_rules[];
extern const size_t gm_subscript_rule_count;
extern const gm_node_rule gm_comparison_rules[];
extern const size_t gm_comparison_rule_count;
extern const gm_node_rule gm_binary_rules[];
extern const size_t gm_binary_rule_count;

#endif
