/* GM612 untraceable-tensor-method: Tensor methods about a tensor's memory, which dynamo's fake
 * tensors do not have (checked one by one on torch 2.13): `is_pinned()`, `storage()` and
 * `storage_offset()` (GB0208, "torch.* op returned non-Tensor") and `resize_()` (GB0126) each
 * break the graph, and dynamo resumes after it. (`data_ptr()` and `untyped_storage()` alone
 * trace; what is done with their results may not.) The receiver must be known for a tensor: the
 * names alone are no evidence. */
#include <stdio.h>
#include <string.h>

#include "analysis/rules/emit.h"
#include "analysis/rules/rules.h"
#include "analysis/value_kinds/value_kinds.h"

typedef struct {
    const char *name;
    const char *what; /* what the method reads or does */
} memory_method;

static const memory_method memory_methods[] = {
    {"is_pinned", "asks whether the tensor's memory is pinned"},
    {"storage", "reads the tensor's storage"},
    {"storage_offset", "reads the tensor's offset in its storage"},
    {"resize_", "resizes the tensor's storage in place"},
};

void gm_rule_untraceable_tensor_method(gm_region *region, TSNode call) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    TSNode fn = gm_unparen(syn, gm_child(call, syn->field.function));
    if (!gm_is(fn, syn->sym.attribute))
        return;
    TSNode attr = gm_child(fn, syn->field.attribute);
    if (ts_node_is_null(attr))
        return;
    const memory_method *method = NULL;
    for (size_t i = 0; i < sizeof memory_methods / sizeof memory_methods[0] && !method; i++)
        if (gm_node_text_is(attr, st->text, memory_methods[i].name))
            method = &memory_methods[i];
    TSNode object = gm_child(fn, syn->field.object);
    if (!method || gm_value_of(region, object).kind != GM_KIND_TENSOR)
        return;
    char message[400];
    snprintf(message, sizeof message,
             "`Tensor.%s()` call: it %s, which torch.compile's fake tensors do not have, so it "
             "breaks the graph here",
             method->name, method->what);
    gm_emit_finding_as_written(region, gm_rule_by_id("GM612"), call, message, NULL, 0);
}
