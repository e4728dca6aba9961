/* A tensor where Python needs an int or a plain comparison (verified on torch 2.13, CPU):
 *
 * - GM202 tensor-to-python: a slice bound that is a tensor (`x[:, p : p + h * w]`): dynamo
 *   reads it with Tensor.item() (capture_scalar_outputs is off) and cannot resume after it, so
 *   the whole function runs eagerly. Any tensor counts, an input of the graph too.
 * - GM202: a tensor dynamo makes in the graph passed where an int size, length or step is
 *   needed (`torch.arange(n + 1)`, `x.new_zeros(h, w)` for h, w elements of a tensor a `for`
 *   loop iterates over, `x.narrow(-1, m, x.size(-1) - m)`, `torch.linspace(0, 1, h)`): "Data
 *   dependent operator" (aten._local_scalar_dense). A 0-d tensor that is an input of the graph (a
 *   parameter, or a value that crossed an earlier break) becomes a symbolic int instead and does
 *   not break, so a plain name of a tensor is not reported there.
 * - GM202: indexing with a 0-d tensor made in the graph (`h[h.argmax() // 8]`); a 1-d index
 *   tensor is advanced indexing and traces.
 * - GM101: `==`/`!=` between a list or tuple display holding a tensor and a sequence
 *   (`list(t.size()) == [b, n, s]`): dynamo compares element by element, gets a tensor and
 *   breaks (list_richcompare_nonconst), whether or not the comparison is tested. */
#include <stdio.h>
#include <string.h>

#include "analysis/mends/mends.h"
#include "analysis/module_facts/symbols.h"
#include "analysis/regions/binding_lookup.h"
#include "analysis/rules/emit.h"
#include "analysis/value_kinds/int_parameter_table.h"
#include "analysis/rules/rules.h"
#include "analysis/rules/tensor_rank.h"
#include "analysis/value_kinds/value_kinds.h"

static const gm_syntax *syn_of(const gm_region *r) {
    return r->stmt->syntax;
}

static const char *text_of(const gm_region *r) {
    return r->stmt->text;
}

static bool is_tensor(gm_region *r, TSNode n) {
    return !ts_node_is_null(n) && gm_value_of_resolved(r, n).kind == GM_KIND_TENSOR;
}

/* A tensor on firm evidence: not a guessed submodule call, not an annotation alone, nor
 * arithmetic of those with numbers. */
static bool is_firm_tensor(gm_region *r, TSNode n, int depth) {
    const gm_syntax *syn = r->stmt->syntax;
    n = gm_unparen(syn, n);
    if (!is_tensor(r, n) || depth > 16)
        return false;
    if (gm_kinds_is_guessed_tensor(r, n))
        return false;
    if (gm_is(n, syn->sym.binary_operator)) {
        TSNode left = gm_child(n, syn->field.left), right = gm_child(n, syn->field.right);
        return is_firm_tensor(r, left, depth + 1) || is_firm_tensor(r, right, depth + 1);
    }
    if (gm_is(n, syn->sym.unary_operator))
        return is_firm_tensor(r, gm_child(n, syn->field.argument), depth + 1);
    return true;
}

/* Whether n lies in an operand dynamo never evaluates: the right side of `<False> and ...` or
 * `<True> or ...` (`not is_torchdynamo_compiling() and ...`). */
static bool in_dead_operand(gm_region *r, TSNode n) {
    const gm_syntax *syn = r->stmt->syntax;
    for (int depth = 0; depth < 32; depth++) {
        TSNode parent = ts_node_parent(n);
        if (ts_node_is_null(parent) || strstr(ts_node_type(parent), "statement") ||
            gm_is(parent, syn->sym.block))
            return false;
        if (gm_is(parent, syn->sym.boolean_operator) &&
            ts_node_eq(gm_child(parent, syn->field.right), n)) {
            TSNode op = gm_child(parent, syn->field.operator);
            bool is_and = !ts_node_is_null(op) && strcmp(ts_node_type(op), "and") == 0;
            int c = gm_value_of(r, gm_child(parent, syn->field.left)).constant;
            if (c == (is_and ? 0 : 1))
                return true;
        }
        n = parent;
    }
    return false;
}

bool gm_in_dead_operand(gm_region *region, TSNode node) {
    return in_dead_operand(region, node);
}

static bool op_is(const gm_region *r, TSNode n, const char *const *ops) {
    TSNode op = gm_child(n, syn_of(r)->field.operator);
    if (ts_node_is_null(op))
        return false;
    for (; *ops; ops++)
        if (strcmp(ts_node_type(op), *ops) == 0)
            return true;
    return false;
}

static const char *const arithmetic[] = {"+", "-", "*", "/", "//", "%", "**", NULL};
static const char *const minus[] = {"-", "+", NULL};

/* Reductions that give a 0-d tensor when called without a dimension. */
static const char *const full_reductions[] = {"sum",  "mean",   "max",    "min",  "amax",
                                              "amin", "argmax", "argmin", "prod", "count_nonzero",
                                              "all",  "any",    NULL};

static bool in_words(const char *const *list, gm_slice s) {
    for (; *list; list++)
        if (gm_slice_is(s, *list))
            return true;
    return false;
}

/* `t.argmax()`, `t.sum()` (a tensor, by the value kinds) with no dimension: a 0-d tensor made in
 * the graph. */
