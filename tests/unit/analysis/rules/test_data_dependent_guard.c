/* GM101 on value `and`/`or` and on asserts with a non-string message, and GM103
 * data-dependent-guard (`if not <tensor>: raise`), GM104 tensor-not (`not <tensor>` as a value):
 * positives, traps, catalogue and the suppress fix. */
#include <string.h>

#include "check.h"

#include "analysis/rules/catalogue/rule_catalogue.h"
#include "analysis_test.h"

#define HEAD                                                                                       \
    "import torch\n"                                                                               \
    "@torch.compile\n"                                                                             \
    "def f(x: torch.Tensor, y=None, n: int = 3):\n"

static void expect_body(const char *body, const char *rule, size_t n) {
    char src[4096];
    snprintf(src, sizeof src, "%s%s", HEAD, body);
    AT_EXPECT(src, rule, n);
}

static void boolean_values(void) {
    expect_body("    a = x.any() and y\n", "GM101", 1);
    expect_body("    a = (x > 0).all() or y\n", "GM101", 1);
    expect_body("    a = x.any() and y and n\n", "GM101", 1);
    expect_body("    return x.sum() or 1\n", "GM101", 1);
    /* Python operands, and a tensor only on the right (never tested). */
    expect_body("    a = n > 2 and x.dim() == 1\n    b = y or None\n    c = y and x\n", "GM101", 0);
    /* Inside an if/while condition the whole test is reported once. */
    expect_body("    if x.any() and n:\n        pass\n", "GM101", 1);
    expect_body("    while not (x.any() or y):\n        x = x - 1\n", "GM101", 1);
    expect_body("    a = 1 if x.any() and n else 2\n", "GM101", 1);
}

static void asserts(void) {
    expect_body("    assert (x > 0).all(), x.shape\n", "GM101", 1);
    expect_body("    assert (x > 0).all(), f\"bad {n}\"\n", "GM101", 1);
    expect_body("    assert (x > 0).all(), \"bad\"\n    assert x.any()\n"
                "    assert x.any(), \"a\" \"b\"\n    assert x.shape[0] == 4, x.shape\n",
                "GM101", 0);
    const char *src = HEAD "    assert x.any(), n\n";
    gm_finding_list l = at_analyze(src);
    const gm_finding *f = at_find(&l, "GM101", 0);
    CHECK(f && strstr(f->message, "assert") != NULL);
    CHECK(f && strcmp(at_span_text(src, f), "x.any()") == 0);
    gm_finding_list_free(&l);
}

static void guards(void) {
    expect_body("    if not torch.isfinite(x).all():\n        raise ValueError('bad')\n", "GM103",
                1);
    expect_body("    if not torch.isfinite(x).all():\n        raise ValueError('bad')\n", "GM101",
                0);
    expect_body("    if not (x > 0).all():\n        # why\n        raise ValueError('bad')\n",
                "GM103", 1);
    /* Not guards: shape checks, no raise, an else branch, a condition without `not`. */
    expect_body("    if not x.shape[0] == 4:\n        raise ValueError('bad')\n", "GM103", 0);
    expect_body("    if not x.any():\n        x = x + 1\n", "GM103", 0);
    expect_body("    if not x.any():\n        raise E()\n    else:\n        pass\n", "GM103", 0);
    expect_body("    if not x.any():\n        raise E()\n    else:\n        pass\n", "GM101", 1);
    expect_body("    if x.any():\n        raise E()\n", "GM103", 0);

    const char *src = HEAD "    for i in range(n):\n        if not x.all():\n"
                           "            raise E('bad')\n";
    gm_finding_list l = at_analyze(src);
    const gm_finding *f = at_find(&l, "GM103", 0);
    CHECK(f && strstr(f->message, "validation guard") != NULL);
    CHECK(f && strstr(f->message, "inside a loop") != NULL);
    CHECK(f && strcmp(at_span_text(src, f), "not x.all()") == 0);
    CHECK(f && at_fix(f, GM_FIX_KIND_SUPPRESS) != NULL);
    gm_finding_list_free(&l);
    expect_body("    if not x.all():  # graphmend: ignore[GM103]\n        raise E()\n", "GM103", 0);

    const gm_rule *r = gm_rule_by_id("GM103");
    CHECK(r != NULL);
    if (r) {
        CHECK_EQ_STR(r->name, "data-dependent-guard");
        CHECK_EQ_STR(r->registry_id, "GB0170");
        CHECK_EQ_STR(r->url, "https://meta-pytorch.github.io/compile-graph-break-site/gb/"
                             "gb0170.html");
        CHECK_EQ_INT(r->severity, GM_SEVERITY_WARNING);
        CHECK(r->explanation && r->hint && r->gb_type);
    }
}

