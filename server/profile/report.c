#include "server/profile/report.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analyzer.h"

#define BAR_WIDTH 40

/* The measurements copied from each arm's helper result, in the order the report shows them. */
static const char *const arm_keys[] = {
    "graphs",         "breaks",        "break_reasons", "compile_s",     "cold_ms",
    "steady_ms",      "steady_p90_ms", "steady_q1_ms",  "steady_q3_ms",  "steady_min_ms",
    "steady_max_ms",  "steady_calls",  "eager_ms",      "cudagraph_launches",
    "cudagraph_skips", "peak_memory_mb",
};

/* A ratio from one loaded run can say "600x faster" of two equal arms: the verdict is a speed-up
 * only when the arms' interquartile ranges are apart. */
static json_t *steady_comparison(const json_t *original, const json_t *mended) {
    const json_t *a_q1 = json_object_get(original, "steady_q1_ms");
    const json_t *a_q3 = json_object_get(original, "steady_q3_ms");
    const json_t *b_q1 = json_object_get(mended, "steady_q1_ms");
    const json_t *b_q3 = json_object_get(mended, "steady_q3_ms");
    double a = json_number_value(json_object_get(original, "steady_ms"));
    double b = json_number_value(json_object_get(mended, "steady_ms"));
    if (!json_is_number(a_q1) || !json_is_number(a_q3) || !json_is_number(b_q1) ||
        !json_is_number(b_q3) || !(a > 0) || !(b > 0)) {
        return NULL;
    }
    bool overlap = json_number_value(a_q1) <= json_number_value(b_q3) &&
                   json_number_value(b_q1) <= json_number_value(a_q3);
    if (overlap) {
        return json_pack("{s:s}", "verdict", "within noise");
    }
    return json_pack("{s:s,s:f}", "verdict", a > b ? "faster" : "slower", "ratio", a / b);
}

json_t *gm_profile_nothing_to_compare(const char *file, const char *text, size_t len,
                                      const gm_analysis_options *options,
                                      const char *const *roots, size_t root_count, bool unsafe,
                                      const char *unsafe_hint) {
    gm_finding_list findings;
    gm_finding_list_init(&findings);
    size_t count = 0, unsafe_mendable = 0;
    if (gm_analyze_source_with_roots(text, len, options, roots, root_count, &findings) == 0) {
        for (size_t i = 0; i < findings.count; i++) {
            const gm_finding *finding = &findings.items[i];
            if (finding->suppressed) {
                continue;
            }
            count++;
            for (size_t j = 0; j < finding->fix_count; j++) {
                if (gm_fix_auto_applies(&finding->fixes[j], true)) {
                    unsafe_mendable++;
                    break;
                }
            }
        }
    }
    gm_finding_list_free(&findings);
    char message[1200];
    int n = snprintf(message, sizeof message,
                     "nothing to compare: no mend applies to %.800s at this fix level (%zu finding%s, "
                     "none mendable",
                     file, count, count == 1 ? "" : "s");
    if (!unsafe && unsafe_mendable > 0 && n > 0 && (size_t)n < sizeof message) {
        snprintf(message + n, sizeof message - (size_t)n,
                 " by a safe mend; %zu by an unsafe one, with %s)", unsafe_mendable, unsafe_hint);
    } else if (n > 0 && (size_t)n < sizeof message) {
        snprintf(message + n, sizeof message - (size_t)n, ")");
    }
    return json_pack("{s:b,s:b,s:s,s:s,s:I,s:I,s:I,s:b}", "ok", 1, "nothing_to_compare", 1,
                     "message", message, "file", file, "findings", (json_int_t)count,
                     "unsafe_mendable", (json_int_t)unsafe_mendable, "mends_applied",
                     (json_int_t)0, "unsafe_fixes", unsafe);
}

static json_t *arm_summary(json_t *arm) {
    json_t *summary = json_object();
    for (size_t i = 0; i < sizeof arm_keys / sizeof arm_keys[0]; i++) {
        json_t *value = json_object_get(arm, arm_keys[i]);
        if (value) {
            json_object_set(summary, arm_keys[i], value);
        }
    }
    return summary;
}

