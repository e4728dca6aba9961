/* Mends for gm_mend_dynamic_shape (see mends.h): keep shapes static. A boolean-mask read that
 * only feeds a reduction becomes torch.where with the reduction's identity (`x[x > 0].sum()` ->
 * `torch.where(x > 0, x, 0).sum()`); repeat_interleave gets output_size and one_hot gets
 * num_classes where the code shows the value; a loss over the targets a mask keeps
 * (`F.cross_entropy(logits[t != -100], t[t != -100])`) uses ignore_index. Where only capture_dynamic_output_shape_ops
 * helps, a display-only suggestion of it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/mends/hit_loop.h"
#include "analysis/mends/index_routing.h"
#include "analysis/mends/mask_shape.h"
#include "analysis/mends/masked_rows.h"
#include "analysis/mends/mends.h"
#include "analysis/mends/rewrite_text.h"
#include "analysis/mends/setting_suggestion.h"
#include "analysis/mends/value_uses.h"
#include "analysis/module_facts/symbols.h"
#include "analysis/value_kinds/value_kinds.h"

#define SHAPE_SETTING_TITLE                                                                        \
    "Mend graph break: set torch._dynamo.config.capture_dynamic_output_shape_ops = True "          \
    "(display only: affects every compiled function in the process)"

/* Declines with why; offers the setting unless the result then needs a concrete value. Only
 * for operators graphmend has no rewrite for: where a rewrite exists but its check failed, the
 * finding keeps the reason alone (a finding with any fix does not show its reason). */
static int declined_or_setting(gm_region *region, TSNode node, const char *why, gm_fix *out) {
    region->mend_declined = why;
    gm_slice none = {NULL, 0};
    if (gm_mend_use_of(region, node, none).kind == GM_USE_BREAKS)
        return 0;
    return gm_mend_setting_suggestion(
        region, GM_FIX_DISPLAY_ONLY, "_dynamo.config.capture_dynamic_output_shape_ops = True",
        "set capture_dynamic_output_shape_ops", SHAPE_SETTING_TITLE, out);
}

static int decline(gm_region *region, const char *why) {
    region->mend_declined = why;
    return 0;
}

static void append_operand(gm_text_builder *tb, const gm_syntax *syn, const char *text,
                           TSNode node) {
    bool wrap = !(gm_mend_is_primary(syn, node) || gm_is(node, syn->sym.integer));
    gm_tb_append_str(tb, wrap ? "(" : "");
    gm_tb_append_node(tb, text, node);
    gm_tb_append_str(tb, wrap ? ")" : "");
}

/* Whether an expression in place of node needs parentheses to keep binding as one operand. */
static bool needs_parentheses(const gm_syntax *syn, TSNode node) {
    TSNode p = ts_node_parent(node);
    return !(gm_is(p, syn->sym.assignment) || gm_is(p, syn->sym.expression_statement) ||
             gm_is(p, syn->sym.argument_list) || gm_is(p, syn->sym.keyword_argument) ||
             gm_is(p, syn->sym.parenthesized_expression) || gm_is(p, syn->sym.expression_list) ||
             strcmp(ts_node_type(p), "return_statement") == 0);
}

/* `x[<mask>]` whose only use is `.sum()`, `.mean()`, `.max()`/`.amax()` or `.min()`/`.amin()`
 * without arguments, with a mask comparing x itself (so the mask has x's shape and
 * torch.where lines up element by element). */
