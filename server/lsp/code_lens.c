/* textDocument/codeLens: "Profile mended vs original" on the function the profile starts from
 * and on each function where a graph break is predicted, in files that define the profile entry
 * function, and "Confirm breaks with torch.compile" on the entry function. The lens only carries the command; nothing runs until the user picks it. It names
 * no fix level: the command then mends as the unsafeFixes setting says, as the palette does. */
#include <string.h>

#include "server/lsp/lsp_internal.h"
#include "server/profile/defaults.h"

#define LENS_TITLE "Profile mended vs original"
#define CONFIRM_LENS_TITLE "Confirm breaks with torch.compile"

static bool name_is(TSNode function, const char *text, const char *name) {
    TSNode identifier = ts_node_child_by_field_name(function, "name", 4);
    if (ts_node_is_null(identifier)) {
        return false;
    }
    uint32_t start = ts_node_start_byte(identifier), end = ts_node_end_byte(identifier);
    return end - start == strlen(name) && memcmp(text + start, name, end - start) == 0;
}

/* The top-level `def NAME` of the module (decorated or not), or a null node. */
static TSNode find_entry(TSNode root, const char *text, const char *name) {
    uint32_t count = ts_node_named_child_count(root);
    for (uint32_t i = 0; i < count; i++) {
        TSNode child = ts_node_named_child(root, i);
        if (strcmp(ts_node_type(child), "decorated_definition") == 0) {
            child = ts_node_child_by_field_name(child, "definition", 10);
        }
        if (!ts_node_is_null(child) && strcmp(ts_node_type(child), "function_definition") == 0 &&
            name_is(child, text, name)) {
            return child;
        }
    }
    TSNode none = {0};
    return none;
}

static TSNode enclosing_function(TSNode root, uint32_t byte) {
    TSNode node = ts_node_descendant_for_byte_range(root, byte, byte);
    while (!ts_node_is_null(node) && strcmp(ts_node_type(node), "function_definition") != 0) {
        node = ts_node_parent(node);
    }
    return node;
}

static void add_lens(gm_server *server, gm_document *doc, json_t *lenses, TSNode function,
                     const char *entry) {
    TSNode name = ts_node_child_by_field_name(function, "name", 4);
    uint32_t end = ts_node_is_null(name) ? ts_node_start_byte(function) : ts_node_end_byte(name);
    json_t *lens =
        json_pack("{s:o,s:{s:s,s:s,s:[s,{s:s,s:s}]}}", "range",
                  gm_range_json(server, doc, ts_node_start_byte(function), end), "command", "title",
                  LENS_TITLE, "command", GM_PROFILE_COMMAND, "arguments", doc->uri, "entry", entry,
                  "device", "auto");
    if (lens) {
        json_array_append_new(lenses, lens);
    }
}

static void add_confirm_lens(gm_server *server, gm_document *doc, json_t *lenses, TSNode entry,
                             const char *entry_name) {
    TSNode name = ts_node_child_by_field_name(entry, "name", 4);
    uint32_t end = ts_node_is_null(name) ? ts_node_start_byte(entry) : ts_node_end_byte(name);
    json_t *lens = json_pack(
        "{s:o,s:{s:s,s:s,s:[s,{s:s,s:s}]}}", "range",
        gm_range_json(server, doc, ts_node_start_byte(entry), end), "command", "title",
        CONFIRM_LENS_TITLE, "command", GM_CONFIRM_COMMAND, "arguments", doc->uri, "entry",
        entry_name, "device", "auto");
    if (lens) {
        json_array_append_new(lenses, lens);
    }
}

json_t *gm_handle_code_lens(gm_server *server, json_t *params, int *error_code, char *error,
                            size_t error_size) {
    gm_document *doc = gm_document_for_params(server, params, error_code, error, error_size);
    if (!doc) {
        return NULL;
    }
    json_t *lenses = json_array();
    TSTree *tree = gm_document_tree(&server->documents, doc);
    if (!tree) {
        return lenses;
    }
    TSNode root = ts_tree_root_node(tree);
    const char *entry_name = GM_PROFILE_DEFAULT_ENTRY;
    TSNode entry = find_entry(root, doc->text, entry_name);
    if (ts_node_is_null(entry)) {
        return lenses; /* nothing to profile from */
    }
    add_lens(server, doc, lenses, entry, entry_name);
    add_confirm_lens(server, doc, lenses, entry, entry_name);
    const gm_finding_list *findings = gm_server_findings(server, doc);
    uint32_t last_start = UINT32_MAX;
    for (size_t i = 0; i < findings->count; i++) {
        TSNode function = enclosing_function(root, findings->items[i].span.start_byte);
        if (ts_node_is_null(function) || ts_node_start_byte(function) == last_start ||
            ts_node_start_byte(function) == ts_node_start_byte(entry)) {
            continue;
        }
        /* Findings are sorted: one function's findings are adjacent unless a nested function
         * interrupts them, so also look back over the lenses already added. */
        bool seen = false;
        size_t index;
        json_t *lens;
        json_t *range =
            gm_range_json(server, doc, ts_node_start_byte(function), ts_node_start_byte(function));
        json_array_foreach(lenses, index, lens) {
            json_t *start = json_object_get(json_object_get(lens, "range"), "start");
            seen = seen || json_equal(start, json_object_get(range, "start"));
        }
        json_decref(range);
        last_start = ts_node_start_byte(function);
        if (!seen) {
            add_lens(server, doc, lenses, function, entry_name);
        }
    }
    return lenses;
}
