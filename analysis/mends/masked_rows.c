/* gm_mend_masked_rows_dense (see masked_rows.h): token routing by a boolean mask, the way
 * mixed-modality layers write it (Higgs Audio's text and audio MLPs):
 *
 *     text = self.norm(h[~m])              text = self.norm(h)
 *     text = self.mlp(text)           ->   text = self.mlp(text)
 *     h[~m] += text                        h = torch.where(<~m widened to h>, h + text, h)
 *
 * and a store of several outputs at once (`out[m], det[m] = f(x=x[m], w=w[m, :])`). Every
 * masked read of the routing becomes the whole tensor, the functions run on every row, and
 * the store selects the rows the mask holds. That gives the same rows when the functions work
 * row by row (norms, MLPs, projections, elementwise maps); rows that interact inside them
 * would see other neighbours, the functions see rows they never saw (a function that rejects
 * them raises), and the store rebinds the name instead of writing in place: unsafe. */
#include <stdio.h>
#include <string.h>

#include "analysis/mends/mask_shape.h"
#include "analysis/mends/masked_rows.h"
#include "analysis/mends/rewrite_text.h"
#include "analysis/mends/value_uses.h"
#include "analysis/module_facts/symbols.h"
#include "analysis/value_kinds/value_kinds.h"

#define MAX_READS 16
#define MAX_TARGETS 4
#define MAX_CHAIN 16

typedef struct {
    gm_region *region;
    const gm_syntax *syn;
    const char *text;
    gm_slice mask; /* the mask's source text, as every subscript of the routing spells it */
    TSNode mask_node;
    TSNode function;
    /* the mask is a range of one tensor: `(x >= lo) & (x <= hi)` (either bound may be absent);
     * the rows outside it are fed x clamped into the range, so that the functions see values
     * the mask accepts (a spline defined on [lo, hi] rejects the others) */
    gm_slice ranged;
    TSNode low, high;
} routing;

/* The mask of a boolean-mask subscript `x[m]` or `x[m, :, ...]` (only whole slices after it),
 * or a null node. */
static TSNode mask_of(const gm_syntax *syn, const char *text, TSNode subscript) {
    uint32_t count = ts_node_named_child_count(subscript);
    if (!gm_is(subscript, syn->sym.subscript) || count < 2)
        return (TSNode){0};
    for (uint32_t i = 2; i < count; i++) {
        TSNode index = ts_node_named_child(subscript, i);
        if (strcmp(ts_node_type(index), "slice") != 0 || !gm_node_text_is(index, text, ":"))
            return (TSNode){0};
    }
    return ts_node_named_child(subscript, 1);
}

static bool is_routed(const routing *r, TSNode subscript) {
    TSNode m = mask_of(r->syn, r->text, subscript);
    return !ts_node_is_null(m) && gm_slice_eq(gm_node_slice(m, r->text), r->mask);
}

/* The masked reads of the routing in node (not descending into one), in source order. */
static bool collect_reads(const routing *r, TSNode node, TSNode *reads, int *count) {
    if (is_routed(r, node)) {
        if (*count >= MAX_READS)
            return false;
        reads[(*count)++] = node;
        return true;
    }
    if (gm_is_nested_scope(r->syn, node))
        return true;
    uint32_t n = ts_node_named_child_count(node);
    for (uint32_t i = 0; i < n; i++)
        if (!collect_reads(r, ts_node_named_child(node, i), reads, count))
            return false;
    return true;
}

/* One bound of a range mask: `x >= lo`, `lo <= x`, `x <= hi`, `hi >= x` (non-strict: the
 * bound itself is in the range), with the tensor's text the same as every other bound's. */
