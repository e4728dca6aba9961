/* Benchmark (not a test): analysis of a large generated model file, cold and after one-character
 * edits inside one function, and after `import torch` is renamed and back (every statement
 * analysed again). Prints a table. With THREADS above 1, the analyzer analyses many statements
 * on that many threads (gm_analyzer_set_parallel, thread_runner.h).
 * Usage: bench_analyzer [LINES] [EDITS] [THREADS] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis/analyzer.h"
#include "analysis/syntax/python_parser.h"
#include "thread_runner.h"

static double now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static const char header[] = "import math\nimport torch\nimport torch.nn as nn\n"
                             "import torch.nn.functional as F\n\n";

/* 24 lines per block. */
static const char block[] = "class Layer%d(nn.Module):\n"
                            "    def __init__(self, dim):\n"
                            "        super().__init__()\n"
                            "        self.proj = nn.Linear(dim, dim)\n"
                            "        self.norm = nn.LayerNorm(dim)\n"
                            "\n"
                            "    def forward(self, x, mask=None):\n"
                            "        h = self.proj(self.norm(x))\n"
                            "        if x.shape[0] > 1:\n"
                            "            h = h * 1.0\n"
                            "        if h.sum() > 0:\n"
                            "            h = F.relu(h)\n"
                            "        for i in range(2):\n"
                            "            h = h + i\n"
                            "        if mask is not None:\n"
                            "            h = h.masked_fill(mask, 0.0)\n"
                            "        print(h.shape)\n"
                            "        return x + h\n"
                            "\n"
                            "\n"
                            "def helper_%d(x):\n"
                            "    return x * 2\n"
                            "\n"
                            "\n";

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

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

