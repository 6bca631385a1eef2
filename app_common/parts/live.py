"""The live page's Streamlit-bound support: the widgets of the registry's settings, the curves' figure, the
step picker of the run's views, the token figures and the final table with its column help."""

from __future__ import annotations

import math

import pandas as pd
import streamlit as st

from app_common.charts import chart
from app_common.text import formula, labels, lang, tr
from app_common.urlstate import seed_choice_from_url, write_choice_to_url
from rlviz.core.objectives import ALGORITHMS, MOE_ONLY_SETTINGS, TOKEN_STATES, TRAINER_SETTINGS
from rlviz.experiments import live as X
from rlviz.i18n import LANGS
from rlviz.lm.tasks import TASKS
from rlviz.plots import token_weight_figure
from rlviz.plots.live import SMOOTH_SPAN, live_metrics_figure, token_view_frame


def setting_widget(algo: str, s, running: bool, settings_keys: list[str]) -> object:
    """One widget for one registry setting ``s`` of ``algo``, defaulting to the registry value; returns its
    value (numbers as typed text: parsed and checked when the run starts, ``X.parse_setting``). The kind of
    widget follows the setting's default and choices, never the algorithm's name. Its key is appended to
    ``settings_keys`` (the widgets drawn disabled while a run advances)."""
    L = lang()
    key = f"lv_{algo}.{s.name}"
    settings_keys.append(key)
    help_ = tr(
        "live.setting_help",
        meaning=s.help.get(L, s.name),
        default=s.default,
        source=s.source,
        trl=s.trl or tr("word.none"),
        verl=s.verl or tr("word.none"),
    )
    common = dict(key=key, help=f"`{s.name}` · {help_}", bind="query-params", disabled=running)
    label = s.help.get(L, s.name)  # the setting's meaning in the session's language; its name in the help
    if isinstance(s.default, bool):
        return st.checkbox(label, value=s.default, **common)
    options = list(X.setting_choices().get(s.name, ()))
    if not options and s.choices and all(isinstance(c, str) for c in s.choices):
        options = list(s.choices)
    if options:
        if s.name == "advantage" and "lam" not in ALGORITHMS[algo].train_defaults:
            options = ["group"]  # GAE needs a value model: only an objective with a GAE lambda has one
        return st.selectbox(label, options, index=options.index(s.default), **common)
    placeholder = tr("live.empty_means_none") if s.default is None else None
    return st.text_input(label, value="" if s.default is None else f"{s.default:g}", placeholder=placeholder, **common)


def curves_figure(run: X.LiveRun | None, panels: list[str], steps: int, metric_labels: dict, arm_titles: dict):
    """The curves' figure: the chosen ``panels``, each arm's per-step points under their moving average, the
    x axes spanning the run's steps from the start (before a run: the widgets' ``steps``, empty panels)."""
    if run is None:
        frame = pd.DataFrame(columns=["arm", "step", *X.ALL_METRICS])
        shown, total, names = list(panels), int(steps), {}
    else:
        frame = run.metrics_frame()
        # a panel no arm measures (e.g. SAPO's gate weight without SAPO) is left out
        shown = [m for m in panels if frame.empty or frame[m].notna().any()]
        total, names = run.config.steps, {f"name.{n}": t for n, t in arm_titles.items()}
    words = {**metric_labels, **names, "empty": tr("live.empty_figure" if run is None else "live.first_step")}
    return live_metrics_figure(frame, shown, words, cols=3, panel_height=190, by="arm", smooth=SMOOTH_SPAN, steps=total)


def task_picker(default: str, running: bool) -> str:
    """The task picker of the settings row (``lv_task``, the registry ``rlviz.lm.tasks.TASKS``; its help
    describes every task) and, after it, the chosen task's one-line ``TaskSpec.summary`` as a caption;
    returns the chosen task's key. The URL carries the registry key, the same in every language (a bound
    selectbox would write the label); a link carrying a label is taken too."""
    L = lang()
    seed_choice_from_url(
        "lv_task", list(TASKS), default, aliases={s.label[x]: n for n, s in TASKS.items() for x in s.label}
    )
    task = st.selectbox(
        tr("live.task"),
        list(TASKS),
        format_func=lambda name: TASKS[name].label[L],
        key="lv_task",
        help=tr("live.task_help", tasks=" ".join(f"**{s.label[L]}**: {s.description[L]}" for s in TASKS.values())),
        disabled=running,
        on_change=follow_task,  # the length limit and overlong buffer follow the task's own
        width=200,
    )
    write_choice_to_url("lv_task", default)
    st.caption(TASKS[task].summary[L], width="stretch")
    return task


