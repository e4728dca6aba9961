#include "analysis/options/analysis_options.h"


#include <stdio.h>
#include <string.h>

#include "analysis/options/closest_name.h"

void gm_analysis_options_default(gm_analysis_options *options) {
    options->forward_is_compiled = true;
    options->training = false;
    options->report_syntax_errors = true;
    options->torch_version = 213;
    options->python_version = 311;
    options->capture_scalar_outputs = false;
    options->capture_dynamic_output_shape_ops = false;
    options->allow_rnn = false;
    options->fullgraph = false;
    options->nested_graph_breaks = GM_NESTED_DEFAULT;
    options->unsafe_fixes = false;
    memset(&options->reorderable_logging_functions, 0,
           sizeof options->reorderable_logging_functions);
    memset(&options->ignore_logging_functions, 0, sizeof options->ignore_logging_functions);
    memset(&options->select, 0, sizeof options->select);
    memset(&options->ignore, 0, sizeof options->ignore);
    options->select.count = 1;
    strcpy(options->select.items[0], "GM");
}

static bool selectors_equal(const gm_rule_selectors *a, const gm_rule_selectors *b) {
    if (a->count != b->count)
        return false;
    for (size_t i = 0; i < a->count; i++)
        if (strcmp(a->items[i], b->items[i]) != 0)
            return false;
    return true;
}

static bool names_equal(const gm_function_names *a, const gm_function_names *b) {
    if (a->count != b->count)
        return false;
    for (size_t i = 0; i < a->count; i++)
        if (strcmp(a->items[i], b->items[i]) != 0)
            return false;
    return true;
}

bool gm_analysis_options_equal(const gm_analysis_options *a, const gm_analysis_options *b) {
    return a->forward_is_compiled == b->forward_is_compiled && a->training == b->training &&
           a->report_syntax_errors == b->report_syntax_errors &&
           a->torch_version == b->torch_version && a->python_version == b->python_version &&
           a->capture_scalar_outputs == b->capture_scalar_outputs &&
           a->capture_dynamic_output_shape_ops == b->capture_dynamic_output_shape_ops &&
           a->allow_rnn == b->allow_rnn && a->fullgraph == b->fullgraph &&
           a->nested_graph_breaks == b->nested_graph_breaks &&
           names_equal(&a->reorderable_logging_functions, &b->reorderable_logging_functions) &&
           names_equal(&a->ignore_logging_functions, &b->ignore_logging_functions) &&
           selectors_equal(&a->select, &b->select) && selectors_equal(&a->ignore, &b->ignore);
}

static uint64_t mix_bytes(uint64_t hash, const void *data, size_t len) {
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        hash ^= p[i];
        hash *= 0x100000001b3ull;
    }
    return hash;
}

static uint64_t mix_int(uint64_t hash, long value) {
    return mix_bytes(hash, &value, sizeof value);
}

/* The items with their NULs, so that ["ab"] and ["a", "b"] differ. */
static uint64_t mix_items(uint64_t hash, size_t count, const char *items, size_t item_size) {
    hash = mix_int(hash, (long)count);
    for (size_t i = 0; i < count; i++) {
        const char *item = items + i * item_size;
        hash = mix_bytes(hash, item, strlen(item) + 1);
    }
    return hash;
}

uint64_t gm_analysis_options_digest(const gm_analysis_options *o) {
    uint64_t h = 0xcbf29ce484222325ull;
    const long flags[] = {o->forward_is_compiled,
                          o->training,
                          o->report_syntax_errors,
                          o->torch_version,
                          o->python_version,
                          o->capture_scalar_outputs,
                          o->capture_dynamic_output_shape_ops,
                          o->allow_rnn,
                          o->fullgraph,
                          o->nested_graph_breaks};
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++)
        h = mix_int(h, flags[i]);
    const gm_function_names *names[] = {&o->reorderable_logging_functions,
                                        &o->ignore_logging_functions};
    for (size_t i = 0; i < 2; i++)
        h = mix_items(h, names[i]->count, names[i]->items[0], GM_FUNCTION_NAME_SIZE);
    const gm_rule_selectors *selectors[] = {&o->select, &o->ignore};
    for (size_t i = 0; i < 2; i++)
        h = mix_items(h, selectors[i]->count, selectors[i]->items[0], GM_RULE_SELECTOR_SIZE);
    return h;
}

