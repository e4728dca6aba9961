/* The document store under thousands of random incremental edits: after each batch the text must
 * equal an independently edited copy and the incrementally reparsed tree must equal a fresh parse.
 * Positions are produced by a naive reference converter, independent of protocol/position.c. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/syntax/python_parser.h"
#include "check.h"
#include "server/lsp/document_store.h"

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint32_t next_random(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)(rng_state >> 11);
}

static const char *const snippets[] = {
    "x",
    "\n",
    "    ",
    "print(x)\n",
    "if x.sum() > 0:\n        y = x\n",
    "é",
    "€",
    "😀",
    "# comment 😀 é\n",
    "\r\n",
    "def f(a):\n    return a\n",
    "class M(nn.Module):\n    def forward(self, x):\n        print(x)\n        return x\n",
    "(",
    ")",
    ":",
    "\"str",
    "'''",
    "@torch.compile\n",
    "\t",
    "\r",
};

static const char *initial_text = "import torch\n"
                                  "from torch import nn\n"
                                  "\n"
                                  "class Block(nn.Module):  # é😀\n"
                                  "    def __init__(self):\n"
                                  "        super().__init__()\n"
                                  "        self.linear = nn.Linear(4, 4)\n"
                                  "\n"
                                  "    def forward(self, x: torch.Tensor):\n"
                                  "        h = self.linear(x)\n"
                                  "        if h.sum() > 0:\n"
                                  "            print(\"positive\", h)\n"
                                  "        return h\n"
                                  "\n"
                                  "@torch.compile\n"
                                  "def step(x):\n"
                                  "    while x.max() > 1:\n"
                                  "        x = x / 2\n"
                                  "    return x\n";

/* Is offset a UTF-8 character boundary? */
static bool boundary(const char *text, size_t len, size_t offset) {
    return offset == 0 || offset >= len || ((unsigned char)text[offset] & 0xC0) != 0x80;
}

/* Reference conversion of a byte offset to an LSP position: lines end at \n, \r\n or \r. */
static void reference_position(const char *text, size_t offset, gm_position_encoding encoding,
                               uint32_t *line, uint32_t *character) {
    uint32_t l = 0, c = 0;
    size_t i = 0;
    while (i < offset) {
        unsigned char b = (unsigned char)text[i];
        if (b == '\n' || (b == '\r' && text[i + 1] != '\n')) {
            l++;
            c = 0;
            i++;
            continue;
        }
        if (b == '\r') { /* first half of \r\n: the line ends at the \n */
            i++;
            continue;
        }
        size_t width = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
        c += encoding == GM_ENCODING_UTF8    ? (uint32_t)width
             : encoding == GM_ENCODING_UTF16 ? (width == 4 ? 2 : 1)
                                             : 1;
        i += width;
    }
    *line = l;
    *character = c;
}

static bool trees_equal(TSNode a, TSNode b) {
    if (strcmp(ts_node_type(a), ts_node_type(b)) != 0 ||
        ts_node_start_byte(a) != ts_node_start_byte(b) ||
        ts_node_end_byte(a) != ts_node_end_byte(b) ||
        ts_node_start_point(a).row != ts_node_start_point(b).row ||
        ts_node_start_point(a).column != ts_node_start_point(b).column ||
        ts_node_end_point(a).row != ts_node_end_point(b).row ||
        ts_node_end_point(a).column != ts_node_end_point(b).column ||
        ts_node_child_count(a) != ts_node_child_count(b)) {
        return false;
    }
    for (uint32_t i = 0; i < ts_node_child_count(a); i++) {
        if (!trees_equal(ts_node_child(a, i), ts_node_child(b, i))) {
            return false;
        }
    }
    return true;
}

typedef struct {
    char *text;
    size_t len;
} model_text;

