#include "analysis/syntax/python_parser.h"

#include "analysis/syntax/line_breaks.h"
#include "analysis/syntax/syntax.h"

#include <stdbool.h>
#include <string.h>
#include <time.h>

const TSLanguage *tree_sitter_python(void);

const TSLanguage *gm_python_language(void) {
    return tree_sitter_python();
}

#ifdef GM_TS_PARSE_WITH_OPTIONS
/* Newer runtimes (0.25+) deprecate ts_parser_set_timeout_micros in favour of a progress callback
 * passed per parse. The parser has no user-data slot, so the bound travels in the payload of its
 * (otherwise unused, log == NULL) logger: the runtime only reads the payload when log is set. */

typedef struct {
    struct timespec deadline;
} gm_parse_progress;

static bool gm_parse_progress_cb(TSParseState *state) {
    const gm_parse_progress *progress = state->payload;
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    if (now.tv_sec != progress->deadline.tv_sec)
        return now.tv_sec > progress->deadline.tv_sec;
    return now.tv_nsec >= progress->deadline.tv_nsec;
}

#endif

/* tree-sitter-python ends lines at "\n" only, CPython and LSP at a lone "\r" too: the parser
 * reads each lone "\r" as "\n". The byte count is the same, so offsets are those of the text,
 * rows count the lines LSP counts, and node text read from the original keeps its endings. */
typedef struct {
    const char *text;
    uint32_t len;
    bool has_lone_cr;
} gm_source_input;

static bool is_lone_cr(const char *text, uint32_t len, const char *p) {
    return *p == '\r' && gm_ends_line(text, len, (uint32_t)(p - text));
}

static bool text_has_lone_cr(const char *text, uint32_t len) {
    const char *end = text + len;
    for (const char *p = text; (p = memchr(p, '\r', (size_t)(end - p))) != NULL; p++)
        if (is_lone_cr(text, len, p))
            return true;
    return false;
}

static const char *gm_source_read(void *payload, uint32_t byte_index, TSPoint position,
                                  uint32_t *bytes_read) {
    (void)position;
    const gm_source_input *input = payload;
    if (byte_index >= input->len) {
        *bytes_read = 0;
        return "";
    }
    const char *from = input->text + byte_index;
    const char *end = input->text + input->len;
    if (!input->has_lone_cr) {
        *bytes_read = (uint32_t)(end - from);
        return from;
    }
    if (is_lone_cr(input->text, input->len, from)) {
        *bytes_read = 1;
        return "\n";
    }
    /* A chunk ends before the next lone "\r" (an ASCII byte: no character is split). */
    const char *p = from;
    while ((p = memchr(p, '\r', (size_t)(end - p))) != NULL &&
           !is_lone_cr(input->text, input->len, p))
        p++;
    *bytes_read = (uint32_t)((p ? p : end) - from);
    return from;
}

TSParser *gm_python_parser_new(uint64_t timeout_micros) {
    TSParser *parser = ts_parser_new();
    if (!parser)
        return NULL;
    if (!ts_parser_set_language(parser, gm_python_language())) {
        ts_parser_delete(parser);
        return NULL;
    }
#ifdef GM_TS_PARSE_WITH_OPTIONS
    if (sizeof(uintptr_t) < sizeof(uint64_t) && timeout_micros > UINTPTR_MAX)
        timeout_micros = UINTPTR_MAX;
    TSLogger logger = {.payload = (void *)(uintptr_t)timeout_micros, .log = NULL};
    ts_parser_set_logger(parser, logger);
#else
    ts_parser_set_timeout_micros(parser, timeout_micros);
#endif
    return parser;
}

TSTree *gm_python_parse(TSParser *parser, const TSTree *old_tree, const char *text, size_t len) {
    return gm_python_parse_text(parser, old_tree, text, len, true);
}

/* How many lines hold nothing but a comment or a line continuation (an upper bound of the
 * extras the file has, but for comments after code, which the margin below 65,535 covers).
 * Counted over the whole file, not per run: error recovery (an unclosed string, a bracket)
 * gathers the comments of runs that code separates into one node too. Lines end at "\n" or
 * "\r". */
static size_t extra_lines(const char *text, size_t len) {
    size_t count = 0;
    for (size_t at = 0; at < len;) {
        while (at < len && (text[at] == ' ' || text[at] == '\t' || text[at] == '\f'))
            at++;
        if (at < len && (text[at] == '#' || (text[at] == '\\' && at + 1 < len &&
                                             (text[at + 1] == '\n' || text[at + 1] == '\r'))))
            count++;
        const char *nl = memchr(text + at, '\n', len - at);
        const char *cr = memchr(text + at, '\r', (nl ? (size_t)(nl - text) : len) - at);
        const char *end = cr ? cr : nl;
        at = end ? (size_t)(end - text) + 1 : len;
    }
    return count;
}

