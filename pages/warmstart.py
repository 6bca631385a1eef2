"""Why SFT before RL: what a group looks like from a weak checkpoint and from the supervised warm start,
and the same GRPO run from both, side by side.

Widgets -> ``rlviz.experiments.warmstart`` -> ``rlviz.plots.warmstart`` -> ``app_common.chart``. The page
opens with its title, lede, the group size G and the outcome figure (groups of G all wrong / mixed / all
right from each start, measured and cached by their inputs); its question about the weak start holds that
start's bars and numbers back until the learner commits (``answers_held``). The live run (a
``WarmStartRun``: two GRPO arms of one ``SideBySideRun``, one from each checkpoint of the task registry)
lives in ``st.session_state`` on the run-page skeleton (``app_common.runpage.RunPage``) like the sampling
page's; its two questions are asked before Run and judged on the finished run. Every number in the text is
read from a measurement or the run. Widget keys start with ``ws_``; the cached measurement and the figures
are in ``app_common.parts.warmstart``, the sentences and tables in ``rlviz.experiments.warmstart``.
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
    predict,
    show_bad_input,
    tr,
)
from app_common.parts import warmstart as parts
from app_common.predictions import answers_held, held_note
from app_common.runpage import RunPage
from app_common.runsettings import Field, RunSettings
from app_common.template import notes, page_top
from rlviz.experiments import warmstart as X
from rlviz.experiments.warmstart import GROUP_SIZES, WarmStartConfig, WarmStartRun
from rlviz.lm.task import HELDOUT_SIZE
from rlviz.plots.live import SMOOTH_SPAN
from rlviz.teach.predict import PREDICTIONS

ensure_shell()
L = lang()
state = st.session_state
seed = int(state.get("seed", 0))
device = state.get("device", "auto")
D = WarmStartConfig()
LR_CHOICES = (1e-5, 2e-5, 5e-5, 1e-4, 2e-4, 5e-4, 1e-3)
STEPS = X.start_steps()
arm_labels = X.arm_labels(L)
BEFORE = [p for p in PREDICTIONS["warmstart"] if not p.needs_result]  # asked at the measurement
LIVE = [p for p in PREDICTIONS["warmstart"] if p.needs_result]  # asked before Run, judged on the run

page_top("warmstart", weak=STEPS["weak"], warm=STEPS["warm"])  # title, path marker, lede; the figure follows

# ---------------------------------------------------------------------------------------- 1. before any run
controls = st.container(horizontal=True, vertical_alignment="bottom", key="ws_measure_settings")
with controls:
    G = st.select_slider(
        tr("warmstart.group_size"),
        list(GROUP_SIZES),
        value=8,
        key="ws_G",
        help=tr("warmstart.group_size_help"),
        bind="query-params",
        width=260,
    )
    with st.popover(tr("warmstart.measure_popover"), icon=":material/tune:"):
        n_prompts = st.number_input(
            tr("warmstart.n_prompts"),
            1,
            256,
            24,
            key="ws_n",
            help=tr("warmstart.n_prompts_help", S=X.SAMPLES),
            bind="query-params",
        )
        temperature = st.slider(
            tr("warmstart.temperature"),
            0.1,
            2.0,
            1.0,
            0.05,
            key="ws_temp",
            help=tr("warmstart.temperature_help"),
            bind="query-params",
        )
        st.caption(tr("warmstart.measure_note", S=X.SAMPLES))

measurement = None
measure_args = (int(n_prompts), float(temperature), seed, device)
try:
    with st.spinner(tr("warmstart.measuring", n=int(n_prompts), S=X.SAMPLES)):
        measurement = parts.measure(*measure_args)
except ValueError as exc:
    show_bad_input(exc, X.measure_fields(L))

if measurement is not None:
    asked = X.question_state(measurement, int(G))
    held = answers_held(BEFORE, asked)  # the weak start's bars and numbers answer the question below
    hidden = ("weak",) if held else ()
    left, right = st.columns([3, 1])
    with left:
        words = parts.outcome_words(measurement)
        chart(parts.outcome_figure(measure_args, int(G), hidden, tuple(words.items())), "warmstart-groups")
        if held:
            held_note()
    with right:
        formula(r"r_1 = \dots = r_G \;\Rightarrow\\ A_i = \frac{r_i - \bar r}{\operatorname{std}(r)} = 0", small=True)
        # k right answers of G, k ~ Binomial(G, p): the group is mixed when 0 < k < G
        formula(r"P(0 < k < G)\\ = 1 - p^G - (1-p)^G\\ \approx G\,p \quad (G p \ll 1)", small=True)
    st.caption(X.measured_caption(measurement, int(G), L, held))
    with st.container(border=True):  # predict, then check: under the figure
        st.markdown(f"#### {tr('teach.header')}")
        st.caption(tr("teach.intro"))
        for prediction in BEFORE:
            predict(prediction, asked)
with notes():
    st.markdown(tr("warmstart.intro"))
    st.markdown(tr("warmstart.signal_text"))
    st.markdown(tr("warmstart.why_rl"))
if measurement is not None:
    csv_download(measurement.outcomes, "warmstart-groups", key="ws_dl_groups")

# ---------------------------------------------------------------------------------------- 2. the live run
st.subheader(tr("warmstart.live_header"))
st.caption(tr("warmstart.live_lede"))
rp = RunPage(
    "warmstart",
    run_key="warmstart_run",
    flag_key="warmstart_running",
    buttons=("ws_run", "ws_stop", "ws_continue", "ws_reset"),
    starting=lambda: (arm_labels, int(state.get("ws_steps", D.steps))),  # the steps as the widget says
)
# the run's shared settings (app_common.runsettings): their keys, labels and defaults
rs = RunSettings(
    "warmstart",
    "ws_",
    D,
    disabled=rp.running,  # True from the Run click's own script run: widgets disabled
    steps=Field(),
    prompts=Field(label="live_prompts"),
    group_size=Field(label="live_group_size"),
    lr=Field(choices=LR_CHOICES),
    temperature=Field(label="live_temperature"),
    heldout=Field(help=True, n=HELDOUT_SIZE),
)
with rp.settings:  # one row: the run's size (no more than this server runs)
    steps, _, _ = rs.inline("steps", "prompts", "group_size")
with rp.details, st.expander(tr("warmstart.more_settings"), expanded=rp.presenting):
    rs.row("lr", "temperature", "heldout")


def _config() -> WarmStartConfig:
    return WarmStartConfig(**rs.config(), seed=seed, device=device)


with rp.notes():
    st.markdown(tr("warmstart.live_text"))
    st.markdown(tr("warmstart.live_caption"))
    st.markdown(tr("warmstart.symptoms"))
with rp.practitioners():
    from app_common import export_config

    st.markdown(tr("warmstart.practitioners"))
    export_config("grpo", train_config=_config().train_config("warm"), key="ws_export")

rp.controls(
    lambda: WarmStartRun(_config()),  # loads both checkpoints
    fields=X.live_fields(L),
    settings_keys=rs.keys,
)
run = rp.watch(
    lambda run: parts.live_figure(run, steps),
    names=arm_labels,
    chart_key="warmstart-live",
    changed=lambda run: dataclasses.asdict(_config()) != dataclasses.asdict(run.ws_config),
    no_run=tr("warmstart.no_run", steps=D.steps, n=D.prompts_per_step, G=D.group_size),  # the defaults
)

# predict, then check: asked at the settings in view (they do not change while the run goes), judged once
# the run with those settings has finished
live_state = dataclasses.asdict(run.ws_config if run is not None else _config())
result = X.live_result(run) if run is not None and run.done else None
with rp.predictions:
    questions = [p for p in LIVE if p.applies(live_state)]
    st.markdown(f"#### {tr('teach.header')}")
    for col, prediction in zip(st.columns(len(questions), border=True), questions):
        with col:
            predict(prediction, live_state, result, labels=arm_labels, started=run is not None)
if run is not None:
    metrics, summary = run.metrics_frame(), run.summary_frame()
    reading = X.run_reading(metrics, summary, L)
    if reading:
        rp.read(reading)
    with rp.reading:
        st.caption(tr("warmstart.smooth_caption", span=SMOOTH_SPAN))
    with rp.sections:
        st.table(X.summary_table(summary, arm_labels, L), hide_index=True, border="horizontal")
        st.caption(tr("warmstart.summary_caption", n=HELDOUT_SIZE))
    with rp.downloads:
        csv_download(metrics, "warmstart-live", key="ws_dl_live")
