#include "analysis/findings/suppression.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/syntax/line_breaks.h"
static size_t rule_index(const gm_rule *rule) {
    size_t count;
    const gm_rule *rules = gm_rules(&count);
    return (size_t)(rule - rules);
}

bool gm_rule_set_has(const gm_rule_set *set, const gm_rule *rule) {
    if (set->all)
        return true;
    size_t i = rule_index(rule);
    return i < 64 * GM_RULE_SET_WORDS && (set->bits[i / 64] >> (i % 64)) & 1u;
}

static void rule_set_add(gm_rule_set *set, const gm_rule *rule) {
    size_t i = rule_index(rule);
    if (i < 64 * GM_RULE_SET_WORDS)
        set->bits[i / 64] |= (uint64_t)1 << (i % 64);
}

static const char *find_bytes(const char *hay, const char *end, const char *needle) {
    size_t n = strlen(needle);
    for (const char *p = hay; p + n <= end; p++)
        if (memcmp(p, needle, n) == 0)
            return p;
    return NULL;
}

static bool starts_with(const char *p, const char *end, const char *word) {
    size_t n = strlen(word);
    return (size_t)(end - p) >= n && memcmp(p, word, n) == 0;
}

static bool is_word_char(char c) {
    return isalnum((unsigned char)c) || c == '_' || c == '-';
}

bool gm_code_rules(const char *text, uint32_t start, uint32_t end, gm_rule_set *set) {
    size_t n = end - start, count;
    const gm_rule *rules = gm_rules(&count);
    bool any = false;
    for (size_t i = 0; n > 0 && i < count; i++) {
        if (strlen(rules[i].id) >= n && memcmp(rules[i].id, text + start, n) == 0) {
            rule_set_add(set, &rules[i]);
            any = true;
        }
    }
    return any;
}

/* Parses "ID, ID]" after '[' (p, within text); records the codes in d. Returns the position
 * after ']' or NULL. */
static const char *parse_ids(const char *text, const char *p, const char *end,
                             gm_line_directive *d) {
    while (p < end && *p != ']') {
        while (p < end && (*p == ' ' || *p == '\t' || *p == ','))
            p++;
        const char *start = p;
        while (p < end && isalnum((unsigned char)*p))
            p++;
        if (p > start && d->code_count < GM_MAX_DIRECTIVE_CODES)
            d->codes[d->code_count++] = (gm_directive_code){
                (uint32_t)(start - text), (uint32_t)(p - text), true};
        if (p == start && p < end && *p != ']')
            return NULL; /* neither an id nor a separator */
    }
    return p < end ? p + 1 : NULL;
}

static bool is_code_char(char c) {
    return isalnum((unsigned char)c);
}

/* After "noqa" (p): a bare noqa, or ": CODE, CODE" (ruff's form; codes are letters then
 * digits). Fills d; returns where the directive ends. */
static const char *parse_noqa(const char *text, const char *p, const char *end,
                              gm_line_directive *d) {
    if (p >= end || *p != ':') {
        d->all = true;
        return p;
    }
    const char *after = ++p;
    for (;;) {
        const char *q = p;
        while (q < end && (*q == ' ' || *q == '\t' || *q == ','))
            q++;
        const char *start = q;
        while (q < end && isalpha((unsigned char)*q))
            q++;
        const char *digits = q;
        while (q < end && isdigit((unsigned char)*q))
            q++;
        if (digits == start || q == digits || (q < end && is_code_char(*q)))
            break;
        if (d->code_count < GM_MAX_DIRECTIVE_CODES)
            d->codes[d->code_count++] = (gm_directive_code){
                (uint32_t)(start - text), (uint32_t)(q - text),
                q - start > 2 && start[0] == 'G' && start[1] == 'M'};
        p = q;
    }
    if (d->code_count == 0) { /* "# noqa:" with no codes: as a bare noqa */
        d->all = true;
        return after;
    }
    return p;
}

static bool lower_equals(const char *p, const char *end, const char *word) {
    size_t n = strlen(word);
    if ((size_t)(end - p) < n)
        return false;
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)p[i]) != word[i])
            return false;
    return true;
}

