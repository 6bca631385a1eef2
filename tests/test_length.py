"""Length penalties: the core functions by hand, the experiment on synthetic and real rollouts, the
figures (finite, complete)."""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest
import torch
from apptools import trace_values
from hypothesis import given, settings
from hypothesis import strategies as st

from rlviz.core.shaping import cosine_length_reward, kimi_length_reward, overlong_penalty
from rlviz.experiments.length import (
    CosineParams,
    ShapingSettings,
    analyse,
    apply_max_length,
    kimi_curve,
    penalty_curves,
    sample_length_rollouts,
    sweep,
)
from rlviz.plots.length import (
    filter_figure,
    group_figure,
    length_histogram_figure,
    penalty_curves_figure,
    sweep_figure,
)

EOS = "⏎"


# ------------------------------------------------------------------------------------------ Kimi
def test_kimi_by_hand():
    # lengths 2, 4, 6, 6: min 2, max 6, lambda = 0.5 - (L - 2) / 4 = 0.5, 0, -0.5, -0.5
    # right keeps lambda, wrong gets min(0, lambda)
    lengths = torch.tensor([[2.0, 4.0, 6.0, 6.0], [2.0, 4.0, 6.0, 6.0]])
    correct = torch.tensor([[True, False, True, False], [False, True, False, True]])
    r = kimi_length_reward(lengths, correct)
    assert torch.allclose(r[0], torch.tensor([0.5, 0.0, -0.5, -0.5]))
    assert torch.allclose(r[1], torch.tensor([0.0, 0.0, -0.5, -0.5]))  # a short wrong answer gains nothing
    # lengths 3, 5, 4: lambda = 0.5 - (L - 3) / 2 = 0.5, -0.5, 0
    r = kimi_length_reward(torch.tensor([[3.0, 5.0, 4.0]]), torch.tensor([[1, 1, 1]]))
    assert torch.allclose(r, torch.tensor([[0.5, -0.5, 0.0]]))


def test_kimi_all_equal_lengths_give_zero_and_errors():
    r = kimi_length_reward(torch.full((2, 4), 7.0), torch.tensor([[1, 0, 1, 0], [1, 1, 1, 1]]))
    assert torch.equal(r, torch.zeros(2, 4))
    with pytest.raises(ValueError, match="correct"):
        kimi_length_reward(torch.ones(2, 3), torch.ones(2, 4))
    with pytest.raises(ValueError, match="lengths"):
        kimi_length_reward(torch.tensor([[1.0, float("nan")]]), torch.ones(1, 2))
    with pytest.raises(ValueError, match="lengths"):
        kimi_length_reward(torch.tensor([1.0, 2.0]), torch.ones(2))  # not [n, G]
    with pytest.raises(ValueError, match="lengths"):
        kimi_length_reward(torch.tensor([[-1.0, 2.0]]), torch.ones(1, 2))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 40), st.booleans()), min_size=2, max_size=12))
def test_kimi_properties(rows):
    lengths = torch.tensor([[float(n) for n, _ in rows]])
    correct = torch.tensor([[c for _, c in rows]])
    r = kimi_length_reward(lengths, correct)[0]
    assert torch.all(r <= 0.5) and torch.all(r >= -0.5)
    assert torch.all(r[~correct[0]] <= 0)  # never a bonus for a wrong answer
    # within the group, a longer response of the same correctness never gets more
    for c in (True, False):
        idx = (correct[0] == c).nonzero().flatten()
        order = idx[torch.argsort(lengths[0, idx])]
        assert torch.all(torch.diff(r[order]) <= 1e-6)
    if lengths.max() > lengths.min():
        # the extremes get exactly -0.5 (longest) and +0.5 (shortest, if right)
        assert float(r[lengths[0].argmax()]) == pytest.approx(-0.5)


