# mend-fix-args: --unsafe-fixes
# mend-applicability: unsafe
# Inside `with`, the safe deferral declines (deferred to the graph's end, the message would be
# lost if the graph raised an exception the with statement handles); adding warnings.warn to
# the process-wide setting is the unsafe mend.
import warnings

import torch
torch._dynamo.config.reorderable_logging_functions.add(warnings.warn)


@torch.compile
def attention_scores(q, k):
    scores = q @ k.transpose(-1, -2)
    with torch.no_grad():
        warnings.warn("attention_scores is deprecated; use torch.nn.functional.scaled_dot_product_attention")
    return scores.softmax(-1)


def example():
    return attention_scores, (torch.randn(2, 3, 4), torch.randn(2, 3, 4))
