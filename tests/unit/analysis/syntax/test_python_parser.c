/* The parser wrapper: parsing, incremental reparsing, and the time bound on pathological
 * input. */
#include "check.h"

#include <stdlib.h>
#include <time.h>

#include "analysis_test.h"

static char *repeat(const char *unit, size_t times, size_t *len) {
    size_t n = strlen(unit);
    char *s = malloc(n * times + 1);
    for (size_t i = 0; i < times; i++)
        memcpy(s + i * n, unit, n);
    s[n * times] = '\0';
    *len = n * times;
    return s;
}

static double now_seconds(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void parses(void) {
    CHECK(gm_python_language() != NULL);
    TSParser *p = gm_python_parser_new(0);
    CHECK(p != NULL);
    const char *src = "import torch\ndef f(x):\n    return x\n";
    TSTree *t = gm_python_parse(p, NULL, src, strlen(src));
    CHECK(t != NULL);
    TSNode root = ts_tree_root_node(t);
    CHECK_EQ_STR(ts_node_type(root), "module");
    CHECK(!ts_node_has_error(root));
    CHECK_EQ_INT(ts_node_named_child_count(root), 2);

    /* Incremental: insert "y = 1\n" at the start and reparse with the edited old tree. */
    const char *src2 = "y = 1\nimport torch\ndef f(x):\n    return x\n";
    TSInputEdit e = {0, 0, 6, {0, 0}, {0, 0}, {1, 0}};
    gm_tree_edit(t, &e);
    TSTree *t2 = gm_python_parse(p, t, src2, strlen(src2));
    TSTree *fresh = gm_python_parse(p, NULL, src2, strlen(src2));
    char *a = ts_node_string(ts_tree_root_node(t2));
    char *b = ts_node_string(ts_tree_root_node(fresh));
    CHECK_EQ_STR(a, b);
    free(a);
    free(b);
    gm_tree_delete(t);
    gm_tree_delete(t2);
    gm_tree_delete(fresh);
    ts_parser_delete(p);
}

static void time_bound(void) {
    size_t len;
    char *big = repeat("x = [1, 2, (3, {4: 5})]  # c\n", 150000, &len); /* ~4 MB */
    TSParser *p = gm_python_parser_new(1000);                           /* 1 ms */
    double start = now_seconds();
    TSTree *t = gm_python_parse(p, NULL, big, len);
    double took = now_seconds() - start;
    CHECK(t == NULL);
    CHECK(took < 2.0); /* stopped early (a full parse takes far longer under sanitizers) */
    if (t)
        gm_tree_delete(t);
    /* The parser starts afresh after a timeout. */
    const char *small = "x = 1\n";
    t = gm_python_parse(p, NULL, small, strlen(small));
    CHECK(t != NULL);
    CHECK(t && !ts_node_has_error(ts_tree_root_node(t)));
    CHECK(t && ts_node_end_byte(ts_tree_root_node(t)) == strlen(small));
    if (t)
        gm_tree_delete(t);
    ts_parser_delete(p);
    free(big);

    /* Pathological nesting and unterminated constructs: bounded, never a crash. Whatever
     * comes back can be analysed. */
    const char *units[] = {"(", "[", "{", "\"\"\"", "if x:\n ", "lambda: ", "not ", "-"};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        char *s = repeat(units[i], 20000, &len);
        p = gm_python_parser_new(200000); /* 200 ms */
        t = gm_python_parse(p, NULL, s, len);
        if (t) {
            gm_analyzer *a = gm_analyzer_new();
            const gm_finding_list *l = gm_analyzer_run(a, t, s, len, NULL);
            CHECK(l != NULL);
            gm_analyzer_free(a);
            gm_tree_delete(t);
        }
        ts_parser_delete(p);
        free(s);
    }
    /* Deep nesting inside a compiled region. */
    size_t n1, n2;
    char *open = repeat("(", 3000, &n1), *close = repeat(")", 3000, &n2);
    size_t cap = n1 + n2 + 256;
    char *src = malloc(cap);
    snprintf(src, cap,
             "import torch\n@torch.compile\ndef f(x):\n    if %sx.sum()%s:\n"
             "        print(%sx%s)\n",
             open, close, open, close);
    gm_finding_list l;
    gm_finding_list_init(&l);
    int rc = gm_analyze_source(src, strlen(src), NULL, &l);
    CHECK(rc == 0 || rc == -1);
    gm_finding_list_free(&l);
    free(open);
    free(close);
    free(src);
}

/* A lone "\r" ends a line as "\n" does (CPython reads it so): the same tree, the same byte
 * offsets, and rows that count it; "\r\n" is one line break. */
