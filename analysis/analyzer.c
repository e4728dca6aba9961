/* Orchestration and the incremental cache. Findings are kept per top-level statement (child of
 * the module). An edit drops the entries whose lines it touches and shifts those after it; a run
 * reuses every entry whose statement still spans exactly the same bytes, unless the file-wide
 * fingerprint (imports, class names and bases, decorators, top-level bindings of print) or the
 * options changed, or the set of its functions that compiled code reaches (through calls from
 * other statements: each entry keeps its part of the file's call graph, and every run recomputes
 * what is reached over all parts). Each entry keeps its own part of the fingerprint, so a run
 * hashes only the statements it has not seen. File-level `ignore-file` comments are applied when
 * the result is put together, so changing one needs no re-analysis. A run walks the module's
 * children and nothing else of the unchanged statements. */
#include "analysis/analyzer.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/findings/suppression.h"
#include "analysis/findings/syntax_errors.h"
#include "analysis/findings/unused_suppressions.h"
#include "analysis/module_facts/breaking_properties.h"
#include "analysis/module_facts/call_graph.h"
#include "analysis/module_facts/compile_constants.h"
#include "analysis/module_facts/compile_targets.h"
#include "analysis/module_facts/module_index.h"
#include "analysis/module_facts/module_summary.h"
#include "analysis/module_facts/symbols.h"
#include "analysis/options/analysis_options.h"
#include "analysis/region_walk.h"
#include "analysis/regions/compiled_regions.h"
#include "analysis/regions/region.h"
#include "analysis/rules/rules.h"
#include "analysis/syntax/line_breaks.h"
#include "analysis/syntax/name_set.h"
#include "analysis/syntax/python_parser.h"
#include "analysis/syntax/syntax.h"
#include "analysis/value_kinds/value_kinds.h"

#define GM_ANALYZE_SOURCE_TIMEOUT_MICROS (10u * 1000u * 1000u)

/* A finding of a statement (its index in the entry's findings) in the body of a getter. */
struct getter_finding {
    size_t finding;
    char key[sizeof ((gm_breaking_property *)0)->key];
};

typedef struct {
    uint32_t start_byte, end_byte; /* the statement */
    /* From the start of the statement's first line to the end of its last line: suppression
     * comments and the "alone on its line" checks of mends look there. */
    uint32_t dep_start, dep_end;
    uint32_t start_row;
    TSSymbol symbol;
    uint64_t contribution; /* its part of the file-wide fingerprint (GM_HASH_INIT: none) */
    bool dead;             /* an edit touched it; freed at the next run */
    int64_t pending_bytes; /* shifts noted since the findings were last adjusted */
    int64_t pending_rows;
    gm_finding *findings; /* owned, sorted */
    size_t count;
    gm_call_part calls;  /* owned: its functions in the file's call graph */
    uint64_t part_digest; /* gm_call_graph_part_digest of calls */
    uint64_t sites_digest; /* part_sites_digest of calls */
    uint64_t instance_bits; /* name_bit of each instance binding's variable */
    uint64_t membership; /* which of them compiled code reached when it was analysed (0: none) */
    /* gm_stmt_ctx.class_deps of its analysis, and the bits of the classes and methods it
     * defines (defined_bits): a statement whose kinds read what a method of another
     * statement's class returns is analysed again when that class changes; the same, apart,
     * for what a module-level function returns (function_deps, function_defines) */
    uint64_t class_deps, defines;
    uint64_t function_deps, function_defines;
    /* owned: the findings that predict a break in a @property getter's body, with the getter
     * (the module's breaking properties are made of them on every run) */
    struct getter_finding *getters;
    size_t getter_count;
    gm_index_facts index_facts; /* owned: what it gives the module index's tables */
    /* owned: gm_stmt_ctx.passes of its analysis, for the module summary */
    char **passes;
    size_t pass_count;
} cache_entry;

typedef struct {
    cache_entry *items;
    size_t count, capacity;
} entry_list;

/* Per module child during a run: the cached entry it matches (or -1) and its fingerprint part. */
typedef struct {
    ptrdiff_t match;
    uint64_t contribution;
    bool statement;     /* a named child other than a comment or an ERROR node */
    gm_call_part calls; /* owned until moved into the new entry */
    uint64_t part_digest, sites_digest, instance_bits;
    size_t node_offset; /* of its call nodes in the run's graph */
    uint64_t membership;
} child_info;

/* A statement pass 2 analyses: its module child, its slot in the new entries, and how its
 * analysis went (each job writes only its own job and slot, so jobs may run at the same time). */
typedef struct {
    size_t child, slot;
    int rc;
} statement_job;

struct gm_analyzer {
    gm_syntax syntax;
    /* how pass 2 analyses many statements at once (gm_analyzer_set_parallel; NULL: in turn) */
    gm_each_runner *run_each;
    void *runner_context;
    size_t parallel_min_bytes; /* SIZE_MAX: the two thresholds of analyzer.h */
    statement_job *jobs; /* per run */
    size_t job_capacity;
    entry_list entries;
    entry_list spare; /* the next run builds its entries here, then the two swap */
    bool have_state;  /* fingerprint, options and symbols describe the cached entries */
    uint64_t fingerprint;
    gm_analysis_options options;
    /* options with the dynamo settings the file makes itself (symbols), which its statements
     * are analysed with */
    gm_analysis_options file_options;
    gm_symbols symbols;
    gm_finding_list result;    /* shallow copies of the entries' findings (+ syntax_finding) */
    gm_finding syntax_finding; /* owned */
    gm_finding_list unused_suppressions; /* owned: this run's GM901 findings */
    gm_suppression_hit *hits;            /* the findings line comments hid in this run */
    size_t hit_count;
    size_t hit_capacity;
    TSNode *children;
    child_info *info;
    gm_index_facts *child_facts; /* per child during a run: owned until moved into its entry */
    size_t children_capacity;
    gm_call_graph graph;
    const gm_call_part **parts; /* the statements' parts, for the graph */
    uint64_t *part_digests;     /* theirs, hashed once when a part is built */
    size_t parts_capacity, part_count;
    char **external_keys; /* owned: functions other modules' compiled code calls */
    size_t external_count;
    /* owned "name=value" facts: imported functions that return a compile-time constant */
    char **external_constants;
    size_t external_constant_count;
    /* owned "returns:" facts, prefix cut and the name ended by '\0' before its kinds
     * ("name\0arity:tensors"): imported functions whose return annotation declares tensors */
    char **external_returns;
    size_t external_return_count;
    /* owned "module:" facts, prefix cut: bases of this file's classes that are Modules of other
     * files (the symbols borrow them) */
    char **external_module_bases;
    size_t external_module_base_count;
    /* per run: those and this module's own such functions, sorted by name (names borrowed from
     * external_constants, external_returns and the statements' call parts), and a digest of
     * them: a change makes every statement be analysed again */
    gm_function_fact *constants;
    size_t constant_count, constant_capacity;
    uint64_t constants_digest;
    /* owned copies of that table as the last text that parsed made it, and its digest
     * (good_facts_valid): while the text does not parse, the table stays this one */
    gm_function_fact *good_facts;
    size_t good_fact_count;
    uint64_t good_facts_digest;
    bool good_facts_valid;
    gm_analyzer_stats stats;
    gm_module_index module_index; /* per run, built on first use */
    gm_index_orders index_orders; /* how its tables were sorted last, for the next run */
    gm_module_scan module_scan;   /* per run, scanned on first use */
    /* the getters that break, from the last run, and the digest of the set the cached entries
     * were analysed with: when they differ, every statement is analysed again */
    gm_breaking_properties breaking_properties;
    uint64_t breaking_properties_used;
    /* owned "property:"/"stores:" facts: the getters that break, and the methods that store
     * tensors, of classes other modules define and this one imports */
    char **external_property_facts;
    size_t external_property_fact_count;
    /* owned "args:" facts, prefix cut ("name:MASK", sorted): the parameters of this module's
     * functions that compiled code of other modules passes tensors to */
    char **external_args;
    size_t external_arg_count;
    /* owned "entry:" facts, prefix cut and the key ended by '\0' at its '=' ("key\0entry"):
     * this module's functions compiled only when a user compiles the entry point named after
     * the key (a library's public function, "pkg.mod.f"), the keys for the call graph;
     * entry_names borrows the part after each key */
    char **external_entries;
    const char **entry_names;
    size_t external_entry_count;
    /* per run: the getter findings of the result, in its order (keys borrowed from entries) */
    gm_getter_break *getter_breaks;
    size_t getter_break_count, getter_break_capacity;
    /* the compile sites made with the last summary, and gm_analyzer_compile_sites_digest then
     * (0: none): the server asks for the sites right after the summary */
    gm_compile_site_list sites;
    uint64_t sites_digest;
};

static void strings_free(char **items, size_t count);

static void entry_free(cache_entry *e) {
    for (size_t i = 0; i < e->count; i++)
        gm_finding_free(&e->findings[i]);
    free(e->findings);
    e->findings = NULL;
    e->count = 0;
    free(e->getters);
    e->getters = NULL;
    e->getter_count = 0;
    strings_free(e->passes, e->pass_count);
    e->passes = NULL;
    e->pass_count = 0;
    gm_index_facts_free(&e->index_facts);
    gm_call_part_free(&e->calls);
}

static void entries_clear(entry_list *list) {
    for (size_t i = 0; i < list->count; i++)
        entry_free(&list->items[i]);
    list->count = 0;
}

static void strings_free(char **items, size_t count) {
    for (size_t i = 0; i < count; i++)
        free(items[i]);
    free(items);
}

static void external_keys_clear(gm_analyzer *a) {
    strings_free(a->external_keys, a->external_count);
    a->external_keys = NULL;
    a->external_count = 0;
    strings_free(a->external_constants, a->external_constant_count);
    a->external_constants = NULL;
    a->external_constant_count = 0;
    strings_free(a->external_returns, a->external_return_count);
    a->external_returns = NULL;
    a->external_return_count = 0;
    strings_free(a->external_module_bases, a->external_module_base_count);
    a->external_module_bases = NULL;
    a->external_module_base_count = 0;
    strings_free(a->external_property_facts, a->external_property_fact_count);
    a->external_property_facts = NULL;
    a->external_property_fact_count = 0;
}

