/* The module index's tables built from per-statement facts (what the analyzer keeps with each
 * statement's results) against the same tables built by walking the module, and the getter of a
 * breaking finding looked for inside its top-level statement against the same search from the
 * module. */
#include <ctype.h>

#include "check.h"

#include "analysis/module_facts/breaking_properties.h"
#include "analysis/module_facts/module_index.h"
#include "analysis_test.h"

static const char source[] =
    "import torch\n"
    "from torch import nn as tnn, Tensor\n"
    "class Base(tnn.Module):\n"
    "    pass\n"
    "@decorate\n"
    "class Mid(Base, metaclass=Meta):  # comment\n"
    "    @property\n"
    "    def scale(self):\n"
    "        def inner():\n"
    "            return self.w.item()\n"
    "        f = lambda: self.w.item()\n"
    "        return self.w.sum().item()\n"
    "    def plain(self):\n"
    "        return self.w.item()\n"
    "class Leaf(\n"
    "    Mid,  # why\n"
    "    pkg.mod.Base,\n"
    "):\n"
    "    pass\n"
    "def helper(x):\n"
    "    return x\n"
    "@torch.no_grad()\n"
    "async def fetch(x):\n"
    "    return x\n"
    "import math\n"
    "x = 1\n"
    "def helper(y):\n"
    "    return y\n"
    "class Mid:\n"
    "    pass\n";

static const char *const names[] = {"Base", "Mid", "Leaf", "helper", "fetch", "Module",
                                    "tnn",  "x",   "math", "pkg",    "mod",   "scale", "Aaa"};

typedef uint32_t (*lookup)(gm_module_index *, gm_slice, const gm_keyed_class **);

/* The same entries (keys and nodes, in order) from both indexes for every name. */
static void same_answers(gm_module_index *walked, gm_module_index *from_facts, lookup find,
                         const char *what) {
    for (size_t n = 0; n < sizeof names / sizeof names[0]; n++) {
        gm_slice name = {names[n], (uint32_t)strlen(names[n])};
        const gm_keyed_class *a, *b;
        uint32_t ca = find(walked, name, &a), cb = find(from_facts, name, &b);
        if (ca != cb)
            fprintf(stderr, "%s(%s): %u walked, %u from facts\n", what, names[n], ca, cb);
        CHECK_EQ_INT(cb, ca);
        for (uint32_t i = 0; i < ca && i < cb; i++) {
            CHECK(gm_slice_eq(a[i].key, b[i].key));
            CHECK(ts_node_eq(a[i].node, b[i].node));
        }
    }
}

static void tables_from_facts(void) {
    gm_syntax syntax;
    CHECK_EQ_INT(gm_syntax_init(&syntax, gm_python_language()), 0);
    TSParser *parser = gm_python_parser_new(0);
    TSTree *tree = gm_python_parse(parser, NULL, source, strlen(source));
    TSNode root = ts_tree_root_node(tree);
    uint32_t count = ts_node_child_count(root);
    TSNode *nodes = calloc(count, sizeof *nodes);
    gm_index_facts *facts = calloc(count, sizeof *facts);
    for (uint32_t i = 0; i < count; i++) {
        nodes[i] = ts_node_child(root, i);
        CHECK_EQ_INT(gm_index_facts_of(&syntax, source, nodes[i], &facts[i]), 0);
    }
    gm_module_index walked = {0}, from_facts = {0};
    gm_module_index_reset(&walked, &syntax, source, root);
    gm_module_index_reset(&from_facts, &syntax, source, root);
    gm_module_index_use_facts(&from_facts, nodes, facts, count);
    same_answers(&walked, &from_facts, gm_module_index_classes, "classes");
    same_answers(&walked, &from_facts, gm_module_index_subclasses, "subclasses");
    same_answers(&walked, &from_facts, gm_module_index_functions, "functions");
    /* the tables are not empty: the comparison compared something */
    const gm_keyed_class *first;
    CHECK_EQ_INT(gm_module_index_classes(&from_facts, (gm_slice){"Mid", 3}, &first), 2);
    CHECK_EQ_INT(gm_module_index_subclasses(&from_facts, (gm_slice){"Base", 4}, &first), 2);
    CHECK_EQ_INT(gm_module_index_subclasses(&from_facts, (gm_slice){"Meta", 4}, &first), 0);
    CHECK_EQ_INT(gm_module_index_functions(&from_facts, (gm_slice){"fetch", 5}, &first), 1);
    for (uint32_t byte = 0; byte <= strlen(source); byte += 7)
        CHECK(ts_node_eq(gm_module_index_import_before(&walked, byte),
                         gm_module_index_import_before(&from_facts, byte)));
    CHECK(!ts_node_is_null(gm_module_index_import_before(&from_facts, (uint32_t)strlen(source))));
    gm_module_index_free(&walked);
    gm_module_index_free(&from_facts);
    for (uint32_t i = 0; i < count; i++)
        gm_index_facts_free(&facts[i]);
    free(facts);
    free(nodes);
    gm_tree_delete(tree);
    ts_parser_delete(parser);
}

