#include "server/workspace/file_reader.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static bool refuse(const struct stat *info) {
    if (S_ISDIR(info->st_mode)) {
        errno = EISDIR;
        return true;
    }
    if (!S_ISREG(info->st_mode)) {
        errno = EINVAL;
        return true;
    }
    if ((unsigned long long)info->st_size > GM_READ_FILE_MAX_BYTES) {
        errno = EFBIG;
        return true;
    }
    return false;
}

/* Reads fd to its end into data (capacity bytes, grown as needed), one byte past the cap at
 * most: a file that grew since fstat is caught too. */
static char *read_all(int fd, char *data, size_t capacity, size_t *len) {
    size_t used = 0;
    for (;;) {
        if (used + 1 >= capacity) {
            if (capacity > GM_READ_FILE_MAX_BYTES + 1) {
                free(data);
                errno = EFBIG;
                return NULL;
            }
            capacity *= 2;
            char *grown = realloc(data, capacity);
            if (!grown) {
                free(data);
                errno = ENOMEM;
                return NULL;
            }
            data = grown;
        }
        ssize_t n = read(fd, data + used, capacity - used - 1);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            int saved = errno;
            free(data);
            errno = saved;
            return NULL;
        }
        if (n == 0) {
            break;
        }
        used += (size_t)n;
        if (used > GM_READ_FILE_MAX_BYTES) {
            free(data);
            errno = EFBIG;
            return NULL;
        }
    }
    data[used] = '\0';
    *len = used;
    return data;
}

char *gm_read_file(const char *path, size_t *len) {
    struct stat info;
    /* stat first so that a device is never even opened; fstat after, for what was opened. */
    if (stat(path, &info) != 0 || refuse(&info)) {
        return NULL;
    }
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        return NULL;
    }
    char *data = NULL;
    if (fstat(fd, &info) == 0 && !refuse(&info)) {
        size_t capacity = (size_t)info.st_size + 2; /* +1 for the NUL, +1 to see the end */
        data = malloc(capacity);
        if (!data) {
            errno = ENOMEM;
        } else {
            data = read_all(fd, data, capacity, len);
        }
    }
    int saved = errno;
    close(fd);
    errno = saved;
    return data;
}

const char *gm_read_file_error(int err) {
    switch (err) {
    case EISDIR:
        return "is a directory";
    case EINVAL:
        return "not a regular file (a FIFO, device or socket)";
    case EFBIG:
        return "larger than the 16 MiB limit for a source file";
    default:
        return strerror(err);
    }
}
