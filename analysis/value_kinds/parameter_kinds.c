/* The kinds a region's parameters start with: tensors and Python scalars by their annotations
 * (boolean masks by torch.BoolTensor), tensors by the function's own evidence where there is no
 * annotation (what the parameter is passed to, which methods are called on it: the hand lists
 * below and torch's operator schemas), and the name of self (the first parameter of a method
 * that is not static). */
#include "analysis/module_facts/return_annotations.h"
#include "analysis/value_kinds/int_parameter_table.h"
#include "analysis/value_kinds/value_kinds.h"
#include "analysis/value_kinds/value_kinds_internal.h"

#include <string.h>

/* torch.Tensor, Tensor, Optional[Tensor], Tensor | None; *boolean is set when the tensor type
 * is torch.BoolTensor. */
static bool is_tensor_annotation(gm_region *r, TSNode type, bool *boolean) {
    return gm_annotation_is_tensor(r->stmt->symbols, syn_of(r), text_of(r), type, true, boolean);
}

/* Whether the region's function is decorated with @staticmethod: its first parameter is then
 * an ordinary argument, not self. */
bool gm_vk_is_static_method(const gm_region *region) {
    const gm_syntax *syn = syn_of(region);
    TSNode decorated = ts_node_parent(region->site.function);
    if (!gm_is(decorated, syn->sym.decorated_definition))
        return false;
    uint32_t n = ts_node_named_child_count(decorated);
    for (uint32_t i = 0; i < n; i++) {
        TSNode d = ts_node_named_child(decorated, i);
        if (gm_is(d, syn->sym.decorator) && ts_node_named_child_count(d) > 0 &&
            gm_node_text_is(ts_node_named_child(d, 0), text_of(region), "staticmethod"))
            return true;
    }
    return false;
}

/* ---- evidence for an unannotated parameter ------------------------------------------------ */

/* torch functions that raise for anything but a tensor as their first argument (a number or a
 * list is an error, not a different result), besides every torch.nn.functional function. */
static const char *const tensor_first_functions[] = {
    "torch.zeros_like", "torch.ones_like",   "torch.empty_like",  "torch.full_like",
    "torch.rand_like",  "torch.randn_like",  "torch.randint_like", "torch.tanh",
    "torch.sigmoid",    "torch.exp",         "torch.log",         "torch.sqrt",
    "torch.rsqrt",      "torch.matmul",      "torch.bmm",         "torch.softmax",
    "torch.log_softmax", "torch.masked_fill", "torch.gather",     "torch.flatten",
    "torch.transpose",  "torch.permute",     "torch.unsqueeze",   "torch.squeeze",
    "torch.cumsum",     "torch.isnan",       "torch.isinf",       "torch.isfinite",
    "torch.topk",       "torch.argmax",      "torch.argmin",      "torch.clamp",
    NULL};

/* Methods only a tensor has (numpy arrays and Python values have none of these), besides the
 * shared evidence list of value_kinds_internal.h. */
static const char *const tensor_only_methods[] = {"masked_scatter", "masked_scatter_", "permute",
                                                  "dim", "float", "half", "bfloat16", NULL};

#define GM_MAX_EVIDENCE_NAMES 32

/* The unannotated parameters of a region, and what one walk of its body found for each. */
typedef struct {
    gm_region *region;
    gm_slice names[GM_MAX_EVIDENCE_NAMES];
    bool evidence[GM_MAX_EVIDENCE_NAMES], rebound[GM_MAX_EVIDENCE_NAMES];
    /* the first evidence found for each: why it is a tensor, and the source it points at */
    gm_tensor_because because[GM_MAX_EVIDENCE_NAMES];
    TSNode evidence_node[GM_MAX_EVIDENCE_NAMES];
    /* the right side of the first assignment that rebinds each: evidence inside it is still
     * about the parameter (`h = torch.clamp(h, ...)`) */
    TSNode rebinding[GM_MAX_EVIDENCE_NAMES];
    size_t count;
} evidence_walk;

/* Whether evidence at node n is about candidate k's parameter value: before any rebinding of
 * it, or inside the right side of the first one. */
static bool about_parameter(const evidence_walk *w, int k, TSNode n) {
    if (!w->rebound[k])
        return true;
    TSNode right = w->rebinding[k];
    return !ts_node_is_null(right) && ts_node_start_byte(right) <= ts_node_start_byte(n) &&
           ts_node_end_byte(n) <= ts_node_end_byte(right);
}

