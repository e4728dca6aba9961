/* A tensor where Python needs an int or a plain comparison (analysis/rules/tensor_as_int.c): GM202
 * for a tensor made in the graph passed as a size, length or step, for a tensor slice bound (which
 * also skips the frame) and for indexing with a 0-d tensor made in the graph; GM101 for `==`/`!=`
 * between a list or tuple display holding a tensor and a sequence. Graph inputs (parameters),
 * ints from shapes and loops over Python lists of ints are no break. */
#include <stdlib.h>
#include <string.h>

#include "check.h"

#include "analysis/value_kinds/int_parameter_table.h"
#include "analysis_test.h"

#define HEAD                                                                                       \
    "import torch\n"                                                                               \
    "@torch.compile\n"                                                                             \
    "def f(x: torch.Tensor, t: torch.Tensor, b, s):\n"

static void expect_body(const char *body, const char *rule, size_t n) {
    char src[4096];
    snprintf(src, sizeof src, "%s%s", HEAD, body);
    AT_EXPECT(src, rule, n);
}

/* torch functions that need ints: each with a tensor made in the graph there. */
static void torch_sizes(void) {
    const char *positives[] = {
        "    a = torch.arange(x.sum())\n",         "    a = torch.arange(0, 10, t.max())\n",
        "    a = torch.arange(end=t.sum() + 1)\n", "    a = torch.zeros(x.shape[0], t.max())\n",
        "    a = torch.ones((2, x.argmax()))\n",   "    a = torch.empty(size=(t.sum(), 2))\n",
        "    a = torch.randn(t.max() + 1)\n",      "    a = torch.full((t.sum(),), 0.0)\n",
        "    a = torch.linspace(0, 1, t.sum())\n", "    a = torch.linspace(0, 1, steps=t.sum())\n",
        "    a = torch.zeros(-t.sum())\n",
    };
    for (size_t i = 0; i < sizeof positives / sizeof positives[0]; i++)
        expect_body(positives[i], "GM202", 1);
    /* A graph input (dynamo passes it as a symbolic int), ints, a value that is no size. */
    const char *negatives[] = {
        "    a = torch.arange(t)\n",
        "    a = torch.zeros(t, 2)\n",
        "    a = torch.zeros(x.shape[0], x.shape[1] + 1)\n",
        "    a = torch.arange(x.size(0) * 2)\n",
        "    a = torch.ones(x.shape[0]) * t.sum()\n", /* arithmetic outside the call */
        "    a = torch.arange(x.sum()) if not torch.compiler.is_compiling() else None\n",
    };
    for (size_t i = 0; i < sizeof negatives / sizeof negatives[0]; i++)
        expect_body(negatives[i], "GM202", 0);
    AT_EXPECT("import torch\ndef g(t: torch.Tensor):\n    return torch.arange(t.sum())\n", "GM202",
              0);
}

/* Tensor methods that need ints. */
static void method_sizes(void) {
    const char *positives[] = {
        "    a = x.new_zeros(t.sum(), 2)\n",
        "    a = x.new_ones((t.sum(), 2))\n",
        "    a = x.new_empty(size=(2, t.max()))\n",
        "    a = x.new_full((t.sum(),), 1.0)\n",
        "    a = x.view(t.sum(), -1)\n",
        "    a = x.reshape(-1, t.max())\n",
        "    a = x.reshape(shape=(t.max(), -1))\n",
        "    a = x.expand(t.sum(), 4)\n",
        "    a = x.repeat(t.max(), 1)\n",
        "    a = x.narrow(0, 0, t.sum())\n",
        "    a = x.narrow(-1, t, x.size(-1) - t)\n", /* corpus: narrow_length_from_tensor.py */
        "    a = x.split(t.max())\n",
        "    a = x.split(split_size=t.max())\n",
    };
    for (size_t i = 0; i < sizeof positives / sizeof positives[0]; i++)
        expect_body(positives[i], "GM202", 1);
    const char *negatives[] = {
        "    a = x.narrow(-1, 0, t)\n", /* a graph input: a symbolic int */
        "    a = x.view(x.shape[0], -1)\n",
        "    a = x.reshape(x.size(0), 2, -1)\n",
        "    a = x.new_zeros(len(x), 2)\n",
    };
    for (size_t i = 0; i < sizeof negatives / sizeof negatives[0]; i++)
        expect_body(negatives[i], "GM202", 0);
}

