#include "analysis/findings/unused_suppressions.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool line_has_hit(const gm_suppression_hit *hits, size_t count, uint32_t line_start,
                         const gm_rule_set *rules) {
    for (size_t i = 0; i < count; i++)
        if (hits[i].line_start == line_start && (!rules || gm_rule_set_has(rules, hits[i].rule)))
            return true;
    return false;
}

static bool sets_intersect(const gm_rule_set *a, const gm_rule_set *b) {
    for (size_t w = 0; w < GM_RULE_SET_WORDS; w++)
        if (a->bits[w] & b->bits[w])
            return true;
    return false;
}

typedef struct {
    bool whole;                               /* the directive hides nothing at all */
    bool unused[GM_MAX_DIRECTIVE_CODES];      /* codes naming rules with no finding here */
    bool unknown[GM_MAX_DIRECTIVE_CODES];     /* codes naming no rule */
} verdict;

/* What of directive d (on the line starting at line_start) is unused. Returns whether any is. */
static bool judge(const char *text, const gm_line_directive *d, uint32_t line_start,
                  const gm_suppression_hit *hits, size_t hit_count, const gm_rule_set *reported,
                  verdict *v) {
    memset(v, 0, sizeof *v);
    if (d->all) {
        v->whole = !line_has_hit(hits, hit_count, line_start, NULL);
        return v->whole;
    }
    bool any = false, all = true;
    for (size_t c = 0; c < d->code_count; c++) {
        const gm_directive_code *code = &d->codes[c];
        if (!code->ours) {
            all = false;
            continue;
        }
        gm_rule_set rules = {0};
        if (!gm_code_rules(text, code->start, code->end, &rules)) {
            v->unknown[c] = true;
        } else if (sets_intersect(&rules, reported) &&
                   !line_has_hit(hits, hit_count, line_start, &rules)) {
            v->unused[c] = true;
        }
        bool flagged = v->unknown[c] || v->unused[c];
        any |= flagged;
        all &= flagged;
    }
    v->whole = any && all;
    return any;
}

/* " (unused: `GM401`; unknown: `GM999`)", or "" when the whole bare directive is unused. */
static void describe(const char *text, const gm_line_directive *d, const verdict *v, char *out,
                     size_t size) {
    static const char *const kinds[2] = {"unused", "unknown"};
    size_t used = 0;
    out[0] = '\0';
    for (int k = 0; k < 2; k++) {
        bool first = true;
        for (size_t c = 0; c < d->code_count && used < size; c++) {
            if (!(k == 0 ? v->unused[c] : v->unknown[c]))
                continue;
            used += (size_t)snprintf(out + used, size - used, "%s%s%s`%.*s`",
                                     first ? (used ? "; " : " (") : ", ", first ? kinds[k] : "",
                                     first ? ": " : "", (int)(d->codes[c].end - d->codes[c].start),
                                     text + d->codes[c].start);
            first = false;
        }
    }
    if (used && used + 1 < size)
        snprintf(out + used, size - used, ")");
}

/* The edit removing what v finds unused of d, in the comment [comment_start, comment_end) on
 * the line [line_start, line_end]. */
static int removal_edit(const char *text, uint32_t len, const gm_line_directive *d,
                        const verdict *v, uint32_t line_start, uint32_t comment_start,
                        uint32_t comment_end, gm_text_edit *edit) {
    memset(edit, 0, sizeof *edit);
    if (!v->whole) {
        /* keep the other codes: rewrite the list */
        size_t size = (size_t)(d->codes[d->code_count - 1].end - d->codes[0].start) + 1;
        char *kept = calloc(1, size);
        if (!kept)
            return -1;
        size_t n = 0;
        for (size_t c = 0; c < d->code_count; c++) {
            if (v->unused[c] || v->unknown[c])
                continue;
            n += (size_t)snprintf(kept + n, size - n, "%s%.*s", n ? ", " : "",
                                  (int)(d->codes[c].end - d->codes[c].start),
                                  text + d->codes[c].start);
        }
        edit->start_byte = d->codes[0].start;
        edit->end_byte = d->codes[d->code_count - 1].end;
        edit->replacement = kept;
        return 0;
    }
    uint32_t start = d->start, end = d->end;
    bool directive_is_comment = true; /* nothing but "#", blanks and the directive */
    for (uint32_t p = comment_start + 1; p < comment_end; p++)
        if ((p < start || p >= end) && text[p] != ' ' && text[p] != '\t')
            directive_is_comment = false;
    if (directive_is_comment) {
        start = comment_start;
        end = comment_end;
    }
    while (start > line_start && (text[start - 1] == ' ' || text[start - 1] == '\t'))
        start--;
    if (start == line_start && directive_is_comment) {
        /* a comment line of its own: the whole line goes */
        uint32_t line_end = gm_line_end(text, len, comment_end);
        end = line_end < len ? line_end + 1 : len;
    } else if (!directive_is_comment) {
        while (end < comment_end && (text[end] == ' ' || text[end] == '\t'))
            end++;
        if (start > comment_start && text[start - 1] == '#')
            start--; /* "... # noqa: GM401": its own '#' */
        if (start == comment_start && end < comment_end && text[end] == '#')
            end++; /* "# graphmend: ignore  # why": keep the comment after it */
    }
    edit->start_byte = start;
    edit->end_byte = end;
    edit->replacement = strdup(start == comment_start && end < comment_end ? "# " : "");
    return edit->replacement ? 0 : -1;
}

