/* The state shared by the passes that analyse one compiled region: the statement being analysed
 * (for line lookups and output), the region's site, value kinds of its names, and the lexical
 * context (loops, try/with) of the construct being looked at. */
#ifndef GM_ANALYSIS_REGIONS_REGION_H
#define GM_ANALYSIS_REGIONS_REGION_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "analysis/findings/findings.h"
#include "analysis/module_facts/compile_constants.h"
#include "analysis/module_facts/module_index.h"
#include "analysis/module_facts/symbols.h"
#include "analysis/options/analysis_options.h"
#include "analysis/regions/compiled_regions.h"
#include "analysis/syntax/syntax.h"

/* Module-level names of functions wrapped by torch.compiler.disable, of torch.Generator
 * objects and of random.Random objects: the same for every region of a run, so found once per
 * run (gm_region_scan_module). */
typedef struct {
    bool scanned;
    unsigned disabled_count, generator_count, random_instance_count;
    gm_slice disabled[16];
    gm_slice generators[8];
    gm_slice random_instances[8];
} gm_module_scan;

/* What methods of the module's classes return (value_kinds/method_returns.c), remembered for
 * one statement's analysis: class_start is the class's first byte, result a gm_vk_returns.
 * Not per run: an answer depends on how deep the walk that first asked was, so a memo shared
 * by the statements would make each one's findings depend on which were analysed before it
 * (in what order, on which thread, or whether they were reused from the last run). */
typedef struct {
    struct {
        uint32_t class_start;
        gm_slice method;
        uint8_t result;
    } items[64];
    unsigned count;
} gm_method_memo;

/* Whether a module-level function returns a tensor on every path (value_kinds/
 * cross_function_kinds.c), remembered for one statement's analysis by the function's first
 * byte; only answers of a walk asked from the region itself (not from inside another walk,
 * whose depth limit changes the answer) are kept. */
typedef struct {
    struct {
        uint32_t def_start;
        bool returns_tensor;
    } items[32];
    unsigned count;
} gm_function_memo;

/* One top-level statement under analysis. */
typedef struct {
    const gm_syntax *syntax;
    const gm_symbols *symbols;
    const gm_analysis_options *options;
    const char *text;
    uint32_t len;
    TSNode top;  /* the module child being analysed */
    TSNode next; /* the module child after it (null at the end): a trailing comment's home */
    gm_finding_list *out; /* receives this statement's findings */
    /* functions whose calls fold to a compile-time constant or return declared tensors
     * (compile_constants.h), sorted by the name a call of them resolves to */
    const gm_function_fact *constants;
    size_t constant_count;
    /* shared by the run's statements, filled on first use (or before the statements are
     * analysed on several threads: gm_stmt_prepare_shared) */
    gm_module_index *module_index; /* the module's classes, functions and words */
    gm_module_scan *module_scan;
    gm_method_memo method_returns; /* this statement's own */
    gm_function_memo function_returns; /* this statement's own */
    /* the module's @property getters that break (module_facts/breaking_properties.h), from the
     * run before; NULL or empty when none */
    const struct gm_breaking_properties *breaking_properties;
    /* The classes (and, for a method looked for in every class, the method names) of other
     * statements whose methods' returns this statement's kinds used (value_kinds/
     * method_returns.c), as gm_dependency_bit bits: the statement is analysed again when a
     * statement defining one of them changes. */
    uint64_t class_deps;
    /* the same for the module-level functions whose returns its kinds used
     * (cross_function_kinds.c), bits of their names */
    uint64_t function_deps;
    /* "key:MASK" facts the workspace gave (sorted): the positional parameters (bit i:
     * parameter i) of this module's functions that compiled code of another module passes
     * tensors to */
    const char *const *passed_args;
    size_t passed_arg_count;
    /* per node of the statement's call part: 1 + the index into entry_names of the entry
     * point that alone compiles it ("pkg.mod.f"), or 0; NULL when none */
    const uint32_t *entry_via;
    const char *const *entry_names;
    /* out, owned: "passes:NAME:MASK" for each call of another module's function (NAME as the
     * imports resolve it) that this statement's compiled code makes with tensors at the
     * positional arguments of MASK (hex) */
    char **passes;
    size_t pass_count, pass_capacity;
    /* the buffers and tensor attributes of the class whose __init__ was scanned last (its
     * first byte + 1 in class_buffers_of; 0: none): the statement's methods share them */
    gm_name_set class_buffers;
    uint32_t class_buffers_of;
    bool oom;
} gm_stmt_ctx;

/* Frees what a statement's analysis owns that no cache entry took over (passes, class
 * buffers). */
void gm_stmt_release(gm_stmt_ctx *st);

/* The bit of a class or method name in gm_stmt_ctx.class_deps (a 64-bit Bloom filter: a shared
 * bit only analyses a statement again for nothing). */
