/* Node-type and field ids of the Python grammar, resolved once per analyzer so that hot loops
 * compare integers instead of strings, plus small node helpers shared by the analysis passes. */
#ifndef GM_ANALYSIS_SYNTAX_SYNTAX_H
#define GM_ANALYSIS_SYNTAX_SYNTAX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <tree_sitter/api.h>

/* Named node types the analysis looks at (tree-sitter-python node-types.json), as
 * X(member, "type"). */
#define GM_SYNTAX_SYMBOLS(X)                                                                       \
    X(error, "ERROR")                                                                              \
    X(module, "module")                                                                            \
    X(comment, "comment")                                                                          \
    X(identifier, "identifier")                                                                    \
    X(attribute, "attribute")                                                                      \
    X(call, "call")                                                                                \
    X(argument_list, "argument_list")                                                              \
    X(keyword_argument, "keyword_argument")                                                        \
    X(dotted_name, "dotted_name")                                                                  \
    X(aliased_import, "aliased_import")                                                            \
    X(import_statement, "import_statement")                                                        \
    X(import_from_statement, "import_from_statement")                                              \
    X(wildcard_import, "wildcard_import")                                                          \
    X(class_definition, "class_definition")                                                        \
    X(function_definition, "function_definition")                                                  \
    X(decorated_definition, "decorated_definition")                                                \
    X(decorator, "decorator")                                                                      \
    X(assert_statement, "assert_statement")                                                        \
    X(return_statement, "return_statement")                                                        \
    X(raise_statement, "raise_statement")                                                          \
    X(delete_statement, "delete_statement")                                                        \
    X(break_statement, "break_statement")                                                          \
    X(continue_statement, "continue_statement")                                                    \
    X(block, "block")                                                                              \
    X(expression_statement, "expression_statement")                                                \
    X(assignment, "assignment")                                                                    \
    X(augmented_assignment, "augmented_assignment")                                                \
    X(if_statement, "if_statement")                                                                \
    X(elif_clause, "elif_clause")                                                                  \
    X(else_clause, "else_clause")                                                                  \
    X(while_statement, "while_statement")                                                          \
    X(for_statement, "for_statement")                                                              \
    X(try_statement, "try_statement")                                                              \
    X(except_clause, "except_clause")                                                              \
    X(except_group_clause, "except_group_clause")                                                  \
    X(finally_clause, "finally_clause")                                                            \
    X(with_statement, "with_statement")                                                            \
    X(with_clause, "with_clause")                                                                  \
    X(with_item, "with_item")                                                                      \
    X(as_pattern, "as_pattern")                                                                    \
    X(as_pattern_target, "as_pattern_target")                                                      \
    X(parenthesized_expression, "parenthesized_expression")                                        \
    X(not_operator, "not_operator")                                                                \
    X(boolean_operator, "boolean_operator")                                                        \
    X(comparison_operator, "comparison_operator")                                                  \
    X(binary_operator, "binary_operator")                                                          \
    X(unary_operator, "unary_operator")                                                            \
    X(conditional_expression, "conditional_expression")                                            \
    X(subscript, "subscript")                                                                      \
    X(named_expression, "named_expression")                                                        \
    X(lambda, "lambda")                                                                            \
    X(string, "string")                                                                            \
    X(concatenated_string, "concatenated_string")                                                  \
    X(integer, "integer")                                                                          \
    X(float_literal, "float")                                                                      \
    X(true_literal, "true")                                                                        \
    X(false_literal, "false")                                                                      \
    X(none, "none")                                                                                \
    X(list, "list")                                                                                \
    X(tuple, "tuple")                                                                              \
    X(dictionary, "dictionary")                                                                    \
    X(set, "set")                                                                                  \
    X(list_comprehension, "list_comprehension")                                                    \
    X(dictionary_comprehension, "dictionary_comprehension")                                        \
    X(set_comprehension, "set_comprehension")                                                      \
    X(generator_expression, "generator_expression")                                                \
    X(for_in_clause, "for_in_clause")                                                              \
    X(pattern_list, "pattern_list")                                                                \
    X(tuple_pattern, "tuple_pattern")                                                              \
    X(list_pattern, "list_pattern")                                                                \
    X(expression_list, "expression_list")                                                          \
    X(list_splat, "list_splat")                                                                    \
    X(dictionary_splat, "dictionary_splat")                                                        \
    X(list_splat_pattern, "list_splat_pattern")                                                    \
    X(dictionary_splat_pattern, "dictionary_splat_pattern")                                        \
    X(typed_parameter, "typed_parameter")                                                          \
    X(typed_default_parameter, "typed_default_parameter")                                          \
    X(default_parameter, "default_parameter")                                                      \
    X(parameters, "parameters")                                                                    \
    X(type, "type")                                                                                \
    X(generic_type, "generic_type")                                                                \
    X(type_parameter, "type_parameter")                                                            \
    X(ellipsis, "ellipsis")                                                                        \
    X(global_statement, "global_statement")                                                        \
    X(nonlocal_statement, "nonlocal_statement")

