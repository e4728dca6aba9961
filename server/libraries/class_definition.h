/* The file of an installed package that defines a class a user's file imports from it. Packages
 * re-export their classes lazily (transformers' `from transformers import BartModel` goes
 * through `_LazyModule` and `import *` of every model family), so the module an import names
 * often does not define the class: then the package's files are searched for the top-level
 * `class Name` statement, preferring a module its package's __init__.py names (transformers'
 * modular_*.py sources define the same classes but are never imported). */
#ifndef GM_SERVER_LIBRARIES_CLASS_DEFINITION_H
#define GM_SERVER_LIBRARIES_CLASS_DEFINITION_H

#include <stddef.h>

/* Most files of one package searched for a class (transformers 5.23 has about 2,900). */
#define GM_CLASS_SEARCH_MAX_FILES 20000

/* package_dir: the directory of the top-level package of dotted ("transformers.BartModel",
 * "transformers.models.bart.modeling_bart.BartModel"). Writes the defining file's path into
 * path. Returns 0, or -1 when no file of the package defines the class. */
int gm_find_class_definition(const char *package_dir, const char *dotted, char *path, size_t cap);

/* The same for a class or a top-level function (`def name`, `async def name`): the file that
 * defines what a user's `torch.compile(torchsde.sdeint)` compiles. */
int gm_find_definition(const char *package_dir, const char *dotted, char *path, size_t cap);

#endif
