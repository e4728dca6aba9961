#include "server/lsp/document_store.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/syntax/python_parser.h"
#include "server/lsp/confirm_verdicts.h"
#include "server/lsp/diagnostic_fragments.h"
#include "server/workspace/file_reader.h"
#include "server/workspace/parallel_each.h"

int gm_document_store_init(gm_document_store *store) {
    memset(store, 0, sizeof *store);
    store->parser = gm_python_parser_new(GM_DOCUMENT_PARSE_TIMEOUT_MICROS);
    return store->parser ? 0 : -1;
}

static void delete_retired(gm_document *doc) {
    if (doc->retired_tree) {
        gm_tree_delete(doc->retired_tree);
        doc->retired_tree = NULL;
    }
}

static void drop_tree(gm_document_store *store, gm_document *doc) {
    delete_retired(doc);
    if (doc->tree) {
        gm_tree_delete(doc->tree);
        doc->tree = NULL;
        store->trees_held--;
    }
}

static void document_free(gm_document *doc) {
    free(doc->uri);
    free(doc->pyproject_path);
    free(doc->text);
    gm_line_index_free(&doc->lines);
    if (doc->tree) {
        gm_tree_delete(doc->tree);
    }
    delete_retired(doc);
    gm_analyzer_free(doc->analyzer);
    gm_confirmation_free(doc->confirmation);
    gm_diagnostic_fragments_free(doc->fragments);
    free(doc);
}

void gm_document_store_free(gm_document_store *store) {
    gm_document *doc = store->head;
    while (doc) {
        gm_document *next = doc->next;
        document_free(doc);
        doc = next;
    }
    if (store->parser) {
        ts_parser_delete(store->parser);
    }
    memset(store, 0, sizeof *store);
}

gm_document *gm_document_store_find(gm_document_store *store, const char *uri) {
    for (gm_document *doc = store->head; doc; doc = doc->next) {
        if (strcmp(doc->uri, uri) == 0) {
            return doc;
        }
    }
    return NULL;
}

static int ensure_capacity(gm_document *doc, size_t needed) {
    if (needed + 1 <= doc->capacity) {
        return 0;
    }
    size_t capacity = doc->capacity ? doc->capacity : 256;
    while (capacity < needed + 1) {
        capacity *= 2;
    }
    char *text = realloc(doc->text, capacity);
    if (!text) {
        return -1;
    }
    doc->text = text;
    doc->capacity = capacity;
    return 0;
}

static int set_text(gm_document *doc, const char *text, size_t len) {
    if (ensure_capacity(doc, len) != 0) {
        return -1;
    }
    memcpy(doc->text, text, len);
    doc->text[len] = '\0';
    doc->len = len;
    doc->may_hold_cr = memchr(text, '\r', len) != NULL;
    return gm_line_index_build(&doc->lines, doc->text, doc->len);
}

/* Drops the trees of the documents used least lately until at most GM_DOCUMENT_TREES_KEPT
 * hold one; keep is not dropped. */
static void drop_idle_trees(gm_document_store *store, const gm_document *keep) {
    while (store->trees_held > GM_DOCUMENT_TREES_KEPT) {
        gm_document *oldest = NULL;
        for (gm_document *doc = store->head; doc; doc = doc->next) {
            if (doc->tree && doc != keep && (!oldest || doc->last_used < oldest->last_used)) {
                oldest = doc;
            }
        }
        if (!oldest) {
            return;
        }
        drop_tree(store, oldest);
        oldest->tree_dropped = true;
    }
}

static void mark_used(gm_document_store *store, gm_document *doc) {
    doc->last_used = ++store->clock;
    drop_idle_trees(store, doc);
}

