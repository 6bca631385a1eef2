"""Figures of the "TRL & verl: eleven confusions" page (no Streamlit here).

Every builder takes the frames of :mod:`rlviz.experiments.confusions` and a ``labels`` mapping of
already-translated texts (the keys each builder reads are listed in its docstring; a missing key
shows the key itself). Objectives keep their registry colour (``algorithm_style``); the other
series use Okabe-Ito colours: per response, per estimator, per clip bound, as fixed below.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from rlviz.numbering import response_number

from . import OKABE_ITO, PALETTE, base_layout, style_or_default
from .advantages import estimator_style

__all__ = [
    "BOUND_COLORS",
    "ESTIMATOR_COLORS",
    "aggregation_figure",
    "clip_figure",
    "difficulty_figure",
    "drift_figure",
    "gap_figure",
    "gdpo_figure",
    "kl_figure",
    "microbatch_figure",
    "sequence_figure",
    "update_figure",
    "window_figure",
]

ESTIMATOR_COLORS = {"k1": OKABE_ITO["blue"], "k2": OKABE_ITO["orange"], "k3": OKABE_ITO["bluish_green"]}
BOUND_COLORS = {
    "none": OKABE_ITO["blue"],
    "eps_low": OKABE_ITO["vermillion"],
    "eps_high": OKABE_ITO["orange"],
    "c": OKABE_ITO["reddish_purple"],
}
_BAND = {"fillcolor": OKABE_ITO["grey"], "opacity": 0.15, "line_width": 0, "layer": "below"}


def _l(labels: Mapping[str, str], key: str) -> str:
    return labels.get(key, key)


# the legend under the plot, at the figure's foot (container coordinates: plotly makes room for the rows a
# narrow window wraps it into), so it never covers a panel's title
_BELOW = {"margin": {"t": 40}, "legend": {"yref": "container", "y": 0.0, "yanchor": "bottom"}}


def _titled(fig: go.Figure, height: int) -> go.Figure:
    """The common look, with the legend under the panels (their titles above them stay clear)."""
    base_layout(fig, height=height)
    fig.update_layout(**_BELOW)
    return fig


def _decade_axis(values) -> dict:
    """A log axis over the positive ``values`` that names decades only (0.001, 0.01, 0.1, 1: plotly's
    own ticks name 2 and 5 between them, "2, 5, 0.01, 2, 5, 0.1"), spanning whole decades round them
    (the smallest bar keeps some height, the largest some headroom); every other decade when there
    are more than 6. Empty: plotly's own (no positive value to place)."""
    v = pd.to_numeric(pd.Series(values, dtype=object), errors="coerce").to_numpy(dtype=float)
    v = v[np.isfinite(v) & (v > 0)]
    if not v.size:
        return {}
    lo, hi = math.log10(float(v.min())), math.log10(float(v.max()))
    lo, hi = min(math.floor(lo), lo - 0.3), max(math.ceil(hi), hi + 0.08)
    decades = list(range(math.ceil(lo), math.floor(hi) + 1))
    step = 1 if len(decades) <= 6 else 2
    decades = decades[::-1][::step][::-1]  # thinned from the top: the decade at 1 stays
    return {
        "range": [lo, hi],
        "tickvals": [10.0**k for k in decades],
        "ticktext": [f"{10.0**k:g}" for k in decades],
    }


