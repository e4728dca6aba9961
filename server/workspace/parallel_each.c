#include "server/workspace/parallel_each.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>
#include <uv.h>

#define GM_MAX_THREADS 64

unsigned gm_parallel_threads(void) {
    const char *jobs = getenv("GRAPHMEND_JOBS");
    if (jobs && *jobs) {
        char *end;
        long n = strtol(jobs, &end, 10);
        if (*end == '\0' && n > 0)
            return n > GM_MAX_THREADS ? GM_MAX_THREADS : (unsigned)n;
    }
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    if (online < 1)
        return 1;
    return online > GM_MAX_THREADS ? GM_MAX_THREADS : (unsigned)online;
}

typedef struct {
    atomic_size_t next;
    size_t count;
    void (*work)(void *context, size_t index);
    void *context;
} shared_queue;

static void drain(void *arg) {
    shared_queue *queue = arg;
    for (;;) {
        size_t i = atomic_fetch_add_explicit(&queue->next, 1, memory_order_relaxed);
        if (i >= queue->count)
            return;
        queue->work(queue->context, i);
    }
}

void gm_parallel_each(size_t count, unsigned threads, void (*work)(void *context, size_t index),
                      void *context) {
    shared_queue queue = {.count = count, .work = work, .context = context};
    atomic_init(&queue.next, 0);
    if (threads > count)
        threads = (unsigned)count;
    uv_thread_t helpers[GM_MAX_THREADS];
    unsigned started = 0;
    for (unsigned t = 1; t < threads && t < GM_MAX_THREADS; t++) {
        if (uv_thread_create(&helpers[started], drain, &queue) != 0)
            break; /* the threads that did start, and this one, share the rest */
        started++;
    }
    drain(&queue);
    for (unsigned t = 0; t < started; t++)
        uv_thread_join(&helpers[t]);
}

void gm_parallel_each_on_every_core(void *unused, size_t count,
                                    void (*work)(void *context, size_t index), void *context) {
    (void)unused;
    gm_parallel_each(count, gm_parallel_threads(), work, context);
}
