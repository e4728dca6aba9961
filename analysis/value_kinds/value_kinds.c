#include "analysis/value_kinds/value_kinds.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#define GM_MAX_EXPR_DEPTH 200

/* ---- tables ---------------------------------------------------------------------------- */

/* Attributes whose value dynamo knows while tracing, whatever they are read from. */
static const char *const static_attributes[] = {
    "shape",   "dtype",     "device",       "ndim",    "is_cuda",   "requires_grad",
    "is_leaf", "is_sparse", "is_quantized", "is_meta", "is_cpu",    "is_mps",
    "layout",  "names",     "itemsize",     "nbytes",  "is_nested", NULL};

/* Attributes of a tensor that are tensors. */
static const char *const tensor_attributes[] = {"T",    "mT",   "H",    "mH", "data",
                                                "grad", "real", "imag", NULL};

/* Tensor methods returning data-dependent Python values. */
static const char *const scalar_methods[] = {"item",       "tolist",    "__bool__", "__int__",
                                             "__float__",  "__index__", "equal",    "allclose",
                                             "is_nonzero", NULL};

/* Tensor methods returning metadata dynamo knows while tracing. */
static const char *const static_methods[] = {"dim",
                                             "ndimension",
                                             "size",
                                             "numel",
                                             "nelement",
                                             "element_size",
                                             "is_floating_point",
                                             "is_complex",
                                             "is_contiguous",
                                             "is_pinned",
                                             "is_shared",
                                             "is_inference",
                                             "stride",
                                             "storage_offset",
                                             "get_device",
                                             "type",
                                             "__len__",
                                             "has_names",
                                             "is_signed",
                                             "dim_order",
                                             NULL};

/* Tensor methods returning neither tensors nor metadata. */
static const char *const other_methods[] = {"data_ptr",    "untyped_storage", "storage",
                                            "numpy",       "backward",        "register_hook",
                                            "retain_grad", "is_set_to",       NULL};

/* Methods only tensors have among common receivers: calling one is evidence of a tensor. */
static const char *const tensor_reductions[] = {
    "sum", "mean", "max",    "min",    "any",  "all",  "norm",          "abs", "std",
    "var", "prod", "argmax", "argmin", "amax", "amin", "count_nonzero", NULL};

/* Tensor methods no other common receiver has (nn.Module also has float/half/to/cpu, NumPy
 * arrays astype/view/reshape/nonzero, lists count/index): a local name one of them is called on
 * holds a tensor. The op a rule looks at is no evidence by itself (`n.nonzero()` on an
 * unannotated n is not reported). */
static const char *const tensor_evidence_methods[] = {
    "long",          "masked_fill", "masked_fill_", "unsqueeze",    "new_zeros",
    "new_ones",      "new_empty",   "new_full",     "type_as",      "topk",
    "relu",          "clone",       "bool",         "index_select", "contiguous",
    "masked_select", "detach",      "softmax",      "log_softmax",  NULL};

/* Methods of Python's bool (and int): any other method called on the result of a comparison
 * shows that it is a tensor. */
static const char *const bool_methods[] = {
    "as_integer_ratio", "bit_count", "bit_length", "conjugate", "denominator",
    "from_bytes",       "imag",      "numerator",  "real",      "to_bytes",
    "is_integer",       NULL};

/* Tensor methods and torch functions whose result is a boolean tensor of the operand's shape. */
static const char *const mask_methods[] = {
    "bool",        "isnan",     "isinf",       "isfinite",    "isneginf",
    "isposinf",    "isreal",    "logical_not", "logical_and", "logical_or",
    "logical_xor", "eq",        "ne",          "lt",          "le",
    "gt",          "ge",        "greater",     "less",        "greater_equal",
    "less_equal",  "not_equal", "signbit",     NULL};

/* torch functions that return something other than a tensor. */
static const char *const torch_static_functions[] = {
    "torch.is_tensor",
    "torch.is_storage",
    "torch.is_floating_point",
    "torch.is_complex",
    "torch.numel",
    "torch.is_grad_enabled",
    "torch.is_inference_mode_enabled",
    "torch.is_autocast_enabled",
    "torch.get_autocast_gpu_dtype",
    "torch.get_autocast_dtype",
    "torch.get_default_dtype",
    "torch.get_default_device",
    "torch.device",
    "torch.dtype",
    "torch.Size",
    "torch.finfo",
    "torch.iinfo",
    "torch.typename",
    "torch.promote_types",
    "torch.result_type",
    "torch.can_cast",
    "torch.broadcast_shapes",
    "torch.get_num_threads",
    "torch.are_deterministic_algorithms_enabled",
    "torch.is_deterministic_algorithms_warn_only_enabled",
    "torch.sym_int",
    "torch.sym_float",
    "torch.sym_max",
    "torch.sym_min",
    "torch.sym_not",
    "torch.sym_ite",
    "torch.sym_sum",
    "torch.no_grad",
    "torch.enable_grad",
    "torch.set_grad_enabled",
    "torch.inference_mode",
    "torch.autocast",
    "torch.manual_seed",
    "torch.seed",
    "torch.initial_seed",
    "torch.set_default_dtype",
    "torch.set_default_device",
    "torch.set_printoptions",
    "torch.set_num_threads",
    "torch.use_deterministic_algorithms",
    "torch.compile",
    "torch.save",
    "torch.load",
    "torch.Generator",
    "torch.Stream",
    "torch.Event",
    NULL};

static const char *const torch_scalar_functions[] = {"torch.equal", "torch.allclose",
                                                     "torch.is_nonzero", NULL};

/* torch namespaces whose functions do not return tensors (torch.nn.functional is handled
 * before these: its functions do). */
static const char *const torch_static_prefixes[] = {"torch.compiler.",
                                                    "torch.jit.",
                                                    "torch.cuda.",
                                                    "torch.backends.",
                                                    "torch._dynamo.",
                                                    "torch.distributed.",
                                                    "torch.utils.",
                                                    "torch.onnx.",
                                                    "torch.fx.",
                                                    "torch.library.",
                                                    "torch.testing.",
                                                    "torch.profiler.",
                                                    "torch.autograd.profiler.",
                                                    "torch.autograd.graph.",
                                                    "torch.mps.",
                                                    "torch.xpu.",
                                                    "torch.cpu.",
                                                    "torch.amp.",
                                                    "torch.hub.",
                                                    "torch.overrides.",
                                                    "torch.export.",
                                                    "torch.optim.",
                                                    "torch.distributions.",
                                                    "torch._C.",
                                                    "torch.types.",
                                                    "torch.serialization.",
                                                    "torch.random.",
                                                    "torch.multiprocessing.",
                                                    "torch.package.",
                                                    "torch.ao.",
                                                    "torch.quantization.",
                                                    "torch._check",
                                                    "torch._assert",
                                                    "torch._logging.",
                                                    "torch._inductor.",
                                                    "torch.nn.",
                                                    NULL};

