/* The incremental analyzer against fresh analyses, over thousands of random edits: each edit is
 * applied to the text, the tree is edited and reparsed with the old tree, the analyzer is told
 * of the edit and run; its result must equal a new analyzer's on the same tree, and a fresh
 * gm_analyze_source of the text whenever the fresh parse gives the same tree. Set
 * GM_TEST_SEED to vary the run, GM_TEST_EDITS to change the count. */
#include "check.h"

#include <stdint.h>
#include <stdlib.h>

#include "analysis_test.h"

static const char model[] = "import math\n"
                            "import torch\n"
                            "import torch.nn as nn\n"
                            "import torch.nn.functional as F\n"
                            "from torch import Tensor\n"
                            "\n"
                            "\n"
                            "class Attention(nn.Module):\n"
                            "    def __init__(self, dim, heads=8):\n"
                            "        super().__init__()\n"
                            "        self.heads = heads\n"
                            "        self.qkv = nn.Linear(dim, dim * 3)\n"
                            "        self.out = nn.Linear(dim, dim)\n"
                            "        print('built', dim)\n"
                            "\n"
                            "    def forward(self, x: Tensor, mask=None):\n"
                            "        b, n, d = x.shape\n"
                            "        q, k, v = self.qkv(x).chunk(3, dim=-1)\n"
                            "        att = q @ k.transpose(-2, -1) / math.sqrt(d)\n"
                            "        if mask is not None:\n"
                            "            att = att.masked_fill(mask == 0, float('-inf'))\n"
                            "        if att.max() > 1e4:  # graphmend: ignore[GM101]\n"
                            "            print('overflow')\n"
                            "        att = F.softmax(att, dim=-1)\n"
                            "        y = att @ v\n"
                            "        if not torch.compiler.is_compiling():\n"
                            "            print(y.shape)\n"
                            "        return self.out(y)\n"
                            "\n"
                            "\n"
                            "class Block(nn.Module):\n"
                            "    def __init__(self, dim):\n"
                            "        super().__init__()\n"
                            "        self.attn = Attention(dim)\n"
                            "        self.mlp = nn.Sequential(nn.Linear(dim, dim), nn.GELU())\n"
                            "\n"
                            "    def forward(self, x):\n"
                            "        h = x + self.attn(x)\n"
                            "        for i in range(2):\n"
                            "            if h.sum() > 0:\n"
                            "                h = h * 0.5\n"
                            "        try:\n"
                            "            print(h.mean())\n"
                            "        except RuntimeError:\n"
                            "            pass\n"
                            "        with torch.no_grad():\n"
                            "            s = h.std()\n"
                            "        while s > 1:\n"
                            "            s = s / 2\n"
                            "        return h + self.mlp(h)\n"
                            "\n"
                            "\n"
                            "class Deep(Block):\n"
                            "    def forward(self, x):\n"
                            "        print(x)  # trace\n"
                            "        return super().forward(x)\n"
                            "\n"
                            "\n"
                            "@torch.compile(mode='max-autotune')\n"
                            "def step(model, x: torch.Tensor):\n"
                            "    out = model(x)\n"
                            "    loss = out.pow(2).mean()\n"
                            "    if loss > 10:\n"
                            "        print('big loss', loss)\n"
                            "    return loss\n"
                            "\n"
                            "\n"
                            "def helper(x):\n"
                            "    print(x)\n"
                            "    return x\n"
                            "\n"
                            "\n"
                            "class Stats:\n"
                            "    def __init__(self):\n"
                            "        self.weight = torch.ones(4)\n"
                            "\n"
                            "    @property\n"
                            "    def scale(self):\n"
                            "        return self.weight.sum().item()\n"
                            "\n"
                            "\n"
                            "class Scaled(nn.Module):\n"
                            "    def __init__(self):\n"
                            "        super().__init__()\n"
                            "        self.stats = Stats()\n"
                            "\n"
                            "    def forward(self, x):\n"
                            "        self.cache = x * 2\n"
                            "        y = x * self.stats.scale\n"
                            "        print(y)\n"
                            "        return y\n";

