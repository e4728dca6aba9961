#include "server/libraries/library_finding.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The path of a package file from the package's parent on ("transformers/models/bart/
 * modeling_bart.py"): short, and says which package. */
static const char *package_relative(const gm_library_report *report, const char *path) {
    char marker[160];
    snprintf(marker, sizeof marker, "/%s/", report->package);
    const char *at = strstr(path, marker);
    return at ? at + 1 : path;
}

size_t gm_library_certain_breaks(const gm_library_report *report) {
    size_t certain = 0;
    for (size_t i = 0; i < report->break_count; i++)
        certain += !report->breaks[i].follows_other_break;
    return certain;
}

int gm_library_finding(const gm_library_report *report, const gm_compile_site *site,
                       bool with_locations, gm_finding *finding) {
    memset(finding, 0, sizeof *finding);
    if (report->error || report->break_count == 0)
        return 1; /* nothing analysed, or nothing predicted: no finding */
    finding->rule = gm_rule_by_id("GM902");
    finding->span.start_byte = site->start_byte;
    finding->span.end_byte = site->end_byte;
    finding->span.start = (gm_point){site->start_row, site->start_column};
    finding->span.end = (gm_point){site->end_row, site->end_column};
    size_t files = 0; /* that hold the breaks counted (the breaks are in file order) */
    const char *last_path = NULL;
    for (size_t i = 0; i < report->break_count; i++) {
        const gm_library_break *b = &report->breaks[i];
        if (!b->follows_other_break && (!last_path || strcmp(b->path, last_path) != 0)) {
            files++;
            last_path = b->path;
        }
    }
    size_t certain = gm_library_certain_breaks(report);
    size_t conditional = report->break_count - certain; /* follow other breaks */
    if (certain == 0)
        return 1; /* only breaks that follow others (a comprehension in a wrapped forward that
                     would have to break first): nothing to say of this model */
    size_t cap = 1024 + (with_locations ? GM_LIBRARY_MESSAGE_LOCATIONS * 768 : 0);
    char *message = malloc(cap);
    if (!message)
        return -1;
    char more[200] = "";
    if (conditional)
        snprintf(more, sizeof more, ", and %zu more that break%s only when another does",
                 conditional, conditional == 1 ? "s" : "");
    int n = snprintf(message, cap,
                     "graphmend predicts %zu graph break%s in %s on the path of `%s%s%s`, in %zu "
                     "file%s of the package%s",
                     certain, certain == 1 ? "" : "s", report->package, site->class_as_written,
                     site->member ? "." : "", site->member ? site->member : "", files,
                     files == 1 ? "" : "s", more);
    size_t used = n > 0 && (size_t)n < cap ? (size_t)n : cap - 1;
    for (size_t i = 0; with_locations && i < report->break_count; i++) {
        const gm_library_break *b = &report->breaks[i];
        if (i == GM_LIBRARY_MESSAGE_LOCATIONS) {
            n = snprintf(message + used, cap - used, ", and %zu more",
                         report->break_count - GM_LIBRARY_MESSAGE_LOCATIONS);
        } else {
            n = snprintf(message + used, cap - used, "%s %s:%u:%u %s (%.200s)%s%.200s",
                         i ? "," : ":", package_relative(report, b->path), b->start_row + 1,
                         b->start_column + 1, b->rule->id, b->message,
                         b->condition ? ", only " : "", b->condition ? b->condition : "");
        }
        used += n > 0 && (size_t)n < cap - used ? (size_t)n : 0;
        if (i == GM_LIBRARY_MESSAGE_LOCATIONS)
            break;
    }
    finding->message = message;
    return 0;
}
