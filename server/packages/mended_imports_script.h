/* The launcher that loads mended modules as they are imported (mended_imports.py), embedded at
 * build time by server/profile/embed_text.py. */
#ifndef GM_SERVER_PACKAGES_MENDED_IMPORTS_SCRIPT_H
#define GM_SERVER_PACKAGES_MENDED_IMPORTS_SCRIPT_H

#include <stddef.h>

extern const char gm_mended_imports_script[];     /* NUL-terminated */
extern const size_t gm_mended_imports_script_len; /* without the NUL */

#endif
