"""MoE routing: how far routing moves after an update, what that does to the token ratio, and what
routing replay (verl R2 / R3) and GSPO's sequence ratio do about it (teaching claim 12).

Widgets -> ``rlviz.experiments.moe`` -> ``rlviz.plots.moe`` -> ``app_common.chart``. The page opens with
its title, lede, the one-batch experiment's few controls in one row and its figure (the token log-ratios
after the k-th update); the one-batch experiment (``routing_shift``) is cached by its inputs and shows its
progress while it computes. Its questions are asked at its result, and each holds back what would answer
it (``answers_held``): the replayed and GSPO distributions, the share of changed routes, the clip. The live
run (a ``MoeLiveRun``) is a later section on the run-page skeleton (``app_common.runpage.RunPage``), like
the live and sampling pages. Every number in the text is read from a result. Widget keys start with
``mo_``; the model radios carry the keys of ``MODELS`` in the URL, the same in both languages
(``app_common.seed_choice_from_url``). The readings, tables and figure words are built by
``rlviz.experiments.moe`` in the page's language; the cached experiment and the live figure are in
``app_common.parts.moe``.
"""

from __future__ import annotations

import dataclasses

import streamlit as st

from app_common import (
    chart,
    csv_download,
    ensure_shell,
    formula,
    lang,
    live_reading,
    predict,
    seed_choice_from_url,
    show_bad_input,
    stop,
    tr,
    write_choice_to_url,
)
from app_common.parts import moe as parts
from app_common.predictions import answers_held, held_note
from app_common.runpage import RunPage
from app_common.runsettings import Field, RunSettings
from app_common.template import notes, page_top
from rlviz.experiments import moe as X
from rlviz.experiments.moe import ARTICLE_ROUTE_CHANGE, LIVE_ARMS, MODEL_URL_ALIASES, MODELS, MoeLiveConfig
from rlviz.lm.task import HELDOUT_SIZE
from rlviz.plots.live import SMOOTH_SPAN
from rlviz.plots.moe import log_ratio_figure
from rlviz.teach.predict import PREDICTIONS, shift_state

ensure_shell()
L = lang()
state = st.session_state
seed = int(state.get("seed", 0))
device = state.get("device", "auto")
S = X.RoutingShiftSettings()  # the experiment's own defaults
D = MoeLiveConfig()
LR_CHOICES = (0.0, 1e-4, 3e-4, 1e-3, 3e-3)
LIVE_LR_CHOICES = (1e-4, 2e-4, 3e-4, 5e-4, 1e-3, 2e-3, 3e-3, 5e-3, 1e-2)
ARCH = parts.architecture()
model_names = X.model_names(L)
DEFAULT_MODEL = next(iter(MODELS))  # each model radio's first option
arm_names = X.arm_names(L)

page_top("moe")  # title, lede; the one-batch experiment's controls and figure follow at once


# ---------------------------------------------------------------------------------------- 1. one batch
# the few controls of the figure, in one row above it (they wrap onto a second row in a narrow window);
# the batch's size in a popover at its end
controls = st.container(horizontal=True, vertical_alignment="bottom", key="mo_shift_settings")
with controls:
    # the model radios' URL values are keys of MODELS, the same in both languages (a bound radio writes
    # the label it shows); the labels older links carried ("MoE", "Dense") still open their model
    seed_choice_from_url("mo_model", list(MODELS), DEFAULT_MODEL, aliases=MODEL_URL_ALIASES)
    model = st.radio(
        tr("moe.model"),
        list(MODELS),
        format_func=model_names.get,
        horizontal=True,
        key="mo_model",
        help=tr("moe.model_help", **ARCH),
        width="content",
    )
    write_choice_to_url("mo_model", DEFAULT_MODEL)
    lr = st.select_slider(
        tr("moe.lr"),
        LR_CHOICES,
        value=S.lr,
        format_func="{:g}".format,
        key="mo_lr",
        help=tr("moe.lr_help"),
        bind="query-params",
        width=200,
    )
    updates = st.slider(
        tr("moe.updates"), 1, 8, S.updates, key="mo_k", help=tr("moe.updates_help"), bind="query-params", width=160
    )
    with st.popover(tr("moe.batch"), icon=":material/tune:"):
        prompts = st.number_input(
            tr("moe.prompts"), 1, 64, S.prompts, key="mo_n", help=tr("moe.prompts_help"), bind="query-params"
        )
        group_size = st.number_input(
            tr("moe.group_size"), 2, 16, S.group_size, key="mo_G", help=tr("moe.group_size_help"), bind="query-params"
        )
        st.caption(tr("moe.seed_note"))
