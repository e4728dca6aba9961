/* Kinds from other functions of the file: what a same-file callee returns (a tuple display,
 * element by element, or a tensor on every return) and what the callers of a method pass to a parameter of unknown kind,
 * each found by walking the other function's assignments without the rules. */
#include "analysis/value_kinds/value_kinds.h"
#include "analysis/value_kinds/value_kinds_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How deep one function's kinds look into another's (a callee's returns, a caller's
 * arguments): each step walks a function, so a chain stays short. The analysis runs on one
 * thread at a time per region, but the counter is per thread all the same. */
#define GM_MAX_FLOW_DEPTH 2
static _Thread_local int flow_depth;

typedef struct {
    TSNode stop; /* walk up to the statement holding this node, or null: the whole body */
    bool stopped;
    bool returns_ok; /* every return seen is a tuple display of count elements (or, single,
                        one tensor) */
    bool single;
    unsigned returns;
    uint32_t count;
    gm_kind *kinds; /* per element: tensor only where every return has a tensor */
    /* when set, called for each return instead (gm_vk_each_return) */
    void (*on_return)(gm_region *r, TSNode ret, void *context);
    void *context;
} flow_walk;

static bool node_holds(TSNode outer, TSNode inner) {
    return ts_node_start_byte(outer) <= ts_node_start_byte(inner) &&
           ts_node_end_byte(inner) <= ts_node_end_byte(outer);
}

static void flow_block(gm_region *r, TSNode block, flow_walk *w, int depth);

/* Whether e, when a comparison, has a tensor operand: a comparison of data-dependent Python
 * numbers (`t.numel() == 0` of a scalar) is tested in the caller, not returned as a tensor. */
static bool compares_tensors(gm_region *r, TSNode e) {
    const gm_syntax *syn = syn_of(r);
    if (!gm_is(e, syn->sym.comparison_operator))
        return true;
    uint32_t count = ts_node_named_child_count(e);
    for (uint32_t i = 0; i < count; i++)
        if (gm_value_of(r, ts_node_named_child(e, i)).kind == GM_KIND_TENSOR)
            return true;
    return false;
}

static void flow_return(gm_region *r, TSNode ret, flow_walk *w) {
    const gm_syntax *syn = syn_of(r);
    if (!w->kinds && !w->single)
        return;
    TSNode e = ts_node_named_child_count(ret) ? ts_node_named_child(ret, 0) : (TSNode){0};
    e = gm_unparen(syn, e);
    if (w->single) { /* `return torch.relu(w) * n`: a tensor, or the call says nothing */
        if (ts_node_is_null(e) || gm_value_of(r, e).kind != GM_KIND_TENSOR ||
            !compares_tensors(r, e))
            w->returns_ok = false;
        w->returns++;
        return;
    }
    if (!(gm_is(e, syn->sym.expression_list) || gm_is(e, syn->sym.tuple)) ||
        ts_node_named_child_count(e) != w->count || gm_vk_has_splat(syn, e)) {
        w->returns_ok = false;
        return;
    }
    for (uint32_t i = 0; i < w->count; i++) {
        gm_kind k = gm_value_of(r, ts_node_named_child(e, i)).kind;
        if (w->returns == 0)
            w->kinds[i] = k == GM_KIND_TENSOR ? GM_KIND_TENSOR : GM_KIND_UNKNOWN;
        else if (k != GM_KIND_TENSOR)
            w->kinds[i] = GM_KIND_UNKNOWN;
    }
    w->returns++;
}

