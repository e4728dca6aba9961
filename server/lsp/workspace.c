/* The workspace's modules for the language server: the folders the client opened are indexed
 * once it is initialized; every analysis of an open document first takes the functions that
 * compiled code of other files calls, and afterwards gives the index the document's own summary.
 * When that changes what other open documents are entered by, they are analysed again. Files
 * outside the folders are indexed with the modules they import as they are opened. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "protocol/lsp_params.h"
#include "protocol/uri.h"
#include "server/lsp/lsp_internal.h"
#include "server/config/summary_cache.h"
#include "server/workspace/file_reader.h"
#include "server/workspace/python_walk.h"
#include "server/workspace/summary_store.h"
#include "server/workspace/workspace_index.h"

/* Most files indexed per workspace: beyond it, cross-file calls into the rest are not seen. */
#define GM_WORKSPACE_MAX_FILES 20000
/* Time spent walking the folders at initialized before the first answers; the rest (and every
 * summary) runs in slices while the client is quiet. */
#define GM_WORKSPACE_FIRST_SLICE_US 200000.0

static int add_folder(gm_server *server, const json_t *uri_value) {
    const char *uri = json_string_value(uri_value);
    if (!uri || strncmp(uri, "file:", 5) != 0 || server->workspace_folder_count >= GM_MAX_FOLDERS)
        return 0;
    if (gm_uri_has_nul(uri, json_string_length(uri_value))) {
        gm_server_log(server, 2, "workspace folder ignored: its URI contains a NUL character");
        return 0;
    }
    char *path = gm_uri_to_path(uri);
    if (!path)
        return 0;
    for (size_t i = 0; i < server->workspace_folder_count; i++)
        if (strcmp(server->workspace_folders[i], path) == 0) {
            free(path);
            return 0;
        }
    server->workspace_folders[server->workspace_folder_count++] = path;
    return 0;
}

void gm_workspace_note_folders(gm_server *server, const json_t *params) {
    json_t *folders = json_object_get(params, "workspaceFolders");
    size_t i;
    json_t *folder;
    json_array_foreach(folders, i, folder) {
        add_folder(server, json_object_get(folder, "uri"));
    }
    if (server->workspace_folder_count == 0)
        add_folder(server, json_object_get(params, "rootUri"));
}

static gm_workspace_index *index_of(gm_server *server) {
    if (!server->workspace)
        server->workspace = gm_workspace_index_new();
    return server->workspace;
}

/* Directory entries a walk visits between two looks at the clock. */
#define GM_WORKSPACE_WALK_STEP 64

/* The folders still to walk and their files still to summarise: the first ones at initialized,
 * the rest while the client is quiet (gm_server_background_work), so a large workspace (even `/`)
 * does not hold up the first answers. */
struct gm_workspace_scan {
    gm_python_walk *walk; /* of folder next_folder - 1; NULL between folders */
    size_t next_folder;
    gm_path_list files;
    size_t next, failed;
    bool truncated;
    double started_us;
};

static void scan_free(gm_server *server) {
    if (server->scan) {
        gm_python_walk_free(server->scan->walk);
        gm_path_list_free(&server->scan->files);
        free(server->scan);
        server->scan = NULL;
    }
}

static void reanalyse_entered_documents(gm_server *server, const gm_document *except);

/* Walks the folders a step further. Returns false when every folder has been walked. */
static bool walk_step(gm_server *server) {
    struct gm_workspace_scan *scan = server->scan;
    if (!scan->walk) {
        if (scan->next_folder == server->workspace_folder_count)
            return false;
        size_t room = GM_WORKSPACE_MAX_FILES - scan->files.count;
        scan->walk =
            gm_python_walk_new(server->workspace_folders[scan->next_folder++], room, true);
        return scan->walk != NULL;
    }
    if (!gm_python_walk_step(scan->walk, &scan->files, GM_WORKSPACE_WALK_STEP)) {
        scan->truncated |= gm_python_walk_truncated(scan->walk);
        gm_python_walk_free(scan->walk);
        scan->walk = NULL;
    }
    return true;
}

/* The paths of the open documents (owned, *count of them; NULL when none or out of memory). */
static char **open_paths(const gm_server *server, size_t *count) {
    *count = 0;
    char **paths = server->documents.count
                       ? calloc(server->documents.count, sizeof *paths)
                       : NULL;
    for (gm_document *doc = server->documents.head; paths && doc; doc = doc->next) {
        char *path = gm_uri_to_path(doc->uri);
        if (path)
            paths[(*count)++] = path;
    }
    return paths;
}

static bool is_open(char *const *paths, size_t count, const char *path) {
    for (size_t i = 0; i < count; i++)
        if (strcmp(paths[i], path) == 0)
            return true;
    return false;
}

/* Keeps what the index summarised for the next session (a new file, renamed over the old). */
static void save_summaries(gm_server *server) {
    if (server->summary_store && gm_summary_store_save(server->summary_store) != 0)
        gm_server_log(server, 2, "workspace: could not write the cache %s",
                      gm_summary_store_path(server->summary_store));
}

