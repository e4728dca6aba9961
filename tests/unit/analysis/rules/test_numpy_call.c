/* GM511 and GM202 for NumPy calls in compiled code: functions torch._numpy lacks break whatever
 * their arguments; np.random.choice always reads data; a draw without a size is one number. */
#include <string.h>

#include "check.h"

#include "analysis/rules/catalogue/rule_catalogue.h"
#include "analysis_test.h"

#define HEAD "import numpy as np\nimport torch\n@torch.compile\ndef f(x):\n"

static void expect_body(const char *body, const char *rule, size_t n) {
    char src[4096];
    snprintf(src, sizeof src, "%s%s", HEAD, body);
    AT_EXPECT(src, rule, n);
}

static void unsupported_functions(void) {
    expect_body("    m = np.isin(x.numpy(), [1, 2])\n    return x\n", "GM511", 1);
    expect_body("    a = np.nanmean(x.numpy())\n    b = np.random.permutation(4)\n    return x\n",
                "GM511", 2);
    expect_body("    n = np.linalg.vector_norm(x.numpy())\n    return x\n", "GM511", 1);
    /* implemented by torch._numpy, or a scalar type */
    expect_body("    a = np.clip(np.arange(4), 0, 2)\n    b = np.random.rand(4)\n"
                "    np.random.shuffle(a)\n    c = np.float32(1.0)\n    d = np.linalg.norm(a)\n"
                "    return x\n",
                "GM511", 0);
    /* `from numpy.random import permutation`, and a local function of the same name */
    AT_EXPECT("from numpy.random import permutation\nimport torch\n@torch.compile\n"
              "def f(x):\n    return x + permutation(3).sum()\n",
              "GM511", 1);
    AT_EXPECT("import torch\n@torch.compile\ndef f(x):\n    def isin(a):\n        return a\n"
              "    return isin(x)\n",
              "GM511", 0);
    /* outside compiled code nothing is reported */
    AT_EXPECT("import numpy as np\ndef f(x):\n    return np.isin(x, [1])\n", "GM511", 0);
}

static void random_draws(void) {
    expect_body("    i = np.random.choice(4, 2)\n    return x\n", "GM202", 1);
    expect_body("    i = np.random.choice(np.arange(4), 2, replace=False)\n    return x\n", "GM202",
                1);
    expect_body("    p = np.random.uniform(0, 1)\n    return x\n", "GM202", 1);
    expect_body("    p = np.random.uniform(0, 1, 4)\n    q = np.random.rand(2, 3)\n    return x\n",
                "GM202", 0);
}

static void catalogue(void) {
    const gm_rule *r = gm_rule_by_id("GM511");
    CHECK(r != NULL);
    if (!r)
        return;
    CHECK_EQ_STR(r->name, "numpy-unsupported-call");
    CHECK_EQ_STR(r->registry_id, "GB0294");
    CHECK(r->explanation && r->hint && r->gb_type && r->url);
}

int main(void) {
    unsupported_functions();
    random_draws();
    catalogue();
    return check_exit_code("analysis/rules/numpy_call");
}
