/* Content-Length framing: an incremental reader over a single growable buffer.
 *
 * Live bytes are buf[start, end). Messages are consumed by advancing start; the live bytes are
 * moved to the front only when an append would not fit (lazy compaction), so a large coalesced
 * input costs one pass, not one memmove per message. */
#include "protocol/framing.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A header block longer than this without its terminating blank line is dropped. */
#define GM_FRAME_MAX_HEADER ((size_t)8192)
/* An empty buffer bigger than this is given back to the allocator. */
#define GM_FRAME_SHRINK_ABOVE ((size_t)1024 * 1024)
#define GM_FRAME_INITIAL_CAP ((size_t)4096)

static const char content_length_name[] = "content-length";
#define CONTENT_LENGTH_NAME_LEN (sizeof content_length_name - 1)

typedef enum {
    ST_HEADER, /* scanning a header block */
    ST_BODY,   /* header parsed, waiting for body_len bytes */
    ST_SKIP,   /* discarding skip_left bytes of an oversized body */
    ST_RESYNC, /* length unknown after an error: discard up to the next "Content-Length" */
} reader_state;

struct gm_frame_reader {
    char *buf;
    size_t cap, start, end;
    size_t max_body;
    reader_state state;
    size_t scan;       /* ST_HEADER: bytes after start already searched for '\n' */
    size_t line_start; /* ST_HEADER: offset (from start) of the line being scanned */
    size_t body_len;   /* ST_BODY */
    size_t skip_left;  /* ST_SKIP */
    /* The byte overwritten by the NUL after a returned body; restored on the next call. */
    int has_saved;
    size_t saved_pos;
    char saved_byte;
    char error[160];
};

gm_frame_reader *gm_frame_reader_new(size_t max_body) {
    gm_frame_reader *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->max_body = max_body ? max_body : GM_FRAME_DEFAULT_MAX_BODY;
    r->state = ST_HEADER;
    return r;
}

void gm_frame_reader_free(gm_frame_reader *reader) {
    if (!reader)
        return;
    free(reader->buf);
    free(reader);
}

static void restore_saved(gm_frame_reader *r) {
    if (r->has_saved) {
        r->buf[r->saved_pos] = r->saved_byte;
        r->has_saved = 0;
    }
}

/* Discards up to n bytes of an oversized body from the front of the live bytes. */
static void skip_buffered(gm_frame_reader *r) {
    size_t avail = r->end - r->start;
    size_t n = r->skip_left < avail ? r->skip_left : avail;
    r->start += n;
    r->skip_left -= n;
    if (r->skip_left == 0)
        r->state = ST_HEADER;
}

int gm_frame_reader_feed(gm_frame_reader *reader, const char *data, size_t len) {
    gm_frame_reader *r = reader;
    restore_saved(r);
    if (r->start == r->end) {
        r->start = r->end = 0;
        if (r->cap > GM_FRAME_SHRINK_ABOVE) {
            free(r->buf);
            r->buf = NULL;
            r->cap = 0;
        }
        /* An oversized body is dropped straight from the caller's chunk, never buffered. */
        if (r->state == ST_SKIP) {
            size_t n = r->skip_left < len ? r->skip_left : len;
            data += n;
            len -= n;
            r->skip_left -= n;
            if (r->skip_left == 0)
                r->state = ST_HEADER;
        }
    }
    if (len == 0)
        return 0;
    /* Keep one spare byte for the NUL written after a body that ends at `end`. */
    if (len > SIZE_MAX - 1 - (r->end - r->start))
        return -1;
    size_t live = r->end - r->start;
    if (r->end + len + 1 > r->cap && r->start > 0) {
        memmove(r->buf, r->buf + r->start, live);
        r->start = 0;
        r->end = live;
    }
    if (r->end + len + 1 > r->cap) {
        size_t need = r->end + len + 1;
        size_t cap = r->cap ? r->cap : GM_FRAME_INITIAL_CAP;
        while (cap < need)
            cap = cap > SIZE_MAX / 2 ? need : cap * 2;
        char *nb = realloc(r->buf, cap);
        if (!nb)
            return -1;
        r->buf = nb;
        r->cap = cap;
    }
    memcpy(r->buf + r->end, data, len);
    r->end += len;
    return 0;
}

size_t gm_frame_reader_pending(const gm_frame_reader *reader) {
    return reader->end - reader->start;
}

size_t gm_frame_header(char *buf, size_t buf_size, size_t body_len) {
    int n = snprintf(buf, buf_size, "Content-Length: %zu\r\n\r\n", body_len);
    if (n < 0 || (size_t)n >= buf_size)
        return 0;
    return (size_t)n;
}

static int lower(int c) {
    return (c >= 'A' && c <= 'Z') ? c + ('a' - 'A') : c;
}

