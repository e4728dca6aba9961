/* Untraceable calls, each with the registry id torch 2.13 reports (checked with explain and the
 * graph_breaks log): GM501 untraceable-call (GB0007, a function dynamo marks as skipped: every
 * `time` function, `os`/`os.path` functions that touch the system, pickle, torch.save/load,
 * re.finditer, threading, seeding and RNG state, pack_padded_sequence/pad_packed_sequence, loguru's
 * logging methods); GM502 graph-break-call (GB0025); GM503
 * open-call and GM504 input-call (GB0059, builtins without a handler); GM505 json-call (GB0156);
 * GM506 deepcopy-tensor (GB4198, copy.deepcopy of a tensor or a container holding one); GM510
 * third-party-call (GB0007, modules on dynamo's THIRDPARTY_SKIPLIST that the file imports);
 * GM512 deprecated-sdp-kernel-context (torch.backends.cuda.sdp_kernel(...): GB0208 at the
 * call; in a `with`, GB0142 follows and dynamo skips the frame).
 * Names are matched after import resolution; a name the function binds locally shadows the
 * import or builtin. */
#include <stdio.h>
#include <string.h>

#include "analysis/module_facts/symbols.h"
#include "analysis/rules/emit.h"
#include "analysis/rules/rules.h"
#include "analysis/value_kinds/value_kinds.h"

typedef struct {
    const char *name;
    const char *gb; /* what 2.13 reports when it is not GB0007 */
} skipped_call;

static const skipped_call skipped[] = {
    {"pickle.dumps", NULL},
    {"pickle.loads", NULL},
    {"pickle.dump", NULL},
    {"pickle.load", NULL},
    {"torch.save", NULL},
    {"torch.load", NULL},
    {"torch.serialization.save", NULL},
    {"torch.serialization.load", NULL},
    {"re.finditer", NULL},
    /* the random module's functions are methods of its hidden Random instance, in a file
     * dynamo skips; only randint, uniform and randrange are traced (drawn at run time and fed
     * to the graph as inputs). Each verified on torch 2.13. */
    {"random.random", NULL},
    {"random.seed", NULL},
    {"random.getstate", NULL},
    {"random.setstate", NULL},
    {"random.choice", NULL},
    {"random.choices", NULL},
    {"random.sample", NULL},
    {"random.shuffle", NULL},
    {"random.getrandbits", NULL},
    {"random.randbytes", NULL},
    {"random.triangular", NULL},
    {"random.gauss", NULL},
    {"random.normalvariate", NULL},
    {"random.lognormvariate", NULL},
    {"random.expovariate", NULL},
    {"random.vonmisesvariate", NULL},
    {"random.gammavariate", NULL},
    {"random.betavariate", NULL},
    {"random.paretovariate", NULL},
    {"random.weibullvariate", NULL},
    /* torch/jit is on dynamo's skip list; is_scripting/is_tracing/annotate are folded or
     * traced, these are not (verified on torch 2.13) */
    {"torch.jit.isinstance", NULL},
    {"torch.jit.fork", NULL},
    {"torch.jit.wait", NULL},
    {"torch.manual_seed", NULL},
    {"torch.random.manual_seed", NULL},
    {"torch.get_rng_state", NULL},
    {"torch.set_rng_state", NULL},
    {"torch.random.get_rng_state", NULL},
    {"torch.random.set_rng_state", NULL},
    {"torch.autograd.backward", NULL},
    /* the rest of the public functions dynamo's trace_rules marks SkipFunctionVariable
     * (tests/oracle/test_skipped_functions.py holds the table to the installed torch's map) */
    {"torch.cuda.manual_seed", NULL},
    {"torch.cuda.manual_seed_all", NULL},
    {"torch.cuda.random.manual_seed", NULL},
    {"torch.cuda.random.manual_seed_all", NULL},
    {"torch.cuda.get_rng_state", NULL},
    {"torch.cuda.set_rng_state", NULL},
    {"torch.xpu.get_rng_state", NULL},
    {"torch.xpu.set_rng_state", NULL},
    {"torch.cuda.set_device", NULL},
    {"torch.nn.utils.rnn.pack_padded_sequence", NULL},
    {"torch.nn.utils.rnn.pad_packed_sequence", NULL},
    {"torch.to_dlpack", NULL},
    {"torch.resize_as_", NULL},
    {"torch.resize_as_sparse_", NULL},
    {"torch.distributed.destroy_process_group", NULL},
    {"torch.distributions.constraints.is_dependent", NULL},
    {"os.environ.setdefault", NULL},
    {"threading.Lock", NULL},
    {"threading.Event", NULL},
    {"threading.Semaphore", NULL},
    {"threading.Thread", NULL},
    {"threading.current_thread", NULL},
    {"threading.get_ident", NULL},
    {"threading.get_native_id", NULL},
    {"threading.RLock", "GB0156"},
    {"threading.Condition", "GB0156"},
    {"threading.active_count", "GB0142"},
    {"threading.enumerate", "GB0142"},
    {"threading.local", "GB0147"},
};

