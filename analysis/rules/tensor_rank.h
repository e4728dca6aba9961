/* What the code says about how many dimensions a tensor has, where a rule needs it: indexing a
 * 1-d tensor with an int gives a 0-d tensor, which dynamo cannot use as an index (GM202). */
#ifndef GM_ANALYSIS_RULES_TENSOR_RANK_H
#define GM_ANALYSIS_RULES_TENSOR_RANK_H
#include "analysis/regions/region.h"

/* Whether n is a 1-d tensor by its making: `torch.tensor([1008, 512])`, `torch.arange(n)`,
 * `torch.linspace(...)`, `x.flatten()`, `x.view(-1)`, those kept in a local, or in an instance
 * attribute every assignment of which in the class's methods makes one (`self.timesteps`
 * from `set_timesteps`); dtype and device conversions keep the rank. */
bool gm_is_one_dim_tensor(gm_region *region, TSNode n);

#endif
