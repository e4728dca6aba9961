#include "server/workspace/summary_store.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "analysis/module_facts/summary_codec.h"
#include "analysis/module_facts/symbols.h"
#include "server/workspace/build_identity.h"
#include "server/workspace/cache_directory.h"

#define STORE_MAGIC "GMSUMRY1"
#define STORE_HEADER_SIZE (8 + 4 + 8 + 4)       /* magic, format, key, entry count */
#define ENTRY_HEADER_SIZE (8 + 4 + 4 + 8)       /* content hash, age, length, checksum */
#define STORE_MAX_BYTES ((size_t)1 << 30)      /* a file larger than this is not ours */
#define STORE_MAX_AGE 8u                       /* saves an unused entry survives */
#define STALE_STORE_SECONDS 3600L /* other builds' and options' files unsaved this long go */

typedef struct {
    uint64_t content;
    uint32_t age; /* saves since it was last used */
    const uint8_t *payload;
    size_t len;
    uint8_t *owned; /* payload of an entry stored this run, else NULL (it lies in the file) */
    bool used, rejected;
} store_entry;

/* What a file's stat was when its content had a hash: the same stat again, and the file is not
 * read (as git's index and ruff's cache trust a file's times). */
typedef struct {
    uint64_t path; /* hash of the resolved path; 0: an empty slot */
    uint64_t device, inode, size;
    int64_t modified_s, modified_ns, changed_s, changed_ns;
    uint64_t content;
    bool seen; /* asked for or recorded this run */
} file_stamp;

#define STAMP_FIELDS 9
#define STAMP_BYTES (STAMP_FIELDS * 8)
#define STAMPS_KEPT_MAX 200000u
/* A file changed this recently may change again within the same tick of its times: its stamp
 * is not kept (git's "racily clean" entries). */
#define STAMP_SETTLED_SECONDS 2

struct gm_summary_store {
    char directory[PATH_MAX];
    char path[PATH_MAX];
    uint64_t key;
    uint8_t *file; /* the file as read */
    size_t file_len;
    store_entry *entries;
    size_t count, capacity;
    size_t *table; /* entry index + 1 by content hash */
    size_t table_size;
    file_stamp *stamps; /* open addressing by path hash */
    size_t stamp_size, stamp_count;
    bool dirty;
    gm_summary_store_stats stats;
};

/* ---- little-endian fields ---- */

static uint32_t read_u32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t read_u64(const uint8_t *p) {
    return (uint64_t)read_u32(p) | (uint64_t)read_u32(p + 4) << 32;
}

static void write_u32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void write_u64(uint8_t *p, uint64_t v) {
    write_u32(p, (uint32_t)v);
    write_u32(p + 4, (uint32_t)(v >> 32));
}

static uint64_t checksum(uint64_t content, const uint8_t *payload, size_t len) {
    return gm_hash_words(payload, len) ^ (content * 0x9e3779b97f4a7c15ull);
}

/* ---- the table of entries ---- */

static store_entry *find_entry(const gm_summary_store *store, uint64_t content) {
    if (!store->table_size)
        return NULL;
    size_t mask = store->table_size - 1;
    for (size_t at = (size_t)content & mask; store->table[at]; at = (at + 1) & mask)
        if (store->entries[store->table[at] - 1].content == content)
            return &store->entries[store->table[at] - 1];
    return NULL;
}

static int table_grow(gm_summary_store *store) {
    size_t size = store->table_size ? store->table_size * 2 : 1024;
    size_t *table = calloc(size, sizeof *table);
    if (!table)
        return -1;
    for (size_t i = 0; i < store->count; i++) {
        size_t at = (size_t)store->entries[i].content & (size - 1);
        while (table[at])
            at = (at + 1) & (size - 1);
        table[at] = i + 1;
    }
    free(store->table);
    store->table = table;
    store->table_size = size;
    return 0;
}

/* Adds an entry (the first of a content hash wins: the file never holds two). */
static store_entry *add_entry(gm_summary_store *store, uint64_t content) {
    if (store->count == store->capacity) {
        size_t cap = store->capacity ? store->capacity * 2 : 256;
        store_entry *grown = realloc(store->entries, cap * sizeof *grown);
        if (!grown)
            return NULL;
        store->entries = grown;
        store->capacity = cap;
    }
    if (2 * (store->count + 1) > store->table_size && table_grow(store) != 0)
        return NULL;
    store_entry *e = &store->entries[store->count];
    memset(e, 0, sizeof *e);
    e->content = content;
    size_t mask = store->table_size - 1, at = (size_t)content & mask;
    while (store->table[at])
        at = (at + 1) & mask;
    store->table[at] = ++store->count;
    return e;
}

