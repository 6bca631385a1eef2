"""Figures of the token vs sequence weighting page (no Streamlit here).

Builders take the frames of :mod:`rlviz.experiments.weighting` and plot them as they are, with a
``labels`` mapping of already-translated texts (Unicode and ``<sub>``, no LaTeX): the keys each
builder reads are listed in its docstring, and a missing key shows the key itself (an algorithm's
legend name ``name.<algorithm>`` falls back to its registry title). Each algorithm keeps its colour
and dash from :func:`rlviz.plots.algorithm_style`. An aggregation mode takes the colour of the
algorithm that made it known, read from the registry at call time (see :func:`mode_style`: token-mean
DAPO, seq-mean-token-mean GRPO, seq-mean-token-sum-norm Dr.GRPO; seq-mean-token-sum, which none of
them introduced, black) plus a bar pattern as a second cue.
Nothing here branches on an algorithm's name. The real-group heatmaps reuse
:func:`rlviz.plots.token_weight_figure`.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import plotly.io as pio
from plotly.subplots import make_subplots

from rlviz.core.aggregation import AGGREGATIONS
from rlviz.core.objectives import ALGORITHMS
from rlviz.experiments.weighting import format_number
from rlviz.numbering import response_tag
from rlviz.plots import OKABE_ITO, TEMPLATE, algorithm_style, base_layout, ordered, style_or_default

__all__ = [
    "MODE_PATTERNS",
    "aggregation_figure",
    "format_number",
    "legend_rows",
    "mode_origin",
    "mode_style",
    "noise_figure",
    "offpolicy_figure",
]

BAR_TEXT_SIZE = 12  # px, value labels above the bars
BAR_TEXT_MIN = 11  # px; a label that would need to shrink below this is left to the hover
# a legend above the panels gets as many rows as it needs in a figure this narrow (px of plot width: the
# figure of a 1024 px window with the sidebar open, 564 px, less its margins), so it never covers the
# subplot titles under it; a wider window only leaves some space
LEGEND_FIT_PX = 480
LEGEND_ROW_PX = 29  # one row of the legend (a bar's swatch, 13 px text), as chromium draws it (24 left the
# 22-entry legend of the registry's objectives a row short: its first row went under the figure's top)

# bar pattern of each aggregation mode (the second cue after its colour), from the aggregation registry
MODE_PATTERNS: dict[str, str] = {name: spec.pattern for name, spec in AGGREGATIONS.items()}


def mode_origin(mode: str) -> str | None:
    """The algorithm that made ``mode`` known: the first registry entry (registry order, read at call
    time) whose default ``loss_agg_mode`` is ``mode`` while its parent's is not, i.e. the entry
    whose change to its parent was this aggregation (GRPO: seq-mean-token-mean, Dr.GRPO:
    seq-mean-token-sum-norm, DAPO: token-mean); ``None`` if no entry introduced it."""
    for spec in ALGORITHMS.values():
        parent = ALGORITHMS.get(spec.parent) if spec.parent else None
        if parent is None or spec.defaults.get("loss_agg_mode") != mode:
            continue
        if parent.defaults.get("loss_agg_mode") != mode:
            return spec.name
    return None


def mode_style(mode: str) -> dict[str, str]:
    """``{"color", "pattern"}`` of an aggregation mode: the colour of :func:`mode_origin` (black when
    none; grey for an unknown mode) and the mode's pattern of ``MODE_PATTERNS``."""
    if mode not in MODE_PATTERNS:
        return {"color": OKABE_ITO["grey"], "pattern": ""}
    origin = mode_origin(mode)
    color = algorithm_style(origin)["color"] if origin else OKABE_ITO["black"]
    return {"color": color, "pattern": MODE_PATTERNS[mode]}


def _l(labels: Mapping[str, str], key: str) -> str:
    return labels.get(key, key)


def _name(labels: Mapping[str, str], name: str) -> str:
    """``name.<name>`` of ``labels``, else the registry title of an algorithm, else ``name`` itself."""
    spec = ALGORITHMS.get(name)
    return labels.get(f"name.{name}", spec.title if spec is not None else name)


def legend_rows(names, width: float = LEGEND_FIT_PX) -> int:
    """How many rows a horizontal legend of ``names`` takes in ``width`` px: each item its swatch and
    gap (40 px) and its text (13 px font: about 7 px a Latin character, 13 px a CJK one)."""
    rows, used = 1, 0.0
    for name in names:
        item = 40 + sum(13 if ord(c) >= 0x2E80 else 7 for c in str(name))
        if used and used + item > width:
            rows, used = rows + 1, 0.0
        used += item
    return rows