# ---------------------------------------------------------------------------------------- cosine
def test_cosine_by_hand():
    # CosFn(t, T, r0, rL) = rL + (r0 - rL) (1 + cos(t pi / T)) / 2, T = 8, paper defaults
    # right: t=0 -> 2, t=4 -> 1 + 1 * 0.5 = 1.5; wrong: t=0 -> -10, t=4 -> 0 - 10 * 0.5 = -5
    # t = 2: (1 + cos(pi/4)) / 2 = 0.853553 -> right 1.853553, wrong -8.53553; t >= 8: -10 (r_e)
    lengths = torch.tensor([0.0, 4.0, 2.0, 0.0, 4.0, 2.0, 8.0, 12.0])
    correct = torch.tensor([1, 1, 1, 0, 0, 0, 1, 0]).bool()
    r = cosine_length_reward(lengths, correct, 8)
    half = 0.5 * (1 + math.cos(math.pi / 4))
    expect = torch.tensor([2.0, 1.5, 1.0 + half, -10.0, -5.0, -10.0 * half, -10.0, -10.0])
    assert torch.allclose(r, expect)
    # open-r1's defaults: right 1 -> 0.5, wrong -0.5 -> -1, no exceed penalty (set it equal to rL)
    r = cosine_length_reward(torch.tensor([0.0, 500.0]), torch.tensor([True, False]), 1000, 1.0, 0.5, -0.5, -1.0, 0.0)
    assert torch.allclose(r, torch.tensor([1.0, -0.75]))


def test_cosine_errors():
    ok = dict(lengths=torch.tensor([1.0]), correct=torch.tensor([True]))
    with pytest.raises(ValueError, match="max_length"):
        cosine_length_reward(max_length=0, **ok)
    with pytest.raises(ValueError, match="r0_wrong"):
        cosine_length_reward(max_length=8, r0_wrong=float("nan"), **ok)
    with pytest.raises(ValueError, match="exceed_penalty"):
        cosine_length_reward(max_length=8, exceed_penalty=float("-inf"), **ok)
    with pytest.raises(ValueError, match="lengths"):
        cosine_length_reward(torch.tensor([-1.0]), torch.tensor([True]), 8)
    with pytest.raises(ValueError, match="correct"):
        cosine_length_reward(torch.tensor([1.0, 2.0]), torch.tensor([True]), 8)


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 64), st.lists(st.floats(0, 80, allow_nan=False), min_size=1, max_size=20))
def test_cosine_properties(T, ts):
    t = torch.tensor(sorted(ts), dtype=torch.float64)
    right = cosine_length_reward(t, torch.ones_like(t, dtype=torch.bool), T)
    wrong = cosine_length_reward(t, torch.zeros_like(t, dtype=torch.bool), T)
    inside = t < T
    # right answers: 2 -> 1, never rising with length; wrong: -10 -> 0, never falling
    assert torch.all(torch.diff(right[inside]) <= 1e-9) and torch.all(torch.diff(wrong[inside]) >= -1e-9)
    assert torch.all((right[inside] >= 1 - 1e-9) & (right[inside] <= 2 + 1e-9))
    assert torch.all((wrong[inside] >= -10 - 1e-9) & (wrong[inside] <= 1e-9))
    assert torch.all(right[~inside] == -10) and torch.all(wrong[~inside] == -10)


# ---------------------------------------------------------------------------------------- curves
def test_penalty_curves_by_hand():
    s = ShapingSettings(max_length=8, buffer_length=4, penalty_factor=1.0)
    c = penalty_curves(s)
    at = c.set_index("length")
    # 0 up to 4, then (4 - L) / 4: L = 6 -> -0.5, L = 8 -> -1, beyond -1
    assert at.loc[4.0, "dapo_penalty"] == 0.0
    assert at.loc[8.0, "dapo_penalty"] == pytest.approx(-1.0)
    assert np.allclose(c["dapo_right"] - c["dapo_wrong"], 1.0)  # a right answer is always worth 1 more
    assert np.allclose(c["dapo_wrong"], c["dapo_penalty"])
    # same numbers as the core function that the trainer uses
    assert np.allclose(c["dapo_penalty"], overlong_penalty(torch.tensor(c["length"].to_numpy()), 8, 4).numpy())
    assert c["length"].max() >= 10 and np.isfinite(c.drop(columns="length").to_numpy()).all()
    # factor 2: twice the penalty
    c2 = penalty_curves(ShapingSettings(8, 4, 2.0))
    assert np.allclose(c2["dapo_penalty"], 2 * c["dapo_penalty"])
    with pytest.raises(ValueError, match="buffer_length"):
        penalty_curves(ShapingSettings(8, 9))
    with pytest.raises(ValueError, match="penalty_factor"):
        penalty_curves(ShapingSettings(8, 4, -1.0))
    with pytest.raises(ValueError, match="rl_correct"):
        penalty_curves(ShapingSettings(8, 4, cosine=CosineParams(rl_correct=float("nan"))))


