/* GM401 print-call: detection, shadowing, eager-only guards, consequences and the mend. */
#include "check.h"

#include "analysis_test.h"

#define HEAD                                                                                       \
    "import torch\n"                                                                               \
    "import torch.nn as nn\n"                                                                      \
    "\n"                                                                                           \
    "class M(nn.Module):\n"                                                                        \
    "    def forward(self, x):\n"

static void expect_forward(const char *body, size_t n) {
    char src[4096];
    snprintf(src, sizeof src, "%s%s", HEAD, body);
    AT_EXPECT(src, "GM401", n);
}

static void detection(void) {
    expect_forward("        print(x)\n", 1);
    expect_forward("        print(x)\n        print('a', x.shape, sep=',')\n", 2);
    expect_forward("        y = print(x) or x\n", 1);
    expect_forward("        return [print(v) for v in x]\n", 1);
    expect_forward("        if x.sum() > 0:\n            print(x)\n", 1);
    expect_forward("        if not torch.jit.is_scripting():\n            print(x)\n", 1);
    /* Not the builtin. */
    expect_forward("        self.print(x)\n", 0);
    expect_forward("        logger.print(x)\n", 0);
    expect_forward("        print = logger.info\n        print(x)\n", 0);
    expect_forward("        def print(*a):\n            pass\n        print(x)\n", 0);
    expect_forward("        from rich import print\n        print(x)\n", 0);
    expect_forward("        for print in handlers:\n            print(x)\n", 0);
    AT_EXPECT("import torch\nimport torch.nn as nn\nclass M(nn.Module):\n"
              "    def forward(self, x, print=None):\n        print(x)\n",
              "GM401", 0);
    AT_EXPECT("from rich import print\n" HEAD "        print(x)\n", "GM401", 0);
    AT_EXPECT("def print(*a):\n    pass\n" HEAD "        print(x)\n", "GM401", 0);
    /* A binding of print inside a nested function does not shadow it in the region. */
    expect_forward("        def inner():\n            print = 1\n        print(x)\n", 1);
    /* Eager-only code is not traced. */
    expect_forward("        if not torch.compiler.is_compiling():\n            print(x)\n", 0);
    expect_forward("        if torch.compiler.is_compiling():\n            pass\n        else:\n"
                   "            print(x)\n",
                   0);
    expect_forward("        if torch._dynamo.is_compiling():\n            pass\n"
                   "        elif x:\n            print(x)\n",
                   0);
    expect_forward("        if not is_torchdynamo_compiling():\n            print(x)\n", 0);
    expect_forward("        if torch.jit.is_scripting():\n            print(x)\n", 0);
    expect_forward("        if self.training:\n            print(x)\n", 0);
    expect_forward("        y = print(x) if not torch.compiler.is_compiling() else None\n", 0);
    expect_forward("        while torch.jit.is_tracing():\n            print(x)\n", 0);
    /* Outside regions. */
    AT_EXPECT("print('module')\n", "GM401", 0);
    AT_EXPECT("import torch.nn as nn\nclass M(nn.Module):\n    def __init__(self):\n"
              "        print('init')\n",
              "GM401", 0);
    AT_EXPECT("class P:\n    def forward(self, x):\n        print(x)\n", "GM401", 0);
    expect_forward("        f = lambda v: print(v)\n", 0);
    expect_forward("        def later():\n            print(x)\n", 0);
}

