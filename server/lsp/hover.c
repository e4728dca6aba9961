/* textDocument/hover: the explanation of the finding under the cursor. */
#include <stdio.h>
#include <string.h>

#include "protocol/lsp_params.h"
#include "server/lsp/lsp_internal.h"

static void append(char *buffer, size_t size, size_t *used, const char *format, const char *a,
                   const char *b) {
    if (*used < size) {
        int written = snprintf(buffer + *used, size - *used, format, a, b);
        if (written > 0) {
            *used += (size_t)written;
        }
    }
}

json_t *gm_handle_hover(gm_server *server, json_t *params, int *error_code, char *error,
                        size_t error_size) {
    gm_document *doc = gm_document_for_params(server, params, error_code, error, error_size);
    gm_lsp_position position;
    if (!doc) {
        return NULL;
    }
    if (gm_lsp_get_position(params, "position", "params", &position, error, error_size) != 0) {
        *error_code = GM_RPC_INVALID_PARAMS;
        return NULL;
    }
    size_t offset;
    if (gm_position_to_offset(doc->text, doc->len, &doc->lines, server->encoding, position.line,
                              position.character, &offset) < 0) {
        return json_null(); /* a position outside the text has nothing to explain */
    }
    const gm_finding_list *findings = gm_server_findings(server, doc);
    char text[4096];
    size_t used = 0;
    const gm_finding *first = NULL;
    bool markdown = server->client.markdown_hover;
    for (size_t i = 0; i < findings->count; i++) {
        const gm_finding *finding = &findings->items[i];
        if (offset < finding->span.start_byte || offset > finding->span.end_byte) {
            continue;
        }
        const gm_rule *rule = finding->rule;
        if (!first) {
            first = finding;
        } else {
            append(text, sizeof text, &used, "%s%s", markdown ? "\n\n---\n\n" : "\n\n", "");
        }
        append(text, sizeof text, &used,
               markdown ? "**graphmend %s** `%s`\n\n" : "graphmend %s %s\n\n", rule->id,
               rule->name);
        append(text, sizeof text, &used, "%s\n\n%s", finding->message, "");
        append(text, sizeof text, &used, "%s\n\n", rule->explanation, "");
        append(text, sizeof text, &used, markdown ? "**Fix:** %s\n\n" : "Fix: %s\n\n", rule->hint,
               "");
        bool mended = false;
        for (size_t j = 0; j < finding->fix_count; j++) {
            const gm_fix *fix = &finding->fixes[j];
            if (fix->kind == GM_FIX_KIND_MEND) {
                mended = true;
                append(text, sizeof text, &used,
                       markdown ? "**Quick fix** (%s): %s\n\n" : "Quick fix (%s): %s\n\n",
                       gm_applicability_name(fix->applicability), fix->title);
            }
        }
        if (!mended) {
            append(text, sizeof text, &used,
                   markdown ? "**Not mended automatically:** %s\n\n"
                            : "Not mended automatically: %s\n\n",
                   finding->mend_declined ? finding->mend_declined
                                          : "graphmend has no rewrite for this rule",
                   "");
        }
        if (rule->registry_id && rule->url) {
            append(text, sizeof text, &used,
                   markdown ? "PyTorch graph-break reference: [%s](%s)"
                            : "PyTorch graph-break "
                              "reference: %s %s",
                   rule->registry_id, rule->url);
        }
    }
    if (!first) {
        return json_null();
    }
    return json_pack("{s:{s:s,s:s},s:o}", "contents", "kind", markdown ? "markdown" : "plaintext",
                     "value", text, "range",
                     gm_range_json(server, doc, first->span.start_byte, first->span.end_byte));
}
