"""TRL & verl: eleven confusions, each as predict-then-reveal with a live computation and its sources.

Eleven compact sections (the last three from public reports, issue 43), each a fragment (its widgets rerun
only its part): the confusion as a question (its heading), its controls, the computation
(``rlviz.experiments.confusions``) drawn by ``rlviz.plots.confusions``, the question
(``rlviz.teach.predict.PREDICTIONS["confusions"]``), then its explanation on demand: the full title, the
confusion as people state it, a reading whose numbers come from the computation, and the public threads.
Until the learner commits (or skips), a section draws nothing that states its answer (``answers_held``):
the figure without the series that answers it, or a note in its place where the whole figure does, and a
note in place of the reading. This file holds each section's widgets and layout; the section's frame (its
heading, question, explanation and export), its figure (with what it leaves out while the question waits),
the figures' words, the tables and the two sections that run the tiny LM (cached with ``st.cache_data``
keyed on their settings) are in ``app_common.parts.confusions``; the question states and readings are
built by ``rlviz.experiments.confusions``.
"""

from __future__ import annotations

import streamlit as st

from app_common import ensure_shell, fragment, show_bad_input, tr
from app_common.parts import confusions as parts
from app_common.template import notes, page_top
from rlviz.experiments import confusions as X
from rlviz.experiments.weighting import parse_group

ensure_shell()
state = st.session_state
SEED = int(state.get("seed", 0))
LRS = (1e-5, 3e-5, 1e-4, 3e-4, 1e-3)

page_top("confusions")
with notes(key="cf_notes_page"):
    st.markdown(tr("confusions.intro"))


# ------------------------------------------------------------------------------------------ 1. aggregation
@fragment
def aggregation_section() -> None:
    parts.head("aggregation")
    text = st.columns([1, 1])[0].text_input(
        tr("confusions.aggregation.lengths"), "200, 10", key="cf_agg_len", **parts.tip("aggregation.lengths")
    )
    try:
        lengths = X.parse_lengths(text)
        weights = X.aggregation_weights(lengths)
    except ValueError as exc:
        show_bad_input(exc, {"lengths": tr("confusions.aggregation.lengths")})
        return
    q_state = {"lengths": tuple(lengths)}
    held = parts.holds("aggregation", q_state)
    parts.aggregation_figure(weights, lengths, q_state, held)  # before the commit, without the mode asked about
    values = None if held else X.aggregation_reading(weights, lengths)
    csv = ("confusions-aggregation", "cf_agg_csv")
    parts.close("aggregation", q_state, held, values, weights, csv, extra=parts.mode_table)


# ------------------------------------------------------------------------------------------ 2. micro-batches
@fragment
def microbatch_section() -> None:
    parts.head("microbatch")
    c1, c2, c3 = st.columns(3)
    len_text = c1.text_input(
        tr("confusions.microbatch.lengths"), "200, 10, 10, 10", key="cf_mb_len", bind="query-params"
    )
    adv_text = c2.text_input(
        tr("confusions.microbatch.advantages"), "1, -1, 1, -1", key="cf_mb_adv", bind="query-params"
    )
    k = c3.number_input(tr("confusions.microbatch.k"), 1, 64, 2, key="cf_mb_k", **parts.tip("microbatch.k"))
    fields = parts.fields("microbatch", lengths="lengths", advantages="advantages", micro_batches="k")
    try:
        lengths, advantages = parse_group(len_text, adv_text)
        result = X.microbatch_weights(lengths, advantages, int(k))
    except ValueError as exc:
        show_bad_input(exc, fields)
        return
    q_state = {"lengths": tuple(lengths), "advantages": tuple(advantages), "micro_batches": int(k)}
    held = parts.holds("microbatch", q_state)
    parts.microbatch_figure(result.frame, held)  # before the commit, only the global token-mean
    values = None if held else X.microbatch_reading(result)
    parts.close("microbatch", q_state, held, values, result.frame, ("confusions-microbatches", "cf_mb_csv"))


