/* How torch.compile is spelled: which decorators compile or disable a function (any alias or
 * import form, with or without arguments, functools.partial(torch.compile, ...)), and whether a
 * compile call asks for one graph (fullgraph=True). */
#ifndef GM_ANALYSIS_MODULE_FACTS_DECORATORS_H
#define GM_ANALYSIS_MODULE_FACTS_DECORATORS_H

#include <stdbool.h>
#include <tree_sitter/api.h>

#include "analysis/module_facts/symbols.h"
#include "analysis/syntax/syntax.h"

typedef enum {
    GM_DECORATOR_OTHER,
    GM_DECORATOR_COMPILE, /* torch.compile, torch._dynamo.optimize(...), partial(torch.compile) */
    GM_DECORATOR_DISABLE, /* torch.compiler.disable, torch._dynamo.disable: never traced */
} gm_decorator_kind;

gm_decorator_kind gm_decorator_classify(const gm_symbols *symbols, const gm_syntax *syntax,
                                        const char *text, TSNode decorator);

/* The decorators of a decorated_definition (a null node: none), summarised: DISABLE when one
 * disables, else COMPILE when one compiles; *fullgraph tells whether a compile decorator asks
 * for fullgraph=True. */
gm_decorator_kind gm_decorators_kind(const gm_symbols *symbols, const gm_syntax *syntax,
                                     const char *text, TSNode decorated, bool *fullgraph);

/* Whether every decorator of a decorated_definition hands back the function itself as dynamo
 * calls it: torch.jit's markers (`@torch.jit.unused`, `ignore`, `export`) and `typing.final`
 * set an attribute at most, so what a call returns is what the body returns. */
bool gm_decorators_keep_function(const gm_symbols *symbols, const gm_syntax *syntax,
                                 const char *text, TSNode decorated);

/* Whether a decorated_definition has @property (or functools.cached_property): reading the
 * attribute runs the method, and dynamo inlines it into the reading frame. */
bool gm_decorators_have_property(const gm_syntax *syn, const char *text, TSNode decorated);
/* The same for @property alone: a functools.cached_property's getter runs from its __get__,
 * which before Python 3.12 dynamo does not inline (GM607), so the getter is a frame of its own. */
bool gm_decorators_have_plain_property(const gm_syntax *syn, const char *text, TSNode decorated);

/* Whether a resolved dotted name is torch.compile or torch._dynamo.optimize. */
bool gm_is_compile_name(const char *name);

/* Whether a compile call (torch.compile(...), torch._dynamo.optimize(...), a compile decorator
 * with arguments) asks for one graph: the first break then raises instead of splitting. */
bool gm_compile_call_asks_fullgraph(const gm_syntax *syn, const char *text, TSNode call);

#endif
