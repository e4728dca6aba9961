/* Installed packages mended into graphmend's cache, never in place: each package is a workspace
 * of its own (compiled code in one module reaches functions of others), analysed as `check`
 * does and mended as `fix` does, on every core. The result is a map of installed files to their
 * mended copies for the launcher (mended_imports.py) that loads them as they are imported. */
#ifndef GM_SERVER_PACKAGES_PACKAGE_MEND_H
#define GM_SERVER_PACKAGES_PACKAGE_MEND_H

#include <stdbool.h>
#include <stddef.h>

#include "analysis/options/analysis_options.h"
#include "server/packages/package_locate.h"

typedef struct {
    size_t files;        /* Python files of the packages */
    size_t mended_files; /* with a mended copy */
    size_t mends;        /* mends in those copies */
    size_t failed_files; /* graphmend could not mend them: they run unchanged */
    size_t analysed;     /* files analysed by this call (0: every package was cached as is) */
} gm_package_mend_stats;

/* Mends the modules of the packages in where under options (unsafe mends with
 * options->unsafe_fixes), reusing the cache: a package whose files all have the size and
 * modification time recorded last time is not read at all, and a file whose content, callers
 * and settings were mended before is not mended again. Writes the map and the launcher script
 * into the cache and gives their paths (the map also names the files that could not be mended,
 * and why: the launcher says so when it imports one). Returns 0, or -1 with why in error (the cache cannot be written, OOM). */
int gm_mend_packages(const gm_package_locations *where, const gm_analysis_options *options,
                     char *map_path, size_t map_cap, char *launcher_path,
                     size_t launcher_cap, gm_package_mend_stats *stats, char *error,
                     size_t error_size);

#endif