static bool is_full_reduction(gm_region *r, TSNode n) {
    const gm_syntax *syn = syn_of(r);
    if (!gm_is(n, syn->sym.call))
        return false;
    TSNode fn = gm_unparen(syn, gm_child(n, syn->field.function));
    TSNode args = gm_child(n, syn->field.arguments);
    if (!gm_is(fn, syn->sym.attribute) || !gm_is(args, syn->sym.argument_list) ||
        ts_node_named_child_count(args) != 0)
        return false;
    TSNode attr = gm_child(fn, syn->field.attribute);
    return !ts_node_is_null(attr) && in_words(full_reductions, gm_node_slice(attr, text_of(r))) &&
           gm_value_of(r, n).kind == GM_KIND_TENSOR;
}

typedef bool (*made_test)(gm_region *r, TSNode n, int depth);

/* A local holding a tensor made in the graph (as made says): its latest `name = value` made
 * one, and no break graphmend predicts lies between that assignment and the use (after a break
 * the value enters the resumed graph as an input, and what comes of it then depends on the
 * backend: not reported). */
static bool local_made(gm_region *r, TSNode id, int depth, made_test made) {
    if (!is_tensor(r, id) || depth > 16)
        return false;
    TSNode value = gm_lookup_local(r, gm_node_slice(id, text_of(r)), id);
    if (ts_node_is_null(value) || !made(r, value, depth + 1))
        return false;
    uint32_t from = ts_node_end_byte(value), to = ts_node_start_byte(id);
    const gm_finding_list *out = r->stmt->out;
    for (size_t i = 0; i < out->count; i++)
        if (!out->items[i].suppressed && out->items[i].span.start_byte >= from &&
            out->items[i].span.start_byte < to)
            return false;
    return true;
}

/* An int literal, negative ones too. */
static bool is_int_literal(const gm_region *r, TSNode n) {
    const gm_syntax *syn = syn_of(r);
    n = gm_unparen(syn, n);
    if (gm_is(n, syn->sym.unary_operator) && op_is(r, n, minus))
        n = gm_unparen(syn, gm_child(n, syn->field.argument));
    return !ts_node_is_null(n) && strcmp(ts_node_type(n), "integer") == 0;
}

/* `t.long()`, `t.int()`, `t.to(torch.int64)`: the same tensor in another dtype. Returns its
 * receiver, or a null node. */
static TSNode converted(gm_region *r, TSNode n) {
    const gm_syntax *syn = syn_of(r);
    if (!gm_is(n, syn->sym.call))
        return (TSNode){0};
    TSNode fn = gm_unparen(syn, gm_child(n, syn->field.function));
    if (!gm_is(fn, syn->sym.attribute))
        return (TSNode){0};
    static const char *const conversions[] = {"long", "int", "short", "float", "double",
                                              "to",   NULL};
    TSNode attr = gm_child(fn, syn->field.attribute);
    if (ts_node_is_null(attr) || !in_words(conversions, gm_node_slice(attr, text_of(r))))
        return (TSNode){0};
    return gm_child(fn, syn->field.object);
}

/* A 0-d tensor made in the graph: a full reduction, an element of a 1-d tensor
 * (`self.timesteps[0]`), or arithmetic of one with numbers. */
static bool is_zero_dim_made(gm_region *r, TSNode n, int depth) {
    const gm_syntax *syn = syn_of(r);
    n = gm_unparen(syn, n);
    if (ts_node_is_null(n) || depth > 16)
        return false;
    if (gm_is(n, syn->sym.identifier))
        return local_made(r, n, depth, is_zero_dim_made);
    if (is_full_reduction(r, n))
        return true;
    TSNode source = converted(r, n);
    if (!ts_node_is_null(source))
        return is_zero_dim_made(r, source, depth + 1);
    if (gm_is(n, syn->sym.subscript) && ts_node_named_child_count(n) == 2 &&
        is_int_literal(r, ts_node_named_child(n, 1)))
        return gm_is_one_dim_tensor(r, gm_child(n, syn->field.value));
    if (gm_is(n, syn->sym.unary_operator) && op_is(r, n, minus))
        return is_zero_dim_made(r, gm_child(n, syn->field.argument), depth + 1);
    if (gm_is(n, syn->sym.binary_operator) && op_is(r, n, arithmetic)) {
        TSNode left = gm_child(n, syn->field.left), right = gm_child(n, syn->field.right);
        bool l = is_zero_dim_made(r, left, depth + 1), rr = is_zero_dim_made(r, right, depth + 1);
        gm_kind lk = gm_value_of(r, left).kind, rk = gm_value_of(r, right).kind;
        return (l && (rr || rk == GM_KIND_STATIC)) || (rr && lk == GM_KIND_STATIC);
    }
    return false;
}

/* A tensor dynamo makes in the graph (not an input it can pass as a symbolic int): arithmetic
 * with a tensor operand, an element of a tensor (a subscript, or a `for` loop element), a full
 * reduction. */
