"""Token vs sequence weighting: hand-computed weights, autograd and finite differences of
policy_loss, noise statistics, the real group, and the figure builders."""

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

from rlviz import i18n
from rlviz.core.aggregation import LOSS_AGG_MODES
from rlviz.core.objectives import ALGORITHMS, TOKEN_STATES, gradient_weights, policy_loss
from rlviz.experiments import weighting as W
from rlviz.plots import algorithm_style
from rlviz.plots import weighting as weighting_plots
from rlviz.plots.weighting import (
    BAR_TEXT_MIN,
    LEGEND_FIT_PX,
    LEGEND_ROW_PX,
    aggregation_figure,
    format_number,
    legend_rows,
    mode_origin,
    mode_style,
    noise_figure,
    offpolicy_figure,
)


def _copy(name: str, new: str, **changes):
    """A renamed copy of a registry entry (no style: the plots give it a free colour)."""
    return dataclasses.replace(ALGORITHMS[name], name=new, title=new.upper(), style=None, **changes)


def _with_norm_length(name: str, value: float) -> dict:
    """``norm_length=value`` for an entry that has that setting (decided by its spec, not its name)."""
    return {"norm_length": value} if "norm_length" in ALGORITHMS[name].defaults else {}


def _finite_fig(fig) -> dict:
    spec = json.loads(fig.to_json())
    for trace in spec["data"]:
        for axis in ("x", "y"):
            values = trace.get(axis) or []
            assert all(v is not None and (not isinstance(v, float) or math.isfinite(v)) for v in values), trace.get(
                "name"
            )
    return spec


# ---------------------------------------------------------------------------------------- parsing


def test_parse_group_reads_commas_spaces_and_minus_signs():
    assert W.parse_group("200, 10", "-1, 1") == ([200, 10], [-1.0, 1.0])
    assert W.parse_group("5 7；3", "1 −0.5 0") == ([5, 7, 3], [1.0, -0.5, 0.0])


@pytest.mark.parametrize(
    "lengths, advantages, field",
    [
        ("", "1", "lengths"),
        ("200, ten", "1, 1", "lengths"),
        ("200, nan", "1, 1", "lengths"),
        ("0, 10", "1, 1", "lengths"),
        ("2.5", "1", "lengths"),
        ("9000", "1", "lengths"),
        (", ".join(["3"] * 17), ", ".join(["1"] * 17), "lengths"),
        ("200, 10", "", "advantages"),
        ("200, 10", "1", "advantages"),
        ("200, 10", "1, inf", "advantages"),
        ("200, 10", "1, x", "advantages"),
    ],
)
def test_parse_group_errors_name_the_field(lengths, advantages, field):
    with pytest.raises(ValueError, match=f"^{field}:"):
        W.parse_group(lengths, advantages)


def test_parse_prompt():
    assert W.parse_prompt("") is None and W.parse_prompt("   ") is None
    p = W.parse_prompt(" 37 + 5 = ")
    assert (p.prompt, p.answer, p.level) == ("37+5=", "24", 2)  # 42 reversed
    assert W.parse_prompt("123+456").answer == "975"  # 579 reversed
    for bad in ("hello", "1234+1=", "3*4=", "-1+2="):
        with pytest.raises(ValueError, match="^prompt:"):
            W.parse_prompt(bad)


# ---------------------------------------------------------------------------------------- 1. aggregation


def test_claim5_numbers_for_200_and_10_tokens():
    t = W.aggregation_table([200, 10], [-1.0, 1.0], norm_length=256)
    modes = t[t.kind == "mode"].set_index(["name", "response"])
    w = modes["token_weight"]
    # seq-mean-token-mean: (1/L_i)(1/B) = (1/200)(1/2) = 0.0025 and (1/10)(1/2) = 0.05
    assert w["seq-mean-token-mean", 0] == pytest.approx(0.0025)
    assert w["seq-mean-token-mean", 1] == pytest.approx(0.05)
    # token-mean: 1/(200 + 10) = 1/210 ~ 0.00476 for every token
    assert w["token-mean", 0] == pytest.approx(1 / 210) == w["token-mean", 1]
    assert round(1 / 210, 5) == 0.00476
    # seq-mean-token-sum: 1/B = 0.5; seq-mean-token-sum-norm: 1/(B L_max) = 1/512
    assert w["seq-mean-token-sum", 0] == pytest.approx(0.5)
    assert w["seq-mean-token-sum-norm", 1] == pytest.approx(1 / 512)
    # totals: per-response mean gives both responses 1/2; token mean 200/210 and 10/210
    total = modes["weight_total"]
    assert total["seq-mean-token-mean", 0] == pytest.approx(0.5) == total["seq-mean-token-mean", 1]
    assert total["token-mean", 0] == pytest.approx(200 / 210)
    assert total["seq-mean-token-sum", 0] == pytest.approx(100.0)
    # on-policy push = A * w, with A = -1 for the long response: pushed down by 0.0025 per token
    assert modes.loc[("seq-mean-token-mean", 0), "push_token"] == pytest.approx(-0.0025)
    assert modes.loc[("seq-mean-token-mean", 1), "push_total"] == pytest.approx(0.5)


