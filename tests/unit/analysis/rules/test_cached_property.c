/* GM607: reads of a functools.cached_property of the module (Python before 3.12): which reads,
 * which decorators, the frame skip, and 3.12. */
#include <string.h>

#include "check.h"

#include "analysis/rules/catalogue/rule_catalogue.h"
#include "analysis_test.h"

#define CLASS(decorator_import, decorator, body)                                                  \
    "import torch\n" decorator_import "\n"                                                         \
    "class C(torch.nn.Module):\n"                                                                  \
    "    " decorator "\n"                                                                          \
    "    def pad(self):\n"                                                                         \
    "        return 2\n"                                                                           \
    "    def forward(self, x):\n" body

static void reads(void) {
    AT_EXPECT(CLASS("from functools import cached_property", "@cached_property",
                    "        return x + self.pad\n"),
              "GM607", 1);
    AT_EXPECT(CLASS("import functools", "@functools.cached_property",
                    "        return x + self.pad\n"),
              "GM607", 1);
    /* a plain property is inlined; an unrelated cached_property name is not functools' */
    AT_EXPECT(CLASS("", "@property", "        return x + self.pad\n"), "GM607", 0);
    AT_EXPECT(CLASS("from mylib import cached_property", "@cached_property",
                    "        return x + self.pad\n"),
              "GM607", 0);
    /* a store is no read; another object's attribute is not the module's */
    AT_EXPECT(CLASS("from functools import cached_property", "@cached_property",
                    "        self.pad = 3\n        return x\n"),
              "GM607", 0);
    AT_EXPECT(CLASS("from functools import cached_property", "@cached_property",
                    "        return x + x.pad\n"),
              "GM607", 0);
}

static void frame_skip(void) {
    /* dynamo cannot resume: the print after it is never traced */
    gm_finding_list l = at_analyze(CLASS("from functools import cached_property",
                                         "@cached_property",
                                         "        y = x + self.pad\n        print(y)\n"
                                         "        return y\n"));
    CHECK_EQ_INT(at_count(&l, "GM607"), 1);
    CHECK_EQ_INT(at_count(&l, "GM401"), 0);
    gm_finding_list_free(&l);
}

static void python_version(void) {
    gm_analysis_options o;
    gm_analysis_options_default(&o);
    o.python_version = 312; /* 3.12 dropped the lock */
    gm_finding_list l = at_analyze_with(CLASS("from functools import cached_property",
                                              "@cached_property", "        return x + self.pad\n"),
                                        &o);
    CHECK_EQ_INT(at_count(&l, "GM607"), 0);
    gm_finding_list_free(&l);
    const gm_rule *rule = gm_rule_by_id("GM607");
    CHECK(rule != NULL && strcmp(rule->registry_id, "GB0142") == 0);
}

int main(void) {
    reads();
    frame_skip();
    python_version();
    return check_exit_code("analysis/rules/cached_property");
}
