"""The length page's Streamlit-bound support: the rollout sample, its analysis and sweep, the curves, cached
by their inputs, and each figure's spec cached by what decides it; the group picker's options and the
group's table (replayed on a hit). The library is called through its module (``X.penalty_curves``), so a
test that replaces a library function sees the page use it."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from app_common.charts import figure_cache, settings_hash
from rlviz.experiments import length as X
from rlviz.experiments.length import ShapingSettings
from rlviz.plots.length import filter_figure, group_figure, length_histogram_figure, penalty_curves_figure, sweep_figure

HASH = settings_hash(ShapingSettings)  # the settings hashed by their repr (app_common.settings_hash)


@st.cache_data(show_spinner=False, max_entries=16)
def rollouts(seed: int, n_prompts: int, group_size: int, limit: int, temperature: float, model_dir, device):
    """Sampled once per input; the function loads the model itself and returns plain data."""
    return X.sample_length_rollouts(seed, n_prompts, group_size, limit, temperature, model_dir, device)


@st.cache_data(show_spinner=False, max_entries=32, hash_funcs=HASH)
def analysis(sample: tuple, settings: ShapingSettings):
    """``analyse`` of the rollouts that ``rollouts(*sample)`` returns, under ``settings``."""
    return X.analyse(rollouts(*sample), settings)


@st.cache_data(show_spinner=False, max_entries=32)
def sweep(sample: tuple, max_length: int, buffer_length: int, factor: float):
    """``sweep`` of the rollouts of ``rollouts(*sample)``: it reads only L_max, L_cache and the
    factor, so moving the Kimi or cosine values reuses it."""
    return X.sweep(rollouts(*sample), ShapingSettings(max_length, buffer_length, factor), limit=X.SAMPLE_LIMIT)


@st.cache_data(show_spinner=False, max_entries=32, hash_funcs=HASH)
def curves(settings: ShapingSettings):
    """``(penalty_curves, kimi_curve)`` under ``settings``."""
    return X.penalty_curves(settings), X.kimi_curve(1, settings.max_length, settings.kimi_weight)


# Each figure is cached by what decides it (``language`` decides its labels, ``_words``), so that a
# rerun which leaves it alone replays it (``app_common.chart``) instead of building and sending it
# again. An argument named with a leading underscore is not hashed: it is what the others decide,
# which the page holds already (reading the analysis from its cache again would unpickle it each time).
@figure_cache(hash_funcs=HASH)
def curves_figure(settings: ShapingSettings, others: tuple, language: str, _words: tuple):
    penalty, kimi = curves(settings)
    lmax, lcache = settings.max_length, settings.buffer_length
    return penalty_curves_figure(penalty, kimi, lmax, lcache, dict(_words), show=list(others), as_spec=True)


@figure_cache(hash_funcs=HASH)
def histogram_figure(
    sample: tuple, settings: ShapingSettings, language: str, _words: tuple, _resp: pd.DataFrame, _penalty: pd.DataFrame
):
    lmax, lcache = settings.max_length, settings.buffer_length
    return length_histogram_figure(_resp, _penalty, lmax, lcache, dict(_words), as_spec=True)


@figure_cache(hash_funcs=HASH)
def filter_chart(sample: tuple, settings: ShapingSettings, language: str, _words: tuple, _resp: pd.DataFrame):
    return filter_figure(_resp, dict(_words), as_spec=True)


@figure_cache
def sweep_chart(
    sample: tuple, max_length: int, buffer_length: int, factor: float, language: str, _words: tuple, _frame
):
    return sweep_figure(_frame, max_length, buffer_length, dict(_words), as_spec=True)


@figure_cache(hash_funcs=HASH)
def group_chart(
    sample: tuple, settings: ShapingSettings, chosen: int, shown: tuple, language: str, _words: tuple, _rows
):
    return group_figure(_rows, dict(_words), schemes=list(shown), as_spec=True)


@st.cache_data(show_spinner=False, max_entries=32, hash_funcs=HASH)
def group_options(sample: tuple, settings: ShapingSettings, _groups: pd.DataFrame) -> tuple[list[int], dict[int, str]]:
    """The groups, most affected first, and their names (what a shared URL carries: only what the
    rollouts fix, not the settings); ``_groups`` is the analysis' ``groups`` of these."""
    return X.group_options(_groups)


@st.cache_data(show_spinner=False, max_entries=32, hash_funcs=HASH)
def group_table(
    sample: tuple, settings: ShapingSettings, chosen: int, shown: tuple, language: str, _rows: pd.DataFrame
) -> pd.DataFrame:
    """Draws group ``chosen``'s table (``_rows``, its responses, by length, in ``language``) and returns it
    unrounded for the CSV. Replayed on a hit: the table is not built and marshalled again by a rerun that
    leaves it alone."""
    view, rounded = X.group_table(_rows, shown, language)
    st.table(rounded, hide_index=True, border="horizontal")  # headers wrap: no column hides at 1400 px
    return view
