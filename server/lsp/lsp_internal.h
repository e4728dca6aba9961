/* The server's state object and the interfaces between its handler files. Everything here runs
 * on the one loop thread. */
#ifndef GM_SERVER_LSP_LSP_INTERNAL_H
#define GM_SERVER_LSP_LSP_INTERNAL_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "analysis/analyzer.h"
#include "protocol/framing.h"
#include "protocol/json_writer.h"
#include "protocol/jsonrpc.h"
#include "protocol/position.h"
#include "server/config/project_files.h"
#include "server/config/settings.h"
#include "server/lsp/document_store.h"
#include "server/lsp/lsp_server.h"

typedef enum {
    GM_LIFECYCLE_UNINITIALIZED,
    GM_LIFECYCLE_RUNNING,
    GM_LIFECYCLE_SHUTDOWN, /* shutdown answered, waiting for exit */
} gm_lifecycle;

/* What the client declared in initialize that changes how the server talks to it. */
typedef struct {
    bool pull_diagnostics;   /* textDocument.diagnostic: client pulls, server does not push */
    bool document_changes;   /* workspace.workspaceEdit.documentChanges */
    bool configuration;      /* workspace.configuration: server may ask for settings */
    bool code_description;   /* publishDiagnostics.codeDescriptionSupport */
    bool markdown_hover;     /* hover.contentFormat contains "markdown" */
    bool diagnostic_refresh; /* workspace.diagnostics.refreshSupport */
    bool work_done_progress; /* window.workDoneProgress: server-initiated $/progress */
} gm_client_capabilities;

/* An incoming message waiting in the queue of one gm_server_feed call. */
typedef struct {
    gm_rpc_message message;
    bool cancelled;
} gm_queued_message;

/* A request the server sent to the client, waiting for its response. */
typedef struct {
    int64_t id;
    char method[48];
} gm_outgoing_request;

#define GM_MAX_FOLDERS 16

/* The installed packages' breaks (library_diagnostics.c). */
typedef struct gm_library_state gm_library_state;

/* A graphmend.profile command in flight (profile_command.c). */
typedef struct gm_profile_session gm_profile_session;

/* A pyproject.toml seen by the server, with the options it gave the last time it was valid. */
#define GM_PYPROJECT_CACHE 8
typedef struct {
    char path[1024]; /* "" when unused */
    long long mtime_ns;
    long long size;
    gm_analysis_options options;
    unsigned set;
    /* owned, or NULL: its exclude patterns and per-file-ignores, root its directory */
    gm_project_files *files;
    unsigned long long used; /* for replacing the least recently used */
} gm_pyproject_entry;

struct gm_server {
    gm_server_write_fn write;
    void *write_context;
    gm_frame_reader *reader;

    gm_lifecycle lifecycle;
    bool finished;
    int exit_code;

    gm_position_encoding encoding;
    gm_client_capabilities client;
    gm_settings settings;
    gm_document_store documents;

    gm_queued_message *queue;
    size_t queue_count;
    size_t queue_capacity;

    gm_outgoing_request *outgoing;
    size_t outgoing_count;
    size_t outgoing_capacity;
    int64_t next_outgoing_id;

    const json_t *current_id; /* id of the request being dispatched */
    /* publishDiagnostics is built here, its allocation kept from one keystroke to the next */
    gm_json_writer publish_writer;
    bool trace_timing;        /* GRAPHMEND_TRACE_TIMING set: per-phase times on stderr */

    gm_pyproject_entry pyprojects[GM_PYPROJECT_CACHE];
    unsigned long long pyproject_clock;

    /* The workspace folders (paths, owned) and the index of their modules (workspace.c). */
    char *workspace_folders[GM_MAX_FOLDERS];
    size_t workspace_folder_count;
    struct gm_workspace_index *workspace;
    struct gm_workspace_scan *scan; /* files still to index, or NULL */
    /* the summaries of the first folder's project kept between sessions (summary_store.h),
     * or NULL */
    struct gm_summary_store *summary_store;

    /* The event loop that runs profile children (gm_server_attach_loop; NULL: profiling is
     * refused) and the profiles in flight. */
    struct uv_loop_s *loop;
    gm_profile_session *profiles;
    unsigned next_profile_token;

    /* The version of the python3 on PATH (major*100+minor; 0: unknown, the default applies):
     * remembered on disk, and asked in the background when it may have changed
     * (interpreter_probe.c), never waited for. */
    int interpreter_version;
    struct gm_interpreter_probe *probe; /* owned, or NULL when nothing is to be asked */
    gm_library_state *libraries; /* NULL until a document compiles an installed model */
};

/* Monotonic clock in microseconds, for GRAPHMEND_TRACE_TIMING. */
double gm_server_now_us(void);

/* A request handler returns the result (new reference; json_null() for null) or NULL after
 * filling *error_code and error (the message). */
