#include "server/workspace/workspace_index.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/module_facts/symbols.h"
#include "analysis/module_facts/workspace_graph.h"
#include "server/workspace/file_reader.h"
#include "server/workspace/parallel_each.h"
#include "server/workspace/python_files.h"

typedef struct {
    char *path;   /* owned, resolved with realpath */
    char *module; /* owned, dotted */
    char *root;   /* owned: where its absolute imports start */
    bool is_package;
    bool imports_loaded;
} file_entry;

struct gm_workspace_index {
    file_entry *files;
    size_t count, capacity;
    size_t *table; /* file index + 1 by path hash */
    size_t table_size;
    gm_workspace_graph *graph;
    bool one_package; /* every file is an installed package's: imports stay in its package */
    gm_summary_memo memo; /* lookup NULL: none */
};

gm_workspace_index *gm_workspace_index_new(void) {
    gm_workspace_index *index = calloc(1, sizeof *index);
    if (!index)
        return NULL;
    index->graph = gm_workspace_graph_new();
    if (!index->graph) {
        free(index);
        return NULL;
    }
    return index;
}

void gm_workspace_index_free(gm_workspace_index *index) {
    if (!index)
        return;
    for (size_t i = 0; i < index->count; i++) {
        free(index->files[i].path);
        free(index->files[i].module);
        free(index->files[i].root);
    }
    free(index->files);
    free(index->table);
    gm_workspace_graph_free(index->graph);
    free(index);
}

void gm_workspace_index_set_memo(gm_workspace_index *index, const gm_summary_memo *memo) {
    if (memo)
        index->memo = *memo;
    else
        memset(&index->memo, 0, sizeof index->memo);
}

void gm_workspace_index_keep_to_package(gm_workspace_index *index) {
    index->one_package = true;
}

size_t gm_workspace_index_file_count(const gm_workspace_index *index) {
    return index->count;
}

const char *gm_workspace_index_file_path(const gm_workspace_index *index, size_t i) {
    return i < index->count ? index->files[i].path : NULL;
}

static bool file_exists(const char *path, bool directory) {
    struct stat info;
    return stat(path, &info) == 0 && (directory ? S_ISDIR(info.st_mode) : S_ISREG(info.st_mode));
}

int gm_module_name_for_path(const char *path, char *name, size_t cap, bool *is_package,
                            char **root) {
    char dir[PATH_MAX];
    size_t len = strlen(path);
    if (len < 4 || len >= sizeof dir || strcmp(path + len - 3, ".py") != 0)
        return -1;
    memcpy(dir, path, len + 1);
    char *slash = strrchr(dir, '/');
    const char *file = slash ? slash + 1 : dir;
    *is_package = strcmp(file, "__init__.py") == 0;
    /* Components innermost first: the file's stem, then each enclosing package directory. */
    const char *parts[65];
    size_t count = 0;
    char stem[256];
    if (!*is_package) {
        size_t n = strlen(file) - 3;
        if (n == 0 || n >= sizeof stem)
            return -1;
        memcpy(stem, file, n);
        stem[n] = '\0';
        parts[count++] = stem;
    }
    if (!slash)
        return -1; /* callers pass absolute paths */
    *slash = '\0';
    while (count < 64) {
        char marker[PATH_MAX + 16];
        snprintf(marker, sizeof marker, "%s/__init__.py", dir[0] ? dir : "");
        slash = strrchr(dir, '/');
        if (!file_exists(marker, false) || !slash || strchr(slash + 1, '.'))
            break;
        parts[count++] = slash + 1;
        *slash = '\0';
    }
    if (count == 0)
        return -1;
    size_t used = 0;
    for (size_t i = count; i-- > 0;) {
        int n = snprintf(name + used, cap - used, "%s%s", used ? "." : "", parts[i]);
        if (n < 0 || (size_t)n >= cap - used)
            return -1;
        used += (size_t)n;
    }
    if (root) {
        *root = strdup(dir[0] ? dir : "/");
        if (!*root)
            return -1;
    }
    return 0;
}

