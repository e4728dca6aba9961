#include "server/profile/confirm_report.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define REGISTRY_URL "https://meta-pytorch.github.io/compile-graph-break-site/gb/"

/* Rules about the file itself (GM001 syntax error) or its comments (GM901) predict no break. */
static bool predicts_break(const gm_finding *finding) {
    const char *id = finding->rule ? finding->rule->id : "";
    return !finding->suppressed && strncmp(id, "GM0", 3) != 0 && strncmp(id, "GM9", 3) != 0;
}

static bool has_line(const json_t *lines, json_int_t first, json_int_t last) {
    size_t i;
    json_t *value;
    json_array_foreach(lines, i, value) {
        json_int_t line = json_integer_value(value);
        if (line >= first && line <= last) {
            return true;
        }
    }
    return false;
}

/* The first of dynamo's break sites on a line in [first, last], or NULL. */
static json_t *break_within(const json_t *breaks, json_int_t first, json_int_t last) {
    size_t i;
    json_t *site;
    json_array_foreach(breaks, i, site) {
        json_int_t line = json_integer_value(json_object_get(site, "line"));
        if (line >= first && line <= last) {
            return site;
        }
    }
    return NULL;
}

static json_t *registry_url(const char *registry_id) {
    if (!registry_id || strncmp(registry_id, "GB", 2) != 0) {
        return json_null();
    }
    char url[160];
    size_t used = (size_t)snprintf(url, sizeof url, "%sgb", REGISTRY_URL);
    for (const char *c = registry_id + 2; *c && used + 8 < sizeof url; c++) {
        url[used++] = (char)tolower((unsigned char)*c);
    }
    snprintf(url + used, sizeof url - used, ".html");
    return json_string(url);
}

static json_t *ratio_or_null(size_t numerator, size_t denominator) {
    return denominator ? json_real((double)numerator / (double)denominator) : json_null();
}

static void describe_ratio(char *out, size_t size, const char *name, size_t numerator,
                           size_t denominator, const char *what) {
    if (denominator) {
        snprintf(out, size, "%s %.2f (%zu of %zu %s)", name,
                 (double)numerator / (double)denominator, numerator, denominator, what);
    } else {
        snprintf(out, size, "%s n/a (no %s)", name, what);
    }
}

static json_t *judge_findings(const gm_finding_list *findings, const json_t *breaks,
                              const json_t *traced, size_t counts[3]) {
    json_t *judged = json_array();
    for (size_t i = 0; judged && i < findings->count; i++) {
        const gm_finding *finding = &findings->items[i];
        if (!predicts_break(finding)) {
            continue;
        }
        json_int_t first = (json_int_t)finding->span.start.row + 1;
        json_int_t last = (json_int_t)finding->span.end.row + 1;
        json_t *site = break_within(breaks, first, last);
        const char *verdict = site                            ? "confirmed"
                              : has_line(traced, first, last) ? "contradicted"
                                                              : "not_reached";
        counts[site ? 0 : strcmp(verdict, "contradicted") == 0 ? 2 : 1]++;
        json_t *item = json_pack("{s:s,s:I,s:I,s:I,s:s,s:s}", "code", finding->rule->id, "line",
                                 first, "column", (json_int_t)finding->span.start.column + 1,
                                 "end_line", last, "message",
                                 finding->message ? finding->message : "", "verdict", verdict);
        if (item && site) {
            json_object_set(item, "dynamo_reason", json_object_get(site, "reason"));
            json_object_set(item, "registry_id", json_object_get(site, "registry_id"));
            json_object_set(item, "dynamo_sources", json_object_get(site, "sources"));
            json_object_set_new(item, "skips_frame",
                                json_boolean(json_is_true(json_object_get(site, "skips_frame"))));
        }
        if (!item || json_array_append_new(judged, item) != 0) {
            json_decref(judged);
            return NULL;
        }
    }
    return judged;
}

/* Dynamo's break sites that no predicted finding's span covers; *covered counts the others. */
static json_t *unpredicted_breaks(const gm_finding_list *findings, const json_t *breaks,
                                  size_t *covered) {
    json_t *missed = json_array();
    size_t i;
    json_t *site;
    json_array_foreach(breaks, i, site) {
        json_int_t line = json_integer_value(json_object_get(site, "line"));
        bool predicted = false;
        for (size_t j = 0; j < findings->count && !predicted; j++) {
            const gm_finding *finding = &findings->items[j];
            predicted = predicts_break(finding) &&
                        line >= (json_int_t)finding->span.start.row + 1 &&
                        line <= (json_int_t)finding->span.end.row + 1;
        }
        if (predicted) {
            (*covered)++;
            continue;
        }
        json_t *item = json_deep_copy(site);
        if (!item) {
            json_decref(missed);
            return NULL;
        }
        json_object_set_new(item, "url",
                            registry_url(json_string_value(json_object_get(site, "registry_id"))));
        json_array_append_new(missed, item);
    }
    return missed;
}

