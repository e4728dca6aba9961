/* workspace/executeCommand graphmend.profile and graphmend.confirm: runs the profile job
 * (server/profile/job.c) for a document, reports $/progress while it runs, answers with the
 * report, and kills the children on $/cancelRequest, window/workDoneProgress/cancel, shutdown
 * and exit. This is the only place where the server runs the user's code, and only on this
 * explicit request. A confirm's verdicts are kept with the document and shown in its
 * diagnostics (confirm_verdicts.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "analysis/mend_apply.h"
#include "protocol/lsp_params.h"
#include "protocol/uri.h"
#include "server/config/pyproject_config.h"
#include "server/lsp/confirm_verdicts.h"
#include "server/packages/package_locate.h"
#include "server/lsp/lsp_internal.h"
#include "server/lsp/package_mend_stage.h"
#include "server/profile/confirm_report.h"
#include "server/profile/defaults.h"
#include "server/profile/job.h"
#include "server/profile/report.h"
#include "server/workspace/file_reader.h"
#include "server/workspace/workspace_index.h"

typedef enum {
    PROGRESS_NONE,    /* the client cannot show it */
    PROGRESS_PENDING, /* window/workDoneProgress/create sent, not answered yet */
    PROGRESS_ACTIVE,  /* begin sent */
} progress_state;

struct gm_profile_session {
    gm_server *server;
    json_t *request_id; /* of the executeCommand request, owned */
    gm_profile_job *job;
    json_t *token; /* progress token, owned, or NULL */
    progress_state progress;
    int64_t create_request; /* id of our window/workDoneProgress/create */
    char title[160];
    char last_message[256];
    unsigned last_percent;
    /* graphmend.confirm: the document and the text and version that ran (owned) */
    bool confirm;
    char *uri, *path, *text, *entry;
    size_t len;
    int64_t version;
    /* graphmend.profile with packages: while the packages are mended into the cache (job is
     * NULL until then), the mended copy of the file (owned), the command's options (owned, a
     * copy: the request's strings point into it) and the package names */
    bool mending_packages, cancelled, abandoned;
    char *mended;
    size_t mended_len, applied;
    bool unsafe_copy;
    json_t *options;
    char packages[1024];
    struct gm_profile_session *next;
};

void gm_server_attach_loop(gm_server *server, struct uv_loop_s *loop) {
    server->loop = loop;
}

static void unlink_session(gm_server *server, gm_profile_session *session) {
    for (gm_profile_session **link = &server->profiles; *link; link = &(*link)->next) {
        if (*link == session) {
            *link = session->next;
            return;
        }
    }
}

static void free_session(gm_profile_session *session) {
    free(session->mended);
    json_decref(session->options);
    free(session->uri);
    free(session->path);
    free(session->text);
    free(session->entry);
    json_decref(session->request_id);
    json_decref(session->token);
    free(session);
}

/* ---------------------------------------------------------------- progress */

static void send_progress(gm_profile_session *session, json_t *value) {
    if (!value) {
        return;
    }
    gm_server_notify(session->server, "$/progress",
                     json_pack("{s:O,s:o}", "token", session->token, "value", value));
}

static void begin_progress(gm_profile_session *session) {
    session->progress = PROGRESS_ACTIVE;
    send_progress(session,
                  json_pack("{s:s,s:s,s:b,s:s,s:i}", "kind", "begin", "title", session->title,
                            "cancellable", 1, "message", session->last_message, "percentage",
                            (int)session->last_percent));
}

static void on_progress(void *context, const char *message, unsigned percent) {
    gm_profile_session *session = context;
    snprintf(session->last_message, sizeof session->last_message, "%s", message);
    session->last_percent = percent > 100 ? 100 : percent;
    if (session->progress == PROGRESS_ACTIVE) {
        send_progress(session,
                      json_pack("{s:s,s:s,s:i}", "kind", "report", "message", session->last_message,
                                "percentage", (int)session->last_percent));
    }
}

void gm_profile_progress_created(gm_server *server, int64_t request_id, bool accepted) {
    for (gm_profile_session *s = server->profiles; s; s = s->next) {
        if (s->progress == PROGRESS_PENDING && s->create_request == request_id) {
            if (accepted) {
                begin_progress(s);
            } else {
                s->progress = PROGRESS_NONE;
            }
            return;
        }
    }
}

