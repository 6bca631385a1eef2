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
(``answers_held``, one question at a time).
"""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from app_common import (
    chart,
    csv_download,
    ensure_shell,
    export_configs,
    figure_cache,
    formula,
    fragment,
    labels,
    lang,
    predict,
    settings_hash,
    show_bad_input,
    stop,
    tr,
)
from app_common.predictions import answers_held, held_note, questions_header
from app_common.template import notes, page_top, practitioners
from rlviz.core.objectives import ALGORITHMS, TOKEN_STATES, Setting
from rlviz.experiments.curves import (
    DEFAULT_OLD_PROB,
    DEFAULT_VARIANTS,
    DUAL_VARIANT,
    OLD_PROB_RANGE,
    PROBABILITY_VARIANTS,
    CurveSettings,
    CurvesResult,
    cases_variant_of,
    curves_frame,
    default_settings,
    own_settings,
    ppo_cases_frame,
    probability_frame,
    reads_probability,
    run,
    slider_start,
    support_frame,
    variant_overrides,
    variants,
    x_axis,
)
from rlviz.i18n import latex_text
from rlviz.plots.curves import (
    cases_table,
    curves_gallery_figure,
    curves_overlay_figure,
    probability_figure,
    support_table,
)
from rlviz.teach.predict import PREDICTIONS, state_from_settings

ensure_shell()
L = lang()
HASH = settings_hash(CurveSettings)  # the settings hashed by their repr (app_common.settings_hash)
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
def _number(x: Any) -> str:
    return f"{x:g}" if isinstance(x, (int, float)) else str(x)


def setting_control(variant: str, s: Setting, value: Any) -> Any:
    """The control of one surrogate setting of ``variant``, starting at ``value``; returns its value.

    ``Setting.choices`` -> a select slider, ``Setting.range`` -> a slider (a number box without
    either); a setting whose registry default is None (off) also gets an on/off toggle, and is None
    while that is off. Key ``c_<variant>_<setting>`` (the toggle ``..._on``), bound to the URL."""
    key = f"c_{variant}_{s.name}"
    label = s.help.get(L, s.name)
    tip = tr(
        "curves.setting_help",
        default=tr("curves.off") if s.default is None else _number(s.default),
        source=s.source,
        trl=s.trl or "—",
        verl=s.verl or "—",
    )
    optional = s.default is None
    on = True
    if optional:
        on = st.toggle(label, value=value is not None, key=f"{key}_on", help=tip, bind="query-params")
        label_visibility = "collapsed"  # the toggle above says what it is
    else:
        label_visibility = "visible"
    common = {"key": key, "disabled": not on, "label_visibility": label_visibility, "bind": "query-params"}
    common["help"] = None if optional else tip
    if s.choices:
        options = list(s.choices)
        start = value if value in options else options[0]
        out = st.select_slider(label, options, value=start, format_func=_number, **common)
    elif s.range:
        low, high, step = (float(x) for x in s.range)
        start = slider_start(s.name, low) if value is None else float(value)
        out = float(st.slider(label, low, high, min(max(start, low), high), step, **common))
    else:
        start = 0.0 if value is None else float(value)
        out = float(st.number_input(label, value=start, **common))
    return out if on else None


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
                overrides[v] = {s.name: setting_control(v, s, start[s.name]) for s in spec.surrogate_settings}
            fields[v] = {s.name: f"{titles[v]} · {s.help.get(L, s.name)}" for s in spec.surrogate_settings}


def _alone(variant: str, settings: CurveSettings) -> CurveSettings:
    """``settings`` with only what ``variant``'s own results read (its sliders; π_old if it reads it)."""
    return own_settings([variant], settings)


@st.cache_data(max_entries=256, show_spinner=False, hash_funcs=HASH)
def _support(variant: str, settings: CurveSettings):
    """One variant's gradient ranges (the costly part of the experiment), cached by its own
    sliders, so that moving a slider recomputes only its variant's."""
    return support_frame([variant], settings)


