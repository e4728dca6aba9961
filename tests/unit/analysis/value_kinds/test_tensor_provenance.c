/* Why an operand is taken for a tensor, as the findings' messages say it: one case per reason
 * the kind environment records, and none where the analysis has no reason to give. */
#include <string.h>

#include "check.h"

#include "analysis_test.h"

#define HEAD                                                                                       \
    "import torch\n"                                                                               \
    "import torch.nn as nn\n"                                                                      \
    "import torch.nn.functional as F\n"                                                            \
    "\n"                                                                                           \
    "class M(nn.Module):\n"

/* The message of the first finding of rule in HEAD + body holds reason. */
static void expect_reason(const char *body, const char *rule, const char *reason) {
    char src[4096];
    snprintf(src, sizeof src, "%s%s", HEAD, body);
    gm_finding_list l = at_analyze(src);
    const gm_finding *f = at_find(&l, rule, 0);
    CHECK(f != NULL);
    if (f) {
        CHECK(strstr(f->message, reason) != NULL);
        if (!strstr(f->message, reason))
            fprintf(stderr, "wanted: %s\nmessage: %s\n", reason, f->message);
    }
    gm_finding_list_free(&l);
}

/* The first finding of rule in HEAD + body gives no reason. */
static void expect_no_reason(const char *body, const char *rule) {
    char src[4096];
    snprintf(src, sizeof src, "%s%s", HEAD, body);
    gm_finding_list l = at_analyze(src);
    const gm_finding *f = at_find(&l, rule, 0);
    CHECK(f != NULL);
    if (f) {
        CHECK(strstr(f->message, "because") == NULL);
        if (strstr(f->message, "because"))
            fprintf(stderr, "message: %s\n", f->message);
    }
    gm_finding_list_free(&l);
}

static void reasons(void) {
    expect_reason("    def forward(self, x: torch.Tensor):\n"
                  "        if x.sum() > 0:\n            pass\n",
                  "GM101", "(`x` is a tensor because it is annotated `torch.Tensor`)");
    expect_reason("    def forward(self, x):\n        h = torch.tanh(x)\n"
                  "        if x.sum() > 0:\n            pass\n        return h\n",
                  "GM101", "(`x` is a tensor because it is passed to `torch.tanh`)");
    expect_reason("    def forward(self, x):\n        y = x.permute(1, 0)\n"
                  "        return y.max().item()\n",
                  "GM201", "(`y` is a tensor because it is assigned `x.permute(1, 0)`)");
    expect_reason("    def forward(self, x):\n        h = self.lin(x)\n"
                  "        if h.mean() > 0:\n            pass\n",
                  "GM101", "(`h` is a tensor because it is assigned `self.lin(x)`)");
    expect_reason("    def forward(self, mask):\n        m = mask.long()\n"
                  "        if mask.any():\n            pass\n        return m\n",
                  "GM101",
                  "(`mask` is a tensor because the tensor method `.long()` is called on it)");
    expect_reason("    def forward(self, x: torch.Tensor):\n        for row in x:\n"
                  "            n = row.sum().item()\n",
                  "GM201", "(`row` is a tensor because it is an element of the tensor `x`)");
    expect_reason("    def split(self, x: torch.Tensor):\n        return x * 2, x.shape[0]\n\n"
                  "    def forward(self, x: torch.Tensor):\n        a, n = self.split(x)\n"
                  "        return a.tolist()\n",
                  "GM202", "(`a` is a tensor because `self.split(x)` returns one in its place)");
    expect_reason("    def helper(self, t, n):\n        return t[:, 0:n]\n\n"
                  "    def forward(self, x: torch.Tensor):\n        return self.helper(x, x.sum())\n",
                  "GM202", "(`n` is a tensor because every call in this file passes it one)");
    /* `h += b` keeps the reason h had */
    expect_reason("    def forward(self, x: torch.Tensor):\n        x += 1\n"
                  "        if x.sum() > 0:\n            pass\n",
                  "GM101", "(`x` is a tensor because it is annotated `torch.Tensor`)");
    /* the tensor operand of `and` is the one explained, not the Python one before it */
    expect_reason("    def forward(self, x: torch.Tensor, mask: torch.Tensor):\n"
                  "        if x.size(0) > 2 and mask.any():\n            pass\n",
                  "GM101", "(`mask` is a tensor because it is annotated `torch.Tensor`)");
    /* a mask named in an index */
    expect_reason("    def forward(self, x: torch.Tensor):\n        keep = x > 0\n"
                  "        return x[keep]\n",
                  "GM301", "boolean-mask indexing `x[keep]` (`keep` is a tensor because it is "
                           "assigned `x > 0`)");
}

static void no_reason(void) {
    /* a torch call is a tensor by itself: nothing named needs explaining */
    expect_no_reason("    def forward(self, x):\n        if torch.rand(()) > 0.5:\n"
                     "            pass\n",
                     "GM101");
    expect_no_reason("    def forward(self, x: torch.Tensor):\n"
                     "        return torch.ones(2).sum().item()\n",
                     "GM201");
    /* a method call on an unknown value is a tensor by the method, not by the name */
    expect_no_reason("    def forward(self, x):\n        if x.sum() > 0:\n            pass\n",
                     "GM101");
}

int main(void) {
    reasons();
    no_reason();
    return check_exit_code("analysis/value_kinds/tensor_provenance");
}
