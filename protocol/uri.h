/* file:// URIs <-> filesystem paths (RFC 8089, percent-encoding per RFC 3986). */
#ifndef GM_PROTOCOL_URI_H
#define GM_PROTOCOL_URI_H

#include <stdbool.h>
#include <stddef.h>

/* Returns a malloc'ed absolute path for a file URI, or NULL when uri is not a file URI or is
 * malformed (bad percent escape, embedded NUL) or names a host other than "localhost".
 * A query or fragment is ignored. Caller frees. */
char *gm_uri_to_path(const char *uri);

/* Whether uri (len bytes) holds a NUL byte, raw or percent-encoded ("%00"): no file or
 * document has such a name, and C strings would cut it short. */
bool gm_uri_has_nul(const char *uri, size_t len);

/* Returns a malloc'ed file URI for an absolute path, percent-encoding everything outside the
 * unreserved set and "/" in uppercase hex (":" too, as VS Code does). Returns NULL for a NULL or
 * relative path, or on OOM. Caller frees. */
char *gm_path_to_uri(const char *path);

#endif
