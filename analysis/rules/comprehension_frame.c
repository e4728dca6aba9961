/* GM606: comprehensions dynamo compiles as frames of their own. Before Python 3.12 a list, set
 * or dict comprehension runs as a nested frame (PEP 709 inlined them). While dynamo traces the
 * function the comprehension is inlined and traced; but when it cannot finish the function's
 * frame (a break in a loop or a try block, or one it cannot resume from) it runs the function
 * eagerly and compiles each nested frame apart, those that hold torch (has_tensor_in_frame:
 * the module or a tensor among the names it reads from the function, or a torch or numpy module
 * among the globals it names; the others it skips). Such a comprehension frame that iterates
 * what dynamo cannot rebuild as an input (a list, a dict, enumerate(...); not range() or a
 * literal) breaks there: "Missing tp_iternext". Verified on torch 2.13 with Python 3.11:
 * generator expressions, comprehensions that read none of those, and functions dynamo resumes
 * do not break. The mend (mends/comprehension_loop.c) writes the comprehension as the
 * plain loop Python 3.12+ runs in the function's own frame, where nothing is compiled apart. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "analysis/mends/mends.h"
#include "analysis/module_facts/symbols.h"
#include "analysis/rules/emit.h"
#include "analysis/rules/rules.h"
#include "analysis/value_kinds/value_kinds.h"

#define GM_MAX_DEPTH 200

static bool is_frame_comprehension(const gm_syntax *syn, TSNode n) {
    return gm_is(n, syn->sym.list_comprehension) || gm_is(n, syn->sym.set_comprehension) ||
           gm_is(n, syn->sym.dictionary_comprehension);
}

static bool is_nested_scope(const gm_syntax *syn, TSNode n) {
    return gm_is(n, syn->sym.function_definition) || gm_is(n, syn->sym.class_definition) ||
           gm_is(n, syn->sym.lambda) || gm_is(n, syn->sym.decorated_definition);
}

/* A name the comprehension's frame reads that makes dynamo compile the frame: its
 * has_tensor_in_frame holds when a local (a free variable read from the function: the module,
 * a tensor) or a global the code names (a torch or numpy module) is one. A frame with none of
 * them is skipped, and runs in Python without a break. */
typedef struct {
    gm_slice name;
    const char *what; /* "the module", "a tensor", "a torch module", "numpy" */
} frame_input;

typedef struct {
    gm_region *region;
    gm_slice self;
    const char *condition; /* the finding's only_when_condition, or NULL */
    const char *why;       /* why the function runs eagerly, for the message */
    frame_input input;     /* of the comprehension breaks_as_frame last said breaks */
} comprehension_scan;

enum { max_bound_names = 32 };

typedef struct {
    gm_slice items[max_bound_names];
    size_t count;
    bool overflow; /* more targets than fit: nothing is assumed about the names read */
} bound_names;

static void bind_targets(const gm_syntax *syn, const char *text, TSNode target, bound_names *bound,
                         int depth) {
    /* `for k, self.m in ...` stores into self.m: an attribute or subscript binds no name */
    if (ts_node_is_null(target) || depth > GM_MAX_DEPTH || gm_is(target, syn->sym.attribute) ||
        gm_is(target, syn->sym.subscript))
        return;
    if (gm_is(target, syn->sym.identifier)) {
        if (bound->count < max_bound_names)
            bound->items[bound->count++] = gm_node_slice(target, text);
        else
            bound->overflow = true;
        return;
    }
    uint32_t count = ts_node_named_child_count(target);
    for (uint32_t i = 0; i < count; i++)
        bind_targets(syn, text, ts_node_named_child(target, i), bound, depth + 1);
}

/* The names the for clauses of a comprehension (or generator expression) bind in its scope. */
static void bind_clauses(const gm_syntax *syn, const char *text, TSNode comprehension,
                         bound_names *bound) {
    uint32_t count = ts_node_named_child_count(comprehension);
    for (uint32_t i = 0; i < count; i++) {
        TSNode c = ts_node_named_child(comprehension, i);
        if (gm_is(c, syn->sym.for_in_clause))
            bind_targets(syn, text, gm_child(c, syn->field.left), bound, 0);
    }
}

static bool is_bound(const bound_names *bound, gm_slice name) {
    for (size_t i = 0; i < bound->count; i++)
        if (gm_slice_eq(bound->items[i], name))
            return true;
    return bound->overflow;
}

/* Whether canonical names a module whose import makes has_tensor_in_frame hold: torch or one of
 * its submodules (`torch.nn`, `torch.nn.functional`), or numpy (dynamo traces numpy). A name
 * of torch's that is a function or class (`torch.cat`, `torch.nn.Linear`) is no module. */