/* The index of the candidate n names (parentheses stripped), or -1. */
static int candidate_of(const evidence_walk *w, TSNode n) {
    n = gm_unparen(syn_of(w->region), n);
    if (!gm_is(n, syn_of(w->region)->sym.identifier))
        return -1;
    gm_slice s = gm_node_slice(n, text_of(w->region));
    for (size_t i = 0; i < w->count; i++)
        if (gm_slice_eq(s, w->names[i]))
            return (int)i;
    return -1;
}

static void note_evidence(evidence_walk *w, int k, gm_tensor_because because, TSNode node) {
    if (w->evidence[k])
        return;
    w->evidence[k] = true;
    w->because[k] = because;
    w->evidence_node[k] = node;
}

/* Whether the torch function name ("torch.abs") takes a tensor first in every overload that
 * takes one, as torch's operator schemas say (int_parameter_table.h): a number or a list
 * there is an error. */
static bool takes_a_tensor_first(const char *name) {
    if (strncmp(name, "torch.", 6) != 0 || strchr(name + 6, '.'))
        return false;
    const gm_int_parameter_op *op = gm_int_parameter_op_named(name + 6, strlen(name + 6));
    return op && (op->forms & GM_OP_TENSOR_FIRST);
}

static void note_call_evidence(evidence_walk *w, TSNode call) {
    gm_region *r = w->region;
    const gm_syntax *syn = syn_of(r);
    TSNode fn = gm_unparen(syn, gm_child(call, syn->field.function));
    if (gm_is(fn, syn->sym.attribute)) {
        int k = candidate_of(w, gm_child(fn, syn->field.object));
        if (k >= 0 && !about_parameter(w, k, call))
            return;
        if (k >= 0) {
            TSNode attr = gm_child(fn, syn->field.attribute);
            gm_slice method = gm_node_slice(attr, text_of(r));
            const gm_int_parameter_op *op = gm_int_parameter_op_named(method.ptr, method.len);
            if (gm_vk_slice_in_list(gm_vk_tensor_evidence_methods, method) ||
                gm_vk_slice_in_list(tensor_only_methods, method) ||
                (op && (op->forms & GM_OP_TENSOR_ONLY_METHOD)))
                note_evidence(w, k, GM_BECAUSE_TENSOR_METHOD, attr);
            return;
        }
    }
    TSNode args = gm_child(call, syn->field.arguments);
    TSNode first = gm_is(args, syn->sym.argument_list) && ts_node_named_child_count(args) > 0
                       ? ts_node_named_child(args, 0)
                       : (TSNode){0};
    int k = ts_node_is_null(first) ? -1 : candidate_of(w, first);
    if (k < 0 || !about_parameter(w, k, call))
        return;
    TSNode head = gm_chain_head(syn, fn);
    char name[GM_NAME_MAX];
    if (ts_node_is_null(head) || gm_vk_head_is_local(r, head) ||
        !gm_symbols_resolve(r->stmt->symbols, syn, text_of(r), fn, name, sizeof name))
        return;
    if (strncmp(name, "torch.nn.functional.", 20) == 0 ||
        gm_vk_in_list(tensor_first_functions, name) || takes_a_tensor_first(name))
        note_evidence(w, k, GM_BECAUSE_PASSED_TO, fn);
}

/* What node c (named, not in a nested scope or lambda) says of the unannotated candidates:
 * an assignment rebinds one (evidence after it would be about another value), a call may be
 * evidence. Called in pre-order, so an assignment is seen before the calls in it. */
static void evidence_at(evidence_walk *w, TSNode c, TSSymbol s) {
    const gm_syntax *syn = syn_of(w->region);
    if (s == syn->sym.assignment || s == syn->sym.augmented_assignment) {
        int k = candidate_of(w, gm_child(c, syn->field.left));
        if (k >= 0 && !w->rebound[k]) {
            w->rebound[k] = true;
            w->rebinding[k] = gm_child(c, syn->field.right);
        }
    } else if (s == syn->sym.call) {
        note_call_evidence(w, c);
    }
}

/* Of the unannotated parameters in w, those the region's function treats as only a tensor can
 * be treated: it passes one first to a torch function that accepts nothing else, or calls a
 * tensor-only method on it, before it assigns the name anything else (or in the first such
 * assignment's right side: the evidence is then about the argument itself). They become tensors
 * at the function's entry; an assignment gives the name its new kind as usual. */
