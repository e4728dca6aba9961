#include "server/cli/summary.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "server/cli/fixability.h"

gm_finding_counts gm_count_findings(const gm_file_report *files, size_t count) {
    gm_finding_counts counts = {0};
    for (size_t f = 0; f < count; f++) {
        for (size_t i = 0; i < files[f].findings.count; i++) {
            gm_fixability fixability =
                gm_finding_fixability(&files[f].findings.items[i], files[f].unsafe_fixes);
            counts.findings++;
            counts.fixable += fixability == GM_FIXABLE;
            counts.hidden += fixability == GM_FIX_HIDDEN;
        }
    }
    return counts;
}

static const char *plural(size_t n, const char *many) {
    return n == 1 ? "" : many;
}

static void print_unsafe_available(FILE *out, size_t hidden) {
    fprintf(out, "%zu unsafe fix%s available with `graphmend fix --unsafe-fixes`", hidden,
            plural(hidden, "es"));
}

void gm_print_check_summary(FILE *out, gm_finding_counts counts) {
    if (counts.findings == 0) {
        fprintf(out, "All checks passed!\n");
        return;
    }
    fprintf(out, "Found %zu predicted graph break%s.\n", counts.findings,
            plural(counts.findings, "s"));
    if (counts.fixable > 0) {
        fprintf(out, "[*] %zu fixable with `graphmend fix`", counts.fixable);
        if (counts.hidden > 0) {
            fputs(" (", out);
            print_unsafe_available(out, counts.hidden);
            fputc(')', out);
        }
        fputs(".\n", out);
    } else if (counts.hidden > 0) {
        print_unsafe_available(out, counts.hidden);
        fputs(".\n", out);
    }
}

void gm_print_fix_summary(FILE *out, size_t mended, gm_finding_counts remaining) {
    size_t found = mended + remaining.findings;
    if (found == 0) {
        fprintf(out, "All checks passed!\n");
        return;
    }
    fprintf(out, "Found %zu predicted graph break%s (%zu mended, %zu remaining).\n", found,
            plural(found, "s"), mended, remaining.findings);
    if (remaining.hidden > 0) {
        print_unsafe_available(out, remaining.hidden);
        fputs(".\n", out);
    }
}

typedef struct {
    const gm_rule *rule;
    size_t count;
    size_t fixable;
} rule_tally;

/* Tallies of the findings of files by rule, in catalogue order (NULL on OOM); *count the rules
 * with findings. fixable_only: only findings `graphmend fix` would mend. */
static rule_tally *tally_by_rule(const gm_file_report *files, size_t count, bool fixable_only,
                                 size_t *tallied) {
    size_t rule_count;
    const gm_rule *rules = gm_rules(&rule_count);
    rule_tally *tallies = calloc(rule_count + 1, sizeof *tallies);
    *tallied = 0;
    if (!tallies) {
        return NULL;
    }
    for (size_t f = 0; f < count; f++) {
        for (size_t i = 0; i < files[f].findings.count; i++) {
            const gm_finding *finding = &files[f].findings.items[i];
            bool fixable =
                gm_finding_fixability(finding, files[f].unsafe_fixes) == GM_FIXABLE;
            size_t r = (size_t)(finding->rule - rules);
            if (r >= rule_count || (fixable_only && !fixable)) {
                continue;
            }
            tallies[r].rule = finding->rule;
            tallies[r].count++;
            tallies[r].fixable += fixable;
        }
    }
    size_t kept = 0;
    for (size_t r = 0; r < rule_count; r++) {
        if (tallies[r].count > 0) {
            tallies[kept++] = tallies[r];
        }
    }
    *tallied = kept;
    return tallies;
}

void gm_print_fix_listing(FILE *out, const char *header, const gm_file_report *files,
                          size_t count) {
    bool printed_header = false;
    for (size_t f = 0; f < count; f++) {
        size_t tallied;
        rule_tally *tallies = tally_by_rule(&files[f], 1, true, &tallied);
        if (tallied > 0 && !printed_header) {
            fprintf(out, "\n%s\n", header);
            printed_header = true;
        }
        if (tallied > 0) {
            fprintf(out, "- %s:\n", files[f].path);
        }
        for (size_t r = 0; r < tallied; r++) {
            fprintf(out, "    %zu × %s (%s)\n", tallies[r].count, tallies[r].rule->id,
                    tallies[r].rule->name);
        }
        free(tallies);
    }
    if (printed_header) {
        fputc('\n', out);
    }
}

static int by_count_then_id(const void *a, const void *b) {
    const rule_tally *x = a, *y = b;
    if (x->count != y->count) {
        return x->count > y->count ? -1 : 1;
    }
    return strcmp(x->rule->id, y->rule->id);
}

void gm_print_statistics(FILE *out, const gm_file_report *files, size_t count, bool json) {
    size_t tallied;
    rule_tally *tallies = tally_by_rule(files, count, false, &tallied);
    if (tallied > 1) {
        qsort(tallies, tallied, sizeof *tallies, by_count_then_id);
    }
    if (json) {
        json_t *list = json_array();
        for (size_t r = 0; r < tallied; r++) {
            json_array_append_new(
                list, json_pack("{s:s,s:s,s:I,s:b,s:I}", "code", tallies[r].rule->id, "name",
                                tallies[r].rule->name, "count", (json_int_t)tallies[r].count,
                                "fixable", tallies[r].fixable > 0, "fixable_count",
                                (json_int_t)tallies[r].fixable));
        }
        json_dumpf(list, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        fputc('\n', out);
        json_decref(list);
        free(tallies);
        return;
    }
    int count_width = 1, id_width = 1;
    for (size_t r = 0; r < tallied; r++) {
        int w = snprintf(NULL, 0, "%zu", tallies[r].count);
        int id = (int)strlen(tallies[r].rule->id);
        count_width = w > count_width ? w : count_width;
        id_width = id > id_width ? id : id_width;
    }
    for (size_t r = 0; r < tallied; r++) {
        fprintf(out, "%*zu\t%-*s\t%s %s\n", count_width, tallies[r].count, id_width,
                tallies[r].rule->id, tallies[r].fixable ? "[*]" : "[ ]", tallies[r].rule->name);
    }
    free(tallies);
}