int main(int argc, char **argv) {
    int lines = argc > 1 ? atoi(argv[1]) : 50000;
    int edits = argc > 2 ? atoi(argv[2]) : 200;
    int threads = argc > 3 ? atoi(argv[3]) : 1;
    int blocks = lines / 24;
    size_t cap = sizeof header + (size_t)blocks * (sizeof block + 32);
    char *text = malloc(cap);
    size_t len = (size_t)snprintf(text, cap, "%s", header);
    for (int i = 0; i < blocks; i++)
        len += (size_t)snprintf(text + len, cap - len, block, i, i);
    int total_lines = 0;
    for (size_t i = 0; i < len; i++)
        total_lines += text[i] == '\n';

    TSParser *parser = gm_python_parser_new(0);
    double t0 = now_us();
    TSTree *tree = gm_python_parse(parser, NULL, text, len);
    double parse_us = now_us() - t0;
    gm_analyzer *an = gm_analyzer_new();
    tr_runner runner = {.threads = threads > 1 ? (unsigned)threads : 1};
    if (threads > 1)
        gm_analyzer_set_parallel(an, tr_run_each, &runner);
    t0 = now_us();
    const gm_finding_list *l = gm_analyzer_run(an, tree, text, len, NULL);
    double cold_us = now_us() - t0;
    size_t findings = l->count;
    double warm[51];
    for (int i = 0; i < 51; i++) {
        t0 = now_us();
        gm_analyzer_run(an, tree, text, len, NULL);
        warm[i] = now_us() - t0;
    }
    qsort(warm, 51, sizeof warm[0], cmp_double);
    double warm_us = warm[25];

    /* Everything again (as after a whole-document replacement), five times. */
    double again[5];
    for (int i = 0; i < 5; i++) {
        gm_analyzer_reset(an);
        t0 = now_us();
        gm_analyzer_run(an, tree, text, len, NULL);
        again[i] = now_us() - t0;
    }
    qsort(again, 5, sizeof again[0], cmp_double);

    /* `import torch` -> `import torchx` and back, five times: what torch names changes. */
    double renamed[10];
    uint32_t import_end = (uint32_t)(strstr(text, "import torch\n") - text) + 12;
    char *grown = malloc(len + 2);
    for (int i = 0; i < 10; i++) {
        bool insert = i % 2 == 0;
        memcpy(grown, text, import_end);
        if (insert) {
            grown[import_end] = 'x';
            memcpy(grown + import_end + 1, text + import_end, len - import_end);
            len++;
        } else {
            memcpy(grown + import_end, text + import_end + 1, len - import_end - 1);
            len--;
        }
        grown[len] = '\0';
        char *old_text = text;
        text = grown;
        grown = realloc(old_text, len + 2);
        TSPoint p = point_at(text, import_end);
        TSPoint p1 = {p.row, p.column + 1};
        TSInputEdit e = insert ? (TSInputEdit){import_end, import_end, import_end + 1, p, p, p1}
                               : (TSInputEdit){import_end, import_end + 1, import_end, p, p1, p};
        gm_tree_edit(tree, &e);
        TSTree *next = gm_python_parse(parser, tree, text, len);
        gm_tree_delete(tree);
        tree = next;
        t0 = now_us();
        gm_analyzer_note_edit(an, &e);
        gm_analyzer_run(an, tree, text, len, NULL);
        renamed[i] = now_us() - t0;
    }
    free(grown);
    qsort(renamed, 10, sizeof renamed[0], cmp_double);

    /* One-character edits in the middle block's forward: "1.0" <-> "2.0". */
    char needle[32];
    snprintf(needle, sizeof needle, "class Layer%d(", blocks / 2);
    char *at = strstr(text, needle);
    char *digit = at ? strstr(at, "h * 1.0") : NULL;
    if (!digit) {
        fprintf(stderr, "bench: block not found\n");
        return 1;
    }
    uint32_t pos = (uint32_t)(digit - text) + 4;
    double *run_us = malloc((size_t)edits * sizeof *run_us);
    double *reparse_us = malloc((size_t)edits * sizeof *reparse_us);
    gm_analyzer_stats stats = {0};
    for (int i = 0; i < edits; i++) {
        text[pos] = text[pos] == '1' ? '2' : '1';
        TSPoint p = point_at(text, pos);
        TSPoint p1 = {p.row, p.column + 1};
        TSInputEdit e = {pos, pos + 1, pos + 1, p, p1, p1};
        gm_tree_edit(tree, &e);
        t0 = now_us();
        TSTree *next = gm_python_parse(parser, tree, text, len);
        reparse_us[i] = now_us() - t0;
        gm_tree_delete(tree);
        tree = next;
        t0 = now_us();
        gm_analyzer_note_edit(an, &e);
        l = gm_analyzer_run(an, tree, text, len, NULL);
        run_us[i] = now_us() - t0;
        gm_analyzer_last_stats(an, &stats);
    }
    qsort(run_us, (size_t)edits, sizeof *run_us, cmp_double);
    qsort(reparse_us, (size_t)edits, sizeof *reparse_us, cmp_double);
    printf("| measure | value |\n|---|---|\n");
    printf("| lines | %d |\n| bytes | %zu |\n| top-level statements | %zu |\n| findings | %zu |\n",
           total_lines, len, stats.statements, findings);
    printf("| full parse | %.1f ms |\n| cold gm_analyzer_run | %.1f ms |\n", parse_us / 1e3,
           cold_us / 1e3);
    printf("| gm_analyzer_run without an edit, median | %.1f us |\n", warm_us);
    printf("| run after gm_analyzer_reset, median of 5 | %.1f ms |\n", again[2] / 1e3);
    printf("| note_edit + run after `import torch` renamed or back, median of 10 | %.1f ms |\n",
           (renamed[4] + renamed[5]) / 2e3);
    printf("| threads (gm_analyzer_set_parallel) | %d |\n", threads > 1 ? threads : 1);
    printf("| note_edit + run after 1-char edit, median | %.1f us |\n", run_us[edits / 2]);
    printf("| note_edit + run after 1-char edit, p95 | %.1f us |\n", run_us[edits * 95 / 100]);
    printf("| statements reused per run | %zu of %zu |\n", stats.reused, stats.statements);
    printf("| incremental reparse, median | %.1f us |\n", reparse_us[edits / 2]);
    free(run_us);
    free(reparse_us);
    gm_analyzer_free(an);
    gm_tree_delete(tree);
    ts_parser_delete(parser);
    free(text);
    return 0;
}