def aggregation_figure(weights: pd.DataFrame, labels: Mapping[str, str]) -> go.Figure:
    """Per aggregation mode, the weight of one token of each response (log axis) and each response's
    share of the loss (bars, one colour per response).

    Args:
        weights: :func:`rlviz.experiments.confusions.aggregation_weights`.
        labels: ``per_token``, ``share``, ``mode``, ``response.<i>`` (one per response).
    """
    fig = make_subplots(
        rows=1, cols=2, subplot_titles=[_l(labels, "per_token"), _l(labels, "share")], horizontal_spacing=0.1
    )
    for i, frame in weights.groupby("response", sort=True):
        name = _l(labels, f"response.{i}")
        color = PALETTE[int(i) % len(PALETTE)]
        for col, column, fmt in ((1, "token_weight", ".3g"), (2, "share", ".1%")):
            fig.add_trace(
                go.Bar(
                    x=frame["mode"],
                    y=frame[column],
                    name=name,
                    legendgroup=name,
                    showlegend=col == 1,
                    marker_color=color,
                    hovertemplate=f"{name}<br>%{{x}}<br>%{{y:{fmt}}}<extra></extra>",
                ),
                row=1,
                col=col,
            )
    fig.update_yaxes(
        type="log", **_decade_axis(weights["token_weight"] if "token_weight" in weights else ()), row=1, col=1
    )
    fig.update_yaxes(tickformat=".0%", range=[0, 1], row=1, col=2)
    fig.update_layout(barmode="group")
    return _titled(fig, 380)


def microbatch_figure(
    frame: pd.DataFrame, labels: Mapping[str, str], series: tuple[str, ...] = ("global", "micro")
) -> go.Figure:
    """Each response's total gradient weight under a global token-mean and under a token-mean per
    micro-batch (grouped bars).

    Args:
        frame: ``MicroBatchResult.frame``.
        labels: ``global``, ``micro``, ``weight``, ``response.<i>`` (the x tick of each response).
        series: which of ``global`` and ``micro`` to draw (a page holding back an answer draws one).
    """
    fig = go.Figure()
    x = [_l(labels, f"response.{int(i)}") for i in frame["response"]]
    for column, key, color in (
        ("total_global", "global", OKABE_ITO["blue"]),
        ("total_micro", "micro", OKABE_ITO["vermillion"]),
    ):
        if key not in series:
            continue
        fig.add_trace(
            go.Bar(
                x=x,
                y=frame[column],
                name=_l(labels, key),
                marker_color=color,
                hovertemplate=f"{_l(labels, key)}<br>%{{x}}<br>%{{y:.4g}}<extra></extra>",
            )
        )
    fig.update_layout(barmode="group", showlegend=True)  # named even when one series is drawn
    base_layout(fig, height=360, y_title=_l(labels, "weight"))
    return fig.update_layout(**_BELOW)


def update_figure(frame: pd.DataFrame, labels: Mapping[str, str]) -> go.Figure:
    """Per optimizer step of one RL step: the range of the ratio r (min to max, with its mean) and the
    clip fraction.

    Args:
        frame: :func:`rlviz.experiments.confusions.ratio_by_update`.
        labels: ``ratio_panel``, ``clip_panel``, ``update``, ``ratio``, ``clip``, ``mean``, ``range``,
            ``tick`` (a format with ``{update}``, ``{epoch}``, ``{mb}``).
    """
    fig = make_subplots(
        rows=1, cols=2, subplot_titles=[_l(labels, "ratio_panel"), _l(labels, "clip_panel")], horizontal_spacing=0.12
    )
    if frame.empty:
        return _titled(fig, 340)
    ticks = [
        _l(labels, "tick").format(update=int(r.update), epoch=int(r.epoch), mb=int(r.mini_batch))
        for r in frame.itertuples()
    ]
    fig.add_trace(
        go.Bar(
            x=ticks,
            y=(frame["ratio_max"] - frame["ratio_min"]).to_numpy(),
            base=frame["ratio_min"].to_numpy(),
            name=_l(labels, "range"),
            marker_color=OKABE_ITO["sky_blue"],
            customdata=np.stack([frame["ratio_min"], frame["ratio_max"]], axis=1),
            hovertemplate="%{x}<br>r ∈ [%{customdata[0]:.4f}, %{customdata[1]:.4f}]<extra></extra>",
        ),
        row=1,
        col=1,
    )
    fig.add_trace(
        go.Scatter(
            x=ticks,
            y=frame["ratio_mean"],
            mode="markers",
            name=_l(labels, "mean"),
            marker={"color": OKABE_ITO["black"], "symbol": "diamond", "size": 9},
            hovertemplate="%{x}<br>" + _l(labels, "mean") + " %{y:.4f}<extra></extra>",
        ),
        row=1,
        col=1,
    )
    fig.add_hline(y=1.0, line_dash="dot", line_color=OKABE_ITO["grey"], row=1, col=1)
    fig.add_trace(
        go.Bar(
            x=ticks,
            y=frame["clip_fraction"],
            name=_l(labels, "clip"),
            marker_color=OKABE_ITO["vermillion"],
            hovertemplate="%{x}<br>%{y:.1%}<extra></extra>",
        ),
        row=1,
        col=2,
    )
    fig.update_yaxes(title_text=_l(labels, "ratio"), row=1, col=1)
    fig.update_yaxes(title_text=_l(labels, "clip"), tickformat=".0%", rangemode="tozero", row=1, col=2)
    fig.update_xaxes(title_text=_l(labels, "update"))
    return _titled(fig, 380)


