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
