/* File-wide symbols: what the top-level imports bind (local name -> canonical dotted name), the
 * top-level classes and whether they subclass torch.nn.Module, and whether the module rebinds
 * `print`. Everything here is derived from the parts of the file that gm_symbols_scan_top
 * fingerprints, so a cached analysis stays valid while the fingerprint does. */
#ifndef GM_ANALYSIS_MODULE_FACTS_SYMBOLS_H
#define GM_ANALYSIS_MODULE_FACTS_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "analysis/syntax/name_set.h"
#include "analysis/syntax/syntax.h"

#define GM_NAME_MAX 256 /* longest dotted name the analysis resolves */

/* The local of a star import (`from .utils import *`), whose canonical is the module: the
 * names it binds are known only from that module (the workspace's facts spell them bare). */
#define GM_STAR_IMPORT "*"

typedef struct {
    char *local;     /* owned: the name the import binds, or GM_STAR_IMPORT */
    char *canonical; /* owned: what it stands for, e.g. "torch.nn" */
    bool type_only;  /* under `if TYPE_CHECKING:`: resolves names, binds nothing at run time */
} gm_import;

typedef struct {
    char *name;   /* owned */
    char **bases; /* owned: base-class expressions as dotted text, unresolved */
    size_t base_count;
    bool is_module; /* subclasses torch.nn.Module, directly, through same-file classes or through
                       module_bases */
} gm_class_symbol;

typedef struct {
    gm_import *imports; /* in file order; later ones shadow earlier ones */
    size_t import_count, import_capacity;
    gm_class_symbol *classes;
    size_t class_count, class_capacity;
    gm_import *loggers; /* module-level `name = <callee>(...)` with callee ending in getLogger:
                           local = the name, canonical = the callee as written (unresolved) */
    size_t logger_count, logger_capacity;
    char *torch_alias; /* owned: a local name bound to the torch module when the module runs
                          (not only under TYPE_CHECKING), or NULL */
    bool torch_type_checking_only; /* no torch_alias, but torch is imported under
                                      `if TYPE_CHECKING:` (the module keeps torch optional) */
    bool module_binds_print; /* a top-level def/class/import/assignment named print */
    /* a top-level expression statement mentions reorderable_logging_functions (a file that
     * sets dynamo's logging setting itself: analysis/logging_calls/logging_config.c) */
    bool mentions_reorderable_logging;
    /* a top-level statement `torch._dynamo.config.capture_scalar_outputs = True` (the capture
     * mend's line, analysis/mends/capture_scalars.c): the file's compiled code traces
     * data-dependent scalars as symbolic ints, as under the setting */
    bool sets_capture_scalar_outputs;
    /* a top-level class or function runs code under gradient checkpointing
     * (gm_mentions_checkpointing): its modules' bodies may run as a checkpoint's traced body */
    bool uses_gradient_checkpointing;
    /* borrowed, set before gm_symbols_finish: base classes, as this file's imports spell them
     * (".modeling_layers.GradientCheckpointingLayer"), that the workspace knows to be Modules
     * defined in other files (gm_workspace_graph_roots'
     * "module:" facts), so that `class L(GradientCheckpointingLayer)` is a Module here too */
    const char *const *module_bases;
    size_t module_base_count;
} gm_symbols;

void gm_symbols_init(gm_symbols *symbols);

/* Whether text mentions a way to run modules under gradient checkpointing: a checkpoint call
 * (`checkpoint(`, transformers' and diffusers' `_gradient_checkpointing_func`) or transformers'
 * GradientCheckpointingLayer, whose subclasses' calls are checkpointed when it is enabled. */
bool gm_mentions_checkpointing(gm_slice text);
/* The same for a checkpoint call only: code that runs others under checkpointing. */
bool gm_mentions_checkpoint_call(gm_slice text);
void gm_symbols_free(gm_symbols *symbols);

/* 64-bit FNV-1a, the fingerprint hash. */
#define GM_HASH_INIT 0xcbf29ce484222325ull
uint64_t gm_hash_bytes(uint64_t hash, const void *data, size_t len);

/* A hash of len bytes taken a word at a time, for megabytes (a project's sources, a cache's
 * entries): several times faster than gm_hash_bytes, and as good for telling texts apart. */
