/* The JSON text writer: every output must load with jansson and give back the input (valid UTF-8)
 * or the input with invalid bytes replaced by U+FFFD. */
#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "protocol/json_writer.h"

static uint64_t rng = 88172645463325252ull;
static uint32_t next_random(void) {
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (uint32_t)rng;
}

static void check_round_trip(const char *text, size_t len, const char *expected) {
    gm_json_writer writer;
    gm_json_writer_init(&writer);
    gm_json_string(&writer, text, len);
    CHECK(!writer.failed);
    json_error_t error;
    json_t *value = json_loadb(writer.data, writer.len, JSON_DECODE_ANY | JSON_ALLOW_NUL, &error);
    CHECK(json_is_string(value));
    if (json_is_string(value) && expected) {
        CHECK(json_string_length(value) == strlen(expected) &&
              memcmp(json_string_value(value), expected, strlen(expected)) == 0);
    }
    json_decref(value);
    gm_json_writer_free(&writer);
}

int main(void) {
    check_round_trip("plain", 5, "plain");
    check_round_trip("quote \" backslash \\ newline \n tab \t bell \a", 42,
                     "quote \" backslash \\ newline \n tab \t bell \a");
    check_round_trip("é€😀", strlen("é€😀"), "é€😀");
    check_round_trip("a\xFF"
                     "b",
                     3,
                     "a\xEF\xBF\xBD"
                     "b");                                                       /* invalid byte */
    check_round_trip("\xED\xA0\x80", 3, "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"); /* surrogate */
    check_round_trip("\xF0\x9F", 2, "\xEF\xBF\xBD\xEF\xBF\xBD");                 /* truncated */
    /* Random bytes: the output always parses. */
    for (int round = 0; round < 5000; round++) {
        char text[64];
        size_t len = next_random() % sizeof text;
        for (size_t i = 0; i < len; i++) {
            text[i] = (char)next_random();
        }
        check_round_trip(text, len, NULL);
    }
    gm_json_writer writer;
    gm_json_writer_init(&writer);
    gm_json_raw_str(&writer, "[");
    gm_json_int(&writer, -42);
    gm_json_raw_str(&writer, ",");
    gm_json_int(&writer, INT64_MAX);
    gm_json_raw_str(&writer, "]");
    CHECK_EQ_STR(writer.data, "[-42,9223372036854775807]");
    /* The digits are snprintf's "%lld" for every value, the extremes and zero included. */
    int64_t samples[] = {0, 1, -1, 9, 10, -10, 99, 100, 12345, INT64_MAX, INT64_MIN, INT64_MIN + 1};
    for (size_t i = 0; i < sizeof samples / sizeof samples[0] + 5000; i++) {
        int64_t value = i < sizeof samples / sizeof samples[0]
                            ? samples[i]
                            : (int64_t)(((uint64_t)next_random() << 32) ^ next_random()) >>
                                  (next_random() % 64);
        char expected[32];
        snprintf(expected, sizeof expected, "%lld", (long long)value);
        gm_json_writer_reset(&writer);
        gm_json_int(&writer, value);
        CHECK_EQ_STR(writer.data, expected);
    }
    gm_json_writer_free(&writer);
    return check_exit_code("protocol/json_writer");
}