static int boolean_mask(gm_region *region, TSNode subscript, gm_fix *out) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    const char *alias = st->symbols->torch_alias;
    TSNode value = ts_node_named_child(subscript, 0);
    TSNode mask = ts_node_named_child(subscript, 1);
    TSNode comparison = gm_unparen(syn, mask);
    TSNode attribute = ts_node_parent(subscript);
    TSNode call = ts_node_parent(attribute);
    TSNode method = gm_child(attribute, syn->field.attribute);
    TSNode args = gm_child(call, syn->field.arguments);
    static const char *const reductions[] = {"sum", "mean", "max", "amax", "min", "amin"};
    int reduction = -1;
    if (gm_is(attribute, syn->sym.attribute) && gm_is(call, syn->sym.call) &&
        ts_node_eq(gm_child(attribute, syn->field.object), subscript) &&
        gm_is(args, syn->sym.argument_list) && ts_node_named_child_count(args) == 0)
        for (int i = 0; i < 6 && reduction < 0; i++)
            if (gm_node_text_is(method, st->text, reductions[i]))
                reduction = i;
    if (reduction < 0)
        return decline(region, "the masked result is used other than by sum(), mean(), max() or "
                               "min() without arguments, and its length depends on the data");
    gm_slice value_text = gm_node_slice(value, st->text);
    bool compares_value = ts_node_named_child_count(comparison) == 2;
    if (compares_value) {
        gm_slice a = gm_node_slice(gm_unparen(syn, ts_node_named_child(comparison, 0)), st->text);
        gm_slice b = gm_node_slice(gm_unparen(syn, ts_node_named_child(comparison, 1)), st->text);
        compares_value = gm_slice_eq(a, value_text) || gm_slice_eq(b, value_text);
    }
    if (!compares_value)
        return decline(region, "the mask does not compare the masked tensor itself, so its shape "
                               "may differ from the tensor's");
    if (!alias) {
        region->mend_declined = gm_mend_no_torch_reason(region->stmt);
        return 0;
    }
    gm_text_builder tb;
    gm_tb_init(&tb);
    uint32_t start = ts_node_start_byte(subscript), end = ts_node_end_byte(subscript);
    gm_applicability applicability = GM_FIX_SAFE;
    const char *label, *title;
    if (reduction <= 1) {
        bool mean = reduction == 1;
        bool wrap = mean && needs_parentheses(syn, call);
        gm_tb_appendf(&tb, "%s%s.where(", wrap ? "(" : "", alias);
        gm_tb_append_node(&tb, st->text, mask);
        gm_tb_append_str(&tb, ", ");
        gm_tb_append_node(&tb, st->text, value);
        gm_tb_append_str(&tb, ", 0)");
        if (mean) {
            /* mean = sum of the selected / their count; 0/0 gives nan as mean() of none does */
            gm_tb_append_str(&tb, ".sum() / ");
            append_operand(&tb, syn, st->text, mask);
            gm_tb_append_str(&tb, wrap ? ".sum())" : ".sum()");
            end = ts_node_end_byte(call);
            /* the sum of a float16/bfloat16 tensor may overflow where mean() (accumulating
             * in float32) does not, and an integer tensor's mean() raises where this does not */
            applicability = GM_FIX_UNSAFE;
            label = "average with torch.where and the count";
            title = "Mend graph break: average the masked values with torch.where and the mask's "
                    "count instead of boolean indexing (a float16 sum may overflow where mean() "
                    "does not)";
        } else {
            label = "sum with torch.where, not indexing";
            title = "Mend graph break: sum the masked values with torch.where instead of boolean "
                    "indexing";
        }
    } else {
        bool is_max = reduction <= 3;
        gm_tb_appendf(&tb, "%s.where(", alias);
        gm_tb_append_node(&tb, st->text, mask);
        gm_tb_append_str(&tb, ", ");
        gm_tb_append_node(&tb, st->text, value);
        gm_tb_append_str(&tb, is_max ? ", float(\"-inf\"))" : ", float(\"inf\"))");
        applicability = GM_FIX_UNSAFE;
        label = is_max ? "take the maximum over torch.where" : "take the minimum over torch.where";
        title = is_max ? "Mend graph break: take the maximum over torch.where(mask, x, -inf) "
                         "(an empty mask gives -inf instead of an error; an integer tensor's "
                         "result becomes floating point)"
                       : "Mend graph break: take the minimum over torch.where(mask, x, inf) (an "
                         "empty mask gives inf instead of an error; an integer tensor's result "
                         "becomes floating point)";
    }
    return gm_mend_fix_single(out, applicability, label, title, start, end, gm_tb_take(&tb));
}

/* The value of expr, or of the one assignment of the name expr is, in the function. */
static TSNode definition_of(gm_region *region, TSNode node, TSNode expr) {
    const gm_syntax *syn = region->stmt->syntax;
    expr = gm_unparen(syn, expr);
    if (!gm_is(expr, syn->sym.identifier))
        return expr;
    TSNode function = gm_mend_enclosing_function(syn, node);
    TSNode null = {0};
    if (ts_node_is_null(function))
        return null;
    TSNode rhs = gm_mend_only_assignment(syn, region->stmt->text, function,
                                         gm_node_slice(expr, region->stmt->text));
    return ts_node_is_null(rhs) ? null : gm_unparen(syn, rhs);
}

/* Positional argument i of call (keyword arguments skipped), or a null node. */
static TSNode positional(const gm_syntax *syn, TSNode call, uint32_t i) {
    TSNode args = gm_child(call, syn->field.arguments);
    TSNode null = {0};
    uint32_t n = ts_node_named_child_count(args), seen = 0;
    for (uint32_t k = 0; k < n; k++) {
        TSNode a = ts_node_named_child(args, k);
        if (gm_is(a, syn->sym.keyword_argument) || gm_is(a, syn->sym.comment))
            continue;
        if (seen++ == i)
            return a;
    }
    return null;
}

