"""Figures of the "gradient scale and the learning rate" page (``rlviz.experiments.gradscale``): one bar per
registry objective (its gradient norm on the same batch), and the size of the first update against the
loss's scale c, under AdamW and SGD, with clipping on and off.

Every builder takes a frame of ``rlviz.experiments.gradscale`` and a ``labels`` mapping of already translated
texts; no Streamlit, no i18n. Colours of the objectives are the registry's (``algorithm_style``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from . import OKABE_ITO, base_layout, style_or_default

__all__ = ["BAR_PX", "OPTIMIZER_STYLES", "norms_figure", "scale_figure"]

BAR_PX = 17  # height of one objective's bar
VALUE_PX = 52  # the right margin that holds the bars' values ("0.000123" at 11 px)
# the optimizers' colours (not objectives': Okabe-Ito blue and vermillion) and clipping's dash
OPTIMIZER_STYLES = {"adamw": OKABE_ITO["blue"], "sgd": OKABE_ITO["vermillion"]}
CLIP_DASH = {True: "solid", False: "dash"}


def _l(labels: Mapping[str, str], key: str) -> str:
    return labels.get(key, key)


def _log_range(values, low_pad: float = 0.6, high_pad: float = 2.8) -> list[float]:
    """A log axis' range (log10 units) around the positive finite ``values``, with room for outside labels."""
    finite = [v for v in values if math.isfinite(v) and v > 0]
    if not finite:
        return [-1.0, 1.0]
    return [math.log10(min(finite) * low_pad), math.log10(max(finite) * high_pad)]


def norms_figure(
    frame: pd.DataFrame,
    labels: Mapping[str, str],
    *,
    column: str = "grad_norm",
    first: bool = False,
    clip: float | None = None,
    title: str | None = None,
) -> go.Figure:
    """One horizontal bar per objective (registry order, top to bottom): ``frame[column]`` on a log axis,
    in the objective's colour, its value written on its row in a column right of the plot (annotations in
    the right margin, so no mark or line inside the plot covers it).

    Args:
        frame: ``rlviz.experiments.gradscale.gradient_norms``: ``objective``, ``title``, ``loss_agg_mode``,
            ``advantage``, ``grad_norm`` (and ``grad_norm_second``, ``clip_fraction_second``).
        labels: ``axis`` (the x title), ``clip_line`` (the max_grad_norm line's words), ``first`` (the
            marker of the first update's norm), ``h.agg``, ``h.adv``, ``h.norm``, ``h.clip`` (hover words),
            ``adv.<rule>`` (an advantage rule's words).
        first: also mark each objective's first-update norm (``grad_norm``) on its bar (the second update's view).
        clip: draw a dotted line at this max gradient norm.
    """
    fig = go.Figure()
    if frame.empty or column not in frame.columns:
        return base_layout(fig, title=title, height=200, x_title=_l(labels, "axis"))
    values = pd.to_numeric(frame[column], errors="coerce").to_numpy(dtype=float)
    every = list(frame["title"])  # the rows, in registry order (a zero norm has no bar on a log axis)
    ok = np.isfinite(values) & (values > 0)
    data = frame[ok]
    values = values[ok]
    titles = list(data["title"])
    colors = [style_or_default(n)["color"] for n in data["objective"]]
    adv = [_l(labels, f"adv.{a}") for a in data["advantage"]]
    custom = [[m, a] for m, a in zip(data["loss_agg_mode"], adv)]
    hover = (
        f"<b>%{{y}}</b><br>{_l(labels, 'h.norm')}: %{{x:.4g}}<br>{_l(labels, 'h.agg')}: %{{customdata[0]}}"
        f"<br>{_l(labels, 'h.adv')}: %{{customdata[1]}}"
    )
    if "clip_fraction_second" in data.columns and first:
        custom = [c + [f"{x:.0%}" if math.isfinite(x) else "—"] for c, x in zip(custom, data["clip_fraction_second"])]
        hover += f"<br>{_l(labels, 'h.clip')}: %{{customdata[2]}}"
    fig.add_trace(
        go.Bar(
            x=values,
            y=titles,
            orientation="h",
            marker={"color": colors, "line": {"width": 0}},
            customdata=custom,
            hovertemplate=hover + "<extra></extra>",
            showlegend=False,
            name=_l(labels, "h.norm"),
        )
    )
    shown = list(values)
    if first and "grad_norm" in data.columns:
        before = pd.to_numeric(data["grad_norm"], errors="coerce").to_numpy(dtype=float)
        fig.add_trace(
            go.Scatter(
                x=before,
                y=titles,
                mode="markers",
                marker={
                    "symbol": "line-ns-open",
                    "size": 10,
                    "color": "#222222",
                    "line": {"width": 2.5, "color": "#222222"},
                },
                name=_l(labels, "first"),
                hovertemplate=f"{_l(labels, 'first')}: %{{x:.4g}}<extra></extra>",
            )
        )
        shown += [v for v in before if math.isfinite(v)]
    if clip is not None and math.isfinite(clip) and clip > 0:
        fig.add_vline(x=clip, line={"dash": "dot", "color": "#555555", "width": 1.5}, layer="below")
        fig.add_annotation(  # placed by hand: a vline's own annotation lands at 10**x on a log axis
            x=math.log10(clip),
            y=1.0,
            xref="x",
            yref="paper",
            text=_l(labels, "clip_line"),
            showarrow=False,
            yanchor="bottom",
            font={"size": 11, "color": "#555555"},
        )
        shown.append(clip)
    # each bar's value in a column of its own right of the plot: never under the first update's mark, the
    # max_grad_norm line or another bar, wherever the bar ends
    for row, v in zip(titles, values):
        fig.add_annotation(
            x=1.0,
            xref="paper",
            xanchor="left",
            xshift=4,
            y=row,
            yref="y",
            text=f"{v:.3g}",
            showarrow=False,
            font={"size": 11},
        )
    base_layout(fig, title=title, height=max(240, BAR_PX * len(every) + 95), x_title=_l(labels, "axis"))
    fig.update_layout(margin={"l": 10, "r": VALUE_PX, "t": 62 if title else 36, "b": 45}, bargap=0.25)
    fig.update_yaxes(  # every row named (plotly would skip labels on a crowded category axis)
        autorange="reversed",
        type="category",
        categoryorder="array",
        categoryarray=every,
        tickmode="array",
        tickvals=every,
        automargin=True,
    )
    # the one legend entry (the first update's mark) at the top right, clear of the clip line's words
    fig.update_layout(legend={"x": 1.0, "xanchor": "right", "y": 1.0, "yanchor": "bottom"})
    span = _log_range(shown)
    ticks = [m * 10.0**e for e in range(math.floor(span[0]), math.ceil(span[1]) + 1) for m in (1, 2, 5)]
    ticks = [v for v in ticks if span[0] <= math.log10(v) <= span[1]]  # 1-2-5 steps: a few labels, any range
    fig.update_xaxes(type="log", range=span, tickvals=ticks, ticktext=[f"{v:g}" for v in ticks])
    return fig


