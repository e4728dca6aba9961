/* nftw and mkdtemp need XOPEN: the project defines only POSIX 2008 and the default sources. */
#define _XOPEN_SOURCE 700

#include "server/profile/workdir.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "server/workspace/file_reader.h"

int gm_profile_workdir_create(char *dir, size_t dir_size) {
    const char *base = getenv("TMPDIR");
    if (!base || !base[0]) {
        base = "/tmp";
    }
    int n = snprintf(dir, dir_size, "%s/graphmend-profile-XXXXXX", base);
    if (n < 0 || (size_t)n >= dir_size) {
        errno = ENAMETOOLONG;
        return -1;
    }
    return mkdtemp(dir) ? 0 : -1; /* mkdtemp makes it 0700 */
}

int gm_profile_workdir_write(const char *dir, const char *name, const char *data, size_t len) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (fd < 0) {
        return -1;
    }
    while (len > 0) {
        ssize_t written = write(fd, data, len);
        if (written < 0 && errno == EINTR) {
            continue;
        }
        if (written <= 0) {
            int saved = errno;
            close(fd);
            errno = saved;
            return -1;
        }
        data += written;
        len -= (size_t)written;
    }
    return close(fd);
}

char *gm_profile_workdir_read(const char *dir, const char *name, size_t *len) {
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    size_t used = 0;
    char *data = gm_read_file(path, &used);
    if (data && len) {
        *len = used;
    }
    return data;
}

static int remove_entry(const char *path, const struct stat *st, int type, struct FTW *ftw) {
    (void)st;
    (void)type;
    (void)ftw;
    remove(path);
    return 0; /* keep going: remove as much as possible */
}

void gm_profile_workdir_remove(const char *dir) {
    if (dir && dir[0]) {
        nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    }
}
