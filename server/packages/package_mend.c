#include "server/packages/package_mend.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "analysis/analyzer.h"
#include "analysis/mend_apply.h"
#include "analysis/module_facts/module_summary.h"
#include "analysis/module_facts/symbols.h"
#include "server/packages/mend_cache.h"
#include "server/packages/mended_imports_script.h"
#include "server/workspace/file_reader.h"
#include "server/workspace/parallel_each.h"
#include "server/workspace/python_files.h"
#include "server/workspace/workspace_index.h"

/* Most files of one package directory: transformers 5.23 has about 2,900. */
#define MAX_PACKAGE_FILES 50000
#define MANIFEST_HEADER "graphmend-manifest 1 " GM_VERSION "\n"

/* What became of one file of a package. */
typedef enum {
    STATUS_UNCHANGED = 'u', /* nothing to mend: imported as installed */
    STATUS_MENDED = 'm',    /* imported from mended */
    STATUS_FAILED = 'f',    /* graphmend could not mend it (reason): imported as installed */
} file_status;

typedef struct {
    char *path; /* owned, real path */
    long long size, seconds, nanoseconds;
    char status;
    size_t mends;
    bool lines_kept;
    char *mended; /* owned: the copy in the cache, when mended */
    char *reason; /* owned: why not, when failed */
    /* while mending */
    char *text;
    size_t len;
    bool has_summary, wants_mend;
    gm_module_summary summary;
} file_record;

typedef struct {
    file_record *items;
    size_t count;
} record_list;

static void free_records(record_list *records) {
    for (size_t i = 0; i < records->count; i++) {
        file_record *record = &records->items[i];
        free(record->path);
        free(record->mended);
        free(record->reason);
        free(record->text);
        if (record->has_summary) {
            gm_module_summary_free(&record->summary);
        }
    }
    free(records->items);
    memset(records, 0, sizeof *records);
}

/* A tab or newline in a path would break the map's lines: such a file is left as installed. */
static bool mappable(const char *path) {
    return !strpbrk(path, "\t\n\r");
}

/* The Python files of root (a directory, or one module file) with their size and time, in walk
 * order. Returns 0, or -1 with why in error. */
static int list_files(const char *root, record_list *records, char *error, size_t error_size) {
    gm_path_list paths = {0};
    struct stat st;
    int rc = 0;
    if (stat(root, &st) == 0 && S_ISREG(st.st_mode)) {
        char *copy = strdup(root);
        rc = copy ? gm_path_list_push(&paths, copy) : -1;
    } else {
        bool truncated = false;
        gm_find_python_files(root, &paths, MAX_PACKAGE_FILES, &truncated);
        if (truncated) {
            snprintf(error, error_size, "%s holds more than %d Python files", root,
                     MAX_PACKAGE_FILES);
            gm_path_list_free(&paths);
            return -1;
        }
    }
    records->items = calloc(paths.count + 1, sizeof *records->items);
    if (rc != 0 || !records->items) {
        snprintf(error, error_size, "out of memory");
        gm_path_list_free(&paths);
        return -1;
    }
    for (size_t i = 0; i < paths.count; i++) {
        if (!mappable(paths.paths[i]) || stat(paths.paths[i], &st) != 0) {
            continue;
        }
        file_record *record = &records->items[records->count++];
        record->path = paths.paths[i];
        paths.paths[i] = NULL;
        record->size = (long long)st.st_size;
        record->seconds = (long long)st.st_mtim.tv_sec;
        record->nanoseconds = (long long)st.st_mtim.tv_nsec;
    }
    gm_path_list_free(&paths);
    return 0;
}

/* What a mended copy's note records: how many mends, whether the line count was kept, and the
 * copy's length and content digest, by which the copy is checked before each use. */
typedef struct {
    size_t mends;
    bool kept;
    size_t len;
    unsigned long long digest;
} copy_note;

/* Reads "MENDS KEPT LEN DIGEST" from a mended copy's note (an older note without the digest
 * is not read: its copy is mended again). */
static bool read_note(const char *path, copy_note *note) {
    size_t len = 0;
    char *text = gm_read_file(path, &len);
    char flag = 0;
    bool ok = text && sscanf(text, "%zu %c %zu %llx", &note->mends, &flag, &note->len,
                             &note->digest) == 4 &&
              (flag == 'k' || flag == 'c');
    free(text);
    note->kept = flag == 'k';
    return ok;
}

