/* GM508 generator-method and GM509 generator-in-region: module-level generators, annotated
 * parameters, generators made in the region, and objects that only look like generators. */
#include <string.h>

#include "check.h"

#include "analysis/rules/catalogue/rule_catalogue.h"
#include "analysis_test.h"

static void generator_methods(void) {
    AT_EXPECT("import torch\nG = torch.Generator()\n@torch.compile\ndef f(x):\n"
              "    G.manual_seed(0)\n    s = G.get_state()\n    G.set_state(s)\n",
              "GM508", 3);
    AT_EXPECT("import torch\n@torch.compile\ndef f(x, g: torch.Generator):\n    g.seed()\n",
              "GM508", 1);
    AT_EXPECT("import torch\n@torch.compile\ndef f(x):\n    g = torch.Generator()\n"
              "    g.manual_seed(1)\n",
              "GM508", 1);
    /* no evidence it is a generator: an unannotated parameter, a user object; a generator
     * attribute that is not a method, a local that rebinds the global */
    AT_EXPECT("import torch\nclass S:\n    def manual_seed(self, s):\n        return s\n"
              "G = S()\nH = torch.Generator()\n@torch.compile\ndef f(x, g):\n"
              "    g.manual_seed(0)\n    G.manual_seed(0)\n    d = H.device\n",
              "GM508", 0);
    AT_EXPECT("import torch\nG = torch.Generator()\n@torch.compile\ndef f(x):\n    G = make()\n"
              "    G.manual_seed(0)\n",
              "GM508", 0);
}

static void generator_creation(void) {
    AT_EXPECT("import torch\n@torch.compile\ndef f(x):\n    g = torch.Generator()\n"
              "    h = torch.Generator(device='cpu')\n",
              "GM509", 2);
    AT_EXPECT("import torch\nG = torch.Generator()\ndef helper():\n    return torch.Generator()\n"
              "@torch.compile\ndef f(x):\n    return x\n",
              "GM509", 0);
    const gm_rule *a = gm_rule_by_id("GM508"), *b = gm_rule_by_id("GM509");
    CHECK(a && strcmp(a->registry_id, "GB7650") == 0 && strcmp(a->name, "generator-method") == 0);
    CHECK(b && strcmp(b->registry_id, "GB0363") == 0 &&
          strcmp(b->name, "generator-in-region") == 0);
}

int main(void) {
    generator_methods();
    generator_creation();
    return check_exit_code("analysis/rules/rng_state");
}
