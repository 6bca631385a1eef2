"""Rollout corrections (rlviz.core.corrections): hand values with the formula beside each, and
properties over every registry entry (an identical sampler gives weight exactly 1; padding junk
never matters; bad input names the parameter)."""

from __future__ import annotations

import math

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from rlviz.core.corrections import (
    CORRECTIONS,
    PRESETS,
    cap_shares,
    correction_weights,
    get_correction,
    get_preset,
    preset_weights,
)
from rlviz.core.objectives import ALGORITHMS

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
        # verl seq_sum_k1: the response's pi_rollout / pi_train = 1 / 1.5 = 0.667, inside [0.5, 2] -> weight 1
        ("seq_ratio_rs", 0.5, 2.0, [1.0] * 3),
        # ... outside [0.7, 2] -> dropped
        ("seq_ratio_rs", 0.7, 2.0, [0.0] * 3),
        # verl seq_mean_k3: k3 = e^l - 1 - l = 3 - 1 - ln 3 = 0.9014, 0.5 - 1 + ln 2 = 0.1931, 0; mean 0.3648
        ("k3_rs", None, 0.37, [1.0] * 3),
        ("k3_rs", None, 0.36, [0.0] * 3),
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


# -- verl's presets ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, bands, weight",
    [
        # Token-TIS alone: min(r, 2) = 2, 0.5, 1
        ("decoupled_token_is", {}, [2.0, 0.5, 1.0]),
        # Seq-MIS: Seq-TIS min(1.5, 2) = 1.5, and 1 / 1.5 = 0.667 inside the seq_sum_k1 band [0.5, 2]: kept
        ("decoupled_seq_is_rs", {}, [1.5] * 3),
        # Geo-RS at its default [0.999, 1.001]: the geometric mean 0.874 is outside -> the response dropped
        ("decoupled_geo_rs", {}, [0.0] * 3),
        # Geo-RS + Token-TIS with the band [0.8, 1.25]: kept, each token min(r, 2)
        ("decoupled_geo_rs_token_tis", {"rs_band": (0.8, 1.25)}, [2.0, 0.5, 1.0]),
        # K3-RS at 0.01: mean k3 0.3648 > 0.01 -> dropped; at 0.37 kept, with Seq-TIS 1.5
        ("decoupled_k3_rs", {}, [0.0] * 3),
        ("decoupled_k3_rs_seq_tis", {"rs_band": (None, 0.37)}, [1.5] * 3),
        # bypass PPO-clip: no weight (the clip acts on pi / pi_rollout)
        ("bypass_ppo_clip", {}, [1.0] * 3),
        # bypass REINFORCE + Geo-RS + Seq-TIS: the Seq-TIS weight is the bypass_pg objective's, the mask is here
        ("bypass_pg_geo_rs_seq_tis", {"rs_band": (0.8, 1.25)}, [1.0] * 3),
        # bypass REINFORCE + token IcePop, band [0.6, 5]: r = 3 and 1 inside, 0.5 dropped
        ("bypass_pg_token_icepop", {"is_band": (0.6, 5.0)}, [3.0, 0.0, 1.0]),
    ],
)
def test_preset_hand_values(name, bands, weight):
    w, kept = preset_weights(name, OLD, ROLL, MASK, **bands)
    assert torch.allclose(w, torch.tensor([weight], dtype=torch.float64), atol=1e-12, rtol=0)
    assert kept.tolist() == [[x != 0 for x in weight]]


def test_presets_compose_registry_entries():
    # every piece is a registry entry of the right kind; bypass mode names a registered objective whose
    # settings it fixes, and leaves an IS weight the objective holds out of its own pieces
    for name, spec in PRESETS.items():
        assert name.startswith(spec.mode) and get_preset(name) is spec
        assert spec.is_correction is None or CORRECTIONS[spec.is_correction].kind in ("truncate", "mask")
        assert spec.rs_correction is None or CORRECTIONS[spec.rs_correction].kind == "reject"
        if spec.mode == "bypass":
            objective = ALGORITHMS[spec.objective]
            assert {k for k, _ in spec.objective_settings} <= {s.name for s in objective.loss_settings}
            assert spec.loss_type == ("ppo_clip" if spec.objective == "ppo" else "reinforce")
            assert "bypass_mode=True" in spec.verl and spec.loss_type in spec.verl
        if spec.objective == "bypass_pg":
            assert spec.is_correction is None
    # bypass_pg_is is the bypass_pg objective at its defaults: nothing of its own
    defaults = {s.name: s.default for s in ALGORITHMS["bypass_pg"].loss_settings}
    assert all(defaults[k] == v for k, v in PRESETS["bypass_pg_is"].objective_settings)
    with pytest.raises(ValueError, match="^preset"):
        get_preset("decoupled_nothing")
    with pytest.raises(ValueError, match="^high"):
        preset_weights("decoupled_geo_rs", OLD, ROLL, MASK, rs_band=(0.9, -1.0))


def test_preset_importance_weight_wherever_it_lives_and_chinese_titles():
    # the weight a preset puts on the loss: its correction part's, or (bypass_pg) the objective's
    # bypass_is_level / bypass_is_cap: sequence level at cap 2 is sequence_tis on [0, 2], inside the loss
    assert PRESETS["decoupled_token_is"].importance_weight == ("token_tis", (None, 2.0), False)
    assert PRESETS["bypass_pg_is"].importance_weight == ("sequence_tis", (None, 2.0), True)
    assert PRESETS["bypass_pg_geo_rs_token_tis"].importance_weight == ("token_tis", (None, 2.0), True)
    assert PRESETS["bypass_ppo_clip"].importance_weight == (None, (None, None), False)  # PPO's clip bounds it
    # verl decoupled_seq_is_rs: rollout_is=sequence (threshold 2) + rollout_rs=seq_sum_k1 ('0.5_2.0')
    seq_mis = PRESETS["decoupled_seq_is_rs"]
    assert (seq_mis.is_correction, seq_mis.rs_correction, seq_mis.rs_band) == (
        "sequence_tis",
        "seq_ratio_rs",
        (0.5, 2.0),
    )
    for name, spec in PRESETS.items():  # every preset has a Chinese title, with Chinese in it
        assert spec.title_zh and any("\u4e00" <= ch <= "\u9fff" for ch in spec.label("zh")), name
        weight = spec.importance_weight[0]
        assert weight is None or CORRECTIONS[weight].kind in ("truncate", "mask"), name
