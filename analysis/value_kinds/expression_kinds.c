/* The kind of an expression: names from the environment, literals, calls (torch functions,
 * builtins, tensor methods, submodules), attributes (static metadata, buffers), operators, with
 * the compile-time truth value where torch.compile folds the expression to a constant. */
#include "analysis/value_kinds/value_kinds.h"
#include "analysis/value_kinds/value_kinds_internal.h"

#include <ctype.h>
#include <string.h>

#include "analysis/module_facts/compile_constants.h"

#define GM_MAX_EXPR_DEPTH 200

/* ---- helpers ------------------------------------------------------------------------- */

static gm_value value(gm_kind kind) {
    gm_value v = {kind, -1};
    return v;
}

static gm_value constant(int truth) {
    gm_value v = {GM_KIND_STATIC, truth ? 1 : 0};
    return v;
}

/* The kind of an operation combining operands: tensors win, then data-dependent scalars;
 * static only when every operand is. */
gm_kind gm_vk_combine(gm_kind a, gm_kind b) {
    if (a == GM_KIND_TENSOR || b == GM_KIND_TENSOR)
        return GM_KIND_TENSOR;
    if (a == GM_KIND_SCALAR || b == GM_KIND_SCALAR)
        return GM_KIND_SCALAR;
    if (a == GM_KIND_STATIC && b == GM_KIND_STATIC)
        return GM_KIND_STATIC;
    return GM_KIND_UNKNOWN;
}

bool gm_vk_is_self(const gm_region *r, TSNode n) {
    if (r->self_name.len == 0 || !gm_is(n, syn_of(r)->sym.identifier))
        return false;
    gm_slice s = gm_node_slice(n, text_of(r));
    return s.len == r->self_name.len && memcmp(s.ptr, r->self_name.ptr, s.len) == 0;
}

/* Whether the head of the chain is a name of the function (a local or self), as opposed to a
 * module, class or function the file imports or defines. */
bool gm_vk_head_is_local(const gm_region *r, TSNode head) {
    if (ts_node_is_null(head))
        return false;
    gm_slice s = gm_node_slice(head, text_of(r));
    return gm_vk_is_self(r, head) || gm_vk_env_find(&r->env, s) != NULL;
}

/* Whether the region's class defines a method called name (so self.name(...) is a method call,
 * not a submodule call). */
