"""Objective and gradient weight of each algorithm as a function of the importance ratio.

Every number comes from :func:`rlviz.core.objectives.policy_loss` (and autograd through it via
:func:`~rlviz.core.objectives.gradient_weights`), the code that trains the model: one-token
responses (so GSPO's and GMPO's sequence ratio equals the token ratio), ``log pi_old =
log(old_prob)``, ``log pi = log r + log pi_old``, advantage ``A = +1`` or ``-1``. Only an objective
that reads probabilities (``AlgorithmSpec.reads_probability``: DPPO's divergences) depends on pi_old;
its curve ends at ``r = 1/pi_old``, where pi = 1.

What can be drawn is read from the registry (``ALGORITHMS``) on every call, never cached here:
one *variant* per algorithm, plus ``<algorithm>_<suffix>`` for each of its ``examples`` (e.g.
``ppo_dual``, PPO with the dual clip on). A variant's settings are its algorithm's defaults, then
its example's overrides, then the user's (:class:`CurveSettings`); the page shows no KL term
(``beta = 0``).

Legend: B ratios on a grid, evaluated as a batch of B one-token responses, tensors [B, 1].
Sign convention (stated on the page): the *objective* ``J = -per_token_loss`` (to maximise) and
the *gradient weight* ``w = dJ/d log pi = -(d loss / d log pi) / token_weight`` (the aggregation
weight, 1/B here, divided out): ``w > 0`` pushes the token's probability up, ``w < 0`` down,
``w = 0`` means the token teaches nothing.

Point states: the app's one vocabulary, :data:`rlviz.core.objectives.TOKEN_STATES`, from
:func:`~rlviz.core.objectives.token_states`: ``active`` (gradient flows unchanged), ``clipped`` (a
hard clip acted: the gradient is exactly zero), ``capped`` (the weight was bounded, the gradient
kept: CISPO), ``gated`` (a soft gate scales it below 0.99, never to zero: SAPO).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np
import pandas as pd
import torch

from rlviz.core.objectives import ALGORITHMS, gradient_weights, resolve_settings, token_states, trust_band
from rlviz.i18n import t

__all__ = [
    "overlay_caption",
    "practitioner_items",
    "probability_names",
    "probability_readings",
    "CASES_VARIANT",
    "CurveSettings",
    "CurvesResult",
    "DEFAULT_OLD_PROB",
    "DEFAULT_VARIANTS",
    "OLD_PROB_RANGE",
    "DUAL_VARIANT",
    "PROBABILITY_VARIANTS",
    "R_MAX",
    "R_MIN",
    "SCAN",
    "Variant",
    "curves_frame",
    "default_settings",
    "dual_clip",
    "evaluate",
    "get_variant",
    "gradient_support",
    "cases_variant_of",
    "ppo_cases_frame",
    "probability_frame",
    "reads_probability",
    "ratio_grid",
    "own_settings",
    "run",
    "support_frame",
    "trust_region",
    "variant_overrides",
    "variants",
    "x_axis",
    "zoom_window",
]

# Data, not behaviour: which variants the page opens with, and which ones its fixed views compare.
DEFAULT_VARIANTS: tuple[str, ...] = ("grpo", "dapo", "ppo_dual", "cispo", "sapo", "gmpo", "gspo")
PROBABILITY_VARIANTS: tuple[str, ...] = ("grpo", "dapo")  # symmetric clip vs clip-higher (teaching claim 2)
CASES_VARIANT = "ppo"  # the six cases of the clip: this variant's ε_low / ε_high
DUAL_VARIANT = "ppo_dual"  # the seventh case: this variant's dual clip c
R_MIN, R_MAX = 0.02, 3.5  # the ratio axis ("about 0 to 3"; 3.5 shows the dual clip at its c = 3)
# Linear points of a curve on that axis (plus half as many log-spaced ones, and each edge), and on the
# zoomed axis: about 2 px apart in the page's figures. Each point is sent to the browser four times a
# curve (two figures, x and y): more points cost a slider's rerun more than the curves gain.
N_POINTS, N_ZOOM = 160, 200
# Where gradient_support looks: ratios from 1e-3 to 20 (beyond any ratio a sane update produces).
# SAPO's gate is computed so its gradient stops being > 0 only far beyond, even at τ = 10 (about
# 1e-81 at r = 20).
SCAN = (1e-3, 20.0)
ZOOM_FACTOR, ZOOM_MIN_HALF = 2.5, 5e-4  # zoom window: 1 ± max(2.5 ε, 5e-4)
# pi_old of the drawn token, read only by objectives that read probabilities (DPPO): 1/2 is also what
# their surrogate assumes when it is given ratios alone (rlviz.core.objectives._probs). Its slider range.
DEFAULT_OLD_PROB = 0.5
OLD_PROB_RANGE = (0.05, 0.95, 0.05)


# ----------------------------------------------------------------------------------------------
# Variants and their settings, read from the registry
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Variant:
    """One curve the page can draw: a registry algorithm, or one of its ``examples``.

    Attributes:
        key: ``"dapo"`` for an algorithm, ``"<algorithm>_<suffix>"`` for an example (``"ppo_dual"``).
        algorithm: the registry name whose :func:`policy_loss` draws it.
        title: display name, the same in both languages (``"DAPO"``, ``"Dual-clip PPO"``).
        base_overrides: the example's :func:`policy_loss` overrides (``{}`` for an algorithm).
    """

    key: str
    algorithm: str
    title: str
    base_overrides: Mapping[str, Any] = field(default_factory=dict)


# The catalog and the registry entries it was read from; variants() reads ALGORITHMS on every call
# and builds the catalog again whenever an entry was added, removed or replaced.
_CATALOG: list = [(), {}]


def variants() -> dict[str, Variant]:
    """Every variant, read from ``ALGORITHMS`` now (an entry added at runtime shows): each
    algorithm in registry order, followed by its examples. ``{key: Variant}``.

    Raises:
        ValueError: an example's key is also another variant's key.
    """
    entries = tuple(ALGORITHMS.items())
    read_from, catalog = _CATALOG
    if len(read_from) == len(entries) and all(
        n == m and s is t for (n, s), (m, t) in zip(read_from, entries, strict=True)
    ):  # the very same registry entries (specs are frozen): the same catalog
        return dict(catalog)
    out: dict[str, Variant] = {}
    for name, spec in entries:
        made = [Variant(name, name, spec.title, MappingProxyType({}))]  # read-only: the catalog is shared
        made += [
            Variant(f"{name}_{ex.suffix}", name, ex.title, MappingProxyType(dict(ex.overrides))) for ex in spec.examples
        ]
        for entry in made:
            if entry.key in out:
                raise ValueError(
                    f"variant: {entry.key!r} is defined twice in the registry (an algorithm and an example)"
                )
            out[entry.key] = entry
    _CATALOG[:] = [entries, out]
    return dict(out)


def get_variant(key: str) -> Variant:
    """The variant called ``key``. Raises ``ValueError`` naming ``variant`` if there is none."""
    catalog = variants()
    try:
        return catalog[key]
    except KeyError:
        raise ValueError(f"variant: {key!r} is not one of {', '.join(catalog)}") from None


def default_settings(variant: str) -> dict[str, Any]:
    """The surrogate settings of ``variant`` before the user moves anything: the spec's defaults
    (``Setting.surrogate``), then the example's overrides. E.g. ``ppo_dual`` ->
    ``{"epsilon_low": 0.2, "epsilon_high": 0.2, "dual_clip_c": 3.0}``. Raises ``ValueError``."""
    v = get_variant(variant)
    return {s.name: v.base_overrides.get(s.name, s.default) for s in ALGORITHMS[v.algorithm].surrogate_settings}


@dataclass(frozen=True)
class CurveSettings:
    """The page's sliders: per variant, the surrogate settings the user changed.

    Attributes:
        overrides: ``{variant: {setting name: value}}``, e.g. ``{"dapo": {"epsilon_high": 0.3}}``.
            A variant or setting not named keeps its default (:func:`default_settings`); only
            surrogate settings (``Setting.surrogate``: clip bounds, dual clip c, gate
            temperatures) can be set; ``None`` switches an optional one (``dual_clip_c``) off.
        old_prob: pi_old of the drawn token, in (0, 1): only objectives that read probabilities
            (:func:`reads_probability`, DPPO) depend on it; their curves end at r = 1/old_prob.
    """

    overrides: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    old_prob: float = DEFAULT_OLD_PROB

    def check(self) -> CurveSettings:
        """Return ``self``; raise ``ValueError`` naming the parameter (and the variant) for an
        unknown variant or setting, a value the registry rejects (``resolve_settings``), or an
        ``old_prob`` not in (0, 1)."""
        p = self.old_prob
        if isinstance(p, bool) or not isinstance(p, (int, float)) or not (0.0 < float(p) < 1.0):
            raise ValueError(f"old_prob: π_old must be a number in (0, 1), got {p!r}")
        for variant in self.overrides:
            variant_overrides(variant, self)
        return self


def reads_probability(variant: str) -> bool:
    """Whether ``variant``'s objective reads pi and pi_old themselves, not only their ratio (the
    registry's ``AlgorithmSpec.reads_probability``): its curve depends on ``CurveSettings.old_prob``.
    Raises ``ValueError`` naming ``variant`` if unknown."""
    return ALGORITHMS[get_variant(variant).algorithm].reads_probability


def own_settings(variants: Iterable[str], settings: CurveSettings) -> CurveSettings:
    """``settings`` cut to what ``variants``' curves, gradient ranges and clip cases read: their own
    sliders, and ``old_prob`` only where one of them reads probabilities (:func:`reads_probability`;
    the default otherwise: a ratio-only objective's results do not move with it, but for rounding
    exactly on a clip edge). A caller that keeps results by their settings keys them by this, so that
    another variant's slider, or pi_old for a variant that reads only the ratio, finds the same key.
    Raises ``ValueError`` naming ``variant`` for an unknown variant."""
    variants = _unique_known(variants)
    mine = {v: o for v, o in settings.overrides.items() if v in variants}
    reads = any(reads_probability(v) for v in variants)
    return CurveSettings(mine, old_prob=settings.old_prob if reads else DEFAULT_OLD_PROB)


def _r_top(variant: str, settings: CurveSettings) -> float:
    """The largest ratio a token of ``variant`` can have: 1/pi_old where it reads probabilities
    (pi = r pi_old <= 1), else infinity."""
    return 1.0 / float(settings.old_prob) if reads_probability(variant) else math.inf


def variant_overrides(variant: str, settings: CurveSettings) -> dict[str, Any]:
    """The :func:`policy_loss` overrides of ``variant`` under ``settings``: its defaults, the
    example's overrides, the user's, ``beta = 0`` (no KL on this page), resolved and checked by
    ``resolve_settings``. Every loss setting of the algorithm, ``{name: value}``.

    Raises:
        ValueError: unknown variant; a setting that is not one of the variant's surrogate settings;
            a bad value, e.g. ``"epsilon_low: must be >= 0, got -0.1 (in DAPO)"``: the message
            starts with the parameter's name and ends with the variant's title.
    """
    v = get_variant(variant)
    spec = ALGORITHMS[v.algorithm]
    user = dict(settings.overrides.get(variant, {}))
    allowed = [s.name for s in spec.surrogate_settings]
    for name in user:
        if name not in allowed:
            raise ValueError(f"{name}: not a curve setting of {variant} (settings: {', '.join(allowed) or 'none'})")
    params = {**v.base_overrides, **user}
    if "beta" in spec.defaults:
        params["beta"] = 0.0
    try:
        return resolve_settings(v.algorithm, **params)
    except ValueError as exc:
        raise ValueError(f"{exc} (in {v.title})") from None


def trust_region(variant: str, settings: CurveSettings) -> tuple[float, float] | None:
    """The ratio interval ``(low, high)`` that ``variant``'s clip is set to, drawn as a band:
    :func:`rlviz.core.objectives.trust_band` of its algorithm under its settings (``1 ± ε`` for a
    ratio clip, ``e^±ε`` for a log-space one, ``None`` without a band). Raises ``ValueError``."""
    return trust_band(get_variant(variant).algorithm, **variant_overrides(variant, settings))


def dual_clip(variant: str, settings: CurveSettings) -> float | None:
    """The dual-clip constant c of ``variant`` under ``settings``, ``None`` where it is off or the
    algorithm has none (Ye et al. arXiv 1912.09729). Raises ``ValueError``."""
    return variant_overrides(variant, settings).get("dual_clip_c")


def zoom_window(variants: Iterable[str], settings: CurveSettings) -> tuple[float, float]:
    """A ratio window around 1 wide enough to show the narrowest band among ``variants``.

    For each variant whose algorithm clips in ratio space (``clip_space == "ratio"``), its band
    reaches ``ε = max(ε_low, ε_high)`` from 1; the window is ``1 ± max(2.5 ε_min, 5e-4)`` with
    ``ε_min`` the smallest such ``ε`` above 0 (``1 ± 5e-4`` if there is none). With the defaults
    that is GSPO's ``ε_high = 4e-4``: ``(0.999, 1.001)``. Raises ``ValueError`` as
    :func:`variant_overrides`.
    """
    reach = []
    for v in dict.fromkeys(variants):
        if ALGORITHMS[get_variant(v).algorithm].clip_space != "ratio":
            continue
        params = variant_overrides(v, settings)
        eps = max(params.get("epsilon_low", 0.0), params.get("epsilon_high", 0.0))
        if eps > 0:
            reach.append(eps)
    half = max(ZOOM_FACTOR * min(reach), ZOOM_MIN_HALF) if reach else ZOOM_MIN_HALF
    return 1.0 - half, 1.0 + half


# ----------------------------------------------------------------------------------------------
# Evaluation: policy_loss on a batch of one-token responses
# ----------------------------------------------------------------------------------------------


def ratio_grid(r_min: float, r_max: float, n: int, edges: Iterable[float] = ()) -> np.ndarray:
    """Sorted unique ratios: ``n`` linear and ``n // 2`` log-spaced points in ``[r_min, r_max]``, plus
    each edge in range and its two close neighbours (``edge · (1 ± 1e-9)``) so a jump draws sharp.

    Raises:
        ValueError: ``r_min`` not above 0, ``r_max`` not above ``r_min``, ``n`` below 2.
    """
    if not (math.isfinite(r_min) and r_min > 0):
        raise ValueError(f"r_min: must be > 0, got {r_min}")
    if not (math.isfinite(r_max) and r_max > r_min):
        raise ValueError(f"r_max: must be > r_min = {r_min}, got {r_max}")
    if n < 2:
        raise ValueError(f"n: must be >= 2, got {n}")
    parts = [np.linspace(r_min, r_max, n), np.geomspace(r_min, r_max, max(n // 2, 2))]
    for e in edges:
        near = np.array([e * (1 - 1e-9), e, e * (1 + 1e-9)])
        parts.append(near[(near >= r_min) & (near <= r_max)])
    return np.unique(np.concatenate(parts))


def _evaluate(
    algorithm: str, params: Mapping[str, Any], r: np.ndarray, advantage: float | np.ndarray, old_prob: float = 1.0
) -> dict[str, np.ndarray]:
    """The arrays behind :func:`evaluate` for resolved ``params`` (inputs already checked; pi_old =
    ``old_prob``; ``advantage`` one value, or one per ratio). Each point is a lone token: a
    batch-coupled objective's selection (``AlgorithmSpec.batch_coupled``: a top-k or a batch mean)
    sees each response as its own batch (``rows_alone``)."""
    old = torch.full((r.size, 1), math.log(old_prob), dtype=torch.float64)  # (B, 1)
    log_prob = torch.log(torch.from_numpy(r))[:, None] + old  # (B, 1)
    adv = torch.from_numpy(np.broadcast_to(np.asarray(advantage, dtype=np.float64), r.shape).copy())  # (B,)
    mask = torch.ones_like(log_prob)  # (B, 1)
    grad, out = gradient_weights(algorithm, log_prob, old, adv, mask, rows_alone=True, **params)  # (B, 1)
    weight = (-grad / out.token_weight)[:, 0].numpy() + 0.0  # (B,) dJ/d log pi per token (+0.0: no -0)
    objective = (-out.per_token_loss.detach())[:, 0].numpy()  # (B,)
    gate = out.gate_weight[:, 0].numpy() if out.gate_weight is not None else np.full(r.size, np.nan)
    return {
        "ratio": r,
        "objective": objective,
        "gradient_weight": weight,
        "clipped": out.clipped[:, 0].numpy(),
        "gate": gate,
        "state": token_states(algorithm, out)[:, 0].astype(str),  # (B,)
    }


def _check_ratios(ratios) -> np.ndarray:
    r = np.array(ratios, dtype=np.float64)  # a copy: torch wants a writable array
    if r.ndim != 1 or r.size == 0 or not np.all(np.isfinite(r)) or np.any(r <= 0):
        raise ValueError("ratios: must be a non-empty 1-D array of finite ratios > 0")
    return r


def _check_advantage(advantage: float) -> None:
    if not (math.isfinite(advantage) and advantage != 0):
        raise ValueError(f"advantage: must be finite and non-zero, got {advantage}")


def evaluate(variant: str, ratios: np.ndarray, advantage: float, settings: CurveSettings) -> pd.DataFrame:
    """Objective, gradient weight and state of ``variant`` at each ratio, for one advantage.

    Evaluates ``policy_loss`` once on a batch of B one-token responses with ``log pi_old =
    log(settings.old_prob)``, ``log pi = log r + log pi_old`` ([B, 1], float64), ``A = advantage``
    ([B]), and differentiates it by autograd (``gradient_weights``). For an objective that reads
    probabilities (:func:`reads_probability`) the ratios above ``1/old_prob`` (pi > 1) are left out.
    Source: each algorithm's paper as cited in its registry spec.

    Returns:
        DataFrame, one row per ratio: ``ratio``, ``objective`` (J = -per-token loss),
        ``gradient_weight`` (dJ/d log pi, the 1/B aggregation weight divided out), ``clipped``
        (the clip acted), ``gate`` (a soft gate's weight, e.g. SAPO's f'(r) = 4σ(1-σ); NaN
        without one), ``state`` (``token_states``: active / clipped / capped / gated).

    Raises:
        ValueError: unknown variant, bad settings (naming the parameter), a ratio not > 0 or not
            finite, an advantage of 0 or not finite.
    """
    r = _check_ratios(ratios)
    _check_advantage(advantage)
    params = variant_overrides(variant, settings.check())
    r = r[r <= _r_top(variant, settings)]
    return pd.DataFrame(_evaluate(get_variant(variant).algorithm, params, r, advantage, float(settings.old_prob)))


def _edges(variants: Iterable[str], settings: CurveSettings) -> list[float]:
    """Ratios where a curve of ``variants`` may jump or end: 1, the band edges, each dual clip c, and
    1/pi_old for an objective that reads probabilities."""
    edges = [1.0]
    for v in variants:
        if reads_probability(v):
            edges.append(_r_top(v, settings))
        band = trust_region(v, settings)
        if band is not None:
            edges += [b for b in band if b > 0]
        c = dual_clip(v, settings)
        if c is not None:
            edges.append(c)
    return edges


def _unique_known(variants: Iterable[str]) -> tuple[str, ...]:
    out = tuple(dict.fromkeys(variants))
    for v in out:
        get_variant(v)
    return out


CURVE_COLUMNS = ["algorithm", "title", "advantage", "ratio", "objective", "gradient_weight", "state", "clipped", "gate"]


def curves_frame(
    variants: Iterable[str],
    settings: CurveSettings,
    r_min: float = R_MIN,
    r_max: float = R_MAX,
    n: int = N_POINTS,
    support: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Long frame of every variant's curves for A = +1 and A = -1, each variant on its own ratio
    grid: ``n`` points over ``[r_min, r_max]`` with its own band edges and dual clip on it (see
    :func:`ratio_grid`), so that a variant's curve is the same whichever others it is drawn with.

    Columns: ``algorithm`` (variant key), ``title``, ``advantage`` (+1 / -1), ``ratio``,
    ``objective``, ``gradient_weight``, ``state``, ``clipped``, ``gate``, as :func:`evaluate`.
    A variant without a band (a mask: DPPO, M2PO) also gets the ratios where its gradient stops on
    its grid, read from ``support`` (:func:`support_frame` of the same variants and settings, when the
    caller has it) or found here by :func:`gradient_support`.
    Raises ``ValueError`` for an unknown variant or bad settings.
    """
    variants = _unique_known(variants)
    settings.check()
    parts: dict[str, list] = {c: [] for c in CURVE_COLUMNS}  # column -> its pieces, one frame at the end
    for v in variants:
        grid = mine = ratio_grid(r_min, r_max, n, _edges([v], settings))
        if trust_region(v, settings) is None:  # a mask without a band (DPPO, M2PO): its edges
            if support is not None and v in set(support["algorithm"]):
                rows = support[support["algorithm"] == v]
                ends = [float(e) for e in rows[["low", "high"]].to_numpy().ravel()]
            else:
                ends = [e for pair in _supports(v, (1.0, -1.0), settings) for e in pair if e is not None]
            ends = [e for e in ends if math.isfinite(e) and r_min <= e <= r_max]
            mine = np.unique(np.concatenate([grid, ratio_grid(r_min, r_max, 2, ends)])) if ends else grid
        # what evaluate() does, its checks done once above: the same policy_loss call per sign
        variant = get_variant(v)
        params = variant_overrides(v, settings)
        mine = mine[mine <= _r_top(v, settings)]
        # both signs in one policy_loss call (each point a lone token): A = +1 on the grid, then A = -1
        out = _evaluate(
            variant.algorithm, params, np.tile(mine, 2), np.repeat([1.0, -1.0], mine.size), float(settings.old_prob)
        )
        out |= {"algorithm": [v] * (2 * mine.size), "title": [variant.title] * (2 * mine.size)}
        out["advantage"] = np.repeat([1, -1], mine.size)
        for c in CURVE_COLUMNS:
            parts[c].append(np.asarray(out[c]))
    if not variants:
        return pd.DataFrame(columns=CURVE_COLUMNS)
    return pd.DataFrame({c: np.concatenate(parts[c]) for c in CURVE_COLUMNS})