def test_kimi_curve():
    k = kimi_curve(1, 9)
    # lambda = 0.5 - (L - 1) / 8: 0.5 at 1, 0 at 5, -0.5 at 9; wrong: min(0, lambda)
    at = k.set_index("length")
    assert at.loc[1.0, "kimi_right"] == pytest.approx(0.5) and at.loc[1.0, "kimi_wrong"] == 0.0
    assert at.loc[5.0, "kimi_right"] == pytest.approx(0.0, abs=1e-12)
    assert at.loc[9.0, "kimi_wrong"] == pytest.approx(-0.5)
    assert np.allclose(kimi_curve(1, 9, weight=2.0)["kimi_right"], 2 * k["kimi_right"])
    assert kimi_curve(3, 3)["kimi_right"].tolist() == [0.0]  # one length: nothing to compare
    with pytest.raises(ValueError, match="max_length"):
        kimi_curve(5, 2)


# ------------------------------------------------------------------------------- synthetic rollouts
def _frame(groups: list[list[tuple[str, bool]]], prompt="1+4=", answer="5", limit=32) -> pd.DataFrame:
    """Rollouts by hand: each response is (text, finished); tokens are its characters (+ EOS)."""
    rows = []
    for gi, group in enumerate(groups):
        for si, (text, finished) in enumerate(group):
            tokens = tuple(text) + ((EOS,) if finished else ())
            rows.append(
                {
                    "group": gi,
                    "sample": si,
                    "prompt": prompt,
                    "answer": answer,
                    "level": 1,
                    "length": len(tokens),
                    "finished": finished,
                    "reward": float(finished and text.lstrip(".") == answer),
                    "tokens": tokens,
                }
            )
    return pd.DataFrame(rows)


def test_apply_max_length_truncates_and_rescores():
    f = _frame([[("5", True), ("...5", True), ("......5", True), ("." * 32, False)]])
    cut = apply_max_length(f, 4)
    # "5⏎" (2) fits; "...5⏎" (5) keeps "...5" without EOS: truncated, re-scored 0;
    # "......5⏎" (8) -> "....", 0; the unfinished one stays truncated at 4
    assert cut["length"].tolist() == [2, 4, 4, 4]
    assert cut["length_sampled"].tolist() == [2, 5, 8, 32]
    assert cut["truncated"].tolist() == [False, True, True, True]
    assert cut["reward"].tolist() == [1.0, 0.0, 0.0, 0.0]
    assert cut["response"].tolist() == ["5" + EOS, "...5", "....", "...."]
    assert apply_max_length(f, 5)["reward"].tolist() == [1.0, 1.0, 0.0, 0.0]  # "...5⏎" fits at 5
    with pytest.raises(ValueError, match="max_length"):
        apply_max_length(f, 0)
    with pytest.raises(ValueError, match="max_length"):
        apply_max_length(f, 33)  # beyond the sampling limit: unknown what would have come