static bool class_defines(const gm_region *r, gm_slice name) {
    const gm_syntax *syn = syn_of(r);
    if (ts_node_is_null(r->site.class_node))
        return false;
    TSNode body = gm_child(r->site.class_node, syn->field.body);
    if (ts_node_is_null(body))
        return false;
    bool found = false;
    TSTreeCursor cursor = ts_tree_cursor_new(body);
    if (ts_tree_cursor_goto_first_child(&cursor)) {
        do {
            TSNode m = ts_tree_cursor_current_node(&cursor);
            if (gm_is(m, syn->sym.decorated_definition))
                m = gm_child(m, syn->field.definition);
            if (gm_is(m, syn->sym.function_definition)) {
                TSNode n = gm_child(m, syn->field.name);
                gm_slice s = gm_node_slice(n, text_of(r));
                found = !ts_node_is_null(n) && s.len == name.len &&
                        memcmp(s.ptr, name.ptr, name.len) == 0;
            }
        } while (!found && ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
    return found;
}

/* Adds to r->plain_callables the attributes `self_name.attr = lambda ...` or `= partial(...)`
 * assign below n (statements and their blocks, not nested definitions). */
static void note_plain_callables(gm_region *r, TSNode n, gm_slice self_name, int depth) {
    const gm_syntax *syn = syn_of(r);
    if (ts_node_is_null(n) || depth > 32 || r->stmt->oom || gm_is_nested_scope(syn, n))
        return;
    if (gm_is(n, syn->sym.assignment)) {
        TSNode left = gm_unparen(syn, gm_child(n, syn->field.left));
        TSNode right = gm_unparen(syn, gm_child(n, syn->field.right));
        TSNode object = gm_unparen(syn, gm_child(left, syn->field.object));
        bool callable = gm_is(right, syn->sym.lambda);
        if (!callable && gm_is(right, syn->sym.call)) {
            char name[GM_NAME_MAX];
            callable = gm_symbols_resolve(r->stmt->symbols, syn, text_of(r),
                                          gm_unparen(syn, gm_child(right, syn->field.function)),
                                          name, sizeof name) &&
                       strcmp(name, "functools.partial") == 0;
        }
        if (callable && gm_is(left, syn->sym.attribute) && gm_is(object, syn->sym.identifier) &&
            gm_slice_eq(gm_node_slice(object, text_of(r)), self_name) &&
            gm_name_set_add(&r->plain_callables,
                            gm_node_slice(gm_child(left, syn->field.attribute), text_of(r))) != 0)
            r->stmt->oom = true;
        return;
    }
    if (!gm_is(n, syn->sym.block) && !gm_is(n, syn->sym.expression_statement) &&
        !gm_is(n, syn->sym.if_statement) && !gm_is(n, syn->sym.elif_clause) &&
        !gm_is(n, syn->sym.else_clause) && !gm_is(n, syn->sym.for_statement) &&
        !gm_is(n, syn->sym.while_statement) && !gm_is(n, syn->sym.with_statement) &&
        !gm_is(n, syn->sym.try_statement) && !gm_is(n, syn->sym.except_clause) &&
        !gm_is(n, syn->sym.finally_clause))
        return; /* an expression: no assignment statement below it */
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; i++)
        note_plain_callables(r, ts_node_named_child(n, i), self_name, depth + 1);
}



/* Whether name (resolved) is a torch factory: its result is a tensor whatever its arguments. */
static bool is_torch_factory(const char *name) {
    static const char *const factories[] = {
        "torch.tensor", "torch.as_tensor", "torch.zeros", "torch.ones",     "torch.empty",
        "torch.full",   "torch.arange",    "torch.linspace", "torch.rand",  "torch.randn",
        "torch.eye",    "torch.zeros_like", "torch.ones_like", NULL};
    for (size_t i = 0; factories[i]; i++)
        if (strcmp(name, factories[i]) == 0)
            return true;
    return false;
}

/* Adds to buffers the names `self_name.register_buffer("name", ...)` calls below n register,
 * and those `self_name.name = nn.Parameter(...)`, `nn.Buffer(...)` or a torch factory
 * (`self.stride = torch.zeros(n)`, a plain tensor attribute) assign (not in nested
 * definitions): tensors of the module. */
static void note_buffers(gm_region *r, gm_name_set *buffers, TSNode n, gm_slice self_name,
                         int depth) {
    const gm_syntax *syn = syn_of(r);
    if (ts_node_is_null(n) || depth > 64 || r->stmt->oom)
        return;
    TSSymbol t = ts_node_symbol(n);
    if (t == syn->sym.function_definition || t == syn->sym.class_definition || t == syn->sym.lambda)
        return;
    if (t == syn->sym.assignment) {
        /* `self.w = nn.Parameter(...)` / `nn.Buffer(...)`: a tensor like a registered buffer */
        TSNode left = gm_unparen(syn, gm_child(n, syn->field.left));
        TSNode right = gm_unparen(syn, gm_child(n, syn->field.right));
        TSNode object = gm_unparen(syn, gm_child(left, syn->field.object));
        char name[GM_NAME_MAX];
        if (gm_is(left, syn->sym.attribute) && gm_is(object, syn->sym.identifier) &&
            gm_slice_eq(gm_node_slice(object, text_of(r)), self_name) &&
            gm_is(right, syn->sym.call) &&
            gm_symbols_resolve(r->stmt->symbols, syn, text_of(r),
                               gm_unparen(syn, gm_child(right, syn->field.function)), name,
                               sizeof name) &&
            (strcmp(name, "torch.nn.Parameter") == 0 || strcmp(name, "torch.nn.Buffer") == 0 ||
             strcmp(name, "torch.nn.parameter.Parameter") == 0 || is_torch_factory(name)) &&
            gm_name_set_add(buffers, gm_node_slice(gm_child(left, syn->field.attribute),
                                                       text_of(r))) != 0)
            r->stmt->oom = true;
    }
    if (t == syn->sym.call) {
        TSNode fn = gm_unparen(syn, gm_child(n, syn->field.function));
        TSNode first = gm_vk_first_argument(r, n);
        if (gm_is(fn, syn->sym.attribute) && gm_is(first, syn->sym.string) &&
            gm_node_text_is(gm_child(fn, syn->field.attribute), text_of(r), "register_buffer")) {
            TSNode obj = gm_unparen(syn, gm_child(fn, syn->field.object));
            gm_slice lit = gm_node_slice(first, text_of(r));
            /* a plain 'name' or "name" literal */
            if (gm_is(obj, syn->sym.identifier) &&
                gm_slice_eq(gm_node_slice(obj, text_of(r)), self_name) && lit.len >= 3 &&
                (lit.ptr[0] == '"' || lit.ptr[0] == '\'') && lit.ptr[lit.len - 1] == lit.ptr[0] &&
                gm_name_set_add(buffers, (gm_slice){lit.ptr + 1, lit.len - 2}) != 0)
                r->stmt->oom = true;
        }
    }
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; i++)
        note_buffers(r, buffers, ts_node_named_child(n, i), self_name, depth + 1);
}