# ----------------------------------------------------------------------------------------------
# Where the gradient flows
# ----------------------------------------------------------------------------------------------


# How closely a gradient range's end is found (relative): the scan's points beside each edge, and
# where refining stops.
RESOLVED = 1e-12

# Points per policy_loss call where only zero / nonzero is read: above 2048 elements torch splits
# its element-wise kernels over threads, which costs about 5x more CPU on a busy 2-core machine.
LIVE_ROWS = 2048


def _live(variant: str, settings: CurveSettings) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """``(ratios, advantages) -> gradient != 0`` for one variant, its settings resolved once: one
    ``policy_loss`` call for any mix of advantages (each point is a lone token, ``rows_alone``, so a
    point's answer does not depend on the others in the batch)."""
    algorithm, params = get_variant(variant).algorithm, variant_overrides(variant, settings)

    def live(ratios, advantages) -> np.ndarray:
        r = np.array(ratios, dtype=np.float64)
        a = np.broadcast_to(np.asarray(advantages, dtype=np.float64), r.shape)
        return np.concatenate(
            [
                _evaluate(algorithm, params, r[i : i + LIVE_ROWS], a[i : i + LIVE_ROWS], float(settings.old_prob))[
                    "gradient_weight"
                ]
                != 0.0
                for i in range(0, max(r.size, 1), LIVE_ROWS)
            ]
        )

    return live


