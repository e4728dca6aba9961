/* Benchmark (not a test): the floor tree-sitter sets under a cold open. It parses a file whole
 * on one thread, then cut into as many parts as there are online CPUs, each part a string of its
 * own parsed on a thread of its own, and prints the median of REPS runs of each as one JSON
 * object per file on stdout. The cuts fall on lines that start a top-level `class`, `def` or
 * decorator after a blank line, near each 1/N of the file; finding them costs nothing here, so the split figure is
 * a lower bound for any design that still parses with tree-sitter. A part that does not parse
 * cleanly is counted in "parts_with_errors" (the figures then say less).
 *
 * usage: bench_parse_floor [--reps N] FILE... */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "analysis/syntax/python_parser.h"
#include "bench_files.h"

enum { max_parts = 64 };

typedef struct {
    const char *text;
    size_t len;
    double ms;
    bool error;
} part_job;

static double now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void *parse_part(void *payload) {
    part_job *job = payload;
    TSParser *parser = gm_python_parser_new(0);
    double started = now_ms();
    TSTree *tree = parser ? gm_python_parse(parser, NULL, job->text, job->len) : NULL;
    job->ms = now_ms() - started;
    job->error = !tree || ts_node_has_error(ts_tree_root_node(tree));
    if (tree)
        gm_tree_delete(tree);
    if (parser)
        ts_parser_delete(parser);
    return NULL;
}

static bool starts_top_level_definition(const char *line, const char *end) {
    static const char *const heads[] = {"class ", "def ", "async def ", "@"};
    for (size_t i = 0; i < sizeof heads / sizeof heads[0]; i++) {
        size_t n = strlen(heads[i]);
        if ((size_t)(end - line) >= n && memcmp(line, heads[i], n) == 0)
            return true;
    }
    return false;
}

/* The offset of the first line after at that starts a top-level definition and follows a blank
 * line (so that no decorator is cut from its definition), or len. */
static size_t next_cut(const char *text, size_t len, size_t at) {
    const char *end = text + len;
    const char *p = at < len ? memchr(text + at, '\n', len - at) : NULL;
    while (p && p + 1 < end) {
        const char *line = p + 1;
        if (p > text && p[-1] == '\n' && starts_top_level_definition(line, end))
            return (size_t)(line - text);
        p = memchr(line, '\n', (size_t)(end - line));
    }
    return len;
}

static int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}


static int bench_file(const char *path, int reps, int parts) {
    size_t len = 0;
    char *text = bench_read_file(path, &len);
    if (!text) {
        fprintf(stderr, "bench_parse_floor: cannot read %s\n", path);
        return 1;
    }
    size_t lines = 0;
    for (size_t i = 0; i < len; i++)
        lines += text[i] == '\n';
    part_job jobs[max_parts];
    int count = 0;
    size_t from = 0;
    for (int i = 0; i < parts && from < len; i++) {
        size_t to = i == parts - 1 ? len : next_cut(text, len, len * (size_t)(i + 1) / (size_t)parts);
        if (to <= from)
            continue;
        jobs[count++] = (part_job){text + from, to - from, 0, false};
        from = to;
    }
    double *whole = calloc((size_t)reps, sizeof *whole);
    double *split = calloc((size_t)reps, sizeof *split);
    if (!whole || !split) {
        free(whole);
        free(split);
        free(text);
        return 1;
    }
    int parts_with_errors = 0;
    bool whole_error = false;
    for (int r = 0; r < reps; r++) {
        part_job all = {text, len, 0, false};
        parse_part(&all);
        whole[r] = all.ms;
        whole_error |= all.error;
        pthread_t threads[max_parts];
        double started = now_ms();
        int started_count = 0;
        for (int i = 0; i < count; i++)
            if (pthread_create(&threads[i], NULL, parse_part, &jobs[i]) == 0)
                started_count = i + 1;
            else
                parse_part(&jobs[i]);
        for (int i = 0; i < started_count; i++)
            pthread_join(threads[i], NULL);
        split[r] = now_ms() - started;
        parts_with_errors = 0;
        for (int i = 0; i < count; i++)
            parts_with_errors += jobs[i].error;
    }
    qsort(whole, (size_t)reps, sizeof *whole, cmp_double);
    qsort(split, (size_t)reps, sizeof *split, cmp_double);
    printf("{\"file\": \"%s\", \"lines\": %zu, \"bytes\": %zu, \"reps\": %d, \"whole_ms\": %.1f, "
           "\"whole_has_error\": %s, \"parts\": %d, \"split_ms\": %.1f, \"parts_with_errors\": %d}\n",
           path, lines, len, reps, whole[reps / 2], whole_error ? "true" : "false", count,
           split[reps / 2], parts_with_errors);
    fflush(stdout);
    free(whole);
    free(split);
    free(text);
    return 0;
}

int main(int argc, char **argv) {
    int reps = 3, first = 1;
    if (argc > 2 && strcmp(argv[1], "--reps") == 0) {
        reps = atoi(argv[2]);
        first = 3;
    }
    if (reps < 1 || first >= argc) {
        fprintf(stderr, "usage: bench_parse_floor [--reps N] FILE...\n");
        return 2;
    }
    long cpus = sysconf(_SC_NPROCESSORS_ONLN);
    int parts = cpus < 1 ? 1 : cpus > max_parts ? max_parts : (int)cpus;
    int status = 0;
    for (int i = first; i < argc; i++)
        status |= bench_file(argv[i], reps, parts);
    return status;
}
