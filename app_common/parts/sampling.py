"""The sampling page's Streamlit-bound support: its cached results and figure specs and the live run's
figure. Pure functions of their arguments, shared by every session (``figure_cache``: the figure's spec;
``words``: the labels it shows, so the language is part of the key)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from app_common.charts import figure_cache
from app_common.text import lang, tr
from rlviz.experiments import sampling as X
from rlviz.experiments.sampling import PassRateDistribution
from rlviz.plots.live import SMOOTH_SPAN
from rlviz.plots.sampling import (
    advantage_mass_figure,
    beta_density_figure,
    fill_cost_figure,
    live_sampling_figure,
    pass_rate_figure,
    signal_probability_figure,
)


@st.cache_data(show_spinner=False, max_entries=32)
def signal_curves(sizes: tuple[int, ...]):
    return X.signal_curves(sizes)


@figure_cache
def signal_figure(sizes: tuple[int, ...], words: tuple):
    return signal_probability_figure(signal_curves(sizes), dict(words))


@st.cache_data(show_spinner=False, max_entries=32)
def advantage_mass(group_size: int):
    return X.advantage_mass_curves(group_size)


@figure_cache
def bias_figure(group_size: int, words: tuple):
    return advantage_mass_figure(advantage_mass(group_size), dict(words))


@st.cache_data(show_spinner=False, max_entries=32)
def measure(seed: int, n_prompts: int, group_size: int, temperature: float, model_dir: str | None, device: str):
    """Plain data: the cached function loads the model itself (rlviz never imports Streamlit)."""
    return X.measure_pass_rates(seed, n_prompts, group_size, temperature, model_dir=model_dir, device=device)


@figure_cache
def measured_figure(measure_args: tuple, words: tuple):
    m = measure(*measure_args)
    return pass_rate_figure(m.histogram(), m.outcomes_by_level(), dict(words))


@st.cache_data(show_spinner=False, max_entries=32)
def measured_summary(measure_args: tuple) -> dict:
    """What the page reads from a measurement besides its figure (``rlviz.experiments.sampling.measured_summary``)."""
    return X.measured_summary(measure(*measure_args))


@st.cache_data(show_spinner=False, max_entries=32)
def fill_cost(a: float, b: float, measured: tuple | None, n: int, N: int, G: int, max_caps: int):
    """``measured``: the measured pass rates as (values, weights), or None."""
    dists = {"beta": PassRateDistribution.beta(a, b)}
    if measured is not None:
        dists["measured"] = PassRateDistribution.discrete(*measured)
    return X.fill_cost_frame(dists, n, N, G, max_caps)


@figure_cache
def cost_figure(a: float, b: float, measured: tuple | None, n: int, N: int, G: int, K: int, words: tuple):
    return fill_cost_figure(fill_cost(a, b, measured, n, N, G, max(10, K)), K, N, dict(words))


@figure_cache
def beta_figure(a: float, b: float, words: tuple):
    return beta_density_figure(X.beta_density(a, b), PassRateDistribution.beta(a, b).mean, dict(words), height=220)


@st.cache_data(show_spinner=False, max_entries=32)
def cost_table(settings: tuple, K: int, lang: str):
    """The cost table at the chosen K, as shown (``lang``: the session's language)."""
    a, b = settings[:2]
    return X.cost_table(fill_cost(*settings, max(10, K)), K, a, b, lang)


@st.cache_data(show_spinner=False, max_entries=32)
def fill_check(a: float, b: float, n: int, N: int, G: int, K: int, seed: int):
    """The formula's fill cost and its Monte-Carlo check at one setting: (exact, simulation, trials)."""
    return X.fill_check(a, b, n, N, G, K, seed)


def live_figure(run: X.DynamicSamplingRun | None, prompts: int, steps: int):
    """The run's 2 x 2 figure (before a run: its empty panels over the widgets' ``prompts`` and ``steps``)."""
    words = {k: tr(f"sampling.{k}") for k in X.LIVE_WORDS} | {"step": tr("word.step")}
    words |= {f"name.{arm}": label for arm, label in X.arm_labels(lang()).items()}
    if run is None:
        frame = pd.DataFrame(columns=["arm", "step", "signal_groups", "rollouts_cum", "pass_at_1"])
        words["empty"] = tr("sampling.empty_figure")
        return live_sampling_figure(frame, int(prompts), words, smooth=SMOOTH_SPAN, steps=int(steps))
    config, words = run.ds_config, {**words, "empty": tr("sampling.first_step")}
    return live_sampling_figure(
        run.metrics_frame(), config.prompts_per_step, words, smooth=SMOOTH_SPAN, steps=config.steps
    )
