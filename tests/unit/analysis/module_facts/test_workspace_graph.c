/* Compile targets within a file and compiled code across modules: module summaries, the
 * workspace graph's resolution of absolute, relative and re-exported imports, and the external
 * roots it gives each module's analysis. */
#include "check.h"

#include "analysis/module_facts/module_summary.h"
#include "analysis/module_facts/workspace_graph.h"
#include "analysis_test.h"
#include "summary_test.h"

/* How many GM401 (print) findings src has with external roots keys. */
static size_t prints_with_roots(const char *src, const char *const *keys, size_t count) {
    gm_analysis_options o;
    gm_analysis_options_default(&o);
    gm_finding_list list;
    gm_finding_list_init(&list);
    CHECK_EQ_INT(gm_analyze_source_with_roots(src, strlen(src), &o, keys, count, &list), 0);
    size_t n = at_count(&list, "GM401");
    gm_finding_list_free(&list);
    return n;
}

static void compile_targets_in_the_file(void) {
    /* torch.compile(f) makes f a region; g stays plain. */
    CHECK_EQ_INT(prints_with_roots("import torch\n"
                                   "def f(x):\n    print(x)\n    return x\n"
                                   "def g(x):\n    print(x)\n"
                                   "ff = torch.compile(f)\n",
                                   NULL, 0),
                 1);
    /* through an alias, inside a function, with arguments */
    CHECK_EQ_INT(prints_with_roots("from torch import compile as c\n"
                                   "def f(x):\n    print(x)\n"
                                   "def build():\n    return c(f, mode='max-autotune')\n",
                                   NULL, 0),
                 1);
    /* torch._dynamo.optimize(...)(f) */
    CHECK_EQ_INT(prints_with_roots("import torch._dynamo\n"
                                   "def f(x):\n    print(x)\n"
                                   "ff = torch._dynamo.optimize('eager')(f)\n",
                                   NULL, 0),
                 1);
    /* torch.compile(obj.method): the method of obj's class, with what it calls on self */
    CHECK_EQ_INT(prints_with_roots("import torch\n"
                                   "class Tool:\n"
                                   "    def run(self, x):\n        return self.helper(x)\n"
                                   "    def helper(self, x):\n        print(x)\n"
                                   "    def other(self, x):\n        print(x)\n"
                                   "tool = Tool()\n"
                                   "fast = torch.compile(tool.run)\n",
                                   NULL, 0),
                 1);
    /* re.compile and a plain .compile() of something that is no instance: nothing */
    CHECK_EQ_INT(prints_with_roots("import re\n"
                                   "def f(x):\n    print(x)\n"
                                   "pattern = re.compile('f')\n"
                                   "f.compile()\n",
                                   NULL, 0),
                 0);
    /* An external root makes the function a region, and what it calls too. */
    const char *keys[] = {"entry"};
    const char *src = "def entry(x):\n    return inner(x)\n"
                      "def inner(x):\n    print(x)\n"
                      "def other(x):\n    print(x)\n";
    CHECK_EQ_INT(prints_with_roots(src, NULL, 0), 0);
    CHECK_EQ_INT(prints_with_roots(src, keys, 1), 1);
}

static void fullgraph_regions(void) {
    gm_analysis_options o;
    gm_analysis_options_default(&o);
    /* Region sites know fullgraph: only through the summary's view here, via the reach flags. A
     * function compiled with fullgraph=True and also called from plain compiled code splits. */
    const char *src = "import torch\n"
                      "@torch.compile(fullgraph=True)\n"
                      "def strict(x):\n    return helper(x)\n"
                      "def helper(x):\n    print(x)\n";
    gm_finding_list list = at_analyze_with(src, &o);
    CHECK_EQ_INT(at_count(&list, "GM401"), 1);
    gm_finding_list_free(&list);
}


