"""The curves page's Streamlit-bound support: the control of one surrogate setting, the experiment's
parts cached by each variant's own sliders (a slider recomputes only its own variant's), the cached clip-cases
table and figure specs, and the page's views: the overlay with its captions, the notes, the block for
practitioners, the gallery with its table of gradient ranges, the six cases and the probability view's figure
and readings. The page keeps its widgets and its layout. The library is called through its module
(``C.curves_frame``), so a test that counts its calls sees them."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from app_common.charts import chart, csv_download, figure_cache, settings_hash
from app_common.export import export_configs
from app_common.predictions import held_note
from app_common.template import notes, practitioners
from app_common.text import formula, labels, lang, tr
from rlviz.core.objectives import ALGORITHMS, TOKEN_STATES, Setting
from rlviz.experiments import curves as C
from rlviz.experiments.curves import CurveSettings, CurvesResult
from rlviz.i18n import latex_text
from rlviz.plots.curves import (
    cases_table,
    curves_gallery_figure,
    curves_overlay_figure,
    probability_figure,
    support_table,
)

HASH = settings_hash(CurveSettings)  # the settings hashed by their repr (app_common.settings_hash)
# the locale keys ("curves.<key>") the hover of both curve figures reads: J, w, a soft gate, the states
HOVER_KEYS = ("j_short", "w_short", "gate_label", *(f"state.{s}" for s in TOKEN_STATES))
# One token, advantage A, ratio r: what the figures plot. Each chosen objective's own formula is its
# registry entry's (AlgorithmSpec.latex, the per-token loss λ), drawn under these in the notes.
DEFINITIONS = r"""\small\begin{gathered}
r=\frac{\pi_\theta(y)}{\pi_{\theta_\text{old}}(y)},\quad J=-\lambda\\[4pt]
w=\frac{\partial J}{\partial\log\pi}=r\,\frac{\partial J}{\partial r}
\end{gathered}"""  # sg[x], the stop-gradient, is defined in words under it (curves.sg), in the page's language


def _number(x: Any) -> str:
    return f"{x:g}" if isinstance(x, (int, float)) else str(x)


def setting_control(variant: str, s: Setting, value: Any) -> Any:
    """The control of one surrogate setting of ``variant``, starting at ``value``; returns its value.

    ``Setting.choices`` -> a select slider, ``Setting.range`` -> a slider (a number box without
    either); a setting whose registry default is None (off) also gets an on/off toggle, and is None
    while that is off. Key ``c_<variant>_<setting>`` (the toggle ``..._on``), bound to the URL."""
    key = f"c_{variant}_{s.name}"
    label = s.help.get(lang(), s.name)
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
        start = C.slider_start(s.name, low) if value is None else float(value)
        out = float(st.slider(label, low, high, min(max(start, low), high), step, **common))
    else:
        start = 0.0 if value is None else float(value)
        out = float(st.number_input(label, value=start, **common))
    return out if on else None


def _alone(variant: str, settings: CurveSettings) -> CurveSettings:
    """``settings`` with only what ``variant``'s own results read (its sliders; π_old if it reads it)."""
    return C.own_settings([variant], settings)


@st.cache_data(max_entries=256, show_spinner=False, hash_funcs=HASH)
def _support(variant: str, settings: CurveSettings):
    """One variant's gradient ranges (the costly part of the experiment), cached by its own
    sliders, so that moving a slider recomputes only its variant's."""
    return C.support_frame([variant], settings)


@st.cache_data(max_entries=256, show_spinner=False, hash_funcs=HASH)
def _curve(variant: str, settings: CurveSettings, x_range: tuple[float, float], n: int):
    """One variant's curves on the page's ratio axis, cached by its own sliders and the axis."""
    return C.curves_frame([variant], settings, *x_range, n=n, support=_support(variant, settings))


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs=HASH)
def _cases_of(variant: str, settings: CurveSettings):
    return C.ppo_cases_frame(settings, variant=variant)


def _cases(variant: str, settings: CurveSettings):
    """The clip cases of ``variant``, cached by the sliders they read (``variant``'s and the dual clip's)."""
    return _cases_of(variant, C.own_settings((variant, C.DUAL_VARIANT), settings))


