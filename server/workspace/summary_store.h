/* The module summaries of a project kept between runs, as ruff keeps .ruff_cache: one file per
 * project, build of graphmend and analysis options, under the cache directory
 * (<project>/.graphmend_cache unless the user names another), entries keyed by the content of
 * the source they were made of. The index reads a file, hashes it and asks the store
 * (gm_summary_memo) before parsing it.
 *
 * Never trusted: each entry carries a checksum of its bytes and decodes only when every count
 * and index in it fits (summary_codec.h); an entry that fails either is dropped and the source
 * summarised again. Saving writes a new file beside the old one and renames it over, so a
 * concurrent run reads either file whole, never half of one; the last to save wins. */
#ifndef GM_SERVER_WORKSPACE_SUMMARY_STORE_H
#define GM_SERVER_WORKSPACE_SUMMARY_STORE_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/options/analysis_options.h"
#include "server/workspace/workspace_index.h"

#define GM_SUMMARY_CACHE_DIRECTORY ".graphmend_cache"

typedef struct gm_summary_store gm_summary_store;

/* The store of project_root's summaries made with options, in cache_directory (NULL:
 * <project_root>/.graphmend_cache), made when missing with a .gitignore that keeps it out of
 * git and a CACHEDIR.TAG. NULL when the directory cannot be made or written (a read-only
 * checkout): the run then goes without a cache. */
gm_summary_store *gm_summary_store_open(const char *cache_directory, const char *project_root,
                                        const gm_analysis_options *options);

/* The memo an index summarises through with this store (gm_workspace_index_set_memo). */
gm_summary_memo gm_summary_store_memo(gm_summary_store *store);

typedef struct {
    size_t loaded;   /* entries read from the file */
    size_t hits;     /* lookups answered */
    size_t stored;   /* summaries added this run */
    size_t rejected; /* entries dropped: bad checksum or undecodable */
} gm_summary_store_stats;

gm_summary_store_stats gm_summary_store_statistics(const gm_summary_store *store);

/* The path of the store's file. */
const char *gm_summary_store_path(const gm_summary_store *store);

/* Writes the store when this run added or dropped entries: the entries it used and those unused
 * in fewer than a few saves (a file edited back and forth), atomically. Returns 0, or -1 with
 * errno set (the old file is then left as it was). */
int gm_summary_store_save(gm_summary_store *store);

void gm_summary_store_free(gm_summary_store *store);

#endif
