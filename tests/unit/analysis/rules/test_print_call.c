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
    /* A decorator's wrapper that a module's forward runs through: its `self` is the module,
     * so `self.training` folds too (eval by default); a print under it is dead. */
    AT_EXPECT("import torch\nimport torch.nn as nn\nfrom functools import wraps\n"
              "def capture(func):\n"
              "    @wraps(func)\n"
              "    def wrapper(self, *args, **kwargs):\n"
              "        if self.training:\n            print('training')\n"
              "        return func(self, *args, **kwargs)\n"
              "    return wrapper\n"
              "class M(nn.Module):\n"
              "    @capture\n"
              "    def forward(self, x):\n        return x\n",
              "GM401", 0);
    AT_EXPECT("import torch\nimport torch.nn as nn\nfrom functools import wraps\n"
              "def capture(func):\n"
              "    @wraps(func)\n"
              "    def wrapper(self, *args, **kwargs):\n"
              "        if not self.training:\n            print('eval')\n"
              "        return func(self, *args, **kwargs)\n"
              "    return wrapper\n"
              "class M(nn.Module):\n"
              "    @capture\n"
              "    def forward(self, x):\n        return x\n",
              "GM401", 1);
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
            /* the call as written, then why it breaks */
            CHECK(strncmp(f->message, "`print(", 7) == 0);
            CHECK(strstr(f->message, ")`: torch.compile cannot trace the builtin print") != NULL);
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

#define EAGER_ONLY "Mend graph break: run the call only in eager mode (skipped under torch.compile)"
#define DEFERRED                                                                                   \
    "Mend graph break: run the call after the graph (adds print to "                               \
    "torch._dynamo.config.reorderable_logging_functions, for the whole process)"

/* The mend of f titled title, or NULL. */
static const gm_fix *titled_mend(const gm_finding *f, const char *title) {
    for (size_t i = 0; f && i < f->fix_count; i++)
        if (f->fixes[i].kind == GM_FIX_KIND_MEND && strcmp(f->fixes[i].title, title) == 0)
            return &f->fixes[i];
    return NULL;
}

/* Applies the mend titled title of the only GM401 in src and checks the result text, that it
 * parses, and that it has no GM401 left. */