/* The body of the class's __init__ when its text mentions one of words (NULL-terminated), with
 * its first parameter in *self_name; a null node otherwise. */
static TSNode init_body_mentioning(gm_region *r, const char *const *words, gm_slice *self_name) {
    const gm_syntax *syn = syn_of(r);
    TSNode init = gm_class_init(syn, text_of(r), r->site.class_node, self_name);
    if (ts_node_is_null(init))
        return init;
    gm_slice init_text = gm_node_slice(init, text_of(r));
    for (size_t i = 0; words[i]; i++)
        if (gm_slice_contains(init_text, words[i]))
            return gm_child(init, syn->field.body);
    return (TSNode){0};
}

/* Whether self.name is a buffer, parameter or tensor attribute the class's __init__ makes. The
 * statement keeps the set of the last class scanned: its methods' regions ask for the same one. */
static bool is_buffer(gm_region *r, gm_slice name) {
    gm_stmt_ctx *st = r->stmt;
    if (ts_node_is_null(r->site.class_node))
        return false;
    uint32_t key = ts_node_start_byte(r->site.class_node) + 1;
    if (st->class_buffers_of != key) {
        gm_name_set_clear(&st->class_buffers);
        static const char *const words[] = {
            "register_buffer", "Parameter(", "Buffer(",  "torch.tensor(", "torch.zeros(",
            "torch.ones(",     "torch.full(", "torch.empty(", "torch.arange(", "torch.linspace(",
            "torch.rand",      "torch.eye(",  "torch.as_tensor(", "_like(", NULL};
        gm_slice self_name;
        TSNode body = init_body_mentioning(r, words, &self_name);
        if (!ts_node_is_null(body))
            note_buffers(r, &st->class_buffers, body, self_name, 0);
        st->class_buffers_of = key;
    }
    return gm_name_set_has(&st->class_buffers, name);
}

/* Whether the class's __init__ makes self.name a lambda or a functools.partial. */
static bool is_plain_callable(gm_region *r, gm_slice name) {
    if (!r->plain_callables_scanned) {
        r->plain_callables_scanned = true;
        static const char *const words[] = {"lambda", "partial(", NULL};
        gm_slice self_name;
        TSNode body = init_body_mentioning(r, words, &self_name);
        if (!ts_node_is_null(body))
            note_plain_callables(r, body, self_name, 0);
    }
    return gm_name_set_has(&r->plain_callables, name);
}

/* self.<attr> where attr is not a method of the class: a submodule in a Module's region, unless
 * __init__ makes it a lambda or a partial (`self.calc_dropout = lambda h, w: p`), whose call
 * returns whatever the function does. */
