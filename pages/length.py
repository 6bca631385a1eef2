"""Length penalties: DAPO's soft overlong punishment and overlong filtering beside the Kimi k1.5 and
cosine length rewards, as curves and on real rollouts of the tiny LM.

Widgets -> ``rlviz.experiments.length`` (curves, one cached rollout sample, its analysis and sweep)
-> ``rlviz.plots.length`` figures. Moving L_max, L_cache or the factor re-scores the cached rollouts.
An L_cache above L_max is held at L_max (with a note), so a shared link never empties the page.
The analysis and the sweep are cached by their inputs (the sweep does not read the Kimi or cosine
values). The page's body is one fragment (its widgets rerun it, not the sidebar and the page list),
and the group picker, a fragment inside it, reruns only its own section.

The page template (CONTRIBUTING.md): title and lede, the three sliders of DAPO's penalty, the curves;
under them the other penalties' choices, the questions, the explanation ("How to read this") and the
papers, frameworks' keys and export ("For practitioners"); then the rollouts' sections, and last the
length claims measured on make_sum (``app_common.parts.length.claims_section``: the shipped record of
``benchmarks/length_claims.py``, its own question, three figures and a reading computed from it). While a
question waits for the learner (``answers_held``) nothing states its answer: the curves' reading, the
group's table and the filtering text's penalty are held back. The caches and cached figures are in
``app_common.parts.length``; the sentences and tables are built by ``rlviz.experiments.length``.
A reader who arrives from another page gets the page down to its questions in one run and the rest
(the rollouts, sampled on a first visit) in the run that follows (``app_common.template.first_screen_only``).
"""

from __future__ import annotations

import streamlit as st

from app_common import (
    chart,
    csv_download,
    ensure_shell,
    export_config,
    formula,
    fragment,
    labels,
    lang,
    predict,
    show_bad_input,
    stop,
    tr,
)
from app_common.parts import length as parts
from app_common.predictions import answers_held, held_note
from app_common.template import draw_rest_later, first_screen_only, notes, page_top, practitioners
from rlviz.experiments import length as X
from rlviz.experiments.length import SAMPLE_LIMIT, CosineParams, ShapingSettings
from rlviz.teach.predict import PREDICTIONS, state_from_settings

ensure_shell()
L = lang()
state = st.session_state
D = ShapingSettings()
C = CosineParams()
OTHERS = {"kimi": "Kimi k1.5", "cosine": "Cosine (Yeo et al.)"}  # language-neutral labels


