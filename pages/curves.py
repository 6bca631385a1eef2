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
(``answers_held``, one question at a time). The cached experiment, its figures and the setting controls
are in ``app_common.parts.curves``; the captions and readings are built by ``rlviz.experiments.curves``.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from app_common import (
    chart,
    csv_download,
    ensure_shell,
    export_configs,
    formula,
    fragment,
    labels,
    lang,
    predict,
    show_bad_input,
    stop,
    tr,
)
from app_common.parts import curves as parts
from app_common.predictions import answers_held, held_note, questions_header
from app_common.template import notes, page_top, practitioners
from rlviz.core.objectives import ALGORITHMS, TOKEN_STATES
from rlviz.experiments import curves as C
from rlviz.experiments.curves import (
    DEFAULT_OLD_PROB,
    DEFAULT_VARIANTS,
    DUAL_VARIANT,
    OLD_PROB_RANGE,
    PROBABILITY_VARIANTS,
    CurveSettings,
    default_settings,
    own_settings,
    reads_probability,
    variant_overrides,
    variants,
)
from rlviz.i18n import latex_text
from rlviz.plots.curves import support_table
from rlviz.teach.predict import PREDICTIONS, state_from_settings

ensure_shell()
L = lang()
CATALOG = variants()  # read from the registry on every run
titles = {k: v.title for k, v in CATALOG.items()}
PANEL_WIDTH = 208  # one panel a row beside the figure (1400 px), two a row under it (1024 px, sidebar open)
FIGURE_HEIGHT = 640  # the overlay's height (rlviz.plots.curves): the sliders' box beside it is as tall
# the locale keys ("curves.<key>") the hover of both curve figures reads: J, w, a soft gate, the states
HOVER_KEYS = ("j_short", "w_short", "gate_label", *(f"state.{s}" for s in TOKEN_STATES))
# One token, advantage A, ratio r: what the figures plot. Each chosen objective's own formula is its
# registry entry's (AlgorithmSpec.latex, the per-token loss λ), drawn under these below the figure.
DEFINITIONS = r"""\small\begin{gathered}
r=\frac{\pi_\theta(y)}{\pi_{\theta_\text{old}}(y)},\quad J=-\lambda\\[4pt]
w=\frac{\partial J}{\partial\log\pi}=r\,\frac{\partial J}{\partial r}
\end{gathered}"""  # sg[x], the stop-gradient, is defined in words under it (curves.sg), in the page's language


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

x_range = res.x_range
log_axis = bool(log_x) and not zoom  # its toggle is disabled while zoomed

# ---------------------------------------------------------------------------------------- overlay
with figure_col:
    if not res.variants:
        st.info(tr("curves.none_selected"))
    else:
        overlay_labels = labels(
            "curves",
            "x_title",
            "j_axis",
            "w_axis",
            *HOVER_KEYS,
            panel_j_pos=tr("curves.panel_j", sign="A = +1"),
            panel_j_neg=tr("curves.panel_j", sign="A = −1"),
            panel_w_pos=tr("curves.panel_w", sign="A = +1"),
            panel_w_neg=tr("curves.panel_w", sign="A = −1"),
        )
        chart(
            parts.overlay_figure(tuple(chosen), settings, bool(zoom), log_axis, tuple(overlay_labels.items()), res),
            "c_overlay",
        )
    if zoom:
        st.caption(tr("curves.zoom_note", lo=f"{x_range[0]:.5g}", hi=f"{x_range[1]:.5g}"))
    if res.variants:
        caption = C.overlay_caption(res, L)
        st.caption(caption)

with notes():
    st.markdown(tr("curves.intro"))
    st.caption(tr("curves.algorithms_help"))
    st.caption(tr("curves.settings_caption"))
    if res.variants:
        # the definitions, then each chosen objective's per-token loss from its registry entry, one under
        # the other at the page's width (half a page was too narrow for GSPO's at 1024 px)
        st.latex(DEFINITIONS)
        st.caption(tr("curves.sg"))
        for name in dict.fromkeys(CATALOG[v].algorithm for v in res.variants):
            st.markdown(f"**{ALGORITHMS[name].title}**")
            formula(ALGORITHMS[name].latex, small=True)
        st.markdown(tr("curves.convention"))

