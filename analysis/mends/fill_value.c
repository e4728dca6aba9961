/* [Fill in place] for a GM202 fill value: `x.new_full(size, value, ...)` and
 * `torch.full_like(t, value, ...)` read a tensor value with Tensor.item(); written as the empty
 * tensor they make filled in place, `x.new_empty(size, ...).fill_(v)` and
 * `torch.empty_like(t, ...).fill_(v)` (full_like is exactly that), dynamo traces fill_ with a
 * 0-d tensor. The value goes in as `value.detach().reshape(())`: the fill value took no
 * gradient (item() cut it) and may be any one-element tensor, which fill_ takes only as 0-d;
 * fill_ casts it to the tensor's dtype, as the Python number was. Safe: the same values, dtype,
 * device and gradient. Declined when the call asks for requires_grad (an in-place fill of a
 * leaf that requires grad raises) or passes arguments through a splat. */
#include <stdlib.h>
#include <string.h>

#include "analysis/mends/mends.h"
#include "analysis/mends/rewrite_text.h"

typedef struct {
    TSNode first;   /* new_full's size, full_like's input */
    TSNode value;   /* the fill value */
    TSNode kept[8]; /* the other keyword arguments, in order */
    size_t kept_count;
} fill_arguments;

/* The arguments of a fill call, or a reason to decline (NULL when they fit). */
static const char *read_arguments(const gm_syntax *syn, const char *text, TSNode args,
                                  fill_arguments *out) {
    memset(out, 0, sizeof *out);
    uint32_t count = ts_node_named_child_count(args);
    size_t positional = 0;
    for (uint32_t i = 0; i < count; i++) {
        TSNode a = ts_node_named_child(args, i);
        if (gm_is(a, syn->sym.comment))
            return "a comment inside the call has no place in the rewritten one";
        if (gm_is(a, syn->sym.list_splat) || gm_is(a, syn->sym.dictionary_splat))
            return "the call passes arguments through a splat, which may hold requires_grad";
        if (!gm_is(a, syn->sym.keyword_argument)) {
            if (positional == 0)
                out->first = a;
            else if (positional == 1)
                out->value = a;
            else
                return "the call passes more positional arguments than size and fill value";
            positional++;
            continue;
        }
        gm_slice name = gm_node_slice(gm_child(a, syn->field.name), text);
        if (gm_slice_is(name, "fill_value")) {
            out->value = gm_child(a, syn->field.value);
        } else if (gm_slice_is(name, "requires_grad")) {
            return "the call asks for requires_grad, and filling such a leaf in place raises";
        } else if (gm_slice_is(name, "size") || gm_slice_is(name, "input")) {
            out->first = gm_child(a, syn->field.value);
        } else if (out->kept_count < sizeof out->kept / sizeof out->kept[0]) {
            out->kept[out->kept_count++] = a;
        } else {
            return "the call has too many keyword arguments to rewrite";
        }
    }
    if (ts_node_is_null(out->first) || ts_node_is_null(out->value))
        return "the call's size (or input) or fill value is missing";
    return NULL;
}

int gm_mend_tensor_fill(gm_region *region, TSNode call, gm_fix *out) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    const char *text = st->text;
    TSNode fn = gm_unparen(syn, gm_child(call, syn->field.function));
    TSNode args = gm_child(call, syn->field.arguments);
    if (!gm_is(fn, syn->sym.attribute) || !gm_is(args, syn->sym.argument_list)) {
        region->mend_declined = "the fill call is not spelled `x.new_full(...)` or "
                                "`torch.full_like(...)`";
        return 0;
    }
    TSNode attribute = gm_child(fn, syn->field.attribute);
    bool like = gm_node_text_is(attribute, text, "full_like");
    fill_arguments a;
    const char *why = read_arguments(syn, text, args, &a);
    if (why) {
        region->mend_declined = why;
        return 0;
    }
    gm_text_builder tb;
    gm_tb_init(&tb);
    /* `x.new_empty(` or `torch.empty_like(`: the object as written, then the empty maker */
    gm_tb_append(&tb, text + ts_node_start_byte(fn),
                 ts_node_start_byte(attribute) - ts_node_start_byte(fn));
    gm_tb_append_str(&tb, like ? "empty_like(" : "new_empty(");
    gm_tb_append_argument(&tb, syn, text, a.first);
    for (size_t i = 0; i < a.kept_count; i++) {
        gm_tb_append_str(&tb, ", ");
        gm_tb_append_node(&tb, text, a.kept[i]);
    }
    gm_tb_append_str(&tb, ").fill_(");
    bool primary = gm_mend_is_primary(syn, a.value);
    gm_tb_append_str(&tb, primary ? "" : "(");
    gm_tb_append_node(&tb, text, a.value);
    gm_tb_append_str(&tb, primary ? "" : ")");
    gm_tb_append_str(&tb, ".detach().reshape(()))");
    char *replacement = gm_tb_take(&tb);
    if (!replacement)
        return -1;
    return gm_mend_fix_single(
        out, GM_FIX_SAFE, "fill an empty tensor in place",
        like ? "Mend graph break: fill torch.empty_like(...) in place with the 0-d tensor "
               "(fill_ takes it without reading its value)"
             : "Mend graph break: fill x.new_empty(...) in place with the 0-d tensor (fill_ "
               "takes it without reading its value)",
        ts_node_start_byte(call), ts_node_end_byte(call), replacement);
}
