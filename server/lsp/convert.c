/* Byte offsets of a document -> LSP ranges and workspace edits in the negotiated encoding. */
#include "protocol/lsp_params.h"
#include "server/lsp/lsp_internal.h"

static gm_lsp_position position_of(const gm_server *server, const gm_document *doc, size_t offset) {
    gm_lsp_position position;
    gm_offset_to_position(doc->text, doc->len, &doc->lines, server->encoding, offset,
                          &position.line, &position.character);
    return position;
}

json_t *gm_range_json(const gm_server *server, const gm_document *doc, size_t start, size_t end) {
    gm_lsp_range range = {position_of(server, doc, start), position_of(server, doc, end)};
    return gm_lsp_range_json(range);
}

json_t *gm_workspace_edit_json(const gm_server *server, const gm_document *doc,
                               const gm_text_edit *edits, size_t count) {
    json_t *text_edits = json_array();
    for (size_t i = 0; i < count; i++) {
        json_array_append_new(text_edits, json_pack("{s:o,s:s}", "range",
                                                    gm_range_json(server, doc, edits[i].start_byte,
                                                                  edits[i].end_byte),
                                                    "newText", edits[i].replacement));
    }
    if (server->client.document_changes) {
        return json_pack("{s:[{s:{s:s,s:I},s:o}]}", "documentChanges", "textDocument", "uri",
                         doc->uri, "version", (json_int_t)doc->version, "edits", text_edits);
    }
    return json_pack("{s:{s:o}}", "changes", doc->uri, text_edits);
}
