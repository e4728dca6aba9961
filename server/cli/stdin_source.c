#include "server/cli/stdin_source.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/workspace/file_reader.h"

char *gm_read_stdin_source(size_t *len) {
    size_t used = 0, capacity = 1 << 16;
    char *text = malloc(capacity + 1);
    while (text) {
        size_t got = fread(text + used, 1, capacity - used, stdin);
        used += got;
        if (got == 0) {
            break;
        }
        if (used > GM_READ_FILE_MAX_BYTES) {
            fprintf(stderr, "graphmend: stdin: larger than 16 MiB\n");
            free(text);
            return NULL;
        }
        if (used == capacity) {
            char *grown = realloc(text, capacity * 2 + 1);
            if (!grown) {
                free(text);
                text = NULL;
                break;
            }
            text = grown;
            capacity *= 2;
        }
    }
    if (!text) {
        fprintf(stderr, "graphmend: out of memory reading stdin\n");
        return NULL;
    }
    if (ferror(stdin)) {
        fprintf(stderr, "graphmend: cannot read stdin: %s\n", strerror(errno));
        free(text);
        return NULL;
    }
    text[used] = '\0';
    *len = used;
    return text;
}