static void seed_from_evidence(evidence_walk *w) {
    for (size_t i = 0; i < w->count; i++)
        if (w->evidence[i])
            gm_vk_env_set_because(w->region, w->names[i], GM_KIND_TENSOR, w->because[i],
                                  w->evidence_node[i]);
}

/* ---- evidence against a tensor annotation --------------------------------------------------- */

/* How the body uses one tensor-annotated parameter. */
typedef struct {
    gm_slice name;
    unsigned tests, other_uses;
    unsigned foreign_attributes; /* name.attr where torch.Tensor has no attr */
} parameter_use;

/* The tensor-annotated parameters of a function weighed against its uses (more are trusted as
 * annotated). */
#define GM_MAX_ANNOTATED_TENSORS 64

typedef struct {
    gm_region *region;
    parameter_use uses[GM_MAX_ANNOTATED_TENSORS];
    size_t count;
    evidence_walk *evidence; /* the unannotated parameters, looked at in the same walk */
} use_walk;

/* How an occurrence of a name is used: a truth test (`if flag:`, `a if flag else b`, `not
 * flag`, an operand of and/or), passed on by keyword (`f(flag=flag)`: says nothing), or
 * anything else (arithmetic, a call, an attribute, an assignment: what a tensor is used for).
 * parents: the walk's ancestors of ident, depth of them (asking the tree walks down from its
 * root). */
static void note_use(const use_walk *w, parameter_use *use, TSNode ident,
                     const TSNode *parents, int depth) {
    const gm_syntax *syn = syn_of(w->region);
    TSNode parent = parents[--depth];
    while (gm_is(parent, syn->sym.parenthesized_expression) && depth > 0) {
        ident = parent;
        parent = parents[--depth];
    }
    TSSymbol p = ts_node_symbol(parent);
    if (((p == syn->sym.if_statement || p == syn->sym.elif_clause ||
          p == syn->sym.while_statement) &&
         ts_node_eq(gm_child(parent, syn->field.condition), ident)) ||
        p == syn->sym.not_operator || p == syn->sym.boolean_operator ||
        (p == syn->sym.conditional_expression && ts_node_named_child_count(parent) == 3 &&
         ts_node_eq(ts_node_named_child(parent, 1), ident)))
        use->tests++;
    else if (p != syn->sym.keyword_argument)
        use->other_uses++;
}

static void walk_use(use_walk *w, TSNode c, TSNode *parents, int depth, bool in_lambda);

/* Whether test, or a conjunct of it (`a and b`), is `isinstance(name, ...)` or `hasattr(name,
 * ...)`: code it guards reads attributes of the narrowed object. */
static bool tests_type_of(const use_walk *w, TSNode test, gm_slice name, int depth) {
    const gm_syntax *syn = syn_of(w->region);
    const char *text = text_of(w->region);
    test = gm_unparen(syn, test);
    if (ts_node_is_null(test) || depth > 8)
        return false;
    if (gm_is(test, syn->sym.boolean_operator)) {
        TSNode op = gm_child(test, syn->field.operator);
        return !ts_node_is_null(op) && strcmp(ts_node_type(op), "and") == 0 &&
               (tests_type_of(w, gm_child(test, syn->field.left), name, depth + 1) ||
                tests_type_of(w, gm_child(test, syn->field.right), name, depth + 1));
    }
    if (!gm_is(test, syn->sym.call))
        return false;
    TSNode fn = gm_child(test, syn->field.function);
    TSNode args = gm_child(test, syn->field.arguments);
    if (!(gm_node_text_is(fn, text, "isinstance") || gm_node_text_is(fn, text, "hasattr")) ||
        ts_node_is_null(args) || ts_node_named_child_count(args) == 0)
        return false;
    TSNode first = ts_node_named_child(args, 0);
    return gm_is(first, syn->sym.identifier) && gm_slice_eq(gm_node_slice(first, text), name);
}

/* Whether the node at parents[depth] runs only where a type test of name holds: the body of an
 * `if`/`elif` whose condition tests it, the value of `a if test else b`, the right operand of
 * `test and ...`. An attribute read there is about the narrowed type (`isinstance(edge_index,
 * EdgeIndex)`, a subclass of torch.Tensor), not evidence against the annotation. */
