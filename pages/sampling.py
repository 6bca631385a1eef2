"""Dynamic sampling: which groups carry a signal, what filling a batch with them costs, and a live
GRPO vs GRPO + dynamic sampling run.

Widgets -> ``rlviz.experiments.sampling`` -> ``rlviz.plots.sampling`` -> ``app_common.chart``.
The measured pass rates are cached by their inputs (the cached function loads the model itself);
the live run (a ``SideBySideRun`` of two GRPO arms, dynamic sampling off and on) lives in
``st.session_state`` and advances one arm-step at a time through ``app_common.advance``, on the run-page
skeleton (``app_common.runpage.RunPage``) like the live page. The page opens with its title, lede and the
signal figure (its control beside it); the live run's section has its settings and Run just above its
figure. Widget keys start with ``s_``. The cached results and figure specs are in
``app_common.parts.sampling``; the tables and sentences are built by ``rlviz.experiments.sampling``.
A reader who arrives from another page (with no run of this session to show) gets the signal section in
one run and the rest (the measured pass rates among it) in the run that follows
(``app_common.template.first_screen_only``).
"""

from __future__ import annotations

import dataclasses

import streamlit as st
import torch

from app_common import (
    chart,
    csv_download,
    ensure_shell,
    formula,
    fragment,
    labels,
    lang,
    predict,
    show_bad_input,
    stop,
    tr,
)
from app_common.parts import sampling as parts
from app_common.runpage import RunPage
from app_common.runs import apart_reading
from app_common.runsettings import Field, RunSettings
from app_common.template import draw_rest_later, first_screen_only, notes, page_top
from rlviz.core.sampling import signal_probability
from rlviz.experiments import sampling as X
from rlviz.experiments.sampling import (
    DEFAULT_GROUP_SIZES,
    GROUP_SIZE_CHOICES,
    DynamicSamplingConfig,
    DynamicSamplingRun,
)
from rlviz.i18n import SENTENCE_SEPARATOR
from rlviz.lm.task import HELDOUT_SIZE
from rlviz.plots.live import SMOOTH_SPAN
from rlviz.teach.predict import PREDICTIONS, state_from_settings

ensure_shell()
L = lang()
state = st.session_state
seed = int(state.get("seed", 0))
G_CHOICES = list(GROUP_SIZE_CHOICES)
LR_CHOICES = (1e-5, 2e-5, 5e-5, 1e-4, 2e-4, 5e-4, 1e-3)
D = DynamicSamplingConfig()
CAPTION_EXAMPLE = (8, 0.1)  # the signal caption's example: a group size and a pass rate
arm_labels = X.arm_labels(L)

page_top("sampling")  # title, path marker, lede; the signal figure follows at once


@fragment
def signal_section() -> None:
    left, right = st.columns([3, 2])
    with right:  # the figure's control beside it, then the rule it draws
        sizes = st.multiselect(
            tr("sampling.group_sizes"),
            G_CHOICES,
            default=list(DEFAULT_GROUP_SIZES),
            key="s_Gs",
            help=tr("sampling.group_sizes_help"),
            bind="query-params",
            placeholder=tr("common.choose"),
        )
        # k = right answers among the G: k ~ Binomial(G, p)
        formula(r"P(k = G) = p^G,\quad P(k = 0) = (1-p)^G,\quad P(0 < k < G)\\ = 1 - p^G - (1-p)^G", small=True)
        formula(
            r"R_1 = \dots = R_G \;\Rightarrow\\ A_i = \frac{R_i - \bar R}{\operatorname{std}(R) + \epsilon} = 0",
            small=True,
        )
    try:
        if not sizes:
            raise ValueError(f"group_size: {tr('sampling.need_group_size')}")
        df = parts.signal_curves(tuple(int(g) for g in sizes))
    except ValueError as exc:
        show_bad_input(exc, {"group_size": tr("sampling.group_sizes")}, where=left)
        df = None
    if df is not None:
        with left:
            signal_labels = labels("sampling", "pass_rate", "signal_axis", "mixed_hover", "equal_hover")
            chart(parts.signal_figure(tuple(int(g) for g in sizes), tuple(signal_labels.items())), "sampling-signal")
        # the caption's example, computed
        example = float(signal_probability(torch.tensor(CAPTION_EXAMPLE[1], dtype=torch.float64), CAPTION_EXAMPLE[0]))
        st.caption(tr("sampling.signal_caption", G=CAPTION_EXAMPLE[0], p=CAPTION_EXAMPLE[1], share=example))
    with notes():
        st.markdown(tr("sampling.intro"))
        st.markdown(f"**{tr('sampling.signal_header')}** {tr('sampling.signal_text')}")
    if sizes:  # predict, then check: under the figure, whose curves state the answers only on hover
        with st.expander(tr("teach.header"), expanded=True):
            st.caption(tr("teach.intro"))
            for col, prediction in zip(st.columns(len(PREDICTIONS["sampling"]), border=True), PREDICTIONS["sampling"]):
                with col:
                    predict(prediction, state_from_settings("sampling", state))
    if df is not None:
        csv_download(df, "sampling-signal", key="s_dl_signal")


