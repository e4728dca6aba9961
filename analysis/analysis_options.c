#include "analysis_options.h"

#include <stdio.h>
#include <string.h>

void gm_analysis_options_default(gm_analysis_options *options) {
    options->forward_is_compiled = true;
    options->training = false;
    options->report_syntax_errors = true;
    options->torch_version = 213;
    options->capture_scalar_outputs = false;
    options->capture_dynamic_output_shape_ops = false;
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

bool gm_analysis_options_equal(const gm_analysis_options *a, const gm_analysis_options *b) {
    return a->forward_is_compiled == b->forward_is_compiled && a->training == b->training &&
           a->report_syntax_errors == b->report_syntax_errors &&
           a->torch_version == b->torch_version &&
           a->capture_scalar_outputs == b->capture_scalar_outputs &&
           a->capture_dynamic_output_shape_ops == b->capture_dynamic_output_shape_ops &&
           selectors_equal(&a->select, &b->select) && selectors_equal(&a->ignore, &b->ignore);
}

static bool selectors_match(const gm_rule_selectors *selectors, const char *id) {
    for (size_t i = 0; i < selectors->count; i++)
        if (strncmp(id, selectors->items[i], strlen(selectors->items[i])) == 0)
            return true;
    return false;
}

bool gm_analysis_rule_enabled(const gm_analysis_options *options, const gm_rule *rule) {
    const char *id = rule->id;
    if (options->capture_scalar_outputs && (strcmp(id, "GM201") == 0 || strcmp(id, "GM202") == 0))
        return false;
    if (options->capture_dynamic_output_shape_ops && strcmp(id, "GM301") == 0)
        return false;
    return selectors_match(&options->select, id) && !selectors_match(&options->ignore, id);
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
