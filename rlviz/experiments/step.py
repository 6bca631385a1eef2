"""One update, slowly (issue 40): one real update of the shipped tiny LM, walked stage by stage.

Two functions do the work, both with the trainer's own code (``rlviz.lm.trainer``), never a second formula:

- :func:`sample_group`: one prompt, G responses from the shipped model, scored by the task's verifier, with
  the sampler the trainer calls (``rlviz.lm.rollout.sample_rollouts``, as ``Trainer._rollout`` calls it). Done
  once per (seed, G, prompt): every objective replays the same batch.
- :func:`replay`: that batch under one registry entry: a :class:`~rlviz.lm.trainer.Trainer` of that entry
  (its registry defaults) runs its own update loop, ``Trainer.update``, with mu = 2 passes over the group,
  one mini-batch each. The first optimizer step is on-policy (every ratio is 1); it moves the policy, so the
  second sees ratios != 1. Just before the second step the replay reads what it sees: the policy's
  log-probs (``Trainer.policy_log_prob``) and the step's loss settings (``Trainer.loss_settings``), fed to
  ``gradient_weights`` and ``token_states`` as ``Trainer._token_view`` does; after it, the policy's
  log-probs again. The ratios, clip states, gradient weights, the aggregation and the loss shown are
  those of the second optimizer step (the trainer's own record of it, ``Trainer.last_updates[1]``, agrees:
  tests/test_step.py).

:data:`STAGES` are the page's eight cards; :func:`changes` says which of them a registry entry changes
relative to GRPO, read from the entry's spec fields (:data:`FEATURES`), never from its name. The page's two
predictions read their answers from :func:`walk_at` (``rlviz.teach.predict.PREDICTIONS["step"]``).

No Streamlit here. Legend: G responses in the group, T the padded response width.
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import torch

from rlviz.core.objectives import ALGORITHMS, TOKEN_STATES, AlgorithmSpec, get_algorithm, trust_band
from rlviz.i18n import LIST_SEPARATOR, SENTENCE_SEPARATOR, pct, t
from rlviz.numbering import response_number

__all__ = [
    "change_line",
    "fields",
    "pct_text",
    "row_labels",
    "selectors_text",
    "stage_numbers",
    "token_note",
    "value_text",
    "AUTO_LEVELS",
    "AUTO_PROMPTS",
    "BASELINE",
    "DEFAULT_GROUP_SIZE",
    "DEFAULT_LR",
    "FEATURES",
    "GROUP_SIZES",
    "LRS",
    "QUESTION_STAGE",
    "STAGES",
    "STAGE_PAGES",
    "TOKEN_STAGES",
    "Change",
    "Feature",
    "Sample",
    "Walk",
    "advantage_applies",
    "advantage_rule",
    "answer_advantage",
    "answer_clip",
    "changes",
    "clip_applies",
    "explain_advantage",
    "explain_clip",
    "fields_advantage",
    "fields_clip",
    "prediction_state",
    "replay",
    "sample_group",
    "walk_at",
]

# the page's stages, in order (locale ``step.stage.<key>``, ``step.lede.<key>``)
STAGES: tuple[str, ...] = ("responses", "rewards", "advantages", "ratio", "clip", "weights", "aggregation", "update")
# the page that explores each stage (a key of rlviz.app_pages.PAGES)
STAGE_PAGES: dict[str, str] = {
    "responses": "sampling",
    "rewards": "advantages",
    "advantages": "advantages",
    "ratio": "curves",
    "clip": "curves",
    "weights": "weighting",
    "aggregation": "weighting",
    "update": "live",
}
BASELINE = "grpo"  # what an entry's changes are read against
GROUP_SIZES = (4, 8)  # G: the slider's range
DEFAULT_GROUP_SIZE = 8  # the trainer's own default (TrainConfig.group_size)
LRS = (1e-5, 3e-5, 1e-4, 3e-4, 1e-3)  # the learning rates offered
DEFAULT_LR = 1e-4  # the trainer's own default (TrainConfig.lr)
AUTO_PROMPTS = 8  # with no prompt typed: this many drawn, the first whose group has mixed rewards is kept
AUTO_LEVELS = {2: 1.0, 3: 1.0}  # ... from the task's middle levels (as the weighting page's real group)
MU = 2  # passes over the group: the first moves the policy, the second sees ratios != 1
# the stage each prediction is asked at (its evidence is held back there until the commit)
QUESTION_STAGE = {"step.q_advantage": "advantages", "step.q_clip": "clip"}


# ------------------------------------------------------------------------------------------ changes
@dataclass(frozen=True)
class Feature:
    """One field of a registry entry that decides what a stage does.

    Attributes:
        name: the locale key's last part (``step.feature.<name>``) and the name shown.
        stage: the stage (:data:`STAGES`) it belongs to.
        read: ``spec -> value`` (comparable with ``==``; a function's identity for the surrogate).
    """

    name: str
    stage: str
    read: Callable[[AlgorithmSpec], Any]


def _train(name: str) -> Callable[[AlgorithmSpec], Any]:
    return lambda spec: spec.train_defaults.get(name)


def _loss(name: str) -> Callable[[AlgorithmSpec], Any]:
    return lambda spec: spec.defaults.get(name)


def _kl(spec: AlgorithmSpec) -> Any:
    """The KL term's default: beta, and the estimator where beta > 0 (at 0 the estimator does nothing)."""
    beta = spec.defaults.get("beta") or 0.0
    return (beta, spec.defaults.get("kl_estimator")) if beta > 0 else (0.0, None)


# Which spec field decides which stage (stage 8, the optimizer step itself, is the same for every entry).
FEATURES: tuple[Feature, ...] = (
    Feature("dynamic_sampling", "responses", _train("dynamic_sampling")),
    Feature("overlong_shaping", "rewards", _train("overlong_shaping")),
    Feature("advantage", "advantages", _train("advantage")),
    Feature("scale_rewards", "advantages", _train("scale_rewards")),
    Feature("adv_estimator", "advantages", _train("adv_estimator")),
    Feature("ratio_level", "ratio", lambda spec: spec.ratio_level),
    Feature("trust_region", "clip", lambda spec: tuple(sorted(spec.trust_region))),
    Feature("clip_space", "clip", lambda spec: spec.clip_space),
    Feature("trust_settings", "clip", lambda spec: {s.name: s.default for s in spec.surrogate_settings}),
    Feature("surrogate", "weights", lambda spec: spec.surrogate),
    Feature("kl", "weights", _kl),
    Feature("top_entropy_quantile", "weights", _train("top_entropy_quantile")),
    Feature("off_policy_mask_threshold", "weights", _train("off_policy_mask_threshold")),
    Feature("loss_agg_mode", "aggregation", _loss("loss_agg_mode")),
    Feature("norm_length", "aggregation", _loss("norm_length")),
    Feature("overlong_filtering", "aggregation", _train("overlong_filtering")),
)


@dataclass(frozen=True)
class Change:
    """One difference of an entry from GRPO: ``feature`` (a :class:`Feature`'s name, or a trust-region
    setting's name such as ``epsilon_high``), its ``stage``, GRPO's value and the entry's (``None``: the
    entry has no such setting; a function for the surrogate: compare them, don't show them)."""

    feature: str
    stage: str
    baseline: Any
    value: Any


def changes(name: str, baseline: str = BASELINE) -> dict[str, tuple[Change, ...]]:
    """The stages registry entry ``name`` changes relative to ``baseline`` (GRPO): stage -> its changes,
    in :data:`STAGES` order, only the stages with at least one. Read from the spec fields of
    :data:`FEATURES`, never from the name; a trust-region setting (``surrogate=True``) whose default
    differs is one change each (a setting only one of the two has counts with the value ``None``, as
    an optional setting that is off). ``changes(BASELINE)`` is empty.

    Raises ``ValueError`` for an unknown name."""
    spec, base = get_algorithm(name), get_algorithm(baseline)
    found: dict[str, list[Change]] = {}
    for feature in FEATURES:
        mine, theirs = feature.read(spec), feature.read(base)
        if feature.name == "trust_settings":  # one change per setting that differs
            for key in dict.fromkeys([*theirs, *mine]):
                if mine.get(key) != theirs.get(key):  # an optional setting off (None) is as good as absent
                    found.setdefault(feature.stage, []).append(
                        Change(key, feature.stage, theirs.get(key), mine.get(key))
                    )
        elif mine != theirs:
            found.setdefault(feature.stage, []).append(Change(feature.name, feature.stage, theirs, mine))
    return {stage: tuple(found[stage]) for stage in STAGES if stage in found}


def advantage_rule(name: str) -> str:
    """How entry ``name`` turns rewards into advantages, as a key (``step.rule.<key>``): ``gae`` (a value
    model, per token), ``group`` / ``batch`` / ``none`` (the objective's own group-relative advantage and
    its ``scale_rewards``), or ``estimator`` (a named estimator of ``rlviz.core.estimators``)."""
    spec = get_algorithm(name)
    train = spec.train_defaults
    if train["advantage"] == "gae":
        return "gae"
    if train["adv_estimator"] != "own":
        return "estimator"
    return str(train["scale_rewards"])


# --------------------------------------------------------------------------------------- the batch
@dataclass(frozen=True)
class Sample:
    """One group sampled once, replayed under every objective (never changed after it is made).

    Attributes:
        seed, group_size: what it was drawn with; ``prompt``: the prompt typed (``""``: drawn).
        batch: the :class:`~rlviz.lm.rollout.RolloutBatch` of the G responses (one group). A replay
            works on a shallow copy (the trainer sets ``rollout_log_prob`` on the batch it trains on).
        auto: True when the prompt was drawn (:data:`AUTO_PROMPTS` from :data:`AUTO_LEVELS`).
        max_new_tokens, temperature: the sampler's limits (the trainer's defaults).
    """

    seed: int
    group_size: int
    prompt: str
    batch: Any
    auto: bool
    max_new_tokens: int
    temperature: float


def _check_group_size(group_size: Any) -> int:
    low, high = GROUP_SIZES
    if isinstance(group_size, bool) or not isinstance(group_size, (int, np.integer)) or not low <= group_size <= high:
        raise ValueError(f"group_size: must be a whole number in [{low}, {high}], got {group_size!r}")
    return int(group_size)


def _check_lr(lr: Any) -> float:
    if isinstance(lr, bool) or not isinstance(lr, (int, float)) or not (math.isfinite(lr) and 0 < lr <= 1):
        raise ValueError(f"lr: must be a finite number in (0, 1], got {lr!r}")
    return float(lr)


def _check_seed(seed: Any) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed: must be a whole number >= 0, got {seed!r}")
    return int(seed)


def sample_group(seed: int = 0, group_size: int = DEFAULT_GROUP_SIZE, prompt: str | None = "") -> Sample:
    """One prompt and its G responses from the shipped tiny LM (on the CPU), scored by the verifier.

    With ``prompt`` empty, :data:`AUTO_PROMPTS` prompts are drawn from :data:`AUTO_LEVELS` and the first
    whose G responses have mixed rewards is kept (the first if none has), as the weighting page's real
    group does. The sampler is the trainer's (``sample_rollouts`` with the trainer's temperature and
    length limit, and without scoring: the sampler is the policy, whose log-probs the trainer recomputes
    as ``old_log_prob``). Deterministic given ``seed``.

    Raises:
        ValueError: naming ``seed``, ``group_size`` or ``prompt`` (``rlviz.experiments.weighting.parse_prompt``).
    """
    from rlviz.core.sampling import informative_groups
    from rlviz.lm.batching import select_rows
    from rlviz.lm.model import load_policy
    from rlviz.lm.rollout import sample_rollouts
    from rlviz.lm.task import sample_problems
    from rlviz.lm.trainer import TrainConfig

    from .weighting import parse_prompt

    seed, group_size = _check_seed(seed), _check_group_size(group_size)
    problem = parse_prompt(prompt)
    model, tokenizer = load_policy(None, "cpu")
    generator = torch.Generator().manual_seed(seed)
    problems = [problem] if problem is not None else sample_problems(AUTO_PROMPTS, generator, levels=AUTO_LEVELS)
    config = TrainConfig()
    batch = sample_rollouts(
        model, tokenizer, problems, group_size, config.max_new_tokens, config.temperature, generator, score=False
    )
    mixed = informative_groups(batch.rewards.view(len(problems), group_size).cpu())
    g = int(torch.nonzero(mixed).flatten()[0]) if bool(mixed.any()) else 0
    group = select_rows(batch, list(range(g * group_size, (g + 1) * group_size)))
    return Sample(
        seed=seed,
        group_size=group_size,
        prompt="" if problem is None else problem.prompt,
        batch=group,
        auto=problem is None,
        max_new_tokens=config.max_new_tokens,
        temperature=config.temperature,
    )


# -------------------------------------------------------------------------------------- the replay
@dataclass(frozen=True)
class Walk:
    """One update of a :class:`Sample` under one objective, stage by stage (plain arrays, [G] or [G, T]).

    Attributes:
        objective: the registry entry; ``lr``: the AdamW learning rate of both optimizer steps.
        prompt, answer: the task prompt and the expected (reversed) answer; ``auto``: the prompt was drawn.
        tokens, texts: the G responses' display tokens (EOS shown as ⏎) and decoded texts.
        lengths: [G] real tokens; ``truncated``: [G] no EOS within the length limit.
        rewards: [G] the verifier's rewards; ``shaped``: [G] what the advantages read (the entry's
            overlong shaping applied, if it has it).
        informative: the group's rewards are not all equal (a dynamic-sampling filter keeps it).
        advantages: [G, T] per token (GAE: its own per token; group-relative: the response's, repeated);
            ``adv_rows``: [G] the mean over the response's loss tokens (as the trainer's token view);
            ``per_token_advantage``: whether they vary along a response (GAE).
        mask: [G, T] 1 on the tokens in the loss (overlong filtering can drop a response);
            ``response_mask``: [G, T] 1 on every real response token.
        old_log_prob: [G, T] log π_old, the trainer's recompute before the first step (the ratio's
            denominator); ``log_prob``: after the first step (what the second sees); ``new_log_prob``:
            after the second step. 0 at padding.
        ratio: [G, T] the ratio the objective uses at the second step (the sequence's, repeated, for a
            sequence-level entry); ``token_ratio``: [G, T] each token's π / π_old.
        band: the trust band ``(low, high)`` of the ratio (``trust_band``), ``None`` without one.
        states: [G, T] what the trust region did (``token_states``: active / clipped / capped / gated /
            masked); ``gate``: [G, T] a soft gate's weight, or ``None``.
        grad: [G, T] d loss / d log π by autograd (``gradient_weights``); the push is its negative.
        per_token_loss, token_weight: [G, T] each token's loss term and its aggregation weight
            (``loss = Σ token_weight · per_token_loss``); ``loss``: that loss; ``loss_after``: the same
            loss at the policy after the second step; ``loss_agg_mode``, ``norm_length``: the
            aggregation the trainer used.
        first_update, second_update: the trainer's own records of its two optimizer steps
            (``Trainer.last_updates``: ratio_mean / min / max, clip_fraction, ...).
        group_size, seed: the sample's.
    """

    objective: str
    lr: float
    prompt: str
    answer: str
    auto: bool
    tokens: list[list[str]]
    texts: list[str]
    lengths: np.ndarray
    truncated: np.ndarray
    rewards: np.ndarray
    shaped: np.ndarray
    informative: bool
    advantages: np.ndarray
    adv_rows: np.ndarray
    per_token_advantage: bool
    mask: np.ndarray
    response_mask: np.ndarray
    old_log_prob: np.ndarray
    log_prob: np.ndarray
    new_log_prob: np.ndarray
    ratio: np.ndarray
    token_ratio: np.ndarray
    band: tuple[float, float] | None
    states: np.ndarray
    gate: np.ndarray | None
    grad: np.ndarray
    per_token_loss: np.ndarray
    token_weight: np.ndarray
    loss: float
    loss_after: float
    loss_agg_mode: str
    norm_length: float | None
    first_update: dict[str, float]
    second_update: dict[str, float]
    group_size: int
    seed: int

    @property
    def in_loss(self) -> np.ndarray:
        """[G, T] bool: the tokens in the loss."""
        return self.mask > 0

    @property
    def share(self) -> np.ndarray:
        """[G, T] each loss token's share of the aggregation weight (sums to 1 over the loss tokens; 0
        elsewhere): under token-mean every token alike, under seq-mean-token-mean each response alike."""
        w = np.where(self.in_loss, self.token_weight, 0.0)
        total = float(w.sum())
        return w / total if total > 0 else w

    @property
    def push(self) -> np.ndarray:
        """[G, T] −∂loss/∂log π: > 0 raises the token's probability at a gradient step (0 at padding)."""
        return np.where(self.response_mask > 0, -self.grad, 0.0) + 0.0

    @property
    def delta_log_prob(self) -> np.ndarray:
        """[G, T] how far the second optimizer step moved each token's log-probability (0 at padding)."""
        return np.where(self.response_mask > 0, self.new_log_prob - self.log_prob, 0.0)

    def state_share(self, state: str) -> float:
        """The share of loss tokens in ``state`` (``TOKEN_STATES``); 0 without loss tokens."""
        real = self.in_loss
        return float((self.states[real] == state).mean()) if real.any() else 0.0

    @property
    def clip_share(self) -> float:
        """The share of loss tokens the clip stops (state ``clipped``: zero gradient)."""
        return self.state_share("clipped")

    @property
    def moved_as_pushed(self) -> tuple[int, int]:
        """``(agree, pushed)``: of the loss tokens with a push, how many moved the way they were pushed at
        the second step (the optimizer moves weights every token shares, so not every one does)."""
        push, delta = self.push, self.delta_log_prob
        pushed = self.in_loss & (push != 0)
        agree = pushed & (np.sign(push) == np.sign(delta))
        return int(agree.sum()), int(pushed.sum())

    @property
    def first_order(self) -> float:
        """−Σ push · Δ log π over the loss tokens: the loss change the step's moves give to first order
        (the loss's gradient is the negative push; ``loss_after − loss`` to first order)."""
        return -float((self.push * self.delta_log_prob)[self.in_loss].sum()) + 0.0

    def frame(self) -> pd.DataFrame:
        """One row per real response token: ``response`` (1-based), ``position``, ``token``, ``reward``,
        ``advantage``, ``in_loss``, ``old_prob``, ``prob`` (after the first step), ``new_prob`` (after
        the second), ``token_ratio``, ``ratio`` (the objective's), ``state``, ``push``, ``per_token_loss``,
        ``token_weight``, ``share``, ``contribution`` (token_weight × per_token_loss), ``delta_log_prob``."""
        share, push, delta = self.share, self.push, self.delta_log_prob
        rows = []
        for i, tokens in enumerate(self.tokens):
            for j, token in enumerate(tokens):
                rows.append(
                    {
                        "response": response_number(i),
                        "position": j,
                        "token": token,
                        "reward": float(self.rewards[i]),
                        "advantage": float(self.advantages[i, j]),
                        "in_loss": bool(self.mask[i, j] > 0),
                        "old_prob": math.exp(self.old_log_prob[i, j]),
                        "prob": math.exp(self.log_prob[i, j]),
                        "new_prob": math.exp(self.new_log_prob[i, j]),
                        "token_ratio": float(self.token_ratio[i, j]),
                        "ratio": float(self.ratio[i, j]),
                        "state": str(self.states[i, j]),
                        "push": float(push[i, j]),
                        "per_token_loss": float(self.per_token_loss[i, j]),
                        "token_weight": float(self.token_weight[i, j]),
                        "share": float(share[i, j]),
                        "contribution": float(self.token_weight[i, j] * self.per_token_loss[i, j]),
                        "delta_log_prob": float(delta[i, j]),
                    }
                )
        frame = pd.DataFrame(rows)
        floats = frame.select_dtypes("float").columns
        frame[floats] = frame[floats] + 0.0  # no −0 in a table
        return frame


def _array(x: torch.Tensor) -> np.ndarray:
    return x.detach().to("cpu", torch.float64).numpy()


def replay(sample: Sample, objective: str = BASELINE, lr: float = DEFAULT_LR) -> Walk:
    """``sample``'s group under registry entry ``objective`` (its defaults), with the trainer's own update.

    A fresh copy of the shipped policy (and of it as the frozen reference, where the entry's KL term
    needs one) trains with a :class:`~rlviz.lm.trainer.Trainer` of ``objective``: ``mu = 2`` passes, one
    mini-batch (the whole group) each, AdamW at ``lr``, seeded with the sample's seed. Before the second
    optimizer step the replay records the policy's log-probs on the group (what that step sees) and
    the step's loss settings; after the update, the log-probs again. The same ``sample`` gives every
    objective the same responses and the same ``old_log_prob``.

    Raises:
        ValueError: naming ``objective`` (not in the registry) or ``lr``; or the trainer's own message.
    """
    from rlviz.core.objectives import gradient_weights, token_states
    from rlviz.lm.model import load_policy
    from rlviz.lm.trainer import TrainConfig, Trainer

    spec = get_algorithm(objective)
    lr = _check_lr(lr)
    G = sample.group_size
    config = TrainConfig(
        algorithm=objective,
        prompts_per_step=1,
        group_size=G,
        lr=lr,
        mu=MU,
        mini_batches=1,
        max_new_tokens=sample.max_new_tokens,
        temperature=sample.temperature,
        seed=sample.seed,
        measure_kl_ref=False,  # the reference runs only where the entry's KL term reads it
    )
    model, tokenizer = load_policy(None, "cpu")
    ref = None
    if (spec.defaults.get("beta") or 0) > 0:
        ref = load_policy(None, "cpu")[0].requires_grad_(False)
    trainer = Trainer(config, model, tokenizer, ref)
    rows = range(G)
    seen: dict[str, Any] = {}

    def second_step_sees(data, idx, epoch, params):
        """Before the second pass's optimizer step: the policy the first step made, on the group."""
        if epoch == MU - 1 and not seen:
            seen["log_prob"], _, seen["entropy"] = trainer.policy_log_prob(data, rows)
            seen["params"] = dict(params)

    batch = dataclasses.replace(sample.batch)  # the trainer sets rollout_log_prob on the batch it trains on
    _, _, data = trainer.update(batch, before_step=second_step_sees)  # the trainer's own loop, as in training
    after, _, _ = trainer.policy_log_prob(data, rows)
    if not seen:  # the first step had no loss token (every response filtered out): nothing moved
        seen["log_prob"], seen["entropy"], seen["params"] = after, None, trainer.loss_settings(data)
    extra = {"entropy": seen["entropy"]} if seen["entropy"] is not None else {}
    params = seen["params"]
    grad, out = gradient_weights(
        objective,
        seen["log_prob"],
        data.old_log_prob,
        data.advantages,
        data.mask,
        ref_log_prob=data.ref_log_prob,
        **params,
        **extra,
    )
    states = token_states(objective, out, data.mask)
    # the same loss at the policy after the second step: what that step did to it
    _, out_after = gradient_weights(
        objective,
        after,
        data.old_log_prob,
        data.advantages,
        data.mask,
        ref_log_prob=data.ref_log_prob,
        **params,
        **extra,
    )
    b = data.batch
    response_mask = b.response_mask
    adv = data.advantages if data.advantages.dim() == 2 else data.advantages[:, None].expand_as(response_mask)
    from rlviz.core.aggregation import masked_mean

    adv_rows = data.advantages if data.advantages.dim() == 1 else masked_mean(data.advantages, data.mask, dim=-1)
    real = response_mask > 0
    zero = torch.zeros_like(response_mask)
    band_params = {k: v for k, v in params.items() if k in spec.defaults}
    updates = trainer.last_updates
    return Walk(
        objective=objective,
        lr=lr,
        prompt=b.problems[0].prompt,
        answer=b.problems[0].answer,
        auto=sample.auto,
        tokens=[list(t) for t in b.tokens],
        texts=list(b.texts),
        lengths=b.response_lengths.cpu().numpy().astype(int),
        truncated=b.truncated.cpu().numpy().astype(bool),
        rewards=_array(b.rewards),
        shaped=_array(trainer.shaped_rewards(b)),
        informative=bool(len(set(b.rewards.tolist())) > 1),
        advantages=_array(torch.where(real, adv.to(zero), zero)),
        adv_rows=_array(adv_rows) + 0.0,
        per_token_advantage=data.advantages.dim() == 2,
        mask=_array(data.mask),
        response_mask=_array(response_mask),
        old_log_prob=_array(torch.where(real, data.old_log_prob, zero)),
        log_prob=_array(torch.where(real, seen["log_prob"], zero)),
        new_log_prob=_array(torch.where(real, after, zero)),
        ratio=_array(out.ratio),
        token_ratio=_array(torch.where(real, (seen["log_prob"] - data.old_log_prob).exp(), torch.ones_like(zero))),
        band=trust_band(objective, **band_params),
        states=np.asarray(states, dtype=object),
        gate=None if out.gate_weight is None else _array(out.gate_weight),
        grad=_array(grad),
        per_token_loss=_array(out.per_token_loss),
        token_weight=_array(out.token_weight),
        loss=float(out.loss.detach()),
        loss_after=float(out_after.loss.detach()),
        loss_agg_mode=str(params["loss_agg_mode"]),
        norm_length=params.get("norm_length"),
        first_update=dict(updates[0]) if updates else {},
        second_update=dict(updates[1]) if len(updates) > 1 else {},
        group_size=G,
        seed=sample.seed,
    )


# ---------------------------------------------------------------------------------- the predictions
# state: the page's settings (prediction_state): ``objective``, ``group_size``, ``prompt`` (normalised:
# "" when drawn or unreadable), ``lr``, ``seed``. The answers are computed by walk_at: the same
# sample_group and replay the page draws.


def _last(value: Any) -> Any:
    if isinstance(value, (list, tuple)):
        return value[-1] if value else None
    return value


def prediction_state(settings: Mapping[str, Any]) -> dict[str, Any]:
    """The predictions' state from the page's settings, typed (``st.session_state``) or as URL text:
    ``st_obj`` (a registry key; else GRPO), ``st_G`` (in :data:`GROUP_SIZES`; else the default), ``st_prompt``
    (a readable prompt, normalised, else ``""``: drawn), ``st_lr`` (one of :data:`LRS`; else the default)
    and the sidebar's ``seed`` (a whole number >= 0; else 0). What the page computes with, too."""
    from .weighting import parse_prompt

    objective = _last(settings.get("st_obj"))
    objective = objective if isinstance(objective, str) and objective in ALGORITHMS else BASELINE

    def number(value: Any, default: float) -> float:
        value = _last(value)
        if value is None or isinstance(value, bool):
            return default
        try:
            x = float(value)
        except (TypeError, ValueError):
            return default
        return x if math.isfinite(x) else default

    G = number(settings.get("st_G"), DEFAULT_GROUP_SIZE)
    G = int(G) if G == int(G) and GROUP_SIZES[0] <= G <= GROUP_SIZES[1] else DEFAULT_GROUP_SIZE
    lr = number(settings.get("st_lr"), DEFAULT_LR)
    lr = next((x for x in LRS if math.isclose(x, lr, rel_tol=1e-9)), DEFAULT_LR)
    seed = number(settings.get("seed"), 0)
    seed = int(seed) if seed == int(seed) and seed >= 0 else 0
    text = _last(settings.get("st_prompt"))
    try:
        problem = parse_prompt(None if text is None else str(text))
    except ValueError:
        problem = None
    return {
        "objective": objective,
        "group_size": G,
        "prompt": "" if problem is None else problem.prompt,
        "lr": lr,
        "seed": seed,
    }


@functools.lru_cache(maxsize=8)
def _walk_cached(seed: int, group_size: int, prompt: str, lr: float, objective: str, registry: int) -> Walk:
    return replay(sample_group(seed, group_size, prompt), objective, lr)


def walk_at(state: Mapping[str, Any]) -> Walk:
    """The :class:`Walk` at a prediction's ``state`` (:func:`prediction_state`): :func:`sample_group` then
    :func:`replay`, kept for the last few states (the registry entry's identity is part of the key)."""
    objective = str(state["objective"])
    spec = get_algorithm(objective)
    return _walk_cached(
        int(state["seed"]), int(state["group_size"]), str(state["prompt"]), float(state["lr"]), objective, id(spec)
    )


def advantage_applies(state: Mapping[str, Any]) -> bool:
    """The advantage question is asked where the entry gives one advantage per response (not GAE)."""
    return advantage_rule(str(state["objective"])) != "gae"


def clip_applies(state: Mapping[str, Any]) -> bool:
    """The clip question is asked where the entry has a hard clip (``"clipped"`` in its trust region)."""
    return "clipped" in get_algorithm(str(state["objective"])).trust_region


def answer_advantage(state: Mapping[str, Any]) -> float:
    """The advantage the entry gives response #1 (what the advantages stage draws)."""
    return float(walk_at(state).adv_rows[0]) + 0.0


def answer_clip(state: Mapping[str, Any]) -> float:
    """The share of loss tokens the entry's clip stops at the second optimizer step (``clipped``)."""
    return walk_at(state).clip_share


def fields_advantage(state: Mapping[str, Any]) -> dict[str, str]:
    """The question's words: the objective's title, G."""
    return {"title": get_algorithm(str(state["objective"])).title, "G": str(int(state["group_size"]))}


def fields_clip(state: Mapping[str, Any]) -> dict[str, str]:
    """The question's words: the objective's title and its trust band at its defaults."""
    name = str(state["objective"])
    band = trust_band(name)
    low, high = band if band is not None else (math.nan, math.nan)
    return {"title": get_algorithm(name).title, "low": f"{low:.4g}", "high": f"{high:.4g}"}


def explain_advantage(state: Mapping[str, Any]) -> dict[str, str]:
    """The explanation's numbers: the rewards the advantages read, their mean and (unbiased) std."""
    walk = walk_at(state)
    r = walk.shaped
    std = float(np.std(r, ddof=1)) if len(r) > 1 else 0.0
    return fields_advantage(state) | {
        "rewards": ", ".join(f"{x:g}" for x in r),
        "reward": f"{r[0]:g}",
        "mean": f"{float(np.mean(r)):.3g}",
        "std": f"{std:.3g}",
    }


def explain_clip(state: Mapping[str, Any]) -> dict[str, str]:
    """The explanation's numbers: how many loss tokens the clip stopped, of how many."""
    walk = walk_at(state)
    real = walk.in_loss
    return fields_clip(state) | {
        "clipped": str(int((walk.states[real] == "clipped").sum())),
        "n": str(int(real.sum())),
    }


# -- the page's words, in a language (the page draws them; no Streamlit here) ----------------------------


def fields(lang: str) -> dict[str, str]:
    """The page's parameters -> their widget's label in ``lang``, for the message about a bad value."""
    return {k: t(f"step.{k}", lang) for k in ("prompt", "group_size", "lr", "objective")}


def pct_text(x: float) -> str:
    """A share as a whole percentage ("<1%" for a small non-zero one; "—" for NaN)."""
    return "—" if not math.isfinite(x) else f"{x:.0%}" if x == 0 or x >= 0.01 else "<1%"


def value_text(value: Any, feature: str, lang: str) -> str:
    """A spec field's value (of ``feature``, :class:`Change`) as the change list shows it, in ``lang``."""
    if feature == "surrogate":
        baseline = ALGORITHMS[BASELINE].surrogate if BASELINE in ALGORITHMS else None
        title = ALGORITHMS[BASELINE].title if BASELINE in ALGORITHMS else BASELINE
        return t("step.value.baseline", lang, title=title) if value is baseline else ""
    if feature == "kl":
        beta, estimator = value
        return f"{beta:g}" if not beta else f"{beta:g} ({estimator})"
    if isinstance(value, bool):
        return t("step.value.on" if value else "step.value.off", lang)
    if value is None:
        return t("step.value.none", lang)
    if isinstance(value, tuple):
        return " + ".join(map(str, value)) or t("step.value.none", lang)
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def change_line(change: Change, lang: str) -> str:
    """One line of a stage's change list in ``lang``: the feature, the baseline's value and the objective's."""
    from rlviz.i18n import STRINGS

    key = f"step.feature.{change.feature}"
    feature = t(key, lang) if key in STRINGS else f"`{change.feature}`"
    own = t("step.value.own", lang)
    new = own if change.feature == "surrogate" else value_text(change.value, change.feature, lang)
    return t("step.change_line", lang, feature=feature, old=value_text(change.baseline, change.feature, lang), new=new)


# the stages whose figure shows the responses' tokens, one cell each (the others draw one bar per response)
TOKEN_STAGES: tuple[str, ...] = ("responses", "ratio", "clip", "weights", "aggregation", "update")


def token_note(walk: Walk, lang: str) -> str:
    """The line under a figure of ``walk``'s tokens (a stage of :data:`TOKEN_STAGES`) in ``lang``: what its
    marks are. The task's filler character (``rlviz.lm.tokenizer.FILLER``, named only when a response holds
    one) is a character the model may write before its digits, not padding: the verifier skips leading ones
    (``rlviz.lm.task.reward``), yet each is a sampled token in the loss (``Walk.mask``) like the digits.
    EOS, shown as ``rlviz.lm.rollout.EOS_DISPLAY``, is in the loss too; the padding after it is in neither
    the figure (``Walk.frame`` holds the real tokens only) nor the loss."""
    from rlviz.lm.rollout import EOS_DISPLAY
    from rlviz.lm.tokenizer import FILLER

    eos = t("step.tokens_eos", lang, eos=EOS_DISPLAY)
    if not any(FILLER in tokens for tokens in walk.tokens):
        return eos
    return t("step.tokens_filler", lang, filler=FILLER) + SENTENCE_SEPARATOR[lang] + eos


def row_labels(walk: Walk, with_advantage: bool, lang: str) -> dict[int, str]:
    """Response number (from 1, ``rlviz.numbering.response_number``, as every page numbers them; the frame's
    ``response`` column) -> its row label in ``lang``: its mark (right or wrong) and, with
    ``with_advantage``, its advantage."""
    marks = ["✓" if r > 0 else "✗" for r in walk.rewards]
    return {
        response_number(i): (
            t("step.row_adv", lang, i=response_number(i), mark=marks[i], adv=f"{walk.adv_rows[i]:+.2f}")
            if with_advantage
            else t("step.row", lang, i=response_number(i), mark=marks[i])
        )
        for i in range(walk.group_size)
    }


def stage_numbers(walk: Walk, stage: str, objective: str, held: Mapping[str, bool], lang: str) -> list[str]:
    """The numbers a stage's card reads out for ``walk`` under ``objective``, as sentences in ``lang``;
    ``held``: ``advantages`` / ``clip`` -> whether a question about it waits (its numbers are left out)."""
    spec = ALGORITHMS[objective]
    title, real = spec.title, walk.in_loss
    n_loss = int(real.sum())
    out: list[str] = []
    if stage == "responses":
        out.append(t("step.num.responses", lang, answer=walk.answer, lengths=", ".join(map(str, walk.lengths))))
        if walk.auto:
            out.append(t("step.num.auto", lang, n=AUTO_PROMPTS))
        if spec.train_defaults.get("dynamic_sampling"):
            key = "step.num.dynamic_kept" if walk.informative else "step.num.dynamic_dropped"
            out.append(t(key, lang, title=title))
    elif stage == "rewards":
        right = int((walk.rewards > 0).sum())
        mean = f"{float(walk.rewards.mean()):.3g}"
        out.append(t("step.num.rewards", lang, right=right, G=walk.group_size, mean=mean))
        if not np.allclose(walk.shaped, walk.rewards):
            out.append(t("step.num.shaped", lang, title=title, shaped=", ".join(f"{v:.3g}" for v in walk.shaped)))
    elif stage == "advantages" and not held.get("advantages"):
        r = walk.shaped
        out.append(
            t(
                "step.num.advantages",
                lang,
                rewards=", ".join(f"{x:g}" for x in r),
                mean=f"{float(np.mean(r)):.3g}",
                std=f"{float(np.std(r, ddof=1)):.3g}",
                values=", ".join(f"{a:+.3g}" for a in walk.adv_rows),
            )
        )
    elif stage == "ratio":
        ratios = walk.ratio[real] if n_loss else np.ones(1)
        first = walk.first_update
        out.append(
            t(
                "step.num.ratio",
                lang,
                low=f"{float(ratios.min()):.3g}",
                high=f"{float(ratios.max()):.3g}",
                first_low=f"{first.get('ratio_min', math.nan):.3g}",
                first_high=f"{first.get('ratio_max', math.nan):.3g}",
            )
        )
        if walk.band is not None:
            out.append(t("step.num.band", lang, low=f"{walk.band[0]:.5g}", high=f"{walk.band[1]:.5g}"))  # 1.0004, not 1
        else:
            out.append(t("step.num.no_band", lang, title=title))
        if spec.ratio_level == "sequence":
            out.append(t("step.num.sequence", lang, title=title))
    elif stage == "clip" and not held.get("clip"):
        parts = [
            t("step.num.clip_part", lang, state=t(f"step.state.{s}", lang), share=pct_text(walk.state_share(s)))
            for s in TOKEN_STATES
            if s != "masked" and (s == "active" or s in spec.trust_region)
        ]
        fraction = walk.second_update.get("clip_fraction", math.nan)
        out.append(
            t("step.num.clip", lang, n=n_loss, parts=LIST_SEPARATOR[lang].join(parts), fraction=pct_text(fraction))
        )
    elif stage == "weights":
        if not held.get("clip"):
            push = walk.push[real]
            top = float(np.abs(push).max()) if n_loss else 0.0
            out.append(t("step.num.weights", lang, zero=int((push == 0).sum()), n=n_loss, top=f"{top:.3g}"))
        beta = float(spec.defaults.get("beta") or 0.0)
        if beta > 0:
            out.append(t("step.num.kl", lang, beta=f"{beta:g}", estimator=spec.defaults.get("kl_estimator", "")))
    elif stage == "aggregation":
        share = walk.share.sum(axis=1)
        lengths = np.where(real.any(axis=1), walk.lengths, 0)
        long_i, short_i = int(np.argmax(lengths)), int(np.argmin(np.where(lengths > 0, lengths, 10**9)))
        lmax = "" if walk.norm_length is None else f"{walk.norm_length:g}"
        rule = t(f"step.agg.{walk.loss_agg_mode}", lang, N=n_loss, G=walk.group_size, lmax=lmax)
        long, short = pct(float(share[long_i])), pct(float(share[short_i]))  # 12.5%: one decimal, as the rule's 1/G
        out.append(t("step.num.aggregation", lang, loss=f"{walk.loss:.4g}", rule=rule, long=long, short=short))
    elif stage == "update":
        agree, pushed = walk.moved_as_pushed
        out.append(
            t(
                "step.num.update" if pushed else "step.num.update_none",
                lang,
                before=f"{walk.loss:.4g}",
                after=f"{walk.loss_after:.4g}",
                first=f"{walk.first_order:+.3g}",
                actual=f"{walk.loss_after - walk.loss:+.3g}",
                agree=agree,
                pushed=pushed,
            )
        )
    return out


def selectors_text(objective: str, lang: str) -> str:
    """The practitioners' line in ``lang``: the TRL and verl arguments that select ``objective``."""
    spec = ALGORITHMS[objective]
    selectors = []
    for framework, args in (("TRL", spec.trl), ("verl", spec.verl)):
        shown = [f"`{key}={value!r}`" for key, value in (args or {}).items() if not callable(value)]
        if shown:
            selectors.append(f"{framework} " + ", ".join(shown))
    return t("step.practitioners", lang, selector=LIST_SEPARATOR[lang].join(selectors) or t("step.selector_none", lang))
