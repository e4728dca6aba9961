/* What the last graphmend.confirm found for a document, kept with the document until the next
 * confirm or its close: a verdict for each predicted break (confirmed by torch X.Y, not reached
 * by the entry's input, contradicted) shown in that diagnostic's message, and the breaks dynamo
 * found that graphmend did not predict, published as diagnostics of their own. Edits move the
 * lines they refer to; an entry whose line an edit replaces across lines is dropped, since what
 * dynamo saw is no longer there. */
#ifndef GM_SERVER_LSP_CONFIRM_VERDICTS_H
#define GM_SERVER_LSP_CONFIRM_VERDICTS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "protocol/json_writer.h"
#include "protocol/position.h"

typedef struct gm_confirmation gm_confirmation;

/* From a confirm report (server/profile/confirm_report.h). NULL on OOM or when the report has
 * no findings and no unpredicted breaks to show. */
gm_confirmation *gm_confirmation_from_report(const json_t *report);
void gm_confirmation_free(gm_confirmation *confirmation);

/* One edit replaced the range (start_line, start_character)-(end_line, end_character) with text
 * holding new_line_breaks line breaks (a full replacement of the text: full is true). */
void gm_confirmation_follow_edit(gm_confirmation *confirmation, bool full, uint32_t start_line,
                                 uint32_t start_character, uint32_t end_line,
                                 uint32_t end_character, size_t new_line_breaks);

/* The verdict, as words to append to the message of the finding of rule code starting on line
 * (0-based), or NULL when confirm said nothing of it. */
const char *gm_confirmation_note(const gm_confirmation *confirmation, const char *code,
                                 uint32_t line);

/* Appends the unpredicted breaks as LSP diagnostics to a JSON array being written, which already
 * holds elements when not_first. Returns whether the array holds elements afterwards. */
bool gm_confirmation_write_breaks(const gm_confirmation *confirmation, gm_json_writer *writer,
                                  bool not_first, const char *text, size_t len,
                                  const gm_line_index *lines, gm_position_encoding encoding);

#endif
