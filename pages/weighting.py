"""Token vs sequence weighting: how each objective spreads one group's gradient over its tokens.

Four sections, each a fragment (its widgets rerun only its part): a hand-made group under the four
aggregation modes and every objective of the registry (on-policy); one response with a few off-policy
tokens; token-ratio noise vs GSPO's sequence ratio as length grows; a real group from the tiny LM after
one optimizer step. Widgets -> one call into ``rlviz.experiments.weighting`` -> figure builders in
``rlviz.plots.weighting`` (and ``rlviz.plots.token_weight_figure``). The sections' sentences and tables
are built in the page's language by ``rlviz.experiments.weighting``; their caches and cached figures are
in ``app_common.parts.weighting``.

The page template (CONTRIBUTING.md): the first section opens with the title and lede, the two fields
of the group, then its figure; the questions come after it, and while one waits for the learner
(``answers_held``) nothing states its answer (the figure has no value labels, the table of weights and
the sentence of the token-mean weight are a note). Each later section: a lead line, its controls and
figure, its explanation in a "How to read this" block. A reader who arrives from another page gets the
first section down to its questions in one run and the rest in the run that follows
(``app_common.template.first_screen_only``): the browser draws the figure before the 22-objective ones.

Nothing here branches on an algorithm's name: the choices offered, counts, lists and the sentences
that read the figures come from ``ALGORITHMS`` (read on every run) and from each spec's
``trust_region`` / ``ratio_level``, so an entry added to the registry shows up here as it is.
"""

from __future__ import annotations

import streamlit as st

from app_common import (
    chart,
    csv_download,
    ensure_shell,
    escape_markdown,
    fragment,
    lang,
    predict,
    show_bad_input,
    tr,
)
from app_common.parts import weighting as parts
from app_common.parts.weighting import registry_key, words_key
from app_common.predictions import answers_held, held_note
from app_common.template import draw_rest_later, first_screen_only, notes, page_top, practitioners
from rlviz.core.objectives import ALGORITHMS
from rlviz.experiments import weighting as W
from rlviz.teach.predict import PREDICTIONS, state_from_settings

ensure_shell()
L = lang()
state = st.session_state
titles = {n: ALGORITHMS[n].title for n in ALGORITHMS}
SEED = int(state.get("seed", 0))
SIGMAS = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2)
SAMPLES = (200, 500, 1000, 2000, 5000)
LRS = (1e-5, 2e-5, 3e-5, 5e-5, 1e-4, 2e-4, 5e-4, 1e-3)
SIGNS = {1: "A = +1", -1: "A = −1"}


# the parameter each library error starts with -> the label of the widget that sets it, per section
AGG_FIELDS, OFF_FIELDS, NOISE_FIELDS = W.agg_fields(L), W.off_fields(L), W.noise_fields(L)
REAL_FIELDS = W.real_fields(L, state.get("model_dir"))


