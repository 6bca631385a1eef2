"""The weighting page's Streamlit-bound support: its cached results and figures, keyed by the registry
(:func:`registry_key`) so a cache never answers for another registry, and the words a figure shows as one
JSON text (:func:`words_key`)."""

from __future__ import annotations

import functools
import json

import streamlit as st

from app_common.charts import figure_cache
from app_common.text import lang
from rlviz.core.objectives import ALGORITHMS
from rlviz.experiments import weighting as W
from rlviz.i18n import t
from rlviz.plots import token_weight_figure
from rlviz.plots.weighting import aggregation_figure, noise_figure, offpolicy_figure


def registry_key() -> str:
    """What the cached results below read from the registry, as one short key: each entry's name,
    identity and title, in registry order. An entry added, removed, replaced or reordered
    (``monkeypatch.setitem(ALGORITHMS, ...)``) changes the key, so a cache never answers for another
    registry. One string, because ``st.cache_data`` hashes a string at once and a tuple item by item."""
    return "|".join(f"{n}:{id(spec)}:{spec.title}" for n, spec in ALGORITHMS.items())


def words_key(words) -> str:
    """A figure's ``labels`` (or a list of texts) as one JSON text: the cache key of the words a
    figure shows (one string hashes at once); the cached function gets them back with ``json.loads``."""
    return json.dumps(words, ensure_ascii=False)


# ---------------------------------------------------------------------------------------- 1. aggregation
@st.cache_data(show_spinner=False, max_entries=64)
def aggregation(lengths: tuple, advantages: tuple, lmax: int, registry: str):
    return W.aggregation_table(list(lengths), list(advantages), lmax)


@st.cache_data(show_spinner=False, max_entries=64)
def aggregation_view(lengths: tuple, advantages: tuple, lmax: int, registry: str, rows: str):
    """What the section writes out from the table (``rlviz.experiments.weighting.aggregation_view``;
    ``rows``: the responses' labels as JSON)."""
    return W.aggregation_view(aggregation(lengths, advantages, lmax, registry), lengths, json.loads(rows))


@figure_cache
def aggregation_chart(
    lengths: tuple, advantages: tuple, lmax: int, kind: str, words: str, registry: str, show_text: bool = False
):
    table = aggregation(lengths, advantages, lmax, registry)
    # stacked: each panel over the page's width (a 1024 px window has no room for two of them side by side)
    return aggregation_figure(table, kind, json.loads(words), show_text=show_text, stacked=True)


# ---------------------------------------------------------------------------------------- 2. off-policy tokens
@st.cache_data(show_spinner=False, max_entries=64)
def offpolicy(setting: tuple, registry: str):
    df = W.offpolicy_response(*setting)
    return df, W.offpolicy_summary(df)


@figure_cache
def offpolicy_chart(setting: tuple, words: str, registry: str):
    return offpolicy_figure(offpolicy(setting, registry)[0], json.loads(words))


# ---------------------------------------------------------------------------------------- 3. noise vs length
def _noise(sigma: float, n: int, seed: int, registry: str):
    return W.noise_sweep(sigma, n, W.NOISE_LENGTHS, seed)


@functools.cache
def _noise_cached(language: str):
    """``_noise`` cached, its spinner in ``language``: one wrapper per language over one cache (Streamlit
    keys a cache by the function's module, name and source). The spinner shows only while a result is
    computed, never for one the cache holds."""
    return st.cache_data(show_spinner=t("weighting.noise_running", language), max_entries=64)(_noise)


def noise(sigma: float, n: int, seed: int, registry: str):
    """The sweep of ``rlviz.experiments.weighting.noise_sweep`` over ``NOISE_LENGTHS``, cached."""
    return _noise_cached(lang())(sigma, n, seed, registry)


@st.cache_data(show_spinner=False, max_entries=64)
def noise_numbers(sigma: float, n: int, seed: int, registry: str) -> dict[str, str]:
    """The numbers the section writes out from the sweep (``rlviz.experiments.weighting.noise_numbers``)."""
    return W.noise_numbers(noise(sigma, n, seed, registry))


@figure_cache
def noise_chart(sigma: float, n: int, seed: int, words: str, registry: str):
    return noise_figure(noise(sigma, n, seed, registry), json.loads(words))


# ---------------------------------------------------------------------------------------- 4. a real group
def _real_group(seed: int, prompt: str, group_size: int, lr: float, model_dir: str | None, device: str):
    # loads its own model copy and returns plain arrays: nothing mutable is shared between sessions
    return W.real_group(seed, prompt, group_size, lr, model_dir, device)


@functools.cache
def _real_group_cached(language: str):
    """``_real_group`` cached, its spinner in ``language`` (as ``_noise_cached``)."""
    return st.cache_data(show_spinner=t("weighting.sampling", language), max_entries=16)(_real_group)


def real_group(seed: int, prompt: str, group_size: int, lr: float, model_dir: str | None, device: str):
    """One group sampled from the model and one optimizer step (``rlviz.experiments.weighting.real_group``), cached."""
    return _real_group_cached(lang())(seed, prompt, group_size, lr, model_dir, device)


@st.cache_data(show_spinner=False, max_entries=32)
def real_weights(setting: tuple, algos: tuple, after: bool, registry: str):
    """Each algorithm's push per token and the summary on the group of ``setting`` (plain frames);
    the largest |push| and each response's ratio (``rlviz.experiments.weighting.real_weights_view``)."""
    group = real_group(*setting)
    weights = W.real_group_weights(group, algos, after)
    zmax, ratios = W.real_weights_view(weights)
    return weights, W.real_group_summary(group, algos).set_index("algorithm"), zmax, ratios


@figure_cache
def real_chart(setting: tuple, algos: tuple, after: bool, algo: str, zmax, words: str, registry: str):
    weights = real_weights(setting, algos, after, registry)[0]
    return token_weight_figure(weights[weights["algorithm"] == algo], json.loads(words), zmax=zmax)
