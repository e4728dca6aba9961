/* Which functions of a top-level statement torch.compile traces: functions and methods decorated
 * with torch.compile (any alias, with or without arguments) or torch._dynamo.optimize(...), and
 * forward of torch.nn.Module subclasses when the options say so. */
#ifndef GM_ANALYSIS_REGIONS_COMPILED_REGIONS_H
#define GM_ANALYSIS_REGIONS_COMPILED_REGIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "analysis/options/analysis_options.h"
#include "analysis/module_facts/symbols.h"
#include "analysis/syntax/syntax.h"

typedef struct {
    TSNode function;   /* function_definition */
    TSNode class_node; /* enclosing class_definition, or a null node for a plain function */
    bool module_class; /* the class subclasses torch.nn.Module */
    bool fullgraph;    /* compiled with fullgraph=True (or error_on_graph_break=True): the first
                          break raises torch._dynamo.exc.Unsupported instead of splitting */
    const struct gm_call_part_s *calls; /* the statement's call part, or NULL */
    uint32_t node;                      /* the function's node in calls */
    /* A function defined inside another (a nested def the enclosing code calls, or the wrapper
     * a decorator returns): outer_self is the first parameter of the enclosing method when the
     * nested function can see it (it does not rebind the name), else empty. */
    bool nested;
    gm_slice outer_self;
} gm_region_site;

typedef enum {
    GM_DECORATOR_OTHER,
    GM_DECORATOR_COMPILE, /* torch.compile, torch._dynamo.optimize(...), partial(torch.compile) */
    GM_DECORATOR_DISABLE, /* torch.compiler.disable, torch._dynamo.disable: never traced */
} gm_decorator_kind;

gm_decorator_kind gm_decorator_classify(const gm_symbols *symbols, const gm_syntax *syntax,
                                        const char *text, TSNode decorator);

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
} gm_call_part;

void gm_call_part_free(gm_call_part *part);
uint64_t gm_call_key_hash(const char *key);

/* Builds top's part of the call graph into part (zero-initialised by the caller).
 * Returns 0, or -1 on OOM (part is then freed). */
int gm_call_part_build(const gm_symbols *symbols, const gm_syntax *syntax, const char *text,
                       const gm_analysis_options *options, TSNode top, gm_call_part *part);

/* Per node of a call part, what reachability found. */
enum {
    GM_REACH_REACHED = 1u << 0,   /* compiled code runs it: a region */
    GM_REACH_FULLGRAPH = 1u << 1, /* only fullgraph=True compilations reach it */
};

/* Calls fn for each compiled region in top (a child of the module), in source order; stops and
 * returns fn's value when it is non-zero. Returns 0 otherwise. reach, when non-NULL, has the
 * GM_REACH_* flags of each node of top's call part. */
typedef int (*gm_region_fn)(void *payload, const gm_region_site *site);
int gm_compiled_regions_each(const gm_symbols *symbols, const gm_syntax *syntax, const char *text,
                             const gm_analysis_options *options, TSNode top, const uint8_t *reach,
                             gm_region_fn fn, void *payload);

/* The same, with top's call part (built from top's current text, or NULL): each site's calls
 * and node name the function's node in it. */
int gm_compiled_regions_each_with(const gm_symbols *symbols, const gm_syntax *syntax,
                                  const char *text, const gm_analysis_options *options, TSNode top,
                                  const uint8_t *reach, const gm_call_part *calls, gm_region_fn fn,
                                  void *payload);

/* The names the function of site binds locally, as the call part recorded them, added to out;
 * false when the part has none for it. */
bool gm_region_site_bound_names(const gm_region_site *site, const char *text, TSNode top,
                                gm_name_set *out);

#endif