def test_every_weight_is_autograd_of_policy_loss_token_by_token():
    lengths, adv = [7, 3, 5], [1.5, -0.5, 0.25]
    t = W.aggregation_table(lengths, adv, norm_length=9)
    lp, old, a, mask = W.group_tensors(lengths, adv)
    for name in ALGORITHMS:
        grad, out = gradient_weights(name, lp, old, a, mask, beta=0.0, **_with_norm_length(name, 9.0))
        rows = t[(t.kind == "algorithm") & (t.name == name)].sort_values("response")
        for i, n in enumerate(lengths):
            # every token of a response has the same push on-policy, and the table holds it
            assert torch.allclose(-grad[i, :n], torch.full((n,), rows.push_token.iloc[i], dtype=grad.dtype)), name
            assert float(out.token_weight[i, :n].sum()) == pytest.approx(rows.weight_total.iloc[i])
            assert float(grad[i, n:].abs().sum()) == 0.0  # padding gets nothing


def test_each_algorithm_matches_its_aggregation_mode_on_policy():
    t = W.aggregation_table([12, 4], [1.0, -2.0], norm_length=16)
    modes = t[t.kind == "mode"].set_index(["name", "response"])
    for name, spec in ALGORITHMS.items():
        mode = spec.defaults["loss_agg_mode"]
        rows = t[(t.kind == "algorithm") & (t.name == name)]
        for r in rows.itertuples():
            assert r.mode == mode
            assert r.push_token == pytest.approx(modes.loc[(mode, r.response), "push_token"]), name


def test_aggregation_table_reads_the_registry_at_call_time(monkeypatch):
    # an entry added at run time gets its rows, equal to those of the entry it copies
    before = W.aggregation_table([200, 10], [-1.0, 1.0], norm_length=256)
    monkeypatch.setitem(ALGORITHMS, "dapo_copy", _copy("dapo", "dapo_copy"))
    monkeypatch.setitem(ALGORITHMS, "drg_copy", _copy("dr_grpo", "drg_copy"))
    t = W.aggregation_table([200, 10], [-1.0, 1.0], norm_length=256)
    algos = t[t.kind == "algorithm"]
    assert list(dict.fromkeys(algos.name)) == list(ALGORITHMS)  # every entry, in registry order
    columns = ["mode", "token_weight", "weight_total", "push_token", "push_total"]
    for copy, original in (("dapo_copy", "dapo"), ("drg_copy", "dr_grpo")):
        a = algos[algos.name == copy][columns].reset_index(drop=True)
        b = algos[algos.name == original][columns].reset_index(drop=True)
        pd.testing.assert_frame_equal(a, b)
    # Dr.GRPO's copy takes L_max by its setting, not its name: w = 1 / (B L_max) = 1/512
    assert algos[algos.name == "drg_copy"].token_weight.tolist() == pytest.approx([1 / 512, 1 / 512])
    # the four mode rows do not depend on which entry carries them: remove Dr.GRPO, keep its copy
    monkeypatch.delitem(ALGORITHMS, "dr_grpo")
    modes = W.aggregation_table([200, 10], [-1.0, 1.0], norm_length=256).query("kind == 'mode'")
    pd.testing.assert_frame_equal(modes.reset_index(drop=True), before.query("kind == 'mode'").reset_index(drop=True))


@settings(max_examples=25, deadline=None)
@given(
    st.lists(st.integers(1, 60), min_size=1, max_size=5),
    st.data(),
)
def test_aggregation_invariants(lengths, data):
    adv = data.draw(
        st.lists(
            st.floats(-3, 3, allow_nan=False).filter(lambda x: abs(x) > 1e-3),
            min_size=len(lengths),
            max_size=len(lengths),
        )
    )
    t = W.aggregation_table(lengths, adv, norm_length=max(lengths) + 5)
    modes = t[t.kind == "mode"]
    for mode in ("token-mean", "seq-mean-token-mean"):
        # both are means: the weights of all tokens sum to 1
        assert modes[modes.name == mode].weight_total.sum() == pytest.approx(1.0)
    # at r = 1 the push of every token is A x w (autograd of policy_loss)
    assert np.allclose(t.push_token, t.advantage * t.token_weight, rtol=1e-9, atol=1e-15)
    smtm = modes[modes.name == "seq-mean-token-mean"]
    assert np.allclose(smtm.weight_total, 1 / len(lengths))  # each response the same share


def test_aggregation_rejects_an_lmax_below_the_longest_response():
    with pytest.raises(ValueError, match="^norm_length:"):
        W.aggregation_table([200, 10], [1.0, -1.0], norm_length=100)
    with pytest.raises(ValueError, match="^norm_length:"):
        W.aggregation_table([20], [1.0], norm_length=float("nan"))


# ---------------------------------------------------------------------------------------- 2. off-policy tokens


