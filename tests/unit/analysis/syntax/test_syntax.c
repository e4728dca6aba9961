/* gm_syntax_init resolves every node type to the id tree-sitter's own lookup gives, and the
 * name set answers as a set. */
#include "check.h"

#include "analysis/syntax/name_set.h"
#include "analysis/syntax/syntax.h"
#include "analysis_test.h"

static const char *source_of_walk; /* the text of the tree check_running_children walks */

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
    gm_tree_delete(tree);
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

/* gm_child answers as tree-sitter does: for every node and field of a tree, again after the
 * tree is deleted and another one (perhaps at the same addresses) parsed, and after an edit
 * moves the nodes of an old tree. */
static void same_child(TSNode n, TSFieldId field, int *mismatches) {
    TSNode remembered = gm_child(n, field), asked = ts_node_child_by_field_id(n, field);
    if (!ts_node_eq(remembered, asked) ||
        (!ts_node_is_null(asked) && (ts_node_start_byte(remembered) != ts_node_start_byte(asked) ||
                                     ts_node_end_byte(remembered) != ts_node_end_byte(asked))))
        (*mismatches)++;
}

static void check_fields(const gm_syntax *syn, TSNode n, int *mismatches, int depth) {
    const TSFieldId fields[] = {syn->field.left,      syn->field.right,     syn->field.function,
                                syn->field.arguments, syn->field.body,      syn->field.name,
                                syn->field.condition, syn->field.attribute, syn->field.object};
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        same_child(n, fields[i], mismatches);
        same_child(n, fields[i], mismatches); /* the remembered answer */
    }
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count && depth < 64; i++)
        check_fields(syn, ts_node_named_child(n, i), mismatches, depth + 1);
}

static void remembered_field_lookups(void) {
    gm_syntax syn;
    CHECK_EQ_INT(gm_syntax_init(&syn, gm_python_language()), 0);
    TSParser *parser = gm_python_parser_new(0);
    const char *sources[] = {
        "x = f(a.b)\nif x:\n    y = g(x, k=1)\n",
        "def f(a):\n    return a.b(c)\n",
        "x = f(a.b)\nif x:\n    y = g(x, k=1)\n",
        "class C:\n    def m(self):\n        self.v = w(1)\n",
    };
    int mismatches = 0;
    for (int round = 0; round < 20; round++) {
        const char *src = sources[round % 4];
        TSTree *tree = gm_python_parse(parser, NULL, src, strlen(src));
        check_fields(&syn, ts_tree_root_node(tree), &mismatches, 0);
        /* an edit in place: "x = " becomes "xyz = ", moving every later node */
        TSInputEdit edit = {.start_byte = 1,
                            .old_end_byte = 1,
                            .new_end_byte = 3,
                            .start_point = {0, 1},
                            .old_end_point = {0, 1},
                            .new_end_point = {0, 3}};
        gm_tree_edit(tree, &edit);
        check_fields(&syn, ts_tree_root_node(tree), &mismatches, 0);
        gm_tree_delete(tree);
    }
    CHECK_EQ_INT(mismatches, 0);
    ts_parser_delete(parser);
}

/* Where a module-level line goes after the imports (gm_module_head_end): the start of the line
 * after the last import before the first def or class, counting a try block of imports and
 * skipping other statements; none when no import comes first. */
static uint32_t head_end(const char *src) {
    gm_syntax syntax;
    CHECK_EQ_INT(gm_syntax_init(&syntax, gm_python_language()), 0);
    TSParser *parser = gm_python_parser_new(0);
    TSTree *tree = gm_python_parse(parser, NULL, src, strlen(src));
    uint32_t at = gm_module_head_end(&syntax, src, (uint32_t)strlen(src), ts_tree_root_node(tree));
    gm_tree_delete(tree);
    ts_parser_delete(parser);
    return at;
}

static void module_head(void) {
    CHECK_EQ_INT(head_end("import torch\nimport os\n\ndef f():\n    pass\n"),
                 strlen("import torch\nimport os\n"));
    CHECK_EQ_INT(head_end("\"\"\"doc\"\"\"\nfrom __future__ import annotations\nimport torch\n"
                          "log = get()\ntry:\n    import apex\nexcept ImportError:\n    apex = None\n"
                          "x = 1\nclass C:\n    pass\nimport late\n"),
                 strlen("\"\"\"doc\"\"\"\nfrom __future__ import annotations\nimport torch\n"
                        "log = get()\ntry:\n    import apex\nexcept ImportError:\n    apex = None\n"));
    CHECK_EQ_INT(head_end("def f():\n    pass\nimport torch\n"), UINT32_MAX);
    CHECK_EQ_INT(head_end("x = 1\n"), UINT32_MAX);
    CHECK_EQ_INT(head_end("import torch"), UINT32_MAX); /* no line after it */
    CHECK_EQ_INT(head_end("import torch; import os\r\nx = 1\r\n"),
                 strlen("import torch; import os\r\n"));
}

static const char *const walk_sources[] = {
    ("def f(a, b=1):\n"
     "    x = g(a.b.c, k=h(2), **kw)[0]  # note\n"
     "    a[m], b[m] = t(x)\n"
     "    s = 'plain' + r\"raw\\n\" + b'bytes' + f'{h(x)!r:>{w}}' + F\"{y}\" + rf'{z()}'\n"
     "    d = {'k': (yield q.r), **{u: v for u, v in w.items()}}\n"
     "    y = (p\n"
     "         # between\n"
     "         .q)(r := s.t)\n"
     "    return lambda z: z.w(), [i for i in range(3) if i]\n"),
    ("class C:\n    def m(self):\n        with open(p) as fh, q() as (a, b):\n"
     "            self.v: int = w(1)[self.k] if c else 2\n"),
    "def broken(:\n    x = f(a.\n    y = 'open\n    g(k=)\n",
};

