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

import functools
import json
import math
from collections.abc import Mapping

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from rlviz.core.objectives import TOKEN_STATES
from rlviz.plots import OKABE_ITO, algorithm_style
from rlviz.plots._assemble import look, merge, spec_arrays

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
    return [str(v) for v in pd.unique(df["algorithm"])] if not df.empty else []  # in order of appearance


# The figures are built as plain spec dicts (``{"data": [...], "layout": {...}}``): plotly's
# validating API costs most of a rerun on a 16-panel figure. The subplot grid and the app's common
# look still come from plotly and ``base_layout`` (built once per shape, then copied), and the public
# builders return a validated ``go.Figure`` of the same spec, so an invalid property fails there.


@functools.lru_cache(maxsize=32)
def _grid_json(rows: int, cols: int, h: float, v: float, n_titles: int) -> str:
    """The layout of ``make_subplots`` (shared x axes) with ``n_titles`` placeholder panel titles,
    as JSON (immutable, so it can be cached); the template left out (plotly adds its default)."""
    fig = make_subplots(
        rows=rows,
        cols=cols,
        shared_xaxes=True,
        horizontal_spacing=h,
        vertical_spacing=v,
        subplot_titles=[f"\x00{i}" for i in range(n_titles)] or None,
    )
    layout = fig.layout.to_plotly_json()
    layout.pop("template", None)
    refs = {}
    for r in range(1, rows + 1):
        for c in range(1, cols + 1):
            axis = fig.get_subplot(r, c)
            refs[f"{r},{c}"] = [
                axis.xaxis.plotly_name.replace("axis", ""),
                axis.yaxis.plotly_name.replace("axis", ""),
            ]
    return json.dumps({"layout": layout, "refs": refs})


def _grid(rows: int, cols: int, h: float, v: float, titles: list[str]) -> tuple[dict, dict]:
    """A fresh subplot layout with ``titles`` (panel titles, font size 13) and the axis references
    ``{(row, col): ("x3", "y3")}`` of each panel."""
    grid = json.loads(_grid_json(rows, cols, h, v, len(titles)))
    layout = grid["layout"]
    for note, title in zip(layout.get("annotations", []), titles):
        note["text"] = title
        note["font"] = {**note.get("font", {}), "size": 13}
    refs = {tuple(int(i) for i in k.split(",")): tuple(xy) for k, xy in grid["refs"].items()}
    return layout, refs


def _with_base(layout: dict, height: int, **extra) -> dict:
    """``layout`` with the app's common look (:func:`base_layout`), then ``extra`` merged over it."""
    merge(layout, look(height))
    return merge(layout, extra)


def _axes(layout: dict, kind: str) -> list[str]:
    """The names of every ``kind`` axis ("xaxis" / "yaxis") in ``layout``."""
    return [k for k in layout if k.startswith(kind) and k[len(kind) :].isdigit() or k == kind]


def _axis_name(ref: str) -> str:
    """Layout key of an axis reference: "x3" -> "xaxis3"."""
    return f"{ref[0]}axis{ref[1:]}"


def _x_axis(layout: dict, x_range: tuple[float, float], log_x: bool) -> None:
    lo, hi = x_range
    update = (
        {"type": "log", "range": [math.log10(lo), math.log10(hi)]} if log_x else {"type": "linear", "range": [lo, hi]}
    )
    for name in _axes(layout, "xaxis"):
        merge(layout[name], update)


def _figure(spec: dict, as_spec: bool):
    """The spec itself (``as_spec``), its arrays already in the typed-array form plotly sends
    (``{"dtype": "f8", "bdata": ...}``, by plotly's own encoder: the same JSON, and nothing left to
    convert each time it is shown; ``_assemble.spec_arrays``), or a validated ``go.Figure`` of it."""
    return spec_arrays(spec) if as_spec else go.Figure(spec)


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


