/* The JSON text of a document's published diagnostics after their ranges (severity, code, source,
 * message, codeDescription), kept from one publication to the next, so that a keystroke
 * serialises again only the diagnostics of the statements it changed. A finding's text depends
 * only on its rule, severity, message and the confirm verdict's note: an entry is reused only
 * when all four are equal (the message and note compared byte for byte), and the range, which
 * an edit moves, is always written afresh. The lookup goes by the message's address (the
 * analyzer keeps the findings of the statements it reuses, with their messages), which is only
 * a hint: the comparison decides. */
#ifndef GM_SERVER_LSP_DIAGNOSTIC_FRAGMENTS_H
#define GM_SERVER_LSP_DIAGNOSTIC_FRAGMENTS_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/findings/findings.h"
#include "protocol/json_writer.h"

typedef struct gm_diagnostic_fragments gm_diagnostic_fragments;

/* Writes the tail of finding's diagnostic (everything after the range; note appended to the
 * message in brackets when not NULL) to writer: the one definition of those bytes. */
typedef void (*gm_diagnostic_tail_fn)(gm_json_writer *writer, const gm_finding *finding,
                                      const char *note);

gm_diagnostic_fragments *gm_diagnostic_fragments_new(void); /* NULL on OOM */
void gm_diagnostic_fragments_free(gm_diagnostic_fragments *fragments);

/* Starts a publication: the fragments of the last one become the candidates for reuse. */
void gm_diagnostic_fragments_begin(gm_diagnostic_fragments *fragments);
/* Appends finding's tail to writer: the kept one when its rule, severity, message and note are
 * those it was made for, else written by write_tail and kept for the next publication. Out of
 * memory for the copy only costs the reuse next time. */
void gm_diagnostic_fragments_write(gm_diagnostic_fragments *fragments, gm_json_writer *writer,
                                   const gm_finding *finding, const char *note,
                                   gm_diagnostic_tail_fn write_tail);
/* Ends a publication: the candidates not reused are dropped. */
void gm_diagnostic_fragments_end(gm_diagnostic_fragments *fragments);

/* Counts since the fragments were made, for tests and the timing trace. */
typedef struct {
    size_t reused;
    size_t written;
} gm_diagnostic_fragment_stats;
void gm_diagnostic_fragments_stats(const gm_diagnostic_fragments *fragments,
                                   gm_diagnostic_fragment_stats *stats);

#endif
