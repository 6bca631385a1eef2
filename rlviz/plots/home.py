"""Figures of the Home page: the family tree of the registry's algorithms."""

from __future__ import annotations

import textwrap
from collections.abc import Mapping

import plotly.graph_objects as go

from rlviz.core.objectives import ALGORITHMS
from rlviz.plots import base_layout, ordered, style_or_default, text_color_on

__all__ = ["lineage_figure", "lineage_layout"]


WRAP = 10  # characters per line of a box's label: a long title ("Bypass REINFORCE (verl)") takes lines, not width
GAP = 2.5  # character widths between two columns' boxes: room for the arrows
ROW_PX = 46  # pixels per row of the tallest column at the least (two-line labels); more when a label has three
FONT_PX = 12  # the labels' font size
LINE_PX = 15  # pixels per line of a label at FONT_PX (plotly: about 1.25 x the font size), its padding included
BOX_PAD_PX = 8  # pixels of the box above and below its label
BOX_SHARE = 0.92  # a box takes at most this share of its row: room between two boxes of a column


def label_px(lines: int) -> int:
    """Pixels a box needs to hold a label of ``lines`` lines (:data:`LINE_PX` each, :data:`BOX_PAD_PX` around)."""
    return lines * LINE_PX + BOX_PAD_PX


def row_px(max_lines: int) -> int:
    """Pixels per row of the tree when its longest label has ``max_lines`` lines: at least :data:`ROW_PX`, and
    enough that a box of :data:`BOX_SHARE` of the row holds that label (its coloured label background would
    stick out of a shorter box)."""
    return max(ROW_PX, -(-label_px(max_lines) * 100 // int(BOX_SHARE * 100)))


def _lines(title: str) -> list[str]:
    """A box's label as lines of at most :data:`WRAP` characters (a single longer word: its own line)."""
    return textwrap.wrap(title, WRAP, break_long_words=False) or [title]


def lineage_layout(parents: Mapping[str, str | None], titles: Mapping[str, str]) -> dict[str, dict[str, float]]:
    """Where each algorithm's box goes, computed from the tree alone (no position typed per name).

    Columns are generations (distance from a root); a column is as wide as its widest label (in character
    widths, at least 4) plus one, and columns are :data:`GAP` apart; rows are one unit apart, each column centred
    on the tallest. A row is :func:`row_px` pixels (the figure's height follows), and a box as tall as its
    label's lines (:func:`label_px`), at most :data:`BOX_SHARE` of a row, so no two boxes touch and every label
    fits its box whatever the labels.

    Returns:
        ``{name: {"x", "y", "w", "h", "lines"}}``: centre, width and height in axis units (x: character
        widths, y: rows), and the number of label lines.
    """
    names = ordered(parents)

    def depth(name: str, seen: tuple[str, ...] = ()) -> int:
        parent = parents.get(name)
        if parent is None or parent not in parents or name in seen:
            return 0
        return 1 + depth(parent, seen + (name,))

    levels: dict[int, list[str]] = {}
    for name in names:
        levels.setdefault(depth(name), []).append(name)
    tallest = max((len(v) for v in levels.values()), default=1)
    widths = {
        level: max(4, *(len(line) for n in members for line in _lines(titles[n]))) + 1
        for level, members in levels.items()
    }
    row = row_px(max((len(_lines(titles[n])) for n in names), default=1))
    out: dict[str, dict[str, float]] = {}
    left = 0.0
    for level in sorted(levels):
        members, width = levels[level], widths[level]
        offset = (tallest - len(members)) / 2
        for k, name in enumerate(members):
            lines = len(_lines(titles[name]))
            height = min(BOX_SHARE, label_px(lines) / row)
            out[name] = {"x": left + width / 2, "y": -(k + offset), "w": float(width), "h": height, "lines": lines}
        left += width + GAP
    return out


def lineage_figure(
    parents: Mapping[str, str | None], labels: Mapping[str, str], *, height: int | None = None
) -> go.Figure:
    """The family tree of the algorithms: one box per algorithm, an arrow from parent to child.

    Args:
        parents: algorithm -> the algorithm it refines (``None`` for a root).
        labels: optionally, for each algorithm, ``name.<algorithm>`` (its box label; a missing one:
            the registry title, else the name) and ``hover.<algorithm>`` (its hover text, e.g. the
            one-line summary; a missing one: the box label).
        height: pixels; ``None``: :func:`row_px` per row of the tallest column (at least 380).

    Columns are generations (distance from a root), laid out by :func:`lineage_layout`; boxes use the
    algorithm's colour.
    """
    names = ordered(parents)
    titles = {n: labels.get(f"name.{n}", ALGORITHMS[n].title if n in ALGORITHMS else n) for n in names}
    pos = lineage_layout(parents, titles)
    rows = 1 + max((-p["y"] for p in pos.values()), default=0)
    span = max((p["x"] + p["w"] / 2 for p in pos.values()), default=1.0)
    # every box, label and arrow in one list each, set on the layout at once (plotly validates a
    # list in one pass; add_shape / add_annotation per item cost most of the Home page's run)
    shapes: list[dict] = []
    annotations: list[dict] = []
    labels_on_top: list[dict] = []  # after the arrows, so that a label covers an arrow's end
    for name in names:
        x, y, w, h = pos[name]["x"], pos[name]["y"], pos[name]["w"], pos[name]["h"]
        style = style_or_default(name)
        shapes.append(
            {
                "type": "rect",
                "x0": x - w / 2,
                "x1": x + w / 2,
                "y0": y - h / 2,
                "y1": y + h / 2,
                "fillcolor": style["color"],
                "line": {"color": "#333333", "width": 1},
                "layer": "below",
            }
        )
        labels_on_top.append(
            {
                "x": x,
                "y": y,
                "text": "<br>".join(f"<b>{line}</b>" for line in _lines(titles[name])),
                "showarrow": False,
                "bgcolor": style["color"],
                "borderpad": 1,
                "font": {"color": text_color_on(style["color"]), "size": FONT_PX},
            }
        )
        parent = parents.get(name)
        if parent in pos:
            px, py, pw = pos[parent]["x"], pos[parent]["y"], pos[parent]["w"]
            annotations.append(
                {
                    "x": x - w / 2,
                    "y": y,
                    "ax": px + pw / 2,
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
            x=[pos[n]["x"] for n in names],
            y=[pos[n]["y"] for n in names],
            mode="markers",
            marker={"size": 40, "opacity": 0},
            hovertext=[labels.get(f"hover.{n}", titles[n]) for n in names],
            hoverinfo="text",
            showlegend=False,
        )
    )
    row = row_px(max((pos[n]["lines"] for n in names), default=1))
    base_layout(fig, height=height or max(380, int(rows * row) + 20))
    fig.update_xaxes(visible=False, range=[-0.5, span + 0.5])
    fig.update_yaxes(visible=False, range=[-(rows - 1) - 0.5, 0.5])
    fig.update_layout(margin={"l": 10, "r": 10, "t": 10, "b": 10}, dragmode=False)
    return fig
