/* A set of names, each a borrowed slice of the source text: the names a function binds, built
 * once per function so that "does it rebind this name?" costs a hash lookup instead of a walk of
 * the function body at every call site. */
#ifndef GM_ANALYSIS_SYNTAX_NAME_SET_H
#define GM_ANALYSIS_SYNTAX_NAME_SET_H

#include <stdbool.h>
#include <stdint.h>

#include "analysis/syntax/syntax.h"

typedef struct {
    gm_slice *items; /* owned array; the text they point into is borrowed */
    uint32_t count, capacity;
    uint32_t *table; /* open addressing: item index + 1, 0 empty; table_size a power of two */
    uint32_t table_size;
} gm_name_set;

void gm_name_set_free(gm_name_set *set);

/* Empties the set, keeping its memory. */
void gm_name_set_clear(gm_name_set *set);

/* Adds name (once). Returns 0, or -1 on OOM. */
int gm_name_set_add(gm_name_set *set, gm_slice name);

bool gm_name_set_has(const gm_name_set *set, gm_slice name);

/* The same for a NUL-terminated name. */
bool gm_name_set_has_cstr(const gm_name_set *set, const char *name);

#endif
