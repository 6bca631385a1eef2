"""The curves page's library and figures: every curve is policy_loss and its autograd gradient,
checked against hand-computed values (formula in the comment) and against a direct autograd call.
Generic checks run over every variant the registry defines (``variants()``), examples included."""

from __future__ import annotations

import dataclasses
import inspect
import json
import math

import numpy as np
import pandas as pd
import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rlviz.core.objectives import ALGORITHMS, TOKEN_STATES, Example, policy_loss
from rlviz.experiments.curves import (
    DEFAULT_VARIANTS,
    DUAL_VARIANT,
    CurveSettings,
    cases_variant_of,
    curves_frame,
    default_settings,
    dual_clip,
    evaluate,
    get_variant,
    gradient_support,
    own_settings,
    ppo_cases_frame,
    probability_frame,
    ratio_grid,
    reads_probability,
    run,
    support_frame,
    trust_region,
    variant_overrides,
    variants,
    x_axis,
    zoom_window,
)
from rlviz.i18n import t
from rlviz.plots import algorithm_style
from rlviz.plots import curves as curve_plots
from rlviz.plots.curves import (
    cases_table,
    curves_gallery_figure,
    curves_overlay_figure,
    probability_figure,
    support_table,
)

S = CurveSettings()
VARIANTS = tuple(variants())  # every algorithm of the registry and every example (ppo_dual)


def _spec(variant: str):
    return ALGORITHMS[get_variant(variant).algorithm]


def _hard(variant: str) -> bool:
    """A hard clip: the trust region zeroes the gradient (PPO, GRPO, DAPO, GSPO, GMPO ...)."""
    return "clipped" in _spec(variant).trust_region


def direct(variant: str, ratio: float, adv: float, s: CurveSettings = S) -> tuple[float, float]:
    """(J, dJ/d log pi) of ONE token by calling policy_loss and torch.autograd directly
    (a [1, 1] batch, so the aggregation weight is 1, pi_old = ``s.old_prob``): an independent path
    to the same numbers."""
    old = math.log(s.old_prob)
    lp = torch.tensor([[math.log(ratio) + old]], dtype=torch.float64, requires_grad=True)
    out = policy_loss(
        get_variant(variant).algorithm,
        lp,
        torch.full_like(lp, old),
        torch.tensor([adv], dtype=torch.float64),
        torch.ones_like(lp),
        **variant_overrides(variant, s),
    )
    (g,) = torch.autograd.grad(-out.loss, lp)
    return -float(out.per_token_loss.detach()[0, 0]), float(g[0, 0])


# ------------------------------------------------------------------------------- one source of truth
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("adv", [1.0, -1.0])
def test_each_curve_equals_autograd_of_policy_loss(variant, adv):
    ratios = np.array([0.05, 0.5, 0.79, 0.9, 0.9998, 1.0, 1.0002, 1.1, 1.25, 1.45, 1.6, 2.5, 3.2])
    df = evaluate(variant, ratios, adv, S)
    if _spec(variant).reads_probability:  # pi = r pi_old <= 1: the larger ratios are left out
        ratios = ratios[ratios <= 1 / S.old_prob]
    assert len(df) == len(ratios)
    for r, j, w in zip(ratios, df["objective"], df["gradient_weight"]):
        j_ref, w_ref = direct(variant, float(r), adv)
        assert j == pytest.approx(j_ref, abs=1e-12), (variant, r)
        assert w == pytest.approx(w_ref, abs=1e-12), (variant, r)


def test_curves_frame_matches_evaluate_and_has_the_csv_columns():
    df = curves_frame(DEFAULT_VARIANTS, S)
    for col in ("algorithm", "advantage", "ratio", "objective", "gradient_weight", "state"):
        assert col in df.columns
    assert set(df["algorithm"]) == set(DEFAULT_VARIANTS)
    assert set(df["advantage"]) == {1, -1}
    part = df[(df["algorithm"] == "dapo") & (df["advantage"] == 1)]
    again = evaluate("dapo", part["ratio"].to_numpy(), 1.0, S)
    np.testing.assert_array_equal(part["gradient_weight"].to_numpy(), again["gradient_weight"].to_numpy())
    assert np.isfinite(df[["ratio", "objective", "gradient_weight"]].to_numpy()).all()
    # the band edges are on the grid, so the drop is drawn at 1 + ε_high exactly
    assert (part["ratio"] == 1.28).any()


# ------------------------------------------------------------------------------- hand-computed values
@pytest.mark.parametrize(
    "variant, r, adv, j, w, state",
    [
        # PPO, ε = 0.2. A>0, r = 0.5: min(0.5, 0.8) = 0.5 = r·A, w = r·A = 0.5
        ("grpo", 0.5, 1.0, 0.5, 0.5, "active"),
        # A>0, r = 1.5: min(1.5, 1.2) = 1.2 (clipped branch, flat), w = 0
        ("grpo", 1.5, 1.0, 1.2, 0.0, "clipped"),
        # A<0, r = 0.5: min(-0.5, -0.8) = -0.8 (flat), w = 0
        ("grpo", 0.5, -1.0, -0.8, 0.0, "clipped"),
        # A<0, r = 1.5: min(-1.5, -1.2) = -1.5 = r·A, w = r·A = -1.5 (never clipped)
        ("grpo", 1.5, -1.0, -1.5, -1.5, "active"),
        # DAPO ε_high = 0.28: r = 1.25 is still inside: w = 1.25
        ("dapo", 1.25, 1.0, 1.25, 1.25, "active"),
        # dual clip c = 3, A<0, r = 3.5: max(min(-3.5, -1.2), 3·(-1)) = -3, w = 0
        ("ppo_dual", 3.5, -1.0, -3.0, 0.0, "clipped"),
        # dual clip leaves 1.2 < r < c alone: r = 2 -> J = -2, w = -2
        ("ppo_dual", 2.0, -1.0, -2.0, -2.0, "active"),
        # CISPO cap 1 + 0.2: r = 2, A>0: J = sg[min(r, 1.2)]·A = 1.2, w = 1.2 (kept, not zero)
        ("cispo", 2.0, 1.0, 1.2, 1.2, "capped"),
        # CISPO, no floor (ε_low = 1): r = 0.1, A<0: w = 0.1·(-1)
        ("cispo", 0.1, -1.0, -0.1, -0.1, "active"),
        # SAPO τ_pos = 1, r = 1: J = (4/τ)σ(0)A = 2, w = 4σ(1-σ)·r·A = 1; the gate is 1: active
        ("sapo", 1.0, 1.0, 2.0, 1.0, "active"),
        # r = 1.5: J = 4σ(0.5) = 2.489837, w = 4σ(0.5)σ(-0.5)·1.5 = 1.409814; gate 0.94 < 0.99: gated
        ("sapo", 1.5, 1.0, 4 / (1 + math.exp(-0.5)), 6 * math.exp(-0.5) / (1 + math.exp(-0.5)) ** 2, "gated"),
        # GMPO ε = 0.4, A>0, r = 2: log 2 > 0.4 -> J = e^0.4, w = 0
        ("gmpo", 2.0, 1.0, math.exp(0.4), 0.0, "clipped"),
        # GMPO A>0, r = 0.5: min(log 0.5, clip) = log 0.5 -> J = 0.5, w = 0.5
        ("gmpo", 0.5, 1.0, 0.5, 0.5, "active"),
        # GSPO ε_high = 4e-4: r = 1.0003 inside -> w = r; r = 1.001 outside -> flat at 1.0004, w = 0
        ("gspo", 1.0003, 1.0, 1.0003, 1.0003, "active"),
        ("gspo", 1.001, 1.0, 1.0004, 0.0, "clipped"),
    ],
)
def test_hand_computed_points(variant, r, adv, j, w, state):
    row = evaluate(variant, np.array([r]), adv, S).iloc[0]
    assert row["objective"] == pytest.approx(j, abs=1e-12)
    assert row["gradient_weight"] == pytest.approx(w, abs=1e-12)
    assert row["state"] == state


