/* Where a run keeps its module summaries between runs (server/workspace/summary_store.h): the
 * directory the user names (`--cache-dir`), else cache-dir of [tool.graphmend] in the
 * pyproject.toml nearest the file (relative to that file's directory unless absolute), else
 * .graphmend_cache in the project. */
#ifndef GM_SERVER_CONFIG_SUMMARY_CACHE_H
#define GM_SERVER_CONFIG_SUMMARY_CACHE_H

#include "analysis/options/analysis_options.h"
#include "server/workspace/summary_store.h"

/* The store for the project at project_root that file belongs to, for summaries made with
 * options; directory: the command line's, or NULL. NULL when it cannot be opened (the run then
 * goes without one). */
gm_summary_store *gm_project_summary_store(const char *file, const char *project_root,
                                           const char *directory,
                                           const gm_analysis_options *options);

#endif
