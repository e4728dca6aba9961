/* GM601 class-in-region, GM602 parameter-in-region, GM603 next-on-argument, GM604
 * rnn-module-call and GM605 generator-send-on-argument: positives, traps, regions, the frame
 * skips after breaks dynamo cannot resume from, catalogue entries and the suppress fix. */
#include <string.h>

#include "check.h"

#include "analysis/rules/catalogue/rule_catalogue.h"
#include "analysis_test.h"

#define HEAD                                                                                       \
    "import torch\n"                                                                               \
    "from torch import nn\n"                                                                       \
    "@torch.compile\n"                                                                             \
    "def f(x, it, *rest, xs=None):\n"

static void expect_body(const char *body, const char *rule, size_t n) {
    char src[4096];
    snprintf(src, sizeof src, "%s%s", HEAD, body);
    AT_EXPECT(src, rule, n);
}

static void classes(void) {
    expect_body("    class Local:\n        pass\n    return x\n", "GM601", 1);
    expect_body("    class Local(object):\n        def m(self):\n            class Inner:\n"
                "                pass\n",
                "GM601", 1);
    AT_EXPECT("import torch\nclass Box:\n    pass\n@torch.compile\ndef f(x):\n    b = Box()\n",
              "GM601", 0);
    AT_EXPECT("import torch\ndef g(x):\n    class L:\n        pass\n", "GM601", 0);
}

static void parameters(void) {
    expect_body("    p = nn.Parameter(torch.ones(4))\n", "GM602", 1);
    expect_body("    p = torch.nn.Parameter(x)\n    q = torch.nn.parameter.Parameter(x)\n", "GM602",
                2);
    expect_body("    p = nn.Linear(4, 4)\n    q = Parameter(x)\n", "GM602", 0);
    AT_EXPECT("import torch\nfrom torch import nn\nclass M(nn.Module):\n"
              "    def __init__(self):\n        super().__init__()\n"
              "        self.w = nn.Parameter(torch.ones(4))\n"
              "    def forward(self, x):\n        return x * self.w\n",
              "GM602", 0);
}

static void next_calls(void) {
    expect_body("    v = next(it)\n", "GM603", 1);
    expect_body("    v = next(xs)\n    w = next(it, None)\n", "GM603", 2);
    expect_body("    own = iter(xs)\n    v = next(own)\n    w = next(iter(it))\n", "GM603", 0);
    expect_body("    next = lambda a: a\n    v = next(it)\n", "GM603", 0);
    expect_body("    v = it.next()\n", "GM603", 0);
}

#define MODULE(init_line, call_line)                                                               \
    "import torch\n"                                                                               \
    "import torch.nn as nn\n"                                                                      \
    "class M(nn.Module):\n"                                                                        \
    "    def __init__(me):\n"                                                                      \
    "        super().__init__()\n"                                                                 \
    "        " init_line "\n"                                                                      \
    "    def forward(self, x):\n"                                                                  \
    "        " call_line "\n"

static void rnn_calls(void) {
    AT_EXPECT(MODULE("me.rnn = nn.LSTM(4, 4)", "y, _ = self.rnn(x)"), "GM604", 1);
    AT_EXPECT(MODULE("me.g = torch.nn.GRU(4, 4)", "return self.g(x)[0]"), "GM604", 1);
    AT_EXPECT(MODULE("if x:\n            me.r = nn.RNN(4, 4)", "return self.r(x)"), "GM604", 1);
    /* Other modules, other attributes, not through self, __init__ itself. */
    AT_EXPECT(MODULE("me.rnn = nn.Linear(4, 4)", "return self.rnn(x)"), "GM604", 0);
    AT_EXPECT(MODULE("me.rnn = nn.LSTM(4, 4)", "return self.other(x)"), "GM604", 0);
    AT_EXPECT(MODULE("me.rnn = nn.LSTM(4, 4)", "return other.rnn(x)"), "GM604", 0);
    AT_EXPECT(MODULE("me.rnn = nn.LSTM(4, 4)\n        me.rnn(x)", "return x"), "GM604", 0);
    const char *src = MODULE("me.rnn = nn.LSTM(4, 4)", "y, _ = self.rnn(x)");
    gm_finding_list l = at_analyze(src);
    const gm_finding *f = at_find(&l, "GM604", 0);
    CHECK(f && strstr(f->message, "eagerly") != NULL);
    CHECK(f && strcmp(at_span_text(src, f), "self.rnn(x)") == 0);
    CHECK(f && at_fix(f, GM_FIX_KIND_SUPPRESS) != NULL);
    gm_finding_list_free(&l);
}

/* A base class's forward calling self.rnn(...), which only a subclass in the file makes an
 * RNN: reported once, with the subclass as the condition, and no frame skip for the base. */
