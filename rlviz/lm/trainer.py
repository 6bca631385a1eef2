"""One RL step for any registered algorithm, on a causal LM from `transformers`.

rollout (``_collect``) -> rewards (+ DAPO overlong shaping) -> optional group filter (dynamic
sampling) -> ``_update``: loss mask (``_loss_mask``), the training forward's ``old_log_prob`` and the
reference's (``_recompute_log_probs``), advantages (``_advantages``: group-relative, or GAE with a
critic for PPO), mu epochs x mini-batches of ``_minibatch_update`` with
``rlviz.core.objectives.policy_loss`` -> metrics (``_summarise``) -> per-token view (``_token_view``).

Names as verl: ``rollout_log_prob`` are the sampler's log-probs (``RolloutBatch``), ``old_log_prob``
the trainer's recompute before the first update, ``ref_log_prob`` the frozen reference's.

Legend: n groups (prompts) per step, G group size, B = n * G responses, T response width.
"""

from __future__ import annotations

import collections
import contextlib
import copy
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import torch

from rlviz.core.advantages import ADVANTAGE_SCALES, gae, group_advantages
from rlviz.core.aggregation import masked_mean
from rlviz.core.corrections import CORRECTIONS, correction_band, correction_weights
from rlviz.core.entropy_control import adaptive_entropy_update, entropy_bonus, validate_entropy_control
from rlviz.core.estimators import ESTIMATORS, estimate_advantages, estimate_token_advantages
from rlviz.core.kl import kl_estimate
from rlviz.core.masks import high_entropy_mask, off_policy_sequence_mask
from rlviz.core.objectives import (
    OWN_ESTIMATOR,
    TRAINER_SETTINGS,
    check_types,
    get_algorithm,
    gradient_weights,
    policy_loss,
    resolve_settings,
    token_states,
)
from rlviz.core.passk import distinct_right
from rlviz.core.sampling import informative_groups
from rlviz.core.shaping import overlong_filter_mask, overlong_penalty

from .batching import concat_batches, select_rows
from .length_stats import length_noise, outcome_lengths, response_log_ratios
from .moe import capture_routing, is_moe, replay_routing, route_changed
from .rollout import RolloutBatch, response_log_probs, sample_rollouts
from .task import DEFAULT_MAX_NEW_TOKENS
from .tasks import DEFAULT_TASK, get_task, task_of

__all__ = [
    "RATIO_BIN_EDGES",
    "METRICS",
    "PHASES",
    "ROLLOUT_DTYPES",
    "TrainConfig",
    "Trainer",
    "UpdateData",
    "split_settings",
]

# the sampler's precision (TrainConfig.rollout_dtype), by name
ROLLOUT_DTYPES = {"float32": torch.float32, "bfloat16": torch.bfloat16, "float16": torch.float16}

# Histogram of the ratio the algorithm uses, in log space: 40 bins over log r in [-0.5, 0.5];
# values outside land in the end bins.
RATIO_BIN_EDGES = torch.linspace(-0.5, 0.5, 41).exp().tolist()

METRICS = (
    "reward_mean",
    "pass_at_1",
    "pass_at_group",
    "distinct_right",
    "response_length_mean",
    "response_length_max",
    "response_length_right",
    "response_length_wrong",
    "overlong_fraction",
    "group_reward_std",
    "zero_adv_group_fraction",
    "entropy",
    "entropy_sampled",
    "entropy_coef",
    "entropy_bonus_active",
    "kl_ref",
    "ratio_mean",
    "ratio_min",
    "ratio_max",
    "ratio_var",
    "token_ratio_var",
    "seq_log_ratio_var",
    "seq_log_ratio_mean_var",
    "log_ratio_length_corr",
    "route_change_fraction",
    "rollout_kl",
    "correction_weight_mean",
    "correction_masked_fraction",
    "clip_fraction",
    "clip_fraction_low",
    "clip_fraction_high",
    "gate_weight_mean",
    "grad_token_fraction",
    "grad_norm",
    "loss",
    "value_loss",
    "seconds",
    "rollouts",
    "kept_groups",
)

# Where a step's time goes (Trainer.phase_seconds): sampling (the KV-cache generation, decoding and
# rewards; with a sampler that is not the policy also its scoring forward), the trainer's
# old_log_prob forward, the reference's, the mu x mini_batches updates, the token view, and the
# rest (advantages, metrics).
PHASES = ("sample", "old_log_prob", "ref_log_prob", "update", "token_view", "other")


