#include "server/packages/package_locate.h"

#include <ctype.h>
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* Most bytes of the interpreter's answer read: a few paths per package. */
#define MAX_ANSWER (1u << 20)

/* find_spec imports a dotted name's parents but not a top-level package itself: locating runs
 * no package code. Prints one JSON object. */
static const char locate_script[] =
    "import importlib.util, json, sys\n"
    "answer = {'python': list(sys.version_info[:2]), 'packages': {}}\n"
    "for name in sys.argv[1:]:\n"
    "    try:\n"
    "        spec = importlib.util.find_spec(name)\n"
    "    except Exception as exc:\n"
    "        answer['packages'][name] = {'error': '%s: %s' % (type(exc).__name__, exc)}\n"
    "        continue\n"
    "    if spec is None:\n"
    "        answer['packages'][name] = {'error': 'not installed'}\n"
    "    elif spec.submodule_search_locations:\n"
    "        answer['packages'][name] = {'roots': list(spec.submodule_search_locations)}\n"
    "    elif spec.has_location and spec.origin and spec.origin.endswith('.py'):\n"
    "        answer['packages'][name] = {'roots': [spec.origin]}\n"
    "    else:\n"
    "        answer['packages'][name] = {'error': 'not Python source (%s)' % spec.origin}\n"
    "sys.stdout.write(json.dumps(answer))\n";

int gm_package_name_valid(const char *name) {
    if (!name || !(isalpha((unsigned char)name[0]) || name[0] == '_')) {
        return 0;
    }
    for (const char *c = name; *c; c++) {
        if (!isalnum((unsigned char)*c) && *c != '_') {
            return 0;
        }
    }
    return 1;
}

/* Runs python -c locate_script names... and returns what it printed (malloc'ed), or NULL with
 * why in error. */
static char *ask_interpreter(const char *python, const char *const *names, size_t count,
                             char *error, size_t error_size) {
    char **argv = calloc(count + 5, sizeof *argv);
    int fds[2];
    if (!argv || pipe(fds) != 0) {
        free(argv);
        snprintf(error, error_size, "cannot start %s: %s", python, strerror(errno));
        return NULL;
    }
    size_t n = 0;
    argv[n++] = (char *)python;
    argv[n++] = "-c"; /* not -I: PYTHONPATH and the environment must count */
    argv[n++] = (char *)locate_script;
    for (size_t i = 0; i < count; i++) {
        argv[n++] = (char *)names[i];
    }
    argv[n] = NULL;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    posix_spawn_file_actions_addclose(&actions, fds[0]);
    posix_spawn_file_actions_addclose(&actions, fds[1]);
    pid_t pid;
    int rc = posix_spawnp(&pid, python, &actions, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&actions);
    free(argv);
    close(fds[1]);
    if (rc != 0) {
        close(fds[0]);
        snprintf(error, error_size,
                 "cannot start the Python interpreter '%s': %s (choose one with --python or "
                 "$GRAPHMEND_PYTHON)",
                 python, strerror(rc));
        return NULL;
    }
    size_t len = 0, cap = 4096;
    char *text = malloc(cap);
    bool too_long = false;
    for (;;) {
        if (text && len + 1 >= cap && cap < MAX_ANSWER) {
            char *grown = realloc(text, cap * 2);
            if (!grown) {
                free(text);
                text = NULL;
            } else {
                text = grown;
                cap *= 2;
            }
        }
        char sink[4096];
        char *into = text && len + 1 < cap ? text + len : sink;
        size_t room = text && len + 1 < cap ? cap - len - 1 : sizeof sink;
        ssize_t got = read(fds[0], into, room);
        if (got < 0 && errno == EINTR) {
            continue;
        }
        if (got <= 0) {
            break;
        }
        if (into == sink) {
            too_long = true; /* drained so that the child never blocks on a full pipe */
        } else {
            len += (size_t)got;
        }
    }
    close(fds[0]);
    int status = 0;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (!text || too_long) {
        free(text);
        snprintf(error, error_size, "%s", text ? "the interpreter's answer is too long"
                                               : "out of memory");
        return NULL;
    }
    text[len] = '\0';
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        free(text);
        snprintf(error, error_size,
                 "the Python interpreter '%s' failed to say where the packages are (exit status "
                 "%d; its error is above)",
                 python, WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status));
        return NULL;
    }
    return text;
}

