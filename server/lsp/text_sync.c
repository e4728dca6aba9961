/* textDocument/didOpen, didChange, didClose, didSave. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/lsp_params.h"
#include "server/lsp/confirm_verdicts.h"
#include "server/lsp/lsp_internal.h"

void gm_handle_did_open(gm_server *server, json_t *params) {
    char error[256];
    json_t *item;
    const char *uri, *text;
    int64_t version;
    if (gm_lsp_get_object(params, "textDocument", "params", &item, error, sizeof error) != 0 ||
        gm_lsp_get_uri(item, "uri", "params.textDocument", &uri, error, sizeof error) != 0 ||
        gm_lsp_get_string(item, "text", "params.textDocument", &text, error, sizeof error) != 0 ||
        gm_lsp_get_integer(item, "version", "params.textDocument", &version, error, sizeof error) !=
            0) {
        gm_server_log(server, 1, "didOpen ignored: %s", error);
        return;
    }
    json_t *text_value = json_object_get(item, "text");
    double started = server->trace_timing ? gm_server_now_us() : 0;
    if (!gm_document_store_open(&server->documents, uri, text, json_string_length(text_value),
                                version)) {
        gm_server_show(server, 1, "graphmend: out of memory opening %s", uri);
    }
    if (server->trace_timing) {
        fprintf(stderr, "timing: didOpen v%lld stored and parsed in %.0f us\n",
                (long long)version, gm_server_now_us() - started);
    }
}

/* Decodes contentChanges into changes (caller frees). Returns the count, or -1 with error. */
static long decode_changes(json_t *params, gm_document_change **out, char *error,
                           size_t error_size) {
    json_t *list = json_object_get(params, "contentChanges");
    if (!json_is_array(list)) {
        snprintf(error, error_size, "params.contentChanges must be an array");
        return -1;
    }
    size_t count = json_array_size(list);
    gm_document_change *changes = calloc(count ? count : 1, sizeof *changes);
    if (!changes) {
        snprintf(error, error_size, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < count; i++) {
        json_t *entry = json_array_get(list, i);
        char path[64];
        snprintf(path, sizeof path, "params.contentChanges[%zu]", i);
        const char *text;
        if (gm_lsp_get_string(entry, "text", path, &text, error, error_size) != 0) {
            free(changes);
            return -1;
        }
        changes[i].text = text;
        changes[i].text_len = json_string_length(json_object_get(entry, "text"));
        if (json_object_get(entry, "range")) {
            gm_lsp_range range;
            if (gm_lsp_get_range(entry, "range", path, &range, error, error_size) != 0) {
                free(changes);
                return -1;
            }
            changes[i].has_range = true;
            changes[i].start_line = range.start.line;
            changes[i].start_character = range.start.character;
            changes[i].end_line = range.end.line;
            changes[i].end_character = range.end.character;
        }
    }
    *out = changes;
    return (long)count;
}

/* Keeps the lines of the last confirm's verdicts in step with applied edits. */
static void follow_changes(gm_document *doc, const gm_document_change *changes, size_t count) {
    for (size_t i = 0; doc->confirmation && i < count; i++) {
        size_t line_breaks = 0;
        for (size_t j = 0; j < changes[i].text_len; j++) {
            char c = changes[i].text[j];
            line_breaks += c == '\n' || (c == '\r' && (j + 1 == changes[i].text_len ||
                                                       changes[i].text[j + 1] != '\n'));
        }
        gm_confirmation_follow_edit(doc->confirmation, !changes[i].has_range,
                                    changes[i].start_line, changes[i].start_character,
                                    changes[i].end_line, changes[i].end_character, line_breaks);
    }
}

void gm_handle_did_change(gm_server *server, json_t *params) {
    char error[512];
    json_t *item;
    const char *uri;
    int64_t version;
    if (gm_lsp_get_object(params, "textDocument", "params", &item, error, sizeof error) != 0 ||
        gm_lsp_get_uri(item, "uri", "params.textDocument", &uri, error, sizeof error) != 0 ||
        gm_lsp_get_integer(item, "version", "params.textDocument", &version, error, sizeof error) !=
            0) {
        gm_server_log(server, 1, "didChange ignored: %s", error);
        return;
    }
    gm_document *doc = gm_document_store_find(&server->documents, uri);
    if (!doc) {
        gm_server_log(server, 1, "didChange ignored: %s is not open", uri);
        return;
    }
    gm_document_change *changes = NULL;
    long count = decode_changes(params, &changes, error, sizeof error);
    if (count < 0) {
        gm_server_show(server, 1, "graphmend: didChange for %s ignored: %s", uri, error);
        return;
    }
    double started = server->trace_timing ? gm_server_now_us() : 0;
    gm_document_status status =
        gm_document_apply_changes(&server->documents, doc, changes, (size_t)count, version,
                                  server->encoding, error, sizeof error);
    if (status == GM_DOC_OK) {
        follow_changes(doc, changes, (size_t)count);
    }
    free(changes);
    if (server->trace_timing) {
        fprintf(stderr, "timing: didChange v%lld applied in %.0f us\n",
                (long long)version, gm_server_now_us() - started);
    }
    switch (status) {
    case GM_DOC_OK:
        break;
    case GM_DOC_BAD_RANGE:
        /* The client and server texts may now differ: say so loudly, keep the text intact. */
        gm_server_show(server, 1,
                       "graphmend: edit to %s refused, document left at version %lld: %s", uri,
                       (long long)doc->version, error);
        break;
    case GM_DOC_NO_MEMORY:
        gm_server_show(server, 1, "graphmend: out of memory applying an edit to %s", uri);
        break;
    }
}

void gm_handle_did_close(gm_server *server, json_t *params) {
    char error[256];
    const char *uri;
    if (gm_lsp_get_document_uri(params, &uri, error, sizeof error) != 0) {
        gm_server_log(server, 1, "didClose ignored: %s", error);
        return;
    }
    if (!gm_document_store_find(&server->documents, uri)) {
        return;
    }
    gm_document_store_close(&server->documents, uri);
    if (!server->client.pull_diagnostics) {
        gm_publish_empty_diagnostics(server, uri);
    }
    gm_workspace_document_closed(server, uri);
    gm_library_document_closed(server, uri);
}

void gm_handle_did_save(gm_server *server, json_t *params) {
    char error[256];
    const char *uri;
    if (gm_lsp_get_document_uri(params, &uri, error, sizeof error) != 0) {
        gm_server_log(server, 1, "didSave ignored: %s", error);
        return;
    }
    gm_server_log(server, 4, "saved %s", uri);
    /* A saved file may be a new or moved pyproject.toml: look the nearest one up again. */
    for (gm_document *doc = server->documents.head; doc; doc = doc->next) {
        if (gm_document_find_pyproject(doc)) {
            doc->findings = NULL;
            doc->diagnostics_dirty = true;
        }
    }
}