static bool is_made_in_graph(gm_region *r, TSNode n, int depth) {
    const gm_syntax *syn = syn_of(r);
    n = gm_unparen(syn, n);
    if (ts_node_is_null(n) || depth > 16)
        return false;
    if (gm_is(n, syn->sym.identifier))
        return gm_kinds_is_iteration_element(r, n) || local_made(r, n, depth, is_made_in_graph) ||
               gm_kinds_is_passed_made(r, n);
    if (gm_is(n, syn->sym.unary_operator) && op_is(r, n, minus))
        return is_made_in_graph(r, gm_child(n, syn->field.argument), depth + 1);
    if (gm_is(n, syn->sym.binary_operator) && op_is(r, n, arithmetic))
        return is_firm_tensor(r, n, 0);
    if (gm_is(n, syn->sym.subscript))
        return ts_node_named_child_count(n) >= 2 && is_tensor(r, gm_child(n, syn->field.value)) &&
               strcmp(ts_node_type(gm_unparen(syn, ts_node_named_child(n, 1))), "slice") != 0;
    TSNode source = converted(r, n);
    if (!ts_node_is_null(source))
        return is_made_in_graph(r, source, depth + 1);
    return is_full_reduction(r, n);
}

/* Where a call needs ints: positional arguments from..to (inclusive; -1: all), and keywords. */
typedef struct {
    const char *name;
    int from, to;
    const char *keywords[3];
    bool fill; /* a fill value: a Python number, not an int size */
} int_site;

/* torch functions (verified: each breaks with a tensor made in the graph there). */
static const int_site torch_sites[] = {
    {"torch.arange", 0, 2, {"start", "end", "step"}, false},
    {"torch.zeros", 0, -1, {"size", NULL, NULL}, false},
    {"torch.ones", 0, -1, {"size", NULL, NULL}, false},
    {"torch.empty", 0, -1, {"size", NULL, NULL}, false},
    {"torch.randn", 0, -1, {"size", NULL, NULL}, false},
    {"torch.full", 0, 0, {"size", NULL, NULL}, false},
    {"torch.linspace", 2, 2, {"steps", NULL, NULL}, false},
    {"torch.narrow", 2, 3, {"start", "length", NULL}, false},
    /* the fill value is read with Tensor.item() too (torch.full takes a 0-d tensor: traced) */
    {"torch.full_like", 1, 1, {"fill_value", NULL, NULL}, true},
};

/* Whether a torch site's last name part is method (a cheap test before resolving imports). */
static bool torch_site_named(gm_slice method) {
    for (size_t i = 0; i < sizeof torch_sites / sizeof torch_sites[0]; i++)
        if (gm_slice_is(method, strrchr(torch_sites[i].name, '.') + 1))
            return true;
    return false;
}

/* Tensor methods. */
static const int_site method_sites[] = {
    {"new_zeros", 0, -1, {"size", NULL, NULL}, false},
    {"new_ones", 0, -1, {"size", NULL, NULL}, false},
    {"new_empty", 0, -1, {"size", NULL, NULL}, false},
    {"new_full", 0, 0, {"size", NULL, NULL}, false},
    {"new_full", 1, 1, {"fill_value", NULL, NULL}, true},
    {"view", 0, -1, {NULL, NULL, NULL}, false},
    {"reshape", 0, -1, {"shape", NULL, NULL}, false},
    {"expand", 0, -1, {"size", NULL, NULL}, false},
    {"repeat", 0, -1, {NULL, NULL, NULL}, false},
    {"narrow", 1, 2, {"start", "length", NULL}, false},
    {"split", 0, 0, {"split_size", "split_size_or_sections", NULL}, false},
};

/* Whether an argument needing ints is, or (a size tuple or list) holds, a tensor made in the
 * graph. */
static bool int_argument_made(gm_region *r, TSNode a) {
    const gm_syntax *syn = syn_of(r);
    a = gm_unparen(syn, a);
    if (gm_is(a, syn->sym.tuple) || gm_is(a, syn->sym.list)) {
        uint32_t count = ts_node_named_child_count(a);
        for (uint32_t i = 0; i < count && i < 16; i++)
            if (is_made_in_graph(r, ts_node_named_child(a, i), 0))
                return true;
        return false;
    }
    return is_made_in_graph(r, a, 0);
}

/* Whether argument a of a site breaks there: a tensor made in the graph where an int is needed
 * (a 0-d input of the graph is a symbolic int there), or any tensor as a fill value (read with
 * Tensor.item() whether or not the graph made it). */
static bool site_argument_hit(gm_region *r, const int_site *site, TSNode a) {
    return site->fill ? is_firm_tensor(r, a, 0) : int_argument_made(r, a);
}

/* Whether an argument of call passes a tensor that breaks where a site (or a generated
 * operator) takes it: takes(site, position, keyword) says whether it takes the positional
 * argument at position (counted from first) or the keyword argument named keyword, and hit
 * whether the value breaks there. A splat ends the look (what it holds is unknown). */
typedef bool (*takes_argument)(const void *site, int position, gm_slice keyword);
typedef bool (*breaks_there)(gm_region *r, const void *site, TSNode value);