typedef json_t *(*gm_request_handler)(gm_server *server, json_t *params, int *error_code,
                                      char *error, size_t error_size);
typedef void (*gm_notification_handler)(gm_server *server, json_t *params);

/* Returned by a request handler that already sent its response (gm_server_send_raw_result). */
extern json_t *const GM_RESULT_SENT;

/* --- sending (lsp_server.c) --- */
void gm_server_send(gm_server *server, json_t *message); /* steals message */
/* Frames and sends a body that is already JSON text. */
void gm_server_send_body(gm_server *server, const char *body, size_t len);
/* Room for the frame header before a body built in place (gm_server_send_framed). */
#define GM_SERVER_FRAME_ROOM 48
/* Sends the body that follows GM_SERVER_FRAME_ROOM bytes of room in buffer, writing the header
 * into that room: a large body (every diagnostic of a file) is not copied to be framed. */
void gm_server_send_framed(gm_server *server, char *buffer, size_t body_len);
/* Sends {"jsonrpc":"2.0","id":id,"result":<result_json>} for a result that is JSON text. */
void gm_server_send_raw_result(gm_server *server, const json_t *id, const char *result_json,
                               size_t len);
/* The id of the request being handled (borrowed; NULL outside a request handler). */
const json_t *gm_server_current_id(const gm_server *server);
void gm_server_notify(gm_server *server, const char *method, json_t *params); /* steals params */
/* Sends a request to the client; its response is routed by method name to
 * gm_server_handle_client_response. Returns its id (0 when it could not be sent). */
int64_t gm_server_request(gm_server *server, const char *method, json_t *params); /* steals */
/* window/logMessage (and stderr). type: 1 error, 2 warning, 3 info, 4 log. printf-style. */
void gm_server_log(gm_server *server, int type, const char *format, ...)
    __attribute__((format(printf, 3, 4)));
/* window/showMessage, for what the user must see. */
void gm_server_show(gm_server *server, int type, const char *format, ...)
    __attribute__((format(printf, 3, 4)));

/* --- lifecycle (lifecycle.c) --- */
json_t *gm_handle_initialize(gm_server *, json_t *, int *, char *, size_t);
json_t *gm_handle_shutdown(gm_server *, json_t *, int *, char *, size_t);
void gm_handle_initialized(gm_server *, json_t *);
void gm_handle_exit(gm_server *, json_t *);

/* --- text synchronisation (text_sync.c) --- */
void gm_handle_did_open(gm_server *, json_t *);
void gm_handle_did_change(gm_server *, json_t *);
void gm_handle_did_close(gm_server *, json_t *);
void gm_handle_did_save(gm_server *, json_t *);

/* --- diagnostics (diagnostics.c) --- */
/* Current findings of a document (analysed on demand; never NULL). */
const gm_finding_list *gm_server_findings(gm_server *server, gm_document *doc);
json_t *gm_diagnostic_json(gm_server *server, const gm_document *doc, const gm_finding *finding);
/* A fix's code-action title, "Mend GM401 (unsafe): defer print after the graph": menus cut long
 * titles, so the full sentence (fix->title) is left to the hover. */
void gm_fix_action_title(const gm_finding *finding, const gm_fix *fix, char *title, size_t size);
/* Appends the diagnostics of doc's findings to writer as a JSON array. */
void gm_write_diagnostics(gm_server *server, gm_document *doc, gm_json_writer *writer);
/* The same bytes, every diagnostic serialised afresh (the reference the kept fragments are
 * tested against). */
void gm_write_diagnostics_uncached(gm_server *server, gm_document *doc, gm_json_writer *writer);
void gm_publish_diagnostics(gm_server *server, gm_document *doc);
void gm_publish_empty_diagnostics(gm_server *server, const char *uri);
/* Publishes every document whose diagnostics are dirty (push clients only). */
void gm_publish_dirty_diagnostics(gm_server *server);
/* Marks every document for re-analysis (settings changed) and refreshes the client. */
void gm_invalidate_all_diagnostics(gm_server *server);
json_t *gm_handle_document_diagnostic(gm_server *, json_t *, int *, char *, size_t);

/* --- code actions (code_actions.c) and hover (hover.c) --- */
json_t *gm_handle_code_action(gm_server *, json_t *, int *, char *, size_t);
json_t *gm_handle_hover(gm_server *, json_t *, int *, char *, size_t);

/* --- profiling (profile_command.c) and its code lens (code_lens.c) --- */
json_t *gm_handle_execute_command(gm_server *, json_t *, int *, char *, size_t);
json_t *gm_handle_code_lens(gm_server *, json_t *, int *, char *, size_t);
void gm_handle_work_done_progress_cancel(gm_server *, json_t *);
/* The client answered our window/workDoneProgress/create request_id (accepted: no error). */
void gm_profile_progress_created(gm_server *server, int64_t request_id, bool accepted);
/* $/cancelRequest for a running profile: kills its children; true when id was one. */
bool gm_profile_cancel_request(gm_server *server, const json_t *id);
/* shutdown: every running profile is answered as cancelled and its children are killed. */
void gm_profile_cancel_all(gm_server *server);