def _refine(
    live_of: Callable[[np.ndarray, np.ndarray], np.ndarray], ends: list[tuple[float, float, float]], rounds: int = 3
) -> list[float]:
    """For each end ``(zero_at, live_at, advantage)`` (zero gradient at ``zero_at``, nonzero at
    ``live_at``), the ratio between them where the gradient stops, narrowed by evaluating
    ``policy_loss`` on 1001 points ``rounds`` times (each round 1000 times finer); returns the last
    ratio that still has a gradient, per end. The ends still narrowing share one call per round; an
    end the scan already holds to ``RESOLVED`` (relative) is returned as it is."""
    state = [[zero_at, live_at, adv] for zero_at, live_at, adv in ends]
    # an end the scan already holds to RESOLVED (a band edge and its close neighbour) needs no round
    active = [
        i for i, (zero_at, live_at, _) in enumerate(state) if abs(zero_at - live_at) > 2 * RESOLVED * abs(live_at)
    ]
    for _ in range(rounds):
        if not active:
            break
        pts = [np.linspace(state[i][1], state[i][0], 1001) for i in active]
        live = live_of(np.concatenate(pts), np.repeat([state[i][2] for i in active], 1001)).reshape(len(active), 1001)
        still = []
        for i, p, lv in zip(active, pts, live):
            k = int(np.argmin(lv))  # first zero point going from live_at towards zero_at
            if k == 0 or lv[k]:  # no switch inside (rounding at the ends): keep what we have
                continue
            state[i][1], state[i][0] = p[k - 1], p[k]
            still.append(i)
        active = still
    return [float(s[1]) for s in state]


