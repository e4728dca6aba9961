/* GM902 in the editor: at a compile call of a model whose class an installed package defines,
 * a diagnostic with the breaks graphmend predicts in the package on the model's path as related
 * locations, and a code action that profiles with the package mended. The package's analysis
 * (server/libraries/library_breaks.h: the interpreter asked where the package is, its files
 * summarised and analysed) runs on libuv's threadpool, never on the loop; the document's
 * diagnostics are published again when it is ready. Reports are kept per (interpreter, class,
 * options) for the session; the worker's cache checks the package's files for changes. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <uv.h>

#include "analysis/analyzer.h"
#include "analysis/module_facts/compile_targets.h"
#include "analysis/module_facts/module_summary.h"
#include "protocol/uri.h"
#include "server/libraries/library_breaks.h"
#include "server/libraries/library_finding.h"
#include "server/lsp/lsp_internal.h"
#include "server/profile/defaults.h"

typedef struct library_entry {
    char *python, *target;
    uint64_t options;
    bool ready;
    gm_library_report report; /* when ready */
    struct library_entry *next;
} library_entry;

/* The compile sites of one open document, as of a version of its text. */
typedef struct document_sites {
    char *uri;
    int64_t version;
    size_t len;
    uint64_t analysis_digest; /* of the analysis the sites came from, or 0 */
    gm_compile_site_list sites;
    struct document_sites *next;
} document_sites;

struct gm_library_state {
    gm_library_cache *cache; /* used by the worker threads (locked inside) */
    library_entry *entries;
    document_sites *documents;
    size_t in_flight;
    bool stopping; /* the server is going away: finished work publishes nothing */
};

typedef struct {
    uv_work_t work;
    gm_server *server;
    library_entry *entry; /* entries live as long as the state */
    gm_library_cache *cache;
    char *python, *target, *user_path;
    gm_analysis_options options;
    gm_library_report report;
    int rc;
} library_job;

static gm_library_state *state_of(gm_server *server) {
    if (!server->libraries) {
        server->libraries = calloc(1, sizeof *server->libraries);
        if (server->libraries && !(server->libraries->cache = gm_library_cache_new())) {
            free(server->libraries);
            server->libraries = NULL;
        }
    }
    return server->libraries;
}

static const char *interpreter(const gm_server *server) {
    if (server->settings.python[0])
        return server->settings.python;
    gm_profile_request defaults;
    gm_profile_request_default(&defaults); /* $GRAPHMEND_PYTHON, then python3 */
    return defaults.python;
}

/* ---- the worker ---------------------------------------------------------------------- */

static void run_job(uv_work_t *work) {
    library_job *job = work->data;
    job->rc = gm_library_report_get(job->cache, job->python, job->target, &job->options,
                                    job->user_path, &job->report);
}

static void free_job(library_job *job) {
    free(job->python);
    free(job->target);
    free(job->user_path);
    gm_library_report_free(&job->report);
    free(job);
}

/* Documents whose sites compile target are published again. */
static void republish(gm_server *server, const char *target) {
    gm_library_state *state = server->libraries;
    bool any = false;
    for (document_sites *d = state->documents; d; d = d->next) {
        for (size_t i = 0; i < d->sites.count; i++) {
            char site_target[4 * GM_NAME_MAX];
            const gm_compile_site *site = &d->sites.items[i];
            if (gm_library_target_of(site->name, site->member, site_target, sizeof site_target) !=
                    0 ||
                strcmp(site_target, target) != 0)
                continue;
            gm_document *doc = gm_document_store_find(&server->documents, d->uri);
            if (doc) {
                doc->diagnostics_dirty = true;
                any = true;
            }
            break;
        }
    }
    if (!any)
        return;
    if (server->client.pull_diagnostics) {
        if (server->client.diagnostic_refresh)
            gm_server_request(server, "workspace/diagnostic/refresh", NULL);
    } else {
        gm_publish_dirty_diagnostics(server);
    }
}