static bool range_bound(routing *r, TSNode comparison) {
    comparison = gm_unparen(r->syn, comparison);
    if (!gm_is(comparison, r->syn->sym.comparison_operator) ||
        ts_node_named_child_count(comparison) != 2 || ts_node_child_count(comparison) != 3)
        return false;
    const char *op = ts_node_type(ts_node_child(comparison, 1));
    TSNode left = gm_unparen(r->syn, ts_node_named_child(comparison, 0));
    TSNode right = gm_unparen(r->syn, ts_node_named_child(comparison, 1));
    bool left_is_x = gm_is(left, r->syn->sym.identifier);
    if (!left_is_x && !gm_is(right, r->syn->sym.identifier))
        return false;
    TSNode x = left_is_x ? left : right, bound = left_is_x ? right : left;
    bool lower = strcmp(op, left_is_x ? ">=" : "<=") == 0;
    bool upper = strcmp(op, left_is_x ? "<=" : ">=") == 0;
    gm_slice x_text = gm_node_slice(x, r->text);
    if ((!lower && !upper) || (r->ranged.len && !gm_slice_eq(r->ranged, x_text)) ||
        !gm_mend_names_stable(r->syn, r->text, r->function, bound) ||
        !ts_node_is_null(lower ? r->low : r->high))
        return false;
    r->ranged = x_text;
    if (lower)
        r->low = bound;
    else
        r->high = bound;
    return true;
}

/* Fills r's range when the mask (its one assignment followed) is a conjunction of bounds. */
static bool find_range(routing *r, TSNode m, int depth) {
    m = gm_unparen(r->syn, m);
    if (depth > 4 || ts_node_is_null(m))
        return false;
    if (gm_is(m, r->syn->sym.identifier)) {
        TSNode value = gm_mend_only_assignment(r->syn, r->text, r->function,
                                               gm_node_slice(m, r->text));
        return !ts_node_is_null(value) && find_range(r, value, depth + 1);
    }
    if (gm_is(m, r->syn->sym.binary_operator)) {
        TSNode op = gm_child(m, r->syn->field.operator);
        return !ts_node_is_null(op) && strcmp(ts_node_type(op), "&") == 0 &&
               find_range(r, gm_child(m, r->syn->field.left), depth + 1) &&
               find_range(r, gm_child(m, r->syn->field.right), depth + 1);
    }
    return range_bound(r, m);
}

/* The dense form of one masked read: the tensor, clamped into the mask's range when the mask
 * bounds it. */
static void append_read_dense(gm_text_builder *tb, const routing *r, TSNode read) {
    TSNode x = ts_node_named_child(read, 0);
    gm_tb_append_node(tb, r->text, x);
    if (!r->ranged.len || !gm_slice_eq(gm_node_slice(x, r->text), r->ranged))
        return;
    if (ts_node_is_null(r->high)) {
        gm_tb_append_str(tb, ".clamp(min=");
        gm_tb_append_node(tb, r->text, r->low);
    } else if (ts_node_is_null(r->low)) {
        gm_tb_append_str(tb, ".clamp(max=");
        gm_tb_append_node(tb, r->text, r->high);
    } else {
        gm_tb_append_str(tb, ".clamp(");
        gm_tb_append_node(tb, r->text, r->low);
        gm_tb_append_str(tb, ", ");
        gm_tb_append_node(tb, r->text, r->high);
    }
    gm_tb_append_str(tb, ")");
}

/* node's source with every masked read replaced by the tensor it reads from. */
static bool append_dense(gm_text_builder *tb, const routing *r, TSNode node) {
    TSNode reads[MAX_READS];
    int count = 0;
    if (!collect_reads(r, node, reads, &count))
        return false;
    uint32_t at = ts_node_start_byte(node);
    for (int i = 0; i < count; i++) {
        gm_tb_append(tb, r->text + at, ts_node_start_byte(reads[i]) - at);
        append_read_dense(tb, r, reads[i]);
        at = ts_node_end_byte(reads[i]);
    }
    gm_tb_append(tb, r->text + at, ts_node_end_byte(node) - at);
    return true;
}

/* The statement (a child of a block) around node, or a null node. */
static TSNode statement_of(const gm_syntax *syn, TSNode node) {
    for (TSNode n = node; !ts_node_is_null(n); n = ts_node_parent(n)) {
        TSNode p = ts_node_parent(n);
        if (ts_node_is_null(p) || gm_is_nested_scope(syn, n))
            return (TSNode){0};
        if (gm_is(p, syn->sym.block))
            return gm_is(n, syn->sym.expression_statement) ? n : (TSNode){0};
    }
    return (TSNode){0};
}

/* The assignment or augmented assignment a statement is, or a null node. */
static TSNode assignment_of(const gm_syntax *syn, TSNode stmt) {
    if (ts_node_is_null(stmt) || ts_node_named_child_count(stmt) != 1)
        return (TSNode){0};
    TSNode a = ts_node_named_child(stmt, 0);
    return gm_is(a, syn->sym.assignment) || gm_is(a, syn->sym.augmented_assignment) ? a
                                                                                   : (TSNode){0};
}

