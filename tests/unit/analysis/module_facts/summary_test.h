/* Helpers shared by the module-facts tests that build summaries and workspace graphs. Include
 * after check.h. */
#ifndef GM_TESTS_SUMMARY_TEST_H
#define GM_TESTS_SUMMARY_TEST_H

#include <stdbool.h>
#include <string.h>

#include "analysis/module_facts/module_summary.h"
#include "analysis/module_facts/workspace_graph.h"

/* The summary of src with the default options (no rules: gm_module_summary_from_source). */
static inline gm_module_summary st_summarise(const char *src) {
    gm_analysis_options o;
    gm_analysis_options_default(&o);
    gm_module_summary s;
    CHECK_EQ_INT(gm_module_summary_from_source(src, strlen(src), &o, &s), 0);
    return s;
}

/* Adds module name (a package's __init__ when package) of src to g under root. */
static inline void st_add(gm_workspace_graph *g, const char *root, const char *name, bool package,
                          const char *src) {
    gm_module_summary s = st_summarise(src);
    CHECK_EQ_INT(gm_workspace_graph_set(g, root, name, package, &s), 1);
}

/* Whether the solved graph gives module name under root the root key or fact. */
static inline bool st_has_fact(gm_workspace_graph *g, const char *root, const char *name,
                               const char *fact) {
    size_t count;
    uint64_t digest;
    const char *const *facts = gm_workspace_graph_roots(g, root, name, &count, &digest);
    for (size_t i = 0; i < count; i++)
        if (strcmp(facts[i], fact) == 0)
            return true;
    return false;
}

#endif