static int add_finding(const char *text, uint32_t len, const gm_line_directive *d,
                       const verdict *v, TSNode comment, gm_finding_list *out) {
    const gm_rule *rule = gm_rule_by_id("GM901");
    uint32_t comment_start = ts_node_start_byte(comment);
    TSPoint at = ts_node_start_point(comment);
    uint32_t line_start = comment_start - at.column;
    char codes[256] = "", message[400];
    describe(text, d, v, codes, sizeof codes);
    snprintf(message, sizeof message, "Unused %s%s directive%s",
             d->all && d->noqa ? "blanket " : "", d->noqa ? "`noqa`" : "`graphmend: ignore`",
             codes);
    gm_finding f;
    memset(&f, 0, sizeof f);
    f.rule = rule;
    f.span.start_byte = d->start;
    f.span.end_byte = d->end;
    f.span.start = (gm_point){at.row, d->start - line_start};
    f.span.end = (gm_point){at.row, d->end - line_start};
    f.message = strdup(message);
    f.fixes = calloc(1, sizeof *f.fixes);
    if (!f.message || !f.fixes)
        goto oom;
    gm_fix *fix = &f.fixes[0];
    fix->kind = GM_FIX_KIND_MEND;
    fix->applicability = GM_FIX_SAFE;
    fix->title = strdup(v->whole ? "Remove unused suppression" : "Remove unused codes");
    fix->edits = calloc(1, sizeof *fix->edits);
    f.fix_count = 1;
    if (!fix->title || !fix->edits)
        goto oom;
    fix->edit_count = 1;
    if (removal_edit(text, len, d, v, line_start, comment_start, ts_node_end_byte(comment),
                     &fix->edits[0]) != 0)
        goto oom;
    if (gm_finding_list_push(out, &f) != 0)
        goto oom;
    return 0;
oom:
    gm_finding_free(&f);
    return -1;
}

/* Whether the comment may hold a directive: cheap, before asking the tree. */
static bool mentions_directive(const char *text, uint32_t from, uint32_t to) {
    for (uint32_t p = from; p + 4 <= to; p++) {
        char c = (char)(text[p] | 0x20);
        if ((c == 'g' && to - p >= 9 && memcmp(text + p, "graphmend", 9) == 0) ||
            (c == 'n' && (text[p + 1] | 0x20) == 'o' && (text[p + 2] | 0x20) == 'q' &&
             (text[p + 3] | 0x20) == 'a'))
            return true;
    }
    return false;
}

int gm_unused_suppressions(const gm_syntax *syntax, TSNode root, const char *text, uint32_t len,
                           const gm_suppression_hit *hits, size_t hit_count,
                           const gm_rule_set *reported, gm_finding_list *out) {
    const gm_rule *self = gm_rule_by_id("GM901");
    for (uint32_t p = 0; p < len; p++) {
        if (text[p] != '#')
            continue;
        uint32_t line_end = gm_line_end(text, len, p);
        if (!mentions_directive(text, p, line_end))
            continue;
        TSNode comment = ts_node_descendant_for_byte_range(root, p, p + 1);
        if (!gm_is(comment, syntax->sym.comment) || ts_node_start_byte(comment) != p)
            continue; /* a '#' in a string: a comment may still follow */
        uint32_t comment_end = ts_node_end_byte(comment);
        uint32_t line_start = p - ts_node_start_point(comment).column;
        gm_line_directive directives[8];
        size_t count = gm_parse_line_directives(text, p, comment_end, directives, 8);
        gm_rule_set own = {0};
        gm_slice s = gm_node_slice(comment, text);
        gm_parse_ignore_comment(s.ptr, s.len, false, &own);
        bool silenced = !own.all && gm_rule_set_has(&own, self); /* `# noqa: GM901` */
        for (size_t i = 0; i < count && !silenced; i++) {
            verdict v;
            if (judge(text, &directives[i], line_start, hits, hit_count, reported, &v) &&
                add_finding(text, len, &directives[i], &v, comment, out) != 0)
                return -1;
        }
        p = comment_end > p ? comment_end - 1 : p;
    }
    return 0;
}