static bool is_torch_module(const char *canonical) {
    static const char *const submodules[] = {
        "nn", "functional", "init", "utils", "fft", "linalg", "special", "distributed",
        "distributions", "autograd", "cuda", "amp", "jit", "backends", "optim", "sparse",
        "nested", "masked", "fx", "export", "onnx", "quantization", "ao", "hub", "checkpoint",
        "data", "parametrize", "parametrizations", "rnn", "_dynamo", "compiler", "random",
        "profiler", "func", "signal", "windows", "attention", "flex_attention", "modules",
        "parallel", "quantized", "mps", "xpu", "cpu", "library", "overrides", "types"};
    if (strcmp(canonical, "numpy") == 0)
        return true;
    if (strncmp(canonical, "torch", 5) != 0 || (canonical[5] != '\0' && canonical[5] != '.'))
        return false;
    for (const char *part = canonical[5] ? canonical + 6 : NULL; part;) {
        const char *dot = strchr(part, '.');
        size_t len = dot ? (size_t)(dot - part) : strlen(part);
        bool known = false;
        for (size_t i = 0; i < sizeof submodules / sizeof submodules[0] && !known; i++)
            known = strlen(submodules[i]) == len && memcmp(submodules[i], part, len) == 0;
        if (!known)
            return false;
        part = dot ? dot + 1 : NULL;
    }
    return true;
}

/* What an identifier the comprehension reads (and does not bind) is to has_tensor_in_frame. */
static bool frame_input_of_name(comprehension_scan *scan, TSNode identifier, frame_input *input) {
    gm_region *r = scan->region;
    const gm_stmt_ctx *st = r->stmt;
    gm_slice name = gm_node_slice(identifier, st->text);
    if (scan->self.len > 0 && gm_slice_eq(name, scan->self)) {
        *input = (frame_input){name, "the module"};
        return true;
    }
    /* an import in the function's body binds a local: a module among the frame's locals is no
     * tensor (only globals are asked whether they are torch modules) */
    if (r->local_imports_from != SIZE_MAX &&
        gm_symbols_imported_after(st->symbols, r->local_imports_from, name))
        return false;
    if (gm_region_binds_node(r, identifier)) {
        /* a free variable of the comprehension: a local of the function */
        if (gm_value_of(r, identifier).kind != GM_KIND_TENSOR)
            return false;
        *input = (frame_input){name, "a tensor"};
        return true;
    }
    char dotted[GM_NAME_MAX], canonical[GM_NAME_MAX];
    if (name.len >= sizeof dotted)
        return false;
    memcpy(dotted, name.ptr, name.len);
    dotted[name.len] = '\0';
    if (!gm_symbols_resolve_imported(st->symbols, dotted, canonical, sizeof canonical) ||
        !is_torch_module(canonical))
        return false;
    *input = (frame_input){name, strcmp(canonical, "numpy") == 0 ? "numpy" : "a torch module"};
    return true;
}

/* The first name below n (skipping skip: the first iterable, evaluated outside) that makes the
 * comprehension's frame one dynamo compiles; names the comprehension and the comprehensions,
 * generator expressions and lambdas inside it bind do not count. */
static bool find_frame_input(comprehension_scan *scan, TSNode n, TSNode skip, bound_names *bound,
                             frame_input *input, int depth) {
    const gm_syntax *syn = scan->region->stmt->syntax;
    const char *text = scan->region->stmt->text;
    if (ts_node_is_null(n) || depth > GM_MAX_DEPTH || ts_node_eq(n, skip))
        return false;
    if (gm_is(n, syn->sym.identifier))
        return !is_bound(bound, gm_node_slice(n, text)) && frame_input_of_name(scan, n, input);
    if (gm_is(n, syn->sym.attribute))
        return find_frame_input(scan, gm_child(n, syn->field.object), skip, bound, input,
                                depth + 1);
    if (gm_is(n, syn->sym.keyword_argument))
        return find_frame_input(scan, gm_child(n, syn->field.value), skip, bound, input,
                                depth + 1);
    size_t outer = bound->count;
    bool outer_overflow = bound->overflow;
    if (is_frame_comprehension(syn, n) || gm_is(n, syn->sym.generator_expression))
        bind_clauses(syn, text, n, bound);
    else if (gm_is(n, syn->sym.lambda))
        bind_targets(syn, text, gm_child(n, syn->field.parameters), bound, 0);
    bool found = false;
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count && !found; i++)
        found = find_frame_input(scan, ts_node_named_child(n, i), skip, bound, input, depth + 1);
    bound->count = outer;
    bound->overflow = outer_overflow;
    return found;
}

