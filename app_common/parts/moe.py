"""The MoE page's Streamlit-bound support: the shipped MoE's architecture and the one-batch experiment,
cached (the experiment with its progress bar), and the live run's figure."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from app_common.text import lang, tr
from rlviz.experiments import moe as X
from rlviz.plots.live import SMOOTH_SPAN
from rlviz.plots.moe import live_arms_figure


@st.cache_data(show_spinner=False)
def architecture() -> dict[str, int]:
    """Layers, experts and experts per token of the shipped MoE, read from its config."""
    return X.architecture()


@st.cache_data(show_spinner=False, max_entries=16)
def shift(model: str, updates: int, lr: float, prompts: int, group_size: int, seed: int, device: str):
    """Plain data, cached by the settings. The progress bar is made, moved and removed in here: a
    cache hit replays those three (and so shows nothing), and Streamlit refuses to replay an element
    drawn into a block made outside the function."""
    bar = st.empty()

    def on_update(done: int, total: int) -> None:
        bar.progress(done / max(total, 1), text=tr("moe.computing", done=done, total=total))

    settings = X.RoutingShiftSettings(
        model=model, updates=updates, lr=lr, prompts=prompts, group_size=group_size, seed=seed, device=device
    )
    result = X.routing_shift(settings, on_update=on_update)
    bar.empty()
    return result


def live_figure(run: X.MoeLiveRun | None, model: str, steps: int):
    """The run's curves: each arm's per-step points under their moving average, the x axes over the run's
    steps (before a run: the panels the widgets' run would fill, over their ``model`` and ``steps``, empty).
    The dense model has no router: no route-change panel."""
    words = X.live_words(X.arm_names(lang()), lang())
    panels = X.LIVE_PANELS
    if run is None:
        frame = pd.DataFrame(columns=["arm", "step", *panels])
        shown = [m for m in panels if model != "dense" or m != "route_change_fraction"]
        words = {**words, "empty": tr("moe.empty_figure")}
        return live_arms_figure(frame, shown, words, steps=int(steps), smooth=SMOOTH_SPAN, cols=2, panel_height=170)
    frame = run.metrics_frame()
    # a panel no arm measures (the route change of the dense model) is left out
    if run.moe_config.model == "dense":
        shown = [m for m in panels if m != "route_change_fraction"]
    else:
        shown = [m for m in panels if frame.empty or pd.to_numeric(frame[m], errors="coerce").notna().any()]
    words = {**words, "empty": tr("moe.first_step")}
    return live_arms_figure(frame, shown, words, steps=run.config.steps, smooth=SMOOTH_SPAN, cols=2, panel_height=170)