# ------------------------------------------------------------------------------------------ 3. ratio = 1
@fragment
def ratio_section() -> None:
    parts.head("ratio_one")
    c1, c2, c3 = st.columns(3)
    mu = c1.slider(tr("confusions.ratio_one.mu"), 1, 4, 2, key="cf_mu", bind="query-params")
    mb = c2.slider(tr("confusions.ratio_one.mb"), 1, 4, 2, key="cf_mb", bind="query-params")
    lr = c3.select_slider(
        tr("confusions.ratio_one.lr"), LRS, value=1e-4, format_func="{:g}".format, key="cf_lr", bind="query-params"
    )
    st.caption(tr("confusions.ratio_one.note", prompts=parts.UPDATE_PROMPTS, G=parts.UPDATE_G))
    fields = parts.model_fields(**parts.fields("ratio_one", mu="mu", mini_batches="mb", lr="lr"))
    model = (SEED, state.get("model_dir"), state.get("device", "auto"))
    frame = parts.run_model(lambda: parts.updates(int(mu), int(mb), float(lr), *model), fields)
    if frame is None:
        return
    q_state = X.ratio_one_state(int(mu), int(mb), float(lr), frame)
    held = parts.holds("ratio_one", q_state)
    parts.ratio_figure(frame, held)  # the figure is the answer: drawn once the question is answered
    key, values = X.ratio_one_reading(frame)
    parts.close("ratio_one", q_state, held, values, frame, ("confusions-ratio-per-update", "cf_ratio_csv"), key=key)


# ------------------------------------------------------------------------------------------ 4. token vs sequence
@fragment
def sequence_section() -> None:
    parts.head("sequence")
    c1, c2 = st.columns([3, 1])
    text = c1.text_input(
        tr("confusions.sequence.log_ratios"),
        "0.02, -0.01, 0.35, 0.01, -0.02, 0.03, -0.25, 0.01",
        key="cf_seq_lr",
        **parts.tip("sequence.log_ratios"),
    )
    sign = parts.sign_radio(c2, tr("confusions.sequence.sign"), key="cf_seq_A")
    try:
        log_ratios = X.parse_log_ratios(text)
        df = X.token_vs_sequence(log_ratios, float(sign))
    except ValueError as exc:
        show_bad_input(exc, parts.fields("sequence", log_ratios="log_ratios", advantage="sign"))
        return
    q_state = {"log_ratios": tuple(log_ratios), "advantage": float(sign)}
    held = parts.holds("sequence", q_state)
    parts.sequence_figure(df, held)  # before the commit, only the token-level objective
    values = None if held else X.sequence_reading(df, q_state)
    parts.close("sequence", q_state, held, values, df, ("confusions-token-vs-sequence", "cf_seq_csv"))


# ------------------------------------------------------------------------------------------ 5. sampler vs trainer
@fragment
def sampler_section() -> None:
    parts.head("sampler")
    c1, c2 = st.columns(2)
    dtype = c1.radio(
        tr("confusions.sampler.dtype"),
        list(X.SAMPLER_DTYPES),
        horizontal=True,
        key="cf_dtype",
        **parts.tip("sampler.dtype"),
    )
    cap = c2.slider(tr("confusions.sampler.cap"), 1.0, 5.0, 2.0, 0.01, key="cf_cap", **parts.tip("sampler.cap"))
    fields = parts.model_fields(**parts.fields("sampler", sampler_dtype="dtype", cap="cap"))
    model = (state.get("model_dir"), state.get("device", "auto"))
    result = parts.run_model(lambda: parts.gap(SEED, str(dtype), float(cap), *model), fields)
    if result is None:
        return
    s = result.summary()
    q_state = X.sampler_state(str(dtype), s)
    held = parts.holds("sampler", q_state)
    parts.sampler_view(result, s, held)  # both panels and every number show which ratio moved: the answer
    values = None if held else X.sampler_reading(result)
    parts.close("sampler", q_state, held, values, result.tokens, ("confusions-sampler-trainer", "cf_gap_csv"))


