/* GM701-GM706, autograd in compiled code: backward (gated on the torch version),
 * torch.autograd.grad, requires_grad_() on tensors from outside, requires_grad stores,
 * factories with requires_grad=True, retain_grad() and the frame skip after it. */
#include <string.h>

#include "check.h"

#include "analysis/rules/catalogue/rule_catalogue.h"
#include "analysis_test.h"

#define HEAD "import torch\nfrom torch import nn\nW = torch.ones(2)\n@torch.compile\ndef f(x, w):\n"

static void expect_body(const char *body, const char *rule, size_t n) {
    char src[4096];
    snprintf(src, sizeof src, "%s%s", HEAD, body);
    AT_EXPECT(src, rule, n);
}

static void backward_and_grad(void) {
    expect_body("    loss = (x * w).sum()\n    loss.backward()\n", "GM701", 1);
    expect_body("    (x * w).sum().backward(retain_graph=True)\n", "GM701", 1);
    expect_body("    g = torch.autograd.grad(x.sum(), w)\n", "GM702", 1);
    AT_EXPECT("import torch\nfrom torch.autograd import grad as g\n@torch.compile\n"
              "def f(x):\n    return g(x.sum(), x)\n",
              "GM702", 1);
    /* torch 2.14 traces backward by default; autograd.grad keeps breaking */
    gm_analysis_options o;
    gm_analysis_options_default(&o);
    o.torch_version = 214;
    char src[512];
    snprintf(src, sizeof src, "%s    x.sum().backward()\n    torch.autograd.grad(x, w)\n", HEAD);
    gm_finding_list l = at_analyze_with(src, &o);
    CHECK_EQ_INT(at_count(&l, "GM701"), 0);
    CHECK_EQ_INT(at_count(&l, "GM702"), 1);
    gm_finding_list_free(&l);
    /* a module's own backward method, a function that is not autograd's */
    AT_EXPECT("import torch\nfrom torch import nn\nclass M(nn.Module):\n"
              "    def forward(self, x):\n        return self.backward(x)\n",
              "GM701", 0);
    expect_body("    g = grad(x)\n", "GM702", 0);
    AT_EXPECT("import torch\nclass Fn(torch.autograd.Function):\n    pass\n@torch.compile\n"
              "def f(x):\n    return Fn.backward(None, x)\n",
              "GM701", 0);
}

static void requires_grad(void) {
    expect_body("    x.requires_grad_()\n    w.requires_grad_(False)\n    W.requires_grad_()\n",
                "GM703", 3);
    expect_body("    h = x * 2\n    h.requires_grad_()\n    z = torch.zeros(2)\n"
                "    z.requires_grad_()\n",
                "GM703", 0);
    AT_EXPECT("import torch\nfrom torch import nn\nclass M(nn.Module):\n"
              "    def forward(self, x):\n        self.w.requires_grad_(False)\n        return x\n",
              "GM703", 1);
    expect_body("    x.requires_grad = True\n    h = x + 1\n    h.requires_grad = False\n", "GM704",
                2);
    expect_body("    flags.requires_grad_map = True\n    y = x.requires_grad\n", "GM704", 0);
    expect_body("    a = torch.zeros(2, requires_grad=True)\n"
                "    b = torch.ones_like(x, requires_grad=True)\n"
                "    c = torch.tensor([1.0], dtype=torch.float32, requires_grad=True)\n",
                "GM705", 3);
    expect_body(
        "    a = torch.zeros(2, requires_grad=False)\n    b = torch.zeros(2)\n"
        "    c = make(requires_grad=True)\n    d = torch.nn.Parameter(x, requires_grad=True)\n",
        "GM705", 0);
    /* requires_grad=self.training: nothing in eval mode, GM705 under the training setting */
    const char *module = "import torch\nfrom torch import nn\nclass M(nn.Module):\n"
                         "    def forward(self, x):\n"
                         "        return torch.zeros_like(x, requires_grad=self.training)\n";
    AT_EXPECT(module, "GM705", 0);
    gm_analysis_options o;
    gm_analysis_options_default(&o);
    o.training = true;
    gm_finding_list l = at_analyze_with(module, &o);
    CHECK_EQ_INT(at_count(&l, "GM705"), 1);
    gm_finding_list_free(&l);
    /* a flag the analysis cannot decide: conditional on it */
    char src[512];
    snprintf(src, sizeof src, "%s    a = torch.ones(2, requires_grad=flag)\n", HEAD);
    l = at_analyze(src);
    const gm_finding *f = at_find(&l, "GM705", 0);
    CHECK(f != NULL && f->only_when_condition && strcmp(f->only_when_condition, "flag") == 0);
    gm_finding_list_free(&l);
}

