/* Reading LSP parameter objects out of JSON with precise error messages (for -32602 replies),
 * and writing LSP positions and ranges. Knows LSP structure, nothing about Python. */
#ifndef GM_PROTOCOL_LSP_PARAMS_H
#define GM_PROTOCOL_LSP_PARAMS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint32_t line;
    uint32_t character;
} gm_lsp_position;

typedef struct {
    gm_lsp_position start;
    gm_lsp_position end;
} gm_lsp_range;

/* Each reader returns 0 on success, or -1 after writing a message naming the offending field
 * (prefixed with path, e.g. "params.textDocument.uri") into error. */
int gm_lsp_get_string(const json_t *object, const char *key, const char *path, const char **out,
                      char *error, size_t error_size);
int gm_lsp_get_object(const json_t *object, const char *key, const char *path, json_t **out,
                      char *error, size_t error_size);
int gm_lsp_get_integer(const json_t *object, const char *key, const char *path, int64_t *out,
                       char *error, size_t error_size);
int gm_lsp_get_position(const json_t *object, const char *key, const char *path,
                        gm_lsp_position *out, char *error, size_t error_size);
int gm_lsp_get_range(const json_t *object, const char *key, const char *path, gm_lsp_range *out,
                     char *error, size_t error_size);
/* A URI: a string with no NUL in it, raw or percent-encoded (gm_uri_has_nul). */
int gm_lsp_get_uri(const json_t *object, const char *key, const char *path, const char **out,
                   char *error, size_t error_size);
/* params.textDocument.uri, read with gm_lsp_get_uri */
int gm_lsp_get_document_uri(const json_t *params, const char **uri, char *error, size_t error_size);

/* Optional lookups: a nested path of object keys, NULL-terminated; NULL when any step is absent
 * or not an object. gm_lsp_flag is true only for a JSON true at that path. */
json_t *gm_lsp_dig(const json_t *object, ...);
bool gm_lsp_flag(const json_t *object, ...);

/* {"line": l, "character": c} and {"start": ..., "end": ...}: new references. */
json_t *gm_lsp_position_json(gm_lsp_position position);
json_t *gm_lsp_range_json(gm_lsp_range range);

#endif
