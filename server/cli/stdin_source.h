/* The source text of `--stdin-filename NAME` (or the path "-"), read from standard input. */
#ifndef GM_SERVER_CLI_STDIN_SOURCE_H
#define GM_SERVER_CLI_STDIN_SOURCE_H

#include <stddef.h>

/* All of stdin, NUL-terminated (owned by the caller), its length in *len; NULL after printing
 * why (unreadable, larger than the 16 MiB a file may have, out of memory). */
char *gm_read_stdin_source(size_t *len);

#endif
