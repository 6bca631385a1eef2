"""Sampler ≠ trainer: the rollout-training mismatch measured for each sampler choice, how each rollout
correction weighs a token, and a live side-by-side run of the corrections.

Widgets -> ``rlviz.experiments.mismatch`` (``measure_mismatch``, ``correction_curves``,
``MismatchLiveRun``) -> ``rlviz.plots.mismatch`` figures. The corrections come from the registry
``rlviz.core.corrections.CORRECTIONS``; the page never branches on a correction's name. The page opens
with its title, lede, the measurement's few controls in one row and its figure (the log-ratio per token
and per response, one row per sampler); the measurement is cached by its inputs and shows its progress.
Its two questions hold back what would answer them (``answers_held``): the bf16 and fp16 rows while the
precision question waits, the top-p and top-k rows (with their mask-replay rows) while the truncation
question waits (in the figure, the table, the readings and the corrections' effect). The live run is a
later section on the run-page skeleton (``app_common.runpage.RunPage``), like the live and sampling pages.
Every number in the text is read from a result. Widget keys start with ``mm_``. The tables and readings
are built by ``rlviz.experiments.mismatch`` in the page's language; the page holds the widgets and the
layout, and ``app_common.parts.mismatch`` the views: the cached measurement, its notes, figure and table,
the corrections' figure, the practitioners' tables (the registry, verl's presets), the corrections' effect
(with whether each TIS cap binds), the live figure and summary, and the stored runs' reading.
"""

from __future__ import annotations

import dataclasses

import streamlit as st

from app_common import (
    csv_download,
    ensure_shell,
    export_configs,
    lang,
    live_reading,
    predict,
    show_bad_input,
    stop,
    tr,
)
from app_common.parts import mismatch as parts
from app_common.predictions import answers_held
from app_common.runpage import RunPage
from app_common.runsettings import Field, RunSettings
from app_common.template import page_top
from rlviz.experiments import mismatch as X
from rlviz.lm.trainer import ROLLOUT_DTYPES
from rlviz.plots.live import SMOOTH_SPAN
from rlviz.teach.predict import PREDICTIONS, mismatch_state

ensure_shell()
L = lang()
state = st.session_state
seed = int(state.get("seed", 0))
device = state.get("device", "auto")
S = X.MismatchSettings()
D = X.MismatchLiveConfig()
LR_CHOICES = (1e-4, 3e-4, 1e-3, 3e-3)
LIVE_LR_CHOICES = (1e-4, 3e-4, 1e-3, 2e-3, 3e-3)
model_names = X.model_names(L)

page_top("mismatch")  # title, lede; the measurement's controls and figure follow at once


# ---------------------------------------------------------------------------------------- 1. measured
# the few controls of the figure, in one row above it; the others in a popover at its end
controls = st.container(horizontal=True, vertical_alignment="bottom", key="mm_measure_settings")
with controls:
    model = st.radio(
        tr("mismatch.model"),
        list(X.MODELS),
        index=list(X.MODELS).index(S.model),
        format_func=model_names.get,
        horizontal=True,
        key="mm_model",
        help=tr("mismatch.model_help"),
        bind="query-params",
        width="content",
    )
    stale = st.slider(
        tr("mismatch.stale_steps"),
        1,
        8,
        S.stale_steps,
        key="mm_k",
        help=tr("mismatch.stale_steps_help"),
        bind="query-params",
        width=180,
    )
    top_p = st.slider(
        tr("mismatch.top_p"),
        0.5,
        1.0,
        S.top_p,
        0.05,
        key="mm_top_p",
        help=tr("mismatch.top_p_help"),
        bind="query-params",
        width=160,
    )
    with st.popover(tr("mismatch.measure_more"), icon=":material/tune:"):
        stale_lr = st.select_slider(
            tr("mismatch.stale_lr"),
            LR_CHOICES,
            value=S.stale_lr,
            format_func="{:g}".format,
            key="mm_lr",
            help=tr("mismatch.stale_lr_help"),
            bind="query-params",
        )
        top_k = st.number_input(
            tr("mismatch.top_k"), 1, 64, S.top_k, key="mm_top_k", help=tr("mismatch.top_k_help"), bind="query-params"
        )
        prompts = st.number_input(tr("mismatch.prompts"), 1, 64, S.prompts, key="mm_n", bind="query-params")
        group_size = st.number_input(tr("mismatch.group_size"), 1, 16, S.group_size, key="mm_G", bind="query-params")
