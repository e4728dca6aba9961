/* GM402 logger-call and GM403 warnings-warn: logger bindings through import aliases, module
 * functions, shadowing, eager-only guards, regions, catalogue entries and the suppress fix. */
#include <string.h>

#include "check.h"

#include "analysis/rules/catalogue/rule_catalogue.h"
#include "analysis_test.h"

#define HEAD                                                                                       \
    "import logging\n"                                                                             \
    "import warnings\n"                                                                            \
    "import torch\n"                                                                               \
    "logger = logging.getLogger(__name__)\n"                                                       \
    "@torch.compile\n"                                                                             \
    "def f(x):\n"

static void expect_body(const char *body, const char *rule, size_t n) {
    char src[4096];
    snprintf(src, sizeof src, "%s%s", HEAD, body);
    AT_EXPECT(src, rule, n);
}

static void library_loggers(void) {
    /* transformers: `from ...utils import logging; logger = logging.get_logger(__name__)` */
    AT_EXPECT("import torch\nfrom ...utils import logging\nlogger = logging.get_logger(__name__)\n"
              "@torch.compile\ndef f(x):\n    logger.warning_once('deprecated')\n"
              "    logger.info_once('x')\n    return x\n",
              "GM402", 2);
    /* a get_logger of something not named logging is unknown: nothing assumed */
    AT_EXPECT("import torch\nfrom mylib import get_logger\nlogger = get_logger(__name__)\n"
              "@torch.compile\ndef f(x):\n    logger.info('x')\n    return x\n",
              "GM402", 0);
}

static void logger_calls(void) {
    expect_body("    logger.info('a')\n", "GM402", 1);
    expect_body("    logger.debug('a')\n    logger.warning('b')\n    logger.warn('c')\n"
                "    logger.error('d')\n    logger.exception('e')\n    logger.critical('f')\n"
                "    logger.log(logging.INFO, 'g')\n",
                "GM402", 7);
    expect_body("    logging.info('a')\n    logging.warning('b')\n", "GM402", 2);
    expect_body("    y = x if logger.info('a') else x\n", "GM402", 1);
    /* Every Logger method breaks (GB0291), isEnabledFor and setLevel too; getLogger(name)
     * itself breaks (the logger registry), getLogger() returns the root logger and does not. */
    expect_body("    logger.setLevel(10)\n    logger.isEnabledFor(10)\n", "GM402", 2);
    expect_body("    logging.getLogger('x')\n", "GM402", 1);
    expect_body("    logging.getLogger()\n", "GM402", 0);
    expect_body("    lg = logging.getLogger('x')\n    lg.info('a')\n", "GM402", 2);
    expect_body("    logging.getLogger('x').info('a')\n", "GM402", 1);
    /* Not a log method, not a logger, shadowed, eager only. */
    expect_body("    logger.name\n    logger.propagate = False\n", "GM402", 0);
    expect_body("    other.info('a')\n", "GM402", 0);
    expect_body("    logger = make()\n    logger.info('a')\n", "GM402", 0);
    expect_body("    if not torch.compiler.is_compiling():\n        logger.info('a')\n", "GM402",
                0);
    AT_EXPECT("import logging as lg\nimport torch\nlog = lg.getLogger('m')\n"
              "@torch.compile\ndef f(x):\n    log.info('a')\n    lg.error('b')\n",
              "GM402", 2);
    AT_EXPECT("from logging import getLogger\nimport torch\nlog = getLogger()\n"
              "@torch.compile\ndef f(x):\n    log.warning('a')\n",
              "GM402", 1);
    AT_EXPECT("from logging import getLogger\nimport torch\nlog = other.getLogger()\n"
              "@torch.compile\ndef f(x):\n    log.warning('a')\n",
              "GM402", 0);
    AT_EXPECT("import torch\nclass R:\n    def info(self, m):\n        pass\nlogger = R()\n"
              "@torch.compile\ndef f(x):\n    logger.info('a')\n",
              "GM402", 0);
    /* logging not imported: an unrelated name. */
    AT_EXPECT("import torch\n@torch.compile\ndef f(x):\n    logging.info('a')\n", "GM402", 0);
    /* Outside regions. */
    AT_EXPECT("import logging\nimport torch.nn as nn\nlogger = logging.getLogger()\n"
              "logger.info('m')\nclass M(nn.Module):\n    def __init__(self):\n"
              "        logger.info('init')\n",
              "GM402", 0);
}

