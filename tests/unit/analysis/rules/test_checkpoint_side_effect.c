/* GM609: state changed outside a module's forward that gradient checkpointing may run
 * (analysis/rules/checkpoint_side_effect.c): only with the training setting, in files that
 * checkpoint modules, not in the class making the checkpoint call, not for literals stored on the
 * module (they break at the call), once per function, always with its condition. */
#include <string.h>

#include "check.h"

#include "analysis/rules/catalogue/rule_catalogue.h"
#include "analysis_test.h"

#define FILE_WITH(block_forward, outer)                                                            \
    "import torch\n"                                                                               \
    "from torch.utils.checkpoint import checkpoint\n"                                              \
    "class Block(torch.nn.Module):\n"                                                              \
    "    def forward(self, x, cache: dict = None):\n" block_forward                                \
    "class Outer(torch.nn.Module):\n"                                                              \
    "    def forward(self, x):\n" outer

#define CHECKPOINTS "        return checkpoint(self.block, x, use_reentrant=False)\n"

static size_t count_training(const char *src, bool training) {
    gm_analysis_options o;
    gm_analysis_options_default(&o);
    o.training = training;
    gm_finding_list l = at_analyze_with(src, &o);
    size_t n = at_count(&l, "GM609");
    for (size_t i = 0; i < l.count; i++)
        if (strcmp(l.items[i].rule->id, "GM609") == 0)
            CHECK(l.items[i].only_when_condition != NULL &&
                  strstr(l.items[i].only_when_condition, "checkpointing") != NULL);
    gm_finding_list_free(&l);
    return n;
}

static void stores(void) {
    const char *cache = FILE_WITH("        self.cache = x.clone()\n        return x\n", CHECKPOINTS);
    CHECK_EQ_INT(count_training(cache, true), 1);
    CHECK_EQ_INT(count_training(cache, false), 0); /* eval: no checkpointing */
    /* a file that checkpoints nothing */
    CHECK_EQ_INT(count_training(FILE_WITH("        self.cache = x.clone()\n        return x\n",
                                          "        return self.block(x)\n"),
                                true),
                 0);
    /* del, an item of a dict passed in, an augmented store */
    CHECK_EQ_INT(count_training(FILE_WITH("        del self.prev\n        return x\n", CHECKPOINTS),
                                true),
                 1);
    CHECK_EQ_INT(count_training(FILE_WITH("        cache['mean'] = 1\n        return x\n",
                                          CHECKPOINTS),
                                true),
                 1);
    CHECK_EQ_INT(count_training(FILE_WITH("        self.steps += x.shape[0]\n        return x\n",
                                          CHECKPOINTS),
                                true),
                 1);
    /* a local dict, a tensor's item, a literal on the module (it breaks at the call) */
    CHECK_EQ_INT(count_training(FILE_WITH("        d = {}\n        d['a'] = x\n        x[0] = 1\n"
                                          "        self.shift = 0\n        self.mode = int(1)\n"
                                          "        return x\n",
                                          CHECKPOINTS),
                                true),
                 0);
    /* once per function: dynamo gives up on the body at the first */
    CHECK_EQ_INT(count_training(FILE_WITH("        self.a = x.clone()\n        self.b = x * 2\n"
                                          "        return x\n",
                                          CHECKPOINTS),
                                true),
                 1);
    /* the class making the checkpoint call runs outside the checkpoint */
    CHECK_EQ_INT(count_training(FILE_WITH("        return x\n",
                                          "        self.last = x.clone()\n" CHECKPOINTS),
                                true),
                 0);
}

/* GM610 inside a module checkpointing may run: the resumed call needs checkpointing off. */
static void method_across_break_condition(void) {
    const char *src = FILE_WITH("        h = torch.ones(4)\n        y = h.add(h[h > 0].sum())\n"
                                "        return y\n",
                                CHECKPOINTS);
    gm_analysis_options o;
    gm_analysis_options_default(&o);
    for (int training = 0; training < 2; training++) {
        o.training = training;
        gm_finding_list l = at_analyze_with(src, &o);
        size_t seen = 0;
        for (size_t i = 0; i < l.count; i++)
            if (strcmp(l.items[i].rule->id, "GM610") == 0) {
                seen++;
                CHECK((l.items[i].only_when_condition != NULL) == (training == 1));
            }
        CHECK_EQ_INT(seen, 1);
        gm_finding_list_free(&l);
    }
}

static void catalogue(void) {
    const gm_rule *rule = gm_rule_by_id("GM609");
    CHECK(rule != NULL && strcmp(rule->registry_id, "GB0067") == 0 &&
          strcmp(rule->name, "checkpoint-side-effect") == 0);
}

int main(void) {
    stores();
    method_across_break_condition();
    catalogue();
    return check_exit_code("analysis/rules/checkpoint_side_effect");
}
