"""Advantages, GAE, overlong shaping and dynamic-sampling helpers, by hand."""

import math

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from rlviz.core.advantages import gae, group_advantages
from rlviz.core.sampling import informative_groups, signal_probability
from rlviz.core.shaping import overlong_filter_mask, overlong_penalty


def test_group_advantages_by_hand():
    r = torch.tensor([[1.0, 0.0, 0.0, 0.0]])
    # mean 0.25; unbiased std = sqrt((0.75^2 + 3 * 0.25^2) / 3) = 0.5; A = (r - 0.25) / 0.5
    a = group_advantages(r, "group", eps=0.0)
    assert torch.allclose(a, torch.tensor([[1.5, -0.5, -0.5, -0.5]]))
    # Dr.GRPO: no std
    assert torch.allclose(group_advantages(r, "none"), torch.tensor([[0.75, -0.25, -0.25, -0.25]]))
    # batch: numerator per group, std of all 8 rewards
    r2 = torch.tensor([[1.0, 0.0, 0.0, 0.0], [1.0, 1.0, 0.0, 1.0]])
    std_all = r2.reshape(-1).std(unbiased=True)
    a2 = group_advantages(r2, "batch", eps=0.0)
    assert torch.allclose(a2[1], (r2[1] - 0.75) / std_all)


def test_degenerate_groups_give_zero():
    assert torch.all(group_advantages(torch.ones(3, 8)) == 0)  # all right
    assert torch.all(group_advantages(torch.zeros(2, 4), "batch") == 0)  # all wrong
    assert torch.all(group_advantages(torch.tensor([[1.0], [0.0]])) == 0)  # G = 1: no baseline
    with pytest.raises(ValueError, match="rewards"):
        group_advantages(torch.zeros(0, 4))
    with pytest.raises(ValueError, match="rewards"):
        group_advantages(torch.tensor([[1.0, float("nan")]]))
    with pytest.raises(ValueError, match="scale_rewards"):
        group_advantages(torch.ones(1, 2), "std")


@settings(max_examples=50, deadline=None)
@given(
    st.lists(st.lists(st.sampled_from([0.0, 0.5, 1.0]), min_size=2, max_size=8), min_size=1, max_size=5).filter(
        lambda rows: len({len(r) for r in rows}) == 1
    )
)
def test_group_advantages_sum_to_zero_and_are_finite(rows):
    a = group_advantages(torch.tensor(rows))
    assert torch.isfinite(a).all()
    assert torch.allclose(a.sum(dim=1), torch.zeros(len(rows)), atol=1e-5)


def test_gae_by_hand():
    # T=2, rewards (0, 1), V = (0.5, 0.5), gamma = lam = 1:
    # t=1: delta = 1 + 0 - 0.5 = 0.5, A1 = 0.5; t=0: delta = 0 + 0.5 - 0.5 = 0, A0 = 0 + 0.5 = 0.5
    r = torch.tensor([[0.0, 1.0, 0.0]])
    v = torch.tensor([[0.5, 0.5, 9.0]])
    m = torch.tensor([[1.0, 1.0, 0.0]])
    adv, ret = gae(r, v, m, gamma=1.0, lam=1.0, whiten=False)
    assert torch.allclose(adv, torch.tensor([[0.5, 0.5, 0.0]]))
    assert torch.allclose(ret, torch.tensor([[1.0, 1.0, 0.0]]))
    # gamma = 1, lam = 0.5: A0 = delta0 + 0.5 * A1 = 0 + 0.25
    adv, _ = gae(r, v, m, gamma=1.0, lam=0.5, whiten=False)
    assert float(adv[0, 0]) == pytest.approx(0.25)
    with pytest.raises(ValueError, match="lam"):
        gae(r, v, m, lam=1.5)


