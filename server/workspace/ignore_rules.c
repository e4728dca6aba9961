#include "server/workspace/ignore_rules.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "server/workspace/file_reader.h"

static int add_rule(gm_ignore_rules *rules, const char *dir, const char *line, size_t len) {
    gm_ignore_rule rule = {0};
    if (len > 0 && line[0] == '!') {
        rule.negated = true;
        line++;
        len--;
    }
    if (len > 0 && line[len - 1] == '/') {
        rule.directories_only = true;
        len--;
    }
    /* a `/` at the start or inside: matched against the path from the file's directory */
    rule.by_path = memchr(line, '/', len) != NULL;
    if (len > 0 && line[0] == '/') {
        line++;
        len--;
    }
    if (len == 0)
        return 0;
    if (rules->count == rules->capacity) {
        size_t capacity = rules->capacity ? rules->capacity * 2 : 16;
        gm_ignore_rule *grown = realloc(rules->rules, capacity * sizeof *grown);
        if (!grown)
            return -1;
        rules->rules = grown;
        rules->capacity = capacity;
    }
    rule.base = strdup(dir);
    rule.pattern = strndup(line, len);
    if (!rule.base || !rule.pattern) {
        free(rule.base);
        free(rule.pattern);
        return -1;
    }
    rules->rules[rules->count++] = rule;
    return 0;
}

int gm_ignore_rules_load(gm_ignore_rules *rules, const char *dir) {
    size_t n = strlen(dir) + sizeof "/.gitignore";
    char *path = malloc(n);
    if (!path)
        return -1;
    strcpy(path, dir);
    strcat(path, "/.gitignore");
    size_t len = 0;
    char *text = gm_read_file(path, &len);
    free(path);
    if (!text)
        return 0; /* none, or not a regular file: nothing to honour */
    int rc = 0;
    for (char *line = text; rc == 0 && line < text + len;) {
        char *end = memchr(line, '\n', (size_t)(text + len - line));
        if (!end)
            end = text + len;
        size_t line_len = (size_t)(end - line);
        while (line_len > 0 && (line[line_len - 1] == '\r' || line[line_len - 1] == ' '))
            line_len--;
        if (line_len > 0 && line[0] != '#')
            rc = add_rule(rules, dir, line, line_len);
        line = end + 1;
    }
    free(text);
    return rc;
}

bool gm_ignore_rules_match(const gm_ignore_rules *rules, const char *path, bool is_directory) {
    const char *name = strrchr(path, '/');
    name = name ? name + 1 : path;
    bool ignored = false;
    for (size_t i = 0; i < rules->count; i++) {
        const gm_ignore_rule *rule = &rules->rules[i];
        size_t base_len = strlen(rule->base);
        while (base_len > 1 && rule->base[base_len - 1] == '/')
            base_len--;
        if (strncmp(path, rule->base, base_len) != 0 || path[base_len] != '/')
            continue;
        if (rule->directories_only && !is_directory)
            continue;
        bool matched = rule->by_path ? fnmatch(rule->pattern, path + base_len + 1,
                                               strstr(rule->pattern, "**") ? 0 : FNM_PATHNAME) == 0
                                     : fnmatch(rule->pattern, name, 0) == 0;
        if (matched)
            ignored = !rule->negated;
    }
    return ignored;
}

void gm_ignore_rules_free(gm_ignore_rules *rules) {
    for (size_t i = 0; i < rules->count; i++) {
        free(rules->rules[i].base);
        free(rules->rules[i].pattern);
    }
    free(rules->rules);
    memset(rules, 0, sizeof *rules);
}
