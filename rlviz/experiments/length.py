"""Length penalties: DAPO's soft overlong punishment and overlong filtering, the Kimi k1.5 length
reward and the cosine length-scaled reward, as curves and on real rollouts of the tiny LM.

What the Length page asks for, as plain functions returning DataFrames / dataclasses. Every
penalty comes from :mod:`rlviz.core.shaping`, every advantage from
:func:`rlviz.core.advantages.group_advantages`, every gradient weight from autograd through
:func:`rlviz.core.objectives.policy_loss` (:func:`~rlviz.core.objectives.gradient_weights`).

Rollouts are sampled once at a generous limit (``SAMPLE_LIMIT`` tokens). For a maximum length
L_max below it, a longer response is what generation with limit L_max would have produced: its
first L_max tokens, without EOS (truncated), scored again by the verifier on that text.

Legend: n groups (prompts), G responses per group, B = n * G responses, T = L_max response width.
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import torch

from rlviz.core.advantages import group_advantages
from rlviz.core.objectives import gradient_weights
from rlviz.core.sampling import informative_groups
from rlviz.core.shaping import (
    _soft_overlong,
    cosine_length_reward,
    kimi_length_reward,
    overlong_filter_mask,
    overlong_penalty,
)
from rlviz.i18n import t
from rlviz.lm.task import Problem, reward
from rlviz.numbering import response_number

__all__ = [
    "GROUP_COLUMNS",
    "curves_text",
    "fields",
    "group_options",
    "group_table",
    "group_text",
    "rollouts_text",
    "schemes_table",
    "SAMPLE_LIMIT",
    "SCHEMES",
    "CosineParams",
    "LengthAnalysis",
    "ShapingSettings",
    "analyse",
    "apply_max_length",
    "kimi_curve",
    "penalty_curves",
    "sample_length_rollouts",
    "sweep",
]

SAMPLE_LIMIT = 32  # tokens: the generation limit rollouts are sampled at (EOS included)
SCHEMES = ("task", "dapo", "kimi", "cosine")  # reward schemes compared on the rollouts


@dataclass(frozen=True)
class CosineParams:
    """The cosine length-scaled reward's values (Yeo et al., arXiv 2502.03373; paper defaults)."""

    r0_correct: float = 2.0  # a right answer at length 0
    rl_correct: float = 1.0  # a right answer at length L_max
    r0_wrong: float = -10.0  # a wrong answer at length 0
    rl_wrong: float = 0.0  # a wrong answer at length L_max
    exceed_penalty: float = -10.0  # any response that reaches L_max


@dataclass(frozen=True)
class ShapingSettings:
    """What the user sets on the page."""

    max_length: int = 8  # L_max, tokens (verl data.max_response_length); the generation limit
    buffer_length: int = 4  # L_cache, tokens (verl reward.reward_kwargs.overlong_buffer_cfg.len)
    penalty_factor: float = 1.0  # DAPO penalty at L_max (verl ...overlong_buffer_cfg.penalty_factor)
    kimi_weight: float = 1.0  # weight of the Kimi length reward added to the task reward
    cosine: CosineParams = field(default_factory=CosineParams)  # cosine reward values


def _frame(columns: dict[str, object]) -> pd.DataFrame:
    """A DataFrame of ``columns`` (name -> array or list), every float column plus 0.0, so that a
    −0.0 (e.g. ``-f * 0``) reads 0 in a table or a CSV. Changes no value: −0.0 == 0.0."""
    return pd.DataFrame({c: _plus_zero(v) for c, v in columns.items()})


def _plus_zero(column):
    """A float column (Series or array, a pandas one included) plus 0.0 (no −0.0); any other column
    (a list of strings included) as it is."""
    dtype = getattr(column, "dtype", None)
    return column + 0.0 if dtype is not None and dtype.kind == "f" else column