/* The iterable of a comprehension's first `for` clause (evaluated in the enclosing frame and
 * passed into the comprehension's frame as an iterator), or a null node. */
static TSNode first_iterable(const gm_syntax *syn, TSNode comprehension) {
    uint32_t count = ts_node_named_child_count(comprehension);
    for (uint32_t i = 0; i < count; i++) {
        TSNode c = ts_node_named_child(comprehension, i);
        if (gm_is(c, syn->sym.for_in_clause))
            return gm_child(c, syn->field.right);
    }
    return (TSNode){0};
}

/* Whether dynamo takes the iterator of iterable as a frame input: range() and literals it
 * rebuilds; other iterators (of a list, a dict, enumerate, zip) it cannot. */
static bool iterator_breaks_as_input(const gm_syntax *syn, const char *text, TSNode iterable) {
    iterable = gm_unparen(syn, iterable);
    if (ts_node_is_null(iterable) || gm_is(iterable, syn->sym.list) ||
        gm_is(iterable, syn->sym.tuple) || gm_is(iterable, syn->sym.set) ||
        gm_is(iterable, syn->sym.dictionary) || gm_is(iterable, syn->sym.string))
        return false;
    if (gm_is(iterable, syn->sym.call)) {
        TSNode fn = gm_child(iterable, syn->field.function);
        if (gm_is(fn, syn->sym.identifier) && gm_node_text_is(fn, text, "range"))
            return false;
    }
    return true;
}


static bool breaks_as_frame(comprehension_scan *scan, TSNode comprehension);

/* Whether a comprehension inside n (not inside a generator expression or a nested scope, whose
 * frames stay) would itself break as a frame once n's clauses become the function's loop. */
static bool holds_breaking_comprehension(comprehension_scan *scan, TSNode n, int depth) {
    const gm_syntax *syn = scan->region->stmt->syntax;
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; i++) {
        TSNode c = ts_node_named_child(n, i);
        if (depth > GM_MAX_DEPTH || is_nested_scope(syn, c) ||
            gm_is(c, syn->sym.generator_expression))
            continue;
        if (is_frame_comprehension(syn, c) ? breaks_as_frame(scan, c)
                                           : holds_breaking_comprehension(scan, c, depth + 1))
            return true;
    }
    return false;
}

static void report(comprehension_scan *scan, TSNode comprehension) {
    gm_region *r = scan->region;
    frame_input input = scan->input; /* before holds_breaking_comprehension asks again */
    char message[700];
    snprintf(message, sizeof message,
             "comprehension that reads `%.*s` (%s), in a function dynamo runs eagerly (%s): "
             "before Python 3.12 the comprehension is a frame of its own, which dynamo then "
             "compiles apart and cannot start, since it cannot take the comprehension's iterator "
             "as an input; the break is reported here and this comprehension runs in Python",
             (int)(input.name.len > 32 ? 32 : input.name.len), input.name.ptr, input.what,
             scan->why);
    gm_fix mends[GM_MENDS_MAX];
    int count = 0;
    /* as a loop, the comprehension inside would be the frame that breaks: nothing gained */
    if (holds_breaking_comprehension(scan, comprehension, 0))
        r->mend_declined = "a comprehension inside it would become a frame of the function "
                           "and break there in its place; write the loops by hand";
    else
        count = gm_mend_comprehension_loop(r, comprehension, mends);
    if (count < 0) {
        r->stmt->oom = true;
        return;
    }
    r->only_when_condition = scan->condition;
    gm_emit_finding(r, gm_rule_by_id("GM606"), comprehension, message, mends, (size_t)count);
}

/* Whether the comprehension, compiled as a frame apart, cannot start: dynamo compiles its frame
 * (it reads the module, a tensor or a torch module: scan->input says which) and cannot take the
 * iterator it is handed. */
static bool breaks_as_frame(comprehension_scan *scan, TSNode comprehension) {
    const gm_stmt_ctx *st = scan->region->stmt;
    TSNode iterable = first_iterable(st->syntax, comprehension);
    if (!iterator_breaks_as_input(st->syntax, st->text, iterable))
        return false;
    bound_names bound = {.count = 0};
    bind_clauses(st->syntax, st->text, comprehension, &bound);
    return find_frame_input(scan, comprehension, iterable, &bound, &scan->input, 0);
}

/* The frame comprehensions of the function body below n (not those nested in another
 * comprehension, which only that one's frame runs, nor those of nested definitions). */