def _parts(variants, settings: CurveSettings, part, *args) -> pd.DataFrame | None:
    """``part`` of each variant under its own sliders (``_alone``), in one frame; None for none."""
    frames = [part(v, _alone(v, settings), *args) for v in dict.fromkeys(variants)]
    return pd.concat(frames, ignore_index=True) if frames else None


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs=HASH)
def compute(variants: tuple[str, ...], settings: CurveSettings, zoom: bool) -> CurvesResult:
    """The experiment, cached by its inputs (all plain values; nothing random), from each variant's
    parts cached by that variant's own sliders: a slider recomputes only its own variant's."""
    x_range, n = C.x_axis(variants, settings, zoom)
    return C.run(
        variants,
        settings,
        zoom=zoom,
        support=_parts(variants, settings, _support),
        curves=_parts(variants, settings, _curve, x_range, n),
        cases=_cases(C.cases_variant_of(variants), settings),
    )


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs=HASH)
def show_cases(variant: str, settings: CurveSettings, words: tuple, _cases: pd.DataFrame) -> None:
    """The clip-cases table, keyed by what decides it (``variant``, the sliders it reads, ``words``:
    the labels, so the language); ``_cases`` (not hashed) is ``_cases(variant, settings)``. Streamlit
    replays the drawn table on a hit: its styled cells (the shaded rows) are not marshalled again on
    a rerun that leaves them alone, most of a slider's rerun when they were."""
    st.dataframe(cases_table(_cases, dict(words)), hide_index=True)


@st.cache_data(max_entries=64, show_spinner=False, hash_funcs=HASH)
def probability(settings: CurveSettings, marks: tuple[float, ...]):
    """The probability view, cached by its inputs; r* read from each variant's cached gradient range."""
    return C.probability_frame(
        settings, C.PROBABILITY_VARIANTS, marks=marks, support=_parts(C.PROBABILITY_VARIANTS, settings, _support)
    )


@figure_cache(hash_funcs=HASH)
def overlay_figure(
    variants: tuple[str, ...], settings: CurveSettings, zoom: bool, log_x: bool, words: tuple, _res: CurvesResult
):
    """The overlay figure's spec, cached by its inputs (``words``: the labels, so the language);
    ``_res`` (not hashed) is ``compute`` of them, which the page holds already."""
    band = _res.first_band
    return curves_overlay_figure(
        _res.curves, dict(words), x_range=_res.x_range, log_x=log_x, band=band[1] if band else None, as_spec=True
    )


@figure_cache(hash_funcs=HASH)
def gallery_figure(
    variants: tuple[str, ...], settings: CurveSettings, zoom: bool, log_x: bool, words: tuple, _res: CurvesResult
):
    """The gallery figure's spec, cached by its inputs (``words``: the labels, so the language);
    ``_res`` (not hashed) is ``compute`` of them, which the page holds already."""
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
def probability_chart(ceilings: tuple, marks: tuple[float, ...], words: tuple, values: bool, _prob: pd.DataFrame):
    """The probability figure's spec, cached by what decides it: each compared variant's r*
    (``ceilings``), the marks, ``words`` (the labels, so the language) and ``values`` (the marks'
    value labels: off while a question they answer waits). ``_prob`` (not hashed) is
    ``probability_frame`` of these, so a slider that leaves r* alone (ε_low) reuses the figure."""
    return probability_figure(_prob, dict(words), values=values, as_spec=True)


