"""The mismatch page's Streamlit-bound support: the cached measurement (with its progress bar), its
explanations, figure and table under the questions, the cached correction curves with their figure, the
registry's and verl's presets' tables for practitioners, the corrections' effect on the measured batch, the
live run's figure and summary, and the stored runs' reading."""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd
import streamlit as st

from app_common.charts import chart, csv_download
from app_common.predictions import held_note
from app_common.template import notes, practitioners
from app_common.text import formula, lang, tr
from rlviz.experiments import mismatch as X
from rlviz.plots import mismatch as P
from rlviz.plots.live import SMOOTH_SPAN
from rlviz.plots.moe import live_arms_figure


@st.cache_data(show_spinner=False, max_entries=16)
def measure(settings: X.MismatchSettings):
    """Plain data, cached by the settings; the progress bar lives inside (replayed on a hit)."""
    bar = st.empty()

    def on_progress(done: int, total: int) -> None:
        bar.progress(done / max(total, 1), text=tr("mismatch.computing", done=done, total=total))

    result = X.measure_mismatch(settings, on_progress=on_progress)
    bar.empty()
    return result


def page_notes(k: int, lr: float) -> None:
    """The measurement's explanations, collapsed: today's intro, the log-ratio's formula, what each sampler
    is (``k``: the stale sampler's updates behind; ``lr``: their learning rate)."""
    with notes():
        st.markdown(tr("mismatch.intro"))
        formula(
            r"l_{i,t} = \log \pi_\text{train}(y_{i,t}\mid\cdot) - \log \pi_\text{rollout}(y_{i,t}\mid\cdot),\qquad "
            r"\rho_{i,t} = e^{\,l_{i,t}},\qquad \rho_i = e^{\sum_t l_{i,t}}",
            small=True,
        )
        st.caption(tr("mismatch.formula_caption"))
        st.markdown(f"**{tr('mismatch.measure_header')}** {tr('mismatch.measure_text', k=k, lr=f'{lr:g}')}")


def measured_figure(result: X.MismatchResult, shown: list[str], names: Mapping[str, str], hidden: set[str]) -> None:
    """The page's main figure: the log-ratio per token and per response, one row per sampler of ``shown``
    (named by ``names``), and a note while samplers are ``hidden`` (their rows answer a question)."""
    tokens = result.tokens[result.tokens["sampler"].isin(shown)]
    sequences = result.sequences[result.sequences["sampler"].isin(shown)]
    chart(P.log_ratio_grid(tokens, sequences, X.grid_words(names, lang())), "mismatch-log-ratios")
    st.caption(tr("mismatch.grid_caption"))
    if hidden:
        held_note()  # the other samplers' rows answer the questions below


def measurement_table(result: X.MismatchResult, shown: list[str], names: Mapping[str, str], hidden: set[str]) -> None:
    """The measurement's table over the samplers of ``shown`` (named by ``names``), its caption (the batch's
    responses and mean reward) and its readings, which quote no sampler of ``hidden``."""
    L = lang()
    st.table(X.summary_table(result, shown, names, L), hide_index=True, border="horizontal")
    first = result.row("float32")
    st.caption(
        tr(
            "mismatch.table_caption",
            sequences=int(first["sequences"]),
            reward=f"{result.reward_mean:.2f}",
        )
    )
    if hidden:
        held_note()
    for text in X.measurement_readings(result, hidden, L):
        st.markdown(text)


@st.cache_data(show_spinner=False)
def curves() -> tuple[pd.DataFrame, pd.DataFrame]:
    """The corrections' weight curves and the trust region beside them."""
    return X.correction_curves(), X.trust_region_curves()


def corrections_view() -> None:
    """How each correction weighs a token: the text, the weight curves beside the trust region, their
    caption and the list of the registry's corrections."""
    L = lang()
    st.markdown(tr("mismatch.corr_text"))
    correction_frame, trust_frame = curves()
    chart(P.correction_figure(correction_frame, X.correction_words(L), trust_frame), "mismatch-corrections")
    st.caption(tr("mismatch.corr_caption"))
    st.markdown(X.corrections_list(L))


