/* GM201 tensor-item and GM202 tensor-to-python: only on tensor values, shadowing, eager-only
 * guards, consequences, catalogue entries and the suppress fix. */
#include <string.h>

#include "check.h"

#include "analysis/rules/catalogue/rule_catalogue.h"
#include "analysis_test.h"

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
    /* the message of a raise is built only on the way out with an error */
    expect_forward("        if n:\n            raise ValueError(f\"{t.item()} tokens\")\n", "GM201", 0);
    expect_forward("        if n:\n            raise ValueError(f\"{t.item()} tokens\")\n"
                   "        s = t.item()\n",
                   "GM201", 1);
    /* a comprehension's first iterable runs once, outside its loop: no frame skip */
    expect_forward("        a = [v for v in t.tolist()]\n        print(a)\n", "GM401", 1);
    /* a break in the element: before Python 3.12 the comprehension is a frame of its own,
     * which dynamo skips, and forward resumes after it; from 3.12 it is inlined, a loop in
     * forward, and the frame is skipped */
    expect_forward("        a = [v.tolist() for v in t]\n        print(a)\n", "GM401", 1);
    {
        gm_analysis_options inlined;
        gm_analysis_options_default(&inlined);
        inlined.python_version = 312;
        gm_finding_list l = at_analyze_with(HEAD "        a = [v.tolist() for v in t]\n"
                                                 "        b = [v.tolist() for v in t]\n"
                                                 "        print(a)\n",
                                            &inlined);
        CHECK_EQ_INT(at_count(&l, "GM401"), 0);
        CHECK_EQ_INT(at_count(&l, "GM202"), 1);
        gm_finding_list_free(&l);
        /* 3.11: each comprehension breaks once, the second as well */
        AT_EXPECT(HEAD "        a = [v.tolist() + [v.item()] for v in t]\n"
                       "        b = [v.tolist() for v in t]\n",
                  "GM202", 2);
        AT_EXPECT(HEAD "        a = [v.tolist() + [v.item()] for v in t]\n", "GM201", 0);
    }
    /* Not a tensor: a size is a tuple of ints */
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

/* A value of unknown kind with .item() or .tolist() is a tensor or a NumPy array: no Python
 * builtin has them. A known Python value is left alone. */
static void unknown_receivers(void) {
    expect_forward("        s = n.item()\n", "GM201", 1);
    expect_forward("        s = n[0].tolist()\n", "GM202", 1);
    expect_forward("        s = [1, 2]\n        k = s.count(1)\n        v = (3).real\n", "GM201", 0);
    expect_forward("        s = n.item(0)\n", "GM201", 0); /* with an argument: not Tensor.item */
    /* a class of the file defines item(): the name is no evidence there */
    AT_EXPECT("import torch\nclass Meter:\n    def item(self):\n        return 1\n"
              "@torch.compile\ndef f(x, m):\n    return x * m.item()\n",
              "GM201", 0);
}

/* str()/repr() of a tensor break; `%` formatting of one skips the frame; f-strings trace. */
static void text(void) {
    expect_forward("        a = str(t)\n        b = repr(x.sum())\n", "GM202", 2);
    expect_forward("        a = f\"{t}\"\n        b = str(t.shape)\n        c = str(n)\n", "GM202", 0);
    expect_forward("        a = \"%.3f\" % t.mean()\n", "GM202", 1);
    expect_forward("        a = \"%d of %s\" % (n, t)\n        print(a)\n", "GM401", 0);
    expect_forward("        a = \"%d\" % n\n        b = t % 2\n", "GM202", 0);
    /* a local str shadows the builtin */
    expect_forward("        str = len\n        a = str(t)\n", "GM202", 0);
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
    expect_forward("        a = x.tolist()\n", "GM202", 1); /* only tensors and arrays have it */
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

/* NumPy values are traced as tensors: .item()/.tolist() on arrays made by numpy calls in the
 * region, at module level, or in __init__/the class body; Python numbers computed with NumPy
 * are not converted; without a numpy import np is nothing known. */
static void numpy_values(void) {
    const char *head =
        "import numpy as np\nimport torch\nimport torch.nn as nn\n"
        "W = np.array([1.0, 2.0])\nN = int(np.prod((2, 3)))\n"
        "class M(nn.Module):\n    table = np.arange(4)\n"
        "    def __init__(self):\n        self.k = np.float32(0.5)\n"
        "        self.n = int(np.prod((2, 4)))\n        self.f = float(np.sqrt(2.0))\n"
        "    def forward(self, x):\n";
    struct {
        const char *body, *rule;
        size_t n;
    } cases[] = {
        {"        s = self.k.item()\n", "GM201", 1},
        {"        s = W.tolist()\n", "GM202", 1},
        {"        s = self.table.tolist()\n", "GM202", 1},
        {"        s = W[0].item()\n", "GM201", 1},
        {"        a = np.ones(3)\n        s = (a * 2).sum().item()\n", "GM201", 1},
        {"        s = np.ceil(np.log1p(x.size(1))).astype('int').item()\n", "GM201", 1},
        /* Python numbers made with NumPy stay Python numbers */
        {"        s = self.n + self.f + N\n        t = int(x.shape[0] * self.f)\n", "GM202", 0},
        {"        s = np.dtype('float32').itemsize\n", "GM201", 0},
        {"        W = [1.0]\n        s = W.tolist()\n", "GM202", 0},
        /* an attribute of unknown kind with .item(): only tensors and arrays have it */
        {"        s = self.missing.item()\n", "GM201", 1},
    };
    char src[4096];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(src, sizeof src, "%s%s", head, cases[i].body);
        AT_EXPECT(src, cases[i].rule, cases[i].n);
    }
    /* without a numpy import, np is nothing known: W is not taken for a NumPy array (its
     * .tolist() still says it holds a tensor or an array) */
    gm_finding_list l = at_analyze("import torch\nW = np.array([1.0])\n@torch.compile\ndef f(x):\n"
                                   "    return W.tolist()\n");
    CHECK(l.count == 1 && strstr(l.items[0].message, "NumPy") == NULL);
    gm_finding_list_free(&l);
}

