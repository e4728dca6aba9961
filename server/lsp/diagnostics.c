/* Findings -> LSP diagnostics: push (publishDiagnostics) and pull (textDocument/diagnostic).
 * Diagnostics are written as JSON text directly: on every keystroke of a large file this is the
 * hottest path after the reparse. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/module_facts/symbols.h"
#include "protocol/lsp_params.h"
#include "server/lsp/confirm_verdicts.h"
#include "server/lsp/diagnostic_fragments.h"
#include "server/lsp/lsp_internal.h"

static const gm_finding_list empty_findings = {NULL, 0, 0};

/* The publication buffer a server keeps between publications, at most (bytes). */
#define GM_PUBLISH_BUFFER_KEPT ((size_t)4 << 20)

const gm_finding_list *gm_server_findings(gm_server *server, gm_document *doc) {
    if (!doc->findings) {
        bool stale = doc->tree_stale;
        double started = server->trace_timing ? gm_server_now_us() : 0;
        TSTree *tree = gm_document_tree(&server->documents, doc);
        if (server->trace_timing && stale) {
            fprintf(stderr, "timing: v%lld reparsed in %.0f us\n", (long long)doc->version,
                    gm_server_now_us() - started);
        }
        if (!tree) {
            if (stale && doc->parse_timed_out) {
                gm_server_log(server, 2,
                              "parsing %s took too long; diagnostics paused until next edit",
                              doc->uri);
            }
            if (doc->parse_refused && !doc->refusal_told) {
                /* once per document, until a text of it parses again */
                doc->refusal_told = true;
                gm_server_log(server, 2, "not analysing %s: %s", doc->uri, doc->parse_refused);
                gm_server_show(server, 2, "graphmend does not analyse %s: %s", doc->uri,
                               doc->parse_refused);
            }
            return &empty_findings; /* no tree: nothing reliable to say */
        }
        gm_analysis_options options;
        gm_server_document_options(server, doc, &options);
        /* twice at most: once more when its own summary changed what the workspace says of it */
        for (int pass = 0; pass < 2; pass++) {
            double started = server->trace_timing ? gm_server_now_us() : 0;
            gm_workspace_before_analysis(server, doc);
            double analysed = server->trace_timing ? gm_server_now_us() : 0;
            doc->findings =
                gm_analyzer_run(doc->analyzer, tree, doc->text, doc->len, &options);
            double after = server->trace_timing ? gm_server_now_us() : 0;
            /* building the summary walks every statement's call part: after the publication,
             * when it can wait */
            bool again = false;
            if (gm_workspace_summary_can_wait(server, doc))
                doc->summary_deferred = true;
            else
                again = gm_workspace_after_analysis(server, doc);
            if (server->trace_timing) {
                gm_analyzer_stats stats;
                gm_analyzer_last_stats(doc->analyzer, &stats);
                fprintf(stderr,
                        "timing: pass %d: workspace before %.0f us, analyser %.0f us (%zu of %zu "
                        "statements reused%s%s), workspace after %.0f us\n",
                        pass + 1, analysed - started, after - analysed, stats.reused,
                        stats.statements, stats.recomputed_all ? ", all recomputed" : "",
                        stats.parallel ? ", on every core" : "", gm_server_now_us() - after);
            }
            if (!again)
                break;
        }
    }
    return doc->findings ? doc->findings : &empty_findings;
}

/* The position of offset; the finding's row is tried first (the parser's rows are the index's
 * lines), which spares the binary search over every line of a large file. */
static void write_position(gm_json_writer *writer, const gm_server *server, const gm_document *doc,
                           size_t offset, uint32_t row) {
    uint32_t line, character;
    gm_offset_to_position_near(doc->text, doc->len, &doc->lines, server->encoding, offset, row,
                               &line, &character);
    gm_json_raw_str(writer, "{\"line\":");
    gm_json_int(writer, line);
    gm_json_raw_str(writer, ",\"character\":");
    gm_json_int(writer, character);
    gm_json_raw_str(writer, "}");
}

static void write_range(gm_json_writer *writer, const gm_server *server, const gm_document *doc,
                        const gm_finding *finding) {
    gm_json_raw_str(writer, "{\"range\":{\"start\":");
    write_position(writer, server, doc, finding->span.start_byte, finding->span.start.row);
    gm_json_raw_str(writer, ",\"end\":");
    write_position(writer, server, doc, finding->span.end_byte, finding->span.end.row);
    gm_json_raw_str(writer, "}");
}