static void not_values(void) {
    expect_body("    z = not x.any()\n", "GM104", 1);
    expect_body("    return not (x > 0).all()\n", "GM104", 1);
    /* `(not t) and y`: the `not` breaks first, no GM101 on the same test. */
    expect_body("    z = not x.any() and y\n", "GM104", 1);
    expect_body("    z = not x.any() and y\n", "GM101", 0);
    /* Python operands, and `not` in if/while/ternary tests (GM101 there). */
    expect_body("    a = not y\n    b = not x.shape[0] > 2\n    c = not n\n", "GM104", 0);
    expect_body("    if not x.any():\n        pass\n    a = 1 if not x.all() else 2\n", "GM104", 0);
    const char *src = HEAD "    z = not x.any()  \n";
    gm_finding_list l = at_analyze(src);
    const gm_finding *f = at_find(&l, "GM104", 0);
    CHECK(f && strstr(f->message, "eagerly") != NULL);
    CHECK(f && strcmp(at_span_text(src, f), "not x.any()") == 0);
    CHECK(f && at_fix(f, GM_FIX_KIND_SUPPRESS) != NULL);
    gm_finding_list_free(&l);
    const gm_rule *r = gm_rule_by_id("GM104");
    CHECK(r && strcmp(r->registry_id, "GB0033") == 0);
    CHECK(r && strcmp(r->name, "tensor-not") == 0);
    CHECK(r && strcmp(r->url, "https://meta-pytorch.github.io/compile-graph-break-site/gb/"
                              "gb0033.html") == 0);
}

/* The guard's [Trap] (analysis/mends/trap.c): an and/or condition lowered with
 * torch.logical_*, and an f-string message kept as a plain literal showing its fields as
 * written; declined when a field holds the literal's quote (dropping the f would end the
 * literal there) or the f-string is joined to another literal. */
static void guard_mends(void) {
    struct {
        const char *body, *rule, *replacement; /* replacement NULL: no mend */
    } cases[] = {
        {"    if x.min() < -1 or x.max() > 1:\n        raise ValueError('out of range')\n", "GM101",
         "torch._assert_async(torch.logical_not(torch.logical_or(x.min() < -1, x.max() > 1)), "
         "'ValueError: out of range')"},
        {"    if not (x > 0).all():\n        raise RuntimeError(f'bad {x}')\n", "GM103",
         "torch._assert_async((x > 0).all(), 'RuntimeError: bad {x}')"},
        {"    if not (x > 0).all():\n        raise RuntimeError(F\"bad {x.shape!r}\")\n", "GM103",
         "torch._assert_async((x > 0).all(), \"RuntimeError: bad {x.shape!r}\")"},
        {"    if not (x > 0).all():\n        raise RuntimeError(f\"\"\"bad {'a'}\"\"\")\n", "GM103",
         "torch._assert_async((x > 0).all(), \"\"\"RuntimeError: bad {'a'}\"\"\")"},
        {"    if not (x > 0).all():\n        raise RuntimeError(f'''bad {'a'}''')\n", "GM103",
         NULL},
        {"    if not (x > 0).all():\n        raise RuntimeError(f'bad {x}' ' here')\n", "GM103",
         NULL},
        {"    if not (x > 0).all():\n        raise RuntimeError(b'bad')\n", "GM103", NULL},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char src[1024];
        snprintf(src, sizeof src, "%s%s", HEAD, cases[i].body);
        gm_finding_list l = at_analyze(src);
        const gm_finding *f = at_find(&l, cases[i].rule, 0);
        const gm_fix *fix = at_fix(f, GM_FIX_KIND_MEND);
        CHECK(f != NULL);
        if (!cases[i].replacement) {
            CHECK(fix == NULL);
        } else {
            CHECK(fix && fix->applicability == GM_FIX_UNSAFE && fix->edit_count == 1 &&
                  strcmp(fix->edits[0].replacement, cases[i].replacement) == 0);
            if (fix && strcmp(fix->edits[0].replacement, cases[i].replacement) != 0)
                fprintf(stderr, "case %zu got: %s\n", i, fix->edits[0].replacement);
        }
        gm_finding_list_free(&l);
    }
}

int main(void) {
    not_values();
    boolean_values();
    asserts();
    guards();
    guard_mends();
    return check_exit_code("analysis/rules/data_dependent_guard");
}