/* Python functions that read tensor data: any()/all() over a tensor (GM101), math functions of
 * a tensor, torch._assert with a tensor condition, torch.equal/allclose (GM202). */
static void tensor_data_calls(void) {
    expect_forward("        if any(t > 0):\n            pass\n", "GM101", 1);
    expect_forward("        b = all(t)\n", "GM101", 1);
    expect_forward("        b = any(x > 5)\n", "GM101", 1); /* only an array compares elementwise */
    expect_forward("        b = any([t.sum() > 0, True])\n", "GM101", 1);
    expect_forward("        b = any([True, t.sum() > 0])\n", "GM101", 0);
    expect_forward("        b = any([x.shape[0] > 2, x.dim() == 1])\n", "GM101", 0);
    expect_forward("        b = all(s > 1 for s in t.shape)\n", "GM101", 0);
    expect_forward("        b = any(n)\n        c = all(x)\n", "GM101", 0);
    expect_forward("        b = any(v in x for v in n)\n        c = any(x is None)\n", "GM101", 0);
    expect_forward("        any = make()\n        b = any(t)\n", "GM101", 0);
    expect_forward("        b = t.any()\n", "GM101", 0);
    const char *math_head = "import math\nfrom math import sqrt\n" HEAD;
    char src[4096];
    struct {
        const char *body;
        size_t n;
    } math_cases[] = {
        {"        d = math.sqrt(t.sum())\n", 1},
        {"        d = math.isnan(t.mean())\n        e = math.pow(2, t.max())\n", 2},
        {"        d = sqrt(t.sum())\n", 1},
        {"        d = math.exp(t.sum())\n", 1},
        {"        d = math.sqrt(x.shape[-1])\n        e = math.log(t.size(1))\n", 0},
        {"        d = math.sqrt(4.0)\n        e = math.sqrt(n)\n", 0},
        {"        d = math.pi * t\n", 0},
        {"        math = make()\n        d = math.sqrt(t.sum())\n", 0},
    };
    for (size_t i = 0; i < sizeof math_cases / sizeof math_cases[0]; i++) {
        snprintf(src, sizeof src, "%s%s", math_head, math_cases[i].body);
        AT_EXPECT(src, "GM202", math_cases[i].n);
    }
    expect_forward("        torch._assert((t >= 0).all(), 'neg')\n", "GM202", 1);
    expect_forward(
        "        torch._assert(t.shape[0] == 4, 'rows')\n        torch._assert(True, 'x')\n",
        "GM202", 0);
    expect_forward("        if torch.equal(x, n):\n            pass\n", "GM202", 1);
    expect_forward("        b = torch.allclose(t, x)\n", "GM202", 1);
    expect_forward("        b = t.equal(x)\n        c = t.allclose(x)\n", "GM202", 2);
    /* equal is a method only a tensor has: x is one (the operator schemas' evidence), the
     * attribute of self is not a parameter the evidence is about */
    expect_forward("        b = x.equal(n)\n        c = self.cfg.equal(n)\n", "GM202", 1);
    /* the finding is at the call, and names the function */
    const char *s2 = HEAD "        if torch.equal(x, n):\n            pass\n";
    gm_finding_list l = at_analyze(s2);
    const gm_finding *f = at_find(&l, "GM202", 0);
    CHECK(f && strcmp(at_span_text(s2, f), "torch.equal(x, n)") == 0);
    CHECK(f && strstr(f->message, "`torch.equal()`") != NULL);
    gm_finding_list_free(&l);
}

/* `v in t` / `v not in t` on a tensor: Tensor.__contains__ reads the data with Tensor.item()
 * and dynamo skips the frame, so later breaks of the function are not reported (corpus:
 * tensor_to_python/torch_equal_and_contains.py). Containment in a Python list, tuple or
 * attribute traces. */