static const char module_fact_prefix[] = "module:";
static const char returns_fact_prefix[] = "returns:";
static const char args_fact_prefix[] = "args:";
static const char entry_fact_prefix[] = "entry:";

static bool is_property_fact(const char *fact) {
    return strncmp(fact, "property:", 9) == 0 || strncmp(fact, "stores:", 7) == 0;
}

static bool same_strings(char *const *a, size_t na, char *const *b, size_t nb) {
    if (na != nb)
        return false;
    for (size_t i = 0; i < na; i++)
        if (strcmp(a[i], b[i]) != 0)
            return false;
    return true;
}

/* Takes the facts that start with fact_prefix out of keys (count of them) into *out (prefix
 * cut, in their sorted order, *out_count of them), moving the other keys up: returns how many
 * keys are left, or -1 on OOM. */
static ptrdiff_t take_facts(const char *fact_prefix, const char **keys, size_t count, char ***out,
                            size_t *out_count) {
    const size_t prefix = strlen(fact_prefix);
    size_t args = 0;
    for (size_t i = 0; i < count; i++)
        args += strncmp(keys[i], fact_prefix, prefix) == 0;
    char **facts = args ? calloc(args, sizeof *facts) : NULL;
    if (args && !facts)
        return -1;
    size_t kept = 0, n = 0;
    for (size_t i = 0; i < count; i++) {
        if (strncmp(keys[i], fact_prefix, prefix) != 0) {
            keys[kept++] = keys[i];
            continue;
        }
        if (!(facts[n] = strdup(keys[i] + prefix))) {
            strings_free(facts, n);
            return -1;
        }
        n++;
    }
    *out = facts;
    *out_count = n;
    return (ptrdiff_t)kept;
}

static int set_external_keys(gm_analyzer *analyzer, const char *const *keys, size_t count);

int gm_analyzer_set_external_roots(gm_analyzer *analyzer, const char *const *all_keys,
                                   size_t all_count) {
    const char **keys = all_count ? malloc(all_count * sizeof *keys) : NULL;
    if (all_count && !keys)
        return -1;
    if (all_count)
        memcpy(keys, all_keys, all_count * sizeof *keys);
    char **args = NULL, **entries = NULL;
    size_t arg_count = 0, entry_count = 0;
    ptrdiff_t left = take_facts(args_fact_prefix, keys, all_count, &args, &arg_count);
    if (left >= 0)
        left = take_facts(entry_fact_prefix, keys, (size_t)left, &entries, &entry_count);
    const char **entry_names = entry_count ? calloc(entry_count, sizeof *entry_names) : NULL;
    if (entry_count && !entry_names)
        left = -1;
    for (size_t i = 0; left >= 0 && i < entry_count; i++) {
        char *eq = strchr(entries[i], '='); /* keys have no '=': what follows is the entry */
        if (eq)
            *eq = '\0';
        entry_names[i] = eq ? eq + 1 : entries[i];
    }
    /* which parameters take tensors is read by every statement: a change analyses all again */
    bool args_changed =
        left >= 0 && !same_strings(args, arg_count, analyzer->external_args,
                                   analyzer->external_arg_count);
    int rc = left < 0 ? -1 : set_external_keys(analyzer, keys, (size_t)left);
    free(keys);
    if (rc != 0) {
        strings_free(args, arg_count);
        strings_free(entries, entry_count);
        free(entry_names);
        return -1;
    }
    strings_free(analyzer->external_entries, analyzer->external_entry_count);
    free(analyzer->entry_names);
    analyzer->external_entries = entries;
    analyzer->entry_names = entry_names;
    analyzer->external_entry_count = entry_count;
    if (args_changed)
        analyzer->have_state = false;
    strings_free(analyzer->external_args, analyzer->external_arg_count);
    analyzer->external_args = args;
    analyzer->external_arg_count = arg_count;
    return 0;
}

static int set_external_keys(gm_analyzer *analyzer, const char *const *keys, size_t count) {
    const size_t prefix = sizeof module_fact_prefix - 1;
    const size_t returns_prefix = sizeof returns_fact_prefix - 1;
    size_t constants = 0, bases = 0, properties = 0, returns = 0;
    for (size_t i = 0; i < count; i++) {
        if (strncmp(keys[i], module_fact_prefix, prefix) == 0)
            bases++;
        else if (strncmp(keys[i], returns_fact_prefix, returns_prefix) == 0)
            returns++;
        else if (is_property_fact(keys[i]))
            properties++;
        else if (strchr(keys[i], '='))
            constants++;
    }
    size_t roots_count = count - constants - bases - properties - returns;
    char **roots = roots_count ? calloc(roots_count, sizeof *roots) : NULL;
    char **facts = constants ? calloc(constants, sizeof *facts) : NULL;
    char **module_bases = bases ? calloc(bases, sizeof *module_bases) : NULL;
    char **property_facts = properties ? calloc(properties, sizeof *property_facts) : NULL;
    char **return_facts = returns ? calloc(returns, sizeof *return_facts) : NULL;
    if ((roots_count && !roots) || (constants && !facts) || (bases && !module_bases) ||
        (properties && !property_facts) || (returns && !return_facts)) {
        free(roots);
        free(facts);
        free(module_bases);
        free(property_facts);
        free(return_facts);
        return -1;
    }
    size_t r = 0, f = 0, m = 0, p = 0, t = 0;
    for (size_t i = 0; i < count; i++) {
        bool module_base = strncmp(keys[i], module_fact_prefix, prefix) == 0;
        bool returns_fact = strncmp(keys[i], returns_fact_prefix, returns_prefix) == 0;
        bool property = !module_base && !returns_fact && is_property_fact(keys[i]);
        char *copy = strdup(module_base    ? keys[i] + prefix
                            : returns_fact ? keys[i] + returns_prefix
                                           : keys[i]);
        if (!copy) {
            strings_free(roots, r);
            strings_free(facts, f);
            strings_free(module_bases, m);
            strings_free(property_facts, p);
            strings_free(return_facts, t);
            return -1;
        }
        char *eq = module_base || property || returns_fact ? NULL : strchr(copy, '=');
        if (returns_fact) {
            char *colon = strchr(copy, ':'); /* "name:arity:tensors": names have no ':' */
            if (colon)
                *colon = '\0';
            return_facts[t++] = copy;
        } else if (property)
            property_facts[p++] = copy;
        else if (module_base)
            module_bases[m++] = copy;
        else if (eq) {
            *eq = '\0'; /* "name\0" then the value's digit: the name is what lookups use */
            facts[f++] = copy;
        }
        else
            roots[r++] = copy;
    }
    /* Which classes are Modules is part of the symbols every statement's analysis reads: a
     * change rebuilds them and analyses everything again. */
    if (!same_strings(module_bases, m, analyzer->external_module_bases,
                      analyzer->external_module_base_count))
        analyzer->have_state = false;
    external_keys_clear(analyzer);
    analyzer->external_keys = roots;
    analyzer->external_count = r;
    analyzer->external_constants = facts;
    analyzer->external_constant_count = f;
    analyzer->external_returns = return_facts;
    analyzer->external_return_count = t;
    analyzer->external_module_bases = module_bases;
    analyzer->external_module_base_count = m;
    analyzer->external_property_facts = property_facts;
    analyzer->external_property_fact_count = p;
    analyzer->symbols.module_bases = (const char *const *)module_bases;
    analyzer->symbols.module_base_count = m;
    return 0;
}

static int constant_order(const void *a, const void *b) {
    return strcmp(((const gm_function_fact *)a)->name, ((const gm_function_fact *)b)->name);
}

/* The run's known functions, those whose calls fold to a compile-time constant or return
 * declared tensors: the imported ones (external_constants, whose '=' is cut to end the name;
 * external_returns) and the module-level functions of this module's statements. */
static int collect_constants(gm_analyzer *a, size_t nchildren) {
    a->constant_count = 0;
    size_t need = a->external_constant_count + a->external_return_count;
    for (size_t i = 0; i < nchildren; i++)
        if (a->info[i].statement)
            need += a->info[i].calls.node_count;
    if (need > a->constant_capacity) {
        gm_function_fact *items = realloc(a->constants, need * sizeof *items);
        if (!items)
            return -1;
        a->constants = items;
        a->constant_capacity = need;
    }
    for (size_t i = 0; i < a->external_constant_count; i++) {
        const char *name = a->external_constants[i];
        a->constants[a->constant_count++] =
            (gm_function_fact){name, name[strlen(name) + 1] == '1', {0, 0}};
    }
    for (size_t i = 0; i < a->external_return_count; i++) {
        const char *name = a->external_returns[i];
        gm_return_kinds kinds;
        if (gm_return_kinds_parse(name + strlen(name) + 1, &kinds))
            a->constants[a->constant_count++] = (gm_function_fact){name, -1, kinds};
    }
    for (size_t i = 0; i < nchildren; i++) {
        const gm_call_part *part = &a->info[i].calls;
        if (!a->info[i].statement)
            continue;
        for (uint32_t k = 0; k < part->node_count; k++)
            if (part->nodes[k].returns_constant >= 0 || part->nodes[k].returns.tensors)
                a->constants[a->constant_count++] =
                    (gm_function_fact){part->nodes[k].key.key, part->nodes[k].returns_constant,
                                       part->nodes[k].returns};
    }
    if (a->constant_count > 1)
        qsort(a->constants, a->constant_count, sizeof *a->constants, constant_order);
    uint64_t digest = GM_HASH_INIT;
    for (size_t i = 0; i < a->constant_count; i++) {
        digest = gm_hash_bytes(digest, a->constants[i].name, strlen(a->constants[i].name) + 1);
        digest = gm_hash_bytes(digest, &a->constants[i].constant, sizeof a->constants[i].constant);
        digest = gm_hash_bytes(digest, &a->constants[i].returns, sizeof a->constants[i].returns);
    }
    a->constants_digest = digest;
    return 0;
}

static void good_facts_free(gm_analyzer *a) {
    for (size_t i = 0; i < a->good_fact_count; i++)
        free((char *)a->good_facts[i].name);
    free(a->good_facts);
    a->good_facts = NULL;
    a->good_fact_count = 0;
    a->good_facts_valid = false;
}

