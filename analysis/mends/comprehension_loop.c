/* [Plain loop] for GM606: a list, set or dict comprehension that dynamo compiles as a frame of
 * its own (Python < 3.12) becomes the loop Python 3.12+ runs in the function's own frame
 * (PEP 709), so no frame is left to compile apart and nothing breaks there:
 *
 *     keys = {f"output_{k}": flag(k) for k in flags}    keys = {}
 *                                                        for k in flags:
 *                                                            gm_key = f"output_{k}"
 *                                                            keys[gm_key] = flag(k)
 *
 * Where it applies: the whole right side of `name = <comprehension>` (the name is bound to the
 * new container before the loop), `return <comprehension>` (built in a fresh local, then
 * returned) and a list comprehension standing as a statement (its list is dropped: the loop
 * evaluates the element only). The clauses become nested `for`s and `if`s in their order, which
 * is the order the comprehension evaluates them in. Safe: it evaluates the same expressions in
 * the same order and builds the same container, because the mend declines
 * - outside a function's own body (a class body's comprehension cannot see the class's names);
 * - when a loop variable is used anywhere else in the function (the loop leaves it bound, the
 *   comprehension did not), or the function reads its own locals (locals(), vars(), eval, exec);
 * - a walrus, await, `async for` or yield inside (they change which scope binds what);
 * - when the assigned name occurs inside the comprehension (it would read the new, empty
 *   container), is declared global or nonlocal, or is read by a nested function (which could
 *   see the container while it is built), or the statement is inside try or with (an exception
 *   caught there would leave the name bound to a part of the container);
 * - a set or dict comprehension standing as a statement (building it hashes the items), a set
 *   comprehension where the file binds `set` or star-imports, and a comprehension with a
 *   comment inside (the loop has no place for it that keeps its meaning).
 * (The rule declines it, before calling this, when a comprehension inside would itself break as a
 * frame of the function once this one is a loop: the break would only move.)
 * A dict comprehension evaluates each key before its value (Python 3.8+), while `d[k] = v`
 * evaluates v first: a key that is a loop variable or a literal is the same either way; any
 * other key is computed into a fresh local first. What differs: the loop variables stay bound
 * until the function returns, so the last item is released then rather than at the end of the
 * comprehension. */
#include <string.h>

#include "analysis/mends/branch.h"
#include "analysis/mends/mends.h"
#include "analysis/mends/rewrite_text.h"
#include "analysis/mends/value_uses.h"

#define GM_LOOP_MAX_DEPTH 200
#define GM_LOOP_MAX_NAMES 16
#define GM_LOOP_MAX_CLAUSES 16

static bool type_is(TSNode n, const char *type) {
    return !ts_node_is_null(n) && strcmp(ts_node_type(n), type) == 0;
}

static bool is_comprehension(const gm_syntax *syn, TSNode n) {
    return gm_is(n, syn->sym.list_comprehension) || gm_is(n, syn->sym.set_comprehension) ||
           gm_is(n, syn->sym.dictionary_comprehension) ||
           gm_is(n, syn->sym.generator_expression);
}

static bool inside(TSNode n, TSNode outer) {
    return ts_node_start_byte(n) >= ts_node_start_byte(outer) &&
           ts_node_end_byte(n) <= ts_node_end_byte(outer);
}

/* The names the target pattern of a for clause binds, added to names; false when a target is
 * not a plain name pattern (`for self.x in ...` stores an attribute) or there are too many. */
static bool collect_targets(const gm_syntax *syn, const char *text, TSNode target, gm_slice *names,
                            unsigned *count, int depth) {
    if (ts_node_is_null(target) || depth > GM_LOOP_MAX_DEPTH)
        return false;
    if (gm_is(target, syn->sym.identifier)) {
        if (*count == GM_LOOP_MAX_NAMES)
            return false;
        names[(*count)++] = gm_node_slice(target, text);
        return true;
    }
    if (!gm_is(target, syn->sym.pattern_list) && !gm_is(target, syn->sym.tuple_pattern) &&
        !gm_is(target, syn->sym.list_pattern) && !gm_is(target, syn->sym.list_splat_pattern) &&
        !gm_is(target, syn->sym.parenthesized_expression) && !gm_is(target, syn->sym.tuple) &&
        !gm_is(target, syn->sym.list) && !gm_is(target, syn->sym.list_splat))
        return false;
    uint32_t n = ts_node_named_child_count(target);
    for (uint32_t i = 0; i < n; i++) {
        TSNode c = ts_node_named_child(target, i);
        if (gm_is(c, syn->sym.comment))
            continue;
        if (!collect_targets(syn, text, c, names, count, depth + 1))
            return false;
    }
    return true;
}