static void summaries(void) {
    gm_module_summary s = st_summarise("import torch\n"
                                    "from .helpers import norm\n"
                                    "import pkg.util as util\n"
                                    "class Net(torch.nn.Module):\n"
                                    "    def forward(self, x):\n"
                                    "        return util.scale(norm(self.prep(x)))\n"
                                    "    def prep(self, x):\n        return x\n"
                                    "def plain(x):\n    return x\n");
    CHECK_EQ_INT(s.node_count, 3);
    const gm_summary_node *forward = gm_module_summary_find(&s, "Net.forward");
    CHECK(forward && forward->root);
    CHECK(!gm_module_summary_find(&s, "plain")->root);
    if (forward) {
        CHECK_EQ_INT(forward->callee_count, 1);
        CHECK_EQ_STR(s.callees[forward->callee_start], "Net.prep");
        CHECK_EQ_INT(forward->external_count, 2);
        /* order of the calls as collected: util.scale(...) encloses norm(...) */
        bool has_norm = false, has_scale = false;
        for (uint32_t e = 0; e < forward->external_count; e++) {
            has_norm |= strcmp(s.externals[forward->external_start + e], ".helpers.norm") == 0;
            has_scale |= strcmp(s.externals[forward->external_start + e], "pkg.util.scale") == 0;
        }
        CHECK(has_norm && has_scale);
    }
    uint64_t digest = s.digest;
    gm_module_summary_free(&s);
    gm_module_summary same = st_summarise("import torch\n"
                                       "from .helpers import norm\n"
                                       "import pkg.util as util\n"
                                       "class Net(torch.nn.Module):\n"
                                       "    def forward(self, x):\n"
                                       "        return util.scale(norm(self.prep(x)))\n"
                                       "    def prep(self, x):\n        return x  # comment\n"
                                       "def plain(x):\n    return x\n");
    CHECK(same.digest == digest);
    gm_module_summary_free(&same);
}


static size_t root_count(gm_workspace_graph *g, const char *root, const char *name) {
    size_t count;
    uint64_t digest;
    gm_workspace_graph_roots(g, root, name, &count, &digest);
    return count;
}

static void workspace_resolution(void) {
    gm_workspace_graph *g = gm_workspace_graph_new();
    CHECK(g != NULL);
    st_add(g, "/p", "pkg", true, "from .helpers import norm\n");
    st_add(g, "/p", "pkg.helpers", false,
        "def norm(x):\n    return scale(x)\n"
        "def scale(x):\n    return x\n"
        "def unused(x):\n    return x\n"
        "def chained(x):\n    return x\n");
    st_add(g, "/p", "pkg.layers", true, "");
    st_add(g, "/p", "pkg.layers.attn", false,
        "import torch\n"
        "from pkg import norm\n"
        "from .. import helpers\n"
        "from ..util import step\n"
        "class Attn(torch.nn.Module):\n"
        "    def forward(self, x):\n"
        "        return helpers.chained(norm(x))\n");
    st_add(g, "/p", "pkg.util", false,
        "def step(x):\n    return x\n"
        "def later(x):\n    return x\n");
    st_add(g, "/p", "train", false,
        "import torch\n"
        "from pkg.util import later\n"
        "fast = torch.compile(later)\n");
    CHECK_EQ_INT(gm_workspace_graph_solve(g), 0);
    /* re-exported through pkg/__init__.py; scale is reached inside helpers by its own analysis */
    CHECK(st_has_fact(g, "/p", "pkg.helpers", "norm"));
    CHECK(st_has_fact(g, "/p", "pkg.helpers", "chained"));
    CHECK(!st_has_fact(g, "/p", "pkg.helpers", "unused"));
    CHECK(!st_has_fact(g, "/p", "pkg.helpers", "scale"));
    CHECK_EQ_INT(root_count(g, "/p", "pkg.helpers"), 2);
    /* imported but not called from compiled code: step; compiled from train.py: later */
    CHECK(!st_has_fact(g, "/p", "pkg.util", "step"));
    CHECK(st_has_fact(g, "/p", "pkg.util", "later"));
    /* A module's own roots are not external roots. */
    CHECK_EQ_INT(root_count(g, "/p", "pkg.layers.attn"), 0);

    /* Replacing a summary by an equal one changes nothing; a different one does. */
    gm_module_summary same = st_summarise("import torch\n"
                                       "from pkg.util import later\n"
                                       "fast = torch.compile(later)\n");
    CHECK_EQ_INT(gm_workspace_graph_set(g, "/p", "train", false, &same), 0);
    gm_module_summary none = st_summarise("import torch\nfrom pkg.util import later\n");
    CHECK_EQ_INT(gm_workspace_graph_set(g, "/p", "train", false, &none), 1);
    CHECK_EQ_INT(gm_workspace_graph_solve(g), 0);
    CHECK(!st_has_fact(g, "/p", "pkg.util", "later"));

    /* Scripts in two directories with a module of the same name: each sees its own. */
    st_add(g, "/a", "utils", false, "def helper(x):\n    return x\n");
    st_add(g, "/b", "utils", false, "def helper(x):\n    return x\n");
    st_add(g, "/b", "main", false,
        "import torch\nfrom utils import helper\n"
        "@torch.compile\ndef run(x):\n    return helper(x)\n");
    CHECK_EQ_INT(gm_workspace_graph_solve(g), 0);
    CHECK(st_has_fact(g, "/b", "utils", "helper"));
    CHECK(!st_has_fact(g, "/a", "utils", "helper"));
    gm_workspace_graph_remove(g, "/b", "main");
    CHECK_EQ_INT(gm_workspace_graph_solve(g), 0);
    CHECK(!st_has_fact(g, "/b", "utils", "helper"));
    gm_workspace_graph_free(g);
}