@fragment
def page() -> None:
    """The whole page below the sidebar: every widget of it reruns this, not the sidebar, the
    navigation and the URL check (a full rerun: about a sixth of a slider's rerun on the server)."""
    # the page's top in this fragment: a presenter's question is drawn under the lede by ``predict``
    # below, which a rerun of this fragment alone may only do inside the fragment
    page_top("length")
    # library parameter -> the widget (or server option) that sets it, for error messages
    FIELDS = X.fields(L)

    # ---------------------------------------------------------------------------------------- settings
    c1, c2, c3 = st.columns(3)
    lmax = c1.slider(
        tr("length.lmax"),
        1,
        SAMPLE_LIMIT,
        D.max_length,
        key="l_max",
        help=tr("length.lmax_help", limit=SAMPLE_LIMIT),
        bind="query-params",
    )
    lcache = c2.slider(
        tr("length.lcache"),
        0,
        SAMPLE_LIMIT,
        D.buffer_length,
        key="l_cache",
        help=tr("length.lcache_help"),
        bind="query-params",
    )
    factor = c3.slider(
        tr("length.factor"),
        0.0,
        3.0,
        float(D.penalty_factor),
        0.1,
        key="l_pen",
        help=tr("length.factor_help"),
        bind="query-params",
    )
    lmax, lcache_set = int(lmax), int(lcache)
    # the buffer cannot be longer than the maximum length: hold it at L_max (the slider keeps its value)
    lcache = min(lcache_set, lmax)
    if lcache_set > lmax:  # next to the sliders it is about
        st.warning(tr("length.lcache_held", lcache=lcache_set, lmax=lmax), icon=":material/info:")
    figure = st.container()  # the main figure, right under the sliders; the choices below it
    others = st.multiselect(
        tr("length.others"),
        list(OTHERS),
        default=list(OTHERS),
        format_func=OTHERS.get,
        key="l_other",
        help=tr("length.others_help"),
        bind="query-params",
        placeholder=tr("common.choose"),
    )
    with st.expander(tr("length.other_params")):
        k1, k2, k3, k4, k5, k6 = st.columns(6)
        kimi_weight = k1.number_input(
            tr("length.kimi_weight"),
            0.0,
            10.0,
            float(D.kimi_weight),
            0.1,
            key="l_kw",
            help=tr("length.kimi_weight_help"),
            bind="query-params",
        )
        cos_help = tr("length.cos_help")
        cos = [
            col.number_input(
                tr(f"length.{name}"), -20.0, 20.0, float(default), 0.5, key=key, help=cos_help, bind="query-params"
            )
            for col, name, key, default in (
                (k2, "cos_r0c", "l_c0", C.r0_correct),
                (k3, "cos_rlc", "l_cl", C.rl_correct),
                (k4, "cos_r0w", "l_w0", C.r0_wrong),
                (k5, "cos_rlw", "l_wl", C.rl_wrong),
                (k6, "cos_exceed", "l_ex", C.exceed_penalty),
            )
        ]

    factor = float(factor)
    settings = ShapingSettings(lmax, lcache, factor, float(kimi_weight), CosineParams(*map(float, cos)))
    try:
        curves, kimi = parts.curves(settings)
    except ValueError as exc:
        with figure:  # in the figure's place, under the sliders it names
            show_bad_input(exc, FIELDS)
        stop()
    shaping = state_from_settings("length", state)
    # the sliders' questions (the measured section at the page's foot asks its own at the record's state);
    # before the commit nothing in view states the answers: the curves' reading, the group's table
    asked = [p for p in PREDICTIONS["length"] if p.applies(shaping)]
    held = answers_held(asked, shaping)

    # ---------------------------------------------------------------------------------------- curves
    curve_labels = labels(
        "length",
        "panel_dapo",
        "panel_kimi",
        "panel_cosine",
        "penalty",
        "right",
        "wrong",
        "length",
        "reward",
        "hover_zero",
        "hover_ramp",
        "hover_full",
    )
    with figure:  # the panels at full width (no value labels: the answers are read by hovering)
        chart(parts.curves_figure(settings, tuple(others), L, tuple(curve_labels.items())), "length-curves")

    # predict, then check: the reading of the curves is held back until the learner commits
    with st.expander(tr("teach.header"), expanded=True):
        st.caption(tr("teach.intro"))
        for col, prediction in zip(st.columns(len(asked), border=True), asked):
            with col:
                predict(prediction, shaping)
    if first_screen_only():  # arrived from another page: the rest of the page comes in a second run
        return

    with notes():  # the page's explanation: each penalty's formula above its reading, at full width
        st.markdown(tr("length.intro"))
        st.markdown(f"**{tr('length.curves_header')}**")
        formula(
            r"R_\text{length}(L)=-f\cdot\operatorname{clip}(x,\ 0,\ 1),\quad "
            r"x=\frac{L-(L_\text{max}-L_\text{cache})}{L_\text{cache}}"
        )
        if held:
            held_note()
        else:
            st.markdown(X.curves_text(settings, L))
        for name in others:
            if name == "kimi":
                formula(
                    r"\lambda_i=0.5-\frac{|y_i|-\min_j|y_j|}{\max_j|y_j|-\min_j|y_j|},\quad "
                    r"R_i=R^\text{task}_i+w\cdot\begin{cases}\lambda_i & c_i=1\\ \min(0,\lambda_i) & c_i=0\end{cases}",
                    small=True,
                )
                st.markdown(tr("length.kimi_text"))
            else:
                formula(
                    r"\operatorname{CosFn}(t,r_0,r_L)\\=r_L+\tfrac12(r_0-r_L)"
                    r"\Big(1+\cos\frac{\pi t}{L_\text{max}}\Big),\quad "
                    r"c=1:\ R=\operatorname{CosFn}(t,r_0^c,r_L^c),\quad "
                    r"c=0:\ R=\operatorname{CosFn}(t,r_0^w,r_L^w),\quad "
                    r"t\ge L_\text{max}:\ R=r_e",
                    small=True,
                )
                st.markdown(tr("length.cosine_text"))
    with practitioners():  # the papers, the frameworks' names for these settings, the export
        st.markdown(tr("length.dapo_source"))
        st.markdown(tr("length.papers"))
        export_config(
            "dapo",
            train_overrides={"overlong_shaping": True},
            train_config={
                "max_new_tokens": lmax,
                "overlong_buffer_length": lcache,
                "overlong_penalty_factor": factor,
            },
            key="l_export",
        )
    csv_download(curves, "length-curves", key="l_csv_curves")

    # ---------------------------------------------------------------------------------------- rollouts
    st.subheader(tr("length.rollouts_header"))
    with st.expander(tr("length.rollout_settings")):  # what the sections below sample; not the curves above
        st.caption(tr("length.rollout_help"))
        r1, r2, r3 = st.columns(3)
        n_prompts = r1.number_input(tr("length.n_prompts"), 2, 48, 32, key="l_n", bind="query-params")
        group_size = r2.number_input(tr("length.group_size"), 2, 16, 8, key="l_g", bind="query-params")
        temperature = r3.slider(tr("length.temperature"), 0.3, 2.0, 1.0, 0.05, key="l_temp", bind="query-params")
    seed, device, model_dir = int(state.get("seed", 0)), state.get("device", "auto"), state.get("model_dir")
    try:
        sample = (seed, int(n_prompts), int(group_size), SAMPLE_LIMIT, float(temperature), model_dir, device)
        # the analysis samples the rollouts on its first call (cached: a slider reuses them)
        with st.spinner(tr("length.sampling", n=int(n_prompts), g=int(group_size))):
            result = parts.analysis(sample, settings)
            sweep_frame = parts.sweep(sample, lmax, lcache, factor)
    except ValueError as exc:
        show_bad_input(exc, FIELDS)
        stop()
    resp, summary = result.responses, result.summary
    schemes = result.schemes.set_index("scheme")

    st.markdown(X.rollouts_text(summary, settings, sample, L))  # the penalty's effect only where there is one
    m1, m2, m3, m4 = st.columns(4)
    m1.metric(
        tr("length.metric_reward"),
        f"{summary['mean_reward_task']:.3f} → {summary['mean_reward_dapo']:.3f}",
        delta=f"{summary['mean_reward_dapo'] - summary['mean_reward_task']:+.3f}",
    )
    m2.metric(tr("length.metric_truncated"), f"{summary['truncated_share']:.1%}")
    m3.metric(tr("length.metric_penalised"), f"{summary['penalised_share']:.1%}")
    m4.metric(
        tr("length.metric_signal"),
        f"{schemes.loc['task', 'signal_groups']:.0%} → {schemes.loc['dapo', 'signal_groups']:.0%}",
        help=tr("length.metric_signal_help"),
    )
    hist_labels = labels(
        "length",
        "right",
        "wrong",
        "truncated",
        "penalty",
        "length",
        "count",
        "penalty_axis",
        "hover_count",
        sampled=tr("length.sampled", limit=SAMPLE_LIMIT),
    )
    chart(parts.histogram_figure(sample, settings, L, tuple(hist_labels.items()), resp, curves), "length-histogram")
    csv_download(resp, "length-rollouts", key="l_csv_rollouts")

    st.markdown(f"**{tr('length.schemes_header')}**")
    st.caption(tr("length.schemes_text"))
    shown = ["task", "dapo", *others]
    table = X.schemes_table(schemes, shown, L)
    st.dataframe(
        table,
        hide_index=True,
        column_config={
            tr("length.col_mean_reward"): st.column_config.NumberColumn(format="%.3f"),
            tr("length.col_signal"): st.column_config.NumberColumn(format="%.0f%%"),
            tr("length.col_corr"): st.column_config.NumberColumn(format="%.2f"),
        },
    )

    # ---------------------------------------------------------------------------------------- one group
    st.subheader(tr("length.group_header"))

    parts.group_section(result, sample, settings, shown, int(group_size), held)
    parts.filter_section(sample, settings, summary, resp, held)
    parts.sweep_section(sample, settings, sweep_frame)
    st.info(tr("length.bias_note"), icon=":material/balance:")
    st.page_link("pages/weighting.py", label=tr("nav.weighting"), icon=":material/bar_chart:")
    # the length claims measured on make_sum: the shipped record, its question, figures and reading
    parts.claims_section()


page()
if first_screen_only():
    draw_rest_later()
