"""Side-by-side live policy updates: every algorithm trains the same tiny LM from the same weights.

Each algorithm gets its own copy of the policy, its own optimizer and its own generator seeded
with the same seed, so step 1 sees the same prompts and the same rollouts; from then on each
follows its own policy. A :class:`LiveRun` advances one step at a time, so a caller (the page,
the CLI) can show progress and stop between steps without losing anything.
"""

from __future__ import annotations

import copy
import json
import math
from dataclasses import asdict, dataclass, field, fields
from typing import Any

import pandas as pd
import torch

from rlviz.core.objectives import get_algorithm
from rlviz.lm.model import load_policy
from rlviz.lm.rollout import evaluate_pass_at_1
from rlviz.lm.task import heldout_problems
from rlviz.lm.trainer import METRICS, RATIO_BIN_EDGES, TrainConfig, Trainer

__all__ = ["DEFAULT_ALGORITHMS", "LiveConfig", "LiveRun"]

DEFAULT_ALGORITHMS = ("grpo", "dapo", "gspo", "sapo")


@dataclass
class LiveConfig:
    """What a side-by-side run trains. Field meanings as :class:`rlviz.lm.trainer.TrainConfig`.

    Attributes:
        algorithms: registry names to compare, each once.
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

    def train_config(self, algorithm: str) -> TrainConfig:
        """The :class:`TrainConfig` of one algorithm in this run."""
        shared = {f.name for f in fields(TrainConfig)} & {f.name for f in fields(self)} - {"settings"}
        return TrainConfig(
            algorithm=algorithm,
            settings=dict(self.settings.get(algorithm, {})),
            **{name: getattr(self, name) for name in shared},
        )

    def validate(self) -> None:
        """Raise ``ValueError`` naming the first bad parameter (checks every algorithm's config)."""
        if not self.algorithms:
            raise ValueError("algorithms: choose at least one algorithm")
        if len(set(self.algorithms)) != len(self.algorithms):
            raise ValueError("algorithms: each algorithm at most once")
        if not isinstance(self.steps, int) or self.steps < 1:
            raise ValueError(f"steps: must be a whole number >= 1, got {self.steps!r}")
        if not isinstance(self.heldout_samples, int) or self.heldout_samples < 0:
            raise ValueError(f"heldout_samples: must be a whole number >= 0, got {self.heldout_samples!r}")
        for name in self.settings:
            if name not in self.algorithms:
                raise ValueError(f"settings: {name!r} is not among the chosen algorithms")
        for name in self.algorithms:
            self.train_config(name).validate()


class LiveRun:
    """A side-by-side run, advanced one step at a time. Owns its models: keep one per session.

    Args:
        config: a :class:`LiveConfig` (validated here).
        policy: optionally an already loaded ``(model, tokenizer)`` to start from (copied, never
            trained); by default loaded from ``config.model_dir`` with ``from_pretrained``.

    Raises:
        ValueError: a bad setting (the message names it), or a bad ``model_dir`` / ``device``.
    """

    def __init__(self, config: LiveConfig, policy=None):
        config.validate()
        self.config = config
        model, tokenizer = policy if policy is not None else load_policy(config.model_dir, config.device)
        self.tokenizer = tokenizer
        self.ref_model = copy.deepcopy(model).eval().requires_grad_(False)  # frozen start = reference
        self.trainers: dict[str, Trainer] = {}
        for name in config.algorithms:
            self.trainers[name] = Trainer(config.train_config(name), copy.deepcopy(model), tokenizer, self.ref_model)
        self.heldout: dict[str, float] = {}  # "start" and each algorithm's final held-out pass@1

    # -- progress --------------------------------------------------------------------------------

    @property
    def progress(self) -> dict[str, int]:
        """Steps done per algorithm."""
        return {name: t.step_count for name, t in self.trainers.items()}

    @property
    def done(self) -> bool:
        """True once every algorithm has done ``config.steps`` steps."""
        return all(n >= self.config.steps for n in self.progress.values())

    def _evaluate(self, model) -> float:
        c = self.config
        gen = torch.Generator().manual_seed(10_000 + c.seed)  # the same draws for every model
        return evaluate_pass_at_1(
            model, self.tokenizer, heldout_problems(), c.heldout_samples, c.max_new_tokens, c.temperature, gen
        )["pass_at_1"]

    def step_algorithm(self, name: str) -> dict[str, Any] | None:
        """One step of ``name`` (None if it has finished). Evaluates held-out pass@1 before the
        first step of the run and after the last step of each algorithm, when asked for."""
        trainer = self.trainers[name]
        if trainer.step_count >= self.config.steps:
            return None
        if self.config.heldout_samples and "start" not in self.heldout:
            self.heldout["start"] = self._evaluate(self.ref_model)
        metrics = trainer.step()
        if trainer.step_count == self.config.steps and self.config.heldout_samples:
            self.heldout[name] = self._evaluate(trainer.model)
        return metrics

    def step(self) -> dict[str, dict[str, Any]]:
        """One step of every unfinished algorithm (round robin); returns their metrics."""
        out = {}
        for name in self.trainers:
            m = self.step_algorithm(name)
            if m is not None:
                out[name] = m
        return out

    # -- results ---------------------------------------------------------------------------------

    def metrics_frame(self) -> pd.DataFrame:
        """Long frame, one row per (algorithm, step): ``algorithm, step`` and every metric of
        ``rlviz.lm.trainer.METRICS`` (NaN where a metric does not apply, e.g. gate weight)."""
        rows = [{"algorithm": name, **m} for name, t in self.trainers.items() for m in t.history]
        return pd.DataFrame(rows, columns=["algorithm", "step", *METRICS])

    def summary_frame(self) -> pd.DataFrame:
        """One row per algorithm: held-out pass@1 before / after, and last-5-step means."""
        df = self.metrics_frame()
        rows = []
        for name in self.trainers:
            d = df[df.algorithm == name]
            tail = d.tail(5)
            start, end = self.heldout.get("start", math.nan), self.heldout.get(name, math.nan)
            rows.append(
                {
                    "algorithm": get_algorithm(name).title,
                    "steps": len(d),
                    "heldout_pass_at_1_start": start,
                    "heldout_pass_at_1_end": end,
                    "heldout_gain": end - start,
                    "train_pass_at_1_last5": tail.pass_at_1.mean(),
                    "response_length_last5": tail.response_length_mean.mean(),
                    "clip_fraction_mean": d.clip_fraction.mean(),
                    "entropy_last": d.entropy.iloc[-1] if len(d) else math.nan,
                    "kl_ref_last": d.kl_ref.iloc[-1] if len(d) else math.nan,
                    "rollouts_total": d.rollouts.sum(),
                    "seconds_total": d.seconds.sum(),
                }
            )
        return pd.DataFrame(rows)

    def token_view(self, step: int, algorithm: str) -> dict[str, Any] | None:
        """One group of step ``step`` (1-based) of ``algorithm``, with each token's gradient weight
        d loss / d log pi after that step's updates (autograd of the algorithm's loss). ``None`` if
        that step made no update. Raises ``ValueError`` for a step not yet run."""
        views = self.trainers[algorithm].token_views
        if not 1 <= step <= len(views):
            raise ValueError(f"step: {algorithm} has run {len(views)} steps, got {step}")
        return views[step - 1]

    def ratio_histogram(self, step: int) -> pd.DataFrame:
        """Ratio histogram of every algorithm at step ``step`` (over all inner updates of that step):
        ``algorithm, bin_left, bin_right, count, fraction``. Bins are log-spaced over [e^-0.5, e^0.5];
        ratios outside are counted in the end bins."""
        rows = []
        for name, t in self.trainers.items():
            if not 1 <= step <= len(t.ratio_hists):
                continue
            counts = t.ratio_hists[step - 1]
            total = max(sum(counts), 1)
            for k, n in enumerate(counts):
                rows.append(
                    {
                        "algorithm": name,
                        "bin_left": RATIO_BIN_EDGES[k],
                        "bin_right": RATIO_BIN_EDGES[k + 1],
                        "count": n,
                        "fraction": n / total,
                    }
                )
        return pd.DataFrame(rows, columns=["algorithm", "bin_left", "bin_right", "count", "fraction"])

    def to_dict(self) -> dict[str, Any]:
        """Everything measured, as plain JSON-able data (NaN as ``None``)."""

        def clean(x):
            if isinstance(x, float):
                return None if math.isnan(x) or math.isinf(x) else x
            if isinstance(x, dict):
                return {k: clean(v) for k, v in x.items()}
            if isinstance(x, (list, tuple)):
                return [clean(v) for v in x]
            return x

        return clean(
            {
                "config": asdict(self.config),
                "heldout_pass_at_1": self.heldout,
                "metrics": {name: t.history for name, t in self.trainers.items()},
                "ratio_bin_edges": RATIO_BIN_EDGES,
                "ratio_histograms": {name: t.ratio_hists for name, t in self.trainers.items()},
                "token_views": {name: t.token_views for name, t in self.trainers.items()},
            }
        )

    def to_json(self) -> str:
        """:meth:`to_dict` as a JSON string."""
        return json.dumps(self.to_dict(), allow_nan=False)
