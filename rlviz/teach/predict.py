"""Predict, then reveal: a question about the current view, the learner's committed guess, and the
value ``rlviz`` computes for the same settings at that moment.

A :class:`Prediction` is data plus one function: ``compute(state)`` returns the true answer for the
page's current settings (``state``, a plain mapping the page builds), by calling the same library code
that draws the page (``trust_band``, ``gradient_weights``, ...): never a typed number. The page shows the
question (locale key ``<key>.q``, formatted with :meth:`Prediction.fields`), takes a guess, and shows
:func:`reveal`'s verdict with the explanation ``<key>.why``.

Three kinds of question: a number with a tolerance, a choice among fixed answers, and "which line": a
choice among the lines of the view (the arms of a run, say), whose answer is the highest line and any
line the measurement cannot tell from it (:func:`rank_lines`, the tie rule). An answer read from a run
(``needs_result``) is asked before the run: the page passes the run's measurements only once it has
them, and until then a committed guess waits.

``PREDICTIONS`` maps a page key (``rlviz.app_pages``) to its predictions, in the order asked.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import torch

from rlviz.core.aggregation import token_weights
from rlviz.core.objectives import gradient_weights, trust_band
from rlviz.core.sampling import signal_probability
from rlviz.core.shaping import overlong_penalty

__all__ = [
    "KINDS",
    "PREDICTIONS",
    "Lines",
    "Prediction",
    "Reveal",
    "live_result",
    "mismatch_state",
    "rank_lines",
    "reveal",
    "shift_state",
]

KINDS = ("number", "choice", "line")


@dataclass(frozen=True)
class Prediction:
    """One question about the current view.

    Attributes:
        key: its locale prefix: ``<key>.q`` (the question), ``<key>.why`` (the explanation, formatted
            with the answer), ``<key>.choice.<c>`` (each choice's label).
        kind: ``"number"`` (a value with a tolerance), ``"choice"`` (one of ``choices``) or ``"line"``
            (one of the lines of the view, ``lines(state)``).
        compute: ``state -> answer``: the true answer (a float, a key of ``choices``, or for a line
            question the :class:`Lines` of :func:`rank_lines`) for the page's current settings,
            computed by ``rlviz``.
        fields: ``state -> {name: text}`` formatted into the question and the explanation (the
            settings it is asked at, e.g. ``eps="0.2"``).
        tolerance: a number guess within this absolute distance of the answer counts as right...
        relative_tolerance: ...plus this share of the answer's size: right when
            ``|guess - answer| <= tolerance + relative_tolerance * |answer|``. For a quantity whose
            size depends on the run (a clip fraction of a few per cent), so that a guess of 0 is not
            right about an answer of 0.04 the way a fixed 0.05 would make it.
        choices: the choice keys (for ``"choice"``).
        figure: the figure element that shows the answer (a locale key naming it, ``<key>.where``,
            formatted like the explanation; ``""``: none named).
        lines: for a line question, ``state -> line keys`` (the view's lines, in its order); the page
            gives their names. A line question explains with ``<key>.why.apart`` (one line is highest
            beyond the noise) or ``<key>.why.tied``.
        needs_result: the answer is read from a result the page has only later (a finished run): the
            guess can be committed before it exists, and is judged once the page passes it.
        applies: ``state -> bool``: whether the question makes sense at these settings (a question on
            routing, for a model without a router, does not); the page asks only those that apply.
        explain: ``state -> {name: text}`` for the explanation and the figure note, from the state and
            the result; ``None``: :attr:`fields`.
    """

    key: str
    kind: str
    compute: Callable[[Mapping[str, Any]], Any] = field(repr=False)
    fields: Callable[[Mapping[str, Any]], dict[str, str]] = field(repr=False, default=lambda state: {})
    tolerance: float = 0.0
    relative_tolerance: float = 0.0
    choices: tuple[str, ...] = ()
    figure: str = ""
    lines: Callable[[Mapping[str, Any]], tuple[str, ...]] | None = field(repr=False, default=None)
    needs_result: bool = False
    applies: Callable[[Mapping[str, Any]], bool] = field(repr=False, default=lambda state: True)
    explain: Callable[[Mapping[str, Any]], dict[str, str]] | None = field(repr=False, default=None)

    def __post_init__(self):
        if self.kind not in KINDS:
            raise ValueError(f"kind: {self.kind!r} is not one of {', '.join(KINDS)}")
        if self.kind == "choice" and len(self.choices) < 2:
            raise ValueError(f"choices: a choice question needs at least two, got {self.choices!r}")
        if self.kind == "line" and self.lines is None:
            raise ValueError("lines: a line question needs lines(state), the lines of the view")
        if not (math.isfinite(self.tolerance) and self.tolerance >= 0):
            raise ValueError(f"tolerance: must be a finite number >= 0, got {self.tolerance}")
        if not (math.isfinite(self.relative_tolerance) and 0 <= self.relative_tolerance < 1):
            raise ValueError(f"relative_tolerance: must be in [0, 1), got {self.relative_tolerance}")

    def options(self, state: Mapping[str, Any]) -> tuple[str, ...]:
        """The keys a guess may take: ``choices``, or the lines of the view at ``state``."""
        return tuple(self.lines(state)) if self.kind == "line" else self.choices

    def why_fields(self, state: Mapping[str, Any]) -> dict[str, str]:
        """The fields of the explanation and the figure note: :attr:`explain`, else :attr:`fields`."""
        return (self.explain or self.fields)(state)


@dataclass(frozen=True)
class Lines:
    """The answer to a line question (:func:`rank_lines`).

    Attributes:
        values: ``{line: value}`` in the view's order: the quantity asked about (NaN: not measured).
        top: the highest line first, then, in the view's order, every line tied with it: each counts
            as a right guess.
        margins: ``{line: the margin its gap to the highest was judged against}`` (the highest: 0).
    """

    values: dict[str, float]
    top: tuple[str, ...]
    margins: dict[str, float]

    @property
    def best(self) -> str:
        """The line with the highest value."""
        return self.top[0]

    @property
    def tied(self) -> bool:
        """Whether another line is within the noise of the highest."""
        return len(self.top) > 1


def rank_lines(values: Mapping[str, float], margin: float | Callable[[float, float], float] = 0.0) -> Lines:
    """The tie rule of a line question: which lines count as "the highest".

    The line with the highest finite value is the answer (the first in the view's order on an exact
    tie). Another line is tied with it when its gap to it is at most ``margin`` (a number, or
    ``margin(highest, value)``: e.g. two standard errors of the difference of two measured pass
    rates, :func:`rlviz.experiments.moe.arms_apart`); a guess of a tied line counts as right, so a run
    that cannot tell two lines apart never marks a guess of either wrong. With ``margin = 0`` only
    exact ties tie. A line without a finite value is never right.

    Raises:
        ValueError: no line has a finite value, or a margin is negative or not finite.
    """
    values = {line: float(v) for line, v in values.items()}
    finite = [line for line, v in values.items() if math.isfinite(v)]
    if not finite:
        raise ValueError(f"values: no line has a measured value, got {values}")
    best = max(finite, key=lambda line: values[line])  # max keeps the first of equal values
    margins = {best: 0.0}
    top = [best]
    for line in finite:
        if line == best:
            continue
        m = float(margin(values[best], values[line]) if callable(margin) else margin)
        if not (math.isfinite(m) and m >= 0):
            raise ValueError(f"margin: must be a finite number >= 0, got {m}")
        margins[line] = m
        if values[best] - values[line] <= m:
            top.append(line)
    return Lines(values, tuple(top), margins)


@dataclass(frozen=True)
class Reveal:
    """The verdict on one committed guess: ``correct``, the computed ``answer`` and the ``guess``."""

    correct: bool
    answer: Any
    guess: Any


def reveal(prediction: Prediction, state: Mapping[str, Any], guess: Any) -> Reveal:
    """Compute the answer for ``state`` and judge ``guess`` against it.

    A number guess is right within ``tolerance + relative_tolerance * |answer|`` of the answer.

    A line question's guess is right when it names one of the answer's ``top`` lines (the highest,
    or one tied with it: :func:`rank_lines`); its ``answer`` is the :class:`Lines`.

    Raises:
        ValueError: ``guess`` is not a finite number (number questions) or not one of the choices
            (choice and line questions); or ``compute`` raised it for a bad setting in ``state``.
    """
    if prediction.kind == "number":
        if isinstance(guess, bool) or not isinstance(guess, (int, float)) or not math.isfinite(guess):
            raise ValueError(f"guess: must be a finite number, got {guess!r}")
        answer = float(prediction.compute(state))
        allowed = prediction.tolerance + prediction.relative_tolerance * abs(answer)
        return Reveal(abs(float(guess) - answer) <= allowed, answer, float(guess))
    options = prediction.options(state)
    if guess not in options:
        raise ValueError(f"guess: {guess!r} is not one of {', '.join(options)}")
    answer = prediction.compute(state)
    if prediction.kind == "line":
        return Reveal(guess in answer.top, answer, guess)
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
    (``gradient_weights``); 0 where the clip stops the gradient. Kept per state (the page asks on
    every rerun; the settings are plain numbers)."""
    key = tuple(sorted(state.items()))
    try:
        hash(key)
    except TypeError:  # a value that is not a plain number: computed as it is, and checked there
        return _ppo_negative_weight_at.__wrapped__(key)
    return _ppo_negative_weight_at(key)


@functools.lru_cache(maxsize=256)
def _ppo_negative_weight_at(state: tuple[tuple[str, Any], ...]) -> float:
    log_r = torch.tensor([[math.log(1.5)]], dtype=torch.float64)
    adv = torch.tensor([-1.0], dtype=torch.float64)
    weights, _ = gradient_weights("ppo", log_r, torch.zeros_like(log_r), adv, torch.ones_like(log_r), **dict(state))
    return float(weights[0, 0])


def _ppo_negative_far(state: Mapping[str, Any]) -> str:
    """Whether a token with A < 0 at ratio r = 1.5 still gets a gradient under PPO's clip."""
    return "flows" if _ppo_negative_weight(state) != 0 else "zero"


def _eps_fields(state: Mapping[str, Any]) -> dict[str, str]:
    low, high = trust_band("ppo", **state)
    return {"eps_high": f"{high - 1:g}", "band_high": f"{high:g}", "band_low": f"{low:g}"}


def _dual_fields(state: Mapping[str, Any]) -> dict[str, str]:
    c = state.get("dual_clip_c")
    weight = 0.0 - _ppo_negative_weight(state)  # the page's gradient weight w = ∂J/∂log π, J = -loss (0, not -0)
    return _eps_fields(state) | {"c": "∞" if c is None else f"{c:g}", "weight": f"{weight:.3g}"}


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


def _on_sliders(state: Mapping[str, Any]) -> bool:
    """The shaping questions are asked at the sliders' state, not at the measured section's
    (:func:`rlviz.experiments.length_claims.question_state`), which has its own question."""
    return "max_length" in state


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
        Prediction(
            "teach.length_in_buffer",
            "number",
            _penalty_at(_in_buffer),
            _length_fields,
            tolerance=0.02,
            applies=_on_sliders,
        ),
        Prediction(
            "teach.length_at_limit",
            "number",
            _penalty_at(lambda state: int(state["max_length"])),
            _length_fields,
            tolerance=0.02,
            applies=_on_sliders,
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


# -- the live page -----------------------------------------------------------------------------
# state: the settings of the run the widgets describe (``dataclasses.asdict`` of the page's
# ``LiveConfig``: ``algorithms``, ``group_size``, ``prompts_per_step``, ``mu``, ``mini_batches``,
# ``heldout_samples``, ``settings``, ...), which do not change while the run goes, so a guess
# committed before Run survives it; result: :func:`live_result` of the finished run with those
# settings, passed by the page only once it exists (the answers are read from it).

STEP1_METRICS = ("zero_adv_group_fraction", "pass_at_1", "clip_fraction", "ratio_min", "ratio_max", "kept_groups")


def live_result(run) -> dict[str, Any]:
    """What the live page's predictions read from a side-by-side run
    (:class:`rlviz.experiments.runner.SideBySideRun`, arms named after their objectives):
    ``step1`` (``{arm: {metric: value}}``, the :data:`STEP1_METRICS` of each arm's step 1),
    ``heldout`` (held-out pass@1: ``"start"`` and each finished arm's end) and ``heldout_total``
    (held-out samples behind each arm's pass@1: the run's task's held-out prompts x samples per prompt)."""
    frame = run.metrics_frame()
    first = frame[frame["step"] == 1]
    return {
        "step1": {row["arm"]: {m: float(row[m]) for m in STEP1_METRICS} for _, row in first.iterrows()},
        "heldout": run.heldout,
        "heldout_total": _heldout_prompts(run.config.train.get("task")) * int(run.config.heldout_samples),
    }


def _title(name: str) -> str:
    from rlviz.core.objectives import ALGORITHMS

    return ALGORITHMS[name].title if name in ALGORITHMS else name


def _first_arm(state: Mapping[str, Any]) -> str:
    algorithms = tuple(state["algorithms"])
    if not algorithms:
        raise ValueError("algorithms: choose at least one")
    return algorithms[0]


def _band(name: str, state: Mapping[str, Any]) -> tuple[float, float] | None:
    """The trust band of objective ``name`` at the run's settings for it (``trust_band``; ``None``
    without one)."""
    from rlviz.core.objectives import get_algorithm

    spec = get_algorithm(name)
    own = state.get("settings", {}).get(name, {})
    return trust_band(name, **{k: v for k, v in own.items() if k in spec.defaults})


def _clip_arm(state: Mapping[str, Any]) -> str:
    """The first chosen objective with a clip band (``trust_band`` not ``None``, from the registry's
    ``clip_space``): the one the clip question is about."""
    for name in state["algorithms"]:
        if _band(name, state) is not None:
            return name
    raise ValueError("algorithms: none of them clips (every one has a soft gate)")


def _has_clip_arm(state: Mapping[str, Any]) -> bool:
    return any(_band(name, state) is not None for name in state["algorithms"])


def _step1(state: Mapping[str, Any], arm: str, metric: str) -> float:
    try:
        return state["step1"][arm][metric]
    except KeyError:
        raise ValueError(f"run: no step 1 of {_title(arm)} measured yet") from None


def _live_zero_adv(state: Mapping[str, Any]) -> float:
    """The share of the groups the first arm sampled in step 1 whose rewards were all equal (every
    advantage 0): the trainer's ``zero_adv_group_fraction``."""
    return _step1(state, _first_arm(state), "zero_adv_group_fraction")


def _live_zero_adv_fields(state: Mapping[str, Any]) -> dict[str, str]:
    return {
        "arm": _title(_first_arm(state)),
        "G": str(int(state["group_size"])),
        "n": str(int(state["prompts_per_step"])),
    }


def _live_zero_adv_explain(state: Mapping[str, Any]) -> dict[str, str]:
    """The question's fields, the first arm's measured step-1 pass@1 p and the share a group of G
    would be all-equal if every prompt had that pass rate: ``1 - signal_probability(p, G)``."""
    p = _step1(state, _first_arm(state), "pass_at_1")
    uniform = 1.0 - float(signal_probability(torch.tensor(p, dtype=torch.float64), int(state["group_size"])))
    return _live_zero_adv_fields(state) | {"p": f"{p:.3g}", "uniform": f"{uniform:.3g}"}


def _live_clip(state: Mapping[str, Any]) -> float:
    """The clip fraction the first clipping arm reported for step 1 (the mean over its mu x
    mini-batch updates of the share of response tokens clipped, ``policy_loss``)."""
    arm = _clip_arm(state)
    value = _step1(state, arm, "clip_fraction")
    if not math.isfinite(value):
        raise ValueError(f"run: step 1 of {_title(arm)} made no update (every group's rewards were equal)")
    return value


def _live_clip_fields(state: Mapping[str, Any]) -> dict[str, str]:
    arm = _clip_arm(state)
    updates = int(state["mu"]) * int(state["mini_batches"])
    low, high = _band(arm, state)
    return {
        "arm": _title(arm),
        "mu": str(int(state["mu"])),
        "mb": str(int(state["mini_batches"])),
        "updates": str(updates),
        "later": str(updates - 1),
        "low": f"{low:.4g}",
        "high": f"{high:.4g}",
    }


def _live_clip_explain(state: Mapping[str, Any]) -> dict[str, str]:
    arm = _clip_arm(state)
    lo, hi = _step1(state, arm, "ratio_min"), _step1(state, arm, "ratio_max")
    return _live_clip_fields(state) | {"rmin": f"{lo:.4g}", "rmax": f"{hi:.4g}"}


def _live_heldout_margin(state: Mapping[str, Any]) -> Callable[[float, float], float]:
    """Two standard errors of the difference of two arms' held-out pass@1 (``arms_apart``, the MoE
    page's test of whether a run's arms end apart), for a pair of ends."""
    from rlviz.experiments.moe import arms_apart

    total = int(state["heldout_total"])

    def margin(best: float, other: float) -> float:
        apart = arms_apart([best, other], total)
        return 0.0 if apart is None else apart[2]

    return margin


def _live_heldout(state: Mapping[str, Any]) -> Lines:
    """The arms ranked by held-out pass@1 at their end, ties within two standard errors."""
    heldout = state["heldout"]
    values = {arm: heldout.get(arm, math.nan) for arm in state["algorithms"]}
    return rank_lines(values, _live_heldout_margin(state))


def _heldout_prompts(task: str | None) -> int:
    """The held-out prompts of ``task`` (a key of ``rlviz.lm.tasks.TASKS``; ``None``: the default task):
    96 for reversed addition, 57 for make_sum."""
    from rlviz.lm.tasks import get_task
    from rlviz.lm.trainer import TrainConfig

    return len(get_task(task or TrainConfig.task).heldout_problems())


def _live_heldout_fields(state: Mapping[str, Any]) -> dict[str, str]:
    n = _heldout_prompts(state.get("task")) * int(state["heldout_samples"])
    return {"n": str(n), "steps": str(int(state["steps"]))}


def _live_heldout_explain(state: Mapping[str, Any]) -> dict[str, str]:
    """The best arm's end and the start; the runner-up, its gap and the two standard errors it was
    judged against."""
    lines = _live_heldout(state)
    best = lines.best
    rest = [a for a in lines.values if a != best and math.isfinite(lines.values[a])]
    second = max(rest, key=lambda a: lines.values[a]) if rest else best
    return _live_heldout_fields(state) | {
        "best": _title(best),
        "best_value": f"{lines.values[best]:.3f}",
        "start": f"{state['heldout'].get('start', math.nan):.3f}",
        "second": _title(second),
        "second_value": f"{lines.values[second]:.3f}",
        "gap": f"{lines.values[best] - lines.values[second]:.3f}",
        "two_se": f"{lines.margins.get(second, 0.0):.3f}",
    }


PREDICTIONS["live"] = (
    Prediction(
        "teach.live_zero_adv",
        "number",
        _live_zero_adv,
        _live_zero_adv_fields,
        tolerance=0.1,
        figure="teach.live_zero_adv.where",
        needs_result=True,
        explain=_live_zero_adv_explain,
    ),
    Prediction(
        "teach.live_clip",
        "number",
        _live_clip,
        _live_clip_fields,
        tolerance=0.005,  # half a per cent, and half the answer: 0 is wrong about a clip fraction of 0.04
        relative_tolerance=0.5,
        figure="teach.live_clip.where",
        needs_result=True,
        applies=_has_clip_arm,
        explain=_live_clip_explain,
    ),
    Prediction(
        "teach.live_heldout",
        "line",
        _live_heldout,
        _live_heldout_fields,
        figure="teach.live_heldout.where",
        lines=lambda state: tuple(state["algorithms"]),
        needs_result=True,
        applies=lambda state: int(state["heldout_samples"]) > 0 and len(state["algorithms"]) >= 2,
        explain=_live_heldout_explain,
    ),
)


# -- the MoE page ------------------------------------------------------------------------------
# state: :func:`shift_state` of the one-batch result on the page (computed before the page shows
# any of its numbers; the settings decide it, so it is the question's signature too)


def shift_state(result) -> dict[str, Any]:
    """The MoE predictions' state from a :class:`rlviz.experiments.moe.RoutingShiftResult`: its
    settings (``model``, ``updates``, ``lr``, ``prompts``, ``group_size``, ``seed``), ``moe``
    (whether the model routes), ``layers``, ``arms`` (the arms in the result's order) and
    ``summary`` (:meth:`~rlviz.experiments.moe.RoutingShiftResult.summary`)."""
    s = result.settings
    return {
        "model": s.model,
        "updates": int(s.updates),
        "lr": float(s.lr),
        "prompts": int(s.prompts),
        "group_size": int(s.group_size),
        "seed": int(s.seed),
        "moe": bool(result.moe),
        "layers": int(result.layers),
        "arms": tuple(dict.fromkeys(result.arms["arm"])),
        "summary": dict(result.summary()),
    }


def _pct(value: float) -> str:
    return f"{value:.1%}" if math.isfinite(value) else "—"


def _moe_fields(state: Mapping[str, Any]) -> dict[str, str]:
    from rlviz.experiments.moe import ARTICLE_ROUTE_CHANGE, REPLAY_VISIBLE, sequence_objective

    return {
        "k": str(int(state["updates"])),
        "lr": f"{float(state['lr']):g}",
        "article": f"{ARTICLE_ROUTE_CHANGE:.0%}",
        "visible": f"{REPLAY_VISIBLE:.0%}",
        "seq": _title(sequence_objective()),
    }


def _moe_route(state: Mapping[str, Any]) -> float:
    """The share of the response tokens' (token, layer) routes whose expert set changed after the
    k-th update (``summary()["route_change_last"]``)."""
    value = state["summary"]["route_change_last"]
    if not math.isfinite(value):
        raise ValueError("model: the dense model has no routes to change")
    return value


def _moe_route_explain(state: Mapping[str, Any]) -> dict[str, str]:
    s = state["summary"]
    return _moe_fields(state) | {"first": f"{s['route_change_first']:.3g}", "layers": str(int(state["layers"]))}


def _moe_replay(state: Mapping[str, Any]) -> str:
    """``"routing"`` when replaying the old routing narrows the token log-ratio's spread by at
    least ``REPLAY_VISIBLE`` (the MoE page's verdict), else ``"update"``."""
    from rlviz.experiments.moe import REPLAY_VISIBLE

    change = state["summary"]["replay_spread_change"]
    if not math.isfinite(change):
        raise ValueError("lr: nothing moved, so there is no spread to compare")
    return "routing" if change <= -REPLAY_VISIBLE else "update"


def _moe_replay_explain(state: Mapping[str, Any]) -> dict[str, str]:
    s = state["summary"]
    return _moe_fields(state) | {
        "own": f"{s['token_std_own']:.3g}",
        "rep": f"{s['token_std_replay']:.3g}",
        "change": f"{s['replay_spread_change']:+.1%}",
        "routing_share": _pct(s["routing_share_of_own"]),
    }


def _moe_sequence(state: Mapping[str, Any]) -> str:
    """``"yes"`` when the sequence log-ratio's std is above 0 and below the token log-ratio's (own
    routing, after the k-th update), as the MoE page reads it."""
    s = state["summary"]
    return "yes" if 0 < s["sequence_std"] < s["token_std_own"] else "no"


def _moe_sequence_explain(state: Mapping[str, Any]) -> dict[str, str]:
    s = state["summary"]
    own, seq = s["token_std_own"], s["sequence_std"]
    return _moe_fields(state) | {
        "own": f"{own:.3g}",
        "seq_std": f"{seq:.3g}",
        "pct": _pct(seq / own) if own > 0 else "—",
    }


def _moe_clip(state: Mapping[str, Any]) -> Lines:
    """The arms ranked by the clip fraction their loss saw at the k-th update; only exact ties tie
    (one batch, no sampling noise between the arms: they share it)."""
    return rank_lines({arm: state["summary"][f"clip_{arm}"] for arm in state["arms"]})


def _moe_clip_explain(state: Mapping[str, Any]) -> dict[str, str]:
    lines = _moe_clip(state)
    finite = [v for v in lines.values.values() if math.isfinite(v)]
    return _moe_fields(state) | {"best_value": _pct(lines.values[lines.best]), "low_value": _pct(min(finite))}


PREDICTIONS["moe"] = (
    Prediction(
        "teach.moe_route",
        "number",
        _moe_route,
        _moe_fields,
        tolerance=0.03,
        figure="teach.moe_route.where",
        applies=lambda state: bool(state["moe"]),
        explain=_moe_route_explain,
    ),
    Prediction(
        "teach.moe_replay",
        "choice",
        _moe_replay,
        _moe_fields,
        choices=("routing", "update"),
        figure="teach.moe_replay.where",
        applies=lambda state: bool(state["moe"]) and float(state["lr"]) > 0,
        explain=_moe_replay_explain,
    ),
    Prediction(
        "teach.moe_sequence",
        "choice",
        _moe_sequence,
        _moe_fields,
        choices=("yes", "no"),
        figure="teach.moe_sequence.where",
        applies=lambda state: float(state["lr"]) > 0,
        explain=_moe_sequence_explain,
    ),
    Prediction(
        "teach.moe_clip",
        "line",
        _moe_clip,
        _moe_fields,
        figure="teach.moe_clip.where",
        lines=lambda state: tuple(state["arms"]),
        explain=_moe_clip_explain,
    ),
)


# -- the confusions page -----------------------------------------------------------------------
# state and answers: rlviz.experiments.confusions (answer_* / fields_* / explain_*), one question per confusion
def _confusions() -> tuple[Prediction, ...]:
    from rlviz.experiments import confusions as c

    return (
        Prediction(
            "confusions.aggregation",
            "choice",
            c.answer_aggregation,
            c.fields_aggregation,
            choices=("tokens", "responses", "both"),
        ),
        Prediction("confusions.microbatch", "number", c.answer_microbatch, c.fields_microbatch, tolerance=0.05),
        Prediction("confusions.ratio_one", "choice", c.answer_ratio_one, c.fields_ratio_one, choices=("acts", "never")),
        Prediction(
            "confusions.sequence", "choice", c.answer_sequence, c.fields_sequence, choices=("all", "none", "some")
        ),
        Prediction(
            "confusions.sampler",
            "choice",
            c.answer_sampler,
            c.fields_sampler,
            choices=("sampler", "ppo", "both", "neither"),
        ),
        Prediction("confusions.kl", "choice", c.answer_kl, c.fields_kl, choices=c.KL_CHOICES),
        Prediction("confusions.difficulty", "number", c.answer_difficulty, c.fields_difficulty, tolerance=0.05),
        Prediction("confusions.clip", "choice", c.answer_clip, c.fields_clip, choices=c.BOUNDS),
        Prediction(
            "confusions.window",
            "number",
            c.answer_window,
            c.fields_window,
            tolerance=0.02,
            relative_tolerance=0.05,
            explain=c.explain_window,
        ),
        Prediction(
            "confusions.drift",
            "number",
            c.answer_drift,
            c.fields_drift,
            relative_tolerance=0.1,
            explain=c.explain_drift,
        ),
        Prediction(
            "confusions.gdpo", "choice", c.answer_gdpo, c.fields_gdpo, choices=c.GDPO_CHOICES, explain=c.explain_gdpo
        ),
    )


PREDICTIONS["confusions"] = _confusions()


def _advantages() -> tuple[Prediction, ...]:
    """The advantages page's questions on its group (``rlviz.experiments.advantages``)."""
    from rlviz.experiments import advantages as a

    return (
        Prediction("advantages.predict_rloo", "number", a.answer_rloo, a.prediction_fields, tolerance=0.02),
        Prediction(
            "advantages.predict_maxrl",
            "number",
            a.answer_maxrl,
            a.prediction_fields,
            tolerance=0.02,
            applies=a.maxrl_applies,
        ),
    )


PREDICTIONS["advantages"] = _advantages()


# -- the KL page: state and answers in rlviz.experiments.kl ---------------------------------------
def _kl() -> tuple[Prediction, ...]:
    from rlviz.experiments import kl as k

    return (
        Prediction("kl.k1_loss", "number", k.answer_k1_loss, k.fields_k1_loss, tolerance=0.02),
        Prediction("kl.k3_direction", "choice", k.answer_k3_direction, k.fields_k3_direction, choices=k.DIRECTIONS),
    )


PREDICTIONS["kl"] = _kl()


# -- the mismatch page: state (mismatch_state of the page's measurement) and answers in
# rlviz.experiments.mismatch
def _mismatch() -> tuple[Prediction, ...]:
    from rlviz.experiments import mismatch as m

    return (
        Prediction("mismatch.q_precision", "choice", m.answer_precision, m.fields_precision, choices=m.PRECISIONS),
        Prediction("mismatch.q_truncation", "choice", m.answer_truncation, m.fields_truncation, choices=m.TRUNCATION),
    )


PREDICTIONS["mismatch"] = _mismatch()


# -- the "one update, slowly" page: state (prediction_state of its settings) and answers in
# rlviz.experiments.step (the same sample and replay the page draws)
def _step() -> tuple[Prediction, ...]:
    from rlviz.experiments import step as s

    return (
        Prediction(
            "step.q_advantage",
            "number",
            s.answer_advantage,
            s.fields_advantage,
            tolerance=0.05,
            figure="step.q_advantage.where",
            applies=s.advantage_applies,
            explain=s.explain_advantage,
        ),
        Prediction(
            "step.q_clip",
            "number",
            s.answer_clip,
            s.fields_clip,
            tolerance=0.03,
            figure="step.q_clip.where",
            applies=s.clip_applies,
            explain=s.explain_clip,
        ),
    )


PREDICTIONS["step"] = _step()


# -- the length page's measured section (the length claims on make_sum): state and answer in
# rlviz.experiments.length_claims (question_state of the shipped record); the shaping questions above it
# apply at the sliders' state, this one at the record's
def _length_claims() -> tuple[Prediction, ...]:
    from rlviz.experiments import length_claims as c

    return (
        Prediction(
            "length.q_bias",
            "choice",
            c.answer_bias,
            c.fields_bias,
            choices=c.BIAS_CHOICES,
            figure="length.q_bias.where",
            applies=c.bias_applies,
            explain=c.explain_bias,
        ),
    )


PREDICTIONS["length"] = PREDICTIONS["length"] + _length_claims()


# -- the gradient-scale page: state (prediction_state of its settings) and answers in
# rlviz.experiments.gradscale (the same trainer update the page's second figure draws)
def _gradscale() -> tuple[Prediction, ...]:
    from rlviz.experiments import gradscale as g

    return (
        Prediction(
            "gradscale.q_adam",
            "number",
            g.answer_adam,
            g.fields_adam,
            tolerance=0.1,
            figure="gradscale.q_adam.where",
            explain=g.explain_adam,
        ),
        Prediction(
            "gradscale.q_sgd",
            "number",
            g.answer_sgd,
            g.fields_sgd,
            tolerance=0.02,
            relative_tolerance=0.1,
            figure="gradscale.q_sgd.where",
            explain=g.explain_sgd,
        ),
    )


PREDICTIONS["gradscale"] = _gradscale()


# -- the critic page: state and answers in rlviz.experiments.critic (the group's numbers and gamma; the live
# questions read a finished CriticRun's live_result)
def _critic() -> tuple[Prediction, ...]:
    from rlviz.experiments import critic as c

    return (
        Prediction(
            "critic.q_td",
            "choice",
            c.answer_td,
            c.fields_td,
            choices=("last", "more"),
            figure="critic.q_td.where",
            applies=c.td_applies,
        ),
        Prediction("critic.q_mc", "number", c.answer_mc, c.fields_mc, tolerance=0.02, figure="critic.q_mc.where"),
        Prediction(
            "critic.q_cost",
            "number",
            c.answer_cost,
            c.fields_live,
            tolerance=0.1,
            relative_tolerance=0.15,
            needs_result=True,
        ),  # fmt: skip
        Prediction(
            "critic.q_where",
            "choice",
            c.answer_where,
            c.fields_live,
            choices=("early", "late"),
            needs_result=True,
            explain=c.explain_where,
        ),
    )


PREDICTIONS["critic"] = _critic()


# -- the "why SFT before RL?" page: state and answers in rlviz.experiments.warmstart (the first question is
# asked at the measured groups of both starts, question_state; the live ones read a finished run's live_result)
def _warmstart() -> tuple[Prediction, ...]:
    from rlviz.experiments import warmstart as w

    return (
        Prediction(
            "warmstart.q_zero",
            "number",
            w.answer_zero,
            w.fields_zero,
            tolerance=0.05,
            figure="warmstart.q_zero.where",
            explain=w.explain_zero,
        ),
        Prediction(
            "warmstart.q_live_zero",
            "number",
            w.answer_live_zero,
            w.fields_live_zero,
            tolerance=0.1,
            figure="warmstart.q_live_zero.where",
            needs_result=True,
            explain=w.explain_live_zero,
        ),
        Prediction(
            "warmstart.q_gain",
            "line",
            lambda state: rank_lines(*w.heldout_gains(state)),  # ties within two standard errors of the gap
            w.fields_gain,
            figure="warmstart.q_gain.where",
            lines=lambda state: w.ARMS,
            needs_result=True,
            applies=w.gain_applies,
            explain=w.explain_gain,
        ),
    )


PREDICTIONS["warmstart"] = _warmstart()


def mismatch_state(result) -> dict[str, Any]:
    """The mismatch predictions' state from a :class:`rlviz.experiments.mismatch.MismatchResult`
    (:func:`rlviz.experiments.mismatch.mismatch_state`)."""
    from rlviz.experiments.mismatch import mismatch_state as state_of

    return state_of(result)


# -- the state a page asks its predictions at, from its settings ------------------------------------
# One path from a page's widget values to the ``state`` its predictions are computed at: the pages call
# :func:`state_from_settings` with their widgets' values (``st.session_state``), and a lesson step
# (``rlviz.teach.lessons``) calls it with the URL parameters it opens the page with. Values may
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
    variant the page's clip-cases table follows (``cases_variant_of``: PPO itself, or Dual-clip PPO
    when only that is chosen; ``c_<variant>_<setting>``, an optional one with its ``..._on`` toggle)
    when it is among the chosen curves (``c_algos``), else PPO's defaults; resolved by
    ``variant_overrides``. The questions then name the ε and c the learner sees on the sliders."""
    from rlviz.core.objectives import ALGORITHMS
    from rlviz.experiments import curves as C

    catalog = C.variants()
    chosen = _chosen(settings.get("c_algos"), {k: v.title for k, v in catalog.items()}, C.DEFAULT_VARIANTS)
    variant = C.cases_variant_of(chosen)
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


def _live_state(settings: Mapping[str, Any]) -> dict[str, Any]:
    """The live page's run settings (``dataclasses.asdict`` of its ``LiveConfig``, as the page asks its
    predictions at) from its widgets: ``lv_algos`` (registry names or their titles), ``lv_steps``,
    ``lv_prompts``, ``lv_G``, ``lv_mu``, ``lv_mb``, ``lv_heldout`` and each chosen objective's numeric
    settings ``lv_<name>.<setting>``; the rest at ``LiveConfig``'s defaults. The answers need the
    finished run (``live_result``): a lesson's worksheet asks these questions and leaves their answers
    to the class's run."""
    import dataclasses

    from rlviz.core.objectives import ALGORITHMS
    from rlviz.experiments.live import LiveConfig

    d = LiveConfig()
    algorithms = _chosen(settings.get("lv_algos"), {k: v.title for k, v in ALGORITHMS.items()}, d.algorithms)
    own: dict[str, dict[str, Any]] = {}
    for name in algorithms:
        spec = ALGORITHMS[name]
        for s in spec.loss_settings + spec.train_settings:
            raw = settings.get(f"lv_{name}.{s.name}")
            if raw is None or isinstance(s.default, (bool, str)):
                continue
            value = _number_in(raw, math.nan, -math.inf, math.inf)
            if math.isfinite(value) and value != s.default:
                own.setdefault(name, {})[s.name] = int(value) if isinstance(s.default, int) else value
    config = dataclasses.replace(
        d,
        algorithms=tuple(algorithms),
        steps=int(_number_in(settings.get("lv_steps"), d.steps, 1, 500)),
        prompts_per_step=int(_number_in(settings.get("lv_prompts"), d.prompts_per_step, 1, 128)),
        group_size=int(_number_in(settings.get("lv_G"), d.group_size, 2, 64)),
        mu=int(_number_in(settings.get("lv_mu"), d.mu, 1, 16)),
        mini_batches=int(_number_in(settings.get("lv_mb"), d.mini_batches, 1, 64)),
        heldout_samples=int(_number_in(settings.get("lv_heldout"), d.heldout_samples, 0, 64)),
        settings=own,
    )
    return dataclasses.asdict(config)


def _advantages_state(settings: Mapping[str, Any]) -> dict[str, Any]:
    """The advantages page's group (``ad_r``, ``ad_r2``, ``ad_greedy``, ``ad_len``), parsed by
    ``parse_inputs`` (a missing field: the page's default)."""
    from rlviz.experiments import advantages as a

    def text(key: str, default: str) -> str:
        value = _last(settings.get(key))
        return default if value is None else str(value)

    inputs = a.parse_inputs(
        text("ad_r", a.DEFAULT_REWARDS),
        text("ad_r2", a.DEFAULT_SECOND),
        text("ad_greedy", a.DEFAULT_GREEDY),
        text("ad_len", a.DEFAULT_LENGTHS),
    )
    return a.state_from_inputs(inputs)


def _kl_state(settings: Mapping[str, Any]) -> dict[str, Any]:
    """The KL page's categorical settings (``kl_pol``, ``kl_ref``, ``kl_shift``):
    :func:`rlviz.experiments.kl.kl_state`."""
    from rlviz.experiments.kl import kl_state

    return kl_state(settings)


STATE_BUILDERS: dict[str, Callable[[Mapping[str, Any]], dict[str, Any]]] = {
    "curves": _curves_state,
    "weighting": _weighting_state,
    "length": _length_state,
    "sampling": _sampling_state,
    "live": _live_state,
    "advantages": _advantages_state,
    "kl": _kl_state,
}


def _step_state(settings: Mapping[str, Any]) -> dict[str, Any]:
    """The "one update, slowly" page's batch and objective (``st_obj``, ``st_G``, ``st_prompt``, ``st_lr``,
    the sidebar's ``seed``): :func:`rlviz.experiments.step.prediction_state`."""
    from rlviz.experiments.step import prediction_state

    return prediction_state(settings)


STATE_BUILDERS["step"] = _step_state


def _gradscale_state(settings: Mapping[str, Any]) -> dict[str, Any]:
    """The gradient-scale page's batch, objective and learning rate (``gs_obj``, ``gs_G``, ``gs_prompt``,
    ``gs_lr``, the sidebar's ``seed``): :func:`rlviz.experiments.gradscale.prediction_state`."""
    from rlviz.experiments.gradscale import prediction_state

    return prediction_state(settings)


STATE_BUILDERS["gradscale"] = _gradscale_state


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
