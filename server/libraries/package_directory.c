#include "server/libraries/package_directory.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "server/config/interpreter_path.h"
#include "server/packages/package_locate.h"

/* find_spec of a top-level name reads the path entries and imports nothing of the package. The
 * answer is one line: the directory, or a word saying why there is none. */
static const char package_query[] =
    "import sys\n"
    "sys.path[:] = [p for p in sys.path if p not in ('', '.')]\n"
    "import importlib.util\n"
    "spec = importlib.util.find_spec(sys.argv[1])\n"
    "if spec is None:\n"
    "    print('missing')\n"
    "elif not spec.submodule_search_locations:\n"
    "    print('module')\n"
    "else:\n"
    "    print('dir:' + list(spec.submodule_search_locations)[0])\n";

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int gm_package_directory(const char *python, const char *name, char *dir, size_t cap, char *error,
                         size_t error_size) {
    if (!gm_package_name_valid(name)) {
        snprintf(error, error_size, "'%.100s' is not a package name", name ? name : "");
        return -1;
    }
    /* the child runs in `/`: a relative interpreter path is taken from here */
    char *interpreter = gm_interpreter_path(python);
    if (!interpreter) {
        snprintf(error, error_size, "out of memory");
        return -1;
    }
    int out[2];
    if (pipe(out) != 0) {
        snprintf(error, error_size, "cannot make a pipe: %s", strerror(errno));
        free(interpreter);
        return -1;
    }
    /* the read end must not leak into children other threads start meanwhile */
    fcntl(out[0], F_SETFD, FD_CLOEXEC);
    pid_t pid = fork();
    if (pid < 0) {
        free(interpreter);
        close(out[0]);
        close(out[1]);
        snprintf(error, error_size, "cannot start %s: %s", python, strerror(errno));
        return -1;
    }
    if (pid == 0) {
        /* only async-signal-safe calls between fork and exec: the parent may have threads */
        int null = open("/dev/null", O_RDWR);
        if (null >= 0) {
            dup2(null, 0);
            dup2(null, 2);
        }
        dup2(out[1], 1);
        close(out[1]);
        if (chdir("/") != 0)
            _exit(126);
        char *argv[] = {interpreter, "-c", (char *)package_query, (char *)name, NULL};
        execvp(interpreter, argv);
        _exit(127);
    }
    free(interpreter);
    close(out[1]);
    char answer[4096];
    size_t used = 0;
    bool timed_out = false;
    double deadline = now_s() + GM_PACKAGE_QUERY_TIMEOUT_S;
    for (;;) {
        double left = deadline - now_s();
        if (left <= 0) {
            timed_out = true;
            break;
        }
        struct pollfd p = {out[0], POLLIN, 0};
        int ready = poll(&p, 1, (int)(left * 1000) + 1);
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready <= 0)
            continue;
        ssize_t n = read(out[0], answer + used, used < sizeof answer - 1 ? sizeof answer - 1 - used : 0);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            break;
        used += (size_t)n;
        if (used == sizeof answer - 1)
            break; /* longer than any path: the answer is odd anyway */
    }
    close(out[0]);
    if (timed_out)
        kill(pid, SIGKILL);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    answer[used] = '\0';
    answer[strcspn(answer, "\r\n")] = '\0';
    if (timed_out) {
        snprintf(error, error_size, "%s did not answer within %d s", python,
                 GM_PACKAGE_QUERY_TIMEOUT_S);
        return -1;
    }
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
        snprintf(error, error_size, "cannot run the Python interpreter '%s'", python);
        return -1;
    }
    if (strcmp(answer, "missing") == 0) {
        snprintf(error, error_size, "package '%s' is not installed for %s", name, python);
        return -1;
    }
    if (strcmp(answer, "module") == 0) {
        snprintf(error, error_size, "'%s' is a single module, not a package", name);
        return -1;
    }
    struct stat info;
    if (strncmp(answer, "dir:", 4) != 0 || stat(answer + 4, &info) != 0 || !S_ISDIR(info.st_mode)) {
        snprintf(error, error_size, "%s gave no directory for package '%s'", python, name);
        return -1;
    }
    if (strlen(answer + 4) + 1 > cap) {
        snprintf(error, error_size, "the directory of package '%s' is too long", name);
        return -1;
    }
    strcpy(dir, answer + 4);
    return 0;
}
