/* What the rest of the workspace needs to know of one module to follow compiled code across
 * imports: its functions, which of them are compiled on their own, whom each calls (in the
 * module, or through an import), what the module compiles of other modules, and its imports
 * (a package's __init__ re-exports names), and its classes with their bases (methods are
 * inherited across modules). Names of other modules stay as the imports spell them: absolute
 * ("pkg.helpers.norm") or relative (".helpers.norm"). */
#ifndef GM_ANALYSIS_MODULE_FACTS_MODULE_SUMMARY_H
#define GM_ANALYSIS_MODULE_FACTS_MODULE_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/module_facts/call_parts.h"
#include "analysis/module_facts/symbols.h"
#include "analysis/options/analysis_options.h"

typedef struct {
    char *key; /* owned: "f", or "C.m" for a method */
    bool root; /* compiled on its own: a decorator, forward of a module, or this module's
                  torch.compile(...) / x.compile() */
    bool traceable;
    /* a module-level function every call of which folds to this truth value while dynamo
     * traces (compile_constants.h), or -1 */
    int8_t returns_constant;
    /* a module-level function: the tensors its return annotation declares */
    gm_return_kinds returns;
    uint32_t callee_start, callee_count;     /* into callees: keys of this module */
    uint32_t external_start, external_count; /* into externals: names in other modules */
} gm_summary_node;

/* A class of the module and its bases: a class of the same module by its name ("Base"), or
 * what an import makes of the base ("pkg.base.Base", ".base.Base", "torch.nn.Module"); bases
 * that are neither (attributes of locals, calls) are left out. */
typedef struct {
    char *name;   /* owned */
    char **bases; /* owned, in the order the class lists them */
    size_t base_count;
    bool is_module; /* known here to subclass torch.nn.Module (symbols.h); the workspace may
                       still find it one through bases in other modules */
} gm_summary_class;

typedef struct gm_module_summary {
    gm_summary_node *nodes; /* sorted by key */
    size_t node_count;
    char **callees; /* owned */
    size_t callee_count;
    char **externals; /* owned */
    size_t external_count;
    /* What this module compiles of others: a function ("pkg.m.f", member NULL) or a class whose
     * instance is compiled ("pkg.m.Net", member "score", or NULL for forward). */
    char **target_names;   /* owned */
    char **target_members; /* owned; entries may be NULL */
    size_t target_count;
    gm_import *imports; /* owned copies of the module's imports */
    size_t import_count;
    gm_summary_class *classes; /* owned, sorted by name */
    size_t class_count;
    /* forward of an nn.Module subclass is compiled (the forward_is_compiled option the summary
     * was built with): the workspace makes it a root of a class that is a Module only through
     * bases in other modules */
    bool forward_is_compiled;
    /* What the module's last analysis found of its classes' @property getters
     * (breaking_properties.h): "property:Class.name:GM202:146" for a getter that breaks (rule
     * and 0-based row of its first break) and "stores:Class.method" for a method of such a
     * class that stores a tensor into an attribute. Owned; none in a summary built without
     * the rules (gm_module_summary_from_source). */
    char **property_facts;
    size_t property_fact_count;
    uint64_t digest; /* of all of the above: equal digests, equal summaries */
} gm_module_summary;

void gm_module_summary_free(gm_module_summary *summary);

/* Builds the summary of a module from its statements' call parts and its symbols. summary is
 * overwritten (not freed). Returns 0, or -1 on OOM (nothing to free then). */
int gm_module_summary_build(const gm_call_part *const *parts, size_t part_count,
                            const gm_symbols *symbols, bool forward_is_compiled,
                            gm_module_summary *summary);

/* Sets the summary's property facts (copies of count strings), folding them into its digest.
 * Returns 0, or -1 on OOM (the summary then has none). */
int gm_module_summary_set_property_facts(gm_module_summary *summary, const char *const *facts,
                                         size_t count);

/* Parses text and builds its summary, without running the rules: for modules of the workspace
 * that no editor has open. Returns 0, or -1 on OOM or when the parser gives up. */
int gm_module_summary_from_source(const char *text, size_t len, const gm_analysis_options *options,
                                  gm_module_summary *summary);

/* A compile call (`torch.compile(model)`, `model.compile()`, `torch.compile(model.forward)`)
 * whose target is defined in another module that an absolute import names: a model of an
 * installed package (`from transformers import BartModel; m = BartModel(cfg)`). */
typedef struct {
    char *name;             /* owned: the class (or function) as the imports make it absolute,
                               "transformers.BartModel" */
    char *member;           /* owned or NULL: the method compiled (NULL: forward, or a function) */
    char *class_as_written; /* owned: the name as the file spells it, "BartModel" */
    uint32_t start_byte, end_byte; /* the compile call */
    uint32_t start_row, start_column, end_row, end_column;
} gm_compile_site;

typedef struct gm_compile_site_list {
    gm_compile_site *items;
    size_t count, capacity;
} gm_compile_site_list;

void gm_compile_site_list_free(gm_compile_site_list *sites);

/* Parses text and lists its compile calls of imported names, in file order. sites is
 * overwritten. Returns 0, or -1 on OOM or when the parser gives up (nothing to free then). */
int gm_imported_compile_sites(const char *text, size_t len, const gm_analysis_options *options,
                              gm_compile_site_list *sites);

/* The same from a module's call parts (an analyzer's, without parsing again). sites is
 * overwritten. Returns 0, or -1 on OOM (nothing to free then). */
int gm_imported_compile_sites_of_parts(const gm_call_part *const *parts, size_t part_count,
                                       const gm_symbols *symbols, bool forward_is_compiled,
                                       gm_compile_site_list *sites);

/* gm_module_summary_build and gm_imported_compile_sites_of_parts in one pass over the parts:
 * the server asks for both after an edit that changes the summary. Both are overwritten.
 * Returns 0, or -1 on OOM (nothing to free then). */
int gm_module_summary_build_with_sites(const gm_call_part *const *parts, size_t part_count,
                                       const gm_symbols *symbols, bool forward_is_compiled,
                                       gm_module_summary *out, gm_compile_site_list *sites);

/* A deep copy of src into dst (overwritten). Returns 0, or -1 on OOM (dst is then empty). */
int gm_compile_site_list_copy(const gm_compile_site_list *src, gm_compile_site_list *dst);

/* A deep copy of src into dst (overwritten). Returns 0, or -1 on OOM (dst is then empty). */
int gm_module_summary_copy(const gm_module_summary *src, gm_module_summary *dst);

/* The class named name, or NULL (the first of them when the module defines it twice). */
const gm_summary_class *gm_module_summary_class(const gm_module_summary *summary, const char *name);

/* The node with key, or NULL. */
const gm_summary_node *gm_module_summary_find(const gm_module_summary *summary, const char *key);

#endif