/* Whether the for clauses of comprehension bind name. */
static bool comprehension_binds(const gm_syntax *syn, const char *text, TSNode comprehension,
                                gm_slice name) {
    uint32_t n = ts_node_named_child_count(comprehension);
    for (uint32_t i = 0; i < n; i++) {
        TSNode c = ts_node_named_child(comprehension, i);
        if (!gm_is(c, syn->sym.for_in_clause))
            continue;
        gm_slice names[GM_LOOP_MAX_NAMES];
        unsigned count = 0;
        if (!collect_targets(syn, text, gm_child(c, syn->field.left), names, &count, 0))
            return true; /* cannot tell: count it as bound, which keeps the name's use */
        for (unsigned k = 0; k < count; k++)
            if (gm_slice_eq(names[k], name))
                return true;
    }
    return false;
}

/* Whether the identifier id, outside the comprehension being mended, refers to a variable of
 * the function: not when another comprehension (or generator expression) around it binds the
 * same name, and id is not in that comprehension's first iterable, which the function's own
 * scope evaluates. */
static bool refers_to_function_scope(const gm_syntax *syn, const char *text, TSNode id,
                                     TSNode function) {
    gm_slice name = gm_node_slice(id, text);
    for (TSNode p = ts_node_parent(id); !ts_node_is_null(p) && !ts_node_eq(p, function);
         p = ts_node_parent(p)) {
        if (!is_comprehension(syn, p) || !comprehension_binds(syn, text, p, name))
            continue;
        TSNode first = {0};
        uint32_t n = ts_node_named_child_count(p);
        for (uint32_t i = 0; i < n && ts_node_is_null(first); i++)
            if (gm_is(ts_node_named_child(p, i), syn->sym.for_in_clause))
                first = gm_child(ts_node_named_child(p, i), syn->field.right);
        if (ts_node_is_null(first) || !inside(id, first))
            return false;
    }
    return true;
}

typedef struct {
    const gm_syntax *syn;
    const char *text;
    TSNode function, skip; /* skip: the comprehension being mended */
    gm_slice name;
    bool nested_only; /* count only occurrences inside a nested def or lambda */
} name_search;

/* Whether the function uses s->name as a variable of its own scope outside s->skip (or, with
 * nested_only, inside a nested def or lambda, where it is a closure's cell). */
static bool uses_name(const name_search *s, TSNode n, bool nested, int depth) {
    const gm_syntax *syn = s->syn;
    if (ts_node_is_null(n) || (!ts_node_is_null(s->skip) && ts_node_eq(n, s->skip)))
        return false;
    if (depth > GM_LOOP_MAX_DEPTH)
        return true; /* too deep to tell: say yes */
    if (gm_is(n, syn->sym.identifier)) {
        if (!gm_slice_eq(gm_node_slice(n, s->text), s->name) ||
            !gm_mend_identifier_is_variable(syn, n) || (s->nested_only && !nested))
            return false;
        return refers_to_function_scope(syn, s->text, n, s->function);
    }
    bool scope = gm_is(n, syn->sym.function_definition) || gm_is(n, syn->sym.lambda) ||
                 gm_is(n, syn->sym.class_definition);
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; i++)
        if (uses_name(s, ts_node_named_child(n, i), nested || scope, depth + 1))
            return true;
    return false;
}

