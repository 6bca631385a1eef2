"""Figures of the "one update, slowly" page (``rlviz.experiments.step``): the group's responses as token
strips (one row per response, one cell per token, coloured by the stage's quantity) and one bar per response.

Every builder takes the walk's long frame (``Walk.frame()``) or its per-response values and a ``labels``
mapping of already translated texts; no Streamlit, no i18n. Titles stay short (they must fit a 1024 px
window with the sidebar open); the numbers that explain a figure stand beside it on the page.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from rlviz.core.objectives import TOKEN_STATES

from . import base_layout

__all__ = [
    "DIVERGING",
    "SEQUENTIAL",
    "STATE_COLORS",
    "ratio_figure",
    "response_bars_figure",
    "states_figure",
    "token_strip_figure",
]

# light ends, so that the token's characters stay readable on every cell
DIVERGING = [[0.0, "#8073ac"], [0.25, "#b2abd2"], [0.5, "#f7f7f7"], [0.75, "#fdb863"], [1.0, "#e08214"]]
SEQUENTIAL = [[0.0, "#f7fbff"], [0.5, "#c6dbef"], [1.0, "#6baed6"]]
STATE_COLORS = {
    "active": "#deebf7",
    "clipped": "#E69F00",
    "capped": "#F0E442",
    "gated": "#CC79A7",
    "masked": "#d9d9d9",
}
ROW_PX = 30  # height of one response's row
CBAR_TICK_PX = 17  # the least distance between two of a colour bar's tick labels (13 px text and a gap)
MONO = {"family": "DejaVu Sans Mono, Noto Sans Mono, monospace", "size": 14}


def _l(labels: Mapping[str, str], key: str) -> str:
    return labels.get(key, key)


def _visible(token: str) -> str:
    return {" ": "␣", "\n": "⏎", "\t": "⇥", "": "∅"}.get(token, token)


def _grid(frame: pd.DataFrame, column: str, fill=np.nan) -> tuple[list[int], np.ndarray]:
    """(responses, [G, width] of ``column``): padding cells hold ``fill``."""
    responses = sorted(int(r) for r in frame["response"].unique())
    width = int(frame["position"].max()) + 1
    dtype = object if not isinstance(fill, float) else float
    grid = np.full((len(responses), width), fill, dtype=dtype)
    row = {r: i for i, r in enumerate(responses)}
    for r, j, v in zip(frame["response"], frame["position"], frame[column]):
        grid[row[int(r)], int(j)] = v
    return responses, grid


def _height(rows: int) -> int:
    return max(200, ROW_PX * rows + 100)


def _colorbar_px(rows: int, title: str | None) -> float:
    """About the drawn length in pixels of a strip's colour bar: ``len`` 0.9 of the plot area, the
    figure's height less :func:`_finish`'s margins, the bottom one pushed out by about 40 px for the x
    axis' tick labels and title (8 rows: 190 px drawn in chromium at 1024 and 1400 px)."""
    return 0.9 * (_height(rows) - (40 if title else 20) - 45 - 40)


def _empty(labels: Mapping[str, str], title: str | None) -> go.Figure:
    return base_layout(go.Figure(), title=title, height=200, x_title=_l(labels, "position"))


def _finish(fig: go.Figure, labels: Mapping[str, str], title: str | None, rows: int, y: list[str]) -> go.Figure:
    base_layout(fig, title=title, height=_height(rows), x_title=_l(labels, "position"))
    fig.update_layout(margin={"l": 10, "r": 10, "t": 40 if title else 20, "b": 45})
    fig.update_yaxes(autorange="reversed", type="category", categoryorder="array", categoryarray=y, automargin=True)
    fig.update_xaxes(dtick=1, showgrid=False, zeroline=False)
    return fig


