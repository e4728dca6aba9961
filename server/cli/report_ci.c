/* The CI formats of the report, in ruff's shapes: GitHub Actions workflow commands (annotations on
 * the pull request) and GitLab code quality JSON. */
#include <inttypes.h>
#include <jansson.h>
#include <string.h>

#include "server/cli/report.h"

/* A workflow command's data: %, CR and LF escaped; a property value also escapes ':' and ','. */
static void print_escaped(FILE *out, const char *text, bool property) {
    for (const char *p = text; *p; p++) {
        if (*p == '%') {
            fputs("%25", out);
        } else if (*p == '\r') {
            fputs("%0D", out);
        } else if (*p == '\n') {
            fputs("%0A", out);
        } else if (property && *p == ':') {
            fputs("%3A", out);
        } else if (property && *p == ',') {
            fputs("%2C", out);
        } else {
            fputc(*p, out);
        }
    }
}

void gm_print_github(FILE *out, const gm_file_report *files, size_t count) {
    for (size_t f = 0; f < count; f++) {
        for (size_t i = 0; i < files[f].findings.count; i++) {
            const gm_finding *finding = &files[f].findings.items[i];
            uint32_t row, column, end_row, end_column;
            gm_report_location(&files[f], finding->span.start_byte, &row, &column);
            gm_report_location(&files[f], finding->span.end_byte, &end_row, &end_column);
            fprintf(out, "::error title=graphmend (%s),file=", finding->rule->id);
            print_escaped(out, files[f].path, true);
            fprintf(out, ",line=%u,col=%u,endLine=%u,endColumn=%u::", row, column, end_row,
                    end_column);
            print_escaped(out, files[f].path, false);
            fprintf(out, ":%u:%u: %s ", row, column, finding->rule->id);
            print_escaped(out, finding->message, false);
            fputc('\n', out);
        }
    }
}

static uint64_t fnv1a(uint64_t hash, const char *text) {
    for (const char *p = text; *p; p++) {
        hash = (hash ^ (unsigned char)*p) * 1099511628211u;
    }
    return (hash ^ 0xff) * 1099511628211u; /* a separator between the parts */
}

/* Stable across runs and line moves (path, rule, message), told apart from the equal findings
 * before it in the file by how many there are, as ruff does. */
static uint64_t fingerprint(const gm_file_report *file, size_t index) {
    const gm_finding *finding = &file->findings.items[index];
    uint64_t hash = fnv1a(fnv1a(fnv1a(14695981039346656037u, file->path), finding->rule->id),
                          finding->message);
    for (size_t i = 0; i < index; i++) {
        const gm_finding *other = &file->findings.items[i];
        if (other->rule == finding->rule && strcmp(other->message, finding->message) == 0) {
            hash = (hash ^ 0x5a) * 1099511628211u;
        }
    }
    return hash;
}

static json_t *position_json(const gm_file_report *file, size_t offset) {
    uint32_t row, column;
    gm_report_location(file, offset, &row, &column);
    return json_pack("{s:I,s:I}", "line", (json_int_t)row, "column", (json_int_t)column);
}

void gm_print_gitlab(FILE *out, const gm_file_report *files, size_t count) {
    json_t *all = json_array();
    for (size_t f = 0; f < count; f++) {
        const char *path = files[f].path;
        if (strncmp(path, "./", 2) == 0) {
            path += 2;
        }
        for (size_t i = 0; i < files[f].findings.count; i++) {
            const gm_finding *finding = &files[f].findings.items[i];
            char description[4096], print[17];
            snprintf(description, sizeof description, "%s: %s", finding->rule->id,
                     finding->message);
            snprintf(print, sizeof print, "%016" PRIx64, fingerprint(&files[f], i));
            json_array_append_new(
                all, json_pack("{s:s,s:s,s:s,s:s,s:{s:s,s:{s:o,s:o}}}", "check_name",
                               finding->rule->id, "description", description, "severity",
                               "major", "fingerprint", print, "location", "path", path,
                               "positions", "begin",
                               position_json(&files[f], finding->span.start_byte), "end",
                               position_json(&files[f], finding->span.end_byte)));
        }
    }
    json_dumpf(all, out, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    fputc('\n', out);
    json_decref(all);
}