@st.cache_data(max_entries=256, show_spinner=False, hash_funcs=HASH)
def _curve(variant: str, settings: CurveSettings, x_range: tuple[float, float], n: int):
    """One variant's curves on the page's ratio axis, cached by its own sliders and the axis."""
    return curves_frame([variant], settings, *x_range, n=n, support=_support(variant, settings))


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs=HASH)
def _cases_of(variant: str, settings: CurveSettings):
    return ppo_cases_frame(settings, variant=variant)


def _cases(variant: str, settings: CurveSettings):
    """The clip cases of ``variant``, cached by the sliders they read (``variant``'s and the dual clip's)."""
    return _cases_of(variant, own_settings((variant, DUAL_VARIANT), settings))


def _parts(variants, settings: CurveSettings, part, *args) -> pd.DataFrame | None:
    """``part`` of each variant under its own sliders (``_alone``), in one frame; None for none."""
    frames = [part(v, _alone(v, settings), *args) for v in dict.fromkeys(variants)]
    return pd.concat(frames, ignore_index=True) if frames else None


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs=HASH)
def _compute(variants: tuple[str, ...], settings: CurveSettings, zoom: bool) -> CurvesResult:
    """The experiment, cached by its inputs (all plain values; nothing random), from each variant's
    parts cached by that variant's own sliders: a slider recomputes only its own variant's."""
    x_range, n = x_axis(variants, settings, zoom)
    return run(
        variants,
        settings,
        zoom=zoom,
        support=_parts(variants, settings, _support),
        curves=_parts(variants, settings, _curve, x_range, n),
        cases=_cases(cases_variant_of(variants), settings),
    )


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs=HASH)
def _show_cases(variant: str, settings: CurveSettings, words: tuple, _cases: pd.DataFrame) -> None:
    """The clip-cases table, keyed by what decides it (``variant``, the sliders it reads, ``words``:
    the labels, so the language); ``_cases`` (not hashed) is ``_cases(variant, settings)``. Streamlit
    replays the drawn table on a hit: its styled cells (the shaded rows) are not marshalled again on
    a rerun that leaves them alone, most of a slider's rerun when they were."""
    st.dataframe(cases_table(_cases, dict(words)), hide_index=True)


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs=HASH)
def _probability(settings: CurveSettings, marks: tuple[float, ...]):
    """The probability view, cached by its inputs; r* read from each variant's cached gradient range."""
    return probability_frame(
        settings, PROBABILITY_VARIANTS, marks=marks, support=_parts(PROBABILITY_VARIANTS, settings, _support)
    )


@figure_cache(hash_funcs=HASH)
def _overlay_figure(
    variants: tuple[str, ...], settings: CurveSettings, zoom: bool, log_x: bool, words: tuple, _res: CurvesResult
):
    """The overlay figure's spec, cached by its inputs (``words``: the labels, so the language);
    ``_res`` (not hashed) is ``_compute`` of them, which the page holds already."""
    band = _res.first_band
    return curves_overlay_figure(
        _res.curves, dict(words), x_range=_res.x_range, log_x=log_x, band=band[1] if band else None, as_spec=True
    )


@figure_cache(hash_funcs=HASH)
def _gallery_figure(
    variants: tuple[str, ...], settings: CurveSettings, zoom: bool, log_x: bool, words: tuple, _res: CurvesResult
):
    """The gallery figure's spec, cached by its inputs (``words``: the labels, so the language);
    ``_res`` (not hashed) is ``_compute`` of them, which the page holds already."""
    return curves_gallery_figure(
        _res.curves,
        dict(words),
        bands=_res.bands,
        x_range=_res.x_range,
        log_x=log_x,
        dual_clips=_res.dual_clips,
        as_spec=True,
    )


@figure_cache
def _probability_figure(ceilings: tuple, marks: tuple[float, ...], words: tuple, values: bool, _prob: pd.DataFrame):
    """The probability figure's spec, cached by what decides it: each compared variant's r*
    (``ceilings``), the marks, ``words`` (the labels, so the language) and ``values`` (the marks'
    value labels: off while a question they answer waits). ``_prob`` (not hashed) is
    ``probability_frame`` of these, so a slider that leaves r* alone (ε_low) reuses the figure."""
    return probability_figure(_prob, dict(words), values=values, as_spec=True)


