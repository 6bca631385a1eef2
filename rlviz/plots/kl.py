"""Figures of the KL page (no Streamlit here).

Every builder takes the frames of :mod:`rlviz.experiments.kl` and a ``labels`` mapping of
already-translated texts (the keys each reads are in its docstring; a missing key shows the key).
Each estimator of ``rlviz.core.kl.KL_SPECS`` keeps one colour (:func:`estimator_style`, by its place
in the registry) with a dash that says what kind it is: solid for a plain estimator, dashed for a
straight-through one, dotted for an importance-weighted one.
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from rlviz.core.kl import KL_ESTIMATORS, KL_SPECS

from . import OKABE_ITO, PALETTE, base_layout

__all__ = ["curves_figure", "distribution_figure", "error_figure", "estimator_style", "gradient_figure"]


def _l(labels: Mapping[str, str], key: str) -> str:
    return labels.get(key, key)


def _titled(fig: go.Figure, height: int) -> go.Figure:
    """The common look, with room for the legend above the subplot titles."""
    base_layout(fig, height=height)
    fig.update_layout(margin={"t": 90}, legend={"y": 1.16})
    return fig


def estimator_style(name: str) -> dict[str, str]:
    """``{"color", "dash"}`` of estimator ``name``. Raises ``ValueError`` naming ``name``."""
    if name not in KL_SPECS:
        raise ValueError(f"name: {name!r} is not one of {', '.join(KL_ESTIMATORS)}")
    spec = KL_SPECS[name]
    dash = "dot" if spec.importance_weighted else "dash" if spec.grad is not None else "solid"
    return {"color": PALETTE[KL_ESTIMATORS.index(name) % len(PALETTE)], "dash": dash}


def curves_figure(curves: pd.DataFrame, labels: Mapping[str, str]) -> go.Figure:
    """Value and gradient of every estimator against x, with where k3's clamp acts shaded and the
    unclamped curve drawn thin beside the clamped one.

    Args:
        curves: :func:`rlviz.experiments.kl.estimator_curves`.
        labels: ``value_panel``, ``grad_panel``, ``x``, ``value``, ``grad``, ``raw`` (formats with
            ``{e}``), ``clamp``.
    """
    fig = make_subplots(
        rows=1, cols=2, subplot_titles=[_l(labels, "value_panel"), _l(labels, "grad_panel")], horizontal_spacing=0.1
    )
    for e in [e for e in KL_ESTIMATORS if e in set(curves["estimator"])]:
        frame = curves[curves["estimator"] == e]
        style = estimator_style(e)
        for col, column in ((1, "value"), (2, "grad")):
            fig.add_trace(
                go.Scatter(
                    x=frame["x"],
                    y=frame[column],
                    mode="lines",
                    name=e,
                    legendgroup=e,
                    showlegend=col == 1,
                    line={"color": style["color"], "dash": style["dash"], "width": 2.5},
                    hovertemplate=f"{e}<br>x = %{{x:.3f}}<br>%{{y:.4f}}<extra></extra>",
                ),
                row=1,
                col=col,
            )
            if bool(frame["clamped"].any()):  # the same estimator without the clamp, thin, where it differs
                xs, ys = _gapped(frame, f"{column}_raw")
                name = _l(labels, "raw").format(e=e)
                fig.add_trace(
                    go.Scatter(
                        x=xs,
                        y=ys,
                        mode="lines",
                        name=name,
                        legendgroup=e,
                        showlegend=False,
                        line={"color": style["color"], "dash": "dot", "width": 1},
                        opacity=0.6,
                        hovertemplate=f"{name}<br>x = %{{x:.3f}}<br>%{{y:.4f}}<extra></extra>",
                    ),
                    row=1,
                    col=col,
                )
    clamped = curves[curves["clamped"]]
    if not clamped.empty:
        for lo, hi in _runs(curves, clamped):
            for col in (1, 2):
                fig.add_vrect(x0=lo, x1=hi, fillcolor=OKABE_ITO["grey"], opacity=0.15, line_width=0, row=1, col=col)
        fig.add_annotation(
            x=float(clamped["x"].min()),
            y=1.0,
            yref="y domain",
            xref="x",
            text=_l(labels, "clamp"),
            showarrow=False,
            xanchor="left",
            yanchor="top",
            font={"size": 11},
        )
    fig.update_xaxes(title_text=_l(labels, "x"))
    fig.update_yaxes(title_text=_l(labels, "value"), row=1, col=1)
    fig.update_yaxes(title_text=_l(labels, "grad"), row=1, col=2)
    return _titled(fig, 440)


def _gapped(frame: pd.DataFrame, column: str) -> tuple[list, list]:
    """``column`` over x at the clamped points only, as lists with ``None`` between separate runs
    (a gap in the line, never a NaN)."""
    xs: list = []
    ys: list = []
    previous = False
    for x, y, on in zip(frame["x"], frame[column], frame["clamped"]):
        if on:
            xs.append(float(x))
            ys.append(float(y))
        elif previous:
            xs.append(None)
            ys.append(None)
        previous = bool(on)
    return xs, ys


def _runs(curves: pd.DataFrame, clamped: pd.DataFrame) -> list[tuple[float, float]]:
    """Contiguous x intervals where some estimator is clamped (half a grid step padded)."""
    xs = sorted(set(curves["x"]))
    step = (xs[-1] - xs[0]) / max(len(xs) - 1, 1)
    on = sorted(set(clamped["x"]))
    runs, start, prev = [], on[0], on[0]
    for x in on[1:]:
        if x - prev > 1.5 * step:
            runs.append((start - step / 2, prev + step / 2))
            start = x
        prev = x
    runs.append((start - step / 2, prev + step / 2))
    return runs


def distribution_figure(tokens: pd.DataFrame, labels: Mapping[str, str]) -> go.Figure:
    """π, π_ref and the sampler π_old per token, as grouped bars.

    Args:
        tokens: ``CategoricalView.tokens``.
        labels: ``pi``, ``pi_ref``, ``pi_old``, ``token``, ``prob``, ``title``.
    """
    fig = go.Figure()
    for column, color in (("pi", OKABE_ITO["blue"]), ("pi_ref", OKABE_ITO["grey"]), ("pi_old", OKABE_ITO["orange"])):
        name = _l(labels, column)
        fig.add_trace(
            go.Bar(
                x=[str(t) for t in tokens["token"]],
                y=tokens[column],
                name=name,
                marker_color=color,
                hovertemplate=f"{name}<br>%{{x}}: %{{y:.4f}}<extra></extra>",
            )
        )
    fig.update_layout(barmode="group")
    base_layout(fig, title=_l(labels, "title"), height=380, x_title=_l(labels, "token"), y_title=_l(labels, "prob"))
    fig.update_layout(
        margin={"t": 120}, legend={"y": 1.08}
    )  # a narrow column wraps the legend: keep it under the title
    return fig


def gradient_figure(gradients: pd.DataFrame, labels: Mapping[str, str]) -> go.Figure:
    """The expected gradient w.r.t. each logit of every estimator, in the loss and in the reward
    (one panel each), against the exact gradient of KL(π ‖ π_ref) (black diamonds) and of
    KL(π_ref ‖ π) (grey crosses).

    Args:
        gradients: ``CategoricalView.gradients``.
        labels: ``loss_panel``, ``reward_panel``, ``token``, ``grad``, ``true_reverse``,
            ``true_forward``.
    """
    fig = make_subplots(
        rows=1,
        cols=2,
        shared_yaxes=True,
        subplot_titles=[_l(labels, "loss_panel"), _l(labels, "reward_panel")],
        horizontal_spacing=0.06,
    )
    for col, route in ((1, "loss"), (2, "reward")):
        part = gradients[gradients["route"] == route]
        for e in [e for e in KL_ESTIMATORS if e in set(part["estimator"])]:
            g = part[part["estimator"] == e]
            fig.add_trace(
                go.Bar(
                    x=[str(t) for t in g["token"]],
                    y=g["grad"],
                    name=e,
                    legendgroup=e,
                    showlegend=col == 1,
                    marker_color=estimator_style(e)["color"],
                    hovertemplate=f"{e} ({route})<br>%{{x}}: %{{y:.4f}}<extra></extra>",
                ),
                row=1,
                col=col,
            )
        for series, symbol, color in (
            ("true_reverse", "diamond", OKABE_ITO["black"]),
            ("true_forward", "x", OKABE_ITO["grey"]),
        ):
            t = gradients[gradients["series"] == series]
            name = _l(labels, series)
            fig.add_trace(
                go.Scatter(
                    x=[str(v) for v in t["token"]],
                    y=t["grad"],
                    mode="markers",
                    name=name,
                    legendgroup=series,
                    showlegend=col == 1,
                    marker={"symbol": symbol, "size": 12, "color": color, "line": {"width": 1, "color": color}},
                    hovertemplate=f"{name}<br>%{{x}}: %{{y:.4f}}<extra></extra>",
                ),
                row=1,
                col=col,
            )
    fig.update_layout(barmode="group")
    fig.update_xaxes(title_text=_l(labels, "token"))
    fig.update_yaxes(title_text=_l(labels, "grad"), row=1, col=1)
    return _titled(fig, 440)


def error_figure(table: pd.DataFrame, labels: Mapping[str, str]) -> go.Figure:
    """Relative error of each estimator's expected gradient against ∇KL(π ‖ π_ref), in the loss and
    in the reward (0 = exact in expectation), and the single-sample spread beside it.

    Args:
        table: ``CategoricalView.table``.
        labels: ``loss``, ``reward``, ``rel_error``, ``std``, ``estimator``, ``error_panel``,
            ``std_panel``.
    """
    fig = make_subplots(
        rows=1, cols=2, subplot_titles=[_l(labels, "error_panel"), _l(labels, "std_panel")], horizontal_spacing=0.1
    )
    for route, color in (("loss", OKABE_ITO["blue"]), ("reward", OKABE_ITO["vermillion"])):
        part = (
            table[table["route"] == route]
            .set_index("estimator")
            .reindex([e for e in KL_ESTIMATORS if e in set(table["estimator"])])
        )
        name = _l(labels, route)
        for col, column in ((1, "rel_error"), (2, "std")):
            fig.add_trace(
                go.Bar(
                    x=list(part.index),
                    y=part[column],
                    name=name,
                    legendgroup=route,
                    showlegend=col == 1,
                    marker_color=color,
                    hovertemplate=f"{name}<br>%{{x}}: %{{y:.4f}}<extra></extra>",
                ),
                row=1,
                col=col,
            )
    fig.update_layout(barmode="group")
    fig.update_xaxes(title_text=_l(labels, "estimator"))
    fig.update_yaxes(title_text=_l(labels, "rel_error"), row=1, col=1)
    fig.update_yaxes(title_text=_l(labels, "std"), row=1, col=2)
    return _titled(fig, 400)
