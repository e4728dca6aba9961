/* What [Where] (where.c) and [Cond] (cond.c) share about a data-dependent branch:
 * the `if` statement a GM101 condition tests and its branches, the condition lowered to a
 * boolean tensor (`and`/`or`/`not` as torch.logical_*), what a branch expression may do when
 * it runs unconditionally, and the comments a rewrite must carry over. */
#ifndef GM_ANALYSIS_MENDS_BRANCH_H
#define GM_ANALYSIS_MENDS_BRANCH_H

#include <stdbool.h>
#include <tree_sitter/api.h>

#include "analysis/mends/rewrite_text.h"
#include "analysis/regions/region.h"

#define GM_BRANCH_MAX_STMTS 32
#define GM_BRANCH_MAX_ELIFS 7

/* One branch of an if: its block and the statements in it (comments and `pass` left out). */
typedef struct {
    TSNode block; /* null for the missing else */
    TSNode stmts[GM_BRANCH_MAX_STMTS];
    unsigned count;
} gm_branch_arm;

typedef struct {
    TSNode stmt;      /* the if_statement */
    TSNode condition; /* its test, parentheses stripped */
    gm_branch_arm then_arm, else_arm;
    /* elif clauses, in order: their tests (parentheses stripped) and branches */
    unsigned elif_count;
    TSNode elif_conditions[GM_BRANCH_MAX_ELIFS];
    gm_branch_arm elif_arms[GM_BRANCH_MAX_ELIFS];
    gm_stmt_layout layout;
    const char *torch; /* how the file names torch */
} gm_branch_if;

/* The if statement whose test is condition, ready for a rewrite; NULL, or why not (a static
 * string): the test of an elif, a while, a statement sharing its line, no torch import... */
const char *gm_branch_if_of(gm_region *region, TSNode condition, gm_branch_if *out);

/* What an expression does when it is evaluated although its branch was not taken. */
typedef enum {
    GM_EXPR_TOTAL,     /* pure, raises nothing and gives finite values and gradients */
    GM_EXPR_PARTIAL,   /* pure, but may raise or give non-finite values (division, log, ...) */
    GM_EXPR_OPAQUE,    /* calls code not seen here (a submodule, a function): fine to run once */
    GM_EXPR_EFFECTFUL, /* may have effects (in-place ops, random draws, unknown calls, ...) */
} gm_expr_effect;

/* The worst over expr; *why says what made it effectful. */
gm_expr_effect gm_branch_expr_effect(gm_region *region, TSNode expr, const char **why);

/* Appends cond lowered to a boolean tensor expression; false with *why when a part of it is
 * not a tensor. */
bool gm_branch_append_condition(gm_text_builder *tb, gm_region *region, TSNode cond,
                                const char *torch, const char **why);

/* A condition `s1 and ... and sk and t1 and ... and tn` whose leading conjuncts are static
 * (dynamo folds them): *static_end is the end byte of sk (0 when k = 0) and the tensor
 * conjuncts t1..tn are appended lowered, as one logical_and. False with *why as above. */
bool gm_branch_append_tensor_conjuncts(gm_text_builder *tb, gm_region *region, TSNode cond,
                                       const char *torch, uint32_t *static_end, const char **why);

/* Appends, each followed by a newline and the statement's indentation, the comments inside
 * node but outside skip_a and skip_b (null nodes skip nothing): a rewrite that replaces node
 * would otherwise drop them. The text that follows lands on the next line, indented. */
void gm_branch_append_comments(gm_text_builder *tb, gm_region *region, TSNode node, TSNode skip_a,
                               TSNode skip_b, const gm_stmt_layout *layout);

/* The assignment `target = value` an expression statement holds, or false. */
bool gm_branch_assignment(const gm_syntax *syntax, TSNode stmt, TSNode *target, TSNode *value);

/* The enclosing function_definition of node, or a null node. */
TSNode gm_branch_function_of(const gm_syntax *syntax, TSNode node);

/* Whether the region bound name before the if (its kind is then known). */
bool gm_branch_bound_before(const gm_region *region, gm_slice name);

/* Whether expr is a call that joins tensors (torch.cat, torch.stack and the like): its result
 * is larger along a dim than any operand, so it cannot share a shape with the other branch. */
bool gm_branch_joins_tensors(const gm_syntax *syntax, const char *text, TSNode expr);

/* Appends "\n<indent>" as the statement's lines end. */
void gm_branch_newline(gm_text_builder *tb, const gm_stmt_layout *layout);

/* [Cond] (cond.c): the if as torch.cond over two local functions, into out (at most
 * one fix). Returns 1, 0 with *why, or -1 on OOM. */
int gm_mend_branch_cond(gm_region *region, const gm_branch_if *branch, gm_fix *out,
                        const char **why);

#endif
