"""The live page's library pieces (issue 39, "a run you can watch"): the smoothed line over a run's per-step
points (``rlviz.plots.live.ema``), the curves' figure before, during and after a run
(``live_metrics_figure``), and the run's reading read from its own metrics
(``rlviz.experiments.live.run_reading``); the dynamic-sampling run's comparison
(``rlviz.experiments.sampling.run_comparison``) and its figure's smoothed lines."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from rlviz.experiments.live import reading_parts, run_reading
from rlviz.experiments.sampling import run_comparison
from rlviz.i18n import t as tx
from rlviz.plots.live import SMOOTH_SPAN, ema, live_metrics_figure
from rlviz.plots.sampling import live_sampling_figure


# ---------------------------------------------------------------------------------------- ema
def test_ema_by_hand():
    # span 3: a = 2 / (3 + 1) = 0.5; s_0 = x_0, s_t = 0.5 x_t + 0.5 s_{t-1}
    # x = 0, 1, 0, 1: s = 0, 0.5 * 1 + 0.5 * 0 = 0.5, 0.5 * 0 + 0.5 * 0.5 = 0.25, 0.5 * 1 + 0.5 * 0.25 = 0.625
    assert ema([0, 1, 0, 1], 3) == pytest.approx([0.0, 0.5, 0.25, 0.625])
    # span 5 (the page's): a = 2 / 6 = 1/3; x = 0.4, 0.85, 0.4: s = 0.4, 0.4 + (0.85 - 0.4) / 3 = 0.55,
    # 0.55 + (0.4 - 0.55) / 3 = 0.5
    assert ema([0.4, 0.85, 0.4], 5) == pytest.approx([0.4, 0.55, 0.5])
    assert SMOOTH_SPAN == 5


def test_ema_is_pandas_ewm_without_adjustment():
    values = [0.4, 0.85, 0.41, 0.8, 0.45, 0.9, 0.5, 0.86]
    expected = pd.Series(values).ewm(span=SMOOTH_SPAN, adjust=False).mean().tolist()
    assert ema(values, SMOOTH_SPAN) == pytest.approx(expected)


def test_ema_edges():
    assert ema([], 5) == []
    assert ema([0.3], 5) == [0.3]
    assert ema([0.1, 0.9, 0.2], 1) == [0.1, 0.9, 0.2]  # span 1: a = 1, the values themselves
    for bad in (0, -1, 2.5, True):
        with pytest.raises(ValueError, match="span"):
            ema([1.0], bad)


# ---------------------------------------------------------------------------------------- the curves
def _frame(rewards: dict[str, list[float]]) -> pd.DataFrame:
    rows = [{"arm": arm, "step": i + 1, "reward_mean": r} for arm, rs in rewards.items() for i, r in enumerate(rs)]
    return pd.DataFrame(rows)


def test_each_series_is_faded_points_under_its_moving_average():
    zigzag = [0.4, 0.85, 0.4, 0.85, 0.4, 0.85]
    fig = live_metrics_figure(_frame({"grpo": zigzag}), ["reward_mean"], {}, by="arm", smooth=SMOOTH_SPAN)
    raw, line = fig.data
    assert list(raw.y) == zigzag and raw.mode == "markers" and raw.opacity < 0.5 and raw.showlegend is False
    assert list(line.y) == pytest.approx(ema(zigzag, SMOOTH_SPAN)) and line.mode == "lines" and line.showlegend
    assert raw.name == line.name == "GRPO" and raw.legendgroup == line.legendgroup  # one legend entry hides both
    # from one step to the next the average moves a third of the points' jump (a = 1/3): the trend, not the zigzag
    jumps = [abs(b - a) for a, b in zip(line.y, line.y[1:])]
    assert max(jumps) == pytest.approx((0.85 - 0.4) / 3)


def test_one_point_and_no_smoothing_draw_the_series_as_before():
    fig = live_metrics_figure(_frame({"grpo": [0.5]}), ["reward_mean"], {}, by="arm", smooth=SMOOTH_SPAN)
    assert len(fig.data) == 1 and fig.data[0].showlegend and list(fig.data[0].y) == [0.5]
    fig = live_metrics_figure(_frame({"grpo": [0.5, 0.7]}), ["reward_mean"], {}, by="arm")
    assert len(fig.data) == 1 and fig.data[0].mode == "lines+markers"


def test_before_a_run_the_figure_is_its_empty_panels_over_the_runs_steps():
    empty = pd.DataFrame(columns=["arm", "step", "reward_mean", "entropy"])
    words = {"reward_mean": "mean reward", "entropy": "entropy", "empty": "Press Run: the curves grow here"}
    fig = live_metrics_figure(empty, ["reward_mean", "entropy"], words, by="arm", smooth=SMOOTH_SPAN, steps=30)
    assert fig.layout.title.text == "Press Run: the curves grow here"
    # one trace without a point per panel (plotly draws no panel no trace refers to), no number invented
    assert len(fig.data) == 2 and all(len(t.x) == 0 and len(t.y) == 0 for t in fig.data)
    assert {(t.xaxis, t.yaxis) for t in fig.data} == {("x", "y"), ("x2", "y2")}
    assert fig.layout.yaxis.showticklabels is False and fig.layout.yaxis2.showticklabels is False
    assert tuple(fig.layout.xaxis.range) == (0.5, 30.5) and tuple(fig.layout.xaxis2.range) == (0.5, 30.5)
    assert [a.text for a in fig.layout.annotations] == ["mean reward", "entropy"]  # the panels' titles


def test_during_a_run_the_curves_grow_into_the_same_frame():
    fig = live_metrics_figure(
        _frame({"grpo": [0.4, 0.8]}), ["reward_mean"], {"empty": "x"}, by="arm", smooth=SMOOTH_SPAN, steps=30
    )
    assert tuple(fig.layout.xaxis.range) == (0.5, 30.5)  # the whole run's steps, from the first point
    assert fig.layout.title.text is None  # the empty line goes once a point is drawn
    assert fig.layout.yaxis.showticklabels is not False


# ---------------------------------------------------------------------------------------- the reading
def _entropy(rows):
    cols = ["arm", "entropy_first", "entropy_last", "entropy_change", "steps", "clip_high_mean"]
    return pd.DataFrame([dict(zip(cols, r)) for r in rows])


def _summary(rows):
    cols = ["arm", "heldout_pass_at_1_start", "heldout_pass_at_1_end", "heldout_gain"]
    return pd.DataFrame([dict(zip(cols, r)) for r in rows])


def test_the_reading_names_the_arm_that_lost_most_entropy_and_the_one_that_gained_most():
    entropy = _entropy(
        [
            ("grpo", 0.90, 0.80, -0.10, 30, 0.01),
            ("dapo", 0.90, 0.50, -0.40, 30, 0.003),  # fell most: -0.40
            ("gspo", 0.90, 0.95, 0.05, 30, 0.0),
        ]
    )
    summary = _summary([("grpo", 0.20, 0.35, 0.15), ("dapo", 0.20, 0.31, 0.11), ("gspo", 0.20, 0.22, 0.02)])
    reading = run_reading(entropy, summary)
    assert reading["entropy"] == {
        "arm": "dapo",
        "first": 0.90,
        "last": 0.50,
        "change": -0.40,
        "steps": 30,
        "clip_high": 0.003,
        "fell": True,
        "alone": False,
    }
    assert reading["heldout"] == {"arm": "grpo", "start": 0.20, "end": 0.35, "gain": 0.15, "rose": True, "alone": False}


def test_the_reading_says_so_when_no_entropy_fell_and_no_gain_rose():
    entropy = _entropy([("grpo", 0.60, 0.70, 0.10, 2, 0.2), ("gspo", 0.60, 0.77, 0.17, 2, 0.23)])
    summary = _summary([("grpo", 0.30, 0.25, -0.05), ("gspo", 0.30, 0.28, -0.02)])
    reading = run_reading(entropy, summary)
    assert reading["entropy"]["arm"] == "grpo" and reading["entropy"]["fell"] is False  # rose least: +0.10
    assert reading["heldout"]["arm"] == "gspo" and reading["heldout"]["rose"] is False  # lost least: -0.02


def test_the_reading_waits_for_what_is_not_measured():
    nan = math.nan
    summary = _summary([("grpo", 0.30, nan, nan), ("gspo", 0.30, 0.4, 0.1)])  # GRPO not finished yet
    reading = run_reading(_entropy([]), summary)
    assert reading["entropy"] is None and reading["heldout"]["arm"] == "gspo"
    assert run_reading(_entropy([]), _summary([("grpo", nan, nan, nan)])) == {"entropy": None, "heldout": None}
    # a tie goes to the first arm in run order
    tie = run_reading(_entropy([("a", 1, 0.5, -0.5, 3, 0), ("b", 1, 0.5, -0.5, 3, 0)]), _summary([]))
    assert tie["entropy"]["arm"] == "a"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_run_of_one_algorithm_reads_without_comparisons(lang):
    """Found by a new learner: a run of GRPO alone read "no algorithm lost entropy; GRPO gained the least ...
    GRPO gained the most held-out pass@1". With one arm the reading says what that arm did, nothing more."""
    rose = _entropy([("grpo", 0.60, 0.70, 0.10, 30, 0.02)])  # +0.10: rose
    fell = _entropy([("grpo", 0.90, 0.50, -0.40, 30, 0.02)])  # -0.40: fell
    gained = _summary([("grpo", 0.20, 0.35, 0.15)])
    lost = _summary([("grpo", 0.30, 0.25, -0.05)])
    titles = {"grpo": "GRPO"}
    # the comparing sentences' words: "no algorithm", "the least", "the most" (没有哪个算法, 最少, 最多)
    comparing = (
        ("no algorithm", "the least", "the most", "most", "least") if lang == "en" else ("没有哪个", "最少", "最多")
    )
    cases = [(rose, gained, "live.entropy_reading_rose_one", "live.heldout_reading_one")]
    cases.append((fell, lost, "live.entropy_reading_one", "live.heldout_reading_fell_one"))
    for entropy, summary, entropy_key, heldout_key in cases:
        reading = run_reading(entropy, summary)
        assert reading["entropy"]["alone"] and reading["heldout"]["alone"]
        e, h = reading["entropy"], reading["heldout"]
        parts = reading_parts(reading, titles, lang)
        assert parts == [
            tx(
                entropy_key,
                lang,
                title="GRPO",
                first=f"{e['first']:.2f}",
                last=f"{e['last']:.2f}",
                steps=30,
                high="2.0%",
            ),
            tx(
                heldout_key,
                lang,
                title="GRPO",
                start=f"{h['start']:.3f}",
                end=f"{h['end']:.3f}",
                gain=f"{h['gain']:+.3f}",
            ),
        ]
        assert not any(word in part for part in parts for word in comparing), parts
    # two arms still compare: GSPO gained the most (0.15 > 0.02)
    two = run_reading(rose, _summary([("grpo", 0.20, 0.22, 0.02), ("gspo", 0.20, 0.35, 0.15)]))
    assert not two["heldout"]["alone"] and reading_parts(two, titles | {"gspo": "GSPO"}, lang)[1] == tx(
        "live.heldout_reading", lang, title="GSPO", start="0.200", end="0.350", gain="+0.150"
    )