/* Keeps owned copies of this run's table of known functions as the last good one. */
static int remember_good_facts(gm_analyzer *a) {
    good_facts_free(a);
    if (a->constant_count > 0) {
        a->good_facts = calloc(a->constant_count, sizeof *a->good_facts);
        if (!a->good_facts)
            return -1;
    }
    for (size_t i = 0; i < a->constant_count; i++) {
        a->good_facts[i] = a->constants[i];
        a->good_facts[i].name = strdup(a->constants[i].name);
        a->good_fact_count++;
        if (!a->good_facts[i].name)
            return -1;
    }
    a->good_facts_digest = a->constants_digest;
    a->good_facts_valid = true;
    return 0;
}

/* Makes the last good table this run's (its names borrowed from good_facts). */
static int use_good_facts(gm_analyzer *a) {
    if (a->good_fact_count > a->constant_capacity) {
        gm_function_fact *items = realloc(a->constants, a->good_fact_count * sizeof *items);
        if (!items)
            return -1;
        a->constants = items;
        a->constant_capacity = a->good_fact_count;
    }
    if (a->good_fact_count > 0)
        memcpy(a->constants, a->good_facts, a->good_fact_count * sizeof *a->constants);
    a->constant_count = a->good_fact_count;
    a->constants_digest = a->good_facts_digest;
    return 0;
}

gm_analyzer *gm_analyzer_new(void) {
    gm_analyzer *a = calloc(1, sizeof *a);
    if (!a)
        return NULL;
    if (gm_syntax_init(&a->syntax, gm_python_language()) != 0) {
        free(a);
        return NULL;
    }
    a->parallel_min_bytes = SIZE_MAX;
    gm_symbols_init(&a->symbols);
    gm_finding_list_init(&a->result);
    gm_finding_list_init(&a->unused_suppressions);
    return a;
}

void gm_analyzer_free(gm_analyzer *analyzer) {
    if (!analyzer)
        return;
    entries_clear(&analyzer->entries);
    free(analyzer->entries.items);
    free(analyzer->spare.items);
    gm_symbols_free(&analyzer->symbols);
    free(analyzer->result.items); /* shallow: the members belong to the entries */
    gm_finding_free(&analyzer->syntax_finding);
    gm_finding_list_free(&analyzer->unused_suppressions);
    free(analyzer->hits);
    free(analyzer->jobs);
    free(analyzer->children);
    free(analyzer->info);
    free(analyzer->child_facts);
    gm_call_graph_free(&analyzer->graph);
    free(analyzer->parts);
    free(analyzer->part_digests);
    external_keys_clear(analyzer);
    strings_free(analyzer->external_args, analyzer->external_arg_count);
    strings_free(analyzer->external_entries, analyzer->external_entry_count);
    free(analyzer->entry_names);
    free(analyzer->constants);
    good_facts_free(analyzer);
    gm_module_index_free(&analyzer->module_index);
    gm_index_orders_free(&analyzer->index_orders);
    gm_breaking_properties_free(&analyzer->breaking_properties);
    free(analyzer->getter_breaks);
    gm_compile_site_list_free(&analyzer->sites);
    free(analyzer);
}

void gm_analyzer_set_parallel(gm_analyzer *analyzer, gm_each_runner *run_each,
                              void *runner_context) {
    analyzer->run_each = run_each;
    analyzer->runner_context = runner_context;
}

void gm_analyzer_set_parallel_min_bytes(gm_analyzer *analyzer, size_t min_bytes) {
    analyzer->parallel_min_bytes = min_bytes;
}

void gm_analyzer_reset(gm_analyzer *analyzer) {
    for (size_t i = 0; i < analyzer->entries.count; i++)
        analyzer->entries.items[i].dead = true;
    analyzer->have_state = false;
    gm_call_graph_invalidate(&analyzer->graph);
}

void gm_analyzer_note_edit(gm_analyzer *analyzer, const TSInputEdit *edit) {
    int64_t bytes = (int64_t)edit->new_end_byte - (int64_t)edit->old_end_byte;
    int64_t rows = (int64_t)edit->new_end_point.row - (int64_t)edit->old_end_point.row;
    for (size_t i = 0; i < analyzer->entries.count; i++) {
        cache_entry *e = &analyzer->entries.items[i];
        if (e->dead || edit->start_byte > e->dep_end)
            continue; /* before the edit: unchanged */
        if (edit->old_end_byte < e->dep_start) {
            /* After the edit, which ends on an earlier line: only bytes and rows move. */
            e->start_byte = (uint32_t)(e->start_byte + bytes);
            e->end_byte = (uint32_t)(e->end_byte + bytes);
            e->dep_start = (uint32_t)(e->dep_start + bytes);
            e->dep_end = (uint32_t)(e->dep_end + bytes);
            e->start_row = (uint32_t)(e->start_row + rows);
            e->pending_bytes += bytes;
            e->pending_rows += rows;
        } else {
            e->dead = true; /* findings may be in the last result: freed at the next run */
        }
    }
}

static int entries_reserve(entry_list *list, size_t n) {
    if (n <= list->capacity)
        return 0;
    size_t cap = list->capacity ? list->capacity : 16;
    while (cap < n)
        cap *= 2;
    cache_entry *items = realloc(list->items, cap * sizeof *items);
    if (!items)
        return -1;
    list->items = items;
    list->capacity = cap;
    return 0;
}

static int collect_children(gm_analyzer *a, TSNode root, size_t *count) {
    size_t n = 0;
    TSTreeCursor cursor = ts_tree_cursor_new(root);
    if (ts_tree_cursor_goto_first_child(&cursor)) {
        do {
            if (n == a->children_capacity) {
                size_t cap = a->children_capacity ? a->children_capacity * 2 : 256;
                TSNode *items = realloc(a->children, cap * sizeof *items);
                if (items)
                    a->children = items;
                child_info *info = items ? realloc(a->info, cap * sizeof *info) : NULL;
                if (info)
                    a->info = info;
                gm_index_facts *facts =
                    info ? realloc(a->child_facts, cap * sizeof *facts) : NULL;
                if (!facts) {
                    ts_tree_cursor_delete(&cursor);
                    return -1;
                }
                a->child_facts = facts;
                a->children_capacity = cap;
            }
            a->children[n++] = ts_tree_cursor_current_node(&cursor);
        } while (ts_tree_cursor_goto_next_sibling(&cursor));
    }
    ts_tree_cursor_delete(&cursor);
    *count = n;
    return 0;
}

/* A top-level comment alone on its line may carry `# graphmend: ignore-file[...]`. */
static void note_file_ignore(const gm_syntax *syn, const char *text, TSNode comment,
                             gm_rule_set *ignored) {
    (void)syn;
    uint32_t start = ts_node_start_byte(comment);
    uint32_t col = ts_node_start_point(comment).column;
    for (uint32_t p = start - col; p < start; p++)
        if (text[p] != ' ' && text[p] != '\t')
            return;
    gm_slice s = gm_node_slice(comment, text);
    gm_parse_ignore_comment(s.ptr, s.len, true, ignored);
}

static int analyze_region(void *payload, const gm_region_site *site) {
    gm_stmt_ctx *stmt = payload;
    uint32_t via = stmt->entry_via && site->calls && site->node < site->calls->node_count
                       ? stmt->entry_via[site->node]
                       : 0;
    if (via) {
        gm_region_site entered = *site;
        entered.entry = stmt->entry_names[via - 1];
        gm_region_analyze(stmt, &entered);
    } else {
        gm_region_analyze(stmt, site);
    }
    return stmt->oom ? -1 : 0;
}

/* What the rules of one statement (top, followed by next) read of the analyzer's state; their
 * findings go to out. */
static gm_stmt_ctx statement_context(gm_analyzer *a, const gm_analysis_options *options,
                                     const char *text, uint32_t len, TSNode top, TSNode next,
                                     gm_finding_list *out) {
    return (gm_stmt_ctx){
        .syntax = &a->syntax,
        .symbols = &a->symbols,
        .options = options,
        .text = text,
        .len = len,
        .top = top,
        .next = next,
        .out = out,
        .constants = a->constants,
        .constant_count = a->constant_count,
        .module_index = &a->module_index,
        .module_scan = &a->module_scan,
        .breaking_properties = &a->breaking_properties,
        .passed_args = (const char *const *)a->external_args,
        .passed_arg_count = a->external_arg_count,
    };
}

/* Keeps with entry which of its findings predict a break in a getter's body, and the getter:
 * asked once here, not over the whole file on every run. Returns 0, or -1 on OOM. */
static int note_getter_findings(gm_analyzer *a, cache_entry *entry, TSNode top, const char *text) {
    for (size_t i = 0; i < entry->count; i++) {
        const gm_finding *f = &entry->findings[i];
        if (!gm_breaking_properties_counts(f))
            continue;
        uint32_t byte = f->span.start_byte;
        bool inside = byte >= ts_node_start_byte(top) && byte < ts_node_end_byte(top);
        TSNode scope = inside ? top : ts_tree_root_node(top.tree);
        char key[sizeof entry->getters[0].key];
        if (!gm_breaking_property_getter_key(&a->syntax, text, scope, byte, key, sizeof key))
            continue;
        struct getter_finding *grown =
            realloc(entry->getters, (entry->getter_count + 1) * sizeof *grown);
        if (!grown)
            return -1;
        entry->getters = grown;
        grown[entry->getter_count].finding = i;
        memcpy(grown[entry->getter_count].key, key, sizeof key);
        entry->getter_count++;
    }
    return 0;
}

/* What other modules learn of a module-level function of top that no annotation types: a
 * tensor on every return by its body (call_parts.h's inferred_returns). */
static void infer_function_returns(gm_stmt_ctx *st, TSNode top, gm_call_part *calls) {
    const gm_syntax *syn = st->syntax;
    TSNode def = gm_is(top, syn->sym.decorated_definition) ? gm_child(top, syn->field.definition)
                                                           : top;
    TSNode name = gm_is(def, syn->sym.function_definition) ? gm_child(def, syn->field.name)
                                                           : (TSNode){0};
    if (!calls || ts_node_is_null(name))
        return;
    gm_slice spelled = gm_node_slice(name, st->text);
    for (uint32_t k = 0; k < calls->node_count; k++) {
        gm_call_node *node = &calls->nodes[k];
        node->inferred_returns = (gm_return_kinds){0, 0};
        if (node->kind != GM_CALL_FUNCTION || node->returns.tensors ||
            !gm_slice_is(spelled, node->key.key))
            continue;
        if (gm_kinds_function_returns_tensor(st, def))
            node->inferred_returns = (gm_return_kinds){0, 1};
    }
}

