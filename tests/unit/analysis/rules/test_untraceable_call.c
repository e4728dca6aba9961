/* GM501 untraceable-call, GM502 graph-break-call, GM503 open-call, GM504 input-call, GM505
 * json-call, GM506 deepcopy-tensor and GM510 third-party-call: import aliases and
 * from-imports, calls dynamo traces, shadowing, eager-only guards, regions, frame skips,
 * catalogue entries and the suppress fix. */
#include <string.h>

#include "check.h"

#include "analysis/rules/catalogue/rule_catalogue.h"
#include "analysis_test.h"

#define HEAD                                                                                       \
    "import os\n"                                                                                  \
    "import pickle\n"                                                                              \
    "import random\n"                                                                              \
    "import time\n"                                                                                \
    "import torch\n"                                                                               \
    "@torch.compile\n"                                                                             \
    "def f(x):\n"

static void expect_body(const char *body, const char *rule, size_t n) {
    char src[4096];
    snprintf(src, sizeof src, "%s%s", HEAD, body);
    AT_EXPECT(src, rule, n);
}

static void skipped_calls(void) {
    expect_body("    a = time.time()\n    b = time.perf_counter()\n    c = time.monotonic()\n"
                "    d = time.process_time()\n",
                "GM501", 4);
    expect_body("    a = os.getpid()\n    b = os.path.exists('/')\n    c = pickle.dumps(1)\n"
                "    d = random.random()\n",
                "GM501", 4);
    AT_EXPECT("from time import perf_counter\nimport time as t\nimport torch\n@torch.compile\n"
              "def f(x):\n    a = perf_counter()\n    b = t.time()\n",
              "GM501", 2);
    /* Traced by dynamo, not a clock, shadowed, eager only, not imported, outside regions. */
    expect_body("    a = os.getenv('HOME')\n    b = os.path.join('a', 'b')\n    c = time.sleep\n",
                "GM501", 0);
    expect_body("    time = make()\n    a = time.time()\n", "GM501", 0);
    expect_body("    if not torch.compiler.is_compiling():\n        a = time.time()\n", "GM501", 0);
    AT_EXPECT("import torch\n@torch.compile\ndef f(x):\n    a = time.time()\n", "GM501", 0);
    AT_EXPECT("import time\nimport torch\nT = time.time()\ndef g(x):\n    return time.time()\n",
              "GM501", 0);
}

static void more_skipped_calls(void) {
    /* every time function but struct_time; os functions that ask the system, not the string
     * helpers; the serialisers; threading; seeding */
    expect_body("    a = time.sleep(0)\n    b = time.strftime('%Y')\n    c = time.time_ns()\n"
                "    d = time.struct_time((1,) * 9)\n",
                "GM501", 3);
    expect_body("    a = os.getcwd()\n    b = os.listdir('.')\n    c = os.path.abspath('a')\n"
                "    d = os.environ.setdefault('A', 'b')\n",
                "GM501", 4);
    expect_body("    a = os.path.basename('a')\n    b = os.path.splitext('a')\n"
                "    c = os.environ.get('A')\n    d = os.sep.join(['a'])\n"
                "    e = os.path.expandvars('$A')\n",
                "GM501", 0);
    expect_body("    a = pickle.loads(b)\n    pickle.dump(1, f)\n    c = pickle.load(f)\n", "GM501",
                3);
    AT_EXPECT("import torch\nimport re\nimport threading\n@torch.compile\ndef f(x):\n"
              "    a = torch.save(x, 'p')\n    b = torch.load('p')\n    c = re.finditer('a', s)\n"
              "    d = threading.Lock()\n    torch.manual_seed(0)\n    e = torch.get_rng_state()\n"
              "    g = re.match('a', s)\n    h = re.compile('a')\n",
              "GM501", 6);
    AT_EXPECT("import torch\nfrom torch import save\nfrom os.path import isfile\n@torch.compile\n"
              "def f(x):\n    save(x, 'p')\n    isfile('p')\n",
              "GM501", 2);
    /* a RLock reports another registry id, named in the message */
    AT_EXPECT("import torch\nimport threading\n@torch.compile\ndef f(x):\n"
              "    a = threading.RLock()\n",
              "GM501", 1);
    gm_finding_list l = at_analyze("import torch\nimport threading\n@torch.compile\n"
                                   "def f(x):\n    a = threading.RLock()\n");
    const gm_finding *f = at_find(&l, "GM501", 0);
    CHECK(f && strstr(f->message, "GB0156") != NULL);
    gm_finding_list_free(&l);
}