def test_sapo_weight_is_the_gate_times_r_and_tau_neg_decays_faster():
    # w = 4σ(τ(r-1))(1-σ(τ(r-1)))·r·A; r = 1.5, τ = 1: σ(0.5) = 0.622459 -> 4·0.622459·0.377541·1.5
    sig = 1 / (1 + math.exp(-0.5))
    row = evaluate("sapo", np.array([1.5]), 1.0, S).iloc[0]
    assert row["gradient_weight"] == pytest.approx(4 * sig * (1 - sig) * 1.5, rel=1e-12)
    assert row["gate"] == pytest.approx(4 * sig * (1 - sig), rel=1e-12)
    # claim 14: a larger τ_neg damps the A<0 side more, at the same distance from r = 1
    s = CurveSettings({"sapo": {"tau_pos": 1.0, "tau_neg": 3.0}})
    pos = evaluate("sapo", np.array([1.8]), 1.0, s)["gradient_weight"].iloc[0]
    neg = evaluate("sapo", np.array([1.8]), -1.0, s)["gradient_weight"].iloc[0]
    assert 0 < -neg < pos


@pytest.mark.parametrize("variant", VARIANTS)
def test_states_agree_with_the_gradient(variant):
    df = curves_frame([variant], S)
    zero = df["gradient_weight"] == 0.0
    assert set(df["state"]) <= set(TOKEN_STATES) - {"masked"}
    if _hard(variant):
        # a hard clip: "clipped" exactly where autograd gives a zero gradient
        assert ((df["state"] == "clipped") == zero).all()
        assert zero.any() and not zero.all()
    else:
        # CISPO's cap and SAPO's gate never give an exactly zero gradient on the axis (claims 13, 24)
        assert not zero.any() and not (df["state"] == "clipped").any()


def test_capped_and_gated_states():
    df = curves_frame(["cispo", "sapo"], S)
    assert set(df.loc[df["algorithm"] == "cispo", "state"]) == {"active", "capped"}
    sapo = df[df["algorithm"] == "sapo"]
    # SAPO is "gated" exactly where its gate weight 4σ(1-σ) is below 0.99, "active" near r = 1
    assert ((sapo["state"] == "gated") == (sapo["gate"] < 0.99)).all()
    assert set(sapo["state"]) == {"active", "gated"}
    assert (sapo.loc[(sapo["ratio"] - 1).abs() < 0.05, "state"] == "active").all()


# ------------------------------------------------------------------------------- where gradient flows
@pytest.mark.parametrize(
    "variant, adv, low, high",
    [
        ("grpo", 1, None, 1.2),  # claim 1/10: A>0 gets gradient on (0, 1+ε]
        ("grpo", -1, 0.8, None),  # A<0 on [1-ε, ∞)
        ("dapo", 1, None, 1.28),
        ("ppo_dual", -1, 0.8, 3.0),  # dual clip closes the negative side at c
        ("cispo", 1, None, None),  # never zero (claim 24)
        ("cispo", -1, None, None),
        ("sapo", 1, None, None),  # never zero (claim 13)
        ("sapo", -1, None, None),
        ("gmpo", 1, None, math.exp(0.4)),  # claim 17: log-space clip at e^0.4
        ("gmpo", -1, math.exp(-0.4), None),
        ("gspo", 1, None, 1.0004),  # ε of order 1e-4
        ("gspo", -1, 0.9997, None),
    ],
)
def test_gradient_support(variant, adv, low, high):
    lo, hi = gradient_support(variant, adv, S)
    for got, want in ((lo, low), (hi, high)):
        if want is None:
            assert got is None
        else:
            assert got == pytest.approx(want, rel=1e-9)


def test_support_frame_columns_and_unbounded_as_nan():
    df = support_frame(["grpo", "sapo"], S)
    assert list(df.columns) == ["algorithm", "title", "advantage", "low", "high", "band_low", "band_high"]
    grpo_pos = df[(df["algorithm"] == "grpo") & (df["advantage"] == 1)].iloc[0]
    assert math.isnan(grpo_pos["low"]) and grpo_pos["high"] == pytest.approx(1.2)
    assert df[df["algorithm"] == "sapo"][["low", "high", "band_low"]].isna().all().all()


