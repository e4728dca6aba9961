#include "server/config/pyproject_config.h"


#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/options/closest_name.h"
#include "server/config/project_files.h"
#include "server/workspace/file_reader.h"

#define MAX_STRING 256

typedef struct {
    const char *p;
    const char *end;
    int line;
    char *error;
    size_t error_size;
} reader;

static int fail(reader *r, const char *what) {
    snprintf(r->error, r->error_size, "line %d: %s", r->line, what);
    return -1;
}

static void skip_blank(reader *r) {
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\t'))
        r->p++;
}

/* Blanks, then an optional comment, then the end of the line (consumed). */
static int expect_line_end(reader *r) {
    skip_blank(r);
    if (r->p < r->end && *r->p == '#')
        while (r->p < r->end && *r->p != '\n')
            r->p++;
    if (r->p < r->end && *r->p == '\r')
        r->p++;
    if (r->p < r->end && *r->p != '\n')
        return fail(r, "unexpected text after the value");
    if (r->p < r->end) {
        r->p++;
        r->line++;
    }
    return 0;
}

/* Blanks, comments and newlines (inside an array). */
static void skip_space(reader *r) {
    for (;;) {
        skip_blank(r);
        if (r->p < r->end && *r->p == '#')
            while (r->p < r->end && *r->p != '\n')
                r->p++;
        if (r->p < r->end && (*r->p == '\n' || *r->p == '\r')) {
            r->line += *r->p == '\n';
            r->p++;
            continue;
        }
        return;
    }
}

static int read_string(reader *r, char *out) {
    char quote = *r->p++;
    size_t n = 0;
    while (r->p < r->end && *r->p != quote) {
        char c = *r->p++;
        if (c == '\n')
            return fail(r, "string not closed on its line");
        if (c == '\\' && quote == '"') {
            if (r->p >= r->end)
                break;
            char e = *r->p++;
            c = e == 'n' ? '\n' : e == 't' ? '\t' : e == '"' ? '"' : e == '\\' ? '\\' : 0;
            if (!c)
                return fail(r, "unsupported escape in string");
        }
        if (n + 1 >= MAX_STRING)
            return fail(r, "string too long");
        out[n++] = c;
    }
    if (r->p >= r->end)
        return fail(r, "string not closed");
    r->p++;
    out[n] = '\0';
    return 0;
}

typedef enum { VALUE_STRING, VALUE_BOOL, VALUE_ARRAY } value_kind;

typedef struct {
    value_kind kind;
    bool boolean;
    char string[MAX_STRING];
    size_t count;
    char items[GM_MAX_RULE_SELECTORS][MAX_STRING];
} value;

static int read_value(reader *r, value *v) {
    skip_blank(r);
    if (r->p < r->end && (*r->p == '"' || *r->p == '\'')) {
        if (r->end - r->p >= 3 && r->p[1] == r->p[0] && r->p[2] == r->p[0])
            return fail(r, "multi-line strings are not supported in [tool.graphmend]");
        v->kind = VALUE_STRING;
        return read_string(r, v->string);
    }
    if (r->end - r->p >= 4 && memcmp(r->p, "true", 4) == 0) {
        v->kind = VALUE_BOOL;
        v->boolean = true;
        r->p += 4;
        return 0;
    }
    if (r->end - r->p >= 5 && memcmp(r->p, "false", 5) == 0) {
        v->kind = VALUE_BOOL;
        v->boolean = false;
        r->p += 5;
        return 0;
    }
    if (r->p < r->end && *r->p == '[') {
        r->p++;
        v->kind = VALUE_ARRAY;
        v->count = 0;
        for (;;) {
            skip_space(r);
            if (r->p < r->end && *r->p == ']') {
                r->p++;
                return 0;
            }
            if (r->p >= r->end || (*r->p != '"' && *r->p != '\''))
                return fail(r, "arrays in [tool.graphmend] may hold only strings");
            if (v->count == GM_MAX_RULE_SELECTORS)
                return fail(r, "too many items in the array");
            if (read_string(r, v->items[v->count++]) != 0)
                return -1;
            skip_space(r);
            if (r->p < r->end && *r->p == ',') {
                r->p++;
            } else if (r->p >= r->end || *r->p != ']') {
                return fail(r, "expected ',' or ']' in the array");
            }
        }
    }
    return fail(r, "unsupported value (expected a string, true, false or an array of strings)");
}