static bool argument_hit(gm_region *r, TSNode call, int first, const void *site,
                         takes_argument takes, breaks_there hit) {
    const gm_syntax *syn = syn_of(r);
    TSNode args = gm_child(call, syn->field.arguments);
    if (!gm_is(args, syn->sym.argument_list))
        return false;
    uint32_t count = ts_node_named_child_count(args);
    int position = first;
    for (uint32_t i = 0; i < count; i++) {
        TSNode a = ts_node_named_child(args, i);
        if (gm_is(a, syn->sym.comment))
            continue;
        if (gm_is(a, syn->sym.keyword_argument)) {
            TSNode name = gm_child(a, syn->field.name);
            if (!ts_node_is_null(name) && takes(site, -1, gm_node_slice(name, text_of(r))) &&
                hit(r, site, gm_child(a, syn->field.value)))
                return true;
            continue;
        }
        const char *type = ts_node_type(a);
        if (strcmp(type, "list_splat") == 0 || strcmp(type, "dictionary_splat") == 0)
            return false;
        int p = position++;
        if (takes(site, p, (gm_slice){0}) && hit(r, site, a))
            return true;
    }
    return false;
}

static bool site_takes(const void *s, int position, gm_slice keyword) {
    const int_site *site = s;
    if (position < 0) {
        for (int k = 0; k < 3 && site->keywords[k]; k++)
            if (gm_slice_is(keyword, site->keywords[k]))
                return true;
        return false;
    }
    return position >= site->from && (site->to < 0 || position <= site->to);
}

static bool site_breaks(gm_region *r, const void *site, TSNode value) {
    return site_argument_hit(r, site, value);
}

static bool site_hit(gm_region *r, TSNode call, const int_site *site) {
    return argument_hit(r, call, 0, site, site_takes, site_breaks);
}

/* The generated table's operator named name, or NULL. */
static const gm_int_parameter_op *int_parameter_op(gm_slice name) {
    return gm_int_parameter_op_named(name.ptr, name.len);
}

/* Whether word is one of the comma-separated words of list. */
static bool listed(const char *list, gm_slice word) {
    for (const char *at = list; *at;) {
        const char *end = strchr(at, ',');
        size_t len = end ? (size_t)(end - at) : strlen(at);
        if (len == word.len && memcmp(at, word.ptr, len) == 0)
            return true;
        if (!end)
            break;
        at = end + 1;
    }
    return false;
}

static bool op_takes(const void *o, int position, gm_slice keyword) {
    const gm_int_parameter_op *op = o;
    if (position < 0)
        return listed(op->keywords, keyword);
    return position < 32 && (op->positions >> position & 1u);
}

static bool op_breaks(gm_region *r, const void *op, TSNode value) {
    (void)op;
    return int_argument_made(r, value);
}

/* Whether call passes a tensor made in the graph where op takes ints: positional arguments by
 * the schema's index (from one for a method, whose self is the receiver) and keywords. */
static bool op_hit(gm_region *r, TSNode call, const gm_int_parameter_op *op, bool method) {
    return argument_hit(r, call, method ? 1 : 0, op, op_takes, op_breaks);
}

static bool op_takes_number(const void *o, int position, gm_slice keyword) {
    const gm_int_parameter_op *op = o;
    if (position < 0)
        return listed(op->number_keywords, keyword);
    return position < 32 && (op->number_positions >> position & 1u);
}

/* A number is read with Tensor.item() from any tensor, an input of the graph included (dynamo
 * turns only a 0-d input into a symbol where an int is taken). */
static bool number_breaks(gm_region *r, const void *op, TSNode value) {
    (void)op;
    return is_firm_tensor(r, value, 0);
}

/* Whether call passes a tensor where op takes a Python number (`torch.add(a, b, alpha=t)`). */
static bool op_hit_number(gm_region *r, TSNode call, const gm_int_parameter_op *op, bool method) {
    return argument_hit(r, call, method ? 1 : 0, op, op_takes_number, number_breaks);
}

/* Why no mend is offered: the int has to come from somewhere else, which only the author
 * knows. */
static const char *const no_int_rewrite =
    "the value is data-dependent: take the int from a shape (`x.size(0)`) or pass it in as a "
    "Python int; `capture_scalar_outputs` keeps it in the graph as an unbacked symbol";

/* The same for a Python number: the operation has a tensor form that keeps the value in the
 * graph, which only the author can choose. */
static const char *const no_number_rewrite =
    "pass a Python number, or apply the tensor with tensor arithmetic (`torch.add(a, b * t)` "
    "instead of `alpha=t`); `capture_scalar_outputs` reads it inside the graph instead";

static void emit(gm_region *r, const char *rule, TSNode node, const char *message,
                 const char *declined) {
    r->mend_declined = declined;
    gm_emit_finding(r, gm_rule_by_id(rule), node, message, NULL, 0);
}

/* A GM202 whose value dynamo traces as a symbolic int once capture_scalar_outputs is on (a
 * slice bound, a factory's size, narrow's start and length, split's sizes): the capture mend,
 * with no_int_rewrite (or the builder's own reason) when it is not offered. */
static void emit_capturable(gm_region *r, TSNode node, const char *message) {
    gm_fix mends[GM_MENDS_MAX];
    r->mend_declined = no_int_rewrite; /* unless the builder says more */
    int count = gm_mend_capture_scalars(r, mends);
    if (count < 0) {
        r->stmt->oom = true;
        return;
    }
    gm_emit_finding(r, gm_rule_by_id("GM202"), node, message, mends, (size_t)count);
}

/* Whether an int site's size, once a symbolic int, needs no guard on its value: a factory's
 * size, narrow's or split's; not the shape of view, reshape, expand or repeat, which dynamo
 * checks against the tensor's own size. */