static void rnn_made_by_subclass(void) {
    const char *src = "import torch\nfrom torch import nn\n"
                      "class Base(nn.Module):\n"
                      "    def __init__(self):\n        super().__init__()\n"
                      "        self.v = nn.Identity()\n        self.h = nn.Identity()\n"
                      "    def forward(self, x):\n        a, _ = self.v(x)\n"
                      "        b, _ = self.h(x)\n        print(x)\n        return a\n"
                      "class Other(nn.Module):\n"
                      "    def __init__(self):\n        super().__init__()\n"
                      "        self.v = nn.GRU(4, 4)\n"
                      "@some.decorator\n"
                      "class Sub(mod.Base):\n"
                      "    def __init__(self):\n        super().__init__()\n"
                      "        self.v = nn.LSTM(4, 4)\n        self.h = nn.LSTM(4, 4)\n";
    gm_finding_list l = at_analyze(src);
    CHECK_EQ_INT(at_count(&l, "GM604"), 1);
    CHECK_EQ_INT(at_count(&l, "GM401"), 1); /* the base's own instances go on */
    const gm_finding *f = at_find(&l, "GM604", 0);
    CHECK(f && strcmp(at_span_text(src, f), "self.v(x)") == 0);
    CHECK(f && f->only_when_condition && strcmp(f->only_when_condition, "isinstance(self, Sub)") == 0);
    CHECK(f && strstr(f->message, "subclass `Sub`") != NULL);
    gm_finding_list_free(&l);
    /* a class that does not subclass it, or a subclass that makes no RNN */
    AT_EXPECT("import torch\nfrom torch import nn\nclass Base(nn.Module):\n"
              "    def forward(self, x):\n        return self.v(x)\n"
              "class Sub(Base):\n    def __init__(self):\n        super().__init__()\n"
              "        self.v = nn.Linear(4, 4)\n",
              "GM604", 0);
}

static void generator_send(void) {
    expect_body("    a = it.send(1)\n    b = it.throw(ValueError)\n", "GM605", 2);
    /* a generator made inside, an attribute, a non-parameter, self, close() */
    expect_body("    g = make()\n    g.send(1)\n    x.send(1)\n    it.close()\n"
                "    conn.send(1)\n",
                "GM605", 1); /* only x.send: x is a parameter too */
    AT_EXPECT("import torch\nfrom torch import nn\nclass M(nn.Module):\n"
              "    def forward(self, x):\n        return self.send(x)\n",
              "GM605", 0);
}

/* After a break dynamo cannot resume from (an RNN call, a break in a loop or in try), it runs
 * the rest of the function eagerly and reports none of its later breaks. */
static void frame_skips(void) {
    const char *src =
        MODULE("me.rnn = nn.LSTM(4, 4)", "print(x)\n        y, _ = self.rnn(x)\n        print(y)\n"
                                         "        class L:\n            pass");
    gm_finding_list l = at_analyze(src);
    CHECK_EQ_INT(at_count(&l, "GM401"), 1);
    CHECK_EQ_INT(at_count(&l, "GM604"), 1);
    CHECK_EQ_INT(at_count(&l, "GM601"), 0);
    gm_finding_list_free(&l);
    expect_body("    for i in range(2):\n        v = next(it)\n        class L:\n"
                "            pass\n    class K:\n        pass\n",
                "GM601", 0);
    expect_body("    try:\n        v = next(it)\n    finally:\n        pass\n"
                "    p = nn.Parameter(x)\n",
                "GM602", 0);
    /* the first break in a loop is reported; one before the loop does not skip */
    expect_body("    p = nn.Parameter(x)\n    for i in range(2):\n        q = nn.Parameter(x)\n"
                "        r = nn.Parameter(x)\n",
                "GM602", 2);
    /* a break dynamo resumes from does not hide what follows */
    expect_body("    v = next(it)\n    p = nn.Parameter(x)\n", "GM602", 1);
    /* allow_rnn: the module is traced, nothing is skipped */
    gm_analysis_options o;
    gm_analysis_options_default(&o);
    o.allow_rnn = true;
    gm_finding_list m = at_analyze_with(src, &o);
    CHECK_EQ_INT(at_count(&m, "GM401"), 2);
    gm_finding_list_free(&m);
}

static void catalogue_and_fixes(void) {
    const char *src = HEAD "    for i in range(2):\n        v = next(it)\n";
    gm_finding_list l = at_analyze(src);
    const gm_finding *f = at_find(&l, "GM603", 0);
    CHECK(f && strstr(f->message, "`next(it)` on an iterator passed in") != NULL);
    CHECK(f && strstr(f->message, "inside a loop") != NULL);
    CHECK(f && strcmp(at_span_text(src, f), "next(it)") == 0);
    CHECK(f && at_fix(f, GM_FIX_KIND_SUPPRESS) != NULL);
    gm_finding_list_free(&l);
    expect_body("    p = nn.Parameter(x)  # graphmend: ignore[GM602]\n", "GM602", 0);

    static const char *const ids[][4] = {{"GM601", "class-in-region", "GB8977", "8977"},
                                         {"GM602", "parameter-in-region", "GB0264", "0264"},
                                         {"GM603", "next-on-argument", "GB4347", "4347"},
                                         {"GM604", "rnn-module-call", "GB0014", "0014"},
                                         {"GM605", "generator-send-on-argument", "GB0253", "0253"}};
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        const gm_rule *r = gm_rule_by_id(ids[i][0]);
        CHECK(r != NULL);
        if (!r)
            continue;
        char url[128];
        snprintf(url, sizeof url,
                 "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb%s.html", ids[i][3]);
        CHECK_EQ_STR(r->name, ids[i][1]);
        CHECK_EQ_STR(r->registry_id, ids[i][2]);
        CHECK_EQ_STR(r->url, url);
        CHECK_EQ_INT(r->severity, GM_SEVERITY_WARNING);
        CHECK(r->explanation && r->hint && r->gb_type);
    }
}

int main(void) {
    classes();
    parameters();
    next_calls();
    rnn_calls();
    rnn_made_by_subclass();
    generator_send();
    frame_skips();
    catalogue_and_fixes();
    return check_exit_code("analysis/rules/python_construct");
}