/* The store targets `y[m]` of an assignment (one, or a tuple of them), each y a plain name;
 * returns how many, 0 when the left side is not all routed stores. */
static int store_targets(const routing *r, TSNode assignment, TSNode *targets) {
    TSNode left = gm_unparen(r->syn, gm_child(assignment, r->syn->field.left));
    int count = 0;
    if (gm_is(left, r->syn->sym.subscript)) {
        targets[count++] = left;
    } else if (gm_is(left, r->syn->sym.pattern_list) || gm_is(left, r->syn->sym.tuple_pattern) ||
               gm_is(left, r->syn->sym.tuple)) {
        if (gm_is(assignment, r->syn->sym.augmented_assignment))
            return 0;
        uint32_t n = ts_node_named_child_count(left);
        for (uint32_t i = 0; i < n; i++) {
            if (count >= MAX_TARGETS)
                return 0;
            targets[count++] = gm_unparen(r->syn, ts_node_named_child(left, i));
        }
    }
    for (int i = 0; i < count; i++)
        if (!is_routed(r, targets[i]) || ts_node_named_child_count(targets[i]) != 2 ||
            !gm_is(ts_node_named_child(targets[i], 0), r->syn->sym.identifier))
            return 0;
    return count;
}

/* The binary operator of an augmented assignment (`+` for `+=`), or NULL when it has none
 * that a select can take. */
static const char *augmented_operator(const routing *r, TSNode assignment) {
    TSNode op = gm_child(assignment, r->syn->field.operator);
    static const char *const ops[][2] = {{"+=", "+"}, {"-=", "-"}, {"*=", "*"}, {"/=", "/"}};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (!ts_node_is_null(op) && strcmp(ts_node_type(op), ops[i][0]) == 0)
            return ops[i][1];
    return NULL;
}

/* Whether node calls something that mixes rows or joins tensors (concatenation, reshapes,
 * reductions over every element), which working on every row would change. */
static bool mixes_rows(const routing *r, TSNode node) {
    if (gm_is(node, r->syn->sym.call)) {
        TSNode fn = gm_unparen(r->syn, gm_child(node, r->syn->field.function));
        TSNode name = gm_is(fn, r->syn->sym.attribute) ? gm_child(fn, r->syn->field.attribute) : fn;
        static const char *const mixing[] = {"cat",     "concat", "stack",   "reshape", "view",
                                             "flatten", "split",  "chunk",   "sort",    "cumsum",
                                             "permute", "transpose", "cumprod", "unique", "nonzero"};
        for (size_t i = 0; i < sizeof mixing / sizeof mixing[0]; i++)
            if (gm_node_text_is(name, r->text, mixing[i]))
                return true;
        TSNode args = gm_child(node, r->syn->field.arguments);
        static const char *const reductions[] = {"sum", "mean", "max", "min", "amax", "amin",
                                                 "prod", "std", "var", "norm"};
        if (gm_is(fn, r->syn->sym.attribute) && gm_is(args, r->syn->sym.argument_list) &&
            ts_node_named_child_count(args) == 0)
            for (size_t i = 0; i < sizeof reductions / sizeof reductions[0]; i++)
                if (gm_node_text_is(name, r->text, reductions[i]))
                    return true;
    }
    if (gm_is_nested_scope(r->syn, node))
        return false;
    uint32_t n = ts_node_named_child_count(node);
    for (uint32_t i = 0; i < n; i++)
        if (mixes_rows(r, ts_node_named_child(node, i)))
            return true;
    return false;
}

/* Whether stmt binds one of the mask's names (the mask would change along the routing). */
static bool rebinds_mask(const routing *r, TSNode stmt) {
    TSNode a = assignment_of(r->syn, stmt);
    if (ts_node_is_null(a))
        return false;
    TSNode left = gm_unparen(r->syn, gm_child(a, r->syn->field.left));
    if (gm_is(left, r->syn->sym.subscript) || gm_is(left, r->syn->sym.attribute))
        return false; /* a store into a tensor or an object binds no name */
    gm_slice name = gm_node_slice(gm_unparen(r->syn, r->mask_node), r->text);
    while (name.len && (name.ptr[0] == '~' || name.ptr[0] == '(' || name.ptr[0] == ' '))
        name.ptr++, name.len--;
    while (name.len && name.ptr[name.len - 1] == ')')
        name.len--;
    return gm_text_has_word(r->text, ts_node_start_byte(left), ts_node_end_byte(left), name);
}

