#include "server/libraries/library_breaks.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "analysis/analyzer.h"
#include "analysis/module_facts/symbols.h"
#include "server/libraries/class_definition.h"
#include "server/libraries/package_directory.h"
#include "server/workspace/file_reader.h"
#include "server/workspace/workspace_index.h"

/* ---- reports -------------------------------------------------------------------------- */

static void break_free(gm_library_break *b) {
    free(b->path);
    free(b->start_line);
    free(b->end_line);
    free(b->message);
    free(b->condition);
}

void gm_library_report_free(gm_library_report *r) {
    free(r->package);
    free(r->target);
    free(r->class_name);
    free(r->class_path);
    free(r->package_dir);
    for (size_t i = 0; i < r->break_count; i++)
        break_free(&r->breaks[i]);
    free(r->breaks);
    free(r->error);
    memset(r, 0, sizeof *r);
}

static char *dup_or_null(const char *s, bool *failed) {
    if (!s)
        return NULL;
    char *copy = strdup(s);
    if (!copy)
        *failed = true;
    return copy;
}

int gm_library_report_copy(const gm_library_report *src, gm_library_report *dst) {
    bool failed = false;
    *dst = *src;
    dst->package = dup_or_null(src->package, &failed);
    dst->target = dup_or_null(src->target, &failed);
    dst->class_name = dup_or_null(src->class_name, &failed);
    dst->class_path = dup_or_null(src->class_path, &failed);
    dst->package_dir = dup_or_null(src->package_dir, &failed);
    dst->error = dup_or_null(src->error, &failed);
    dst->breaks = src->break_count ? calloc(src->break_count, sizeof *dst->breaks) : NULL;
    dst->break_count = 0;
    if (src->break_count && !dst->breaks)
        failed = true;
    for (size_t i = 0; !failed && i < src->break_count; i++) {
        gm_library_break *b = &dst->breaks[i];
        *b = src->breaks[i];
        b->path = dup_or_null(src->breaks[i].path, &failed);
        b->start_line = dup_or_null(src->breaks[i].start_line, &failed);
        b->end_line = dup_or_null(src->breaks[i].end_line, &failed);
        b->message = dup_or_null(src->breaks[i].message, &failed);
        b->condition = dup_or_null(src->breaks[i].condition, &failed);
        dst->break_count++;
    }
    if (failed) {
        gm_library_report_free(dst);
        return -1;
    }
    return 0;
}

int gm_library_target_of(const char *name, const char *member, char *buf, size_t cap) {
    int n = member ? snprintf(buf, cap, "%s:%s", name, member) : snprintf(buf, cap, "%s", name);
    return n > 0 && (size_t)n < cap ? 0 : -1;
}

bool gm_library_package_skipped(const char *package) {
    static const char *const skipped[] = {"torch", "builtins", "functools", "typing"};
    for (size_t i = 0; i < sizeof skipped / sizeof skipped[0]; i++)
        if (strcmp(package, skipped[i]) == 0)
            return true;
    return false;
}

/* ---- the analysis --------------------------------------------------------------------- */

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void set_error(gm_library_report *r, const char *message) {
    free(r->error);
    r->error = strdup(message);
}

/* The text of line row of text (no newline), malloc'ed. */
static char *line_text(const char *text, size_t len, uint32_t row) {
    const char *p = text, *end = text + len;
    for (uint32_t r = 0; r < row && p < end; r++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        p = nl ? nl + 1 : end;
    }
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    size_t n = (size_t)((nl ? nl : end) - p);
    char *line = malloc(n + 1);
    if (line) {
        memcpy(line, p, n);
        line[n] = '\0';
    }
    return line;
}

static int add_break(gm_library_report *r, size_t *cap, const char *path, const char *text,
                     size_t len, const gm_finding *f) {
    if (r->break_count == *cap) {
        size_t n = *cap ? *cap * 2 : 8;
        gm_library_break *items = realloc(r->breaks, n * sizeof *items);
        if (!items)
            return -1;
        r->breaks = items;
        *cap = n;
    }
    gm_library_break *b = &r->breaks[r->break_count];
    memset(b, 0, sizeof *b);
    b->path = strdup(path);
    b->start_row = f->span.start.row;
    b->start_column = f->span.start.column;
    b->end_row = f->span.end.row;
    b->end_column = f->span.end.column;
    b->start_line = line_text(text, len, b->start_row);
    b->end_line = line_text(text, len, b->end_row);
    b->rule = f->rule;
    b->message = strdup(f->message ? f->message : "");
    bool no_memory = false;
    if (f->only_when_condition || f->only_when_dtypes) {
        size_t n = strlen(f->only_when_condition ? f->only_when_condition : f->only_when_dtypes) +
                   32;
        if ((b->condition = malloc(n)))
            snprintf(b->condition, n, f->only_when_condition ? "when `%s` holds" : "in %s",
                     f->only_when_condition ? f->only_when_condition : f->only_when_dtypes);
        no_memory = !b->condition;
    }
    b->follows_other_break = f->only_when_condition && strcmp(f->rule->id, "GM606") == 0;
    if (!b->path || !b->start_line || !b->end_line || !b->message || no_memory) {
        break_free(b);
        return -1;
    }
    r->break_count++;
    return 0;
}

