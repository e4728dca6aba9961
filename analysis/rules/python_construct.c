/* Python constructs dynamo refuses, each with the registry id torch 2.13 reports: GM601
 * class-in-region (GB8977, `__build_class__`) for a class statement in a region; GM602
 * parameter-in-region (GB0264) for `nn.Parameter(...)`; GM603 next-on-argument (GB4347) for
 * `next(it)` on an iterator the function receives as a parameter (one it makes with iter() is
 * traced); GM604 rnn-module-call (GB0014) for `self.rnn(...)` where the class's __init__ sets
 * `self.rnn = nn.LSTM(...)` (or GRU, RNN): torch 2.13 skips the whole function; GM605
 * generator-send-on-argument (GB0253) for `.send()`/`.throw()` on a generator the function
 * receives as a parameter (one it creates is traced). */
#include <stdio.h>
#include <string.h>

#include "analysis/module_facts/symbols.h"
#include "analysis/rules/emit.h"
#include "analysis/rules/rules.h"

void gm_rule_class_in_region(gm_region *region, TSNode class_definition) {
    char name[GM_SHOWN_SIZE], message[320];
    gm_node_shown(gm_child(class_definition, region->stmt->syntax->field.name), region->stmt->text,
                  name, sizeof name);
    snprintf(message, sizeof message,
             "class definition `class %s`: torch.compile cannot trace `__build_class__` and "
             "breaks the graph here",
             name);
    gm_emit_finding(region, gm_rule_by_id("GM601"), class_definition, message, NULL, 0);
}

/* Whether name is one of the function's own parameters. */
static bool is_parameter(const gm_syntax *syn, const char *text, TSNode function, gm_slice name) {
    TSNode params = gm_child(function, syn->field.parameters);
    uint32_t count = ts_node_is_null(params) ? 0 : ts_node_named_child_count(params);
    for (uint32_t i = 0; i < count; i++) {
        TSNode p = ts_node_named_child(params, i);
        if (!gm_is(p, syn->sym.identifier)) {
            TSNode n = gm_child(p, syn->field.name);
            if (ts_node_is_null(n) && ts_node_named_child_count(p) > 0)
                n = ts_node_named_child(p, 0);
            p = n;
        }
        if (!gm_is(p, syn->sym.identifier))
            continue;
        gm_slice s = gm_node_slice(p, text);
        if (s.len == name.len && memcmp(s.ptr, name.ptr, s.len) == 0)
            return true;
    }
    return false;
}

/* Where note_rnn_assignments puts `self.attr = getattr(nn, name)(...)` with a name given at run
 * time: the attributes, and the condition (written once) under which they are RNNs. */
typedef struct {
    gm_name_set *attributes;
    char *condition;
    size_t cap;
} named_rnns;

/* `getattr(<torch.nn>, name)` with a name that is not a literal: writes the condition under
 * which the call makes a recurrent module into named and returns true. */
static bool note_named_rnn(const gm_stmt_ctx *st, TSNode callee, named_rnns *named) {
    const gm_syntax *syn = st->syntax;
    TSNode args = gm_child(callee, syn->field.arguments);
    if (!named || !gm_is(callee, syn->sym.call) ||
        !gm_node_text_is(gm_child(callee, syn->field.function), st->text, "getattr") ||
        ts_node_is_null(args) || ts_node_named_child_count(args) != 2)
        return false;
    TSNode module = ts_node_named_child(args, 0), name = ts_node_named_child(args, 1);
    char resolved[GM_NAME_MAX];
    if (!gm_is(name, syn->sym.identifier) ||
        !gm_symbols_resolve(st->symbols, syn, st->text, module, resolved, sizeof resolved) ||
        (strcmp(resolved, "torch.nn") != 0 && strcmp(resolved, "torch.nn.modules.rnn") != 0))
        return false;
    if (named->condition[0] == '\0') {
        gm_slice n = gm_node_slice(name, st->text);
        snprintf(named->condition, named->cap, "%.*s in (\"LSTM\", \"GRU\", \"RNN\")",
                 (int)(n.len > 48 ? 48 : n.len), n.ptr);
    }
    return true;
}

