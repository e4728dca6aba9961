/* The capture mend (gm_mend_capture_scalars, see mends.h): where a data-dependent number has no
 * rewrite that keeps it a tensor (a `.tolist()` whose list sizes a split, a tensor slice bound,
 * a tensor passed where a factory needs an int size), the file switches on dynamo's
 * capture_scalar_outputs after its imports. Dynamo then reads the value inside the graph as an
 * unbacked symbolic int (aten._local_scalar_dense) instead of breaking, and the values computed
 * are the same (verified on torch 2.13, CPU: JetMoE's and GraniteMoE's `.tolist()` split sizes,
 * Aria's and Pixtral's cumulative slice bounds, `torch.arange(lengths.max())`).
 *
 * Unsafe: the setting holds for every function compiled in the process once the module is
 * imported, not for this site alone; a captured value that later decides Python control flow
 * (an `if`, a loop count) still breaks there, and a size dynamo cannot prove valid is checked
 * when the graph runs instead of while tracing. Every such mend of the file inserts the
 * identical line at the same place, which the fix applier takes once; once the line is in the
 * file the analysis treats the setting as on for it (gm_symbols.sets_capture_scalar_outputs),
 * so GM201 and GM202 are no longer predicted there and no mend is offered again. */
#include "analysis/mends/mends.h"
#include "analysis/mends/setting_suggestion.h"

#define CAPTURE_TITLE                                                                              \
    "Mend graph break: set torch._dynamo.config.capture_scalar_outputs = True after the imports, " \
    "so that torch.compile reads the value in the graph as a symbolic int (unsafe: the setting "  \
    "holds for every compiled function of the process, and a value that decides Python control " \
    "flow still breaks there)"

int gm_mend_capture_scalars(gm_region *region, gm_fix *out) {
    if (region->stmt->options->capture_scalar_outputs || !region->stmt->symbols->torch_alias)
        return 0; /* already on (nothing breaks here), or no torch to set it on */
    if (!gm_mend_torch_bound_at_import(region->stmt, UINT32_MAX)) {
        region->mend_declined =
            "the value is data-dependent, and torch is imported only under a condition, so the "
            "line that would switch on capture_scalar_outputs after the imports might not find "
            "it: import torch at module level, or take the int from a shape (`x.size(0)`)";
        return 0;
    }
    return gm_mend_setting_suggestion(region, GM_FIX_UNSAFE,
                                      "_dynamo.config.capture_scalar_outputs = True",
                                      "capture scalars in the graph", CAPTURE_TITLE, out);
}