static bool selectors_match(const gm_rule_selectors *selectors, const char *id) {
    for (size_t i = 0; i < selectors->count; i++)
        if (strncmp(id, selectors->items[i], strlen(selectors->items[i])) == 0)
            return true;
    return false;
}

/* Whether a selector longer than "GM" (all rules) matches id. */
static bool selectors_match_specifically(const gm_rule_selectors *selectors, const char *id) {
    for (size_t i = 0; i < selectors->count; i++)
        if (strlen(selectors->items[i]) > 2 &&
            strncmp(id, selectors->items[i], strlen(selectors->items[i])) == 0)
            return true;
    return false;
}

bool gm_analysis_rule_enabled(const gm_analysis_options *options, const gm_rule *rule) {
    const char *id = rule->id;
    if (options->capture_scalar_outputs && (strcmp(id, "GM201") == 0 || strcmp(id, "GM202") == 0))
        return false;
    if (options->capture_dynamic_output_shape_ops && strcmp(id, "GM301") == 0)
        return false;
    if (options->allow_rnn && strcmp(id, "GM604") == 0)
        return false;
    if (gm_options_fullgraph_traces(options, options->fullgraph, rule))
        return false;
    if (rule->opt_in && !selectors_match_specifically(&options->select, id))
        return false;
    return selectors_match(&options->select, id) && !selectors_match(&options->ignore, id);
}

const char *gm_closest_rule_id(const char *id) {
    size_t count;
    const gm_rule *rules = gm_rules(&count);
    const char *names[512]; /* the catalogue has a few dozen rules */
    size_t n = 0;
    for (size_t r = 0; r < count && n < sizeof names / sizeof *names; r++)
        names[n++] = rules[r].id;
    return gm_closest_name(id, names, n);
}

int gm_rule_selectors_set(gm_rule_selectors *selectors, const char *const *ids, size_t count,
                          char *error, size_t error_size) {
    if (count > GM_MAX_RULE_SELECTORS) {
        snprintf(error, error_size, "at most %d rule selectors are allowed", GM_MAX_RULE_SELECTORS);
        return -1;
    }
    size_t rule_count;
    const gm_rule *rules = gm_rules(&rule_count);
    for (size_t i = 0; i < count; i++) {
        size_t n = strlen(ids[i]);
        bool known = false;
        for (size_t r = 0; n > 0 && n < GM_RULE_SELECTOR_SIZE && r < rule_count && !known; r++)
            known = strncmp(rules[r].id, ids[i], n) == 0;
        if (!known) {
            const char *near = gm_closest_rule_id(ids[i]);
            if (near)
                snprintf(error, error_size, "unknown rule selector \"%.40s\" (did you mean \"%s\"?)",
                         ids[i], near);
            else
                snprintf(error, error_size, "unknown rule selector \"%.40s\"", ids[i]);
            return -1;
        }
    }
    memset(selectors, 0, sizeof *selectors);
    for (size_t i = 0; i < count; i++)
        strcpy(selectors->items[i], ids[i]);
    selectors->count = count;
    return 0;
}

int gm_parse_torch_version(const char *text, int *version) {
    int major = 0, minor = 0;
    const char *p = text;
    if (*p < '0' || *p > '9')
        return -1;
    while (*p >= '0' && *p <= '9' && major < 1000)
        major = major * 10 + (*p++ - '0');
    if (*p++ != '.' || *p < '0' || *p > '9')
        return -1;
    while (*p >= '0' && *p <= '9' && minor < 1000)
        minor = minor * 10 + (*p++ - '0');
    if (*p != '\0' || major >= 100 || minor >= 100)
        return -1;
    *version = major * 100 + minor;
    return 0;
}