/* Calls torch.compile folds to a constant: 1 (True while tracing) or 0. */
static const struct {
    const char *name;
    int value;
} compile_constants[] = {
    {"torch.compiler.is_compiling", 1}, {"torch.compiler.is_dynamo_compiling", 1},
    {"torch._dynamo.is_compiling", 1},  {"torch._utils.is_compiling", 1},
    {"torch.jit.is_scripting", 0},      {"torch.jit.is_tracing", 0},
    {"torch.compiler.is_exporting", 0}, {"torch.onnx.is_in_onnx_export", 0},
};

/* Context managers dynamo re-enters around a graph break instead of falling back. */
static const char *const torch_context_managers[] = {"torch.no_grad",
                                                     "torch.enable_grad",
                                                     "torch.inference_mode",
                                                     "torch.set_grad_enabled",
                                                     "torch.autocast",
                                                     "torch.amp.autocast",
                                                     "torch.cuda.amp.autocast",
                                                     "torch.cpu.amp.autocast",
                                                     "torch.autograd.no_grad",
                                                     "torch.autograd.enable_grad",
                                                     "torch.autograd.set_grad_enabled",
                                                     "torch.autograd.inference_mode",
                                                     "torch.autograd.grad_mode.no_grad",
                                                     "torch.autograd.grad_mode.enable_grad",
                                                     "torch.autograd.grad_mode.set_grad_enabled",
                                                     "torch.autograd.grad_mode.inference_mode",
                                                     "torch.device",
                                                     "torch.cuda.device",
                                                     "torch.cuda.stream",
                                                     "torch.cuda.StreamContext",
                                                     "torch.nn.attention.sdpa_kernel",
                                                     "torch.backends.cuda.sdp_kernel",
                                                     "torch.autograd.profiler.record_function",
                                                     "torch.profiler.record_function",
                                                     NULL};

/* Builtins whose result is a Python value known while tracing. */
static const char *const static_builtins[] = {
    "len",   "isinstance", "issubclass", "hasattr", "callable", "type", "id",
    "range", "str",        "repr",       "format",  "hash",     NULL};

static bool in_list(const char *const *list, const char *word) {
    for (; *list; list++)
        if (strcmp(*list, word) == 0)
            return true;
    return false;
}

static bool slice_in_list(const char *const *list, gm_slice s) {
    for (; *list; list++)
        if (gm_slice_is(s, *list))
            return true;
    return false;
}

static bool has_prefix_in(const char *const *list, const char *name) {
    for (; *list; list++)
        if (strncmp(name, *list, strlen(*list)) == 0)
            return true;
    return false;
}

/* ---- environment --------------------------------------------------------------------- */

void gm_kind_env_free(gm_kind_env *env) {
    free(env->items);
    env->items = NULL;
    env->count = env->capacity = 0;
}

static gm_binding *env_find(const gm_kind_env *env, gm_slice name) {
    for (size_t i = env->count; i-- > 0;) {
        gm_binding *b = &env->items[i];
        if (b->name.len == name.len && memcmp(b->name.ptr, name.ptr, name.len) == 0)
            return b;
    }
    return NULL;
}

/* The truth value name was assigned as a compile-time constant, or -1. */
static int constant_of(const gm_region *r, gm_slice name) {
    for (unsigned i = 0; i < r->constant_count; i++)
        if (gm_slice_eq(r->constants[i].name, name))
            return r->constants[i].truth;
    return -1;
}

static void constant_forget(gm_region *r, gm_slice name) {
    for (unsigned i = 0; i < r->constant_count; i++)
        if (gm_slice_eq(r->constants[i].name, name)) {
            r->constants[i] = r->constants[--r->constant_count];
            return;
        }
}

static void constant_set(gm_region *r, gm_slice name, int truth) {
    constant_forget(r, name);
    if (r->constant_count < sizeof r->constants / sizeof r->constants[0]) {
        r->constants[r->constant_count].name = name;
        r->constants[r->constant_count].truth = truth;
        r->constant_count++;
    }
}

/* Facts about a name beyond its kind live in the environment too, as entries whose name length
 * carries GM_MARK_BIT (so that no lookup of a real name, here or in the mends, matches them) and
 * whose kind field holds a mark_code. A name's mark goes when the name is bound again. */
#define GM_MARK_BIT 0x80000000u

typedef enum {
    MARK_NONE = 0,
    MARK_MASK = 1,      /* a boolean tensor (`keep = x > 0`, `m = w.bool()`) */
    MARK_CMP = 2,       /* a comparison of unknown operands: a bool, or a boolean tensor */
    MARK_ELEM = 3,      /* an element of iterating over a tensor: made in the graph (a select) */
    MARK_TRIED = 4,     /* a parameter whose call sites were looked at without result */
    MARK_CLEARED = 5,   /* a dead mark */
    MARK_ANNOTATED = 6, /* a parameter that is a tensor by its annotation only */
    MARK_GUESSED = 7,   /* a tensor by the guess that self.<attribute>(...) is a submodule */
} mark_code;

static gm_binding *mark_find(const gm_kind_env *env, gm_slice name) {
    uint32_t len = name.len | GM_MARK_BIT;
    for (size_t i = env->count; i-- > 0;) {
        gm_binding *b = &env->items[i];
        if (b->name.len == len && memcmp(b->name.ptr, name.ptr, name.len) == 0)
            return b;
    }
    return NULL;
}

static bool env_grow(gm_region *r) {
    gm_kind_env *env = &r->env;
    if (env->count < env->capacity)
        return true;
    size_t cap = env->capacity ? env->capacity * 2 : 16;
    gm_binding *items = realloc(env->items, cap * sizeof *items);
    if (!items) {
        r->stmt->oom = true;
        return false;
    }
    env->items = items;
    env->capacity = cap;
    return true;
}

static mark_code mark_of(const gm_region *r, gm_slice name) {
    const gm_binding *b = mark_find(&r->env, name);
    return b ? (mark_code)b->kind : MARK_NONE;
}

static void mark_set(gm_region *r, gm_slice name, mark_code code) {
    if (name.len == 0 || (name.len & GM_MARK_BIT))
        return;
    gm_binding *b = mark_find(&r->env, name);
    if (b) {
        b->kind = (gm_kind)code;
        return;
    }
    if (!env_grow(r))
        return;
    gm_binding *m = &r->env.items[r->env.count++];
    m->name.ptr = name.ptr;
    m->name.len = name.len | GM_MARK_BIT;
    m->kind = (gm_kind)code;
}

