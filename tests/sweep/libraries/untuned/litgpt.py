"""litgpt (Lightning AI's GPT implementations): tiny litgpt.model.GPT models from the named configs
of its families (Config.from_name with the sizes overridden: 2 layers, width 32 or 40, 4 heads,
vocabulary 64, block 32), over token ids; two configs of its own for the code paths no named
config reaches (multi-head latent attention with the grouped top-k MoE router, YaRN and
interleaved RoPE); and the entry points litgpt compiles besides forward: a KV-cache decode step
(set_kv_cache, then forward with input_pos), and litgpt.generate.base's next_token (what
generate/base.py and chat/base.py pass to torch.compile), batched_next_token, sample and generate,
each through a small module whose forward calls it."""

VOCAB = 64
SIZES = dict(block_size=32, n_layer=2, n_embd=32, n_head=4, head_size=None, vocab_size=VOCAB,
             padded_vocab_size=VOCAB, intermediate_size=64)


def configurations(torch):
    from litgpt.config import Config
    from litgpt.generate import base as gen
    from litgpt.model import GPT

    def named(name, **kw):
        return lambda: GPT(Config.from_name(name, **{**SIZES, **kw}))

    def custom(**kw):
        return lambda: GPT(Config(name="tiny", **{**SIZES, **kw}))

    tokens = lambda: {"idx": torch.randint(0, VOCAB, (2, 16))}  # noqa: E731

    class Decode(torch.nn.Module):
        """One KV-cache decode step, as generate does after the prefill: forward(idx, input_pos)."""

        def __init__(self, gpt, batch_size=2):
            super().__init__()
            self.gpt = gpt
            gpt.set_kv_cache(batch_size=batch_size)

        def forward(self, idx, input_pos):
            return self.gpt(idx, input_pos)

    class NextToken(torch.nn.Module):
        """generate_fn's compiled step: next_token(model, input_pos, x, input_pos_maxp1, sampling)."""

        def __init__(self, gpt):
            super().__init__()
            self.gpt = gpt
            gpt.set_kv_cache(batch_size=1)

        def forward(self, idx, input_pos, input_pos_maxp1):
            return gen.next_token(self.gpt, input_pos, idx, input_pos_maxp1=input_pos_maxp1,
                                  temperature=0.8, top_k=20, top_p=0.9)

    class BatchedNextToken(torch.nn.Module):
        """batched_generate_fn's step: one sampling kwargs dict per prompt of the batch."""

        def __init__(self, gpt):
            super().__init__()
            self.gpt = gpt
            gpt.set_kv_cache(batch_size=2)

        def forward(self, idx, input_pos):
            return gen.batched_next_token(self.gpt, input_pos, idx,
                                          [{"temperature": 0.8, "top_k": 20}, {"top_p": 0.9}])

    class Sample(torch.nn.Module):
        """sample over a model's logits: top-k, temperature and top-p (sample_top_p)."""

        def forward(self, logits):
            return gen.sample(logits, temperature=0.7, top_k=32, top_p=0.9)

    class Generate(torch.nn.Module):
        """litgpt.generate.base.generate: prefill and 3 new tokens over a 1-D prompt."""

        def __init__(self, gpt):
            super().__init__()
            self.gpt = gpt
            gpt.set_kv_cache(batch_size=1)

        def forward(self, prompt):
            return gen.generate(self.gpt, prompt, prompt.size(0) + 3, temperature=0.8, top_k=20)

    decode_inputs = lambda: {"idx": torch.randint(0, VOCAB, (2, 1)),  # noqa: E731
                             "input_pos": torch.tensor([7])}
    llama = dict(n_query_groups=2)
    gemma3 = dict(n_query_groups=1, sliding_window_size=8, sliding_window_indices=[1, 0],
                  rope_indices=[1, 0], attention_scores_scalar=None)
    return {
        # GptNeoxMLP, LayerNorm, parallel residual, partial rotary (0.25), biases
        "pythia": (named("pythia-14m"), tokens),
        # shared attention norm, partial rotary 0.4 (width 40 keeps its rope even), lm_head bias
        "phi-2": (named("phi-2", n_embd=40), tokens),
        # RMSNorm, LLaMAMLP, GQA, Llama-3 RoPE adjustments
        "llama-3.2": (named("Llama-3.2-1B", **llama), tokens),
        # GQA and a sliding window on every layer
        "mistral_sliding_window": (named("Mistral-7B-v0.1", n_query_groups=2,
                                         sliding_window_size=8), tokens),
        # GemmaMLP (tanh GELU), scaled embeddings, multi-query attention
        "gemma": (named("Gemma-2b", n_query_groups=1), tokens),
        # attention and final logit softcapping, post norms, alternating sliding window
        "gemma-2_softcap": (named("Gemma-2-2b", n_query_groups=2, sliding_window_size=8,
                                  sliding_window_indices=[1, 0], attention_scores_scalar=None),
                            tokens),
        # local/global RoPE (rope_indices), QK norm, sliding window
        "gemma-3": (named("Gemma-3-1b-it", **gemma3), tokens),
        # LLaMAMLP, RMSNorm, sliding window, full rotary
        "phi-3": (named("Phi-3-mini-4k-instruct", sliding_window_size=8), tokens),
        # LLaMAMoE: top-k router over 4 experts, GQA
        "mixtral_moe": (named("Mixtral-8x7B-v0.1", n_query_groups=2, n_expert=4,
                              n_expert_per_token=2), tokens),
        # LLaMAMoE with moe_intermediate_size and QK norm
        "qwen3_moe_qknorm": (named("Qwen3-30B-A3B", n_query_groups=2, n_expert=4,
                                   n_expert_per_token=2, moe_intermediate_size=32), tokens),
        # attention bias on the qkv projection, and the lm head in chunks (litgpt's finetuning)
        "qwen2.5_attnbias_lmhead_chunks": (named("Qwen2.5-0.5B", n_query_groups=2),
                                           lambda: {**tokens(), "lm_head_chunk_size": 8}),
        # OLMo-2 QK norm over all heads, no pre-norms, post norms
        "olmo-2": (named("OLMo-2-1124-7B", n_query_groups=4), tokens),
        # DeepSeek-V3 style: multi-head latent attention, grouped top-k router, shared expert,
        # a dense first layer, routed scaling
        "latent_attention_grouped_moe": (custom(
            parallel_residual=False, bias=False, norm_class_name="RMSNorm",
            mlp_class_name="LLaMAMoE", moe_intermediate_size=32, n_expert=4,
            n_expert_per_token=2, n_expert_groups=2, n_topk_groups=1, n_topk_scores_per_group=2,
            n_shared_expert=1, first_k_dense_replace=1, routed_scaling_factor=2.5,
            norm_topk_prob=True, rotary_percentage=1.0,
            latent_attention={"q_lora_rank": 16, "kv_lora_rank": 16, "qk_rope_head_dim": 8,
                              "qk_nope_head_dim": 8, "v_head_dim": 8}), tokens),
        # YaRN RoPE scaling (mscale) with interleaved rotary
        "yarn_interleaved_rope": (custom(
            parallel_residual=False, bias=False, norm_class_name="RMSNorm",
            mlp_class_name="LLaMAMLP", rotary_percentage=1.0, rope_interleave=True,
            rope_adjustments={"factor": 4.0, "beta_fast": 32, "beta_slow": 1,
                              "original_max_seq_len": 16, "mscale": 1.0,
                              "mscale_all_dim": 1.0}), tokens),
        # KV cache: one decode step at position 7, GQA
        "llama-3.2_kv_decode": (lambda: Decode(named("Llama-3.2-1B", **llama)()), decode_inputs),
        # KV cache with sliding-window layers (ring buffer) and local/global RoPE
        "gemma-3_kv_decode": (lambda: Decode(named("Gemma-3-1b-it", **gemma3)()), decode_inputs),
        # generate_fn's next_token at position 7 (input_pos_maxp1 8), top-k, temperature, top-p
        "llama-3.2_next_token": (lambda: NextToken(named("Llama-3.2-1B", **llama)()), lambda: {
            "idx": torch.randint(0, VOCAB, (1, 1)), "input_pos": torch.tensor([7]),
            "input_pos_maxp1": 8}),
        # batched_generate_fn's batched_next_token, prefill of 2 prompts of 8 tokens
        "pythia_batched_next_token": (lambda: BatchedNextToken(named("pythia-14m")()), lambda: {
            "idx": torch.randint(0, VOCAB, (2, 8)), "input_pos": torch.arange(8)}),
        # sample with top-k, temperature and sample_top_p over (1, T, vocab) logits
        "sample_top_k_top_p": (Sample, lambda: {"logits": torch.randn(1, 4, VOCAB)}),
        # generate: prefill of a 6-token prompt, then 3 new tokens
        "llama-3.2_generate": (lambda: Generate(named("Llama-3.2-1B", **llama)()),
                               lambda: {"prompt": torch.randint(0, VOCAB, (6,))}),
    }