/* Whether the line at r->p is a table header; if so, its name (dots and quotes kept as written,
 * blanks removed) goes to name and the line is consumed. */
static bool read_header(reader *r, char *name, size_t size, bool *array) {
    const char *p = r->p;
    while (p < r->end && (*p == ' ' || *p == '\t'))
        p++;
    if (p >= r->end || *p != '[')
        return false;
    const char *eol = memchr(p, '\n', (size_t)(r->end - p));
    if (!eol)
        eol = r->end;
    const char *close = p;
    *array = p + 1 < eol && p[1] == '[';
    p += *array ? 2 : 1;
    size_t n = 0;
    for (close = p; close < eol && *close != ']' && *close != '#'; close++)
        if (*close != ' ' && *close != '\t' && n + 1 < size)
            name[n++] = *close;
    name[n] = '\0';
    if (close >= eol || *close != ']')
        return false;
    r->p = eol < r->end ? eol + 1 : eol;
    r->line++;
    return true;
}

/* Whether the line at r opens a [tool.graphmend...] header that does not close on it: TOML
 * rejects the file, and reading on would drop the table without a word. */
static bool unclosed_graphmend_header(const reader *r) {
    const char *p = r->p;
    while (p < r->end && (*p == ' ' || *p == '\t'))
        p++;
    static const char header[] = "[tool.graphmend";
    size_t n = sizeof header - 1;
    if ((size_t)(r->end - p) < n || memcmp(p, header, n) != 0)
        return false;
    const char *eol = memchr(p, '\n', (size_t)(r->end - p));
    const char *close = memchr(p, ']', (size_t)((eol ? eol : r->end) - p));
    const char *comment = memchr(p, '#', (size_t)((eol ? eol : r->end) - p));
    return !close || (comment && comment < close);
}

static bool is_key_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '_';
}

/* Skips one line of another table, keeping track of multi-line strings. */
static void skip_line(reader *r, const char **in_string) {
    while (r->p < r->end && *r->p != '\n') {
        if (*in_string) {
            if (r->end - r->p >= 3 && memcmp(r->p, *in_string, 3) == 0) {
                *in_string = NULL;
                r->p += 3;
                continue;
            }
        } else if (r->end - r->p >= 3 &&
                   (memcmp(r->p, "\"\"\"", 3) == 0 || memcmp(r->p, "'''", 3) == 0)) {
            *in_string = *r->p == '"' ? "\"\"\"" : "'''";
            r->p += 3;
            continue;
        } else if (*r->p == '#') {
            while (r->p < r->end && *r->p != '\n')
                r->p++;
            break;
        }
        r->p++;
    }
    if (r->p < r->end) {
        r->p++;
        r->line++;
    }
}

/* One clause of a version specifier ("3.10", "3.10.2", "3.11.*"): its MAJOR.MINOR as
 * major*100+minor, or 0 when it is not digits and dots (a pre-release, "3", ...). */
static int clause_version(const char *p, const char *end) {
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
        end--;
    if (end - p >= 2 && memcmp(end - 2, ".*", 2) == 0)
        end -= 2;
    char text[32];
    size_t n = 0;
    const char *dot = NULL;
    for (const char *c = p; c < end; c++) {
        if (*c == '.' && !dot && c > p)
            dot = c;
        else if (*c == '.' && dot)
            break; /* the patch and what follows do not matter */
        else if (*c < '0' || *c > '9')
            return 0;
        if (n + 1 < sizeof text)
            text[n++] = *c;
    }
    text[n] = '\0';
    int version;
    return gm_parse_python_version(text, &version) == 0 ? version : 0;
}

/* The lower bound of a requires-python specifier set (">=3.10", ">=3.9, <4", "~=3.10.2",
 * "==3.11.*"): the largest MAJOR.MINOR that a ">=", ">", "~=" or "==" clause names, as
 * major*100+minor; 0 when no clause gives one that this reads. */