def sequence_figure(df: pd.DataFrame, labels: Mapping[str, str]) -> go.Figure:
    """One response under a token-ratio and a sequence-ratio objective: the ratio each token uses
    (markers filled where the token's gradient flows, open where it is clipped) with each objective's
    band, and each token's push −d loss / d log π.

    Args:
        df: :func:`rlviz.experiments.confusions.token_vs_sequence`.
        labels: ``ratio_panel``, ``push_panel``, ``position``, ``ratio``, ``push``, ``state.<s>``,
            ``title.<algorithm>`` (the legend name of each objective), ``band`` (a format with
            ``{name}``).
    """
    fig = make_subplots(
        rows=2,
        cols=1,
        shared_xaxes=True,
        subplot_titles=[_l(labels, "ratio_panel"), _l(labels, "push_panel")],
        vertical_spacing=0.12,
    )
    for name, frame in df.groupby("algorithm", sort=False):
        style = style_or_default(str(name))
        title = _l(labels, f"title.{name}")
        clipped = frame["state"].to_numpy() == "clipped"
        state_text = [_l(labels, f"state.{s}") for s in frame["state"]]
        fig.add_trace(
            go.Scatter(
                x=frame["position"],
                y=frame["ratio_used"],
                mode="lines+markers",
                name=title,
                legendgroup=str(name),
                line={"color": style["color"], "dash": style["dash"], "width": 1.5},
                marker={
                    "size": 11,
                    "color": style["color"],
                    "symbol": np.where(clipped, "circle-open", "circle").tolist(),
                    "line": {"width": 2, "color": style["color"]},
                },
                customdata=state_text,
                hovertemplate=title + "<br>t = %{x}<br>r = %{y:.4f}<br>%{customdata}<extra></extra>",
            ),
            row=1,
            col=1,
        )
        low, high = float(frame["band_low"].iloc[0]), float(frame["band_high"].iloc[0])
        for y in (low, high):
            fig.add_hline(y=y, line_dash="dash", line_color=style["color"], line_width=1, row=1, col=1)
        fig.add_trace(
            go.Bar(
                x=frame["position"],
                y=frame["push"],
                name=title,
                legendgroup=str(name),
                showlegend=False,
                marker_color=style["color"],
                customdata=state_text,
                hovertemplate=title + "<br>t = %{x}<br>%{y:.4g}<br>%{customdata}<extra></extra>",
            ),
            row=2,
            col=1,
        )
    fig.update_layout(barmode="group")
    fig.update_yaxes(title_text=_l(labels, "ratio"), row=1, col=1)
    fig.update_yaxes(title_text=_l(labels, "push"), row=2, col=1)
    fig.update_xaxes(title_text=_l(labels, "position"), dtick=1, row=2, col=1)
    return _titled(fig, 520)


