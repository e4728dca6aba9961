/* `# graphmend: ignore` comments (line and file forms) and the suppression fix. */
#include "check.h"

#include "analysis/findings/suppression.h"
#include "analysis_test.h"

#define HEAD                                                                                       \
    "import torch\n"                                                                               \
    "import torch.nn as nn\n"                                                                      \
    "\n"                                                                                           \
    "class M(nn.Module):\n"                                                                        \
    "    def forward(self, x: torch.Tensor):\n"

static void parse_comments(void) {
    gm_rule_set s = {0};
    const gm_rule *gm101 = gm_rule_by_id("GM101"), *gm401 = gm_rule_by_id("GM401");
    const char *c1 = "# graphmend: ignore";
    CHECK(gm_parse_ignore_comment(c1, strlen(c1), false, &s));
    CHECK(s.all);
    memset(&s, 0, sizeof s);
    const char *c2 = "# note graphmend:ignore[GM101 , GM999]";
    CHECK(gm_parse_ignore_comment(c2, strlen(c2), false, &s));
    CHECK(!s.all && gm_rule_set_has(&s, gm101) && !gm_rule_set_has(&s, gm401));
    memset(&s, 0, sizeof s);
    const char *c3 = "# graphmend: ignore-file[GM401]";
    CHECK(!gm_parse_ignore_comment(c3, strlen(c3), false, &s)); /* not a line directive */
    CHECK(gm_parse_ignore_comment(c3, strlen(c3), true, &s));
    CHECK(gm_rule_set_has(&s, gm401) && !gm_rule_set_has(&s, gm101));
    memset(&s, 0, sizeof s);
    const char *c4 = "# graphmend: ignored";
    CHECK(!gm_parse_ignore_comment(c4, strlen(c4), false, &s));
    const char *c5 = "# graphmend: ignore[GM101";
    CHECK(!gm_parse_ignore_comment(c5, strlen(c5), false, &s));
    const char *c6 = "# graphmend: ignore-file";
    CHECK(gm_parse_ignore_comment(c6, strlen(c6), true, &s) && s.all);
    /* ruff's noqa: bare for every rule; a list's GM codes; other tools' codes are theirs */
    memset(&s, 0, sizeof s);
    const char *c7 = "# noqa";
    CHECK(gm_parse_ignore_comment(c7, strlen(c7), false, &s) && s.all);
    memset(&s, 0, sizeof s);
    const char *c8 = "# NOQA: E501, GM401";
    CHECK(gm_parse_ignore_comment(c8, strlen(c8), false, &s));
    CHECK(!s.all && gm_rule_set_has(&s, gm401) && !gm_rule_set_has(&s, gm101));
    memset(&s, 0, sizeof s);
    const char *c9 = "# noqa: E501";
    CHECK(!gm_parse_ignore_comment(c9, strlen(c9), false, &s));
    const char *c10 = "# noqaxyz";
    CHECK(!gm_parse_ignore_comment(c10, strlen(c10), false, &s));
    CHECK(!gm_parse_ignore_comment(c7, strlen(c7), true, &s)); /* no file-level noqa */
    /* prefixes */
    memset(&s, 0, sizeof s);
    const char *c11 = "# graphmend: ignore[GM4]";
    CHECK(gm_parse_ignore_comment(c11, strlen(c11), false, &s));
    CHECK(gm_rule_set_has(&s, gm401) && gm_rule_set_has(&s, gm_rule_by_id("GM403")) &&
          !gm_rule_set_has(&s, gm101));
}

static void line_suppression(void) {
    AT_EXPECT(HEAD "        print(x)  # graphmend: ignore\n", "GM401", 0);
    AT_EXPECT(HEAD "        print(x)  # graphmend: ignore[GM401]\n", "GM401", 0);
    AT_EXPECT(HEAD "        print(x)  # graphmend: ignore[GM101]\n", "GM401", 1);
    AT_EXPECT(HEAD "        print(x)  # graphmend: ignore[GM999]\n", "GM401", 1);
    AT_EXPECT(HEAD "        print(x)  # why: graphmend: ignore[GM401]\n", "GM401", 0);
    AT_EXPECT(HEAD "        print('# graphmend: ignore')\n", "GM401", 1); /* a string */
    AT_EXPECT(HEAD "        print(x)  # noqa: GM401\n", "GM401", 0);
    AT_EXPECT(HEAD "        print(x)  # noqa\n", "GM401", 0);
    AT_EXPECT(HEAD "        print(x)  # noqa: E501\n", "GM401", 1);
    AT_EXPECT(HEAD "        print(x)  # graphmend: ignore[GM4]\n", "GM401", 0);
    AT_EXPECT(HEAD "        print(x)  # graphmend: ignore[GM1]\n", "GM401", 1);
    /* GM901 is opt-in: not reported under the default select ("GM") */
    AT_EXPECT(HEAD "        y = x  # noqa: GM401\n", "GM901", 0);
    AT_EXPECT(HEAD "        # graphmend: ignore\n        print(x)\n", "GM401", 1);
    {
        const char *src = HEAD "        if x.sum() > 0: print(x)  # graphmend: ignore[GM401]\n";
        gm_finding_list l = at_analyze(src);
        CHECK_EQ_INT(at_count(&l, "GM101"), 1);
        CHECK_EQ_INT(at_count(&l, "GM401"), 0);
        gm_finding_list_free(&l);
    }
    AT_EXPECT(HEAD "        if x.sum() > 0: print(x)  # graphmend: ignore[GM101, GM401]\n", "GM101",
              0);
    AT_EXPECT(HEAD "        if x.sum() > 0: print(x)  # graphmend: ignore[GM101, GM401]\n", "GM401",
              0);
    /* A multi-line condition: the comment goes on its first line. */
    AT_EXPECT(HEAD
              "        if (x.sum() >  # graphmend: ignore\n                0):\n            pass\n",
              "GM101", 0);
}

