/* Symbols (imports, aliases, classes) and which functions are compiled regions. A region is
 * detected through the print rule: a print inside it is reported, outside it is not. */
#include "check.h"

#include "analysis/module_facts/symbols.h"
#include "analysis/syntax/syntax.h"
#include "analysis_test.h"

/* Parses src, scans its top level into symbols and resolves the dotted expression that forms
 * the last line of src into buf: whether it resolves. */
static bool resolve_last_line(const char *src, char *buf, size_t cap) {
    gm_syntax syn;
    CHECK_EQ_INT(gm_syntax_init(&syn, gm_python_language()), 0);
    TSParser *p = gm_python_parser_new(0);
    TSTree *t = gm_python_parse(p, NULL, src, strlen(src));
    TSNode root = ts_tree_root_node(t);
    gm_symbols s;
    gm_symbols_init(&s);
    uint64_t h = GM_HASH_INIT;
    uint32_t n = ts_node_named_child_count(root);
    for (uint32_t i = 0; i < n; i++)
        CHECK_EQ_INT(gm_symbols_scan_top(&s, &syn, src, ts_node_named_child(root, i), &h), 0);
    CHECK_EQ_INT(gm_symbols_finish(&s), 0);
    TSNode last = ts_node_named_child(ts_node_named_child(root, n - 1), 0);
    bool ok = gm_symbols_resolve(&s, &syn, src, last, buf, cap);
    gm_symbols_free(&s);
    gm_tree_delete(t);
    ts_parser_delete(p);
    return ok;
}

static void expect_resolves(const char *src, const char *expected) {
    char buf[GM_NAME_MAX];
    bool ok = resolve_last_line(src, buf, sizeof buf);
    CHECK(ok);
    if (ok)
        CHECK_EQ_STR(buf, expected);
}

static void aliases(void) {
    expect_resolves("import torch as th\nth.compile\n", "torch.compile");
    expect_resolves("import torch\ntorch.compile\n", "torch.compile");
    expect_resolves("import torch.nn as nn\nnn.Module\n", "torch.nn.Module");
    expect_resolves("from torch import nn\nnn.Module\n", "torch.nn.Module");
    expect_resolves("from torch.nn import Module\nModule\n", "torch.nn.Module");
    expect_resolves("from torch import compile\ncompile\n", "torch.compile");
    expect_resolves("import torch._dynamo\ntorch._dynamo.optimize\n", "torch._dynamo.optimize");
    expect_resolves("import torch.nn.functional as F\nF.relu\n", "torch.nn.functional.relu");
    expect_resolves("from torch.nn import functional as F\nF.relu\n", "torch.nn.functional.relu");
    expect_resolves("import numpy as np\nnp.sum\n", "numpy.sum");
    expect_resolves("x.y.z\n", "x.y.z");
    expect_resolves("import torch as th\nimport numpy as th\nth.sum\n",
                    "numpy.sum"); /* last wins */
    expect_resolves("try:\n    import torch as th\nexcept ImportError:\n    pass\nth.zeros\n",
                    "torch.zeros");
    expect_resolves("from . import torch as t\nt.x\n", ".torch.x");
    /* getattr with a literal name is an attribute, inside a chain too; and module-level aliases
     * of torch's compile-constant functions */
    expect_resolves("import torch.nn as nn\ngetattr(nn, 'LSTM')\n", "torch.nn.LSTM");
    expect_resolves("import torch\ngetattr(torch, \"nn\").GRU\n", "torch.nn.GRU");
    expect_resolves("import torch\n_c = getattr(torch.compiler, 'is_compiling', None)\n_c\n",
                    "torch.compiler.is_compiling");
}

/* Names that do not resolve through getattr: a default (the value may be it), a name that is
 * not a literal, a shadowed getattr. */
static void expect_unresolved(const char *src) {
    char buf[GM_NAME_MAX];
    CHECK(!resolve_last_line(src, buf, sizeof buf));
}