with practitioners():
    st.markdown(tr("curves.practitioners"))
    items = C.practitioner_items(chosen, L)  # each chosen objective's paper and names
    if items:
        st.markdown(items)
    export_configs(  # the chosen objectives with their slider settings, one tab each
        {titles[v]: (CATALOG[v].algorithm, {**CATALOG[v].base_overrides, **overrides.get(v, {})}) for v in chosen},
        key="c_export",
    )
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
    gallery_labels = labels("curves", "legend_j", "legend_w", "x_short", *HOVER_KEYS)
    chart(
        parts.gallery_figure(tuple(chosen), settings, bool(zoom), log_axis, tuple(gallery_labels.items()), res),
        "c_gallery",
    )
    st.caption(tr("curves.gallery_caption"))
    st.markdown(f"**{tr('curves.support_header')}**")
    if negative_held:  # where A < 0 keeps a gradient: the second question's answer
        held_note()
    else:
        support_labels = labels(
            "curves",
            *(f"support.{k}" for k in ("col_band", "col_pos", "col_neg", "all", "no_band")),
            algorithm=tr("word.algorithm"),
        )
        st.dataframe(support_table(res.support, support_labels), hide_index=True)
        st.caption(tr("curves.support_caption"))
        csv_download(
            res.support.drop(columns=["title"]),
            "curves-gradient-range",
            key="c_csv_support",
            label=tr("curves.csv_support"),
        )
    # the rules the questions ask about, in words
    with st.expander(tr("curves.look_header"), expanded=True):
        if negative_held:
            held_note()
        else:
            st.markdown(tr("curves.look"))

# ---------------------------------------------------------------------------------------- six cases
st.subheader(tr("curves.cases_header"))
left, right = st.columns(2, gap="medium")
left.latex(
    r"\small\begin{gathered}J=\min\big(rA,\ \bar rA\big)\\"
    r"\bar r=\operatorname{clip}(r,1-\varepsilon_\text{low},1+\varepsilon_\text{high})\end{gathered}"
)
right.latex(
    latex_text(
        r"\small\begin{gathered}w=\frac{\partial J}{\partial\log\pi}=rA\cdot\mathbb{1}\big[rA\le\bar rA\big]\\"
        r"\text{dual, }A<0\text{: } J=\max(J,\,cA)\end{gathered}",
        L,
    )
)
if negative_held:  # which cases keep a gradient: the second question's answer
    held_note()
else:
    cases_labels = labels(
        "curves",
        *(f"cases.col_{k}" for k in ("case", "zero_gradient", "branch", "ratio", "objective", "gradient_weight")),
        *(f"cases.region_{k}" for k in ("below", "inside", "above", "beyond_c")),
        *(f"cases.branch_{k}" for k in ("unclipped", "clipped", "equal", "dual")),
        "cases.yes",
        "cases.no",
    )
    parts.show_cases(
        res.cases_variant,
        own_settings((res.cases_variant, DUAL_VARIANT), settings),
        tuple(cases_labels.items()),
        res.cases,
    )
    st.caption(
        tr(
            "curves.cases_caption",
            case=titles.get(res.cases_variant, res.cases_variant),
            dual=titles.get(DUAL_VARIANT, DUAL_VARIANT),
        )
    )
    csv_download(res.cases, "curves-ppo-cases", key="c_csv_cases", label=tr("curves.csv_cases"))

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
    names = C.probability_names(eps, L)
    prob_labels = labels(
        "curves",
        *(f"prob_{k}" for k in ("left", "right", "identity", "hover", "x", "y_left", "y_right")),
        **{f"name.{v}": name for v, name in names.items()},
    )
    with left:
        figure = parts.probability_chart(tuple(ceilings.items()), marks, tuple(prob_labels.items()), not held, prob)
        chart(figure, "c_prob")
    if held:  # the ceilings at the marks: the first question's answer
        held_note()
    else:
        for text in C.probability_readings(prob, marks, ceilings, names, L):
            st.markdown(text)
    csv_download(prob, "curves-probability", key="c_csv_prob", label=tr("curves.csv_prob"))


probability_section(ceiling_held)
