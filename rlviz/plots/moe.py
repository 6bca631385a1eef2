"""Figures of the MoE routing page (plotly, no Streamlit).

Every builder takes frames of :mod:`rlviz.experiments.moe` and one ``labels`` mapping of
already-translated texts whose keys its docstring lists (a missing key shows the key itself; an
arm's legend name ``name.<arm>`` falls back to the registry title of an arm named after an
algorithm, else the arm's name). NaN / inf values are dropped, never drawn; an empty frame gives an
empty but valid figure.

The arms keep their objective's colour (``algorithm_style``): GRPO + R2 replay is GRPO's colour
dashed, GRPO + R3 GRPO's colour dotted, so a replay arm never looks like another algorithm.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.colors import sample_colorscale
from plotly.subplots import make_subplots

from rlviz.core.objectives import ALGORITHMS

from . import OKABE_ITO, _visible, algorithm_style, base_layout, style_or_default

__all__ = [
    "ARM_STYLES",
    "KIND_STYLES",
    "arm_metrics_figure",
    "arm_style",
    "legend_rows",
    "live_arms_figure",
    "log_ratio_figure",
    "route_change_figure",
    "routing_part",
    "token_strip_figure",
    "wrap_title",
]

# GRPO with replay: colours of their own (told apart at a glance, not by the dash alone), and a dash
# that marks them as variants of GRPO
ARM_STYLES: dict[str, dict[str, str]] = {
    "grpo": algorithm_style("grpo"),
    "grpo_r2": {"color": OKABE_ITO["vermillion"], "dash": "dash"},
    "grpo_r3": {"color": OKABE_ITO["reddish_purple"], "dash": "dot"},
    "gspo": algorithm_style("gspo"),
}
# the log-ratio distributions: own routing, old routing replayed, GSPO's sequence log-ratio, and
# their routing-only difference (own - replay)
KIND_STYLES: dict[str, dict[str, str]] = {
    "token_own": {"color": OKABE_ITO["vermillion"], "dash": "solid"},
    "token_replay": {"color": OKABE_ITO["blue"], "dash": "dash"},
    "sequence": {"color": algorithm_style("gspo")["color"], "dash": "dot"},
    "routing": {"color": OKABE_ITO["black"], "dash": "solid"},
}
BINS = 51
# the layers' lines: Okabe-Ito without black (the mean over layers) and vermillion (the article's line)
LAYER_COLOURS = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#999933", "#882255", "#332288")


def arm_style(arm: str) -> dict[str, str]:
    """The colour and dash of an arm: :data:`ARM_STYLES`, else its registry style (grey if none)."""
    return dict(ARM_STYLES.get(arm) or style_or_default(arm))


def _l(labels: Mapping[str, str], key: str) -> str:
    return labels.get(key, key)


def _name(labels: Mapping[str, str], arm: str) -> str:
    return labels.get(f"name.{arm}", ALGORITHMS[arm].title if arm in ALGORITHMS else arm)


def _finite(values) -> np.ndarray:
    a = pd.to_numeric(pd.Series(values, dtype=object), errors="coerce").to_numpy(dtype=float)
    return a[np.isfinite(a)]


def _arms_in(df: pd.DataFrame) -> list[str]:
    """Arms of ``df`` in the order of :data:`ARM_STYLES`, others after them in order of appearance."""
    if df.empty or "arm" not in df.columns:
        return []
    present = list(dict.fromkeys(df["arm"].astype(str)))
    return [a for a in ARM_STYLES if a in present] + [a for a in present if a not in ARM_STYLES]


def _whole_ticks(fig: go.Figure, last: int, **where) -> None:
    """Ticks at 1, 2, ... (every k-th for long runs), never 1.5."""
    fig.update_xaxes(tick0=1, dtick=max(1, math.ceil(max(last, 1) / 10)), **where)


# -------------------------------------------------------------------------------- route change


def route_change_figure(
    df: pd.DataFrame, labels: Mapping[str, str], *, article: float | None = None, height: int = 380
) -> go.Figure:
    """Share of routes whose expert set changed, per layer, after each update; the mean over layers
    as a thick black line; a dashed line at the article's share.

    Args:
        df: ``RoutingShiftResult.route_change`` (``update, layer, share``).
        labels: ``update`` (the x axis title, also in the hover), ``share`` (the y axis title, also
            in the hover), ``all_layers`` (the mean line's legend name), ``article`` (the dashed
            line's note); optionally ``layer.<i>``, layer i's legend name (a missing one: ``L<i>``).
        article: the article's share (e.g. ``rlviz.experiments.moe.ARTICLE_ROUTE_CHANGE``); no
            line when ``None``.
    """
    x_title, y_title = _l(labels, "update"), _l(labels, "share")
    fig = go.Figure()
    data = df.copy() if not df.empty else pd.DataFrame(columns=["update", "layer", "share"])
    for col in ("update", "layer", "share"):
        data[col] = pd.to_numeric(data[col], errors="coerce")
    data = data[np.isfinite(data[["update", "layer", "share"]].to_numpy(dtype=float)).all(axis=1)]
    layers = sorted(int(v) for v in data["layer"].unique())
    dashes = ("dot", "dashdot", "dash", "longdash")
    last = int(data["update"].max()) if len(data) else 1
    for i, layer in enumerate(layers):
        part = data[data["layer"] == layer].sort_values("update")
        name = labels.get(f"layer.{layer}", f"L{layer}")
        colour = LAYER_COLOURS[i % len(LAYER_COLOURS)]
        fig.add_trace(
            go.Scatter(
                x=part["update"].astype(int).tolist(),
                y=part["share"].astype(float).tolist(),
                mode="lines+markers",
                name=name,
                line={"color": colour, "dash": dashes[i % len(dashes)], "width": 2},
                marker={"size": 6, "color": colour},
                hovertemplate=f"{name}<br>{x_title} %{{x}}<br>{y_title}: %{{y:.1%}}<extra></extra>",
            )
        )
    if layers:
        mean = data.groupby("update", as_index=False)["share"].mean().sort_values("update")
        name = _l(labels, "all_layers")
        fig.add_trace(
            go.Scatter(
                x=mean["update"].astype(int).tolist(),
                y=mean["share"].astype(float).tolist(),
                mode="lines+markers",
                name=name,
                line={"color": OKABE_ITO["black"], "width": 3.5},
                marker={"size": 8, "color": OKABE_ITO["black"]},
                hovertemplate=f"{name}<br>{x_title} %{{x}}<br>{y_title}: %{{y:.1%}}<extra></extra>",
            )
        )
    top = float(data["share"].max()) if len(data) else 0.0
    if article is not None and math.isfinite(article):
        # a legend entry, not a note on the plot: it never sits on a line
        name = _l(labels, "article")
        fig.add_trace(
            go.Scatter(
                x=[0.7, last + 0.3],
                y=[article, article],
                mode="lines",
                name=name,
                line={"color": OKABE_ITO["vermillion"], "dash": "dash", "width": 2},
                hovertemplate=f"{name}<extra></extra>",
            )
        )
        top = max(top, article)
    base_layout(fig, height=height, x_title=x_title, y_title=y_title)
    fig.update_yaxes(tickformat=".0%", range=[0, max(top * 1.15, 0.02)])
    _whole_ticks(fig, last)
    fig.update_xaxes(range=[0.7, last + 0.3])
    return fig


# -------------------------------------------------------------------------------- log-ratios


# a legend above the panels gets as many rows as it takes in the narrowest figure a page shows (a 1024 px
# window with the sidebar open: about 480 px of plot), so it never covers the panel titles under it
LEGEND_FIT_PX = 480
LEGEND_ROW_PX = 24
TITLE_LINE_PX = 17  # one line of a 13 px panel title


def text_px(text: str) -> float:
    """About how wide ``text`` is at 13 px: 7 px a Latin character, 13 px a CJK one."""
    return sum(13 if ord(c) >= 0x2E80 else 7 for c in str(text))


def legend_rows(names: Sequence[str], width: float = LEGEND_FIT_PX) -> int:
    """How many rows plotly gives a horizontal legend of ``names`` in ``width`` px: once it wraps, every
    entry takes the widest one's width (swatch and gap 40 px, then its text), so a row holds
    ``width // widest`` of them."""
    if not names:
        return 0
    widest = max(40 + text_px(name) for name in names)
    if sum(40 + text_px(name) for name in names) <= width:
        return 1
    per_row = max(1, int(width // widest))
    return math.ceil(len(names) / per_row)


def wrap_title(text: str, width: float) -> str:
    """``text`` broken with ``<br>`` into lines of at most about ``width`` px: between words, and between
    any two characters of Chinese (a word longer than a line stays whole on its own line)."""
    units = re.findall(r"[\u2e80-\u9fff\uff00-\uffef]|[^\s\u2e80-\u9fff\uff00-\uffef]+|\s+", str(text))
    lines, line = [], ""
    for unit in units:
        if unit.isspace():
            line += " " if line else ""
            continue
        if line and text_px(line + unit) > width:
            lines.append(line.rstrip())
            line = ""
        line += unit
    lines.append(line.rstrip())
    return "<br>".join(x for x in lines if x)


def _legend_under_title(fig: go.Figure, title: str | None, names: Sequence[str], height: int) -> None:
    """The common look (``base_layout`` at ``height``), then from the top: ``title`` (if any), the legend
    of ``names`` in as many rows as it takes in a 1024 px window (:func:`legend_rows`), the panel titles.
    The top margin holds them all, so none of them overlaps another at any width down to 1024 px."""
    base_layout(fig, height=height)
    head = 34 if title else 4  # the title's line
    rows = legend_rows(names)
    fig.update_layout(
        legend={"yref": "container", "y": 1 - head / height, "yanchor": "top"},
        margin={"t": head + rows * LEGEND_ROW_PX + 30},
    )
    if title:
        fig.update_layout(
            title={
                "text": title,
                "x": 0.0,
                "xanchor": "left",
                "yref": "container",
                "y": 1.0,
                "yanchor": "top",
                "pad": {"t": 8},
                "font": {"size": 15},
            }
        )


def routing_part(log_ratios: pd.DataFrame, update: int) -> np.ndarray:
    """Per response token after ``update``: own-routing log-ratio minus old-routing log-ratio (the same
    weights, so the difference is routing alone). Empty when the frame has no replay rows (the dense
    model). The two kinds list the same tokens in the same order (``routing_shift``)."""
    if log_ratios.empty:
        return np.array([])
    at = log_ratios[log_ratios["update"] == update]
    own = at.loc[at["kind"] == "token_own", "value"].to_numpy(dtype=float)
    rep = at.loc[at["kind"] == "token_replay", "value"].to_numpy(dtype=float)
    if len(own) != len(rep) or not len(rep):
        return np.array([])
    return own - rep


def _span(values: Sequence[np.ndarray]) -> tuple[float, float]:
    """The bins' range: the middle 95% of all values (2.5th to 97.5th percentile), widened to hold 0
    and at least 0.02 wide; the rest land in the end bins (a few collapsed tokens, log-ratio -15, would
    otherwise squeeze every other token into one bar)."""
    both = np.concatenate([v for v in values if len(v)]) if any(len(v) for v in values) else np.array([])
    if not len(both):
        return -0.01, 0.01
    lo, hi = (float(q) for q in np.quantile(both, [0.025, 0.975]))
    lo, hi = min(lo, 0.0), max(hi, 0.0)
    if hi - lo < 0.02:
        mid = (hi + lo) / 2
        lo, hi = mid - 0.01, mid + 0.01
    return lo, hi


def _histogram_trace(values: np.ndarray, span: tuple[float, float], name: str, style: Mapping[str, str], share: str):
    lo, hi = span
    edges = np.linspace(lo, hi, BINS + 1)
    counts, _ = np.histogram(np.clip(values, lo, hi), bins=edges)
    fraction = counts / max(len(values), 1)
    centres = (edges[:-1] + edges[1:]) / 2
    return go.Scatter(
        x=centres.tolist(),
        y=fraction.tolist(),
        mode="lines",
        name=name,
        line={"color": style["color"], "dash": style["dash"], "shape": "hvh", "width": 2.2},
        customdata=np.stack([edges[:-1], edges[1:]], axis=1).tolist(),
        hovertemplate=f"{name}<br>[%{{customdata[0]:.3g}}, %{{customdata[1]:.3g}}): {share} %{{y:.1%}}<extra></extra>",
    )


def log_ratio_figure(
    log_ratios: pd.DataFrame,
    update: int,
    labels: Mapping[str, str],
    *,
    height: int = 400,
    kinds: Sequence[str] = ("token_own", "token_replay", "sequence"),
    routing: bool = True,
) -> go.Figure:
    """Distributions after ``update``: the token log-ratio log(π/π_old) with the policy's own routing
    and with the old routing replayed, and GSPO's sequence log-ratio log s; beside them (when the
    frame has replay rows) the routing-only part, own minus replay, token by token.

    Shares per bin (each kind sums to 1) on bins shared by the kinds, spanning the middle 95% of their
    values (and 0); the rest fall into the end bins. Each legend name ends with the kind's standard deviation.
    With ``labels["title"]`` the figure carries that title, the legend under it (as many rows as its
    names take in a 1024 px window, :func:`rlviz.plots.weighting.legend_rows`), then the panel titles.

    Args:
        log_ratios: ``RoutingShiftResult.log_ratios`` (``update, kind, value``).
        update: which update's values to show.
        labels: ``kind.token_own``, ``kind.token_replay``, ``kind.sequence``, ``kind.routing`` (the
            legend names), ``log_ratio`` (the left x axis title), ``routing_axis`` (the right x
            axis title), ``share`` (the y axis title, also in the hover), ``panel.ratios`` /
            ``panel.routing`` (the panel titles); optionally ``title`` (the figure's title).
        kinds: the distributions drawn (a page holds back those that answer a question still open).
        routing: whether the routing-only panel is drawn (when the frame has replay rows).
    """
    share = _l(labels, "share")
    at = log_ratios[log_ratios["update"] == update] if not log_ratios.empty else log_ratios
    kinds = [
        k for k in ("token_own", "token_replay", "sequence") if k in kinds and not at.empty and (at["kind"] == k).any()
    ]
    values = {k: _finite(at.loc[at["kind"] == k, "value"]) for k in kinds}
    routing_values = routing_part(log_ratios, update) if routing else np.array([])
    routing_values = routing_values[np.isfinite(routing_values)]
    two = len(routing_values) > 0
    if two:
        titles = [_l(labels, "panel.ratios"), _l(labels, "panel.routing")]
        fig = make_subplots(rows=1, cols=2, column_widths=[0.6, 0.4], subplot_titles=titles, horizontal_spacing=0.1)
    else:
        fig = make_subplots(rows=1, cols=1, subplot_titles=[_l(labels, "panel.ratios")])
    span = _span(list(values.values()))
    names = []
    for k in kinds:
        if not len(values[k]):
            continue
        name = f"{_l(labels, f'kind.{k}')} · σ = {float(np.std(values[k])):.3g}"
        names.append(name)
        fig.add_trace(_histogram_trace(values[k], span, name, KIND_STYLES[k], share), row=1, col=1)
    if two:
        name = f"{_l(labels, 'kind.routing')} · σ = {float(np.std(routing_values)):.3g}"
        names.append(name)
        fig.add_trace(
            _histogram_trace(routing_values, _span([routing_values]), name, KIND_STYLES["routing"], share), row=1, col=2
        )
    _legend_under_title(fig, labels.get("title"), names, height)
    fig.update_layout(showlegend=True)  # named even when one distribution is drawn: its σ is in the name
    fig.update_xaxes(title_text=_l(labels, "log_ratio"), row=1, col=1)
    fig.update_yaxes(title_text=share, tickformat=".0%", rangemode="tozero", row=1, col=1)
    if two:
        fig.update_xaxes(title_text=_l(labels, "routing_axis"), row=1, col=2)
        fig.update_yaxes(tickformat=".0%", rangemode="tozero", row=1, col=2)
    for col in (1, 2) if two else (1,):
        fig.add_vline(x=0.0, line={"color": "#555555", "dash": "dot", "width": 1}, row=1, col=col)
    fig.update_annotations(font={"size": 13})
    return fig


# -------------------------------------------------------------------------------- arms over time


def arm_metrics_figure(
    df: pd.DataFrame,
    metrics: Sequence[str],
    labels: Mapping[str, str],
    *,
    x: str = "update",
    cols: int = 2,
    panel_height: int = 230,
    styles: Mapping[str, Mapping[str, str]] | None = None,
) -> go.Figure:
    """Small multiples, one panel per metric, one line per arm (:func:`arm_style`); steps where the
    frame's ``collapse`` column is true are marked with a red ✕ on every panel.

    Args:
        df: long frame with columns ``arm``, ``x`` and the metrics (``RoutingShiftResult.arms`` with
            ``x="update"``, ``MoeLiveRun.metrics_frame()`` with ``x="step"``); an optional bool
            ``collapse`` column.
        metrics: metric columns, one panel each, in order (a missing column gives an empty panel).
        labels: ``<metric>`` for each of ``metrics`` (the panel titles, also in the hover), ``x``'s
            own key (``update`` or ``step``: the x axis title, also in the hover), ``collapse``
            (the marks' legend name); optionally ``name.<arm>`` (an arm's legend name).
        x: the x column.
        cols: panels per row.
        panel_height: pixels per row of panels.
        styles: ``{arm: {"color", "dash"}}`` for arms of another page (their order is the
            mapping's); ``None``: :data:`ARM_STYLES` and the registry's.
    """
    x_title = _l(labels, x)
    metrics = list(metrics)
    n = max(len(metrics), 1)
    cols = max(1, min(cols, n))
    rows = math.ceil(n / cols)
    fig = make_subplots(
        rows=rows,
        cols=cols,
        shared_xaxes=True,
        # each title in lines that fit its panel in a 1024 px window (the plot about LEGEND_FIT_PX wide)
        subplot_titles=[wrap_title(_l(labels, m), LEGEND_FIT_PX / cols - 20) for m in metrics] or None,
        vertical_spacing=min(0.14, 0.4 / rows) if rows > 1 else 0.0,
        horizontal_spacing=0.09,
    )
    arms = _arms_in(df) if x in df.columns else []
    if styles is not None:
        arms = [a for a in styles if a in arms] + [a for a in arms if a not in styles]
    collapse_shown, in_legend = False, set()
    for i, metric in enumerate(metrics):
        row, col = divmod(i, cols)
        if metric not in df.columns:
            continue
        values = _finite(df[metric])
        if len(values) and values.min() >= 0:  # a share or a variance: no axis below 0 (all 0 -> [0, 1])
            fig.update_yaxes(rangemode="nonnegative", row=row + 1, col=col + 1)
        for arm in arms:
            part = df.loc[df["arm"].astype(str) == arm].copy()
            part["_x"] = pd.to_numeric(part[x], errors="coerce")
            part["_y"] = pd.to_numeric(part[metric], errors="coerce")
            part = part[np.isfinite(part["_x"].astype(float)) & np.isfinite(part["_y"].astype(float))]
            if part.empty:
                continue
            part = part.sort_values("_x")
            style = dict(styles[arm]) if styles is not None and arm in styles else arm_style(arm)
            name = _name(labels, arm)
            fig.add_trace(
                go.Scatter(
                    x=part["_x"].tolist(),
                    y=part["_y"].astype(float).tolist(),
                    mode="lines+markers" if len(part) < 40 else "lines",
                    name=name,
                    legendgroup=arm,
                    showlegend=arm not in in_legend,
                    line={"color": style["color"], "dash": style["dash"], "width": 2},
                    marker={"size": 5, "color": style["color"]},
                    hovertemplate=f"{name}<br>{x_title} %{{x}}<br>{_l(labels, metric)}: %{{y:.4g}}<extra></extra>",
                ),
                row=row + 1,
                col=col + 1,
            )
            in_legend.add(arm)
            if "collapse" in part.columns:
                flagged = part[part["collapse"].astype(bool)]
                if len(flagged):
                    label = _l(labels, "collapse")
                    fig.add_trace(
                        go.Scatter(
                            x=flagged["_x"].tolist(),
                            y=flagged["_y"].astype(float).tolist(),
                            mode="markers",
                            name=label,
                            legendgroup="collapse",
                            legendrank=2000,  # after every arm (default 1000)
                            showlegend=not collapse_shown,
                            marker={"symbol": "x", "size": 11, "color": OKABE_ITO["vermillion"]},
                            hovertemplate=f"{label}<br>{name}<br>{x_title} %{{x}}<extra></extra>",
                        ),
                        row=row + 1,
                        col=col + 1,
                    )
                    collapse_shown = True
    # from the top: the legend in as many rows as it takes at 1024 px, then the first row's panel titles
    lines = max((a.text.count("<br>") + 1 for a in fig.layout.annotations[:cols]), default=1)
    top = max(
        80,
        8
        + legend_rows([t.name for t in fig.data if t.showlegend is not False]) * LEGEND_ROW_PX
        + lines * TITLE_LINE_PX
        + 12,
    )
    base_layout(fig, height=max(280, panel_height * rows + 110) + top - 80)
    fig.update_layout(legend={"yref": "container", "y": 1.0, "yanchor": "top"}, margin={"t": top})
    last = int(pd.to_numeric(df[x], errors="coerce").max()) if x in df.columns and len(df) else 1
    for c in range(cols):
        last_row = max(r for r in range(rows) if r * cols + c < n) if n > c else rows - 1
        fig.update_xaxes(title_text=x_title, row=last_row + 1, col=c + 1, showticklabels=True)
    _whole_ticks(fig, last)
    fig.update_annotations(font={"size": 13})
    return fig


def live_arms_figure(
    df: pd.DataFrame,
    metrics: Sequence[str],
    labels: Mapping[str, str],
    *,
    steps: int | None = None,
    smooth: int | None = None,
    styles: Mapping[str, Mapping[str, str]] | None = None,
    cols: int = 3,
    panel_height: int = 190,
) -> go.Figure:
    """A side-by-side run's curves as the live page draws them (:func:`rlviz.plots.live.live_metrics_figure`:
    one panel per metric, each arm's per-step points faded under their moving average, the x axes
    spanning the run's ``steps`` from the start, empty panels and ``labels["empty"]`` before the first
    point), in the arms' own styles, with the steps the frame's ``collapse`` column flags marked by a
    red ✕ on every panel.

    Args:
        df: ``SideBySideRun.metrics_frame()`` (``arm``, ``step``, the metrics, an optional bool
            ``collapse``); an empty frame gives the empty panels.
        metrics: metric columns, one panel each, in order.
        labels: ``<metric>`` (panel titles), ``step`` (the x axis title), ``collapse`` (the marks'
            legend name), ``name.<arm>`` (legend names), ``smoothed`` (the hover's word for an
            averaged point), ``empty`` (the title while no panel has a point).
        steps: the run's length (the x axes' span); ``None``: the axes follow the points.
        smooth: the moving average's span in steps (:data:`rlviz.plots.live.SMOOTH_SPAN`); ``None``: raw lines.
        styles: ``{arm: {"color", "dash"}}`` in legend order (``None``: :data:`ARM_STYLES`, then the
            registry's style of an arm named after an algorithm).
        cols, panel_height: panels per row, pixels per row of panels.
    """
    from rlviz.plots.live import live_metrics_figure

    styles = dict(styles if styles is not None else ARM_STYLES)
    fig = live_metrics_figure(
        df, metrics, labels, cols=cols, panel_height=panel_height, by="arm", smooth=smooth, steps=steps
    )
    order = list(styles)
    for trace in fig.data:
        arm = trace.legendgroup
        if not arm:
            continue  # an empty panel's placeholder
        style = styles.get(arm) or arm_style(arm)
        trace.marker.color = style["color"]
        if trace.mode == "lines" or (trace.mode or "").startswith("lines"):
            trace.line.color, trace.line.dash = style["color"], style["dash"]
        trace.legendrank = 1 + (order.index(arm) if arm in order else len(order))
    if "collapse" in df.columns and "step" in df.columns and len(df):
        flagged = df[df["collapse"].fillna(False).astype(bool)]
        label, x_title = _l(labels, "collapse"), _l(labels, "step")
        shown = False
        for i, metric in enumerate(metrics):
            if metric not in flagged.columns or flagged.empty:
                continue
            x = pd.to_numeric(flagged["step"], errors="coerce")
            y = pd.to_numeric(flagged[metric], errors="coerce")
            ok = np.isfinite(x.to_numpy(dtype=float)) & np.isfinite(y.to_numpy(dtype=float))
            if not ok.any():
                continue
            fig.add_trace(
                go.Scatter(
                    x=x[ok].tolist(),
                    y=y[ok].astype(float).tolist(),
                    mode="markers",
                    name=label,
                    legendgroup="collapse",
                    legendrank=2000,  # after every arm
                    showlegend=not shown,
                    marker={"symbol": "x", "size": 11, "color": OKABE_ITO["vermillion"]},
                    customdata=[_name(labels, a) for a in flagged["arm"][ok]],
                    hovertemplate=f"{label}<br>%{{customdata}}<br>{x_title} %{{x}}<extra></extra>",
                    xaxis="x" if i == 0 else f"x{i + 1}",
                    yaxis="y" if i == 0 else f"y{i + 1}",
                )
            )
            shown = True
    return fig


# -------------------------------------------------------------------------------- one response


def token_strip_figure(token: Mapping, layers: int, labels: Mapping[str, str], *, height: int = 190) -> go.Figure:
    """One response as a strip of cells, each token coloured by how many layers routed it to another
    expert set after the updates (0 … ``layers``); the hover gives its log-ratio with its own
    routing, with the old routing replayed, and their difference.

    Args:
        token: ``RoutingShiftResult.token`` (``tokens``, ``layers_changed``, ``log_ratio_own``,
            ``log_ratio_replay``); an empty figure when ``layers_changed`` is ``None`` (dense).
        layers: the number of MoE layers (the colour scale's top).
        labels: ``token``, ``layers_changed`` (the colour bar's title, also in the hover),
            ``own``, ``replay``, ``routing`` (the hover's words for the two log-ratios and their
            difference), ``position`` (the x axis title).
    """
    x_title = _l(labels, "position")
    fig = go.Figure()
    changed = token.get("layers_changed") if token else None
    if not changed:
        return base_layout(fig, height=height, x_title=x_title)
    tokens = list(token.get("tokens", []))[: len(changed)]
    own = list(token.get("log_ratio_own") or [])
    rep = list(token.get("log_ratio_replay") or [])
    n = len(tokens)

    def fmt(v) -> str:
        return f"{v:+.3f}" if v is not None and math.isfinite(v) else "—"

    custom = [
        [
            _visible(tokens[j]),
            fmt(own[j] if j < len(own) else None),
            fmt(rep[j] if j < len(rep) else None),
            fmt(own[j] - rep[j] if j < len(own) and j < len(rep) else None),
        ]
        for j in range(n)
    ]
    top = max(int(layers), 1)
    # one colour per whole number of layers: white (no layer changed) to dark red (all layers)
    steps = sample_colorscale("Reds", [0.05 + 0.9 * i / top for i in range(top + 1)])
    scale = []
    for i, c in enumerate(steps):
        scale += [[i / (top + 1), c], [(i + 1) / (top + 1), c]]
    z = [[float(v) if v is not None and math.isfinite(v) else 0.0 for v in changed[:n]]]
    fig.add_trace(
        go.Heatmap(
            z=z,
            x=list(range(n)),
            y=[""],
            text=[[c[0] for c in custom]],
            texttemplate="%{text}",
            textfont={"family": "DejaVu Sans Mono, Noto Sans Mono, monospace", "size": 15},
            customdata=[custom],
            colorscale=scale,
            zmin=-0.5,
            zmax=top + 0.5,
            xgap=2,
            colorbar={
                "title": {"text": _l(labels, "layers_changed"), "side": "right"},
                "tickvals": list(range(top + 1)),
                "thickness": 14,
            },
            hovertemplate=(
                f"{_l(labels, 'token')}: %{{customdata[0]}}<br>{_l(labels, 'layers_changed')}: %{{z}}"
                f"<br>{_l(labels, 'own')}: %{{customdata[1]}}<br>{_l(labels, 'replay')}: %{{customdata[2]}}"
                f"<br>{_l(labels, 'routing')}: %{{customdata[3]}}<extra>{x_title} %{{x}}</extra>"
            ),
        )
    )
    base_layout(fig, height=height, x_title=x_title)
    fig.update_xaxes(dtick=1, showgrid=False)
    fig.update_yaxes(showticklabels=False, showgrid=False)
    fig.update_layout(margin={"t": 20})
    return fig
