/* GM201 tensor-item and GM202 tensor-to-python: only on tensor values, shadowing, eager-only
 * guards, consequences, catalogue entries and the suppress fix. */
#include <string.h>

#include "check.h"

#include "analysis_test.h"
#include "rule_catalogue.h"

#define HEAD                                                                                       \
    "import torch\n"                                                                               \
    "import torch.nn as nn\n"                                                                      \
    "\n"                                                                                           \
    "class M(nn.Module):\n"                                                                        \
    "    def forward(self, x, t: torch.Tensor, n):\n"

static void expect_forward(const char *body, const char *rule, size_t n) {
    char src[4096];
    snprintf(src, sizeof src, "%s%s", HEAD, body);
    AT_EXPECT(src, rule, n);
}

static void item(void) {
    expect_forward("        s = x.sum().item()\n", "GM201", 1);
    expect_forward("        s = t.item()\n", "GM201", 1);
    expect_forward("        y = torch.relu(x)\n        s = y.max().item()\n", "GM201", 1);
    expect_forward("        if t.mean().item() > 0:\n            pass\n", "GM201", 1);
    expect_forward("        s = int(t.item())\n", "GM201", 1);
    expect_forward("        s = int(t.item())\n", "GM202", 0); /* int() of a Python number */
    expect_forward("        s = [t[i].item() for i in range(2)]\n", "GM201", 1);
    /* Not a tensor, or no evidence of one. */
    expect_forward("        s = x.item()\n", "GM201", 0);
    expect_forward("        s = n.item()\n", "GM201", 0);
    expect_forward("        s = self.cfg.item()\n", "GM201", 0);
    expect_forward("        s = x.shape.item()\n", "GM201", 0);
    expect_forward("        s = t.item(0)\n", "GM201", 0);
    expect_forward("        d = {}\n        s = d.items()\n", "GM201", 0);
    /* Eager only / outside regions. */
    expect_forward("        if not torch.compiler.is_compiling():\n            s = t.item()\n",
                   "GM201", 0);
    AT_EXPECT("import torch\nv = torch.ones(1).item()\n", "GM201", 0);
    AT_EXPECT("import torch\nimport torch.nn as nn\nclass M(nn.Module):\n"
              "    def __init__(self):\n        self.v = torch.ones(1).item()\n",
              "GM201", 0);
    AT_EXPECT("import torch\ndef f(t: torch.Tensor):\n    return t.item()\n", "GM201", 0);
}

static void to_python(void) {
    expect_forward("        a = int(t)\n", "GM202", 1);
    expect_forward("        a = float(x.sum())\n", "GM202", 1);
    expect_forward("        a = bool(t > 0)\n", "GM202", 1);
    expect_forward("        a = t.tolist()\n", "GM202", 1);
    expect_forward("        a = x.argmax(1).tolist()\n", "GM202", 1);
    expect_forward("        a = int(t)\n        b = float(t)\n        c = bool(t)\n", "GM202", 3);
    /* Not tensors: Python values, shapes, unknown parameters. */
    expect_forward("        a = int(n)\n", "GM202", 0);
    expect_forward("        a = int(x)\n", "GM202", 0);
    expect_forward("        a = int(t.shape[0])\n", "GM202", 0);
    expect_forward("        a = float(t.dim())\n", "GM202", 0);
    expect_forward("        a = bool(t.numel())\n", "GM202", 0);
    expect_forward("        a = int('3')\n", "GM202", 0);
    expect_forward("        a = x.tolist()\n", "GM202", 0);
    expect_forward("        a = t.tolist(1)\n", "GM202", 0);
    expect_forward("        a = int(t, base=2)\n", "GM202", 0);
    /* Shadowed builtins. */
    expect_forward("        int = lambda v: 1\n        a = int(t)\n", "GM202", 0);
    AT_EXPECT("from numpy import float\nimport torch\n@torch.compile\n"
              "def f(t: torch.Tensor):\n    return float(t)\n",
              "GM202", 0);
    AT_EXPECT("import torch\n@torch.compile\ndef f(t: torch.Tensor, bool=None):\n"
              "    return bool(t)\n",
              "GM202", 0);
    expect_forward("        if torch.compiler.is_compiling():\n            pass\n        else:\n"
                   "            a = t.tolist()\n",
                   "GM202", 0);
}

static void consequences_and_fixes(void) {
    /* two modules: after the break in the loop dynamo skips the rest of forward */
    const char *src = HEAD "        for i in range(2):\n            a = t.item()\n"
                           "class N(nn.Module):\n    def forward(self, t: torch.Tensor):\n"
                           "        try:\n            b = int(t)\n        finally:\n"
                           "            pass\n";
    gm_finding_list l = at_analyze(src);
    const gm_finding *a = at_find(&l, "GM201", 0), *b = at_find(&l, "GM202", 0);
    CHECK(a && strstr(a->message, "inside a loop") != NULL);
    CHECK(b && strstr(b->message, "try/with") != NULL);
    CHECK(a && strcmp(at_span_text(src, a), "t.item()") == 0);
    CHECK(b && strcmp(at_span_text(src, b), "int(t)") == 0);
    CHECK(a && at_fix(a, GM_FIX_KIND_SUPPRESS) != NULL);
    CHECK(b && at_fix(b, GM_FIX_KIND_SUPPRESS) != NULL);
    CHECK(a && at_fix(a, GM_FIX_KIND_MEND) == NULL);
    gm_finding_list_free(&l);
    expect_forward("        a = t.item()  # graphmend: ignore[GM201]\n", "GM201", 0);
    expect_forward("        a = t.tolist()  # graphmend: ignore[GM201]\n", "GM202", 1);

    const gm_rule *r = gm_rule_by_id("GM201");
    CHECK(r != NULL);
    if (r) {
        CHECK_EQ_STR(r->name, "tensor-item");
        CHECK_EQ_STR(r->registry_id, "GB0124");
        CHECK_EQ_STR(r->url,
                     "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0124.html");
        CHECK_EQ_INT(r->severity, GM_SEVERITY_WARNING);
    }
    r = gm_rule_by_id("GM202");
    CHECK(r != NULL);
    if (r) {
        CHECK_EQ_STR(r->name, "tensor-to-python");
        CHECK_EQ_STR(r->registry_id, "GB0124");
        CHECK(r->explanation && r->hint && r->gb_type);
    }
}

int main(void) {
    item();
    to_python();
    consequences_and_fixes();
    return check_exit_code("analysis/rule_tensor_to_python");
}