/* `from .x import *`: the public names of x are bound in the importing module, so calls of them
 * are followed from compiled code, `from pkg import f` resolves through a package `__init__`
 * that star-imports, what their annotations declare reaches the caller spelled as it calls
 * them, and a cycle of star imports ends. */
static void star_imports(void) {
    gm_workspace_graph *g = gm_workspace_graph_new();
    CHECK(g != NULL);
    st_add(g, "/s", "kit", true, "from .ops import *\nfrom .loop_a import *\n");
    st_add(g, "/s", "kit.ops", false,
        "import torch\n"
        "def window(x) -> torch.Tensor:\n    return x\n"
        "def overlap(x):\n    return x\n"
        "def _private(x):\n    return x\n"
        "def exported(x):\n    return x\n");
    st_add(g, "/s", "kit.loop_a", false, "from .loop_b import *\ndef in_a(x):\n    return x\n");
    st_add(g, "/s", "kit.loop_b", false, "from .loop_a import *\ndef in_b(x):\n    return x\n");
    st_add(g, "/s", "kit.inverse", false,
        "import torch\n"
        "from .ops import *\n"
        "class Inverse(torch.nn.Module):\n"
        "    def forward(self, x):\n"
        "        return overlap(window(x)) + _private(x)\n");
    st_add(g, "/s", "main", false,
        "import torch\n"
        "from kit import exported, in_b\n"
        "@torch.compile\ndef run(x):\n    return exported(in_b(x))\n");
    CHECK_EQ_INT(gm_workspace_graph_solve(g), 0);
    CHECK(st_has_fact(g, "/s", "kit.ops", "overlap"));
    CHECK(st_has_fact(g, "/s", "kit.ops", "window"));
    CHECK(!st_has_fact(g, "/s", "kit.ops", "_private")); /* not bound by the star import */
    CHECK(st_has_fact(g, "/s", "kit.ops", "exported"));  /* through kit/__init__.py */
    CHECK(st_has_fact(g, "/s", "kit.loop_b", "in_b"));   /* through the cycle */
    CHECK(st_has_fact(g, "/s", "kit.inverse", "returns:window:0:1"));
    CHECK(!st_has_fact(g, "/s", "kit.inverse", "returns:overlap:0:1"));
    gm_workspace_graph_free(g);
}

/* `self.m()` where a base class of another module (or its own base) defines m; decorators of
 * other modules that return a nested wrapper. */
static void inherited_methods_and_decorators(void) {
    gm_workspace_graph *g = gm_workspace_graph_new();
    CHECK(g != NULL);
    st_add(g, "/p", "lib", true, "from .base import PreTrainedModel\n");
    st_add(g, "/p", "lib.base", false,
        "import warnings\n"
        "from torch import nn\n"
        "class Mixin:\n"
        "    def mask(self, m):\n        return self.deep(m)\n"
        "    def deep(self, m):\n        return m\n"
        "    def unused(self, m):\n        return m\n"
        "class PreTrainedModel(nn.Module, Mixin):\n"
        "    def own(self, x):\n        return x\n");
    st_add(g, "/p", "lib.rope", false,
        "import functools\n"
        "def update(fn):\n"
        "    def helper(self, p):\n        return p\n"
        "    @functools.wraps(fn)\n"
        "    def wrapper(self, x, p):\n"
        "        helper(self, p)\n"
        "        return fn(self, x, p)\n"
        "    return wrapper\n"
        "def same(fn):\n"
        "    def inner(x):\n        return x\n"
        "    fn.inner = inner\n"
        "    return fn\n");
    st_add(g, "/p", "model", false,
        "from lib import PreTrainedModel\n"
        "from lib.rope import update, same\n"
        "class Mid(PreTrainedModel):\n"
        "    pass\n"
        "class Net(Mid):\n"
        "    @update\n"
        "    @same\n"
        "    def forward(self, x, p):\n"
        "        return self.own(self.mask(x))\n");
    CHECK_EQ_INT(gm_workspace_graph_solve(g), 0);
    CHECK(st_has_fact(g, "/p", "lib.base", "Mixin.mask"));
    CHECK(st_has_fact(g, "/p", "lib.base", "PreTrainedModel.own"));
    CHECK(!st_has_fact(g, "/p", "lib.base", "Mixin.unused"));
    CHECK(!st_has_fact(g, "/p", "lib.base", "Mixin.deep")); /* reached by its own analysis */
    CHECK(st_has_fact(g, "/p", "lib.rope", "update.<return>"));
    CHECK_EQ_INT(root_count(g, "/p", "lib.rope"), 1);
    /* the summary covers the bases: changing one changes the digest */
    gm_module_summary a = st_summarise("class A(B):\n    pass\nclass B:\n    pass\n");
    gm_module_summary b = st_summarise("class A:\n    pass\nclass B:\n    pass\n");
    CHECK(a.digest != b.digest);
    CHECK_EQ_INT((int)a.class_count, 2);
    gm_module_summary_free(&a);
    gm_module_summary_free(&b);
    gm_workspace_graph_free(g);

    /* A wrapper's region: the helper it calls, reached from the external root. */
    const char *rope = "import functools\n"
                       "def update(fn):\n"
                       "    def helper(self, p):\n        print(p)\n"
                       "    def wrapper(self, x, p):\n"
                       "        helper(self, p)\n"
                       "        return fn(self, x, p)\n"
                       "    def unused(x):\n        print(x)\n"
                       "    return wrapper\n";
    const char *keys[] = {"update.<return>"};
    CHECK_EQ_INT(prints_with_roots(rope, NULL, 0), 0);
    CHECK_EQ_INT(prints_with_roots(rope, keys, 1), 1);
}