/* --- the python3 on PATH (interpreter_probe.c) --- */
/* At initialize: the remembered version, and whether the interpreter is to be asked again. */
void gm_interpreter_probe_prepare(gm_server *server);
/* At initialized: asks anyway after a while when no diagnostics have been published by then. */
void gm_interpreter_probe_initialized(gm_server *server);
/* Asks now, if it is still to be asked (once diagnostics are out). */
void gm_interpreter_probe_start(gm_server *server);
/* Kills a running question and forgets the server (end of the process). */
void gm_interpreter_probe_stop(gm_server *server);
void gm_interpreter_probe_free(gm_server *server);

/* --- configuration (configuration.c) --- */
void gm_handle_did_change_configuration(gm_server *, json_t *);
void gm_request_configuration(gm_server *server);
void gm_handle_configuration_response(gm_server *server, json_t *result);
/* Looks up the pyproject.toml nearest to doc again; true when it is another file than before. */
bool gm_document_find_pyproject(gm_document *doc);
/* The analysis options for doc: defaults (python_version that of the python3 on PATH), the
 * [tool.graphmend] table of the pyproject.toml nearest to it (a file: URI; its [project]
 * requires-python too), then the keys the client set, then the table's per-file-ignores for
 * the document's path. A document its exclude or extend-exclude leaves out selects no rule
 * (and reports no syntax error): the editor shows nothing for it, as `graphmend check
 * --force-exclude` would. A pyproject.toml that turns invalid is reported with
 * window/showMessage and its last valid values are kept. */
void gm_server_document_options(gm_server *server, gm_document *doc, gm_analysis_options *options);
/* Frees what the pyproject.toml cache owns. */
void gm_server_forget_pyprojects(gm_server *server);

/* --- installed packages' breaks: GM902 (library_diagnostics.c) --- */
/* Appends doc's GM902 diagnostics (each with a leading comma unless *first; *first is cleared
 * by the first one) for the sites whose package analysis is ready, and starts the analysis of
 * the others on the threadpool (their document is published again when it finishes). */
void gm_library_write_diagnostics(gm_server *server, gm_document *doc, gm_json_writer *writer,
                                  bool *first);
/* Appends the "Profile with PACKAGE mended" actions of the GM902 sites in [start, end]. */
void gm_library_code_actions(gm_server *server, gm_document *doc, size_t start, size_t end,
                             json_t *actions);
void gm_library_document_closed(gm_server *server, const char *uri);
/* Drops the finished reports (settings changed: they are made again when asked for). */
void gm_library_forget_reports(gm_server *server);
/* The server is stopping: work that finishes publishes nothing. */
void gm_library_stop(gm_server *server);
void gm_library_free(gm_server *server);

/* --- the workspace's modules (workspace.c) --- */
/* Remembers the folders of initialize's workspaceFolders (or rootUri). */
void gm_workspace_note_folders(gm_server *server, const json_t *initialize_params);
/* Indexes the folders' Python files (at initialized). */
void gm_workspace_index_folders(gm_server *server);
/* Gives doc's analyzer the functions that compiled code of other files calls. */
void gm_workspace_before_analysis(gm_server *server, gm_document *doc);
/* Gives the index doc's summary; open documents that other files now enter differently are
 * marked for analysis. True when doc's own external roots changed with it: analyse it again. */
bool gm_workspace_after_analysis(gm_server *server, gm_document *doc);
/* Whether doc's new summary may wait (gm_workspace_flush_summaries) until its diagnostics are
 * out: it was indexed before, so the index only lags one edit behind, and diagnostics are
 * pushed (a pull client asks for the others' itself, after the index changed). */
bool gm_workspace_summary_can_wait(const gm_server *server, const gm_document *doc);
/* Gives the index the summaries that waited; publishes what that changed (other documents, or
 * the document itself in the rare case its own external roots changed with it). */
void gm_workspace_flush_summaries(gm_server *server);
/* The file of a closed document counts with its text on disk again. */
void gm_workspace_document_closed(gm_server *server, const char *uri);
void gm_workspace_free(gm_server *server);

/* --- conversions (convert.c) --- */
/* LSP range of bytes [start, end) of the document, in the negotiated encoding. */
json_t *gm_range_json(const gm_server *server, const gm_document *doc, size_t start, size_t end);
/* WorkspaceEdit for edits of one document (documentChanges or changes, as the client allows). */
json_t *gm_workspace_edit_json(const gm_server *server, const gm_document *doc,
                               const gm_text_edit *edits, size_t count);

/* Opened document for params.textDocument.uri, or NULL after setting a -32602 error. */
gm_document *gm_document_for_params(gm_server *server, json_t *params, int *error_code, char *error,
                                    size_t error_size);

#endif