static TSNode keyword(const gm_syntax *syn, const char *text, TSNode call, const char *name) {
    TSNode args = gm_child(call, syn->field.arguments);
    TSNode null = {0};
    uint32_t n = ts_node_named_child_count(args);
    for (uint32_t k = 0; k < n; k++) {
        TSNode a = ts_node_named_child(args, k);
        if (gm_is(a, syn->sym.keyword_argument) &&
            gm_node_text_is(gm_child(a, syn->field.name), text, name))
            return gm_child(a, syn->field.value);
    }
    return null;
}

static bool integer_value(const char *text, TSNode node, long *value) {
    uint32_t start = ts_node_start_byte(node), end = ts_node_end_byte(node);
    if (end - start == 0 || end - start > 9)
        return false;
    long v = 0;
    for (uint32_t p = start; p < end; p++) {
        if (text[p] < '0' || text[p] > '9')
            return false;
        v = v * 10 + (text[p] - '0');
    }
    *value = v;
    return true;
}

/* Adds the keyword argument `name=<value>` (value holding ", name=<value>") after the last
 * argument of call; in a call laid out one argument a line with a trailing comma, as a line of
 * its own before the closing parenthesis. */
static int add_keyword(gm_region *region, gm_fix *out, gm_applicability applicability,
                       const char *label, const char *title, TSNode call, char *value) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    TSNode args = gm_child(call, syn->field.arguments);
    uint32_t n = ts_node_named_child_count(args);
    TSNode last = ts_node_named_child(args, n - 1);
    while (gm_is(last, syn->sym.comment) && n > 1)
        last = ts_node_named_child(args, --n - 1);
    TSNode after = ts_node_next_sibling(last);
    TSNode close = ts_node_child(args, ts_node_child_count(args) - 1);
    if (value && !ts_node_is_null(after) && strcmp(ts_node_type(after), ",") == 0 &&
        ts_node_start_point(close).row > ts_node_end_point(last).row) {
        gm_stmt_layout layout;
        gm_stmt_layout_of(st->text, st->len, last, &layout);
        gm_text_builder tb;
        gm_tb_init(&tb);
        gm_tb_append(&tb, layout.indent.ptr, layout.indent.len);
        gm_tb_append_str(&tb, value + 2); /* without ", " */
        gm_tb_appendf(&tb, ",%s", layout.newline);
        free(value);
        uint32_t at = ts_node_start_byte(close) - ts_node_start_point(close).column;
        return gm_mend_fix_single(out, applicability, label, title, at, at, gm_tb_take(&tb));
    }
    uint32_t at = ts_node_end_byte(last);
    return gm_mend_fix_single(out, applicability, label, title, at, at, value);
}

/* Whether count is `x.shape[...]`, `x.size(...)` or `len(x)` for x the first argument of
 * call. */
static bool sizes_first_argument(gm_region *region, TSNode call, TSNode count) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    TSNode x = gm_unparen(syn, keyword(syn, st->text, call, "input"));
    if (ts_node_is_null(x))
        x = gm_unparen(syn, positional(syn, call, 0));
    if (ts_node_is_null(x))
        return false;
    gm_slice xs = gm_node_slice(x, st->text);
    count = gm_unparen(syn, count);
    if (gm_is(count, syn->sym.call)) {
        TSNode fn = gm_child(count, syn->field.function);
        TSNode arg = ts_node_named_child(gm_child(count, syn->field.arguments), 0);
        if (gm_node_text_is(fn, st->text, "len") && !gm_region_binds(region, "len"))
            return !ts_node_is_null(arg) && gm_slice_eq(gm_node_slice(arg, st->text), xs);
        count = fn; /* x.size(...) */
    } else if (gm_is(count, syn->sym.subscript)) {
        count = ts_node_named_child(count, 0); /* x.shape[...] */
    } else {
        return false;
    }
    return gm_is(count, syn->sym.attribute) &&
           gm_slice_eq(gm_node_slice(gm_child(count, syn->field.object), st->text), xs) &&
           (gm_node_text_is(gm_child(count, syn->field.attribute), st->text, "shape") ||
            gm_node_text_is(gm_child(count, syn->field.attribute), st->text, "size"));
}

/* torch.repeat_interleave(x, repeats): output_size is the sum of repeats where the code shows
 * it: `torch.full((n,), k)` gives n * k, `torch.tensor([a, b, ...])` of integer literals their
 * sum. A one-element repeats broadcasts over x, so its sum is not the output size. */