def gap_figure(tokens: pd.DataFrame, cap: float, labels: Mapping[str, str]) -> go.Figure:
    """Histograms of two per-token log-ratios before any update: the sampler against the trainer
    (log π_train − log π_rollout, with the truncation point log C) and the trainer against itself
    (the PPO log-ratio of the first update).

    Args:
        tokens: ``GapResult.tokens``; cap: C.
        labels: ``gap_panel``, ``ppo_panel`` (the panels' short titles), ``gap_x``, ``ppo_x`` (each
            panel's x axis: the log-ratio it counts), ``log_ratio`` (the hover's word for it), ``tokens``.
    """
    fig = make_subplots(
        rows=1, cols=2, subplot_titles=[_l(labels, "gap_panel"), _l(labels, "ppo_panel")], horizontal_spacing=0.1
    )
    columns = (("log_gap", OKABE_ITO["vermillion"]), ("ppo_log_ratio", OKABE_ITO["blue"]))
    # the same bins and x range in both panels, so a spike at 0 reads as narrow as it is
    reach = max([1e-3] + [float(tokens[c].abs().max()) for c, _ in columns if len(tokens)]) * 1.05
    bins = {"start": -reach, "end": reach, "size": 2 * reach / 40}
    for col, (column, color) in enumerate(columns, start=1):
        values = tokens[column].to_numpy() if len(tokens) else np.zeros(0)
        fig.add_trace(
            go.Histogram(
                x=values,
                xbins=bins,
                marker_color=color,
                showlegend=False,
                hovertemplate=f"{_l(labels, 'log_ratio')}: %{{x}}<br>{_l(labels, 'tokens')}: %{{y}}<extra></extra>",
            ),
            row=1,
            col=col,
        )
        fig.add_vline(x=0.0, line_dash="dot", line_color=OKABE_ITO["grey"], row=1, col=col)
    if len(tokens) and float(tokens["log_gap"].max()) >= math.log(cap):
        fig.add_vline(x=math.log(cap), line_dash="dash", line_color=OKABE_ITO["black"], row=1, col=1)
    fig.update_xaxes(range=[-reach, reach])
    fig.update_xaxes(title_text=_l(labels, "gap_x"), row=1, col=1)
    fig.update_xaxes(title_text=_l(labels, "ppo_x"), row=1, col=2)
    fig.update_yaxes(title_text=_l(labels, "tokens"), row=1, col=1)
    return _titled(fig, 340)


def kl_figure(curves: pd.DataFrame, x_mark: float | None, labels: Mapping[str, str]) -> go.Figure:
    """k1, k2, k3 against x = log π − log π_ref: their values, and the push on the token each gives
    in the loss (solid) and in the reward (dotted).

    Args:
        curves: :func:`rlviz.experiments.confusions.kl_curves`.
        x_mark: an x to mark with a vertical line, or ``None``.
        labels: ``value_panel``, ``grad_panel``, ``x``, ``value``, ``grad``, ``loss`` and ``reward``
            (formats with ``{e}``).
    """
    fig = make_subplots(
        rows=1, cols=2, subplot_titles=[_l(labels, "value_panel"), _l(labels, "grad_panel")], horizontal_spacing=0.1
    )
    for e, frame in curves.groupby("estimator", sort=True):
        color = ESTIMATOR_COLORS.get(str(e), OKABE_ITO["grey"])
        fig.add_trace(
            go.Scatter(
                x=frame["x"],
                y=frame["value"],
                mode="lines",
                name=str(e),
                legendgroup=str(e),
                line={"color": color, "width": 2.5},
                hovertemplate=f"{e}<br>x = %{{x:.3f}}<br>%{{y:.4f}}<extra></extra>",
            ),
            row=1,
            col=1,
        )
        for column, key, dash in (("grad_loss", "loss", "solid"), ("grad_reward", "reward", "dot")):
            name = _l(labels, key).format(e=e)
            fig.add_trace(
                go.Scatter(
                    x=frame["x"],
                    y=frame[column],
                    mode="lines",
                    name=name,
                    legendgroup=str(e),
                    showlegend=True,
                    line={"color": color, "dash": dash, "width": 2},
                    hovertemplate=f"{name}<br>x = %{{x:.3f}}<br>%{{y:.4f}}<extra></extra>",
                ),
                row=1,
                col=2,
            )
    if x_mark is not None:
        for col in (1, 2):
            fig.add_vline(x=x_mark, line_dash="dash", line_color=OKABE_ITO["grey"], row=1, col=col)
    fig.update_xaxes(title_text=_l(labels, "x"))
    fig.update_yaxes(title_text=_l(labels, "value"), row=1, col=1)
    fig.update_yaxes(title_text=_l(labels, "grad"), row=1, col=2)
    return _titled(fig, 400)


