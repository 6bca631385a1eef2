"""Figures of the interview page (plotly, no Streamlit): the session's score per topic.

Right and wrong answers are the Okabe-Ito blue and orange (told apart with any colour vision, and
in grey print by their lightness); each bar also carries its count as text.
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd
import plotly.graph_objects as go

from . import OKABE_ITO, base_layout

__all__ = ["VERDICT_COLORS", "score_figure"]

VERDICT_COLORS: dict[str, str] = {"right": OKABE_ITO["blue"], "wrong": OKABE_ITO["orange"]}


def _l(labels: Mapping[str, str], key: str) -> str:
    return labels.get(key, key)


def score_figure(frame: pd.DataFrame, labels: Mapping[str, str]) -> go.Figure:
    """Horizontal stacked bars: per topic, the answers given right and wrong.

    Args:
        frame: :func:`rlviz.teach.interview.score_table` (columns ``topic``, ``answered``,
            ``right``, ``wrong``, ``score``); topics with no answer are left out, in the frame's
            order from top to bottom.
        labels: already-translated texts: ``right``, ``wrong`` (the legend), ``answers`` (the x axis),
            ``score`` (the hover's word for the share right), ``topic.<key>`` (each topic's name; a
            missing one shows the key).

    Returns:
        the figure; an empty but valid one when nothing was answered.
    """
    fig = go.Figure()
    needed = {"topic", "answered", "right", "wrong", "score"}
    rows = frame[frame["answered"] > 0] if needed.issubset(frame.columns) else frame.iloc[0:0]
    names = [_l(labels, f"topic.{t}") for t in rows.get("topic", [])]
    for verdict in ("right", "wrong"):
        if rows.empty:
            break
        fig.add_trace(
            go.Bar(
                y=names,
                x=rows[verdict].astype(int).tolist(),
                name=_l(labels, verdict),
                orientation="h",
                marker={"color": VERDICT_COLORS[verdict]},
                text=[str(v) if v else "" for v in rows[verdict].astype(int)],
                textposition="inside",
                customdata=[f"{s:.0%}" for s in rows["score"]],
                hovertemplate=f"%{{y}}<br>{_l(labels, verdict)}: %{{x}}<br>{_l(labels, 'score')}: %{{customdata}}"
                "<extra></extra>",
            )
        )
    height = 120 + 40 * max(len(names), 1)
    base_layout(fig, height=height, x_title=_l(labels, "answers"))
    fig.update_layout(barmode="stack", legend={"traceorder": "normal"})
    fig.update_yaxes(autorange="reversed", automargin=True)
    fig.update_xaxes(rangemode="tozero", dtick=1 if rows.empty or int(rows["answered"].max()) <= 10 else None)
    return fig
