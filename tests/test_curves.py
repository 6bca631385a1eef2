"""The curves page's library and figures: every curve is policy_loss and its autograd gradient,
checked against hand-computed values (formula in the comment) and against a direct autograd call."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rlviz.core.objectives import policy_loss
from rlviz.experiments.curves import (
    DEFAULT_VARIANTS,
    VARIANTS,
    CurveSettings,
    curves_frame,
    evaluate,
    gradient_support,
    ppo_cases_frame,
    probability_frame,
    ratio_grid,
    run,
    support_frame,
    trust_region,
    variant_algorithm,
    variant_overrides,
    zoom_window,
)
from rlviz.plots.curves import (
    cases_table,
    curves_gallery_figure,
    curves_overlay_figure,
    probability_figure,
    support_table,
    variant_style,
)

S = CurveSettings()
HARD = ("ppo", "grpo", "dr_grpo", "dapo", "ppo_dual", "gspo", "gspo_token", "gmpo")


def direct(variant: str, ratio: float, adv: float, s: CurveSettings = S) -> tuple[float, float]:
    """(J, dJ/d log pi) of ONE token by calling policy_loss and torch.autograd directly
    (a [1, 1] batch, so the aggregation weight is 1): an independent path to the same numbers."""
    lp = torch.tensor([[math.log(ratio)]], dtype=torch.float64, requires_grad=True)
    out = policy_loss(
        variant_algorithm(variant),
        lp,
        torch.zeros_like(lp),
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
        ("grpo", 1.5, 1.0, 1.2, 0.0, "zero"),
        # A<0, r = 0.5: min(-0.5, -0.8) = -0.8 (flat), w = 0
        ("grpo", 0.5, -1.0, -0.8, 0.0, "zero"),
        # A<0, r = 1.5: min(-1.5, -1.2) = -1.5 = r·A, w = r·A = -1.5 (never clipped)
        ("grpo", 1.5, -1.0, -1.5, -1.5, "active"),
        # DAPO ε_high = 0.28: r = 1.25 is still inside: w = 1.25
        ("dapo", 1.25, 1.0, 1.25, 1.25, "active"),
        # dual clip c = 3, A<0, r = 3.5: max(min(-3.5, -1.2), 3·(-1)) = -3, w = 0
        ("ppo_dual", 3.5, -1.0, -3.0, 0.0, "zero"),
        # dual clip leaves 1.2 < r < c alone: r = 2 -> J = -2, w = -2
        ("ppo_dual", 2.0, -1.0, -2.0, -2.0, "active"),
        # CISPO cap 1 + 0.2: r = 2, A>0: J = sg[min(r, 1.2)]·A = 1.2, w = 1.2 (kept, not zero)
        ("cispo", 2.0, 1.0, 1.2, 1.2, "capped"),
        # CISPO, no floor (ε_low = 1): r = 0.1, A<0: w = 0.1·(-1)
        ("cispo", 0.1, -1.0, -0.1, -0.1, "active"),
        # SAPO τ_pos = 1, r = 1: J = (4/τ)σ(0)A = 2, w = 4σ(1-σ)·r·A = 1
        ("sapo", 1.0, 1.0, 2.0, 1.0, "gated"),
        # GMPO ε = 0.4, A>0, r = 2: log 2 > 0.4 -> J = e^0.4, w = 0
        ("gmpo", 2.0, 1.0, math.exp(0.4), 0.0, "zero"),
        # GMPO A>0, r = 0.5: min(log 0.5, clip) = log 0.5 -> J = 0.5, w = 0.5
        ("gmpo", 0.5, 1.0, 0.5, 0.5, "active"),
        # GSPO ε_high = 4e-4: r = 1.0003 inside -> w = r; r = 1.001 outside -> flat at 1.0004, w = 0
        ("gspo", 1.0003, 1.0, 1.0003, 1.0003, "active"),
        ("gspo", 1.001, 1.0, 1.0004, 0.0, "zero"),
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
    s = CurveSettings(tau_pos=1.0, tau_neg=3.0)
    pos = evaluate("sapo", np.array([1.8]), 1.0, s)["gradient_weight"].iloc[0]
    neg = evaluate("sapo", np.array([1.8]), -1.0, s)["gradient_weight"].iloc[0]
    assert 0 < -neg < pos


def test_states_agree_with_the_gradient():
    df = curves_frame(VARIANTS, S)
    zero = df["gradient_weight"] == 0.0
    assert ((df["state"] == "zero") == zero).all()
    # CISPO and SAPO never give an exactly zero gradient on the axis (claims 13, 24)
    assert not zero[df["algorithm"].isin(["cispo", "sapo"])].any()
    assert (df.loc[df["algorithm"] == "sapo", "state"] == "gated").all()
    assert set(df.loc[df["algorithm"] == "cispo", "state"]) == {"active", "capped"}


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
    df, ceilings = probability_frame(CurveSettings(epsilon_high=0.3, dapo_epsilon_high=0.5))
    assert ceilings["grpo"] == pytest.approx(1.3) and ceilings["dapo"] == pytest.approx(1.5)
    at = df[df["pi_old"] == 0.2].set_index("algorithm")["pi_new_max"]
    assert at["grpo"] == pytest.approx(0.26) and at["dapo"] == pytest.approx(0.3)


# ------------------------------------------------------------------------------- invariants
_eps = st.floats(0.0, 0.9)
settings_st = st.builds(
    CurveSettings,
    epsilon_low=_eps,
    epsilon_high=_eps,
    dapo_epsilon_high=_eps,
    dual_clip_c=st.floats(1.1, 10.0),
    tau_pos=st.floats(0.25, 10.0),
    tau_neg=st.floats(0.25, 10.0),
    gmpo_epsilon=st.floats(0.05, 1.5),
    cispo_epsilon_low=st.floats(0.0, 1.0),
    cispo_epsilon_high=st.floats(0.0, 4.0),
    gspo_epsilon_low=st.floats(0.0, 1e-2),
    gspo_epsilon_high=st.floats(0.0, 1e-2),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(s=settings_st, variant=st.sampled_from(VARIANTS), adv=st.sampled_from([1.0, -1.0]))
def test_invariants(s, variant, adv):
    r = ratio_grid(0.02, 3.5, 60, [1.0])
    df = evaluate(variant, r, adv, s)
    j, w = df["objective"].to_numpy(), df["gradient_weight"].to_numpy()
    assert np.isfinite(j).all() and np.isfinite(w).all()
    # the objective never decreases as r moves in the direction A asks for
    assert np.all(np.diff(j) * adv >= -1e-12)
    # the weight never points against the advantage
    assert np.all(w * adv >= 0)
    if variant in HARD:
        # a hard clip either passes the plain r·A or nothing at all
        ok = (w == 0) | np.isclose(w, r * adv, rtol=1e-12, atol=0)
        assert ok.all()
    else:
        assert np.all(w != 0)  # CISPO and SAPO: never exactly zero
    # on-policy (r = 1) every objective gives the plain policy gradient A
    assert w[np.argmin(abs(r - 1.0))] == pytest.approx(adv, rel=1e-9)


# ------------------------------------------------------------------------------- settings and errors
def test_defaults_come_from_the_registry():
    assert (S.epsilon_low, S.epsilon_high, S.dapo_epsilon_high) == (0.2, 0.2, 0.28)
    assert (S.tau_pos, S.tau_neg, S.gmpo_epsilon) == (1.0, 1.05, 0.4)
    assert (S.cispo_epsilon_low, S.cispo_epsilon_high) == (1.0, 0.2)
    assert (S.gspo_epsilon_low, S.gspo_epsilon_high) == (3e-4, 4e-4)
    assert trust_region("gmpo", S) == pytest.approx((math.exp(-0.4), math.exp(0.4)))
    assert trust_region("cispo", S) == (0.0, 1.2)
    assert trust_region("sapo", S) is None
    assert zoom_window(S) == pytest.approx((0.999, 1.001))
    assert variant_overrides("ppo_dual", S)["dual_clip_c"] == 3.0
    assert variant_overrides("grpo", S)["beta"] == 0.0


@pytest.mark.parametrize(
    "kwargs, param",
    [
        ({"epsilon_low": -0.1}, "epsilon_low"),
        ({"gspo_epsilon_high": float("nan")}, "gspo_epsilon_high"),
        ({"dual_clip_c": 1.0}, "dual_clip_c"),
        ({"tau_neg": 0.0}, "tau_neg"),
        ({"cispo_epsilon_high": float("inf")}, "cispo_epsilon_high"),
    ],
)
def test_bad_settings_raise_naming_the_parameter(kwargs, param):
    with pytest.raises(ValueError, match=param):
        run(["grpo"], CurveSettings(**kwargs))


def test_bad_inputs_raise_naming_the_parameter():
    with pytest.raises(ValueError, match="variant"):
        run(["reinforce"], S)
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
    assert (gspo["state"] == "zero").any() and (gspo["state"] == "active").any()  # the band is visible
    grpo = res.curves[res.curves["algorithm"] == "grpo"]
    assert (grpo["state"] == "active").all()  # at this scale PPO's clip is wide open
    empty = run([], S)
    assert empty.curves.empty and empty.support.empty and len(empty.cases) == 7


# ------------------------------------------------------------------------------- figures
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
    fig = curves_overlay_figure(res.curves, lang, x_range=res.x_range, band=trust_region("grpo", S))
    assert len(fig.data) == 4 * len(DEFAULT_VARIANTS)
    assert sum(bool(t.showlegend) for t in fig.data) == len(DEFAULT_VARIANTS)
    assert all(math.isfinite(v) for v in _values(fig))
    assert "zero" not in fig.data[0].hovertemplate  # the state text comes per point
    assert any(("梯度为零" if lang == "zh" else "zero gradient") in c for t in fig.data for c in t.text)
    gallery = curves_gallery_figure(res.curves, lang, bands=res.bands, x_range=res.x_range, dual_clip_c=3.0)
    assert len(gallery.data) == 4 * len(DEFAULT_VARIANTS)
    assert all(math.isfinite(v) for v in _values(gallery))
    titles = [a.text for a in gallery.layout.annotations]
    assert "Dual-clip PPO" in titles and "GSPO" in titles
    # red shading: one rectangle per run of zero-gradient points; GRPO, DAPO, GMPO, GSPO: one per sign;
    # Dual-clip PPO: A<0 has two (below 1-ε and above c); none for SAPO and CISPO
    rects = [s for s in gallery.layout.shapes if s.type == "rect" and s.fillcolor == "#D55E00"]
    runs = 0
    for v in DEFAULT_VARIANTS:
        for a in (1, -1):
            part = res.curves[(res.curves["algorithm"] == v) & (res.curves["advantage"] == a)].sort_values("ratio")
            zero = (part["state"] == "zero").to_numpy().astype(int)
            runs += int(zero[0]) + int(np.sum(np.diff(zero) == 1))
    assert len(rects) == runs == 11
    log = curves_overlay_figure(res.curves, lang, x_range=res.x_range, log_x=True)
    assert log.layout.xaxis.type == "log"


def test_probability_figure_and_tables():
    prob, _ = probability_frame(S, marks=(0.2,))
    fig = probability_figure(prob, "en", names={"grpo": "GRPO (0.2)", "dapo": "DAPO (0.28)"})
    assert all(math.isfinite(v) for v in _values(fig))
    texts = [x for t in fig.data if t.text is not None for x in t.text]
    assert "0.20 → 0.240" in texts and "0.20 → 0.256" in texts
    assert {t.name for t in fig.data if t.showlegend is not False} >= {"GRPO (0.2)", "DAPO (0.28)"}
    table = support_table(support_frame(["grpo", "ppo_dual", "sapo"], S), "en")
    assert table.iloc[0].tolist() == ["GRPO", "[0.8, 1.2]", "r ≤ 1.2", "r ≥ 0.8"]
    assert table.iloc[1].tolist()[-1] == "0.8 ≤ r ≤ 3"
    assert table.iloc[2].tolist()[1:] == [
        "no clip (soft gate)",
        "every r (never exactly 0)",
        "every r (never exactly 0)",
    ]
    styler = cases_table(ppo_cases_frame(S), "zh")
    html = styler.to_html()
    assert "梯度为零？" in html and "rgba(213, 94, 0, 0.16)" in html


def test_variant_styles():
    assert variant_style("ppo_dual")["color"] == variant_style("ppo")["color"]
    assert variant_style("ppo_dual")["dash"] != variant_style("ppo")["dash"]
    assert len({(variant_style(v)["color"], variant_style(v)["dash"]) for v in VARIANTS}) == len(VARIANTS)


@pytest.mark.parametrize("tau", [1.0, 10.0])
def test_sapo_gradient_never_exactly_zero_on_the_scan(tau):
    # SAPO: w = A·4σ(x)σ(−x)·r with x = τ(r − 1): tiny far out (≈ 4·e^(−190)·20 at τ = 10, r = 20) but
    # never an exact 0, so the support table says "every r" at any temperature the sliders allow.
    settings = CurveSettings(tau_pos=tau, tau_neg=tau)
    for sign in (1.0, -1.0):
        lo, hi = gradient_support("sapo", sign, settings)
        assert lo is None and hi is None