static bool narrowed_by_type_test(const use_walk *w, gm_slice name, const TSNode *parents,
                                  int depth) {
    const gm_syntax *syn = syn_of(w->region);
    for (int i = depth - 1; i >= 0; i--) {
        TSNode a = parents[i], below = parents[i + 1];
        TSSymbol s = ts_node_symbol(a);
        TSNode test = {0};
        if ((s == syn->sym.if_statement || s == syn->sym.elif_clause) &&
            ts_node_eq(gm_child(a, syn->field.consequence), below))
            test = gm_child(a, syn->field.condition);
        else if (s == syn->sym.conditional_expression && ts_node_named_child_count(a) == 3 &&
                 ts_node_eq(ts_node_named_child(a, 0), below))
            test = ts_node_named_child(a, 1);
        else if (s == syn->sym.boolean_operator && ts_node_eq(gm_child(a, syn->field.right), below))
            test = gm_child(a, syn->field.left);
        if (!ts_node_is_null(test) && tests_type_of(w, test, name, 0))
            return true;
        if (gm_is_nested_scope(syn, a))
            break;
    }
    return false;
}

static parameter_use *use_of(use_walk *w, gm_slice name) {
    for (size_t i = 0; i < w->count; i++)
        if (gm_slice_eq(w->uses[i].name, name))
            return &w->uses[i];
    return NULL;
}

/* The deepest level the walk enters. */
#define GM_USE_WALK_MAX_DEPTH 200

/* The walk below n (parents[depth] is n, those before it its ancestors), for every parameter
 * at once. Uses of the annotated ones: an identifier is a use of the name, except the
 * attribute of `x.name` and the keyword of `f(name=...)` (no evidence is in those either); a
 * nested def or class counts as some use of every name (a closure may use it any way); a lambda
 * is walked like the rest, though evidence inside it (in_lambda) is not about the parameter's
 * value when the function runs. Children are taken by index, which tree-sitter answers faster
 * than a cursor moves for the few children most nodes have. */
static void walk_uses(use_walk *w, TSNode *parents, int depth, bool in_lambda) {
    const gm_syntax *syn = syn_of(w->region);
    TSNode n = parents[depth];
    if (depth >= GM_USE_WALK_MAX_DEPTH)
        return;
    TSSymbol ns = ts_node_symbol(n);
    if (ns == syn->sym.attribute || ns == syn->sym.keyword_argument) {
        TSNode inner = gm_child(n, ns == syn->sym.attribute ? syn->field.object : syn->field.value);
        if (!ts_node_is_null(inner) && ts_node_is_named(inner))
            walk_use(w, inner, parents, depth + 1, in_lambda);
        return;
    }
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; i++)
        walk_use(w, ts_node_named_child(n, i), parents, depth + 1, in_lambda);
}

/* One node c of the walk, at depth below the body. */
static void walk_use(use_walk *w, TSNode c, TSNode *parents, int depth, bool in_lambda) {
    const gm_syntax *syn = syn_of(w->region);
    const char *text = text_of(w->region);
    TSSymbol s = ts_node_symbol(c);
    if (s == syn->sym.identifier) {
        parameter_use *use = w->count ? use_of(w, gm_node_slice(c, text)) : NULL;
        if (!use)
            return;
        note_use(w, use, c, parents, depth);
        TSNode parent = parents[depth - 1];
        if (gm_is(parent, syn->sym.attribute)) {
            TSNode attr = gm_child(parent, syn->field.attribute);
            if (!ts_node_is_null(attr) && !gm_vk_is_tensor_api_name(gm_node_slice(attr, text)) &&
                !narrowed_by_type_test(w, use->name, parents, depth - 1))
                use->foreign_attributes++;
        }
        return;
    }
    if (gm_is_nested_scope(syn, c) && s != syn->sym.lambda) {
        for (size_t i = 0; i < w->count; i++)
            w->uses[i].other_uses++;
        return;
    }
    in_lambda = in_lambda || s == syn->sym.lambda;
    if (!in_lambda && w->evidence->count > 0)
        evidence_at(w->evidence, c, s);
    parents[depth] = c;
    walk_uses(w, parents, depth, in_lambda);
}

/* How the function's body uses its tensor-annotated parameters: truth tests (and keyword
 * passes) only say one is a flag (`output_attentions: Optional[torch.Tensor] = None`, then
 * `(out, w) if output_attentions else (out,)`); an attribute torch.Tensor does not have
 * (`past_key_values.get_seq_length()`) says it is some other object. Either outweighs a tensor
 * annotation. */
static void parameter_uses(use_walk *w) {
    TSNode body = gm_child(w->region->site.function, syn_of(w->region)->field.body);
    TSNode parents[GM_USE_WALK_MAX_DEPTH + 1];
    parents[0] = body;
    if ((w->count > 0 || w->evidence->count > 0) && !ts_node_is_null(body))
        walk_uses(w, parents, 0, false);
}

