"""The tiny LM: a verifiable task, a character tokenizer, a Llama-style policy and its rollouts.

Modules (import them directly; this package imports nothing heavy by itself):
- ``task``: reversed-addition prompts at four difficulty levels, the rule-based ``reward``, splits.
- ``tokenizer``: the character-level tokenizer (``transformers.PreTrainedTokenizerFast``).
- ``model``: ``build_model`` from a ``LlamaConfig``, ``load_policy`` for the shipped or any local HF model.
- ``rollout``: ``sample_rollouts`` (G responses per prompt, masks, the sampler's rollout log-probs, rewards),
  ``response_log_probs`` and ``evaluate_pass_at_1``.
- ``pretrain``: ``python -m rlviz.lm.pretrain`` rebuilds the shipped checkpoint in ``assets/tinylm``.
"""
