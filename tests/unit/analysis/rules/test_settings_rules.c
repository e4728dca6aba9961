/* How the dynamo settings and the PyTorch version change the findings: allow_rnn,
 * reorderable_logging_functions, ignore_logging_functions, fullgraph (the setting and
 * fullgraph=True at the compile site), nested_graph_breaks, and version-dependent texts. */
#include <stdlib.h>
#include <string.h>

#include "check.h"

#include "analysis_test.h"

#define HEAD                                                                                       \
    "import logging\n"                                                                             \
    "import sys\n"                                                                                 \
    "import warnings\n"                                                                            \
    "import torch\n"                                                                               \
    "logger = logging.getLogger(__name__)\n"                                                       \
    "@torch.compile\n"                                                                             \
    "def f(x: torch.Tensor):\n"

static gm_finding_list analyze_body(const char *body, const gm_analysis_options *o) {
    static char src[4096];
    snprintf(src, sizeof src, "%s%s", HEAD, body);
    return at_analyze_with(src, o);
}

static size_t count_body(const char *body, const gm_analysis_options *o, const char *rule) {
    gm_finding_list l = analyze_body(body, o);
    size_t n = at_count(&l, rule);
    gm_finding_list_free(&l);
    return n;
}

static void set_names(gm_function_names *names, const char *a, const char *b) {
    const char *items[] = {a, b};
    CHECK(gm_function_names_set(names, items, b ? 2 : 1, NULL, 0) == 0);
}

static void allow_rnn(void) {
    const char *src = "import torch\nfrom torch import nn\nclass M(nn.Module):\n"
                      "    def __init__(self):\n        super().__init__()\n"
                      "        self.rnn = nn.LSTM(4, 4)\n"
                      "    def forward(self, x):\n        y, _ = self.rnn(x)\n        return y\n";
    gm_analysis_options o;
    gm_analysis_options_default(&o);
    gm_finding_list l = at_analyze_with(src, &o);
    CHECK_EQ_INT(at_count(&l, "GM604"), 1);
    gm_finding_list_free(&l);
    o.allow_rnn = true;
    l = at_analyze_with(src, &o);
    CHECK_EQ_INT(at_count(&l, "GM604"), 0);
    gm_finding_list_free(&l);
}

/* The GM401 message of a body with exactly one, or NULL when there is none. */
static const char *print_message(const char *body, const gm_analysis_options *o) {
    static char message[1024];
    gm_finding_list l = analyze_body(body, o);
    const gm_finding *f = at_find(&l, "GM401", 0);
    CHECK(at_count(&l, "GM401") <= 1);
    const char *result = NULL;
    if (f) {
        snprintf(message, sizeof message, "%s", f->message);
        result = message;
    }
    gm_finding_list_free(&l);
    return result;
}

static void reorderable_print(void) {
    const char *m;
    gm_analysis_options o;
    gm_analysis_options_default(&o);
    set_names(&o.reorderable_logging_functions, "print", NULL);
    /* Tensors, constants, format strings and constant keywords are deferred. */
    const char *deferred[] = {
        "    print(x)\n",
        "    print('x', x, 1, 2.5, None, True, -1)\n",
        "    print(f'sum {x.sum()}', x.dim(), x.shape[0], x.dtype)\n",
        "    print('{} rows'.format(x.shape[0]), sep=', ', end='')\n",
        "    print(unknown_value)\n",
    };
    for (size_t i = 0; i < sizeof deferred / sizeof deferred[0]; i++) {
        m = print_message(deferred[i], &o);
        CHECK(m == NULL);
        if (m)
            fprintf(stderr, "deferred body %s got: %s\n", deferred[i], m);
    }
    /* Arguments dynamo cannot defer: GB0296 at the call. */
    const char *not_deferrable[] = {
        "    print('y', x, file=sys.stderr)\n",
        "    print(x.shape)\n",
        "    print(x.size())\n",
        "    print([x, x])\n",
        "    print((x, 1))\n",
        "    print({'a': x})\n",
        "    print(str(x))\n",
        "    print(ValueError)\n",
    };
    for (size_t i = 0; i < sizeof not_deferrable / sizeof not_deferrable[0]; i++) {
        m = print_message(not_deferrable[i], &o);
        CHECK(m && strstr(m, "GB0296") && strstr(m, "reorderable_logging_functions"));
        if (!m)
            fprintf(stderr, "not deferrable body %s got nothing\n", not_deferrable[i]);
    }
    /* A captured .item() is symbolic and cannot be deferred; an uncaptured one breaks at
     * .item() (GM201) and the print gets a constant. */
    CHECK(print_message("    print(x.sum().item())\n", &o) == NULL);
    o.capture_scalar_outputs = true;
    m = print_message("    print(x.sum().item())\n", &o);
    CHECK(m && strstr(m, "GB0296"));
    o.capture_scalar_outputs = false;
    /* A local binding of a class name is not the builtin class. */
    CHECK(print_message("    ValueError = x\n    print(ValueError)\n", &o) == NULL);
    /* "builtins.print" names the same function. */
    set_names(&o.reorderable_logging_functions, "builtins.print", NULL);
    CHECK(print_message("    print(x)\n", &o) == NULL);
    /* The setting came with torch 2.3. */
    o.torch_version = 202;
    CHECK(print_message("    print(x)\n", &o) != NULL);
    /* Without the setting print breaks as before, with the mend still offered. */
    gm_analysis_options_default(&o);
    m = print_message("    print(x)\n", &o);
    CHECK(m && !strstr(m, "GB0296"));
}

