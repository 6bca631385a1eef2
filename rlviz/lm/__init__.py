"""The tiny LM: a verifiable task, a character tokenizer, a Llama-style policy and its rollouts.

Modules (import them directly; this package imports nothing heavy by itself):
- ``tasks``: the task registry (``TASKS``: one ``TaskSpec`` per task; ``get_task``, ``task_of``).
- ``task``: reversed-addition prompts at four difficulty levels, the rule-based ``reward``, splits (the
  default task).
- ``make_sum``: the second task, digits up to m adding up to T: many right answers, longer answers.
- ``tokenizer``: the character-level tokenizer (``transformers.PreTrainedTokenizerFast``).
- ``model``: ``build_model`` from a ``LlamaConfig``, ``load_policy`` for the shipped or any local HF model.
- ``rollout``: ``sample_rollouts`` (G responses per prompt, masks, the sampler's rollout log-probs, rewards),
  ``response_log_probs`` and ``evaluate_pass_at_1``.
- ``pretrain``: ``python -m rlviz.lm.pretrain [--task NAME]`` rebuilds a task's shipped checkpoint
  (``assets/tinylm``, ``assets/make_sum``).
"""
