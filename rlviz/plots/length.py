"""Figures of the Length penalties page (no Streamlit here).

Every builder takes the DataFrames of :mod:`rlviz.experiments.length` and a ``labels`` mapping of
already-translated texts (the keys each builder reads are listed in its docstring; a missing key
shows the key itself). Outcomes have fixed colours: right = bluish green, wrong = vermillion,
truncated = grey; DAPO's penalty is drawn in DAPO's colour, the other schemes in their own.

Speed: a page rerun rebuilds these figures whenever a slider moves, so each is assembled from dicts
in one step (:mod:`rlviz.plots._assemble`), not through one validated plotly update per trace, shape
and axis; ``tests/test_length.py`` validates them. ``as_spec=True`` gives the figure's plain spec
(``_assemble.figure``), which the page shows without building a ``go.Figure`` at all.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from rlviz.numbering import response_tag

from . import OKABE_ITO, algorithm_style
from . import _assemble as A

__all__ = [
    "OUTCOME_COLORS",
    "SCHEME_STYLES",
    "filter_figure",
    "group_figure",
    "length_histogram_figure",
    "penalty_curves_figure",
    "sweep_figure",
]

OUTCOME_COLORS = {"right": OKABE_ITO["bluish_green"], "wrong": OKABE_ITO["vermillion"], "truncated": OKABE_ITO["grey"]}
SCHEME_STYLES = {
    "task": {"color": OKABE_ITO["black"], "dash": "dot", "symbol": "circle-open"},
    "dapo": {**algorithm_style("dapo"), "symbol": "diamond"},
    "kimi": {"color": OKABE_ITO["blue"], "dash": "dash", "symbol": "square"},
    "cosine": {"color": OKABE_ITO["reddish_purple"], "dash": "dashdot", "symbol": "triangle-up"},
}
_BAND = {"fillcolor": OKABE_ITO["orange"], "opacity": 0.12, "line": {"width": 0}, "layer": "below"}


def _l(labels: Mapping[str, str], key: str) -> str:
    return labels.get(key, key)


def _outcome(frame: pd.DataFrame) -> np.ndarray:
    """ "truncated" / "right" / "wrong" per response."""
    return np.where(frame["truncated"], "truncated", np.where(frame["correct"], "right", "wrong"))


def _limits(max_length: int, buffer_length: int, col: int = 1) -> list[dict]:
    """The overlong buffer as a band and L_max as a dashed line (the shapes ``add_vrect`` and
    ``add_vline`` add)."""
    shapes = [A.vrect(max_length - buffer_length, max_length, col, **_BAND)] if buffer_length > 0 else []
    return shapes + [_vline(max_length, col)]


def _vline(x, col: int = 1) -> dict:
    """L_max as a dashed line."""
    return A.vline(x, col, dash="dash", color=OKABE_ITO["black"], width=1)


_TITLED = {"margin": {"t": 90}, "legend": {"y": 1.14}}  # room for the legend above the subplot titles

# The curves' panels: DAPO's (the page's questions are about it) over the figure's whole width, the
# others side by side under it, so that on a 1024 px window with the sidebar open (a figure of about
# 560 px) no panel title runs into the next and no tick label into a neighbouring panel.
CURVE_ROW_PX = 250  # the height of one row of panels
PANEL_TITLE_PX = 13  # the panel titles, at the size of the app's other figure texts


@functools.lru_cache(maxsize=32)
def _curve_grid_json(titles: tuple[str, ...]) -> str:
    if len(titles) == 1:
        fig = make_subplots(rows=1, cols=1, subplot_titles=titles)
    else:
        below = len(titles) - 1
        specs = [[{"colspan": below}] + [None] * (below - 1), [{}] * below]
        fig = make_subplots(
            rows=2, cols=below, specs=specs, subplot_titles=titles, vertical_spacing=0.2, horizontal_spacing=0.1
        )
    layout = fig.layout.to_plotly_json()
    layout.pop("template", None)  # the default template, applied again when the figure is made
    for annotation in layout.get("annotations", []):
        annotation["font"] = {"size": PANEL_TITLE_PX}
    return json.dumps(layout)


def _curve_grid(titles: tuple[str, ...]) -> dict:
    """The layout of the curves' panels: the first (DAPO) on a row of its own, the others (one or two)
    in a row under it; panel k's axes are x{k} / y{k} in the order of ``titles`` (computed once per
    set of titles, then copied)."""
    return json.loads(_curve_grid_json(titles))


# The length-shaping schemes drawn as panels (reward schemes, not objectives): each panel's lines
# (column of its frame, label key, dash), which frame holds them, whether its hover names the zone
# of DAPO's ramp, and its limit lines ("buffer": L_max and the L_cache band, "max": L_max only).
SHAPING_PANELS = ("dapo", "kimi", "cosine")
_PANEL_SERIES = {
    "dapo": {
        "series": (
            ("dapo_right", "right", "solid"),
            ("dapo_wrong", "wrong", "solid"),
            ("dapo_penalty", "penalty", "dot"),
        ),
        "frame": "curves",
        "zones": True,
        "limits": "buffer",
    },
    "kimi": {
        "series": (("kimi_right", "right", "dash"), ("kimi_wrong", "wrong", "dash")),
        "frame": "kimi",
        "zones": False,
        "limits": None,
    },
    "cosine": {
        "series": (("cosine_right", "right", "dashdot"), ("cosine_wrong", "wrong", "dashdot")),
        "frame": "curves",
        "zones": False,
        "limits": "max",
    },
}


def penalty_curves_figure(
    curves: pd.DataFrame,
    kimi: pd.DataFrame | None,
    max_length: int,
    buffer_length: int,
    labels: Mapping[str, str],
    show: Sequence[str] = ("kimi", "cosine"),
    *,
    as_spec: bool = False,
) -> go.Figure | dict:
    """DAPO's penalty and the total reward of a right and a wrong answer vs length, above the
    Kimi and cosine length rewards (small multiples: DAPO's panel on a row of its own, the others
    side by side under it, :func:`_curve_grid`).

    Args:
        curves: :func:`rlviz.experiments.length.penalty_curves`.
        kimi: :func:`rlviz.experiments.length.kimi_curve` (used when ``"kimi"`` is in ``show``).
        max_length, buffer_length: L_max and L_cache (band and line).
        labels: ``panel_dapo``, ``panel_kimi``, ``panel_cosine``, ``penalty``, ``right``,
            ``wrong``, ``length``, ``reward``, ``hover_zero``, ``hover_ramp``, ``hover_full``.
        show: which other penalties get a panel.
    """
    panels = [SHAPING_PANELS[0]] + [k for k in SHAPING_PANELS[1:] if k in show and (k != "kimi" or kimi is not None)]
    layout = _curve_grid(tuple(_l(labels, f"panel_{p}") for p in panels))
    x = curves["length"].to_numpy()
    start = max_length - buffer_length
    zone = np.where(
        x <= start,
        _l(labels, "hover_zero"),
        np.where(x <= max_length, _l(labels, "hover_ramp"), _l(labels, "hover_full")),
    )
    colors = {**OUTCOME_COLORS, "penalty": algorithm_style("dapo")["color"]}  # DAPO's penalty in DAPO's colour
    traces, shapes = [], []
    for col, panel in enumerate(panels, start=1):
        spec = _PANEL_SERIES[panel]
        frame = kimi if spec["frame"] == "kimi" else curves
        xs, custom = frame["length"].to_numpy(), (zone if spec["zones"] else None)
        for column, name, dash in spec["series"]:
            hover = f"{_l(labels, name)}<br>{_l(labels, 'length')} %{{x:.3g}}<br>{_l(labels, 'reward')} %{{y:.3g}}"
            if custom is not None:
                hover += "<br>%{customdata}"
            trace = {
                "type": "scatter",
                "x": xs,
                "y": frame[column].to_numpy(),
                "mode": "lines",
                "name": _l(labels, name),
                "legendgroup": name,
                "showlegend": col == 1 or name == "penalty",  # each line kind once in the legend
                "line": {"color": colors[name], "dash": dash, "width": 2.5 if name != "penalty" else 2},
                "hovertemplate": hover + "<extra></extra>",
                "xaxis": A.ref("x", col),
                "yaxis": A.ref("y", col),
            }
            if custom is not None:
                trace["customdata"] = custom
            traces.append(trace)
        if spec["limits"] is not None:  # L_max, and the buffer L_cache where the scheme has one
            shapes += _limits(max_length, buffer_length if spec["limits"] == "buffer" else 0, col)
        A.title(layout, A.axis("x", col), _l(labels, "length"))
    A.title(layout, "yaxis", _l(labels, "reward"))
    if len(panels) > 1:  # the first panel of the second row
        A.title(layout, "yaxis2", _l(labels, "reward"))
    layout["shapes"] = shapes
    rows = 1 if len(panels) == 1 else 2
    return A.figure(traces, layout, 140 + CURVE_ROW_PX * rows, after=_TITLED, as_spec=as_spec)


def length_histogram_figure(
    responses: pd.DataFrame,
    curves: pd.DataFrame,
    max_length: int,
    buffer_length: int,
    labels: Mapping[str, str],
    *,
    as_spec: bool = False,
) -> go.Figure | dict:
    """How many responses end at each length (after cutting at L_max), stacked by outcome, the
    lengths as sampled at the generous limit as a step line, and DAPO's penalty on a second axis.

    Args:
        responses: ``LengthAnalysis.responses``.
        curves: :func:`rlviz.experiments.length.penalty_curves`.
        labels: ``right``, ``wrong``, ``truncated``, ``sampled``, ``penalty``, ``length``,
            ``count``, ``penalty_axis``, ``hover_count``.
    """
    layout = A.grid(1, secondary_y=True)
    outcome = _outcome(responses)
    length_sampled = responses["length_sampled"].to_numpy()
    top = int(max(length_sampled.max(), max_length)) + 1
    bins = np.arange(0, top + 1)
    lengths_all = responses["length"].to_numpy()
    traces = []
    for name in ("right", "wrong", "truncated"):
        lengths = lengths_all[outcome == name]
        counts = np.bincount(lengths.astype(int), minlength=len(bins))[: len(bins)]
        traces.append(
            {
                "type": "bar",
                "x": bins,
                "y": counts,
                "name": _l(labels, name),
                "marker": {"color": OUTCOME_COLORS[name]},
                "hovertemplate": f"{_l(labels, name)}<br>{_l(labels, 'hover_count')}<extra></extra>",
                "xaxis": "x",
                "yaxis": "y",
            }
        )
    sampled = np.bincount(length_sampled.astype(int), minlength=len(bins))[: len(bins)]
    traces.append(
        {
            "type": "scatter",
            "x": bins,
            "y": sampled,
            "mode": "lines",
            "line": {"shape": "hvh", "color": OKABE_ITO["black"], "dash": "dot", "width": 1.5},
            "name": _l(labels, "sampled"),
            "hovertemplate": f"{_l(labels, 'sampled')}<br>{_l(labels, 'hover_count')}<extra></extra>",
            "xaxis": "x",
            "yaxis": "y",
        }
    )
    grid = curves["length"].to_numpy()
    penalty = curves["dapo_penalty"].to_numpy()
    keep = grid <= top
    px = np.append(grid[keep], top + 0.5)  # flat beyond the curve's grid
    py = np.append(penalty[keep], penalty[-1])
    traces.append(
        {
            "type": "scatter",
            "x": px,
            "y": py,
            "mode": "lines",
            "name": _l(labels, "penalty"),
            "line": {"color": algorithm_style("dapo")["color"], "width": 3},
            "hovertemplate": f"{_l(labels, 'penalty')}<br>{_l(labels, 'length')} %{{x:.3g}}: %{{y:.3g}}<extra></extra>",
            "xaxis": "x",
            "yaxis": "y2",
        }
    )
    layout["shapes"] = _limits(max_length, buffer_length)
    layout.update(barmode="stack", bargap=0.1)
    A.title(layout, "xaxis", _l(labels, "length"))
    layout["xaxis"]["range"] = [-0.5, top + 0.5]
    A.title(layout, "yaxis", _l(labels, "count"))
    lo = float(penalty.min())
    lo = lo if lo < 0 else -1.0  # factor 0: keep a readable axis
    ticks = np.linspace(lo, 0.0, 5)
    A.title(layout, "yaxis2", _l(labels, "penalty_axis"))
    layout["yaxis2"].update(
        range=[1.05 * lo, -0.05 * lo], tickvals=ticks, ticktext=[f"{v:.2g}" for v in ticks], showgrid=False
    )
    return A.figure(traces, layout, 400, as_spec=as_spec)


def group_figure(
    group: pd.DataFrame, labels: Mapping[str, str], schemes: Sequence[str] = ("task", "dapo"), *, as_spec: bool = False
) -> go.Figure | dict:
    """Each response of one group (sorted by length) with its advantage under each reward scheme.

    Args:
        group: the group's rows of ``LengthAnalysis.responses``.
        labels: ``scheme_<name>`` for each scheme, ``advantage``, ``response``, ``right``,
            ``wrong``, ``truncated``, ``length``, ``reward``.
        schemes: which advantages to draw (``task`` first is the reference).
    """
    g = group.sort_values(["length", "sample"]).reset_index(drop=True)
    outcome = _outcome(g)
    mark = {"right": "✓", "wrong": "✗", "truncated": "✂"}
    # each sample by its number from 1 (rlviz.numbering.response_tag), as every page numbers responses
    xs = [f"{response_tag(int(s))} · {int(n)} {mark[o]}" for s, n, o in zip(g["sample"], g["length"], outcome)]
    response = g["response"].to_numpy()
    said = [_l(labels, o) for o in outcome]
    traces = []
    for scheme in schemes:
        sty = SCHEME_STYLES[scheme]
        custom = np.stack([response, said, g[f"reward_{scheme}"].to_numpy()], axis=1)
        traces.append(
            {
                "type": "scatter",
                "x": xs,
                "y": g[f"adv_{scheme}"].to_numpy(),
                "mode": "markers+lines" if scheme != "task" else "markers",
                "name": _l(labels, f"scheme_{scheme}"),
                "marker": {
                    "color": sty["color"],
                    "symbol": sty["symbol"],
                    "size": 12 if scheme == "task" else 10,
                    "line": {"width": 2, "color": sty["color"]},
                },
                "line": {"color": sty["color"], "dash": sty["dash"], "width": 1},
                "customdata": custom,
                "hovertemplate": (
                    f"{_l(labels, f'scheme_{scheme}')}<br>%{{customdata[0]}} (%{{customdata[1]}})<br>"
                    f"{_l(labels, 'reward')} %{{customdata[2]:.3g}}<br>{_l(labels, 'advantage')} "
                    "%{y:.3g}<extra></extra>"
                ),
            }
        )
    zero = {"type": "line", "x0": 0, "x1": 1, "xref": "x domain", "y0": 0, "y1": 0, "yref": "y"}
    layout = {
        "shapes": [{**zero, "line": {"color": OKABE_ITO["grey"], "width": 1}}],  # add_hline(y=0)
        # tilted always: plotly tilts them only when they overlap, and leaves ones that just touch flat
        "xaxis": {"title": {"text": _l(labels, "response")}, "tickangle": -30},
        "yaxis": {"title": {"text": _l(labels, "advantage")}},
    }
    return A.figure(traces, layout, 380, as_spec=as_spec)


def filter_figure(responses: pd.DataFrame, labels: Mapping[str, str], *, as_spec: bool = False) -> go.Figure | dict:
    """Where DAPO's loss gradient goes, by outcome, without and with overlong filtering: each bar
    is the share of the summed |gradient weight| that right, wrong and truncated responses get.

    Args:
        responses: ``LengthAnalysis.responses`` (columns ``grad``, ``grad_filtered``).
        labels: ``right``, ``wrong``, ``truncated``, ``no_filter``, ``with_filter``, ``grad_share``.
    """
    outcome = _outcome(responses)
    bars = [("grad", _l(labels, "no_filter")), ("grad_filtered", _l(labels, "with_filter"))]
    weights = {column: np.abs(responses[column].to_numpy()) for column, _ in bars}
    traces = []
    for name in ("right", "wrong", "truncated"):
        shares = []
        for column, _ in bars:
            w = weights[column]
            total = w.sum()
            shares.append(float(w[outcome == name].sum() / total) if total > 0 else 0.0)
        traces.append(
            {
                "type": "bar",
                "y": [b for _, b in bars],
                "x": shares,
                "orientation": "h",
                "name": _l(labels, name),
                "marker": {"color": OUTCOME_COLORS[name]},
                "text": [f"{s:.0%}" for s in shares],
                "textposition": "inside",
                "hovertemplate": f"{_l(labels, name)}: %{{x:.1%}}<extra></extra>",
            }
        )
    layout = {
        "barmode": "stack",
        "xaxis": {"range": [0, 1], "tickformat": ".0%", "title": {"text": _l(labels, "grad_share")}},
        "yaxis": {"autorange": "reversed"},  # "no filtering" on top
    }
    return A.figure(traces, layout, 220, as_spec=as_spec)


_SWEEP_SERIES = (
    ("mean_reward_task", "task", "solid"),
    ("mean_reward_dapo", "dapo", "solid"),
    ("truncated_share", "truncated", "dot"),
    ("signal_task", "task", "dash"),
    ("signal_dapo", "dapo", "dash"),
)


def sweep_figure(
    sweep: pd.DataFrame, max_length: int, buffer_length: int, labels: Mapping[str, str], *, as_spec: bool = False
) -> go.Figure | dict:
    """The rollouts' mean reward, truncated share and share of groups with a signal as L_max moves
    (left, L_cache held) and as L_cache moves (right, L_max held); the current values marked.

    Args:
        sweep: :func:`rlviz.experiments.length.sweep`.
        labels: ``panel_lmax``, ``panel_lcache``, ``lmax``, ``lcache``, ``value``, and one per
            series: ``mean_reward_task``, ``mean_reward_dapo``, ``truncated_share``,
            ``signal_task``, ``signal_dapo``.
    """
    layout = A.grid(2, [_l(labels, "panel_lmax"), _l(labels, "panel_lcache")], 0.06, shared_y=True)
    axis_of = sweep["axis"].to_numpy()
    traces, shapes = [], []
    for col, axis, current, title in (
        (1, "max_length", max_length, "lmax"),
        (2, "buffer_length", buffer_length, "lcache"),
    ):
        rows = axis_of == axis
        x = sweep["value"].to_numpy()[rows]
        for column, scheme, dash in _SWEEP_SERIES:
            color = OUTCOME_COLORS["truncated"] if column == "truncated_share" else SCHEME_STYLES[scheme]["color"]
            name = _l(labels, column)
            traces.append(
                {
                    "type": "scatter",
                    "x": x,
                    "y": sweep[column].to_numpy()[rows],
                    "mode": "lines+markers",
                    "name": name,
                    "legendgroup": column,
                    "showlegend": col == 1,
                    "line": {"color": color, "dash": dash, "width": 2},
                    "marker": {"size": 5},
                    "hovertemplate": f"{name}<br>{_l(labels, title)} %{{x}}: %{{y:.3g}}<extra></extra>",
                    "xaxis": A.ref("x", col),
                    "yaxis": A.ref("y", col),
                }
            )
        shapes.append(_vline(current, col))
        A.title(layout, A.axis("x", col), _l(labels, title))
    A.title(layout, "yaxis", _l(labels, "value"))
    layout["shapes"] = shapes
    return A.figure(traces, layout, 420, after=_TITLED, as_spec=as_spec)
