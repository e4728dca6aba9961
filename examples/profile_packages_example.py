"""A tiny Hugging Face transformers model for `graphmend profile --packages`: the graph breaks are
not in this file but in the installed library, so only mending the library's modules can remove
them.

    graphmend profile examples/profile_packages_example.py --packages transformers --unsafe-fixes

profiles the model twice, each time in a fresh Python process: with transformers as installed,
and with transformers' modules mended as they are imported (graphmend mends copies into its
cache, ~/.cache/graphmend; the installed files are never written). FSMT (the WMT19 translation
model) from its default configuration, shrunk to a few thousand parameters and random weights,
so that nothing is downloaded: its encoder branches on `padding_mask.any()`, a tensor value,
which splits the compiled forward; graphmend's (unsafe) mend of that branch removes the break.
The same works for any program with `graphmend run --packages transformers -- python train.py`.
Needs transformers 5.23 (`pip install transformers==5.23.0`).
"""

import torch
from transformers import FSMTConfig, FSMTModel

VOCAB = 128


def graphmend_profile_entry():
    config = FSMTConfig(langs=["en", "de"], src_vocab_size=VOCAB, tgt_vocab_size=VOCAB,
                        d_model=32, encoder_layers=1, decoder_layers=1,
                        encoder_attention_heads=2, decoder_attention_heads=2,
                        encoder_ffn_dim=64, decoder_ffn_dim=64, max_position_embeddings=64)
    model = FSMTModel(config).eval()
    ids = torch.randint(3, VOCAB, (2, 8))
    mask = torch.ones_like(ids)
    mask[1, 6:] = 0  # one padded row
    decoder_ids = torch.randint(3, VOCAB, (2, 3))
    # use_cache=False: the forward of training and scoring, which makes its own decoder masks
    return model, (), {"input_ids": ids, "attention_mask": mask, "decoder_input_ids": decoder_ids,
                       "use_cache": False}