def test_ppo_six_cases_and_dual():
    # defaults: PPO's ε_low = ε_high = 0.2 and Dual-clip PPO's c = 3
    df = ppo_cases_frame(S)
    got = {
        (a, reg): (b, z)
        for a, reg, b, z in df[["advantage", "region", "branch", "zero_gradient"]].itertuples(index=False)
    }
    assert got == {
        (1, "below"): ("unclipped", False),
        (1, "inside"): ("equal", False),
        (1, "above"): ("clipped", True),
        (-1, "below"): ("clipped", True),
        (-1, "inside"): ("equal", False),
        (-1, "above"): ("unclipped", False),
        (-1, "beyond_c"): ("dual", True),
    }
    # A<0 above the band: J = r·A at r = 1.4·1.2 = 1.68
    row = df[(df["advantage"] == -1) & (df["region"] == "above")].iloc[0]
    assert row["ratio"] == pytest.approx(1.68) and row["objective"] == pytest.approx(-1.68)
    assert row["gradient_weight"] == pytest.approx(-1.68)
    dual = df[df["region"] == "beyond_c"].iloc[0]  # r = 1.25·3 = 3.75: J = c·A = -3
    assert dual["ratio"] == pytest.approx(3.75) and dual["objective"] == pytest.approx(-3.0)


def test_six_cases_follow_ppo_and_dual_clip_ppo():
    s = CurveSettings({"ppo": {"epsilon_high": 0.3, "dual_clip_c": 1.5}, "ppo_dual": {"dual_clip_c": 2.0}})
    df = ppo_cases_frame(s).set_index(["advantage", "region"])
    # above: 1.4·1.3 = 1.82; A>0 clipped at 1.3; A<0 unclipped (PPO's own dual clip stays out of the six)
    assert df.loc[(1, "above"), "ratio"] == pytest.approx(1.82)
    assert df.loc[(1, "above"), "objective"] == pytest.approx(1.3)
    assert df.loc[(-1, "above"), "objective"] == pytest.approx(-1.82)
    assert df.loc[(-1, "above"), "branch"] == "unclipped"
    # the seventh case takes Dual-clip PPO's c = 2: r = 2.5, J = -2
    assert df.loc[(-1, "beyond_c"), "ratio"] == pytest.approx(2.5)
    assert df.loc[(-1, "beyond_c"), "objective"] == pytest.approx(-2.0)
    # with Dual-clip PPO's dual clip switched off there are six
    off = ppo_cases_frame(CurveSettings({"ppo_dual": {"dual_clip_c": None}}))
    assert len(off) == 6 and "beyond_c" not in set(off["region"])


# ------------------------------------------------------------------------------- probability view
def test_probability_view_02_to_024_and_0256():
    # claim 2: π_old = 0.2 -> 0.2·1.2 = 0.24 (room 0.04); clip-higher 0.2·1.28 = 0.256 (room 0.056)
    df, ceilings = probability_frame(S, marks=(0.2, 0.9))
    assert ceilings["grpo"] == pytest.approx(1.2, rel=1e-9) and ceilings["dapo"] == pytest.approx(1.28, rel=1e-9)
    at = df[df["pi_old"] == 0.2].set_index("algorithm")
    assert at.loc["grpo", "pi_new_max"] == pytest.approx(0.24, abs=1e-9)
    assert at.loc["dapo", "pi_new_max"] == pytest.approx(0.256, abs=1e-9)
    assert at.loc["grpo", "room"] == pytest.approx(0.04, abs=1e-9)
    assert at.loc["dapo", "room"] == pytest.approx(0.056, abs=1e-9)
    # a likely token is capped by 1, not by the clip: 0.9·1.28 > 1
    assert df[(df["pi_old"] == 0.9) & (df["algorithm"] == "dapo")]["pi_new_max"].iloc[0] == 1.0
    assert df["marked"].sum() == 4
    # rare tokens barely grow: the room grows with π_old below the cap
    part = df[(df["algorithm"] == "grpo") & (df["pi_old"] < 0.8)].sort_values("pi_old")
    assert np.all(np.diff(part["room"].to_numpy()) > 0)


def test_probability_view_follows_the_sliders():
    # each compared variant uses its own ε_high slider
    df, ceilings = probability_frame(CurveSettings({"grpo": {"epsilon_high": 0.3}, "dapo": {"epsilon_high": 0.5}}))
    assert ceilings["grpo"] == pytest.approx(1.3) and ceilings["dapo"] == pytest.approx(1.5)
    at = df[df["pi_old"] == 0.2].set_index("algorithm")["pi_new_max"]
    assert at["grpo"] == pytest.approx(0.26) and at["dapo"] == pytest.approx(0.3)
    # any variants can be compared: CISPO never stops (r* = ∞, capped by π = 1)
    df, ceilings = probability_frame(S, variants=("ppo_dual", "cispo"))
    assert ceilings == {"ppo_dual": pytest.approx(1.2), "cispo": math.inf}
    assert set(df["algorithm"]) == {"ppo_dual", "cispo"}


# ------------------------------------------------------------------------------- invariants
def _value(setting):
    """Any value the page's control of ``setting`` can take (its choices or its slider range; None
    too for an optional one)."""
    if setting.choices:
        values = st.sampled_from(setting.choices)
    else:
        low, high, _ = setting.range
        values = st.floats(low, high)
    return st.one_of(st.none(), values) if setting.default is None else values


@st.composite
def variant_and_settings(draw):
    variant = draw(st.sampled_from(VARIANTS))
    chosen = {s.name: draw(_value(s)) for s in _spec(variant).surrogate_settings}
    return variant, CurveSettings({variant: chosen}, old_prob=draw(st.floats(0.01, 0.99)))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(vs=variant_and_settings(), adv=st.sampled_from([1.0, -1.0]))
def test_invariants(vs, adv):
    variant, s = vs
    df = evaluate(variant, ratio_grid(0.02, 3.5, 60, [1.0]), adv, s)
    r, j, w = (df[c].to_numpy() for c in ("ratio", "objective", "gradient_weight"))
    assert r.max() <= 1 / s.old_prob or not _spec(variant).reads_probability
    assert np.isfinite(j).all() and np.isfinite(w).all()
    if _spec(variant).monotone:
        # the objective never decreases as r moves in the direction A asks for
        assert np.all(np.diff(j) * adv >= -1e-12)
        # the weight never points against the advantage
        assert np.all(w * adv >= 0)
    kinds = _spec(variant).trust_region
    if _hard(variant) and "capped" not in kinds:
        # a hard clip either passes the plain r·A or nothing at all; exactly at the dual clip's
        # bound r = c, where min(loss, -A·c) meets its constant branch, autograd splits the gradient
        # evenly between the two (torch.minimum's rule, and verl's torch.min): half of r·A there
        ok = (w == 0) | np.isclose(w, r * adv, rtol=1e-12, atol=0)
        c = dual_clip(variant, s)
        if c is not None and adv < 0:
            ok |= (r == c) & np.isclose(w, 0.5 * r * adv, rtol=1e-12, atol=0)
        assert ok.all()
    elif not _hard(variant):
        assert np.all(w != 0)  # CISPO and SAPO: never exactly zero
    else:  # a band and a cap (ASPO): zero past the band, never above the cap c in size
        assert np.all(np.abs(w) <= s.overrides[variant].get("aspo_dual_c", np.inf) + 1e-12)
    # on-policy (r = 1) every objective gives the plain policy gradient A
    assert w[np.argmin(abs(r - 1.0))] == pytest.approx(adv, rel=1e-9)


