#include "server/packages/mend_cache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/module_facts/symbols.h"
#include "server/workspace/cache_directory.h"

static const char *const subdirectories[] = {"manifests", "mended", "maps"};

int gm_mend_cache_root(char *root, size_t cap, char *error, size_t error_size) {
    if (gm_cache_directory(root, cap) != 0) {
        snprintf(error, error_size,
                 "no cache directory: none of $GRAPHMEND_CACHE_DIR, $XDG_CACHE_HOME or $HOME is "
                 "set (or the path is too long)");
        return -1;
    }
    if (strlen(root) + 16 >= cap) {
        snprintf(error, error_size, "the cache directory's path is too long");
        return -1;
    }
    for (size_t i = 0; i < sizeof subdirectories / sizeof subdirectories[0]; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", root, subdirectories[i]);
        if (gm_cache_make_directories(path) != 0) {
            snprintf(error, error_size, "cannot make the cache directory %s: %s", path,
                     strerror(errno));
            return -1;
        }
    }
    return 0;
}

static uint64_t hash_text(uint64_t hash, const char *text) {
    return gm_hash_bytes(hash, text, strlen(text) + 1); /* the NUL keeps "ab","c" from "a","bc" */
}

static uint64_t hash_int(uint64_t hash, long long value) {
    char text[32];
    snprintf(text, sizeof text, "%lld", value);
    return hash_text(hash, text);
}

static uint64_t hash_names(uint64_t hash, const char (*items)[GM_FUNCTION_NAME_SIZE],
                           size_t count) {
    hash = hash_int(hash, (long long)count);
    for (size_t i = 0; i < count; i++) {
        hash = hash_text(hash, items[i]);
    }
    return hash;
}

static uint64_t hash_selectors(uint64_t hash, const gm_rule_selectors *selectors) {
    hash = hash_int(hash, (long long)selectors->count);
    for (size_t i = 0; i < selectors->count; i++) {
        hash = hash_text(hash, selectors->items[i]);
    }
    return hash;
}

uint64_t gm_mend_settings_key(const gm_analysis_options *options) {
    /* field by field, never the struct's bytes: padding and unused array slots are not settings */
    uint64_t hash = hash_text(GM_HASH_INIT, "graphmend " GM_VERSION);
    const long long values[] = {
        options->forward_is_compiled,
        options->training,
        options->report_syntax_errors,
        options->torch_version,
        options->python_version,
        options->capture_scalar_outputs,
        options->capture_dynamic_output_shape_ops,
        options->allow_rnn,
        options->fullgraph,
        options->nested_graph_breaks,
        options->unsafe_fixes,
    };
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
        hash = hash_int(hash, values[i]);
    }
    hash = hash_names(hash, options->reorderable_logging_functions.items,
                      options->reorderable_logging_functions.count);
    hash = hash_names(hash, options->ignore_logging_functions.items,
                      options->ignore_logging_functions.count);
    hash = hash_selectors(hash, &options->select);
    return hash_selectors(hash, &options->ignore);
}

void gm_cache_key_text(uint64_t key, char text[GM_CACHE_KEY_SIZE]) {
    snprintf(text, GM_CACHE_KEY_SIZE, "%016llx", (unsigned long long)key);
}

int gm_cache_write(const char *path, const char *data, size_t len) {
    char temporary[4200];
    int n = snprintf(temporary, sizeof temporary, "%s.XXXXXX", path);
    if (n < 0 || (size_t)n >= sizeof temporary) {
        errno = ENAMETOOLONG;
        return -1;
    }
    int fd = mkstemp(temporary);
    if (fd < 0) {
        return -1;
    }
    size_t done = 0;
    while (done < len) {
        ssize_t wrote = write(fd, data + done, len - done);
        if (wrote < 0 && errno == EINTR) {
            continue;
        }
        if (wrote <= 0) {
            int saved = wrote < 0 ? errno : EIO;
            close(fd);
            unlink(temporary);
            errno = saved;
            return -1;
        }
        done += (size_t)wrote;
    }
    int mode_rc = fchmod(fd, 0600);
    int saved = errno;
    if (close(fd) != 0 && mode_rc == 0) {
        mode_rc = -1;
        saved = errno;
    }
    if (mode_rc != 0 || rename(temporary, path) != 0) {
        saved = mode_rc != 0 ? saved : errno;
        unlink(temporary);
        errno = saved;
        return -1;
    }
    return 0;
}

bool gm_cache_has(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

uint64_t gm_cache_content_digest(const char *data, size_t len) {
    return gm_hash_bytes(hash_int(GM_HASH_INIT, (long long)len), data, len);
}

bool gm_cache_entry_is_intact(const char *path, size_t len, uint64_t digest) {
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0)
        return false;
    struct stat st;
    bool intact = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid() &&
                  (st.st_mode & (S_IWGRP | S_IWOTH)) == 0 && (size_t)st.st_size == len;
    char *data = intact ? malloc(len + 1) : NULL;
    size_t done = 0;
    while (data && done < len) {
        ssize_t got = read(fd, data + done, len - done);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        done += (size_t)got;
    }
    intact = data && done == len && gm_cache_content_digest(data, len) == digest;
    free(data);
    close(fd);
    return intact;
}
