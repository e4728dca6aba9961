#include "server/cli/run_options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool one_of(const char *value, const char *const *allowed) {
    for (size_t i = 0; allowed[i]; i++) {
        if (strcmp(value, allowed[i]) == 0) {
            return true;
        }
    }
    return false;
}

int gm_cli_run_option(const char *command, int argc, char **argv, int *i,
                      gm_profile_request *request, bool *json) {
    static const char *const devices[] = {"auto", "cuda", "cpu", NULL};
    static const char *const formats[] = {"text", "json", NULL};
    const char *arg = argv[*i];
    if (strcmp(arg, "--entry") != 0 && strcmp(arg, "--python") != 0 &&
        strcmp(arg, "--device") != 0 && strcmp(arg, "--output-format") != 0 &&
        strcmp(arg, "--timeout") != 0) {
        return 0;
    }
    if (*i + 1 >= argc) {
        fprintf(stderr, "%s: %s needs a value\n", command, arg);
        return 2;
    }
    const char *value = argv[++*i];
    if (strcmp(arg, "--entry") == 0) {
        request->entry = value;
    } else if (strcmp(arg, "--python") == 0) {
        request->python = value;
    } else if (strcmp(arg, "--device") == 0) {
        if (!one_of(value, devices)) {
            fprintf(stderr, "%s: unknown device '%s' (auto, cuda, cpu)\n", command, value);
            return 2;
        }
        request->device = value;
    } else if (strcmp(arg, "--output-format") == 0) {
        if (!one_of(value, formats)) {
            fprintf(stderr, "%s: unknown output format '%s' (text, json)\n", command, value);
            return 2;
        }
        *json = strcmp(value, "json") == 0;
    } else {
        char *end = NULL;
        double seconds = strtod(value, &end);
        if (!value[0] || *end || !(seconds > 0)) {
            fprintf(stderr, "%s: --timeout needs seconds > 0, not '%s'\n", command, value);
            return 2;
        }
        request->timeout_s = seconds;
    }
    return 1;
}
