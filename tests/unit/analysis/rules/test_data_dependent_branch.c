/* GM101 data-dependent-branch: positives, negatives, constant folding, consequences. */
#include <string.h>

#include "check.h"

#include "analysis_test.h"

#define HEAD                                                                                       \
    "import torch\n"                                                                               \
    "import torch.nn as nn\n"                                                                      \
    "import torch.nn.functional as F\n"                                                            \
    "import numpy as np\n"                                                                         \
    "\n"                                                                                           \
    "class M(nn.Module):\n"                                                                        \
    "    def helper(self, t):\n"                                                                   \
    "        return t\n"                                                                           \
    "\n"                                                                                           \
    "    def forward(self, x: torch.Tensor, y=None, n: int = 3):\n"

/* One forward body (indented 8 spaces) -> expected GM101 count. */
static void expect_forward(const char *body, size_t n) {
    char src[4096];
    snprintf(src, sizeof src, "%s%s", HEAD, body);
    AT_EXPECT(src, "GM101", n);
}

/* The GM101 span text and message of a forward body with exactly one finding. */
static void expect_span(const char *body, const char *span, const char *message_part) {
    char src[4096];
    snprintf(src, sizeof src, "%s%s", HEAD, body);
    gm_finding_list l = at_analyze(src);
    const gm_finding *f = at_find(&l, "GM101", 0);
    CHECK(f != NULL);
    if (f) {
        CHECK_EQ_STR(at_span_text(src, f), span);
        CHECK(strstr(f->message, message_part) != NULL);
        if (!strstr(f->message, message_part))
            fprintf(stderr, "message: %s\n", f->message);
        CHECK_EQ_INT(f->rule->severity, GM_SEVERITY_WARNING);
        CHECK_EQ_STR(f->rule->registry_id, "GB0170");
    }
    gm_finding_list_free(&l);
}

static void positives(void) {
    expect_forward("        if x.sum() > 0:\n            pass\n", 1);
    expect_forward("        if x:\n            pass\n", 1);
    expect_forward("        if not x:\n            pass\n", 1);
    expect_forward("        if x > 0:\n            pass\n", 1);
    expect_forward("        if x and y is None:\n            pass\n", 1);
    expect_forward("        if y is None or x.any():\n            pass\n", 1);
    expect_forward("        if (x == 0).all():\n            pass\n", 1);
    expect_forward("        if x.any():\n            pass\n", 1);
    expect_forward("        while x.max() > 1:\n            x = x / 2\n", 1);
    expect_forward("        if y is None:\n            pass\n        elif x.mean() > 0:\n"
                   "            pass\n",
                   1);
    expect_forward("        t = torch.randn(3)\n        if t[0] > 0:\n            pass\n", 1);
    expect_forward(
        "        h = F.softmax(y, dim=-1)\n        if h.max() > 0.5:\n            pass\n", 1);
    expect_forward("        h = self.proj(y)\n        if h.mean() > 0:\n            pass\n", 1);
    expect_forward("        h = self.layers[0](y)\n        if h.mean() > 0:\n            pass\n",
                   1);
    /* A tensor-only reduction on an unknown value is evidence of a tensor. */
    expect_forward("        z = y.sum()\n        if z:\n            pass\n", 1);
    expect_forward("        a, b = x.chunk(2)\n        if a.sum() > b.sum():\n            pass\n",
                   1);
    expect_forward("        h = x @ x.T + 1\n        if h.norm() > 1:\n            pass\n", 1);
    expect_forward("        h = x\n        h += 1\n        if h[0]:\n            pass\n", 1);
    expect_forward("        z = 1 if x.sum() > 0 else 2\n", 1);
    expect_forward("        if (m := x.mean()) > 0:\n            pass\n", 1);
    /* self.training folds to False: `not self.training and t` is t. */
    expect_forward("        if not self.training and x.sum() > 0:\n            pass\n", 1);
    expect_forward("        for row in x:\n            if row.sum() > 0:\n                pass\n",
                   1);
    /* Two branches, two findings. */
    expect_forward("        if x.sum() > 0:\n            pass\n        while x.any():\n"
                   "            x = x - 1\n",
                   2);
    /* Optional[Tensor] and Tensor | None annotations. */
    AT_EXPECT("import torch\nfrom typing import Optional\n@torch.compile\n"
              "def f(a: Optional[torch.Tensor] = None, b: torch.Tensor | None = None):\n"
              "    if a:\n        pass\n    if b:\n        pass\n    return a * b\n",
              "GM101", 2);
    /* ... unless the code only ever tests the parameter and it defaults to None/True/False:
     * a flag whatever its annotation says (corpus control_flow/flag_annotated_as_tensor.py) */
    AT_EXPECT("import torch\nfrom typing import Optional\n@torch.compile\n"
              "def f(x, a: Optional[torch.Tensor] = None, b: torch.Tensor = None):\n"
              "    y = (x, x) if a else (x,)\n    if not b:\n        pass\n"
              "    return g(y, a=a)\n",
              "GM101", 0);
    AT_EXPECT("import torch\n@torch.compile\n"
              "def f(x, a: torch.Tensor):\n    if a:\n        pass\n    return x\n",
              "GM101", 1);
    AT_EXPECT("import torch as th\nfrom torch import Tensor\n@th.compile\n"
              "def f(a: Tensor, b):\n    t = th.zeros(3)\n    if t.sum():\n        pass\n"
              "    if a.max() > 0:\n        pass\n",
              "GM101", 2);
}

