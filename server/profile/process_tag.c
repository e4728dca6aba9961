#include "server/profile/process_tag.h"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void gm_process_tag_new(char entry[GM_PROCESS_TAG_SIZE]) {
    static atomic_uint counter;
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    snprintf(entry, GM_PROCESS_TAG_SIZE, GM_PROCESS_TAG_VARIABLE "=%ld-%u-%lld%09ld",
             (long)getpid(), atomic_fetch_add(&counter, 1) + 1, (long long)now.tv_sec,
             (long)now.tv_nsec);
}

/* Whether the environment of process pid holds entry as one of its NUL-ended strings. */
static bool environment_holds(long pid, const char *entry) {
    char path[64];
    snprintf(path, sizeof path, "/proc/%ld/environ", pid);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false; /* gone, or not ours */
    size_t want = strlen(entry) + 1, cap = 1 << 16, len = 0;
    char *buf = malloc(cap);
    bool found = false;
    while (buf) {
        ssize_t got = read(fd, buf + len, cap - len);
        if (got <= 0)
            break;
        len += (size_t)got;
        if (len == cap) {
            char *grown = cap < (1u << 24) ? realloc(buf, cap * 2) : NULL;
            if (!grown)
                break;
            buf = grown;
            cap *= 2;
        }
    }
    for (size_t at = 0; buf && at + want <= len && !found;) {
        found = memcmp(buf + at, entry, want) == 0;
        const char *end = memchr(buf + at, '\0', len - at);
        at = end ? (size_t)(end - buf) + 1 : len;
    }
    free(buf);
    close(fd);
    return found;
}

size_t gm_process_tag_kill(const char *entry) {
    DIR *proc = opendir("/proc");
    if (!proc)
        return 0;
    size_t killed = 0;
    pid_t self = getpid();
    for (struct dirent *d; (d = readdir(proc));) {
        char *end;
        long pid = strtol(d->d_name, &end, 10);
        if (*end || pid <= 1 || pid == self)
            continue;
        if (environment_holds(pid, entry) && kill((pid_t)pid, SIGKILL) == 0)
            killed++;
    }
    closedir(proc);
    return killed;
}
