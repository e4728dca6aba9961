/* Mends for gm_mend_tensor_to_python (see mends.h): a `.item()` or `float()` whose value only
 * feeds tensor arithmetic stays a 0-d tensor (`.detach()`, which keeps .item()'s cut of the
 * autograd graph), so the graph never needs the Python number. Where no rewrite keeps the
 * meaning but capture_scalar_outputs traces the value: for a `.tolist()` list that sizes a
 * split (and is otherwise only returned) the unsafe capture mend (capture_scalars.c); for other
 * values returned, a display-only suggestion of the setting. */
#include <string.h>

#include "analysis/mends/mends.h"
#include "analysis/mends/rewrite_text.h"
#include "analysis/mends/setting_suggestion.h"
#include "analysis/mends/value_uses.h"
#include "analysis/findings/suppression.h"
#include "analysis/module_facts/symbols.h"

#define SCALAR_SETTING_TITLE                                                                       \
    "Mend graph break: set torch._dynamo.config.capture_scalar_outputs = True (display only: "     \
    "affects every compiled function in the process)"

typedef struct {
    gm_region *region;
    bool all_arithmetic;  /* every use is tensor arithmetic */
    bool capturable;      /* every use is tensor arithmetic or a return */
    bool same_base;       /* every arithmetic partner is the identifier base */
    gm_slice base;        /* the identifier the converted tensor is computed from, or empty */
    const char *declined; /* the first use that is not tensor arithmetic */
    unsigned uses;
} use_summary;

static void note_use(use_summary *sum, TSNode expr) {
    sum->uses++;
    gm_use use = gm_mend_use_of(sum->region, expr, sum->base);
    if (use.kind != GM_USE_TENSOR_ARITH) {
        sum->all_arithmetic = false;
        if (!sum->declined)
            sum->declined = use.why;
        if (use.kind != GM_USE_RETURNED)
            sum->capturable = false;
        return;
    }
    const char *text = sum->region->stmt->text;
    bool is_base = sum->base.len && gm_is(use.other, sum->region->stmt->syntax->sym.identifier) &&
                   gm_slice_eq(gm_node_slice(use.other, text), sum->base);
    if (!is_base || use.via_literals || use.dividend)
        sum->same_base = false;
}

static bool visit_use(void *payload, TSNode identifier) {
    note_use(payload, identifier);
    return true;
}

/* The identifier a chain of dtype- and device-preserving zero-argument methods starts from
 * (`x` in `x.abs().max()`), or an empty slice. sum() and prod() are left out: they widen an
 * integer tensor to int64, which a 0-d operand may carry into the result where a Python int
 * would not. */
static gm_slice preserving_base(const gm_region *region, TSNode tensor) {
    const gm_syntax *syn = region->stmt->syntax;
    const char *text = region->stmt->text;
    static const char *const preserving[] = {"abs",  "max", "min", "amax",  "amin",
                                             "mean", "std", "var", "clone", "detach"};
    gm_slice none = {NULL, 0};
    for (TSNode n = gm_unparen(syn, tensor);;) {
        if (gm_is(n, syn->sym.identifier))
            return gm_node_slice(n, text);
        if (!gm_is(n, syn->sym.call))
            return none;
        TSNode fn = gm_child(n, syn->field.function), args = gm_child(n, syn->field.arguments);
        if (!gm_is(fn, syn->sym.attribute) || !gm_is(args, syn->sym.argument_list) ||
            ts_node_named_child_count(args) != 0)
            return none;
        TSNode attr = gm_child(fn, syn->field.attribute);
        bool ok = false;
        for (size_t i = 0; i < sizeof preserving / sizeof preserving[0] && !ok; i++)
            ok = gm_node_text_is(attr, text, preserving[i]);
        if (!ok)
            return none;
        n = gm_unparen(syn, gm_child(fn, syn->field.object));
    }
}

/* Whether node can take `.detach()` without parentheses. */
/* `x.size()` without arguments: the whole shape. */
static bool is_size_call(const gm_syntax *syn, const char *text, TSNode node) {
    TSNode fn = gm_child(node, syn->field.function), args = gm_child(node, syn->field.arguments);
    return gm_is(fn, syn->sym.attribute) &&
           gm_node_text_is(gm_child(fn, syn->field.attribute), text, "size") &&
           ts_node_named_child_count(args) == 0;
}