def token_strip_figure(
    frame: pd.DataFrame,
    value: str,
    labels: Mapping[str, str],
    *,
    row_labels: Mapping[int, str] | None = None,
    title: str | None = None,
    scale: str = "sequential",
    zmin: float | None = None,
    zmax: float | None = None,
    hover: Sequence[tuple[str, str, str]] = (),
    ticks: Sequence[tuple[float, str]] = (),
) -> go.Figure:
    """The group's tokens coloured by ``frame[value]``: rows are responses (``row_labels``: response ->
    its axis label, default "#i"), columns positions, each cell's text the token.

    Args:
        frame: ``Walk.frame()`` (columns ``response``, ``position``, ``token`` and ``value``).
        labels: ``position`` (the x axis title) and ``colorbar`` (the colour bar's title).
        scale: ``"sequential"`` (light to blue, from ``zmin`` / the smallest value) or ``"diverging"``
            (purple below 0, orange above, centred at 0 over ±``zmax`` / the largest |value|).
        hover: ``(label, column, format)`` lines of the hover, e.g. ``("π_old", "old_prob", ".3f")``.
        ticks: ``(value, text)`` of the colour bar (e.g. a ratio shown at its log): default plotly's.
    """
    needed = {"response", "position", "token", value}
    if frame.empty or not needed <= set(frame.columns):
        return _empty(labels, title)
    responses, z = _grid(frame, value)
    _, text = _grid(frame, "token", fill="")
    text = np.vectorize(lambda t: _visible(str(t)) if t != "" else "")(text)
    finite = z[np.isfinite(z)]
    if scale == "diverging":
        top = zmax if zmax is not None and math.isfinite(zmax) and zmax > 0 else None
        top = top or (float(np.max(np.abs(finite))) if finite.size else 1.0) or 1.0
        colors, low, high, mid = DIVERGING, -top, top, 0.0
    else:
        low = zmin if zmin is not None else (float(finite.min()) if finite.size else 0.0)
        high = zmax if zmax is not None else (float(finite.max()) if finite.size else 1.0)
        high = high if high > low else low + 1.0
        colors, mid = SEQUENTIAL, None
    grids = [
        _grid(frame, c)[1] if pd.api.types.is_numeric_dtype(frame[c]) else _grid(frame, c, "")[1] for _, c, _ in hover
    ]

    def cell(g: np.ndarray, i: int, j: int):
        v = g[i, j]
        return None if isinstance(v, float) and np.isnan(v) else v

    custom = [[[cell(g, i, j) for g in grids] for j in range(z.shape[1])] for i in range(len(responses))]
    lines = [
        f"{label}: %{{customdata[{k}]:{fmt}}}" if fmt else f"{label}: %{{customdata[{k}]}}"
        for k, (label, _, fmt) in enumerate(hover)
    ]
    y = [(row_labels or {}).get(r, f"#{r}") for r in responses]
    colorbar = {"title": {"text": _l(labels, "colorbar"), "side": "right"}, "thickness": 12, "len": 0.9}
    if ticks:
        colorbar |= {"tickvals": [v for v, _ in ticks], "ticktext": [t for _, t in ticks]}
    fig = go.Figure(
        go.Heatmap(
            z=[[None if not np.isfinite(v) else float(v) for v in row] for row in z],
            x=list(range(z.shape[1])),
            y=y,
            text=text.tolist(),
            texttemplate="%{text}",
            textfont=MONO,
            customdata=custom,
            colorscale=colors,
            zmin=low,
            zmax=high,
            zmid=mid,
            xgap=2,
            ygap=2,
            hoverongaps=False,
            colorbar=colorbar,
            hovertemplate="%{text}<br>" + "<br>".join(lines) + "<extra>%{y}</extra>",
        )
    )
    return _finish(fig, labels, title, len(responses), y)


def states_figure(
    frame: pd.DataFrame,
    labels: Mapping[str, str],
    *,
    row_labels: Mapping[int, str] | None = None,
    title: str | None = None,
    hover: Sequence[tuple[str, str, str]] = (),
) -> go.Figure:
    """The group's tokens coloured by what the trust region did to each (``frame["state"]``, one of
    ``TOKEN_STATES``): one colour per state present (:data:`STATE_COLORS`), named on the colour bar by
    ``labels["state.<state>"]``."""
    if frame.empty or "state" not in frame.columns:
        return _empty(labels, title)
    present = [s for s in TOKEN_STATES if s in set(frame["state"])]
    code = {s: k for k, s in enumerate(present)}
    data = frame.assign(_code=frame["state"].map(code).astype(float))
    n = max(len(present), 1)
    scale = []
    for k, s in enumerate(present):  # one flat band of the scale per state
        scale += [[k / n, STATE_COLORS.get(s, "#ffffff")], [(k + 1) / n, STATE_COLORS.get(s, "#ffffff")]]
    fig = token_strip_figure(
        data,
        "_code",
        {**labels, "colorbar": ""},
        row_labels=row_labels,
        title=title,
        zmin=-0.5,
        zmax=n - 0.5,
        hover=hover,
        ticks=[(k, _l(labels, f"state.{s}")) for k, s in enumerate(present)],
    )
    if fig.data:
        fig.data[0].colorscale = scale or [[0, "#ffffff"], [1, "#ffffff"]]
    return fig


