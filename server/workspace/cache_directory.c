#include "server/workspace/cache_directory.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int gm_cache_directory(char *out, size_t size) {
    const char *own = getenv("GRAPHMEND_CACHE_DIR");
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    int w;
    if (own && *own)
        w = snprintf(out, size, "%s", own);
    else if (xdg && *xdg == '/')
        w = snprintf(out, size, "%s/graphmend", xdg);
    else if (home && *home == '/')
        w = snprintf(out, size, "%s/.cache/graphmend", home);
    else
        return -1;
    return w > 0 && (size_t)w < size ? 0 : -1;
}

int gm_cache_make_directories(const char *path) {
    char dir[4096];
    int w = snprintf(dir, sizeof dir, "%s", path);
    if (w <= 0 || (size_t)w >= sizeof dir) {
        errno = ENAMETOOLONG;
        return -1;
    }
    for (char *p = dir + 1;; p++) {
        if (*p != '/' && *p != '\0')
            continue;
        char kept = *p;
        *p = '\0';
        if (mkdir(dir, 0700) != 0 && errno != EEXIST)
            return -1;
        if (!kept)
            return 0;
        *p = '/';
    }
}
