/* GM608: stores to an attribute __init__ made an nn.Buffer: which __init__ forms, which
 * stores, and the catalogue entry. */
#include <string.h>

#include "check.h"

#include "analysis/rules/catalogue/rule_catalogue.h"
#include "analysis_test.h"

#define MODULE(import_line, init_body, forward_body)                                              \
    "import torch\n" import_line "\n"                                                              \
    "class C(torch.nn.Module):\n"                                                                  \
    "    def __init__(self):\n"                                                                    \
    "        super().__init__()\n" init_body "    def forward(self, x):\n" forward_body

#define MOVE "        self.pos = self.pos.to(x.dtype)\n        return x + self.pos\n"

static void stores(void) {
    AT_EXPECT(MODULE("from torch import nn", "        self.pos = nn.Buffer(torch.ones(4))\n", MOVE),
              "GM608", 1);
    AT_EXPECT(MODULE("", "        self.pos = torch.nn.Buffer(torch.ones(4), persistent=False)\n",
                     MOVE),
              "GM608", 1);
    /* in a branch of __init__ */
    AT_EXPECT(MODULE("from torch import nn",
                     "        if True:\n            self.pos = nn.Buffer(torch.ones(4))\n", MOVE),
              "GM608", 1);
    /* register_buffer, a plain tensor, a parameter: no break */
    AT_EXPECT(MODULE("", "        self.register_buffer('pos', torch.ones(4))\n", MOVE), "GM608", 0);
    AT_EXPECT(MODULE("", "        self.pos = torch.ones(4)\n", MOVE), "GM608", 0);
    AT_EXPECT(MODULE("from torch import nn", "        self.pos = nn.Parameter(torch.ones(4))\n",
                     MOVE),
              "GM608", 0);
    /* a local copy, or another attribute: no store to the buffer */
    AT_EXPECT(MODULE("from torch import nn", "        self.pos = nn.Buffer(torch.ones(4))\n",
                     "        pos = self.pos.to(x.dtype)\n        self.other = pos\n"
                     "        return x + pos\n"),
              "GM608", 0);
    /* a new tensor stored: arithmetic, a helper's result */
    AT_EXPECT(MODULE("from torch import nn", "        self.pos = nn.Buffer(torch.ones(4))\n",
                     "        self.pos = self.pos + 1\n        return x\n"),
              "GM608", 0);
    AT_EXPECT(MODULE("from torch import nn", "        self.pos = nn.Buffer(torch.ones(4))\n",
                     "        self.pos = self.extend(self.pos)\n        return x\n"),
              "GM608", 0);
    /* the break needs the conversion to be a no-op: a condition */
    gm_finding_list l =
        at_analyze(MODULE("from torch import nn", "        self.pos = nn.Buffer(torch.ones(4))\n", MOVE));
    CHECK(l.count == 1 && l.items[0].only_when_condition &&
          strcmp(l.items[0].only_when_condition, "self.pos.to(x.dtype) is self.pos") == 0);
    gm_finding_list_free(&l);
    /* a user class named Buffer is not torch's */
    AT_EXPECT(MODULE("from mylib import Buffer", "        self.pos = Buffer(torch.ones(4))\n",
                     MOVE),
              "GM608", 0);
}

static void catalogue(void) {
    const gm_rule *rule = gm_rule_by_id("GM608");
    CHECK(rule != NULL && strcmp(rule->registry_id, "GB4841") == 0);
    /* the store gets a safe mend: stored only when the conversion made a new tensor */
    gm_finding_list l =
        at_analyze(MODULE("from torch import nn", "        self.pos = nn.Buffer(torch.ones(4))\n", MOVE));
    CHECK(l.count == 1 && l.items[0].fix_count >= 1 &&
          l.items[0].fixes[0].kind == GM_FIX_KIND_MEND &&
          l.items[0].fixes[0].applicability == GM_FIX_SAFE && l.items[0].mend_declined == NULL);
    gm_finding_list_free(&l);
    /* not when another statement shares its line: the finding says why */
    l = at_analyze(MODULE("from torch import nn", "        self.pos = nn.Buffer(torch.ones(4))\n",
                          "        self.pos = self.pos.to(x.dtype); y = x\n        return y\n"));
    CHECK(l.count == 1 && (l.items[0].fix_count == 0 || l.items[0].fixes[0].kind != GM_FIX_KIND_MEND) &&
          l.items[0].mend_declined &&
          strstr(l.items[0].mend_declined, "shares the store's line") != NULL);
    gm_finding_list_free(&l);
    size_t count = 0;
    const gm_rule *all = gm_rules(&count);
    CHECK(count > 30);
    for (size_t i = 0; i < count; i++)
        CHECK(all[i].hint && strlen(all[i].hint) > 20);
}

int main(void) {
    stores();
    catalogue();
    return check_exit_code("analysis/rules/buffer_store");
}