static void warnings_calls(void) {
    expect_body("    warnings.warn('a')\n", "GM403", 1);
    AT_EXPECT("from warnings import warn\nimport torch\n@torch.compile\ndef f(x):\n"
              "    warn('a')\n",
              "GM403", 1);
    AT_EXPECT("import warnings as w\nimport torch\n@torch.compile\ndef f(x):\n"
              "    w.warn('a', stacklevel=2)\n",
              "GM403", 1);
    AT_EXPECT("import torch\ndef warn(m):\n    pass\n@torch.compile\ndef f(x):\n    warn('a')\n",
              "GM403", 0);
    expect_body("    warnings.simplefilter('ignore')\n", "GM403", 0);
    expect_body("    warnings = None\n    warnings.warn('a')\n", "GM403", 0);
    expect_body("    if torch.jit.is_scripting():\n        warnings.warn('a')\n", "GM403", 0);
}

static void consequences_and_fixes(void) {
    /* two functions: after the break in the loop dynamo skips the rest of f */
    const char *src = HEAD "    for i in range(2):\n        logger.info('a')\n"
                           "@torch.compile\ndef g(x):\n    with make_ctx():\n"
                           "        warnings.warn('b')\n";
    gm_finding_list l = at_analyze(src);
    const gm_finding *a = at_find(&l, "GM402", 0), *b = at_find(&l, "GM403", 0);
    CHECK(a && strstr(a->message, "inside a loop") != NULL);
    CHECK(b && strstr(b->message, "try/with") != NULL);
    CHECK(a && strcmp(at_span_text(src, a), "logger.info('a')") == 0);
    CHECK(a && at_fix(a, GM_FIX_KIND_SUPPRESS) != NULL);
    CHECK(b && at_fix(b, GM_FIX_KIND_SUPPRESS) != NULL);
    gm_finding_list_free(&l);
    expect_body("    logger.info('a')  # graphmend: ignore[GM402]\n", "GM402", 0);

    const gm_rule *r = gm_rule_by_id("GM402");
    CHECK(r != NULL);
    if (r) {
        CHECK_EQ_STR(r->name, "logger-call");
        CHECK_EQ_STR(r->registry_id, "GB0291");
        CHECK_EQ_STR(r->url,
                     "https://meta-pytorch.github.io/compile-graph-break-site/gb/gb0291.html");
        CHECK_EQ_INT(r->severity, GM_SEVERITY_WARNING);
    }
    r = gm_rule_by_id("GM403");
    CHECK(r != NULL);
    if (r) {
        CHECK_EQ_STR(r->name, "warnings-warn");
        CHECK_EQ_STR(r->registry_id, "GB0007");
        CHECK(r->explanation && r->hint && r->gb_type);
    }
}

/* The first mend's title of the only finding of rule in HEAD + body, or "" when none. */
static void expect_first_mend(const char *body, const char *rule, const char *title_part) {
    char src[4096];
    snprintf(src, sizeof src, "%s%s", HEAD, body);
    gm_finding_list l = at_analyze(src);
    const gm_finding *f = at_find(&l, rule, 0);
    const gm_fix *mend = f ? at_fix(f, GM_FIX_KIND_MEND) : NULL;
    CHECK(mend && strstr(mend->title, title_part) != NULL);
    if (!mend || !strstr(mend->title, title_part))
        fprintf(stderr, "  %s: got %s\n", body, mend ? mend->title : "no mend");
    gm_finding_list_free(&l);
}

/* The first mend of the only finding of rule in HEAD + body has the applicability and, when
 * edits is not 0, that many edits. */