bool gm_vk_is_submodule(gm_region *r, TSNode n) {
    const gm_syntax *syn = syn_of(r);
    n = gm_unparen(syn, n);
    if (!r->site.module_class || !gm_is(n, syn->sym.attribute))
        return false;
    TSNode object = gm_unparen(syn, gm_child(n, syn->field.object));
    TSNode attr = gm_child(n, syn->field.attribute);
    if (!gm_vk_is_self(r, object) || ts_node_is_null(attr))
        return false;
    gm_slice name = gm_node_slice(attr, text_of(r));
    return !class_defines(r, name) && !is_plain_callable(r, name);
}

/* ---- calls --------------------------------------------------------------------------- */

static gm_value classify_torch_function(const char *name) {
    if (strncmp(name, "torch.nn.functional.", 20) == 0)
        return value(GM_KIND_TENSOR);
    if (gm_vk_in_list(gm_vk_torch_scalar_functions, name))
        return value(GM_KIND_SCALAR);
    if (gm_vk_in_list(gm_vk_torch_static_functions, name) ||
        gm_vk_has_prefix_in(gm_vk_torch_static_prefixes, name))
        return value(GM_KIND_STATIC);
    const char *dot = strrchr(name, '.');
    const char *last = dot ? dot + 1 : name;
    if (isupper((unsigned char)last[0])) {
        size_t n = strlen(last);
        /* torch.Tensor(...), torch.FloatTensor(...) build tensors; other classes do not. */
        return value(n >= 6 && strcmp(last + n - 6, "Tensor") == 0 ? GM_KIND_TENSOR
                                                                   : GM_KIND_UNKNOWN);
    }
    return value(GM_KIND_TENSOR);
}

TSNode gm_vk_first_argument(const gm_region *r, TSNode call) {
    TSNode args = gm_child(call, syn_of(r)->field.arguments);
    if (!ts_node_is_null(args) && gm_is(args, syn_of(r)->sym.argument_list) &&
        ts_node_named_child_count(args) > 0) {
        TSNode a = ts_node_named_child(args, 0);
        if (!gm_is(a, syn_of(r)->sym.keyword_argument))
            return a;
    }
    TSNode null = {0};
    return null;
}

static gm_value eval(gm_region *r, TSNode n, int depth);

/* The kind of a builtin's result: static for len(), isinstance() and the like; int(), float(),
 * bool() and complex() of a tensor read its value (a Python scalar); abs() keeps its argument's
 * kind. */
static gm_value eval_builtin(gm_region *r, const char *name, TSNode call, int depth) {
    if (gm_vk_in_list(gm_vk_static_builtins, name))
        return value(GM_KIND_STATIC);
    TSNode arg = gm_vk_first_argument(r, call);
    if (ts_node_is_null(arg))
        return value(GM_KIND_UNKNOWN);
    if (strcmp(name, "int") == 0 || strcmp(name, "float") == 0 || strcmp(name, "bool") == 0 ||
        strcmp(name, "complex") == 0) {
        gm_kind k = eval(r, arg, depth + 1).kind;
        return value(k == GM_KIND_TENSOR ? GM_KIND_SCALAR : k);
    }
    if (strcmp(name, "abs") == 0)
        return value(eval(r, arg, depth + 1).kind);
    return value(GM_KIND_UNKNOWN);
}

