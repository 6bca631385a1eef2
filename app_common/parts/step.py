"""The step page's Streamlit-bound support: this session's batches and replays (kept in
``st.session_state``) and the stage's figure, its words in the session's language."""

from __future__ import annotations

import streamlit as st

from app_common.text import tr
from rlviz.core.objectives import ALGORITHMS, TOKEN_STATES
from rlviz.experiments import step as S
from rlviz.numbering import response_number
from rlviz.plots.step import ratio_figure, response_bars_figure, states_figure, token_strip_figure

SAMPLES_KEPT, WALKS_KEPT = 3, 24  # this session's cache: the last few batches, the last few replays


def walk(settings: dict) -> S.Walk:
    """The batch of (seed, G, prompt), sampled once per session, replayed under the objective (kept too)."""
    state = st.session_state
    samples = state.setdefault("_st_samples", {})
    walks = state.setdefault("_st_walks", {})
    batch_key = (settings["seed"], settings["group_size"], settings["prompt"])
    spec = ALGORITHMS[settings["objective"]]
    walk_key = (*batch_key, settings["lr"], settings["objective"], id(spec))
    if walk_key in walks:
        walks[walk_key] = walks.pop(walk_key)  # most recent last
        return walks[walk_key]
    if batch_key not in samples:
        samples[batch_key] = S.sample_group(*batch_key)
        while len(samples) > SAMPLES_KEPT:
            samples.pop(next(iter(samples)))
    walks[walk_key] = S.replay(samples[batch_key], settings["objective"], settings["lr"])
    while len(walks) > WALKS_KEPT:
        walks.pop(next(iter(walks)))
    return walks[walk_key]


def stage_figure(walk: S.Walk, frame, stage: str, rows: dict[int, str], hold_adv: bool, hold_clip: bool):
    """The figure of ``stage`` for ``walk`` (``frame``: its per-token frame with ``state_word``; ``rows``: the
    responses' labels) and whether it stands in for a figure held back (``hold_adv``: the advantages'
    question waits, ``hold_clip``: the clip's); returns ``(figure, held)``."""
    h = {key: tr(f"step.h.{key}") for key in ("old_prob", "prob", "new_prob", "ratio", "token_ratio", "advantage")}
    h |= {key: tr(f"step.h.{key}") for key in ("push", "loss", "weight", "share", "state")}
    adv_hover = [] if hold_adv else [(h["advantage"], "advantage", "+.3g")]

    def bars(values, signed: bool, text, colors=None, x_title: str = "", fig_title: str | None = None):
        row_labels = [rows[response_number(i)] for i in range(walk.group_size)]
        return response_bars_figure(
            values, {}, row_labels=row_labels, title=fig_title, signed=signed, colors=colors, text=text, x_title=x_title
        )

    def rewards():
        shaped, colors = walk.shaped, ["#009E73" if r > 0 else "#bbbbbb" for r in walk.rewards]
        text = [f"{v:g}" for v in shaped]
        return bars(shaped, bool((shaped < 0).any()), text, colors, tr("step.axis.reward"), tr("step.fig.rewards"))

    def ratios():
        return ratio_figure(
            frame,
            {"position": tr("word.position"), "colorbar": tr("step.cb.ratio")},
            band=walk.band,
            row_labels=rows,
            title=tr("step.fig.ratio"),
            hover=[(h["ratio"], "ratio", ".4f"), (h["token_ratio"], "token_ratio", ".4f"), *adv_hover],
        )

    def strip(value: str, colorbar: str, fig_title: str, hover, scale="diverging", zmin=None, zmax=None):
        words = {"position": tr("word.position"), "colorbar": colorbar}
        return token_strip_figure(
            frame, value, words, row_labels=rows, title=fig_title, scale=scale, zmin=zmin, zmax=zmax, hover=hover
        )

    if stage == "responses":
        title = tr("step.fig.responses", prompt=walk.prompt, G=walk.group_size)
        hover = [(h["old_prob"], "old_prob", ".3f")]
        return strip("old_prob", tr("step.cb.old_prob"), title, hover, scale="sequential", zmin=0.0, zmax=1.0), False
    if stage == "rewards":
        return rewards(), False
    if stage == "advantages":
        if hold_adv:
            return rewards(), True
        text = [f"{a:+.3g}" for a in walk.adv_rows]
        x_title, title = tr("step.axis.advantage"), tr("step.fig.advantages")
        return bars(walk.adv_rows, True, text, x_title=x_title, fig_title=title), False
    if stage == "ratio":
        return ratios(), False
    if stage == "clip":
        if hold_clip:
            return ratios(), True
        words = {"position": tr("word.position"), **{f"state.{s}": tr(f"step.state.{s}") for s in TOKEN_STATES}}
        hover = [(h["ratio"], "ratio", ".4f"), *adv_hover, (h["state"], "state_word", "")]
        return states_figure(frame, words, row_labels=rows, title=tr("step.fig.clip"), hover=hover), False
    if stage == "weights":
        state_hover = [] if hold_clip else [(h["state"], "state_word", "")]
        hover = [(h["push"], "push", ".3g"), (h["ratio"], "ratio", ".4f"), *adv_hover, *state_hover]
        return strip("push", tr("step.cb.push"), tr("step.fig.weights"), hover), False
    if stage == "aggregation":
        title = tr("step.fig.aggregation", mode=walk.loss_agg_mode)
        hover = [(h["share"], "share", ".3f"), (h["weight"], "token_weight", ".3g")]
        hover.append((h["loss"], "per_token_loss", ".3g"))
        return strip("share", tr("step.cb.share"), title, hover, scale="sequential", zmin=0.0), False
    # update
    hover = [(h["prob"], "prob", ".3f"), (h["new_prob"], "new_prob", ".3f"), (h["push"], "push", ".3g")]
    return strip("delta_log_prob", tr("step.cb.delta"), tr("step.fig.update"), hover), False
