#include "server/config/interpreter_path.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

char *gm_interpreter_path(const char *python) {
    if (!python) {
        return NULL;
    }
    char cwd[4096];
    if (!strchr(python, '/') || python[0] == '/' || !getcwd(cwd, sizeof cwd)) {
        return strdup(python);
    }
    size_t size = strlen(cwd) + strlen(python) + 2;
    char *path = malloc(size);
    if (path) {
        snprintf(path, size, "%s/%s", cwd, python);
    }
    return path;
}