def difficulty_figure(
    df: pd.DataFrame, p_mark: float | None, labels: Mapping[str, str], series: tuple[str, ...] = ("group", "none")
) -> go.Figure:
    """The expected advantage mass of a prompt against its pass rate, relative to a prompt with
    p = 0.5, with and without the std division.

    Args:
        df: :func:`rlviz.experiments.confusions.difficulty_curve`.
        p_mark: a pass rate to mark, or ``None``.
        labels: ``group``, ``none``, ``p``, ``relative``.
        series: which of ``group`` and ``none`` to draw (a page holding back an answer draws one).
    """
    fig = go.Figure()
    for column, key, color, dash in (
        ("rel_group", "group", OKABE_ITO["vermillion"], "solid"),
        ("rel_none", "none", OKABE_ITO["blue"], "dash"),
    ):
        if key not in series:
            continue
        fig.add_trace(
            go.Scatter(
                x=df["p"],
                y=df[column],
                mode="lines",
                name=_l(labels, key),
                line={"color": color, "dash": dash, "width": 2.5},
                hovertemplate=f"{_l(labels, key)}<br>p = %{{x:.2f}}<br>%{{y:.3f}}<extra></extra>",
            )
        )
    if p_mark is not None:
        fig.add_vline(x=p_mark, line_dash="dot", line_color=OKABE_ITO["grey"])
    fig.update_xaxes(range=[0, 1])
    fig.update_yaxes(rangemode="tozero")
    fig.update_layout(showlegend=True)  # named even when one series is drawn
    base_layout(fig, height=360, x_title=_l(labels, "p"), y_title=_l(labels, "relative"))
    return fig.update_layout(**_BELOW)


def clip_figure(
    df: pd.DataFrame,
    epsilon_low: float,
    epsilon_high: float,
    dual_clip_c: float | None,
    labels: Mapping[str, str],
) -> go.Figure:
    """PPO's push −d loss / d log π against the ratio for A = +1 and A = −1, each point coloured by
    the setting that stops it (or "none"), with the band [1 − ε_low, 1 + ε_high] and the dual clip c.

    Args:
        df: :func:`rlviz.experiments.confusions.clip_cases`.
        labels: ``positive``, ``negative``, ``ratio``, ``push``, ``bound.<b>`` for each bound.
    """
    fig = make_subplots(
        rows=1,
        cols=2,
        subplot_titles=[_l(labels, "positive"), _l(labels, "negative")],
        shared_yaxes=True,
        horizontal_spacing=0.06,
    )
    shown: set[str] = set()
    for col, sign in ((1, 1.0), (2, -1.0)):
        frame = df[df["advantage"] == sign]
        for bound, part in frame.groupby("bound", sort=False):
            name = _l(labels, f"bound.{bound}")
            fig.add_trace(
                go.Scatter(
                    x=part["ratio"],
                    y=part["push"],
                    mode="markers",
                    name=name,
                    legendgroup=str(bound),
                    showlegend=bound not in shown,
                    marker={"color": BOUND_COLORS.get(str(bound), OKABE_ITO["grey"]), "size": 6},
                    hovertemplate=f"{name}<br>r = %{{x:.3f}}<br>%{{y:.3f}}<extra></extra>",
                ),
                row=1,
                col=col,
            )
            shown.add(str(bound))
        fig.add_vrect(x0=max(0.0, 1 - epsilon_low), x1=1 + epsilon_high, **_BAND, row=1, col=col)
        fig.add_vline(x=1.0, line_dash="dot", line_color=OKABE_ITO["grey"], row=1, col=col)
        fig.update_xaxes(title_text=_l(labels, "ratio"), row=1, col=col)
    if dual_clip_c is not None:
        fig.add_vline(x=dual_clip_c, line_dash="dash", line_color=BOUND_COLORS["c"], row=1, col=2)
    fig.update_yaxes(title_text=_l(labels, "push"), row=1, col=1)
    return _titled(fig, 380)