MEASURE_FIELDS = X.measure_fields(L)

result = None
try:
    settings = X.MismatchSettings(
        prompts=int(prompts),
        group_size=int(group_size),
        stale_steps=int(stale),
        stale_lr=float(stale_lr),
        top_p=round(float(top_p), 4),
        top_k=int(top_k),
        model=model,
        seed=seed,
        device=None if device == "auto" else device,
    )
    result = parts.measure(settings)
except ValueError as exc:  # under the row whose fields it names
    show_bad_input(exc, MEASURE_FIELDS)


hidden: set[str] = set()  # the samplers whose rows are held back (a question they answer waits)
if result is None:
    parts.page_notes(int(stale), float(stale_lr))
else:
    s = result.settings
    sampler_names = X.sampler_names(s, L)
    # predict, then check: each question holds back the samplers' rows that answer it until the commit
    asked = mismatch_state(result)
    for prediction in PREDICTIONS["mismatch"]:
        if answers_held([prediction], asked):
            hidden |= set(X.EVIDENCE[prediction.key])
    shown = [x for x in X.SAMPLERS if x not in hidden]

    parts.measured_figure(result, shown, sampler_names, hidden)  # the main figure, the shown samplers' rows
    parts.page_notes(s.stale_steps, s.stale_lr)

    # ------------------------------------------------------------------ predict, then check
    st.markdown(f"#### {tr('teach.header')}")
    st.caption(tr("teach.intro"))
    for col, prediction in zip(st.columns(2, border=True), PREDICTIONS["mismatch"]):
        with col:
            predict(prediction, asked, labels=sampler_names)

    parts.measurement_table(result, shown, sampler_names, hidden)  # the table and its readings

# ---------------------------------------------------------------------------------------- 2. corrections
st.subheader(tr("mismatch.corr_header"))
parts.corrections_view()  # how each correction weighs a token: the text, the figure, the list
parts.registry_section()  # for practitioners: each correction's TRL and verl names, verl's presets

if result is not None:  # what each correction does to the measured batch, and whether each TIS cap binds
    parts.effect_section(result, shown, sampler_names, hidden)

# ---------------------------------------------------------------------------------------- 3. live
st.subheader(tr("mismatch.live_header"))
st.caption(tr("mismatch.live_lede"))
arm_names = X.arm_names(L)
# the run page's places (app_common.runpage): the main settings and Run, the figure, the run's reading, the
# other settings, the run's table and the stored runs, notes, practitioners, downloads
rp = RunPage(
    "mismatch",
    run_key="mismatch_run",
    flag_key="mismatch_running",
    buttons=("mm_run", "mm_stop", "mm_continue", "mm_reset"),
    # the run Run starts, as its widgets say (their values are in the session before they are drawn)
    starting=lambda: (
        {a: arm_names[a] for a in state.get("mm_arms", D.arms) if a in arm_names},
        int(state.get("mm_steps", D.steps)),
    ),
)
running = rp.running  # True from the Run click's own script run: widgets disabled
# the run's shared settings (app_common.runsettings): their keys, labels and defaults
rs = RunSettings(
    "mismatch",
    "mm_",
    D,
    disabled=running,
    steps=Field(width=120),
    lr=Field("llr", choices=LIVE_LR_CHOICES),
    prompts=Field(),
    group_size=Field(),
    mu=Field(),
    mini_batches=Field(),
    heldout=Field(help=True),
)
with rp.settings:  # one row: the arms, the mismatched sampler (precision, staleness), the steps
    live_arms = st.multiselect(
        tr("mismatch.arms"),
        list(X.LIVE_ARM_KEYS),
        default=list(D.arms),
        format_func=arm_names.get,
        key="mm_arms",
        help=tr("mismatch.arms_help"),
        bind="query-params",
        disabled=running,
        placeholder=tr("common.choose"),
    )
    live_dtype = st.radio(
        tr("mismatch.live_dtype"),
        list(ROLLOUT_DTYPES),
        index=list(ROLLOUT_DTYPES).index(D.rollout_dtype),
        horizontal=True,
        key="mm_dtype",
        help=tr("mismatch.live_dtype_help"),
        bind="query-params",
        disabled=running,
        width="content",
    )
    live_stale = st.number_input(
        tr("mismatch.live_stale"),
        0,
        8,
        D.rollout_stale_steps,
        key="mm_stale",
        help=tr("mismatch.live_stale_help"),
        bind="query-params",
        disabled=running,
        width=150,
    )
    steps = rs.draw("steps")
