#include "analysis/module_facts/symbols.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/module_facts/compile_constants.h"

void gm_symbols_init(gm_symbols *symbols) {
    memset(symbols, 0, sizeof *symbols);
}

static void class_free(gm_class_symbol *c) {
    free(c->name);
    for (size_t j = 0; j < c->base_count; j++)
        free(c->bases[j]);
    free(c->bases);
}

void gm_symbols_free(gm_symbols *symbols) {
    for (size_t i = 0; i < symbols->import_count; i++) {
        free(symbols->imports[i].local);
        free(symbols->imports[i].canonical);
    }
    free(symbols->imports);
    for (size_t i = 0; i < symbols->logger_count; i++) {
        free(symbols->loggers[i].local);
        free(symbols->loggers[i].canonical);
    }
    free(symbols->loggers);
    for (size_t i = 0; i < symbols->class_count; i++)
        class_free(&symbols->classes[i]);
    free(symbols->classes);
    free(symbols->torch_alias);
    gm_symbols_init(symbols);
}

uint64_t gm_hash_bytes(uint64_t hash, const void *data, size_t len) {
    const unsigned char *p = data;
    for (size_t i = 0; i < len; i++) {
        hash ^= p[i];
        hash *= 0x100000001b3ull;
    }
    return hash;
}

uint64_t gm_hash_words(const void *data, size_t len) {
    const unsigned char *p = data;
    uint64_t h = 0x9e3779b97f4a7c15ull ^ ((uint64_t)len * 0xff51afd7ed558ccdull);
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t word;
        memcpy(&word, p + i, sizeof word);
        h = (h ^ word) * 0xbf58476d1ce4e5b9ull;
        h ^= h >> 31;
    }
    uint64_t tail = 0;
    if (len > i)
        memcpy(&tail, p + i, len - i);
    h = (h ^ tail) * 0x94d049bb133111ebull;
    return h ^ (h >> 29);
}

/* A tagged, length-prefixed field, so that adjacent fields cannot run into each other. */
static void hash_field(uint64_t *hash, char tag, const char *data, size_t len) {
    uint32_t n = (uint32_t)len;
    *hash = gm_hash_bytes(*hash, &tag, 1);
    *hash = gm_hash_bytes(*hash, &n, sizeof n);
    *hash = gm_hash_bytes(*hash, data, len);
}

static void hash_node(uint64_t *hash, char tag, TSNode node, const char *text) {
    gm_slice s = gm_node_slice(node, text);
    hash_field(hash, tag, s.ptr, s.len);
}

bool gm_name_last_is(const char *dotted, const char *word) {
    const char *dot = strrchr(dotted, '.');
    return strcmp(dot ? dot + 1 : dotted, word) == 0;
}

/* The node's text without whitespace, backslash continuations or comments: "torch . nn" ->
 * "torch.nn". Returns an owned string, or NULL on OOM or an empty result. */
static char *compact_text(TSNode node, const char *text) {
    gm_slice s = gm_node_slice(node, text);
    char *out = malloc((size_t)s.len + 1);
    if (!out)
        return NULL;
    size_t n = 0;
    for (uint32_t i = 0; i < s.len; i++) {
        char c = s.ptr[i];
        if (c == '#') {
            while (i < s.len && s.ptr[i] != '\n' && s.ptr[i] != '\r')
                i++;
            continue;
        }
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\\' || c == '\f')
            continue;
        out[n++] = c;
    }
    out[n] = '\0';
    if (n == 0) {
        free(out);
        return NULL;
    }
    return out;
}

static char *slice_dup(gm_slice s) {
    char *out = malloc((size_t)s.len + 1);
    if (!out)
        return NULL;
    memcpy(out, s.ptr, s.len);
    out[s.len] = '\0';
    return out;
}

/* Where a scan's records go: always into the fingerprint hash, and into symbols when that is
 * non-NULL. Hashing exactly what is recorded (not the source text) makes an unchanged fingerprint
 * imply unchanged symbols, even where error recovery parses the same text differently. */
typedef struct {
    gm_symbols *symbols;
    uint64_t *hash;
    bool type_only; /* inside `if TYPE_CHECKING:` */
    /* a module's own imports: one that binds a name to what it is bound to already is not
     * kept (a file of many copies of a module would make every lookup walk them all); a
     * function's imports are kept, as they make the name a local of the function */
    bool skip_rebinding;
} sink;

static const gm_import *find_import(const gm_symbols *s, const char *head, size_t len);

/* Takes ownership of local and canonical (either may be NULL after an OOM: then both are freed
 * and -1 returned). */
static int add_import(sink *k, char *local, char *canonical) {
    if (!local || !canonical)
        goto oom;
    hash_field(k->hash, k->type_only ? 'T' : 'I', local, strlen(local));
    hash_field(k->hash, '=', canonical, strlen(canonical));
    gm_symbols *s = k->symbols;
    const gm_import *bound = s && k->skip_rebinding ? find_import(s, local, strlen(local)) : NULL;
    if (!s || (bound && bound->type_only == k->type_only &&
               strcmp(bound->canonical, canonical) == 0)) {
        free(local);
        free(canonical);
        return 0;
    }
    if (s->import_count == s->import_capacity) {
        size_t cap = s->import_capacity ? s->import_capacity * 2 : 16;
        gm_import *items = realloc(s->imports, cap * sizeof *items);
        if (!items)
            goto oom;
        s->imports = items;
        s->import_capacity = cap;
    }
    s->imports[s->import_count].local = local;
    s->imports[s->import_count].canonical = canonical;
    s->imports[s->import_count].type_only = k->type_only;
    s->import_count++;
    return 0;
oom:
    free(local);
    free(canonical);
    return -1;
}

