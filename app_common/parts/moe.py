"""The MoE page's Streamlit-bound support: the shipped MoE's architecture and the one-batch experiment,
cached (the experiment with its progress bar), the one-batch experiment's views under its questions, and
the live run's figure."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from app_common.charts import chart, csv_download
from app_common.predictions import held_note
from app_common.text import lang, pct, tr
from rlviz.core.objectives import ALGORITHMS
from rlviz.experiments import moe as X
from rlviz.experiments.moe import ARTICLE_ROUTE_CHANGE
from rlviz.plots.live import SMOOTH_SPAN
from rlviz.plots.moe import arm_metrics_figure, live_arms_figure, route_change_figure, token_strip_figure


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


def batch_views(result: X.RoutingShiftResult, arm_names: dict[str, str], hold_route: bool, hold_clip: bool) -> None:
    """The one-batch experiment's views under its questions: the batch's numbers (the share of changed
    routes, the article's, the sampler's own mismatch, each arm's clip fraction), which routes changed per
    layer, what each arm's clip saw over the updates, one response's tokens, and the downloads.
    ``hold_route`` / ``hold_clip``: a question waits whose answer is the share of changed routes / the clip
    (those views are a note until the learner commits); ``arm_names``: arm -> its label."""
    L = lang()
    k, shift_lr = result.settings.updates, result.settings.lr
    summary = result.summary()
    shift_arms = list(dict.fromkeys(result.arms["arm"]))  # the one-batch arms, in their order
    # ------------------------------------------------------------------ the batch's numbers
    if result.moe:
        cols = st.columns(4)
        if hold_route:  # the share of changed routes is a question's answer
            held_note(cols[0])
        else:
            cols[0].metric(tr("moe.m_first"), pct(summary["route_change_first"]), help=tr("moe.m_first_help"))
            if k > 1:  # after one update the two are the same number
                cols[1].metric(tr("moe.m_last", k=k), pct(summary["route_change_last"]), help=tr("moe.m_first_help"))
        cols[2].metric(
            tr("moe.m_article"),
            tr("moe.m_article_value", share=f"{ARTICLE_ROUTE_CHANGE:.0%}"),
            help=tr("moe.m_article_help"),
        )
        cols[3].metric(tr("moe.m_sampler"), pct(result.sampler_mismatch), help=tr("moe.m_sampler_help"))
    else:
        st.info(tr("moe.dense_note"), icon=":material/info:")
    if not hold_clip:
        cols = st.columns(3)
        for col, arm in zip(cols, shift_arms):
            clip = pct(summary[f"clip_{arm}"])
            col.metric(tr("moe.m_clip", arm=arm_names.get(arm, arm), k=k), clip, help=tr("moe.m_clip_help", k=k))
    st.caption(
        tr(
            "moe.batch_note",
            reward=f"{result.reward_mean:.2f}",
            signal=result.signal_groups,
            groups=result.settings.prompts,
        )
    )

    # ------------------------------------------------------------------ which routes changed
    if result.moe:
        st.markdown(f"#### {tr('moe.route_header')}")
        if hold_route:
            held_note()
        else:
            rc = result.route_change
            if shift_lr != 0:  # at learning rate 0 the ratios' reading has said it already
                st.markdown(X.route_reading(result, L))
            route_labels = X.route_words(result.layers, L)
            chart(route_change_figure(rc, route_labels, article=ARTICLE_ROUTE_CHANGE), "moe-route-change")
            st.caption(tr("moe.route_caption", article=f"{ARTICLE_ROUTE_CHANGE:.0%}"))

    # ------------------------------------------------------------------ what each arm's clip saw
    st.markdown(f"#### {tr('moe.arms_header')}")
    # the clip fraction panel answers "which arm clips the most": held back until then
    arm_panels = (
        ("ratio_var", "token_log_ratio_std") if hold_clip else ("clip_fraction", "ratio_var", "token_log_ratio_std")
    )
    arms_labels = X.arms_words(arm_panels, arm_names, L)
    chart(arm_metrics_figure(result.arms, arm_panels, arms_labels, x="update", cols=3), "moe-arms")
    gspo = ALGORITHMS["gspo"].defaults
    st.caption(tr("moe.arms_caption", eps_low=f"{gspo['epsilon_low']:g}", eps_high=f"{gspo['epsilon_high']:g}"))
    if hold_clip:
        held_note()
    else:
        st.markdown(X.clip_reading(result, arm_names, L))

    # ------------------------------------------------------------------ one response
    if result.moe and any(result.token.get("layers_changed") or ()):  # a response where some route changed
        st.markdown(f"#### {tr('moe.strip_header')}")
        if hold_route:  # its colours count the changed routes
            held_note()
        else:
            strip_labels = X.strip_words(L)
            chart(token_strip_figure(result.token, result.layers, strip_labels), "moe-token-strip")
            st.caption(tr("moe.strip_caption", k=k, prompt=result.token["prompt"], layers=result.layers))

    downloads = st.container(horizontal=True)
    with downloads:
        if not hold_clip:
            csv_download(result.arms, "moe-arms", key="mo_dl_arms", label=tr("moe.dl_arms"))
        if result.moe and not hold_route:
            csv_download(result.route_change, "moe-route-change", key="mo_dl_routes", label=tr("moe.dl_routes"))
