#include "server/cli/file_rewrite.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "server/workspace/file_reader.h"

static int write_all(int fd, const char *text, size_t len) {
    while (len > 0) {
        ssize_t n = write(fd, text, len);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return -1;
        }
        text += n;
        len -= (size_t)n;
    }
    return 0;
}

/* Gives fd the owner, then the mode of like (a chown may clear set-id bits). Only root may give a
 * file away: a failed chown (EPERM) leaves the file ours, which is all a user can do. */
static int take_owner_and_mode(int fd, const struct stat *like) {
    if (fchown(fd, like->st_uid, like->st_gid) != 0) {
        errno = 0;
    }
    return fchmod(fd, like->st_mode & 07777);
}

/* A new temporary file next to target holding text (with like's owner and mode unless NULL),
 * synced: mkstemp's O_CREAT|O_EXCL and random name, so nothing planted at a guessable name (a
 * symlink) is followed. Returns its fd, or -1. */
static int write_temp(const char *target, const struct stat *like, const char *text, size_t len,
                      char *temp, size_t cap) {
    if ((size_t)snprintf(temp, cap, "%s.graphmend-XXXXXX", target) >= cap) {
        errno = ENAMETOOLONG;
        return -1;
    }
    int fd = mkstemp(temp);
    if (fd < 0) {
        return -1;
    }
    if ((like && take_owner_and_mode(fd, like) != 0) || write_all(fd, text, len) != 0 ||
        fsync(fd) != 0) {
        int saved = errno;
        close(fd);
        unlink(temp);
        errno = saved;
        return -1;
    }
    return fd;
}

static void sync_directory_of(const char *path) {
    char dir[PATH_MAX];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (!slash) {
        return;
    }
    *(slash == dir ? slash + 1 : slash) = '\0';
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        fsync(fd); /* best effort: the rename is durable once the directory is */
        close(fd);
    }
}

/* The usual way: a temp file given the target's owner and mode, renamed over it. */
static int replace(const char *target, const struct stat *info, const char *text, size_t len) {
    char temp[PATH_MAX + 32];
    int fd = write_temp(target, info, text, len, temp, sizeof temp);
    if (fd < 0) {
        return -1;
    }
    if (close(fd) != 0 || rename(temp, target) != 0) {
        int saved = errno;
        unlink(temp);
        errno = saved;
        return -1;
    }
    sync_directory_of(target);
    return 0;
}

/* A file with hard links: a rename would leave the other names on the old text, so the file is
 * rewritten in place. That is not atomic (a crash in the middle leaves it cut), the price of
 * keeping the links. The text is first written to a temp file to be sure the disk takes it; the
 * temp is removed before the rewrite so that the room it proved is free for it. */
static int rewrite_in_place(const char *target, const char *text, size_t len) {
    char temp[PATH_MAX + 32];
    int fd = write_temp(target, NULL, text, len, temp, sizeof temp);
    if (fd < 0) {
        return -1;
    }
    close(fd);
    unlink(temp);
    fd = open(target, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        return -1;
    }
    bool ok = write_all(fd, text, len) == 0 && ftruncate(fd, (off_t)len) == 0 && fsync(fd) == 0;
    int saved = errno;
    ok = close(fd) == 0 && ok;
    errno = saved;
    return ok ? 0 : -1;
}

/* Whether target holds exactly expected now. The file is read again rather than trusted by its
 * size and mtime: an append within the same mtime tick keeps one and a same-length edit the
 * other. 1: unchanged, 0: changed, -1: unreadable (errno). */
static int still_holds(const char *target, const char *expected, size_t expected_len) {
    size_t len;
    char *now = gm_read_file(target, &len);
    if (!now) {
        return -1;
    }
    int verdict = len == expected_len && memcmp(now, expected, len) == 0;
    free(now);
    return verdict;
}

int gm_rewrite_file(const char *path, const char *expected, size_t expected_len,
                    const char *text, size_t len, const char **why) {
    char *target = realpath(path, NULL); /* through symlinks: the link itself stays */
    struct stat info;
    int status = -1;
    int unchanged = 1;
    *why = NULL;
    if (!target || stat(target, &info) != 0) {
        *why = strerror(errno);
    } else if (!S_ISREG(info.st_mode)) {
        *why = "not a regular file";
    } else if ((info.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) == 0 ||
               (access(target, W_OK) != 0 && errno == EACCES)) {
        /* the mode bits too: root may write anything, but a 0444 file says "leave me" */
        *why = "the file is read-only";
    } else if (expected && (unchanged = still_holds(target, expected, expected_len)) != 1) {
        *why = unchanged == 0 ? "the file changed on disk since it was read; it is left as it is"
                              : gm_read_file_error(errno);
    } else {
        status = info.st_nlink > 1 ? rewrite_in_place(target, text, len)
                                   : replace(target, &info, text, len);
        if (status != 0) {
            *why = strerror(errno);
        }
    }
    free(target);
    return status;
}