static void retain_grad_skips_frame(void) {
    const char *src = HEAD "    print(x)\n    h = x * 2\n    h.retain_grad()\n    print(h)\n"
                           "    h.sum().backward()\n";
    gm_finding_list l = at_analyze(src);
    CHECK_EQ_INT(at_count(&l, "GM706"), 1);
    CHECK_EQ_INT(at_count(&l, "GM401"), 1); /* the one before */
    CHECK_EQ_INT(at_count(&l, "GM701"), 0); /* after: never reached */
    const gm_finding *f = at_find(&l, "GM706", 0);
    CHECK(f && strstr(f->message, "whole function runs eagerly") != NULL);
    CHECK(f && strcmp(at_span_text(src, f), "h.retain_grad()") == 0);
    gm_finding_list_free(&l);
}

static void catalogue(void) {
    static const char *const ids[][3] = {
        {"GM701", "backward-call", "GB0123"},          {"GM702", "autograd-grad", "GB9186"},
        {"GM703", "requires-grad-in-place", "GB0125"}, {"GM704", "requires-grad-store", "GB0206"},
        {"GM705", "factory-requires-grad", "GB0225"},  {"GM706", "retain-grad", "GB0108"},
        {"GM708", "inplace-view-on-input", "GB0148"},
    };
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        const gm_rule *r = gm_rule_by_id(ids[i][0]);
        CHECK(r != NULL);
        if (!r)
            continue;
        CHECK_EQ_STR(r->name, ids[i][1]);
        CHECK_EQ_STR(r->registry_id, ids[i][2]);
        CHECK(r->explanation && r->hint && r->gb_type && r->url);
    }
}

#define FUNCTION_CLASS(base)                                                                       \
    "import torch\n"                                                                               \
    "class Cumulation(" base "):\n"                                                               \
    "    @staticmethod\n"                                                                          \
    "    def forward(ctx, a, b, q):\n"                                                             \
    "        return q * a * b\n"                                                                   \
    "@torch.compile\n"                                                                             \
    "def f(mask, q):\n"

static void apply_with_repeated_input(void) {
    AT_EXPECT(FUNCTION_CLASS("torch.autograd.Function") "    return Cumulation.apply(mask, mask, q)\n",
              "GM707", 1);
    /* distinct inputs, or a class that is no autograd.Function */
    AT_EXPECT(FUNCTION_CLASS("torch.autograd.Function")
              "    return Cumulation.apply(mask, mask.clone(), q)\n",
              "GM707", 0);
    AT_EXPECT(FUNCTION_CLASS("object") "    return Cumulation.apply(mask, mask, q)\n", "GM707", 0);
    /* eval: conditional on gradients; training: unconditional */
    gm_finding_list l = at_analyze(FUNCTION_CLASS("torch.autograd.Function")
                                   "    return Cumulation.apply(mask, mask, q)\n");
    CHECK(l.count == 1 && l.items[0].only_when_condition &&
          strcmp(l.items[0].only_when_condition, "torch.is_grad_enabled()") == 0);
    gm_finding_list_free(&l);
    gm_analysis_options training;
    gm_analysis_options_default(&training);
    training.training = true;
    l = at_analyze_with(FUNCTION_CLASS("torch.autograd.Function")
                        "    return Cumulation.apply(mask, mask, q)\n",
                        &training);
    CHECK(l.count == 1 && l.items[0].only_when_condition == NULL);
    gm_finding_list_free(&l);
}

/* GM708: an in-place view op on a tensor from outside breaks; on one made inside it traces, and
 * so do the out-of-place ops and other in-place ones. */
static void inplace_view_on_input(void) {
    expect_body("    x.unsqueeze_(0)\n    return x\n", "GM708", 1);
    expect_body("    W.t_()\n    w.detach_()\n    return x\n", "GM708", 2);
    AT_EXPECT("import torch\nfrom torch import nn\nclass M(nn.Module):\n"
              "    def forward(self, x):\n        self.weight.transpose_(0, 1)\n        return x\n",
              "GM708", 1);
    expect_body("    h = x * 2\n    h.unsqueeze_(0)\n    return h\n", "GM708", 0);
    expect_body("    y = x.unsqueeze(0)\n    x.add_(1)\n    return w.t()\n", "GM708", 0);
}

int main(void) {
    inplace_view_on_input();
    apply_with_repeated_input();
    backward_and_grad();
    requires_grad();
    retain_grad_skips_frame();
    catalogue();
    return check_exit_code("analysis/rules/autograd");
}