def _supports(
    variant: str, advantages: Iterable[float], settings: CurveSettings, r_min: float = SCAN[0], r_max: float = SCAN[1]
) -> list[tuple[float | None, float | None]]:
    """:func:`gradient_support` of ``variant`` for each of ``advantages`` (inputs checked), found
    together: one scan for all advantages, then one refining call per round for all ends."""
    advantages = [float(a) for a in advantages]
    r_max = min(r_max, _r_top(variant, settings))
    live_of = _live(variant, settings)
    # each edge where the gradient may stop (band, dual clip, 1/pi_old) with its neighbours RESOLVED
    # away: where it does stop there, the scan has the end already, and no refining call is made
    edges = np.asarray(_edges([variant], settings), dtype=np.float64)
    near = np.concatenate([edges * (1 - RESOLVED), edges, edges * (1 + RESOLVED)])
    grid = np.unique(np.concatenate([np.geomspace(r_min, r_max, 2001), near]))
    grid = grid[(grid >= r_min) & (grid <= r_max)]
    scan = live_of(np.tile(grid, len(advantages)), np.repeat(advantages, len(grid))).reshape(len(advantages), -1)
    ends, where = [], []  # the ends to refine, and (advantage index, 0 low / 1 high) of each
    out: list[list[float | None]] = []
    for i, (adv, live) in enumerate(zip(advantages, scan)):
        if not live.any():
            out.append([math.nan, math.nan])
            continue
        out.append([None, None])
        first, last = int(np.argmax(live)), int(len(live) - 1 - np.argmax(live[::-1]))
        if first != 0:
            ends.append((grid[first - 1], grid[first], adv))
            where.append((i, 0))
        if last != len(grid) - 1:
            ends.append((grid[last + 1], grid[last], adv))
            where.append((i, 1))
    for (i, side), edge in zip(where, _refine(live_of, ends)):
        out[i][side] = edge
    return [(low, high) for low, high in out]


