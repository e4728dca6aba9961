#include "cli_analysis.h"

#include <stdint.h>

#include "analyzer.h"
#include "module_summary.h"
#include "python_parser.h"

/* As long as an editor's one-shot analysis may take to parse a file. */
#define CLI_PARSE_TIMEOUT_MICROS (10u * 1000u * 1000u)

static int copy_findings(const gm_finding_list *from, gm_finding_list *to) {
    for (size_t i = 0; i < from->count; i++) {
        gm_finding copy;
        if (gm_finding_copy_shifted(&from->items[i], &copy, 0, 0) != 0)
            return -1;
        if (gm_finding_list_push(to, &copy) != 0) {
            gm_finding_free(&copy);
            return -1;
        }
    }
    return 0;
}

int gm_cli_analyse_and_index(const char *path, const char *text, size_t len,
                             const gm_analysis_options *options, gm_workspace_index *workspace,
                             gm_finding_list *list) {
    TSParser *parser = gm_python_parser_new(CLI_PARSE_TIMEOUT_MICROS);
    if (!parser)
        return -1;
    TSTree *tree = gm_python_parse(parser, NULL, text, len);
    ts_parser_delete(parser);
    if (!tree)
        return -1;
    gm_analyzer *analyzer = gm_analyzer_new();
    int rc = -1;
    if (analyzer) {
        rc = copy_findings(gm_analyzer_run(analyzer, tree, text, len, options), list);
        gm_module_summary summary;
        /* Without the summary the index summarises the file from disk when it is completed. */
        if (rc == 0 && workspace && gm_analyzer_module_summary(analyzer, &summary) == 0)
            gm_workspace_index_update(workspace, path, &summary);
    }
    gm_analyzer_free(analyzer);
    ts_tree_delete(tree);
    return rc;
}

int gm_cli_reanalyse_with_roots(const char *path, const char *text, size_t len,
                                const gm_analysis_options *options,
                                const gm_workspace_index *workspace, gm_finding_list *list) {
    size_t count = 0;
    uint64_t digest = 0;
    const char *const *roots =
        workspace ? gm_workspace_index_roots(workspace, path, &count, &digest) : NULL;
    if (count == 0)
        return 0; /* the first run already was the whole analysis */
    gm_finding_list again;
    gm_finding_list_init(&again);
    if (gm_analyze_source_with_roots(text, len, options, roots, count, &again) != 0) {
        gm_finding_list_free(&again);
        return -1;
    }
    gm_finding_list_free(list);
    *list = again;
    return 0;
}
