#include "server/cli/mended_packages.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/config/pyproject_config.h"
#include "server/config/settings.h"
#include "server/packages/package_locate.h"

int gm_cli_add_package_names(const char *command, const char *list, gm_package_names *names) {
    const char *at = list;
    for (;;) {
        const char *comma = strchr(at, ',');
        size_t len = comma ? (size_t)(comma - at) : strlen(at);
        char *name = strndup(at, len);
        char **grown = realloc(names->names, (names->count + 1) * sizeof *grown);
        if (!name || !grown) {
            free(name);
            if (grown) {
                names->names = grown;
            }
            fprintf(stderr, "%s: out of memory\n", command);
            return 2;
        }
        names->names = grown;
        if (!gm_package_name_valid(name)) {
            fprintf(stderr,
                    "%s: --packages: '%s' is not a top-level import name (give the names "
                    "Python imports, comma-separated: transformers,diffusers)\n",
                    command, name);
            free(name);
            return 2;
        }
        names->names[names->count++] = name;
        if (!comma) {
            return 0;
        }
        at = comma + 1;
    }
}

void gm_package_names_free(gm_package_names *names) {
    for (size_t i = 0; i < names->count; i++) {
        free(names->names[i]);
    }
    free(names->names);
    memset(names, 0, sizeof *names);
}

int gm_cli_mend_packages(const char *command, const char *python, const gm_package_names *names,
                         const char *script, bool unsafe, bool quiet, gm_mended_packages *out) {
    char error[1200];
    gm_package_locations where;
    if (gm_locate_packages(python, (const char *const *)names->names, names->count, &where,
                           error, sizeof error) != 0) {
        fprintf(stderr, "%s: %s\n", command, error);
        return 2;
    }
    /* the packages are analysed for the Python that will import them */
    gm_analysis_options options;
    memset(&options, 0, sizeof options);
    gm_analysis_options_default(&options);
    options.python_version = gm_python_version_nearest_supported(where.python_version);
    unsigned set = 0;
    if (script && gm_pyproject_load_for_file(script, &options, &set, error, sizeof error) != 0) {
        fprintf(stderr, "%s: invalid [tool.graphmend] in %s\n", command, error);
        gm_package_locations_free(&where);
        return 2;
    }
    options.unsafe_fixes = options.unsafe_fixes || unsafe;
    int status = gm_mend_packages(&where, &options, out->map, sizeof out->map, out->launcher,
                                  sizeof out->launcher, &out->stats, error, sizeof error);
    if (status != 0) {
        fprintf(stderr, "%s: %s\n", command, error);
    } else if (!quiet) {
        const gm_package_mend_stats *stats = &out->stats;
        fprintf(stderr,
                "%s: %zu of %zu package files mended (%zu mend%s%s), %zu left as installed "
                "(cannot be mended); %s\n",
                command, stats->mended_files, stats->files, stats->mends,
                stats->mends == 1 ? "" : "s", options.unsafe_fixes ? ", unsafe ones too" : "",
                stats->failed_files,
                stats->analysed == 0 ? "all from the cache"
                                     : "mended into the cache now");
    }
    gm_package_locations_free(&where);
    return status != 0 ? 2 : 0;
}