def gradient_support(
    variant: str, advantage: float, settings: CurveSettings, r_min: float = SCAN[0], r_max: float = SCAN[1]
) -> tuple[float | None, float | None]:
    """The range of ratios whose token still gets a gradient, found from ``policy_loss``'s gradient.

    Scans 2001 log-spaced ratios in ``[r_min, r_max]`` (default ``SCAN`` = [0.001, 20]; for an
    objective that reads probabilities at most ``1/old_prob``, where pi = 1) plus the variant's band
    edges and dual clip, then narrows each end where the gradient switches off (see
    :func:`_refine`, about 1e-12 relative). Returns ``(low, high)``: the smallest and largest ratio
    with a nonzero gradient, ``None`` where it still flows at the end of the scan (no bound: the
    token is never cut off on that side). ``(nan, nan)`` if it never flows.
    E.g. PPO with ε = 0.2: ``(None, 1.2)`` for A>0, ``(0.8, None)`` for A<0 (teaching claims 1, 10).

    Raises ``ValueError`` for an unknown variant, bad settings or advantage.
    """
    _check_advantage(advantage)
    settings.check()
    return _supports(variant, [advantage], settings, r_min, r_max)[0]


SUPPORT_COLUMNS = ["algorithm", "title", "advantage", "low", "high", "band_low", "band_high"]


