/* A gm_each_runner on real threads for the analysis tests and tools (analysis/ itself starts
 * none): threads take the next index from a shared counter, as server/workspace/parallel_each.c
 * does. With reversed set, the indices are handed out from the last to the first, so that a
 * job's results land in its own slot only if the analyzer puts them there by index, not in the
 * order the jobs ran or finished. */
#ifndef GM_TESTS_THREAD_RUNNER_H
#define GM_TESTS_THREAD_RUNNER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct {
    unsigned threads;
    bool reversed;
    size_t calls;  /* how many times the analyzer used the runner */
    size_t jobs;   /* how many jobs it was given, over those calls */
    bool started;  /* every helper thread of the last call started */
} tr_runner;

typedef struct {
    atomic_size_t next;
    size_t count;
    bool reversed;
    void (*work)(void *context, size_t index);
    void *context;
} tr_queue;

static void *tr_drain(void *arg) {
    tr_queue *q = arg;
    for (;;) {
        size_t i = atomic_fetch_add(&q->next, 1);
        if (i >= q->count)
            return NULL;
        q->work(q->context, q->reversed ? q->count - 1 - i : i);
    }
}

static inline void tr_run_each(void *runner_context, size_t count,
                               void (*work)(void *context, size_t index), void *context) {
    tr_runner *runner = runner_context;
    tr_queue q = {.count = count, .reversed = runner->reversed, .work = work, .context = context};
    atomic_init(&q.next, 0);
    pthread_t helpers[16];
    unsigned started = 0;
    runner->calls++;
    runner->jobs += count;
    runner->started = true;
    for (unsigned t = 1; t < runner->threads && t < 16; t++) {
        if (pthread_create(&helpers[started], NULL, tr_drain, &q) != 0) {
            runner->started = false;
            break;
        }
        started++;
    }
    tr_drain(&q);
    for (unsigned t = 0; t < started; t++)
        pthread_join(helpers[t], NULL);
}

#endif