/* Whether the workspace's roots of a file name a function compiled code enters (not only the
 * facts about constants and Module bases it also carries). */
static bool enters_functions(const char *const *roots, size_t count) {
    for (size_t i = 0; i < count; i++)
        if (!strchr(roots[i], '=') && strncmp(roots[i], "module:", 7) != 0)
            return true;
    return false;
}

/* What the package's own code is analysed with: the user's PyTorch, Python and dynamo
 * settings, every rule, and only the model's path compiled (not every Module's forward). */
static void library_options(const gm_analysis_options *user, gm_analysis_options *options) {
    gm_analysis_options_default(options);
    options->forward_is_compiled = false;
    options->report_syntax_errors = false;
    options->training = user->training;
    options->torch_version = user->torch_version;
    options->python_version = user->python_version;
    options->capture_scalar_outputs = user->capture_scalar_outputs;
    options->capture_dynamic_output_shape_ops = user->capture_dynamic_output_shape_ops;
    options->allow_rnn = user->allow_rnn;
    options->fullgraph = user->fullgraph;
    options->nested_graph_breaks = user->nested_graph_breaks;
    options->reorderable_logging_functions = user->reorderable_logging_functions;
    options->ignore_logging_functions = user->ignore_logging_functions;
}

uint64_t gm_library_options_digest(const gm_analysis_options *user) {
    gm_analysis_options options;
    library_options(user, &options); /* what the package is analysed with, nothing else */
    return gm_analysis_options_digest(&options);
}

/* Analyses the file at path with the roots the package's compiled code gives it. */
static int analyse_file(const gm_workspace_index *index, const char *path,
                        const gm_analysis_options *options, gm_library_report *r, size_t *cap) {
    size_t count = 0;
    uint64_t digest = 0;
    const char *const *roots = gm_workspace_index_roots(index, path, &count, &digest);
    if (!enters_functions(roots, count))
        return 0;
    size_t len = 0;
    char *text = gm_read_file(path, &len);
    if (!text)
        return 0; /* changed under us: nothing to say about it */
    gm_finding_list findings;
    gm_finding_list_init(&findings);
    int rc = 0;
    if (gm_analyze_source_with_roots(text, len, options, roots, count, &findings) == 0) {
        r->files_analysed++;
        for (size_t i = 0; i < findings.count && rc == 0; i++) {
            const gm_finding *f = &findings.items[i];
            if (f->suppressed || !f->rule || strcmp(f->rule->id, "GM901") == 0 ||
                strcmp(f->rule->id, "GM001") == 0)
                continue;
            rc = add_break(r, cap, path, text, len, f);
        }
    }
    gm_finding_list_free(&findings);
    free(text);
    return rc;
}

/* The files of the package the analysis summarised: what the report depends on. */
typedef struct {
    char **paths;
    long long *mtimes, *sizes;
    size_t count;
} file_stamps;

static void stamps_free(file_stamps *s) {
    for (size_t i = 0; i < s->count; i++)
        free(s->paths[i]);
    free(s->paths);
    free(s->mtimes);
    free(s->sizes);
    memset(s, 0, sizeof *s);
}

static bool stamp_of(const char *path, long long *mtime, long long *size) {
    struct stat info;
    if (stat(path, &info) != 0)
        return false;
    *mtime = (long long)info.st_mtim.tv_sec * 1000000000LL + info.st_mtim.tv_nsec;
    *size = (long long)info.st_size;
    return true;
}

static bool stamps_valid(const file_stamps *s) {
    for (size_t i = 0; i < s->count; i++) {
        long long mtime, size;
        if (!stamp_of(s->paths[i], &mtime, &size) || mtime != s->mtimes[i] || size != s->sizes[i])
            return false;
    }
    return true;
}