static void negatives(void) {
    expect_forward("        if x.shape[0] > 1:\n            pass\n", 0);
    expect_forward("        if x.dim() == 3:\n            pass\n", 0);
    expect_forward("        if x.ndim == 3:\n            pass\n", 0);
    expect_forward("        if x.size(0) > 1:\n            pass\n", 0);
    expect_forward("        if x.numel() > 0:\n            pass\n", 0);
    expect_forward("        if y is None:\n            pass\n", 0);
    expect_forward("        if x is not None:\n            pass\n", 0);
    expect_forward("        if self.training:\n            pass\n", 0);
    expect_forward("        if torch.compiler.is_compiling():\n            pass\n", 0);
    expect_forward("        if torch.jit.is_scripting():\n            pass\n", 0);
    expect_forward("        if isinstance(y, torch.Tensor):\n            pass\n", 0);
    expect_forward("        if len(x) > 2:\n            pass\n", 0);
    expect_forward("        if y:\n            pass\n", 0); /* unknown parameter */
    expect_forward("        if n > 2:\n            pass\n", 0);
    expect_forward("        if x.dtype == torch.float16:\n            pass\n", 0);
    expect_forward("        if x.device.type == 'cuda':\n            pass\n", 0);
    expect_forward("        if torch.is_tensor(y):\n            pass\n", 0);
    expect_forward("        if torch.cuda.is_available():\n            pass\n", 0);
    expect_forward("        if x.is_cuda:\n            pass\n", 0);
    expect_forward("        k = x.shape[-1]\n        if k % 2:\n            pass\n", 0);
    expect_forward("        b, c = x.shape\n        if b > c:\n            pass\n", 0);
    expect_forward(
        "        for i in range(x.shape[0]):\n            if i > 2:\n                pass\n", 0);
    /* a NumPy value, whatever y is: dynamo traces NumPy as tensors and breaks on the jump */
    expect_forward("        if np.sum(y) > 0:\n            pass\n", 1);
    expect_forward("        if self.helper(y):\n            pass\n",
                   0); /* a method, not a submodule */
    /* .item() breaks at the call (a later rule), not at the branch. */
    expect_forward("        if x.sum().item() > 0:\n            pass\n", 0);
    /* Constant folding: the tensor operand is never evaluated. */
    expect_forward("        if self.training and x.sum() > 0:\n            pass\n", 0);
    expect_forward("        if torch.compiler.is_compiling() or x.sum() > 0:\n            pass\n",
                   0);
    /* Dead branches are not traced. */
    expect_forward("        if torch.compiler.is_compiling():\n            pass\n        else:\n"
                   "            if x.sum() > 0:\n                pass\n",
                   0);
    /* A nested def is a frame of its own, traced where forward calls it; one never called is
     * not traced. */
    expect_forward("        def inner(t: torch.Tensor):\n            if t.sum() > 0:\n"
                   "                pass\n        return inner(x)\n",
                   1);
    expect_forward("        def unused(t: torch.Tensor):\n            if t.sum() > 0:\n"
                   "                pass\n        return x\n",
                   0);
    expect_forward("        f = lambda t: 1 if t.sum() > 0 else 0\n", 0);
    /* Not regions: __init__, other methods, plain classes, undecorated functions. */
    AT_EXPECT("import torch\nimport torch.nn as nn\nclass M(nn.Module):\n"
              "    def __init__(self):\n        super().__init__()\n        t = torch.zeros(3)\n"
              "        if t.sum() > 0:\n            pass\n"
              "    def extra(self, x: torch.Tensor):\n        if x.sum() > 0:\n            pass\n",
              "GM101", 0);
    AT_EXPECT("import torch\nclass P:\n    def forward(self, x: torch.Tensor):\n"
              "        if x.sum() > 0:\n            pass\n",
              "GM101", 0);
    AT_EXPECT("import torch\ndef f(x: torch.Tensor):\n    if x.sum() > 0:\n        pass\n", "GM101",
              0);
    /* forward is not a region when the options say so. */
    {
        const char *src = HEAD "        if x.sum() > 0:\n            pass\n";
        gm_analysis_options o;
        gm_analysis_options_default(&o);
        o.forward_is_compiled = false;
        gm_finding_list l = at_analyze_with(src, &o);
        CHECK_EQ_INT(at_count(&l, "GM101"), 0);
        gm_finding_list_free(&l);
        /* In training mode the training branch is live. */
        const char *src2 = HEAD "        if self.training and x.sum() > 0:\n            pass\n";
        gm_analysis_options_default(&o);
        o.training = true;
        l = at_analyze_with(src2, &o);
        CHECK_EQ_INT(at_count(&l, "GM101"), 1);
        gm_finding_list_free(&l);
    }
}