/* The directives of text[start, end); file_level: `ignore-file` ones, else `ignore` and noqa. */
static size_t parse_directives(const char *text, uint32_t start, uint32_t end, bool file_level,
                               gm_line_directive *out, size_t max) {
    const char *p = text + start, *stop = text + end;
    size_t count = 0;
    while (p < stop && count < max) {
        /* a directive starts at "graphmend:" or at a '#': every other byte moves on at once
         * (license headers and docs comments are long) */
        if (*p != 'g' && *p != '#') {
            p++;
            continue;
        }
        gm_line_directive d;
        memset(&d, 0, sizeof d);
        if (starts_with(p, stop, "graphmend:")) {
            const char *q = p + 10;
            while (q < stop && (*q == ' ' || *q == '\t'))
                q++;
            if (!starts_with(q, stop, "ignore")) {
                p += 10;
                continue;
            }
            q += 6;
            bool is_file = starts_with(q, stop, "-file");
            if (is_file)
                q += 5;
            if (is_file != file_level || (q < stop && is_word_char(*q))) {
                p = q;
                continue;
            }
            d.start = (uint32_t)(p - text);
            if (q < stop && *q == '[') {
                const char *after = parse_ids(text, q + 1, stop, &d);
                if (!after) {
                    p = q;
                    continue;
                }
                q = after;
            } else {
                d.all = true;
            }
            d.end = (uint32_t)(q - text);
            out[count++] = d;
            p = q;
            continue;
        }
        if (*p == '#' && !file_level) {
            const char *q = p + 1;
            while (q < stop && (*q == ' ' || *q == '\t'))
                q++;
            if (lower_equals(q, stop, "noqa") && (q + 4 >= stop || !is_word_char(q[4]))) {
                d.noqa = true;
                d.start = (uint32_t)(p - text);
                q = parse_noqa(text, q + 4, stop, &d);
                d.end = (uint32_t)(q - text);
                bool ours = d.all;
                for (size_t i = 0; i < d.code_count; i++)
                    ours |= d.codes[i].ours;
                if (ours)
                    out[count++] = d;
                p = q > p ? q : p + 1;
                continue;
            }
        }
        p++;
    }
    return count;
}

size_t gm_parse_line_directives(const char *text, uint32_t start, uint32_t end,
                                gm_line_directive *out, size_t max) {
    return parse_directives(text, start, end, false, out, max);
}

bool gm_parse_ignore_comment(const char *comment, size_t len, bool file_level, gm_rule_set *set) {
    gm_line_directive directives[8];
    size_t count = parse_directives(comment, 0, (uint32_t)len, file_level, directives, 8);
    for (size_t i = 0; i < count; i++) {
        const gm_line_directive *d = &directives[i];
        set->all |= d->all;
        for (size_t c = 0; c < d->code_count; c++)
            if (d->codes[c].ours)
                gm_code_rules(comment, d->codes[c].start, d->codes[c].end, set);
    }
    return count > 0;
}

uint32_t gm_line_end(const char *text, uint32_t len, uint32_t pos) {
    while (pos < len && !gm_ends_line(text, len, pos))
        pos++;
    return pos < len ? pos : len;
}

bool gm_find_line_comment(const gm_syntax *syntax, const char *text, uint32_t line_start,
                          uint32_t line_end, const TSNode *scopes, size_t scope_count,
                          TSNode *comment) {
    for (uint32_t p = line_start; p < line_end; p++) {
        if (text[p] != '#')
            continue;
        for (size_t i = 0; i < scope_count; i++) {
            TSNode scope = scopes[i];
            if (ts_node_is_null(scope) || p < ts_node_start_byte(scope) ||
                p >= ts_node_end_byte(scope))
                continue;
            TSNode n = ts_node_descendant_for_byte_range(scope, p, p + 1);
            if (gm_is(n, syntax->sym.comment) && ts_node_start_byte(n) == p) {
                *comment = n;
                return true;
            }
            break; /* '#' inside a string or other token: look further along the line */
        }
    }
    return false;
}

