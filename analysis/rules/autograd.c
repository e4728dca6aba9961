/* Autograd inside a region, each with the registry id torch 2.13 reports: GM701 backward-call
 * (GB0123, `loss.backward()`; traced by default from torch 2.14, so only predicted before),
 * GM702 autograd-grad (GB9186, torch.autograd.grad), GM703 requires-grad-in-place (GB0125,
 * `requires_grad_()` on a tensor that comes from outside: a parameter of the function, an
 * attribute of self, a global; on a tensor made inside it is traced), GM704 requires-grad-store
 * (GB0206, `t.requires_grad = ...`), GM705 factory-requires-grad (GB0225, `torch.zeros(...,
 * requires_grad=True)` and the other factories), GM706 retain-grad (GB0108,
 * `t.retain_grad()`: dynamo cannot resume after it and skips the function) and GM708
 * inplace-view-on-input (GB0148, `self.weight.detach_()`, `x.unsqueeze_(0)`: an op tagged
 * inplace_view on a tensor with a source, logged by the graph_breaks log but not by explain). */
#include <stdio.h>
#include <string.h>

#include "analysis/module_facts/symbols.h"
#include "analysis/rules/emit.h"
#include "analysis/rules/rules.h"
#include "analysis/value_kinds/value_kinds.h"

static bool is_self(const gm_region *region, TSNode n) {
    const gm_syntax *syn = region->stmt->syntax;
    return region->self_name.len > 0 && gm_is(n, syn->sym.identifier) &&
           gm_slice_eq(gm_node_slice(n, region->stmt->text), region->self_name);
}

/* Whether name is one of the function's own parameters (not self). */
static bool is_parameter(const gm_region *region, TSNode name) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    gm_slice want = gm_node_slice(name, st->text);
    TSNode params = gm_child(region->site.function, syn->field.parameters);
    for (uint32_t i = 0; !ts_node_is_null(params) && i < ts_node_named_child_count(params); i++) {
        TSNode p = ts_node_named_child(params, i);
        if (!gm_is(p, syn->sym.identifier)) {
            TSNode n = gm_child(p, syn->field.name);
            if (ts_node_is_null(n) && ts_node_named_child_count(p) > 0)
                n = ts_node_named_child(p, 0);
            p = n;
        }
        if (gm_is(p, syn->sym.identifier) && gm_slice_eq(gm_node_slice(p, st->text), want))
            return !is_self(region, name);
    }
    return false;
}

/* A tensor dynamo received rather than made: a parameter, `self.<attr>...`, a global name the
 * function does not bind (imports excluded), or a local last assigned one of these as it is
 * (`loss = self.zero`: the same tensor under another name). */
static bool comes_from_outside_at(gm_region *region, TSNode obj, int depth) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    obj = gm_unparen(syn, obj);
    if (gm_is(obj, syn->sym.attribute)) {
        TSNode head = gm_chain_head(syn, obj);
        return is_self(region, head);
    }
    if (!gm_is(obj, syn->sym.identifier) || is_self(region, obj))
        return false;
    if (gm_region_binds_node(region, obj)) {
        if (is_parameter(region, obj))
            return true;
        TSNode rhs;
        return depth < 4 && gm_kinds_assigned_from(region, obj, &rhs) &&
               comes_from_outside_at(region, rhs, depth + 1);
    }
    return !gm_symbols_is_imported(st->symbols, gm_node_slice(obj, st->text));
}

static bool comes_from_outside(gm_region *region, TSNode obj) {
    return comes_from_outside_at(region, obj, 0);
}

/* The value of keyword argument key in call, or a null node. */
static TSNode keyword(const gm_stmt_ctx *st, TSNode call, const char *key) {
    const gm_syntax *syn = st->syntax;
    TSNode args = gm_child(call, syn->field.arguments);
    for (uint32_t i = 0; gm_is(args, syn->sym.argument_list) && i < ts_node_named_child_count(args);
         i++) {
        TSNode a = ts_node_named_child(args, i);
        if (gm_is(a, syn->sym.keyword_argument) &&
            gm_node_text_is(gm_child(a, syn->field.name), st->text, key))
            return gm_child(a, syn->field.value);
    }
    return (TSNode){0};
}

/* Whether n is the name of a top-level class of the file (`MyFunction.backward(ctx, g)`). */
static bool names_class(const gm_stmt_ctx *st, TSNode n) {
    const gm_keyed_class *classes;
    return gm_is(n, st->syntax->sym.identifier) &&
           gm_module_index_classes(st->module_index, gm_node_slice(n, st->text), &classes) > 0;
}

/* Whether n names a top-level class of the file that subclasses torch.autograd.Function
 * (`MyFunction.apply(x)`). */
