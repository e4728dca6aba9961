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

#endif