static int stamps_take(file_stamps *s, const gm_workspace_index *index) {
    size_t n = gm_workspace_index_file_count(index);
    s->paths = calloc(n ? n : 1, sizeof *s->paths);
    s->mtimes = calloc(n ? n : 1, sizeof *s->mtimes);
    s->sizes = calloc(n ? n : 1, sizeof *s->sizes);
    if (!s->paths || !s->mtimes || !s->sizes)
        return -1;
    for (size_t i = 0; i < n; i++) {
        const char *path = gm_workspace_index_file_path(index, i);
        if (!path || !stamp_of(path, &s->mtimes[s->count], &s->sizes[s->count]))
            continue;
        s->paths[s->count] = strdup(path);
        if (!s->paths[s->count])
            return -1;
        s->count++;
    }
    return 0;
}

typedef struct {
    gm_library_cache *cache;
    uint64_t options; /* gm_library_options_digest of what the index summarises with */
} memo_context;

static bool memo_lookup(void *context, uint64_t content, gm_module_summary *summary);
static void memo_store(void *context, uint64_t content, const gm_module_summary *summary);

static int report_build(gm_library_cache *cache, const char *package_dir, const char *target,
                        const gm_analysis_options *user_options, gm_library_report *r,
                        file_stamps *stamps) {
    /* "pkg.Cls:generate" for a bound method; "pkg.Cls" or "pkg.solve" otherwise */
    char dotted[2 * GM_NAME_MAX];
    snprintf(dotted, sizeof dotted, "%.*s", (int)strcspn(target, ":"), target);
    const char *member = strchr(target, ':') ? strchr(target, ':') + 1 : NULL;
    char class_path[PATH_MAX];
    bool is_class = gm_find_class_definition(package_dir, dotted, class_path, sizeof class_path) == 0;
    if (!is_class && (member || gm_find_definition(package_dir, dotted, class_path,
                                                   sizeof class_path) != 0)) {
        char message[512];
        snprintf(message, sizeof message, "no file of %.300s defines %s %.150s", package_dir,
                 member ? "class" : "class or function", r->class_name);
        set_error(r, message);
        return 0;
    }
    r->class_path = strdup(class_path);
    if (!r->class_path)
        return -1;
    gm_analysis_options options;
    library_options(user_options, &options);
    gm_workspace_index *index = gm_workspace_index_new();
    if (!index)
        return -1;
    gm_workspace_index_keep_to_package(index);
    memo_context memo_of = {cache, gm_library_options_digest(&options)};
    gm_summary_memo memo = {.lookup = memo_lookup, .store = memo_store, .context = &memo_of};
    gm_workspace_index_set_memo(index, &memo);
    int rc = -1;
    if (gm_workspace_index_add_file(index, class_path, &options) != 0) {
        set_error(r, "the file that defines the class cannot be read or parsed");
        rc = 0;
        goto done;
    }
    if (gm_workspace_index_load_imports(index, &options, GM_LIBRARY_MAX_FILES) != 0)
        goto done;
    r->files_summarised = gm_workspace_index_file_count(index);
    r->truncated = r->files_summarised >= GM_LIBRARY_MAX_FILES;
    int classes = is_class ? gm_workspace_index_compile_model(index, class_path, r->class_name,
                                                              member)
                           : gm_workspace_index_compile_function(index, class_path, r->class_name);
    if (classes < 0)
        goto done;
    r->classes = is_class ? (size_t)classes : 0;
    if (gm_workspace_index_solve(index) != 0)
        goto done;
    size_t cap = 0;
    for (size_t i = 0; i < r->files_summarised; i++) {
        const char *path = gm_workspace_index_file_path(index, i);
        if (path && analyse_file(index, path, &options, r, &cap) != 0)
            goto done;
    }
    rc = stamps_take(stamps, index);
done:
    gm_workspace_index_free(index);
    return rc;
}

/* ---- the cache -------------------------------------------------------------------------- */

typedef struct {
    char *python, *package, *dir, *error; /* owned; error unused (NULL) */
} dir_entry;

typedef struct {
    char *python, *target;
    uint64_t options;
    gm_library_report report;
    file_stamps stamps;
} report_entry;

#define GM_LIBRARY_CACHE_REPORTS 32
/* Summaries of package files by content: enough for transformers' shared modules and a few
 * dozen model families (a summary is a few kilobytes). */
#define GM_LIBRARY_CACHE_SUMMARIES 4096

typedef struct {
    uint64_t key; /* content hash mixed with the options digest; 0: empty */
    gm_module_summary summary;
} summary_slot;