def window_figure(
    df: pd.DataFrame, labels: Mapping[str, str], series: tuple[str, ...] = ("tokens", "counted", "scale")
) -> go.Figure:
    """Per optimizer step, the tokens of the step N_j and the tokens the normaliser counted N_w (left),
    and the step's gradient over the intended one, N_j / N_w, with the intended 1 marked (right).

    Args:
        df: :func:`rlviz.experiments.confusions.token_count_window`.
        labels: ``tokens``, ``counted``, ``scale``, ``tokens_panel``, ``scale_panel``, ``step``
            (a format with ``{j}``), ``tokens_axis``, ``scale_axis``.
        series: which of ``tokens``, ``counted`` and ``scale`` to draw (a page holding back an answer
            draws the step's own tokens only; without ``scale`` the figure has one panel).
    """
    ticks = [_l(labels, "step").format(j=int(j)) for j in df["step"]]
    two = "scale" in series
    fig = (
        make_subplots(
            rows=1,
            cols=2,
            subplot_titles=[_l(labels, "tokens_panel"), _l(labels, "scale_panel")],
            horizontal_spacing=0.12,
        )
        if two
        else go.Figure()
    )
    at = {"row": 1, "col": 1} if two else {}
    for column, key, color in (("tokens", "tokens", OKABE_ITO["blue"]), ("counted", "counted", OKABE_ITO["orange"])):
        if key in series:
            fig.add_trace(
                go.Bar(
                    x=ticks,
                    y=df[column],
                    name=_l(labels, key),
                    marker_color=color,
                    hovertemplate=f"{_l(labels, key)}<br>%{{x}}<br>%{{y:d}}<extra></extra>",
                ),
                **at,
            )
    if two:
        fig.add_trace(
            go.Bar(
                x=ticks,
                y=df["scale"],
                name=_l(labels, "scale"),
                marker_color=OKABE_ITO["vermillion"],
                hovertemplate=f"{_l(labels, 'scale')}<br>%{{x}}<br>%{{y:.4g}}×<extra></extra>",
            ),
            row=1,
            col=2,
        )
        fig.add_hline(y=1.0, line_dash="dash", line_color=OKABE_ITO["grey"], row=1, col=2)
        fig.update_yaxes(title_text=_l(labels, "tokens_axis"), row=1, col=1)
        fig.update_yaxes(title_text=_l(labels, "scale_axis"), rangemode="tozero", row=1, col=2)
    else:
        fig.update_yaxes(title_text=_l(labels, "tokens_axis"))
    fig.update_layout(barmode="group", showlegend=True)  # named even when one series is drawn
    return _titled(fig, 360)


