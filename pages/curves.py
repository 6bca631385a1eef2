"""Objective and gradient weight vs the importance ratio, for every algorithm side by side.

Widgets -> one call ``rlviz.experiments.curves.run`` (cached: a pure function of the sliders) ->
figure builders of ``rlviz.plots.curves``. Every curve is ``policy_loss`` evaluated on one token
and differentiated by autograd: the same code that trains the model on the Live page.
What can be chosen, and which sliders each choice gets, is read from the algorithm registry
(``rlviz.experiments.curves.variants`` and each spec's ``surrogate_settings``): a new registry entry
gets its curves and its sliders here without a change to this file.
No randomness on this page: the sidebar seed and device do not change anything here.

Layout (the page template, ``app_common.template``): title, path marker and lede; the choice of curves
just above the overlay figure, the axis toggles and the sliders in a column beside it (under it where
Streamlit stacks the columns, on a 1024 px window with the sidebar open); the notes and the block for
practitioners under the figure; the questions; then the gallery, the six cases and the probability
view. An element that states a question's answer (the gradient ranges, the six cases, the rules in
words, the probability view's values) is held back until that question is committed or skipped
(``answers_held``, one question at a time). The page holds the widgets and the layout;
``app_common.parts.curves`` the cached experiment, its figures, the setting controls and the views (the
overlay with its captions, the notes, the block for practitioners, the gallery with its table of gradient
ranges, the six cases, the probability view's figure and readings); the captions and readings are built by
``rlviz.experiments.curves``.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from app_common import csv_download, ensure_shell, fragment, lang, predict, show_bad_input, stop, tr
from app_common.parts import curves as parts
from app_common.predictions import answers_held, questions_header
from app_common.template import page_top
from rlviz.core.objectives import ALGORITHMS
from rlviz.experiments.curves import (
    DEFAULT_OLD_PROB,
    DEFAULT_VARIANTS,
    OLD_PROB_RANGE,
    PROBABILITY_VARIANTS,
    CurveSettings,
    default_settings,
    reads_probability,
    variant_overrides,
    variants,
)
from rlviz.teach.predict import PREDICTIONS, state_from_settings

ensure_shell()
L = lang()
CATALOG = variants()  # read from the registry on every run
titles = {k: v.title for k, v in CATALOG.items()}
PANEL_WIDTH = 208  # one panel a row beside the figure (1400 px), two a row under it (1024 px, sidebar open)
FIGURE_HEIGHT = 640  # the overlay's height (rlviz.plots.curves): the sliders' box beside it is as tall


page_top("curves")


# ---------------------------------------------------------------------------------------- controls
# the figure first (issue 39): the choice of curves just above it, the sliders that shape them in a
# column beside it (under it on a narrow window, where Streamlit stacks the columns), the axis
# options over the sliders; the explanations in the notes under the figure
chosen = st.multiselect(
    tr("curves.algorithms"),
    list(CATALOG),
    default=[v for v in DEFAULT_VARIANTS if v in CATALOG],
    format_func=titles.get,
    key="c_algos",
    help=tr("curves.algorithms_help"),
    bind="query-params",
    placeholder=tr("common.choose"),
    label_visibility="collapsed",  # the chips name the algorithms; the label's words were above the figure
)
figure_col, controls_col = st.columns([5, 2], gap="medium")
overrides: dict[str, dict[str, Any]] = {}
fields: dict[str, dict[str, str]] = {}  # variant -> parameter name -> the label of its widget
with controls_col:
    # wrap: a long label wraps in the narrow column (by default it was cut with an ellipsis)
    zoom = st.toggle(
        tr("curves.zoom"), value=False, key="c_zoom", help=tr("curves.zoom_help"), bind="query-params", wrap=True
    )
    # over 1 ± 1e-3 a log axis would look linear: off (and said so) while zoomed
    log_x = st.toggle(
        tr("curves.log_x"),
        value=False,
        key="c_logx",
        help=tr("curves.log_x_help") + (" " + tr("curves.log_x_zoomed") if zoom else ""),
        disabled=bool(zoom),
        bind="query-params",
        wrap=True,
    )
    # pi_old matters only to an objective that reads probabilities (the registry says which): its slider
    # shows when one of them is chosen
    readers = [v for v in chosen if reads_probability(v)]
    old_prob = DEFAULT_OLD_PROB
    if readers:
        low, high, step = OLD_PROB_RANGE
        old_prob = st.slider(
            tr("curves.old_prob"),
            low,
            high,
            DEFAULT_OLD_PROB,
            step,
            key="c_old_prob",
            help=tr("curves.old_prob_help", titles=", ".join(titles[v] for v in readers)),
            bind="query-params",
        )
        st.caption(
            tr("curves.old_prob_caption", titles=", ".join(titles[v] for v in readers), top=f"{1 / old_prob:.3g}")
        )
    if any(ALGORITHMS[CATALOG[v].algorithm].surrogate_settings for v in chosen):
        st.markdown(f"**{tr('curves.settings')}**", help=tr("curves.settings_caption"))
    # the panels scroll inside a box as tall as the figure beside it
    with st.container(height=FIGURE_HEIGHT - 120 if chosen else "content", border=False, key="c_panels"):
        panels = st.container(horizontal=True, gap="small")
        for v in chosen:
            spec = ALGORITHMS[CATALOG[v].algorithm]
            if not spec.surrogate_settings:
                continue
            start = default_settings(v)
            with panels.container(border=True, width=PANEL_WIDTH):
                st.markdown(f"**{titles[v]}**", help=spec.summary.get(L))
                overrides[v] = {s.name: parts.setting_control(v, s, start[s.name]) for s in spec.surrogate_settings}
            fields[v] = {s.name: f"{titles[v]} · {s.help.get(L, s.name)}" for s in spec.surrogate_settings}


settings = CurveSettings(overrides, old_prob=float(old_prob))
for v in overrides:  # one variant at a time, so that a message names the right slider (beside the sliders)
    try:
        variant_overrides(v, settings)
    except ValueError as exc:
        with controls_col:
            show_bad_input(exc, fields[v])
        stop()
try:
    res = parts.compute(tuple(chosen), settings, bool(zoom))
except ValueError as exc:
    with controls_col:
        show_bad_input(exc)
    stop()

# the questions' settings (PPO's sliders) and, per question, whether its answer is still held back: an
# element that states a question's answer is drawn only once the learner has committed (or skipped) it
try:
    ppo_state = state_from_settings("curves", st.session_state) if "ppo" in CATALOG else None
except ValueError:  # a bad slider value: its message is shown beside the sliders
    ppo_state = None
held = {p.key: ppo_state is not None and answers_held([p], ppo_state) for p in PREDICTIONS["curves"]}
ceiling_held, negative_held = held["teach.curves_ceiling"], held["teach.curves_negative"]

log_axis = bool(log_x) and not zoom  # its toggle is disabled while zoomed

# ---------------------------------------------------------------------------------------- overlay
with figure_col:  # the figure, the zoomed range, the reading of what it shows
    parts.overlay(tuple(chosen), settings, bool(zoom), log_axis, res)
parts.page_notes(res, CATALOG)  # what the page shows, r, J and w, each shown objective's per-token loss
parts.practitioners_block(chosen, overrides, CATALOG, key="c_export")  # papers, names; the sliders' export
if res.variants:
    csv_download(res.curves.drop(columns=["title"]), "curves", key="c_csv_curves", label=tr("curves.csv_curves"))

# ---------------------------------------------------------------------------------------- predict, then check
# the tables, sentences and labels below that state an answer are held back until it is committed
questions_header()
if ppo_state is not None:
    cols = st.columns(len(PREDICTIONS["curves"]), border=True)
    for col, prediction in zip(cols, PREDICTIONS["curves"]):
        with col:
            predict(prediction, ppo_state)

# ---------------------------------------------------------------------------------------- gallery
if res.variants:
    st.subheader(tr("curves.gallery_header"))
    # the panels, where each keeps a gradient and the rules in words: the last two are the second
    # question's answer (where A < 0 keeps a gradient), held back until it is committed
    parts.gallery(tuple(chosen), settings, bool(zoom), log_axis, res, negative_held)

# ---------------------------------------------------------------------------------------- six cases
st.subheader(tr("curves.cases_header"))
parts.case_formulas(*st.columns(2, gap="medium"))  # J and w of PPO's clipped objective, side by side
parts.cases(res, settings, titles, negative_held)  # which cases keep a gradient: the second question's answer

# ---------------------------------------------------------------------------------------- probability
st.subheader(tr("curves.prob_header"))
st.markdown(tr("curves.prob_intro"))


@fragment
def probability_section(held: bool) -> None:
    """The probability view; its slider reruns only this part. ``held``: the first question (the
    highest π a token at π_old = 0.2 reaches) waits for its answer: the figure is drawn without its
    value labels and the sentences that read them out are held back."""
    left, right = st.columns([3, 1], gap="medium")
    with right:
        mark = st.slider(
            tr("curves.prob_mark"),
            0.01,
            0.99,
            0.2,
            0.01,
            key="c_pi",
            help=tr("curves.prob_mark_help"),
            bind="query-params",
        )
        st.latex(r"\small\pi_\text{new}\le\min\big(1,\ \pi_\text{old}\,r^*\big)")
        # r* in words, wrapped: as a formula it was cut at the quarter column's edge (1024 px, 1280 px)
        st.markdown(tr("curves.rstar"))
    marks = tuple(dict.fromkeys([0.2, round(float(mark), 4)]))
    # only the compared variants' sliders matter here (a smaller cache key)
    mine = CurveSettings({v: o for v, o in settings.overrides.items() if v in PROBABILITY_VARIANTS})
    try:
        prob, ceilings = parts.probability(mine, marks)
        eps = {v: variant_overrides(v, mine).get("epsilon_high") for v in PROBABILITY_VARIANTS}
    except ValueError as exc:
        show_bad_input(exc)
        return
    parts.probability_view(left, prob, ceilings, marks, eps, held)  # the ceilings at the marks: held or read


probability_section(ceiling_held)
