"""Side-by-side live policy updates: every algorithm trains the same tiny LM from the same weights.

A thin builder over :mod:`rlviz.experiments.runner`: a :class:`LiveConfig` names the algorithms
(one arm each, named after its registry entry) and the training settings they share;
:class:`LiveRun` is the :class:`~rlviz.experiments.runner.SideBySideRun` of those arms. Each arm
gets its own copy of the policy, its own optimizer and its own generator seeded with the same seed,
so step 1 sees the same prompts and the same rollouts; from then on each follows its own policy.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from typing import Any

import pandas as pd

from rlviz.lm.trainer import TrainConfig

from .runner import Arm, RunConfig, SideBySideRun, validate

__all__ = ["DEFAULT_ALGORITHMS", "LiveConfig", "LiveRun", "run_reading"]

DEFAULT_ALGORITHMS = ("grpo", "dapo", "gspo", "sapo")


@dataclass
class LiveConfig:
    """What a side-by-side run trains. Field meanings as :class:`rlviz.lm.trainer.TrainConfig`.

    Attributes:
        algorithms: registry names to compare, each once (one arm each, named after it).
        steps: RL steps per algorithm.
        settings: per algorithm, the settings to override (``{"dapo": {"epsilon_high": 0.3}}``).
        kl_in_reward: beta x KL goes into the reward instead of the loss (verl ``use_kl_in_reward``).
        entropy_coef: entropy bonus coefficient (verl ``actor.entropy_coeff``).
        heldout_samples: samples per held-out prompt for pass@1 before and after training
            (96 prompts x 8 = 768 samples by default); 0 to skip the evaluation.
        device: ``None``/``"auto"`` or a device name; ``model_dir``: ``None`` for the shipped tiny LM
            or a local Hugging Face model directory chosen when the server starts.
    """

    algorithms: tuple[str, ...] = DEFAULT_ALGORITHMS
    steps: int = 30
    # the trainer's defaults, stated once in TrainConfig
    prompts_per_step: int = TrainConfig.prompts_per_step
    group_size: int = TrainConfig.group_size
    temperature: float = TrainConfig.temperature
    lr: float = TrainConfig.lr
    mu: int = TrainConfig.mu
    mini_batches: int = TrainConfig.mini_batches
    max_new_tokens: int = TrainConfig.max_new_tokens
    overlong_buffer_length: int = TrainConfig.overlong_buffer_length
    overlong_penalty_factor: float = TrainConfig.overlong_penalty_factor
    seed: int = TrainConfig.seed
    kl_in_reward: bool = TrainConfig.kl_in_reward
    entropy_coef: float = TrainConfig.entropy_coef
    device: str | None = None
    model_dir: str | None = None
    settings: dict[str, dict[str, Any]] = field(default_factory=dict)
    heldout_samples: int = 8

    def arms(self) -> list[Arm]:
        """One :class:`~rlviz.experiments.runner.Arm` per algorithm, named after it."""
        return [Arm(name, name, dict(self.settings.get(name, {}))) for name in self.algorithms]

    def run_config(self) -> RunConfig:
        """The :class:`~rlviz.experiments.runner.RunConfig` every arm shares."""
        shared = {f.name for f in fields(TrainConfig)} & {f.name for f in fields(self)} - {"settings"}
        return RunConfig(
            steps=self.steps,
            heldout_samples=self.heldout_samples,
            train={name: getattr(self, name) for name in sorted(shared)},
            device=self.device,
            model_dir=self.model_dir,
        )

    def train_config(self, algorithm: str) -> TrainConfig:
        """The :class:`TrainConfig` of one algorithm in this run."""
        from .runner import train_config

        return train_config(Arm(algorithm, algorithm, dict(self.settings.get(algorithm, {}))), self.run_config())

    def validate(self) -> None:
        """Raise ``ValueError`` naming the first bad parameter (checks every algorithm's config)."""
        if not self.algorithms:
            raise ValueError("algorithms: choose at least one algorithm")
        if len(set(self.algorithms)) != len(self.algorithms):
            raise ValueError("algorithms: each algorithm at most once")
        for name in self.settings:
            if name not in self.algorithms:
                raise ValueError(f"settings: {name!r} is not among the chosen algorithms")
        validate(self.arms(), self.run_config())


class LiveRun(SideBySideRun):
    """The side-by-side run of a :class:`LiveConfig` (one arm per algorithm). Owns its models: keep
    one per session. ``live_config`` is the config it was built from.

    Args:
        config: a :class:`LiveConfig` (validated here).
        policy: optionally an already loaded ``(model, tokenizer)`` to start from (copied, never
            trained); by default loaded from ``config.model_dir`` with ``from_pretrained``.

    Raises:
        ValueError: a bad setting (the message names it), or a bad ``model_dir`` / ``device``.
    """

    def __init__(self, config: LiveConfig, policy=None):
        config.validate()
        super().__init__(config.arms(), config.run_config(), policy=policy)
        self.live_config = config


def run_reading(entropy: pd.DataFrame, summary: pd.DataFrame) -> dict[str, dict[str, Any] | None]:
    """What a side-by-side run shows about its arms, read from its own metrics (the page says it in words).

    Args:
        entropy: :meth:`~rlviz.experiments.runner.SideBySideRun.entropy_frame` of the run.
        summary: :meth:`~rlviz.experiments.runner.SideBySideRun.summary_frame` of the run.

    Returns:
        ``entropy``: the arm whose entropy changed least (fell most), ``None`` before any step:
        ``arm``, ``first``, ``last`` (nats per token at its first and last step), ``change`` (last
        minus first), ``steps``, ``clip_high`` (its mean upper-clip share) and ``fell`` (whether that
        change is below zero: else every arm's entropy rose or stayed).
        ``heldout``: the arm with the largest held-out pass@1 gain among those measured, ``None``
        until one is: ``arm``, ``start``, ``end``, ``gain`` and ``rose`` (whether that gain is above zero).
        Ties go to the first arm in run order.
    """
    out: dict[str, dict[str, Any] | None] = {"entropy": None, "heldout": None}
    finite = entropy[entropy["entropy_change"].map(lambda v: math.isfinite(float(v)))] if len(entropy) else entropy
    if len(finite):
        row = finite.loc[finite["entropy_change"].astype(float).idxmin()]
        out["entropy"] = {
            "arm": str(row["arm"]),
            "first": float(row["entropy_first"]),
            "last": float(row["entropy_last"]),
            "change": float(row["entropy_change"]),
            "steps": int(row["steps"]),
            "clip_high": float(row["clip_high_mean"]),
            "fell": float(row["entropy_change"]) < 0,
        }
    measured = summary[summary["heldout_gain"].map(lambda v: math.isfinite(float(v)))] if len(summary) else summary
    if len(measured):
        row = measured.loc[measured["heldout_gain"].astype(float).idxmax()]
        out["heldout"] = {
            "arm": str(row["arm"]),
            "start": float(row["heldout_pass_at_1_start"]),
            "end": float(row["heldout_pass_at_1_end"]),
            "gain": float(row["heldout_gain"]),
            "rose": float(row["heldout_gain"]) > 0,
        }
    return out