def test_overlong_penalty_shape():
    # L_max = 20, L_cache = 4: 0 up to 16, then (16 - L) / 4, -1 at 20 and beyond
    lengths = torch.tensor([10, 16, 18, 20, 25])
    p = overlong_penalty(lengths, max_length=20, buffer_length=4)
    assert torch.allclose(p, torch.tensor([0.0, 0.0, -0.5, -1.0, -1.0]))
    assert torch.allclose(overlong_penalty(lengths, 20, 4, penalty_factor=0.5), 0.5 * p)
    assert torch.allclose(overlong_penalty(lengths, 20, 0), torch.tensor([0.0, 0, 0, 0, -1.0]))
    with pytest.raises(ValueError, match="buffer_length"):
        overlong_penalty(lengths, max_length=20, buffer_length=21)
    with pytest.raises(ValueError, match="lengths"):
        overlong_penalty(torch.tensor([float("nan")]), 20, 4)


def test_soft_overlong_evaluates_many_settings_as_overlong_penalty_does():
    # the formula alone (rlviz.core.shaping._soft_overlong), K settings at once over [K, B] lengths:
    # each row as overlong_penalty gives it for that row's (L_max, L_cache), bit for bit
    from rlviz.core.shaping import _soft_overlong

    lengths = torch.tensor([0.0, 3, 4, 5, 6, 8, 9, 12], dtype=torch.float64)
    settings = [(8, 4), (8, 0), (5, 5), (1, 0), (1, 1), (12, 3)]
    col = lambda v: torch.tensor(v, dtype=torch.float64)[:, None]  # noqa: E731
    lmax, lcache = zip(*settings)
    many = _soft_overlong(lengths.expand(len(settings), -1), col(lmax), col(lcache), 1.5)
    for k, (m, c) in enumerate(settings):
        one = overlong_penalty(lengths, m, c, 1.5).double()
        assert torch.equal(many[k].float().double(), one), (m, c)
    # by hand, L_max 8, L_cache 4, factor 1.5: -1.5 * clip((L - 4) / 4, 0, 1)
    assert many[0].tolist() == [0.0, 0.0, 0.0, -0.375, -0.75, -1.5, -1.5, -1.5]
    # L_cache 0 (no ramp, the 0 / 0 of the ramp replaced): -1.5 only beyond L_max = 8
    assert many[1].tolist() == [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, -1.5, -1.5]
    # the scalar path is the same formula
    assert torch.equal(_soft_overlong(lengths, 8.0, 4.0, 1.5), many[0])


def test_overlong_filter_and_informative_groups():
    assert overlong_filter_mask(torch.tensor([True, False])).tolist() == [[0.0], [1.0]]
    r = torch.tensor([[1.0, 1.0, 1.0], [0.0, 0.0, 0.0], [1.0, 0.0, 1.0]])
    assert informative_groups(r).tolist() == [False, False, True]


def test_signal_probability_matches_monte_carlo():
    g = torch.Generator().manual_seed(0)
    for p, G in ((0.1, 4), (0.5, 8), (0.9, 16)):
        draws = (torch.rand(20000, G, generator=g) < p).float()
        mc = informative_groups(draws).float().mean()
        exact = 1 - p**G - (1 - p) ** G
        assert float(signal_probability(torch.tensor(p), G)) == pytest.approx(exact)
        # binomial standard error of the Monte-Carlo mean, 5 sigma
        se = math.sqrt(exact * (1 - exact) / 20000)
        assert abs(float(mc) - exact) < 5 * se + 1e-3


# ------------------------------------------------- group statistics: zero spread, float64, caller's dtype


def _nearly_equal_float32() -> torch.Tensor:
    """Seven rewards of 0.35 and one a float32 step above (the float32 mean rounds below 0.35)."""
    r = torch.full((1, 8), 0.35, dtype=torch.float32)
    r[0, 7] = torch.nextafter(r[0, 7], torch.tensor(1.0))
    assert float(r.mean()) < float(r[0, 0])  # the float32 mean really does round below every member
    return r