static bool site_takes_symbolic_size(const int_site *site) {
    static const char *const guarded[] = {"view", "reshape", "expand", "repeat"};
    for (size_t i = 0; i < sizeof guarded / sizeof guarded[0]; i++)
        if (strcmp(site->name, guarded[i]) == 0)
            return false;
    return true;
}

/* ---- sequence comparisons ------------------------------------------------------------ */

static bool is_builtin_named(gm_region *r, TSNode fn, const char *name) {
    return gm_is(fn, syn_of(r)->sym.identifier) && gm_node_text_is(fn, text_of(r), name) &&
           !gm_symbols_is_imported(r->stmt->symbols, gm_node_slice(fn, text_of(r))) &&
           !gm_region_binds(r, name);
}

/* `list(x)` / `tuple(x)` with the builtin. */
static bool is_sequence_call(gm_region *r, TSNode n) {
    const gm_syntax *syn = syn_of(r);
    if (!gm_is(n, syn->sym.call))
        return false;
    TSNode fn = gm_unparen(syn, gm_child(n, syn->field.function));
    return is_builtin_named(r, fn, "list") || is_builtin_named(r, fn, "tuple");
}

static bool is_display(const gm_syntax *syn, TSNode n) {
    return gm_is(n, syn->sym.list) || gm_is(n, syn->sym.tuple);
}

/* A display with an element that is a tensor. */
static bool display_holds_tensor(gm_region *r, TSNode n) {
    const gm_syntax *syn = syn_of(r);
    if (!is_display(syn, n))
        return false;
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count && i < 16; i++) {
        TSNode e = ts_node_named_child(n, i);
        if (strcmp(ts_node_type(e), "list_splat") == 0)
            return false;
        if (is_tensor(r, e))
            return true;
    }
    return false;
}

/* A sequence the comparison compares element by element: a display, a shape (static), or
 * list()/tuple() of one. */
static bool is_sequence(gm_region *r, TSNode n) {
    const gm_syntax *syn = syn_of(r);
    if (is_display(syn, n))
        return true;
    if (is_sequence_call(r, n)) {
        TSNode args = gm_child(n, syn->field.arguments);
        if (!gm_is(args, syn->sym.argument_list) || ts_node_named_child_count(args) != 1)
            return false;
        TSNode a = gm_unparen(syn, ts_node_named_child(args, 0));
        return is_display(syn, a) || gm_value_of(r, a).kind == GM_KIND_STATIC;
    }
    /* x.shape, x.size(): static values that are sequences; a static int compares with a
     * list to False without looking at the elements, which is no break either way */
    return gm_value_of(r, n).kind == GM_KIND_STATIC;
}

