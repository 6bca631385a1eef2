"""Figures of the Dynamic sampling page (plotly, no Streamlit).

Every builder takes data frames from :mod:`rlviz.experiments.sampling` and the (translated) labels
it shows: the signal, bias, measured, Beta and cost figures as one ``labels`` mapping of
already-translated texts whose keys each docstring lists (a missing key shows the key itself; a
legend name ``name.<algorithm>`` falls back to the registry title), the live run's figure likewise.
NaN / inf values are dropped, never drawn. Algorithm lines use ``algorithm_style``; the
GRPO + dynamic-sampling arm of the live run takes DAPO's colour (dynamic sampling is DAPO's
component) with a dashed line, so it never looks like DAPO itself.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.colors import sample_colorscale

from rlviz.core.objectives import ALGORITHMS

from . import OKABE_ITO, algorithm_style, base_layout, ordered, style_or_default
from ._assemble import subplots

__all__ = [
    "ARM_STYLES",
    "DISTRIBUTION_STYLES",
    "OUTCOME_COLORS",
    "advantage_mass_figure",
    "beta_density_figure",
    "fill_cost_figure",
    "live_sampling_figure",
    "pass_rate_figure",
    "signal_probability_figure",
]

ARM_STYLES: dict[str, dict[str, str]] = {
    "grpo": algorithm_style("grpo"),
    "grpo_ds": {"color": algorithm_style("dapo")["color"], "dash": "dash"},
}
DISTRIBUTION_STYLES: dict[str, dict[str, str]] = {
    "beta": {"color": OKABE_ITO["black"], "dash": "solid"},
    "measured": {"color": OKABE_ITO["grey"], "dash": "dash"},
}
# all wrong / all right: light purple / light orange (no signal); mixed: green (signal)
OUTCOME_COLORS: dict[str, str] = {"all_wrong": "#998ec3", "mixed": OKABE_ITO["bluish_green"], "all_correct": "#f1a340"}
_DASHES = ("solid", "dash", "dot", "dashdot", "longdash", "longdashdot")


def _finite(df: pd.DataFrame, cols: Sequence[str]) -> pd.DataFrame:
    """The rows of ``df`` whose ``cols`` are all finite numbers (a non-number counts as NaN)."""
    try:
        values = df[list(cols)].to_numpy(dtype=float)  # fast path: numeric columns (None -> NaN)
    except (TypeError, ValueError):  # text or pd.NA in a column: coerced one by one
        values = df[list(cols)].apply(pd.to_numeric, errors="coerce").to_numpy(dtype=float)
    return df[np.isfinite(values).all(axis=1)]


def _l(labels: Mapping[str, str], key: str) -> str:
    return labels.get(key, key)


def signal_probability_figure(df: pd.DataFrame, labels: Mapping[str, str], *, height: int = 380) -> go.Figure:
    """1 - p^G - (1-p)^G against the pass rate p, one line per G (viridis, light to dark = larger G).

    Args:
        df: ``signal_curves`` frame (``G, pass_rate, signal_probability, zero_advantage_probability``).
        labels: ``pass_rate`` (the x axis title and the hover's word for p), ``signal_axis`` (the y
            axis title), ``mixed_hover`` / ``equal_hover`` (the hover's words for "group with signal" /
            "all equal, zero advantage").
    """
    x_title, y_title = _l(labels, "pass_rate"), _l(labels, "signal_axis")
    mixed, equal = _l(labels, "mixed_hover"), _l(labels, "equal_hover")
    traces = []
    sizes = sorted(df["G"].unique().tolist()) if not df.empty else []
    colours = sample_colorscale("Viridis", [0.85 * (1 - i / max(len(sizes) - 1, 1)) for i in range(len(sizes))])
    parts = dict(tuple(df.groupby("G", sort=False))) if sizes else {}
    for i, G in enumerate(sizes):
        part = _finite(parts[G], ["pass_rate", "signal_probability"])
        traces.append(
            {
                "type": "scatter",
                "x": part["pass_rate"].tolist(),
                "y": part["signal_probability"].tolist(),
                "mode": "lines",
                "name": f"G = {G}",
                "line": {"color": colours[i], "dash": _DASHES[i % len(_DASHES)], "width": 2.5},
                "customdata": part["zero_advantage_probability"].tolist(),
                "hovertemplate": f"G = {G}<br>{x_title}: %{{x:.2f}}<br>{mixed}: %{{y:.1%}}"
                f"<br>{equal}: %{{customdata:.1%}}<extra></extra>",
            }
        )
    layout = {
        "xaxis": {"title": {"text": x_title}, "range": [0, 1]},
        "yaxis": {"title": {"text": y_title}, "range": [0, 1.02], "tickformat": ".0%"},
    }
    return base_layout(go.Figure(data=traces, layout=layout), height=height)


def advantage_mass_figure(df: pd.DataFrame, labels: Mapping[str, str], *, height: int = 380) -> go.Figure:
    """Expected sum of |A| per group vs pass rate, each algorithm scaled to its own maximum: one line
    per algorithm of ``df``, in registry order.

    Args:
        df: ``advantage_mass_curves`` frame (``algorithm, pass_rate, mass, relative``).
        labels: ``pass_rate``, ``bias_axis`` (the x and y axis titles, also in the hover),
            ``bias_mass`` (the hover's word for the unscaled value E[Σ|A|]); optionally
            ``name.<algorithm>``, a line's legend name (a missing one: the registry title).
    """
    x_title, y_title, mass = _l(labels, "pass_rate"), _l(labels, "bias_axis"), _l(labels, "bias_mass")
    traces = []
    parts = dict(tuple(df.groupby(df["algorithm"].astype(str), sort=False))) if not df.empty else {}
    for algo in ordered(parts):
        part = _finite(parts[algo], ["pass_rate", "relative", "mass"])
        style = style_or_default(algo)
        name = labels.get(f"name.{algo}", ALGORITHMS[algo].title if algo in ALGORITHMS else algo)
        traces.append(
            {
                "type": "scatter",
                "x": part["pass_rate"].tolist(),
                "y": part["relative"].tolist(),
                "mode": "lines",
                "name": name,
                "line": {"color": style["color"], "dash": style["dash"], "width": 2.5},
                "customdata": part["mass"].tolist(),
                "hovertemplate": f"{name}<br>{x_title}: %{{x:.2f}}<br>{y_title}: %{{y:.2f}}<br>{mass}: "
                f"%{{customdata:.3f}}<extra></extra>",
            }
        )
    layout = {
        "xaxis": {"title": {"text": x_title}, "range": [0, 1]},
        "yaxis": {"title": {"text": y_title}, "range": [0, 1.05]},
    }
    return base_layout(go.Figure(data=traces, layout=layout), height=height)


def pass_rate_figure(
    hist: pd.DataFrame, outcomes: pd.DataFrame, labels: Mapping[str, str], *, height: int = 420
) -> go.Figure:
    """Left: prompts per measured pass rate k/G, stacked by difficulty level, the all-wrong and
    all-correct bars shaded (zero advantage). Right: share of groups all wrong / mixed / all correct,
    overall and per level.

    Args:
        hist: ``PassRateMeasurement.histogram()`` (``correct, pass_rate, level, prompts, share``).
        outcomes: ``PassRateMeasurement.outcomes_by_level()`` (``level, outcome, groups, share``;
            level 0 = all levels).
        labels: ``hist_title``, ``outcome_title`` (the panel titles), ``measured_rate``,
            ``prompts_axis`` (the left panel's x and y axis titles, also in the hover),
            ``share_axis`` (the right panel's x axis title), ``level`` (the word before a level's
            number), ``all_levels`` (the overall row), ``outcome.<outcome>`` for ``all_wrong``,
            ``mixed`` and ``all_correct``, and ``zero_band`` (the note over the shaded bars).
    """
    titles = [_l(labels, "hist_title"), _l(labels, "outcome_title")]
    x_title, y_title = _l(labels, "measured_rate"), _l(labels, "prompts_axis")
    level_label = _l(labels, "level")
    layout = _subplot_grid(1, 2, column_widths=(0.6, 0.4), horizontal_spacing=0.12)
    for note, title in zip(layout["annotations"], titles):
        note["text"] = title
    levels = sorted(hist["level"].unique().tolist()) if not hist.empty else []
    blues = sample_colorscale("Blues", [0.35 + 0.6 * i / max(len(levels) - 1, 1) for i in range(len(levels))])
    G = int(hist["correct"].max()) if not hist.empty else 1
    width = 0.8 / G
    traces = []
    parts = dict(tuple(hist.groupby("level", sort=False))) if levels else {}
    for i, lv in enumerate(levels):
        part = _finite(parts[lv], ["pass_rate", "prompts"])
        traces.append(
            {
                "type": "bar",
                "x": part["pass_rate"].tolist(),
                "y": part["prompts"].tolist(),
                "width": width,
                "name": f"{level_label} {lv}",
                "marker": {"color": blues[i]},
                "legendgroup": "levels",
                "customdata": part["correct"].tolist(),
                "hovertemplate": f"{level_label} {lv}<br>%{{customdata}}/{G} · {x_title} %{{x:.2f}}<br>{y_title}: %{{y}}<extra></extra>",
                **_axes_of(1),
            }
        )
    if levels:  # the zero-advantage bands (an empty panel gets none, as plotly's add_vrect)
        layout["shapes"] = [
            {
                "type": "rect",
                "x0": x0 - width * 0.7,
                "x1": x0 + width * 0.7,
                "xref": "x",
                "y0": 0,
                "y1": 1,
                "yref": "y domain",
                "fillcolor": OKABE_ITO["grey"],
                "opacity": 0.18,
                "line": {"width": 0},
            }
            for x0 in (0.0, 1.0)
        ]
    layout["annotations"].append(  # the note over the bands
        {
            "x": 0.5,
            "y": 1.0,
            "xref": "x domain",
            "yref": "y domain",
            "text": _l(labels, "zero_band"),
            "showarrow": False,
            "yanchor": "top",
            "font": {"size": 12, "color": "#555555"},
        }
    )
    # headroom above the tallest stack, so the note at the top never sits on a bar
    tallest = float(hist.groupby("pass_rate")["prompts"].sum().max()) if not hist.empty else 0.0
    layout["barmode"] = "stack"
    names = [_l(labels, "all_levels")] + [f"{level_label} {lv}" for lv in levels]
    for outcome in ("all_wrong", "mixed", "all_correct"):
        outcome_label = _l(labels, f"outcome.{outcome}")
        part = outcomes[outcomes["outcome"] == outcome].sort_values("level")
        part = _finite(part, ["share", "groups"])
        traces.append(
            {
                "type": "bar",
                "y": [names[0] if lv == 0 else f"{level_label} {lv}" for lv in part["level"]],
                "x": part["share"].tolist(),
                "orientation": "h",
                "name": outcome_label,
                "marker": {"color": OUTCOME_COLORS[outcome]},
                "customdata": part["groups"].tolist(),
                "legendgroup": "outcomes",
                "hovertemplate": f"%{{y}}<br>{outcome_label}: %{{x:.0%}} (%{{customdata}})<extra></extra>",
                **_axes_of(2),
            }
        )
    layout["xaxis"].update(title={"text": x_title}, range=[-0.1, 1.1])
    layout["yaxis"].update(title={"text": y_title}, range=[0, max(tallest, 1.0) * 1.15])
    layout["xaxis2"].update(title={"text": _l(labels, "share_axis")}, tickformat=".0%", range=[0, 1])
    layout["yaxis2"].update(categoryorder="array", categoryarray=names[::-1])
    # one spec, validated once (a new measurement rebuilds it)
    fig = base_layout(go.Figure(data=traces, layout=layout), height=height)
    # seven entries: a column to the right, clear of the subplot titles
    fig.update_layout(
        legend={"orientation": "v", "x": 1.02, "xanchor": "left", "y": 1.0, "yanchor": "top"}, margin={"t": 50, "r": 10}
    )
    return fig


def beta_density_figure(df: pd.DataFrame, mean: float, labels: Mapping[str, str], *, height: int = 260) -> go.Figure:
    """The Beta density of pass rates (``beta_density`` frame) with its mean marked.

    ``labels``: ``pass_rate``, ``density`` (the x and y axis titles, also in the hover),
    ``name.beta`` (the curve's name), ``mean`` (the word before the mean's value)."""
    x_title, y_title = _l(labels, "pass_rate"), _l(labels, "density")
    part = _finite(df, ["pass_rate", "density"])
    style = DISTRIBUTION_STYLES["beta"]
    trace = {
        "type": "scatter",
        "x": part["pass_rate"].tolist(),
        "y": part["density"].tolist(),
        "mode": "lines",
        "name": _l(labels, "name.beta"),
        "fill": "tozeroy",
        "line": {"color": style["color"], "width": 2},
        "fillcolor": "rgba(0,0,0,0.08)",
        "hovertemplate": f"{x_title}: %{{x:.2f}}<br>{y_title}: %{{y:.3g}}<extra></extra>",
    }
    # the label sits above the plot, on the side of the line away from a near edge, never cut off
    side = "right" if mean > 0.75 else ("left" if mean < 0.25 else "center")
    top = float(part["density"].quantile(0.97)) if not part.empty else 1.0
    layout = {
        "shapes": [
            {
                "type": "line",
                "x0": mean,
                "x1": mean,
                "xref": "x",
                "y0": 0,
                "y1": 1,
                "yref": "y domain",
                "line": {"dash": "dot", "color": OKABE_ITO["grey"]},
            }
        ],
        "annotations": [
            {
                "x": mean,
                "y": 1.0,
                "xref": "x",
                "yref": "y domain",
                "text": f"{_l(labels, 'mean')} {mean:.2f}",
                "showarrow": False,
                "xanchor": side,
                "yanchor": "bottom",
                "font": {"size": 11, "color": "#555555"},
            }
        ],
        "xaxis": {"title": {"text": x_title}, "range": [0, 1]},
        # the infinite ends of a U-shaped Beta would flatten the rest
        "yaxis": {"title": {"text": y_title}, "range": [0, max(top * 1.15, 0.1)]},
    }
    fig = base_layout(go.Figure(data=[trace], layout=layout), height=height)
    fig.update_layout(showlegend=False, margin={"t": 30})
    return fig


def fill_cost_figure(
    df: pd.DataFrame, chosen_K: int, target_groups: int, labels: Mapping[str, str], *, height: int = 460
) -> go.Figure:
    """Expected cost of dynamic sampling against the cap K, one line per distribution: informative
    groups in the batch (dotted: without dynamic sampling, n q; grey line: the target N), the chance
    the batch is full, and the rollouts spent per step (grey line: n G without dynamic sampling).

    Args:
        df: ``fill_cost_frame`` output.
        labels: ``cost_groups``, ``cost_full``, ``cost_rollouts`` (the three panel titles, also in the
            hover), ``cap_axis`` (the x axis title), ``name.<distribution>`` for each distribution
            of ``df`` (its legend name), ``plain`` (the baseline without dynamic sampling),
            ``target_line`` (the label of the target N) and ``chosen`` (the label of the chosen K).

    Built as one spec (traces, shapes, annotations and axes) and validated once: the same figure
    as ``make_subplots`` + ``add_trace`` / ``add_hline`` / ``add_vline`` per panel, at a tenth of
    the cost (a slider on the page rebuilds it).
    """
    titles = [_l(labels, k) for k in ("cost_groups", "cost_full", "cost_rollouts")]
    plain_label = _l(labels, "plain")
    layout = _subplot_grid(1, 3, horizontal_spacing=0.08)
    for note, title in zip(layout["annotations"], titles):
        note["text"] = title
        note["font"] = {"size": 13}  # the three titles side by side fit a 1280 px window
    panels = ("expected_groups", "full_batch_probability", "expected_rollouts")
    traces = []
    parts = dict(tuple(df.groupby("distribution", sort=False))) if not df.empty else {}
    for name, part in parts.items():
        part = part.sort_values("K")
        style = DISTRIBUTION_STYLES.get(name, {"color": OKABE_ITO["blue"], "dash": "solid"})
        label = _l(labels, f"name.{name}")
        for col, metric in enumerate(panels, start=1):
            p = _finite(part, ["K", metric])
            fmt = ".1%" if metric == "full_batch_probability" else ".2f"
            traces.append(
                {
                    "type": "scatter",
                    "x": p["K"].tolist(),
                    "y": p[metric].tolist(),
                    "mode": "lines+markers",
                    "name": label,
                    "legendgroup": name,
                    "showlegend": col == 1,
                    "line": {"color": style["color"], "dash": style["dash"], "width": 2},
                    "marker": {"size": 5, "color": style["color"]},
                    "hovertemplate": f"{label}<br>K = %{{x}}<br>{titles[col - 1]}: %{{y:{fmt}}}<extra></extra>",
                    **_axes_of(col),
                }
            )
        p = _finite(part, ["K", "plain_groups"])
        traces.append(
            {
                "type": "scatter",
                "x": p["K"].tolist(),
                "y": p["plain_groups"].tolist(),
                "mode": "lines",
                "name": f"{label} · {plain_label}",
                "legendgroup": name,
                "line": {"color": style["color"], "dash": "dot", "width": 1.5},
                "hovertemplate": f"{label} · {plain_label}<br>{titles[0]}: %{{y:.2f}}<extra></extra>",
                **_axes_of(1),
            }
        )
    # every label anchored inside its panel: away from the x ticks, the titles and the right edge
    top_groups = max([float(target_groups)] + _finite_max(df, ["expected_groups", "plain_groups"]))
    top_rollouts = max([1.0] + _finite_max(df, ["expected_rollouts", "plain_rollouts"]))
    max_K = int(df["K"].max()) if not df.empty else max(int(chosen_K), 1)
    x_range = [0.5, max(max_K, int(chosen_K)) + 0.5]  # one K range shared by the three panels
    # a label ends just left of the chosen-K line when that line is near the right edge
    width = x_range[1] - x_range[0]
    label_end = chosen_K if chosen_K > x_range[0] + 0.85 * width else x_range[1] - 0.01 * width
    shapes, notes = layout.setdefault("shapes", []), layout["annotations"]
    _hline_label(shapes, notes, target_groups, top_groups, _l(labels, "target_line"), 1, label_end)
    if not df.empty:
        _hline_label(shapes, notes, float(df["plain_rollouts"].iloc[0]), top_rollouts, plain_label, 3, label_end)
    for col in (1, 2, 3):
        axis = "" if col == 1 else str(col)
        shapes.append(
            {
                "type": "line",
                "x0": chosen_K,
                "x1": chosen_K,
                "xref": f"x{axis}",
                "y0": 0,
                "y1": 1,
                "yref": f"y{axis} domain",
                "line": {"color": OKABE_ITO["vermillion"], "dash": "dot"},
            }
        )
    right_half = chosen_K > (x_range[0] + x_range[1]) / 2
    notes.append(
        {
            "x": chosen_K,
            "y": 0.02,
            "xref": "x2",
            "yref": "y2 domain",
            "text": f" {_l(labels, 'chosen')} ",
            "showarrow": False,
            "xanchor": "right" if right_half else "left",
            "yanchor": "bottom",
            "font": {"size": 11, "color": OKABE_ITO["vermillion"]},
        }
    )
    x_axis = {"title": {"text": _l(labels, "cap_axis")}, "range": x_range}
    if max_K <= 12:
        x_axis["dtick"] = 1
    for axis in ("xaxis", "xaxis2", "xaxis3"):
        layout[axis].update(x_axis)
    layout["yaxis"]["range"] = [0, top_groups * 1.06]
    layout["yaxis2"].update(range=[0, 1.05], tickformat=".0%")
    layout["yaxis3"]["range"] = [0, top_rollouts * 1.06]
    fig = base_layout(go.Figure(data=traces, layout=layout), height=height)
    # the legend under the panels (its entries wrap to two rows in a 1024 px window, where above the
    # panels they covered the panel titles)
    fig.update_layout(
        legend={"orientation": "h", "yref": "container", "y": 0.0, "yanchor": "bottom", "x": 0, "xanchor": "left"},
        margin={"t": 50, "b": 120},
    )
    return fig


def _subplot_grid(rows: int, cols: int, **options) -> dict:
    """The layout ``make_subplots`` gives (axes, domains, one title annotation per panel, in panel
    order, their text to be filled in), as a fresh dict (:func:`rlviz.plots._assemble.subplots`)."""
    return subplots(rows, cols, subplot_titles=tuple(f"{i}" for i in range(rows * cols)), **options)


def _axes_of(panel: int) -> dict:
    """A trace's axis references for ``panel`` (1, 2, ... row by row: what ``add_trace(row=, col=)`` sets)."""
    return {"xaxis": f"x{'' if panel == 1 else panel}", "yaxis": f"y{'' if panel == 1 else panel}"}


def _finite_max(df: pd.DataFrame, cols: Sequence[str]) -> list[float]:
    """The largest finite value of each column present (empty list when none)."""
    out = []
    for c in cols:
        if c in df:
            v = pd.to_numeric(df[c], errors="coerce")
            v = v[np.isfinite(v)]
            if not v.empty:
                out.append(float(v.max()))
    return out


def _hline_label(shapes: list, notes: list, y: float, top: float, text: str, col: int, x_end: float) -> None:
    """A grey reference line at ``y`` in panel ``col`` of row 1, its label ending at ``x_end`` (data
    units) inside the plot: above the line in the lower half of the axis (clear of the x tick labels),
    below it in the upper half (clear of the panel title). ``top``: the panel's y maximum (the axis
    runs to 1.06 top). Appended to the layout's ``shapes`` and ``notes`` (annotations)."""
    axis = "" if col == 1 else str(col)
    shapes.append(
        {
            "type": "line",
            "x0": 0,
            "x1": 1,
            "xref": f"x{axis} domain",
            "y0": y,
            "y1": y,
            "yref": f"y{axis}",
            "line": {"color": OKABE_ITO["grey"], "width": 1},
        }
    )
    notes.append(
        {
            "x": x_end,
            "y": y,
            "xref": f"x{axis}",
            "yref": f"y{axis}",
            "text": text,
            "showarrow": False,
            "xshift": -3,
            "xanchor": "right",
            "yanchor": "bottom" if y < 0.5 * top * 1.06 else "top",
            "font": {"size": 11, "color": "#555555"},
        }
    )


def live_sampling_figure(
    df: pd.DataFrame,
    target_groups: int,
    labels: Mapping[str, str],
    *,
    height: int = 560,
    smooth: int | None = None,
    steps: int | None = None,
) -> go.Figure:
    """The live comparison, 2 x 2: groups with signal in the loss (effective batch) per step, rollouts
    spent so far per step, training reward per step, and training reward against rollouts spent.

    Args:
        df: ``DynamicSamplingRun.metrics_frame()``.
        target_groups: N, the grey line in the first panel.
        labels: ``live_signal``, ``live_rollouts``, ``live_reward``, ``live_reward_vs`` (the four
            panel titles, also in the hover; ``live_rollouts`` is the last panel's x axis title
            too), ``step`` (the other panels' x axis title), ``target_line`` (the label of N);
            optionally ``name.<arm>``, an arm's legend name (a missing one: the registry title of
            an arm named after an algorithm, else the arm's name), ``smoothed`` (the hover's word for
            a smoothed point) and ``empty`` (the figure's title while no arm has a step, e.g. "press
            Run: the curves grow here").
        smooth: a span in steps (``rlviz.plots.live.SMOOTH_SPAN``): the per-step series (groups with a
            signal, training pass@1, and pass@1 against responses) with two points or more are drawn
            as faded points under their exponential moving average (``rlviz.plots.live.ema``; the
            cumulative responses are drawn as they are); ``None``: every series as it is.
        steps: the run's length: the step axes span steps 1 to ``steps`` from the start, so the
            curves grow into a fixed frame (``None``: the axes follow the points).
    """
    from rlviz.plots.live import ema

    titles = [_l(labels, k) for k in ("live_signal", "live_rollouts", "live_reward", "live_reward_vs")]
    step_title, rollouts_title = _l(labels, "step"), titles[1]
    layout = _subplot_grid(2, 2, vertical_spacing=0.22, horizontal_spacing=0.1)
    for note, title in zip(layout["annotations"], titles):
        note["text"] = title
    panels = (
        ("step", "signal_groups", 1),
        ("step", "rollouts_cum", 2),
        ("step", "pass_at_1", 3),
        ("rollouts_cum", "pass_at_1", 4),
    )
    traces = []
    parts = dict(tuple(df.groupby("arm", sort=False))) if not df.empty else {}
    for arm in [a for a in ARM_STYLES if a in parts]:
        part = parts[arm].sort_values("step")
        style = ARM_STYLES[arm]
        label = labels.get(f"name.{arm}", ALGORITHMS[arm].title if arm in ALGORITHMS else arm)
        for i, (x, y, panel) in enumerate(panels):
            p = _finite(part, [x, y])
            xt = step_title if x == "step" else rollouts_title
            xs, ys = p[x].tolist(), p[y].astype(float).tolist()
            hover = f"{label}<br>{xt}: %{{x}}<br>{titles[i]}: %{{y:.3g}}"
            trace = {
                "type": "scatter",
                "x": xs,
                "y": ys,
                "mode": "lines+markers",
                "name": label,
                "legendgroup": arm,
                "showlegend": i == 0,
                "line": {"color": style["color"], "dash": style["dash"], "width": 2},
                "marker": {"size": 5, "color": style["color"]},
                "hovertemplate": hover + "<extra></extra>",
                **_axes_of(panel),
            }
            if smooth is not None and smooth > 1 and y != "rollouts_cum" and len(ys) >= 2:
                # the step's own points, faded, under their moving average (which carries the legend)
                faded = {k: v for k, v in trace.items() if k != "line"}
                traces.append(faded | {"mode": "markers", "showlegend": False, "opacity": 0.35})
                trace |= {
                    "y": ema(ys, smooth),
                    "mode": "lines",
                    "line": {**trace["line"], "width": 2.5},
                    "hovertemplate": f"{hover} ({_l(labels, 'smoothed')})<extra></extra>",
                }
                trace.pop("marker")
            traces.append(trace)
    if traces:  # the target N in the first panel (none before the first step, as plotly's add_hline)
        layout["shapes"] = [
            {
                "type": "line",
                "x0": 0,
                "x1": 1,
                "xref": "x domain",
                "y0": target_groups,
                "y1": target_groups,
                "yref": "y",
                "line": {"color": OKABE_ITO["grey"], "width": 1},
            }
        ]
        layout["annotations"].append(
            {
                "x": 1,
                "y": target_groups,
                "xref": "x domain",
                "yref": "y",
                "text": _l(labels, "target_line"),
                "showarrow": False,
                "xanchor": "right",
                "yanchor": "top",
            }
        )
    last_step = int(steps) if steps else (int(df["step"].max()) if len(df) else 1)
    for axis in ("xaxis", "xaxis2", "xaxis3"):
        # steps are whole numbers: ticks at 1, 2, ... (every k-th step for long runs), never 1.5
        layout[axis].update(title={"text": step_title}, tick0=1, dtick=max(1, math.ceil(last_step / 10)))
        if steps:  # the run's whole length from the start: the curves grow into a fixed frame
            layout[axis]["range"] = [0.5, int(steps) + 0.5]
    empty = not traces
    if empty:  # before the first step: no invented scale on the empty panels
        for axis in ("yaxis", "yaxis2", "yaxis3", "yaxis4", "xaxis4"):
            layout[axis]["showticklabels"] = False
        for panel in (1, 2, 3, 4):  # plotly draws no panel that no trace refers to: one without a point
            traces.append(
                {"type": "scatter", "x": [], "y": [], "mode": "markers", "showlegend": False, "hoverinfo": "skip"}
                | _axes_of(panel)
            )
        for axis in ("xaxis", "xaxis2", "xaxis3", "xaxis4", "yaxis", "yaxis2", "yaxis3", "yaxis4"):
            layout[axis].update(
                showline=True, mirror=True, linecolor="#d0d0d0", linewidth=1
            )  # the empty panels' frames
    layout["xaxis4"]["title"] = {"text": rollouts_title}
    layout["yaxis"]["rangemode"] = "tozero"
    layout["yaxis2"]["rangemode"] = "tozero"
    layout["yaxis3"]["range"] = [0, 1.02]
    layout["yaxis4"]["range"] = [0, 1.02]
    # one spec, validated once: a live run redraws it after every step
    fig = base_layout(go.Figure(data=traces, layout=layout), height=height)
    # the two arms: one row above the panel titles (container coordinates), so the panels keep the whole
    # width (a legend column to the right left the titles too little room at 1024 px and they overlapped)
    fig.update_layout(
        legend={"orientation": "h", "yref": "container", "y": 1.0, "yanchor": "top", "x": 0, "xanchor": "left"},
        margin={"t": 75, "r": 10},
    )
    if empty and "empty" in labels:  # before the first step: what will fill the panels
        fig.update_layout(
            title={
                "text": labels["empty"],
                "x": 0.5,
                "xanchor": "center",
                "yref": "container",
                "y": 0.995,
                "yanchor": "top",
                "font": {"size": 14, "color": "#555555"},
            },
            margin={"t": 75},
        )
    return fig