bool gm_line_suppresses(const gm_syntax *syntax, const char *text, uint32_t len, uint32_t pos,
                        uint32_t column, const TSNode *scopes, size_t scope_count,
                        const gm_rule *rule) {
    uint32_t line_start = pos - column;
    uint32_t line_end = gm_line_end(text, len, pos);
    TSNode comment;
    if (!gm_find_line_comment(syntax, text, line_start, line_end, scopes, scope_count, &comment))
        return false;
    gm_slice s = gm_node_slice(comment, text);
    gm_rule_set set = {0};
    return gm_parse_ignore_comment(s.ptr, s.len, false, &set) && gm_rule_set_has(&set, rule);
}

/* Whether byte pos (a line end) lies inside a string literal that goes on to the next line. */
static bool inside_string(const gm_syntax *syntax, uint32_t pos, const TSNode *scopes,
                          size_t scope_count) {
    for (size_t i = 0; i < scope_count; i++) {
        TSNode scope = scopes[i];
        if (ts_node_is_null(scope) || pos < ts_node_start_byte(scope) ||
            pos >= ts_node_end_byte(scope))
            continue;
        for (TSNode n = ts_node_descendant_for_byte_range(scope, pos, pos); !ts_node_is_null(n);
             n = ts_node_parent(n)) {
            if ((gm_is(n, syntax->sym.string) || gm_is(n, syntax->sym.concatenated_string)) &&
                ts_node_start_byte(n) < pos && ts_node_end_byte(n) > pos)
                return true;
            if (ts_node_eq(n, scope))
                break;
        }
        return false;
    }
    return false;
}

static uint32_t trim_back(const char *text, uint32_t from, uint32_t to) {
    while (to > from && (text[to - 1] == ' ' || text[to - 1] == '\t' || text[to - 1] == '\r'))
        to--;
    return to;
}

int gm_suppress_fix(const gm_syntax *syntax, const char *text, uint32_t len, uint32_t pos,
                    uint32_t column, const TSNode *scopes, size_t scope_count, const gm_rule *rule,
                    gm_fix *fix) {
    uint32_t line_start = pos - column;
    uint32_t line_end = gm_line_end(text, len, pos);
    char replacement[64];
    uint32_t at;
    TSNode comment;
    if (gm_find_line_comment(syntax, text, line_start, line_end, scopes, scope_count, &comment)) {
        uint32_t cs = ts_node_start_byte(comment), ce = ts_node_end_byte(comment);
        /* An `ignore[...]` list already there: add the id to it. */
        const char *end = text + ce;
        const char *bracket = NULL;
        for (const char *p = text + cs; (p = find_bytes(p, end, "graphmend:")) != NULL;) {
            const char *q = p + 10;
            p = q;
            while (q < end && (*q == ' ' || *q == '\t'))
                q++;
            if (starts_with(q, end, "ignore[")) {
                gm_line_directive ignored = {0};
                if (parse_ids(text, q + 7, end, &ignored)) {
                    bracket = memchr(q, ']', (size_t)(end - q));
                    break;
                }
            }
        }
        if (bracket) {
            at = (uint32_t)(bracket - text);
            snprintf(replacement, sizeof replacement, ", %s", rule->id);
        } else {
            at = trim_back(text, cs + 1, ce);
            snprintf(replacement, sizeof replacement, "  # graphmend: ignore[%s]", rule->id);
        }
    } else {
        at = trim_back(text, line_start, line_end);
        if (at > line_start && text[at - 1] == '\\')
            return 0; /* a comment after a line continuation is a syntax error */
        if (inside_string(syntax, line_end, scopes, scope_count))
            return 0;
        snprintf(replacement, sizeof replacement, "  # graphmend: ignore[%s]", rule->id);
    }
    char title[64];
    snprintf(title, sizeof title, "Suppress %s on this line", rule->id);
    memset(fix, 0, sizeof *fix);
    fix->kind = GM_FIX_KIND_SUPPRESS;
    fix->applicability = GM_FIX_SAFE;
    fix->title = strdup(title);
    fix->edits = calloc(1, sizeof *fix->edits);
    if (!fix->title || !fix->edits) {
        free(fix->title);
        free(fix->edits);
        return -1;
    }
    fix->edits[0].start_byte = at;
    fix->edits[0].end_byte = at;
    fix->edits[0].replacement = strdup(replacement);
    if (!fix->edits[0].replacement) {
        free(fix->title);
        free(fix->edits);
        return -1;
    }
    fix->edit_count = 1;
    return 1;
}