/* The kinds part of a region walk, without rules: assignments, for targets, returns. */
static void flow_statement(gm_region *r, TSNode s, flow_walk *w, int depth) {
    const gm_syntax *syn = syn_of(r);
    if (w->stopped || depth > 64 || r->stmt->oom)
        return;
    TSSymbol t = ts_node_symbol(s);
    if (t == syn->sym.function_definition || t == syn->sym.class_definition ||
        t == syn->sym.decorated_definition || t == syn->sym.comment)
        return;
    bool holds = !ts_node_is_null(w->stop) && node_holds(s, w->stop);
    if (t == syn->sym.expression_statement || t == syn->sym.return_statement) {
        if (holds) {
            w->stopped = true;
            return;
        }
        if (t != syn->sym.expression_statement) {
            if (w->on_return)
                w->on_return(r, s, w->context);
            else
                flow_return(r, s, w);
            return;
        }
        uint32_t count = ts_node_named_child_count(s);
        for (uint32_t i = 0; i < count; i++) {
            TSNode e = ts_node_named_child(s, i);
            if (gm_is(e, syn->sym.assignment))
                gm_kinds_assign(r, gm_child(e, syn->field.left), gm_child(e, syn->field.right));
            else if (gm_is(e, syn->sym.augmented_assignment))
                gm_kinds_augment(r, gm_child(e, syn->field.left), gm_child(e, syn->field.right));
        }
        return;
    }
    /* compound statements: their blocks and clauses, in order */
    bool is_for = t == syn->sym.for_statement;
    uint32_t count = ts_node_named_child_count(s);
    bool entered = false;
    for (uint32_t i = 0; i < count && !w->stopped; i++) {
        TSNode c = ts_node_named_child(s, i);
        bool is_block = gm_is(c, syn->sym.block);
        bool is_clause = !is_block && strstr(ts_node_type(c), "clause") != NULL;
        if (!is_block && !is_clause)
            continue;
        if (holds && !node_holds(c, w->stop))
            continue;
        if (is_for && is_block && c.id == gm_child(s, syn->field.body).id)
            gm_kinds_bind_for(r, gm_child(s, syn->field.left), gm_child(s, syn->field.right));
        entered = true;
        if (is_block)
            flow_block(r, c, w, depth + 1);
        else
            flow_statement(r, c, w, depth + 1); /* elif/else/except/finally: their blocks */
    }
    if (holds && !entered)
        w->stopped = true; /* in the statement's header */
}

