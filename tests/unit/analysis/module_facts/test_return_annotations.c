/* What return annotations declare (return_annotations.h): the kinds the summary records per
 * function, their spelling in facts, the facts the workspace graph gives the modules that import
 * such functions, and the analysis of a caller with and without those facts. */
#include "check.h"

#include "analysis/module_facts/module_summary.h"
#include "analysis/module_facts/return_annotations.h"
#include "analysis/module_facts/workspace_graph.h"
#include "analysis_test.h"
#include "summary_test.h"


/* "arity:tensors" of the first node named name of src, "none" when it declares no tensor, or
 * "missing". */
static const char *declared(const char *src, const char *name, char *out, size_t cap) {
    gm_module_summary s = st_summarise(src);
    const gm_summary_node *n = gm_module_summary_find(&s, name);
    if (!n)
        snprintf(out, cap, "missing");
    else if (!n->returns.tensors)
        snprintf(out, cap, "none");
    else
        gm_return_kinds_format(n->returns, out, cap);
    gm_module_summary_free(&s);
    return out;
}

#define CHECK_DECLARED(src, name, want)                                                            \
    do {                                                                                           \
        char got_[32];                                                                             \
        CHECK_EQ_STR(declared(src, name, got_, sizeof got_), want);                                \
    } while (0)

static void annotations(void) {
    CHECK_DECLARED("import torch\ndef f(x) -> torch.Tensor:\n    return x\n", "f", "0:1");
    CHECK_DECLARED("from torch import Tensor\ndef f(x) -> Tensor:\n    return x\n", "f", "0:1");
    CHECK_DECLARED("import torch\ndef f(x) -> torch.LongTensor:\n    return x\n", "f", "0:1");
    CHECK_DECLARED("from typing import Tuple\nfrom torch import Tensor\n"
                   "def f(x) -> Tuple[Tensor, Tensor]:\n    return x, x\n",
                   "f", "2:3");
    /* an Optional element, and one that is no tensor, are not counted */
    CHECK_DECLARED("from typing import Optional\nfrom torch import Tensor\n"
                   "def f(x) -> tuple[Tensor, Optional[Tensor], int]:\n    return x, None, 1\n",
                   "f", "3:1");
    CHECK_DECLARED("import typing\nfrom torch import Tensor\n"
                   "def f(x) -> typing.Tuple[int, Tensor]:\n    return 1, x\n",
                   "f", "2:2");
    /* not declared tensors: None may come back, a variable-length tuple, no tensor, a name that
     * is not torch's, no annotation, a method, a decorated function */
    CHECK_DECLARED("from typing import Optional\nfrom torch import Tensor\n"
                   "def f(x) -> Optional[Tensor]:\n    return None\n",
                   "f", "none");
    CHECK_DECLARED("from torch import Tensor\ndef f(x) -> Tensor | None:\n    return None\n", "f",
                   "none");
    CHECK_DECLARED("from typing import Tuple\nfrom torch import Tensor\n"
                   "def f(x) -> Tuple[Tensor, ...]:\n    return (x,)\n",
                   "f", "none");
    CHECK_DECLARED("def f(x) -> bool:\n    return True\n", "f", "none");
    CHECK_DECLARED("from mylib import Tensor\ndef f(x) -> Tensor:\n    return x\n", "f", "none");
    CHECK_DECLARED("def f(x):\n    return x\n", "f", "none");
    CHECK_DECLARED("import torch\nclass C:\n    def f(self) -> torch.Tensor:\n        return 1\n",
                   "C.f", "none");
    CHECK_DECLARED("import functools, torch\n@functools.cache\ndef f() -> torch.Tensor:\n"
                   "    return torch.ones(1)\n",
                   "f", "none");
}

static void spelling(void) {
    gm_return_kinds k;
    char buf[16];
    gm_return_kinds_format((gm_return_kinds){2, 3}, buf, sizeof buf);
    CHECK_EQ_STR(buf, "2:3");
    CHECK(gm_return_kinds_parse("2:3", &k) && k.arity == 2 && k.tensors == 3);
    CHECK(gm_return_kinds_parse("0:1", &k) && k.arity == 0 && k.tensors == 1);
    /* malformed: nothing declared, a bit past the tuple, a one-value mask other than 1, too many
     * elements, junk */
    CHECK(!gm_return_kinds_parse("2:0", &k));
    CHECK(!gm_return_kinds_parse("2:4", &k));
    CHECK(!gm_return_kinds_parse("0:2", &k));
    CHECK(!gm_return_kinds_parse("9:1", &k));
    CHECK(!gm_return_kinds_parse("2:3x", &k));
    CHECK(!gm_return_kinds_parse(":3", &k));
    CHECK(!gm_return_kinds_parse("", &k));
}