# ------------------------------------------------------------------------------------------ 6. KL
@fragment
def kl_section() -> None:
    parts.head("kl")
    distance = st.slider(tr("confusions.kl.distance"), 0.1, 2.0, 0.5, 0.1, key="cf_kl_d", **parts.tip("kl.distance"))
    q_state = {"distance": float(distance), "seed": SEED}
    try:
        table = X.kl_expected_gradients(float(distance), seed=SEED)
        curves = X.kl_curves()
    except ValueError as exc:
        show_bad_input(exc, {"distance": tr("confusions.kl.distance")})
        return
    held = parts.holds("kl", q_state)  # the table of gradient errors is the answer; the curves are not
    parts.kl_figure(curves)
    parts.ask("kl", q_state)
    parts.kl_explanation(curves, table, held)  # the curves' reading, then the table (held back)
    parts.export(held, table, "confusions-kl-gradients", "cf_kl_csv")


# ------------------------------------------------------------------------------------------ 7. std division
@fragment
def difficulty_section() -> None:
    parts.head("difficulty")
    c1, c2 = st.columns(2)
    G = c1.slider(tr("confusions.difficulty.G"), 2, 32, 8, key="cf_G", bind="query-params")
    p = c2.slider(tr("confusions.difficulty.p"), 0.05, 0.95, 0.9, 0.05, key="cf_p", bind="query-params")
    try:
        df = X.difficulty_curve(int(G))
    except ValueError as exc:
        show_bad_input(exc, {"group_size": tr("confusions.difficulty.G"), "pass_rate": tr("confusions.difficulty.p")})
        return
    q_state = {"group_size": int(G), "p": round(float(p), 4)}
    held = parts.holds("difficulty", q_state)
    parts.difficulty_figure(df, float(p), held)  # before the commit, only the curve without the std division
    values = None if held else X.difficulty_reading(df, q_state)
    parts.close("difficulty", q_state, held, values, df, ("confusions-difficulty", "cf_diff_csv"))


# ------------------------------------------------------------------------------------------ 8. clip bounds
@fragment
def clip_section() -> None:
    parts.head("clip")
    label = parts.clip_setting_labels()
    c1, c2 = st.columns(2)
    eps_low = c1.slider(label["epsilon_low"], 0.0, 0.9, 0.2, 0.01, key="cf_el", bind="query-params")
    eps_high = c2.slider(label["epsilon_high"], 0.0, 1.0, 0.28, 0.01, key="cf_eh", bind="query-params")
    c3, c4 = st.columns([1, 3], vertical_alignment="center")
    dual_on = c3.toggle(tr("confusions.clip.dual_on"), value=True, key="cf_dual", bind="query-params")
    c = c4.slider(label["dual_clip_c"], 1.1, 10.0, 3.0, 0.1, key="cf_c", disabled=not dual_on, bind="query-params")
    c5, c6 = st.columns([3, 1])
    r = c5.slider(tr("confusions.clip.ratio"), 0.05, 10.0, 2.0, 0.05, key="cf_r", bind="query-params")
    sign = parts.sign_radio(c6, tr("confusions.clip.sign"), key="cf_clip_A", index=1)
    dual = float(c) if dual_on else None
    try:
        df = X.clip_cases(float(eps_low), float(eps_high), dual)
    except ValueError as exc:
        show_bad_input(exc, label)
        return
    q_state = X.clip_state(float(eps_low), float(eps_high), dual, float(r), float(sign))
    held = parts.holds("clip", q_state)
    parts.clip_figure(df, float(eps_low), float(eps_high), dual, held)  # each ratio by what stops it: the answer
    values = None if held else X.clip_reading(df, q_state)
    parts.close("clip", q_state, held, values, df, ("confusions-clip-cases", "cf_clip_csv"))