static inline uint64_t gm_dependency_bit(const char *name, size_t len) {
    return 1ull << (gm_hash_bytes(GM_HASH_INIT, name, len) % 64);
}

typedef enum { GM_KIND_UNKNOWN, GM_KIND_STATIC, GM_KIND_SCALAR, GM_KIND_TENSOR } gm_kind;

/* An expression's kind, and its truth value when torch.compile folds it to a constant
 * (is_compiling(), self.training, True): constant is -1 when not a constant, else 0 or 1. */
typedef struct {
    gm_kind kind;
    int constant;
} gm_value;

/* Why the analysis takes a name for a tensor, for messages that say it ("`x` is a tensor
 * because it is annotated `torch.Tensor`"); the binding keeps the source it points at. */
typedef enum {
    GM_BECAUSE_NONE = 0,
    GM_BECAUSE_ANNOTATED,     /* a parameter annotated as a tensor: the annotation */
    GM_BECAUSE_PASSED_TO,     /* a parameter passed first to a torch function: the callee */
    GM_BECAUSE_TENSOR_METHOD, /* a tensor-only method is called on it: the method's name */
    GM_BECAUSE_ASSIGNED,      /* assigned a tensor: the right side */
    GM_BECAUSE_RETURNED,      /* an element of a tuple a function of the file returns: the call */
    GM_BECAUSE_ITERATED,      /* an element of a `for` over a tensor: the iterable */
    GM_BECAUSE_CALLERS_PASS,  /* a parameter every caller in the file passes a tensor */
    GM_BECAUSE_MODULES_PASS,  /* a parameter compiled code of another module passes a tensor */
} gm_tensor_because;

typedef struct {
    gm_slice name;
    gm_kind kind;
    gm_tensor_because because;          /* why a tensor (GM_BECAUSE_NONE: not said) */
    uint32_t evidence_start, evidence_end; /* the source bytes the reason points at */
} gm_binding;

typedef struct {
    gm_binding *items;
    size_t count, capacity;
} gm_kind_env;

