"""Answer functions for the advantage estimators of issue 43 (GPG, OPO, Pass@k), the cap shares of a
truncated importance weight, and the rollout-correction rejection filters (``seq_ratio_rs``, ``k3_rs``)
and presets of issue 43: each calls ``rlviz.core.estimators.estimate_advantages`` or
``rlviz.core.corrections`` (``cap_shares``, ``correction_weights``, ``preset_weights`` and the statistic
a filter's band bounds), the code that trains.

Sources: GPG arXiv 2504.02546 (α = B / M) and verl ``compute_gpg_outcome_advantage``; OPO arXiv
2505.23585 and verl ``compute_opo_outcome_advantage``; Pass@k arXiv 2503.19595 and verl
``compute_grpo_passk_outcome_advantage`` (k is the group size G); verl
``rollout_corr_helper.compute_is_metrics`` (``rollout_is_ratio_fraction_high``) for the cap shares;
verl ``rollout_corr_helper.compute_rollout_rejection_mask`` (``seq_sum_k1``, ``seq_mean_k3``) and
``trainer/config/algorithm.py`` (``RolloutCorrectionConfig`` classmethods) for the filters and presets.
"""

from __future__ import annotations

import math
from typing import Any

import torch

from rlviz.core.advantages import group_advantages
from rlviz.core.corrections import (
    cap_shares,
    correction_band,
    correction_statistic,
    correction_weights,
    get_correction,
    get_preset,
    preset_weights,
)
from rlviz.core.estimators import estimate_advantages
from rlviz.teach.answers import answer
from rlviz.teach.answers.training import _clean, _index, _matrix, _sign

_F64 = torch.float64


def _advantages(estimator: str, rewards: Any, lengths: Any = None) -> torch.Tensor:
    """``estimate_advantages(estimator, rewards [n, G], lengths=[n, G] or None)``, float64."""
    r = _matrix("rewards", rewards)
    kwargs = {}
    if lengths is not None:
        n = _matrix("lengths", lengths)
        if n.shape != r.shape:
            raise ValueError(f"lengths: shape {tuple(n.shape)} differs from rewards {tuple(r.shape)}")
        kwargs["lengths"] = n
    return estimate_advantages(estimator, r, **kwargs)


@answer("est_advantage")
def est_advantage(estimator: str, rewards, index: int, row: int = 0, lengths=None) -> float:
    """The advantage estimator ``estimator`` gives response ``index`` of group ``row``:
    ``estimate_advantages`` on ``rewards`` (one group as a flat list, or a batch as a list of groups)
    and, for the estimators that read them (OPO), the response ``lengths`` in tokens (same shape).
    Raises ``ValueError`` naming ``rewards`` / ``lengths`` / ``index`` / ``row`` / ``adv_estimator``."""
    adv = _advantages(estimator, rewards, lengths)
    row = _index("row", row, adv.shape[0])
    return _clean(float(adv[row, _index("index", index, adv.shape[1])]))


@answer("est_advantage_sign")
def est_advantage_sign(estimator: str, rewards, index: int, row: int = 0, lengths=None) -> str:
    """``"positive"``, ``"zero"`` or ``"negative"``: the sign of :func:`est_advantage`."""
    return _sign(est_advantage(estimator, rewards, index, row, lengths))


@answer("est_compare_advantages")
def est_compare_advantages(estimator: str, rewards, first: int, second: int, lengths=None) -> str:
    """``"more"``, ``"same"`` or ``"less"``: whether response ``first`` of a group gets a larger advantage
    than response ``second`` under ``estimator`` (equal within 1e-12: ``"same"``)."""
    diff = _clean(
        est_advantage(estimator, rewards, first, 0, lengths) - est_advantage(estimator, rewards, second, 0, lengths)
    )
    return "more" if diff > 0 else "less" if diff < 0 else "same"


@answer("est_passk_advantage")
def est_passk_advantage(rewards, index: int, row: int = 0) -> float:
    """The Pass@k advantage (verl ``grpo_passk``, k = G, group std with ddof = 1, ε = 1e-6) of response
    ``index`` of group ``row``: only the group's best response gets (R_max − R_second) / (std + ε)."""
    return est_advantage("grpo_passk", rewards, index, row)


@answer("est_opo_baseline")
def est_opo_baseline(rewards, lengths, row: int = 0) -> float:
    """OPO's baseline of group ``row``: R − A of its first response, A from ``estimate_advantages("opo")``
    (the length-weighted mean reward Σ|o_j| R_j / Σ|o_j|). Raises ``ValueError`` as :func:`est_advantage`."""
    r = _matrix("rewards", rewards)
    row = _index("row", row, r.shape[0])
    return _clean(float(r[row, 0]) - est_advantage("opo", rewards, 0, row, lengths))


