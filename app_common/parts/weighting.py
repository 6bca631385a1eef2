"""The weighting page's Streamlit-bound support: its cached results and figures, keyed by the registry
(:func:`registry_key`) so a cache never answers for another registry, the words a figure shows as one
JSON text (:func:`words_key`), the formulas beside the sections' figures, the off-policy table and the
aggregation's config export."""

from __future__ import annotations

import functools
import json

import pandas as pd
import streamlit as st

from app_common.charts import chart, figure_cache
from app_common.export import export_configs
from app_common.text import labels, lang, tr
from rlviz.core.aggregation import AGGREGATIONS, LOSS_AGG_MODES
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


def registry_defaults(names) -> list[str]:
    """The default choices that the registry still holds (a multiselect default must be an option)."""
    return [n for n in names if n in ALGORITHMS]


# ---------------------------------------------------------------------------------------- 1. aggregation
def aggregation_words(responses: dict[int, str]) -> str:
    """The aggregation figures' words in the session's language (:func:`words_key`), each response
    (``responses``: its index -> its label, ``rlviz.experiments.weighting.response_labels``) named."""
    return words_key(
        labels(
            "weighting",
            "per_token",
            "per_response",
            push=tr("word.grad_weight"),
            advantage=tr("word.advantage"),
            **{f"response.{i}": text for i, text in responses.items()},
        )
    )


@st.cache_data(show_spinner=False, max_entries=64)
def aggregation(lengths: tuple, advantages: tuple, lmax: int, registry: str):
    return W.aggregation_table(list(lengths), list(advantages), lmax)


@st.cache_data(show_spinner=False, max_entries=64)
def aggregation_view(lengths: tuple, advantages: tuple, lmax: int, registry: str, rows: str):
    """What the section writes out from the table (``rlviz.experiments.weighting.aggregation_view``;
    ``rows``: the responses' labels as JSON)."""
    return W.aggregation_view(aggregation(lengths, advantages, lmax, registry), lengths, json.loads(rows))


def weights_table(setting: tuple, responses: dict[int, str]) -> None:
    """The group's weights under each mode (``setting``: lengths, advantages, L_max) and the sentence that
    states the token-mean weight, in the block the lessons' answers mark (``answers_wt_claim``)."""
    shown, per_response, tm = aggregation_view(*setting, registry_key(), words_key(list(responses.values())))
    st.dataframe(shown)
    with st.container(key="answers_wt_claim"):  # a sentence that states an answer (rlviz.plots.lessons)
        st.markdown(tr("weighting.claim5", per_response=per_response, N=sum(setting[0]), tm=f"{tm:.3g}"))


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


def real_charts(group, setting: tuple, algos: tuple, after: bool) -> pd.DataFrame:
    """Each algorithm of ``algos``: its note and its push per token on the sampled ``group`` (of
    ``setting``), before or ``after`` the step, on one colour scale; returns the weights (plain frame)."""
    L = lang()
    weights, summary, zmax, ratios = real_weights(setting, algos, after, registry_key())
    for algo in algos:
        st.markdown(f"**{ALGORITHMS[algo].title}** · {W.real_note(summary, algo, after, L)}")
        row_labels = W.real_row_labels(group, algo, ratios, L)
        words = words_key(labels("word", "token", "grad_weight", "advantage", "position", "push", **row_labels))
        chart(real_chart(setting, algos, after, algo, zmax, words, registry_key()), f"wt_real_{algo}")
    return weights


@figure_cache
def real_chart(setting: tuple, algos: tuple, after: bool, algo: str, zmax, words: str, registry: str):
    weights = real_weights(setting, algos, after, registry)[0]
    return token_weight_figure(weights[weights["algorithm"] == algo], json.loads(words), zmax=zmax)


