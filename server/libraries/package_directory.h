/* Where an installed package lives, as the user's Python interpreter finds it: the interpreter
 * is asked once (importlib.util.find_spec, which imports nothing for a top-level name; the
 * current directory is taken off sys.path first, so a file of the user's named like the package
 * is neither found nor run). Blocking: the language server calls it on a worker thread. */
#ifndef GM_SERVER_LIBRARIES_PACKAGE_DIRECTORY_H
#define GM_SERVER_LIBRARIES_PACKAGE_DIRECTORY_H

#include <stdbool.h>
#include <stddef.h>

/* Seconds the interpreter may take to answer before it is killed. */
#define GM_PACKAGE_QUERY_TIMEOUT_S 20


/* Runs `python -c <query> name` (argv, no shell; stdin from /dev/null; cwd "/") and writes the
 * package's directory into dir. Returns 0, or -1 after writing why into error: the interpreter
 * could not be run or timed out, the package is not installed for it, or it is a single module
 * rather than a package. */
int gm_package_directory(const char *python, const char *name, char *dir, size_t cap, char *error,
                         size_t error_size);

#endif