/* forward of a class that is an nn.Module only through a base in another module is a root of
 * its module; not when the base is no Module, nor with forward_is_compiled off. Either way the
 * module learns which of its bases are Modules ("module:" facts, as its imports spell them). */
static void module_bases_in_other_modules(void) {
    gm_workspace_graph *g = gm_workspace_graph_new();
    CHECK(g != NULL);
    st_add(g, "/p", "layers", false,
        "from torch import nn\n"
        "class Block(nn.Module):\n    pass\n"
        "class Deep(Block):\n    pass\n"
        "class Plain:\n    pass\n");
    st_add(g, "/p", "net", false,
        "from layers import Deep, Plain\n"
        "import layers\n"
        "class Net(Deep):\n    def forward(self, x):\n        return x\n"
        "class Other(layers.Block):\n    def forward(self, x):\n        return x\n"
        "class NotModule(Plain):\n    def forward(self, x):\n        return x\n"
        "class Local(nn.Module):\n    def forward(self, x):\n        return x\n");
    CHECK_EQ_INT(gm_workspace_graph_solve(g), 0);
    CHECK(st_has_fact(g, "/p", "net", "Net.forward"));
    CHECK(st_has_fact(g, "/p", "net", "Other.forward"));
    CHECK(!st_has_fact(g, "/p", "net", "NotModule.forward"));
    CHECK(st_has_fact(g, "/p", "net", "module:layers.Deep"));
    CHECK(st_has_fact(g, "/p", "net", "module:layers.Block"));
    CHECK(!st_has_fact(g, "/p", "net", "module:layers.Plain"));
    CHECK_EQ_INT(root_count(g, "/p", "net"), 4);
    gm_workspace_graph_free(g);

    g = gm_workspace_graph_new();
    CHECK(g != NULL);
    gm_analysis_options off;
    gm_analysis_options_default(&off);
    off.forward_is_compiled = false;
    st_add(g, "/p", "layers", false, "from torch import nn\nclass Block(nn.Module):\n    pass\n");
    gm_module_summary s;
    const char *net = "from layers import Block\n"
                      "class Net(Block):\n    def forward(self, x):\n        return x\n";
    CHECK_EQ_INT(gm_module_summary_from_source(net, strlen(net), &off, &s), 0);
    CHECK_EQ_INT(gm_workspace_graph_set(g, "/p", "net", false, &s), 1);
    CHECK_EQ_INT(gm_workspace_graph_solve(g), 0);
    CHECK(!st_has_fact(g, "/p", "net", "Net.forward"));
    CHECK(st_has_fact(g, "/p", "net", "module:layers.Block"));
    CHECK_EQ_INT(root_count(g, "/p", "net"), 1);
    gm_workspace_graph_free(g);
}

/* A getter that breaks, of a class other modules import: its module's analysis (with the roots
 * that reach it) puts it in the summary with the methods of its class that store tensors, the
 * graph gives both to the importers under the import's name, and a reader's analysis reports
 * the read after a call that stored a tensor. */