static void flow_block(gm_region *r, TSNode block, flow_walk *w, int depth) {
    TSTreeCursor cursor = ts_tree_cursor_new(block);
    if (ts_tree_cursor_goto_first_child(&cursor)) {
        do {
            TSNode c = ts_tree_cursor_current_node(&cursor);
            if (ts_node_is_named(c))
                flow_statement(r, c, w, depth + 1);
        } while (!w->stopped && ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
}

/* A region of function, with its parameters' kinds, for walking its assignments: in the class
 * of the region r unless class_node says another (a null node: a plain function). */
static void flow_region_init_in(gm_region *tmp, gm_region *r, TSNode function, TSNode class_node) {
    memset(tmp, 0, sizeof *tmp);
    tmp->stmt = r->stmt;
    tmp->site = r->site;
    if (!ts_node_eq(class_node, r->site.class_node))
        tmp->site.module_class =
            !ts_node_is_null(class_node) &&
            gm_symbols_bases_are_module(r->stmt->symbols, r->stmt->syntax, r->stmt->text,
                                        gm_child(class_node, r->stmt->syntax->field.superclasses));
    tmp->site.class_node = class_node;
    tmp->site.function = function;
    tmp->site.calls = NULL;
    tmp->site.node = 0;
    tmp->print_shadowed = -1;
    gm_kinds_seed_parameters(tmp);
}

static void flow_region_init(gm_region *tmp, gm_region *r, TSNode function) {
    flow_region_init_in(tmp, r, function, r->site.class_node);
}

/* The same for what callee_of found for call: a method of r's class for `self.m(...)`, a
 * module-level function (no class: its first parameter is no self) for `f(...)`. */
static void flow_region_init_callee(gm_region *tmp, gm_region *r, TSNode call, TSNode def) {
    const gm_syntax *syn = syn_of(r);
    bool method = gm_is(gm_unparen(syn, gm_child(call, syn->field.function)), syn->sym.attribute);
    flow_region_init_in(tmp, r, def, method ? r->site.class_node : (TSNode){0});
}

static void flow_region_free(gm_region *tmp) {
    gm_kind_env_free(&tmp->env);
    gm_region_free_name_sets(tmp);
}

static TSNode def_of(const gm_syntax *syn, TSNode n) {
    if (gm_is(n, syn->sym.decorated_definition))
        n = gm_child(n, syn->field.definition);
    return gm_is(n, syn->sym.function_definition) ? n : (TSNode){0};
}

/* The definition of the method the class of the region defines as name, or a null node. */
static TSNode class_method(const gm_region *r, gm_slice name) {
    const gm_syntax *syn = syn_of(r);
    TSNode body = ts_node_is_null(r->site.class_node)
                      ? (TSNode){0}
                      : gm_child(r->site.class_node, syn->field.body);
    TSNode found = {0};
    if (ts_node_is_null(body))
        return found;
    TSTreeCursor cursor = ts_tree_cursor_new(body);
    if (ts_tree_cursor_goto_first_child(&cursor)) {
        do {
            TSNode m = def_of(syn, ts_tree_cursor_current_node(&cursor));
            if (!ts_node_is_null(m) &&
                gm_slice_eq(gm_node_slice(gm_child(m, syn->field.name), text_of(r)), name))
                found = m;
        } while (ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
    return found;
}

/* The same-file function a call runs: `self.m(...)` (a method of the region's class) or `f(...)`
 * (a module-level def the function does not shadow), or a null node. */
static TSNode callee_of(gm_region *r, TSNode call) {
    const gm_syntax *syn = syn_of(r);
    TSNode fn = gm_unparen(syn, gm_child(call, syn->field.function));
    TSNode null = {0};
    if (gm_is(fn, syn->sym.attribute)) {
        TSNode obj = gm_unparen(syn, gm_child(fn, syn->field.object));
        TSNode attr = gm_child(fn, syn->field.attribute);
        if (!gm_vk_is_self(r, obj) || ts_node_is_null(attr))
            return null;
        return class_method(r, gm_node_slice(attr, text_of(r)));
    }
    if (!gm_is(fn, syn->sym.identifier) || gm_region_binds_node(r, fn) ||
        gm_symbols_is_imported(r->stmt->symbols, gm_node_slice(fn, text_of(r))))
        return null;
    const gm_keyed_class *defs;
    uint32_t count =
        gm_module_index_functions(r->stmt->module_index, gm_node_slice(fn, text_of(r)), &defs);
    return count ? defs[count - 1].node : null; /* the last definition wins */
}

bool gm_vk_each_return(gm_region *r, TSNode def, TSNode class_node, bool module_class,
                       void (*on_return)(gm_region *function_region, TSNode ret, void *context),
                       void *context) {
    TSNode body = ts_node_is_null(def) ? def : gm_child(def, syn_of(r)->field.body);
    if (flow_depth >= GM_MAX_FLOW_DEPTH || ts_node_is_null(body))
        return false;
    flow_depth++;
    gm_region tmp;
    flow_region_init_in(&tmp, r, def, class_node);
    tmp.site.module_class = module_class;
    flow_walk w = {.on_return = on_return, .context = context};
    flow_block(&tmp, body, &w, 0);
    flow_region_free(&tmp);
    flow_depth--;
    return true;
}

/* Whether call runs a same-file function whose every return is a tuple display of count
 * elements; kinds gets, per element, tensor where every return has a tensor. */
bool gm_vk_call_returns_tuple(gm_region *r, TSNode call, gm_kind *kinds, uint32_t count) {
    if (flow_depth >= GM_MAX_FLOW_DEPTH || count == 0)
        return false;
    TSNode def = callee_of(r, call);
    if (ts_node_is_null(def) || ts_node_eq(def, r->site.function))
        return false;
    TSNode body = gm_child(def, syn_of(r)->field.body);
    if (ts_node_is_null(body))
        return false;
    flow_depth++;
    gm_region tmp;
    flow_region_init_callee(&tmp, r, call, def);
    flow_walk w = {.returns_ok = true, .count = count, .kinds = kinds};
    flow_block(&tmp, body, &w, 0);
    flow_region_free(&tmp);
    flow_depth--;
    return w.returns_ok && w.returns > 0;
}

bool gm_kinds_function_returns_tensor(gm_stmt_ctx *stmt, TSNode def) {
    const gm_syntax *syn = stmt->syntax;
    TSNode body = gm_child(def, syn->field.body);
    /* an annotation (`-> bool`) says what the function returns, whatever the body seems to */
    if (flow_depth > 0 || ts_node_is_null(body) ||
        !ts_node_is_null(gm_child(def, syn->field.return_type)) ||
        gm_slice_contains(gm_node_slice(body, stmt->text), "yield"))
        return false;
    gm_region tmp;
    memset(&tmp, 0, sizeof tmp);
    tmp.stmt = stmt;
    tmp.site.function = def;
    tmp.print_shadowed = -1;
    gm_kinds_seed_parameters(&tmp);
    flow_depth++;
    flow_walk w = {.returns_ok = true, .single = true};
    flow_block(&tmp, body, &w, 0);
    flow_depth--;
    flow_region_free(&tmp);
    return w.returns_ok && w.returns > 0 && !stmt->oom;
}

bool gm_vk_call_returns_tensor(gm_region *r, TSNode call) {
    const gm_syntax *syn = syn_of(r);
    TSNode fn = gm_unparen(syn, gm_child(call, syn->field.function));
    if (flow_depth >= GM_MAX_FLOW_DEPTH || !gm_is(fn, syn->sym.identifier))
        return false; /* a method's returns are method_returns.c's */
    TSNode def = callee_of(r, call);
    if (ts_node_is_null(def) || ts_node_eq(def, r->site.function))
        return false;
    TSNode body = gm_child(def, syn->field.body);
    if (ts_node_is_null(body) || gm_slice_contains(gm_node_slice(body, text_of(r)), "yield"))
        return false;
    gm_function_memo *memo = &r->stmt->function_returns;
    uint32_t def_start = ts_node_start_byte(def);
    bool asked_here = flow_depth == 0, found = false, tensor = false;
    for (unsigned i = 0; asked_here && i < memo->count && !found; i++)
        if (memo->items[i].def_start == def_start) {
            found = true;
            tensor = memo->items[i].returns_tensor;
        }
    if (!found) {
        flow_depth++;
        gm_region tmp;
        flow_region_init_callee(&tmp, r, call, def);
        flow_walk w = {.returns_ok = true, .single = true};
        flow_block(&tmp, body, &w, 0);
        flow_region_free(&tmp);
        flow_depth--;
        tensor = w.returns_ok && w.returns > 0;
        if (asked_here && memo->count < sizeof memo->items / sizeof memo->items[0]) {
            memo->items[memo->count].def_start = def_start;
            memo->items[memo->count].returns_tensor = tensor;
            memo->count++;
        }
    }
    if (!tensor)
        return false;
    /* the caller's statement is analysed again when the function's statement changes. Only
     * where a tensor was found: with every call of a helper the 64 bits would fill in a large
     * file and each edit of a function would analyse most statements again; a helper that
     * comes to return a tensor updates its callers at their next analysis, as a tuple's
     * elements (gm_vk_call_returns_tuple) do */
    gm_slice name = gm_node_slice(fn, text_of(r));
    r->stmt->function_deps |= gm_dependency_bit(name.ptr, name.len);
    return true;
}

int gm_vk_parameter_index(const gm_region *r, TSNode def, gm_slice name, bool skip_first) {
    const gm_syntax *syn = syn_of(r);
    TSNode params = gm_child(def, syn->field.parameters);
    uint32_t count = ts_node_is_null(params) ? 0 : ts_node_named_child_count(params);
    int index = 0;
    for (uint32_t i = 0; i < count; i++) {
        TSNode p = ts_node_named_child(params, i);
        TSNode n = {0};
        if (gm_is(p, syn->sym.identifier))
            n = p;
        else if (gm_is(p, syn->sym.default_parameter) || gm_is(p, syn->sym.typed_default_parameter))
            n = gm_child(p, syn->field.name);
        else if (gm_is(p, syn->sym.typed_parameter) && ts_node_named_child_count(p) > 0)
            n = ts_node_named_child(p, 0);
        if (!gm_is(n, syn->sym.identifier))
            return -1; /* *args, **kwargs, a bare * or /: keep it simple */
        if (i == 0 && skip_first)
            continue;
        if (gm_slice_eq(gm_node_slice(n, text_of(r)), name))
            return index;
        index++;
    }
    return -1;
}

TSNode gm_vk_argument_for(const gm_region *r, TSNode call, int index, gm_slice name, bool *bad) {
    const gm_syntax *syn = syn_of(r);
    TSNode args = gm_child(call, syn->field.arguments);
    TSNode found = {0};
    if (!gm_is(args, syn->sym.argument_list)) {
        *bad = true;
        return found;
    }
    uint32_t count = ts_node_named_child_count(args);
    int position = 0;
    for (uint32_t i = 0; i < count; i++) {
        TSNode a = ts_node_named_child(args, i);
        const char *type = ts_node_type(a);
        if (strcmp(type, "list_splat") == 0 || strcmp(type, "dictionary_splat") == 0) {
            *bad = true;
            return found;
        }
        if (gm_is(a, syn->sym.keyword_argument)) {
            if (gm_slice_eq(gm_node_slice(gm_child(a, syn->field.name), text_of(r)), name))
                found = gm_child(a, syn->field.value);
        } else if (position++ == index) {
            found = a;
        }
    }
    return found;
}

typedef enum {
    GM_SITES_SELF_METHOD, /* `self.method(...)` in another method of the region's class */
    GM_SITES_FUNCTION,    /* `method(...)`: a module-level function, called by its name */
    GM_SITES_ATTRIBUTE,   /* `self.<attribute>(...)`: a submodule of the caller's class whose
                             __init__ makes it an instance of the region's class */
} site_form;

typedef struct {
    gm_slice method;
    const char *needle; /* ".method(": subtrees whose text lacks it hold no call site */
    int index;
    gm_slice param;
    unsigned sites, tensors, made; /* made: tensors the caller computed (not its own input) */
    bool bad;
    site_form form;
    TSNode class_node; /* the caller's class (null for a plain function) */
} site_search;

/* Calls `self.method(...)` below n, in a method def of the class (other than the region's):
 * the kind of the argument each passes, in the caller as it stands at the call. */
static void visit_sites(gm_region *r, TSNode caller, TSNode n, site_search *q, int depth) {
    const gm_syntax *syn = syn_of(r);
    if (ts_node_is_null(n) || depth > 100 || q->bad || r->stmt->oom)
        return;
    TSSymbol t = ts_node_symbol(n);
    if (t == syn->sym.lambda || t == syn->sym.class_definition ||
        (t == syn->sym.function_definition && depth > 0))
        return;
    if (t == syn->sym.call) {
        TSNode fn = gm_unparen(syn, gm_child(n, syn->field.function));
        TSNode attr = gm_child(fn, syn->field.attribute);
        bool matches = q->form == GM_SITES_FUNCTION
                           ? gm_is(fn, syn->sym.identifier) &&
                                 gm_slice_eq(gm_node_slice(fn, text_of(r)), q->method)
                           : gm_is(fn, syn->sym.attribute) && !ts_node_is_null(attr) &&
                                 gm_slice_eq(gm_node_slice(attr, text_of(r)), q->method);
        if (matches) {
            q->sites++;
            gm_region tmp;
            if (q->form == GM_SITES_SELF_METHOD)
                flow_region_init(&tmp, r, caller);
            else
                flow_region_init_in(&tmp, r, caller, q->class_node);
            TSNode obj = gm_unparen(syn, gm_child(fn, syn->field.object));
            bool bad = q->form != GM_SITES_FUNCTION && !gm_vk_is_self(&tmp, obj);
            if (q->form == GM_SITES_FUNCTION && gm_region_binds_node(&tmp, fn))
                bad = true; /* the caller's own f, not the module's */
            TSNode arg = bad ? (TSNode){0} : gm_vk_argument_for(r, n, q->index, q->param, &bad);
            if (!bad && !ts_node_is_null(arg)) {
                flow_walk w = {.stop = n};
                flow_block(&tmp, gm_child(caller, syn->field.body), &w, 0);
                bool tensor = gm_value_of(&tmp, arg).kind == GM_KIND_TENSOR;
                TSNode passed = gm_unparen(syn, arg);
                q->tensors += tensor;
                q->made += tensor && !(gm_is(passed, syn->sym.identifier) &&
                                       gm_parameters_bind_name(syn, text_of(r), caller,
                                                               gm_node_slice(passed, text_of(r))));
            }
            flow_region_free(&tmp);
            q->bad = bad;
            if (q->bad || q->tensors < q->sites)
                return;
        }
    }
    TSTreeCursor cursor = ts_tree_cursor_new(n);
    if (ts_tree_cursor_goto_first_child(&cursor)) {
        do {
            TSNode c = ts_tree_cursor_current_node(&cursor);
            if (ts_node_is_named(c) && gm_slice_contains(gm_node_slice(c, text_of(r)), q->needle))
                visit_sites(r, caller, c, q, depth + 1);
        } while (!q->bad && ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
}

/* Visits the call sites in every method def of the class body (but skip). */
static void visit_class_sites(gm_region *r, TSNode class_node, TSNode skip, site_search *q) {
    const gm_syntax *syn = syn_of(r);
    TSNode body = gm_child(class_node, syn->field.body);
    if (ts_node_is_null(body))
        return;
    TSTreeCursor cursor = ts_tree_cursor_new(body);
    if (ts_tree_cursor_goto_first_child(&cursor)) {
        do {
            TSNode m = def_of(syn, ts_tree_cursor_current_node(&cursor));
            if (ts_node_is_null(m) || ts_node_eq(m, skip) ||
                !gm_slice_contains(gm_node_slice(m, text_of(r)), q->needle))
                continue;
            visit_sites(r, m, m, q, 0);
        } while (!q->bad && q->tensors == q->sites && ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
}

static TSNode class_of(const gm_syntax *syn, TSNode n) {
    if (gm_is(n, syn->sym.decorated_definition))
        n = gm_child(n, syn->field.definition);
    return gm_is(n, syn->sym.class_definition) ? n : (TSNode){0};
}

/* The attribute that the __init__ of class_node binds to an instance of the class named cls
 * (`self.rotary_emb = RotaryEmbedding(config)`), written into *attr; false when none does (or
 * more than one: which is called is then unclear). */
static bool instance_attribute(gm_region *r, TSNode class_node, gm_slice cls, gm_slice *attr) {
    const gm_syntax *syn = syn_of(r);
    gm_slice self_name;
    TSNode init = gm_class_init(syn, text_of(r), class_node, &self_name);
    if (ts_node_is_null(init))
        return false;
    TSNode body = gm_child(init, syn->field.body);
    unsigned found = 0;
    uint32_t count = ts_node_is_null(body) ? 0 : ts_node_named_child_count(body);
    for (uint32_t i = 0; i < count; i++) {
        TSNode st = ts_node_named_child(body, i);
        TSNode a = gm_is(st, syn->sym.expression_statement) && ts_node_named_child_count(st)
                       ? ts_node_named_child(st, 0)
                       : (TSNode){0};
        if (!gm_is(a, syn->sym.assignment))
            continue;
        TSNode left = gm_child(a, syn->field.left), right = gm_unparen(syn, gm_child(a, syn->field.right));
        if (!gm_is(left, syn->sym.attribute) || !gm_is(right, syn->sym.call))
            continue;
        TSNode obj = gm_child(left, syn->field.object), fn = gm_child(right, syn->field.function);
        if (!gm_is(obj, syn->sym.identifier) || !gm_slice_eq(gm_node_slice(obj, text_of(r)), self_name) ||
            !gm_is(fn, syn->sym.identifier) || !gm_slice_eq(gm_node_slice(fn, text_of(r)), cls))
            continue;
        *attr = gm_node_slice(gm_child(left, syn->field.attribute), text_of(r));
        found++;
    }
    return found == 1;
}

/* A parameter of unknown kind that every call of its function in the file passes a tensor
 * (seen with the caller's kinds at the call): a tensor. The calls looked at: `self.m(...)` in
 * the other methods of the class; for forward, `self.<attr>(...)` in the classes of the file
 * whose __init__ binds attr to an instance of the class; for a module-level function, `f(...)`
 * in every function and method of the file. Looked at once per parameter and region. */
static bool passed_by_other_modules(const gm_region *r, gm_slice function, int index);

void gm_vk_resolve_parameter(gm_region *r, TSNode identifier) {
    const gm_syntax *syn = syn_of(r);
    gm_slice name = gm_node_slice(identifier, text_of(r));
    bool method = !ts_node_is_null(r->site.class_node);
    if (flow_depth >= GM_MAX_FLOW_DEPTH || gm_vk_env_find(&r->env, name) ||
        gm_vk_mark_of(r, name) == GM_MARK_TRIED || gm_vk_is_self(r, identifier))
        return;
    TSNode def = r->site.function;
    TSNode fname = gm_child(def, syn->field.name);
    TSNode module = ts_node_parent(r->stmt->top);
    bool is_static = method && gm_vk_is_static_method(r);
    int index = gm_vk_parameter_index(r, def, name, method && !is_static);
    gm_vk_mark_set(r, name, GM_MARK_TRIED);
    if (index < 0 || ts_node_is_null(fname) || ts_node_is_null(module))
        return;
    /* a plain function only when it is module level: a nested def is called by its name only
     * inside the function around it */
    if (!method && !ts_node_eq(def, def_of(syn, r->stmt->top)))
        return;
    site_search q = {.method = gm_node_slice(fname, text_of(r)), .index = index, .param = name,
                     .form = method ? GM_SITES_SELF_METHOD : GM_SITES_FUNCTION};
    char needle[GM_NAME_MAX + 2];
    if (q.method.len + 2 >= sizeof needle)
        return;
    size_t n = 0;
    if (method)
        needle[n++] = '.';
    memcpy(needle + n, q.method.ptr, q.method.len);
    n += q.method.len;
    needle[n++] = '(';
    needle[n] = '\0';
    q.needle = needle;
    flow_depth++;
    if (method) {
        /* a cheap look at the text first: most methods are not called as self.m( */
        if (gm_slice_contains(gm_node_slice(r->site.class_node, text_of(r)), needle))
            visit_class_sites(r, r->site.class_node, def, &q);
    }
    TSNode class_name = method ? gm_child(r->site.class_node, syn->field.name) : (TSNode){0};
    bool forward = method && gm_slice_is(q.method, "forward") && !ts_node_is_null(class_name);
    /* module-level functions, and forward through the submodules other classes hold */
    if (!q.bad && q.tensors == q.sites && (!method || forward)) {
        /* only the statements that name the function (or, for forward, the class) can call it */
        const TSNode *mentioning;
        uint32_t count = gm_module_index_mentions(
            r->stmt->module_index, method ? gm_node_slice(class_name, text_of(r)) : q.method,
            &mentioning);
        char attr_needle[GM_NAME_MAX + 8];
        for (uint32_t m = 0; m < count && !q.bad && q.tensors == q.sites; m++) {
            TSNode top = mentioning[m];
            TSNode cls = class_of(syn, top);
            if (!method) {
                TSNode d = def_of(syn, top);
                q.class_node = (TSNode){0};
                if (!ts_node_is_null(d) && !ts_node_eq(d, def) &&
                    gm_slice_contains(gm_node_slice(d, text_of(r)), needle))
                    visit_sites(r, d, d, &q, 0);
                if (!ts_node_is_null(cls) && gm_slice_contains(gm_node_slice(cls, text_of(r)), needle)) {
                    q.class_node = cls;
                    visit_class_sites(r, cls, def, &q);
                }
                continue;
            }
            gm_slice attr;
            if (ts_node_is_null(cls) || ts_node_eq(cls, r->site.class_node) ||
                !instance_attribute(r, cls, gm_node_slice(class_name, text_of(r)), &attr) ||
                attr.len + 3 >= sizeof attr_needle)
                continue;
            attr_needle[0] = '.';
            memcpy(attr_needle + 1, attr.ptr, attr.len);
            attr_needle[attr.len + 1] = '(';
            attr_needle[attr.len + 2] = '\0';
            site_search a = q;
            a.form = GM_SITES_ATTRIBUTE;
            a.method = attr;
            a.needle = attr_needle;
            a.class_node = cls;
            visit_class_sites(r, cls, (TSNode){0}, &a);
            q.sites = a.sites;
            q.tensors = a.tensors;
            q.made = a.made;
            q.bad = a.bad;
        }
        if (r->stmt->module_index->oom)
            r->stmt->oom = true;
    }
    flow_depth--;
    if (!q.bad && q.sites > 0 && q.tensors == q.sites) {
        gm_vk_env_set_because(r, name, GM_KIND_TENSOR, GM_BECAUSE_CALLERS_PASS, (TSNode){0});
        if (q.made == q.sites)
            gm_vk_mark_set(r, name, GM_MARK_PASSED_MADE);
    } else if (!q.bad && q.sites == 0 && !method && passed_by_other_modules(r, q.method, index)) {
        gm_vk_env_set_because(r, name, GM_KIND_TENSOR, GM_BECAUSE_MODULES_PASS, (TSNode){0});
    }
}

/* Whether the workspace says compiled code of another module passes a tensor as positional
 * parameter index of this module's function named function ("name:MASK" facts, sorted). */
static bool passed_by_other_modules(const gm_region *r, gm_slice function, int index) {
    const gm_stmt_ctx *st = r->stmt;
    if (index < 0 || index >= 32 || st->passed_arg_count == 0)
        return false;
    size_t lo = 0, hi = st->passed_arg_count;
    while (lo < hi) { /* the first fact of the name */
        size_t mid = lo + (hi - lo) / 2;
        const char *fact = st->passed_args[mid];
        int c = strncmp(fact, function.ptr, function.len);
        if (c == 0 && fact[function.len] != ':')
            c = (unsigned char)fact[function.len] < ':' ? -1 : 1;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i < st->passed_arg_count; i++) {
        const char *fact = st->passed_args[i];
        if (strncmp(fact, function.ptr, function.len) != 0 || fact[function.len] != ':')
            break;
        unsigned long mask = strtoul(fact + function.len + 1, NULL, 16);
        if (mask >> index & 1ul)
            return true;
    }
    return false;
}

static int push_pass(gm_stmt_ctx *st, const char *fact) {
    for (size_t i = 0; i < st->pass_count; i++)
        if (strcmp(st->passes[i], fact) == 0)
            return 0;
    if (st->pass_count == st->pass_capacity) {
        size_t cap = st->pass_capacity ? 2 * st->pass_capacity : 4;
        char **items = realloc(st->passes, cap * sizeof *items);
        if (!items)
            return -1;
        st->passes = items;
        st->pass_capacity = cap;
    }
    char *copy = strdup(fact);
    if (!copy)
        return -1;
    st->passes[st->pass_count++] = copy;
    return 0;
}

void gm_kinds_note_passed_tensors(gm_region *r, TSNode call) {
    const gm_syntax *syn = syn_of(r);
    gm_stmt_ctx *st = r->stmt;
    TSNode fn = gm_unparen(syn, gm_child(call, syn->field.function));
    TSNode args = gm_child(call, syn->field.arguments);
    if (!gm_is(args, syn->sym.argument_list) || ts_node_named_child_count(args) == 0)
        return;
    TSNode head = gm_chain_head(syn, fn);
    if (ts_node_is_null(head) || !gm_is(head, syn->sym.identifier))
        return;
    gm_slice head_name = gm_node_slice(head, text_of(r));
    /* torch's own functions are no module of the workspace: the common case, told cheaply */
    const char *alias = st->symbols->torch_alias;
    if ((alias && strlen(alias) == head_name.len &&
         memcmp(alias, head_name.ptr, head_name.len) == 0) ||
        !gm_symbols_is_imported(st->symbols, head_name) || gm_region_binds_node(r, head))
        return;
    char name[GM_NAME_MAX];
    if (!gm_symbols_resolve(st->symbols, syn, text_of(r), fn, name, sizeof name) ||
        strncmp(name, "torch.", 6) == 0 || strcmp(name, "torch") == 0)
        return;
    unsigned long mask = 0;
    uint32_t count = ts_node_named_child_count(args);
    int position = 0;
    for (uint32_t i = 0; i < count && position < 32; i++) {
        TSNode a = ts_node_named_child(args, i);
        if (gm_is(a, syn->sym.comment))
            continue;
        const char *type = ts_node_type(a);
        if (gm_is(a, syn->sym.keyword_argument) || strcmp(type, "list_splat") == 0 ||
            strcmp(type, "dictionary_splat") == 0)
            break;
        if (gm_value_of(r, a).kind == GM_KIND_TENSOR)
            mask |= 1ul << position;
        position++;
    }
    if (!mask)
        return;
    char fact[GM_NAME_MAX + 32];
    snprintf(fact, sizeof fact, "passes:%s:%lx", name, mask);
    if (push_pass(st, fact) != 0)
        st->oom = true;
}

bool gm_kinds_is_passed_made(gm_region *region, TSNode identifier) {
    if (!gm_is(identifier, syn_of(region)->sym.identifier))
        return false;
    gm_value_of_resolved(region, identifier);
    return gm_vk_mark_of(region, gm_node_slice(identifier, text_of(region))) == GM_MARK_PASSED_MADE;
}

static void resolve_in(gm_region *r, TSNode n, int depth) {
    const gm_syntax *syn = syn_of(r);
    if (ts_node_is_null(n) || depth > 16)
        return;
    if (gm_is(n, syn->sym.identifier)) {
        if (!gm_vk_env_find(&r->env, gm_node_slice(n, text_of(r))))
            gm_vk_resolve_parameter(r, n);
        return;
    }
    if (gm_is(n, syn->sym.call) || gm_is(n, syn->sym.lambda) || gm_is(n, syn->sym.attribute))
        return;
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count && i < 32; i++)
        resolve_in(r, ts_node_named_child(n, i), depth + 1);
}

gm_value gm_value_of_resolved(gm_region *region, TSNode expr) {
    resolve_in(region, expr, 0);
    return gm_value_of(region, expr);
}
