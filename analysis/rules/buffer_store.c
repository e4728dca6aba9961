/* GM608: a module attribute that __init__ made an nn.Buffer (`self.pos = nn.Buffer(...)`)
 * stored back as a conversion of itself (`self.pos = self.pos.to(x.dtype)` in forward). When the
 * conversion is a no-op, Tensor.to returns the nn.Buffer object itself, and Module.__setattr__
 * re-registering it reads its `persistent` attribute, which dynamo cannot model (GB4841,
 * "Unsupported python_type() call"): the graph breaks there and dynamo resumes after it. A new
 * tensor (a real conversion, arithmetic, a module moved by .to() before, whose buffers are then
 * plain tensors) and buffers made with register_buffer(...) are stored without a break. Verified
 * on torch 2.13. */
#include <stdio.h>
#include <string.h>

#include "analysis/mends/mends.h"
#include "analysis/regions/binding_lookup.h"
#include "analysis/rules/emit.h"
#include "analysis/rules/rules.h"

static bool is_self_attribute(const gm_syntax *syn, const char *text, TSNode n, gm_slice self) {
    TSNode object = gm_unparen(syn, gm_child(n, syn->field.object));
    return gm_is(n, syn->sym.attribute) && gm_is(object, syn->sym.identifier) &&
           gm_slice_eq(gm_node_slice(object, text), self);
}

/* Whether call builds a torch.nn.Buffer, as the module's imports resolve its callee. */
static bool builds_buffer(const gm_stmt_ctx *st, TSNode call) {
    char resolved[128];
    TSNode fn = gm_unparen(st->syntax, gm_child(call, st->syntax->field.function));
    return gm_symbols_resolve(st->symbols, st->syntax, st->text, fn, resolved, sizeof resolved) &&
           strcmp(resolved, "torch.nn.Buffer") == 0;
}

/* Whether value is `<self>.<name>.<conversion>(...)`: a method that returns the tensor itself
 * when it already has the dtype and device asked for. */
static bool converts_itself(const gm_stmt_ctx *st, TSNode value, TSNode target) {
    static const char *const conversions[] = {"to", "float", "double", "half", "bfloat16",
                                              "type", "cpu", "cuda", "contiguous", "type_as"};
    const gm_syntax *syn = st->syntax;
    value = gm_unparen(syn, value);
    if (!gm_is(value, syn->sym.call))
        return false;
    TSNode fn = gm_unparen(syn, gm_child(value, syn->field.function));
    if (!gm_is(fn, syn->sym.attribute))
        return false;
    TSNode object = gm_unparen(syn, gm_child(fn, syn->field.object));
    if (!gm_slice_eq(gm_node_slice(object, st->text), gm_node_slice(target, st->text)))
        return false;
    for (size_t i = 0; i < sizeof conversions / sizeof conversions[0]; i++)
        if (gm_node_text_is(gm_child(fn, syn->field.attribute), st->text, conversions[i]))
            return true;
    return false;
}

void gm_rule_buffer_store(gm_region *region, TSNode target) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    target = gm_unparen(syn, target);
    if (region->self_name.len == 0 || ts_node_is_null(region->site.class_node) ||
        !is_self_attribute(syn, st->text, target, region->self_name))
        return;
    TSNode assignment = ts_node_parent(target); /* asked last: the tree walks down to it */
    if (!gm_is(assignment, syn->sym.assignment) ||
        !converts_itself(st, gm_child(assignment, syn->field.right), target))
        return;
    gm_slice name = gm_node_slice(gm_child(target, syn->field.attribute), st->text);
    TSNode made = gm_unparen(syn, gm_lookup_init_attribute(region, name));
    if (!gm_is(made, syn->sym.call) || !builds_buffer(st, made))
        return;
    int self_len = (int)(region->self_name.len > 32 ? 32 : region->self_name.len);
    int name_len = (int)(name.len > 64 ? 64 : name.len);
    gm_slice value = gm_node_slice(gm_child(assignment, syn->field.right), st->text);
    char condition[200], message[600];
    snprintf(condition, sizeof condition, "%.*s is %.*s.%.*s", (int)(value.len > 120 ? 120 : value.len),
             value.ptr, self_len, region->self_name.ptr, name_len, name.ptr);
    snprintf(message, sizeof message,
             "assignment of a conversion of `%.*s.%.*s`, which __init__ made an nn.Buffer, back to "
             "it: when the conversion is a no-op (`%s`), nn.Module.__setattr__ re-registers the "
             "nn.Buffer object itself, and torch.compile cannot trace that and breaks the graph "
             "here",
             self_len, region->self_name.ptr, name_len, name.ptr, condition);
    region->only_when_condition = condition;
    gm_fix mends[GM_MENDS_MAX];
    int count = gm_mend_buffer_store(region, assignment, mends);
    if (count < 0) {
        region->stmt->oom = true;
        return;
    }
    gm_emit_finding(region, gm_rule_by_id("GM608"), target, message, mends, (size_t)count);
}
