"""Dynamic sampling: which groups carry a signal, what filling a batch with them costs, and a live
GRPO vs GRPO + dynamic sampling run on the tiny LM.

Everything here is computed by ``rlviz.core.sampling`` (the analytic formulas and the group filter
the trainer uses), ``rlviz.core.advantages`` and ``rlviz.lm`` (the model, its rollouts, the
trainer, and the side-by-side runner ``rlviz.experiments.runner``); this module only lays the
numbers out as data frames for the page, and adds Monte-Carlo versions of the analytic results (seeded ``torch.Generator``, never the global RNG) to check them.

Legend: p pass rate, G group size, n prompts per generation round, N informative groups wanted per
step, K cap on rounds, q chance that one group is informative, T Monte-Carlo trials.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import pandas as pd
import torch

from rlviz.core.objectives import get_algorithm
from rlviz.core.sampling import (
    beta_signal_probability,
    expected_advantage_mass,
    fill_cost,
    informative_groups,
    mixture_signal_probability,
    signal_probability,
)
from rlviz.experiments.runner import Arm, RunConfig, SideBySideRun, train_config, validate
from rlviz.i18n import cell, t

__all__ = [
    "ARMS",
    "DIFFICULTY_BIAS",
    "DynamicSamplingConfig",
    "DynamicSamplingRun",
    "FillSimulation",
    "PassRateDistribution",
    "PassRateMeasurement",
    "advantage_mass_curves",
    "beta_density",
    "fill_cost_frame",
    "measure_pass_rates",
    "run_comparison",
    "sample_gamma",
    "signal_curves",
    "simulate_fill",
    "LIVE_WORDS",
    "arm_labels",
    "check_table",
    "compare_text",
    "cost_fields",
    "cost_table",
    "distribution_labels",
    "fill_check",
    "live_fields",
    "live_summary_table",
    "measure_fields",
    "measured_caption",
    "measured_summary",
]

ARMS = ("grpo", "grpo_ds")  # plain GRPO, GRPO + dynamic sampling
# The difficulty-bias comparison's default pair (data only: any registry entries compare): an
# advantage scaled by the group's std (GRPO) and one left unscaled (Dr.GRPO), each algorithm's own
# ``scale_rewards`` from the registry.
DIFFICULTY_BIAS = ("grpo", "dr_grpo")


# ------------------------------------------------------------------------------------ analytic views
def signal_curves(group_sizes, points: int = 201) -> pd.DataFrame:
    """1 - p^G - (1-p)^G over a grid of pass rates, for each G (``core.sampling.signal_probability``).

    Returns columns ``G, pass_rate, signal_probability, zero_advantage_probability`` (the chance the
    group is all right or all wrong, 1 - signal). Raises ``ValueError`` for G < 1 or ``points`` < 2.
    """
    if int(points) < 2:
        raise ValueError(f"points: must be >= 2, got {points}")
    sizes = [int(g) for g in group_sizes]
    if not sizes:
        raise ValueError("group_size: choose at least one group size")
    p = torch.linspace(0.0, 1.0, int(points), dtype=torch.float64)
    frames = []
    for G in sizes:
        s = signal_probability(p, G)
        frames.append(
            pd.DataFrame(
                {
                    "G": G,
                    "pass_rate": p.numpy(),
                    "signal_probability": s.numpy(),
                    "zero_advantage_probability": (1.0 - s).numpy(),
                }
            )
        )
    return pd.concat(frames, ignore_index=True)


def advantage_mass_curves(group_size: int, points: int = 201, algorithms=DIFFICULTY_BIAS) -> pd.DataFrame:
    """Expected sum of |A_i| of a group vs its prompt's pass rate, one curve per algorithm, each with
    its own advantage scale (the registry's ``train_defaults["scale_rewards"]``; by default GRPO,
    std-scaled, vs Dr.GRPO, unscaled).

    From ``core.sampling.expected_advantage_mass`` (which calls ``group_advantages``). Columns:
    ``algorithm`` (one of ``algorithms``, in their order), ``pass_rate``, ``mass``, ``relative``
    (mass / its maximum over p, so the shapes compare on one axis).

    Raises ``ValueError`` for a name the registry does not know.
    """
    p = torch.linspace(0.0, 1.0, int(points), dtype=torch.float64)
    frames = []
    for algo in algorithms:
        scale = get_algorithm(algo).train_defaults["scale_rewards"]
        mass = expected_advantage_mass(p, group_size, scale)
        top = float(mass.max())
        frames.append(
            pd.DataFrame(
                {
                    "algorithm": algo,
                    "pass_rate": p.numpy(),
                    "mass": mass.numpy(),
                    "relative": (mass / top).numpy() if top > 0 else mass.numpy(),
                }
            )
        )
    return pd.concat(frames, ignore_index=True)


def sample_gamma(shape: float, size: int, generator: torch.Generator) -> torch.Tensor:
    """``size`` draws of Gamma(shape, 1) with a seeded generator (Marsaglia & Tsang 2000, ACM TOMS 26(3);
    for shape < 1 the boost Gamma(shape + 1) * U^(1/shape)). float64, shape [size].

    torch.distributions cannot take a generator, so this small sampler keeps the Monte Carlo seeded.
    """
    alpha = float(shape)
    if not (math.isfinite(alpha) and alpha > 0):
        raise ValueError(f"shape: must be a finite number > 0, got {shape}")
    boost = alpha < 1
    d = (alpha + 1 if boost else alpha) - 1.0 / 3.0
    c = 1.0 / math.sqrt(9.0 * d)
    out = torch.empty(0, dtype=torch.float64)
    while out.numel() < size:
        m = 2 * (size - out.numel()) + 16
        x = torch.randn(m, generator=generator, dtype=torch.float64)
        v = (1.0 + c * x) ** 3
        u = torch.rand(m, generator=generator, dtype=torch.float64)
        ok = (v > 0) & (torch.log(u) < 0.5 * x**2 + d - d * v + d * torch.log(v.clamp(min=1e-300)))
        out = torch.cat([out, d * v[ok]])
    out = out[:size]
    if boost:
        out = out * torch.rand(size, generator=generator, dtype=torch.float64) ** (1.0 / alpha)
    return out


@dataclass(frozen=True)
class PassRateDistribution:
    """Where prompts' pass rates come from: Beta(a, b) or a discrete histogram (values, weights).

    Attributes:
        kind: ``"beta"`` or ``"discrete"``.
        a, b: Beta shape parameters (kind ``"beta"``).
        values, weights: pass rates in [0, 1] and their weights (kind ``"discrete"``, e.g. the
            measured per-prompt pass rates k/G with their counts).
    """

    kind: str
    a: float = 1.0
    b: float = 1.0
    values: tuple[float, ...] = ()
    weights: tuple[float, ...] = ()

    @classmethod
    def beta(cls, a: float, b: float) -> PassRateDistribution:
        """Beta(a, b); raises ``ValueError`` naming ``a`` / ``b`` unless both are finite and > 0."""
        beta_signal_probability(a, b, 1)  # validates a and b
        return cls("beta", a=float(a), b=float(b))

    @classmethod
    def discrete(cls, values, weights) -> PassRateDistribution:
        """A histogram; raises ``ValueError`` for pass rates outside [0, 1] or bad weights."""
        dist = cls("discrete", values=tuple(float(v) for v in values), weights=tuple(float(w) for w in weights))
        mixture_signal_probability(dist.values, dist.weights, 1)  # validates
        return dist

    @property
    def mean(self) -> float:
        """Mean pass rate."""
        if self.kind == "beta":
            return self.a / (self.a + self.b)
        return sum(v * w for v, w in zip(self.values, self.weights)) / sum(self.weights)

    def signal_probability(self, group_size: int) -> float:
        """q = E_p[1 - p^G - (1-p)^G] (exact for Beta; plug-in for a histogram)."""
        if self.kind == "beta":
            return beta_signal_probability(self.a, self.b, group_size)
        return mixture_signal_probability(self.values, self.weights, group_size)

    def sample(self, size: int, generator: torch.Generator) -> torch.Tensor:
        """``size`` pass rates drawn i.i.d., float64 [size] (Beta via two Gamma draws)."""
        if self.kind == "beta":
            x, y = sample_gamma(self.a, size, generator), sample_gamma(self.b, size, generator)
            return x / (x + y)
        idx = torch.multinomial(
            torch.tensor(self.weights, dtype=torch.float64), size, replacement=True, generator=generator
        )
        return torch.tensor(self.values, dtype=torch.float64)[idx]


def beta_density(a: float, b: float, points: int = 199) -> pd.DataFrame:
    """The Beta(a, b) density of pass rates on an open grid (0.005 .. 0.995): ``pass_rate, density``.

    ``torch.distributions.Beta``; the grid avoids the ends, where the density is infinite for a or
    b < 1. Raises ``ValueError`` naming ``a`` / ``b`` unless both are finite and > 0.
    """
    PassRateDistribution.beta(a, b)
    p = torch.linspace(0.005, 0.995, int(points), dtype=torch.float64)
    dens = (
        torch.distributions.Beta(
            torch.tensor(float(a), dtype=torch.float64), torch.tensor(float(b), dtype=torch.float64)
        )
        .log_prob(p)
        .exp()
    )
    return pd.DataFrame({"pass_rate": p.numpy(), "density": dens.numpy()})


def fill_cost_frame(
    distributions: dict[str, PassRateDistribution],
    prompts_per_round: int,
    target_groups: int,
    group_size: int,
    max_caps: int,
) -> pd.DataFrame:
    """The expected cost of dynamic sampling for caps K = 1..``max_caps`` and each distribution.

    Columns: ``distribution`` (the dict key), ``K``, ``signal_probability`` (q), ``expected_rounds``,
    ``expected_rollouts``, ``expected_groups``, ``full_batch_probability``, ``rollouts_per_group``,
    and the no-dynamic-sampling baseline (one round of n prompts, nothing re-sampled):
    ``plain_groups`` = n q, ``plain_rollouts`` = n G. All from ``core.sampling.fill_cost``.

    Raises:
        ValueError: as :func:`rlviz.core.sampling.fill_cost`; ``max_caps`` < 1.
    """
    if int(max_caps) < 1:
        raise ValueError(f"max_rounds: must be >= 1, got {max_caps}")
    rows = []
    for name, dist in distributions.items():
        q = dist.signal_probability(group_size)
        for K in range(1, int(max_caps) + 1):
            c = fill_cost(q, prompts_per_round, target_groups, group_size, K)
            rows.append(
                {
                    "distribution": name,
                    "K": K,
                    "signal_probability": q,
                    "expected_rounds": c.expected_rounds,
                    "expected_rollouts": c.expected_rollouts,
                    "expected_groups": c.expected_groups,
                    "full_batch_probability": c.full_batch_probability,
                    "rollouts_per_group": c.rollouts_per_group,
                    "plain_groups": prompts_per_round * q,
                    "plain_rollouts": prompts_per_round * group_size,
                }
            )
    return pd.DataFrame(rows)


@dataclass(frozen=True)
class FillSimulation:
    """Monte-Carlo estimates of :class:`rlviz.core.sampling.FillCost`, each with its standard error."""

    trials: int
    signal_probability: float
    signal_probability_se: float
    expected_rounds: float
    expected_rounds_se: float
    expected_rollouts: float
    expected_rollouts_se: float
    expected_groups: float
    expected_groups_se: float
    full_batch_probability: float
    full_batch_probability_se: float


def simulate_fill(
    dist: PassRateDistribution,
    prompts_per_round: int,
    target_groups: int,
    group_size: int,
    max_rounds: int | None,
    trials: int,
    generator: torch.Generator,
    round_limit: int = 10_000,
) -> FillSimulation:
    """Play dynamic sampling ``trials`` times: each round draws n pass rates from ``dist``, G 0/1
    rewards per prompt, keeps the groups ``core.sampling.informative_groups`` keeps (the trainer's
    filter) and stops at N kept groups or after K rounds.

    Raises:
        ValueError: ``trials`` < 2, bad sizes (named), or no cap and a trial still short after
        ``round_limit`` rounds.
    """
    if int(trials) < 2:
        raise ValueError(f"trials: must be >= 2, got {trials}")
    fill_cost(0.5, prompts_per_round, target_groups, group_size, max_rounds)  # validates the sizes
    T, n, N, G = int(trials), int(prompts_per_round), int(target_groups), int(group_size)
    kept = torch.zeros(T, dtype=torch.long)  # (T,) informative groups so far
    rounds = torch.zeros(T, dtype=torch.long)  # (T,)
    seen = torch.zeros(T, dtype=torch.long)  # (T,) groups generated
    mixed_total = torch.zeros(T, dtype=torch.long)  # (T,) informative groups generated
    r = 0
    while True:
        active = kept < N  # (T,)
        if not bool(active.any()) or (max_rounds is not None and r >= max_rounds):
            break
        if r >= round_limit:
            raise ValueError(f"max_rounds: without a cap some trials were still short after {round_limit} rounds")
        p = dist.sample(T * n, generator).reshape(T * n, 1)  # (T n, 1)
        rewards = torch.bernoulli(p.expand(T * n, G), generator=generator)  # (T n, G)
        mixed = informative_groups(rewards).reshape(T, n).sum(dim=1)  # (T,)
        kept += torch.where(active, mixed, torch.zeros_like(mixed))
        rounds += active.long()
        seen += active.long() * n
        mixed_total += torch.where(active, mixed, torch.zeros_like(mixed))
        r += 1
    groups = kept.clamp(max=N).double()
    full = (kept >= N).double()
    rnd = rounds.double()
    q_hat = float(mixed_total.sum()) / float(seen.sum())

    def mean_se(x: torch.Tensor) -> tuple[float, float]:
        return float(x.mean()), float(x.std(unbiased=True) / math.sqrt(T))

    (m_r, s_r), (m_g, s_g), (m_f, s_f) = mean_se(rnd), mean_se(groups), mean_se(full)
    return FillSimulation(
        trials=T,
        signal_probability=q_hat,
        signal_probability_se=math.sqrt(max(q_hat * (1 - q_hat), 1e-12) / float(seen.sum())),
        expected_rounds=m_r,
        expected_rounds_se=s_r,
        expected_rollouts=m_r * n * G,
        expected_rollouts_se=s_r * n * G,
        expected_groups=m_g,
        expected_groups_se=s_g,
        full_batch_probability=m_f,
        full_batch_probability_se=s_f,
    )


# ------------------------------------------------------------------------------------ measured
@dataclass
class PassRateMeasurement:
    """Per-prompt pass rates of the tiny LM: G samples for each of n prompts.

    Attributes:
        frame: one row per prompt: ``prompt, answer, level, correct`` (k of G), ``samples`` (G),
            ``pass_rate`` (k / G), ``outcome`` (``all_wrong`` / ``mixed`` / ``all_correct``).
        group_size: G.
        temperature: the sampling temperature.
    """

    frame: pd.DataFrame
    group_size: int
    temperature: float

    @property
    def all_correct_fraction(self) -> float:
        """Share of groups whose answers are all right (zero advantage)."""
        return float((self.frame["outcome"] == "all_correct").mean())

    @property
    def all_wrong_fraction(self) -> float:
        """Share of groups whose answers are all wrong (zero advantage)."""
        return float((self.frame["outcome"] == "all_wrong").mean())

    @property
    def zero_advantage_fraction(self) -> float:
        """Share of groups with all-equal rewards: no learning signal."""
        return self.all_correct_fraction + self.all_wrong_fraction

    def histogram(self) -> pd.DataFrame:
        """Counts of prompts per (pass rate k/G, level): ``correct, pass_rate, level, prompts, share``,
        every k in 0..G and every level present (zero counts included)."""
        G = self.group_size
        levels = sorted(self.frame["level"].unique().tolist())
        counts = self.frame.groupby(["correct", "level"]).size()
        rows = [
            {"correct": k, "pass_rate": k / G, "level": lv, "prompts": int(counts.get((k, lv), 0))}
            for k in range(G + 1)
            for lv in levels
        ]
        out = pd.DataFrame(rows, columns=["correct", "pass_rate", "level", "prompts"])
        out["share"] = out["prompts"] / max(len(self.frame), 1)
        return out

    def outcomes_by_level(self) -> pd.DataFrame:
        """Share of groups all wrong / mixed / all correct, per level and overall (``level`` = 0):
        ``level, outcome, groups, share``."""
        rows = []
        parts = [(lv, self.frame[self.frame["level"] == lv]) for lv in sorted(self.frame["level"].unique())]
        for lv, part in [(0, self.frame), *parts]:
            for outcome in ("all_wrong", "mixed", "all_correct"):
                k = int((part["outcome"] == outcome).sum())
                rows.append({"level": int(lv), "outcome": outcome, "groups": k, "share": k / max(len(part), 1)})
        return pd.DataFrame(rows)

    def distribution(self) -> PassRateDistribution:
        """The measured pass rates k/G as a discrete distribution (for the analytic view)."""
        counts = self.frame["correct"].value_counts()
        values = sorted(counts.index.tolist())
        return PassRateDistribution.discrete([k / self.group_size for k in values], [int(counts[k]) for k in values])


def measure_pass_rates(
    seed: int,
    n_prompts: int,
    group_size: int,
    temperature: float,
    model_dir: str | None = None,
    device: str | None = None,
    max_new_tokens: int | None = None,
    policy=None,
) -> PassRateMeasurement:
    """Sample ``group_size`` answers to each of ``n_prompts`` train prompts and score them.

    Loads the model itself (``rlviz.lm.model.load_policy``) unless ``policy=(model, tokenizer)``
    is given, so a cache keyed by the arguments holds plain data only. Deterministic given ``seed``
    (its own ``torch.Generator``).

    Raises:
        ValueError: ``n_prompts`` < 1, ``group_size`` < 2, bad ``temperature`` / ``model_dir`` / ``device``.
    """
    from rlviz.lm.model import load_policy
    from rlviz.lm.rollout import sample_rollouts
    from rlviz.lm.task import DEFAULT_MAX_NEW_TOKENS, sample_problems

    if int(n_prompts) < 1:
        raise ValueError(f"n_prompts: must be >= 1, got {n_prompts}")
    if int(group_size) < 2:
        raise ValueError(f"group_size: a group needs G >= 2 to be mixed, got {group_size}")
    if not (math.isfinite(float(temperature)) and float(temperature) > 0):
        raise ValueError(f"temperature: must be a finite number > 0, got {temperature}")
    model, tokenizer = policy if policy is not None else load_policy(model_dir, device)
    gen = torch.Generator().manual_seed(int(seed))
    problems = sample_problems(int(n_prompts), gen)
    batch = sample_rollouts(  # only the rewards are read: no scoring forward (score=False)
        model,
        tokenizer,
        problems,
        int(group_size),
        max_new_tokens or DEFAULT_MAX_NEW_TOKENS,
        float(temperature),
        gen,
        score=False,
    )
    rewards = batch.rewards.view(-1, int(group_size)).cpu()  # (n, G)
    correct = rewards.sum(dim=1).round().long()  # (n,)
    mixed = informative_groups(rewards)  # (n,) the trainer's filter
    G = int(group_size)
    outcome = [
        "mixed" if m else ("all_correct" if int(k) == G else "all_wrong") for m, k in zip(mixed.tolist(), correct)
    ]
    frame = pd.DataFrame(
        {
            "prompt": [p.prompt for p in problems],
            "answer": [p.answer for p in problems],
            "level": [p.level for p in problems],
            "correct": correct.tolist(),
            "samples": G,
            "pass_rate": (correct.double() / G).tolist(),
            "outcome": outcome,
        }
    )
    return PassRateMeasurement(frame=frame, group_size=G, temperature=float(temperature))


# ------------------------------------------------------------------------------------ live run
@dataclass
class DynamicSamplingConfig:
    """A GRPO vs GRPO + dynamic sampling run: two arms of one objective, built over
    :class:`rlviz.experiments.runner.SideBySideRun`. Fields as :class:`rlviz.lm.trainer.TrainConfig`.

    Attributes:
        steps: RL steps per arm.
        prompts_per_step: n = N, prompts drawn per round and informative groups wanted per step.
        group_size: G.
        max_resample_rounds: K, the cap on generation rounds of the dynamic-sampling arm (verl
            recipe ``max_num_gen_batches``).
        heldout_samples: samples per held-out prompt for pass@1 at the start and after each arm's
            last step (96 prompts); 0 skips it.
        settings: GRPO settings to override for both arms (e.g. ``{"beta": 0.0}``).
    """

    steps: int = 15
    prompts_per_step: int = 8
    group_size: int = 8
    max_resample_rounds: int = 3
    temperature: float = 1.0
    lr: float = 1e-4
    mu: int = 2
    mini_batches: int = 2
    seed: int = 0
    heldout_samples: int = 4
    device: str | None = None
    model_dir: str | None = None
    settings: dict = field(default_factory=dict)

    def arms(self) -> list[Arm]:
        """The two :class:`~rlviz.experiments.runner.Arm`: ``grpo`` (dynamic sampling off) and
        ``grpo_ds`` (on), both GRPO with ``settings``."""
        return [Arm(arm, "grpo", {**self.settings, "dynamic_sampling": arm == "grpo_ds"}) for arm in ARMS]

    def run_config(self) -> RunConfig:
        """The :class:`~rlviz.experiments.runner.RunConfig` both arms share."""
        names = ("prompts_per_step", "group_size", "temperature", "lr", "mu", "mini_batches", "seed")
        train = {name: getattr(self, name) for name in names}
        train["max_resample_rounds"] = self.max_resample_rounds
        return RunConfig(
            steps=self.steps,
            heldout_samples=self.heldout_samples,
            train=train,
            device=self.device,
            model_dir=self.model_dir,
        )

    def train_config(self, arm: str):
        """The :class:`TrainConfig` of one arm (``"grpo"`` or ``"grpo_ds"``)."""
        if arm not in ARMS:
            raise ValueError(f"arm: {arm!r} is not one of {', '.join(ARMS)}")
        return train_config(self.arms()[ARMS.index(arm)], self.run_config())

    def validate(self) -> None:
        """Raise ``ValueError`` naming the first bad parameter."""
        validate(self.arms(), self.run_config())


class DynamicSamplingRun(SideBySideRun):
    """The two arms of a :class:`DynamicSamplingConfig` side by side (keep one per session; never
    cache it). Everything else, the lock included, is :class:`~rlviz.experiments.runner.SideBySideRun`:
    ``metrics_frame()`` has ``signal_groups`` (the effective batch), ``rollouts_cum`` and ``rounds``;
    ``summary_frame()`` has ``rollouts_per_signal_group``. ``ds_config`` is the config it was
    built from.

    Args:
        config: a :class:`DynamicSamplingConfig` (validated here).
        policy: optionally ``(model, tokenizer)`` to start from (copied, never trained).

    Raises:
        ValueError: a bad setting (named), or a bad ``model_dir`` / ``device``.
    """

    def __init__(self, config: DynamicSamplingConfig, policy=None):
        config.validate()
        super().__init__(config.arms(), config.run_config(), policy=policy)
        self.ds_config = config


def run_comparison(summary: pd.DataFrame) -> dict[str, float] | None:
    """What a GRPO vs GRPO + dynamic sampling run shows, per step, read from its
    :meth:`~rlviz.experiments.runner.SideBySideRun.summary_frame` (the page says it in words).

    Returns ``None`` unless both arms of :data:`ARMS` have run a step; else, for each arm ``a`` in
    ``("grpo", "grpo_ds")``: ``signal_<a>`` (mean groups with a signal in the loss per step),
    ``rollouts_<a>`` (responses sampled per step: ``rollouts_total / steps``), ``per_signal_<a>``
    (responses per group with a signal, NaN without one), and ``times`` (the dynamic-sampling arm's
    responses per step over plain GRPO's).
    """
    rows = {str(r["arm"]): r for _, r in summary.iterrows() if int(r["steps"]) > 0}
    if not all(arm in rows for arm in ARMS):
        return None
    out: dict[str, float] = {}
    for arm in ARMS:
        r = rows[arm]
        out[f"signal_{arm}"] = float(r["signal_groups_mean"])
        out[f"rollouts_{arm}"] = float(r["rollouts_total"]) / int(r["steps"])
        out[f"per_signal_{arm}"] = float(r["rollouts_per_signal_group"])
    plain = out["rollouts_grpo"]
    out["times"] = out["rollouts_grpo_ds"] / plain if plain else math.nan
    return out


# The group sizes the page's signal section offers, and those it shows first.
GROUP_SIZE_CHOICES: tuple[int, ...] = (1, 2, 4, 8, 16, 32, 64)
DEFAULT_GROUP_SIZES: tuple[int, ...] = (2, 4, 8, 16)


# -- the page's tables and words, in a language (the page draws them; no Streamlit here) ----------------

# the live figure's panels' words (``rlviz.plots.sampling.live_sampling_figure``), keys of ``sampling.*``
LIVE_WORDS = ("live_signal", "live_rollouts", "live_reward", "live_reward_vs", "target_line", "smoothed")


def arm_labels(lang: str) -> dict[str, str]:
    """Arm key of :data:`ARMS` -> its name in ``lang``."""
    return {arm: t(f"sampling.arm_{arm}", lang) for arm in ARMS}


def measure_fields(lang: str) -> dict[str, str]:
    """The measurement's parameters (:func:`measure_pass_rates`' and the sidebar's) -> their widget's label."""
    return {
        "n_prompts": t("sampling.n_prompts", lang),
        "group_size": t("sampling.measure_group_size", lang),
        "temperature": t("sampling.temperature", lang),
        "device": t("side.device", lang),
    }


def cost_fields(lang: str) -> dict[str, str]:
    """The fill cost's parameters (:func:`fill_cost_frame`'s, ``PassRateDistribution.beta``'s) -> their widget's label."""
    keys = {
        "a": "beta_a",
        "b": "beta_b",
        "prompts_per_round": "per_round",
        "target_groups": "target",
        "group_size": "cost_group_size",
        "max_rounds": "cap",
    }
    return {k: t(f"sampling.{v}", lang) for k, v in keys.items()}


def live_fields(lang: str) -> dict[str, str]:
    """The live run's parameters (:class:`DynamicSamplingConfig`'s and the sidebar's) -> their widget's label."""
    keys = {
        "steps": "steps",
        "prompts_per_step": "live_prompts",
        "group_size": "live_group_size",
        "max_resample_rounds": "rounds",
        "lr": "lr",
        "temperature": "temperature",
        "heldout_samples": "heldout",
    }
    return {k: t(f"sampling.{v}", lang) for k, v in keys.items()} | {"device": t("side.device", lang)}


def measured_summary(m: PassRateMeasurement) -> dict:
    """What the page reads from a measurement besides its figure: the shares of all-wrong (``wrong``),
    all-right (``right``) and zero-advantage (``zero``) groups, the number of prompts (``n``), the levels the
    filter would drop most (``levels``: ``None`` unless some level has both) and the pass rates as
    ``distribution`` (values, weights)."""
    by_level = m.outcomes_by_level()
    by_level = by_level[by_level["level"] > 0].pivot(index="level", columns="outcome", values="share")
    levels = None
    if by_level["all_correct"].max() > 0 and by_level["all_wrong"].max() > 0:
        levels = {
            "lv_right": int(by_level["all_correct"].idxmax()),
            "right": float(by_level["all_correct"].max()),
            "lv_wrong": int(by_level["all_wrong"].idxmax()),
            "wrong": float(by_level["all_wrong"].max()),
        }
    dist = m.distribution()
    return {
        "zero": m.zero_advantage_fraction,
        "wrong": m.all_wrong_fraction,
        "right": m.all_correct_fraction,
        "n": len(m.frame),
        "levels": levels,
        "distribution": (dist.values, dist.weights),
    }


def measured_caption(summary: dict, lang: str) -> str:
    """The caption under the measured figure in ``lang``, from :func:`measured_summary`: the shares, and which
    levels the filter would drop when the measurement shows it."""
    fields = {k: summary[k] for k in ("zero", "n", "wrong", "right")}
    caption = t("sampling.measured_caption", lang, **fields)
    if summary["levels"] is not None:
        caption += t("sampling.measured_levels", lang, **summary["levels"])
    return caption


def distribution_labels(a: float, b: float, lang: str) -> dict[str, str]:
    """The fill cost's distributions (``beta`` with its ``a``, ``b``; ``measured``) -> their names in ``lang``."""
    return {"beta": t("sampling.beta_name", lang, a=a, b=b), "measured": t("sampling.measured_name", lang)}


def cost_table(df: pd.DataFrame, K: int, a: float, b: float, lang: str) -> pd.DataFrame:
    """The fill cost table at the cap ``K`` as shown, from :func:`fill_cost_frame`'s ``df`` (``a``, ``b``: the
    Beta's, for its name): columns named in ``lang``, numbers to 4 significant digits (the CSV's rounding)."""
    at_k = df[df["K"] == K]
    names = distribution_labels(a, b, lang)
    table = pd.DataFrame(
        {
            t("sampling.col_distribution", lang): [names[d] for d in at_k["distribution"]],
            t("sampling.col_q", lang): at_k["signal_probability"].round(3).tolist(),
            t("sampling.col_rounds", lang): at_k["expected_rounds"].round(2).tolist(),
            t("sampling.col_rollouts", lang): at_k["expected_rollouts"].round(1).tolist(),
            t("sampling.col_groups", lang): at_k["expected_groups"].round(2).tolist(),
            t("sampling.col_full", lang): at_k["full_batch_probability"].round(3).tolist(),
            t("sampling.col_per_group", lang): [
                f"{v:.1f}" if v != float("inf") else "∞" for v in at_k["rollouts_per_group"]
            ],
            t("sampling.col_plain_groups", lang): at_k["plain_groups"].round(2).tolist(),
            t("sampling.col_plain_rollouts", lang): at_k["plain_rollouts"].tolist(),
        }
    )
    return table.map(lambda v: f"{v:.4g}" if isinstance(v, float) else v)


def fill_check(a: float, b: float, n: int, N: int, G: int, K: int, seed: int):
    """The formula's fill cost (``rlviz.core.sampling.fill_cost``) and its Monte-Carlo check
    (:func:`simulate_fill`) at one setting with a Beta(a, b) pass rate: ``(exact, simulation, trials)``; about
    two million simulated answers at most, so the check stays quick at any setting. Raises ``ValueError``
    naming the parameter."""
    beta = PassRateDistribution.beta(a, b)
    exact = fill_cost(beta.signal_probability(G), n, N, G, K)
    trials = int(min(2000, max(100, 2e6 / (n * G * exact.expected_rounds))))
    return exact, simulate_fill(beta, n, N, G, K, trials, torch.Generator().manual_seed(seed)), trials


def check_table(exact, sim, lang: str) -> pd.DataFrame:
    """:func:`fill_check`'s formula against its simulation (± one standard error), one row per quantity,
    named in ``lang``."""
    names = ("col_q", "col_rounds", "col_rollouts", "col_groups", "col_full")
    fields = ("signal_probability", "expected_rounds", "expected_rollouts", "expected_groups", "full_batch_probability")
    return pd.DataFrame(
        {
            t("sampling.col_quantity", lang): [t(f"sampling.{k}", lang) for k in names],
            t("sampling.col_formula", lang): [f"{getattr(exact, f):.4g}" for f in fields],
            t("sampling.col_simulation", lang): [
                f"{getattr(sim, f):.4g} ± {getattr(sim, f + '_se'):.2g}" for f in fields
            ],
        }
    )


def live_summary_table(summary: pd.DataFrame, names: dict[str, str], lang: str) -> pd.DataFrame:
    """One row per arm of :meth:`SideBySideRun.summary_frame`, the key result first: held-out pass@1 start ->
    end ("—": not measured), the last steps' train pass@1, rollouts, signal groups; named in ``lang``."""
    return pd.DataFrame(
        {
            t("sampling.col_arm", lang): summary["arm"].map(names),
            t("sampling.col_heldout", lang): [
                f"{cell(a, 3)} → {cell(b, 3)}"
                for a, b in zip(summary["heldout_pass_at_1_start"], summary["heldout_pass_at_1_end"])
            ],
            t("sampling.col_train_last5", lang): [cell(v, 3) for v in summary["train_pass_at_1_last5"]],
            t("sampling.col_rollouts_total", lang): [str(int(v)) for v in summary["rollouts_total"]],
            t("sampling.col_signal_mean", lang): [cell(v, 2) for v in summary["signal_groups_mean"]],
            t("sampling.col_per_signal", lang): [cell(v, 1) for v in summary["rollouts_per_signal_group"]],
            t("sampling.col_signal_total", lang): [str(int(v)) for v in summary["signal_groups_total"]],
            t("sampling.col_steps", lang): [str(int(v)) for v in summary["steps"]],
        }
    )


def compare_text(summary: pd.DataFrame, lang: str) -> str | None:
    """:func:`run_comparison` of a run's summary as a sentence in ``lang`` (signal groups, rollouts and
    rollouts per signal group of each arm); ``None`` before both arms have a step."""
    compared = run_comparison(summary)
    if compared is None:
        return None
    return t(
        "sampling.read_compare",
        lang,
        signal_ds=cell(compared["signal_grpo_ds"], 1),
        signal=cell(compared["signal_grpo"], 1),
        times=cell(compared["times"], 1),
        rollouts_ds=cell(compared["rollouts_grpo_ds"], 0),
        rollouts=cell(compared["rollouts_grpo"], 0),
        per_ds=cell(compared["per_signal_grpo_ds"], 1),
        per=cell(compared["per_signal_grpo"], 1),
    )