# ---------------------------------------------------------------------------------------- curves
def penalty_curves(s: ShapingSettings, points: int = 401) -> pd.DataFrame:
    """DAPO's penalty and total rewards, and the cosine reward, on a fine grid of lengths.

    Lengths run from 0 to ``1.25 * L_max`` (at least L_max + 2) with the breakpoints
    ``L_max - L_cache`` and ``L_max`` included exactly.

    Returns:
        DataFrame with columns ``length`` (tokens), ``dapo_penalty``, ``dapo_right`` (= 1 +
        penalty, a right answer), ``dapo_wrong`` (= 0 + penalty), ``cosine_right``,
        ``cosine_wrong``.

    Raises:
        ValueError: as :func:`~rlviz.core.shaping.overlong_penalty` and
            :func:`~rlviz.core.shaping.cosine_length_reward` (the message names the parameter).
    """
    top = max(1.25 * s.max_length, s.max_length + 2.0)
    grid = np.unique(np.concatenate([np.linspace(0.0, top, points), [s.max_length - s.buffer_length, s.max_length]]))
    lengths = torch.tensor(grid, dtype=torch.float64)  # (N,)
    pen = overlong_penalty(lengths, s.max_length, s.buffer_length, s.penalty_factor).double()  # (N,)
    c = s.cosine
    kw = dict(
        r0_correct=c.r0_correct,
        rl_correct=c.rl_correct,
        r0_wrong=c.r0_wrong,
        rl_wrong=c.rl_wrong,
        exceed_penalty=c.exceed_penalty,
    )
    ones, zeros = torch.ones_like(lengths, dtype=torch.bool), torch.zeros_like(lengths, dtype=torch.bool)
    return _frame(
        {
            "length": grid,
            "dapo_penalty": pen.numpy(),
            "dapo_right": (1.0 + pen).numpy(),
            "dapo_wrong": (0.0 + pen).numpy(),
            "cosine_right": cosine_length_reward(lengths, ones, s.max_length, **kw).double().numpy(),
            "cosine_wrong": cosine_length_reward(lengths, zeros, s.max_length, **kw).double().numpy(),
        }
    )


def kimi_curve(min_length: int, max_length: int, weight: float = 1.0) -> pd.DataFrame:
    """The Kimi k1.5 length reward across one group whose lengths span ``[min_length, max_length]``.

    The grid itself is the group (its shortest and longest members are the endpoints), evaluated
    with :func:`~rlviz.core.shaping.kimi_length_reward` once as if all were right and once as if
    all were wrong, times ``weight``.

    Returns:
        DataFrame with columns ``length``, ``kimi_right``, ``kimi_wrong``.

    Raises:
        ValueError: ``min_length`` < 0 or ``max_length`` < ``min_length`` (named).
    """
    if not min_length >= 0:
        raise ValueError(f"min_length: must be >= 0, got {min_length}")
    if not max_length >= min_length:
        raise ValueError(f"max_length: must be >= min_length={min_length}, got {max_length}")
    grid = np.linspace(min_length, max_length, 101) if max_length > min_length else np.array([float(min_length)])
    lengths = torch.tensor(grid, dtype=torch.float64)[None]  # (1, N): one group
    right = kimi_length_reward(lengths, torch.ones_like(lengths, dtype=torch.bool))[0]
    wrong = kimi_length_reward(lengths, torch.zeros_like(lengths, dtype=torch.bool))[0]
    return _frame(
        {
            "length": grid,
            "kimi_right": weight * right.double().numpy(),
            "kimi_wrong": weight * wrong.double().numpy(),
        }
    )


# -------------------------------------------------------------------------------------- rollouts
def sample_length_rollouts(
    seed: int,
    n_prompts: int = 32,
    group_size: int = 8,
    limit: int = SAMPLE_LIMIT,
    temperature: float = 1.0,
    model_dir: str | None = None,
    device: str | None = "auto",
) -> pd.DataFrame:
    """Load the policy and sample ``group_size`` responses to each of ``n_prompts`` train prompts.

    Deterministic given ``seed`` (one CPU ``torch.Generator`` draws the prompts and the tokens).

    Returns:
        One row per response (B rows, groups contiguous) with columns ``group``, ``sample``,
        ``prompt``, ``answer``, ``level``, ``length`` (tokens, EOS included), ``finished`` (EOS
        within ``limit``), ``reward`` (the verifier's 0/1) and ``tokens`` (tuple of display
        strings, EOS shown as ⏎).

    Raises:
        ValueError: ``n_prompts`` < 1, or as :func:`rlviz.lm.rollout.sample_rollouts` /
            :func:`rlviz.lm.model.load_policy` (``group_size``, ``temperature``, ``model_dir``,
            ``device``).
    """
    from rlviz.lm.model import load_policy
    from rlviz.lm.rollout import sample_rollouts
    from rlviz.lm.task import sample_problems

    if not n_prompts >= 1:
        raise ValueError(f"n_prompts: must be >= 1, got {n_prompts}")
    model, tokenizer = load_policy(model_dir, None if device in (None, "auto") else device)
    gen = torch.Generator().manual_seed(int(seed))
    problems = sample_problems(int(n_prompts), gen)
    batch = sample_rollouts(  # lengths, rewards and tokens only: no scoring forward
        model, tokenizer, problems, int(group_size), int(limit), float(temperature), gen, score=False
    )
    B = len(batch.problems)
    return pd.DataFrame(
        {
            "group": np.arange(B) // group_size,
            "sample": np.arange(B) % group_size,
            "prompt": [p.prompt for p in batch.problems],
            "answer": [p.answer for p in batch.problems],
            "level": [p.level for p in batch.problems],
            "length": batch.response_lengths.cpu().numpy().astype(int),
            "finished": (~batch.truncated).cpu().numpy(),
            "reward": batch.rewards.cpu().numpy().astype(float),
            "tokens": [tuple(t) for t in batch.tokens],
        }
    )