static int is_blank(char c) {
    return c == ' ' || c == '\t';
}

/* Case-insensitive equality of [s, s+n) with the lowercase literal lit. */
static int name_is(const char *s, size_t n, const char *lit) {
    size_t m = strlen(lit);
    if (n != m)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (lower((unsigned char)s[i]) != lit[i])
            return 0;
    return 1;
}

static gm_frame_status fail(gm_frame_reader *r, const char **error, reader_state next,
                            const char *msg) {
    if (msg)
        snprintf(r->error, sizeof r->error, "%s", msg);
    r->state = next;
    *error = r->error;
    return GM_FRAME_ERROR;
}

/* An RFC 9110 token character: what a header name is made of. */
static int is_token_char(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           (c != 0 && strchr("!#$%&'*+-.^_`|~", c) != NULL);
}

static int is_header_name(const char *s, size_t n) {
    for (size_t i = 0; i < n; i++)
        if (!is_token_char((unsigned char)s[i]))
            return 0;
    return n > 0;
}

/* Parsed header block. */
typedef struct {
    int have_length; /* a syntactically valid Content-Length was found */
    size_t length;
    int bad; /* some header line was malformed (error already formatted) */
    /* Offset of a line that is no "Name: value" header (SIZE_MAX when none): the block lost its
     * blank line and runs into what followed, perhaps the next message's header. */
    size_t not_a_header;
} header_info;

/* Parses the header lines of [h, h+n) (terminators included, blank line excluded). On a problem
 * formats the first error into r->error and sets info->bad. */
static void parse_headers(gm_frame_reader *r, const char *h, size_t n, header_info *info) {
    memset(info, 0, sizeof *info);
    info->not_a_header = SIZE_MAX;
    size_t i = 0;
    while (i < n) {
        size_t line_offset = i;
        const char *line = h + i;
        const char *nl = memchr(line, '\n', n - i);
        size_t ll = nl ? (size_t)(nl - line) : n - i;
        i += ll + 1;
        if (ll > 0 && line[ll - 1] == '\r')
            ll--;
        const char *colon = memchr(line, ':', ll);
        const char *name = line;
        size_t name_len = colon ? (size_t)(colon - line) : 0;
        while (name_len > 0 && is_blank(name[name_len - 1]))
            name_len--;
        if (!colon || !is_header_name(name, name_len)) {
            if (!info->bad)
                snprintf(r->error, sizeof r->error,
                         colon ? "header line is not \"Name: value\": \"%.*s\""
                               : "header line without a colon: \"%.*s\"",
                         (int)(ll > 40 ? 40 : ll), line);
            info->bad = 1;
            info->not_a_header = line_offset;
            info->have_length = 0;
            break;
        }
        const char *val = colon + 1;
        size_t val_len = ll - (size_t)(val - line);
        while (val_len > 0 && is_blank(*val)) {
            val++;
            val_len--;
        }
        while (val_len > 0 && is_blank(val[val_len - 1]))
            val_len--;
        if (!name_is(name, name_len, content_length_name))
            continue; /* Content-Type and unknown headers are ignored */
        size_t v = 0;
        int digits = val_len > 0, overflow = 0;
        for (size_t k = 0; digits && k < val_len; k++) {
            unsigned d = (unsigned)((unsigned char)val[k] - '0');
            if (d > 9)
                digits = 0;
            else if (v > (SIZE_MAX - d) / 10)
                overflow = 1;
            else if (!overflow)
                v = v * 10 + d;
        }
        if (!digits || overflow) {
            if (!info->bad)
                snprintf(r->error, sizeof r->error,
                         digits ? "Content-Length \"%.*s\" is too large"
                                : "invalid Content-Length \"%.*s\" (expected a non-negative "
                                  "integer)",
                         (int)(val_len > 40 ? 40 : val_len), val);
            /* The length is unknown: later lines must not make it look known. */
            info->bad = 1;
            info->have_length = 0;
            break;
        }
        if (info->have_length && info->length != v) {
            if (!info->bad)
                snprintf(r->error, sizeof r->error, "conflicting Content-Length headers");
            info->bad = 1;
            info->have_length = 0;
            break;
        }
        info->have_length = 1;
        info->length = v;
    }
}

/* Looks for the next "Content-Length" (any case) in the live bytes. Returns 1 and positions
 * start there when found; otherwise keeps only a tail that could be a prefix of it. */
static int resync(gm_frame_reader *r) {
    const char *p = r->buf + r->start;
    size_t n = r->end - r->start;
    for (size_t i = 0; i + CONTENT_LENGTH_NAME_LEN <= n; i++) {
        if (lower((unsigned char)p[i]) == 'c' &&
            name_is(p + i, CONTENT_LENGTH_NAME_LEN, content_length_name)) {
            r->start += i;
            r->state = ST_HEADER;
            r->scan = r->line_start = 0;
            return 1;
        }
    }
    if (n >= CONTENT_LENGTH_NAME_LEN)
        r->start = r->end - (CONTENT_LENGTH_NAME_LEN - 1);
    return 0;
}

