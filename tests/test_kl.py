"""The KL estimators (rlviz.core.kl) and the KL page's experiments (rlviz.experiments.kl): hand values
with their formulas, closed forms for the categorical expectations, and the framework variants."""

from __future__ import annotations

import json
import math

import pytest
import torch

from rlviz.core.kl import KL_CLAMP, KL_ESTIMATORS, KL_SPECS, SCHULMAN_ESTIMATORS, kl_estimate
from rlviz.core.objectives import policy_loss, resolve_settings
from rlviz.experiments import kl as X
from rlviz.teach.predict import PREDICTIONS, state_from_settings

D = torch.float64


def value_and_grad(x: float, e: str, old: float | None = None, clamp: bool = True) -> tuple[float, float]:
    lp = torch.tensor([[x]], dtype=D, requires_grad=True)
    o = None if old is None else torch.tensor([[old]], dtype=D)
    v = kl_estimate(lp, torch.zeros(1, 1, dtype=D), e, old_log_prob=o, clamp=clamp)
    (g,) = torch.autograd.grad(v.sum(), lp)
    return float(v.detach()), float(g)


E = math.exp


@pytest.mark.parametrize(
    "e, x, value, grad",
    [
        ("k1", 0.5, 0.5, 1.0),  # k1 = x, k1' = 1
        ("k1", -1.0, -1.0, 1.0),
        ("k2", 0.5, 0.125, 0.5),  # k2 = x^2/2, k2' = x
        ("k2", -1.0, 0.5, -1.0),
        ("k3", 0.5, E(-0.5) - 0.5, 1 - E(-0.5)),  # k3 = e^-x + x - 1, k3' = 1 - e^-x
        ("k3", -1.0, E(1) - 2, 1 - E(1)),
        ("k3", -3.0, 10.0, 0.0),  # e^3 - 4 = 16.09 > 10: clamped, zero gradient (verl low_var_kl)
        ("abs", -1.0, 1.0, -1.0),  # |x|, sign(x)
        ("k1+", -1.0, -1.0, -1.0),  # value of k1 (x), gradient of k2 (x)
        ("k3+", 0.5, E(-0.5) - 0.5, 0.5),  # value of k3, gradient x
        ("k3+", -3.0, 10.0, -3.0),  # the clamped value, k2's gradient still flows
        # on-policy k3_bc: rho = e^(lp - sg lp) = 1, d rho / d lp = 1: value k3, gradient k3 + k3'
        ("k3_bc", 0.5, E(-0.5) - 0.5, (E(-0.5) - 0.5) + (1 - E(-0.5))),
    ],
)
def test_each_estimator_by_hand(e, x, value, grad):
    v, g = value_and_grad(x, e)
    assert v == pytest.approx(value, abs=1e-12) and g == pytest.approx(grad, abs=1e-12)


def test_k3_bc_off_policy_and_the_clamp_option():
    # rho = e^(0.5 - 0.2) = e^0.3; value rho * k3(0.5); d/dx = rho * k3 + rho * k3'
    rho, k3 = E(0.3), E(-0.5) - 0.5
    v, g = value_and_grad(0.5, "k3_bc", old=0.2)
    assert v == pytest.approx(rho * k3) and g == pytest.approx(rho * k3 + rho * (1 - E(-0.5)))
    # clamp=False: e^3 - 3 - 1, gradient 1 - e^3
    assert value_and_grad(-3.0, "k3", clamp=False) == pytest.approx((E(3) - 4, 1 - E(3)))
    assert value_and_grad(-3.0, "k3")[0] == KL_CLAMP
    with pytest.raises(ValueError, match="^kl_estimator"):
        kl_estimate(torch.zeros(1, 1), torch.zeros(1, 1), "low_var_kl")  # verl's alias of k3: not a key
    with pytest.raises(ValueError, match="^old_log_prob"):
        kl_estimate(torch.zeros(1, 2), torch.zeros(1, 2), "k3_bc", old_log_prob=torch.zeros(1, 3))


def test_registry_reaches_the_trainer_settings_and_policy_loss():
    assert SCHULMAN_ESTIMATORS == KL_ESTIMATORS[:3] and set(KL_SPECS) == set(KL_ESTIMATORS)
    for e in KL_ESTIMATORS:
        assert resolve_settings("grpo", kl_estimator=e)["kl_estimator"] == e
    # policy_loss hands old_log_prob to k3_bc: A = 0, loss = beta * rho * k3 (one token, token mean)
    lp, old, ref = (torch.tensor([[v]], dtype=D) for v in (0.5, 0.2, 0.0))
    out = policy_loss("grpo", lp, old, torch.zeros(1, dtype=D), torch.ones(1, 1), ref, beta=0.1, kl_estimator="k3_bc")
    assert out.loss.item() == pytest.approx(0.1 * E(0.3) * (E(-0.5) - 0.5))