static const char *const snippets[] = {
    "print(x)\n",
    "if x.sum() > 0:\n",
    "import torch as th\n",
    "    print(h)\n",
    "        if h.mean() > 0:\n            pass\n",
    "\n",
    "    ",
    "#",
    "# graphmend: ignore\n",
    "  # graphmend: ignore[GM401]",
    "# graphmend: ignore-file[GM401]\n",
    "class A(nn.Module):\n",
    "class Block(Attention):\n",
    "def forward(self, x):\n",
    "@torch.compile\n",
    "\"\"\"",
    "'",
    "(",
    ")",
    ":",
    "torch",
    "print",
    "x",
    "not ",
    "\t",
    "from torch import nn\n",
    "def print(*a): pass\n",
    ";",
    "\\\n",
    "helper(x)\n",
    "        h = helper(h)\n",
    "    return helper(x)\n",
    "self.forward(x)\n",
    "        y = self.extra(y)\n",
    "    def extra(self, y):\n        print(y)\n        return y\n",
    "def helper2(x):\n    return helper(x)\n",
    "helper2(x)",
    "helper",
    "@torch.compiler.disable\n",
    "    @property\n",
    "        return self.weight\n",
    "        self.cache = x * 2\n",
    "self.stats.scale",
};

static uint64_t rng_state;

static uint32_t rnd(uint32_t n) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return n ? (uint32_t)(rng_state % n) : 0;
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

static bool fixes_equal(const gm_fix *a, const gm_fix *b) {
    if (a->kind != b->kind || a->applicability != b->applicability ||
        strcmp(a->title, b->title) != 0 || a->edit_count != b->edit_count)
        return false;
    for (size_t i = 0; i < a->edit_count; i++)
        if (a->edits[i].start_byte != b->edits[i].start_byte ||
            a->edits[i].end_byte != b->edits[i].end_byte ||
            strcmp(a->edits[i].replacement, b->edits[i].replacement) != 0)
            return false;
    return true;
}

static bool lists_equal(const gm_finding_list *a, const gm_finding_list *b) {
    if (a->count != b->count)
        return false;
    for (size_t i = 0; i < a->count; i++) {
        const gm_finding *x = &a->items[i], *y = &b->items[i];
        if (x->rule != y->rule || memcmp(&x->span, &y->span, sizeof x->span) != 0 ||
            strcmp(x->message, y->message) != 0 || x->fix_count != y->fix_count)
            return false;
        for (size_t j = 0; j < x->fix_count; j++)
            if (!fixes_equal(&x->fixes[j], &y->fixes[j]))
                return false;
    }
    return true;
}

/* A digest of every node of a tree (type, byte range, missing flag): ts_node_string leaves out
 * positions and anonymous nodes, where incremental and fresh parses can still differ. */
static uint64_t tree_digest(TSNode root) {
    uint64_t h = 1469598103934665603ull;
    TSTreeCursor c = ts_tree_cursor_new(root);
    for (;;) {
        TSNode n = ts_tree_cursor_current_node(&c);
        uint64_t parts[4] = {ts_node_symbol(n), ts_node_start_byte(n), ts_node_end_byte(n),
                             ts_node_is_missing(n)};
        for (size_t i = 0; i < 4; i++)
            h = (h ^ parts[i]) * 1099511628211ull;
        if (ts_tree_cursor_goto_first_child(&c))
            continue;
        while (!ts_tree_cursor_goto_next_sibling(&c))
            if (!ts_tree_cursor_goto_parent(&c)) {
                ts_tree_cursor_delete(&c);
                return h;
            }
    }
}

typedef struct {
    char *text;
    uint32_t len;
} doc;

/* Replaces [start, end) of d with ins; fills the TSInputEdit. */
static void doc_edit(doc *d, uint32_t start, uint32_t end, const char *ins, TSInputEdit *e) {
    uint32_t ins_len = (uint32_t)strlen(ins);
    e->start_byte = start;
    e->old_end_byte = end;
    e->new_end_byte = start + ins_len;
    e->start_point = point_at(d->text, start);
    e->old_end_point = point_at(d->text, end);
    char *t = malloc(d->len - (end - start) + ins_len + 1);
    memcpy(t, d->text, start);
    memcpy(t + start, ins, ins_len);
    memcpy(t + start + ins_len, d->text + end, d->len - end);
    d->len = d->len - (end - start) + ins_len;
    t[d->len] = '\0';
    free(d->text);
    d->text = t;
    e->new_end_point = point_at(d->text, start + ins_len);
}

/* Whole lines, inserted at a line start with some indentation: they keep the text mostly
 * parseable, so that the rules keep firing while the structure changes. */
static const char *const lines[] = {
    "print(x)\n",
    "print(h)  # graphmend: ignore[GM401]\n",
    "if x.sum() > 0:\n",
    "if h.mean() > 0:\n",
    "while h.any():\n",
    "y = x.mean()\n",
    "pass\n",
    "return x\n",
    "for i in range(2):\n",
    "try:\n",
    "except Exception:\n",
    "with open('f'):\n",
    "if not torch.compiler.is_compiling():\n",
    "# graphmend: ignore\n",
    "@torch.compile\n",
    "def forward(self, x):\n",
    "class A(nn.Module):\n",
    "import torch as th\n",
    "\n",
};