def _style(kind: str, name: str) -> dict[str, str]:
    if kind == "mode":
        return mode_style(name)
    return {"color": style_or_default(name)["color"], "pattern": ""}


def aggregation_figure(
    df: pd.DataFrame,
    kind: str,
    labels: Mapping[str, str],
    *,
    show_text: bool = True,
    stacked: bool | None = None,
) -> go.Figure:
    """Bars of an ``aggregation_table`` frame, rows of one ``kind`` (``"mode"`` or ``"algorithm"``).

    Two panels, both on a log axis (the modes differ by orders of magnitude): the weight
    ``token_weight`` of each token of a response, and its total ``weight_total``. The x axis
    holds the responses, one bar per mode / algorithm in its colour. Hover gives the signed push
    per token and per response (autograd) and A. With ``show_text`` each bar carries its value
    (3 significant digits, at least ``BAR_TEXT_MIN`` px; a label too wide for its bar is hidden and
    left to the hover). ``stacked`` puts the panels one above the other, each at full width (the
    default when ``show_text``: the labels need wide bars; many bars need it too), else side by side.
    The legend above them takes as many rows as it needs at :data:`LEGEND_FIT_PX` (:func:`legend_rows`).

    ``labels``: ``per_token``, ``per_response`` (the two panel titles), ``push`` and ``advantage``
    (the hover's words for the push and for A); optionally ``response.<i>``, the x label of response
    ``i`` (a missing one: ``#i``), and ``name.<name>``, a bar's legend name (a missing one: an
    algorithm's registry title, a mode's own name).
    """
    per_token, per_response = _l(labels, "per_token"), _l(labels, "per_response")
    push, advantage = _l(labels, "push"), _l(labels, "advantage")
    stacked = show_text if stacked is None else stacked
    titled = (bool(per_token), bool(per_response))
    if stacked:
        layout = _subplot_layout(2, 1, titled, vertical_spacing=0.2)
    else:
        layout = _subplot_layout(1, 2, titled, horizontal_spacing=0.1)
    axes = (("x", "y"), ("x2", "y2"))  # the two cells, in order
    part = df[df["kind"] == kind] if "kind" in df.columns else df.iloc[0:0]
    names = list(dict.fromkeys(part["name"])) if not part.empty else []
    if kind == "algorithm":
        names = ordered(names)
    groups = dict(tuple(part.groupby("name", sort=False))) if names else {}
    data = []
    for name in names:
        d = groups[name].sort_values("response")
        d = d[np.isfinite(d["token_weight"]) & np.isfinite(d["weight_total"]) & (d["token_weight"] > 0)]
        if d.empty:
            continue
        style = _style(kind, name)
        label = _name(labels, name)
        x = [labels.get(f"response.{int(r)}", response_tag(int(r))) for r in d["response"]]
        custom = np.stack([d["push_token"], d["push_total"], d["advantage"]], axis=1).tolist()
        for (xaxis, yaxis), column, push_index in zip(axes, ("token_weight", "weight_total"), (0, 1)):
            trace = {
                "type": "bar",
                "x": x,
                "y": d[column].astype(float).tolist(),
                "name": label,
                "legendgroup": name,
                "showlegend": push_index == 0,
                "marker": {
                    "color": style["color"],
                    "pattern": {"shape": style["pattern"], "fgcolor": "#ffffff"},
                    "line": {"color": "#333333", "width": 0.5},
                },
                "cliponaxis": False,
                "customdata": custom,
                "hovertemplate": (
                    f"{label}<br>%{{x}}<br>w: %{{y:.4g}}<br>{push}: %{{customdata[{push_index}]:.4g}}"
                    f"<br>{advantage} = %{{customdata[2]:+.3g}}<extra></extra>"
                ),
                "xaxis": xaxis,
                "yaxis": yaxis,
            }
            if show_text:
                trace.update(
                    text=[format_number(v) for v in d[column]], textposition="outside", textfont={"size": BAR_TEXT_SIZE}
                )
            data.append(trace)
    for (_, yaxis), column in zip(axes, ("token_weight", "weight_total")):
        axis = layout[yaxis.replace("y", "yaxis")]
        axis.update(type="log", dtick=1)  # decade labels only: minor-tick digits crowd a short axis
        values = part[column][np.isfinite(part[column]) & (part[column] > 0)] if not part.empty else part[column]
        if len(values):  # headroom above the tallest bar for its label, a decade below the lowest
            lo, hi = float(np.log10(values.min())), float(np.log10(values.max()))
            axis["range"] = [lo - 0.5, hi + (0.5 if show_text else 0.35)]
    # the legend sits at the top of the figure, above the subplot titles, not on them: as many rows as
    # it takes in a narrow figure (``legend_rows``), the panels keeping their height below it
    shown = [_name(labels, n) for n in names if n in groups]
    top = max(90 if stacked else 80, 40 + LEGEND_ROW_PX * legend_rows(shown))
    layout.update(barmode="group", legend={"yref": "container", "y": 1.0, "yanchor": "top"}, margin={"t": top})
    if show_text:  # labels never shrink below a readable size: one that cannot fit is hidden (hover has it)
        layout["uniformtext"] = {"minsize": BAR_TEXT_MIN, "mode": "hide"}
    for annotation, text in zip(layout.get("annotations", []), [t for t in (per_token, per_response) if t]):
        annotation.update(text=text, font={"size": 13})
    return _figure(data, layout, height=(650 if stacked else 460) + top - (90 if stacked else 80))