SHIFT_FIELDS = X.shift_fields(L)

result = None
try:
    result = parts.shift(model, int(updates), float(lr), int(prompts), int(group_size), seed, device)
except ValueError as exc:  # under the row whose popover holds the field: the message names it
    show_bad_input(exc, SHIFT_FIELDS)


def _page_notes() -> None:
    """The one-batch experiment's explanations, collapsed (today's intro, the models, the formula)."""
    with notes():
        st.markdown(tr("moe.intro", article=f"{ARTICLE_ROUTE_CHANGE:.0%}", **ARCH))
        st.markdown(tr("moe.models", **ARCH))
        formula(
            r"r_{i,t} = \frac{\pi_\theta(y_{i,t} \mid \cdot\,;\, e_\theta)}"
            r"{\pi_\text{old}(y_{i,t} \mid \cdot\,;\, e_\text{old})},\quad "
            r"r^\text{replay}_{i,t} = \frac{\pi_\theta(y_{i,t} \mid \cdot\,;\, e_\text{old})}"
            r"{\pi_\text{old}(y_{i,t} \mid \cdot\,;\, e_\text{old})},\quad "
            r"\log s_i = \frac{1}{|y_i|} \sum_t \log r_{i,t}",
            small=True,
        )
        st.caption(tr("moe.formula_caption"))
        st.markdown(f"**{tr('moe.shift_header')}** {tr('moe.shift_text')}")


if result is None:
    _page_notes()
else:
    k = result.settings.updates
    # predict, then check: each question asked at this result holds back what would answer it until the
    # learner commits (or skips): the replayed and GSPO distributions, the share of changed routes, the clip
    asked = shift_state(result)
    questions = [p for p in PREDICTIONS["moe"] if p.applies(asked)]
    held = {p.key: answers_held([p], asked) for p in questions}
    hold_route = held.get("teach.moe_route", False)
    hold_replay = held.get("teach.moe_replay", False)
    hold_sequence = held.get("teach.moe_sequence", False)
    hold_clip = held.get("teach.moe_clip", False)

    # ------------------------------------------------------------------ the main figure: the ratios
    ratio_labels = X.ratio_words(k, L)
    kinds = ["token_own"] + ["token_replay"] * (not hold_replay) + ["sequence"] * (not hold_sequence)
    fig = log_ratio_figure(result.log_ratios, k, ratio_labels, kinds=kinds, routing=not hold_replay)
    chart(fig, "moe-log-ratios")
    caption = "moe.ratio_caption" if result.moe else "moe.ratio_caption_dense"
    st.caption(tr("moe.ratio_caption_held" if hold_replay or hold_sequence else caption, k=k))  # what is drawn
    if (hold_replay and result.moe) or hold_sequence:
        held_note()  # the replayed and the sequence distributions answer two questions below
    for text in X.ratio_readings(result, hold_replay, hold_sequence, L):
        st.markdown(text)
    _page_notes()

    # ------------------------------------------------------------------ predict, then check
    st.markdown(f"#### {tr('teach.header')}")
    st.caption(tr("teach.intro"))
    for row in range(0, len(questions), 2):
        for col, prediction in zip(st.columns(2, border=True), questions[row : row + 2]):
            with col:
                predict(prediction, asked, labels=arm_names)

    # the batch's numbers, which routes changed, what each arm's clip saw, one response, the downloads
    parts.batch_views(result, arm_names, hold_route, hold_clip)

