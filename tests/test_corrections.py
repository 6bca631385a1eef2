"""Rollout corrections (rlviz.core.corrections): hand values with the formula beside each, and
properties over every registry entry (an identical sampler gives weight exactly 1; padding junk
never matters; bad input names the parameter)."""

from __future__ import annotations

import math

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from rlviz.core.corrections import CORRECTIONS, cap_shares, correction_weights, get_correction

# one response of three tokens: pi_train / pi_rollout = 3, 0.5, 1 (l = ln 3, ln 0.5, 0)
ROLL = torch.tensor([[-1.0, -2.0, -0.5]], dtype=torch.float64)
OLD = ROLL + torch.log(torch.tensor([[3.0, 0.5, 1.0]], dtype=torch.float64))
MASK = torch.ones(1, 3)


@pytest.mark.parametrize(
    "name, low, high, weight",
    [
        # token TIS, C = 2: min(r, 2) per token = 2, 0.5, 1
        ("token_tis", None, 2.0, [2.0, 0.5, 1.0]),
        # token MIS (IcePop) [0.4, 2]: r inside the band, 0 outside: 0, 0.5, 1
        ("token_mis", 0.4, 2.0, [0.0, 0.5, 1.0]),
        # [0.6, 4]: now the token at 0.5 is dropped and the one at 3 kept: 3, 0, 1
        ("token_mis", 0.6, 4.0, [3.0, 0.0, 1.0]),
        # sequence ratio = 3 x 0.5 x 1 = 1.5 for every token; TIS at C = 2 keeps it
        ("sequence_tis", None, 2.0, [1.5] * 3),
        # TIS at C = 1.2 truncates it to 1.2
        ("sequence_tis", None, 1.2, [1.2] * 3),
        # MIS with C_max = 1.2: 1.5 is outside, the whole response is dropped
        ("sequence_mis", None, 1.2, [0.0] * 3),
        # MIS with C_max = 3 (TRL's default): kept with weight 1.5
        ("sequence_mis", None, 3.0, [1.5] * 3),
        # geometric mean of pi_rollout / pi_train = 1.5^(-1/3) = 0.874: outside [0.9, 1.1] -> dropped
        ("geo_mean_rs", 0.9, 1.1, [0.0] * 3),
        # inside [0.8, 1.25] -> kept with weight 1 (a rejection filter, no importance weight)
        ("geo_mean_rs", 0.8, 1.25, [1.0] * 3),
        ("none", None, None, [1.0] * 3),
    ],
)
def test_hand_values(name, low, high, weight):
    w, kept = correction_weights(name, OLD, ROLL, MASK, low=low, high=high)
    assert torch.allclose(w, torch.tensor([weight], dtype=torch.float64), atol=1e-12, rtol=0)
    assert kept.tolist() == [[x != 0 for x in weight]] or get_correction(name).kind == "truncate"


def test_cap_shares_say_how_often_the_truncation_binds():
    # two responses: the one above (ratios 3, 0.5, 1) and one of two tokens at ratio 1.1 (a padded third)
    roll = torch.cat([ROLL, torch.tensor([[-1.0, -1.0, 0.0]], dtype=torch.float64)])
    old = torch.cat([OLD, roll[1:] + torch.tensor([[math.log(1.1), math.log(1.1), 9.0]], dtype=torch.float64)])
    mask = torch.tensor([[1.0, 1.0, 1.0], [1.0, 1.0, 0.0]])
    # token TIS, C = 2: only the token at 3 is above -> 1 of 5 tokens, 1 of 2 responses
    assert cap_shares("token_tis", old, roll, mask) == pytest.approx((1 / 5, 1 / 2))
    # C = 1.05: the tokens at 3, 1.1, 1.1 -> 3 of 5 tokens, both responses
    assert cap_shares("token_tis", old, roll, mask, high=1.05) == pytest.approx((3 / 5, 1.0))
    # with TRL's lower bound 0.6 the token at 0.5 is clamped up too: 2 of 5 tokens, 1 of 2 responses
    assert cap_shares("token_tis", old, roll, mask, low=0.6, high=2.0) == pytest.approx((2 / 5, 1 / 2))
    # sequence TIS, C = 1.2: ratios 1.5 and 1.21 -> both capped, every token: (5 / 5, 2 / 2); at C = 1.3 the first only
    assert cap_shares("sequence_tis", old, roll, mask, high=1.2) == pytest.approx((1.0, 1.0))
    assert cap_shares("sequence_tis", old, roll, mask, high=1.3) == pytest.approx((3 / 5, 1 / 2))
    with pytest.raises(ValueError, match="^correction"):
        cap_shares("token_mis", old, roll, mask)
    assert cap_shares("token_tis", old, roll, torch.zeros(2, 3)) == (0.0, 0.0)


