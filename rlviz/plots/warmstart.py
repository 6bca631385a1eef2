"""Figures of the "Why SFT before RL?" page (plotly, no Streamlit).

Each builder takes data frames from :mod:`rlviz.experiments.warmstart` and one ``labels`` mapping of
already-translated texts whose keys its docstring lists (a missing key shows the key itself). NaN / inf
values are never drawn. The outcome colours are the sampling page's (``rlviz.plots.sampling
.OUTCOME_COLORS``: all wrong and all right pale, mixed green), so "no signal" looks the same on both
pages; the two arms of the live run have fixed styles (:data:`ARM_STYLES`): the warm start in GRPO's
colour (both arms are GRPO), the weak one in vermillion, dashed.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd
import plotly.graph_objects as go

from . import OKABE_ITO, _assemble, algorithm_style
from .live import live_metrics_figure
from .sampling import OUTCOME_COLORS

__all__ = ["ARM_STYLES", "live_figure", "outcome_figure"]

ARM_STYLES: dict[str, dict[str, str]] = {
    "warm": {"color": algorithm_style("grpo")["color"], "dash": "solid"},
    "weak": {"color": OKABE_ITO["vermillion"], "dash": "dash"},
}
_OUTCOMES = ("all_wrong", "mixed", "all_correct")
_LABEL_FROM = 0.07  # a bar segment shows its share as text from this share up (smaller ones: hover only)


def _l(labels: Mapping[str, str], key: str) -> str:
    return labels.get(key, key)


def outcome_figure(
    outcomes: pd.DataFrame,
    labels: Mapping[str, str],
    *,
    starts: Sequence[str] = ("warm", "weak"),
    hidden: Sequence[str] = (),
    chosen: int | None = None,
    height: int = 340,
) -> go.Figure:
    """What a group looks like from each start: one panel per start (side by side, a shared y axis), one
    stacked bar per group size G with the shares of its groups all wrong, mixed (a learning signal) and
    all right; the bar of ``chosen`` G drawn full, the others lighter.

    Args:
        outcomes: :attr:`rlviz.experiments.warmstart.StartMeasurement.outcomes` (``start, group_size,
            outcome, groups, share``).
        labels: ``start.<start>`` (each panel's title), ``outcome.<outcome>`` (the legend names, also in
            the hover), ``group_axis`` (the x axis title, also in the hover), ``share_axis`` (the y axis
            title), ``groups`` (the hover's word for the count of groups), ``hidden`` (the line in a
            hidden panel).
        starts: the starts to draw, in order, one panel each.
        hidden: starts whose panel stays empty but for the ``hidden`` line (a question about them waits
            for the learner's guess): their bars are not in the figure at all.
        chosen: the G the page reads its numbers at (None: every bar full).
    """
    starts = list(starts)
    cols = max(1, len(starts))
    layout = _assemble.subplots(
        1,
        cols,
        shared_yaxes=True,
        subplot_titles=tuple(_l(labels, f"start.{s}") for s in starts),
        horizontal_spacing=0.06,
    )
    sizes = sorted(int(g) for g in outcomes["group_size"].unique()) if not outcomes.empty else []
    names = [f"G = {g}" for g in sizes]
    traces = []
    notes = []
    for col, start in enumerate(starts, 1):
        if start in hidden:  # an empty frame with its line, so the panel keeps its place
            traces.append(
                {"type": "bar", "x": names, "y": [0.0] * len(names), "showlegend": False, "hoverinfo": "skip"}
                | {"marker": {"opacity": 0.0}, "xaxis": _assemble.ref("x", col), "yaxis": _assemble.ref("y", col)}
            )
            notes.append(
                {
                    "text": _l(labels, "hidden"),
                    "x": 0.5,
                    "y": 0.5,
                    "xref": f"{_assemble.ref('x', col)} domain",
                    "yref": f"{_assemble.ref('y', col)} domain",
                    "showarrow": False,
                    "font": {"size": 14, "color": "#555555"},
                }
            )
            continue
        part = outcomes[outcomes["start"] == start]
        for outcome in _OUTCOMES:
            rows = part[part["outcome"] == outcome].set_index("group_size").reindex(sizes)
            share = pd.to_numeric(rows["share"], errors="coerce").fillna(0.0).clip(0.0, 1.0).tolist()
            groups = pd.to_numeric(rows["groups"], errors="coerce").fillna(0).astype(int).tolist()
            opacity = [1.0 if chosen is None or g == chosen else 0.45 for g in sizes]
            traces.append(
                {
                    "type": "bar",
                    "x": names,
                    "y": share,
                    "name": _l(labels, f"outcome.{outcome}"),
                    "legendgroup": outcome,
                    "showlegend": col == 1,
                    "marker": {"color": OUTCOME_COLORS[outcome], "opacity": opacity},
                    "text": [f"{v:.0%}" if v >= _LABEL_FROM else "" for v in share],
                    "textposition": "inside",
                    "insidetextanchor": "middle",
                    "textfont": {"size": 11},
                    "customdata": groups,
                    "hovertemplate": f"{_l(labels, f'start.{start}')}<br>%{{x}}<br>"  # the title's two lines, then G
                    f"{_l(labels, f'outcome.{outcome}')}: %{{y:.1%}} (%{{customdata}} {_l(labels, 'groups')})"
                    "<extra></extra>",
                    "xaxis": _assemble.ref("x", col),
                    "yaxis": _assemble.ref("y", col),
                }
            )
    for col in range(1, cols + 1):
        x = layout.setdefault(_assemble.axis("x", col), {})
        _assemble.title(layout, _assemble.axis("x", col), _l(labels, "group_axis"))
        x["type"] = "category"
        y = layout.setdefault(_assemble.axis("y", col), {})
        y.update(range=[0, 1], tickformat=".0%")
    _assemble.title(layout, "yaxis", _l(labels, "share_axis"))
    for note in layout.get("annotations", ()):
        note.setdefault("font", {})["size"] = 13
    layout.setdefault("annotations", []).extend(notes)
    layout["barmode"] = "stack"
    after = {
        "legend": {"orientation": "h", "yref": "container", "y": 1.0, "yanchor": "top", "x": 0, "xanchor": "left"},
        "margin": {"t": 85, "r": 10},  # the legend's row above two-line panel titles
        "bargap": 0.25,
    }
    return _assemble.figure(traces, layout, height=height, after=after)


def live_figure(
    df: pd.DataFrame,
    metrics: Sequence[str],
    labels: Mapping[str, str],
    *,
    smooth: int | None = None,
    steps: int | None = None,
) -> go.Figure:
    """The live run, 2 x 2 small multiples (``rlviz.plots.live.live_metrics_figure`` over the arms), each
    arm in its :data:`ARM_STYLES`.

    Args:
        df: ``SideBySideRun.metrics_frame()`` (``arm``, ``step`` and the metric columns).
        metrics: the panels' metrics (``rlviz.experiments.warmstart.LIVE_METRICS``).
        labels: as ``live_metrics_figure``'s: ``<metric>`` (panel titles), ``step``, ``name.<arm>``,
            ``smoothed``, ``empty`` (the title before the first step).
        smooth, steps: as ``live_metrics_figure``'s.
    """
    fig = live_metrics_figure(df, metrics, labels, cols=2, panel_height=200, by="arm", smooth=smooth, steps=steps)
    for arm, style in ARM_STYLES.items():
        fig.update_traces(
            selector={"legendgroup": arm},
            line={"color": style["color"], "dash": style["dash"]},
            marker={"color": style["color"]},
        )
    for key in ("yaxis", "yaxis2", "yaxis3"):  # the three shares: 0 to 1, so the two arms compare at a glance
        fig.layout[key].range = [-0.02, 1.02]
    return fig