/* os and os.path functions dynamo traces on 2.13 (pure string work, or the environment
 * mapping). os.path.expandvars is absent from both lists: dynamo reports it elsewhere (a
 * reconstruction failure at the return). */
static const char *const os_traced[] = {
    "os.getenv",
    "os.fspath",
    "os.fsencode",
    "os.fsdecode",
    "os.path.join",
    "os.path.basename",
    "os.path.dirname",
    "os.path.split",
    "os.path.splitext",
    "os.path.splitdrive",
    "os.path.normcase",
    "os.path.isabs",
    "os.path.commonprefix",
    "os.path.commonpath",
    "os.path.expanduser",
    "os.path.expandvars",
};

static const char *const json_calls[] = {"json.dumps", "json.loads", "json.dump", "json.load"};

static const char *const third_party[] = {
    "fx2trt_oss", "hypothesis", "networkx", "onnx",       "onnxruntime", "onnx_tf",
    "pandas",     "sklearn",    "tabulate", "tensorflow", "tensorrt",    "torch2trt",
    "tqdm",       "tree",       "tvm",      "xarray",
};

static bool in_list(const char *name, const char *const *list, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (strcmp(name, list[i]) == 0)
            return true;
    return false;
}

static size_t dots(const char *name) {
    size_t n = 0;
    for (; *name; name++)
        n += *name == '.';
    return n;
}

/* The logging methods of loguru's logger: each reads the caller's frame with sys._getframe,
 * which dynamo skips. */
static const char *const loguru_methods[] = {
    "loguru.logger.trace",   "loguru.logger.debug",    "loguru.logger.info",
    "loguru.logger.success", "loguru.logger.warning",  "loguru.logger.error",
    "loguru.logger.critical", "loguru.logger.exception", "loguru.logger.log",
};

/* The registry id GM501 reports name with (NULL: GB0007), or false when name is not one. */
static bool skipped_function(const char *name, const char **gb) {
    *gb = NULL;
    for (size_t i = 0; i < sizeof skipped / sizeof skipped[0]; i++) {
        if (strcmp(name, skipped[i].name) == 0) {
            *gb = skipped[i].gb;
            return true;
        }
    }
    if (in_list(name, loguru_methods, sizeof loguru_methods / sizeof loguru_methods[0]))
        return true;
    /* every function of time is C; time.struct_time(...) builds a value dynamo knows */
    if (strncmp(name, "time.", 5) == 0 && dots(name) == 1)
        return strcmp(name, "time.struct_time") != 0;
    bool os_fn = strncmp(name, "os.", 3) == 0 && dots(name) == 1;
    bool os_path_fn = strncmp(name, "os.path.", 8) == 0 && dots(name) == 2;
    if (os_fn || os_path_fn)
        return !in_list(name, os_traced, sizeof os_traced / sizeof os_traced[0]);
    return false;
}

static const char *third_party_module(const char *name) {
    for (size_t i = 0; i < sizeof third_party / sizeof third_party[0]; i++) {
        size_t n = strlen(third_party[i]);
        if (strncmp(name, third_party[i], n) == 0 && (name[n] == '.' || name[n] == '\0'))
            return third_party[i];
    }
    return NULL;
}

/* Whether the value of n holds a tensor: a tensor itself, or a list/tuple/set/dict display
 * with a tensor element or value. */