static int requires_python_lower_bound(const char *spec) {
    int bound = 0;
    for (const char *clause = spec; *clause;) {
        const char *end = strchr(clause, ',');
        if (!end)
            end = clause + strlen(clause);
        const char *p = clause;
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        size_t op = 0;
        if (end - p >= 2 && (memcmp(p, ">=", 2) == 0 || memcmp(p, "~=", 2) == 0 ||
                             (memcmp(p, "==", 2) == 0 && (end - p < 3 || p[2] != '='))))
            op = 2;
        else if (p < end && *p == '>')
            op = 1; /* ">3.10" still admits 3.10.1 */
        int version = op ? clause_version(p + op, end) : 0;
        if (version > bound)
            bound = version;
        clause = *end ? end + 1 : end;
    }
    return bound;
}

/* In [project]: whether the line at r->p is requires-python = "..." (a one-line string); if so
 * the line is consumed and its lower bound (0 when unreadable) goes to *bound. Any other line,
 * or a value in another form, is left for skip_line: [project] is not ours to judge. */
static bool read_requires_python(reader *r, value *v, int *bound) {
    static const char key[] = "requires-python";
    reader probe = *r;
    char ignored[8];
    probe.error = ignored; /* a value it cannot read is no error of [tool.graphmend] */
    probe.error_size = sizeof ignored;
    skip_blank(&probe);
    if (probe.end - probe.p < (ptrdiff_t)(sizeof key - 1) ||
        memcmp(probe.p, key, sizeof key - 1) != 0)
        return false;
    probe.p += sizeof key - 1;
    skip_blank(&probe);
    if (probe.p >= probe.end || *probe.p != '=')
        return false;
    probe.p++;
    if (read_value(&probe, v) != 0 || v->kind != VALUE_STRING || expect_line_end(&probe) != 0)
        return false;
    r->p = probe.p;
    r->line = probe.line;
    *bound = requires_python_lower_bound(v->string);
    return true;
}

/* Appends the strings of v to patterns (an exclude list). Returns 0, or -1 when they do not fit. */
static int add_patterns(reader *r, const value *v, gm_project_files *files) {
    for (size_t i = 0; i < v->count; i++) {
        if (files->exclude_count == GM_MAX_PROJECT_PATTERNS)
            return fail(r, "too many exclude patterns");
        snprintf(files->exclude[files->exclude_count++], GM_PROJECT_PATTERN_SIZE, "%s",
                 v->items[i]);
    }
    return 0;
}

/* A line of [tool.graphmend.per-file-ignores]: "GLOB" = ["GM401", "GM2"]. */
static int read_per_file_ignore(reader *r, value *v, gm_project_files *files) {
    char glob[MAX_STRING];
    if (*r->p == '"' || *r->p == '\'') {
        if (read_string(r, glob) != 0)
            return -1;
    } else {
        size_t n = 0;
        while (r->p < r->end && is_key_char(*r->p) && n + 1 < sizeof glob)
            glob[n++] = *r->p++;
        glob[n] = '\0';
    }
    skip_blank(r);
    if (!*glob || r->p >= r->end || *r->p != '=')
        return fail(r, "expected '\"GLOB\" = [rule ids]' in [tool.graphmend.per-file-ignores]");
    r->p++;
    int key_line = r->line;
    if (read_value(r, v) != 0 || expect_line_end(r) != 0)
        return -1;
    int after = r->line;
    r->line = key_line;
    if (v->kind != VALUE_ARRAY)
        return fail(r, "per-file-ignores: each glob takes an array of rule ids");
    gm_rule_selectors rules;
    const char *ids[GM_MAX_RULE_SELECTORS];
    for (size_t i = 0; i < v->count; i++)
        ids[i] = v->items[i];
    char why[128], message[200];
    if (gm_rule_selectors_set(&rules, ids, v->count, why, sizeof why) != 0) {
        snprintf(message, sizeof message, "per-file-ignores: %.150s", why);
        return fail(r, message);
    }
    if (files) {
        if (files->per_file_ignore_count == GM_MAX_PROJECT_PATTERNS)
            return fail(r, "too many per-file-ignores");
        gm_per_file_ignore *entry = &files->per_file_ignores[files->per_file_ignore_count++];
        snprintf(entry->glob, sizeof entry->glob, "%s", glob);
        entry->rules = rules;
    }
    r->line = after;
    return 0;
}