# ---------------------------------------------------------------------------------------- the formulas
def aggregation_formulas() -> None:
    """Beside the aggregation figures: each mode's weight w_{i,t} (the aggregation registry's, one name a
    line, narrow enough for a 1024 px window), and the loss, the push g of a token, the push on-policy."""
    left, right = st.columns(2, gap="medium")
    with left:
        # each mode's name on its own line above its weight (the aggregation registry's): narrow enough
        # for a 1024 px window
        rows = r"\\".join(rf"&\text{{{name}:}}\\ &\quad {spec.tex}" for name, spec in AGGREGATIONS.items())
        st.latex(r"\small\begin{aligned}" + rows + r"\end{aligned}")
    with right:
        # the loss, the push g of a token, and the push on-policy: one short line each
        st.latex(
            r"\small\begin{aligned}\mathcal L&=\sum_{i,t} w_{i,t}\,\lambda_{i,t}\\"
            r"g_{i,t}&=-\frac{\partial\mathcal L}{\partial\log\pi_{i,t}}\\"
            r"g_{i,t}\big|_{r=1}&=A_i\,w_{i,t}\end{aligned}"
        )


def aggregation_export(B: int, lmax: int) -> None:
    """The practitioners' export: GRPO with each aggregation mode (one tab each) on the page's group of
    ``B`` responses (one prompt) and its ``lmax``."""
    group = {"prompts_per_step": 1, "group_size": B, "mini_batches": 1} if B > 1 else {}
    export_configs(  # GRPO with each aggregation, on the page's group and L_max: one tab each
        {m: ("grpo", {"loss_agg_mode": m}, None, {"max_new_tokens": int(lmax), **group}) for m in LOSS_AGG_MODES},
        key="wt_export",
    )


def offpolicy_formulas() -> None:
    """Under the off-policy figure: the token ratio r_t, GSPO's sequence ratio s, each objective's push
    g_t and SAPO's gate, with their caption."""
    left, right = st.columns(2, gap="medium")
    with left:  # short lines: each column is about 265 px wide on a 1024 px window with the sidebar open
        st.latex(r"r_t=\frac{\pi_\theta(y_t)}{\pi_\text{old}(y_t)}")
        st.latex(r"s=\Big(\prod_t r_t\Big)^{1/|y|}")
        st.latex(
            r"\small\begin{aligned}"
            r"g_t&=-\frac{\partial\mathcal L}{\partial\log\pi_t}\\"
            r"\text{GRPO: }g_t&=\frac{A\,r_t}{|y|}\\"
            r"\text{GSPO: }g_t&=\frac{A\,s}{|y|}\\"
            r"\text{SAPO: }g_t&=\frac{A\,f'_\tau(r_t)\,r_t}{|y|}"
            r"\end{aligned}"
        )
    with right:
        st.latex(
            r"\small\begin{gathered}f'_\tau(r)=4\,\sigma_\tau\,(1-\sigma_\tau)\\"
            r"\sigma_\tau=\sigma\big(\tau(r-1)\big)\end{gathered}"
        )
    st.caption(tr("weighting.off_formula_caption"))  # under both columns: a paragraph, not a narrow column


def offpolicy_table(summary: pd.DataFrame) -> None:
    """The off-policy section's summary (``rlviz.experiments.weighting.offpolicy_summary``), each
    algorithm by its registry title, its columns named in the session's language, no -0 shown."""
    titles = {n: spec.title for n, spec in ALGORITHMS.items()}
    table = summary.assign(algorithm=summary["algorithm"].map(titles))
    st.dataframe(
        W.no_negative_zero(table.round(4)).rename(columns={c: tr(f"weighting.col_{c}") for c in table.columns}),
        hide_index=True,
    )


def noise_formulas() -> None:
    """Beside the noise figure: the sequence ratio's log, the product's log, the noise model."""
    st.latex(r"\small\log s=\frac{1}{|y|}\sum_t\log r_t")
    st.latex(r"\small\begin{aligned}\log\prod_t r_t&=\sum_t\log r_t\\&=|y|\,\log s\end{aligned}")
    st.latex(r"\small\begin{gathered}\log r_t\sim\mathcal N(0,\sigma^2)\\\text{i.i.d.}\end{gathered}")
