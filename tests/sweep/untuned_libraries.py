#!/usr/bin/env python3
"""Ground truth on libraries this project never swept or tuned on, beside `graphmend check`.

usage: PYTHONPATH=ENV .venv/bin/python tests/sweep/untuned_libraries.py run LIBRARY OUT.json
       .venv/bin/python tests/sweep/untuned_libraries.py score OUT.json [--graphmend BIN]
       .venv/bin/python tests/sweep/untuned_libraries.py store OUT.json VERSION \
           tests/sweep/data/LIBRARY-VERSION.json

LIBRARY is x_transformers, vector_quantize_pytorch, vit_pytorch, torchvision, torch_geometric,
monai, kornia, ultralytics or torchaudio, installed (with --no-deps, beside the project's torch)
into ENV: `pip install --target ENV --no-deps x-transformers vector-quantize-pytorch vit-pytorch
einops einx loguru packaging torch-einops-utils frozendict` (torchvision: the sweep's
transformers environment, build-sweep/env/transformers-V, whose torchvision imports without its
C++ operators; MONAI: `pip install --target ENV --no-deps monai einops`, all the swept networks
need, e.g.
`PYTHONPATH=/tmp/monaienv nice .venv/bin/python tests/sweep/untuned_libraries.py run monai
/tmp/monai.json`, 2 to 4 minutes niced, 1.6 GB at most; a 3-D pass of the same classes went past
24 GB and found no other break site; kornia: `pip install --target ENV --no-deps kornia
kornia_rs`, its only imports beyond torch and NumPy, then `run kornia /tmp/kornia.json` with
PYTHONPATH=ENV, niced; the run refuses network connections, so nothing downloads weights;
ultralytics: `pip install --target ENV --no-deps ultralytics==8.4.190 opencv-python-headless
pyyaml pillow torchvision==0.28.0`, all that building its models from their yaml needs, then
`run ultralytics /tmp/yolo.json`, about 10 minutes niced; it keeps ultralytics' settings under
/tmp (YOLO_CONFIG_DIR) and sets YOLO_OFFLINE; torchaudio: `pip install --target ENV --no-deps
torchaudio==2.11.1`, then move ENV/torchaudio/lib/*.so aside: the PyPI wheel's C++ extension is
built for CUDA torch and does not load with the CPU one, and without it torchaudio imports as pure
Python, all its models need; `run torchaudio /tmp/audio.json`, about a minute niced). The
libraries added for first contact (tests/sweep/libraries/untuned/, scored first by
tests/sweep/first_contact.py), each into ENV=build-sweep/env/LIBRARY-VERSION with `pip install
--target ENV --no-deps`: torchsde==0.2.6 trampoline; snntorch==1.0.0; nnAudio==0.3.4 scipy;
torchode==1.0.1 torchtyping==0.1.5 typeguard==2.13.3; litgpt==0.5.13 lightning
lightning-utilities torchmetrics pyyaml safetensors psutil. Each runs in under 4 minutes niced.

`run` builds each configuration below (tiny widths), in eval and train mode, float32, and
records dynamo's break sites from both torch._dynamo.explain and the graph_breaks log, with the
lines dynamo traced in the library (the sweep's hooks: tests/sweep/sweep.py). `score` runs
`graphmend check` over the installed library (and again with `training = true` for the train
runs) and prints, per run, the findings on traced lines that did not break (FP; findings with a
Python condition counted apart) and the breaks it missed (FN), then the totals. `store` keeps a
run's output as the sweep's stored ground truth, which tests/sweep/test_sweep_scores.py re-scores
in CI (tools/setup unpacks the release from PyPI).
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "bench" / "transformers"))
sys.path.insert(0, str(HERE))


def configurations(library: str, torch):
    if library == "x_transformers":
        import x_transformers as xt

        def lm(**kw):
            return xt.TransformerWrapper(num_tokens=64, max_seq_len=32,
                                         attn_layers=xt.Decoder(dim=32, depth=2, heads=2, **kw))

        def enc(**kw):
            return xt.TransformerWrapper(num_tokens=64, max_seq_len=32,
                                         attn_layers=xt.Encoder(dim=32, depth=2, heads=2, **kw))

        tokens = lambda: {"x": torch.randint(0, 64, (2, 16))}  # noqa: E731
        return {
            "decoder": (lm, tokens),
            "decoder_rotary": (lambda: lm(rotary_pos_emb=True), tokens),
            "decoder_alibi": (lambda: lm(alibi_pos_bias=True), tokens),
            "decoder_relpos": (lambda: lm(rel_pos_bias=True), tokens),
            "decoder_dynpos": (lambda: lm(dynamic_pos_bias=True), tokens),
            "decoder_ff_glu_residattn": (lambda: lm(ff_glu=True, residual_attn=True), tokens),
            "decoder_macaron_sandwich": (lambda: lm(macaron=True, sandwich_norm=True), tokens),
            "decoder_gate_resid_rmsnorm": (lambda: lm(gate_residual=True, use_rmsnorm=True), tokens),
            "decoder_qknorm_onekv": (lambda: lm(attn_qk_norm=True, attn_one_kv_head=True), tokens),
            "decoder_shift_tokens": (lambda: lm(shift_tokens=1), tokens),
            "decoder_xpos": (lambda: lm(rotary_xpos=True), tokens),
            "decoder_layer_dropout": (lambda: lm(layer_dropout=0.0), tokens),
            "encoder": (enc, tokens),
            "encoder_masked": (enc, lambda: {"x": torch.randint(0, 64, (2, 16)),
                                             "mask": torch.ones(2, 16, dtype=torch.bool)}),
            "vit": (lambda: xt.ViTransformerWrapper(image_size=32, patch_size=8, num_classes=10,
                                                    attn_layers=xt.Encoder(dim=32, depth=2, heads=2)),
                    lambda: {"img": torch.randn(2, 3, 32, 32)}),
            "continuous": (lambda: xt.ContinuousTransformerWrapper(
                dim_in=8, dim_out=8, max_seq_len=32, attn_layers=xt.Decoder(dim=32, depth=2, heads=2)),
                lambda: {"x": torch.randn(2, 16, 8)}),
            "xtransformer": (lambda: xt.XTransformer(
                dim=32, enc_num_tokens=64, enc_depth=1, enc_heads=2, enc_max_seq_len=32,
                dec_num_tokens=64, dec_depth=1, dec_heads=2, dec_max_seq_len=32),
                lambda: {"src": torch.randint(0, 64, (2, 16)), "tgt": torch.randint(0, 64, (2, 16))}),
        }
    if library == "vector_quantize_pytorch":
        import vector_quantize_pytorch as v

        x = lambda: {"x": torch.randn(2, 16, 32)}  # noqa: E731
        return {
            "vq": (lambda: v.VectorQuantize(dim=32, codebook_size=64), x),
            "vq_kmeans": (lambda: v.VectorQuantize(dim=32, codebook_size=64, kmeans_init=True,
                                                   kmeans_iters=2), x),
            "vq_cosine": (lambda: v.VectorQuantize(dim=32, codebook_size=64, use_cosine_sim=True), x),
            "vq_heads": (lambda: v.VectorQuantize(dim=32, codebook_size=64, heads=2,
                                                  separate_codebook_per_head=True), x),
            "vq_orth": (lambda: v.VectorQuantize(dim=32, codebook_size=64, orthogonal_reg_weight=1.0), x),
            "vq_stochastic": (lambda: v.VectorQuantize(dim=32, codebook_size=64, stochastic_sample_codes=True,
                                                       sample_codebook_temp=0.1), x),
            "vq_dead_code": (lambda: v.VectorQuantize(dim=32, codebook_size=64, threshold_ema_dead_code=2), x),
            "rvq": (lambda: v.ResidualVQ(dim=32, num_quantizers=2, codebook_size=64), x),
            "rvq_quantize_dropout": (lambda: v.ResidualVQ(dim=32, num_quantizers=3, codebook_size=64,
                                                          quantize_dropout=True), x),
            "grvq": (lambda: v.GroupedResidualVQ(dim=32, num_quantizers=2, groups=2, codebook_size=64), x),
            "rfsq": (lambda: v.ResidualFSQ(dim=32, levels=[8, 5, 5], num_quantizers=2), x),
            "lfq": (lambda: v.LFQ(dim=32, codebook_size=64), x),
            "rlfq": (lambda: v.ResidualLFQ(dim=32, codebook_size=64, num_quantizers=2), x),
            "simvq": (lambda: v.SimVQ(dim=32, codebook_size=64), x),
            "rsimvq": (lambda: v.ResidualSimVQ(dim=32, num_quantizers=2, codebook_size=64), x),
            "rpq": (lambda: v.RandomProjectionQuantizer(dim=32, num_codebooks=2, codebook_dim=16,
                                                        codebook_size=64), x),
        }
    if library == "vit_pytorch":
        return _vit_pytorch_configurations(torch)
    if library == "torchvision":
        return _torchvision_configurations(torch)
    if library == "torch_geometric":
        return _torch_geometric_configurations(torch)
    if library == "monai":
        return _monai_configurations(torch)
    if library == "kornia":
        return _kornia_configurations(torch)
    if library == "ultralytics":
        return _ultralytics_configurations(torch)
    if library == "torchaudio":
        return _torchaudio_configurations(torch)
    module = _configuration_module(library)
    if module is None:
        raise SystemExit(f"unknown library {library}")
    return module.configurations(torch)


def _configuration_module(library: str):
    """The libraries added with a file of their own: tests/sweep/libraries/untuned/<library>.py,
    whose configurations(torch) returns {name: (build, inputs)} as the ones above."""
    import importlib

    try:
        return importlib.import_module(f"libraries.untuned.{library.lower()}")
    except ModuleNotFoundError as exc:
        if exc.name and exc.name.startswith("libraries.untuned"):
            return None
        raise


# Constructor arguments by name for vit-pytorch's models: tiny widths, 32x32 images in patches
# of 8, 4 frames in patches of 2, 64-step sequences.
_VIT_ARGUMENTS = {
    "image_size": 32, "patch_size": 8, "image_patch_size": 8, "frame_patch_size": 2, "frames": 4,
    "num_classes": 10, "dim": 32, "depth": 2, "heads": 2, "mlp_dim": 64, "dim_head": 16,
    "channels": 3, "seq_len": 64, "dropout": 0.0, "emb_dropout": 0.0,
}


def _vit_pytorch_configurations(torch):
    """Every model class of vit-pytorch's modules whose required constructor arguments are all
    in _VIT_ARGUMENTS, with an input shaped by the module's name (1-D sequences, videos or 3-D
    volumes, images)."""
    import importlib
    import inspect
    import pkgutil

    import vit_pytorch

    configs = {}
    for info in sorted(pkgutil.iter_modules(vit_pytorch.__path__), key=lambda m: m.name):
        try:
            module = importlib.import_module(f"vit_pytorch.{info.name}")
        except Exception:  # noqa: BLE001 - a module needing what is not installed
            continue
        for cls_name, cls in sorted(vars(module).items()):
            if not (inspect.isclass(cls) and issubclass(cls, torch.nn.Module)
                    and cls.__module__ == module.__name__):
                continue
            params, required = _constructor_arguments(cls)
            if params is None or "num_classes" not in params or any(
                    n not in _VIT_ARGUMENTS for n in required):
                continue
            kwargs = {n: v for n, v in _VIT_ARGUMENTS.items() if n in params}
            if info.name.endswith("_1d"):
                shape = (2, 3, 64)
            elif "3d" in info.name or "vivit" in info.name or "frames" in params:
                shape = (2, 3, 4, 32, 32)
            else:
                shape = (2, 3, 32, 32)
            configs[f"{info.name}.{cls_name}"] = (
                lambda cls=cls, kwargs=kwargs: cls(**kwargs),
                lambda shape=shape, cls=cls: {_first_input(torch, cls): torch.randn(*shape)})
    return configs


# torchvision's architectures of the families issue 13 holds out in timm (resnet, convnext,
# vision_transformer: the same designs) are left out; detection models need torchvision's
# operators, which do not load with the project's CPU torch.
_TORCHVISION_LEFT_OUT = ("resnet", "resnext", "wide_resnet", "convnext", "vit_", "r3d", "r2plus1d",
                         "mc3", "fasterrcnn", "fcos", "keypointrcnn", "maskrcnn", "retinanet",
                         "ssd", "ssdlite", "quantized")


def _torchvision_configurations(torch):
    """The smallest members of torchvision's classification, segmentation, optical-flow and video
    model families (random weights), at small input sizes."""
    import torchvision.models as tvm

    names = {
        "classification": ["alexnet", "densenet121", "efficientnet_b0", "efficientnet_v2_s",
                           "googlenet", "inception_v3", "maxvit_t", "mnasnet0_5",
                           "mobilenet_v2", "mobilenet_v3_small", "regnet_x_400mf",
                           "shufflenet_v2_x0_5", "squeezenet1_0", "swin_t", "swin_v2_t", "vgg11"],
        "segmentation": ["lraspp_mobilenet_v3_large", "deeplabv3_mobilenet_v3_large"],
        "optical_flow": ["raft_small"],
        "video": ["s3d", "swin3d_t"],
    }
    configs = {}
    for kind, models in names.items():
        for name in models:
            if any(name.startswith(p) for p in _TORCHVISION_LEFT_OUT) or "resnet" in name:
                continue
            size = {"inception_v3": 299, "maxvit_t": 224, "swin_v2_t": 256}.get(name, 224)
            if kind == "optical_flow":
                inputs = lambda: {"image1": torch.randn(1, 3, 128, 128),  # noqa: E731
                                  "image2": torch.randn(1, 3, 128, 128), "num_flow_updates": 2}
            elif kind == "video":
                frames, side = {"s3d": (16, 224), "swin3d_t": (8, 112)}[name]
                inputs = lambda frames=frames, side=side: {  # noqa: E731
                    "x": torch.randn(1, 3, frames, side, side)}
            else:
                inputs = lambda size=size: {"x": torch.randn(2, 3, size, size)}  # noqa: E731
            extra = {"aux_loss": False, "weights_backbone": None} if kind == "segmentation" else {}
            if name in ("googlenet", "inception_v3"):
                extra = {"aux_logits": True, "init_weights": False}
            configs[f"{kind}.{name}"] = (
                lambda name=name, extra=extra: tvm.get_model(name, weights=None, **extra), inputs)
    return configs


# Constructor arguments by name for PyG's message-passing layers and models: 16 features in and
# out, 2 heads, 2 layers.
_PYG_ARGUMENTS = {"in_channels": 16, "out_channels": 16, "channels": 16, "hidden_channels": 16,
                  "num_layers": 2, "heads": 2, "K": 2, "num_relations": 2, "edge_dim": None}


def _torch_geometric_configurations(torch):
    """Every convolution layer (`torch_geometric.nn.*Conv`) and basic GNN model (GCN, GAT,
    GraphSAGE, GIN, EdgeCNN, PNA aside) whose required constructor arguments are all in
    _PYG_ARGUMENTS, on a random graph of 10 nodes and 30 edges."""
    import inspect

    import torch_geometric.nn as pyg

    def graph():
        g = torch.Generator().manual_seed(0)
        return {"x": torch.randn(10, 16, generator=g),
                "edge_index": torch.randint(0, 10, (2, 30), generator=g)}

    configs = {}
    names = sorted(n for n in dir(pyg) if n.endswith("Conv")) + ["GCN", "GAT", "GraphSAGE", "GIN"]
    for name in names:
        cls = getattr(pyg, name, None)
        if not (inspect.isclass(cls) and issubclass(cls, torch.nn.Module)):
            continue
        params, required = _constructor_arguments(cls)
        if params is None or any(n not in _PYG_ARGUMENTS for n in required):
            continue
        kwargs = {n: _PYG_ARGUMENTS[n] for n in required}
        if "out_channels" in params and "out_channels" not in kwargs:
            kwargs["out_channels"] = 16
        configs[name] = (lambda cls=cls, kwargs=kwargs: cls(**kwargs), graph)
    return configs


# Constructor arguments by name for MONAI's networks: 2-D, one channel in and two out, 32x32
# images, three levels of 4/8/16 channels with two strides of 2, transformers of width 32 with 2
# heads and 2 layers in patches of 8.
_MONAI_ARGUMENTS = {
    "spatial_dims": 2, "in_channels": 1, "out_channels": 2, "img_size": (32, 32),
    "image_size": (32, 32), "input_image_size": (32, 32), "input_shape": (32, 32),
    "in_shape": (1, 32, 32), "out_shape": (2,), "channels": [4, 8, 16], "strides": (2, 2),
    "kernel_size": 3, "patch_size": 8, "hidden_size": 32, "mlp_dim": 64, "num_heads": 2,
    "num_layers": 2, "num_classes": 2, "classes": 2, "latent_size": 8, "label_nc": 2,
    "num_channel_initial": 4, "depth": 2, "extract_levels": (0, 1, 2), "hidden_channels": (8, 8),
    "encode_channels": (8,), "decode_channels": (8,), "num_d": 2, "num_layers_d": 2,
    "latent_shape": (8,), "start_shape": (4, 8, 8), "unet_out_channels": 4,
    "final_conv_channels": (4,), "feature_size": 12, "attention_levels": (False, False, True),
    "num_res_blocks": 1, "num_head_channels": 4, "latent_channels": 4, "norm_num_groups": 4,
    "num_res_channels": (4, 8, 16), "num_res_layers": 1,
    "downsample_parameters": ((2, 4, 1, 1),) * 3, "upsample_parameters": ((2, 4, 1, 1, 0),) * 3,
    "num_embeddings": 16, "embedding_dim": 4, "z_dim": 8,
}

# Where a network reads one of those names otherwise: DynUNet's kernel sizes and strides per
# level (three at least), VoxelMorph's pair of images and channels in pairs, SwinUNETR's heads
# and depths per stage and its patches of 2, NaViT's image side as an integer, AutoEncoder's
# strides per channel level, the patch discriminators' first width.
_MONAI_OVERRIDES = {
    "DynUNet": {"kernel_size": (3, 3, 3), "strides": (1, 2, 2), "upsample_kernel_size": (2, 2)},
    "SwinUNETR": {"num_heads": (2, 2, 2, 2), "depths": (1, 1, 1, 1), "patch_size": 2},
    "NaViT": {"image_size": 32},
    "AutoEncoder": {"strides": (2, 2, 1)},
    "VarAutoEncoder": {"strides": (2, 2, 1)},
    "SpatialAttentionBlock": {"num_channels": 8, "norm_num_groups": 4},
    "PatchDiscriminator": {"channels": 8},
    "MultiScalePatchDiscriminator": {"channels": 8},
    "VoxelMorphUNet": {"in_channels": 2, "channels": (4, 4, 8, 8)},
}

# The forward arguments MONAI's networks take by name, beside the image (2, in_channels, 32, 32):
# diffusion time steps, SPADE's label maps.
_MONAI_INPUTS = {
    "timesteps": lambda torch: torch.randint(0, 1000, (2,)),
    "seg": lambda torch: torch.randn(2, 2, 32, 32),
}

# The image side of networks whose deepest level needs more than 32 pixels (SwinUNETR: 2**5
# patches of 2 and more than one pixel at the bottom).
_MONAI_SIDES = {"SwinUNETR": 64}

# The held-out designs of issue 13 (timm's resnet, vision_transformer, convnext) under MONAI's
# names: ResNet and its encoders and blocks, the squeeze-and-excitation ResNets and ResNeXts of
# senet.py (and SENet, their base, and SENet154, a ResNeXt with SE blocks), the plain ViT, its
# autoencoder and masked autoencoder (a ViT encoder with a small decoder). DenseNet169/201/264
# are DenseNet121's code at other depths (and DenseNet its base): one is swept.
# TopologyConstruction is the DiNTS topologies' base class, whose forward computes nothing.
_MONAI_LEFT_OUT = ("ResNet", "ResNetBlock", "ResNetBottleneck", "ResNetEncoder", "ResNetFeatures",
                   "SENet", "SENet154", "SEResNet50", "SEResNet101", "SEResNet152", "SEResNeXt50",
                   "SEResNeXt101", "SEResNext50", "SEResNext101", "ViT", "ViTAutoEnc",
                   "MaskedAutoEncoderViT", "DenseNet", "DenseNet169", "DenseNet201", "DenseNet264",
                   "TopologyConstruction")

# The attention and transformer blocks of monai.networks.blocks swept beside the networks.
_MONAI_BLOCKS = ("CrossAttentionBlock", "MLPBlock", "PatchEmbeddingBlock", "SABlock",
                 "SpatialAttentionBlock", "TransformerBlock")


def _monai_configurations(torch):
    """Every network class of monai.networks.nets (once, by its class name, not its aliases) and
    the blocks of _MONAI_BLOCKS, less the held-out designs, whose required constructor arguments
    are all in _MONAI_ARGUMENTS (or _MONAI_OVERRIDES), given every argument of those tables it
    takes, with forward's first argument an image of (2, in_channels, 32, 32) (a sequence
    (2, 16, hidden_size) for blocks without in_channels; (2, in_channels) for fully connected
    nets; (2, *latent_shape) for generators) and _MONAI_INPUTS for the others it requires.
    Building runs one eager forward (eval, no gradients), so that a network that does not run at
    these sizes is recorded as an error."""
    import copy
    import inspect

    import monai.networks.blocks as blocks
    import monai.networks.nets as nets

    classes = [(name, getattr(nets, name)) for name in sorted(dir(nets))]
    classes += [(f"blocks.{name}", getattr(blocks, name)) for name in _MONAI_BLOCKS]
    configs = {}
    for key, cls in classes:
        name = key.rsplit(".", 1)[-1]
        if not (inspect.isclass(cls) and issubclass(cls, torch.nn.Module)
                and cls.__name__ == name and name not in _MONAI_LEFT_OUT):
            continue
        table = {**_MONAI_ARGUMENTS, **_MONAI_OVERRIDES.get(name, {})}
        params, required = _constructor_arguments(cls)
        if params is None or any(n not in table for n in required):
            continue
        kwargs = {n: v for n, v in table.items() if n in params}
        forward = [p for n, p in inspect.signature(cls.forward).parameters.items() if n != "self"
                   and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
        if len(forward) > 1 and forward[0].name in _MONAI_INPUTS:  # SPADENet(seg, x): x the image
            forward = [forward[1], forward[0], *forward[2:]]
        rest = [p.name for p in forward[1:] if p.default is p.empty or p.name in _MONAI_INPUTS]
        if not forward or any(n not in _MONAI_INPUTS for n in rest):
            continue
        channels = kwargs.get("in_channels", kwargs.get("num_channels"))
        if "latent_shape" in params:
            shape = (2, *kwargs["latent_shape"])
        elif "hidden_size" in params and channels is None:
            shape = (2, 16, kwargs["hidden_size"])
        elif "spatial_dims" not in params and ("hidden_channels" in params
                                               or "encode_channels" in params):
            shape = (2, channels)
        else:  # classifiers and regressors read their channels from in_shape
            side = _MONAI_SIDES.get(name, 32)
            shape = (2, channels or kwargs.get("in_shape", (1,))[0], side, side)

        def inputs(first=forward[0].name, rest=rest, shape=shape):
            torch.manual_seed(0)
            image = torch.randn(*shape)
            if first == "batched_images":  # NaViT: groups of images of their own sizes, packed
                image = [[image[0], image[1, :, :16]], [image[1]]]
            return {first: image, **{n: _MONAI_INPUTS[n](torch) for n in rest}}

        def build(cls=cls, kwargs=kwargs, inputs=inputs):
            model = cls(**copy.deepcopy(kwargs))  # a constructor may reverse a list in place
            was_training = model.training
            model.eval()
            with torch.no_grad():
                model(**inputs())
            return model.train(was_training)

        configs[key] = (build, inputs)
    return configs


# kornia's image operators as a user puts them in a model or a data pipeline: the 2-D
# augmentations (p=1.0, so that each one runs), the filters, enhancements, colour conversions and
# geometric transforms, and the detectors and descriptors of kornia.feature with untrained weights.
# Required constructor arguments by name: small kernels, crops and resizes to 16 pixels, factors
# that change the image.
_KORNIA_ARGUMENTS = {
    "size": (16, 16), "max_size": 24, "kernel_size": 3, "sigma": (1.0, 1.0), "angle": 35.0,
    "direction": 0.5, "degrees": 15.0, "shear": 10.0, "times": (1, 3), "mean": (0.5, 0.5, 0.5),
    "std": (0.25, 0.25, 0.25), "brightness_factor": 0.2, "contrast_factor": 1.5,
    "saturation_factor": 1.5, "hue_factor": 0.1, "gamma": 2.0, "alpha": 0.5, "beta": 0.5,
    "thresh": 0.5, "factor": 0.5, "lower": (0.2, 0.2, 0.2), "upper": (0.8, 0.8, 0.8),
    "sigma_color": 0.1, "sigma_space": (1.5, 1.5), "eps": 0.01, "alpha_val": 1.0, "k": 0.04,
    "num_features": 3,
}


def _kornia_overrides(torch, kornia) -> dict:
    """Constructor arguments per class where the table's do not fit (tensors per batch element,
    enums, modules to compose), made afresh for every build. Colour jitters get non-zero ranges
    (their defaults change nothing); detectors keep 64 keypoints, which a 32x32 image has;
    MKDDescriptor's whitening and LAFDescriptor's default HardNet would download weights."""
    feature = kornia.feature
    jiggle = {"brightness": 0.1, "contrast": 0.1, "saturation": 0.1, "hue": 0.1}
    raw = {"cfa": kornia.color.CFA.BG}
    return {
        "augmentation.PadTo": {"size": (40, 40)},
        "augmentation.ColorJiggle": jiggle,
        "augmentation.ColorJitter": jiggle,
        "augmentation.RandomFisheye": {"center_x": torch.tensor([-0.3, 0.3]),
                                       "center_y": torch.tensor([-0.3, 0.3]),
                                       "gamma": torch.tensor([0.9, 1.0])},
        "color.ApplyColorMap": {"colormap": kornia.color.ColorMap(base="autumn")},
        "color.RawToRgb": raw, "color.RawToRgb2x2Downscaled": raw, "color.RgbToRaw": raw,
        "transform.Rotate": {"angle": torch.tensor([30.0, 45.0])},
        "transform.Affine": {"angle": torch.tensor([30.0, 45.0])},
        "transform.Translate": {"translation": torch.tensor([[2.0, 3.0], [-2.0, 1.0]])},
        "transform.Scale": {"scale_factor": torch.tensor([[0.8, 0.8], [1.2, 1.2]])},
        "transform.Shear": {"shear": torch.tensor([[0.1, 0.0], [0.0, 0.1]])},
        "transform.HomographyWarper": {"height": 32, "width": 32},
        "feature.MKDDescriptor": {"whitening": None},
        "feature.LAFDescriptor": {"patch_descriptor_module": feature.SIFTDescriptor(32)},
        "feature.MultiResolutionDetector": {"model": feature.KeyNet(pretrained=False),
                                            "num_features": 64},
        "feature.KeyNetDetector": {"num_features": 64},
        "feature.ScaleSpaceDetector": {"num_features": 64},
        "feature.SIFTFeature": {"num_features": 64},
        "feature.SIFTFeatureScaleSpace": {"num_features": 64},
    }


# The image shapes tried, in order, for forward's image argument: the first that runs eagerly is
# swept (colour images, then grey patches of the descriptors' sizes, RGBA, volumes for the 3-D
# filters, larger grey images for SOLD2's line detector, one image for the detectors that take
# one).
_KORNIA_SHAPES = ((2, 3, 32, 32), (2, 1, 32, 32), (2, 4, 32, 32), (2, 1, 41, 41), (2, 1, 19, 19),
                  (2, 3, 4, 16, 16), (2, 1, 64, 64), (1, 1, 64, 64))


def _kornia_lafs(torch, image):
    """Four local affine frames per image (B, 4, 2, 3): one in each quarter, an eighth wide."""
    b, h, w = image.shape[0], image.shape[-2], image.shape[-1]
    lafs = torch.zeros(b, 4, 2, 3)
    lafs[..., 0, 0] = lafs[..., 1, 1] = min(h, w) / 8
    lafs[..., :, 2] = torch.tensor([[w / 4, h / 4], [3 * w / 4, h / 4], [w / 4, 3 * h / 4],
                                    [3 * w / 4, 3 * h / 4]])
    return lafs


# Forward arguments by name beside the image, made from it: a second image (guided and joint
# filters, weighted sums), local affine frames, a homography per image, JPEG qualities, the
# chroma planes of YUV 4:2:0 (4:2:2 in _KORNIA_CLASS_INPUTS), descriptors to match.
_KORNIA_INPUTS = {
    "guidance": lambda torch, image: torch.rand_like(image),
    "src2": lambda torch, image: torch.rand_like(image),
    "laf": _kornia_lafs,
    "lafs": _kornia_lafs,
    "src_homo_dst": lambda torch, image: torch.eye(3).repeat(image.shape[0], 1, 1),
    "jpeg_quality": lambda torch, image: torch.tensor([50.0, 80.0]),
    "include_fit": lambda torch, image: True,
    "inputuv": lambda torch, image: torch.rand(image.shape[0], 2, image.shape[2] // 2,
                                               image.shape[3] // 2),
    "desc1": lambda torch, image: torch.rand(16, 8),
    "desc2": lambda torch, image: torch.rand(12, 8),
}
_KORNIA_CLASS_INPUTS = {
    "color.Yuv422ToRgb": {"inputuv": lambda torch, image: torch.rand(
        image.shape[0], 2, image.shape[2], image.shape[3] // 2)},
}

# Left out, with why. Held out (issue 13: timm's resnet, vision_transformer, convnext under other
# names): DeDoDe's descriptor is DINOv2 (a ViT), LoFTR's backbone a ResNet-FPN, DeFMO's encoder a
# ResNet-50 (and each downloads weights). Download weights when built: LightGlue (and its
# matcher), the pipelines built on a pretrained HardNet, AffNet or OriNet, Stable Diffusion's
# dissolving. Built from other modules (SIFTFeature is one LocalFeature) or a helper of another
# (XFeat's sampler). Not swept at all: kornia.contrib and kornia.models (ViT, TinyViT,
# EfficientViT, RT-DETR on a ResNet, pretrained detectors), the 3-D augmentations, the abstract
# bases and the dispatchers of sequentials.
_KORNIA_LEFT_OUT = (
    "feature.DeDoDe", "feature.LoFTR", "feature.DeFMO", "feature.LightGlue",
    "feature.LightGlueMatcher", "feature.OnnxLightGlue", "feature.DoGHardNet",
    "feature.DoGAffNetHardNet", "feature.GFTTAffNetHardNet", "feature.HesAffNetHardNet",
    "feature.KeyNetHardNet", "feature.KeyNetAffNetHardNet", "filters.StableDiffusionDissolving",
    "feature.LocalFeature", "feature.LocalFeatureMatcher", "feature.InterpolateSparse2d",
)


def _kornia_sequentials(torch, kornia) -> dict:
    """A few augmentations in kornia's containers: in sequence, two of three drawn at random, on
    2x2 patches, and AugmentationSequential (which takes its images as *args, so a wrapper passes
    the sweep's named input on)."""
    aug = kornia.augmentation

    def three():
        return [aug.ColorJiggle(0.1, 0.1, 0.1, 0.1, p=1.0), aug.RandomAffine(15.0, p=1.0),
                aug.RandomHorizontalFlip(p=1.0)]

    class Positional(torch.nn.Module):
        def __init__(self, inner):
            super().__init__()
            self.inner = inner

        def forward(self, input):  # noqa: A002 - kornia's own name for the image
            return self.inner(input)

    return {
        "augmentation.ImageSequential": lambda: aug.ImageSequential(*three()),
        "augmentation.ImageSequential_random_apply": lambda: aug.ImageSequential(*three(),
                                                                                 random_apply=2),
        "augmentation.PatchSequential": lambda: aug.PatchSequential(
            aug.ColorJiggle(0.1, 0.1, 0.1, 0.1, p=1.0), aug.RandomAffine(15.0, p=1.0),
            grid_size=(2, 2), patchwise_apply=False),
        "augmentation.AugmentationSequential": lambda: Positional(
            aug.AugmentationSequential(*three())),
    }


def _refuse_network() -> None:
    """Nothing the kornia sweep builds may download: a connection fails, so a class that would
    fetch weights is recorded as an error instead."""
    import socket

    def refuse(*args, **kwargs):
        raise OSError("the sweep downloads nothing (untuned_libraries.py refuses connections)")

    socket.socket.connect = refuse
    socket.create_connection = refuse


def _kornia_configurations(torch):
    """The nn.Module classes of kornia.augmentation (2-D), kornia.filters, kornia.enhance,
    kornia.color, kornia.geometry.transform and kornia.feature (their __all__, or the classes
    kornia defines there by their own names), less
    _KORNIA_LEFT_OUT, abstract bases, 3-D augmentations and containers (_kornia_sequentials
    sweeps those), whose required constructor arguments are all in _KORNIA_ARGUMENTS or
    _kornia_overrides, built with p=1.0 and pretrained=False where they take them. forward's
    image argument (its first not named in _KORNIA_INPUTS) gets a batch torch.rand(shape) in
    [0, 1] of the first of _KORNIA_SHAPES that runs one eager forward (eval, no gradients; a
    class none runs is recorded as an error), the other arguments it requires _KORNIA_INPUTS.
    Keys are `namespace.Class` (kornia has a Normalize, Resize and Rescale in two of them)."""
    import inspect

    import kornia

    _refuse_network()
    namespaces = {"augmentation": kornia.augmentation, "filters": kornia.filters,
                  "enhance": kornia.enhance, "color": kornia.color,
                  "transform": kornia.geometry.transform, "feature": kornia.feature}
    overrides = _kornia_overrides(torch, kornia)
    configs = {}
    for space, module in namespaces.items():
        for name in sorted(getattr(module, "__all__", dir(module))):
            key, cls = f"{space}.{name}", getattr(module, name)
            if not (inspect.isclass(cls) and issubclass(cls, torch.nn.Module)
                    and cls.__name__ == name and cls.__module__.startswith("kornia.")) or (
                    key in _KORNIA_LEFT_OUT or "Base" in name
                    or cls.__module__.startswith(("kornia.augmentation._3d",
                                                  "kornia.augmentation.container"))
                    or cls.forward is torch.nn.Module.forward):
                continue
            table = {**_KORNIA_ARGUMENTS, **overrides.get(key, {})}
            params, required = _constructor_arguments(cls)
            if params is None or any(n not in table for n in required):
                continue
            extra = {**_KORNIA_INPUTS, **_KORNIA_CLASS_INPUTS.get(key, {})}
            forward = [p for n, p in inspect.signature(cls.forward).parameters.items()
                       if n != "self" and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
            images = [p.name for p in forward if p.name not in extra]
            first = images[0] if images else None
            rest = [p.name for p in forward if p.name != first
                    and (p.default is p.empty or p.name in extra)]
            if (first is None and not rest) or any(n not in extra for n in rest):
                continue
            chosen = {"shape": _KORNIA_SHAPES[0]}

            def inputs(first=first, rest=rest, extra=extra, chosen=chosen):
                torch.manual_seed(0)
                image = torch.rand(*chosen["shape"])
                named = {first: image} if first else {}
                return {**named, **{n: extra[n](torch, image) for n in rest}}

            def build(cls=cls, key=key, required=required, params=params, first=first,
                      inputs=inputs, chosen=chosen):
                fresh = _kornia_overrides(torch, kornia).get(key, {})
                kwargs = {**{n: _KORNIA_ARGUMENTS.get(n) for n in required}, **fresh}
                kwargs.update({n: v for n, v in (("p", 1.0), ("pretrained", False))
                               if n in params})
                model = cls(**kwargs)
                was_training = model.training
                model.eval()
                failures = []
                for shape in _KORNIA_SHAPES if first else _KORNIA_SHAPES[:1]:
                    chosen["shape"] = shape
                    try:
                        with torch.no_grad():
                            model(**inputs())
                        return model.train(was_training)
                    except Exception as exc:  # noqa: BLE001 - the next shape may fit
                        failures.append(f"{shape}: {type(exc).__name__}: {str(exc)[:160]}")
                raise RuntimeError("no input shape runs eagerly: " + "; ".join(failures))

            configs[key] = (build, inputs)
    for key, make in _kornia_sequentials(torch, kornia).items():
        chosen = {"shape": _KORNIA_SHAPES[0]}

        def inputs(chosen=chosen):
            torch.manual_seed(0)
            return {"input": torch.rand(*chosen["shape"])}

        configs[key] = (make, inputs)
    return configs


# ultralytics' YOLO models as its trainers and exporters build them: from the yaml configs the
# package ships (scale n, 80 classes, no weights), by task class, on a 2x3x64x64 image (stride 32,
# and 64 for the P6 configs, so every level keeps at least one cell).
_ULTRALYTICS_MODELS = {
    "yolov3-tiny": "DetectionModel", "yolov5nu": "DetectionModel", "yolov5n-p6": "DetectionModel",
    "yolov6n": "DetectionModel", "yolov8n": "DetectionModel", "yolov8n-p2": "DetectionModel",
    "yolov8n-p6": "DetectionModel", "yolov8n-ghost": "DetectionModel",
    "yolov8n-seg": "SegmentationModel", "yolov8n-pose": "PoseModel", "yolov8n-obb": "OBBModel",
    "yolov8n-cls": "ClassificationModel", "yolov8s-world": "WorldModel",
    "yolov8s-worldv2": "WorldModel", "yoloe-v8s": "YOLOEModel", "yoloe-v8s-seg": "YOLOESegModel",
    "yolov9t": "DetectionModel", "yolov9c-seg": "SegmentationModel", "yolov10n": "DetectionModel",
    "yolo11n": "DetectionModel", "yolo11n-seg": "SegmentationModel", "yolo11n-pose": "PoseModel",
    "yolo11n-obb": "OBBModel", "yolo11n-cls": "ClassificationModel", "yoloe-11s": "YOLOEModel",
    "yolo12n": "DetectionModel", "yolo12n-seg": "SegmentationModel", "yolo12n-cls":
    "ClassificationModel", "yolo26n": "DetectionModel", "yolo26n-p2": "DetectionModel",
    "yolo26n-seg": "SegmentationModel", "yolo26n-sem": "SemanticSegmentationModel",
    "yolo26n-pose": "PoseModel", "yolo26n-obb": "OBBModel", "yolo26n-cls": "ClassificationModel",
    "yolo26n-depth": "DepthModel", "yoloe-26n-seg": "YOLOESegModel",
}

# Left out, with why. Held out (issue 13: ResNet, ViT and ConvNeXt designs under other names):
# yolov8-cls-resnet50/101 and yolo11-cls-resnet18 (ResNetLayer backbones), RT-DETR (rtdetr-l/x
# and rtdetr-resnet50/101: a transformer encoder, AIFI, over the top feature map, and a DETR
# decoder; yolov8-rtdetr the same head), and of ultralytics.nn.modules the transformer layers
# (transformer.py), C3TR (a transformer block in a C3), ResNetLayer, and TorchVision (it builds
# torchvision's models, and would download their weights). The larger scales of each config are
# the same code with more channels and repeats.
_ULTRALYTICS_LEFT_OUT = ("C3TR", "ResNetLayer", "TorchVision", "AIFI", "MLP", "MLPBlock",
                         "DeformableTransformerDecoder", "DeformableTransformerDecoderLayer",
                         "MSDeformAttn", "TransformerBlock", "TransformerEncoderLayer",
                         "TransformerLayer", "LayerNorm2d", "RTDETRDecoder")

# The building blocks of ultralytics.nn.modules.block and .conv (not the heads: every head is
# in a model above) with 16 channels in and out, on a 2x16x16x16 feature map; constructor
# arguments by name.
_ULTRALYTICS_ARGUMENTS = {"c1": 16, "c2": 16, "c": 16, "c_": 16, "ec": 16, "ch": 16, "cm": 16,
                          "c3": 16, "c4": 8, "c5": 1, "dim": 16, "embed": 16, "ct": 16,
                          "nh": 1, "num_heads": 2, "area": 1, "kernel_size": 3, "k": 3, "s": 2,
                          "ed": 16}


def _ultralytics_offline(torch) -> None:
    """ultralytics keeps its settings under YOLO_CONFIG_DIR (a folder under /tmp here, not
    $HOME), and YOLO_OFFLINE stops its update checks; the run refuses connections besides."""
    os.environ.setdefault("YOLO_OFFLINE", "1")
    os.environ.setdefault("YOLO_CONFIG_DIR", os.path.join(tempfile.gettempdir(),
                                                          "graphmend-ultralytics-settings"))
    os.makedirs(os.environ["YOLO_CONFIG_DIR"], exist_ok=True)
    _refuse_network()


def _ultralytics_configurations(torch):
    """The models of _ULTRALYTICS_MODELS (built from the package's yaml, verbose off) on a
    2x3x64x64 image, and every nn.Module class of ultralytics.nn.modules.block and .conv, less
    _ULTRALYTICS_LEFT_OUT, whose required constructor arguments are all in
    _ULTRALYTICS_ARGUMENTS, on a 2x16x16x16 feature map. A block that does not run one eager
    forward on it (eval, no gradients: those that take a list of maps, Concat, Index, CBFuse, or
    text embeddings) is left out, not recorded as an error. Keys are the config name, or
    `block.Class` / `conv.Class`."""
    import inspect

    _ultralytics_offline(torch)
    from ultralytics.nn import tasks
    from ultralytics.nn.modules import block as blocks
    from ultralytics.nn.modules import conv as convs

    image = lambda: {"x": torch.rand(2, 3, 64, 64)}  # noqa: E731
    configs = {}
    for name, cls_name in _ULTRALYTICS_MODELS.items():
        def build(name=name, cls_name=cls_name):
            return getattr(tasks, cls_name)(f"{name}.yaml", verbose=False)

        configs[name] = (build, image)
    for space, module in (("block", blocks), ("conv", convs)):
        for name in sorted(getattr(module, "__all__", dir(module))):
            cls = getattr(module, name)
            if not (inspect.isclass(cls) and issubclass(cls, torch.nn.Module)
                    and cls.__module__ == module.__name__) or name in _ULTRALYTICS_LEFT_OUT \
                    or cls.forward is torch.nn.Module.forward:
                continue
            params, required = _constructor_arguments(cls)
            if params is None or any(n not in _ULTRALYTICS_ARGUMENTS for n in required):
                continue

            def features(first=_first_input(torch, cls)):  # noqa: B008 - its own argument name
                return {first: torch.rand(2, 16, 16, 16)}

            try:
                torch.manual_seed(0)
                model = cls(**{n: _ULTRALYTICS_ARGUMENTS[n] for n in required}).eval()
                with torch.no_grad():
                    model(**features())
            except Exception:  # noqa: BLE001, S112 - not a block that takes one feature map
                continue

            def build(cls=cls, required=required):
                return cls(**{n: _ULTRALYTICS_ARGUMENTS[n] for n in required})

            configs[f"{space}.{name}"] = (build, features)
    return configs


# torchaudio's models (torchaudio.models; 2.11 has no torchaudio.prototype) at tiny widths, on
# inputs of a few dozen frames. Left out: wav2vec2, HuBERT and WavLM (held out, with everything
# built on them: SquimSubjective scores with a wav2vec2 encoder, HuBERTPretrainModel), and the
# inference helpers that are not models (RNNTBeamSearch, the CTC decoders of
# torchaudio.models.decoder, which need flashlight-text). Each model's forward is swept: the
# training-time entry point (Tacotron2's and RNNT's teacher-forced forward; WaveRNN.infer,
# Tacotron2.infer and Emformer.infer, the streaming and autoregressive paths, are not).
def _torchaudio_configurations(torch):
    """Conformer, Emformer, the Emformer RNN-T, ConvTasNet, HDemucs, WaveRNN, Tacotron2,
    DeepSpeech, Wav2Letter and SquimObjective, a few with their options that change forward's
    code path (group norm and convolution first, memory banks, padding masks, MFCC input)."""
    import torchaudio.models as am

    def lengths(t, batch=2):
        return torch.tensor([t, t - 3][:batch])

    frames = lambda: {"input": torch.randn(2, 20, 16), "lengths": lengths(20)}  # noqa: E731
    # Emformer's input: 4 segments of 4 frames and 1 frame of right context
    streamed = lambda: {"input": torch.randn(2, 17, 16), "lengths": lengths(17)}  # noqa: E731

    def rnnt():
        return am.emformer_rnnt_model(
            input_dim=8, encoding_dim=16, num_symbols=12, segment_length=4, right_context_length=1,
            time_reduction_input_dim=16, time_reduction_stride=2, transformer_num_heads=2,
            transformer_ffn_dim=32, transformer_num_layers=2, transformer_dropout=0.1,
            transformer_activation="gelu", transformer_left_context_length=4,
            transformer_max_memory_size=0, transformer_weight_init_scale_strategy="depthwise",
            transformer_tanh_on_mem=True, symbol_embedding_dim=16, num_lstm_layers=2,
            lstm_layer_norm=True, lstm_layer_norm_epsilon=1e-5, lstm_dropout=0.1)

    def tacotron2(**kw):
        return am.Tacotron2(
            n_mels=8, n_symbol=20, symbol_embedding_dim=16, encoder_embedding_dim=16,
            encoder_n_convolution=2, encoder_kernel_size=3, decoder_rnn_dim=16, decoder_max_step=50,
            attention_rnn_dim=16, attention_hidden_dim=8, attention_location_n_filter=4,
            attention_location_kernel_size=3, prenet_dim=8, postnet_n_convolution=2,
            postnet_kernel_size=3, postnet_embedding_dim=8, **kw)

    def speech():
        return {"tokens": torch.randint(1, 20, (2, 10)), "token_lengths": torch.tensor([10, 7]),
                "mel_specgram": torch.randn(2, 8, 12),
                "mel_specgram_lengths": torch.tensor([12, 9])}

    def wavernn_inputs():  # n_time 10, kernel 5, hop 4: (10 - 5 + 1) * 4 samples
        return {"waveform": torch.randn(2, 1, 24), "specgram": torch.randn(2, 1, 8, 10)}

    return {
        "Conformer": (lambda: am.Conformer(input_dim=16, num_heads=2, ffn_dim=32, num_layers=2,
                                           depthwise_conv_kernel_size=3, dropout=0.1), frames),
        "Conformer_groupnorm_convfirst": (lambda: am.Conformer(
            input_dim=16, num_heads=2, ffn_dim=32, num_layers=2, depthwise_conv_kernel_size=3,
            use_group_norm=True, convolution_first=True), frames),
        "Emformer": (lambda: am.Emformer(16, 2, 32, 2, segment_length=4, dropout=0.1,
                                         right_context_length=1), streamed),
        "Emformer_memory": (lambda: am.Emformer(
            16, 2, 32, 2, segment_length=4, activation="gelu", left_context_length=4,
            right_context_length=1, max_memory_size=2, tanh_on_mem=True), streamed),
        "RNNT_emformer": (rnnt, lambda: {
            "sources": torch.randn(2, 17, 8), "source_lengths": lengths(17),
            "targets": torch.randint(0, 12, (2, 5)), "target_lengths": torch.tensor([5, 3])}),
        "ConvTasNet": (lambda: am.ConvTasNet(
            num_sources=2, enc_kernel_size=8, enc_num_feats=16, msk_kernel_size=3, msk_num_feats=8,
            msk_num_hidden_feats=16, msk_num_layers=2, msk_num_stacks=2),
            lambda: {"input": torch.randn(2, 1, 100)}),
        # nfft 256 over depth 4 reaches one frequency bin as hdemucs_low's 4096 over 6 does; the
        # LSTM and attention of the DConv branches and group norm from the third layer on.
        "HDemucs": (lambda: am.HDemucs(["drums", "bass"], channels=4, nfft=256, depth=4,
                                       norm_starts=2, dconv_attn=2, dconv_lstm=2),
                    lambda: {"input": torch.randn(2, 2, 1024)}),
        "WaveRNN": (lambda: am.WaveRNN(upsample_scales=[2, 2], n_classes=16, hop_length=4,
                                       n_res_block=2, n_rnn=16, n_fc=16, n_freq=8, n_hidden=8,
                                       n_output=8), wavernn_inputs),
        "Tacotron2": (tacotron2, speech),
        "Tacotron2_mask_padding": (lambda: tacotron2(mask_padding=True), speech),
        "DeepSpeech": (lambda: am.DeepSpeech(n_feature=16, n_hidden=16, n_class=10, dropout=0.1),
                       lambda: {"x": torch.randn(2, 1, 20, 16)}),
        "Wav2Letter_waveform": (lambda: am.Wav2Letter(num_classes=10),
                                lambda: {"x": torch.randn(2, 1, 400)}),
        "Wav2Letter_mfcc": (lambda: am.Wav2Letter(num_classes=10, input_type="mfcc",
                                                  num_features=16),
                            lambda: {"x": torch.randn(2, 16, 20)}),
        "SquimObjective": (lambda: am.squim_objective_model(
            feat_dim=16, win_len=16, d_model=16, nhead=2, hidden_dim=16, num_blocks=2,
            rnn_type="LSTM", chunk_size=10), lambda: {"x": torch.randn(2, 400)}),
    }


def _constructor_arguments(cls):
    """The parameters of cls's constructor and the names of those without a default (not self,
    not *args/**kwargs); (None, []) when its signature cannot be read."""
    import inspect

    try:
        params = inspect.signature(cls.__init__).parameters
    except (TypeError, ValueError):
        return None, []
    return params, [n for n, p in params.items() if n != "self" and p.default is p.empty
                    and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]


def _first_input(torch, cls) -> str:
    import inspect

    names = [n for n in inspect.signature(cls.forward).parameters if n != "self"]
    return names[0] if names else "x"


def command_run(args) -> int:
    import platform
    import random

    import numpy as np
    import torch
    import torch._dynamo

    import bench
    import sweep

    from libraries.torchvision_without_ops import import_torchvision

    torch.set_num_threads(1)
    import_torchvision(torch)  # vit-pytorch imports it; torchvision's own operators are not needed
    module = __import__(args.library)
    root = os.path.dirname(module.__file__)
    capture = bench._install_capture(torch)
    reached: set = set()
    bench._install_reach_hook(torch, root, reached)
    out = {"library": args.library, "root": root, "torch": torch.__version__,
           "python": platform.python_version(), "runs": []}
    for index, (name, (build, inputs)) in enumerate(configurations(args.library, torch).items()):
        if index and index % 10 == 0:  # a run stopped early keeps what it had
            Path(args.out).write_text(json.dumps(out))
        for mode in ("eval", "train"):
            run = {"config": name, "mode": mode, "dtype": "float32", "breaks": [], "unattributed": [],
                   "error": None}
            try:
                torch.manual_seed(0)
                random.seed(0)
                np.random.seed(0)
                model = build()
                model.train(mode == "train")
                torch._dynamo.reset()
                capture.messages.clear()
                reached.clear()
                sweep.explain_breaks(torch, model, inputs(), mode, capture, root + os.sep, run)
            except Exception as exc:  # noqa: BLE001 - recorded; the next run goes on
                sweep.record_error(run, exc)
            finally:
                torch._dynamo.reset()
            run["reached"] = sorted([f, line] for f, line in reached)
            out["runs"].append(run)
            print(name, mode, "graphs", run.get("graph_count"), "breaks",
                  sorted({(os.path.basename(b["file"]), b["line"]) for b in run["breaks"]}),
                  "error" if run["error"] else "", file=sys.stderr, flush=True)
    Path(args.out).write_text(json.dumps(out))
    return 0


def _findings(binary: str, root: str, training: bool) -> dict:
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / os.path.basename(root)
        shutil.copytree(root, copy, ignore=shutil.ignore_patterns("__pycache__"))
        if training:
            (Path(tmp) / "pyproject.toml").write_text("[tool.graphmend]\ntraining = true\n")
        proc = subprocess.run([os.path.abspath(binary), "check", "--output-format", "json",
                               "--exit-zero", copy.name], capture_output=True, text=True, cwd=tmp)
        if proc.returncode != 0:
            raise SystemExit(f"graphmend check failed: {proc.stderr[-2000:]}")
        found = collections.defaultdict(list)
        for f in json.loads(proc.stdout):
            rel = os.path.relpath(os.path.join(tmp, f["filename"]), tmp)
            found[(os.path.join(os.path.dirname(root), rel), int(f["location"]["row"]))].append(f)
        return found


def command_score(args) -> int:
    data = json.loads(Path(args.data).read_text())
    found = {"eval": _findings(args.graphmend, data["root"], False),
             "train": _findings(args.graphmend, data["root"], True)}
    total = collections.Counter()
    for run in data["runs"]:
        if run["error"] or "graph_count" not in run:
            total["runs that failed"] += 1
            continue
        total["runs"] += 1
        fd = found[run["mode"]]
        breaks = {(b["file"], b["line"]): b["reason"] for b in run["breaks"]}
        traced = {(f, line) for f, line in run["reached"]} | set(breaks)
        predicted = {site for site in traced if site in fd}
        conditional = {s for s in predicted - set(breaks)
                       if all("condition" in (f.get("only_when") or {}) for f in fd[s])}
        fps = predicted - set(breaks) - conditional
        fns = set(breaks) - predicted
        total["tp"] += len(predicted & set(breaks))
        total["fp"] += len(fps)
        total["fn"] += len(fns)
        total["conditional, not broken"] += len(conditional)
        for site in sorted(fps):
            print(f"FP {run['config']} {run['mode']} {os.path.basename(site[0])}:{site[1]} {fd[site][0]['code']}")
        for site in sorted(fns):
            print(f"FN {run['config']} {run['mode']} {os.path.basename(site[0])}:{site[1]} {breaks[site][:90]}")
    print(json.dumps(dict(total)))
    return 0


def _ranges(lines: list[int]) -> list:
    out, start, prev = [], None, None
    for line in sorted(set(lines)):
        if start is not None and line == prev + 1:
            prev = line
            continue
        if start is not None:
            out.append(start if start == prev else [start, prev])
        start = prev = line
    if start is not None:
        out.append(start if start == prev else [start, prev])
    return out


def command_store(args) -> int:
    """The run's output in the sweep's stored format (tests/sweep/data/<library>-<version>.json:
    paths relative to the package's parent, traced lines as ranges, one break per site), which
    tests/sweep/test_sweep_scores.py re-scores like the model sweeps."""
    data = json.loads(Path(args.data).read_text())
    parent = os.path.dirname(data["root"])
    version = args.version
    families: dict = {}
    for run in data["runs"]:
        entry = families.setdefault(run["config"], {"class": run["config"], "runs": []})
        stored = {"mode": run["mode"], "dtype": run["dtype"], "gradient_checkpointing": False,
                  "unattributed": len(run["unattributed"])}
        if run["error"] or "graph_count" not in run:
            stored["error_summary"] = run.get("error_summary", "")
            entry["runs"].append(stored)
            continue
        sites = {}
        for b in run["breaks"]:
            key = (os.path.relpath(b["file"], parent), b["line"])
            sites.setdefault(key, {"file": key[0], "line": key[1], "gb": b.get("gb"),
                                   "reason": b["reason"],
                                   "frame_skipped": bool(b.get("frame_skipped"))})
        traced = collections.defaultdict(list)
        for f, line in run["reached"]:
            traced[os.path.relpath(f, parent)].append(line)
        stored.update({"graphs": run["graph_count"], "breaks": [sites[k] for k in sorted(sites)],
                       "traced": {f: _ranges(v) for f, v in sorted(traced.items())}})
        entry["runs"].append(stored)
    out = {"library": data["library"], "version": version, "torch": data["torch"],
           "python": data["python"], "held_out": [], "families": families}
    Path(args.out).write_text(json.dumps(out, sort_keys=True, separators=(",", ":")) + "\n")
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run")
    run.add_argument("library", help="x_transformers, vector_quantize_pytorch, vit_pytorch, "
                     "torchvision, torch_geometric, monai, kornia, ultralytics, torchaudio, or one "
                     "with a file under tests/sweep/libraries/untuned/")
    run.add_argument("out")
    score = sub.add_parser("score")
    score.add_argument("data")
    score.add_argument("--graphmend", default=str(HERE.parent.parent / "build" / "graphmend"))
    store = sub.add_parser("store")
    store.add_argument("data")
    store.add_argument("version")
    store.add_argument("out")
    args = parser.parse_args(argv)
    return {"run": command_run, "score": command_score, "store": command_store}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