static void reparse(gm_document_store *store, gm_document *doc) {
    /* the limit `check` applies to files, for the same reasons */
    doc->parse_refused =
        doc->len > GM_READ_FILE_MAX_BYTES ? "larger than the 16 MiB limit for a source file" : NULL;
    TSTree *tree = doc->parse_refused ? NULL
                                      : gm_python_parse_text(store->parser, doc->tree, doc->text,
                                                             doc->len, doc->may_hold_cr);
    if (!tree && !doc->parse_refused)
        doc->parse_refused = gm_python_text_refused(doc->text, doc->len);
    if (tree)
        doc->refusal_told = false;
    /* the old tree is deleted after the publication, not before the analysis */
    delete_retired(doc);
    doc->retired_tree = doc->tree;
    if (doc->tree) {
        doc->tree = NULL;
        store->trees_held--;
    }
    doc->tree = tree;
    doc->tree_dropped = false;
    doc->tree_stale = false;
    doc->parse_timed_out = tree == NULL && !doc->parse_refused;
    if (tree) {
        store->trees_held++;
    }
    mark_used(store, doc);
}

TSTree *gm_document_tree(gm_document_store *store, gm_document *doc) {
    if (doc->tree_dropped || doc->tree_stale) {
        reparse(store, doc); /* the analysis cache matches the new tree's statements by range */
    } else {
        mark_used(store, doc);
    }
    return doc->tree;
}

gm_document *gm_document_store_open(gm_document_store *store, const char *uri, const char *text,
                                    size_t len, int64_t version) {
    gm_document_store_close(store, uri);
    gm_document *doc = calloc(1, sizeof *doc);
    if (!doc) {
        return NULL;
    }
    gm_line_index_init(&doc->lines);
    doc->uri = strdup(uri);
    doc->analyzer = gm_analyzer_new();
    if (!doc->uri || !doc->analyzer || set_text(doc, text, len) != 0) {
        document_free(doc);
        return NULL;
    }
    /* Opening a file, or an edit of its imports, analyses every statement: on every core
     * (GRAPHMEND_JOBS), as `check` does with files. A keystroke stays on this thread. */
    if (gm_parallel_threads() > 1)
        gm_analyzer_set_parallel(doc->analyzer, gm_parallel_each_on_every_core, NULL);
    doc->version = version;
    doc->diagnostics_dirty = true;
    reparse(store, doc);
    doc->next = store->head;
    store->head = doc;
    store->count++;
    return doc;
}

void gm_document_store_close(gm_document_store *store, const char *uri) {
    for (gm_document **link = &store->head; *link; link = &(*link)->next) {
        if (strcmp((*link)->uri, uri) == 0) {
            gm_document *doc = *link;
            *link = doc->next;
            drop_tree(store, doc);
            document_free(doc);
            store->count--;
            return;
        }
    }
}

void gm_document_store_release_retired(gm_document_store *store) {
    for (gm_document *doc = store->head; doc; doc = doc->next)
        delete_retired(doc);
}

/* The tree-sitter point of a byte offset: the parser ends lines where LSP does (python_parser.h),
 * so rows are lines of the index and columns bytes from the line's start. */
static TSPoint ts_point_at(const gm_document *doc, size_t offset) {
    size_t line = gm_line_index_line_of(&doc->lines, offset);
    return (TSPoint){(uint32_t)line, (uint32_t)(offset - doc->lines.starts[line])};
}

static const char *position_problem(gm_position_status status) {
    return status == GM_POSITION_BAD_LINE ? "line is beyond the end of the document"
                                          : "position splits a multi-unit character";
}