json_t *gm_profile_report_build(const gm_profile_report_info *info, json_t *original,
                                json_t *mended) {
    json_t *report =
        json_pack("{s:b,s:s,s:s,s:O,s:O,s:s,s:s,s:I}", "ok", 1, "file", info->file, "entry",
                  info->entry, "device", json_object_get(original, "device"), "torch",
                  json_object_get(original, "torch"), "mode", info->mode, "backend", info->backend,
                  "mends_applied", (json_int_t)info->mends_applied);
    if (!report) {
        return json_pack("{s:b,s:{s:s,s:s}}", "ok", 0, "error", "kind", "internal", "message",
                         "could not build the report");
    }
    json_object_set_new(report, "unsafe_fixes", json_boolean(info->unsafe_fixes));
    if (info->package_mends > 0) {
        json_object_set_new(report, "package_mends", json_integer((json_int_t)info->package_mends));
    }
    json_t *name = json_object_get(original, "device_name");
    if (name) {
        json_object_set(report, "device_name", name);
    }
    json_t *fallback = json_object_get(original, "fallback");
    if (json_is_string(fallback)) {
        json_object_set(report, "fallback", fallback);
    }
    json_object_set_new(report, "original", arm_summary(original));
    json_object_set_new(report, "mended", arm_summary(mended));
    json_t *comparison = steady_comparison(json_object_get(report, "original"),
                                           json_object_get(report, "mended"));
    if (comparison) {
        json_object_set_new(report, "steady_comparison", comparison);
    }
    json_object_set_new(report, "outputs_match",
                        json_boolean(json_is_true(json_object_get(mended, "outputs_match"))));
    return report;
}

/* ---------------------------------------------------------------- rendering */

typedef struct {
    char *data;
    size_t len, capacity;
    bool failed;
} text_buffer;

static void append(text_buffer *buffer, const char *format, ...)
    __attribute__((format(printf, 2, 3)));

static void append(text_buffer *buffer, const char *format, ...) {
    if (buffer->failed) {
        return;
    }
    for (;;) {
        va_list args;
        va_start(args, format);
        size_t room = buffer->capacity - buffer->len;
        int n = vsnprintf(buffer->data ? buffer->data + buffer->len : NULL, room, format, args);
        va_end(args);
        if (n < 0) {
            buffer->failed = true;
            return;
        }
        if ((size_t)n < room) {
            buffer->len += (size_t)n;
            return;
        }
        size_t capacity = (buffer->capacity + (size_t)n + 1) * 2;
        char *grown = realloc(buffer->data, capacity);
        if (!grown) {
            buffer->failed = true;
            return;
        }
        buffer->data = grown;
        buffer->capacity = capacity;
    }
}

typedef struct {
    const char *label;
    const char *key;
    bool integer;
} table_row;

static const table_row rows[] = {
    {"graphs", "graphs", true},
    {"graph breaks", "breaks", true},
    {"compile time (s)", "compile_s", false},
    {"cold start, first call (ms)", "cold_ms", false},
    {"steady state, median (ms)", "steady_ms", false},
    {"steady state, p90 (ms)", "steady_p90_ms", false},
    {"steady state, q1 (ms)", "steady_q1_ms", false},
    {"steady state, q3 (ms)", "steady_q3_ms", false},
    {"steady state, timed calls", "steady_calls", true},
    {"eager, median (ms)", "eager_ms", false},
    {"CUDA-graph launches per call", "cudagraph_launches", false},
    {"peak GPU memory (MiB)", "peak_memory_mb", false},
};

static void format_value(const json_t *value, bool integer, char *out, size_t size) {
    if (!value || json_is_null(value)) {
        snprintf(out, size, "-");
    } else if (integer) {
        snprintf(out, size, "%lld", (long long)json_integer_value(value));
    } else {
        double number = json_number_value(value);
        double magnitude = number < 0 ? -number : number;
        snprintf(out, size, magnitude >= 100 ? "%.1f" : magnitude >= 1 ? "%.2f" : "%.3f", number);
    }
}