MAX_BANDS = 60  # beyond this many separate outlier runs the hatch pattern alone marks them


def _runs(positions: list[int]) -> list[tuple[int, int]]:
    """Sorted positions grouped into runs of consecutive integers, as (first, last) pairs."""
    runs: list[tuple[int, int]] = []
    for p in positions:
        if runs and p == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], p)
        else:
            runs.append((p, p))
    return runs


def offpolicy_figure(df: pd.DataFrame, labels: Mapping[str, str]) -> go.Figure:
    """Small multiples of an ``offpolicy_response`` frame: one row per algorithm, one bar per token.

    Bar height is ``relative`` (the token's push divided by its push at r = 1: 1 = untouched,
    0 = no gradient); outlier tokens carry a hatch pattern and (up to ``MAX_BANDS`` separate runs)
    a grey band; a dotted line marks 1.
    Each panel's title starts with the algorithm's name and sits at the left edge of the panel, so a
    narrow window (a 1024 px projector with the sidebar open) cuts a long title at its end, never
    the name; a panel note (``note.<algorithm>``) adds a short text after the name (keep it short:
    e.g. the share of tokens in each state; the full numbers belong in a table or caption).
    Hover: position, r_t, the ratio the algorithm uses, the push and the token's state (one of
    ``rlviz.core.objectives.TOKEN_STATES``: active / clipped / capped / gated).

    ``labels``: ``relative`` (the y axis title), ``position`` (the x axis title and the hover's word
    for it), ``ratio_used``, ``push`` (the hover's words for the ratio used and the push),
    ``state.<state>`` for each state in ``df``; optionally ``name.<algorithm>`` (a panel's name; a
    missing one: the registry title) and ``note.<algorithm>`` (a missing or empty one: no note).
    """
    position = _l(labels, "position")
    ratio_used, push = _l(labels, "ratio_used"), _l(labels, "push")
    present = list(dict.fromkeys(df["algorithm"])) if "algorithm" in df.columns else []
    algos = ordered(present)
    n = max(len(algos), 1)
    titles = [f"{_name(labels, a)} · {note}" if (note := labels.get(f"note.{a}")) else _name(labels, a) for a in algos]
    # the panels are laid out once per shape (rows, titles) and filled here in one validated figure:
    # adding traces, lines and titles panel by panel through plotly's API costs ten times more
    layout = _subplot_layout(
        n, 1, tuple(bool(t) for t in titles), shared_xaxes=True, shared_yaxes="all", vertical_spacing=min(0.08, 0.3 / n)
    )
    data, shapes = [], []
    # the frame split once into numpy columns; each panel's rows in position order, finite ones only
    names = ("algorithm", "position", "relative", "state", "token_ratio", "ratio_used", "push", "outlier")
    cols = {c: df[c].to_numpy() for c in names} if algos else {}
    for k, algo in enumerate(algos):
        rows = np.flatnonzero(cols["algorithm"] == algo)
        rows = rows[np.argsort(cols["position"][rows], kind="quicksort")]  # as DataFrame.sort_values
        rows = rows[np.isfinite(cols["relative"][rows].astype(float))]
        d = {c: v[rows] for c, v in cols.items()}
        style = style_or_default(algo)
        label = _name(labels, algo)
        states = [_l(labels, f"state.{s}") for s in d["state"]]
        custom = [list(c) for c in zip(d["token_ratio"].tolist(), d["ratio_used"].tolist(), d["push"].tolist(), states)]
        axis = k + 1 if k else ""
        data.append(
            {
                "type": "bar",
                "x": d["position"].astype(int).tolist(),
                "y": d["relative"].astype(float).tolist(),
                "name": label,
                "showlegend": False,
                "marker": {
                    "color": style["color"],
                    "pattern": {"shape": ["/" if o else "" for o in d["outlier"]], "fgcolor": "#ffffff"},
                    "line": {"color": style["color"], "width": 0.5},
                },
                "customdata": custom,
                "hovertemplate": (
                    f"{label}<br>{position} %{{x}}<br>r<sub>t</sub> = %{{customdata[0]:.4g}}"
                    f"<br>{ratio_used} = %{{customdata[1]:.5g}}<br>{push}: %{{customdata[2]:.4g}}"
                    f"<br>÷ r=1: %{{y:.3g}}<br>%{{customdata[3]}}<extra></extra>"
                ),
                "xaxis": f"x{axis}",
                "yaxis": f"y{axis}",
            }
        )
        # the dotted line at 1 of each panel (what add_hline gives)
        shapes.append(
            {
                "line": {"color": "#000000", "dash": "dot", "width": 1},
                "type": "line",
                "x0": 0,
                "x1": 1,
                "xref": f"x{axis} domain",
                "y0": 1.0,
                "y1": 1.0,
                "yref": f"y{axis}",
            }
        )
    if algos and "position" in df.columns:
        # grey bands behind the outliers: one per run of adjacent outlier positions, in every panel
        first = cols["algorithm"] == algos[0]
        runs = _runs(sorted(int(p) for p in cols["position"][first & cols["outlier"].astype(bool)]))
        if len(runs) <= MAX_BANDS:
            shapes += [
                {
                    "type": "rect",
                    "xref": f"x{k + 1 if k else ''}",
                    "yref": f"y{k + 1 if k else ''} domain",
                    "x0": a - 0.5,
                    "x1": b + 0.5,
                    "y0": 0,
                    "y1": 1,
                    "fillcolor": "#999999",
                    "opacity": 0.18,
                    "line": {"width": 0},
                    "layer": "below",
                }
                for k in range(n)
                for a, b in runs
            ]
    if shapes:
        layout["shapes"] = shapes
    for k in range(n):
        yaxis = layout[f"yaxis{k + 1 if k else ''}"]
        yaxis["rangemode"] = "tozero"
        if k + 1 == (n + 1) // 2:
            yaxis["title"] = {"text": _l(labels, "relative")}
    layout[f"xaxis{n if n > 1 else ''}"]["title"] = {"text": position}
    layout["bargap"] = 0.15
    # subplot titles: at the left edge of the panel, not centred, so the name always shows
    for annotation, text in zip(layout.get("annotations", []), [t for t in titles if t]):
        annotation.update(text=text, font={"size": 13}, x=0.0, xanchor="left")
    return _figure(data, layout, height=max(260, 130 * n + 90))