static int analyze_statement(gm_analyzer *a, TSNode top, TSNode next, const char *text,
                             uint32_t len, const uint8_t *reach, const uint32_t *via,
                             gm_call_part *calls, cache_entry *entry) {
    gm_finding_list out;
    gm_finding_list_init(&out);
    gm_stmt_ctx st = statement_context(a, &a->file_options, text, len, top, next, &out);
    st.entry_via = via;
    st.entry_names = a->entry_names;
    gm_compiled_regions_each_with(&a->symbols, &a->syntax, text, &a->file_options, top, reach,
                                  calls, analyze_region, &st);
    infer_function_returns(&st, top, calls);
    memset(entry, 0, sizeof *entry);
    entry->class_deps = st.class_deps;
    entry->function_deps = st.function_deps;
    entry->start_byte = ts_node_start_byte(top);
    entry->end_byte = ts_node_end_byte(top);
    entry->start_row = ts_node_start_point(top).row;
    entry->dep_start = entry->start_byte - ts_node_start_point(top).column;
    entry->dep_end = gm_line_end(text, len, entry->end_byte);
    entry->symbol = ts_node_symbol(top);
    entry->findings = out.items;
    entry->count = out.count;
    entry->passes = st.passes; /* taken over */
    entry->pass_count = st.pass_count;
    st.passes = NULL;
    st.pass_count = 0;
    gm_stmt_release(&st);
    if (st.oom)
        return -1;
    return note_getter_findings(a, entry, top, text);
}

static bool entry_matches(const cache_entry *e, TSNode child, TSSymbol symbol) {
    return !e->dead && e->symbol == symbol && e->start_byte == ts_node_start_byte(child) &&
           e->end_byte == ts_node_end_byte(child) &&
           e->start_row == ts_node_start_point(child).row && !ts_node_has_error(child);
}

static int result_push(gm_finding_list *list, const gm_finding *f) {
    if (list->count == list->capacity) {
        size_t cap = list->capacity ? list->capacity * 2 : 64;
        gm_finding *items = realloc(list->items, cap * sizeof *items);
        if (!items)
            return -1;
        list->items = items;
        list->capacity = cap;
    }
    list->items[list->count++] = *f;
    return 0;
}

static int note_hit(gm_analyzer *a, const gm_finding *f) {
    if (a->hit_count == a->hit_capacity) {
        size_t cap = a->hit_capacity ? a->hit_capacity * 2 : 16;
        gm_suppression_hit *hits = realloc(a->hits, cap * sizeof *hits);
        if (!hits)
            return -1;
        a->hits = hits;
        a->hit_capacity = cap;
    }
    a->hits[a->hit_count++] =
        (gm_suppression_hit){f->rule, f->span.start_byte - f->span.start.column};
    return 0;
}

/* Puts f into the result after the findings that start before or at it (the result is shallow:
 * f stays owned by the caller). */
static int result_insert(gm_analyzer *a, const gm_finding *f) {
    if (result_push(&a->result, f) != 0)
        return -1;
    gm_finding *items = a->result.items;
    size_t at = a->result.count - 1;
    while (at > 0 && items[at - 1].span.start_byte > f->span.start_byte) {
        items[at] = items[at - 1];
        at--;
    }
    items[at] = *f;
    return 0;
}

static int getter_break_push(gm_analyzer *a, const char *key, const gm_finding *f) {
    if (a->getter_break_count == a->getter_break_capacity) {
        size_t cap = a->getter_break_capacity ? a->getter_break_capacity * 2 : 16;
        gm_getter_break *items = realloc(a->getter_breaks, cap * sizeof *items);
        if (!items)
            return -1;
        a->getter_breaks = items;
        a->getter_break_capacity = cap;
    }
    a->getter_breaks[a->getter_break_count++] =
        (gm_getter_break){key, f->rule, f->span.start.row};
    return 0;
}

/* GM901 when selected: the line suppressions that hid nothing in this run. */
static int add_unused_suppressions(gm_analyzer *a, TSNode root, const char *text, uint32_t len,
                                   const gm_analysis_options *options,
                                   const gm_rule_set *ignored) {
    const gm_rule *rule = gm_rule_by_id("GM901");
    if (!rule || !gm_analysis_rule_enabled(options, rule) || gm_rule_set_has(ignored, rule))
        return 0;
    size_t count;
    const gm_rule *rules = gm_rules(&count);
    gm_rule_set reported = {0};
    for (size_t i = 0; i < count && i < 64 * GM_RULE_SET_WORDS; i++)
        if (gm_analysis_rule_enabled(options, &rules[i]) && !gm_rule_set_has(ignored, &rules[i]))
            reported.bits[i / 64] |= (uint64_t)1 << (i % 64);
    if (gm_unused_suppressions(&a->syntax, root, text, len, a->hits, a->hit_count, &reported,
                               &a->unused_suppressions) != 0)
        return -1;
    for (size_t i = 0; i < a->unused_suppressions.count; i++)
        if (result_insert(a, &a->unused_suppressions.items[i]) != 0)
            return -1;
    return 0;
}

/* The GM001 finding, placed after the findings that start before or at it. */
static int add_syntax_error(gm_analyzer *a, TSNode root, const char *text, uint32_t len,
                            const gm_rule_set *ignored) {
    TSNode error;
    if (!gm_first_syntax_error(root, &error))
        return 0;
    gm_finding f;
    if (gm_syntax_error_finding(error, text, len, &f) != 0)
        return -1;
    TSNode scopes[1] = {root};
    if (gm_line_suppresses(&a->syntax, text, len, f.span.start_byte, f.span.start.column, scopes,
                           1, f.rule)) {
        int rc = note_hit(a, &f);
        gm_finding_free(&f);
        return rc;
    }
    if (gm_rule_set_has(ignored, f.rule) || !gm_analysis_rule_enabled(&a->file_options, f.rule)) {
        gm_finding_free(&f);
        return 0;
    }
    if (result_push(&a->result, &f) != 0) {
        gm_finding_free(&f);
        return -1;
    }
    a->syntax_finding = f;
    gm_finding *items = a->result.items;
    size_t at = a->result.count - 1;
    while (at > 0 && items[at - 1].span.start_byte > f.span.start_byte) {
        items[at] = items[at - 1];
        at--;
    }
    items[at] = f;
    return 0;
}

/* A cheap 64-bit combine: runs over every statement and call node on every run. */
static uint64_t mix(uint64_t digest, uint64_t value) {
    digest ^= value + 0x9e3779b97f4a7c15ull + (digest << 6) + (digest >> 2);
    return digest * 0xff51afd7ed558ccdull;
}

/* ---- the call graph ------------------------------------------------------------------ */

/* What compiled code reaches over all statements' parts, and each statement's membership (a
 * hash of its reach flags that differ from what its own decorators say; 0 when none do). */
static int graph_run(gm_analyzer *a, size_t nchildren) {
    size_t part_count = 0, total = 0;
    if (nchildren > a->parts_capacity) {
        const gm_call_part **parts = realloc(a->parts, nchildren * sizeof *parts);
        if (parts)
            a->parts = parts;
        uint64_t *digests = parts ? realloc(a->part_digests, nchildren * sizeof *digests) : NULL;
        if (!digests)
            return -1;
        a->part_digests = digests;
        a->parts_capacity = nchildren;
    }
    for (size_t i = 0; i < nchildren; i++) {
        a->info[i].node_offset = total;
        a->info[i].membership = 0;
        if (a->info[i].statement) {
            a->part_digests[part_count] = a->info[i].part_digest;
            a->parts[part_count++] = &a->info[i].calls;
            total += a->info[i].calls.node_count;
        }
    }
    if (gm_call_graph_run(&a->graph, a->parts, part_count, a->part_digests, &a->symbols,
                          a->fingerprint,
                          (const char *const *)a->external_keys, a->external_count,
                          (const char *const *)a->external_entries,
                          a->external_entry_count) != 0)
        return -1;
    for (size_t i = 0; i < nchildren; i++) {
        child_info *info = &a->info[i];
        if (!info->statement)
            continue;
        for (uint32_t k = 0; k < info->calls.node_count; k++) {
            const gm_call_node *node = &info->calls.nodes[k];
            uint8_t flags = a->graph.flags[info->node_offset + k];
            uint8_t own = node->root && node->traceable ? GM_REACH_REACHED : 0;
            if (flags != own)
                info->membership =
                    mix(info->membership ? info->membership : GM_HASH_INIT, k * 8u + flags);
            uint32_t via = a->graph.via[info->node_offset + k];
            if (via) { /* the findings name the entry point */
                const char *entry = a->entry_names[via - 1];
                info->membership =
                    mix(info->membership, gm_hash_bytes(GM_HASH_INIT, entry, strlen(entry)));
            }
        }
    }
    return 0;
}

static void free_child_calls(gm_analyzer *a, size_t nchildren) {
    for (size_t i = 0; i < nchildren; i++) {
        gm_call_part_free(&a->info[i].calls);
        gm_index_facts_free(&a->child_facts[i]);
    }
}

/* The blank lines a setting line inserted at `at` needs after it: none before a blank line, two
 * before a top-level definition (PEP 8), else one. */
static unsigned blank_lines_after(const char *text, uint32_t len, uint32_t at) {
    if (at >= len || text[at] == '\n' || text[at] == '\r')
        return 0;
    static const char *const definitions[] = {"def ", "class ", "async def ", "@"};
    for (size_t i = 0; i < sizeof definitions / sizeof definitions[0]; i++) {
        size_t n = strlen(definitions[i]);
        if (len - at >= n && memcmp(text + at, definitions[i], n) == 0)
            return 2;
    }
    return 1;
}

/* Puts the setting line's edit at `at` with the blank lines the text there needs (the mend wrote
 * the line, or a block of lines such as a function and its setting, and one newline). Returns
 * -1 on OOM. */