/* Whether the copy a note describes is there as it was written (no copy when no mend). */
static bool copy_is_intact(const char *copy, const copy_note *note) {
    return note->mends == 0 || gm_cache_entry_is_intact(copy, note->len, note->digest);
}

/* Whether copy is the cache's own name for a mended copy: <cache>/mended/<16 hex>.py. A
 * manifest that names anything else was not written by graphmend. */
static bool names_cached_copy(const char *cache, const char *copy) {
    size_t n = strlen(cache);
    static const char dir[] = "/mended/";
    if (strncmp(copy, cache, n) != 0 || strncmp(copy + n, dir, sizeof dir - 1) != 0)
        return false;
    const char *name = copy + n + sizeof dir - 1;
    for (int i = 0; i < 16; i++)
        if (!((name[i] >= '0' && name[i] <= '9') || (name[i] >= 'a' && name[i] <= 'f')))
            return false;
    return strcmp(name + 16, ".py") == 0;
}

/* The copy named by a manifest, checked against its note. */
static bool cached_copy_is_intact(const char *cache, const char *copy) {
    if (!names_cached_copy(cache, copy))
        return false;
    char note_path[4200];
    size_t n = strlen(copy);
    snprintf(note_path, sizeof note_path, "%.*s.note", (int)(n - 3), copy);
    copy_note note;
    return read_note(note_path, &note) && note.mends > 0 && copy_is_intact(copy, &note);
}

static void report_bad_entry(const char *path, const char *entry) {
    fprintf(stderr,
            "graphmend: the cache's mended copy of %s (%s) is not the one graphmend wrote "
            "(replaced, cut short or a link): mending it again\n",
            path, entry);
}

static void manifest_path(const char *cache, uint64_t settings, const char *root, char *path,
                          size_t cap) {
    char key[GM_CACHE_KEY_SIZE];
    gm_cache_key_text(gm_hash_bytes(settings, root, strlen(root) + 1), key);
    snprintf(path, cap, "%s/manifests/%s.txt", cache, key);
}

/* Takes the outcome of each file from the manifest when the manifest lists exactly these files
 * with these sizes and times and its mended copies are still there. */
static bool reuse_manifest(const char *path, const char *cache, record_list *records) {
    size_t len = 0;
    char *text = gm_read_file(path, &len);
    if (!text || strncmp(text, MANIFEST_HEADER, strlen(MANIFEST_HEADER)) != 0) {
        free(text);
        return false;
    }
    char *line = text + strlen(MANIFEST_HEADER);
    size_t i = 0;
    bool same = true;
    while (same && *line) {
        char *end = strchr(line, '\n');
        if (!end || i >= records->count) {
            same = false;
            break;
        }
        *end = '\0';
        file_record *record = &records->items[i++];
        long long size, seconds, nanoseconds;
        char status, kept;
        size_t mends;
        int used = 0;
        char *tab = strchr(line, '\t');
        char *extra = tab ? strchr(tab + 1, '\t') : NULL;
        if (!extra ||
            sscanf(line, "%lld %lld %lld %c %zu %c%n", &size, &seconds, &nanoseconds, &status,
                   &mends, &kept, &used) != 6 ||
            line + used != tab) {
            same = false;
            break;
        }
        *extra++ = '\0';
        same = strcmp(tab + 1, record->path) == 0 && size == record->size &&
               seconds == record->seconds && nanoseconds == record->nanoseconds &&
               (status != STATUS_MENDED || cached_copy_is_intact(cache, extra));
        if (status == STATUS_MENDED && tab && strcmp(tab + 1, record->path) == 0 &&
            !cached_copy_is_intact(cache, extra))
            report_bad_entry(record->path, extra);
        record->status = status;
        record->mends = mends;
        record->lines_kept = kept == 'k';
        if (same && status == STATUS_MENDED) {
            record->mended = strdup(extra);
            same = record->mended != NULL;
        } else if (same && status == STATUS_FAILED) {
            record->reason = strdup(extra);
            same = record->reason != NULL;
        }
        line = end + 1;
    }
    free(text);
    return same && i == records->count;
}