with rp.details, st.expander(tr("mismatch.live_more"), expanded=rp.presenting):
    c1, c2, c3 = st.columns([1.2, 1, 1.6])
    live_model = c1.radio(
        tr("mismatch.model"),
        list(X.MODELS),
        index=list(X.MODELS).index(D.model),
        format_func=model_names.get,
        horizontal=True,
        key="mm_lmodel",
        help=tr("mismatch.model_help"),
        bind="query-params",
        disabled=running,
    )
    live_top_p = c2.slider(
        tr("mismatch.live_top_p"), 0.5, 1.0, D.top_p, 0.05, key="mm_ltop_p", bind="query-params", disabled=running
    )
    rs.draw("lr", c3)
    rs.row("prompts", "group_size", "mu", "mini_batches", "heldout")
for warning in X.live_warnings(live_arms, live_model, live_top_p, L):  # said before Run, next to it
    with rp.buttons:
        st.warning(warning, icon=":material/warning:")
SETTINGS_KEYS = ("mm_arms", "mm_lmodel", "mm_dtype", "mm_stale", "mm_ltop_p", *rs.keys)
LIVE_FIELDS = X.live_fields(L)


def _config() -> X.MismatchLiveConfig:
    return X.MismatchLiveConfig(
        **rs.config(),
        arms=tuple(live_arms),
        rollout_dtype=live_dtype,
        rollout_stale_steps=int(live_stale),
        top_p=round(float(live_top_p), 4),
        seed=seed,
        model=live_model,
        device=None if device == "auto" else device,
    )


with rp.notes():
    st.markdown(X.live_notes_text(L))
with rp.practitioners():  # the arms' configs (an R3 arm on the dense model is left out: the warning says why)
    export_configs(lambda: X.exported_arms(_config(), arm_names), key="mm_export", fields=LIVE_FIELDS)

rp.controls(lambda: X.make_live_run(_config(), L), fields=LIVE_FIELDS, settings_keys=SETTINGS_KEYS)


def _changed(run: X.MismatchLiveRun) -> bool:
    return dataclasses.asdict(_config()) != dataclasses.asdict(run.mismatch_config)


run = rp.watch(
    lambda run: parts.live_figure(run, steps, arm_names),
    names=arm_names,
    chart_key="mismatch-live",
    changed=_changed,
    no_run=tr("mismatch.no_run"),
)
if run is None:
    with rp.sections:  # before a run: what a stored run of the page's defaults showed
        parts.stored_reading(arm_names)
    stop()

frame = run.metrics_frame()
summary_frame = run.summary_frame()
reading = live_reading(summary_frame, arm_names, "mismatch", run.config.heldout_samples)
if reading:
    rp.read(reading)
with rp.reading:
    st.caption(tr("mismatch.smooth_caption", span=SMOOTH_SPAN))
with rp.sections:
    parts.live_summary(frame, summary_frame, arm_names)
    parts.stored_reading(arm_names)
with rp.downloads:
    csv_download(frame, "mismatch-live", key="mm_dl_live", label=tr("mismatch.download_csv"))