static void expect_mend(const char *src, const char *title, const char *expected) {
    gm_finding_list l = at_analyze(src);
    CHECK_EQ_INT(at_count(&l, "GM401"), 1);
    const gm_finding *f = at_find(&l, "GM401", 0);
    const gm_fix *mend = titled_mend(f, title);
    CHECK(mend != NULL);
    if (mend) {
        CHECK_EQ_INT(mend->applicability, GM_FIX_UNSAFE);
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

/* The print in src is offered the deferred mend first (adding the setting line after the
 * imports gives expected), then the eager-only guard. */
static void expect_deferred(const char *src, const char *expected) {
    gm_finding_list l = at_analyze(src);
    const gm_finding *f = at_find(&l, "GM401", 0);
    CHECK(f && f->fix_count >= 1 && strcmp(f->fixes[0].title, DEFERRED) == 0);
    gm_finding_list_free(&l);
    expect_mend(src, DEFERRED, expected);
}

/* The print in src has the eager-only guard but no deferred mend. */
static void expect_not_deferred(const char *src) {
    gm_finding_list l = at_analyze(src);
    const gm_finding *f = at_find(&l, "GM401", 0);
    CHECK(f != NULL);
    CHECK(titled_mend(f, DEFERRED) == NULL);
    CHECK(titled_mend(f, EAGER_ONLY) != NULL);
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
    expect_mend(HEAD "        y = x + 1\n        print(y.shape)\n        return y\n", EAGER_ONLY,
                HEAD "        y = x + 1\n        if not torch.compiler.is_compiling():\n"
                     "            print(y.shape)\n        return y\n");
    /* The file's alias for torch, a trailing comment, a multi-line call (its continuation
     * lines move in with it, string contents excepted). */
    expect_mend(
        "import torch as th\n@th.compile\ndef f(x):\n    print(x)  # debug\n    return x\n",
        EAGER_ONLY,
        "import torch as th\n@th.compile\ndef f(x):\n"
        "    if not th.compiler.is_compiling():\n        print(x)  # debug\n    return x\n");
    expect_mend(
        "import torch\n@torch.compile\ndef f(x):\n    print(\n        x,\n    )\n", EAGER_ONLY,
        "import torch\n@torch.compile\ndef f(x):\n    if not torch.compiler.is_compiling():\n"
        "        print(\n            x,\n        )\n");
    expect_mend("import torch\n@torch.compile\ndef f(x):\n    print(x, '''a\n  b''')\n", EAGER_ONLY,
                "import torch\n@torch.compile\ndef f(x):\n"
                "    if not torch.compiler.is_compiling():\n        print(x, '''a\n  b''')\n");
    /* Inside a loop body, with tabs. */
    expect_mend("import torch\n@torch.compile\ndef f(x):\n\tfor i in range(3):\n\t\tprint(i)\n",
                EAGER_ONLY,
                "import torch\n@torch.compile\ndef f(x):\n\tfor i in range(3):\n"
                "\t\tif not torch.compiler.is_compiling():\n\t\t\tprint(i)\n");
    /* `import torch.nn` binds torch too. */
    expect_mend("import torch.nn\nclass M(torch.nn.Module):\n    def forward(self, x):\n"
                "        print(x)\n",
                EAGER_ONLY,
                "import torch.nn\nclass M(torch.nn.Module):\n    def forward(self, x):\n"
                "        if not torch.compiler.is_compiling():\n            print(x)\n");
    /* Deferred: the setting line right after the imports (two blank lines before a definition
     * that follows at once), once; the call stays. */
    expect_deferred(HEAD "        y = x + 1\n        print('y', y)\n        return y\n",
                    "import torch\nimport torch.nn as nn\n"
                    "torch._dynamo.config.reorderable_logging_functions.add(print)\n\n"
                    "class M(nn.Module):\n    def forward(self, x):\n"
                    "        y = x + 1\n        print('y', y)\n        return y\n");
    expect_deferred("import torch as th\n@th.compile\ndef f(x):\n    y = print(x)\n    return x",
                    "import torch as th\n"
                    "th._dynamo.config.reorderable_logging_functions.add(print)\n\n\n"
                    "@th.compile\ndef f(x):\n    y = print(x)\n    return x");
    /* Two statements' calls: both mends insert the same line at the same place, after the
     * imports and a logger made after them; a statement between imports keeps it before itself */
    {
        const char *src = "import torch\nimport logging\nlog = logging.getLogger()\n\n"
                          "@torch.compile\ndef f(x):\n    print('f', x)\n    return x\n\n\n"
                          "@torch.compile\ndef g(x):\n    print('g', x)\n    return x\n";
        gm_finding_list l = at_analyze(src);
        const gm_finding *f = at_find(&l, "GM401", 0), *g = at_find(&l, "GM401", 1);
        const gm_fix *ff = titled_mend(f, DEFERRED), *gf = titled_mend(g, DEFERRED);
        CHECK(ff && gf && ff->edit_count == 1 && gf->edit_count == 1);
        if (ff && gf) {
            CHECK_EQ_INT(ff->edits[0].start_byte, strlen("import torch\nimport logging\n"));
            CHECK_EQ_INT(gf->edits[0].start_byte, ff->edits[0].start_byte);
            CHECK_EQ_STR(gf->edits[0].replacement, ff->edits[0].replacement);
        }
        gm_finding_list_free(&l);
    }
    /* Not deferrable (a torch.Size argument, a list), or already in the file's setting (then
     * dynamo defers it: no finding, or GB0296 when the arguments do not allow it). */
    expect_not_deferred(HEAD "        print(x.shape)\n");
    expect_not_deferred(HEAD "        print([x])\n");
    AT_EXPECT("import torch\ntorch._dynamo.config.reorderable_logging_functions.add(print)\n"
              "@torch.compile\ndef f(x):\n    print('x', x)\n    return x\n",
              "GM401", 0);
    AT_EXPECT("import torch\ntorch._dynamo.config.reorderable_logging_functions.add(print)\n"
              "@torch.compile\ndef f(x):\n    print('x', x.shape)\n    return x\n",
              "GM401", 1);
    /* No mend: not deferrable, and not a whole statement alone on its line, or no torch
     * import to name. */
    expect_no_mend(HEAD "        y = print(x.shape)\n");
    expect_no_mend(HEAD "        y = 1; print(x.shape)\n");
    expect_no_mend(HEAD "        print(x.shape); y = 1\n");
    expect_no_mend(HEAD "        if x: print(x.shape)\n");
    /* a file that does not import torch: the guard imports it after the module's imports,
     * unless the statement uses the name torch itself */
    gm_finding_list l = at_analyze("from torch import nn\nclass M(nn.Module):\n"
                                   "    def forward(self, x):\n        print(x)\n");
    const gm_finding *f = at_find(&l, "GM401", 0);
    const gm_fix *guard = f ? titled_mend(f, "Mend graph break: run the call only in eager mode "
                                             "(skipped under torch.compile; imports torch)")
                            : NULL;
    CHECK(guard != NULL && guard->edit_count == 2 && guard->edits[0].after_imports &&
          strncmp(guard->edits[0].replacement, "import torch\n", 13) == 0);
    gm_finding_list_free(&l);
    expect_no_mend("from torch import nn\nclass M(nn.Module):\n    def forward(self, x, torch=1):\n"
                   "        print(x)\n");
}

/* print reached through the builtins module: `builtins.print`, an alias of builtins, and
 * `from builtins import print [as p]`; not another builtin, not a rebound name. */
static void builtins_module(void) {
    const char *cases[][2] = {
        {"import builtins\n", "        builtins.print(x)\n"},
        {"import builtins as bi\n", "        bi.print(x)\n"},
        {"from builtins import print as p\n", "        p(x)\n"},
        {"from builtins import print\n", "        print(x)\n"},
    };
    char src[4096];
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(src, sizeof src, "%s" HEAD "%s", cases[i][0], cases[i][1]);
        AT_EXPECT(src, "GM401", 1);
    }
    const char *negatives[][2] = {
        {"import builtins\n", "        n = builtins.len(x.shape)\n"},
        {"import builtins\n", "        builtins = make()\n        builtins.print(x)\n"},
        {"from builtins import print as p\n", "        p = make()\n        p(x)\n"},
        {"from mylib import print as p\n", "        p(x)\n"},
        {"", "        builtins.print(x)\n"}, /* not imported: nothing known */
        {"from mylib import print\n", "        print(x)\n"},
    };
    for (size_t i = 0; i < sizeof negatives / sizeof negatives[0]; i++) {
        snprintf(src, sizeof src, "%s" HEAD "%s", negatives[i][0], negatives[i][1]);
        AT_EXPECT(src, "GM401", 0);
    }
}

/* Code after a statement that always leaves the function under torch.compile is dead: dynamo
 * never traces it. Leaving on some paths only (a parameter's test, a loop body, a try body)
 * leaves the code after it live. */
static void dead_code(void) {
    expect_forward("        if torch.compiler.is_compiling():\n            return x\n"
                   "        print(x)\n",
                   0);
    expect_forward("        if helper(x) or torch.compiler.is_compiling():\n            return x\n"
                   "        print(x)\n",
                   0);
    expect_forward(
        "        if torch._dynamo.is_compiling():\n            raise RuntimeError('no')\n"
        "        print(x)\n",
        0);
    expect_forward("        if torch.compiler.is_compiling():\n            if x.dim() == 2:\n"
                   "                return x\n            return x + 1\n        print(x)\n",
                   0);
    expect_forward("        return x\n        print(x)\n", 0);
    /* a with block leaves by a return for certain, and a torch context manager lets a raise
     * through; another context manager may swallow the raise */
    expect_forward("        with torch.no_grad():\n            return x\n        print(x)\n", 0);
    expect_forward("        with torch.no_grad():\n            raise ValueError('x')\n"
                   "        print(x)\n",
                   0);
    expect_forward("        with contextlib.suppress(ValueError):\n"
                   "            raise ValueError('x')\n        print(x)\n",
                   1);
    /* the print before the return is live; only the one after it is dead */
    expect_forward("        print(x)\n        if torch.compiler.is_compiling():\n"
                   "            return x\n        print(x)\n",
                   1);
    /* Leaving on some paths only (flag and other are parameters). */
    const char *head = "import torch\nimport torch.nn as nn\nclass M(nn.Module):\n"
                       "    def forward(self, x, flag, other):\n";
    struct {
        const char *body;
        size_t n;
    } live[] = {
        {"        if flag:\n            return x\n        print(x)\n", 1},
        {"        if torch.compiler.is_compiling() and flag:\n            return x\n"
         "        print(x)\n",
         1},
        {"        if x.dim() == 2:\n            return x\n        else:\n            print(x)\n"
         "        print(x)\n",
         2},
        {"        if flag:\n            return x\n        elif other:\n            return x + 1\n"
         "        print(x)\n",
         1},
        {"        for v in other:\n            return v\n        print(x)\n", 1}, /* may be empty */
        {"        for v in x:\n            if flag:\n                break\n        print(x)\n", 1},
        /* the handler resumes after a raise before the return */
        {"        try:\n            y = flag(x)\n            return y\n"
         "        except Exception:\n            pass\n        print(x)\n",
         1},
    };
    char src[4096];
    for (size_t i = 0; i < sizeof live / sizeof live[0]; i++) {
        snprintf(src, sizeof src, "%s%s", head, live[i].body);
        AT_EXPECT(src, "GM401", live[i].n);
    }
    /* a nested function's return does not end the region */
    expect_forward("        def inner():\n            return 1\n        print(x)\n", 1);
}

int main(void) {
    builtins_module();
    detection();
    consequences();
    mend();
    dead_code();
    return check_exit_code("analysis/rules/print_call");
}