signal_section()
if first_screen_only() and "sampling_run" not in state:  # arrived, no run of this session to show
    draw_rest_later()  # the rest of the page comes in a second run
    stop()

st.markdown(f"#### {tr('sampling.bias_header')}")
st.markdown(tr("sampling.bias_text"))


@fragment
def bias_section() -> None:
    bias_G = st.slider(tr("sampling.bias_group_size"), 2, 64, 8, key="s_bG", bind="query-params")
    try:
        df = parts.advantage_mass(int(bias_G))
    except ValueError as exc:
        show_bad_input(exc, {"group_size": tr("sampling.bias_group_size")})
        return
    left, right = st.columns([3, 2])
    with left:
        # the two lines' names: the registry titles of GRPO and Dr.GRPO
        words = labels("sampling", "pass_rate", "bias_axis", "bias_mass")
        chart(parts.bias_figure(int(bias_G), tuple(words.items())), "sampling-difficulty-bias")
    with right:
        formula(
            r"\text{GRPO: }\\ A_i = \frac{R_i - \bar R}{\operatorname{std}(R) + \epsilon},\quad "
            r"\text{Dr.GRPO: } A_i = R_i - \bar R,\quad "
            r"\mathbb{E}\Big[\sum_i |A_i|\Big]\\ = \sum_{k=0}^{G} P(k)\,a(k),\quad "
            r"P(k) = \binom{G}{k} p^k (1-p)^{G-k},\quad "
            r"a(k) = \sum_i |A_i|,\quad k = \#\{i: R_i = 1\}",
            small=True,
        )
    st.caption(tr("sampling.bias_caption"))
    csv_download(df, "sampling-difficulty-bias", key="s_dl_bias")


bias_section()


# ---------------------------------------------------------------------------------------- 2. measured
st.subheader(tr("sampling.measured_header"))
st.markdown(tr("sampling.measured_text"))
c1, c2, c3 = st.columns(3)
n_prompts = c1.number_input(
    tr("sampling.n_prompts"), 4, 256, 64, key="s_np", help=tr("sampling.n_prompts_help"), bind="query-params"
)
m_G = c2.number_input(tr("sampling.measure_group_size"), 2, 32, 8, key="s_mG", bind="query-params")
m_temp = c3.slider(
    tr("sampling.temperature"),
    0.1,
    2.0,
    1.0,
    0.05,
    key="s_temp",
    help=tr("sampling.temperature_help"),
    bind="query-params",
)
measurement = None
measure_args = (seed, int(n_prompts), int(m_G), float(m_temp), state.get("model_dir"), state.get("device", "auto"))
try:
    with st.spinner(tr("sampling.measuring", n=int(n_prompts), G=int(m_G))):
        measurement = parts.measure(*measure_args)
except ValueError as exc:
    show_bad_input(exc, X.measure_fields(L))
if measurement is not None:  # its shares, figure and formulas, caption and download
    parts.measured_view(measurement, measure_args)

# ---------------------------------------------------------------------------------------- 3. cost
st.subheader(tr("sampling.cost_header"))
st.markdown(tr("sampling.cost_text"))


@fragment
def cost_section() -> None:
    c1, c2, c3, c4 = st.columns(4)
    N = c1.number_input(
        tr("sampling.target"), 1, 512, 16, key="s_N", help=tr("sampling.target_help"), bind="query-params"
    )
    n = c2.number_input(
        tr("sampling.per_round"), 1, 1024, 16, key="s_n", help=tr("sampling.per_round_help"), bind="query-params"
    )
    G = c3.number_input(tr("sampling.cost_group_size"), 2, 64, 8, key="s_G", bind="query-params")
    K = c4.number_input(tr("sampling.cap"), 1, 50, 3, key="s_K", help=tr("sampling.cap_help"), bind="query-params")
    c1, c2, c3 = st.columns([1, 1, 2])
    a = c1.slider(
        tr("sampling.beta_a"), 0.1, 10.0, 0.3, 0.1, key="s_a", help=tr("sampling.beta_help"), bind="query-params"
    )
    b = c2.slider(
        tr("sampling.beta_b"), 0.1, 10.0, 0.5, 0.1, key="s_b", help=tr("sampling.beta_help"), bind="query-params"
    )
    cost_fields = X.cost_fields(L)
    measured = None if measurement is None else parts.measured_summary(measure_args)["distribution"]
    settings = (float(a), float(b), measured, int(n), int(N), int(G))
    try:
        df = parts.fill_cost(*settings, max(10, int(K)))
    except ValueError as exc:
        show_bad_input(exc, cost_fields)
        return
    parts.cost_view(settings, int(K), df, c3)  # the Beta density in c3, the cost figure, its table
    parts.fill_check_view(settings, int(K), seed, cost_fields)