static void on_started(void *context, const char *arm, long pid) {
    gm_profile_session *session = context;
    gm_server_log(session->server, 4, "profile: %s arm started as process %ld", arm, pid);
}

/* ---------------------------------------------------------------- the end */

static const char *const *profile_options(gm_server *server, const char *uri, const char *path,
                                          gm_analysis_options *options, size_t *root_count);

/* The report in a fenced block, as `graphmend confirm` prints it. */
static char *confirm_markdown(const json_t *report) {
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    if (!out) {
        return NULL;
    }
    fputs("```\n", out);
    gm_confirm_report_print_text(out, report);
    fputs("```\n", out);
    fclose(out);
    return text;
}

/* Judges the document's findings for the text that ran against dynamo's answer (result), keeps
 * the verdicts with the document when it still holds that text, and returns the answer: the
 * confirm report, with "markdown" and "shown_in_diagnostics". */
static json_t *confirm_answer(gm_server *server, gm_profile_session *session,
                              const json_t *result) {
    gm_document *doc = gm_document_store_find(&server->documents, session->uri);
    bool current = doc && doc->version == session->version && doc->len == session->len &&
                   memcmp(doc->text, session->text, session->len) == 0;
    gm_finding_list snapshot;
    gm_finding_list_init(&snapshot);
    const gm_finding_list *findings = &snapshot;
    if (current) {
        findings = gm_server_findings(server, doc);
    } else {
        /* edited or closed meanwhile: judge the text that ran, show nothing in the editor */
        gm_analysis_options options;
        size_t root_count;
        const char *const *roots =
            profile_options(server, session->uri, session->path, &options, &root_count);
        gm_analyze_source_with_roots(session->text, session->len, &options, roots, root_count,
                                     &snapshot);
    }
    json_t *report = gm_confirm_report_build(session->path, session->entry, findings, result);
    gm_finding_list_free(&snapshot);
    if (!report) {
        return json_pack("{s:b,s:s}", "ok", 0, "message", "out of memory");
    }
    if (current) {
        gm_confirmation_free(doc->confirmation);
        doc->confirmation = gm_confirmation_from_report(report);
        doc->diagnostics_dirty = true;
        if (server->client.pull_diagnostics) {
            if (server->client.diagnostic_refresh) {
                gm_server_request(server, "workspace/diagnostic/refresh", NULL);
            }
        } else {
            gm_publish_diagnostics(server, doc);
        }
    }
    char *markdown = confirm_markdown(report);
    json_object_set_new(report, "markdown", json_string(markdown ? markdown : ""));
    free(markdown);
    json_object_set_new(report, "shown_in_diagnostics", json_boolean(current));
    gm_server_log(server, 3, "confirm: %s%s",
                  json_string_value(json_object_get(report, "summary")),
                  current ? "" : " (the document changed while it ran: not shown)");
    return report;
}

static void on_done(void *context, json_t *result) {
    gm_profile_session *session = context;
    gm_server *server = session->server;
    unlink_session(server, session);
    bool ok = json_is_true(json_object_get(result, "ok"));
    const json_t *error = json_object_get(result, "error");
    const char *kind = json_string_value(json_object_get(error, "kind"));
    const char *message = json_string_value(json_object_get(error, "message"));
    if (session->progress == PROGRESS_ACTIVE) {
        send_progress(session, json_pack("{s:s,s:s}", "kind", "end", "message",
                                         ok ? "profile finished" : "profile failed"));
    }
    if (ok && session->confirm) {
        json_t *answer = confirm_answer(server, session, result);
        gm_server_send(server, gm_rpc_make_result(session->request_id, answer));
        json_decref(answer);
    } else if (ok) {
        char *markdown = gm_profile_report_markdown(result);
        json_t *answer = json_copy(result);
        json_object_set_new(answer, "markdown", json_string(markdown ? markdown : ""));
        free(markdown);
        gm_server_send(server, gm_rpc_make_result(session->request_id, answer));
        json_decref(answer);
    } else if (kind && strcmp(kind, "cancelled") == 0) {
        gm_server_send(server,
                       gm_rpc_make_error(session->request_id, GM_RPC_REQUEST_CANCELLED,
                                         "request cancelled: the profile was stopped", NULL));
    } else {
        char text[1024];
        snprintf(text, sizeof text, "graphmend %s failed: %s",
                 session->confirm ? "confirm" : "profile", message ? message : "unknown error");
        /* The error's data keeps the traceback and the end of the output for the client. */
        json_t *data = json_deep_copy(error);
        gm_server_send(server,
                       gm_rpc_make_error(session->request_id, GM_RPC_REQUEST_FAILED, text, data));
        json_decref(data);
        gm_server_show(server, 1, "%s", text);
    }
    free_session(session);
}

