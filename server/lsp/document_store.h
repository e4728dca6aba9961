/* Open documents: text, version, line index and syntax tree, kept in step with the client's
 * incremental edits. Each edit is applied to the text and to the tree (ts_tree_edit); the tree is
 * reparsed, reusing the old tree, when it is next needed (gm_document_tree): several didChange
 * notifications read together cost one reparse, and a version that a newer one replaced before
 * its diagnostics were due is never parsed. Syntax trees are most of a
 * document's memory (about 1 KB per line): only the GM_DOCUMENT_TREES_KEPT documents used last
 * keep theirs; another one's is dropped and parsed again when next needed (its findings, text
 * and analysis cache stay, so an unchanged document costs no new analysis). */
#ifndef GM_SERVER_LSP_DOCUMENT_STORE_H
#define GM_SERVER_LSP_DOCUMENT_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <tree_sitter/api.h>

#include "analysis/analyzer.h"
#include "protocol/position.h"

typedef struct gm_document {
    char *uri;  /* owned; holds no NUL (gm_lsp_get_uri refuses such URIs), so C strings compare */
    char *text; /* owned, NUL-terminated, len bytes */
    size_t len;
    size_t capacity;
    int64_t version;
    gm_line_index lines;
    TSTree *tree;      /* NULL when the last parse timed out, or dropped (tree_dropped) */
    /* The tree the last reparse replaced, deleted after the diagnostics are out
     * (gm_document_store_release_retired): freeing it was a tenth of a keystroke at 50k lines */
    TSTree *retired_tree;
    bool tree_dropped; /* not used lately: gm_document_tree parses it again */
    bool tree_stale;   /* edited since its last parse: gm_document_tree reparses it */
    bool parse_timed_out; /* the last parse gave up (GM_DOCUMENT_PARSE_TIMEOUT_MICROS) */
    /* why the last parse was not even tried (a static string: larger than the 16 MiB a source
     * file may have, or text the parser library cannot hold), or NULL */
    const char *parse_refused;
    bool refusal_told; /* the user was shown parse_refused once (until a parse succeeds) */
    /* The text held a "\r" when opened, or an edit inserted one: the parser then looks for
     * lone ones (which end lines), else it reads the text as it is. */
    bool may_hold_cr;
    uint64_t last_used; /* the store's clock when it was last opened, edited or asked for its tree */
    bool diagnostics_dirty; /* changed since diagnostics were last published */
    /* Analysed again for a reason that may change nothing (the interpreter's version): the
     * next publication is sent only when its diagnostics differ from the last ones sent, whose
     * digest published_digest is (valid when published). */
    bool publish_if_changed;
    bool published;
    uint64_t published_digest;
    gm_analyzer *analyzer;
    const gm_finding_list *findings; /* owned by analyzer; NULL until analysed after a change */
    /* The pyproject.toml that applies (owned; NULL when none), looked up once and again after a
     * save rather than on every keystroke. */
    char *pyproject_path;
    bool pyproject_resolved;
    /* Cross-file state (workspace.c): whether the workspace index has this file, and the
     * digest of the external roots its findings were computed with. */
    bool workspace_known;
    bool imports_pending; /* outside the folders: load its imports after its first analysis */
    uint64_t external_digest;
    /* gm_analyzer_summary_digest of the summary the index holds for it (0: none given yet):
     * a keystroke that leaves it unchanged builds and compares no summary. */
    uint64_t summary_digest;
    /* Its summary changed with a keystroke and is given to the index when the client is quiet
     * (gm_workspace_flush_summaries), not before its diagnostics go out. */
    bool summary_deferred;
    /* What the last graphmend.confirm said of it (confirm_verdicts.h), or NULL. */
    struct gm_confirmation *confirmation;
    /* Its last published diagnostics' text after their ranges (diagnostic_fragments.h), made
     * on first use; NULL before it or without memory. */
    struct gm_diagnostic_fragments *fragments;
    struct gm_document *next;
} gm_document;

typedef struct {
    gm_document *head;
    TSParser *parser; /* shared by all documents (single-threaded) */
    size_t count;
    uint64_t clock;
    size_t trees_held;
} gm_document_store;

/* How many documents keep their syntax trees between uses. */
#define GM_DOCUMENT_TREES_KEPT 8

/* One entry of didChange's contentChanges, already decoded from JSON. */
typedef struct {
    bool has_range; /* false: full replacement */
    uint32_t start_line, start_character, end_line, end_character;
    const char *text;
    size_t text_len;
} gm_document_change;

typedef enum {
    GM_DOC_OK = 0,
    GM_DOC_BAD_RANGE = -1, /* range outside the document or splitting a character */
    GM_DOC_NO_MEMORY = -2,
} gm_document_status;

/* Parse-time bound per reparse. */
#define GM_DOCUMENT_PARSE_TIMEOUT_MICROS ((uint64_t)2 * 1000 * 1000)

int gm_document_store_init(gm_document_store *store); /* 0, or -1 when no parser */
void gm_document_store_free(gm_document_store *store);

gm_document *gm_document_store_find(gm_document_store *store, const char *uri);

/* The document's syntax tree, parsed again if it was dropped or edited since (NULL when that parse
 * times out: parse_timed_out then says so); marks the document used. */
TSTree *gm_document_tree(gm_document_store *store, gm_document *doc);

/* Opens (or replaces) a document with text. Returns it, or NULL on OOM. */
gm_document *gm_document_store_open(gm_document_store *store, const char *uri, const char *text,
                                    size_t len, int64_t version);
void gm_document_store_close(gm_document_store *store, const char *uri);

/* Deletes the trees that reparses replaced (call once the work that was waited for is done). */
void gm_document_store_release_retired(gm_document_store *store);

/* Applies changes in order (each relative to the text left by the previous) to the text and the
 * tree, which gm_document_tree reparses when it is next asked for. All or nothing: on
 * GM_DOC_BAD_RANGE the document is left exactly as it was (text, tree, version) and error (size
 * error_size) explains which change was refused and why. */
gm_document_status gm_document_apply_changes(gm_document_store *store, gm_document *doc,
                                             const gm_document_change *changes, size_t count,
                                             int64_t version, gm_position_encoding encoding,
                                             char *error, size_t error_size);

#endif