static void spans_and_consequences(void) {
    expect_span("        if x.sum() > 0:\n            pass\n", "x.sum() > 0",
                "`if x.sum() > 0` on a tensor value (`x` is a tensor because it is annotated "
                "`torch.Tensor`): torch.compile breaks the graph here");
    expect_span("        if x.sum() > 0:\n            pass\n", "x.sum() > 0",
                "(data-dependent branching)");
    /* A while's own test breaks and resumes (torch 2.13: three graphs); its body is the loop. */
    expect_span(
        "        for i in range(3):\n            while (x > 0).any():\n                x = x - 1\n",
        "(x > 0).any()",
        "inside a loop, so dynamo skips the frame and the whole function runs eagerly");
    expect_span("        while True:\n            if x.mean() > 1:\n                break\n",
                "x.mean() > 1", "inside a loop");
    expect_span("        for i in range(3):\n            if x.sum() > i:\n                pass\n",
                "x.sum() > i", "inside a loop");
    expect_span("        try:\n            if x.sum() > 0:\n                pass\n"
                "        except ValueError:\n            pass\n",
                "x.sum() > 0", "inside try/with, so dynamo falls back to eager");
    expect_span(
        "        with make_ctx() as fh:\n            if x.sum() > 0:\n                pass\n",
        "x.sum() > 0", "inside try/with");
    expect_span("        z = 3 if x.sum() > 0 else 4\n", "x.sum() > 0",
                "`... if x.sum() > 0 else ...` on a tensor value");
    expect_span(
        "        if y is None:\n            pass\n        elif x.mean():\n            pass\n",
        "x.mean()", "`elif x.mean()` on a tensor value");
    /* a long condition is cut, its whitespace collapsed */
    expect_span("        if (x.sum() > 0 and x.mean() > 1 and x.max() > 2\n"
                "                and x.min() > 3 and x.std() > 4):\n            pass\n",
                "x.sum() > 0 and x.mean() > 1 and x.max() > 2\n                and x.min() > 3 "
                "and x.std() > 4",
                "`if x.sum() > 0 and x.mean() > 1 and x.max() > 2 and x.min() > 3 and x.s...` on a "
                "tensor value");
    /* No consequence suffix: torch context managers are resumable; a for's else is not the loop. */
    const char *plain[] = {
        "        with torch.no_grad():\n            if x.sum() > 0:\n                pass\n",
        "        with torch.autocast('cuda'):\n            if x.sum() > 0:\n                pass\n",
        ("        for i in range(3):\n            pass\n        else:\n"
         "            if x.sum() > 0:\n                pass\n"),
        "        if x.sum() > 0:\n            pass\n",
        "        while (x > 0).any():\n            x = x - 1\n",
    };
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++) {
        char src[4096];
        snprintf(src, sizeof src, "%s%s", HEAD, plain[i]);
        gm_finding_list l = at_analyze(src);
        const gm_finding *f = at_find(&l, "GM101", 0);
        CHECK(f != NULL);
        if (f) {
            CHECK(strstr(f->message, "loop") == NULL);
            CHECK(strstr(f->message, "try/with") == NULL);
        }
        gm_finding_list_free(&l);
    }
}

