"""Answer functions of the interview bank's objectives, clipping and aggregation questions.

Every function builds a tiny float64 batch and calls ``rlviz.core`` (``policy_loss``,
``gradient_weights``, ``trust_band``, ``token_states``, ``token_weights``, ``aggregate``) or reads the
registry (``ALGORITHMS``): the same code that trains. Nothing here branches on an algorithm's name.

Conventions (as on the curves page): ``log pi_old = 0`` and ``log pi = log r``; the *objective* of a
token is ``J = -per_token_loss``; its *gradient weight* is ``w = -d loss / d log pi`` (``w > 0`` pushes
the token up). One-token questions divide ``w`` by the token's aggregation weight (1 for a one-token
batch under every mode), so ``w`` is the per-token surrogate's own derivative. ``beta`` defaults to 0
(no KL term) unless a question sets it.

Legend: B responses, T padded width; tensors [B, T].
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import torch

from rlviz.core.aggregation import LOSS_AGG_MODES, aggregate, token_weights
from rlviz.core.objectives import (
    ALGORITHMS,
    TRUST_REGION_KINDS,
    get_algorithm,
    gradient_weights,
    policy_loss,
    token_states,
    trust_band,
)
from rlviz.teach.answers import answer
from rlviz.teach.answers.basics import token_weight

DTYPE = torch.float64
FRAMEWORKS = ("trl", "verl")
SAME_TOL = 1e-12  # two computed numbers count as "the same" within this relative distance
ZERO_TOL = 1e-12  # a value this close to 0 is float rounding of an exact 0 (shown as 0, never -1e-16)


# ----------------------------------------------------------------------------------------------
# Input checks and tiny batches
# ----------------------------------------------------------------------------------------------


def _number(name: str, value: Any, positive: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ValueError(f"{name}: must be a finite number, got {value!r}")
    if positive and value <= 0:
        raise ValueError(f"{name}: must be > 0, got {value!r}")
    return float(value)


def _numbers(name: str, values: Any, positive: bool = False) -> list[float]:
    if isinstance(values, (str, bytes)) or not isinstance(values, Sequence) or len(values) == 0:
        raise ValueError(f"{name}: must be a non-empty list of numbers, got {values!r}")
    return [_number(name, v, positive) for v in values]


def _lengths(lengths: Any, allow_zero: bool = False) -> list[int]:
    if isinstance(lengths, (str, bytes)) or not isinstance(lengths, Sequence) or len(lengths) == 0:
        raise ValueError(f"lengths: must be a non-empty list of whole numbers, got {lengths!r}")
    low = 0 if allow_zero else 1
    for n in lengths:
        if isinstance(n, bool) or not isinstance(n, int) or n < low:
            raise ValueError(f"lengths: each must be a whole number >= {low}, got {n!r}")
    if sum(lengths) == 0:
        raise ValueError("lengths: at least one response needs a token")
    return list(lengths)


def _mode(mode: Any) -> str:
    if mode not in LOSS_AGG_MODES:
        raise ValueError(f"mode: {mode!r} is not one of {', '.join(LOSS_AGG_MODES)}")
    return mode


def _index(name: str, value: Any, size: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < size:
        raise ValueError(f"{name}: must be a whole number in [0, {size - 1}], got {value!r}")
    return value


def _spec(algorithm: Any):
    """The registry entry ``algorithm``. Raises ``ValueError`` naming ``algorithm``."""
    if algorithm not in ALGORITHMS:
        raise ValueError(f"algorithm: unknown {algorithm!r}; known: {', '.join(ALGORITHMS)}")
    return get_algorithm(algorithm)


def _setting(algorithm: Any, setting: Any):
    """The :class:`Setting` ``setting`` of ``algorithm``. Raises ``ValueError`` naming the parameter."""
    spec = _spec(algorithm)
    try:
        return spec.setting(setting)
    except ValueError:
        raise ValueError(f"setting: {setting!r} is not a setting of {algorithm}") from None


def _mask(lengths: list[int]) -> torch.Tensor:
    """[B, T] response mask of right-padded responses with these lengths."""
    return (torch.arange(max(lengths))[None, :] < torch.tensor(lengths)[:, None]).to(DTYPE)


def _log_ratios(ratios: Any = None, log_ratios: Any = None) -> list[float]:
    """The tokens' log-ratios from exactly one of ``ratios`` (r > 0) or ``log_ratios``."""
    if (ratios is None) == (log_ratios is None):
        raise ValueError("ratios: give exactly one of ratios or log_ratios")
    if ratios is not None:
        return [math.log(r) for r in _numbers("ratios", ratios, positive=True)]
    return _numbers("log_ratios", log_ratios)


