/* GM609: state changed outside the function in code that gradient checkpointing may run. With
 * checkpointing enabled in training (`torch.utils.checkpoint.checkpoint(block, x)`,
 * transformers' and diffusers' `self._gradient_checkpointing_func(...)`, transformers'
 * GradientCheckpointingLayer), torch.compile traces the checkpointed module's forward as the
 * body of a higher-order op, which must not change anything that lives outside it: an attribute
 * stored on a module (`self.causal_cache = x.clone()`), one deleted (`del self.prev_features`),
 * an item stored in a dict or list the caller passed in (`cache["mean"] = 1`) make dynamo abandon
 * the op ("HOP: Unsafe side effect", GB0067) and run the checkpointed call eagerly (verified on
 * torch 2.13 CPU: the same statements trace without a break when nothing is checkpointed). An
 * attribute set to a literal (`self.shift_size = 0`) breaks at the checkpoint call instead,
 * unless undone (is_literal_value).
 * Whether checkpointing is on is a run-time switch (`model.gradient_checkpointing_enable()`),
 * so the finding says so; it is made only with the training setting, in files that checkpoint
 * modules, in methods of classes other than the one making the checkpoint call, and once per
 * function (dynamo gives up on the body at the first). */
#include <stdio.h>
#include <string.h>

#include "analysis/module_facts/symbols.h"
#include "analysis/regions/binding_lookup.h"
#include "analysis/rules/emit.h"
#include "analysis/rules/rules.h"
#include "analysis/value_kinds/value_kinds.h"

static const char *const checkpointed =
    "gradient checkpointing runs this module in training (checkpointing enabled)";

/* The annotation of the parameter named name of the region's function, as text, or an empty
 * slice (no such parameter, or none annotated). */
static gm_slice parameter_annotation(const gm_region *r, gm_slice name) {
    TSNode type = gm_parameter_annotation(r->stmt->syntax, r->stmt->text, r->site.function, name);
    return ts_node_is_null(type) ? (gm_slice){r->stmt->text, 0} : gm_node_slice(type, r->stmt->text);
}

/* Whether an annotation names a dict or a list (`Dict`, `dict[str, Tensor]`, `List | None`). */
static bool names_container(gm_slice annotation) {
    static const char *const words[] = {"Dict", "dict", "List", "list", "MutableMapping"};
    for (size_t w = 0; w < sizeof words / sizeof words[0]; w++) {
        size_t n = strlen(words[w]);
        for (uint32_t at = 0; at + n <= annotation.len; at++)
            if (memcmp(annotation.ptr + at, words[w], n) == 0)
                return true;
    }
    return false;
}

/* Whether the region's function calls a dict method on the name (`cache.get("mean")`). */
static bool used_as_dict(const gm_region *r, gm_slice name) {
    gm_slice body = gm_node_slice(r->site.function, r->stmt->text);
    static const char *const methods[] = {".get(", ".setdefault(", ".items(", ".keys("};
    for (uint32_t at = 0; at + name.len < body.len; at++) {
        char before = at > 0 ? body.ptr[at - 1] : ' ';
        bool in_word = before == '_' || before == '.' || ((before | 0x20) >= 'a' && (before | 0x20) <= 'z') ||
                       (before >= '0' && before <= '9');
        if (in_word || memcmp(body.ptr + at, name.ptr, name.len) != 0)
            continue;
        for (size_t m = 0; m < sizeof methods / sizeof methods[0]; m++) {
            size_t n = strlen(methods[m]);
            if (at + name.len + n <= body.len && memcmp(body.ptr + at + name.len, methods[m], n) == 0)
                return true;
        }
    }
    return false;
}

/* What target changes outside the function: the module itself (`self.x`, `self.x.y`), or a
 * dict or list a parameter holds, by its annotation or a dict method called on it (`cache[k]`);
 * NULL for anything else. */