static void unresolved(void) {
    expect_unresolved("import torch.nn as nn\ngetattr(nn, 'LSTM', None)\n");
    expect_unresolved("import torch.nn as nn\nkind = 'LSTM'\ngetattr(nn, kind)\n");
    expect_unresolved("from mylib import getattr\nimport torch.nn as nn\ngetattr(nn, 'LSTM')\n");
}

#define PRINT_BODY "        print(x)\n"

static void regions(void) {
    /* Decorated functions in every spelling. */
    AT_EXPECT("import torch\n@torch.compile\ndef f(x):\n    print(x)\n", "GM401", 1);
    AT_EXPECT("import torch\n@torch.compile(mode=\"max-autotune\")\ndef f(x):\n    print(x)\n",
              "GM401", 1);
    AT_EXPECT("import torch as th\n@th.compile()\ndef f(x):\n    print(x)\n", "GM401", 1);
    AT_EXPECT("from torch import compile\n@compile\ndef f(x):\n    print(x)\n", "GM401", 1);
    AT_EXPECT("import torch\n@torch._dynamo.optimize(\"inductor\")\ndef f(x):\n    print(x)\n",
              "GM401", 1);
    AT_EXPECT("import torch._dynamo\n@torch._dynamo.optimize(\"eager\")\ndef f(x):\n    print(x)\n",
              "GM401", 1);
    AT_EXPECT("import functools, torch\n@functools.partial(torch.compile, fullgraph=True)\n"
              "def f(x):\n    print(x)\n",
              "GM401", 1);
    AT_EXPECT("import torch\n@other\n@torch.compile\ndef f(x):\n    print(x)\n", "GM401", 1);
    /* Not compiled: the builtin compile, other decorators, none, disable. */
    AT_EXPECT("@compile\ndef f(x):\n    print(x)\n", "GM401", 0);
    AT_EXPECT("import torch\n@torch.no_grad()\ndef f(x):\n    print(x)\n", "GM401", 0);
    AT_EXPECT("import torch\ndef f(x):\n    print(x)\n", "GM401", 0);
    AT_EXPECT("import torch\nimport torch.nn as nn\nclass M(nn.Module):\n"
              "    @torch.compiler.disable\n    def forward(self, x):\n" PRINT_BODY,
              "GM401", 0);

    /* forward of Module subclasses, in every spelling of the base. */
    AT_EXPECT("import torch.nn as nn\nclass M(nn.Module):\n    def forward(self, x):\n" PRINT_BODY,
              "GM401", 1);
    AT_EXPECT("import torch\nclass M(torch.nn.Module):\n    def forward(self, x):\n" PRINT_BODY,
              "GM401", 1);
    AT_EXPECT("from torch import nn\nclass M(nn.Module):\n    def forward(self, x):\n" PRINT_BODY,
              "GM401", 1);
    AT_EXPECT(
        "from torch.nn import Module\nclass M(Module):\n    def forward(self, x):\n" PRINT_BODY,
        "GM401", 1);
    AT_EXPECT(
        "import torch.nn as nn\nclass M(nn.Sequential):\n    def forward(self, x):\n" PRINT_BODY,
        "GM401", 1);
    /* Through a same-file Module subclass, defined before or after. */
    AT_EXPECT("import torch.nn as nn\nclass Base(nn.Module):\n    pass\n"
              "class Child(Base):\n    def forward(self, x):\n" PRINT_BODY,
              "GM401", 1);
    AT_EXPECT("import torch.nn as nn\nclass Child(Mid):\n    def forward(self, x):\n" PRINT_BODY
              "class Mid(Base):\n    pass\nclass Base(nn.Module):\n    pass\n",
              "GM401", 1);
    /* Decorated forward is still forward. */
    AT_EXPECT("import torch\nimport torch.nn as nn\nclass M(nn.Module):\n    @torch.no_grad()\n"
              "    def forward(self, x):\n" PRINT_BODY,
              "GM401", 1);
    /* Not Modules. */
    AT_EXPECT("class P:\n    def forward(self, x):\n" PRINT_BODY, "GM401", 0);
    AT_EXPECT("class P(object):\n    def forward(self, x):\n" PRINT_BODY, "GM401", 0);
    AT_EXPECT(
        "import torch.nn as nn\nclass P(nn.Parameter):\n    def forward(self, x):\n" PRINT_BODY,
        "GM401", 0);
    AT_EXPECT("class Base:\n    pass\nclass Child(Base):\n    def forward(self, x):\n" PRINT_BODY,
              "GM401", 0);
    /* Other methods of a Module are not regions; compiled methods of any class are. */
    AT_EXPECT("import torch.nn as nn\nclass M(nn.Module):\n    def __init__(self):\n"
              "        super().__init__()\n        print('init')\n"
              "    def helper(self, x):\n" PRINT_BODY,
              "GM401", 0);
    AT_EXPECT("import torch\nclass P:\n    @torch.compile\n    def step(self, x):\n" PRINT_BODY,
              "GM401", 1);
    {
        const char *src = "import torch\nimport torch.nn as nn\nclass M(nn.Module):\n"
                          "    def forward(self, x):\n" PRINT_BODY "    @torch.compile\n"
                          "    def step(self, x):\n" PRINT_BODY;
        gm_analysis_options o;
        gm_analysis_options_default(&o);
        o.forward_is_compiled = false;
        gm_finding_list l = at_analyze_with(src, &o);
        CHECK_EQ_INT(at_count(&l, "GM401"), 1);
        CHECK_EQ_INT(l.count ? l.items[0].span.start.row : 0, 7);
        gm_finding_list_free(&l);
        l = at_analyze(src);
        CHECK_EQ_INT(at_count(&l, "GM401"), 2);
        gm_finding_list_free(&l);
    }
}