static void job_done(uv_work_t *work, int status) {
    library_job *job = work->data;
    gm_server *server = job->server;
    gm_library_state *state = server->libraries;
    state->in_flight--;
    library_entry *entry = job->entry;
    if (status != 0 || job->rc != 0) {
        /* cancelled (the server is stopping) or out of memory: asked again next time */
        entry->ready = false;
        free(entry->target);
        entry->target = strdup("");
        free_job(job);
        return;
    }
    entry->report = job->report;
    memset(&job->report, 0, sizeof job->report);
    entry->ready = true;
    if (!state->stopping) {
        if (entry->report.error)
            gm_server_log(server, 3, "GM902: %s not analysed: %s", entry->target,
                          entry->report.error);
        else
            gm_server_log(server, 4, "GM902: %s: %zu breaks predicted, %zu of %zu files "
                          "analysed (%zu classes) in %.2f s",
                          entry->target, entry->report.break_count, entry->report.files_analysed,
                          entry->report.files_summarised, entry->report.classes,
                          entry->report.seconds);
        republish(server, entry->target);
    }
    free_job(job);
}

/* The entry for target under python and options: started on the threadpool when new. NULL on
 * OOM or without a loop. */
static library_entry *entry_for(gm_server *server, gm_document *doc, const char *target,
                                const gm_analysis_options *options) {
    gm_library_state *state = server->libraries;
    const char *python = interpreter(server);
    uint64_t digest = gm_library_options_digest(options);
    for (library_entry *e = state->entries; e; e = e->next)
        if (e->options == digest && strcmp(e->target, target) == 0 &&
            strcmp(e->python, python) == 0)
            return e;
    if (!server->loop || state->stopping)
        return NULL;
    library_entry *entry = calloc(1, sizeof *entry);
    library_job *job = calloc(1, sizeof *job);
    if (!entry || !job) {
        free(entry);
        free(job);
        return NULL;
    }
    entry->python = strdup(python);
    entry->target = strdup(target);
    entry->options = digest;
    job->server = server;
    job->entry = entry;
    job->cache = state->cache;
    job->python = strdup(python);
    job->target = strdup(target);
    job->user_path = gm_uri_to_path(doc->uri); /* NULL for an unsaved buffer: no project */
    job->options = *options;
    job->work.data = job;
    if (!entry->python || !entry->target || !job->python || !job->target ||
        uv_queue_work(server->loop, &job->work, run_job, job_done) != 0) {
        free(entry->python);
        free(entry->target);
        free(entry);
        free_job(job);
        return NULL;
    }
    state->in_flight++;
    entry->next = state->entries;
    state->entries = entry;
    return entry;
}

/* ---- the document's sites --------------------------------------------------------------- */

/* The compile sites of doc's current text (parsed again only after a change). */
static const gm_compile_site_list *sites_of(gm_server *server, gm_document *doc,
                                            const gm_analysis_options *options) {
    gm_library_state *state = server->libraries;
    document_sites *d = state->documents;
    while (d && strcmp(d->uri, doc->uri) != 0)
        d = d->next;
    /* the sites follow from the analysis (its summary and where its compile calls are): most
     * keystrokes leave that digest alone, and building the sites walks every statement's part */
    uint64_t analysis = doc->analyzer ? gm_analyzer_compile_sites_digest(doc->analyzer) : 0;
    if (d && ((analysis && d->analysis_digest == analysis) ||
              (d->version == doc->version && d->len == doc->len))) {
        d->version = doc->version;
        d->len = doc->len;
        return &d->sites;
    }
    if (!d) {
        d = calloc(1, sizeof *d);
        if (!d || !(d->uri = strdup(doc->uri))) {
            free(d);
            return NULL;
        }
        d->next = state->documents;
        state->documents = d;
    }
    gm_compile_site_list_free(&d->sites);
    d->version = doc->version;
    d->len = doc->len;
    d->analysis_digest = 0;
    /* from the document's analysis when it has one (parsing the text again cost a keystroke
     * 45 ms at 5,000 lines) */
    if (!gm_text_may_call_compile(doc->text, doc->len))
        d->analysis_digest = analysis;
    else if (analysis && gm_analyzer_compile_sites(doc->analyzer, &d->sites) == 0)
        d->analysis_digest = analysis;
    else if (gm_imported_compile_sites(doc->text, doc->len, options, &d->sites) != 0)
        memset(&d->sites, 0, sizeof d->sites);
    return &d->sites;
}

