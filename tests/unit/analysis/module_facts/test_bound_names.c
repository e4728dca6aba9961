/* gm_function_bound_names (one walk, a set) answers exactly as gm_function_binds (one walk per
 * name) for every name, bound or not, and the call part keeps the same names for regions. */
#include "check.h"

#include "analysis/module_facts/symbols.h"
#include "analysis/regions/compiled_regions.h"
#include "analysis/syntax/syntax.h"
#include "analysis_test.h"

static const char *const src = "import torch\n"
                               "def f(a, b: int, c=1, *args, d: float = 2.0, **kw):\n"
                               "    x = y = a\n"
                               "    (p, [q, *r]) = b\n"
                               "    s += 1\n"
                               "    for i, (j, k) in enumerate(c):\n"
                               "        pass\n"
                               "    with open('f') as fh, torch.no_grad():\n"
                               "        pass\n"
                               "    if (w := a):\n"
                               "        pass\n"
                               "    import os.path as osp, json\n"
                               "    from math import sqrt, pi as PI\n"
                               "    def inner(z):\n"
                               "        hidden = 1\n"
                               "    class Local:\n"
                               "        attr = 2\n"
                               "    g = lambda lam: lam\n"
                               "    [comp for comp in args]\n"
                               "    try:\n"
                               "        pass\n"
                               "    except ValueError as err:\n"
                               "        pass\n"
                               "    return print(x)\n";

static const char *const names[] = {
    "a",     "b",     "c",     "args", "d",    "kw", "x",      "y",    "p",          "q",
    "r",     "s",     "i",     "j",    "k",    "fh", "w",      "osp",  "json",       "sqrt",
    "PI",    "inner", "Local", "g",    "err",  "z",  "hidden", "attr", "lam",        "comp",
    "print", "torch", "open",  "os",   "math", "pi", "path",   "f",    "ValueError", NULL};

static void set_matches_walk(void) {
    gm_syntax syn;
    CHECK_EQ_INT(gm_syntax_init(&syn, gm_python_language()), 0);
    TSParser *parser = gm_python_parser_new(0);
    TSTree *tree = gm_python_parse(parser, NULL, src, strlen(src));
    TSNode fn = ts_node_named_child(ts_tree_root_node(tree), 1);
    CHECK_EQ_STR(ts_node_type(fn), "function_definition");
    gm_name_set set = {0};
    CHECK_EQ_INT(gm_function_bound_names(&syn, src, fn, &set), 0);
    int bound = 0;
    for (size_t i = 0; names[i]; i++) {
        bool walk = gm_function_binds(&syn, src, fn, names[i]);
        bool in_set = gm_name_set_has_cstr(&set, names[i]);
        if (walk != in_set)
            fprintf(stderr, "name %s: walk %d, set %d\n", names[i], walk, in_set);
        CHECK(walk == in_set);
        bound += walk;
    }
    /* the walk's own answers, for the record: nested bodies, lambdas and comprehensions bind
     * nothing of f's; builtins and imports of the module are not f's */
    CHECK(gm_function_binds(&syn, src, fn, "osp"));
    CHECK(gm_function_binds(&syn, src, fn, "inner"));
    CHECK(!gm_function_binds(&syn, src, fn, "hidden"));
    CHECK(!gm_function_binds(&syn, src, fn, "lam"));
    CHECK(!gm_function_binds(&syn, src, fn, "print"));
    CHECK_EQ_INT(bound, 25);
    CHECK_EQ_INT(set.count, (long long)bound);

    /* the call part records the same names, relative to the statement, for the region */
    gm_symbols symbols;
    gm_symbols_init(&symbols);
    TSNode root = ts_tree_root_node(tree);
    for (uint32_t i = 0; i < ts_node_named_child_count(root); i++) {
        uint64_t h = GM_HASH_INIT;
        CHECK_EQ_INT(gm_symbols_scan_top(&symbols, &syn, src, ts_node_named_child(root, i), &h), 0);
    }
    CHECK_EQ_INT(gm_symbols_finish(&symbols), 0);
    gm_analysis_options options;
    gm_analysis_options_default(&options);
    gm_call_part part;
    memset(&part, 0, sizeof part);
    CHECK_EQ_INT(gm_call_part_build(&symbols, &syn, src, &options, fn, true, &part), 0);
    /* f, and the def nested in it (a node of its own, compiled when f calls it) */
    CHECK_EQ_INT(part.node_count, 2);
    CHECK(part.nodes[0].has_bound);
    gm_region_site site = {.function = fn, .calls = &part, .node = 0};
    gm_name_set kept = {0};
    CHECK(gm_region_site_bound_names(&site, src, fn, &kept));
    CHECK_EQ_INT(kept.count, set.count);
    for (uint32_t i = 0; i < set.count; i++)
        CHECK(gm_name_set_has(&kept, set.items[i]));
    /* print is called but not bound: it stays a callee; x is bound, so print(x) is kept */
    bool print_callee = false;
    for (uint32_t i = 0; i < part.nodes[0].callee_count; i++)
        print_callee |= strcmp(part.callees[part.nodes[0].callee_start + i].key, "print") == 0;
    CHECK(print_callee);
    gm_call_part_free(&part);
    gm_name_set_free(&kept);
    gm_symbols_free(&symbols);
    gm_name_set_free(&set);
    gm_tree_delete(tree);
    ts_parser_delete(parser);
}

int main(void) {
    set_matches_walk();
    return check_exit_code("analysis/module_facts/bound_names");
}