/* Elements of a tensor a `for` loop iterates over are made in the graph (a select); elements of
 * a Python list of ints are ints. */
static void loop_elements(void) {
    expect_body("    shapes = x.long()\n    for h, w in shapes:\n        y = x.new_zeros(h, w)\n",
                "GM202", 1);
    expect_body("    shapes = x.long()\n    for h in shapes:\n        y = torch.zeros(h)\n",
                "GM202", 1);
    expect_body("    shapes = x.long()\n    for i, (h, w) in enumerate(shapes):\n"
                "        y = torch.linspace(0.5, h - 0.5, h)\n",
                "GM202", 1);
    /* corpus: size_from_tensor_elements.py, the list branch */
    expect_body("    for h, w in [(2, 2), (1, 4)]:\n        y = torch.linspace(0.5, h - 0.5, h)\n"
                "        z = x.new_zeros(h, w)\n",
                "GM202", 0);
    expect_body("    for k in [2, 3]:\n        y = torch.zeros(k)\n", "GM202", 0);
    expect_body("    for k in range(4):\n        y = torch.arange(k)\n", "GM202", 0);
    expect_body("    for k in x.shape:\n        y = torch.zeros(k)\n", "GM202", 0);
    /* an annotation alone is no proof the elements are made in the graph (RT-DETRv2 passes a
     * list of int pairs to a `Tensor` parameter) */
    expect_body("    for h, w in t:\n        y = x.new_zeros(h, w)\n", "GM202", 0);
    /* the element of a tensor in a loop skips the frame: the later print is not reported */
    expect_body("    shapes = x.long()\n    for h in shapes:\n        y = torch.zeros(h)\n"
                "    print(y)\n",
                "GM401", 0);
}

/* A tensor slice bound: read with Tensor.item(), and dynamo runs the whole function eagerly. */
static void slice_bounds(void) {
    expect_body("    p = t.sum()\n    y = x[:, p : p + 4]\n", "GM202", 1);
    expect_body("    y = x[:t]\n", "GM202", 1); /* a graph input counts too */
    expect_body("    y = x[t.sum() :]\n", "GM202", 1);
    expect_body("    y = x[::t.max()]\n", "GM202", 1);
    expect_body("    y = x[: t, : t]\n", "GM202", 1); /* one finding per subscript */
    expect_body("    y = x[1:3]\n    z = x[: x.shape[0] // 2]\n    w = x[x.shape[1] :, 0]\n",
                "GM202", 0);
    expect_body("    y = x[: len(x)]\n    z = x[: x.size(0) - 1]\n", "GM202", 0);
    expect_body("    y = x[: t] if not torch.compiler.is_compiling() else x\n", "GM202", 0);
    /* inside a for loop dynamo also reports the loop's header, where it stops compiling; a
     * `.item()` in a loop does not make it (the frame is skipped cleanly) */
    expect_body("    for i in range(2):\n        y = x[:t]\n", "GM202", 2);
    expect_body("    for a, c in zip(t, t):\n        x[a:c] = 0\n", "GM202", 2);
    expect_body("    for i in range(2):\n        y = t.sum().item()\n", "GM202", 0);
    /* the frame is skipped: later breaks of the function are not reported */
    expect_body("    y = x[:t]\n    print(y)\n    z = x.sum().item()\n", "GM401", 0);
    expect_body("    y = x[:t]\n    print(y)\n    z = x.sum().item()\n", "GM201", 0);
    expect_body("    y = x[:2]\n    print(y)\n", "GM401", 1);
    /* in one branch of a Python test the analysis cannot decide, the skip holds on that path
     * only: the code after the if is traced on the others, and its breaks are reported */
    expect_body("    if n:\n        y = x[:t]\n    print(x)\n", "GM401", 1);
    expect_body("    if n:\n        y = x[:t]\n    elif m:\n        pass\n    print(x)\n",
                "GM401", 1);
    /* ... but not when every branch skips it */
    expect_body("    if n:\n        y = x[:t]\n    else:\n        z = x[:t]\n    print(x)\n",
                "GM401", 0);
    expect_body("    if n:\n        y = x[:t]\n    elif m:\n        y = x[:t]\n"
                "    else:\n        z = x[:t]\n    print(x)\n",
                "GM401", 0);
    /* only that function: the next one is traced on its own */
    AT_EXPECT(HEAD "    y = x[:t]\n    print(y)\n@torch.compile\ndef g(x):\n    print(x)\n",
              "GM401", 1);
}