def support_frame(variants: Iterable[str], settings: CurveSettings) -> pd.DataFrame:
    """Per variant and advantage sign, the ratio range that still gets a gradient
    (:func:`gradient_support`).

    Columns: ``algorithm``, ``title``, ``advantage``, ``low``, ``high`` (NaN = unbounded on that side;
    ``low`` unbounded means down to 0, ``high`` up to ∞), ``band_low``, ``band_high`` (the clip
    setting, :func:`trust_region`; NaN without a band). Raises ``ValueError``.
    """
    settings.check()
    rows = []
    for v in _unique_known(variants):
        band = trust_region(v, settings) or (math.nan, math.nan)
        for a, (low, high) in zip((1, -1), _supports(v, (1.0, -1.0), settings)):
            rows.append(
                {
                    "algorithm": v,
                    "title": get_variant(v).title,
                    "advantage": a,
                    "low": math.nan if low is None else low,
                    "high": math.nan if high is None else high,
                    "band_low": band[0],
                    "band_high": band[1],
                }
            )
    return pd.DataFrame(rows, columns=SUPPORT_COLUMNS)


def ppo_cases_frame(
    settings: CurveSettings, variant: str = CASES_VARIANT, dual_variant: str = DUAL_VARIANT
) -> pd.DataFrame:
    """The six cases of the clip (sign of A × where r sits) plus the dual clip's seventh, each
    evaluated by ``policy_loss`` at one representative ratio (teaching claim 1; PPO arXiv
    1707.06347 eq. 7, dual clip arXiv 1912.09729).

    The six cases are ``variant``'s clip (default PPO) with its ``ε_low`` / ``ε_high`` and no dual
    clip; the seventh adds the dual clip ``c`` of ``dual_variant`` (default Dual-clip PPO) and is
    left out where that is off. Representative ratios: ``0.6 (1-ε_low)`` below (left out if not
    above 0), ``1`` inside, ``1.4 (1+ε_high)`` above, and ``1.25 c`` beyond the dual clip (A<0).

    Returns:
        DataFrame, columns ``advantage``, ``region`` (``below`` / ``inside`` / ``above`` /
        ``beyond_c``), ``ratio``, ``branch`` (which term the min takes: ``unclipped`` r·A,
        ``clipped`` clip(r)·A, ``equal`` (both, r inside), ``dual`` c·A), ``objective``,
        ``gradient_weight``, ``zero_gradient``.

    Raises:
        ValueError: bad settings (naming the parameter), or ``variant`` without ε_low / ε_high.
    """
    params = variant_overrides(variant, settings)
    algorithm = get_variant(variant).algorithm
    if "epsilon_low" not in params or "epsilon_high" not in params:
        raise ValueError(f"variant: {variant!r} has no clip bounds epsilon_low / epsilon_high")
    plain = {**params, "dual_clip_c": None} if "dual_clip_c" in params else params
    c = dual_clip(dual_variant, settings)
    regions = {
        "below": 0.6 * (1.0 - params["epsilon_low"]),
        "inside": 1.0,
        "above": 1.4 * (1.0 + params["epsilon_high"]),
    }
    cases = [(a, region, r, plain) for a in (1, -1) for region, r in regions.items() if r > 0]
    if c is not None and "dual_clip_c" in params:
        cases.append((-1, "beyond_c", 1.25 * c, resolve_settings(algorithm, **{**params, "dual_clip_c": c})))
    rows = []
    for a, region, r, p in cases:
        row = _evaluate(algorithm, p, np.array([r], dtype=np.float64), float(a))
        clipped, weight = bool(row["clipped"][0]), float(row["gradient_weight"][0])
        if region == "inside":
            branch = "equal"
        elif region == "beyond_c":
            branch = "dual" if clipped else "unclipped"
        else:
            branch = "clipped" if clipped else "unclipped"
        rows.append(
            {
                "advantage": a,
                "region": region,
                "ratio": r,
                "branch": branch,
                "objective": float(row["objective"][0]),
                "gradient_weight": weight,
                "zero_gradient": weight == 0.0,
            }
        )
    return pd.DataFrame(rows)