/* The routing that starts at first (a statement reading the mask's rows): the statements that
 * carry the rows on, and the store that writes them back. */
typedef struct {
    TSNode chain[MAX_CHAIN]; /* first, the statements in between that carry the rows on */
    int chain_count;
    TSNode store; /* the statement that stores under the mask */
} route;

static bool follow(const routing *r, TSNode first, route *out) {
    out->chain_count = 0;
    out->chain[out->chain_count++] = first;
    TSNode a = assignment_of(r->syn, first);
    TSNode targets[MAX_TARGETS];
    if (ts_node_is_null(a))
        return false;
    if (store_targets(r, a, targets) > 0) {
        out->store = first;
        return true;
    }
    TSNode carrier = gm_child(a, r->syn->field.left);
    if (!gm_is(a, r->syn->sym.assignment) || !gm_is(carrier, r->syn->sym.identifier))
        return false;
    gm_slice name = gm_node_slice(carrier, r->text);
    for (TSNode s = ts_node_next_named_sibling(first); !ts_node_is_null(s);
         s = ts_node_next_named_sibling(s)) {
        if (gm_is(s, r->syn->sym.comment))
            continue;
        if (rebinds_mask(r, s))
            return false;
        if (!gm_text_has_word(r->text, ts_node_start_byte(s), ts_node_end_byte(s), name))
            continue;
        TSNode sa = assignment_of(r->syn, s);
        if (ts_node_is_null(sa))
            return false;
        TSNode right = gm_child(sa, r->syn->field.right);
        if (ts_node_is_null(right) ||
            !gm_text_has_word(r->text, ts_node_start_byte(right), ts_node_end_byte(right), name))
            return false;
        if (store_targets(r, sa, targets) == 1) {
            out->store = s;
            /* the rows carried on are used nowhere after the store */
            return !gm_text_has_word(r->text, ts_node_end_byte(s), ts_node_end_byte(r->function),
                                     name);
        }
        TSNode left = gm_child(sa, r->syn->field.left);
        if (!gm_is(sa, r->syn->sym.assignment) || !gm_slice_eq(gm_node_slice(left, r->text), name) ||
            out->chain_count >= MAX_CHAIN)
            return false;
        out->chain[out->chain_count++] = s;
    }
    return false;
}

/* The mask in the rank of the tensor y it selects in: the mask itself where it provably has
 * y's shape (it compares y, or y is a new tensor like one it compares), else the mask with as
 * many trailing None as y has more dimensions. */
static void append_widened(gm_text_builder *tb, const routing *r, TSNode y) {
    gm_region *region = r->region;
    gm_slice y_text = gm_node_slice(y, r->text);
    bool same_shape = gm_mend_mask_compares(region, r->function, r->mask_node, y_text, 0);
    if (!same_shape && gm_mend_binding_count(r->syn, r->text, r->function, y_text) == 1) {
        TSNode made = gm_mend_only_assignment(r->syn, r->text, r->function, y_text);
        TSNode args = ts_node_is_null(made) ? made : gm_child(made, r->syn->field.arguments);
        TSNode fn = ts_node_is_null(made) ? made : gm_child(made, r->syn->field.function);
        TSNode like = gm_is(args, r->syn->sym.argument_list) && ts_node_named_child_count(args)
                          ? ts_node_named_child(args, 0)
                      : gm_is(fn, r->syn->sym.attribute) ? gm_child(fn, r->syn->field.object)
                                                         : (TSNode){0};
        like = gm_unparen(r->syn, like);
        same_shape = gm_is(like, r->syn->sym.identifier) &&
                     gm_mend_fresh_like(region, made, gm_node_slice(like, r->text)) &&
                     gm_mend_mask_compares(region, r->function, r->mask_node,
                                           gm_node_slice(like, r->text), 0);
    }
    TSNode m = gm_unparen(r->syn, r->mask_node);
    if (same_shape) {
        gm_tb_append_node(tb, r->text, r->mask_node);
        return;
    }
    /* `~m` has m's rank: name m for the count */
    TSNode ranked = m;
    if (gm_is(m, r->syn->sym.unary_operator))
        ranked = gm_unparen(r->syn, gm_child(m, r->syn->field.argument));
    bool wrap = !gm_mend_is_primary(r->syn, m);
    gm_tb_append_str(tb, wrap ? "(" : "");
    gm_tb_append_node(tb, r->text, m);
    gm_tb_append_str(tb, wrap ? ")[(...,) + (None,) * (" : "[(...,) + (None,) * (");
    gm_tb_append_node(tb, r->text, y);
    gm_tb_append_str(tb, ".dim() - ");
    bool wrap_ranked = !gm_mend_is_primary(r->syn, ranked);
    gm_tb_append_str(tb, wrap_ranked ? "(" : "");
    gm_tb_append_node(tb, r->text, ranked);
    gm_tb_append_str(tb, wrap_ranked ? ").dim())]" : ".dim())]");
}