/* Whether n holds a variable named name (in any scope: conservative). */
static bool reads_variable(const gm_syntax *syn, const char *text, TSNode n, gm_slice name,
                           int depth) {
    if (ts_node_is_null(n))
        return false;
    if (depth > GM_LOOP_MAX_DEPTH)
        return true; /* too deep to tell: say yes */
    if (gm_is(n, syn->sym.identifier))
        return gm_slice_eq(gm_node_slice(n, text), name) && gm_mend_identifier_is_variable(syn, n);
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; i++)
        if (reads_variable(syn, text, ts_node_named_child(n, i), name, depth + 1))
            return true;
    return false;
}

/* Whether the function's parameters or body use name (the def's own name binds it outside). */
static bool function_uses(const name_search *s) {
    return uses_name(s, gm_child(s->function, s->syn->field.parameters), false, 0) ||
           uses_name(s, gm_child(s->function, s->syn->field.body), false, 0);
}

/* Why the subtree n cannot move into the function's scope, or NULL: a walrus (it binds in the
 * function already, but a loop variable it reads would differ), await, yield or a comment. */
static const char *unmovable(const gm_syntax *syn, TSNode n, int depth) {
    if (ts_node_is_null(n))
        return NULL;
    if (depth > GM_LOOP_MAX_DEPTH)
        return "the comprehension is nested too deeply to check";
    if (gm_is(n, syn->sym.named_expression))
        return "the comprehension holds an assignment expression (:=); move it out of the "
               "comprehension, or write the loop by hand";
    if (type_is(n, "await") || type_is(n, "yield"))
        return "the comprehension awaits or yields; write the loop by hand";
    if (gm_is(n, syn->sym.comment))
        return "a comment inside the comprehension has no place in the loop that keeps its "
               "meaning; move it above the statement";
    if (gm_is(n, syn->sym.for_in_clause) && ts_node_child_count(n) > 0 &&
        type_is(ts_node_child(n, 0), "async"))
        return "the comprehension is asynchronous (async for); write the loop by hand";
    if (gm_is(n, syn->sym.lambda))
        return NULL; /* its own scope: nothing in it binds in the function */
    uint32_t count = ts_node_child_count(n);
    for (uint32_t i = 0; i < count; i++) {
        const char *why = unmovable(syn, ts_node_child(n, i), depth + 1);
        if (why)
            return why;
    }
    return NULL;
}

/* Whether statement sits inside a try or with statement of its function: an exception caught
 * there would leave a name bound to a half-built container. */
static bool inside_try_or_with(const gm_syntax *syn, TSNode stmt, TSNode function) {
    for (TSNode p = ts_node_parent(stmt); !ts_node_is_null(p) && !ts_node_eq(p, function);
         p = ts_node_parent(p))
        if (gm_is(p, syn->sym.try_statement) || gm_is(p, syn->sym.with_statement))
            return true;
    return false;
}

/* Whether n binds `set` anywhere, or the file star-imports (which may bind it). */
static bool file_may_rebind_set(const gm_syntax *syn, const char *text, TSNode n, int depth) {
    if (ts_node_is_null(n))
        return false;
    if (depth > GM_LOOP_MAX_DEPTH || type_is(n, "wildcard_import"))
        return true;
    if (gm_is(n, syn->sym.identifier))
        return gm_node_text_is(n, text, "set") && gm_mend_identifier_is_variable(syn, n) &&
               gm_mend_identifier_is_binding(syn, n);
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; i++)
        if (file_may_rebind_set(syn, text, ts_node_named_child(n, i), depth + 1))
            return true;
    return false;
}

/* Whether a global or nonlocal statement of the function body n names name. */
static bool declares_outer(const gm_syntax *syn, const char *text, TSNode n, gm_slice name,
                           int depth) {
    if (ts_node_is_null(n) || gm_is_nested_scope(syn, n))
        return false;
    if (depth > GM_LOOP_MAX_DEPTH)
        return true;
    bool outer = gm_is(n, syn->sym.global_statement) || gm_is(n, syn->sym.nonlocal_statement);
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; i++) {
        TSNode c = ts_node_named_child(n, i);
        if (outer ? gm_is(c, syn->sym.identifier) && gm_slice_eq(gm_node_slice(c, text), name)
                  : declares_outer(syn, text, c, name, depth + 1))
            return true;
    }
    return false;
}

