"""Live policy update: several algorithms train the same tiny LM side by side, step by step.

The page fills the run-page skeleton (``app_common.runpage.RunPage``): title and lede, the algorithms
and steps with Run just above the curves' figure (empty panels before a run, growing step by step
during it), the run's reading right under it, then the other settings, the predictions, the run's own
views (ratios, tokens, the final table), notes, practitioners and downloads.

Widgets (generated from the registry ``rlviz.core.objectives.ALGORITHMS``, read at render time) ->
one ``rlviz.experiments.live.LiveRun`` (a ``SideBySideRun``, one arm per algorithm) per session, in
``st.session_state``, never cached across sessions -> figures. ``app_common.advance`` steps it one
arm-step at a time under the run's lock and keeps every result as it goes, so Stop, a language
switch or a page switch loses nothing and Continue picks up where it stopped. Widget keys start
with ``lv_``. The settings every run page shares (steps, prompts, G, μ, learning rate, temperature,
mini-batches, held-out samples) are drawn by ``app_common.runsettings``; the registry's and the advanced
settings' widgets, the curves and the run's own views by ``app_common.parts.live``; the words and tables
come from ``rlviz.experiments.live``.
"""

from __future__ import annotations

import dataclasses

import streamlit as st

from app_common import (
    csv_download,
    ensure_shell,
    labels,
    lang,
    predict,
    stop,
    tr,
)
from app_common.parts import live as parts
from app_common.predictions import questions_header
from app_common.runpage import RunPage
from app_common.runsettings import Field, RunSettings
from rlviz.core.objectives import ALGORITHMS
from rlviz.experiments import live as X
from rlviz.experiments.live import ALL_METRICS, DEFAULT_ALGORITHMS, PANELS, LiveConfig, LiveRun, run_reading
from rlviz.i18n import SENTENCE_SEPARATOR
from rlviz.lm.tasks import TASKS
from rlviz.plots.live import SMOOTH_SPAN
from rlviz.teach.predict import PREDICTIONS, live_result

ensure_shell()
L = lang()
D = LiveConfig()  # the experiment's own defaults
LR_CHOICES = (1e-5, 2e-5, 5e-5, 1e-4, 2e-4, 5e-4, 1e-3, 2e-3, 5e-3, 1e-2, 2e-2)
titles = {n: spec.title for n, spec in ALGORITHMS.items()}  # the registry as it is now
state = st.session_state
# the run page's places (app_common.runpage): title and lede, the main settings and Run, the figure, the
# run's reading, the other settings, the predictions, the run's own views, notes, practitioners, downloads
rp = RunPage(
    "live",
    run_key="live_run",
    flag_key="live_running",
    buttons=("lv_run", "lv_stop", "lv_continue", "lv_reset"),
    page="live",
    # the run Run starts, as its widgets say (their values are in the session before they are drawn)
    starting=lambda: (
        {a: titles.get(a, a) for a in state.get("lv_algos", DEFAULT_ALGORITHMS) if a in titles},
        int(state.get("lv_steps", D.steps)),
    ),
)
running = rp.running  # True from the Run click's own script run: widgets disabled
# the run's shared settings (app_common.runsettings): their keys, labels and defaults
rs = RunSettings(
    "live",
    "lv_",
    D,
    disabled=running,
    steps=Field(width=120),
    prompts=Field("prompts", help=True),
    group_size=Field("G", help=True),
    mu=Field(help=True),
    lr=Field(help=True, choices=LR_CHOICES),
    temperature=Field("temp", help=True),
    mini_batches=Field(help=True),
    heldout=Field(help=True, high=64),
)

# ---------------------------------------------------------------------------------------- settings
with rp.settings:  # one row: the algorithms, the steps
    algorithms = st.multiselect(
        tr("live.algorithms"),
        list(ALGORITHMS),
        default=[a for a in DEFAULT_ALGORITHMS if a in ALGORITHMS],
        format_func=lambda name: titles.get(name, name),
        key="lv_algos",
        help=tr("live.algorithms_help"),
        bind="query-params",
        disabled=running,
        placeholder=tr("common.choose"),
    )
    steps = rs.draw("steps")
    task = parts.task_picker(D.task, running)  # the task registry's choices, its one-line summary under it
spec = TASKS[task]

with rp.details:
    metric_labels = labels("metric", *ALL_METRICS, step=tr("word.step"), smoothed=tr("live.smoothed"))
    # The multiselect's browser-side value is its (translated) labels, so it is one widget per language;
    # the chosen metric keys carry over from one language to the other.
    panels = st.multiselect(
        tr("live.panels"),
        list(ALL_METRICS),
        default=state.get("live_panels", list(PANELS) + [m for m in spec.panels if m not in PANELS]),
        format_func=metric_labels.get,
        key=f"lv_panels_{L}",
        placeholder=tr("common.choose"),
    )
    state["live_panels"] = panels
    with st.expander(tr("live.settings"), expanded=rp.presenting):  # a lesson's step may list these
        rs.row("prompts", "group_size", "mu", columns=4)
        rs.row("lr", "temperature")
    advanced = parts.advanced_settings(rs, spec, running)  # mini-batches, lengths, entropy, KL in the reward


