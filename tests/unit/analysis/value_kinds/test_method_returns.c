/* What a method of the file's classes returns, for `obj.m()` on an object of unknown kind
 * (analysis/value_kinds/method_returns.c): a tensor where the object's class is known and the
 * method returns one on every path, a tensor under a condition the finding names where it
 * returns one on some paths or the class is only one of the file's classes defining the
 * method, and nothing where the method returns Python values or the name is one builtin types
 * or torch.Tensor have. */
#include <string.h>

#include "check.h"

#include "analysis_test.h"

#define HEAD                                                                                       \
    "import torch\n"                                                                               \
    "import torch.nn as nn\n"                                                                      \
    "\n"

/* A class whose `length()` returns the tensor attribute `total` on every path. */
#define ALWAYS                                                                                     \
    "class Counter:\n"                                                                             \
    "    def __init__(self):\n"                                                                    \
    "        self.total = torch.tensor(5)\n"                                                       \
    "    def length(self):\n"                                                                      \
    "        return self.total\n\n"

/* A class whose `length()` returns its tensor only when ready, else 0. */
#define SOMETIMES                                                                                  \
    "class Cache:\n"                                                                               \
    "    def __init__(self, ready):\n"                                                             \
    "        self.ready = ready\n"                                                                 \
    "        self.total = torch.tensor(5)\n"                                                       \
    "    def length(self):\n"                                                                      \
    "        return self.total if self.ready else 0\n\n"

/* A class whose `length()` returns a shape: an int. */
#define NEVER                                                                                      \
    "class Shape:\n"                                                                               \
    "    def __init__(self):\n"                                                                    \
    "        self.keys = torch.zeros(1, 2, 3)\n"                                                   \
    "    def length(self):\n"                                                                      \
    "        if self.keys.numel() == 0:\n"                                                         \
    "            return 0\n"                                                                       \
    "        return self.keys.shape[-2]\n\n"

/* The GM101 findings of HEAD + classes + model, and whether the first has a condition that
 * holds condition (NULL: none wanted). */
static void expect_branch(const char *classes, const char *model, size_t count,
                          const char *condition) {
    char src[4096];
    snprintf(src, sizeof src, "%s%s%s", HEAD, classes, model);
    gm_finding_list l = at_analyze(src);
    CHECK(at_count(&l, "GM101") == count);
    if (at_count(&l, "GM101") != count)
        fprintf(stderr, "wanted %zu GM101 in:\n%s\n", count, src);
    const gm_finding *f = at_find(&l, "GM101", 0);
    if (f && condition) {
        CHECK(f->only_when_condition && strstr(f->only_when_condition, condition));
        CHECK(strstr(f->message, "only when") != NULL);
        if (!f->only_when_condition || !strstr(f->only_when_condition, condition))
            fprintf(stderr, "wanted condition %s: %s\n", condition,
                    f->only_when_condition ? f->only_when_condition : "(none)");
    } else if (f) {
        CHECK(f->only_when_condition == NULL);
        if (f->only_when_condition)
            fprintf(stderr, "unwanted condition: %s\n", f->only_when_condition);
    }
    gm_finding_list_free(&l);
}

#define MODEL_ATTRIBUTE(cls)                                                                       \
    "class M(nn.Module):\n"                                                                        \
    "    def __init__(self):\n"                                                                    \
    "        super().__init__()\n"                                                                 \
    "        self.c = " cls "\n"                                                                   \
    "    def forward(self, x):\n"                                                                  \
    "        n = self.c.length()\n"                                                                \
    "        if n > 0:\n"                                                                          \
    "            x = x + 1\n"                                                                      \
    "        return x\n"

#define MODEL_PARAMETER(annotation)                                                                \
    "class M(nn.Module):\n"                                                                        \
    "    def forward(self, x, c" annotation "):\n"                                                 \
    "        if c.length() > 0:\n"                                                                 \
    "            x = x + 1\n"                                                                      \
    "        return x\n"

