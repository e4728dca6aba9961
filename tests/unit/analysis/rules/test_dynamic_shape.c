/* GM301 dynamic-shape-op and GM302 one-hot-no-num-classes: torch functions through import
 * aliases, tensor methods, argument forms that trace, boolean-mask reads, shadowing, regions,
 * catalogue entries and the suppress fix. */
#include <string.h>

#include "check.h"

#include "analysis/rules/catalogue/rule_catalogue.h"
#include "analysis_test.h"

#define HEAD                                                                                       \
    "import torch\n"                                                                               \
    "import torch.nn.functional as F\n"                                                            \
    "@torch.compile\n"                                                                             \
    "def f(x: torch.Tensor, r: torch.Tensor, n):\n"

static void expect_body(const char *body, const char *rule, size_t n) {
    char src[4096];
    snprintf(src, sizeof src, "%s%s", HEAD, body);
    AT_EXPECT(src, rule, n);
}

static void dynamic_shape_calls(void) {
    expect_body("    a = torch.nonzero(x)\n    b = torch.argwhere(x)\n    c = torch.unique(x)\n"
                "    d = torch.masked_select(x, x > 0)\n    e = torch.bincount(r)\n",
                "GM301", 5);
    expect_body("    a = x.nonzero()\n    b = x.unique()\n", "GM301", 2);
    expect_body("    a = torch.where(x > 0)\n", "GM301", 1);
    expect_body("    a = torch.where(x > 0, x, 0)\n", "GM301", 0);
    expect_body("    a = torch.repeat_interleave(x, r)\n", "GM301", 1);
    expect_body("    a = torch.repeat_interleave(x, repeats=r, dim=0)\n", "GM301", 1);
    expect_body("    a = torch.repeat_interleave(x, r, dim=0, output_size=8)\n", "GM301", 0);
    expect_body("    a = torch.repeat_interleave(x, 2)\n", "GM301", 0);
    expect_body("    a = torch.repeat_interleave(x, n)\n", "GM301", 0);
    /* Not a tensor receiver, shadowed, splat, eager only, not torch. */
    expect_body("    a = n.nonzero()\n    b = n.unique()\n", "GM301", 0);
    expect_body("    torch = make()\n    a = torch.nonzero(x)\n", "GM301", 0);
    expect_body("    a = torch.where(*n)\n", "GM301", 0);
    expect_body("    if not torch.compiler.is_compiling():\n        a = torch.nonzero(x)\n",
                "GM301", 0);
    expect_body("    a = np.nonzero(x)\n", "GM301", 0);
    AT_EXPECT("from torch import nonzero as nz\nimport torch\n@torch.compile\ndef f(x):\n"
              "    return nz(x)\n",
              "GM301", 1);
    AT_EXPECT("import torch\ndef g(x):\n    return torch.nonzero(x), torch.unique(x)\n", "GM301",
              0);
}

static void boolean_mask(void) {
    expect_body("    a = x[x > 0]\n", "GM301", 1);
    expect_body("    a = x[(x > 0)]\n", "GM301", 1);
    expect_body("    x[x > 0] = 0\n", "GM301", 0);
    expect_body("    a = x[0]\n    b = x[n > 0]\n", "GM301", 0);
    /* n is unannotated, but only a tensor (or a NumPy array, traced as one) takes an index
     * that compares it with a number */
    expect_body("    c = n[n > 0]\n", "GM301", 1);
    expect_body("    c = n[(n != 0) & (n < 3)]\n", "GM301", 1);
    expect_body("    c = n[m > 0]\n", "GM301", 0);
    /* a store through a tuple target is an index_put dynamo traces */
    expect_body("    x[x > 0], y = 0, 1\n", "GM301", 0);
    expect_body("    a = x[:, 0]\n", "GM301", 0);
}

/* Masks held in locals, casts, combinations and other index positions (verified on torch 2.13:
 * corpus dynamic_shape/int_index_tensor_vs_bool_mask.py, mask_cast_and_index_select.py,
 * mask_setitem_augmented.py, nonzero_as_tuple_and_argwhere.py, unique_return_counts.py). */