/* Scans for the blank line ending the header block. Returns the block length including the
 * blank line, 0 when more bytes are needed, or SIZE_MAX when the block is too long. */
static size_t find_header_end(gm_frame_reader *r, size_t *content_len) {
    const char *p = r->buf + r->start;
    size_t n = r->end - r->start;
    for (;;) {
        const char *nl = r->scan < n ? memchr(p + r->scan, '\n', n - r->scan) : NULL;
        if (!nl) {
            r->scan = n;
            return n > GM_FRAME_MAX_HEADER ? SIZE_MAX : 0;
        }
        size_t pos = (size_t)(nl - p);
        if (pos >= GM_FRAME_MAX_HEADER)
            return SIZE_MAX;
        size_t ll = pos - r->line_start;
        if (ll == 0 || (ll == 1 && p[r->line_start] == '\r')) {
            *content_len = r->line_start;
            return pos + 1;
        }
        r->line_start = pos + 1;
        r->scan = pos + 1;
    }
}

gm_frame_status gm_frame_reader_next(gm_frame_reader *reader, const char **body, size_t *body_len,
                                     const char **error) {
    gm_frame_reader *r = reader;
    restore_saved(r);
    *body = NULL;
    *body_len = 0;
    *error = NULL;
    for (;;) {
        switch (r->state) {
        case ST_SKIP:
            skip_buffered(r);
            if (r->state == ST_SKIP)
                return GM_FRAME_NEED_MORE;
            break;
        case ST_RESYNC:
            if (!resync(r))
                return GM_FRAME_NEED_MORE;
            break;
        case ST_BODY:
            if (r->end - r->start < r->body_len)
                return GM_FRAME_NEED_MORE;
            *body = r->buf + r->start;
            *body_len = r->body_len;
            r->start += r->body_len;
            /* NUL-terminate in place (feed keeps a spare byte after end); a byte of the next
             * message is saved and put back on the next call. */
            if (r->start < r->end) {
                r->saved_pos = r->start;
                r->saved_byte = r->buf[r->start];
                r->has_saved = 1;
            }
            r->buf[r->start] = '\0';
            r->state = ST_HEADER;
            r->scan = r->line_start = 0;
            return GM_FRAME_MESSAGE;
        case ST_HEADER: {
            if (r->start == r->end)
                return GM_FRAME_NEED_MORE;
            size_t lines_len = 0;
            size_t block = find_header_end(r, &lines_len);
            if (block == 0)
                return GM_FRAME_NEED_MORE;
            if (block == SIZE_MAX) {
                /* Drop the first MAX bytes (less a tail that may hold the start of a
                 * "Content-Length") and look for the next header from there; whatever follows
                 * in the buffer may be good messages. */
                r->start += GM_FRAME_MAX_HEADER - (CONTENT_LENGTH_NAME_LEN - 1);
                r->scan = r->line_start = 0;
                snprintf(r->error, sizeof r->error,
                         "header block longer than %zu bytes without a blank line; dropped",
                         GM_FRAME_MAX_HEADER);
                return fail(r, error, ST_RESYNC, NULL);
            }
            if (lines_len == 0) {
                /* A stray blank line between messages: tolerated silently. */
                r->start += block;
                r->scan = r->line_start = 0;
                break;
            }
            header_info info;
            parse_headers(r, r->buf + r->start, lines_len, &info);
            r->scan = r->line_start = 0;
            if (info.not_a_header != SIZE_MAX) {
                /* The next header may start inside that line (after a body sent without the
                 * blank line before it): look for it past the line's first byte. */
                r->start += info.not_a_header + 1;
                return fail(r, error, ST_RESYNC, NULL);
            }
            r->start += block;
            /* Without a usable length the body cannot be skipped exactly: resynchronise on
             * the next "Content-Length". */
            if (!info.bad && !info.have_length)
                return fail(r, error, ST_RESYNC, "missing Content-Length header");
            if (!info.have_length)
                return fail(r, error, ST_RESYNC, NULL);
            if (info.bad || info.length > r->max_body) {
                if (!info.bad)
                    snprintf(r->error, sizeof r->error,
                             "message body of %zu bytes exceeds the limit of %zu bytes; skipped",
                             info.length, r->max_body);
                r->skip_left = info.length;
                return fail(r, error, info.length ? ST_SKIP : ST_HEADER, NULL);
            }
            if (info.length == 0)
                return fail(r, error, ST_HEADER,
                            "Content-Length is 0: an empty body is not a message");
            r->state = ST_BODY;
            r->body_len = info.length;
            break;
        }
        }
    }
}
