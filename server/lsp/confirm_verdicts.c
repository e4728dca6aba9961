#include "server/lsp/confirm_verdicts.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/profile/confirm_report.h"

typedef struct {
    char code[16];
    uint32_t line; /* 0-based */
    bool dropped;
    char note[200];
} verdict_entry;

typedef struct {
    uint32_t line; /* 0-based */
    bool dropped;
    char *message; /* owned */
    char code[16]; /* dynamo's registry id, or "dynamo" */
    char *url;     /* owned, or NULL */
} break_entry;

struct gm_confirmation {
    verdict_entry *verdicts;
    size_t verdict_count;
    break_entry *breaks;
    size_t break_count;
};

static const char *text_or(const json_t *value, const char *otherwise) {
    const char *text = json_string_value(value);
    return text && text[0] ? text : otherwise;
}

static uint32_t zero_based_line(const json_t *item) {
    json_int_t line = json_integer_value(json_object_get(item, "line"));
    return line > 0 && line <= (json_int_t)UINT32_MAX ? (uint32_t)(line - 1) : 0;
}

static void describe_verdict(const json_t *item, const char *torch, char *note, size_t size) {
    const char *verdict = text_or(json_object_get(item, "verdict"), "");
    if (strcmp(verdict, "confirmed") == 0) {
        snprintf(note, size, "confirmed by torch %s%s", torch,
                 json_is_true(json_object_get(item, "skips_frame"))
                     ? ", which runs this whole frame eagerly"
                     : "");
    } else if (strcmp(verdict, "not_reached") == 0) {
        snprintf(note, size, "not reached by the confirm run's input (torch %s)", torch);
    } else {
        snprintf(note, size, "contradicted: torch %s traced this line without a break", torch);
    }
}

static bool add_breaks(gm_confirmation *confirmation, const json_t *missed, const char *torch) {
    size_t count = json_array_size(missed);
    if (count == 0) {
        return true;
    }
    confirmation->breaks = calloc(count, sizeof *confirmation->breaks);
    if (!confirmation->breaks) {
        return false;
    }
    size_t i;
    json_t *item;
    json_array_foreach(missed, i, item) {
        break_entry *entry = &confirmation->breaks[confirmation->break_count++];
        entry->line = zero_based_line(item);
        snprintf(entry->code, sizeof entry->code, "%s",
                 text_or(json_object_get(item, "registry_id"), "dynamo"));
        const char *reason = text_or(json_object_get(item, "reason"), "(dynamo gave no reason)");
        const char *explanation = text_or(json_object_get(item, "explanation"), NULL);
        size_t size = strlen(reason) + (explanation ? strlen(explanation) : 0) + 200;
        entry->message = malloc(size);
        if (!entry->message) {
            return false;
        }
        snprintf(entry->message, size,
                 "graph break found by torch %s (graphmend confirm), not predicted by "
                 "graphmend: %s%s%s%s",
                 torch, reason, explanation ? ". " : "", explanation ? explanation : "",
                 json_is_true(json_object_get(item, "skips_frame"))
                     ? " (dynamo skips this whole frame)"
                     : "");
        const char *url = text_or(json_object_get(item, "url"), NULL);
        entry->url = url ? strdup(url) : NULL;
    }
    return true;
}

gm_confirmation *gm_confirmation_from_report(const json_t *report) {
    const json_t *judged = json_object_get(report, "findings");
    const json_t *missed = json_object_get(report, "unpredicted");
    if (json_array_size(judged) == 0 && json_array_size(missed) == 0) {
        return NULL;
    }
    char torch[64];
    gm_confirm_short_version(text_or(json_object_get(report, "torch"), "?"), torch,
                             sizeof torch);
    gm_confirmation *confirmation = calloc(1, sizeof *confirmation);
    if (!confirmation) {
        return NULL;
    }
    size_t count = json_array_size(judged);
    confirmation->verdicts = count ? calloc(count, sizeof *confirmation->verdicts) : NULL;
    if (count && !confirmation->verdicts) {
        gm_confirmation_free(confirmation);
        return NULL;
    }
    size_t i;
    json_t *item;
    json_array_foreach(judged, i, item) {
        verdict_entry *entry = &confirmation->verdicts[confirmation->verdict_count++];
        snprintf(entry->code, sizeof entry->code, "%s",
                 text_or(json_object_get(item, "code"), "?"));
        entry->line = zero_based_line(item);
        describe_verdict(item, torch, entry->note, sizeof entry->note);
    }
    if (!add_breaks(confirmation, missed, torch)) {
        gm_confirmation_free(confirmation);
        return NULL;
    }
    return confirmation;
}

