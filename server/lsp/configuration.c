/* Settings from the client: workspace/configuration (pulled) and didChangeConfiguration. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "protocol/uri.h"
#include "server/config/pyproject_config.h"
#include "server/workspace/file_reader.h"

#include "protocol/lsp_params.h"
#include "server/lsp/lsp_internal.h"

static void apply_section(gm_server *server, const json_t *section) {
    char problems[512];
    bool changed = gm_settings_apply_json(&server->settings, section, problems, sizeof problems);
    if (problems[0]) {
        gm_server_show(server, 2, "graphmend settings: %s (keeping the previous values)", problems);
    }
    if (changed) {
        gm_server_log(server, 3, "settings changed: re-analysing open documents");
        gm_invalidate_all_diagnostics(server);
    }
}

void gm_request_configuration(gm_server *server) {
    gm_server_request(server, "workspace/configuration",
                      json_pack("{s:[{s:s}]}", "items", "section", "graphmend"));
}

void gm_handle_configuration_response(gm_server *server, json_t *result) {
    if (!json_is_array(result) || json_array_size(result) < 1) {
        gm_server_log(server, 2, "workspace/configuration answer is not a one-item array");
        return;
    }
    apply_section(server, json_array_get(result, 0));
}

void gm_handle_did_change_configuration(gm_server *server, json_t *params) {
    json_t *section = gm_lsp_dig(params, "settings", "graphmend", NULL);
    if (json_is_object(section)) {
        apply_section(server, section);
    } else if (server->client.configuration) {
        /* Clients that send {"settings": null} expect us to pull. */
        gm_request_configuration(server);
    }
}

/* The options of the pyproject.toml at path (read again when it changed on disk). */
static const gm_pyproject_entry *pyproject_entry(gm_server *server, const char *path) {
    struct stat st;
    if (stat(path, &st) != 0) {
        return NULL;
    }
    long long mtime = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
    gm_pyproject_entry *entry = NULL, *oldest = &server->pyprojects[0];
    for (size_t i = 0; i < GM_PYPROJECT_CACHE; i++) {
        gm_pyproject_entry *e = &server->pyprojects[i];
        if (strcmp(e->path, path) == 0) {
            entry = e;
        }
        if (e->used < oldest->used) {
            oldest = e;
        }
    }
    bool fresh = entry == NULL;
    if (fresh) {
        entry = oldest;
        snprintf(entry->path, sizeof entry->path, "%s", path);
        gm_analysis_options_default(&entry->options);
        entry->set = 0;
        free(entry->files);
        entry->files = NULL;
    }
    entry->used = ++server->pyproject_clock;
    if (!fresh && entry->mtime_ns == mtime && entry->size == (long long)st.st_size) {
        return entry;
    }
    entry->mtime_ns = mtime;
    entry->size = (long long)st.st_size;
    size_t len = 0;
    char *text = gm_read_file(path, &len);
    if (!text) {
        return entry;
    }
    gm_analysis_options options;
    gm_analysis_options_default(&options);
    unsigned set = 0;
    char error[400];
    gm_project_files *files = malloc(sizeof *files);
    if (!files) {
        free(text);
        return entry;
    }
    if (gm_pyproject_parse_project(text, len, &options, &set, files, error, sizeof error) == 0) {
        entry->options = options;
        entry->set = set;
        const char *slash = strrchr(path, '/');
        snprintf(files->root, sizeof files->root, "%.*s",
                 slash && slash != path ? (int)(slash - path) : 1, path);
        free(entry->files);
        entry->files = files;
        files = NULL;
    } else {
        gm_server_show(server, 2,
                       "graphmend: invalid [tool.graphmend] in %s: %s (keeping the "
                       "previous values)",
                       path, error);
    }
    free(files);
    free(text);
    return entry;
}

void gm_server_forget_pyprojects(gm_server *server) {
    for (size_t i = 0; i < GM_PYPROJECT_CACHE; i++) {
        free(server->pyprojects[i].files);
        server->pyprojects[i].files = NULL;
    }
}

bool gm_document_find_pyproject(gm_document *doc) {
    char *previous = doc->pyproject_path;
    doc->pyproject_path = NULL;
    doc->pyproject_resolved = true;
    char *path = gm_uri_to_path(doc->uri);
    char *slash = path ? strrchr(path, '/') : NULL;
    char found[1024];
    if (slash) {
        *slash = '\0';
        if (gm_pyproject_find(*path ? path : "/", found, sizeof found) == 0) {
            doc->pyproject_path = strdup(found);
        }
    }
    free(path);
    bool changed = (previous == NULL) != (doc->pyproject_path == NULL) ||
                   (previous && strcmp(previous, doc->pyproject_path) != 0);
    free(previous);
    return changed;
}

void gm_server_document_options(gm_server *server, gm_document *doc, gm_analysis_options *options) {
    gm_analysis_options_default_with_version(options, server->interpreter_version);
    if (!doc->pyproject_resolved) {
        gm_document_find_pyproject(doc);
    }
    const gm_pyproject_entry *entry =
        doc->pyproject_path ? pyproject_entry(server, doc->pyproject_path) : NULL;
    if (entry) {
        gm_analysis_options_overlay(options, &entry->options, entry->set);
    }
    /* Everything but the pyproject keys comes from the client as it always did. */
    unsigned from_client = server->settings.analysis_set | GM_SET_COMPILE_FORWARD | GM_SET_TRAINING;
    gm_analysis_options_overlay(options, &server->settings.analysis, from_client);
    options->report_syntax_errors = server->settings.analysis.report_syntax_errors;
    if (!entry || !entry->files) {
        return;
    }
    /* The project's file patterns, as `graphmend check` applies them to this path. */
    char *path = gm_uri_to_path(doc->uri);
    if (!path) {
        return;
    }
    if (gm_project_excludes(entry->files, path, NULL)) {
        options->select.count = 0;
        options->report_syntax_errors = false;
    } else {
        gm_project_add_file_ignores(entry->files, path, &options->ignore);
    }
    free(path);
}