def test_curves_match_the_hand_values_and_show_the_clamp():
    df = X.estimator_curves(-3.0, 1.0, 5)  # x = -3, -2, -1, 0, 1
    k3 = df[df.estimator == "k3"].set_index("x")
    assert k3.loc[-2.0, "value"] == pytest.approx(E(2) - 3) and not k3.loc[-2.0, "clamped"]
    assert k3.loc[-3.0, "value"] == 10 and k3.loc[-3.0, "grad"] == 0 and k3.loc[-3.0, "clamped"]
    assert k3.loc[-3.0, "value_raw"] == pytest.approx(E(3) - 4)
    assert not df[df.estimator.isin(["k1", "k2", "abs"])]["clamped"].any()
    assert set(df.estimator) == set(KL_ESTIMATORS)
    with pytest.raises(ValueError, match="^x_max"):
        X.estimator_curves(1.0, 1.0)


def _closed_forms(view):
    """grad_theta of KL(pi || ref) = pi * (log(pi/ref) - KL); of KL(ref || pi) = pi - ref (softmax)."""
    t = view.tokens
    lr = torch.tensor((t.pi / t.pi_ref).map(math.log).values)
    pi, ref = torch.tensor(t.pi.values), torch.tensor(t.pi_ref.values)
    kl = float((pi * lr).sum())
    return kl, pi * (lr - kl), pi - ref, float((ref * -lr).sum())


def test_categorical_expectations_against_closed_forms():
    view = X.categorical_view("2, 1, 0, -1", "0, 0.5, 1, 0", 0.0)
    kl, g_rev, g_fwd, kl_fwd = _closed_forms(view)
    assert view.kl == pytest.approx(kl) and view.kl_forward == pytest.approx(kl_fwd)
    g = view.gradients.set_index(["series", "token"])["grad"]
    for v in range(4):
        assert g[("true_reverse", v)] == pytest.approx(float(g_rev[v]))
        assert g[("true_forward", v)] == pytest.approx(float(g_fwd[v]))
    row = view.row
    # k1 in the loss: E_pi[grad log pi] = 0
    assert row("k1", "loss")["norm_ratio"] == pytest.approx(0, abs=1e-12)
    # exact: k2 in the loss, k1 in the reward, k1+ / k3+ (k2's gradient), k3_bc
    for e, route in (("k2", "loss"), ("k1", "reward"), ("k1+", "loss"), ("k3+", "loss"), ("k3_bc", "loss")):
        assert row(e, route)["rel_error"] < 1e-9 and row(e, route)["direction"] == "reverse", (e, route)
    # k3 in the loss: grad KL(ref || pi), not the target
    assert row("k3", "loss")["direction"] == "forward" and row("k3", "loss")["rel_error"] > 0.1
    assert row("k3", "reward")["direction"] == "neither"
    # values: k1, k3 unbiased (= KL); k2 = E[x^2 / 2] is not
    assert row("k3", "loss")["expected_value"] == pytest.approx(kl)
    x = view.tokens.x
    assert row("k2", "loss")["expected_value"] == pytest.approx(float((view.tokens.pi * x * x / 2).sum()))
    # k1's single-sample gradient grad log pi(y) = e_y - pi: E|g|^2 = sum pi (1 - 2 pi_y + |pi|^2) = 1 - |pi|^2
    p2 = float((view.tokens.pi**2).sum())
    assert row("k1", "loss")["std"] == pytest.approx(math.sqrt(1 - p2))


def test_off_policy_only_the_importance_weighted_k3_stays_exact():
    view = X.categorical_view("2, 1, 0, -1", "0, 0.5, 1, 0", 0.5)
    assert view.row("k3_bc", "loss")["rel_error"] < 1e-9
    assert view.row("k3_bc", "loss")["value_bias"] == pytest.approx(0, abs=1e-12)  # E_old[rho k3] = E_pi[k3]
    for e in ("k2", "k3", "k3+"):
        assert view.row(e, "loss")["direction"] == "neither"


@pytest.mark.parametrize(
    "kwargs, param",
    [
        ({"policy_logits": "1, a"}, "policy_logits"),
        ({"policy_logits": "1"}, "policy_logits"),
        ({"ref_logits": "0, 0, 0"}, "ref_logits"),
        ({"old_shift": 1.5}, "old_shift"),
        ({"policy_logits": "1, 2, 3, 4", "ref_logits": "0, 1, 2, 3"}, "policy_logits"),  # pi = pi_ref
    ],
)
def test_bad_categorical_input_names_the_parameter(kwargs, param):
    with pytest.raises(ValueError, match=f"^{param}"):
        X.categorical_view(**kwargs)