# the settings widgets (drawn disabled while a run advances); each algorithm's are added below
SETTINGS_KEYS = ["lv_algos", "lv_task", *rs.keys, *parts.ADVANCED_KEYS]
with rp.details:  # one expander per algorithm: its formula and its settings, from the registry
    raw_settings = parts.algorithm_settings(algorithms, running, SETTINGS_KEYS)
with rp.details:  # a note for each legal but unusual combination in an objective's settings
    for note in X.advice_texts(raw_settings, titles, advanced["kl_in_reward"], L):
        st.info(note, icon=":material/lightbulb:")


def _config() -> LiveConfig:
    """The LiveConfig the widgets describe; only settings that differ from the registry are passed."""
    return LiveConfig(
        **rs.config(),
        **advanced,
        algorithms=tuple(algorithms),
        seed=int(state.get("seed", 0)),
        device=state.get("device", "auto"),
        model_dir=state.get("model_dir"),
        settings=X.typed_settings(raw_settings, titles, L),
        task=task,
    )


# the parameter a library error names (the text before its first colon) -> the widget to change
FIELDS = X.live_fields(L)

# ---------------------------------------------------------------------------------------- notes
with rp.notes():
    st.markdown(tr("live.intro"))
    st.markdown(tr("live.tips"))
    st.markdown(tr("live.curves_caption"))
    st.markdown(tr("live.metric_notes"))
with rp.practitioners():
    from app_common import export_configs

    export_configs(
        lambda: {titles[a]: (a, None, None, _config().train_config(a)) for a in algorithms},
        key="lv_export",
        fields=FIELDS,
    )

# ---------------------------------------------------------------------------------------- controls
running = rp.controls(
    lambda: LiveRun(_config()),  # loads the model: the one call into rlviz
    fields=FIELDS,
    settings_keys=SETTINGS_KEYS,
)

# ---------------------------------------------------------------------------------------- predict
# asked before Run (below the figure: they never push it down); each answer is read from the finished
# run with the settings the widgets describe
try:
    asked = dataclasses.asdict(_config())
    questions = [p for p in PREDICTIONS["live"] if asked["algorithms"] and p.applies(asked)]
except ValueError:  # a setting that is not a number: said when Run is pressed
    questions = []
if questions:
    with rp.predictions:
        questions_header("teach.intro_run")
        finished: LiveRun | None = state.get("live_run")
        measured = None
        started = finished is not None and dataclasses.asdict(finished.live_config) == asked
        if started and finished.done:
            measured = live_result(finished)
        for col, prediction in zip(st.columns(len(questions), border=True), questions):
            with col:
                predict(prediction, asked, result=measured, labels=titles, started=started)


# ---------------------------------------------------------------------------------------- figure
def _arm_titles(run: LiveRun) -> dict[str, str]:
    return {name: titles.get(arm.objective, arm.objective) for name, arm in run.arms.items()}


def _changed(run: LiveRun) -> bool:
    return dataclasses.asdict(_config()) != dataclasses.asdict(run.live_config)


run: LiveRun | None = rp.run
arm_titles = _arm_titles(run) if run is not None else {}
run = rp.watch(
    lambda run: parts.curves_figure(run, panels, steps, metric_labels, _arm_titles(run) if run is not None else {}),
    names=arm_titles,
    chart_key="live-curves",
    changed=_changed,
    no_run=tr("live.no_run", n=len(algorithms), steps=steps if isinstance(steps, int) else D.steps),  # as set now
)
if run is None:
    stop()


# ---------------------------------------------------------------------------------------- reading
reading = run_reading(run.entropy_frame(), run.summary_frame())
read = X.reading_parts(reading, arm_titles, L)
heldout_prompts = len(TASKS[run.live_config.task].heldout_problems())  # the run's task's, not the picker's
apart = X.apart_text(run.summary_frame(), heldout_prompts, run.config.heldout_samples, L)
if apart:
    read.append(apart)
if read:
    rp.read(SENTENCE_SEPARATOR[L].join(read))
with rp.reading:
    st.caption(tr("live.smooth_caption", span=SMOOTH_SPAN, curves=tr("live.curves")))

entropy = run.entropy_frame()
max_step = max(run.progress.values())
if max_step == 0:
    stop()
if not entropy.empty:
    with rp.sections, st.expander(tr("live.entropy_header")):
        # what this run measured, read from its metrics; the reasons below hold for any run
        st.caption(tr("live.entropy_table_caption"))
        st.dataframe(X.entropy_table(entropy, arm_titles, L), hide_index=True)
        st.markdown(tr("live.entropy_why"))


with rp.sections:  # the ratio histogram, the tokens, the final table
    parts.run_views(run, arm_titles, max_step)

with rp.downloads:
    csv_download(run.metrics_frame(), "live-metrics", key="lv_dl_csv", label=tr("live.download_csv"))
    st.download_button(
        tr("live.download_json"),
        run.to_json(),
        file_name="rlviz-live-run.json",
        mime="application/json",
        on_click="ignore",
        key="lv_dl_json",
        icon=":material/download:",
    )
