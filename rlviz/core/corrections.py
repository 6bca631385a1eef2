"""Rollout corrections: when the sampler's probabilities are not the trainer's.

Real systems sample with an inference engine (vLLM, SGLang) and train with another, in other
precisions and kernels, so the probability a response was sampled with, ``rollout_log_prob``, is not
the trainer's ``old_log_prob`` for the same tokens. A correction turns their per-token log-ratio

    l_t = old_log_prob_t - rollout_log_prob_t          (log pi_train / pi_rollout)

into a weight per token that multiplies the per-token policy loss before aggregation, the way a
token mask does (:mod:`rlviz.core.masks`; the KL term is not weighted): a truncated importance
weight (TIS), an importance weight kept only inside a band and zero outside (MIS; IcePop's band), or
a rejection mask with weight 1 (the geometric-mean filter). The weights are detached: they change
the measure, not the objective (verl ``rollout_corr_helper.compute_rollout_correction_weights``).

Every entry of :data:`CORRECTIONS` is one such rule, with its sources and its TRL and verl names.
With an identical sampler (``l = 0`` everywhere) every weight is exactly 1.

Shapes: B responses, T padded response width; the sequence-level rules use one value per response,
broadcast along it. Sources: Yao et al. 2025, "Your efficient RL framework secretly brings you
off-policy RL training" (TIS); Ring-1T arXiv 2510.18855 (IcePop); TRL ``GRPOTrainer``
(``vllm_importance_sampling_mode``: ``token_truncate``, ``token_mask``, ``sequence_truncate``,
``sequence_mask``; ``vllm_importance_sampling_clip_min`` / ``_max``); verl
``algorithm.rollout_correction`` (``rollout_is`` token / sequence with ``rollout_is_threshold``, an
``"lower_upper"`` threshold for IcePop; ``rollout_rs`` for the rejection filters).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import torch

from .validate import check_tensor, compute_dtype

__all__ = [
    "CORRECTIONS",
    "SAFETY_BOUND",
    "CorrectionSpec",
    "cap_shares",
    "correction_band",
    "correction_weights",
    "get_correction",
]

SAFETY_BOUND = 20.0  # log-ratios (and their sums) are clamped to ±20 before exp (verl SAFETY_BOUND)


@dataclass(frozen=True)
class CorrectionSpec:
    """One rollout correction.

    Attributes:
        name: registry key (``token_tis``, ``sequence_mis``, ...).
        title: display name in English; ``title_zh`` in Chinese (:meth:`label`).
        level: ``"token"`` (one weight per token) or ``"sequence"`` (one per response).
        kind: ``"none"``, ``"truncate"`` (the ratio, clamped into [low, high]), ``"mask"`` (the ratio
            inside [low, high], 0 outside) or ``"reject"`` (weight 1 inside the band, 0 outside).
        statistic: what the band bounds: ``"ratio"`` (pi_train / pi_rollout of the token or the whole
            response) or ``"geo_mean"`` (the geometric mean of a response's pi_rollout / pi_train,
            exp of the mean k1 = -l: verl's ``seq_mean_k1``).
        paper: short citation; ``arxiv``: its arXiv id, ``""`` where the source is not a paper.
        summary: one line per language.
        trl: the TRL ``GRPOConfig`` arguments that select it (text), ``None`` where TRL has none.
        verl: the verl ``algorithm.rollout_correction`` settings that select it, ``None`` where none.
        low, high: the band's default bounds (``None``: unbounded on that side).
    """

    name: str
    title: str
    level: str
    kind: str
    statistic: str
    paper: str
    arxiv: str
    summary: dict[str, str]
    trl: str | None
    verl: str | None
    low: float | None = None
    high: float | None = None
    function: Callable | None = field(default=None, repr=False)
    title_zh: str = ""

    def label(self, lang: str) -> str:
        """The display name in ``lang`` (``"en"`` or ``"zh"``; English where no Chinese is set)."""
        return self.title_zh if lang == "zh" and self.title_zh else self.title

    def __post_init__(self):
        if self.level not in ("token", "sequence"):
            raise ValueError(f"level: must be 'token' or 'sequence', got {self.level!r}")
        if self.kind not in ("none", "truncate", "mask", "reject"):
            raise ValueError(f"kind: must be none, truncate, mask or reject, got {self.kind!r}")
        if self.statistic not in ("ratio", "geo_mean"):
            raise ValueError(f"statistic: must be 'ratio' or 'geo_mean', got {self.statistic!r}")


_YAO = "Yao et al. 2025, off-policy RL in efficient frameworks (TIS)"
_ICEPOP = "Ring-1T, arXiv 2510.18855 (IcePop)"
_TRL_MODE = "vllm_importance_sampling_mode='{}', vllm_importance_sampling_clip_min / _max"

_SPECS: tuple[CorrectionSpec, ...] = (
    CorrectionSpec(
        "none",
        "No correction",
        "token",
        "none",
        "ratio",
        "",
        "",
        {"en": "Train on the samples as if the trainer had drawn them.", "zh": "把样本当作训练端自己采的来训练。"},
        trl="vllm_importance_sampling_correction=False",
        verl="rollout_is=null, rollout_rs=null",
        title_zh="不修正",
    ),
    CorrectionSpec(
        "token_tis",
        "Token TIS",
        "token",
        "truncate",
        "ratio",
        _YAO,
        "",
        {
            "en": "Weigh each token by its ratio pi_train / pi_rollout, truncated at C (biased, low variance).",
            "zh": "每个 token 乘以它的比率 π_train / π_rollout，在 C 处截断（有偏、方差低）。",
        },
        trl=_TRL_MODE.format("token_truncate"),
        verl="rollout_is=token, rollout_is_threshold=C",
        high=2.0,
        title_zh="token 级 TIS",
    ),
    CorrectionSpec(
        "sequence_tis",
        "Sequence TIS",
        "sequence",
        "truncate",
        "ratio",
        _YAO,
        "",
        {
            "en": "Weigh each response by the product of its token ratios, truncated at C.",
            "zh": "每个回答乘以它所有 token 比率的乘积，在 C 处截断。",
        },
        trl=_TRL_MODE.format("sequence_truncate"),
        verl="rollout_is=sequence, rollout_is_threshold=C",
        high=2.0,
        title_zh="序列级 TIS",
    ),
    CorrectionSpec(
        "token_mis",
        "Token MIS (IcePop)",
        "token",
        "mask",
        "ratio",
        _ICEPOP,
        "2510.18855",
        {
            "en": "Keep a token's ratio as its weight inside [C_min, C_max]; drop the token outside.",
            "zh": "比率在 [C_min, C_max] 内的 token 以比率为权重，区间外的 token 丢弃。",
        },
        trl=_TRL_MODE.format("token_mask"),
        verl="rollout_is=token, rollout_is_threshold='C_min_C_max'",
        low=0.5,
        high=2.0,
        title_zh="token 级 MIS（IcePop）",
    ),
    CorrectionSpec(
        "sequence_mis",
        "Sequence MIS",
        "sequence",
        "mask",
        "ratio",
        _ICEPOP,
        "2510.18855",
        {
            "en": "Keep a response's ratio as its weight inside [C_min, C_max]; drop the response outside "
            "(TRL's default, with C_max = 3).",
            "zh": "回答的比率在 [C_min, C_max] 内时以它为权重，区间外整个回答丢弃（TRL 的默认，C_max = 3）。",
        },
        trl=_TRL_MODE.format("sequence_mask"),
        verl="rollout_is=sequence, rollout_is_threshold='C_min_C_max'",
        high=3.0,
        title_zh="序列级 MIS",
    ),
    CorrectionSpec(
        "geo_mean_rs",
        "Geometric-mean rejection",
        "sequence",
        "reject",
        "geo_mean",
        "verl rollout correction (seq_mean_k1)",
        "",
        {
            "en": "Drop a response whose geometric mean of pi_rollout / pi_train leaves [C_min, C_max]; keep "
            "the others with weight 1 (no importance weight).",
            "zh": "π_rollout / π_train 的几何平均超出 [C_min, C_max] 的回答被丢弃，其余权重为 1（不做重要性加权）。",
        },
        trl=None,
        verl="rollout_rs=seq_mean_k1, rollout_rs_threshold='C_min_C_max'",
        low=0.999,
        high=1.001,
        title_zh="几何平均拒绝",
    ),
)

CORRECTIONS: dict[str, CorrectionSpec] = {spec.name: spec for spec in _SPECS}


def get_correction(name: str) -> CorrectionSpec:
    """The correction registered as ``name``. Raises ``ValueError`` naming ``correction`` if unknown."""
    if not isinstance(name, str) or name not in CORRECTIONS:
        raise ValueError(f"correction: {name!r:.60} is not one of {', '.join(CORRECTIONS)}")
    return CORRECTIONS[name]


def _bound(label: str, value: Any) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
        raise ValueError(f"{label}: must be a finite number > 0 (or None), got {value!r}")
    return float(value)


def correction_band(
    name: str, low: float | None = None, high: float | None = None
) -> tuple[float | None, float | None]:
    """The band [C_min, C_max] correction ``name`` uses: ``low`` / ``high`` where given, else the
    entry's defaults (``None``: unbounded on that side).

    Raises:
        ValueError: naming ``correction`` (unknown), ``low`` / ``high`` (not a finite number > 0, or
            low > high).
    """
    spec = get_correction(name)
    lo = spec.low if low is None else _bound("low", low)
    hi = spec.high if high is None else _bound("high", high)
    if lo is not None and hi is not None and lo > hi:
        raise ValueError(f"low: must be <= high = {hi}, got {lo}")
    return lo, hi


def correction_weights(
    name: str,
    old_log_prob: torch.Tensor,
    rollout_log_prob: torch.Tensor,
    response_mask: torch.Tensor,
    low: float | None = None,
    high: float | None = None,
) -> tuple[torch.Tensor, torch.Tensor]:
    """The per-token weights of rollout correction ``name``.

    Args:
        name: one of :data:`CORRECTIONS`.
        old_log_prob: [B, T] the trainer's log-probs of the sampled tokens (nats).
        rollout_log_prob: [B, T] the sampler's log-probs of the same tokens.
        response_mask: [B, T], 1 for real response tokens, 0 for padding (padding may hold junk).
        low, high: the band [C_min, C_max] (> 0); ``None`` takes the entry's default. For a
            ``truncate`` rule the weight is clamped into it (TRL clamps from below only when C_min is
            given; verl's TIS has no lower bound), for ``mask`` and ``reject`` rules a token or
            response outside it gets weight 0.

    Returns:
        ``(weight, kept)``: [B, T] float (detached, 0 at padding) and [B, T] bool (the tokens whose
        weight is not 0 by the band). ``none`` gives 1 at every real token. The ratios are computed
        in float64; the weight comes back in the dtype of ``old_log_prob``, at least float32
        (a weight up to C_max does not fit float16 for a wide band).

    Raises:
        ValueError: naming ``correction`` (unknown), ``low`` / ``high`` (not > 0, or low > high),
            ``old_log_prob`` / ``rollout_log_prob`` / ``response_mask`` (not a tensor of numbers,
            shape, or NaN / inf at a response token).

    Sources: TRL ``GRPOTrainer._generate_and_score_completions`` (the ratio per token, or the sum of
    the log-ratios per response, exponentiated, then clamped or masked); verl
    ``rollout_corr_helper.compute_rollout_correction_weights`` (log-ratios clamped to ±20 before exp)
    and ``compute_rollout_rejection_mask`` (``seq_mean_k1``: the mean of -l against log bounds).
    """
    spec = get_correction(name)
    lo, hi = correction_band(name, low, high)
    old_log_prob = check_tensor(old_log_prob, "old_log_prob")
    rollout_log_prob = check_tensor(rollout_log_prob, "rollout_log_prob")
    response_mask = check_tensor(response_mask, "response_mask", floating=False)
    dtype = compute_dtype(old_log_prob)  # the trainer's dtype, at least float32
    for label, x in (("old_log_prob", old_log_prob), ("rollout_log_prob", rollout_log_prob)):
        if x.shape != response_mask.shape:
            raise ValueError(f"{label}: shape {tuple(x.shape)} differs from response_mask {tuple(response_mask.shape)}")
    real = response_mask > 0
    for label, x in (("old_log_prob", old_log_prob), ("rollout_log_prob", rollout_log_prob)):
        if not bool(torch.isfinite(x.detach()[real]).all()):
            raise ValueError(f"{label}: contains NaN or inf at response tokens")
    if spec.kind == "none":
        return real.double().to(dtype), real.clone()
    stat = _statistic(spec, old_log_prob, rollout_log_prob, real)  # (B, T) float64
    inside = torch.ones_like(real)
    if lo is not None:
        inside = inside & (stat >= lo)
    if hi is not None:
        inside = inside & (stat <= hi)
    if spec.kind == "truncate":
        weight = stat.clamp(min=lo, max=hi)
        kept = real.clone()
    elif spec.kind == "mask":
        weight = torch.where(inside, stat, torch.zeros_like(stat))
        kept = inside & real
    else:  # reject
        weight = inside.double()
        kept = inside & real
    weight = torch.where(real, weight, torch.zeros_like(weight))
    return weight.to(dtype), kept


def _statistic(spec: CorrectionSpec, old_log_prob, rollout_log_prob, real) -> torch.Tensor:
    """What ``spec``'s band bounds, per token [B, T] float64 (a response's value broadcast along it):
    the token ratio, the response's ratio (product of its token ratios) or verl's seq_mean_k1 geometric
    mean, each from log-ratios clamped to ±``SAFETY_BOUND`` before exp (verl)."""
    zero = torch.zeros((), dtype=torch.float64, device=old_log_prob.device)
    log_ratio = torch.where(real, old_log_prob.detach().double() - rollout_log_prob.detach().double(), zero)
    if spec.statistic == "geo_mean":
        n = real.sum(-1, keepdim=True).clamp(min=1)
        # verl seq_mean_k1: the mean of k1 = -l over the response, bounded in log space
        stat = torch.exp((-log_ratio.sum(-1, keepdim=True) / n).clamp(-SAFETY_BOUND, SAFETY_BOUND))  # (B, 1)
    elif spec.level == "sequence":
        stat = torch.exp(log_ratio.sum(-1, keepdim=True).clamp(-SAFETY_BOUND, SAFETY_BOUND))  # (B, 1)
    else:
        stat = torch.exp(log_ratio.clamp(-SAFETY_BOUND, SAFETY_BOUND))  # (B, T)
    return stat.expand_as(log_ratio)


def cap_shares(
    name: str,
    old_log_prob: torch.Tensor,
    rollout_log_prob: torch.Tensor,
    response_mask: torch.Tensor,
    low: float | None = None,
    high: float | None = None,
) -> tuple[float, float]:
    """How often a truncated-IS correction's cap binds: ``(token_share, response_share)``, the share of
    response tokens whose raw weight (before truncation) lies above C_max (or below C_min where the band
    has one), and the share of responses (with at least one real token) holding such a token. For a
    sequence-level rule every token of a capped response counts. A share near 0 means C never binds
    and TIS is plain IS; near 1, most of the batch trains on the constant C.

    Args and shapes as :func:`correction_weights` (``old_log_prob``, ``rollout_log_prob``,
    ``response_mask`` [B, T]; ``low`` / ``high`` the band, ``None``: the entry's default).

    Returns:
        two floats in [0, 1]; ``(0.0, 0.0)`` for a batch with no real token.

    Raises:
        ValueError: naming ``correction`` for an entry that does not truncate (``kind != "truncate"``),
            and as :func:`correction_weights` for the band and the tensors.

    Source: verl ``rollout_corr_helper.compute_is_metrics`` (``rollout_is_ratio_fraction_high`` /
    ``_low``: per token from the raw weights at token level, per sequence at sequence level).
    """
    spec = get_correction(name)
    if spec.kind != "truncate":
        raise ValueError(f"correction: {name!r} does not truncate a weight (kind {spec.kind!r}); cap_shares needs TIS")
    lo, hi = correction_band(name, low, high)
    correction_weights(name, old_log_prob, rollout_log_prob, response_mask, low, high)  # the same checks
    real = check_tensor(response_mask, "response_mask", floating=False) > 0
    stat = _statistic(
        spec, check_tensor(old_log_prob, "old_log_prob"), check_tensor(rollout_log_prob, "rollout_log_prob"), real
    )
    hit = torch.zeros_like(real)
    if hi is not None:
        hit = hit | (stat > hi)
    if lo is not None:
        hit = hit | (stat < lo)
    hit = hit & real
    rows = real.any(-1)  # (B,) responses with a real token
    n_tok, n_resp = int(real.sum()), int(rows.sum())
    if n_tok == 0:
        return 0.0, 0.0
    return float(hit.sum()) / n_tok, float(hit.any(-1)[rows].sum()) / n_resp