@functools.lru_cache(maxsize=8192)
def _prefix_rewards(prompt: str, answer: str, level: int, tokens: tuple[str, ...]) -> tuple[float, ...]:
    """The verifier's reward (:func:`rlviz.lm.task.reward`) of each prefix of one response, as
    generation with a shorter limit would have left it: entry k is the first k tokens, without EOS
    (k = 0 .. len(tokens) - 1). Kept for the last 8192 responses (a pure function of its inputs), so
    that moving L_max re-scores nothing that was scored before."""
    problem = Problem(prompt, answer, level)
    return tuple(reward(problem, "".join(tokens[:k]), finished=False) for k in range(len(tokens)))


def _rescored(rollouts: pd.DataFrame, rows: np.ndarray | None = None) -> list[tuple[float, ...]]:
    """:func:`_prefix_rewards` of every response (B tuples), or of those where ``rows`` ([B] bool)
    is True."""
    columns = [rollouts[c].tolist() for c in ("prompt", "answer", "level", "tokens")]  # lists: iterating
    picked = zip(*columns) if rows is None else (v for v, keep in zip(zip(*columns), rows) if keep)  # pandas'
    return [_prefix_rewards(p, a, int(lv), tuple(t)) for p, a, lv, t in picked]  # is slower


def _check_max_length(rollouts: pd.DataFrame, max_length: int, _seen: tuple[int, bool] | None = None) -> None:
    """``ValueError`` naming ``max_length`` below 1 or beyond what the rollouts could reach;
    ``_seen``: their longest length and whether all finished, when the caller has them."""
    if not max_length >= 1:
        raise ValueError(f"max_length: must be >= 1, got {max_length}")
    limit, finished = _seen or (int(rollouts["length"].max()) if len(rollouts) else 0, rollouts["finished"].all())
    if not finished and max_length > limit:
        raise ValueError(f"max_length: must be <= the sampling limit {limit}, got {max_length}")


def apply_max_length(rollouts: pd.DataFrame, max_length: int) -> pd.DataFrame:
    """What generation with limit ``max_length`` would have produced from these rollouts.

    A response longer than ``max_length`` keeps its first ``max_length`` tokens, has no EOS, is
    ``truncated`` and is scored again by the verifier (:func:`rlviz.lm.task.reward`) on that text;
    a response that never finished is truncated too. Others are unchanged.

    Returns:
        A copy with ``length_sampled`` (the original length), ``length`` (<= ``max_length``),
        ``truncated`` (bool), ``reward`` (re-scored), ``correct`` (reward > 0) and ``response``
        (the text as the verifier sees it, EOS shown as ⏎).

    Raises:
        ValueError: ``max_length`` < 1 or above the longest length the rollouts could reach
            (named ``max_length``).
    """
    return pd.DataFrame(_cut_columns(rollouts, max_length), index=rollouts.index)


def _cut_columns(rollouts: pd.DataFrame, max_length: int) -> dict[str, object]:
    """The columns of :func:`apply_max_length`'s frame, in its order, as arrays (B each; the string
    columns pandas' own): :func:`analyse` adds its columns before making one frame."""
    _check_max_length(rollouts, max_length)
    sampled = rollouts["length"].to_numpy()  # (B,)
    cut = sampled > max_length  # (B,) longer than the new limit
    toks = [t[:max_length] if c else t for t, c in zip(rollouts["tokens"], cut)]
    rew = rollouts["reward"].to_numpy(dtype=float).copy()
    if cut.any():
        prefix = _rescored(rollouts, rows=cut)
        rew[cut] = [r[max_length] for r in prefix]
    out = {c: rollouts[c].array for c in rollouts.columns if c != "tokens"}
    out["length"] = np.minimum(sampled, max_length)
    out["reward"] = rew
    out["length_sampled"] = sampled
    out["truncated"] = cut | ~rollouts["finished"].to_numpy(dtype=bool)
    out["response"] = ["".join(t) for t in toks]
    out["correct"] = rew > 0
    return out