int gm_project_root_for_path(const char *path, char *root, size_t cap) {
    char dir[PATH_MAX];
    if (!realpath(path, dir))
        return -1;
    if (!file_exists(dir, true)) {
        char *slash = strrchr(dir, '/');
        if (!slash)
            return -1;
        *slash = '\0';
    }
    static const char *const markers[] = {"pyproject.toml", "setup.py", "setup.cfg", ".git"};
    for (;;) {
        for (size_t i = 0; i < sizeof markers / sizeof markers[0]; i++) {
            char marker[PATH_MAX + 32];
            struct stat info;
            snprintf(marker, sizeof marker, "%s/%s", dir, markers[i]);
            if (stat(marker, &info) == 0) {
                if (strlen(dir) + 1 > cap)
                    return -1;
                strcpy(root, dir[0] ? dir : "/");
                return 0;
            }
        }
        char *slash = strrchr(dir, '/');
        if (!slash || dir[0] == '\0')
            return -1;
        *slash = '\0';
    }
}

/* ---- the file table --------------------------------------------------------------------- */

static uint64_t path_hash(const char *path) {
    return gm_hash_bytes(GM_HASH_INIT, path, strlen(path));
}

static int table_rebuild(gm_workspace_index *index, size_t size) {
    size_t *table = calloc(size, sizeof *table);
    if (!table)
        return -1;
    for (size_t i = 0; i < index->count; i++) {
        size_t at = (size_t)path_hash(index->files[i].path) & (size - 1);
        while (table[at])
            at = (at + 1) & (size - 1);
        table[at] = i + 1;
    }
    free(index->table);
    index->table = table;
    index->table_size = size;
    return 0;
}

static file_entry *find_file(const gm_workspace_index *index, const char *real_path) {
    if (!index->table_size)
        return NULL;
    size_t mask = index->table_size - 1;
    for (size_t at = (size_t)path_hash(real_path) & mask; index->table[at]; at = (at + 1) & mask) {
        file_entry *f = &index->files[index->table[at] - 1];
        if (strcmp(f->path, real_path) == 0)
            return f;
    }
    return NULL;
}

static file_entry *add_entry(gm_workspace_index *index, const char *real_path) {
    char module[GM_NAME_MAX];
    bool is_package;
    char *root = NULL;
    if (gm_module_name_for_path(real_path, module, sizeof module, &is_package, &root) != 0)
        return NULL;
    if (index->count == index->capacity) {
        size_t cap = index->capacity ? index->capacity * 2 : 64;
        file_entry *items = realloc(index->files, cap * sizeof *items);
        if (!items) {
            free(root);
            return NULL;
        }
        index->files = items;
        index->capacity = cap;
    }
    file_entry *f = &index->files[index->count];
    memset(f, 0, sizeof *f);
    f->path = strdup(real_path);
    f->module = strdup(module);
    f->root = root;
    f->is_package = is_package;
    if (!f->path || !f->module) {
        free(f->path);
        free(f->module);
        free(root);
        return NULL;
    }
    index->count++;
    if (2 * index->count > index->table_size &&
        table_rebuild(index, index->table_size ? index->table_size * 2 : 128) != 0) {
        index->count--;
        free(f->path);
        free(f->module);
        free(root);
        return NULL;
    }
    size_t mask = index->table_size - 1, at = (size_t)path_hash(f->path) & mask;
    if (index->table[at] != index->count) { /* not placed by a rebuild just now */
        while (index->table[at])
            at = (at + 1) & mask;
        index->table[at] = index->count;
    }
    return f;
}

/* ---- summaries ------------------------------------------------------------------------- */

/* Indexes the file whose summary was just made (taken), as the file at real_path. */
static int index_summary(gm_workspace_index *index, const char *real_path,
                         gm_module_summary *summary) {
    file_entry *f = add_entry(index, real_path);
    if (!f) {
        gm_module_summary_free(summary);
        return -1;
    }
    return gm_workspace_graph_set(index->graph, f->root, f->module, f->is_package, summary) < 0
               ? -1
               : 0;
}

