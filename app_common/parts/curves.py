"""The curves page's Streamlit-bound support: the control of one surrogate setting, and the experiment's
parts cached by each variant's own sliders (a slider recomputes only its own variant's), the cached clip-cases
table and figure specs. The library is called through its module (``C.curves_frame``), so a test that
counts its calls sees them."""

from __future__ import annotations

from typing import Any

import pandas as pd
import streamlit as st

from app_common.charts import figure_cache, settings_hash
from app_common.text import lang, tr
from rlviz.core.objectives import Setting
from rlviz.experiments import curves as C
from rlviz.experiments.curves import CurveSettings, CurvesResult
from rlviz.plots.curves import cases_table, curves_gallery_figure, curves_overlay_figure, probability_figure

HASH = settings_hash(CurveSettings)  # the settings hashed by their repr (app_common.settings_hash)


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