static uint32_t line_start_near(const doc *d, uint32_t pos) {
    while (pos > 0 && d->text[pos - 1] != '\n')
        pos--;
    return pos;
}

static void random_edit(doc *d, TSInputEdit *e) {
    uint32_t op = rnd(100);
    if (d->len > 3 * sizeof model || op < 4) {
        doc_edit(d, 0, d->len, model, e); /* back to the original text, as one edit */
        return;
    }
    uint32_t start = rnd(d->len + 1);
    const char *snippet = snippets[rnd(sizeof snippets / sizeof snippets[0])];
    if (op < 40) {
        static const char *const indents[] = {"", "    ", "        ", "            "};
        char buf[128];
        snprintf(buf, sizeof buf, "%s%s", indents[rnd(4)],
                 lines[rnd(sizeof lines / sizeof lines[0])]);
        start = line_start_near(d, start);
        doc_edit(d, start, start, buf, e);
    } else if (op < 52) {
        start = line_start_near(d, start);
        uint32_t end = start;
        while (end < d->len && d->text[end] != '\n')
            end++;
        doc_edit(d, start, end < d->len ? end + 1 : end, "", e);
    } else if (op < 70) {
        char one[2] = {0, 0};
        if (rnd(3) == 0) {
            one[0] = (char)(' ' + rnd(95));
            snippet = one;
        }
        doc_edit(d, start, start, snippet, e);
    } else if (op < 85) {
        uint32_t n = 1 + rnd(op < 80 ? 3 : 40);
        uint32_t end = start + n > d->len ? d->len : start + n;
        doc_edit(d, start, end, "", e);
    } else {
        uint32_t end = start + rnd(5);
        if (end > d->len)
            end = d->len;
        doc_edit(d, start, end, snippet, e);
    }
}

static void random_edits(void) {
    const char *seed_env = getenv("GM_TEST_SEED");
    const char *edits_env = getenv("GM_TEST_EDITS");
    rng_state = seed_env ? strtoull(seed_env, NULL, 10) : 0x9E3779B97F4A7C15ull;
    if (rng_state == 0)
        rng_state = 1;
    long edits = edits_env ? strtol(edits_env, NULL, 10) : 3500;

    doc d = {strdup(model), (uint32_t)strlen(model)};
    TSParser *parser = gm_python_parser_new(0);
    TSTree *tree = gm_python_parse(parser, NULL, d.text, d.len);
    gm_analyzer *inc = gm_analyzer_new();
    gm_analysis_options opts;
    gm_analysis_options_default(&opts);
    gm_analyzer_run(inc, tree, d.text, d.len, &opts);

    long mismatches = 0, parse_divergences = 0, compared = 0, with_findings = 0;
    long with_rules = 0, scratch_compared = 0;
    size_t statements = 0, reused = 0, rebound_runs = 0, kept_runs = 0;
    for (long i = 0; i < edits; i++) {
        TSInputEdit e;
        random_edit(&d, &e);
        gm_tree_edit(tree, &e);
        TSTree *next = gm_python_parse(parser, tree, d.text, d.len);
        gm_tree_delete(tree);
        tree = next;
        gm_analyzer_note_edit(inc, &e);
        if (rnd(50) == 0)
            opts.training = !opts.training;
        if (rnd(80) == 0)
            opts.forward_is_compiled = !opts.forward_is_compiled;
        /* Sometimes several edits before one run. */
        if (rnd(8) == 0 && i + 1 < edits)
            continue;
        const gm_finding_list *got = gm_analyzer_run(inc, tree, d.text, d.len, &opts);

        gm_analyzer_stats stats;
        gm_analyzer_last_stats(inc, &stats);
        if (stats.kept_last_good) {
            /* A broken text analysed with the facts of the last text that parsed: what is
             * compared is the run after the text parses again. */
            kept_runs++;
            statements += stats.statements;
            reused += stats.reused;
            continue;
        }
        gm_analyzer *fresh = gm_analyzer_new();
        const gm_finding_list *want = gm_analyzer_run(fresh, tree, d.text, d.len, &opts);
        bool same = lists_equal(got, want);
        CHECK(same);
        if (!same && mismatches++ < 3) {
            fprintf(stderr,
                    "edit %ld: incremental differs from a fresh analyzer\n---- text:\n%s"
                    "---- incremental:\n",
                    i, d.text);
            at_dump(d.text, got);
            fprintf(stderr, "---- fresh:\n");
            at_dump(d.text, want);
        }
        with_findings += want->count > 0;
        with_rules += at_count(want, "GM101") + at_count(want, "GM401") > 0;
        statements += stats.statements;
        reused += stats.reused;
        rebound_runs += stats.rebound_imports;
        gm_analyzer_free(fresh);
        compared++;
        /* Parsing garbage from scratch is the slow part of this test: every third run. */
        if (compared % 3 != 0)
            continue;
        scratch_compared++;

        /* Against parsing from scratch: equal whenever the two parses agree. */
        gm_finding_list scratch;
        gm_finding_list_init(&scratch);
        CHECK_EQ_INT(gm_analyze_source(d.text, d.len, &opts, &scratch), 0);
        if (!lists_equal(got, &scratch)) {
            /* A new parser, as gm_analyze_source uses: a reused one can parse broken text
             * differently even from scratch (parser state survives between parses). */
            TSParser *p2 = gm_python_parser_new(0);
            TSTree *t2 = gm_python_parse(p2, NULL, d.text, d.len);
            ts_parser_delete(p2);
            bool trees_equal =
                tree_digest(ts_tree_root_node(tree)) == tree_digest(ts_tree_root_node(t2));
            CHECK(!trees_equal);
            parse_divergences += !trees_equal;
            if (trees_equal && mismatches++ < 3)
                fprintf(stderr, "edit %ld: differs from gm_analyze_source\n", i);
            gm_tree_delete(t2);
        }
        gm_finding_list_free(&scratch);
    }
    fprintf(stderr,
            "incremental: %ld edits, %ld runs compared (%ld with findings, %ld with GM101/GM401), "
            "%zu of %zu statements reused, %zu runs after import edits only, %zu on broken text "
            "with the last good facts (not compared); %ld compared with a parse from scratch, %ld "
            "differing because tree-sitter's incremental parse differed from the fresh one\n",
            edits, compared, with_findings, with_rules, reused, statements, rebound_runs,
            kept_runs, scratch_compared, parse_divergences);
    CHECK(compared > edits / 5);
    CHECK(kept_runs > 0);
    CHECK(with_rules > compared / 4); /* the edits keep the text interesting */
    CHECK(reused > statements / 2);   /* and the cache is used */
    CHECK(rebound_runs > 0);          /* also after edits of imports only */
    gm_analyzer_free(inc);
    gm_tree_delete(tree);
    ts_parser_delete(parser);
    free(d.text);
}

