/* graphmend's cache of mended package modules, under the user's cache directory
 * (server/workspace/cache_directory.h: $GRAPHMEND_CACHE_DIR, $XDG_CACHE_HOME/graphmend or
 * ~/.cache/graphmend): the files it holds are named by keys that take in everything that changes a mend (the source, graphmend's version, the settings), so an
 * entry never goes stale and runs at the same time can share it. */
#ifndef GM_SERVER_PACKAGES_MEND_CACHE_H
#define GM_SERVER_PACKAGES_MEND_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/options/analysis_options.h"

/* Hex digits of a key, with the NUL. */
#define GM_CACHE_KEY_SIZE 17

/* The cache directory, made when missing (with the subdirectories manifests/, mended/, maps/).
 * Returns 0, or -1 with why in error. */
int gm_mend_cache_root(char *root, size_t cap, char *error, size_t error_size);

/* A key of graphmend's version and every option that changes what a mend writes (the fix
 * level among them). */
uint64_t gm_mend_settings_key(const gm_analysis_options *options);

/* 16 hex digits of key into text. */
void gm_cache_key_text(uint64_t key, char text[GM_CACHE_KEY_SIZE]);

/* Writes data to path whole or not at all (a temporary file beside it, then rename): a reader
 * never sees half an entry. Returns 0, or -1 with errno set. */
int gm_cache_write(const char *path, const char *data, size_t len);

/* Whether path names a file that exists. */
bool gm_cache_has(const char *path);

/* A digest of a cached copy's content, recorded beside it when it is written. */
uint64_t gm_cache_content_digest(const char *data, size_t len);

/* Whether path is the entry that was written: a regular file reached without following a
 * symbolic link (O_NOFOLLOW), owned by this user and writable by no one else, of len bytes
 * whose digest is digest. Anything else (replaced by a link, cut short, edited, another
 * owner's) is a bad entry, never to be used: the caller rebuilds it. */
bool gm_cache_entry_is_intact(const char *path, size_t len, uint64_t digest);

#endif