struct gm_library_cache {
    pthread_mutex_t lock;
    summary_slot *summaries; /* open addressing, GM_LIBRARY_CACHE_SUMMARIES slots */
    size_t summary_count;
    dir_entry *dirs;
    size_t dir_count;
    report_entry reports[GM_LIBRARY_CACHE_REPORTS];
    size_t next_report; /* replaced round robin */
};

gm_library_cache *gm_library_cache_new(void) {
    gm_library_cache *cache = calloc(1, sizeof *cache);
    if (cache && pthread_mutex_init(&cache->lock, NULL) != 0) {
        free(cache);
        return NULL;
    }
    return cache;
}

static void report_entry_free(report_entry *e) {
    free(e->python);
    free(e->target);
    gm_library_report_free(&e->report);
    stamps_free(&e->stamps);
    memset(e, 0, sizeof *e);
}

void gm_library_cache_free(gm_library_cache *cache) {
    if (!cache)
        return;
    for (size_t i = 0; cache->summaries && i < GM_LIBRARY_CACHE_SUMMARIES; i++)
        if (cache->summaries[i].key)
            gm_module_summary_free(&cache->summaries[i].summary);
    free(cache->summaries);
    for (size_t i = 0; i < cache->dir_count; i++) {
        free(cache->dirs[i].python);
        free(cache->dirs[i].package);
        free(cache->dirs[i].dir);
        free(cache->dirs[i].error);
    }
    free(cache->dirs);
    for (size_t i = 0; i < GM_LIBRARY_CACHE_REPORTS; i++)
        report_entry_free(&cache->reports[i]);
    pthread_mutex_destroy(&cache->lock);
    free(cache);
}

/* ---- summaries by content (gm_summary_memo) ---- */

static uint64_t memo_key(const memo_context *m, uint64_t content) {
    uint64_t key = gm_hash_bytes(content, &m->options, sizeof m->options);
    return key ? key : 1;
}

static summary_slot *memo_slot(gm_library_cache *cache, uint64_t key) {
    size_t mask = GM_LIBRARY_CACHE_SUMMARIES - 1;
    for (size_t at = (size_t)key & mask, n = 0; n < GM_LIBRARY_CACHE_SUMMARIES;
         at = (at + 1) & mask, n++)
        if (cache->summaries[at].key == key || cache->summaries[at].key == 0)
            return &cache->summaries[at];
    return NULL;
}

static bool memo_lookup(void *context, uint64_t content, gm_module_summary *summary) {
    memo_context *m = context;
    bool found = false;
    pthread_mutex_lock(&m->cache->lock);
    summary_slot *slot = m->cache->summaries ? memo_slot(m->cache, memo_key(m, content)) : NULL;
    if (slot && slot->key)
        found = gm_module_summary_copy(&slot->summary, summary) == 0;
    pthread_mutex_unlock(&m->cache->lock);
    return found;
}

static void memo_store(void *context, uint64_t content, const gm_module_summary *summary) {
    memo_context *m = context;
    pthread_mutex_lock(&m->cache->lock);
    if (!m->cache->summaries)
        m->cache->summaries = calloc(GM_LIBRARY_CACHE_SUMMARIES, sizeof *m->cache->summaries);
    /* three quarters full: kept as it is (the package's files are summarised again) */
    if (m->cache->summaries && 4 * m->cache->summary_count < 3 * GM_LIBRARY_CACHE_SUMMARIES) {
        uint64_t key = memo_key(m, content);
        summary_slot *slot = memo_slot(m->cache, key);
        if (slot && !slot->key && gm_module_summary_copy(summary, &slot->summary) == 0) {
            slot->key = key;
            m->cache->summary_count++;
        }
    }
    pthread_mutex_unlock(&m->cache->lock);
}

/* The package's directory for python, asked once (the answer, or why there is none, is kept).
 * Called with the lock not held: the interpreter may take seconds. */