/* Targeted cases: an edit inside one statement re-analyses it; an import edit (fingerprint)
 * changes the results of other statements; edits in trailing comments are noticed. */
static void targeted(void) {
    const char *steps[][2] = {
        /* before, after */
        {"import torch\nimport torch.nn as nn\nclass M(nn.Module):\n    def forward(self, x):\n"
         "        print(x)\n",
         "import torch\nimport torch.nn as xx\nclass M(nn.Module):\n    def forward(self, x):\n"
         "        print(x)\n"},
        {"import torch\nimport torch.nn as nn\nclass M(nn.Module):\n    def forward(self, x):\n"
         "        print(x)\n",
         "import torch\nimport torch.nn as nn\nclass M(nn.Module):\n    def forward(self, x):\n"
         "        print(x)  # graphmend: ignore\n"},
        {"import torch.nn as nn\nclass B(nn.Module):\n    pass\nclass M(B):\n"
         "    def forward(self, x):\n        print(x)\n",
         "import torch.nn as nn\nclass B(object):\n    pass\nclass M(B):\n"
         "    def forward(self, x):\n        print(x)\n"},
        {"import torch\n@torch.compile\ndef f(x):\n    print(x)\n",
         "import torch\n@torch.compile\ndef f(x):\n    print(x)\ndef print(*a):\n    pass\n"},
        {"import torch\n@torch.compile\ndef f(x):\n    print(x)\n",
         "\n\nimport torch\n@torch.compile\ndef f(x):\n    print(x)\n"},
        {"import torch\n@torch.compile\ndef f(x):\n    print(x)\n",
         "import torch\n@torch.compile\ndef f(x):\n    print(x)\n# graphmend: ignore-file\n"},
        /* What a method of another statement's class returns (value_kinds/method_returns.c):
         * the model's statement is analysed again when that class changes, appears or goes. */
        {"import torch\nimport torch.nn as nn\nclass L:\n    def __init__(self):\n"
         "        self.t = torch.ones(())\n    def n(self):\n        return self.t\n"
         "class M(nn.Module):\n    def forward(self, x, c):\n        if c.n() > 0:\n"
         "            return x\n        return x + 1\n",
         "import torch\nimport torch.nn as nn\nclass L:\n    def __init__(self):\n"
         "        self.t = torch.ones(())\n    def n(self):\n        return 0\n"
         "class M(nn.Module):\n    def forward(self, x, c):\n        if c.n() > 0:\n"
         "            return x\n        return x + 1\n"},
        {"import torch\nimport torch.nn as nn\nclass K:\n    pass\n"
         "class M(nn.Module):\n    def forward(self, x, c):\n        if c.n() > 0:\n"
         "            return x\n        return x + 1\n",
         "import torch\nimport torch.nn as nn\nclass K:\n    def n(self):\n"
         "        return torch.ones(())\n"
         "class M(nn.Module):\n    def forward(self, x, c):\n        if c.n() > 0:\n"
         "            return x\n        return x + 1\n"},
        {"import torch\nimport torch.nn as nn\nclass K:\n    def n(self):\n"
         "        return torch.ones(())\nx = 1\n"
         "class M(nn.Module):\n    def forward(self, x, c):\n        if c.n() > 0:\n"
         "            return x\n        return x + 1\n",
         "import torch\nimport torch.nn as nn\nx = 1\n"
         "class M(nn.Module):\n    def forward(self, x, c):\n        if c.n() > 0:\n"
         "            return x\n        return x + 1\n"},
        /* What a module-level function of the file returns (cross_function_kinds.c): the
         * caller is analysed again when the function stops returning a tensor, or goes. */
        {"import torch\ndef h(w):\n    return torch.relu(w)\n"
         "@torch.compile\ndef f(x):\n    k = h(x) > 0\n    return x[k]\n",
         "import torch\ndef h(w):\n    return 0\n"
         "@torch.compile\ndef f(x):\n    k = h(x) > 0\n    return x[k]\n"},
        {"import torch\ndef h(w):\n    return torch.relu(w)\ny = 2\n"
         "@torch.compile\ndef f(x):\n    k = h(x) > 0\n    return x[k]\n",
         "import torch\ny = 2\n"
         "@torch.compile\ndef f(x):\n    k = h(x) > 0\n    return x[k]\n"},
        /* Call parts look for compile targets only in a file that names compile: typing the
         * first `torch.compile(model)` builds the other statements' parts again, with the
         * `model = Net()` binding the target reads. */
        {"import torch\nimport torch.nn as nn\nclass Net:\n    def forward(self, x):\n"
         "        print(x)\n        return x\nmodel = Net()\n",
         "import torch\nimport torch.nn as nn\nclass Net:\n    def forward(self, x):\n"
         "        print(x)\n        return x\nmodel = Net()\ncm = torch.compile(model.forward)\n"},
        {"import torch\nimport torch.nn as nn\nclass Net:\n    def forward(self, x):\n"
         "        print(x)\n        return x\nmodel = Net()\ncm = torch.compile(model.forward)\n",
         "import torch\nimport torch.nn as nn\nclass Net:\n    def forward(self, x):\n"
         "        print(x)\n        return x\nmodel = Net()\ncm = torch.compyle(model.forward)\n"},
        /* Found by the random edits: the edit changes how error recovery splits the unchanged
         * text `(nn.Mnot odule)` (which part is a base), so Deep becomes a Module subclass with
         * no change to any class's text. */
        {"import torch.nn as nn\nclass Block(nn.Mnot odule):\n        h = x + self.attn(x)\n"
         "        try:\n            print(h.mean())\n        except RuntimeError:\n"
         "class Deep(Block):\n    def forward(self, x):\n        print(x)  # trace\n"
         "@torch.compile(mode='max-autotune')",
         "import torch.nn as nn\nclass Block(nn.Mnot odule):\n        h = x + sel    print(h)\n"
         "f.attn(x)\n        try:\n            print(h.mean())\n        except RuntimeError:\n"
         "class Deep(Block):\n    def forward(self, x):\n        print(x)  # trace\n"
         "@torch.compile(mode='max-autotune')"},
    };
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        const char *a = steps[i][0], *b = steps[i][1];
        /* One edit replacing the differing middle. */
        uint32_t la = (uint32_t)strlen(a), lb = (uint32_t)strlen(b), pre = 0, suf = 0;
        while (pre < la && pre < lb && a[pre] == b[pre])
            pre++;
        while (suf < la - pre && suf < lb - pre && a[la - 1 - suf] == b[lb - 1 - suf])
            suf++;
        TSInputEdit e = {pre,
                         la - suf,
                         lb - suf,
                         point_at(a, pre),
                         point_at(a, la - suf),
                         point_at(b, lb - suf)};
        TSParser *p = gm_python_parser_new(0);
        TSTree *t = gm_python_parse(p, NULL, a, la);
        gm_analyzer *an = gm_analyzer_new();
        gm_analyzer_run(an, t, a, la, NULL);
        gm_tree_edit(t, &e);
        TSTree *t2 = gm_python_parse(p, t, b, lb);
        gm_analyzer_note_edit(an, &e);
        const gm_finding_list *got = gm_analyzer_run(an, t2, b, lb, NULL);
        gm_finding_list want = at_analyze(b);
        gm_analyzer_stats stats;
        gm_analyzer_last_stats(an, &stats);
        /* The last case is a broken text: analysed with the last good facts, by design
         * (broken_text_keeps_last_good below); the others must equal a fresh analysis. */
        CHECK(stats.kept_last_good == (i == sizeof steps / sizeof steps[0] - 1));
        if (!stats.kept_last_good && !lists_equal(got, &want)) {
            CHECK(lists_equal(got, &want));
            fprintf(stderr, "targeted case %zu differs\n", i);
            at_dump(b, got);
            at_dump(b, &want);
        }
        gm_finding_list_free(&want);
        gm_analyzer_free(an);
        gm_tree_delete(t);
        gm_tree_delete(t2);
        ts_parser_delete(p);
    }
}

