/* analysis/findings/text_edit.c, analysis/findings/findings.c and the rule catalogue. */
#include "check.h"

#include <stdlib.h>

#include "analysis/findings/findings.h"
#include "analysis/findings/text_edit.h"
#include "analysis/rules/catalogue/rule_catalogue.h"

static gm_text_edit edit(uint32_t s, uint32_t e, const char *r) {
    gm_text_edit x = {s, e, (char *)r, false};
    return x;
}

static void apply(void) {
    const char *text = "hello world";
    size_t n;
    gm_text_edit e1[] = {edit(0, 5, "bye"), edit(6, 6, "big "), edit(11, 11, "!")};
    char *out = gm_apply_text_edits(text, 11, e1, 3, &n);
    CHECK_EQ_STR(out, "bye big world!");
    CHECK_EQ_INT(n, 14);
    free(out);
    out = gm_apply_text_edits(text, 11, NULL, 0, &n);
    CHECK_EQ_STR(out, "hello world");
    free(out);
    gm_text_edit del[] = {edit(0, 11, "")};
    out = gm_apply_text_edits(text, 11, del, 1, &n);
    CHECK_EQ_STR(out, "");
    CHECK_EQ_INT(n, 0);
    free(out);
    /* Two insertions at one point apply in order. */
    gm_text_edit ins[] = {edit(5, 5, "A"), edit(5, 5, "B")};
    out = gm_apply_text_edits(text, 11, ins, 2, &n);
    CHECK_EQ_STR(out, "helloAB world");
    free(out);
    /* Rejected: overlapping, unsorted, out of range, reversed. */
    gm_text_edit overlap[] = {edit(0, 5, "a"), edit(4, 6, "b")};
    CHECK(gm_apply_text_edits(text, 11, overlap, 2, &n) == NULL);
    gm_text_edit unsorted[] = {edit(6, 7, "a"), edit(0, 1, "b")};
    CHECK(gm_apply_text_edits(text, 11, unsorted, 2, &n) == NULL);
    gm_text_edit range[] = {edit(5, 12, "a")};
    CHECK(gm_apply_text_edits(text, 11, range, 1, &n) == NULL);
    gm_text_edit reversed[] = {edit(5, 4, "a")};
    CHECK(gm_apply_text_edits(text, 11, reversed, 1, &n) == NULL);
}

static void collect(void) {
    gm_text_edit a[] = {edit(10, 12, "a")};
    gm_text_edit b[] = {edit(11, 13, "b")}; /* overlaps a */
    gm_text_edit c[] = {edit(0, 2, "c"), edit(20, 20, "c2")};
    gm_text_edit d[] = {edit(12, 12, "d")}; /* insertion touching a's end */
    gm_text_edit e[] = {edit(13, 15, "e")}; /* next to a: fine */
    gm_fix fa = {GM_FIX_KIND_MEND, GM_FIX_SAFE, "a", a, 1, NULL};
    gm_fix fb = {GM_FIX_KIND_MEND, GM_FIX_SAFE, "b", b, 1, NULL};
    gm_fix fc = {GM_FIX_KIND_MEND, GM_FIX_SAFE, "c", c, 2, NULL};
    gm_fix fd = {GM_FIX_KIND_MEND, GM_FIX_SAFE, "d", d, 1, NULL};
    gm_fix fe = {GM_FIX_KIND_MEND, GM_FIX_SAFE, "e", e, 1, NULL};
    const gm_fix *fixes[] = {&fa, &fb, &fc, &fd, &fe};
    gm_text_edit *out;
    size_t count, taken;
    CHECK_EQ_INT(gm_collect_non_overlapping(fixes, 5, &out, &count, &taken), 0);
    CHECK_EQ_INT(count, 4);
    CHECK_EQ_INT(taken, 3); /* a, c (two edits) and e */
    if (count == 4) {
        CHECK_EQ_INT(out[0].start_byte, 0);
        CHECK_EQ_INT(out[1].start_byte, 10);
        CHECK_EQ_INT(out[2].start_byte, 13);
        CHECK_EQ_INT(out[3].start_byte, 20);
        CHECK(out[1].replacement == a[0].replacement); /* borrowed */
    }
    free(out);
    CHECK_EQ_INT(gm_collect_non_overlapping(fixes, 0, &out, &count, NULL), 0);
    CHECK_EQ_INT(count, 0);
    free(out);

    /* Fixes sharing an identical edit (the same setting line inserted at the same place) are
     * all taken, the shared edit once; a different insertion at that place still conflicts. */
    gm_text_edit s1[] = {edit(0, 0, "setting\n"), edit(10, 12, "x")};
    gm_text_edit s2[] = {edit(0, 0, "setting\n"), edit(20, 22, "y")};
    gm_text_edit s3[] = {edit(0, 0, "other\n"), edit(30, 32, "z")};
    gm_fix fs1 = {GM_FIX_KIND_MEND, GM_FIX_SAFE, "s1", s1, 2, NULL};
    gm_fix fs2 = {GM_FIX_KIND_MEND, GM_FIX_SAFE, "s2", s2, 2, NULL};
    gm_fix fs3 = {GM_FIX_KIND_MEND, GM_FIX_SAFE, "s3", s3, 2, NULL};
    const gm_fix *sharing[] = {&fs1, &fs2, &fs3};
    CHECK_EQ_INT(gm_collect_non_overlapping(sharing, 3, &out, &count, &taken), 0);
    CHECK_EQ_INT(taken, 2);
    CHECK_EQ_INT(count, 3);
    if (count == 3) {
        CHECK_EQ_STR(out[0].replacement, "setting\n");
        CHECK_EQ_INT(out[1].start_byte, 10);
        CHECK_EQ_INT(out[2].start_byte, 20);
    }
    free(out);
}