static void breaking_getters_across_modules(void) {
    const char *sched = "import torch\n"
                        "class Sched:\n"
                        "    def __init__(self):\n"
                        "        self.w = torch.ones(4)\n"
                        "    def set(self, n):\n"
                        "        self.w = torch.ones(n)\n"
                        "    def rescale(self, k):\n"
                        "        self.k = k\n"
                        "    @property\n"
                        "    def sigma(self):\n"
                        "        return self.w.sum().item()\n";
    gm_analysis_options o;
    gm_analysis_options_default(&o);
    const char *keys[] = {"Sched.sigma", "Sched.set", "Sched.rescale"};
    gm_finding_list list;
    gm_finding_list_init(&list);
    gm_module_summary s;
    CHECK_EQ_INT(gm_analyze_source_with_summary(sched, strlen(sched), &o, keys, 3, &list, &s), 0);
    CHECK_EQ_INT(at_count(&list, "GM201"), 1);
    gm_finding_list_free(&list);
    CHECK_EQ_INT(s.property_fact_count, 2);
    bool property = false, stores = false;
    for (size_t i = 0; i < s.property_fact_count; i++) {
        property |= strcmp(s.property_facts[i], "property:Sched.sigma:GM201:10") == 0;
        stores |= strcmp(s.property_facts[i], "stores:Sched.set") == 0;
    }
    CHECK(property && stores);
    /* without the rules (a file no editor has open) nothing is known of the getters */
    gm_module_summary plain;
    CHECK_EQ_INT(gm_module_summary_from_source(sched, strlen(sched), &o, &plain), 0);
    CHECK_EQ_INT(plain.property_fact_count, 0);
    gm_module_summary_free(&plain);

    gm_workspace_graph *g = gm_workspace_graph_new();
    CHECK(g != NULL);
    CHECK_EQ_INT(gm_workspace_graph_set(g, "/p", "pkg.sched", false, &s), 1);
    st_add(g, "/p", "pkg", true, "from .sched import Sched\n");
    const char *reader = "import torch\n"
                         "from torch import nn\n"
                         "from pkg import Sched as S\n"
                         "class Net(nn.Module):\n"
                         "    def __init__(self):\n"
                         "        super().__init__()\n"
                         "        self.s = S()\n"
                         "    def forward(self, x):\n"
                         "        self.s.set(3)\n"
                         "        y = self.s.sigma * x\n"
                         "        print(y)\n"
                         "        return y\n"
                         "class Quiet(Net):\n"
                         "    def forward(self, x):\n"
                         "        self.s.rescale(3)\n"
                         "        return self.s.sigma * x\n";
    st_add(g, "/p", "pkg.reader", false, reader);
    st_add(g, "/p", "pkg.other", false, "import torch\n");
    CHECK_EQ_INT(gm_workspace_graph_solve(g), 0);
    CHECK(st_has_fact(g, "/p", "pkg.reader", "property:S.sigma:GM201:10:pkg.sched"));
    CHECK(st_has_fact(g, "/p", "pkg.reader", "stores:S.set:pkg.sched"));
    CHECK(!st_has_fact(g, "/p", "pkg.reader", "stores:S.rescale:pkg.sched"));
    CHECK_EQ_INT(root_count(g, "/p", "pkg.other"), 0);

    size_t count;
    uint64_t digest;
    const char *const *facts = gm_workspace_graph_roots(g, "/p", "pkg.reader", &count, &digest);
    gm_finding_list_init(&list);
    CHECK_EQ_INT(gm_analyze_source_with_roots(reader, strlen(reader), &o, facts, count, &list), 0);
    /* the read after set() stores a tensor, with the getter's rule; the print after it is
     * never traced; Quiet's read after rescale() is not reported */
    CHECK_EQ_INT(at_count(&list, "GM201"), 1);
    const gm_finding *f = at_find(&list, "GM201", 0);
    CHECK(f && f->span.start.row == 9);
    CHECK(f && strstr(f->message, "line 11 of `pkg.sched`") != NULL);
    CHECK_EQ_INT(at_count(&list, "GM401"), 0);
    gm_finding_list_free(&list);
    /* the same reader without the facts: the read is not known to break, the print is */
    gm_finding_list_init(&list);
    CHECK_EQ_INT(gm_analyze_source(reader, strlen(reader), &o, &list), 0);
    CHECK_EQ_INT(at_count(&list, "GM201"), 0);
    CHECK_EQ_INT(at_count(&list, "GM401"), 1);
    gm_finding_list_free(&list);
    gm_workspace_graph_free(g);
}