/* The result of a run stays readable after note_edit, until the next run. */
static void result_survives_note_edit(void) {
    const char *a = "import torch\n@torch.compile\ndef f(x):\n    print(x)\n";
    TSParser *p = gm_python_parser_new(0);
    TSTree *t = gm_python_parse(p, NULL, a, strlen(a));
    gm_analyzer *an = gm_analyzer_new();
    const gm_finding_list *l = gm_analyzer_run(an, t, a, strlen(a), NULL);
    CHECK_EQ_INT(l->count, 1);
    TSInputEdit e = {0, (uint32_t)strlen(a), 0, {0, 0}, point_at(a, (uint32_t)strlen(a)), {0, 0}};
    gm_analyzer_note_edit(an, &e);
    CHECK_EQ_INT(l->count, 1);
    CHECK(l->count == 1 && strcmp(l->items[0].message, "") != 0); /* not freed (ASan checks) */
    CHECK_EQ_INT(l->count ? l->items[0].span.start.row : 0, 3);
    gm_tree_delete(t);
    t = gm_python_parse(p, NULL, "", 0);
    l = gm_analyzer_run(an, t, "", 0, NULL);
    CHECK_EQ_INT(l->count, 0);
    l = gm_analyzer_run(an, NULL, "", 0, NULL);
    CHECK_EQ_INT(l->count, 0);
    gm_analyzer_free(an);
    gm_tree_delete(t);
    ts_parser_delete(p);
}

