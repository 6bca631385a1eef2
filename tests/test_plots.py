"""Figure builders: fixed styles, NaN never drawn, empty frames never crash."""

from __future__ import annotations

import inspect
import json
import math
import re

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rlviz import plots
from rlviz.core.objectives import ALGORITHMS, TOKEN_STATES
from rlviz.plots import (
    OKABE_ITO,
    PALETTE,
    algorithm_order,
    algorithm_style,
    base_layout,
    text_color_on,
    token_weight_figure,
)
from rlviz.plots import live as live_plots
from rlviz.plots import moe as moe_plots
from rlviz.plots.home import lineage_figure
from rlviz.plots.live import live_metrics_figure, ratio_histogram_figure, token_view_frame
from rlviz.plots.moe import (
    ARM_STYLES,
    arm_metrics_figure,
    log_ratio_figure,
    route_change_figure,
    routing_part,
    token_strip_figure,
)

NINE = ["ppo", "grpo", "dr_grpo", "dapo", "gspo", "gspo_token", "gmpo", "sapo", "cispo"]


def _numbers(obj):
    """Every number in a JSON-like structure."""
    if isinstance(obj, dict):
        for v in obj.values():
            yield from _numbers(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _numbers(v)
    elif isinstance(obj, (int, float)) and not isinstance(obj, bool):
        yield obj


def _no_nan(fig: go.Figure):
    spec = json.loads(fig.to_json())
    for trace in spec["data"]:
        for key in ("x", "y"):
            values = trace.get(key)
            if isinstance(values, list):
                assert all(v is not None for v in values), f"{trace.get('name')}: null in {key}"
        assert all(math.isfinite(v) for v in _numbers(trace)), trace.get("name")
    return spec


def test_every_registry_entry_has_its_own_style():
    assert list(algorithm_order()) == list(ALGORITHMS)
    assert NINE == list(ALGORITHMS)[:9]
    styles = [algorithm_style(n) for n in ALGORITHMS]
    assert len({(s["color"], s["dash"]) for s in styles}) == len(styles)  # colour, then dash, tells them apart
    for s in styles:
        assert s["color"].startswith("#") and len(s["color"]) == 7
        assert s["color"].upper() != OKABE_ITO["yellow"]  # vanishes on white
        assert s["dash"] in {"solid", "dot", "dash", "longdash", "dashdot", "longdashdot"}
    # the four defaults of the live page and DAPO vs SAPO (once too close) differ in colour itself
    assert len({algorithm_style(n)["color"] for n in ("grpo", "dapo", "gspo", "sapo")}) == 4
    # GSPO and GSPO-token differ in colour too: a bar chart shows no dash
    assert algorithm_style("gspo")["color"] != algorithm_style("gspo_token")["color"]


def test_an_entry_without_a_style_gets_an_unused_one(monkeypatch):
    import dataclasses

    for k in range(12):  # more entries than the palette has colours: dashes take over
        copy = dataclasses.replace(ALGORITHMS["dapo"], name=f"dapo_copy{k}", style=None)
        monkeypatch.setitem(ALGORITHMS, copy.name, copy)
    pairs = [(s["color"], s["dash"]) for s in map(algorithm_style, ALGORITHMS)]
    assert len(set(pairs)) == len(pairs)
    assert algorithm_order()[-1] == "dapo_copy11"


def test_an_entry_without_a_style_takes_no_styled_entrys_colour():
    # 19 entries, 10 with a style of their own: the other 9 take the palette's free colours, and once
    # those run out a free colour dashed, never a styled entry's colour (DPPO-TV once drew GRPO's
    # blue, dashed, and read as a GRPO variant)
    styled = {algorithm_style(n)["color"] for n, s in ALGORITHMS.items() if s.style}
    unstyled = [n for n, s in ALGORITHMS.items() if not s.style]
    assert len(styled) + len(unstyled) > len(set(PALETTE) | styled)  # more entries than colours today
    assert not {algorithm_style(n)["color"] for n in unstyled} & styled
    assert algorithm_style("dppo_tv")["color"] != algorithm_style("grpo")["color"]


def test_example_keeps_its_algorithm_colour():
    assert algorithm_style("ppo_dual")["color"] == algorithm_style("ppo")["color"]
    assert algorithm_style("ppo_dual")["dash"] != algorithm_style("ppo")["dash"]


def test_text_colour_reads_on_its_box():
    # WCAG: white on black, black on white and on Okabe-Ito orange (luminance ~0.46)
    assert text_color_on("#000000") == "#ffffff"
    assert text_color_on("#FFFFFF") == "#000000"
    assert text_color_on(OKABE_ITO["orange"]) == "#000000"
    assert text_color_on(OKABE_ITO["blue"]) == "#ffffff"


def test_style_is_a_copy_and_unknown_raises():
    algorithm_style("grpo")["color"] = "red"
    assert algorithm_style("grpo")["color"] != "red"
    with pytest.raises(ValueError, match="algorithm"):
        algorithm_style("reinforce")


def test_base_layout():
    fig = base_layout(go.Figure(), title="t", height=300, x_title="x", y_title="y")
    assert fig.layout.height == 300
    assert fig.layout.title.text == "t"
    assert fig.layout.xaxis.title.text == "x"


def _frame(algos=("grpo", "sapo"), steps=5):
    rows = []
    for a in algos:
        for s in range(steps):
            rows.append(
                {
                    "algorithm": a,
                    "step": s,
                    "reward_mean": 0.1 * s,
                    "clip_fraction": np.nan if a == "sapo" else 0.01 * s,
                    "gate_weight_mean": 0.9 if a == "sapo" else np.nan,
                    "entropy": np.nan if s == 2 else 1.0 - 0.05 * s,
                }
            )
    return pd.DataFrame(rows)


def test_live_metrics_small_multiples():
    df = _frame()
    metrics = ["reward_mean", "clip_fraction", "gate_weight_mean", "entropy"]
    fig = live_metrics_figure(df, metrics, {"reward_mean": "mean reward"})
    spec = _no_nan(fig)
    # grpo: 4 panels minus gate weight; sapo: 4 panels minus clip fraction
    groups = [tr["legendgroup"] for tr in spec["data"]]
    assert groups.count("grpo") == 3 and groups.count("sapo") == 3
    # legend once per algorithm, named by its registry title
    shown = [tr["name"] for tr in spec["data"] if tr.get("showlegend", True)]
    assert shown == [ALGORITHMS["grpo"].title, ALGORITHMS["sapo"].title]
    # the NaN step is dropped, not drawn
    entropy_grpo = [tr for tr in spec["data"] if tr["legendgroup"] == "grpo" and tr["y"][0] == pytest.approx(1.0)]
    assert entropy_grpo and 2 not in entropy_grpo[0]["x"]
    # colours follow the algorithm
    for tr in spec["data"]:
        assert tr["line"]["color"] == algorithm_style(tr["legendgroup"])["color"]
    titles = [a["text"] for a in spec["layout"]["annotations"]]
    assert "mean reward" in titles and "entropy" in titles


def test_live_metrics_empty_and_missing():
    # a panel without a point holds one trace without a point (plotly draws no panel no trace refers to)
    empty = pd.DataFrame(columns=["algorithm", "step", "reward_mean"])
    fig = live_metrics_figure(empty, ["reward_mean", "entropy"], {})
    assert isinstance(fig, go.Figure) and len(fig.data) == 2 and all(len(t.x) == len(t.y) == 0 for t in fig.data)
    fig = live_metrics_figure(pd.DataFrame(), [], {})
    assert len(fig.data) == 0
    fig = live_metrics_figure(_frame(), ["not_a_column"], {})
    assert len(fig.data) == 1 and len(fig.data[0].x) == 0


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    values=st.lists(
        st.one_of(st.floats(allow_nan=True, allow_infinity=True, width=32), st.none()), min_size=0, max_size=30
    ),
    algos=st.lists(st.sampled_from(NINE), min_size=1, max_size=4),
)
def test_live_metrics_never_draws_nan(values, algos):
    rows = [{"algorithm": algos[i % len(algos)], "step": i // len(algos), "entropy": v} for i, v in enumerate(values)]
    df = pd.DataFrame(rows, columns=["algorithm", "step", "entropy"])
    _no_nan(live_metrics_figure(df, ["entropy", "kl_ref"], {}))


def test_ratio_histogram_raw_and_binned():
    raw = pd.DataFrame({"algorithm": ["grpo"] * 4 + ["gspo"] * 3, "ratio": [0.9, 1.0, 1.1, np.nan, 1.0, np.inf, 1.0]})
    spec = _no_nan(ratio_histogram_figure(raw, {"name.gspo": "G"}, trust_region=(0.8, 1.28)))
    assert [tr["name"] for tr in spec["data"]] == [ALGORITHMS["grpo"].title, "G"]
    assert len(spec["data"][0]["x"]) == 3
    binned = pd.DataFrame(
        {"algorithm": ["sapo", "sapo"], "bin_left": [0.9, 1.0], "bin_right": [1.0, 1.1], "count": [3, np.nan]}
    )
    spec = _no_nan(ratio_histogram_figure(binned, {}))
    assert spec["data"][0]["type"] == "scatter" and spec["data"][0]["y"] == [3.0]
    assert spec["data"][0]["line"]["shape"] == "hvh"
    assert len(ratio_histogram_figure(pd.DataFrame(columns=["algorithm", "ratio"]), {}).data) == 0


def test_token_weight_heatmap():
    df = pd.DataFrame(
        {
            "response": [0, 0, 0, 1, 1],
            "position": [0, 1, 2, 0, 1],
            "token": ["1", "2", "", " ", "7"],
            "weight": [0.5, -0.25, 0.1, -1.0, 0.0],
            "advantage": [1.0, 1.0, 1.0, -1.0, -1.0],
        }
    )
    fig = token_weight_figure(df, {"row.0": "#0 ✓", "row.1": "#1 ✗"})
    spec = json.loads(fig.to_json())
    hm = spec["data"][0]
    assert hm["type"] == "heatmap"
    assert hm["zmid"] == 0 and hm["zmin"] == -1.0 and hm["zmax"] == 1.0
    assert hm["y"] == ["#0 ✓", "#1 ✗"]
    assert hm["z"][1][2] is None  # padding is blank, not a number
    assert hm["text"][0][:2] == ["1", "2"] and hm["text"][1][0] == "␣"
    assert "token" in hm["hovertemplate"] and "%{z" in hm["hovertemplate"]
    assert hm["customdata"][1][0][1] == "-1.000"


def test_token_weight_empty():
    fig = token_weight_figure(pd.DataFrame(), {})
    assert len(fig.data) == 0


def test_lineage():
    parents = {"ppo": None, "grpo": "ppo", "gspo": "grpo", "sapo": "gspo"}
    fig = lineage_figure(parents, {"name.gspo": "G", "hover.grpo": "the group baseline"})
    spec = json.loads(fig.to_json())
    assert len(spec["layout"]["shapes"]) == 4
    arrows = [a for a in spec["layout"]["annotations"] if a.get("showarrow")]
    assert len(arrows) == 3
    boxes = [a["text"] for a in spec["layout"]["annotations"] if not a.get("showarrow")]
    # a missing name: the registry title; a missing hover: the box label
    assert boxes == ["<b>PPO</b>", "<b>GRPO</b>", "<b>G</b>", "<b>SAPO</b>"]
    assert spec["data"][0]["hovertext"] == ["PPO", "the group baseline", "G", "SAPO"]


BUILDERS = (live_metrics_figure, ratio_histogram_figure, token_weight_figure, lineage_figure)


def test_words_reach_the_builders_only_through_labels():
    # no language code and no i18n lookup in rlviz.plots (the shared builders) or rlviz.plots.live:
    # one ``labels`` mapping per builder
    assert "rlviz.i18n" not in inspect.getsource(live_plots) and "rlviz.i18n" not in inspect.getsource(plots)
    for builder in BUILDERS:
        params = inspect.signature(builder).parameters
        assert "lang" not in params and "labels" in params, builder.__name__
        assert not [p for p in params if p.endswith(("_title", "_label", "_labels", "titles", "hover"))], (
            builder.__name__
        )
        assert re.search(r"labels: [^`]*``", builder.__doc__), builder.__name__  # its keys are documented
    # a missing key shows the key itself (a missing legend name: the registry title; a row: #i)
    metrics = live_metrics_figure(_frame(), ["reward_mean", "entropy"], {"name.sapo": "S"})
    assert [a.text for a in metrics.layout.annotations] == ["reward_mean", "entropy"]
    assert {tr.name for tr in metrics.data} == {ALGORITHMS["grpo"].title, "S"}
    assert metrics.layout.xaxis.title.text == "step" and "<br>step %{x}<br>entropy: " in metrics.data[-1].hovertemplate
    binned = pd.DataFrame({"arm": ["grpo"], "bin_left": [0.9], "bin_right": [1.1], "fraction": [1.0]})
    ratios = ratio_histogram_figure(binned, {}, value="fraction", by="arm")
    assert (ratios.layout.xaxis.title.text, ratios.layout.yaxis.title.text) == ("ratio_axis", "value_axis")
    assert ratios.data[0].name == ALGORITHMS["grpo"].title
    tokens = pd.DataFrame(
        {"response": [0, 1], "position": [0, 0], "token": ["1", "2"], "weight": [0.5, -0.5], "advantage": [1.0, -1.0]}
    )
    heat = token_weight_figure(tokens, {"row.1": "#2 ✗"})  # a missing row label: its number from #1
    assert list(heat.data[0].y) == ["#1", "#2 ✗"] and heat.layout.xaxis.title.text == "position"
    assert heat.data[0].colorbar.title.text == "push"
    assert heat.data[0].hovertemplate.startswith("token: %{customdata[0]}<br>grad_weight: %{z:.3g}<br>advantage: ")
    assert token_weight_figure(pd.DataFrame(), {}).layout.xaxis.title.text == "position"


def test_the_token_heatmap_says_what_the_trust_region_did():
    # the trainer's token view carries each token's state (after the updates and at the first one);
    # token_view_frame picks the one that goes with the weights shown, the hover says it in words
    view = {
        "rows": [
            {
                "tokens": ["1", "2"],
                "weight": [-0.5, 0.0],
                "weight_first": [-0.5, -0.5],
                "state": ["active", "clipped"],
                "state_first": ["active", "active"],
                "advantage": 1.0,
                "reward": 1.0,
                "in_loss": True,
            },
            {
                "tokens": ["3"],
                "weight": [0.0],
                "weight_first": [0.0],
                "state": ["masked"],
                "state_first": ["masked"],
                "advantage": 0.0,
                "reward": 0.0,
                "in_loss": False,
            },
        ]
    }
    after, first = token_view_frame(view, "weight"), token_view_frame(view, "weight_first")
    assert after["state"].tolist() == ["active", "clipped", "masked"]
    assert first["state"].tolist() == ["active", "active", "masked"]
    words = {f"state.{s}": s.upper() for s in TOKEN_STATES}
    hm = token_weight_figure(after, words).data[0]
    assert hm.hovertemplate.endswith("<br>%{customdata[2]}<extra>%{y}, position %{x}</extra>")
    assert [[c[2] for c in row] for row in hm.customdata] == [["ACTIVE", "CLIPPED"], ["MASKED", ""]]  # padding: ""
    # a missing word shows the key; a view without states (or another figure's frame) has no state line
    assert token_weight_figure(after, {}).data[0].customdata[0][1][2] == "state.clipped"
    del view["rows"][0]["state"], view["rows"][1]["state"]
    plain = token_weight_figure(token_view_frame(view, "weight"), words).data[0]
    assert "customdata[2]" not in plain.hovertemplate and len(plain.customdata[0][0]) == 2
    assert token_view_frame(None).columns.tolist()[-1] == "state"


# ---------------------------------------------------------------------------------------- MoE page
MOE_BUILDERS = (route_change_figure, log_ratio_figure, arm_metrics_figure, token_strip_figure)


def _route_frame():
    rows = [{"update": u, "layer": layer, "share": 0.02 * u * layer} for u in (1, 2, 3) for layer in (1, 2)]
    rows.append({"update": 3, "layer": 3, "share": np.nan})  # never drawn
    return pd.DataFrame(rows)


def _log_ratio_frame(replay=True):
    rng = np.random.default_rng(0)
    own = rng.normal(0, 0.3, 200)
    own[:3] = [-15.0, -12.0, 9.0]  # a few collapsed tokens: into the end bins
    rows = [{"update": 2, "kind": "token_own", "value": v} for v in own]
    if replay:
        rows += [{"update": 2, "kind": "token_replay", "value": v - 0.01 * (i % 3)} for i, v in enumerate(own)]
    rows += [{"update": 2, "kind": "sequence", "value": v} for v in rng.normal(0, 0.1, 20)]
    rows += [{"update": 1, "kind": "token_own", "value": 0.0}]  # another update: left out
    return pd.DataFrame(rows)


def test_moe_words_reach_the_builders_only_through_labels():
    assert "rlviz.i18n" not in inspect.getsource(moe_plots) and "streamlit" not in inspect.getsource(moe_plots)
    for builder in MOE_BUILDERS:
        params = inspect.signature(builder).parameters
        assert "lang" not in params and "labels" in params, builder.__name__
        assert re.search(r"labels: [^`]*``", builder.__doc__), builder.__name__
    # a missing key shows the key itself
    fig = route_change_figure(_route_frame(), {}, article=0.1)
    assert [tr.name for tr in fig.data] == ["L1", "L2", "all_layers", "article"]
    assert fig.layout.xaxis.title.text == "update" and fig.layout.yaxis.title.text == "share"


def test_route_change_figure_draws_layers_their_mean_and_the_article_line():
    labels = {"layer.1": "layer 1", "layer.2": "layer 2", "all_layers": "all", "article": "paper"}
    spec = _no_nan(route_change_figure(_route_frame(), labels, article=0.1))
    names = [tr["name"] for tr in spec["data"]]
    assert names == ["layer 1", "layer 2", "all", "paper"]
    mean = spec["data"][2]
    assert mean["x"] == [1, 2, 3] and mean["y"] == pytest.approx([0.03, 0.06, 0.09])
    assert spec["data"][3]["y"] == [0.1, 0.1] and spec["data"][3]["line"]["dash"] == "dash"
    # the layers differ in colour and dash; none is the mean's black or the article's vermillion
    colours = {tr["line"]["color"] for tr in spec["data"][:2]}
    assert len(colours) == 2 and not colours & {OKABE_ITO["black"], OKABE_ITO["vermillion"]}
    assert spec["layout"]["yaxis"]["range"][1] >= 0.1  # the article's line is in view
    empty = _no_nan(route_change_figure(pd.DataFrame(columns=["update", "layer", "share"]), {}, article=0.1))
    assert [tr["name"] for tr in empty["data"]] == ["article"]


def test_log_ratio_figure_compares_own_and_replayed_routing():
    df = _log_ratio_frame()
    labels = {f"kind.{k}": k.upper() for k in ("token_own", "token_replay", "sequence", "routing")}
    spec = _no_nan(log_ratio_figure(df, 2, labels))
    names = [tr["name"] for tr in spec["data"]]
    assert [n.split(" · ")[0] for n in names] == ["TOKEN_OWN", "TOKEN_REPLAY", "SEQUENCE", "ROUTING"]
    own = df[(df["update"] == 2) & (df["kind"] == "token_own")]["value"]
    assert names[0].endswith(f"σ = {float(np.std(own)):.3g}")
    for trace in spec["data"]:
        assert sum(trace["y"]) == pytest.approx(1.0)  # shares of each kind; outliers in the end bins
    # the tokens' panel spans the middle of the values, not the collapsed tokens
    assert -15 < spec["data"][0]["x"][0] and spec["data"][0]["x"][-1] < 9
    assert spec["data"][3]["xaxis"] == "x2"  # the routing part has its own panel
    assert routing_part(df, 2) == pytest.approx(np.array([0.01 * (i % 3) for i in range(200)]))
    # the dense control: nothing replayed, one panel, no routing part
    dense = _no_nan(log_ratio_figure(_log_ratio_frame(replay=False), 2, labels))
    assert [tr["name"].split(" · ")[0] for tr in dense["data"]] == ["TOKEN_OWN", "SEQUENCE"]
    assert len(routing_part(_log_ratio_frame(replay=False), 2)) == 0
    # nothing moved (lr 0): one bar at 0, still a valid figure
    still = pd.DataFrame({"update": [1, 1], "kind": ["token_own", "token_replay"], "value": [0.0, 0.0]})
    spec = _no_nan(log_ratio_figure(still, 1, {}))
    assert max(spec["data"][0]["y"]) == 1.0
    assert _no_nan(log_ratio_figure(pd.DataFrame(columns=["update", "kind", "value"]), 1, {}))["data"] == []


def test_arm_metrics_figure_styles_arms_and_marks_collapse():
    rows = []
    for arm in ("gspo", "grpo_r2", "grpo"):
        for step in (1, 2, 3):
            rows.append(
                {
                    "arm": arm,
                    "step": step,
                    "reward_mean": 0.5 if step < 3 else 0.1,
                    "route_change_fraction": np.nan if arm == "gspo" and step == 2 else 0.1,
                    "collapse": arm == "grpo" and step == 3,
                }
            )
    labels = {"name.grpo_r2": "GRPO + R2", "collapse": "collapse", "step": "step"}
    spec = _no_nan(arm_metrics_figure(pd.DataFrame(rows), ["reward_mean", "route_change_fraction"], labels, x="step"))
    lines = [tr for tr in spec["data"] if tr["name"] != "collapse"]
    # the order of ARM_STYLES, whatever the frame's order; GRPO + R2 has a colour of its own, dashed
    assert [tr["name"] for tr in lines[:3]] == ["GRPO", "GRPO + R2", "GSPO"]
    assert lines[1]["line"] == {"color": ARM_STYLES["grpo_r2"]["color"], "dash": "dash", "width": 2}
    assert len({ARM_STYLES[a]["color"] for a in ARM_STYLES}) == len(ARM_STYLES)  # told apart by colour
    assert [tr["showlegend"] for tr in lines] == [True, True, True, False, False, False]
    marks = [tr for tr in spec["data"] if tr["name"] == "collapse"]
    assert len(marks) == 2 and [m["showlegend"] for m in marks] == [True, False]  # one mark per panel
    assert marks[0]["x"] == [3] and marks[0]["y"] == [0.1] and marks[0]["marker"]["symbol"] == "x"
    assert marks[0]["legendrank"] > 1000  # listed after the arms
    gspo_routes = [tr for tr in lines if tr["name"] == "GSPO" and tr["yaxis"] == "y2"][0]
    assert gspo_routes["x"] == [1, 3]  # the NaN step is dropped
    assert spec["layout"]["xaxis2"]["title"]["text"] == "step"
    assert _no_nan(arm_metrics_figure(pd.DataFrame(), ["clip_fraction"], {}))["data"] == []


def test_token_strip_colours_layers_changed_and_hovers_both_ratios():
    token = {
        "tokens": [".", "5", "\n"],
        "layers_changed": [2, 0, 4],
        "log_ratio_own": [-0.4, 0.1, -0.2],
        "log_ratio_replay": [-0.2, 0.1, -0.1],
    }
    labels = {"own": "own", "replay": "replay", "routing": "routing", "layers_changed": "layers"}
    hm = _no_nan(token_strip_figure(token, 4, labels))["data"][0]
    assert hm["z"] == [[2.0, 0.0, 4.0]] and hm["text"] == [[".", "5", "⏎"]]
    assert hm["customdata"][0][0] == [".", "-0.400", "-0.200", "-0.200"]
    assert hm["colorbar"]["tickvals"] == [0, 1, 2, 3, 4] and (hm["zmin"], hm["zmax"]) == (-0.5, 4.5)
    assert "own: %{customdata[1]}" in hm["hovertemplate"] and "layers: %{z}" in hm["hovertemplate"]
    # the dense model has no routes: an empty figure
    dense = dict(token, layers_changed=None, log_ratio_replay=None)
    assert _no_nan(token_strip_figure(dense, 0, labels))["data"] == []


def test_describe_figure_reads_title_panels_axes_and_series():
    from plotly.subplots import make_subplots

    from rlviz.plots import describe_figure

    words = {"chart": "Chart", "panels": "Panels: {items}", "axes": "Axes: {items}", "series": "Series: {items}"}
    words["stop"] = ". "
    fig = make_subplots(rows=1, cols=2, subplot_titles=("A > 0", "A < 0"))
    fig.add_scatter(x=[0, 1], y=[0, 1], name="GRPO", row=1, col=1)
    fig.add_scatter(x=[0, 1], y=[1, 0], name="GRPO", showlegend=False, row=1, col=2)
    fig.add_scatter(x=[0, 1], y=[1, 1], name="π<sub>old</sub>", row=1, col=2)
    fig.update_layout(title="Ratio <b>curves</b>")
    fig.update_xaxes(title="ratio r")
    fig.update_yaxes(title="J", row=1, col=1)
    text = describe_figure(fig, words)
    assert text == "Ratio curves. Panels: A > 0, A < 0. Axes: ratio r, J. Series: GRPO, πold."
    # an empty figure still has a text alternative
    assert describe_figure(go.Figure(), words, "、") == "Chart."
    zh = {
        "chart": "图表",
        "panels": "子图：{items}",
        "axes": "坐标轴：{items}",
        "series": "数据系列：{items}",
        "stop": "。",
    }
    assert (
        describe_figure(fig, zh, "、") == "Ratio curves。子图：A > 0、A < 0。坐标轴：ratio r、J。数据系列：GRPO、πold。"
    )
    # the app's figure cache keeps specs: the same text, read from plain dicts
    assert describe_figure(fig.to_plotly_json(), words) == text
    assert describe_figure(go.Figure().to_plotly_json(), words) == "Chart."


def test_for_dark_background_lightens_black_and_nothing_else():
    from rlviz.plots import DARK_BACKGROUND_BLACK, for_dark_background

    fig = go.Figure(go.Scatter(x=[0, 1], y=[2, 3], line={"color": "#000000", "dash": "dot"}, name="a"))
    fig.add_scatter(x=[0, 1], y=[1, 1], line={"color": "#0072B2"}, name="b")
    fig.add_vline(x=1.0, line={"color": "#000000"})
    dark = for_dark_background(fig)
    assert dark.data[0].line.color == DARK_BACKGROUND_BLACK and dark.data[0].line.dash == "dot"
    assert dark.data[1].line.color == "#0072B2" and list(dark.data[0].y) == [2, 3]
    assert dark.layout.shapes[0].line.color == DARK_BACKGROUND_BLACK
    assert fig.data[0].line.color == "#000000"  # the original is untouched
    spec = fig.to_plotly_json()  # a cached spec: a spec back, with the same change
    dark_spec = for_dark_background(spec)
    assert dark_spec["data"][0]["line"]["color"] == DARK_BACKGROUND_BLACK and dark_spec["data"][0]["y"] == [2, 3]
    assert dark_spec["data"][1]["line"]["color"] == "#0072B2"
    assert dark_spec["layout"]["shapes"][0]["line"]["color"] == DARK_BACKGROUND_BLACK
    assert spec["data"][0]["line"]["color"] == "#000000"