def _batch(
    log_ratio: list[float], advantages: Any, lengths: Any = None
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """``(log_prob, old_log_prob, advantages, mask)`` [B, T] of the flat token list ``log_ratio``.

    Without ``lengths``: one response; ``advantages`` is one number (the response's) or one per token.
    With ``lengths``: the tokens split into responses of those lengths, one advantage per response.
    """
    lengths = [len(log_ratio)] if lengths is None else _lengths(lengths)
    if sum(lengths) != len(log_ratio):
        raise ValueError(f"lengths: they add up to {sum(lengths)}, but there are {len(log_ratio)} tokens")
    mask = _mask(lengths)  # (B, T)
    lp = torch.zeros_like(mask)  # (B, T) log pi; log pi_old = 0
    lp[mask > 0] = torch.tensor(log_ratio, dtype=DTYPE)
    if isinstance(advantages, (int, float)) and not isinstance(advantages, bool):
        adv = torch.full_like(mask, _number("advantages", advantages))
    else:
        values = _numbers("advantages", advantages)
        if len(lengths) == 1 and len(values) == len(log_ratio):
            adv = torch.tensor([values], dtype=DTYPE)  # (1, T) one per token
        elif len(values) == len(lengths):
            adv = torch.tensor(values, dtype=DTYPE)[:, None].expand_as(mask).clone()  # (B, T)
        else:
            raise ValueError(f"advantages: need one per response or per token, got {len(values)}")
    return lp, torch.zeros_like(mask), adv, mask


def _overrides(overrides: dict[str, Any]) -> dict[str, Any]:
    """No KL term unless asked (a bare ``policy_loss`` call has no reference policy)."""
    return {"beta": 0.0} | overrides


def _one_token(algorithm: str, ratio: Any, advantage: Any, pi_old: Any = 1.0, **overrides):
    """``(w, out)`` of a one-token response at ``ratio`` with ``advantage`` (``gradient_weights``);
    ``pi_old`` the token's probability under the old policy (1: log pi_old = 0, the curves page's
    convention; a probability matters only to the objectives that read one, DPPO's divergences)."""
    _spec(algorithm)
    r = _number("ratio", ratio, positive=True)
    a = _number("advantage", advantage)
    p_old = _number("pi_old", pi_old, positive=True)
    if p_old > 1 or (p_old * r > 1 and p_old < 1):
        raise ValueError(f"pi_old: with ratio {r:g} the new probability {p_old * r:g} must stay within (0, 1]")
    old = torch.full((1, 1), math.log(p_old), dtype=DTYPE)  # (1, 1)
    lp = old + math.log(r)
    grad, out = gradient_weights(
        algorithm, lp, old, torch.full((1,), a, dtype=DTYPE), torch.ones_like(lp), **_overrides(overrides)
    )
    w = _clean(-float(grad[0, 0]) / float(out.token_weight[0, 0]))
    return w, out


def _clean(x: float) -> float:
    """``x`` as a float, with float rounding of an exact 0 (and -0.0) shown as 0."""
    x = float(x)
    return 0.0 if abs(x) <= ZERO_TOL else x


def _same(a: float, b: float) -> bool:
    return abs(a - b) <= SAME_TOL * max(1.0, abs(a), abs(b))


# ----------------------------------------------------------------------------------------------
# One token: objective, loss, gradient weight, state, gate
# ----------------------------------------------------------------------------------------------


@answer("obj_objective")
def obj_objective(algorithm: str, ratio: float, advantage: float, **overrides) -> float:
    """The per-token objective ``J = -per_token_loss`` of ``algorithm`` for a one-token response at
    importance ratio ``ratio`` with advantage ``advantage`` (``policy_loss``; a one-token response's
    sequence ratio is its token ratio). Sources: the spec's paper (PPO arXiv 1707.06347 eq. 7, ...)."""
    return _clean(-_one_token(algorithm, ratio, advantage, **overrides)[1].per_token_loss.detach()[0, 0])


@answer("obj_token_loss")
def obj_token_loss(algorithm: str, ratio: float, advantage: float, **overrides) -> float:
    """The per-token loss (``policy_loss(...).per_token_loss``) of that one-token response, e.g. the
    dual clip's cap ``c |A|`` (Ye et al. arXiv 1912.09729)."""
    return _clean(_one_token(algorithm, ratio, advantage, **overrides)[1].per_token_loss.detach()[0, 0])


@answer("obj_grad_weight")
def obj_grad_weight(algorithm: str, ratio: float, advantage: float, pi_old: float = 1.0, **overrides) -> float:
    """The gradient weight ``w = -d loss / d log pi`` of one token at ``ratio`` with ``advantage``,
    by autograd through ``policy_loss`` (``gradient_weights``), per unit aggregation weight. 0 where a
    hard clip acted; CISPO's ``clip(r) A``; SAPO's ``4 sigma (1 - sigma) r A``. ``pi_old``: the
    token's old probability (default 1, i.e. log pi_old = 0), read by DPPO's divergence test."""
    return _one_token(algorithm, ratio, advantage, pi_old, **overrides)[0]


@answer("obj_token_state")
def obj_token_state(algorithm: str, ratio: float, advantage: float, pi_old: float = 1.0, **overrides) -> str:
    """What the trust region does to that token (``token_states``): ``"active"``, ``"clipped"``
    (zero gradient), ``"capped"`` (CISPO: bounded, kept) or ``"gated"`` (SAPO: scaled down);
    ``pi_old`` as :func:`obj_grad_weight`."""
    out = _one_token(algorithm, ratio, advantage, pi_old, **overrides)[1]
    return str(token_states(algorithm, out)[0, 0])


@answer("obj_gate_weight")
def obj_gate_weight(ratio: float, advantage: float, algorithm: str = "sapo", **overrides) -> float:
    """The soft gate's weight ``f'(r) = 4 sigma(tau (r - 1)) (1 - sigma(.))`` of a gated objective
    (``policy_loss(...).gate_weight``; SAPO arXiv 2511.20347). Raises ``ValueError`` naming
    ``algorithm`` for an objective without a gate."""
    out = _one_token(algorithm, ratio, advantage, **overrides)[1]
    if out.gate_weight is None:
        raise ValueError(f"algorithm: {algorithm!r} has no soft gate")
    return float(out.gate_weight[0, 0])


@answer("obj_smaller_gate")
def obj_smaller_gate(ratio: float, algorithm: str = "sapo", **overrides) -> str:
    """``"positive"``, ``"negative"`` or ``"same"``: which sign of the advantage gets the smaller gate
    weight at ``ratio`` (SAPO's two temperatures, ``tau_pos`` and ``tau_neg``)."""
    pos = obj_gate_weight(ratio, 1.0, algorithm, **overrides)
    neg = obj_gate_weight(ratio, -1.0, algorithm, **overrides)
    if _same(pos, neg):
        return "same"
    return "positive" if pos < neg else "negative"


@answer("obj_count_with_gradient")
def obj_count_with_gradient(ratio: float, advantage: float, algorithms: list[str] | None = None) -> float:
    """How many of ``algorithms`` (registry names; ``None``: every entry of ``ALGORITHMS``), at their
    defaults, still give a one-token response at ``ratio`` with ``advantage`` a nonzero gradient
    (``gradient_weights``). Raises ``ValueError`` naming ``algorithm`` for an unknown name."""
    names = list(ALGORITHMS) if algorithms is None else list(algorithms)
    return float(sum(obj_grad_weight(name, ratio, advantage) != 0.0 for name in names))


@answer("obj_same_surrogate")
def obj_same_surrogate(first: str, second: str, ratio: float, advantage: float) -> str:
    """``"same"`` or ``"different"``: the two objectives' per-token objective and gradient weight for
    a one-token response at ``ratio`` with ``advantage`` (defaults, no KL). A one-token batch weighs
    its token 1 under every aggregation, so this compares the per-token surrogates alone."""
    a = (obj_objective(first, ratio, advantage), obj_grad_weight(first, ratio, advantage))
    b = (obj_objective(second, ratio, advantage), obj_grad_weight(second, ratio, advantage))
    return "same" if all(_same(x, y) for x, y in zip(a, b)) else "different"


# ----------------------------------------------------------------------------------------------
# Trust bands
# ----------------------------------------------------------------------------------------------


@answer("obj_band_width")
def obj_band_width(algorithm: str, **overrides) -> float:
    """Width ``high - low`` of ``algorithm``'s trust band on the ratio (``trust_band``). Raises
    ``ValueError`` naming ``algorithm`` for an objective without a band (a soft gate)."""
    band = trust_band(_spec(algorithm).name, **overrides)
    if band is None:
        raise ValueError(f"algorithm: {algorithm!r} has no trust band")
    return band[1] - band[0]


@answer("obj_pi_ceiling")
def obj_pi_ceiling(algorithm: str, pi_old: float, **overrides) -> float:
    """The highest probability a sampled token with ``A > 0`` can reach before the clip stops its
    gradient: ``min(1, pi_old * high)``, ``high`` the upper end of ``trust_band`` (teaching claim 2;
    DAPO arXiv 2503.14476 §3.1). Raises ``ValueError`` naming ``pi_old`` outside (0, 1)."""
    p = _number("pi_old", pi_old, positive=True)
    if p >= 1:
        raise ValueError(f"pi_old: must be below 1, got {pi_old!r}")
    band = trust_band(_spec(algorithm).name, **overrides)
    if band is None:
        raise ValueError(f"algorithm: {algorithm!r} has no trust band")
    return min(1.0, p * band[1])


@answer("obj_pi_room")
def obj_pi_room(algorithm: str, pi_old: float, **overrides) -> float:
    """How much that token's probability can still grow: ``obj_pi_ceiling - pi_old``."""
    return obj_pi_ceiling(algorithm, pi_old, **overrides) - float(pi_old)


# ----------------------------------------------------------------------------------------------
# Responses: sequence ratios, per-token gradients, clip fractions
# ----------------------------------------------------------------------------------------------


def _response(algorithm: str, ratios=None, log_ratios=None, advantages=1.0, lengths=None, **overrides):
    """``(grad, out, mask)`` of ``algorithm`` on the tokens given (``gradient_weights``)."""
    _spec(algorithm)
    lp, old, adv, mask = _batch(_log_ratios(ratios, log_ratios), advantages, lengths)
    grad, out = gradient_weights(algorithm, lp, old, adv, mask, **_overrides(overrides))
    return grad, out, mask


@answer("obj_ratio_used")
def obj_ratio_used(
    algorithm: str,
    ratios: list[float] | None = None,
    log_ratios: list[float] | None = None,
    advantage: float = 1.0,
    position: int = 0,
    **overrides,
) -> float:
    """The ratio ``algorithm`` clips or gates at token ``position`` of one response with these token
    ratios (or log-ratios) (``policy_loss(...).ratio``): GSPO's and GSPO-token's sequence ratio
    ``s = exp(mean_t l_t)`` (GSPO arXiv 2507.18071 eq. 7 and §4.3), GMPO's clipped geometric mean
    (arXiv 2507.20673), or the token's own ratio for a token-level objective."""
    _, out, mask = _response(algorithm, ratios, log_ratios, advantage, **overrides)
    return float(out.ratio[mask > 0][_index("position", position, int(mask.sum()))])


@answer("obj_mean_token_ratio")
def obj_mean_token_ratio(ratios: list[float] | None = None, log_ratios: list[float] | None = None) -> float:
    """The arithmetic mean of the token ratios ``r_t`` of one response (``policy_loss("grpo")``'s
    ``ratio``, averaged): what GSPO does *not* use."""
    out = _response("grpo", ratios, log_ratios)[1]
    return float(out.ratio.mean())


@answer("obj_length_ratio")
def obj_length_ratio(ratio: float, length: int, normalised: bool = True) -> float:
    """GSPO's sequence ratio of a response of ``length`` tokens, each at ``ratio``
    (``policy_loss("gspo")``): with ``normalised`` the geometric mean ``s``; without, the plain product
    of the token ratios, ``s ** length`` (what ``s`` would be without GSPO's ``1/|y|``)."""
    r = _number("ratio", ratio, positive=True)
    if isinstance(length, bool) or not isinstance(length, int) or length < 1:
        raise ValueError(f"length: must be a whole number >= 1, got {length!r}")
    s = obj_ratio_used("gspo", log_ratios=[math.log(r)] * length)
    return s if normalised else s**length


@answer("obj_token_push")
def obj_token_push(
    algorithm: str,
    ratios: list[float] | None = None,
    log_ratios: list[float] | None = None,
    advantages: float | list[float] = 1.0,
    position: int = 0,
    lengths: list[int] | None = None,
    **overrides,
) -> float:
    """``-d loss / d log pi`` of the token at flat index ``position`` (aggregation weight included),
    by autograd through ``policy_loss`` (``gradient_weights``). One response of these token ratios
    (or log-ratios), or responses of ``lengths`` with one advantage each."""
    grad, _, mask = _response(algorithm, ratios, log_ratios, advantages, lengths, **overrides)
    idx = _index("position", position, int(mask.sum()))
    return _clean(-grad[mask > 0][idx])


@answer("obj_compare_push")
def obj_compare_push(
    first: str,
    second: str,
    ratios: list[float] | None = None,
    log_ratios: list[float] | None = None,
    advantages: float | list[float] = 1.0,
    position: int = 0,
) -> str:
    """``"same"`` or ``"different"``: the two objectives' ``-d loss / d log pi`` of the token at
    ``position`` of one response with these token ratios (:func:`obj_token_push`, defaults)."""
    a = obj_token_push(first, ratios, log_ratios, advantages, position)
    b = obj_token_push(second, ratios, log_ratios, advantages, position)
    return "same" if _same(a, b) else "different"


OFFPOLICY_QUANTITIES = ("clip_fraction", "ratio_used", "relative_outlier", "relative_normal")


@answer("obj_offpolicy")
def obj_offpolicy(
    algorithm: str, length: int, n_outliers: int, outlier_ratio: float, advantage: float, quantity: str
) -> float:
    """One number of the weighting page's off-policy response (``rlviz.experiments.weighting.
    offpolicy_response``, autograd through ``policy_loss``): ``length`` tokens, ``n_outliers`` of them
    at ratio ``outlier_ratio``, the rest at r = 1, advantage ``advantage``, no noise, clip on.

    ``quantity``: ``"clip_fraction"`` (share of the tokens the clip acted on), ``"ratio_used"`` (the
    ratio the objective clips or gates at the first outlier: r_t, or GSPO's s, or GMPO's geometric
    mean), ``"relative_outlier"`` / ``"relative_normal"`` (push over the on-policy push, mean over the
    outlier / the other tokens). Raises ``ValueError`` naming the parameter."""
    from rlviz.experiments.weighting import offpolicy_response

    if quantity not in OFFPOLICY_QUANTITIES:
        raise ValueError(f"quantity: {quantity!r} is not one of {', '.join(OFFPOLICY_QUANTITIES)}")
    df = offpolicy_response(length, n_outliers, float(outlier_ratio), float(advantage), algorithms=(algorithm,))
    if quantity == "clip_fraction":
        return _clean(df["clipped"].mean())
    if quantity in ("ratio_used", "relative_outlier") and not df["outlier"].any():
        raise ValueError("n_outliers: the question needs at least one outlier token")
    if quantity == "relative_normal" and df["outlier"].all():
        raise ValueError("n_outliers: the question needs at least one token at r = 1")
    if quantity == "ratio_used":
        return _clean(df.loc[df["outlier"], "ratio_used"].iloc[0])
    rows = df["outlier"] if quantity == "relative_outlier" else ~df["outlier"]
    return _clean(df.loc[rows, "relative"].mean())


@answer("obj_gspo_token_check")
def obj_gspo_token_check(
    ratios: list[float] | None = None, log_ratios: list[float] | None = None, advantages: float | list[float] = 1.0
) -> str:
    """``"same"`` or ``"different"``: the gradients of the registry's two sequence-ratio objectives
    that share their settings (GSPO and GSPO-token, GSPO arXiv 2507.18071 §4.3) on one response
    with these token ratios (or log-ratios) and advantages (one, or one per token)."""
    grads = [_response(name, ratios, log_ratios, advantages)[0] for name in ("gspo", "gspo_token")]
    diff = float((grads[0] - grads[1]).abs().max())
    scale = float(grads[0].abs().max())
    return "same" if diff <= SAME_TOL * max(1.0, scale) else "different"


@answer("obj_clip_fraction")
def obj_clip_fraction(
    algorithm: str,
    ratios: list[float] | None = None,
    log_ratios: list[float] | None = None,
    advantages: float | list[float] = 1.0,
    lengths: list[int] | None = None,
    side: str = "all",
    **overrides,
) -> float:
    """The clip fraction of ``algorithm`` on these tokens (``policy_loss``): ``side="all"`` the share
    of real tokens where the clip acted, ``"high"`` A>0 above the upper end, ``"low"`` A<0 below the
    lower end (TRL ``clip_ratio/high_mean``, ``low_mean``), ``"dual"`` A<0 beyond the dual clip's c."""
    fields = {"all": "clip_fraction", "high": "clip_fraction_high", "low": "clip_fraction_low"}
    fields["dual"] = "clip_fraction_dual"
    if side not in fields:
        raise ValueError(f"side: {side!r} is not one of {', '.join(fields)}")
    out = _response(algorithm, ratios, log_ratios, advantages, lengths, **overrides)[1]
    return float(getattr(out, fields[side]))


@answer("obj_out_of_band_fraction")
def obj_out_of_band_fraction(algorithm: str, ratios: list[float], **overrides) -> float:
    """The share of tokens whose ratio lies outside ``algorithm``'s trust band (``trust_band``),
    whatever their advantage: what a naive clip fraction counts."""
    band = trust_band(_spec(algorithm).name, **overrides)
    if band is None:
        raise ValueError(f"algorithm: {algorithm!r} has no trust band")
    rs = _numbers("ratios", ratios, positive=True)
    return sum(r < band[0] or r > band[1] for r in rs) / len(rs)


# ----------------------------------------------------------------------------------------------
# Aggregation
# ----------------------------------------------------------------------------------------------


def _on_policy(lengths, advantages, algorithm: str):
    """On-policy batch (r = 1): ``(log_prob with grad, per_token_loss, mask)`` of ``algorithm``."""
    lengths = _lengths(lengths, allow_zero=True)
    adv = _numbers("advantages", advantages)
    if len(adv) != len(lengths):
        raise ValueError(f"advantages: need one per response ({len(lengths)}), got {len(adv)}")
    mask = _mask(lengths)  # (B, T)
    lp = torch.zeros_like(mask).requires_grad_(True)  # (B, T) log pi = log pi_old = 0
    out = policy_loss(_spec(algorithm).name, lp, torch.zeros_like(mask), torch.tensor(adv, dtype=DTYPE), mask, beta=0.0)
    return lp, out.per_token_loss, mask


@answer("obj_batch_loss")
def obj_batch_loss(
    lengths: list[int], advantages: list[float], mode: str, norm_length: float | None = None, algorithm: str = "grpo"
) -> float:
    """The loss of an on-policy batch (every ratio 1) of responses with these ``lengths`` and
    advantages: ``algorithm``'s per-token loss (``policy_loss``) aggregated by ``mode``
    (``aggregate``; ``norm_length`` for seq-mean-token-sum-norm, ``None`` = the padded width)."""
    _, per_token, mask = _on_policy(lengths, advantages, algorithm)
    return _clean(aggregate(per_token.detach(), mask, _mode(mode), norm_length))


@answer("obj_same_loss")
def obj_same_loss(
    lengths: list[int], advantages: list[float], first: str, second: str, norm_length: float | None = None
) -> str:
    """``"same"`` or ``"different"``: that on-policy batch's loss (:func:`obj_batch_loss`) and every
    token's gradient under aggregation modes ``first`` and ``second``."""
    pushes = []
    for mode in (first, second):
        lp, per_token, mask = _on_policy(lengths, advantages, "grpo")
        (grad,) = torch.autograd.grad(aggregate(per_token, mask, _mode(mode), norm_length), lp)
        pushes.append((obj_batch_loss(lengths, advantages, mode, norm_length), grad))
    (l1, g1), (l2, g2) = pushes
    same = _same(l1, l2) and float((g1 - g2).abs().max()) <= SAME_TOL * max(1.0, float(g1.abs().max()))
    return "same" if same else "different"


@answer("obj_batch_push")
def obj_batch_push(
    lengths: list[int],
    advantages: list[float],
    mode: str,
    row: int,
    norm_length: float | None = None,
    algorithm: str = "grpo",
) -> float:
    """``-d loss / d log pi`` of one token of response ``row`` (0-based) in that on-policy batch, by
    autograd through ``policy_loss`` and ``aggregate``: ``A_row`` times the token's weight."""
    lp, per_token, mask = _on_policy(lengths, advantages, algorithm)
    row = _index("row", row, mask.shape[0])
    if mask[row].sum() == 0:
        raise ValueError(f"row: response {row} has no token")
    (grad,) = torch.autograd.grad(aggregate(per_token, mask, _mode(mode), norm_length), lp)
    return _clean(-grad[row, 0])


@answer("obj_row_weight")
def obj_row_weight(lengths: list[int], mode: str, row: int, norm_length: float | None = None) -> float:
    """The total weight of response ``row``'s tokens in the loss (``token_weights`` summed over the
    row): ``L_row / N`` under token-mean, ``1 / B`` under seq-mean-token-mean, ..."""
    lengths = _lengths(lengths, allow_zero=True)
    row = _index("row", row, len(lengths))
    return float(token_weights(_mask(lengths), _mode(mode), norm_length)[row].sum())


@answer("obj_weight_ratio")
def obj_weight_ratio(lengths: list[int], mode: str, first: int, second: int, norm_length: float | None = None) -> float:
    """One token of response ``first`` weighs this many times one token of response ``second``
    under ``mode`` (``token_weights``)."""
    lengths = _lengths(lengths, allow_zero=True)
    for name, row in (("first", first), ("second", second)):
        if lengths[_index(name, row, len(lengths))] == 0:
            raise ValueError(f"{name}: response {row} has no token")
    return token_weight(lengths, _mode(mode), first, norm_length) / token_weight(lengths, mode, second, norm_length)


# ----------------------------------------------------------------------------------------------
# The registry: defaults, framework names, kinds
# ----------------------------------------------------------------------------------------------


@answer("obj_default")
def obj_default(algorithm: str, setting: str) -> float | str:
    """The registry default of ``setting`` for ``algorithm`` (``AlgorithmSpec.setting``): a number,
    or a named choice (e.g. its ``loss_agg_mode``). Raises ``ValueError`` for a setting that is off
    by default (``None``)."""
    value = _setting(algorithm, setting).default
    if value is None:
        raise ValueError(f"setting: {setting!r} of {algorithm} is off by default")
    return value


@answer("obj_framework_name")
def obj_framework_name(algorithm: str, setting: str, framework: str) -> str:
    """The name of ``algorithm``'s ``setting`` in ``framework`` (``"trl"``: TRL ``GRPOConfig``;
    ``"verl"``: verl's config), read from the registry (``Setting.trl`` / ``Setting.verl``)."""
    if framework not in FRAMEWORKS:
        raise ValueError(f"framework: {framework!r} is not one of {', '.join(FRAMEWORKS)}")
    name = getattr(_setting(algorithm, setting), framework)
    if name is None:
        raise ValueError(f"setting: {setting!r} of {algorithm} has no {framework} name")
    return name


@answer("obj_ratio_level")
def obj_ratio_level(algorithm: str) -> str:
    """``"token"`` or ``"sequence"``: which ratio ``algorithm``'s clip or gate sees (``ratio_level``)."""
    return _spec(algorithm).ratio_level


@answer("obj_trust_region")
def obj_trust_region(algorithm: str) -> str:
    """The kind of ``algorithm``'s trust region (``AlgorithmSpec.trust_region``): ``"clipped"``,
    ``"capped"`` or ``"gated"`` (the kinds joined by ``+`` if it has several)."""
    return "+".join(k for k in TRUST_REGION_KINDS if k in _spec(algorithm).trust_region)


@answer("obj_clip_space")
def obj_clip_space(algorithm: str) -> str:
    """Where ``algorithm``'s ε bound the ratio (``clip_space``): ``"ratio"``, ``"log"`` or ``"none"``."""
    return _spec(algorithm).clip_space or "none"


@answer("obj_acts_on_policy")
def obj_acts_on_policy(algorithm: str) -> str:
    """``"yes"`` where ``algorithm``'s token selection can act at r = 1 on fresh samples
    (``AlgorithmSpec.acts_on_policy``: Clip-Cov's covariance detach), else ``"no"``."""
    return "yes" if _spec(algorithm).acts_on_policy else "no"


@answer("obj_response_push_ratio")
def obj_response_push_ratio(algorithm: str, lengths: list[int], advantage: float = 1.0) -> float:
    """On-policy (every ratio 1), two responses of ``lengths`` (two of them) with the same
    ``advantage``: the total gradient weight on the second response's tokens over the first's
    (``gradient_weights`` summed per response). 1 for a per-response mean (GRPO, GSPO); the length
    ratio where every token weighs the same (token-mean, LUSPO's length-weighted sequence term)."""
    sizes = _lengths(lengths)
    if len(sizes) != 2:
        raise ValueError(f"lengths: give two response lengths, got {len(sizes)}")
    a = _number("advantage", advantage)
    if a == 0:
        raise ValueError("advantage: must not be 0 (no gradient to compare)")
    mask = _mask(sizes)  # (2, T)
    lp = torch.zeros_like(mask)
    grad, _ = gradient_weights(algorithm, lp, lp, torch.full((2,), a, dtype=DTYPE), mask)
    totals = grad.sum(-1)
    return _clean(float(totals[1] / totals[0]))