/* Import lines the import edits put in, remove and rename: the bindings the statements below use
 * (np, logging for the logger, graph_break) and others that rebind them, shadowing ones, ones
 * nothing uses, and a wildcard. */
static const char *const import_lines[] = {
    "import numpy as np\n",
    "import math as np\n",
    "import logging\n",
    "import os as logging\n",
    "from torch._dynamo import graph_break\n",
    "from os import graph_break\n",
    "from torch.compiler import disable as graph_break\n",
    "from torch import nn as F\n",
    "from os import *\n",
    "import os.path\n",
};

/* Each class uses one of the names the import edits rebind; the first two imports stay. */
static const char import_model[] = "import torch\n"
                                   "import torch.nn as nn\n"
                                   "import numpy as np\n"
                                   "import logging\n"
                                   "from torch._dynamo import graph_break\n"
                                   "logger = logging.getLogger(__name__)\n"
                                   "\n"
                                   "class A(nn.Module):\n"
                                   "    def forward(self, x: torch.Tensor):\n"
                                   "        y = np.sum(x.numpy())\n"
                                   "        return x + y\n"
                                   "\n"
                                   "class B(nn.Module):\n"
                                   "    def forward(self, x):\n"
                                   "        graph_break()\n"
                                   "        return x\n"
                                   "\n"
                                   "class C(nn.Module):\n"
                                   "    def forward(self, x):\n"
                                   "        logger.info('x')\n"
                                   "        return x\n"
                                   "\n"
                                   "class D(nn.Module):\n"
                                   "    def forward(self, x):\n"
                                   "        print(x)\n"
                                   "        return x * 2\n";

/* The byte ranges of the file's import lines (at the start of a line), at most max. */
static size_t import_line_ranges(const doc *d, uint32_t *starts, uint32_t *ends, size_t max) {
    size_t n = 0;
    for (uint32_t p = 0; p < d->len && n < max;) {
        uint32_t e = p;
        while (e < d->len && d->text[e] != '\n')
            e++;
        bool kept = p < sizeof "import torch\nimport torch.nn as nn\n" - 1;
        if (!kept &&
            (strncmp(d->text + p, "import ", 7) == 0 || strncmp(d->text + p, "from ", 5) == 0)) {
            starts[n] = p;
            ends[n++] = e < d->len ? e + 1 : e;
        }
        p = e + 1;
    }
    return n;
}