/* ---- file stamps ---- */

static uint64_t path_key(const char *path) {
    uint64_t h = gm_hash_words(path, strlen(path));
    return h ? h : 1;
}

static file_stamp *stamp_slot(gm_summary_store *store, uint64_t key) {
    if (!store->stamp_size)
        return NULL;
    size_t mask = store->stamp_size - 1, at = (size_t)key & mask;
    while (store->stamps[at].path && store->stamps[at].path != key)
        at = (at + 1) & mask;
    return &store->stamps[at];
}

static int stamps_grow(gm_summary_store *store) {
    size_t size = store->stamp_size ? store->stamp_size * 2 : 1024;
    file_stamp *stamps = calloc(size, sizeof *stamps);
    if (!stamps)
        return -1;
    for (size_t i = 0; i < store->stamp_size; i++) {
        if (!store->stamps[i].path)
            continue;
        size_t at = (size_t)store->stamps[i].path & (size - 1);
        while (stamps[at].path)
            at = (at + 1) & (size - 1);
        stamps[at] = store->stamps[i];
    }
    free(store->stamps);
    store->stamps = stamps;
    store->stamp_size = size;
    return 0;
}

static file_stamp *stamp_put(gm_summary_store *store, uint64_t key) {
    if (2 * (store->stamp_count + 1) > store->stamp_size && stamps_grow(store) != 0)
        return NULL;
    file_stamp *slot = stamp_slot(store, key);
    if (!slot->path) {
        slot->path = key;
        store->stamp_count++;
    }
    return slot;
}

static void stamp_fields(const file_stamp *st, uint64_t fields[STAMP_FIELDS]) {
    const uint64_t values[STAMP_FIELDS] = {st->path,
                                           st->device,
                                           st->inode,
                                           st->size,
                                           (uint64_t)st->modified_s,
                                           (uint64_t)st->modified_ns,
                                           (uint64_t)st->changed_s,
                                           (uint64_t)st->changed_ns,
                                           st->content};
    memcpy(fields, values, sizeof values);
}

static void stamp_of(const struct stat *info, file_stamp *st) {
    st->device = (uint64_t)info->st_dev;
    st->inode = (uint64_t)info->st_ino;
    st->size = (uint64_t)info->st_size;
    st->modified_s = (int64_t)info->st_mtim.tv_sec;
    st->modified_ns = (int64_t)info->st_mtim.tv_nsec;
    st->changed_s = (int64_t)info->st_ctim.tv_sec;
    st->changed_ns = (int64_t)info->st_ctim.tv_nsec;
}

static bool same_stamp(const file_stamp *a, const file_stamp *b) {
    return a->device == b->device && a->inode == b->inode && a->size == b->size &&
           a->modified_s == b->modified_s && a->modified_ns == b->modified_ns &&
           a->changed_s == b->changed_s && a->changed_ns == b->changed_ns;
}

/* The stamps after the entries: a count, the stamps, a checksum of both. Anything else there
 * (cut short, changed) drops them all: files are then read once more. */
static void load_stamps(gm_summary_store *store, const uint8_t *p, const uint8_t *end) {
    if ((size_t)(end - p) < 4 + 8) {
        store->dirty = true;
        return;
    }
    uint32_t count = read_u32(p);
    size_t bytes = 4 + (size_t)count * STAMP_BYTES;
    if ((size_t)(end - p) != bytes + 8 || read_u64(p + bytes) != gm_hash_words(p, bytes)) {
        store->dirty = true;
        return;
    }
    for (uint32_t i = 0; i < count; i++) {
        const uint8_t *at = p + 4 + (size_t)i * STAMP_BYTES;
        uint64_t key = read_u64(at);
        file_stamp *st = key ? stamp_put(store, key) : NULL;
        if (!st)
            continue;
        st->device = read_u64(at + 8);
        st->inode = read_u64(at + 16);
        st->size = read_u64(at + 24);
        st->modified_s = (int64_t)read_u64(at + 32);
        st->modified_ns = (int64_t)read_u64(at + 40);
        st->changed_s = (int64_t)read_u64(at + 48);
        st->changed_ns = (int64_t)read_u64(at + 56);
        st->content = read_u64(at + 64);
        st->seen = false;
    }
}