/* ---------------------------------------------------------------- the request */

typedef struct {
    char *text, *mended;
    size_t len, mended_len, applied;
    bool unsafe;
    char *path;
} profile_texts;

static void free_texts(profile_texts *texts) {
    free(texts->text);
    free(texts->mended);
    free(texts->path);
}

/* The document's analysis options (its settings when it is open, else its pyproject.toml) and
 * the functions of it that other files' compiled code calls (root_count of them). */
static const char *const *profile_options(gm_server *server, const char *uri, const char *path,
                                          gm_analysis_options *options, size_t *root_count) {
    memset(options, 0, sizeof *options); /* the defaults leave fields they do not know alone */
    gm_document *doc = gm_document_store_find(&server->documents, uri);
    if (doc) {
        gm_server_document_options(server, doc, options);
    } else {
        gm_analysis_options_default_with_version(options, server->interpreter_version);
        unsigned set = 0;
        char problem[600];
        gm_pyproject_load_for_file(path, options, &set, problem, sizeof problem);
    }
    uint64_t digest;
    *root_count = 0;
    return server->workspace
               ? gm_workspace_index_roots(server->workspace, path, root_count, &digest)
               : NULL;
}

/* A copy of the document's text: the editor's buffer when it is open (version its version), else
 * the file (version 0). NULL with the problem in error. */