static void absolute_names(void) {
    char buf[128];
    CHECK(gm_module_absolute_name("pkg.sub.mod", false, ".helpers.f", buf, sizeof buf));
    CHECK_EQ_STR(buf, "pkg.sub.helpers.f");
    CHECK(gm_module_absolute_name("pkg.sub.mod", false, "..util.g", buf, sizeof buf));
    CHECK_EQ_STR(buf, "pkg.util.g");
    CHECK(gm_module_absolute_name("pkg.sub", true, ".helpers", buf, sizeof buf));
    CHECK_EQ_STR(buf, "pkg.sub.helpers");
    CHECK(gm_module_absolute_name("pkg.sub", true, "..", buf, sizeof buf));
    CHECK_EQ_STR(buf, "pkg");
    CHECK(gm_module_absolute_name("mod", false, "torch.nn", buf, sizeof buf));
    CHECK_EQ_STR(buf, "torch.nn");
    CHECK(!gm_module_absolute_name("mod", false, ".x", buf, sizeof buf));
    CHECK(!gm_module_absolute_name("pkg.mod", false, "...x", buf, sizeof buf));
}

/* A decorator factory's wrapper (`@capture` and `@capture(...)` both run it), and the methods
 * of objects a module keeps in attributes (`self.scheduler.step(...)`), across modules. */
static void factories_and_instance_attributes(void) {
    gm_workspace_graph *g = gm_workspace_graph_new();
    st_add(g, "/p", "lib", true, "");
    st_add(g, "/p", "lib.output", false,
        "import functools\n"
        "def capture(func=None, *, keep=True):\n"
        "    def wrapped_fn(func):\n"
        "        @functools.wraps(func)\n"
        "        def wrapper(self, *args, **kwargs):\n"
        "            return func(self, *args, **kwargs)\n"
        "        return wrapper\n"
        "    if func is not None:\n"
        "        return wrapped_fn(func)\n"
        "    return wrapped_fn\n");
    st_add(g, "/p", "lib.sched", false,
        "class Scheduler:\n"
        "    def step(self, x):\n        return x\n"
        "    @property\n"
        "    def sigma(self):\n        return 1\n"
        "    def unused(self, x):\n        return x\n");
    st_add(g, "/p", "model", false,
        "import torch\n"
        "from lib.output import capture\n"
        "from lib.sched import Scheduler\n"
        "class Net(torch.nn.Module):\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        self.scheduler = Scheduler()\n"
        "    @capture(keep=False)\n"
        "    def forward(self, x):\n"
        "        return self.scheduler.step(x) * self.scheduler.sigma\n");
    CHECK_EQ_INT(gm_workspace_graph_solve(g), 0);
    CHECK(st_has_fact(g, "/p", "lib.output", "capture.<return>"));
    CHECK(st_has_fact(g, "/p", "lib.sched", "Scheduler.step"));
    CHECK(st_has_fact(g, "/p", "lib.sched", "Scheduler.sigma"));
    CHECK(!st_has_fact(g, "/p", "lib.sched", "Scheduler.unused"));
    gm_workspace_graph_free(g);
}


static bool has_name(char **names, int count, const char *name) {
    for (int i = 0; i < count; i++)
        if (strcmp(names[i], name) == 0)
            return true;
    return false;
}

static void free_names(char **names, int count) {
    for (int i = 0; i < count; i++)
        free(names[i]);
    free(names);
}

/* The classes a model is built of: the classes __init__ instantiates (in a ModuleList
 * comprehension too), in the same module or imported, their bases, transitively; not the
 * classes nothing on the path builds. */