/* `a == b` / `a != b` with one side a display holding a tensor and the other a sequence. */
static bool is_tensor_sequence_comparison(gm_region *r, TSNode n) {
    const gm_syntax *syn = syn_of(r);
    n = gm_unparen(syn, n);
    if (!gm_is(n, syn->sym.comparison_operator) || ts_node_named_child_count(n) != 2)
        return false;
    bool eq = false;
    TSTreeCursor cursor = ts_tree_cursor_new(n);
    if (ts_tree_cursor_goto_first_child(&cursor)) {
        do {
            if (ts_tree_cursor_current_field_id(&cursor) != syn->field.operators)
                continue;
            const char *t = ts_node_type(ts_tree_cursor_current_node(&cursor));
            eq = strcmp(t, "==") == 0 || strcmp(t, "!=") == 0;
        } while (ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
    if (!eq)
        return false;
    TSNode a = gm_unparen(syn, ts_node_named_child(n, 0));
    TSNode b = gm_unparen(syn, ts_node_named_child(n, 1));
    return (display_holds_tensor(r, a) && is_sequence(r, b)) ||
           (display_holds_tensor(r, b) && is_sequence(r, a));
}

static void emit_sequence(gm_region *r, TSNode comparison) {
    char shown[GM_SHOWN_SIZE], because[160], message[560];
    gm_node_shown(comparison, text_of(r), shown, sizeof shown);
    gm_tensor_operand_note(r, comparison, because, sizeof because);
    snprintf(message, sizeof message,
             "comparison `%s` of a list or tuple holding a tensor%s: torch.compile compares "
             "element by element, gets a tensor instead of a bool and breaks the graph here "
             "(list_richcompare_nonconst)",
             shown, because);
    emit(r, "GM101", comparison, message,
         "compare the sizes that are ints and check the tensor element with a tensor "
         "operation (`torch._assert_async(n == m)`), or drop the check under compile");
}

bool gm_rule_sequence_comparison(gm_region *region, TSNode condition) {
    TSNode c = gm_unparen(syn_of(region), condition);
    if (!is_tensor_sequence_comparison(region, c))
        return false;
    emit_sequence(region, c);
    return true;
}

/* `list(t.size()) == [n, m]` that the branch rule does not look at: the test of an assert
 * without a message (or with a constant one), or a value assigned. */
static void sequence_call(gm_region *r, TSNode call) {
    const gm_syntax *syn = syn_of(r);
    if (!is_sequence_call(r, call))
        return;
    TSNode cmp = ts_node_parent(call);
    if (!gm_is(cmp, syn->sym.comparison_operator))
        return;
    TSNode parent = ts_node_parent(cmp);
    bool unseen = false;
    if (gm_is(parent, syn->sym.assert_statement)) {
        uint32_t count = ts_node_named_child_count(parent);
        unseen = ts_node_eq(ts_node_named_child(parent, 0), cmp) &&
                 (count == 1 || gm_is_constant_string(syn_of(r), ts_node_named_child(parent, 1)));
    } else if (gm_is(parent, syn->sym.assignment)) {
        unseen = ts_node_eq(gm_child(parent, syn->field.right), cmp);
    }
    if (unseen && is_tensor_sequence_comparison(r, cmp))
        emit_sequence(r, cmp);
}

/* ---- calls and subscripts -------------------------------------------------------------- */

/* `range(n)` with a tensor n: range takes an index (Tensor.__index__, Tensor.item()), which
 * dynamo reads even of a tensor that is an input of the graph. */
static void range_call(gm_region *region, TSNode call) {
    const gm_syntax *syn = syn_of(region);
    TSNode args = gm_child(call, syn->field.arguments);
    if (!gm_is(args, syn->sym.argument_list) || in_dead_operand(region, call))
        return;
    uint32_t count = ts_node_named_child_count(args);
    for (uint32_t i = 0; i < count; i++) {
        TSNode a = ts_node_named_child(args, i);
        if (gm_is(a, syn->sym.keyword_argument) || !is_firm_tensor(region, a, 0))
            continue;
        char shown[GM_SHOWN_SIZE], because[160], message[560];
        gm_node_shown(call, text_of(region), shown, sizeof shown);
        gm_tensor_operand_note(region, a, because, sizeof because);
        snprintf(message, sizeof message,
                 "`%s` is passed a tensor where an int is needed%s: torch.compile reads its "
                 "value (Tensor.item(), data-dependent) and breaks the graph here",
                 shown, because);
        emit(region, "GM202", call, message, no_int_rewrite);
        return;
    }
}

/* A call of an operator of the generated table (tensor.topk(k), torch.roll(x, s),
 * F.pad(x, p)) that passes a tensor made in the graph where the operator takes ints; sets
 * *receiver for a method. */
static bool generated_site(gm_region *region, TSNode call, TSNode fn, bool bare,
                           bool module_call, gm_slice method, TSNode *receiver, bool *number) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    const gm_int_parameter_op *op = int_parameter_op(method);
    if (!op)
        return false;
    if (!module_call) {
        /* tensor.NAME(...): the receiver must be a tensor (checked last by the caller) */
        if (bare || !(op->forms & GM_INT_METHOD))
            return false;
        if (!op_hit(region, call, op, true) && !(*number = op_hit_number(region, call, op, true)))
            return false;
        *receiver = gm_child(fn, syn->field.object);
        return true;
    }
    char name[GM_NAME_MAX];
    if (!gm_symbols_resolve(st->symbols, syn, st->text, fn, name, sizeof name))
        return false;
    size_t full = strlen(name);
    if (full < method.len)
        return false;
    size_t len = full - method.len;
    bool function = (op->forms & GM_INT_FUNCTION) && len == 6 && strncmp(name, "torch.", 6) == 0;
    bool functional = (op->forms & GM_INT_FUNCTIONAL) && len == 20 &&
                      strncmp(name, "torch.nn.functional.", 20) == 0;
    return (function || functional) &&
           (op_hit(region, call, op, false) || (*number = op_hit_number(region, call, op, false)));
}

/* A fill value read with Tensor.item(): the empty tensor filled in place with it, where the
 * call's arguments allow (the builder says why not). */
static void fill_value(gm_region *region, TSNode call, const char *message) {
    gm_fix mends[GM_MENDS_MAX];
    int count = gm_mend_tensor_fill(region, call, mends);
    if (count < 0) {
        region->stmt->oom = true;
        return;
    }
    gm_emit_finding(region, gm_rule_by_id("GM202"), call, message, mends, (size_t)count);
}

void gm_rule_tensor_as_int_call(gm_region *region, TSNode call) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    TSNode fn = gm_unparen(syn, gm_child(call, syn->field.function));
    bool bare = gm_is(fn, syn->sym.identifier); /* `from torch import arange` */
    if (bare && is_builtin_named(region, fn, "range")) {
        range_call(region, call);
        return;
    }
    if (bare && !torch_site_named(gm_node_slice(fn, st->text))) {
        sequence_call(region, call);
        return;
    }
    if (!bare && !gm_is(fn, syn->sym.attribute))
        return;
    TSNode attr = bare ? fn : gm_child(fn, syn->field.attribute);
    if (ts_node_is_null(attr))
        return;
    gm_slice method = gm_node_slice(attr, st->text);
    char name[GM_NAME_MAX];
    TSNode head = gm_chain_head(syn, fn);
    /* `torch.narrow(...)`, `F.pad(...)`: a function of an imported module, not a method */
    bool module_call = !ts_node_is_null(head) &&
                       gm_symbols_is_imported(st->symbols, gm_node_slice(head, st->text)) &&
                       !gm_region_binds_node(region, head);
    /* a name's sites in turn (new_full's size, then its fill value): the first one hit */
    const int_site *site = NULL;
    bool named = false;
    for (size_t i = 0;
         i < sizeof method_sites / sizeof method_sites[0] && !site && !bare && !module_call; i++)
        if (gm_slice_is(method, method_sites[i].name)) {
            named = true;
            if (site_hit(region, call, &method_sites[i]))
                site = &method_sites[i];
        }
    TSNode receiver = {0};
    if (named) {
        if (!site)
            return;
        receiver = gm_child(fn, syn->field.object);
    } else if (torch_site_named(method) && module_call &&
               gm_symbols_resolve(st->symbols, syn, st->text, fn, name, sizeof name)) {
        for (size_t i = 0; i < sizeof torch_sites / sizeof torch_sites[0] && !site; i++)
            if (strcmp(name, torch_sites[i].name) == 0 && site_hit(region, call, &torch_sites[i]))
                site = &torch_sites[i];
    }
    bool number = false; /* a Python number is taken where the tensor goes, not an int */
    if (!site && !generated_site(region, call, fn, bare, module_call, method, &receiver, &number))
        return;
    if (in_dead_operand(region, call))
        return;
    /* the receiver of a method last: it may take a look at the callers; `x.new_full(...)` is
     * evidence enough, as no other common type has the new_* factories */
    if (!ts_node_is_null(receiver) && !is_tensor(region, receiver) &&
        !(site && strncmp(site->name, "new_", 4) == 0))
        return;
    char shown[GM_SHOWN_SIZE], because[160], message[560];
    gm_node_shown(call, st->text, shown, sizeof shown);
    gm_tensor_operand_note(region, gm_child(call, syn->field.arguments), because, sizeof because);
    bool fill = site && site->fill;
    snprintf(message, sizeof message,
             "`%s` is passed a tensor%s where %s is needed%s: torch.compile reads its value "
             "(Tensor.item(), data-dependent) and breaks the graph here",
             shown, fill || number ? "" : " computed in the graph",
             fill     ? "a Python number (the fill value)"
             : number ? "a Python number"
                      : "an int",
             because);
    if (fill) {
        fill_value(region, call, message);
        return;
    }
    if (number) {
        emit(region, "GM202", call, message, no_number_rewrite);
        return;
    }
    if (site && site_takes_symbolic_size(site))
        emit_capturable(region, call, message);
    else
        emit(region, "GM202", call, message, no_int_rewrite);
}