static bool memo_stamp_lookup(void *context, const char *path, const struct stat *info,
                              uint64_t *content) {
    gm_summary_store *store = context;
    file_stamp now;
    stamp_of(info, &now);
    file_stamp *st = stamp_slot(store, path_key(path));
    if (!st || !st->path || !same_stamp(st, &now))
        return false;
    st->seen = true;
    *content = st->content;
    return true;
}

static void memo_stamp_record(void *context, const char *path, const struct stat *info,
                              uint64_t content) {
    gm_summary_store *store = context;
    time_t now = time(NULL);
    if (now - info->st_mtim.tv_sec < STAMP_SETTLED_SECONDS ||
        now - info->st_ctim.tv_sec < STAMP_SETTLED_SECONDS)
        return;
    file_stamp *st = stamp_put(store, path_key(path));
    if (!st)
        return;
    file_stamp fresh = {.path = st->path, .content = content, .seen = true};
    stamp_of(info, &fresh);
    if (!same_stamp(st, &fresh) || st->content != content)
        store->dirty = true;
    *st = fresh;
}

/* ---- reading the file ---- */

static uint8_t *read_whole(const char *path, size_t *len) {
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat info;
    uint8_t *data = NULL;
    if (fstat(fd, &info) == 0 && S_ISREG(info.st_mode) && info.st_uid == geteuid() &&
        (size_t)info.st_size <= STORE_MAX_BYTES && info.st_size >= STORE_HEADER_SIZE &&
        (data = malloc((size_t)info.st_size))) {
        size_t got = 0;
        while (got < (size_t)info.st_size) {
            ssize_t n = read(fd, data + got, (size_t)info.st_size - got);
            if (n < 0 && errno == EINTR)
                continue;
            if (n <= 0)
                break;
            got += (size_t)n;
        }
        *len = got;
    }
    close(fd);
    return data;
}

/* Takes the file's entries as they are; a file of another format or key, or cut short, gives
 * what could be read before the fault (and the next save writes the file anew). */
static void load_entries(gm_summary_store *store) {
    store->file = read_whole(store->path, &store->file_len);
    const uint8_t *p = store->file, *end = p ? p + store->file_len : NULL;
    if (!p || store->file_len < STORE_HEADER_SIZE || memcmp(p, STORE_MAGIC, 8) != 0 ||
        read_u32(p + 8) != GM_SUMMARY_FORMAT || read_u64(p + 12) != store->key) {
        store->dirty = p != NULL; /* someone else's bytes in our file's place: replace them */
        return;
    }
    uint32_t count = read_u32(p + 20);
    p += STORE_HEADER_SIZE;
    for (uint32_t i = 0; i < count; i++) {
        if ((size_t)(end - p) < ENTRY_HEADER_SIZE ||
            (size_t)(end - p) - ENTRY_HEADER_SIZE < read_u32(p + 12)) {
            store->dirty = true;
            return;
        }
        uint64_t content = read_u64(p);
        size_t len = read_u32(p + 12);
        store_entry *e = find_entry(store, content) ? NULL : add_entry(store, content);
        if (e) {
            e->age = read_u32(p + 8);
            e->payload = p + ENTRY_HEADER_SIZE;
            e->len = len;
            /* the checksum is kept in the payload's place until the entry is first used */
            e->owned = NULL;
            store->stats.loaded++;
        }
        p += ENTRY_HEADER_SIZE + len;
    }
    load_stamps(store, p, end);
}

static bool entry_intact(const store_entry *e) {
    if (e->owned)
        return true;
    const uint8_t *header = e->payload - ENTRY_HEADER_SIZE;
    return read_u64(header + 16) == checksum(e->content, e->payload, e->len);
}

/* ---- the memo ---- */

static bool memo_lookup(void *context, uint64_t content, gm_module_summary *summary) {
    gm_summary_store *store = context;
    store_entry *e = find_entry(store, content);
    if (!e || e->rejected)
        return false;
    if (!entry_intact(e) || gm_summary_decode(e->payload, e->len, summary) != 0) {
        e->rejected = true;
        store->stats.rejected++;
        store->dirty = true;
        return false;
    }
    e->used = true;
    store->stats.hits++;
    return true;
}