static bool names_autograd_function(const gm_stmt_ctx *st, TSNode n) {
    const gm_syntax *syn = st->syntax;
    if (!names_class(st, n))
        return false;
    const gm_keyed_class *classes;
    uint32_t count = gm_module_index_classes(st->module_index, gm_node_slice(n, st->text), &classes);
    for (uint32_t i = 0; i < count; i++) {
        TSNode bases = gm_child(classes[i].node, syn->field.superclasses);
        uint32_t base_count = ts_node_is_null(bases) ? 0 : ts_node_named_child_count(bases);
        for (uint32_t b = 0; b < base_count; b++) {
            char resolved[GM_NAME_MAX];
            if (gm_symbols_resolve(st->symbols, syn, st->text, ts_node_named_child(bases, b),
                                   resolved, sizeof resolved) &&
                (strcmp(resolved, "torch.autograd.Function") == 0 ||
                 strcmp(resolved, "torch.autograd.function.Function") == 0))
                return true;
        }
    }
    return false;
}

/* The first positional argument of call that repeats an earlier one (the same name), or a null
 * node. */
static TSNode repeated_argument(const gm_stmt_ctx *st, TSNode call) {
    const gm_syntax *syn = st->syntax;
    TSNode args = gm_child(call, syn->field.arguments);
    uint32_t count = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
    for (uint32_t i = 0; i < count && i < 32; i++) {
        TSNode a = ts_node_named_child(args, i);
        if (!gm_is(a, syn->sym.identifier))
            continue;
        for (uint32_t j = 0; j < i; j++) {
            TSNode earlier = ts_node_named_child(args, j);
            if (gm_is(earlier, syn->sym.identifier) &&
                gm_slice_eq(gm_node_slice(earlier, st->text), gm_node_slice(a, st->text)))
                return a;
        }
    }
    return (TSNode){0};
}

/* `F.apply(mask, mask, q)` for an autograd.Function F of the file: with gradients enabled,
 * dynamo does not trace a Function whose inputs repeat a tensor (GB6297); under no_grad it
 * does. Training mode means gradients; otherwise the break is conditional on them. */
static void apply_with_repeated_input(gm_region *region, TSNode call, TSNode obj) {
    const gm_stmt_ctx *st = region->stmt;
    if (!names_autograd_function(st, obj))
        return;
    TSNode repeated = repeated_argument(st, call);
    if (ts_node_is_null(repeated))
        return;
    gm_slice f = gm_node_slice(obj, st->text), a = gm_node_slice(repeated, st->text);
    char message[400];
    snprintf(message, sizeof message,
             "`%.*s.apply(...)` passes `%.*s` twice: %storch.compile cannot trace an "
             "autograd.Function whose inputs repeat a tensor and breaks the graph here",
             (int)(f.len > 64 ? 64 : f.len), f.ptr, (int)(a.len > 64 ? 64 : a.len), a.ptr,
             st->options->training ? "" : "when `torch.is_grad_enabled()` holds, ");
    if (!st->options->training)
        region->only_when_condition = "torch.is_grad_enabled()";
    gm_emit_finding_as_written(region, gm_rule_by_id("GM707"), call, message, NULL, 0);
}

/* Tensor methods whose aten op carries the inplace_view tag (torch 2.13, first overload, as
 * dynamo checks it), sorted. */
static const char *const inplace_view_methods[] = {
    "as_strided_", "detach_", "resize_",    "resize_as_", "set_",       "squeeze_",
    "swapaxes_",   "swapdims_", "t_",       "transpose_", "unsqueeze_",
};

static bool is_inplace_view_method(const gm_stmt_ctx *st, TSNode method) {
    for (size_t i = 0; i < sizeof inplace_view_methods / sizeof inplace_view_methods[0]; i++)
        if (gm_node_text_is(method, st->text, inplace_view_methods[i]))
            return true;
    return false;
}

static void method_call(gm_region *region, TSNode call, TSNode fn) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    TSNode obj = gm_unparen(syn, gm_child(fn, syn->field.object));
    TSNode method = gm_child(fn, syn->field.attribute);
    TSNode head = gm_chain_head(syn, obj);
    if (!ts_node_is_null(head) && !is_self(region, head) &&
        gm_symbols_is_imported(st->symbols, gm_node_slice(head, st->text)))
        return; /* torch.xxx.backward(...), a module's function */
    if (gm_node_text_is(method, st->text, "apply")) {
        apply_with_repeated_input(region, call, obj);
    } else if (gm_node_text_is(method, st->text, "backward")) {
        if (st->options->torch_version >= 214 || is_self(region, obj) || names_class(st, head))
            return;
        gm_emit_finding_as_written(region, gm_rule_by_id("GM701"), call,
                        "`Tensor.backward()` call: torch.compile does not trace the backward "
                        "pass on this PyTorch (trace_autograd_ops is off) and breaks the graph "
                        "here",
                        NULL, 0);
    } else if (gm_node_text_is(method, st->text, "requires_grad_")) {
        if (!comes_from_outside(region, obj))
            return;
        gm_emit_finding_as_written(region, gm_rule_by_id("GM703"), call,
                        "`requires_grad_()` on a tensor from outside the compiled code: "
                        "torch.compile cannot change whether an input needs gradients while "
                        "tracing and breaks the graph here",
                        NULL, 0);
    } else if (is_inplace_view_method(st, method)) {
        if (!comes_from_outside(region, obj) || gm_value_of(region, obj).kind == GM_KIND_STATIC)
            return;
        gm_slice shown = gm_node_slice(fn, st->text);
        char message[400];
        snprintf(message, sizeof message,
                 "`%.*s()` changes a tensor's view in place, and the tensor comes from outside "
                 "the compiled code (an argument, parameter, buffer or global): torch.compile "
                 "cannot trace that and breaks the graph here",
                 (int)(shown.len > 64 ? 64 : shown.len), shown.ptr);
        region->mend_declined = "graphmend has no rewrite for this construct; use the "
                                "out-of-place op and keep its result (`w = w.detach()`)";
        gm_emit_finding(region, gm_rule_by_id("GM708"), call, message, NULL, 0);
    } else if (gm_node_text_is(method, st->text, "retain_grad")) {
        if (is_self(region, obj))
            return;
        gm_emit_finding_as_written(region, gm_rule_by_id("GM706"), call,
                        "`retain_grad()` call: torch.compile cannot retain gradients of "
                        "intermediates and cannot resume after this break, so the whole "
                        "function runs eagerly",
                        NULL, 0);
        gm_region_skip_frame(region, "GM706");
    }
}