def test_predictions_and_live_links(tmp_path):
    first, second = PREDICTIONS["kl"]
    on = state_from_settings("kl", {})
    assert first.compute(on) == pytest.approx(0, abs=1e-12)
    assert second.compute(on) == "forward"
    assert second.compute(state_from_settings("kl", {"kl_shift": "0.5"})) == "neither"
    q = X.live_query("k1_reward")
    assert q["lv_kl_rew"] == "true" and q["lv_grpo.kl_estimator"] == "k1" and q["lv_algos"] == ["GRPO"]
    assert X.live_query("no_kl")["lv_grpo.beta"] == "0"
    # a stored measurement is read only when it was taken with LIVE_SETTINGS
    arms = {a: {"kl_ref_last": 0.01 + 0.001 * i, "reward_last": 0.5} for i, (a, _, _) in enumerate(X.LIVE_ARMS)}
    path = tmp_path / "m.json"
    path.write_text(json.dumps({"settings": X.LIVE_SETTINGS, "arms": arms}))
    assert X.load_measured(path)["arms"] == arms
    # the arms with a KL term end at 0.011 .. 0.013 (no_kl at 0.010 is left out): spread 0.002 > 0.0013
    reading = X.measured_reading(X.load_measured(path))
    assert reading["verdict"] == "large" and reading["spread"] == pytest.approx(0.002)
    assert reading["low"] == pytest.approx(0.011) and reading["no_kl"] == pytest.approx(0.010)
    path.write_text(json.dumps({"settings": X.LIVE_SETTINGS | {"steps": 1}, "arms": arms}))
    assert X.load_measured(path) == {}


@pytest.mark.parametrize("dtype", [torch.float16, torch.bfloat16], ids=["fp16", "bf16"])
@pytest.mark.parametrize("e", KL_ESTIMATORS)
def test_half_precision_log_ratio_12_is_computed_in_float32(e, dtype):
    # x = -12: k3 = e^12 - 13 = 162741 > float16's 65504 before its clamp at 10; in float16 the clamp
    # would see inf and its zero gradient times inf a NaN. Computed in float32, k3 = 10 (clamped).
    lp = torch.tensor([[-12.0, 12.0]], dtype=dtype, requires_grad=True)
    old = torch.tensor([[-12.5, 11.0]], dtype=dtype)  # rho = e^0.5, e^1 for k3_bc
    v = kl_estimate(lp, torch.zeros(1, 2, dtype=dtype), e, old_log_prob=old)
    assert v.dtype == torch.float32 and bool(torch.isfinite(v).all())
    (g,) = torch.autograd.grad(v.sum(), lp)
    assert bool(torch.isfinite(g).all())
    if e == "k3":
        assert float(v.detach()[0, 0]) == KL_CLAMP


def test_nan_log_probs_are_refused_and_inf_is_clamped():
    with pytest.raises(ValueError, match="^ref_log_prob:"):
        kl_estimate(torch.zeros(1, 2), torch.tensor([[0.0, math.nan]]), "k1")
    # log pi_ref = -inf (pi_ref = 0): x clamps to +20, k1 = 20
    assert float(kl_estimate(torch.zeros(1, 1), torch.tensor([[-math.inf]]), "k1")) == 20.0


def test_figures_validate_and_the_view_memo_hands_out_copies():
    import plotly.graph_objects as go

    from rlviz.plots import kl as P

    view = X.categorical_view(X.DEFAULT_POLICY, X.DEFAULT_REF, 0.5)
    figs = [
        P.curves_figure(X.estimator_curves(-12.0, 12.0, 41), {}),  # with the clamp: bands and the thin raw curve
        P.distribution_figure(view.tokens, {}),
        P.gradient_figure(view.gradients, {}),
        P.error_figure(view.table, {}),
    ]
    for fig in figs:  # the builders skip plotly's validation for speed: validate here (raises on a bad property)
        go.Figure(fig.to_dict())
    assert figs[0].layout.shapes and len(figs[0].layout.annotations) == 3  # two panel titles and the clamp note
    view.table["rel_error"] = -1.0  # a caller's change never reaches the memoised view
    assert (X.categorical_view(X.DEFAULT_POLICY, X.DEFAULT_REF, 0.5).table["rel_error"] >= 0).all()
