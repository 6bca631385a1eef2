"""Token vs sequence weighting: how each objective spreads a group's gradient over its tokens.

Four experiments, one per section of the page, each evaluating ``rlviz.core.objectives.policy_loss``
and differentiating it with autograd (``gradient_weights``); nothing here re-derives a loss:

- :func:`aggregation_table`: one group at r = 1 (on-policy); the weight each token gets under each
  ``loss_agg_mode`` and under each algorithm's own aggregation (teaching claims 5 and 18).
- :func:`offpolicy_response`: one response with a few off-policy tokens; per-token gradient weights
  of any registry entries (by default GRPO, GSPO, GSPO-token, GMPO, SAPO, CISPO; claims 9, 10, 15,
  16, 23), each token's state in the one vocabulary of ``rlviz.core.objectives.TOKEN_STATES``.
- :func:`noise_sweep`: i.i.d. token log-ratio noise and the variance of GSPO's log s vs length;
  the share GSPO clips vs the share GRPO clips (claims 8, 11).
- :func:`real_group` + :func:`real_group_weights`: one group sampled from the tiny LM, one real
  optimizer step, the per-token weights of each algorithm on the moved policy.

Legend: B responses, T padded width (the longest response), L (or L_i) a response's length, k
off-policy ("outlier") tokens, N sampled responses per length, G group size. "push" is
−∂loss/∂log π of a token: positive means a gradient-descent step raises its log-probability.

Nothing here branches on an algorithm's name: what differs between objectives is read from their
``AlgorithmSpec`` (settings, ``trust_region``, ``ratio_level``) in ``ALGORITHMS`` at call time, so
an entry added to the registry takes part with no change here. The name tuples below are only the
defaults of the page's algorithm choices; :func:`noise_sweep` is about GSPO's and GRPO's ε by design
and names them (as does the default ``update_algorithm`` of :func:`real_group`).
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass

import numpy as np
import pandas as pd
import torch

from rlviz.core.advantages import group_advantages
from rlviz.core.aggregation import LOSS_AGG_MODES
from rlviz.core.objectives import (
    ALGORITHMS,
    TOKEN_STATES,
    get_algorithm,
    gradient_weights,
    policy_loss,
    token_states,
)
from rlviz.i18n import t
from rlviz.numbering import response_number, response_tag

__all__ = [
    "MAX_LENGTH",
    "MAX_RESPONSES",
    "NOISE_LENGTHS",
    "NOISE_PAIR",
    "OFFPOLICY_ALGORITHMS",
    "REAL_ALGORITHMS",
    "RealGroup",
    "aggregation_table",
    "fitted_slope",
    "format_number",
    "group_tensors",
    "no_negative_zero",
    "noise_sweep",
    "offpolicy_response",
    "offpolicy_summary",
    "parse_numbers",
    "parse_group",
    "parse_prompt",
    "real_group",
    "real_group_summary",
    "real_group_weights",
    "agg_fields",
    "aggregation_view",
    "algos_caption",
    "algos_intro",
    "join_text",
    "noise_fields",
    "noise_numbers",
    "noise_words",
    "off_fields",
    "offpolicy_reading",
    "offpolicy_words",
    "panel_note",
    "real_fields",
    "real_note",
    "real_prompt_text",
    "real_row_labels",
    "real_weights_view",
    "response_labels",
    "same_as",
    "share_text",
    "split_columns",
]

MAX_RESPONSES = 16  # responses in the hand-made group
MAX_LENGTH = 8192  # tokens per hand-made response
# Defaults of the page's algorithm choices (data only: every registry entry is offered and accepted)
OFFPOLICY_ALGORITHMS = ("grpo", "gspo", "gspo_token", "gmpo", "sapo", "cispo")
REAL_ALGORITHMS = ("grpo", "gspo", "sapo")
NOISE_LENGTHS = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024)
# The noise sweep's pair: an objective with a sequence-level ratio (its s is measured), then one
# with token ratios, each at its registry defaults
NOISE_PAIR = ("gspo", "grpo")
NO_CLIP = 1e6  # an ε so wide that no ratio reaches it ("without clipping")


# ---------------------------------------------------------------------------------------- inputs


def no_negative_zero(df: pd.DataFrame) -> pd.DataFrame:
    """``df`` with every -0.0 in its float columns turned into 0.0 (in place; returned), so tables,
    CSV exports and labels never read "-0"."""
    for column in df.columns:
        if df[column].dtype.kind == "f":
            df[column] = df[column] + 0.0  # IEEE: -0.0 + 0.0 == +0.0; every other value unchanged
    return df


def format_number(value: float, spec: str = ".3g") -> str:
    """``format(value, spec)`` without a minus sign on a number that displays as zero.

    ``-0.0`` and small negatives rounded away (``-0.001`` with ``".2f"``) would read "-0.00";
    they read "0.00". Other values format as ``format`` does (``format_number(-0.5, ".2f")`` is
    "-0.50"); with a ``+`` in ``spec`` a zero reads "+0.00". A NaN or inf (nothing to measure, e.g.
    the "other" tokens of a response whose tokens are all off-policy) reads "—".
    """
    if not math.isfinite(float(value)):
        return "—"
    text = format(float(value), spec)
    mantissa = re.split(r"[eE]", text, maxsplit=1)[0]
    if text.startswith("-") and not any(c in "123456789" for c in mantissa):
        return ("+" if "+" in spec else "") + text[1:]
    return text


def parse_numbers(text: str, field: str, integer: bool = False) -> list[float]:
    """Numbers from a comma- or space-separated text, e.g. ``"200, 10"``.

    Raises:
        ValueError: naming ``field``: empty text, an entry that is not a number, NaN or inf, a
            non-whole number where ``integer``, more than ``MAX_RESPONSES`` entries.
    """
    parts = [p for p in re.split(r"[,\s;，；]+", str(text).strip()) if p]
    if not parts:
        raise ValueError(f"{field}: empty; give numbers separated by commas, e.g. 200, 10")
    if len(parts) > MAX_RESPONSES:
        raise ValueError(f"{field}: at most {MAX_RESPONSES} responses, got {len(parts)}")
    values = []
    for p in parts:
        try:
            v = float(p.replace("−", "-"))
        except ValueError:
            raise ValueError(f"{field}: {p!r} is not a number") from None
        if not math.isfinite(v):
            raise ValueError(f"{field}: {p!r} is not a finite number")
        if integer and not v.is_integer():
            raise ValueError(f"{field}: {p!r} is not a whole number")
        values.append(int(v) if integer else v + 0.0)  # + 0.0: "-0" reads as 0
    return values


def parse_group(lengths_text: str, advantages_text: str) -> tuple[list[int], list[float]]:
    """Response lengths and advantages of a hand-made group, from text (``"200, 10"``, ``"-1, 1"``).

    Raises:
        ValueError: as :func:`parse_numbers` (field ``lengths`` or ``advantages``), a length below
            1 or above ``MAX_LENGTH``, or different counts of lengths and advantages.
    """
    lengths = parse_numbers(lengths_text, "lengths", integer=True)
    advantages = parse_numbers(advantages_text, "advantages")
    for n in lengths:
        if not 1 <= n <= MAX_LENGTH:
            raise ValueError(f"lengths: each length must be in [1, {MAX_LENGTH}], got {n}")
    if len(lengths) != len(advantages):
        raise ValueError(
            f"advantages: {len(advantages)} values for {len(lengths)} lengths; give one advantage per response"
        )
    return lengths, advantages


def group_tensors(lengths, advantages, log_ratio: torch.Tensor | None = None, dtype=torch.float64):
    """A right-padded batch for ``policy_loss``: ``(log_prob, old_log_prob, advantages, mask)``.

    Args:
        lengths: B response lengths (>= 1).
        advantages: B advantages, one per response.
        log_ratio: optional [B, T] log π − log π_old (T = max length); ``None``: on-policy (r = 1).

    Returns:
        ``log_prob`` [B, T] (= old + log_ratio at real tokens), ``old_log_prob`` [B, T] (log 0.5,
        an arbitrary real log-probability), ``advantages`` [B], ``response_mask`` [B, T] (1 on the
        first L_i positions of row i).
    """
    T = max(lengths)
    mask = (torch.arange(T)[None, :] < torch.tensor(lengths)[:, None]).to(dtype)  # (B, T)
    old = torch.full((len(lengths), T), math.log(0.5), dtype=dtype) * mask  # (B, T)
    lr = torch.zeros_like(old) if log_ratio is None else log_ratio.to(dtype) * mask
    return old + lr, old, torch.tensor(advantages, dtype=dtype), mask


def _overrides(name: str, norm_length: float | None = None, clip: bool = True) -> dict:
    """Settings passed to ``policy_loss`` for ``name``, decided by which settings its spec has (never
    by the name): β = 0 (no reference model here); ``norm_length`` (a constant length L_max, e.g.
    Dr.GRPO's) where it has one; with ``clip`` off, very wide ε and a dual clip c out of reach. A
    soft gate has no ε and stays as it is. Raises ``ValueError`` for an unknown name."""
    params = get_algorithm(name).defaults
    out: dict = {}
    if "beta" in params:
        out["beta"] = 0.0
    if "norm_length" in params and norm_length is not None:
        out["norm_length"] = float(norm_length)
    if not clip:
        out.update({key: NO_CLIP for key in ("epsilon_low", "epsilon_high") if key in params})
        if params.get("dual_clip_c") is not None:  # a dual clip on by default: move it out of reach
            out["dual_clip_c"] = NO_CLIP  # (not None: resolve_settings wants a number where the default is one)
    return out


def _mode_reference() -> str:
    """The registry entry whose surrogate carries the four ``loss_agg_mode`` rows of
    :func:`aggregation_table`: the first (registry order) that accepts a constant length
    ``norm_length`` and ``loss_agg_mode``, preferring a plain token-level clip in ratio space (the
    PPO / GRPO surrogate). At r = 1 every surrogate pushes a token by A × w, so the choice only
    has to accept the four modes. Read at call time. Raises ``RuntimeError`` when no entry accepts
    ``norm_length`` (the registry itself would be broken: nothing a user typed)."""
    usable = [n for n, s in ALGORITHMS.items() if {"norm_length", "loss_agg_mode"} <= set(s.defaults)]
    plain = [
        n
        for n in usable
        if ALGORITHMS[n].trust_region == {"clipped"}
        and ALGORITHMS[n].ratio_level == "token"
        and ALGORITHMS[n].clip_space == "ratio"
    ]
    if not usable:
        raise RuntimeError("no registered algorithm accepts norm_length and loss_agg_mode")
    return (plain or usable)[0]


# ---------------------------------------------------------------------------------------- 1. aggregation


def aggregation_table(lengths, advantages, norm_length: float) -> pd.DataFrame:
    """Per response: the weight of each of its tokens and its total weight, at r = 1 (on-policy).

    Two kinds of rows: ``kind == "mode"``, the PPO/GRPO clipped surrogate (of the first registry
    entry that accepts ``norm_length``, Dr.GRPO's) under each of the four ``loss_agg_mode``
    values; ``kind == "algorithm"``, every entry of ``ALGORITHMS`` at call time (all of them, in
    registry order) with its own default aggregation (``norm_length`` for those that take one).
    At r = 1 every surrogate's push is A × (aggregation weight), so the rows differ only by how
    they average.

    Args:
        lengths: B lengths L_i (tokens, >= 1); advantages: B advantages A_i.
        norm_length: L_max, the constant of ``seq-mean-token-sum-norm`` (Dr.GRPO; TRL
            ``max_completion_length``), in tokens; at least the longest response.

    Returns:
        DataFrame, one row per (kind, name, response): ``kind, name, mode, response, length,
        advantage, token_weight`` (w_{i,t} from ``PolicyLossOutput.token_weight``), ``weight_total``
        (Σ_t w_{i,t}), ``push_token`` (−∂loss/∂log π of each token, autograd; equal along the
        row), ``push_total`` (Σ_t push).

    Raises:
        ValueError: ``norm_length`` not finite or shorter than the longest response; bad lengths /
            advantages (see :func:`parse_group`).

    Sources: DAPO arXiv 2503.14476 §3.3 (token-level loss, the 200/10-token example in spirit);
    Dr.GRPO arXiv 2503.20783 §3.1 (length bias, constant L_max); verl ``agg_loss``.
    """
    if not lengths:
        raise ValueError("lengths: empty; give at least one response")
    if len(lengths) != len(advantages):
        raise ValueError(
            f"advantages: {len(advantages)} values for {len(lengths)} lengths; give one advantage per response"
        )
    if any(int(n) < 1 for n in lengths):
        raise ValueError(f"lengths: each length must be >= 1, got {list(lengths)}")
    if not (isinstance(norm_length, (int, float)) and math.isfinite(norm_length)):
        raise ValueError(f"norm_length: must be a finite number, got {norm_length!r}")
    if norm_length < max(lengths):
        raise ValueError(
            f"norm_length: L_max = {norm_length:g} is shorter than the longest response "
            f"({max(lengths)} tokens); the generation budget bounds every response"
        )
    lp, old, adv, mask = group_tensors(lengths, advantages)
    reference = _mode_reference()
    cases = [
        ("mode", mode, reference, {**_overrides(reference, norm_length), "loss_agg_mode": mode})
        for mode in LOSS_AGG_MODES
    ]
    cases += [("algorithm", name, name, _overrides(name, norm_length)) for name in list(ALGORITHMS)]
    rows = []
    for kind, label, algo, extra in cases:
        grad, out = gradient_weights(algo, lp, old, adv, mask, **extra)
        push = -grad + 0.0  # (B, T); + 0.0 turns -0.0 into 0.0
        w = out.token_weight  # (B, T)
        mode = extra.get("loss_agg_mode", get_algorithm(algo).defaults["loss_agg_mode"])
        for i, n in enumerate(lengths):
            rows.append(
                {
                    "kind": kind,
                    "name": label,
                    "mode": mode,
                    "response": i,
                    "length": int(n),
                    "advantage": float(adv[i]),
                    "token_weight": float(w[i, :n].mean()),
                    "weight_total": float(w[i, :n].sum()),
                    "push_token": float(push[i, :n].mean()),
                    "push_total": float(push[i, :n].sum()),
                }
            )
    return no_negative_zero(pd.DataFrame(rows))


# ---------------------------------------------------------------------------------------- 2. off-policy tokens


def _outlier_positions(length: int, n_outliers: int) -> list[int]:
    """k positions spread evenly over the response (the centres of k equal slices)."""
    return sorted({min(length - 1, int((j + 0.5) * length / n_outliers)) for j in range(n_outliers)})


def offpolicy_response(
    length: int = 50,
    n_outliers: int = 2,
    outlier_ratio: float = 0.5,
    advantage: float = -1.0,
    noise_std: float = 0.0,
    seed: int = 0,
    clip: bool = True,
    algorithms=OFFPOLICY_ALGORITHMS,
) -> pd.DataFrame:
    """One response of ``length`` tokens, ``n_outliers`` of them at ratio ``outlier_ratio``, the
    rest at r = 1 (times optional noise); each algorithm's push per token.

    Args:
        length: L >= 1 tokens.
        n_outliers: k in [0, L] off-policy tokens, spread evenly.
        outlier_ratio: their importance ratio r = π/π_old (> 0); "how far" from on-policy.
        advantage: A of the response (finite, not 0).
        noise_std: σ >= 0 of extra N(0, σ²) noise on every token's log-ratio, drawn from a
            ``torch.Generator`` seeded with ``seed``.
        clip: False replaces every ε by a very wide one (the objectives without clipping).
        algorithms: registry names (any entries of ``ALGORITHMS``).

    Returns:
        DataFrame, one row per (algorithm, position): ``algorithm, position, outlier, log_ratio,
        token_ratio`` (r_t), ``ratio_used`` (the ratio the algorithm's clip or gate sees: r_t, or
        GSPO's s, or GMPO's geometric mean), ``push`` (−∂loss/∂log π, autograd), ``push_on_policy``
        (the same at r = 1), ``relative`` (push / push_on_policy), ``clipped`` (the clip acted:
        ``PolicyLossOutput.clipped``), ``gate`` (the soft gate weight of a gated objective such as
        SAPO's f'(r), else NaN), ``state`` (``rlviz.core.objectives.token_states``, decided by the
        spec's ``trust_region``: ``active`` / ``clipped`` (zero gradient) / ``capped`` (bounded, not
        zero, e.g. CISPO) / ``gated`` (soft gate weight below 0.99, e.g. SAPO)).

    Raises:
        ValueError: naming ``length``, ``n_outliers``, ``outlier_ratio``, ``advantage`` or
            ``noise_std`` when out of range; an unknown algorithm.

    Sources: GRPO arXiv 2402.03300 eq. 3; GSPO arXiv 2507.18071 eq. 5-7 and §4.3; GMPO arXiv
    2507.20673; SAPO arXiv 2511.20347; CISPO arXiv 2506.13585 §3.1.
    """
    if not (isinstance(length, int) and length >= 1):
        raise ValueError(f"length: must be a whole number >= 1, got {length!r}")
    if not (isinstance(n_outliers, int) and 0 <= n_outliers <= length):
        raise ValueError(f"n_outliers: must be a whole number in [0, length = {length}], got {n_outliers!r}")
    if not (math.isfinite(outlier_ratio) and outlier_ratio > 0):
        raise ValueError(f"outlier_ratio: must be a finite number > 0, got {outlier_ratio}")
    if not (math.isfinite(advantage) and advantage != 0):
        raise ValueError(f"advantage: must be a finite number other than 0, got {advantage}")
    if not (math.isfinite(noise_std) and noise_std >= 0):
        raise ValueError(f"noise_std: must be a finite number >= 0, got {noise_std}")
    for name in algorithms:
        get_algorithm(name)
    positions = _outlier_positions(length, n_outliers) if n_outliers else []
    log_ratio = torch.zeros(1, length, dtype=torch.float64)  # (1, L)
    if noise_std > 0:
        gen = torch.Generator().manual_seed(int(seed))
        log_ratio += noise_std * torch.randn(1, length, generator=gen, dtype=torch.float64)
    log_ratio[0, positions] = math.log(outlier_ratio)
    lp, old, adv, mask = group_tensors([length], [advantage], log_ratio)
    outlier = np.zeros(length, dtype=bool)
    outlier[positions] = True
    columns: dict[str, list] = {key: [] for key in ("ratio_used", "push", "push_on_policy", "clipped", "gate", "state")}
    for name in algorithms:
        extra = _overrides(name, clip=clip)
        grad, out = gradient_weights(name, lp, old, adv, mask, **extra)
        columns["push"].append(-grad[0].numpy())  # (L,)
        columns["push_on_policy"].append(_on_policy_push(name, length, float(advantage), extra))  # r = 1 everywhere
        columns["ratio_used"].append(out.ratio[0].numpy())
        columns["clipped"].append(out.clipped[0].numpy().astype(bool))
        columns["gate"].append(out.gate_weight[0].numpy() if out.gate_weight is not None else np.full(length, np.nan))
        columns["state"].append(token_states(name, out, mask)[0].astype(str))  # (L,), from the spec's trust_region
    # one frame, algorithm by algorithm (each block in position order); + 0.0 turns -0.0 into 0.0
    k = len(algorithms)
    joined = {key: np.concatenate(parts) if parts else np.zeros(0) for key, parts in columns.items()}
    push, push0 = joined["push"].astype(float) + 0.0, joined["push_on_policy"].astype(float) + 0.0
    with np.errstate(divide="ignore", invalid="ignore"):  # 0 / 0 is NaN, as in pandas
        relative = push / push0 + 0.0
    lr = log_ratio[0].numpy()
    frame = pd.DataFrame(
        {
            "algorithm": pd.Series(np.repeat(np.asarray(list(algorithms), dtype=object), length), dtype="str"),
            "position": np.tile(np.arange(length), k),
            "outlier": np.tile(outlier, k),
            "log_ratio": np.tile(lr, k) + 0.0,
            "token_ratio": np.tile(np.exp(lr), k) + 0.0,
            "ratio_used": joined["ratio_used"].astype(float) + 0.0,
            "push": push,
            "push_on_policy": push0,
            "relative": relative,
            "clipped": joined["clipped"].astype(bool),
            "gate": joined["gate"].astype(float) + 0.0,
            "state": pd.Series(joined["state"], dtype="str"),
        }
    )
    return frame


@functools.lru_cache(maxsize=512)
def _on_policy_cached(name: str, spec_id: int, length: int, advantage: float, extra: tuple):
    spec = get_algorithm(name)
    _, old, adv, mask = group_tensors([length], [advantage])
    grad0, _ = gradient_weights(name, old, old, adv, mask, **dict(extra))
    push0 = -grad0[0].numpy()
    push0.flags.writeable = False
    return spec, push0


def _on_policy_push(name: str, length: int, advantage: float, extra: dict) -> np.ndarray:
    """The push of each token of an :func:`offpolicy_response` at r = 1 (autograd of ``policy_loss``
    on ``group_tensors([length], [advantage])`` with ``extra``), [L], read-only. It depends on
    neither the outlier ratio nor the noise, so it is kept (the last 512 settings) while those
    sliders move; a result is reused only for the very registry entry that computed it."""
    spec = get_algorithm(name)
    cached, push0 = _on_policy_cached(name, id(spec), length, advantage, tuple(sorted(extra.items())))
    if cached is not spec:  # another entry now under this name and address: compute afresh
        _, old, adv, mask = group_tensors([length], [advantage])
        grad0, _ = gradient_weights(name, old, old, adv, mask, **extra)
        return -grad0[0].numpy()
    return push0


def offpolicy_summary(df: pd.DataFrame) -> pd.DataFrame:
    """Per algorithm of an :func:`offpolicy_response` frame: ``algorithm, ratio_min, ratio_max``
    (the ratio its clip or gate sees), ``clip_fraction`` (share of tokens the clip acted on),
    ``grad_tokens`` (share of tokens with a non-zero push), ``total_relative`` (Σ push / Σ push at
    r = 1: the response's whole update relative to on-policy), ``outlier_relative`` and
    ``other_relative`` (mean relative push of the outliers / of the other tokens; NaN if none)."""
    rows = []
    # the frame split once into numpy columns per algorithm (NaN skipped, as pandas' reductions do)
    names = df["algorithm"].to_numpy()
    cols = {c: df[c].to_numpy() for c in ("ratio_used", "clipped", "push", "push_on_policy", "relative", "outlier")}
    for name in dict.fromkeys(names):
        at = names == name
        ratio, push, relative, outlier = (
            cols["ratio_used"][at],
            cols["push"][at],
            cols["relative"][at],
            cols["outlier"][at],
        )
        out, rest = relative[outlier], relative[~outlier]
        rows.append(
            {
                "algorithm": name,
                "ratio_min": _nan_reduce(np.nanmin, ratio),
                "ratio_max": _nan_reduce(np.nanmax, ratio),
                "clip_fraction": float(cols["clipped"][at].mean()),
                "grad_tokens": float((push != 0).mean()),
                "total_relative": float(np.nansum(push) / np.nansum(cols["push_on_policy"][at])),
                "outlier_relative": _nan_reduce(np.nanmean, out) if len(out) else math.nan,
                "other_relative": _nan_reduce(np.nanmean, rest) if len(rest) else math.nan,
            }
        )
    return no_negative_zero(pd.DataFrame(rows))


def _nan_reduce(fn, values: np.ndarray) -> float:
    """``fn`` (``np.nanmin``, ``np.nanmax``, ``np.nanmean``) of ``values``, NaN skipped; NaN, without a
    warning, when every value is NaN: what the pandas reduction gives, to the last bit (both sum with
    NaN read as 0)."""
    return float(fn(values)) if not np.isnan(values).all() else math.nan


# ---------------------------------------------------------------------------------------- 3. noise vs length


def noise_sweep(
    sigma: float = 0.02,
    n_responses: int = 1000,
    lengths=NOISE_LENGTHS,
    seed: int = 0,
    algorithms: tuple[str, str] = NOISE_PAIR,
) -> pd.DataFrame:
    """How i.i.d. token log-ratio noise averages out in a sequence-level ratio as length grows.

    For each length L: N responses whose token log-ratios are N(0, σ²) (a ``torch.Generator``
    seeded with ``seed``), advantages alternating +1 / −1 (so both clip sides count). The first of
    ``algorithms`` (a sequence-level ratio; by default GSPO) gives s_i (its ``policy_loss``'s
    ``ratio``) and the share of responses it clips (its ``clip_fraction``; all responses have
    length L, so the share of tokens equals the share of responses); the second's ``policy_loss``
    (by default GRPO's) on the same batch gives the share of tokens it clips. Each at its registry
    defaults, without KL.

    Returns:
        DataFrame, one row per L: ``length, var_log_s`` (sample variance of log s over the N
        responses), ``var_log_product`` (of log Π_t r_t = L log s: the ratio without the 1/|y|),
        ``var_log_s_times_length``, ``<algorithm>_clip_fraction`` for each of ``algorithms``,
        ``sigma``, ``n_responses``, ``<algorithm>_epsilon_high`` for each (the defaults used).

    Raises:
        ValueError: ``sigma`` not in (0, 1]; ``n_responses`` not in [2, 20000]; a length < 1; an
        unknown algorithm, or a first one whose ratio is not sequence-level.

    Source: GSPO arXiv 2507.18071 eq. 7 (s = geometric mean of token ratios) and §5.1 (ε ~ 3e-4
    vs GRPO's 0.2; GSPO clips far more tokens).
    """
    if not (math.isfinite(sigma) and 0 < sigma <= 1):
        raise ValueError(f"sigma: must be in (0, 1], got {sigma}")
    if not (isinstance(n_responses, int) and 2 <= n_responses <= 20000):
        raise ValueError(f"n_responses: must be a whole number in [2, 20000], got {n_responses!r}")
    if not lengths or any(int(n) < 1 for n in lengths):
        raise ValueError(f"lengths: each length must be >= 1, got {list(lengths)}")
    sequence, token = algorithms
    specs = {name: get_algorithm(name) for name in algorithms}
    if specs[sequence].ratio_level != "sequence":
        raise ValueError(f"algorithms: the first must have a sequence-level ratio, got {sequence!r}")
    gen = torch.Generator().manual_seed(int(seed))
    adv = torch.ones(n_responses, dtype=torch.float64)
    adv[1::2] = -1.0  # (N,) half A>0, half A<0
    rows = []
    for n in lengths:
        n = int(n)
        log_ratio = sigma * torch.randn(n_responses, n, generator=gen, dtype=torch.float64)  # (N, L)
        mask = torch.ones_like(log_ratio)
        old = torch.zeros_like(log_ratio)
        out = {name: policy_loss(name, log_ratio, old, adv, mask, beta=0.0) for name in algorithms}
        log_s = out[sequence].ratio[:, 0].log()  # (N,)
        var = float(log_s.var())
        rows.append(
            {
                "length": n,
                "var_log_s": var,
                "var_log_product": float((n * log_s).var()),
                "var_log_s_times_length": var * n,
                **{f"{name}_clip_fraction": out[name].clip_fraction for name in (sequence, token)},
                "sigma": sigma,
                "n_responses": n_responses,
                **{f"{name}_epsilon_high": specs[name].defaults.get("epsilon_high") for name in (sequence, token)},
            }
        )
    return no_negative_zero(pd.DataFrame(rows))


def fitted_slope(df: pd.DataFrame) -> float:
    """Least-squares slope of log var(log s) against log L in a :func:`noise_sweep` frame
    (−1 means var ∝ 1/L). NaN with fewer than two lengths."""
    if len(df) < 2:
        return math.nan
    return float(np.polyfit(np.log(df["length"]), np.log(df["var_log_s"]), 1)[0])


# ---------------------------------------------------------------------------------------- 4. real group

_PROMPT = re.compile(r"^\s*(\d{1,3})\s*\+\s*(\d{1,3})\s*=?\s*$")


def parse_prompt(text: str | None):
    """A task prompt typed by the user (``"37+5="``), as a ``rlviz.lm.task.Problem``; ``None`` for
    an empty text (let :func:`real_group` choose). Raises ``ValueError`` naming ``prompt``."""
    from rlviz.lm.task import make_problem

    if text is None or not str(text).strip():
        return None
    m = _PROMPT.match(str(text))
    if not m:
        raise ValueError(f"prompt: {text!r} is not an addition such as 37+5= (two numbers of up to 3 digits)")
    a, b = int(m.group(1)), int(m.group(2))
    digits = sorted((len(str(a)), len(str(b))))
    level = {(1, 1): 1, (1, 2): 2, (2, 2): 3}.get(tuple(digits), 4)
    return make_problem(a, b, level)


@dataclass
class RealGroup:
    """One group sampled from the tiny LM and moved by one real optimizer step (plain arrays).

    Attributes:
        prompt, answer: the task prompt and the expected (reversed) answer.
        tokens: G lists of display tokens (EOS shown as ⏎).
        texts: G decoded responses.
        rewards: [G] verifier rewards (1 right, 0 wrong).
        advantages: [G] group-relative advantages (GRPO, std-normalised).
        old_log_prob: [G, T] log π_old of the sampled tokens (the sampling policy).
        new_log_prob: [G, T] the same after the update; 0 at padding.
        mask: [G, T] 1.0 on real response tokens.
        lr: learning rate of the one AdamW step; ``update_algorithm``: whose loss made it.
        max_new_tokens: the response length limit (Dr.GRPO's constant L_max).
        auto_prompt: True when the prompt was chosen automatically.
    """

    prompt: str
    answer: str
    tokens: list[list[str]]
    texts: list[str]
    rewards: np.ndarray
    advantages: np.ndarray
    old_log_prob: np.ndarray
    new_log_prob: np.ndarray
    mask: np.ndarray
    lr: float
    update_algorithm: str
    max_new_tokens: int
    auto_prompt: bool

    @property
    def log_ratio_std(self) -> float:
        """Standard deviation of the token log-ratios log π_new − log π_old over real tokens."""
        real = self.mask > 0
        return float(np.std((self.new_log_prob - self.old_log_prob)[real], ddof=1)) if real.sum() > 1 else 0.0


def real_group(
    seed: int = 0,
    prompt: str | None = None,
    group_size: int = 8,
    lr: float = 3e-5,
    model_dir: str | None = None,
    device: str | None = None,
    update_algorithm: str = "grpo",
    max_new_tokens: int = 16,
    temperature: float = 1.0,
) -> RealGroup:
    """Sample G responses to one prompt, score them, take one optimizer step, recompute log-probs.

    Loads its own copy of the policy (``load_policy``), so nothing is shared between callers.
    With ``prompt`` empty, 8 prompts of levels 2-3 are drawn and the first whose group has mixed
    rewards is used (or the first, if none has). The update is one AdamW step on that group with
    ``update_algorithm``'s loss (β = 0); ``new_log_prob`` is then recomputed, so the ratios are
    those a second update on the same samples would see.

    Args:
        seed: seeds the one ``torch.Generator`` (prompts and samples).
        prompt: ``"a+b="`` (see :func:`parse_prompt`) or ``None`` / ``""``.
        group_size: G in [2, 64].
        lr: AdamW learning rate, finite and > 0 (this tiny model: 1e-5 moves log-ratios by ~0.02,
            1e-3 by ~2 nats).
        model_dir, device: as ``rlviz.lm.model.load_policy``.

    Raises:
        ValueError: naming ``prompt``, ``group_size``, ``lr``, ``model_dir`` or ``device``.
    """
    from rlviz.lm.model import load_policy
    from rlviz.lm.rollout import response_log_probs, sample_rollouts
    from rlviz.lm.task import sample_problems

    problem = parse_prompt(prompt)
    if not (isinstance(group_size, int) and 2 <= group_size <= 64):
        raise ValueError(f"group_size: must be a whole number in [2, 64], got {group_size!r}")
    if not (math.isfinite(lr) and lr > 0):
        raise ValueError(f"lr: must be a finite number > 0, got {lr}")
    get_algorithm(update_algorithm)
    model, tokenizer = load_policy(model_dir, device)
    gen = torch.Generator().manual_seed(int(seed))
    problems = [problem] if problem is not None else sample_problems(8, gen, levels={2: 1.0, 3: 1.0})
    batch = sample_rollouts(model, tokenizer, problems, group_size, max_new_tokens, temperature, gen)
    groups = batch.rewards.view(len(problems), group_size).cpu()  # (n, G)
    mixed = [g for g in range(len(problems)) if bool((groups[g] != groups[g, 0]).any())]
    g = mixed[0] if mixed else 0
    rows = torch.arange(g * group_size, (g + 1) * group_size)
    dev_rows = rows.to(batch.input_ids.device)
    T = int(batch.response_lengths[dev_rows].max())
    ids, attn, pos = (x[dev_rows] for x in (batch.input_ids, batch.attention_mask, batch.position_ids))
    ids, attn, pos = (x[:, : batch.prompt_width + T] for x in (ids, attn, pos))
    mask = batch.response_mask[dev_rows][:, :T]  # (G, T)
    old = batch.rollout_log_prob[dev_rows][:, :T]  # (G, T)
    adv = group_advantages(groups[g : g + 1]).reshape(-1).to(old)  # (G,)

    model.train()
    optimizer = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.0)
    log_prob, _ = response_log_probs(model, ids, attn, pos, batch.prompt_width, temperature)  # (G, T)
    loss = policy_loss(update_algorithm, log_prob, old, adv, mask, **_overrides(update_algorithm, max_new_tokens)).loss
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
    model.eval()
    with torch.no_grad():
        new, _ = response_log_probs(model, ids, attn, pos, batch.prompt_width, temperature)  # (G, T)
    return RealGroup(
        prompt=problems[g].prompt,
        answer=problems[g].answer,
        tokens=[batch.tokens[int(i)] for i in rows],
        texts=[batch.texts[int(i)] for i in rows],
        rewards=groups[g].numpy().astype(float),
        advantages=adv.cpu().numpy().astype(float) + 0.0,
        old_log_prob=(old * mask).cpu().numpy().astype(float),
        new_log_prob=(new * mask).cpu().numpy().astype(float),
        mask=mask.cpu().numpy().astype(float),
        lr=float(lr),
        update_algorithm=update_algorithm,
        max_new_tokens=int(max_new_tokens),
        auto_prompt=problem is None,
    )


def real_group_weights(group: RealGroup, algorithms=REAL_ALGORITHMS, after_update: bool = True) -> pd.DataFrame:
    """Each algorithm's push per token on a :class:`RealGroup` (autograd of ``policy_loss``).

    Args:
        algorithms: registry names.
        after_update: True: the ratios after the group's update (π_new / π_old); False: r = 1
            (the first, on-policy update: only the aggregation shows).

    Returns:
        Long DataFrame, one row per (algorithm, response, position) over real tokens:
        ``algorithm, response, position, token, weight`` (the push −∂loss/∂log π, the column
        ``rlviz.plots.token_weight_figure`` colours), ``advantage, reward, token_ratio,
        ratio_used, clipped``.
    """
    old = torch.tensor(group.old_log_prob, dtype=torch.float64)
    new = torch.tensor(group.new_log_prob, dtype=torch.float64) if after_update else old
    adv = torch.tensor(group.advantages, dtype=torch.float64)
    mask = torch.tensor(group.mask, dtype=torch.float64)
    token_ratio = torch.exp((new - old) * mask)
    rows = []
    for name in algorithms:
        grad, out = gradient_weights(name, new, old, adv, mask, **_overrides(name, group.max_new_tokens))
        for i, toks in enumerate(group.tokens):
            for j, tok in enumerate(toks):
                rows.append(
                    {
                        "algorithm": name,
                        "response": i,
                        "position": j,
                        "token": tok,
                        "weight": -float(grad[i, j]) + 0.0,
                        "advantage": float(adv[i]),
                        "reward": float(group.rewards[i]),
                        "token_ratio": float(token_ratio[i, j]),
                        "ratio_used": float(out.ratio[i, j]),
                        "clipped": bool(out.clipped[i, j]),
                    }
                )
    return no_negative_zero(pd.DataFrame(rows))


def real_group_summary(group: RealGroup, algorithms=REAL_ALGORITHMS) -> pd.DataFrame:
    """Per algorithm, after the update: ``algorithm, clip_fraction`` (``policy_loss``),
    ``grad_tokens`` (share of real tokens with a non-zero push), ``push_abs_mean`` (mean |push|)."""
    old = torch.tensor(group.old_log_prob, dtype=torch.float64)
    new = torch.tensor(group.new_log_prob, dtype=torch.float64)
    adv = torch.tensor(group.advantages, dtype=torch.float64)
    mask = torch.tensor(group.mask, dtype=torch.float64)
    real = mask > 0
    rows = []
    for name in algorithms:
        grad, out = gradient_weights(name, new, old, adv, mask, **_overrides(name, group.max_new_tokens))
        rows.append(
            {
                "algorithm": name,
                "clip_fraction": out.clip_fraction,
                "grad_tokens": float((grad[real] != 0).double().mean()),
                "push_abs_mean": float(grad[real].abs().mean()),
            }
        )
    return no_negative_zero(pd.DataFrame(rows))


# The hand-made group the page opens with (its text fields' defaults): one long and one short response.
DEFAULT_LENGTHS = "200, 10"
DEFAULT_ADVANTAGES = "-1, 1"


# ---------------------------------------------------------------------------------------- the page's words
# (the page draws them; each function takes the language and builds no Streamlit element)

# how a list of names (level 0) and a list of groups (level 1) are joined in running text, per language
SEPARATORS = {"en": (", ", "; "), "zh": ("、", "；")}


def join_text(names, lang: str, level: int = 0) -> str:
    """``names`` joined as running text in ``lang`` (level 0: names, 1: groups); "none" in ``lang`` if empty."""
    return SEPARATORS.get(lang, SEPARATORS["en"])[level].join(names) or t("word.none", lang)


def share_text(x: float) -> str:
    """A share as a whole percentage that never reads 0% or 100% when it is neither."""
    if 0 < x < 0.01:
        return "<1%"
    if 0.99 < x < 1:
        return ">99%"
    return f"{x:.0%}"


def agg_fields(lang: str) -> dict[str, str]:
    """The aggregation section's parameters (the first word of a library error) -> their widget's label."""
    keys = {"lengths": "lengths", "advantages": "advantages", "norm_length": "lmax"}
    return {k: t(f"weighting.{v}", lang) for k, v in keys.items()}


def off_fields(lang: str) -> dict[str, str]:
    """The off-policy section's parameters (:func:`offpolicy_response`'s) -> their widget's label."""
    keys = {"length": "length", "n_outliers": "n_outliers", "outlier_ratio": "outlier_ratio", "advantage": "sign"}
    return {k: t(f"weighting.{v}", lang) for k, v in keys.items()} | {"noise_std": t("weighting.noise", lang)}


def noise_fields(lang: str) -> dict[str, str]:
    """The noise section's parameters (:func:`noise_sweep`'s) -> their widget's label."""
    return {"sigma": t("weighting.sigma", lang), "n_responses": t("weighting.n_samples", lang)}


def real_fields(lang: str, model_dir: str | None) -> dict[str, str]:
    """The real group's parameters (:func:`real_group`'s and the sidebar's) -> their widget's label;
    ``model_dir``: the sidebar's model directory (``None``: the tiny LM)."""
    return {
        "prompt": t("weighting.prompt", lang),
        "group_size": t("weighting.group_size", lang),
        "lr": t("weighting.lr", lang),
        "device": t("side.device", lang),
        "model_dir": t("side.model", lang, model=model_dir or t("side.model_tiny", lang)),
    }


def response_labels(lengths, advantages, lang: str) -> dict[int, str]:
    """Response index (from 0) -> its label in ``lang`` for the aggregation figure: its number (from 1,
    ``rlviz.numbering.response_number``), length and advantage."""
    return {
        i: t("weighting.response_label", lang, i=response_number(i), n=n, adv=format_number(a, "+g"))
        for i, (n, a) in enumerate(zip(lengths, advantages))
    }


def aggregation_view(table: pd.DataFrame, lengths, rows: list[str]) -> tuple[pd.DataFrame, str, float]:
    """What the aggregation section writes out from :func:`aggregation_table`'s ``table``: the per-token
    weights as text, responses (labelled by ``rows``) x ``LOSS_AGG_MODES``; the claim's per-response weights
    under seq-mean-token-mean (``"#1: (1/L)·(1/B) = w; ..."``, numbered from 1); token-mean's weight (a float)."""
    modes = table[table["kind"] == "mode"]
    pivot = modes.pivot(index="response", columns="name", values="token_weight")[list(LOSS_AGG_MODES)]
    pivot.index = [rows[i] for i in pivot.index]
    smtm = modes[modes["name"] == "seq-mean-token-mean"]
    per_response = "; ".join(
        f"{response_tag(int(r.response))}: (1/{int(r.length)})·(1/{len(lengths)}) = {r.token_weight:.3g}"
        for r in smtm.itertuples()
    )
    tm = float(modes.loc[modes["name"] == "token-mean", "token_weight"].iloc[0])
    return pivot.map(lambda v: format_number(v, ".4g")), per_response, tm


def algos_intro(lang: str) -> str:
    """The sentence above the per-algorithm figure in ``lang``: how many registry entries, grouped by
    their default ``loss_agg_mode``."""
    groups = []
    for mode in LOSS_AGG_MODES:
        names = [spec.title for spec in ALGORITHMS.values() if spec.defaults.get("loss_agg_mode") == mode]
        if names:
            groups.append(t("weighting.mode_group", lang, mode=mode, names=join_text(names, lang)))
    return t("weighting.algos_intro", lang, n=len(ALGORITHMS), groups=join_text(groups, lang, 1))


def algos_caption(lang: str) -> str:
    """The caption under the per-algorithm figure in ``lang``: it names the sequence-level entries."""
    sequence = [spec.title for spec in ALGORITHMS.values() if spec.ratio_level == "sequence"]
    return t("weighting.algos_caption", lang, sequence=join_text(sequence, lang))


def split_columns(df: pd.DataFrame) -> dict[str, dict[str, np.ndarray]]:
    """The columns of an :func:`offpolicy_response` frame that the notes and the reading use, split once
    per algorithm (in the frame's order): ``{algorithm: {column: array}}`` (state, push, ratio_used, gate)."""
    names = df["algorithm"].to_numpy()
    columns = {c: df[c].to_numpy() for c in ("state", "push", "ratio_used", "gate")}
    return {a: {c: v[names == a] for c, v in columns.items()} for a in dict.fromkeys(names)}


def panel_note(d: dict[str, np.ndarray], total: float, lang: str) -> str:
    """The short note after an algorithm's name in its off-policy panel, in ``lang``: the share of its
    tokens in each state other than active (``TOKEN_STATES``), and its total push relative to on-policy.
    ``d``: that algorithm's columns (:func:`split_columns`)."""
    states = d["state"]
    shares = {s: float((states == s).mean()) for s in TOKEN_STATES if s != "active" and (states == s).any()}
    parts = [t(f"weighting.note_{s}", lang, share=share_text(share)) for s, share in shares.items()]
    states_text = " · ".join(parts) or t("weighting.note_active", lang)
    return t("weighting.panel_note", lang, states=states_text, total=format_number(total, ".2f"))


def offpolicy_words(panel_notes: dict[str, str], lang: str) -> dict[str, str]:
    """The ``labels`` of the off-policy figure (``rlviz.plots.weighting.offpolicy_figure``) in ``lang``:
    axes, the token states and each algorithm's panel note (``note.<algorithm>``)."""
    words = {k: t(f"weighting.{k}", lang) for k in ("relative", "ratio_used")}
    words |= {"position": t("word.position", lang), "push": t("word.grad_weight", lang)}
    words |= {f"state.{s}": t(f"weighting.state_{s}", lang) for s in TOKEN_STATES}
    return words | {f"note.{a}": note for a, note in panel_notes.items()}


def same_as(parts: dict[str, dict[str, np.ndarray]], algos: list[str]) -> dict[str, tuple[str, float]]:
    """For each algorithm (in the order of ``algos``) whose push equals, token by token and to
    rounding, that of an earlier one: ``{name: (the earlier one, largest difference)}``.
    ``parts``: :func:`split_columns` of the frame."""
    pushes = {a: parts[a]["push"] for a in algos}
    same: dict[str, tuple[str, float]] = {}
    for i, a in enumerate(algos):
        for b in algos[:i]:
            if b not in same and np.allclose(pushes[a], pushes[b], rtol=1e-9, atol=1e-15):
                same[a] = (b, float(np.abs(pushes[a] - pushes[b]).max(initial=0.0)))
                break
    return same


def _ordered(names) -> list[str]:
    """``names`` in registry order, each once; names not in the registry last, sorted (as
    ``rlviz.plots.ordered``, which this layer does not import)."""
    present = list(dict.fromkeys(names))
    return [a for a in ALGORITHMS if a in present] + sorted(a for a in present if a not in ALGORITHMS)


def offpolicy_reading(
    parts: dict[str, dict[str, np.ndarray]], summary: pd.DataFrame, length: int, k: int, lang: str
) -> str:
    """What the off-policy numbers say, in ``lang``, as a Markdown list: one sentence per algorithm of
    ``summary`` (:func:`offpolicy_summary`), chosen by what its spec says (``ratio_level``,
    ``trust_region``) and what its tokens did (their states in ``parts``, :func:`split_columns`), never by
    its name; an algorithm that pushes every token exactly as an earlier one does is said to match it.
    ``length``: the response's tokens, ``k`` of them off-policy."""
    titles = {n: spec.title for n, spec in ALGORITHMS.items()}
    by = {r.algorithm: r for r in summary.itertuples()}
    rest = length - k
    same = same_as(parts, _ordered(by))
    lines = []
    for algo in _ordered(by):
        spec, r = ALGORITHMS[algo], by[algo]
        name = titles.get(algo, algo)
        if algo in same:  # one sentence per distinct behaviour: this one repeats an earlier one
            first, diff = same[algo]
            lines.append(t("weighting.read_same", lang, name=name, first=titles.get(first, first), diff=f"{diff:.1e}"))
            continue
        d = parts[algo]
        rel = {"out": format_number(r.outlier_relative, ".2f"), "other": format_number(r.other_relative, ".2f")}
        n_clipped = int((d["state"] == "clipped").sum())
        s = f"{float(d['ratio_used'][0]):.4f}"
        free = d["push"][d["state"] != "clipped"]
        shared = len(free) > 0 and bool(np.allclose(free, free[0], rtol=1e-9, atol=1e-15))
        if spec.ratio_level == "sequence" and n_clipped == length:
            key = "weighting.read_seq_clipped" if k else "weighting.read_seq_clipped_none"
            lines.append(t(key, lang, name=name, s=s, k=k, rest=rest, L=length))
        elif spec.ratio_level == "sequence" and n_clipped == 0 and shared:
            key = "weighting.read_seq_kept" if k else "weighting.read_seq_kept_none"
            lines.append(t(key, lang, name=name, s=s, k=k, rest=rest, L=length))
        elif spec.ratio_level == "sequence" and shared:
            lines.append(t("weighting.read_seq_mixed", lang, name=name, n=n_clipped, L=length, s=s))
        elif "gated" in spec.trust_region and not np.isnan(d["gate"]).any():
            key = "weighting.read_gated" if k else "weighting.read_gated_none"
            gates = {"gmin": f"{d['gate'].min():.3f}", "gmax": f"{d['gate'].max():.3f}"}
            lines.append(t(key, lang, name=name, **gates, **rel))
        elif "capped" in spec.trust_region and k:
            n_capped = int((d["state"] == "capped").sum())
            grad = share_text(r.grad_tokens)
            lines.append(t("weighting.read_capped", lang, name=name, n=n_capped, L=length, grad=grad, **rel))
        elif k:
            lines.append(t("weighting.read_token", lang, name=name, **rel))
    return "\n".join(f"- {line}" for line in lines)


def noise_numbers(df: pd.DataFrame) -> dict[str, str]:
    """The numbers the noise section writes out from a :func:`noise_sweep` frame, formatted (no words:
    any language): each :data:`NOISE_PAIR` member's default ε (``eps.<algorithm>``) and those of the
    reading below the figure (slope, var(log s)·L, the longest length's std, clip shares, ε, product)."""
    last = df.iloc[-1]
    return {
        **{f"eps.{a}": f"{df[f'{a}_epsilon_high'].iloc[0]:g}" for a in NOISE_PAIR},
        "slope": f"{fitted_slope(df):.2f}",
        "varl": f"{df['var_log_s_times_length'].mean():.2g}",
        "L": int(last.length),
        "std": f"{math.sqrt(last.var_log_s):.1e}",
        "gspo": f"{last.gspo_clip_fraction:.0%}",
        "grpo": f"{last.grpo_clip_fraction:.2%}",
        "eps_gspo": f"{last.gspo_epsilon_high:g}",
        "eps_grpo": f"{last.grpo_epsilon_high:g}",
        "product": f"{math.sqrt(last.var_log_product):.2g}",
    }


def noise_words(numbers: dict[str, str], lang: str) -> dict[str, str]:
    """The ``labels`` of the noise figure (``rlviz.plots.weighting.noise_figure``) in ``lang``; ``numbers``:
    :func:`noise_numbers` (each clip line names its ε)."""
    keys = ("var_title", "clip_title", "length_axis", "var_s", "var_product")
    words = {k: t(f"weighting.{k}", lang) for k in keys}
    return words | {
        f"clip.{a}": t(
            f"weighting.clip_line.{ALGORITHMS[a].ratio_level}", lang, title=ALGORITHMS[a].title, eps=numbers[f"eps.{a}"]
        )
        for a in NOISE_PAIR
    }


def real_weights_view(weights: pd.DataFrame) -> tuple[float | None, dict[str, list[tuple[int, float]]]]:
    """From :func:`real_group_weights`: the largest |push| (``None`` when all are 0: each figure's own
    scale) and, per algorithm, each response's first ``ratio_used`` (the sequence ratio s its tokens share,
    for a sequence-level one) as ``[(response, ratio)]``."""
    finite = weights["weight"].abs()
    zmax = float(finite.max()) if len(finite) and float(finite.max()) > 0 else None
    firsts = weights.drop_duplicates(["algorithm", "response"])
    ratios = {
        a: list(zip(d["response"].tolist(), d["ratio_used"].tolist()))
        for a, d in firsts.groupby("algorithm", sort=False)
    }
    return zmax, ratios


def real_prompt_text(group: RealGroup, lang: str) -> str:
    """The sentence above the real group's figures in ``lang``: its prompt, answer, rewards, learning
    rate and the spread of the token log-ratios."""
    return t(
        "weighting.real_prompt",
        lang,
        prompt=group.prompt,
        answer=group.answer,
        right=int(group.rewards.sum()),
        G=len(group.rewards),
        auto=t("weighting.auto_note", lang) if group.auto_prompt else "",
        lr=f"{group.lr:g}",
        sigma=f"{group.log_ratio_std:.3f}",
    )


def real_row_labels(group: RealGroup, algo: str, ratios: dict, lang: str) -> dict[str, str]:
    """The rows of ``algo``'s token figure (``row.<i>``, ``i`` from 0) in ``lang``: each response's number
    (from 1, ``rlviz.numbering.response_number``), mark (right or wrong) and advantage, and for a sequence-level
    algorithm its ratio s (``ratios``: :func:`real_weights_view`'s)."""
    rows = {
        f"row.{i}": t(
            "weighting.row_label",
            lang,
            i=response_number(i),
            mark="✓" if group.rewards[i] > 0 else "✗",
            adv=format_number(a, "+.2f"),
        )
        for i, a in enumerate(group.advantages)
    }
    if ALGORITHMS[algo].ratio_level == "sequence":  # the sequence ratio s a response's tokens share
        for i, s in ratios.get(algo, []):
            rows[f"row.{i}"] += f" · s={s:.4f}"
    return rows


def real_note(summary: pd.DataFrame, algo: str, after: bool, lang: str) -> str:
    """The note after ``algo``'s name in ``lang``: after the update, the shares of its tokens clipped and
    with a gradient (``summary``: :func:`real_group_summary` indexed by algorithm); else that it is the
    first step."""
    if not after:
        return t("weighting.real_note_first", lang)
    clip, grad = summary.loc[algo, "clip_fraction"], summary.loc[algo, "grad_tokens"]
    return t("weighting.real_note", lang, clip=f"{clip:.0%}", grad=f"{grad:.0%}")
