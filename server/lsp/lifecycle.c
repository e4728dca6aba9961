/* initialize / initialized / shutdown / exit. */
#include <stdio.h>
#include <string.h>

#include "protocol/lsp_params.h"
#include "server/lsp/lsp_internal.h"
#include "server/profile/defaults.h"

/* The first encoding in the client's list that we speak; UTF-16 when it offers none. */
static gm_position_encoding negotiate_encoding(const json_t *capabilities) {
    json_t *offered = gm_lsp_dig(capabilities, "general", "positionEncodings", NULL);
    size_t i;
    json_t *name;
    json_array_foreach(offered, i, name) {
        gm_position_encoding encoding;
        if (json_is_string(name) &&
            gm_position_encoding_parse(json_string_value(name), &encoding) == 0) {
            return encoding;
        }
    }
    return GM_ENCODING_UTF16;
}

static bool offers_markdown(const json_t *capabilities) {
    json_t *formats = gm_lsp_dig(capabilities, "textDocument", "hover", "contentFormat", NULL);
    size_t i;
    json_t *name;
    json_array_foreach(formats, i, name) {
        if (json_is_string(name) && strcmp(json_string_value(name), "markdown") == 0) {
            return true;
        }
    }
    return false;
}

static void read_client_capabilities(gm_client_capabilities *client, const json_t *caps) {
    client->pull_diagnostics = json_is_object(gm_lsp_dig(caps, "textDocument", "diagnostic", NULL));
    client->document_changes =
        gm_lsp_flag(caps, "workspace", "workspaceEdit", "documentChanges", NULL);
    client->configuration = gm_lsp_flag(caps, "workspace", "configuration", NULL);
    client->code_description =
        gm_lsp_flag(caps, "textDocument", "publishDiagnostics", "codeDescriptionSupport", NULL);
    client->markdown_hover = offers_markdown(caps);
    client->diagnostic_refresh =
        gm_lsp_flag(caps, "workspace", "diagnostics", "refreshSupport", NULL);
    client->work_done_progress = gm_lsp_flag(caps, "window", "workDoneProgress", NULL);
}

json_t *gm_handle_initialize(gm_server *server, json_t *params, int *error_code, char *error,
                             size_t error_size) {
    if (server->lifecycle != GM_LIFECYCLE_UNINITIALIZED) {
        *error_code = GM_RPC_INVALID_REQUEST;
        snprintf(error, error_size, "initialize may be sent only once");
        return NULL;
    }
    json_t *capabilities = NULL;
    if (gm_lsp_get_object(params, "capabilities", "params", &capabilities, error, error_size) !=
        0) {
        *error_code = GM_RPC_INVALID_PARAMS;
        return NULL;
    }
    server->encoding = negotiate_encoding(capabilities);
    gm_workspace_note_folders(server, params);
    read_client_capabilities(&server->client, capabilities);
    char problems[512];
    gm_settings_apply_json(&server->settings, json_object_get(params, "initializationOptions"),
                           problems, sizeof problems);
    server->lifecycle = GM_LIFECYCLE_RUNNING;
    gm_interpreter_probe_prepare(server);
    if (problems[0]) {
        gm_server_show(server, 2, "graphmend settings: %s", problems);
    }

    json_t *sync =
        json_pack("{s:b,s:i,s:{s:b}}", "openClose", 1, "change", 2, "save", "includeText", 0);
    json_t *result =
        json_pack("{s:{s:s,s:o,s:{s:s,s:b,s:b},s:{s:[s,s]},s:b},s:{s:s,s:s}}", "capabilities",
                  "positionEncoding", gm_position_encoding_name(server->encoding),
                  "textDocumentSync", sync, "diagnosticProvider", "identifier", "graphmend",
                  "interFileDependencies", 1, "workspaceDiagnostics", 0, "codeActionProvider",
                  "codeActionKinds", "quickfix", "source.fixAll.graphmend", "hoverProvider", 1,
                  "serverInfo", "name", "graphmend", "version", GM_VERSION);
    /* graphmend.profile runs the user's code: only ever on this explicit command. */
    json_t *provided = json_object_get(result, "capabilities");
    json_object_set_new(provided, "executeCommandProvider",
                        json_pack("{s:[s,s]}", "commands", GM_PROFILE_COMMAND,
                                  GM_CONFIRM_COMMAND));
    json_object_set_new(provided, "codeLensProvider", json_pack("{s:b}", "resolveProvider", 0));
    return result;
}

void gm_handle_initialized(gm_server *server, json_t *params) {
    (void)params;
    gm_server_log(server, 3, "graphmend %s ready (position encoding %s, %s diagnostics)",
                  GM_VERSION, gm_position_encoding_name(server->encoding),
                  server->client.pull_diagnostics ? "pull" : "push");
    if (server->client.configuration) {
        gm_request_configuration(server);
    }
    gm_workspace_index_folders(server);
    gm_interpreter_probe_initialized(server);
}

json_t *gm_handle_shutdown(gm_server *server, json_t *params, int *error_code, char *error,
                           size_t error_size) {
    (void)params;
    (void)error_code;
    (void)error;
    (void)error_size;
    gm_profile_cancel_all(server); /* answered as cancelled now; their children are killed */
    server->lifecycle = GM_LIFECYCLE_SHUTDOWN;
    return json_null();
}

void gm_handle_exit(gm_server *server, json_t *params) {
    (void)params;
    server->exit_code = server->lifecycle == GM_LIFECYCLE_SHUTDOWN ? 0 : 1;
    server->finished = true;
}