@dataclass
class LengthAnalysis:
    """The rollouts under one setting of L_max, L_cache and the penalty factor."""

    responses: pd.DataFrame  # one row per response (see :func:`analyse`)
    groups: pd.DataFrame  # one row per group (see :func:`analyse`)
    summary: dict[str, float]  # see :func:`analyse`
    schemes: pd.DataFrame  # one row per reward scheme in SCHEMES (see :func:`analyse`)


def _rewards(cut: dict[str, object], s: ShapingSettings, n: int, g: int) -> dict[str, torch.Tensor]:
    """[n, G] rewards of every scheme for responses already cut at ``s.max_length`` (``cut``:
    :func:`_cut_columns`)."""
    lengths = torch.tensor(np.asarray(cut["length"]), dtype=torch.float64)  # (B,)
    correct = torch.tensor(np.asarray(cut["correct"]), dtype=torch.bool)  # (B,)
    task = torch.tensor(np.asarray(cut["reward"]), dtype=torch.float64)  # (B,)
    pen = overlong_penalty(lengths, s.max_length, s.buffer_length, s.penalty_factor).double()  # (B,)
    kimi = kimi_length_reward(lengths.view(n, g), correct.view(n, g)).double()  # (n, G)
    c = s.cosine
    cos = cosine_length_reward(
        lengths, correct, s.max_length, c.r0_correct, c.rl_correct, c.r0_wrong, c.rl_wrong, c.exceed_penalty
    ).double()  # (B,)
    return {
        "task": task.view(n, g),
        "penalty": pen.view(n, g),
        "dapo": (task + pen).view(n, g),
        "kimi_term": kimi,
        "kimi": task.view(n, g) + s.kimi_weight * kimi,
        "cosine": cos.view(n, g),
    }


def _dense_rank(adv: torch.Tensor) -> torch.Tensor:
    """[n, G] rank of each advantage inside its group, 1 = highest, ties share the best rank."""
    a = adv.round(decimals=9)
    return (a[:, None, :] > a[:, :, None]).sum(-1) + 1  # (n, G): 1 + number strictly above


