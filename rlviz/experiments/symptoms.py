"""Symptom to cause: what a practitioner sees in training, its likely causes, the knob to try, and
settings that reproduce it on the shipped model.

Each :class:`Symptom` is data: the metric that shows it (a column of
``SideBySideRun.metrics_frame()``, i.e. ``rlviz.lm.trainer.METRICS``), a detector over one arm's
metrics (thresholds in :data:`THRESHOLDS`, applied by :func:`detect`), the knobs (a registry
setting or a ``TrainConfig`` field, so its TRL and verl names come from where they are defined),
and the live-page settings that reproduce it (:func:`reproduce_query` turns them into the page's URL).

Whether the settings really reproduce it on the shipped model is measured, not claimed:
``benchmarks/symptoms.py`` (``make bench-symptoms``) trains each reproduction and the defaults from
one seed, runs :func:`detect` on both, and writes :data:`MEASURED` (``symptoms_measured.json``):
the page quotes that file, and says so where a reproduction did not show the symptom.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from rlviz.experiments.live import LiveConfig
from rlviz.i18n import LIST_SEPARATOR, t

__all__ = [
    "BASELINE_ALGORITHM",
    "MEASURED",
    "SETTING_LABELS",
    "SYMPTOMS",
    "THRESHOLDS",
    "Symptom",
    "baseline_label",
    "baseline_run",
    "detect",
    "found_by_other",
    "diagnose",
    "knob_names",
    "load_measured",
    "reproduce_config",
    "reproduce_query",
    "settings_signature",
    "settings_text",
]

MEASURED = Path(__file__).resolve().parent / "symptoms_measured.json"
# the algorithm of the baseline arm ``benchmarks/symptoms.py`` trains beside each live reproduction, on the
# reproduction's task and for its steps, every other setting at the live page's default; an entry records
# it as ``baseline_algorithm`` (entries measured before it did ran this one)
BASELINE_ALGORITHM = "grpo"
# the label of each reproducing setting, as the live page's widget for it is labelled (``rlviz.locale.live``)
SETTING_LABELS: dict[str, str] = {
    "task": "live.task",
    "algorithms": "live.algorithms",
    "steps": "live.steps",
    "prompts_per_step": "live.prompts",
    "group_size": "live.group_size",
    "temperature": "live.temperature",
    "lr": "live.lr",
    "mu": "live.mu",
    "mini_batches": "live.mini_batches",
}


def knob_names(name: str) -> tuple[str | None, str | None]:
    """A knob's ``(TRL, verl)`` config names: a registry setting's (the first entry that has it), else
    a training setting's (``rlviz.teach.export.TRAIN_NAMES``: ``lr``, ``temperature``,
    ``entropy_coef``, ...); ``None`` where the framework has none. Raises ``ValueError`` naming
    ``name`` when it is neither."""
    from rlviz.core.frameworks import TRAIN_NAMES, framework_name
    from rlviz.core.objectives import ALGORITHMS

    for spec in ALGORITHMS.values():
        try:
            setting = spec.setting(name)
        except ValueError:
            continue
        # the full config key, as the export writes it (verl's actor.* under actor_rollout_ref); a
        # remark-only name (no key) as the registry states it
        return tuple(framework_name(setting, fw) or getattr(setting, fw) for fw in ("trl", "verl"))
    if name in TRAIN_NAMES:
        return TRAIN_NAMES[name]
    raise ValueError(f"name: {name!r} is neither a registry setting nor a training setting")


# When a symptom counts as present in one arm's run (the detectors below read these only).
THRESHOLDS: dict[str, float] = {
    "entropy_drop": 0.5,  # entropy over the last third below this share of the first step's
    "reward_gain": 0.05,  # reward (mean of the last third - first third) below this: flat
    "length_growth": 1.5,  # mean response length of the last third over the first third's
    "overlong_share": 0.5,  # or: at least this share of the last third's responses hit L_max
    "kl_high": 0.5,  # KL to the reference (nats per token) of the last step above this
    "zero_adv_share": 0.5,  # mean share of groups whose rewards are all equal
    "clip_high": 0.2,  # mean clip fraction above this
    "route_change": 0.05,  # MoE: share of routes (token x layer) that changed expert
}


def _thirds(values: pd.Series) -> tuple[float, float]:
    """Mean of the first and of the last third of a metric's finite values (NaN if none)."""
    v = values[pd.to_numeric(values, errors="coerce").notna()].astype(float)
    if v.empty:
        return math.nan, math.nan
    k = max(1, len(v) // 3)
    return float(v.iloc[:k].mean()), float(v.iloc[-k:].mean())


def _entropy_collapse(m: pd.DataFrame) -> tuple[bool, float]:
    first = pd.to_numeric(m["entropy"], errors="coerce").dropna()
    if first.empty:
        return False, math.nan
    _, last = _thirds(m["entropy"])
    share = last / float(first.iloc[0]) if first.iloc[0] > 0 else math.nan
    return bool(share < THRESHOLDS["entropy_drop"]), share


def _reward_flat(m: pd.DataFrame) -> tuple[bool, float]:
    first, last = _thirds(m["reward_mean"])
    gain = last - first
    return bool(math.isfinite(gain) and gain < THRESHOLDS["reward_gain"]), gain


def _length_runaway(m: pd.DataFrame) -> tuple[bool, float]:
    first, last = _thirds(m["response_length_mean"])
    growth = last / first if first > 0 else math.nan
    _, overlong = _thirds(m["overlong_fraction"])
    hit = (math.isfinite(growth) and growth >= THRESHOLDS["length_growth"]) or overlong >= THRESHOLDS["overlong_share"]
    return bool(hit), growth


def _kl_blowup(m: pd.DataFrame) -> tuple[bool, float]:
    kl = pd.to_numeric(m["kl_ref"], errors="coerce").dropna()
    last = float(kl.iloc[-1]) if len(kl) else math.nan
    return bool(math.isfinite(last) and last > THRESHOLDS["kl_high"]), last


def _zero_advantage(m: pd.DataFrame) -> tuple[bool, float]:
    share = float(pd.to_numeric(m["zero_adv_group_fraction"], errors="coerce").mean())
    return bool(share >= THRESHOLDS["zero_adv_share"]), share


def _clip_zero(m: pd.DataFrame) -> tuple[bool, float]:
    clip = pd.to_numeric(m["clip_fraction"], errors="coerce").dropna()
    top = float(clip.max()) if len(clip) else math.nan
    return bool(top == 0.0), top


def _clip_high(m: pd.DataFrame) -> tuple[bool, float]:
    mean = float(pd.to_numeric(m["clip_fraction"], errors="coerce").mean())
    return bool(mean > THRESHOLDS["clip_high"]), mean


def _route_spikes(m: pd.DataFrame) -> tuple[bool, float]:
    share = float(pd.to_numeric(m["route_change_fraction"], errors="coerce").mean())
    return bool(share > THRESHOLDS["route_change"]), share


@dataclass(frozen=True)
class Symptom:
    """One thing a practitioner sees in training.

    Attributes:
        key: its name; texts are the locale keys ``symptoms.<key>.title`` (what you see),
            ``.causes`` (the likely causes, a Markdown list) and ``.knob`` (what to try and why).
        metric: the metrics column that shows it (``rlviz.lm.trainer.METRICS``).
        knobs: the settings to turn: registry settings (``epsilon_high``, ``beta``) or
            ``TrainConfig`` fields (``lr``, ``group_size``); the page shows their TRL/verl names.
        page: the page that reproduces it (``"live"`` or ``"moe"``).
        settings: :class:`~rlviz.experiments.live.LiveConfig` fields that reproduce it (``settings``
            holds per-algorithm overrides; ``task`` and ``steps`` choose the run, so
            ``benchmarks/symptoms.py`` measures symptoms of another task or length in a run of their
            own); empty for the MoE page, whose defaults show it.
        detector: ``metrics of one arm -> (present, evidence)``; evidence is the number compared
            with :data:`THRESHOLDS`.
        threshold: the key of :data:`THRESHOLDS` the evidence is compared with (``None`` for an
            exact test, e.g. a clip fraction of exactly 0).
        other: the key of :data:`THRESHOLDS` of a second criterion that finds it too, not reported
            in the evidence (length runaway: the share of responses at the limit), else ``None``;
            the evidence then finds it when it is at least its threshold (:func:`found_by_other`).
    """

    key: str
    metric: str
    knobs: tuple[str, ...]
    page: str
    settings: dict[str, Any] = field(default_factory=dict)
    detector: Any = field(default=None, repr=False, compare=False)
    threshold: str | None = None
    other: str | None = None


SYMPTOMS: tuple[Symptom, ...] = (
    Symptom(
        "entropy_collapse",
        "entropy",
        ("beta", "kl_cov_ratio", "entropy_coef", "epsilon_high", "temperature", "lr"),
        "live",
        # the second task, where many answers are right: DAPO (no KL term) loses entropy past about 60
        # steps there (docs/second-task.md); on reversed addition no setting tried showed it
        {"task": "make_sum", "algorithms": ("dapo",), "steps": 100},
        _entropy_collapse,
        "entropy_drop",
    ),
    Symptom(
        "reward_flat",
        "reward_mean",
        ("lr", "group_size", "prompts_per_step"),
        "live",
        {"algorithms": ("grpo",), "lr": 1e-5, "steps": 30},
        _reward_flat,
        "reward_gain",
    ),
    Symptom(
        "length_runaway",
        "response_length_mean",
        ("lr", "overlong_buffer_length", "loss_agg_mode"),
        "live",
        {"algorithms": ("grpo",), "lr": 2e-3, "steps": 30},
        _length_runaway,
        "length_growth",
        other="overlong_share",
    ),
    Symptom(
        "kl_blowup",
        "kl_ref",
        ("beta", "lr", "mu"),
        "live",
        {"algorithms": ("grpo",), "lr": 1e-3, "steps": 30},
        _kl_blowup,
        "kl_high",
    ),
    Symptom(
        "zero_advantage",
        "zero_adv_group_fraction",
        ("group_size", "dynamic_sampling", "temperature"),
        "live",
        {"algorithms": ("grpo",), "group_size": 2, "steps": 30},
        _zero_advantage,
        "zero_adv_share",
    ),
    Symptom(
        "clip_zero",
        "clip_fraction",
        ("mu", "mini_batches"),
        "live",
        {"algorithms": ("grpo",), "mu": 1, "mini_batches": 1, "steps": 30},
        _clip_zero,
    ),
    Symptom(
        "clip_high",
        "clip_fraction",
        ("lr", "mu", "epsilon_high"),
        "live",
        {"algorithms": ("grpo",), "lr": 1e-3, "mu": 8, "steps": 30},
        _clip_high,
        "clip_high",
    ),
    Symptom(
        "moe_ratio_spikes", "route_change_fraction", ("routing_replay", "lr"), "moe", {}, _route_spikes, "route_change"
    ),
)


def found_by_other(key: str, present: bool, evidence: float) -> bool:
    """Whether symptom ``key``, found (``present``) with ``evidence``, was found by its second
    criterion alone (:attr:`Symptom.other`): its evidence stayed below its own threshold, as
    ``_length_runaway`` compares it (a growth of 1.16x against 1.5x, with half the responses at the
    limit). Raises ``ValueError`` naming ``key`` for an unknown symptom."""
    s = symptom(key)
    return bool(present and s.other and s.threshold and not evidence >= THRESHOLDS[s.threshold])


def symptom(key: str) -> Symptom:
    """The symptom called ``key``. Raises ``ValueError`` naming ``key``."""
    for s in SYMPTOMS:
        if s.key == key:
            return s
    raise ValueError(f"key: no symptom {key!r}; symptoms: {', '.join(s.key for s in SYMPTOMS)}")


def reproduce_config(key: str, **overrides: Any) -> LiveConfig:
    """The :class:`LiveConfig` that reproduces live symptom ``key`` (validated), with ``overrides``
    (``seed``, ``device``, ``heldout_samples`` ...) on top.

    Raises:
        ValueError: an unknown ``key``, a symptom shown on another page (``key``), or a bad setting.
    """
    s = symptom(key)
    if s.page != "live":
        raise ValueError(f"key: {key!r} is reproduced on the {s.page} page, not by a live run")
    config = LiveConfig(**(dict(s.settings) | overrides))
    config.validate()
    return config


def reproduce_query(key: str) -> dict[str, Any]:
    """The URL parameters that open the symptom's page with its reproducing settings (the live
    page's widget keys: ``lv_algos``, ``lv_lr``, ``lv_G`` ...). A URL carries what a widget shows:
    the algorithms by their registry titles (``lv_algos=GRPO``), numbers with ``:g``, the task by its
    registry key (``lv_task=make_sum``). Raises
    ``ValueError`` naming ``key``."""
    from rlviz.core.objectives import ALGORITHMS

    s = symptom(key)
    names = {
        "algorithms": "lv_algos",
        "steps": "lv_steps",
        "prompts_per_step": "lv_prompts",
        "group_size": "lv_G",
        "mu": "lv_mu",
        "lr": "lv_lr",
        "temperature": "lv_temp",
        "mini_batches": "lv_mb",
        "task": "lv_task",  # the task's registry key (the page's task choice reads keys)
    }
    query: dict[str, Any] = {}
    for name, value in s.settings.items():
        if name not in names:
            raise ValueError(f"key: {key!r} sets {name!r}, which the live page has no widget for")
        if name == "algorithms":
            query[names[name]] = [ALGORITHMS[a].title for a in value]
        else:
            query[names[name]] = f"{value:g}" if isinstance(value, float) else str(value)
    return query


def _value_text(name: str, value: Any, lang: str) -> str:
    """One setting's value as a learner reads it: the task by the task registry's label, the algorithms
    by their registry titles, a number with ``:g``."""
    from rlviz.core.objectives import ALGORITHMS
    from rlviz.lm.tasks import get_task

    if name == "task":
        return get_task(value).label[lang]
    if name == "algorithms":
        return LIST_SEPARATOR[lang].join(ALGORITHMS[a].title for a in value)
    return f"{value:g}" if isinstance(value, float) else str(value)


def settings_text(key: str, lang: str) -> str:
    """Symptom ``key``'s reproducing settings in ``lang``, each by the live page's label for it
    (:data:`SETTING_LABELS`) and its value as the page shows it: "task = Make a sum, algorithms = DAPO,
    steps = 100" / "任务 = 凑数、算法 = DAPO、步数 = 100"; "" for a symptom with none (the MoE page's).

    Raises:
        ValueError: an unknown ``key``, a setting without a label (naming ``key``), or an unknown ``lang``.
    """
    s = symptom(key)
    if lang not in LIST_SEPARATOR:
        raise ValueError(f"lang: {lang!r} is not one of {', '.join(LIST_SEPARATOR)}")
    shown = []
    for name, value in s.settings.items():
        if name not in SETTING_LABELS:
            raise ValueError(f"key: {key!r} sets {name!r}, which has no label on the live page")
        label = t(SETTING_LABELS[name], lang)
        label = label[:1].lower() + label[1:] if lang == "en" else label  # mid-sentence in English
        shown.append(f"{label} = {_value_text(name, value, lang)}")
    return LIST_SEPARATOR[lang].join(shown)


def baseline_run(entry: Mapping[str, Any]) -> dict[str, Any]:
    """What the baseline arm of one measured entry (``load_measured()["symptoms"][key]``) ran, as the entry
    records it: ``algorithm`` (its ``baseline_algorithm``, else :data:`BASELINE_ALGORITHM`, which
    ``benchmarks/symptoms.py`` trained before it wrote the key), ``task`` (its ``task``, else the live
    page's default task, which a symptom without one ran on) and ``steps``.

    Raises:
        ValueError: ``entry`` records no ``steps``, or an algorithm or task not in the registries (``entry``).
    """
    from rlviz.core.objectives import ALGORITHMS
    from rlviz.lm.tasks import TASKS

    run = {
        "algorithm": entry.get("baseline_algorithm", BASELINE_ALGORITHM),
        "task": entry.get("task", LiveConfig.task),
        "steps": entry.get("steps"),
    }
    if not isinstance(run["steps"], int) or run["steps"] < 1:
        raise ValueError(f"entry: records no steps ({run['steps']!r})")
    if run["algorithm"] not in ALGORITHMS or run["task"] not in TASKS:
        raise ValueError(f"entry: baseline {run['algorithm']!r} on {run['task']!r} is not in the registries")
    return run


def baseline_label(entry: Mapping[str, Any], lang: str) -> str:
    """The baseline arm of a measured entry (:func:`baseline_run`) named in ``lang``: the algorithm's
    registry title, the task registry's label, the steps ("GRPO on Make a sum for 100 steps" /
    "GRPO（凑数，100 步）"). Raises ``ValueError`` as :func:`baseline_run` does, or for an unknown ``lang``."""
    from rlviz.core.objectives import ALGORITHMS
    from rlviz.lm.tasks import get_task

    run = baseline_run(entry)
    label = get_task(run["task"]).label
    if lang not in label:
        raise ValueError(f"lang: {lang!r} is not one of {', '.join(label)}")
    return t(
        "symptoms.baseline_run",
        lang,
        algorithm=ALGORITHMS[run["algorithm"]].title,
        task=label[lang],
        steps=run["steps"],
    )


def settings_signature(key: str) -> str:
    """The reproducing settings as text, stored with each measurement: a measurement taken with other
    settings is stale (the tests compare them)."""
    return json.dumps(symptom(key).settings, sort_keys=True, default=list)


def detect(metrics: pd.DataFrame) -> pd.DataFrame:
    """Every symptom's detector on one or more arms' metrics.

    Args:
        metrics: ``SideBySideRun.metrics_frame()`` (columns ``arm``, ``step`` and ``METRICS``); an
            arm without a metric a detector needs (``route_change_fraction`` of a dense model is
            NaN) is reported as not present.

    Returns:
        one row per (arm, symptom): ``arm``, ``symptom``, ``present`` (bool), ``evidence`` (the
        number compared with :data:`THRESHOLDS`, NaN where it does not apply).

    Raises:
        ValueError: ``metrics`` lacks the ``arm`` or ``step`` column, or has no rows.
    """
    for col in ("arm", "step"):
        if col not in metrics.columns:
            raise ValueError(f"metrics: needs an {col!r} column")
    if metrics.empty:
        raise ValueError("metrics: no steps yet")
    rows = []
    for arm, m in metrics.groupby("arm", sort=False):
        m = m.sort_values("step")
        for s in SYMPTOMS:
            if s.metric not in m.columns or pd.to_numeric(m[s.metric], errors="coerce").isna().all():
                rows.append({"arm": arm, "symptom": s.key, "present": False, "evidence": math.nan})
                continue
            present, evidence = s.detector(m)
            rows.append({"arm": arm, "symptom": s.key, "present": bool(present), "evidence": float(evidence)})
    return pd.DataFrame(rows, columns=["arm", "symptom", "present", "evidence"])


def diagnose(metrics: pd.DataFrame) -> dict[str, list[str]]:
    """``{arm: [symptom keys present]}`` for a run's metrics (:func:`detect`)."""
    found = detect(metrics)
    return {arm: list(d[d["present"]]["symptom"]) for arm, d in found.groupby("arm", sort=False)}


def load_measured(path: Path = MEASURED) -> dict[str, Any]:
    """The measurements of ``benchmarks/symptoms.py``: ``{"meta": {...}, "symptoms": {key: {...}}}``,
    each entry with ``present`` (the detector on the reproduction), ``baseline_present`` (on the
    defaults), ``evidence`` / ``baseline_evidence``, ``series`` / ``baseline_series`` (the metric per
    step) and ``settings`` (:func:`settings_signature` when measured). ``{}`` if not measured yet.

    Raises:
        ValueError: the file exists but is not valid JSON of that shape (naming ``path``).
    """
    if not Path(path).exists():
        return {}
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise ValueError(f"path: {path} is not valid JSON ({exc})") from None
    if not isinstance(data, Mapping) or not isinstance(data.get("symptoms"), Mapping):
        raise ValueError(f"path: {path} has no 'symptoms' table")
    return dict(data)