def test_analyse_by_hand():
    # one all-right group of lengths 2, 3, 6, 8 with L_max = 8, L_cache = 4, factor 1:
    # penalties 0, 0, -0.5, -1 -> rewards 1, 1, 0.5, 0 (mean 0.625); the task reward alone is
    # all 1 (no signal). Second group: "5⏎" right, "....9⏎" wrong (6), "........" truncated.
    f = _frame(
        [
            [("5", True), (".5", True), ("....5", True), ("......5", True)],
            [("5", True), ("....9", True), ("........", False), ("9", True)],
        ],
        limit=8,
    )
    a = analyse(f, ShapingSettings(8, 4, 1.0))
    r = a.responses
    g0 = r[r["group"] == 0]
    assert g0["penalty"].tolist() == pytest.approx([0.0, 0.0, -0.5, -1.0])
    assert np.allclose(g0["adv_task"], 0.0)
    dev = np.array([0.375, 0.375, -0.125, -0.625])
    std = math.sqrt((dev**2).sum() / 3)  # unbiased
    assert np.allclose(g0["adv_dapo"], dev / (std + 1e-6), atol=1e-6)
    groups = a.groups.set_index("group")
    # 6 pairs tied on the task reward; all but (2 tokens, 3 tokens) are separated; none reversed
    assert groups.loc[0, "ties_broken"] == 5 and groups.loc[0, "pairs_reversed"] == 0
    assert groups.loc[1, "n_truncated"] == 1 and groups.loc[1, "n_right"] == 1

    # gradient weight of DAPO's token-mean loss at ratio 1: A_i / N per token, so A_i * L_i / N per
    # response (N = real tokens in the batch); with filtering N drops the truncated tokens and the
    # truncated response gets exactly 0
    lengths = r["length"].to_numpy()
    adv = r["adv_dapo"].to_numpy()
    n_all = lengths.sum()
    n_kept = lengths[~r["truncated"].to_numpy()].sum()
    assert np.allclose(r["grad"], adv * lengths / n_all, atol=1e-9)
    kept = np.where(r["truncated"], 0.0, adv * lengths / n_kept)
    assert np.allclose(r["grad_filtered"], kept, atol=1e-9)
    trunc = r["truncated"].to_numpy()
    assert (r.loc[trunc, "grad_filtered"] == 0).all() and (r.loc[trunc, "grad"] != 0).all()
    share = np.abs(r["grad"].to_numpy())[trunc].sum() / np.abs(r["grad"].to_numpy()).sum()
    assert a.summary["grad_share_truncated"] == pytest.approx(share)
    assert a.summary["masked_token_share"] == pytest.approx(8 / n_all)
    assert a.summary["truncated_share"] == pytest.approx(1 / 8)
    # the task reward gives group 0 no signal, the penalty does
    sch = a.schemes.set_index("scheme")
    assert sch.loc["task", "signal_groups"] == 0.5 and sch.loc["dapo", "signal_groups"] == 1.0
    assert sch.loc["dapo", "length_adv_corr"] < 0
    assert np.isfinite(a.schemes[["mean_reward", "signal_groups", "length_adv_corr"]].to_numpy()).all()


def test_factor_above_one_reverses_right_and_wrong():
    # right answer of 8 tokens vs wrong answer of 2 tokens, L_max 8, L_cache 4:
    # factor 1: 1 - 1 = 0 vs 0 -> tie (no reversal); factor 2: 1 - 2 = -1 < 0 -> reversed
    f = _frame([[("......5", True), ("9", True)]])
    assert analyse(f, ShapingSettings(8, 4, 1.0)).summary["pairs_reversed"] == 0
    assert analyse(f, ShapingSettings(8, 4, 2.0)).summary["pairs_reversed"] == 1


def test_analyse_errors():
    f = _frame([[("5", True), ("9", True)]])
    with pytest.raises(ValueError, match="buffer_length"):
        analyse(f, ShapingSettings(4, 5))
    with pytest.raises(ValueError, match="kimi_weight"):
        analyse(f, ShapingSettings(4, 2, kimi_weight=-1.0))
    with pytest.raises(ValueError, match="penalty_factor"):
        analyse(f, ShapingSettings(4, 2, penalty_factor=float("nan")))
    with pytest.raises(ValueError, match="rollouts"):
        analyse(f.iloc[:0], ShapingSettings())


def _negative_zeros(frame: pd.DataFrame) -> list[str]:
    """Float columns of ``frame`` holding a -0.0."""
    return [
        c
        for c in frame.select_dtypes("floating").columns
        if (np.signbit(frame[c].to_numpy()) & (frame[c].to_numpy() == 0)).any()
    ]


def test_no_negative_zero_in_exported_frames():
    # -f * 0 is -0.0 in IEEE arithmetic (the penalty before the buffer, -grad of a zero weight); a CSV
    # would show "-0.0". Every frame the page plots or exports has 0.0 there instead.
    assert math.copysign(1.0, float(-1.0 * torch.zeros(1))) == -1.0  # the raw arithmetic does give -0.0
    s = ShapingSettings(8, 4, 1.0)
    curves = penalty_curves(s)
    assert (curves["length"] < 4).any() and _negative_zeros(curves) == []
    assert not re.search(r"(^|,)-0(\.0*)?(,|$)", curves.to_csv(index=False), re.M)  # no "-0.0" cell
    assert _negative_zeros(kimi_curve(1, 9, weight=2.0)) == []
    f = _frame(
        [
            [("5", True), (".5", True), ("....5", True), ("......5", True)],
            [("5", True), ("....9", True), ("........", False), ("9", True)],
        ],
        limit=8,
    )
    a = analyse(f, s)
    for frame in (a.responses, a.groups, a.schemes, sweep(f, s, limit=8)):
        assert _negative_zeros(frame) == []
    assert not any(isinstance(v, float) and v == 0 and math.copysign(1.0, v) < 0 for v in a.summary.values())
    # factor 0: every penalty is -0 * ramp
    zero = analyse(f, ShapingSettings(8, 4, 0.0))
    assert (zero.responses["penalty"] == 0).all() and _negative_zeros(zero.responses) == []