/* random.uniform()/randint() results are graph inputs to dynamo: branching on them breaks
 * (GB0170 on torch 2.13), in any spelling; random.random() and local names do not count. */
static void random_values(void) {
    AT_EXPECT("import random\nimport torch\n@torch.compile\ndef f(x):\n"
              "    if random.uniform(0, 1) < 2:\n        x = x + 1\n"
              "    k = random.randint(0, 3)\n    if k > 0:\n        x = x - 1\n    return x\n",
              "GM101", 2);
    AT_EXPECT("import random as r\nfrom random import uniform\nimport torch\n@torch.compile\n"
              "def f(x):\n    if uniform(0, 1) < 2 or r.randint(0, 1):\n        x = x + 1\n"
              "    return x\n",
              "GM101", 1);
    AT_EXPECT("import random\nimport torch\n@torch.compile\ndef f(x):\n"
              "    if random.random() < 2:\n        x = x + 1\n    return x\n",
              "GM101", 0);
    AT_EXPECT("import torch\n@torch.compile\ndef f(x, random):\n"
              "    if random.uniform(0, 1) < 2:\n        x = x + 1\n    return x\n",
              "GM101", 0);
    AT_EXPECT("import torch\n@torch.compile\ndef f(x):\n"
              "    if uniform(0, 1) < 2:\n        x = x + 1\n    return x\n",
              "GM101", 0);
    AT_EXPECT("import random\nimport torch\n@torch.compile\ndef f(x):\n"
              "    return x * random.uniform(0.5, 1.5)\n",
              "GM101", 0);
}

/* `not <tensor>` as a value (GM104) cannot be resumed from on torch 2.13: the rest of the
 * function runs eagerly and its later breaks are never reported; a GM101 branch is resumed. */
static void tensor_not_skips_frame(void) {
    const char *src = "import torch\n@torch.compile\ndef f(x: torch.Tensor):\n"
                      "    print(x)\n    z = not (x > 0).all()\n    print(z)\n"
                      "    if x.sum() > 0:\n        x = x + 1\n    return x\n";
    gm_finding_list l = at_analyze(src);
    CHECK_EQ_INT(at_count(&l, "GM104"), 1);
    CHECK_EQ_INT(at_count(&l, "GM401"), 1);
    CHECK_EQ_INT(at_count(&l, "GM101"), 0);
    gm_finding_list_free(&l);
    AT_EXPECT("import torch\n@torch.compile\ndef f(x: torch.Tensor):\n"
              "    if x.sum() > 0:\n        x = x + 1\n    print(x)\n",
              "GM401", 1);
    /* in a loop the branch skips the frame: neither its body nor what follows is reported */
    AT_EXPECT("import torch\n@torch.compile\ndef f(x: torch.Tensor):\n"
              "    for i in range(2):\n        if x.sum() > 0:\n            print(x)\n"
              "        print(i)\n    print(x)\n",
              "GM401", 0);
}

/* The dtypes a finding needs (only_when_dtypes) of a forward body with exactly one GM101, or
 * NULL to expect none. */
static void expect_dtypes(const char *body, const char *dtypes) {
    char src[4096];
    snprintf(src, sizeof src, "%s%s", HEAD, body);
    gm_finding_list l = at_analyze(src);
    const gm_finding *f = at_find(&l, "GM101", 0);
    CHECK(f != NULL && at_count(&l, "GM101") == 1);
    if (f && dtypes) {
        CHECK(f->only_when_dtypes != NULL);
        if (f->only_when_dtypes)
            CHECK_EQ_STR(f->only_when_dtypes, dtypes);
        CHECK(strstr(f->message, "in other dtypes `and` stops at the dtype test") != NULL);
    } else if (f) {
        CHECK(f->only_when_dtypes == NULL);
        CHECK(strstr(f->message, "dtype test") == NULL);
    }
    gm_finding_list_free(&l);
}

/* A dtype test ahead of the tensor test: the break happens only in those dtypes (checked with
 * torch 2.13 explain: `h.dtype == torch.float16 and torch.isinf(h).any()` breaks in float16,
 * not in float32 or bfloat16). */