/* Indexing with a 0-d tensor made in the graph reads its value; a 1-d index tensor is advanced
 * indexing and traces; a graph input is passed as a symbolic int. */
static void zero_dim_index(void) {
    expect_body("    h = x * 2\n    y = h[h.argmax() // 8]\n", "GM202", 1);
    /* held in a local: the same, unless a predicted break lies between (then it is an input) */
    expect_body("    row = x.argmax() // 8\n    y = x[row]\n", "GM202", 1);
    expect_body("    row = x.argmax() // 8\n    print(row)\n    y = x[row]\n", "GM202", 0);
    expect_body("    rows = x.argmax(dim=1)\n    y = x[rows]\n", "GM202", 0);
    /* sizes likewise */
    expect_body("    n = t.sum() + 1\n    a = torch.arange(n)\n", "GM202", 1);
    expect_body("    n = t.sum() + 1\n    print(n)\n    a = torch.arange(n)\n", "GM202", 0);
    expect_body("    y = x[x.sum()]\n", "GM202", 1);
    expect_body("    y = x[-x.argmax()]\n", "GM202", 1);
    expect_body("    y = x[t.max() + 1]\n", "GM202", 1);
    expect_body("    y = [1, 2][x.argmin()]\n", "GM202", 1); /* a list reads it too */
    expect_body("    y = x[torch.tensor([0, 1])]\n", "GM202", 0);
    expect_body("    y = x[t]\n    w = x[0]\n    v = x[x.shape[0] - 1]\n", "GM202", 0);
    expect_body("    y = x[x.argmax(dim=1)]\n    z = x[t.sum(0)]\n", "GM202", 0);
    /* an element of a 1-d tensor by its making is 0-d; of one of unknown rank it is not */
    expect_body("    order = torch.arange(8)\n    y = x[order[0]]\n", "GM202", 1);
    expect_body("    y = x[:, torch.tensor([3, 1]).long()[-1]]\n", "GM202", 1);
    expect_body("    flat = t.flatten()\n    y = x[flat[1]]\n", "GM202", 1);
    expect_body("    y = x[t.view(-1)[0]]\n", "GM202", 1);
    expect_body("    y = x[t[0]]\n    z = x[torch.tensor([[1], [2]])[0]]\n", "GM202", 0);
    expect_body("    y = x[t.view(2, -1)[0]]\n    z = x[torch.arange(8)[1:]]\n", "GM202", 0);
}

/* An element of a 1-d tensor kept in an attribute: every assignment of it in the class's
 * methods must make one (a conversion of itself keeps it). */
static void one_dim_attributes(void) {
    const char *head = "import torch\n"
                       "class S:\n"
                       "    def set_timesteps(self, device=None):\n";
    const char *tail = "    @torch.compile\n"
                       "    def sigma(self, table):\n"
                       "        return table[self.timesteps[0]]\n";
    char src[1024];
    snprintf(src, sizeof src, "%s%s%s", head,
             "        self.timesteps = torch.tensor([9, 4], device=device)\n"
             "        self.timesteps = self.timesteps.to(device)\n",
             tail);
    AT_EXPECT(src, "GM202", 1);
    snprintf(src, sizeof src, "%s%s%s", head,
             "        self.timesteps = torch.tensor([9, 4])\n"
             "    def reset(self, grid):\n"
             "        self.timesteps = grid\n",
             tail);
    AT_EXPECT(src, "GM202", 0);
    snprintf(src, sizeof src, "%s%s%s", head, "        self.timesteps = torch.tensor([[9, 4]])\n",
             tail);
    AT_EXPECT(src, "GM202", 0);
}

/* `==`/`!=` between a display holding a tensor and a sequence: GM101 (corpus:
 * control_flow/list_compare_with_tensor.py). */
