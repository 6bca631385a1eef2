"""Figures of the critic and GAE page (plotly, no Streamlit).

Every builder takes frames of :mod:`rlviz.experiments.critic` and one ``labels`` mapping of already
translated texts whose keys its docstring lists (a missing key shows the key itself). NaN values are
never drawn (padding cells of a heatmap stay blank); an empty frame gives an empty but valid figure.
PPO and GRPO keep their registry colours (``algorithm_style``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from . import DIVERGING_SCALE, OKABE_ITO, _visible, algorithm_style, base_layout

__all__ = ["group_figure", "lambda_figure", "length_figure", "live_figure", "position_figure"]

VALUE_SCALE = [[0.0, "#f7fbff"], [0.5, "#6baed6"], [1.0, "#08306b"]]  # V(s_t): light (0) to dark blue (1)
MONO = {"family": "DejaVu Sans Mono, Noto Sans Mono, monospace", "size": 13}


def _l(labels: Mapping[str, str], key: str) -> str:
    return labels.get(key, key)


def _grid(frame: pd.DataFrame, column: str, rows: int, width: int) -> list[list[float | None]]:
    """[rows, width] of ``column`` by (response, position), None where there is no token."""
    z = np.full((rows, width), np.nan)
    if column in frame.columns:
        for rec in frame[["response", "position", column]].itertuples(index=False):
            z[int(rec[0]) - 1, int(rec[1]) - 1] = float(rec[2])
    return [[float(v) if math.isfinite(v) else None for v in row] for row in z]


def group_figure(
    frame: pd.DataFrame, grpo: pd.DataFrame, labels: Mapping[str, str], *, held: bool = False
) -> go.Figure:
    """One group, three panels side by side with the responses as rows: the critic's V(s_t) per token,
    GAE's advantage per token, and GRPO's one advantage per response.

    Args:
        frame: :func:`rlviz.experiments.critic.gae_frame` (``response``, ``position``, ``token``,
            ``value``, ``advantage``, ``td``, ``advantage_mc``, ``return_mc``).
        grpo: :func:`rlviz.experiments.critic.grpo_frame` (``response``, ``reward``, ``advantage``).
        labels: ``values``, ``gae``, ``grpo`` (panel titles), ``position`` (x axis of the heatmaps),
            ``grpo_axis`` (x axis of the bars), ``token``, ``value``, ``advantage``, ``td``, ``mc``,
            ``return`` (hover words), ``row.<i>`` (response i's label, default "#i"), ``held`` (the
            text in the GAE panel while a question holds it back).
        held: draw the GAE panel empty with ``labels["held"]`` (its numbers answer a question).
    """
    fig = make_subplots(
        rows=1,
        cols=3,
        shared_yaxes=True,
        column_widths=[0.4, 0.4, 0.2],
        horizontal_spacing=0.025,
        subplot_titles=(_l(labels, "values"), _l(labels, "gae"), _l(labels, "grpo")),
    )
    if frame.empty:
        return base_layout(fig, height=260)
    G = int(frame["response"].max())
    width = int(frame["position"].max())
    y = [labels.get(f"row.{i}", f"#{i}") for i in range(1, G + 1)]
    x = list(range(1, width + 1))
    tokens = [["" for _ in x] for _ in y]
    for rec in frame[["response", "position", "token"]].itertuples(index=False):
        tokens[int(rec[0]) - 1][int(rec[1]) - 1] = _visible(str(rec[2]))
    value = _grid(frame, "value", G, width)
    adv = _grid(frame, "advantage", G, width)
    extra = [_grid(frame, c, G, width) for c in ("td", "advantage_mc", "return_mc")]  # the hover's numbers
    custom = [[[tokens[i][j], *(_fmt(g[i][j]) for g in extra)] for j in range(width)] for i in range(G)]
    common = {"x": x, "y": y, "text": tokens, "texttemplate": "%{text}", "textfont": MONO, "xgap": 2, "ygap": 2}
    common["hoverongaps"] = False
    words = {k: _l(labels, k) for k in ("token", "value", "advantage", "td", "mc", "return", "position")}
    hover = f"{words['token']}: %{{customdata[0]}}<br>{words['position']} %{{x}}<br>"
    finite_v = [v for row in value for v in row if v is not None]
    top = max([1.0, *finite_v])
    low = min([0.0, *finite_v])
    fig.add_trace(
        go.Heatmap(
            z=value,
            customdata=custom,
            colorscale=VALUE_SCALE,
            zmin=low,
            zmax=top,
            colorbar={
                "orientation": "h",
                "x": 0.2,
                "y": -0.26,
                "yanchor": "top",
                "len": 0.36,
                "thickness": 10,
                "xanchor": "center",
            },
            hovertemplate=hover
            + f"{words['value']}: %{{z:.3f}}<br>{words['return']}: %{{customdata[3]}}<extra>%{{y}}</extra>",
            **common,
        ),
        row=1,
        col=1,
    )
    if held:  # in paper coordinates at the middle panel's centre (its axes have no data to anchor to)
        left, right = fig.layout.xaxis2.domain
        fig.add_annotation(
            text=_l(labels, "held"), showarrow=False, xref="paper", yref="paper", x=(left + right) / 2, y=0.5,
            font={"size": 13, "color": OKABE_ITO["grey"]},
        )  # fmt: skip
        fig.update_xaxes(visible=False, row=1, col=2)
    else:
        finite = [abs(v) for row in adv for v in row if v is not None]
        zmax = max(finite) if finite and max(finite) > 0 else 1.0
        fig.add_trace(
            go.Heatmap(
                z=adv,
                customdata=custom,
                colorscale=DIVERGING_SCALE,
                zmid=0.0,
                zmin=-zmax,
                zmax=zmax,
                colorbar={
                    "orientation": "h",
                    "x": 0.61,
                    "y": -0.26,
                    "yanchor": "top",
                    "len": 0.36,
                    "thickness": 10,
                    "xanchor": "center",
                },
                hovertemplate=hover
                + f"{words['advantage']}: %{{z:.3f}}<br>{words['td']}: %{{customdata[1]}}<br>"
                + f"{words['mc']}: %{{customdata[2]}}<extra>%{{y}}</extra>",
                **common,
            ),
            row=1,
            col=2,
        )
    a = pd.to_numeric(grpo["advantage"], errors="coerce").fillna(0.0).tolist() if not grpo.empty else []
    fig.add_trace(
        go.Bar(
            x=a,
            y=y[: len(a)],
            orientation="h",
            marker={"color": [DIVERGING_SCALE[-1][1] if v > 0 else DIVERGING_SCALE[0][1] for v in a]},
            hovertemplate=f"{words['advantage']}: %{{x:.3f}}<extra>%{{y}}</extra>",
            showlegend=False,
        ),
        row=1,
        col=3,
    )
    base_layout(fig, height=max(290, 30 * G + 180))
    fig.update_layout(margin={"l": 70, "r": 10, "t": 40, "b": 105})
    fig.update_yaxes(autorange="reversed", type="category", row=1, col=1)
    span = {"range": [0.5, width + 0.5], "dtick": 1 if width <= 20 else 5, "showgrid": False}
    fig.update_xaxes(title_text=_l(labels, "position"), row=1, col=1, **span)
    if not held:
        fig.update_xaxes(title_text=_l(labels, "position"), row=1, col=2, **span)
    fig.update_xaxes(title_text=_l(labels, "grpo_axis"), zeroline=True, zerolinecolor="#888", row=1, col=3)
    return fig


def _fmt(v: float | None) -> str:
    return "" if v is None else f"{v:+.3f}"


def lambda_figure(frame: pd.DataFrame, response: int, labels: Mapping[str, str]) -> go.Figure:
    """One response of the group: its tokens' advantage at lambda = 0, at the slider's lambda and at
    lambda = 1, and the critic's V(s_t), against the token's position.

    Args:
        frame: :func:`rlviz.experiments.critic.gae_frame`.
        response: which response (1..G).
        labels: ``td``, ``advantage``, ``mc``, ``value`` (legend names), ``position``, ``y`` (axis
            titles), ``title`` (the figure's title).
    """
    d = frame[frame["response"] == response] if not frame.empty else frame
    fig = go.Figure()
    if not d.empty:
        x = d["position"].astype(int).tolist()
        ticks = [f"{p}<br>{_visible(str(tok))}" for p, tok in zip(x, d["token"])]
        lines = (
            ("td", "td", OKABE_ITO["vermillion"], "dash"),
            ("advantage", "advantage", OKABE_ITO["black"], "solid"),
            ("advantage_mc", "mc", OKABE_ITO["blue"], "dot"),
            ("value", "value", OKABE_ITO["grey"], "dashdot"),
        )
        for column, word, color, dash in lines:
            fig.add_trace(
                go.Scatter(
                    x=x,
                    y=pd.to_numeric(d[column], errors="coerce").astype(float).tolist(),
                    mode="lines+markers",
                    name=_l(labels, word),
                    line={"color": color, "dash": dash},
                    hovertemplate=f"{_l(labels, word)}: %{{y:.3f}}<extra>{_l(labels, 'position')} %{{x}}</extra>",
                )
            )
        fig.update_xaxes(tickvals=x, ticktext=ticks)
    base_layout(fig, title=_l(labels, "title"), height=300, x_title=_l(labels, "position"), y_title=_l(labels, "y"))
    fig.update_layout(legend={"y": -0.42, "yanchor": "top"}, margin={"b": 90})
    return fig


def position_figure(late: pd.DataFrame, early: pd.DataFrame, labels: Mapping[str, str]) -> go.Figure:
    """The critic against the returns by token position: left, the mean value V(s_t) and the mean
    discounted return over the run's late steps; right, the root mean square of V - return, early steps
    against late steps.

    Args:
        late, early: :func:`rlviz.experiments.critic.error_by_position` over the late and the early steps.
        labels: ``left``, ``right`` (panel titles), ``value``, ``return``, ``early``, ``late`` (legend
            names), ``position``, ``tokens`` (hover word).
    """
    fig = make_subplots(
        rows=1, cols=2, subplot_titles=(_l(labels, "left"), _l(labels, "right")), horizontal_spacing=0.1
    )
    ppo = algorithm_style("ppo")

    def add(d: pd.DataFrame, column: str, word: str, color: str, dash: str, col: int) -> None:
        if d.empty or column not in d.columns:
            return
        y = pd.to_numeric(d[column], errors="coerce")
        ok = np.isfinite(y.to_numpy(dtype=float))
        fig.add_trace(
            go.Scatter(
                x=d["position"][ok].astype(int).tolist(),
                y=y[ok].astype(float).tolist(),
                customdata=d["tokens"][ok].astype(int).tolist(),
                mode="lines+markers",
                name=_l(labels, word),
                line={"color": color, "dash": dash},
                hovertemplate=f"{_l(labels, word)}: %{{y:.3f}}<br>{_l(labels, 'tokens')}: %{{customdata}}"
                f"<extra>{_l(labels, 'position')} %{{x}}</extra>",
            ),
            row=1,
            col=col,
        )

    add(late, "value", "value", ppo["color"], "solid", 1)
    add(late, "return_mc", "return", OKABE_ITO["orange"], "dash", 1)
    add(early, "rmse", "early", OKABE_ITO["sky_blue"], "dot", 2)
    add(late, "rmse", "late", OKABE_ITO["vermillion"], "solid", 2)
    base_layout(fig, height=300)
    fig.update_layout(legend={"y": -0.3, "yanchor": "top"}, margin={"b": 80})
    fig.update_xaxes(title_text=_l(labels, "position"))
    return fig


def length_figure(fresh: pd.DataFrame, late: pd.DataFrame, labels: Mapping[str, str]) -> go.Figure:
    """The critic's error and GRPO's group baseline's, by response length: the mean over each length bin's
    responses of |V(s_t) - return| (averaged over the response's tokens, for a fresh critic and a trained
    one, and at its first token for the trained one) and of |group mean R - R| on the same responses.

    Args:
        fresh, late: :func:`rlviz.experiments.critic.error_by_length` over the fresh critic's step and over
            the late steps (``fresh`` may be empty: no line).
        labels: ``fresh``, ``tokens``, ``first``, ``baseline`` (legend names), ``length``, ``y`` (axis
            titles), ``responses``, ``reward`` (hover words: each point's number of responses and their mean
            reward).

    Every row given is drawn: leave out the bins too small to read first
    (:func:`rlviz.experiments.critic.split_bins`).
    """
    fig = go.Figure()
    ppo, grpo = algorithm_style("ppo"), algorithm_style("grpo")
    ticks: dict[float, str] = {}

    def add(d: pd.DataFrame, column: str, word: str, color: str, dash: str) -> None:
        if d.empty or column not in d.columns:
            return
        y = pd.to_numeric(d[column], errors="coerce").to_numpy(dtype=float)
        ok = np.isfinite(y)
        lo, hi = d["lo"].to_numpy(dtype=float)[ok], d["hi"].to_numpy(dtype=float)[ok]
        x = (lo + hi) / 2
        ticks.update({float(m): f"{int(a)}–{int(b)}" for m, a, b in zip(x, lo, hi)})
        n = d["responses"].to_numpy()[ok]
        reward = d["reward"].to_numpy(dtype=float)[ok] if "reward" in d.columns else np.full(len(n), np.nan)
        fig.add_trace(
            go.Scatter(
                x=x.tolist(),
                y=y[ok].tolist(),
                customdata=[[f"{int(a)}–{int(b)}", int(k), float(r)] for a, b, k, r in zip(lo, hi, n, reward)],
                mode="lines+markers",
                name=_l(labels, word),
                line={"color": color, "dash": dash},
                hovertemplate=f"{_l(labels, word)}: %{{y:.3f}}<br>{_l(labels, 'responses')}: %{{customdata[1]}}"
                f"<br>{_l(labels, 'reward')}: %{{customdata[2]:.2f}}"
                f"<extra>{_l(labels, 'length')} %{{customdata[0]}}</extra>",
            )
        )

    add(fresh, "critic_tokens", "fresh", OKABE_ITO["grey"], "dot")
    add(late, "critic_tokens", "tokens", ppo["color"], "solid")
    add(late, "critic_first", "first", ppo["color"], "dash")
    add(late, "baseline", "baseline", grpo["color"], "solid")
    base_layout(fig, height=300, x_title=_l(labels, "length"), y_title=_l(labels, "y"))
    if ticks:
        fig.update_xaxes(tickvals=sorted(ticks), ticktext=[ticks[k] for k in sorted(ticks)])
    fig.update_layout(legend={"y": -0.3, "yanchor": "top"}, margin={"b": 80})
    return fig


def live_figure(frame: pd.DataFrame, metrics, labels: Mapping[str, str], *, steps: int, smooth: int | None):
    """The live run's curves, PPO and GRPO in their registry styles (:func:`rlviz.plots.moe.live_arms_figure`).

    Args:
        frame: :func:`rlviz.experiments.critic.live_frame` (``arm``, ``step``, the metrics).
        metrics: the panels, in order.
        labels: as ``live_arms_figure`` (``<metric>``, ``step``, ``name.<arm>``, ``smoothed``, ``empty``).
        steps: the run's length (the x axes' span); smooth: the moving average's span.
    """
    from .moe import live_arms_figure

    styles = {"ppo": algorithm_style("ppo"), "grpo": algorithm_style("grpo")}
    return live_arms_figure(frame, metrics, labels, steps=steps, smooth=smooth, styles=styles, cols=2, panel_height=170)
