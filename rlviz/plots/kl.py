"""Figures of the KL page (no Streamlit here).

Every builder takes the frames of :mod:`rlviz.experiments.kl` and a ``labels`` mapping of
already-translated texts (the keys each reads are in its docstring; a missing key shows the key).
Each estimator of ``rlviz.core.kl.KL_SPECS`` keeps one colour (:func:`estimator_style`, by its place
in the registry) with a dash that says what kind it is: solid for a plain estimator, dashed for a
straight-through one, dotted for an importance-weighted one.

The figures are assembled from dicts in one step (:mod:`rlviz.plots._assemble`: a slider rebuilds
them), not through one validated plotly update per trace and shape; ``tests/test_kl.py`` validates them.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from rlviz.core.kl import KL_ESTIMATORS, KL_SPECS

from . import OKABE_ITO, PALETTE
from . import _assemble as A

__all__ = ["curves_figure", "distribution_figure", "error_figure", "estimator_style", "gradient_figure"]


def _l(labels: Mapping[str, str], key: str) -> str:
    return labels.get(key, key)


# the legend under the panels, at the figure's foot (container coordinates: plotly makes room for its
# rows, however many a narrow window wraps it into), so it never covers a panel's title
_BELOW = {"margin": {"t": 40}, "legend": {"yref": "container", "y": 0.0, "yanchor": "bottom"}}


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
    layout = A.grid(2, [_l(labels, "value_panel"), _l(labels, "grad_panel")], 0.14)
    names = curves["estimator"].to_numpy()
    x_all = curves["x"].to_numpy()
    clamped_all = curves["clamped"].to_numpy(dtype=bool)
    traces = []
    for e in [e for e in KL_ESTIMATORS if e in set(names)]:
        rows = names == e
        x, clamped = x_all[rows], clamped_all[rows]
        style = estimator_style(e)
        for col, column in ((1, "value"), (2, "grad")):
            traces.append(
                {
                    "type": "scatter",
                    "x": x,
                    "y": curves[column].to_numpy()[rows],
                    "mode": "lines",
                    "name": e,
                    "legendgroup": e,
                    "showlegend": col == 1,
                    "line": {"color": style["color"], "dash": style["dash"], "width": 2.5},
                    "hovertemplate": f"{e}<br>x = %{{x:.3f}}<br>%{{y:.4f}}<extra></extra>",
                    "xaxis": A.ref("x", col),
                    "yaxis": A.ref("y", col),
                }
            )
            if bool(clamped.any()):  # the same estimator without the clamp, thin, where it differs
                xs, ys = _gapped(x, curves[f"{column}_raw"].to_numpy()[rows], clamped)
                name = _l(labels, "raw").format(e=e)
                traces.append(
                    {
                        "type": "scatter",
                        "x": xs,
                        "y": ys,
                        "mode": "lines",
                        "name": name,
                        "legendgroup": e,
                        "showlegend": False,
                        "line": {"color": style["color"], "dash": "dot", "width": 1},
                        "opacity": 0.6,
                        "hovertemplate": f"{name}<br>x = %{{x:.3f}}<br>%{{y:.4f}}<extra></extra>",
                        "xaxis": A.ref("x", col),
                        "yaxis": A.ref("y", col),
                    }
                )
    shapes = []
    if clamped_all.any():
        on = x_all[clamped_all]
        for lo, hi in _runs(x_all, on):
            shapes += [
                A.vrect(lo, hi, col, fillcolor=OKABE_ITO["grey"], opacity=0.15, line={"width": 0}) for col in (1, 2)
            ]
        layout["annotations"].append(
            {
                "x": float(on.min()),
                "y": 1.0,
                "yref": "y domain",
                "xref": "x",
                "text": _l(labels, "clamp"),
                "showarrow": False,
                "xanchor": "left",
                "yanchor": "top",
                "font": {"size": 11},
            }
        )
    if shapes:
        layout["shapes"] = shapes
    A.title(layout, "xaxis", _l(labels, "x"))
    A.title(layout, "xaxis2", _l(labels, "x"))
    A.title(layout, "yaxis", _l(labels, "value"))
    A.title(layout, "yaxis2", _l(labels, "grad"))
    return A.figure(traces, layout, 440, after=_BELOW)


def _gapped(x: np.ndarray, y: np.ndarray, clamped: np.ndarray) -> tuple[list, list]:
    """``y`` over ``x`` at the clamped points only, as lists with ``None`` between separate runs
    (a gap in the line, never a NaN)."""
    xs: list = []
    ys: list = []
    previous = False
    for xv, yv, on in zip(x.tolist(), y.tolist(), clamped.tolist()):
        if on:
            xs.append(float(xv))
            ys.append(float(yv))
        elif previous:
            xs.append(None)
            ys.append(None)
        previous = bool(on)
    return xs, ys


def _runs(x_all: np.ndarray, on_x: np.ndarray) -> list[tuple[float, float]]:
    """Contiguous x intervals where some estimator is clamped (half a grid step padded): ``x_all``
    every point's x, ``on_x`` the clamped points' x."""
    xs = sorted(set(x_all.tolist()))
    step = (xs[-1] - xs[0]) / max(len(xs) - 1, 1)
    on = sorted(set(on_x.tolist()))
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
    names = [str(t) for t in tokens["token"]]
    traces = []
    for column, color in (("pi", OKABE_ITO["blue"]), ("pi_ref", OKABE_ITO["grey"]), ("pi_old", OKABE_ITO["orange"])):
        name = _l(labels, column)
        traces.append(
            {
                "type": "bar",
                "x": list(names),
                "y": tokens[column].to_numpy(),
                "name": name,
                "marker": {"color": color},
                "hovertemplate": f"{name}<br>%{{x}}: %{{y:.4f}}<extra></extra>",
            }
        )
    layout = {
        "barmode": "group",
        "xaxis": {"title": {"text": _l(labels, "token")}},
        "yaxis": {"title": {"text": _l(labels, "prob")}},
    }
    # a narrow column wraps the legend: under the plot, never over the title
    return A.figure(traces, layout, 380, title=_l(labels, "title"), after={**_BELOW, "margin": {"t": 60}})


def gradient_figure(gradients: pd.DataFrame, labels: Mapping[str, str]) -> go.Figure:
    """The expected gradient w.r.t. each logit of every estimator, in the loss and in the reward
    (one panel each), against the exact gradient of KL(π ‖ π_ref) (black diamonds) and of
    KL(π_ref ‖ π) (grey crosses).

    Args:
        gradients: ``CategoricalView.gradients``.
        labels: ``loss_panel``, ``reward_panel``, ``token``, ``grad``, ``true_reverse``,
            ``true_forward``.
    """
    layout = A.grid(2, [_l(labels, "loss_panel"), _l(labels, "reward_panel")], 0.06, shared_y=True)
    route_of = gradients["route"].to_numpy()
    estimator_of = gradients["estimator"].to_numpy()
    series_of = gradients["series"].to_numpy()
    token = np.array([str(t) for t in gradients["token"]], dtype=object)
    grad = gradients["grad"].to_numpy()
    traces = []
    for col, route in ((1, "loss"), (2, "reward")):
        part = route_of == route
        for e in [e for e in KL_ESTIMATORS if e in set(estimator_of[part])]:
            rows = part & (estimator_of == e)
            traces.append(
                {
                    "type": "bar",
                    "x": token[rows].tolist(),
                    "y": grad[rows],
                    "name": e,
                    "legendgroup": e,
                    "showlegend": col == 1,
                    "marker": {"color": estimator_style(e)["color"]},
                    "hovertemplate": f"{e} ({route})<br>%{{x}}: %{{y:.4f}}<extra></extra>",
                    "xaxis": A.ref("x", col),
                    "yaxis": A.ref("y", col),
                }
            )
        for series, symbol, color in (
            ("true_reverse", "diamond", OKABE_ITO["black"]),
            ("true_forward", "x", OKABE_ITO["grey"]),
        ):
            rows = series_of == series
            name = _l(labels, series)
            traces.append(
                {
                    "type": "scatter",
                    "x": token[rows].tolist(),
                    "y": grad[rows],
                    "mode": "markers",
                    "name": name,
                    "legendgroup": series,
                    "showlegend": col == 1,
                    "marker": {"symbol": symbol, "size": 12, "color": color, "line": {"width": 1, "color": color}},
                    "hovertemplate": f"{name}<br>%{{x}}: %{{y:.4f}}<extra></extra>",
                    "xaxis": A.ref("x", col),
                    "yaxis": A.ref("y", col),
                }
            )
    layout["barmode"] = "group"
    A.title(layout, "xaxis", _l(labels, "token"))
    A.title(layout, "xaxis2", _l(labels, "token"))
    A.title(layout, "yaxis", _l(labels, "grad"))
    return A.figure(traces, layout, 480, after=_BELOW)


def error_figure(table: pd.DataFrame, labels: Mapping[str, str]) -> go.Figure:
    """Relative error of each estimator's expected gradient against ∇KL(π ‖ π_ref), in the loss and
    in the reward (0 = exact in expectation), and the single-sample spread beside it.

    Args:
        table: ``CategoricalView.table``.
        labels: ``loss``, ``reward``, ``rel_error``, ``std``, ``estimator``, ``error_panel``,
            ``std_panel``.
    """
    layout = A.grid(2, [_l(labels, "error_panel"), _l(labels, "std_panel")], 0.14)
    present = [e for e in KL_ESTIMATORS if e in set(table["estimator"])]
    traces = []
    for route, color in (("loss", OKABE_ITO["blue"]), ("reward", OKABE_ITO["vermillion"])):
        part = table[table["route"] == route].set_index("estimator").reindex(present)
        name = _l(labels, route)
        for col, column in ((1, "rel_error"), (2, "std")):
            traces.append(
                {
                    "type": "bar",
                    "x": list(part.index),
                    "y": part[column].to_numpy(),
                    "name": name,
                    "legendgroup": route,
                    "showlegend": col == 1,
                    "marker": {"color": color},
                    "hovertemplate": f"{name}<br>%{{x}}: %{{y:.4f}}<extra></extra>",
                    "xaxis": A.ref("x", col),
                    "yaxis": A.ref("y", col),
                }
            )
    layout["barmode"] = "group"
    A.title(layout, "xaxis", _l(labels, "estimator"))
    A.title(layout, "xaxis2", _l(labels, "estimator"))
    A.title(layout, "yaxis", _l(labels, "rel_error"))
    A.title(layout, "yaxis2", _l(labels, "std"))
    return A.figure(traces, layout, 420, after=_BELOW)
