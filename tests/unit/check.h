/* Minimal assertion helpers for graphmend's C unit tests (run by `meson test`). A failed CHECK
 * prints the location and the expression and marks the test failed; main returns
 * check_exit_code(). */
#ifndef GM_TESTS_CHECK_H
#define GM_TESTS_CHECK_H

#include <stdio.h>
#include <string.h>

static int check_failures;
static int check_count;

#define CHECK(expr)                                                                                \
    do {                                                                                           \
        check_count++;                                                                             \
        if (!(expr)) {                                                                             \
            check_failures++;                                                                      \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #expr);               \
        }                                                                                          \
    } while (0)

#define CHECK_EQ_INT(actual, expected)                                                             \
    do {                                                                                           \
        long long check_a_ = (long long)(actual), check_e_ = (long long)(expected);                \
        check_count++;                                                                             \
        if (check_a_ != check_e_) {                                                                \
            check_failures++;                                                                      \
            fprintf(stderr, "%s:%d: %s == %lld, expected %lld\n", __FILE__, __LINE__, #actual,     \
                    check_a_, check_e_);                                                           \
        }                                                                                          \
    } while (0)

#define CHECK_EQ_STR(actual, expected)                                                             \
    do {                                                                                           \
        const char *check_a_ = (actual), *check_e_ = (expected);                                   \
        check_count++;                                                                             \
        if (!check_a_ || !check_e_ || strcmp(check_a_, check_e_) != 0) {                           \
            check_failures++;                                                                      \
            fprintf(stderr, "%s:%d: %s == \"%s\", expected \"%s\"\n", __FILE__, __LINE__, #actual, \
                    check_a_ ? check_a_ : "(null)", check_e_ ? check_e_ : "(null)");               \
        }                                                                                          \
    } while (0)

static inline int check_exit_code(const char *name) {
    fprintf(stderr, "%s: %d checks, %d failed\n", name, check_count, check_failures);
    return check_failures == 0 ? 0 : 1;
}

#endif
