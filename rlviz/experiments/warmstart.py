"""Why SFT before RL: the same GRPO run from a weak warm start and from the shipped (supervised) one.

Two checkpoints of one task, both named by the task registry (``rlviz.lm.tasks.TaskSpec``): the
shipped warm start (``model_dir``, 3,000 supervised steps for reversed addition) and a weak one
(``weak_model_dir``, 60 steps of the same run: same data, seed and tokenizer). Everything here is
computed by ``rlviz.lm`` (the models, their rollouts, the trainer and the side-by-side runner
``rlviz.experiments.runner``) and ``rlviz.core.sampling`` (the group filter the trainer uses); this
module lays the numbers out as data frames and sentences for the page, the docs' benchmark and the
questions.

1. Before any run (:func:`measure_starts`): S answers to each of n train prompts from each start, split
   into disjoint groups of G (G dividing S), and the share of groups all wrong / mixed / all right at
   each G. A group whose rewards are all equal has advantage 0 for every answer (GRPO, arXiv 2402.03300
   eq. 3), so only the mixed share carries a learning signal; the chance a prompt with pass rate p gives
   one is 1 - p^G - (1 - p)^G (``rlviz.core.sampling.signal_probability``).
2. The live run (:class:`WarmStartConfig` -> :class:`WarmStartRun`): two GRPO arms of one
   ``SideBySideRun``, ``warm`` from the shipped checkpoint and ``weak`` from the weak one (``Arm.start``:
   its own start is also its frozen KL reference and its held-out start); same seed, prompts and settings.

Legend: n prompts, S samples per prompt, G group size, p pass rate.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import pandas as pd
import torch

from rlviz.core.sampling import informative_groups, signal_probability
from rlviz.experiments.runner import SUMMARY_TAIL, Arm, RunConfig, SideBySideRun, train_config, validate
from rlviz.i18n import SENTENCE_SEPARATOR, cell, t
from rlviz.lm.tasks import DEFAULT_TASK, TASKS, get_task

__all__ = [
    "ARMS",
    "GROUP_SIZES",
    "LIVE_METRICS",
    "OUTCOMES",
    "SAMPLES",
    "StartMeasurement",
    "WarmStartConfig",
    "WarmStartRun",
    "answer_live_zero",
    "answer_zero",
    "arm_labels",
    "explain_gain",
    "explain_live_zero",
    "explain_zero",
    "fields_gain",
    "fields_live_zero",
    "fields_zero",
    "gain_applies",
    "group_outcomes",
    "heldout_gains",
    "live_fields",
    "live_result",
    "measure_fields",
    "measure_starts",
    "measured_caption",
    "question_state",
    "run_numbers",
    "run_reading",
    "start_dirs",
    "start_steps",
    "summary_table",
    "warm_tasks",
]

ARMS = ("warm", "weak")  # the shipped (supervised) warm start, the weak one
OUTCOMES = ("all_wrong", "mixed", "all_correct")
GROUP_SIZES: tuple[int, ...] = (2, 4, 8, 16, 32)  # the outcome figure's group sizes (each divides SAMPLES)
SAMPLES = 32  # answers per prompt the outcome figure samples from each start
# the live figure's panels, each a per-step metric of the trainer (rlviz.lm.trainer.METRICS)
LIVE_METRICS = ("zero_adv_group_fraction", "pass_at_1", "pass_at_group", "grad_norm")
READ_WINDOW = 5  # the run's reading compares the mean of its first and last this many steps (at most half)


def warm_tasks() -> tuple[str, ...]:
    """The tasks of the registry that ship a weak warm start beside their checkpoint (read at call time)."""
    return tuple(name for name, spec in TASKS.items() if spec.weak_model_dir)


def start_dirs(task: str = DEFAULT_TASK) -> dict[str, str]:
    """Arm of :data:`ARMS` -> its checkpoint directory: ``warm`` the task's shipped checkpoint, ``weak``
    its weak warm start (``TaskSpec.model_dir`` / ``weak_model_dir``).

    Raises:
        ValueError: naming ``task``: not in the registry, or it ships no weak warm start.
    """
    spec = get_task(task)
    if not spec.weak_model_dir:
        raise ValueError(f"task: {task!r} ships no weak warm start; these do: {', '.join(warm_tasks())}")
    return {"warm": spec.model_dir, "weak": spec.weak_model_dir}


def _whole(name: str, value, low: int, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low or (high is not None and value > high):
        bound = f">= {low}" if high is None else f"in [{low}, {high}]"
        raise ValueError(f"{name}: must be a whole number {bound}, got {value!r}")
    return value


# ------------------------------------------------------------------------------------ 1. before any run
@dataclass
class StartMeasurement:
    """What a group looks like from each start, measured before any RL step (:func:`measure_starts`).

    Attributes:
        outcomes: one row per (start, G, outcome): ``start`` (an arm of :data:`ARMS`), ``group_size``,
            ``outcome`` (:data:`OUTCOMES`), ``groups`` (how many of the start's groups of G), ``share``
            (of its groups of G; the three outcomes add up to 1).
        prompts: one row per (start, prompt): ``start, prompt, level, correct`` (right answers of the S),
            ``samples`` (S), ``pass_rate`` (correct / S).
        samples: S, answers per prompt. ``temperature``: the sampling temperature. ``seed``: the seed.
    """

    outcomes: pd.DataFrame
    prompts: pd.DataFrame
    samples: int
    temperature: float
    seed: int

    def share(self, start: str, group_size: int, outcome: str) -> float:
        """The share of ``start``'s groups of ``group_size`` with ``outcome``.

        Raises:
            ValueError: naming ``group_size`` (not measured) or ``outcome`` / ``start`` (unknown).
        """
        if outcome not in OUTCOMES:
            raise ValueError(f"outcome: {outcome!r} is not one of {', '.join(OUTCOMES)}")
        if start not in ARMS:
            raise ValueError(f"start: {start!r} is not one of {', '.join(ARMS)}")
        o = self.outcomes
        row = o[(o["start"] == start) & (o["group_size"] == int(group_size)) & (o["outcome"] == outcome)]
        if row.empty:
            sizes = ", ".join(str(g) for g in sorted(o["group_size"].unique()))
            raise ValueError(f"group_size: {group_size} was not measured; measured: {sizes}")
        return float(row["share"].iloc[0])

    def zero_share(self, start: str, group_size: int) -> float:
        """The share of ``start``'s groups of ``group_size`` with all rewards equal (every advantage 0)."""
        return self.share(start, group_size, "all_wrong") + self.share(start, group_size, "all_correct")

    def pass_at_1(self, start: str) -> float:
        """The start's pass@1 on the measured prompts: right answers over all answers."""
        p = self.prompts[self.prompts["start"] == start]
        return float(p["correct"].sum() / max(int(p["samples"].sum()), 1))

    @property
    def group_sizes(self) -> tuple[int, ...]:
        """The measured group sizes, ascending."""
        return tuple(int(g) for g in sorted(self.outcomes["group_size"].unique()))


def group_outcomes(rewards: torch.Tensor, group_size: int) -> dict[str, int]:
    """Split each prompt's answers into disjoint groups of ``group_size`` and count the groups all wrong,
    mixed and all right.

    Args:
        rewards: [n, S] 0/1 rewards, S answers to each of n prompts (S divisible by ``group_size``).
        group_size: G >= 2.

    Returns:
        ``{"all_wrong": ..., "mixed": ..., "all_correct": ...}``, n S / G groups in all; "mixed" is the
        trainer's filter (``rlviz.core.sampling.informative_groups``: rewards not all equal).

    Raises:
        ValueError: naming ``rewards`` (not 2-D) or ``group_size`` (< 2, or not dividing S).
    """
    if not isinstance(rewards, torch.Tensor) or rewards.dim() != 2:
        raise ValueError(f"rewards: expected shape [n_prompts, samples], got {getattr(rewards, 'shape', rewards)!r}")
    n, S = rewards.shape
    G = _whole("group_size", group_size, 2)
    if S % G:
        raise ValueError(f"group_size: {G} does not divide the {S} samples per prompt")
    groups = rewards.reshape(n * (S // G), G)  # (n S/G, G): each prompt's answers, G at a time
    mixed = informative_groups(groups)  # (n S/G,) the trainer's filter
    right = (groups >= 1.0).sum(dim=1)  # (n S/G,)
    return {
        "all_wrong": int(((right == 0) & ~mixed).sum()),
        "mixed": int(mixed.sum()),
        "all_correct": int(((right == G) & ~mixed).sum()),
    }


def measure_starts(
    n_prompts: int = 24,
    samples: int = SAMPLES,
    temperature: float = 1.0,
    seed: int = 0,
    device: str | None = None,
    task: str = DEFAULT_TASK,
    group_sizes: tuple[int, ...] = GROUP_SIZES,
    policies: dict | None = None,
) -> StartMeasurement:
    """Sample ``samples`` answers to each of ``n_prompts`` train prompts from each start and split each
    prompt's answers into disjoint groups of G for every G of ``group_sizes``: S / G groups per prompt,
    every group real answers scored by the task's verifier, and sorted by the trainer's own filter
    (``rlviz.core.sampling.informative_groups``: mixed, i.e. a non-zero advantage) and by their rewards
    (all wrong, all right).

    Both starts answer the same prompts with the same random stream (a ``torch.Generator`` seeded with
    ``seed``, one per start), so the difference is the checkpoint alone. Loads each model itself
    (``rlviz.lm.model.load_policy``) unless ``policies`` (arm -> ``(model, tokenizer)``) gives them, so
    a cache keyed by the arguments holds plain data only. About n x S x 2 answers (1,536 at the defaults;
    a few seconds on two CPU cores).

    Returns:
        A :class:`StartMeasurement`.

    Raises:
        ValueError: naming ``n_prompts`` (not a whole number in [1, 256]), ``samples`` (< 2),
            ``group_size`` (< 2 or not dividing ``samples``), ``temperature`` (not in (0, 100]),
            ``task`` (no weak start), or a bad ``device``.
    """
    from rlviz.lm.model import load_policy
    from rlviz.lm.rollout import sample_rollouts

    n = _whole("n_prompts", n_prompts, 1, 256)
    S = _whole("samples", samples, 2)
    sizes = tuple(group_sizes)
    if not sizes:
        raise ValueError("group_size: choose at least one group size")
    for G in sizes:
        _whole("group_size", G, 2)
        if S % G:
            raise ValueError(f"group_size: {G} does not divide the {S} samples per prompt")
    temp = float(temperature)
    if not (math.isfinite(temp) and 0 < temp <= 100):
        raise ValueError(f"temperature: must be a finite number in (0, 100], got {temperature}")
    dirs = start_dirs(task)
    spec = get_task(task)
    outcome_rows, prompt_rows = [], []
    for start in ARMS:
        model, tokenizer = (policies or {}).get(start) or load_policy(dirs[start], device)
        gen = torch.Generator().manual_seed(int(seed))
        problems = spec.sample_problems(n, gen)
        batch = sample_rollouts(model, tokenizer, problems, S, spec.max_new_tokens, temp, gen, score=False)
        rewards = batch.rewards.view(n, S).cpu()  # (n, S)
        correct = (rewards >= 1.0).sum(dim=1)  # (n,)
        for p, k in zip(problems, correct.tolist()):
            prompt_rows.append(
                {"start": start, "prompt": p.prompt, "level": p.level, "correct": k, "samples": S, "pass_rate": k / S}
            )
        for G in sizes:
            counts = group_outcomes(rewards, G)
            total = sum(counts.values())
            for outcome in OUTCOMES:
                outcome_rows.append(
                    {
                        "start": start,
                        "group_size": G,
                        "outcome": outcome,
                        "groups": counts[outcome],
                        "share": counts[outcome] / total,
                    }
                )
    return StartMeasurement(
        outcomes=pd.DataFrame(outcome_rows, columns=["start", "group_size", "outcome", "groups", "share"]),
        prompts=pd.DataFrame(prompt_rows, columns=["start", "prompt", "level", "correct", "samples", "pass_rate"]),
        samples=S,
        temperature=temp,
        seed=int(seed),
    )


def question_state(m: StartMeasurement, group_size: int) -> dict:
    """The state the page's first question is asked at (:func:`answer_zero`): the chosen ``group_size``
    and, from the measurement, each start's zero-advantage share at it and its pass@1 on the prompts.

    Raises:
        ValueError: naming ``group_size`` when it was not measured.
    """
    return {
        "group_size": int(group_size),
        "prompts": int(len(m.prompts) // len(ARMS)),
        "samples": m.samples,
        **{f"zero_{s}": m.zero_share(s, group_size) for s in ARMS},
        **{f"p_{s}": m.pass_at_1(s) for s in ARMS},
    }


# ------------------------------------------------------------------------------------ 2. the live run
@dataclass
class WarmStartConfig:
    """The same GRPO run from the two starts of ``task``: two arms of one
    :class:`~rlviz.experiments.runner.SideBySideRun`. Fields as :class:`rlviz.lm.trainer.TrainConfig`.

    Attributes:
        steps: RL steps per arm.
        prompts_per_step: n, prompts (groups) per step.
        group_size: G, answers per prompt.
        heldout_samples: samples per held-out prompt for pass@1 before the first step (each start) and
            after each arm's last step (96 prompts); 0 skips it.
        task: a task of :func:`warm_tasks` (its two checkpoints: :func:`start_dirs`).
        settings: GRPO settings to override for both arms (e.g. ``{"beta": 0.0}``).
    """

    steps: int = 15
    prompts_per_step: int = 8
    group_size: int = 8
    temperature: float = 1.0
    lr: float = 1e-4
    mu: int = 2
    mini_batches: int = 2
    seed: int = 0
    heldout_samples: int = 4
    device: str | None = None
    task: str = DEFAULT_TASK
    settings: dict = field(default_factory=dict)

    def arms(self) -> list[Arm]:
        """The two :class:`~rlviz.experiments.runner.Arm`, both GRPO with ``settings``: ``warm`` from the
        run's checkpoint (the task's shipped one), ``weak`` from the weak warm start (``Arm.start``)."""
        dirs = start_dirs(self.task)
        return [Arm("warm", "grpo", dict(self.settings)), Arm("weak", "grpo", dict(self.settings), start=dirs["weak"])]

    def run_config(self) -> RunConfig:
        """The :class:`~rlviz.experiments.runner.RunConfig` both arms share (the run's checkpoint: the
        task's shipped one, never a directory chosen at the server's start: the weak start is its pair)."""
        names = ("prompts_per_step", "group_size", "temperature", "lr", "mu", "mini_batches", "seed", "task")
        train = {name: getattr(self, name) for name in names}
        train["max_new_tokens"] = get_task(self.task).max_new_tokens
        return RunConfig(steps=self.steps, heldout_samples=self.heldout_samples, train=train, device=self.device)

    def train_config(self, arm: str):
        """The :class:`TrainConfig` of one arm (``"warm"`` or ``"weak"``; the same for both)."""
        if arm not in ARMS:
            raise ValueError(f"arm: {arm!r} is not one of {', '.join(ARMS)}")
        return train_config(self.arms()[ARMS.index(arm)], self.run_config())

    def validate(self) -> None:
        """Raise ``ValueError`` naming the first bad parameter (``task`` first)."""
        start_dirs(self.task)
        validate(self.arms(), self.run_config())


class WarmStartRun(SideBySideRun):
    """The two arms of a :class:`WarmStartConfig` side by side (keep one per session; never cache it).
    Everything else, the lock included, is :class:`~rlviz.experiments.runner.SideBySideRun`; ``ws_config``
    is the config it was built from.

    Args:
        config: a :class:`WarmStartConfig` (validated here).
        policy: optionally ``(model, tokenizer)`` of the warm start (copied, never trained); the weak
            start is always loaded from its directory.

    Raises:
        ValueError: a bad setting (named), or a bad ``device``.
    """

    def __init__(self, config: WarmStartConfig, policy=None):
        config.validate()
        super().__init__(config.arms(), config.run_config(), policy=policy)
        self.ws_config = config


def _window(steps: int) -> int:
    return max(1, min(READ_WINDOW, steps // 2))


def run_numbers(metrics: pd.DataFrame, summary: pd.DataFrame) -> dict[str, float] | None:
    """What a warm-vs-weak run shows, from its ``metrics_frame()`` and ``summary_frame()``; ``None`` until
    both arms have run a step. For each arm ``a`` of :data:`ARMS`: ``zero_<a>`` (mean share of its
    groups with zero advantage over its steps), ``zero_first_<a>`` (at step 1), ``p_first_<a>`` /
    ``p_last_<a>`` (mean training pass@1 over its first / last ``window`` steps), ``grad_<a>`` (mean
    gradient norm before clipping), ``start_<a>`` / ``end_<a>`` (held-out pass@1; NaN unless measured),
    and ``steps`` (steps both have run), ``window``."""
    if metrics.empty or not all((metrics["arm"] == a).any() for a in ARMS):
        return None
    steps = int(min((metrics["arm"] == a).sum() for a in ARMS))
    k = _window(steps)
    out: dict[str, float] = {"steps": steps, "window": k}
    rows = {str(r["arm"]): r for _, r in summary.iterrows()}
    for arm in ARMS:
        d = metrics[metrics["arm"] == arm].sort_values("step").head(steps)
        out[f"zero_{arm}"] = float(d["zero_adv_group_fraction"].mean())
        out[f"zero_first_{arm}"] = float(d["zero_adv_group_fraction"].iloc[0])
        out[f"p_first_{arm}"] = float(d["pass_at_1"].head(k).mean())
        out[f"p_last_{arm}"] = float(d["pass_at_1"].tail(k).mean())
        out[f"grad_{arm}"] = float(pd.to_numeric(d["grad_norm"], errors="coerce").mean())
        row = rows.get(arm)
        out[f"start_{arm}"] = float(row["heldout_pass_at_1_start"]) if row is not None else math.nan
        out[f"end_{arm}"] = float(row["heldout_pass_at_1_end"]) if row is not None else math.nan
    return out


def live_result(run: SideBySideRun) -> dict:
    """What the page's live questions read from a finished run: :func:`run_numbers` as ``numbers`` and
    ``heldout_total`` (held-out samples behind each pass@1: the held-out prompts x samples per prompt)."""
    numbers = run_numbers(run.metrics_frame(), run.summary_frame())
    task = get_task(run.ws_config.task) if hasattr(run, "ws_config") else get_task(DEFAULT_TASK)
    return {"numbers": numbers, "heldout_total": len(task.heldout_problems()) * int(run.config.heldout_samples)}


# ------------------------------------------------------------------------------------ predictions
# The page's questions (rlviz.teach.predict PREDICTIONS["warmstart"]): state = question_state(...) before
# any run; the live questions' state = the run's settings (dataclasses.asdict(WarmStartConfig)) plus, once
# the run has finished, live_result(run).


def answer_zero(state: dict) -> float:
    """The share of the weak start's groups of G (measured) whose rewards are all equal: no signal."""
    return float(state["zero_weak"])


def fields_zero(state: dict) -> dict[str, str]:
    """The first question's settings: G, the prompts and samples behind the measurement."""
    return {"G": str(int(state["group_size"])), "n": str(int(state["prompts"])), "S": str(int(state["samples"]))}


def explain_zero(state: dict) -> dict[str, str]:
    """The explanation's numbers: the warm start's zero share, both starts' measured pass@1 and the share a
    uniform pass rate would leave without a signal, ``1 - signal_probability(p, G)``."""
    G = int(state["group_size"])
    uniform = 1.0 - float(signal_probability(torch.tensor(float(state["p_weak"]), dtype=torch.float64), G))
    return fields_zero(state) | {
        "warm": f"{float(state['zero_warm']):.0%}",
        "p_weak": f"{float(state['p_weak']):.3f}",
        "p_warm": f"{float(state['p_warm']):.2f}",
        "uniform": f"{uniform:.0%}",
    }


def _numbers(state: dict) -> dict[str, float]:
    numbers = state.get("numbers")
    if not numbers:
        raise ValueError("run: both arms need a step first")
    return numbers


def answer_live_zero(state: dict) -> float:
    """The weak arm's mean share of zero-advantage groups over the run's steps (the trainer's
    ``zero_adv_group_fraction``)."""
    return float(_numbers(state)["zero_weak"])


def fields_live_zero(state: dict) -> dict[str, str]:
    """The live questions' settings: steps, prompts per step, G."""
    return {
        "steps": str(int(state["steps"])),
        "n": str(int(state["prompts_per_step"])),
        "G": str(int(state["group_size"])),
    }


def explain_live_zero(state: dict) -> dict[str, str]:
    """The warm arm's share and both arms' mean gradient norms, from the run."""
    numbers = _numbers(state)
    return fields_live_zero(state) | {
        "warm": f"{numbers['zero_warm']:.0%}",
        "grad_weak": f"{numbers['grad_weak']:.2g}",
        "grad_warm": f"{numbers['grad_warm']:.2g}",
    }


def gain_applies(state: dict) -> bool:
    """The gain question needs held-out pass@1 before and after."""
    return int(state.get("heldout_samples", 0)) > 0


def heldout_gains(state: dict) -> tuple[dict[str, float], float]:
    """The gain question's measurement (``rlviz.teach.predict`` ranks the arms with it): each arm's held-out
    gain (end - start) and two standard errors of the difference of two gains, ``2 sqrt(sum of p (1 - p) / m)``
    over the four measured pass rates (m samples each, ``heldout_total``).

    Raises:
        ValueError: naming ``run`` before both arms have a step, ``heldout_samples`` when held-out pass@1
            was not measured before and after.
    """
    numbers = _numbers(state)
    gains = {a: numbers[f"end_{a}"] - numbers[f"start_{a}"] for a in ARMS}
    total = int(state.get("heldout_total", 0))
    rates = [numbers[f"{w}_{a}"] for a in ARMS for w in ("start", "end")]
    if total < 1 or not all(math.isfinite(v) for v in rates):
        raise ValueError("heldout_samples: held-out pass@1 was not measured before and after")
    two_se = 2 * math.sqrt(sum(p * (1 - p) / total for p in rates))
    return gains, two_se


def fields_gain(state: dict) -> dict[str, str]:
    """The gain question's settings: steps and held-out samples (the task's held-out prompts x samples)."""
    prompts = len(get_task(state.get("task", DEFAULT_TASK)).heldout_problems())
    return {"steps": str(int(state["steps"])), "n": str(prompts * int(state["heldout_samples"]))}


def explain_gain(state: dict) -> dict[str, str]:
    """Each arm's held-out start, end and gain, and the two standard errors the gap was judged against."""
    numbers = _numbers(state)
    gains, two_se = heldout_gains(state)
    out = fields_gain(state) | {"two_se": f"{two_se:.3f}"}
    for a in ARMS:
        out |= {
            f"start_{a}": f"{numbers[f'start_{a}']:.3f}",
            f"end_{a}": f"{numbers[f'end_{a}']:.3f}",
            f"gain_{a}": f"{gains[a]:+.3f}",
        }
    return out


# ------------------------------------------------------------------------------------ the page's words
def start_steps(task: str = DEFAULT_TASK) -> dict[str, int]:
    """Arm of :data:`ARMS` -> the supervised steps behind its checkpoint (the task registry's
    ``pretrain_steps`` / ``weak_pretrain_steps``)."""
    spec = get_task(task)
    return {"warm": int(spec.pretrain_steps), "weak": int(spec.weak_pretrain_steps or 0)}


def arm_labels(lang: str, task: str = DEFAULT_TASK) -> dict[str, str]:
    """Arm key of :data:`ARMS` -> its name in ``lang``, with its supervised steps."""
    steps = start_steps(task)
    return {arm: t(f"warmstart.arm_{arm}", lang, steps=steps[arm]) for arm in ARMS}


def measure_fields(lang: str) -> dict[str, str]:
    """The measurement's parameters (:func:`measure_starts`'s and the sidebar's) -> their widget's label."""
    return {
        "n_prompts": t("warmstart.n_prompts", lang),
        "group_size": t("warmstart.group_size", lang),
        "temperature": t("warmstart.temperature", lang),
        "device": t("side.device", lang),
    }


def live_fields(lang: str) -> dict[str, str]:
    """The live run's parameters (:class:`WarmStartConfig`'s and the sidebar's) -> their widget's label."""
    keys = {
        "steps": "steps",
        "prompts_per_step": "live_prompts",
        "group_size": "live_group_size",
        "lr": "lr",
        "temperature": "live_temperature",
        "heldout_samples": "heldout",
    }
    return {k: t(f"warmstart.{v}", lang) for k, v in keys.items()} | {"device": t("side.device", lang)}


def measured_caption(m: StartMeasurement, group_size: int, lang: str, hold_weak: bool) -> str:
    """The sentence under the outcome figure in ``lang``: at ``group_size``, each start's shares of
    groups all wrong, mixed and all right and its pass@1 on the prompts, and how the weak start's mixed
    share grows from the smallest to the largest G; only the warm start's while ``hold_weak`` (the
    question about the weak start waits for the learner's guess).

    Raises:
        ValueError: naming ``group_size`` when it was not measured.
    """
    G = int(group_size)
    n = int(len(m.prompts) // len(ARMS))

    def shares(start: str) -> dict[str, str]:
        return {
            "wrong": f"{m.share(start, G, 'all_wrong'):.0%}",
            "mixed": f"{m.share(start, G, 'mixed'):.0%}",
            "right": f"{m.share(start, G, 'all_correct'):.0%}",
            "p": f"{m.pass_at_1(start):.3f}",
        }

    text = t("warmstart.measured_warm", lang, G=G, n=n, S=m.samples, **shares("warm"))
    if hold_weak:
        return text
    text += t("warmstart.measured_weak", lang, G=G, **shares("weak"))
    small, large = m.group_sizes[0], m.group_sizes[-1]
    mixed = {g: m.share("weak", g, "mixed") for g in (small, large)}
    if small == large or mixed[large] <= 0:  # nothing grows, or no group of the weak start has a signal
        return text
    grow = t(
        "warmstart.measured_grow",
        lang,
        small=small,
        large=large,
        mixed_small=f"{mixed[small]:.0%}",
        mixed_large=f"{mixed[large]:.0%}",
        cost_small=f"{small / mixed[small]:.0f}" if mixed[small] > 0 else "∞",
        cost_large=f"{large / mixed[large]:.0f}",
    )
    return text + grow


def run_reading(metrics: pd.DataFrame, summary: pd.DataFrame, lang: str) -> str | None:
    """The run's reading in ``lang``, every number from the run (:func:`run_numbers`): each arm's mean
    share of zero-advantage groups, its training pass@1 over its first and last steps and its gradient
    norm; then the held-out pass@1 start -> end where measured. ``None`` before both arms have a step."""
    numbers = run_numbers(metrics, summary)
    if numbers is None:
        return None
    parts = []
    for arm in ("weak", "warm"):
        parts.append(
            t(
                f"warmstart.read_{arm}",
                lang,
                zero=f"{numbers[f'zero_{arm}']:.0%}",
                first=cell(numbers[f"p_first_{arm}"], 3),
                last=cell(numbers[f"p_last_{arm}"], 3),
                grad=f"{numbers[f'grad_{arm}']:.2g}" if math.isfinite(numbers[f"grad_{arm}"]) else "—",
                steps=int(numbers["steps"]),
                k=int(numbers["window"]),
            )
        )
    if all(math.isfinite(numbers[f"{w}_{a}"]) for a in ARMS for w in ("start", "end")):
        parts.append(
            t(
                "warmstart.read_heldout",
                lang,
                **{f"{w}_{a}": cell(numbers[f"{w}_{a}"], 3) for a in ARMS for w in ("start", "end")},
            )
        )
    return SENTENCE_SEPARATOR[lang].join(parts)


def summary_table(summary: pd.DataFrame, names: dict[str, str], lang: str) -> pd.DataFrame:
    """One row per arm of ``summary_frame()``, the key result first: held-out pass@1 start -> end ("—": not
    measured), pass@k at k = the held-out samples start -> end, training pass@1 over the last steps, mean
    groups with a signal per step; named in ``lang``."""
    return pd.DataFrame(
        {
            t("warmstart.col_arm", lang): summary["arm"].map(names),
            t("warmstart.col_heldout", lang): [
                f"{cell(a, 3)} → {cell(b, 3)}"
                for a, b in zip(summary["heldout_pass_at_1_start"], summary["heldout_pass_at_1_end"])
            ],
            t("warmstart.col_pass_k", lang): [
                f"{cell(a, 3)} → {cell(b, 3)}"
                for a, b in zip(summary["heldout_pass_at_k_start"], summary["heldout_pass_at_k_end"])
            ],
            t("warmstart.col_train_last5", lang, n=SUMMARY_TAIL): [
                cell(v, 3) for v in summary["train_pass_at_1_last5"]
            ],
            t("warmstart.col_signal_mean", lang): [cell(v, 2) for v in summary["signal_groups_mean"]],
            t("warmstart.col_kl", lang): [cell(v, 4) for v in summary["kl_ref_last"]],
            t("warmstart.col_steps", lang): [str(int(v)) for v in summary["steps"]],
        }
    )