static void model_classes(void) {
    gm_workspace_graph *g = gm_workspace_graph_new();
    CHECK(g != NULL);
    st_add(g, "/site", "lib", true, "from .model import Net\n");
    st_add(g, "/site", "lib.layers", false,
        "import torch.nn as nn\n"
        "class Base(nn.Module):\n"
        "    def __init__(self):\n        super().__init__()\n        self.norm = Norm()\n"
        "class Norm(nn.Module):\n    def forward(self, x):\n        return x\n"
        "class Block(Base):\n    def forward(self, x):\n        return self.norm(x)\n"
        "class Unused(nn.Module):\n    def forward(self, x):\n        return x\n");
    st_add(g, "/site", "lib.model", false,
        "import torch.nn as nn\n"
        "from .layers import Block\n"
        "class Head(nn.Module):\n    def forward(self, x):\n        return x\n"
        "class Net(nn.Module):\n"
        "    def __init__(self, n):\n"
        "        super().__init__()\n"
        "        self.blocks = nn.ModuleList([Block() for _ in range(n)])\n"
        "        self.head = Head()\n"
        "        self.act = nn.GELU()\n"
        "    def forward(self, x):\n        return self.head(x)\n");
    char **names = NULL;
    int count = gm_workspace_graph_model_classes(g, "/site", "lib.model", "Net", &names);
    CHECK_EQ_INT(count, 5);
    CHECK(count > 0 && strcmp(names[0], "lib.model.Net") == 0);
    CHECK(has_name(names, count, "lib.model.Head"));
    CHECK(has_name(names, count, "lib.layers.Block"));
    CHECK(has_name(names, count, "lib.layers.Base"));  /* Block's base builds Norm */
    CHECK(has_name(names, count, "lib.layers.Norm"));
    CHECK(!has_name(names, count, "lib.layers.Unused"));
    free_names(names, count);
    /* a class the module does not define: nothing */
    CHECK_EQ_INT(gm_workspace_graph_model_classes(g, "/site", "lib.model", "Missing", &names), 0);
    CHECK(names == NULL);
    gm_workspace_graph_free(g);
}

/* `self.m(...)` in a method of a class: the overrides of m in its subclasses run when the
 * compiled instance is one of them (virtual dispatch), in the file and across modules. */
static void overrides_through_self(void) {
    /* the base's forward calls apply, which a grandchild overrides; the sibling's other method,
     * the explicit Base.apply(self, x) of an unrelated class and a plain object's call are not
     * dispatched */
    const char *same_file = "import torch\n"
                            "from torch import nn\n"
                            "class Base(nn.Module):\n"
                            "    def forward(self, x):\n        return self.apply(x)\n"
                            "    def apply(self, x):\n        raise NotImplementedError\n"
                            "class Mid(Base):\n"
                            "    def other(self, x):\n        print(x)\n"
                            "class Leaf(Mid):\n"
                            "    def apply(self, x):\n        print(x)\n        return x\n"
                            "class Tool:\n"
                            "    def run(self, x):\n        return Base.apply(self, x)\n"
                            "    def apply(self, x):\n        print(x)\n";
    CHECK_EQ_INT(prints_with_roots(same_file, NULL, 0), 1);
    /* without the subclass relation (Leaf derives from nothing here) the override is no region */
    CHECK_EQ_INT(prints_with_roots("import torch\n"
                                   "from torch import nn\n"
                                   "class Base(nn.Module):\n"
                                   "    def forward(self, x):\n        return self.apply(x)\n"
                                   "    def apply(self, x):\n        return x\n"
                                   "class Leaf:\n"
                                   "    def apply(self, x):\n        print(x)\n",
                                   NULL, 0),
                 0);
    /* a call through an explicit class, not self: no dispatch */
    CHECK_EQ_INT(prints_with_roots("import torch\n"
                                   "from torch import nn\n"
                                   "class Base(nn.Module):\n"
                                   "    def forward(self, x):\n        return Base.apply(self, x)\n"
                                   "    def apply(self, x):\n        return x\n"
                                   "class Leaf(Base):\n"
                                   "    def apply(self, x):\n        print(x)\n",
                                   NULL, 0),
                 0);

    gm_workspace_graph *g = gm_workspace_graph_new();
    CHECK(g != NULL);
    st_add(g, "/p", "aug", true, "from .base import AugmentBase\n");
    st_add(g, "/p", "aug.base", false,
           "from torch import nn\n"
           "class AugmentBase(nn.Module):\n"
           "    def forward(self, x):\n        return self.apply_transform(self.params(x))\n"
           "    def params(self, x):\n        return x\n"
           "    def apply_transform(self, x):\n        raise NotImplementedError\n");
    st_add(g, "/p", "aug.intensity", false,
           "from .base import AugmentBase\n"
           "class IntensityBase(AugmentBase):\n"
           "    def params(self, x):\n        return x\n");
    st_add(g, "/p", "aug.jitter", false,
           "from aug.intensity import IntensityBase\n"
           "class Jitter(IntensityBase):\n"
           "    def apply_transform(self, x):\n        return x\n"
           "    def unused(self, x):\n        return x\n");
    st_add(g, "/p", "other", false,
           "class Jitter:\n"
           "    def apply_transform(self, x):\n        return x\n");
    CHECK_EQ_INT(gm_workspace_graph_solve(g), 0);
    CHECK(st_has_fact(g, "/p", "aug.intensity", "IntensityBase.params"));
    CHECK(st_has_fact(g, "/p", "aug.jitter", "Jitter.apply_transform"));
    CHECK(!st_has_fact(g, "/p", "aug.jitter", "Jitter.unused"));
    CHECK_EQ_INT(root_count(g, "/p", "other"), 0);
    CHECK_EQ_INT(root_count(g, "/p", "aug.base"), 0); /* its own analysis reaches them */
    gm_workspace_graph_free(g);
}