/* The index summarises files from disk through the cache of the first folder's project, the
 * one `graphmend check` keeps there too: a second session in a large workspace reads its
 * summaries instead of parsing every file again. Only for the default forward-is-compiled:
 * files opened outside the folders are summarised with the defaults, and the cache must hold
 * summaries of one kind. */
static void open_summary_store(gm_server *server) {
    if (server->summary_store || server->workspace_folder_count == 0 ||
        !server->settings.analysis.forward_is_compiled)
        return;
    const char *folder = server->workspace_folders[0];
    char project[4096], inside[4096 + 16];
    if (gm_project_root_for_path(folder, project, sizeof project) != 0)
        snprintf(project, sizeof project, "%s", folder);
    snprintf(inside, sizeof inside, "%s/pyproject.toml", folder); /* the nearest one to it */
    gm_analysis_options options;
    gm_analysis_options_default(&options);
    server->summary_store = gm_project_summary_store(inside, project, NULL, &options);
    if (server->summary_store) {
        gm_summary_memo memo = gm_summary_store_memo(server->summary_store);
        gm_workspace_index_set_memo(server->workspace, &memo);
    }
}

/* Summarises files until budget_us has passed (walking only, when summarise is false); at the
 * end, solves and refreshes what changed. An open document is not read from disk: its analysis
 * gives the index its summary (gm_workspace_after_analysis), of the text being edited, in the
 * one pass over it that its diagnostics need. */
static void scan_step(gm_server *server, double budget_us, bool summarise) {
    struct gm_workspace_scan *scan = server->scan;
    gm_workspace_index *index = server->workspace;
    if (!scan || !index)
        return;
    double until = gm_server_now_us() + budget_us;
    gm_analysis_options options;
    gm_analysis_options_default(&options);
    options.forward_is_compiled = server->settings.analysis.forward_is_compiled;
    size_t open_count;
    char **open = summarise ? open_paths(server, &open_count) : NULL;
    bool walking = true;
    while (gm_server_now_us() < until) {
        if (summarise && scan->next < scan->files.count) {
            const char *path = scan->files.paths[scan->next++];
            if (!is_open(open, open ? open_count : 0, path) &&
                gm_workspace_index_add_file(index, path, &options) != 0)
                scan->failed++;
        } else if (!(walking = walk_step(server)))
            break;
    }
    for (size_t i = 0; open && i < open_count; i++)
        free(open[i]);
    free(open);
    if (walking || scan->next < scan->files.count)
        return;
    gm_server_log(server, scan->truncated ? 2 : 3,
                  "workspace: %zu Python files indexed in %.0f ms%s%s", scan->files.count,
                  (gm_server_now_us() - scan->started_us) / 1000.0,
                  scan->failed ? " (some could not be read or parsed)" : "",
                  scan->truncated ? "; more files than the index holds: calls into the rest "
                                    "are not followed"
                                  : "");
    scan_free(server);
    save_summaries(server);
    if (gm_workspace_index_solve(index) == 0) {
        reanalyse_entered_documents(server, NULL);
        gm_publish_dirty_diagnostics(server);
    }
}

void gm_workspace_index_folders(gm_server *server) {
    if (!index_of(server) || server->workspace_folder_count == 0)
        return;
    scan_free(server);
    open_summary_store(server);
    server->scan = calloc(1, sizeof *server->scan);
    if (!server->scan)
        return;
    server->scan->started_us = gm_server_now_us();
    /* Only the walk now: the files the client opens next are analysed first, and summarised by
     * that analysis instead of being read from disk once more (scan_step). */
    scan_step(server, GM_WORKSPACE_FIRST_SLICE_US, false);
}

static bool summaries_waiting(const gm_server *server) {
    for (const gm_document *doc = server->documents.head; doc; doc = doc->next)
        if (doc->summary_deferred)
            return true;
    return false;
}

bool gm_server_has_background_work(const gm_server *server) {
    return (server->scan != NULL || summaries_waiting(server)) && !server->finished;
}

void gm_server_background_work(gm_server *server, unsigned budget_ms) {
    gm_workspace_flush_summaries(server);
    scan_step(server, budget_ms * 1000.0, true);
}

bool gm_workspace_summary_can_wait(const gm_server *server, const gm_document *doc) {
    if (!server->workspace || server->client.pull_diagnostics || doc->imports_pending ||
        doc->summary_digest == 0)
        return false;
    uint64_t digest = gm_analyzer_summary_digest(doc->analyzer);
    return digest && digest != doc->summary_digest;
}

void gm_workspace_flush_summaries(gm_server *server) {
    bool any = false;
    for (gm_document *doc = server->documents.head; doc; doc = doc->next) {
        if (!doc->summary_deferred)
            continue;
        doc->summary_deferred = false;
        /* edited since: its next analysis gives the summary of the newer text */
        if (!doc->findings)
            continue;
        any = true;
        double started = server->trace_timing ? gm_server_now_us() : 0;
        bool own = gm_workspace_after_analysis(server, doc);
        if (server->trace_timing)
            fprintf(stderr, "timing: v%lld summary given to the index after publishing, %.0f us\n",
                    (long long)doc->version, gm_server_now_us() - started);
        if (own) {
            doc->findings = NULL;
            doc->diagnostics_dirty = true;
            doc->publish_if_changed = true;
        }
    }
    if (any)
        gm_publish_dirty_diagnostics(server);
}

