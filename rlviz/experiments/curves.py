"""Objective and gradient weight of each algorithm as a function of the importance ratio.

Every number comes from :func:`rlviz.core.objectives.policy_loss` (and autograd through it via
:func:`~rlviz.core.objectives.gradient_weights`), the code that trains the model: one-token
responses (so GSPO's and GMPO's sequence ratio equals the token ratio), ``log pi_old = 0``,
``log pi = log r``, advantage ``A = +1`` or ``-1``.

Legend: B ratios on a grid, evaluated as a batch of B one-token responses, tensors [B, 1].
Sign convention (stated on the page): the *objective* ``J = -per_token_loss`` (to maximise) and
the *gradient weight* ``w = dJ/d log pi = -(d loss / d log pi) / token_weight`` (the aggregation
weight, 1/B here, divided out): ``w > 0`` pushes the token's probability up, ``w < 0`` down,
``w = 0`` means the token teaches nothing.

Point states: ``active`` (gradient flows unchanged), ``capped`` (the clip acted but the gradient
is kept: CISPO caps the weight), ``gated`` (SAPO's soft gate scales it, never to zero),
``zero`` (the gradient is exactly zero: a hard clip acted).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

import numpy as np
import pandas as pd
import torch

from rlviz.core.objectives import ALGORITHMS, gradient_weights

__all__ = [
    "CurveSettings",
    "CurvesResult",
    "DEFAULT_VARIANTS",
    "R_MAX",
    "R_MIN",
    "SCAN",
    "STATES",
    "VARIANTS",
    "curves_frame",
    "evaluate",
    "gradient_support",
    "ppo_cases_frame",
    "probability_frame",
    "ratio_grid",
    "run",
    "support_frame",
    "trust_region",
    "variant_algorithm",
    "variant_overrides",
    "variant_title",
    "zoom_window",
]

# What the page can draw: the nine registry algorithms plus PPO with the dual clip switched on.
VARIANTS: tuple[str, ...] = (
    "ppo",
    "grpo",
    "dr_grpo",
    "dapo",
    "ppo_dual",
    "gspo",
    "gspo_token",
    "gmpo",
    "sapo",
    "cispo",
)
DEFAULT_VARIANTS: tuple[str, ...] = ("grpo", "dapo", "ppo_dual", "cispo", "sapo", "gmpo", "gspo")
_PPO_CLIP = ("ppo", "grpo", "dr_grpo", "ppo_dual")  # share the ε_low / ε_high sliders
STATES = ("active", "capped", "gated", "zero")
R_MIN, R_MAX = 0.02, 3.5  # the ratio axis ("about 0 to 3"; 3.5 shows the dual clip at its c = 3)
# Where gradient_support looks: ratios from 1e-3 to 20 (beyond any ratio a sane update produces).
# SAPO's gate is computed so its gradient stays > 0 there even at τ = 10 (about 1e-81 at r = 20).
SCAN = (1e-3, 20.0)


def _default(name: str, key: str) -> float:
    return float(ALGORITHMS[name].defaults[key])


@dataclass(frozen=True)
class CurveSettings:
    """The page's sliders: per-algorithm settings, defaults from the algorithm registry.

    Attributes:
        epsilon_low: lower clip offset of PPO, GRPO, Dr.GRPO, dual-clip PPO and DAPO (ratio 1-ε_low).
        epsilon_high: upper clip offset of PPO, GRPO, Dr.GRPO and dual-clip PPO (ratio 1+ε_high).
        dapo_epsilon_high: DAPO's raised upper offset (clip-higher; paper 0.28).
        dual_clip_c: dual-clip constant c > 1 of "Dual-clip PPO" (A<0 only; verl default 3).
        tau_pos, tau_neg: SAPO gate temperatures for A>0 and A<=0 (paper 1.0 / 1.05).
        gmpo_epsilon: GMPO's log-space clip, used for both sides (ratio range e^±ε; paper 0.4).
        cispo_epsilon_low, cispo_epsilon_high: CISPO weight bounds 1-ε_low, 1+ε_high (1.0 = no floor).
        gspo_epsilon_low, gspo_epsilon_high: GSPO / GSPO-token sequence clip (paper 3e-4 / 4e-4).
    """

    epsilon_low: float = _default("grpo", "epsilon_low")
    epsilon_high: float = _default("grpo", "epsilon_high")
    dapo_epsilon_high: float = _default("dapo", "epsilon_high")
    dual_clip_c: float = 3.0
    tau_pos: float = _default("sapo", "tau_pos")
    tau_neg: float = _default("sapo", "tau_neg")
    gmpo_epsilon: float = _default("gmpo", "epsilon_high")
    cispo_epsilon_low: float = _default("cispo", "epsilon_low")
    cispo_epsilon_high: float = _default("cispo", "epsilon_high")
    gspo_epsilon_low: float = _default("gspo", "epsilon_low")
    gspo_epsilon_high: float = _default("gspo", "epsilon_high")

    def validate(self) -> CurveSettings:
        """Return ``self``; raise ``ValueError`` naming the field for a NaN/inf, a negative ε,
        a dual-clip c not above 1 or a temperature not above 0."""
        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise ValueError(f"{f.name}: must be a finite number, got {value!r}")
            if "epsilon" in f.name and value < 0:
                raise ValueError(f"{f.name}: must be >= 0, got {value}")
        if self.dual_clip_c <= 1:
            raise ValueError(f"dual_clip_c: must be > 1, got {self.dual_clip_c}")
        for name in ("tau_pos", "tau_neg"):
            if getattr(self, name) <= 0:
                raise ValueError(f"{name}: must be > 0, got {getattr(self, name)}")
        return self


def _check_variant(variant: str) -> None:
    if variant not in VARIANTS:
        raise ValueError(f"variant: {variant!r} is not one of {', '.join(VARIANTS)}")


def variant_algorithm(variant: str) -> str:
    """The registry algorithm behind a variant (``ppo_dual`` -> ``ppo``). Raises ``ValueError``."""
    _check_variant(variant)
    return "ppo" if variant == "ppo_dual" else variant


def variant_title(variant: str) -> str:
    """Display name, the same in both languages (``"GRPO"``, ``"Dual-clip PPO"``)."""
    _check_variant(variant)
    return "Dual-clip PPO" if variant == "ppo_dual" else ALGORITHMS[variant].title


def variant_overrides(variant: str, settings: CurveSettings) -> dict[str, object]:
    """The :func:`policy_loss` overrides of ``variant`` under ``settings`` (``beta = 0``: no KL)."""
    _check_variant(variant)
    s = settings
    if variant in _PPO_CLIP:
        out = {"epsilon_low": s.epsilon_low, "epsilon_high": s.epsilon_high, "dual_clip_c": None}
        if variant == "ppo_dual":
            out["dual_clip_c"] = s.dual_clip_c
    elif variant == "dapo":
        out = {"epsilon_low": s.epsilon_low, "epsilon_high": s.dapo_epsilon_high, "dual_clip_c": None}
    elif variant in ("gspo", "gspo_token"):
        out = {"epsilon_low": s.gspo_epsilon_low, "epsilon_high": s.gspo_epsilon_high}
    elif variant == "gmpo":
        out = {"epsilon_low": s.gmpo_epsilon, "epsilon_high": s.gmpo_epsilon}
    elif variant == "sapo":
        out = {"tau_pos": s.tau_pos, "tau_neg": s.tau_neg}
    else:  # cispo
        out = {"epsilon_low": s.cispo_epsilon_low, "epsilon_high": s.cispo_epsilon_high}
    return {**out, "beta": 0.0}


def trust_region(variant: str, settings: CurveSettings) -> tuple[float, float] | None:
    """The ratio interval ``(low, high)`` a variant's clip is set to (its settings, drawn as a band):
    ``1 ± ε`` for ratio clips, ``e^±ε`` for GMPO's log-space clip, ``None`` for SAPO (no clip)."""
    o = variant_overrides(variant, settings)
    if variant == "sapo":
        return None
    if variant == "gmpo":
        return math.exp(-o["epsilon_low"]), math.exp(o["epsilon_high"])
    return max(0.0, 1.0 - o["epsilon_low"]), 1.0 + o["epsilon_high"]