static int write_manifest(const char *path, const record_list *records) {
    size_t cap = strlen(MANIFEST_HEADER) + 1;
    for (size_t i = 0; i < records->count; i++) {
        const file_record *record = &records->items[i];
        const char *extra = record->mended ? record->mended : record->reason;
        cap += strlen(record->path) + (extra ? strlen(extra) : 1) + 128;
    }
    char *text = malloc(cap);
    if (!text) {
        errno = ENOMEM;
        return -1;
    }
    size_t len = (size_t)snprintf(text, cap, "%s", MANIFEST_HEADER);
    for (size_t i = 0; i < records->count; i++) {
        const file_record *record = &records->items[i];
        const char *extra = record->mended ? record->mended : record->reason;
        len += (size_t)snprintf(text + len, cap - len, "%lld %lld %lld %c %zu %c\t%s\t%s\n",
                                record->size, record->seconds, record->nanoseconds,
                                record->status, record->mends, record->lines_kept ? 'k' : 'c',
                                record->path, extra ? extra : "-");
    }
    int rc = gm_cache_write(path, text, len);
    free(text);
    return rc;
}

static void fail_record(file_record *record, const char *why) {
    record->status = STATUS_FAILED;
    free(record->reason);
    record->reason = strdup(why);
}

static bool valid_utf8(const unsigned char *s, size_t len) {
    size_t i = 0;
    while (i < len) {
        unsigned char c = s[i];
        size_t extra = c < 0x80 ? 0 : (c & 0xe0) == 0xc0 ? 1 : (c & 0xf0) == 0xe0 ? 2
                                  : (c & 0xf8) == 0xf0 ? 3 : 4;
        if (extra == 4 || (extra == 1 && c < 0xc2) || i + extra >= len + (extra ? 0 : 1)) {
            return false;
        }
        for (size_t k = 1; k <= extra; k++) {
            if ((s[i + k] & 0xc0) != 0x80) {
                return false;
            }
        }
        i += extra + 1;
    }
    return true;
}

static size_t line_count(const char *text, size_t len) {
    size_t lines = 0;
    for (const char *at = text; (at = memchr(at, '\n', len - (size_t)(at - text))); at++) {
        lines++;
    }
    return lines;
}

/* The files of one package being mended, for the workers. */
typedef struct {
    record_list *records;
    const gm_analysis_options *options;
    uint64_t settings;
    const char *cache;
    const gm_workspace_index *workspace;
} mend_batch;

/* First pass, one file: read, check, analyse once for its findings and its summary. */
static void analyse_file(void *context, size_t index) {
    mend_batch *batch = context;
    file_record *record = &batch->records->items[index];
    record->text = gm_read_file(record->path, &record->len);
    if (!record->text) {
        char why[300];
        snprintf(why, sizeof why, "cannot be read: %s", gm_read_file_error(errno));
        fail_record(record, why);
        return;
    }
    if (!valid_utf8((const unsigned char *)record->text, record->len)) {
        fail_record(record, "not UTF-8 (graphmend mends UTF-8 source only)");
        return;
    }
    gm_finding_list findings;
    gm_finding_list_init(&findings);
    if (gm_analyze_source_with_summary(record->text, record->len, batch->options, NULL, 0,
                                       &findings, &record->summary) != 0) {
        gm_finding_list_free(&findings);
        fail_record(record, "graphmend's parser gave up on it (too large or timed out)");
        return;
    }
    record->has_summary = true;
    for (size_t i = 0; i < findings.count; i++) {
        const gm_finding *finding = &findings.items[i];
        if (strcmp(finding->rule->id, "GM001") == 0) {
            char why[100];
            snprintf(why, sizeof why, "graphmend's parser finds a syntax error at line %u",
                     finding->span.start.row + 1);
            fail_record(record, why);
            break;
        }
        record->wants_mend = record->wants_mend || finding->fix_count > 0;
    }
    gm_finding_list_free(&findings);
}


/* Second pass, one file: mend it with the functions other modules' compiled code calls, unless
 * the cache holds that mend already. */
