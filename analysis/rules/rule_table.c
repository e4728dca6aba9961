/* The rule table: which rules the region walker runs at each kind of node, in the order they
 * report (a finding's position in the output follows it). */
#include "analysis/rules/rules.h"

const gm_node_rule gm_call_rules[] = {
    gm_rule_print_call,         gm_rule_tensor_to_python, gm_rule_logging_call,
    gm_rule_dynamic_shape_call, gm_rule_untraceable_call, gm_rule_python_construct_call,
    gm_rule_disabled_call,      gm_rule_rng_state_call,   gm_rule_autograd_call,
    gm_rule_tensor_text_call,   gm_rule_property_state_call, gm_rule_min_max_call,
    gm_rule_untraceable_tensor_method,
};
const size_t gm_call_rule_count = sizeof gm_call_rules / sizeof gm_call_rules[0];

const gm_node_rule gm_subscript_rules[] = {gm_rule_boolean_mask};
const size_t gm_subscript_rule_count = sizeof gm_subscript_rules / sizeof gm_subscript_rules[0];

const gm_node_rule gm_comparison_rules[] = {gm_rule_tensor_contains};
const size_t gm_comparison_rule_count = sizeof gm_comparison_rules / sizeof gm_comparison_rules[0];

const gm_node_rule gm_binary_rules[] = {gm_rule_tensor_text_format};
const size_t gm_binary_rule_count = sizeof gm_binary_rules / sizeof gm_binary_rules[0];
