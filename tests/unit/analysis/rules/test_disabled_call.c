/* GM507 disabled-function-call: decorated functions (both wrappers, import spellings, with
 * arguments), module-level `g = disable(f)`, methods called on self, `disable(f)(...)` in the
 * region, and what is not a disabled call (shadowing, outside regions, other decorators). */
#include <string.h>

#include "check.h"

#include "analysis/rules/catalogue/rule_catalogue.h"
#include "analysis_test.h"

static void decorated(void) {
    AT_EXPECT("import torch\n@torch.compiler.disable\ndef h(t):\n    return t\n"
              "@torch.compile\ndef f(x):\n    return h(x)\n",
              "GM507", 1);
    AT_EXPECT("import torch\nimport torch._dynamo\n@torch._dynamo.disable\ndef h(t):\n"
              "    return t\n@torch.compile\ndef f(x):\n    y = h(x)\n    return h(y)\n",
              "GM507", 2);
    AT_EXPECT("import torch\nfrom torch.compiler import disable\n@disable(recursive=False)\n"
              "def h(t):\n    return t\n@torch.compile\ndef f(x):\n    return h(x)\n",
              "GM507", 1);
    /* other decorators, undecorated helpers, a local that shadows the name */
    AT_EXPECT("import torch\nimport functools\n@functools.lru_cache\ndef h(t):\n    return t\n"
              "def g(t):\n    return t\n@torch.compile\ndef f(x):\n    return h(x) + g(x)\n",
              "GM507", 0);
    AT_EXPECT("import torch\n@torch.compiler.disable\ndef h(t):\n    return t\n"
              "@torch.compile\ndef f(x, h):\n    return h(x)\n",
              "GM507", 0);
    /* called from eager code only */
    AT_EXPECT("import torch\n@torch.compiler.disable\ndef h(t):\n    return t\nA = h(1)\n"
              "def g(x):\n    return h(x)\n",
              "GM507", 0);
}

static void wrapped_and_methods(void) {
    AT_EXPECT("import torch\ndef _h(t):\n    return t\nh = torch.compiler.disable(_h)\n"
              "@torch.compile\ndef f(x):\n    return h(x) + _h(x)\n",
              "GM507", 1);
    AT_EXPECT("import torch\ndef _h(t):\n    return t\n@torch.compile\ndef f(x):\n"
              "    return torch.compiler.disable(_h)(x)\n",
              "GM507", 1);
    AT_EXPECT("import torch\nfrom torch import nn\nclass M(nn.Module):\n"
              "    @torch.compiler.disable\n    def record(self, t):\n        return t\n"
              "    def plain(self, t):\n        return t\n"
              "    def forward(self, x):\n        return self.record(x) + self.plain(x)\n",
              "GM507", 1);
    /* a same-named method of another object is not the disabled one */
    AT_EXPECT("import torch\nfrom torch import nn\nclass M(nn.Module):\n"
              "    @torch.compiler.disable\n    def record(self, t):\n        return t\n"
              "    def forward(self, x, other):\n        return other.record(x)\n",
              "GM507", 0);
}

static void message_and_catalogue(void) {
    const char *src = "import torch\n@torch.compiler.disable\ndef h(t):\n    return t\n"
                      "@torch.compile\ndef f(x):\n    for i in range(2):\n        x = h(x)\n"
                      "    return x\n";
    gm_finding_list l = at_analyze(src);
    const gm_finding *f = at_find(&l, "GM507", 0);
    CHECK(f && strstr(f->message, "`h`") != NULL);
    CHECK(f && strstr(f->message, "inside a loop") != NULL);
    CHECK(f && strcmp(at_span_text(src, f), "h(x)") == 0);
    CHECK(f && at_fix(f, GM_FIX_KIND_SUPPRESS) != NULL);
    gm_finding_list_free(&l);
    const gm_rule *r = gm_rule_by_id("GM507");
    CHECK(r != NULL);
    if (r) {
        CHECK_EQ_STR(r->name, "disabled-function-call");
        CHECK_EQ_STR(r->registry_id, "GB0098");
        CHECK(r->explanation && r->hint && r->gb_type && r->url);
    }
}

int main(void) {
    decorated();
    wrapped_and_methods();
    message_and_catalogue();
    return check_exit_code("analysis/rules/disabled_call");
}