@pytest.mark.parametrize("scale", ["group", "batch", "none"])
def test_an_all_equal_group_is_exactly_zero_whatever_eps(scale):
    # second group: mean 0.5, unbiased std sqrt(4 * 0.25 / 3) = 0.57735, A = ±0.5 / 0.57735 = ±0.86603 with
    # eps = 0 (group); the batch std of all 8 rewards is sqrt(2 * 0.25 / 7) = 0.26726 ... (0, 0, 0, 0, 1, 0, 1, 0)
    r = torch.tensor([[0.35, 0.35, 0.35, 0.35], [1.0, 0.0, 1.0, 0.0]])
    for eps in (0.0, 1e-6, 1e-4):
        a = group_advantages(r, scale, eps=eps)
        assert torch.equal(a[0], torch.zeros(4)), (scale, eps)  # exactly 0, not NaN, for eps = 0
        assert bool(torch.isfinite(a).all())
    assert torch.equal(group_advantages(torch.full((2, 3), 7.0), scale, eps=0.0), torch.zeros(2, 3))
    if scale == "group":
        assert torch.allclose(group_advantages(r, scale, eps=0.0)[1], torch.tensor([1.0, -1.0, 1.0, -1.0]) * 0.866025)


@pytest.mark.parametrize("scale", ["group", "batch", "none"])
def test_a_nearly_equal_float32_group_keeps_its_signs(scale):
    r = _nearly_equal_float32()
    a = group_advantages(r, scale)
    assert a.dtype == torch.float32  # computed in float64, returned in the caller's dtype
    assert bool((a[0, :7] <= 0).all()) and float(a[0, 7]) > 0
    # float64 by hand: deviations -d/8 (seven) and 7d/8 (one), d the float32 step at 0.35
    d = float(r[0, 7].double() - r[0, 0].double())
    assert float(group_advantages(r.double(), "none")[0, 7]) == pytest.approx(7 * d / 8, rel=1e-12)
    half = torch.tensor([[1.0, 1.0, 1.0, 1.0 + 2**-10]], dtype=torch.float16)  # the same in float16
    ah = group_advantages(half, scale)
    assert ah.dtype == torch.float16 and bool((ah[0, :3] <= 0).all()) and float(ah[0, 3]) > 0


def test_huge_and_tiny_spreads_neither_overflow_nor_vanish():
    # std computed on the deviations scaled to at most 1: (±1e200) and (0, 1e-200) are z-scores ±0.7071
    big = group_advantages(torch.tensor([[1e200, -1e200]], dtype=torch.float64), eps=0.0)
    tiny = group_advantages(torch.tensor([[0.0, 1e-200]], dtype=torch.float64), eps=0.0)
    assert torch.allclose(big, torch.tensor([[0.70711, -0.70711]], dtype=torch.float64), atol=1e-5)
    assert torch.allclose(tiny, torch.tensor([[-0.70711, 0.70711]], dtype=torch.float64), atol=1e-5)
    with pytest.raises(ValueError, match="^rewards:"):  # R - mean overflows float64 itself
        group_advantages(torch.tensor([[1.7e308, -1.7e308, -1.7e308]], dtype=torch.float64), "none")
    with pytest.raises(ValueError, match="^rewards:"):  # centred 87339 does not fit float16
        group_advantages(torch.tensor([[65504.0, -65504.0, -65504.0]], dtype=torch.float16), "none")


def test_coinciding_curves_and_the_default_choice():
    # a hand frame: a and c are the same curve (|0.5 - 0.5000000001| = 1e-10 <= atol 1e-6), b is not
    import pandas as pd

    from rlviz.experiments import advantages as A

    df = pd.DataFrame(
        {
            "estimator": ["a", "a", "b", "b", "c", "c"],
            "pass_rate": [0.0, 1.0] * 3,
            "relative": [0.0, 0.5, 0.0, 1.0, 0.0, 0.5000000001],
        }
    )
    assert A.coinciding(df) == [["a", "c"]]
    assert A.coinciding(df, atol=0.0) == []
    with pytest.raises(ValueError, match="^column"):
        A.coinciding(df, "weight")
    # the page's choice starts with what it can draw: no per-token estimator (registry field, not a name)
    assert A.default_choice() and not set(A.default_choice()) & set(A.per_token())
    assert set(A.default_choice()) | set(A.per_token()) == set(A.ESTIMATORS)
