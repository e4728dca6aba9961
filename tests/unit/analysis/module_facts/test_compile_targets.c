/* The cheap text test that decides whether a file is parsed again for its compile sites
 * (GM902): a compile or optimize call must be in the text, not the word alone. */
#include "check.h"

#include <string.h>

#include "analysis/module_facts/compile_targets.h"

static bool may_call(const char *text) {
    return gm_text_may_call_compile(text, strlen(text));
}

static void calls(void) {
    CHECK(may_call("m = torch.compile(model)\n"));
    CHECK(may_call("m = torch.compile (model)\n"));
    CHECK(may_call("m = torch.compile(\n    model, fullgraph=True)\n"));
    CHECK(may_call("m = torch.compile \\\n  (model)\n"));
    CHECK(may_call("model.compile()\n"));
    CHECK(may_call("f = torch._dynamo.optimize('inductor')(model)\n"));
    CHECK(may_call("x = 1\ncompile("));
}

static void no_calls(void) {
    CHECK(!may_call(""));
    CHECK(!may_call("if is_torchdynamo_compiling():\n    pass\n"));
    CHECK(!may_call("# works under torch.compile\n_can_compile_fullgraph = True\n"));
    CHECK(!may_call("compiled = torch.compile\n"));
    CHECK(!may_call("x = 'compile'"));
    CHECK(!may_call("compile"));
    CHECK(!may_call("optimize   "));
}

int main(void) {
    calls();
    no_calls();
    return check_exit_code("analysis/module_facts/compile_targets");
}