static void file_suppression(void) {
    AT_EXPECT("# graphmend: ignore-file\n" HEAD "        print(x)\n", "GM401", 0);
    AT_EXPECT(HEAD "        print(x)\n\n# graphmend: ignore-file[GM401]\n", "GM401", 0);
    {
        const char *src = "# graphmend: ignore-file[GM401]\n" HEAD
                          "        if x.sum() > 0:\n            print(x)\n";
        gm_finding_list l = at_analyze(src);
        CHECK_EQ_INT(at_count(&l, "GM401"), 0);
        CHECK_EQ_INT(at_count(&l, "GM101"), 1);
        gm_finding_list_free(&l);
    }
    /* Not file-level: inside a function, or after code on the same line. */
    AT_EXPECT(HEAD "        # graphmend: ignore-file\n        print(x)\n", "GM401", 1);
    AT_EXPECT("import os  # graphmend: ignore-file\n" HEAD "        print(x)\n", "GM401", 1);
    AT_EXPECT("# graphmend: ignore-file[GM001]\ndef f(:\n", "GM001", 0);
}

/* Applies the suppression fix of the first finding of rule and checks that the result parses
 * and no longer has that finding (and keeps the others). */
static void expect_suppress_fix(const char *src, const char *rule, const char *expected_text) {
    gm_finding_list l = at_analyze(src);
    size_t before = l.count;
    const gm_finding *f = at_find(&l, rule, 0);
    const gm_fix *fix = at_fix(f, GM_FIX_KIND_SUPPRESS);
    CHECK(fix != NULL);
    if (fix) {
        char title[64];
        snprintf(title, sizeof title, "Suppress %s on this line", rule);
        CHECK_EQ_STR(fix->title, title);
        CHECK_EQ_INT(fix->applicability, GM_FIX_SAFE);
        CHECK(f->fixes[f->fix_count - 1].kind == GM_FIX_KIND_SUPPRESS);
        char *out = at_apply(src, fix);
        CHECK(out != NULL);
        if (out) {
            if (expected_text)
                CHECK_EQ_STR(out, expected_text);
            CHECK(at_parses_cleanly(out));
            gm_finding_list again = at_analyze(out);
            CHECK_EQ_INT(again.count, before - 1);
            CHECK_EQ_INT(at_count(&again, rule), at_count(&l, rule) - 1);
            gm_finding_list_free(&again);
            free(out);
        }
    }
    gm_finding_list_free(&l);
}

static void suppress_fix(void) {
    expect_suppress_fix(HEAD "        print(x)\n", "GM401",
                        HEAD "        print(x)  # graphmend: ignore[GM401]\n");
    expect_suppress_fix(HEAD "        print(x)   \n", "GM401",
                        HEAD "        print(x)  # graphmend: ignore[GM401]   \n");
    expect_suppress_fix(HEAD "        print(x)\r\n        return x\r\n", "GM401",
                        HEAD
                        "        print(x)  # graphmend: ignore[GM401]\r\n        return x\r\n");
    expect_suppress_fix(HEAD "        print(x)", "GM401", /* no newline at the end */
                        HEAD "        print(x)  # graphmend: ignore[GM401]");
    /* An existing comment is kept; the directive goes after it. */
    expect_suppress_fix(HEAD "        print(x)  # debug output\n", "GM401",
                        HEAD "        print(x)  # debug output  # graphmend: ignore[GM401]\n");
    /* An existing ignore list gets the id. */
    expect_suppress_fix(
        HEAD "        if x.sum() > 0: print(x)  # graphmend: ignore[GM101]\n", "GM401",
        HEAD "        if x.sum() > 0: print(x)  # graphmend: ignore[GM101, GM401]\n");
    /* Two findings on a line: suppressing one keeps the other. */
    expect_suppress_fix(HEAD "        if x.sum() > 0: print(x)\n", "GM101",
                        HEAD "        if x.sum() > 0: print(x)  # graphmend: ignore[GM101]\n");
    /* Multi-line statement: the comment goes on the finding's first line. */
    expect_suppress_fix(HEAD "        print(x,\n              x)\n", "GM401",
                        HEAD "        print(x,  # graphmend: ignore[GM401]\n              x)\n");

    /* No suppression fix where a comment cannot go: inside a string, after a continuation. */
    const char *no_fix[] = {
        HEAD "        print(\"\"\"first\n        second\"\"\")\n",
        HEAD "        print(f\"\"\"{x}\n        \"\"\")\n",
        HEAD "        if x.sum() > \\\n                0:\n            pass\n",
    };
    for (size_t i = 0; i < sizeof no_fix / sizeof no_fix[0]; i++) {
        gm_finding_list l = at_analyze(no_fix[i]);
        CHECK_EQ_INT(l.count, 1);
        CHECK(l.count == 1 && at_fix(&l.items[0], GM_FIX_KIND_SUPPRESS) == NULL);
        gm_finding_list_free(&l);
    }
}