/* The most lines one bracket stays open over, skipping brackets in comments and strings (a
 * bracket still open at the end counts to the end): inside brackets tree-sitter gathers the
 * comments, and in error recovery every token, into one node. */
static size_t longest_bracket_span(const char *text, size_t len) {
    size_t line = 0, opened_at = 0, longest = 0, depth = 0;
    char quote = 0;      /* the quote of the string being read, or 0 */
    bool triple = false; /* that string is triple-quoted */
    for (size_t at = 0; at < len; at++) {
        char c = text[at];
        bool newline = c == '\n' || (c == '\r' && !(at + 1 < len && text[at + 1] == '\n'));
        if (newline)
            line++;
        if (quote) {
            if (c == '\\' && at + 1 < len) {
                at++;
                if (text[at] == '\n' || text[at] == '\r')
                    line++;
            } else if (c == quote && (!triple || (at + 2 < len && text[at + 1] == quote &&
                                                  text[at + 2] == quote))) {
                at += triple ? 2 : 0;
                quote = 0;
            } else if (newline && !triple) {
                quote = 0; /* an unclosed one-line string ends with its line */
            }
        } else if (c == '#') {
            while (at + 1 < len && text[at + 1] != '\n' && text[at + 1] != '\r')
                at++;
        } else if (c == '"' || c == '\'') {
            quote = c;
            triple = at + 2 < len && text[at + 1] == c && text[at + 2] == c;
            at += triple ? 2 : 0;
        } else if (c == '(' || c == '[' || c == '{') {
            if (depth++ == 0)
                opened_at = line;
        } else if ((c == ')' || c == ']' || c == '}') && depth > 0 && --depth == 0 &&
                   line - opened_at > longest) {
            longest = line - opened_at;
        }
    }
    if (depth > 0 && line - opened_at > longest)
        longest = line - opened_at;
    return longest;
}

const char *gm_python_text_refused(const char *text, size_t len) {
    if (len > UINT32_MAX)
        return "larger than the 4 GiB the parser can address";
    /* each such line takes two bytes at least */
    if (len / 2 >= GM_PARSER_MAX_EXTRAS_RUN &&
        extra_lines(text, len) >= GM_PARSER_MAX_EXTRAS_RUN)
        return "60,000 or more comment lines: beyond what the parser library (tree-sitter "
               "0.20) can hold in one node without corrupting memory";
    if (len / 2 >= GM_PARSER_MAX_EXTRAS_RUN &&
        longest_bracket_span(text, len) >= GM_PARSER_MAX_EXTRAS_RUN)
        return "a bracket open over 60,000 lines or more: beyond what the parser library "
               "(tree-sitter 0.20) can hold in one node without corrupting memory";
    return NULL;
}

TSTree *gm_python_parse_text(TSParser *parser, const TSTree *old_tree, const char *text,
                             size_t len, bool may_hold_cr) {
    if (gm_python_text_refused(text, len))
        return NULL;
    TSTree *tree;
    gm_source_input source = {text, (uint32_t)len,
                              may_hold_cr && text_has_lone_cr(text, (uint32_t)len)};
    TSInput input = {.payload = &source, .read = gm_source_read, .encoding = TSInputEncodingUTF8};
#ifdef GM_TS_PARSE_WITH_OPTIONS
    uint64_t timeout_micros = (uint64_t)(uintptr_t)ts_parser_logger(parser).payload;
    if (timeout_micros == 0) {
        tree = ts_parser_parse(parser, old_tree, input);
    } else {
        gm_parse_progress progress;
        clock_gettime(CLOCK_MONOTONIC, &progress.deadline);
        progress.deadline.tv_sec += (time_t)(timeout_micros / 1000000u);
        progress.deadline.tv_nsec += (long)(timeout_micros % 1000000u) * 1000L;
        if (progress.deadline.tv_nsec >= 1000000000L) {
            progress.deadline.tv_sec += 1;
            progress.deadline.tv_nsec -= 1000000000L;
        }
        TSParseOptions options = {.payload = &progress, .progress_callback = gm_parse_progress_cb};
        tree = ts_parser_parse_with_options(parser, old_tree, input, options);
    }
#else
    tree = ts_parser_parse(parser, old_tree, input);
#endif
    if (!tree)
        ts_parser_reset(parser); /* start the next parse afresh instead of resuming this one */
    return tree;
}

void gm_tree_delete(TSTree *tree) {
    gm_child_cache_forget();
    ts_tree_delete(tree);
}

void gm_tree_edit(TSTree *tree, const TSInputEdit *edit) {
    gm_child_cache_forget();
    ts_tree_edit(tree, edit);
}
