/* gm_mend_index_routing_dense (see index_routing.h): the mixture-of-experts loop body that
 * transformers' MoE layers share (OLMoE, Qwen3-MoE, PhiMoE, ...):
 *
 *     idx, top_x = torch.where(expert_mask[e])           (deleted)
 *     if top_x.shape[0] == 0: continue                   (deleted)
 *     state = x[None, top_x].reshape(-1, h)              state = x[None].reshape(-1, h)
 *     y = expert(state) * w[top_x, idx, None]       ->   y = expert(state) * (w * (expert_mask[e] != 0).transpose(0, 1)).sum(1)[:, None]
 *     out.index_add_(0, top_x, y)                        out.add_(y)
 *
 * The expert runs on every token; a token the mask does not route to it gets the weight 0, so
 * it adds nothing, and a routed token gets the sum of its pairs' weights, which is what the
 * index_add_ of its pairs adds (the weight is a factor of the added value: linear). Equal when
 * the expert works token by token and gives finite values on every token (0 * inf is nan),
 * up to the order of the additions; every expert does the work of all tokens: unsafe. */
#include <stdlib.h>
#include <string.h>

#include "analysis/mends/index_routing.h"
#include "analysis/mends/mask_shape.h"
#include "analysis/mends/rewrite_text.h"
#include "analysis/mends/value_uses.h"
#include "analysis/module_facts/symbols.h"

#define MAX_NAMES 4

typedef struct {
    gm_region *region;
    const gm_syntax *syn;
    const char *text;
    TSNode routed; /* E in `k, t = torch.where(E)` */
    gm_slice tokens[MAX_NAMES], pairs[MAX_NAMES]; /* t and k, with their aliases */
    int token_count, pair_count;
    gm_slice scaled[MAX_NAMES * 2]; /* names bound to a value a pair weight scales */
    int scaled_count;
    int accumulations; /* index_add_ calls rewritten */
    bool failed;
    const char *why;
} index_routing;

static bool in_names(const gm_slice *names, int count, gm_slice s) {
    for (int i = 0; i < count; i++)
        if (gm_slice_eq(names[i], s))
            return true;
    return false;
}

static bool is_name(const index_routing *r, TSNode n, const gm_slice *names, int count) {
    n = gm_unparen(r->syn, n);
    return gm_is(n, r->syn->sym.identifier) && in_names(names, count, gm_node_slice(n, r->text));
}

static bool is_token(const index_routing *r, TSNode n) {
    return is_name(r, n, r->tokens, r->token_count);
}

static bool is_pair(const index_routing *r, TSNode n) {
    return is_name(r, n, r->pairs, r->pair_count);
}

/* The per-token weight of a pair-indexed tensor w: `(w * (E != 0).transpose(0, 1)).sum(1)`. */
static void append_token_weight(gm_text_builder *tb, const index_routing *r, TSNode w) {
    gm_tb_append_str(tb, "(");
    gm_tb_append_node(tb, r->text, w);
    gm_tb_append_str(tb, " * (");
    gm_tb_append_node(tb, r->text, r->routed);
    gm_tb_append_str(tb, " != 0).transpose(0, 1)).sum(1)");
}

/* Whether n is a pair weight `w[t, k]` / `w[t, k, None]`. */
static bool is_pair_weight(const index_routing *r, TSNode n) {
    n = gm_unparen(r->syn, n);
    uint32_t count = ts_node_named_child_count(n);
    return gm_is(n, r->syn->sym.subscript) && (count == 3 || count == 4) &&
           is_token(r, ts_node_named_child(n, 1)) && is_pair(r, ts_node_named_child(n, 2)) &&
           (count == 3 || gm_is(ts_node_named_child(n, 3), r->syn->sym.none));
}

static int count_weights(const index_routing *r, TSNode n) {
    if (is_pair_weight(r, n))
        return 1;
    int total = 0;
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; i++)
        total += count_weights(r, ts_node_named_child(n, i));
    return total;
}

/* The pair weights (and scaled names) that scale expr as a whole: followed through products,
 * parentheses and dtype conversions (`.to(...)`, `.float()`), where the value stays linear in
 * the weight. *weights counts the weights met. */