static void json_input_deepcopy(void) {
    AT_EXPECT("import json\nimport torch\n@torch.compile\ndef f(x, s):\n    a = json.loads(s)\n"
              "    b = json.dumps(a)\n    json.dump(a, out)\n    c = json.load(inp)\n",
              "GM505", 4);
    AT_EXPECT("import json\nimport torch\nCFG = json.loads('{}')\n@torch.compile\n"
              "def f(x, codec):\n    return codec.dumps(x)\n",
              "GM505", 0);
    AT_EXPECT("from json import dumps as to_text\nimport torch\n@torch.compile\n"
              "def f(x):\n    return to_text(1)\n",
              "GM505", 1);
    expect_body("    a = input('? ')\n", "GM504", 1);
    expect_body("    def input(p):\n        return p\n    a = input('f')\n", "GM504", 0);
    AT_EXPECT("import torch\nimport copy\nfrom copy import deepcopy as dc\n@torch.compile\n"
              "def f(x: torch.Tensor, d):\n    a = copy.deepcopy(x)\n    b = dc([x, 1])\n"
              "    c = copy.deepcopy({'k': x})\n    e = copy.deepcopy(d)\n"
              "    g = copy.deepcopy({'k': 1})\n    h = copy.copy(x)\n",
              "GM506", 3);
}

static void third_party(void) {
    AT_EXPECT("import torch\nimport tqdm\nimport pandas as pd\nfrom sklearn import metrics\n"
              "@torch.compile\ndef f(x):\n    bar = tqdm.tqdm(total=2)\n    df = pd.DataFrame()\n"
              "    s = metrics.accuracy_score(a, b)\n",
              "GM510", 3);
    /* numpy is traced; names not imported, or bound locally, are not the modules */
    AT_EXPECT("import torch\nimport numpy as np\n@torch.compile\ndef f(x, pd):\n"
              "    a = np.ones(2)\n    b = pd.DataFrame()\n    c = tqdm(range(2))\n",
              "GM510", 0);
    AT_EXPECT("import torch\nfrom tqdm import tqdm\n@torch.compile\ndef f(x):\n"
              "    def tqdm(it):\n        return it\n    for i in tqdm(range(2)):\n"
              "        x = x + i\n",
              "GM510", 0);
    /* looping over a tqdm object cannot be resumed: the later print is not reported */
    const char *src = "import torch\nfrom tqdm import tqdm\n@torch.compile\ndef f(x):\n"
                      "    for i in tqdm(range(2)):\n        x = x + i\n    print(x)\n";
    gm_finding_list l = at_analyze(src);
    const gm_finding *f = at_find(&l, "GM510", 0);
    CHECK(f && strstr(f->message, "whole function runs eagerly") != NULL);
    CHECK_EQ_INT(at_count(&l, "GM401"), 0);
    gm_finding_list_free(&l);
    AT_EXPECT("import torch\nfrom tqdm import tqdm\n@torch.compile\ndef f(x):\n"
              "    bar = tqdm(total=2)\n    print(x)\n",
              "GM401", 1);
}

