"""The "Why SFT before RL?" page's Streamlit-bound support: the cached measurement of both starts, its
figure's spec, and the live run's figure. Pure functions of their arguments, shared by every session
(``figure_cache``: the figure's spec; ``words``: the labels it shows, so the language is part of the key)."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from app_common.charts import figure_cache
from app_common.text import lang, tr
from rlviz.experiments import warmstart as X
from rlviz.plots.live import SMOOTH_SPAN
from rlviz.plots.warmstart import live_figure as _live_figure
from rlviz.plots.warmstart import outcome_figure as _outcome_figure


@st.cache_data(show_spinner=False, max_entries=16)
def measure(n_prompts: int, temperature: float, seed: int, device: str) -> X.StartMeasurement:
    """Plain data: the cached function loads both checkpoints itself (rlviz never imports Streamlit)."""
    return X.measure_starts(n_prompts, X.SAMPLES, temperature, seed, device=device)


def outcome_words(m: X.StartMeasurement) -> dict[str, str]:
    """The outcome figure's words in the session's language (``rlviz.plots.warmstart.outcome_figure``)."""
    steps = X.start_steps()
    words = {k: tr(f"warmstart.{k}") for k in ("group_axis", "share_axis", "groups", "hidden")}
    words |= {f"outcome.{o}": tr(f"warmstart.outcome.{o}") for o in X.OUTCOMES}
    words |= {f"start.{s}": tr(f"warmstart.start.{s}", steps=steps[s], p=f"{m.pass_at_1(s):.3f}") for s in X.ARMS}
    return words


@figure_cache
def outcome_figure(measure_args: tuple, chosen: int, hidden: tuple[str, ...], words: tuple):
    """The outcome figure of :func:`measure` at ``measure_args``, the ``hidden`` starts' panels empty, ``chosen``
    G full."""
    return _outcome_figure(measure(*measure_args).outcomes, dict(words), hidden=hidden, chosen=chosen)


def live_figure(run: X.WarmStartRun | None, steps: int):
    """The run's 2 x 2 figure (before a run: its empty panels over the widget's ``steps``)."""
    words = {m: tr(f"metric.{m}") for m in X.LIVE_METRICS} | {"step": tr("word.step")}
    words |= {"smoothed": tr("warmstart.smoothed")}
    words |= {f"name.{arm}": label for arm, label in X.arm_labels(lang()).items()}
    if run is None:
        frame = pd.DataFrame(columns=["arm", "step", *X.LIVE_METRICS])
        words["empty"] = tr("warmstart.empty_figure")
        return _live_figure(frame, X.LIVE_METRICS, words, smooth=SMOOTH_SPAN, steps=int(steps))
    words["empty"] = tr("warmstart.first_step")
    return _live_figure(run.metrics_frame(), X.LIVE_METRICS, words, smooth=SMOOTH_SPAN, steps=run.config.steps)