/* Whether node is a static size: `x.shape[i]`, `x.size(i)` or an integer literal. */
static bool is_size_value(const gm_syntax *syn, const char *text, TSNode node) {
    node = gm_unparen(syn, node);
    if (gm_is(node, syn->sym.integer))
        return true;
    if (gm_is(node, syn->sym.subscript)) {
        TSNode value = ts_node_named_child(node, 0);
        return gm_is(value, syn->sym.attribute) &&
               gm_node_text_is(gm_child(value, syn->field.attribute), text, "shape");
    }
    if (!gm_is(node, syn->sym.call))
        return false;
    TSNode fn = gm_child(node, syn->field.function), args = gm_child(node, syn->field.arguments);
    return gm_is(fn, syn->sym.attribute) &&
           gm_node_text_is(gm_child(fn, syn->field.attribute), text, "size") &&
           ts_node_named_child_count(args) == 1;
}

/* `torch.tensor(S).tolist()` where S is a shape (`x.shape`, `x.shape[1:]`, `x.size()`) or a
 * list/tuple of sizes: the list of those ints is `list(S)` (or the display as a list), which
 * dynamo keeps symbolic instead of reading back an int64 tensor built from them. */
static int tolist_of_shape(gm_region *region, TSNode call, TSNode tensor, gm_fix *out) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    const char *declined = "`.tolist()` builds a Python list of the tensor's values, which no "
                           "tensor-only rewrite keeps";
    char name[GM_NAME_MAX];
    TSNode fn = gm_unparen(syn, gm_child(tensor, syn->field.function));
    TSNode args = gm_child(tensor, syn->field.arguments);
    TSNode head = gm_is(tensor, syn->sym.call) ? gm_chain_head(syn, fn) : (TSNode){0};
    if (ts_node_is_null(head) ||
        !gm_symbols_is_imported(st->symbols, gm_node_slice(head, st->text)) ||
        gm_region_binds_node(region, head) ||
        !gm_symbols_resolve(st->symbols, syn, st->text, fn, name, sizeof name) ||
        (strcmp(name, "torch.tensor") != 0 && strcmp(name, "torch.as_tensor") != 0) ||
        !gm_is(args, syn->sym.argument_list) || ts_node_named_child_count(args) != 1) {
        region->mend_declined = declined;
        return 0;
    }
    TSNode shape = gm_unparen(syn, ts_node_named_child(args, 0));
    TSNode base = shape;
    if (gm_is(base, syn->sym.subscript))
        base = ts_node_named_child(base, 0);
    bool is_shape = (gm_is(base, syn->sym.attribute) &&
                     gm_node_text_is(gm_child(base, syn->field.attribute), st->text, "shape")) ||
                    (gm_is(base, syn->sym.call) && is_size_call(syn, st->text, base));
    if (gm_is(shape, syn->sym.subscript)) /* only slices of a shape stay a sequence */
        is_shape = is_shape && strcmp(ts_node_type(ts_node_named_child(shape, 1)), "slice") == 0;
    bool is_display = gm_is(shape, syn->sym.list) || gm_is(shape, syn->sym.tuple);
    for (uint32_t i = 0; is_display && i < ts_node_named_child_count(shape); i++)
        is_display = is_size_value(syn, st->text, ts_node_named_child(shape, i));
    if (is_display && ts_node_named_child_count(shape) == 0)
        is_display = false; /* torch.tensor([]) is a float tensor */
    if (!is_shape && !is_display) {
        region->mend_declined = declined;
        return 0;
    }
    gm_text_builder tb;
    gm_tb_init(&tb);
    if (is_shape) {
        gm_tb_append_str(&tb, "list(");
        gm_tb_append_node(&tb, st->text, shape);
        gm_tb_append_str(&tb, ")");
    } else if (gm_is(shape, syn->sym.list)) {
        gm_tb_append_node(&tb, st->text, shape);
    } else {
        uint32_t start = ts_node_start_byte(shape) + 1, end = ts_node_end_byte(shape) - 1;
        gm_tb_append_str(&tb, "[");
        gm_tb_append(&tb, st->text + start, end - start);
        gm_tb_append_str(&tb, "]");
    }
    return gm_mend_fix_single(out, GM_FIX_SAFE, "take the list of sizes directly",
                              "Mend graph break: take the list of sizes directly instead of "
                              "reading it back from a tensor",
                              ts_node_start_byte(call), ts_node_end_byte(call), gm_tb_take(&tb));
}

/* The uses of a list `.tolist()` made: each must be the one argument of the builtin len(). */
typedef struct {
    gm_region *region;
    TSNode calls[16];
    unsigned count;
    bool only_len;
} length_uses;