/* What compiled code calls in the same file is traced too, transitively; the break is reported
 * inside the callee, once however many regions call it. */
static void callees(void) {
#define HEAD "import torch\nimport torch.nn as nn\n"
#define HELPER "def helper(t):\n    print(t)\n    return t\n"
    /* Called from forward, from a compiled function, through a chain, from two regions. */
    AT_EXPECT(HEAD HELPER "class M(nn.Module):\n    def forward(self, x):\n"
                          "        return helper(x)\n",
              "GM401", 1);
    AT_EXPECT(HEAD HELPER "@torch.compile\ndef f(x):\n    return helper(x)\n", "GM401", 1);
    AT_EXPECT(HEAD HELPER "def middle(t):\n    return helper(t) + 1\n"
                          "@torch.compile\ndef f(x):\n    return middle(x)\n",
              "GM401", 1);
    AT_EXPECT(HEAD HELPER "@torch.compile\ndef f(x):\n    return helper(x)\n"
                          "@torch.compile\ndef g(x):\n    return helper(x)\n",
              "GM401", 1);
    /* The callee defined after the caller; a recursive helper. */
    AT_EXPECT(HEAD "@torch.compile\ndef f(x):\n    return helper(x)\n" HELPER, "GM401", 1);
    AT_EXPECT(HEAD "def helper(t):\n    print(t)\n    return helper(t)\n"
                   "@torch.compile\ndef f(x):\n    return helper(x)\n",
              "GM401", 1);
    /* self.method() from forward, also defined in a same-file base class. */
    AT_EXPECT(HEAD "class M(nn.Module):\n    def helper(self, t):\n        print(t)\n"
                   "    def forward(self, x):\n        return self.helper(x)\n",
              "GM401", 1);
    AT_EXPECT(HEAD "class B(nn.Module):\n    def helper(self, t):\n        print(t)\n"
                   "class M(B):\n    def forward(self, x):\n        return self.helper(x)\n",
              "GM401", 1);
    /* Not traced: called only from __init__, never, outside regions, disabled, shadowed by a
     * local, from a nested function, or __init__ itself. */
    AT_EXPECT(HEAD HELPER "class M(nn.Module):\n    def __init__(self):\n"
                          "        super().__init__()\n        helper(1)\n"
                          "    def forward(self, x):\n        return x\n",
              "GM401", 0);
    AT_EXPECT(HEAD HELPER "@torch.compile\ndef f(x):\n    return x\n", "GM401", 0);
    AT_EXPECT(HEAD HELPER "def g(x):\n    return helper(x)\nhelper(1)\n", "GM401", 0);
    AT_EXPECT(HEAD "@torch.compiler.disable\n" HELPER
                   "@torch.compile\ndef f(x):\n    return helper(x)\n",
              "GM401", 0);
    AT_EXPECT(HEAD HELPER "@torch.compile\ndef f(x, helper):\n    return helper(x)\n", "GM401", 0);
    AT_EXPECT(HEAD "class M(nn.Module):\n    def __init__(self):\n        print(1)\n"
                   "    def forward(self, x):\n        return self.__init__()\n",
              "GM401", 0);
    AT_EXPECT(HEAD "class M(nn.Module):\n    def other(self, t):\n        print(t)\n"
                   "    def forward(self, x):\n        return x\n",
              "GM401", 0);
#undef HEAD
#undef HELPER
}

