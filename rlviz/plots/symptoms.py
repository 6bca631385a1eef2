"""Figures of the Symptom-to-cause page (plotly, no Streamlit).

One figure: the metric that shows a symptom, per step, as measured by ``benchmarks/symptoms.py`` on
the shipped model with the reproducing settings and with its baseline arm (the label the page gives:
``rlviz.experiments.symptoms.baseline_label``, what the entry records it ran), and the
detector's threshold where it is a level on that metric. NaN values are dropped, never drawn.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import plotly.graph_objects as go

from . import OKABE_ITO, base_layout

__all__ = ["measured_figure"]


def _finite(values: Sequence[float]) -> tuple[list[int], list[float]]:
    pairs = [(i + 1, float(v)) for i, v in enumerate(values) if v is not None and math.isfinite(float(v))]
    return [p[0] for p in pairs], [p[1] for p in pairs]


def measured_figure(entry: Mapping, labels: Mapping[str, str], *, height: int = 340) -> go.Figure:
    """The measured metric per step: the reproduction (vermillion, solid) and the baseline arm (blue,
    dashed), from one entry of ``rlviz.experiments.symptoms.load_measured()["symptoms"]``.

    Args:
        entry: ``series`` and ``baseline_series`` (metric per step; a step may be NaN / None).
        labels: ``x`` (the step axis), ``y`` (the metric), ``reproduced``, ``baseline``; ``title``
            (optional: the page shows it as a caption under a figure in half a page).

    Returns:
        the figure (empty axes when the entry has no series).
    """
    fig = go.Figure()
    for key, series, color, dash in (
        ("reproduced", entry.get("series", []), OKABE_ITO["vermillion"], "solid"),
        ("baseline", entry.get("baseline_series", []), OKABE_ITO["blue"], "dash"),
    ):
        x, y = _finite(series or [])
        if x:
            fig.add_scatter(
                x=x,
                y=y,
                mode="lines+markers",
                name=labels.get(key, key),
                line={"color": color, "dash": dash},
                marker={"size": 5},
                hovertemplate=f"{labels.get(key, key)}<br>{labels.get('x', 'x')} %{{x}}: %{{y:.4g}}<extra></extra>",
            )
    base_layout(fig, title=labels.get("title"), height=height, x_title=labels.get("x"), y_title=labels.get("y"))
    # the legend at the figure's foot, under the step axis and its title (container coordinates: plotly
    # makes room for it): at the top, in half a page, it sat on the title
    fig.update_layout(legend={"yref": "container", "y": 0.0, "yanchor": "bottom"})
    return fig
