/* The functions of one top-level statement, as torch.compile sees them: the statement itself when
 * it is a function, or the methods directly in its body when it is a class, in source order, each
 * with whether it is a region on its own (a root: decorated with torch.compile, or forward of an
 * nn.Module when the options say so) and whether compiled code may enter it at all (not
 * disabled, not __init__). The call graph's part of the statement and the compiled regions both
 * follow this order: the index of a function is its node in the statement's call part. */
#ifndef GM_ANALYSIS_MODULE_FACTS_STATEMENT_FUNCTIONS_H
#define GM_ANALYSIS_MODULE_FACTS_STATEMENT_FUNCTIONS_H

#include <stdbool.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "analysis/module_facts/symbols.h"
#include "analysis/options/analysis_options.h"
#include "analysis/syntax/syntax.h"

typedef struct {
    TSNode function;   /* function_definition */
    TSNode decorated;  /* the decorated_definition around it, or a null node */
    TSNode class_node; /* the class_definition whose method it is, or a null node */
    bool module_class; /* the class subclasses torch.nn.Module */
    bool root;         /* a region on its own */
    bool traceable;    /* compiled code may enter it */
    bool fullgraph;    /* a compile decorator asks for fullgraph=True */
    uint32_t index;    /* in source order among the statement's functions */
    int depth;         /* of function below the statement */
} gm_statement_function;

/* Calls fn for each function of top (a child of the module), in source order; stops and returns
 * fn's value when it is non-zero. Returns 0 otherwise. */
typedef int (*gm_statement_function_fn)(void *payload, const gm_statement_function *function);
int gm_statement_functions_each(const gm_symbols *symbols, const gm_syntax *syntax,
                                const char *text, const gm_analysis_options *options, TSNode top,
                                gm_statement_function_fn fn, void *payload);

#endif