def test_dual_clip_at_its_bound_takes_half_the_gradient_as_verl():
    # PPO with dual clip c = 3.5, A = -1, r exactly 3.5: the loss is min(max(-A r, -A clip(r)), -A c)
    # = min(3.5, 3.5); d/dr splits evenly between the branches (torch.minimum, as verl's
    # compute_policy_loss takes torch.min(pg_losses3, clip_pg_losses1)): d loss/dr = -A/2 = 0.5, so
    # the weight r·(-d loss/dr) = 3.5 · (-0.5) = -1.75, half of r·A = -3.5. Just inside and outside
    # the bound it is the whole r·A and nothing. (The ratio goes through its log: exp(log 3.5) is
    # 3.5 exactly in float64, where exp(log 3) is not 3, so at c = 3 no grid point ties.)
    s = CurveSettings({DUAL_VARIANT: {"dual_clip_c": 3.5}})
    df = evaluate(DUAL_VARIANT, np.array([3.5 - 1e-9, 3.5, 3.5 + 1e-9]), -1.0, s)
    assert df["gradient_weight"].tolist() == pytest.approx([-(3.5 - 1e-9), -1.75, 0.0], abs=1e-12)


# ------------------------------------------------------------------------------- settings and errors
def test_defaults_come_from_the_registry():
    assert default_settings("grpo") == {"epsilon_low": 0.2, "epsilon_high": 0.2, "dual_clip_c": None}
    assert default_settings("dapo") == {"epsilon_low": 0.2, "epsilon_high": 0.28, "dual_clip_c": None}
    assert default_settings("ppo_dual") == {"epsilon_low": 0.2, "epsilon_high": 0.2, "dual_clip_c": 3.0}
    assert default_settings("sapo") == {"tau_pos": 1.0, "tau_neg": 1.05}
    assert default_settings("gmpo") == {"epsilon_low": 0.4, "epsilon_high": 0.4}
    assert default_settings("cispo") == {"epsilon_low": 1.0, "epsilon_high": 0.2}
    assert default_settings("gspo") == default_settings("gspo_token") == {"epsilon_low": 3e-4, "epsilon_high": 4e-4}
    assert trust_region("grpo", S) == pytest.approx((0.8, 1.2))
    assert trust_region("gmpo", S) == pytest.approx((math.exp(-0.4), math.exp(0.4)))
    assert trust_region("cispo", S) == (0.0, 1.2)
    assert trust_region("sapo", S) is None
    assert dual_clip("ppo_dual", S) == 3.0 and dual_clip("ppo", S) is None and dual_clip("sapo", S) is None
    assert zoom_window(DEFAULT_VARIANTS, S) == pytest.approx((0.999, 1.001))
    assert variant_overrides("ppo_dual", S)["dual_clip_c"] == 3.0
    assert get_variant("ppo_dual").title == "Dual-clip PPO" and get_variant("ppo_dual").algorithm == "ppo"


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_variant_has_no_kl_and_its_defaults(variant):
    params = variant_overrides(variant, S)
    assert params["beta"] == 0.0  # no KL term on this page
    assert {k: params[k] for k in default_settings(variant)} == default_settings(variant)


def test_zoom_window_fits_the_narrowest_ratio_band():
    # 1 ± 2.5 ε of the narrowest ratio-space band among the chosen (each band's wider side)
    assert zoom_window(["grpo", "dapo"], S) == pytest.approx((0.5, 1.5))  # ε = 0.2
    assert zoom_window(["gspo", "grpo"], CurveSettings({"gspo": {"epsilon_high": 1e-2}})) == pytest.approx(
        (0.975, 1.025)
    )
    # no ratio-space band (SAPO's gate, GMPO's log-space clip): the floor 1 ± 5e-4
    assert zoom_window(["sapo", "gmpo"], S) == pytest.approx((0.9995, 1.0005))
    assert zoom_window(["gspo"], CurveSettings({"gspo": {"epsilon_low": 0.0, "epsilon_high": 0.0}})) == pytest.approx(
        (0.9995, 1.0005)
    )


@pytest.mark.parametrize(
    "variant, values, param",
    [
        ("ppo", {"epsilon_low": -0.1}, "epsilon_low"),
        ("gspo", {"epsilon_high": float("nan")}, "epsilon_high"),
        ("ppo_dual", {"dual_clip_c": 1.0}, "dual_clip_c"),
        ("sapo", {"tau_neg": 0.0}, "tau_neg"),
        ("cispo", {"epsilon_high": float("inf")}, "epsilon_high"),
        ("dapo", {"beta": 0.1}, "beta"),  # not a curve setting: no KL on this page
        ("dapo", {"tau_pos": 1.0}, "tau_pos"),  # not a setting of DAPO
    ],
)
def test_bad_settings_raise_naming_the_parameter(variant, values, param):
    with pytest.raises(ValueError, match=f"^{param}:"):
        run([variant], CurveSettings({variant: values}))
    with pytest.raises(ValueError, match=param):
        variant_overrides(variant, CurveSettings({variant: values}))


def test_a_bad_value_names_the_variant_too():
    # the same parameter name appears in many panels: the message says which one
    with pytest.raises(ValueError, match=r"^epsilon_low: must be >= 0.*\(in DAPO\)$"):
        run(["grpo"], CurveSettings({"dapo": {"epsilon_low": -0.5}}))


