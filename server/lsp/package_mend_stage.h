/* The first stage of graphmend.profile with a packages argument: the installed packages found
 * through the profile's interpreter and mended into the cache (server/packages/), on libuv's
 * threadpool, since the first mend of a large package (transformers: 20-50 s on 2 cores) must
 * not hold the server; later ones come from the cache in well under a second. */
#ifndef GM_SERVER_LSP_PACKAGE_MEND_STAGE_H
#define GM_SERVER_LSP_PACKAGE_MEND_STAGE_H

#include <stdbool.h>
#include <stddef.h>

struct uv_loop_s;

/* On the loop thread, once: launcher and map (the profile request's mended_imports_*) and the
 * mends in the packages, or error (then launcher and map are NULL). */
typedef void (*gm_package_stage_done)(void *context, const char *launcher, const char *map,
                                      size_t mends, const char *error);

/* Starts the stage for names (comma-separated, valid import names), found with python, under
 * the options of script's pyproject.toml, unsafe mends too when unsafe. Returns 0, or -1 with
 * why in error (done is then never called). */
int gm_package_stage_start(struct uv_loop_s *loop, const char *python, const char *names,
                           const char *script, bool unsafe, gm_package_stage_done done,
                           void *context, char *error, size_t error_size);

#endif