static void dtype_guards(void) {
    expect_dtypes("        if x.dtype == torch.float16 and torch.isinf(x).any():\n"
                  "            x = x.clamp(-1, 1)\n"
                  "        return x\n",
                  "float16");
    expect_dtypes("        if torch.float16 == x.dtype and (x > 5).all():\n"
                  "            x = x * 2\n"
                  "        return x\n",
                  "float16");
    expect_dtypes("        if x.dtype in (torch.float16, torch.bfloat16) and (x > 5).all():\n"
                  "            x = x * 2\n"
                  "        return x\n",
                  "float16,bfloat16");
    expect_dtypes("        if n > 2 and x.dtype == torch.float16 and (x > 5).all():\n"
                  "            x = x * 2\n"
                  "        return x\n",
                  "float16");
    /* the tensor is tested first: it breaks in every dtype */
    expect_dtypes("        if (x > 0).any() and x.dtype == torch.float16:\n"
                  "            x = x + 1\n"
                  "        return x\n",
                  NULL);
    /* `or` runs the tensor test when the dtype test is false */
    expect_dtypes("        if x.dtype == torch.float16 or (x > 0).any():\n"
                  "            x = x + 1\n"
                  "        return x\n",
                  NULL);
    /* `!=` and `not in` break in every dtype but those */
    expect_dtypes("        if x.dtype != torch.float16 and (x > 0).any():\n"
                  "            x = x + 1\n"
                  "        return x\n",
                  NULL);
    expect_dtypes("        if x.dtype not in (torch.float16,) and (x > 0).any():\n"
                  "            x = x + 1\n"
                  "        return x\n",
                  NULL);
    /* not a dtype of torch's */
    expect_dtypes("        if x.dtype == y and (x > 0).any():\n"
                  "            x = x + 1\n"
                  "        return x\n",
                  NULL);
}

/* The Python condition a finding needs (only_when_condition) of a forward body with exactly one
 * GM101, or NULL to expect none; said is what its message says of it. */
static void expect_condition_said(const char *body, const char *condition, const char *said) {
    char src[4096];
    snprintf(src, sizeof src, "%s%s", HEAD, body);
    gm_finding_list l = at_analyze(src);
    const gm_finding *f = at_find(&l, "GM101", 0);
    CHECK(f != NULL && at_count(&l, "GM101") == 1);
    if (f && condition) {
        CHECK(f->only_when_condition != NULL);
        if (f->only_when_condition)
            CHECK_EQ_STR(f->only_when_condition, condition);
        CHECK(strstr(f->message, said) != NULL);
    } else if (f) {
        CHECK(f->only_when_condition == NULL);
    }
    gm_finding_list_free(&l);
}

static void expect_condition(const char *body, const char *condition) {
    expect_condition_said(body, condition, "holds, torch.compile breaks");
}

/* Python tests ahead of the tensor test: dynamo evaluates them while tracing and `and` stops
 * before the tensor when they are false (verified on torch 2.13: corpus
 * control_flow/python_test_guarding_tensor_test.py). */
static void python_guards(void) {
    expect_condition("        if y is not None and (x == 3).any():\n"
                     "            x = x + 1\n"
                     "        return x\n",
                     "y is not None");
    /* an `or` before the tensor must be false, at any depth: its tests negated */
    expect_condition("        if y is None or (not self.cache_ok and (x == 3).any()):\n"
                     "            x = x + 1\n"
                     "        return x\n",
                     "y is not None and not self.cache_ok");
    expect_condition("        if self.flag or y.ready or (x == 3).any():\n"
                     "            x = x + 1\n"
                     "        return x\n",
                     "not self.flag and not y.ready");
    /* whitespace and line continuations collapse; constants (self.training) are left out */
    expect_condition("        if (y is not None\n                and not self.training\n"
                     "                and (x == 3).any()):\n"
                     "            x = x + 1\n"
                     "        return x\n",
                     "y is not None");
    expect_condition("        if self.cfg[\"kind\"] != \"a\" and n > 2 and x.max():\n"
                     "            x = x + 1\n"
                     "        return x\n",
                     "self.cfg[\"kind\"] != \"a\" and n > 2");
    /* the tensor first, or alone: no condition */
    expect_condition("        if (x == 3).any() and y is not None:\n"
                     "            x = x + 1\n"
                     "        return x\n",
                     NULL);
    expect_condition("        if (x == 3).any():\n            x = x + 1\n        return x\n", NULL);
}