class _Curves:
    """The columns of a :func:`rlviz.experiments.curves.curves_frame` as arrays, split once by
    variant and advantage (each part sorted by ratio)."""

    def __init__(self, df: pd.DataFrame):
        # hash-based codes (pandas' factorize), not a groupby or a unique over the string columns:
        # each costs milliseconds on a frame of a few thousand rows, and a figure is built per rerun
        codes, found = pd.factorize(df["algorithm"]) if len(df) else (np.array([], dtype=np.intp), [])
        self.variants = [str(v) for v in found]  # in order of appearance
        self.cols = {c: df[c].to_numpy() for c in ("ratio", "objective", "gradient_weight", "gate")}
        for c in ("title", "state"):
            self.cols[c] = df[c].to_numpy(dtype=object)
        advantage = df["advantage"].to_numpy()
        ratio = self.cols["ratio"]
        signs, _ = pd.factorize(advantage) if len(df) else (np.array([], dtype=np.intp), [])
        order = np.lexsort((ratio, -advantage, codes))  # by variant, then the larger A first, then ratio
        key = codes[order] * (signs.max(initial=0) + 1) + signs[order]
        starts = np.flatnonzero(np.diff(key, prepend=-1))
        self.index = {}
        for start, end in zip(starts, [*starts[1:], len(order)]):
            idx = order[start:end]
            self.index[(self.variants[codes[idx[0]]], int(advantage[idx[0]]))] = idx

    def part(self, v: str, a: int) -> np.ndarray:
        return self.index.get((v, a), np.array([], dtype=np.intp))

    def get(self, column: str, idx: np.ndarray) -> np.ndarray:
        return self.cols[column][idx]

    def title(self, v: str, a: int) -> str:
        idx = self.part(v, a)
        return str(self.cols["title"][idx[0]]) if len(idx) else v

    def hover_data(self, idx: np.ndarray, quantity: str, labels: Mapping[str, str]) -> dict:
        """Per point: ``customdata`` the other quantity, ``text`` the state (``TOKEN_STATES``),
        with a soft gate's value f′(r) where there is one (SAPO). Labels ``state.<state>`` for each
        of ``TOKEN_STATES``, ``gate_label``."""
        other = self.get("gradient_weight" if quantity == "objective" else "objective", idx).astype(float)
        return {"customdata": other, "text": self._texts(labels)[idx].tolist()}

    def _texts(self, labels: Mapping[str, str]) -> np.ndarray:
        """The hover text of every row (made once per builder call: one ``labels``)."""
        if getattr(self, "_text_labels", None) is not labels:
            states = {s: _l(labels, f"state.{s}") for s in TOKEN_STATES}
            # a handful of distinct states: translate each once, then index (not a lookup per row)
            found, at = np.unique(self.cols["state"].astype(str), return_inverse=True)
            texts = np.array([states.get(s, s) for s in found], dtype=object)[at.ravel()]
            gates = self.cols["gate"].astype(float)
            gate = _l(labels, "gate_label")
            gated = np.flatnonzero(np.isfinite(gates))
            texts[gated] = [f"{t} · {gate} {g:.3f}" for t, g in zip(texts[gated], gates[gated])]
            self._text, self._text_labels = texts, labels
        return self._text