static void memo_store(void *context, uint64_t content, const gm_module_summary *summary) {
    gm_summary_store *store = context;
    gm_byte_buffer encoded = {0};
    if (gm_summary_encode(summary, &encoded) != 0 || encoded.len > UINT32_MAX) {
        gm_byte_buffer_free(&encoded);
        return;
    }
    store_entry *e = find_entry(store, content);
    if (e && !e->rejected) { /* known already (two files with one text) */
        e->used = true;
        gm_byte_buffer_free(&encoded);
        return;
    }
    if (!e && !(e = add_entry(store, content))) {
        gm_byte_buffer_free(&encoded);
        return;
    }
    free(e->owned);
    e->owned = encoded.data;
    e->payload = encoded.data;
    e->len = encoded.len;
    e->rejected = false;
    e->used = true;
    e->age = 0;
    store->dirty = true;
    store->stats.stored++;
}

gm_summary_memo gm_summary_store_memo(gm_summary_store *store) {
    gm_summary_memo memo = {memo_lookup, memo_store, memo_stamp_lookup, memo_stamp_record, store};
    return memo;
}

gm_summary_store_stats gm_summary_store_statistics(const gm_summary_store *store) {
    return store->stats;
}

const char *gm_summary_store_path(const gm_summary_store *store) {
    return store->path;
}

/* ---- opening ---- */

static int write_small_file(const char *directory, const char *name, const char *text) {
    char path[PATH_MAX];
    if (snprintf(path, sizeof path, "%s/%s", directory, name) >= (int)sizeof path)
        return -1;
    int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0)
        return errno == EEXIST ? 0 : -1;
    size_t len = strlen(text);
    ssize_t n = write(fd, text, len);
    close(fd);
    return n == (ssize_t)len ? 0 : -1;
}

