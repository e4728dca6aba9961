#include "analysis/syntax/python_parser.h"

#include "analysis/syntax/syntax.h"

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

typedef struct {
    const char *text;
    uint32_t len;
} gm_string_input;

static const char *gm_string_read(void *payload, uint32_t byte_index, TSPoint position,
                                  uint32_t *bytes_read) {
    (void)position;
    const gm_string_input *input = payload;
    if (byte_index >= input->len) {
        *bytes_read = 0;
        return "";
    }
    *bytes_read = input->len - byte_index;
    return input->text + byte_index;
}
#endif

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
    if (len > UINT32_MAX)
        return NULL;
    TSTree *tree;
#ifdef GM_TS_PARSE_WITH_OPTIONS
    uint64_t timeout_micros = (uint64_t)(uintptr_t)ts_parser_logger(parser).payload;
    gm_string_input source = {text, (uint32_t)len};
    TSInput input = {.payload = &source, .read = gm_string_read, .encoding = TSInputEncodingUTF8};
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
    tree = ts_parser_parse_string(parser, old_tree, text, (uint32_t)len);
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
