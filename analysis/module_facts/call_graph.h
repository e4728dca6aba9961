/* A file's call graph, put together from the parts of its top-level statements: which functions
 * compiled code runs. Roots are functions compiled on their own (decorators, forward of
 * modules), the targets of torch.compile(...) / x.compile() calls in the file, and the functions
 * that compiled code of other modules calls (external roots); from them, calls by name are
 * followed transitively, including methods inherited from same-file base classes and, for
 * `self.m(...)`, the overrides of m in same-file subclasses (the compiled instance may be one of
 * them). Code reached only from fullgraph=True compilations is marked so. */
#ifndef GM_ANALYSIS_MODULE_FACTS_CALL_GRAPH_H
#define GM_ANALYSIS_MODULE_FACTS_CALL_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/module_facts/call_parts.h"
#include "analysis/module_facts/symbols.h"

typedef struct {
    const gm_call_node **nodes; /* all nodes, part by part */
    const gm_call_part **owner; /* the part each node belongs to */
    uint8_t *flags;             /* GM_REACH_* per node, plus private bits while running */
    /* per node with GM_REACH_ENTRY: 1 + the index of the entry key it is reached through */
    uint32_t *via;
    uint32_t current_via; /* while running: the via of what is being reached */
    size_t *queue;
    /* open addressing by key: the first node with the key (index + 1, 0 empty); the others
     * with it follow through same_next (index + 1, 0 ends), so that a key defined many times
     * (a file of many copies of a module) is one slot, whose nodes a color marks once */
    size_t *table;
    uint64_t *table_hash; /* the key hash of each table slot */
    size_t *slot_last;    /* the last node of the slot's key (index + 1) */
    size_t *slot_count;   /* how many nodes have the slot's key */
    uint8_t *slot_colors; /* the colors reach() has marked the slot's nodes with */
    size_t *same_next;    /* per node */
    size_t count, capacity, table_size;
    size_t *classes; /* the symbols' classes by name, built when first needed in a run */
    size_t class_capacity, class_table_size;
    bool classes_ready;
    /* the same-file subclasses of each class (index + 1 into the symbols' classes, 0 ends a
     * list): subclass_head[c] starts c's list in subclass_edges, pairs of (subclass, next);
     * built with the class table */
    size_t *subclass_head, *subclass_edges;
    size_t subclass_head_capacity, subclass_edge_capacity;
    bool subclasses_ready;
    uint64_t digest; /* of the inputs whose reachability `flags` holds */
    bool have_digest;
} gm_call_graph;

void gm_call_graph_free(gm_call_graph *graph);

/* Forgets the last result, so that the next run computes everything. */
void gm_call_graph_invalidate(gm_call_graph *graph);

/* Computes the GM_REACH_* flags of every node of parts (in order: the flags of part i start at
 * the sum of the node counts before it). fingerprint stands for everything of the file besides
 * the parts that reachability depends on (the classes and their bases). external_keys are the
 * file's functions that other modules' compiled code calls. When nothing changed since the last
 * run, the last result is kept. part_digests, when not NULL, holds gm_call_graph_part_digest
 * of each part. Returns 0, or -1 on OOM. */
int gm_call_graph_run(gm_call_graph *graph, const gm_call_part *const *parts, size_t part_count,
                      const uint64_t *part_digests, const gm_symbols *symbols,
                      uint64_t fingerprint, const char *const *external_keys,
                      size_t external_count, const char *const *entry_keys,
                      size_t entry_count);

/* The digest of what the graph reads of one part (its nodes, calls, compile targets and
 * instances; not where the targets are): a caller that keeps parts across runs keeps their
 * digests too and passes them as part_digests, so that a run hashes only the new parts instead
 * of every key of the file. */
uint64_t gm_call_graph_part_digest(const gm_call_part *part);

/* The class whose instance a compile target stands for: the target's own name when the file
 * defines such a class, or the class of an instance binding of that name in parts; NULL. */
const char *gm_call_graph_target_class(const gm_call_part *const *parts, size_t part_count,
                                       const gm_symbols *symbols, const gm_compile_target *target);

#endif
