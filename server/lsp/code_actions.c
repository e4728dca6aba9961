/* textDocument/codeAction: quick fixes for the findings in a range, and source.fixAll.graphmend
 * built from server state (on-save requests usually carry no diagnostics). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/findings/text_edit.h"
#include "protocol/lsp_params.h"
#include "server/lsp/lsp_internal.h"

#define FIX_ALL_KIND "source.fixAll.graphmend"

/* Is kind requested by context.only? Kinds are hierarchical: "source" covers "source.fixAll". */
static bool kind_requested(const json_t *only, const char *kind) {
    if (!json_is_array(only)) {
        return strcmp(kind, FIX_ALL_KIND) != 0; /* source actions only when asked for */
    }
    size_t i;
    json_t *entry;
    json_array_foreach(only, i, entry) {
        const char *prefix = json_string_value(entry);
        size_t n = prefix ? strlen(prefix) : 0;
        if (prefix && strncmp(kind, prefix, n) == 0 && (kind[n] == '\0' || kind[n] == '.')) {
            return true;
        }
    }
    return false;
}

static int range_to_offsets(gm_server *server, gm_document *doc, const gm_lsp_range *range,
                            size_t *start, size_t *end) {
    gm_position_status a = gm_position_to_offset(doc->text, doc->len, &doc->lines, server->encoding,
                                                 range->start.line, range->start.character, start);
    gm_position_status b = gm_position_to_offset(doc->text, doc->len, &doc->lines, server->encoding,
                                                 range->end.line, range->end.character, end);
    return (a < 0 || b < 0 || *end < *start) ? -1 : 0;
}

/* The menu's marker of what applying a mend risks: none for a safe one. */
static const char *applicability_marker(gm_applicability applicability) {
    switch (applicability) {
    case GM_FIX_SAFE:
        return "";
    case GM_FIX_UNSAFE:
        return " (unsafe)";
    case GM_FIX_DISPLAY_ONLY:
        return " (setting)"; /* a process-wide dynamo setting, never applied by fix-all */
    }
    return "";
}

void gm_fix_action_title(const gm_finding *finding, const gm_fix *fix, char *title, size_t size) {
    if (fix->kind != GM_FIX_KIND_MEND || !fix->label) {
        snprintf(title, size, "%s", fix->title);
        return;
    }
    snprintf(title, size, "Mend %s%s: %s", finding->rule->id,
             applicability_marker(fix->applicability), fix->label);
}

static json_t *quick_fix(gm_server *server, gm_document *doc, const gm_finding *finding,
                         const gm_fix *fix) {
    char title[160];
    gm_fix_action_title(finding, fix, title, sizeof title);
    json_t *action = json_pack("{s:s,s:s,s:[o],s:o}", "title", title, "kind", "quickfix",
                               "diagnostics", gm_diagnostic_json(server, doc, finding), "edit",
                               gm_workspace_edit_json(server, doc, fix->edits, fix->edit_count));
    if (fix->kind == GM_FIX_KIND_MEND && fix->applicability == GM_FIX_SAFE) {
        json_object_set_new(action, "isPreferred", json_true());
    }
    return action;
}

static json_t *fix_all(gm_server *server, gm_document *doc, const gm_finding_list *findings) {
    gm_analysis_options options;
    gm_server_document_options(server, doc, &options);
    const gm_fix **safe = calloc(findings->count + 1, sizeof *safe);
    size_t count = 0;
    if (!safe) {
        return NULL;
    }
    for (size_t i = 0; i < findings->count; i++) {
        for (size_t j = 0; j < findings->items[i].fix_count; j++) {
            const gm_fix *fix = &findings->items[i].fixes[j];
            if (gm_fix_auto_applies(fix, options.unsafe_fixes)) {
                safe[count++] = fix;
                break;
            }
        }
    }
    json_t *action = NULL;
    gm_text_edit *edits = NULL;
    size_t edit_count = 0;
    if (count > 0 && gm_collect_non_overlapping(safe, count, &edits, &edit_count, NULL) == 0 &&
        edit_count > 0) {
        action = json_pack(
            "{s:s,s:s,s:o}", "title",
            options.unsafe_fixes ? "Mend all graph breaks (unsafe too)" : "Mend all safe graph breaks",
            "kind", FIX_ALL_KIND, "edit", gm_workspace_edit_json(server, doc, edits, edit_count));
    }
    free(edits);
    free(safe);
    return action;
}

json_t *gm_handle_code_action(gm_server *server, json_t *params, int *error_code, char *error,
                              size_t error_size) {
    gm_document *doc = gm_document_for_params(server, params, error_code, error, error_size);
    if (!doc) {
        return NULL;
    }
    gm_lsp_range range;
    if (gm_lsp_get_range(params, "range", "params", &range, error, error_size) != 0) {
        *error_code = GM_RPC_INVALID_PARAMS;
        return NULL;
    }
    size_t start, end;
    if (range_to_offsets(server, doc, &range, &start, &end) != 0) {
        *error_code = GM_RPC_INVALID_PARAMS;
        snprintf(error, error_size, "params.range %u:%u-%u:%u is outside the document (%zu lines)",
                 range.start.line, range.start.character, range.end.line, range.end.character,
                 doc->lines.count);
        return NULL;
    }
    json_t *only = gm_lsp_dig(params, "context", "only", NULL);
    const gm_finding_list *findings = gm_server_findings(server, doc);
    json_t *actions = json_array();
    if (kind_requested(only, "quickfix")) {
        for (size_t i = 0; i < findings->count; i++) {
            const gm_finding *finding = &findings->items[i];
            if (finding->span.start_byte > end || finding->span.end_byte < start) {
                continue;
            }
            /* Mends first, so the preferred fix leads the menu. Display-only mends (dynamo
             * setting suggestions) are offered too: never preferred, never in fix-all, applied
             * only when the user picks one. */
            for (int pass = 0; pass < 2; pass++) {
                for (size_t j = 0; j < finding->fix_count; j++) {
                    const gm_fix *fix = &finding->fixes[j];
                    bool mend = fix->kind == GM_FIX_KIND_MEND;
                    if (mend == (pass == 0)) {
                        json_array_append_new(actions, quick_fix(server, doc, finding, fix));
                    }
                }
            }
        }
    }
    if (kind_requested(only, "quickfix")) {
        gm_library_code_actions(server, doc, start, end, actions);
    }
    if (kind_requested(only, FIX_ALL_KIND)) {
        json_t *action = fix_all(server, doc, findings);
        if (action) {
            json_array_append_new(actions, action);
        }
    }
    return actions;
}