# ------------------------------------------------------------------------------------ real rollouts
@pytest.fixture(scope="module")
def rollouts() -> pd.DataFrame:
    return sample_length_rollouts(0, n_prompts=8, group_size=4, limit=16)


def test_real_rollouts_are_deterministic_and_shaped(rollouts):
    again = sample_length_rollouts(0, n_prompts=8, group_size=4, limit=16)
    assert rollouts.drop(columns="tokens").equals(again.drop(columns="tokens"))
    assert list(rollouts["tokens"]) == list(again["tokens"])
    assert len(rollouts) == 32 and rollouts["length"].between(1, 16).all()
    assert set(rollouts["reward"]) <= {0.0, 1.0}
    with pytest.raises(ValueError, match="n_prompts"):
        sample_length_rollouts(0, n_prompts=0)


def test_sweep_matches_analyse(rollouts):
    s = ShapingSettings(6, 3, 1.0)
    sw = sweep(rollouts, s, limit=16)
    a = analyse(rollouts, s)
    row = sw[(sw["axis"] == "max_length") & (sw["value"] == 6)].iloc[0]
    assert row["mean_reward_dapo"] == pytest.approx(a.summary["mean_reward_dapo"])
    assert row["truncated_share"] == pytest.approx(a.summary["truncated_share"])
    lmax = sw[sw["axis"] == "max_length"]
    assert lmax["value"].tolist() == list(range(1, 17))
    assert (np.diff(lmax["truncated_share"]) <= 1e-12).all()  # a longer limit never truncates more
    assert (lmax["buffer_length"] <= lmax["max_length"]).all()
    lc = sw[sw["axis"] == "buffer_length"]
    assert lc["value"].tolist() == list(range(0, 7)) and (lc["max_length"] == 6).all()
    # a longer buffer never raises the shaped reward
    assert (np.diff(lc["mean_reward_dapo"]) <= 1e-12).all()
    assert np.isfinite(sw.drop(columns="axis").to_numpy(dtype=float)).all()


def test_sweep_is_analyse_at_every_setting(rollouts):
    # the sweep computes every setting at once; each row must be what analyse gives at that
    # setting, exactly (the same penalty, rounded to the default dtype, the same means)
    for s in (ShapingSettings(6, 3, 1.0), ShapingSettings(9, 0, 2.5), ShapingSettings(16, 12, 0.0)):
        sw = sweep(rollouts, s, limit=16)
        for row in sw.itertuples():
            a = analyse(rollouts, ShapingSettings(row.max_length, row.buffer_length, s.penalty_factor))
            schemes = a.schemes.set_index("scheme")
            for key in ("mean_reward_task", "mean_reward_dapo", "truncated_share", "penalised_share"):
                assert getattr(row, key) == a.summary[key], (s, row.axis, row.value, key)
            assert row.signal_task == schemes.loc["task", "signal_groups"]
            assert row.signal_dapo == schemes.loc["dapo", "signal_groups"]


# ------------------------------------------------------------------------------------------ figures
def _finite(fig) -> None:
    go.Figure(
        fig.to_dict()
    )  # the builders skip plotly's validation for speed: validate here (raises on a bad property)
    for trace in fig.to_plotly_json()["data"]:
        for axis in ("x", "y"):
            vals = [
                v
                for v in np.ravel(np.asarray(trace_values(trace, axis), dtype=object))
                if isinstance(v, (int, float, np.floating, np.integer))
            ]
            assert np.isfinite(np.asarray(vals, dtype=float)).all(), (trace.get("name"), axis)


