/* The module's top-level classes by name and by the names of their bases, and its top-level
 * statements by the identifiers their text holds, built once per analysis run on first use, so
 * that "which class is called X", "which classes subclass X" and "which statements may call X"
 * cost a lookup instead of a walk over every statement of the file (a walk per region made
 * analysis quadratic in the size of the file). */
#ifndef GM_ANALYSIS_MODULE_FACTS_MODULE_INDEX_H
#define GM_ANALYSIS_MODULE_FACTS_MODULE_INDEX_H

#include <stdbool.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "analysis/syntax/syntax.h"

typedef struct {
    gm_slice key; /* borrowed from the text */
    TSNode node;  /* a class or function definition (a decorated one unwrapped) */
} gm_keyed_class;

/* What one top-level statement puts in the index's tables (classes, bases, functions,
 * imports), with names as offsets from the statement's start: the analyzer keeps them with the
 * statement's results, so that a run whose statements mostly did not change builds the tables
 * without walking every class of the file again (gm_module_index_use_facts). */
typedef enum {
    GM_INDEX_NOTHING,
    GM_INDEX_IMPORT,
    GM_INDEX_CLASS,
    GM_INDEX_FUNCTION,
} gm_index_kind;

typedef struct {
    gm_index_kind kind;
    bool decorated;                 /* the class or function is a decorated definition's */
    uint32_t name_offset, name_len; /* of the class or function */
    uint32_t base_count;
    uint32_t *bases; /* owned: offset and length of each base's last component, in pairs */
} gm_index_facts;

/* The facts of statement (a child of the module) into facts (overwritten). Returns 0, or -1 on
 * OOM (nothing to free then). */
int gm_index_facts_of(const gm_syntax *syntax, const char *text, TSNode statement,
                      gm_index_facts *facts);
void gm_index_facts_free(gm_index_facts *facts);

/* The order a table had when it was last sorted (position i held the entry built i-th, in
 * file order): kept by the caller from one run to the next, so that a run whose classes kept
 * their names and bases checks that order in one pass instead of sorting again. */
typedef struct {
    uint32_t *items; /* owned */
    uint32_t count, capacity;
} gm_index_order;

typedef struct {
    gm_index_order names, bases, functions;
} gm_index_orders;

void gm_index_orders_free(gm_index_orders *orders);

typedef struct {
    const gm_syntax *syntax;
    const char *text;
    TSNode module;
    gm_index_orders *orders; /* borrowed, or NULL (gm_module_index_use_orders) */
    /* borrowed, or NULL: the facts of the module's children (nodes), for the tables */
    const TSNode *fact_nodes;
    const gm_index_facts *facts;
    uint32_t fact_count;
    bool built, oom;
    gm_keyed_class *by_name; /* sorted by key, then file order */
    uint32_t name_count;
    gm_keyed_class *functions; /* top-level function definitions by name */
    uint32_t function_count;
    TSNode *imports; /* top-level import statements, in file order */
    uint32_t import_count;
    gm_keyed_class *by_base; /* key: the last component of a base (`Base` of `mod.Base`) */
    uint32_t base_count;
    /* the identifier-like words of each top-level statement's text (comments and strings
     * included: a superset), as an open-addressing table of words, each with the statements
     * that hold it in file order (a range of mention_statements) */
    bool mentions_built;
    TSNode *statements; /* the module's named children, in file order */
    uint32_t statement_count, statement_capacity;
    struct gm_mentioned_word *words;
    uint32_t word_table_size;
    TSNode *mention_statements;
    uint32_t mention_count;
} gm_module_index;

/* Forgets what was built and borrows the module (a module node, or null) of a new run. */
void gm_module_index_reset(gm_module_index *index, const gm_syntax *syntax, const char *text,
                           TSNode module);
void gm_module_index_free(gm_module_index *index);

/* Makes the next build of the tables read facts[i] of nodes[i] (every child of the module that
 * may be an import, class or function, in file order; facts borrowed until the next reset)
 * instead of walking the module. */
void gm_module_index_use_facts(gm_module_index *index, const TSNode *nodes,
                               const gm_index_facts *facts, uint32_t count);

/* Makes the builds of the tables start from orders and leave theirs there (borrowed until the
 * index is freed; a reset keeps it). */
void gm_module_index_use_orders(gm_module_index *index, gm_index_orders *orders);

/* Builds every table and the words now instead of on first use, so that analyses on several
 * threads only read the index afterwards. Sets index->oom when that failed (the lookups then
 * find nothing, as after a failed build on first use). */
void gm_module_index_build_all(gm_module_index *index);

/* The top-level classes named name, in file order: *first and the count (0 when none, or when
 * the index could not be built: check index->oom). */
uint32_t gm_module_index_classes(gm_module_index *index, gm_slice name,
                                 const gm_keyed_class **first);

/* The top-level function definitions named name (decorated ones unwrapped), in file order. */
uint32_t gm_module_index_functions(gm_module_index *index, gm_slice name,
                                   const gm_keyed_class **first);

/* The top-level classes that list a base whose last component is name, in file order. */
uint32_t gm_module_index_subclasses(gm_module_index *index, gm_slice name,
                                    const gm_keyed_class **first);

/* The last top-level import statement that starts before byte, or a null node. */
TSNode gm_module_index_import_before(gm_module_index *index, uint32_t byte);

/* The top-level statements whose text holds name as a whole word (a superset of those that
 * use it: the word may sit in a comment or a string), in file order. */
uint32_t gm_module_index_mentions(gm_module_index *index, gm_slice name, const TSNode **first);

#endif
