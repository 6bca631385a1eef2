"""Figures of the rollout-training mismatch page (plotly, no Streamlit).

Every builder takes frames of :mod:`rlviz.experiments.mismatch` and one ``labels`` mapping of
already-translated texts whose keys its docstring lists (a missing key shows the key itself). NaN /
inf values are dropped, never drawn; an empty frame gives an empty but valid figure.

Colours derive from the registries' order: each correction of ``CORRECTIONS`` takes the next
colour of ``PALETTE`` (and a dash), the samplers of ``SAMPLERS`` likewise (a sampler whose kept set
the trainer replays in its truncation's colour); the live run's arms are the corrections' colours, with
the matched control in black and the fp16, mask-replay and R3 arms after them.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from rlviz.core.corrections import CORRECTIONS
from rlviz.experiments.mismatch import LIVE_ARM_KEYS, MASK_REPLAYS, SAMPLERS

from . import DASHES, OKABE_ITO, PALETTE, base_layout
from .moe import LEGEND_ROW_PX, TITLE_LINE_PX, legend_rows, wrap_title

__all__ = ["ARM_STYLES", "CORRECTION_STYLES", "SAMPLER_STYLES", "correction_figure", "log_ratio_grid"]

_COLOURS = [c for c in PALETTE if c != "#000000"]
CORRECTION_STYLES: dict[str, dict[str, str]] = {
    name: {"color": _COLOURS[i % len(_COLOURS)], "dash": DASHES[i % len(DASHES)]} for i, name in enumerate(CORRECTIONS)
}
# a sampler replaying a truncation's kept set (MASK_REPLAYS) takes that truncation's colour
_OWN = [name for name in SAMPLERS if name not in MASK_REPLAYS]
SAMPLER_STYLES: dict[str, dict[str, str]] = {
    name: {"color": _COLOURS[_OWN.index(MASK_REPLAYS.get(name, name)) % len(_COLOURS)], "dash": "solid"}
    for name in SAMPLERS
}
_EXTRA = {
    "matched": {"color": OKABE_ITO["black"], "dash": "solid"},
    "float16": {"color": _COLOURS[len(CORRECTIONS) % len(_COLOURS)], "dash": "longdash"},
    "mask_replay": {"color": _COLOURS[(len(CORRECTIONS) + 2) % len(_COLOURS)], "dash": "dashdot"},
    "r3": {"color": _COLOURS[(len(CORRECTIONS) + 1) % len(_COLOURS)], "dash": "longdashdot"},
}
ARM_STYLES: dict[str, dict[str, str]] = {k: _EXTRA.get(k) or CORRECTION_STYLES[k] for k in LIVE_ARM_KEYS}
BINS = 41
ROW_GAP_PX = 44  # between two rows of the log-ratio grid: the upper row's x tick labels and a gap


def _l(labels: Mapping[str, str], key: str) -> str:
    return labels.get(key, key)


def _finite(values) -> np.ndarray:
    a = pd.to_numeric(pd.Series(values, dtype=object), errors="coerce").to_numpy(dtype=float)
    return a[np.isfinite(a)]


def _span(values: np.ndarray) -> tuple[float, float]:
    """The bins' range: 0.5th to 99.5th percentile, widened to hold 0 and to a width of at least
    1e-6 (a float32 sampler's log-ratios are all exactly 0)."""
    if not len(values):
        return -1e-6, 1e-6
    lo, hi = (float(q) for q in np.quantile(values, [0.005, 0.995]))
    lo, hi = min(lo, 0.0), max(hi, 0.0)
    if hi - lo < 2e-6:
        mid = (hi + lo) / 2
        lo, hi = mid - 1e-6, mid + 1e-6
    return lo, hi


def log_ratio_grid(
    tokens: pd.DataFrame, sequences: pd.DataFrame, labels: Mapping[str, str], *, row_height: int = 120
) -> go.Figure:
    """The log-ratio l = log pi_train - log pi_rollout, one row per sampler: per token (left) and
    summed over each response (right), each panel on its own x range (the samplers differ by orders
    of magnitude), as the share of tokens / responses per bin; a dotted line at 0 (no mismatch).

    Args:
        tokens, sequences: ``MismatchResult.tokens`` / ``.sequences``.
        labels: ``sampler.<name>`` (row names), ``panel.token``, ``panel.sequence`` (column titles),
            ``share`` (y axis and hover), ``log_ratio`` (x axis title of the last row); optionally
            ``title`` (the figure's title, above the column titles).
    """
    samplers = [s for s in SAMPLERS if not tokens.empty and (tokens["sampler"] == s).any()]
    rows = max(len(samplers), 1)
    title = labels.get("title")
    # each row has its own x range, so its own x tick labels under it: the rows stand ROW_GAP_PX apart
    # (an upper row's tick labels clear of the lower row's bars), each panel row_height tall
    top = 74 if title else 40
    height = max(260, row_height * rows + ROW_GAP_PX * (rows - 1) + 110) + (34 if title else 0)
    fig = make_subplots(
        rows=rows,
        cols=2,
        column_titles=[_l(labels, "panel.token"), _l(labels, "panel.sequence")],
        # a row's name reads down its right side, in lines about as long as the panel is tall (text_px
        # measures 13 px text, these are 12 px: "float32 (the policy)" stays one line beside a 120 px panel)
        row_titles=[wrap_title(_l(labels, f"sampler.{s}"), row_height + 20) for s in samplers] or None,
        horizontal_spacing=0.12,  # room for the left panels' last tick label and the right panels' first
        vertical_spacing=min(ROW_GAP_PX / (height - top - 50), 0.9 / rows),  # 50: base_layout's bottom margin
    )
    share = _l(labels, "share")
    for i, s in enumerate(samplers):
        style = SAMPLER_STYLES[s]
        for col, (frame, column) in enumerate(((tokens, "log_ratio"), (sequences, "log_ratio_sum")), start=1):
            values = _finite(frame.loc[frame["sampler"] == s, column])
            lo, hi = _span(values)
            edges = np.linspace(lo, hi, BINS + 1)
            counts, _ = np.histogram(np.clip(values, lo, hi), bins=edges)
            centres = (edges[:-1] + edges[1:]) / 2
            name = _l(labels, f"sampler.{s}")
            fig.add_trace(
                go.Bar(
                    x=centres.tolist(),
                    y=(counts / max(len(values), 1)).tolist(),
                    width=float(edges[1] - edges[0]),
                    marker={"color": style["color"]},
                    name=name,
                    showlegend=False,
                    customdata=np.stack([edges[:-1], edges[1:]], axis=1).tolist(),
                    hovertemplate=f"{name}<br>[%{{customdata[0]:.3g}}, %{{customdata[1]:.3g}}): "
                    f"{share} %{{y:.1%}}<extra></extra>",
                ),
                row=i + 1,
                col=col,
            )
            fig.add_vline(x=0.0, line={"color": "#555555", "dash": "dot", "width": 1}, row=i + 1, col=col)
    base_layout(fig, height=height)
    fig.update_layout(bargap=0, margin={"t": top, "r": 110})
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
    fig.update_yaxes(tickformat=".0%", rangemode="tozero", nticks=3)
    fig.update_xaxes(exponentformat="e", nticks=6)
    for col in (1, 2):
        fig.update_xaxes(title_text=_l(labels, "log_ratio"), row=rows, col=col)
    fig.update_annotations(font={"size": 12})
    # the row names clear of the right panels' edge (make_subplots puts them 2% of the width inside it)
    fig.update_annotations(selector={"textangle": 90}, x=1.0, xshift=6)
    return fig


def correction_figure(
    curves: pd.DataFrame, labels: Mapping[str, str], trust: pd.DataFrame | None = None, *, height: int = 400
) -> go.Figure:
    """Each correction's weight against the ratio pi_train / pi_rollout (log x axis), one line per
    correction (``CORRECTION_STYLES``), a dotted line at r = 1; beside it, when ``trust`` is given, the
    trust region's gradient weight against pi_theta / pi_old for A > 0 and A < 0 on the same axis.

    Args:
        curves: ``correction_curves()`` (``correction, ratio, weight``).
        labels: ``name.<correction>`` (legend names), ``ratio`` (x axis), ``weight`` (y axis),
            ``panel.corrections`` / ``panel.trust`` (panel titles), ``trust_ratio`` (the right x
            axis), ``trust_weight`` (its y axis), ``adv.pos`` / ``adv.neg`` (its legend names).
        trust: ``trust_region_curves()`` (``advantage, ratio, gradient_weight``) or ``None``.
    """
    cols = 2 if trust is not None else 1
    # each panel's title in lines that fit the panel in a 1024 px window (about 200 px wide side by side)
    titles = [
        wrap_title(_l(labels, key), 200 if cols == 2 else 420) for key in ("panel.corrections", "panel.trust")[:cols]
    ]
    fig = make_subplots(rows=1, cols=cols, subplot_titles=titles, horizontal_spacing=0.1)
    for name in CORRECTIONS:
        part = curves[curves["correction"] == name] if not curves.empty else curves
        if part.empty:
            continue
        x, y = part["ratio"].to_numpy(float), part["weight"].to_numpy(float)
        ok = np.isfinite(x) & np.isfinite(y)
        style, title = CORRECTION_STYLES[name], _l(labels, f"name.{name}")
        fig.add_trace(
            go.Scatter(
                x=x[ok].tolist(),
                y=y[ok].tolist(),
                mode="lines",
                name=title,
                line={"color": style["color"], "dash": style["dash"], "width": 2.4},
                hovertemplate=f"{title}<br>r = %{{x:.3g}}<br>{_l(labels, 'weight')} %{{y:.3g}}<extra></extra>",
            ),
            row=1,
            col=1,
        )
    if trust is not None:
        for advantage, key, color in ((1.0, "adv.pos", OKABE_ITO["black"]), (-1.0, "adv.neg", "#777777")):
            part = trust[trust["advantage"] == advantage]
            x, y = part["ratio"].to_numpy(float), part["gradient_weight"].to_numpy(float)
            ok = np.isfinite(x) & np.isfinite(y)
            name = _l(labels, key)
            fig.add_trace(
                go.Scatter(
                    x=x[ok].tolist(),
                    y=y[ok].tolist(),
                    mode="lines",
                    name=name,
                    line={"color": color, "dash": "solid" if advantage > 0 else "dash", "width": 2.4},
                    hovertemplate=f"{name}<br>r = %{{x:.3g}}<br>{_l(labels, 'trust_weight')} %{{y:.3g}}<extra></extra>",
                ),
                row=1,
                col=2,
            )
    # from the top: the legend in as many rows as it takes at 1024 px, then the panel titles; the plot keeps
    # the height it has under a one-row legend and one-line titles
    names = [t.name for t in fig.data]
    top = 8 + legend_rows(names) * LEGEND_ROW_PX + max(t.count("<br>") + 1 for t in titles) * TITLE_LINE_PX + 14
    base_layout(fig, height=height + max(0, top - 100))
    ratios = curves["ratio"].to_numpy(float) if not curves.empty else np.array([1.0])
    ticks = [t for t in (0.2, 0.3, 0.5, 0.7, 1, 1.5, 2, 3, 5, 10) if ratios.min() <= t <= ratios.max()]
    fig.update_xaxes(type="log", tickvals=ticks, ticktext=[f"{t:g}" for t in ticks])
    fig.update_xaxes(title_text=_l(labels, "ratio"), row=1, col=1)
    fig.update_yaxes(title_text=_l(labels, "weight"), row=1, col=1)
    if trust is not None:
        fig.update_xaxes(title_text=_l(labels, "trust_ratio"), row=1, col=2)
        fig.update_yaxes(title_text=_l(labels, "trust_weight"), row=1, col=2)
    for col in range(1, cols + 1):
        fig.add_vline(x=1.0, line={"color": "#555555", "dash": "dot", "width": 1}, row=1, col=col)
    fig.update_layout(legend={"yref": "container", "y": 1.0, "yanchor": "top"}, margin={"t": max(top, 100)})
    fig.update_annotations(font={"size": 13})
    return fig