static void mend_file(void *context, size_t index) {
    mend_batch *batch = context;
    file_record *record = &batch->records->items[index];
    if (record->status == STATUS_FAILED) {
        return;
    }
    size_t root_count = 0;
    uint64_t digest = 0;
    const char *const *roots =
        gm_workspace_index_roots(batch->workspace, record->path, &root_count, &digest);
    record->status = STATUS_UNCHANGED;
    record->lines_kept = true;
    if (!record->wants_mend && root_count == 0) {
        return;
    }
    uint64_t key = gm_hash_bytes(batch->settings, record->text, record->len);
    key = gm_hash_bytes(key, &digest, sizeof digest);
    char hex[GM_CACHE_KEY_SIZE], copy[4200], note[4200];
    gm_cache_key_text(key, hex);
    snprintf(copy, sizeof copy, "%s/mended/%s.py", batch->cache, hex);
    snprintf(note, sizeof note, "%s/mended/%s.note", batch->cache, hex);
    size_t mends = 0;
    bool kept = true;
    copy_note recorded;
    bool noted = read_note(note, &recorded);
    bool intact = noted && copy_is_intact(copy, &recorded);
    if (noted && !intact)
        report_bad_entry(record->path, copy);
    if (intact) {
        record->mends = recorded.mends;
        record->lines_kept = recorded.kept;
    } else {
        size_t new_len = 0;
        char *mended = gm_mend_text(record->text, record->len, batch->options->unsafe_fixes,
                                    batch->options, roots, root_count, &new_len, &mends);
        if (!mended) {
            fail_record(record, "out of memory while mending it");
            return;
        }
        bool changed = new_len != record->len || memcmp(mended, record->text, new_len) != 0;
        mends = changed ? mends : 0;
        kept = line_count(mended, new_len) == line_count(record->text, record->len);
        char text[96];
        int text_len = snprintf(text, sizeof text, "%zu %c %zu %016llx\n", mends, kept ? 'k' : 'c',
                                changed ? new_len : (size_t)0,
                                changed ? (unsigned long long)gm_cache_content_digest(mended,
                                                                                      new_len)
                                        : 0ull);
        /* the copy first: a note promises its copy */
        if ((changed && gm_cache_write(copy, mended, new_len) != 0) ||
            gm_cache_write(note, text, (size_t)text_len) != 0) {
            char why[300];
            snprintf(why, sizeof why, "its mended copy cannot be written to the cache: %s",
                     strerror(errno));
            free(mended);
            fail_record(record, why);
            return;
        }
        free(mended);
        record->mends = mends;
        record->lines_kept = kept;
    }
    if (record->mends > 0) {
        record->status = STATUS_MENDED;
        record->mended = strdup(copy);
        if (!record->mended) {
            fail_record(record, "out of memory");
        }
    }
}

/* Mends every file of one package directory (records: its files) and returns 0, or -1 on OOM. */
static int mend_records(record_list *records, const gm_analysis_options *options,
                        uint64_t settings, const char *cache) {
    mend_batch batch = {records, options, settings, cache, NULL};
    unsigned threads = gm_parallel_threads();
    gm_parallel_each(records->count, threads, analyse_file, &batch);
    gm_workspace_index *workspace = gm_workspace_index_new();
    if (!workspace) {
        return -1;
    }
    for (size_t i = 0; i < records->count; i++) {
        file_record *record = &records->items[i];
        if (record->has_summary) {
            gm_workspace_index_update(workspace, record->path, &record->summary); /* takes it */
            record->has_summary = false;
        }
    }
    if (gm_workspace_index_solve(workspace) != 0) {
        gm_workspace_index_free(workspace);
        return -1;
    }
    batch.workspace = workspace;
    gm_parallel_each(records->count, threads, mend_file, &batch);
    gm_workspace_index_free(workspace);
    for (size_t i = 0; i < records->count; i++) {
        free(records->items[i].text);
        records->items[i].text = NULL;
    }
    return 0;
}

/* Appends text to the growing buffer *map. Returns 0, or -1 on OOM. */
static int append(char **map, size_t *len, size_t *cap, const char *format, const char *a,
                  const char *b, const char *c) {
    size_t need = strlen(format) + strlen(a) + (b ? strlen(b) : 0) + (c ? strlen(c) : 0) + 1;
    if (*len + need > *cap) {
        size_t grown_cap = (*cap + need) * 2;
        char *grown = realloc(*map, grown_cap);
        if (!grown) {
            return -1;
        }
        *map = grown;
        *cap = grown_cap;
    }
    *len += (size_t)snprintf(*map + *len, *cap - *len, format, a, b ? b : "", c ? c : "");
    return 0;
}