# ---------------------------------------------------------------------------------------- the page's views
def overlay(variants: tuple[str, ...], settings: CurveSettings, zoom: bool, log_x: bool, res: CurvesResult) -> None:
    """The overlay figure (J and w against r, A = ±1) of the chosen ``variants`` with its captions: the
    zoomed range while ``zoom``, then the reading of what it shows; a hint when no variant is chosen.
    ``res`` is :func:`compute` of them."""
    if not res.variants:
        st.info(tr("curves.none_selected"))
    else:
        words = labels(
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
        chart(overlay_figure(variants, settings, zoom, log_x, tuple(words.items()), res), "c_overlay")
    if zoom:
        st.caption(tr("curves.zoom_note", lo=f"{res.x_range[0]:.5g}", hi=f"{res.x_range[1]:.5g}"))
    if res.variants:
        st.caption(C.overlay_caption(res, lang()))


def page_notes(res: CurvesResult, catalog: dict[str, C.Variant]) -> None:
    """The page's explanations, collapsed: what it shows, the definitions of r, J and w, then each shown
    objective's per-token loss from its registry entry (``AlgorithmSpec.latex``), one under the other at
    the page's width (half a page was too narrow for GSPO's at 1024 px). ``catalog``: ``C.variants()``."""
    with notes():
        st.markdown(tr("curves.intro"))
        st.caption(tr("curves.algorithms_help"))
        st.caption(tr("curves.settings_caption"))
        if res.variants:
            st.latex(DEFINITIONS)
            st.caption(tr("curves.sg"))
            for name in dict.fromkeys(catalog[v].algorithm for v in res.variants):
                st.markdown(f"**{ALGORITHMS[name].title}**")
                formula(ALGORITHMS[name].latex, small=True)
            st.markdown(tr("curves.convention"))


def practitioners_block(
    chosen: list[str], overrides: dict[str, dict[str, Any]], catalog: dict[str, C.Variant], key: str
) -> None:
    """The block for practitioners: each chosen objective's paper and names, then the "Export to TRL /
    verl" expander (keyed ``key``) of the chosen objectives with their slider settings (``overrides``),
    one tab each."""
    with practitioners():
        st.markdown(tr("curves.practitioners"))
        items = C.practitioner_items(chosen, lang())
        if items:
            st.markdown(items)
        export_configs(
            {
                catalog[v].title: (catalog[v].algorithm, {**catalog[v].base_overrides, **overrides.get(v, {})})
                for v in chosen
            },
            key=key,
        )


def gallery(
    variants: tuple[str, ...], settings: CurveSettings, zoom: bool, log_x: bool, res: CurvesResult, held: bool
) -> None:
    """The gallery (one panel per chosen variant), its caption, the table of where each keeps a gradient
    with its CSV, and the rules in words; the table and the rules are the second question's answer: a
    held note in their place while ``held``."""
    words = labels("curves", "legend_j", "legend_w", "x_short", *HOVER_KEYS)
    chart(gallery_figure(variants, settings, zoom, log_x, tuple(words.items()), res), "c_gallery")
    st.caption(tr("curves.gallery_caption"))
    st.markdown(f"**{tr('curves.support_header')}**")
    if held:
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
    with st.expander(tr("curves.look_header"), expanded=True):
        if held:
            held_note()
        else:
            st.markdown(tr("curves.look"))


def case_formulas(left, right) -> None:
    """PPO's clipped objective J (in ``left``) and its gradient weight w with the dual clip (in ``right``)."""
    left.latex(
        r"\small\begin{gathered}J=\min\big(rA,\ \bar rA\big)\\"
        r"\bar r=\operatorname{clip}(r,1-\varepsilon_\text{low},1+\varepsilon_\text{high})\end{gathered}"
    )
    right.latex(
        latex_text(
            r"\small\begin{gathered}w=\frac{\partial J}{\partial\log\pi}=rA\cdot\mathbb{1}\big[rA\le\bar rA\big]\\"
            r"\text{dual, }A<0\text{: } J=\max(J,\,cA)\end{gathered}",
            lang(),
        )
    )


def cases(res: CurvesResult, settings: CurveSettings, titles: dict[str, str], held: bool) -> None:
    """The six cases of the clipped objective as a table (:func:`show_cases`), its caption and its CSV; a
    held note while ``held`` (which cases keep a gradient: the second question's answer)."""
    if held:
        held_note()
        return
    words = labels(
        "curves",
        *(f"cases.col_{k}" for k in ("case", "zero_gradient", "branch", "ratio", "objective", "gradient_weight")),
        *(f"cases.region_{k}" for k in ("below", "inside", "above", "beyond_c")),
        *(f"cases.branch_{k}" for k in ("unclipped", "clipped", "equal", "dual")),
        "cases.yes",
        "cases.no",
    )
    variant = res.cases_variant
    show_cases(variant, C.own_settings((variant, C.DUAL_VARIANT), settings), tuple(words.items()), res.cases)
    dual = C.DUAL_VARIANT
    st.caption(tr("curves.cases_caption", case=titles.get(variant, variant), dual=titles.get(dual, dual)))
    csv_download(res.cases, "curves-ppo-cases", key="c_csv_cases", label=tr("curves.csv_cases"))


def probability_view(
    where, prob: pd.DataFrame, ceilings: dict, marks: tuple[float, ...], eps: dict, held: bool
) -> None:
    """The probability view's figure (in ``where``), the readings of its marks and its CSV. ``prob`` and
    ``ceilings`` are :func:`probability` at ``marks``; ``eps``: each compared variant's ε_high. While
    ``held`` (the highest π a token at π_old = 0.2 reaches: the first question's answer) the figure has no
    value labels and a held note stands for the readings."""
    names = C.probability_names(eps, lang())
    words = labels(
        "curves",
        *(f"prob_{k}" for k in ("left", "right", "identity", "hover", "x", "y_left", "y_right")),
        **{f"name.{v}": name for v, name in names.items()},
    )
    with where:
        chart(probability_chart(tuple(ceilings.items()), marks, tuple(words.items()), not held, prob), "c_prob")
    if held:
        held_note()
    else:
        for text in C.probability_readings(prob, marks, ceilings, names, lang()):
            st.markdown(text)
    csv_download(prob, "curves-probability", key="c_csv_prob", label=tr("curves.csv_prob"))