/* ---- diagnostics ------------------------------------------------------------------------ */

static void write_position(gm_json_writer *w, uint32_t line, uint32_t character) {
    gm_json_raw_str(w, "{\"line\":");
    gm_json_int(w, line);
    gm_json_raw_str(w, ",\"character\":");
    gm_json_int(w, character);
    gm_json_raw_str(w, "}");
}

static void write_doc_position(gm_json_writer *w, const gm_server *server, const gm_document *doc,
                               size_t offset) {
    uint32_t line, character;
    gm_offset_to_position(doc->text, doc->len, &doc->lines, server->encoding, offset, &line,
                          &character);
    write_position(w, line, character);
}

/* A column of a package file's line in the client's encoding. */
static uint32_t column_units(const gm_server *server, const char *line, uint32_t byte_column) {
    size_t n = strlen(line);
    return gm_count_units(line, 0, byte_column < n ? byte_column : n, server->encoding);
}

static void write_related(gm_json_writer *w, const gm_server *server,
                          const gm_library_report *report) {
    gm_json_raw_str(w, ",\"relatedInformation\":[");
    for (size_t i = 0; i < report->break_count; i++) {
        const gm_library_break *b = &report->breaks[i];
        char *uri = gm_path_to_uri(b->path);
        if (!uri)
            continue;
        gm_json_raw_str(w, i ? ",{\"location\":{\"uri\":" : "{\"location\":{\"uri\":");
        gm_json_string(w, uri, strlen(uri));
        free(uri);
        gm_json_raw_str(w, ",\"range\":{\"start\":");
        write_position(w, b->start_row, column_units(server, b->start_line, b->start_column));
        gm_json_raw_str(w, ",\"end\":");
        write_position(w, b->end_row, column_units(server, b->end_line, b->end_column));
        gm_json_raw_str(w, "}},\"message\":");
        char message[1500];
        snprintf(message, sizeof message, "%s %s: %s%s%.250s", b->rule->id, b->rule->name,
                 b->message, b->condition ? " (only " : "", b->condition ? b->condition : "");
        if (b->condition)
            strncat(message, ")", sizeof message - strlen(message) - 1);
        gm_json_string(w, message, strlen(message));
        gm_json_raw_str(w, "}");
    }
    gm_json_raw_str(w, "]");
}

/* The ready report of each site of doc, or NULL (started when unknown). */
typedef void (*site_visit)(gm_server *server, gm_document *doc, const gm_compile_site *site,
                           const gm_library_report *report, void *context);

static void each_site(gm_server *server, gm_document *doc, site_visit visit, void *context) {
    gm_analysis_options options;
    gm_server_document_options(server, doc, &options);
    const gm_rule *rule = gm_rule_by_id("GM902");
    if (!gm_analysis_rule_enabled(&options, rule) || !state_of(server))
        return;
    const gm_compile_site_list *sites = sites_of(server, doc, &options);
    for (size_t i = 0; sites && i < sites->count; i++) {
        const gm_compile_site *site = &sites->items[i];
        char package[128];
        snprintf(package, sizeof package, "%.*s", (int)strcspn(site->name, "."), site->name);
        if (gm_library_package_skipped(package) || !strchr(site->name, '.'))
            continue;
        char target[4 * GM_NAME_MAX];
        if (gm_library_target_of(site->name, site->member, target, sizeof target) != 0)
            continue;
        library_entry *entry = entry_for(server, doc, target, &options);
        if (entry && entry->ready && !entry->report.error &&
            gm_library_certain_breaks(&entry->report) > 0)
            visit(server, doc, site, &entry->report, context);
    }
}

typedef struct {
    gm_json_writer *writer;
    bool *first;
} write_context;

