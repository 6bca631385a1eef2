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
with ``lv_``. The settings' widgets, the curves and the run's tables are drawn by ``app_common.parts.live``;
the words and tables come from ``rlviz.experiments.live``.
"""

from __future__ import annotations

import dataclasses

import streamlit as st

from app_common import (
    chart,
    csv_download,
    ensure_shell,
    labels,
    lang,
    predict,
    run_size_input,
    stop,
    tr,
)
from app_common.parts import live as parts
from app_common.predictions import questions_header
from app_common.runpage import RunPage
from rlviz.core.objectives import ALGORITHMS
from rlviz.experiments import live as X
from rlviz.experiments.live import ALL_METRICS, DEFAULT_ALGORITHMS, PANELS, LiveConfig, LiveRun, run_reading
from rlviz.experiments.runner import SUMMARY_TAIL
from rlviz.i18n import SENTENCE_SEPARATOR
from rlviz.lm.tasks import TASKS
from rlviz.plots.live import SMOOTH_SPAN, ratio_histogram_figure
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
    steps = run_size_input(
        st, "steps", tr("live.steps"), 1, D.steps, key="lv_steps", bind="query-params", disabled=running, width=120
    )
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
        c1, c2, c3, c4 = st.columns(4)
        prompts = run_size_input(
            c1,
            "prompts",
            tr("live.prompts"),
            1,
            D.prompts_per_step,
            key="lv_prompts",
            help=tr("live.prompts_help"),
            bind="query-params",
            disabled=running,
        )
        group_size = run_size_input(
            c2,
            "group_size",
            tr("live.group_size"),
            2,
            D.group_size,
            key="lv_G",
            help=tr("live.group_size_help"),
            bind="query-params",
            disabled=running,
        )
        mu = c3.number_input(
            tr("live.mu"), 1, 16, D.mu, key="lv_mu", help=tr("live.mu_help"), bind="query-params", disabled=running
        )
        c1, c2 = st.columns(2)
        lr = c1.select_slider(
            tr("live.lr"),
            LR_CHOICES,
            value=D.lr,
            format_func="{:g}".format,
            key="lv_lr",
            help=tr("live.lr_help"),
            bind="query-params",
            disabled=running,
        )
        temperature = c2.slider(
            tr("live.temperature"),
            0.1,
            2.0,
            float(D.temperature),
            0.05,
            key="lv_temp",
            help=tr("live.temperature_help"),
            bind="query-params",
            disabled=running,
        )
    with st.expander(tr("live.advanced")):
        c1, c2, c3, c4 = st.columns(4)
        mini_batches = c1.number_input(
            tr("live.mini_batches"),
            1,
            64,
            D.mini_batches,
            key="lv_mb",
            help=tr("live.mini_batches_help"),
            bind="query-params",
            disabled=running,
        )
        max_new_tokens = c2.number_input(
            tr("live.max_new_tokens"), 2, 256, spec.max_new_tokens, key="lv_Lmax", bind="query-params", disabled=running
        )
        overlong_buffer = c3.number_input(
            tr("live.overlong_buffer"),
            0,
            256,
            spec.overlong_buffer_length,
            key="lv_Lcache",
            help=tr("live.overlong_buffer_help"),
            bind="query-params",
            disabled=running,
        )
        heldout = c4.number_input(
            tr("live.heldout"),
            0,
            64,
            D.heldout_samples,
            key="lv_heldout",
            help=tr("live.heldout_help", n=len(spec.heldout_problems())),
            bind="query-params",
            disabled=running,
        )
        c1, c2, c3, c4 = st.columns(4)
        penalty_factor = c3.number_input(
            tr("live.overlong_penalty"),
            0.0,
            10.0,
            float(D.overlong_penalty_factor),
            0.1,
            key="lv_Lpen",
            help=tr("live.overlong_penalty_help"),
            bind="query-params",
            disabled=running,
        )
        entropy_coef = c1.number_input(
            tr("live.entropy_coef"),
            0.0,
            1.0,
            float(D.entropy_coef),
            0.001,
            format="%.3f",
            key="lv_ent",
            help=tr("live.entropy_coef_help"),
            bind="query-params",
            disabled=running,
        )
        entropy_target = c4.number_input(  # 0 = off (a constant entropy bonus)
            tr("live.entropy_target"),
            0.0,
            10.0,
            0.0 if D.entropy_target is None else float(D.entropy_target),
            0.05,
            format="%.2f",
            key="lv_ent_tgt",
            help=tr(
                "live.entropy_target_help",
                delta=f"{D.entropy_coef_delta:g}",
                low=f"{D.entropy_coef_min:g}",
                high=f"{D.entropy_coef_max:g}",
            ),
            bind="query-params",
            disabled=running,
        )
        kl_in_reward = c2.checkbox(
            tr("live.kl_in_reward"),
            value=D.kl_in_reward,
            key="lv_kl_rew",
            help=tr("live.kl_in_reward_help"),
            bind="query-params",
            disabled=running,
        )


# the settings widgets (drawn disabled while a run advances); each algorithm's are added below
SETTINGS_KEYS = [
    "lv_algos",
    "lv_steps",
    "lv_task",
    "lv_prompts",
    "lv_G",
    "lv_mu",
    "lv_lr",
    "lv_temp",
    "lv_mb",
    "lv_Lmax",
]
SETTINGS_KEYS += ["lv_Lcache", "lv_heldout", "lv_Lpen", "lv_ent", "lv_ent_tgt", "lv_kl_rew"]
with rp.details:  # one expander per algorithm: its formula and its settings, from the registry
    raw_settings = parts.algorithm_settings(algorithms, running, SETTINGS_KEYS)
with rp.details:  # a note for each legal but unusual combination in an objective's settings
    for note in X.advice_texts(raw_settings, titles, bool(kl_in_reward), L):
        st.info(note, icon=":material/lightbulb:")


def _config() -> LiveConfig:
    """The LiveConfig the widgets describe; only settings that differ from the registry are passed."""
    return LiveConfig(
        algorithms=tuple(algorithms),
        steps=int(steps),
        prompts_per_step=int(prompts),
        group_size=int(group_size),
        temperature=float(temperature),
        lr=float(lr),
        mu=int(mu),
        mini_batches=int(mini_batches),
        max_new_tokens=int(max_new_tokens),
        overlong_buffer_length=int(overlong_buffer),
        overlong_penalty_factor=float(penalty_factor),
        seed=int(state.get("seed", 0)),
        device=state.get("device", "auto"),
        model_dir=state.get("model_dir"),
        settings=X.typed_settings(raw_settings, titles, L),
        heldout_samples=int(heldout),
        entropy_coef=float(entropy_coef),
        entropy_target=float(entropy_target) if entropy_target else None,
        kl_in_reward=bool(kl_in_reward),
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
        if finished is not None and finished.done and dataclasses.asdict(finished.live_config) == asked:
            measured = live_result(finished)
        for col, prediction in zip(st.columns(len(questions), border=True), questions):
            with col:
                predict(prediction, asked, result=measured, labels=titles)


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
    no_run=tr("live.no_run", n=len(DEFAULT_ALGORITHMS), steps=D.steps),
)
if run is None:
    stop()

arm_names = {f"name.{name}": title for name, title in arm_titles.items()}  # the figures' legend names
progress = run.progress

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
max_step = max(progress.values())
if max_step == 0:
    stop()
if not entropy.empty:
    with rp.sections, st.expander(tr("live.entropy_header")):
        # what this run measured, read from its metrics; the reasons below hold for any run
        st.caption(tr("live.entropy_table_caption"))
        st.dataframe(X.entropy_table(entropy, arm_titles, L), hide_index=True)
        st.markdown(tr("live.entropy_why"))


def _run_views() -> None:
    """The run's own views: the ratio histogram, the tokens, the final table."""
    # ---------------------------------------------------------------------------------------- ratios
    st.subheader(tr("live.ratio_header"))
    hist_step = parts.step_picker("lv_hist_step", max_step, max_step)
    left, right = st.columns([3, 1])
    with left:
        fig = ratio_histogram_figure(
            run.ratio_histogram(hist_step),
            labels("live", "ratio_axis", value_axis=tr("live.share"), **arm_names),
            value="fraction",
            by="arm",
        )
        chart(fig, "live-ratios")
    with right:
        st.latex(r"r_{i,t}=\frac{\pi_\theta(y_{i,t})}{\pi_{\theta_\text{old}}(y_{i,t})}")
        st.latex(r"s_i=\Big(\prod_t r_{i,t}\Big)^{1/|y_i|}")
    st.caption(tr("live.ratio_caption"))

    # ---------------------------------------------------------------------------------------- tokens
    st.subheader(tr("live.tokens_header"))
    token_step = parts.step_picker("lv_token_step", 1, max_step)
    shown = st.multiselect(
        tr("live.tokens_algos"),
        list(run.arms),
        default=list(run.arms),
        format_func=arm_titles.get,
        key="lv_token_algos",
        placeholder=tr("common.choose"),
    )
    st.caption(tr("live.tokens_caption"))
    views = {name: run.token_view(token_step, name) for name in shown if token_step <= progress[name]}
    WHEN = ["weight_first", "weight"]
    when = st.radio(  # one widget per language, as the panel picker (its browser-side value is its label)
        tr("live.tokens_when"),
        WHEN,
        index=WHEN.index(state.get("live_token_when", WHEN[0])),
        format_func={k: tr(f"live.tokens_{k}") for k in WHEN}.get,
        horizontal=True,
        key=f"lv_token_when_{L}",
    )
    state["live_token_when"] = when
    parts.token_figures(views, when, arm_titles, run.live_config.task)

    # ---------------------------------------------------------------------------------------- table
    st.subheader(tr("live.summary_header"))
    run_task = TASKS[run.live_config.task]
    parts.summary_table(run.summary_frame(), arm_titles, len(run_task.heldout_problems()))
    measured = run.config.heldout_samples > 0  # 0 skips the held-out evaluation: its columns stay —
    caption = "live.summary_caption" if measured else "live.summary_caption_no_heldout"
    st.caption(tr(caption, n=len(run_task.heldout_problems()), tail=SUMMARY_TAIL))


with rp.sections:
    _run_views()

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