static bool holds_tensor(gm_region *region, TSNode n, int depth) {
    const gm_syntax *syn = region->stmt->syntax;
    n = gm_unparen(syn, n);
    if (ts_node_is_null(n) || depth > 8)
        return false;
    TSSymbol t = ts_node_symbol(n);
    if (t == syn->sym.list || t == syn->sym.tuple || t == syn->sym.set ||
        t == syn->sym.dictionary) {
        for (uint32_t i = 0; i < ts_node_named_child_count(n); i++) {
            TSNode e = ts_node_named_child(n, i);
            if (t == syn->sym.dictionary && ts_node_named_child_count(e) == 2)
                e = ts_node_named_child(e, 1); /* a pair's value */
            if (holds_tensor(region, e, depth + 1))
                return true;
        }
        return false;
    }
    return gm_value_of(region, n).kind == GM_KIND_TENSOR;
}

static TSNode first_argument(const gm_syntax *syn, TSNode call) {
    TSNode args = gm_child(call, syn->field.arguments);
    if (!gm_is(args, syn->sym.argument_list) || ts_node_named_child_count(args) == 0)
        return (TSNode){0};
    TSNode a = ts_node_named_child(args, 0);
    return gm_is(a, syn->sym.keyword_argument) ? (TSNode){0} : a;
}

/* A call that is the iterable of a for statement: iterating over what the call returned. */
static bool is_for_iterable(const gm_syntax *syn, TSNode call) {
    TSNode parent = ts_node_parent(call);
    return gm_is(parent, syn->sym.for_statement) &&
           ts_node_eq(gm_child(parent, syn->field.right), call);
}

/* A call that is the context manager of a with statement (`with open(p) as f:`). */
static bool is_with_item(const gm_syntax *syn, TSNode call) {
    TSNode parent = ts_node_parent(call);
    if (gm_is(parent, syn->sym.as_pattern))
        parent = ts_node_parent(parent);
    return gm_is(parent, syn->sym.with_item);
}

static void builtin_call(gm_region *region, TSNode call, TSNode fn) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    if (!gm_is(fn, syn->sym.identifier))
        return;
    if (gm_node_text_is(fn, st->text, "open")) {
        bool with = is_with_item(syn, call);
        gm_emit_finding_as_written(region, gm_rule_by_id("GM503"), call,
                        with ? "`open()` call: torch.compile cannot trace this builtin (file I/O) "
                               "nor enter the file as a context manager, and cannot resume "
                               "after this break, so the whole function runs eagerly"
                             : "`open()` call: torch.compile cannot trace this builtin (file I/O) "
                               "and breaks the graph here",
                        NULL, 0);
        if (with)
            gm_region_skip_frame(region, "GM503"); /* GB0142 follows: unsupported ctx */
    } else if (gm_node_text_is(fn, st->text, "input")) {
        gm_emit_finding_as_written(region, gm_rule_by_id("GM504"), call,
                        "`input()` call: torch.compile cannot trace this builtin (reading "
                        "stdin) and breaks the graph here",
                        NULL, 0);
    }
}

/* Methods of a random.Random object that dynamo does not support (GB0156 "Unsupported method
 * call"; verified on torch 2.13). random, randint, uniform, randrange, seed and getstate are
 * traced. */
static const char *const random_object_breaking[] = {
    "sample",        "choice",         "choices",         "shuffle",      "gauss",
    "normalvariate", "lognormvariate", "expovariate",     "vonmisesvariate", "gammavariate",
    "betavariate",   "paretovariate",  "weibullvariate",  "triangular",   "getrandbits",
};

/* `rng.sample(...)` on a random.Random object: whether it is one that breaks, reported. */
static bool random_object_call(gm_region *region, TSNode call, TSNode fn) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    if (!gm_is(fn, syn->sym.attribute))
        return false;
    TSNode method = gm_child(fn, syn->field.attribute);
    bool breaking = false;
    for (size_t i = 0; i < sizeof random_object_breaking / sizeof random_object_breaking[0] &&
                       !breaking;
         i++)
        breaking = gm_node_text_is(method, st->text, random_object_breaking[i]);
    if (!breaking ||
        !gm_region_is_instance_of(region, gm_child(fn, syn->field.object), GM_INSTANCE_PYTHON_RANDOM))
        return false;
    gm_slice m = gm_node_slice(method, st->text);
    char message[256];
    snprintf(message, sizeof message,
             "`random.Random.%.*s()` call: torch.compile does not support this method of a "
             "random.Random object and breaks the graph here (torch 2.13 reports GB0156)",
             (int)(m.len > 64 ? 64 : m.len), m.ptr);
    gm_emit_finding_as_written(region, gm_rule_by_id("GM501"), call, message, NULL, 0);
    return true;
}