/* Field names the analysis reads. */
#define GM_SYNTAX_FIELDS(X)                                                                        \
    X(name, "name")                                                                                \
    X(alias, "alias")                                                                              \
    X(module_name, "module_name")                                                                  \
    X(body, "body")                                                                                \
    X(condition, "condition")                                                                      \
    X(consequence, "consequence")                                                                  \
    X(alternative, "alternative")                                                                  \
    X(left, "left")                                                                                \
    X(right, "right")                                                                              \
    X(operator, "operator")                                                                        \
    X(operators, "operators")                                                                      \
    X(function, "function")                                                                        \
    X(arguments, "arguments")                                                                      \
    X(object, "object")                                                                            \
    X(attribute, "attribute")                                                                      \
    X(value, "value")                                                                              \
    X(argument, "argument")                                                                        \
    X(superclasses, "superclasses")                                                                \
    X(definition, "definition")                                                                    \
    X(parameters, "parameters")                                                                    \
    X(return_type, "return_type")                                                                  \
    X(type, "type")

typedef struct {
#define GM_SYNTAX_SYMBOL_MEMBER(member, name) TSSymbol member;
    GM_SYNTAX_SYMBOLS(GM_SYNTAX_SYMBOL_MEMBER)
#undef GM_SYNTAX_SYMBOL_MEMBER
} gm_syntax_symbols;

typedef struct {
#define GM_SYNTAX_FIELD_MEMBER(member, name) TSFieldId member;
    GM_SYNTAX_FIELDS(GM_SYNTAX_FIELD_MEMBER)
#undef GM_SYNTAX_FIELD_MEMBER
} gm_syntax_fields;

typedef struct {
    gm_syntax_symbols sym;
    gm_syntax_fields field;
} gm_syntax;

/* Resolves every id for language. Returns 0, or -1 when the grammar lacks one of them. */
int gm_syntax_init(gm_syntax *syntax, const TSLanguage *language);

/* The child of node in field, or a null node. The rules ask for the same few fields of the
 * same nodes again and again, and tree-sitter answers each by walking the node's children, so
 * the answers are remembered (per thread) until a tree is deleted or edited
 * (gm_tree_delete/gm_tree_edit, python_parser.h), which calls gm_child_cache_forget. */
TSNode gm_child(TSNode node, TSFieldId field);
void gm_child_cache_forget(void);

static inline bool gm_is(TSNode node, TSSymbol symbol) {
    return !ts_node_is_null(node) && ts_node_symbol(node) == symbol;
}

/* A def, class or lambda (decorated or not): a scope of its own, whose body a walk of the
 * enclosing function's statements leaves out. */
static inline bool gm_is_nested_scope(const gm_syntax *syntax, TSNode node) {
    TSSymbol s = ts_node_symbol(node);
    return s == syntax->sym.function_definition || s == syntax->sym.class_definition ||
           s == syntax->sym.lambda || s == syntax->sym.decorated_definition;
}

/* A borrowed slice of the source text. */
typedef struct {
    const char *ptr;
    uint32_t len;
} gm_slice;

static inline gm_slice gm_node_slice(TSNode node, const char *text) {
    uint32_t start = ts_node_start_byte(node);
    gm_slice s = {text + start, ts_node_end_byte(node) - start};
    return s;
}

/* Whether the text of node equals the NUL-terminated word. */
bool gm_node_text_is(TSNode node, const char *text, const char *word);

/* Inline: called with literal words, whose length the compiler then knows. */
static inline bool gm_slice_is(gm_slice slice, const char *word) {
    size_t n = strlen(word);
    return slice.len == n && memcmp(slice.ptr, word, n) == 0;
}
/* Whether text holds word anywhere (a substring): a cheap look at a function's or a file's text
 * before walking its tree. */
bool gm_slice_contains(gm_slice text, const char *word);
/* The first place word (word_len bytes) occurs in text (len bytes), or NULL. */
const char *gm_text_find(const char *text, size_t len, const char *word, size_t word_len);