static int repeat_interleave(gm_region *region, TSNode call, gm_fix *out) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    TSNode repeats = keyword(syn, st->text, call, "repeats");
    if (ts_node_is_null(repeats))
        repeats = positional(syn, call, 1);
    TSNode def = definition_of(region, call, repeats);
    const char *unknown = "output_size unknown: graphmend cannot tell the sum of the repeats";
    if (ts_node_is_null(def))
        return decline(region, unknown);
    gm_applicability applicability = GM_FIX_SAFE;
    const char *title = "Mend graph break: pass output_size (the sum of the repeats) to "
                        "repeat_interleave";
    gm_text_builder tb;
    gm_tb_init(&tb);
    gm_tb_append_str(&tb, ", output_size=");
    if (gm_mend_calls(region, def, "torch.full")) {
        TSNode size = gm_unparen(syn, positional(syn, def, 0));
        TSNode fill = positional(syn, def, 1);
        bool one_dim = (gm_is(size, syn->sym.tuple) || gm_is(size, syn->sym.list)) &&
                       ts_node_named_child_count(size) == 1;
        long n = 0, k = 0;
        TSNode count = one_dim ? ts_node_named_child(size, 0) : size;
        if (!one_dim || ts_node_is_null(fill) || (integer_value(st->text, count, &n) && n == 1)) {
            gm_tb_free(&tb);
            return decline(region, unknown);
        }
        /* Safe where the count provably is x's size (a literal above 1, or x's own shape or
         * len): a count that is 1 at run time broadcasts over x, making the output larger
         * than count * fill. And the fill must be a Python int, not a 0-d tensor. */
        bool count_known =
            integer_value(st->text, count, &n) || sizes_first_argument(region, call, count);
        bool fill_known =
            integer_value(st->text, fill, &k) || gm_value_of(region, fill).kind == GM_KIND_STATIC;
        TSNode function = gm_mend_enclosing_function(syn, call);
        if (gm_value_of(region, fill).kind == GM_KIND_TENSOR || ts_node_is_null(function) ||
            !gm_mend_names_stable(syn, st->text, function, count) ||
            !gm_mend_names_stable(syn, st->text, function, fill)) {
            gm_tb_free(&tb);
            return decline(region, unknown);
        }
        if (!count_known || !fill_known) {
            applicability = GM_FIX_UNSAFE;
            title = "Mend graph break: pass output_size (the sum of the repeats) to "
                    "repeat_interleave (assumes one repeat count per element and an integer "
                    "fill)";
        }
        if (integer_value(st->text, count, &n) && integer_value(st->text, fill, &k)) {
            gm_tb_appendf(&tb, "%ld", n * k);
        } else {
            append_operand(&tb, syn, st->text, count);
            gm_tb_append_str(&tb, " * ");
            append_operand(&tb, syn, st->text, fill);
        }
    } else if (gm_mend_calls(region, def, "torch.tensor")) {
        TSNode list = gm_unparen(syn, positional(syn, def, 0));
        uint32_t n = gm_is(list, syn->sym.list) ? ts_node_named_child_count(list) : 0;
        long total = 0, v = 0;
        bool ok = n >= 2;
        for (uint32_t i = 0; i < n && ok; i++)
            ok = integer_value(st->text, ts_node_named_child(list, i), &v) && (total += v) >= 0;
        if (!ok) {
            gm_tb_free(&tb);
            return decline(region, unknown);
        }
        gm_tb_appendf(&tb, "%ld", total);
    } else {
        gm_tb_free(&tb);
        return decline(region, unknown);
    }
    return add_keyword(region, out, applicability, "pass output_size to repeat_interleave", title,
                       call, gm_tb_take(&tb));
}

/* F.one_hot(t): num_classes where t is `torch.arange(n)` (n, exact) or an argmax/topk index
 * over y's last dimension (y.shape[-1]: every index is below it, but the width no longer
 * shrinks to the largest index + 1 when the data does not reach it). */
