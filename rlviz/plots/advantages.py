"""Figures of the advantages page (plotly, no Streamlit).

Builders take frames from :mod:`rlviz.experiments.advantages` and one ``labels`` mapping of
already-translated texts (keys listed in each docstring; a missing key shows the key itself, a missing
``name.<estimator>`` the registry title). One colour (and dash) per estimator, the same in both figures:
the spec's own ``style``, else the first unused colour of the plots' ``PALETTE`` in registry order
(:func:`estimator_style`). NaN / inf values are dropped, never drawn.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from rlviz.core.estimators import ESTIMATORS

from . import DASHES, OKABE_ITO, PALETTE
from ._assemble import figure, subplots

__all__ = ["advantage_bars_figure", "difficulty_bias_figure", "estimator_style"]


def estimator_style(name: str) -> dict[str, str]:
    """The fixed colour and dash of estimator ``name``: its spec's ``style``, else the first
    (colour, dash) of ``PALETTE`` x ``DASHES`` no other estimator uses, in registry order; grey for a
    name the registry does not know. A new dict."""
    styles = {n: dict(s.style) for n, s in ESTIMATORS.items() if s.style}
    used = {(s["color"], s["dash"]) for s in styles.values()}
    free = iter([(c, d) for d in DASHES for c in PALETTE if (c, d) not in used])
    for n in ESTIMATORS:
        if n not in styles:
            color, dash = next(free)
            styles[n] = {"color": color, "dash": dash}
    return styles.get(name, {"color": OKABE_ITO["grey"], "dash": "solid"})


def _order(names) -> list[str]:
    present = list(dict.fromkeys(names))
    return [n for n in ESTIMATORS if n in present] + sorted(n for n in present if n not in ESTIMATORS)


def _name(labels: Mapping[str, str], name: str) -> str:
    return labels.get(f"name.{name}", ESTIMATORS[name].title if name in ESTIMATORS else name)


def _l(labels: Mapping[str, str], key: str) -> str:
    return labels.get(key, key)


def _finite(df: pd.DataFrame, cols: Sequence[str]) -> pd.DataFrame:
    """The rows of ``df`` whose ``cols`` are all finite numbers (a non-number counts as NaN)."""
    try:
        values = df[list(cols)].to_numpy(dtype=float)  # fast path: numeric columns (None -> NaN)
    except (TypeError, ValueError):  # text or pd.NA in a column: coerced one by one
        values = df[list(cols)].apply(pd.to_numeric, errors="coerce").to_numpy(dtype=float)
    return df[np.isfinite(values).all(axis=1)]


def _by_estimator(df: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """``df`` split by its ``estimator`` column once (each part in its original row order)."""
    if df.empty:
        return {}
    return dict(tuple(df.groupby(df["estimator"].astype(str), sort=False)))


# the legend under the plot, at the figure's foot (container coordinates: plotly makes room for the rows a
# narrow window wraps its nine entries into), so it never covers a panel's title
_BELOW = {"margin": {"t": 40}, "legend": {"yref": "container", "y": 0.0, "yanchor": "bottom"}}


def _grid(cols: int, horizontal_spacing: float) -> dict:
    """The layout ``make_subplots(rows=1, cols=cols, subplot_titles=...)`` gives (axes, domains, one
    title annotation per panel, its text to fill in), as a fresh dict
    (:func:`rlviz.plots._assemble.subplots`)."""
    return subplots(1, cols, subplot_titles=tuple(str(i) for i in range(cols)), horizontal_spacing=horizontal_spacing)


def advantage_bars_figure(df: pd.DataFrame, labels: Mapping[str, str], *, height: int = 440) -> go.Figure:
    """Every estimator's advantage of every response of the group: grouped bars, one colour per
    estimator, responses along x.

    Args:
        df: ``advantage_table`` frame (``estimator, response, reward, second_reward, advantage``).
        labels: ``response_axis``, ``advantage_axis`` (the axis titles), ``reward``, ``second_reward``
            (hover words); ``response.<i>``: the tick text of response i (default ``#i``);
            ``name.<estimator>``: a legend name (default: the registry title).
    """
    traces = []
    parts = _by_estimator(df)
    for name in _order(parts):
        part = _finite(parts[name], ["response", "advantage"])
        legend = _name(labels, name)
        traces.append(
            {
                "type": "bar",
                "x": [labels.get(f"response.{int(i)}", f"#{int(i)}") for i in part["response"]],
                "y": part["advantage"].tolist(),
                "name": legend,
                "marker": {"color": estimator_style(name)["color"]},
                "customdata": np.stack([part["reward"], part["second_reward"]], axis=-1).tolist(),
                "hovertemplate": f"{legend}<br>%{{x}}<br>{_l(labels, 'advantage_axis')}: %{{y:.4g}}<br>"
                f"{_l(labels, 'reward')}: %{{customdata[0]:g}} · {_l(labels, 'second_reward')}: "
                f"%{{customdata[1]:g}}<extra></extra>",
            }
        )
    layout = {
        "xaxis": {"title": {"text": _l(labels, "response_axis")}},
        "yaxis": {"title": {"text": _l(labels, "advantage_axis")}},
        "shapes": [
            {
                "type": "line",
                "x0": 0,
                "x1": 1,
                "xref": "x domain",
                "y0": 0,
                "y1": 0,
                "yref": "y",
                "line": {"color": OKABE_ITO["grey"], "width": 1},
            }
        ],
    }
    # plain dicts, not validated again (a page rerun builds it; tests validate it)
    after = {"barmode": "group", "bargap": 0.2, "bargroupgap": 0.05, **_BELOW, "margin": {"t": 20}}
    return figure(traces, layout, height=height, after=after)


def difficulty_bias_figure(df: pd.DataFrame, labels: Mapping[str, str], *, height: int = 440) -> go.Figure:
    """Expected total |A| of a group vs its prompt's pass rate, one line per estimator: left its value,
    right over its own maximum (the shapes on one axis).

    Args:
        df: ``difficulty_bias`` frame (``estimator, pass_rate, weight, relative``).
        labels: ``pass_rate`` (x axis), ``weight_axis``, ``relative_axis`` (the two panels' y axes and
            titles); ``name.<estimator>``: a legend name (default: the registry title).
    """
    layout = _grid(2, 0.14)
    for note, key in zip(layout["annotations"], ("weight_axis", "relative_axis")):
        note["text"] = _l(labels, key)
    traces = []
    parts = _by_estimator(df)
    for name in _order(parts):
        part = _finite(parts[name], ["pass_rate", "weight", "relative"])
        style = estimator_style(name)
        legend = _name(labels, name)
        for col, value in ((1, "weight"), (2, "relative")):
            traces.append(
                {
                    "type": "scatter",
                    "x": part["pass_rate"].tolist(),
                    "y": part[value].tolist(),
                    "mode": "lines",
                    "name": legend,
                    "legendgroup": name,
                    "showlegend": col == 1,
                    "line": {"color": style["color"], "dash": style["dash"], "width": 2.2},
                    "hovertemplate": f"{legend}<br>{_l(labels, 'pass_rate')}: %{{x:.2f}}<br>"
                    f"{_l(labels, f'{value}_axis')}: %{{y:.3g}}<extra></extra>",
                    "xaxis": "x" if col == 1 else "x2",
                    "yaxis": "y" if col == 1 else "y2",
                }
            )
    for axis in ("xaxis", "xaxis2"):
        layout[axis].update(title={"text": _l(labels, "pass_rate")}, range=[0, 1])
    layout["yaxis"]["rangemode"] = "tozero"
    layout["yaxis2"].update(rangemode="tozero", range=[0, 1.05])
    # plain dicts, not validated again (a slider on the page rebuilds it; tests validate it)
    return figure(traces, layout, height=height, after=_BELOW)
