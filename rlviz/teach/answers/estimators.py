"""Answer functions for the advantage estimators of issue 43 (GPG, OPO, Pass@k) and the cap shares of a
truncated importance weight: each calls ``rlviz.core.estimators.estimate_advantages`` or
``rlviz.core.corrections.cap_shares``, the code that trains.

Sources: GPG arXiv 2504.02546 (α = B / M) and verl ``compute_gpg_outcome_advantage``; OPO arXiv
2505.23585 and verl ``compute_opo_outcome_advantage``; Pass@k arXiv 2503.19595 and verl
``compute_grpo_passk_outcome_advantage`` (k is the group size G); verl
``rollout_corr_helper.compute_is_metrics`` (``rollout_is_ratio_fraction_high``) for the cap shares.
"""

from __future__ import annotations

import math
from typing import Any

import torch

from rlviz.core.advantages import group_advantages
from rlviz.core.corrections import cap_shares
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