/* Whether the subtree of n holds something a walk for what runs looks at. */
static bool holds_running(const gm_syntax *syn, TSNode n) {
    TSSymbol t = ts_node_symbol(n);
    if (t == syn->sym.call || t == syn->sym.attribute || t == syn->sym.named_expression ||
        t == syn->sym.assignment || t == syn->sym.lambda || t == syn->sym.subscript ||
        strcmp(ts_node_type(n), "interpolation") == 0 || ts_node_is_missing(n) ||
        t == syn->sym.error)
        return true;
    uint32_t count = ts_node_child_count(n);
    for (uint32_t i = 0; i < count; i++)
        if (holds_running(syn, ts_node_child(n, i)))
            return true;
    return false;
}

static void check_running_children(const gm_syntax *syn, TSNode n, int *left_out, int *wrong) {
    uint32_t first, end, count = ts_node_named_child_count(n);
    gm_running_children(syn, source_of_walk, n, ts_node_symbol(n), &first, &end);
    if (first > end || end > count)
        (*wrong)++;
    for (uint32_t i = 0; i < count; i++) {
        TSNode c = ts_node_named_child(n, i);
        if (i < first || i >= end) {
            (*left_out)++;
            if (holds_running(syn, c)) {
                fprintf(stderr, "left out: %s under %s\n", ts_node_type(c), ts_node_type(n));
                (*wrong)++;
            }
        }
        check_running_children(syn, c, left_out, wrong);
    }
}

/* gm_running_children leaves out only names and string text: nothing below what it leaves out
 * is a call, an attribute, a binding, an interpolation or an error; and it does leave some out
 * (attribute names, keyword names, plain strings' parts), not f-strings' parts. */
static void running_children(void) {
    gm_syntax syn;
    CHECK_EQ_INT(gm_syntax_init(&syn, gm_python_language()), 0);
    TSParser *parser = gm_python_parser_new(0);
    int left_out = 0, wrong = 0;
    for (size_t k = 0; k < sizeof walk_sources / sizeof walk_sources[0]; k++) {
        source_of_walk = walk_sources[k];
        TSTree *tree = gm_python_parse(parser, NULL, source_of_walk, strlen(source_of_walk));
        check_running_children(&syn, ts_tree_root_node(tree), &left_out, &wrong);
        gm_tree_delete(tree);
    }
    CHECK_EQ_INT(wrong, 0);
    CHECK(left_out > 20);
    /* an f-string keeps its parts; a plain one and an attribute's name do not */
    const char *src = "x = f'{a}' + 'b' + c.d\n";
    TSTree *tree = gm_python_parse(parser, NULL, src, strlen(src));
    TSNode right = gm_child(ts_node_named_child(ts_node_named_child(ts_tree_root_node(tree), 0), 0),
                            syn.field.right);
    TSNode fstring = gm_child(gm_child(right, syn.field.left), syn.field.left);
    TSNode plain = gm_child(gm_child(right, syn.field.left), syn.field.right);
    TSNode attribute = gm_child(right, syn.field.right);
    uint32_t first, end;
    gm_running_children(&syn, src, fstring, ts_node_symbol(fstring), &first, &end);
    CHECK(first == 0 && end == ts_node_named_child_count(fstring) && end >= 3);
    gm_running_children(&syn, src, plain, ts_node_symbol(plain), &first, &end);
    CHECK_EQ_INT(end, 0);
    gm_running_children(&syn, src, attribute, ts_node_symbol(attribute), &first, &end);
    CHECK(first == 0 && end == 1);
    gm_tree_delete(tree);
    ts_parser_delete(parser);
}

static void check_parents(TSNode function, TSNode n, int *checked, int *wrong) {
    uint32_t count = ts_node_child_count(n);
    for (uint32_t i = 0; i < count; i++) {
        TSNode c = ts_node_child(n, i);
        (*checked)++;
        if (!ts_node_eq(gm_parent_within(function, c), ts_node_parent(c))) {
            fprintf(stderr, "parent of %s at %u differs\n", ts_node_type(c),
                    ts_node_start_byte(c));
            (*wrong)++;
        }
        check_parents(function, c, checked, wrong);
    }
}

/* gm_parent_within answers as ts_node_parent for every node (named or not, errors and missing
 * nodes included) below a function, asked from the function and from the root; and for a node
 * outside the ancestor it is given. */
static void parents_within(void) {
    TSParser *parser = gm_python_parser_new(0);
    int checked = 0, wrong = 0;
    for (size_t k = 0; k < sizeof walk_sources / sizeof walk_sources[0]; k++) {
        const char *src = walk_sources[k];
        TSTree *tree = gm_python_parse(parser, NULL, src, strlen(src));
        TSNode root = ts_tree_root_node(tree);
        TSNode function = ts_node_named_child(root, 0);
        check_parents(function, function, &checked, &wrong);
        check_parents(root, root, &checked, &wrong);
        TSNode last = ts_node_named_child(root, ts_node_named_child_count(root) - 1);
        TSNode inner = ts_node_named_child(function, ts_node_named_child_count(function) - 1);
        if (!ts_node_eq(gm_parent_within(inner, last), ts_node_parent(last)))
            wrong++;
        gm_tree_delete(tree);
    }
    CHECK_EQ_INT(wrong, 0);
    CHECK(checked > 200);
    ts_parser_delete(parser);
}

int main(void) {
    module_head();
    symbols_match_tree_sitter();
    remembered_field_lookups();
    name_set();
    running_children();
    parents_within();
    return check_exit_code("analysis/syntax/syntax");
}