/* Whether a dict comprehension's key gives the same value evaluated after its value: a loop
 * variable (the value cannot rebind it: walruses are declined), a literal, or a tuple of such. */
static bool key_is_stable(const gm_syntax *syn, const char *text, TSNode key, const gm_slice *names,
                          unsigned count, int depth) {
    key = gm_unparen(syn, key);
    if (ts_node_is_null(key) || depth > 8)
        return false;
    if (gm_is(key, syn->sym.identifier)) {
        for (unsigned i = 0; i < count; i++)
            if (gm_slice_eq(gm_node_slice(key, text), names[i]))
                return true;
        return false;
    }
    if (gm_is(key, syn->sym.integer) || gm_is(key, syn->sym.float_literal) ||
        gm_is(key, syn->sym.true_literal) || gm_is(key, syn->sym.false_literal) ||
        gm_is(key, syn->sym.none) || gm_is_constant_string(syn, key))
        return true;
    if (!gm_is(key, syn->sym.tuple))
        return false;
    uint32_t n = ts_node_named_child_count(key);
    for (uint32_t i = 0; i < n; i++)
        if (!key_is_stable(syn, text, ts_node_named_child(key, i), names, count, depth + 1))
            return false;
    return true;
}

/* Appends a newline and the statement's indentation plus level indentation units. */
static void new_line(gm_text_builder *tb, const gm_stmt_layout *layout, unsigned level) {
    gm_branch_newline(tb, layout);
    for (unsigned i = 0; i < level; i++)
        gm_tb_append(tb, layout->unit, layout->unit_len);
}

typedef enum { SHAPE_ASSIGN, SHAPE_RETURN, SHAPE_DROPPED } statement_shape;

