/* Statements analysed on several threads (gm_analyzer_set_parallel) against the same analysis
 * one statement after the other: a file of many statements whose findings differ from block to
 * block, opened, then edited the ways that analyse every statement again (an import renamed and
 * back, a reset) and one statement only. Every finding of the parallel analyzer must equal the
 * sequential one's, in the same order. The runner (thread_runner.h) uses real threads and hands
 * out the jobs from the last to the first, so results put anywhere but their own slot show. */
#include "check.h"

#include <stdint.h>
#include <stdlib.h>

#include "analysis_test.h"
#include "thread_runner.h"

#define BLOCKS 90

/* One block: a cache class whose method returns a tensor attribute (method_returns.c's memo),
 * a module with a breaking property getter and a compiled forward, a compile-disabled helper,
 * a module-level generator and a compiled function; which break forward has varies. */
static const char block_format[] =
    "class Cache%d:\n"
    "    def __init__(self):\n"
    "        self.length = torch.zeros(%d)\n"
    "\n"
    "    def get_len(self):\n"
    "        return self.length\n"
    "\n"
    "\n"
    "@torch.compiler.disable\n"
    "def slow_%d(x):\n"
    "    return x + %d\n"
    "\n"
    "\n"
    "gen_%d = torch.Generator()\n"
    "\n"
    "\n"
    "class Block%d(nn.Module):\n"
    "    def __init__(self, dim):\n"
    "        super().__init__()\n"
    "        self.cache = Cache%d()\n"
    "        self.w = nn.Parameter(torch.ones(dim))\n"
    "\n"
    "    @property\n"
    "    def scale(self):\n"
    "        return self.w.sum().item()\n"
    "\n"
    "    def forward(self, x):\n"
    "        n = self.cache.get_len()\n"
    "        h = x * %d\n"
    "%s"
    "        return h + n\n"
    "\n"
    "\n"
    "@torch.compile\n"
    "def step_%d(model, x):\n"
    "    y = model(x)\n"
    "    z = torch.randn(3, generator=gen_%d)\n"
    "    return slow_%d(y) + z\n"
    "\n"
    "\n";

static const char *const breaks[] = {
    "        if h.sum() > %d:\n            h = h * 2\n",
    "        print('block', %d, h)\n",
    "        k = int(h.max()) + %d\n        h = h[:k]\n",
    "        s = self.scale * %d\n        h = h * s\n",
    "        for i in range(%d):\n            if n.any():\n                h = h + i\n",
};

static char *model_text(void) {
    size_t cap = 4096 + BLOCKS * (sizeof block_format + 256), len = 0;
    char *text = malloc(cap);
    len += (size_t)snprintf(text, cap, "import math\nimport torch\nimport torch.nn as nn\n\n\n");
    for (int i = 0; i < BLOCKS; i++) {
        char line[256];
        snprintf(line, sizeof line, breaks[i % (sizeof breaks / sizeof breaks[0])], i + 1);
        len += (size_t)snprintf(text + len, cap - len, block_format, i, i + 1, i, i, i, i, i,
                                i + 2, line, i, i, i);
    }
    return text;
}

typedef struct {
    char *text;
    uint32_t len;
    TSParser *parser;
    TSTree *tree;
} doc;

static TSPoint point_at(const char *text, uint32_t byte) {
    TSPoint p = {0, 0};
    for (uint32_t i = 0; i < byte; i++) {
        if (text[i] == '\n') {
            p.row++;
            p.column = 0;
        } else {
            p.column++;
        }
    }
    return p;
}