void gm_rule_autograd_call(gm_region *region, TSNode call) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    TSNode fn = gm_unparen(syn, gm_child(call, syn->field.function));
    TSNode head;
    TSNode target = gm_call_target(syn, call, &head);
    bool imported = !ts_node_is_null(target) &&
                    gm_symbols_is_imported(st->symbols, gm_node_slice(head, st->text)) &&
                    !gm_region_binds_node(region, head);
    if (!imported) {
        if (gm_is(fn, syn->sym.attribute))
            method_call(region, call, fn);
        return;
    }
    char name[GM_NAME_MAX];
    if (!gm_symbols_resolve(st->symbols, syn, st->text, target, name, sizeof name))
        return;
    if (strcmp(name, "torch.autograd.grad") == 0) {
        gm_emit_finding_as_written(region, gm_rule_by_id("GM702"), call,
                        "`torch.autograd.grad()` call: torch.compile does not trace autograd "
                        "calls (trace_autograd_ops is off) and breaks the graph here",
                        NULL, 0);
        return;
    }
    /* torch.<factory>(..., requires_grad=True); nn.Parameter is GM602 */
    if (strncmp(name, "torch.", 6) != 0 || strchr(name + 6, '.') != NULL)
        return;
    TSNode rg = gm_unparen(syn, keyword(st, call, "requires_grad"));
    if (ts_node_is_null(rg))
        return;
    /* True, or what folds to it (`requires_grad=self.training` in training mode); a Python
     * value the analysis cannot decide makes the break conditional on it */
    gm_value v = gm_value_of(region, rg);
    if (v.constant == 0 || gm_is(rg, syn->sym.false_literal) || gm_is(rg, syn->sym.none) ||
        (v.constant < 0 && v.kind == GM_KIND_TENSOR))
        return;
    gm_slice shown = gm_node_slice(rg, st->text);
    if (shown.len > 60)
        shown.len = 60;
    char message[GM_NAME_MAX + 320], condition[64];
    if (v.constant == 1 || gm_is(rg, syn->sym.true_literal)) {
        snprintf(message, sizeof message,
                 "`%s(..., requires_grad=%.*s)`: torch.compile cannot create a tensor that "
                 "requires gradients while tracing and breaks the graph here",
                 name, (int)shown.len, shown.ptr);
    } else {
        snprintf(condition, sizeof condition, "%.*s", (int)shown.len, shown.ptr);
        snprintf(message, sizeof message,
                 "`%s(..., requires_grad=%s)`: when `%s` holds, torch.compile cannot create a "
                 "tensor that requires gradients while tracing and breaks the graph here",
                 name, condition, condition);
        region->only_when_condition = condition;
    }
    gm_emit_finding_as_written(region, gm_rule_by_id("GM705"), call, message, NULL, 0);
}

void gm_rule_autograd_store(gm_region *region, TSNode target) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    target = gm_unparen(syn, target);
    if (!gm_is(target, syn->sym.attribute) ||
        !gm_node_text_is(gm_child(target, syn->field.attribute), st->text, "requires_grad"))
        return;
    TSNode obj = gm_unparen(syn, gm_child(target, syn->field.object));
    if (is_self(region, obj))
        return; /* a module attribute named requires_grad, not a tensor's */
    char shown[GM_SHOWN_SIZE], message[320];
    gm_node_shown(target, st->text, shown, sizeof shown);
    snprintf(message, sizeof message,
             "`%s = ...` on a tensor: torch.compile cannot change whether a tensor needs "
             "gradients while tracing and breaks the graph here",
             shown);
    gm_emit_finding(region, gm_rule_by_id("GM704"), target, message, NULL, 0);
}