static int one_hot(gm_region *region, TSNode call, gm_fix *out) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    TSNode def = definition_of(region, call, positional(syn, call, 0));
    const char *unknown = "num_classes unknown: graphmend cannot tell the number of classes";
    TSNode function = gm_mend_enclosing_function(syn, call);
    if (ts_node_is_null(def) || ts_node_is_null(function)) {
        region->mend_declined = unknown;
        return 0;
    }
    gm_text_builder tb;
    gm_tb_init(&tb);
    gm_tb_append_str(&tb, ", num_classes=");
    if (gm_mend_calls(region, def, "torch.arange") &&
        ts_node_named_child_count(gm_child(def, syn->field.arguments)) == 1 &&
        gm_mend_names_stable(syn, st->text, function, positional(syn, def, 0))) {
        gm_tb_append_node(&tb, st->text, positional(syn, def, 0));
        return add_keyword(region, out, GM_FIX_SAFE, "pass num_classes to one_hot",
                           "Mend graph break: pass num_classes (the length of the arange)", call,
                           gm_tb_take(&tb));
    }
    /* `y.argmax(-1)`, `y.argmax(dim=-1)`, `torch.argmax(y, dim=-1)`, `y.topk(k).indices`,
     * `torch.topk(y, k).indices` */
    TSNode source = {0};
    TSNode index_call = def;
    bool topk = false;
    if (gm_is(def, syn->sym.attribute) &&
        gm_node_text_is(gm_child(def, syn->field.attribute), st->text, "indices")) {
        index_call = gm_unparen(syn, gm_child(def, syn->field.object));
        topk = true;
    }
    if (gm_is(index_call, syn->sym.call)) {
        const char *method = topk ? "topk" : "argmax";
        TSNode fn = gm_unparen(syn, gm_child(index_call, syn->field.function));
        char canonical[16];
        snprintf(canonical, sizeof canonical, "torch.%s", method);
        TSNode dim = keyword(syn, st->text, index_call, "dim");
        if (gm_mend_calls(region, index_call, canonical)) {
            source = positional(syn, index_call, 0);
            if (ts_node_is_null(dim))
                dim = positional(syn, index_call, topk ? 2 : 1);
        } else if (gm_is(fn, syn->sym.attribute) &&
                   gm_node_text_is(gm_child(fn, syn->field.attribute), st->text, method)) {
            source = gm_child(fn, syn->field.object);
            if (ts_node_is_null(dim))
                dim = positional(syn, index_call, topk ? 1 : 0);
        }
        /* topk defaults to the last dimension; argmax without dim flattens */
        bool last_dim = ts_node_is_null(dim) ? topk : gm_node_text_is(dim, st->text, "-1");
        if (!last_dim)
            source = (TSNode){0};
    }
    if (ts_node_is_null(source) ||
        !(gm_mend_is_primary(syn, gm_unparen(syn, source)) ||
          gm_is(gm_unparen(syn, source), syn->sym.integer)) ||
        !gm_mend_names_stable(syn, st->text, function, source)) {
        gm_tb_free(&tb);
        region->mend_declined = unknown;
        return 0;
    }
    gm_tb_append_node(&tb, st->text, gm_unparen(syn, source));
    gm_tb_append_str(&tb, ".shape[-1]");
    return add_keyword(region, out, GM_FIX_UNSAFE, "pass num_classes to one_hot",
                       "Mend graph break: pass num_classes (the size of the dimension the indices "
                       "select from; the width no longer depends on the largest index)",
                       call, gm_tb_take(&tb));
}

/* The uses of dst before the masked copy: each must be the object of a subscript store
 * (`dst[k] = v`), which leaves no other reference to the tensor. */
typedef struct {
    const gm_syntax *syn;
    uint32_t before;
    bool only_stores;
} early_uses;

static bool visit_early_use(void *payload, TSNode identifier) {
    early_uses *u = payload;
    if (ts_node_start_byte(identifier) >= u->before)
        return true;
    TSNode subscript = ts_node_parent(identifier);
    TSNode assignment = ts_node_parent(subscript);
    if (gm_is(subscript, u->syn->sym.subscript) &&
        ts_node_eq(ts_node_named_child(subscript, 0), identifier) &&
        gm_is(assignment, u->syn->sym.assignment) &&
        ts_node_eq(gm_child(assignment, u->syn->field.left), subscript))
        return true;
    u->only_stores = false;
    return false;
}

/* `dst[m] = src[m]` where dst was made in the function as a new tensor like src and m compares
 * src: a masked copy, which `dst = torch.where(m, src, dst)` computes without the data-dependent
 * length of src[m] (the same values and gradients: dst is used before only as the target of
 * item stores, so no other name sees the in-place write). */
