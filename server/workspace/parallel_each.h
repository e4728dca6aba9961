/* Runs independent per-file work on every core: `check` parses and analyses each file on its
 * own (parsers, analyzers and the analysis caches are per thread), so files are handed out to
 * worker threads one at a time, and the caller reads the results in file order afterwards. */
#ifndef GM_SERVER_WORKSPACE_PARALLEL_EACH_H
#define GM_SERVER_WORKSPACE_PARALLEL_EACH_H

#include <stddef.h>

/* How many threads to use: GRAPHMEND_JOBS when set to a positive number, else the online CPUs. */
unsigned gm_parallel_threads(void);

/* Calls work(context, i) once for each i in [0, count), on up to threads threads (the calling
 * one among them), and returns when all calls are done. When no thread can be started the
 * calling thread does all the work. */
void gm_parallel_each(size_t count, unsigned threads, void (*work)(void *context, size_t index),
                      void *context);

/* gm_parallel_each on gm_parallel_threads() threads, in the shape of the analyzer's
 * gm_each_runner (gm_analyzer_set_parallel; unused is ignored): one file's statements on every
 * core. Not for an analyzer that already runs on one of several file workers. */
void gm_parallel_each_on_every_core(void *unused, size_t count,
                                    void (*work)(void *context, size_t index), void *context);

#endif
