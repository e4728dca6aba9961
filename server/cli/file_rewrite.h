/* `graphmend fix` writing a mended file back: the file keeps its mode, owner, hard links, and a
 * symlink to it stays a link; a crash or a full disk never leaves it half written (but for hard
 * links, see file_rewrite.c); a read-only file is refused. */
#ifndef GM_SERVER_CLI_FILE_REWRITE_H
#define GM_SERVER_CLI_FILE_REWRITE_H

#include <stddef.h>

/* Replaces the content of path (or of the file a symlink at path leads to) with text, provided it
 * still holds expected (what the caller read and mended; NULL: whatever it holds), as an editor
 * refuses to save over a file changed on disk. Returns 0, or -1 with *why saying why in words
 * (the file is then as it was). */
int gm_rewrite_file(const char *path, const char *expected, size_t expected_len,
                    const char *text, size_t len, const char **why);

#endif
