"""The sampling page's Streamlit-bound support: its cached results and figure specs, the measured pass
rates' and the fill cost's views, the Monte-Carlo check, and the live run's figure. The cached ones are pure
functions of their arguments, shared by every session (``figure_cache``: the figure's spec; ``words``: the
labels it shows, so the language is part of the key)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from app_common.charts import chart, csv_download, figure_cache
from app_common.feedback import show_bad_input
from app_common.text import formula, labels, lang, tr
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


def measured_view(measurement: X.PassRateMeasurement, measure_args: tuple) -> None:
    """The measured pass rates (:func:`measure` at ``measure_args``): the shares of all-wrong, all-right
    and mixed groups, the histogram and outcome figure with the rule beside it, its caption computed from
    the measurement, and its download."""
    summary = measured_summary(measure_args)
    cols = st.columns(4)
    cols[0].metric(tr("sampling.zero_share"), f"{summary['zero']:.0%}")
    cols[1].metric(tr("sampling.all_wrong_share"), f"{summary['wrong']:.0%}")
    cols[2].metric(tr("sampling.all_correct_share"), f"{summary['right']:.0%}")
    cols[3].metric(tr("sampling.mixed_share"), f"{1 - summary['zero']:.0%}")
    measured_labels = labels(
        "sampling",
        *("hist_title", "outcome_title", "measured_rate", "prompts_axis", "share_axis", "level", "all_levels"),
        "zero_band",  # the note over the all-wrong and all-right bars
        **{f"outcome.{o}": tr(f"sampling.{o}_share") for o in ("all_wrong", "mixed", "all_correct")},
    )
    left, right = st.columns([3, 1])
    with left:
        chart(measured_figure(measure_args, tuple(measured_labels.items())), "sampling-measured")
    with right:
        st.latex(r"\hat p = k / G")
        st.latex(r"\begin{gathered} A_1 = \dots = A_G = 0 \\ \iff k \in \{0, G\} \end{gathered}")
    st.caption(X.measured_caption(summary, lang()))
    csv_download(measurement.frame, "sampling-measured", key="s_dl_measured")


def cost_view(settings: tuple, K: int, df: pd.DataFrame, beta_place) -> None:
    """The fill cost at ``settings`` (a, b, the measured distribution or None, n, N, G) and the cap ``K``:
    the Beta density in ``beta_place`` (the column beside its sliders), the cost figure with its formulas,
    the table at K, and the download of ``df`` (:func:`fill_cost`)."""
    a, b = settings[:2]
    dist_names = {f"name.{d}": text for d, text in X.distribution_labels(a, b, lang()).items()}
    with beta_place:
        beta_labels = labels("sampling", "pass_rate", "density", "mean", **dist_names)
        chart(beta_figure(float(a), float(b), tuple(beta_labels.items())), "sampling-beta")
    left, right = st.columns([3, 1])
    with left:
        cost_labels = labels(
            "sampling",
            *("cost_groups", "cost_full", "cost_rollouts", "cap_axis", "plain", "target_line", "chosen"),
            **dist_names,
        )
        chart(cost_figure(*settings, K, tuple(cost_labels.items())), "sampling-cost")
    with right:
        formula(
            r"q = \mathbb{E}_{p}\big[1 - p^G - (1-p)^G\big],\quad S_r \sim \operatorname{Bin}(r\,n,\ q),\quad "
            r"\mathbb{E}[R] = \sum_{r=0}^{K-1} P(S_r < N),\quad n\,G\,\mathbb{E}[R],\quad "
            r"\mathbb{E}[\min(S_K, N)],\quad P(S_K \ge N)",
            small=True,
        )
        formula(r"\text{Beta: } \mathbb{E}[p^G] = \prod_{j=0}^{G-1} \frac{a+j}{a+b+j}", small=True)
        st.caption(tr("sampling.cost_legend"))
    st.caption(tr("sampling.cost_caption"))
    shown = cost_table(settings, K, lang())
    st.table(shown, hide_index=True, border="horizontal")  # nine columns: headers wrap, none hides
    st.caption(tr("sampling.table_caption"))
    csv_download(df, "sampling-cost", key="s_dl_cost")


def fill_check_view(settings: tuple, K: int, seed: int, fields: dict[str, str]) -> None:
    """The Monte-Carlo check of the fill cost at ``settings`` and ``K`` (:func:`fill_check`), in its
    expander; it runs only while the expander is open (a rerun opens it): it costs about 0.5 s. A bad
    setting is a message naming its field (``fields``: parameter -> label)."""
    a, b, _, n, N, G = settings
    check = st.expander(tr("sampling.mc_header"), key="s_mc", on_change="rerun", bind="query-params")
    if not check.open:
        return
    with check:
        try:
            exact, sim, trials = fill_check(float(a), float(b), int(n), int(N), int(G), int(K), seed)
        except ValueError as exc:
            show_bad_input(exc, fields)
            return
        st.markdown(tr("sampling.mc_text", trials=trials))
        st.dataframe(X.check_table(exact, sim, lang()), hide_index=True)