@functools.lru_cache(maxsize=64)
def _subplot_grid(rows: int, cols: int, titled: tuple[bool, ...], options: str) -> str:
    """``make_subplots(rows, cols, **options)``'s layout as JSON text, without a template; a
    subplot title is a placeholder for each true entry of ``titled`` (an empty title has no
    annotation, as in ``make_subplots``)."""
    titles = [f"title {i}" if on else "" for i, on in enumerate(titled)] or None
    fig = make_subplots(rows=rows, cols=cols, subplot_titles=titles, **json.loads(options))
    layout = fig.layout.to_plotly_json()
    layout.pop("template", None)
    return json.dumps(layout)


def _subplot_layout(rows: int, cols: int, titled: tuple[bool, ...], **options) -> dict:
    """A fresh copy of the layout ``make_subplots`` gives (axes, domains, shared axes, subplot title
    annotations in order, each with placeholder text): computed once per shape, then copied."""
    return json.loads(_subplot_grid(rows, cols, titled, json.dumps(options, sort_keys=True)))


@functools.lru_cache(maxsize=32)
def _base(height: int, template: str | None) -> str:
    """What :func:`rlviz.plots.base_layout` (``height``) sets on a figure, as JSON text: applied once
    to an empty figure and read back (the template only where it sets one: another default was on)."""
    layout = base_layout(go.Figure(), height=height).layout.to_plotly_json()
    if template == TEMPLATE:  # the default: every new figure gets it anyway
        layout.pop("template", None)
    return json.dumps(layout)