static void tensor_contains(void) {
    expect_forward("        if 0.5 in t:\n            x = x + 1\n", "GM202", 1);
    expect_forward("        b = 3 not in t\n", "GM202", 1);
    expect_forward("        y = t * 2\n        b = n in y\n", "GM202", 1);
    expect_forward("        b = 1 in (t > 0)\n", "GM202", 1);
    expect_forward("        b = (1 in t) and (2 in t)\n", "GM202", 1); /* the first skips */
    /* the frame is skipped: nothing after it is reported */
    expect_forward("        if 0.5 in t:\n            x = x + 1\n        print(x)\n", "GM401", 0);
    expect_forward("        b = 3 not in t\n        s = t.sum().item()\n", "GM201", 0);
    expect_forward("        b = 3 not in t\n        c = int(t)\n", "GM202", 1);
    expect_forward("        b = 3 in [1, 2]\n        print(x)\n", "GM401", 1);
    /* not a tensor on the right */
    const char *head = "import torch\nimport torch.nn as nn\nclass M(nn.Module):\n"
                       "    def forward(self, a: torch.Tensor, sizes, names, k):\n";
    const char *negatives[] = {
        ("        if 4 in sizes and 'a' not in names and a.shape[0] in (2, 4):\n"
         "            a = a - 1\n"),
        "        b = 4 in sizes\n",
        "        b = \"a\" not in names\n",
        "        b = a.shape[0] in (2, 4)\n",
        "        b = k in self.cfg\n",
        "        b = a.dim() in [1, 2]\n        c = 'x' in {'x': a}\n",
        "        b = a.shape[-1] not in a.shape[:-1]\n",
    };
    char src[4096];
    for (size_t i = 0; i < sizeof negatives / sizeof negatives[0]; i++) {
        snprintf(src, sizeof src, "%s%s", head, negatives[i]);
        AT_EXPECT(src, "GM202", 0);
    }
    /* the containment does not skip the frame: a later print is reported */
    snprintf(src, sizeof src, "%s%s", head, "        b = 4 in sizes\n        print(a)\n");
    AT_EXPECT(src, "GM401", 1);
    /* the finding is at the comparison and says why */
    const char *s2 = HEAD "        if 0.5 in t:\n            x = x + 1\n";
    gm_finding_list l = at_analyze(s2);
    const gm_finding *f = at_find(&l, "GM202", 0);
    CHECK(f && strcmp(at_span_text(s2, f), "0.5 in t") == 0);
    CHECK(f && strstr(f->message, "`in` on a tensor") != NULL);
    CHECK(f && strstr(f->message, "whole function runs eagerly") != NULL);
    CHECK_EQ_INT(at_count(&l, "GM101"), 0); /* the test is a Python bool */
    gm_finding_list_free(&l);
}

/* A NumPy random draw of one number (no size) is read back from the tensor dynamo draws it
 * into: GM202 whether it is used or not; with a size it stays an array. */
static void numpy_random_draws(void) {
    const char *head = "import numpy as np\nimport torch\nfrom numpy.random import uniform as u\n"
                       "@torch.compile\ndef f(x, n):\n";
    static const struct {
        const char *body;
        size_t expected;
    } cases[] = {
        {"    p = np.random.uniform(0, 1)\n", 1},
        {"    p = np.random.rand()\n    q = np.random.randn()\n", 2},
        {"    p = np.random.randint(0, 5)\n    q = np.random.choice([1, 2])\n", 2},
        {"    p = np.random.normal()\n    q = np.random.random()\n    r = u()\n", 3},
        {"    a = np.random.uniform(0, 1, (3,))\n    b = np.random.uniform(size=3)\n", 0},
        {"    a = np.random.rand(3)\n    b = np.random.random(3)\n    c = np.random.randint(0, 5, n)\n", 0},
        {"    a = np.random.uniform(*n)\n    np.random.seed(0)\n    g = np.random.default_rng()\n", 0},
        {"    np = make()\n    p = np.random.uniform(0, 1)\n", 0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char src[512];
        snprintf(src, sizeof src, "%s%s", head, cases[i].body);
        AT_EXPECT(src, "GM202", cases[i].expected);
    }
    char src[512];
    snprintf(src, sizeof src, "%s    p = np.random.uniform(0, 1)\n", head);
    gm_finding_list l = at_analyze(src);
    const gm_finding *f = at_find(&l, "GM202", 0);
    CHECK(f && strstr(f->message, "`np.random.uniform()` draws one number") != NULL);
    CHECK(f && f->mend_declined != NULL);
    gm_finding_list_free(&l);
}

int main(void) {
    unknown_receivers();
    text();
    numpy_random_draws();
    numpy_values();
    tensor_data_calls();
    item();
    to_python();
    consequences_and_fixes();
    tensor_contains();
    return check_exit_code("analysis/rules/tensor_to_python");
}