# ---------------------------------------------------------------------------------------- dynamic sampling
def test_the_sampling_comparison_by_hand():
    summary = pd.DataFrame(
        {
            "arm": ["grpo", "grpo_ds"],
            "steps": [10, 10],
            "signal_groups_mean": [4.5, 8.0],
            "rollouts_total": [640, 1600],
            "rollouts_per_signal_group": [640 / 45, 1600 / 80],
        }
    )
    got = run_comparison(summary)
    # per step: 640 / 10 = 64 and 1600 / 10 = 160 responses; 160 / 64 = 2.5 times
    assert got == pytest.approx(
        {
            "signal_grpo": 4.5,
            "signal_grpo_ds": 8.0,
            "rollouts_grpo": 64.0,
            "rollouts_grpo_ds": 160.0,
            "per_signal_grpo": 640 / 45,
            "per_signal_grpo_ds": 20.0,
            "times": 2.5,
        }
    )
    # stopped between the arms (10 and 9 steps): per step, each over its own steps
    summary.loc[1, ["steps", "rollouts_total"]] = [9, 1440]
    assert run_comparison(summary)["rollouts_grpo_ds"] == pytest.approx(160.0)
    summary.loc[1, "steps"] = 0  # an arm without a step: nothing to compare yet
    assert run_comparison(summary) is None


