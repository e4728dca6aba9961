/* Findings -> LSP diagnostics: push (publishDiagnostics) and pull (textDocument/diagnostic). */
#include <stdio.h>
#include <string.h>

#include "lsp_params.h"
#include "server_internal.h"

static const gm_finding_list empty_findings = {NULL, 0, 0};

const gm_finding_list *gm_server_findings(gm_server *server, gm_document *doc) {
    if (!doc->findings) {
        if (!doc->tree) {
            return &empty_findings; /* parse timed out: nothing reliable to say */
        }
        doc->findings = gm_analyzer_run(doc->analyzer, doc->tree, doc->text, doc->len,
                                        &server->settings.analysis);
    }
    return doc->findings ? doc->findings : &empty_findings;
}

json_t *gm_diagnostic_json(gm_server *server, const gm_document *doc, const gm_finding *finding) {
    json_t *diagnostic = json_pack(
        "{s:o,s:i,s:s,s:s,s:s}", "range",
        gm_range_json(server, doc, finding->span.start_byte, finding->span.end_byte), "severity",
        (int)finding->rule->severity, "code", finding->rule->id, "source", "graphmend", "message",
        finding->message);
    if (finding->rule->url) {
        json_object_set_new(diagnostic, "codeDescription",
                            json_pack("{s:s}", "href", finding->rule->url));
    }
    return diagnostic;
}

static json_t *diagnostics_array(gm_server *server, gm_document *doc) {
    const gm_finding_list *findings = gm_server_findings(server, doc);
    json_t *items = json_array();
    for (size_t i = 0; i < findings->count; i++) {
        json_array_append_new(items, gm_diagnostic_json(server, doc, &findings->items[i]));
    }
    return items;
}

void gm_publish_diagnostics(gm_server *server, gm_document *doc) {
    json_t *params = json_pack("{s:s,s:I,s:o}", "uri", doc->uri, "version",
                               (json_int_t)doc->version, "diagnostics",
                               diagnostics_array(server, doc));
    gm_server_notify(server, "textDocument/publishDiagnostics", params);
    doc->diagnostics_dirty = false;
}

void gm_publish_empty_diagnostics(gm_server *server, const char *uri) {
    gm_server_notify(server, "textDocument/publishDiagnostics",
                     json_pack("{s:s,s:[]}", "uri", uri, "diagnostics"));
}

void gm_publish_dirty_diagnostics(gm_server *server) {
    if (server->lifecycle != GM_LIFECYCLE_RUNNING || server->client.pull_diagnostics) {
        return;
    }
    for (gm_document *doc = server->documents.head; doc; doc = doc->next) {
        if (doc->diagnostics_dirty) {
            gm_publish_diagnostics(server, doc);
        }
    }
}

void gm_invalidate_all_diagnostics(gm_server *server) {
    for (gm_document *doc = server->documents.head; doc; doc = doc->next) {
        doc->findings = NULL;
        doc->diagnostics_dirty = true;
    }
    if (server->client.pull_diagnostics && server->client.diagnostic_refresh) {
        gm_server_request(server, "workspace/diagnostic/refresh", NULL);
    }
}

gm_document *gm_document_for_params(gm_server *server, json_t *params, int *error_code,
                                    char *error, size_t error_size) {
    const char *uri;
    if (gm_lsp_get_document_uri(params, &uri, error, error_size) != 0) {
        *error_code = GM_RPC_INVALID_PARAMS;
        return NULL;
    }
    gm_document *doc = gm_document_store_find(&server->documents, uri);
    if (!doc) {
        *error_code = GM_RPC_INVALID_PARAMS;
        snprintf(error, error_size, "document is not open: %.400s", uri);
    }
    return doc;
}

json_t *gm_handle_document_diagnostic(gm_server *server, json_t *params, int *error_code,
                                      char *error, size_t error_size) {
    gm_document *doc = gm_document_for_params(server, params, error_code, error, error_size);
    if (!doc) {
        return NULL;
    }
    doc->diagnostics_dirty = false;
    return json_pack("{s:s,s:o}", "kind", "full", "items", diagnostics_array(server, doc));
}