def test_offpolicy_default_hand_computed():
    # L = 50, k = 2 tokens at r = 0.5, the rest at r = 1, A = -1
    df = W.offpolicy_response(50, 2, 0.5, -1.0)
    s = W.offpolicy_summary(df).set_index("algorithm")
    on = df.set_index(["algorithm", "position"])
    outliers = sorted(df.loc[df.outlier, "position"].unique())
    assert outliers == [12, 37]  # centres of two equal halves: int(12.5), int(37.5)
    # on-policy push of each token: A / L = -1/50 (seq-mean-token-mean and token-mean agree for one response)
    assert np.allclose(df.push_on_policy, -0.02)
    # GRPO: A<0 and r = 0.5 < 1 - 0.2: those two tokens are clipped (zero), the others untouched
    assert s.loc["grpo", "outlier_relative"] == 0.0 and s.loc["grpo", "other_relative"] == pytest.approx(1.0)
    assert s.loc["grpo", "clip_fraction"] == pytest.approx(2 / 50)
    # GSPO: s = 0.5^(2/50) = 0.97265 < 1 - 3e-4 with A<0: the whole response is clipped
    assert on.loc[("gspo", 0), "ratio_used"] == pytest.approx(0.5 ** (2 / 50))
    assert s.loc["gspo", "clip_fraction"] == 1.0 and s.loc["gspo", "grad_tokens"] == 0.0
    # GSPO-token = GSPO exactly (constant advantage)
    assert np.array_equal(df[df.algorithm == "gspo"].push.to_numpy(), df[df.algorithm == "gspo_token"].push.to_numpy())
    # GMPO: log r = -0.693 < -0.4 with A<0 -> held at -0.4 (no gradient); rho = exp(2 * -0.4 / 50)
    assert s.loc["gmpo", "outlier_relative"] == 0.0
    assert s.loc["gmpo", "other_relative"] == pytest.approx(math.exp(-0.8 / 50))
    # SAPO (tau_neg = 1.05): push / on-policy push = f'(r) r = 4 sig (1 - sig) * 0.5, sig = sigmoid(1.05 * -0.5)
    sig = 1 / (1 + math.exp(0.525))
    assert s.loc["sapo", "outlier_relative"] == pytest.approx(4 * sig * (1 - sig) * 0.5)
    assert s.loc["sapo", "other_relative"] == pytest.approx(1.0)
    # CISPO: weight sg[clip(r, 1 - 1, 1 + 0.2)] = 0.5: a bounded gradient, half of on-policy
    assert s.loc["cispo", "outlier_relative"] == pytest.approx(0.5)
    # the states, in the one vocabulary of rlviz.core.objectives.TOKEN_STATES
    states = df.groupby(["algorithm", "outlier"]).state.unique().map(list).to_dict()
    assert states[("grpo", True)] == ["clipped"] and states[("grpo", False)] == ["active"]
    assert states[("gspo", True)] == states[("gspo", False)] == ["clipped"]  # the whole response
    assert states[("gmpo", True)] == ["clipped"] and states[("gmpo", False)] == ["active"]
    assert states[("sapo", True)] == ["gated"] and states[("sapo", False)] == ["active"]  # gate 0.934 < 0.99
    assert states[("cispo", True)] == ["active"]  # r = 0.5 is inside CISPO's [0, 1.2]: not capped
    assert set(df.state) <= set(TOKEN_STATES)


def test_offpolicy_capped_and_clipped_tokens_hand_computed():
    # L = 10, one token at r = 2, A = +1: GRPO clips it (zero push); CISPO caps its weight at
    # 1 + 0.2 = 1.2, so its push is 1.2x the on-policy one (bounded, not zero)
    df = W.offpolicy_response(10, 1, 2.0, 1.0, algorithms=("grpo", "cispo"))
    out = df[df.outlier].set_index("algorithm")
    assert out.loc["grpo", "state"] == "clipped" and out.loc["grpo", "push"] == 0.0
    assert out.loc["cispo", "state"] == "capped" and out.loc["cispo", "relative"] == pytest.approx(1.2)
    assert out.loc["cispo", "push"] == pytest.approx(1.2 / 10)  # A sg[clip(r)] / L


def test_offpolicy_response_takes_any_registry_entry(monkeypatch):
    monkeypatch.setitem(ALGORITHMS, "dapo_copy", _copy("dapo", "dapo_copy"))
    monkeypatch.setitem(ALGORITHMS, "sapo_copy", _copy("sapo", "sapo_copy"))
    df = W.offpolicy_response(30, 3, 1.5, 1.0, noise_std=0.02, algorithms=("dapo", "dapo_copy", "sapo", "sapo_copy"))
    columns = ["push", "relative", "ratio_used", "clipped", "state"]
    for copy, original in (("dapo_copy", "dapo"), ("sapo_copy", "sapo")):
        a = df[df.algorithm == copy][columns].reset_index(drop=True)
        b = df[df.algorithm == original][columns].reset_index(drop=True)
        pd.testing.assert_frame_equal(a, b)
    assert (df[(df.algorithm == "sapo_copy") & df.outlier].state == "gated").all()  # from the spec, not the name
    assert (df[(df.algorithm == "dapo_copy") & df.outlier].state == "clipped").all()  # 1.5 > 1 + 0.28


def test_without_clipping_gspo_gives_every_token_s_a_over_length():
    # claim 9: push = s A / |y| for every token, s = geometric mean of the token ratios
    df = W.offpolicy_response(20, 4, 1.5, 1.0, noise_std=0.05, seed=3, clip=False, algorithms=("gspo", "grpo"))
    g, r = df[df.algorithm == "gspo"], df[df.algorithm == "grpo"]
    s = math.exp(g.log_ratio.mean())
    assert np.allclose(g.push, s * 1.0 / 20)
    # GRPO without its clip: each token its own r_t A / |y|
    assert np.allclose(r.push, r.token_ratio / 20)
    assert r.push.std() > 0 and g.push.std() < 1e-15