/* The summary of text, through the memo when there is one. */
static int summarise_text(gm_workspace_index *index, const char *text, size_t len,
                          const gm_analysis_options *options, gm_module_summary *summary) {
    if (!index->memo.lookup)
        return gm_module_summary_from_source(text, len, options, summary);
    uint64_t content = gm_hash_words(text, len);
    if (index->memo.lookup(index->memo.context, content, summary))
        return 0;
    int rc = gm_module_summary_from_source(text, len, options, summary);
    if (rc == 0 && index->memo.store)
        index->memo.store(index->memo.context, content, summary);
    return rc;
}

static int summarise_from_disk(gm_workspace_index *index, const char *real_path,
                               const gm_analysis_options *options) {
    size_t len = 0;
    char *text = gm_read_file(real_path, &len);
    if (!text)
        return -1;
    gm_module_summary summary;
    int rc = summarise_text(index, text, len, options, &summary);
    free(text);
    return rc == 0 ? index_summary(index, real_path, &summary) : -1;
}

int gm_workspace_index_add_file(gm_workspace_index *index, const char *path,
                                const gm_analysis_options *options) {
    char real[PATH_MAX];
    if (!realpath(path, real))
        return -1;
    if (find_file(index, real))
        return 0;
    return summarise_from_disk(index, real, options);
}

/* ---- the scan, on every core ---- */

/* Files a scan reads and summarises at once: their sources are held until indexed. */
#define GM_SCAN_BATCH 512

typedef struct {
    char *path; /* resolved; NULL: skipped (unresolvable, known already, or a second name) */
    struct stat info; /* taken before the file is read */
    bool stamped;     /* info was taken */
    char *text;
    size_t len;
    uint64_t content;
    gm_module_summary summary;
    bool summarised;
    bool remembered; /* the memo's */
} scan_item;

typedef struct {
    scan_item *items;
    const gm_analysis_options *options;
    bool hash;
} scan_batch;

static void read_item(void *context, size_t i) {
    scan_batch *batch = context;
    scan_item *item = &batch->items[i];
    if (!item->path || item->summarised)
        return;
    item->text = gm_read_file(item->path, &item->len);
    if (item->text && batch->hash)
        item->content = gm_hash_words(item->text, item->len);
}

static void summarise_item(void *context, size_t i) {
    scan_batch *batch = context;
    scan_item *item = &batch->items[i];
    if (item->text && !item->summarised)
        item->summarised =
            gm_module_summary_from_source(item->text, item->len, batch->options,
                                          &item->summary) == 0;
}

static bool listed_before(const scan_item *items, size_t count, const char *path) {
    for (size_t i = 0; i < count; i++)
        if (items[i].path && strcmp(items[i].path, path) == 0)
            return true;
    return false;
}

/* Reads and summarises paths[0..count) on every core (the memo asked and told on this
 * thread only), then indexes them in order. */
