/* file:// URIs <-> POSIX paths. */
#include "protocol/uri.h"

#include <stdlib.h>
#include <string.h>

static int lower(int c) {
    return (c >= 'A' && c <= 'Z') ? c + ('a' - 'A') : c;
}

static int prefix_ci(const char *s, const char *lit) {
    for (; *lit; s++, lit++)
        if (lower((unsigned char)*s) != *lit)
            return 0;
    return 1;
}

static int hex_value(int c) {
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

char *gm_uri_to_path(const char *uri) {
    if (!uri || !prefix_ci(uri, "file:"))
        return NULL;
    const char *p = uri + 5;
    if (p[0] == '/' && p[1] == '/') {
        /* Authority: empty or "localhost"; a remote host cannot name a local file. */
        p += 2;
        const char *slash = strchr(p, '/');
        size_t host_len = slash ? (size_t)(slash - p) : strlen(p);
        if (host_len != 0 && !(host_len == 9 && prefix_ci(p, "localhost")))
            return NULL;
        p += host_len;
    }
    /* "file:/path" (RFC 8089's minimal form) falls through here too. */
    if (*p != '/')
        return NULL;
    /* A query or fragment is not part of the path. */
    size_t n = strcspn(p, "?#");
    char *out = malloc(n + 1);
    if (!out)
        return NULL;
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] != '%') {
            out[o++] = p[i];
            continue;
        }
        int hi = i + 2 < n ? hex_value((unsigned char)p[i + 1]) : -1;
        int lo = hi >= 0 ? hex_value((unsigned char)p[i + 2]) : -1;
        if (hi < 0 || lo < 0 || (hi == 0 && lo == 0)) {
            free(out);
            return NULL;
        }
        out[o++] = (char)(hi * 16 + lo);
        i += 2;
    }
    out[o] = '\0';
    return out;
}

bool gm_uri_has_nul(const char *uri, size_t len) {
    if (memchr(uri, '\0', len))
        return true;
    for (size_t i = 0; i + 2 < len; i++)
        if (uri[i] == '%' && uri[i + 1] == '0' && uri[i + 2] == '0')
            return true;
    return false;
}

static int unreserved(unsigned char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '.' || c == '_' || c == '~';
}

char *gm_path_to_uri(const char *path) {
    if (!path || path[0] != '/')
        return NULL;
    static const char hex[] = "0123456789ABCDEF";
    size_t len = strlen(path);
    /* Worst case: every byte becomes %XX. */
    char *out = malloc(7 + 3 * len + 1);
    if (!out)
        return NULL;
    memcpy(out, "file://", 7);
    size_t o = 7;
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)path[i];
        if (c == '/' || unreserved(c)) {
            out[o++] = (char)c;
        } else {
            out[o++] = '%';
            out[o++] = hex[c >> 4];
            out[o++] = hex[c & 15];
        }
    }
    out[o] = '\0';
    return out;
}