def test_clipping_off_also_lifts_a_dual_clip_that_is_on_by_default(monkeypatch):
    # a PPO whose dual clip c = 3 is on by default (verl's vanilla loss): at A = -1 and r = 4 > c
    # the token is clipped; "clipping off" moves c out of reach, so it gets -A r / L like any other
    settings_c3 = tuple(
        dataclasses.replace(s, default=3.0) if s.name == "dual_clip_c" else s for s in ALGORITHMS["ppo"].loss_settings
    )
    monkeypatch.setitem(ALGORITHMS, "ppo_c3", _copy("ppo", "ppo_c3", loss_settings=settings_c3))
    on = W.offpolicy_response(10, 1, 4.0, -1.0, algorithms=("ppo_c3",))
    off = W.offpolicy_response(10, 1, 4.0, -1.0, clip=False, algorithms=("ppo_c3",))
    assert on[on.outlier].state.tolist() == ["clipped"] and on[on.outlier].push.tolist() == [0.0]
    assert off[off.outlier].state.tolist() == ["active"]
    assert off[off.outlier].relative.tolist() == pytest.approx([4.0])  # push / push at r = 1 = r


def test_the_kept_on_policy_push_belongs_to_the_registry_entry_of_the_day(monkeypatch):
    # the push at r = 1 is kept while the ratio and noise sliders move, never across a registry
    # change: GRPO (seq-mean-token-mean) pushes each of 10 tokens by A / 10 = 0.1; an entry under
    # the same name with seq-mean-token-sum (weight 1 per token, one response) by A = 1
    def on_policy(ratio):
        return W.offpolicy_response(10, 1, ratio, 1.0, algorithms=("grpo",)).push_on_policy.tolist()

    assert on_policy(2.0) == pytest.approx([0.1] * 10)
    settings = tuple(
        dataclasses.replace(s, default="seq-mean-token-sum") if s.name == "loss_agg_mode" else s
        for s in ALGORITHMS["grpo"].loss_settings
    )
    monkeypatch.setitem(ALGORITHMS, "grpo", dataclasses.replace(ALGORITHMS["grpo"], loss_settings=settings))
    assert on_policy(3.0) == pytest.approx([1.0] * 10)
    monkeypatch.undo()
    assert on_policy(4.0) == pytest.approx([0.1] * 10)


@pytest.mark.parametrize("name", list(ALGORITHMS))
def test_offpolicy_push_matches_finite_differences_of_policy_loss(name):
    # independent of autograd: central differences of policy_loss in log pi at every token.
    # (Not at a "capped" token: a capped weight is a stop-gradient, sg[clip(r)] as in CISPO, by
    # design, so the loss value is flat there and only autograd defines its gradient, checked by
    # hand in test_offpolicy_capped_and_clipped_tokens_hand_computed.)
    length, seed = 12, 5
    df = W.offpolicy_response(length, 2, 1.3, 1.0, noise_std=0.05, seed=seed, clip=True, algorithms=(name,))
    log_ratio = torch.tensor(df.log_ratio.to_numpy())[None, :]
    lp, old, adv, mask = W.group_tensors([length], [1.0], log_ratio)
    h = 1e-6
    for t in range(length):
        up, down = lp.clone(), lp.clone()
        up[0, t] += h
        down[0, t] -= h
        if df.state.iloc[t] == "capped" or ALGORITHMS[name].detached_weight:
            continue  # a stop-gradient weight: checked by hand in test_objectives
        fd = (
            policy_loss(name, up, old, adv, mask, beta=0.0).loss
            - policy_loss(name, down, old, adv, mask, beta=0.0).loss
        ) / (2 * h)
        assert -float(fd) == pytest.approx(df.push.iloc[t], abs=1e-8), (name, t)


@pytest.mark.parametrize(
    "kwargs, field",
    [
        ({"length": 0}, "length"),
        ({"length": 5, "n_outliers": 6}, "n_outliers"),
        ({"outlier_ratio": 0.0}, "outlier_ratio"),
        ({"outlier_ratio": float("nan")}, "outlier_ratio"),
        ({"advantage": 0.0}, "advantage"),
        ({"noise_std": -0.1}, "noise_std"),
        ({"algorithms": ("nope",)}, "name"),
    ],
)
def test_offpolicy_errors_name_the_parameter(kwargs, field):
    with pytest.raises(ValueError, match=f"^{field}:"):
        W.offpolicy_response(**kwargs)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(1, 80), st.data(), st.floats(0.2, 4.0), st.sampled_from([1.0, -1.0]), st.booleans())