static void expect_first_mend_kind(const char *body, const char *rule, gm_applicability kind,
                                   size_t edits) {
    char src[4096];
    snprintf(src, sizeof src, "%s%s", HEAD, body);
    gm_finding_list l = at_analyze(src);
    const gm_finding *f = at_find(&l, rule, 0);
    const gm_fix *mend = f ? at_fix(f, GM_FIX_KIND_MEND) : NULL;
    CHECK(mend && mend->applicability == kind && (edits == 0 || mend->edit_count == edits));
    if (!mend || mend->applicability != kind || (edits && mend->edit_count != edits))
        fprintf(stderr, "  %s: got %s\n", body, mend ? mend->title : "no mend");
    gm_finding_list_free(&l);
}

static void mends(void) {
    /* Safe: a Logger method or warnings.warn with a message and no tensor goes through a
     * function of the file that it adds to reorderable_logging_functions (two edits: the call
     * and the function after the imports). */
    expect_first_mend("    warnings.warn('slow path')\n", "GM403", "call a function of this file");
    expect_first_mend("    warnings.warn('old', FutureWarning)\n", "GM403",
                      "(_graphmend_warn_FutureWarning,");
    expect_first_mend("    warnings.warn('old', category=DeprecationWarning, stacklevel=2)\n",
                      "GM403", "(_graphmend_warn_DeprecationWarning_2,");
    expect_first_mend("    logger.warning('x')\n", "GM402", "(_graphmend_logger_warning,");
    expect_first_mend("    logger.warning_once(f'x {x.shape[0]}')\n", "GM402",
                      "(_graphmend_logger_warning_once,");
    expect_first_mend_kind("    logger.info('x %d', x.shape[0])\n", "GM402", GM_FIX_SAFE, 2);
    expect_first_mend_kind("    warnings.warn('old', FutureWarning)\n", "GM403", GM_FIX_SAFE, 2);
    /* Declined, the unsafe mends stay: an argument that may be a tensor (x: no evidence either
     * way), keyword arguments, Logger.exception and Logger.warn, a logger that is no
     * module-level name, a warning class that is not a builtin one, a call inside try or with,
     * a call whose value is used. */
    expect_first_mend_kind("    logger.warning('x %s', x)\n", "GM402", GM_FIX_UNSAFE, 0);
    expect_first_mend_kind("    logger.warning('x %s', x.sum())\n", "GM402", GM_FIX_UNSAFE, 0);
    expect_first_mend_kind("    logger.warning('x', exc_info=True)\n", "GM402", GM_FIX_UNSAFE, 0);
    expect_first_mend_kind("    logger.exception('x')\n", "GM402", GM_FIX_UNSAFE, 0);
    expect_first_mend_kind("    logger.warn('x')\n", "GM402", GM_FIX_UNSAFE, 0);
    expect_first_mend_kind("    log = logger\n    log.warning('x')\n", "GM402", GM_FIX_UNSAFE, 0);
    expect_first_mend_kind("    warnings.warn('old', MyWarning)\n", "GM403", GM_FIX_UNSAFE, 0);
    expect_first_mend_kind("    try:\n        logger.warning('x')\n    finally:\n        pass\n",
                           "GM402", GM_FIX_UNSAFE, 0);
    expect_first_mend_kind("    with torch.no_grad():\n        logger.warning('x')\n", "GM402",
                           GM_FIX_UNSAFE, 0);
    /* torch imported only under TYPE_CHECKING binds nothing when the module runs: no mend may
     * name it (the setting line would fail at import time, the eager-only guard when the
     * function runs), nor import torch in a module that keeps it optional. */
    {
        const char *src = "from typing import TYPE_CHECKING\nimport logging\n"
                          "if TYPE_CHECKING:\n    import torch\n"
                          "logger = logging.getLogger(__name__)\n"
                          "@torch.compile\ndef f(x):\n    logger.warning('x')\n    return x\n";
        gm_finding_list l = at_analyze(src);
        const gm_finding *f = at_find(&l, "GM402", 0);
        CHECK(f && !at_fix(f, GM_FIX_KIND_MEND) && f->mend_declined &&
              strstr(f->mend_declined, "TYPE_CHECKING"));
        gm_finding_list_free(&l);
    }
    /* ... while a module-level import beside it is used as usual. */
    {
        const char *src = "import typing\nimport logging\nimport torch as T\n"
                          "if typing.TYPE_CHECKING:\n    import torch\n"
                          "logger = logging.getLogger(__name__)\n"
                          "@T.compile\ndef f(x):\n    logger.warning('x')\n    return x\n";
        gm_finding_list l = at_analyze(src);
        const gm_finding *f = at_find(&l, "GM402", 0);
        const gm_fix *mend = f ? at_fix(f, GM_FIX_KIND_MEND) : NULL;
        bool names_alias = false;
        for (size_t i = 0; mend && i < mend->edit_count; i++)
            names_alias |= strstr(mend->edits[i].replacement, "T._dynamo.config") != NULL;
        CHECK(names_alias);
        gm_finding_list_free(&l);
    }
    /* A module-level logging function keeps the process-wide deferral (unsafe). */
    expect_first_mend("    logging.info('x %s', x)\n", "GM402", "adds logging.info to");
    /* With the function in the file: its calls are deferred (no finding), its body is not
     * traced (no finding there), and another call gets a mend of one edit, the call. */
    AT_EXPECT("import logging\nimport torch\nlogger = logging.getLogger(__name__)\n"
              "def _graphmend_logger_warning(*args):\n    logger.warning(*args, stacklevel=2)\n"
              "torch._dynamo.config.reorderable_logging_functions.add(_graphmend_logger_warning)\n"
              "@torch.compile\ndef f(x):\n    _graphmend_logger_warning('x')\n    return x\n",
              "GM402", 0);
    {
        const char *src =
            "import logging\nimport torch\nlogger = logging.getLogger(__name__)\n"
            "def _graphmend_logger_warning(*args):\n    logger.warning(*args, stacklevel=2)\n"
            "torch._dynamo.config.reorderable_logging_functions.add(_graphmend_logger_warning)\n"
            "@torch.compile\ndef f(x):\n    _graphmend_logger_warning('x')\n"
            "    logger.warning('y')\n    return x\n";
        gm_finding_list l = at_analyze(src);
        const gm_finding *f = at_find(&l, "GM402", 0);
        const gm_fix *mend = f ? at_fix(f, GM_FIX_KIND_MEND) : NULL;
        CHECK(at_count(&l, "GM402") == 1 && mend && mend->applicability == GM_FIX_SAFE &&
              mend->edit_count == 1);
        gm_finding_list_free(&l);
    }
    /* A name the file uses for something else is not taken over. */
    AT_EXPECT("import logging\nimport torch\nlogger = logging.getLogger(__name__)\n"
              "_graphmend_logger_warning = 1\n"
              "@torch.compile\ndef f(x):\n    logger.warning('x')\n    return x\n",
              "GM402", 1);
    expect_first_mend("    logger.warning('x')\n    _graphmend_logger_warning = 1\n", "GM402",
                      "only in eager mode");
    /* With the setting line in the file, dynamo defers the call: no finding. */
    AT_EXPECT("import warnings\nimport torch\n"
              "torch._dynamo.config.reorderable_logging_functions.add(warnings.warn)\n"
              "@torch.compile\ndef f(x):\n    warnings.warn('slow path')\n    return x\n",
              "GM403", 0);
    AT_EXPECT("from warnings import warn\nimport torch\n"
              "torch._dynamo.config.reorderable_logging_functions.add(warn)\n"
              "@torch.compile\ndef f(x):\n    warn('slow path')\n    return x\n",
              "GM403", 0);
}