/* Applies one change to text, tree and analyzer cache. Nothing is modified on error. */
static gm_document_status apply_one(gm_document *doc, const gm_document_change *change,
                                    gm_position_encoding encoding, size_t index, char *error,
                                    size_t error_size) {
    size_t start = 0;
    size_t end = doc->len;
    if (change->has_range) {
        gm_position_status s1 =
            gm_position_to_offset(doc->text, doc->len, &doc->lines, encoding, change->start_line,
                                  change->start_character, &start);
        gm_position_status s2 =
            gm_position_to_offset(doc->text, doc->len, &doc->lines, encoding, change->end_line,
                                  change->end_character, &end);
        if (s1 < 0 || s2 < 0 || end < start) {
            const char *why = s1 < 0   ? position_problem(s1)
                              : s2 < 0 ? position_problem(s2)
                                       : "range end is before its start";
            snprintf(error, error_size,
                     "contentChanges[%zu] range %u:%u-%u:%u refused: %s (document has %zu lines)",
                     index, change->start_line, change->start_character, change->end_line,
                     change->end_character, why, doc->lines.count);
            return GM_DOC_BAD_RANGE;
        }
    }
    size_t new_len = doc->len - (end - start) + change->text_len;
    if (new_len > UINT32_MAX - 1) {
        snprintf(error, error_size, "contentChanges[%zu] would make the document exceed 4 GiB",
                 index);
        return GM_DOC_BAD_RANGE;
    }
    if (ensure_capacity(doc, new_len) != 0) {
        return GM_DOC_NO_MEMORY;
    }
    /* A "\r" just before the edit ends a line alone or with a "\n" the edit adds or removes:
     * it is part of what changes for the parser. */
    size_t edit_start = start > 0 && doc->text[start - 1] == '\r' ? start - 1 : start;
    TSInputEdit edit;
    edit.start_byte = (uint32_t)edit_start;
    edit.old_end_byte = (uint32_t)end;
    edit.new_end_byte = (uint32_t)(start + change->text_len);
    edit.start_point = ts_point_at(doc, edit_start);
    edit.old_end_point = ts_point_at(doc, end);

    memmove(doc->text + start + change->text_len, doc->text + end, doc->len - end);
    memcpy(doc->text + start, change->text, change->text_len);
    if (change->text_len && memchr(change->text, '\r', change->text_len))
        doc->may_hold_cr = true; /* deletions never add one: the flag only turns true */
    doc->len = new_len;
    doc->text[new_len] = '\0';
    if (gm_line_index_update(&doc->lines, doc->text, doc->len, start, end,
                             start + change->text_len) != 0) {
        return GM_DOC_NO_MEMORY;
    }
    edit.new_end_point = ts_point_at(doc, edit.new_end_byte);
    if (doc->tree) {
        gm_tree_edit(doc->tree, &edit);
    }
    gm_analyzer_note_edit(doc->analyzer, &edit);
    return GM_DOC_OK;
}

typedef struct {
    char *text;
    size_t len;
    TSTree *tree;
} document_backup;

gm_document_status gm_document_apply_changes(gm_document_store *store, gm_document *doc,
                                             const gm_document_change *changes, size_t count,
                                             int64_t version, gm_position_encoding encoding,
                                             char *error, size_t error_size) {
    /* A single change is validated before anything is modified; several need a backup so the
     * batch stays all-or-nothing. */
    document_backup backup = {0};
    if (count > 1) {
        backup.text = malloc(doc->len + 1);
        if (!backup.text) {
            return GM_DOC_NO_MEMORY;
        }
        memcpy(backup.text, doc->text, doc->len + 1);
        backup.len = doc->len;
        backup.tree = doc->tree ? ts_tree_copy(doc->tree) : NULL;
    }
    gm_document_status status = GM_DOC_OK;
    for (size_t i = 0; i < count && status == GM_DOC_OK; i++) {
        status = apply_one(doc, &changes[i], encoding, i, error, error_size);
    }
    if (status != GM_DOC_OK && count > 1) {
        memcpy(doc->text, backup.text, backup.len + 1);
        doc->len = backup.len;
        gm_line_index_build(&doc->lines, doc->text, doc->len);
        drop_tree(store, doc);
        doc->tree = backup.tree;
        if (doc->tree) {
            store->trees_held++;
        }
        backup.tree = NULL;
        /* The analyzer cache saw the partial edits: start it afresh. */
        gm_analyzer_reset(doc->analyzer);
        doc->findings = NULL;
    }
    free(backup.text);
    if (backup.tree) {
        gm_tree_delete(backup.tree);
    }
    if (status != GM_DOC_OK) {
        return status;
    }
    doc->version = version;
    doc->diagnostics_dirty = true;
    doc->findings = NULL;
    /* A tree that timed out (NULL) or was dropped is parsed whole; an edited one incrementally. */
    doc->tree_stale = true;
    mark_used(store, doc);
    return GM_DOC_OK;
}
