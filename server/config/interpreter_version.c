#include "server/config/interpreter_version.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "analysis/options/analysis_options.h"
#include "server/workspace/cache_directory.h"

#define VERSION_PROGRAM "import sys; print('%d.%d' % sys.version_info[:2])"

const char *const gm_python_version_arguments[2] = {"-c", VERSION_PROGRAM};

int gm_python_version_answer(const char *output, size_t len) {
    char answer[64];
    size_t line = 0;
    while (line < len && output[line] != '\n')
        line++;
    /* Anything past the first line makes the answer odd. */
    if (line == 0 || line >= sizeof answer || (line < len && line + 1 != len))
        return 0;
    memcpy(answer, output, line);
    answer[line] = '\0';
    answer[strcspn(answer, "\r")] = '\0';
    int version;
    return gm_parse_python_version(answer, &version) == 0 ? version : 0;
}

int gm_query_python_version(const char *command) {
    FILE *pipe = popen(command, "r");
    if (!pipe) {
        return 0;
    }
    /* Read to the end so that the child never blocks on a full pipe while pclose waits for it. */
    char output[256];
    size_t len = 0, got;
    char rest[256];
    while ((got = fread(rest, 1, sizeof rest, pipe)) > 0) {
        size_t room = sizeof output - len;
        memcpy(output + len, rest, got < room ? got : room);
        len += got < room ? got : room;
    }
    pclose(pipe); /* the answer decides, not the exit status */
    return gm_python_version_answer(output, len);
}

int gm_interpreter_find(gm_interpreter_id *id) {
    const char *path = getenv("PATH");
    if (!path)
        return -1;
    for (const char *dir = path;; dir++) {
        size_t n = strcspn(dir, ":");
        /* An empty entry is the working directory, as the shell reads PATH. */
        int w = n == 0 ? snprintf(id->path, sizeof id->path, "python3")
                       : snprintf(id->path, sizeof id->path, "%.*s/python3", (int)n, dir);
        struct stat st;
        if (w > 0 && (size_t)w < sizeof id->path && access(id->path, X_OK) == 0 &&
            stat(id->path, &st) == 0 && S_ISREG(st.st_mode)) {
            id->mtime_ns = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
            id->size = (long long)st.st_size;
            char head[2] = {0, 0};
            int fd = open(id->path, O_RDONLY | O_CLOEXEC);
            id->script = fd >= 0 && read(fd, head, 2) == 2 && head[0] == '#' && head[1] == '!';
            if (fd >= 0)
                close(fd);
            return 0;
        }
        dir += n;
        if (!*dir)
            return -1;
    }
}

int gm_interpreter_cache_file(char *out, size_t size) {
    char dir[2048];
    if (gm_cache_directory(dir, sizeof dir) != 0)
        return -1;
    int w = snprintf(out, size, "%s/interpreters", dir);
    return w > 0 && (size_t)w < size ? 0 : -1;
}

/* One line of the cache file: "VERSION MTIME_NS SIZE PATH". */
typedef struct {
    int version;
    long long mtime_ns, size;
    char path[1024];
} cache_line;

static bool read_line(const char *line, cache_line *out) {
    int used = 0;
    if (sscanf(line, "%d %lld %lld %n", &out->version, &out->mtime_ns, &out->size, &used) != 3 ||
        used == 0)
        return false;
    size_t n = strcspn(line + used, "\n");
    if (n == 0 || n >= sizeof out->path)
        return false;
    memcpy(out->path, line + used, n);
    out->path[n] = '\0';
    return true;
}

int gm_interpreter_cache_lookup(const char *cache_file, const gm_interpreter_id *id) {
    FILE *f = fopen(cache_file, "r");
    if (!f)
        return 0;
    char line[1200];
    int version = 0;
    cache_line entry;
    while (fgets(line, sizeof line, f)) {
        if (read_line(line, &entry) && strcmp(entry.path, id->path) == 0 &&
            entry.mtime_ns == id->mtime_ns && entry.size == id->size)
            version = entry.version >= 300 && entry.version < 400 ? entry.version : 0;
    }
    fclose(f);
    return version;
}