uint64_t gm_hash_words(const void *data, size_t len);

/* Looks at one child of the module: records what other statements' analysis depends on (imports,
 * class names and bases, bindings of print) in symbols when symbols is non-NULL, and mixes the
 * same records, plus decorators and top-level function names, into *hash: equal hashes mean equal
 * symbols, however the text was parsed. Returns 0, or -1 on OOM. */
int gm_symbols_scan_top(gm_symbols *symbols, const gm_syntax *syntax, const char *text,
                        TSNode child, uint64_t *hash);

/* After all children were scanned: resolves class bases and torch_alias. Returns 0 or -1. */
int gm_symbols_finish(gm_symbols *symbols);

/* A view of base with the imports of the import statements given (those inside a function
 * body: `import torch` in a helper of a module that does not import it), which shadow base's
 * and follow them in imports. Borrows everything else from base, which must outlive it and
 * stay unchanged. Returns 0, or -1 on OOM (nothing to free then). */
int gm_symbols_overlay(gm_symbols *overlay, const gm_symbols *base, const gm_syntax *syntax,
                       const char *text, const TSNode *imports, size_t count);
void gm_symbols_overlay_free(gm_symbols *overlay, const gm_symbols *base);

/* Whether an import at index from or later binds name (the ones an overlay added). */
bool gm_symbols_imported_after(const gm_symbols *symbols, size_t from, gm_slice name);

/* Canonical dotted name of an identifier/attribute chain with the head resolved through the
 * imports ("th.compile" -> "torch.compile"); names that no import binds stay as written. A
 * link of the chain may be `getattr(obj, "name")` (two arguments, a literal name).
 * Writes a NUL-terminated string into buf; false when node is not such a chain or too long. */
bool gm_symbols_resolve(const gm_symbols *symbols, const gm_syntax *syntax, const char *text,
                        TSNode node, char *buf, size_t cap);

/* The canonical name of a dotted string ("h.norm" -> "pkg.helpers.norm", "norm" ->
 * ".helpers.norm" for a relative import) when an import binds its head; false otherwise or when
 * it does not fit in buf. */
bool gm_symbols_resolve_imported(const gm_symbols *symbols, const char *dotted, char *buf,
                                 size_t cap);

/* Whether an import of the file binds name (the head of a dotted name: "np" in np.sum). */
bool gm_symbols_is_imported(const gm_symbols *symbols, gm_slice name);

/* Whether a class with these base expressions (a superclasses argument_list, may be null)
 * subclasses torch.nn.Module, directly or through a top-level class of the file. */
bool gm_symbols_bases_are_module(const gm_symbols *symbols, const gm_syntax *syntax,
                                 const char *text, TSNode superclasses);

/* Whether the function (its parameters and body, not nested function or class bodies) binds
 * name locally: parameter, assignment, for/with/except target, walrus, import, nested def. */
bool gm_function_binds(const gm_syntax *syntax, const char *text, TSNode function,
                       const char *name);

/* Every name gm_function_binds would answer true for, into out (cleared first): build it once
 * when a function is asked about many names. Returns 0, or -1 on OOM (out is then partial). */
int gm_function_bound_names(const gm_syntax *syntax, const char *text, TSNode function,
                            gm_name_set *out);

/* The same in pieces, for a walk of the body that looks for other things too: what the
 * function's parameters bind, added to out; and, for each node of a pre-order walk of the body
 * (the body node first), what the node binds by itself, added to out, returning whether the
 * walk enters the node (not nested definitions, lambdas or imports). Sets *oom on OOM. */
int gm_parameters_bind(const gm_syntax *syntax, const char *text, TSNode function,
                       gm_name_set *out);
bool gm_body_node_binds(const gm_syntax *syntax, const char *text, TSNode node, gm_name_set *out,
                        bool *oom);

/* Whether name is bound at module level to `logging.getLogger(...)` (any import alias of
 * logging, or `from logging import getLogger`). */
bool gm_symbols_is_logger(const gm_symbols *symbols, gm_slice name);

/* Whether the dotted name's last component equals word ("a.b.c", "c"). */
bool gm_name_last_is(const char *dotted, const char *word);

#endif