cost_section()

# ---------------------------------------------------------------------------------------- 4. live
st.subheader(tr("sampling.live_header"))
st.caption(tr("sampling.live_lede"))
# the run page's places (app_common.runpage): the main settings and Run, the figure, the run's reading, the
# other settings, the run's table, notes, practitioners, downloads
rp = RunPage(
    "sampling",
    run_key="sampling_run",
    flag_key="sampling_running",
    buttons=("s_run", "s_stop", "s_continue", "s_reset"),
    starting=lambda: (arm_labels, int(state.get("s_steps", D.steps))),  # the steps as the widget says
)
# the run's shared settings (app_common.runsettings): their keys, labels and defaults
rs = RunSettings(
    "sampling",
    "s_",
    D,
    disabled=rp.running,  # True from the Run click's own script run: widgets disabled
    steps=Field(),
    prompts=Field(label="live_prompts"),
    group_size=Field(label="live_group_size"),
    lr=Field(choices=LR_CHOICES),
    temperature=Field(help=True),
    heldout=Field(help=True, n=HELDOUT_SIZE),
)
with rp.settings:  # one row: the run's size (no more than this server runs) and the cap on rounds
    steps, live_N, _ = rs.inline("steps", "prompts", "group_size")
    rounds = st.number_input(
        tr("sampling.rounds"),
        1,
        10,
        D.max_resample_rounds,
        key="s_rounds",
        help=tr("sampling.cap_help"),
        bind="query-params",
        disabled=rp.running,
    )
with rp.details, st.expander(tr("sampling.more_settings"), expanded=rp.presenting):
    rs.row("lr", "temperature", "heldout")
LIVE_FIELDS = X.live_fields(L)


def _config() -> DynamicSamplingConfig:
    return DynamicSamplingConfig(
        **rs.config(),
        max_resample_rounds=int(rounds),
        seed=seed,
        device=state.get("device", "auto"),
        model_dir=state.get("model_dir"),
    )


with rp.notes():
    st.markdown(tr("sampling.live_text"))
    st.markdown(tr("sampling.live_caption"))
with rp.practitioners():
    from app_common import export_config

    export_config("grpo", train_config=_config().train_config("grpo_ds"), key="s_export")

rp.controls(
    lambda: DynamicSamplingRun(_config()),  # loads the model
    fields=LIVE_FIELDS,
    settings_keys=(*rs.keys, "s_rounds"),
)


run = rp.watch(
    lambda run: parts.live_figure(run, live_N, steps),
    names=arm_labels,
    chart_key="sampling-live",
    changed=lambda run: dataclasses.asdict(_config()) != dataclasses.asdict(run.ds_config),
    no_run=tr("sampling.no_run", steps=D.steps, n=D.prompts_per_step, G=D.group_size),  # the defaults
)
if run is not None:
    summary_frame = run.summary_frame()
    read = [text for text in (X.compare_text(summary_frame, L),) if text]
    apart = apart_reading(summary_frame, "sampling", run.config.heldout_samples)
    if apart:
        read.append(apart)
    if read:
        rp.read(SENTENCE_SEPARATOR[L].join(read))
    with rp.reading:
        st.caption(tr("sampling.smooth_caption", span=SMOOTH_SPAN))
    with rp.sections:
        st.table(
            X.live_summary_table(summary_frame, arm_labels, L), hide_index=True, border="horizontal"
        )  # headers wrap: none hides at 1400 px
        st.caption(tr("sampling.summary_caption", n=HELDOUT_SIZE))
    with rp.downloads:
        csv_download(run.metrics_frame(), "sampling-live", key="s_dl_live")

# ---------------------------------------------------------------------------------------- 5. symptoms
st.subheader(tr("sampling.symptoms_header"))
st.markdown(tr("sampling.symptoms"))