static int masked_copy(gm_region *region, TSNode subscript, gm_fix *out) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    TSNode assignment = ts_node_parent(subscript);
    if (!gm_is(assignment, syn->sym.assignment) ||
        !ts_node_eq(gm_child(assignment, syn->field.right), subscript) ||
        !gm_is(ts_node_parent(assignment), syn->sym.expression_statement))
        return 0;
    TSNode target = gm_unparen(syn, gm_child(assignment, syn->field.left));
    if (!gm_is(target, syn->sym.subscript) || ts_node_named_child_count(target) != 2 ||
        ts_node_named_child_count(subscript) != 2)
        return 0;
    TSNode dst = gm_unparen(syn, ts_node_named_child(target, 0));
    TSNode src = gm_unparen(syn, ts_node_named_child(subscript, 0));
    TSNode mask = ts_node_named_child(subscript, 1);
    TSNode function = gm_mend_enclosing_function(syn, subscript);
    if (!gm_is(dst, syn->sym.identifier) || !gm_is(src, syn->sym.identifier) ||
        ts_node_is_null(function) ||
        !gm_slice_eq(gm_node_slice(ts_node_named_child(target, 1), st->text),
                     gm_node_slice(mask, st->text)) ||
        !gm_mend_names_stable(syn, st->text, function, mask) ||
        gm_mend_binding_count(syn, st->text, function, gm_node_slice(src, st->text)) > 1)
        return 0;
    gm_slice src_text = gm_node_slice(src, st->text);
    TSNode made = gm_mend_only_assignment(syn, st->text, function, gm_node_slice(dst, st->text));
    if (ts_node_is_null(made) || !gm_mend_fresh_like(region, made, src_text) ||
        !gm_mend_mask_compares(region, function, mask, src_text, 0))
        return 0;
    early_uses uses = {syn, ts_node_start_byte(assignment), true};
    if (!gm_mend_each_use(syn, st->text, function, gm_node_slice(dst, st->text),
                          gm_child(ts_node_parent(made), syn->field.left), visit_early_use, &uses) ||
        !uses.only_stores)
        return 0;
    gm_text_builder tb;
    gm_tb_init(&tb);
    gm_tb_append_node(&tb, st->text, dst);
    gm_tb_appendf(&tb, " = %s.where(", st->symbols->torch_alias);
    gm_tb_append_node(&tb, st->text, mask);
    gm_tb_append_str(&tb, ", ");
    gm_tb_append_node(&tb, st->text, src);
    gm_tb_append_str(&tb, ", ");
    gm_tb_append_node(&tb, st->text, dst);
    gm_tb_append_str(&tb, ")");
    return gm_mend_fix_single(out, GM_FIX_SAFE, "copy under the mask with torch.where",
                              "Mend graph break: copy under the mask with torch.where instead of "
                              "selecting the masked elements",
                              ts_node_start_byte(assignment), ts_node_end_byte(assignment),
                              gm_tb_take(&tb));
}

/* Whether arg is the row mask m widened over the last dimension: `m.unsqueeze(-1)`,
 * `m[..., None]`, or with m `~e`, `~e.unsqueeze(-1)` (`~` binds after the call). */
static bool widens_mask(const gm_syntax *syn, const char *text, TSNode arg, gm_slice m) {
    arg = gm_unparen(syn, arg);
    if (gm_is(arg, syn->sym.unary_operator) && m.len > 1 && m.ptr[0] == '~') {
        TSNode op = gm_child(arg, syn->field.operator);
        if (ts_node_is_null(op) || strcmp(ts_node_type(op), "~") != 0)
            return false;
        gm_slice inner = {m.ptr + 1, m.len - 1};
        while (inner.len && (inner.ptr[0] == ' ' || inner.ptr[0] == '('))
            inner.ptr++, inner.len--;
        while (inner.len && inner.ptr[inner.len - 1] == ')')
            inner.len--;
        return widens_mask(syn, text, gm_child(arg, syn->field.argument), inner);
    }
    if (gm_is(arg, syn->sym.call)) {
        TSNode fn = gm_unparen(syn, gm_child(arg, syn->field.function));
        TSNode args = gm_child(arg, syn->field.arguments);
        return gm_is(fn, syn->sym.attribute) &&
               gm_node_text_is(gm_child(fn, syn->field.attribute), text, "unsqueeze") &&
               gm_is(args, syn->sym.argument_list) && ts_node_named_child_count(args) == 1 &&
               gm_node_text_is(ts_node_named_child(args, 0), text, "-1") &&
               gm_slice_eq(gm_node_slice(gm_unparen(syn, gm_child(fn, syn->field.object)), text), m);
    }
    if (gm_is(arg, syn->sym.subscript) && ts_node_named_child_count(arg) == 3)
        return gm_slice_eq(gm_node_slice(gm_unparen(syn, ts_node_named_child(arg, 0)), text), m) &&
               gm_node_text_is(ts_node_named_child(arg, 1), text, "...") &&
               gm_node_text_is(ts_node_named_child(arg, 2), text, "None");
    return false;
}

/* `x.masked_scatter(m.unsqueeze(-1), f(x[m]))`: the rows m selects, transformed, written back
 * in order. `torch.where(m.unsqueeze(-1), f(x), x)` gives the same rows when f works row by row
 * (a norm, an MLP, a projection); it runs f on every row, and rows that interact inside f would
 * see different neighbours: unsafe. */