/* Bits of `seen` for the keys that are no analysis options (duplicates are errors too). */
enum {
    SEEN_EXCLUDE = 1u << 24,
    SEEN_EXTEND_EXCLUDE = 1u << 25,
    SEEN_EXTEND_SELECT = 1u << 26,
    SEEN_CACHE_DIR = 1u << 27
};

/* Applies key = value (of [tool.graphmend]) to *next; exclude patterns go to kept (when not
 * NULL), extend-select to *extend_select. Returns 0, or -1 after fail(). */
static int apply_key(reader *r, const char *key_name, const value *v, gm_analysis_options *next,
                     unsigned *seen, unsigned *next_set, gm_project_files *kept,
                     gm_rule_selectors *extend_select) {
    char message[200];
    unsigned bit = 0;
    if (strcmp(key_name, "torch-version") == 0) {
        bit = GM_SET_TORCH_VERSION;
        if (v->kind != VALUE_STRING || gm_parse_torch_version(v->string, &next->torch_version))
            return fail(r, "torch-version must be a \"MAJOR.MINOR\" string such as \"2.13\"");
        if (!gm_torch_version_supported(next->torch_version))
            return fail(r, "torch-version must be from \"2.0\" to \"2.20\"");
    } else if (strcmp(key_name, "python-version") == 0) {
        bit = GM_SET_PYTHON_VERSION;
        if (v->kind != VALUE_STRING || gm_parse_python_version(v->string, &next->python_version))
            return fail(r, "python-version must be a \"MAJOR.MINOR\" string such as \"3.11\"");
        if (!gm_python_version_supported(next->python_version))
            return fail(r, "python-version must be from \"3.9\" to \"3.15\"");
    } else if (strcmp(key_name, "compile-forward") == 0 || strcmp(key_name, "training") == 0) {
        bool forward = key_name[0] == 'c';
        bit = forward ? GM_SET_COMPILE_FORWARD : GM_SET_TRAINING;
        if (v->kind != VALUE_BOOL) {
            snprintf(message, sizeof message, "%s must be true or false", key_name);
            return fail(r, message);
        }
        if (forward)
            next->forward_is_compiled = v->boolean;
        else
            next->training = v->boolean;
    } else if (strcmp(key_name, "unsafe-fixes") == 0) {
        bit = GM_SET_UNSAFE_FIXES;
        if (v->kind != VALUE_BOOL)
            return fail(r, "unsafe-fixes must be true or false");
        next->unsafe_fixes = v->boolean;
    } else if (strcmp(key_name, "capture-scalar-outputs") == 0) {
        bit = GM_SET_CAPTURE_SCALAR_OUTPUTS;
        if (v->kind != VALUE_BOOL)
            return fail(r, "capture-scalar-outputs must be true or false");
        next->capture_scalar_outputs = v->boolean;
    } else if (strcmp(key_name, "capture-dynamic-output-shape-ops") == 0) {
        bit = GM_SET_CAPTURE_DYNAMIC_OUTPUT_SHAPE_OPS;
        if (v->kind != VALUE_BOOL)
            return fail(r, "capture-dynamic-output-shape-ops must be true or false");
        next->capture_dynamic_output_shape_ops = v->boolean;
    } else if (strcmp(key_name, "allow-rnn") == 0 || strcmp(key_name, "fullgraph") == 0 ||
               strcmp(key_name, "nested-graph-breaks") == 0) {
        bit = key_name[0] == 'a'   ? GM_SET_ALLOW_RNN
              : key_name[0] == 'f' ? GM_SET_FULLGRAPH
                                   : GM_SET_NESTED_GRAPH_BREAKS;
        if (v->kind != VALUE_BOOL) {
            snprintf(message, sizeof message, "%s must be true or false", key_name);
            return fail(r, message);
        }
        if (bit == GM_SET_ALLOW_RNN)
            next->allow_rnn = v->boolean;
        else if (bit == GM_SET_FULLGRAPH)
            next->fullgraph = v->boolean;
        else
            next->nested_graph_breaks = v->boolean ? GM_NESTED_ON : GM_NESTED_OFF;
    } else if (strcmp(key_name, "reorderable-logging-functions") == 0 ||
               strcmp(key_name, "ignore-logging-functions") == 0) {
        bool reorderable = key_name[0] == 'r';
        bit = reorderable ? GM_SET_REORDERABLE_LOGGING_FUNCTIONS
                          : GM_SET_IGNORE_LOGGING_FUNCTIONS;
        if (v->kind != VALUE_ARRAY) {
            snprintf(message, sizeof message,
                     "%s must be an array of dotted function names such as \"print\"",
                     key_name);
            return fail(r, message);
        }
        const char *items[GM_MAX_RULE_SELECTORS];
        for (size_t i = 0; i < v->count; i++)
            items[i] = v->items[i];
        char why[160];
        gm_function_names *target =
            reorderable ? &next->reorderable_logging_functions : &next->ignore_logging_functions;
        if (gm_function_names_set(target, items, v->count, why, sizeof why) != 0) {
            snprintf(message, sizeof message, "%.40s: %.150s", key_name, why);
            return fail(r, message);
        }
    } else if (strcmp(key_name, "select") == 0 || strcmp(key_name, "ignore") == 0) {
        bool select = key_name[0] == 's';
        bit = select ? GM_SET_SELECT : GM_SET_IGNORE;
        if (v->kind != VALUE_ARRAY) {
            snprintf(message, sizeof message, "%s must be an array of rule ids", key_name);
            return fail(r, message);
        }
        const char *ids[GM_MAX_RULE_SELECTORS];
        for (size_t i = 0; i < v->count; i++)
            ids[i] = v->items[i];
        char why[128];
        if (gm_rule_selectors_set(select ? &next->select : &next->ignore, ids, v->count, why,
                                  sizeof why) != 0) {
            snprintf(message, sizeof message, "%.40s: %.150s", key_name, why);
            return fail(r, message);
        }
    } else if (strcmp(key_name, "exclude") == 0 || strcmp(key_name, "extend-exclude") == 0) {
        bit = strcmp(key_name, "exclude") == 0 ? SEEN_EXCLUDE : SEEN_EXTEND_EXCLUDE;
        if (v->kind != VALUE_ARRAY) {
            snprintf(message, sizeof message, "%s must be an array of glob patterns",
                     key_name);
            return fail(r, message);
        }
        if (kept && add_patterns(r, v, kept) != 0)
            return -1;
    } else if (strcmp(key_name, "cache-dir") == 0) {
        bit = SEEN_CACHE_DIR;
        if (v->kind != VALUE_STRING || !v->string[0])
            return fail(r, "cache-dir must be a directory (a string)");
        if (kept && snprintf(kept->cache_dir, sizeof kept->cache_dir, "%s", v->string) >=
                        (int)sizeof kept->cache_dir)
            return fail(r, "cache-dir is too long");
    } else if (strcmp(key_name, "extend-select") == 0) {
        bit = SEEN_EXTEND_SELECT;
        if (v->kind != VALUE_ARRAY)
            return fail(r, "extend-select must be an array of rule ids");
        const char *ids[GM_MAX_RULE_SELECTORS];
        for (size_t i = 0; i < v->count; i++)
            ids[i] = v->items[i];
        char why[128];
        if (gm_rule_selectors_set(extend_select, ids, v->count, why, sizeof why) != 0) {
            snprintf(message, sizeof message, "extend-select: %.150s", why);
            return fail(r, message);
        }
    } else {
        static const char *const keys[] = {
            "allow-rnn",        "cache-dir",     "capture-dynamic-output-shape-ops",
            "capture-scalar-outputs",
            "compile-forward",  "exclude",       "extend-exclude",  "extend-select",
            "fullgraph",        "ignore",        "ignore-logging-functions",
            "nested-graph-breaks", "per-file-ignores", "python-version",
            "reorderable-logging-functions", "select", "torch-version", "training",
            "unsafe-fixes",     NULL};
        const char *near = gm_closest_name(key_name, keys, sizeof keys / sizeof *keys);
        if (near)
            snprintf(message, sizeof message,
                     "unknown key '%s' in [tool.graphmend] (did you mean '%s'?)", key_name, near);
        else
            snprintf(message, sizeof message, "unknown key '%s' in [tool.graphmend]", key_name);
        return fail(r, message);
    }
    if (*seen & bit) {
        snprintf(message, sizeof message, "duplicate key '%s'", key_name);
        return fail(r, message);
    }
    *seen |= bit;
    if (bit < SEEN_EXCLUDE) /* an analysis option */
        *next_set |= bit;
    return 0;
}