/* `torch.where(<mask widened to y>, value, y)` */
static void append_select(gm_text_builder *tb, const routing *r, TSNode y, const char *value,
                          size_t value_len) {
    gm_tb_appendf(tb, "%s.where(", r->region->stmt->symbols->torch_alias);
    append_widened(tb, r, y);
    gm_tb_append_str(tb, ", ");
    gm_tb_append(tb, value, value_len);
    gm_tb_append_str(tb, ", ");
    gm_tb_append_node(tb, r->text, y);
    gm_tb_append_str(tb, ")");
}

/* The top-level statement around node (fresh names are checked against its text). */
static TSNode top_level(TSNode node) {
    TSNode n = node;
    while (!ts_node_is_null(ts_node_parent(n)) && !ts_node_is_null(ts_node_parent(ts_node_parent(n))))
        n = ts_node_parent(n);
    return n;
}

/* The store rewritten: `y[m] op= v` -> `y = torch.where(M, y op (v), y)`, `y[m] = v` ->
 * `y = torch.where(M, v, y)`, and a tuple store through fresh names. */
static char *dense_store(const routing *r, TSNode stmt) {
    TSNode a = assignment_of(r->syn, stmt);
    TSNode targets[MAX_TARGETS];
    int count = store_targets(r, a, targets);
    TSNode right = gm_child(a, r->syn->field.right);
    gm_text_builder value, tb;
    gm_tb_init(&value);
    gm_tb_init(&tb);
    bool augmented = gm_is(a, r->syn->sym.augmented_assignment);
    const char *op = augmented ? augmented_operator(r, a) : "";
    if (!op || !append_dense(&value, r, right) || value.oom) {
        gm_tb_free(&value);
        return NULL;
    }
    if (count == 1) {
        TSNode y = ts_node_named_child(targets[0], 0);
        gm_text_builder v;
        gm_tb_init(&v);
        if (augmented) {
            bool wrap = !gm_mend_is_primary(r->syn, gm_unparen(r->syn, right));
            gm_tb_append_node(&v, r->text, y);
            gm_tb_appendf(&v, " %s %s", op, wrap ? "(" : "");
            gm_tb_append(&v, value.data, value.len);
            gm_tb_append_str(&v, wrap ? ")" : "");
        } else {
            gm_tb_append(&v, value.data, value.len);
        }
        gm_tb_append_node(&tb, r->text, y);
        gm_tb_append_str(&tb, " = ");
        append_select(&tb, r, y, v.data ? v.data : "", v.len);
        gm_tb_free(&v);
        gm_tb_free(&value);
        return gm_tb_take(&tb);
    }
    gm_stmt_layout layout;
    gm_stmt_layout_of(r->text, (uint32_t)strlen(r->text), stmt, &layout);
    TSNode top = top_level(stmt);
    char names[MAX_TARGETS][64];
    for (int i = 0; i < count; i++) {
        char base[32];
        snprintf(base, sizeof base, "gm_rows_%d", i);
        if (!layout.alone || !gm_fresh_name(r->text + ts_node_start_byte(top), gm_node_length(top),
                                            base, names[i], sizeof names[i])) {
            gm_tb_free(&value);
            return NULL;
        }
        gm_tb_appendf(&tb, "%s%s", i ? ", " : "", names[i]);
    }
    gm_tb_append_str(&tb, " = ");
    gm_tb_append(&tb, value.data, value.len);
    for (int i = 0; i < count; i++) {
        TSNode y = ts_node_named_child(targets[i], 0);
        gm_tb_append_str(&tb, layout.newline);
        gm_tb_append(&tb, layout.indent.ptr, layout.indent.len);
        gm_tb_append_node(&tb, r->text, y);
        gm_tb_append_str(&tb, " = ");
        append_select(&tb, r, y, names[i], strlen(names[i]));
    }
    gm_tb_free(&value);
    return gm_tb_take(&tb);
}