static int masked_scatter_rows(gm_region *region, TSNode subscript, gm_fix *out) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    if (ts_node_named_child_count(subscript) != 2)
        return 0;
    TSNode x = gm_unparen(syn, ts_node_named_child(subscript, 0));
    gm_slice x_text = gm_node_slice(x, st->text);
    gm_slice m_text = gm_node_slice(ts_node_named_child(subscript, 1), st->text);
    if (!(gm_is(x, syn->sym.identifier) || gm_is(x, syn->sym.attribute)))
        return 0;
    /* up to the argument list of a masked_scatter call on x, as its second argument */
    TSNode n = subscript;
    for (int depth = 0; depth < 12; depth++) {
        TSNode args = ts_node_parent(n);
        if (ts_node_is_null(args) || strstr(ts_node_type(args), "statement"))
            return 0;
        TSNode call = ts_node_parent(args);
        TSNode fn = gm_is(args, syn->sym.argument_list) && gm_is(call, syn->sym.call)
                        ? gm_unparen(syn, gm_child(call, syn->field.function))
                        : (TSNode){0};
        if (gm_is(fn, syn->sym.attribute) &&
            gm_node_text_is(gm_child(fn, syn->field.attribute), st->text, "masked_scatter")) {
            if (ts_node_named_child_count(args) != 2 ||
                !ts_node_eq(ts_node_named_child(args, 1), n) ||
                !gm_slice_eq(gm_node_slice(gm_unparen(syn, gm_child(fn, syn->field.object)), st->text),
                             x_text) ||
                !widens_mask(syn, st->text, ts_node_named_child(args, 0), m_text))
                return 0;
            /* the source with x[m] read as x, once */
            TSNode source = n;
            const char *text = st->text;
            gm_text_builder tb;
            gm_tb_init(&tb);
            gm_tb_appendf(&tb, "%s.where(", st->symbols->torch_alias);
            gm_tb_append_node(&tb, text, ts_node_named_child(args, 0));
            gm_tb_append_str(&tb, ", ");
            gm_tb_append(&tb, text + ts_node_start_byte(source),
                         ts_node_start_byte(subscript) - ts_node_start_byte(source));
            gm_tb_append_node(&tb, text, x);
            gm_tb_append(&tb, text + ts_node_end_byte(subscript),
                         ts_node_end_byte(source) - ts_node_end_byte(subscript));
            gm_tb_append_str(&tb, ", ");
            gm_tb_append_node(&tb, text, x);
            gm_tb_append_str(&tb, ")");
            return gm_mend_fix_single(out, GM_FIX_UNSAFE, "apply to every row, select with where",
                                      "Mend graph break: apply the function to every row and "
                                      "select the masked rows with torch.where (unsafe: equal when "
                                      "the function works row by row)",
                                      ts_node_start_byte(call), ts_node_end_byte(call),
                                      gm_tb_take(&tb));
        }
        n = gm_is(args, syn->sym.argument_list) ? call : args;
        if (gm_is(args, syn->sym.argument_list))
            continue;
    }
    return 0;
}

/* An int literal, a negative one too (`-100`). */
static bool is_int_literal(const gm_syntax *syn, TSNode n) {
    n = gm_unparen(syn, n);
    if (gm_is(n, syn->sym.unary_operator))
        n = gm_unparen(syn, gm_child(n, syn->field.argument));
    return gm_is(n, syn->sym.integer);
}

/* The subscript's one index when it is `target != K` or `K != target` (K an int literal), with
 * target's text in *target_text and K in *ignored; else a null node. */
static TSNode ignore_mask(const gm_syntax *syn, const char *text, TSNode subscript,
                          gm_slice *target_text, TSNode *ignored) {
    if (ts_node_named_child_count(subscript) != 2)
        return (TSNode){0};
    TSNode mask = gm_unparen(syn, ts_node_named_child(subscript, 1));
    if (!gm_is(mask, syn->sym.comparison_operator) || ts_node_named_child_count(mask) != 2 ||
        ts_node_child_count(mask) != 3 || strcmp(ts_node_type(ts_node_child(mask, 1)), "!=") != 0)
        return (TSNode){0};
    TSNode left = gm_unparen(syn, ts_node_named_child(mask, 0));
    TSNode right = gm_unparen(syn, ts_node_named_child(mask, 1));
    bool right_k = is_int_literal(syn, right), left_k = is_int_literal(syn, left);
    if (right_k == left_k)
        return (TSNode){0};
    *target_text = gm_node_slice(right_k ? left : right, text);
    *ignored = right_k ? right : left;
    return mask;
}

/* `F.cross_entropy(logits[t != -100], t[t != -100])` (or nll_loss): the loss over the targets
 * that are not K is what the loss computes with ignore_index=K, on the inputs with their leading
 * dimensions flattened (`logits.flatten(0, -2)`, `t.flatten()`): the same value for the mean
 * and sum reductions, class weights and label smoothing included, with no data-dependent
 * shape. */