static int parse_project(const char *text, size_t len, gm_analysis_options *options,
                         unsigned *set, gm_project_files *files, char *error, size_t error_size) {
    reader r = {text, text + len, 1, error, error_size};
    gm_analysis_options next = *options;
    unsigned next_set = *set, seen = 0;
    bool inside = false, had_table = false, in_project = false;
    bool in_per_file = false, had_per_file = false;
    gm_rule_selectors extend_select = {0};
    gm_project_files *kept = files ? calloc(1, sizeof *kept) : NULL;
    if (files && !kept)
        return fail(&r, "out of memory");
    int requires_python = 0; /* the lower bound of [project] requires-python; 0: none */
    const char *in_string = NULL;
    static value v;
    while (r.p < r.end) {
        char name[128];
        bool array;
        int header_line = r.line;
        if (!in_string && unclosed_graphmend_header(&r)) {
            free(kept);
            return fail(&r, "the table header [tool.graphmend is not closed: expected ']'");
        }
        if (!in_string && read_header(&r, name, sizeof name, &array)) {
            inside = in_per_file = false;
            in_project = !array && strcmp(name, "project") == 0;
            if (strncmp(name, "tool.graphmend", 14) != 0 || (name[14] && name[14] != '.'))
                continue;
            r.line = header_line;
            bool per_file = strcmp(name + 14, ".per-file-ignores") == 0;
            if (array || (name[14] == '.' && !per_file)) {
                free(kept);
                return fail(&r, "only the [tool.graphmend] and [tool.graphmend.per-file-ignores] "
                                "tables are supported");
            }
            if (per_file ? had_per_file : had_table) {
                free(kept);
                return fail(&r, per_file ? "duplicate [tool.graphmend.per-file-ignores] table"
                                         : "duplicate [tool.graphmend] table");
            }
            r.line++;
            inside = true;
            in_per_file = per_file;
            had_per_file |= per_file;
            had_table |= !per_file;
            continue;
        }
        if (!inside) {
            if (in_project && !in_string && read_requires_python(&r, &v, &requires_python))
                continue;
            skip_line(&r, &in_string);
            continue;
        }
        skip_blank(&r);
        if (r.p >= r.end)
            break;
        if (*r.p == '#' || *r.p == '\n' || *r.p == '\r') {
            if (expect_line_end(&r) != 0) {
                free(kept);
                return -1;
            }
            continue;
        }
        if (in_per_file) {
            if (read_per_file_ignore(&r, &v, kept) != 0) {
                free(kept);
                return -1;
            }
            continue;
        }
        const char *key = r.p;
        while (r.p < r.end && is_key_char(*r.p))
            r.p++;
        size_t key_len = (size_t)(r.p - key);
        skip_blank(&r);
        if (key_len == 0 || r.p >= r.end || *r.p != '=') {
            free(kept);
            return fail(&r, "expected 'key = value' in [tool.graphmend]");
        }
        r.p++;
        char key_name[64];
        snprintf(key_name, sizeof key_name, "%.*s", (int)(key_len < 60 ? key_len : 60), key);
        int key_line = r.line;
        if (strcmp(key_name, "per-file-ignores") == 0) {
            free(kept);
            return fail(&r, "write per-file-ignores as a [tool.graphmend.per-file-ignores] table");
        }
        int status = read_value(&r, &v) != 0 || expect_line_end(&r) != 0 ? -1 : 0;
        int after = r.line;
        r.line = key_line; /* errors about the value name the key's line */
        if (status == 0)
            status = apply_key(&r, key_name, &v, &next, &seen, &next_set, kept, &extend_select);
        if (status != 0) {
            free(kept);
            return -1;
        }
        r.line = after;
    }
    /* extend-select adds to select (the table's own or the default), as ruff's does. */
    for (size_t i = 0; i < extend_select.count && next.select.count < GM_MAX_RULE_SELECTORS; i++)
        memcpy(next.select.items[next.select.count++], extend_select.items[i],
               sizeof next.select.items[0]);
    /* Without python-version the project's oldest Python decides, as ruff's target-version. */
    if (!(seen & GM_SET_PYTHON_VERSION) && requires_python) {
        next.python_version = gm_python_version_nearest_supported(requires_python);
        next_set |= GM_SET_PYTHON_VERSION;
    }
    *options = next;
    *set = next_set;
    if (files)
        *files = *kept;
    free(kept);
    return 0;
}