def zoom_window(settings: CurveSettings) -> tuple[float, float]:
    """A ratio window around 1 wide enough to show GSPO's band: ``1 ± max(2.5 ε_max, 5e-4)``."""
    half = max(2.5 * max(settings.gspo_epsilon_low, settings.gspo_epsilon_high), 5e-4)
    return 1.0 - half, 1.0 + half


def ratio_grid(r_min: float, r_max: float, n: int, edges: list[float] = ()) -> np.ndarray:
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


def _evaluate(variant: str, r: np.ndarray, advantage: float, settings: CurveSettings) -> dict[str, np.ndarray]:
    """The arrays behind :func:`evaluate` (inputs already checked)."""
    log_prob = torch.log(torch.from_numpy(r))[:, None]  # (B, 1)
    old = torch.zeros_like(log_prob)  # (B, 1)
    adv = torch.full((r.size,), float(advantage), dtype=torch.float64)  # (B,)
    mask = torch.ones_like(log_prob)  # (B, 1)
    grad, out = gradient_weights(
        variant_algorithm(variant), log_prob, old, adv, mask, **variant_overrides(variant, settings)
    )  # grad: (B, 1) d loss / d log pi
    weight = (-grad / out.token_weight)[:, 0].numpy() + 0.0  # (B,) dJ/d log pi per token (+0.0: no -0)
    objective = (-out.per_token_loss.detach())[:, 0].numpy()  # (B,)
    clipped = out.clipped[:, 0].numpy()
    gate = out.gate_weight[:, 0].numpy() if out.gate_weight is not None else np.full(r.size, np.nan)
    state = np.where(
        weight == 0.0, "zero", np.where(clipped, "capped", "gated" if out.gate_weight is not None else "active")
    )
    return {
        "ratio": r,
        "objective": objective,
        "gradient_weight": weight,
        "clipped": clipped,
        "gate": gate,
        "state": state,
    }


