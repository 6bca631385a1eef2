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

verl's ``RolloutCorrectionConfig`` classmethods (``decoupled_geo_rs``, ``bypass_ppo_clip``, ...) are
the entries of :data:`PRESETS`: each one an IS weight and a rejection filter from :data:`CORRECTIONS`,
in decoupled mode (the trainer's own pi_old) or bypass mode (the sampler's log-probs serve as pi_old,
and the loss is an objective of ``rlviz.core.objectives``); :func:`preset_weights` gives the per-token
weight the preset's correction part multiplies the per-token loss by.
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
    "VERL_RS_OPTION",
    "CorrectionSpec",
    "PRESETS",
    "PresetSpec",
    "cap_shares",
    "correction_band",
    "correction_statistic",
    "correction_weights",
    "get_correction",
    "get_preset",
    "preset_weights",
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
            response), ``"geo_mean"`` (the geometric mean of a response's pi_rollout / pi_train,
            exp of the mean k1 = -l: verl's ``seq_mean_k1``), ``"k1_sum"`` (a response's
            pi_rollout / pi_train, exp of the sum of k1 = -l: verl's ``seq_sum_k1``) or ``"k3_mean"``
            (the mean over a response's tokens of k3 = e^l - 1 - l, an estimate of
            KL(pi_rollout || pi_train) per token, in nats: verl's ``seq_mean_k3``).
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
        if self.statistic not in ("ratio", "geo_mean", "k1_sum", "k3_mean"):
            raise ValueError(f"statistic: must be ratio, geo_mean, k1_sum or k3_mean, got {self.statistic!r}")


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
    CorrectionSpec(
        "seq_ratio_rs",
        "Sequence-ratio rejection",
        "sequence",
        "reject",
        "k1_sum",
        "verl rollout correction (seq_sum_k1)",
        "",
        {
            "en": "Drop a response whose pi_rollout / pi_train (the product over its tokens) leaves [C_min, C_max]; "
            "keep the others with weight 1.",
            "zh": "整条回答的 π_rollout / π_train（各 token 之积）超出 [C_min, C_max] 时丢弃该回答，其余权重为 1。",
        },
        trl=None,
        verl="rollout_rs=seq_sum_k1, rollout_rs_threshold='C_min_C_max'",
        low=0.5,
        high=2.0,
        title_zh="序列比率拒绝",
    ),
    CorrectionSpec(
        "k3_rs",
        "K3 rejection",
        "sequence",
        "reject",
        "k3_mean",
        "verl rollout correction (seq_mean_k3)",
        "",
        {
            "en": "Drop a response whose mean k3 = e^l - 1 - l over its tokens (an estimate of the sampler-trainer "
            "KL per token, in nats) exceeds C_max; keep the others with weight 1.",
            "zh": "回答各 token 的 k3 = e^l − 1 − l 的平均（采样端与训练端每 token KL 的估计，单位 nats）超过 C_max 时"
            "丢弃该回答，其余权重为 1。",
        },
        trl=None,
        verl="rollout_rs=seq_mean_k3, rollout_rs_threshold=C_max",
        high=0.01,
        title_zh="K3 拒绝",
    ),
)

CORRECTIONS: dict[str, CorrectionSpec] = {spec.name: spec for spec in _SPECS}

# a rejection filter's statistic -> verl's ``rollout_rs`` option (rollout_corr_helper); a ``*_k1`` option
# takes a "lower_upper" threshold, the others an upper bound alone
VERL_RS_OPTION = {"geo_mean": "seq_mean_k1", "k1_sum": "seq_sum_k1", "k3_mean": "seq_mean_k3"}


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
    old_log_prob, rollout_log_prob, real = _checked(old_log_prob, rollout_log_prob, response_mask)
    dtype = compute_dtype(old_log_prob)  # the trainer's dtype, at least float32
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


def _checked(old_log_prob, rollout_log_prob, response_mask) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """The inputs of :func:`correction_weights`, checked: ``(old_log_prob, rollout_log_prob, real)``,
    ``real`` the [B, T] bool of response tokens. Raises ``ValueError`` naming the input."""
    old_log_prob = check_tensor(old_log_prob, "old_log_prob")
    rollout_log_prob = check_tensor(rollout_log_prob, "rollout_log_prob")
    response_mask = check_tensor(response_mask, "response_mask", floating=False)
    for label, x in (("old_log_prob", old_log_prob), ("rollout_log_prob", rollout_log_prob)):
        if x.shape != response_mask.shape:
            raise ValueError(f"{label}: shape {tuple(x.shape)} differs from response_mask {tuple(response_mask.shape)}")
    real = response_mask > 0
    for label, x in (("old_log_prob", old_log_prob), ("rollout_log_prob", rollout_log_prob)):
        if not bool(torch.isfinite(x.detach()[real]).all()):
            raise ValueError(f"{label}: contains NaN or inf at response tokens")
    return old_log_prob, rollout_log_prob, real


def correction_statistic(
    name: str, old_log_prob: torch.Tensor, rollout_log_prob: torch.Tensor, response_mask: torch.Tensor
) -> torch.Tensor:
    """What correction ``name``'s band bounds, the number :func:`correction_weights` compares with
    [C_min, C_max]: per token [B, T] float64, a sequence-level rule's value broadcast along its response
    (the token ratio pi_train / pi_rollout, the response's product of them, verl's seq_mean_k1 geometric
    mean of pi_rollout / pi_train, seq_sum_k1's pi_rollout / pi_train of the whole response, or
    seq_mean_k3's mean k3 in nats per token). Inputs as :func:`correction_weights`.

    Raises:
        ValueError: naming ``correction`` (unknown, or ``none``, which bounds nothing) or the input
            that is wrong, as :func:`correction_weights`.
    """
    spec = get_correction(name)
    if spec.kind == "none":
        raise ValueError(f"correction: {name!r} bounds no statistic")
    old_log_prob, rollout_log_prob, real = _checked(old_log_prob, rollout_log_prob, response_mask)
    return _statistic(spec, old_log_prob, rollout_log_prob, real)


def _statistic(spec: CorrectionSpec, old_log_prob, rollout_log_prob, real) -> torch.Tensor:
    """What ``spec``'s band bounds, per token [B, T] float64 (a response's value broadcast along it):
    the token ratio, the response's ratio (product of its token ratios) or verl's seq_mean_k1 geometric
    mean, each from log-ratios clamped to ±``SAFETY_BOUND`` before exp (verl); verl's seq_sum_k1 (the
    response's pi_rollout / pi_train) and seq_mean_k3 (the mean of k3 = e^l - 1 - l), from token log-ratios
    clamped to ±``SAFETY_BOUND`` first, as verl's ``compute_rollout_rejection_mask`` forms them."""
    zero = torch.zeros((), dtype=torch.float64, device=old_log_prob.device)
    log_ratio = torch.where(real, old_log_prob.detach().double() - rollout_log_prob.detach().double(), zero)
    if spec.statistic in ("k1_sum", "k3_mean"):
        safe = log_ratio.clamp(-SAFETY_BOUND, SAFETY_BOUND)  # verl clamps each token's l first here
        if spec.statistic == "k1_sum":
            # the band is on sum(k1) = sum(-l) in log space: exp of it keeps the ratio form of the bounds
            stat = torch.exp(-safe.sum(-1, keepdim=True))  # (B, 1)
        else:
            k3 = torch.where(real, torch.exp(safe) - 1.0 - safe, zero)
            stat = k3.sum(-1, keepdim=True) / real.sum(-1, keepdim=True).clamp(min=1)  # (B, 1)
    elif spec.statistic == "geo_mean":
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


# ----------------------------------------------------------------------------------------------
# verl's presets: RolloutCorrectionConfig classmethods, composed from the entries above


@dataclass(frozen=True)
class PresetSpec:
    """One of verl's rollout-correction presets (a ``RolloutCorrectionConfig`` classmethod), as what it
    sets: an importance weight, a rejection filter, and decoupled or bypass mode.

    Attributes:
        name: the classmethod's name (``decoupled_geo_rs``, ``bypass_ppo_clip``, ...), the registry key.
        title: display name in English; ``title_zh`` in Chinese (:meth:`label`).
        mode: ``"decoupled"`` (three policies: the trainer recomputes pi_old, and the correction is
            formed from pi_old / pi_rollout; any objective's per-token loss is weighted) or ``"bypass"``
            (two policies: the sampler's log-probs serve as pi_old, ``apply_bypass_mode``; the loss is
            :attr:`objective`).
        is_correction: the key of :data:`CORRECTIONS` whose weight multiplies the per-token loss
            (``token_tis``, ``sequence_tis``, ``token_mis``), ``None`` for none (or where the
            objective holds it).
        is_band: its band ``(low, high)`` at the classmethod's defaults.
        rs_correction: the key of :data:`CORRECTIONS` of kind ``"reject"`` whose filter replaces the
            response mask (a rejected response leaves the normaliser too), ``None`` for none.
        rs_band: its band ``(low, high)`` at the classmethod's defaults.
        objective: bypass mode: the rlviz objective (``rlviz.core.objectives.ALGORITHMS``) that is
            verl's bypass loss: ``ppo`` for ``loss_type="ppo_clip"`` (the ratio pi / pi_rollout, and
            no IS weight: the clip bounds it), ``bypass_pg`` for ``loss_type="reinforce"`` with a
            truncated IS weight (the objective holds it), ``gpg`` (-A log pi) for REINFORCE whose
            weight is the correction's or none; ``None`` in decoupled mode (any objective).
        objective_settings: the objective's settings the preset fixes, as ``(name, value)`` pairs.
        verl: the ``algorithm.rollout_correction`` settings the classmethod writes, at its defaults.
        summary: one line per language.
    """

    name: str
    title: str
    mode: str
    is_correction: str | None
    is_band: tuple[float | None, float | None]
    rs_correction: str | None
    rs_band: tuple[float | None, float | None]
    objective: str | None
    objective_settings: tuple[tuple[str, Any], ...]
    verl: str
    summary: dict[str, str]
    title_zh: str = ""

    def label(self, lang: str) -> str:
        """The display name in ``lang`` (``"en"`` or ``"zh"``; English where no Chinese is set)."""
        return self.title_zh if lang == "zh" and self.title_zh else self.title

    @property
    def importance_weight(self) -> tuple[str | None, tuple[float | None, float | None], bool]:
        """The importance weight the preset puts on the per-token loss, wherever it lives:
        ``(correction, band, in_objective)``: the key of :data:`CORRECTIONS` (``None`` for none), its band,
        and whether the bypass objective holds it (``bypass_pg``: ``bypass_is_level`` /
        ``bypass_is_cap``, verl ``compute_policy_loss_bypass_mode``) rather than the correction part
        (:func:`preset_weights`)."""
        if self.is_correction is not None:
            return self.is_correction, self.is_band, False
        settings = dict(self.objective_settings)
        if "bypass_is_level" in settings:
            return f"{settings['bypass_is_level']}_tis", (None, float(settings["bypass_is_cap"])), True
        return None, (None, None), False

    @property
    def loss_type(self) -> str | None:
        """verl's ``loss_type`` in bypass mode (``"ppo_clip"`` or ``"reinforce"``), ``None`` when decoupled."""
        if self.mode == "decoupled":
            return None
        return "ppo_clip" if self.objective == "ppo" else "reinforce"

    def __post_init__(self):
        if self.mode not in ("decoupled", "bypass"):
            raise ValueError(f"mode: must be 'decoupled' or 'bypass', got {self.mode!r}")
        if self.is_correction is not None and get_correction(self.is_correction).kind not in ("truncate", "mask"):
            raise ValueError(f"is_correction: {self.is_correction!r} is not an importance weight")
        if self.rs_correction is not None and get_correction(self.rs_correction).kind != "reject":
            raise ValueError(f"rs_correction: {self.rs_correction!r} is not a rejection filter")
        if (self.mode == "bypass") != (self.objective is not None):
            raise ValueError("objective: bypass mode names its objective, decoupled mode none")


_RC_CONFIG = "RolloutCorrectionConfig.{}()"
_GEO = ("geo_mean_rs", (0.999, 1.001))  # verl's Geo-RS default rs_threshold "0.999_1.001"
_K3 = ("k3_rs", (None, 0.01))  # verl's K3-RS default rs_threshold 0.01
_NO_RS = (None, (None, None))
_TOKEN_IS = ("token_tis", (None, 2.0))  # threshold 2.0 (TIS: clamped from above only)
_SEQ_IS = ("sequence_tis", (None, 2.0))
_NO_IS = (None, (None, None))


def _preset(name, title, title_zh, is_, rs, objective=None, settings=(), *, en, zh) -> PresetSpec:
    """One :data:`PRESETS` entry; its verl settings text is read off the pieces."""
    parts = []
    if is_[0] is not None and objective != "bypass_pg":
        spec = get_correction(is_[0])
        lo, hi = is_[1]
        threshold = f"'{lo:g}_{hi:g}'" if lo is not None else f"{hi:g}"
        parts.append(f"rollout_is={spec.level}, rollout_is_threshold={threshold}")
    elif objective == "bypass_pg":
        level, cap = dict(settings)["bypass_is_level"], dict(settings)["bypass_is_cap"]
        parts.append(f"rollout_is={level}, rollout_is_threshold={cap:g}")
    else:
        parts.append("rollout_is=null")
    if rs[0] is not None:
        lo, hi = rs[1]
        stat = VERL_RS_OPTION[get_correction(rs[0]).statistic]
        threshold = f"'{lo:g}_{hi:g}'" if lo is not None else f"{hi:g}"
        parts.append(f"rollout_rs={stat}, rollout_rs_threshold={threshold}")
    if objective is not None:
        loss = "ppo_clip" if objective == "ppo" else "reinforce"
        parts.append(f"bypass_mode=True, loss_type={loss}")
    return PresetSpec(
        name,
        title,
        "bypass" if objective is not None else "decoupled",
        is_[0],
        is_[1],
        rs[0],
        rs[1],
        objective,
        tuple(settings),
        ", ".join(parts),
        {"en": en, "zh": zh},
        title_zh=title_zh,
    )


_BYPASS_IS = (("bypass_is_level", "sequence"), ("bypass_is_cap", 2.0))
_BYPASS_TOKEN_IS = (("bypass_is_level", "token"), ("bypass_is_cap", 2.0))

# verl 0.9.1 trainer/config/algorithm.py, RolloutCorrectionConfig's classmethods, at their defaults
_PRESETS: tuple[PresetSpec, ...] = (
    _preset(
        "decoupled_token_is", "Token-TIS", "token 级 TIS", _TOKEN_IS, _NO_RS,
        en="Each token's ratio pi_old / pi_rollout, truncated at 2.",
        zh="每个 token 的比率 π_old / π_rollout，在 2 处截断。",
    ),
    _preset(
        "decoupled_seq_is", "Seq-TIS", "序列级 TIS", _SEQ_IS, _NO_RS,
        en="Each response's ratio (the product of its tokens'), truncated at 2.",
        zh="每条回答的比率（各 token 比率之积），在 2 处截断。",
    ),
    _preset(
        "decoupled_token_icepop", "Token IcePop", "token 级 IcePop", ("token_mis", (0.5, 5.0)), _NO_RS,
        en="Each token's ratio kept inside [0.5, 5], the token dropped outside.",
        zh="token 比率在 [0.5, 5] 内时保留为权重，区间外的 token 丢弃。",
    ),
    _preset(
        "decoupled_seq_is_rs", "Seq-MIS (Seq-TIS + sequence RS)", "序列级 MIS（序列级 TIS + 序列级拒绝）", _SEQ_IS, ("seq_ratio_rs", (0.5, 2.0)),
        en="Sequence IS truncated at 2 (Seq-TIS), and a response whose sequence ratio leaves [0.5, 2] rejected: "
        "inside the band it keeps its ratio as weight (verl rollout_is=sequence + rollout_rs=seq_sum_k1).",
        zh="序列级重要性权重在 2 处截断（序列级 TIS），序列比率超出 [0.5, 2] 的回答被拒绝：带内以比率本身为权重"
        "（verl rollout_is=sequence + rollout_rs=seq_sum_k1）。",
    ),
    _preset(
        "decoupled_geo_rs", "Geo-RS", "几何平均拒绝（Geo-RS）", _NO_IS, _GEO,
        en="No IS weight; a response whose geometric-mean ratio leaves [0.999, 1.001] is rejected.",
        zh="不加重要性权重；几何平均比率超出 [0.999, 1.001] 的回答被拒绝。",
    ),
    _preset(
        "decoupled_geo_rs_seq_tis", "Geo-RS + Seq-TIS", "Geo-RS + 序列级 TIS", _SEQ_IS, _GEO,
        en="Geo-RS rejection, and Seq-TIS at 2 on the responses kept.",
        zh="Geo-RS 拒绝，保留下来的回答再乘以序列级 TIS（上限 2）。",
    ),
    _preset(
        "decoupled_geo_rs_token_tis", "Geo-RS + Token-TIS", "Geo-RS + token 级 TIS", _TOKEN_IS, _GEO,
        en="Geo-RS rejection, and Token-TIS at 2 on the responses kept.",
        zh="Geo-RS 拒绝，保留下来的回答再乘以 token 级 TIS（上限 2）。",
    ),
    _preset(
        "decoupled_k3_rs", "K3-RS", "K3 拒绝（K3-RS）", _NO_IS, _K3,
        en="No IS weight; a response whose mean k3 exceeds 0.01 nats per token is rejected.",
        zh="不加重要性权重；每 token 平均 k3 超过 0.01 nats 的回答被拒绝。",
    ),
    _preset(
        "decoupled_k3_rs_seq_tis", "K3-RS + Seq-TIS", "K3-RS + 序列级 TIS", _SEQ_IS, _K3,
        en="K3-RS rejection, and Seq-TIS at 2 on the responses kept.",
        zh="K3-RS 拒绝，保留下来的回答再乘以序列级 TIS（上限 2）。",
    ),
    _preset(
        "decoupled_k3_rs_token_tis", "K3-RS + Token-TIS", "K3-RS + token 级 TIS", _TOKEN_IS, _K3,
        en="K3-RS rejection, and Token-TIS at 2 on the responses kept.",
        zh="K3-RS 拒绝，保留下来的回答再乘以 token 级 TIS（上限 2）。",
    ),
    _preset(
        "bypass_ppo_clip", "Bypass PPO-clip", "旁路 PPO-clip", _NO_IS, _NO_RS, "ppo",
        en="The sampler's log-probs as pi_old: PPO's clip acts on pi / pi_rollout itself, no IS weight.",
        zh="采样端的 log-prob 充当 π_old：PPO 的截断直接作用于 π / π_rollout，不再乘重要性权重。",
    ),
    _preset(
        "bypass_ppo_clip_geo_rs", "Bypass PPO-clip + Geo-RS", "旁路 PPO-clip + Geo-RS", _NO_IS, _GEO, "ppo",
        en="Bypass PPO-clip, with Geo-RS rejecting the responses too far from the sampler.",
        zh="Bypass PPO-clip，并用 Geo-RS 拒绝离采样端太远的回答。",
    ),
    _preset(
        "bypass_ppo_clip_k3_rs", "Bypass PPO-clip + K3-RS", "旁路 PPO-clip + K3-RS", _NO_IS, _K3, "ppo",
        en="Bypass PPO-clip, with K3-RS rejecting the responses too far from the sampler.",
        zh="Bypass PPO-clip，并用 K3-RS 拒绝离采样端太远的回答。",
    ),
    _preset(
        "bypass_pg_is", "Bypass REINFORCE + Seq-TIS", "旁路 REINFORCE + 序列级 TIS", _NO_IS, _NO_RS,
        "bypass_pg", _BYPASS_IS,
        en="REINFORCE weighted by the response's ratio pi / pi_rollout truncated at 2: rlviz's bypass_pg objective.",
        zh="以回答比率 π / π_rollout（截断于 2）加权的 REINFORCE：即 rlviz 的 bypass_pg 目标。",
    ),
    _preset(
        "bypass_pg_token_icepop", "Bypass REINFORCE + Token IcePop", "旁路 REINFORCE + token 级 IcePop",
        ("token_mis", (0.5, 5.0)), _NO_RS, "gpg",
        en="REINFORCE weighted by each token's ratio inside [0.5, 5], the token dropped outside.",
        zh="REINFORCE，每个 token 以 [0.5, 5] 内的比率加权，区间外的 token 丢弃。",
    ),
    _preset(
        "bypass_pg_geo_rs", "Bypass REINFORCE + Geo-RS", "旁路 REINFORCE + Geo-RS", _NO_IS, _GEO, "gpg",
        en="REINFORCE with no IS weight, Geo-RS rejecting the responses too far from the sampler.",
        zh="不加重要性权重的 REINFORCE，用 Geo-RS 拒绝离采样端太远的回答。",
    ),
    _preset(
        "bypass_pg_geo_rs_seq_tis", "Bypass REINFORCE + Geo-RS + Seq-TIS", "旁路 REINFORCE + Geo-RS + 序列级 TIS",
        _NO_IS, _GEO, "bypass_pg", _BYPASS_IS,
        en="rlviz's bypass_pg objective (Seq-TIS at 2) on the responses Geo-RS keeps.",
        zh="rlviz 的 bypass_pg 目标（序列级 TIS，上限 2），只作用于 Geo-RS 保留的回答。",
    ),
    _preset(
        "bypass_pg_geo_rs_token_tis", "Bypass REINFORCE + Geo-RS + Token-TIS",
        "旁路 REINFORCE + Geo-RS + token 级 TIS", _NO_IS, _GEO, "bypass_pg", _BYPASS_TOKEN_IS,
        en="rlviz's bypass_pg objective (Token-TIS at 2) on the responses Geo-RS keeps.",
        zh="rlviz 的 bypass_pg 目标（token 级 TIS，上限 2），只作用于 Geo-RS 保留的回答。",
    ),
)  # fmt: skip

PRESETS: dict[str, PresetSpec] = {spec.name: spec for spec in _PRESETS}


def get_preset(name: str) -> PresetSpec:
    """The preset registered as ``name``. Raises ``ValueError`` naming ``preset`` if unknown."""
    if not isinstance(name, str) or name not in PRESETS:
        raise ValueError(f"preset: {name!r:.60} is not one of {', '.join(PRESETS)}")
    return PRESETS[name]


def preset_weights(
    name: str,
    old_log_prob: torch.Tensor,
    rollout_log_prob: torch.Tensor,
    response_mask: torch.Tensor,
    is_band: tuple[float | None, float | None] | None = None,
    rs_band: tuple[float | None, float | None] | None = None,
) -> tuple[torch.Tensor, torch.Tensor]:
    """The per-token weight preset ``name``'s correction part puts on the per-token loss: its IS weight
    (1 where it has none) times its rejection filter's kept mask, each from :func:`correction_weights`
    at the preset's bands, as verl's ``compute_rollout_correction_and_rejection_mask`` forms them (the
    IS weights and the modified response mask) and the loss multiplies them. An IS weight that the
    bypass objective holds (``bypass_pg``) is the objective's, not in this weight.

    Decoupled mode forms both from pi_old (the trainer's) against pi_rollout; bypass mode from the
    current policy pi against pi_rollout (verl ``compute_policy_loss_bypass_mode``): pass the policy's
    log-probs as ``old_log_prob`` there (before the first update of a step they are pi_old's).

    Args:
        name: one of :data:`PRESETS`.
        old_log_prob, rollout_log_prob, response_mask: [B, T] as :func:`correction_weights`.
        is_band, rs_band: ``(low, high)`` in place of the preset's IS / rejection band (the
            classmethod's ``threshold`` / ``rs_threshold`` arguments); ``None``: its defaults.

    Returns:
        ``(weight, kept)``: [B, T] float (detached, 0 at padding and at rejected tokens) and [B, T] bool
        (the real tokens the preset keeps).

    Raises:
        ValueError: naming ``preset`` (unknown), ``low`` / ``high`` for a band as
            :func:`correction_band`, and as :func:`correction_weights` for the tensors.

    Source: verl 0.9.1 ``trainer/config/algorithm.py`` (``RolloutCorrectionConfig`` classmethods) and
    ``trainer/ppo/rollout_corr_helper.py`` (``compute_rollout_correction_and_rejection_mask``).
    """
    spec = get_preset(name)
    weight, kept = correction_weights("none", old_log_prob, rollout_log_prob, response_mask)
    if spec.is_correction is not None:
        band = spec.is_band if is_band is None else is_band
        weight, kept = correction_weights(spec.is_correction, old_log_prob, rollout_log_prob, response_mask, *band)
    if spec.rs_correction is not None:
        band = spec.rs_band if rs_band is None else rs_band
        _, keep = correction_weights(spec.rs_correction, old_log_prob, rollout_log_prob, response_mask, *band)
        weight = torch.where(keep, weight, torch.zeros_like(weight))
        kept = kept & keep
    return weight, kept