/* The last graphmend.confirm's verdict on the finding, or NULL. */
static const char *confirm_note(const gm_document *doc, const gm_finding *finding) {
    return doc->confirmation ? gm_confirmation_note(doc->confirmation, finding->rule->id,
                                                    finding->span.start.row)
                             : NULL;
}

/* The finding's message, with the verdict's note when there is one. */
static void write_message(gm_json_writer *writer, const gm_finding *finding, const char *note) {
    if (!note) {
        gm_json_string(writer, finding->message, strlen(finding->message));
        return;
    }
    size_t size = strlen(finding->message) + strlen(note) + 8;
    char *message = malloc(size);
    if (!message) {
        writer->failed = true;
        return;
    }
    snprintf(message, size, "%s [%s]", finding->message, note);
    gm_json_string(writer, message, strlen(message));
    free(message);
}

/* Everything of a diagnostic after its range (diagnostic_fragments.h keeps these). */
static void write_tail(gm_json_writer *writer, const gm_finding *finding, const char *note) {
    const gm_rule *rule = finding->rule;
    gm_json_raw_str(writer, ",\"severity\":");
    gm_json_int(writer, gm_finding_severity(finding));
    gm_json_raw_str(writer, ",\"code\":");
    gm_json_string(writer, rule->id, strlen(rule->id));
    gm_json_raw_str(writer, ",\"source\":\"graphmend\",\"message\":");
    write_message(writer, finding, note);
    if (rule->url) {
        gm_json_raw_str(writer, ",\"codeDescription\":{\"href\":");
        gm_json_string(writer, rule->url, strlen(rule->url));
        gm_json_raw_str(writer, "}");
    }
    gm_json_raw_str(writer, "}");
}

static void write_diagnostic(gm_json_writer *writer, const gm_server *server,
                             const gm_document *doc, const gm_finding *finding) {
    write_range(writer, server, doc, finding);
    write_tail(writer, finding, confirm_note(doc, finding));
}

/* The diagnostics of findings, each tail reused from the document's last publication when its
 * finding is unchanged (diagnostic_fragments.h); without the fragments (OOM), written whole. */
static void write_finding_diagnostics(gm_server *server, gm_document *doc,
                                      const gm_finding_list *findings, gm_json_writer *writer) {
    if (!doc->fragments)
        doc->fragments = gm_diagnostic_fragments_new();
    if (doc->fragments)
        gm_diagnostic_fragments_begin(doc->fragments);
    for (size_t i = 0; i < findings->count; i++) {
        if (i > 0) {
            gm_json_raw_str(writer, ",");
        }
        const gm_finding *finding = &findings->items[i];
        if (!doc->fragments) {
            write_diagnostic(writer, server, doc, finding);
            continue;
        }
        write_range(writer, server, doc, finding);
        gm_diagnostic_fragments_write(doc->fragments, writer, finding, confirm_note(doc, finding),
                                      write_tail);
    }
    if (doc->fragments)
        gm_diagnostic_fragments_end(doc->fragments);
}

/* What follows the findings' diagnostics: GM902 ones and the confirm's breaks, then "]". */
static void write_other_diagnostics(gm_server *server, gm_document *doc,
                                    const gm_finding_list *findings, gm_json_writer *writer) {
    bool first = findings->count == 0;
    gm_library_write_diagnostics(server, doc, writer, &first);
    first = !gm_confirmation_write_breaks(doc->confirmation, writer, !first, doc->text, doc->len,
                                          &doc->lines, server->encoding);
    gm_json_raw_str(writer, "]");
}

void gm_write_diagnostics(gm_server *server, gm_document *doc, gm_json_writer *writer) {
    const gm_finding_list *findings = gm_server_findings(server, doc);
    gm_json_raw_str(writer, "[");
    write_finding_diagnostics(server, doc, findings, writer);
    write_other_diagnostics(server, doc, findings, writer);
}

