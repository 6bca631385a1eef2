"""Fast figure assembly for the explorer pages' figure builders (no Streamlit here).

A page rebuilds its figures whenever a slider moves, and building a figure through plotly's API
(``make_subplots``, ``add_trace(row=, col=)``, ``add_vline``, ``update_layout``) validates every
property at every step: most of a rerun. A builder that uses these helpers instead writes its traces
and layout as plain dicts and makes the figure once (:func:`figure`), with

- the subplot grid that ``make_subplots`` gives, computed once per panel set (:func:`grid`);
- the app's common look that :func:`rlviz.plots.base_layout` sets, read off it once (:func:`look`);
- limit lines and bands as the layout shapes ``add_vline`` / ``add_vrect`` would add (:func:`vline`,
  :func:`vrect`).

The figure is not validated by plotly again (every property name and value kind is fixed in the
builder's code); each builder's tests validate its figures (``go.Figure(fig.to_dict())``).
"""

from __future__ import annotations

import base64
import copy
import functools
from collections.abc import Mapping

import numpy as np
import plotly.graph_objects as go
from _plotly_utils.utils import to_typed_array_spec  # plotly's typed-array encoder (what to_json uses)
from plotly.subplots import make_subplots

from . import base_layout

__all__ = ["axis", "figure", "grid", "look", "merge", "ref", "spec_arrays", "title", "typed_array", "vline", "vrect"]


@functools.lru_cache(maxsize=64)
def _subplots(rows: int, cols: int, options: tuple) -> dict:
    options = dict(options)
    if options.pop("secondary_y", False):
        options["specs"] = [[{"secondary_y": True}] * cols for _ in range(rows)]
    layout = make_subplots(rows=rows, cols=cols, **options).layout.to_plotly_json()
    layout.pop("template", None)  # the default template, applied again when the figure is made
    return layout


def subplots(rows: int, cols: int, **options) -> dict:
    """A fresh copy of the layout ``make_subplots(rows=rows, cols=cols, **options)`` gives (axes,
    domains, one annotation per entry of ``subplot_titles``), without the template; computed once
    per argument set. ``options`` must be hashable (tuples, not lists); ``secondary_y=True`` gives
    every panel a second y axis."""
    return copy.deepcopy(_subplots(rows, cols, tuple(sorted(options.items()))))


def grid(
    cols: int, titles=None, spacing: float | None = None, shared_y: bool = False, secondary_y: bool = False
) -> dict:
    """A fresh copy of the layout ``make_subplots`` gives one row of ``cols`` panels (axes,
    domains, the panel ``titles`` as annotations; ``secondary_y``: one panel with a second y axis),
    without the template. Computed once per argument set."""
    if secondary_y:
        return subplots(1, 1, secondary_y=True)
    return subplots(1, cols, subplot_titles=tuple(titles or ()), shared_yaxes=shared_y, horizontal_spacing=spacing)


@functools.lru_cache(maxsize=64)
def _look(height: int | None, title: str | None) -> dict:
    layout = base_layout(go.Figure(), height=height, title=title).layout.to_plotly_json()
    layout.pop("template", None)
    return layout


def look(height: int | None = None, title: str | None = None) -> dict:
    """What :func:`rlviz.plots.base_layout` sets with ``height`` and ``title`` (read off it once)."""
    return _look(height, title)


def merge(into: dict, update: Mapping) -> dict:
    """``into`` updated in place by ``update``, nested dicts merged (as ``update_layout`` does)."""
    for key, value in update.items():
        if isinstance(value, Mapping) and isinstance(into.get(key), dict):
            merge(into[key], value)
        else:
            into[key] = copy.deepcopy(value)
    return into


def axis(kind: str, col: int) -> str:
    """The layout key of panel ``col``'s ``kind`` ("x" / "y") axis: xaxis, xaxis2, ..."""
    return f"{kind}axis" if col == 1 else f"{kind}axis{col}"


def ref(kind: str, col: int) -> str:
    """A trace's or shape's reference to panel ``col``'s ``kind`` axis: x, x2, ..."""
    return kind if col == 1 else f"{kind}{col}"


def title(layout: dict, axis_key: str, text: str) -> None:
    """Axis ``axis_key``'s title (``update_xaxes(title_text=...)`` for one axis)."""
    layout.setdefault(axis_key, {}).setdefault("title", {})["text"] = text


def vline(x, col: int = 1, **line) -> dict:
    """The shape ``add_vline(x, row=1, col=col, line_...)`` adds: a vertical line across panel ``col``."""
    return {
        "type": "line",
        "x0": x,
        "x1": x,
        "xref": ref("x", col),
        "y0": 0,
        "y1": 1,
        "yref": f"{ref('y', col)} domain",
        "line": dict(line),
    }


def vrect(x0, x1, col: int = 1, **style) -> dict:
    """The shape ``add_vrect(x0, x1, row=1, col=col, ...)`` adds (``style``: fillcolor, opacity,
    line, layer)."""
    return {
        "type": "rect",
        "x0": x0,
        "x1": x1,
        "xref": ref("x", col),
        "y0": 0,
        "y1": 1,
        "yref": f"{ref('y', col)} domain",
        **copy.deepcopy(style),
    }


def typed_array(value: np.ndarray) -> dict:
    """A numeric array in plotly's typed-array form (``{"dtype": "f8", "bdata": ...}``), what
    plotly's own encoder (``to_typed_array_spec``) sends; a 1-D float64 array directly (the
    encoder is about 30x slower per array)."""
    if value.dtype == np.float64 and value.ndim == 1 and value.size:
        return {"dtype": "f8", "bdata": base64.b64encode(np.ascontiguousarray(value)).decode("ascii")}
    return to_typed_array_spec(value)


def spec_arrays(spec: dict) -> dict:
    """``spec`` (a figure's ``{"data": [...], "layout": {...}}``) with each trace's top-level arrays
    as plotly sends them: numeric ones typed (:func:`typed_array`), others (text) as lists. In place;
    returns ``spec``."""
    for trace in spec["data"]:
        for key, value in trace.items():
            if isinstance(value, np.ndarray):
                trace[key] = typed_array(value) if value.dtype.kind in "fiu" else value.tolist()
    return spec


def figure(
    traces: list[dict],
    layout: dict,
    height: int | None = None,
    title: str | None = None,
    after: Mapping | None = None,
    as_spec: bool = False,
) -> go.Figure | dict:
    """The figure of trace dicts and a layout dict in the app's common look (``base_layout`` with
    ``height`` and ``title`` applied over ``layout``), then ``after`` merged over it (what a builder
    changes after ``base_layout``, e.g. room for the legend above subplot titles). Not validated.

    ``as_spec``: the figure's plain spec dict instead (arrays as plotly sends them,
    :func:`spec_arrays`; no template, so plotly's default applies when it is made into a figure),
    which ``app_common.chart`` shows without building a ``go.Figure``, as ``figure_cache`` keeps."""
    merge(layout, look(height, title))
    if after:
        merge(layout, after)
    if as_spec:
        return spec_arrays({"data": traces, "layout": layout})
    return go.Figure({"data": traces, "layout": layout}, _validate=False)