def scale_figure(
    sweep: pd.DataFrame,
    labels: Mapping[str, str],
    *,
    marker: float | None = None,
    title: str | None = None,
) -> go.Figure:
    """Two panels sharing a log x axis of c: ``delta_theta`` (||delta theta||, with Adam's lr x sqrt(n) as a
    grey dotted line) and ``delta_log_prob`` (mean |delta log pi|), both on log y axes; one line per
    (optimizer, clip): the optimizer's colour, solid with clipping on, dashed off.

    Args:
        sweep: ``rlviz.experiments.gradscale.scale_sweep``.
        labels: ``panel.theta``, ``panel.logp`` (panel titles), ``axis.c``, ``axis.theta``, ``axis.logp``,
            ``series.<optimizer>.<on|off>`` (line names), ``reference`` (lr x sqrt(n)), ``marker`` (the
            chosen c's words).
        marker: draw a vertical line at this c.
    """
    fig = make_subplots(
        rows=1,
        cols=2,
        subplot_titles=(_l(labels, "panel.theta"), _l(labels, "panel.logp")),
        horizontal_spacing=0.12,
    )
    if sweep.empty:
        return base_layout(fig, title=title, height=360)
    for optimizer in dict.fromkeys(sweep["optimizer"]):
        for clip in (True, False):
            part = sweep[(sweep["optimizer"] == optimizer) & (sweep["clip"] == clip)].sort_values("scale")
            if part.empty:
                continue
            name = _l(labels, f"series.{optimizer}.{'on' if clip else 'off'}")
            line = {"color": OPTIMIZER_STYLES.get(optimizer, OKABE_ITO["grey"]), "dash": CLIP_DASH[clip], "width": 2.2}
            for col, y in ((1, "delta_theta"), (2, "delta_log_prob")):
                values = pd.to_numeric(part[y], errors="coerce")
                keep = np.isfinite(values) & (values > 0)
                fig.add_trace(
                    go.Scatter(
                        x=part["scale"][keep],
                        y=values[keep],
                        mode="lines+markers",
                        line=line,
                        marker={"size": 6},
                        name=name,
                        legendgroup=name,
                        showlegend=col == 1,
                        hovertemplate=f"{name}<br>c = %{{x:g}}<br>%{{y:.4g}}<extra></extra>",
                    ),
                    row=1,
                    col=col,
                )
    ref = pd.to_numeric(sweep["adam_reference"], errors="coerce")
    if (ref > 0).any():
        xs = sorted(sweep["scale"].unique())
        level = float(ref.max())
        fig.add_trace(
            go.Scatter(
                x=[xs[0], xs[-1]],
                y=[level, level],
                mode="lines",
                line={"color": "#777777", "dash": "dot", "width": 1.5},
                name=_l(labels, "reference"),
                hovertemplate=f"{_l(labels, 'reference')} = %{{y:.4g}}<extra></extra>",
            ),
            row=1,
            col=1,
        )
    if marker is not None and math.isfinite(marker) and marker > 0:
        for col in (1, 2):
            fig.add_vline(x=marker, line={"color": "#444444", "width": 1, "dash": "dot"}, row=1, col=col)
        for axis in ("x", "x2"):  # inside each panel, at its foot (the panel titles stand above)
            fig.add_annotation(
                x=math.log10(marker),
                y=0.0,
                xref=axis,
                yref="paper",
                text=_l(labels, "marker"),
                showarrow=False,
                xanchor="left",
                yanchor="bottom",
                xshift=3,
                font={"size": 11, "color": "#444444"},
            )
    base_layout(fig, title=title, height=440)
    fig.update_layout(
        margin={"l": 60, "r": 20, "t": 80 if title else 50, "b": 110},
        legend={"orientation": "h", "y": -0.22, "yanchor": "top", "x": 0.0, "xanchor": "left"},
    )
    fig.update_xaxes(type="log", title_text=_l(labels, "axis.c"))
    fig.update_yaxes(type="log", exponentformat="power", dtick=1)  # a label per decade
    fig.update_yaxes(title_text=_l(labels, "axis.theta"), row=1, col=1)
    fig.update_yaxes(title_text=_l(labels, "axis.logp"), row=1, col=2)
    return fig