# ---------------------------------------------------------------------------------------- 2. live
st.subheader(tr("moe.live_header"))
st.caption(tr("moe.live_lede"))
# the run page's places (app_common.runpage): the main settings and Run, the figure, the run's reading, the
# other settings, the run's table, notes, practitioners, downloads
rp = RunPage(
    "moe",
    run_key="moe_run",
    flag_key="moe_running",
    buttons=("mo_run", "mo_stop", "mo_continue", "mo_reset"),
    # the run Run starts, as its widgets say (their values are in the session before they are drawn)
    starting=lambda: (
        {a: arm_names[a] for a in state.get("mo_arms", D.arms) if a in arm_names},
        int(state.get("mo_steps", D.steps)),
    ),
)
running = rp.running  # True from the Run click's own script run: widgets disabled
# the run's shared settings (app_common.runsettings): their keys, labels and defaults
rs = RunSettings(
    "moe",
    "mo_",
    D,
    disabled=running,
    steps=Field(width=120),
    lr=Field("llr", help=True, width=220, choices=LIVE_LR_CHOICES),
    prompts=Field(help=True),
    group_size=Field(help=True),
    mu=Field(help=True),
    mini_batches=Field(),
    heldout=Field(help=True),
)
with rp.settings:  # one row: the arms, the model, the steps, the learning rate
    live_arms = st.multiselect(
        tr("moe.arms"),
        [a.name for a in LIVE_ARMS],
        default=list(D.arms),
        format_func=lambda name: tr(f"moe.arm_code.{name}"),
        key="mo_arms",
        help=tr("moe.arms_help"),
        bind="query-params",
        disabled=running,
        placeholder=tr("common.choose"),
    )
    seed_choice_from_url("mo_lmodel", list(MODELS), DEFAULT_MODEL, aliases=MODEL_URL_ALIASES)
    live_model = st.radio(
        tr("moe.model"),
        list(MODELS),
        format_func=model_names.get,
        horizontal=True,
        key="mo_lmodel",
        help=tr("moe.model_help", **ARCH),
        disabled=running,
        width="content",
    )
    write_choice_to_url("mo_lmodel", DEFAULT_MODEL)
    steps, _ = rs.inline("steps", "lr")
with rp.details, st.expander(tr("moe.live_more"), expanded=rp.presenting):
    rs.row("prompts", "group_size", "mu", "mini_batches", "heldout")
if live_model == "dense" and X.REPLAY_ARMS & set(live_arms):  # said before Run, next to it
    with rp.buttons:
        st.warning(tr("moe.dense_no_replay_now"), icon=":material/warning:")
LIVE_FIELDS = X.live_fields(L)


def _config() -> MoeLiveConfig:
    return MoeLiveConfig(**rs.config(), arms=tuple(live_arms), seed=seed, model=live_model, device=device)


with rp.notes():
    st.markdown(X.live_notes_text(L))
with rp.practitioners():
    from app_common import export_configs

    st.markdown(tr("moe.replay_frameworks"))
    export_configs(lambda: X.exported_arms(_config(), L), key="mo_export", fields=LIVE_FIELDS)

# the run the widgets describe (loads the model); a replay arm on the dense model is refused in the session's
# language before the library refuses it
rp.controls(lambda: X.make_live_run(_config(), L), fields=LIVE_FIELDS, settings_keys=("mo_arms", "mo_lmodel", *rs.keys))


def _changed(run: X.MoeLiveRun) -> bool:
    return dataclasses.asdict(_config()) != dataclasses.asdict(run.moe_config)


run = rp.watch(
    lambda run: parts.live_figure(run, live_model, steps),
    names=arm_names,
    chart_key="moe-live",
    changed=_changed,
    no_run=tr("moe.no_run"),
)
if run is None:
    stop()

summary_frame = run.summary_frame()
reading = live_reading(summary_frame, arm_names, "moe", run.config.heldout_samples)
if reading:
    rp.read(reading)
with rp.reading:
    st.caption(tr("moe.live_caption") + " " + tr("moe.smooth_caption", span=SMOOTH_SPAN))

with rp.sections:
    st.markdown(f"#### {tr('moe.summary_header')}")
    st.table(
        X.live_summary_table(summary_frame, arm_names, L), hide_index=True, border="horizontal"
    )  # headers wrap: no column hides at 1400 px
    st.caption(tr("moe.summary_caption", n=HELDOUT_SIZE))
with rp.downloads:
    csv_download(run.metrics_frame(), "moe-live", key="mo_dl_live", label=tr("moe.download_csv"))
