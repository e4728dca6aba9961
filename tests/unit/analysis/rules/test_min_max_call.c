/* GM611 min-max-iterator-keyword: max()/min() with default= or key= over a generator expression
 * or a call of map, filter, zip or enumerate; the forms dynamo traces (a list, a tuple, a range,
 * no keyword, two positional arguments, a shadowed builtin), the frame skip after a generator
 * expression, the mend and the catalogue entry. */
#include <string.h>

#include "check.h"

#include "analysis/rules/catalogue/rule_catalogue.h"
#include "analysis_test.h"

#define HEAD                                                                                       \
    "import torch\n"                                                                               \
    "@torch.compile\n"                                                                             \
    "def f(x, used):\n"

static void expect_body(const char *body, const char *rule, size_t n) {
    char src[4096];
    snprintf(src, sizeof src, "%s%s", HEAD, body);
    AT_EXPECT(src, rule, n);
}

static void breaking_forms(void) {
    expect_body("    m = max((i for i in used), default=-1)\n    return x * m\n", "GM611", 1);
    expect_body("    m = min((i for i in used), key=abs)\n    return x * m\n", "GM611", 1);
    expect_body("    a = max(map(int, used), default=0)\n"
                "    b = min(filter(None, used), default=0)\n"
                "    c = max(zip(used, used), key=len)\n"
                "    d = max(enumerate(used), default=(0, 0))\n"
                "    return x\n",
                "GM611", 4);
}

static void traced_forms(void) {
    expect_body("    a = max([i for i in used], default=-1)\n"
                "    b = max(i for i in used)\n"
                "    c = min(range(3), default=0)\n"
                "    d = max((1, 2), key=abs)\n"
                "    e = max(used, default=0)\n"
                "    g = max(map(int, used))\n"
                "    h = max(1, 2, key=abs)\n"
                "    return x\n",
                "GM611", 0);
    /* a max the function binds, or the module imports, is not the builtin */
    expect_body("    max = lambda *a, **k: 0\n    return x * max((i for i in used), default=0)\n",
                "GM611", 0);
    AT_EXPECT("import torch\nfrom numpy import max\n@torch.compile\ndef f(x, used):\n"
              "    return x * max((i for i in used), default=0)\n",
              "GM611", 0);
    /* a map the module imports is no iterator maker the rule knows */
    AT_EXPECT("import torch\nfrom mylib import map\n@torch.compile\ndef f(x, used):\n"
              "    return x * max(map(int, used), default=0)\n",
              "GM611", 0);
    /* outside compiled code: nothing */
    AT_EXPECT("def f(used):\n    return max((i for i in used), default=0)\n", "GM611", 0);
}

/* Over a generator expression dynamo cannot resume: the print after it is never traced; after
 * map(...) it resumes and the print breaks. */
static void frame_skip(void) {
    expect_body("    m = max((i for i in used), default=-1)\n    print(m)\n    return x\n", "GM401",
                0);
    expect_body("    m = max(map(int, used), default=-1)\n    print(m)\n    return x\n", "GM401",
                1);
}

static void mend_and_catalogue(void) {
    /* zip first: after the generator expression the frame runs eagerly */
    const char *src = HEAD "    n = min(zip(used, used), key=len)\n"
                           "    m = max((i for i in used if i), default=-1)\n"
                           "    return x * m\n";
    gm_finding_list l = at_analyze(src);
    size_t seen = 0;
    for (size_t i = 0; i < l.count; i++) {
        const gm_finding *f = &l.items[i];
        if (strcmp(f->rule->id, "GM611") != 0)
            continue;
        seen++;
        CHECK(f->fix_count >= 2); /* the mend, then the suppression */
        if (f->fix_count < 1 || f->fixes[0].edit_count != 1)
            continue;
        CHECK_EQ_INT(f->fixes[0].applicability, GM_FIX_SAFE);
        const char *want = seen == 1 ? "list(zip(used, used))" : "[i for i in used if i]";
        CHECK_EQ_STR(f->fixes[0].edits[0].replacement, want);
    }
    CHECK_EQ_INT(seen, 2);
    gm_finding_list_free(&l);
    const gm_rule *r = gm_rule_by_id("GM611");
    CHECK(r != NULL);
    if (r) {
        CHECK_EQ_STR(r->name, "min-max-iterator-keyword");
        CHECK_EQ_STR(r->registry_id, "GB0193");
        CHECK_EQ_STR(r->url, "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0193.html");
        CHECK(r->explanation && r->hint && r->gb_type);
    }
}

int main(void) {
    breaking_forms();
    traced_forms();
    frame_skip();
    mend_and_catalogue();
    return check_exit_code("analysis/rules/min_max_call");
}