def _merged(base: dict, over: dict) -> dict:
    """``base`` updated by ``over`` as ``update_layout`` does: nested dicts merge, other values replace."""
    out = dict(base)
    for key, value in over.items():
        out[key] = _merged(out[key], value) if isinstance(value, dict) and isinstance(out.get(key), dict) else value
    return out


def _figure(data: list[dict], layout: dict, height: int) -> go.Figure:
    """One validated figure from plain ``data`` and ``layout``, with the app's look:
    ``base_layout(fig, height=height)`` then ``layout`` over it, as if updated in that order
    (plotly's update machinery costs more than the build for a figure of many panels)."""
    return go.Figure(data=data, layout=_merged(json.loads(_base(height, pio.templates.default)), layout))


def noise_figure(df: pd.DataFrame, labels: Mapping[str, str]) -> go.Figure:
    """Two panels of a ``noise_sweep`` frame, both against length on a log axis.

    Left (log-log): the measured variance of log s (in the colour of the frame's sequence-level
    algorithm) and of the log of the plain product of token ratios (grey, dashed). Right: the share
    each algorithm of the frame (a ``<algorithm>_clip_fraction`` column) clips at its default ε,
    in its colour and dash, in registry order.

    ``labels``: ``var_title``, ``clip_title`` (the panel titles), ``length_axis`` (the x axis title),
    ``var_s``, ``var_product`` and ``clip.<algorithm>`` for each algorithm (the lines' legend names).
    """
    titles = [_l(labels, "var_title"), _l(labels, "clip_title")]
    layout = _subplot_layout(1, 2, tuple(bool(t) for t in titles), horizontal_spacing=0.12)
    annotations = list(zip(layout.get("annotations", []), [t for t in titles if t]))
    for annotation, text in annotations:
        annotation["text"] = text
    suffix = "_clip_fraction"
    algos = ordered(c.removesuffix(suffix) for c in df.columns if c.endswith(suffix))
    clips = [f"{a}{suffix}" for a in algos]
    needed = ["length", "var_log_s", "var_log_product", *clips]
    if df.empty or not clips or not set(needed).issubset(df.columns):
        return _figure([], layout, height=380)
    d = df[needed].apply(pd.to_numeric, errors="coerce")
    d = d[np.isfinite(d).all(axis=1) & (d["var_log_s"] > 0) & (d["var_log_product"] > 0)].sort_values("length")
    x = d["length"].astype(int).tolist()
    # log s is the sequence-level algorithm's ratio (the registry says which one's is)
    sequence = next((a for a in algos if a in ALGORITHMS and ALGORITHMS[a].ratio_level == "sequence"), algos[0])
    s_style = style_or_default(sequence)
    lines = [
        (1, "var_log_s", _l(labels, "var_s"), s_style["color"], s_style["dash"], ".3g"),
        (1, "var_log_product", _l(labels, "var_product"), OKABE_ITO["grey"], "dash", ".3g"),
    ]
    for algo, column in zip(algos, clips):
        style = style_or_default(algo)
        fmt = ".1%" if algo == sequence else ".2%"  # a sequence-level ratio clips whole responses: larger shares
        lines.append((2, column, _l(labels, f"clip.{algo}"), style["color"], style["dash"], fmt))
    data = [
        {
            "type": "scatter",
            "x": x,
            "y": d[column].astype(float).tolist(),
            "name": name,
            "mode": "lines+markers",
            "line": {"color": color, "dash": dash, "width": 2},
            "marker": {"size": 6, "color": color},
            "hovertemplate": f"{name}<br>L = %{{x}}<br>%{{y:{fmt}}}<extra></extra>",
            "xaxis": "x" if col == 1 else "x2",
            "yaxis": "y" if col == 1 else "y2",
        }
        for col, column, name, color, dash, fmt in lines
    ]
    for xaxis in ("xaxis", "xaxis2"):
        layout[xaxis].update(type="log", dtick=1, title={"text": _l(labels, "length_axis")})
    # decades written 10⁻⁴ (as the text and GSPO's ε are), not SI "100μ"
    layout["yaxis"].update(type="log", dtick=1, exponentformat="power")
    top = float(d[clips].to_numpy().max()) if len(d) else 1.0
    layout["yaxis2"].update(tickformat=".0%", range=[0, max(0.05, min(1.0, top * 1.15))])
    layout.update(legend={"yref": "container", "y": 1.0, "yanchor": "top"}, margin={"t": 80})
    for annotation, _ in annotations:
        annotation["font"] = {"size": 13}
    return _figure(data, layout, height=400)