int gm_pyproject_parse(const char *text, size_t len, gm_analysis_options *options, unsigned *set,
                       char *error, size_t error_size) {
    return parse_project(text, len, options, set, NULL, error, error_size);
}

int gm_pyproject_parse_project(const char *text, size_t len, gm_analysis_options *options,
                               unsigned *set, gm_project_files *files, char *error,
                               size_t error_size) {
    if (files)
        memset(files, 0, sizeof *files);
    return parse_project(text, len, options, set, files, error, error_size);
}

int gm_pyproject_find(const char *dir, char *path, size_t path_size) {
    char given[4096];
    snprintf(given, sizeof given, "%s", dir && *dir ? dir : ".");
    char *current = realpath(given, NULL);
    /* A directory that does not exist (that of a --stdin-filename): its nearest existing one. */
    for (char *slash; !current && (slash = strrchr(given, '/')) != NULL;) {
        if (slash == given)
            slash[1] = '\0';
        else
            *slash = '\0';
        current = realpath(given, NULL);
        if (!current && slash == given)
            break;
    }
    if (!current && !strchr(given, '/'))
        current = realpath(".", NULL);
    if (!current)
        return -1;
    int rc = -1;
    for (;;) {
        struct stat st;
        snprintf(path, path_size, "%s/pyproject.toml", strcmp(current, "/") == 0 ? "" : current);
        if (stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
            rc = 0;
            break;
        }
        char *slash = strrchr(current, '/');
        if (!slash || strcmp(current, "/") == 0)
            break;
        if (slash == current)
            slash[1] = '\0';
        else
            *slash = '\0';
    }
    free(current);
    return rc;
}