static void ignored_calls(void) {
    gm_analysis_options o;
    gm_analysis_options_default(&o);
    set_names(&o.ignore_logging_functions, "logging.Logger.info", "print");
    CHECK_EQ_INT(count_body("    logger.info('a %s', x)\n", &o, "GM402"), 0);
    CHECK_EQ_INT(count_body("    logger.warning('a')\n", &o, "GM402"), 1);
    CHECK_EQ_INT(count_body("    logging.info('a')\n", &o, "GM402"), 1);
    CHECK_EQ_INT(count_body("    print([x], file=sys.stderr)\n", &o, "GM401"), 0);
    set_names(&o.ignore_logging_functions, "logging.info", "warnings.warn");
    CHECK_EQ_INT(count_body("    logging.info('a')\n    logging.warning('b')\n", &o, "GM402"), 1);
    CHECK_EQ_INT(count_body("    warnings.warn('a', UserWarning)\n", &o, "GM403"), 0);
    /* Before 2.10 the set (ignore_logger_methods) only held Logger methods; before 2.6 there
     * was none. */
    o.torch_version = 209;
    CHECK_EQ_INT(count_body("    warnings.warn('a')\n", &o, "GM403"), 1);
    set_names(&o.ignore_logging_functions, "logging.Logger.info", NULL);
    CHECK_EQ_INT(count_body("    logger.info('a')\n", &o, "GM402"), 0);
    o.torch_version = 205;
    CHECK_EQ_INT(count_body("    logger.info('a')\n", &o, "GM402"), 1);
    /* Logger methods are not deferred by reorderable_logging_functions on 2.13. */
    gm_analysis_options_default(&o);
    set_names(&o.reorderable_logging_functions, "logging.Logger.info", NULL);
    CHECK_EQ_INT(count_body("    logger.info('a')\n", &o, "GM402"), 1);
    /* ...while module functions and warnings.warn are. */
    set_names(&o.reorderable_logging_functions, "logging.info", "warnings.warn");
    CHECK_EQ_INT(count_body("    logging.info('a %s', x)\n", &o, "GM402"), 0);
    CHECK_EQ_INT(count_body("    warnings.warn(f'bad {x}')\n", &o, "GM403"), 0);
    CHECK_EQ_INT(count_body("    warnings.warn('a', UserWarning)\n", &o, "GM403"), 1);
}

static void logger_message_names_the_config_key(void) {
    gm_analysis_options o;
    gm_analysis_options_default(&o);
    gm_finding_list l = analyze_body("    logger.info('a')\n", &o);
    const gm_finding *f = at_find(&l, "GM402", 0);
    CHECK(f && strstr(f->message, "logging.Logger.info") &&
          strstr(f->message, "config.ignore_logging_functions"));
    gm_finding_list_free(&l);
    o.torch_version = 209;
    l = analyze_body("    logger.info('a')\n", &o);
    f = at_find(&l, "GM402", 0);
    CHECK(f && strstr(f->message, "config.ignore_logger_methods"));
    gm_finding_list_free(&l);
    o.torch_version = 205; /* no ignore set yet */
    l = analyze_body("    logger.info('a')\n", &o);
    f = at_find(&l, "GM402", 0);
    CHECK(f && !strstr(f->message, "torch._dynamo.config"));
    gm_finding_list_free(&l);
}