# ------------------------------------------------------------------------------------------ 9. token-count window
@fragment
def window_section() -> None:
    parts.head("window")
    c1, c2, c3 = st.columns([2, 1, 1])
    len_text = c1.text_input(
        tr("confusions.window.lengths"),
        "40, 10, 20, 20, 10, 30, 20, 10",
        key="cf_win_len",
        **parts.tip("window.lengths"),
    )
    steps = c2.number_input(tr("confusions.window.steps"), 1, 64, 4, key="cf_win_k", **parts.tip("window.steps"))
    window = c3.number_input(tr("confusions.window.window"), 1, 64, 4, key="cf_win_w", **parts.tip("window.window"))
    fields = {k: tr(f"confusions.window.{k}") for k in ("lengths", "steps", "window")}
    try:
        lengths = X.parse_lengths(len_text)
        df = X.token_count_window(lengths, int(steps), int(window))
    except ValueError as exc:
        show_bad_input(exc, fields)
        return
    q_state = {"lengths": tuple(lengths), "steps": int(steps), "window": int(window)}
    held = parts.holds("window", q_state)
    parts.window_figure(df, held)  # before the commit, only the steps' own tokens
    values = None if held else X.window_reading(df)
    parts.close("window", q_state, held, values, df, ("confusions-token-count-window", "cf_win_csv"))


# ------------------------------------------------------------------------------------------ 10. sequence weights
@fragment
def drift_section() -> None:
    parts.head("drift")
    default_cap = X.sequence_cap()
    c1, c2 = st.columns(2)
    drift = c1.slider(
        tr("confusions.drift.drift"),
        0.001,
        0.05,
        0.01,
        0.001,
        format="%.3f",
        key="cf_drift",
        **parts.tip("drift.drift"),
    )
    cap = c2.slider(
        tr("confusions.drift.cap"),
        1.5,
        10.0,
        default_cap,
        0.5,
        key="cf_drift_cap",
        **parts.tip("drift.cap", default=f"{default_cap:g}"),
    )
    try:
        df = X.drift_curve(float(drift), float(cap))
        at = X.sequence_weight_drift(float(drift), [X.REPORT_LENGTH], float(cap))
    except ValueError as exc:
        show_bad_input(exc, {"drift": tr("confusions.drift.drift"), "cap": tr("confusions.drift.cap")})
        return
    q_state = {"drift": round(float(drift), 6), "cap": round(float(cap), 6)}
    held = parts.holds("drift", q_state)
    parts.drift_figure(df, float(cap), held)  # before the commit, only each token's ratio
    values = None if held else X.drift_reading(float(drift), float(cap), at)
    parts.close("drift", q_state, held, values, df, ("confusions-sequence-weight-drift", "cf_drift_csv"))


# ------------------------------------------------------------------------------------------ 11. GDPO vs GRPO
@fragment
def gdpo_section() -> None:
    parts.head("gdpo")
    c1, c2 = st.columns(2)
    first = c1.text_input(
        tr("confusions.gdpo.reward_1"), "1, 0, 0, 0; 1, 1, 0, 0", key="cf_gdpo_r1", **parts.tip("gdpo.rewards")
    )
    second = c2.text_input(
        tr("confusions.gdpo.reward_2"), "0, 1, 1, 0; 1, 1, 0, 0", key="cf_gdpo_r2", **parts.tip("gdpo.rewards")
    )
    fields = {"reward_1": tr("confusions.gdpo.reward_1"), "reward_2": tr("confusions.gdpo.reward_2")}
    try:
        components = X.parse_components(first, second)
        df = X.gdpo_vs_grpo(components)
    except ValueError as exc:
        show_bad_input(exc, fields | {"components": fields["reward_2"]})
        return
    q_state = X.gdpo_state(components)
    held = parts.holds("gdpo", q_state)
    parts.gdpo_figure(df, held)  # before the commit, only GRPO's advantages
    values = None if held else X.gdpo_reading(df)
    parts.close("gdpo", q_state, held, values, df, ("confusions-gdpo-vs-grpo", "cf_gdpo_csv"))


aggregation_section()
microbatch_section()
ratio_section()
sequence_section()
sampler_section()
kl_section()
difficulty_section()
clip_section()
window_section()
drift_section()
gdpo_section()