/* With GM901 selected: the unused directive of src is reported with message and its fix turns
 * src into expected. */
static void expect_unused(const char *src, const char *message, const char *expected) {
    gm_analysis_options o;
    gm_analysis_options_default(&o);
    const char *ids[] = {"GM4", "GM1", "GM901"};
    char error[64];
    CHECK(gm_rule_selectors_set(&o.select, ids, 3, error, sizeof error) == 0);
    gm_finding_list l = at_analyze_with(src, &o);
    const gm_finding *f = at_find(&l, "GM901", 0);
    CHECK(f != NULL);
    if (f) {
        CHECK_EQ_STR(f->message, message);
        const gm_fix *fix = at_fix(f, GM_FIX_KIND_MEND);
        CHECK(fix != NULL && fix->applicability == GM_FIX_SAFE);
        char *out = fix ? at_apply(src, fix) : NULL;
        CHECK(out != NULL);
        if (out) {
            CHECK_EQ_STR(out, expected);
            gm_finding_list again = at_analyze_with(out, &o);
            CHECK_EQ_INT(at_count(&again, "GM901"), 0);
            gm_finding_list_free(&again);
            free(out);
        }
    }
    gm_finding_list_free(&l);
}

static void unused_suppressions(void) {
    expect_unused(HEAD "        y = x  # noqa: GM401\n",
                  "Unused `noqa` directive (unused: `GM401`)", HEAD "        y = x\n");
    expect_unused(HEAD "        print(x)  # graphmend: ignore[GM401, GM101]\n",
                  "Unused `graphmend: ignore` directive (unused: `GM101`)",
                  HEAD "        print(x)  # graphmend: ignore[GM401]\n");
    expect_unused(HEAD "        y = x  # noqa: E501, GM401\n",
                  "Unused `noqa` directive (unused: `GM401`)",
                  HEAD "        y = x  # noqa: E501\n");
    expect_unused(HEAD "        y = x  # noqa\n", "Unused blanket `noqa` directive",
                  HEAD "        y = x\n");
    expect_unused(HEAD "        # graphmend: ignore\n        y = x\n",
                  "Unused `graphmend: ignore` directive", HEAD "        y = x\n");
    expect_unused(HEAD "        print(x)  # graphmend: ignore[GM401, GM999]\n",
                  "Unused `graphmend: ignore` directive (unknown: `GM999`)",
                  HEAD "        print(x)  # graphmend: ignore[GM401]\n");
    expect_unused(HEAD "        y = x  # keep this graphmend: ignore[GM4]\n",
                  "Unused `graphmend: ignore` directive (unused: `GM4`)",
                  HEAD "        y = x  # keep this\n");
    /* used ones, and other tools' noqa, are no finding */
    gm_analysis_options o;
    gm_analysis_options_default(&o);
    const char *ids[] = {"GM"};
    const char *ids_opt[] = {"GM", "GM901"};
    char error[64];
    CHECK(gm_rule_selectors_set(&o.select, ids_opt, 2, error, sizeof error) == 0);
    gm_finding_list l = at_analyze_with(HEAD "        print(x)  # noqa: GM401\n"
                                            "        y = x  # noqa: E501\n"
                                            "        print(y)  # noqa\n",
                                        &o);
    CHECK_EQ_INT(at_count(&l, "GM901"), 0);
    CHECK_EQ_INT(at_count(&l, "GM401"), 0);
    gm_finding_list_free(&l);
    CHECK(gm_rule_selectors_set(&o.select, ids, 1, error, sizeof error) == 0);
    l = at_analyze_with(HEAD "        y = x  # noqa: GM401\n", &o);
    CHECK_EQ_INT(at_count(&l, "GM901"), 0); /* "GM" alone does not select it */
    gm_finding_list_free(&l);
}

int main(void) {
    parse_comments();
    unused_suppressions();
    line_suppression();
    file_suppression();
    suppress_fix();
    return check_exit_code("analysis/findings/suppression");
}
