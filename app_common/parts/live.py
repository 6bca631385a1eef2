"""The live page's Streamlit-bound support: the widgets of the registry's settings and of the advanced
settings, the curves' figure, the run's own views (the ratio histogram, the tokens, the final table with
its column help) and their step picker."""

from __future__ import annotations

import math

import pandas as pd
import streamlit as st

from app_common.charts import chart
from app_common.runsettings import RunSettings
from app_common.text import formula, labels, lang, tr
from app_common.urlstate import seed_choice_from_url, write_choice_to_url
from rlviz.core.objectives import ALGORITHMS, MOE_ONLY_SETTINGS, TOKEN_STATES, TRAINER_SETTINGS
from rlviz.experiments import live as X
from rlviz.experiments.runner import SUMMARY_TAIL
from rlviz.i18n import LANGS
from rlviz.lm.tasks import TASKS, TaskSpec
from rlviz.plots import token_weight_figure
from rlviz.plots.live import SMOOTH_SPAN, live_metrics_figure, ratio_histogram_figure, token_view_frame

# the advanced settings' widget keys (drawn disabled while a run advances), besides the shared ones
ADVANCED_KEYS = ("lv_Lmax", "lv_Lcache", "lv_Lpen", "lv_ent", "lv_ent_tgt", "lv_kl_rew")


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


def advanced_settings(rs: RunSettings, spec: TaskSpec, running: bool) -> dict[str, object]:
    """The "advanced" expander: mini-batches and held-out samples (``rs``, the page's shared settings; the
    held-out help counts the chosen task's, ``spec``'s, held-out prompts), the response length limit and
    DAPO's overlong buffer and penalty (their defaults the task's own), the entropy bonus and its target,
    KL in the reward. Returns the ``LiveConfig`` fields it sets (``max_new_tokens``, ...), typed; an
    entropy target of 0 is ``None`` (a constant entropy bonus). Keys: :data:`ADVANCED_KEYS`."""
    D = X.LiveConfig()
    common = dict(bind="query-params", disabled=running)
    with st.expander(tr("live.advanced")):
        c1, c2, c3, c4 = st.columns(4)
        rs.draw("mini_batches", c1)
        max_new_tokens = c2.number_input(
            tr("live.max_new_tokens"), 2, 256, spec.max_new_tokens, key="lv_Lmax", **common
        )
        overlong_buffer = c3.number_input(
            tr("live.overlong_buffer"),
            0,
            256,
            spec.overlong_buffer_length,
            key="lv_Lcache",
            help=tr("live.overlong_buffer_help"),
            **common,
        )
        rs.draw("heldout", c4, n=len(spec.heldout_problems()))
        c1, c2, c3, c4 = st.columns(4)
        penalty_factor = c3.number_input(
            tr("live.overlong_penalty"),
            0.0,
            10.0,
            float(D.overlong_penalty_factor),
            0.1,
            key="lv_Lpen",
            help=tr("live.overlong_penalty_help"),
            **common,
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
            **common,
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
            **common,
        )
        kl_in_reward = c2.checkbox(
            tr("live.kl_in_reward"), value=D.kl_in_reward, key="lv_kl_rew", help=tr("live.kl_in_reward_help"), **common
        )
    return {
        "max_new_tokens": int(max_new_tokens),
        "overlong_buffer_length": int(overlong_buffer),
        "overlong_penalty_factor": float(penalty_factor),
        "entropy_coef": float(entropy_coef),
        "entropy_target": float(entropy_target) if entropy_target else None,
        "kl_in_reward": bool(kl_in_reward),
    }


def run_views(run: X.LiveRun, arm_titles: dict[str, str], max_step: int) -> None:
    """The run's own views under its figure: the importance ratios' histogram at a chosen step, each arm's
    tokens with their gradient weights, and the final table (``arm_titles``: arm -> its title;
    ``max_step``: the steps every arm has run)."""
    L, state, progress = lang(), st.session_state, run.progress
    arm_names = {f"name.{name}": title for name, title in arm_titles.items()}  # the figures' legend names
    # ---------------------------------------------------------------------------------------- ratios
    st.subheader(tr("live.ratio_header"))
    hist_step = step_picker("lv_hist_step", max_step, max_step)
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
    token_step = step_picker("lv_token_step", 1, max_step)
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
    token_figures(views, when, arm_titles, run.live_config.task)

    # ---------------------------------------------------------------------------------------- table
    st.subheader(tr("live.summary_header"))
    run_task = TASKS[run.live_config.task]
    summary_table(run.summary_frame(), arm_titles, len(run_task.heldout_problems()))
    measured = run.config.heldout_samples > 0  # 0 skips the held-out evaluation: its columns stay —
    caption = "live.summary_caption" if measured else "live.summary_caption_no_heldout"
    st.caption(tr(caption, n=len(run_task.heldout_problems()), tail=SUMMARY_TAIL))