/* Loggers that are no module-level name: class attributes and __init__ attributes read through
 * self (or the class), locals, bound methods; and what is not one. */
static void bound_loggers(void) {
    const char *cls = "import logging\nimport torch\nfrom torch import nn\n"
                      "class Tracker:\n    def warning(self, m):\n        pass\n"
                      "class M(nn.Module):\n    log = logging.getLogger('m')\n"
                      "    tracker = Tracker()\n    scale = 2.0\n"
                      "    def __init__(self):\n        super().__init__()\n"
                      "        self.lg = logging.getLogger('x')\n        self.rec = Tracker()\n"
                      "        if True:\n            self.nested = logging.getLogger('n')\n"
                      "    def forward(self, x):\n";
    char src[4096];
    struct {
        const char *body;
        size_t n;
    } cases[] = {
        {"        self.log.info('a')\n", 1},
        {"        M.log.info('a')\n", 1},
        {"        self.lg.warning('a')\n", 1},
        {"        self.nested.warning('a')\n", 1},
        {"        w = self.lg.warning\n        x = x + 1\n        w('a')\n", 1},
        {"        log = self.log\n        if x.dim() > 1:\n            log.debug('a')\n", 1},
        {"        self.tracker.warning('a')\n        self.rec.warning('b')\n", 0},
        {"        self.scale.info('a')\n        self.missing.info('b')\n", 0},
        /* a later rebinding wins; a parameter is unknown */
        {"        w = self.lg.warning\n        w = print2\n        w('a')\n", 0},
        {"        log = self.log\n        log = Tracker()\n        log.warning('a')\n", 0},
        /* a name bound in a loop target is not the logger any more */
        {"        log = self.log\n        for log in range(2):\n            pass\n"
         "        log.info('a')\n",
         0},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        snprintf(src, sizeof src, "%s%s", cls, cases[i].body);
        AT_EXPECT(src, "GM402", cases[i].n);
    }
    /* a method parameter named like a logger is not one */
    AT_EXPECT("import logging\nimport torch\n@torch.compile\ndef f(x, log):\n"
              "    log.info('a')\n",
              "GM402", 0);
    /* an __init__ assignment of something else shadows the class attribute */
    AT_EXPECT(
        "import logging\nimport torch\nfrom torch import nn\nclass M(nn.Module):\n"
        "    log = logging.getLogger('m')\n    def __init__(self):\n"
        "        self.log = object()\n    def forward(self, x):\n        self.log.info('a')\n",
        "GM402", 0);
}