def test_bad_inputs_raise_naming_the_parameter():
    with pytest.raises(ValueError, match="variant"):
        run(["reinforce"], S)
    with pytest.raises(ValueError, match="variant"):
        run(["grpo"], CurveSettings({"reinforce": {"epsilon_low": 0.1}}))
    with pytest.raises(ValueError, match="ratios"):
        evaluate("grpo", np.array([0.0, 1.0]), 1.0, S)
    with pytest.raises(ValueError, match="ratios"):
        evaluate("grpo", np.array([np.nan]), 1.0, S)
    with pytest.raises(ValueError, match="advantage"):
        evaluate("grpo", np.array([1.0]), 0.0, S)
    with pytest.raises(ValueError, match="r_max"):
        ratio_grid(1.0, 0.5, 10)
    with pytest.raises(ValueError, match="r_min"):
        ratio_grid(0.0, 3.0, 10)
    with pytest.raises(ValueError, match="n"):
        ratio_grid(0.1, 3.0, 1)
    with pytest.raises(ValueError, match="marks"):
        probability_frame(S, marks=(1.0,))


def test_run_zoom_and_empty():
    res = run(["gspo", "grpo"], S, zoom=True)
    lo, hi = res.x_range
    assert (lo, hi) == pytest.approx((0.999, 1.001))
    assert res.curves["ratio"].between(lo, hi).all()
    gspo = res.curves[(res.curves["algorithm"] == "gspo") & (res.curves["advantage"] == 1)]
    assert (gspo["state"] == "clipped").any() and (gspo["state"] == "active").any()  # the band is visible
    grpo = res.curves[res.curves["algorithm"] == "grpo"]
    assert (grpo["state"] == "active").all()  # at this scale PPO's clip is wide open
    empty = run([], S)
    assert empty.curves.empty and empty.support.empty and len(empty.cases) == 7


# ------------------------------------------------------------------------------- figures
def _labels(lang: str, *keys: str, **extra: str) -> dict[str, str]:
    """What the page's ``app_common.labels("curves", ...)`` builds, in ``lang``."""
    return {k: t(f"curves.{k}", lang) for k in keys} | extra


HOVER_KEYS = ("j_short", "w_short", "gate_label", *(f"state.{s}" for s in TOKEN_STATES))


def overlay_labels(lang: str) -> dict[str, str]:
    panels = {
        f"panel_{q}_{name}": t(f"curves.panel_{q}", lang, sign=sign)
        for q in ("j", "w")
        for name, sign in (("pos", "A = +1"), ("neg", "A = −1"))
    }
    return _labels(lang, "x_title", "j_axis", "w_axis", *HOVER_KEYS, **panels)


def gallery_labels(lang: str) -> dict[str, str]:
    return _labels(lang, "legend_j", "legend_w", "x_short", *HOVER_KEYS)


def _values(fig) -> list[float]:
    spec = json.loads(fig.to_json())
    out = []
    for trace in spec["data"]:
        for axis in ("x", "y"):
            v = trace.get(axis)
            if isinstance(v, dict) and "bdata" in v:
                import base64

                v = np.frombuffer(base64.b64decode(v["bdata"]), dtype=np.dtype(v["dtype"])).tolist()
            out += [float("nan") if x is None else float(x) for x in (v or [])]
    return out


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_overlay_and_gallery_figures(lang):
    res = run(DEFAULT_VARIANTS, S)
    assert res.first_band == ("grpo", pytest.approx((0.8, 1.2)))  # the overlay's band: the first chosen
    fig = curves_overlay_figure(res.curves, overlay_labels(lang), x_range=res.x_range, band=res.first_band[1])
    assert len(fig.data) == 4 * len(DEFAULT_VARIANTS)
    assert sum(bool(t.showlegend) for t in fig.data) == len(DEFAULT_VARIANTS)
    assert all(math.isfinite(v) for v in _values(fig))
    assert "zero" not in fig.data[0].hovertemplate  # the state text comes per point
    assert any(("梯度为零" if lang == "zh" else "zero gradient") in c for t in fig.data for c in t.text)
    assert res.dual_clips["ppo_dual"] == 3.0 and res.dual_clips["grpo"] is None
    gallery = curves_gallery_figure(
        res.curves, gallery_labels(lang), bands=res.bands, x_range=res.x_range, dual_clips=res.dual_clips
    )
    assert len(gallery.data) == 4 * len(DEFAULT_VARIANTS)
    assert all(math.isfinite(v) for v in _values(gallery))
    titles = [a.text for a in gallery.layout.annotations]
    assert "Dual-clip PPO" in titles and "GSPO" in titles
    # the A>0 / A<0 tags have no box: zoomed in, a box hid the ends of the lines under it (and drew a
    # white patch on the dark theme)
    tags = [a for a in gallery.layout.annotations if a.text in ("A>0", "A<0")]
    assert len(tags) == 2 * len(DEFAULT_VARIANTS) and all(a.bgcolor is None for a in tags)
    # red shading: one rectangle per run of zero-gradient points; GRPO, DAPO, GMPO, GSPO: one per sign;
    # Dual-clip PPO: A<0 has two (below 1-ε and above c); none for SAPO and CISPO
    rects = [s for s in gallery.layout.shapes if s.type == "rect" and s.fillcolor == "#D55E00"]
    runs = 0
    for v in DEFAULT_VARIANTS:
        for a in (1, -1):
            part = res.curves[(res.curves["algorithm"] == v) & (res.curves["advantage"] == a)].sort_values("ratio")
            zero = (part["gradient_weight"] == 0.0).to_numpy().astype(int)
            runs += int(zero[0]) + int(np.sum(np.diff(zero) == 1))
    assert len(rects) == runs == 11
    # a dashed line at the dual clip c = 3, in Dual-clip PPO's panel only
    dashed = [s for s in gallery.layout.shapes if s.type == "line" and s.line.dash == "dash"]
    assert [s.x0 for s in dashed] == [3.0]
    log = curves_overlay_figure(res.curves, overlay_labels(lang), x_range=res.x_range, log_x=True)
    assert log.layout.xaxis.type == "log"