void gm_write_diagnostics_uncached(gm_server *server, gm_document *doc, gm_json_writer *writer) {
    const gm_finding_list *findings = gm_server_findings(server, doc);
    gm_json_raw_str(writer, "[");
    for (size_t i = 0; i < findings->count; i++) {
        if (i > 0) {
            gm_json_raw_str(writer, ",");
        }
        write_diagnostic(writer, server, doc, &findings->items[i]);
    }
    write_other_diagnostics(server, doc, findings, writer);
}

json_t *gm_diagnostic_json(gm_server *server, const gm_document *doc, const gm_finding *finding) {
    gm_json_writer writer;
    gm_json_writer_init(&writer);
    write_diagnostic(&writer, server, doc, finding);
    json_t *diagnostic = writer.failed ? NULL : json_loadb(writer.data, writer.len, 0, NULL);
    gm_json_writer_free(&writer);
    return diagnostic ? diagnostic : json_object();
}

/* A digest of published text, to tell whether a publication changes what the client shows:
 * eight bytes a step (FNV's byte loop over every diagnostic of a 50k-line file cost a fifth of
 * building them). */
static uint64_t text_digest(const char *data, size_t len) {
    uint64_t h = GM_HASH_INIT ^ (uint64_t)len;
    size_t i = 0;
    for (; i + 8 <= len; i += 8) {
        uint64_t word;
        memcpy(&word, data + i, 8);
        h = (h ^ word) * 0x9e3779b97f4a7c15ull;
        h ^= h >> 32;
    }
    uint64_t rest = 0;
    memcpy(&rest, data + i, len - i);
    h = (h ^ rest) * 0x9e3779b97f4a7c15ull;
    return h ^ (h >> 29);
}

void gm_publish_diagnostics(gm_server *server, gm_document *doc) {
    double started = server->trace_timing ? gm_server_now_us() : 0;
    if (server->trace_timing) {
        gm_server_findings(server, doc);
        fprintf(stderr, "timing: analysis in %.0f us\n", gm_server_now_us() - started);
        started = gm_server_now_us();
    }
    /* The body is built after room for the frame header, in a buffer kept between calls. */
    gm_json_writer *writer = &server->publish_writer;
    gm_json_writer_reset(writer);
    static const char room[GM_SERVER_FRAME_ROOM];
    gm_json_raw(writer, room, sizeof room);
    gm_json_raw_str(writer, "{\"jsonrpc\":\"2.0\",\"method\":\"textDocument/publishDiagnostics\","
                            "\"params\":{\"uri\":");
    gm_json_string(writer, doc->uri, strlen(doc->uri));
    gm_json_raw_str(writer, ",\"version\":");
    gm_json_int(writer, doc->version);
    gm_json_raw_str(writer, ",\"diagnostics\":");
    size_t from = writer->len;
    gm_write_diagnostics(server, doc, writer);
    uint64_t digest = writer->failed ? 0 : text_digest(writer->data + from, writer->len - from);
    gm_json_raw_str(writer, "}}");
    bool unchanged = doc->publish_if_changed && doc->published && digest == doc->published_digest;
    doc->publish_if_changed = false;
    if (server->trace_timing) {
        gm_diagnostic_fragment_stats stats = {0};
        if (doc->fragments)
            gm_diagnostic_fragments_stats(doc->fragments, &stats);
        fprintf(stderr,
                "timing: diagnostics built in %.0f us (%zu bytes; fragments reused %zu, "
                "written %zu so far)\n",
                gm_server_now_us() - started, writer->len - sizeof room, stats.reused,
                stats.written);
    }
    if (writer->failed) {
        gm_server_log(server, 1, "out of memory publishing diagnostics for %s", doc->uri);
    } else if (unchanged) {
        doc->diagnostics_dirty = false; /* what the client shows is still right */
    } else {
        gm_server_send_framed(server, writer->data, writer->len - sizeof room);
        doc->diagnostics_dirty = false;
        doc->published = true;
        doc->published_digest = digest;
    }
    if (writer->failed || writer->capacity > GM_PUBLISH_BUFFER_KEPT)
        gm_json_writer_free(writer); /* one very large file's publication is not kept */
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
    /* The first diagnostics are out: the interpreter may be asked now (interpreter_probe.c). */
    if (server->documents.head)
        gm_interpreter_probe_start(server);
    gm_document_store_release_retired(&server->documents);
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
        gm_interpreter_probe_start(server);
        gm_document_store_release_retired(&server->documents);
    }
    gm_json_writer_free(&writer);
    return result;
}