def test_offpolicy_invariants(length, data, ratio, sign, clip):
    k = data.draw(st.integers(0, length))
    df = W.offpolicy_response(length, k, ratio, sign, clip=clip, algorithms=tuple(ALGORITHMS))
    assert np.isfinite(df.relative).all()
    assert set(df.algorithm) == set(ALGORITHMS)
    for name, spec in ALGORITHMS.items():
        d = df[df.algorithm == name]
        assert int(d.outlier.sum()) == k
        if spec.ratio_level == "sequence":
            # one ratio for the whole response: the on-policy tokens share one push (claim 9 / 23)
            push = d[~d.outlier].push
            assert push.nunique() <= 1 or np.ptp(push) < 1e-15, name
        if "gated" in spec.trust_region:
            assert (d.push != 0).all(), name  # a soft gate never cuts a token to exactly zero (claim 13)
    # by state: a clipped token has no gradient at all; a capped or gated one keeps one
    assert (df[df.state == "clipped"].push == 0).all()
    assert (df[df.state.isin(["capped", "gated"])].push != 0).all()
    assert set(df.state) <= set(TOKEN_STATES) - {"masked"}


# ---------------------------------------------------------------------------------------- 3. noise vs length


def test_noise_sweep_variance_falls_as_one_over_length():
    df = W.noise_sweep(sigma=0.02, n_responses=1000, seed=0)
    assert list(df.length) == list(W.NOISE_LENGTHS)
    assert W.fitted_slope(df) == pytest.approx(-1.0, abs=0.05)
    # var(log s) * L stays at sigma^2 = 4e-4 (sampling error of a variance over 1000 draws: ~5%)
    assert np.allclose(df.var_log_s_times_length, 0.02**2, rtol=0.15)
    # without 1/|y| the log of the product grows with L instead: var = L^2 var(log s) ~ L sigma^2
    assert df.var_log_product.is_monotonic_increasing
    # claim 11: GSPO clips far more than GRPO; at most about half (only the side A pushes toward)
    last = df.iloc[-1]
    assert last.gspo_clip_fraction > 0.1 > last.grpo_clip_fraction
    assert (df.gspo_clip_fraction <= 0.55).all()
    assert df.gspo_clip_fraction.iloc[-1] < df.gspo_clip_fraction.iloc[0]  # longer: less noisy s


def test_noise_sweep_log_s_is_the_mean_of_the_sampled_log_ratios():
    # redraw the same numbers from the same seed: policy_loss's s must be their geometric mean
    df = W.noise_sweep(sigma=0.1, n_responses=50, lengths=(3, 17), seed=11)
    gen = torch.Generator().manual_seed(11)
    for n, row in zip((3, 17), df.itertuples()):
        x = 0.1 * torch.randn(50, n, generator=gen, dtype=torch.float64)
        assert row.var_log_s == pytest.approx(float(x.mean(dim=1).var()), rel=1e-9)
        # GRPO's clip fraction: A>0 (even rows) above 1.2, A<0 (odd rows) below 0.8, over all tokens
        r = x.exp()
        clipped = torch.cat([(r[0::2] > 1.2), (r[1::2] < 0.8)]).double().mean()
        assert row.grpo_clip_fraction == pytest.approx(float(clipped))


def test_noise_sweep_is_seeded_and_checks_its_inputs():
    a = W.noise_sweep(0.05, 100, (4, 8), seed=1)
    pd.testing.assert_frame_equal(a, W.noise_sweep(0.05, 100, (4, 8), seed=1))
    assert not a.equals(W.noise_sweep(0.05, 100, (4, 8), seed=2))
    for kwargs, field in (
        ({"sigma": 0.0}, "sigma"),
        ({"n_responses": 1}, "n_responses"),
        ({"lengths": (0,)}, "lengths"),
    ):
        with pytest.raises(ValueError, match=f"^{field}:"):
            W.noise_sweep(**kwargs)


# ---------------------------------------------------------------------------------------- 4. real group


@pytest.fixture(scope="module")
def group():
    return W.real_group(seed=0, group_size=6, lr=3e-5)


def test_real_group_is_a_mixed_group_with_moved_ratios(group):
    G = 6
    assert len(group.tokens) == G and group.rewards.shape == (G,) and group.advantages.shape == (G,)
    assert set(group.rewards.tolist()) == {0.0, 1.0}  # the automatic prompt has mixed outcomes
    assert group.auto_prompt and group.prompt.endswith("=")
    assert np.isfinite(group.new_log_prob).all() and np.isfinite(group.old_log_prob).all()
    assert [len(t) for t in group.tokens] == group.mask.sum(axis=1).astype(int).tolist()
    assert 0.0 < group.log_ratio_std < 1.0  # one small step: ratios moved, not exploded
    again = W.real_group(seed=0, group_size=6, lr=3e-5)
    assert np.array_equal(again.new_log_prob, group.new_log_prob)  # deterministic given the seed


def test_real_group_weights_on_policy_are_a_over_g_times_length(group):
    df = W.real_group_weights(group, ("grpo", "dapo"), after_update=False)
    G, N = len(group.tokens), int(group.mask.sum())
    for r in df.itertuples():
        L_i = len(group.tokens[r.response])
        # GRPO (seq-mean-token-mean): A_i / (G L_i); DAPO (token-mean): A_i / N
        expected = r.advantage / (G * L_i) if r.algorithm == "grpo" else r.advantage / N
        assert r.weight == pytest.approx(expected, abs=1e-12)