/* warnings.warn with constant arguments is reordered by default from torch 2.14. */
static void warnings_by_version(void) {
    gm_analysis_options o;
    gm_analysis_options_default(&o);
    CHECK_EQ_INT(count_body("    warnings.warn('a')\n", &o, "GM403"), 1);
    o.torch_version = 214;
    CHECK_EQ_INT(count_body("    warnings.warn('a')\n", &o, "GM403"), 0);
    CHECK_EQ_INT(count_body("    warnings.warn('a', stacklevel=2)\n", &o, "GM403"), 0);
    CHECK_EQ_INT(count_body("    warnings.warn(f'a {x}')\n", &o, "GM403"), 1);
    CHECK_EQ_INT(count_body("    warnings.warn('a', UserWarning)\n", &o, "GM403"), 1);
}

static void fullgraph(void) {
    gm_analysis_options o;
    gm_analysis_options_default(&o);
    const char *body = "    n = x.sum().item()\n    idx = torch.nonzero(x)\n"
                       "    for i in range(2):\n        print(i)\n    return x * n\n";
    gm_finding_list l = analyze_body(body, &o);
    CHECK_EQ_INT(at_count(&l, "GM201"), 1);
    CHECK_EQ_INT(at_count(&l, "GM301"), 1);
    const gm_finding *p = at_find(&l, "GM401", 0);
    CHECK(p && gm_finding_severity(p) == GM_SEVERITY_WARNING && strstr(p->message, "loop"));
    gm_finding_list_free(&l);

    o.fullgraph = true;
    l = analyze_body(body, &o);
    CHECK_EQ_INT(at_count(&l, "GM201"), 0); /* fullgraph captures scalars from 2.10 */
    CHECK_EQ_INT(at_count(&l, "GM301"), 0);
    p = at_find(&l, "GM401", 0);
    CHECK(p && gm_finding_severity(p) == GM_SEVERITY_ERROR);
    CHECK(p && strstr(p->message, "fullgraph=True") && strstr(p->message, "Unsupported"));
    CHECK(p && !strstr(p->message, "loop") && !strstr(p->message, "separate graphs"));
    gm_finding_list_free(&l);

    /* A rule's own "cannot resume" clause gives way to the fullgraph one. */
    l = analyze_body("    with open('f') as fh:\n        pass\n", &o);
    const gm_finding *o503 = at_find(&l, "GM503", 0);
    CHECK(o503 && !strstr(o503->message, "eagerly") && !strstr(o503->message, ",;") &&
          strstr(o503->message, "fullgraph=True"));
    gm_finding_list_free(&l);

    o.torch_version = 209;
    l = analyze_body(body, &o);
    CHECK_EQ_INT(at_count(&l, "GM201"), 1);
    CHECK_EQ_INT(at_count(&l, "GM301"), 1);
    CHECK(gm_finding_severity(at_find(&l, "GM201", 0)) == GM_SEVERITY_ERROR);
    gm_finding_list_free(&l);
}

/* fullgraph=True at the compile site makes that region's breaks errors, not another's. */
static void fullgraph_site(void) {
    const char *src = "import torch\n"
                      "@torch.compile(fullgraph=True)\n"
                      "def f(x: torch.Tensor):\n"
                      "    print(x)\n"
                      "    return x.sum().item()\n"
                      "@torch.compile\n"
                      "def g(x: torch.Tensor):\n"
                      "    print(x)\n"
                      "    return x.sum().item()\n";
    gm_analysis_options o;
    gm_analysis_options_default(&o);
    gm_finding_list l = at_analyze_with(src, &o);
    CHECK_EQ_INT(at_count(&l, "GM401"), 2);
    CHECK_EQ_INT(at_count(&l, "GM201"), 1);
    const gm_finding *in_f = at_find(&l, "GM401", 0), *in_g = at_find(&l, "GM401", 1);
    CHECK(in_f && in_f->span.start.row == 3 && gm_finding_severity(in_f) == GM_SEVERITY_ERROR);
    CHECK(in_g && in_g->span.start.row == 7 && gm_finding_severity(in_g) == GM_SEVERITY_WARNING);
    const gm_finding *item = at_find(&l, "GM201", 0);
    CHECK(item && item->span.start.row == 8);
    /* The override survives the copies the incremental analyzer makes. */
    gm_finding copy;
    CHECK(in_f && gm_finding_copy_shifted(in_f, &copy, 3, 1) == 0);
    CHECK(copy.severity == GM_SEVERITY_ERROR);
    gm_finding_free(&copy);
    gm_finding_list_free(&l);
}

