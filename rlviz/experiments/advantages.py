"""The advantages page: every advantage estimator of ``rlviz.core.estimators.ESTIMATORS`` on one group
of rewards the user types, side by side, and the difficulty bias each carries.

Plain functions, no Streamlit. Every number comes from
:func:`rlviz.core.estimators.estimate_advantages` (the trainer's own call) or
:func:`rlviz.core.estimators.expected_group_weight` built on it; the page's predictions
(``rlviz.teach.predict.PREDICTIONS["advantages"]``) read their answers from here too.

Legend: G responses in the group; the page's batch is this one group (n = 1), so an estimator with
batch statistics normalises over the group itself (in training: over the whole step's batch).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import pandas as pd
import torch

from rlviz.core.estimators import ESTIMATORS, estimate_advantages, expected_group_weight
from rlviz.i18n import STRINGS, t
from rlviz.numbering import response_number

from .weighting import parse_numbers

__all__ = [
    "DEFAULT_GREEDY",
    "DEFAULT_LENGTHS",
    "DEFAULT_REWARDS",
    "DEFAULT_SECOND",
    "FIELDS",
    "GroupInputs",
    "QUESTION_ESTIMATOR",
    "advantage_table",
    "answer_maxrl",
    "answer_rloo",
    "bias_at",
    "coinciding",
    "default_choice",
    "difficulty_bias",
    "estimator_titles",
    "estimator_url_aliases",
    "parse_fields",
    "parse_inputs",
    "prediction_fields",
    "readers",
    "state_from_inputs",
]

DEFAULT_REWARDS = "1, 0, 0, 0"  # a hard prompt: one right answer out of four
DEFAULT_SECOND = "1, 1, 0, 1"  # GDPO's second reward (well-formed answer), one per response
DEFAULT_GREEDY = "0"  # ReMax: the reward of the prompt's greedy response
DEFAULT_LENGTHS = ""  # empty: every response counts once in batch whitening
BIAS_GROUP_SIZE = 8
NAME_KEY = "advantages.name.{}"  # an estimator's display name in the string table, by registry key


def estimator_titles(lang: str) -> dict[str, str]:
    """Registry key -> the estimator's display name in ``lang``, in registry order: the string table's
    ``advantages.name.<key>`` (rlviz/locale/advantages.py; its English is the registry's ``title``), or
    the registry's ``title`` for an entry the table does not name yet (tests/test_page_advantages.py
    fails for it).

    Raises:
        ValueError: ``lang`` is not one of ``rlviz.i18n.LANGS``.
    """
    return {n: t(NAME_KEY.format(n), lang) if NAME_KEY.format(n) in STRINGS else s.title for n, s in ESTIMATORS.items()}


def estimator_url_aliases() -> dict[str, str]:
    """URL value -> registry key for the values the page's estimator choice (``ad_est``) wrote before it
    wrote keys: each registry ``title`` (the label the widget showed in both languages), so an older
    link still opens its estimators."""
    return {s.title: n for n, s in ESTIMATORS.items()}


@dataclass(frozen=True)
class GroupInputs:
    """One group as the page holds it.

    Attributes:
        rewards: G rewards (the task reward every estimator reads).
        second: G values of a second reward (GDPO's second component), or ``None`` where the page's
            field could not be read (the estimators that need it are then left out, :func:`applicable`).
        greedy: the reward of the prompt's greedy response (ReMax's baseline), or ``None`` (as ``second``).
        lengths: G response lengths in tokens, or ``None`` (each response counts once).
    """

    rewards: tuple[float, ...]
    second: tuple[float, ...] | None
    greedy: float | None
    lengths: tuple[int, ...] | None = None

    @property
    def group_size(self) -> int:
        return len(self.rewards)

    def tensors(self) -> dict[str, Any]:
        """``rewards [1, G]`` and the keyword inputs of :func:`estimate_advantages` (float64; ``None``
        for an input the group does not have)."""
        r = torch.tensor([self.rewards], dtype=torch.float64)  # (1, G)
        comps = None
        if self.second is not None:
            comps = torch.stack([r, torch.tensor([self.second], dtype=torch.float64)], dim=-1)  # (1, G, 2)
        lengths = None if self.lengths is None else torch.tensor([self.lengths], dtype=torch.float64)
        return {
            "rewards": r,
            "components": comps,
            "greedy_rewards": None if self.greedy is None else torch.tensor([self.greedy], dtype=torch.float64),
            "lengths": lengths,
        }


def parse_inputs(
    rewards_text: str,
    second_text: str = DEFAULT_SECOND,
    greedy_text: str = DEFAULT_GREEDY,
    lengths_text: str = DEFAULT_LENGTHS,
) -> GroupInputs:
    """The page's group from its text fields (``"1, 0, 0, 0"``).

    Raises:
        ValueError: naming ``rewards``, ``second_reward``, ``greedy_reward`` or ``lengths``: an empty
            or non-numeric entry, NaN / inf, fewer than two rewards, a second reward or length list of
            another length than the rewards, more than one greedy reward, a length below 1.
    """
    group, errors = parse_fields(rewards_text, second_text, greedy_text, lengths_text)
    if errors:  # the first field in the page's order
        raise next(iter(errors.values()))
    return group


FIELDS = ("rewards", "second_reward", "greedy_reward", "lengths")  # the page's fields, by parameter name


def readers(field: str, names=None) -> list[str]:
    """The estimators of ``names`` (default: all, in registry order) whose advantages read the page's
    field ``field`` (one of :data:`FIELDS`), as the registry says: ``rewards`` every one the page
    computes (not a per-token estimator, :func:`per_token`: the page has no token statistics);
    ``second_reward`` those that need the reward's components (``needs``), ``greedy_reward`` those that
    need a greedy response's reward; ``lengths`` those through which response length enters
    (``length_note``).

    Raises:
        ValueError: naming ``field`` when it is not one of :data:`FIELDS`.
    """
    if field not in FIELDS:
        raise ValueError(f"field: {field!r} is not one of {', '.join(FIELDS)}")
    names = list(ESTIMATORS) if names is None else [n for n in ESTIMATORS if n in names]
    names = [n for n in names if not ESTIMATORS[n].per_token]
    if field == "rewards":
        return names
    if field == "lengths":
        return [n for n in names if ESTIMATORS[n].length_note]
    need = "components" if field == "second_reward" else "greedy"
    return [n for n in names if need in ESTIMATORS[n].needs]


def parse_fields(
    rewards_text: str,
    second_text: str = DEFAULT_SECOND,
    greedy_text: str = DEFAULT_GREEDY,
    lengths_text: str = DEFAULT_LENGTHS,
) -> tuple[GroupInputs | None, dict[str, ValueError]]:
    """The page's group, each field read on its own, so that one bad field leaves the others' work
    standing: ``(group, errors)``, ``errors`` holding the ``ValueError`` of each field that cannot be
    read, by parameter name (:data:`FIELDS`; the message starts with it, as :func:`parse_inputs`'s).

    The group is ``None`` when the rewards cannot be read (every estimator reads them); a bad second
    reward or greedy reward is ``None`` in the group (:func:`applicable` then leaves out the
    estimators that need it); bad lengths are ``None`` too, and the page leaves out their
    :func:`readers`. With every field good, the group is :func:`parse_inputs`'s.
    """
    errors: dict[str, ValueError] = {}
    rewards = None
    try:
        rewards = parse_numbers(rewards_text, "rewards")
        if len(rewards) < 2:
            raise ValueError(f"rewards: a group needs at least two responses, got {len(rewards)}")
    except ValueError as exc:
        errors["rewards"], rewards = exc, None
    second = None
    try:
        second = parse_numbers(second_text, "second_reward")
        if rewards is not None and len(second) != len(rewards):
            raise ValueError(f"second_reward: {len(second)} values for {len(rewards)} rewards; give one per response")
    except ValueError as exc:
        errors["second_reward"], second = exc, None
    greedy = None
    try:
        values = parse_numbers(greedy_text, "greedy_reward")
        if len(values) != 1:
            raise ValueError(f"greedy_reward: one number (the greedy response's reward), got {len(values)}")
        greedy = float(values[0])
    except ValueError as exc:
        errors["greedy_reward"] = exc
    lengths = None
    if str(lengths_text or "").strip():
        try:
            lengths = parse_numbers(lengths_text, "lengths", integer=True)
            if rewards is not None and len(lengths) != len(rewards):
                raise ValueError(f"lengths: {len(lengths)} values for {len(rewards)} rewards; give one per response")
            if min(lengths) < 1:
                raise ValueError(f"lengths: each length must be at least 1 token, got {min(lengths)}")
        except ValueError as exc:
            errors["lengths"], lengths = exc, None
    if rewards is None:
        return None, errors
    group = GroupInputs(
        tuple(rewards),
        None if second is None else tuple(second),
        greedy,
        None if lengths is None else tuple(lengths),
    )
    return group, errors


def per_token(names=None) -> list[str]:
    """The estimators of ``names`` (default: all, in registry order) that give one advantage per token
    from the old policy's token statistics (``EstimatorSpec.per_token``): a group typed as rewards
    cannot show them, so the page names them instead of drawing them."""
    names = list(ESTIMATORS) if names is None else [n for n in ESTIMATORS if n in names]
    return [n for n in names if ESTIMATORS[n].per_token]


def default_choice() -> list[str]:
    """The estimators the page's choice starts with: every one it can draw from typed rewards
    (:func:`readers` of ``rewards``: not a per-token estimator, ``EstimatorSpec.per_token``), in registry
    order; a reader may still add the others."""
    return readers("rewards")


def applicable(inputs: GroupInputs, names=None) -> list[str]:
    """The estimators of ``names`` (default: all, in registry order) that accept this group: MaxRL
    needs rewards >= 0; an estimator that needs the second reward or the greedy reward is left out
    when the group has none (:func:`parse_fields` with that field bad), and one that needs token
    statistics always (the group holds rewards only: :func:`per_token`)."""
    names = list(ESTIMATORS) if names is None else [n for n in ESTIMATORS if n in names]
    low = min(min(inputs.rewards), min(inputs.second or inputs.rewards))
    missing = {need for need, value in (("components", inputs.second), ("greedy", inputs.greedy)) if value is None}
    missing.add("token_stats")  # the page's group has no old log-probs or Σπ²
    return [n for n in names if not (ESTIMATORS[n].nonnegative and low < 0) and not (ESTIMATORS[n].needs & missing)]


def advantage_table(inputs: GroupInputs, names=None) -> pd.DataFrame:
    """Every estimator's advantage of every response of the group, from :func:`estimate_advantages`.

    Args:
        inputs: the group.
        names: estimators to include (default: all of ``ESTIMATORS``, registry order); those whose
            formula does not accept these rewards (MaxRL with a negative reward) or that need inputs
            the group lacks (:func:`applicable`, a per-token estimator's token statistics) are left out.

    Returns:
        Columns ``estimator, response`` (1-based), ``reward, second_reward, advantage``; one row per
        (estimator, response), estimators in registry order.

    Raises:
        ValueError: as :func:`estimate_advantages` (an unknown name names ``adv_estimator``).
    """
    for n in names or ():
        if n not in ESTIMATORS:
            raise ValueError(f"adv_estimator: unknown estimator {n!r}; known: {', '.join(ESTIMATORS)}")
    t = inputs.tensors()
    rows = []
    for name in applicable(inputs, names):
        adv = estimate_advantages(
            name,
            t["rewards"],
            components=t["components"],
            greedy_rewards=t["greedy_rewards"],
            lengths=t["lengths"],
        )[0]  # (G,)
        for i, a in enumerate(adv.tolist()):
            rows.append(
                {
                    "estimator": name,
                    "response": i + 1,
                    "reward": inputs.rewards[i],
                    "second_reward": float("nan") if inputs.second is None else inputs.second[i],
                    "advantage": a,
                }
            )
    return pd.DataFrame(rows, columns=["estimator", "response", "reward", "second_reward", "advantage"])


def difficulty_bias(group_size: int = BIAS_GROUP_SIZE, points: int = 101, names=None) -> pd.DataFrame:
    """How much a prompt of pass rate p weighs under each estimator, for 0/1 rewards:
    E[Σ_i |A_i|] (:func:`rlviz.core.estimators.expected_group_weight`).

    Returns:
        Columns ``estimator, pass_rate, weight, relative`` (weight over its own maximum over p, so the
        shapes compare on one axis); estimators in registry order.

    Raises:
        ValueError: ``group_size`` not a whole number >= 2 (naming it); ``points`` < 2.
    """
    if int(points) < 2:
        raise ValueError(f"points: need at least 2, got {points}")
    p = torch.linspace(0.0, 1.0, int(points), dtype=torch.float64)
    frames = []
    for name in list(ESTIMATORS) if names is None else [n for n in ESTIMATORS if n in names]:
        w = expected_group_weight(name, p, group_size)
        top = float(w.max())
        frames.append(
            pd.DataFrame(
                {
                    "estimator": name,
                    "pass_rate": p.numpy(),
                    "weight": w.numpy(),
                    "relative": (w / top).numpy() if top > 0 else w.numpy(),
                }
            )
        )
    if not frames:
        return pd.DataFrame(columns=["estimator", "pass_rate", "weight", "relative"])
    return pd.concat(frames, ignore_index=True)


def bias_at(df: pd.DataFrame, pass_rate: float) -> dict[str, float]:
    """``{estimator: relative weight}`` at the grid point of ``df`` (a :func:`difficulty_bias` frame)
    nearest ``pass_rate``, in the frame's order: what the page's caption reads from the figure."""
    if df.empty:
        return {}
    p = df["pass_rate"].to_numpy()
    nearest = p[abs(p - pass_rate).argmin()]
    part = df[df["pass_rate"] == nearest]
    return dict(zip(part["estimator"], part["relative"].astype(float)))


def coinciding(df: pd.DataFrame, column: str = "relative", atol: float = 1e-6) -> list[list[str]]:
    """The estimators of a :func:`difficulty_bias` frame whose ``column`` curves lie on one another
    (every point within ``atol``, far below what a figure can show; the Optimal Token Baseline's
    curve differs from Dr.GRPO's by about 1e-9, its epsilon): groups of two or more, each in the frame's order, groups ordered by
    their first member; what the page names under the figure, as coinciding lines hide each other.

    Raises:
        ValueError: naming ``column`` when the frame has no such column.
    """
    if column not in df.columns:
        raise ValueError(f"column: {column!r} is not a column of the frame ({', '.join(map(str, df.columns))})")
    curves = {n: part[column].to_numpy(dtype=float) for n, part in df.groupby("estimator", sort=False)}
    groups: list[list[str]] = []
    for name, curve in curves.items():
        for group in groups:
            first = curves[group[0]]
            if first.shape == curve.shape and bool((abs(first - curve) <= atol).all()):
                group.append(name)
                break
        else:
            groups.append([name])
    return [g for g in groups if len(g) > 1]


# -- the page's predictions (rlviz.teach.predict.PREDICTIONS["advantages"]) -------------------------
# state: the group on the page ({"rewards": (...), "second": (...), "greedy": g, "lengths": (...) | None})


def state_from_inputs(inputs: GroupInputs) -> dict[str, Any]:
    """The predictions' state for the page's group."""
    return {"rewards": inputs.rewards, "second": inputs.second, "greedy": inputs.greedy, "lengths": inputs.lengths}


def _inputs(state: Mapping[str, Any]) -> GroupInputs:
    lengths = state.get("lengths")
    return GroupInputs(
        tuple(float(x) for x in state["rewards"]),
        None
        if state.get("second", ()) is None
        else tuple(float(x) for x in state.get("second", (0.0,) * len(state["rewards"]))),
        None if state.get("greedy", 0.0) is None else float(state.get("greedy", 0.0)),
        None if lengths is None else tuple(int(x) for x in lengths),
    )


def _best(inputs: GroupInputs) -> int:
    """The index of the first response with the highest reward (the one the questions ask about)."""
    return max(range(inputs.group_size), key=lambda i: (inputs.rewards[i], -i))


def _advantage_of(name: str, state: Mapping[str, Any]) -> float:
    inputs = _inputs(state)
    t = inputs.tensors()
    adv = estimate_advantages(
        name, t["rewards"], components=t["components"], greedy_rewards=t["greedy_rewards"], lengths=t["lengths"]
    )
    return float(adv[0, _best(inputs)])


# the estimator whose advantage each question asks for: its bars are the answer, held back until the
# learner commits (the page hides them while ``answers_held``)
QUESTION_ESTIMATOR = {"advantages.predict_rloo": "rloo", "advantages.predict_maxrl": "maxrl"}


def answer_rloo(state: Mapping[str, Any]) -> float:
    """RLOO's advantage of the first best response: R_i minus the mean of the other G − 1 rewards."""
    return _advantage_of("rloo", state)


def answer_maxrl(state: Mapping[str, Any]) -> float:
    """MaxRL's advantage of the first best response: (R_i − mean) / mean (for 0/1 rewards 1/p̂ − 1).
    Raises ``ValueError`` naming ``rewards`` for a negative reward."""
    return _advantage_of("maxrl", state)


def maxrl_applies(state: Mapping[str, Any]) -> bool:
    """MaxRL's question is asked only for rewards >= 0 (it divides by the mean reward)."""
    return min(float(x) for x in state["rewards"]) >= 0


def prediction_fields(state: Mapping[str, Any]) -> dict[str, str]:
    """The group as the questions quote it: ``rewards``, ``i`` (1-based index of the first best
    response), ``reward`` (its reward), ``G``, ``grpo`` (GRPO's advantage of it), ``mean``."""
    inputs = _inputs(state)
    i = _best(inputs)
    mean = sum(inputs.rewards) / inputs.group_size
    return {
        "rewards": ", ".join(f"{r:g}" for r in inputs.rewards),
        "i": str(response_number(i)),
        "reward": f"{inputs.rewards[i]:g}",
        "G": str(inputs.group_size),
        "G1": str(inputs.group_size - 1),
        "grpo": f"{_advantage_of('grpo', state):.4g}",
        "mean": f"{mean:.4g}",
    }