def test_real_group_weights_after_the_update(group):
    df = W.real_group_weights(group, ("grpo", "gspo", "sapo"))
    old, new = torch.tensor(group.old_log_prob), torch.tensor(group.new_log_prob)
    adv, mask = torch.tensor(group.advantages), torch.tensor(group.mask)
    grad, _ = gradient_weights("grpo", new, old, adv, mask, beta=0.0)
    grpo = df[df.algorithm == "grpo"]
    for r in grpo.itertuples():
        assert r.weight == pytest.approx(-float(grad[r.response, r.position]), abs=1e-15)
    # GSPO: one push for all tokens of a response (zero if its s left the trust region)
    for _, row in df[df.algorithm == "gspo"].groupby("response"):
        assert np.ptp(row.weight) < 1e-12
    summary = W.real_group_summary(group, ("grpo", "gspo")).set_index("algorithm")
    assert summary.loc["gspo", "clip_fraction"] > summary.loc["grpo", "clip_fraction"]  # claim 11 on real data


def test_real_group_with_a_typed_prompt_and_bad_inputs():
    g = W.real_group(seed=1, prompt="2+3=", group_size=2, lr=1e-5)
    assert (g.prompt, g.answer, g.auto_prompt) == ("2+3=", "5", False)
    for kwargs, field in (
        ({"prompt": "two"}, "prompt"),
        ({"group_size": 1}, "group_size"),
        ({"lr": 0.0}, "lr"),
        ({"device": "nodevice"}, "device"),
    ):
        with pytest.raises(ValueError, match=f"^{field}:"):
            W.real_group(**kwargs)


# ---------------------------------------------------------------------------------------- figures


def test_aggregation_figure_plots_the_table():
    t = W.aggregation_table([200, 10], [-1.0, 1.0], norm_length=256)
    spec = _finite_fig(aggregation_figure(t, "mode", {"response.0": "long", "response.1": "short"}))
    bars = [tr for tr in spec["data"] if tr["type"] == "bar"]
    assert len(bars) == 2 * len(LOSS_AGG_MODES)  # per-token and per-response panels
    smtm = [tr for tr in bars if tr["name"] == "seq-mean-token-mean" and tr["xaxis"] == "x"][0]
    assert smtm["x"] == ["long", "short"] and smtm["y"] == pytest.approx([0.0025, 0.05])
    assert smtm["text"] == ["0.0025", "0.05"]
    spec = _finite_fig(aggregation_figure(t, "algorithm", {}, show_text=False))
    assert {tr["name"] for tr in spec["data"]} == {a.title for a in ALGORITHMS.values()}  # registry titles
    assert spec["layout"]["yaxis"]["type"] == "log"
    empty = _finite_fig(aggregation_figure(t.iloc[0:0], "mode", {}))
    assert empty["data"] == []


def test_offpolicy_figure_one_panel_per_algorithm():
    df = W.offpolicy_response(30, 3, 2.0, -1.0)
    spec = _finite_fig(offpolicy_figure(df, {"note.gspo": "note"}))
    bars = [tr for tr in spec["data"] if tr["type"] == "bar"]
    names = [ALGORITHMS[a].title for a in W.OFFPOLICY_ALGORITHMS]  # a missing name: the registry title
    assert [tr["name"] for tr in bars] == names
    assert bars[0]["y"] == pytest.approx(df[df.algorithm == "grpo"].relative.tolist())
    bands = [s for s in spec["layout"]["shapes"] if s["type"] == "rect"]
    assert len(bands) == 3 * len(W.OFFPOLICY_ALGORITHMS)  # one grey band per outlier, in each panel
    titles = spec["layout"]["annotations"]
    assert [a["text"] for a in titles] == [n if n != "GSPO" else "GSPO · note" for n in names]
    # titles start at the left edge of their panel: a narrow window cuts the note, never the name
    assert all(a["x"] == 0 and a["xanchor"] == "left" and a["xref"] == "paper" for a in titles)


def test_offpolicy_figure_and_mode_styles_follow_the_registry(monkeypatch):
    monkeypatch.setitem(ALGORITHMS, "dapo_copy", _copy("dapo", "dapo_copy"))
    df = W.offpolicy_response(20, 2, 0.5, -1.0, algorithms=("dapo_copy", "grpo"))
    spec = _finite_fig(offpolicy_figure(df, {"name.dapo_copy": "DAPO copy"}))
    bars = [tr for tr in spec["data"] if tr["type"] == "bar"]
    assert [tr["name"] for tr in bars] == ["GRPO", "DAPO copy"]  # registry order
    assert bars[1]["marker"]["color"] == algorithm_style("dapo_copy")["color"] != algorithm_style("dapo")["color"]
    # a mode takes the colour of the entry that introduced it, read when the figure is drawn
    # (verl's token-sum: no entry's default, so no colour of its own)
    assert [mode_origin(m) for m in LOSS_AGG_MODES] == ["dapo", "grpo", "luspo", "dr_grpo", None]
    assert mode_style("token-mean") == {"color": algorithm_style("dapo")["color"], "pattern": ""}
    assert mode_style("seq-mean-token-sum")["color"] == algorithm_style("luspo")["color"]  # LUSPO's default
    recoloured = dataclasses.replace(ALGORITHMS["dapo"], style={"color": "#123456", "dash": "solid"})
    monkeypatch.setitem(ALGORITHMS, "dapo", recoloured)
    assert mode_style("token-mean")["color"] == "#123456"