static const char *string_or(const json_t *object, const char *key, const char *fallback) {
    const char *value = json_string_value(json_object_get(object, key));
    return value ? value : fallback;
}

static void render_header(text_buffer *out, const json_t *report, bool markdown) {
    const char *device = string_or(report, "device", "?");
    const char *fallback = string_or(report, "fallback", NULL);
    append(out,
           markdown ? "**graphmend profile** `%s` (entry `%s`)\n\n"
                    : "graphmend profile: %s (entry %s)\n",
           string_or(report, "file", "?"), string_or(report, "entry", "?"));
    json_int_t package_mends = json_integer_value(json_object_get(report, "package_mends"));
    char packages[96] = "";
    if (package_mends > 0) {
        snprintf(packages, sizeof packages, ", %lld to the installed packages' modules",
                 (long long)package_mends);
    }
    append(out,
           "device %s%s%s, torch %s, backend %s, mode %s; %lld mend%s applied to the copy%s%s\n",
           device, json_object_get(report, "device_name") ? " " : "",
           string_or(report, "device_name", ""), string_or(report, "torch", "?"),
           string_or(report, "backend", "?"), string_or(report, "mode", "?"),
           (long long)json_integer_value(json_object_get(report, "mends_applied")),
           json_integer_value(json_object_get(report, "mends_applied")) == 1 ? "" : "s", packages,
           json_is_true(json_object_get(report, "unsafe_fixes")) ? " (unsafe ones included)"
                                                                 : " (safe ones only)");
    if (fallback) {
        append(out, markdown ? "\n> **Note:** %s\n" : "note: %s\n", fallback);
    }
    append(out, "\n");
}

static void render_table(text_buffer *out, const json_t *original, const json_t *mended,
                         bool markdown) {
    if (markdown) {
        append(out, "| | original | mended |\n|---|---:|---:|\n");
    } else {
        append(out, "%-30s %12s %12s\n", "", "original", "mended");
    }
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        const json_t *a = json_object_get(original, rows[i].key);
        const json_t *b = json_object_get(mended, rows[i].key);
        if ((!a || json_is_null(a)) && (!b || json_is_null(b))) {
            continue;
        }
        char left[32], right[32];
        format_value(a, rows[i].integer, left, sizeof left);
        format_value(b, rows[i].integer, right, sizeof right);
        append(out, markdown ? "| %s | %s | %s |\n" : "%-30s %12s %12s\n", rows[i].label, left,
               right);
    }
}

static void render_bar(text_buffer *out, const char *name, double value, double largest,
                       bool integer) {
    int width = largest > 0 ? (int)(value / largest * BAR_WIDTH + 0.5) : 0;
    if (width == 0 && value > 0) {
        width = 1;
    }
    char bar[BAR_WIDTH + 1];
    memset(bar, '#', (size_t)width);
    memset(bar + width, ' ', (size_t)(BAR_WIDTH - width));
    bar[BAR_WIDTH] = '\0';
    char number[32];
    json_t *boxed = integer ? json_integer((json_int_t)value) : json_real(value);
    format_value(boxed, integer, number, sizeof number);
    json_decref(boxed);
    append(out, "  %-8s |%s %s\n", name, bar, number);
}

