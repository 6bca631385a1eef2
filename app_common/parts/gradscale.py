"""The gradient-scale page's Streamlit-bound support: its measurements kept by ``st.cache_data`` (pure
results of their inputs, shared by every session, keyed by the registry's entries too) and its two
figures, their words in the session's language."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from app_common.charts import figure_cache
from app_common.text import tr
from rlviz.core.objectives import ALGORITHMS
from rlviz.experiments import gradscale as X
from rlviz.plots import gradscale as P


def registry_key() -> tuple:
    """The registry's entries and their identities: a cached result is kept per registry (an entry added
    or replaced gives a new one)."""
    return tuple((name, id(spec)) for name, spec in ALGORITHMS.items())


@st.cache_data(max_entries=16, show_spinner=False)
def norms(seed: int, group_size: int, prompt: str, aggregation: str, second: bool, registry: tuple) -> pd.DataFrame:
    """``gradient_norms`` of the batch (seed, G, prompt) under ``aggregation`` (``second``: the second update too)."""
    return X.gradient_norms(X.batch_at(seed, group_size, prompt), aggregation, second)


@st.cache_data(max_entries=8, show_spinner=False)
def sweep(seed: int, group_size: int, prompt: str, objective: str, lr: float, registry: tuple) -> pd.DataFrame:
    """``scale_sweep`` of ``objective`` at ``lr`` on the batch (seed, G, prompt)."""
    return X.scale_sweep(X.batch_at(seed, group_size, prompt), objective, lr)


def _norm_labels() -> dict[str, str]:
    words = {
        "clip_line": tr("gradscale.clip_line", clip=f"{X.grad_clip():g}"),
        "first": tr("gradscale.first_marker"),
        "axis": tr("gradscale.axis.norm"),
    }
    words |= {f"h.{k}": tr(f"gradscale.h.{k}") for k in ("agg", "adv", "norm", "clip")}
    words |= {f"adv.{k}": tr(f"gradscale.adv.{k}") for k in ("group", "batch", "none", "gae", "estimator")}
    return words


@figure_cache
def norms_figure(
    seed: int,
    group_size: int,
    prompt: str,
    aggregation: str,
    second: bool,
    registry: tuple,
    shown_prompt: str,
    lang: str,
):
    """The norms figure of :func:`norms` in ``lang`` (``shown_prompt``: the batch's prompt, for the title)."""
    frame = norms(seed, group_size, prompt, aggregation, second, registry)
    title = tr("gradscale.fig.norms", k=2 if second else 1, G=group_size, prompt=shown_prompt)
    column = "grad_norm_second" if second else "grad_norm"
    return P.norms_figure(frame, _norm_labels(), column=column, first=second, clip=X.grad_clip(), title=title)


@figure_cache
def scale_figure(
    seed: int, group_size: int, prompt: str, objective: str, lr: float, scale: float, registry: tuple, lang: str
):
    """The figure of :func:`sweep` in ``lang``, c = ``scale`` marked."""
    frame = sweep(seed, group_size, prompt, objective, lr, registry)
    words = {
        "panel.theta": tr("gradscale.panel.theta"),
        "panel.logp": tr("gradscale.panel.logp"),
        "axis.c": tr("gradscale.axis.c"),
        "axis.theta": tr("gradscale.axis.theta"),
        "axis.logp": tr("gradscale.axis.logp"),
        "reference": tr("gradscale.reference"),
        "marker": tr("gradscale.marker", c=f"{scale:g}"),
    }
    words |= {f"series.{o}.{s}": tr(f"gradscale.series.{o}.{s}") for o in X.OPTIMIZERS for s in ("on", "off")}
    title = tr("gradscale.fig.scale", title=ALGORITHMS[objective].title, lr=f"{lr:g}")
    return P.scale_figure(frame, words, marker=scale, title=title)