int gm_pyproject_load_project(const char *file, gm_analysis_options *options, unsigned *set,
                              gm_project_files *files, char *error, size_t error_size) {
    if (files)
        memset(files, 0, sizeof *files);
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", file);
    struct stat st;
    if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode)) {
        char *slash = strrchr(dir, '/');
        if (!slash)
            snprintf(dir, sizeof dir, ".");
        else if (slash == dir)
            slash[1] = '\0';
        else
            *slash = '\0';
    }
    char path[4200];
    if (gm_pyproject_find(dir, path, sizeof path) != 0)
        return 0;
    size_t len = 0;
    char *text = gm_read_file(path, &len);
    if (!text) {
        snprintf(error, error_size, "%s: cannot read: %s", path, gm_read_file_error(errno));
        return -1;
    }
    char why[300];
    int rc = parse_project(text, len, options, set, files, why, sizeof why);
    free(text);
    if (rc != 0)
        snprintf(error, error_size, "%s: %s", path, why);
    else if (files) /* gm_pyproject_find gives an absolute path */
        snprintf(files->root, sizeof files->root, "%.*s", (int)(strrchr(path, '/') - path),
                 path);
    return rc;
}

int gm_pyproject_load_for_file(const char *file, gm_analysis_options *options, unsigned *set,
                               char *error, size_t error_size) {
    return gm_pyproject_load_project(file, options, set, NULL, error, error_size);
}