static int package_dir(gm_library_cache *cache, const char *python, const char *package,
                       char *dir, size_t cap, char *error, size_t error_size) {
    pthread_mutex_lock(&cache->lock);
    for (size_t i = 0; i < cache->dir_count; i++) {
        const dir_entry *e = &cache->dirs[i];
        if (strcmp(e->python, python) == 0 && strcmp(e->package, package) == 0) {
            snprintf(dir, cap, "%s", e->dir);
            pthread_mutex_unlock(&cache->lock);
            return 0;
        }
    }
    pthread_mutex_unlock(&cache->lock);
    int rc = gm_package_directory(python, package, dir, cap, error, error_size);
    if (rc != 0)
        return rc; /* asked again next time: the user may install it meanwhile */
    pthread_mutex_lock(&cache->lock);
    dir_entry *items = realloc(cache->dirs, (cache->dir_count + 1) * sizeof *items);
    if (items) {
        cache->dirs = items;
        dir_entry *e = &items[cache->dir_count];
        e->python = strdup(python);
        e->package = strdup(package);
        e->dir = strdup(dir);
        e->error = NULL;
        if (e->python && e->package && e->dir) {
            cache->dir_count++;
        } else {
            free(e->python);
            free(e->package);
            free(e->dir);
            free(e->error);
        }
    }
    pthread_mutex_unlock(&cache->lock);
    return rc;
}

/* Whether dir is the project of the file at user_path or inside it. */
static bool in_project_of(const char *dir, const char *user_path) {
    char root[PATH_MAX], real[PATH_MAX];
    if (!user_path || gm_project_root_for_path(user_path, root, sizeof root) != 0 ||
        !realpath(dir, real))
        return false;
    size_t n = strlen(root);
    return strncmp(real, root, n) == 0 && (real[n] == '/' || real[n] == '\0' || n == 1);
}

/* The report of a package that is the project's own code: no breaks, and why. */
static int project_code(gm_library_report *r) {
    char error[600];
    snprintf(error, sizeof error,
             "package '%.100s' at %.300s is part of the project: its own analysis covers it",
             r->package, r->package_dir);
    for (size_t i = 0; i < r->break_count; i++)
        break_free(&r->breaks[i]);
    free(r->breaks);
    r->breaks = NULL;
    r->break_count = 0;
    set_error(r, error);
    return r->error ? 0 : -1;
}

int gm_library_report_get(gm_library_cache *cache, const char *python, const char *target,
                          const gm_analysis_options *user_options, const char *user_path,
                          gm_library_report *r) {
    memset(r, 0, sizeof *r);
    double started = now_s();
    uint64_t digest = gm_library_options_digest(user_options);
    pthread_mutex_lock(&cache->lock);
    for (size_t i = 0; i < GM_LIBRARY_CACHE_REPORTS; i++) {
        report_entry *e = &cache->reports[i];
        if (!e->target || strcmp(e->target, target) != 0 || strcmp(e->python, python) != 0 ||
            e->options != digest)
            continue;
        if (!stamps_valid(&e->stamps)) {
            report_entry_free(e);
            break;
        }
        int rc = gm_library_report_copy(&e->report, r);
        pthread_mutex_unlock(&cache->lock);
        if (rc == 0 && in_project_of(r->package_dir, user_path))
            return project_code(r);
        return rc;
    }
    pthread_mutex_unlock(&cache->lock);

    size_t head = strcspn(target, ".");
    size_t dotted = strcspn(target, ":"); /* the name, without a bound method's ":member" */
    const char *cls = target + dotted;
    while (cls > target && cls[-1] != '.')
        cls--;
    r->package = strndup(target, head);
    r->target = strdup(target);
    r->class_name = strndup(cls, (size_t)(target + dotted - cls));
    if (!r->package || !r->target || !r->class_name) {
        gm_library_report_free(r);
        return -1;
    }
    char dir[PATH_MAX], error[512];
    file_stamps stamps = {0};
    int rc = 0;
    if (package_dir(cache, python, r->package, dir, sizeof dir, error, sizeof error) != 0)
        set_error(r, error);
    else if (!(r->package_dir = strdup(dir)))
        rc = -1;
    else if (in_project_of(dir, user_path))
        return project_code(r);
    else
        rc = report_build(cache, dir, target, user_options, r, &stamps);
    r->seconds = now_s() - started;
    if (rc != 0) {
        stamps_free(&stamps);
        gm_library_report_free(r);
        return -1;
    }
    if (r->error) { /* asked again next time: the user may install the package meanwhile */
        stamps_free(&stamps);
        return 0;
    }
    pthread_mutex_lock(&cache->lock);
    report_entry *e = &cache->reports[cache->next_report];
    cache->next_report = (cache->next_report + 1) % GM_LIBRARY_CACHE_REPORTS;
    report_entry_free(e);
    e->python = strdup(python);
    e->target = strdup(target);
    e->options = digest;
    e->stamps = stamps;
    if (!e->python || !e->target || gm_library_report_copy(r, &e->report) != 0)
        report_entry_free(e);
    pthread_mutex_unlock(&cache->lock);
    return 0;
}
