/* Which functions of a top-level statement torch.compile traces: functions and methods decorated
 * with torch.compile (any alias, with or without arguments) or torch._dynamo.optimize(...),
 * forward of torch.nn.Module subclasses when the options say so, and the functions and nested
 * defs compiled code reaches (the call graph's reachability). Each is a region site. */
#ifndef GM_ANALYSIS_REGIONS_COMPILED_REGIONS_H
#define GM_ANALYSIS_REGIONS_COMPILED_REGIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "analysis/module_facts/call_parts.h"
#include "analysis/module_facts/symbols.h"
#include "analysis/options/analysis_options.h"
#include "analysis/syntax/syntax.h"

typedef struct {
    TSNode function;   /* function_definition */
    TSNode class_node; /* enclosing class_definition, or a null node for a plain function */
    bool module_class; /* the class subclasses torch.nn.Module */
    bool fullgraph;    /* compiled with fullgraph=True (or error_on_graph_break=True): the first
                          break raises torch._dynamo.exc.Unsupported instead of splitting */
    const gm_call_part *calls; /* the statement's call part, or NULL */
    uint32_t node;             /* the function's node in calls */
    /* A function defined inside another (a nested def the enclosing code calls, or the wrapper
     * a decorator returns): outer_self is the first parameter of the enclosing method when the
     * nested function can see it (it does not rebind the name), else empty. */
    bool nested;
    gm_slice outer_self;
    /* the entry point whose compilation alone compiles this function ("pkg.mod.f": a
     * library's public function, when the package itself is checked), or NULL: compiled
     * whatever the user compiles */
    const char *entry;
} gm_region_site;

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
