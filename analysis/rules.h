/* The rules. Each is called by the region walker at the construct it looks at and reports
 * through gm_emit_finding. */
#ifndef GM_ANALYSIS_RULES_H
#define GM_ANALYSIS_RULES_H

#include "region.h"

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

/* GM401: every call in the region. */
void gm_rule_print_call(gm_region *region, TSNode call);

/* GM201 (t.item()) and GM202 (int/float/bool of a tensor, t.tolist()): every call in the
 * region. */
void gm_rule_tensor_to_python(gm_region *region, TSNode call);

/* GM402 (logging.Logger methods, logging.* functions) and GM403 (warnings.warn): every call in
 * the region. */
void gm_rule_logging_call(gm_region *region, TSNode call);

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

#endif
