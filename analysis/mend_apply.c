#include "analysis/mend_apply.h"

#include <stdlib.h>
#include <string.h>

#include "analysis/analyzer.h"
#include "analysis/findings/text_edit.h"

/* Mends applied per pass; several passes resolve fixes that overlapped in the previous one. */
#define MAX_FIX_PASSES 8

char *gm_mend_text(const char *text, size_t len, bool unsafe, const gm_analysis_options *options,
                   const char *const *roots, size_t root_count, size_t *out_len, size_t *applied) {
    char *current = malloc(len + 1);
    if (!current) {
        return NULL;
    }
    memcpy(current, text, len);
    current[len] = '\0';
    size_t current_len = len;
    for (int pass = 0; pass < MAX_FIX_PASSES; pass++) {
        gm_finding_list findings;
        gm_finding_list_init(&findings);
        if (gm_analyze_source_with_roots(current, current_len, options, roots, root_count,
                                         &findings) != 0) {
            gm_finding_list_free(&findings);
            break;
        }
        const gm_fix **fixes = calloc(findings.count + 1, sizeof *fixes);
        size_t fix_count = 0;
        for (size_t i = 0; fixes && i < findings.count; i++) {
            for (size_t j = 0; j < findings.items[i].fix_count; j++) {
                if (gm_fix_auto_applies(&findings.items[i].fixes[j], unsafe)) {
                    fixes[fix_count++] = &findings.items[i].fixes[j];
                    break;
                }
            }
        }
        gm_text_edit *edits = NULL;
        size_t edit_count = 0, taken = 0;
        char *next = NULL;
        size_t next_len = 0;
        if (fix_count > 0 &&
            gm_collect_non_overlapping(fixes, fix_count, &edits, &edit_count, &taken) == 0 &&
            edit_count > 0) {
            next = gm_apply_text_edits(current, current_len, edits, edit_count, &next_len);
        }
        free(edits);
        free(fixes);
        gm_finding_list_free(&findings);
        if (!next) {
            break;
        }
        free(current);
        current = next;
        current_len = next_len;
        *applied += taken;
    }
    *out_len = current_len;
    return current;
}