static int place_setting_line(gm_text_edit *e, const char *text, uint32_t len, uint32_t at) {
    const char *r = e->replacement;
    size_t line = strlen(r);
    while (line > 0 && (r[line - 1] == '\n' || r[line - 1] == '\r'))
        line--;
    const char *newline = gm_line_break_at(r, (uint32_t)strlen(r), (uint32_t)line);
    unsigned blanks = blank_lines_after(text, len, at);
    size_t nl = strlen(newline), want = line + nl * (1 + blanks);
    e->start_byte = e->end_byte = at;
    if (strlen(r) == want && strncmp(r + line, newline, nl) == 0 &&
        (blanks == 0 || strncmp(r + line + nl, newline, nl) == 0) &&
        (blanks < 2 || strncmp(r + line + 2 * nl, newline, nl) == 0))
        return 0;
    char *placed = malloc(want + 1);
    if (!placed)
        return -1;
    memcpy(placed, r, line);
    for (unsigned i = 0; i <= blanks; i++)
        memcpy(placed + line + i * nl, newline, nl);
    placed[want] = '\0';
    free(e->replacement);
    e->replacement = placed;
    return 0;
}

/* Setting lines of mends (gm_text_edit.after_imports) go after the module's imports, which the
 * statement that made the mend cannot keep track of across edits elsewhere: placed here, on every
 * run, in the findings the entries own (an edit that moves the imports, or adds a definition
 * before them, changes the file's fingerprint and every statement is analysed again). */
static int place_after_imports(gm_analyzer *a, TSNode root, const char *text, uint32_t len) {
    uint32_t at = UINT32_MAX;
    bool looked = false;
    for (size_t i = 0; i < a->result.count; i++) {
        gm_finding *f = &a->result.items[i];
        for (size_t k = 0; k < f->fix_count; k++)
            for (size_t j = 0; j < f->fixes[k].edit_count; j++) {
                gm_text_edit *e = &f->fixes[k].edits[j];
                if (!e->after_imports)
                    continue;
                if (!looked) {
                    at = gm_module_head_end(&a->syntax, text, len, root);
                    looked = true;
                }
                if (at <= f->span.start_byte && place_setting_line(e, text, len, at) != 0)
                    return -1;
            }
    }
    return 0;
}

static bool is_import(const gm_syntax *syn, TSSymbol symbol) {
    return symbol == syn->sym.import_statement || symbol == syn->sym.import_from_statement;
}

/* Whether the statements that changed since the last run (the children that match no entry and
 * the entries that no child matched) are all import statements: then only what imports bind
 * changed file-wide, and only the statements that use a rebound name need analysing again. */
static bool only_imports_changed(const gm_analyzer *a, size_t nchildren) {
    const gm_syntax *syn = &a->syntax;
    const entry_list *old = &a->entries;
    size_t next_matched = 0;
    for (size_t i = 0; i < nchildren; i++) {
        const child_info *info = &a->info[i];
        if (!info->statement)
            continue;
        if (info->match < 0) {
            if (!is_import(syn, ts_node_symbol(a->children[i])))
                return false;
            continue;
        }
        /* The entries skipped between two matched ones are gone from the file. */
        for (size_t j = next_matched; j < (size_t)info->match; j++)
            if (!is_import(syn, old->items[j].symbol))
                return false;
        next_matched = (size_t)info->match + 1;
    }
    for (size_t j = next_matched; j < old->count; j++)
        if (!is_import(syn, old->items[j].symbol))
            return false;
    return true;
}

static bool same_text(const char *x, const char *y) {
    return x == y || (x && y && strcmp(x, y) == 0);
}

/* What the last import binding local to in symbols stands for (NULL: none binds it). */
static const char *bound_to(const gm_symbols *symbols, const char *local) {
    const char *canonical = NULL;
    for (size_t i = 0; i < symbols->import_count; i++)
        if (strcmp(symbols->imports[i].local, local) == 0)
            canonical = symbols->imports[i].canonical;
    return canonical;
}

/* Whether before and now star-import the same modules in the same order: the names such an
 * import binds are not known here, so a change of them is a change of every name. */
static bool same_star_imports(const gm_symbols *before, const gm_symbols *now) {
    size_t i = 0, k = 0;
    for (;;) {
        while (i < before->import_count && strcmp(before->imports[i].local, GM_STAR_IMPORT) != 0)
            i++;
        while (k < now->import_count && strcmp(now->imports[k].local, GM_STAR_IMPORT) != 0)
            k++;
        if (i == before->import_count || k == now->import_count)
            return i == before->import_count && k == now->import_count;
        if (strcmp(before->imports[i++].canonical, now->imports[k++].canonical) != 0)
            return false;
    }
}

/* Adds the names whose import binding differs between before and now to changed. Returns 1
 * when something besides import bindings differs (classes, torch's alias, print): then every
 * statement must be analysed again; 0, or -1 on OOM. */
static int rebound_names(const gm_symbols *before, const gm_symbols *now, gm_name_set *changed) {
    if (before->class_count != now->class_count || !same_text(before->torch_alias, now->torch_alias) ||
        before->module_binds_print != now->module_binds_print ||
        before->mentions_reorderable_logging != now->mentions_reorderable_logging ||
        before->sets_capture_scalar_outputs != now->sets_capture_scalar_outputs ||
        before->uses_gradient_checkpointing != now->uses_gradient_checkpointing ||
        before->logger_count != now->logger_count || !same_star_imports(before, now))
        return 1;
    for (size_t i = 0; i < now->class_count; i++) {
        const gm_class_symbol *x = &before->classes[i], *y = &now->classes[i];
        if (strcmp(x->name, y->name) != 0 || x->is_module != y->is_module ||
            x->base_count != y->base_count)
            return 1;
        for (size_t b = 0; b < x->base_count; b++)
            if (strcmp(x->bases[b], y->bases[b]) != 0)
                return 1;
    }
    const gm_symbols *both[2] = {before, now};
    for (int s = 0; s < 2; s++)
        for (size_t i = 0; i < both[s]->import_count; i++) {
            const char *local = both[s]->imports[i].local;
            if (!same_text(bound_to(before, local), bound_to(now, local)) &&
                gm_name_set_add(changed, (gm_slice){local, strlen(local)}) != 0)
                return -1;
        }
    /* A logger's meaning follows the import of its callee's head (logging.getLogger). */
    for (size_t i = 0; i < now->logger_count; i++) {
        const char *callee = now->loggers[i].canonical;
        if (!same_text(before->loggers[i].local, now->loggers[i].local) ||
            !same_text(before->loggers[i].canonical, callee))
            return 1;
        if (gm_name_set_has(changed, (gm_slice){callee, strcspn(callee, ".")}) &&
            gm_name_set_add(changed, (gm_slice){now->loggers[i].local,
                                                strlen(now->loggers[i].local)}) != 0)
            return -1;
    }
    return 0;
}