static void nested_graph_breaks(void) {
    const char *body = "    try:\n        print(x)\n    finally:\n        pass\n";
    gm_analysis_options o;
    gm_analysis_options_default(&o);
    const char *m = print_message(body, &o);
    CHECK(m && strstr(m, "falls back to eager") && !strstr(m, "nested"));
    o.nested_graph_breaks = GM_NESTED_ON;
    m = print_message(body, &o);
    CHECK(m && strstr(m, "with nested graph breaks a compiled caller"));
    o.nested_graph_breaks = GM_NESTED_DEFAULT;
    o.torch_version = 214;
    m = print_message(body, &o);
    CHECK(m && strstr(m, "nested graph breaks"));
    /* A loop skips the frame either way. */
    m = print_message("    for i in range(2):\n        print(i)\n", &o);
    CHECK(m && strstr(m, "inside a loop"));
}

static void options_compare(void) {
    gm_analysis_options a, b;
    gm_analysis_options_default(&a);
    gm_analysis_options_default(&b);
    CHECK(gm_analysis_options_equal(&a, &b));
    b.allow_rnn = true;
    CHECK(!gm_analysis_options_equal(&a, &b));
    gm_analysis_options_default(&b);
    b.fullgraph = true;
    CHECK(!gm_analysis_options_equal(&a, &b));
    gm_analysis_options_default(&b);
    b.nested_graph_breaks = GM_NESTED_OFF;
    CHECK(!gm_analysis_options_equal(&a, &b));
    gm_analysis_options_default(&b);
    set_names(&b.reorderable_logging_functions, "print", NULL);
    CHECK(!gm_analysis_options_equal(&a, &b));
    set_names(&a.reorderable_logging_functions, "print", NULL);
    CHECK(gm_analysis_options_equal(&a, &b));
    set_names(&b.ignore_logging_functions, "print", NULL);
    CHECK(!gm_analysis_options_equal(&a, &b));
}

/* The analyzer's cache follows a settings change. */
static void analyzer_follows_settings(void) {
    const char *src = HEAD "    print(x)\n    return x\n";
    TSParser *parser = gm_python_parser_new(0);
    TSTree *tree = gm_python_parse(parser, NULL, src, strlen(src));
    gm_analyzer *a = gm_analyzer_new();
    gm_analysis_options o;
    gm_analysis_options_default(&o);
    CHECK_EQ_INT(gm_analyzer_run(a, tree, src, strlen(src), &o)->count, 1);
    set_names(&o.ignore_logging_functions, "print", NULL);
    CHECK_EQ_INT(gm_analyzer_run(a, tree, src, strlen(src), &o)->count, 0);
    gm_analysis_options_default(&o);
    o.fullgraph = true;
    const gm_finding_list *l = gm_analyzer_run(a, tree, src, strlen(src), &o);
    CHECK(l->count == 1 && gm_finding_severity(&l->items[0]) == GM_SEVERITY_ERROR);
    gm_analyzer_free(a);
    gm_tree_delete(tree);
    ts_parser_delete(parser);
}

/* A file that sets capture_scalar_outputs itself (the capture mend's line): a module-level
 * `torch._dynamo.config.capture_scalar_outputs = True` turns GM201/GM202 off for the file, as
 * the setting does; False, a line inside a function, or another module's config do not; the
 * .tolist() whose list sizes a split gets the unsafe capture mend, and the analyzer's cache
 * follows the line's coming and going. */