def _pair_changes(before: torch.Tensor, after: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """Per group, response pairs whose order flips (A_i > A_j before, A_i < A_j after) and pairs
    tied before but not after. Both [n] int, each unordered pair counted once."""
    b, a = before.round(decimals=9), after.round(decimals=9)
    db = torch.sign(b[:, :, None] - b[:, None, :])  # (n, G, G)
    da = torch.sign(a[:, :, None] - a[:, None, :])  # (n, G, G)
    reversed_ = ((db * da) < 0).sum(dim=(1, 2)) // 2  # (n,)
    broken = ((db == 0) & (da != 0)).sum(dim=(1, 2)) // 2  # (n,)
    return reversed_, broken


def _check_settings(s: ShapingSettings) -> None:
    if not (math.isfinite(s.kimi_weight) and s.kimi_weight >= 0):
        raise ValueError(f"kimi_weight: must be a finite number >= 0, got {s.kimi_weight}")
    if not math.isfinite(s.penalty_factor):
        raise ValueError(f"penalty_factor: must be a finite number >= 0, got {s.penalty_factor}")


def analyse(rollouts: pd.DataFrame, s: ShapingSettings, scale: str = "group") -> LengthAnalysis:
    """Cut the rollouts at L_max, shape their rewards and compute group advantages and the share of
    the DAPO loss gradient each response carries, with and without overlong filtering.

    Advantages: :func:`~rlviz.core.advantages.group_advantages` with ``scale`` for every scheme.
    Gradient weights: ``-d loss / d log pi`` from :func:`~rlviz.core.objectives.gradient_weights`
    of DAPO's loss (token-mean) at ratio 1 (the first, on-policy update), with the DAPO-shaped
    advantages; overlong filtering multiplies the response mask by
    :func:`~rlviz.core.shaping.overlong_filter_mask` (truncated responses leave the loss).

    Returns:
        :class:`LengthAnalysis` with

        - ``responses``: the columns of :func:`apply_max_length` plus ``penalty`` (DAPO),
          ``reward_<scheme>`` and ``adv_<scheme>`` for each scheme in ``SCHEMES``, ``kimi_term``
          (the unweighted Kimi length reward), ``rank_task`` / ``rank_dapo`` (1 = highest
          advantage in its group), ``masked`` (overlong filtering drops it), ``grad`` /
          ``grad_filtered`` (the response's summed gradient weight without / with filtering).
        - ``groups``: ``group``, ``prompt``, ``n_right``, ``n_truncated``, ``pairs_reversed``
          (response pairs whose advantage order DAPO shaping flips), ``ties_broken`` (pairs tied
          on the task reward that shaping separates), ``effect`` (sum of |A_dapo - A_task|).
        - ``summary``: ``mean_reward_task``, ``mean_reward_dapo``, ``truncated_share``,
          ``penalised_share`` (penalty < 0), ``masked_token_share`` (response tokens the filter
          removes), ``grad_share_truncated`` (share of the summed |gradient weight| on truncated
          responses without filtering; 0 with it), ``rank_changed_share`` (of groups).
        - ``schemes``: per scheme ``mean_reward``, ``signal_groups`` (share of groups whose
          rewards differ, i.e. nonzero advantages), ``length_adv_corr`` (correlation of length
          and advantage over responses in groups with a signal; NaN-free, 0 when undefined).

    Raises:
        ValueError: a setting out of range (named: ``max_length``, ``buffer_length``,
            ``penalty_factor``, ``kimi_weight``, a cosine value), or as ``group_advantages``.
    """
    _check_settings(s)
    if len(rollouts) == 0:
        raise ValueError("rollouts: empty")
    g = int(rollouts["sample"].max()) + 1
    n = len(rollouts) // g
    cut = _cut_columns(rollouts, s.max_length)  # apply_max_length's columns
    r = _rewards(cut, s, n, g)
    adv = {k: group_advantages(r[k], scale) for k in SCHEMES}  # (n, G) each
    added = {"penalty": r["penalty"].reshape(-1).numpy(), "kimi_term": r["kimi_term"].reshape(-1).numpy()}
    for k in SCHEMES:
        added[f"reward_{k}"] = r[k].reshape(-1).numpy()
        added[f"adv_{k}"] = adv[k].reshape(-1).numpy()
    rank_task, rank_dapo = _dense_rank(adv["task"]), _dense_rank(adv["dapo"])
    reversed_, broken = _pair_changes(adv["task"], adv["dapo"])  # (n,) each
    added["rank_task"] = rank_task.reshape(-1).numpy()
    added["rank_dapo"] = rank_dapo.reshape(-1).numpy()

    # DAPO's loss at ratio 1: which responses the gradient reaches, with and without filtering
    lengths = torch.tensor(cut["length"])  # (B,)
    truncated = torch.tensor(cut["truncated"])  # (B,)
    T = max(int(lengths.max()), 1)
    mask = (torch.arange(T)[None, :] < lengths[:, None]).double()  # (B, T)
    zeros = torch.zeros_like(mask)  # log pi = log pi_old: ratio 1
    a = adv["dapo"].reshape(-1)  # (B,)
    grad, _ = gradient_weights("dapo", zeros, zeros, a, mask)  # (B, T) d loss / d log pi
    filtered = mask * overlong_filter_mask(truncated).double()  # (B, T)
    grad_f, _ = gradient_weights("dapo", zeros, zeros, a, filtered)
    added["masked"] = truncated.numpy()
    added["grad"] = (-grad).sum(-1).numpy()  # (B,) summed gradient weight -dloss/dlog pi
    added["grad_filtered"] = (-grad_f).sum(-1).numpy()
    # one new frame (adding columns one at a time copies the frame each time), no -0.0 in it
    frame = pd.DataFrame({c: _plus_zero(v) for c, v in {**cut, **added}.items()}, index=rollouts.index)

    total_abs = float(grad.abs().sum())
    # groups are contiguous rows of G (as the [n, G] views above)
    groups = pd.DataFrame(
        {
            "group": np.arange(n),
            "prompt": frame["prompt"].to_numpy()[::g],
            "n_right": frame["correct"].to_numpy().reshape(n, g).sum(1).astype(int),
            "n_truncated": frame["truncated"].to_numpy().reshape(n, g).sum(1).astype(int),
            "pairs_reversed": reversed_.numpy().astype(int),
            "ties_broken": broken.numpy().astype(int),
            "effect": (adv["dapo"] - adv["task"]).abs().sum(dim=1).numpy() + 0.0,  # + 0.0: no -0.0
        }
    )
    summary = {
        "mean_reward_task": float(r["task"].mean()),
        "mean_reward_dapo": float(r["dapo"].mean()),
        "truncated_share": float(truncated.double().mean()),
        "penalised_share": float((r["penalty"] < 0).double().mean()),
        "masked_token_share": float((mask - filtered).sum() / mask.sum().clamp(min=1.0)),
        "grad_share_truncated": float(grad[truncated].abs().sum()) / total_abs if total_abs > 0 else 0.0,
        "pairs_reversed": int(reversed_.sum()),
        "ties_broken": int(broken.sum()),
    }
    per_scheme = {"mean_reward": [], "signal_groups": [], "length_adv_corr": []}
    length_np = frame["length"].to_numpy(dtype=float)
    for k in SCHEMES:
        signal = informative_groups(r[k])  # (n,)
        keep = signal.repeat_interleave(g).numpy()  # (B,)
        x, y = length_np[keep], adv[k].reshape(-1).numpy()[keep]
        corr = float(np.corrcoef(x, y)[0, 1]) if len(x) > 2 and x.std() > 0 and y.std() > 0 else 0.0
        per_scheme["mean_reward"].append(float(r[k].mean()))
        per_scheme["signal_groups"].append(float(signal.double().mean()))
        per_scheme["length_adv_corr"].append(corr)
    summary = {k: v + 0 for k, v in summary.items()}  # no -0.0 (int stays int)
    schemes = {"scheme": list(SCHEMES), **{c: np.array(v) + 0.0 for c, v in per_scheme.items()}}  # no -0.0
    return LengthAnalysis(responses=frame, groups=groups, summary=summary, schemes=pd.DataFrame(schemes))


def _summaries(task: torch.Tensor, pen: torch.Tensor, truncated: np.ndarray, n: int, g: int) -> dict[str, np.ndarray]:
    """The sweep's numbers for K settings at once, without gradients: ``task`` and ``pen`` [K, B]
    (the task reward and DAPO's penalty of the responses cut at each setting's L_max, groups
    contiguous), ``truncated`` [K, B] bool. Returns each summary key's [K] float64 values. Means of
    0/1 values are exact in any order; the shaped reward's mean is taken row by row, as
    :func:`analyse` takes it."""
    K = task.shape[0]
    dapo = task + pen  # (K, B)
    return {
        "mean_reward_task": task.mean(1).numpy(),  # (K,) of 0/1 rewards
        "mean_reward_dapo": np.array([float(row.mean()) for row in dapo]),
        "truncated_share": truncated.mean(1),
        "penalised_share": (pen < 0).double().mean(1).numpy(),
        "signal_task": informative_groups(task.reshape(K * n, g)).view(K, n).double().mean(1).numpy(),
        "signal_dapo": informative_groups(dapo.reshape(K * n, g)).view(K, n).double().mean(1).numpy(),
    }


def sweep(rollouts: pd.DataFrame, s: ShapingSettings, limit: int | None = None) -> pd.DataFrame:
    """The rollouts' numbers as L_max moves (L_cache held, capped at L_max) and as L_cache moves
    (L_max held), everything else as ``s``.

    Each L_max cuts the rollouts as :func:`apply_max_length` does (the verifier re-scores what it
    cuts: :func:`_prefix_rewards`); the penalty is :func:`~rlviz.core.shaping.overlong_penalty`.

    Returns:
        DataFrame with columns ``axis`` ("max_length" or "buffer_length"), ``value`` (tokens),
        ``max_length``, ``buffer_length`` and the keys of the summary: ``mean_reward_task``,
        ``mean_reward_dapo``, ``truncated_share``, ``penalised_share``, ``signal_task``,
        ``signal_dapo`` (shares of groups with nonzero advantages).

    Raises:
        ValueError: as :func:`analyse`.
    """
    _check_settings(s)
    if len(rollouts) == 0:
        raise ValueError("rollouts: empty")
    limit = int(rollouts["length"].max()) if limit is None else int(limit)
    g = int(rollouts["sample"].max()) + 1
    n = len(rollouts) // g
    c = s.cosine  # checked as analyse does (the sweep itself shows no cosine reward)
    cosine_length_reward(
        torch.ones(1),
        torch.ones(1, dtype=torch.bool),
        s.max_length,
        c.r0_correct,
        c.rl_correct,
        c.r0_wrong,
        c.rl_wrong,
        c.exceed_penalty,
    )
    sampled = rollouts["length"].to_numpy()  # (B,)
    unfinished = ~rollouts["finished"].to_numpy(dtype=bool)  # (B,)
    base = rollouts["reward"].to_numpy(dtype=float)  # (B,)
    seen = (int(sampled.max()), not unfinished.any())
    lmaxes = np.arange(1, limit + 1)  # (K,) the L_max axis
    for lmax in (1, min(limit, seen[0] + 1), s.max_length):  # apply_max_length's checks, first failure first
        _check_max_length(rollouts, int(lmax), seen)
    # the verifier's reward of each response cut at k tokens, k = 0 .. limit: [B, limit + 1]
    at = np.repeat(base[:, None], limit + 1, axis=1)
    for i, p in enumerate(_rescored(rollouts)):
        w = min(len(p), limit + 1)
        at[i, :w] = p[:w]
    lmaxes_all = np.append(lmaxes, s.max_length)  # (K + 1,) the last one for the L_cache axis
    cut = sampled[None, :] > lmaxes_all[:, None]  # (K + 1, B) as apply_max_length cuts
    task = torch.tensor(np.where(cut, at[:, lmaxes_all].T, base[None, :]), dtype=torch.float64)
    lengths = torch.tensor(np.minimum(sampled[None, :], lmaxes_all[:, None]), dtype=torch.float64)
    truncated = cut | unfinished[None, :]
    K = len(lmaxes)
    lcaches_by_lmax = [min(s.buffer_length, int(lmax)) for lmax in lmaxes]  # L_cache capped at each L_max
    # every setting at once: overlong_penalty checks the first (the others are valid when it is) and
    # its formula, _soft_overlong, computes them all, rounded to the default dtype as it rounds
    overlong_penalty(lengths[0], int(lmaxes[0]), lcaches_by_lmax[0], s.penalty_factor)
    dtype = torch.get_default_dtype()
    column = lambda values: torch.tensor(values, dtype=torch.float64)[:, None]  # noqa: E731  (K, 1)
    pen = (
        _soft_overlong(lengths[:K], column(lmaxes), column(lcaches_by_lmax), float(s.penalty_factor)).to(dtype).double()
    )
    by_lmax = _summaries(task[:K], pen, truncated[:K], n, g)
    lcache_axis = list(range(0, s.max_length + 1))  # the L_cache axis, L_max held
    pen = (
        _soft_overlong(lengths[K:], float(s.max_length), column(lcache_axis), float(s.penalty_factor))
        .to(dtype)
        .double()
    )
    L = len(lcache_axis)
    held = _summaries(task[K:].expand(L, -1), pen, np.repeat(truncated[K:], L, axis=0), n, g)
    # one column per key, the L_max axis' K rows and then the L_cache axis' L rows
    lmax_values = [int(v) for v in lmaxes]
    columns = {
        "axis": ["max_length"] * K + ["buffer_length"] * L,
        "value": lmax_values + lcache_axis,
        "max_length": lmax_values + [s.max_length] * L,
        "buffer_length": lcaches_by_lmax + lcache_axis,
        **{k: np.concatenate([by_lmax[k], held[k]]) for k in by_lmax},
    }
    return _frame(columns)


# -- the page's words and tables, in a language (the page draws them; no Streamlit here) ----------------

# the group table's columns: a column of ``analyse(...).responses`` -> its locale key (``length.<key>``)
GROUP_COLUMNS = {
    "sample": "col_sample",
    "response": "col_response",
    "length": "col_length",
    "outcome": "col_outcome",
    "reward_task": "col_task",
    "penalty": "col_penalty",
    "reward_dapo": "col_reward_dapo",
    "adv_task": "col_adv_task",
    "adv_dapo": "col_adv_dapo",
    "adv_kimi": "col_adv_kimi",
    "adv_cosine": "col_adv_cosine",
    "grad": "col_grad",
    "grad_filtered": "col_grad_filtered",
}


def fields(lang: str) -> dict[str, str]:
    """Library parameter -> the widget (or server option) that sets it, in ``lang``, for error messages."""
    keys = {
        "max_length": "lmax",
        "buffer_length": "lcache",
        "penalty_factor": "factor",
        "kimi_weight": "kimi_weight",
        "r0_correct": "cos_r0c",
        "rl_correct": "cos_rlc",
        "r0_wrong": "cos_r0w",
        "rl_wrong": "cos_rlw",
        "exceed_penalty": "cos_exceed",
        "n_prompts": "n_prompts",
        "group_size": "group_size",
        "temperature": "temperature",
    }
    out = {k: t(f"length.{v}", lang) for k, v in keys.items()}
    return out | {"device": t("side.device", lang), "model_dir": t("length.model_dir", lang)}


def group_table(rows: pd.DataFrame, shown, lang: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """One group's responses (``rows``: its rows of ``analyse(...).responses``) by length, then sample, with
    the advantages of the schemes in ``shown`` only; columns named in ``lang``. Returns ``(view, rounded)``:
    every digit (for the CSV) and rounded to 4 decimals for the page (never -0.0). Built from arrays, one
    frame at the end (pandas' per-column sort, rename and rounding cost a tenth of a slider's rerun)."""
    order = np.lexsort((rows["sample"].to_numpy(), rows["length"].to_numpy()))  # by length, then sample
    outcome = np.where(
        rows["truncated"].to_numpy(dtype=bool),
        t("length.truncated", lang),
        np.where(rows["correct"].to_numpy(dtype=bool), t("length.right", lang), t("length.wrong", lang)),
    )
    keep = [c for c in GROUP_COLUMNS if not (c.startswith("adv_") and c[4:] not in shown)]
    values = {c: (outcome if c == "outcome" else rows[c].to_numpy())[order] for c in keep}
    values["sample"] = np.array([response_number(int(s)) for s in values["sample"]])  # from #1, as every page
    names = {c: t(f"length.{GROUP_COLUMNS[c]}", lang) for c in keep}
    view = pd.DataFrame({names[c]: v for c, v in values.items()})
    rounded = pd.DataFrame({names[c]: np.round(v, 4) + 0.0 if v.dtype.kind == "f" else v for c, v in values.items()})
    return view, rounded


def group_options(groups: pd.DataFrame) -> tuple[list[int], dict[int, str]]:
    """The groups of ``analyse(...).groups``, most affected first, and their names ("#g · prompt")."""
    order = groups.sort_values(["effect", "group"], ascending=[False, True])
    names = {int(g): f"#{int(g)} · {p}" for g, p in zip(order["group"], order["prompt"])}
    return list(names), names


def group_text(info, group_size: int, factor: float, lang: str) -> str:
    """The sentence above a group's figure in ``lang``: its prompt, right and truncated answers, and what the
    penalty (``factor``) did to its order (``info``: the group's row of ``analyse(...).groups``)."""
    if factor == 0:
        effect = t("length.group_no_effect_zero", lang)
    elif info["pairs_reversed"] + info["ties_broken"] > 0:
        effect = t("length.group_effect", lang, reversed=int(info["pairs_reversed"]), broken=int(info["ties_broken"]))
    else:
        effect = t("length.group_no_effect", lang)
    text = t(
        "length.group_text",
        lang,
        prompt=f"`{info['prompt']}`",
        right=int(info["n_right"]),
        g=int(group_size),
        cut=int(info["n_truncated"]),
    )
    return text + " " + effect


def curves_text(settings: ShapingSettings, lang: str) -> str:
    """The reading of DAPO's penalty curve in ``lang``: where it starts, how deep it goes (none at factor 0, a
    step without a buffer)."""
    lmax, lcache, factor = settings.max_length, settings.buffer_length, settings.penalty_factor
    if factor == 0:
        return t("length.curves_text_zero", lang)
    if lcache == 0:
        return t("length.curves_text_step", lang, lmax=lmax, factor=f"{factor:g}")
    edge = f"{1 - factor:g}".replace("-", "−")
    return t("length.curves_text", lang, start=lmax - lcache, lmax=lmax, factor=f"{factor:g}", edge=edge)


def rollouts_text(summary: dict, settings: ShapingSettings, sample: tuple, lang: str) -> str:
    """The sentence above the rollouts' figures in ``lang``: what was sampled (``sample``: seed, prompts, group
    size, limit, temperature, ...) and the penalty's effect where there is one (``summary``: ``analyse``'s)."""
    lmax, lcache, factor = settings.max_length, settings.buffer_length, settings.penalty_factor
    if summary["penalised_share"] > 0:
        effect = t("length.rollouts_penalised", lang, share=f"{summary['penalised_share']:.0%}")
    elif factor == 0:
        effect = t("length.rollouts_no_penalty_zero", lang)
    else:
        effect = t("length.rollouts_no_penalty", lang, start=lmax - lcache)
    _, n, g, limit, temperature = sample[:5]
    return t("length.rollouts_text", lang, n=n, g=g, temp=f"{temperature:g}", limit=limit, lmax=lmax) + " " + effect


def schemes_table(schemes: pd.DataFrame, shown, lang: str) -> pd.DataFrame:
    """Each reward scheme of ``shown`` (``analyse(...).schemes`` indexed by scheme): its mean reward, share of
    groups with a signal (in percent) and the length-advantage correlation; columns named in ``lang``."""
    return pd.DataFrame(
        {
            t("length.col_scheme", lang): [t(f"length.scheme_{k}", lang) for k in shown],
            t("length.col_mean_reward", lang): [schemes.loc[k, "mean_reward"] for k in shown],
            # in percent, shown whole as the metric above shows it (one group of 32 is 3.125%)
            t("length.col_signal", lang): [100 * schemes.loc[k, "signal_groups"] for k in shown],
            t("length.col_corr", lang): [schemes.loc[k, "length_adv_corr"] for k in shown],
        }
    )