static bool is_static_annotation(gm_region *r, TSNode type) {
    const gm_syntax *syn = syn_of(r);
    if (gm_is(type, syn->sym.type) && ts_node_named_child_count(type) > 0)
        type = ts_node_named_child(type, 0);
    if (!gm_is(type, syn->sym.identifier))
        return false;
    gm_slice s = gm_node_slice(type, text_of(r));
    return gm_slice_is(s, "int") || gm_slice_is(s, "bool") || gm_slice_is(s, "float") ||
           gm_slice_is(s, "str");
}

/* A tensor-annotated parameter, weighed against the body's uses once all are known. */
typedef struct {
    gm_slice name;
    TSNode type;
    bool boolean, flag_default;
} annotated_tensor;

void gm_kinds_seed_parameters(gm_region *region) {
    const gm_syntax *syn = syn_of(region);
    evidence_walk unannotated = {.region = region};
    use_walk annotated_uses = {.region = region, .evidence = &unannotated};
    annotated_tensor annotated[GM_MAX_ANNOTATED_TENSORS];
    TSNode params = gm_child(region->site.function, syn->field.parameters);
    uint32_t count = ts_node_is_null(params) ? 0 : ts_node_named_child_count(params);
    for (uint32_t i = 0; i < count; i++) {
        TSNode p = ts_node_named_child(params, i);
        TSNode name = {0}, type = {0};
        if (gm_is(p, syn->sym.identifier)) {
            name = p;
        } else if (gm_is(p, syn->sym.typed_parameter)) {
            if (ts_node_named_child_count(p) > 0 &&
                gm_is(ts_node_named_child(p, 0), syn->sym.identifier))
                name = ts_node_named_child(p, 0);
            type = gm_child(p, syn->field.type);
        } else if (gm_is(p, syn->sym.typed_default_parameter) ||
                   gm_is(p, syn->sym.default_parameter)) {
            name = gm_child(p, syn->field.name);
            type = gm_child(p, syn->field.type);
        }
        if (i == 0 && !ts_node_is_null(region->site.class_node) &&
            gm_is(name, syn->sym.identifier) && !gm_vk_is_static_method(region)) {
            region->self_name = gm_node_slice(name, text_of(region));
            continue;
        }
        if (!gm_is(name, syn->sym.identifier))
            continue;
        gm_slice text = gm_node_slice(name, text_of(region));
        bool boolean = false;
        if (ts_node_is_null(type)) {
            if (unannotated.count < GM_MAX_EVIDENCE_NAMES)
                unannotated.names[unannotated.count++] = text;
        } else if (is_tensor_annotation(region, type, &boolean)) {
            if (annotated_uses.count == GM_MAX_ANNOTATED_TENSORS) {
                gm_vk_env_set_because(region, text, GM_KIND_TENSOR, GM_BECAUSE_ANNOTATED, type);
                gm_vk_mark_set(region, text, boolean ? GM_MARK_MASK : GM_MARK_ANNOTATED);
                continue;
            }
            TSNode dflt = gm_is(p, syn->sym.typed_default_parameter)
                              ? gm_child(p, syn->field.value)
                              : (TSNode){0};
            bool flag_default = gm_is(dflt, syn->sym.none) || gm_is(dflt, syn->sym.true_literal) ||
                                gm_is(dflt, syn->sym.false_literal);
            annotated[annotated_uses.count] = (annotated_tensor){text, type, boolean, flag_default};
            annotated_uses.uses[annotated_uses.count++] = (parameter_use){.name = text};
        } else if (is_static_annotation(region, type))
            gm_vk_env_set(region, text, GM_KIND_STATIC);
    }
    parameter_uses(&annotated_uses);
    for (size_t i = 0; i < annotated_uses.count; i++) {
        const annotated_tensor *a = &annotated[i];
        const parameter_use *uses = &annotated_uses.uses[i];
        if (!a->boolean && a->flag_default && uses->tests > 0 && uses->other_uses == 0)
            continue; /* used as a flag only: the code's evidence outweighs the annotation */
        if (uses->foreign_attributes > 0)
            continue; /* some other object's attribute is read */
        gm_vk_env_set_because(region, a->name, GM_KIND_TENSOR, GM_BECAUSE_ANNOTATED, a->type);
        gm_vk_mark_set(region, a->name, a->boolean ? GM_MARK_MASK : GM_MARK_ANNOTATED);
    }
    seed_from_evidence(&unannotated);
}
