"""The critic and GAE (issue 41): why PPO needs a value model, what GAE makes of it, what GRPO's group mean
does instead, and what the critic costs.

Widgets -> ``rlviz.experiments.critic`` -> ``rlviz.plots.critic`` -> ``app_common.chart``. The page opens
with its title, lede, one row of controls and the main figure: one group of the shipped model's responses
with the critic's value per token, GAE's advantage per token at the sliders' γ and λ, and GRPO's one
advantage per response (``app_common.parts.critic.group``: sampled once per settings and cached; a critic
trained for a few PPO steps shows its progress while it trains). Its two questions hold back the GAE panel
and the λ figure until the learner commits (``answers_held``). The live run (a ``CriticRun``: PPO with its
critic beside GRPO) is a later section on the run-page skeleton (``app_common.runpage.RunPage``), as on the
MoE page; its two questions are asked before Run, drawn above the run's reading, and judged on the finished
run; a question not committed when its run starts is closed (its curves show the answer already) and shows its
computed answer when the run has finished (``predict(started=...)``). Its sections: the critic's
error by token position, by response length beside GRPO's group baseline (``parts.length_chart_figure``), and
its cost. Widget keys start with ``cr_``; the task radios carry the task registry's keys in the URL
(``seed_choice_from_url``). Every number in the text is read from a result; the words are
``rlviz.locale.critic``'s.
"""

from __future__ import annotations

import dataclasses

import streamlit as st
import torch

from app_common import (
    chart,
    csv_download,
    ensure_shell,
    export_configs,
    formula,
    lang,
    predict,
    seed_choice_from_url,
    show_bad_input,
    stop,
    tr,
    write_choice_to_url,
)
from app_common.parts import critic as parts
from app_common.predictions import answers_held, held_note
from app_common.runpage import RunPage
from app_common.runsettings import Field, RunSettings
from app_common.template import notes, page_top
from rlviz.experiments import critic as X
from rlviz.lm.tasks import DEFAULT_TASK, TASKS
from rlviz.plots.live import SMOOTH_SPAN
from rlviz.teach.predict import PREDICTIONS

ensure_shell()
L = lang()
state = st.session_state
seed = int(state.get("seed", 0))
device = state.get("device", "auto")
D = X.CriticLiveConfig()
LR_CHOICES = (1e-5, 3e-5, 1e-4, 3e-4, 1e-3)
VALUE_LR_CHOICES = (1e-4, 3e-4, 1e-3, 3e-3, 1e-2)
TASK_NAMES = X.task_names(L)
FIELDS = parts.fields()
GROUP_QUESTIONS = [p for p in PREDICTIONS["critic"] if not p.needs_result]
LIVE_QUESTIONS = [p for p in PREDICTIONS["critic"] if p.needs_result]


page_top("critic")  # title, path marker, lede; the group's controls and figure follow at once

# ---------------------------------------------------------------------------------------- 1. one group
controls = st.container(horizontal=True, vertical_alignment="bottom", key="cr_group_settings")
with controls:
    critic_steps = st.select_slider(
        tr("critic.critic"),
        X.CRITIC_STEPS,
        value=X.CRITIC_STEPS[0],
        key="cr_steps",
        help=tr("critic.critic_help", prompts=X.CRITIC_PROMPTS),
        bind="query-params",
        width=160,
    )
    gamma = st.slider(
        tr("critic.gamma"), 0.5, 1.0, X.DEFAULT_GAMMA, 0.01, key="cr_gamma", help=tr("critic.gamma_help"),
        bind="query-params", width=135,
    )  # fmt: skip
    lam = st.slider(
        tr("critic.lam"), 0.0, 1.0, X.DEFAULT_LAM, 0.05, key="cr_lam", help=tr("critic.lam_help"),
        bind="query-params", width=135,
    )  # fmt: skip
    with st.popover(tr("critic.group"), icon=":material/tune:"):  # what changes the group itself
        seed_choice_from_url("cr_task", list(TASKS), DEFAULT_TASK)
        task = st.radio(
            tr("critic.task"), list(TASKS), format_func=TASK_NAMES.get, key="cr_task", help=tr("critic.task_help")
        )
        write_choice_to_url("cr_task", DEFAULT_TASK)
        group_size = st.number_input(
            tr("critic.group_size"), 2, 16, 8, key="cr_G", help=tr("critic.group_size_help"), bind="query-params"
        )
        whiten = st.checkbox(
            tr("critic.whiten"), False, key="cr_whiten", help=tr("critic.whiten_help"), bind="query-params"
        )