/* Whether gradient checkpointing may run the region with the training setting: a method of a
 * class that makes no checkpoint call, or a module-level function (a helper the checkpointed
 * layers call), in a file that checkpoints modules. */
static bool may_run_in_checkpoint(const gm_region *region) {
    const gm_stmt_ctx *st = region->stmt;
    if (!st->options->training || !st->symbols->uses_gradient_checkpointing)
        return false;
    return ts_node_is_null(region->site.class_node) || gm_region_may_run_checkpointed(region);
}

/* The innermost for statement of the region's function whose body holds node, or a null
 * node. */
static TSNode enclosing_for_body(const gm_region *region, TSNode node) {
    const gm_syntax *syn = syn_of(region);
    TSNode child = node;
    for (TSNode n = ts_node_parent(node); !ts_node_is_null(n); n = ts_node_parent(n)) {
        if (ts_node_eq(n, region->site.function) || gm_is(n, syn->sym.function_definition) ||
            gm_is(n, syn->sym.class_definition))
            break;
        if (gm_is(n, syn->sym.for_statement) && ts_node_eq(gm_child(n, syn->field.body), child))
            return n;
        child = n;
    }
    return (TSNode){0};
}

/* The statement of the region's function that holds node (the child of a block), or a null
 * node; with_or_loop is set when a `with` or loop body lies between (their context manager or
 * iterator stays on dynamo's stack across the body's statements). */
static TSNode enclosing_statement(const gm_region *region, TSNode node, bool *with_or_loop) {
    const gm_syntax *syn = syn_of(region);
    *with_or_loop = false;
    TSNode child = node;
    for (TSNode n = ts_node_parent(node); !ts_node_is_null(n); n = ts_node_parent(n)) {
        if (gm_is(n, syn->sym.block)) {
            TSNode owner = ts_node_parent(n);
            *with_or_loop = gm_is(owner, syn->sym.with_statement) ||
                            gm_is(owner, syn->sym.for_statement) ||
                            gm_is(owner, syn->sym.while_statement);
            return child;
        }
        if (ts_node_eq(n, region->site.function))
            return (TSNode){0};
        child = n;
    }
    return (TSNode){0};
}

/* The node of a statement whose code runs first (dynamo's restart point when it cannot resume
 * inside the statement is its first instruction): an assignment's value, an augmented
 * assignment's target, a return's value, then down the operand evaluated first (a call's
 * callee, a display's first element, a conditional expression's test). */
