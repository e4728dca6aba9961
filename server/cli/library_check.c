#include "server/cli/library_check.h"

#include <stdio.h>
#include <string.h>

#include "analysis/module_facts/compile_targets.h"
#include "analysis/module_facts/module_summary.h"
#include "server/libraries/library_breaks.h"
#include "server/libraries/library_finding.h"

/* Prints why a package was not analysed, once per message. */
static void note_problem(char seen[][256], size_t *seen_count, const char *message) {
    for (size_t i = 0; i < *seen_count; i++)
        if (strcmp(seen[i], message) == 0)
            return;
    if (*seen_count < 16)
        snprintf(seen[(*seen_count)++], 256, "%s", message);
    fprintf(stderr, "graphmend: GM902 not checked: %s\n", message);
}

int gm_cli_add_library_findings(gm_file_report *reports, size_t count,
                                const gm_analysis_options *options, const char *python) {
    gm_library_cache *cache = NULL;
    char seen[16][256];
    size_t seen_count = 0;
    int rc = 0;
    const gm_rule *rule = gm_rule_by_id("GM902");
    for (size_t i = 0; i < count && rc == 0; i++) {
        gm_file_report *report = &reports[i];
        if (!gm_analysis_rule_enabled(&options[i], rule) ||
            !gm_text_may_call_compile(report->text, report->len))
            continue;
        gm_compile_site_list sites;
        if (gm_imported_compile_sites(report->text, report->len, &options[i], &sites) != 0)
            continue; /* the file's own analysis already said it could not be parsed */
        for (size_t s = 0; s < sites.count && rc == 0; s++) {
            const gm_compile_site *site = &sites.items[s];
            char package[128];
            snprintf(package, sizeof package, "%.*s", (int)strcspn(site->name, "."), site->name);
            if (gm_library_package_skipped(package) || !strchr(site->name, '.'))
                continue;
            if (!cache && !(cache = gm_library_cache_new())) {
                rc = -1;
                break;
            }
            char target[4 * GM_NAME_MAX];
            if (gm_library_target_of(site->name, site->member, target, sizeof target) != 0)
                continue;
            gm_library_report library;
            if (gm_library_report_get(cache, python, target, &options[i], report->path,
                                      &library) != 0) {
                rc = -1;
                break;
            }
            gm_finding finding;
            int made = gm_library_finding(&library, site, true, &finding);
            if (made == 1 && library.error)
                note_problem(seen, &seen_count, library.error);
            else if (made == 0 && gm_finding_list_push(&report->findings, &finding) != 0) {
                gm_finding_free(&finding);
                rc = -1;
            } else if (made < 0)
                rc = -1;
            gm_library_report_free(&library);
        }
        gm_compile_site_list_free(&sites);
    }
    gm_library_cache_free(cache);
    if (rc != 0)
        fprintf(stderr, "graphmend: out of memory checking installed packages\n");
    return rc;
}
