#include "server/config/interpreter_version.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "analysis/options/analysis_options.h"

/* stdin from /dev/null: the language server's stdin is the client's pipe, which the child must
 * not read. stderr to /dev/null: a missing python3 is no problem worth showing. */
#define PYTHON3_VERSION_QUERY                                                                      \
    "python3 -c \"import sys; print('%d.%d' % sys.version_info[:2])\" </dev/null 2>/dev/null"

int gm_query_python_version(const char *command) {
    FILE *pipe = popen(command, "r");
    if (!pipe) {
        return 0;
    }
    char answer[64];
    bool answered = fgets(answer, sizeof answer, pipe) != NULL;
    /* Read to the end so that the child never blocks on a full pipe while pclose waits for it;
     * anything past the first line makes the answer odd. */
    char rest[256];
    bool more = false;
    while (fgets(rest, sizeof rest, pipe)) {
        more = true;
    }
    pclose(pipe); /* the answer decides, not the exit status */
    if (!answered || more) {
        return 0;
    }
    answer[strcspn(answer, "\r\n")] = '\0';
    int version;
    return gm_parse_python_version(answer, &version) == 0 ? version : 0;
}

int gm_interpreter_python_version(void) {
    /* The language server and the command line run on one thread: a plain static does. */
    static int version = -1;
    if (version < 0) {
        version = gm_query_python_version(PYTHON3_VERSION_QUERY);
    }
    return version;
}