static bool visit_length_use(void *payload, TSNode identifier) {
    length_uses *u = payload;
    const gm_syntax *syn = u->region->stmt->syntax;
    TSNode args = ts_node_parent(identifier);
    TSNode call = ts_node_parent(args);
    TSNode fn = gm_is(call, syn->sym.call) ? gm_child(call, syn->field.function) : (TSNode){0};
    if (!gm_is(args, syn->sym.argument_list) || ts_node_named_child_count(args) != 1 ||
        !gm_is(fn, syn->sym.identifier) || !gm_node_text_is(fn, u->region->stmt->text, "len") ||
        u->count == sizeof u->calls / sizeof u->calls[0]) {
        u->only_len = false;
        return false;
    }
    u->calls[u->count++] = call;
    return true;
}

/* `sizes = counts.tolist()` whose every use is `len(sizes)`: the length is the tensor's first
 * size, which dynamo knows without the data. The assignment goes and each `len(sizes)` becomes
 * `counts.shape[0]` (equal wherever .tolist() gives a list: a 0-d tensor's raises either way).
 * counts must be a name or attribute chain bound once, so that it means the same at each use. */
static int tolist_only_measured(gm_region *region, TSNode call, TSNode tensor, gm_fix *out) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    TSNode assignment = ts_node_parent(call);
    TSNode target = gm_is(assignment, syn->sym.assignment)
                        ? gm_unparen(syn, gm_child(assignment, syn->field.left))
                        : (TSNode){0};
    TSNode statement = ts_node_parent(assignment);
    TSNode function = gm_mend_enclosing_function(syn, call);
    TSNode head = gm_chain_head(syn, tensor);
    if (!gm_is(target, syn->sym.identifier) || !ts_node_eq(gm_child(assignment, syn->field.right), call) ||
        !gm_is(statement, syn->sym.expression_statement) || ts_node_is_null(function) ||
        ts_node_is_null(head) || gm_region_binds(region, "len") ||
        !gm_mend_names_stable(syn, st->text, function, tensor))
        return 0;
    gm_slice name = gm_node_slice(target, st->text);
    if (!ts_node_eq(gm_mend_only_assignment(syn, st->text, function, name), call))
        return 0;
    length_uses uses = {.region = region, .only_len = true};
    if (!gm_mend_each_use(syn, st->text, function, name, target, visit_length_use, &uses) ||
        !uses.only_len || uses.count == 0)
        return 0;
    gm_stmt_layout layout;
    gm_stmt_layout_of(st->text, st->len, statement, &layout);
    if (!layout.alone)
        return 0;
    uint32_t line_end = gm_line_end(st->text, st->len, ts_node_end_byte(statement));
    if (line_end < st->len)
        line_end++; /* the newline */
    char *nothing = strdup("");
    if (gm_mend_fix_single(out, GM_FIX_SAFE, "take the length from the shape",
                           "Mend graph break: take the length from the tensor's shape instead of "
                           "reading its values into a list",
                           layout.line_start, line_end, nothing) != 1)
        return -1;
    for (unsigned i = 0; i < uses.count; i++) {
        gm_text_builder tb;
        gm_tb_init(&tb);
        gm_tb_append_node(&tb, st->text, tensor);
        gm_tb_append_str(&tb, ".shape[0]");
        if (gm_mend_fix_add_edit(out, ts_node_start_byte(uses.calls[i]),
                                 ts_node_end_byte(uses.calls[i]), gm_tb_take(&tb)) != 0) {
            gm_fix_free(out);
            return -1;
        }
    }
    return 1;
}

/* Declines with why; where every use is tensor arithmetic or a return (a value no rewrite can
 * keep a tensor, but that capture_scalar_outputs traces), suggests the setting (display only:
 * such a value is returned, often from a shared helper such as transformers'
 * `modeling_flash_attention_utils.py`, whose import would switch the setting on for every model
 * of the process). */
static int declined_or_setting(gm_region *region, const use_summary *sum, const char *why,
                               gm_fix *out) {
    region->mend_declined = why;
    if (!sum->capturable)
        return 0;
    return gm_mend_setting_suggestion(region, GM_FIX_DISPLAY_ONLY,
                                      "_dynamo.config.capture_scalar_outputs = True",
                                      "set capture_scalar_outputs", SCALAR_SETTING_TITLE, out);
}