static bool scales(const index_routing *r, TSNode expr, int *weights) {
    const gm_syntax *syn = r->syn;
    expr = gm_unparen(syn, expr);
    if (is_pair_weight(r, expr)) {
        (*weights)++;
        return true;
    }
    if (gm_is(expr, syn->sym.identifier))
        return in_names(r->scaled, r->scaled_count, gm_node_slice(expr, r->text));
    if (gm_is(expr, syn->sym.call)) {
        TSNode fn = gm_unparen(syn, gm_child(expr, syn->field.function));
        static const char *const conversions[] = {"to", "float", "half", "bfloat16", "type_as"};
        for (size_t i = 0; gm_is(fn, syn->sym.attribute) && i < 5; i++)
            if (gm_node_text_is(gm_child(fn, syn->field.attribute), r->text, conversions[i]))
                return scales(r, gm_child(fn, syn->field.object), weights);
        return false;
    }
    TSNode op = gm_is(expr, syn->sym.binary_operator) ? gm_child(expr, syn->field.operator)
                                                      : (TSNode){0};
    if (ts_node_is_null(op) || strcmp(ts_node_type(op), "*") != 0)
        return false;
    bool left = scales(r, gm_child(expr, syn->field.left), weights);
    bool right = scales(r, gm_child(expr, syn->field.right), weights);
    return left || right;
}

/* Whether every pair weight in value scales it as a whole (and at least one thing does). */
static bool linear_in_weights(const index_routing *r, TSNode value) {
    int met = 0;
    return scales(r, value, &met) && met == count_weights(r, value);
}

static void emit(gm_text_builder *tb, index_routing *r, TSNode node);

/* node's children with the gaps between them, each child rewritten. */
static void emit_children(gm_text_builder *tb, index_routing *r, TSNode node) {
    uint32_t at = ts_node_start_byte(node);
    uint32_t n = ts_node_child_count(node);
    for (uint32_t i = 0; i < n; i++) {
        TSNode c = ts_node_child(node, i);
        gm_tb_append(tb, r->text + at, ts_node_start_byte(c) - at);
        emit(tb, r, c);
        at = ts_node_end_byte(c);
    }
    gm_tb_append(tb, r->text + at, ts_node_end_byte(node) - at);
}

static void fail(index_routing *r, const char *why) {
    if (!r->failed)
        r->why = why;
    r->failed = true;
}

/* node rewritten: the token gathers read every token, the pair weights become token weights,
 * and index_add_ over the tokens becomes add_. */
static void emit(gm_text_builder *tb, index_routing *r, TSNode node) {
    const gm_syntax *syn = r->syn;
    if (gm_is(node, syn->sym.subscript)) {
        uint32_t count = ts_node_named_child_count(node);
        TSNode x = ts_node_named_child(node, 0);
        TSNode i1 = count > 1 ? ts_node_named_child(node, 1) : (TSNode){0};
        TSNode i2 = count > 2 ? ts_node_named_child(node, 2) : (TSNode){0};
        TSNode i3 = count > 3 ? ts_node_named_child(node, 3) : (TSNode){0};
        if (count == 2 && is_token(r, i1)) { /* x[t] */
            emit(tb, r, x);
            return;
        }
        if (count == 3 && gm_is(i1, syn->sym.none) && is_token(r, i2)) { /* x[None, t] */
            emit(tb, r, x);
            gm_tb_append_str(tb, "[None]");
            return;
        }
        if ((count == 3 || (count == 4 && gm_is(i3, syn->sym.none))) && is_token(r, i1) &&
            is_pair(r, i2)) { /* w[t, k] or w[t, k, None] */
            if (!gm_is(gm_unparen(syn, x), syn->sym.identifier)) {
                fail(r, "a pair's weight is read from an expression, not a name");
                return;
            }
            append_token_weight(tb, r, x);
            gm_tb_append_str(tb, count == 4 ? "[:, None]" : "");
            return;
        }
    }
    if (gm_is(node, syn->sym.call)) {
        TSNode fn = gm_unparen(syn, gm_child(node, syn->field.function));
        TSNode args = gm_child(node, syn->field.arguments);
        if (gm_is(fn, syn->sym.attribute) &&
            gm_node_text_is(gm_child(fn, syn->field.attribute), r->text, "index_add_") &&
            gm_is(args, syn->sym.argument_list) && ts_node_named_child_count(args) == 3 &&
            is_token(r, ts_node_named_child(args, 1))) {
            if (!gm_node_text_is(ts_node_named_child(args, 0), r->text, "0")) {
                fail(r, "index_add_ adds along a dimension other than the tokens'");
                return;
            }
            if (!linear_in_weights(r, ts_node_named_child(args, 2))) {
                fail(r, "a pair's weight is used other than as a factor of the value added, so "
                        "an unrouted token would not add zero");
                return;
            }
            emit(tb, r, gm_child(fn, syn->field.object));
            gm_tb_append_str(tb, ".add_(");
            emit(tb, r, ts_node_named_child(args, 2));
            gm_tb_append_str(tb, ")");
            r->accumulations++;
            return;
        }
    }
    if (gm_is(node, syn->sym.identifier) && (is_token(r, node) || is_pair(r, node))) {
        fail(r, "the routed token or pair indices are used other than to gather tokens "
                "(`x[t]`), weigh pairs (`w[t, k]`) or add back (`out.index_add_(0, t, v)`)");
        return;
    }
    if (ts_node_child_count(node) == 0) {
        gm_tb_append_node(tb, r->text, node);
        return;
    }
    emit_children(tb, r, node);
}