static void model_apply(model_text *model, size_t start, size_t end, const char *insert) {
    size_t n = strlen(insert);
    char *next = malloc(model->len - (end - start) + n + 1);
    memcpy(next, model->text, start);
    memcpy(next + start, insert, n);
    memcpy(next + start + n, model->text + end, model->len - end);
    model->len = model->len - (end - start) + n;
    next[model->len] = '\0';
    free(model->text);
    model->text = next;
}

static size_t random_boundary(const model_text *model) {
    size_t offset = model->len ? next_random() % (model->len + 1) : 0;
    while (!boundary(model->text, model->len, offset)) {
        offset--;
    }
    /* Never split a \r\n pair: a position cannot address the point between them. */
    if (offset > 0 && offset < model->len && model->text[offset - 1] == '\r' &&
        model->text[offset] == '\n') {
        offset--;
    }
    return offset;
}

static void random_edit_sequences(gm_position_encoding encoding, int rounds) {
    gm_document_store store;
    CHECK(gm_document_store_init(&store) == 0);
    model_text model = {strdup(initial_text), strlen(initial_text)};
    gm_document *doc = gm_document_store_open(&store, "file:///t.py", model.text, model.len, 1);
    CHECK(doc != NULL);
    TSParser *fresh_parser = gm_python_parser_new(0);
    int text_mismatches = 0, tree_mismatches = 0;
    for (int round = 0; round < rounds; round++) {
        /* Up to three changes per notification, each relative to the previous result. */
        int change_count = 1 + (int)(next_random() % 3);
        gm_document_change changes[3];
        char *inserts[3];
        for (int c = 0; c < change_count; c++) {
            size_t a = random_boundary(&model), b = random_boundary(&model);
            size_t start = a < b ? a : b, end = a < b ? b : a;
            /* Mostly small deletions; long ones only to keep the text around 2 KB, so each round's
             * fresh parse stays cheap. */
            size_t max_delete = model.len > 2048 ? 600 : 40;
            if (end - start > max_delete) {
                end = start + max_delete;
                while (
                    !boundary(model.text, model.len, end) ||
                    (end < model.len && model.text[end - 1] == '\r' && model.text[end] == '\n')) {
                    end--;
                }
            }
            const char *insert =
                (model.len > 2048 || next_random() % 4 == 0)
                    ? ""
                    : snippets[next_random() % (sizeof snippets / sizeof *snippets)];
            gm_document_change *change = &changes[c];
            reference_position(model.text, start, encoding, &change->start_line,
                               &change->start_character);
            reference_position(model.text, end, encoding, &change->end_line,
                               &change->end_character);
            inserts[c] = strdup(insert);
            change->has_range = true;
            change->text = inserts[c];
            change->text_len = strlen(insert);
            model_apply(&model, start, end, insert);
        }
        char error[256];
        gm_document_status status = gm_document_apply_changes(
            &store, doc, changes, (size_t)change_count, round + 2, encoding, error, sizeof error);
        CHECK(status == GM_DOC_OK);
        for (int c = 0; c < change_count; c++) {
            free(inserts[c]);
        }
        if (doc->len != model.len || memcmp(doc->text, model.text, model.len) != 0) {
            text_mismatches++;
            if (text_mismatches == 1) {
                fprintf(stderr, "round %d: text differs\n--- store\n%s\n--- model\n%s\n", round,
                        doc->text, model.text);
            }
            /* Resynchronise so one failure does not cascade. */
            doc = gm_document_store_open(&store, "file:///t.py", model.text, model.len, round);
            continue;
        }
        CHECK_EQ_INT(doc->version, round + 2);
        /* Edited, not parsed yet: the tree is parsed when asked for, which every third round
         * skips (several didChange notifications read together: their edits, one reparse). */
        CHECK(doc->tree_stale || !doc->tree);
        if (round % 3 == 1)
            continue;
        TSTree *fresh = gm_python_parse(fresh_parser, NULL, model.text, model.len);
        TSTree *tree = gm_document_tree(&store, doc);
        CHECK(!doc->tree_stale && tree == doc->tree);
        if (!tree || !trees_equal(ts_tree_root_node(tree), ts_tree_root_node(fresh))) {
            tree_mismatches++;
        }
        gm_tree_delete(fresh);
    }
    CHECK_EQ_INT(text_mismatches, 0);
    CHECK_EQ_INT(tree_mismatches, 0);
    ts_parser_delete(fresh_parser);
    free(model.text);
    gm_document_store_free(&store);
}