def test_noise_figure_four_curves_on_log_axes():
    df = W.noise_sweep(0.02, 200, (1, 10, 100), seed=0)
    spec = _finite_fig(noise_figure(df, {}))
    assert len(spec["data"]) == 4
    assert spec["data"][0]["y"] == pytest.approx(df.var_log_s.tolist())
    assert spec["layout"]["xaxis"]["type"] == "log" and spec["layout"]["yaxis"]["type"] == "log"
    assert _finite_fig(noise_figure(df.iloc[0:0], {}))["data"] == []


def test_noise_compares_the_pair_it_is_given_decided_by_the_registry():
    # the pair is data: the sequence-level ratio's s is measured, each algorithm clips at its own default
    default = W.noise_sweep(0.02, 100, (1, 10), seed=0)
    assert [c for c in default.columns if c.endswith("_clip_fraction")] == [f"{a}_clip_fraction" for a in W.NOISE_PAIR]
    other = W.noise_sweep(0.02, 100, (1, 10), seed=0, algorithms=("gspo_token", "cispo"))
    assert other.var_log_s.tolist() == default.var_log_s.tolist()  # the same s = geometric mean of the ratios
    assert other.cispo_epsilon_high.iloc[0] == ALGORITHMS["cispo"].defaults["epsilon_high"]
    fig = noise_figure(other, {})
    assert [tr.name for tr in fig.data][2:] == ["clip.gspo_token", "clip.cispo"]  # registry order
    assert fig.data[0].line.color == algorithm_style("gspo_token")["color"]  # log s: the sequence-level one's
    assert [tr.line.color for tr in fig.data[2:]] == [algorithm_style(a)["color"] for a in ("gspo_token", "cispo")]
    with pytest.raises(ValueError, match="sequence-level"):
        W.noise_sweep(0.02, 100, (1, 10), algorithms=("grpo", "gspo"))
    with pytest.raises(ValueError, match="unknown algorithm"):
        W.noise_sweep(0.02, 100, (1, 10), algorithms=("no_such", "grpo"))


def test_aggregation_figure_with_labels_stacks_full_width_panels_with_readable_text():
    t = W.aggregation_table([200, 10], [-1.0, 1.0], norm_length=256)
    spec = _finite_fig(aggregation_figure(t, "mode", {"per_token": "per token", "per_response": "per response"}))
    layout = spec["layout"]
    # one panel above the other, each over the whole width: titles and labels get the full width
    assert layout["xaxis"]["domain"] == layout["xaxis2"]["domain"] == [0.0, 1.0]
    assert layout["yaxis"]["domain"][0] > layout["yaxis2"]["domain"][1]
    titles = {a["text"]: a for a in layout["annotations"]}
    assert titles["per token"]["y"] > titles["per response"]["y"] + 0.2  # never on the same line
    # value labels at a readable size; a label that would have to shrink further is hidden, not shrunk
    bars = [tr for tr in spec["data"] if tr["type"] == "bar"]
    assert all(tr["textfont"]["size"] >= BAR_TEXT_MIN >= 11 for tr in bars)
    assert layout["uniformtext"] == {"minsize": BAR_TEXT_MIN, "mode": "hide"}
    # the token-weight panel leaves at least half a decade above the tallest bar (0.5) for its label
    assert layout["yaxis"]["range"][1] >= math.log10(0.5) + 0.5
    # the figure of every registry algorithm has no labels: its two panels sit side by side
    side = _finite_fig(aggregation_figure(t, "algorithm", {}, show_text=False))["layout"]
    assert side["xaxis"]["domain"][1] < side["xaxis2"]["domain"][0]
    assert "uniformtext" not in side or not side["uniformtext"].get("minsize")


def test_a_long_legend_gets_the_rows_it_needs_above_the_panel_titles():
    # found at 1024 px with the sidebar open: the legend of every registry objective (several rows) lay
    # over the subplot titles; it now gets its rows (counted at the narrow width) and the panels keep their height
    assert legend_rows(["a"]) == 1 and legend_rows([]) == 1
    assert legend_rows(["x" * 20] * 4, width=400) == 2  # 180 px an item: two in a row
    assert legend_rows(["算法"] * 3, width=100) == 3  # a CJK character counts 13 px
    t = W.aggregation_table([200, 10], [-1.0, 1.0], norm_length=256)
    names = [a.title for a in ALGORITHMS.values()]
    rows = legend_rows(names)
    assert rows >= 3  # what the page shows: every objective of the registry
    stacked = _finite_fig(aggregation_figure(t, "algorithm", {}, show_text=False, stacked=True))["layout"]
    assert stacked["margin"]["t"] >= 40 + LEGEND_ROW_PX * rows > 90
    assert stacked["height"] - stacked["margin"]["t"] == 650 - 90  # the panels as tall as with a short legend
    assert stacked["legend"]["yref"] == "container" and stacked["legend"]["yanchor"] == "top"
    # the five modes: two rows at the narrow width (2 x 29 px of legend under a 40 px top: 98 px), the
    # panels as tall as ever
    modes = _finite_fig(aggregation_figure(t, "mode", {}))["layout"]
    assert legend_rows(LOSS_AGG_MODES) == 2 and modes["margin"]["t"] == max(90, 40 + 2 * LEGEND_ROW_PX) == 98
    assert modes["height"] - modes["margin"]["t"] == 650 - 90
    assert LEGEND_FIT_PX <= 564 - 60  # the figure at 1024 px with the sidebar open, less its left margin


