/* Which build of graphmend is running, for caches of what its analysis made: two builds of the
 * same version may still analyse differently (a developer's tree between releases). */
#ifndef GM_SERVER_WORKSPACE_BUILD_IDENTITY_H
#define GM_SERVER_WORKSPACE_BUILD_IDENTITY_H

#include <stdint.h>

/* A digest of the version and of the program's GNU build ID (the linker's hash of its code),
 * or of the version alone when the program has no build ID. */
uint64_t gm_build_identity(void);

#endif
