/* gm_syntax_init resolves every node type to the id tree-sitter's own lookup gives, and the
 * name set answers as a set. */
#include "check.h"

#include "analysis_test.h"
#include "name_set.h"
#include "syntax.h"

static void symbols_match_tree_sitter(void) {
    const TSLanguage *language = gm_python_language();
    gm_syntax syntax;
    CHECK_EQ_INT(gm_syntax_init(&syntax, language), 0);
#define GM_SYNTAX_CHECK(member, name)                                                              \
    CHECK_EQ_INT(syntax.sym.member,                                                                \
                 ts_language_symbol_for_name(language, name, (uint32_t)strlen(name), true));
    GM_SYNTAX_SYMBOLS(GM_SYNTAX_CHECK)
#undef GM_SYNTAX_CHECK
    /* and the ids are what parsed nodes carry */
    TSParser *parser = gm_python_parser_new(0);
    const char *src = "import torch\nx = f(a.b)\n";
    TSTree *tree = gm_python_parse(parser, NULL, src, strlen(src));
    TSNode root = ts_tree_root_node(tree);
    CHECK_EQ_INT(ts_node_symbol(root), syntax.sym.module);
    CHECK_EQ_INT(ts_node_symbol(ts_node_named_child(root, 0)), syntax.sym.import_statement);
    TSNode assign = ts_node_named_child(ts_node_named_child(root, 1), 0);
    CHECK_EQ_INT(ts_node_symbol(assign), syntax.sym.assignment);
    CHECK_EQ_INT(ts_node_symbol(gm_child(assign, syntax.field.left)), syntax.sym.identifier);
    CHECK_EQ_INT(ts_node_symbol(gm_child(assign, syntax.field.right)), syntax.sym.call);
    ts_tree_delete(tree);
    ts_parser_delete(parser);
}

static void name_set(void) {
    gm_name_set set = {0};
    const char *text = "alpha beta gamma alpha";
    CHECK(!gm_name_set_has_cstr(&set, "alpha"));
    CHECK_EQ_INT(gm_name_set_add(&set, (gm_slice){text, 5}), 0);
    CHECK_EQ_INT(gm_name_set_add(&set, (gm_slice){text + 6, 4}), 0);
    CHECK_EQ_INT(gm_name_set_add(&set, (gm_slice){text + 17, 5}), 0); /* alpha again */
    CHECK_EQ_INT(set.count, 2);
    CHECK(gm_name_set_has_cstr(&set, "alpha"));
    CHECK(gm_name_set_has_cstr(&set, "beta"));
    CHECK(!gm_name_set_has_cstr(&set, "gamma"));
    CHECK(!gm_name_set_has_cstr(&set, "alph"));
    /* growing keeps every name */
    char names[100][8];
    for (int i = 0; i < 100; i++) {
        snprintf(names[i], sizeof names[i], "n%d", i);
        CHECK_EQ_INT(gm_name_set_add(&set, (gm_slice){names[i], (uint32_t)strlen(names[i])}), 0);
    }
    CHECK_EQ_INT(set.count, 102);
    for (int i = 0; i < 100; i++)
        CHECK(gm_name_set_has_cstr(&set, names[i]));
    gm_name_set_clear(&set);
    CHECK(!gm_name_set_has_cstr(&set, "alpha"));
    CHECK(!gm_name_set_has_cstr(&set, "n5"));
    gm_name_set_free(&set);
}

int main(void) {
    symbols_match_tree_sitter();
    name_set();
    return check_exit_code("analysis/syntax");
}