/* Edits of import lines only (a keystroke at the end of one, a line replaced, removed or added):
 * the analyzer rebinds the imports and analyses again only the statements that use a name
 * whose binding changed; every result must equal a fresh analysis's. */
static void import_edits(void) {
    rng_state = 0x51ED2701u;
    doc d = {strdup(import_model), (uint32_t)strlen(import_model)};
    TSParser *parser = gm_python_parser_new(0);
    TSTree *tree = gm_python_parse(parser, NULL, d.text, d.len);
    gm_analyzer *inc = gm_analyzer_new();
    gm_analyzer_run(inc, tree, d.text, d.len, NULL);
    long runs = 0, rebound = 0, differing = 0, changed_findings = 0;
    size_t last_count = 0;
    size_t statements = 0, reused = 0;
    for (int i = 0; i < 400; i++) {
        uint32_t starts[32], ends[32];
        size_t n = import_line_ranges(&d, starts, ends, 32);
        const char *line = import_lines[rnd(sizeof import_lines / sizeof import_lines[0])];
        size_t at = n ? rnd((uint32_t)n) : 0;
        uint32_t op = rnd(4);
        TSInputEdit e;
        uint32_t second_line = sizeof "import torch\nimport torch.nn as nn\n" - 1;
        if (n == 0 || op == 0) /* a new import line before another one (or after the kept) */
            doc_edit(&d, n ? starts[at] : second_line, n ? starts[at] : second_line, line, &e);
        else if (op == 1) /* a keystroke at the end of the line: `F` -> `Fx` and back */
            doc_edit(&d, ends[at] - 1, ends[at] - 1, rnd(2) ? "x" : "_", &e);
        else if (op == 2 && n > 3)
            doc_edit(&d, starts[at], ends[at], "", &e);
        else
            doc_edit(&d, starts[at], ends[at], line, &e);
        gm_tree_edit(tree, &e);
        TSTree *next = gm_python_parse(parser, tree, d.text, d.len);
        gm_tree_delete(tree);
        tree = next;
        gm_analyzer_note_edit(inc, &e);
        const gm_finding_list *got = gm_analyzer_run(inc, tree, d.text, d.len, NULL);
        gm_analyzer_stats stats;
        gm_analyzer_last_stats(inc, &stats);
        if (stats.kept_last_good)
            continue; /* `from os import *x`: compared once the text parses again */
        rebound += stats.rebound_imports;
        if (stats.rebound_imports) {
            statements += stats.statements;
            reused += stats.reused;
        }
        gm_analyzer *fresh = gm_analyzer_new();
        const gm_finding_list *want = gm_analyzer_run(fresh, tree, d.text, d.len, NULL);
        runs++;
        changed_findings += want->count != last_count;
        last_count = want->count;
        if (!lists_equal(got, want) && differing++ < 3) {
            fprintf(stderr, "import edit %d differs from a fresh analysis:\n%s\n", i, d.text);
            at_dump(d.text, got);
            at_dump(d.text, want);
        }
        gm_analyzer_free(fresh);
    }
    fprintf(stderr,
            "import edits: %ld runs (%ld changing the number of findings), %ld after import edits "
            "only (%zu of their %zu statements reused), %ld differing\n",
            runs, changed_findings, rebound, reused, statements, differing);
    CHECK(differing == 0);
    CHECK(rebound > runs / 2);             /* the edits are what the rebinding is for */
    CHECK(changed_findings > runs / 20);   /* and they change what is found */
    CHECK(reused > statements / 4 && reused < statements); /* some reused, some not */
    gm_analyzer_free(inc);
    gm_tree_delete(tree);
    ts_parser_delete(parser);
    free(d.text);
}

/* The finding of rule on 1-based line `line` of list, counted. */
static size_t count_on_line(const gm_finding_list *list, const char *rule, uint32_t line) {
    size_t n = 0;
    for (size_t i = 0; i < list->count; i++)
        n += strcmp(list->items[i].rule->id, rule) == 0 && list->items[i].span.start.row + 1 == line;
    return n;
}

/* Types a `#` before the closing bracket of the first "relu(x)" of good (the parse breaks until it
 * is deleted), then deletes it. After each run: nothing is analysed again beyond the statements
 * around the error, held(findings) is true, and once the text parses again the findings equal a
 * fresh analysis's. kept_facts: the broken run keeps the last good file-wide facts. */
