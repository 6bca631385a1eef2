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

__all__ = ["live_metrics_figure", "ratio_histogram_figure", "token_view_frame"]


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


def live_metrics_figure(
    df: pd.DataFrame,
    metrics: Sequence[str],
    labels: Mapping[str, str],
    *,
    cols: int = 2,
    panel_height: int = 220,
    by: str = "algorithm",
) -> go.Figure:
    """Small multiples of live-run metrics: one panel per metric, one trace per algorithm (or arm).

    Args:
        df: long frame with columns ``by`` (``algorithm``, or ``arm`` for a
            ``rlviz.experiments.runner.SideBySideRun.metrics_frame``), ``step`` and the metric columns.
        metrics: metric column names, one panel each, in order. Missing columns give empty panels.
        labels: already-translated texts (Unicode / ``<sub>``): ``<metric>`` for each of ``metrics``
            (its panel title, also in the hover), ``step`` (the shared x axis title, also in the
            hover); optionally ``name.<value>`` for a value of ``by`` (its legend name; a missing
            one: the registry title, or the value itself). A missing key shows the key itself.
        cols: panels per row.
        panel_height: pixels per row of panels.
        by: the column with one trace per value; a registry name gets its algorithm's colour.

    NaN points are dropped, so an all-NaN metric draws no trace for that algorithm; the legend
    shows each algorithm once and toggles it in every panel.
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
            traces.append(
                {
                    "type": "scatter",
                    "x": part["step"].tolist(),
                    "y": part[metric].astype(float).tolist(),
                    "mode": "lines+markers" if len(part) < 40 else "lines",
                    "name": name,
                    "legendgroup": algo,
                    "showlegend": algo not in in_legend,
                    "line": {"color": style["color"], "dash": style["dash"], "width": 2},
                    "marker": {"size": 4, "color": style["color"]},
                    "hovertemplate": f"{name}<br>{x_title} %{{x}}<br>{_l(labels, metric)}: %{{y:.4g}}<extra></extra>",
                    "xaxis": _assemble.ref("x", i + 1),
                    "yaxis": _assemble.ref("y", i + 1),
                }
            )
            in_legend.add(algo)
    # the x title on the bottom row of each column only (shared axes)
    for c in range(cols):
        last_row = max(r for r in range(rows) if r * cols + c < n) if n > c else rows - 1
        x = layout.setdefault(_assemble.axis("x", last_row * cols + c + 1), {})
        x["showticklabels"] = True
        _assemble.title(layout, _assemble.axis("x", last_row * cols + c + 1), x_title)
    for note in layout.get("annotations", ()):
        note.setdefault("font", {})["size"] = 13
    steps = pd.to_numeric(df["step"], errors="coerce") if "step" in df.columns else pd.Series(dtype=float)
    if steps.notna().any() and steps.max() - steps.min() < 10:
        for key in [k for k in layout if k.startswith("xaxis")]:
            layout[key]["dtick"] = 1  # whole steps only
    # the legend above the first row's panel titles (container coordinates, not the plot area)
    after = {"legend": {"yref": "container", "y": 1.0, "yanchor": "top"}, "margin": {"t": 75}}
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