/* Replaces [start, end) of d with ins, edits and reparses the tree, and tells the analyzers. */
static void doc_edit(doc *d, uint32_t start, uint32_t end, const char *ins, gm_analyzer **told,
                     size_t told_count) {
    uint32_t ins_len = (uint32_t)strlen(ins);
    TSInputEdit e = {.start_byte = start, .old_end_byte = end, .new_end_byte = start + ins_len};
    e.start_point = point_at(d->text, start);
    e.old_end_point = point_at(d->text, end);
    char *t = malloc(d->len - (end - start) + ins_len + 1);
    memcpy(t, d->text, start);
    memcpy(t + start, ins, ins_len);
    memcpy(t + start + ins_len, d->text + end, d->len - end);
    d->len = d->len - (end - start) + ins_len;
    t[d->len] = '\0';
    free(d->text);
    d->text = t;
    e.new_end_point = point_at(d->text, start + ins_len);
    ts_tree_edit(d->tree, &e);
    TSTree *tree = gm_python_parse(d->parser, d->tree, d->text, d->len);
    gm_tree_delete(d->tree);
    d->tree = tree;
    for (size_t i = 0; i < told_count; i++)
        gm_analyzer_note_edit(told[i], &e);
}

/* Runs both analyzers on d and checks that their findings are the same; returns the
 * sequential one's count. */
static size_t compare_runs(const char *step, doc *d, gm_analyzer *sequential, gm_analyzer *parallel,
                           const gm_analysis_options *options) {
    const gm_finding_list *want = gm_analyzer_run(sequential, d->tree, d->text, d->len, options);
    const gm_finding_list *got = gm_analyzer_run(parallel, d->tree, d->text, d->len, options);
    long at = at_lists_differ_at(want, got);
    CHECK(at < 0);
    if (at >= 0) {
        fprintf(stderr,
                "%s: the findings differ from number %ld (%zu sequential, %zu on threads)\n", step,
                at, want->count, got->count);
        fprintf(stderr, "---- sequential:\n");
        at_dump(d->text, want);
        fprintf(stderr, "---- on threads:\n");
        at_dump(d->text, got);
    }
    return want->count;
}

static void check_stats(const char *step, gm_analyzer *parallel, bool through_runner) {
    gm_analyzer_stats stats;
    gm_analyzer_last_stats(parallel, &stats);
    CHECK(stats.parallel == through_runner);
    if (stats.parallel != through_runner)
        fprintf(stderr, "%s: expected the run %s the runner\n", step,
                through_runner ? "to go through" : "not to go through");
}

static uint32_t offset_of(const doc *d, const char *needle) {
    const char *at = strstr(d->text, needle);
    CHECK(at != NULL);
    return at ? (uint32_t)(at - d->text) : 0;
}

