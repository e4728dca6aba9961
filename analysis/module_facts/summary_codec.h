/* Module summaries as bytes, for the cache that keeps them between runs
 * (server/workspace/summary_store.h): a summary encoded and decoded again is equal to it, digest
 * included. Decoding checks every length, count and index against the bytes it is given, so
 * bytes that are not an encoded summary (a truncated or corrupted cache entry) give an error,
 * never a summary that points outside its own arrays. */
#ifndef GM_ANALYSIS_MODULE_FACTS_SUMMARY_CODEC_H
#define GM_ANALYSIS_MODULE_FACTS_SUMMARY_CODEC_H

#include <stddef.h>
#include <stdint.h>

#include "analysis/module_facts/module_summary.h"

/* Bumped whenever the encoding or the meaning of a summary's fields changes: entries of
 * another format are never decoded. */
#define GM_SUMMARY_FORMAT 2u

typedef struct {
    uint8_t *data;
    size_t len, cap;
} gm_byte_buffer;

void gm_byte_buffer_free(gm_byte_buffer *buffer);

/* Appends len bytes. Returns 0, or -1 on OOM (the buffer keeps what it had). */
int gm_byte_buffer_append(gm_byte_buffer *buffer, const void *data, size_t len);

/* Appends the encoding of summary to out. Returns 0, or -1 on OOM (out may then hold part of
 * it: callers drop the buffer). */
int gm_summary_encode(const gm_module_summary *summary, gm_byte_buffer *out);

/* Decodes exactly len bytes into summary (overwritten). Returns 0, or -1 when the bytes are
 * not one encoded summary or on OOM (nothing to free then). */
int gm_summary_decode(const uint8_t *data, size_t len, gm_module_summary *summary);

#endif