def curves_overlay_figure(
    df: pd.DataFrame,
    labels: Mapping[str, str],
    *,
    x_range: tuple[float, float],
    log_x: bool = False,
    band: tuple[float, float] | None = None,
    as_spec: bool = False,
) -> go.Figure | dict:
    """Objective J (top row) and gradient weight ∂J/∂log π (bottom row) vs the ratio, A>0 (left)
    and A<0 (right), every variant of ``df`` (a :func:`rlviz.experiments.curves.curves_frame`)
    overlaid in its colour and dash. ``band``: one trust region drawn in grey (the page passes the
    first chosen variant's). A dotted line marks r = 1; hover names the state of each point
    (``TOKEN_STATES``: active / clipped / capped / gated).

    ``labels``: ``panel_j_pos``, ``panel_j_neg``, ``panel_w_pos``, ``panel_w_neg`` (the four subplot
    titles: J and w for A = +1 and A = −1), ``x_title``, ``j_axis``, ``w_axis``, and for the hover
    ``j_short``, ``w_short``, ``gate_label`` and ``state.<state>`` for each of ``TOKEN_STATES``.
    ``as_spec``: return the figure's plain spec dict (what ``app_common.figure_cache`` keeps), built
    without plotly's validation; else a validated ``go.Figure`` of the same spec."""
    titles = [_l(labels, k) for k in ("panel_j_pos", "panel_j_neg", "panel_w_pos", "panel_w_neg")]
    layout, refs = _grid(2, 2, 0.07, 0.1, titles)
    curves = _Curves(df)
    data = []
    for v in curves.variants:
        style = algorithm_style(v)
        for col, a in ((1, 1), (2, -1)):
            idx = curves.part(v, a)
            title = curves.title(v, a)
            x = curves.get("ratio", idx).astype(float)
            for row, quantity in ((1, "objective"), (2, "gradient_weight")):
                xa, ya = refs[(row, col)]
                data.append(
                    {
                        "type": "scatter",
                        "x": x,
                        "y": curves.get(quantity, idx).astype(float),
                        "mode": "lines",
                        "name": title,
                        "legendgroup": v,
                        "showlegend": (row, col) == (1, 1),
                        "line": {"color": style["color"], "dash": style["dash"], "width": 2.2},
                        "hovertemplate": _hover(labels, quantity, f"{title} · {_sign(a)}"),
                        **curves.hover_data(idx, quantity, labels),
                        "xaxis": xa,
                        "yaxis": ya,
                    }
                )
    shapes = []
    for row in (1, 2):
        for col in (1, 2):
            xa, ya = refs[(row, col)]
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
    layout["shapes"] = shapes
    _with_base(
        layout,
        640,
        legend={"yref": "container", "y": 1.0, "yanchor": "top"},
        margin={"t": 80},
        hovermode="closest",
    )
    _x_axis(layout, x_range, log_x)
    for col in (1, 2):
        merge(layout[_axis_name(refs[(2, col)][0])], {"title": {"text": _l(labels, "x_title")}})
    merge(layout[_axis_name(refs[(1, 1)][1])], {"title": {"text": _l(labels, "j_axis")}})
    merge(layout[_axis_name(refs[(2, 1)][1])], {"title": {"text": _l(labels, "w_axis")}})
    return _figure({"data": data, "layout": layout}, as_spec)


def _runs(x: np.ndarray, flag: np.ndarray, lo: float, hi: float) -> list[tuple[float, float]]:
    """Intervals where ``flag`` holds along sorted ``x``, each end half-way to the next point."""
    f = np.concatenate([[0], np.asarray(flag, dtype=np.int8), [0]])
    steps = np.diff(f)
    out = []
    for i, j in zip(np.flatnonzero(steps == 1), np.flatnonzero(steps == -1)):  # run: x[i:j]
        start = lo if i == 0 else (x[i - 1] + x[i]) / 2
        end = hi if j == len(x) else (x[j - 1] + x[j]) / 2
        out.append((start, end))
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
    as_spec: bool = False,
) -> go.Figure | dict:
    """One panel per variant, A = +1 above the axis and A = −1 below it: the six cases of a clip
    (sign of A × ratio below / inside / above the band) in one picture.

    Thick line: gradient weight ∂J/∂log π; thin dotted: objective J. Grey band: the variant's own
    trust region (``bands``, variant -> band or None); red shading: where its gradient is exactly
    zero (the ``gradient_weight`` column, so from autograd, not from the band); a dashed line at
    each variant's dual clip c (``dual_clips``, variant -> c or None). Each panel's y axis is
    symmetric about 0; panel titles are the variants' short titles.

    ``labels``: ``legend_j``, ``legend_w`` (the two legend entries), ``x_short`` (the x axis title),
    and for the hover ``j_short``, ``w_short``, ``gate_label`` and ``state.<state>`` for each of
    ``TOKEN_STATES``. ``as_spec``: as :func:`curves_overlay_figure`.
    """
    dual_clips = dict(dual_clips or {})
    curves = _Curves(df)
    variants = curves.variants
    n = max(len(variants), 1)
    cols = max(1, min(cols, n))
    rows = math.ceil(n / cols)
    titles = [curves.title(v, 1) if len(curves.part(v, 1)) else curves.title(v, -1) for v in variants]
    layout, refs = _grid(rows, cols, 0.05, min(0.14, 0.4 / rows) if rows > 1 else 0.0, titles)
    lo, hi = x_range
    data, shapes, notes = [], [], []
    for k, v in enumerate(variants):
        row, col = divmod(k, cols)
        row, col = row + 1, col + 1
        xa, ya = refs[(row, col)]
        style = algorithm_style(v)
        both = np.concatenate([curves.part(v, 1), curves.part(v, -1)])
        values = np.concatenate([curves.get("objective", both), curves.get("gradient_weight", both)]).astype(float)
        m = float(np.nanmax(np.abs(values))) if len(both) and not np.all(np.isnan(values)) else math.nan
        m = 1.3 * m if np.isfinite(m) and m > 0 else 1.0  # headroom: the A>0 / A<0 tags sit above the curves
        for a in (1, -1):
            idx = curves.part(v, a)
            title = curves.title(v, a)
            x = curves.get("ratio", idx).astype(float)
            weight = curves.get("gradient_weight", idx).astype(float)
            data.append(
                {
                    "type": "scatter",
                    "x": x,
                    "y": curves.get("objective", idx).astype(float),
                    "mode": "lines",
                    "name": _l(labels, "legend_j"),
                    "legendgroup": "objective",
                    "showlegend": k == 0 and a == 1,
                    "line": {"color": style["color"], "dash": "dot", "width": 1.3},
                    "hoverinfo": "skip",
                    "xaxis": xa,
                    "yaxis": ya,
                }
            )
            data.append(
                {
                    "type": "scatter",
                    "x": x,
                    "y": weight,
                    "mode": "lines",
                    "name": _l(labels, "legend_w"),
                    "legendgroup": "weight",
                    "showlegend": k == 0 and a == 1,
                    "line": {"color": style["color"], "width": 2.6},
                    "hovertemplate": _hover(labels, "gradient_weight", f"{title} · {_sign(a)}"),
                    **curves.hover_data(idx, "gradient_weight", labels),
                    "xaxis": xa,
                    "yaxis": ya,
                }
            )
            for x0, x1 in _runs(x, weight == 0.0, lo, hi):
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
        merge(layout[_axis_name(ya)], {"range": [-m, m]})
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
                }
            )
    if shapes:
        layout["shapes"] = shapes
    if notes:
        layout["annotations"] = layout.get("annotations", []) + notes
    _with_base(
        layout, max(300, 250 * rows + 90), legend={"yref": "container", "y": 1.0, "yanchor": "top"}, margin={"t": 80}
    )
    _x_axis(layout, x_range, log_x)
    for c in range(1, cols + 1):  # the axis title and ticks under the lowest panel of each column
        last = max(r for r in range(1, rows + 1) if (r - 1) * cols + c <= n)
        merge(
            layout[_axis_name(refs[(last, c)][0])],
            {"title": {"text": _l(labels, "x_short")}, "showticklabels": True},
        )
    return _figure({"data": data, "layout": layout}, as_spec)