static char *join_dotted(const char *a, const char *b) {
    size_t la = strlen(a), lb = strlen(b);
    char *out = malloc(la + lb + 2);
    if (!out)
        return NULL;
    memcpy(out, a, la);
    size_t at = la;
    if (la && a[la - 1] != '.')
        out[at++] = '.';
    memcpy(out + at, b, lb + 1);
    return out;
}

/* `import a.b` binds a; `import a.b as c` binds c to a.b. */
static int scan_import(sink *s, const gm_syntax *syn, const char *text, TSNode stmt) {
    TSTreeCursor cursor = ts_tree_cursor_new(stmt);
    int rc = 0;
    if (ts_tree_cursor_goto_first_child(&cursor)) {
        do {
            if (ts_tree_cursor_current_field_id(&cursor) != syn->field.name)
                continue;
            TSNode n = ts_tree_cursor_current_node(&cursor);
            if (gm_is(n, syn->sym.aliased_import)) {
                TSNode name = gm_child(n, syn->field.name), alias = gm_child(n, syn->field.alias);
                if (ts_node_is_null(name) || ts_node_is_null(alias))
                    continue;
                rc = add_import(s, slice_dup(gm_node_slice(alias, text)), compact_text(name, text));
            } else if (gm_is(n, syn->sym.dotted_name) && ts_node_named_child_count(n) > 0) {
                gm_slice head = gm_node_slice(ts_node_named_child(n, 0), text);
                rc = add_import(s, slice_dup(head), slice_dup(head));
            }
        } while (rc == 0 && ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
    return rc;
}

/* `from m import a, b as c` binds a to m.a and c to m.b. */
static int scan_from_import(sink *s, const gm_syntax *syn, const char *text, TSNode stmt) {
    TSNode module = gm_child(stmt, syn->field.module_name);
    if (ts_node_is_null(module))
        return 0;
    char *module_name = compact_text(module, text);
    if (!module_name)
        return -1;
    TSTreeCursor cursor = ts_tree_cursor_new(stmt);
    int rc = 0;
    if (ts_tree_cursor_goto_first_child(&cursor)) {
        do {
            if (gm_is(ts_tree_cursor_current_node(&cursor), syn->sym.wildcard_import)) {
                rc = add_import(s, strdup(GM_STAR_IMPORT), strdup(module_name));
                continue;
            }
            if (gm_is(ts_tree_cursor_current_node(&cursor), syn->sym.wildcard_import)) {
                rc = add_import(s, strdup(GM_STAR_IMPORT), strdup(module_name));
                continue;
            }
            if (ts_tree_cursor_current_field_id(&cursor) != syn->field.name)
                continue;
            TSNode n = ts_tree_cursor_current_node(&cursor);
            TSNode name = n, local = n;
            if (gm_is(n, syn->sym.aliased_import)) {
                name = gm_child(n, syn->field.name);
                local = gm_child(n, syn->field.alias);
                if (ts_node_is_null(name) || ts_node_is_null(local))
                    continue;
            }
            char *name_text = compact_text(name, text);
            if (!name_text) {
                rc = -1;
                break;
            }
            char *canonical = join_dotted(module_name, name_text);
            free(name_text);
            rc = add_import(s, compact_text(local, text), canonical);
        } while (rc == 0 && ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
    free(module_name);
    return rc;
}

static bool is_pattern(const gm_syntax *syn, TSNode n) {
    TSSymbol t = ts_node_symbol(n);
    return t == syn->sym.pattern_list || t == syn->sym.tuple_pattern ||
           t == syn->sym.list_pattern || t == syn->sym.list_splat_pattern ||
           t == syn->sym.parenthesized_expression || t == syn->sym.expression_list ||
           t == syn->sym.tuple || t == syn->sym.list;
}

/* What the binding walks below look for: one name (found tells whether it is bound), or every
 * bound name, added to set. */
typedef struct {
    const char *name;
    gm_name_set *set;
    bool found, oom;
} bind_visit;

static void visit_name(bind_visit *v, TSNode identifier, const char *text) {
    gm_slice s = gm_node_slice(identifier, text);
    if (!v->set)
        v->found |= gm_slice_is(s, v->name);
    else if (gm_name_set_add(v->set, s) != 0)
        v->oom = true;
}

static bool visit_done(const bind_visit *v) {
    return v->found || v->oom;
}

/* The names an assignment target (identifier or nested patterns of them) binds. */
static void target_visit(const gm_syntax *syn, const char *text, TSNode target, bind_visit *v,
                         int depth) {
    if (ts_node_is_null(target) || depth > 64)
        return;
    if (gm_is(target, syn->sym.identifier)) {
        visit_name(v, target, text);
        return;
    }
    if (!is_pattern(syn, target))
        return;
    uint32_t n = ts_node_named_child_count(target);
    for (uint32_t i = 0; i < n && !visit_done(v); i++)
        target_visit(syn, text, ts_node_named_child(target, i), v, depth + 1);
}

/* Whether an assignment target (identifier or nested patterns of them) binds name. */
static bool target_binds(const gm_syntax *syn, const char *text, TSNode target, const char *name,
                         int depth) {
    bind_visit v = {.name = name};
    target_visit(syn, text, target, &v, depth);
    return v.found;
}

/* Whether an expression_statement at module level assigns to name. */
static bool statement_assigns(const gm_syntax *syn, const char *text, TSNode stmt,
                              const char *name) {
    if (!gm_slice_contains(gm_node_slice(stmt, text), name))
        return false; /* a name it binds is in its text */
    uint32_t n = ts_node_named_child_count(stmt);
    for (uint32_t i = 0; i < n; i++) {
        TSNode a = ts_node_named_child(stmt, i);
        while (gm_is(a, syn->sym.assignment) || gm_is(a, syn->sym.augmented_assignment)) {
            if (target_binds(syn, text, gm_child(a, syn->field.left), name, 0))
                return true;
            a = gm_child(a, syn->field.right);
        }
    }
    return false;
}

/* Whether stmt is `<name>._dynamo.config.capture_scalar_outputs = True`, a dynamo setting the
 * file makes for the whole process before its functions are compiled. */
static bool sets_capture_scalar_outputs(const gm_syntax *syn, const char *text, TSNode stmt) {
    static const char setting[] = "._dynamo.config.capture_scalar_outputs";
    TSNode a = ts_node_named_child_count(stmt) == 1 ? ts_node_named_child(stmt, 0) : (TSNode){0};
    if (!gm_is(a, syn->sym.assignment))
        return false;
    TSNode left = gm_child(a, syn->field.left), right = gm_child(a, syn->field.right);
    if (!gm_is(left, syn->sym.attribute) || ts_node_is_null(right) ||
        !gm_node_text_is(right, text, "True"))
        return false;
    gm_slice target = gm_node_slice(left, text);
    size_t n = sizeof setting - 1;
    if (target.len <= n || memcmp(target.ptr + target.len - n, setting, n) != 0)
        return false;
    for (size_t i = 0; i < target.len - n; i++) /* a plain name before it: the torch module */
        if (!(target.ptr[i] == '_' || (target.ptr[i] >= 'a' && target.ptr[i] <= 'z') ||
              (target.ptr[i] >= 'A' && target.ptr[i] <= 'Z') ||
              (i > 0 && target.ptr[i] >= '0' && target.ptr[i] <= '9')))
            return false;
    return true;
}

static void import_visit(const gm_syntax *syn, const char *text, TSNode stmt, bind_visit *v) {
    /* The local names of an import are its identifiers that are not followed by "." inside a
     * dotted name of a from-import's module, i.e. aliases and imported names. Checking every
     * identifier is conservative and enough for `print`. */
    TSTreeCursor cursor = ts_tree_cursor_new(stmt);
    if (ts_tree_cursor_goto_first_child(&cursor)) {
        do {
            if (ts_tree_cursor_current_field_id(&cursor) != syn->field.name)
                continue;
            TSNode n = ts_tree_cursor_current_node(&cursor);
            if (gm_is(n, syn->sym.aliased_import))
                n = gm_child(n, syn->field.alias);
            else if (gm_is(n, syn->sym.dotted_name) && ts_node_named_child_count(n) > 0)
                n = ts_node_named_child(n, gm_is(stmt, syn->sym.import_statement)
                                               ? 0
                                               : ts_node_named_child_count(n) - 1);
            if (!ts_node_is_null(n))
                visit_name(v, n, text);
        } while (!visit_done(v) && ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
}

static bool import_binds(const gm_syntax *syn, const char *text, TSNode stmt, const char *name) {
    if (!gm_slice_contains(gm_node_slice(stmt, text), name))
        return false; /* a name it binds is in its text */
    bind_visit v = {.name = name};
    import_visit(syn, text, stmt, &v);
    return v.found;
}

/* A class's name and its base-class expressions (identifiers and dotted names). */
static int add_class(sink *k, const gm_syntax *syn, const char *text, TSNode cls) {
    TSNode name = gm_child(cls, syn->field.name);
    if (ts_node_is_null(name))
        return 0;
    gm_class_symbol c;
    memset(&c, 0, sizeof c);
    c.name = slice_dup(gm_node_slice(name, text));
    if (!c.name)
        return -1;
    hash_field(k->hash, 'C', c.name, strlen(c.name));
    TSNode supers = gm_child(cls, syn->field.superclasses);
    uint32_t n = ts_node_is_null(supers) ? 0 : ts_node_named_child_count(supers);
    if (n > 0 && !(c.bases = calloc(n, sizeof *c.bases)))
        goto oom;
    for (uint32_t i = 0; i < n; i++) {
        TSNode base = ts_node_named_child(supers, i);
        if (!gm_is(base, syn->sym.identifier) && !gm_is(base, syn->sym.attribute))
            continue;
        char *b = compact_text(base, text);
        if (!b)
            goto oom;
        c.bases[c.base_count++] = b;
        hash_field(k->hash, 'B', b, strlen(b));
    }
    gm_symbols *s = k->symbols;
    if (!s) {
        class_free(&c);
        return 0;
    }
    if (s->class_count == s->class_capacity) {
        size_t cap = s->class_capacity ? s->class_capacity * 2 : 16;
        gm_class_symbol *items = realloc(s->classes, cap * sizeof *items);
        if (!items)
            goto oom;
        s->classes = items;
        s->class_capacity = cap;
    }
    s->classes[s->class_count++] = c;
    return 0;
oom:
    class_free(&c);
    return -1;
}

static int scan(sink *s, const gm_syntax *syn, const char *text, TSNode n, bool nested, int depth);

/* `if TYPE_CHECKING:` or `if typing.TYPE_CHECKING:` (any module's): a block that never runs. */
static bool is_type_checking_if(const gm_syntax *syn, const char *text, TSNode n) {
    if (!gm_is(n, syn->sym.if_statement))
        return false;
    TSNode cond = gm_unparen(syn, gm_child(n, syn->field.condition));
    if (gm_is(cond, syn->sym.attribute))
        cond = gm_child(cond, syn->field.attribute);
    return gm_is(cond, syn->sym.identifier) && gm_node_text_is(cond, text, "TYPE_CHECKING");
}

/* Imports guarded by top-level if/try/with blocks (`if TYPE_CHECKING:`, `try: import x`). The
 * imports of an `if TYPE_CHECKING:` block resolve names like any other, but bind nothing when
 * the module runs (type_only): a mend must not write code that uses them. */
static int scan_nested_blocks(sink *s, const gm_syntax *syn, const char *text, TSNode n,
                              int depth) {
    if (depth > 32)
        return 0;
    bool type_checking = is_type_checking_if(syn, text, n);
    TSTreeCursor cursor = ts_tree_cursor_new(n);
    int rc = 0;
    if (ts_tree_cursor_goto_first_child(&cursor)) {
        do {
            TSNode c = ts_tree_cursor_current_node(&cursor);
            TSSymbol t = ts_node_symbol(c);
            if (t == syn->sym.block) {
                bool was_type_only = s->type_only;
                s->type_only = was_type_only || type_checking;
                TSTreeCursor inner = ts_tree_cursor_new(c);
                if (ts_tree_cursor_goto_first_child(&inner)) {
                    do {
                        rc = scan(s, syn, text, ts_tree_cursor_current_node(&inner), true,
                                  depth + 1);
                    } while (rc == 0 && ts_tree_cursor_goto_next_sibling(&inner));
                }
                ts_tree_cursor_delete(&inner);
                s->type_only = was_type_only;
            } else if (t == syn->sym.elif_clause || t == syn->sym.else_clause ||
                       t == syn->sym.except_clause || t == syn->sym.except_group_clause ||
                       t == syn->sym.finally_clause) {
                rc = scan_nested_blocks(s, syn, text, c, depth + 1);
            }
        } while (rc == 0 && ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
    return rc;
}

static bool resolve_string(const gm_symbols *s, const char *dotted, char *buf, size_t cap);

/* The function a module-level alias names, as written: `a.b.f`, `getattr(a.b, "f", None)`, or
 * the first of such alternatives joined by `or` (a function object is truthy, so `or` yields
 * it). Writes it into buf; false for any other right side. */
static bool alias_source(const gm_syntax *syn, const char *text, TSNode rhs, char *buf,
                         size_t cap) {
    for (int guard = 0; guard < 8; guard++) {
        rhs = gm_unparen(syn, rhs);
        if (!gm_is(rhs, syn->sym.boolean_operator))
            break;
        TSNode op = gm_child(rhs, syn->field.operator);
        if (ts_node_is_null(op) || strcmp(ts_node_type(op), "or") != 0)
            return false;
        rhs = gm_child(rhs, syn->field.left);
    }
    size_t len = 0;
    if (gm_is(rhs, syn->sym.identifier) || gm_is(rhs, syn->sym.attribute))
        return gm_dotted_name_text(syn, text, rhs, buf, cap, &len);
    if (!gm_is(rhs, syn->sym.call) ||
        !gm_node_text_is(gm_child(rhs, syn->field.function), text, "getattr"))
        return false;
    TSNode args = gm_child(rhs, syn->field.arguments);
    uint32_t count = ts_node_is_null(args) ? 0 : ts_node_named_child_count(args);
    char name[64];
    if (count < 2 || count > 3 ||
        !gm_dotted_name_text(syn, text, ts_node_named_child(args, 0), buf, cap, &len) ||
        !gm_string_spells_name(syn, text, ts_node_named_child(args, 1), name, sizeof name) ||
        len + 1 + strlen(name) + 1 > cap)
        return false;
    buf[len++] = '.';
    memcpy(buf + len, name, strlen(name) + 1);
    return true;
}

/* `name = torch.compiler.is_compiling` or `name = getattr(torch.compiler, "is_compiling", None)
 * or ...` at module level: name then stands for that function, as an import of it would (kornia
 * calls `_torch_is_compiling()`), so that calls of it fold. Only names of the functions torch
 * folds to a constant (compile_constants.h) are kept. */
static int scan_constant_alias(sink *k, const gm_syntax *syn, const char *text, TSNode stmt) {
    if (ts_node_named_child_count(stmt) != 1)
        return 0;
    TSNode a = ts_node_named_child(stmt, 0);
    TSNode left = gm_child(a, syn->field.left);
    if (!gm_is(a, syn->sym.assignment) || !gm_is(left, syn->sym.identifier))
        return 0;
    char dotted[GM_NAME_MAX];
    if (!alias_source(syn, text, gm_child(a, syn->field.right), dotted, sizeof dotted))
        return 0;
    const char *dot = strrchr(dotted, '.');
    if (!gm_torch_compile_constant_ends(dot ? dot + 1 : dotted))
        return 0;
    gm_slice local = gm_node_slice(left, text);
    hash_field(k->hash, 'A', local.ptr, local.len);
    hash_field(k->hash, '=', dotted, strlen(dotted));
    char canonical[GM_NAME_MAX];
    gm_symbols *s = k->symbols;
    if (!s || !resolve_string(s, dotted, canonical, sizeof canonical) ||
        gm_torch_compile_constant(canonical) < 0)
        return 0;
    sink quiet = *k;
    uint64_t unused = GM_HASH_INIT;
    quiet.hash = &unused; /* hashed above, as written: the same with or without symbols */
    return add_import(&quiet, slice_dup(local), strdup(canonical));
}

/* `name = a.b.getLogger(...)` (possibly chained `x = name = ...`): records name with the callee
 * as written; whether the callee is logging.getLogger is decided once the imports are known. */
static int scan_logger(sink *k, const gm_syntax *syn, const char *text, TSNode stmt) {
    uint32_t n = ts_node_named_child_count(stmt);
    for (uint32_t i = 0; i < n; i++) {
        TSNode a = ts_node_named_child(stmt, i);
        if (!gm_is(a, syn->sym.assignment))
            continue;
        TSNode rhs = a;
        while (gm_is(rhs, syn->sym.assignment))
            rhs = gm_child(rhs, syn->field.right);
        if (!gm_is(rhs, syn->sym.call))
            continue;
        TSNode fn = gm_child(rhs, syn->field.function);
        if (!gm_is(fn, syn->sym.identifier) && !gm_is(fn, syn->sym.attribute))
            continue;
        for (TSNode t = a; gm_is(t, syn->sym.assignment); t = gm_child(t, syn->field.right)) {
            TSNode left = gm_child(t, syn->field.left);
            if (!gm_is(left, syn->sym.identifier))
                continue;
            char *callee = compact_text(fn, text);
            char *local = slice_dup(gm_node_slice(left, text));
            if (!callee || !local ||
                !(gm_name_last_is(callee, "getLogger") || gm_name_last_is(callee, "get_logger"))) {
                bool oom = !callee || !local;
                free(callee);
                free(local);
                if (oom)
                    return -1;
                continue;
            }
            hash_field(k->hash, 'L', local, strlen(local));
            hash_field(k->hash, '=', callee, strlen(callee));
            gm_symbols *s = k->symbols;
            if (!s) {
                free(local);
                free(callee);
                continue;
            }
            if (s->logger_count == s->logger_capacity) {
                size_t cap = s->logger_capacity ? s->logger_capacity * 2 : 4;
                gm_import *items = realloc(s->loggers, cap * sizeof *items);
                if (!items) {
                    free(local);
                    free(callee);
                    return -1;
                }
                s->loggers = items;
                s->logger_capacity = cap;
            }
            s->loggers[s->logger_count].local = local;
            s->loggers[s->logger_count].canonical = callee;
            s->loggers[s->logger_count].type_only = false;
            s->logger_count++;
        }
    }
    return 0;
}


bool gm_mentions_checkpoint_call(gm_slice text) {
    return gm_slice_contains(text, "heckpoint") &&
           (gm_slice_contains(text, "checkpoint(") ||
            gm_slice_contains(text, "_gradient_checkpointing_func"));
}

bool gm_mentions_checkpointing(gm_slice text) {
    return gm_slice_contains(text, "heckpoint") &&
           (gm_mentions_checkpoint_call(text) || gm_slice_contains(text, "GradientCheckpointingLayer"));
}

static void note_print_binding(sink *k) {
    hash_field(k->hash, 'P', "print", 5);
    if (k->symbols)
        k->symbols->module_binds_print = true;
}

static int scan(sink *s, const gm_syntax *syn, const char *text, TSNode n, bool nested, int depth) {
    TSSymbol t = ts_node_symbol(n);
    if (t == syn->sym.import_statement || t == syn->sym.import_from_statement) {
        if (import_binds(syn, text, n, "print"))
            note_print_binding(s);
        return t == syn->sym.import_statement ? scan_import(s, syn, text, n)
                                              : scan_from_import(s, syn, text, n);
    }
    if (t == syn->sym.expression_statement) {
        if (statement_assigns(syn, text, n, "print"))
            note_print_binding(s);
        /* `torch._dynamo.config.reorderable_logging_functions.add(f)` changes what dynamo does
         * with every call of f in the file (analysis/logging_calls/logging_config.c), so it is part
         * of the fingerprint. */
        gm_slice stmt = gm_node_slice(n, text);
        static const char setting[] = "reorderable_logging_functions";
        for (uint32_t at = 0; at + sizeof setting - 1 <= stmt.len; at++)
            if (memcmp(stmt.ptr + at, setting, sizeof setting - 1) == 0) {
                hash_node(s->hash, 'R', n, text);
                if (s->symbols)
                    s->symbols->mentions_reorderable_logging = true;
                break;
            }
        if (sets_capture_scalar_outputs(syn, text, n)) {
            hash_node(s->hash, 'S', n, text);
            if (s->symbols)
                s->symbols->sets_capture_scalar_outputs = true;
        }
        if (scan_constant_alias(s, syn, text, n) != 0)
            return -1;
        return scan_logger(s, syn, text, n);
    }
    if (t == syn->sym.if_statement || t == syn->sym.try_statement || t == syn->sym.with_statement)
        return scan_nested_blocks(s, syn, text, n, depth);
    if (nested)
        return 0;
    if (t == syn->sym.decorated_definition) {
        /* Decorators matter to their own statement only, for now; they are in the fingerprint
         * for what will follow them (compile targets reached through calls). */
        TSTreeCursor cursor = ts_tree_cursor_new(n);
        if (ts_tree_cursor_goto_first_child(&cursor)) {
            do {
                TSNode d = ts_tree_cursor_current_node(&cursor);
                if (gm_is(d, syn->sym.decorator))
                    hash_node(s->hash, 'D', d, text);
            } while (ts_tree_cursor_goto_next_sibling(&cursor));
        }
        ts_tree_cursor_delete(&cursor);
        TSNode def = gm_child(n, syn->field.definition);
        return ts_node_is_null(def) ? 0 : scan(s, syn, text, def, false, depth + 1);
    }
    if (t == syn->sym.class_definition || t == syn->sym.function_definition) {
        TSNode name = gm_child(n, syn->field.name);
        /* the rules for a checkpoint's traced body (GM609) look at the whole file */
        if (gm_mentions_checkpointing(gm_node_slice(n, text))) {
            hash_field(s->hash, 'C', "checkpoint", 10);
            if (s->symbols)
                s->symbols->uses_gradient_checkpointing = true;
        }
        if (!ts_node_is_null(name) && gm_node_text_is(name, text, "print"))
            note_print_binding(s);
        if (t == syn->sym.class_definition)
            return add_class(s, syn, text, n);
        if (!ts_node_is_null(name))
            hash_node(s->hash, 'F', name, text);
    }
    return 0;
}

int gm_symbols_scan_top(gm_symbols *symbols, const gm_syntax *syntax, const char *text,
                        TSNode child, uint64_t *hash) {
    sink k = {symbols, hash, false, true};
    return scan(&k, syntax, text, child, false, 0);
}

int gm_symbols_overlay(gm_symbols *overlay, const gm_symbols *base, const gm_syntax *syntax,
                       const char *text, const TSNode *imports, size_t count) {
    *overlay = *base;
    overlay->imports = NULL;
    overlay->import_count = overlay->import_capacity = 0;
    size_t cap = base->import_count + count + 1;
    overlay->imports = malloc(cap * sizeof *overlay->imports);
    if (!overlay->imports)
        return -1;
    overlay->import_capacity = cap;
    if (base->import_count)
        memcpy(overlay->imports, base->imports, base->import_count * sizeof *base->imports);
    overlay->import_count = base->import_count;
    uint64_t unused = GM_HASH_INIT;
    sink k = {overlay, &unused, false, false};
    for (size_t i = 0; i < count; i++)
        if (scan(&k, syntax, text, imports[i], false, 0) != 0) {
            gm_symbols_overlay_free(overlay, base);
            return -1;
        }
    if (!base->torch_alias)
        for (size_t i = base->import_count; i < overlay->import_count; i++)
            if (strcmp(overlay->imports[i].canonical, "torch") == 0) {
                overlay->torch_alias = strdup(overlay->imports[i].local);
                break;
            }
    return 0;
}

void gm_symbols_overlay_free(gm_symbols *overlay, const gm_symbols *base) {
    for (size_t i = base->import_count; i < overlay->import_count; i++) {
        free(overlay->imports[i].local);
        free(overlay->imports[i].canonical);
    }
    free(overlay->imports);
    if (overlay->torch_alias != base->torch_alias)
        free(overlay->torch_alias);
    memset(overlay, 0, sizeof *overlay);
}

bool gm_symbols_imported_after(const gm_symbols *symbols, size_t from, gm_slice name) {
    for (size_t i = symbols->import_count; i-- > from;) {
        const char *local = symbols->imports[i].local;
        if (strlen(local) == name.len && memcmp(local, name.ptr, name.len) == 0)
            return true;
    }
    return false;
}

static const gm_import *find_import(const gm_symbols *s, const char *head, size_t len) {
    for (size_t i = s->import_count; i-- > 0;) {
        const char *local = s->imports[i].local;
        /* the first byte turns most away before strlen: the rules ask for every name they see */
        if ((len == 0 || local[0] == head[0]) && strlen(local) == len &&
            memcmp(local, head, len) == 0)
            return &s->imports[i];
    }
    return NULL;
}

bool gm_symbols_is_imported(const gm_symbols *symbols, gm_slice name) {
    return find_import(symbols, name.ptr, name.len) != NULL;
}

/* Resolves the head of a dotted string through the imports into buf. */
static bool resolve_string(const gm_symbols *s, const char *dotted, char *buf, size_t cap) {
    const char *dot = strchr(dotted, '.');
    size_t head_len = dot ? (size_t)(dot - dotted) : strlen(dotted);
    const gm_import *imp = find_import(s, dotted, head_len);
    const char *head = imp ? imp->canonical : NULL;
    size_t hl = imp ? strlen(head) : head_len;
    size_t rest = strlen(dotted + head_len);
    if (hl + rest + 1 > cap)
        return false;
    memcpy(buf, imp ? head : dotted, hl);
    memcpy(buf + hl, dotted + head_len, rest + 1);
    return true;
}

bool gm_symbols_resolve_imported(const gm_symbols *symbols, const char *dotted, char *buf,
                                 size_t cap) {
    const char *dot = strchr(dotted, '.');
    size_t head_len = dot ? (size_t)(dot - dotted) : strlen(dotted);
    return find_import(symbols, dotted, head_len) && resolve_string(symbols, dotted, buf, cap);
}

/* Appends ".part" for each of parts[from] down to parts[0] to buf at *at. */
static bool append_parts(const TSNode *parts, size_t from, const char *text, char *buf,
                         size_t cap, size_t *at) {
    for (size_t i = from + 1; i-- > 0;) {
        if (ts_node_is_null(parts[i]))
            return false;
        gm_slice p = gm_node_slice(parts[i], text);
        if (*at + 1 + p.len + 1 > cap)
            return false;
        buf[(*at)++] = '.';
        memcpy(buf + *at, p.ptr, p.len);
        *at += p.len;
    }
    buf[*at] = '\0';
    return true;
}

static bool resolve_chain(const gm_symbols *symbols, const gm_syntax *syntax, const char *text,
                          TSNode node, char *buf, size_t cap, int depth);

/* `getattr(obj, "name")` (two arguments, a literal name, the builtin): obj.name, resolved into
 * buf. With a default the value may be the default instead: not resolved. */
static bool resolve_getattr(const gm_symbols *symbols, const gm_syntax *syntax, const char *text,
                            TSNode call, char *buf, size_t cap, int depth) {
    TSNode fn = gm_child(call, syntax->field.function);
    TSNode args = gm_child(call, syntax->field.arguments);
    char name[64];
    if (!gm_node_text_is(fn, text, "getattr") || find_import(symbols, "getattr", 7) ||
        ts_node_is_null(args) || ts_node_named_child_count(args) != 2 ||
        !gm_string_spells_name(syntax, text, ts_node_named_child(args, 1), name, sizeof name) ||
        !resolve_chain(symbols, syntax, text, ts_node_named_child(args, 0), buf, cap, depth + 1))
        return false;
    size_t at = strlen(buf), n = strlen(name);
    if (at + 1 + n + 1 > cap)
        return false;
    buf[at++] = '.';
    memcpy(buf + at, name, n + 1);
    return true;
}

static bool resolve_chain(const gm_symbols *symbols, const gm_syntax *syntax, const char *text,
                          TSNode node, char *buf, size_t cap, int depth) {
    /* Collect the chain's identifiers innermost-last: a.b.c is attribute(attribute(a, b), c). */
    TSNode parts[32];
    size_t count = 0;
    node = gm_unparen(syntax, node);
    while (gm_is(node, syntax->sym.attribute)) {
        if (count == 32)
            return false;
        parts[count++] = gm_child(node, syntax->field.attribute);
        node = gm_unparen(syntax, gm_child(node, syntax->field.object));
    }
    if (gm_is(node, syntax->sym.call) && depth < 8) {
        if (!resolve_getattr(symbols, syntax, text, node, buf, cap, depth))
            return false;
        size_t at = strlen(buf);
        return count == 0 || append_parts(parts, count - 1, text, buf, cap, &at);
    }
    if (!gm_is(node, syntax->sym.identifier) || count == 32)
        return false;
    parts[count++] = node;
    gm_slice head = gm_node_slice(node, text);
    const gm_import *imp = find_import(symbols, head.ptr, head.len);
    size_t at = 0;
    if (imp) {
        size_t n = strlen(imp->canonical);
        if (n + 1 > cap)
            return false;
        memcpy(buf, imp->canonical, n);
        at = n;
    } else {
        if ((size_t)head.len + 1 > cap)
            return false;
        memcpy(buf, head.ptr, head.len);
        at = head.len;
    }
    buf[at] = '\0';
    return count < 2 || append_parts(parts, count - 2, text, buf, cap, &at);
}

bool gm_symbols_resolve(const gm_symbols *symbols, const gm_syntax *syntax, const char *text,
                        TSNode node, char *buf, size_t cap) {
    return resolve_chain(symbols, syntax, text, node, buf, cap, 0);
}

static bool canonical_is_module(const char *name) {
    if (strcmp(name, "torch.nn.Module") == 0 || strcmp(name, "torch.nn.modules.module.Module") == 0)
        return true;
    /* Every public class of torch.nn (Linear, Sequential, ModuleList, ...) is a Module, except the
     * tensor subclasses and the utility namespaces. */
    if (strncmp(name, "torch.nn.", 9) == 0 && strncmp(name, "torch.nn.utils.", 15) != 0 &&
        strncmp(name, "torch.nn.parameter.", 19) != 0 &&
        strncmp(name, "torch.nn.attention.", 19) != 0) {
        const char *dot = strrchr(name, '.');
        const char *last = dot + 1;
        if (isupper((unsigned char)last[0]) && strcmp(last, "Parameter") != 0 &&
            strcmp(last, "Buffer") != 0 && strcmp(last, "UninitializedParameter") != 0 &&
            strcmp(last, "UninitializedBuffer") != 0)
            return true;
    }
    /* Well-known Module subclasses of model libraries (transformers, diffusers, Lightning). */
    return gm_name_last_is(name, "PreTrainedModel") || gm_name_last_is(name, "ModelMixin") ||
           gm_name_last_is(name, "LightningModule");
}

static const gm_class_symbol *find_class(const gm_symbols *s, const char *name) {
    for (size_t i = s->class_count; i-- > 0;)
        if (strcmp(s->classes[i].name, name) == 0)
            return &s->classes[i];
    return NULL;
}

/* Whether the workspace told that resolved (a base as the imports spell it) is a Module of
 * another file. */
static bool listed_module_base(const gm_symbols *s, const char *resolved) {
    for (size_t i = 0; i < s->module_base_count; i++)
        if (strcmp(s->module_bases[i], resolved) == 0)
            return true;
    return false;
}

static bool base_is_module(const gm_symbols *s, const char *resolved) {
    if (canonical_is_module(resolved) || listed_module_base(s, resolved))
        return true;
    const gm_class_symbol *c = strchr(resolved, '.') ? NULL : find_class(s, resolved);
    return c && c->is_module;
}

int gm_symbols_finish(gm_symbols *symbols) {
    char buf[GM_NAME_MAX];
    /* Fixed point over same-file inheritance chains (class B(A), class A(nn.Module)), in any
     * order of definition. */
    bool changed = true;
    for (size_t round = 0; changed && round <= symbols->class_count; round++) {
        changed = false;
        for (size_t i = 0; i < symbols->class_count; i++) {
            gm_class_symbol *c = &symbols->classes[i];
            if (c->is_module)
                continue;
            for (size_t j = 0; j < c->base_count && !c->is_module; j++)
                if (resolve_string(symbols, c->bases[j], buf, sizeof buf) &&
                    base_is_module(symbols, buf))
                    c->is_module = changed = true;
        }
    }
    const char *alias = NULL;
    bool type_checking_torch = false;
    for (size_t i = 0; i < symbols->import_count; i++) {
        const gm_import *imp = &symbols->imports[i];
        if (strcmp(imp->canonical, "torch") != 0)
            continue;
        if (imp->type_only) {
            type_checking_torch = true;
            continue;
        }
        if (!alias || strcmp(imp->local, "torch") == 0)
            alias = imp->local;
    }
    free(symbols->torch_alias);
    symbols->torch_alias = NULL;
    symbols->torch_type_checking_only = !alias && type_checking_torch;
    if (alias && !(symbols->torch_alias = strdup(alias)))
        return -1;
    return 0;
}

bool gm_symbols_is_logger(const gm_symbols *symbols, gm_slice name) {
    char buf[GM_NAME_MAX];
    for (size_t i = symbols->logger_count; i-- > 0;) {
        const gm_import *l = &symbols->loggers[i];
        if (strlen(l->local) != name.len || memcmp(l->local, name.ptr, name.len) != 0)
            continue;
        if (!resolve_string(symbols, l->canonical, buf, sizeof buf))
            return false;
        /* logging.getLogger, or a library's wrapper module named logging whose get_logger
         * returns a logging.Logger (transformers.utils.logging.get_logger) */
        size_t n = strlen(buf);
        return strcmp(buf, "logging.getLogger") == 0 ||
               (n > 19 && strcmp(buf + n - 19, ".logging.get_logger") == 0);
    }
    return false;
}

bool gm_symbols_bases_are_module(const gm_symbols *symbols, const gm_syntax *syntax,
                                 const char *text, TSNode superclasses) {
    if (ts_node_is_null(superclasses))
        return false;
    char buf[GM_NAME_MAX];
    uint32_t n = ts_node_named_child_count(superclasses);
    for (uint32_t i = 0; i < n; i++) {
        TSNode base = ts_node_named_child(superclasses, i);
        if (gm_symbols_resolve(symbols, syntax, text, base, buf, sizeof buf) &&
            base_is_module(symbols, buf))
            return true;
    }
    return false;
}

static void parameter_visit(const gm_syntax *syn, const char *text, TSNode p, bind_visit *v) {
    if (gm_is(p, syn->sym.identifier)) {
        visit_name(v, p, text);
        return;
    }
    TSNode n = gm_child(p, syn->field.name);
    if (!ts_node_is_null(n)) {
        target_visit(syn, text, n, v, 0);
        return;
    }
    /* typed_parameter and splat patterns: the identifier is a plain (possibly nested) child. */
    uint32_t count = ts_node_named_child_count(p);
    for (uint32_t i = 0; i < count && !visit_done(v); i++) {
        TSNode c = ts_node_named_child(p, i);
        if (gm_is(c, syn->sym.type))
            continue;
        if (gm_is(c, syn->sym.identifier))
            visit_name(v, c, text);
        else if (gm_is(c, syn->sym.list_splat_pattern) ||
                 gm_is(c, syn->sym.dictionary_splat_pattern))
            parameter_visit(syn, text, c, v);
    }
}

/* One node of the walk over a function body: visits the names n binds by itself, and tells
 * whether the walk looks inside n. */
static bool body_step(const gm_syntax *syn, const char *text, TSNode n, bind_visit *v) {
    TSSymbol t = ts_node_symbol(n);
    bool descend = ts_node_is_named(n);
    if (t == syn->sym.function_definition || t == syn->sym.class_definition) {
        target_visit(syn, text, gm_child(n, syn->field.name), v, 0);
        descend = false;
    } else if (t == syn->sym.lambda) {
        descend = false;
    } else if (t == syn->sym.assignment || t == syn->sym.augmented_assignment ||
               t == syn->sym.for_statement) {
        target_visit(syn, text, gm_child(n, syn->field.left), v, 0);
    } else if (t == syn->sym.named_expression) {
        target_visit(syn, text, gm_child(n, syn->field.name), v, 0);
    } else if (t == syn->sym.as_pattern_target) {
        uint32_t c = ts_node_named_child_count(n);
        for (uint32_t i = 0; i < c && !visit_done(v); i++)
            target_visit(syn, text, ts_node_named_child(n, i), v, 0);
    } else if (t == syn->sym.import_statement || t == syn->sym.import_from_statement) {
        import_visit(syn, text, n, v);
        descend = false;
    }
    return descend;
}

static void parameters_visit(const gm_syntax *syn, const char *text, TSNode function,
                             bind_visit *v) {
    TSNode params = gm_child(function, syn->field.parameters);
    uint32_t np = ts_node_is_null(params) ? 0 : ts_node_named_child_count(params);
    for (uint32_t i = 0; i < np && !visit_done(v); i++)
        parameter_visit(syn, text, ts_node_named_child(params, i), v);
}

/* The names the function binds locally (see gm_function_binds), until v is done. */
static void function_visit(const gm_syntax *syn, const char *text, TSNode function, bind_visit *v) {
    parameters_visit(syn, text, function, v);
    TSNode body = gm_child(function, syn->field.body);
    if (ts_node_is_null(body) || visit_done(v))
        return;
    TSTreeCursor cursor = ts_tree_cursor_new(body);
    for (;;) {
        bool descend = body_step(syn, text, ts_tree_cursor_current_node(&cursor), v);
        if (visit_done(v))
            break;
        if (descend && ts_tree_cursor_goto_first_child(&cursor))
            continue;
        bool moved = false;
        while (!moved) {
            if (ts_tree_cursor_goto_next_sibling(&cursor)) {
                moved = true;
            } else if (!ts_tree_cursor_goto_parent(&cursor)) {
                break;
            }
        }
        if (!moved)
            break;
    }
    ts_tree_cursor_delete(&cursor);
}

int gm_parameters_bind(const gm_syntax *syntax, const char *text, TSNode function,
                       gm_name_set *out) {
    bind_visit v = {.set = out};
    parameters_visit(syntax, text, function, &v);
    return v.oom ? -1 : 0;
}

bool gm_body_node_binds(const gm_syntax *syntax, const char *text, TSNode node, gm_name_set *out,
                        bool *oom) {
    bind_visit v = {.set = out};
    bool descend = body_step(syntax, text, node, &v);
    *oom |= v.oom;
    return descend;
}

bool gm_function_binds(const gm_syntax *syntax, const char *text, TSNode function,
                       const char *name) {
    bind_visit v = {.name = name};
    function_visit(syntax, text, function, &v);
    return v.found;
}

int gm_function_bound_names(const gm_syntax *syntax, const char *text, TSNode function,
                            gm_name_set *out) {
    gm_name_set_clear(out);
    bind_visit v = {.set = out};
    function_visit(syntax, text, function, &v);
    return v.oom ? -1 : 0;
}