settings = CurveSettings(overrides, old_prob=float(old_prob))
for v in overrides:  # one variant at a time, so that a message names the right slider (beside the sliders)
    try:
        variant_overrides(v, settings)
    except ValueError as exc:
        with controls_col:
            show_bad_input(exc, fields[v])
        stop()
try:
    res = _compute(tuple(chosen), settings, bool(zoom))
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
            _overlay_figure(tuple(chosen), settings, bool(zoom), log_axis, tuple(overlay_labels.items()), res),
            "c_overlay",
        )
    if zoom:
        st.caption(tr("curves.zoom_note", lo=f"{x_range[0]:.5g}", hi=f"{x_range[1]:.5g}"))
    if res.variants:
        caption = tr("curves.overlay_caption")
        first_band = res.first_band
        if first_band:
            band_of, (lo, hi) = first_band
            caption += " " + tr("curves.overlay_band", title=titles[band_of], lo=f"{lo:.4g}", hi=f"{hi:.4g}")
        # a stop-gradient weight (the registry's detached_weight): its J is a value, not a surrogate
        detached = [titles[v] for v in res.variants if ALGORITHMS[CATALOG[v].algorithm].detached_weight]
        if detached:
            caption += " " + tr("curves.detached_note", titles=", ".join(detached))
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
    items = []
    for name in dict.fromkeys(CATALOG[v].algorithm for v in chosen):  # each chosen objective's paper and names
        spec = ALGORITHMS[name]
        item = tr("curves.paper_item", title=spec.title, paper=spec.paper, arxiv=spec.arxiv, where=spec.equation)
        names = [
            tr(
                "curves.setting_item",
                name=s.help.get(L, s.name),
                trl=f"`{s.trl}`" if s.trl else "—",
                verl=f"`{s.verl}`" if s.verl else "—",
            )
            for s in spec.surrogate_settings
        ]
        items.append(f"- {item}" + "".join(f"\n    - {n}" for n in names))
    if items:
        st.markdown("\n".join(items))
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
        _gallery_figure(tuple(chosen), settings, bool(zoom), log_axis, tuple(gallery_labels.items()), res), "c_gallery"
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
    _show_cases(
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
        prob, ceilings = _probability(mine, marks)
        eps = {v: variant_overrides(v, mine).get("epsilon_high") for v in PROBABILITY_VARIANTS}
    except ValueError as exc:
        show_bad_input(exc)
        return
    names = {
        v: tr("curves.prob_name", title=titles[v], eps=f"{eps[v]:.2f}") if eps[v] is not None else titles[v]
        for v in PROBABILITY_VARIANTS
    }
    prob_labels = labels(
        "curves",
        *(f"prob_{k}" for k in ("left", "right", "identity", "hover", "x", "y_left", "y_right")),
        **{f"name.{v}": name for v, name in names.items()},
    )
    with left:
        figure = _probability_figure(tuple(ceilings.items()), marks, tuple(prob_labels.items()), not held, prob)
        chart(figure, "c_prob")
    if held:  # the ceilings at the marks: the first question's answer
        held_note()
    else:
        a, b = PROBABILITY_VARIANTS[:2]
        marked = prob[prob["marked"].to_numpy(dtype=bool)]  # the rows at the marks, read once (not per lookup)
        at = {
            (v, p): (new, room)
            for v, p, new, room in zip(
                marked["algorithm"].to_numpy(dtype=object),
                *(marked[c].to_numpy() for c in ("pi_old", "pi_new_max", "room")),
            )
        }
        for p in marks:
            st.markdown(
                tr(
                    "curves.prob_result",
                    p=f"{p:.2f}",
                    a=names[a],
                    b=names[b],
                    pa=f"{at[a, p][0]:.3f}",
                    pb=f"{at[b, p][0]:.3f}",
                    da=f"{at[a, p][1]:.3f}",
                    db=f"{at[b, p][1]:.3f}",
                    ra=f"{ceilings[a]:.4g}",
                    rb=f"{ceilings[b]:.4g}",
                )
            )
    csv_download(prob, "curves-probability", key="c_csv_prob", label=tr("curves.csv_prob"))


probability_section(ceiling_held)
