/* The private temporary directory of one profile run: the helper script, the two copies of the
 * user's file, each arm's result and outputs, and each arm's inductor cache. */
#ifndef GM_SERVER_PROFILE_WORKDIR_H
#define GM_SERVER_PROFILE_WORKDIR_H

#include <stddef.h>

/* Creates a new directory readable only by this user ($TMPDIR or /tmp, "graphmend-profile-XXXXXX")
 * into dir (size dir_size). Returns 0, or -1 with errno set. */
int gm_profile_workdir_create(char *dir, size_t dir_size);

/* Writes len bytes of data to dir/name (mode 0600). Returns 0, or -1 with errno set. */
int gm_profile_workdir_write(const char *dir, const char *name, const char *data, size_t len);

/* Reads dir/name whole (malloc'ed, NUL-terminated; the caller frees it), or NULL. */
char *gm_profile_workdir_read(const char *dir, const char *name, size_t *len);

/* Removes dir and everything under it (what the arms' caches left there included). */
void gm_profile_workdir_remove(const char *dir);

#endif