static void consequences(void) {
    struct {
        const char *body;
        const char *part; /* expected in the message, or NULL for none */
    } cases[] = {
        {"        print(x)\n", NULL},
        {"        for i in range(2):\n            print(i)\n", "inside a loop"},
        {"        while True:\n            print(x)\n", "inside a loop"},
        {"        try:\n            print(x)\n        finally:\n            pass\n", "try/with"},
        {"        try:\n            pass\n        except Exception:\n            print(x)\n",
         "try/with"},
        {"        with make_ctx() as fh:\n            print(x)\n", "try/with"},
        {"        with torch.no_grad():\n            print(x)\n", NULL},
        {"        with torch.set_grad_enabled(False), torch.inference_mode():\n"
         "            print(x)\n",
         NULL},
        {"        try:\n            for i in range(2):\n                print(i)\n"
         "        except Exception:\n            pass\n",
         "inside a loop"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char src[4096];
        snprintf(src, sizeof src, "%s%s", HEAD, cases[i].body);
        gm_finding_list l = at_analyze(src);
        const gm_finding *f = at_find(&l, "GM401", 0);
        CHECK(f != NULL);
        if (f) {
            CHECK(strncmp(f->message, "`print()` call: torch.compile", 29) == 0);
            if (cases[i].part) {
                CHECK(strstr(f->message, cases[i].part) != NULL);
            } else {
                CHECK(strstr(f->message, "loop") == NULL);
                CHECK(strstr(f->message, "try/with") == NULL);
            }
            CHECK_EQ_STR(f->rule->registry_id, "GB0059");
            CHECK_EQ_STR(f->rule->gb_type, "Failed to trace builtin operator");
        }
        gm_finding_list_free(&l);
    }
}

/* Applies the mend of the only GM401 in src and checks the result text, that it parses, and
 * that it has no GM401 left. */
static void expect_mend(const char *src, const char *expected) {
    gm_finding_list l = at_analyze(src);
    CHECK_EQ_INT(at_count(&l, "GM401"), 1);
    const gm_finding *f = at_find(&l, "GM401", 0);
    const gm_fix *mend = at_fix(f, GM_FIX_KIND_MEND);
    CHECK(mend != NULL);
    if (mend) {
        CHECK_EQ_INT(mend->applicability, GM_FIX_UNSAFE);
        CHECK_EQ_STR(
            mend->title,
            "Mend graph break: run print only in eager mode (skipped under torch.compile)");
        CHECK(f->fixes[0].kind == GM_FIX_KIND_MEND); /* mends first, suppression last */
        char *out = at_apply(src, mend);
        CHECK(out != NULL);
        if (out) {
            CHECK_EQ_STR(out, expected);
            CHECK(at_parses_cleanly(out));
            gm_finding_list again = at_analyze(out);
            CHECK_EQ_INT(at_count(&again, "GM401"), 0);
            CHECK_EQ_INT(again.count, 0);
            gm_finding_list_free(&again);
            free(out);
        }
    }
    gm_finding_list_free(&l);
}

static void expect_no_mend(const char *src) {
    gm_finding_list l = at_analyze(src);
    const gm_finding *f = at_find(&l, "GM401", 0);
    CHECK(f != NULL);
    CHECK(f && at_fix(f, GM_FIX_KIND_MEND) == NULL);
    CHECK(f && at_fix(f, GM_FIX_KIND_SUPPRESS) != NULL);
    gm_finding_list_free(&l);
}

static void mend(void) {
    expect_mend(HEAD "        y = x + 1\n        print(y)\n        return y\n",
                HEAD "        y = x + 1\n        if not torch.compiler.is_compiling():\n"
                     "            print(y)\n        return y\n");
    /* The file's alias for torch, a trailing comment, a multi-line call. */
    expect_mend(
        "import torch as th\n@th.compile\ndef f(x):\n    print(x)  # debug\n    return x\n",
        "import torch as th\n@th.compile\ndef f(x):\n"
        "    if not th.compiler.is_compiling():\n        print(x)  # debug\n    return x\n");
    expect_mend(
        "import torch\n@torch.compile\ndef f(x):\n    print(\n        x,\n    )\n",
        "import torch\n@torch.compile\ndef f(x):\n    if not torch.compiler.is_compiling():\n"
        "        print(\n        x,\n    )\n");
    /* Inside a loop body, with tabs. */
    expect_mend("import torch\n@torch.compile\ndef f(x):\n\tfor i in range(3):\n\t\tprint(i)\n",
                "import torch\n@torch.compile\ndef f(x):\n\tfor i in range(3):\n"
                "\t\tif not torch.compiler.is_compiling():\n\t\t\tprint(i)\n");
    /* `import torch.nn` binds torch too. */
    expect_mend("import torch.nn\nclass M(torch.nn.Module):\n    def forward(self, x):\n"
                "        print(x)\n",
                "import torch.nn\nclass M(torch.nn.Module):\n    def forward(self, x):\n"
                "        if not torch.compiler.is_compiling():\n            print(x)\n");
    /* No mend: not a whole statement alone on its line, or no torch import to name. */
    expect_no_mend(HEAD "        y = print(x)\n");
    expect_no_mend(HEAD "        y = 1; print(x)\n");
    expect_no_mend(HEAD "        print(x); y = 1\n");
    expect_no_mend(HEAD "        if x: print(x)\n");
    expect_no_mend("from torch import nn\nclass M(nn.Module):\n    def forward(self, x):\n"
                   "        print(x)\n");
}

int main(void) {
    detection();
    consequences();
    mend();
    return check_exit_code("analysis/rule_print_call");
}