def test_geo_mean_is_the_mean_k1():
    # 1.5^(-1/3) = exp(-(ln 3 + ln 0.5 + 0) / 3): just inside a band whose lower edge is 0.8736
    edge = 1.5 ** (-1 / 3)
    assert correction_weights("geo_mean_rs", OLD, ROLL, MASK, low=edge - 1e-9, high=1.0)[0].sum() == 3
    assert correction_weights("geo_mean_rs", OLD, ROLL, MASK, low=edge + 1e-9, high=1.0)[0].sum() == 0


@settings(max_examples=25, deadline=None)
@given(
    name=st.sampled_from(list(CORRECTIONS)),
    values=st.lists(st.floats(-30, 0, allow_nan=False), min_size=6, max_size=6),
    lengths=st.tuples(st.integers(1, 3), st.integers(1, 3)),
)
def test_an_identical_sampler_gives_weight_exactly_one(name, values, lengths):
    lp = torch.tensor(values, dtype=torch.float64).view(2, 3)
    mask = torch.zeros(2, 3)
    for i, n in enumerate(lengths):
        mask[i, :n] = 1
    junk = lp.masked_fill(mask == 0, math.nan)  # padding holds NaN on one side: never read
    w, kept = correction_weights(name, lp, junk, mask)
    assert torch.equal(w, mask.double())  # 1 at every real token, 0 at padding, exactly
    assert torch.equal(kept, mask > 0)


def test_weights_are_detached_and_keep_the_dtype():
    old = OLD.clone().float().requires_grad_(True)
    w, _ = correction_weights("token_tis", old, ROLL.float(), MASK)
    assert not w.requires_grad and w.dtype == torch.float32


@pytest.mark.parametrize(
    "kwargs, param",
    [
        ({"name": "nope"}, "correction"),
        ({"low": 0.0}, "low"),
        ({"high": -1.0}, "high"),
        ({"high": math.inf}, "high"),
        ({"low": 2.0, "high": 1.0}, "low"),
        ({"low": True}, "low"),
    ],
)
def test_bad_input_names_the_parameter(kwargs, param):
    args = {"name": "token_mis", **kwargs}
    with pytest.raises(ValueError, match=f"^{param}"):
        correction_weights(args.pop("name"), OLD, ROLL, MASK, **args)


def test_bad_tensors_name_the_parameter():
    with pytest.raises(ValueError, match="^rollout_log_prob"):
        correction_weights("token_tis", OLD, ROLL[:, :2], MASK)
    bad = ROLL.clone()
    bad[0, 1] = math.inf
    with pytest.raises(ValueError, match="^rollout_log_prob"):
        correction_weights("token_tis", OLD, bad, MASK)


def test_every_entry_names_its_sources():
    for spec in CORRECTIONS.values():
        assert spec.title and spec.title_zh and spec.summary["en"] and spec.summary["zh"]
        assert spec.trl or spec.verl  # each is what TRL or verl calls it


def test_half_precision_weights_are_float32():
    # a sequence ratio of e^(3 x 4) = 162755 under a band up to 1e6: beyond float16's 65504, so the
    # weight comes back in float32 (the ratios are float64 inside)
    old = torch.full((1, 3), -0.5, dtype=torch.float16)
    roll = torch.full((1, 3), -4.5, dtype=torch.float16)  # l = 4 per token, 12 per response
    w, kept = correction_weights("sequence_tis", old, roll, torch.ones(1, 3), high=1e6)
    assert w.dtype == torch.float32 and bool(torch.isfinite(w).all())
    assert float(w[0, 0]) == pytest.approx(math.exp(12.0), rel=1e-6) and bool(kept.all())