/* The directory, made when missing, with what keeps it out of git and of backups. */
static int prepare_directory(const char *directory) {
    struct stat info;
    if (lstat(directory, &info) != 0) {
        if (errno != ENOENT || gm_cache_make_directories(directory) != 0)
            return -1;
    } else if (!S_ISDIR(info.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    if (write_small_file(directory, ".gitignore", "# Automatically created by graphmend.\n*\n") !=
            0 ||
        write_small_file(directory, "CACHEDIR.TAG",
                         "Signature: 8a477f597d28d172789f06886806bc55\n"
                         "# This file is a cache directory tag created by graphmend.\n") != 0)
        return -1;
    return access(directory, W_OK | X_OK);
}

gm_summary_store *gm_summary_store_open(const char *cache_directory, const char *project_root,
                                        const gm_analysis_options *options) {
    gm_summary_store *store = calloc(1, sizeof *store);
    if (!store)
        return NULL;
    int w = cache_directory
                ? snprintf(store->directory, sizeof store->directory, "%s", cache_directory)
                : snprintf(store->directory, sizeof store->directory, "%s/%s", project_root,
                           GM_SUMMARY_CACHE_DIRECTORY);
    uint64_t key = gm_build_identity();
    uint32_t format = GM_SUMMARY_FORMAT;
    uint64_t digest = gm_analysis_options_digest(options);
    key = gm_hash_bytes(key, &format, sizeof format);
    key = gm_hash_bytes(key, &digest, sizeof digest);
    key = gm_hash_bytes(key, project_root, strlen(project_root) + 1);
    store->key = key;
    if (w <= 0 || (size_t)w >= sizeof store->directory ||
        snprintf(store->path, sizeof store->path, "%s/summaries-%016llx.bin", store->directory,
                 (unsigned long long)key) >= (int)sizeof store->path ||
        prepare_directory(store->directory) != 0) {
        free(store);
        return NULL;
    }
    load_entries(store);
    return store;
}

/* ---- saving ---- */

static bool kept(const store_entry *e) {
    return !e->rejected && (e->used || e->age + 1 < STORE_MAX_AGE);
}

static int write_all(int fd, const uint8_t *data, size_t len) {
    while (len > 0) {
        ssize_t n = write(fd, data, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        data += n;
        len -= (size_t)n;
    }
    return 0;
}

/* Other builds' and other options' files nobody has saved for an hour: an upgrade (or a
 * developer's every build) leaves one behind, each as large as the project's summaries. */
static void remove_stale_stores(const gm_summary_store *store) {
    DIR *dir = opendir(store->directory);
    if (!dir)
        return;
    time_t now = time(NULL);
    const char *own = strrchr(store->path, '/') + 1;
    for (struct dirent *ent; (ent = readdir(dir));) {
        size_t n = strlen(ent->d_name);
        if (strncmp(ent->d_name, "summaries-", 10) != 0 || n < 4 ||
            strcmp(ent->d_name + n - 4, ".bin") != 0 || strcmp(ent->d_name, own) == 0)
            continue;
        struct stat info;
        if (fstatat(dirfd(dir), ent->d_name, &info, AT_SYMLINK_NOFOLLOW) == 0 &&
            S_ISREG(info.st_mode) && now - info.st_mtime > STALE_STORE_SECONDS)
            unlinkat(dirfd(dir), ent->d_name, 0);
    }
    closedir(dir);
}

int gm_summary_store_save(gm_summary_store *store) {
    if (!store->dirty)
        return 0;
    gm_byte_buffer out = {0};
    uint8_t header[STORE_HEADER_SIZE];
    memcpy(header, STORE_MAGIC, 8);
    write_u32(header + 8, GM_SUMMARY_FORMAT);
    write_u64(header + 12, store->key);
    uint32_t count = 0;
    for (size_t i = 0; i < store->count; i++)
        count += kept(&store->entries[i]) && entry_intact(&store->entries[i]);
    write_u32(header + 20, count);
    int rc = gm_byte_buffer_append(&out, header, sizeof header);
    for (size_t i = 0; rc == 0 && i < store->count; i++) {
        const store_entry *e = &store->entries[i];
        if (!kept(e) || !entry_intact(e))
            continue;
        uint8_t entry[ENTRY_HEADER_SIZE];
        write_u64(entry, e->content);
        write_u32(entry + 8, e->used ? 0 : e->age + 1);
        write_u32(entry + 12, (uint32_t)e->len);
        write_u64(entry + 16, checksum(e->content, e->payload, e->len));
        rc = gm_byte_buffer_append(&out, entry, sizeof entry) ||
             gm_byte_buffer_append(&out, e->payload, e->len);
    }
    /* the stamps asked for or recorded this run, then others while there is room */
    uint32_t stamps = 0;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < store->stamp_size; i++) {
            file_stamp *st = &store->stamps[i];
            if (st->path && st->seen == (pass == 0) && stamps < STAMPS_KEPT_MAX)
                stamps++;
        }
    size_t section = out.len;
    uint8_t number[8];
    write_u32(number, stamps);
    rc = rc || gm_byte_buffer_append(&out, number, 4);
    uint32_t written = 0;
    for (int pass = 0; rc == 0 && pass < 2; pass++)
        for (size_t i = 0; rc == 0 && i < store->stamp_size && written < stamps; i++) {
            file_stamp *st = &store->stamps[i];
            if (!st->path || st->seen != (pass == 0))
                continue;
            uint64_t fields[STAMP_FIELDS];
            stamp_fields(st, fields);
            uint8_t bytes[STAMP_BYTES];
            for (int f = 0; f < STAMP_FIELDS; f++)
                write_u64(bytes + 8 * f, fields[f]);
            rc = gm_byte_buffer_append(&out, bytes, sizeof bytes);
            written++;
        }
    if (rc == 0) {
        write_u64(number, gm_hash_words(out.data + section, out.len - section));
        rc = gm_byte_buffer_append(&out, number, 8);
    }
    char temporary[PATH_MAX + 16];
    snprintf(temporary, sizeof temporary, "%s.XXXXXX", store->path);
    int fd = rc == 0 ? mkstemp(temporary) : -1;
    if (fd < 0) {
        int saved = rc == 0 ? errno : ENOMEM;
        gm_byte_buffer_free(&out);
        errno = saved;
        return -1;
    }
    rc = write_all(fd, out.data, out.len);
    rc |= close(fd);
    gm_byte_buffer_free(&out);
    if (rc != 0 || rename(temporary, store->path) != 0) {
        int saved = errno;
        unlink(temporary);
        errno = saved;
        return -1;
    }
    store->dirty = false;
    remove_stale_stores(store);
    return 0;
}

void gm_summary_store_free(gm_summary_store *store) {
    if (!store)
        return;
    for (size_t i = 0; i < store->count; i++)
        free(store->entries[i].owned);
    free(store->entries);
    free(store->table);
    free(store->stamps);
    free(store->file);
    free(store);
}