static gm_value eval_method(gm_region *r, TSNode call, TSNode receiver, gm_slice method,
                            int depth) {
    gm_kind recv = eval(r, receiver, depth + 1).kind;
    switch (recv) {
    case GM_KIND_TENSOR:
        if (gm_vk_slice_in_list(gm_vk_scalar_methods, method))
            return value(GM_KIND_SCALAR);
        if (gm_vk_slice_in_list(gm_vk_static_methods, method))
            return value(GM_KIND_STATIC);
        if (gm_vk_slice_in_list(gm_vk_other_methods, method))
            return value(GM_KIND_UNKNOWN);
        return value(GM_KIND_TENSOR);
    case GM_KIND_SCALAR:
        return value(GM_KIND_SCALAR);
    case GM_KIND_STATIC:
        return value(GM_KIND_STATIC);
    case GM_KIND_UNKNOWN:
        break;
    }
    /* a method only tensors have returns a tensor */
    if (gm_vk_slice_in_list(gm_vk_tensor_reductions, method) ||
        gm_vk_slice_in_list(gm_vk_tensor_evidence_methods, method))
        return value(GM_KIND_TENSOR);
    /* a method of a class of the file: what it returns */
    switch (gm_vk_method_call_returns(r, call)) {
    case GM_RETURNS_TENSOR:
        return value(GM_KIND_TENSOR);
    case GM_RETURNS_SOMETIMES:
        if (r->conditional_tensors_off)
            break;
        r->conditional_calls++;
        r->conditional_call = call;
        return value(GM_KIND_TENSOR);
    case GM_RETURNS_NO_TENSOR:
    case GM_RETURNS_UNKNOWN:
        break;
    }
    return value(GM_KIND_UNKNOWN);
}

/* Whether every argument of call (keyword values too) is static. */
static bool all_arguments_static(gm_region *r, TSNode call, int depth) {
    const gm_syntax *syn = syn_of(r);
    TSNode args = gm_child(call, syn->field.arguments);
    if (!gm_is(args, syn->sym.argument_list))
        return false;
    uint32_t count = ts_node_named_child_count(args);
    for (uint32_t i = 0; i < count; i++) {
        TSNode a = ts_node_named_child(args, i);
        if (gm_is(a, syn->sym.keyword_argument))
            a = gm_child(a, syn->field.value);
        if (eval(r, a, depth + 1).kind != GM_KIND_STATIC)
            return false;
    }
    return count > 0;
}

gm_return_kinds gm_vk_declared_returns(gm_region *r, TSNode call) {
    const gm_syntax *syn = syn_of(r);
    gm_return_kinds none = {0, 0};
    TSNode fn = gm_unparen(syn, gm_child(call, syn->field.function));
    TSNode head = ts_node_is_null(fn) ? fn : gm_chain_head(syn, fn);
    char name[GM_NAME_MAX];
    if (ts_node_is_null(head) || gm_vk_head_is_local(r, head) ||
        !gm_symbols_resolve(r->stmt->symbols, syn, text_of(r), fn, name, sizeof name))
        return none;
    const gm_function_fact *known =
        gm_function_fact_find(r->stmt->constants, r->stmt->constant_count, name);
    return known ? known->returns : none;
}

/* Methods of a random.Random object whose results dynamo traces as graph inputs (verified on
 * torch 2.13: a branch on one breaks, GB0170). */
static const char *const random_draws[] = {"random", "randint", "uniform", "randrange", NULL};

