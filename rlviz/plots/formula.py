"""Figures and formula text of the formula-diff page (no Streamlit here).

:func:`token_strip_figure` draws the example group of :mod:`rlviz.experiments.formula` as three
strips of squares (one row per response, one square per token): the token log-ratio, and the push
``-d loss / d log pi`` of each token under objective A and under objective B, on one diverging scale
shared by the two push strips. Each square is a scatter point (``customdata = [response, position]``)
so a click selects it (``st.plotly_chart(on_select=...)``); the picked token has a black frame.
:func:`term_latex` writes one term of one objective (its formula, then the same lines with the
picked token's numbers) as one ``st.latex`` string, boxed when it differs from the other objective's (KaTeX ``\\fcolorbox``: an orange frame on a light fill, so the box reads in grey
print too). Words come in a ``labels`` mapping of already-translated texts; a missing key shows the
key itself.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from rlviz.numbering import response_tag
from rlviz.plots import DIVERGING_SCALE, OKABE_ITO, base_layout

__all__ = ["BOUND_COLOR", "HIGHLIGHT_FILL", "HIGHLIGHT_FRAME", "STATE_MARKS", "term_latex", "token_strip_figure"]

HIGHLIGHT_FRAME = OKABE_ITO["orange"]
HIGHLIGHT_FILL = "#FFF1D6"
BOUND_COLOR = OKABE_ITO["blue"]  # the lines with a token's numbers substituted
# A second cue besides the colour: what the trust region did, written in the push strips' squares
STATE_MARKS = {"active": "", "clipped": "×", "capped": "^", "gated": "~", "masked": ""}
SQUARE = 28  # px, one token
ROW_PX = 34  # px per response row in a strip


def _line(line: str) -> str:
    """A LaTeX line safe after ``\\\\``: a "[" there would read as a line-spacing argument."""
    return "{}" + line if line.startswith("[") else line


def term_latex(symbolic: Sequence[str], bound: Sequence[str] = (), boxed: bool = False, small: bool = True) -> str:
    """One term of one objective for ``st.latex``: its ``symbolic`` lines, then its ``bound`` lines
    (the same with a token's numbers substituted) in :data:`BOUND_COLOR`, all in an orange box when
    ``boxed`` (the term differs from the other objective's). A ``gathered`` block, ``\\small``
    when ``small``."""
    rows = [_line(x) for x in symbolic]
    rows += [_line(rf"{{\color{{{BOUND_COLOR}}}{x}}}") for x in bound]
    gap = [r"\\[3pt]".join(rows[: len(symbolic)]), r"\\".join(rows[len(symbolic) :])]
    body = r"\\[6pt]".join(part for part in gap if part)
    if boxed:
        body = (
            rf"\fcolorbox{{{HIGHLIGHT_FRAME}}}{{{HIGHLIGHT_FILL}}}"
            rf"{{$\displaystyle\begin{{gathered}}{body}\end{{gathered}}$}}"
        )
    return (r"\small" if small else "") + r"\begin{gathered}" + body + r"\end{gathered}"


def _l(labels: Mapping[str, str], key: str) -> str:
    return labels.get(key, key)


def _zmax(values: np.ndarray) -> float:
    finite = values[np.isfinite(values)]
    top = float(np.max(np.abs(finite))) if finite.size else 0.0
    return top if top > 0 else 1.0


def token_strip_figure(
    tokens: pd.DataFrame, labels: Mapping[str, str], selected: tuple[int, int] | None = None
) -> go.Figure:
    """Three strips of the example group: log-ratio, push under A, push under B.

    Args:
        tokens: ``FormulaDiff.tokens``: one row per real token with ``response``, ``position``,
            ``log_ratio``, ``token_ratio``, ``push_a``, ``push_b``, ``state_a``, ``state_b``,
            ``advantage_a``, ``advantage_b``.
        labels: ``panel.ratio``, ``panel.a``, ``panel.b`` (strip titles), ``position`` (x axis),
            ``response``, ``log_ratio``, ``ratio``, ``push``, ``advantage`` (hover words),
            ``state.<state>`` (hover), ``row.<i>`` (response i's axis label; default ``#i``).
        selected: ``(response, position)`` of the picked token, framed in every strip.

    The log-ratio strip writes each token's ratio r in its square; the push strips write
    :data:`STATE_MARKS`. NaN values are drawn as grey squares, never as NaN coordinates.
    """
    fig = make_subplots(
        rows=3,
        cols=1,
        shared_xaxes=True,
        vertical_spacing=0.12,
        subplot_titles=[_l(labels, "panel.ratio"), _l(labels, "panel.a"), _l(labels, "panel.b")],
    )
    needed = {"response", "position", "log_ratio", "token_ratio", "push_a", "push_b", "state_a", "state_b"}
    if tokens.empty or not needed.issubset(tokens.columns):
        return base_layout(fig, height=360, x_title=_l(labels, "position"))
    data = tokens.reset_index(drop=True)
    responses = sorted(int(r) for r in data["response"].unique())
    x = data["position"].astype(int).tolist()
    y = data["response"].astype(int).tolist()
    custom = [[int(r), int(p)] for r, p in zip(y, x)]
    log_ratio = pd.to_numeric(data["log_ratio"], errors="coerce").to_numpy(dtype=float)
    pushes = {s: pd.to_numeric(data[f"push_{s}"], errors="coerce").to_numpy(dtype=float) for s in "ab"}
    push_max = _zmax(np.concatenate([pushes["a"], pushes["b"]]))
    where = f"{_l(labels, 'response')} #%{{customdata[0]}}, {_l(labels, 'position')} %{{customdata[1]}}"

    def color(values: np.ndarray) -> list:
        return [0.0 if not math.isfinite(v) else float(v) for v in values]

    ratio_text = [f"{v:.2f}" if math.isfinite(v) else "" for v in data["token_ratio"].astype(float)]
    ratio_max = _zmax(log_ratio)
    # white on the darkest squares, dark grey elsewhere
    ratio_ink = ["#ffffff" if math.isfinite(v) and abs(v) > 0.6 * ratio_max else "#222222" for v in log_ratio]
    fig.add_trace(
        go.Scatter(
            x=x,
            y=y,
            mode="markers+text",
            text=ratio_text,
            textfont={"size": 10, "color": ratio_ink},
            customdata=[[*c, f"{lr:+.4g}" if math.isfinite(lr) else ""] for c, lr in zip(custom, log_ratio)],
            marker={
                "symbol": "square",
                "size": SQUARE,
                "color": color(log_ratio),
                "colorscale": DIVERGING_SCALE,
                "cmin": -ratio_max,
                "cmax": ratio_max,
                "line": {"width": 1, "color": "#bbbbbb"},
            },
            hovertemplate=f"{_l(labels, 'log_ratio')}: %{{customdata[2]}}<br>{_l(labels, 'ratio')}: %{{text}}"
            f"<extra>{where}</extra>",
            showlegend=False,
        ),
        row=1,
        col=1,
    )
    for row, side in ((2, "a"), (3, "b")):
        states = data[f"state_{side}"].astype(str).tolist()
        adv = pd.to_numeric(data.get(f"advantage_{side}", pd.Series(np.nan, index=data.index)), errors="coerce")
        fig.add_trace(
            go.Scatter(
                x=x,
                y=y,
                mode="markers+text",
                text=[STATE_MARKS.get(s, "") for s in states],
                textfont={"size": 12},
                customdata=[
                    [
                        *c,
                        f"{p:+.4g}" if math.isfinite(p) else "",
                        f"{a:+.4g}" if math.isfinite(a) else "",
                        _l(labels, f"state.{s}"),
                    ]
                    for c, p, a, s in zip(custom, pushes[side], adv.to_numpy(dtype=float), states)
                ],
                marker={
                    "symbol": "square",
                    "size": SQUARE,
                    "color": color(pushes[side]),
                    "colorscale": DIVERGING_SCALE,
                    "cmin": -push_max,
                    "cmax": push_max,
                    "line": {"width": 1, "color": "#bbbbbb"},
                },
                hovertemplate=f"{_l(labels, 'push')}: %{{customdata[2]}}<br>{_l(labels, 'advantage')}: "
                f"%{{customdata[3]}}<br>%{{customdata[4]}}<extra>{where}</extra>",
                showlegend=False,
            ),
            row=row,
            col=1,
        )
    if selected is not None:
        for row in (1, 2, 3):
            fig.add_trace(
                go.Scatter(
                    x=[int(selected[1])],
                    y=[int(selected[0])],
                    mode="markers",
                    customdata=[[int(selected[0]), int(selected[1])]],
                    marker={"symbol": "square-open", "size": SQUARE + 8, "color": "#000000", "line": {"width": 3}},
                    hoverinfo="skip",
                    showlegend=False,
                ),
                row=row,
                col=1,
            )
    strip = ROW_PX * len(responses) + 40
    base_layout(fig, height=3 * strip + 90)
    fig.update_layout(margin={"l": 90, "r": 20, "t": 40, "b": 50}, clickmode="event+select", dragmode=False)
    ticktext = [labels.get(f"row.{r}", response_tag(r)) for r in responses]
    width = int(data["position"].max()) + 1
    fig.update_yaxes(
        tickvals=responses, ticktext=ticktext, autorange="reversed", showgrid=False, zeroline=False, fixedrange=True
    )
    fig.update_xaxes(
        range=[-0.6, width - 0.4], dtick=1, showgrid=False, zeroline=False, fixedrange=True, showticklabels=True
    )
    fig.update_xaxes(title_text=_l(labels, "position"), row=3, col=1)
    return fig
