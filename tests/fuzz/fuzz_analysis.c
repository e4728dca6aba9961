/* libFuzzer target: arbitrary bytes as Python source -> parse -> analysis -> every fix applied.
 * A fix must apply cleanly (edits in range, non-overlapping) and the analysis of the result must
 * not crash. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analyzer.h"
#include "analysis/findings/text_edit.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size > 64 * 1024) {
        return 0;
    }
    gm_analysis_options options;
    gm_analysis_options_default(&options);
    gm_finding_list findings;
    gm_finding_list_init(&findings);
    if (gm_analyze_source((const char *)data, size, &options, &findings) != 0) {
        gm_finding_list_free(&findings);
        return 0;
    }
    for (size_t i = 0; i < findings.count; i++) {
        const gm_finding *finding = &findings.items[i];
        if (finding->span.start_byte > finding->span.end_byte || finding->span.end_byte > size) {
            abort();
        }
        for (size_t j = 0; j < finding->fix_count; j++) {
            const gm_fix *fix = &finding->fixes[j];
            size_t len = 0;
            char *fixed =
                gm_apply_text_edits((const char *)data, size, fix->edits, fix->edit_count, &len);
            if (!fixed) {
                abort(); /* a fix the analysis offered must apply */
            }
            gm_finding_list after;
            gm_finding_list_init(&after);
            gm_analyze_source(fixed, len, &options, &after);
            gm_finding_list_free(&after);
            free(fixed);
        }
    }
    gm_finding_list_free(&findings);
    return 0;
}
