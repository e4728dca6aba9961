#include "server/cli/check_analysis.h"

#include <stdint.h>

#include "analysis/analyzer.h"
#include "analysis/module_facts/module_summary.h"

int gm_cli_analyse(const char *text, size_t len, const gm_analysis_options *options,
                   gm_finding_list *list, gm_module_summary *summary) {
    return gm_analyze_source_with_summary(text, len, options, NULL, 0, list, summary);
}

int gm_cli_reanalyse_with_roots(const char *path, const char *text, size_t len,
                                const gm_analysis_options *options,
                                const gm_workspace_index *workspace, gm_finding_list *list,
                                gm_module_summary *summary) {
    size_t count = 0;
    uint64_t digest = 0;
    const char *const *roots =
        workspace ? gm_workspace_index_roots(workspace, path, &count, &digest) : NULL;
    if (count == 0)
        return 0; /* the first run already was the whole analysis */
    gm_finding_list again;
    gm_finding_list_init(&again);
    if (gm_analyze_source_with_summary(text, len, options, roots, count, &again, summary) != 0) {
        gm_finding_list_free(&again);
        return -1;
    }
    gm_finding_list_free(list);
    *list = again;
    return 0;
}