/* Whether the identifier use (of the stored tensor) keeps no other reference to it: the
 * object of a store into it (`y[...] = v`), of a read under the routing's mask (a copy), or of
 * a look at its metadata (`y.device`, `y.dtype`, `y.shape`, `y.ndim`, `y.dim()`, `y.size(...)`). */
static bool use_keeps_no_reference(const routing *r, TSNode id) {
    const gm_syntax *syn = r->syn;
    TSNode p = ts_node_parent(id);
    if (gm_is(p, syn->sym.subscript) && ts_node_eq(ts_node_named_child(p, 0), id)) {
        TSNode a = ts_node_parent(p);
        while (gm_is(a, syn->sym.pattern_list) || gm_is(a, syn->sym.tuple_pattern))
            a = ts_node_parent(a);
        bool stored = (gm_is(a, syn->sym.assignment) || gm_is(a, syn->sym.augmented_assignment)) &&
                      ts_node_start_byte(p) < ts_node_start_byte(gm_child(a, syn->field.right));
        /* a tensor index (a mask, ~mask, indices) reads a copy; basic indexing would be a view */
        TSNode index = gm_unparen(syn, ts_node_named_child(p, 1));
        if (gm_is(index, syn->sym.unary_operator))
            index = gm_unparen(syn, gm_child(index, syn->field.argument));
        bool copies = ts_node_named_child_count(p) == 2 &&
                      gm_value_of(r->region, index).kind == GM_KIND_TENSOR;
        return stored || is_routed(r, p) || copies;
    }
    if (gm_is(p, syn->sym.attribute) && ts_node_eq(gm_child(p, syn->field.object), id)) {
        static const char *const looks[] = {"device", "dtype", "shape", "ndim", "dim", "size"};
        for (size_t i = 0; i < sizeof looks / sizeof looks[0]; i++)
            if (gm_node_text_is(gm_child(p, syn->field.attribute), r->text, looks[i]))
                return true;
    }
    return false;
}

/* Whether a and b sit in different branches of one if statement (never both run). */
static bool exclusive_branches(const gm_syntax *syn, TSNode a, TSNode b) {
    for (TSNode n = a; !ts_node_is_null(n); n = ts_node_parent(n)) {
        TSNode p = ts_node_parent(n);
        if (!gm_is(p, syn->sym.if_statement) || ts_node_start_byte(b) < ts_node_start_byte(p) ||
            ts_node_end_byte(b) > ts_node_end_byte(p))
            continue;
        if (ts_node_start_byte(b) >= ts_node_start_byte(n) && ts_node_end_byte(b) <= ts_node_end_byte(n))
            return false; /* the same branch */
        TSNode condition = gm_child(p, syn->field.condition);
        return !ts_node_eq(n, condition) &&
               !(ts_node_start_byte(b) >= ts_node_start_byte(condition) &&
                 ts_node_end_byte(b) <= ts_node_end_byte(condition));
    }
    return false;
}

/* The same for every use of name in node that starts in [from, until), except uses in a
 * branch the store's is exclusive with. */
static bool uses_keep_no_reference(const routing *r, TSNode node, gm_slice name, uint32_t from,
                                   uint32_t until, TSNode store) {
    if (ts_node_end_byte(node) <= from || ts_node_start_byte(node) >= until)
        return true;
    if (gm_is(node, r->syn->sym.identifier) && ts_node_start_byte(node) >= from &&
        gm_slice_eq(gm_node_slice(node, r->text), name) &&
        gm_mend_identifier_is_variable(r->syn, node) &&
        !gm_mend_identifier_is_binding(r->syn, node))
        return use_keeps_no_reference(r, node) || exclusive_branches(r->syn, node, store);
    uint32_t n = ts_node_named_child_count(node);
    for (uint32_t i = 0; i < n; i++)
        if (!uses_keep_no_reference(r, ts_node_named_child(node, i), name, from, until, store))
            return false;
    return true;
}