/* Tables sorted by the order kept from the run before (gm_module_index_use_orders) give what
 * sorting afresh gives: after an unchanged text (the order reused), a renamed class and a
 * moved one (the order no longer sorts: sorted again), and a kept order made wrong on purpose. */
static void tables_with_kept_orders(void) {
    gm_syntax syntax;
    CHECK_EQ_INT(gm_syntax_init(&syntax, gm_python_language()), 0);
    TSParser *parser = gm_python_parser_new(0);
    char renamed[sizeof source + 8], moved[sizeof source + 64];
    snprintf(renamed, sizeof renamed, "%s", source);
    memcpy(strstr(renamed, "class Leaf"), "class Aaaa", 10);
    snprintf(moved, sizeof moved, "class Zed(Base, Mid):\n    pass\n%s", source);
    const char *texts[] = {source, source, renamed, renamed, moved, source, source};
    gm_index_orders orders = {0};
    for (size_t t = 0; t < sizeof texts / sizeof texts[0]; t++) {
        const char *text = texts[t];
        TSTree *tree = gm_python_parse(parser, NULL, text, strlen(text));
        TSNode root = ts_tree_root_node(tree);
        gm_module_index walked = {0}, kept = {0};
        gm_module_index_reset(&walked, &syntax, text, root);
        gm_module_index_reset(&kept, &syntax, text, root);
        gm_module_index_use_orders(&kept, &orders);
        if (t == 6) {
            /* the last run's order reversed: still a permutation, but not a sorted one */
            for (uint32_t i = 0; i < orders.names.count / 2; i++) {
                uint32_t *o = orders.names.items, n = orders.names.count;
                uint32_t swap = o[i];
                o[i] = o[n - 1 - i];
                o[n - 1 - i] = swap;
            }
        }
        same_answers(&walked, &kept, gm_module_index_classes, "classes");
        same_answers(&walked, &kept, gm_module_index_subclasses, "subclasses");
        same_answers(&walked, &kept, gm_module_index_functions, "functions");
        CHECK(orders.names.count >= 4); /* the orders were kept */
        gm_module_index_free(&walked);
        gm_module_index_free(&kept);
        gm_tree_delete(tree);
    }
    gm_index_orders_free(&orders);
    ts_parser_delete(parser);
}

/* The getter whose own body holds the first byte of needle (nth occurrence), looked for from
 * the top-level statement that holds it and from the module: both must agree. */
static const char *getter_at(const char *needle, int nth, char *key, size_t size) {
    gm_syntax syntax;
    gm_syntax_init(&syntax, gm_python_language());
    TSParser *parser = gm_python_parser_new(0);
    TSTree *tree = gm_python_parse(parser, NULL, source, strlen(source));
    TSNode root = ts_tree_root_node(tree);
    const char *at = source;
    for (int i = 0; i <= nth && at; i++)
        at = strstr(i ? at + 1 : at, needle);
    CHECK(at != NULL);
    uint32_t byte = (uint32_t)(at - source);
    TSNode top = ts_node_first_child_for_byte(root, byte);
    char from_module[128];
    bool in_top = gm_breaking_property_getter_key(&syntax, source, top, byte, key, size);
    bool in_module =
        gm_breaking_property_getter_key(&syntax, source, root, byte, from_module, size);
    CHECK_EQ_INT(in_top, in_module);
    if (in_top && in_module)
        CHECK_EQ_STR(key, from_module);
    gm_tree_delete(tree);
    ts_parser_delete(parser);
    return in_top ? key : NULL;
}