int gm_mend_comprehension_loop(gm_region *region, TSNode comprehension, gm_fix *out) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    const char *text = st->text;
    bool is_dict = gm_is(comprehension, syn->sym.dictionary_comprehension);
    bool is_set = gm_is(comprehension, syn->sym.set_comprehension);

    /* the statement: `name = <c>`, `return <c>` or `<c>` alone */
    TSNode parent = ts_node_parent(comprehension), stmt = {0}, target = {0};
    statement_shape shape;
    if (gm_is(parent, syn->sym.assignment) &&
        ts_node_eq(gm_child(parent, syn->field.right), comprehension)) {
        stmt = ts_node_parent(parent);
        target = gm_child(parent, syn->field.left);
        shape = SHAPE_ASSIGN;
        if (!gm_is(stmt, syn->sym.expression_statement) || ts_node_named_child_count(stmt) != 1) {
            region->mend_declined = "the comprehension is part of a larger statement (a chained "
                                    "assignment); give it a statement of its own";
            return 0;
        }
        if (!gm_is(target, syn->sym.identifier)) {
            region->mend_declined = "the comprehension is assigned to something other than a "
                                    "plain name; assign it to a local first";
            return 0;
        }
    } else if (gm_is(parent, syn->sym.return_statement)) {
        stmt = parent;
        shape = SHAPE_RETURN;
    } else if (gm_is(parent, syn->sym.expression_statement) &&
               ts_node_named_child_count(parent) == 1) {
        stmt = parent;
        shape = SHAPE_DROPPED;
        if (is_dict || is_set) {
            region->mend_declined = "a set or dict comprehension whose value is dropped still "
                                    "hashes its items; write the loop by hand";
            return 0;
        }
    } else {
        region->mend_declined = "the comprehension is not the whole value of an assignment, a "
                                "return or a statement; assign it to a local first";
        return 0;
    }
    gm_stmt_layout layout;
    gm_stmt_layout_of(text, st->len, stmt, &layout);
    if (!layout.alone) {
        region->mend_declined = "another statement shares the comprehension's line";
        return 0;
    }
    TSNode function = gm_mend_enclosing_function(syn, comprehension);
    if (ts_node_is_null(function) || !ts_node_eq(function, region->site.function)) {
        region->mend_declined = "the comprehension is not in the function's own body";
        return 0;
    }
    if (ts_node_has_error(stmt)) {
        region->mend_declined = "the statement does not parse";
        return 0;
    }
    const char *why = unmovable(syn, comprehension, 0);
    if (why) {
        region->mend_declined = why;
        return 0;
    }

    /* the clauses, in order, and the names the for clauses bind */
    TSNode body = gm_child(comprehension, syn->field.body);
    TSNode clauses[GM_LOOP_MAX_CLAUSES];
    unsigned clause_count = 0, name_count = 0;
    gm_slice names[GM_LOOP_MAX_NAMES];
    uint32_t children = ts_node_named_child_count(comprehension);
    for (uint32_t i = 0; i < children; i++) {
        TSNode c = ts_node_named_child(comprehension, i);
        bool is_for = gm_is(c, syn->sym.for_in_clause);
        if (!is_for && !type_is(c, "if_clause"))
            continue;
        if (clause_count == GM_LOOP_MAX_CLAUSES) {
            region->mend_declined = "the comprehension has too many clauses";
            return 0;
        }
        clauses[clause_count++] = c;
        if (!is_for)
            continue;
        TSNode right = gm_child(c, syn->field.right);
        if (ts_node_is_null(right) || ts_node_end_byte(right) != ts_node_end_byte(c)) {
            region->mend_declined = "a for clause iterates a bare tuple (`for x in a, b`); put it "
                                    "in parentheses";
            return 0;
        }
        if (!collect_targets(syn, text, gm_child(c, syn->field.left), names, &name_count, 0)) {
            region->mend_declined = "a for clause binds something other than names (or too many "
                                    "of them)";
            return 0;
        }
    }
    TSNode key = {0}, value = {0};
    if (is_dict) {
        key = ts_node_child_by_field_name(body, "key", 3);
        value = ts_node_child_by_field_name(body, "value", 5);
    }
    if (clause_count == 0 || ts_node_is_null(body) ||
        (is_dict && (ts_node_is_null(key) || ts_node_is_null(value)))) {
        region->mend_declined = "the comprehension did not parse as expected";
        return 0;
    }

    /* the loop variables leak into the function: nothing else there may use them */
    name_search search = {.syn = syn, .text = text, .function = function, .skip = comprehension};
    static const char *const introspection[] = {"locals", "vars", "eval", "exec"};
    for (size_t i = 0; i < sizeof introspection / sizeof *introspection; i++) {
        search.name = (gm_slice){introspection[i], (uint32_t)strlen(introspection[i])};
        search.skip = (TSNode){0};
        if (function_uses(&search)) {
            region->mend_declined = "the function reads its own local variables (locals(), "
                                    "vars(), eval or exec), which the loop would add to";
            return 0;
        }
    }
    search.skip = comprehension;
    for (unsigned i = 0; i < name_count; i++) {
        search.name = names[i];
        if (function_uses(&search)) {
            region->mend_declined = "a loop variable of the comprehension is also a variable of "
                                    "the function (the loop would leave it bound, the "
                                    "comprehension did not); rename it in the comprehension";
            return 0;
        }
    }

    /* the name the container is built in */
    char fresh[64];
    gm_slice built;
    TSNode top = st->top;
    if (shape == SHAPE_ASSIGN) {
        built = gm_node_slice(target, text);
        /* a variable of that name anywhere inside (an attribute's member, `torch.relu` in
         * `relu = [...]`, or a keyword's name is none) */
        if (reads_variable(syn, text, comprehension, built, 0)) {
            region->mend_declined = "the comprehension reads the name it is assigned to, which "
                                    "the loop would rebind first; assign it to another name";
            return 0;
        }
        name_search own = {
            .syn = syn, .text = text, .function = function, .name = built, .nested_only = true};
        if (uses_name(&own, gm_child(function, syn->field.body), false, 0) ||
            declares_outer(syn, text, gm_child(function, syn->field.body), built, 0)) {
            region->mend_declined = "the assigned name is global, nonlocal or read by a nested "
                                    "function, which could see the container half-built; assign "
                                    "it to a local first";
            return 0;
        }
        if (inside_try_or_with(syn, stmt, function)) {
            region->mend_declined = "the assignment is inside try or with, where an exception "
                                    "caught would leave the name bound to a half-built "
                                    "container; assign the comprehension to a local first";
            return 0;
        }
    } else if (shape == SHAPE_RETURN) {
        if (!gm_fresh_name(text + ts_node_start_byte(top), gm_node_length(top),
                           is_dict  ? "gm_dict"
                           : is_set ? "gm_set"
                                    : "gm_list",
                           fresh, sizeof fresh)) {
            region->mend_declined = "no fresh name is free for the container";
            return 0;
        }
        built = (gm_slice){fresh, (uint32_t)strlen(fresh)};
    }
    if (is_set && file_may_rebind_set(syn, text, ts_node_parent(top), 0)) {
        region->mend_declined = "the file binds `set` (or star-imports), so `set()` may not be "
                                "the builtin; write the loop by hand";
        return 0;
    }
    char fresh_key[64] = "";
    if (is_dict && !key_is_stable(syn, text, key, names, name_count, 0) &&
        !gm_fresh_name(text + ts_node_start_byte(top), gm_node_length(top), "gm_key", fresh_key,
                       sizeof fresh_key)) {
        region->mend_declined = "no fresh name is free for the key";
        return 0;
    }

    gm_text_builder tb;
    gm_tb_init(&tb);
    if (shape != SHAPE_DROPPED) {
        gm_tb_append(&tb, built.ptr, built.len);
        /* an annotated assignment keeps its annotation */
        if (shape == SHAPE_ASSIGN)
            gm_tb_append(&tb, text + ts_node_end_byte(target),
                         ts_node_start_byte(comprehension) - ts_node_end_byte(target));
        else
            gm_tb_append_str(&tb, " = ");
        gm_tb_append_str(&tb, is_dict ? "{}" : is_set ? "set()" : "[]");
        new_line(&tb, &layout, 0);
    }
    unsigned level = 0;
    for (unsigned i = 0; i < clause_count; i++, level++) {
        if (i > 0)
            new_line(&tb, &layout, level);
        TSNode c = clauses[i];
        if (gm_is(c, syn->sym.for_in_clause)) {
            gm_tb_append_str(&tb, "for ");
            gm_tb_append_node(&tb, text, gm_child(c, syn->field.left));
            gm_tb_append_str(&tb, " in ");
            gm_tb_append_node(&tb, text, gm_child(c, syn->field.right));
        } else {
            gm_tb_append_str(&tb, "if ");
            gm_tb_append_node(&tb, text, ts_node_named_child(c, 0));
        }
        gm_tb_append_str(&tb, ":");
    }
    new_line(&tb, &layout, level);
    if (shape == SHAPE_DROPPED) {
        gm_tb_append_node(&tb, text, body);
    } else if (is_dict) {
        if (fresh_key[0]) {
            gm_tb_appendf(&tb, "%s = ", fresh_key);
            gm_tb_append_node(&tb, text, key);
            new_line(&tb, &layout, level);
        }
        gm_tb_append(&tb, built.ptr, built.len);
        gm_tb_append_str(&tb, "[");
        if (fresh_key[0])
            gm_tb_append_str(&tb, fresh_key);
        else
            gm_tb_append_node(&tb, text, key);
        gm_tb_append_str(&tb, "] = ");
        gm_tb_append_node(&tb, text, value);
    } else {
        gm_tb_append(&tb, built.ptr, built.len);
        gm_tb_append_str(&tb, is_set ? ".add(" : ".append(");
        gm_tb_append_argument(&tb, syn, text, body);
        gm_tb_append_str(&tb, ")");
    }
    if (shape == SHAPE_RETURN) {
        new_line(&tb, &layout, 0);
        gm_tb_appendf(&tb, "return %s", fresh);
    }
    return gm_mend_fix_single(out, GM_FIX_SAFE, "the comprehension as a loop",
                              "Mend graph break: build the comprehension's values with a plain "
                              "loop in the function's own frame, as Python 3.12+ runs it",
                              ts_node_start_byte(stmt), ts_node_end_byte(stmt), gm_tb_take(&tb));
}