static void mask_forms(void) {
    expect_body("    keep = x > 0\n    y = x[keep]\n", "GM301", 1);
    expect_body("    keep = x > 0\n    y = x[~keep]\n", "GM301", 1);
    expect_body("    y = x[r.bool()]\n", "GM301", 1);
    expect_body("    y = x[~(x > 0)]\n", "GM301", 1);
    expect_body("    y = x[(x > 0) & (x < 1)]\n", "GM301", 1);
    expect_body("    a = x > 0\n    b = x < 1\n    y = x[a & b]\n    z = x[a | b]\n", "GM301", 2);
    expect_body("    keep = x > 0\n    y = x[:, keep]\n", "GM301", 1);
    /* `a | b` of two tensors indexes as a mask, even when neither is known to be one; a
     * tensor with a Python value is arithmetic */
    expect_body("    m = x[..., 0] | r[..., 0]\n    y = x[m]\n", "GM301", 1);
    expect_body("    y = x[x | r]\n", "GM301", 1);
    expect_body("    y = x[r | n]\n", "GM301", 0);
    expect_body("    y = x[0, x[0] > 0]\n", "GM301", 1);
    expect_body("    y = torch.isnan(x)\n    z = x[y]\n", "GM301", 1);
    /* a plain store through a mask traces; an augmented one reads y[mask] first */
    expect_body("    y = x.clone()\n    mask = y < 0\n    y[mask] = 0.0\n", "GM301", 0);
    expect_body("    y = x.clone()\n    mask = y < 0\n    y[mask] = 0.0\n    y[mask] += n\n",
                "GM301", 1);
    /* one_hot with the default spelled out */
    expect_body("    a = F.one_hot(r, num_classes=-1)\n", "GM302", 1);
    expect_body("    a = F.one_hot(r, -1)\n", "GM302", 1);
    expect_body("    a = F.one_hot(r, num_classes=3)\n    b = F.one_hot(r, 1)\n", "GM302", 0);
    /* unique_consecutive: the function and the method */
    expect_body("    a = torch.unique_consecutive(r)\n", "GM301", 1);
    expect_body("    a = r.unique_consecutive()\n    b = x.unique_consecutive(dim=0)\n", "GM301",
                2);
    /* a mask held in a local is a tensor, so its nonzero() is one */
    expect_body("    mask = x > 0\n    rows, cols = mask.nonzero(as_tuple=True)\n", "GM301", 1);
    expect_body("    mask = x > 0\n    idx = mask.nonzero()\n", "GM301", 1);
    /* Integer index tensors keep static shapes. */
    expect_body("    idx = x.argmax(dim=1)\n    rows = torch.arange(x.shape[0])\n"
                "    a = x[rows, idx]\n    b = x[idx]\n",
                "GM301", 0);
    expect_body("    top = x.topk(2, dim=1).indices\n    a = x[top]\n", "GM301", 0);
    expect_body("    idx = torch.tensor([0, 2])\n    a = x.index_select(0, idx)\n"
                "    b = x[idx.long()]\n",
                "GM301", 0);
    expect_body("    idx = r.argmax(dim=0)\n    a = x[~idx]\n", "GM301", 0);
    /* Comparisons of Python ints held in locals are bools, not masks. */
    expect_body("    k = x.shape[0] > 2\n    a = x[k]\n", "GM301", 0);
    expect_body("    k = x.dim() == 2\n    j = x.size(1) != 4\n    a = x[k & j]\n", "GM301", 0);
    expect_body("    k = len(x) > 2\n    a = x[~k]\n", "GM301", 0);
}

static void one_hot(void) {
    expect_body("    a = F.one_hot(r)\n", "GM302", 1);
    expect_body("    a = torch.nn.functional.one_hot(r)\n", "GM302", 1);
    expect_body("    a = F.one_hot(r, num_classes=4)\n    b = F.one_hot(r, 4)\n", "GM302", 0);
    AT_EXPECT("import torch\nfrom torch.nn.functional import one_hot\n@torch.compile\n"
              "def f(x):\n    return one_hot(x)\n",
              "GM302", 1);
}

static void consequences_and_fixes(void) {
    /* two functions: after the break in the loop dynamo skips the rest of f */
    const char *src = HEAD "    for i in range(2):\n        a = torch.nonzero(x)\n"
                           "@torch.compile\ndef g(r: torch.Tensor):\n    b = F.one_hot(r)\n";
    gm_finding_list l = at_analyze(src);
    const gm_finding *a = at_find(&l, "GM301", 0), *b = at_find(&l, "GM302", 0);
    CHECK(a && strstr(a->message, "inside a loop") != NULL);
    CHECK(a && strstr(a->message, "torch.nonzero") != NULL);
    CHECK(a && strcmp(at_span_text(src, a), "torch.nonzero(x)") == 0);
    CHECK(b && strstr(b->message, "num_classes") != NULL);
    CHECK(a && at_fix(a, GM_FIX_KIND_SUPPRESS) != NULL);
    CHECK(b && at_fix(b, GM_FIX_KIND_SUPPRESS) != NULL);
    gm_finding_list_free(&l);
    expect_body("    a = torch.nonzero(x)  # graphmend: ignore[GM301]\n", "GM301", 0);

    const gm_rule *r = gm_rule_by_id("GM301");
    CHECK(r != NULL);
    if (r) {
        CHECK_EQ_STR(r->name, "dynamic-shape-op");
        CHECK_EQ_STR(r->registry_id, "GB0036");
        CHECK_EQ_STR(r->url,
                     "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0036.html");
        CHECK_EQ_INT(r->severity, GM_SEVERITY_WARNING);
        CHECK(r->explanation && r->hint && r->gb_type);
    }
    r = gm_rule_by_id("GM302");
    CHECK(r != NULL);
    if (r) {
        CHECK_EQ_STR(r->name, "one-hot-no-num-classes");
        CHECK_EQ_STR(r->registry_id, "GB0246");
        CHECK_EQ_STR(r->url,
                     "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0246.html");
        CHECK_EQ_INT(r->severity, GM_SEVERITY_WARNING);
    }
}

/* GM610: a tensor method whose arguments hold a resumed dynamic-shape break breaks again at the
 * call; a torch function, a break in a loop or try (nothing resumes), or no break: nothing. */
static void method_across_break(void) {
    expect_body("    y = x.masked_scatter(m, x[x > 0].sum())\n", "GM610", 1);
    expect_body("    y = x.add(x.mul(x.nonzero().sum()))\n", "GM610", 2);
    expect_body("    y = torch.add(x, x[x > 0].sum())\n", "GM610", 0);
    expect_body("    v = x[x > 0].sum()\n    y = x.add(v)\n", "GM610", 0);
    expect_body("    for i in range(2):\n        y = x.add(x[x > 0].sum())\n", "GM610", 0);
    expect_body("    y = x.add(x.sum())\n", "GM610", 0);
}

int main(void) {
    dynamic_shape_calls();
    boolean_mask();
    mask_forms();
    one_hot();
    consequences_and_fixes();
    method_across_break();
    return check_exit_code("analysis/rules/dynamic_shape");
}