/* The whole lines of stmt, for deleting it: [line start, after its last line's newline). */
static bool whole_lines(const char *text, TSNode stmt, uint32_t *start, uint32_t *end) {
    gm_stmt_layout layout;
    gm_stmt_layout_of(text, (uint32_t)strlen(text), stmt, &layout);
    if (!layout.alone)
        return false;
    uint32_t e = ts_node_end_byte(stmt);
    while (text[e] && text[e] != '\n' && text[e] != '\r')
        e++;
    if (text[e] == '\r')
        e++;
    if (text[e] == '\n')
        e++;
    *start = layout.line_start;
    *end = e;
    return true;
}

/* `if t.shape[0] == 0: continue` (numel() == 0, len(t) == 0): an expert no token is routed
 * to is skipped, which the dense form does by adding zeros. */
static bool is_empty_skip(const index_routing *r, TSNode stmt) {
    const gm_syntax *syn = r->syn;
    if (!gm_is(stmt, syn->sym.if_statement) ||
        !ts_node_is_null(gm_child(stmt, syn->field.alternative)))
        return false;
    TSNode body = gm_child(stmt, syn->field.consequence);
    if (ts_node_named_child_count(body) != 1 ||
        !gm_is(ts_node_named_child(body, 0), syn->sym.continue_statement))
        return false;
    TSNode cond = gm_unparen(syn, gm_child(stmt, syn->field.condition));
    if (!gm_is(cond, syn->sym.comparison_operator) || ts_node_named_child_count(cond) != 2 ||
        ts_node_child_count(cond) != 3 || strcmp(ts_node_type(ts_node_child(cond, 1)), "==") != 0 ||
        !gm_node_text_is(ts_node_named_child(cond, 1), r->text, "0"))
        return false;
    TSNode size = gm_unparen(syn, ts_node_named_child(cond, 0));
    /* t.shape[0], t.numel(), len(t), t.size(0) */
    TSNode object = {0};
    if (gm_is(size, syn->sym.subscript) && ts_node_named_child_count(size) == 2 &&
        gm_node_text_is(ts_node_named_child(size, 1), r->text, "0")) {
        TSNode shape = ts_node_named_child(size, 0);
        if (gm_is(shape, syn->sym.attribute) &&
            gm_node_text_is(gm_child(shape, syn->field.attribute), r->text, "shape"))
            object = gm_child(shape, syn->field.object);
    } else if (gm_is(size, syn->sym.call)) {
        TSNode fn = gm_unparen(syn, gm_child(size, syn->field.function));
        TSNode args = gm_child(size, syn->field.arguments);
        uint32_t n = gm_is(args, syn->sym.argument_list) ? ts_node_named_child_count(args) : 9;
        if (gm_is(fn, syn->sym.identifier) && gm_node_text_is(fn, r->text, "len") && n == 1)
            object = ts_node_named_child(args, 0);
        else if (gm_is(fn, syn->sym.attribute) &&
                 ((gm_node_text_is(gm_child(fn, syn->field.attribute), r->text, "numel") && n == 0) ||
                  (gm_node_text_is(gm_child(fn, syn->field.attribute), r->text, "size") && n == 1 &&
                   gm_node_text_is(ts_node_named_child(args, 0), r->text, "0"))))
            object = gm_child(fn, syn->field.object);
    }
    return !ts_node_is_null(object) && (is_token(r, object) || is_pair(r, object));
}