static void scan_batch_run(gm_workspace_index *index, char *const *paths, size_t count,
                           const gm_analysis_options *options, gm_workspace_scan_stats *stats) {
    scan_item *items = calloc(count, sizeof *items);
    if (!items) {
        stats->failed += count;
        return;
    }
    for (size_t i = 0; i < count; i++) {
        char real[PATH_MAX];
        if (!realpath(paths[i], real)) {
            stats->failed++;
        } else if (find_file(index, real) || listed_before(items, i, real)) {
            stats->files++; /* as gm_workspace_index_add_file counts a known file */
        } else if (!(items[i].path = strdup(real))) {
            stats->failed++;
        }
    }
    scan_batch batch = {items, options, index->memo.lookup != NULL};
    const gm_summary_memo *memo = &index->memo;
    /* a file whose stat is the one its content was recorded with is not read at all */
    for (size_t i = 0; memo->stamp_lookup && i < count; i++) {
        scan_item *item = &items[i];
        uint64_t content;
        item->stamped = item->path && stat(item->path, &item->info) == 0;
        if (item->stamped &&
            memo->stamp_lookup(memo->context, item->path, &item->info, &content) &&
            memo->lookup(memo->context, content, &item->summary))
            item->summarised = item->remembered = true;
    }
    unsigned threads = gm_parallel_threads();
    gm_parallel_each(count, threads, read_item, &batch);
    for (size_t i = 0; batch.hash && i < count; i++) {
        scan_item *item = &items[i];
        if (!item->text)
            continue;
        if (item->stamped && memo->stamp_record)
            memo->stamp_record(memo->context, item->path, &item->info, item->content);
        if (memo->lookup(memo->context, item->content, &item->summary))
            item->summarised = item->remembered = true;
    }
    gm_parallel_each(count, threads, summarise_item, &batch);
    for (size_t i = 0; i < count; i++) {
        scan_item *item = &items[i];
        if (item->path) {
            bool made = item->summarised;
            if (made && !item->remembered && index->memo.store)
                index->memo.store(index->memo.context, item->content, &item->summary);
            if (made && index_summary(index, item->path, &item->summary) == 0)
                stats->files++;
            else
                stats->failed++;
        }
        free(item->path);
        free(item->text);
    }
    free(items);
}

int gm_workspace_index_scan(gm_workspace_index *index, const char *root,
                            const gm_analysis_options *options, size_t max_files,
                            gm_workspace_scan_stats *stats) {
    memset(stats, 0, sizeof *stats);
    gm_path_list files = {0};
    size_t room = max_files > index->count ? max_files - index->count : 0;
    gm_find_python_files(root, &files, room, &stats->truncated);
    for (size_t at = 0; at < files.count; at += GM_SCAN_BATCH) {
        size_t n = files.count - at < GM_SCAN_BATCH ? files.count - at : GM_SCAN_BATCH;
        scan_batch_run(index, files.paths + at, n, options, stats);
    }
    gm_path_list_free(&files);
    return 0;
}

/* The file of an absolute module name under root: name as a module or as a package. */
static bool module_file(const char *root, const char *module, size_t len, char *path, size_t cap) {
    int n = snprintf(path, cap, "%s/%.*s", root, (int)len, module);
    if (n < 0 || (size_t)n + 13 >= cap)
        return false;
    for (char *p = path + strlen(root) + 1; *p; p++)
        if (*p == '.')
            *p = '/';
    size_t at = (size_t)n;
    strcpy(path + at, ".py");
    if (file_exists(path, false))
        return true;
    strcpy(path + at, "/__init__.py");
    return file_exists(path, false);
}

/* Whether the index knows the module of an absolute dotted name under root: a project's
 * files import each other thousands of times, and the file system answered each with a stat
 * and a realpath. */
static bool module_known(const gm_workspace_index *index, const char *root, const char *module,
                         size_t len) {
    char name[GM_NAME_MAX];
    if (len >= sizeof name)
        return false;
    memcpy(name, module, len);
    name[len] = '\0';
    return gm_workspace_graph_summary(index->graph, root, name) != NULL;
}

/* Modules found missing during one gm_workspace_index_load_imports (torch, typing, ...: every
 * file imports them, and each import asked the file system twice), by a hash of root and
 * name. A file created meanwhile is found by the next load. */
typedef struct {
    uint64_t *slots; /* 0: empty */
    size_t size, count;
} absent_set;

static uint64_t absent_key(const char *root, const char *module, size_t len) {
    uint64_t h = gm_hash_bytes(GM_HASH_INIT, root, strlen(root) + 1);
    h = gm_hash_bytes(h, module, len);
    return h ? h : 1;
}

static bool absent_has(const absent_set *set, uint64_t key) {
    if (!set->size)
        return false;
    for (size_t at = (size_t)key & (set->size - 1); set->slots[at];
         at = (at + 1) & (set->size - 1))
        if (set->slots[at] == key)
            return true;
    return false;
}