static gm_value eval_call(gm_region *r, TSNode call, int depth) {
    const gm_syntax *syn = syn_of(r);
    TSNode fn = gm_unparen(syn, gm_child(call, syn->field.function));
    if (ts_node_is_null(fn))
        return value(GM_KIND_UNKNOWN);
    TSNode head = gm_chain_head(syn, fn);
    if (!ts_node_is_null(head) && !gm_vk_head_is_local(r, head)) {
        char name[GM_NAME_MAX];
        if (gm_symbols_resolve(r->stmt->symbols, syn, text_of(r), fn, name, sizeof name)) {
            int folded = gm_torch_compile_constant(name);
            const gm_function_fact *known =
                folded < 0
                    ? gm_function_fact_find(r->stmt->constants, r->stmt->constant_count, name)
                    : NULL;
            if (folded < 0 && known && known->constant >= 0)
                folded = known->constant;
            if (folded >= 0)
                return constant(folded);
            /* a function annotated `-> Tensor`, in this module or another */
            if (known && known->returns.arity == 0 && known->returns.tensors)
                return value(GM_KIND_TENSOR);
            /* Dynamo draws these at run time and feeds them to the graph as tensor inputs, so
             * branching on them is data-dependent (verified on torch 2.13: GB0170).
             * random.random() is not listed: it breaks at the call itself (GB0007). */
            if ((strcmp(name, "random.uniform") == 0 || strcmp(name, "random.randint") == 0 ||
                 strcmp(name, "random.randrange") == 0) &&
                !gm_region_binds_node(r, head))
                return value(GM_KIND_TENSOR);
            if (strcmp(name, "copy.deepcopy") == 0 || strcmp(name, "copy.copy") == 0) {
                /* a copy of a tensor is a tensor (when dynamo gets past the copy) */
                TSNode arg = gm_vk_first_argument(r, call);
                gm_kind k = ts_node_is_null(arg) ? GM_KIND_UNKNOWN : eval(r, arg, depth + 1).kind;
                return value(k == GM_KIND_TENSOR ? k : GM_KIND_UNKNOWN);
            }
            /* torch.div(seq_len, w, rounding_mode="trunc") of Python numbers: dynamo folds
             * it to a constant (verified on torch 2.13: no break as a size) */
            if ((strcmp(name, "torch.div") == 0 || strcmp(name, "torch.floor_divide") == 0) &&
                all_arguments_static(r, call, depth))
                return value(GM_KIND_STATIC);
            if (strncmp(name, "torch.", 6) == 0)
                return classify_torch_function(name);
            if (gm_is(fn, syn->sym.identifier)) {
                if (gm_symbols_is_imported(r->stmt->symbols, gm_node_slice(fn, text_of(r))))
                    return value(GM_KIND_UNKNOWN);
                if (gm_vk_call_returns_tensor(r, call))
                    return value(GM_KIND_TENSOR); /* a helper of the file returning tensors */
                return eval_builtin(r, name, call, depth);
            }
            /* A function of another imported module (np.sum, math.prod): no evidence. */
            if (gm_symbols_is_imported(r->stmt->symbols, gm_node_slice(head, text_of(r))))
                return value(GM_KIND_UNKNOWN);
        }
    }
    if (gm_is(fn, syn->sym.attribute)) {
        if (gm_vk_is_submodule(r, fn))
            return value(GM_KIND_TENSOR);
        TSNode attr = gm_child(fn, syn->field.attribute);
        if (ts_node_is_null(attr))
            return value(GM_KIND_UNKNOWN);
        /* what a random.Random object draws is fed to the graph like random.randint's (its
         * random() too, which the module's own random.random() is not) */
        if (gm_vk_slice_in_list(random_draws, gm_node_slice(attr, text_of(r))) &&
            gm_region_is_instance_of(r, gm_child(fn, syn->field.object), GM_INSTANCE_PYTHON_RANDOM))
            return value(GM_KIND_TENSOR);
        return eval_method(r, call, gm_child(fn, syn->field.object),
                           gm_node_slice(attr, text_of(r)), depth);
    }
    /* self.layers[i](x): an entry of a submodule container. */
    if (gm_is(fn, syn->sym.subscript) && gm_vk_is_submodule(r, gm_child(fn, syn->field.value)))
        return value(GM_KIND_TENSOR);
    return value(GM_KIND_UNKNOWN);
}

/* ---- expressions --------------------------------------------------------------------- */

static gm_value eval_attribute(gm_region *r, TSNode n, int depth) {
    const gm_syntax *syn = syn_of(r);
    TSNode attr = gm_child(n, syn->field.attribute);
    TSNode object = gm_unparen(syn, gm_child(n, syn->field.object));
    if (ts_node_is_null(attr))
        return value(GM_KIND_UNKNOWN);
    gm_slice name = gm_node_slice(attr, text_of(r));
    if (gm_vk_slice_in_list(gm_vk_static_attributes, name))
        return value(GM_KIND_STATIC);
    /* also `self.training` in a decorator's wrapper `def wrapper(self, *args, **kwargs)`, which
     * a module's forward runs through (transformers' output-capturing wrappers): no method,
     * but the object called self is the module */
    if ((gm_vk_is_self(r, object) || (r->self_name.len == 0 && gm_is(object, syn->sym.identifier) &&
                                      gm_slice_is(gm_node_slice(object, text_of(r)), "self"))) &&
        gm_slice_is(name, "training"))
        return constant(r->stmt->options->training);
    if (gm_vk_is_self_attribute(r, n)) { /* assigned in the region before */
        const gm_binding *b = gm_vk_env_find(&r->env, gm_node_slice(n, text_of(r)));
        if (b)
            return value(b->kind);
    }
    if (gm_vk_is_self(r, object) && r->site.module_class && is_buffer(r, name))
        return value(GM_KIND_TENSOR);
    TSNode head = gm_chain_head(syn, n);
    if (!ts_node_is_null(head) && !gm_vk_head_is_local(r, head)) {
        char full[GM_NAME_MAX];
        if (gm_symbols_resolve(r->stmt->symbols, syn, text_of(r), n, full, sizeof full) &&
            strncmp(full, "torch.", 6) == 0)
            return value(GM_KIND_STATIC); /* torch.float32, torch.pi, ... */
    }
    gm_kind k = eval(r, object, depth + 1).kind;
    if (k == GM_KIND_TENSOR && gm_vk_slice_in_list(gm_vk_tensor_attributes, name))
        return value(GM_KIND_TENSOR);
    return value(GM_KIND_UNKNOWN);
}

