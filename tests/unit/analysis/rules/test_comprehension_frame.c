/* GM606: comprehensions compiled apart in a function dynamo runs eagerly (Python before 3.12):
 * which comprehensions, what makes dynamo compile their frames, which eager causes, the
 * wrapper's conditional finding, and 3.12. */
#include <stdio.h>
#include <stdlib.h>
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

static void expect_source(const char *src, size_t n) {
    AT_EXPECT(src, "GM606", n);
}

/* has_tensor_in_frame: a tensor the comprehension reads from the function, or a torch or numpy
 * module it names as a global, makes dynamo compile its frame; nothing else does. */
static void frame_inputs(void) {
    expect_forward("        a = [k * x for k in NAMES]\n" LOOP_BREAK, 1);
    expect_forward("        a = [torch.zeros(1) for _ in NAMES]\n" LOOP_BREAK, 1);
    expect_forward("        a = [nn.Identity() for _ in NAMES]\n" LOOP_BREAK, 1);
    /* its own variable named like the tensor; a lambda's parameter; a keyword's name */
    expect_forward("        a = [x for x in NAMES]\n" LOOP_BREAK, 0);
    expect_forward("        a = [(lambda x: x)(k) for k in NAMES]\n" LOOP_BREAK, 0);
    expect_forward("        a = [dict(x=k) for k in NAMES]\n" LOOP_BREAK, 0);
    /* a module imported in the body is a local, and no tensor */
    expect_forward("        import torch as t\n        a = [t.zeros(1) for _ in NAMES]\n" LOOP_BREAK,
                   0);
    /* a function from torch is no module; numpy is one; a compiled function has no self */
    const char *loop = "    for _ in range(2):\n        print(x)\n";
    char src[1024];
    snprintf(src, sizeof src,
             "import torch\nfrom torch import cat\nNAMES = ['a']\n@torch.compile\n"
             "def f(x):\n%s    return [cat for _ in NAMES]\n",
             loop);
    expect_source(src, 0);
    snprintf(src, sizeof src,
             "import numpy as np\nimport torch\nNAMES = ['a']\n@torch.compile\n"
             "def f(x):\n%s    return [np.ones(1) for _ in NAMES]\n",
             loop);
    expect_source(src, 1);
    snprintf(src, sizeof src,
             "import torch.nn.functional as F\nimport torch\nNAMES = ['a']\n@torch.compile\n"
             "def f(x):\n%s    return [F.relu for _ in NAMES]\n",
             loop);
    expect_source(src, 1);
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

/* The mend of the first GM606 finding of HEAD + body: the mended text (caller frees), or NULL
 * with *declined set to the finding's reason. */
static char *mend_forward(const char *body, char *declined, size_t cap) {
    char src[4096];
    snprintf(src, sizeof src, "%s%s", HEAD, body);
    gm_finding_list l = at_analyze(src);
    const gm_finding *f = at_find(&l, "GM606", 0);
    char *out = NULL;
    declined[0] = '\0';
    CHECK(f != NULL);
    if (f) {
        const gm_fix *fix = at_fix(f, GM_FIX_KIND_MEND);
        if (fix) {
            CHECK(fix->applicability == GM_FIX_SAFE && f->mend_declined == NULL);
            out = at_apply(src, fix);
            CHECK(out && at_parses_cleanly(out));
        } else if (f->mend_declined) {
            snprintf(declined, cap, "%s", f->mend_declined);
        }
    }
    gm_finding_list_free(&l);
    return out;
}

/* The mended forward contains want (after HEAD), or, with want NULL, is declined for a reason
 * containing reason. */
static void expect_mend(const char *body, const char *want, const char *reason) {
    char declined[512];
    char *out = mend_forward(body, declined, sizeof declined);
    if (want) {
        CHECK(out && strstr(out, want) != NULL);
        if (out && !strstr(out, want))
            fprintf(stderr, "mended:\n%s\nwanted:\n%s\n", out, want);
    } else {
        CHECK(out == NULL && strstr(declined, reason) != NULL);
        if (out || !strstr(declined, reason))
            fprintf(stderr, "body:\n%s\ndeclined: %s\n", body, declined);
    }
    free(out);
}

static void plain_loop_mend(void) {
    /* list, set and dict; clauses nest in order; a loop variable key stays the subscript */
    expect_mend("        a = [self.n * k for k in NAMES if k for j in k]\n" LOOP_BREAK,
                "        a = []\n        for k in NAMES:\n            if k:\n"
                "                for j in k:\n                    a.append(self.n * k)\n",
                NULL);
    expect_mend("        a = {self.n for k in NAMES}\n" LOOP_BREAK,
                "        a = set()\n        for k in NAMES:\n            a.add(self.n)\n", NULL);
    expect_mend("        a = {k: self.n for k in NAMES}\n" LOOP_BREAK,
                "        a = {}\n        for k in NAMES:\n            a[k] = self.n\n", NULL);
    /* a key that is not a loop variable or literal is computed first, into a fresh local */
    expect_mend("        a = {f'o_{k}': self.f(k) for k in NAMES}\n" LOOP_BREAK,
                "        a = {}\n        for k in NAMES:\n            gm_key = f'o_{k}'\n"
                "            a[gm_key] = self.f(k)\n",
                NULL);
    /* a returned comprehension is built in a fresh local; an annotation is kept; a bare tuple
     * element gets parentheses as append's argument */
    expect_mend(LOOP_BREAK "        return [self.n for k in NAMES]\n",
                "        gm_list = []\n        for k in NAMES:\n"
                "            gm_list.append(self.n)\n        return gm_list\n",
                NULL);
    expect_mend("        a: list = [(k, self.n) for k in NAMES]\n" LOOP_BREAK,
                "        a: list = []\n        for k in NAMES:\n"
                "            a.append((k, self.n))\n",
                NULL);
    /* a dropped list comprehension evaluates its element only */
    expect_mend("        [self.f(k) for k in NAMES]\n" LOOP_BREAK,
                "        for k in NAMES:\n            self.f(k)\n", NULL);
    /* the same name bound by another comprehension is that comprehension's own */
    expect_mend("        a = [self.n for k in NAMES]\n        b = [k for k in NAMES]\n" LOOP_BREAK,
                "        a = []\n        for k in NAMES:\n", NULL);

    /* declined */
    expect_mend("        k = 1\n        a = [self.n for k in NAMES]\n" LOOP_BREAK, NULL,
                "a loop variable");
    expect_mend("        a = [self.n for k in NAMES]\n        b = [k for j in [k]]\n" LOOP_BREAK,
                NULL, "a loop variable");
    expect_mend("        a = [self.n for k in NAMES]\n        b = [j for j in k]\n" LOOP_BREAK,
                NULL, "a loop variable");
    expect_mend("        a = [self.n for k in NAMES]\n        f = lambda: k\n" LOOP_BREAK, NULL,
                "a loop variable");
    expect_mend("        a = [self.n for k in NAMES]\n        print(locals())\n" LOOP_BREAK, NULL,
                "own local variables");
    expect_mend("        a = [a for k in NAMES if self.n]\n" LOOP_BREAK, NULL,
                "reads the name it is assigned to");
    expect_mend("        global a\n        a = [self.n for k in NAMES]\n" LOOP_BREAK, NULL,
                "global, nonlocal");
    expect_mend("        g = lambda: a\n        a = [self.n for k in NAMES]\n" LOOP_BREAK, NULL,
                "global, nonlocal");
    expect_mend("        with x:\n            a = [self.n for k in NAMES]\n" LOOP_BREAK, NULL,
                "inside try or with");
    expect_mend("        a = [y for k in NAMES if (y := self.n)]\n" LOOP_BREAK, NULL,
                "assignment expression");
    expect_mend("        a = [self.n for k, self.m in NAMES]\n" LOOP_BREAK, NULL,
                "other than names");
    expect_mend("        a = [self.n for k in NAMES, NAMES]\n" LOOP_BREAK, NULL, "bare tuple");
    expect_mend("        a = b = [self.n for k in NAMES]\n" LOOP_BREAK, NULL, "larger statement");
    expect_mend("        self.a = [self.n for k in NAMES]\n" LOOP_BREAK, NULL,
                "other than a plain name");
    expect_mend("        a = len([self.n for k in NAMES])\n" LOOP_BREAK, NULL,
                "not the whole value");
    expect_mend("        {self.n for k in NAMES}\n" LOOP_BREAK, NULL, "hashes its items");
    expect_mend("        a = [self.n for k in NAMES]; b = 1\n" LOOP_BREAK, NULL,
                "shares the comprehension's line");
    expect_mend("        a = [self.n  # why\n             for k in NAMES]\n" LOOP_BREAK, NULL,
                "a comment inside");

    /* a comprehension inside that would break as a frame of the function once the outer one
     * is a loop: declined (the break would only move); one that would not: mended */
    expect_mend("        a = {k: [self.n for j in NAMES] for k in NAMES}\n" LOOP_BREAK, NULL,
                "a comprehension inside it");
    expect_mend("        a = {k: [j for j in NAMES] for k in self.names if self.n}\n" LOOP_BREAK,
                "            a[k] = [j for j in NAMES]\n", NULL);

    /* a set where the file binds `set` */
    const char *shadowed = "import torch\n"
                           "import torch.nn as nn\n"
                           "from helpers import set\n"
                           "NAMES = ['a', 'b']\n"
                           "class M(nn.Module):\n"
                           "    def forward(self, x: torch.Tensor):\n"
                           "        a = {self.n for k in NAMES}\n" LOOP_BREAK;
    gm_finding_list l = at_analyze(shadowed);
    const gm_finding *f = at_find(&l, "GM606", 0);
    CHECK(f && !at_fix(f, GM_FIX_KIND_MEND) && f->mend_declined &&
          strstr(f->mend_declined, "binds `set`"));
    gm_finding_list_free(&l);

    /* mending twice changes nothing: the loop leaves no comprehension */
    char declined[512];
    char *once = mend_forward("        a = {k: self.n for k in NAMES}\n" LOOP_BREAK, declined,
                              sizeof declined);
    if (once) {
        gm_finding_list again = at_analyze(once);
        CHECK_EQ_INT(at_count(&again, "GM606"), 0);
        gm_finding_list_free(&again);
    }
    free(once);
}

int main(void) {
    which_comprehensions();
    frame_inputs();
    eager_causes();
    wrapper_condition();
    python_version();
    plain_loop_mend();
    return check_exit_code("analysis/rules/comprehension_frame");
}