key = (task, int(group_size), int(critic_steps), seed, device)
group = None
try:
    group = parts.group(*key)
    frame, grpo = X.gae_frame(group, gamma, lam, whiten), X.grpo_frame(group)
except ValueError as exc:  # a bad setting (from the URL, or the library's own check): named, next to the row
    show_bad_input(exc, FIELDS)


def _group_notes() -> None:
    """The explanations, collapsed: the critic, GAE and its formula, GRPO, the critic's cost and noise."""
    with notes(key="cr_notes"):
        st.markdown(tr("critic.intro"), unsafe_allow_html=True)
        formula(
            r"\delta_t = r_t + \gamma V(s_{t+1}) - V(s_t),\quad "
            r"A_t = \delta_t + \gamma\lambda A_{t+1} = \sum_{k\ge 0} (\gamma\lambda)^k \delta_{t+k},\quad "
            r"\lambda = 0:\ A_t = \delta_t,\qquad \lambda = 1:\ A_t = \sum_{k\ge 0} \gamma^k r_{t+k} - V(s_t)",
            small=True,
        )
        st.caption(tr("critic.formula_caption"))


if group is None:
    _group_notes()
else:
    asked = X.group_state(group, gamma)  # the questions' state: the group's numbers and γ (not λ: they fix it)
    questions = [p for p in GROUP_QUESTIONS if p.applies(asked)]
    held = answers_held(questions, asked)  # the GAE panel and the λ figure answer them: held until the commit
    chart(parts.group_spec(group, float(gamma), float(lam), bool(whiten), held, L), "critic-group")
    st.caption(parts.group_caption(group, gamma, lam, whiten))
    row = X.asked_row(group) + 1
    if not held:
        st.markdown(parts.group_reading(frame, grpo, row, lam))

    # ------------------------------------------------------------------ predict, then check
    if questions:
        st.markdown(f"#### {tr('teach.header')}")
        st.caption(tr("teach.intro"))
        for col, prediction in zip(st.columns(len(questions), border=True), questions):
            with col:
                predict(prediction, asked)

    # ------------------------------------------------------------------ the ends of the λ slider
    st.markdown(f"#### {tr('critic.ends_header')}")
    if held:
        held_note()
    else:
        responses = list(range(1, len(group.rewards) + 1))
        shown = st.selectbox(
            tr("critic.response"),
            responses,
            index=row - 1,
            format_func=lambda i: tr("critic.row", i=i, r=f"{group.rewards[i - 1]:g}"),
            key="cr_row",
            width=200,
        )
        chart(parts.lambda_spec(group, float(gamma), float(lam), int(shown), L), "critic-lambda")
        st.caption(tr("critic.ends_caption"), unsafe_allow_html=True)
    _group_notes()
    if not held:
        csv_download(frame.merge(grpo[["response", "advantage"]].rename(columns={"advantage": "grpo_advantage"})),
                     "critic-group", key="cr_dl_group", label=tr("critic.dl_group"))  # fmt: skip

# ---------------------------------------------------------------------------------------- 2. live
st.subheader(tr("critic.live_header"))
st.caption(tr("critic.live_lede"))
rp = RunPage(
    "critic",
    run_key="critic_run",
    flag_key="critic_running",
    buttons=("cr_run", "cr_stop", "cr_continue", "cr_reset"),
    starting=lambda: (parts.arm_names(), int(state.get("cr_lsteps", D.steps))),
)
running = rp.running  # True from the Run click's own script run: widgets disabled
# the run's shared settings (app_common.runsettings): their keys, labels and defaults
rs = RunSettings(
    "critic",
    "cr_",
    D,
    disabled=running,
    steps=Field("lsteps", width=120),
    lr=Field("llr", width=220, choices=LR_CHOICES),
    prompts=Field(),
    group_size=Field(),
)
with rp.settings:  # one row: the task, the steps, the policy's learning rate
    seed_choice_from_url("cr_ltask", list(TASKS), D.task)
    live_task = st.radio(
        tr("critic.task"),
        list(TASKS),
        format_func=TASK_NAMES.get,
        horizontal=True,
        key="cr_ltask",
        disabled=running,
        width="content",
    )
    write_choice_to_url("cr_ltask", D.task)
    steps, _ = rs.inline("steps", "lr")