static bool in_folders(const gm_server *server, const char *path) {
    for (size_t i = 0; i < server->workspace_folder_count; i++) {
        size_t n = strlen(server->workspace_folders[i]);
        if (strncmp(path, server->workspace_folders[i], n) == 0 && (path[n] == '/' || n == 1))
            return true;
    }
    return false;
}

void gm_workspace_before_analysis(gm_server *server, gm_document *doc) {
    gm_workspace_index *index = index_of(server);
    char *path = gm_uri_to_path(doc->uri);
    if (!index || !path) {
        free(path);
        return;
    }
    if (!doc->workspace_known && !in_folders(server, path)) {
        /* A file the folders do not cover: its imports come from next to it, loaded once this
         * analysis has given its summary (gm_workspace_after_analysis): one parse, not a
         * summary from disk first. */
        doc->imports_pending = true;
    }
    doc->workspace_known = true;
    size_t count;
    uint64_t digest;
    const char *const *roots = gm_workspace_index_roots(index, path, &count, &digest);
    gm_analyzer_set_external_roots(doc->analyzer, roots, count);
    doc->external_digest = digest;
    free(path);
}

bool gm_workspace_after_analysis(gm_server *server, gm_document *doc) {
    gm_workspace_index *index = server->workspace;
    uint64_t digest = gm_analyzer_summary_digest(doc->analyzer);
    /* Most keystrokes change nothing other modules see: building the summary walks the whole
     * file's call parts (10 ms at 50k lines), comparing it too. */
    if (digest && digest == doc->summary_digest && !doc->imports_pending)
        return false;
    char *path = index ? gm_uri_to_path(doc->uri) : NULL;
    gm_module_summary summary;
    if (!path || gm_analyzer_module_summary(doc->analyzer, &summary) != 0) {
        free(path);
        return false;
    }
    int changed = gm_workspace_index_update(index, path, &summary);
    doc->summary_digest = changed >= 0 ? digest : 0;
    if (doc->imports_pending) {
        doc->imports_pending = false;
        gm_analysis_options options;
        gm_analysis_options_default(&options);
        if (gm_workspace_index_load_imports(index, &options, GM_WORKSPACE_MAX_FILES) == 0)
            changed = 1; /* solve with the modules it imports */
    }
    bool own = false;
    if (changed == 1 && gm_workspace_index_solve(index) == 0) {
        reanalyse_entered_documents(server, doc);
        /* The document's own summary may be what the other modules' calls needed to reach it
         * (the first time it enters the index, before the folder scan got to it): then its
         * own external roots changed too. */
        size_t count;
        uint64_t digest;
        gm_workspace_index_roots(index, path, &count, &digest);
        own = digest != doc->external_digest;
    }
    free(path);
    return own;
}

/* Marks the open documents (but except) whose external roots changed with the last solve. */
static void reanalyse_entered_documents(gm_server *server, const gm_document *except) {
    gm_workspace_index *index = server->workspace;
    bool others = false;
    for (gm_document *other = server->documents.head; other; other = other->next) {
        char *other_path = other == except ? NULL : gm_uri_to_path(other->uri);
        if (!other_path)
            continue;
        size_t count;
        uint64_t digest;
        gm_workspace_index_roots(index, other_path, &count, &digest);
        free(other_path);
        if (digest != other->external_digest) {
            other->findings = NULL;
            other->diagnostics_dirty = true;
            others = true;
        }
    }
    if (others && server->client.pull_diagnostics && server->client.diagnostic_refresh)
        gm_server_request(server, "workspace/diagnostic/refresh", NULL);
}

void gm_workspace_document_closed(gm_server *server, const char *uri) {
    /* The buffer may have held unsaved text: what the file on disk says counts again. */
    char *path = server->workspace ? gm_uri_to_path(uri) : NULL;
    if (!path)
        return;
    size_t len = 0;
    char *text = gm_read_file(path, &len);
    gm_module_summary summary;
    gm_analysis_options options;
    gm_analysis_options_default(&options);
    if (text && gm_module_summary_from_source(text, len, &options, &summary) == 0 &&
        gm_workspace_index_update(server->workspace, path, &summary) == 1 &&
        gm_workspace_index_solve(server->workspace) == 0)
        reanalyse_entered_documents(server, NULL);
    free(text);
    free(path);
}

void gm_workspace_free(gm_server *server) {
    scan_free(server);
    save_summaries(server);
    if (server->workspace)
        gm_workspace_index_set_memo(server->workspace, NULL);
    gm_summary_store_free(server->summary_store);
    server->summary_store = NULL;
    for (size_t i = 0; i < server->workspace_folder_count; i++)
        free(server->workspace_folders[i]);
    server->workspace_folder_count = 0;
    gm_workspace_index_free(server->workspace);
    server->workspace = NULL;
}