/* Adds to out the attributes that n (below an __init__ body, not in nested definitions) makes
 * recurrent modules: `self_name.attr = nn.LSTM/GRU/RNN(...)`; to named (when not NULL) those
 * made by `getattr(nn, name)(...)`. */
static void note_rnn_assignments(const gm_stmt_ctx *st, TSNode n, gm_slice self_name,
                                 gm_name_set *out, named_rnns *named, bool *oom, int depth) {
    const gm_syntax *syn = st->syntax;
    if (ts_node_is_null(n) || depth > 64 || *oom)
        return;
    TSSymbol t = ts_node_symbol(n);
    if (t == syn->sym.function_definition || t == syn->sym.class_definition || t == syn->sym.lambda)
        return;
    if (t == syn->sym.assignment) {
        TSNode left = gm_child(n, syn->field.left), right = gm_child(n, syn->field.right);
        if (gm_is(left, syn->sym.attribute) && gm_is(right, syn->sym.call)) {
            TSNode obj = gm_child(left, syn->field.object);
            TSNode a = gm_child(left, syn->field.attribute);
            char name[GM_NAME_MAX];
            TSNode callee = gm_unparen(syn, gm_child(right, syn->field.function));
            bool ours = gm_is(obj, syn->sym.identifier) && !ts_node_is_null(a) &&
                        gm_slice_eq(gm_node_slice(obj, st->text), self_name);
            if (ours && note_named_rnn(st, callee, named) &&
                gm_name_set_add(named->attributes, gm_node_slice(a, st->text)) != 0)
                *oom = true;
            if (ours && gm_symbols_resolve(st->symbols, syn, st->text, callee, name, sizeof name)) {
                static const char *const rnns[] = {
                    "torch.nn.LSTM",
                    "torch.nn.GRU",
                    "torch.nn.RNN",
                    "torch.nn.modules.rnn.LSTM",
                    "torch.nn.modules.rnn.GRU",
                    "torch.nn.modules.rnn.RNN",
                };
                for (size_t i = 0; i < sizeof rnns / sizeof rnns[0]; i++)
                    if (strcmp(name, rnns[i]) == 0 &&
                        gm_name_set_add(out, gm_node_slice(a, st->text)) != 0)
                        *oom = true;
            }
        }
    }
    TSTreeCursor cursor = ts_tree_cursor_new(n);
    if (ts_tree_cursor_goto_first_child(&cursor)) {
        do {
            TSNode c = ts_tree_cursor_current_node(&cursor);
            if (ts_node_is_named(c))
                note_rnn_assignments(st, c, self_name, out, named, oom, depth + 1);
        } while (!*oom && ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
}

static bool text_contains(const char *text, uint32_t start, uint32_t end, const char *word) {
    size_t n = strlen(word);
    for (uint32_t at = start; at + n <= end; at++)
        if (text[at] == word[0] && memcmp(text + at, word, n) == 0)
            return true;
    return false;
}

/* Whether an __init__ spanning [start, end) may name an RNN class: a callee resolving to one
 * ends in LSTM/GRU/RNN as written, unless it is a bare name an import binds to one. Saves the
 * walk of __init__ bodies of the (many) classes that have none. */
static bool may_name_rnn(const gm_stmt_ctx *st, uint32_t start, uint32_t end) {
    static const char *const words[] = {"LSTM", "GRU", "RNN", "getattr"};
    for (size_t w = 0; w < 4; w++)
        if (text_contains(st->text, start, end, words[w]))
            return true;
    for (size_t i = 0; i < st->symbols->import_count; i++)
        for (size_t w = 0; w < 3; w++)
            if (gm_name_last_is(st->symbols->imports[i].canonical, words[w]))
                return true;
    return false;
}

/* The attributes the __init__ of the file's direct subclasses of the region's class make
 * recurrent modules, into region->rnn_subclass_attributes (the first such subclass named). */
static void scan_subclass_rnn_attributes(gm_region *region) {
    gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    TSNode own_name = gm_child(region->site.class_node, syn->field.name);
    if (ts_node_is_null(own_name))
        return;
    const gm_keyed_class *subclasses;
    uint32_t count = gm_module_index_subclasses(st->module_index,
                                                gm_node_slice(own_name, st->text), &subclasses);
    bool oom = st->module_index->oom;
    for (uint32_t i = 0; i < count && !oom; i++) {
        TSNode cls = subclasses[i].node;
        gm_slice self_name;
        TSNode init = gm_class_init(syn, st->text, cls, &self_name);
        if (ts_node_is_null(init) ||
            !may_name_rnn(st, ts_node_start_byte(init), ts_node_end_byte(init)))
            continue;
        size_t before = region->rnn_subclass_attributes.count;
        note_rnn_assignments(st, gm_child(init, syn->field.body), self_name,
                             &region->rnn_subclass_attributes, NULL, &oom, 0);
        if (region->rnn_subclass.len == 0 && region->rnn_subclass_attributes.count > before)
            region->rnn_subclass = gm_node_slice(gm_child(cls, syn->field.name), st->text);
    }
    if (oom)
        st->oom = true;
}

/* The attributes the __init__ methods of the class around the region's method make recurrent
 * modules, into region->rnn_attributes: once per region, not at every `self.x(...)`. */
static void scan_rnn_attributes(gm_region *region) {
    region->rnn_scanned = true;
    gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    if (!ts_node_is_null(region->site.class_node))
        scan_subclass_rnn_attributes(region);
    gm_slice self_name;
    TSNode init = gm_class_init(syn, st->text, region->site.class_node, &self_name);
    if (ts_node_is_null(init) ||
        !may_name_rnn(st, ts_node_start_byte(init), ts_node_end_byte(init)))
        return;
    bool oom = false;
    named_rnns named = {&region->rnn_named_attributes, region->rnn_named_condition,
                        sizeof region->rnn_named_condition};
    note_rnn_assignments(st, gm_child(init, syn->field.body), self_name, &region->rnn_attributes,
                         &named, &oom, 0);
    if (oom)
        st->oom = true;
}

/* Whether the class around the region's method has an __init__ that makes self.attr an RNN. */
static bool is_rnn_attribute(gm_region *region, gm_slice attr) {
    if (!region->rnn_scanned)
        scan_rnn_attributes(region);
    return gm_name_set_has(&region->rnn_attributes, attr);
}

/* GM604 for self.attr(...) that only a subclass makes an RNN: a condition, reported once, and
 * no frame skip for the base class's own instances. */
static void emit_subclass_rnn_call(gm_region *region, TSNode call, gm_slice attr) {
    int self_len = (int)(region->self_name.len > 32 ? 32 : region->self_name.len);
    int attr_len = (int)(attr.len > 64 ? 64 : attr.len);
    gm_slice sub = region->rnn_subclass;
    int sub_len = (int)(sub.len > 64 ? 64 : sub.len);
    char condition[160], message[480];
    snprintf(condition, sizeof condition, "isinstance(%.*s, %.*s)", self_len,
             region->self_name.ptr, sub_len, sub.ptr);
    snprintf(message, sizeof message,
             "call of `%.*s.%.*s`, which the subclass `%.*s` makes an nn.LSTM/GRU/RNN module: "
             "when `%s` holds, torch.compile does not trace the recurrent module and cannot "
             "resume after this break, so the whole function runs eagerly",
             self_len, region->self_name.ptr, attr_len, attr.ptr, sub_len, sub.ptr, condition);
    region->only_when_condition = condition;
    gm_emit_finding_as_written(region, gm_rule_by_id("GM604"), call, message, NULL, 0);
    /* when the condition holds the function runs eagerly from here, so a later recurrent call
     * is never traced; when it does not, none breaks */
    gm_name_set_clear(&region->rnn_subclass_attributes);
}

/* GM604 for self.attr(...) that `getattr(nn, name)(...)` made: an RNN when the name given at
 * run time is one, a condition (torchaudio's SquimObjective passes "LSTM"). */
static void emit_named_rnn_call(gm_region *region, TSNode call, gm_slice attr) {
    int self_len = (int)(region->self_name.len > 32 ? 32 : region->self_name.len);
    int attr_len = (int)(attr.len > 64 ? 64 : attr.len);
    char message[480];
    snprintf(message, sizeof message,
             "call of `%.*s.%.*s`, which __init__ makes with `getattr(nn, ...)`: when `%s` held "
             "there it is an nn.LSTM/GRU/RNN module, which torch.compile does not trace, and it "
             "cannot resume after this break, so the whole function runs eagerly",
             self_len, region->self_name.ptr, attr_len, attr.ptr, region->rnn_named_condition);
    region->only_when_condition = region->rnn_named_condition;
    gm_emit_finding_as_written(region, gm_rule_by_id("GM604"), call, message, NULL, 0);
}

void gm_rule_python_construct_call(gm_region *region, TSNode call) {
    const gm_stmt_ctx *st = region->stmt;
    const gm_syntax *syn = st->syntax;
    TSNode fn = gm_unparen(syn, gm_child(call, syn->field.function));
    TSNode receiver =
        gm_is(fn, syn->sym.attribute) ? gm_child(fn, syn->field.object) : (TSNode){0};
    if (region->self_name.len > 0 && gm_is(receiver, syn->sym.identifier) &&
        gm_slice_eq(gm_node_slice(receiver, st->text), region->self_name)) {
        gm_slice attr = gm_node_slice(gm_child(fn, syn->field.attribute), st->text);
        if (is_rnn_attribute(region, attr)) { /* scans the subclasses too */
            gm_emit_finding_as_written(region, gm_rule_by_id("GM604"), call,
                            "`self.rnn()` calls an nn.LSTM/GRU/RNN module: torch.compile does "
                            "not trace recurrent modules and cannot resume after this break, so "
                            "the whole function runs eagerly",
                            NULL, 0);
            gm_region_skip_frame(region, "GM604");
        } else if (gm_name_set_has(&region->rnn_subclass_attributes, attr)) {
            emit_subclass_rnn_call(region, call, attr);
        } else if (gm_name_set_has(&region->rnn_named_attributes, attr)) {
            emit_named_rnn_call(region, call, attr);
        }
        /* a method call on self is nothing else this rule knows */
    }
    if (gm_is(fn, syn->sym.attribute)) {
        TSNode obj = gm_unparen(syn, gm_child(fn, syn->field.object));
        TSNode method = gm_child(fn, syn->field.attribute);
        if ((gm_node_text_is(method, st->text, "send") ||
             gm_node_text_is(method, st->text, "throw")) &&
            gm_is(obj, syn->sym.identifier) &&
            !gm_slice_eq(gm_node_slice(obj, st->text), region->self_name) &&
            is_parameter(syn, st->text, region->site.function, gm_node_slice(obj, st->text))) {
            gm_emit_finding_as_written(region, gm_rule_by_id("GM605"), call,
                            "`gen.send()` on a generator passed in: torch.compile cannot "
                            "drive a generator it did not create and breaks the graph here",
                            NULL, 0);
            return;
        }
    }
    if (gm_is(fn, syn->sym.identifier) && gm_node_text_is(fn, st->text, "next")) {
        if (gm_symbols_is_imported(st->symbols, gm_node_slice(fn, st->text)) ||
            gm_region_binds(region, "next"))
            return;
        TSNode args = gm_child(call, syn->field.arguments);
        if (ts_node_is_null(args) || ts_node_named_child_count(args) == 0)
            return;
        TSNode it = ts_node_named_child(args, 0);
        if (gm_is(it, syn->sym.identifier) &&
            is_parameter(syn, st->text, region->site.function, gm_node_slice(it, st->text)))
            gm_emit_finding_as_written(region, gm_rule_by_id("GM603"), call,
                            "`next()` on an iterator passed in: torch.compile cannot step an "
                            "iterator it did not create and breaks the graph here",
                            NULL, 0);
        return;
    }
    if (!gm_is(fn, syn->sym.attribute) && !gm_is(fn, syn->sym.identifier))
        return;
    char name[GM_NAME_MAX];
    if (!gm_symbols_resolve(st->symbols, syn, st->text, fn, name, sizeof name))
        return;
    if (strcmp(name, "torch.nn.Parameter") == 0 ||
        strcmp(name, "torch.nn.parameter.Parameter") == 0)
        gm_emit_finding_as_written(region, gm_rule_by_id("GM602"), call,
                        "`nn.Parameter(...)` created in compiled code: torch.compile cannot "
                        "construct a parameter while tracing and breaks the graph here",
                        NULL, 0);
}
