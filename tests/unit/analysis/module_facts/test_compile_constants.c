/* Functions whose every return folds to a compile-time constant (compile_constants.h), as the
 * summary records them, and the facts the workspace graph gives the modules that import them. */
#include "check.h"

#include "analysis/module_facts/compile_constants.h"
#include "analysis/module_facts/module_summary.h"
#include "analysis/module_facts/workspace_graph.h"
#include "analysis_test.h"
#include "summary_test.h"


/* The returns_constant the summary records for the function named name of src. */
static int folds(const char *src, const char *name) {
    gm_module_summary s = st_summarise(src);
    const gm_summary_node *n = gm_module_summary_find(&s, name);
    int v = n ? n->returns_constant : -9;
    gm_module_summary_free(&s);
    return v;
}

static void torch_names(void) {
    CHECK_EQ_INT(gm_torch_compile_constant("torch.compiler.is_compiling"), 1);
    CHECK_EQ_INT(gm_torch_compile_constant("torch.jit.is_scripting"), 0);
    CHECK_EQ_INT(gm_torch_compile_constant("transformers.utils.is_torchdynamo_compiling"), 1);
    CHECK_EQ_INT(gm_torch_compile_constant("torch.is_tensor"), -1);
}

static void function_returns(void) {
    /* transformers' is_tracing: a local or-ed with other tests, kept True by |= */
    CHECK_EQ_INT(folds("import torch\n"
                       "def is_tracing(tensor=None):\n"
                       "    t = torch.compiler.is_compiling() or torch.jit.is_tracing()\n"
                       "    if tensor is not None:\n"
                       "        t |= is_proxy(tensor)\n"
                       "    return t\n",
                       "is_tracing"),
                 1);
    /* the eager fallback of an except handler does not count */
    CHECK_EQ_INT(folds("def compiling():\n"
                       "    try:\n"
                       "        import torch\n"
                       "        return torch.compiler.is_compiling()\n"
                       "    except Exception:\n"
                       "        return False\n",
                       "compiling"),
                 1);
    CHECK_EQ_INT(folds("import torch\ndef eager():\n    return not torch.compiler.is_compiling()\n",
                       "eager"),
                 0);
    /* each path returns the same constant */
    CHECK_EQ_INT(folds("import torch\ndef f(x):\n    if x:\n        return True\n"
                       "    else:\n        return torch._dynamo.is_compiling()\n",
                       "f"),
                 1);
    /* not constant: a parameter, a disagreement, falling off the end, a generator, async, a
     * decorator, a local bound another way, &= on True, a method */
    CHECK_EQ_INT(folds("def f(x):\n    return x\n", "f"), -1);
    CHECK_EQ_INT(folds("def f(x):\n    if x:\n        return True\n    return False\n", "f"), -1);
    CHECK_EQ_INT(folds("import torch\ndef f(x):\n    if x:\n"
                       "        return torch.compiler.is_compiling()\n",
                       "f"),
                 -1);
    CHECK_EQ_INT(folds("def f():\n    yield True\n    return True\n", "f"), -1);
    CHECK_EQ_INT(folds("async def f():\n    return True\n", "f"), -1);
    CHECK_EQ_INT(folds("import functools\n@functools.cache\ndef f():\n    return True\n", "f"),
                 -1);
    CHECK_EQ_INT(folds("def f(xs):\n    t = True\n    for t in xs:\n        pass\n    return t\n",
                       "f"),
                 -1);
    CHECK_EQ_INT(folds("def f(x):\n    t = True\n    t &= x\n    return t\n", "f"), -1);
    CHECK_EQ_INT(folds("class C:\n    def f(self):\n        return True\n", "C.f"), -1);
    /* a parameter that shadows the torch import is not torch */
    CHECK_EQ_INT(folds("import torch\ndef f(torch):\n    return torch.compiler.is_compiling()\n",
                       "f"),
                 -1);
}


/* Feature tests for the torch assumed here (it has torch.compiler.is_compiling) and the
 * aliases and forms libraries wrap it in: timm's hasattr chain, kornia's getattr alias. */
