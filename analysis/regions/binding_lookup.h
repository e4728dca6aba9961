/* Where a name or attribute read in a compiled region got its value, found in the syntax tree
 * on demand: for rules that need to know more about a value than the value kinds
 * (analysis/value_kinds/) track (a logging.Logger, a NumPy array). Each lookup walks only what it must (the statements
 * before a use in its enclosing blocks, a class body, an __init__, the module's top level), and is
 * meant for the rare constructs that need it, after cheaper checks. */
#ifndef GM_ANALYSIS_REGIONS_BINDING_LOOKUP_H
#define GM_ANALYSIS_REGIONS_BINDING_LOOKUP_H

#include "analysis/regions/region.h"

/* The nodes from a child of the region's function body down to at (at last), into nodes, with
 * the field of its parent each was reached through (0 for none) into fields; at most cap.
 * Found by descending from the function by byte offset (ts_node_parent walks down from the root
 * at every step). Returns the count, or 0 when at is not below the function's body within cap
 * steps, or lies in a nested function, class or lambda. */
unsigned gm_lookup_path(const gm_region *region, TSNode at, TSNode *nodes, TSFieldId *fields,
                        unsigned cap);

/* The right-hand side of the latest `name = rhs` before the node at, among the statements of
 * the blocks that enclose at in the region's function (not inside sibling compound
 * statements); a null node when the latest such binding is of another form (a tuple target, an
 * augmented assignment, a for target) or there is none. */
TSNode gm_lookup_local(gm_region *region, gm_slice name, TSNode at);

/* The right-hand side of the last `attr = rhs` directly in the body of the region's class, or
 * a null node. */
TSNode gm_lookup_class_attribute(gm_region *region, gm_slice attr);

/* The right-hand side of the last `self.attr = rhs` in the __init__ of the region's class (not
 * in nested definitions; self is __init__'s first parameter), or a null node. */
TSNode gm_lookup_init_attribute(gm_region *region, gm_slice attr);

/* The right-hand sides of every `self.attr = rhs` in the methods of the region's class (not in
 * nested definitions; self is each method's first parameter), in source order, into values (at
 * most cap of them). Returns how many there are, which may exceed cap. */
unsigned gm_lookup_method_attribute_values(gm_region *region, gm_slice attr, TSNode *values,
                                           unsigned cap);
/* The right-hand side of the last top-level `name = rhs` of the module, or a null node. */
TSNode gm_lookup_module_assignment(gm_region *region, gm_slice name);

/* The value self.attr has in the region's method: __init__'s assignment, else the class
 * body's; a null node when neither assigns it or the region is not a method. */
TSNode gm_lookup_self_attribute(gm_region *region, gm_slice attr);

/* Whether n is the identifier the region's method receives itself as. */
bool gm_lookup_is_self(const gm_region *region, TSNode n);

#endif
