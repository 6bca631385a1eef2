"""Plotly figure builders for rlviz (no Streamlit here).

One colour-blind-safe palette (Okabe-Ito, plus a neutral grey as the ninth colour) and one fixed
colour + dash per algorithm, so that an algorithm looks the same in every figure of the app.
Labels use Unicode and ``<sub>``: Plotly inside Streamlit cannot render LaTeX.

Every builder skips NaN points (a metric may be all-NaN for an algorithm, e.g. the SAPO gate
weight for anything but SAPO) and returns an empty but valid figure for an empty frame.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

__all__ = [
    "ALGORITHM_ORDER",
    "OKABE_ITO",
    "algorithm_style",
    "base_layout",
    "lineage_figure",
    "live_metrics_figure",
    "ratio_histogram_figure",
    "token_view_frame",
    "token_weight_figure",
]

# Okabe & Ito (2008), "Color Universal Design"; grey added as a ninth, neutral colour.
OKABE_ITO: dict[str, str] = {
    "black": "#000000",
    "orange": "#E69F00",
    "sky_blue": "#56B4E9",
    "bluish_green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "reddish_purple": "#CC79A7",
    "grey": "#999999",
}

ALGORITHM_ORDER: tuple[str, ...] = (
    "ppo",
    "grpo",
    "dr_grpo",
    "dapo",
    "gspo",
    "gspo_token",
    "gmpo",
    "sapo",
    "cispo",
)

# The four defaults of the live page (grpo, dapo, gspo, sapo) get four strong, distinct colours.
_STYLES: dict[str, dict[str, str]] = {
    "ppo": {"color": OKABE_ITO["black"], "dash": "dot"},
    "grpo": {"color": OKABE_ITO["blue"], "dash": "solid"},
    "dr_grpo": {"color": OKABE_ITO["sky_blue"], "dash": "dash"},
    "dapo": {"color": OKABE_ITO["orange"], "dash": "solid"},
    "gspo": {"color": OKABE_ITO["bluish_green"], "dash": "solid"},
    "gspo_token": {"color": OKABE_ITO["grey"], "dash": "dashdot"},
    "gmpo": {"color": OKABE_ITO["yellow"], "dash": "longdash"},
    "sapo": {"color": OKABE_ITO["vermillion"], "dash": "solid"},
    "cispo": {"color": OKABE_ITO["reddish_purple"], "dash": "dash"},
}

# Diverging, colour-blind safe (ColorBrewer PuOr): purple = pushed down, orange = pushed up.
DIVERGING_SCALE = [
    [0.0, "#542788"],
    [0.25, "#998ec3"],
    [0.5, "#f7f7f7"],
    [0.75, "#f1a340"],
    [1.0, "#b35806"],
]

FONT_FAMILY = "Noto Sans, Noto Sans CJK SC, Source Han Sans SC, PingFang SC, Microsoft YaHei, sans-serif"


def algorithm_style(name: str) -> dict[str, str]:
    """The fixed colour and dash of one algorithm, e.g. ``{"color": "#0072B2", "dash": "solid"}``.

    Raises:
        ValueError: ``name`` is not one of the nine algorithms.
    """
    try:
        return dict(_STYLES[name])
    except KeyError:
        raise ValueError(f"algorithm: {name!r} is not one of {', '.join(ALGORITHM_ORDER)}") from None


def base_layout(
    fig: go.Figure,
    *,
    title: str | None = None,
    height: int | None = None,
    legend_title: str | None = None,
    x_title: str | None = None,
    y_title: str | None = None,
) -> go.Figure:
    """Apply the app's common look to ``fig`` in place and return it."""
    fig.update_layout(
        template="plotly_white",
        font={"family": FONT_FAMILY, "size": 13},
        margin={"l": 60, "r": 20, "t": 60 if title else 30, "b": 50},
        legend={
            "orientation": "h",
            "yanchor": "bottom",
            "y": 1.02,
            "xanchor": "left",
            "x": 0.0,
            "title": {"text": legend_title} if legend_title else None,
        },
        hoverlabel={"font": {"family": FONT_FAMILY}},
    )
    if title:
        fig.update_layout(title={"text": title, "x": 0.0, "xanchor": "left"})
    if height:
        fig.update_layout(height=height)
    if x_title is not None:
        fig.update_xaxes(title_text=x_title)
    if y_title is not None:
        fig.update_yaxes(title_text=y_title)
    return fig


def _algorithms_in(df: pd.DataFrame) -> list[str]:
    """Algorithms present in ``df``, in the app's fixed order (unknown names last, sorted)."""
    if "algorithm" not in df.columns or df.empty:
        return []
    present = list(dict.fromkeys(df["algorithm"].astype(str)))
    known = [a for a in ALGORITHM_ORDER if a in present]
    return known + sorted(a for a in present if a not in ALGORITHM_ORDER)


