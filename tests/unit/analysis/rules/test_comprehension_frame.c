/* GM606: comprehensions compiled apart in a function dynamo runs eagerly (Python before 3.12):
 * which comprehensions, which eager causes, the wrapper's conditional finding, and 3.12. */
#include <string.h>

#include "check.h"

#include "analysis/rules/catalogue/rule_catalogue.h"
#include "analysis_test.h"

#define HEAD                                                                                       \
    "import torch\n"                                                                               \
    "import torch.nn as nn\n"                                                                      \
    "NAMES = ['a', 'b']\n"                                                                         \
    "\n"                                                                                           \
    "class M(nn.Module):\n"                                                                        \
    "    def forward(self, x: torch.Tensor):\n"

#define LOOP_BREAK                                                                                 \
    "        for _ in range(2):\n"                                                                 \
    "            print(x)\n"

static void expect_forward(const char *body, size_t n) {
    char src[4096];
    snprintf(src, sizeof src, "%s%s", HEAD, body);
    AT_EXPECT(src, "GM606", n);
}

static void which_comprehensions(void) {
    /* list, dict and set comprehensions that read self over a list, before or after */
    expect_forward("        a = [self.n for _ in NAMES]\n" LOOP_BREAK, 1);
    expect_forward(LOOP_BREAK "        a = {k: self.n for k in NAMES}\n", 1);
    expect_forward("        a = {self.n for i, k in enumerate(NAMES)}\n" LOOP_BREAK, 1);
    /* not compiled apart, or compiled and started: generator expressions, no self, range(),
     * literals, self only in the first iterable (evaluated in forward) */
    expect_forward("        a = sum(self.n for _ in NAMES)\n" LOOP_BREAK, 0);
    expect_forward("        a = [k.upper() for k in NAMES]\n" LOOP_BREAK, 0);
    expect_forward("        a = [self.n for _ in range(3)]\n" LOOP_BREAK, 0);
    expect_forward("        a = [self.n for _ in ('a', 'b')]\n" LOOP_BREAK, 0);
    expect_forward("        a = [k for k in self.names]\n" LOOP_BREAK, 0);
    /* nested in a comprehension or a def: not the function's own frame */
    expect_forward("        a = [[self.n for _ in NAMES] for _ in range(2)]\n" LOOP_BREAK, 0);
    expect_forward("        def f():\n            return [self.n for _ in NAMES]\n" LOOP_BREAK,
                   0);
}

static void eager_causes(void) {
    /* a function dynamo finishes: nothing */
    expect_forward("        a = [self.n for _ in NAMES]\n        print(x)\n", 0);
    /* a break in try */
    expect_forward("        a = [self.n for _ in NAMES]\n        try:\n            print(x)\n"
                   "        finally:\n            pass\n",
                   1);
    /* a break in a comprehension only skips that comprehension's frame */
    expect_forward("        a = [self.n for _ in NAMES]\n        b = [print(v) for v in x]\n", 0);
}

static void wrapper_condition(void) {
    const char *src = "import functools\n"
                      "REGISTRY = {}\n"
                      "def capture(func=None, *, keep=True):\n"
                      "    def wrapped_fn(func):\n"
                      "        @functools.wraps(func)\n"
                      "        def wrapper(self, *args, **kwargs):\n"
                      "            flags = REGISTRY.get(self)\n"
                      "            keys = {k: getattr(self, k) for k in flags}\n"
                      "            try:\n"
                      "                out = func(self, *args, **kwargs)\n"
                      "            finally:\n"
                      "                pass\n"
                      "            return out\n"
                      "        return wrapper\n"
                      "    if func is not None:\n"
                      "        return wrapped_fn(func)\n"
                      "    return wrapped_fn\n"
                      "\n"
                      "import torch.nn as nn\n"
                      "class M(nn.Module):\n"
                      "    @capture(keep=False)\n"
                      "    def forward(self, x):\n"
                      "        return x + 1\n";
    gm_finding_list l = at_analyze(src);
    CHECK_EQ_INT(at_count(&l, "GM606"), 1);
    for (size_t i = 0; i < l.count; i++)
        if (strcmp(l.items[i].rule->id, "GM606") == 0) {
            CHECK_EQ_INT(l.items[i].span.start.row + 1, 8);
            CHECK(l.items[i].only_when_condition &&
                  strcmp(l.items[i].only_when_condition, "func(...) breaks") == 0);
        }
    gm_finding_list_free(&l);
}

static void python_version(void) {
    gm_analysis_options inlined;
    gm_analysis_options_default(&inlined);
    inlined.python_version = 312; /* PEP 709: comprehensions are inlined */
    gm_finding_list l = at_analyze_with(HEAD "        a = [self.n for _ in NAMES]\n" LOOP_BREAK,
                                        &inlined);
    CHECK_EQ_INT(at_count(&l, "GM606"), 0);
    gm_finding_list_free(&l);
    const gm_rule *rule = gm_rule_by_id("GM606");
    CHECK(rule != NULL && strcmp(rule->registry_id, "GB4347") == 0);
}

int main(void) {
    which_comprehensions();
    eager_causes();
    wrapper_condition();
    python_version();
    return check_exit_code("analysis/rules/comprehension_frame");
}
