"""Predict, then reveal: a question about the current view, the learner's committed guess, and the
value ``rlviz`` computes for the same settings at that moment.

A :class:`Prediction` is data plus one function: ``compute(state)`` returns the true answer for the
page's current settings (``state``, a plain mapping the page builds), by calling the same library code
that draws the page (``trust_band``, ``gradient_weights``, ...): never a typed number. The page shows the
question (locale key ``<key>.q``, formatted with :meth:`Prediction.fields`), takes a guess, and shows
:func:`reveal`'s verdict with the explanation ``<key>.why``.

``PREDICTIONS`` maps a page key (``rlviz.app_pages``) to its predictions, in the order asked.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import torch

from rlviz.core.aggregation import token_weights
from rlviz.core.objectives import gradient_weights, trust_band
from rlviz.core.sampling import signal_probability
from rlviz.core.shaping import overlong_penalty

__all__ = ["KINDS", "PREDICTIONS", "Prediction", "Reveal", "reveal"]

KINDS = ("number", "choice")


@dataclass(frozen=True)
class Prediction:
    """One question about the current view.

    Attributes:
        key: its locale prefix: ``<key>.q`` (the question), ``<key>.why`` (the explanation, formatted
            with the answer), ``<key>.choice.<c>`` (each choice's label).
        kind: ``"number"`` (a value with a tolerance) or ``"choice"`` (one of ``choices``).
        compute: ``state -> answer``: the true answer (a float, or a key of ``choices``) for the page's
            current settings, computed by ``rlviz``.
        fields: ``state -> {name: text}`` formatted into the question and the explanation (the
            settings it is asked at, e.g. ``eps="0.2"``).
        tolerance: a number guess within this absolute distance of the answer counts as right.
        choices: the choice keys (for ``"choice"``).
        figure: the figure element that shows the answer (a locale key naming it, ``<key>.where``).
    """

    key: str
    kind: str
    compute: Callable[[Mapping[str, Any]], Any] = field(repr=False)
    fields: Callable[[Mapping[str, Any]], dict[str, str]] = field(repr=False, default=lambda state: {})
    tolerance: float = 0.0
    choices: tuple[str, ...] = ()

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"kind: {self.kind!r} is not one of {', '.join(KINDS)}")
        if self.kind == "choice" and len(self.choices) < 2:
            raise ValueError(f"choices: a choice question needs at least two, got {self.choices!r}")
        if not (math.isfinite(self.tolerance) and self.tolerance >= 0):
            raise ValueError(f"tolerance: must be a finite number >= 0, got {self.tolerance}")


@dataclass(frozen=True)
class Reveal:
    """The verdict on one committed guess: ``correct``, the computed ``answer`` and the ``guess``."""

    correct: bool
    answer: Any
    guess: Any


def reveal(prediction: Prediction, state: Mapping[str, Any], guess: Any) -> Reveal:
    """Compute the answer for ``state`` and judge ``guess`` against it.

    Raises:
        ValueError: ``guess`` is not a finite number (number questions) or not one of the choices
            (choice questions); or ``compute`` raised it for a bad setting in ``state``.
    """
    answer = prediction.compute(state)
    if prediction.kind == "number":
        if isinstance(guess, bool) or not isinstance(guess, (int, float)) or not math.isfinite(guess):
            raise ValueError(f"guess: must be a finite number, got {guess!r}")
        return Reveal(abs(float(guess) - float(answer)) <= prediction.tolerance, float(answer), float(guess))
    if guess not in prediction.choices:
        raise ValueError(f"guess: {guess!r} is not one of {', '.join(prediction.choices)}")
    return Reveal(guess == answer, answer, guess)


# -- the curves page ---------------------------------------------------------------------------
# state: PPO's settings on the page ({"epsilon_low": ..., "epsilon_high": ..., "dual_clip_c": ...})


def _ppo_ceiling(state: Mapping[str, Any]) -> float:
    """The largest π a token with π_old = 0.2 and A > 0 reaches before PPO's clip stops its gradient:
    π_old x the upper end of the trust band (PPO arXiv 1707.06347 eq. 7)."""
    _, high = trust_band("ppo", **state)
    return 0.2 * high


def _ppo_negative_weight(state: Mapping[str, Any]) -> float:
    """d loss / d log π of one token with A = -1 at ratio r = 1.5 under PPO's clip: autograd of the loss
    (``gradient_weights``); 0 where the clip stops the gradient."""
    log_r = torch.tensor([[math.log(1.5)]], dtype=torch.float64)
    adv = torch.tensor([-1.0], dtype=torch.float64)
    weights, _ = gradient_weights("ppo", log_r, torch.zeros_like(log_r), adv, torch.ones_like(log_r), **state)
    return float(weights[0, 0])


def _ppo_negative_far(state: Mapping[str, Any]) -> str:
    """Whether a token with A < 0 at ratio r = 1.5 still gets a gradient under PPO's clip."""
    return "flows" if _ppo_negative_weight(state) != 0 else "zero"


def _eps_fields(state: Mapping[str, Any]) -> dict[str, str]:
    low, high = trust_band("ppo", **state)
    return {"eps_high": f"{high - 1:g}", "band_high": f"{high:g}", "band_low": f"{low:g}"}


def _dual_fields(state: Mapping[str, Any]) -> dict[str, str]:
    c = state.get("dual_clip_c")
    return _eps_fields(state) | {"c": "∞" if c is None else f"{c:g}", "weight": f"{_ppo_negative_weight(state):.3g}"}


# -- the weighting page ------------------------------------------------------------------------
# state: the group on the page ({"lengths": (L_1, ..., L_B)})


def _weights(state: Mapping[str, Any], mode: str) -> tuple[torch.Tensor, int, int]:
    """``(w [B, T], longest row, shortest row)`` of the page's group under ``mode`` (token_weights)."""
    lengths = [int(n) for n in state["lengths"]]
    if not lengths or min(lengths) < 1:
        raise ValueError(f"lengths: need at least one response of at least one token, got {lengths}")
    mask = (torch.arange(max(lengths))[None, :] < torch.tensor(lengths)[:, None]).double()  # [B, T]
    long_i = max(range(len(lengths)), key=lambda i: lengths[i])
    short_i = min(range(len(lengths)), key=lambda i: lengths[i])
    return token_weights(mask, mode), long_i, short_i


def _token_mean_totals(state: Mapping[str, Any]) -> float:
    """Under token-mean, the longest response's total weight over the shortest's (= L_long / L_short)."""
    w, long_i, short_i = _weights(state, "token-mean")
    return float(w[long_i].sum() / w[short_i].sum())


def _seq_mean_per_token(state: Mapping[str, Any]) -> float:
    """Under seq-mean-token-mean, one token of the shortest response over one of the longest
    (= L_long / L_short: each response totals 1/B)."""
    w, long_i, short_i = _weights(state, "seq-mean-token-mean")
    return float(w[short_i, 0] / w[long_i, 0])


def _group_fields(state: Mapping[str, Any]) -> dict[str, str]:
    lengths = [int(n) for n in state["lengths"]]
    return {"long": str(max(lengths)), "short": str(min(lengths)), "total": str(sum(lengths)), "B": str(len(lengths))}


# -- the length page ---------------------------------------------------------------------------
# state: DAPO's shaping on the page ({"max_length": L_max, "buffer_length": L_cache, "penalty_factor": f})


def _in_buffer(state: Mapping[str, Any]) -> int:
    """The length asked about first: half-way into the buffer, L_max - L_cache // 2 tokens."""
    return int(state["max_length"]) - int(state["buffer_length"]) // 2


def _penalty_at(length_of: Callable[[Mapping[str, Any]], int]) -> Callable[[Mapping[str, Any]], float]:
    def compute(state: Mapping[str, Any]) -> float:
        lengths = torch.tensor([float(length_of(state))])
        return float(overlong_penalty(lengths, state["max_length"], state["buffer_length"], state["penalty_factor"])[0])

    return compute


def _length_fields(state: Mapping[str, Any]) -> dict[str, str]:
    return {
        "lmax": str(int(state["max_length"])),
        "lcache": str(int(state["buffer_length"])),
        "factor": f"{float(state['penalty_factor']):g}",
        "n": str(_in_buffer(state)),
        "start": str(int(state["max_length"]) - int(state["buffer_length"])),
    }


# -- the sampling page -------------------------------------------------------------------------
# state: the largest group size chosen on the page ({"group_size": G})


def _signal(p: float) -> Callable[[Mapping[str, Any]], float]:
    def compute(state: Mapping[str, Any]) -> float:
        return float(signal_probability(torch.tensor(p, dtype=torch.float64), int(state["group_size"])))

    return compute


def _sampling_fields(state: Mapping[str, Any]) -> dict[str, str]:
    return {"G": str(int(state["group_size"]))}


PREDICTIONS: dict[str, tuple[Prediction, ...]] = {
    "length": (
        Prediction("teach.length_in_buffer", "number", _penalty_at(_in_buffer), _length_fields, tolerance=0.02),
        Prediction(
            "teach.length_at_limit",
            "number",
            _penalty_at(lambda state: int(state["max_length"])),
            _length_fields,
            tolerance=0.02,
        ),
    ),
    "sampling": (
        Prediction("teach.sampling_easy", "number", _signal(0.9), _sampling_fields, tolerance=0.02),
        Prediction("teach.sampling_hard", "number", _signal(0.05), _sampling_fields, tolerance=0.02),
    ),
    "weighting": (
        Prediction("teach.weighting_token_mean", "number", _token_mean_totals, _group_fields, tolerance=0.05),
        Prediction("teach.weighting_seq_mean", "number", _seq_mean_per_token, _group_fields, tolerance=0.05),
    ),
    "curves": (
        Prediction("teach.curves_ceiling", "number", _ppo_ceiling, _eps_fields, tolerance=0.002),
        Prediction("teach.curves_negative", "choice", _ppo_negative_far, _dual_fields, choices=("flows", "zero")),
    ),
}


# -- the state a page asks its predictions at, from its settings ------------------------------------
# One path from a page's widget values to the ``state`` its predictions are computed at: the pages call
# :func:`state_from_settings` with their widgets' values (``st.session_state``), and a lesson step
# (``rlviz.experiments.lessons``) calls it with the URL parameters it opens the page with. Values may
# be either: typed (``0.28``, ``True``, ``["ppo", "dapo"]``) or as a URL carries them (``"0.28"``,
# ``"true"``, ``["PPO", "DAPO"]``: a choice by its label). A missing or unusable value gives the page's
# default, as Streamlit does when it seeds a widget from the URL.


def _last(value: Any) -> Any:
    """A single-value widget's value: the last of repeated URL values (as Streamlit reads them)."""
    if isinstance(value, (list, tuple)):
        return value[-1] if value else None
    return value


def _flag(value: Any, default: bool) -> bool:
    value = _last(value)
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.lower() in ("true", "false"):
        return value.lower() == "true"
    return default


def _number_in(value: Any, default: float, low: float, high: float) -> float:
    """``value`` as a float if it is a finite number within ``[low, high]``, else ``default``."""
    value = _last(value)
    if isinstance(value, bool) or value is None:
        return default
    try:
        number = float(value)
    except (TypeError, ValueError):
        return default
    return number if math.isfinite(number) and low <= number <= high else default


def _same_option(option: Any, value: Any) -> bool:
    """Whether ``value`` (typed, or URL text) names ``option`` of a select slider."""
    value = _last(value)
    if value is None:
        return False
    if option == value or str(option) == str(value):
        return True
    try:
        return float(option) == float(value)
    except (TypeError, ValueError):
        return False


def _chosen(value: Any, options: Mapping[Any, str], default: tuple) -> list:
    """A multiselect's options from ``value`` (options or their labels; unknown ones dropped), in the
    order given; ``default`` when no value is given."""
    if value is None:
        return list(default)
    items = list(value) if isinstance(value, (list, tuple)) else [value]
    by_label = {str(label): option for option, label in options.items()}
    out = []
    for item in items:
        option = item if item in options else by_label.get(str(item))
        if option is not None and option not in out:
            out.append(option)
    return out


def _curves_state(settings: Mapping[str, Any]) -> dict[str, Any]:
    """PPO's loss settings on the curves page (what its predictions ask about): the sliders of the
    ``ppo`` variant (``c_ppo_<setting>``, an optional one with its ``..._on`` toggle) when PPO is among
    the chosen curves (``c_algos``), else PPO's defaults; resolved by ``variant_overrides``."""
    from rlviz.core.objectives import ALGORITHMS
    from rlviz.experiments import curves as C

    catalog = C.variants()
    variant = C.CASES_VARIANT
    chosen = _chosen(settings.get("c_algos"), {k: v.title for k, v in catalog.items()}, C.DEFAULT_VARIANTS)
    overrides: dict[str, dict[str, Any]] = {}
    if variant in chosen:
        spec = ALGORITHMS[catalog[variant].algorithm]
        start = C.default_settings(variant)
        mine: dict[str, Any] = {}
        for s in spec.surrogate_settings:
            key = f"c_{variant}_{s.name}"
            on = _flag(settings.get(f"{key}_on"), start[s.name] is not None) if s.default is None else True
            raw = settings.get(key)
            if s.choices:
                options = list(s.choices)
                value = start[s.name] if start[s.name] in options else options[0]
                value = next((c for c in options if _same_option(c, raw)), value)
            elif s.range:
                low, high, _ = (float(x) for x in s.range)
                first = C.slider_start(s.name, low) if start[s.name] is None else float(start[s.name])
                value = _number_in(raw, min(max(first, low), high), low, high)
            else:
                value = _number_in(raw, 0.0 if start[s.name] is None else float(start[s.name]), -math.inf, math.inf)
            mine[s.name] = value if on else None
        overrides[variant] = mine
    return C.variant_overrides(variant, C.CurveSettings(overrides))


def _weighting_state(settings: Mapping[str, Any]) -> dict[str, Any]:
    """The weighting page's hand-made group (``wt_len``, ``wt_adv``), parsed by ``parse_group``."""
    from rlviz.experiments import weighting as W

    lengths_text = _last(settings.get("wt_len"))
    adv_text = _last(settings.get("wt_adv"))
    lengths, _ = W.parse_group(
        W.DEFAULT_LENGTHS if lengths_text is None else str(lengths_text),
        W.DEFAULT_ADVANTAGES if adv_text is None else str(adv_text),
    )
    return {"lengths": tuple(lengths)}


def _length_state(settings: Mapping[str, Any]) -> dict[str, Any]:
    """DAPO's shaping on the length page (``l_max``, ``l_cache``, ``l_pen``); the buffer is held at
    L_max when set longer, as the page does."""
    from rlviz.experiments.length import SAMPLE_LIMIT, ShapingSettings

    d = ShapingSettings()
    lmax = int(_number_in(settings.get("l_max"), d.max_length, 1, SAMPLE_LIMIT))
    lcache = int(_number_in(settings.get("l_cache"), d.buffer_length, 0, SAMPLE_LIMIT))
    factor = _number_in(settings.get("l_pen"), float(d.penalty_factor), 0.0, 3.0)
    return {"max_length": lmax, "buffer_length": min(lcache, lmax), "penalty_factor": float(factor)}


def _sampling_state(settings: Mapping[str, Any]) -> dict[str, Any]:
    """The largest group size chosen in the sampling page's signal section (``s_Gs``).

    Raises:
        ValueError: naming ``group_size`` when none is chosen (the page asks nothing then).
    """
    from rlviz.experiments.sampling import DEFAULT_GROUP_SIZES, GROUP_SIZE_CHOICES

    sizes = _chosen(settings.get("s_Gs"), {g: str(g) for g in GROUP_SIZE_CHOICES}, DEFAULT_GROUP_SIZES)
    if not sizes:
        raise ValueError("group_size: no group size is chosen (s_Gs)")
    return {"group_size": max(sizes)}


STATE_BUILDERS: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {
    "curves": _curves_state,
    "weighting": _weighting_state,
    "length": _length_state,
    "sampling": _sampling_state,
}


def state_from_settings(page: str, settings: Mapping[str, Any]) -> dict[str, Any]:
    """The ``state`` the predictions of ``page`` (``PREDICTIONS[page]``) are computed at, from the
    page's settings: its widget keys -> values, typed (``st.session_state``) or as URL text.

    The one path from settings to a prediction's state: the pages call it with their widgets'
    values, a lesson's worksheet with a step's URL parameters. Defaults and derivations are the
    pages' own, read from ``rlviz.experiments`` (``DEFAULT_VARIANTS``, ``variant_overrides``,
    ``ShapingSettings``, ``parse_group``, ...).

    Raises:
        ValueError: ``page: ...`` for a page without predictions; a bad setting, naming its
            parameter (``lengths: ...``, ``epsilon_low: ...``, ``group_size: ...``).
    """
    if page not in STATE_BUILDERS:
        raise ValueError(f"page: {page!r} has no predictions; pages with predictions: {', '.join(STATE_BUILDERS)}")
    return STATE_BUILDERS[page](settings)