with rp.details, st.expander(tr("critic.live_more"), expanded=rp.presenting):
    c1, c2, c3, c4, c5 = st.columns(5)
    rs.row("prompts", "group_size", columns=(c1, c2))
    value_lr = c3.select_slider(
        tr("critic.value_lr"), VALUE_LR_CHOICES, value=D.value_lr, format_func="{:g}".format, key="cr_vlr",
        help=tr("critic.value_lr_help"), bind="query-params", disabled=running,
    )  # fmt: skip
    live_gamma = c4.slider(
        tr("critic.gamma"), 0.5, 1.0, D.gamma, 0.01, key="cr_lgamma", bind="query-params", disabled=running
    )
    live_lam = c5.slider(tr("critic.lam"), 0.0, 1.0, D.lam, 0.05, key="cr_llam", bind="query-params", disabled=running)
SETTINGS_KEYS = ("cr_ltask", *rs.keys, "cr_vlr", "cr_lgamma", "cr_llam")


def _config() -> X.CriticLiveConfig:
    return X.CriticLiveConfig(
        **rs.config(),
        task=live_task,
        value_lr=float(value_lr),
        gamma=float(live_gamma),
        lam=float(live_lam),
        seed=seed,
        device=device,
    )


with rp.practitioners():
    st.markdown(tr("critic.frameworks"))
    export_configs(lambda: X.exported_arms(_config(), L), key="cr_export", fields=FIELDS)

rp.controls(lambda: X.make_live_run(_config()), fields=FIELDS, settings_keys=SETTINGS_KEYS)
run = rp.watch(
    lambda run: parts.live_curves(run, steps),
    names=parts.arm_names(),
    chart_key="critic-live",
    changed=lambda run: dataclasses.asdict(_config()) != dataclasses.asdict(run.critic_config),
    no_run=tr("critic.no_run"),
)

# predict, then check: asked at the widgets' run (its settings do not change while it goes), judged on the
# finished run with those settings
live_asked = X.live_state(run.critic_config if run is not None else _config())
measured = X.live_result(run) if run is not None and run.done else None
with rp.reading:  # the questions first, above every result that answers them (issue 39)
    st.markdown(f"#### {tr('teach.header')}")
    for col, prediction in zip(st.columns(len(LIVE_QUESTIONS), border=True), LIVE_QUESTIONS):
        with col:
            predict(prediction, live_asked, result=measured, started=run is not None)
if run is None:
    stop()

with rp.reading:
    if run.progress.get("ppo", 0) > 0:
        st.markdown(parts.live_reading(run))
    st.caption(tr("critic.live_caption", span=SMOOTH_SPAN, threads=torch.get_num_threads()), unsafe_allow_html=True)
with rp.sections:
    st.markdown(f"#### {tr('critic.position_header')}")
    chart(parts.position_chart_figure(run), "critic-position")
    st.caption(tr("critic.position_caption"), unsafe_allow_html=True)
    st.markdown(f"#### {tr('critic.length_header')}")
    chart(parts.length_chart_figure(run), "critic-length")
    st.caption(parts.length_caption(run), unsafe_allow_html=True)
    if reading := parts.length_reading(run):
        st.markdown(reading)
    st.markdown(f"#### {tr('critic.cost_header')}")
    st.table(parts.cost_table(run), hide_index=True, border="horizontal")
    st.caption(tr("critic.cost_caption"))
with rp.downloads:
    csv_download(X.live_frame(run), "critic-live", key="cr_dl_live", label=tr("critic.dl_live"))
    csv_download(X.value_frame(run), "critic-values", key="cr_dl_values", label=tr("critic.dl_values"))
    csv_download(X.response_errors(X.value_frame(run)), "critic-responses", key="cr_dl_responses",
                 label=tr("critic.dl_responses"))  # fmt: skip