static void getter_keys(void) {
    char key[128];
    /* the getter's own body, under a decorated class */
    CHECK_EQ_STR(getter_at("self.w.sum().item()", 0, key, sizeof key), "Mid.scale");
    CHECK_EQ_STR(getter_at("return self.w.sum()", 0, key, sizeof key), "Mid.scale");
    /* a def or a lambda nested in the getter is not its body */
    CHECK(getter_at("self.w.item()", 0, key, sizeof key) == NULL);
    CHECK(getter_at("self.w.item()", 1, key, sizeof key) == NULL);
    /* a method without @property */
    CHECK(getter_at("self.w.item()", 2, key, sizeof key) == NULL);
    /* outside any function; a module-level function */
    CHECK(getter_at("x = 1", 0, key, sizeof key) == NULL);
    CHECK(getter_at("return x", 0, key, sizeof key) == NULL);
    /* a key that does not fit */
    CHECK(getter_at("self.w.sum().item()", 0, key, 5) == NULL);
}

/* Whether the statement's text holds word as a whole word (the reference for the index: words
 * are runs of letters, digits, underscores and non-ASCII bytes that do not start with a
 * digit). */
static bool statement_mentions(const char *text, TSNode statement, const char *word) {
    uint32_t at = ts_node_start_byte(statement), end = ts_node_end_byte(statement);
    size_t len = strlen(word);
    while (at < end) {
        unsigned char c = (unsigned char)text[at];
        bool w = c == '_' || isalnum(c) || c >= 0x80;
        if (!w) {
            at++;
            continue;
        }
        uint32_t start = at;
        while (at < end && (text[at] == '_' || isalnum((unsigned char)text[at]) ||
                            (unsigned char)text[at] >= 0x80))
            at++;
        if (at - start == len && memcmp(text + start, word, len) == 0 && !isdigit(c))
            return true;
    }
    return false;
}

/* The statements that mention a word, in file order, against a plain scan of each statement:
 * over a module with thousands of distinct words (the word table grows many times while it is
 * built), words repeated within and across statements, words only in comments and strings,
 * numbers (never words) and non-ASCII names. */
static void mentions_match_a_scan(void) {
    gm_syntax syntax;
    CHECK_EQ_INT(gm_syntax_init(&syntax, gm_python_language()), 0);
    size_t cap = 400000, len = 0;
    char *text = malloc(cap);
    CHECK(text != NULL);
    for (int i = 0; i < 3000; i++)
        len += (size_t)snprintf(text + len, cap - len,
                                "def f%d(x):  # note%d shared\n    return g%d(x, w%d) + x * %d\n",
                                i, i % 7, i % 13, i, i);
    len += (size_t)snprintf(text + len, cap - len,
                            "s = 'only_in_string shared'\nnaïve = f1(ünï)\nv = 12345 + f2(1)\n");
    TSParser *parser = gm_python_parser_new(0);
    TSTree *tree = gm_python_parse(parser, NULL, text, (uint32_t)len);
    TSNode root = ts_tree_root_node(tree);
    gm_module_index index = {0};
    gm_module_index_reset(&index, &syntax, text, root);
    const char *words[] = {"f0",    "f1",     "f2999", "g0",    "g12",          "w1500",
                           "x",     "return", "def",   "note3", "only_in_string", "shared",
                           "naïve", "ünï",    "12345", "f3000", "missing",      "w"};
    uint32_t statements = ts_node_named_child_count(root);
    int mismatches = 0;
    for (size_t k = 0; k < sizeof words / sizeof words[0]; k++) {
        const TSNode *first;
        uint32_t count = gm_module_index_mentions(
            &index, (gm_slice){words[k], (uint32_t)strlen(words[k])}, &first);
        uint32_t expected = 0;
        for (uint32_t i = 0; i < statements; i++) {
            TSNode st = ts_node_named_child(root, i);
            if (!statement_mentions(text, st, words[k]))
                continue;
            if (expected >= count || !ts_node_eq(first[expected], st))
                mismatches++;
            expected++;
        }
        if (count != expected) {
            fprintf(stderr, "mentions(%s): %u, a scan finds %u\n", words[k], count, expected);
            mismatches++;
        }
    }
    CHECK_EQ_INT(mismatches, 0);
    /* and the answers are not all empty: the comparison compared something */
    const TSNode *first;
    CHECK_EQ_INT(gm_module_index_mentions(&index, (gm_slice){"shared", 6}, &first), 3001);
    CHECK_EQ_INT(gm_module_index_mentions(&index, (gm_slice){"12345", 5}, &first), 0);
    gm_module_index_free(&index);
    gm_tree_delete(tree);
    ts_parser_delete(parser);
    free(text);
}

int main(void) {
    tables_with_kept_orders();
    tables_from_facts();
    getter_keys();
    mentions_match_a_scan();
    return check_exit_code("analysis/module_facts/module_index");
}