def _check_ratios(ratios) -> np.ndarray:
    r = np.array(ratios, dtype=np.float64)  # a copy: torch wants a writable array
    if r.ndim != 1 or r.size == 0 or not np.all(np.isfinite(r)) or np.any(r <= 0):
        raise ValueError("ratios: must be a non-empty 1-D array of finite ratios > 0")
    return r


def evaluate(variant: str, ratios: np.ndarray, advantage: float, settings: CurveSettings) -> pd.DataFrame:
    """Objective, gradient weight and state of ``variant`` at each ratio, for one advantage.

    Evaluates ``policy_loss`` once on a batch of B one-token responses with ``log pi = log r``
    ([B, 1], float64), ``log pi_old = 0``, ``A = advantage`` ([B]), and differentiates it by
    autograd (``gradient_weights``). Source: each algorithm's paper as cited in its registry spec.

    Returns:
        DataFrame, one row per ratio: ``ratio``, ``objective`` (J = -per-token loss),
        ``gradient_weight`` (dJ/d log pi, the 1/B aggregation weight divided out), ``clipped``
        (the clip acted), ``gate`` (SAPO's f'(r) = 4σ(1-σ); NaN for the others), ``state``.

    Raises:
        ValueError: unknown variant, bad settings (naming the parameter), a ratio not > 0 or not finite.
    """
    _check_variant(variant)
    r = _check_ratios(ratios)
    if not (math.isfinite(advantage) and advantage != 0):
        raise ValueError(f"advantage: must be finite and non-zero, got {advantage}")
    settings.validate()
    return pd.DataFrame(_evaluate(variant, r, advantage, settings))


def _edges(variants, settings: CurveSettings) -> list[float]:
    edges = [1.0]
    for v in variants:
        band = trust_region(v, settings)
        if band is not None:
            edges += [b for b in band if b > 0]
        if v == "ppo_dual":
            edges.append(settings.dual_clip_c)
    return edges


def curves_frame(
    variants, settings: CurveSettings, r_min: float = R_MIN, r_max: float = R_MAX, n: int = 240
) -> pd.DataFrame:
    """Long frame of every variant's curves for A = +1 and A = -1 on one ratio grid.

    Columns: ``algorithm`` (variant key), ``title``, ``advantage`` (+1 / -1), ``ratio``,
    ``objective``, ``gradient_weight``, ``state``, ``clipped``, ``gate``. Raises ``ValueError``
    for an unknown variant or bad settings.
    """
    variants = list(dict.fromkeys(variants))
    for v in variants:
        _check_variant(v)
    settings.validate()
    grid = ratio_grid(r_min, r_max, n, _edges(variants, settings))
    parts = []
    for v in variants:
        for a in (1.0, -1.0):
            df = evaluate(v, grid, a, settings)
            df.insert(0, "advantage", int(a))
            df.insert(0, "title", variant_title(v))
            df.insert(0, "algorithm", v)
            parts.append(df)
    columns = ["algorithm", "title", "advantage", "ratio", "objective", "gradient_weight", "state", "clipped", "gate"]
    return pd.concat(parts, ignore_index=True)[columns] if parts else pd.DataFrame(columns=columns)


def _nonzero(variant, ratios, advantage, settings) -> np.ndarray:
    return _evaluate(variant, np.array(ratios, dtype=np.float64), advantage, settings)["gradient_weight"] != 0.0


