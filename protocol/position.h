/* Line index and LSP position <-> byte offset conversion in the negotiated encoding.
 *
 * LSP positions are (line, character) where character counts UTF-8 bytes, UTF-16 code units or
 * Unicode code points depending on the negotiated positionEncoding. Lines end at "\n", "\r\n" or
 * "\r". Invalid UTF-8 bytes count as one unit each in every encoding. */
#ifndef GM_PROTOCOL_POSITION_H
#define GM_PROTOCOL_POSITION_H

#include <stddef.h>
#include <stdint.h>

typedef enum { GM_ENCODING_UTF8, GM_ENCODING_UTF16, GM_ENCODING_UTF32 } gm_position_encoding;

/* "utf-8" / "utf-16" / "utf-32" <-> enum. Parse returns -1 for an unknown name. */
int gm_position_encoding_parse(const char *name, gm_position_encoding *out);
const char *gm_position_encoding_name(gm_position_encoding encoding);

/* Start offsets of every line of a text; starts[0] == 0, count >= 1. */
typedef struct {
    size_t *starts;
    size_t count;
    size_t capacity;
} gm_line_index;

void gm_line_index_init(gm_line_index *index);
/* Rebuilds the index for text. Returns 0, or -1 on OOM (index left empty-but-valid). */
int gm_line_index_build(gm_line_index *index, const char *text, size_t len);
/* Updates the index after bytes [start, old_end) of the previous text were replaced, giving text
 * (new length len) whose replacement ends at new_end. Only the edited region is rescanned; the
 * line starts after it are shifted. Returns 0, or -1 on OOM (index left empty-but-valid). */
int gm_line_index_update(gm_line_index *index, const char *text, size_t len, size_t start,
                         size_t old_end, size_t new_end);
void gm_line_index_free(gm_line_index *index);
/* Line containing offset (offset may equal len). */
size_t gm_line_index_line_of(const gm_line_index *index, size_t offset);
/* Byte offset of the end of line's content (before its terminator). */
size_t gm_line_index_line_end(const gm_line_index *index, const char *text, size_t len,
                              size_t line);

typedef enum {
    GM_POSITION_OK = 0,
    GM_POSITION_CLAMPED = 1,     /* character past the end of the line: clamped to the line end */
    GM_POSITION_BAD_LINE = -1,   /* line beyond the last line */
    GM_POSITION_SPLIT_CHAR = -2, /* character falls inside a multi-unit character */
} gm_position_status;

/* Converts (line, character) to a byte offset. *offset is always set: to the offset on OK, to
 * the line end on CLAMPED, to the start of the split character on SPLIT_CHAR, and to len on
 * BAD_LINE. */
gm_position_status gm_position_to_offset(const char *text, size_t len, const gm_line_index *index,
                                         gm_position_encoding encoding, uint32_t line,
                                         uint32_t character, size_t *offset);

/* Converts a byte offset (clamped to len, and moved back to a character boundary) to
 * (line, character). */
void gm_offset_to_position(const char *text, size_t len, const gm_line_index *index,
                           gm_position_encoding encoding, size_t offset, uint32_t *line,
                           uint32_t *character);

/* The same, for an offset expected on line hint (tried before the binary search; any hint gives
 * the same answer). */
void gm_offset_to_position_near(const char *text, size_t len, const gm_line_index *index,
                                gm_position_encoding encoding, size_t offset, size_t hint,
                                uint32_t *line, uint32_t *character);

/* Units needed to encode the bytes text[from, to) of one line. */
uint32_t gm_count_units(const char *text, size_t from, size_t to, gm_position_encoding encoding);

#endif