static void render_bars(text_buffer *out, const json_t *report, bool markdown) {
    const json_t *original = json_object_get(report, "original");
    const json_t *mended = json_object_get(report, "mended");
    const json_t *comparison = json_object_get(report, "steady_comparison");
    static const struct {
        const char *label, *key;
    } charts[] = {
        {"cold start (ms)", "cold_ms"},
        {"steady state, median (ms)", "steady_ms"},
        {"graphs", "graphs"},
    };
    append(out, markdown ? "\n```text\n" : "\n");
    for (size_t i = 0; i < sizeof charts / sizeof charts[0]; i++) {
        double a = json_number_value(json_object_get(original, charts[i].key));
        double b = json_number_value(json_object_get(mended, charts[i].key));
        double largest = a > b ? a : b;
        bool integer = strcmp(charts[i].key, "graphs") == 0;
        append(out, "%s", charts[i].label);
        /* Only the steady state has a spread; one cold call an arm gives no verdict. */
        if (strcmp(charts[i].key, "steady_ms") == 0 && comparison) {
            const char *verdict = string_or(comparison, "verdict", "within noise");
            double ratio = json_number_value(json_object_get(comparison, "ratio"));
            if (strcmp(verdict, "within noise") == 0 || !(ratio > 0)) {
                append(out, ": within noise (the arms' interquartile ranges overlap)");
            } else {
                append(out, ": mended is %.2fx %s (interquartile ranges apart)",
                       ratio >= 1 ? ratio : 1 / ratio, verdict);
            }
        }
        append(out, "\n");
        render_bar(out, "original", a, largest, integer);
        render_bar(out, "mended", b, largest, integer);
    }
    append(out, markdown ? "```\n" : "");
}

static void render_reasons(text_buffer *out, const char *arm_name, const json_t *arm,
                           bool markdown) {
    const json_t *reasons = json_object_get(arm, "break_reasons");
    if (json_array_size(reasons) == 0) {
        return;
    }
    append(out, markdown ? "\n**Break reasons (%s)**\n\n" : "\nbreak reasons (%s):\n", arm_name);
    size_t i;
    const json_t *reason;
    json_array_foreach(reasons, i, reason) {
        const char *where = string_or(reason, "location", "");
        const char *why = string_or(reason, "reason", "");
        append(out, markdown ? "- `%s` %s\n" : "  %s  %s\n", where[0] ? where : "?", why);
    }
}

static char *render(const json_t *report, bool markdown) {
    text_buffer out = {0};
    if (json_is_true(json_object_get(report, "nothing_to_compare"))) {
        append(&out, markdown ? "**graphmend profile**: %s\n" : "graphmend profile: %s\n",
               string_or(report, "message", "nothing to compare"));
        return out.failed ? (free(out.data), NULL) : out.data;
    }
    const json_t *original = json_object_get(report, "original");
    const json_t *mended = json_object_get(report, "mended");
    render_header(&out, report, markdown);
    render_table(&out, original, mended, markdown);
    bool match = json_is_true(json_object_get(report, "outputs_match"));
    append(&out, markdown ? "\nOutputs of the two arms match: **%s**\n" : "\noutputs match: %s\n",
           match ? "yes" : "no (the mends changed what the model computes)");
    render_bars(&out, report, markdown);
    render_reasons(&out, "original", original, markdown);
    render_reasons(&out, "mended", mended, markdown);
    if (out.failed) {
        free(out.data);
        return NULL;
    }
    return out.data;
}

void gm_profile_report_print_text(FILE *out, const json_t *report) {
    char *text = render(report, false);
    if (text) {
        fputs(text, out);
        free(text);
    }
}

char *gm_profile_report_markdown(const json_t *report) {
    return render(report, true);
}

void gm_profile_error_print_text(FILE *out, const json_t *result) {
    gm_profile_error_print_text_for(out, result, "graphmend profile");
}

void gm_profile_error_print_text_for(FILE *out, const json_t *result, const char *command) {
    const json_t *error = json_object_get(result, "error");
    bool profile = strcmp(command, "graphmend profile") == 0;
    fprintf(out, "%s: %s\n", command,
            string_or(error, "message", profile ? "the profile failed" : "the run failed"));
    const char *traceback = string_or(error, "traceback", "");
    if (traceback[0]) {
        fprintf(out, "%s\n", traceback);
    }
    const char *output = string_or(error, "output", "");
    if (output[0]) {
        if (profile) {
            fprintf(out, "--- end of the %s arm's output ---\n", string_or(error, "arm", "?"));
        } else {
            fprintf(out, "--- end of the Python process's output ---\n");
        }
        fprintf(out, "%s%s", output, output[strlen(output) - 1] == '\n' ? "" : "\n");
    }
}