def probability_frame(
    settings: CurveSettings,
    variants: Iterable[str] = PROBABILITY_VARIANTS,
    n: int = 197,
    marks=(0.2,),
    support: pd.DataFrame | None = None,
) -> tuple[pd.DataFrame, dict[str, float]]:
    """How far a token's probability can rise before its gradient stops (A>0; teaching claim 2).

    For each of ``variants`` (default: symmetric clip ``grpo`` vs clip-higher ``dapo``, each with
    its own ε_high from ``settings``): r* = the largest ratio with a nonzero gradient for A>0,
    found by :func:`gradient_support` from ``policy_loss`` (∞ where it never stops); then over
    π_old in (0, 1) ``pi_new_max = min(1, π_old · r*)`` and ``room = pi_new_max - π_old``.

    ``support``: :func:`support_frame` of these variants under these settings, when the caller has
    it (r* is its ``high`` for A = +1, NaN meaning ∞); found here otherwise.

    Returns ``(frame, ceilings)``: columns ``algorithm``, ``title``, ``pi_old``, ``pi_new_max``,
    ``room``, ``marked`` (π_old is one of ``marks``); ``ceilings`` maps variant -> r*
    (e.g. 1.2 and 1.28: a token at 0.2 may rise only to 0.24, or 0.256 under clip-higher).
    Raises ``ValueError`` for a mark outside (0, 1), an unknown variant or bad settings.
    """
    variants = _unique_known(variants)
    marks = [float(m) for m in marks]
    for m in marks:
        if not (0.0 < m < 1.0):
            raise ValueError(f"marks: π_old must be in (0, 1), got {m}")
    pi_old = np.unique(np.concatenate([np.linspace(0.005, 0.995, n), marks]))
    ceilings, parts = {}, []
    settings.check()
    known = (
        {}
        if support is None
        else {v: h for v, a, h in support[["algorithm", "advantage", "high"]].itertuples(index=False) if a == 1}
    )
    for v in variants:
        r_star = known[v] if v in known else gradient_support(v, 1.0, settings)[1]
        r_star = math.inf if r_star is None or math.isnan(r_star) else float(r_star)
        ceilings[v] = r_star
        pi_new = np.minimum(1.0, pi_old * r_star)
        parts.append(
            pd.DataFrame(
                {
                    "algorithm": v,
                    "title": get_variant(v).title,
                    "pi_old": pi_old,
                    "pi_new_max": pi_new,
                    "room": pi_new - pi_old,
                    "marked": np.isin(pi_old, marks),
                }
            )
        )
    columns = ["algorithm", "title", "pi_old", "pi_new_max", "room", "marked"]
    frame = pd.concat(parts, ignore_index=True) if parts else pd.DataFrame(columns=columns)
    return frame, ceilings


# ----------------------------------------------------------------------------------------------
# The page's call
# ----------------------------------------------------------------------------------------------


@dataclass
class CurvesResult:
    """What the page's curve sections draw.

    Attributes:
        settings: the settings it ran with; ``variants``: the variant keys, in the order asked.
        curves, support, cases: as :func:`curves_frame`, :func:`support_frame`, :func:`ppo_cases_frame`.
        bands: variant -> its trust region (:func:`trust_region`), ``None`` without one.
        dual_clips: variant -> its dual clip c (:func:`dual_clip`), ``None`` where off.
        x_range: the ratio range of ``curves``.
        cases_variant: whose ε_low / ε_high the clip cases use: the first chosen variant of
            ``CASES_VARIANT``'s algorithm (PPO itself, or Dual-clip PPO when only that is chosen), so
            the table follows sliders the learner can see; ``CASES_VARIANT`` when none is chosen.
    """

    settings: CurveSettings
    variants: tuple[str, ...]
    curves: pd.DataFrame
    support: pd.DataFrame
    cases: pd.DataFrame
    bands: dict[str, tuple[float, float] | None]
    dual_clips: dict[str, float | None]
    x_range: tuple[float, float]
    cases_variant: str = CASES_VARIANT

    @property
    def first_band(self) -> tuple[str, tuple[float, float]] | None:
        """``(variant, band)`` of the first variant that has a band (the overlay's grey band), or None."""
        return next(((v, b) for v, b in self.bands.items() if b is not None), None)


def x_axis(variants: Iterable[str], settings: CurveSettings, zoom: bool = False) -> tuple[tuple[float, float], int]:
    """``((r_min, r_max), n)``: the ratio axis :func:`run` draws ``variants`` on, ``[0.02, 3.5]`` with
    ``N_POINTS`` linear points, or :func:`zoom_window` with ``N_ZOOM`` when ``zoom``; pass it to
    :func:`curves_frame`. Raises ``ValueError`` for an unknown variant or bad settings."""
    variants = _unique_known(variants)
    return (zoom_window(variants, settings), N_ZOOM) if zoom else ((R_MIN, R_MAX), N_POINTS)


def cases_variant_of(variants: Iterable[str]) -> str:
    """Whose ε_low / ε_high the clip cases use: the first of ``variants`` of ``CASES_VARIANT``'s
    algorithm (PPO itself, or Dual-clip PPO when only that is chosen), ``CASES_VARIANT`` when none is.
    Raises ``ValueError`` for an unknown variant."""
    cases_algorithm = get_variant(CASES_VARIANT).algorithm
    return next((v for v in _unique_known(variants) if get_variant(v).algorithm == cases_algorithm), CASES_VARIANT)


