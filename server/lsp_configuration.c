/* Settings from the client: workspace/configuration (pulled) and didChangeConfiguration. */
#include <stdio.h>

#include "lsp_params.h"
#include "server_internal.h"

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
