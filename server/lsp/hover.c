/* textDocument/hover: for the finding under the cursor, what to do (its mends, or why there is
 * none and what to do by hand), then why it breaks, then the rule's reference. */
#include <ctype.h>
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

static const char *const MEND_SENTENCE_PREFIX = "Mend graph break: ";

/* One line a mend: its quick-fix title (the rule, the risk, the label), then the full sentence
 * of what it changes. Returns whether the finding has a mend. */
static bool append_mends(char *buffer, size_t size, size_t *used, const gm_finding *finding,
                         bool markdown) {
    bool mended = false;
    for (size_t j = 0; j < finding->fix_count; j++) {
        const gm_fix *fix = &finding->fixes[j];
        if (fix->kind != GM_FIX_KIND_MEND || !fix->label) {
            continue;
        }
        mended = true;
        char title[160];
        gm_fix_action_title(finding, fix, title, sizeof title);
        const char *sentence = fix->title;
        size_t prefix = strlen(MEND_SENTENCE_PREFIX);
        if (strncmp(sentence, MEND_SENTENCE_PREFIX, prefix) == 0) {
            sentence += prefix;
        }
        append(buffer, size, used, markdown ? "**%s.** " : "%s. ", title, "");
        if (fix->applicability == GM_FIX_UNSAFE) { /* the title says "(unsafe)" already */
            char capital[2] = {(char)toupper((unsigned char)sentence[0]), '\0'};
            append(buffer, size, used, "%s%s.\n\n", capital, sentence + (sentence[0] != '\0'));
        } else {
            append(buffer, size, used, "%s%s.\n\n",
                   fix->applicability == GM_FIX_SAFE ? "Safe: " : "Applied only by hand: ",
                   sentence);
        }
    }
    return mended;
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
    char text[8192];
    size_t used = 0;
    const gm_finding *first = NULL;
    bool markdown = server->client.markdown_hover;
    for (size_t i = 0; i < findings->count; i++) {
        const gm_finding *finding = &findings->items[i];
        if (offset < finding->span.start_byte || offset > finding->span.end_byte) {
            continue;
        }
        if (!first) {
            first = finding;
        } else {
            append(text, sizeof text, &used, "%s%s", markdown ? "\n\n---\n\n" : "\n\n", "");
        }
        /* What to do leads; the editor shows the diagnostic's message already. */
        bool mended = append_mends(text, sizeof text, &used, finding, markdown);
        const gm_rule *rule = finding->rule;
        if (mended && finding->mend_declined) /* only a setting line: why the code is not mended */
            append(text, sizeof text, &used,
                   markdown ? "**No rewrite of the code:** %s.%s\n\n"
                            : "No rewrite of the code: %s.%s\n\n",
                   finding->mend_declined, "");
        if (!mended) {
            append(text, sizeof text, &used,
                   markdown ? "**No mend:** %s.\n\n**What you can do:** %s\n\n"
                            : "No mend: %s.\n\nWhat you can do: %s\n\n",
                   finding->mend_declined ? finding->mend_declined
                                          : "graphmend has no rewrite for this rule",
                   rule->hint);
        }
        append(text, sizeof text, &used,
               markdown ? "**Why it breaks** (%s `%s`): " : "Why it breaks (%s %s): ", rule->id,
               rule->name);
        append(text, sizeof text, &used, "%s. %s\n\n", finding->message, rule->explanation);
        if (mended) {
            append(text, sizeof text, &used, markdown ? "**By hand:** %s\n\n" : "By hand: %s\n\n",
                   rule->hint, "");
        }
        if (rule->registry_id && rule->url) {
            append(text, sizeof text, &used,
                   markdown ? "PyTorch graph-break reference: [%s](%s)\n\n"
                            : "PyTorch graph-break reference: %s %s\n\n",
                   rule->registry_id, rule->url);
        }
        /* The rule's page has its example and mend; the repository has no fixed URL to link. */
        append(text, sizeof text, &used,
               markdown ? "The rule in full: `graphmend rule %s` (docs/rules/%s.md)"
                        : "The rule in full: graphmend rule %s (docs/rules/%s.md)",
               rule->id, rule->id);
    }
    if (!first) {
        return json_null();
    }
    return json_pack("{s:{s:s,s:s},s:o}", "contents", "kind", markdown ? "markdown" : "plaintext",
                     "value", text, "range",
                     gm_range_json(server, doc, first->span.start_byte, first->span.end_byte));
}