static TSNode first_evaluated(const gm_syntax *syn, TSNode statement) {
    TSNode n = statement;
    if (gm_is(n, syn->sym.expression_statement) || gm_is(n, syn->sym.return_statement))
        n = ts_node_named_child_count(n) ? ts_node_named_child(n, 0) : (TSNode){0};
    if (gm_is(n, syn->sym.assignment)) {
        TSNode right = gm_child(n, syn->field.right);
        n = ts_node_is_null(right) ? (TSNode){0} : right;
    } else if (gm_is(n, syn->sym.augmented_assignment)) {
        n = gm_child(n, syn->field.left);
    }
    for (int guard = 0; !ts_node_is_null(n) && guard < 64; guard++) {
        TSSymbol s = ts_node_symbol(n);
        TSNode next = {0};
        if (s == syn->sym.conditional_expression && ts_node_named_child_count(n) == 3)
            next = ts_node_named_child(n, 1);
        else if (s == syn->sym.call)
            next = gm_child(n, syn->field.function);
        else if (s == syn->sym.parenthesized_expression || s == syn->sym.list ||
                 s == syn->sym.tuple || s == syn->sym.attribute || s == syn->sym.subscript ||
                 s == syn->sym.binary_operator || s == syn->sym.comparison_operator ||
                 s == syn->sym.boolean_operator)
            next = ts_node_named_child_count(n) ? ts_node_named_child(n, 0) : (TSNode){0};
        if (ts_node_is_null(next))
            break;
        n = next;
    }
    return n;
}

void gm_rule_tensor_as_int_subscript(gm_region *region, TSNode subscript) {
    const gm_syntax *syn = syn_of(region);
    uint32_t count = ts_node_named_child_count(subscript);
    for (uint32_t i = 1; i < count; i++) {
        TSNode index = gm_unparen(syn, ts_node_named_child(subscript, i));
        if (strcmp(ts_node_type(index), "slice") != 0)
            continue;
        uint32_t parts = ts_node_named_child_count(index);
        for (uint32_t k = 0; k < parts; k++) {
            if (!is_firm_tensor(region, ts_node_named_child(index, k), 0) ||
                in_dead_operand(region, subscript))
                continue;
            TSNode bound = ts_node_named_child(index, k);
            char shown[GM_SHOWN_SIZE], shown_bound[GM_SHOWN_SIZE], because[160], message[640];
            gm_node_shown(subscript, text_of(region), shown, sizeof shown);
            gm_node_shown(bound, text_of(region), shown_bound, sizeof shown_bound);
            gm_tensor_operand_note(region, bound, because, sizeof because);
            snprintf(message, sizeof message,
                     "`%s` has a tensor as a slice bound, `%s`%s: torch.compile reads its value "
                     "with Tensor.item() (capture_scalar_outputs is off) and breaks the graph "
                     "here; it cannot resume after it, so the whole function runs eagerly",
                     shown, shown_bound, because);
            emit_capturable(region, subscript, message);
            /* Inside a for loop dynamo compiles up to the last point it can resume from, the
             * loop's header, and reports a second break there (explain: step_unsupported;
             * torch 2.13, unlike a `.item()` call in the loop, which skips the frame cleanly) */
            TSNode loop = enclosing_for_body(region, subscript);
            /* (not where gradient checkpointing may run it: there the break ends the
             * checkpoint's body, which falls back whole) */
            if (!ts_node_is_null(loop) && region->loop_depth > region->comprehension_frame_depth &&
                !may_run_in_checkpoint(region))
                emit_capturable(region, gm_child(loop, syn->field.left),
                                "a tensor slice bound inside this loop breaks the graph where "
                                "torch.compile cannot resume: it compiles the function up to "
                                "this line");
            /* Outside loops the restart point is the statement's first instruction: in a
             * statement over several lines (`torch.cat([\n x[: n],\n ...])`) explain reports
             * its line too (torchaudio's Emformer) */
            bool with_or_loop = false;
            TSNode statement = ts_node_is_null(loop) && region->loop_depth == 0
                                   ? enclosing_statement(region, subscript, &with_or_loop)
                                   : (TSNode){0};
            TSNode first = ts_node_is_null(statement) || with_or_loop
                               ? (TSNode){0}
                               : first_evaluated(syn, statement);
            if (!ts_node_is_null(first) &&
                ts_node_start_point(first).row != ts_node_start_point(subscript).row &&
                ts_node_start_byte(first) < ts_node_start_byte(subscript) &&
                !may_run_in_checkpoint(region))
                emit_capturable(region, first,
                                "a tensor slice bound further down this statement breaks the "
                                "graph where torch.compile cannot resume: it compiles the "
                                "function up to the start of the statement");
            gm_region_skip_frame(region, "GM202");
            return;
        }
    }
    /* whatever the receiver: a list or a tensor alike reads the index's value, alone or as
     * one element of a tuple index (`h[:, order[0]]`) */
    for (uint32_t i = 1; i < count; i++) {
        TSNode index = gm_unparen(syn, ts_node_named_child(subscript, i));
        if (strcmp(ts_node_type(index), "slice") == 0 || !is_zero_dim_made(region, index, 0) ||
            gm_kinds_is_mask(region, index) || in_dead_operand(region, subscript))
            continue;
        char shown[GM_SHOWN_SIZE], message[400];
        gm_node_shown(subscript, text_of(region), shown, sizeof shown);
        snprintf(message, sizeof message,
                 "`%s` indexes with a 0-d tensor computed in the graph: torch.compile reads its "
                 "value (Tensor.item(), data-dependent) and breaks the graph here",
                 shown);
        emit(region, "GM202", subscript, message,
             "`torch.index_select(x, 0, i.reshape(1))` keeps an index tensor in the graph, but "
             "changes the result's shape, so the rewrite is left to you");
        return;
    }
}