static void parallel_equals_sequential(unsigned threads, bool reversed, size_t min_bytes) {
    doc d = {model_text(), 0, gm_python_parser_new(0), NULL};
    d.len = (uint32_t)strlen(d.text);
    d.tree = gm_python_parse(d.parser, NULL, d.text, d.len);
    CHECK(d.tree && !ts_node_has_error(ts_tree_root_node(d.tree)));
    gm_analysis_options options;
    gm_analysis_options_default(&options);

    gm_analyzer *sequential = gm_analyzer_new(), *parallel = gm_analyzer_new();
    tr_runner runner = {.threads = threads, .reversed = reversed};
    gm_analyzer_set_parallel(parallel, tr_run_each, &runner);
    if (min_bytes != SIZE_MAX) /* else the analyzer's own thresholds */
        gm_analyzer_set_parallel_min_bytes(parallel, min_bytes);
    gm_analyzer *both[] = {sequential, parallel};

    /* Opened: every statement analysed, on the runner's threads. */
    size_t findings = compare_runs("open", &d, sequential, parallel, &options);
    CHECK(findings > BLOCKS); /* every block breaks somewhere, most more than once */
    check_stats("open", parallel, true);
    CHECK(runner.started);
    gm_analyzer_stats stats;
    gm_analyzer_last_stats(parallel, &stats);
    /* every statement, once per pass (a second pass when the breaking getters changed) */
    CHECK(runner.jobs >= stats.statements && runner.jobs % stats.statements == 0);
    CHECK(stats.statements > 4 * BLOCKS);

    /* `import torch` renamed and back: what torch names changes everywhere, and every statement
     * that mentions torch is analysed again. */
    uint32_t import_end = offset_of(&d, "import torch\n") + (uint32_t)strlen("import torch");
    doc_edit(&d, import_end, import_end, "x", both, 2);
    size_t jobs_before = runner.jobs;
    compare_runs("import torchx", &d, sequential, parallel, &options);
    check_stats("import torchx", parallel, true);
    gm_analyzer_last_stats(parallel, &stats);
    CHECK(stats.statements - stats.reused > 3 * BLOCKS);
    CHECK_EQ_INT(runner.jobs - jobs_before, stats.statements - stats.reused);
    doc_edit(&d, import_end, import_end + 1, "", both, 2);
    compare_runs("import torch again", &d, sequential, parallel, &options);
    check_stats("import torch again", parallel, true);

    /* The same as a fresh analysis of the text. */
    gm_finding_list fresh;
    gm_finding_list_init(&fresh);
    CHECK_EQ_INT(gm_analyze_source(d.text, d.len, &options, &fresh), 0);
    const gm_finding_list *now = gm_analyzer_run(parallel, d.tree, d.text, d.len, &options);
    CHECK(at_lists_differ_at(&fresh, now) < 0);
    gm_finding_list_free(&fresh);

    /* One statement edited (a compiled function, which defines no class or method that other
     * statements' kinds read; no line added, which would move the breaking getters' rows and
     * analyse everything again): analysed on this thread whatever the threshold says of bytes
     * (a keystroke never starts threads). */
    size_t calls_before = runner.calls;
    uint32_t plus = offset_of(&d, "return slow_6(y) + z") + (uint32_t)strlen("return slow_6(y) ");
    doc_edit(&d, plus, plus + 1, "*", both, 2);
    compare_runs("one statement", &d, sequential, parallel, &options);
    check_stats("one statement", parallel, false);
    CHECK_EQ_INT(runner.calls, calls_before);
    gm_analyzer_last_stats(parallel, &stats);
    CHECK_EQ_INT(stats.statements - stats.reused, 1);

    /* Two small statements edited together (the blank lines between them replaced): below
     * the analyzer's thresholds (16 KiB, a sixteenth of the file) they stay on this thread;
     * with a threshold of 0 they go through the runner. */
    uint32_t gap = offset_of(&d, "    return x + 6\n") + (uint32_t)strlen("    return x + 6");
    doc_edit(&d, gap, gap + 3, "\n\n\n", both, 2);
    calls_before = runner.calls;
    compare_runs("two statements", &d, sequential, parallel, &options);
    gm_analyzer_last_stats(parallel, &stats);
    CHECK_EQ_INT(stats.statements - stats.reused, 2);
    check_stats("two statements", parallel, min_bytes == 0);
    CHECK_EQ_INT(runner.calls - calls_before, min_bytes == 0 ? 1 : 0);

    /* A reset (a whole-document replacement) analyses everything again. */
    gm_analyzer_reset(sequential);
    gm_analyzer_reset(parallel);
    compare_runs("reset", &d, sequential, parallel, &options);
    check_stats("reset", parallel, true);

    gm_analyzer_free(sequential);
    gm_analyzer_free(parallel);
    gm_tree_delete(d.tree);
    ts_parser_delete(d.parser);
    free(d.text);
}

/* Below the threshold, and without a runner, nothing goes through one. */
static void small_files_stay_sequential(void) {
    static const char src[] = "import torch\n\n\n@torch.compile\ndef f(x):\n    print(x)\n"
                              "    return x\n\n\ndef g(x):\n    return x.item()\n";
    TSParser *parser = gm_python_parser_new(0);
    TSTree *tree = gm_python_parse(parser, NULL, src, strlen(src));
    gm_analyzer *a = gm_analyzer_new();
    tr_runner runner = {.threads = 2};
    gm_analyzer_set_parallel(a, tr_run_each, &runner);
    const gm_finding_list *found = gm_analyzer_run(a, tree, src, strlen(src), NULL);
    CHECK(found->count > 0);
    CHECK_EQ_INT(runner.calls, 0);
    check_stats("small file", a, false);
    gm_analyzer_free(a);
    gm_tree_delete(tree);
    ts_parser_delete(parser);
}

int main(void) {
    parallel_equals_sequential(3, true, SIZE_MAX);
    parallel_equals_sequential(2, false, 0);
    small_files_stay_sequential();
    return check_exit_code("analyzer_parallel");
}