typedef struct {
    gm_stmt_ctx *stmt;
    gm_region_site site;
    gm_slice self_name; /* first parameter of a method, or empty */
    gm_kind_env env;
    unsigned loop_depth; /* enclosing for/while bodies (and comprehensions) within the region */
    /* Of loop_depth, the comprehensions that run as frames of their own (before Python 3.12):
     * a break in one makes dynamo skip that frame, not the region's. */
    unsigned comprehension_frame_depth;
    /* Set when a break was found inside such a comprehension: dynamo runs the rest of it
     * eagerly, so the walk reports nothing more until the outermost one ends. */
    bool comprehension_frame_ended;
    unsigned try_depth;  /* enclosing try blocks and non-torch with blocks */
    int print_shadowed;  /* -1 not yet looked up, else whether the region binds print */
    /* Set when a predicted break makes dynamo skip the frame (a break in a loop body, in try or
     * a generic with block, or one it cannot resume from): dynamo never reaches, so never
     * reports, the function's later breaks, and the walk stops. */
    bool frame_skipped;
    /* Set after a statement that always leaves its block (return, raise, break, continue, or
     * an if whose test is always true and whose body leaves): the block's later statements are
     * dead code dynamo never traces (`if is_torchdynamo_compiling(): return`). Compound
     * statements clear it after their blocks unless they leave for certain themselves.
     * exited_by_raise: the way out is a raise, which a context manager may swallow. */
    bool exited, exited_by_raise;
    /* A GM609 finding was made in the region: dynamo gives up on a checkpoint's body at its
     * first side effect. */
    bool checkpoint_side_effect_reported;
    /* The region stored a tensor into an attribute (`self.t = x * 2`, or a method of the file
     * it called did): a later read of a breaking property is then reported where it is read. */
    bool tensor_attribute_stored;
    /* Why the mend builders declined the finding about to be emitted (a static string), or
     * NULL; gm_emit_finding copies it into that finding and clears it. */
    const char *mend_declined;
    /* The dtypes the finding about to be emitted needs (gm_finding.only_when_dtypes), or NULL;
     * gm_emit_finding copies it into that finding and clears it. */
    const char *only_when_dtypes;
    /* The same for the guarding Python condition (gm_finding.only_when_condition). */
    const char *only_when_condition;
    /* The names the region's function binds locally, built at the first gm_region_binds
     * (bound_ready): one walk of the body instead of one per name asked about. */
    gm_name_set bound_names;
    bool bound_ready;
    /* stmt->symbols holds the function's own import statements from this index on (`import
     * torch` in its body): names they bind resolve like the module's imports, not as locals.
     * SIZE_MAX when it has none. */
    size_t local_imports_from;
    /* Attributes the class's __init__ makes nn.LSTM/GRU/RNN modules (GM604), found at the
     * first `self.x(...)` call (rnn_scanned). */
    gm_name_set rnn_attributes;
    bool rnn_scanned;
    /* The same made by the __init__ of a subclass in the file (a base class's forward that
     * calls `self.rnn_v(...)`, which only the subclass makes an LSTM), and that subclass. */
    gm_name_set rnn_subclass_attributes;
    gm_slice rnn_subclass;
    /* The same made by `getattr(nn, name)(...)` with the class's name given at run time (a
     * parameter: torchaudio's SingleRNN), and the condition under which it is an RNN. */
    gm_name_set rnn_named_attributes;
    char rnn_named_condition[96];
    /* Methods of the class decorated with torch.compiler.disable (GM507), found at the first
     * `self.m(...)` call (disabled_methods_scanned). */
    gm_name_set disabled_methods;
    bool disabled_methods_scanned;
    /* Names whose latest assignment is a compile-time constant, with its truth value
     * (`is_tracing = torch.jit.is_tracing() or is_torchdynamo_compiling()`): a test of the name
     * folds as the call would. */
    struct {
        gm_slice name;
        int truth;
    } constants[8];
    unsigned constant_count;
    /* Methods of the class decorated with functools.cached_property (GM607), found at the
     * first self.<attribute> read (cached_properties_scanned). */
    gm_name_set cached_properties;
    bool cached_properties_scanned;
    /* Attributes the class's __init__ assigns a lambda or a functools.partial: plain callables,
     * not submodules, whose calls return what the function does (gm_vk_is_submodule). Found at
     * the first `self.<attribute>(...)` call (plain_callables_scanned). */
    gm_name_set plain_callables;
    bool plain_callables_scanned;
    /* Calls whose value is a tensor only on some paths or for some classes of the receiver
     * (value_kinds/method_returns.c: `cache.get_seq_length()` where one class of the file
     * returns a tensor attribute or 0): how many the region's kinds took for tensors, and the
     * latest, which a finding's condition names. While conditional_tensors_off is set they
     * are unknown, so that a finding can tell whether its construct needs one of them. */
    unsigned conditional_calls;
    TSNode conditional_call;
    bool conditional_tensors_off;
    /* While the walk is in the right operand of `a and b` / `a or b` whose left operand does
     * not fold: the Python test Python evaluates it under ("`a`", "not `a`", joined with ", and "
     * when nested), which gm_emit_finding gives each finding as its condition. Empty outside. */
    char short_circuit[200];
    /* While the walk is in the branch an `isinstance(x, torch.Tensor)` test guards, where the
     * analysis does not know x for a tensor (`isinstance(self.ratio, torch.Tensor)`, ratio a
     * tuple unless the caller passes a tensor): the test as written, which gm_emit_finding gives
     * each finding as its condition. Dynamo knows the type while tracing and follows the branch
     * only for a tensor. Empty outside. */
    char type_guard[160];
} gm_region;

/* Frees the name sets the rules built on region (not its kind environment). */
void gm_region_free_name_sets(gm_region *region);

/* Notes that a break of rule makes dynamo skip the rest of the frame (it cannot resume after
 * it), unless a dynamo setting turns the rule off. */
void gm_region_skip_frame(gm_region *region, const char *rule_id);

/* Whether the region's function binds name locally (a parameter, assignment, import, def...):
 * gm_function_binds, remembered per region. */
bool gm_region_binds(gm_region *region, const char *name);
/* The same for the name an identifier node spells; a name too long to look up counts as bound
 * (nothing is assumed about it). */
bool gm_region_binds_node(gm_region *region, TSNode identifier);

/* The module's disabled functions and generators, scanned from its top-level statements once
 * per run: functions decorated with (or `g = ...(f)` results of) torch.compiler.disable /
 * torch._dynamo.disable, and `G = torch.Generator(...)` / `R = random.Random(...)` names. */
const gm_module_scan *gm_region_scan_module(gm_region *region);

/* Builds now what the statements of a run share and would otherwise fill on first use (the
 * module index's tables and words, the module scan), so that statements analysed at the same
 * time on several threads only read them. st is any statement of the run. */
void gm_stmt_prepare_shared(gm_stmt_ctx *st);

/* Objects the analysis tells by the class that made them. */
typedef enum {
    GM_INSTANCE_TORCH_GENERATOR, /* torch.Generator(...) */
    GM_INSTANCE_PYTHON_RANDOM,   /* random.Random(...) */
} gm_instance_class;

/* Whether expr is such an object: the constructor call itself; a name the region's function
 * assigns the call to (anywhere in its body, nested definitions aside) or annotates a parameter
 * with the class; or, where the function does not bind the name, a module-level name assigned
 * the call. */
bool gm_region_is_instance_of(gm_region *region, TSNode expr, gm_instance_class cls);

#endif
