/* Content-Length framing of LSP messages (base protocol).
 *
 * A gm_frame_reader accepts bytes in arbitrary chunks (partial and coalesced reads) and yields
 * complete message bodies. Header names are matched case-insensitively, in any order; only
 * Content-Length is required, Content-Type is accepted and ignored. Bodies larger than the
 * reader's cap are skipped without being buffered and reported as an error, after which the
 * reader resynchronises on the next header block. A line of a header block that is no
 * "Name: value" header (a body sent without the blank line before it) is reported, and the
 * reader resynchronises on the next "Content-Length" from that line on. */
#ifndef GM_PROTOCOL_FRAMING_H
#define GM_PROTOCOL_FRAMING_H

#include <stddef.h>

typedef struct gm_frame_reader gm_frame_reader;

typedef enum {
    GM_FRAME_NEED_MORE = 0, /* no complete message buffered yet */
    GM_FRAME_MESSAGE = 1,   /* *body / *body_len hold one complete body */
    GM_FRAME_ERROR = 2,     /* a malformed header block or an oversized body was dropped */
} gm_frame_status;

/* Default cap on one message body: 64 MiB. */
#define GM_FRAME_DEFAULT_MAX_BODY ((size_t)64 * 1024 * 1024)

/* Returns a new reader (owned by the caller; free with gm_frame_reader_free), or NULL on OOM.
 * max_body 0 means GM_FRAME_DEFAULT_MAX_BODY. */
gm_frame_reader *gm_frame_reader_new(size_t max_body);
void gm_frame_reader_free(gm_frame_reader *reader);

/* Appends bytes. Returns 0, or -1 when out of memory. */
int gm_frame_reader_feed(gm_frame_reader *reader, const char *data, size_t len);

/* Extracts the next event. On GM_FRAME_MESSAGE, *body points into the reader's buffer and stays
 * valid until the next call on the reader; it is NUL-terminated (body[len] == 0). On
 * GM_FRAME_ERROR, *error describes the problem (static or reader-owned string, valid until the
 * next call). Call repeatedly until GM_FRAME_NEED_MORE. */
gm_frame_status gm_frame_reader_next(gm_frame_reader *reader, const char **body, size_t *body_len,
                                     const char **error);

/* Bytes buffered but not yet returned as a message (for diagnostics at EOF). */
size_t gm_frame_reader_pending(const gm_frame_reader *reader);

/* Writes "Content-Length: N\r\n\r\n" for a body of body_len bytes into buf (at least 40 bytes).
 * Returns the header length. */
size_t gm_frame_header(char *buf, size_t buf_size, size_t body_len);

#endif