static void lone_cr_ends_lines(void) {
    TSParser *p = gm_python_parser_new(0);
    const char *lf = "import torch\ndef f(x):\n    if x:\n        return x\n    return x\n";
    const char *cr = "import torch\rdef f(x):\r    if x:\r\n        return x\r    return x\r";
    TSTree *tl = gm_python_parse(p, NULL, lf, strlen(lf));
    TSTree *tc = gm_python_parse(p, NULL, cr, strlen(cr));
    TSNode rl = ts_tree_root_node(tl), rc = ts_tree_root_node(tc);
    CHECK(!ts_node_has_error(rc));
    char *a = ts_node_string(rl);
    char *b = ts_node_string(rc);
    CHECK_EQ_STR(a, b);
    free(a);
    free(b);
    TSNode ret = ts_node_named_child(rc, 1); /* the def */
    CHECK_EQ_INT(ts_node_end_point(ret).row, 4);
    CHECK_EQ_INT(ts_node_end_byte(ret), strlen(cr) - 1);
    gm_tree_delete(tl);
    gm_tree_delete(tc);
    ts_parser_delete(p);
}

/* A text of count copies of line (each ending in end), then tail: malloc'd. */
static char *repeated(const char *line, const char *end, size_t count, const char *tail,
                      size_t *len) {
    size_t l = strlen(line), e = strlen(end), t = strlen(tail);
    char *text = malloc(count * (l + e) + t + 1);
    CHECK(text != NULL);
    for (size_t i = 0; i < count; i++) {
        memcpy(text + i * (l + e), line, l);
        memcpy(text + i * (l + e) + l, end, e);
    }
    memcpy(text + count * (l + e), tail, t + 1);
    *len = count * (l + e) + t;
    return text;
}

/* A file of comments the parser library would miscount is refused before it is parsed, with
 * "\r" and "\r\n" line ends and blank lines between them; comments after code do not count,
 * and just below the bound a file parses. */
static void refuses_long_comment_runs(void) {
    TSParser *parser = gm_python_parser_new(0);
    CHECK(parser != NULL);
    const char *ends[] = {"\n", "\r\n", "\r"};
    for (int i = 0; i < 3; i++) {
        size_t len;
        char *text = repeated("  # comment", ends[i], GM_PARSER_MAX_EXTRAS_RUN, "x = 1\n", &len);
        CHECK(gm_python_text_refused(text, len) != NULL);
        CHECK(gm_python_parse(parser, NULL, text, len) == NULL);
        free(text);
    }
    size_t len;
    char *blanks = repeated("# c\n", "\n", GM_PARSER_MAX_EXTRAS_RUN, "", &len);
    CHECK(gm_python_text_refused(blanks, len) != NULL);
    free(blanks);
    char *code = repeated("x = 1 # c", "\n", GM_PARSER_MAX_EXTRAS_RUN, "", &len);
    CHECK(gm_python_text_refused(code, len) == NULL);
    TSTree *tree = gm_python_parse(parser, NULL, code, len);
    CHECK(tree != NULL);
    gm_tree_delete(tree);
    free(code);
    char *below = repeated("# c", "\n", GM_PARSER_MAX_EXTRAS_RUN - 1, "x = 1\n", &len);
    CHECK(gm_python_text_refused(below, len) == NULL);
    tree = gm_python_parse(parser, NULL, below, len);
    CHECK(tree != NULL);
    gm_tree_delete(tree);
    free(below);
    /* a bracket open over that many lines: error recovery or the comments it holds gather in
     * one node; brackets in strings and comments do not count */
    char *unclosed = repeated("x = 1", "\n", GM_PARSER_MAX_EXTRAS_RUN, "", &len);
    unclosed[0] = '[';
    CHECK(gm_python_text_refused(unclosed, len) != NULL);
    CHECK(gm_python_parse(parser, NULL, unclosed, len) == NULL);
    unclosed[0] = '#';
    CHECK(gm_python_text_refused(unclosed, len) == NULL);
    memcpy(unclosed, "'['  ", 5);
    CHECK(gm_python_text_refused(unclosed, len) == NULL);
    free(unclosed);
    char *listed = repeated("  # c", "\n", GM_PARSER_MAX_EXTRAS_RUN / 2, "1,\n", &len);
    char *both = malloc(2 * len + 8);
    CHECK(both != NULL);
    memcpy(both, "[", 1);
    memcpy(both + 1, listed, len);
    memcpy(both + 1 + len, listed, len);
    memcpy(both + 1 + 2 * len, "]\n", 3);
    CHECK(gm_python_text_refused(both, 2 * len + 3) != NULL);
    free(both);
    free(listed);
    ts_parser_delete(parser);
}

int main(void) {
    parses();
    lone_cr_ends_lines();
    time_bound();
    refuses_long_comment_runs();
    return check_exit_code("analysis/syntax/python_parser");
}
