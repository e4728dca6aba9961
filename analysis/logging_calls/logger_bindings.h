/* Which expressions of a compiled region are logging.Logger objects, beyond the module-level
 * `logger = logging.getLogger(...)` names analysis/module_facts/symbols.c records:
 * `logging.getLogger(name)` inline, a logger bound as a class attribute or assigned to self in
 * __init__ and read through self (or through the class), and a local bound to any of these earlier
 * in the function. Also the `if logger.isEnabledFor(logging.DEBUG):` guard whose body dynamo never
 * traces. */
#ifndef GM_ANALYSIS_LOGGING_CALLS_LOGGER_BINDINGS_H
#define GM_ANALYSIS_LOGGING_CALLS_LOGGER_BINDINGS_H

#include <stddef.h>

#include "analysis/regions/region.h"

/* Whether the dotted name (resolved through the imports) is a logger factory:
 * logging.getLogger, or a library's wrapper module named logging whose get_logger returns a
 * logging.Logger (transformers.utils.logging.get_logger). */
bool gm_logger_factory_name(const char *name);

/* Whether expr evaluates to a logging.Logger in the region (see above). */
bool gm_logger_expression(gm_region *region, TSNode expr);

/* Whether the identifier callee of a call is a local the function bound earlier to a Logger
 * method (`warn = self.logger.warning`); writes the method's name into method (cap bytes). */
bool gm_logger_bound_method(gm_region *region, TSNode callee, char *method, size_t cap);

/* Whether node lies in the body of an `if`/`elif` whose test calls
 * `<logger>.isEnabledFor(LEVEL)` with LEVEL below logging.WARNING (logging.DEBUG, logging.INFO,
 * a literal under 30), within the region's function. Dynamo breaks at that test (a Logger
 * method); under logging's default configuration the logger is not enabled for the level, so
 * the body does not run and dynamo never reaches what is in it. */
bool gm_in_disabled_logging_guard(gm_region *region, TSNode node);

#endif