static void env_set(gm_region *r, gm_slice name, gm_kind kind) {
    if (r->constant_count)
        constant_forget(r, name);
    /* one pass: the binding, and the name's mark, which the new binding ends */
    gm_binding *b = NULL;
    uint32_t marked = name.len | GM_MARK_BIT;
    gm_kind_env *env = &r->env;
    for (size_t i = env->count; i-- > 0;) {
        gm_binding *e = &env->items[i];
        if (e->name.len == name.len && !b) {
            if (memcmp(e->name.ptr, name.ptr, name.len) == 0)
                b = e;
        } else if (e->name.len == marked && memcmp(e->name.ptr, name.ptr, name.len) == 0) {
            e->kind = (gm_kind)MARK_CLEARED;
        }
    }
    if (b) {
        b->kind = kind;
        return;
    }
    if (!env_grow(r))
        return;
    env->items[env->count].name = name;
    env->items[env->count].kind = kind;
    env->count++;
}

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
static gm_kind combine(gm_kind a, gm_kind b) {
    if (a == GM_KIND_TENSOR || b == GM_KIND_TENSOR)
        return GM_KIND_TENSOR;
    if (a == GM_KIND_SCALAR || b == GM_KIND_SCALAR)
        return GM_KIND_SCALAR;
    if (a == GM_KIND_STATIC && b == GM_KIND_STATIC)
        return GM_KIND_STATIC;
    return GM_KIND_UNKNOWN;
}

static const gm_syntax *syn_of(const gm_region *r) {
    return r->stmt->syntax;
}

static const char *text_of(const gm_region *r) {
    return r->stmt->text;
}

static bool is_self(const gm_region *r, TSNode n) {
    if (r->self_name.len == 0 || !gm_is(n, syn_of(r)->sym.identifier))
        return false;
    gm_slice s = gm_node_slice(n, text_of(r));
    return s.len == r->self_name.len && memcmp(s.ptr, r->self_name.ptr, s.len) == 0;
}

/* Whether the head of the chain is a name of the function (a local or self), as opposed to a
 * module, class or function the file imports or defines. */
static bool head_is_local(const gm_region *r, TSNode head) {
    if (ts_node_is_null(head))
        return false;
    gm_slice s = gm_node_slice(head, text_of(r));
    return is_self(r, head) || env_find(&r->env, s) != NULL;
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

/* self.<attr> where attr is not a method of the class: a submodule in a Module's region. */
static bool is_submodule(const gm_region *r, TSNode n) {
    const gm_syntax *syn = syn_of(r);
    n = gm_unparen(syn, n);
    if (!r->site.module_class || !gm_is(n, syn->sym.attribute))
        return false;
    TSNode object = gm_unparen(syn, gm_child(n, syn->field.object));
    TSNode attr = gm_child(n, syn->field.attribute);
    return is_self(r, object) && !ts_node_is_null(attr) &&
           !class_defines(r, gm_node_slice(attr, text_of(r)));
}

static TSNode first_argument(const gm_region *r, TSNode call);

/* Adds to out the names `self_name.register_buffer("name", ...)` calls below n register (not in
 * nested definitions). */
static void note_buffers(gm_region *r, TSNode n, gm_slice self_name, int depth) {
    const gm_syntax *syn = syn_of(r);
    if (ts_node_is_null(n) || depth > 64 || r->stmt->oom)
        return;
    TSSymbol t = ts_node_symbol(n);
    if (t == syn->sym.function_definition || t == syn->sym.class_definition || t == syn->sym.lambda)
        return;
    if (t == syn->sym.call) {
        TSNode fn = gm_unparen(syn, gm_child(n, syn->field.function));
        TSNode first = first_argument(r, n);
        if (gm_is(fn, syn->sym.attribute) && gm_is(first, syn->sym.string) &&
            gm_node_text_is(gm_child(fn, syn->field.attribute), text_of(r), "register_buffer")) {
            TSNode obj = gm_unparen(syn, gm_child(fn, syn->field.object));
            gm_slice lit = gm_node_slice(first, text_of(r));
            /* a plain 'name' or "name" literal */
            if (gm_is(obj, syn->sym.identifier) &&
                gm_slice_eq(gm_node_slice(obj, text_of(r)), self_name) && lit.len >= 3 &&
                (lit.ptr[0] == '"' || lit.ptr[0] == '\'') && lit.ptr[lit.len - 1] == lit.ptr[0] &&
                gm_name_set_add(&r->buffers, (gm_slice){lit.ptr + 1, lit.len - 2}) != 0)
                r->stmt->oom = true;
        }
    }
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; i++)
        note_buffers(r, ts_node_named_child(n, i), self_name, depth + 1);
}

/* Whether text contains word: most __init__ methods register no buffer, and looking at the
 * text is cheaper than walking their trees. */
static bool mentions(gm_slice text, const char *word) {
    size_t n = strlen(word);
    for (uint32_t at = 0; at + n <= text.len; at++)
        if (text.ptr[at] == word[0] && memcmp(text.ptr + at, word, n) == 0)
            return true;
    return false;
}

/* Whether self.name is a buffer the class's __init__ registers. */
static bool is_buffer(gm_region *r, gm_slice name) {
    const gm_syntax *syn = syn_of(r);
    if (!r->buffers_scanned) {
        r->buffers_scanned = true;
        gm_slice self_name;
        TSNode init = gm_class_init(syn, text_of(r), r->site.class_node, &self_name);
        if (!ts_node_is_null(init) && mentions(gm_node_slice(init, text_of(r)), "register_buffer"))
            note_buffers(r, gm_child(init, syn->field.body), self_name, 0);
    }
    return gm_name_set_has(&r->buffers, name);
}

/* ---- calls --------------------------------------------------------------------------- */