static void findings_and_catalogue(void) {
    size_t n;
    const gm_rule *rules = gm_rules(&n);
    CHECK(n >= 3 && n <= 256);
    for (size_t i = 1; i < n; i++)
        CHECK(strcmp(rules[i - 1].id, rules[i].id) < 0);
    const gm_rule *r = gm_rule_by_id("GM101");
    CHECK(r && strcmp(r->name, "data-dependent-branch") == 0);
    CHECK_EQ_STR(r ? r->url : NULL,
                 "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0170.html");
    r = gm_rule_by_id("GM401");
    CHECK(r && strcmp(r->name, "print-call") == 0 && strcmp(r->registry_id, "GB0059") == 0);
    CHECK_EQ_STR(r ? r->url : NULL,
                 "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0059.html");
    r = gm_rule_by_id("GM001");
    CHECK(r && strcmp(r->name, "syntax-error") == 0 && r->severity == GM_SEVERITY_ERROR);
    CHECK(gm_rule_by_id("GM999") == NULL);
    CHECK(gm_rule_by_id(NULL) == NULL);
    CHECK_EQ_STR(gm_applicability_name(GM_FIX_SAFE), "safe");
    CHECK_EQ_STR(gm_applicability_name(GM_FIX_UNSAFE), "unsafe");
    CHECK_EQ_STR(gm_applicability_name(GM_FIX_DISPLAY_ONLY), "display-only");

    /* A finding with one fix, copied shifted, and the list keeping start order. */
    gm_finding f = {0};
    f.rule = gm_rule_by_id("GM401");
    f.span.start_byte = 100;
    f.span.end_byte = 108;
    f.span.start.row = 5;
    f.span.start.column = 4;
    f.span.end.row = 5;
    f.span.end.column = 12;
    f.message = strdup("msg");
    f.fixes = calloc(1, sizeof *f.fixes);
    f.fix_count = 1;
    f.fixes[0].title = strdup("t");
    f.fixes[0].edits = calloc(1, sizeof *f.fixes[0].edits);
    f.fixes[0].edit_count = 1;
    f.fixes[0].edits[0].start_byte = 108;
    f.fixes[0].edits[0].end_byte = 108;
    f.fixes[0].edits[0].replacement = strdup("x");
    gm_finding g;
    CHECK_EQ_INT(gm_finding_copy_shifted(&f, &g, -50, -2), 0);
    CHECK_EQ_INT(g.span.start_byte, 50);
    CHECK_EQ_INT(g.span.end_byte, 58);
    CHECK_EQ_INT(g.span.start.row, 3);
    CHECK_EQ_INT(g.span.start.column, 4);
    CHECK_EQ_INT(g.fixes[0].edits[0].start_byte, 58);
    CHECK_EQ_STR(g.fixes[0].edits[0].replacement, "x");
    CHECK(g.message != f.message && strcmp(g.message, "msg") == 0);
    gm_finding_shift(&f, 10, 1);
    CHECK_EQ_INT(f.span.start_byte, 110);
    CHECK_EQ_INT(f.span.end.row, 6);
    CHECK_EQ_INT(f.fixes[0].edits[0].end_byte, 118);

    gm_finding_list list;
    gm_finding_list_init(&list);
    CHECK_EQ_INT(gm_finding_list_push(&list, &f), 0);
    CHECK_EQ_INT(gm_finding_list_push(&list, &g), 0); /* earlier: goes first */
    CHECK_EQ_INT(list.count, 2);
    CHECK_EQ_INT(list.items[0].span.start_byte, 50);
    CHECK_EQ_INT(list.items[1].span.start_byte, 110);
    gm_finding_list_free(&list);
    CHECK_EQ_INT(list.count, 0);
}

int main(void) {
    apply();
    collect();
    findings_and_catalogue();
    return check_exit_code("analysis/findings/text_edit");
}