/* mkdir -p of the cache file's folder. */
static int make_folders(const char *file) {
    char dir[1200];
    int w = snprintf(dir, sizeof dir, "%s", file);
    char *slash = w > 0 && (size_t)w < sizeof dir ? strrchr(dir, '/') : NULL;
    if (!slash)
        return -1;
    *slash = '\0';
    return slash == dir ? 0 : gm_cache_make_directories(dir);
}

int gm_interpreter_cache_store(const char *cache_file, const gm_interpreter_id *id, int version) {
    if (strchr(id->path, '\n') || make_folders(cache_file) != 0)
        return -1;
    cache_line kept[GM_INTERPRETER_CACHE_ENTRIES];
    size_t count = 0;
    FILE *in = fopen(cache_file, "r");
    char line[1200];
    cache_line entry;
    struct stat st;
    /* The newest entries are last: keep the last ENTRIES - 1 others that still exist. */
    while (in && fgets(line, sizeof line, in)) {
        if (!read_line(line, &entry) || strcmp(entry.path, id->path) == 0 ||
            stat(entry.path, &st) != 0)
            continue;
        if (count == GM_INTERPRETER_CACHE_ENTRIES - 1) {
            memmove(kept, kept + 1, (count - 1) * sizeof kept[0]);
            count--;
        }
        kept[count++] = entry;
    }
    if (in)
        fclose(in);
    char temp[1300];
    int w = snprintf(temp, sizeof temp, "%s.%ld.tmp", cache_file, (long)getpid());
    if (w <= 0 || (size_t)w >= sizeof temp)
        return -1;
    FILE *out = fopen(temp, "w");
    if (!out)
        return -1;
    for (size_t i = 0; i < count; i++)
        fprintf(out, "%d %lld %lld %s\n", kept[i].version, kept[i].mtime_ns, kept[i].size,
                kept[i].path);
    fprintf(out, "%d %lld %lld %s\n", version, id->mtime_ns, id->size, id->path);
    bool written = fflush(out) == 0 && !ferror(out);
    if (fclose(out) != 0 || !written || rename(temp, cache_file) != 0) {
        unlink(temp);
        return -1;
    }
    return 0;
}

/* The query of the interpreter id names, as a shell command line: its path in single quotes.
 * stdin from /dev/null: the language server's stdin is the client's pipe, which the child must
 * not read. stderr to /dev/null: a missing or broken python3 is no problem worth showing. */
static int query_of(const gm_interpreter_id *id, char *out, size_t size) {
    size_t n = 0;
    out[n++] = '\'';
    for (const char *p = id->path; *p; p++) {
        const char *piece = *p == '\'' ? "'\\''" : NULL;
        size_t len = piece ? strlen(piece) : 1;
        if (n + len + 1 >= size)
            return -1;
        if (piece)
            memcpy(out + n, piece, len);
        else
            out[n] = *p;
        n += len;
    }
    out[n] = '\0';
    int w = snprintf(out + n, size - n, "' -c \"%s\" </dev/null 2>/dev/null", VERSION_PROGRAM);
    return w > 0 && (size_t)w < size - n ? 0 : -1;
}

int gm_interpreter_python_version(void) {
    /* The command line and the language server run on one thread: a plain static does. */
    static int version = -1;
    if (version >= 0)
        return version;
    version = 0;
    gm_interpreter_id id;
    if (gm_interpreter_find(&id) != 0)
        return version;
    char cache[1100];
    bool cached = gm_interpreter_cache_file(cache, sizeof cache) == 0;
    int remembered = cached ? gm_interpreter_cache_lookup(cache, &id) : 0;
    if (remembered && !id.script) {
        version = remembered;
        return version;
    }
    char command[2600];
    if (query_of(&id, command, sizeof command) == 0)
        version = gm_query_python_version(command);
    if (version && version != remembered && cached)
        gm_interpreter_cache_store(cache, &id, version);
    return version;
}