/* A module's analysis notes the calls its compiled code makes of other modules' functions with
 * tensors ("passes:NAME:MASK", in the summary's analysis facts); the workspace hands each to
 * the module that defines NAME as "args:KEY:MASK". */
static void passed_tensor_arguments(void) {
    gm_workspace_graph *g = gm_workspace_graph_new();
    CHECK(g != NULL);
    st_add(g, "/p", "pkg", true, "");
    st_add(g, "/p", "pkg.tal", false,
           "def make_anchors(feats, strides):\n    return feats\n"
           "class Box:\n    def area(self, x):\n        return x\n");
    gm_module_summary head = st_summarise("from .tal import make_anchors\n"
                                          "import numpy as np\n"
                                          "def forward(x):\n    return make_anchors(x, x)\n");
    const char *facts[] = {"passes:.tal.make_anchors:2", "passes:.tal.missing:1",
                           "passes:numpy.roll:1", "property:Head.p:GM202:3"};
    CHECK_EQ_INT(gm_module_summary_set_property_facts(&head, facts, 4), 0);
    CHECK_EQ_INT(gm_workspace_graph_set(g, "/p", "pkg.head", false, &head), 1);
    /* another caller passes a tensor as the first argument */
    gm_module_summary loss = st_summarise("from pkg.tal import make_anchors\n");
    const char *more[] = {"passes:pkg.tal.make_anchors:1"};
    CHECK_EQ_INT(gm_module_summary_set_property_facts(&loss, more, 1), 0);
    CHECK_EQ_INT(gm_workspace_graph_set(g, "/p", "pkg.loss", false, &loss), 1);
    CHECK_EQ_INT(gm_workspace_graph_solve(g), 0);
    CHECK(st_has_fact(g, "/p", "pkg.tal", "args:make_anchors:2"));
    CHECK(st_has_fact(g, "/p", "pkg.tal", "args:make_anchors:1"));
    CHECK(!st_has_fact(g, "/p", "pkg.tal", "args:missing:1"));
    CHECK(!st_has_fact(g, "/p", "pkg.head", "args:make_anchors:2"));
    /* solved again: the same facts, once each */
    CHECK_EQ_INT(gm_workspace_graph_solve(g), 0);
    size_t count = 0, args = 0;
    uint64_t digest;
    const char *const *roots = gm_workspace_graph_roots(g, "/p", "pkg.tal", &count, &digest);
    for (size_t i = 0; i < count; i++)
        args += strncmp(roots[i], "args:", 5) == 0;
    CHECK_EQ_INT(args, 2);
    gm_workspace_graph_free(g);

    /* the callee's analysis: a parameter an "args:" fact names is a tensor there */
    const char *helper = "import torch\n"
                         "def make_anchors(feats, strides):\n"
                         "    s = strides[0]\n"
                         "    return feats.new_full((2, 1), s)\n";
    const char *with_args[] = {"args:make_anchors:2", "make_anchors"};
    const char *other_bit[] = {"args:make_anchors:1", "make_anchors"};
    const char *root_only[] = {"make_anchors"};
    gm_analysis_options o;
    gm_analysis_options_default(&o);
    const char *const *cases[] = {with_args, other_bit, root_only};
    size_t counts[] = {2, 2, 1}, expected[] = {1, 0, 0};
    for (size_t c = 0; c < 3; c++) {
        gm_finding_list list;
        gm_finding_list_init(&list);
        CHECK_EQ_INT(gm_analyze_source_with_roots(helper, strlen(helper), &o, cases[c], counts[c],
                                                  &list),
                     0);
        CHECK_EQ_INT(at_count(&list, "GM202"), expected[c]);
        gm_finding_list_free(&list);
    }
}

int main(void) {
    star_imports();
    passed_tensor_arguments();
    overrides_through_self();
    model_classes();
    factories_and_instance_attributes();
    compile_targets_in_the_file();
    fullgraph_regions();
    summaries();
    workspace_resolution();
    absolute_names();
    inherited_methods_and_decorators();
    module_bases_in_other_modules();
    breaking_getters_across_modules();
    return check_exit_code("analysis/module_facts/workspace_graph");
}