def test_figures(rollouts):
    s = ShapingSettings(6, 3, 1.0)
    a = analyse(rollouts, s)
    curves = penalty_curves(s)
    fig = penalty_curves_figure(curves, kimi_curve(1, 6), 6, 3, {}, show=("kimi", "cosine"))
    _finite(fig)
    assert len(fig.layout.annotations) == 3  # three panel titles
    assert len(penalty_curves_figure(curves, None, 6, 3, {}, show=()).layout.annotations) == 1
    hist = length_histogram_figure(a.responses, curves, 6, 3, {})
    _finite(hist)
    bars = [t for t in hist.data if t.type == "bar"]
    assert sum(float(np.sum(b.y)) for b in bars) == len(rollouts)  # every response counted once
    g = a.responses[a.responses["group"] == 0]
    gf = group_figure(g, {}, ("task", "dapo", "kimi", "cosine"))
    _finite(gf)
    assert len(gf.data) == 4 and all(len(t.y) == 4 for t in gf.data)
    ff = filter_figure(a.responses, {})
    _finite(ff)
    totals = np.sum([np.asarray(t.x) for t in ff.data], axis=0)
    assert np.allclose(totals, 1.0) or a.responses["grad"].abs().sum() == 0
    truncated_bar = next(t for t in ff.data if t.name == "truncated")
    assert truncated_bar.x[1] == 0.0  # nothing left on truncated responses with filtering
    sf = sweep_figure(sweep(rollouts, s, limit=16), 6, 3, {})
    _finite(sf)
    assert len(sf.data) == 10  # five series in two panels


def test_the_curves_give_dapo_a_row_of_its_own(rollouts):
    # found at 1024 px with the sidebar open: three panels in one row ran their titles together and the
    # tick labels of one into the panel on its left; DAPO's panel (the questions') now spans the width
    s = ShapingSettings(6, 3, 1.0)
    curves = penalty_curves(s)
    layout = penalty_curves_figure(curves, kimi_curve(1, 6), 6, 3, {}, show=("kimi", "cosine")).layout
    assert list(layout.xaxis.domain) == [0.0, 1.0]
    assert layout.yaxis2.domain[1] < layout.yaxis.domain[0] and layout.yaxis3.domain == layout.yaxis2.domain
    assert layout.xaxis2.domain[1] < layout.xaxis3.domain[0]  # the other two side by side, apart
    assert [a.text for a in layout.annotations] == ["panel_dapo", "panel_kimi", "panel_cosine"]
    assert {a.font.size for a in layout.annotations} == {13}
    assert layout.yaxis.title.text == layout.yaxis2.title.text == "reward"  # each row's first panel
    one = penalty_curves_figure(curves, None, 6, 3, {}, show=("cosine",)).layout
    assert list(one.xaxis.domain) == list(one.xaxis2.domain) == [0.0, 1.0]  # one row each
    alone = penalty_curves_figure(curves, None, 6, 3, {}, show=()).layout
    assert list(alone.yaxis.domain) == [0.0, 1.0] and alone.height < layout.height


def test_a_spec_is_the_validated_figure(rollouts):
    # as_spec (what the page shows, no go.Figure built) is the same figure: plotly validates it here,
    # and its JSON is the JSON of the builder's go.Figure, both validated (plotly's default template on both)
    s = ShapingSettings(6, 3, 1.0)
    a = analyse(rollouts, s)
    curves = penalty_curves(s)
    group = a.responses[a.responses["group"] == 0]
    builds = (
        lambda **kw: penalty_curves_figure(curves, kimi_curve(1, 6), 6, 3, {}, show=("kimi", "cosine"), **kw),
        lambda **kw: length_histogram_figure(a.responses, curves, 6, 3, {}, **kw),
        lambda **kw: group_figure(group, {}, ("task", "dapo", "kimi", "cosine"), **kw),
        lambda **kw: filter_figure(a.responses, {}, **kw),
        lambda **kw: sweep_figure(sweep(rollouts, s, limit=16), 6, 3, {}, **kw),
    )
    for build in builds:
        spec = build(as_spec=True)
        assert isinstance(spec, dict) and "template" not in spec["layout"]
        assert not any(isinstance(v, np.ndarray) for trace in spec["data"] for v in trace.values())
        assert json.loads(go.Figure(spec).to_json()) == json.loads(go.Figure(build().to_dict()).to_json())