def test_probability_figure_and_tables():
    prob, _ = probability_frame(S, marks=(0.1, 0.2))
    prob_keys = (f"prob_{k}" for k in ("left", "right", "identity", "hover", "x", "y_left", "y_right"))
    fig = probability_figure(prob, _labels("en", *prob_keys, **{"name.grpo": "GRPO (0.2)", "name.dapo": "DAPO (0.28)"}))
    assert all(math.isfinite(v) for v in _values(fig))
    marks = {
        (t.legendgroup, x, s, p) for t in fig.data if t.text is not None for x, s, p in zip(t.x, t.text, t.textposition)
    }
    # pi_new = pi_old (1 + ε_high): 0.2 · 1.2 = 0.240 (GRPO), 0.2 · 1.28 = 0.256 (DAPO); the room 0.040 / 0.056.
    # The higher line (DAPO) is labelled above-left, but right of a point near the y axis (its ticks)
    assert {("grpo", 0.2, "0.240", "bottom right"), ("dapo", 0.2, "0.256", "top left")} <= marks
    assert {("grpo", 0.2, "+0.040", "bottom right"), ("dapo", 0.2, "+0.056", "top left")} <= marks
    assert {("dapo", 0.1, "0.128", "top right"), ("dapo", 0.1, "+0.028", "top right")} <= marks
    assert {t.name for t in fig.data if t.showlegend is not False} >= {"GRPO (0.2)", "DAPO (0.28)"}
    # values=False (a question they answer waits): the same points, lines and legend, no value written
    bare = probability_figure(prob, _labels("en", "prob_left"), values=False)
    assert not [t for t in bare.data if t.text is not None]
    points = [t for t in bare.data if t.mode == "markers"]
    assert sorted(x for t in points for x in t.x) == sorted(x for t in fig.data if t.text is not None for x in t.x)
    assert len(bare.data) == len(fig.data)
    support_keys = (f"support.{k}" for k in ("col_band", "col_pos", "col_neg", "all", "no_band"))
    support_labels = _labels("en", *support_keys, algorithm=t("word.algorithm", "en"))
    table = support_table(support_frame(["grpo", "ppo_dual", "sapo"], S), support_labels)
    assert list(table.columns) == ["algorithm", "clip range of r", "A>0: gradient where", "A<0: gradient where"]
    assert table.iloc[0].tolist() == ["GRPO", "[0.8, 1.2]", "r ≤ 1.2", "r ≥ 0.8"]
    assert table.iloc[1].tolist()[-1] == "0.8 ≤ r ≤ 3"
    # SAPO's gate never reaches 0: no band, and a gradient at every ratio on both sides
    assert table.iloc[2].tolist()[1:] == [t("curves.support.no_band", "en")] + [t("curves.support.all", "en")] * 2
    cases_keys = [
        f"cases.col_{k}" for k in ("case", "zero_gradient", "branch", "ratio", "objective", "gradient_weight")
    ]
    cases_keys += [f"cases.region_{k}" for k in ("below", "inside", "above", "beyond_c")]
    cases_keys += [f"cases.branch_{k}" for k in ("unclipped", "clipped", "equal", "dual")] + ["cases.yes", "cases.no"]
    cases = ppo_cases_frame(S)
    styler = cases_table(cases, _labels("zh", *cases_keys))
    html = styler.to_html()
    assert "梯度为零？" in html and "rgba(213, 94, 0, 0.16)" in html
    # the rows with zero gradient are shaded, every cell of them, and no other row
    styled = {(r, c) for (r, c), props in styler._compute().ctx.items() if props}
    zero = set(np.flatnonzero(cases["zero_gradient"]))
    assert zero and styled == {(r, c) for r in zero for c in range(styler.data.shape[1])}


BUILDERS = (curves_overlay_figure, curves_gallery_figure, probability_figure, support_table, cases_table)


def test_words_reach_the_builders_only_through_labels():
    # no language code and no i18n lookup in rlviz.plots.curves: one ``labels`` mapping per builder
    assert "rlviz.i18n" not in inspect.getsource(curve_plots)
    for builder in BUILDERS:
        params = inspect.signature(builder).parameters
        assert "lang" not in params and "labels" in params, builder.__name__
        assert not [p for p in params if p.endswith(("_title", "_label"))], builder.__name__
        assert "``labels``" in builder.__doc__, builder.__name__  # its keys are documented
    # a missing key shows the key itself (a probability line without a name: its title)
    res = run(("grpo", "sapo"), S)
    fig = curves_overlay_figure(res.curves, {}, x_range=res.x_range)
    assert [a.text for a in fig.layout.annotations] == ["panel_j_pos", "panel_j_neg", "panel_w_pos", "panel_w_neg"]
    assert fig.layout.xaxis3.title.text == "x_title"
    assert "state.clipped" in set(fig.data[0].text) and "j_short" in fig.data[0].hovertemplate
    assert any(c.startswith("state.gated · gate_label ") for tr in fig.data for c in tr.text)  # SAPO's gate
    gallery = curves_gallery_figure(res.curves, {"legend_w": "w"}, bands=res.bands, x_range=res.x_range)
    assert {tr.name for tr in gallery.data} == {"legend_j", "w"}
    prob, _ = probability_frame(S, marks=(0.2,))
    names = {tr.name for tr in probability_figure(prob, {"name.grpo": "GRPO (0.2)"}).data if tr.name}
    assert {"prob_identity", "GRPO (0.2)", "DAPO"} <= names
    assert list(support_table(res.support, {}).columns)[0] == "algorithm"
    assert "cases.col_zero_gradient" in cases_table(ppo_cases_frame(S), {}).data.columns


def test_variant_styles():
    assert algorithm_style("ppo_dual")["color"] == algorithm_style("ppo")["color"]
    assert algorithm_style("ppo_dual")["dash"] != algorithm_style("ppo")["dash"]
    assert len({(algorithm_style(v)["color"], algorithm_style(v)["dash"]) for v in VARIANTS}) == len(VARIANTS)


@pytest.mark.parametrize("tau", [1.0, 10.0])
def test_sapo_gradient_never_exactly_zero_on_the_scan(tau):
    # SAPO: w = A·4σ(x)σ(−x)·r with x = τ(r − 1): tiny far out (≈ 4·e^(−190)·20 at τ = 10, r = 20) but
    # never an exact 0, so the support table says "every r" at any temperature the sliders allow.
    settings = CurveSettings({"sapo": {"tau_pos": tau, "tau_neg": tau}})
    for sign in (1.0, -1.0):
        lo, hi = gradient_support("sapo", sign, settings)
        assert lo is None and hi is None