@answer("est_gpg_scale")
def est_gpg_scale(rewards) -> float:
    """GPG's scale factor α for a batch of groups: its advantage over the mean-centred reward (Dr.GRPO's
    R − mean), read off ``estimate_advantages("gpg")`` at the response farthest from its group mean
    (α = B / #non-zero rewards in verl 0.9.1). Raises ``ValueError`` naming ``rewards`` when every
    response equals its group mean (no advantage to read α from)."""
    r = _matrix("rewards", rewards)
    centred = group_advantages(r, "none")
    at = int(centred.abs().argmax())
    if abs(float(centred.flatten()[at])) < 1e-12:
        raise ValueError("rewards: every reward equals its group mean, so GPG's advantages are all 0")
    gpg = _advantages("gpg", rewards)
    return float(gpg.flatten()[at] / centred.flatten()[at])


@answer("is_cap_share")
def is_cap_share(ratios, correction: str = "token_tis", cap: float = 2.0, share: str = "tokens") -> float:
    """The share of tokens (``share="tokens"``) or of responses (``"responses"``) whose raw importance
    weight π_train / π_rollout lies above the cap C of truncated IS ``correction`` (``token_tis``: each
    token's ratio; ``sequence_tis``: the product over the response), from ``cap_shares``. ``ratios``: one
    list of token ratios (> 0) per response; shorter responses are padded.
    Raises ``ValueError`` naming ``ratios`` / ``share``, or as ``cap_shares``."""
    if (
        not isinstance(ratios, (list, tuple))
        or not ratios
        or not all(isinstance(r, (list, tuple)) and r for r in ratios)
    ):
        raise ValueError(f"ratios: give one non-empty list of token ratios per response, got {ratios!r}")
    if share not in ("tokens", "responses"):
        raise ValueError(f"share: must be 'tokens' or 'responses', got {share!r}")
    width = max(len(r) for r in ratios)
    logs = []
    for row in ratios:
        if any(isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x) or x <= 0 for x in row):
            raise ValueError(f"ratios: every ratio must be a finite number > 0, got {row!r}")
        logs.append([math.log(x) for x in row] + [0.0] * (width - len(row)))
    old = torch.tensor(logs, dtype=_F64) - 1.0  # log pi_train = log pi_rollout + log ratio, pi_rollout = e^-1
    rollout = torch.full_like(old, -1.0)
    mask = torch.tensor([[1.0] * len(r) + [0.0] * (width - len(r)) for r in ratios])
    tokens, responses = cap_shares(correction, old, rollout, mask, high=cap)
    return tokens if share == "tokens" else responses


# ----------------------------------------------------------------------------------------------
# rejection filters and presets: responses given as token log-ratios l = log pi_train - log pi_rollout
# (nats) or token ratios pi_train / pi_rollout


def _responses(log_ratios: Any = None, ratios: Any = None, repeat: int = 1):
    """``(old_log_prob, rollout_log_prob, response_mask)`` [B, T] float64 for responses given by exactly
    one of ``log_ratios`` (l per token, finite) or ``ratios`` (e^l per token, > 0): one response as a flat
    list, or one list per response (shorter ones padded). Each response's tokens are repeated ``repeat``
    times (a long response of a repeating pattern). pi_rollout is e^-1 at every token; pi_train follows.
    Raises ``ValueError`` naming ``log_ratios`` / ``ratios`` / ``repeat``."""
    if (log_ratios is None) == (ratios is None):
        raise ValueError("log_ratios: give exactly one of log_ratios or ratios")
    name, rows = ("log_ratios", log_ratios) if ratios is None else ("ratios", ratios)
    if isinstance(rows, (list, tuple)) and rows and not any(isinstance(r, (list, tuple)) for r in rows):
        rows = [rows]
    if not isinstance(rows, (list, tuple)) or not rows or not all(isinstance(r, (list, tuple)) and r for r in rows):
        raise ValueError(f"{name}: give one non-empty list per response, got {rows!r:.80}")
    if isinstance(repeat, bool) or not isinstance(repeat, int) or not 1 <= repeat <= 100_000:
        raise ValueError(f"repeat: must be a whole number in [1, 100000], got {repeat!r}")
    logs = []
    for row in rows:
        if any(isinstance(x, bool) or not isinstance(x, (int, float)) or not math.isfinite(x) for x in row):
            raise ValueError(f"{name}: every value must be a finite number, got {row!r:.80}")
        if name == "ratios" and any(x <= 0 for x in row):
            raise ValueError(f"ratios: every ratio must be > 0, got {row!r:.80}")
        logs.append([float(x) if name == "log_ratios" else math.log(x) for x in row] * repeat)
    width = max(len(r) for r in logs)
    log_ratio = torch.tensor([r + [0.0] * (width - len(r)) for r in logs], dtype=_F64)
    mask = torch.tensor([[1.0] * len(r) + [0.0] * (width - len(r)) for r in logs], dtype=_F64)
    return log_ratio - 1.0, torch.full_like(log_ratio, -1.0), mask


def _side(side: str, band: tuple) -> float:
    if side not in ("low", "high"):
        raise ValueError(f"side: must be 'low' or 'high', got {side!r}")
    value = band[0] if side == "low" else band[1]
    if value is None:
        raise ValueError(f"side: the band {band} has no {side} end")
    return float(value)