def _style_or_default(name: str) -> dict[str, str]:
    return dict(_STYLES.get(name, {"color": OKABE_ITO["grey"], "dash": "solid"}))


def live_metrics_figure(
    df: pd.DataFrame,
    metrics: Sequence[str],
    labels: Mapping[str, str] | None = None,
    *,
    cols: int = 2,
    x_title: str = "step",
    algorithm_labels: Mapping[str, str] | None = None,
    panel_height: int = 220,
) -> go.Figure:
    """Small multiples of live-run metrics: one panel per metric, one trace per algorithm.

    Args:
        df: long frame with columns ``algorithm``, ``step`` and the metric columns.
        metrics: metric column names, one panel each, in order. Missing columns give empty panels.
        labels: metric -> panel title (Unicode / ``<sub>``); defaults to the column name.
        cols: panels per row.
        x_title: label of the shared step axis.
        algorithm_labels: algorithm name -> legend label; defaults to the name.
        panel_height: pixels per row of panels.

    NaN points are dropped, so an all-NaN metric draws no trace for that algorithm; the legend
    shows each algorithm once and toggles it in every panel.
    """
    labels = dict(labels or {})
    algorithm_labels = dict(algorithm_labels or {})
    metrics = list(metrics)
    n = max(len(metrics), 1)
    cols = max(1, min(cols, n))
    rows = math.ceil(n / cols)
    fig = make_subplots(
        rows=rows,
        cols=cols,
        shared_xaxes=True,
        subplot_titles=[labels.get(m, m) for m in metrics] or None,
        vertical_spacing=min(0.12, 0.35 / rows) if rows > 1 else 0.0,
        horizontal_spacing=0.08,
    )
    algorithms = _algorithms_in(df)
    in_legend: set[str] = set()
    for i, metric in enumerate(metrics):
        row, col = divmod(i, cols)
        if metric not in df.columns or "step" not in df.columns:
            continue
        for algo in algorithms:
            part = df.loc[df["algorithm"].astype(str) == algo, ["step", metric]]
            part = part.apply(pd.to_numeric, errors="coerce")
            part = part[np.isfinite(part["step"]) & np.isfinite(part[metric])]
            if part.empty:
                continue
            part = part.sort_values("step")
            style = _style_or_default(algo)
            name = algorithm_labels.get(algo, algo)
            fig.add_trace(
                go.Scatter(
                    x=part["step"].tolist(),
                    y=part[metric].astype(float).tolist(),
                    mode="lines+markers" if len(part) < 40 else "lines",
                    name=name,
                    legendgroup=algo,
                    showlegend=algo not in in_legend,
                    line={"color": style["color"], "dash": style["dash"], "width": 2},
                    marker={"size": 4, "color": style["color"]},
                    hovertemplate=f"{name}<br>{x_title} %{{x}}<br>{labels.get(metric, metric)}: %{{y:.4g}}<extra></extra>",
                ),
                row=row + 1,
                col=col + 1,
            )
            in_legend.add(algo)
    base_layout(fig, height=max(260, panel_height * rows + 100))
    # the legend above the first row's panel titles (container coordinates, not the plot area)
    fig.update_layout(legend={"yref": "container", "y": 1.0, "yanchor": "top"}, margin={"t": 75})
    # the x title on the bottom row of each column only (shared axes)
    for c in range(cols):
        last_row = max(r for r in range(rows) if r * cols + c < n) if n > c else rows - 1
        fig.update_xaxes(title_text=x_title, row=last_row + 1, col=c + 1, showticklabels=True)
    fig.update_annotations(font={"size": 13})
    steps = pd.to_numeric(df["step"], errors="coerce") if "step" in df.columns else pd.Series(dtype=float)
    if steps.notna().any() and steps.max() - steps.min() < 10:
        fig.update_xaxes(dtick=1)  # whole steps only
    return fig


def ratio_histogram_figure(
    hist_df: pd.DataFrame,
    *,
    title: str | None = None,
    x_title: str = "r = π<sub>θ</sub> / π<sub>old</sub>",
    y_title: str = "tokens",
    algorithm_labels: Mapping[str, str] | None = None,
    trust_region: tuple[float, float] | None = None,
    value: str = "count",
) -> go.Figure:
    """Histogram of importance ratios, one trace per algorithm (a step curve for pre-binned counts).

    Args:
        hist_df: either raw values (columns ``algorithm``, ``ratio``) or pre-binned counts
            (columns ``algorithm``, ``bin_left``, ``bin_right`` and ``value``).
        value: the column of a pre-binned frame to plot (``count``, or e.g. ``fraction``).
        trust_region: optional ``(1-ε_low, 1+ε_high)`` band drawn with ``add_vrect``.

    A vertical line marks r = 1. Non-finite values are dropped.
    """
    algorithm_labels = dict(algorithm_labels or {})
    fig = go.Figure()
    binned = {"bin_left", "bin_right", value}.issubset(hist_df.columns)
    for algo in _algorithms_in(hist_df):
        style = _style_or_default(algo)
        name = algorithm_labels.get(algo, algo)
        part = hist_df[hist_df["algorithm"].astype(str) == algo]
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
    return base_layout(fig, title=title, height=360, x_title=x_title, y_title=y_title)