BUILDERS = (aggregation_figure, offpolicy_figure, noise_figure)


def _axis_titles(fig) -> set[str]:
    layout = fig.layout.to_plotly_json()
    return {v["title"]["text"] for k, v in layout.items() if k.startswith(("xaxis", "yaxis")) and "title" in v}


def test_words_reach_the_builders_only_through_labels():
    # no language code and no i18n lookup in rlviz.plots.weighting: one ``labels`` mapping per builder
    assert "rlviz.i18n" not in inspect.getsource(weighting_plots)
    for builder in BUILDERS:
        params = inspect.signature(builder).parameters
        assert "lang" not in params and "labels" in params, builder.__name__
        assert not [p for p in params if p.endswith(("_title", "_label", "_labels"))], builder.__name__
        assert "``labels``" in builder.__doc__, builder.__name__  # its keys are documented
    # a missing key shows the key itself (a missing name: the registry title; a missing response: #n, from 1)
    table = W.aggregation_table([200, 10], [-1.0, 1.0], norm_length=256)
    fig = aggregation_figure(table, "algorithm", {})
    assert [a.text for a in fig.layout.annotations] == ["per_token", "per_response"]
    assert "<br>push: " in fig.data[0].hovertemplate and "<br>advantage = " in fig.data[0].hovertemplate
    assert list(fig.data[0].x) == ["#1", "#2"] and fig.data[0].name in {a.title for a in ALGORITHMS.values()}
    assert {tr.name for tr in aggregation_figure(table, "mode", {}).data} == set(LOSS_AGG_MODES)
    off = offpolicy_figure(W.offpolicy_response(30, 3, 0.5, -1.0, algorithms=("grpo", "cispo")), {})
    assert _axis_titles(off) == {"position", "relative"}
    assert "<br>position %{x}" in off.data[0].hovertemplate and "<br>ratio_used = " in off.data[0].hovertemplate
    assert {c[3] for c in off.data[0].customdata} == {"state.active", "state.clipped"}
    assert [a.text for a in off.layout.annotations] == ["GRPO", "CISPO"]  # no note without ``note.<name>``
    noise = noise_figure(W.noise_sweep(0.02, 50, (1, 10), seed=0), {})
    assert [tr.name for tr in noise.data] == ["var_s", "var_product", "clip.grpo", "clip.gspo"]  # registry order
    assert [a.text for a in noise.layout.annotations] == ["var_title", "clip_title"]
    assert _axis_titles(noise) == {"length_axis"}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_state_words_come_from_the_labels(lang):
    # the page's state keys (weighting.state_<state>) reach every token's hover in the session's language
    states = {f"state.{s}": i18n.t(f"weighting.state_{s}", lang) for s in TOKEN_STATES}
    off = offpolicy_figure(W.offpolicy_response(30, 3, 0.5, -1.0), states)
    shown = {c[3] for tr in off.data for c in tr.customdata}
    assert shown <= set(states.values()) and i18n.t("weighting.state_clipped", lang) in shown


@pytest.mark.parametrize(
    "value, spec, text",
    [
        (-0.0, ".2f", "0.00"),  # negative zero
        (-0.001, ".2f", "0.00"),  # a small negative that rounds to zero
        (-0.004, ".0%", "0%"),
        (-0.0, "+.2f", "+0.00"),
        (-0.0, ".3g", "0"),
        (-0.5, ".2f", "-0.50"),  # real negatives keep their sign
        (-1e-5, ".3g", "-1e-05"),
        (0.00476190, ".3g", "0.00476"),
        (0.25, "+g", "+0.25"),
    ],
)
def test_format_number_drops_the_sign_of_a_displayed_zero(value, spec, text):
    assert format_number(value, spec) == text


def _negative_zeros(df: pd.DataFrame) -> list[str]:
    floats = df.select_dtypes("float")
    return [c for c in floats.columns if bool((np.signbit(floats[c]) & (floats[c] == 0)).any())]


def test_frames_hold_no_negative_zero():
    # GSPO clips the whole response at the default (s = 0.9727 < 1 - 3e-4 with A < 0): its pushes are
    # 0 and push / push(r=1) = 0 / -0.02 would be -0.0 in IEEE arithmetic
    df = W.offpolicy_response(50, 2, 0.5, -1.0)
    summary = W.offpolicy_summary(df)
    assert _negative_zeros(df) == [] and _negative_zeros(summary) == []
    gspo = summary.set_index("algorithm").loc["gspo"]
    assert gspo.total_relative == 0.0 and format(gspo.total_relative, ".2f") == "0.00"
    assert _negative_zeros(W.aggregation_table([3, 5], [0.0, -1.0], 8)) == []
    assert W.parse_numbers("-0, 1", "advantages") == [0.0, 1.0]
    assert not np.signbit(W.parse_numbers("-0", "advantages")[0])


def test_format_number_never_shows_nan():
    # nothing to measure (no "other" tokens when every token is off-policy) reads as a dash
    assert format_number(float("nan"), ".2f") == "—" and format_number(float("inf")) == "—"
    assert format_number(-0.001, ".2f") == "0.00" and format_number(-0.5, ".2f") == "-0.50"
