/* Where a value goes, for the mends that keep a value a tensor or replace how it is computed:
 * the function around a node, the one assignment that binds a local name, and what each use
 * of a name (or of an expression used in place) does with the value. */
#ifndef GM_ANALYSIS_MENDS_VALUE_USES_H
#define GM_ANALYSIS_MENDS_VALUE_USES_H

#include <stdbool.h>
#include <tree_sitter/api.h>

#include "analysis/regions/region.h"

typedef enum {
    GM_USE_TENSOR_ARITH, /* an operand of + - * / // % ** whose other operand is a tensor */
    GM_USE_RETURNED,     /* returned (alone or in a returned tuple) */
    GM_USE_BREAKS,       /* needs a concrete Python value: control flow, a comparison, range(),
                            a shape or index: a break even with the value captured */
    GM_USE_OTHER,        /* anything else: a call, a container, a string, a rebinding ... */
} gm_use_kind;

typedef struct {
    gm_use_kind kind;
    const char *why; /* static: what the use is, for a declined mend's reason */
    TSNode other;    /* GM_USE_TENSOR_ARITH: the other operand (parentheses stripped) */
    /* GM_USE_TENSOR_ARITH reached through arithmetic with number literals first
     * (`2.0 * s * x`): that arithmetic then runs on a tensor, not on Python numbers */
    bool via_literals;
    /* GM_USE_TENSOR_ARITH: the value is the left operand of `/` (`s / t`): a Python number
     * there runs as t.reciprocal() * s, which rounds differently from a tensor division */
    bool dividend;
} gm_use;

/* The function_definition whose body holds node directly (no lambda, class or nested function
 * in between), or a null node. */
TSNode gm_mend_enclosing_function(const gm_syntax *syntax, TSNode node);

/* Whether the identifier id is the name a binding construct binds (an assignment or for
 * target, a parameter, an import, a def/class name, global/nonlocal, a walrus, ...). */
bool gm_mend_identifier_is_binding(const gm_syntax *syntax, TSNode id);

/* Whether the identifier id stands for a variable (not an attribute name after a dot nor a
 * keyword argument's name). */
bool gm_mend_identifier_is_variable(const gm_syntax *syntax, TSNode id);

/* How many times function binds name (parameters, assignments, every binding construct). */
unsigned gm_mend_binding_count(const gm_syntax *syntax, const char *text, TSNode function,
                               gm_slice name);

/* Whether every variable in expr is bound at most once in function, so expr means the same
 * wherever it is evaluated after those bindings. */
bool gm_mend_names_stable(const gm_syntax *syntax, const char *text, TSNode function, TSNode expr);

/* The right side of `name = rhs`, the only binding of name in function (parameters and every
 * other binding construct count), or a null node. */
TSNode gm_mend_only_assignment(const gm_syntax *syntax, const char *text, TSNode function,
                               gm_slice name);

/* What the value of expr does where it stands (parentheses around it skipped); arithmetic
 * with a number literal is followed to where its result goes. An identifier
 * spelling known_tensor (when not empty) counts as a tensor operand. */
gm_use gm_mend_use_of(gm_region *region, TSNode expr, gm_slice known_tensor);

/* Calls visit for every identifier spelling name in function (nested scopes included) that is
 * a variable and not a binding; stops and returns false when visit does, or when name is bound
 * other than by the assignment whose target is binding (a null node: bound nowhere). */
typedef bool (*gm_use_visit)(void *payload, TSNode identifier);
bool gm_mend_each_use(const gm_syntax *syntax, const char *text, TSNode function, gm_slice name,
                      TSNode binding, gm_use_visit visit, void *payload);

#endif
