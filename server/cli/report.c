#include "server/cli/report.h"

#include <jansson.h>
#include <string.h>

int gm_output_format_parse(const char *name, gm_output_format *out) {
    static const char *const names[] = {"full", "concise", "json", "sarif", "github", "gitlab"};
    if (strcmp(name, "text") == 0) { /* the name concise had before full came */
        *out = GM_OUTPUT_CONCISE;
        return 0;
    }
    for (int i = 0; i < 6; i++) {
        if (strcmp(name, names[i]) == 0) {
            *out = (gm_output_format)i;
            return 0;
        }
    }
    return -1;
}

bool gm_output_format_is_text(gm_output_format format) {
    return format == GM_OUTPUT_FULL || format == GM_OUTPUT_CONCISE;
}

void gm_report_location(const gm_file_report *file, size_t offset, uint32_t *row,
                        uint32_t *column) {
    uint32_t line, character;
    gm_offset_to_position(file->text, file->len, &file->lines, GM_ENCODING_UTF32, offset, &line,
                          &character);
    *row = line + 1;
    *column = character + 1;
}

static void location_of(const gm_file_report *file, size_t offset, json_int_t *row,
                        json_int_t *column) {
    uint32_t r, c;
    gm_report_location(file, offset, &r, &c);
    *row = r;
    *column = c;
}

static json_t *location_json(const gm_file_report *file, size_t offset) {
    json_int_t row, column;
    location_of(file, offset, &row, &column);
    return json_pack("{s:I,s:I}", "row", row, "column", column);
}

const gm_fix *gm_report_primary_fix(const gm_finding *finding) {
    for (size_t i = 0; i < finding->fix_count; i++) {
        if (finding->fixes[i].kind == GM_FIX_KIND_MEND) {
            return &finding->fixes[i];
        }
    }
    return NULL;
}

static json_t *fix_json(const gm_file_report *file, const gm_fix *fix) {
    if (!fix) {
        return json_null();
    }
    json_t *edits = json_array();
    for (size_t i = 0; i < fix->edit_count; i++) {
        json_array_append_new(
            edits, json_pack("{s:s,s:o,s:o}", "content", fix->edits[i].replacement, "location",
                             location_json(file, fix->edits[i].start_byte), "end_location",
                             location_json(file, fix->edits[i].end_byte)));
    }
    return json_pack("{s:s,s:s,s:o}", "applicability", gm_applicability_name(fix->applicability),
                     "message", fix->title, "edits", edits);
}

/* "float16,bfloat16" -> ["float16", "bfloat16"] */
static json_t *dtype_list(const char *dtypes) {
    json_t *list = json_array();
    while (list && *dtypes) {
        size_t n = strcspn(dtypes, ",");
        json_array_append_new(list, json_stringn(dtypes, n));
        dtypes += n + (dtypes[n] == ',');
    }
    return list;
}

static json_t *ruff_json(const gm_file_report *files, size_t count) {
    json_t *all = json_array();
    for (size_t f = 0; f < count; f++) {
        for (size_t i = 0; i < files[f].findings.count; i++) {
            const gm_finding *finding = &files[f].findings.items[i];
            json_t *entry =
                json_pack("{s:s,s:s,s:s,s:o,s:o,s:o,s:o}", "filename", files[f].path, "code",
                          finding->rule->id, "message", finding->message, "url",
                          finding->rule->url ? json_string(finding->rule->url) : json_null(),
                          "location", location_json(&files[f], finding->span.start_byte),
                          "end_location", location_json(&files[f], finding->span.end_byte), "fix",
                          fix_json(&files[f], gm_report_primary_fix(finding)));
            if (entry && finding->mend_declined) { /* graphmend's addition to ruff's shape */
                json_object_set_new(entry, "mend_declined", json_string(finding->mend_declined));
            }
            json_t *only_when = entry && (finding->only_when_dtypes || finding->only_when_condition)
                                    ? json_object()
                                    : NULL;
            if (only_when && finding->only_when_dtypes) /* the break needs these dtypes */
                json_object_set_new(only_when, "dtypes", dtype_list(finding->only_when_dtypes));
            if (only_when && finding->only_when_condition) /* and this Python condition */
                json_object_set_new(only_when, "condition",
                                    json_string(finding->only_when_condition));
            if (only_when)
                json_object_set_new(entry, "only_when", only_when);
            json_array_append_new(all, entry);
        }
    }
    return all;
}

static const char *sarif_level(gm_severity severity) {
    switch (severity) {
    case GM_SEVERITY_ERROR:
        return "error";
    case GM_SEVERITY_WARNING:
        return "warning";
    default:
        return "note";
    }
}

static json_t *sarif_rules(void) {
    size_t count;
    const gm_rule *rules = gm_rules(&count);
    json_t *list = json_array();
    for (size_t i = 0; i < count; i++) {
        json_t *rule = json_pack("{s:s,s:s,s:{s:s},s:{s:s},s:{s:s}}", "id", rules[i].id, "name",
                                 rules[i].name, "shortDescription", "text", rules[i].summary,
                                 "fullDescription", "text", rules[i].explanation,
                                 "defaultConfiguration", "level", sarif_level(rules[i].severity));
        if (rules[i].url) {
            json_object_set_new(rule, "helpUri", json_string(rules[i].url));
        }
        json_array_append_new(list, rule);
    }
    return list;
}

static json_t *sarif_json(const gm_file_report *files, size_t count) {
    json_t *results = json_array();
    for (size_t f = 0; f < count; f++) {
        for (size_t i = 0; i < files[f].findings.count; i++) {
            const gm_finding *finding = &files[f].findings.items[i];
            json_int_t row, column, end_row, end_column;
            location_of(&files[f], finding->span.start_byte, &row, &column);
            location_of(&files[f], finding->span.end_byte, &end_row, &end_column);
            json_array_append_new(
                results,
                json_pack("{s:s,s:s,s:{s:s},s:[{s:{s:{s:s},s:{s:I,s:I,s:I,s:I}}}]}", "ruleId",
                          finding->rule->id, "level", sarif_level(gm_finding_severity(finding)),
                          "message", "text", finding->message, "locations", "physicalLocation",
                          "artifactLocation", "uri", files[f].path, "region", "startLine", row,
                          "startColumn", column, "endLine", end_row, "endColumn", end_column));
        }
    }
    return json_pack("{s:s,s:s,s:[{s:{s:{s:s,s:s,s:o}},s:o}]}", "$schema",
                     "https://json.schemastore.org/sarif-2.1.0.json", "version", "2.1.0", "runs",
                     "tool", "driver", "name", "graphmend", "version", GM_VERSION, "rules",
                     sarif_rules(), "results", results);
}

void gm_print_reports(FILE *out, const gm_file_report *files, size_t count,
                      gm_output_format format, bool color) {
    if (format == GM_OUTPUT_GITHUB) {
        gm_print_github(out, files, count);
        return;
    }
    if (format == GM_OUTPUT_GITLAB) {
        gm_print_gitlab(out, files, count);
        return;
    }
    if (gm_output_format_is_text(format)) {
        for (size_t f = 0; f < count; f++) {
            for (size_t i = 0; i < files[f].findings.count; i++) {
                if (format == GM_OUTPUT_FULL) {
                    gm_print_full(out, &files[f], &files[f].findings.items[i], color);
                } else {
                    gm_print_concise(out, &files[f], &files[f].findings.items[i], color);
                }
            }
        }
        return;
    }
    json_t *document =
        format == GM_OUTPUT_JSON ? ruff_json(files, count) : sarif_json(files, count);
    json_dumpf(document, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    fputc('\n', out);
    json_decref(document);
}
