/* What the benchmarks share for reading their input files. */
#ifndef GM_TESTS_BENCH_BENCH_FILES_H
#define GM_TESTS_BENCH_BENCH_FILES_H

#include <stddef.h>

/* The whole file at path, NUL-terminated (its length in *len); NULL when it cannot be opened
 * or read, or on OOM (errno tells which, where the C library set it). The caller frees it. */
char *bench_read_file(const char *path, size_t *len);

#endif
