/* Compiled code across the modules of a workspace. Each module is known by its dotted name and
 * summary; solving follows calls from every module's compiled functions through imports
 * (absolute, relative, and names a package's __init__ re-exports) and finds, per module, the
 * functions that compiled code elsewhere enters: its external roots, which its own analysis then
 * treats as compiled (gm_analyzer_set_external_roots). */
#ifndef GM_ANALYSIS_MODULE_FACTS_WORKSPACE_GRAPH_H
#define GM_ANALYSIS_MODULE_FACTS_WORKSPACE_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/module_facts/module_summary.h"

typedef struct gm_workspace_graph gm_workspace_graph;

gm_workspace_graph *gm_workspace_graph_new(void); /* NULL on OOM */
void gm_workspace_graph_free(gm_workspace_graph *graph);

/* Modules are known by root (the directory their absolute imports start from: the parent of
 * the top package) and dotted name; an import resolves to a module of the importer's root first.
 * Adds module name ("pkg.sub.mod"; is_package for a package's __init__) or replaces its summary,
 * taking over what summary owns (summary is zeroed). Returns 1 when the module is new or its
 * summary changed, 0 when it is the same, -1 on OOM (summary is then freed). */
int gm_workspace_graph_set(gm_workspace_graph *graph, const char *root, const char *name,
                           bool is_package, gm_module_summary *summary);

/* Marks module name (known) as part of a library being checked, or not: its public functions
 * and methods are then entry points a user may compile, and what only they reach is compiled
 * when they are ("entry:" facts of gm_workspace_graph_roots). Returns 0, or -1 when the module
 * is unknown. */
int gm_workspace_graph_set_library(gm_workspace_graph *graph, const char *root, const char *name,
                                   bool library);

/* Forgets module name, if known. */
void gm_workspace_graph_remove(gm_workspace_graph *graph, const char *root, const char *name);

/* The summary of module name, or NULL. */
const gm_module_summary *gm_workspace_graph_summary(const gm_workspace_graph *graph,
                                                    const char *root, const char *name);

size_t gm_workspace_graph_module_count(const gm_workspace_graph *graph);

/* Recomputes every module's external roots. Returns 0, or -1 on OOM (the roots are then
 * empty). */
int gm_workspace_graph_solve(gm_workspace_graph *graph);

/* What module name learns from the others after the last solve (gm_analyzer_set_external_roots
 * takes it as it is), sorted, and a digest of it (0 when empty): the keys of its external roots
 * ("f", "C.m"), and "name=0" / "name=1" for a function of another module it imports that
 * returns a compile-time constant (compile_constants.h), name spelled as its imports spell a
 * call of it (".utils.is_tracing"), and "module:base" for a base class of its classes, spelled as
 * its imports spell it, that another module defines as a torch.nn.Module, and
 * "entry:KEY=ENTRY" for a function of the module compiled only when a library's entry point
 * ENTRY ("pkg.mod.solve") is (gm_workspace_graph_set_library). NULL with *count 0 for an
 * unknown module. */
const char *const *gm_workspace_graph_roots(const gm_workspace_graph *graph, const char *root,
                                            const char *name, size_t *count, uint64_t *digest);

/* The classes a model of class cls (of module name under root) is built of, the path
 * torch.compile of one of its instances traces: cls, its bases, and the classes the __init__ of
 * each instantiates (`self.encoder = Encoder(config)`, `nn.ModuleList([Layer(config) for _ in
 * ...])`), transitively, across modules through the imports. *out gets them as absolute
 * "module.Class" names (owned: each and the array), cls first. Returns how many, 0 when cls is
 * unknown, -1 on OOM. */
int gm_workspace_graph_model_classes(gm_workspace_graph *graph, const char *root,
                                     const char *name, const char *cls, char ***out);

/* The absolute form of a name as an import in module module_name spells it: ".helpers.f" in
 * pkg.sub.mod is pkg.sub.helpers.f ("." in a package's __init__ is the package itself). False
 * when it climbs above the top package or does not fit in buf. */
bool gm_module_absolute_name(const char *module_name, bool is_package, const char *name, char *buf,
                             size_t cap);

#endif