static int add_root(gm_located_package *package, const char *path) {
    char real[PATH_MAX];
    if (!realpath(path, real)) {
        return 0; /* a search location that does not exist holds nothing to mend */
    }
    for (size_t i = 0; i < package->roots.count; i++) {
        if (strcmp(package->roots.paths[i], real) == 0) {
            return 0;
        }
    }
    char *copy = strdup(real);
    return copy ? gm_path_list_push(&package->roots, copy) : -1;
}

static int read_answer(const char *text, const char *const *names, size_t count,
                       gm_package_locations *out, char *error, size_t error_size) {
    json_error_t json_error;
    json_t *answer = json_loads(text, 0, &json_error);
    json_t *version = json_object_get(answer, "python");
    json_t *packages = json_object_get(answer, "packages");
    if (!json_is_array(version) || json_array_size(version) != 2 || !json_is_object(packages)) {
        json_decref(answer);
        snprintf(error, error_size, "the Python interpreter gave an answer graphmend cannot read");
        return -1;
    }
    out->python_version = (int)(json_integer_value(json_array_get(version, 0)) * 100 +
                                json_integer_value(json_array_get(version, 1)));
    out->items = calloc(count + 1, sizeof *out->items);
    if (!out->items) {
        json_decref(answer);
        snprintf(error, error_size, "out of memory");
        return -1;
    }
    for (size_t i = 0; i < count; i++) {
        json_t *found = json_object_get(packages, names[i]);
        const char *why = json_string_value(json_object_get(found, "error"));
        json_t *roots = json_object_get(found, "roots");
        gm_located_package *package = &out->items[out->count++];
        package->name = strdup(names[i]);
        if (!package->name) {
            json_decref(answer);
            snprintf(error, error_size, "out of memory");
            return -1;
        }
        for (size_t j = 0; !why && j < json_array_size(roots); j++) {
            const char *root = json_string_value(json_array_get(roots, j));
            if (root && add_root(package, root) != 0) {
                json_decref(answer);
                snprintf(error, error_size, "out of memory");
                return -1;
            }
        }
        if (!why && package->roots.count == 0) {
            why = "the interpreter names no directory for it";
        }
        if (why) {
            snprintf(error, error_size, "package '%s' cannot be mended: %s", names[i], why);
            json_decref(answer);
            return -1;
        }
    }
    json_decref(answer);
    return 0;
}

int gm_locate_packages(const char *python, const char *const *names, size_t count,
                       gm_package_locations *out, char *error, size_t error_size) {
    memset(out, 0, sizeof *out);
    for (size_t i = 0; i < count; i++) {
        if (!gm_package_name_valid(names[i])) {
            snprintf(error, error_size,
                     "'%s' is not a top-level import name (give the name Python imports, "
                     "e.g. transformers, sklearn)",
                     names[i]);
            return -1;
        }
    }
    char *text = ask_interpreter(python, names, count, error, error_size);
    if (!text) {
        return -1;
    }
    int status = read_answer(text, names, count, out, error, error_size);
    free(text);
    if (status != 0) {
        gm_package_locations_free(out);
    }
    return status;
}

void gm_package_locations_free(gm_package_locations *locations) {
    for (size_t i = 0; i < locations->count; i++) {
        free(locations->items[i].name);
        gm_path_list_free(&locations->items[i].roots);
    }
    free(locations->items);
    memset(locations, 0, sizeof *locations);
}