static void file_sets_capture_scalar_outputs(void) {
#define BODY                                                                                       \
    "@torch.compile\n"                                                                             \
    "def f(x: torch.Tensor, c: torch.Tensor):\n"                                                   \
    "    sizes = c.tolist()\n"                                                                     \
    "    return x.split(sizes, dim=0)\n"
    const char *plain = "import torch\n" BODY;
    const char *on = "import torch\ntorch._dynamo.config.capture_scalar_outputs = True\n" BODY;
    const char *aliased = "import torch as th\nth._dynamo.config.capture_scalar_outputs = True\n"
                          "torch = th\n" BODY;
    const char *off = "import torch\ntorch._dynamo.config.capture_scalar_outputs = False\n" BODY;
    const char *nested = "import torch\ndef setup():\n"
                         "    torch._dynamo.config.capture_scalar_outputs = True\n" BODY;
    const char *other =
        "import torch\ntorch._dynamo.config.capture_dynamic_output_shape_ops = True\n" BODY;
    AT_EXPECT(plain, "GM202", 1);
    AT_EXPECT(on, "GM202", 0);
    AT_EXPECT(aliased, "GM202", 0);
    AT_EXPECT(off, "GM202", 1);
    AT_EXPECT(nested, "GM202", 1);
    AT_EXPECT(other, "GM202", 1);
    /* torch imported only under a condition: the line after the imports might not find it */
    const char *guarded[] = {
        "import sys\nif sys.version_info >= (3, 8):\n    import torch\n" BODY,
        "try:\n    import torch\nexcept ImportError:\n    pass\n" BODY,
    };
    for (size_t i = 0; i < sizeof guarded / sizeof guarded[0]; i++) {
        gm_finding_list g = at_analyze(guarded[i]);
        CHECK(at_find(&g, "GM202", 0) && !at_fix(at_find(&g, "GM202", 0), GM_FIX_KIND_MEND));
        gm_finding_list_free(&g);
    }
    gm_finding_list l = at_analyze(plain);
    const gm_fix *fix = at_fix(at_find(&l, "GM202", 0), GM_FIX_KIND_MEND);
    CHECK(fix && fix->applicability == GM_FIX_UNSAFE);
    if (fix) {
        char *mended = at_apply(plain, fix);
        CHECK(mended && strncmp(mended, on, strlen("import torch\ntorch._dynamo.config."
                                                   "capture_scalar_outputs = True\n")) == 0);
        if (mended)
            AT_EXPECT(mended, "GM202", 0);
        free(mended);
    }
    gm_finding_list_free(&l);
    /* the list as the split's own argument, by keyword and through torch.split */
    const char *inline_splits[] = {
        "    return x.split(c.tolist())\n",
        "    return x.split(split_size=c.tolist(), dim=0)\n",
        "    return torch.split(x, c.tolist())\n",
    };
    for (size_t i = 0; i < sizeof inline_splits / sizeof inline_splits[0]; i++) {
        char src[512];
        snprintf(src, sizeof src,
                 "import torch\n@torch.compile\ndef f(x: torch.Tensor, c: torch.Tensor):\n%s",
                 inline_splits[i]);
        l = at_analyze(src);
        const gm_finding *found = at_find(&l, "GM202", 0);
        CHECK(found && at_fix(found, GM_FIX_KIND_MEND) &&
              at_fix(found, GM_FIX_KIND_MEND)->applicability == GM_FIX_UNSAFE);
        gm_finding_list_free(&l);
    }
    /* torch.split takes the sizes second: a list of the tensor split is not its sizes */
    l = at_analyze("import torch\n@torch.compile\ndef f(x: torch.Tensor, c: torch.Tensor):\n"
                   "    return torch.split(c.tolist(), 2)\n");
    CHECK(at_find(&l, "GM202", 0) && !at_fix(at_find(&l, "GM202", 0), GM_FIX_KIND_MEND));
    gm_finding_list_free(&l);
    /* the list also used as a number: no capture mend */
    AT_EXPECT("import torch\n@torch.compile\ndef f(x: torch.Tensor, c: torch.Tensor):\n"
              "    sizes = c.tolist()\n    return x.split(sizes, dim=0), sizes[0] > 1\n",
              "GM202", 1);
    l = at_analyze("import torch\n@torch.compile\ndef f(x: torch.Tensor, c: torch.Tensor):\n"
                   "    sizes = c.tolist()\n    if sizes[0] > 1:\n        x = x * 2\n"
                   "    return x.split(sizes, dim=0)\n");
    CHECK(at_find(&l, "GM202", 0) && !at_fix(at_find(&l, "GM202", 0), GM_FIX_KIND_MEND));
    gm_finding_list_free(&l);
    /* one analyzer over the edits: the line added, then taken away */
    const char *texts[] = {plain, on, plain};
    const size_t expected[] = {1, 0, 1};
    TSParser *parser = gm_python_parser_new(0);
    gm_analyzer *a = gm_analyzer_new();
    gm_analysis_options o;
    gm_analysis_options_default(&o);
    TSTree *trees[3];
    for (size_t i = 0; i < 3; i++) {
        trees[i] = gm_python_parse(parser, NULL, texts[i], strlen(texts[i]));
        const gm_finding_list *found =
            gm_analyzer_run(a, trees[i], texts[i], strlen(texts[i]), &o);
        size_t n = 0;
        for (size_t k = 0; k < found->count; k++)
            n += strcmp(found->items[k].rule->id, "GM202") == 0;
        CHECK_EQ_INT(n, expected[i]);
    }
    gm_analyzer_free(a);
    for (size_t i = 0; i < 3; i++)
        gm_tree_delete(trees[i]);
    ts_parser_delete(parser);
#undef BODY
}

int main(void) {
    allow_rnn();
    reorderable_print();
    ignored_calls();
    logger_message_names_the_config_key();
    warnings_by_version();
    fullgraph();
    fullgraph_site();
    nested_graph_breaks();
    options_compare();
    analyzer_follows_settings();
    file_sets_capture_scalar_outputs();
    return check_exit_code("analysis/rules/settings_rules");
}