def follow_task() -> None:
    """The task picker's callback (``lv_task``): the response length limit and the overlong buffer take the
    new task's own (``TaskSpec.max_new_tokens``, ``overlong_buffer_length``), and the curves' panels add
    the metrics the task asks for (``TaskSpec.panels``); every other setting stays as the reader left it."""
    state = st.session_state
    spec = TASKS[state["lv_task"]]
    state["lv_Lmax"], state["lv_Lcache"] = spec.max_new_tokens, spec.overlong_buffer_length
    panels = list(state.get("live_panels", X.PANELS))
    added = [m for m in spec.panels if m not in panels]
    if added:
        state["live_panels"] = panels + added
        for lang_ in LANGS:  # the picker is one widget per language: it takes its default again
            state.pop(f"lv_panels_{lang_}", None)


def step_picker(key: str, default: int, max_step: int) -> int:
    """The step a view of the run shows: a slider over the steps run (none for a one-step run)."""
    if max_step == 1:
        return 1
    return st.slider(tr("live.step_select"), 1, max_step, min(default, max_step), key=key)


def summary_table(summary: pd.DataFrame, arm_titles: dict[str, str], heldout_size: int) -> None:
    """The run's final table (``X.summary_table``), its columns named and explained in the session's language
    (``heldout_size``: the run's task's held-out prompts), sized to fit a 1400 px window without scrolling."""
    columns = X.summary_table(summary, arm_titles)
    st.dataframe(
        pd.DataFrame({tr(f"sum.{k}"): v for k, v in columns.items()}),
        hide_index=True,
        column_config={
            tr(f"sum.{k}"): st.column_config.TextColumn(
                tr(f"sum.{k}"), help=tr(f"sum.{k}_help", n=heldout_size), width=X.SUMMARY_WIDTHS[k]
            )
            for k in columns
        },
    )


def algorithm_settings(algorithms: list[str], running: bool, settings_keys: list[str]) -> dict[str, dict[str, tuple]]:
    """One expander per chosen algorithm with its formula and a widget per setting (its loss and train
    settings, and the trainer's settings every objective accepts less those the dense model cannot use);
    returns algorithm -> setting name -> ``(Setting, widget value)`` (``X.typed_settings`` reads it)."""
    raw: dict[str, dict[str, tuple]] = {}
    st.caption(tr("live.algo_settings_caption"))
    for algo in algorithms:
        spec = ALGORITHMS[algo]
        with st.expander(tr("live.algo_settings", title=spec.title)):
            formula(spec.latex)
            cols = st.columns(3)
            raw[algo] = {}
            shared = tuple(s for s in TRAINER_SETTINGS if s.name not in MOE_ONLY_SETTINGS)
            for k, s in enumerate(spec.loss_settings + spec.train_settings + shared):
                with cols[k % 3]:
                    raw[algo][s.name] = (s, setting_widget(algo, s, running, settings_keys))
    return raw


def token_figures(views: dict[str, dict | None], when: str, arm_titles: dict[str, str], task: str) -> None:
    """Each arm's token view (``SideBySideRun.token_view``, ``None`` for an arm that made no update): its
    prompt line (the reference answer as the run's ``task`` names it, ``X.prompt_line``) and the per-token
    weights (``when``: before or after the first update), on one colour scale."""
    frames = {name: token_view_frame(view, when) for name, view in views.items()}
    weights = [abs(w) for f in frames.values() for w in f["weight"] if math.isfinite(w)]
    zmax = max(weights) if weights else None
    for name, view in views.items():
        if view is None:
            st.info(tr("live.no_update", title=arm_titles[name]))
            continue
        st.markdown(X.prompt_line(view, task, arm_titles[name], lang()))
        token_labels = labels(
            "word", "token", "grad_weight", "advantage", "position", "push", **X.token_row_labels(view, lang())
        )
        token_labels |= labels("live", *(f"state.{s}" for s in TOKEN_STATES))  # the hover's token state
        chart(token_weight_figure(frames[name], token_labels, zmax=zmax), f"live-tokens-{name}")
