"""Figures of the length claims measured on make_sum (the length page's last section; no Streamlit here).

Each builder takes a table of :mod:`rlviz.experiments.length_claims` (one row per arm and seed, or per
arm, seed and length bin) and a ``labels`` mapping of already-translated texts (the keys each reads are
listed in its docstring; a missing key shows the key itself). Every arm is drawn in its registry colour
(``rlviz.plots.algorithm_style``) and named by its registry title (the table's ``title``); one point per
seed, never a NaN (a value that is not finite is left out).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from rlviz.experiments.length_claims import NOISE_KINDS

from . import OKABE_ITO, base_layout, style_or_default

__all__ = ["efficiency_figure", "length_change_figure", "noise_figure"]


def _l(labels: Mapping[str, str], key: str) -> str:
    return labels.get(key, key)


def _finite(frame: pd.DataFrame, column: str) -> pd.DataFrame:
    return frame[frame[column].map(lambda v: v is not None and math.isfinite(float(v)))]


def _per_seed(fig: go.Figure, table: pd.DataFrame, columns: tuple[str, ...], labels: Mapping[str, str], fmt: str):
    """One marker per (arm, seed) in each panel (``columns[i]`` in column i + 1): arm k at x = k, its seeds
    spread by 0.12 around it so that equal values stay apart; the x axis names the arms."""
    arms = list(dict.fromkeys(table["arm"]))
    titles = [table[table["arm"] == a]["title"].iloc[0] for a in arms]
    for col, column in enumerate(columns, start=1):
        for k, arm in enumerate(arms):
            rows = _finite(table[table["arm"] == arm], column)
            if rows.empty:
                continue
            n = len(rows)
            style = style_or_default(arm)
            fig.add_scatter(
                x=[k + 0.12 * (i - (n - 1) / 2) for i in range(n)],
                y=rows[column].tolist(),
                customdata=rows["seed"].tolist(),
                mode="markers",
                name=titles[k],
                showlegend=False,  # the x axis names the arms
                marker={"color": style["color"], "size": 11, "line": {"width": 1, "color": OKABE_ITO["black"]}},
                hovertemplate=f"{titles[k]}, {_l(labels, 'seed')} %{{customdata}}: %{{y:{fmt}}}<extra></extra>",
                row=1,
                col=col,
            )
    fig.update_xaxes(tickvals=list(range(len(arms))), ticktext=titles, range=[-0.5, len(arms) - 0.5])


def length_change_figure(table: pd.DataFrame, labels: Mapping[str, str], *, height: int = 380) -> go.Figure:
    """Left: each arm's change of the wrong answers' mean length (tokens, last window minus first), one point
    per seed, with a line at 0; right: its held-out pass@1 gain, one point per seed.

    Args:
        table: :func:`rlviz.experiments.length_claims.length_change_table`.
        labels: ``change`` and ``gain`` (the panels' titles and y axes), ``seed`` (the hover's word).

    Raises:
        ValueError: ``table`` lacks a column the figure reads (naming ``table``).
    """
    _require(table, ("arm", "title", "seed", "wrong_change", "heldout_gain"))
    fig = make_subplots(
        rows=1, cols=2, subplot_titles=(_l(labels, "change"), _l(labels, "gain")), horizontal_spacing=0.12
    )
    _per_seed(fig, table, ("wrong_change", "heldout_gain"), labels, "+.2f")
    fig.add_hline(y=0, line={"color": OKABE_ITO["grey"], "width": 1, "dash": "dot"}, row=1, col=1)
    base_layout(fig, height=height)
    fig.update_layout(margin={"t": 70})  # room for a title of two lines
    return fig


def noise_figure(table: pd.DataFrame, labels: Mapping[str, str], *, height: int = 400) -> go.Figure:
    """Three panels, one per noise figure (:data:`NOISE_KINDS`: per token, of the sum, of the mean), the
    variance of the token log-ratio by response-length bin on a log axis: per arm the mean over seeds as a
    line, its error bar from the lowest to the highest seed. Only the table's ``drawn`` bins (enough
    responses in every seed, finite and positive values) are drawn.

    Args:
        table: :func:`rlviz.experiments.length_claims.noise_table`.
        labels: ``token``, ``sum``, ``mean`` (the panels' titles), ``bin`` (x axis), ``variance`` (y axis).

    Raises:
        ValueError: ``table`` lacks a column the figure reads (naming ``table``).
    """
    _require(table, ("arm", "title", "seed", "lo", "bin", "drawn", *NOISE_KINDS))
    panels = ("token", "sum", "mean")
    fig = make_subplots(rows=1, cols=3, subplot_titles=[_l(labels, p) for p in panels], horizontal_spacing=0.08)
    drawn = table[table["drawn"]]
    for col, kind in enumerate(NOISE_KINDS, start=1):
        rows = drawn[drawn[kind] > 0]
        for arm in dict.fromkeys(rows["arm"]):
            mine = rows[rows["arm"] == arm]
            stats = mine.groupby("lo", sort=True).agg(
                bin=("bin", "first"), mean=(kind, "mean"), low=(kind, "min"), high=(kind, "max")
            )
            title = mine["title"].iloc[0]
            style = style_or_default(arm)
            fig.add_scatter(
                x=stats["bin"].tolist(),
                y=stats["mean"].tolist(),
                error_y={
                    "type": "data",
                    "symmetric": False,
                    "array": (stats["high"] - stats["mean"]).tolist(),
                    "arrayminus": (stats["mean"] - stats["low"]).tolist(),
                    "color": style["color"],
                    "thickness": 1,
                },
                mode="lines+markers",
                name=title,
                legendgroup=arm,
                showlegend=col == 1,
                line={"color": style["color"], "dash": style["dash"]},
                hovertemplate=f"{title}, %{{x}}: %{{y:.3g}}<extra></extra>",
                row=1,
                col=col,
            )
    fig.update_yaxes(type="log", dtick=1, exponentformat="power")  # decades only
    fig.update_xaxes(type="category", title_text=_l(labels, "bin"))
    fig.update_yaxes(title_text=_l(labels, "variance"), row=1, col=1)
    base_layout(fig, height=height)
    # the legend at the figure's foot (container coordinates: plotly makes room): on top it sat on the panels' titles
    fig.update_layout(margin={"t": 40}, legend={"yref": "container", "y": 0.0, "yanchor": "bottom"})
    return fig


def efficiency_figure(table: pd.DataFrame, labels: Mapping[str, str], *, height: int = 360) -> go.Figure:
    """Left: each arm's held-out pass@1 gain per 1,000 training rollouts; right: its clip fraction (share
    of response tokens clipped, mean over steps); one point per seed.

    Args:
        table: :func:`rlviz.experiments.length_claims.efficiency_table`.
        labels: ``per_k`` and ``clip`` (the panels' titles), ``seed`` (the hover's word).

    Raises:
        ValueError: ``table`` lacks a column the figure reads (naming ``table``).
    """
    _require(table, ("arm", "title", "seed", "gain_per_1k_rollouts", "clip_fraction"))
    fig = make_subplots(
        rows=1, cols=2, subplot_titles=(_l(labels, "per_k"), _l(labels, "clip")), horizontal_spacing=0.12
    )
    _per_seed(fig, table, ("gain_per_1k_rollouts", "clip_fraction"), labels, ".3f")
    fig.update_yaxes(rangemode="tozero")
    fig.update_yaxes(tickformat=".0%", row=1, col=2)
    base_layout(fig, height=height)
    fig.update_layout(margin={"t": 40})
    return fig


def _require(table: pd.DataFrame, columns: tuple[str, ...]) -> None:
    missing = [c for c in columns if c not in table]
    if missing:
        raise ValueError(f"table: lacks {', '.join(missing)}")