/* The uses of the list `name = t.tolist()` binds, after that assignment: each returned or the
 * sizes of a split, the uses dynamo traces with the list's values as symbolic ints. */
typedef struct {
    gm_region *region;
    uint32_t after;  /* uses start after this byte (the assignment's end) */
    gm_slice name;
    unsigned uses;
    bool traced;     /* every use so far is returned or a split's sizes */
} list_uses;

/* Whether id is the sizes argument of `x.split(id, ...)`, `x.split_with_sizes(id, ...)` or
 * `torch.split(x, id, ...)` (by keyword too). */
static bool is_split_sizes(const gm_region *region, TSNode id) {
    const gm_syntax *syn = region->stmt->syntax;
    const char *text = region->stmt->text;
    TSNode arg = id, args = ts_node_parent(id);
    if (gm_is(args, syn->sym.keyword_argument)) {
        TSNode key = gm_child(args, syn->field.name);
        if (!gm_node_text_is(key, text, "split_size") &&
            !gm_node_text_is(key, text, "split_size_or_sections") &&
            !gm_node_text_is(key, text, "split_sizes"))
            return false;
        arg = args;
        args = ts_node_parent(args);
    }
    TSNode call = ts_node_parent(args);
    if (!gm_is(args, syn->sym.argument_list) || !gm_is(call, syn->sym.call))
        return false;
    TSNode fn = gm_child(call, syn->field.function);
    if (!gm_is(fn, syn->sym.attribute))
        return false;
    TSNode attr = gm_child(fn, syn->field.attribute);
    bool method = gm_node_text_is(attr, text, "split") ||
                  gm_node_text_is(attr, text, "split_with_sizes");
    if (!method)
        return false;
    if (gm_is(arg, syn->sym.keyword_argument))
        return true;
    /* torch.split(x, sizes) takes the sizes second; x.split(sizes) first */
    char name[GM_NAME_MAX];
    bool function = gm_symbols_resolve(region->stmt->symbols, syn, text, fn, name, sizeof name) &&
                    strcmp(name, "torch.split") == 0;
    TSNode wanted = ts_node_named_child(args, function ? 1 : 0);
    return ts_node_eq(wanted, arg);
}

static void walk_list_uses(list_uses *u, TSNode n, int depth) {
    const gm_syntax *syn = u->region->stmt->syntax;
    const char *text = u->region->stmt->text;
    if (!u->traced || depth > 200)
        return;
    if (gm_is(n, syn->sym.identifier)) {
        if (ts_node_start_byte(n) < u->after ||
            !gm_slice_eq(gm_node_slice(n, text), u->name) ||
            !gm_mend_identifier_is_variable(syn, n))
            return;
        if (gm_mend_identifier_is_binding(syn, n)) {
            u->traced = false; /* rebound: later uses are another value */
            return;
        }
        u->uses++;
        gm_slice none = {NULL, 0};
        u->traced = gm_mend_use_of(u->region, n, none).kind == GM_USE_RETURNED ||
                    is_split_sizes(u->region, n);
        return;
    }
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count && u->traced; i++)
        walk_list_uses(u, ts_node_named_child(n, i), depth + 1);
}

/* `sizes = t.tolist()`, a statement of the function's own body, whose list is only returned or
 * splits a tensor (JetMoE's and GraniteMoE's expert sizes), or a `.tolist()` that is a split's
 * sizes itself: the capture mend. */
static int tolist_traced(gm_region *region, TSNode call, gm_fix *out) {
    const gm_syntax *syn = region->stmt->syntax;
    if (is_split_sizes(region, call)) /* `x.split(counts.tolist())` */
        return gm_mend_capture_scalars(region, out);
    TSNode assignment = ts_node_parent(call);
    TSNode target = gm_is(assignment, syn->sym.assignment)
                        ? gm_unparen(syn, gm_child(assignment, syn->field.left))
                        : (TSNode){0};
    TSNode statement = ts_node_parent(assignment);
    TSNode function = gm_mend_enclosing_function(syn, call);
    if (!gm_is(target, syn->sym.identifier) ||
        !ts_node_eq(gm_child(assignment, syn->field.right), call) ||
        !gm_is(statement, syn->sym.expression_statement) || ts_node_is_null(function) ||
        !ts_node_eq(ts_node_parent(statement), gm_child(function, syn->field.body)))
        return 0;
    list_uses uses = {.region = region,
                      .after = ts_node_end_byte(statement),
                      .name = gm_node_slice(target, region->stmt->text),
                      .traced = true};
    walk_list_uses(&uses, gm_child(function, syn->field.body), 0);
    if (!uses.traced || uses.uses == 0)
        return 0;
    return gm_mend_capture_scalars(region, out);
}