void gm_rule_untraceable_call(gm_region *region, TSNode call) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    if (random_object_call(region, call, gm_unparen(syn, gm_child(call, syn->field.function))))
        return;
    TSNode head;
    TSNode fn = gm_call_target(syn, call, &head);
    if (ts_node_is_null(fn))
        return;
    if (gm_region_binds_node(region, head))
        return;
    gm_slice hs = gm_node_slice(head, st->text);
    if (!gm_symbols_is_imported(st->symbols, hs)) {
        builtin_call(region, call, fn);
        return;
    }
    char name[GM_NAME_MAX];
    if (!gm_symbols_resolve(st->symbols, syn, st->text, fn, name, sizeof name))
        return;
    char message[GM_NAME_MAX + 256];
    const char *gb;
    const char *module;
    if (strcmp(name, "torch._dynamo.graph_break") == 0) {
        gm_emit_finding_as_written(region, gm_rule_by_id("GM502"), call,
                        "`torch._dynamo.graph_break()` call: an explicit graph break",
                        NULL, 0);
    } else if (strcmp(name, "torch.backends.cuda.sdp_kernel") == 0) {
        /* the call breaks (a torch.* function returning no tensor); entering what it returns
         * cannot be done at all */
        bool with = is_with_item(syn, call);
        gm_emit_finding_as_written(region, gm_rule_by_id("GM512"), call,
                        with ? "`torch.backends.cuda.sdp_kernel()` as a context manager: "
                               "torch.compile cannot enter this deprecated generator context "
                               "manager and cannot resume after the break, so the whole "
                               "function runs eagerly"
                             : "`torch.backends.cuda.sdp_kernel()` call: torch.compile cannot "
                               "trace this deprecated context-manager factory (it returns no "
                               "tensor) and breaks the graph here",
                        NULL, 0);
        if (with)
            gm_region_skip_frame(region, "GM512");
    } else if (skipped_function(name, &gb)) {
        snprintf(message, sizeof message,
                 "`%s()` call: torch.compile skips this function (it cannot trace it) and "
                 "breaks the graph here%s%s%s",
                 name, gb ? " (torch 2.13 reports " : "", gb ? gb : "", gb ? ")" : "");
        gm_emit_finding_as_written(region, gm_rule_by_id("GM501"), call, message, NULL, 0);
    } else if (in_list(name, json_calls, sizeof json_calls / sizeof json_calls[0])) {
        snprintf(message, sizeof message,
                 "`%s()` call: torch.compile cannot trace the json encoder/decoder and breaks "
                 "the graph here",
                 name);
        gm_emit_finding_as_written(region, gm_rule_by_id("GM505"), call, message, NULL, 0);
    } else if (strcmp(name, "copy.deepcopy") == 0) {
        TSNode arg = first_argument(syn, call);
        if (!ts_node_is_null(arg) && holds_tensor(region, arg, 0))
            gm_emit_finding_as_written(region, gm_rule_by_id("GM506"), call,
                            "`copy.deepcopy()` of a tensor: torch.compile does not deep-copy "
                            "tensors while tracing and breaks the graph here",
                            NULL, 0);
    } else if ((module = third_party_module(name)) != NULL) {
        bool iterated = is_for_iterable(syn, call);
        snprintf(message, sizeof message,
                 "`%s()` call: torch.compile skips the third-party module `%s` and breaks the "
                 "graph here%s",
                 name, module,
                 iterated ? "; iterating over its result cannot be traced either, so the whole "
                            "function runs eagerly"
                          : "");
        gm_emit_finding_as_written(region, gm_rule_by_id("GM510"), call, message, NULL, 0);
        if (iterated)
            gm_region_skip_frame(region, "GM510"); /* GB0008 on its __iter__ */
    }
}