/* The module child that starts at byte (children are in file order), or -1. */
static ptrdiff_t child_at(const gm_analyzer *a, size_t nchildren, uint32_t byte) {
    size_t lo = 0, hi = nchildren;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        uint32_t start = ts_node_start_byte(a->children[mid]);
        if (start == byte)
            return (ptrdiff_t)mid;
        if (start < byte)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

/* Rebuilds the symbols after an edit of import statements only, and keeps the cached results of
 * the statements that mention no name whose binding changed. Returns 1 when that cannot be
 * told (every statement is then analysed again), 0 when done, -1 on OOM. */
static int rebind_imports(gm_analyzer *a, const char *text, size_t nchildren) {
    const gm_syntax *syn = &a->syntax;
    gm_symbols before = a->symbols;
    gm_symbols_init(&a->symbols);
    a->symbols.module_bases = (const char *const *)a->external_module_bases;
    a->symbols.module_base_count = a->external_module_base_count;
    int rc = 0;
    for (size_t i = 0; i < nchildren && rc == 0; i++) {
        uint64_t unused = GM_HASH_INIT;
        if (a->info[i].statement &&
            gm_symbols_scan_top(&a->symbols, syn, text, a->children[i], &unused) != 0)
            rc = -1;
    }
    if (rc == 0 && gm_symbols_finish(&a->symbols) != 0)
        rc = -1;
    gm_name_set changed = {0};
    if (rc == 0)
        rc = rebound_names(&before, &a->symbols, &changed);
    for (size_t n = 0; rc == 0 && n < changed.count; n++) {
        const TSNode *uses;
        uint32_t count = gm_module_index_mentions(&a->module_index, changed.items[n], &uses);
        if (a->module_index.oom) {
            rc = 1;
            break;
        }
        for (uint32_t k = 0; k < count; k++) {
            ptrdiff_t i = child_at(a, nchildren, ts_node_start_byte(uses[k]));
            if (i < 0) {
                rc = 1; /* cannot happen: the index holds the module's children */
                break;
            }
            a->info[i].match = -1;
        }
    }
    gm_name_set_free(&changed);
    gm_symbols_free(&before); /* after: changed borrows its names */
    return rc;
}

/* The gm_dependency_bit bits of the methods a statement defines and of their classes ("C.m":
 * C and m), from its call part. */
/* The gm_dependency_bit bits of the module-level functions a statement defines. */
static uint64_t defined_function_bits(const gm_call_part *calls) {
    uint64_t bits = 0;
    for (uint32_t n = 0; n < calls->node_count; n++) {
        const char *key = calls->nodes[n].key.key;
        if (key && !strchr(key, '.') && calls->nodes[n].kind == GM_CALL_FUNCTION)
            bits |= gm_dependency_bit(key, strlen(key));
    }
    return bits;
}

static uint64_t defined_bits(const gm_call_part *calls) {
    uint64_t bits = 0;
    for (uint32_t n = 0; n < calls->node_count; n++) {
        const char *key = calls->nodes[n].key.key;
        const char *dot = key ? strchr(key, '.') : NULL;
        if (!dot || calls->nodes[n].kind != GM_CALL_FUNCTION)
            continue;
        bits |= gm_dependency_bit(key, (size_t)(dot - key));
        bits |= gm_dependency_bit(dot + 1, strlen(dot + 1));
    }
    return bits;
}

/* Statements reused from the last run whose kinds read what a method of a class of another
 * statement returns (value_kinds/method_returns.c) are analysed again when a statement that
 * defines such a class or method is new, changed or gone. Returns 0, or -1 on OOM. */
static int invalidate_class_dependents(gm_analyzer *a, const entry_list *old, size_t nchildren) {
    bool any = false;
    for (size_t j = 0; j < old->count && !any; j++)
        any = old->items[j].class_deps != 0 || old->items[j].function_deps != 0;
    if (!any)
        return 0;
    bool *kept = calloc(old->count + 1, sizeof *kept);
    if (!kept)
        return -1;
    uint64_t changed = 0, changed_functions = 0;
    for (size_t i = 0; i < nchildren; i++) {
        if (!a->info[i].statement)
            continue;
        if (a->info[i].match >= 0) {
            kept[a->info[i].match] = true;
        } else {
            changed |= defined_bits(&a->info[i].calls);
            changed_functions |= defined_function_bits(&a->info[i].calls);
        }
    }
    for (size_t j = 0; j < old->count; j++)
        if (!kept[j]) {
            changed |= old->items[j].defines;
            changed_functions |= old->items[j].function_defines;
        }
    free(kept);
    for (size_t i = 0; (changed || changed_functions) && i < nchildren; i++) {
        const cache_entry *e = a->info[i].match >= 0 ? &old->items[a->info[i].match] : NULL;
        if (e && ((e->class_deps & changed) || (e->function_deps & changed_functions)))
            a->info[i].match = -1;
    }
    return 0;
}

static uint64_t text_digest(uint64_t digest, const char *s) {
    return s ? gm_hash_bytes(digest, s, strlen(s) + 1) : mix(digest, 0);
}

/* A name's bit in a 64-bit Bloom filter. */
static uint64_t name_bit(const char *name) {
    return name ? 1ull << (text_digest(GM_HASH_INIT, name) % 64) : 0;
}

/* What the compile sites read of a part (module_summary.c's add_target): its functions' keys
 * (a target naming one is compiled here, not imported) and its compile targets; not the calls,
 * which most keystrokes change. Its instance bindings count only where a target names their
 * variable (gm_call_graph_target_class): gm_analyzer_compile_sites_digest mixes those in, found
 * through *instance_bits, with where the targets are, as they move with edits before them. */
static uint64_t part_sites_digest(const gm_call_part *part, uint64_t *instance_bits) {
    uint64_t digest = mix(GM_HASH_INIT, part->node_count);
    for (uint32_t k = 0; k < part->node_count; k++)
        digest = mix(digest, part->nodes[k].key.hash);
    for (uint32_t t = 0; t < part->target_count; t++) {
        const gm_compile_target *target = &part->targets[t];
        digest = text_digest(text_digest(digest, target->name), target->member);
        digest = mix(digest, (uint64_t)target->module_compile << 1 | target->fullgraph);
    }
    *instance_bits = 0;
    for (uint32_t b = 0; b < part->instance_count; b++)
        *instance_bits |= name_bit(part->instances[b].var);
    return digest;
}

/* What the jobs of one run's pass 2 share. */
typedef struct {
    gm_analyzer *analyzer;
    entry_list *fresh;
    const char *text;
    uint32_t len;
    size_t nchildren;
} job_batch;

/* Analyses the statement of job number index into its slot, and moves its call part there. */
static void analyze_job(void *context, size_t index) {
    job_batch *batch = context;
    gm_analyzer *a = batch->analyzer;
    statement_job *job = &a->jobs[index];
    size_t i = job->child;
    child_info *info = &a->info[i];
    cache_entry *slot = &batch->fresh->items[job->slot];
    TSNode next = i + 1 < batch->nchildren ? a->children[i + 1] : (TSNode){0};
    const uint8_t *reach = info->calls.node_count ? &a->graph.flags[info->node_offset] : NULL;
    const uint32_t *via = info->calls.node_count ? &a->graph.via[info->node_offset] : NULL;
    job->rc = analyze_statement(a, a->children[i], next, batch->text, batch->len, reach, via,
                                &info->calls, slot);
    slot->defines = defined_bits(&info->calls);
    slot->function_defines = defined_function_bits(&info->calls);
    slot->contribution = info->contribution;
    slot->calls = info->calls;
    slot->membership = info->membership;
    slot->part_digest = info->part_digest;
    slot->sites_digest = info->sites_digest;
    slot->instance_bits = info->instance_bits;
    memset(&info->calls, 0, sizeof info->calls);
}

/* Whether job_count statements of bytes bytes, in a file of len bytes, are worth the runner's
 * threads (analyzer.h's thresholds). */
static bool worth_threads(const gm_analyzer *a, size_t job_count, size_t bytes, uint32_t len) {
    if (!a->run_each || job_count < 2)
        return false;
    if (a->parallel_min_bytes != SIZE_MAX)
        return bytes >= a->parallel_min_bytes;
    return bytes >= GM_ANALYZER_PARALLEL_MIN_BYTES &&
           bytes >= len / GM_ANALYZER_PARALLEL_FILE_SHARE;
}

/* Analyses the job_count statements of a->jobs: through the runner when they are worth it,
 * after building what they share (gm_stmt_prepare_shared), else in turn, stopping at the first
 * failure. Returns 0, or -1 when one ran out of memory. */
static int analyze_jobs(gm_analyzer *a, job_batch *batch, size_t job_count, size_t bytes) {
    if (worth_threads(a, job_count, bytes, batch->len)) {
        gm_finding_list none;
        gm_finding_list_init(&none);
        gm_stmt_ctx st = statement_context(a, &a->file_options, batch->text, batch->len,
                                           a->children[a->jobs[0].child], (TSNode){0}, &none);
        gm_stmt_prepare_shared(&st);
        a->stats.parallel = true;
        a->run_each(a->runner_context, job_count, analyze_job, batch);
        for (size_t k = 0; k < job_count; k++)
            if (a->jobs[k].rc != 0)
                return -1;
        return 0;
    }
    for (size_t k = 0; k < job_count; k++) {
        analyze_job(batch, k);
        if (a->jobs[k].rc != 0)
            return -1;
    }
    return 0;
}

static int run(gm_analyzer *a, TSNode root, const char *text, uint32_t len,
               const gm_analysis_options *options) {
    const gm_syntax *syn = &a->syntax;
    size_t nchildren;
    if (collect_children(a, root, &nchildren) != 0)
        return -1;
    gm_module_index_reset(&a->module_index, syn, text, root);
    gm_module_index_use_orders(&a->module_index, &a->index_orders);
    memset(&a->module_scan, 0, sizeof a->module_scan);
    memset(&a->stats, 0, sizeof a->stats);

    /* Pass 1, over the module's children only: match them with the surviving entries (both in
     * byte order), and compute the file-wide fingerprint from the cached parts of matched
     * statements and fresh parts of the others. Also collect file-level ignore comments. */
    entry_list *old = &a->entries;
    uint64_t fingerprint = GM_HASH_INIT;
    gm_rule_set ignored = {0};
    size_t j = 0;
    /* A first run (or new options) rebuilds the symbols whatever the fingerprint: this pass then
     * scans each statement once, into the symbols and the fingerprint together, instead of once
     * for each (the scan is 3% of a cold analysis). */
    bool fresh_symbols = !a->have_state || !gm_analysis_options_equal(options, &a->options);
    if (fresh_symbols) {
        a->have_state = false; /* the cached entries no longer match the symbols */
        gm_symbols_free(&a->symbols);
        a->symbols.module_bases = (const char *const *)a->external_module_bases;
        a->symbols.module_base_count = a->external_module_base_count;
    }
    for (size_t i = 0; i < nchildren; i++) {
        TSNode c = a->children[i];
        child_info *info = &a->info[i];
        TSSymbol symbol = ts_node_symbol(c);
        info->match = -1;
        info->contribution = GM_HASH_INIT;
        info->statement = false;
        memset(&info->calls, 0, sizeof info->calls);
        memset(&a->child_facts[i], 0, sizeof a->child_facts[i]);
        if (symbol == syn->sym.comment) {
            note_file_ignore(syn, text, c, &ignored);
            continue;
        }
        if (symbol == syn->sym.error || !ts_node_is_named(c))
            continue;
        info->statement = true;
        a->stats.statements++;
        uint32_t start = ts_node_start_byte(c);
        while (j < old->count && (old->items[j].dead || old->items[j].start_byte < start))
            j++;
        gm_symbols *scanned = fresh_symbols ? &a->symbols : NULL;
        if (j < old->count && entry_matches(&old->items[j], c, symbol)) {
            info->match = (ptrdiff_t)j;
            info->contribution = old->items[j].contribution;
            /* the same text: its facts for the module index stay true */
            a->child_facts[i] = old->items[j].index_facts;
            memset(&old->items[j].index_facts, 0, sizeof old->items[j].index_facts);
            j++;
            uint64_t unused = GM_HASH_INIT;
            if (scanned && gm_symbols_scan_top(scanned, syn, text, c, &unused) != 0) {
                free_child_calls(a, i + 1);
                return -1;
            }
        } else if (gm_symbols_scan_top(scanned, syn, text, c, &info->contribution) != 0 ||
                   gm_index_facts_of(syn, text, c, &a->child_facts[i]) != 0) {
            free_child_calls(a, i + 1);
            return -1;
        }
        if (info->contribution != GM_HASH_INIT)
            fingerprint = mix(fingerprint, info->contribution);
    }

    gm_module_index_use_facts(&a->module_index, a->children, a->child_facts, (uint32_t)nchildren);

    /* Only imports changed: rebind them, and analyse again what uses a rebound name. */
    bool recompute = fresh_symbols;
    if (!recompute && fingerprint != a->fingerprint && ts_node_has_error(root)) {
        /* The file does not parse (a bracket opened, a line half typed): error recovery
         * reshapes the statements around the error, which changes the file-wide facts, and
         * analysing everything again would take the findings of every statement the error does
         * not touch through facts that only the error changed. Until the file parses again its
         * facts stay those of the last text that did: the statements the edit touched are
         * analysed with them, the others keep their results, and when the text parses again
         * with the same facts (the error undone) only the statements around it are analysed. */
        a->stats.kept_last_good = true;
    } else if (!recompute && fingerprint != a->fingerprint) {
        int rebound = only_imports_changed(a, nchildren) ? rebind_imports(a, text, nchildren) : 1;
        if (rebound < 0) {
            free_child_calls(a, nchildren);
            return -1;
        }
        recompute = rebound != 0;
        a->fingerprint = fingerprint;
        a->stats.rebound_imports = rebound == 0;
    }
    /* Something other statements depend on changed: rebuild the symbols, reuse nothing. */
    if (recompute) {
        a->stats.recomputed_all = true;
        for (size_t i = 0; i < nchildren; i++)
            a->info[i].match = -1;
        if (!fresh_symbols) { /* else pass 1 scanned them */
            gm_symbols_free(&a->symbols);
            a->symbols.module_bases = (const char *const *)a->external_module_bases;
            a->symbols.module_base_count = a->external_module_base_count;
            for (size_t i = 0; i < nchildren; i++) {
                uint64_t unused = GM_HASH_INIT;
                if (a->info[i].statement &&
                    gm_symbols_scan_top(&a->symbols, syn, text, a->children[i], &unused) != 0) {
                    free_child_calls(a, nchildren);
                    return -1;
                }
            }
        }
        if (gm_symbols_finish(&a->symbols) != 0) {
            free_child_calls(a, nchildren);
            return -1;
        }
        a->fingerprint = fingerprint;
        a->options = *options;
        a->file_options = *options;
        if (a->symbols.sets_capture_scalar_outputs)
            a->file_options.capture_scalar_outputs = true;
        a->have_state = true;
    }

    /* The call graph: each statement's part (cached, or built now), then what compiled code
     * reaches. A statement whose reached functions changed is analysed again. Parts are built
     * with compile targets when the file names compile anywhere, and built again when that
     * changes. */
    bool with_targets = gm_text_may_name_compile(text, len);
    for (size_t i = 0; i < nchildren; i++) {
        child_info *info = &a->info[i];
        if (!info->statement)
            continue;
        if (info->match >= 0 && old->items[info->match].calls.targets_collected == with_targets) {
            cache_entry *e = &old->items[info->match];
            info->calls = e->calls;
            info->part_digest = e->part_digest;
            info->sites_digest = e->sites_digest;
            info->instance_bits = e->instance_bits;
            memset(&e->calls, 0, sizeof e->calls);
            /* the compile calls move with the statement, as its findings do below */
            for (uint32_t t = 0; t < info->calls.target_count; t++) {
                gm_compile_target *target = &info->calls.targets[t];
                target->start_byte = (uint32_t)((int64_t)target->start_byte + e->pending_bytes);
                target->end_byte = (uint32_t)((int64_t)target->end_byte + e->pending_bytes);
                target->start_row = (uint32_t)((int64_t)target->start_row + e->pending_rows);
                target->end_row = (uint32_t)((int64_t)target->end_row + e->pending_rows);
            }
        } else if (gm_call_part_build(&a->symbols, syn, text, options, a->children[i],
                                      with_targets, &info->calls) != 0) {
            free_child_calls(a, nchildren);
            return -1;
        } else {
            info->part_digest = gm_call_graph_part_digest(&info->calls);
            info->sites_digest = part_sites_digest(&info->calls, &info->instance_bits);
        }
    }
    uint64_t constants_before = a->constants_digest;
    if (collect_constants(a, nchildren) != 0) {
        free_child_calls(a, nchildren);
        return -1;
    }
    if (a->constants_digest != constants_before) {
        int rc = 0;
        /* As with the file-wide facts above: while the text does not parse, error recovery may
         * hide a function (and its constant or declared return) that every caller reads; the
         * table stays that of the last text that parsed, and the statements the edit touched
         * are analysed with it. */
        if (ts_node_has_error(root) && !recompute && a->good_facts_valid &&
            a->good_facts_digest == constants_before)
            rc = use_good_facts(a);
        else if (!ts_node_has_error(root))
            rc = remember_good_facts(a);
        if (rc != 0) {
            free_child_calls(a, nchildren);
            return -1;
        }
    }
    if (graph_run(a, nchildren) != 0) {
        free_child_calls(a, nchildren);
        return -1;
    }
    if (a->constants_digest != constants_before ||
        a->breaking_properties.digest != a->breaking_properties_used) {
        for (size_t i = 0; i < nchildren; i++)
            a->info[i].match = -1; /* a call anywhere may fold differently now */
        a->breaking_properties_used = a->breaking_properties.digest;
    }
    for (size_t i = 0; i < nchildren; i++) {
        child_info *info = &a->info[i];
        if (info->match >= 0 && old->items[info->match].membership != info->membership)
            info->match = -1;
    }
    if (invalidate_class_dependents(a, old, nchildren) != 0) {
        free_child_calls(a, nchildren);
        return -1;
    }

    /* Pass 2: the new entry list, moving reused entries over and analysing the rest. */
    entry_list *fresh = &a->spare;
    fresh->count = 0;
    if (entries_reserve(fresh, a->stats.statements) != 0) {
        free_child_calls(a, nchildren);
        return -1;
    }
    if (a->stats.statements > a->job_capacity) {
        statement_job *jobs = realloc(a->jobs, a->stats.statements * sizeof *jobs);
        if (!jobs) {
            free_child_calls(a, nchildren);
            return -1;
        }
        a->jobs = jobs;
        a->job_capacity = a->stats.statements;
    }
    size_t job_count = 0, job_bytes = 0;
    for (size_t i = 0; i < nchildren; i++) {
        TSNode c = a->children[i];
        if (!a->info[i].statement)
            continue;
        cache_entry *slot = &fresh->items[fresh->count++];
        child_info *info = &a->info[i];
        if (info->match < 0) {
            /* analysed below; empty until then, so that a failure leaves entries to free */
            memset(slot, 0, sizeof *slot);
            a->jobs[job_count++] = (statement_job){i, fresh->count - 1, 0};
            job_bytes += ts_node_end_byte(c) - ts_node_start_byte(c);
        } else {
            cache_entry *e = &old->items[a->info[i].match];
            if (e->pending_bytes || e->pending_rows) {
                for (size_t k = 0; k < e->count; k++)
                    gm_finding_shift(&e->findings[k], e->pending_bytes, e->pending_rows);
                e->pending_bytes = e->pending_rows = 0;
            }
            *slot = *e;
            e->findings = NULL; /* moved */
            e->count = 0;
            e->getters = NULL;
            e->getter_count = 0;
            e->passes = NULL;
            e->pass_count = 0;
            slot->calls = info->calls;
            memset(&info->calls, 0, sizeof info->calls);
            a->stats.reused++;
        }
    }
    job_batch batch = {a, fresh, text, len, nchildren};
    int rc = analyze_jobs(a, &batch, job_count, job_bytes);
    /* The module index read the children's facts until now: they move into the entries. */
    gm_module_index_use_facts(&a->module_index, NULL, NULL, 0);
    for (size_t i = 0, k = 0; i < nchildren && k < fresh->count; i++) {
        if (!a->info[i].statement)
            continue;
        fresh->items[k++].index_facts = a->child_facts[i];
        memset(&a->child_facts[i], 0, sizeof a->child_facts[i]);
    }
    free_child_calls(a, nchildren);
    entries_clear(old); /* what was not moved: dropped, replaced or dead */
    entry_list built = *fresh;
    a->spare = *old;
    a->entries = built;
    fresh = &a->entries;
    if (rc != 0)
        return -1;

    bool any_ignored = ignored.all;
    for (size_t w = 0; w < GM_RULE_SET_WORDS; w++)
        any_ignored |= ignored.bits[w] != 0;
    a->getter_break_count = 0;
    for (size_t i = 0; i < fresh->count; i++) {
        const cache_entry *e = &fresh->items[i];
        size_t getter = 0;
        for (size_t k = 0; k < e->count; k++) {
            const gm_finding *f = &e->findings[k];
            while (getter < e->getter_count && e->getters[getter].finding < k)
                getter++;
            if (f->suppressed) {
                if (note_hit(a, f) != 0)
                    return -1;
                continue;
            }
            if ((any_ignored && gm_rule_set_has(&ignored, f->rule)) ||
                !gm_analysis_rule_enabled(&a->file_options, f->rule))
                continue;
            if (result_push(&a->result, f) != 0)
                return -1;
            if (getter < e->getter_count && e->getters[getter].finding == k &&
                getter_break_push(a, e->getters[getter].key, f) != 0)
                return -1;
        }
    }
    gm_module_index_free(&a->module_index); /* per run: an idle document does not keep it */
    if (place_after_imports(a, root, text, len) != 0)
        return -1;
    if (options->report_syntax_errors && add_syntax_error(a, root, text, len, &ignored) != 0)
        return -1;
    return add_unused_suppressions(a, root, text, len, &a->file_options, &ignored);
}

/* Adds to the breaking properties the methods of this module's classes with a breaking getter
 * that store a tensor into an attribute: other modules learn them with the getters (a call of
 * one before the read makes dynamo report the read). Nothing to do, and no walk, for a module
 * without such getters. */
static int note_tensor_stores(gm_analyzer *a, TSNode root, const char *text, uint32_t len) {
    bool own = false;
    for (size_t i = 0; i < a->breaking_properties.count; i++)
        own |= !a->breaking_properties.items[i].stores_tensor &&
               a->breaking_properties.items[i].module[0] == '\0';
    if (!own)
        return 0;
    gm_module_index_reset(&a->module_index, &a->syntax, text, root);
    gm_module_index_use_orders(&a->module_index, &a->index_orders);
    memset(&a->module_scan, 0, sizeof a->module_scan);
    gm_finding_list out;
    gm_finding_list_init(&out);
    gm_stmt_ctx st = statement_context(a, &a->options, text, len, root, (TSNode){0}, &out);
    int rc = gm_rule_property_tensor_stores(&st, &a->breaking_properties);
    gm_stmt_release(&st);
    gm_finding_list_free(&out);
    gm_module_index_free(&a->module_index);
    return rc != 0 || st.oom || a->module_index.oom ? -1 : 0;
}

const gm_finding_list *gm_analyzer_run(gm_analyzer *analyzer, const TSTree *tree, const char *text,
                                       size_t len, const gm_analysis_options *options) {
    gm_analysis_options defaults;
    if (!options) {
        gm_analysis_options_default(&defaults);
        options = &defaults;
    }
    analyzer->result.count = 0;
    analyzer->hit_count = 0;
    analyzer->getter_break_count = 0;
    gm_finding_free(&analyzer->syntax_finding);
    gm_finding_list_free(&analyzer->unused_suppressions);
    if (!tree || len > UINT32_MAX) {
        gm_analyzer_reset(analyzer);
        return &analyzer->result;
    }
    /* A second run only when the first changed which property getters break, which the
     * statements that read them depend on (module_facts/breaking_properties.h). */
    for (int pass = 0; pass < 2; pass++) {
        if (pass > 0) {
            analyzer->result.count = 0;
            analyzer->hit_count = 0;
            gm_finding_free(&analyzer->syntax_finding);
            gm_finding_list_free(&analyzer->unused_suppressions);
        }
        TSNode root = ts_tree_root_node(tree);
        int changed = -1;
        if (run(analyzer, root, text, (uint32_t)len, options) != 0 ||
            (changed = gm_breaking_properties_collect(
                 &analyzer->breaking_properties, analyzer->getter_breaks,
                 analyzer->getter_break_count,
                 (const char *const *)analyzer->external_property_facts,
                 analyzer->external_property_fact_count)) < 0 ||
            note_tensor_stores(analyzer, root, text, (uint32_t)len) != 0) {
            /* Out of memory: report what was gathered and recompute everything next time. */
            gm_analyzer_reset(analyzer);
            break;
        }
        if (!changed)
            break;
    }
    return &analyzer->result;
}

/* The facts other modules learn of this one's getters (module_summary.h's property_facts). */
/* The summary's facts from the analysis: the breaking getters of this module's classes
 * (property:, stores:) and the calls its compiled code makes of other modules' functions with
 * tensor arguments (passes:, each once). */
static int set_analysis_facts(const gm_analyzer *a, gm_module_summary *summary) {
    const gm_breaking_properties *set = &a->breaking_properties;
    size_t own = 0, passes = 0;
    for (size_t i = 0; i < set->count; i++)
        own += set->items[i].module[0] == '\0';
    for (size_t i = 0; i < a->entries.count; i++)
        if (!a->entries.items[i].dead)
            passes += a->entries.items[i].pass_count;
    if (own + passes == 0)
        return 0;
    char **facts = calloc(own + passes, sizeof *facts);
    char(*texts)[300] = own ? malloc(own * sizeof *texts) : NULL;
    size_t n = 0;
    int rc = facts && (texts || !own) ? 0 : -1;
    for (size_t i = 0; rc == 0 && i < set->count; i++)
        if (set->items[i].module[0] == '\0' &&
            gm_breaking_property_fact(&set->items[i], texts[n], sizeof texts[n])) {
            facts[n] = texts[n];
            n++;
        }
    size_t getters = n;
    for (size_t i = 0; rc == 0 && i < a->entries.count; i++) {
        const cache_entry *e = &a->entries.items[i];
        for (size_t k = 0; !e->dead && k < e->pass_count; k++) {
            bool seen = false;
            for (size_t m = getters; m < n && !seen; m++)
                seen = strcmp(facts[m], e->passes[k]) == 0;
            if (!seen)
                facts[n++] = e->passes[k];
        }
    }
    if (rc == 0)
        rc = gm_module_summary_set_property_facts(summary, (const char *const *)facts, n);
    free(facts);
    free(texts);
    return rc;
}

/* analyzer->parts: the call parts of the live entries, part_count of them. */
static int live_parts(gm_analyzer *analyzer) {
    entry_list *entries = &analyzer->entries;
    if (entries->count > analyzer->parts_capacity) {
        const gm_call_part **parts = realloc(analyzer->parts, entries->count * sizeof *parts);
        if (!parts)
            return -1;
        analyzer->parts = parts;
        analyzer->parts_capacity = entries->count;
    }
    size_t count = 0;
    for (size_t i = 0; i < entries->count; i++)
        if (!entries->items[i].dead)
            analyzer->parts[count++] = &entries->items[i].calls;
    analyzer->part_count = count;
    return 0;
}

int gm_analyzer_module_summary(gm_analyzer *analyzer, struct gm_module_summary *summary) {
    if (live_parts(analyzer) != 0)
        return -1;
    size_t count = analyzer->part_count;
    gm_compile_site_list sites;
    if (gm_module_summary_build_with_sites(analyzer->parts, count, &analyzer->symbols,
                                           analyzer->options.forward_is_compiled, summary,
                                           &sites) != 0)
        return -1;
    gm_compile_site_list_free(&analyzer->sites);
    analyzer->sites = sites;
    analyzer->sites_digest = gm_analyzer_compile_sites_digest(analyzer);
    if (set_analysis_facts(analyzer, summary) != 0) {
        gm_module_summary_free(summary);
        return -1;
    }
    return 0;
}

int gm_analyzer_compile_sites(gm_analyzer *analyzer, struct gm_compile_site_list *sites) {
    memset(sites, 0, sizeof *sites);
    if (!analyzer->have_state)
        return -1;
    uint64_t digest = gm_analyzer_compile_sites_digest(analyzer);
    if (digest && digest == analyzer->sites_digest)
        return gm_compile_site_list_copy(&analyzer->sites, sites);
    if (live_parts(analyzer) != 0)
        return -1;
    return gm_imported_compile_sites_of_parts(analyzer->parts, analyzer->part_count,
                                              &analyzer->symbols,
                                              analyzer->options.forward_is_compiled, sites);
}

uint64_t gm_analyzer_compile_sites_digest(const gm_analyzer *analyzer) {
    const gm_analyzer *a = analyzer;
    if (!a->have_state)
        return 0;
    /* the symbols (imports, classes) the sites are resolved with: the fingerprint stands for
     * them, with the Modules of other files */
    uint64_t digest = mix(mix(GM_HASH_INIT, a->fingerprint), a->options.forward_is_compiled);
    for (size_t i = 0; i < a->external_module_base_count; i++)
        digest = text_digest(digest, a->external_module_bases[i]);
    const entry_list *entries = &a->entries;
    /* the names the targets give (a file has a few): a binding of another variable is read by
     * no target; past the cap every binding counts */
    enum { named_cap = 32 };
    const char *named[named_cap];
    size_t named_count = 0;
    bool every_binding = false;
    uint64_t named_bits = 0;
    for (size_t i = 0; i < entries->count; i++) {
        const cache_entry *e = &entries->items[i];
        if (e->dead)
            continue;
        digest = mix(digest, e->sites_digest);
        for (uint32_t t = 0; t < e->calls.target_count; t++) {
            const gm_compile_target *target = &e->calls.targets[t];
            digest = mix(mix(digest, target->start_byte), target->end_byte);
            digest = mix(mix(digest, target->start_row), target->end_row);
            digest = mix(mix(digest, target->start_column), target->end_column);
            if (!target->name)
                continue;
            named_bits |= name_bit(target->name);
            if (named_count < named_cap)
                named[named_count++] = target->name;
            else
                every_binding = true;
        }
    }
    /* the instance bindings that a target may read, in file order */
    for (size_t i = 0; named_bits && i < entries->count; i++) {
        const cache_entry *e = &entries->items[i];
        if (e->dead || !(every_binding || (e->instance_bits & named_bits)))
            continue;
        for (uint32_t b = 0; b < e->calls.instance_count; b++) {
            const gm_instance_binding *binding = &e->calls.instances[b];
            bool read = every_binding;
            for (size_t n = 0; !read && n < named_count; n++)
                read = binding->var && strcmp(binding->var, named[n]) == 0;
            if (read)
                digest = text_digest(text_digest(digest, binding->var), binding->class_name);
        }
    }
    return digest ? digest : 1;
}

uint64_t gm_analyzer_summary_digest(const gm_analyzer *analyzer) {
    const gm_analyzer *a = analyzer;
    if (!a->have_state || !a->graph.have_digest)
        return 0;
    /* The graph's digest covers the call parts (keys, roots, callees, compile targets and
     * instances) and the fingerprint; the constants and the Modules of other files are not in
     * it. */
    uint64_t digest = mix(a->graph.digest, a->constants_digest);
    digest = mix(digest, a->options.forward_is_compiled);
    for (size_t i = 0; i < a->external_module_base_count; i++)
        digest = gm_hash_bytes(digest, a->external_module_bases[i],
                               strlen(a->external_module_bases[i]) + 1);
    /* the getters that break (and what follows from them) are in the summary too */
    digest = mix(digest, a->breaking_properties.digest);
    return digest ? digest : 1;
}

void gm_analyzer_last_stats(const gm_analyzer *analyzer, gm_analyzer_stats *stats) {
    *stats = analyzer->stats;
}

int gm_analyze_source(const char *text, size_t len, const gm_analysis_options *options,
                      gm_finding_list *list) {
    return gm_analyze_source_with_roots(text, len, options, NULL, 0, list);
}

int gm_analyze_source_with_roots(const char *text, size_t len, const gm_analysis_options *options,
                                 const char *const *external_roots, size_t external_count,
                                 gm_finding_list *list) {
    return gm_analyze_source_with_summary(text, len, options, external_roots, external_count, list,
                                          NULL);
}

int gm_analyze_source_with_summary(const char *text, size_t len, const gm_analysis_options *options,
                                   const char *const *external_roots, size_t external_count,
                                   gm_finding_list *list, struct gm_module_summary *summary) {
    TSParser *parser = gm_python_parser_new(GM_ANALYZE_SOURCE_TIMEOUT_MICROS);
    if (!parser)
        return -1;
    TSTree *tree = gm_python_parse(parser, NULL, text, len);
    ts_parser_delete(parser);
    if (!tree)
        return -1;
    gm_analyzer *analyzer = gm_analyzer_new();
    if (!analyzer ||
        gm_analyzer_set_external_roots(analyzer, external_roots, external_count) != 0) {
        gm_analyzer_free(analyzer);
        gm_tree_delete(tree);
        return -1;
    }
    const gm_finding_list *found = gm_analyzer_run(analyzer, tree, text, len, options);
    int rc = 0;
    for (size_t i = 0; i < found->count && rc == 0; i++) {
        gm_finding copy;
        if (gm_finding_copy_shifted(&found->items[i], &copy, 0, 0) != 0) {
            rc = -1;
        } else if (gm_finding_list_push(list, &copy) != 0) {
            gm_finding_free(&copy);
            rc = -1;
        }
    }
    if (rc == 0 && summary)
        rc = gm_analyzer_module_summary(analyzer, summary);
    gm_analyzer_free(analyzer);
    gm_tree_delete(tree);
    return rc;
}
