"""Figures of the Live policy update page: metric small multiples, the ratio histogram, and the
per-token view's frame (the heatmap itself is :func:`rlviz.plots.token_weight_figure`).

Every builder takes one ``labels`` mapping of already-translated texts whose keys its docstring
lists (a missing key shows the key itself; a legend name ``name.<algorithm>`` falls back to the
registry title)."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from rlviz.core.objectives import ALGORITHMS
from rlviz.plots import _assemble, base_layout, ordered, style_or_default

__all__ = ["SMOOTH_SPAN", "ema", "live_metrics_figure", "ratio_histogram_figure", "token_view_frame"]

# The smoothed line over a run's per-step points: an exponential moving average with this span (in steps),
# i.e. weight alpha = 2 / (span + 1) on the newest point. The per-step reward of a small batch zigzags (one
# prompt more or less answered right moves it by 1 / n); the average shows the trend the eye looks for.
SMOOTH_SPAN = 5
TITLE_SHIFT_PX = 8  # a panel title's bottom above its panel's frame


def _l(labels: Mapping[str, str], key: str) -> str:
    return labels.get(key, key)


def _series_in(df: pd.DataFrame, by: str) -> list[str]:
    """The values of column ``by`` (algorithms or arm names) in the app's fixed order: registry
    names in registry order, other names after them, sorted."""
    if by not in df.columns or df.empty:
        return []
    return ordered(dict.fromkeys(df[by].astype(str)))


def _name(labels: Mapping[str, str], value: str) -> str:
    """The legend name of ``value`` (an algorithm or arm): ``labels["name.<value>"]``, else the
    registry title of a registry name, else ``value`` itself."""
    return labels.get(f"name.{value}", ALGORITHMS[value].title if value in ALGORITHMS else value)


def _placeholder(panel: int) -> dict:
    """A trace without a point in panel ``panel``: plotly draws no panel that no trace refers to (an
    empty run's figure showed one frame of nine)."""
    return {
        "type": "scatter",
        "x": [],
        "y": [],
        "mode": "markers",
        "showlegend": False,
        "hoverinfo": "skip",
        "xaxis": _assemble.ref("x", panel),
        "yaxis": _assemble.ref("y", panel),
    }


def ema(values: Sequence[float], span: int = SMOOTH_SPAN) -> list[float]:
    """The exponential moving average of ``values`` (in order), with ``span`` steps:
    ``s_0 = x_0``, ``s_t = a x_t + (1 - a) s_{t-1}`` with ``a = 2 / (span + 1)`` (pandas'
    ``ewm(span=span, adjust=False).mean()``). ``span`` 1 returns the values themselves.

    Raises:
        ValueError: ``span`` not a whole number >= 1.
    """
    if isinstance(span, bool) or not isinstance(span, int) or span < 1:
        raise ValueError(f"span: must be a whole number >= 1, got {span!r}")
    a = 2.0 / (span + 1)
    out: list[float] = []
    for x in values:
        out.append(float(x) if not out else a * float(x) + (1 - a) * out[-1])
    return out


def live_metrics_figure(
    df: pd.DataFrame,
    metrics: Sequence[str],
    labels: Mapping[str, str],
    *,
    cols: int = 2,
    panel_height: int = 220,
    by: str = "algorithm",
    smooth: int | None = None,
    steps: int | None = None,
) -> go.Figure:
    """Small multiples of live-run metrics: one panel per metric, one trace per algorithm (or arm).

    Args:
        df: long frame with columns ``by`` (``algorithm``, or ``arm`` for a
            ``rlviz.experiments.runner.SideBySideRun.metrics_frame``), ``step`` and the metric columns.
        metrics: metric column names, one panel each, in order. Missing columns give empty panels.
        labels: already-translated texts (Unicode / ``<sub>``): ``<metric>`` for each of ``metrics``
            (its panel title, also in the hover), ``step`` (the shared x axis title, also in the
            hover); optionally ``name.<value>`` for a value of ``by`` (its legend name; a missing
            one: the registry title, or the value itself), ``smoothed`` (the hover's word for a
            smoothed point) and ``empty`` (the figure's title while no panel has a point, e.g.
            "press Run: the curves grow here"). A missing key shows the key itself.
        cols: panels per row.
        panel_height: pixels per row of panels.
        by: the column with one trace per value; a registry name gets its algorithm's colour.
        smooth: a span in steps (e.g. :data:`SMOOTH_SPAN`): each series with two points or more is
            drawn as faded raw points under its exponential moving average (:func:`ema`), the line
            in the legend; ``None`` or 1: the raw series only, as lines.
        steps: the run's length: every x axis spans steps 1 to ``steps`` from the start, so the
            curves grow into a fixed frame (``None``: the axes follow the points).

    NaN points are dropped, so an all-NaN metric draws no trace for that algorithm; the legend
    shows each algorithm once and toggles it in every panel. A panel without a point has no y tick
    labels (an empty axis states no number).
    """
    x_title = _l(labels, "step")
    metrics = list(metrics)
    n = max(len(metrics), 1)
    cols = max(1, min(cols, n))
    rows = math.ceil(n / cols)
    # built as plain trace and layout dicts (rlviz.plots._assemble): the page redraws this figure
    # after every round of a run, and plotly's per-property validation was most of that
    layout = _assemble.subplots(
        rows,
        cols,
        shared_xaxes=True,
        subplot_titles=tuple(_l(labels, m) for m in metrics) or None,
        vertical_spacing=min(0.12, 0.35 / rows) if rows > 1 else 0.0,
        horizontal_spacing=0.08,
    )
    traces: list[dict] = []
    algorithms = _series_in(df, by)
    in_legend: set[str] = set()
    shown = [m for m in dict.fromkeys(metrics) if m in df.columns] if "step" in df.columns else []
    # each series' rows and every shown column as numbers, once (not per panel)
    numbers = df[["step", *shown]].apply(pd.to_numeric, errors="coerce") if shown else None
    series = {algo: numbers[(df[by].astype(str) == algo).to_numpy()] for algo in algorithms} if shown else {}
    for i, metric in enumerate(metrics):
        if metric not in shown:
            continue
        for algo in algorithms:
            part = series[algo][["step", metric]]
            part = part[np.isfinite(part["step"]) & np.isfinite(part[metric])]
            if part.empty:
                continue
            part = part.sort_values("step", kind="stable")
            style = style_or_default(algo)
            name = _name(labels, algo)
            x, y = part["step"].tolist(), part[metric].astype(float).tolist()
            axes = {"xaxis": _assemble.ref("x", i + 1), "yaxis": _assemble.ref("y", i + 1)}
            hover = f"{name}<br>{x_title} %{{x}}<br>{_l(labels, metric)}: %{{y:.4g}}"
            smoothed = smooth is not None and smooth > 1 and len(y) >= 2
            raw = {
                "type": "scatter",
                "x": x,
                "y": y,
                "name": name,
                "legendgroup": algo,
                "hovertemplate": hover + "<extra></extra>",
                **axes,
            }
            if smoothed:  # the step's own points, faded, under the average (which carries the legend)
                raw |= {
                    "mode": "markers",
                    "showlegend": False,
                    "opacity": 0.35,
                    "marker": {"size": 4, "color": style["color"]},
                }
                traces.append(raw)
                traces.append(
                    {
                        "type": "scatter",
                        "x": x,
                        "y": ema(y, smooth),
                        "mode": "lines",
                        "name": name,
                        "legendgroup": algo,
                        "showlegend": algo not in in_legend,
                        "line": {"color": style["color"], "dash": style["dash"], "width": 2.5},
                        "hovertemplate": f"{hover} ({_l(labels, 'smoothed')})<extra></extra>",
                        **axes,
                    }
                )
            else:
                raw |= {
                    "mode": "lines+markers" if len(part) < 40 else "lines",
                    "showlegend": algo not in in_legend,
                    "line": {"color": style["color"], "dash": style["dash"], "width": 2},
                    "marker": {"size": 4, "color": style["color"]},
                }
                traces.append(raw)
            in_legend.add(algo)
    # the x title on the bottom row of each column only (shared axes)
    for c in range(cols):
        last_row = max(r for r in range(rows) if r * cols + c < n) if n > c else rows - 1
        x = layout.setdefault(_assemble.axis("x", last_row * cols + c + 1), {})
        x["showticklabels"] = True
        _assemble.title(layout, _assemble.axis("x", last_row * cols + c + 1), x_title)
    for note in layout.get("annotations", ()):
        note.setdefault("font", {})["size"] = 13
        # clear of the panel's frame (its top line is the x axis' mirror): at 3 px the line touched the
        # titles' descenders, and in some renders struck them through (1400 and 1024 px windows)
        note["yshift"] = TITLE_SHIFT_PX
    done = pd.to_numeric(df["step"], errors="coerce") if "step" in df.columns else pd.Series(dtype=float)
    span = (1, int(steps)) if steps else ((done.min(), done.max()) if done.notna().any() else None)
    for key in [k for k in layout if k.startswith("xaxis")]:
        if span is not None and span[1] - span[0] < 10:
            layout[key]["dtick"] = 1  # whole steps only
        if steps:  # the run's whole length from the start: the curves grow into a fixed frame
            layout[key]["range"] = [0.5, int(steps) + 0.5]
    drawn = {t["yaxis"] for t in traces}
    for i in range(len(metrics)):
        for kind in ("x", "y"):  # a light frame round each panel: the small multiples read as boxes, even empty
            frame = {"showline": True, "mirror": True, "linecolor": "#d0d0d0", "linewidth": 1}
            layout.setdefault(_assemble.axis(kind, i + 1), {}).update(frame)
        layout[_assemble.axis("y", i + 1)]["tickformat"] = ".3~g"  # 0.598, not 0.59829121 (one point: a narrow range)
        if _assemble.ref("y", i + 1) not in drawn:  # an empty panel: no invented scale
            layout[_assemble.axis("y", i + 1)]["showticklabels"] = False
            traces.append(_placeholder(i + 1))
    # the legend above the first row's panel titles (container coordinates, not the plot area); before
    # the first point, a line in its place says what will fill the panels
    after = {"legend": {"yref": "container", "y": 1.0, "yanchor": "top"}, "margin": {"t": 75}}
    if not any(t["x"] for t in traces) and "empty" in labels:
        after["title"] = {
            "text": labels["empty"],
            "x": 0.5,
            "xanchor": "center",
            "yref": "container",
            "y": 0.995,
            "yanchor": "top",
            "font": {"size": 14, "color": "#555555"},
        }
    return _assemble.figure(traces, layout, height=max(260, panel_height * rows + 100), after=after)


def ratio_histogram_figure(
    hist_df: pd.DataFrame,
    labels: Mapping[str, str],
    *,
    trust_region: tuple[float, float] | None = None,
    value: str = "count",
    by: str = "algorithm",
) -> go.Figure:
    """Histogram of importance ratios, one trace per algorithm (a step curve for pre-binned counts).

    Args:
        hist_df: either raw values (columns ``algorithm``, ``ratio``) or pre-binned counts
            (columns ``algorithm``, ``bin_left``, ``bin_right`` and ``value``).
        labels: already-translated texts: ``ratio_axis`` (the x axis title), ``value_axis`` (the y
            axis title: what ``value`` counts); optionally ``name.<value>`` for a value of ``by``
            (its legend name; a missing one: the registry title, or the value itself). A missing
            key shows the key itself.
        value: the column of a pre-binned frame to plot (``count``, or e.g. ``fraction``).
        by: the column with one trace per value (``algorithm``, or ``arm``).
        trust_region: optional ``(1-ε_low, 1+ε_high)`` band drawn with ``add_vrect``.

    A vertical line marks r = 1. Non-finite values are dropped.
    """
    fig = go.Figure()
    binned = {"bin_left", "bin_right", value}.issubset(hist_df.columns)
    for algo in _series_in(hist_df, by):
        style = style_or_default(algo)
        name = _name(labels, algo)
        part = hist_df[hist_df[by].astype(str) == algo]
        if binned:
            part = part[["bin_left", "bin_right", value]].apply(pd.to_numeric, errors="coerce")
            part = part[np.isfinite(part).all(axis=1)]
            if part.empty:
                continue
            centre = (part["bin_left"] + part["bin_right"]) / 2
            # one outlined step curve per algorithm (its colour and dash): overlaid bars hide each other
            fig.add_trace(
                go.Scatter(
                    x=centre.tolist(),
                    y=part[value].tolist(),
                    mode="lines",
                    line={"color": style["color"], "dash": style["dash"], "shape": "hvh", "width": 2},
                    name=name,
                    legendgroup=algo,
                    customdata=np.stack([part["bin_left"], part["bin_right"]], axis=1).tolist(),
                    hovertemplate=f"{name}<br>[%{{customdata[0]:.4g}}, %{{customdata[1]:.4g}}): %{{y:.4g}}<extra></extra>",
                )
            )
        else:
            values = pd.to_numeric(part.get("ratio", pd.Series(dtype=float)), errors="coerce")
            values = values[np.isfinite(values)]
            if values.empty:
                continue
            fig.add_trace(
                go.Histogram(
                    x=values.tolist(),
                    name=name,
                    legendgroup=algo,
                    marker={"color": style["color"]},
                    opacity=0.55,
                    nbinsx=60,
                )
            )
    if trust_region is not None:
        lo, hi = trust_region
        fig.add_vrect(x0=lo, x1=hi, fillcolor="#999999", opacity=0.12, line_width=0, layer="below")
    fig.add_vline(x=1.0, line={"color": "#000000", "dash": "dot", "width": 1})
    fig.update_layout(barmode="overlay")
    return base_layout(fig, height=360, x_title=_l(labels, "ratio_axis"), y_title=_l(labels, "value_axis"))


def token_view_frame(view: Mapping | None, weight_key: str = "weight") -> pd.DataFrame:
    """A group's token view (``rlviz.experiments.runner.SideBySideRun.token_view``) as the long frame
    :func:`token_weight_figure` takes: one row per response token with ``response, position, token,
    weight, advantage, reward, in_loss, state``.

    ``weight`` is the *push* on each token's log-probability, −∂loss/∂log π (positive: one
    gradient-descent step raises it), read from each row's ``weight_key`` (``"weight"``: after
    the step's updates; ``"weight_first"``: at its first, on-policy update). ``state`` is what the
    trust region did to the token at that same point (``rlviz.core.objectives.TOKEN_STATES``), read
    from the row's ``"state"`` (with ``"weight"``) or ``"state_first"`` (with ``"weight_first"``);
    ``None`` where the view has none. An empty frame for ``None`` (a step without an update).
    """
    columns = ["response", "position", "token", "weight", "advantage", "reward", "in_loss", "state"]
    if not view:
        return pd.DataFrame(columns=columns)
    state_key = "state" + weight_key.removeprefix("weight")
    rows = []
    for i, row in enumerate(view.get("rows", [])):
        states = row.get(state_key) or [None] * len(row["tokens"])
        for j, (token, weight, state) in enumerate(zip(row["tokens"], row[weight_key], states)):
            rows.append(
                {
                    "response": i,
                    "position": j,
                    "token": token,
                    "weight": -float(weight) if weight is not None else math.nan,
                    "advantage": row["advantage"],
                    "reward": row["reward"],
                    "in_loss": row["in_loss"],
                    "state": state,
                }
            )
    return pd.DataFrame(rows, columns=columns)