def _refine(variant, zero_at, live_at, advantage, settings, rounds: int = 3) -> float:
    """The ratio between ``zero_at`` (zero gradient) and ``live_at`` (nonzero) where the gradient
    stops, narrowed by evaluating ``policy_loss`` on 1001 points ``rounds`` times (each round
    1000 times finer); returns the last ratio that still has a gradient."""
    for _ in range(rounds):
        pts = np.linspace(live_at, zero_at, 1001)
        live = _nonzero(variant, pts, advantage, settings)
        k = int(np.argmin(live))  # first zero point going from live_at towards zero_at
        if k == 0 or live[k]:  # no switch inside (rounding at the ends): keep what we have
            break
        live_at, zero_at = pts[k - 1], pts[k]
    return float(live_at)


def gradient_support(
    variant: str, advantage: float, settings: CurveSettings, r_min: float = SCAN[0], r_max: float = SCAN[1]
) -> tuple[float | None, float | None]:
    """The range of ratios whose token still gets a gradient, found from ``policy_loss``'s gradient.

    Scans 2001 log-spaced ratios in ``[r_min, r_max]`` (default ``SCAN`` = [0.001, 20]), then
    narrows each end where the gradient switches off (see :func:`_refine`, about 1e-12 relative). Returns ``(low, high)``: the smallest
    and largest ratio with a nonzero gradient, ``None`` where it still flows at the end of the scan
    (no bound: the token is never cut off on that side). ``(nan, nan)`` if it never flows.
    E.g. PPO with ε = 0.2: ``(None, 1.2)`` for A>0, ``(0.8, None)`` for A<0 (teaching claims 1, 10).
    """
    grid = np.unique(np.concatenate([np.geomspace(r_min, r_max, 2001), _edges([variant], settings)]))
    grid = grid[(grid >= r_min) & (grid <= r_max)]
    live = _nonzero(variant, grid, advantage, settings)
    if not live.any():
        return math.nan, math.nan
    first, last = int(np.argmax(live)), int(len(live) - 1 - np.argmax(live[::-1]))
    low = None if first == 0 else _refine(variant, grid[first - 1], grid[first], advantage, settings)
    high = None if last == len(grid) - 1 else _refine(variant, grid[last + 1], grid[last], advantage, settings)
    return low, high


def support_frame(variants, settings: CurveSettings) -> pd.DataFrame:
    """Per variant and advantage sign, the ratio range that still gets a gradient.

    Columns: ``algorithm``, ``title``, ``advantage``, ``low``, ``high`` (NaN = unbounded on that side;
    ``low`` unbounded means down to 0, ``high`` up to ∞), ``band_low``, ``band_high`` (the clip setting).
    """
    rows = []
    for v in dict.fromkeys(variants):
        band = trust_region(v, settings) or (math.nan, math.nan)
        for a in (1, -1):
            low, high = gradient_support(v, a, settings)
            rows.append(
                {
                    "algorithm": v,
                    "title": variant_title(v),
                    "advantage": a,
                    "low": math.nan if low is None else low,
                    "high": math.nan if high is None else high,
                    "band_low": band[0],
                    "band_high": band[1],
                }
            )
    return pd.DataFrame(rows, columns=["algorithm", "title", "advantage", "low", "high", "band_low", "band_high"])


def ppo_cases_frame(settings: CurveSettings) -> pd.DataFrame:
    """The six cases of the PPO clip (sign of A × where r sits) plus dual clip's seventh, each
    evaluated by ``policy_loss`` at one representative ratio (teaching claim 1; PPO arXiv
    1707.06347 eq. 7, dual clip arXiv 1912.09729).

    Representative ratios: ``0.6 (1-ε_low)`` below, ``1`` inside, ``1.4 (1+ε_high)`` above, and
    ``1.25 c`` beyond the dual clip (A<0, Dual-clip PPO). Columns: ``advantage``, ``region``
    (``below`` / ``inside`` / ``above`` / ``beyond_c``), ``ratio``, ``branch`` (which term the min
    takes: ``unclipped`` r·A, ``clipped`` clip(r)·A, ``equal`` (both, r inside), ``dual`` c·A),
    ``objective``, ``gradient_weight``, ``zero_gradient``.
    """
    s = settings.validate()
    regions = {"below": 0.6 * (1.0 - s.epsilon_low), "inside": 1.0, "above": 1.4 * (1.0 + s.epsilon_high)}
    cases = [(a, region, r, "grpo") for a in (1, -1) for region, r in regions.items() if r > 0]
    cases.append((-1, "beyond_c", 1.25 * s.dual_clip_c, "ppo_dual"))
    rows = []
    for a, region, r, variant in cases:
        df = evaluate(variant, np.array([r]), float(a), s)
        row = df.iloc[0]
        if region == "inside":
            branch = "equal"
        elif variant == "ppo_dual":
            branch = "dual" if bool(row["clipped"]) else "unclipped"
        else:
            branch = "clipped" if bool(row["clipped"]) else "unclipped"
        rows.append(
            {
                "advantage": a,
                "region": region,
                "ratio": r,
                "branch": branch,
                "objective": float(row["objective"]),
                "gradient_weight": float(row["gradient_weight"]),
                "zero_gradient": bool(row["gradient_weight"] == 0.0),
            }
        )
    return pd.DataFrame(rows)