static void feature_tests(void) {
    /* timm: the first test holds, so the fallbacks after it never run */
    CHECK_EQ_INT(folds("import torch\n"
                       "def _is_compiling() -> bool:\n"
                       "    if hasattr(torch, 'compiler') and hasattr(torch.compiler, 'is_compiling'):\n"
                       "        return torch.compiler.is_compiling()\n"
                       "    if hasattr(torch, '_dynamo') and hasattr(torch._dynamo, 'is_compiling'):\n"
                       "        return torch._dynamo.is_compiling()\n"
                       "    return False\n",
                       "_is_compiling"),
                 1);
    /* kornia: a module-level getattr alias, `is not None`, a conditional expression, bool() and
     * torch.jit.unused, which hands back the function */
    CHECK_EQ_INT(folds("import torch\n"
                       "_compiling = getattr(torch.compiler, 'is_compiling', None) or "
                       "getattr(torch._dynamo, 'is_compiling', None)\n"
                       "@torch.jit.unused\n"
                       "def is_compiling() -> bool:\n"
                       "    return bool(_compiling()) if _compiling is not None else False\n",
                       "is_compiling"),
                 1);
    CHECK_EQ_INT(folds("import torch\n_c = torch.compiler.is_compiling\n"
                       "def f():\n    return not _c()\n",
                       "f"),
                 0);
    /* an else taken for certain */
    CHECK_EQ_INT(folds("import torch\ndef f():\n    if not hasattr(torch, 'compiler'):\n"
                       "        return False\n    else:\n"
                       "        return torch.compiler.is_compiling()\n",
                       "f"),
                 1);
    /* not constant: an attribute torch is not known to have; a test that does not fold; an
     * alias of something else; a parameter spelled like the alias; another decorator */
    CHECK_EQ_INT(folds("import torch\ndef f():\n    if hasattr(torch, 'npu'):\n"
                       "        return torch.compiler.is_compiling()\n    return False\n",
                       "f"),
                 -1);
    CHECK_EQ_INT(folds("import torch\ndef f(x):\n    if hasattr(x, 'compiler'):\n"
                       "        return torch.compiler.is_compiling()\n    return False\n",
                       "f"),
                 -1);
    CHECK_EQ_INT(folds("import torch\n_c = getattr(torch, 'is_tensor', None)\n"
                       "def f():\n    return bool(_c()) if _c is not None else False\n",
                       "f"),
                 -1);
    CHECK_EQ_INT(folds("import torch\n_c = torch.compiler.is_compiling\n"
                       "def f(_c):\n    return _c is not None\n",
                       "f"),
                 -1);
    CHECK_EQ_INT(folds("import torch, functools\n@functools.lru_cache\n"
                       "def f():\n    return torch.compiler.is_compiling()\n",
                       "f"),
                 -1);
}

/* How many GM101 findings src has given the facts. */
static size_t branches_with_facts(const char *src, const char *const *facts, size_t count) {
    gm_analysis_options o;
    gm_analysis_options_default(&o);
    gm_finding_list list;
    gm_finding_list_init(&list);
    CHECK_EQ_INT(gm_analyze_source_with_roots(src, strlen(src), &o, facts, count, &list), 0);
    size_t n = at_count(&list, "GM101");
    gm_finding_list_free(&list);
    return n;
}

static void across_modules(void) {
    gm_workspace_graph *g = gm_workspace_graph_new();
    CHECK(g != NULL);
    st_add(g, "/p", "pkg", true, "from .utils import is_tracing\n");
    st_add(g, "/p", "pkg.utils", true, "from .import_utils import is_tracing, is_proxy\n");
    st_add(g, "/p", "pkg.utils.import_utils", false,
        "import torch\n"
        "def is_compiling():\n    return torch.compiler.is_compiling()\n"
        "def is_proxy(x):\n    return isinstance(x, torch.fx.Proxy)\n"
        "def is_tracing(x=None):\n    return torch.compiler.is_compiling() or is_proxy(x)\n");
    st_add(g, "/p", "pkg.masks", false,
        "from .utils import is_tracing, is_proxy\n"
        "from .utils import import_utils as iu\n");
    CHECK_EQ_INT(gm_workspace_graph_solve(g), 0);
    /* through the package's re-export, as the import spells it */
    CHECK(st_has_fact(g, "/p", "pkg.masks", ".utils.is_tracing=1"));
    CHECK(!st_has_fact(g, "/p", "pkg.masks", ".utils.is_proxy=1"));
    CHECK(!st_has_fact(g, "/p", "pkg.masks", ".utils.is_proxy=0"));
    /* a module imported whole: each of its constant functions */
    CHECK(st_has_fact(g, "/p", "pkg.masks", ".utils.import_utils.is_compiling=1"));
    CHECK(st_has_fact(g, "/p", "pkg.masks", ".utils.import_utils.is_tracing=1"));
    gm_workspace_graph_free(g);

    /* The analysis folds a call of such a function: the tensor test behind it is never read. */
    const char *src = "import torch\n"
                      "from .utils import is_tracing\n"
                      "class M(torch.nn.Module):\n"
                      "    def forward(self, x, mask):\n"
                      "        if not is_tracing(mask) and torch.all(mask == 1):\n"
                      "            mask = None\n"
                      "        return x\n";
    const char *facts[] = {".utils.is_tracing=1"};
    CHECK_EQ_INT(branches_with_facts(src, NULL, 0), 1);
    CHECK_EQ_INT(branches_with_facts(src, facts, 1), 0);
    /* and in the same module, without any facts */
    CHECK_EQ_INT(branches_with_facts("import torch\n"
                                     "def is_tracing(x):\n"
                                     "    return torch.compiler.is_compiling()\n"
                                     "class M(torch.nn.Module):\n"
                                     "    def forward(self, x, mask):\n"
                                     "        if not is_tracing(mask) and torch.all(mask == 1):\n"
                                     "            mask = None\n"
                                     "        return x\n",
                                     NULL, 0),
                 0);
}

int main(void) {
    torch_names();
    function_returns();
    feature_tests();
    across_modules();
    return check_exit_code("analysis/module_facts/compile_constants");
}
