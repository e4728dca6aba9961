/* Reading a file whole, safe for a single-threaded server: only regular files are read (a FIFO
 * would block the event loop, a device such as /dev/zero never ends), and no more than
 * GM_READ_FILE_MAX_BYTES. Every read of a Python file or a settings file goes through here. */
#ifndef GM_SERVER_WORKSPACE_FILE_READER_H
#define GM_SERVER_WORKSPACE_FILE_READER_H

#include <stddef.h>

/* 16 MiB: far above any hand-written Python module, far below what hurts to hold in memory. */
#define GM_READ_FILE_MAX_BYTES (16u * 1024u * 1024u)

/* Reads path into a malloc'ed NUL-terminated buffer. NULL on failure, with errno set: EISDIR for
 * a directory, EINVAL for another file that is not regular (FIFO, device, socket), EFBIG above
 * the size cap, or what open/read said. Never blocks on a FIFO. */
char *gm_read_file(const char *path, size_t *len);

/* Why gm_read_file failed, in words, for errno err. */
const char *gm_read_file_error(int err);

#endif
