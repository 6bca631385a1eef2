"""Dynamic sampling: the analytic formulas by hand and against Monte Carlo, the measurement and the
live stepper on the tiny LM, and the page's figures (finite values only)."""

from __future__ import annotations

import dataclasses
import inspect
import math

import pandas as pd
import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from rlviz.core.advantages import group_advantages
from rlviz.core.objectives import ALGORITHMS
from rlviz.core.sampling import (
    beta_signal_probability,
    binomial_cdf_below,
    expected_advantage_mass,
    fill_cost,
    informative_groups,
    mixture_signal_probability,
    signal_probability,
)
from rlviz.experiments.sampling import (
    ARMS,
    DIFFICULTY_BIAS,
    DynamicSamplingConfig,
    DynamicSamplingRun,
    PassRateDistribution,
    advantage_mass_curves,
    beta_density,
    fill_cost_frame,
    measure_pass_rates,
    sample_gamma,
    signal_curves,
    simulate_fill,
)
from rlviz.plots import sampling as sampling_plots
from rlviz.plots.sampling import (
    advantage_mass_figure,
    beta_density_figure,
    fill_cost_figure,
    live_sampling_figure,
    pass_rate_figure,
    signal_probability_figure,
)


@pytest.fixture(scope="module", autouse=True)
def _one_thread():
    """One torch thread for these small tensors: on a shared 2-core machine, torch's two spinning
    threads made a tiny RL step ~30x slower. The previous setting is restored afterwards."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


# ---------------------------------------------------------------------------------------- by hand
@pytest.mark.parametrize("G", [1, 2, 5, 8, 16])
def test_beta_uniform_is_g_minus_1_over_g_plus_1(G):
    # p ~ U(0,1): E[p^G] = E[(1-p)^G] = 1/(G+1), so q = 1 - 2/(G+1) = (G-1)/(G+1)
    assert beta_signal_probability(1, 1, G) == pytest.approx((G - 1) / (G + 1), abs=1e-12)


def test_beta_by_hand():
    # Beta(2, 1), G = 2: E[p^2] = 2*3/(3*4) = 1/2, E[(1-p)^2] = 1*2/(3*4) = 1/6, q = 1 - 1/2 - 1/6 = 1/3
    assert beta_signal_probability(2, 1, 2) == pytest.approx(1 / 3, abs=1e-12)
    # symmetric in a <-> b (p <-> 1-p)
    assert beta_signal_probability(0.3, 2.5, 7) == pytest.approx(beta_signal_probability(2.5, 0.3, 7), abs=1e-12)


@pytest.mark.parametrize("a,b,G", [(2.0, 3.0, 4), (1.5, 1.2, 8), (4.0, 1.0, 16)])
def test_beta_matches_quadrature_of_signal_probability(a, b, G):
    # midpoint rule of the Beta density times 1 - p^G - (1-p)^G (smooth integrand for a, b >= 1)
    m = 200_000
    p = (torch.arange(m, dtype=torch.float64) + 0.5) / m
    dens = (
        torch.distributions.Beta(torch.tensor(a, dtype=torch.float64), torch.tensor(b, dtype=torch.float64))
        .log_prob(p)
        .exp()
    )
    quad = float((dens * signal_probability(p, G)).sum() / m)
    assert beta_signal_probability(a, b, G) == pytest.approx(quad, abs=1e-6)


def test_mixture_by_hand():
    # values 0, 0.5, 1 with weights 1, 2, 1 and G = 2: s = 0, 2*0.5*0.5 = 0.5, 0 -> q = 2*0.5/4 = 0.25
    assert mixture_signal_probability([0.0, 0.5, 1.0], [1, 2, 1], 2) == pytest.approx(0.25)
    assert mixture_signal_probability([0.0, 1.0], [3, 5], 8) == 0.0


def test_binomial_cdf_below_matches_math_comb():
    q, N = 0.37, 6
    trials = torch.tensor([0, 1, 5, 6, 12, 30])
    expected = [sum(math.comb(m, k) * q**k * (1 - q) ** (m - k) for k in range(min(N, m + 1))) for m in trials.tolist()]
    assert binomial_cdf_below(trials, q, N).tolist() == pytest.approx(expected, abs=1e-12)
    assert binomial_cdf_below(trials, 0.0, N).tolist() == [1.0] * 6  # no signal ever: always short
    assert binomial_cdf_below(trials, 1.0, N).tolist() == [1.0, 1.0, 1.0, 0.0, 0.0, 0.0]


@pytest.mark.parametrize("q", [0.05, 0.3, 0.9])
def test_one_prompt_per_round_is_geometric(q):
    # n = N = 1: rounds ~ Geometric(q), E[R] = 1/q; capped at K: E[R] = (1 - (1-q)^K)/q, P(full) = 1 - (1-q)^K
    free = fill_cost(q, 1, 1, 8, None)
    assert free.expected_rounds == pytest.approx(1 / q, rel=1e-9)
    assert free.expected_rollouts == pytest.approx(8 / q, rel=1e-9)  # n G E[R]
    assert free.full_batch_probability == pytest.approx(1.0)
    K = 4
    capped = fill_cost(q, 1, 1, 8, K)
    assert capped.expected_rounds == pytest.approx((1 - (1 - q) ** K) / q, rel=1e-12)
    assert capped.full_batch_probability == pytest.approx(1 - (1 - q) ** K, rel=1e-12)
    assert capped.expected_groups == pytest.approx(1 - (1 - q) ** K, rel=1e-12)
    # P(R = r) = q (1-q)^(r-1) for r < K; the last entry holds every run the cap stopped: (1-q)^(K-1)
    expected = [q * (1 - q) ** (r - 1) for r in range(1, K)] + [(1 - q) ** (K - 1)]
    assert list(capped.round_probabilities) == pytest.approx(expected, abs=1e-12)


def test_one_round_is_plain_filtering():
    # K = 1, n = N = 2: groups = E[Bin(2, q)] = 2q, P(full) = q^2, rollouts = n G
    q = 0.6
    c = fill_cost(q, 2, 2, 4, 1)
    assert c.expected_groups == pytest.approx(2 * q)
    assert c.full_batch_probability == pytest.approx(q**2)
    assert c.expected_rollouts == 2 * 4 and c.expected_rounds == 1.0


def test_edge_signal_probabilities():
    assert fill_cost(1.0, 4, 8, 2, None).expected_rounds == pytest.approx(2.0)  # every group kept: ceil(8/4)
    none = fill_cost(0.0, 4, 8, 2, None)
    assert math.isinf(none.expected_rounds) and none.expected_groups == 0.0
    capped = fill_cost(0.0, 4, 8, 2, 5)
    assert capped.expected_rounds == 5.0 and capped.expected_rollouts == 5 * 4 * 2 and capped.expected_groups == 0.0


@pytest.mark.parametrize(
    "call, name",
    [
        (lambda: beta_signal_probability(0, 1, 4), "a"),
        (lambda: beta_signal_probability(1, -2, 4), "b"),
        (lambda: beta_signal_probability(float("nan"), 1, 4), "a"),
        (lambda: beta_signal_probability(1, 1, 0), "group_size"),
        (lambda: mixture_signal_probability([0.5, 1.2], [1, 1], 4), "pass_rate"),
        (lambda: mixture_signal_probability([float("nan")], [1], 4), "pass_rate"),
        (lambda: mixture_signal_probability([0.5], [-1], 4), "weights"),
        (lambda: mixture_signal_probability([0.5, 0.2], [1], 4), "weights"),
        (lambda: signal_probability(torch.tensor([-0.1]), 4), "pass_rate"),
        (lambda: fill_cost(float("nan"), 4, 4, 4, 3), "pass_rate"),
        (lambda: fill_cost(1.5, 4, 4, 4, 3), "pass_rate"),
        (lambda: fill_cost(0.5, 0, 4, 4, 3), "prompts_per_round"),
        (lambda: fill_cost(0.5, 4, 0, 4, 3), "target_groups"),
        (lambda: fill_cost(0.5, 4, 4, 0, 3), "group_size"),
        (lambda: fill_cost(0.5, 4, 4, 4, 0), "max_rounds"),
        (lambda: expected_advantage_mass([0.5], 1), "group_size"),
        (lambda: signal_curves([]), "group_size"),
        (lambda: PassRateDistribution.beta(1, 0), "b"),
        (lambda: DynamicSamplingConfig(steps=0).validate(), "steps"),
        (lambda: DynamicSamplingConfig(max_resample_rounds=0).validate(), "max_resample_rounds"),
        (lambda: DynamicSamplingConfig(group_size=1).validate(), "group_size"),
    ],
)
def test_bad_input_names_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()


# ---------------------------------------------------------------------------------------- properties
@settings(max_examples=60, deadline=None)
@given(q=st.floats(0.0, 1.0), n=st.integers(1, 12), N=st.integers(1, 12), K=st.integers(1, 6))
def test_fill_cost_invariants(q, n, N, K):
    c, more = fill_cost(q, n, N, 4, K), fill_cost(q, n, N, 4, K + 1)
    assert 1.0 - 1e-12 <= c.expected_rounds <= K + 1e-12
    assert 0.0 <= c.expected_groups <= N and 0.0 <= c.full_batch_probability <= 1.0
    assert sum(c.round_probabilities) == pytest.approx(1.0, abs=1e-9)
    # a higher cap never gives fewer groups, a lower chance of a full batch or fewer rounds
    assert more.expected_groups >= c.expected_groups - 1e-9
    assert more.full_batch_probability >= c.full_batch_probability - 1e-9
    assert more.expected_rounds >= c.expected_rounds - 1e-9
    # one round: E[min(Bin(n, q), N)] <= min(n q, N) (Jensen); rollouts are n G per round
    one = fill_cost(q, n, N, 4, 1)
    assert one.expected_groups <= min(n * q, N) + 1e-9
    assert c.expected_rollouts == pytest.approx(n * 4 * c.expected_rounds)


@settings(max_examples=40, deadline=None)
@given(a=st.floats(0.1, 10.0), b=st.floats(0.1, 10.0), G=st.integers(1, 40))
def test_beta_signal_probability_is_a_probability_growing_with_G(a, b, G):
    q, q_next = beta_signal_probability(a, b, G), beta_signal_probability(a, b, G + 1)
    assert 0.0 <= q <= 1.0
    assert q_next >= q - 1e-12  # p^G + (1-p)^G shrinks as G grows, for every p


@settings(max_examples=30, deadline=None)
@given(q=st.floats(0.05, 1.0), n=st.integers(1, 8), N=st.integers(1, 8))
def test_uncapped_is_the_limit_of_large_caps(q, n, N):
    free = fill_cost(q, n, N, 2, None)
    capped = fill_cost(q, n, N, 2, 2000)
    assert free.expected_rounds == pytest.approx(capped.expected_rounds, rel=1e-9)
    assert free.expected_groups == pytest.approx(N)
    # at least N/n rounds are needed, whatever q
    assert free.expected_rounds >= math.ceil(N / n) - 1e-9


# ---------------------------------------------------------------------------------------- Monte Carlo
@pytest.mark.parametrize(
    "dist, n, N, G, K",
    [
        (PassRateDistribution.beta(0.3, 0.5), 8, 8, 8, 3),
        (PassRateDistribution.beta(2.0, 0.7), 16, 8, 4, None),
        (PassRateDistribution.discrete([0.0, 0.25, 0.5, 1.0], [3, 1, 1, 2]), 4, 6, 8, 2),
        (PassRateDistribution.discrete([0.0, 0.1, 1.0], [5, 2, 3]), 8, 12, 8, 6),
    ],
)
def test_analytic_matches_monte_carlo(dist, n, N, G, K):
    sim = simulate_fill(dist, n, N, G, K, 3000, torch.Generator().manual_seed(123))
    exact = fill_cost(dist.signal_probability(G), n, N, G, K)
    for name in (
        "signal_probability",
        "expected_rounds",
        "expected_rollouts",
        "expected_groups",
        "full_batch_probability",
    ):
        se = getattr(sim, name + "_se")
        # within 4 standard errors (plus a hair for quantities that are exact in every trial, se = 0)
        assert abs(getattr(sim, name) - getattr(exact, name)) <= 4 * se + 1e-9, (
            name,
            getattr(sim, name),
            se,
            getattr(exact, name),
        )


def test_gamma_sampler_moments():
    # Gamma(k, 1): mean k, variance k; 200k draws -> se of the mean sqrt(k / 2e5)
    for k in (0.3, 2.5):
        x = sample_gamma(k, 200_000, torch.Generator().manual_seed(0))
        assert float(x.mean()) == pytest.approx(k, abs=5 * math.sqrt(k / 200_000))
        assert float(x.var()) == pytest.approx(k, rel=0.05)
    a = sample_gamma(1.3, 10, torch.Generator().manual_seed(4))
    b = sample_gamma(1.3, 10, torch.Generator().manual_seed(4))
    assert torch.equal(a, b)  # seeded, not the global RNG


# ---------------------------------------------------------------------------------------- difficulty bias
def test_advantage_mass_by_hand():
    # G = 2: the only mixed group is [1, 0]: A = ±0.5 / std, std = sqrt(0.5) (unbiased) -> sum|A| = 1/sqrt(0.5);
    # it occurs with chance 2p(1-p)
    p = torch.tensor([0.0, 0.3, 0.5, 1.0], dtype=torch.float64)
    with_std = expected_advantage_mass(p, 2, "group")
    expected = 2 * p * (1 - p) * (1.0 / (math.sqrt(0.5) + 1e-6))
    assert torch.allclose(with_std, expected, atol=1e-9)
    # Dr.GRPO (no std): sum_i |r_i - mean| = 2k(G-k)/G, so E = (2/G) E[k(G-k)] = 2(G-1)p(1-p)
    for G in (2, 5, 8):
        assert torch.allclose(expected_advantage_mass(p, G, "none"), 2 * (G - 1) * p * (1 - p), atol=1e-12)


def test_advantage_mass_uses_group_advantages():
    # one sample point recomputed from group_advantages and the binomial law
    G, p = 6, 0.2
    total = 0.0
    for k in range(G + 1):
        rewards = torch.tensor([[1.0] * k + [0.0] * (G - k)], dtype=torch.float64)
        total += math.comb(G, k) * p**k * (1 - p) ** (G - k) * float(group_advantages(rewards, "group").abs().sum())
    assert float(expected_advantage_mass([p], G, "group")[0]) == pytest.approx(total, rel=1e-12)


def test_std_scaling_overweights_rare_and_easy_prompts():
    # teaching claim 19: relative to its peak, GRPO weighs p = 0.1 and p = 0.9 more than Dr.GRPO does
    df = advantage_mass_curves(8, points=11)  # p = 0, 0.1, ..., 1
    rel = {a: df[df.algorithm == a].set_index("pass_rate")["relative"] for a in ("grpo", "dr_grpo")}
    for p in (0.1, 0.9):
        key = min(rel["grpo"].index, key=lambda x: abs(x - p))
        assert rel["grpo"][key] > rel["dr_grpo"][key] + 0.02
    assert rel["grpo"].iloc[0] == 0 and rel["grpo"].iloc[-1] == 0  # no signal at p = 0 or 1


def test_difficulty_bias_reads_each_algorithms_scale_from_the_registry(monkeypatch):
    # the compared pair is data: each algorithm's advantage scale is its registry default, never its name
    default = advantage_mass_curves(8, points=11)
    assert list(dict.fromkeys(default.algorithm)) == list(DIFFICULTY_BIAS)
    for algo in DIFFICULTY_BIAS:
        scale = ALGORITHMS[algo].train_defaults["scale_rewards"]
        mass = expected_advantage_mass(torch.linspace(0, 1, 11, dtype=torch.float64), 8, scale)
        assert default[default.algorithm == algo]["mass"].tolist() == mass.tolist()
    # an entry whose default scale changes draws the other curve
    grpo = ALGORITHMS["grpo"]
    settings = tuple(
        dataclasses.replace(x, default="none") if x.name == "scale_rewards" else x for x in grpo.train_settings
    )
    flipped = dataclasses.replace(grpo, train_settings=settings)
    monkeypatch.setitem(ALGORITHMS, "grpo", flipped)
    moved = advantage_mass_curves(8, points=11)
    assert moved[moved.algorithm == "grpo"]["mass"].tolist() == default[default.algorithm == "dr_grpo"]["mass"].tolist()
    # any registry entries compare; the figure draws whatever the frame has, in registry order
    other = advantage_mass_curves(8, points=11, algorithms=("cispo", "ppo"))
    fig = advantage_mass_figure(other, {})
    assert [tr.name for tr in fig.data] == [ALGORITHMS["ppo"].title, ALGORITHMS["cispo"].title]
    with pytest.raises(ValueError, match="unknown algorithm"):
        advantage_mass_curves(8, algorithms=("no_such",))


def test_signal_curves_frame():
    df = signal_curves([2, 8], points=11)
    assert set(df.G) == {2, 8} and len(df) == 22
    row = df[(df.G == 8) & (df.pass_rate.round(6) == 0.1)].iloc[0]
    assert row.signal_probability == pytest.approx(1 - 0.1**8 - 0.9**8)  # 0.5695
    assert (df.signal_probability + df.zero_advantage_probability).tolist() == pytest.approx([1.0] * 22)


def test_fill_cost_frame_baseline_columns():
    dist = PassRateDistribution.beta(1, 1)  # q = (G-1)/(G+1) = 3/5 at G = 4
    df = fill_cost_frame({"beta": dist}, 10, 10, 4, 3)
    assert df.K.tolist() == [1, 2, 3]
    assert df.signal_probability.iloc[0] == pytest.approx(0.6)
    assert df.plain_groups.iloc[0] == pytest.approx(6.0) and df.plain_rollouts.iloc[0] == 40
    assert df.expected_groups.iloc[0] == pytest.approx(6.0)  # K = 1: E[min(Bin(10, .6), 10)] = 6


# ---------------------------------------------------------------------------------------- tiny LM
@pytest.fixture(scope="module")
def policy():
    from rlviz.lm.model import load_policy

    return load_policy(None, "cpu")


def test_measure_pass_rates(policy):
    m = measure_pass_rates(3, 12, 4, 1.0, policy=policy)
    again = measure_pass_rates(3, 12, 4, 1.0, policy=policy)
    pd.testing.assert_frame_equal(m.frame, again.frame)  # deterministic given the seed
    f = m.frame
    assert len(f) == 12 and f["correct"].between(0, 4).all()
    assert ((f.outcome == "all_wrong") == (f.correct == 0)).all()
    assert ((f.outcome == "all_correct") == (f.correct == 4)).all()
    assert m.zero_advantage_fraction == pytest.approx(((f.correct == 0) | (f.correct == 4)).mean())
    hist = m.histogram()
    assert hist.prompts.sum() == 12 and set(hist.correct) == set(range(5))
    by = m.outcomes_by_level()
    overall = by[by.level == 0].set_index("outcome")["share"]
    assert overall.sum() == pytest.approx(1.0)
    assert overall["all_wrong"] == pytest.approx(m.all_wrong_fraction)
    dist = m.distribution()
    assert dist.mean == pytest.approx(f.pass_rate.mean())
    with pytest.raises(ValueError, match="n_prompts"):
        measure_pass_rates(0, 0, 4, 1.0, policy=policy)
    with pytest.raises(ValueError, match="temperature"):
        measure_pass_rates(0, 4, 4, 0.0, policy=policy)


def test_measurement_skips_the_scoring_forward_and_samples_the_same(policy):
    # score=False (what measure_pass_rates asks for) leaves out the log-prob forward, which draws
    # nothing from the generator: the same responses and rewards as a scored batch
    from rlviz.lm.rollout import sample_rollouts
    from rlviz.lm.task import sample_problems

    model, tokenizer = policy
    problems = sample_problems(2, torch.Generator().manual_seed(5))
    scored, bare = (
        sample_rollouts(model, tokenizer, problems, 2, 8, 1.0, torch.Generator().manual_seed(5), score=s)
        for s in (True, False)
    )
    assert bare.rollout_log_prob is None and scored.rollout_log_prob.shape == scored.response_ids.shape
    assert bare.texts == scored.texts and torch.equal(bare.rewards, scored.rewards)
    with pytest.raises(ValueError, match="^score:"):
        sample_rollouts(model, tokenizer, problems, 2, 8, 1.0, torch.Generator(), record_routing=True, score=False)


def test_live_run_arms(policy):
    cfg = DynamicSamplingConfig(steps=2, prompts_per_step=3, group_size=4, max_resample_rounds=3, heldout_samples=0)
    run = DynamicSamplingRun(cfg, policy=policy)
    assert run.progress == {a: 0 for a in ARMS} and not run.done
    while not run.done:
        run.step()
    df = run.metrics_frame()
    assert len(df) == 4 and set(df.arm) == set(ARMS)
    plain, ds = df[df.arm == "grpo"], df[df.arm == "grpo_ds"]
    assert (plain.rollouts == 3 * 4).all() and (plain.rounds == 1).all()
    # plain GRPO trains on every group; the ones with signal are those that are not all-equal
    assert (plain.signal_groups == 3 - (plain.zero_adv_group_fraction * 3).round()).all()
    # dynamic sampling: only mixed groups, at most N, at most K rounds of N G responses
    assert (ds.signal_groups == ds.kept_groups).all() and (ds.signal_groups <= 3).all()
    assert ds.rollouts.between(12, 3 * 12).all() and (ds.rollouts % 12 == 0).all()
    assert df.groupby("arm").rollouts_cum.last().to_dict() == df.groupby("arm").rollouts.sum().to_dict()
    summary = run.summary_frame()
    assert summary.rollouts_total.tolist() == [int(plain.rollouts.sum()), int(ds.rollouts.sum())]
    assert math.isnan(summary.heldout_pass_at_1_end.iloc[0])  # not measured with heldout_samples = 0
    # same checkpoint, same seed: a second run reproduces the first
    run2 = DynamicSamplingRun(cfg, policy=policy)
    while not run2.done:
        run2.step()
    cols = ["arm", "step", "signal_groups", "rollouts", "pass_at_1"]
    pd.testing.assert_frame_equal(df[cols], run2.metrics_frame()[cols])


# ---------------------------------------------------------------------------------------- figures
def _finite_traces(fig) -> int:
    n = 0
    for trace in fig.data:
        for axis in ("x", "y"):
            values = getattr(trace, axis, None)
            if values is None:
                continue
            for v in values:
                if isinstance(v, (int, float)):
                    assert math.isfinite(v), (trace.name, axis, v)
        n += 1
    return n


def test_figures_are_finite():
    assert _finite_traces(signal_probability_figure(signal_curves([1, 2, 64]), {})) == 3
    assert _finite_traces(advantage_mass_figure(advantage_mass_curves(64), {})) == 2
    fig = beta_density_figure(beta_density(0.1, 0.1), 0.5, {"name.beta": "B"})
    assert _finite_traces(fig) == 1
    # a measured distribution with no signal at all (q = 0): everything stays finite
    dists = {"beta": PassRateDistribution.beta(10, 10), "measured": PassRateDistribution.discrete([0.0, 1.0], [3, 1])}
    df = fill_cost_frame(dists, 1, 512, 64, 50)
    fig = fill_cost_figure(df, 50, 512, {})
    assert _finite_traces(fig) == 8  # 3 panels + baseline per distribution


def test_measured_and_live_figures(policy):
    m = measure_pass_rates(1, 8, 4, 1.0, policy=policy)
    fig = pass_rate_figure(m.histogram(), m.outcomes_by_level(), {})
    assert _finite_traces(fig) >= 4
    run = DynamicSamplingRun(
        DynamicSamplingConfig(steps=1, prompts_per_step=2, group_size=2, heldout_samples=0), policy=policy
    )
    empty = live_sampling_figure(run.metrics_frame(), 2, {})
    # no step yet: a valid figure whose four panels hold no point (one trace without a point each, so that
    # plotly draws every panel)
    assert _finite_traces(empty) == 4 and all(len(t.x) == 0 and len(t.y) == 0 for t in empty.data)
    run.step()
    fig = live_sampling_figure(run.metrics_frame(), 2, {})
    assert _finite_traces(fig) == 8  # 2 arms x 4 panels


def test_informative_groups_is_the_filter_used():
    # the Monte Carlo and the measurement call the trainer's filter: a sanity check of its rule
    r = torch.tensor([[1.0, 1.0, 1.0], [0.0, 0.0, 0.0], [1.0, 0.0, 1.0]])
    assert informative_groups(r).tolist() == [False, False, True]


# ---------------------------------------------------------------------------------------- fix round
def test_step_brings_an_arm_behind_up_to_the_other(policy):
    # a step that failed part-way leaves GRPO one step ahead; the next step() moves only the arm behind
    cfg = DynamicSamplingConfig(steps=3, prompts_per_step=2, group_size=2, heldout_samples=0)
    run = DynamicSamplingRun(cfg, policy=policy)
    run.trainers["grpo"].step()
    assert run.progress == {"grpo": 1, "grpo_ds": 0}
    run.step()
    assert run.progress == {"grpo": 1, "grpo_ds": 1}
    run.step()
    assert run.progress == {"grpo": 2, "grpo_ds": 2}


def test_progress_waits_for_a_step_in_flight(policy):
    # Streamlit's Stop starts the next script run while the stopped one is still inside step():
    # a reader must see the step done for both arms, never GRPO at n + 1 and the other arm at n
    import threading

    cfg = DynamicSamplingConfig(steps=2, prompts_per_step=2, group_size=2, heldout_samples=0)
    run = DynamicSamplingRun(cfg, policy=policy)
    ds = run.trainers["grpo_ds"]
    plain_done, release = threading.Event(), threading.Event()
    original = ds.step

    def slow_step():
        plain_done.set()  # the GRPO arm has stepped; the dynamic-sampling arm is about to
        release.wait(10)
        return original()

    ds.step = slow_step
    worker = threading.Thread(target=run.step)
    worker.start()
    assert plain_done.wait(30)
    assert run.trainers["grpo"].step_count == 1 and ds.step_count == 0  # mid-step, unlocked view
    seen: dict = {}
    reader = threading.Thread(target=lambda: seen.update(run.progress))
    reader.start()
    reader.join(0.3)
    assert reader.is_alive()  # progress waits for the step in flight ...
    release.set()
    worker.join(30)
    reader.join(30)
    assert seen == {"grpo": 1, "grpo_ds": 1}  # ... and then sees both arms at the same step
    assert len(run.metrics_frame()) == 2


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("steps", 0),
        ("prompts_per_step", 0),
        ("group_size", 1),
        ("max_resample_rounds", 0),
        ("lr", 0.0),
        ("temperature", 0.0),
        ("heldout_samples", -1),
    ],
)
def test_live_config_errors_name_the_field(field, value):
    # the page maps exactly these names to its widgets (pages/sampling.py LIVE_FIELDS)
    with pytest.raises(ValueError, match=rf"^{field}:"):
        DynamicSamplingConfig(**{field: value}).validate()


def _annotation(fig, text):
    found = [a for a in fig.layout.annotations if (a.text or "").strip() == text]
    assert len(found) == 1, [a.text for a in fig.layout.annotations]
    return found[0]


COST_LABELS = {"plain": "plain", "target_line": "N wanted", "chosen": "chosen K"}


def test_cost_figure_labels_stay_inside_at_extreme_settings():
    # /sampling?s_N=512&s_n=1&s_G=64&s_K=50&s_a=10&s_b=0.1: the review's case
    df = fill_cost_frame({"beta": PassRateDistribution.beta(10, 0.1)}, 1, 512, 64, 50)
    fig = fill_cost_figure(df, 50, 512, COST_LABELS)
    # one K range for the three panels (the chosen-K label no longer stretches the middle one)
    ranges = [tuple(fig.layout[f"xaxis{s}"].range) for s in ("", "2", "3")]
    assert ranges == [(0.5, 50.5)] * 3
    # the chosen-K label at the right end of the range reads leftwards, inside the plot
    assert _annotation(fig, "chosen K").xanchor == "right"
    # n G = 64 responses vs up to 3200 with dynamic sampling: the baseline sits low, its label above it
    plain = _annotation(fig, "plain")
    assert plain.yref == "y3" and plain.y == 64 and plain.yanchor == "bottom" and plain.xanchor == "right"
    assert tuple(fig.layout.yaxis3.range)[1] >= df["expected_rollouts"].max()
    # N = 512 is the top of the groups panel: its label hangs below the line, under the title
    target = _annotation(fig, "N wanted")
    assert target.yref == "y" and target.yanchor == "top"
    # small K range: the chosen-K label at K = 2 of 10 reads rightwards
    df = fill_cost_frame({"beta": PassRateDistribution.beta(0.3, 0.5)}, 16, 16, 8, 10)
    fig = fill_cost_figure(df, 2, 16, COST_LABELS)
    assert [tuple(fig.layout[f"xaxis{s}"].range) for s in ("", "2", "3")] == [(0.5, 10.5)] * 3
    assert _annotation(fig, "chosen K").xanchor == "left"


@pytest.mark.parametrize(("a", "b", "anchor"), [(10, 0.1, "right"), (0.1, 10, "left"), (1, 1, "center")])
def test_beta_mean_label_is_not_cut_at_an_edge(a, b, anchor):
    # mean a/(a+b): 0.99 is drawn leftwards from the line, 0.01 rightwards, 0.5 centred
    dist = PassRateDistribution.beta(a, b)
    fig = beta_density_figure(beta_density(a, b), dist.mean, {"mean": "mean"})
    label = _annotation(fig, f"mean {dist.mean:.2f}")
    assert label.xanchor == anchor and label.x == pytest.approx(dist.mean)


def test_reference_labels_end_before_the_chosen_k_line():
    # K = 50 of 50: the chosen-K line runs along the right edge, so the labels end left of it
    df = fill_cost_frame({"beta": PassRateDistribution.beta(10, 0.1)}, 1, 512, 64, 50)
    fig = fill_cost_figure(df, 50, 512, COST_LABELS)
    for text in ("plain", "N wanted"):
        label = _annotation(fig, text)
        assert label.x == 50 and label.xanchor == "right" and label.xshift < 0
    # K = 3 of 10: the line is out of the way, the labels end at the right edge of the panel
    df = fill_cost_frame({"beta": PassRateDistribution.beta(0.3, 0.5)}, 16, 16, 8, 10)
    fig = fill_cost_figure(df, 3, 16, COST_LABELS)
    assert _annotation(fig, "plain").x == pytest.approx(10.5 - 0.1)


def _one_level_measurement() -> tuple[pd.DataFrame, pd.DataFrame]:
    """G = 2, one level: 5 prompts all wrong, 0 mixed, 9 all right (histogram, outcomes by level)."""
    hist = pd.DataFrame({"correct": [0, 1, 2], "pass_rate": [0.0, 0.5, 1.0], "level": [1, 1, 1], "prompts": [5, 0, 9]})
    hist["share"] = hist["prompts"] / 14
    outcomes = pd.DataFrame(
        {
            "level": [0, 0, 0],
            "outcome": ["all_wrong", "mixed", "all_correct"],
            "groups": [5, 0, 9],
            "share": [5 / 14, 0.0, 9 / 14],
        }
    )
    return hist, outcomes


def test_histogram_note_sits_above_the_tallest_bar():
    # the note hangs from the top of an axis that runs 15 % above the tallest stack (9), so it never
    # covers the k = G bar
    hist, outcomes = _one_level_measurement()
    fig = pass_rate_figure(hist, outcomes, {"zero_band": "zero"})
    assert tuple(fig.layout.yaxis.range) == pytest.approx((0.0, 9 * 1.15))
    assert _annotation(fig, "zero").yanchor == "top"


BUILDERS = (
    signal_probability_figure,
    advantage_mass_figure,
    pass_rate_figure,
    beta_density_figure,
    fill_cost_figure,
    live_sampling_figure,
)


def _axis_titles(fig) -> list[str]:
    layout = fig.layout.to_plotly_json()
    return sorted(v["title"]["text"] for k, v in layout.items() if k.startswith(("xaxis", "yaxis")) and "title" in v)


def test_words_reach_the_builders_only_through_labels():
    # no language code and no i18n lookup in rlviz.plots.sampling: one ``labels`` mapping per builder
    assert "rlviz.i18n" not in inspect.getsource(sampling_plots)
    for builder in BUILDERS:
        params = inspect.signature(builder).parameters
        assert "lang" not in params and "labels" in params, builder.__name__
        assert not [p for p in params if p.endswith(("_title", "_label", "_labels", "titles", "name"))], (
            builder.__name__
        )
        assert "``labels``" in builder.__doc__ or "labels: ``" in builder.__doc__, builder.__name__  # keys documented
    # a missing key shows the key itself (a missing line name of the bias figure: the registry title)
    signal = signal_probability_figure(signal_curves([2]), {})
    assert _axis_titles(signal) == ["pass_rate", "signal_axis"]
    assert "<br>mixed_hover: " in signal.data[0].hovertemplate and "<br>equal_hover: " in signal.data[0].hovertemplate
    bias = advantage_mass_figure(advantage_mass_curves(8), {"name.dr_grpo": "Dr"})
    assert [tr.name for tr in bias.data] == [ALGORITHMS["grpo"].title, "Dr"]
    assert _axis_titles(bias) == ["bias_axis", "pass_rate"] and "<br>bias_mass: " in bias.data[0].hovertemplate
    measured = pass_rate_figure(*_one_level_measurement(), {})
    assert [a.text for a in measured.layout.annotations] == ["hist_title", "outcome_title", "zero_band"]
    assert _axis_titles(measured) == ["measured_rate", "prompts_axis", "share_axis"]
    assert [tr.name for tr in measured.data] == ["level 1", "outcome.all_wrong", "outcome.mixed", "outcome.all_correct"]
    assert list(measured.data[1].y) == ["all_levels"]
    beta = beta_density_figure(beta_density(1, 1), 0.5, {})
    assert beta.data[0].name == "name.beta" and [a.text for a in beta.layout.annotations] == ["mean 0.50"]
    assert _axis_titles(beta) == ["density", "pass_rate"]
    cost = fill_cost_figure(fill_cost_frame({"beta": PassRateDistribution.beta(1, 1)}, 16, 16, 8, 10), 3, 16, {})
    notes = [a.text.strip() for a in cost.layout.annotations]
    assert notes == ["cost_groups", "cost_full", "cost_rollouts", "target_line", "plain", "chosen"]
    assert {tr.name for tr in cost.data} == {"name.beta", "name.beta · plain"}
    assert set(_axis_titles(cost)) == {"cap_axis"}
    frame = pd.DataFrame(
        {
            "arm": ["grpo", "grpo_ds"],
            "step": [1, 1],
            "signal_groups": [1.0, 2.0],
            "rollouts_cum": [4, 8],
            "pass_at_1": [0.25, 0.5],
        }
    )
    live = live_sampling_figure(frame, 2, {"name.grpo_ds": "GRPO + DS"})
    assert [a.text for a in live.layout.annotations] == [
        "live_signal",
        "live_rollouts",
        "live_reward",
        "live_reward_vs",
        "target_line",
    ]
    assert set(_axis_titles(live)) == {"step", "live_rollouts"}
    # a missing arm name: the registry title of an arm named after an algorithm, else the arm's name
    assert [tr.name for tr in live.data if tr.showlegend is not False] == [ALGORITHMS["grpo"].title, "GRPO + DS"]
    assert "<br>step: %{x}<br>live_signal: " in live.data[0].hovertemplate
