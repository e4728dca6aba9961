"""Module-level `logger.warning(...)` / `logger.info(...)` calls behind Python guards (labels given
with use_cache, encoder_outputs missing, freq missing): a Logger method call breaks (GM402)
whenever the guard lets it run.
Reproduces transformers florence2/modular_florence2.py:1487-1490,
seamless_m4t_v2/modeling_seamless_m4t_v2.py:3382-3398 and timesfm/modular_timesfm.py:673-675."""
import logging

import torch
from torch import nn

logger = logging.getLogger(__name__)


class Model(nn.Module):
    use_cache = True

    def forward(self, input_features, labels=None, encoder_outputs=None, use_cache=None, freq=None):
        if labels is not None:
            if use_cache:
                logger.warning("The `use_cache` argument is changed to `False` since `labels` is provided.")  # expect: GM402
            use_cache = False

        use_cache = use_cache if use_cache is not None else self.use_cache

        if encoder_outputs is None:
            # if encoder_outputs is not None, it's probably used within a .generate method so no need to warn
            logger.warning(  # expect: GM402
                "This is the same forward method as `SeamlessM4Tv2ForSpeechToText`. It doesn't use `self.t2u_model`."
                "If you want to generate speech, use the `generate` method."
            )
            encoder_outputs = (input_features * 2,)

        inputs = [ts for ts in input_features]
        if freq is None:
            logger.info("No frequency provided via `freq`. Default to high (0).")  # expect: GM402
            freq = [0] * len(inputs)
        return encoder_outputs[0] + len(freq), use_cache


def example():
    return Model().eval(), (torch.randn(2, 3), torch.ones(2, dtype=torch.long), None, True, None)