@answer("rs_band")
def rs_band(correction: str, side: str = "high") -> float:
    """The ``low`` or ``high`` end of correction ``correction``'s default band (``correction_band``), e.g.
    0.01 nats for ``k3_rs``. Raises ``ValueError`` naming ``correction`` or ``side`` (no such end)."""
    return _side(side, correction_band(correction))


@answer("preset_band")
def preset_band(preset: str, part: str = "rs", side: str = "high") -> float:
    """The ``low`` or ``high`` end of preset ``preset``'s IS band (``part="is"``) or rejection band
    (``"rs"``) at verl's defaults (``PresetSpec.is_band`` / ``rs_band``).
    Raises ``ValueError`` naming ``preset``, ``part`` or ``side``."""
    spec = get_preset(preset)
    if part not in ("is", "rs"):
        raise ValueError(f"part: must be 'is' or 'rs', got {part!r}")
    return _side(side, spec.is_band if part == "is" else spec.rs_band)


@answer("rs_statistic")
def rs_statistic(correction: str, log_ratios=None, ratios=None, row: int = 0, repeat: int = 1) -> float:
    """The value sequence-level correction ``correction``'s band bounds for response ``row``: for
    ``seq_ratio_rs`` pi_rollout / pi_train of the whole response (exp of Σ k1, k1 = -l), for ``k3_rs``
    the mean over its tokens of k3 = e^l - 1 - l (nats), for ``geo_mean_rs`` the geometric mean of
    pi_rollout / pi_train, for ``sequence_tis`` pi_train / pi_rollout; the statistic
    ``correction_weights`` compares with the band. Responses as :func:`_responses`.
    Raises ``ValueError`` naming ``correction`` (unknown, or a token-level rule) or as :func:`_responses`."""
    spec = get_correction(correction)
    if spec.level != "sequence" or spec.kind == "none":
        raise ValueError(f"correction: {correction!r} has no per-response statistic (level {spec.level!r})")
    old, rollout, mask = _responses(log_ratios, ratios, repeat)
    stat = correction_statistic(correction, old, rollout, mask)  # the one the filters compare
    return float(stat[_index("row", row, stat.shape[0]), 0])


@answer("rs_weight")
def rs_weight(correction: str, log_ratios=None, ratios=None, row: int = 0, token: int = 0) -> float:
    """The weight ``correction_weights(correction, ...)`` gives token ``token`` of response ``row`` at the
    entry's default band (a rejection filter: 1 kept, 0 rejected). Responses as :func:`_responses`.
    Raises ``ValueError`` naming ``row`` / ``token``, or as :func:`_responses` / ``correction_weights``."""
    old, rollout, mask = _responses(log_ratios, ratios)
    weight, _ = correction_weights(correction, old, rollout, mask)
    row = _index("row", row, weight.shape[0])
    return float(weight[row, _index("token", token, int(mask[row].sum()))])


@answer("rs_verdict")
def rs_verdict(correction: str, log_ratios=None, ratios=None, row: int = 0) -> str:
    """``"kept"`` or ``"rejected"``: whether ``correction_weights(correction, ...)`` keeps any token of
    response ``row`` at the entry's default band. Inputs and errors as :func:`rs_weight`."""
    old, rollout, mask = _responses(log_ratios, ratios)
    _, kept = correction_weights(correction, old, rollout, mask)
    return "kept" if bool(kept[_index("row", row, kept.shape[0])].any()) else "rejected"


@answer("rs_which_rejected")
def rs_which_rejected(correction: str, log_ratios=None, ratios=None) -> str:
    """``"first"``, ``"second"``, ``"both"`` or ``"neither"``: which of two responses
    ``correction_weights(correction, ...)`` rejects (keeps no token of) at the entry's default band.
    Raises ``ValueError`` naming ``log_ratios`` / ``ratios`` unless exactly two responses are given."""
    old, rollout, mask = _responses(log_ratios, ratios)
    if old.shape[0] != 2:
        raise ValueError(f"{'ratios' if log_ratios is None else 'log_ratios'}: give two responses, got {old.shape[0]}")
    out = [rs_verdict(correction, log_ratios, ratios, row) == "rejected" for row in (0, 1)]
    return {(True, True): "both", (True, False): "first", (False, True): "second"}.get(tuple(out), "neither")


@answer("preset_weight")
def preset_weight(preset: str, log_ratios=None, ratios=None, row: int = 0, token: int = 0, repeat: int = 1) -> float:
    """The weight ``preset_weights(preset, ...)`` (verl's ``RolloutCorrectionConfig.<preset>()`` at its
    default thresholds) puts on token ``token`` of response ``row``: its IS weight times its rejection
    filter's kept mask (0: rejected). Responses as :func:`_responses`, given as pi_old / pi_rollout.
    Raises ``ValueError`` naming ``preset`` (unknown), ``row`` / ``token``, or as :func:`_responses`."""
    old, rollout, mask = _responses(log_ratios, ratios, repeat)
    weight, _ = preset_weights(preset, old, rollout, mask)
    row = _index("row", row, weight.shape[0])
    return _clean(float(weight[row, _index("token", token, int(mask[row].sum()))]))