/* Whether the store may rebind y instead of writing into it: y was bound by a plain
 * assignment before it (in its block or an enclosing one), and from there to the end of the
 * statement that holds the store at that level (a loop's later iterations included) nothing
 * takes another reference to the tensor (a list, a view, an argument) that rebinding would
 * leave unchanged. */
static bool rebinding_is_unseen(const routing *r, TSNode store, TSNode y) {
    gm_slice name = gm_node_slice(y, r->text);
    for (TSNode n = store; !ts_node_is_null(n) && !ts_node_eq(n, r->function);) {
        for (TSNode s = ts_node_prev_named_sibling(n); !ts_node_is_null(s);
             s = ts_node_prev_named_sibling(s)) {
            TSNode a = gm_is(s, r->syn->sym.expression_statement) ? ts_node_named_child(s, 0)
                                                                   : (TSNode){0};
            if (gm_is(a, r->syn->sym.assignment) &&
                gm_slice_eq(gm_node_slice(gm_child(a, r->syn->field.left), r->text), name))
                return uses_keep_no_reference(r, ts_node_parent(n), name, ts_node_end_byte(s),
                                              ts_node_end_byte(n), store);
        }
        /* up to the statement around this block */
        TSNode block = ts_node_parent(n);
        n = ts_node_is_null(block) ? block : ts_node_parent(block);
        while (!ts_node_is_null(n) && !gm_is(ts_node_parent(n), r->syn->sym.block) &&
               !ts_node_eq(n, r->function))
            n = ts_node_parent(n);
    }
    return false;
}

/* Whether the masked read serves as indices: inside another subscript's index, or in the
 * arguments of a call that takes indices (gather, index_select, embedding, ...). The rows the
 * mask leaves out may hold values no index may take (-100 labels, -1 offsets), which the
 * dense form would then look up. */
static bool read_is_index(const routing *r, TSNode read, TSNode stmt) {
    static const char *const takers[] = {"gather", "index_select", "take", "take_along_dim",
                                         "scatter", "scatter_add", "index_add", "index_copy",
                                         "embedding", "one_hot", "bincount"};
    for (TSNode n = read, p = ts_node_parent(read); !ts_node_is_null(p) && !ts_node_eq(n, stmt);
         n = p, p = ts_node_parent(p)) {
        if (gm_is(p, r->syn->sym.subscript) && !ts_node_eq(ts_node_named_child(p, 0), n))
            return true;
        if (gm_is(p, r->syn->sym.argument_list) && gm_is(ts_node_parent(p), r->syn->sym.call)) {
            TSNode fn = gm_unparen(r->syn, gm_child(ts_node_parent(p), r->syn->field.function));
            TSNode name = gm_is(fn, r->syn->sym.attribute) ? gm_child(fn, r->syn->field.attribute) : fn;
            for (size_t i = 0; i < sizeof takers / sizeof takers[0]; i++)
                if (gm_node_text_is(name, r->text, takers[i]))
                    return true;
        }
    }
    return false;
}

static bool reads_are_indices(const routing *r, TSNode stmt) {
    TSNode reads[MAX_READS];
    int count = 0;
    if (!collect_reads(r, stmt, reads, &count))
        return true;
    for (int i = 0; i < count; i++)
        if (read_is_index(r, reads[i], stmt))
            return true;
    return false;
}

static int decline(gm_region *region, const char *why) {
    region->mend_declined = why;
    return 0;
}