/* Defs nested in compiled functions, and wrappers that decorators of the file return. */
static void nested_regions(void) {
    /* called from compiled code: a region; defined but never called: not one */
    AT_EXPECT("import torch\n@torch.compile\ndef f(x):\n"
              "    def show(t):\n        print(t)\n"
              "    def unused(t):\n        print(t)\n"
              "    return show(x)\n",
              "GM401", 1);
    /* a nested def calling a sibling, and one nested deeper */
    AT_EXPECT("import torch\n@torch.compile\ndef f(x):\n"
              "    def a(t):\n        return b(t)\n"
              "    def b(t):\n        def c(u):\n            print(u)\n        return c(t)\n"
              "    return a(x)\n",
              "GM401", 1);
    /* a local value of the same name as a module function is not that function */
    AT_EXPECT("import torch\ndef show(t):\n    print(t)\n"
              "@torch.compile\ndef f(x, show):\n    return show(x)\n",
              "GM401", 0);
    /* nested defs of functions compiled code never runs are not regions */
    AT_EXPECT("def f(x):\n    def show(t):\n        print(t)\n    return show(x)\n", "GM401", 0);
    /* self of the method around a nested def: self.training folds */
    AT_EXPECT("import torch\nfrom torch import nn\nclass M(nn.Module):\n"
              "    def forward(self, x):\n"
              "        def step(t):\n            if self.training:\n                print(t)\n"
              "            return t\n"
              "        return step(x)\n",
              "GM401", 0);
    /* a same-file decorator returning a wrapper that calls the wrapped function */
    const char *deco = "import torch\nfrom torch import nn\n"
                       "def traced(fn):\n"
                       "    def log(t):\n        print(t)\n"
                       "    def wrapper(self, x):\n        log(x)\n        return fn(self, x)\n"
                       "    return wrapper\n"
                       "def same(fn):\n"
                       "    def other(self, x):\n        print(x)\n"
                       "    fn.other = other\n"
                       "    return fn\n"
                       "class M(nn.Module):\n"
                       "    @%s\n"
                       "    def forward(self, x):\n        return x\n";
    char src[1024];
    snprintf(src, sizeof src, deco, "traced");
    AT_EXPECT(src, "GM401", 1);
    snprintf(src, sizeof src, deco, "same");
    AT_EXPECT(src, "GM401", 0);
    /* a wrapper that never calls the function it wraps replaces it: not followed */
    AT_EXPECT("import torch\nfrom torch import nn\n"
              "def swap(fn):\n"
              "    def other(self, x):\n        print(x)\n        return x\n"
              "    return other\n"
              "class M(nn.Module):\n    @swap\n    def forward(self, x):\n        return x\n",
              "GM401", 0);
}

int main(void) {
    aliases();
    unresolved();
    regions();
    nested_regions();
    callees();
    return check_exit_code("analysis/regions/compiled_regions");
}