/* The condition of a finding in a branch an `isinstance(v, torch.Tensor)` test guards, for a v
 * the analysis does not know for a tensor (verified on torch 2.13: corpus
 * control_flow/isinstance_guarded_tensor_read.py). */
static void expect_type_guard(const char *body, const char *condition) {
    expect_condition_said(body, condition, "dynamo knows the type while it traces");
}

static void type_guards(void) {
    expect_type_guard("        if isinstance(self.scale, torch.Tensor):\n"
                      "            if self.scale.max() > 1:\n                x = x + 1\n"
                      "        return x\n",
                      "isinstance(self.scale, torch.Tensor)");
    /* a tuple of tensor classes, an `and` chain, elif, a conditional expression */
    expect_type_guard("        if n > 2 and isinstance(y, (torch.Tensor, nn.Parameter)):\n"
                      "            if y.any():\n                x = x + 1\n"
                      "        return x\n",
                      "isinstance(y, (torch.Tensor, nn.Parameter))");
    expect_type_guard("        if y is None:\n            pass\n"
                      "        elif isinstance(y, torch.Tensor):\n"
                      "            if y.any():\n                x = x + 1\n"
                      "        return x\n",
                      "isinstance(y, torch.Tensor)");
    expect_type_guard("        z = 1 if not isinstance(y, torch.Tensor) else (2 if y.any() else 3)\n"
                      "        return x * z\n",
                      NULL); /* `not isinstance`: the else branch is not guarded here */
    expect_type_guard("        z = (2 if y.any() else 3) if isinstance(y, torch.Tensor) else 1\n"
                      "        return x * z\n",
                      "isinstance(y, torch.Tensor)");
    /* a value the analysis knows for a tensor: the test always holds */
    expect_type_guard("        h = x.abs()\n"
                      "        if isinstance(h, torch.Tensor):\n"
                      "            if h.any():\n                x = x + 1\n"
                      "        return x\n",
                      NULL);
    /* `isinstance(h, dict)`: in its branch h is no tensor; after it, h is what it was */
    char src[1024];
    snprintf(src, sizeof src, "%s%s", HEAD,
             "        h = x.abs()\n"
             "        if isinstance(h, (dict, list)):\n"
             "            if \"k\" in h:\n                x = x + 1\n"
             "        return x\n");
    AT_EXPECT(src, "GM202", 0); /* a key test of a dict */
    snprintf(src, sizeof src, "%s%s", HEAD,
             "        h = x.abs()\n"
             "        if isinstance(h, dict):\n            x = x + 1\n"
             "        if \"k\" in h:\n            x = x + 2\n"
             "        return x\n");
    AT_EXPECT(src, "GM202", 1); /* after the branch h is the tensor it was */
    expect_forward("        h = x.abs()\n"
                   "        if isinstance(h, dict):\n            pass\n"
                   "        if h.any():\n            x = x + 1\n"
                   "        return x\n",
                   1);
    expect_forward("        h = x.abs()\n"
                   "        z = h.keys() if isinstance(h, dict) else h\n"
                   "        if h.any():\n            x = x + 1\n"
                   "        return x\n",
                   1);
    /* other classes, and the else branch, add nothing */
    expect_type_guard("        if isinstance(y, (list, tuple)):\n            pass\n"
                      "        elif (x > 0).any():\n            x = x + 1\n"
                      "        return x\n",
                      NULL);
}

/* Each branch of an if starts from the kinds before it: a rebinding in one branch does not reach
 * the other; after the if a name has the kind the last branch binding it gave. */
static void branch_kinds(void) {
    expect_forward("        if n > 2:\n            x = compute(x)\n        else:\n"
                   "            if x:\n                pass\n",
                   1);
    expect_forward("        if n > 2:\n            x = compute(x)\n        elif n > 1:\n"
                   "            x = x + 1\n        else:\n            if x:\n                pass\n",
                   1);
    expect_forward("        if n > 2:\n            y = x * 2\n        else:\n"
                   "            if y:\n                pass\n",
                   0);
    expect_forward("        if n > 2:\n            x = compute(x)\n        if x:\n            pass\n", 0);
    expect_forward("        if n > 2:\n            y = x * 2\n        if y:\n            pass\n", 1);
}

int main(void) {
    branch_kinds();
    dtype_guards();
    python_guards();
    type_guards();
    tensor_not_skips_frame();
    positives();
    random_values();
    negatives();
    spans_and_consequences();
    return check_exit_code("analysis/rules/data_dependent_branch");
}