static void write_site(gm_server *server, gm_document *doc, const gm_compile_site *site,
                       const gm_library_report *report, void *context) {
    write_context *c = context;
    gm_finding finding;
    if (gm_library_finding(report, site, false, &finding) != 0)
        return;
    gm_json_writer *w = c->writer;
    gm_json_raw_str(w, *c->first ? "{\"range\":{\"start\":" : ",{\"range\":{\"start\":");
    *c->first = false;
    write_doc_position(w, server, doc, site->start_byte);
    gm_json_raw_str(w, ",\"end\":");
    write_doc_position(w, server, doc, site->end_byte);
    gm_json_raw_str(w, "},\"severity\":");
    gm_json_int(w, gm_finding_severity(&finding));
    gm_json_raw_str(w, ",\"code\":\"GM902\",\"source\":\"graphmend\",\"message\":");
    gm_json_string(w, finding.message, strlen(finding.message));
    write_related(w, server, report);
    gm_json_raw_str(w, ",\"data\":{\"packages\":[");
    gm_json_string(w, report->package, strlen(report->package));
    gm_json_raw_str(w, "]}}");
    gm_finding_free(&finding);
}

void gm_library_write_diagnostics(gm_server *server, gm_document *doc, gm_json_writer *writer,
                                  bool *first) {
    write_context context = {writer, first};
    each_site(server, doc, write_site, &context);
}

/* ---- the code action -------------------------------------------------------------------- */

typedef struct {
    size_t start, end;
    json_t *actions;
} action_context;

static void add_profile_action(gm_server *server, gm_document *doc, const gm_compile_site *site,
                               const gm_library_report *report, void *context) {
    (void)server;
    action_context *c = context;
    /* offered on the lines of the call, where the cursor is when the lightbulb shows */
    size_t first = gm_line_index_line_of(&doc->lines, c->start);
    size_t last = gm_line_index_line_of(&doc->lines, c->end);
    if (site->start_row > last || site->end_row < first)
        return;
    char title[200];
    snprintf(title, sizeof title, "Profile with %s mended", report->package);
    json_t *arguments = json_pack("[s,{s:[s]}]", doc->uri, "packages", report->package);
    json_t *action = json_pack("{s:s,s:{s:s,s:s,s:o}}", "title", title, "command", "title", title,
                               "command", GM_PROFILE_COMMAND, "arguments", arguments);
    if (action)
        json_array_append_new(c->actions, action);
}

void gm_library_code_actions(gm_server *server, gm_document *doc, size_t start, size_t end,
                             json_t *actions) {
    action_context context = {start, end, actions};
    each_site(server, doc, add_profile_action, &context);
}

/* ---- lifetime ------------------------------------------------------------------------------ */

void gm_library_document_closed(gm_server *server, const char *uri) {
    gm_library_state *state = server->libraries;
    for (document_sites **link = state ? &state->documents : NULL; link && *link;
         link = &(*link)->next) {
        document_sites *d = *link;
        if (strcmp(d->uri, uri) == 0) {
            *link = d->next;
            gm_compile_site_list_free(&d->sites);
            free(d->uri);
            free(d);
            return;
        }
    }
}

void gm_library_forget_reports(gm_server *server) {
    gm_library_state *state = server->libraries;
    if (!state)
        return;
    /* entries with work in flight stay (their job holds them); the others go */
    for (library_entry **link = &state->entries; *link;) {
        library_entry *e = *link;
        if (!e->ready) {
            link = &e->next;
            continue;
        }
        *link = e->next;
        free(e->python);
        free(e->target);
        gm_library_report_free(&e->report);
        free(e);
    }
}

void gm_library_stop(gm_server *server) {
    if (server->libraries)
        server->libraries->stopping = true;
}

void gm_library_free(gm_server *server) {
    gm_library_state *state = server->libraries;
    if (!state)
        return;
    /* the transport runs the loop until the threadpool's work is done before it frees the
     * server, so nothing is in flight here */
    while (state->entries) {
        library_entry *e = state->entries;
        state->entries = e->next;
        free(e->python);
        free(e->target);
        gm_library_report_free(&e->report);
        free(e);
    }
    while (state->documents) {
        document_sites *d = state->documents;
        state->documents = d->next;
        gm_compile_site_list_free(&d->sites);
        free(d->uri);
        free(d);
    }
    gm_library_cache_free(state->cache);
    free(state);
    server->libraries = NULL;
}
