/* The call graph's part of one top-level statement: its functions as nodes, what each calls by
 * name, the names each binds, and the compile targets and instance bindings in the statement. A
 * part depends on the statement's text only, so the analyzer keeps it while the statement is
 * unchanged; call_graph.h joins the parts of a file. */
#ifndef GM_ANALYSIS_MODULE_FACTS_CALL_PARTS_H
#define GM_ANALYSIS_MODULE_FACTS_CALL_PARTS_H

#include <stdbool.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "analysis/module_facts/return_annotations.h"
#include "analysis/module_facts/symbols.h"
#include "analysis/options/analysis_options.h"
#include "analysis/syntax/syntax.h"

/* The functions of one top-level statement as nodes of the file's call graph: the statement
 * itself when it is a function, or the methods directly in its body when it is a class, in
 * source order. Each has a key ("f", or "C.m" for a method), whether it is a region on its own
 * (a root), whether compiled code may enter it at all (not disabled, not __init__), and the keys
 * it calls by name: "g" for `g(...)` (unless the function binds g), "C.m" for `self.m(...)` in a
 * method of C, "m.f" for `m.f(...)` when an import binds m, "F.<locals>.g" for a call of a def g
 * nested in F (or in a function around F), and "dec.<return>" for a plain decorator @dec of the
 * function. Defs nested in traceable functions follow the nodes of the statement (after all of
 * them), and so do the GM_CALL_RETURNS nodes of decorators; class and lambda bodies are not
 * looked at for calls; compile targets and instance bindings are collected from the whole
 * statement. */
typedef struct {
    uint64_t hash; /* of key */
    char *key;     /* owned */
} gm_call_key;

/* What a node of a call part stands for. */
typedef enum {
    GM_CALL_FUNCTION, /* a function of the statement: the statement itself or a method */
    GM_CALL_NESTED,   /* a def inside a traceable function: key "<outer key>.<locals>.name" */
    GM_CALL_RETURNS,  /* no function: what a decorator returns, key "<decorator key>.<return>",
                         calling the nested wrapper(s) it returns that call the decorated
                         function; a function decorated with @dec calls "dec.<return>" */
} gm_call_node_kind;

typedef struct {
    gm_call_key key;
    uint8_t kind; /* gm_call_node_kind */
    bool root, traceable;
    uint32_t parent;     /* GM_CALL_NESTED: the node of the enclosing function */
    uint32_t def_offset; /* GM_CALL_NESTED: of its function_definition from the statement start */
    bool fullgraph;      /* a root decorated with torch.compile(fullgraph=True) */
    /* GM_CALL_FUNCTION of a plain module-level function: the truth value every call of it folds
     * to while dynamo traces (gm_function_constant_return), or -1 */
    int8_t returns_constant;
    /* GM_CALL_FUNCTION of a plain module-level function: the tensors its return annotation
     * declares (return_annotations.h) */
    gm_return_kinds returns;
    /* the same when no annotation says: a tensor on every return by the function's own body,
     * as the analyzer found it when it analysed the statement (other modules' calls of it
     * learn it through the summary; this module's own calls walk the body themselves) */
    gm_return_kinds inferred_returns;
    uint32_t callee_start, callee_count; /* into the part's callees */
    /* The names the function binds locally (gm_function_bound_names), into the part's bound;
     * has_bound: found (traceable nodes with a body). Regions reuse them. */
    bool has_bound;
    uint32_t bound_start, bound_count;
} gm_call_node;

/* A name in the statement's text, by offset from the statement's first byte: a cached part
 * stays right while its statement keeps its text, wherever it moves. */
typedef struct {
    uint32_t offset, len;
} gm_bound_name;

/* `torch.compile(x)`, `torch._dynamo.optimize(...)(x)` or `x.compile()` anywhere in the
 * statement: name is x as written ("f", "model", "helpers.f", "Net"), member the method when x
 * is `obj.method` (NULL otherwise). A compiled module runs its forward. */
typedef struct {
    char *name;   /* owned */
    char *member; /* owned or NULL */
    bool fullgraph;
    bool module_compile; /* x.compile(): x is a module instance */
    /* the compile call in the text the part was built from (bytes, 0-based rows and byte
     * columns): where a finding about what it compiles is shown */
    uint32_t start_byte, end_byte, start_row, start_column, end_row, end_column;
} gm_compile_target;

/* `var = Cls(...)` (possibly `Cls(...).eval()`/`.to(...)`) anywhere in the statement: lets a
 * target named var resolve to Cls.forward. */
typedef struct {
    char *var;        /* owned */
    char *class_name; /* owned, as written */
} gm_instance_binding;

typedef struct gm_call_part_s {
    gm_call_node *nodes;
    uint32_t node_count, node_capacity;
    gm_call_key *callees;
    uint32_t callee_count, callee_capacity;
    gm_compile_target *targets;
    uint32_t target_count, target_capacity;
    gm_instance_binding *instances;
    uint32_t instance_count, instance_capacity;
    gm_bound_name *bound;
    uint32_t bound_count, bound_capacity;
    /* Whether the build looked for compile targets and instance bindings (with_targets): a
     * part built without them is stale once the file comes to mention compile. */
    bool targets_collected;
} gm_call_part;

void gm_call_part_free(gm_call_part *part);
uint64_t gm_call_key_hash(const char *key);

/* Whether the function keyed caller calls callee through its `self` (`self.m(...)` or a property
 * read, keyed "C.m" in a method of C or a def nested in one): the instance may be of a subclass
 * of C, whose override runs. Returns m inside callee, or NULL. */
const char *gm_call_self_dispatch(const char *caller, const char *callee);

/* Builds top's part of the call graph into part (zero-initialised by the caller). Compile
 * targets and the instance bindings they read are looked for only with with_targets: a file
 * whose text never names compile or optimize (gm_text_may_name_compile) has none, and its walk
 * then goes straight from one function body to the next. Returns 0, or -1 on OOM (part is then
 * freed). */
int gm_call_part_build(const gm_symbols *symbols, const gm_syntax *syntax, const char *text,
                       const gm_analysis_options *options, TSNode top, bool with_targets,
                       gm_call_part *part);

/* Per node of a call part, what reachability found. */
enum {
    GM_REACH_REACHED = 1u << 0,   /* compiled code runs it: a region */
    GM_REACH_FULLGRAPH = 1u << 1, /* only fullgraph=True compilations reach it */
    GM_REACH_ENTRY = 1u << 2,     /* only an entry point a user may compile reaches it (the
                                     call graph's via says which) */
};

#endif