static inline bool gm_slice_eq(gm_slice a, gm_slice b) {
    return a.len == b.len && memcmp(a.ptr, b.ptr, a.len) == 0;
}

/* The parent of node, looked for from ancestor down (which holds node): ts_node_parent walks
 * down from the root of the tree, past every statement of the module before node's, which
 * costs more for a rule that asks it of every subscript than the rule's own work. Falls back
 * to ts_node_parent when ancestor does not hold node. */
TSNode gm_parent_within(TSNode ancestor, TSNode node);

/* Strips parenthesized_expression wrappers. */
/* The identifier at the head of an attribute chain (x in x.a.b, parentheses skipped), or a null
 * node. */
TSNode gm_chain_head(const gm_syntax *syntax, TSNode node);

/* The callee of a call when it is a name or an attribute chain on a name (`f`, `a.b.f`), with
 * that name in *head; a null node for anything else (`f()()`, `x[0]()`). */
TSNode gm_call_target(const gm_syntax *syntax, TSNode call, TSNode *head);

TSNode gm_unparen(const gm_syntax *syntax, TSNode node);

/* The `__init__` a class definition ends up with (the last its body defines), and the name its
 * first parameter gives the instance; a null node when there is none or it takes no parameter. */
TSNode gm_class_init(const gm_syntax *syntax, const char *text, TSNode class_node,
                     gm_slice *self_name);

/* Where a module-level line goes after the module's imports: the start of the line after the
 * last top-level import that comes before the first def or class (a `try:` block of imports
 * counts as an import), or UINT32_MAX when no import comes before the first def or class.
 * module is the tree's root node. */
uint32_t gm_module_head_end(const gm_syntax *syntax, const char *text, uint32_t len, TSNode module);

/* A string literal without interpolation, or an implicit concatenation of such (parentheses
 * around it allowed): a message known before tracing. */
bool gm_is_constant_string(const gm_syntax *syntax, TSNode node);

/* The name a plain string literal spells (`"is_compiling"`, `'compiler'`: quotes around letters,
 * digits and underscores only, no prefix), NUL-terminated into buf; false for anything else or
 * when it does not fit. */
bool gm_string_spells_name(const gm_syntax *syntax, const char *text, TSNode node, char *buf,
                           size_t cap);

/* The named children of node (whose symbol is t) below which a walk for what runs can meet a
 * call, a binding or any other expression: [*first, *end) of its named children. Leaves out the
 * name after the dot of an attribute, the name of a keyword argument and every part of a string
 * without interpolation (no f or t prefix), which are names and text only: the walks that take
 * each named child by index (call parts, the region walk) pay most for the nodes they visit. A
 * node with a syntax error below it keeps all its children. */
void gm_running_children(const gm_syntax *syntax, const char *text, TSNode node, TSSymbol t,
                         uint32_t *first, uint32_t *end);

/* The text of a chain of names (`a.b.c`, parentheses and spaces dropped) appended to buf at
 * *len; false for anything else or when it does not fit. */
bool gm_dotted_name_text(const gm_syntax *syn, const char *text, TSNode n, char *buf, size_t cap,
                         size_t *len);

/* The first parameter of the function_definition fn when it is a plain name (self in a method),
 * else an empty slice. */
gm_slice gm_first_parameter(const gm_syntax *syn, const char *text, TSNode fn);

/* The annotation (the `type` node) of the parameter named name of the function_definition fn, or
 * a null node when fn has no such parameter or it is not annotated. */
TSNode gm_parameter_annotation(const gm_syntax *syn, const char *text, TSNode fn, gm_slice name);

/* Whether a parameter of the function_definition fn binds name. */
bool gm_parameters_bind_name(const gm_syntax *syn, const char *text, TSNode fn, gm_slice name);

/* Copies text into out with whitespace runs (and line continuations) collapsed to one space
 * (none after an opening or before a closing bracket, none leading), at most room bytes and no
 * NUL; returns the bytes written, and sets *cut when not all of it fit. */
size_t gm_collapse_whitespace(gm_slice text, char *out, size_t room, bool *cut);

/* The source of node as a message shows it: whitespace collapsed (gm_collapse_whitespace), cut
 * with "..." when longer than cap allows (cap >= 8). */
void gm_node_shown(TSNode node, const char *text, char *out, size_t cap);
/* The same for a piece of source text. */
void gm_slice_shown(gm_slice source, char *out, size_t cap);

#endif