def token_weight_figure(
    df: pd.DataFrame,
    *,
    title: str | None = None,
    row_labels: Mapping[int, str] | None = None,
    weight_label: str = "∂loss/∂log π",
    advantage_label: str = "A",
    token_label: str = "token",
    x_title: str = "position",
    colorbar_title: str | None = None,
    zmax: float | None = None,
) -> go.Figure:
    """Heatmap of per-token gradient weights for one group of responses.

    Args:
        df: long frame, one row per real response token, with columns ``response`` (int),
            ``position`` (int), ``token`` (str), ``weight`` (float) and ``advantage`` (float).
        row_labels: response index -> y-axis label (e.g. "#0 ✓ A=+0.9"); default "#i".
        zmax: the colour scale spans [-zmax, zmax] (share it between figures to compare them);
            default: the largest |weight| in ``df``.

    Rows are responses, columns positions, the cell text is the token's characters; the colour
    scale is diverging and centred at 0 (purple: pushed down, orange: pushed up); padding cells
    stay empty. Hover shows token, weight and advantage.
    """
    fig = go.Figure()
    needed = {"response", "position", "token", "weight", "advantage"}
    if df.empty or not needed.issubset(df.columns):
        return base_layout(fig, title=title, height=240, x_title=x_title)
    data = df.copy()
    data["weight"] = pd.to_numeric(data["weight"], errors="coerce")
    data["advantage"] = pd.to_numeric(data["advantage"], errors="coerce")
    responses = sorted(int(r) for r in data["response"].unique())
    width = int(data["position"].max()) + 1
    z = np.full((len(responses), width), np.nan)
    text = np.full((len(responses), width), "", dtype=object)
    adv = np.full((len(responses), width), np.nan)
    row_of = {r: i for i, r in enumerate(responses)}
    for rec in data.itertuples(index=False):
        i, j = row_of[int(rec.response)], int(rec.position)
        z[i, j] = rec.weight
        text[i, j] = _visible(str(rec.token))
        adv[i, j] = rec.advantage
    if zmax is None or not (math.isfinite(zmax) and zmax > 0):
        finite = z[np.isfinite(z)]
        zmax = float(np.max(np.abs(finite))) if finite.size else 1.0
        zmax = zmax if zmax > 0 else 1.0
    labels = dict(row_labels or {})
    y = [labels.get(r, f"#{r}") for r in responses]
    # Plotly writes NaN as null, which a heatmap leaves blank; hover data uses "" for padding.
    z_list = [[None if not np.isfinite(v) else float(v) for v in row] for row in z]
    custom = [
        [[text[i, j], "" if not np.isfinite(adv[i, j]) else f"{adv[i, j]:+.3f}"] for j in range(width)]
        for i in range(len(responses))
    ]
    fig.add_trace(
        go.Heatmap(
            z=z_list,
            x=list(range(width)),
            y=y,
            text=text.tolist(),
            texttemplate="%{text}",
            textfont={"family": "DejaVu Sans Mono, Noto Sans Mono, monospace", "size": 14},
            customdata=custom,
            colorscale=DIVERGING_SCALE,
            zmid=0.0,
            zmin=-zmax,
            zmax=zmax,
            xgap=2,
            ygap=2,
            hoverongaps=False,
            colorbar={"title": {"text": colorbar_title or "−∂loss/∂log π", "side": "right"}, "thickness": 14},
            hovertemplate=(
                f"{token_label}: %{{customdata[0]}}<br>{weight_label}: %{{z:.3g}}"
                f"<br>{advantage_label}: %{{customdata[1]}}<extra>%{{y}}, {x_title} %{{x}}</extra>"
            ),
        )
    )
    base_layout(fig, title=title, height=max(220, 34 * len(responses) + 110), x_title=x_title)
    fig.update_yaxes(autorange="reversed", type="category")
    fig.update_xaxes(dtick=1, showgrid=False)
    return fig


