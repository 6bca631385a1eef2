"""The frameworks' names for rlviz's settings (TRL ``GRPOConfig`` arguments, verl Hydra keys), in the
bottom layer: the config export (``rlviz.teach.export``), the confusions page's experiment and the
symptoms' advice all read them here.

Sources (the snapshots of ``shared/reference/algorithms.md`` §0): TRL ``trl/trainer/grpo_config.py`` and
``grpo_trainer.py``; verl ``verl/trainer/config/actor/actor.yaml``, ``rollout/rollout.yaml``,
``data/legacy_data.yaml``; verl-recipe ``dapo/config/dapo_trainer.yaml``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from rlviz.core.aggregation import AGGREGATIONS

if TYPE_CHECKING:
    from rlviz.core.objectives import Setting

__all__ = ["FRAMEWORKS", "TRAIN_NAMES", "TRL_LOSS_TYPES", "framework_name"]

FRAMEWORKS = ("trl", "verl")

# verl's actor and rollout settings sit under actor_rollout_ref (the registry writes "actor.<name>").
_VERL_ROOTS = {"actor": "actor_rollout_ref.actor", "rollout": "actor_rollout_ref.rollout"}
_DOTTED = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")

# TRL ``loss_type`` values per aggregation mode, read from the aggregation registry (algorithms.md §2;
# TRL grpo_config.py / grpo_trainer.py ``_compute_loss``): dapo = token-mean over the generation batch
# (bnpo: per micro-batch; cispo the same), grpo = per-response mean (sapo the same), dr_grpo = sum /
# (B * max_completion_length); none for seq-mean-token-sum and token-sum. The first of each is the one
# an export writes. verl's ``loss_agg_mode`` values are the mode names themselves.
TRL_LOSS_TYPES: dict[str, tuple[str, ...]] = {name: spec.trl for name, spec in AGGREGATIONS.items()}

# verl-recipe's DAPO trainer (dapo/config/dapo_trainer.yaml since its Feb 2026 port to verl 0.8+): the
# overlong buffer its DAPO reward manager reads, with L_max as reward.reward_kwargs.max_resp_len
_OVERLONG = "reward.reward_kwargs.overlong_buffer_cfg"


# TrainConfig field -> (TRL GRPOConfig argument, verl override); None where the framework has none.
# prompts_per_step and mini_batches become batch sizes (see _batch_args).
TRAIN_NAMES: dict[str, tuple[str | None, str | None]] = {
    "lr": ("learning_rate", "actor_rollout_ref.actor.optim.lr"),
    "group_size": ("num_generations", "actor_rollout_ref.rollout.n"),
    "prompts_per_step": (None, "data.train_batch_size"),
    "mu": ("num_iterations", "actor_rollout_ref.actor.ppo_epochs"),
    "mini_batches": ("steps_per_generation", None),
    "temperature": ("temperature", "actor_rollout_ref.rollout.temperature"),
    "max_new_tokens": ("max_completion_length", "data.max_response_length"),
    "grad_clip": ("max_grad_norm", "actor_rollout_ref.actor.grad_clip"),
    "entropy_coef": ("entropy_coef", "actor_rollout_ref.actor.entropy_coeff"),
    # Skywork-OR1's adaptive entropy control: TRL 1.16 GRPOConfig (with use_adaptive_entropy=True, which the
    # export adds); verl mainline has none (the authors' fork: actor.adaptive_entropy.*)
    "entropy_target": ("entropy_target", None),
    "entropy_coef_delta": ("entropy_coef_delta", None),
    "entropy_coef_min": ("entropy_coef_min", None),
    "entropy_coef_max": ("entropy_coef_max", None),
    "kl_in_reward": (None, "algorithm.use_kl_in_reward"),
    "overlong_buffer_length": (None, f"{_OVERLONG}.len"),
    "overlong_penalty_factor": (None, f"{_OVERLONG}.penalty_factor"),
    "max_resample_rounds": (None, "algorithm.filter_groups.max_num_gen_batches"),
    "value_lr": (None, "critic.optim.lr"),
    "rollout_dtype": (None, "actor_rollout_ref.rollout.dtype"),
    "top_p": ("top_p", "actor_rollout_ref.rollout.top_p"),
    "top_k": ("top_k", "actor_rollout_ref.rollout.top_k"),
    # neither has a setting (vLLM's engine returns the mask with return_sampling_mask; TRL 1.16 and verl
    # 0.9 do not pass it to the trainer)
    "replay_sampling_mask": (None, None),
    "rollout_stale_steps": (None, None),
    # written by _correction_args (one setting becomes several arguments)
    "rollout_correction": (None, None),
    "rollout_correction_low": (None, None),
    "rollout_correction_high": (None, None),
}


def framework_name(setting: Setting, framework: str) -> str | None:
    """The config key of ``setting`` in ``framework`` (``"trl"`` or ``"verl"``), read from the registry:
    the name before any remark in parentheses (``"actor.kl_loss_coef (with use_kl_loss)"``), with
    verl's actor / rollout settings under ``actor_rollout_ref``; ``None`` where there is none.

    Raises ``ValueError`` for an unknown ``framework`` or a ``setting`` that is not a registry ``Setting``."""
    from rlviz.core.objectives import Setting

    if not isinstance(setting, Setting):
        raise ValueError(f"setting: must be a registry Setting, got {type(setting).__name__}")
    if not isinstance(framework, str) or framework not in FRAMEWORKS:
        raise ValueError(f"framework: must be one of {', '.join(FRAMEWORKS)}, got {framework!r}")
    raw = getattr(setting, framework)
    if not raw:
        return None
    head = raw.split("(", 1)[0].strip()
    if not _DOTTED.fullmatch(head):
        return None  # a remark only, e.g. "(always k3)"
    root, _, rest = head.partition(".")
    if framework == "verl" and rest and root in _VERL_ROOTS:
        head = f"{_VERL_ROOTS[root]}.{rest}"
    return head