@dataclass
class TrainConfig:
    """Settings of one RL run. Names follow TRL / verl where they have one.

    Attributes:
        algorithm: a key of ``rlviz.core.objectives.ALGORITHMS``.
        prompts_per_step: prompts (groups) per step, n (TRL: per_device batch / G; verl
            ``data.train_batch_size``).
        group_size: responses per prompt, G (TRL ``num_generations``; verl ``rollout.n``).
        temperature: sampling temperature (TRL / verl ``temperature``); log-probs use the same.
        lr: AdamW learning rate of the policy (TRL ``learning_rate``; verl ``actor.optim.lr``).
        mu: passes over each rollout batch (GRPO's mu; TRL ``num_iterations``; verl ``ppo_epochs``).
        mini_batches: optimizer steps per pass (TRL ``steps_per_generation``; verl: batch size /
            ``ppo_mini_batch_size``). mu * mini_batches updates per step; all but the first are
            off-policy, so the ratio moves off 1 and clipping happens.
        max_new_tokens: response length limit L_max in tokens (TRL ``max_completion_length``;
            verl ``data.max_response_length``).
        grad_clip: max gradient norm (TRL ``max_grad_norm``; verl ``actor.grad_clip``).
        seed: seeds the run's own ``torch.Generator`` (prompts, samples, mini-batch order).
        settings: the algorithm's settings to override: loss settings (``epsilon_low``, ``beta``,
            ``loss_agg_mode``, ...) and training settings (``scale_rewards``, ``dynamic_sampling``,
            ``overlong_shaping``, ``overlong_filtering``, ...), see the algorithm's spec.
        overlong_buffer_length: DAPO L_cache in tokens (verl-recipe
            ``reward.reward_kwargs.overlong_buffer_cfg.len``).
        overlong_penalty_factor: DAPO penalty at L_max (verl-recipe
            ``reward.reward_kwargs.overlong_buffer_cfg.penalty_factor``).
        max_resample_rounds: dynamic sampling generates at most this many batches per step
            (verl recipe ``max_num_gen_batches``); then it trains on what it has.
        kl_in_reward: put beta x KL(old || ref) into the reward instead of the loss (verl
            ``algorithm.use_kl_in_reward``).
        value_lr: learning rate of PPO's critic.
        entropy_coef: entropy bonus, ``loss -= entropy_coef * agg(H)`` with the algorithm's
            ``loss_agg_mode`` (verl ``actor.entropy_coeff``, default 0; TRL ``entropy_coef``). With
            ``entropy_target`` set it is the adaptive controller's starting coefficient alpha_0.
        entropy_target: Skywork-OR1's adaptive entropy control (arXiv 2505.22312; the authors'
            ``actor.adaptive_entropy.target_entropy`` with ``enabled``, TRL ``entropy_target`` with
            ``use_adaptive_entropy``): the target entropy H_tgt in nats per token, ``None`` = off (a
            constant ``entropy_coef``). After each step the coefficient moves by ``entropy_coef_delta``
            (up while the step's entropy is below the target, down otherwise), clipped to
            [``entropy_coef_min``, ``entropy_coef_max``], and the next step subtracts
            ``alpha * agg(H)`` only if that entropy was below the target
            (:func:`rlviz.core.entropy_control.adaptive_entropy_update`, the authors' ``EntController``).
            The entropy it reads is theirs: ``-mean log pi_old`` over the step's response tokens
            (metric ``entropy_sampled``); the step logs ``entropy_coef`` (alpha) and
            ``entropy_bonus_active`` (1 if the bonus was in the loss).
        entropy_coef_delta: the coefficient's step (authors ``delta_ent_coef``, yaml default 0.001;
            TRL ``entropy_coef_delta``).
        entropy_coef_min: lower bound of the coefficient (authors ``min_ent_coef``, default 0).
        entropy_coef_max: upper bound (authors ``max_ent_coef``, yaml default 0.5; TRL default 1.0).
        rollout_dtype: the sampler's precision, one of ``ROLLOUT_DTYPES`` (verl ``rollout.dtype``):
            ``"float32"`` samples with the trained weights themselves; ``"bfloat16"`` /
            ``"float16"`` with a copy in that precision, as an inference engine serving a float32
            trainer does, so the sampler's probabilities (and an MoE's routing) differ from the
            trainer's. The ratio's denominator is always the trainer's ``old_log_prob``.
        rollout_stale_steps: the sampler holds the policy's weights from this many steps ago (0:
            the current ones), as an asynchronous system whose inference engine gets new weights
            late (verl's fully async trainer bounds it with ``staleness_threshold``); before step
            k + 1 it holds the starting weights.
        top_p, top_k: the sampler's truncation (TRL ``top_p`` / ``top_k``; verl ``rollout.top_p`` /
            ``rollout.top_k``; ``rlviz.lm.rollout.truncate_logits``): 1 and 0 are off. The sampler's
            ``rollout_log_prob`` is then renormalised over the kept tokens; the trainer's is not,
            unless ``replay_sampling_mask``.
        replay_sampling_mask: with top-p / top-k, compute the policy's log-probs (``old_log_prob`` and
            each update's) over the tokens the sampler kept at each position (``RolloutBatch.sampling_mask``:
            the logits outside it set to -inf before the log-softmax), so the trainer renormalises over
            the same support as the sampler and the truncation no longer shows as a mismatch. vLLM returns
            that support with ``return_sampling_mask`` (``--return-sampling-mask``, the output's
            ``sampling_mask``, vllm#49577); DeepSeek-V3.2 (arXiv 2512.02556) calls it "Keep Sampling
            Mask" and applies it to pi_old and pi_theta; TRL and verl have no setting for it (their
            configs as of TRL 1.16 / verl 0.9). The entropies reported are the renormalised
            distribution's too; the reference's log-probs stay over the whole vocabulary. Without
            truncation there is no mask and this changes nothing.
        rollout_correction: a key of ``rlviz.core.corrections.CORRECTIONS`` (``"none"``, ``"token_tis"``,
            ``"sequence_mis"``, ...): per-token weights from log(pi_train / pi_rollout) = old_log_prob -
            rollout_log_prob, multiplied into the per-token policy loss before aggregation, the KL
            term unweighted (TRL ``vllm_importance_sampling_mode``; verl ``algorithm.rollout_correction``).
            A rejection filter (``kind="reject"``) takes the rejected responses out of the loss
            mask instead, so out of the normaliser too, as verl's ``rollout_rs`` does.
        rollout_correction_low, rollout_correction_high: its band [C_min, C_max]; ``None`` takes
            the entry's default (TRL ``vllm_importance_sampling_clip_min`` / ``_max``; verl
            ``rollout_is_threshold``).
        measure_kl_ref: run the frozen reference every step to report ``kl_ref`` even where the
            KL is in neither the loss nor the reward (beta = 0): one no-grad forward over the batch,
            which TRL and verl skip at beta = 0 (no reference model). ``False``: ``kl_ref`` is NaN
            at beta = 0 and the step costs that forward less. The app measures it (its KL chart).
        task: the task trained on, a key of ``rlviz.lm.tasks.TASKS`` (its prompts and verifier;
            ``max_new_tokens`` is set separately: the task's own limit is ``TaskSpec.max_new_tokens``).
    """

    algorithm: str = "grpo"
    prompts_per_step: int = 16
    group_size: int = 8
    temperature: float = 1.0
    lr: float = 1e-4
    mu: int = 2
    mini_batches: int = 2
    max_new_tokens: int = DEFAULT_MAX_NEW_TOKENS
    grad_clip: float = 1.0
    seed: int = 0
    settings: dict[str, Any] = field(default_factory=dict)
    overlong_buffer_length: int = 4
    overlong_penalty_factor: float = 1.0
    max_resample_rounds: int = 3
    kl_in_reward: bool = False
    value_lr: float = 1e-3
    entropy_coef: float = 0.0
    entropy_target: float | None = None
    entropy_coef_delta: float = 0.001
    entropy_coef_min: float = 0.0
    entropy_coef_max: float = 0.5
    rollout_dtype: str = "float32"
    rollout_stale_steps: int = 0
    top_p: float = 1.0
    top_k: int = 0
    replay_sampling_mask: bool = False
    rollout_correction: str = "none"
    rollout_correction_low: float | None = None
    rollout_correction_high: float | None = None
    measure_kl_ref: bool = True
    task: str = DEFAULT_TASK

    def validate(self) -> None:
        """Raise ``ValueError`` naming the first parameter out of range."""
        get_task(self.task)  # ValueError naming task
        for name in ("prompts_per_step", "group_size", "mu", "mini_batches", "max_new_tokens", "max_resample_rounds"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 1:
                raise ValueError(f"{name}: must be a whole number >= 1, got {value!r}")
        for name in ("temperature", "lr", "grad_clip", "value_lr"):
            value = float(getattr(self, name))
            if not (math.isfinite(value) and value > 0):
                raise ValueError(f"{name}: must be a finite number > 0, got {value}")
        if not 1e-3 <= self.temperature <= 1e3:  # logits / T overflow or flatten to nothing beyond
            raise ValueError(f"temperature: must be in [0.001, 1000], got {self.temperature:g}")
        for name in ("lr", "value_lr"):
            if getattr(self, name) > 1.0:
                raise ValueError(f"{name}: must be at most 1, got {getattr(self, name):g} (the weights would blow up)")
        if self.mini_batches > self.prompts_per_step * self.group_size:
            raise ValueError(
                f"mini_batches: {self.mini_batches} is more than the {self.prompts_per_step * self.group_size} responses per step"
            )
        _, train = split_settings(self.algorithm, self.settings)
        if train["overlong_shaping"] and not 0 <= self.overlong_buffer_length <= self.max_new_tokens:
            raise ValueError(
                f"overlong_buffer_length: must be in [0, max_new_tokens={self.max_new_tokens}], got {self.overlong_buffer_length}"
            )
        if train["advantage"] == "group" and self.group_size < 2:
            raise ValueError("group_size: group-relative advantages need G >= 2 (a group of one has no baseline)")
        estimator = ESTIMATORS.get(train["adv_estimator"])
        if estimator is not None and estimator.nonnegative and (train["overlong_shaping"] or self.kl_in_reward):
            raise ValueError(
                f"adv_estimator: {estimator.title} divides by the group's mean reward and needs rewards >= 0; "
                "switch off overlong_shaping and kl_in_reward (they can make a reward negative)"
            )
        if not (math.isfinite(self.entropy_coef) and self.entropy_coef >= 0):
            raise ValueError(f"entropy_coef: must be >= 0, got {self.entropy_coef}")
        validate_entropy_control(
            self.entropy_target,
            self.entropy_coef_delta,
            self.entropy_coef_min,
            self.entropy_coef_max,
            self.entropy_coef,
        )
        if not (math.isfinite(self.overlong_penalty_factor) and self.overlong_penalty_factor >= 0):
            raise ValueError(f"overlong_penalty_factor: must be >= 0, got {self.overlong_penalty_factor}")
        if self.rollout_dtype not in ROLLOUT_DTYPES:
            raise ValueError(f"rollout_dtype: {self.rollout_dtype!r} is not one of {', '.join(ROLLOUT_DTYPES)}")
        stale = self.rollout_stale_steps
        if isinstance(stale, bool) or not isinstance(stale, int) or stale < 0:
            raise ValueError(f"rollout_stale_steps: must be a whole number >= 0, got {stale!r}")
        top_p = self.top_p
        if isinstance(top_p, bool) or not isinstance(top_p, (int, float)) or not 0 < top_p <= 1:
            raise ValueError(f"top_p: must be in (0, 1], got {top_p!r}")
        if isinstance(self.top_k, bool) or not isinstance(self.top_k, int) or self.top_k < 0:
            raise ValueError(f"top_k: must be a whole number >= 0 (0 = off), got {self.top_k!r}")
        if not isinstance(self.replay_sampling_mask, bool):
            raise ValueError(f"replay_sampling_mask: must be true or false, got {self.replay_sampling_mask!r}")
        if not isinstance(self.measure_kl_ref, bool):
            raise ValueError(f"measure_kl_ref: must be true or false, got {self.measure_kl_ref!r}")
        if self.rollout_correction not in CORRECTIONS:
            raise ValueError(f"rollout_correction: {self.rollout_correction!r} is not one of {', '.join(CORRECTIONS)}")
        try:
            correction_band(self.rollout_correction, self.rollout_correction_low, self.rollout_correction_high)
        except ValueError as exc:  # name the TrainConfig field
            raise ValueError(f"rollout_correction_{exc}") from None


def split_settings(algorithm: str, settings: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """Split ``settings`` into (loss settings, training settings) of ``algorithm``, checked.

    Returns the full dicts with defaults filled in. Raises ``ValueError`` naming an unknown or
    out-of-range setting.
    """
    spec = get_algorithm(algorithm)
    loss_over = {k: v for k, v in settings.items() if k in spec.defaults}
    train = spec.train_defaults
    for key, value in settings.items():
        if key in spec.defaults:
            continue
        if key not in train:
            raise ValueError(f"{key}: not a setting of {algorithm}")
        train[key] = value
    check_types(spec.train_defaults, train)
    if train["scale_rewards"] not in ADVANTAGE_SCALES:
        raise ValueError(f"scale_rewards: {train['scale_rewards']!r} is not one of {', '.join(ADVANTAGE_SCALES)}")
    for s in TRAINER_SETTINGS:
        if s.choices and train[s.name] not in s.choices:
            raise ValueError(f"{s.name}: {train[s.name]!r} is not one of {', '.join(map(str, s.choices))}")
    q = train["top_entropy_quantile"]
    if not 0 < q <= 1:
        raise ValueError(f"top_entropy_quantile: must be in (0, 1], got {q}")
    delta = train["off_policy_mask_threshold"]
    if delta is not None and not delta >= 0:
        raise ValueError(f"off_policy_mask_threshold: must be >= 0 (or None = off), got {delta}")
    if train["advantage"] not in ("group", "gae"):
        raise ValueError(f"advantage: {train['advantage']!r} is not 'group' or 'gae'")
    if train["advantage"] == "gae" and "lam" not in train:
        raise ValueError(f"advantage: 'gae' needs a value model, which only ppo has; {algorithm} uses 'group'")
    if train["advantage"] == "gae" and train["adv_estimator"] != OWN_ESTIMATOR:
        raise ValueError(
            f"adv_estimator: {train['adv_estimator']!r} replaces group-relative advantages; "
            f"{algorithm} uses GAE here (set advantage to 'group', or adv_estimator to {OWN_ESTIMATOR!r})"
        )
    for key in ("gamma", "lam"):
        if key in train and not 0.0 <= train[key] <= 1.0:
            raise ValueError(f"{key}: must be in [0, 1], got {train[key]}")
    return resolve_settings(algorithm, **loss_over), train


def _variance(total: float, squares: float, n: int) -> float:
    """Population variance from a sum, a sum of squares and a count (NaN for n = 0)."""
    if n == 0:
        return float("nan")
    mean = total / n
    return max(squares / n - mean * mean, 0.0)


class _Critic(torch.nn.Module):
    """PPO's value model: a copy of the policy's trunk with a scalar head (verl uses a separate critic)."""

    def __init__(self, policy):
        super().__init__()
        self.trunk = copy.deepcopy(policy.base_model)
        self.head = torch.nn.Linear(policy.config.hidden_size, 1)
        torch.nn.init.zeros_(self.head.weight)
        torch.nn.init.zeros_(self.head.bias)

    def forward(self, batch: RolloutBatch) -> torch.Tensor:
        hidden = self.trunk(
            input_ids=batch.input_ids, attention_mask=batch.attention_mask, position_ids=batch.position_ids
        ).last_hidden_state  # (B, L, H)
        P = batch.prompt_width
        return self.head(hidden[:, P - 1 : -1]).squeeze(-1).float()  # (B, T): V of the state before token t


@dataclass
class UpdateData:
    """What a step's updates hold fixed (returned by ``Trainer._update``, read by its token view).

    Names as verl: ``batch.rollout_log_prob`` are the sampler's log-probs; ``old_log_prob`` are
    the trainer's own, recomputed by the training forward before the first update.

    Attributes:
        batch: the rollouts trained on (B rows, groups contiguous).
        old_log_prob: (B, T) log pi_old of the response tokens (the ratio's denominator). Where
            ``Trainer._defer_old`` holds, the rows of ``old_pending`` are filled in by the first
            update's own forward (until then they hold nothing to read).
        old_pending: (b,) the rows whose ``old_log_prob`` the first update fills in; ``None`` once
            filled (or never deferred).
        ref_log_prob: (B, T) log pi_ref under the frozen reference, or ``None`` without one.
        advantages: (B,) group-relative, (B, T) per-token (an estimator whose registry entry is
            ``per_token``: the Optimal Token Baseline) or (B, T) GAE advantages.
        mask: (B, T) float, 1 on response tokens in the loss (after overlong filtering).
        returns, old_values: (B, T) PPO's GAE returns and the critic's values before the
            updates; ``None`` for group advantages.
        routes: (B, L, layers, k) the experts ``old_log_prob`` was computed with (an MoE model:
            the trainer's own routing recorded at that forward, or with R3 the sampler's), which
            routing replay uses in every update; ``None`` for a dense model.
        correction: (B, T) the rollout correction's per-token weights (detached, 0 at padding),
            multiplied into every update's per-token policy loss; ``None`` without a correction.
    """

    batch: RolloutBatch
    old_log_prob: torch.Tensor
    ref_log_prob: torch.Tensor | None
    advantages: torch.Tensor
    mask: torch.Tensor
    returns: torch.Tensor | None = None
    old_values: torch.Tensor | None = None
    routes: torch.Tensor | None = None
    correction: torch.Tensor | None = None
    old_pending: torch.Tensor | None = None


@dataclass
class _UpdateStats:
    """Running diagnostics over a step's updates (lists: one value per optimizer step)."""

    hist: list[int]
    loss: list[float] = field(default_factory=list)
    clip: list[float] = field(default_factory=list)
    low: list[float] = field(default_factory=list)
    high: list[float] = field(default_factory=list)
    gate: list[float] = field(default_factory=list)
    grad_tok: list[float] = field(default_factory=list)
    grad_norm: list[float] = field(default_factory=list)
    value_loss: list[float] = field(default_factory=list)
    r_sum: float = 0.0  # ratio over real tokens: sum, sum of squares, count, extremes
    r_sq: float = 0.0
    t_sum: float = 0.0  # the token ratio pi / pi_old, whatever ratio the objective uses
    t_sq: float = 0.0
    r_n: int = 0
    r_min: float = math.inf
    r_max: float = -math.inf
    ent_sum: float = 0.0  # policy entropy over real tokens, first pass only
    ent_n: float = 0.0
    # per (response, off-policy update): |y|, sum_t log r_t, sum_t (log r_t)^2 (length_stats.response_log_ratios)
    seq: list[torch.Tensor] = field(default_factory=list)
    updates: list[dict[str, float]] = field(default_factory=list)  # one record per optimizer step


class Trainer:
    """RL on one policy with one algorithm. Owns its model copy, optimizer and generator.

    Args:
        config: a :class:`TrainConfig` (validated here).
        model: the policy (a ``transformers`` causal LM); trained in place, so pass a copy.
        tokenizer: its tokenizer (left padding).
        ref_model: frozen reference policy for KL (shared read-only; never trained here). ``None``
            with beta > 0 (in the loss, or in the reward with ``kl_in_reward``): the trainer builds it,
            a frozen copy of ``model`` as given (the starting policy), as TRL's ``GRPOTrainer`` loads
            its reference from the same checkpoint whenever beta != 0 (``trl/trainer/grpo_trainer.py``,
            ``__init__``) and verl runs a reference worker with ``use_kl_loss``; beta = 0: none, as
            in both (``kl_ref`` is then NaN unless a reference is given).

    Attributes:
        history: one metrics dict per step (``METRICS`` plus ``step``).
        last_updates: the last step's optimizer steps, one dict each, in order: ``update``,
            ``epoch`` (1..mu), ``tokens``, the ratio the objective uses over them (``ratio_mean``,
            ``ratio_std`` (population), ``ratio_min``, ``ratio_max``), ``clip_fraction``
            (``_low``, ``_high``) and ``kept_fraction`` (the share of tokens the token masks kept,
            ``top_entropy_quantile`` / ``off_policy_mask_threshold``; 1 without them). With mu = 1
            and one mini-batch the one update sees ratio 1.
        last_log_ratios: the last step's token log-ratios ``log pi_theta - log pi_old``, one row per
            (response, update) over every update but the step's first (whose ratio is 1 by
            construction): ``(|y|, sum_t log r_t, sum_t (log r_t)^2)``, float64, shape (K, 3)
            (:func:`rlviz.lm.length_stats.response_log_ratios`; ``noise_by_length`` bins it); (0, 3)
            before the first update and after a step without one.
        phase_seconds: one dict per step: CPU seconds of the stepping thread (``time.thread_time``,
            the work, not waits) in each of ``PHASES``; with torch intra-op threads > 1 the work of
            the other threads is not counted. ``old_log_prob`` covers only the rows the first update's
            own forward does not give (:meth:`_defer_old`): 0 with one mini-batch.

    Raises:
        ValueError: from :meth:`TrainConfig.validate`.
    """

    def __init__(self, config: TrainConfig, model, tokenizer, ref_model=None):
        config.validate()
        self.config = config
        self.spec = get_algorithm(config.algorithm)
        self.loss_params, self.train_params = split_settings(config.algorithm, config.settings)
        if "norm_length" in self.loss_params and self.loss_params["norm_length"] is None:
            # Dr.GRPO's constant is the generation budget L_max (TRL max_completion_length), the
            # same every step, not the width of this step's longest response.
            self.loss_params["norm_length"] = config.max_new_tokens
        if ref_model is None and self.loss_params["beta"] > 0:
            # beta > 0 needs pi_ref: never train with beta silently 0 (issue 43); the reference is the
            # starting policy, frozen (TRL GRPOTrainer.__init__: beta != 0 loads it from the same model)
            ref_model = copy.deepcopy(model).eval().requires_grad_(False)
        self.model, self.tokenizer, self.ref_model = model, tokenizer, ref_model
        self.routing_replay = self.train_params["routing_replay"]
        self.moe = is_moe(model)
        if self.routing_replay != "none" and not self.moe:
            raise ValueError(
                f"routing_replay: {self.routing_replay} needs a mixture-of-experts model; this one has no router"
            )
        self.device = next(model.parameters()).device
        self.generator = torch.Generator().manual_seed(int(config.seed))
        self.optimizer = torch.optim.AdamW(model.parameters(), lr=config.lr, weight_decay=0.0)
        self.critic = self.critic_optimizer = None
        if self.train_params["advantage"] == "gae":
            self.critic = _Critic(model).to(self.device)
            self.critic_optimizer = torch.optim.AdamW(self.critic.parameters(), lr=config.value_lr)
        self._sampler = None  # the inference engine's weights when they are not the policy's own
        self._snapshots: collections.deque = collections.deque(maxlen=config.rollout_stale_steps + 1)
        # the entropy bonus of the next step: Skywork-OR1's controller state (alpha_k and its switch,
        # which EntController starts on), or the constant entropy_coef without a target
        self.entropy_coef_now, self.entropy_bonus_on = float(config.entropy_coef), True
        self.step_count = 0
        self.history: list[dict[str, Any]] = []
        self.token_views: list[dict[str, Any]] = []
        self.value_views: list[dict[str, Any] | None] = []  # PPO's critic per step (_value_view); None without
        self._critic_cpu = 0.0  # this step's CPU seconds in the critic (its forward and its updates)
        self._token_rewards: torch.Tensor | None = None  # this step's per-token rewards for GAE (B, T)
        self.ratio_hists: list[list[int]] = []
        self.last_updates: list[dict[str, float]] = []
        self.last_log_ratios = torch.zeros(0, 3, dtype=torch.float64)
        self.phase_seconds: list[dict[str, float]] = []
        self._phases: dict[str, float] = {}

    @contextlib.contextmanager
    def _timed(self, phase: str):
        """Add the stepping thread's CPU time inside the block to this step's ``phase``."""
        t0 = time.thread_time()
        try:
            yield
        finally:
            self._phases[phase] = self._phases.get(phase, 0.0) + time.thread_time() - t0

    # -- rollouts and rewards ------------------------------------------------------------------

    def _sampler_is_policy(self) -> bool:
        """Whether the sampler's weights are the policy's own: its precision and no staleness."""
        same_dtype = ROLLOUT_DTYPES[self.config.rollout_dtype] == next(self.model.parameters()).dtype
        return same_dtype and self.config.rollout_stale_steps == 0

    @torch.no_grad()
    def _sync_sampler(self):
        """The model that samples this step: the policy itself, or a copy that holds its weights in
        ``rollout_dtype`` from ``rollout_stale_steps`` steps ago (the weights an inference engine
        would have been sent). Called once per step, before sampling."""
        if self._sampler_is_policy():
            return self.model
        self._snapshots.append({k: v.detach().clone() for k, v in self.model.state_dict().items()})
        if self._sampler is None:
            self._sampler = copy.deepcopy(self.model).to(ROLLOUT_DTYPES[self.config.rollout_dtype])
            self._sampler.eval().requires_grad_(False)
        self._sampler.load_state_dict(self._snapshots[0])  # cast into the sampler's precision
        return self._sampler

    def _sampler_scores(self) -> bool:
        """Whether the sampler must score its own responses (``rollout_log_prob``, one more no-grad
        forward): only where its log-probs differ from the trainer's ``old_log_prob``: another
        precision, stale weights, truncated sampling (top-p / top-k), or an MoE (whose routing the
        scoring forward records). Otherwise the sampler is the policy itself, and its log-probs are
        ``old_log_prob`` (set there once computed), as verl's recompute gives them."""
        c = self.config
        untruncated = c.top_p == 1 and c.top_k == 0
        return not (self._sampler_is_policy() and untruncated and not self.moe)

    def _kept(self, batch: RolloutBatch, rows: torch.Tensor | None = None) -> torch.Tensor | None:
        """The sampler's kept sets to renormalise the policy's log-probs over ((b, T, V) bool, the
        ``rows`` of ``batch``), or ``None``: the full vocabulary (no ``replay_sampling_mask``, or the
        sampler did not truncate)."""
        if not self.config.replay_sampling_mask or batch.sampling_mask is None:
            return None
        return batch.sampling_mask if rows is None else batch.sampling_mask[rows]

    def _rollout(self, sampler=None) -> RolloutBatch:
        c = self.config
        problems = get_task(c.task).sample_problems(c.prompts_per_step, self.generator)
        return sample_rollouts(
            self.model if sampler is None else sampler,
            self.tokenizer,
            problems,
            c.group_size,
            c.max_new_tokens,
            c.temperature,
            self.generator,
            record_routing=self.routing_replay == "R3",
            top_p=c.top_p,
            top_k=c.top_k,
            score=self._sampler_scores(),
        )

    @torch.no_grad()
    def _greedy_rewards(self, batch: RolloutBatch) -> torch.Tensor:
        """ReMax's baseline: the task reward of one greedy response per prompt of ``batch`` ([n], CPU),
        generated by the trainer's own sampler (same precision and length limit) decoding the argmax
        token; the run's generator is not drawn from, so the other estimators' rollouts are unchanged."""
        c = self.config
        problems = batch.problems[:: c.group_size]  # one per group
        greedy = sample_rollouts(
            self.model if self._sampler is None else self._sampler,
            self.tokenizer,
            problems,
            1,
            c.max_new_tokens,
            c.temperature,
            self.generator,
            greedy=True,
            score=False,  # only its rewards are read
        )
        return self._shaped_rewards(greedy).cpu()

    def _shaped_rewards(self, batch: RolloutBatch) -> torch.Tensor:
        r = batch.rewards.float()  # (B,)
        if self.train_params["overlong_shaping"]:
            c = self.config
            r = r + overlong_penalty(
                batch.response_lengths.cpu(), c.max_new_tokens, c.overlong_buffer_length, c.overlong_penalty_factor
            ).to(r)
        return r

    def _collect(self) -> tuple[RolloutBatch, dict[str, float]]:
        """Generate rollouts; with dynamic sampling keep only mixed groups and re-sample up to the bound."""
        c, G = self.config, self.config.group_size
        stats = {
            "rollouts": 0,
            "groups_seen": 0,
            "zero_groups": 0,
            "rewards": [],
            "shaped": [],
            "lengths": [],
            "truncated": [],
            "right": [],  # per group sampled: how many of its G responses are right
            "distinct": [],  # per group sampled: how many different right answers (the task's answer_key)
        }
        kept: list[RolloutBatch] = []
        n_kept = 0
        sampler = self._sync_sampler()
        for _ in range(c.max_resample_rounds if self.train_params["dynamic_sampling"] else 1):
            batch = self._rollout(sampler)
            groups = batch.rewards.view(-1, G).cpu()  # (n, G) task accuracy decides, as DAPO's `acc`
            mixed = informative_groups(groups)
            stats["rollouts"] += len(batch.problems)
            stats["groups_seen"] += groups.shape[0]
            stats["zero_groups"] += int((~mixed).sum())
            stats["rewards"].append(batch.rewards.cpu())
            stats["shaped"].append(self._shaped_rewards(batch).cpu())
            stats["lengths"].append(batch.response_lengths.cpu())
            stats["truncated"].append(batch.truncated.cpu())
            for g, problem in enumerate(batch.problems[::G]):
                rewards_g = groups[g].tolist()
                stats["right"].append(sum(r >= 1.0 for r in rewards_g))
                stats["distinct"].append(
                    distinct_right(batch.texts[g * G : (g + 1) * G], rewards_g, task_of(problem).answer_key)
                )
            stats["last_batch"] = batch
            if not self.train_params["dynamic_sampling"]:
                return batch, stats
            rows = [g * G + j for g in torch.nonzero(mixed).flatten().tolist() for j in range(G)]
            if rows:
                kept.append(select_rows(batch, rows))
                n_kept += len(rows) // G
            if n_kept >= c.prompts_per_step:
                break
        if not kept:
            return None, stats
        batch = concat_batches(kept, self.tokenizer.pad_token_id)
        batch = select_rows(batch, list(range(min(n_kept, c.prompts_per_step) * G)))
        return batch, stats

    # -- one step --------------------------------------------------------------------------------

    @property
    def released(self) -> bool:
        """True once :meth:`release` has dropped the model and optimizer."""
        return self.model is None

    def release(self) -> None:
        """Drop what training needs and results do not: the policy, its optimizer state, the
        critic, the sampler copy and its weight snapshots, the reference (shared: dropped here only
        as a reference). ``history``, ``token_views``, ``ratio_hists`` and ``last_updates`` stay, so
        every finished step is still shown and downloadable; :meth:`step` then raises. Idempotent."""
        self.model = self.optimizer = self.ref_model = None
        self.critic = self.critic_optimizer = None
        self._sampler = None
        self._snapshots.clear()

    def step(self) -> dict[str, Any]:
        """One RL step; appends and returns its metrics (``METRICS`` plus ``step``).

        A step whose every group has equal rewards under dynamic sampling makes no update; its
        update metrics are NaN (not plotted) and ``kept_groups`` is 0.

        Raises:
            ValueError: the trainer was released (:meth:`release`).
        """
        if self.released:
            raise ValueError("trainer: released (its model and optimizer were freed); start a new run")
        t0, cpu0 = time.perf_counter(), time.thread_time()
        self._phases = {}
        self._critic_cpu = 0.0
        G = self.config.group_size
        with self._timed("sample"):
            batch, stats = self._collect()
        rewards = torch.cat(stats["rewards"])
        lengths = torch.cat(stats["lengths"]).float()
        m: dict[str, Any] = {name: float("nan") for name in METRICS}
        m.update(
            step=self.step_count + 1,
            reward_mean=float(torch.cat(stats["shaped"]).mean()),
            pass_at_1=float(rewards.mean()),
            pass_at_group=sum(r > 0 for r in stats["right"]) / max(len(stats["right"]), 1),
            distinct_right=sum(stats["distinct"]) / max(len(stats["distinct"]), 1),
            response_length_mean=float(lengths.mean()),
            response_length_max=float(lengths.max()),
            **dict(zip(("response_length_right", "response_length_wrong"), outcome_lengths(lengths, rewards))),
            overlong_fraction=float(torch.cat(stats["truncated"]).float().mean()),
            group_reward_std=float(rewards.view(-1, G).std(dim=1, unbiased=False).mean()),
            zero_adv_group_fraction=stats["zero_groups"] / max(stats["groups_seen"], 1),
            rollouts=stats["rollouts"],
            kept_groups=0 if batch is None else len(batch.problems) // G,
        )
        hist = [0] * (len(RATIO_BIN_EDGES) - 1)
        view = value_view = None
        m.update(entropy_coef=self.entropy_coef_now, entropy_bonus_active=float(self.entropy_weight() > 0))
        if self.config.entropy_target is not None:
            m["entropy_bonus_active"] = float(self.entropy_bonus_on)
        if batch is not None:
            update_metrics, hist, data = self._update(batch)
            m.update(update_metrics)
            m["entropy_sampled"] = self._entropy_control(data)
            value_view = self._value_view(data)
            with self._timed("token_view"):
                view = self._token_view(data)
            m["route_change_fraction"] = self._last_route_change
        else:  # dynamic sampling found no mixed group: no update, but the policy is still observed
            m.update(self._observe(stats["last_batch"]))
        m["seconds"] = time.perf_counter() - t0
        phases = {name: self._phases.get(name, 0.0) for name in PHASES}
        phases["other"] = max(time.thread_time() - cpu0 - sum(phases.values()), 0.0)
        self.phase_seconds.append(phases)
        self.step_count += 1
        self.history.append(m)
        self.ratio_hists.append(hist)
        self.token_views.append(view)
        self.value_views.append(value_view)
        return m

    def entropy_weight(self) -> float:
        """The coefficient of the entropy bonus in this step's loss (``loss -= weight * agg(H)``):
        ``entropy_coef``, or with ``entropy_target`` the controller's alpha_k if its switch is on, else 0."""
        if self.config.entropy_target is None:
            return float(self.config.entropy_coef)
        return self.entropy_coef_now if self.entropy_bonus_on else 0.0

    def _entropy_control(self, data: UpdateData) -> float:
        """The step's entropy as Skywork-OR1's controller reads it, ``-mean log pi_old`` over the batch's
        response tokens in nats (``get_entropy_metric`` in the authors' ``verl/workers/actor/dp_actor.py``),
        and, with ``entropy_target``, the controller's update for the next step
        (:func:`rlviz.core.entropy_control.adaptive_entropy_update`)."""
        mask = data.batch.response_mask > 0
        nll = float(-data.old_log_prob[mask].double().mean()) if bool(mask.any()) else float("nan")
        c = self.config
        if c.entropy_target is not None and math.isfinite(nll):
            self.entropy_coef_now, self.entropy_bonus_on = adaptive_entropy_update(
                self.entropy_coef_now,
                nll,
                c.entropy_target,
                c.entropy_coef_delta,
                c.entropy_coef_min,
                c.entropy_coef_max,
            )
        return nll

    def _loss_mask(self, batch: RolloutBatch) -> torch.Tensor:
        """(B, T) float: the response tokens that enter the loss (truncated rows dropped under
        DAPO's overlong filtering)."""
        mask = batch.response_mask.clone()  # (B, T)
        if self.train_params["overlong_filtering"]:
            mask = mask * overlong_filter_mask(batch.truncated).to(mask)
        return mask

    @torch.no_grad()
    def _recompute_log_probs(self, batch: RolloutBatch, deferred: torch.Tensor | None = None):
        """``(old_log_prob, ref_log_prob, routes)``: (B, T) each, the training forward of the policy
        before the step's first update (verl ``old_log_prob``: the same layout as the updates, so the
        ratio is 1 at first) and of the frozen reference (``None`` without one, or where nothing
        reads it: :meth:`_needs_ref`); for an MoE model the (B, L, layers, k) experts that forward
        used (recorded, or with R3 the sampler's, replayed), else ``None``. ``deferred``: rows left
        out of this forward (zeros in ``old_log_prob``), which the first update's own forward fills
        in (:meth:`_defer_old`). A batch sampled without scoring (the sampler is the policy) gets
        ``rollout_log_prob`` = ``old_log_prob`` once every row of it is known. Fourth: (B, T) Σπ² of
        the old policy at each response position where the estimator needs token statistics
        (:meth:`_needs_token_stats`; from the same forward's logits), else ``None``."""
        c = self.config
        stats = self._needs_token_stats()
        sum_pi_squared = None

        def forward(*a, **k):  # the old log-probs, and Σπ² from the same logits where the estimator reads it
            nonlocal sum_pi_squared
            out = response_log_probs(*a, **k, with_sum_pi_squared=stats)
            if stats:
                sum_pi_squared = out[2]
            return out[0], out[1]

        self.model.eval()
        args = (batch.input_ids, batch.attention_mask, batch.position_ids, batch.prompt_width, c.temperature)
        kept = self._kept(batch)  # the sampler's kept sets under replay_sampling_mask, else None
        routes = None
        with self._timed("old_log_prob"):
            if self.routing_replay == "R3":  # verl R3: old log-probs with the rollout engine's routing too
                routes = batch.rollout_routing
                with replay_routing(self.model, routes):
                    old, _ = forward(self.model, *args, sampling_mask=kept)
            elif self.moe:  # record the old policy's routing (R2 replays it; the route-change metric reads it)
                with capture_routing(self.model) as cap:
                    old, _ = forward(self.model, *args, sampling_mask=kept)
                routes = cap.indices(*batch.input_ids.shape)
            elif deferred is None:
                old, _ = forward(self.model, *args, sampling_mask=kept)
            else:
                old = torch.zeros_like(batch.response_mask)  # (B, T) float32
                rest = torch.ones(len(batch.problems), dtype=torch.bool)
                rest[deferred.cpu()] = False
                rows = torch.nonzero(rest).flatten().to(self.device)
                if len(rows):
                    old[rows], _ = response_log_probs(
                        self.model,
                        batch.input_ids[rows],
                        batch.attention_mask[rows],
                        batch.position_ids[rows],
                        batch.prompt_width,
                        c.temperature,
                        sampling_mask=self._kept(batch, rows),
                    )
            if deferred is None and batch.rollout_log_prob is None:
                batch.rollout_log_prob = old * batch.response_mask  # the sampler is this policy: 0 on padding
        ref = None
        if self._needs_ref():
            with self._timed("ref_log_prob"):
                ref, _ = response_log_probs(self.ref_model, *args)
        return old, ref, routes, sum_pi_squared

    def _needs_token_stats(self) -> bool:
        """Whether the step's advantage estimator is per-token (its registry entry's ``per_token``:
        it reads the old policy's Σπ² and log-probs at every response token)."""
        spec = ESTIMATORS.get(self.train_params["adv_estimator"])
        return self.train_params["advantage"] == "group" and spec is not None and spec.per_token

    def _needs_ref(self) -> bool:
        """Whether the step runs the reference: there is one, and the KL is in the loss or the
        reward (beta > 0) or ``measure_kl_ref`` asks for the ``kl_ref`` metric."""
        return self.ref_model is not None and (self.loss_params["beta"] > 0 or self.config.measure_kl_ref)

    def _defer_old(self, mask: torch.Tensor, first: torch.Tensor) -> bool:
        """Whether the rows ``first`` of the step's first mini-batch take their ``old_log_prob``
        from that update's own forward instead of a forward before it: the first update runs them
        through the policy before any change, so its log-probs, detached, are exactly the old ones
        (TRL does the same at ``num_iterations`` = 1; with one mini-batch no forward of its own is
        left). It needs a dense model sampled without scoring, a loss token among those rows (or
        the update is skipped), and nothing that reads ``old_log_prob`` before the update: group
        advantages from rewards alone (not a per-token estimator) without the KL in the reward, no
        rollout correction."""
        c = self.config
        kl_reward = c.kl_in_reward and self.loss_params["beta"] > 0 and self._needs_ref()
        return (
            not self.moe
            and not self._sampler_scores()
            and self.train_params["advantage"] == "group"
            and not self._needs_token_stats()
            and c.rollout_correction == "none"
            and not kl_reward
            and float(mask[first].sum()) > 0
        )

    def _advantages(
        self,
        batch: RolloutBatch,
        old: torch.Tensor,
        ref: torch.Tensor | None,
        mask: torch.Tensor,
        sum_pi_squared: torch.Tensor | None = None,
        rollout_is_weights: torch.Tensor | None = None,
    ):
        """Advantages [B] (group), [B, T] (a per-token estimator, from ``old`` and ``sum_pi_squared``
        over the response mask, its token variances scaled by ``rollout_is_weights`` squared where a
        weighting rollout correction gives them, as verl) or [B, T] (GAE), and PPO's returns / old
        values (or None)."""
        shaped = self._shaped_rewards(batch)  # (B,)
        kl_pen = None
        if self.config.kl_in_reward and ref is not None and self.loss_params["beta"] > 0:
            kl_pen = self.loss_params["beta"] * kl_estimate(old, ref, self.loss_params["kl_estimator"]) * mask  # (B, T)
        if self.train_params["advantage"] == "group":
            r = shaped if kl_pen is None else shaped - kl_pen.sum(-1)
            G = self.config.group_size
            name = self.train_params["adv_estimator"]
            if name == OWN_ESTIMATOR:  # the objective's own advantage: its scale_rewards decides
                adv = group_advantages(r.view(-1, G).cpu(), self.train_params["scale_rewards"])
                return adv.reshape(-1).to(self.device), None, None
            extra = {}
            spec = ESTIMATORS[name]
            if "greedy" in spec.needs:
                extra["greedy_rewards"] = self._greedy_rewards(batch)
            if "components" in spec.needs:  # the (shaped) task reward, then the format reward
                fmt = batch.format_rewards if batch.format_rewards is not None else torch.zeros_like(r)
                extra["components"] = torch.stack([r, fmt.to(r)], dim=-1).view(-1, G, 2).cpu()
            if spec.per_token:  # one advantage per token: the old policy's token statistics over the response mask
                B, T = old.shape

                def cells(x):
                    return None if x is None else x.detach().view(-1, G, T).cpu()

                adv = estimate_token_advantages(
                    name,
                    r.view(-1, G).cpu(),
                    cells(batch.response_mask),
                    old_log_probs=cells(old),
                    sum_pi_squared=cells(sum_pi_squared),
                    rollout_is_weights=cells(rollout_is_weights),
                )
                return adv.reshape(B, T).to(self.device), None, None
            lengths = batch.response_lengths.clamp(min=1).view(-1, G).cpu()  # whitening weighs tokens, as verl
            adv = estimate_advantages(name, r.view(-1, G).cpu(), lengths=lengths, **extra)
            return adv.reshape(-1).to(self.device), None, None
        # GAE: the score on the last real token, KL penalty per token if asked
        token_r = torch.zeros_like(old)
        last = (batch.response_lengths - 1).clamp(min=0)
        token_r[torch.arange(len(last), device=last.device), last] = shaped.to(old)
        if kl_pen is not None:
            token_r = token_r - kl_pen
        self._token_rewards = token_r
        t0 = time.thread_time()
        with torch.no_grad():
            values = self.critic(batch)  # (B, T)
        self._critic_cpu += time.thread_time() - t0
        adv, returns = gae(token_r, values, mask, self.train_params["gamma"], self.train_params["lam"])
        return adv, returns, values

    def _prepare(self, batch: RolloutBatch, first: torch.Tensor | None = None) -> UpdateData:
        """Everything the step's updates hold fixed: loss mask, old and reference log-probs,
        advantages (and PPO's returns and old values). ``first``: the rows of the first update
        (``None``: every row gets its old log-prob here)."""
        mask = self._loss_mask(batch)
        deferred = first if first is not None and self._defer_old(mask, first) else None
        old, ref, routes, sum_pi_squared = self._recompute_log_probs(batch, deferred)
        c = self.config
        correction = kept = None
        if c.rollout_correction != "none":
            correction, kept = correction_weights(
                c.rollout_correction,
                old,
                batch.rollout_log_prob,
                batch.response_mask,
                c.rollout_correction_low,
                c.rollout_correction_high,
            )
        weights = None if correction is None or CORRECTIONS[c.rollout_correction].kind == "reject" else correction
        adv, returns, old_values = self._advantages(batch, old, ref, mask, sum_pi_squared, weights)
        if correction is not None:
            if CORRECTIONS[c.rollout_correction].kind == "reject":
                # verl applies a rejection filter to the response mask: the rejected responses leave
                # the loss and its normaliser (rollout_corr_helper.compute_rollout_rejection_mask)
                mask, correction = mask * kept.to(mask), None
        return UpdateData(batch, old, ref, adv, mask, returns, old_values, routes, correction, deferred)

    def _mismatch_metrics(self, data: UpdateData) -> dict[str, float]:
        """Sampler against trainer on the step batch: ``rollout_kl``, the k3 estimate of
        KL(pi_rollout || pi_train) per response token (samples are the sampler's; verl reports it as
        ``rollout_corr/k3_kl``); ``correction_weight_mean`` and ``correction_masked_fraction``, the mean
        weight of the rollout correction and the share of response tokens it drops (weight 0 by its
        band), over the loss tokens (1 and 0 without a correction)."""
        batch = data.batch
        mask = self._loss_mask(batch)  # before a rejection filter took tokens out of data.mask
        if float(mask.sum()) == 0:
            return {}
        c = self.config
        weight, kept = correction_weights(
            c.rollout_correction,
            data.old_log_prob,
            batch.rollout_log_prob,
            batch.response_mask,
            c.rollout_correction_low,
            c.rollout_correction_high,
        )
        real = mask > 0
        return {
            "rollout_kl": float(masked_mean(kl_estimate(batch.rollout_log_prob, data.old_log_prob, "k3"), mask)),
            "correction_weight_mean": float(weight[real].double().mean()),
            "correction_masked_fraction": float((~kept[real]).double().mean()),
        }

    def _loss_params(self, data: UpdateData) -> dict[str, Any]:
        """The loss settings of this step: beta is 0 when the KL went into the reward (or, for a
        ``data`` built without reference log-probs, where nothing can read them; with beta > 0 the
        trainer always has a reference: see ``ref_model``)."""
        params = dict(self.loss_params)
        if self.config.kl_in_reward or data.ref_log_prob is None:
            params["beta"] = 0.0
        return params

    def update(
        self, batch: RolloutBatch, before_step: Callable[[UpdateData, torch.Tensor, int, dict], None] | None = None
    ) -> tuple[dict[str, float], list[int], UpdateData]:
        """The updates of one RL step on a ``batch`` sampled elsewhere (the ``/step`` page replays one
        sampled group under each objective): what :meth:`step` does after sampling, without its metrics
        history. ``before_step(data, rows, epoch, params)`` is called before each optimizer step with
        the step's fixed inputs, the rows about to be updated, the pass (0-based) and the loss settings:
        an observer (it must not change them). Returns what :meth:`_update` returns."""
        return self._update(batch, before_step)

    def policy_log_prob(self, data: UpdateData, rows: range):
        """The policy's log-probs on ``data``'s batch now: ``(log_prob (B, T), routes, entropy)``
        (:meth:`_current_log_prob`; only ``rows`` are run through the model where nothing needs the others)."""
        return self._current_log_prob(data, rows)

    def loss_settings(self, data: UpdateData) -> dict[str, Any]:
        """The loss settings the step's updates use on ``data`` (beta 0 without a reference or with the
        KL in the reward)."""
        return self._loss_params(data)

    def shaped_rewards(self, batch: RolloutBatch) -> torch.Tensor:
        """(B,) the rewards the advantages are computed from: the verifier's, plus DAPO's overlong
        penalty where the objective shapes lengths."""
        return self._shaped_rewards(batch)

    def _update(
        self, batch: RolloutBatch, before_step: Callable[[UpdateData, torch.Tensor, int, dict], None] | None = None
    ) -> tuple[dict[str, float], list[int], UpdateData]:
        """mu passes x ``mini_batches`` optimizer steps on ``batch``.

        Returns ``(metrics, ratio_histogram, data)``: the update metrics (:meth:`_summarise`), the
        counts of the ratio in the bins of ``RATIO_BIN_EDGES`` over every update, and the fixed
        inputs of the updates (:class:`UpdateData`, for :meth:`_token_view`). ``before_step``: see
        :meth:`update`.
        """
        c = self.config
        B = len(batch.problems)
        # the first pass's order, drawn first (nothing before the updates draws from the generator)
        first_perm = torch.randperm(B, generator=self.generator)
        data = self._prepare(batch, torch.tensor_split(first_perm, c.mini_batches)[0])
        params = self._loss_params(data)
        acc = _UpdateStats(hist=[0] * (len(RATIO_BIN_EDGES) - 1))
        self.model.train()
        with self._timed("update"):
            for epoch in range(c.mu):
                perm = first_perm if epoch == 0 else torch.randperm(B, generator=self.generator)
                for rows in torch.tensor_split(perm, c.mini_batches):  # exactly mini_batches pieces
                    if before_step is not None:
                        before_step(data, rows.to(self.device), epoch, params)
                    self._minibatch_update(data, rows.to(self.device), epoch, params, acc)
        self.model.eval()
        self.last_updates = list(acc.updates)
        self.last_log_ratios = torch.cat(acc.seq) if acc.seq else torch.zeros(0, 3, dtype=torch.float64)
        return {**self._summarise(data, acc), **self._mismatch_metrics(data)}, acc.hist, data

    def _minibatch_update(
        self, data: UpdateData, idx: torch.Tensor, epoch: int, params: dict[str, Any], acc: _UpdateStats
    ) -> None:
        """One optimizer step on rows ``idx`` of the step batch (skipped if they hold no loss
        token); its diagnostics go into ``acc``."""
        c, model, batch = self.config, self.model, data.batch
        bonus = self.entropy_weight()
        mb_mask = data.mask[idx]
        if float(mb_mask.sum()) == 0:
            return
        replay = (
            replay_routing(model, data.routes[idx.cpu()]) if self.routing_replay != "none" else contextlib.nullcontext()
        )
        with replay:  # R2 / R3: the forward routes each token to the experts the old log-prob used
            log_prob, ent = response_log_probs(
                model,
                batch.input_ids[idx],
                batch.attention_mask[idx],
                batch.position_ids[idx],
                batch.prompt_width,
                c.temperature,
                with_entropy=epoch == 0
                or bonus > 0
                or self.train_params["top_entropy_quantile"] < 1
                or self.spec.reads_entropy,
                sampling_mask=self._kept(batch, idx),
            )
        log_prob.retain_grad()
        if data.old_pending is not None:  # deferred (_defer_old): the first update's rows are still the old policy's
            data.old_log_prob[idx] = log_prob.detach()  # idx is data.old_pending
            data.old_pending = None
            data.batch.rollout_log_prob = data.old_log_prob * data.batch.response_mask  # the sampler is this policy
        ref = data.ref_log_prob
        keep = self._keep_mask(log_prob, ent, data, idx, mb_mask)
        weight = keep  # the token masks, times the rollout correction's weights (TRL: the same product)
        if data.correction is not None:
            w = data.correction[idx]
            weight = w if keep is None else keep.to(w.dtype) * w
        out = policy_loss(
            self.spec.name,
            log_prob,
            data.old_log_prob[idx],
            data.advantages[idx],
            mb_mask,
            ref_log_prob=None if ref is None else ref[idx],
            keep_mask=weight,
            entropy=ent.detach() if self.spec.reads_entropy else None,  # ASPO's band reads it
            **params,
        )
        loss = out.loss
        if bonus > 0:  # entropy bonus, aggregated like the policy loss (verl's ppo_loss)
            loss = loss - entropy_bonus(ent, mb_mask, bonus, params["loss_agg_mode"], params.get("norm_length"))
        self.optimizer.zero_grad(set_to_none=True)
        loss.backward()
        norm = torch.nn.utils.clip_grad_norm_(model.parameters(), c.grad_clip)
        self.optimizer.step()
        real = mb_mask > 0
        ratios = out.ratio[real]
        log_ratio = log_prob.detach() - data.old_log_prob[idx]
        token_ratios = log_ratio[real].exp()
        if acc.updates:  # off-policy: every update but the step's first (ratio 1 there by construction)
            acc.seq.append(response_log_ratios(log_ratio, mb_mask).cpu())
        acc.r_sum, acc.r_n = acc.r_sum + float(ratios.sum()), acc.r_n + ratios.numel()
        acc.r_sq += float((ratios.double() ** 2).sum())
        acc.t_sum += float(token_ratios.double().sum())
        acc.t_sq += float((token_ratios.double() ** 2).sum())
        acc.r_min, acc.r_max = min(acc.r_min, float(ratios.min())), max(acc.r_max, float(ratios.max()))
        r64 = ratios.double()
        acc.updates.append(
            {
                "update": len(acc.updates) + 1,
                "epoch": epoch + 1,
                "tokens": ratios.numel(),
                "ratio_mean": float(r64.mean()),
                "ratio_std": float(r64.std(unbiased=False)),
                "ratio_min": float(r64.min()),
                "ratio_max": float(r64.max()),
                "clip_fraction": out.clip_fraction,
                "kept_fraction": 1.0 if keep is None else float(keep[real].float().mean()),
                "clip_fraction_low": out.clip_fraction_low,
                "clip_fraction_high": out.clip_fraction_high,
            }
        )
        counts = torch.bucketize(
            ratios.log().clamp(-0.5, 0.5 - 1e-9).cpu(), torch.tensor(RATIO_BIN_EDGES).log()[1:-1], right=True
        )
        for k, v in zip(*torch.unique(counts, return_counts=True)):
            acc.hist[int(k)] += int(v)
        acc.loss.append(out.loss.item())
        acc.clip.append(out.clip_fraction)
        acc.low.append(out.clip_fraction_low)
        acc.high.append(out.clip_fraction_high)
        if out.gate_weight is not None:
            acc.gate.append(float(out.gate_weight[real].mean()))
        acc.grad_tok.append(float((log_prob.grad[real] != 0).float().mean()))
        acc.grad_norm.append(float(norm))
        if ent is not None and epoch == 0:
            acc.ent_sum += float((ent.detach() * mb_mask).sum())
            acc.ent_n += float(mb_mask.sum())
        if self.critic is not None:
            acc.value_loss.append(self._critic_update(batch, idx, data.returns, data.old_values, mb_mask))

    def _keep_mask(
        self, log_prob: torch.Tensor, ent: torch.Tensor | None, data: UpdateData, idx: torch.Tensor, mb_mask
    ) -> torch.Tensor | None:
        """The token mask of this mini-batch (``None``: every token): the high-entropy mask over the
        mini-batch's tokens (TRL computes it per micro-batch too) and DeepSeek-V3.2's off-policy
        sequence mask against the sampling policy's log-probs: the sampler's ``rollout_log_prob`` when
        the sampler is not the policy (another precision, stale, truncated; TRL uses vLLM's
        log-probs then), else the old log-prob, which is the same policy."""
        q, delta = self.train_params["top_entropy_quantile"], self.train_params["off_policy_mask_threshold"]
        keep = None
        if q < 1:
            keep = high_entropy_mask(ent, mb_mask, q)
        if delta is not None:
            c = self.config
            sampled = self._sampler_is_policy() and c.top_p == 1 and c.top_k == 0
            behaviour = data.old_log_prob if sampled else data.batch.rollout_log_prob
            off = off_policy_sequence_mask(data.advantages[idx], log_prob, behaviour[idx], mb_mask, delta)
            keep = off if keep is None else keep & off
        return keep

    @staticmethod
    def _summarise(data: UpdateData, acc: _UpdateStats) -> dict[str, float]:
        """The step's update metrics: means over its updates, entropy over the first pass, KL of
        the old policy to the reference (k3, token mean), ratio extremes (NaN where not measured)."""

        def mean(xs):
            return float(sum(xs) / len(xs)) if xs else float("nan")

        old, ref = data.old_log_prob, data.ref_log_prob
        kl_ref = float(masked_mean(kl_estimate(old, ref, "k3"), data.mask)) if ref is not None else float("nan")
        return {
            "loss": mean(acc.loss),
            "clip_fraction": mean(acc.clip),
            "clip_fraction_low": mean(acc.low),
            "clip_fraction_high": mean(acc.high),
            "gate_weight_mean": mean(acc.gate),
            "grad_token_fraction": mean(acc.grad_tok),
            "grad_norm": mean(acc.grad_norm),
            "value_loss": mean(acc.value_loss),
            "entropy": acc.ent_sum / acc.ent_n if acc.ent_n else float("nan"),
            "kl_ref": kl_ref,
            "ratio_mean": acc.r_sum / acc.r_n if acc.r_n else float("nan"),
            "ratio_min": acc.r_min if acc.r_n else float("nan"),
            "ratio_max": acc.r_max if acc.r_n else float("nan"),
            "ratio_var": _variance(acc.r_sum, acc.r_sq, acc.r_n),
            "token_ratio_var": _variance(acc.t_sum, acc.t_sq, acc.r_n),
            **length_noise(torch.cat(acc.seq) if acc.seq else torch.zeros(0, 3, dtype=torch.float64)),
        }

    @torch.no_grad()
    def _observe(self, batch: RolloutBatch) -> dict[str, float]:
        """Entropy and KL to the reference of the sampling policy on ``batch`` (no update)."""
        c = self.config
        lp, ent = response_log_probs(
            self.model,
            batch.input_ids,
            batch.attention_mask,
            batch.position_ids,
            batch.prompt_width,
            c.temperature,
            with_entropy=True,
            sampling_mask=self._kept(batch),
        )
        out = {"entropy": float(masked_mean(ent, batch.response_mask))}
        if self._needs_ref():
            ref, _ = response_log_probs(
                self.ref_model,
                batch.input_ids,
                batch.attention_mask,
                batch.position_ids,
                batch.prompt_width,
                c.temperature,
            )
            out["kl_ref"] = float(masked_mean(kl_estimate(lp, ref, "k3"), batch.response_mask))
        return out

    def _critic_update(self, batch, idx, returns, old_values, mb_mask, clip_value=0.5) -> float:
        """Clipped value loss 0.5 max((V - G)^2, (clip(V, V_old +- c) - G)^2), token mean (verl)."""
        t0 = time.thread_time()
        sub = select_rows(batch, idx.cpu())
        v = self.critic(sub)  # (b, T)
        v_old, g = old_values[idx], returns[idx]
        v_clip = v_old + (v - v_old).clamp(-clip_value, clip_value)
        loss = 0.5 * masked_mean(torch.maximum((v - g) ** 2, (v_clip - g) ** 2), mb_mask)
        self.critic_optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(self.critic.parameters(), self.config.grad_clip)
        self.critic_optimizer.step()
        self._critic_cpu += time.thread_time() - t0
        return loss.item()

    def _value_view(self, data: UpdateData) -> dict[str, Any] | None:
        """PPO's critic on this step's batch (``None`` without a critic), for the critic page
        (``rlviz.experiments.critic``): ``values`` (B, T) V(s_t) before the step's critic updates,
        ``returns`` (B, T) the GAE targets it was trained towards (advantage + V), ``token_rewards``
        (B, T) the per-token rewards GAE read (the score on the last real token, minus the KL penalty
        with ``kl_in_reward``), ``mask`` (B, T) the loss tokens, ``lengths`` (B,) response lengths in
        tokens, all float32 on the CPU and 0 at padding; ``critic_seconds``: CPU seconds of the
        stepping thread in the critic this step (its forward for GAE and its mu x mini_batches
        updates; also counted in the step's phases)."""
        if data.old_values is None or self._token_rewards is None:
            return None
        mask = data.mask.detach().float().cpu()
        return {
            "values": data.old_values.detach().float().cpu() * mask,
            "returns": data.returns.detach().float().cpu() * mask,
            "token_rewards": self._token_rewards.detach().float().cpu() * mask,
            "mask": mask,
            "lengths": data.batch.response_lengths.detach().float().cpu(),
            "critic_seconds": self._critic_cpu,
        }

    @torch.no_grad()
    def _current_log_prob(
        self, data: UpdateData, rows: range
    ) -> tuple[torch.Tensor, torch.Tensor | None, torch.Tensor | None]:
        """The policy after the step's updates on the step batch: ``(log_prob (B, T), routes,
        entropy)``, the log-probs as the updates compute them (replaying ``data.routes`` under
        routing replay); for an MoE, the (B, L, layers, k) experts its own routers choose now
        (``None`` dense); the entropy (B, T) where the objective reads it, else ``None``.

        Only ``rows`` (the group the view shows) are run through the model where nothing else needs
        the others: a dense model and an objective whose per-token loss reads only its own response
        (not ``batch_coupled``); the other rows keep ``old_log_prob`` (their loss terms are not shown,
        and the aggregation weights depend on the mask alone). An MoE (the route-change metric reads
        every row) or a batch-coupled objective runs the whole batch."""
        batch = data.batch
        reads_entropy = self.spec.reads_entropy
        if not self.moe and not self.spec.batch_coupled:
            idx = torch.tensor(list(rows), device=batch.input_ids.device)
            part, ent_part = response_log_probs(
                self.model,
                batch.input_ids[idx],
                batch.attention_mask[idx],
                batch.position_ids[idx],
                batch.prompt_width,
                self.config.temperature,
                with_entropy=reads_entropy,
                sampling_mask=self._kept(batch, idx),
            )
            lp = data.old_log_prob.clone()
            lp[idx] = part
            ent = None
            if reads_entropy:
                ent = torch.zeros_like(lp)
                ent[idx] = ent_part
            return lp, None, ent
        args = (batch.input_ids, batch.attention_mask, batch.position_ids, batch.prompt_width, self.config.temperature)
        kw = {"with_entropy": reads_entropy, "sampling_mask": self._kept(batch)}
        if not self.moe:
            lp, ent = response_log_probs(self.model, *args, **kw)
            return lp, None, ent
        with capture_routing(self.model) as cap:
            if self.routing_replay != "none":
                with replay_routing(self.model, data.routes):  # the capture hook still sees the own top-k
                    lp, ent = response_log_probs(self.model, *args, **kw)
            else:
                lp, ent = response_log_probs(self.model, *args, **kw)
        return lp, cap.indices(*batch.input_ids.shape), ent

    @staticmethod
    def _route_change(data: UpdateData, routes: torch.Tensor | None) -> tuple[float, torch.Tensor | None]:
        """``(share, changed)``: the share of (response token, layer) routes whose expert set the
        step's updates changed, against the routes ``old_log_prob`` used (NaN for a dense model), and
        per response token the number of layers that changed, (B, T) int (``None`` dense)."""
        if routes is None or data.routes is None:
            return float("nan"), None
        P = data.batch.prompt_width
        # a response token's route: the experts at the position that computes its probability (P - 1 + t)
        changed = route_changed(data.routes[:, P - 1 : -1], routes[:, P - 1 : -1])  # (B, T, layers)
        real = data.batch.response_mask.cpu() > 0  # (B, T)
        share = float(changed[real].float().mean()) if bool(real.any()) else float("nan")
        return share, changed.sum(-1)

    def _token_view(self, data: UpdateData) -> dict[str, Any]:
        """Per-token gradient weights d loss / d log pi for one group of this step.

        Autograd through ``policy_loss`` on the whole step batch (so the aggregation is the one that
        trained): ``weight`` with the ratio the policy has after the step's updates (what one more
        update would do, clipping included), ``weight_first`` at the step's first update (ratio 1);
        ``state`` / ``state_first``: what the trust region did to each token at those two points, in
        the app's one vocabulary (``rlviz.core.objectives.token_states``: active / clipped / capped
        / gated / masked); ``layers_changed``: for an MoE, per token the number of layers whose
        experts changed over the step's updates at the position that computes its probability
        (the one before it; ``None`` for a dense model). The
        first group with a learning signal is shown. Also sets ``_last_route_change``, the step's
        ``route_change_fraction`` (:meth:`_route_change`), from the same forward pass.
        """
        batch, old, ref, adv, mask = data.batch, data.old_log_prob, data.ref_log_prob, data.advantages, data.mask
        G = self.config.group_size
        adv_rows = adv if adv.dim() == 1 else masked_mean(adv, mask, dim=-1)
        signal = [g for g in range(len(batch.problems) // G) if bool((adv_rows[g * G : (g + 1) * G] != 0).any())]
        g = signal[0] if signal else 0
        rows = range(g * G, (g + 1) * G)
        lp, routes, ent = self._current_log_prob(data, rows)
        self._last_route_change, layers_changed = self._route_change(data, routes)
        params = self._loss_params(data)
        # an objective that reads entropies (ASPO's band) gets the policy's, now, at both points
        extra = {"entropy": ent} if ent is not None else {}
        weights, out = gradient_weights(self.spec.name, lp, old, adv, mask, ref_log_prob=ref, **params, **extra)
        # the same at the step's first update, on-policy (ratio 1): the pure token / sequence weighting
        first, out_first = gradient_weights(self.spec.name, old, old, adv, mask, ref_log_prob=ref, **params, **extra)
        states = token_states(self.spec.name, out, mask)  # (B, T) strings
        states_first = token_states(self.spec.name, out_first, mask)
        shaped = self._shaped_rewards(batch)
        return {
            "prompt": batch.problems[g * G].prompt,
            "answer": batch.problems[g * G].answer,
            "rows": [
                {
                    "text": batch.texts[i],
                    "tokens": batch.tokens[i],
                    "weight": weights[i, : len(batch.tokens[i])].tolist(),
                    "weight_first": first[i, : len(batch.tokens[i])].tolist(),
                    "ratio": out.ratio[i, : len(batch.tokens[i])].tolist(),
                    "clipped": out.clipped[i, : len(batch.tokens[i])].tolist(),
                    "state": [str(x) for x in states[i, : len(batch.tokens[i])]],
                    "state_first": [str(x) for x in states_first[i, : len(batch.tokens[i])]],
                    "in_loss": bool(mask[i].sum() > 0),
                    "layers_changed": None
                    if layers_changed is None
                    else layers_changed[i, : len(batch.tokens[i])].tolist(),
                    "advantage": float(adv_rows[i]),
                    "reward": float(batch.rewards[i]),
                    "shaped_reward": float(shaped[i]),
                }
                for i in rows
            ],
        }