static void class_known(void) {
    /* made in __init__: the class's method decides, with no condition when always a tensor */
    expect_branch(ALWAYS, MODEL_ATTRIBUTE("Counter()"), 1, NULL);
    expect_branch(SOMETIMES, MODEL_ATTRIBUTE("Cache(True)"), 1,
                  "`self.c.length()` returns a tensor");
    expect_branch(NEVER, MODEL_ATTRIBUTE("Shape()"), 0, NULL);
    /* an element of a list of instances */
    expect_branch(ALWAYS,
                  "class M(nn.Module):\n"
                  "    def __init__(self):\n"
                  "        super().__init__()\n"
                  "        self.cs = [Counter() for _ in range(2)]\n"
                  "    def forward(self, x):\n"
                  "        if self.cs[0].length() > 0:\n"
                  "            x = x + 1\n"
                  "        return x\n",
                  1, NULL);
    /* a parameter annotated with the class (as a string too) */
    expect_branch(ALWAYS, MODEL_PARAMETER(": Counter"), 1, NULL);
    expect_branch(ALWAYS, MODEL_PARAMETER(": \"Counter\" | None"), 1, NULL);
    expect_branch(NEVER, MODEL_PARAMETER(": Shape"), 0, NULL);
    /* a method that returns another class's method: followed to that class */
    expect_branch(SOMETIMES
                  "class Outer:\n"
                  "    def __init__(self):\n"
                  "        self.layers = [Cache(True)]\n"
                  "    def length(self, i=0):\n"
                  "        if i >= len(self.layers):\n"
                  "            return 0\n"
                  "        return self.layers[i].length()\n\n",
                  MODEL_ATTRIBUTE("Outer()"), 1, "`self.c.length()` returns a tensor");
}

static void class_unknown(void) {
    /* the object's class is not shown: every class of the file that defines the method, and
     * the finding is conditional even when they all return a tensor */
    expect_branch(ALWAYS, MODEL_PARAMETER(""), 1, "`c.length()` returns a tensor");
    expect_branch(SOMETIMES, MODEL_PARAMETER(""), 1, "`c.length()` returns a tensor");
    /* a tensor annotation the code contradicts is no class: the same */
    expect_branch(SOMETIMES, MODEL_PARAMETER(": torch.Tensor | None = None"), 1,
                  "`c.length()` returns a tensor");
    expect_branch(NEVER, MODEL_PARAMETER(""), 0, NULL);
    /* every class that defines it returns Python values */
    expect_branch(NEVER "class Other:\n    def length(self):\n        return 3\n\n",
                  MODEL_PARAMETER(""), 0, NULL);
    /* annotated with a class the file does not define: nothing is assumed */
    expect_branch(ALWAYS, MODEL_PARAMETER(": \"Elsewhere\""), 0, NULL);
    /* a name builtin types have (dict.get) says nothing about the object */
    expect_branch("class Store:\n"
                  "    def __init__(self):\n"
                  "        self.t = torch.ones(())\n"
                  "    def get(self, key):\n"
                  "        return self.t\n\n",
                  "class M(nn.Module):\n"
                  "    def forward(self, x, d):\n"
                  "        if d.get('k') > 0:\n"
                  "            x = x + 1\n"
                  "        return x\n",
                  0, NULL);
    /* an attribute a class also assigns a Python value is no tensor */
    expect_branch("class Mixed:\n"
                  "    def __init__(self):\n"
                  "        self.total = torch.tensor(5)\n"
                  "    def reset(self):\n"
                  "        self.total = 0\n"
                  "    def length(self):\n"
                  "        return self.total\n\n",
                  MODEL_PARAMETER(": Mixed"), 0, NULL);
}

/* A name bound by a walrus keeps the condition, in the test that binds it and after it. */
static void walrus(void) {
    char src[4096];
    snprintf(src, sizeof src, "%s%s%s", HEAD, SOMETIMES,
             "class M(nn.Module):\n"
             "    def forward(self, x, c):\n"
             "        if (n := c.length()) > 0:\n"
             "            x = x + 1\n"
             "        if n > 1:\n"
             "            x = x + 2\n"
             "        return x\n");
    gm_finding_list l = at_analyze(src);
    CHECK(at_count(&l, "GM101") == 2);
    for (size_t i = 0; i < 2; i++) {
        const gm_finding *f = at_find(&l, "GM101", i);
        CHECK(f && f->only_when_condition &&
              strstr(f->only_when_condition, "`c.length()` returns a tensor"));
    }
    gm_finding_list_free(&l);
}

/* A tensor the condition needs elsewhere keeps the finding unconditional. */
static void tensor_anyway(void) {
    expect_branch(SOMETIMES,
                  "class M(nn.Module):\n"
                  "    def forward(self, x, c):\n"
                  "        n = c.length()\n"
                  "        if n + x.sum() > 0:\n"
                  "            x = x + 1\n"
                  "        return x\n",
                  1, NULL);
}

int main(void) {
    class_known();
    class_unknown();
    walrus();
    tensor_anyway();
    return check_exit_code("analysis/value_kinds/method_returns");
}