def response_bars_figure(
    values: Sequence[float],
    labels: Mapping[str, str],
    *,
    row_labels: Sequence[str],
    title: str | None = None,
    signed: bool = False,
    colors: Sequence[str] | None = None,
    text: Sequence[str] | None = None,
    x_title: str = "",
) -> go.Figure:
    """One horizontal bar per response (top to bottom in order): ``values`` (a reward, an advantage),
    with ``text`` on the bars (``None``: none) and ``colors`` per bar (default: orange above 0, purple
    below, grey at 0, for ``signed``; blue else)."""
    values = [float(v) for v in values]
    if colors is None:
        if signed:
            colors = ["#e08214" if v > 0 else "#8073ac" if v < 0 else "#bbbbbb" for v in values]
        else:
            colors = ["#6baed6"] * len(values)
    fig = go.Figure(
        go.Bar(
            x=values,
            y=list(row_labels),
            orientation="h",
            marker={"color": list(colors)},
            text=None if text is None else list(text),
            textposition="outside",
            textangle=0,
            cliponaxis=False,
            hovertemplate="%{y}: %{x:.4g}<extra></extra>",
        )
    )
    base_layout(fig, title=title, height=_height(len(values)), x_title=x_title)
    fig.update_layout(margin={"l": 10, "r": 20, "t": 40 if title else 20, "b": 45}, showlegend=False)
    fig.update_yaxes(autorange="reversed", type="category", automargin=True)
    finite = [abs(v) for v in values if math.isfinite(v)]
    top = max(finite) if finite else 1.0
    top = top if top > 0 else 1.0
    fig.update_xaxes(range=[-1.15 * top if signed else 0, 1.15 * top], zeroline=True, zerolinecolor="#444")
    return fig


def ratio_figure(
    frame: pd.DataFrame,
    labels: Mapping[str, str],
    *,
    band: tuple[float, float] | None = None,
    row_labels: Mapping[int, str] | None = None,
    title: str | None = None,
    hover: Sequence[tuple[str, str, str]] = (),
) -> go.Figure:
    """The group's tokens coloured by the ratio the objective uses (``frame["ratio"]``) on a log scale
    centred at r = 1 (purple below, orange above); the colour bar names r at 1, at the band's ends
    (``band``) and at the extremes."""
    if frame.empty or "ratio" not in frame.columns:
        return _empty(labels, title)
    ratio = pd.to_numeric(frame["ratio"], errors="coerce").clip(lower=1e-12)
    data = frame.assign(_log_ratio=np.log(ratio))
    finite = data["_log_ratio"][np.isfinite(data["_log_ratio"])]
    low, high = (float(finite.min()), float(finite.max())) if len(finite) else (0.0, 0.0)
    edges = [] if band is None else [math.log(x) for x in band if x > 0]
    top = max([abs(low), abs(high), *[abs(e) for e in edges], math.log(1.05)])
    # ticks at r = 1, at the smallest and largest r and at the band's ends; one too close to another would
    # print over it (GSPO's band is 1 ± 4e-4; r up to 1.34 beside a band's 1.2 on a short bar): only those
    # a tenth of the scale and a tick label's height on the drawn bar apart, the first of each pair kept
    gap = max(
        0.1 * top,
        2 * top * CBAR_TICK_PX / _colorbar_px(int(frame["response"].nunique()) if "response" in frame else 1, title),
    )
    marks: list[float] = []
    for m in (0.0, low, high, *edges):
        if all(abs(m - x) >= gap for x in marks):
            marks.append(m)
    ticks = [(m, f"{math.exp(m):.3g}") for m in sorted(marks)]
    return token_strip_figure(
        data,
        "_log_ratio",
        labels,
        row_labels=row_labels,
        title=title,
        scale="diverging",
        zmax=top,
        hover=hover,
        ticks=ticks,
    )