void gm_confirmation_free(gm_confirmation *confirmation) {
    if (!confirmation) {
        return;
    }
    for (size_t i = 0; i < confirmation->break_count; i++) {
        free(confirmation->breaks[i].message);
        free(confirmation->breaks[i].url);
    }
    free(confirmation->breaks);
    free(confirmation->verdicts);
    free(confirmation);
}

/* Where an edit of lines [start_line, end_line] leaves an entry's line. */
typedef struct {
    bool full;
    uint32_t start_line, start_character, end_line, end_character;
    size_t new_line_breaks;
} edit_extent;

/* Moves a line the edit pushed down or up by the change in line count (a line the edit ends at
 * the start of is untouched too). A line the edit replaced across lines is dropped; the edit's first line keeps its entries when the edit starts
 * after its first character (its code is still there: only a finding of the same rule on that
 * line shows a verdict). */
static void follow(uint32_t *line, bool *dropped, const edit_extent *edit) {
    if (*dropped) {
        return;
    }
    if (edit->full) {
        *dropped = true;
    } else if (*line > edit->end_line ||
               (*line == edit->end_line && edit->end_character == 0)) { /* untouched, moved */
        int64_t moved = (int64_t)*line - (int64_t)(edit->end_line - edit->start_line) +
                        (int64_t)edit->new_line_breaks;
        *line = moved < 0 ? 0 : (uint32_t)moved;
    } else if (*line > edit->start_line ||
               (*line == edit->start_line && edit->start_character == 0 &&
                edit->end_line > edit->start_line)) {
        *dropped = true;
    }
}

void gm_confirmation_follow_edit(gm_confirmation *confirmation, bool full, uint32_t start_line,
                                 uint32_t start_character, uint32_t end_line,
                                 uint32_t end_character, size_t new_line_breaks) {
    if (!confirmation) {
        return;
    }
    edit_extent edit = {full, start_line, start_character, end_line, end_character,
                        new_line_breaks};
    for (size_t i = 0; i < confirmation->verdict_count; i++) {
        verdict_entry *entry = &confirmation->verdicts[i];
        follow(&entry->line, &entry->dropped, &edit);
    }
    for (size_t i = 0; i < confirmation->break_count; i++) {
        break_entry *entry = &confirmation->breaks[i];
        follow(&entry->line, &entry->dropped, &edit);
    }
}

const char *gm_confirmation_note(const gm_confirmation *confirmation, const char *code,
                                 uint32_t line) {
    for (size_t i = 0; confirmation && i < confirmation->verdict_count; i++) {
        const verdict_entry *entry = &confirmation->verdicts[i];
        if (!entry->dropped && entry->line == line && strcmp(entry->code, code) == 0) {
            return entry->note;
        }
    }
    return NULL;
}

static void write_position(gm_json_writer *writer, uint32_t line, uint32_t character) {
    gm_json_raw_str(writer, "{\"line\":");
    gm_json_int(writer, line);
    gm_json_raw_str(writer, ",\"character\":");
    gm_json_int(writer, character);
    gm_json_raw_str(writer, "}");
}

bool gm_confirmation_write_breaks(const gm_confirmation *confirmation, gm_json_writer *writer,
                                  bool not_first, const char *text, size_t len,
                                  const gm_line_index *lines, gm_position_encoding encoding) {
    for (size_t i = 0; confirmation && i < confirmation->break_count; i++) {
        const break_entry *entry = &confirmation->breaks[i];
        if (entry->dropped || entry->line >= lines->count) {
            continue;
        }
        /* the line's code, from its first non-blank character to its end */
        size_t start = lines->starts[entry->line];
        size_t end = gm_line_index_line_end(lines, text, len, entry->line);
        size_t first = start;
        while (first < end && (text[first] == ' ' || text[first] == '\t')) {
            first++;
        }
        gm_json_raw_str(writer, not_first ? ",{\"range\":{\"start\":" : "{\"range\":{\"start\":");
        not_first = true;
        write_position(writer, entry->line, gm_count_units(text, start, first, encoding));
        gm_json_raw_str(writer, ",\"end\":");
        write_position(writer, entry->line, gm_count_units(text, start, end, encoding));
        gm_json_raw_str(writer, "},\"severity\":2,\"code\":");
        gm_json_string(writer, entry->code, strlen(entry->code));
        gm_json_raw_str(writer, ",\"source\":\"graphmend confirm\",\"message\":");
        gm_json_string(writer, entry->message, strlen(entry->message));
        if (entry->url) {
            gm_json_raw_str(writer, ",\"codeDescription\":{\"href\":");
            gm_json_string(writer, entry->url, strlen(entry->url));
            gm_json_raw_str(writer, "}");
        }
        gm_json_raw_str(writer, "}");
    }
    return not_first;
}