json_t *gm_confirm_report_build(const char *file, const char *entry,
                                const gm_finding_list *findings, const json_t *dynamo) {
    const json_t *breaks = json_object_get(dynamo, "breaks");
    const json_t *traced = json_object_get(dynamo, "traced_lines");
    size_t counts[3] = {0, 0, 0}; /* confirmed, not reached, contradicted */
    size_t covered = 0;
    json_t *judged = judge_findings(findings, breaks, traced, counts);
    json_t *missed = unpredicted_breaks(findings, breaks, &covered);
    size_t dynamo_breaks = json_array_size(breaks);
    char precision[160], recall[160], summary[400];
    describe_ratio(precision, sizeof precision, "precision", counts[0], counts[0] + counts[2],
                   "reached predictions confirmed");
    describe_ratio(recall, sizeof recall, "recall", covered, dynamo_breaks,
                   "dynamo break sites predicted");
    snprintf(summary, sizeof summary, "%s, %s", precision, recall);
    json_t *report = json_pack(
        "{s:b,s:s,s:s,s:O,s:O,s:O,s:O,s:O,s:o*,s:o*,s:{s:I,s:I,s:I,s:I,s:I},s:o,s:o,s:s}", "ok", 1,
        "file", file, "entry", entry, "torch", json_object_get(dynamo, "torch"), "python",
        json_object_get(dynamo, "python"), "device", json_object_get(dynamo, "device"), "graphs",
        json_object_get(dynamo, "graphs"), "graph_breaks", json_object_get(dynamo, "graph_breaks"),
        "findings", judged, "unpredicted", missed, "counts", "confirmed", (json_int_t)counts[0],
        "not_reached", (json_int_t)counts[1], "contradicted", (json_int_t)counts[2],
        "dynamo_breaks", (json_int_t)dynamo_breaks, "predicted_breaks", (json_int_t)covered,
        "precision", ratio_or_null(counts[0], counts[0] + counts[2]), "recall",
        ratio_or_null(covered, dynamo_breaks), "summary", summary);
    if (!report || !judged || !missed) {
        json_decref(report);
        return NULL;
    }
    return report;
}

static const char *text_or(const json_t *value, const char *otherwise) {
    const char *text = json_string_value(value);
    return text && text[0] ? text : otherwise;
}

void gm_confirm_short_version(const char *version, char *out, size_t size) {
    const char *dot = strchr(version, '.');
    const char *end = dot ? strchr(dot + 1, '.') : NULL;
    size_t len = end ? (size_t)(end - version) : strcspn(version, "+");
    snprintf(out, size, "%.*s", (int)len, version);
}

void gm_confirm_report_print_text(FILE *out, const json_t *report) {
    const char *torch = text_or(json_object_get(report, "torch"), "?");
    char torch_short[64];
    gm_confirm_short_version(torch, torch_short, sizeof torch_short);
    fprintf(out, "%s: %s() under torch._dynamo.explain, torch %s, Python %s (%s)\n",
            text_or(json_object_get(report, "file"), "?"),
            text_or(json_object_get(report, "entry"), "?"), torch,
            text_or(json_object_get(report, "python"), "?"),
            text_or(json_object_get(report, "device"), "?"));
    long long graph_breaks = json_integer_value(json_object_get(report, "graph_breaks"));
    size_t sites = (size_t)json_integer_value(
        json_object_get(json_object_get(report, "counts"), "dynamo_breaks"));
    fprintf(out, "dynamo: %lld graphs, ",
            (long long)json_integer_value(json_object_get(report, "graphs")));
    if (graph_breaks < 0) { /* explain's count when dynamo gave up a frame */
        fprintf(out, "a frame skipped");
    } else {
        fprintf(out, "%lld graph break%s", graph_breaks, graph_breaks == 1 ? "" : "s");
    }
    fprintf(out, "; break sites in this file: %zu\n\n", sites);
    const json_t *judged = json_object_get(report, "findings");
    size_t i;
    json_t *item;
    if (json_array_size(judged) == 0) {
        fprintf(out, "graphmend predicts no graph break in this file.\n");
    }
    json_array_foreach(judged, i, item) {
        const char *verdict = text_or(json_object_get(item, "verdict"), "?");
        char shown[160];
        if (strcmp(verdict, "confirmed") == 0) {
            snprintf(shown, sizeof shown, "confirmed by torch %s", torch_short);
        } else if (strcmp(verdict, "not_reached") == 0) {
            snprintf(shown, sizeof shown, "not reached by this input");
        } else {
            snprintf(shown, sizeof shown, "contradicted: dynamo traced the line, no break");
        }
        fprintf(out, "%lld:%lld: %s %s\n    %s\n",
                (long long)json_integer_value(json_object_get(item, "line")),
                (long long)json_integer_value(json_object_get(item, "column")),
                text_or(json_object_get(item, "code"), "?"), shown,
                text_or(json_object_get(item, "message"), ""));
    }
    const json_t *missed = json_object_get(report, "unpredicted");
    if (json_array_size(missed) > 0) {
        fprintf(out, "\nbreaks dynamo found that graphmend did not predict:\n");
    }
    json_array_foreach(missed, i, item) {
        fprintf(out, "%lld: %s%s%s\n", (long long)json_integer_value(json_object_get(item, "line")),
                text_or(json_object_get(item, "registry_id"), ""),
                json_string_value(json_object_get(item, "registry_id")) ? " " : "",
                text_or(json_object_get(item, "reason"), "(no reason given)"));
        const char *explanation = text_or(json_object_get(item, "explanation"), NULL);
        if (explanation) {
            fprintf(out, "    %s\n", explanation);
        }
        const char *url = text_or(json_object_get(item, "url"), NULL);
        if (url) {
            fprintf(out, "    %s\n", url);
        }
    }
    fprintf(out, "\n%s\n", text_or(json_object_get(report, "summary"), ""));
}