static void scan_comprehensions(comprehension_scan *scan, TSNode n, int depth) {
    const gm_stmt_ctx *st = scan->region->stmt;
    const gm_syntax *syn = st->syntax;
    if (ts_node_is_null(n) || depth > GM_MAX_DEPTH || st->oom || is_nested_scope(syn, n) ||
        gm_is(n, syn->sym.generator_expression))
        return;
    if (is_frame_comprehension(syn, n)) {
        if (breaks_as_frame(scan, n))
            report(scan, n);
        return;
    }
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; i++)
        scan_comprehensions(scan, ts_node_named_child(n, i), depth + 1);
}

/* The module the function works on: the method's self, or the first parameter of a decorator's
 * wrapper when it is spelled `self` (`def wrapper(self, *args, **kwargs)` around a forward). */
static gm_slice module_name(gm_region *r) {
    if (r->self_name.len > 0)
        return r->self_name;
    gm_slice first = gm_first_parameter(r->stmt->syntax, r->stmt->text, r->site.function);
    return first.len == 4 && memcmp(first.ptr, "self", 4) == 0 ? first : (gm_slice){first.ptr, 0};
}

/* Whether name is a parameter of a function around fn (a decorator's wrapped function). */
static bool enclosing_parameter(const gm_syntax *syn, const char *text, TSNode fn, gm_slice name) {
    int guard = 0;
    for (TSNode n = ts_node_parent(fn); !ts_node_is_null(n) && guard < 400;
         n = ts_node_parent(n), guard++) {
        if (gm_is(n, syn->sym.class_definition))
            return false;
        if (gm_is(n, syn->sym.function_definition) && gm_parameters_bind_name(syn, text, n, name))
            return true;
    }
    return false;
}

/* The first call, in a try block's body below n, of a function the region does not bind but a
 * function around it takes as a parameter (`outputs = func(self, *args, **kwargs)` in a
 * decorator's wrapper): when that call breaks, dynamo cannot resume inside the try block and
 * runs the whole function eagerly. */
static TSNode call_of_wrapped_in_try(gm_region *r, TSNode n, bool in_try, int depth) {
    const gm_syntax *syn = r->stmt->syntax;
    if (ts_node_is_null(n) || depth > GM_MAX_DEPTH || is_nested_scope(syn, n))
        return (TSNode){0};
    if (in_try && gm_is(n, syn->sym.call)) {
        TSNode fn = gm_child(n, syn->field.function);
        if (gm_is(fn, syn->sym.identifier) && !gm_region_binds_node(r, fn) &&
            enclosing_parameter(syn, r->stmt->text, r->site.function,
                                gm_node_slice(fn, r->stmt->text)))
            return n;
    }
    if (gm_is(n, syn->sym.try_statement)) {
        TSNode found = call_of_wrapped_in_try(r, gm_child(n, syn->field.body), true, depth + 1);
        if (!ts_node_is_null(found))
            return found;
    }
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; i++) {
        TSNode c = ts_node_named_child(n, i);
        if (gm_is(n, syn->sym.try_statement) && ts_node_eq(c, gm_child(n, syn->field.body)))
            continue;
        TSNode found = call_of_wrapped_in_try(r, c, in_try, depth + 1);
        if (!ts_node_is_null(found))
            return found;
    }
    return (TSNode){0};
}

void gm_rule_comprehension_frames(gm_region *region, TSNode body) {
    const gm_stmt_ctx *st = region->stmt;
    if (!gm_options_comprehension_frames(st->options) ||
        !gm_analysis_rule_enabled(st->options, gm_rule_by_id("GM606")))
        return;
    comprehension_scan scan = {.region = region, .self = module_name(region)};
    char condition[160];
    if (region->frame_skipped) {
        scan.why = "a break in it makes dynamo skip its frame";
    } else {
        /* the wrapped function is a parameter of a function around this one: only a nested
         * def (a decorator's wrapper) can call it */
        if (!region->site.nested)
            return;
        TSNode call = call_of_wrapped_in_try(region, body, false, 0);
        if (ts_node_is_null(call))
            return;
        TSNode fn = gm_child(call, st->syntax->field.function);
        gm_slice name = gm_node_slice(fn, st->text);
        snprintf(condition, sizeof condition, "%.*s(...) breaks", (int)(name.len > 64 ? 64 : name.len),
                 name.ptr);
        scan.condition = condition;
        scan.why = "when the wrapped function it calls inside try breaks, dynamo cannot resume "
                   "there";
    }
    scan_comprehensions(&scan, body, 0);
}