# ------------------------------------------------------------------------------- the registry drives it
def test_a_registry_entry_added_at_runtime_is_a_variant(monkeypatch):
    copy = dataclasses.replace(ALGORITHMS["dapo"], name="dapo_copy", title="DAPO copy", style=None)
    monkeypatch.setitem(ALGORITHMS, "dapo_copy", copy)
    assert "dapo_copy" in variants() and get_variant("dapo_copy").title == "DAPO copy"
    assert default_settings("dapo_copy") == default_settings("dapo")
    res = run(["dapo", "dapo_copy"], CurveSettings({"dapo_copy": {"epsilon_high": 0.5}}))
    assert res.bands["dapo_copy"] == pytest.approx((0.8, 1.5)) and res.bands["dapo"] == pytest.approx((0.8, 1.28))
    support = res.support.set_index(["algorithm", "advantage"])
    assert support.loc[("dapo_copy", 1), "high"] == pytest.approx(1.5, rel=1e-9)
    assert algorithm_style("dapo_copy") != algorithm_style("dapo")  # a colour of its own
    # same settings, same curves as DAPO's
    same = curves_frame(["dapo", "dapo_copy"], S)
    a, b = (same[same["algorithm"] == v].reset_index(drop=True) for v in ("dapo", "dapo_copy"))
    np.testing.assert_array_equal(a["gradient_weight"], b["gradient_weight"])
    monkeypatch.delitem(ALGORITHMS, "dapo_copy")
    assert "dapo_copy" not in variants()  # nothing cached


def test_an_example_of_a_new_entry_is_a_variant_with_its_overrides(monkeypatch):
    spec = dataclasses.replace(
        ALGORITHMS["grpo"],
        name="grpo_x",
        title="GRPO-x",
        examples=(Example("wide", "Wide GRPO-x", {"epsilon_high": 0.5}),),
    )
    monkeypatch.setitem(ALGORITHMS, "grpo_x", spec)
    assert get_variant("grpo_x_wide").algorithm == "grpo_x"
    assert default_settings("grpo_x_wide")["epsilon_high"] == 0.5
    assert trust_region("grpo_x_wide", S) == pytest.approx((0.8, 1.5))
    assert gradient_support("grpo_x_wide", 1.0, S)[1] == pytest.approx(1.5, rel=1e-9)


def test_an_example_key_that_clashes_is_an_error(monkeypatch):
    spec = dataclasses.replace(ALGORITHMS["gspo"], examples=(Example("token", "clash", {}),))
    monkeypatch.setitem(ALGORITHMS, "gspo", spec)
    with pytest.raises(ValueError, match="gspo_token"):
        variants()


def test_clip_cases_follow_the_sliders_the_learner_sees():
    # with Dual-clip PPO chosen and plain PPO not, the six cases use Dual-clip PPO's own ε (its
    # panel's sliders); with PPO chosen, PPO's: 1 - ε_low = 0.5 puts the "below" ratio under 0.5
    s = CurveSettings(overrides={"ppo_dual": {"epsilon_low": 0.5, "epsilon_high": 0.5}})
    res = run(["grpo", "ppo_dual"], s)
    assert res.cases_variant == "ppo_dual"
    below = res.cases[res.cases["region"] == "below"]["ratio"]
    assert (below < 0.5).all()
    assert run(["grpo"], s).cases_variant == "ppo"  # none chosen: PPO's registry settings


# ------------------------------------------------------------------------------- pi_old (DPPO)
@pytest.mark.parametrize(
    "variant, old, adv, low, high",
    [
        # TV: masked once pi - pi_old passes ±δ (δ = 0.15), pi = r pi_old: r = 1 ± δ / pi_old
        ("dppo_tv", 0.2, 1, None, 1 + 0.15 / 0.2),  # 1.75: a rare token may move far in ratio
        ("dppo_tv", 0.2, -1, 1 - 0.15 / 0.2, None),  # 0.25
        ("dppo_tv", 0.5, 1, None, 1 + 0.15 / 0.5),  # 1.3
        ("dppo_tv", 0.5, -1, 1 - 0.15 / 0.5, None),  # 0.7
        ("dppo_tv", 0.9, 1, None, None),  # 1 + 0.15/0.9 > 1/0.9: pi reaches 1 first, no bound
    ],
)
def test_dppo_tv_support_follows_pi_old(variant, old, adv, low, high):
    lo, hi = gradient_support(variant, adv, CurveSettings(old_prob=old))
    for got, want in ((lo, low), (hi, high)):
        if want is None:
            assert got is None
        else:
            assert got == pytest.approx(want, rel=1e-6)


def test_dppo_kl_support_is_where_the_binary_kl_reaches_delta():
    # binary KL at pi_old = 0.5, delta = 0.05: D(p) = 0.5 log(0.5/p) + 0.5 log(0.5/(1-p)) = 0.05
    # -> p(1-p) = 0.25 e^-0.1 -> p = (1 + sqrt(1 - e^-0.1)) / 2; the ratio bound is p / 0.5
    p = (1 + math.sqrt(1 - math.exp(-0.1))) / 2
    _, hi = gradient_support("dppo_kl", 1, CurveSettings(old_prob=0.5))
    lo, _ = gradient_support("dppo_kl", -1, CurveSettings(old_prob=0.5))
    assert hi == pytest.approx(2 * p, rel=1e-6)
    assert lo == pytest.approx(2 * (1 - p), rel=1e-6)


@pytest.mark.parametrize("variant", VARIANTS)
def test_pi_old_moves_exactly_the_objectives_that_read_probabilities(variant):
    # the registry flag is what the page reads; this ties it to what policy_loss does
    grid = np.geomspace(0.05, 1.0 / 0.7, 60)  # every ratio possible at both pi_old values
    a = [evaluate(variant, grid, adv, CurveSettings(old_prob=0.3)) for adv in (1.0, -1.0)]
    b = [evaluate(variant, grid, adv, CurveSettings(old_prob=0.7)) for adv in (1.0, -1.0)]
    same = all(
        np.allclose(x[c], y[c], rtol=1e-12, atol=1e-15) for x, y in zip(a, b) for c in ("objective", "gradient_weight")
    )
    assert same != _spec(variant).reads_probability