static void sequence_comparisons(void) {
    expect_body("    m = t.max()\n    assert list(x.size()) == [b, m, s]\n", "GM101", 1);
    expect_body("    m = t.max()\n    assert list(x.size()) == [b, m], f'bad {x.size()}'\n",
                "GM101", 1);
    expect_body("    m = t.max()\n    assert tuple(x.shape) == (b, m), 'bad'\n", "GM101", 1);
    expect_body("    m = t.max()\n    ok = list(x.size()) != [b, m]\n", "GM101", 1);
    expect_body("    m = t.max()\n    if [b, m] == list(x.shape):\n        x = x + 1\n", "GM101",
                1);
    expect_body("    ok = [b, t] == list(x.shape)\n", "GM101", 1);
    /* all ints, not equality, not a sequence */
    expect_body(
        "    assert list(x.size()) == [x.shape[0], 8]\n    assert list(x.size()) == [4, 8], 'no'\n"
        "    assert x.size() == (4, x.shape[1])\n",
        "GM101", 0);
    expect_body("    m = t.max()\n    ok = [b, m] is not None\n", "GM101", 0);
    expect_body("    ok = [4, 8] == [4, 8]\n    c = [x.shape[0], 2] == list(x.shape)\n", "GM101",
                0);
    expect_body("    list = make()\n    m = t.max()\n    assert list(x.size()) == [b, m]\n",
                "GM101", 0);
    /* the finding is at the comparison */
    const char *src = HEAD "    m = t.max()\n    assert list(x.size()) == [b, m, s]\n";
    gm_finding_list l = at_analyze(src);
    const gm_finding *f = at_find(&l, "GM101", 0);
    CHECK(f && strcmp(at_span_text(src, f), "list(x.size()) == [b, m, s]") == 0);
    CHECK(f && strstr(f->message, "list_richcompare_nonconst") != NULL);
    gm_finding_list_free(&l);
}

static void messages_and_spans(void) {
    const char *src = HEAD "    a = x.narrow(-1, t, x.size(-1) - t)\n    y = x[:, t : t + 4]\n";
    gm_finding_list l = at_analyze(src);
    CHECK_EQ_INT(at_count(&l, "GM202"), 2);
    const gm_finding *a = at_find(&l, "GM202", 0), *b = at_find(&l, "GM202", 1);
    CHECK(a && strcmp(at_span_text(src, a), "x.narrow(-1, t, x.size(-1) - t)") == 0);
    CHECK(a && strstr(a->message, "`x.narrow(-1, t, x.size(-1) - t)` is passed a tensor") != NULL);
    CHECK(b && strcmp(at_span_text(src, b), "x[:, t : t + 4]") == 0);
    CHECK(b && strstr(b->message, "`x[:, t : t + 4]` has a tensor as a slice bound, `t`") != NULL);
    CHECK(b && strstr(b->message, "whole function runs eagerly") != NULL);
    gm_finding_list_free(&l);
    expect_body("    a = torch.arange(x.sum())  # graphmend: ignore[GM202]\n", "GM202", 0);
}

/* The capture mend (analysis/mends/capture_scalars.c): an unsafe fix that switches
 * capture_scalar_outputs on after the imports, for a slice bound (and the loop header's companion
 * break) and a factory's size; none for the shape of view, reshape, expand or repeat, which dynamo
 * checks against the tensor's own size. Applied, the file predicts no GM202 there any more. */