static int masked_loss(gm_region *region, TSNode subscript, gm_fix *out) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    TSNode args = ts_node_parent(subscript);
    TSNode call = ts_node_parent(args);
    if (!gm_is(args, syn->sym.argument_list) ||
        !(gm_mend_calls(region, call, "torch.nn.functional.cross_entropy") ||
          gm_mend_calls(region, call, "torch.nn.functional.nll_loss")))
        return 0;
    uint32_t count = ts_node_named_child_count(args);
    TSNode input = count >= 2 ? gm_unparen(syn, ts_node_named_child(args, 0)) : (TSNode){0};
    TSNode target = count >= 2 ? gm_unparen(syn, ts_node_named_child(args, 1)) : (TSNode){0};
    if (!gm_is(input, syn->sym.subscript) || !gm_is(target, syn->sym.subscript))
        return 0;
    gm_slice target_text, other_text;
    TSNode ignored, other_ignored;
    TSNode mask = ignore_mask(syn, st->text, input, &target_text, &ignored);
    TSNode other_mask = ignore_mask(syn, st->text, target, &other_text, &other_ignored);
    TSNode target_value = ts_node_named_child(target, 0);
    if (ts_node_is_null(mask) || ts_node_is_null(other_mask) ||
        !gm_slice_eq(gm_node_slice(mask, st->text), gm_node_slice(other_mask, st->text)) ||
        !gm_slice_eq(gm_node_slice(target_value, st->text), target_text))
        return 0;
    /* the rest: keywords only, none of them ignore_index, a reduction of mean or sum */
    for (uint32_t i = 2; i < count; i++) {
        TSNode a = ts_node_named_child(args, i);
        if (!gm_is(a, syn->sym.keyword_argument))
            return decline(region, "the loss takes positional arguments after the target");
        TSNode key = gm_child(a, syn->field.name);
        if (gm_node_text_is(key, st->text, "ignore_index"))
            return decline(region, "the loss already has an ignore_index");
        if (gm_node_text_is(key, st->text, "reduction") &&
            !gm_node_text_is(gm_child(a, syn->field.value), st->text, "\"mean\"") &&
            !gm_node_text_is(gm_child(a, syn->field.value), st->text, "'mean'") &&
            !gm_node_text_is(gm_child(a, syn->field.value), st->text, "\"sum\"") &&
            !gm_node_text_is(gm_child(a, syn->field.value), st->text, "'sum'"))
            return decline(region, "with a reduction other than mean or sum the loss keeps one "
                                   "value per selected target, so its shape depends on the data");
    }
    gm_text_builder tb;
    gm_tb_init(&tb);
    gm_tb_append_node(&tb, st->text, gm_child(call, syn->field.function));
    gm_tb_append_str(&tb, "(");
    append_operand(&tb, syn, st->text, ts_node_named_child(input, 0));
    gm_tb_append_str(&tb, ".flatten(0, -2), ");
    append_operand(&tb, syn, st->text, target_value);
    gm_tb_append_str(&tb, ".flatten()");
    for (uint32_t i = 2; i < count; i++) {
        gm_tb_append_str(&tb, ", ");
        gm_tb_append_node(&tb, st->text, ts_node_named_child(args, i));
    }
    gm_tb_append_str(&tb, ", ignore_index=");
    gm_tb_append_node(&tb, st->text, ignored);
    gm_tb_append_str(&tb, ")");
    return gm_mend_fix_single(out, GM_FIX_SAFE, "skip ignored targets with ignore_index",
                              "Mend graph break: skip the ignored targets with ignore_index "
                              "instead of selecting the others",
                              ts_node_start_byte(call), ts_node_end_byte(call), gm_tb_take(&tb));
}

int gm_mend_dynamic_shape(gm_region *region, TSNode node, gm_fix *out) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    if (gm_is(node, syn->sym.subscript)) {
        int rc = masked_loss(region, node, out);
        if (rc != 0 || region->mend_declined)
            return rc;
        if (st->symbols->torch_alias && (rc = masked_copy(region, node, out)) != 0)
            return rc;
        if (st->symbols->torch_alias && (rc = masked_scatter_rows(region, node, out)) != 0)
            return rc;
        if ((rc = boolean_mask(region, node, out)) != 0)
            return rc;
        /* rows routed through functions and stored back under the mask */
        const char *why = region->mend_declined;
        region->mend_declined = NULL;
        rc = gm_mend_masked_rows_dense(region, node, out);
        if (rc == 0 && !region->mend_declined)
            region->mend_declined = why;
        return rc;
    }
    if (gm_mend_calls(region, node, "torch.repeat_interleave"))
        return repeat_interleave(region, node, out);
    if (gm_mend_calls(region, node, "torch.nn.functional.one_hot"))
        return one_hot(region, node, out);
    if (gm_mend_calls(region, node, "torch.where")) {
        int rc = gm_mend_index_routing_dense(region, node, out);
        if (rc != 0 || region->mend_declined)
            return rc;
    }
    if (gm_is(node, syn->sym.call)) {
        int rc = gm_mend_hit_loop(region, node, out);
        if (rc != 0)
            return rc;
        if (region->mend_declined) /* the setting stays on offer, with the loop's reason */
            return declined_or_setting(region, node, region->mend_declined, out);
    }
    return declined_or_setting(region, node,
                               "the operator's output size depends on the data, and no "
                               "static-shape rewrite keeps its meaning",
                               out);
}