static const char *outside_state(gm_region *r, TSNode target) {
    const gm_syntax *syn = r->stmt->syntax;
    target = gm_unparen(syn, target);
    if (gm_is(target, syn->sym.attribute)) {
        TSNode head = gm_chain_head(syn, target);
        return gm_lookup_is_self(r, head) ? "an attribute of the module" : NULL;
    }
    if (!gm_is(target, syn->sym.subscript))
        return NULL;
    TSNode container = gm_unparen(syn, gm_child(target, syn->field.value));
    if (!gm_is(container, syn->sym.identifier) || gm_lookup_is_self(r, container))
        return NULL;
    gm_slice name = gm_node_slice(container, r->stmt->text);
    if (!gm_parameters_bind_name(r->stmt->syntax, r->stmt->text, r->site.function, name) ||
        gm_value_of(r, container).kind == GM_KIND_TENSOR ||
        !(names_container(parameter_annotation(r, name)) || used_as_dict(r, name)))
        return NULL;
    return "an item of a container passed in";
}

/* A value made of literals only (`0`, `"input_ids"`, `None`, `(1, 2)`, `torch_int(0)`): dynamo
 * keeps such a store on a module as a side effect of the checkpoint's body and checks at the end
 * that it was undone; if not, it breaks at the checkpoint call instead ("HOP: Non-nullified side
 * effect", verified on torch 2.13), which is in the caller: not reported here. */
static bool is_literal_value(const gm_syntax *syn, TSNode n, int depth) {
    n = gm_unparen(syn, n);
    if (ts_node_is_null(n) || depth > 8)
        return false;
    const char *type = ts_node_type(n);
    if (strcmp(type, "integer") == 0 || strcmp(type, "float") == 0 || strcmp(type, "true") == 0 ||
        strcmp(type, "false") == 0 || gm_is(n, syn->sym.none) || gm_is_constant_string(syn, n))
        return true;
    if (gm_is(n, syn->sym.unary_operator))
        return is_literal_value(syn, gm_child(n, syn->field.argument), depth + 1);
    TSNode items = n;
    if (gm_is(n, syn->sym.call)) {
        /* a function of literals (`torch_int(0)`), not a method of some object */
        items = gm_child(n, syn->field.arguments);
        if (!gm_is(gm_unparen(syn, gm_child(n, syn->field.function)), syn->sym.identifier) ||
            !gm_is(items, syn->sym.argument_list) || ts_node_named_child_count(items) == 0)
            return false;
    } else if (!gm_is(n, syn->sym.tuple) && !gm_is(n, syn->sym.list)) {
        return false;
    }
    uint32_t count = ts_node_named_child_count(items);
    for (uint32_t i = 0; i < count; i++)
        if (!is_literal_value(syn, ts_node_named_child(items, i), depth + 1))
            return false;
    return true;
}

bool gm_region_may_run_checkpointed(const gm_region *region) {
    const gm_stmt_ctx *st = region->stmt;
    return st->options->training && st->symbols->uses_gradient_checkpointing &&
           region->self_name.len > 0 && !ts_node_is_null(region->site.class_node) &&
           !gm_mentions_checkpoint_call(gm_node_slice(region->site.class_node, st->text));
}

void gm_rule_checkpoint_side_effect(gm_region *region, TSNode target, bool deletes) {
    const gm_stmt_ctx *st = region->stmt;
    if (region->checkpoint_side_effect_reported || !gm_region_may_run_checkpointed(region))
        return;
    const char *what = outside_state(region, target);
    TSNode assignment = ts_node_parent(target);
    if (!what || (!deletes && gm_is(gm_unparen(st->syntax, target), st->syntax->sym.attribute) &&
                  gm_is(assignment, st->syntax->sym.assignment) &&
                  is_literal_value(st->syntax, gm_child(assignment, st->syntax->field.right), 0)))
        return;
    region->checkpoint_side_effect_reported = true;
    gm_slice text = gm_node_slice(target, st->text);
    char message[600];
    snprintf(message, sizeof message,
             "%s `%.*s`, %s: when %s, torch.compile traces the module's forward as the body of a "
             "checkpoint, which must not change state outside it, so it breaks the graph here "
             "and runs the checkpointed call eagerly",
             deletes ? "deletes" : "stores", (int)(text.len > 80 ? 80 : text.len), text.ptr, what,
             checkpointed);
    region->only_when_condition = checkpointed;
    region->mend_declined =
        "the state change is the module's behaviour: keep it out of the checkpointed forward "
        "(return the value and store it in the caller), or leave checkpointing off for this "
        "module";
    gm_emit_finding(region, gm_rule_by_id("GM609"), target, message, NULL, 0);
}
