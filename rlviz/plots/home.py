"""Figures of the Home page: the family tree of the registry's algorithms."""

from __future__ import annotations

from collections.abc import Mapping

import plotly.graph_objects as go

from rlviz.core.objectives import ALGORITHMS
from rlviz.plots import base_layout, ordered, style_or_default, text_color_on

__all__ = ["lineage_figure"]


def lineage_figure(parents: Mapping[str, str | None], labels: Mapping[str, str], *, height: int = 380) -> go.Figure:
    """The family tree of the algorithms: one box per algorithm, an arrow from parent to child.

    Args:
        parents: algorithm -> the algorithm it refines (``None`` for a root).
        labels: optionally, for each algorithm, ``name.<algorithm>`` (its box label; a missing one:
            the registry title, else the name) and ``hover.<algorithm>`` (its hover text, e.g. the
            one-line summary; a missing one: the box label).

    Columns are generations (distance from a root); boxes use the algorithm's colour.
    """
    names = ordered(parents)
    titles = {n: labels.get(f"name.{n}", ALGORITHMS[n].title if n in ALGORITHMS else n) for n in names}

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
    # every box, label and arrow in one list each, set on the layout at once (plotly validates a
    # list in one pass; add_shape / add_annotation per item cost most of the Home page's run)
    shapes: list[dict] = []
    annotations: list[dict] = []
    labels_on_top: list[dict] = []  # after the arrows, so that a widened label covers an arrow's end
    for name in names:
        x, y = pos[name]
        style = style_or_default(name)
        shapes.append(
            {
                "type": "rect",
                "x0": x - box_w / 2,
                "x1": x + box_w / 2,
                "y0": y - box_h / 2,
                "y1": y + box_h / 2,
                "fillcolor": style["color"],
                "line": {"color": "#333333", "width": 1},
                "layer": "below",
            }
        )
        # the label carries the box's colour as its own background: a name wider than the box (GSPO-token
        # in a narrow column) widens its label instead of running out of the box in a colour that hides it
        labels_on_top.append(
            {
                "x": x,
                "y": y,
                "text": f"<b>{titles[name]}</b>",
                "showarrow": False,
                "bgcolor": style["color"],
                "borderpad": 1,
                "font": {"color": text_color_on(style["color"]), "size": 14},
            }
        )
        parent = parents.get(name)
        if parent in pos:
            px, py = pos[parent]
            annotations.append(
                {
                    "x": x - box_w / 2,
                    "y": y,
                    "ax": px + box_w / 2,
                    "ay": py,
                    "xref": "x",
                    "yref": "y",
                    "axref": "x",
                    "ayref": "y",
                    "showarrow": True,
                    "arrowhead": 2,
                    "arrowsize": 1.2,
                    "arrowwidth": 1.5,
                    "arrowcolor": "#555555",
                    "text": "",
                }
            )
    fig = go.Figure(layout={"shapes": shapes, "annotations": annotations + labels_on_top})
    fig.add_trace(
        go.Scatter(
            x=[pos[n][0] for n in names],
            y=[pos[n][1] for n in names],
            mode="markers",
            marker={"size": 40, "opacity": 0},
            hovertext=[labels.get(f"hover.{n}", titles[n]) for n in names],
            hoverinfo="text",
            showlegend=False,
        )
    )
    base_layout(fig, height=height)
    fig.update_xaxes(visible=False, range=[-0.5, max(levels, default=0) + 0.5])
    fig.update_yaxes(visible=False, range=[-(tallest - 1) - 0.5, 0.5])
    fig.update_layout(margin={"l": 10, "r": 10, "t": 10, "b": 10}, dragmode=False)
    return fig
