"""Side-by-side live policy updates: every algorithm trains the same tiny LM from the same weights.

A thin builder over :mod:`rlviz.experiments.runner`: a :class:`LiveConfig` names the algorithms
(one arm each, named after its registry entry) and the training settings they share;
:class:`LiveRun` is the :class:`~rlviz.experiments.runner.SideBySideRun` of those arms. Each arm
gets its own copy of the policy, its own optimizer and its own generator seeded with the same seed,
so step 1 sees the same prompts and the same rollouts; from then on each follows its own policy.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, fields
from statistics import NormalDist
from typing import Any

import pandas as pd

from rlviz.core.advantages import ADVANTAGE_SCALES
from rlviz.core.advice import unusual_settings
from rlviz.core.aggregation import LOSS_AGG_MODES
from rlviz.core.kl import KL_ESTIMATORS
from rlviz.i18n import cell, t
from rlviz.lm.tasks import get_task
from rlviz.lm.trainer import TrainConfig
from rlviz.numbering import response_number

from .runner import Arm, RunConfig, SideBySideRun, validate

__all__ = [
    "ALL_METRICS",
    "DEFAULT_ALGORITHMS",
    "LiveConfig",
    "LiveRun",
    "PANELS",
    "SUMMARY_WIDTHS",
    "advice_texts",
    "apart_text",
    "entropy_table",
    "heldout_apart",
    "live_fields",
    "parse_setting",
    "prompt_line",
    "reading_parts",
    "run_reading",
    "setting_choices",
    "summary_table",
    "token_row_labels",
    "typed_settings",
]

DEFAULT_ALGORITHMS = ("grpo", "dapo", "gspo", "sapo")


@dataclass
class LiveConfig:
    """What a side-by-side run trains. Field meanings as :class:`rlviz.lm.trainer.TrainConfig`.

    Attributes:
        algorithms: registry names to compare, each once (one arm each, named after it).
        steps: RL steps per algorithm.
        settings: per algorithm, the settings to override (``{"dapo": {"epsilon_high": 0.3}}``).
        kl_in_reward: beta x KL goes into the reward instead of the loss (verl ``use_kl_in_reward``).
        entropy_coef: entropy bonus coefficient (verl ``actor.entropy_coeff``); with ``entropy_target``
            the adaptive controller's starting coefficient.
        entropy_target, entropy_coef_delta, entropy_coef_min, entropy_coef_max: Skywork-OR1's adaptive
            entropy control (arXiv 2505.22312), as :class:`rlviz.lm.trainer.TrainConfig`; ``None`` target: off.
        heldout_samples: samples per held-out prompt for pass@1 before and after training
            (96 prompts x 8 = 768 samples by default); 0 to skip the evaluation.
        device: ``None``/``"auto"`` or a device name; ``model_dir``: ``None`` for the task's shipped
            checkpoint (the tiny LM for reversed addition) or a local Hugging Face model directory
            chosen when the server starts.
        task: the task, a key of ``rlviz.lm.tasks.TASKS`` (default reversed addition); its own length
            limit is ``TaskSpec.max_new_tokens``, which ``max_new_tokens`` does not follow by itself.
    """

    algorithms: tuple[str, ...] = DEFAULT_ALGORITHMS
    steps: int = 30
    # the trainer's defaults, stated once in TrainConfig
    prompts_per_step: int = TrainConfig.prompts_per_step
    group_size: int = TrainConfig.group_size
    temperature: float = TrainConfig.temperature
    lr: float = TrainConfig.lr
    mu: int = TrainConfig.mu
    mini_batches: int = TrainConfig.mini_batches
    max_new_tokens: int = TrainConfig.max_new_tokens
    overlong_buffer_length: int = TrainConfig.overlong_buffer_length
    overlong_penalty_factor: float = TrainConfig.overlong_penalty_factor
    seed: int = TrainConfig.seed
    kl_in_reward: bool = TrainConfig.kl_in_reward
    entropy_coef: float = TrainConfig.entropy_coef
    entropy_target: float | None = TrainConfig.entropy_target
    entropy_coef_delta: float = TrainConfig.entropy_coef_delta
    entropy_coef_min: float = TrainConfig.entropy_coef_min
    entropy_coef_max: float = TrainConfig.entropy_coef_max
    task: str = TrainConfig.task
    device: str | None = None
    model_dir: str | None = None
    settings: dict[str, dict[str, Any]] = field(default_factory=dict)
    heldout_samples: int = 8

    def arms(self) -> list[Arm]:
        """One :class:`~rlviz.experiments.runner.Arm` per algorithm, named after it."""
        return [Arm(name, name, dict(self.settings.get(name, {}))) for name in self.algorithms]

    def run_config(self) -> RunConfig:
        """The :class:`~rlviz.experiments.runner.RunConfig` every arm shares."""
        shared = {f.name for f in fields(TrainConfig)} & {f.name for f in fields(self)} - {"settings"}
        return RunConfig(
            steps=self.steps,
            heldout_samples=self.heldout_samples,
            train={name: getattr(self, name) for name in sorted(shared)},
            device=self.device,
            model_dir=self.model_dir,
        )

    def train_config(self, algorithm: str) -> TrainConfig:
        """The :class:`TrainConfig` of one algorithm in this run."""
        from .runner import train_config

        return train_config(Arm(algorithm, algorithm, dict(self.settings.get(algorithm, {}))), self.run_config())

    def validate(self) -> None:
        """Raise ``ValueError`` naming the first bad parameter (checks every algorithm's config)."""
        if not self.algorithms:
            raise ValueError("algorithms: choose at least one algorithm")
        if len(set(self.algorithms)) != len(self.algorithms):
            raise ValueError("algorithms: each algorithm at most once")
        for name in self.settings:
            if name not in self.algorithms:
                raise ValueError(f"settings: {name!r} is not among the chosen algorithms")
        validate(self.arms(), self.run_config())


class LiveRun(SideBySideRun):
    """The side-by-side run of a :class:`LiveConfig` (one arm per algorithm). Owns its models: keep
    one per session. ``live_config`` is the config it was built from.

    Args:
        config: a :class:`LiveConfig` (validated here).
        policy: optionally an already loaded ``(model, tokenizer)`` to start from (copied, never
            trained); by default loaded from ``config.model_dir`` with ``from_pretrained``.

    Raises:
        ValueError: a bad setting (the message names it), or a bad ``model_dir`` / ``device``.
    """

    def __init__(self, config: LiveConfig, policy=None):
        config.validate()
        super().__init__(config.arms(), config.run_config(), policy=policy)
        self.live_config = config


def run_reading(entropy: pd.DataFrame, summary: pd.DataFrame) -> dict[str, dict[str, Any] | None]:
    """What a side-by-side run shows about its arms, read from its own metrics (the page says it in words).

    Args:
        entropy: :meth:`~rlviz.experiments.runner.SideBySideRun.entropy_frame` of the run.
        summary: :meth:`~rlviz.experiments.runner.SideBySideRun.summary_frame` of the run.

    Returns:
        ``entropy``: the arm whose entropy changed least (fell most), ``None`` before any step:
        ``arm``, ``first``, ``last`` (nats per token at its first and last step), ``change`` (last
        minus first), ``steps``, ``clip_high`` (its mean upper-clip share) and ``fell`` (whether that
        change is below zero: else every arm's entropy rose or stayed).
        ``heldout``: the arm with the largest held-out pass@1 gain among those measured, ``None``
        until one is: ``arm``, ``start``, ``end``, ``gain`` and ``rose`` (whether that gain is above zero).
        Each has ``alone``: whether that arm is the only one with the number (a run of one algorithm:
        nothing to compare it with, so the page says what it did, not that it did most or least).
        Ties go to the first arm in run order.
    """
    out: dict[str, dict[str, Any] | None] = {"entropy": None, "heldout": None}
    finite = entropy[entropy["entropy_change"].map(lambda v: math.isfinite(float(v)))] if len(entropy) else entropy
    if len(finite):
        row = finite.loc[finite["entropy_change"].astype(float).idxmin()]
        out["entropy"] = {
            "arm": str(row["arm"]),
            "first": float(row["entropy_first"]),
            "last": float(row["entropy_last"]),
            "change": float(row["entropy_change"]),
            "steps": int(row["steps"]),
            "clip_high": float(row["clip_high_mean"]),
            "fell": float(row["entropy_change"]) < 0,
            "alone": len(finite) == 1,
        }
    measured = summary[summary["heldout_gain"].map(lambda v: math.isfinite(float(v)))] if len(summary) else summary
    if len(measured):
        row = measured.loc[measured["heldout_gain"].astype(float).idxmax()]
        out["heldout"] = {
            "arm": str(row["arm"]),
            "start": float(row["heldout_pass_at_1_start"]),
            "end": float(row["heldout_pass_at_1_end"]),
            "gain": float(row["heldout_gain"]),
            "rose": float(row["heldout_gain"]) > 0,
            "alone": len(measured) == 1,
        }
    return out


# -- the live page's words and tables, in a language (the page draws them; no Streamlit here) -------------

# the curves' default panels, and every metric the panel picker offers (``SideBySideRun.metrics_frame``)
PANELS = (
    "reward_mean",
    "pass_at_1",
    "response_length_mean",
    "clip_fraction",
    "gate_weight_mean",
    "entropy",
    "kl_ref",
    "zero_adv_group_fraction",
    "grad_norm",
)
ALL_METRICS = PANELS + (
    "pass_at_group",
    "distinct_right",
    "response_length_max",
    "response_length_right",
    "response_length_wrong",
    "overlong_fraction",
    "group_reward_std",
    "ratio_mean",
    "ratio_min",
    "ratio_max",
    "seq_log_ratio_var",
    "seq_log_ratio_mean_var",
    "log_ratio_length_corr",
    "clip_fraction_low",
    "clip_fraction_high",
    "grad_token_fraction",
    "entropy_sampled",
    "entropy_coef",
    "entropy_bonus_active",
    "seconds",
    "rollouts",
    "kept_groups",
)
# pixels per column of the final table (:func:`summary_table`): 835 in all, inside the ~940 px main column of
# a 1400 px window with the sidebar
SUMMARY_WIDTHS = {
    "algorithm": 110,
    "heldout": 130,
    "heldout_gain": 70,
    "train_pass_at_1_last5": 95,
    "response_length_last5": 70,
    "clip_fraction_mean": 60,
    "entropy_last": 75,
    "kl_ref_last": 60,
    "rollouts_total": 90,
    "seconds_total": 75,
}


def setting_choices() -> dict[str, tuple[str, ...]]:
    """A registry setting's name -> the choices the page offers for it (the library's own lists)."""
    return {
        "loss_agg_mode": LOSS_AGG_MODES,
        "kl_estimator": KL_ESTIMATORS,
        "scale_rewards": ADVANTAGE_SCALES,
        "advantage": ("group", "gae"),
    }


def parse_setting(title: str, setting, value: object, lang: str) -> object:
    """A registry ``setting``'s typed value from its widget's ``value`` (numbers come as typed text; a
    setting whose default is ``None`` reads "", "none" or "off" as ``None``); other values as they are.

    Raises:
        ValueError: in ``lang``, naming the setting (``title`` is its algorithm's) for text that is not a
            number."""
    if not isinstance(value, str) or isinstance(setting.default, str):
        return value
    text = value.strip()
    if setting.default is None and text.lower() in ("", "none", "off"):
        return None
    try:
        number = float(text)
    except ValueError:
        raise ValueError(t("live.not_a_number", lang, name=f"{title} {setting.name}", value=text)) from None
    return int(number) if isinstance(setting.default, int) and number.is_integer() else number


def typed_settings(raw: dict[str, dict[str, tuple]], titles: dict[str, str], lang: str) -> dict[str, dict]:
    """Per algorithm, the settings its widgets set that differ from the registry's default (what
    :class:`LiveConfig` ``settings`` takes); ``raw``: algorithm -> setting name -> ``(Setting, widget
    value)``. Raises ``ValueError`` as :func:`parse_setting`."""
    settings: dict[str, dict[str, object]] = {}
    for algo, items in raw.items():
        for name, (s, value) in items.items():
            typed = parse_setting(titles.get(algo, algo), s, value, lang)
            if typed != s.default:
                settings.setdefault(algo, {})[name] = typed
    return settings


def advice_texts(raw: dict[str, dict[str, tuple]], titles: dict[str, str], kl_in_reward: bool, lang: str) -> list[str]:
    """A note in ``lang`` for each legal but unusual combination in an objective's settings
    (``rlviz.core.advice.unusual_settings``); an algorithm with a value that is not a number is skipped
    (it gets its own message)."""
    notes = []
    for algo, items in raw.items():
        try:
            typed = {name: parse_setting(titles.get(algo, algo), s, value, lang) for name, (s, value) in items.items()}
        except ValueError:
            continue
        notes += [
            t(f"advice.{n['key']}", lang, **n["fields"])
            for n in unusual_settings(algo, typed, kl_in_reward=kl_in_reward)
        ]
    return notes


def live_fields(lang: str) -> dict[str, str]:
    """The parameter a library error names (the text before its first colon) -> the widget to change."""
    keys = {
        "algorithms": "algorithms",
        "steps": "steps",
        "prompts_per_step": "prompts",
        "group_size": "group_size",
        "mu": "mu",
        "lr": "lr",
        "temperature": "temperature",
        "mini_batches": "mini_batches",
        "max_new_tokens": "max_new_tokens",
        "overlong_buffer_length": "overlong_buffer",
        "overlong_penalty_factor": "overlong_penalty",
        "heldout_samples": "heldout",
        "entropy_coef": "entropy_coef",
        "entropy_target": "entropy_target",
        "entropy_coef_delta": "entropy_target",
        "entropy_coef_min": "entropy_target",
        "entropy_coef_max": "entropy_target",
    }
    return {k: t(f"live.{v}", lang) for k, v in keys.items()} | {"device": t("side.device", lang)}


def reading_parts(reading: dict[str, dict[str, Any] | None], arm_titles: dict[str, str], lang: str) -> list[str]:
    """:func:`run_reading`'s findings as sentences in ``lang``: the arm whose entropy fell most (or rose
    least) and the arm with the largest held-out gain, each named by ``arm_titles``; with one arm
    (``alone``), what that arm did, with no comparison (``live.*_one`` sentences)."""
    lost, gained, parts = reading["entropy"], reading["heldout"], []
    if lost is not None:
        parts.append(
            t(
                ("live.entropy_reading" if lost["fell"] else "live.entropy_reading_rose")
                + ("_one" if lost.get("alone") else ""),
                lang,
                title=arm_titles[lost["arm"]],
                first=f"{lost['first']:.2f}",
                last=f"{lost['last']:.2f}",
                steps=lost["steps"],
                high=f"{lost['clip_high']:.1%}",
            )
        )
    if gained is not None:
        parts.append(
            t(
                ("live.heldout_reading" if gained["rose"] else "live.heldout_reading_fell")
                + ("_one" if gained.get("alone") else ""),
                lang,
                title=arm_titles[gained["arm"]],
                start=f"{gained['start']:.3f}",
                end=f"{gained['end']:.3f}",
                gain=f"{gained['gain']:+.3f}",
            )
        )
    return parts


def entropy_table(entropy: pd.DataFrame, arm_titles: dict[str, str], lang: str) -> pd.DataFrame:
    """:meth:`SideBySideRun.entropy_frame` as the page shows it: the arms by ``arm_titles``, the columns
    named in ``lang``, rounded to 3 decimals."""
    shown = entropy.drop(columns=["algorithm"]).assign(arm=[arm_titles[a] for a in entropy["arm"]])
    return shown.rename(columns={c: t(f"live.entropy_col.{c}", lang) for c in shown.columns}).round(3)


def token_row_labels(view: dict[str, Any], lang: str) -> dict[str, str]:
    """The rows of a token view's figure (``row.<i>``, ``i`` from 0) in ``lang``: each response's number (from
    1, ``rlviz.numbering.response_number``), mark (right or wrong), advantage, and whether it was masked out of the
    loss (``SideBySideRun.token_view``'s ``rows``)."""
    return {
        f"row.{i}": t(
            "live.row_label",
            lang,
            i=response_number(i),
            mark="✓" if row["reward"] > 0 else "✗",
            adv=f"{row['advantage']:+.2f}",
        )
        + ("" if row["in_loss"] else f" ({t('live.masked', lang)})")
        for i, row in enumerate(view["rows"])
    }


# two standard errors: the margin of one difference of two arms (a two-sided test at about 4.55%)
_TWO_SE = 2.0
_ALPHA = 2 * (1 - NormalDist().cdf(_TWO_SE))


def heldout_apart(ends: list[float], prompts: int, samples_per_prompt: int) -> dict[str, Any] | None:
    """Whether the arms' final held-out pass@1 lie apart beyond evaluation noise.

    Each arm's held-out pass@1 is a mean of ``n = prompts x samples_per_prompt`` right-or-wrong samples;
    the difference of two such rates at the middle rate ``p`` of the lowest and highest has standard error
    ``sqrt(2 p (1 - p) / n)``. With k arms the best and the worst are the widest of ``m = k (k - 1) / 2``
    pairs, so the margin is widened for m comparisons (Bonferroni): ``z_m = Phi^-1(1 - alpha / (2 m))``
    with ``alpha = 2 (1 - Phi(2))``, so that two arms keep the plain two standard errors (``z_1 = 2``);
    four arms give ``z_6 ~ 2.67``. The arms are apart when ``high - low > z_m x SE``.

    Args:
        ends: each arm's held-out pass@1 at its end (NaN where not measured).
        prompts: the run's task's held-out prompts (``len(TaskSpec.heldout_problems())``: 96 for reversed
            addition, 57 for make_sum).
        samples_per_prompt: the run's ``heldout_samples``.

    Returns:
        ``None`` with fewer than two finite ends or no samples; else ``low``, ``high``, ``samples`` (n),
        ``arms`` (k), ``pairs`` (m), ``z`` (z_m), ``margin`` (z_m x SE) and ``apart`` (bool).

    Raises:
        ValueError: ``prompts`` or ``samples_per_prompt`` below 0.
    """
    for name, value in (("prompts", prompts), ("samples_per_prompt", samples_per_prompt)):
        if int(value) < 0:
            raise ValueError(f"{name}: must be >= 0, got {value!r}")
    finite = [float(v) for v in ends if math.isfinite(float(v))]
    samples = int(prompts) * int(samples_per_prompt)
    if len(finite) < 2 or samples < 1:
        return None
    low, high, k = min(finite), max(finite), len(finite)
    pairs = k * (k - 1) // 2
    z = NormalDist().inv_cdf(1 - _ALPHA / (2 * pairs))
    mid = (low + high) / 2
    margin = z * math.sqrt(2 * mid * (1 - mid) / samples)
    return {
        "low": low,
        "high": high,
        "samples": samples,
        "arms": k,
        "pairs": pairs,
        "z": z,
        "margin": margin,
        "apart": high - low > margin,
    }


def apart_text(summary: pd.DataFrame, prompts: int, samples_per_prompt: int, lang: str) -> str:
    """:func:`heldout_apart` on the arms' ``heldout_pass_at_1_end`` of ``summary``
    (:meth:`SideBySideRun.summary_frame`) as a sentence in ``lang``; "" with fewer than two arms measured."""
    apart = heldout_apart(list(summary["heldout_pass_at_1_end"]), prompts, samples_per_prompt)
    if apart is None:
        return ""
    verdict = t("live.live_verdict.separates" if apart["apart"] else "live.live_verdict.noise", lang)
    return t(
        "live.read_live_apart",
        lang,
        low=cell(apart["low"]),
        high=cell(apart["high"]),
        n=apart["samples"],
        k=apart["arms"],
        pairs=apart["pairs"],
        z=f"{apart['z']:.2f}",
        margin=cell(apart["margin"]),
        verdict=verdict,
    )


def prompt_line(view: dict[str, Any], task: str, title: str, lang: str) -> str:
    """The title over one arm's token heatmap in ``lang``: the arm's ``title``, the group's prompt and its
    reference answer as the task's registry names it (``TaskSpec.reference_answer``: reversed addition's
    one answer, digits reversed; one right answer among many for make_sum). ``view``:
    ``SideBySideRun.token_view`` (its ``prompt`` and ``answer``); ``task``: a key of ``rlviz.lm.tasks.TASKS``.

    Raises:
        ValueError: ``task`` is not in the registry (``rlviz.lm.tasks.get_task``).
    """
    answer = get_task(task).reference_answer[lang].format(answer=view["answer"])
    return t("live.prompt_line", lang, title=title, prompt=view["prompt"], answer=answer)


def summary_table(summary: pd.DataFrame, arm_titles: dict[str, str]) -> dict[str, list[str]]:
    """The final table's columns (keys of :data:`SUMMARY_WIDTHS`, each a list of text cells; "—" for a value
    not measured yet) from :meth:`SideBySideRun.summary_frame`: the key result first, and few, short columns
    (the full summary is in the JSON download, every step in the CSV)."""
    return {
        "algorithm": [arm_titles[name] for name in summary["arm"]],
        "heldout": [
            f"{cell(a, 3)} → {cell(b, 3)}"
            for a, b in zip(summary["heldout_pass_at_1_start"], summary["heldout_pass_at_1_end"])
        ],
        "heldout_gain": [cell(v, 3, signed=True) for v in summary["heldout_gain"]],
        "train_pass_at_1_last5": [cell(v, 3) for v in summary["train_pass_at_1_last5"]],
        "response_length_last5": [cell(v, 1) for v in summary["response_length_last5"]],
        "clip_fraction_mean": [cell(v, 3) for v in summary["clip_fraction_mean"]],
        "entropy_last": [cell(v, 3) for v in summary["entropy_last"]],
        "kl_ref_last": [cell(v, 3) for v in summary["kl_ref_last"]],
        "rollouts_total": [str(int(v)) for v in summary["rollouts_total"]],
        "seconds_total": [cell(v, 1) for v in summary["seconds_total"]],  # a short run: 0.4 s, not "0"
    }
