/* Where installed packages are: asked of the Python interpreter that will run them (its
 * importlib.util.find_spec, with the environment graphmend runs in: PYTHONPATH, virtual
 * environment), never guessed from path patterns. */
#ifndef GM_SERVER_PACKAGES_PACKAGE_LOCATE_H
#define GM_SERVER_PACKAGES_PACKAGE_LOCATE_H

#include <stddef.h>

#include "server/workspace/path_list.h"

typedef struct {
    char *name;         /* the import name, "transformers" (owned) */
    gm_path_list roots; /* the package's directories (several for a namespace package), or the
                         * one file of a single-module distribution; absolute, real paths */
} gm_located_package;

typedef struct {
    int python_version; /* major*100+minor of the interpreter */
    gm_located_package *items;
    size_t count;
} gm_package_locations;

/* Whether name is a top-level import name ("transformers", not "scikit-learn" or "a.b"). */
int gm_package_name_valid(const char *name);

/* Asks python (a path or a name looked up in PATH; started with argv, no shell) where each of
 * names (count of them) is installed. Returns 0 with *out filled (free it with
 * gm_package_locations_free), or -1 with why in error: the interpreter cannot be started or
 * answers nonsense, or a package is not installed there. */
int gm_locate_packages(const char *python, const char *const *names, size_t count,
                       gm_package_locations *out, char *error, size_t error_size);

void gm_package_locations_free(gm_package_locations *locations);

#endif