static size_t count_with_facts(const char *src, const char *rule, const char *const *facts,
                               size_t count) {
    gm_analysis_options o;
    gm_analysis_options_default(&o);
    gm_finding_list list;
    gm_finding_list_init(&list);
    CHECK_EQ_INT(gm_analyze_source_with_roots(src, strlen(src), &o, facts, count, &list), 0);
    size_t n = at_count(&list, rule);
    gm_finding_list_free(&list);
    return n;
}

static void across_modules(void) {
    gm_workspace_graph *g = gm_workspace_graph_new();
    CHECK(g != NULL);
    st_add(g, "/p", "pkg", true, "");
    st_add(g, "/p", "pkg.utils", true, "from .sparse import to_edge_index, degree, twice\n");
    st_add(g, "/p", "pkg.utils.sparse", false,
        "from typing import Tuple, overload\n"
        "from torch import Tensor\n"
        "@overload\n"
        "def to_edge_index(adj: Tensor) -> Tuple[Tensor, None]: ...\n"
        "def to_edge_index(adj) -> Tuple[Tensor, Tensor]:\n    return adj, adj\n"
        "def degree(i, n) -> Tensor:\n    return i\n"
        "def twice(x) -> Tensor:\n    return x\n"
        "def twice(x) -> Tuple[Tensor, Tensor]:\n    return x, x\n"
        "def flag(x) -> bool:\n    return True\n");
    st_add(g, "/p", "pkg.conv", false,
        "from .utils import to_edge_index, degree, twice\n"
        "from .utils import sparse\n");
    CHECK_EQ_INT(gm_workspace_graph_solve(g), 0);
    /* through the package's re-export, as the import spells it; the @overload stub aside */
    CHECK(st_has_fact(g, "/p", "pkg.conv", "returns:.utils.to_edge_index:2:3"));
    CHECK(st_has_fact(g, "/p", "pkg.conv", "returns:.utils.degree:0:1"));
    /* two definitions that disagree say nothing */
    CHECK(!st_has_fact(g, "/p", "pkg.conv", "returns:.utils.twice:0:1"));
    CHECK(!st_has_fact(g, "/p", "pkg.conv", "returns:.utils.twice:2:3"));
    /* a module imported whole: each of its functions that declares tensors */
    CHECK(st_has_fact(g, "/p", "pkg.conv", "returns:.utils.sparse.degree:0:1"));
    CHECK(st_has_fact(g, "/p", "pkg.conv", "returns:.utils.sparse.to_edge_index:2:3"));
    CHECK(!st_has_fact(g, "/p", "pkg.conv", "returns:.utils.sparse.flag:0:1"));
    gm_workspace_graph_free(g);

    /* The caller's analysis: with the facts, the unpacked values are tensors and a mask of
     * them is read; a malformed fact is ignored. */
    const char *src = "import torch\n"
                      "from .utils import to_edge_index\n"
                      "class M(torch.nn.Module):\n"
                      "    def forward(self, adj):\n"
                      "        edge_index, value = to_edge_index(adj)\n"
                      "        loop = edge_index[0] == edge_index[1]\n"
                      "        value[loop] -= 1\n"
                      "        return value\n";
    const char *facts[] = {"returns:.utils.to_edge_index:2:3"};
    const char *element[] = {"returns:.utils.to_edge_index:2:2"};
    const char *malformed[] = {"returns:.utils.to_edge_index:2:9"};
    CHECK_EQ_INT(count_with_facts(src, "GM301", NULL, 0), 0);
    CHECK_EQ_INT(count_with_facts(src, "GM301", facts, 1), 1);
    CHECK_EQ_INT(count_with_facts(src, "GM301", element, 1), 0); /* edge_index not a tensor */
    CHECK_EQ_INT(count_with_facts(src, "GM301", malformed, 1), 0);
    /* one value, in the same module, without any facts */
    CHECK_EQ_INT(count_with_facts("import torch\n"
                                  "def degree(i) -> torch.Tensor:\n"
                                  "    return i\n"
                                  "class M(torch.nn.Module):\n"
                                  "    def forward(self, x, i):\n"
                                  "        d = degree(i)\n"
                                  "        if d[0] > 1:\n"
                                  "            x = x + 1\n"
                                  "        return x\n",
                                  "GM101", NULL, 0),
                 1);
}

int main(void) {
    annotations();
    spelling();
    across_modules();
    return check_exit_code("analysis/module_facts/return_annotations");
}