static gm_value classify_torch_function(const char *name) {
    if (strncmp(name, "torch.nn.functional.", 20) == 0)
        return value(GM_KIND_TENSOR);
    if (in_list(torch_scalar_functions, name))
        return value(GM_KIND_SCALAR);
    if (in_list(torch_static_functions, name) || has_prefix_in(torch_static_prefixes, name))
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

static TSNode first_argument(const gm_region *r, TSNode call) {
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
static bool call_returns_tuple(gm_region *r, TSNode call, gm_kind *kinds, uint32_t count);
static void resolve_parameter(gm_region *r, TSNode identifier);

/* Whether the region's function binds the chain's head itself (a parameter, say), so that it
 * does not name what the file imports. */
static gm_value eval_builtin(gm_region *r, const char *name, TSNode call, int depth) {
    if (in_list(static_builtins, name))
        return value(GM_KIND_STATIC);
    TSNode arg = first_argument(r, call);
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

static gm_value eval_method(gm_region *r, TSNode receiver, gm_slice method, int depth) {
    gm_kind recv = eval(r, receiver, depth + 1).kind;
    switch (recv) {
    case GM_KIND_TENSOR:
        if (slice_in_list(scalar_methods, method))
            return value(GM_KIND_SCALAR);
        if (slice_in_list(static_methods, method))
            return value(GM_KIND_STATIC);
        if (slice_in_list(other_methods, method))
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
    return value(slice_in_list(tensor_reductions, method) ||
                         slice_in_list(tensor_evidence_methods, method)
                     ? GM_KIND_TENSOR
                     : GM_KIND_UNKNOWN);
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

static gm_value eval_call(gm_region *r, TSNode call, int depth) {
    const gm_syntax *syn = syn_of(r);
    TSNode fn = gm_unparen(syn, gm_child(call, syn->field.function));
    if (ts_node_is_null(fn))
        return value(GM_KIND_UNKNOWN);
    TSNode head = gm_chain_head(syn, fn);
    if (!ts_node_is_null(head) && !head_is_local(r, head)) {
        char name[GM_NAME_MAX];
        if (gm_symbols_resolve(r->stmt->symbols, syn, text_of(r), fn, name, sizeof name)) {
            for (size_t i = 0; i < sizeof compile_constants / sizeof compile_constants[0]; i++)
                if (strcmp(name, compile_constants[i].name) == 0)
                    return constant(compile_constants[i].value);
            if (gm_name_last_is(name, "is_torchdynamo_compiling"))
                return constant(1);
            /* Dynamo draws these at run time and feeds them to the graph as tensor inputs, so
             * branching on them is data-dependent (verified on torch 2.13: GB0170).
             * random.random() is not listed: it breaks at the call itself (GB0007). */
            if ((strcmp(name, "random.uniform") == 0 || strcmp(name, "random.randint") == 0) &&
                !gm_region_binds_node(r, head))
                return value(GM_KIND_TENSOR);
            if (strcmp(name, "copy.deepcopy") == 0 || strcmp(name, "copy.copy") == 0) {
                /* a copy of a tensor is a tensor (when dynamo gets past the copy) */
                TSNode arg = first_argument(r, call);
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
                return eval_builtin(r, name, call, depth);
            }
            /* A function of another imported module (np.sum, math.prod): no evidence. */
            if (gm_symbols_is_imported(r->stmt->symbols, gm_node_slice(head, text_of(r))))
                return value(GM_KIND_UNKNOWN);
        }
    }
    if (gm_is(fn, syn->sym.attribute)) {
        if (is_submodule(r, fn))
            return value(GM_KIND_TENSOR);
        TSNode attr = gm_child(fn, syn->field.attribute);
        if (ts_node_is_null(attr))
            return value(GM_KIND_UNKNOWN);
        return eval_method(r, gm_child(fn, syn->field.object), gm_node_slice(attr, text_of(r)),
                           depth);
    }
    /* self.layers[i](x): an entry of a submodule container. */
    if (gm_is(fn, syn->sym.subscript) && is_submodule(r, gm_child(fn, syn->field.value)))
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
    if (slice_in_list(static_attributes, name))
        return value(GM_KIND_STATIC);
    if (is_self(r, object) && gm_slice_is(name, "training"))
        return constant(r->stmt->options->training);
    if (is_self(r, object) && r->site.module_class && is_buffer(r, name))
        return value(GM_KIND_TENSOR);
    TSNode head = gm_chain_head(syn, n);
    if (!ts_node_is_null(head) && !head_is_local(r, head)) {
        char full[GM_NAME_MAX];
        if (gm_symbols_resolve(r->stmt->symbols, syn, text_of(r), n, full, sizeof full) &&
            strncmp(full, "torch.", 6) == 0)
            return value(GM_KIND_STATIC); /* torch.float32, torch.pi, ... */
    }
    gm_kind k = eval(r, object, depth + 1).kind;
    if (k == GM_KIND_TENSOR && slice_in_list(tensor_attributes, name))
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
    /* `static or True` is truthy and `static and False` falsy whichever value the left side
     * has at trace time: `torch.jit.is_tracing() or isinstance(x, Proxy) or
     * is_torchdynamo_compiling()`. */
    if (left.kind == GM_KIND_STATIC && right.constant == (is_and ? 0 : 1))
        return right;
    return value(combine(left.kind, right.kind));
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
                kind = combine(kind, eval(r, c, depth + 1).kind);
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
        const gm_binding *b = env_find(&r->env, name);
        int truth = b && r->constant_count ? constant_of(r, name) : -1;
        if (truth >= 0)
            return constant(truth);
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
        return value(combine(eval(r, left, depth + 1).kind,
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
        return value(combine(eval(r, ts_node_named_child(n, 0), depth + 1).kind,
                             eval(r, ts_node_named_child(n, 2), depth + 1).kind));
    }
    if (t == s->named_expression) {
        gm_value v = eval(r, gm_child(n, syn->field.value), depth + 1);
        TSNode name = gm_child(n, syn->field.name);
        if (gm_is(name, s->identifier))
            env_set(r, gm_node_slice(name, text_of(r)), v.kind);
        return v;
    }
    if (t == s->assignment)
        return eval(r, gm_child(n, syn->field.right), depth + 1);
    return value(GM_KIND_UNKNOWN);
}

gm_value gm_value_of(gm_region *region, TSNode expr) {
    return eval(region, expr, 0);
}

/* ---- boolean masks ------------------------------------------------------------------- */

/* A comparison with only ==, !=, <, <=, >, >= (not is, in): a bool, or a boolean tensor. */
static bool is_order_comparison(gm_region *r, TSNode n) {
    const gm_syntax *syn = syn_of(r);
    if (!gm_is(n, syn->sym.comparison_operator))
        return false;
    bool any = false, ok = true;
    TSTreeCursor cursor = ts_tree_cursor_new(n);
    if (ts_tree_cursor_goto_first_child(&cursor)) {
        do {
            if (ts_tree_cursor_current_field_id(&cursor) != syn->field.operators)
                continue;
            const char *t = ts_node_type(ts_tree_cursor_current_node(&cursor));
            any = true;
            if (strcmp(t, "<") != 0 && strcmp(t, ">") != 0 && strcmp(t, "<=") != 0 &&
                strcmp(t, ">=") != 0 && strcmp(t, "==") != 0 && strcmp(t, "!=") != 0)
                ok = false;
        } while (ok && ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
    return any && ok;
}

static bool is_mask(gm_region *r, TSNode n, int depth) {
    const gm_syntax *syn = syn_of(r);
    n = gm_unparen(syn, n);
    if (ts_node_is_null(n) || depth > 16)
        return false;
    if (is_order_comparison(r, n))
        return eval(r, n, 0).kind == GM_KIND_TENSOR;
    if (gm_is(n, syn->sym.identifier)) {
        gm_slice name = gm_node_slice(n, text_of(r));
        const gm_binding *b = env_find(&r->env, name);
        return b && b->kind == GM_KIND_TENSOR && mark_of(r, name) == MARK_MASK;
    }
    if (gm_is(n, syn->sym.unary_operator)) {
        TSNode op = gm_child(n, syn->field.operator);
        return !ts_node_is_null(op) && strcmp(ts_node_type(op), "~") == 0 &&
               is_mask(r, gm_child(n, syn->field.argument), depth + 1);
    }
    if (gm_is(n, syn->sym.binary_operator)) {
        TSNode op = gm_child(n, syn->field.operator);
        const char *t = ts_node_is_null(op) ? "" : ts_node_type(op);
        if (strcmp(t, "&") != 0 && strcmp(t, "|") != 0 && strcmp(t, "^") != 0)
            return false;
        TSNode left = gm_child(n, syn->field.left), right = gm_child(n, syn->field.right);
        bool lm = is_mask(r, left, depth + 1), rm = is_mask(r, right, depth + 1);
        return (lm && rm) || (lm && eval(r, right, 0).kind == GM_KIND_TENSOR) ||
               (rm && eval(r, left, 0).kind == GM_KIND_TENSOR);
    }
    if (gm_is(n, syn->sym.call)) {
        TSNode fn = gm_unparen(syn, gm_child(n, syn->field.function));
        if (gm_is(fn, syn->sym.attribute)) {
            TSNode attr = gm_child(fn, syn->field.attribute);
            TSNode head = gm_chain_head(syn, fn);
            char name[GM_NAME_MAX];
            if (!ts_node_is_null(head) && !head_is_local(r, head) &&
                gm_symbols_resolve(r->stmt->symbols, syn, text_of(r), fn, name, sizeof name) &&
                strncmp(name, "torch.", 6) == 0) {
                /* torch.isnan(x), torch.logical_and(a, b) */
                const char *last = strrchr(name, '.') + 1;
                TSNode arg = first_argument(r, n);
                return strchr(name + 6, '.') == NULL && in_list(mask_methods, last) &&
                       strcmp(last, "bool") != 0 && !ts_node_is_null(arg) &&
                       eval(r, arg, 0).kind == GM_KIND_TENSOR;
            }
            if (ts_node_is_null(attr))
                return false;
            gm_slice method = gm_node_slice(attr, text_of(r));
            gm_kind recv = eval(r, gm_child(fn, syn->field.object), 0).kind;
            /* only tensors have .bool() */
            if (gm_slice_is(method, "bool"))
                return recv == GM_KIND_TENSOR || recv == GM_KIND_UNKNOWN;
            return slice_in_list(mask_methods, method) && recv == GM_KIND_TENSOR;
        }
    }
    return false;
}

bool gm_kinds_is_mask(gm_region *region, TSNode expr) {
    return is_mask(region, expr, 0);
}

bool gm_kinds_is_iteration_element(gm_region *region, TSNode identifier) {
    if (!gm_is(identifier, syn_of(region)->sym.identifier))
        return false;
    gm_slice name = gm_node_slice(identifier, text_of(region));
    const gm_binding *b = env_find(&region->env, name);
    return b && b->kind == GM_KIND_TENSOR && mark_of(region, name) == MARK_ELEM;
}

/* ---- assignments --------------------------------------------------------------------- */

static bool is_target_pattern(const gm_syntax *syn, TSNode n) {
    return gm_is(n, syn->sym.pattern_list) || gm_is(n, syn->sym.tuple_pattern) ||
           gm_is(n, syn->sym.list_pattern);
}

static bool is_sequence_literal(const gm_syntax *syn, TSNode n) {
    return gm_is(n, syn->sym.expression_list) || gm_is(n, syn->sym.tuple) ||
           gm_is(n, syn->sym.list);
}

static bool has_splat(const gm_syntax *syn, TSNode n) {
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; i++) {
        TSNode c = ts_node_named_child(n, i);
        if (gm_is(c, syn->sym.list_splat_pattern) || strcmp(ts_node_type(c), "list_splat") == 0)
            return true;
    }
    return false;
}

static void bind(gm_region *r, TSNode target, gm_kind kind, int depth) {
    const gm_syntax *syn = syn_of(r);
    if (ts_node_is_null(target) || depth > 64)
        return;
    if (gm_is(target, syn->sym.identifier)) {
        env_set(r, gm_node_slice(target, text_of(r)), kind);
        return;
    }
    if (gm_is(target, syn->sym.list_splat_pattern)) {
        bind(r, ts_node_named_child(target, 0), GM_KIND_UNKNOWN, depth + 1);
        return;
    }
    if (is_target_pattern(syn, target) || gm_is(target, syn->sym.parenthesized_expression)) {
        uint32_t count = ts_node_named_child_count(target);
        for (uint32_t i = 0; i < count; i++)
            bind(r, ts_node_named_child(target, i), kind, depth + 1);
    }
}

void gm_kinds_bind(gm_region *region, TSNode target, gm_kind kind) {
    bind(region, target, kind, 0);
}

/* Whether a constant value comes from what torch.compile folds (is_compiling(), self.training,
 * ...) rather than from a literal: `use_cache = False` is a default that later code may
 * change on some paths, `is_tracing = torch.jit.is_tracing() or is_compiling()` is not. */
static bool is_folded_call(gm_region *r, TSNode rhs) {
    const gm_syntax *syn = syn_of(r);
    for (int depth = 0; depth < 8; depth++) {
        rhs = gm_unparen(syn, rhs);
        if (!gm_is(rhs, syn->sym.not_operator))
            break;
        rhs = gm_child(rhs, syn->field.argument);
    }
    return !gm_is(rhs, syn->sym.true_literal) && !gm_is(rhs, syn->sym.false_literal);
}

/* Whether the assignment target is in a statement directly in the function body: the names
 * are flow-insensitive, so a constant assigned under an `if` or in a loop (which may not run,
 * or run after a test of the name) is not taken as the name's value. */
static bool is_top_level(gm_region *r, TSNode target) {
    const gm_syntax *syn = syn_of(r);
    TSNode n = ts_node_parent(target); /* the assignment */
    while (gm_is(n, syn->sym.assignment))
        n = ts_node_parent(n);
    if (!gm_is(n, syn->sym.expression_statement))
        return false;
    TSNode block = ts_node_parent(n);
    return gm_is(block, syn->sym.block) && ts_node_eq(ts_node_parent(block), r->site.function);
}

static void assign(gm_region *r, TSNode target, TSNode rhs, int depth) {
    const gm_syntax *syn = syn_of(r);
    if (ts_node_is_null(target) || ts_node_is_null(rhs) || depth > 64)
        return;
    if (gm_is(rhs, syn->sym.assignment)) {
        /* a = b = v: bind b first, then a to v. */
        assign(r, gm_child(rhs, syn->field.left), gm_child(rhs, syn->field.right), depth + 1);
        assign(r, target, gm_child(rhs, syn->field.right), depth + 1);
        return;
    }
    if (is_target_pattern(syn, target) && is_sequence_literal(syn, rhs) &&
        ts_node_named_child_count(target) == ts_node_named_child_count(rhs) &&
        !has_splat(syn, target) && !has_splat(syn, rhs)) {
        uint32_t count = ts_node_named_child_count(target);
        for (uint32_t i = 0; i < count; i++)
            assign(r, ts_node_named_child(target, i), ts_node_named_child(rhs, i), depth + 1);
        return;
    }
    /* `a, b = self.m(...)` where m returns a tuple display: element by element. */
    if (is_target_pattern(syn, target) && gm_is(rhs, syn->sym.call) && !has_splat(syn, target)) {
        gm_kind kinds[16];
        uint32_t count = ts_node_named_child_count(target);
        if (count <= 16 && call_returns_tuple(r, rhs, kinds, count)) {
            for (uint32_t i = 0; i < count; i++)
                bind(r, ts_node_named_child(target, i), kinds[i], 0);
            return;
        }
    }
    /* Unpacking a tensor yields tensors, a shape yields ints, unknown yields unknown. */
    gm_value v = eval(r, rhs, 0);
    bind(r, target, v.kind, 0);
    if (gm_is(target, syn->sym.identifier)) {
        gm_slice name = gm_node_slice(target, text_of(r));
        if (v.kind == GM_KIND_TENSOR && gm_kinds_is_mask(r, rhs))
            mark_set(r, name, MARK_MASK);
        else if (v.kind == GM_KIND_UNKNOWN && is_order_comparison(r, gm_unparen(syn, rhs)))
            mark_set(r, name, MARK_CMP);
        else if (v.kind == GM_KIND_TENSOR && gm_is(gm_unparen(syn, rhs), syn->sym.call) &&
                 is_submodule(r, gm_child(gm_unparen(syn, rhs), syn->field.function)))
            mark_set(r, name, MARK_GUESSED); /* an inherited method may return an int */
    }
    if (v.constant >= 0 && gm_is(target, syn->sym.identifier) && is_folded_call(r, rhs) &&
        is_top_level(r, target))
        constant_set(r, gm_node_slice(target, text_of(r)), v.constant);
}

void gm_kinds_assign(gm_region *region, TSNode target, TSNode rhs) {
    assign(region, target, rhs, 0);
}

void gm_kinds_augment(gm_region *region, TSNode target, TSNode rhs) {
    if (!gm_is(target, syn_of(region)->sym.identifier))
        return;
    gm_kind k = combine(eval(region, target, 0).kind, eval(region, rhs, 0).kind);
    bind(region, target, k, 0);
}

static bool is_builtin_call(gm_region *r, TSNode n, const char *name) {
    const gm_syntax *syn = syn_of(r);
    n = gm_unparen(syn, n);
    if (!gm_is(n, syn->sym.call))
        return false;
    TSNode fn = gm_child(n, syn->field.function);
    if (!gm_is(fn, syn->sym.identifier) || !gm_node_text_is(fn, text_of(r), name))
        return false;
    gm_slice s = gm_node_slice(fn, text_of(r));
    return !env_find(&r->env, s) && !gm_symbols_is_imported(r->stmt->symbols, s);
}

static gm_kind element_kind(gm_region *r, TSNode iterable) {
    if (is_builtin_call(r, iterable, "range"))
        return GM_KIND_STATIC;
    gm_kind k = eval(r, iterable, 0).kind;
    return k == GM_KIND_TENSOR || k == GM_KIND_STATIC ? k : GM_KIND_UNKNOWN;
}

/* Marks the names of target as elements of a tensor (made in the graph by a select). */
static void mark_elements(gm_region *r, TSNode target, int depth) {
    const gm_syntax *syn = syn_of(r);
    if (ts_node_is_null(target) || depth > 8)
        return;
    if (gm_is(target, syn->sym.identifier)) {
        mark_set(r, gm_node_slice(target, text_of(r)), MARK_ELEM);
        return;
    }
    if (is_target_pattern(syn, target) || gm_is(target, syn->sym.parenthesized_expression)) {
        uint32_t count = ts_node_named_child_count(target);
        for (uint32_t i = 0; i < count; i++)
            mark_elements(r, ts_node_named_child(target, i), depth + 1);
    }
}

static void bind_elements(gm_region *r, TSNode target, TSNode iterable) {
    const gm_syntax *syn = syn_of(r);
    TSNode it = gm_unparen(syn, iterable);
    if (gm_is(it, syn->sym.identifier) && !env_find(&r->env, gm_node_slice(it, text_of(r))))
        resolve_parameter(r, it); /* a parameter its callers pass a tensor to */
    gm_kind k = element_kind(r, iterable);
    /* an annotation alone is no proof enough that the elements are made in the graph: RT-DETRv2
     * passes a list of int pairs to a `value_spatial_shapes: Tensor` parameter */
    bool annotated = gm_is(it, syn->sym.identifier) &&
                     mark_of(r, gm_node_slice(it, text_of(r))) == MARK_ANNOTATED;
    bind(r, target, k, 0);
    if (k == GM_KIND_TENSOR && !annotated)
        mark_elements(r, target, 0);
}

void gm_kinds_bind_for(gm_region *region, TSNode target, TSNode iterable) {
    const gm_syntax *syn = syn_of(region);
    if ((gm_is(target, syn->sym.pattern_list) || gm_is(target, syn->sym.tuple_pattern)) &&
        ts_node_named_child_count(target) == 2 && is_builtin_call(region, iterable, "enumerate")) {
        TSNode arg = first_argument(region, gm_unparen(syn, iterable));
        bind(region, ts_node_named_child(target, 0), GM_KIND_STATIC, 0);
        if (ts_node_is_null(arg))
            bind(region, ts_node_named_child(target, 1), GM_KIND_UNKNOWN, 0);
        else
            bind_elements(region, ts_node_named_child(target, 1), arg);
        return;
    }
    bind_elements(region, target, iterable);
}

void gm_kinds_note_call(gm_region *region, TSNode call) {
    const gm_syntax *syn = syn_of(region);
    TSNode fn = gm_unparen(syn, gm_child(call, syn->field.function));
    if (!gm_is(fn, syn->sym.attribute))
        return;
    TSNode obj = gm_unparen(syn, gm_child(fn, syn->field.object));
    TSNode attr = gm_child(fn, syn->field.attribute);
    if (!gm_is(obj, syn->sym.identifier) || ts_node_is_null(attr) || is_self(region, obj))
        return;
    gm_slice name = gm_node_slice(obj, text_of(region));
    gm_slice method = gm_node_slice(attr, text_of(region));
    if (!slice_in_list(tensor_evidence_methods, method)) {
        /* `mask = a > b; mask.nonzero()`: a bool has no such method, so mask is a tensor */
        const gm_binding *b = env_find(&region->env, name);
        if (b && b->kind == GM_KIND_UNKNOWN && mark_of(region, name) == MARK_CMP &&
            !slice_in_list(bool_methods, method) && !(method.len > 0 && method.ptr[0] == '_')) {
            env_set(region, name, GM_KIND_TENSOR);
            mark_set(region, name, MARK_MASK);
        }
        return;
    }
    const gm_binding *b = env_find(&region->env, name);
    if (b ? b->kind != GM_KIND_UNKNOWN : !gm_region_binds_node(region, obj))
        return; /* known already, or not a local (a module, an import) */
    env_set(region, name, GM_KIND_TENSOR);
}

/* ---- parameters ---------------------------------------------------------------------- */

static bool name_is_tensor_type(const char *name) {
    if (strcmp(name, "Tensor") == 0)
        return true;
    if (strncmp(name, "torch.", 6) != 0)
        return false;
    size_t n = strlen(name);
    return n >= 6 && strcmp(name + n - 6, "Tensor") == 0; /* torch.Tensor, torch.LongTensor */
}

/* torch.Tensor, Tensor, Optional[Tensor], Tensor | None. */
static bool is_tensor_annotation(gm_region *r, TSNode type, int depth) {
    const gm_syntax *syn = syn_of(r);
    if (ts_node_is_null(type) || depth > 8)
        return false;
    if (gm_is(type, syn->sym.type) && ts_node_named_child_count(type) > 0)
        return is_tensor_annotation(r, ts_node_named_child(type, 0), depth + 1);
    char name[GM_NAME_MAX];
    if (gm_is(type, syn->sym.identifier) || gm_is(type, syn->sym.attribute))
        return gm_symbols_resolve(r->stmt->symbols, syn, text_of(r), type, name, sizeof name) &&
               name_is_tensor_type(name);
    if (gm_is(type, syn->sym.generic_type) && ts_node_named_child_count(type) == 2) {
        TSNode outer = ts_node_named_child(type, 0);
        TSNode params = ts_node_named_child(type, 1);
        if (!gm_symbols_resolve(r->stmt->symbols, syn, text_of(r), outer, name, sizeof name) ||
            !gm_name_last_is(name, "Optional") || ts_node_named_child_count(params) != 1)
            return false;
        return is_tensor_annotation(r, ts_node_named_child(params, 0), depth + 1);
    }
    if (gm_is(type, syn->sym.binary_operator)) {
        TSNode left = gm_child(type, syn->field.left), right = gm_child(type, syn->field.right);
        bool lt = is_tensor_annotation(r, left, depth + 1);
        bool rt = is_tensor_annotation(r, right, depth + 1);
        return (lt || rt) && (lt || gm_is(left, syn->sym.none)) &&
               (rt || gm_is(right, syn->sym.none));
    }
    return false;
}

/* Whether the region's function is decorated with @staticmethod: its first parameter is then
 * an ordinary argument, not self. */
static bool is_static_method(const gm_region *region) {
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

void gm_kinds_seed_parameters(gm_region *region) {
    const gm_syntax *syn = syn_of(region);
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
            gm_is(name, syn->sym.identifier) && !is_static_method(region)) {
            region->self_name = gm_node_slice(name, text_of(region));
            continue;
        }
        if (!gm_is(name, syn->sym.identifier) || ts_node_is_null(type))
            continue;
        if (is_tensor_annotation(region, type, 0)) {
            env_set(region, gm_node_slice(name, text_of(region)), GM_KIND_TENSOR);
            mark_set(region, gm_node_slice(name, text_of(region)), MARK_ANNOTATED);
        } else if (is_static_annotation(region, type))
            env_set(region, gm_node_slice(name, text_of(region)), GM_KIND_STATIC);
    }
}

/* ---- context managers ---------------------------------------------------------------- */

bool gm_is_torch_context_manager(gm_region *region, TSNode expr) {
    const gm_syntax *syn = syn_of(region);
    expr = gm_unparen(syn, expr);
    if (gm_is(expr, syn->sym.call))
        expr = gm_child(expr, syn->field.function);
    char name[GM_NAME_MAX];
    if (!gm_symbols_resolve(region->stmt->symbols, syn, text_of(region), expr, name, sizeof name))
        return false;
    return in_list(torch_context_managers, name);
}

/* ---- across functions of the file ------------------------------------------------------ */

/* How deep one function's kinds look into another's (a callee's returns, a caller's
 * arguments): each step walks a function, so a chain stays short. The analysis runs on one
 * thread at a time per region, but the counter is per thread all the same. */
#define GM_MAX_FLOW_DEPTH 2
static _Thread_local int flow_depth;

typedef struct {
    TSNode stop; /* walk up to the statement holding this node, or null: the whole body */
    bool stopped;
    bool returns_ok; /* every return seen is a tuple display of count elements */
    unsigned returns;
    uint32_t count;
    gm_kind *kinds; /* per element: tensor only where every return has a tensor */
} flow_walk;

static bool node_holds(TSNode outer, TSNode inner) {
    return ts_node_start_byte(outer) <= ts_node_start_byte(inner) &&
           ts_node_end_byte(inner) <= ts_node_end_byte(outer);
}

static void flow_block(gm_region *r, TSNode block, flow_walk *w, int depth);

static void flow_return(gm_region *r, TSNode ret, flow_walk *w) {
    const gm_syntax *syn = syn_of(r);
    if (!w->kinds)
        return;
    TSNode e = ts_node_named_child_count(ret) ? ts_node_named_child(ret, 0) : (TSNode){0};
    e = gm_unparen(syn, e);
    if (!(gm_is(e, syn->sym.expression_list) || gm_is(e, syn->sym.tuple)) ||
        ts_node_named_child_count(e) != w->count || has_splat(syn, e)) {
        w->returns_ok = false;
        return;
    }
    for (uint32_t i = 0; i < w->count; i++) {
        gm_kind k = eval(r, ts_node_named_child(e, i), 0).kind;
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
            flow_return(r, s, w);
            return;
        }
        uint32_t count = ts_node_named_child_count(s);
        for (uint32_t i = 0; i < count; i++) {
            TSNode e = ts_node_named_child(s, i);
            if (gm_is(e, syn->sym.assignment))
                assign(r, gm_child(e, syn->field.left), gm_child(e, syn->field.right), 0);
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

static void flow_region_init(gm_region *tmp, gm_region *r, TSNode function) {
    memset(tmp, 0, sizeof *tmp);
    tmp->stmt = r->stmt;
    tmp->site = r->site;
    tmp->site.function = function;
    tmp->site.calls = NULL;
    tmp->site.node = 0;
    tmp->print_shadowed = -1;
    gm_kinds_seed_parameters(tmp);
}

static void flow_region_free(gm_region *tmp) {
    gm_kind_env_free(&tmp->env);
    gm_name_set_free(&tmp->bound_names);
    gm_name_set_free(&tmp->rnn_attributes);
    gm_name_set_free(&tmp->disabled_methods);
    gm_name_set_free(&tmp->buffers);
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
        if (!is_self(r, obj) || ts_node_is_null(attr))
            return null;
        return class_method(r, gm_node_slice(attr, text_of(r)));
    }
    if (!gm_is(fn, syn->sym.identifier) || gm_region_binds_node(r, fn) ||
        gm_symbols_is_imported(r->stmt->symbols, gm_node_slice(fn, text_of(r))))
        return null;
    TSNode module = ts_node_parent(r->stmt->top);
    if (ts_node_is_null(module))
        return null;
    gm_slice name = gm_node_slice(fn, text_of(r));
    TSNode found = null;
    TSTreeCursor cursor = ts_tree_cursor_new(module);
    if (ts_tree_cursor_goto_first_child(&cursor)) {
        do {
            TSNode d = def_of(syn, ts_tree_cursor_current_node(&cursor));
            if (!ts_node_is_null(d) &&
                gm_slice_eq(gm_node_slice(gm_child(d, syn->field.name), text_of(r)), name))
                found = d;
        } while (ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
    return found;
}

/* Whether call runs a same-file function whose every return is a tuple display of count
 * elements; kinds gets, per element, tensor where every return has a tensor. */
static bool call_returns_tuple(gm_region *r, TSNode call, gm_kind *kinds, uint32_t count) {
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
    flow_region_init(&tmp, r, def);
    flow_walk w = {.returns_ok = true, .count = count, .kinds = kinds};
    flow_block(&tmp, body, &w, 0);
    flow_region_free(&tmp);
    flow_depth--;
    return w.returns_ok && w.returns > 0;
}

/* The position of name among the parameters of def that a call passes (self left out unless
 * the method is static), or -1; *plain: a plain parameter (not *args, keyword-only...). */
static int parameter_index(const gm_region *r, TSNode def, gm_slice name, bool skip_first) {
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

/* The argument a call passes for the parameter at index called name, or a null node. */
static TSNode argument_for(const gm_region *r, TSNode call, int index, gm_slice name, bool *bad) {
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

typedef struct {
    gm_slice method;
    const char *needle; /* ".method(": subtrees whose text lacks it hold no call site */
    int index;
    gm_slice param;
    unsigned sites, tensors;
    bool bad;
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
        if (gm_is(fn, syn->sym.attribute) && !ts_node_is_null(attr) &&
            gm_slice_eq(gm_node_slice(attr, text_of(r)), q->method)) {
            q->sites++;
            gm_region tmp;
            flow_region_init(&tmp, r, caller);
            TSNode obj = gm_unparen(syn, gm_child(fn, syn->field.object));
            bool bad = !is_self(&tmp, obj);
            TSNode arg = bad ? (TSNode){0} : argument_for(r, n, q->index, q->param, &bad);
            if (!bad && !ts_node_is_null(arg)) {
                flow_walk w = {.stop = n};
                flow_block(&tmp, gm_child(caller, syn->field.body), &w, 0);
                q->tensors += eval(&tmp, arg, 0).kind == GM_KIND_TENSOR;
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
            if (ts_node_is_named(c) && mentions(gm_node_slice(c, text_of(r)), q->needle))
                visit_sites(r, caller, c, q, depth + 1);
        } while (!q->bad && ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
}

/* A parameter of a method of unknown kind that every call of the method in its class
 * (`self.m(...)`, seen with the caller's kinds at the call) passes a tensor: a tensor.
 * Looked at once per parameter and region. */
static void resolve_parameter(gm_region *r, TSNode identifier) {
    const gm_syntax *syn = syn_of(r);
    gm_slice name = gm_node_slice(identifier, text_of(r));
    if (flow_depth >= GM_MAX_FLOW_DEPTH || ts_node_is_null(r->site.class_node) ||
        env_find(&r->env, name) || mark_of(r, name) == MARK_TRIED || is_self(r, identifier))
        return;
    TSNode def = r->site.function;
    TSNode fname = gm_child(def, syn->field.name);
    bool is_static = is_static_method(r);
    int index = parameter_index(r, def, name, !is_static);
    mark_set(r, name, MARK_TRIED);
    if (index < 0 || ts_node_is_null(fname))
        return;
    site_search q = {.method = gm_node_slice(fname, text_of(r)), .index = index, .param = name};
    /* a cheap look at the text first: most methods are not called as self.m( */
    gm_slice class_text = gm_node_slice(r->site.class_node, text_of(r));
    char needle[GM_NAME_MAX + 2];
    if (q.method.len + 2 >= sizeof needle)
        return;
    needle[0] = '.';
    memcpy(needle + 1, q.method.ptr, q.method.len);
    needle[q.method.len + 1] = '(';
    needle[q.method.len + 2] = '\0';
    if (!mentions(class_text, needle))
        return;
    q.needle = needle;
    flow_depth++;
    TSNode body = gm_child(r->site.class_node, syn->field.body);
    TSTreeCursor cursor = ts_tree_cursor_new(body);
    if (!ts_node_is_null(body) && ts_tree_cursor_goto_first_child(&cursor)) {
        do {
            TSNode m = def_of(syn, ts_tree_cursor_current_node(&cursor));
            if (ts_node_is_null(m) || ts_node_eq(m, def) ||
                !mentions(gm_node_slice(m, text_of(r)), needle))
                continue;
            visit_sites(r, m, m, &q, 0);
        } while (!q.bad && q.tensors == q.sites && ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
    flow_depth--;
    if (!q.bad && q.sites > 0 && q.tensors == q.sites)
        env_set(r, name, GM_KIND_TENSOR);
}

static void resolve_in(gm_region *r, TSNode n, int depth) {
    const gm_syntax *syn = syn_of(r);
    if (ts_node_is_null(n) || depth > 16)
        return;
    if (gm_is(n, syn->sym.identifier)) {
        if (!env_find(&r->env, gm_node_slice(n, text_of(r))))
            resolve_parameter(r, n);
        return;
    }
    if (gm_is(n, syn->sym.call) || gm_is(n, syn->sym.lambda) || gm_is(n, syn->sym.attribute))
        return;
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count && i < 32; i++)
        resolve_in(r, ts_node_named_child(n, i), depth + 1);
}

bool gm_kinds_is_guessed_tensor(gm_region *region, TSNode expr) {
    const gm_syntax *syn = syn_of(region);
    expr = gm_unparen(syn, expr);
    if (gm_is(expr, syn->sym.identifier)) {
        return mark_of(region, gm_node_slice(expr, text_of(region))) == MARK_GUESSED;
    }
    return gm_is(expr, syn->sym.call) && is_submodule(region, gm_child(expr, syn->field.function));
}

gm_value gm_value_of_resolved(gm_region *region, TSNode expr) {
    resolve_in(region, expr, 0);
    return eval(region, expr, 0);
}