# ---------------------------------------------------------------------------------------- 1. aggregation
@fragment
def aggregation_section() -> None:
    # the page's top in this fragment: a presenter's question is drawn under the lede by ``predict``
    # below, which a rerun of this fragment alone may only do inside the fragment
    page_top("weighting")
    # the two fields that drive the figure in one row above it (two columns still fit side by side on a
    # 1024 px window with the sidebar open); L_max, which moves one mode only, under the figure
    c1, c2 = st.columns(2)
    lengths_text = c1.text_input(
        tr("weighting.lengths"), W.DEFAULT_LENGTHS, key="wt_len", help=tr("weighting.lengths_help"), bind="query-params"
    )
    adv_text = c2.text_input(
        tr("weighting.advantages"),
        W.DEFAULT_ADVANTAGES,
        key="wt_adv",
        help=tr("weighting.advantages_help"),
        bind="query-params",
    )
    figure = st.container()
    c1, c2 = st.columns([1, 2], gap="medium", vertical_alignment="bottom")
    lmax = c1.number_input(
        tr("weighting.lmax"), 1, W.MAX_LENGTH, 256, key="wt_lmax", help=tr("weighting.lmax_help"), bind="query-params"
    )
    lmax_note = c2.empty()
    try:
        lengths, advantages = W.parse_group(lengths_text, adv_text)
        setting = (tuple(lengths), tuple(advantages), int(lmax))
        table = parts.aggregation(*setting, registry_key())
    except ValueError as exc:
        with figure:  # in the figure's place, under the fields: the rest of the page is drawn
            show_bad_input(exc, AGG_FIELDS)
        return
    B = len(lengths)
    asked = state_from_settings("weighting", state)
    # before the commit nothing in view states the answers: no value labels, table or claim
    held = answers_held(PREDICTIONS["weighting"], asked)
    responses = W.response_labels(lengths, advantages, L)
    words = parts.aggregation_words(responses)
    lmax_note.markdown(tr("weighting.lmax_note", lmax=int(lmax), B=B, w=f"{1 / (B * int(lmax)):.3g}"))
    with figure:
        chart(parts.aggregation_chart(*setting, "mode", words, registry_key(), not held), "wt_modes_chart")
    # predict, then check: the figure above has no value labels until the learner commits
    with st.expander(tr("teach.header"), expanded=True):
        st.caption(tr("teach.intro"))
        cols = st.columns(len(PREDICTIONS["weighting"]), border=True)
        for col, prediction in zip(cols, PREDICTIONS["weighting"]):
            with col:
                predict(prediction, asked)
    if first_screen_only():  # arrived from another page: the rest of the page comes in a second run
        return
    with notes():
        st.markdown(f"**{tr('weighting.agg_header')}**")
        st.markdown(tr("weighting.intro"))
        st.markdown(tr("weighting.agg_intro"))
    parts.aggregation_formulas()  # each mode's weight, the loss and the push
    if held:  # the table of weights and the sentence that states the token-mean answer
        held_note()
    else:
        parts.weights_table(setting, responses)
    st.markdown(tr("weighting.length_bias"))

    st.markdown(W.algos_intro(L))
    # names: the registry titles; no value labels
    chart(parts.aggregation_chart(*setting, "algorithm", words, registry_key()), "wt_algos_chart")
    st.caption(W.algos_caption(L))
    csv_download(table, "weighting-aggregation", key="wt_agg_csv")
    with practitioners():
        st.markdown(tr("weighting.practitioners"))
        parts.aggregation_export(B, int(lmax))  # GRPO with each aggregation, one tab each


# ---------------------------------------------------------------------------------------- 2. off-policy tokens
@fragment
def offpolicy_section() -> None:
    st.subheader(tr("weighting.off_header"))
    st.markdown(tr("weighting.off_lead"))
    c1, c2, c3, c4 = st.columns(4)
    length = c1.slider(tr("weighting.length"), 2, 400, 50, key="wt_L", bind="query-params")
    k = c2.number_input(
        tr("weighting.n_outliers"), 0, 400, 2, key="wt_k", help=tr("weighting.n_outliers_help"), bind="query-params"
    )
    ratio = c3.slider(
        tr("weighting.outlier_ratio"),
        0.1,
        5.0,
        0.5,
        0.05,
        key="wt_r",
        help=tr("weighting.outlier_ratio_help"),
        bind="query-params",
    )
    sign = c4.radio(
        tr("weighting.sign"),
        list(SIGNS),
        index=1,
        format_func=SIGNS.get,
        horizontal=True,
        key="wt_A",
        help=tr("weighting.sign_help"),
        bind="query-params",
    )
    c1, c2, c3 = st.columns([1, 1, 2])
    noise = c1.slider(
        tr("weighting.noise"),
        0.0,
        0.2,
        0.0,
        0.005,
        format="%.3f",
        key="wt_noise",
        help=tr("weighting.noise_help"),
        bind="query-params",
    )
    clip = c2.toggle(
        tr("weighting.clip"), value=True, key="wt_clip", help=tr("weighting.clip_help"), bind="query-params"
    )
    algos = c3.multiselect(
        tr("weighting.algorithms"),
        list(ALGORITHMS),
        default=parts.registry_defaults(W.OFFPOLICY_ALGORITHMS),
        format_func=titles.get,
        key="wt_algos",
        bind="query-params",
        placeholder=tr("common.choose"),
    )
    if not algos:
        st.info(tr("weighting.pick_algorithm"))
        return
    setting = (int(length), int(k), float(ratio), float(sign), float(noise), SEED, bool(clip), tuple(algos))
    try:
        df, summary = parts.offpolicy(setting, registry_key())
    except ValueError as exc:
        show_bad_input(exc, OFF_FIELDS)
        return
    columns = W.split_columns(df)
    panel_notes = {r.algorithm: W.panel_note(columns[r.algorithm], r.total_relative, L) for r in summary.itertuples()}
    # panel names: the registry titles; the figure at the page's width (a panel's title whole at 1024 px)
    chart(parts.offpolicy_chart(setting, words_key(W.offpolicy_words(panel_notes, L)), registry_key()), "wt_off_chart")
    st.caption(tr("weighting.off_notes_caption"))
    parts.offpolicy_formulas()  # the ratios, each objective's push, SAPO's gate
    st.markdown(W.offpolicy_reading(columns, summary, int(length), int(k), L))
    with notes():
        st.markdown(tr("weighting.off_intro"))
        st.markdown(tr("weighting.off_try"))
    parts.offpolicy_table(summary)
    csv_download(df, "weighting-offpolicy", key="wt_off_csv")


