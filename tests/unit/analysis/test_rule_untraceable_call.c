/* GM501 untraceable-call, GM502 graph-break-call and GM503 open-call: import aliases and
 * from-imports, calls dynamo traces, shadowing, eager-only guards, regions, catalogue entries
 * and the suppress fix. */
#include <string.h>

#include "check.h"

#include "analysis_test.h"
#include "rule_catalogue.h"

#define HEAD                                                                                       \
    "import os\n"                                                                                  \
    "import pickle\n"                                                                              \
    "import random\n"                                                                              \
    "import time\n"                                                                                \
    "import torch\n"                                                                               \
    "@torch.compile\n"                                                                             \
    "def f(x):\n"

static void expect_body(const char *body, const char *rule, size_t n) {
    char src[4096];
    snprintf(src, sizeof src, "%s%s", HEAD, body);
    AT_EXPECT(src, rule, n);
}

static void skipped_calls(void) {
    expect_body("    a = time.time()\n    b = time.perf_counter()\n    c = time.monotonic()\n"
                "    d = time.process_time()\n",
                "GM501", 4);
    expect_body("    a = os.getpid()\n    b = os.path.exists('/')\n    c = pickle.dumps(1)\n"
                "    d = random.random()\n",
                "GM501", 4);
    AT_EXPECT("from time import perf_counter\nimport time as t\nimport torch\n@torch.compile\n"
              "def f(x):\n    a = perf_counter()\n    b = t.time()\n",
              "GM501", 2);
    /* Traced by dynamo, not a clock, shadowed, eager only, not imported, outside regions. */
    expect_body("    a = os.getenv('HOME')\n    b = os.path.join('a', 'b')\n    c = time.sleep\n",
                "GM501", 0);
    expect_body("    time = make()\n    a = time.time()\n", "GM501", 0);
    expect_body("    if not torch.compiler.is_compiling():\n        a = time.time()\n", "GM501", 0);
    AT_EXPECT("import torch\n@torch.compile\ndef f(x):\n    a = time.time()\n", "GM501", 0);
    AT_EXPECT("import time\nimport torch\nT = time.time()\ndef g(x):\n    return time.time()\n",
              "GM501", 0);
}

static void graph_break_and_open(void) {
    expect_body("    torch._dynamo.graph_break()\n", "GM502", 1);
    AT_EXPECT("import torch\nfrom torch._dynamo import graph_break\n@torch.compile\n"
              "def f(x):\n    graph_break()\n",
              "GM502", 1);
    expect_body("    torch.compiler.graph_break_fn()\n", "GM502", 0);
    expect_body("    a = open('f')\n", "GM503", 1);
    expect_body("    def open(p):\n        return p\n    a = open('f')\n", "GM503", 0);
    expect_body("    a = x.open('f')\n", "GM503", 0);
    AT_EXPECT("from io import open\nimport torch\n@torch.compile\ndef f(x):\n    open('f')\n",
              "GM503", 0);
}

static void consequences_and_fixes(void) {
    const char *src = HEAD "    for i in range(2):\n        a = time.time()\n"
                           "    try:\n        torch._dynamo.graph_break()\n    except E:\n"
                           "        pass\n";
    gm_finding_list l = at_analyze(src);
    const gm_finding *a = at_find(&l, "GM501", 0), *b = at_find(&l, "GM502", 0);
    CHECK(a && strstr(a->message, "inside a loop") != NULL);
    CHECK(a && strstr(a->message, "`time.time()`") != NULL);
    CHECK(b && strstr(b->message, "try/with") != NULL);
    CHECK(a && strcmp(at_span_text(src, a), "time.time()") == 0);
    CHECK(a && at_fix(a, GM_FIX_KIND_SUPPRESS) != NULL);
    CHECK(b && at_fix(b, GM_FIX_KIND_SUPPRESS) != NULL);
    gm_finding_list_free(&l);
    expect_body("    a = time.time()  # graphmend: ignore[GM501]\n", "GM501", 0);

    static const char *const ids[][3] = {{"GM501", "untraceable-call", "GB0007"},
                                         {"GM502", "graph-break-call", "GB0025"},
                                         {"GM503", "open-call", "GB0059"}};
    for (size_t i = 0; i < 3; i++) {
        const gm_rule *r = gm_rule_by_id(ids[i][0]);
        CHECK(r != NULL);
        if (!r)
            continue;
        CHECK_EQ_STR(r->name, ids[i][1]);
        CHECK_EQ_STR(r->registry_id, ids[i][2]);
        CHECK(r->url && strstr(r->url, "https://meta-pytorch.github.io/compile-graph-break-site/"
                                       "gb/gb") == r->url);
        CHECK_EQ_INT(r->severity, GM_SEVERITY_WARNING);
        CHECK(r->explanation && r->hint && r->gb_type);
    }
}

int main(void) {
    skipped_calls();
    graph_break_and_open();
    consequences_and_fixes();
    return check_exit_code("analysis/rule_untraceable_call");
}
