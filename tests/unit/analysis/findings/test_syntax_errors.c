/* GM001 syntax-error and analysis of files that do not fully parse. */
#include "check.h"

#include "analysis/findings/syntax_errors.h"
#include "analysis_test.h"

static bool valid_utf8(const char *s) {
    const unsigned char *p = (const unsigned char *)s;
    while (*p) {
        size_t n = *p < 0x80         ? 1
                   : (*p >> 5) == 6  ? 2
                   : (*p >> 4) == 14 ? 3
                   : (*p >> 3) == 30 ? 4
                                     : 0;
        if (n == 0)
            return false;
        for (size_t i = 1; i < n; i++)
            if ((p[i] & 0xC0) != 0x80)
                return false;
        p += n;
    }
    return true;
}

static void reports_first_error(void) {
    AT_EXPECT("import torch\nx = 1\n", "GM001", 0);
    const char *srcs[] = {
        "def f(:\n    pass\n", "x = (1 + 2\n",           "import torch\nclass M(\n",
        "if x\n    pass\n",    "x = 1\ny = $\nz = $$\n",
    };
    for (size_t i = 0; i < sizeof srcs / sizeof srcs[0]; i++) {
        gm_finding_list l = at_analyze(srcs[i]);
        CHECK_EQ_INT(at_count(&l, "GM001"), 1);
        const gm_finding *f = at_find(&l, "GM001", 0);
        if (f) {
            CHECK(strncmp(f->message, "syntax error: ", 14) == 0);
            size_t n = strlen(f->message);
            const char *tail = " (analysis continues on the parts that parse)";
            CHECK(n > strlen(tail) && strcmp(f->message + n - strlen(tail), tail) == 0);
            CHECK_EQ_INT(f->rule->severity, GM_SEVERITY_ERROR);
            CHECK(f->rule->registry_id == NULL && f->rule->url == NULL);
            CHECK(f->span.start.row == f->span.end.row); /* clipped to one line */
            CHECK(f->span.start_byte <= f->span.end_byte);
        } else {
            fprintf(stderr, "no GM001 for: %s\n", srcs[i]);
        }
        gm_finding_list_free(&l);
    }
    /* The first one in the file. */
    gm_finding_list l = at_analyze("x = 1\ny = $\nz = $$\n");
    const gm_finding *f = at_find(&l, "GM001", 0);
    CHECK(f && f->span.start.row == 1);
    gm_finding_list_free(&l);

    gm_analysis_options o;
    gm_analysis_options_default(&o);
    o.report_syntax_errors = false;
    l = at_analyze_with("def f(:\n", &o);
    CHECK_EQ_INT(l.count, 0);
    gm_finding_list_free(&l);
}

static void analysis_continues(void) {
    const char *src = "import torch\nimport torch.nn as nn\n\nclass M(nn.Module):\n"
                      "    def forward(self, x):\n        print(x)\n\n"
                      "def broken(:\n    pass\n";
    gm_finding_list l = at_analyze(src);
    CHECK_EQ_INT(at_count(&l, "GM401"), 1);
    CHECK_EQ_INT(at_count(&l, "GM001"), 1);
    /* Sorted by position: the print comes first. */
    CHECK(l.count == 2 && strcmp(l.items[0].rule->id, "GM401") == 0);
    gm_finding_list_free(&l);
}

static void messages_are_utf8(void) {
    const char *src = "x = 1\ny = \xff\xfe caf\xc3\xa9 \xe2\x82\n";
    gm_finding_list l = at_analyze(src);
    CHECK_EQ_INT(at_count(&l, "GM001"), 1);
    for (size_t i = 0; i < l.count; i++)
        CHECK(valid_utf8(l.items[i].message));
    gm_finding_list_free(&l);
    char out[16];
    gm_copy_utf8_sanitized(out, sizeof out, "a\xc3\xa9\x01\xff", 5);
    CHECK_EQ_STR(out, "a\xc3\xa9??");
    gm_copy_utf8_sanitized(out, 4, "abcdef", 6);
    CHECK_EQ_STR(out, "abc");
}

int main(void) {
    reports_first_error();
    analysis_continues();
    messages_are_utf8();
    return check_exit_code("analysis/findings/syntax_errors");
}