# ---------------------------------------------------------------------------------------- 3. noise vs length
@fragment
def noise_section() -> None:
    st.subheader(tr("weighting.noise_header"))
    st.markdown(tr("weighting.noise_lead"))
    c1, c2 = st.columns(2)
    sigma = c1.select_slider(
        tr("weighting.sigma"),
        SIGMAS,
        value=0.02,
        format_func="{:g}".format,
        key="wt_sigma",
        help=tr("weighting.sigma_help"),
        bind="query-params",
    )
    n = c2.select_slider(
        tr("weighting.n_samples"),
        SAMPLES,
        value=1000,
        key="wt_n",
        help=tr("weighting.n_samples_help"),
        bind="query-params",
    )
    try:
        df = parts.noise(float(sigma), int(n), SEED, registry_key())
    except ValueError as exc:
        show_bad_input(exc, NOISE_FIELDS)
        return
    numbers = parts.noise_numbers(float(sigma), int(n), SEED, registry_key())
    left, right = st.columns([2, 1], gap="medium")
    with left:
        words = words_key(W.noise_words(numbers, L))
        chart(parts.noise_chart(float(sigma), int(n), SEED, words, registry_key()), "wt_noise_chart")
    with right:  # the narrowest formula column: about 215 px on a 1024 px window with the sidebar open
        parts.noise_formulas()
    reading = {k: v for k, v in numbers.items() if not k.startswith("eps.")}
    st.markdown(tr("weighting.noise_reading", sigma2=f"{sigma**2:.2g}", **reading))
    with notes():
        st.markdown(tr("weighting.noise_intro"))
        st.caption(tr("weighting.noise_caption"))
    csv_download(df, "weighting-noise", key="wt_noise_csv")


# ---------------------------------------------------------------------------------------- 4. a real group
@fragment
def real_section() -> None:
    st.subheader(tr("weighting.real_header"))
    st.markdown(tr("weighting.real_lead"))
    c1, c2, c3 = st.columns([2, 1, 2])
    prompt = c1.text_input(
        tr("weighting.prompt"),
        "",
        placeholder=tr("weighting.prompt_auto"),
        key="wt_prompt",
        help=tr("weighting.prompt_help"),
        bind="query-params",
    )
    group_size = c2.number_input(tr("weighting.group_size"), 2, 16, 8, key="wt_G", bind="query-params")
    lr = c3.select_slider(
        tr("weighting.lr"),
        LRS,
        value=3e-5,
        format_func="{:g}".format,
        key="wt_lr",
        help=tr("weighting.lr_help"),
        bind="query-params",
    )
    c1, c2 = st.columns([3, 1])
    algos = c1.multiselect(
        tr("weighting.algorithms"),
        list(ALGORITHMS),
        default=parts.registry_defaults(W.REAL_ALGORITHMS),
        format_func=titles.get,
        key="wt_ralgos",
        bind="query-params",
        placeholder=tr("common.choose"),
    )
    after = c2.toggle(
        tr("weighting.after"), value=True, key="wt_after", help=tr("weighting.after_help"), bind="query-params"
    )
    setting = (SEED, prompt.strip(), int(group_size), float(lr), state.get("model_dir"), state.get("device", "auto"))
    try:
        W.parse_prompt(prompt)  # a typo is a message before any model is loaded
        group = parts.real_group(*setting)
    except ValueError as exc:
        show_bad_input(exc, REAL_FIELDS)
        return
    except Exception as exc:  # noqa: BLE001 -- the page boundary: a message, never a traceback
        st.error(tr("weighting.real_failed", error=escape_markdown(f"{type(exc).__name__}: {exc}")))
        return
    st.markdown(W.real_prompt_text(group, L))
    if not (group.advantages != 0).any():
        st.info(tr("weighting.no_signal"))
    if not algos:
        st.info(tr("weighting.pick_algorithm"))
        return
    algos = tuple(algos)
    weights = parts.real_charts(group, setting, algos, bool(after))  # each algorithm's note and tokens
    with notes():
        st.markdown(tr("weighting.real_intro"))
        st.caption(tr("weighting.real_caption"))
    csv_download(weights, "weighting-real-group", key="wt_real_csv")


aggregation_section()
if first_screen_only():
    draw_rest_later()
else:
    offpolicy_section()
    noise_section()
    real_section()
