"""Figures and tables of the curves page: objective and gradient weight vs the importance ratio.

Builders take the frames of :mod:`rlviz.experiments.curves` and a ``labels`` mapping of
already-translated texts (Unicode and ``<sub>``, no LaTeX): the keys each builder reads are listed in
its docstring, and a missing key shows the key itself. Colour and dash per variant from
:func:`rlviz.plots.algorithm_style` (an example such as Dual-clip PPO keeps its algorithm's colour
with a dash of its own). Nothing here depends on which algorithm a variant is: states, bands and
dual clips come in the frames.
Sign convention: J = −loss per token (to maximise), w = ∂J/∂log π (> 0: pushed up).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from rlviz.core.objectives import TOKEN_STATES
from rlviz.plots import OKABE_ITO, algorithm_style, base_layout

__all__ = [
    "cases_table",
    "curves_gallery_figure",
    "curves_overlay_figure",
    "probability_figure",
    "support_table",
]

ZERO_FILL = OKABE_ITO["vermillion"]  # shading where the gradient is exactly zero
BAND_FILL = OKABE_ITO["grey"]  # the trust region a clip is set to


def _l(labels: Mapping[str, str], key: str) -> str:
    return labels.get(key, key)


def _variants_in(df: pd.DataFrame) -> list[str]:
    return list(dict.fromkeys(df["algorithm"].astype(str))) if not df.empty else []


def _x_axis(fig: go.Figure, x_range: tuple[float, float], log_x: bool) -> None:
    lo, hi = x_range
    if log_x:
        fig.update_xaxes(type="log", range=[math.log10(lo), math.log10(hi)])
    else:
        fig.update_xaxes(type="linear", range=[lo, hi])


def _band_shape(xa: str, ya: str, band: tuple[float, float], opacity: float) -> dict:
    """The grey trust-region band over ratios ``band`` on axes ``xa`` / ``ya`` (a layout shape)."""
    return {
        "type": "rect",
        "xref": xa,
        "yref": f"{ya} domain",
        "x0": band[0],
        "x1": band[1],
        "y0": 0,
        "y1": 1,
        "fillcolor": BAND_FILL,
        "opacity": opacity,
        "line": {"width": 0},
        "layer": "below",
    }


def _refs(fig: go.Figure, row: int, col: int) -> tuple[str, str]:
    """The axis references ("x3", "y3") of one subplot, for shapes and annotations."""
    axis = fig.get_subplot(row, col)
    return axis.xaxis.plotly_name.replace("axis", ""), axis.yaxis.plotly_name.replace("axis", "")


def _sign(a: int) -> str:
    return "A>0" if a > 0 else "A<0"


def _hover(labels: Mapping[str, str], quantity: str, label: str) -> str:
    """Hover: '<title> · A>0', r, the plotted value, the other quantity and the state of the point.
    Labels ``j_short``, ``w_short``."""
    j, w = _l(labels, "j_short"), _l(labels, "w_short")
    shown, other = (j, w) if quantity == "objective" else (w, j)
    return (
        f"<b>{label}</b><br>r = %{{x:.5g}}<br>{shown} = %{{y:.4g}}<br>{other}"
        " = %{customdata:.4g}<br>%{text}<extra></extra>"
    )


def _hover_data(part: pd.DataFrame, quantity: str, labels: Mapping[str, str]) -> dict:
    """Per point (as arrays, which plotly takes fast): ``customdata`` the other quantity, ``text``
    the state (``TOKEN_STATES``), with a soft gate's value f′(r) where there is one (SAPO).
    Labels ``state.<state>`` for each of ``TOKEN_STATES``, ``gate_label``."""
    other = part["gradient_weight"] if quantity == "objective" else part["objective"]
    states = {s: _l(labels, f"state.{s}") for s in TOKEN_STATES}
    gate = _l(labels, "gate_label")
    texts = [
        states[s] + (f" · {gate} {g:.3f}" if np.isfinite(g) else "")
        for s, g in zip(part["state"], part["gate"].astype(float))
    ]
    return {"customdata": other.to_numpy(dtype=float), "text": np.array(texts, dtype=str)}


def curves_overlay_figure(
    df: pd.DataFrame,
    labels: Mapping[str, str],
    *,
    x_range: tuple[float, float],
    log_x: bool = False,
    band: tuple[float, float] | None = None,
) -> go.Figure:
    """Objective J (top row) and gradient weight ∂J/∂log π (bottom row) vs the ratio, A>0 (left)
    and A<0 (right), every variant of ``df`` (a :func:`rlviz.experiments.curves.curves_frame`)
    overlaid in its colour and dash. ``band``: one trust region drawn in grey (the page passes the
    first chosen variant's). A dotted line marks r = 1; hover names the state of each point
    (``TOKEN_STATES``: active / clipped / capped / gated).

    ``labels``: ``panel_j_pos``, ``panel_j_neg``, ``panel_w_pos``, ``panel_w_neg`` (the four subplot
    titles: J and w for A = +1 and A = −1), ``x_title``, ``j_axis``, ``w_axis``, and for the hover
    ``j_short``, ``w_short``, ``gate_label`` and ``state.<state>`` for each of ``TOKEN_STATES``."""
    fig = make_subplots(
        rows=2,
        cols=2,
        shared_xaxes=True,
        horizontal_spacing=0.07,
        vertical_spacing=0.1,
        subplot_titles=[_l(labels, k) for k in ("panel_j_pos", "panel_j_neg", "panel_w_pos", "panel_w_neg")],
    )
    for v in _variants_in(df):
        style = algorithm_style(v)
        for col, a in ((1, 1), (2, -1)):
            part = df[(df["algorithm"] == v) & (df["advantage"] == a)].sort_values("ratio")
            title = str(part["title"].iloc[0]) if len(part) else v
            for row, quantity in ((1, "objective"), (2, "gradient_weight")):
                fig.add_trace(
                    go.Scatter(
                        x=part["ratio"].to_numpy(),
                        y=part[quantity].to_numpy(),
                        mode="lines",
                        name=title,
                        legendgroup=v,
                        showlegend=(row, col) == (1, 1),
                        line={"color": style["color"], "dash": style["dash"], "width": 2.2},
                        hovertemplate=_hover(labels, quantity, f"{title} · {_sign(a)}"),
                        **_hover_data(part, quantity, labels),
                    ),
                    row=row,
                    col=col,
                )
    shapes = []  # set once: add_vrect(row="all") and friends are slow in plotly
    for row in (1, 2):
        for col in (1, 2):
            xa, ya = _refs(fig, row, col)
            if band is not None:
                shapes.append(_band_shape(xa, ya, band, opacity=0.15))
            shapes.append(
                {
                    "type": "line",
                    "xref": xa,
                    "yref": f"{ya} domain",
                    "x0": 1.0,
                    "x1": 1.0,
                    "y0": 0,
                    "y1": 1,
                    "line": {"color": "#000000", "dash": "dot", "width": 1},
                }
            )
            shapes.append(
                {
                    "type": "line",
                    "xref": f"{xa} domain",
                    "yref": ya,
                    "x0": 0,
                    "x1": 1,
                    "y0": 0,
                    "y1": 0,
                    "line": {"color": "#666666", "width": 0.8},
                }
            )
    fig.update_layout(shapes=shapes)
    base_layout(fig, height=640)
    fig.update_layout(legend={"yref": "container", "y": 1.0, "yanchor": "top"}, margin={"t": 80}, hovermode="closest")
    fig.update_annotations(font={"size": 13})
    _x_axis(fig, x_range, log_x)
    fig.update_xaxes(title_text=_l(labels, "x_title"), row=2)
    fig.update_yaxes(title_text=_l(labels, "j_axis"), row=1, col=1)
    fig.update_yaxes(title_text=_l(labels, "w_axis"), row=2, col=1)
    return fig


def _runs(x: np.ndarray, flag: np.ndarray, lo: float, hi: float) -> list[tuple[float, float]]:
    """Intervals where ``flag`` holds along sorted ``x``, each end half-way to the next point."""
    out, start = [], None
    for i, f in enumerate(flag):
        if f and start is None:
            start = lo if i == 0 else (x[i - 1] + x[i]) / 2
        if start is not None and (not f or i == len(flag) - 1):
            end = hi if f else (x[i - 1] + x[i]) / 2
            out.append((start, end))
            start = None
    return out


def curves_gallery_figure(
    df: pd.DataFrame,
    labels: Mapping[str, str],
    *,
    bands: Mapping[str, tuple[float, float] | None],
    x_range: tuple[float, float],
    log_x: bool = False,
    dual_clips: Mapping[str, float | None] | None = None,
    cols: int = 4,
) -> go.Figure:
    """One panel per variant, A = +1 above the axis and A = −1 below it: the six cases of a clip
    (sign of A × ratio below / inside / above the band) in one picture.

    Thick line: gradient weight ∂J/∂log π; thin dotted: objective J. Grey band: the variant's own
    trust region (``bands``, variant -> band or None); red shading: where its gradient is exactly
    zero (the ``gradient_weight`` column, so from autograd, not from the band); a dashed line at
    each variant's dual clip c (``dual_clips``, variant -> c or None). Each panel's y axis is
    symmetric about 0; panel titles are the variants' short titles.

    ``labels``: ``legend_j``, ``legend_w`` (the two legend entries), ``x_short`` (the x axis title),
    and for the hover ``j_short``, ``w_short``, ``gate_label`` and ``state.<state>`` for each of
    ``TOKEN_STATES``.
    """
    dual_clips = dict(dual_clips or {})
    variants = _variants_in(df)
    n = max(len(variants), 1)
    cols = max(1, min(cols, n))
    rows = math.ceil(n / cols)
    fig = make_subplots(
        rows=rows,
        cols=cols,
        shared_xaxes=True,
        horizontal_spacing=0.05,
        vertical_spacing=min(0.14, 0.4 / rows) if rows > 1 else 0.0,
        subplot_titles=[str(df.loc[df["algorithm"] == v, "title"].iloc[0]) for v in variants] or None,
    )
    fig.update_annotations(font={"size": 13})  # the titles: short names that fit a narrow panel
    lo, hi = x_range
    shapes, notes = [], []  # collected and set once: add_shape per panel is slow in plotly
    for k, v in enumerate(variants):
        row, col = divmod(k, cols)
        row, col = row + 1, col + 1
        xa, ya = _refs(fig, row, col)
        style = algorithm_style(v)
        part_v = df[df["algorithm"] == v]
        m = float(np.nanmax(np.abs(part_v[["objective", "gradient_weight"]].to_numpy()))) if len(part_v) else 1.0
        m = 1.3 * m if np.isfinite(m) and m > 0 else 1.0  # headroom: the A>0 / A<0 tags sit above the curves
        for a in (1, -1):
            part = part_v[part_v["advantage"] == a].sort_values("ratio")
            title = str(part["title"].iloc[0]) if len(part) else v
            fig.add_trace(
                go.Scatter(
                    x=part["ratio"].to_numpy(),
                    y=part["objective"].to_numpy(),
                    mode="lines",
                    name=_l(labels, "legend_j"),
                    legendgroup="objective",
                    showlegend=k == 0 and a == 1,
                    line={"color": style["color"], "dash": "dot", "width": 1.3},
                    hoverinfo="skip",
                ),
                row=row,
                col=col,
            )
            fig.add_trace(
                go.Scatter(
                    x=part["ratio"].to_numpy(),
                    y=part["gradient_weight"].to_numpy(),
                    mode="lines",
                    name=_l(labels, "legend_w"),
                    legendgroup="weight",
                    showlegend=k == 0 and a == 1,
                    line={"color": style["color"], "width": 2.6},
                    hovertemplate=_hover(labels, "gradient_weight", f"{title} · {_sign(a)}"),
                    **_hover_data(part, "gradient_weight", labels),
                ),
                row=row,
                col=col,
            )
            x = part["ratio"].to_numpy()
            for x0, x1 in _runs(x, (part["gradient_weight"] == 0.0).to_numpy(), lo, hi):
                y0, y1 = (0.0, m) if a > 0 else (-m, 0.0)
                shapes.append(
                    {
                        "type": "rect",
                        "xref": xa,
                        "yref": ya,
                        "x0": x0,
                        "x1": x1,
                        "y0": y0,
                        "y1": y1,
                        "fillcolor": ZERO_FILL,
                        "opacity": 0.16,
                        "line": {"width": 0},
                        "layer": "below",
                    }
                )
        band = bands.get(v)
        if band is not None:
            shapes.append(_band_shape(xa, ya, band, opacity=0.18))
        vlines = [(1.0, {"color": "#000000", "dash": "dot", "width": 1})]
        if dual_clips.get(v) is not None:
            vlines.append((dual_clips[v], {"color": style["color"], "dash": "dash", "width": 1}))
        for xv, line in vlines:
            shapes.append(
                {"type": "line", "xref": xa, "yref": f"{ya} domain", "x0": xv, "x1": xv, "y0": 0, "y1": 1, "line": line}
            )
        shapes.append(
            {
                "type": "line",
                "xref": f"{xa} domain",
                "yref": ya,
                "x0": 0,
                "x1": 1,
                "y0": 0,
                "y1": 0,
                "line": {"color": "#666666", "width": 0.8},
            }
        )
        fig.update_yaxes(range=[-m, m], row=row, col=col)
        for text, y, anchor in (("A>0", 0.98, "top"), ("A<0", 0.02, "bottom")):
            notes.append(
                {
                    "text": text,
                    "x": 0.02,
                    "y": y,
                    "xref": f"{xa} domain",
                    "yref": f"{ya} domain",
                    "xanchor": "left",
                    "yanchor": anchor,
                    "showarrow": False,
                    "font": {"size": 11, "color": "#555555"},
                    "bgcolor": "rgba(255,255,255,0.75)",
                }
            )
    fig.update_layout(shapes=shapes, annotations=list(fig.layout.annotations) + notes)
    base_layout(fig, height=max(300, 250 * rows + 90))
    fig.update_layout(legend={"yref": "container", "y": 1.0, "yanchor": "top"}, margin={"t": 80})
    _x_axis(fig, x_range, log_x)
    for c in range(1, cols + 1):  # the axis title and ticks under the lowest panel of each column
        last = max(r for r in range(1, rows + 1) if (r - 1) * cols + c <= n)
        fig.update_xaxes(title_text=_l(labels, "x_short"), showticklabels=True, row=last, col=c)
    return fig


def probability_figure(prob: pd.DataFrame, labels: Mapping[str, str]) -> go.Figure:
    """Left: the highest π_new that still gets a gradient (A>0) vs π_old; right: the room to grow,
    π_new − π_old. One line per clip (``prob`` from :func:`rlviz.experiments.curves.probability_frame`),
    marked points labelled "π_old → π_new"; grey dotted identity line on the left.

    ``labels``: ``prob_left``, ``prob_right`` (subplot titles), ``prob_identity`` (the identity
    line's legend entry), ``prob_hover`` (the hover's lines after π_old: a plotly template reading
    ``%{customdata[0]}`` the highest π_new and ``%{customdata[1]}`` the room), ``prob_x``,
    ``prob_y_left``, ``prob_y_right`` (axis titles), and optionally ``name.<variant>``: a variant's
    legend label (a missing one: the ``title`` column, not the key)."""
    variants = _variants_in(prob)
    # the labels of the highest line go above-left of it, the others' below-right: clear of the lines
    highest = max(variants, key=lambda v: prob.loc[prob["algorithm"] == v, "pi_new_max"].sum()) if variants else None
    fig = make_subplots(
        rows=1,
        cols=2,
        horizontal_spacing=0.1,
        subplot_titles=[_l(labels, "prob_left"), _l(labels, "prob_right")],
    )
    fig.add_trace(
        go.Scatter(
            x=[0.0, 1.0],
            y=[0.0, 1.0],
            mode="lines",
            name=_l(labels, "prob_identity"),
            line={"color": OKABE_ITO["grey"], "dash": "dot", "width": 1},
            hoverinfo="skip",
        ),
        row=1,
        col=1,
    )
    for v in variants:
        part = prob[prob["algorithm"] == v].sort_values("pi_old")
        style = algorithm_style(v)
        name = labels.get(f"name.{v}", str(part["title"].iloc[0]))
        for col, y in ((1, "pi_new_max"), (2, "room")):
            fig.add_trace(
                go.Scatter(
                    x=part["pi_old"].to_numpy(),
                    y=part[y].to_numpy(),
                    mode="lines",
                    name=name,
                    legendgroup=v,
                    showlegend=col == 1,
                    line={"color": style["color"], "dash": style["dash"], "width": 2.4},
                    customdata=part[["pi_new_max", "room"]].to_numpy(),
                    hovertemplate=f"<b>{name}</b><br>π<sub>old</sub> = %{{x:.3f}}<br>"
                    + _l(labels, "prob_hover")
                    + "<extra></extra>",
                ),
                row=1,
                col=col,
            )
            marked = part[part["marked"]]
            if len(marked):
                fig.add_trace(
                    go.Scatter(
                        x=marked["pi_old"].to_numpy(),
                        y=marked[y].to_numpy(),
                        mode="markers+text",
                        marker={"color": style["color"], "size": 9},
                        showlegend=False,
                        legendgroup=v,
                        text=[
                            f"{p:.2f} → {q:.3f}" if col == 1 else f"+{d:.3f}"
                            for p, q, d in zip(marked["pi_old"], marked["pi_new_max"], marked["room"])
                        ],
                        textposition="top left" if v == highest else "bottom right",
                        hoverinfo="skip",
                        cliponaxis=False,
                        textfont={"color": style["color"], "size": 12},
                    ),
                    row=1,
                    col=col,
                )
    base_layout(fig, height=400)
    fig.update_layout(legend={"yref": "container", "y": 1.0, "yanchor": "top"}, margin={"t": 80})
    fig.update_xaxes(range=[0, 1], title_text=_l(labels, "prob_x"))
    fig.update_yaxes(range=[0, 1.1], title_text=_l(labels, "prob_y_left"), row=1, col=1)
    fig.update_yaxes(rangemode="tozero", title_text=_l(labels, "prob_y_right"), row=1, col=2)
    fig.update_annotations(font={"size": 13})
    return fig


def _num(x: float) -> str:
    return f"{x:.5g}"


def support_table(support: pd.DataFrame, labels: Mapping[str, str]) -> pd.DataFrame:
    """Readable form of :func:`rlviz.experiments.curves.support_frame`: per algorithm, the ratios
    that still get a gradient for A>0 and for A<0, next to the clip setting.

    ``labels``: the column names ``algorithm``, ``support.col_band``, ``support.col_pos``,
    ``support.col_neg``; the cells ``support.all`` (no ratio is cut off) and ``support.no_band``
    (no clip range)."""

    def interval(low: float, high: float) -> str:
        if math.isnan(low) and math.isnan(high):
            return _l(labels, "support.all")
        if math.isnan(low):
            return f"r ≤ {_num(high)}"
        if math.isnan(high):
            return f"r ≥ {_num(low)}"
        return f"{_num(low)} ≤ r ≤ {_num(high)}"

    rows = []
    for v in _variants_in(support):
        part = support[support["algorithm"] == v].set_index("advantage")
        pos, neg = part.loc[1], part.loc[-1]
        band = (
            _l(labels, "support.no_band")
            if math.isnan(pos["band_low"])
            else f"[{_num(pos['band_low'])}, {_num(pos['band_high'])}]"
        )
        rows.append(
            {
                _l(labels, "algorithm"): pos["title"],
                _l(labels, "support.col_band"): band,
                _l(labels, "support.col_pos"): interval(pos["low"], pos["high"]),
                _l(labels, "support.col_neg"): interval(neg["low"], neg["high"]),
            }
        )
    return pd.DataFrame(rows)


def cases_table(cases: pd.DataFrame, labels: Mapping[str, str]):
    """The clip cases (:func:`rlviz.experiments.curves.ppo_cases_frame`) as a pandas Styler with
    translated labels, rows with zero gradient shaded. Six short columns so that the answer,
    "zero gradient?", stays in view in a narrow window: the case (sign of A · where r sits), that
    answer, the term the min takes, r, J and w.

    ``labels``: the column names ``cases.col_<column>`` for ``case``, ``zero_gradient``, ``branch``,
    ``ratio``, ``objective`` and ``gradient_weight``; the cells ``cases.region_<region>`` for each
    ``region`` of the frame (below / inside / above / beyond_c), ``cases.branch_<branch>`` for each
    ``branch`` (unclipped / clipped / equal / dual), ``cases.yes`` and ``cases.no``."""
    col = {
        k: _l(labels, f"cases.col_{k}")
        for k in ("case", "zero_gradient", "branch", "ratio", "objective", "gradient_weight")
    }
    shown = pd.DataFrame(
        {
            col["case"]: [
                f"{_sign(a)} · {_l(labels, f'cases.region_{r}')}" for a, r in zip(cases["advantage"], cases["region"])
            ],
            col["zero_gradient"]: [_l(labels, "cases.yes" if z else "cases.no") for z in cases["zero_gradient"]],
            col["branch"]: [_l(labels, f"cases.branch_{b}") for b in cases["branch"]],
            col["ratio"]: cases["ratio"].astype(float),
            col["objective"]: cases["objective"].astype(float),
            col["gradient_weight"]: cases["gradient_weight"].astype(float),
        }
    )
    zero = cases["zero_gradient"].to_numpy()

    def shade(row):
        colour = "background-color: rgba(213, 94, 0, 0.16)" if zero[row.name] else ""
        return [colour] * len(row)

    numbers = [col["ratio"], col["objective"], col["gradient_weight"]]
    return shown.style.apply(shade, axis=1).format("{:.3g}", subset=numbers)