static gm_value eval_boolean(gm_region *r, TSNode n, int depth) {
    const gm_syntax *syn = syn_of(r);
    TSNode op = gm_child(n, syn->field.operator);
    bool is_and = !ts_node_is_null(op) && strcmp(ts_node_type(op), "and") == 0;
    gm_value left = eval(r, gm_child(n, syn->field.left), depth + 1);
    /* Short-circuit folding: `False and x` is False, `True and x` is x (and dually for or). */
    if (left.constant >= 0) {
        if (left.constant == (is_and ? 0 : 1))
            return left;
        return eval(r, gm_child(n, syn->field.right), depth + 1);
    }
    gm_value right = eval(r, gm_child(n, syn->field.right), depth + 1);
    /* `x or True` is truthy and `x and False` falsy whichever value the left side has at trace
     * time: `torch.jit.is_tracing() or isinstance(x, Proxy) or is_torchdynamo_compiling()`,
     * `self.gradient_checkpointing and self.training` in eval mode. Not for a tensor on the
     * left: its truth value breaks the graph before the right side counts. */
    if (left.kind != GM_KIND_TENSOR && right.constant == (is_and ? 0 : 1))
        return right;
    return value(gm_vk_combine(left.kind, right.kind));
}

static gm_value eval_comparison(gm_region *r, TSNode n, int depth) {
    const gm_syntax *syn = syn_of(r);
    bool identity_only = true, containment = false;
    gm_kind kind = GM_KIND_STATIC;
    TSTreeCursor cursor = ts_tree_cursor_new(n);
    if (ts_tree_cursor_goto_first_child(&cursor)) {
        do {
            TSNode c = ts_tree_cursor_current_node(&cursor);
            if (ts_tree_cursor_current_field_id(&cursor) == syn->field.operators) {
                const char *t = ts_node_type(c);
                if (strcmp(t, "is") != 0 && strcmp(t, "is not") != 0)
                    identity_only = false;
                if (strcmp(t, "in") == 0 || strcmp(t, "not in") == 0)
                    containment = true;
            } else if (ts_node_is_named(c) && !gm_is(c, syn->sym.comment)) {
                kind = gm_vk_combine(kind, eval(r, c, depth + 1).kind);
            }
        } while (ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
    /* `x is None` compares identities, which dynamo knows for tensors too; `v in t` is a
     * Python bool (reading t's data breaks at the comparison itself: gm_rule_tensor_contains). */
    return value(identity_only || containment ? GM_KIND_STATIC : kind);
}

static gm_value eval(gm_region *r, TSNode n, int depth) {
    const gm_syntax *syn = syn_of(r);
    if (ts_node_is_null(n) || depth > GM_MAX_EXPR_DEPTH)
        return value(GM_KIND_UNKNOWN);
    TSSymbol t = ts_node_symbol(n);
    const gm_syntax_symbols *s = &syn->sym;
    if (t == s->parenthesized_expression) {
        n = gm_unparen(syn, n);
        return gm_is(n, s->parenthesized_expression) ? value(GM_KIND_UNKNOWN)
                                                     : eval(r, n, depth + 1);
    }
    if (t == s->identifier) {
        gm_slice name = gm_node_slice(n, text_of(r));
        const gm_binding *b = gm_vk_env_find(&r->env, name);
        int truth = b && r->constant_count ? gm_vk_constant_of(r, name) : -1;
        if (truth >= 0)
            return constant(truth);
        if (b && r->conditional_tensors_off && gm_vk_mark_of(r, name) == GM_MARK_CONDITIONAL)
            return value(GM_KIND_UNKNOWN);
        return value(b ? b->kind : GM_KIND_UNKNOWN);
    }
    if (t == s->true_literal || t == s->false_literal)
        return constant(t == s->true_literal);
    if (t == s->none || t == s->integer || t == s->float_literal || t == s->string ||
        t == s->concatenated_string)
        return value(GM_KIND_STATIC);
    if (t == s->call)
        return eval_call(r, n, depth);
    if (t == s->attribute)
        return eval_attribute(r, n, depth);
    if (t == s->subscript) {
        gm_kind k = eval(r, gm_child(n, syn->field.value), depth + 1).kind;
        return value(k == GM_KIND_UNKNOWN ? GM_KIND_UNKNOWN : k);
    }
    if (t == s->not_operator) {
        gm_value v = eval(r, gm_child(n, syn->field.argument), depth + 1);
        if (v.constant >= 0)
            return constant(!v.constant);
        return value(v.kind);
    }
    if (t == s->boolean_operator)
        return eval_boolean(r, n, depth);
    if (t == s->comparison_operator)
        return eval_comparison(r, n, depth);
    if (t == s->binary_operator) {
        TSNode left = gm_child(n, syn->field.left);
        if (gm_is(left, s->string) || gm_is(left, s->concatenated_string))
            return value(GM_KIND_STATIC); /* "%d" % x formats a string */
        return value(gm_vk_combine(eval(r, left, depth + 1).kind,
                                   eval(r, gm_child(n, syn->field.right), depth + 1).kind));
    }
    if (t == s->unary_operator) {
        gm_value v = eval(r, gm_child(n, syn->field.argument), depth + 1);
        return value(v.kind);
    }
    if (t == s->conditional_expression && ts_node_named_child_count(n) >= 3) {
        gm_value cond = eval(r, ts_node_named_child(n, 1), depth + 1);
        if (cond.constant >= 0)
            return eval(r, ts_node_named_child(n, cond.constant ? 0 : 2), depth + 1);
        return value(gm_vk_combine(eval(r, ts_node_named_child(n, 0), depth + 1).kind,
                                   eval(r, ts_node_named_child(n, 2), depth + 1).kind));
    }
    if (t == s->named_expression) {
        unsigned conditional_before = r->conditional_calls;
        gm_value v = eval(r, gm_child(n, syn->field.value), depth + 1);
        TSNode name = gm_child(n, syn->field.name);
        if (gm_is(name, s->identifier)) {
            gm_slice bound = gm_node_slice(name, text_of(r));
            gm_vk_env_set_because(r, bound, v.kind, GM_BECAUSE_ASSIGNED,
                                  gm_child(n, syn->field.value));
            /* a tensor only when a method of the file returns one (as name_binding.c marks) */
            if (v.kind == GM_KIND_TENSOR && r->conditional_calls != conditional_before &&
                !r->conditional_tensors_off) {
                r->conditional_tensors_off = true;
                bool conditional = eval(r, gm_child(n, syn->field.value), depth + 1).kind !=
                                   GM_KIND_TENSOR;
                r->conditional_tensors_off = false;
                if (conditional)
                    gm_vk_mark_set(r, bound, GM_MARK_CONDITIONAL);
            }
        }
        return v;
    }
    if (t == s->assignment)
        return eval(r, gm_child(n, syn->field.right), depth + 1);
    return value(GM_KIND_UNKNOWN);
}

gm_value gm_value_of(gm_region *region, TSNode expr) {
    return eval(region, expr, 0);
}