static void absent_add(absent_set *set, uint64_t key) {
    if (2 * (set->count + 1) > set->size) {
        size_t size = set->size ? set->size * 2 : 256;
        uint64_t *slots = calloc(size, sizeof *slots);
        if (!slots)
            return; /* only a memo */
        for (size_t i = 0; i < set->size; i++) {
            if (!set->slots[i])
                continue;
            size_t at = (size_t)set->slots[i] & (size - 1);
            while (slots[at])
                at = (at + 1) & (size - 1);
            slots[at] = set->slots[i];
        }
        free(set->slots);
        set->slots = slots;
        set->size = size;
    }
    size_t at = (size_t)key & (set->size - 1);
    while (set->slots[at])
        at = (at + 1) & (set->size - 1);
    set->slots[at] = key;
    set->count++;
}

/* Adds the files of every package and module along an absolute dotted name (pkg, pkg.sub,
 * pkg.sub.mod, ...) found under root. */
static void load_name(gm_workspace_index *index, const char *root, const char *name,
                      const gm_analysis_options *options, size_t max_files, absent_set *absent) {
    char path[PATH_MAX];
    size_t len = strlen(name);
    for (size_t cut = 1; cut <= len && index->count < max_files; cut++) {
        if (cut < len && name[cut] != '.')
            continue;
        if (module_known(index, root, name, cut))
            continue;
        uint64_t key = absent_key(root, name, cut);
        if (absent_has(absent, key))
            break;
        if (!module_file(root, name, cut, path, sizeof path)) {
            absent_add(absent, key);
            break; /* a package that is not there has no modules either */
        }
        gm_workspace_index_add_file(index, path, options);
    }
}

static bool same_top_package(const char *a, const char *b) {
    size_t la = strcspn(a, "."), lb = strcspn(b, ".");
    return la == lb && memcmp(a, b, la) == 0;
}

int gm_workspace_index_load_imports(gm_workspace_index *index, const gm_analysis_options *options,
                                    size_t max_files) {
    absent_set absent = {0};
    /* Files added while looping are visited too: the loop runs to the growing count. */
    for (size_t i = 0; i < index->count && index->count < max_files; i++) {
        if (index->files[i].imports_loaded)
            continue;
        index->files[i].imports_loaded = true;
        file_entry f = index->files[i]; /* index->files may move */
        bool installed = index->one_package || strstr(f.root, "/site-packages") ||
                         strstr(f.root, "/dist-packages");
        const gm_module_summary *summary =
            gm_workspace_graph_summary(index->graph, f.root, f.module);
        for (size_t k = 0; summary && k < summary->import_count; k++) {
            char absolute[2 * GM_NAME_MAX];
            if (!gm_module_absolute_name(f.module, f.is_package, summary->imports[k].canonical,
                                         absolute, sizeof absolute))
                continue;
            /* Installed packages import each other (torch, numpy, ...): from site-packages
             * only the importer's own package is followed. */
            if (installed && !same_top_package(f.module, absolute))
                continue;
            load_name(index, f.root, absolute, options, max_files, &absent);
            summary = gm_workspace_graph_summary(index->graph, f.root, f.module);
        }
    }
    free(absent.slots);
    return 0;
}

int gm_workspace_index_update(gm_workspace_index *index, const char *path,
                              gm_module_summary *summary) {
    char real[PATH_MAX];
    if (!realpath(path, real)) {
        gm_module_summary_free(summary);
        return -1;
    }
    file_entry *f = find_file(index, real);
    if (!f)
        f = add_entry(index, real);
    if (!f) {
        gm_module_summary_free(summary);
        return -1;
    }
    return gm_workspace_graph_set(index->graph, f->root, f->module, f->is_package, summary);
}

int gm_workspace_index_solve(gm_workspace_index *index) {
    return gm_workspace_graph_solve(index->graph);
}

