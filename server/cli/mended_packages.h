/* The --packages option of `graphmend run` and `graphmend profile`: the installed packages whose
 * modules are imported mended, found through the interpreter that runs them and mended into the
 * cache (server/packages/). */
#ifndef GM_SERVER_CLI_MENDED_PACKAGES_H
#define GM_SERVER_CLI_MENDED_PACKAGES_H

#include <stdbool.h>
#include <stddef.h>

#include "server/packages/package_mend.h"

typedef struct {
    char **names; /* owned */
    size_t count;
} gm_package_names;

/* Adds the comma-separated names of list ("transformers,diffusers") to names. Returns 0, or 2
 * after printing the problem, prefixed with command ("graphmend run"). */
int gm_cli_add_package_names(const char *command, const char *list, gm_package_names *names);

void gm_package_names_free(gm_package_names *names);

/* Where the launcher and its map are, once the packages are mended. */
typedef struct {
    char map[4200];
    char launcher[4200];
    gm_package_mend_stats stats;
} gm_mended_packages;

/* Finds names with python and mends them into the cache under the options of script's
 * pyproject.toml (when script is not NULL; the interpreter's Python version otherwise), unsafe
 * mends too when unsafe. Unless quiet, says on stderr what was mended. Returns 0, or 2 after
 * printing the problem. */
int gm_cli_mend_packages(const char *command, const char *python, const gm_package_names *names,
                         const char *script, bool unsafe, bool quiet, gm_mended_packages *out);

#endif