/* `a = t` (or `a = k`): an alias, deleted; a is then one of the indices' names. */
static bool is_alias(index_routing *r, TSNode stmt) {
    const gm_syntax *syn = r->syn;
    TSNode a = gm_is(stmt, syn->sym.expression_statement) && ts_node_named_child_count(stmt) == 1
                   ? ts_node_named_child(stmt, 0)
                   : (TSNode){0};
    if (!gm_is(a, syn->sym.assignment))
        return false;
    TSNode left = gm_child(a, syn->field.left), right = gm_unparen(syn, gm_child(a, syn->field.right));
    if (!gm_is(left, syn->sym.identifier))
        return false;
    bool token = is_token(r, right), pair = is_pair(r, right);
    if ((!token && !pair) || r->token_count >= MAX_NAMES || r->pair_count >= MAX_NAMES)
        return false;
    if (token)
        r->tokens[r->token_count++] = gm_node_slice(left, r->text);
    else
        r->pairs[r->pair_count++] = gm_node_slice(left, r->text);
    return true;
}

/* Whether stmt binds a name the routed mask reads (the mask would change under the uses). */
static bool rebinds(const index_routing *r, TSNode stmt, TSNode expr) {
    if (gm_is(expr, r->syn->sym.identifier)) {
        gm_slice name = gm_node_slice(expr, r->text);
        uint32_t n = ts_node_named_child_count(stmt);
        for (uint32_t i = 0; i < n; i++) {
            TSNode a = ts_node_named_child(stmt, i);
            if ((gm_is(a, r->syn->sym.assignment) || gm_is(a, r->syn->sym.augmented_assignment)) &&
                gm_text_has_word(r->text, ts_node_start_byte(gm_child(a, r->syn->field.left)),
                                 ts_node_end_byte(gm_child(a, r->syn->field.left)), name))
                return true;
        }
        return false;
    }
    uint32_t n = ts_node_named_child_count(expr);
    for (uint32_t i = 0; i < n; i++)
        if (rebinds(r, stmt, ts_node_named_child(expr, i)))
            return true;
    return false;
}

static bool mentions_indices(const index_routing *r, TSNode stmt) {
    uint32_t s = ts_node_start_byte(stmt), e = ts_node_end_byte(stmt);
    for (int i = 0; i < r->token_count; i++)
        if (gm_text_has_word(r->text, s, e, r->tokens[i]))
            return true;
    for (int i = 0; i < r->pair_count; i++)
        if (gm_text_has_word(r->text, s, e, r->pairs[i]))
            return true;
    return false;
}

static int decline(gm_region *region, const char *why) {
    region->mend_declined = why;
    return 0;
}

static int add_deletion(gm_fix *fix, const char *text, TSNode stmt) {
    uint32_t start, end;
    if (!whole_lines(text, stmt, &start, &end))
        return 0;
    char *empty = strdup("");
    if (!empty || gm_mend_fix_add_edit(fix, start, end, empty) < 0)
        return -1;
    return 1;
}

