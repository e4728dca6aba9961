/* Which functions of a top-level statement torch.compile traces: functions and methods decorated
 * with torch.compile (any alias, with or without arguments) or torch._dynamo.optimize(...), and
 * forward of torch.nn.Module subclasses when the options say so. */
#ifndef GM_ANALYSIS_COMPILED_REGIONS_H
#define GM_ANALYSIS_COMPILED_REGIONS_H

#include <stdbool.h>
#include <tree_sitter/api.h>

#include "analyzer.h"
#include "symbols.h"
#include "syntax.h"

typedef struct {
    TSNode function;   /* function_definition */
    TSNode class_node; /* enclosing class_definition, or a null node for a plain function */
    bool module_class; /* the class subclasses torch.nn.Module */
} gm_region_site;

typedef enum {
    GM_DECORATOR_OTHER,
    GM_DECORATOR_COMPILE, /* torch.compile, torch._dynamo.optimize(...), partial(torch.compile) */
    GM_DECORATOR_DISABLE, /* torch.compiler.disable, torch._dynamo.disable: never traced */
} gm_decorator_kind;

gm_decorator_kind gm_decorator_classify(const gm_symbols *symbols, const gm_syntax *syntax,
                                        const char *text, TSNode decorator);

/* Calls fn for each compiled region in top (a child of the module), in source order; stops and
 * returns fn's value when it is non-zero. Returns 0 otherwise. */
typedef int (*gm_region_fn)(void *payload, const gm_region_site *site);
int gm_compiled_regions_each(const gm_symbols *symbols, const gm_syntax *syntax, const char *text,
                             const gm_analysis_options *options, TSNode top, gm_region_fn fn,
                             void *payload);

#endif