/* The fix for a routing: every read in its chain dense, the store a select. */
static int build(const routing *r, const route *rt, gm_fix *out) {
    for (int i = 0; i < rt->chain_count; i++)
        if (mixes_rows(r, rt->chain[i]))
            return decline(r->region, "the masked rows go through a function that mixes or "
                                      "joins rows (concatenation, a reshape, a reduction over "
                                      "every element), so it cannot run on every row");
    if (mixes_rows(r, gm_child(assignment_of(r->syn, rt->store), r->syn->field.right)))
        return decline(r->region, "the masked rows go through a function that mixes or joins "
                                  "rows, so it cannot run on every row");
    for (int i = 0; i < rt->chain_count; i++)
        if (reads_are_indices(r, rt->chain[i]) ||
            reads_are_indices(r, gm_child(assignment_of(r->syn, rt->store), r->syn->field.right)))
            return decline(r->region, "the masked rows are used as indices (a subscript, gather, "
                                      "embedding ...), and the rows the mask leaves out may hold "
                                      "values no index may take");
    TSNode targets[MAX_TARGETS];
    int count = store_targets(r, assignment_of(r->syn, rt->store), targets);
    for (int i = 0; i < count; i++)
        if (!rebinding_is_unseen(r, rt->store, ts_node_named_child(targets[i], 0)))
            return decline(r->region, "the stored tensor is not a local bound before the store, "
                                      "or something else holds it (a list, a view, an argument), "
                                      "which rebinding its name would leave unchanged");
    char *store = dense_store(r, rt->store);
    if (!store)
        return decline(r->region, "the masked store cannot be written as a select (an operator "
                                  "other than + - * /, or it shares its line)");
    gm_fix *fix = out;
    int rc = gm_mend_fix_single(
        fix, GM_FIX_UNSAFE, "compute every row, select with where",
        "Mend graph break: compute the masked rows' functions on every row and select the "
        "rows the mask holds with torch.where (unsafe: equal when the functions work row by "
        "row and accept every row; the stored name is rebound, not written in place)",
        ts_node_start_byte(assignment_of(r->syn, rt->store)),
        ts_node_end_byte(assignment_of(r->syn, rt->store)), store);
    if (rc < 0)
        return -1;
    for (int i = 0; i < rt->chain_count; i++) {
        if (ts_node_eq(rt->chain[i], rt->store))
            continue;
        TSNode reads[MAX_READS];
        int count = 0;
        if (!collect_reads(r, rt->chain[i], reads, &count))
            return 1; /* unreachable in practice: the store was already dense */
        for (int k = 0; k < count; k++) {
            gm_text_builder tb;
            gm_tb_init(&tb);
            append_read_dense(&tb, r, reads[k]);
            char *dense = gm_tb_take(&tb);
            if (!dense || gm_mend_fix_add_edit(fix, ts_node_start_byte(reads[k]),
                                               ts_node_end_byte(reads[k]), dense) < 0)
                return -1;
        }
    }
    return 1;
}

int gm_mend_masked_rows_dense(gm_region *region, TSNode subscript, gm_fix *out) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    if (!st->symbols->torch_alias)
        return 0;
    routing r = {.region = region,
                 .syn = syn,
                 .text = st->text,
                 .mask_node = mask_of(syn, st->text, subscript),
                 .function = gm_mend_enclosing_function(syn, subscript)};
    if (ts_node_is_null(r.mask_node) || ts_node_is_null(r.function))
        return 0;
    r.mask = gm_node_slice(r.mask_node, st->text);
    if (!find_range(&r, r.mask_node, 0)) {
        r.ranged = (gm_slice){NULL, 0};
        r.low = r.high = (TSNode){0};
    }
    TSNode stmt = statement_of(syn, subscript);
    if (ts_node_is_null(assignment_of(syn, stmt)))
        return 0;
    route rt;
    /* the finding's statement starts the routing (a read, or a store of its own reads) */
    TSNode own_reads[MAX_READS];
    int own = 0;
    TSNode right = gm_child(assignment_of(syn, stmt), syn->field.right);
    if (collect_reads(&r, right, own_reads, &own) && own > 0 && follow(&r, stmt, &rt))
        return build(&r, &rt, out);
    /* or it is the store: a statement before it in the block starts the routing */
    TSNode targets[MAX_TARGETS];
    if (store_targets(&r, assignment_of(syn, stmt), targets) == 0)
        return 0;
    for (TSNode s = ts_node_prev_named_sibling(stmt); !ts_node_is_null(s);
         s = ts_node_prev_named_sibling(s)) {
        TSNode reads[MAX_READS];
        int count = 0;
        if (ts_node_is_null(assignment_of(syn, s)) || !collect_reads(&r, s, reads, &count) ||
            count == 0)
            continue;
        if (follow(&r, s, &rt) && ts_node_eq(rt.store, stmt))
            return build(&r, &rt, out);
    }
    return 0;
}
