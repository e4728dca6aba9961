/* The profile helper (profile_helper.py), embedded at build time by embed_text.py. */
#ifndef GM_SERVER_PROFILE_HELPER_SCRIPT_H
#define GM_SERVER_PROFILE_HELPER_SCRIPT_H

#include <stddef.h>

extern const char gm_profile_helper_script[];     /* NUL-terminated */
extern const size_t gm_profile_helper_script_len; /* without the NUL */

#endif