def registry_section() -> None:
    """The block for practitioners: each correction's TRL and verl names and the frameworks it was checked
    against (the registry's table), then verl's presets composed from the corrections."""
    with practitioners():
        st.table(X.registry_table(lang()), hide_index=True, border="horizontal")
        preset_section()  # verl's presets (rlviz.core.corrections.PRESETS)


def effect_section(result: X.MismatchResult, shown: list[str], names: Mapping[str, str], hidden: set[str]) -> None:
    """What each correction does to the measured batch (the samplers of ``shown``, named by ``names``): its
    table, whether each truncated-IS cap binds, and, unless samplers are ``hidden`` (held back by a
    question), the rejection filters' reading and the download."""
    L = lang()
    st.markdown(f"#### {tr('mismatch.effect_header')}")
    st.table(X.effect_table(result, shown, names, L), hide_index=True, border="horizontal")
    st.caption(tr("mismatch.effect_caption"))
    for text in X.cap_readings(result, shown, names, L):  # over the samplers shown: it quotes no held one
        st.markdown(text)
    if hidden:  # the held samplers' rows, and the reading that quotes them, come with the answers
        held_note()
    else:
        for text in X.rejection_readings(result, L):  # the rejection filters' reading, from the registry
            st.markdown(text)
        st.table(X.preset_effect_table(result, shown, names, L), hide_index=True, border="horizontal")
        st.caption(tr("mismatch.preset_effect_caption"))
        csv_download(result.corrections, "mismatch-corrections", key="mm_dl_corr")


def preset_section() -> None:
    """verl's rollout-correction presets: what a preset is, and the registry's table of them."""
    st.markdown(f"#### {tr('mismatch.preset_header')}")
    st.markdown(tr("mismatch.preset_text"))
    st.table(X.preset_table(lang()), hide_index=True, border="horizontal")
    st.caption(tr("mismatch.preset_caption"))


def live_figure(run: X.MismatchLiveRun | None, steps: int, names: dict[str, str]):
    """The run's curves: each arm's per-step points under their moving average, in the corrections'
    styles, the x axes over the run's steps (before a run: the empty panels over the widgets' ``steps``);
    the arms named by ``names``."""
    words = X.live_words(names, lang())
    if run is None:
        frame = pd.DataFrame(columns=["arm", "step", *X.LIVE_PANELS])
        words, total = {**words, "empty": tr("mismatch.empty_figure")}, int(steps)
    else:
        frame, words, total = run.metrics_frame(), {**words, "empty": tr("mismatch.first_step")}, run.config.steps
    return live_arms_figure(
        frame, X.LIVE_PANELS, words, steps=total, smooth=SMOOTH_SPAN, styles=P.ARM_STYLES, cols=2, panel_height=170
    )


def live_summary(frame: pd.DataFrame, summary_frame: pd.DataFrame, names: dict[str, str]) -> None:
    """The live run's summary table (``frame``: its metrics per arm and step; ``summary_frame``: its
    per-arm summary; the arms named by ``names``) under its header."""
    st.markdown(f"#### {tr('mismatch.summary_header')}")
    st.table(X.live_summary_table(frame, summary_frame, names, lang()), hide_index=True, border="horizontal")


def stored_reading(names: dict[str, str]) -> None:
    """The stored runs of ``benchmarks/mismatch_effect.py`` (the page's defaults, one per seed), if any."""
    measured = X.load_measured()
    if measured is None:
        return
    shown = X.stored_reading(measured, names, lang())
    st.markdown(f"#### {shown.header}")
    st.markdown(shown.text)
    st.table(shown.table, hide_index=True, border="horizontal")
    for text in shown.readings:
        st.markdown(text)