def run(
    variants: Iterable[str],
    settings: CurveSettings,
    zoom: bool = False,
    support: pd.DataFrame | None = None,
    curves: pd.DataFrame | None = None,
    cases: pd.DataFrame | None = None,
) -> CurvesResult:
    """The page's call: curves of ``variants`` on ``[0.02, 3.5]`` (or on :func:`zoom_window` around
    r = 1 when ``zoom``; :func:`x_axis`), the gradient-range table and the clip cases. (The
    probability view, :func:`probability_frame`, has its own call so its slider does not recompute
    the curves.)

    The parts, when the caller has them (the page keeps each variant's part by that variant's own
    settings, so that a slider recomputes only its own variant's); found here otherwise:
        support: :func:`support_frame` of these variants under these settings.
        curves: :func:`curves_frame` of these variants on :func:`x_axis` (each variant's curve
            depends on its own settings only).
        cases: :func:`ppo_cases_frame` of :func:`cases_variant_of` these variants.

    Raises:
        ValueError: unknown variant, or bad settings naming the parameter (and the variant).
    """
    variants = _unique_known(variants)
    settings.check()
    x_range, n = x_axis(variants, settings, zoom)
    cases_variant = cases_variant_of(variants)
    if support is None or _in_order(support) != list(variants):
        support = support_frame(variants, settings)
    if curves is None or _in_order(curves) != list(variants):
        curves = curves_frame(variants, settings, *x_range, n=n, support=support)
    return CurvesResult(
        settings=settings,
        variants=variants,
        curves=curves,
        support=support,
        cases=ppo_cases_frame(settings, variant=cases_variant) if cases is None else cases,
        bands={v: trust_region(v, settings) for v in variants},
        dual_clips={v: dual_clip(v, settings) for v in variants},
        x_range=x_range,
        cases_variant=cases_variant,
    )


def _in_order(frame: pd.DataFrame) -> list[str]:
    """The variants of ``frame``'s ``algorithm`` column in order of appearance (pandas' hash-based
    unique: a Python loop over the rows costs milliseconds on a curves frame)."""
    return [str(v) for v in pd.unique(frame["algorithm"])]


def slider_start(name: str, low: float) -> float:
    """Where the page's slider of an optional surrogate setting (registry default None: off) starts
    while its toggle is off: the value an example of the registry gives that setting (the dual clip's
    c = 3 of Dual-clip PPO), else the slider's lowest value ``low``."""
    given = [v.base_overrides[name] for v in variants().values() if v.base_overrides.get(name) is not None]
    return float(given[0]) if given else float(low)


# -- the page's words, in a language (the page draws them; no Streamlit here) ----------------------------


def overlay_caption(res: CurvesResult, lang: str) -> str:
    """The caption under the overlay figure in ``lang``: what it shows, the first chosen trust band and the
    chosen objectives whose J is a value, not a surrogate (a stop-gradient weight: ``detached_weight``)."""
    catalog = variants()
    caption = t("curves.overlay_caption", lang)
    if res.first_band:
        band_of, (lo, hi) = res.first_band
        caption += " " + t("curves.overlay_band", lang, title=catalog[band_of].title, lo=f"{lo:.4g}", hi=f"{hi:.4g}")
    detached = [catalog[v].title for v in res.variants if ALGORITHMS[catalog[v].algorithm].detached_weight]
    if detached:
        caption += " " + t("curves.detached_note", lang, titles=", ".join(detached))
    return caption


def practitioner_items(chosen: Iterable[str], lang: str) -> str:
    """Each chosen variant's objective (once) as a Markdown list in ``lang``: its paper, arXiv id and equation,
    and under it each surrogate setting's TRL and verl names."""
    catalog = variants()
    items = []
    for name in dict.fromkeys(catalog[v].algorithm for v in chosen):
        spec = ALGORITHMS[name]
        item = t("curves.paper_item", lang, title=spec.title, paper=spec.paper, arxiv=spec.arxiv, where=spec.equation)
        names = [
            t(
                "curves.setting_item",
                lang,
                name=s.help.get(lang, s.name),
                trl=f"`{s.trl}`" if s.trl else "—",
                verl=f"`{s.verl}`" if s.verl else "—",
            )
            for s in spec.surrogate_settings
        ]
        items.append(f"- {item}" + "".join(f"\n    - {n}" for n in names))
    return "\n".join(items)


def probability_names(eps: Mapping[str, float | None], lang: str) -> dict[str, str]:
    """Each of :data:`PROBABILITY_VARIANTS` -> its name in the probability view, in ``lang``, with its ε_high
    (``eps``; a variant without one: its title)."""
    catalog = variants()
    return {
        v: t("curves.prob_name", lang, title=catalog[v].title, eps=f"{eps[v]:.2f}")
        if eps[v] is not None
        else catalog[v].title
        for v in PROBABILITY_VARIANTS
    }


def probability_readings(
    prob: pd.DataFrame, marks: Iterable[float], ceilings: Mapping[str, float], names: Mapping[str, str], lang: str
) -> list[str]:
    """One sentence per mark in ``lang``: the highest π_new the first two :data:`PROBABILITY_VARIANTS` let a
    token at that π_old reach, the room left and their r* (``prob``, ``ceilings``: :func:`probability_frame`'s)."""
    a, b = PROBABILITY_VARIANTS[:2]
    marked = prob[prob["marked"].to_numpy(dtype=bool)]  # the rows at the marks, read once (not per lookup)
    at = {
        (v, p): (new, room)
        for v, p, new, room in zip(
            marked["algorithm"].to_numpy(dtype=object),
            *(marked[c].to_numpy() for c in ("pi_old", "pi_new_max", "room")),
        )
    }
    return [
        t(
            "curves.prob_result",
            lang,
            p=f"{p:.2f}",
            a=names[a],
            b=names[b],
            pa=f"{at[a, p][0]:.3f}",
            pb=f"{at[b, p][0]:.3f}",
            da=f"{at[a, p][1]:.3f}",
            db=f"{at[b, p][1]:.3f}",
            ra=f"{ceilings[a]:.4g}",
            rb=f"{ceilings[b]:.4g}",
        )
        for p in marks
    ]