/* `if logger.isEnabledFor(logging.DEBUG):` breaks at the test; the body does not run under the
 * default configuration, so nothing in it is reported. A level the default enables, or one
 * not known, leaves the body's calls reported. */
static void enabled_for_guards(void) {
    expect_body("    if logger.isEnabledFor(logging.DEBUG):\n        logger.debug('a')\n"
                "        print(x)\n        v = x.sum().item()\n",
                "GM402", 1);
    expect_body("    if logger.isEnabledFor(logging.DEBUG):\n        print(x)\n", "GM401", 0);
    expect_body("    if logger.isEnabledFor(logging.DEBUG):\n        v = x.sum().item()\n", "GM201",
                0);
    expect_body("    if x.dim() and logger.isEnabledFor(10):\n        logger.debug('a')\n", "GM402",
                1);
    expect_body("    if logger.isEnabledFor(logging.DEBUG):\n        pass\n    else:\n"
                "        logger.info('a')\n",
                "GM402", 2);
    expect_body("    if logger.isEnabledFor(logging.WARNING):\n        logger.warning('a')\n",
                "GM402", 2);
    expect_body("    if logger.isEnabledFor(level):\n        logger.warning('a')\n", "GM402", 2);
    /* the guard's test names the logger: a non-logger's isEnabledFor guards nothing */
    expect_body("    if other.isEnabledFor(logging.DEBUG):\n        logger.debug('a')\n", "GM402",
                1);
    const char *src =
        HEAD "    if logger.isEnabledFor(logging.DEBUG):\n        logger.debug('a')\n";
    gm_finding_list l = at_analyze(src);
    const gm_finding *f = at_find(&l, "GM402", 0);
    CHECK(f && strcmp(at_span_text(src, f), "logger.isEnabledFor(logging.DEBUG)") == 0);
    gm_finding_list_free(&l);
}

int main(void) {
    bound_loggers();
    enabled_for_guards();
    mends();
    library_loggers();
    logger_calls();
    warnings_calls();
    consequences_and_fixes();
    return check_exit_code("analysis/rules/logging_call");
}