/* A batch whose second change is out of range leaves the document exactly as it was. */
static void refused_batches_change_nothing(void) {
    gm_document_store store;
    CHECK(gm_document_store_init(&store) == 0);
    gm_document *doc =
        gm_document_store_open(&store, "file:///r.py", initial_text, strlen(initial_text), 7);
    char *before = strdup(doc->text);
    char *before_tree = ts_node_string(ts_tree_root_node(doc->tree));
    gm_document_change changes[2] = {
        {true, 0, 0, 0, 0, "# ok\n", 5},
        {true, 400, 0, 400, 1, "boom", 4},
    };
    char error[256];
    gm_document_status status = gm_document_apply_changes(&store, doc, changes, 2, 8,
                                                          GM_ENCODING_UTF16, error, sizeof error);
    CHECK_EQ_INT(status, GM_DOC_BAD_RANGE);
    CHECK(strstr(error, "contentChanges[1]") != NULL);
    CHECK_EQ_STR(doc->text, before);
    CHECK_EQ_INT(doc->version, 7);
    char *after_tree = ts_node_string(ts_tree_root_node(doc->tree));
    CHECK_EQ_STR(after_tree, before_tree);

    /* A single change splitting a surrogate pair is refused too. */
    gm_document *emoji = gm_document_store_open(&store, "file:///e.py", "a😀b\n", 7, 1);
    gm_document_change split = {true, 0, 2, 0, 2, "x", 1};
    CHECK_EQ_INT(gm_document_apply_changes(&store, emoji, &split, 1, 2, GM_ENCODING_UTF16, error,
                                           sizeof error),
                 GM_DOC_BAD_RANGE);
    CHECK_EQ_STR(emoji->text, "a😀b\n");
    /* ... and the next valid change still applies. */
    gm_document_change valid = {true, 0, 3, 0, 3, "x", 1};
    CHECK_EQ_INT(gm_document_apply_changes(&store, emoji, &valid, 1, 3, GM_ENCODING_UTF16, error,
                                           sizeof error),
                 GM_DOC_OK);
    CHECK_EQ_STR(emoji->text, "a😀xb\n");

    /* Full-text replacement. */
    gm_document_change full = {false, 0, 0, 0, 0, "y = 1\n", 6};
    CHECK_EQ_INT(gm_document_apply_changes(&store, emoji, &full, 1, 4, GM_ENCODING_UTF16, error,
                                           sizeof error),
                 GM_DOC_OK);
    CHECK_EQ_STR(emoji->text, "y = 1\n");
    free(before);
    free(before_tree);
    free(after_tree);
    gm_document_store_free(&store);
}

/* Only the documents used last keep a syntax tree; another's is parsed again when asked for or
 * edited, equal to a fresh parse of its text. */
