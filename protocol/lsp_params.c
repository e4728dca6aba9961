#include "protocol/lsp_params.h"

#include <stdarg.h>
#include <stdio.h>

#include "protocol/uri.h"

int gm_lsp_get_string(const json_t *object, const char *key, const char *path, const char **out,
                      char *error, size_t error_size) {
    json_t *value = json_is_object(object) ? json_object_get(object, key) : NULL;
    if (!json_is_string(value)) {
        snprintf(error, error_size, "%s.%s must be a string", path, key);
        return -1;
    }
    *out = json_string_value(value);
    return 0;
}

int gm_lsp_get_uri(const json_t *object, const char *key, const char *path, const char **out,
                   char *error, size_t error_size) {
    if (gm_lsp_get_string(object, key, path, out, error, error_size) != 0)
        return -1;
    json_t *value = json_object_get(object, key);
    if (gm_uri_has_nul(json_string_value(value), json_string_length(value))) {
        snprintf(error, error_size, "%s.%s must not contain a NUL character (raw or as %%00)",
                 path, key);
        return -1;
    }
    return 0;
}

int gm_lsp_get_object(const json_t *object, const char *key, const char *path, json_t **out,
                      char *error, size_t error_size) {
    json_t *value = json_is_object(object) ? json_object_get(object, key) : NULL;
    if (!json_is_object(value)) {
        snprintf(error, error_size, "%s.%s must be an object", path, key);
        return -1;
    }
    *out = value;
    return 0;
}

int gm_lsp_get_integer(const json_t *object, const char *key, const char *path, int64_t *out,
                       char *error, size_t error_size) {
    json_t *value = json_is_object(object) ? json_object_get(object, key) : NULL;
    if (!json_is_integer(value)) {
        snprintf(error, error_size, "%s.%s must be an integer", path, key);
        return -1;
    }
    *out = (int64_t)json_integer_value(value);
    return 0;
}

/* LSP uinteger: 0 .. 2^31-1 */
static int get_uinteger(const json_t *object, const char *key, const char *path, uint32_t *out,
                        char *error, size_t error_size) {
    int64_t value;
    if (gm_lsp_get_integer(object, key, path, &value, error, error_size) != 0) {
        return -1;
    }
    if (value < 0 || value > INT32_MAX) {
        snprintf(error, error_size, "%s.%s must be between 0 and 2147483647", path, key);
        return -1;
    }
    *out = (uint32_t)value;
    return 0;
}

int gm_lsp_get_position(const json_t *object, const char *key, const char *path,
                        gm_lsp_position *out, char *error, size_t error_size) {
    json_t *position;
    if (gm_lsp_get_object(object, key, path, &position, error, error_size) != 0) {
        return -1;
    }
    char inner[128];
    snprintf(inner, sizeof inner, "%s.%s", path, key);
    if (get_uinteger(position, "line", inner, &out->line, error, error_size) != 0 ||
        get_uinteger(position, "character", inner, &out->character, error, error_size) != 0) {
        return -1;
    }
    return 0;
}

int gm_lsp_get_range(const json_t *object, const char *key, const char *path, gm_lsp_range *out,
                     char *error, size_t error_size) {
    json_t *range;
    if (gm_lsp_get_object(object, key, path, &range, error, error_size) != 0) {
        return -1;
    }
    char inner[128];
    snprintf(inner, sizeof inner, "%s.%s", path, key);
    if (gm_lsp_get_position(range, "start", inner, &out->start, error, error_size) != 0 ||
        gm_lsp_get_position(range, "end", inner, &out->end, error, error_size) != 0) {
        return -1;
    }
    return 0;
}

int gm_lsp_get_document_uri(const json_t *params, const char **uri, char *error,
                            size_t error_size) {
    json_t *document;
    if (gm_lsp_get_object(params, "textDocument", "params", &document, error, error_size) != 0) {
        return -1;
    }
    return gm_lsp_get_uri(document, "uri", "params.textDocument", uri, error, error_size);
}

static json_t *dig_va(const json_t *object, va_list keys) {
    const json_t *current = object;
    const char *key;
    while ((key = va_arg(keys, const char *)) != NULL) {
        if (!json_is_object(current)) {
            return NULL;
        }
        current = json_object_get(current, key);
    }
    return (json_t *)current;
}

json_t *gm_lsp_dig(const json_t *object, ...) {
    va_list keys;
    va_start(keys, object);
    json_t *result = dig_va(object, keys);
    va_end(keys);
    return result;
}

bool gm_lsp_flag(const json_t *object, ...) {
    va_list keys;
    va_start(keys, object);
    json_t *result = dig_va(object, keys);
    va_end(keys);
    return json_is_true(result);
}

json_t *gm_lsp_position_json(gm_lsp_position position) {
    return json_pack("{s:I,s:I}", "line", (json_int_t)position.line, "character",
                     (json_int_t)position.character);
}

json_t *gm_lsp_range_json(gm_lsp_range range) {
    return json_pack("{s:o,s:o}", "start", gm_lsp_position_json(range.start), "end",
                     gm_lsp_position_json(range.end));
}