int gm_mend_tensor_to_python(gm_region *region, TSNode call, gm_fix *out) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    TSNode fn = gm_unparen(syn, gm_child(call, syn->field.function));
    use_summary sum = {region, true, true, true, {NULL, 0}, NULL, 0};
    TSNode tensor; /* the tensor converted */
    bool is_item = false;
    if (gm_is(fn, syn->sym.attribute)) {
        if (gm_node_text_is(gm_child(fn, syn->field.attribute), st->text, "tolist")) {
            TSNode of = gm_unparen(syn, gm_child(fn, syn->field.object));
            int rc = tolist_of_shape(region, call, of, out);
            if (rc != 0)
                return rc;
            rc = tolist_only_measured(region, call, of, out);
            if (rc == 0)
                rc = tolist_traced(region, call, out);
            if (rc != 0)
                region->mend_declined = NULL;
            return rc;
        }
        is_item = true;
        tensor = gm_child(fn, syn->field.object);
    } else {
        if (gm_node_text_is(fn, st->text, "bool")) {
            region->mend_declined = "bool() of a tensor makes a Python truth value";
            return 0;
        }
        tensor = ts_node_named_child(gm_child(call, syn->field.arguments), 0);
    }
    sum.base = preserving_base(region, tensor);
    TSNode function = gm_mend_enclosing_function(syn, call);
    if (ts_node_is_null(function)) {
        region->mend_declined = "the conversion is not directly in a function body";
        return 0;
    }
    /* `name = <conversion>`: every use of name in the function; else the conversion's own. */
    TSNode expr = call, p = ts_node_parent(call);
    while (gm_is(p, syn->sym.parenthesized_expression)) {
        expr = p;
        p = ts_node_parent(p);
    }
    TSNode left = gm_child(p, syn->field.left);
    if (gm_is(p, syn->sym.assignment) && ts_node_eq(gm_child(p, syn->field.right), expr) &&
        gm_is(left, syn->sym.identifier)) {
        if (!gm_mend_each_use(syn, st->text, function, gm_node_slice(left, st->text), left,
                              visit_use, &sum)) {
            sum.capturable = false;
            region->mend_declined = "the name the value is bound to is bound more than once";
            return 0;
        }
    } else {
        note_use(&sum, call);
    }
    if (sum.uses == 0) {
        region->mend_declined = "the value is never used";
        return 0;
    }
    if (!sum.all_arithmetic)
        return declined_or_setting(region, &sum, sum.declined, out);
    if (!is_item && !gm_node_text_is(fn, st->text, "float")) {
        region->mend_declined = "int() truncates toward zero, which a tensor operand would not do";
        return 0;
    }
    /* .item() of a dtype-preserving reduction of x, used only with x itself: the 0-d tensor
     * has x's dtype category and device, so promotion and placement match the Python number. */
    bool safe = is_item && sum.same_base && sum.base.len > 0 &&
                gm_mend_binding_count(syn, st->text, function, sum.base) <= 1;
    const char *label = "keep the value a 0-d tensor";
    const char *title =
        safe ? "Mend graph break: keep the value a 0-d tensor (`.detach()` instead of `.item()`)"
             : "Mend graph break: keep the value a 0-d tensor (`.detach()`; unlike a Python number "
               "it takes part in type promotion, stays on the tensor's device and rounds as a "
               "tensor)";
    if (is_item) {
        TSNode attr = gm_child(fn, syn->field.attribute);
        return gm_mend_fix_single(out, safe ? GM_FIX_SAFE : GM_FIX_UNSAFE, label, title,
                                  ts_node_start_byte(attr), ts_node_end_byte(attr),
                                  strdup("detach"));
    }
    gm_text_builder tb;
    gm_tb_init(&tb);
    TSNode arg = gm_unparen(syn, tensor);
    bool wrap = !gm_mend_is_primary(syn, arg);
    gm_tb_append_str(&tb, wrap ? "(" : "");
    gm_tb_append_node(&tb, st->text, arg);
    gm_tb_append_str(&tb, wrap ? ").detach()" : ".detach()");
    return gm_mend_fix_single(out, GM_FIX_UNSAFE, label, title, ts_node_start_byte(call),
                              ts_node_end_byte(call), gm_tb_take(&tb));
}
