/* Findings -> LSP diagnostics: push (publishDiagnostics) and pull (textDocument/diagnostic).
 * Diagnostics are written as JSON text directly: on every keystroke of a large file this is the
 * hottest path after the reparse. */
#include <stdio.h>
#include <string.h>

#include "protocol/lsp_params.h"
#include "server/lsp/lsp_internal.h"

static const gm_finding_list empty_findings = {NULL, 0, 0};

const gm_finding_list *gm_server_findings(gm_server *server, gm_document *doc) {
    if (!doc->findings) {
        TSTree *tree = gm_document_tree(&server->documents, doc);
        if (!tree) {
            return &empty_findings; /* parse timed out: nothing reliable to say */
        }
        gm_analysis_options options;
        gm_server_document_options(server, doc, &options);
        /* twice at most: once more when its own summary changed what the workspace says of it */
        for (int pass = 0; pass < 2; pass++) {
            gm_workspace_before_analysis(server, doc);
            doc->findings =
                gm_analyzer_run(doc->analyzer, tree, doc->text, doc->len, &options);
            if (!gm_workspace_after_analysis(server, doc))
                break;
        }
    }
    return doc->findings ? doc->findings : &empty_findings;
}

static void write_position(gm_json_writer *writer, const gm_server *server, const gm_document *doc,
                           size_t offset) {
    uint32_t line, character;
    gm_offset_to_position(doc->text, doc->len, &doc->lines, server->encoding, offset, &line,
                          &character);
    gm_json_raw_str(writer, "{\"line\":");
    gm_json_int(writer, line);
    gm_json_raw_str(writer, ",\"character\":");
    gm_json_int(writer, character);
    gm_json_raw_str(writer, "}");
}

static void write_diagnostic(gm_json_writer *writer, const gm_server *server,
                             const gm_document *doc, const gm_finding *finding) {
    const gm_rule *rule = finding->rule;
    gm_json_raw_str(writer, "{\"range\":{\"start\":");
    write_position(writer, server, doc, finding->span.start_byte);
    gm_json_raw_str(writer, ",\"end\":");
    write_position(writer, server, doc, finding->span.end_byte);
    gm_json_raw_str(writer, "},\"severity\":");
    gm_json_int(writer, gm_finding_severity(finding));
    gm_json_raw_str(writer, ",\"code\":");
    gm_json_string(writer, rule->id, strlen(rule->id));
    gm_json_raw_str(writer, ",\"source\":\"graphmend\",\"message\":");
    gm_json_string(writer, finding->message, strlen(finding->message));
    if (rule->url) {
        gm_json_raw_str(writer, ",\"codeDescription\":{\"href\":");
        gm_json_string(writer, rule->url, strlen(rule->url));
        gm_json_raw_str(writer, "}");
    }
    gm_json_raw_str(writer, "}");
}

void gm_write_diagnostics(gm_server *server, gm_document *doc, gm_json_writer *writer) {
    const gm_finding_list *findings = gm_server_findings(server, doc);
    gm_json_raw_str(writer, "[");
    for (size_t i = 0; i < findings->count; i++) {
        if (i > 0) {
            gm_json_raw_str(writer, ",");
        }
        write_diagnostic(writer, server, doc, &findings->items[i]);
    }
    bool first = findings->count == 0;
    gm_library_write_diagnostics(server, doc, writer, &first);
    gm_json_raw_str(writer, "]");
}

json_t *gm_diagnostic_json(gm_server *server, const gm_document *doc, const gm_finding *finding) {
    gm_json_writer writer;
    gm_json_writer_init(&writer);
    write_diagnostic(&writer, server, doc, finding);
    json_t *diagnostic = writer.failed ? NULL : json_loadb(writer.data, writer.len, 0, NULL);
    gm_json_writer_free(&writer);
    return diagnostic ? diagnostic : json_object();
}

void gm_publish_diagnostics(gm_server *server, gm_document *doc) {
    double started = server->trace_timing ? gm_server_now_us() : 0;
    if (server->trace_timing) {
        gm_server_findings(server, doc);
        fprintf(stderr, "timing: analysis in %.0f us\n", gm_server_now_us() - started);
        started = gm_server_now_us();
    }
    gm_json_writer writer;
    gm_json_writer_init(&writer);
    gm_json_raw_str(&writer, "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/publishDiagnostics\","
                             "\"params\":{\"uri\":");
    gm_json_string(&writer, doc->uri, strlen(doc->uri));
    gm_json_raw_str(&writer, ",\"version\":");
    gm_json_int(&writer, doc->version);
    gm_json_raw_str(&writer, ",\"diagnostics\":");
    gm_write_diagnostics(server, doc, &writer);
    gm_json_raw_str(&writer, "}}");
    if (server->trace_timing) {
        fprintf(stderr, "timing: diagnostics built in %.0f us\n", gm_server_now_us() - started);
    }
    if (writer.failed) {
        gm_server_log(server, 1, "out of memory publishing diagnostics for %s", doc->uri);
    } else {
        gm_server_send_body(server, writer.data, writer.len);
        doc->diagnostics_dirty = false;
    }
    gm_json_writer_free(&writer);
    if (server->trace_timing) {
        fprintf(stderr, "timing: diagnostics built and sent in %.0f us\n",
                gm_server_now_us() - started);
    }
}

void gm_publish_empty_diagnostics(gm_server *server, const char *uri) {
    gm_server_notify(server, "textDocument/publishDiagnostics",
                     json_pack("{s:s,s:[]}", "uri", uri, "diagnostics"));
}

void gm_publish_dirty_diagnostics(gm_server *server) {
    if (server->lifecycle != GM_LIFECYCLE_RUNNING || server->client.pull_diagnostics) {
        return;
    }
    /* Analysing one document may change what other files' compiled code enters in another
     * (workspace.c), which is then dirty again: a second pass publishes those. */
    for (int pass = 0; pass < 2; pass++) {
        for (gm_document *doc = server->documents.head; doc; doc = doc->next) {
            if (doc->diagnostics_dirty) {
                gm_publish_diagnostics(server, doc);
            }
        }
    }
}

void gm_invalidate_all_diagnostics(gm_server *server) {
    gm_library_forget_reports(server); /* made again (from the worker's cache when unchanged) */
    for (gm_document *doc = server->documents.head; doc; doc = doc->next) {
        doc->findings = NULL;
        doc->diagnostics_dirty = true;
    }
    if (server->client.pull_diagnostics && server->client.diagnostic_refresh) {
        gm_server_request(server, "workspace/diagnostic/refresh", NULL);
    }
}

gm_document *gm_document_for_params(gm_server *server, json_t *params, int *error_code, char *error,
                                    size_t error_size) {
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
    gm_json_writer writer;
    gm_json_writer_init(&writer);
    gm_json_raw_str(&writer, "{\"kind\":\"full\",\"items\":");
    gm_write_diagnostics(server, doc, &writer);
    gm_json_raw_str(&writer, "}");
    json_t *result = GM_RESULT_SENT;
    if (writer.failed) {
        *error_code = GM_RPC_INTERNAL_ERROR;
        snprintf(error, error_size, "out of memory building diagnostics");
        result = NULL;
    } else {
        gm_server_send_raw_result(server, gm_server_current_id(server), writer.data, writer.len);
        doc->diagnostics_dirty = false;
    }
    gm_json_writer_free(&writer);
    return result;
}