size_t gm_workspace_index_mark_library(gm_workspace_index *index, const char *directory) {
    char real[PATH_MAX];
    if (!realpath(directory, real))
        return 0;
    size_t len = strlen(real), marked = 0;
    for (size_t i = 0; i < index->count; i++) {
        const file_entry *f = &index->files[i];
        if (strncmp(f->path, real, len) == 0 && (f->path[len] == '/' || len == 1) &&
            gm_workspace_graph_set_library(index->graph, f->root, f->module, true) == 0)
            marked++;
    }
    return marked;
}

const char *const *gm_workspace_index_roots(const gm_workspace_index *index, const char *path,
                                            size_t *count, uint64_t *digest) {
    *count = 0;
    *digest = 0;
    char real[PATH_MAX];
    if (!realpath(path, real))
        return NULL;
    const file_entry *f = find_file(index, real);
    return f ? gm_workspace_graph_roots(index->graph, f->root, f->module, count, digest) : NULL;
}

/* The module that stands for the user's `torch.compile(model)`: it compiles each class of the
 * model's path (its forward), and nothing else. A name no Python file can have. */
#define GM_MODEL_ENTRY_MODULE "<graphmend model>"

/* Sets the entry module's compile targets: names[i] (owned, taken over with the array), each
 * with members[i] (owned or NULL: forward, or the function itself). Returns 0, or -1 on OOM. */
static int set_entry_targets(gm_workspace_index *index, const char *root, char **names,
                             char **members, size_t count) {
    gm_module_summary entry;
    memset(&entry, 0, sizeof entry);
    entry.target_names = names;
    entry.target_members = members;
    entry.target_count = count;
    uint64_t digest = GM_HASH_INIT;
    for (size_t i = 0; i < count; i++) {
        digest = gm_hash_bytes(digest, names[i], strlen(names[i]) + 1);
        if (members[i])
            digest = gm_hash_bytes(digest, members[i], strlen(members[i]) + 1);
    }
    entry.digest = digest;
    return gm_workspace_graph_set(index->graph, root, GM_MODEL_ENTRY_MODULE, false, &entry) < 0
               ? -1
               : 0;
}

static void strings_free(char **items, size_t count) {
    for (size_t i = 0; items && i < count; i++)
        free(items[i]);
    free(items);
}

int gm_workspace_index_compile_model(gm_workspace_index *index, const char *path,
                                     const char *cls, const char *member) {
    char real[PATH_MAX];
    if (!realpath(path, real))
        return -1;
    const file_entry *f = find_file(index, real);
    if (!f)
        return -1;
    char **names = NULL;
    int count = gm_workspace_graph_model_classes(index->graph, f->root, f->module, cls, &names);
    if (count <= 0)
        return count;
    /* the method too, of the model's own class (names[0]), beside the forwards it runs */
    size_t total = (size_t)count + (member ? 1 : 0);
    char **members = calloc(total, sizeof *members);
    char **grown = members ? realloc(names, total * sizeof *grown) : NULL;
    if (!grown) {
        strings_free(names, (size_t)count);
        free(members);
        return -1;
    }
    names = grown;
    if (member) {
        names[count] = strdup(names[0]);
        members[count] = strdup(member);
        if (!names[count] || !members[count]) {
            strings_free(names, total);
            strings_free(members, total);
            return -1;
        }
    }
    return set_entry_targets(index, f->root, names, members, total) == 0 ? count : -1;
}

int gm_workspace_index_compile_function(gm_workspace_index *index, const char *path,
                                        const char *function) {
    char real[PATH_MAX];
    if (!realpath(path, real))
        return -1;
    const file_entry *f = find_file(index, real);
    if (!f)
        return -1;
    size_t n = strlen(f->module) + strlen(function) + 2;
    char **names = calloc(1, sizeof *names), **members = calloc(1, sizeof *members);
    if (!names || !members || !(names[0] = malloc(n))) {
        free(names);
        free(members);
        return -1;
    }
    snprintf(names[0], n, "%s.%s", f->module, function);
    return set_entry_targets(index, f->root, names, members, 1);
}
