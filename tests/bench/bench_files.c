#include "bench_files.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

char *bench_read_file(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t capacity = 1 << 16, used = 0;
    char *data = malloc(capacity);
    while (data) {
        if (used + 1 >= capacity) {
            char *grown = realloc(data, capacity * 2);
            if (!grown) {
                free(data);
                data = NULL;
                break;
            }
            data = grown;
            capacity *= 2;
        }
        size_t n = fread(data + used, 1, capacity - used - 1, f);
        used += n;
        if (n == 0)
            break;
    }
    bool bad = ferror(f) != 0;
    fclose(f);
    if (!data || bad) {
        free(data);
        return NULL;
    }
    data[used] = '\0';
    *len = used;
    return data;
}