def test_a_probability_curve_ends_where_pi_reaches_one():
    frame = curves_frame(["dppo_tv", "grpo"], CurveSettings(old_prob=0.4))
    top = frame.groupby("algorithm")["ratio"].max()
    assert top["dppo_tv"] == pytest.approx(1 / 0.4)  # 2.5: pi = r pi_old = 1
    assert top["grpo"] == pytest.approx(3.5)  # a ratio-only objective keeps the whole axis
    # the mask's edges are on the grid, so the jump draws sharp: 1 + 0.15/0.4 = 1.375 for A > 0
    pos = frame[(frame["algorithm"] == "dppo_tv") & (frame["advantage"] == 1)]
    assert (pos["ratio"] - 1.375).abs().min() < 1e-6
    assert np.isfinite(frame[["objective", "gradient_weight"]].to_numpy()).all()


@pytest.mark.parametrize("old", [0.0, 1.0, -0.2, math.nan, math.inf, "0.5", True])
def test_a_bad_pi_old_is_named(old):
    with pytest.raises(ValueError, match="old_prob"):
        curves_frame(["grpo"], CurveSettings(old_prob=old))


def test_a_spec_is_the_validated_figure():
    # as_spec (what the page caches and shows without validating) is the same figure: plotly validates
    # it here, and its JSON is the JSON of the builder's go.Figure
    import plotly.graph_objects as go

    res = run(("grpo", "sapo", "ppo_dual"), S)
    prob, _ = probability_frame(S, marks=(0.2, 0.3))
    builds = (
        lambda **kw: curves_overlay_figure(res.curves, overlay_labels("zh"), x_range=res.x_range, log_x=True, **kw),
        lambda **kw: curves_gallery_figure(
            res.curves, gallery_labels("en"), bands=res.bands, x_range=res.x_range, dual_clips=res.dual_clips, **kw
        ),
        lambda **kw: probability_figure(prob, {"name.grpo": "GRPO (0.2)"}, **kw),
    )
    for build in builds:
        spec = build(as_spec=True)
        assert isinstance(spec, dict) and isinstance(spec["data"][-1]["x"], dict)  # typed arrays, as sent
        assert json.loads(go.Figure(spec).to_json()) == json.loads(build().to_json())


# ------------------------------------------------------------------------------- parts the page keeps
WIDE = CurveSettings({"grpo": {"epsilon_low": 0.3, "epsilon_high": 0.5}, "ppo_dual": {"dual_clip_c": 2.0}})


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_variants_curve_does_not_depend_on_the_others_drawn_with_it(variant):
    # each variant on its own grid: its part of a frame of many is its frame alone (the page keeps it
    # by its own sliders), here beside two variants whose band edges and dual clip are elsewhere
    together = curves_frame([variant, "grpo", "ppo_dual"], WIDE)
    alone = curves_frame([variant], WIDE)
    mine = together[together["algorithm"] == variant].reset_index(drop=True)
    assert mine.equals(alone)


@pytest.mark.parametrize("zoom", [False, True])
def test_run_from_the_parts_is_run(zoom):
    # run() given each variant's parts (what pages/curves.py caches) equals run() finding them itself
    chosen = ("grpo", "ppo_dual", "sapo", "gspo")
    whole = run(chosen, WIDE, zoom=zoom)
    (r_min, r_max), n = x_axis(chosen, WIDE, zoom)
    parts = run(
        chosen,
        WIDE,
        zoom=zoom,
        support=pd.concat([support_frame([v], WIDE) for v in chosen], ignore_index=True),
        curves=pd.concat([curves_frame([v], WIDE, r_min, r_max, n=n) for v in chosen], ignore_index=True),
        cases=ppo_cases_frame(WIDE, variant=cases_variant_of(chosen)),
    )
    for name in ("curves", "support", "cases"):
        assert getattr(parts, name).equals(getattr(whole, name)), name
    assert (parts.x_range, parts.bands, parts.cases_variant) == (whole.x_range, whole.bands, whole.cases_variant)
    # the dual-clip variant alone gives the clip cases its own ε (the table follows sliders one sees)
    assert cases_variant_of(["ppo_dual", "grpo"]) == "ppo_dual" and cases_variant_of(["grpo"]) == "ppo"


def test_probability_frame_from_the_support_is_the_same():
    marks = (0.2, 0.35)
    frame, ceilings = probability_frame(WIDE, marks=marks)
    given, given_ceilings = probability_frame(WIDE, marks=marks, support=support_frame(("grpo", "dapo"), WIDE))
    assert given.equals(frame) and given_ceilings == ceilings
    # GRPO here clips at 1 + 0.5: a token at π_old = 0.2 may rise to 0.2 · 1.5 = 0.3
    assert ceilings["grpo"] == pytest.approx(1.5, rel=1e-9)
    row = frame[(frame["algorithm"] == "grpo") & (frame["pi_old"] == 0.2)].iloc[0]
    assert row["pi_new_max"] == pytest.approx(0.3, rel=1e-9)


@pytest.mark.parametrize("variant", VARIANTS)
def test_own_settings_keep_all_a_variants_results_read(variant):
    # own_settings([v], s) is the key the page keeps v's parts by: v's own sliders, and pi_old only
    # where v reads probabilities (that no other objective's curve moves with pi_old is
    # test_pi_old_moves_exactly_the_objectives_that_read_probabilities). Under it, v's curves, gradient
    # range and (for the clip cases' variants) cases are those under the whole settings, whose other
    # variants' sliders are moved here.
    whole = CurveSettings({**WIDE.overrides, "dppo_tv": {"epsilon_high": 0.3}}, old_prob=0.4)
    mine = own_settings([variant], whole)
    assert set(mine.overrides) <= {variant}
    assert mine.old_prob == (0.4 if reads_probability(variant) else CurveSettings().old_prob)
    whole = CurveSettings(whole.overrides, old_prob=mine.old_prob)
    assert curves_frame([variant], mine).equals(curves_frame([variant], whole))
    assert support_frame([variant], mine).equals(support_frame([variant], whole))
    if variant == cases_variant_of([variant]):
        cases = own_settings([variant, DUAL_VARIANT], whole)
        assert ppo_cases_frame(cases, variant=variant).equals(ppo_cases_frame(whole, variant=variant))


def test_own_settings_names_an_unknown_variant():
    with pytest.raises(ValueError, match="nope"):
        own_settings(["nope"], WIDE)