static void capture_mend(void) {
    const char *bodies[] = {
        "    for e in range(2):\n        a = t[e]\n        y = x[a:a + 1]\n    return x\n",
        "    return torch.arange(t.max())\n",
        "    return x.narrow(0, 0, t.sum())\n",
    };
    for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
        char src[1024];
        snprintf(src, sizeof src, "%s%s", HEAD, bodies[i]);
        gm_finding_list l = at_analyze(src);
        CHECK(at_count(&l, "GM202") >= 1);
        for (size_t k = 0; k < at_count(&l, "GM202"); k++) {
            const gm_fix *fix = at_fix(at_find(&l, "GM202", k), GM_FIX_KIND_MEND);
            CHECK(fix && fix->applicability == GM_FIX_UNSAFE && fix->edit_count == 1);
            if (!fix)
                continue;
            CHECK(strncmp(fix->edits[0].replacement,
                          "torch._dynamo.config.capture_scalar_outputs = True\n", 51) == 0);
            char *mended = at_apply(src, fix);
            CHECK(mended && at_parses_cleanly(mended));
            CHECK(mended && strstr(mended, "import torch\ntorch._dynamo.config."
                                           "capture_scalar_outputs = True\n"));
            if (mended)
                AT_EXPECT(mended, "GM202", 0);
            free(mended);
        }
        gm_finding_list_free(&l);
    }
    const char *no_capture[] = {
        "    return x.view(t.sum(), -1)\n",
        "    return x.reshape(t.max(), 2)\n",
        "    return x.expand(t.sum(), 3)\n",
    };
    for (size_t i = 0; i < sizeof no_capture / sizeof no_capture[0]; i++) {
        char src[1024];
        snprintf(src, sizeof src, "%s%s", HEAD, no_capture[i]);
        gm_finding_list l = at_analyze(src);
        const gm_finding *f = at_find(&l, "GM202", 0);
        CHECK(f && !at_fix(f, GM_FIX_KIND_MEND) && f->mend_declined &&
              strstr(f->mend_declined, "take the int from a shape"));
        gm_finding_list_free(&l);
    }
}

/* The operators of the generated table (tools/gen-int-parameters): a tensor made in the graph
 * where the schema takes an int, by position (a method's receiver is the schema's self) or
 * keyword; a graph input, a Tensor-taking argument and a module that is not torch add nothing. */
static void schema_int_parameters(void) {
    const char *positives[] = {
        "    a = x.topk(t.argmax() + 1)\n",
        "    a = x.topk(k=t.sum().long())\n",
        "    a = torch.topk(x, t.argmax())\n",
        "    a = torch.chunk(x, t.max().int() + 1)\n",
        "    a = x.roll(t.argmin())\n",
        "    a = torch.randint(0, t.argmax() + 2, (2,))\n",
        "    a = torch.nn.functional.pad(x, (0, t.argmax()))\n",
        "    a = x.tril(diagonal=t.argmax())\n",
        "    a = torch.narrow(x, 0, t.argmax(), 1)\n",
        "    for i in range(t.argmax()):\n        pass\n",
    };
    for (size_t i = 0; i < sizeof positives / sizeof positives[0]; i++)
        expect_body(positives[i], "GM202", 1);
    const char *negatives[] = {
        "    a = x.topk(t)\n",                            /* a graph input: a symbolic int */
        "    a = x.index_select(0, t.argmax().view(1))\n", /* the index is a Tensor there */
        "    a = x.topk(3)\n",
        "    a = torch.roll(x, 2)\n",
        "    a = b.view(t.argmax())\n", /* b is no known tensor: ndarrays have view too */
        "    a = x.add(t.sum())\n",
    };
    for (size_t i = 0; i < sizeof negatives / sizeof negatives[0]; i++)
        expect_body(negatives[i], "GM202", 0);
    AT_EXPECT("import torch\nimport mylib\n@torch.compile\ndef f(x: torch.Tensor):\n"
              "    return mylib.roll(x, x.argmax())\n",
              "GM202", 0); /* mylib.roll is no torch operator */
    /* the table is sorted (its lookup is a binary search) and holds what the schemas say */
    for (size_t i = 1; i < gm_int_parameter_op_count; i++)
        CHECK(strcmp(gm_int_parameter_ops[i - 1].name, gm_int_parameter_ops[i].name) < 0);
    bool found = false;
    for (size_t i = 0; i < gm_int_parameter_op_count; i++) {
        const gm_int_parameter_op *op = &gm_int_parameter_ops[i];
        if (strcmp(op->name, "topk") != 0)
            continue;
        found = true;
        CHECK(op->positions & 2u); /* topk(Tensor self, SymInt k, ...) */
        CHECK(!(op->positions & 1u));
        CHECK(op->forms & GM_INT_METHOD && op->forms & GM_INT_FUNCTION);
    }
    CHECK(found);
}

int main(void) {
    schema_int_parameters();
    torch_sizes();
    method_sizes();
    loop_elements();
    slice_bounds();
    zero_dim_index();
    one_dim_attributes();
    sequence_comparisons();
    messages_and_spans();
    capture_mend();
    return check_exit_code("analysis/rules/tensor_as_int");
}