bool gm_torch_version_supported(int version) {
    return version >= GM_TORCH_VERSION_MIN && version <= GM_TORCH_VERSION_MAX;
}

int gm_parse_python_version(const char *text, int *version) {
    return gm_parse_torch_version(text, version); /* the same MAJOR.MINOR form */
}

bool gm_python_version_supported(int version) {
    return version >= GM_PYTHON_VERSION_MIN && version <= GM_PYTHON_VERSION_MAX;
}

bool gm_options_comprehension_frames(const gm_analysis_options *options) {
    return options->python_version < 312;
}

static bool is_dotted_name(const char *s) {
    bool start = true;
    for (; *s; s++) {
        bool alpha = (*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_';
        if (*s == '.') {
            if (start)
                return false;
            start = true;
        } else if (alpha || (!start && *s >= '0' && *s <= '9')) {
            start = false;
        } else {
            return false;
        }
    }
    return !start;
}

int gm_function_names_set(gm_function_names *names, const char *const *items, size_t count,
                          char *error, size_t error_size) {
    if (count > GM_MAX_FUNCTION_NAMES) {
        snprintf(error, error_size, "at most %d function names are allowed", GM_MAX_FUNCTION_NAMES);
        return -1;
    }
    for (size_t i = 0; i < count; i++) {
        if (strlen(items[i]) >= GM_FUNCTION_NAME_SIZE || !is_dotted_name(items[i])) {
            snprintf(error, error_size,
                     "\"%.40s\" is not a dotted function name such as \"warnings.warn\"", items[i]);
            return -1;
        }
    }
    memset(names, 0, sizeof *names);
    for (size_t i = 0; i < count; i++)
        strcpy(names->items[i], items[i]);
    names->count = count;
    return 0;
}

/* "builtins.print" is how dynamo's own config spells print; both mean the builtin. */
static const char *canonical(const char *name) {
    return strncmp(name, "builtins.", 9) == 0 ? name + 9 : name;
}

bool gm_function_names_has(const gm_function_names *names, const char *name) {
    for (size_t i = 0; i < names->count; i++)
        if (strcmp(canonical(names->items[i]), canonical(name)) == 0)
            return true;
    return false;
}

bool gm_options_nested_graph_breaks(const gm_analysis_options *options) {
    if (options->nested_graph_breaks != GM_NESTED_DEFAULT)
        return options->nested_graph_breaks == GM_NESTED_ON;
    return options->torch_version >= 214;
}

const char *gm_options_ignore_config_name(const gm_analysis_options *options) {
    if (options->torch_version < 206)
        return NULL;
    return options->torch_version >= 210 ? "ignore_logging_functions" : "ignore_logger_methods";
}

bool gm_options_reorders(const gm_analysis_options *options, const char *name, bool constant_args) {
    if (options->torch_version < 203) /* reorderable_logging_functions came in 2.3 */
        return false;
    if (gm_function_names_has(&options->reorderable_logging_functions, name))
        return true;
    return options->torch_version >= 214 && constant_args && strcmp(name, "warnings.warn") == 0;
}

bool gm_options_ignores(const gm_analysis_options *options, const char *name) {
    if (options->torch_version < 206) /* ignore_logger_methods came in 2.6 */
        return false;
    if (options->torch_version < 210 && strncmp(name, "logging.Logger.", 15) != 0)
        return false;
    return gm_function_names_has(&options->ignore_logging_functions, name);
}

bool gm_options_fullgraph(const gm_analysis_options *options, bool site_fullgraph) {
    return options->fullgraph || site_fullgraph;
}

bool gm_options_fullgraph_traces(const gm_analysis_options *options, bool fullgraph,
                                 const gm_rule *rule) {
    if (!fullgraph || options->torch_version < 210)
        return false;
    return strcmp(rule->id, "GM201") == 0 || strcmp(rule->id, "GM202") == 0 ||
           strcmp(rule->id, "GM301") == 0;
}
