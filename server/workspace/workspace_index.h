/* The Python modules of a workspace, by file: each file's module name (from the packages around
 * it), and its summary, from disk or from the editor's buffer. It answers which functions of a
 * file compiled code of other files calls (analysis/module_facts/workspace_graph.h), for the LSP
 * server and for `graphmend check`/`fix`. */
#ifndef GM_SERVER_WORKSPACE_WORKSPACE_INDEX_H
#define GM_SERVER_WORKSPACE_WORKSPACE_INDEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "analysis/module_facts/module_summary.h"
#include "analysis/options/analysis_options.h"

typedef struct gm_workspace_index gm_workspace_index;

gm_workspace_index *gm_workspace_index_new(void); /* NULL on OOM */
void gm_workspace_index_free(gm_workspace_index *index);

/* The module a file is: "pkg.sub.mod" for pkg/sub/mod.py inside packages (directories with
 * __init__.py), "mod" for a file outside any package; *is_package for an __init__.py. *root gets
 * the directory absolute imports start from (malloc'ed). Returns 0, or -1 for a path that is not
 * a .py file or a name that does not fit. */
int gm_module_name_for_path(const char *path, char *name, size_t cap, bool *is_package,
                            char **root);

/* The project a path belongs to: the nearest directory at or above it with a pyproject.toml,
 * setup.py, setup.cfg or .git. Returns 0, or -1 when there is none. */
int gm_project_root_for_path(const char *path, char *root, size_t cap);

typedef struct {
    size_t files;   /* summarised */
    size_t failed;  /* unreadable or unparsable */
    bool truncated; /* more files than the limit */
} gm_workspace_scan_stats;

/* Summarises the .py files under directory root (hidden directories, caches and virtual
 * environments skipped) that the index does not know yet, up to max_files in all. Returns 0, or
 * -1 on OOM. */
int gm_workspace_index_scan(gm_workspace_index *index, const char *root,
                            const gm_analysis_options *options, size_t max_files,
                            gm_workspace_scan_stats *stats);

/* Summarises the file at path from disk unless the index knows it. Returns 0, or -1 when it
 * cannot be read or parsed. */
int gm_workspace_index_add_file(gm_workspace_index *index, const char *path,
                                const gm_analysis_options *options);

/* Summaries kept between indexes by the content they were made of (an installed package's
 * files, summarised once for every model of it): lookup fills summary with a copy and returns
 * true when a summary of content_hash is known; store keeps a copy. */
typedef struct {
    bool (*lookup)(void *context, uint64_t content_hash, gm_module_summary *summary);
    void (*store)(void *context, uint64_t content_hash, const gm_module_summary *summary);
    /* Optional (NULL: every file is read and hashed): the content hash recorded for the file
     * at path (resolved) when info, its stat, is the one recorded with it (device, inode, size,
     * modification and change times); record keeps one, for a file read after that stat. */
    bool (*stamp_lookup)(void *context, const char *path, const struct stat *info,
                         uint64_t *content_hash);
    void (*stamp_record)(void *context, const char *path, const struct stat *info,
                         uint64_t content_hash);
    void *context;
} gm_summary_memo;

/* The index summarises files from disk through memo from now on (copied; NULL: none). The memo
 * must hold summaries made with the options the index is given. */
void gm_workspace_index_set_memo(gm_workspace_index *index, const gm_summary_memo *memo);

/* Makes the index one of an installed package's files wherever it lies (pip --target, a
 * PYTHONPATH directory): gm_workspace_index_load_imports then follows a file's imports only
 * into its own top-level package, as it does for files under site-packages. */
void gm_workspace_index_keep_to_package(gm_workspace_index *index);

/* Adds the workspace files that known modules import (found under their import roots),
 * transitively, until max_files are known. Returns 0, or -1 on OOM. */
int gm_workspace_index_load_imports(gm_workspace_index *index, const gm_analysis_options *options,
                                    size_t max_files);

/* Replaces the summary of path (an open document's, from its analyzer), taking what summary
 * owns. Returns 1 when it changed what the index knew, 0 when not, -1 on error. */
int gm_workspace_index_update(gm_workspace_index *index, const char *path,
                              gm_module_summary *summary);

/* Compiles a model of class cls, defined in the known file path, as `torch.compile(model)` in
 * another file does: the forward of cls and of every class its path is built of
 * (gm_workspace_graph_model_classes) become what the next solve starts from; with member
 * (`torch.compile(model.generate)`: "generate", or NULL), cls's method too. Returns how many
 * classes, 0 when path defines no class cls, -1 when path is unknown or on OOM. */
int gm_workspace_index_compile_model(gm_workspace_index *index, const char *path, const char *cls,
                                     const char *member);

/* Compiles the function of that name defined at the top level of the known file path, as
 * `torch.compile(solve)` in another file does: it is what the next solve starts from. Returns
 * 0, or -1 when path is unknown or on OOM. */
int gm_workspace_index_compile_function(gm_workspace_index *index, const char *path,
                                        const char *function);

/* Makes the known files under directory part of a library being checked: their public
 * functions and methods are entry points a user may compile (gm_workspace_graph_set_library),
 * from the next solve on. Returns how many files it marked. */
size_t gm_workspace_index_mark_library(gm_workspace_index *index, const char *directory);

/* Follows compiled code across all known modules. Returns 0, or -1 on OOM. */
int gm_workspace_index_solve(gm_workspace_index *index);

/* The functions of path that compiled code in other files calls, after the last solve, and a
 * digest of them (0: none). */
const char *const *gm_workspace_index_roots(const gm_workspace_index *index, const char *path,
                                            size_t *count, uint64_t *digest);

size_t gm_workspace_index_file_count(const gm_workspace_index *index);
/* The path (resolved) of the i-th file the index knows, in the order they were added; NULL past
 * the end. */
const char *gm_workspace_index_file_path(const gm_workspace_index *index, size_t i);

#endif