static char *document_text(gm_server *server, const char *uri, const char *path, size_t *len,
                           int64_t *version, char *error, size_t error_size) {
    gm_document *doc = gm_document_store_find(&server->documents, uri);
    char *text;
    *version = 0;
    if (!doc) {
        text = gm_read_file(path, len);
        if (!text) {
            snprintf(error, error_size, "cannot read %.300s: %s", path, gm_read_file_error(errno));
        }
        return text;
    }
    text = malloc(doc->len + 1);
    if (!text) {
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    memcpy(text, doc->text, doc->len);
    text[doc->len] = '\0';
    *len = doc->len;
    *version = doc->version;
    return text;
}

/* The document's text (the editor's buffer when it is open, else the file) and its mended copy,
 * with unsafe mends when unsafe > 0, or when it is < 0 and the settings say unsafeFixes.
 * Returns 0, or -1 with the problem in error. */
static int prepare_texts(gm_server *server, const char *uri, int unsafe, profile_texts *texts,
                         char *error, size_t error_size) {
    memset(texts, 0, sizeof *texts);
    texts->path = gm_uri_to_path(uri);
    if (!texts->path) {
        snprintf(error, error_size, "%.200s is not a file: URI", uri);
        return -1;
    }
    int64_t version;
    texts->text = document_text(server, uri, texts->path, &texts->len, &version, error, error_size);
    if (!texts->text) {
        return -1;
    }
    gm_analysis_options options;
    size_t root_count;
    const char *const *roots = profile_options(server, uri, texts->path, &options, &root_count);
    texts->unsafe = unsafe < 0 ? options.unsafe_fixes : unsafe > 0;
    texts->mended = texts->text
                        ? gm_mend_text(texts->text, texts->len, texts->unsafe, &options, roots,
                                       root_count, &texts->mended_len, &texts->applied)
                        : NULL;
    if (!texts->mended) {
        snprintf(error, error_size, "out of memory");
        return -1;
    }
    return 0;
}

/* The answer, with its markdown, when no mend applies at the fix level: nothing runs. */
static json_t *nothing_to_compare(gm_server *server, const char *uri,
                                  const profile_texts *texts) {
    gm_analysis_options options;
    size_t root_count;
    const char *const *roots = profile_options(server, uri, texts->path, &options, &root_count);
    json_t *answer =
        gm_profile_nothing_to_compare(texts->path, texts->text, texts->len, &options, roots,
                                      root_count, texts->unsafe, "the unsafeFixes setting");
    char *markdown = gm_profile_report_markdown(answer);
    json_object_set_new(answer, "markdown", json_string(markdown ? markdown : ""));
    free(markdown);
    gm_server_log(server, 3, "profile: %s", json_string_value(json_object_get(answer, "message")));
    return answer;
}

/* The options object of the command: {entry, device, python, unsafeFixes, mode, backend,
 * iterations, warmup, timeout, packages}. Returns 0, or -1 with the problem in error. */
/* packages: a list of installed package names, joined with commas into buf. */
static int read_packages(const json_t *value, char *buf, size_t cap, char *error,
                         size_t error_size) {
    size_t used = 0, i;
    json_t *item;
    if (!json_is_array(value)) {
        snprintf(error, error_size, "arguments[1].packages must be a list of package names");
        return -1;
    }
    buf[0] = '\0';
    json_array_foreach(value, i, item) {
        const char *name = json_string_value(item);
        if (!name || !gm_package_name_valid(name)) {
            snprintf(error, error_size,
                     "arguments[1].packages[%zu] must be a package name such as \"transformers\"",
                     i);
            return -1;
        }
        int n = snprintf(buf + used, cap - used, "%s%s", used ? "," : "", name);
        if (n < 0 || (size_t)n >= cap - used) {
            snprintf(error, error_size, "arguments[1].packages: too many packages");
            return -1;
        }
        used += (size_t)n;
    }
    return 0;
}

static int read_options(const json_t *options, gm_profile_request *request, int *unsafe,
                        char *packages, size_t packages_cap, char *error, size_t error_size) {
    gm_profile_request_default(request);
    *unsafe = -1;
    if (!options || json_is_null(options)) {
        return 0;
    }
    if (!json_is_object(options)) {
        snprintf(error, error_size, "arguments[1] must be an object");
        return -1;
    }
    static const char *const string_keys[] = {"entry", "device", "python", "mode", "backend"};
    const char **targets[] = {&request->entry, &request->device, &request->python, &request->mode,
                              &request->backend};
    for (size_t i = 0; i < sizeof string_keys / sizeof string_keys[0]; i++) {
        json_t *value = json_object_get(options, string_keys[i]);
        if (!value || json_is_null(value)) {
            continue;
        }
        if (!json_is_string(value) || json_string_length(value) == 0) {
            snprintf(error, error_size, "arguments[1].%s must be a non-empty string",
                     string_keys[i]);
            return -1;
        }
        *targets[i] = json_string_value(value);
    }
    if (strcmp(request->device, "auto") != 0 && strcmp(request->device, "cuda") != 0 &&
        strcmp(request->device, "cpu") != 0) {
        snprintf(error, error_size, "arguments[1].device must be auto, cuda or cpu");
        return -1;
    }
    if (!gm_profile_mode_valid(request->mode) || !gm_profile_backend_valid(request->backend)) {
        snprintf(error, error_size, "arguments[1]: mode must be one of %s; backend one of %s",
                 GM_PROFILE_MODES, GM_PROFILE_BACKENDS);
        return -1;
    }
    json_t *flag = json_object_get(options, "unsafeFixes");
    if (flag && !json_is_null(flag)) {
        if (!json_is_boolean(flag)) {
            snprintf(error, error_size, "arguments[1].unsafeFixes must be true or false");
            return -1;
        }
        *unsafe = json_is_true(flag);
    }
    static const char *const count_keys[] = {"iterations", "warmup"};
    int *counts[] = {&request->iterations, &request->warmup};
    for (size_t i = 0; i < 2; i++) {
        json_t *value = json_object_get(options, count_keys[i]);
        if (value && (!json_is_integer(value) || json_integer_value(value) < (i == 0 ? 1 : 0) ||
                      json_integer_value(value) > 1000000)) {
            snprintf(error, error_size, "arguments[1].%s must be a whole number", count_keys[i]);
            return -1;
        }
        if (value) {
            *counts[i] = (int)json_integer_value(value);
        }
    }
    json_t *list = json_object_get(options, "packages");
    if (list && !json_is_null(list)) {
        if (read_packages(list, packages, packages_cap, error, error_size) != 0)
            return -1;
    }
    json_t *timeout = json_object_get(options, "timeout");
    if (timeout) {
        if (!json_is_number(timeout) || !(json_number_value(timeout) > 0)) {
            snprintf(error, error_size, "arguments[1].timeout must be seconds > 0");
            return -1;
        }
        request->timeout_s = json_number_value(timeout);
    }
    return 0;
}

static void start_progress(gm_server *server, gm_profile_session *session, json_t *params) {
    json_t *token = json_object_get(params, "workDoneToken");
    if (json_is_string(token) || json_is_integer(token)) {
        session->token = json_incref(token); /* client-initiated progress: no create needed */
        begin_progress(session);
        return;
    }
    if (!server->client.work_done_progress) {
        return;
    }
    char name[64];
    snprintf(name, sizeof name, "graphmend-profile-%u", ++server->next_profile_token);
    session->token = json_string(name);
    session->progress = PROGRESS_PENDING;
    session->create_request = gm_server_request(server, "window/workDoneProgress/create",
                                                json_pack("{s:O}", "token", session->token));
}

/* graphmend.profile with packages, once they are mended: the profile job as without them, its
 * mended arm importing the packages' mended copies. */
static void on_packages_mended(void *context, const char *launcher, const char *map, size_t mends,
                               const char *failure) {
    gm_profile_session *session = context;
    gm_server *server = session->server;
    session->mending_packages = false;
    char error[1600];
    if (session->abandoned) { /* the server answered it and let it go while the stage ran */
        free_session(session);
        return;
    }
    if (session->cancelled || failure) {
        unlink_session(server, session);
        if (session->progress == PROGRESS_ACTIVE) {
            send_progress(session, json_pack("{s:s,s:s}", "kind", "end", "message",
                                             session->cancelled ? "profile cancelled"
                                                                : "profile failed"));
        }
        if (session->cancelled) {
            gm_server_send(server,
                           gm_rpc_make_error(session->request_id, GM_RPC_REQUEST_CANCELLED,
                                             "request cancelled: the profile was stopped", NULL));
        } else {
            snprintf(error, sizeof error, "graphmend profile failed: %s", failure);
            gm_server_send(server, gm_rpc_make_error(session->request_id, GM_RPC_REQUEST_FAILED,
                                                     error, NULL));
            gm_server_show(server, 1, "%s", error);
        }
        free_session(session);
        return;
    }
    gm_profile_request request;
    int unsafe;
    char packages[1024];
    read_options(session->options, &request, &unsafe, packages, sizeof packages, error,
                 sizeof error); /* read once already: valid */
    request.display_path = session->path;
    request.original_text = session->text;
    request.original_len = session->len;
    request.mended_text = session->mended;
    request.mended_len = session->mended_len;
    request.mends_applied = session->applied;
    request.unsafe_fixes = session->unsafe_copy;
    request.mended_imports_launcher = launcher;
    request.mended_imports_map = map;
    request.package_mends = mends;
    gm_profile_callbacks callbacks = {
        .progress = on_progress, .started = on_started, .done = on_done, .context = session};
    on_progress(session, "packages mended; starting the original arm", 5);
    session->job = gm_profile_job_start(server->loop, &request, &callbacks, error, sizeof error);
    if (!session->job) {
        on_packages_mended(session, NULL, NULL, 0, error);
    }
}

/* graphmend.profile with packages: the packages are mended first (package_mend_stage.h), then
 * the job starts. Takes texts over. */
static json_t *start_with_packages(gm_server *server, json_t *params, const json_t *options,
                                   const gm_profile_request *request, const char *packages,
                                   profile_texts *texts, int *error_code, char *error,
                                   size_t error_size) {
    *error_code = GM_RPC_REQUEST_FAILED;
    gm_profile_session *session = calloc(1, sizeof *session);
    if (!session) {
        free_texts(texts);
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    session->server = server;
    session->request_id = json_deep_copy(gm_server_current_id(server));
    session->options = options ? json_deep_copy(options) : json_object();
    session->path = texts->path;
    session->text = texts->text;
    session->len = texts->len;
    session->mended = texts->mended;
    session->mended_len = texts->mended_len;
    session->applied = texts->applied;
    session->unsafe_copy = texts->unsafe;
    memset(texts, 0, sizeof *texts); /* owned by the session now */
    snprintf(session->packages, sizeof session->packages, "%s", packages);
    const char *base = strrchr(session->path, '/');
    snprintf(session->title, sizeof session->title, "graphmend: profiling %s",
             base ? base + 1 : session->path);
    snprintf(session->last_message, sizeof session->last_message,
             "mending %s into graphmend's cache (the first time takes a while)", packages);
    if (!session->options) {
        free_session(session);
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    session->mending_packages = true;
    if (gm_package_stage_start(server->loop, request->python, packages, session->path,
                               session->unsafe_copy, on_packages_mended, session, error,
                               error_size) != 0) {
        free_session(session);
        return NULL;
    }
    session->next = server->profiles;
    server->profiles = session;
    start_progress(server, session, params);
    gm_server_log(server, 3, "profile: mending %s for %s before running it", packages,
                  session->path);
    return GM_RESULT_SENT;
}

/* graphmend.confirm: one run of the document's text (the buffer when open) under
 * torch._dynamo.explain; the answer comes from confirm_answer. */
static json_t *start_confirm(gm_server *server, json_t *params, const char *uri,
                             gm_profile_request *request, int *error_code, char *error,
                             size_t error_size) {
    *error_code = GM_RPC_REQUEST_FAILED;
    gm_profile_session *session = calloc(1, sizeof *session);
    if (!session) {
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    session->server = server;
    session->confirm = true;
    session->uri = strdup(uri);
    session->path = gm_uri_to_path(uri);
    session->entry = strdup(request->entry);
    if (session->uri && !session->path) {
        snprintf(error, error_size, "%.200s is not a file: URI", uri);
        free_session(session);
        return NULL;
    }
    if (!session->uri || !session->entry) {
        snprintf(error, error_size, "out of memory");
        free_session(session);
        return NULL;
    }
    session->text = document_text(server, uri, session->path, &session->len, &session->version,
                                  error, error_size);
    if (!session->text) {
        free_session(session);
        return NULL;
    }
    request->confirm = true;
    request->display_path = session->path;
    request->original_text = session->text;
    request->original_len = session->len;
    session->request_id = json_deep_copy(gm_server_current_id(server));
    const char *base = strrchr(session->path, '/');
    snprintf(session->title, sizeof session->title, "graphmend: confirming %s with torch.compile",
             base ? base + 1 : session->path);
    snprintf(session->last_message, sizeof session->last_message, "starting Python");
    gm_profile_callbacks callbacks = {
        .progress = on_progress, .started = on_started, .done = on_done, .context = session};
    session->job = gm_profile_job_start(server->loop, request, &callbacks, error, error_size);
    if (!session->job) {
        free_session(session);
        return NULL;
    }
    session->next = server->profiles;
    server->profiles = session;
    start_progress(server, session, params);
    gm_server_log(server, 3, "confirm: running %s with %s (this executes the file's code)",
                  session->path, request->python);
    return GM_RESULT_SENT;
}

json_t *gm_handle_execute_command(gm_server *server, json_t *params, int *error_code, char *error,
                                  size_t error_size) {
    const char *command = NULL;
    if (gm_lsp_get_string(params, "command", "params", &command, error, error_size) != 0) {
        *error_code = GM_RPC_INVALID_PARAMS;
        return NULL;
    }
    bool confirm = strcmp(command, GM_CONFIRM_COMMAND) == 0;
    if (!confirm && strcmp(command, GM_PROFILE_COMMAND) != 0) {
        *error_code = GM_RPC_INVALID_PARAMS;
        snprintf(error, error_size, "unknown command '%.100s' (graphmend offers %s and %s)",
                 command, GM_PROFILE_COMMAND, GM_CONFIRM_COMMAND);
        return NULL;
    }
    json_t *arguments = json_object_get(params, "arguments");
    json_t *uri = json_array_get(arguments, 0);
    if (!json_is_string(uri)) {
        *error_code = GM_RPC_INVALID_PARAMS;
        snprintf(error, error_size, "%s needs arguments [uri, {entry, device, python}]",
                 command);
        return NULL;
    }
    if (gm_uri_has_nul(json_string_value(uri), json_string_length(uri))) {
        *error_code = GM_RPC_INVALID_PARAMS;
        snprintf(error, error_size,
                 "arguments[0] must not contain a NUL character (raw or as %%00)");
        return NULL;
    }
    gm_profile_request request;
    int unsafe;
    char packages[1024] = "";
    if (read_options(json_array_get(arguments, 1), &request, &unsafe, packages, sizeof packages,
                     error, error_size) != 0) {
        *error_code = GM_RPC_INVALID_PARAMS;
        return NULL;
    }
    if (!server->loop) {
        *error_code = GM_RPC_REQUEST_FAILED;
        snprintf(error, error_size, "profiling needs the server's event loop (graphmend serve)");
        return NULL;
    }
    if (confirm) {
        return start_confirm(server, params, json_string_value(uri), &request, error_code, error,
                             error_size);
    }
    profile_texts texts;
    if (prepare_texts(server, json_string_value(uri), unsafe, &texts, error, error_size) != 0) {
        free_texts(&texts);
        *error_code = GM_RPC_REQUEST_FAILED;
        return NULL;
    }
    if (texts.applied == 0 && !packages[0]) { /* packages: their mends make the difference */
        json_t *answer = nothing_to_compare(server, json_string_value(uri), &texts);
        free_texts(&texts);
        return answer;
    }
    if (packages[0]) {
        return start_with_packages(server, params, json_array_get(arguments, 1), &request,
                                   packages, &texts, error_code, error, error_size);
    }
    request.display_path = texts.path;
    request.original_text = texts.text;
    request.original_len = texts.len;
    request.mended_text = texts.mended;
    request.mended_len = texts.mended_len;
    request.mends_applied = texts.applied;
    request.unsafe_fixes = texts.unsafe;

    gm_profile_session *session = calloc(1, sizeof *session);
    if (!session) {
        free_texts(&texts);
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    session->server = server;
    session->request_id = json_deep_copy(gm_server_current_id(server));
    const char *base = strrchr(texts.path, '/');
    snprintf(session->title, sizeof session->title, "graphmend: profiling %s",
             base ? base + 1 : texts.path);
    snprintf(session->last_message, sizeof session->last_message, "%zu mend%s applied to the copy",
             texts.applied, texts.applied == 1 ? "" : "s");
    gm_profile_callbacks callbacks = {
        .progress = on_progress, .started = on_started, .done = on_done, .context = session};
    session->job = gm_profile_job_start(server->loop, &request, &callbacks, error, error_size);
    free_texts(&texts);
    if (!session->job) {
        free_session(session);
        *error_code = GM_RPC_REQUEST_FAILED;
        return NULL;
    }
    session->next = server->profiles;
    server->profiles = session;
    start_progress(server, session, params);
    gm_server_log(server, 3, "profile: running %s with %s (this executes the file's code)",
                  session->title + strlen("graphmend: profiling "), request.python);
    return GM_RESULT_SENT;
}

/* ---------------------------------------------------------------- cancellation */

/* Lets a session go that the server has answered or no longer answers: its job is killed, or,
 * while its packages are being mended, it is freed when that stage ends. */
static void release_session(gm_profile_session *session) {
    if (session->mending_packages) {
        session->abandoned = true;
        return;
    }
    gm_profile_job_abandon(session->job);
    free_session(session);
}

bool gm_profile_cancel_request(gm_server *server, const json_t *id) {
    char wanted[128], key[128];
    gm_rpc_id_key(id, wanted, sizeof wanted);
    for (gm_profile_session *s = server->profiles; s; s = s->next) {
        if (strcmp(gm_rpc_id_key(s->request_id, key, sizeof key), wanted) == 0) {
            if (s->job) {
                gm_profile_job_cancel(s->job);
            } else {
                s->cancelled = true; /* answered when the package stage ends */
            }
            return true;
        }
    }
    return false;
}

void gm_handle_work_done_progress_cancel(gm_server *server, json_t *params) {
    json_t *token = json_object_get(params, "token");
    for (gm_profile_session *s = server->profiles; s && token; s = s->next) {
        if (s->token && json_equal(s->token, token)) {
            if (s->job) {
                gm_profile_job_cancel(s->job);
            } else {
                s->cancelled = true;
            }
        }
    }
}

void gm_profile_cancel_all(gm_server *server) {
    /* Answered now rather than when the children are reaped: exit may follow at once. */
    while (server->profiles) {
        gm_profile_session *session = server->profiles;
        server->profiles = session->next;
        if (session->progress == PROGRESS_ACTIVE) {
            send_progress(session,
                          json_pack("{s:s,s:s}", "kind", "end", "message", "profile cancelled"));
        }
        gm_server_send(server,
                       gm_rpc_make_error(session->request_id, GM_RPC_REQUEST_CANCELLED,
                                         "request cancelled: the server is shutting down", NULL));
        release_session(session);
    }
}

void gm_server_stop_jobs(gm_server *server) {
    gm_interpreter_probe_stop(server);
    gm_library_stop(server);
    while (server->profiles) {
        gm_profile_session *session = server->profiles;
        server->profiles = session->next;
        release_session(session);
    }
}