static void break_and_restore(const char *good, bool (*held)(const gm_finding_list *),
                              bool kept_facts) {
    doc d = {strdup(good), (uint32_t)strlen(good)};
    TSParser *parser = gm_python_parser_new(0);
    TSTree *tree = gm_python_parse(parser, NULL, d.text, d.len);
    gm_analyzer *an = gm_analyzer_new();
    const gm_finding_list *got = gm_analyzer_run(an, tree, d.text, d.len, NULL);
    CHECK(held(got));
    uint32_t at = (uint32_t)(strstr(d.text, "relu(x)") - d.text) + 6; /* before the ')' */
    for (int step = 0; step < 2; step++) {
        TSInputEdit e;
        if (step == 0)
            doc_edit(&d, at, at, "#", &e);
        else
            doc_edit(&d, at, at + 1, "", &e);
        gm_tree_edit(tree, &e);
        TSTree *next = gm_python_parse(parser, tree, d.text, d.len);
        gm_tree_delete(tree);
        tree = next;
        gm_analyzer_note_edit(an, &e);
        got = gm_analyzer_run(an, tree, d.text, d.len, NULL);
        gm_analyzer_stats stats;
        gm_analyzer_last_stats(an, &stats);
        CHECK(!stats.recomputed_all);
        /* all but the statements around the error (the broken one, and what recovery made of it) */
        CHECK(stats.reused + 2 >= stats.statements && stats.reused >= 3);
        CHECK(held(got));
        if (step == 0) {
            CHECK(ts_node_has_error(ts_tree_root_node(tree)));
            CHECK(!kept_facts || stats.kept_last_good);
        } else {
            gm_finding_list want = at_analyze(d.text);
            CHECK(strcmp(d.text, good) == 0);
            CHECK(lists_equal(got, &want));
            gm_finding_list_free(&want);
        }
    }
    gm_analyzer_free(an);
    gm_tree_delete(tree);
    ts_parser_delete(parser);
    free(d.text);
}

/* B's and C's prints, broken text or not. */
static bool prints_of_b_and_c(const gm_finding_list *got) {
    return count_on_line(got, "GM401", 11) + count_on_line(got, "GM401", 16) == 2;
}

/* The statements the error does not touch keep their results (C stays a Module subclass of the
 * broken A), and deleting it analyses again only the statement it was in. */
static void broken_text_keeps_last_good(void) {
    static const char good[] = "import torch\n"
                               "import torch.nn as nn\n"
                               "\n"
                               "class A(nn.Module):\n"
                               "    def forward(self, x):\n"
                               "        print(x)\n"
                               "        return torch.relu(x)\n"
                               "\n"
                               "class B(nn.Module):\n"
                               "    def forward(self, x):\n"
                               "        print(x)\n"
                               "        return x\n"
                               "\n"
                               "class C(A):\n"
                               "    def forward(self, x):\n"
                               "        print(x)\n"
                               "        return x\n";
    break_and_restore(good, prints_of_b_and_c, true);
}

/* B's branch on what scale returns (a tensor by its annotation), and C's print. */
static bool branch_of_b_and_print_of_c(const gm_finding_list *got) {
    return count_on_line(got, "GM101", 14) == 1 && count_on_line(got, "GM401", 20) == 1;
}

/* The same when error recovery swallows a function whose return annotation declares a tensor: the
 * table of known functions would lose it while the text does not parse, and every statement would
 * be analysed again with the smaller table. The table stays the last good one, so the caller's `d`
 * stays a tensor and only the statements around the error are analysed. */
static void broken_annotated_function_keeps_last_good(void) {
    static const char good[] = "import torch\n"
                               "import torch.nn as nn\n"
                               "\n"
                               "class A(nn.Module):\n"
                               "    def forward(self, x):\n"
                               "        return torch.relu(x)\n"
                               "\n"
                               "def scale(x) -> torch.Tensor:\n"
                               "    return x * 2\n"
                               "\n"
                               "class B(nn.Module):\n"
                               "    def forward(self, x):\n"
                               "        d = scale(x)\n"
                               "        if d[0] > 1:\n"
                               "            x = x + 1\n"
                               "        return x\n"
                               "\n"
                               "class C(nn.Module):\n"
                               "    def forward(self, x):\n"
                               "        print(x)\n"
                               "        return x\n";
    break_and_restore(good, branch_of_b_and_print_of_c, false);
}

int main(void) {
    targeted();
    broken_text_keeps_last_good();
    broken_annotated_function_keeps_last_good();
    import_edits();
    result_survives_note_edit();
    random_edits();
    return check_exit_code("analysis/analyzer_incremental");
}