static void graph_break_and_open(void) {
    expect_body("    torch._dynamo.graph_break()\n", "GM502", 1);
    AT_EXPECT("import torch\nfrom torch._dynamo import graph_break\n@torch.compile\n"
              "def f(x):\n    graph_break()\n",
              "GM502", 1);
    expect_body("    torch.compiler.graph_break_fn()\n", "GM502", 0);
    expect_body("    a = open('f')\n", "GM503", 1);
    expect_body("    def open(p):\n        return p\n    a = open('f')\n", "GM503", 0);
    expect_body("    a = x.open('f')\n", "GM503", 0);
    AT_EXPECT("from io import open\nimport torch\n@torch.compile\ndef f(x):\n    open('f')\n",
              "GM503", 0);
    /* `with open(...)`: dynamo cannot enter the file and skips the frame */
    const char *src = HEAD "    with open('f') as fh:\n        print(fh)\n    print(x)\n";
    gm_finding_list l = at_analyze(src);
    const gm_finding *f = at_find(&l, "GM503", 0);
    CHECK(f && strstr(f->message, "whole function runs eagerly") != NULL);
    CHECK_EQ_INT(at_count(&l, "GM401"), 0);
    gm_finding_list_free(&l);
    expect_body("    fh = open('f')\n    print(x)\n", "GM401", 1);
}

static void consequences_and_fixes(void) {
    /* two functions: after the break in the loop dynamo skips the rest of f */
    const char *src = HEAD "    for i in range(2):\n        a = time.time()\n"
                           "@torch.compile\ndef g(x):\n"
                           "    try:\n        torch._dynamo.graph_break()\n    except E:\n"
                           "        pass\n";
    gm_finding_list l = at_analyze(src);
    const gm_finding *a = at_find(&l, "GM501", 0), *b = at_find(&l, "GM502", 0);
    CHECK(a && strstr(a->message, "inside a loop") != NULL);
    CHECK(a && strstr(a->message, "`time.time()`") != NULL);
    CHECK(b && strstr(b->message, "try/with") != NULL);
    CHECK(a && strcmp(at_span_text(src, a), "time.time()") == 0);
    CHECK(a && at_fix(a, GM_FIX_KIND_SUPPRESS) != NULL);
    CHECK(b && at_fix(b, GM_FIX_KIND_SUPPRESS) != NULL);
    gm_finding_list_free(&l);
    expect_body("    a = time.time()  # graphmend: ignore[GM501]\n", "GM501", 0);

    static const char *const ids[][3] = {
        {"GM501", "untraceable-call", "GB0007"}, {"GM502", "graph-break-call", "GB0025"},
        {"GM503", "open-call", "GB0059"},        {"GM504", "input-call", "GB0059"},
        {"GM505", "json-call", "GB0156"},        {"GM506", "deepcopy-tensor", "GB4198"},
        {"GM510", "third-party-call", "GB0007"},
    };
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        const gm_rule *r = gm_rule_by_id(ids[i][0]);
        CHECK(r != NULL);
        if (!r)
            continue;
        CHECK_EQ_STR(r->name, ids[i][1]);
        CHECK_EQ_STR(r->registry_id, ids[i][2]);
        CHECK(r->url && strstr(r->url, "https://meta-pytorch.github.io/compile-graph-break-site/"
                                       "gb/gb") == r->url);
        CHECK_EQ_INT(r->severity, GM_SEVERITY_WARNING);
        CHECK(r->explanation && r->hint && r->gb_type);
    }
}

/* Each message names the call as the code writes it, so that Problems-panel rows differ. */
static void messages_name_the_call_as_written(void) {
    const char *src = HEAD "    t0 = time.time()\n    fh = open(os.devnull, 'w')\n"
                           "    print('x', file=fh)\n    return x\n";
    gm_finding_list l = at_analyze(src);
    const gm_finding *t = at_find(&l, "GM501", 0), *o = at_find(&l, "GM503", 0);
    CHECK(t && strncmp(t->message, "`time.time()` call: ", 20) == 0);
    CHECK(o && strncmp(o->message, "`open(os.devnull, 'w')` call: ", 30) == 0);
    gm_finding_list_free(&l);
}

int main(void) {
    messages_name_the_call_as_written();
    skipped_calls();
    more_skipped_calls();
    json_input_deepcopy();
    third_party();
    graph_break_and_open();
    consequences_and_fixes();
    return check_exit_code("analysis/rules/untraceable_call");
}