def probability_figure(
    prob: pd.DataFrame, labels: Mapping[str, str], *, values: bool = True, as_spec: bool = False
) -> go.Figure | dict:
    """Left: the highest π_new that still gets a gradient (A>0) vs π_old; right: the room to grow,
    π_new − π_old. One line per clip (``prob`` from :func:`rlviz.experiments.curves.probability_frame`),
    marked points labelled with π_new (left) and the room (right); grey dotted identity line on the left.
    ``values=False``: the marked points without their value labels (while a question they answer waits).

    ``labels``: ``prob_left``, ``prob_right`` (subplot titles), ``prob_identity`` (the identity
    line's legend entry), ``prob_hover`` (the hover's lines after π_old: a plotly template reading
    ``%{customdata[0]}`` the highest π_new and ``%{customdata[1]}`` the room), ``prob_x``,
    ``prob_y_left``, ``prob_y_right`` (axis titles), and optionally ``name.<variant>``: a variant's
    legend label (a missing one: the ``title`` column, not the key). ``as_spec``: as
    :func:`curves_overlay_figure`."""
    variants = _variants_in(prob)
    groups = prob.groupby("algorithm", sort=False).indices if len(prob) else {}
    cols = {c: prob[c].to_numpy() for c in ("title", "pi_old", "pi_new_max", "room", "marked")}
    parts = {}
    for v in variants:
        idx = groups[v]
        order = np.argsort(cols["pi_old"][idx], kind="stable")
        parts[v] = idx if np.all(order == np.arange(len(idx))) else idx[order]
    # the labels of the highest line go above-left of it, the others' below-right: clear of the lines
    highest = max(variants, key=lambda v: cols["pi_new_max"][groups[v]].sum()) if variants else None
    layout, refs = _grid(1, 2, 0.1, 0.3, [_l(labels, "prob_left"), _l(labels, "prob_right")])
    data = [
        {
            "type": "scatter",
            "x": [0.0, 1.0],
            "y": [0.0, 1.0],
            "mode": "lines",
            "name": _l(labels, "prob_identity"),
            "line": {"color": OKABE_ITO["grey"], "dash": "dot", "width": 1},
            "hoverinfo": "skip",
            "xaxis": refs[(1, 1)][0],
            "yaxis": refs[(1, 1)][1],
        }
    ]
    for v in variants:
        idx = parts[v]
        style = algorithm_style(v)
        name = labels.get(f"name.{v}", str(cols["title"][idx[0]]))
        pi_old = cols["pi_old"][idx].astype(float)
        pi_new, room = cols["pi_new_max"][idx].astype(float), cols["room"][idx].astype(float)
        marked = cols["marked"][idx].astype(bool)
        for col, y in ((1, pi_new), (2, room)):
            xa, ya = refs[(1, col)]
            data.append(
                {
                    "type": "scatter",
                    "x": pi_old,
                    "y": y,
                    "mode": "lines",
                    "name": name,
                    "legendgroup": v,
                    "showlegend": col == 1,
                    "line": {"color": style["color"], "dash": style["dash"], "width": 2.4},
                    "customdata": np.column_stack([pi_new, room]),
                    "hovertemplate": f"<b>{name}</b><br>π<sub>old</sub> = %{{x:.3f}}<br>"
                    + _l(labels, "prob_hover")
                    + "<extra></extra>",
                    "xaxis": xa,
                    "yaxis": ya,
                }
            )
            if marked.any() and not values:
                data.append(
                    {
                        "type": "scatter",
                        "x": pi_old[marked],
                        "y": y[marked],
                        "mode": "markers",
                        "marker": {"color": style["color"], "size": 9},
                        "showlegend": False,
                        "legendgroup": v,
                        "hoverinfo": "skip",
                        "xaxis": xa,
                        "yaxis": ya,
                    }
                )
            elif marked.any():
                data.append(
                    {
                        "type": "scatter",
                        "x": pi_old[marked],
                        "y": y[marked],
                        "mode": "markers+text",
                        "marker": {"color": style["color"], "size": 9},
                        "showlegend": False,
                        "legendgroup": v,
                        "text": [
                            f"{q:.3f}" if col == 1 else f"+{d:.3f}"
                            for p, q, d in zip(pi_old[marked], pi_new[marked], room[marked])
                        ],
                        # left of a point near the y axis the text would cover the ticks: right of it there
                        "textposition": [
                            ("top left" if x >= 0.15 else "top right") if v == highest else "bottom right"
                            for x in pi_old[marked]
                        ],
                        "hoverinfo": "skip",
                        "cliponaxis": False,
                        "textfont": {"color": style["color"], "size": 12},
                        "xaxis": xa,
                        "yaxis": ya,
                    }
                )
    _with_base(layout, 400, legend={"yref": "container", "y": 1.0, "yanchor": "top"}, margin={"t": 80})
    for name in _axes(layout, "xaxis"):
        merge(layout[name], {"range": [0, 1], "title": {"text": _l(labels, "prob_x")}})
    merge(layout[_axis_name(refs[(1, 1)][1])], {"range": [0, 1.1], "title": {"text": _l(labels, "prob_y_left")}})
    merge(layout[_axis_name(refs[(1, 2)][1])], {"rangemode": "tozero", "title": {"text": _l(labels, "prob_y_right")}})
    return _figure({"data": data, "layout": layout}, as_spec)


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
    columns = {
        c: support[c].to_numpy() for c in ("algorithm", "title", "advantage", "low", "high", "band_low", "band_high")
    }
    for v in _variants_in(support):
        at = {int(columns["advantage"][i]): i for i in np.flatnonzero(columns["algorithm"] == v)}
        pos, neg = ({c: values[at[a]] for c, values in columns.items()} for a in (1, -1))
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
    zero = cases["zero_gradient"].to_numpy(dtype=bool)

    def shade(frame: pd.DataFrame) -> pd.DataFrame:  # every cell's style at once (not row by row)
        colour = np.where(zero, "background-color: rgba(213, 94, 0, 0.16)", "")
        return pd.DataFrame(
            np.repeat(colour[:, None], frame.shape[1], axis=1), index=frame.index, columns=frame.columns
        )

    numbers = [col["ratio"], col["objective"], col["gradient_weight"]]
    return shown.style.apply(shade, axis=None).format("{:.3g}", subset=numbers)