def test_the_sampling_figure_smooths_the_per_step_series_not_the_running_total():
    df = pd.DataFrame(
        {
            "arm": ["grpo"] * 3,
            "step": [1, 2, 3],
            "signal_groups": [3.0, 6.0, 3.0],
            "rollouts_cum": [64, 128, 192],
            "pass_at_1": [0.3, 0.6, 0.3],
        }
    )
    fig = live_sampling_figure(df, 8, {}, smooth=SMOOTH_SPAN, steps=15)
    by_panel: dict[str, list] = {}
    for t in fig.data:
        by_panel.setdefault(t.yaxis, []).append(t)
    assert [t.mode for t in by_panel["y2"]] == ["lines+markers"]  # the running total, as it is
    for axis, values in (("y", [3.0, 6.0, 3.0]), ("y3", [0.3, 0.6, 0.3]), ("y4", [0.3, 0.6, 0.3])):
        raw, line = by_panel[axis]
        assert list(raw.y) == values and raw.mode == "markers"
        assert list(line.y) == pytest.approx(ema(values, SMOOTH_SPAN))
    assert tuple(fig.layout.xaxis.range) == (0.5, 15.5)
    empty = live_sampling_figure(df.iloc[:0], 8, {"empty": "Press Run"}, smooth=SMOOTH_SPAN, steps=15)
    assert empty.layout.title.text == "Press Run" and all(len(t.x) == 0 for t in empty.data)
    assert {t.yaxis for t in empty.data} == {"y", "y2", "y3", "y4"}  # every panel drawn, none with a point


