/* The @property getters of the module whose body breaks the graph, from the findings of the
 * last analysis run. Reading such a property is not a call: dynamo cannot break at the read (a
 * LOAD_ATTR), so the reading function runs eagerly from there on, and when it has stored a
 * tensor into an attribute before the read dynamo also reports the read itself
 * (step_unsupported). The rules of the reading function need this set, which the getter's own
 * analysis makes: the analyzer runs once more when a run changes it. */
#ifndef GM_ANALYSIS_MODULE_FACTS_BREAKING_PROPERTIES_H
#define GM_ANALYSIS_MODULE_FACTS_BREAKING_PROPERTIES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "analysis/findings/findings.h"
#include "analysis/syntax/syntax.h"

typedef struct {
    char key[128];       /* "Class.property", or "Class.method" for a method that stores */
    const gm_rule *rule; /* of the getter's first break (NULL for a method that stores) */
    uint32_t row;        /* 0-based line of that break */
    /* Where the class is defined when another module defines it (an external fact, the class
     * named as this module's import binds it), as a dotted module name; empty for this one. */
    char module[128];
    /* Not a property: a method of a class with a breaking getter that stores a tensor into an
     * attribute (`self.timesteps = torch.tensor(...)`): calling it before the read makes
     * dynamo report the read too. Known of other modules' classes only. */
    bool stores_tensor;
} gm_breaking_property;

typedef struct gm_breaking_properties {
    gm_breaking_property *items;
    size_t count, capacity;
    uint64_t digest; /* of the keys, rules and rows (0: none): a change means the run was stale */
} gm_breaking_properties;

void gm_breaking_properties_free(gm_breaking_properties *set);

/* Whether a finding predicts a break (not one about the file itself, GM0xx, or its comments,
 * GM9xx): only those make a getter break. */
bool gm_breaking_properties_counts(const gm_finding *finding);

/* "Class.name" of the @property getter whose own body (not a def nested in it) holds byte,
 * looked for inside scope (the top-level statement that holds byte, or the module), into key;
 * false when byte is in no such getter or the key does not fit. The analyzer asks once per
 * finding when it analyses a statement and keeps the answer with the statement's results. */
bool gm_breaking_property_getter_key(const gm_syntax *syntax, const char *text, TSNode scope,
                                     uint32_t byte, char *key, size_t size);

/* A finding in a getter's body that predicts a break, in file order. */
typedef struct {
    const char *key; /* "Class.property" (gm_breaking_property_getter_key) */
    const gm_rule *rule;
    uint32_t row; /* 0-based line of the finding */
} gm_getter_break;

/* Rebuilds set from the breaks of the last analysis run (in file order), then adds the facts
 * other modules give of the classes this one imports (gm_workspace_graph_roots' "property:" and
 * "stores:" facts, whole). Returns 1 when it changed, 0 when it is the same, -1 on OOM (set left
 * empty). */
int gm_breaking_properties_collect(gm_breaking_properties *set, const gm_getter_break *breaks,
                                   size_t break_count, const char *const *external,
                                   size_t external_count);

/* Adds a method of this module's class_name that stores a tensor into an attribute (what other
 * modules learn with the getters). Returns 0, or -1 on OOM. The digest is left as it is: these
 * follow from the getters and the text. */
int gm_breaking_properties_add_store(gm_breaking_properties *set, gm_slice class_name,
                                     gm_slice method);

/* A fact of an entry for other modules: "property:Class.name:GM202:146:" or
 * "stores:Class.method" (the importing module's graph prefixes the class with its import's
 * name and appends the module), into out. False when it does not fit. */
bool gm_breaking_property_fact(const gm_breaking_property *entry, char *out, size_t cap);

/* Whether a method of class_name that stores a tensor into an attribute is called method. */
bool gm_breaking_properties_stores(const gm_breaking_properties *set, gm_slice class_name,
                                   gm_slice method);

/* The entry for property of class_name, or NULL. */
const gm_breaking_property *gm_breaking_properties_find(const gm_breaking_properties *set,
                                                        gm_slice class_name, gm_slice property);

/* Whether some class's property of that name breaks (a quick test before resolving a read). */
bool gm_breaking_properties_has_name(const gm_breaking_properties *set, gm_slice property);

#endif
