"""pass@k (Chen et al. 2021, arXiv 2107.03374, section 2.1) and distinct right answers: hand values."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from rlviz.core.passk import distinct_right, mean_pass_at_k, pass_at_k, pass_at_k_curve


def _exact(n: int, c: int, k: int) -> float:
    """1 - C(n-c, k) / C(n, k) in exact arithmetic (math.comb is 0 when n - c < k)."""
    return float(1 - Fraction(math.comb(n - c, k), math.comb(n, k)))


@pytest.mark.parametrize(
    "n, c, k, expected",
    [
        (4, 1, 2, 0.5),  # 1 - C(3,2)/C(4,2) = 1 - 3/6
        (5, 2, 2, 0.7),  # 1 - C(3,2)/C(5,2) = 1 - 3/10
        (10, 3, 5, 1 - 21 / 252),  # 1 - C(7,5)/C(10,5) = 1 - 21/252 = 0.91666...
        (8, 2, 1, 0.25),  # k = 1: c / n
        (8, 0, 8, 0.0),  # nothing right: 0 for every k
        (8, 8, 1, 1.0),  # everything right: 1 for every k
        (4, 3, 2, 1.0),  # n - c = 1 < k = 2: every pair holds a right sample
        (8, 1, 8, 1.0),  # k = n: 1 iff any sample is right
        (8, 1, 4, 0.5),  # 1 - C(7,4)/C(8,4) = 1 - 35/70
    ],
)
def test_pass_at_k_hand_values(n, c, k, expected):
    assert pass_at_k(n, c, k) == pytest.approx(expected, abs=1e-12)


def test_pass_at_k_is_the_binomial_formula_and_above_the_plug_in_estimate():
    for n in range(1, 13):
        for c in range(n + 1):
            for k in range(1, n + 1):
                assert pass_at_k(n, c, k) == pytest.approx(_exact(n, c, k), abs=1e-12), (n, c, k)
    # plugging the pass rate into 1 - (1 - p)^k is biased low: n = 4, c = 1, k = 2 gives 0.4375, not 0.5
    assert 1 - (1 - 1 / 4) ** 2 == 0.4375 < pass_at_k(4, 1, 2)


def test_pass_at_k_is_stable_where_the_binomials_overflow_a_float():
    # C(2000, 1000) ~ 2e600 overflows a float; the product form does not
    assert pass_at_k(2000, 1, 1000) == pytest.approx(0.5, abs=1e-12)  # 1 - C(1999,1000)/C(2000,1000) = 1000/2000
    assert pass_at_k(2000, 3, 1000) == pytest.approx(_exact(2000, 3, 1000), abs=1e-12)
    assert 0.0 <= pass_at_k(5000, 2500, 7) <= 1.0


@pytest.mark.parametrize(
    "args, name",
    [((0, 0, 1), "n"), ((4, 5, 1), "c"), ((4, -1, 1), "c"), ((4, 1, 0), "k"), ((4, 1, 5), "k"), ((4.0, 1, 1), "n")],
)
def test_pass_at_k_refuses_counts_out_of_range(args, name):
    with pytest.raises(ValueError, match=f"^{name}:"):
        pass_at_k(*args)
    with pytest.raises(ValueError, match="^k:"):
        pass_at_k(4, 1, True)  # a bool is not a count


def test_mean_and_curve_over_prompts():
    # three prompts, 4 samples each, with 1, 0 and 4 right
    # k=1: (1/4 + 0 + 1) / 3;  k=2: (1/2 + 0 + 1) / 3;  k=4: (1 + 0 + 1) / 3
    curve = pass_at_k_curve([1, 0, 4], 4)
    assert list(curve) == [1, 2, 4]
    assert (
        curve[1] == pytest.approx(1.25 / 3) and curve[2] == pytest.approx(1.5 / 3) and curve[4] == pytest.approx(2 / 3)
    )
    assert mean_pass_at_k([(4, 1), (4, 0), (4, 4)], 2) == pytest.approx(0.5)
    assert list(pass_at_k_curve([3], 6)) == [1, 2, 4, 6]  # powers of two up to n, and n
    assert pass_at_k_curve([3], 6, ks=[3]) == {3: pytest.approx(1 - 1 / 20)}  # 1 - C(3,3)/C(6,3)
    values = list(pass_at_k_curve([0, 1, 2, 5, 8], 8, ks=range(1, 9)).values())
    assert values == sorted(values)  # non-decreasing in k
    with pytest.raises(ValueError, match="counts"):
        pass_at_k_curve([], 4)


def test_distinct_right_counts_different_right_answers():
    texts = ["5+3", "3+5", "5+3", "9", "4+4"]
    rewards = [1.0, 1.0, 1.0, 0.0, 0.9]  # "9" is wrong; a shaped 0.9 is not right
    assert distinct_right(texts, rewards) == 2  # "5+3" twice counts once
    assert distinct_right(texts, rewards, key=lambda t: "".join(sorted(t))) == 1  # order ignored: one answer
    assert distinct_right(["..24", "24"], [1.0, 1.0], key=lambda t: t.lstrip(".")) == 1
    assert distinct_right([], []) == 0
    with pytest.raises(ValueError, match="rewards"):
        distinct_right(["a"], [1.0, 0.0])