int gm_mend_index_routing_dense(gm_region *region, TSNode call, gm_fix *out) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    TSNode args = gm_child(call, syn->field.arguments);
    TSNode assignment = ts_node_parent(call);
    TSNode stmt = ts_node_parent(assignment);
    if (!st->symbols->torch_alias || !gm_mend_calls(region, call, "torch.where") ||
        !gm_is(args, syn->sym.argument_list) || ts_node_named_child_count(args) != 1 ||
        !gm_is(assignment, syn->sym.assignment) || !gm_is(stmt, syn->sym.expression_statement) ||
        !gm_is(ts_node_parent(stmt), syn->sym.block))
        return 0;
    TSNode left = gm_child(assignment, syn->field.left);
    if (!(gm_is(left, syn->sym.pattern_list) || gm_is(left, syn->sym.tuple_pattern)) ||
        ts_node_named_child_count(left) != 2 ||
        !gm_is(ts_node_named_child(left, 0), syn->sym.identifier) ||
        !gm_is(ts_node_named_child(left, 1), syn->sym.identifier))
        return 0;
    index_routing r = {.region = region,
                       .syn = syn,
                       .text = st->text,
                       .routed = ts_node_named_child(args, 0),
                       .pairs = {gm_node_slice(ts_node_named_child(left, 0), st->text)},
                       .tokens = {gm_node_slice(ts_node_named_child(left, 1), st->text)},
                       .pair_count = 1,
                       .token_count = 1};
    if (!gm_mend_is_primary(syn, gm_unparen(syn, r.routed)))
        return decline(region, "the routed mask is an expression that would need parentheses "
                               "at every use; name it first");
    gm_fix *fix = out;
    char *empty = strdup("");
    uint32_t start, end;
    if (!empty)
        return -1;
    if (!whole_lines(st->text, stmt, &start, &end)) {
        free(empty);
        return decline(region, "the statement shares its line with another");
    }
    if (gm_mend_fix_single(fix, GM_FIX_UNSAFE, "run every expert on every token",
                           "Mend graph break: run the expert on every token and weigh each "
                           "token by its routing weight (0 when not routed) instead of "
                           "gathering the routed tokens (unsafe: every expert does the work of "
                           "all tokens; equal when the expert works token by token and stays "
                           "finite)",
                           start, end, empty) < 0)
        return -1;
    const char *why = NULL;
    for (TSNode s = ts_node_next_named_sibling(stmt); !ts_node_is_null(s) && !why;
         s = ts_node_next_named_sibling(s)) {
        if (gm_is(s, syn->sym.comment))
            continue;
        if (rebinds(&r, s, r.routed)) {
            if (mentions_indices(&r, s) ||
                gm_text_has_word(st->text, ts_node_end_byte(s), ts_node_end_byte(ts_node_parent(stmt)),
                                 r.tokens[0]))
                why = "the routed mask changes while its indices are in use";
            break;
        }
        if (!mentions_indices(&r, s))
            continue;
        int rc = 1;
        if (is_empty_skip(&r, s) || is_alias(&r, s)) {
            rc = add_deletion(fix, st->text, s);
        } else if (gm_is(s, syn->sym.expression_statement)) {
            /* `v = <value a pair weight scales>`: v is scaled; a weight anywhere else is not a
             * factor of what is added */
            TSNode a = ts_node_named_child(s, 0);
            TSNode value = gm_is(a, syn->sym.assignment) ? gm_child(a, syn->field.right) : a;
            TSNode target = gm_is(a, syn->sym.assignment) ? gm_child(a, syn->field.left) : (TSNode){0};
            if (count_weights(&r, value) > 0) {
                if (!gm_is(target, syn->sym.identifier) || !linear_in_weights(&r, value) ||
                    r.scaled_count >= MAX_NAMES * 2)
                    fail(&r, "a pair's weight is used other than as a factor of the value added, "
                             "so an unrouted token would not add zero");
                else
                    r.scaled[r.scaled_count++] = gm_node_slice(target, st->text);
            }
            gm_text_builder tb;
            gm_tb_init(&tb);
            emit(&tb, &r, s);
            char *dense = gm_tb_take(&tb);
            if (!dense)
                rc = -1;
            else if (r.failed)
                free(dense), why = r.why;
            else if (gm_mend_fix_add_edit(fix, ts_node_start_byte(s), ts_node_end_byte(s), dense) < 0)
                rc = -1;
        } else {
            why = "the routed token indices are used inside a compound statement";
        }
        if (rc < 0)
            return -1;
        if (rc == 0)
            why = "a statement of the routing shares its line with another";
    }
    if (!why && r.accumulations == 0)
        why = "the routed tokens are not added back with index_add_ over the tokens";
    TSNode function = gm_mend_enclosing_function(syn, stmt);
    uint32_t scope_end = ts_node_end_byte(ts_node_is_null(function) ? ts_node_parent(stmt) : function);
    if (!why && gm_text_has_word(st->text, ts_node_end_byte(ts_node_parent(stmt)), scope_end,
                                 r.tokens[0]))
        why = "the routed token indices are used after the loop body";
    if (why) {
        gm_fix_free(fix);
        return decline(region, why);
    }
    return 1;
}