def probability_frame(settings: CurveSettings, n: int = 197, marks=(0.2,)) -> tuple[pd.DataFrame, dict[str, float]]:
    """How far a token's probability can rise before its gradient stops (A>0; teaching claim 2).

    For symmetric clip (``grpo``, ε_high = ``epsilon_high``) and clip-higher (``dapo``, ε_high =
    ``dapo_epsilon_high``): r* = the largest ratio with a nonzero gradient for A>0, found by
    :func:`gradient_support` from ``policy_loss``; then over π_old in (0, 1)
    ``pi_new_max = min(1, π_old · r*)`` and ``room = pi_new_max - π_old``.

    Returns ``(frame, ceilings)``: columns ``algorithm``, ``title``, ``pi_old``, ``pi_new_max``,
    ``room``, ``marked`` (π_old is one of ``marks``); ``ceilings`` maps variant -> r*
    (e.g. 1.2 and 1.28: a token at 0.2 may rise only to 0.24, or 0.256 under clip-higher).
    Raises ``ValueError`` for a mark outside (0, 1) or bad settings.
    """
    settings.validate()
    marks = [float(m) for m in marks]
    for m in marks:
        if not (0.0 < m < 1.0):
            raise ValueError(f"marks: π_old must be in (0, 1), got {m}")
    pi_old = np.unique(np.concatenate([np.linspace(0.005, 0.995, n), marks]))
    ceilings, parts = {}, []
    for v in ("grpo", "dapo"):
        _, r_star = gradient_support(v, 1.0, settings)
        r_star = math.inf if r_star is None or math.isnan(r_star) else r_star
        ceilings[v] = r_star
        pi_new = np.minimum(1.0, pi_old * r_star)
        parts.append(
            pd.DataFrame(
                {
                    "algorithm": v,
                    "title": variant_title(v),
                    "pi_old": pi_old,
                    "pi_new_max": pi_new,
                    "room": pi_new - pi_old,
                    "marked": np.isin(pi_old, marks),
                }
            )
        )
    return pd.concat(parts, ignore_index=True), ceilings


@dataclass
class CurvesResult:
    """What the page's curve sections draw. Frames as :func:`curves_frame`, :func:`support_frame`
    and :func:`ppo_cases_frame`; ``bands``: variant -> trust region (or None for SAPO);
    ``x_range``: the ratio range of ``curves``."""

    settings: CurveSettings
    variants: tuple[str, ...]
    curves: pd.DataFrame
    support: pd.DataFrame
    cases: pd.DataFrame
    bands: dict[str, tuple[float, float] | None]
    x_range: tuple[float, float]


def run(variants, settings: CurveSettings, zoom: bool = False) -> CurvesResult:
    """The page's call: curves of ``variants`` on ``[0.02, 3.5]`` (or on :func:`zoom_window` around
    r = 1 when ``zoom``), the gradient-range table and the PPO clip cases. (The probability view,
    :func:`probability_frame`, has its own call so its slider does not recompute the curves.)

    Raises:
        ValueError: unknown variant or bad settings, naming the parameter.
    """
    variants = tuple(dict.fromkeys(variants))
    for v in variants:
        _check_variant(v)
    settings.validate()
    x_range = zoom_window(settings) if zoom else (R_MIN, R_MAX)
    return CurvesResult(
        settings=settings,
        variants=variants,
        curves=curves_frame(variants, settings, *x_range, n=300 if zoom else 240),
        support=support_frame(variants, settings),
        cases=ppo_cases_frame(settings),
        bands={v: trust_region(v, settings) for v in variants},
        x_range=x_range,
    )