# ---------------------------------------------------------------------------------------- fixes of the make_sum run
def test_the_arms_lie_apart_only_beyond_the_noise_of_their_widest_pair_by_hand():
    """The run's reading says the best algorithm separates from the worst only beyond evaluation noise of
    the run's own task's held-out set, widened for the pairs k arms make (a tester's 2-step make_sum run of
    4 algorithms was read as "separates")."""
    from rlviz.experiments.live import apart_text, heldout_apart
    from rlviz.i18n import t

    # that run: make_sum's 57 held-out prompts x 8 samples = 456; ends 108, 131, 116 and 100 right of 456.
    # low = 100/456 = 0.21930, high = 131/456 = 0.28728, gap = 31/456 = 0.06798; middle p = 115.5/456 = 0.25329;
    # SE of a difference = sqrt(2 p (1 - p) / 456) = sqrt(2 * 0.25329 * 0.74671 / 456) = 0.028802;
    # 4 arms: m = 6 pairs, alpha = 2 (1 - Phi(2)) = 0.045500, z = Phi^-1(1 - 0.045500 / 12) = Phi^-1(0.996208)
    # = 2.6701 (normal table), margin = 2.6701 * 0.028802 = 0.076903 > 0.06798: within the noise
    ends = [108 / 456, 131 / 456, 116 / 456, 100 / 456]
    got = heldout_apart(ends, 57, 8)
    assert got["samples"] == 456 and got["arms"] == 4 and got["pairs"] == 6
    assert got["z"] == pytest.approx(2.6701, abs=1e-4)
    assert got["margin"] == pytest.approx(0.076903, abs=1e-5) and not got["apart"]
    # the old rule read it as apart: 2 SE with reversed addition's 96 prompts (768 samples) =
    # 2 sqrt(2 * 0.25329 * 0.74671 / 768) = 0.044386 < 0.06798
    assert 2 * math.sqrt(2 * (115.5 / 456) * (1 - 115.5 / 456) / 768) == pytest.approx(0.044386, abs=1e-5)
    # two arms keep plain two standard errors: ends 0.5 and 0.6, 456 samples: p = 0.55,
    # margin = 2 sqrt(2 * 0.55 * 0.45 / 456) = 2 * 0.032947 = 0.065895 < 0.1: apart
    two = heldout_apart([0.5, float("nan"), 0.6], 57, 8)
    assert two["pairs"] == 1 and two["z"] == pytest.approx(2.0) and two["margin"] == pytest.approx(0.065895, abs=1e-5)
    assert two["apart"]
    assert heldout_apart([0.5, float("nan")], 57, 8) is None and heldout_apart([0.4, 0.6], 57, 0) is None
    with pytest.raises(ValueError, match="^prompts"):
        heldout_apart([0.4, 0.6], -1, 8)
    summary = pd.DataFrame({"heldout_pass_at_1_end": ends})
    for lang in ("en", "zh"):
        text = apart_text(summary, 57, 8, lang)
        assert text.endswith(t("live.live_verdict.noise", lang)) and "0.077" in text and "456" in text
    assert apart_text(summary.iloc[:1], 57, 8, "en") == ""
    # the live page's held-out prediction counts the run's task's prompts too: 57 x 8 = 456, 96 x 8 = 768
    from rlviz.teach.predict import _live_heldout_fields

    assert _live_heldout_fields({"task": "make_sum", "heldout_samples": 8, "steps": 2})["n"] == "456"
    assert _live_heldout_fields({"task": "reversed_addition", "heldout_samples": 8, "steps": 2})["n"] == "768"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_heatmap_title_names_the_reference_answer_as_its_task_does(lang):
    """The token heatmaps' title says what the task's registry says of its reference answer
    (``TaskSpec.reference_answer``): "digits reversed" is reversed addition's, make_sum has many answers."""
    from rlviz.experiments.live import prompt_line
    from rlviz.lm.tasks import TASKS

    reversed_note = TASKS["reversed_addition"].reference_answer[lang].split("{answer}")[1].strip()  # (digits reversed)
    assert reversed_note
    for name, prompt, answer in (("make_sum", "12:5=", "5+5+2"), ("reversed_addition", "37+5=", "24")):
        line = prompt_line({"prompt": prompt, "answer": answer}, name, "GRPO", lang)
        assert line.startswith("GRPO") and f"`{prompt}`" in line
        assert TASKS[name].reference_answer[lang].format(answer=answer) in line
        assert (reversed_note in line) == (name == "reversed_addition"), line
    assert "many" in prompt_line({"prompt": "12:5=", "answer": "5+5+2"}, "make_sum", "GRPO", "en")
    with pytest.raises(ValueError, match="^task"):
        prompt_line({"prompt": "1+1=", "answer": "2"}, "nope", "GRPO", lang)