static void idle_documents_drop_their_trees(void) {
    gm_document_store store;
    CHECK(gm_document_store_init(&store) == 0);
    enum { opened = GM_DOCUMENT_TREES_KEPT + 4 };
    gm_document *docs[opened];
    for (int i = 0; i < opened; i++) {
        char uri[64];
        snprintf(uri, sizeof uri, "file:///doc%d.py", i);
        docs[i] = gm_document_store_open(&store, uri, initial_text, strlen(initial_text), 1);
        CHECK(docs[i] != NULL);
    }
    size_t with_tree = 0;
    for (int i = 0; i < opened; i++)
        with_tree += docs[i]->tree != NULL;
    CHECK_EQ_INT(with_tree, GM_DOCUMENT_TREES_KEPT);
    CHECK_EQ_INT(store.trees_held, GM_DOCUMENT_TREES_KEPT);
    CHECK(docs[0]->tree == NULL && docs[0]->tree_dropped);
    CHECK(docs[opened - 1]->tree != NULL);

    TSParser *parser = gm_python_parser_new(0);
    TSTree *fresh = gm_python_parse(parser, NULL, initial_text, strlen(initial_text));
    char *expected = ts_node_string(ts_tree_root_node(fresh));
    TSTree *again = gm_document_tree(&store, docs[0]);
    CHECK(again != NULL && !docs[0]->tree_dropped);
    char *got = again ? ts_node_string(ts_tree_root_node(again)) : NULL;
    CHECK_EQ_STR(got, expected);
    CHECK_EQ_INT(store.trees_held, GM_DOCUMENT_TREES_KEPT); /* another one made room */
    free(got);

    /* An edit to a document whose tree was dropped parses its new text whole. */
    gm_document *idle = docs[1];
    CHECK(idle->tree == NULL);
    gm_document_change edit = {true, 0, 0, 0, 0, "# edited\n", 9};
    char error[256];
    CHECK_EQ_INT(gm_document_apply_changes(&store, idle, &edit, 1, 2, GM_ENCODING_UTF16, error,
                                           sizeof error),
                 GM_DOC_OK);
    TSTree *edited = gm_python_parse(parser, NULL, idle->text, idle->len);
    char *edited_expected = ts_node_string(ts_tree_root_node(edited));
    TSTree *idle_tree = gm_document_tree(&store, idle);
    char *edited_got = idle_tree ? ts_node_string(ts_tree_root_node(idle_tree)) : NULL;
    CHECK_EQ_STR(edited_got, edited_expected);
    CHECK_EQ_INT(store.trees_held, GM_DOCUMENT_TREES_KEPT);
    free(edited_got);
    free(edited_expected);
    free(expected);
    gm_tree_delete(edited);
    gm_tree_delete(fresh);
    ts_parser_delete(parser);
    gm_document_store_free(&store);
}

/* A reparse keeps the tree it replaced until the diagnostics are out: counted nowhere, deleted
 * by gm_document_store_release_retired (or with its document; ASan checks that it is). */
static void replaced_trees_wait_for_release(void) {
    gm_document_store store;
    CHECK(gm_document_store_init(&store) == 0);
    gm_document *doc =
        gm_document_store_open(&store, "file:///r.py", initial_text, strlen(initial_text), 1);
    CHECK(doc != NULL && doc->tree != NULL && doc->retired_tree == NULL);
    if (!doc)
        return;
    gm_document_change edit = {true, 0, 0, 0, 0, "# edited\n", 9};
    char error[256];
    for (int version = 2; version < 5; version++) {
        TSTree *before = doc->tree;
        CHECK_EQ_INT(gm_document_apply_changes(&store, doc, &edit, 1, version, GM_ENCODING_UTF16,
                                               error, sizeof error),
                     GM_DOC_OK);
        TSTree *tree = gm_document_tree(&store, doc);
        CHECK(tree != NULL && tree != before && doc->retired_tree == before);
        CHECK_EQ_INT(store.trees_held, 1);
        if (version < 4)
            gm_document_store_release_retired(&store);
        CHECK(version == 4 || doc->retired_tree == NULL);
    }
    gm_document_store_free(&store); /* with the last one still retired */
}

int main(int argc, char **argv) {
    int rounds = argc > 1 ? atoi(argv[1]) : 2000;
    replaced_trees_wait_for_release();
    random_edit_sequences(GM_ENCODING_UTF16, rounds);
    random_edit_sequences(GM_ENCODING_UTF8, rounds);
    random_edit_sequences(GM_ENCODING_UTF32, rounds);
    refused_batches_change_nothing();
    idle_documents_drop_their_trees();
    return check_exit_code("server/lsp/document_store");
}