static int add_to_map(char **map, size_t *len, size_t *cap, const record_list *records) {
    for (size_t i = 0; i < records->count; i++) {
        const file_record *record = &records->items[i];
        int rc = 0;
        if (record->status == STATUS_MENDED) {
            rc = append(map, len, cap, "mended\t%s\t%s\t%s\n", record->path, record->mended,
                        record->lines_kept ? "kept" : "changed");
        } else if (record->status == STATUS_FAILED) {
            rc = append(map, len, cap, "failed\t%s\t%s%s\n", record->path,
                        record->reason ? record->reason : "unknown", NULL);
        }
        if (rc != 0) {
            return -1;
        }
    }
    return 0;
}

static void count_records(const record_list *records, gm_package_mend_stats *stats) {
    stats->files += records->count;
    for (size_t i = 0; i < records->count; i++) {
        const file_record *record = &records->items[i];
        stats->mended_files += record->status == STATUS_MENDED;
        stats->mends += record->status == STATUS_MENDED ? record->mends : 0;
        stats->failed_files += record->status == STATUS_FAILED;
    }
}

/* Writes text to the cache under a name made from its content, unless it is there. */
static int write_by_content(const char *cache, const char *prefix, const char *suffix,
                            const char *text, size_t len, char *path, size_t cap) {
    char hex[GM_CACHE_KEY_SIZE];
    gm_cache_key_text(gm_hash_bytes(GM_HASH_INIT, text, len), hex);
    snprintf(path, cap, "%s/%s%s%s", cache, prefix, hex, suffix);
    return gm_cache_has(path) ? 0 : gm_cache_write(path, text, len);
}

int gm_mend_packages(const gm_package_locations *where, const gm_analysis_options *options,
                     char *map_path, size_t map_cap, char *launcher_path,
                     size_t launcher_cap, gm_package_mend_stats *stats, char *error,
                     size_t error_size) {
    memset(stats, 0, sizeof *stats);
    char cache[4096];
    if (gm_mend_cache_root(cache, sizeof cache, error, error_size) != 0) {
        return -1;
    }
    uint64_t settings = gm_mend_settings_key(options);
    size_t len = 0, cap = 4096;
    char *map = malloc(cap);
    int status = map ? 0 : -1;
    if (!map) {
        snprintf(error, error_size, "out of memory");
    }
    for (size_t p = 0; status == 0 && p < where->count; p++) {
        const gm_located_package *package = &where->items[p];
        if (append(&map, &len, &cap, "package\t%s%s%s\n", package->name, NULL, NULL) != 0) {
            snprintf(error, error_size, "out of memory");
            status = -1;
        }
        for (size_t r = 0; status == 0 && r < package->roots.count; r++) {
            const char *root = package->roots.paths[r];
            record_list records = {0};
            char manifest[4200];
            manifest_path(cache, settings, root, manifest, sizeof manifest);
            if (list_files(root, &records, error, error_size) != 0) {
                status = -1;
            } else if (!reuse_manifest(manifest, cache, &records)) {
                for (size_t i = 0; i < records.count; i++) { /* what the manifest left there */
                    file_record *record = &records.items[i];
                    free(record->mended);
                    free(record->reason);
                    record->mended = record->reason = NULL;
                    record->status = STATUS_UNCHANGED;
                    record->mends = 0;
                }
                stats->analysed += records.count;
                if (mend_records(&records, options, settings, cache) != 0) {
                    snprintf(error, error_size, "out of memory mending %s", root);
                    status = -1;
                } else if (write_manifest(manifest, &records) != 0) {
                    snprintf(error, error_size, "cannot write %s: %s", manifest,
                             strerror(errno));
                    status = -1;
                }
            }
            if (status == 0) {
                count_records(&records, stats);
                if (add_to_map(&map, &len, &cap, &records) != 0) {
                    snprintf(error, error_size, "out of memory");
                    status = -1;
                }
            }
            free_records(&records);
        }
    }
    if (status == 0 &&
        (write_by_content(cache, "maps/", ".map", map, len, map_path, map_cap) != 0 ||
         write_by_content(cache, "mended_imports-", ".py", gm_mended_imports_script,
                          gm_mended_imports_script_len, launcher_path, launcher_cap) != 0)) {
        snprintf(error, error_size, "cannot write to the cache %s: %s", cache, strerror(errno));
        status = -1;
    }
    free(map);
    return status;
}
