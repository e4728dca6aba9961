/* Writing JSON text directly into a growable buffer, for the hot path (publishDiagnostics on every
 * keystroke) where building jansson values and dumping them costs more than the analysis. */
#ifndef GM_PROTOCOL_JSON_WRITER_H
#define GM_PROTOCOL_JSON_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    char *data; /* owned; NUL-terminated while not failed */
    size_t len;
    size_t capacity;
    bool failed; /* an allocation failed: the content is incomplete */
} gm_json_writer;

void gm_json_writer_init(gm_json_writer *writer);
void gm_json_writer_free(gm_json_writer *writer);
void gm_json_writer_reset(gm_json_writer *writer); /* keeps the allocation */

/* Appends bytes as they are (the caller guarantees they are valid JSON text). */
void gm_json_raw(gm_json_writer *writer, const char *text, size_t len);
void gm_json_raw_str(gm_json_writer *writer, const char *text);
/* Appends a JSON string literal: quotes, with escapes for '"', '\\' and control characters.
 * Invalid UTF-8 is replaced by U+FFFD so the output is always valid JSON. */
void gm_json_string(gm_json_writer *writer, const char *text, size_t len);
void gm_json_int(gm_json_writer *writer, int64_t value);

#endif