def token_view_frame(view: Mapping | None, weight_key: str = "weight") -> pd.DataFrame:
    """A group's token view (``rlviz.experiments.live.LiveRun.token_view``) as the long frame
    :func:`token_weight_figure` takes: one row per response token with ``response, position, token,
    weight, advantage, reward, in_loss``.

    ``weight`` is the *push* on each token's log-probability, −∂loss/∂log π (positive: one
    gradient-descent step raises it), read from each row's ``weight_key`` (``"weight"``: after
    the step's updates; ``"weight_first"``: at its first, on-policy update). An empty frame for
    ``None`` (a step without an update).
    """
    columns = ["response", "position", "token", "weight", "advantage", "reward", "in_loss"]
    if not view:
        return pd.DataFrame(columns=columns)
    rows = []
    for i, row in enumerate(view.get("rows", [])):
        for j, (token, weight) in enumerate(zip(row["tokens"], row[weight_key])):
            rows.append(
                {
                    "response": i,
                    "position": j,
                    "token": token,
                    "weight": -float(weight) if weight is not None else math.nan,
                    "advantage": row["advantage"],
                    "reward": row["reward"],
                    "in_loss": row["in_loss"],
                }
            )
    return pd.DataFrame(rows, columns=columns)


def lineage_figure(
    parents: Mapping[str, str | None],
    titles: Mapping[str, str] | None = None,
    hover: Mapping[str, str] | None = None,
    *,
    height: int = 380,
) -> go.Figure:
    """The family tree of the algorithms: one box per algorithm, an arrow from parent to child.

    Args:
        parents: algorithm -> the algorithm it refines (``None`` for a root).
        titles: algorithm -> box label (default: the name).
        hover: algorithm -> hover text (e.g. the one-line summary).

    Columns are generations (distance from a root); boxes use the algorithm's colour.
    """
    titles = dict(titles or {})
    hover = dict(hover or {})
    names = [a for a in ALGORITHM_ORDER if a in parents] + sorted(a for a in parents if a not in ALGORITHM_ORDER)

    def depth(name: str, seen: tuple[str, ...] = ()) -> int:
        parent = parents.get(name)
        if parent is None or parent not in parents or name in seen:
            return 0
        return 1 + depth(parent, seen + (name,))

    levels: dict[int, list[str]] = {}
    for name in names:
        levels.setdefault(depth(name), []).append(name)
    tallest = max((len(v) for v in levels.values()), default=1)
    pos: dict[str, tuple[float, float]] = {}
    for level, members in levels.items():
        offset = (tallest - len(members)) / 2
        for k, name in enumerate(members):
            pos[name] = (float(level), -(k + offset))
    box_w, box_h = 0.62, 0.62
    fig = go.Figure()
    for name in names:
        x, y = pos[name]
        style = _style_or_default(name)
        dark = style["color"] not in (
            OKABE_ITO["yellow"],
            OKABE_ITO["sky_blue"],
            OKABE_ITO["orange"],
            OKABE_ITO["grey"],
            OKABE_ITO["reddish_purple"],
        )
        fig.add_shape(
            type="rect",
            x0=x - box_w / 2,
            x1=x + box_w / 2,
            y0=y - box_h / 2,
            y1=y + box_h / 2,
            fillcolor=style["color"],
            line={"color": "#333333", "width": 1},
            layer="below",
        )
        fig.add_annotation(
            x=x,
            y=y,
            text=f"<b>{titles.get(name, name)}</b>",
            showarrow=False,
            font={"color": "#ffffff" if dark else "#000000", "size": 14},
        )
        parent = parents.get(name)
        if parent in pos:
            px, py = pos[parent]
            fig.add_annotation(
                x=x - box_w / 2,
                y=y,
                ax=px + box_w / 2,
                ay=py,
                xref="x",
                yref="y",
                axref="x",
                ayref="y",
                showarrow=True,
                arrowhead=2,
                arrowsize=1.2,
                arrowwidth=1.5,
                arrowcolor="#555555",
                text="",
            )
    fig.add_trace(
        go.Scatter(
            x=[pos[n][0] for n in names],
            y=[pos[n][1] for n in names],
            mode="markers",
            marker={"size": 40, "opacity": 0},
            hovertext=[hover.get(n, titles.get(n, n)) for n in names],
            hoverinfo="text",
            showlegend=False,
        )
    )
    base_layout(fig, height=height)
    fig.update_xaxes(visible=False, range=[-0.5, max(levels, default=0) + 0.5])
    fig.update_yaxes(visible=False, range=[-(tallest - 1) - 0.5, 0.5])
    fig.update_layout(margin={"l": 10, "r": 10, "t": 10, "b": 10}, dragmode=False)
    return fig


def _visible(token: str) -> str:
    """Make whitespace and special tokens visible in a heatmap cell."""
    return {" ": "␣", "\n": "⏎", "\t": "⇥", "": "∅"}.get(token, token)