def drift_figure(
    df: pd.DataFrame,
    cap: float,
    labels: Mapping[str, str],
    series: tuple[str, ...] = ("token", "product", "truncate", "mask"),
) -> go.Figure:
    """Against the response length L: each token's ratio e^d, the sequence weight (their product
    e^(L·d)), its value after TRL's ``sequence_truncate`` (clamped at the cap) and after
    ``sequence_mask`` (0 once above the cap), with the cap marked.

    Args:
        df: :func:`rlviz.experiments.confusions.drift_curve`; ``cap``: the cap C.
        labels: ``token``, ``product``, ``truncate``, ``mask``, ``cap``, ``length``, ``weight``.
        series: which of ``token``, ``product``, ``truncate`` and ``mask`` to draw (a page holding back
            an answer draws the token ratio only).
    """
    fig = go.Figure()
    for column, key, color, dash, shape in (
        ("geo_mean", "token", OKABE_ITO["grey"], "dot", "linear"),
        ("product", "product", OKABE_ITO["blue"], "solid", "linear"),
        ("weight_truncate", "truncate", OKABE_ITO["bluish_green"], "dash", "linear"),
        ("weight_mask", "mask", OKABE_ITO["vermillion"], "solid", "hv"),
    ):
        if key not in series:
            continue
        fig.add_trace(
            go.Scatter(
                x=df["length"],
                y=df[column],
                mode="lines",
                name=_l(labels, key),
                line={"color": color, "dash": dash, "width": 2.5, "shape": shape},
                hovertemplate=f"{_l(labels, key)}<br>L = %{{x}}<br>%{{y:.4f}}<extra></extra>",
            )
        )
    fig.add_hline(y=float(cap), line_dash="dash", line_color=OKABE_ITO["black"], line_width=1)
    fig.update_xaxes(range=[0, float(df["length"].max())])
    fig.update_yaxes(rangemode="tozero")
    fig.update_layout(showlegend=True)
    base_layout(fig, height=360, x_title=_l(labels, "length"), y_title=_l(labels, "weight"))
    return fig.update_layout(**_BELOW)


def gdpo_figure(df: pd.DataFrame, labels: Mapping[str, str], series: tuple[str, ...] = ("grpo", "gdpo")) -> go.Figure:
    """Each response's advantage under GRPO (the summed reward normalised in its group) and GDPO (each
    reward normalised in its group, summed, whitened over the batch), groups side by side.

    Args:
        df: :func:`rlviz.experiments.confusions.gdpo_vs_grpo` with two reward components.
        labels: ``grpo``, ``gdpo``, ``advantage``, ``tick`` (a format with ``{g}``, ``{i}``, ``{a}``,
            ``{b}``: group and response, both counted from 1 (``rlviz.numbering.response_number``), and the
            two rewards).
        series: which of ``grpo`` and ``gdpo`` to draw (a page holding back an answer draws one).
    """
    ticks = [
        _l(labels, "tick").format(
            g=int(r.group) + 1, i=response_number(int(r.response)), a=f"{r.reward_0:g}", b=f"{r.reward_1:g}"
        )
        for r in df.itertuples()
    ]
    fig = go.Figure()
    for column in ("grpo", "gdpo"):  # estimator registry keys: each bar in its estimator's colour
        if column not in series:
            continue
        color = estimator_style(column)["color"]  # as on the advantages page
        fig.add_trace(
            go.Bar(
                x=ticks,
                y=df[column],
                name=_l(labels, column),
                marker_color=color,
                hovertemplate=f"{_l(labels, column)}<br>%{{x}}<br>A = %{{y:.3f}}<extra></extra>",
            )
        )
    for g in sorted(set(df["group"]))[1:]:  # a thin line between groups
        fig.add_vline(x=int((df["group"] < g).sum()) - 0.5, line_color=OKABE_ITO["grey"], line_width=1)
    fig.update_layout(barmode="group", showlegend=True)
    base_layout(fig, height=360, y_title=_l(labels, "advantage"))
    return fig.update_layout(**_BELOW)
