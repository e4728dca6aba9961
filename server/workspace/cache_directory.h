/* graphmend's cache directory, one for everything it remembers between runs (interpreter
 * versions, mended packages): $GRAPHMEND_CACHE_DIR, else $XDG_CACHE_HOME/graphmend (an absolute
 * one: the XDG spec ignores a relative one), else ~/.cache/graphmend. */
#ifndef GM_SERVER_WORKSPACE_CACHE_DIRECTORY_H
#define GM_SERVER_WORKSPACE_CACHE_DIRECTORY_H

#include <stddef.h>

/* Writes the directory's path into out. Returns 0, or -1 when no variable names one or the path
 * does not fit. */
int gm_cache_directory(char *out, size_t size);

/* mkdir -p of path's directories, path itself included; those made are the user's alone (0700).
 * Returns 0, or -1 with errno set. */
int gm_cache_make_directories(const char *path);

#endif
