"""TRL & verl: eleven confusions, each as predict-then-reveal with a live computation and its sources.

Eleven compact sections (the last three from public reports, issue 43), each a fragment (its widgets rerun only its part): the confusion as a question
(its heading), its controls, the computation (``rlviz.experiments.confusions``) drawn by
``rlviz.plots.confusions``, the question (``rlviz.teach.predict.PREDICTIONS["confusions"]``), then its
explanation on demand: the full title, the confusion as people state it, a reading whose numbers come
from the computation, and the public threads. Until the learner commits (or skips), a section draws
nothing that states its answer (``answers_held``): the figure without the series that answers it, or a
note in its place where the whole figure does, and a note in place of the reading. The two sections
that run the tiny LM cache their pure results with ``st.cache_data`` keyed on their settings.
"""

from __future__ import annotations

import contextlib

import pandas as pd
import streamlit as st

from app_common import (
    chart,
    csv_download,
    ensure_shell,
    escape_markdown,
    fragment,
    labels,
    lang,
    predict,
    show_bad_input,
    tr,
)
from app_common.predictions import answers_held, held_note
from app_common.template import notes, page_top
from rlviz.core.objectives import ALGORITHMS, TOKEN_STATES
from rlviz.experiments import confusions as X
from rlviz.experiments.weighting import parse_group
from rlviz.plots import confusions as P
from rlviz.teach.predict import PREDICTIONS

ensure_shell()
L = lang()
state = st.session_state
SEED = int(state.get("seed", 0))
QUESTIONS = {p.key.split(".", 1)[1]: p for p in PREDICTIONS["confusions"]}
LRS = (1e-5, 3e-5, 1e-4, 3e-4, 1e-3)
SIGNS = {1: "A = +1", -1: "A = −1"}
UPDATE_PROMPTS, UPDATE_G = 4, 4  # section 3: a small step (4 prompts x G 4)
GAP_PROMPTS, GAP_G = 4, 4  # section 5


def _pct(x: float) -> str:
    return f"{x:.1%}"


def _head(name: str) -> None:
    """The section's heading: the confusion as a question (the section's full title and the way people
    state it are in its explanation, :func:`_explain`)."""
    st.subheader(tr(f"confusions.{name}.ask"))


def _held(name: str, question_state: dict) -> bool:
    """Whether the section's question waits for the learner at ``question_state``: then the section
    draws nothing that states its answer (``answers_held``)."""
    return answers_held([QUESTIONS[name]], question_state)


def _ask(name: str, question_state: dict) -> None:
    """The section's predict-then-reveal question, under its figure (which holds its answer back)."""
    with st.container(border=True):
        st.caption(f"**{tr('teach.header')}** · {tr('teach.intro')}")
        predict(QUESTIONS[name], question_state)


def _left_out(what: str) -> None:
    """One line under a figure drawn without the part that answers the section's question."""
    st.caption(":material/visibility_off: " + tr("confusions.left_out", what=what))


@contextlib.contextmanager
def _explain(name: str):
    """The section's explanation, on demand: its full title, the confusion as people state it, then
    what the block adds (the reading of the figure, tables), then the public threads."""
    with notes(key=f"cf_notes_{name}"):
        st.markdown(f"**{tr(f'confusions.{name}.header')}**")
        st.markdown(f"**{tr('confusions.said')}** {tr(f'confusions.{name}.said')}")
        yield
        st.caption(f"**{tr('confusions.sources')}** {tr(f'confusions.{name}.sources')}")


page_top("confusions")
with notes(key="cf_notes_page"):
    st.markdown(tr("confusions.intro"))


# ------------------------------------------------------------------------------------------ 1. aggregation
@fragment
def aggregation_section() -> None:
    _head("aggregation")
    text = st.columns([1, 1])[0].text_input(
        tr("confusions.aggregation.lengths"),
        "200, 10",
        key="cf_agg_len",
        help=tr("confusions.aggregation.lengths_help"),
        bind="query-params",
    )
    try:
        lengths = X.parse_lengths(text)
        weights = X.aggregation_weights(lengths)
    except ValueError as exc:
        show_bad_input(exc, {"lengths": tr("confusions.aggregation.lengths")})
        return
    q_state = {"lengths": tuple(lengths)}
    held = _held("aggregation", q_state)
    asked = QUESTIONS["aggregation"].fields(q_state)["mode"]  # the mode the question asks about
    fig_labels = labels(
        "confusions.aggregation",
        "per_token",
        "share",
        **{f"response.{i}": tr("confusions.response", i=i, n=n) for i, n in enumerate(lengths)},
    )
    # before the commit the figure leaves out the mode asked about: its bars are the answer
    shown = weights[weights["mode"] != asked] if held else weights
    chart(P.aggregation_figure(shown, fig_labels), "cf_agg_chart")
    if held:
        _left_out(asked)
    _ask("aggregation", q_state)
    with _explain("aggregation"):
        if held:
            held_note()
        else:
            long_i = max(range(len(lengths)), key=lambda i: lengths[i])
            share = weights.set_index(["mode", "response"])["share"]
            st.markdown(
                tr(
                    "confusions.aggregation.reading",
                    long=lengths[long_i],
                    tm_share=_pct(share[("token-mean", long_i)]),
                    sm_share=_pct(share[("seq-mean-token-mean", long_i)]),
                    B=len(lengths),
                )
            )
        st.caption(tr("confusions.aggregation.table_note"))
        names = X.mode_names().rename(
            columns={
                "mode": tr("confusions.aggregation.col_mode"),
                "papers": tr("confusions.aggregation.col_papers"),
                "trl": "TRL",
                "verl": "verl",
            }
        )
        st.dataframe(names.replace("", tr("word.none")), hide_index=True)
    if not held:
        csv_download(weights, "confusions-aggregation", key="cf_agg_csv")


# ------------------------------------------------------------------------------------------ 2. micro-batches
@fragment
def microbatch_section() -> None:
    _head("microbatch")
    c1, c2, c3 = st.columns(3)
    len_text = c1.text_input(
        tr("confusions.microbatch.lengths"), "200, 10, 10, 10", key="cf_mb_len", bind="query-params"
    )
    adv_text = c2.text_input(
        tr("confusions.microbatch.advantages"), "1, -1, 1, -1", key="cf_mb_adv", bind="query-params"
    )
    k = c3.number_input(
        tr("confusions.microbatch.k"),
        1,
        64,
        2,
        key="cf_mb_k",
        help=tr("confusions.microbatch.k_help"),
        bind="query-params",
    )
    fields = {
        "lengths": tr("confusions.microbatch.lengths"),
        "advantages": tr("confusions.microbatch.advantages"),
        "micro_batches": tr("confusions.microbatch.k"),
    }
    try:
        lengths, advantages = parse_group(len_text, adv_text)
        result = X.microbatch_weights(lengths, advantages, int(k))
    except ValueError as exc:
        show_bad_input(exc, fields)
        return
    q_state = {"lengths": tuple(lengths), "advantages": tuple(advantages), "micro_batches": int(k)}
    held = _held("microbatch", q_state)
    frame = result.frame
    ticks = {
        f"response.{int(r.response)}": tr(
            "confusions.microbatch.tick", i=int(r.response), n=int(r.length), j=int(r.micro_batch) + 1
        )
        for r in frame.itertuples()
    }
    fig_labels = labels("confusions.microbatch", "global", "micro", "weight", **ticks)
    # before the commit only the global token-mean: the bars per micro-batch beside it are the answer
    series = ("global",) if held else ("global", "micro")
    chart(P.microbatch_figure(frame, fig_labels, series=series), "cf_mb_chart")
    if held:
        _left_out(fig_labels["micro"])
    _ask("microbatch", q_state)
    with _explain("microbatch"):
        if held:
            held_note()
        else:
            st.markdown(
                tr(
                    "confusions.microbatch.reading",
                    loss_global=f"{result.loss_global:.4g}",
                    loss_micro=f"{result.loss_micro:.4g}",
                    micro_tokens=" / ".join(map(str, result.micro_tokens)),
                )
            )
    if not held:
        csv_download(frame, "confusions-microbatches", key="cf_mb_csv")


# ------------------------------------------------------------------------------------------ 3. ratio = 1
@st.cache_data(show_spinner=False, max_entries=32)
def _updates(mu: int, mini_batches: int, lr: float, seed: int, model_dir, device) -> pd.DataFrame:
    # loads its own model copy and returns a plain frame: nothing mutable is shared between sessions
    return X.ratio_by_update(mu, mini_batches, lr, seed, UPDATE_PROMPTS, UPDATE_G, model_dir=model_dir, device=device)


@fragment
def ratio_section() -> None:
    _head("ratio_one")
    c1, c2, c3 = st.columns(3)
    mu = c1.slider(tr("confusions.ratio_one.mu"), 1, 4, 2, key="cf_mu", bind="query-params")
    mb = c2.slider(tr("confusions.ratio_one.mb"), 1, 4, 2, key="cf_mb", bind="query-params")
    lr = c3.select_slider(
        tr("confusions.ratio_one.lr"), LRS, value=1e-4, format_func="{:g}".format, key="cf_lr", bind="query-params"
    )
    st.caption(tr("confusions.ratio_one.note", prompts=UPDATE_PROMPTS, G=UPDATE_G))
    fields = {
        "mu": tr("confusions.ratio_one.mu"),
        "mini_batches": tr("confusions.ratio_one.mb"),
        "lr": tr("confusions.ratio_one.lr"),
        "device": tr("side.device"),
        "model_dir": tr("side.model", model=state.get("model_dir") or tr("side.model_tiny")),
    }
    try:
        with st.spinner(tr("confusions.running")):
            frame = _updates(int(mu), int(mb), float(lr), SEED, state.get("model_dir"), state.get("device", "auto"))
    except ValueError as exc:
        show_bad_input(exc, fields)
        return
    except Exception as exc:  # noqa: BLE001 -- the page boundary: a message, never a traceback
        st.error(tr("confusions.failed", error=escape_markdown(f"{type(exc).__name__}: {exc}")))
        return
    q_state = {
        "mu": int(mu),
        "mini_batches": int(mb),
        "lr": float(lr),
        "clip": tuple(round(float(c), 6) for c in frame["clip_fraction"]),
        "dev": tuple(round(float(d), 6) for d in frame["max_dev"]),
    }
    held = _held("ratio_one", q_state)  # the figure is the answer: drawn once the question is answered
    if held:
        held_note()
    else:
        fig_labels = labels(
            "confusions.ratio_one", "ratio_panel", "clip_panel", "update", "ratio", "clip", "mean", "range", "tick"
        )
        chart(P.update_figure(frame, fig_labels), "cf_ratio_chart")
    _ask("ratio_one", q_state)
    with _explain("ratio_one"):
        if held:
            held_note()
        else:
            first, later = frame.iloc[0], frame.iloc[1:]
            values = {
                "first_min": f"{first.ratio_min:.4f}",
                "first_max": f"{first.ratio_max:.4f}",
                "first_clip": _pct(first.clip_fraction),
            }
            if len(later):
                values |= {
                    "later_min": f"{later.ratio_min.min():.3f}",
                    "later_max": f"{later.ratio_max.max():.3f}",
                    "later_clip": _pct(later.clip_fraction.max()),
                }
                st.markdown(tr("confusions.ratio_one.reading", **values))
            else:
                st.markdown(tr("confusions.ratio_one.reading_single", **values))
    if not held:
        csv_download(frame, "confusions-ratio-per-update", key="cf_ratio_csv")


# ------------------------------------------------------------------------------------------ 4. token vs sequence
@fragment
def sequence_section() -> None:
    _head("sequence")
    c1, c2 = st.columns([3, 1])
    text = c1.text_input(
        tr("confusions.sequence.log_ratios"),
        "0.02, -0.01, 0.35, 0.01, -0.02, 0.03, -0.25, 0.01",
        key="cf_seq_lr",
        help=tr("confusions.sequence.log_ratios_help"),
        bind="query-params",
    )
    sign = c2.radio(
        tr("confusions.sequence.sign"),
        list(SIGNS),
        format_func=SIGNS.get,
        horizontal=True,
        key="cf_seq_A",
        bind="query-params",
    )
    try:
        log_ratios = X.parse_log_ratios(text)
        df = X.token_vs_sequence(log_ratios, float(sign))
    except ValueError as exc:
        show_bad_input(
            exc, {"log_ratios": tr("confusions.sequence.log_ratios"), "advantage": tr("confusions.sequence.sign")}
        )
        return
    q_state = {"log_ratios": tuple(log_ratios), "advantage": float(sign)}
    held = _held("sequence", q_state)
    token, seq = X.RATIO_PAIR
    fig_labels = labels(
        "confusions.sequence",
        "ratio_panel",
        "push_panel",
        position=tr("word.position"),
        ratio=tr("confusions.clip.ratio_axis"),
        push=tr("confusions.clip.push"),
        **{f"state.{s}": tr(f"weighting.state_{s}") for s in TOKEN_STATES},
        **{f"title.{n}": ALGORITHMS[n].title for n in X.RATIO_PAIR},
    )
    # before the commit only the token-level objective: the sequence-level one's markers are the answer
    chart(P.sequence_figure(df[df.algorithm == token] if held else df, fig_labels), "cf_seq_chart")
    if held:
        _left_out(ALGORITHMS[seq].title)
    _ask("sequence", q_state)
    with _explain("sequence"):
        if held:
            held_note()
        else:
            f = X.fields_sequence(q_state)
            n_seq = int((df[df.algorithm == seq].state == "clipped").sum())
            st.markdown(tr("confusions.sequence.reading", n_seq=n_seq, **f))
    if not held:
        csv_download(df, "confusions-token-vs-sequence", key="cf_seq_csv")


# ------------------------------------------------------------------------------------------ 5. sampler vs trainer
@st.cache_data(show_spinner=False, max_entries=16)
def _gap(seed: int, dtype: str, cap: float, model_dir, device) -> X.GapResult:
    # loads its own model copy and returns plain frames: nothing mutable is shared between sessions
    return X.sampler_trainer_gap(seed, GAP_PROMPTS, GAP_G, dtype, cap, model_dir, device)


@fragment
def sampler_section() -> None:
    _head("sampler")
    c1, c2 = st.columns(2)
    dtype = c1.radio(
        tr("confusions.sampler.dtype"),
        list(X.SAMPLER_DTYPES),
        horizontal=True,
        key="cf_dtype",
        help=tr("confusions.sampler.dtype_help"),
        bind="query-params",
    )
    cap = c2.slider(
        tr("confusions.sampler.cap"),
        1.0,
        5.0,
        2.0,
        0.01,
        key="cf_cap",
        help=tr("confusions.sampler.cap_help"),
        bind="query-params",
    )
    fields = {
        "sampler_dtype": tr("confusions.sampler.dtype"),
        "cap": tr("confusions.sampler.cap"),
        "device": tr("side.device"),
        "model_dir": tr("side.model", model=state.get("model_dir") or tr("side.model_tiny")),
    }
    try:
        with st.spinner(tr("confusions.running")):
            result = _gap(SEED, str(dtype), float(cap), state.get("model_dir"), state.get("device", "auto"))
    except ValueError as exc:
        show_bad_input(exc, fields)
        return
    except Exception as exc:  # noqa: BLE001 -- the page boundary: a message, never a traceback
        st.error(tr("confusions.failed", error=escape_markdown(f"{type(exc).__name__}: {exc}")))
        return
    s = result.summary()
    q_state = {
        "dtype": str(dtype),
        "gap_max": round(s["gap_max"], 9),
        "gap_std": round(s["gap_std"], 9),
        "ppo_max": round(s["ppo_max"], 9),
    }
    held = _held("sampler", q_state)  # both panels and every number below show which ratio moved
    if held:
        held_note()
    else:
        fig_labels = labels("confusions.sampler", "gap_panel", "ppo_panel", "gap_x", "ppo_x", "log_ratio", "tokens")
        chart(P.gap_figure(result.tokens, result.cap, fig_labels), "cf_gap_chart")
        m1, m2, m3, m4 = st.columns(4)
        m1.metric(tr("confusions.sampler.metric_gap"), f"{s['gap_max']:.3g}")
        m2.metric(tr("confusions.sampler.metric_above"), _pct(s["above_cap"]))
        m3.metric(tr("confusions.sampler.metric_tis"), f"{s['tis_mean']:.4f}")
        m4.metric(tr("confusions.sampler.metric_seq"), f"{s['seq_min']:.3f}…{s['seq_max']:.3f}")
    _ask("sampler", q_state)
    tokens = result.tokens
    with _explain("sampler"):
        if held:
            held_note()
        else:
            st.markdown(
                tr(
                    "confusions.sampler.reading",
                    tokens=int(s["tokens"]),
                    r_min=f"{tokens.is_ratio.min():.4f}" if len(tokens) else "1",
                    r_max=f"{tokens.is_ratio.max():.4f}" if len(tokens) else "1",
                    above=_pct(s["above_cap"]),
                    cap=f"{result.cap:g}",
                    tis=f"{s['tis_mean']:.4f}",
                    seq_min=f"{s['seq_min']:.4f}",
                    seq_max=f"{s['seq_max']:.4f}",
                )
            )
    if not held:
        csv_download(tokens, "confusions-sampler-trainer", key="cf_gap_csv")


# ------------------------------------------------------------------------------------------ 6. KL
@fragment
def kl_section() -> None:
    _head("kl")
    distance = st.slider(
        tr("confusions.kl.distance"),
        0.1,
        2.0,
        0.5,
        0.1,
        key="cf_kl_d",
        help=tr("confusions.kl.distance_help"),
        bind="query-params",
    )
    q_state = {"distance": float(distance), "seed": SEED}
    try:
        table = X.kl_expected_gradients(float(distance), seed=SEED)
        curves = X.kl_curves()
    except ValueError as exc:
        show_bad_input(exc, {"distance": tr("confusions.kl.distance")})
        return
    held = _held("kl", q_state)  # the table of gradient errors is the answer; the curves are not
    fig_labels = labels("confusions.kl", "value_panel", "grad_panel", "x", "value", "grad", "loss", "reward")
    x_mark = 0.5
    chart(P.kl_figure(curves, x_mark, fig_labels), "cf_kl_chart")
    _ask("kl", q_state)
    with _explain("kl"):
        at = curves[(curves.x - x_mark).abs() < 1e-9].set_index("estimator")
        st.markdown(
            tr(
                "confusions.kl.reading",
                x=f"{x_mark:g}",
                l1=f"{at.loc['k1', 'grad_loss']:.3f}",
                l2=f"{at.loc['k2', 'grad_loss']:.3f}",
                l3=f"{at.loc['k3', 'grad_loss']:.3f}",
                r1=f"{at.loc['k1', 'grad_reward']:.3f}",
            )
        )
        if held:
            held_note()
        else:
            st.caption(tr("confusions.kl.table_note", kl=f"{float(table.kl.iloc[0]):.4f}"))
            shown = pd.DataFrame(
                {
                    tr("confusions.kl.col_route"): [tr(f"confusions.kl.route.{r}") for r in table.route],
                    tr("confusions.kl.col_estimator"): table.estimator,
                    tr("confusions.kl.col_value"): table.expected_value.map("{:.4f}".format),
                    tr("confusions.kl.col_error"): table.rel_error.map("{:.3f}".format),
                }
            )
            st.dataframe(shown, hide_index=True)
    if not held:
        csv_download(table, "confusions-kl-gradients", key="cf_kl_csv")


# ------------------------------------------------------------------------------------------ 7. std division
@fragment
def difficulty_section() -> None:
    _head("difficulty")
    c1, c2 = st.columns(2)
    G = c1.slider(tr("confusions.difficulty.G"), 2, 32, 8, key="cf_G", bind="query-params")
    p = c2.slider(tr("confusions.difficulty.p"), 0.05, 0.95, 0.9, 0.05, key="cf_p", bind="query-params")
    try:
        df = X.difficulty_curve(int(G))
    except ValueError as exc:
        show_bad_input(exc, {"group_size": tr("confusions.difficulty.G"), "pass_rate": tr("confusions.difficulty.p")})
        return
    q_state = {"group_size": int(G), "p": round(float(p), 4)}
    held = _held("difficulty", q_state)
    fig_labels = labels(
        "confusions.difficulty",
        "group",
        "none",
        relative=tr("confusions.difficulty.relative"),
        p=tr("confusions.difficulty.p_axis"),
    )
    # before the commit only the curve without the std division: the other one is the answer
    series = ("none",) if held else ("group", "none")
    chart(P.difficulty_figure(df, float(p), fig_labels, series=series), "cf_diff_chart")
    if held:
        _left_out(fig_labels["group"])
    _ask("difficulty", q_state)
    with _explain("difficulty"):
        if held:
            held_note()
        else:
            edge = float(df.p.iloc[-1])
            f = X.fields_difficulty(q_state)
            edge_f = X.fields_difficulty({"group_size": int(G), "p": edge})
            st.markdown(
                tr(
                    "confusions.difficulty.reading",
                    p=f["p"],
                    group=f["group"],
                    none=f["none"],
                    p_edge=f"{edge:.2f}",
                    group_edge=edge_f["group"],
                    none_edge=edge_f["none"],
                )
            )
    if not held:
        csv_download(df, "confusions-difficulty", key="cf_diff_csv")


# ------------------------------------------------------------------------------------------ 8. clip bounds
@fragment
def clip_section() -> None:
    _head("clip")
    spec = ALGORITHMS[X.CLIP_ALGORITHM]
    names = {n: spec.setting(n) for n in ("epsilon_low", "epsilon_high", "dual_clip_c")}
    label = {
        "epsilon_low": tr("confusions.clip.eps_low", trl=names["epsilon_low"].trl, verl=names["epsilon_low"].verl),
        "epsilon_high": tr("confusions.clip.eps_high", trl=names["epsilon_high"].trl, verl=names["epsilon_high"].verl),
        "dual_clip_c": tr("confusions.clip.c", trl=names["dual_clip_c"].trl, verl=names["dual_clip_c"].verl),
    }
    c1, c2 = st.columns(2)
    eps_low = c1.slider(label["epsilon_low"], 0.0, 0.9, 0.2, 0.01, key="cf_el", bind="query-params")
    eps_high = c2.slider(label["epsilon_high"], 0.0, 1.0, 0.28, 0.01, key="cf_eh", bind="query-params")
    c3, c4 = st.columns([1, 3], vertical_alignment="center")
    dual_on = c3.toggle(tr("confusions.clip.dual_on"), value=True, key="cf_dual", bind="query-params")
    c = c4.slider(label["dual_clip_c"], 1.1, 10.0, 3.0, 0.1, key="cf_c", disabled=not dual_on, bind="query-params")
    c5, c6 = st.columns([3, 1])
    r = c5.slider(tr("confusions.clip.ratio"), 0.05, 10.0, 2.0, 0.05, key="cf_r", bind="query-params")
    sign = c6.radio(
        tr("confusions.clip.sign"),
        list(SIGNS),
        index=1,
        format_func=SIGNS.get,
        horizontal=True,
        key="cf_clip_A",
        bind="query-params",
    )
    dual = float(c) if dual_on else None
    try:
        df = X.clip_cases(float(eps_low), float(eps_high), dual)
    except ValueError as exc:
        show_bad_input(exc, label)
        return
    q_state = {
        "epsilon_low": float(eps_low),
        "epsilon_high": float(eps_high),
        "dual_clip_c": dual,
        "ratio": float(r),
        "advantage": float(sign),
    }
    held = _held("clip", q_state)  # the figure colours each ratio by what stops it: the answer
    if held:
        held_note()
    else:
        fig_labels = labels(
            "confusions.clip",
            "positive",
            "negative",
            "push",
            ratio=tr("confusions.clip.ratio_axis"),
            **{f"bound.{b}": tr(f"confusions.clip.bound.{b}") for b in X.BOUNDS},
        )
        chart(P.clip_figure(df, float(eps_low), float(eps_high), dual, fig_labels), "cf_clip_chart")
    _ask("clip", q_state)
    with _explain("clip"):
        if held:
            held_note()
        else:
            counts = df["bound"].value_counts()
            f = X.fields_clip(q_state)
            st.markdown(
                tr(
                    "confusions.clip.reading",
                    low=f["low"],
                    high=f["high"],
                    c=f["c"],
                    n=len(df),
                    n_low=int(counts.get("eps_low", 0)),
                    n_high=int(counts.get("eps_high", 0)),
                    n_c=int(counts.get("c", 0)),
                )
            )
    if not held:
        csv_download(df, "confusions-clip-cases", key="cf_clip_csv")


# ------------------------------------------------------------------------------------------ 9. token-count window
@fragment
def window_section() -> None:
    _head("window")
    c1, c2, c3 = st.columns([2, 1, 1])
    len_text = c1.text_input(
        tr("confusions.window.lengths"),
        "40, 10, 20, 20, 10, 30, 20, 10",
        key="cf_win_len",
        help=tr("confusions.window.lengths_help"),
        bind="query-params",
    )
    steps = c2.number_input(
        tr("confusions.window.steps"),
        1,
        64,
        4,
        key="cf_win_k",
        help=tr("confusions.window.steps_help"),
        bind="query-params",
    )
    window = c3.number_input(
        tr("confusions.window.window"),
        1,
        64,
        4,
        key="cf_win_w",
        help=tr("confusions.window.window_help"),
        bind="query-params",
    )
    fields = {
        "lengths": tr("confusions.window.lengths"),
        "steps": tr("confusions.window.steps"),
        "window": tr("confusions.window.window"),
    }
    try:
        lengths = X.parse_lengths(len_text)
        df = X.token_count_window(lengths, int(steps), int(window))
    except ValueError as exc:
        show_bad_input(exc, fields)
        return
    q_state = {"lengths": tuple(lengths), "steps": int(steps), "window": int(window)}
    held = _held("window", q_state)
    fig_labels = labels(
        "confusions.window",
        "tokens",
        "counted",
        "scale",
        "tokens_panel",
        "scale_panel",
        "step",
        "tokens_axis",
        "scale_axis",
    )
    # before the commit only the steps' own tokens: the tokens counted and their ratio are the answer
    series = ("tokens",) if held else ("tokens", "counted", "scale")
    chart(P.window_figure(df, fig_labels, series=series), "cf_win_chart")
    if held:
        _left_out(f"{fig_labels['counted']}, {fig_labels['scale']}")
    _ask("window", q_state)
    with _explain("window"):
        if held:
            held_note()
        else:
            scales = " · ".join(f"{v:.3g}×" for v in df.scale)
            st.markdown(tr("confusions.window.reading", k=len(df), scales=scales))
    if not held:
        csv_download(df, "confusions-token-count-window", key="cf_win_csv")


# ------------------------------------------------------------------------------------------ 10. sequence weights
@fragment
def drift_section() -> None:
    _head("drift")
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
        help=tr("confusions.drift.drift_help"),
        bind="query-params",
    )
    cap = c2.slider(
        tr("confusions.drift.cap"),
        1.5,
        10.0,
        default_cap,
        0.5,
        key="cf_drift_cap",
        help=tr("confusions.drift.cap_help", default=f"{default_cap:g}"),
        bind="query-params",
    )
    try:
        df = X.drift_curve(float(drift), float(cap))
        at = X.sequence_weight_drift(float(drift), [X.REPORT_LENGTH], float(cap))
    except ValueError as exc:
        show_bad_input(exc, {"drift": tr("confusions.drift.drift"), "cap": tr("confusions.drift.cap")})
        return
    q_state = {"drift": round(float(drift), 6), "cap": round(float(cap), 6)}
    held = _held("drift", q_state)
    fig_labels = labels("confusions.drift", "token", "product", "truncate", "mask", "length", "weight")
    # before the commit only each token's ratio: the product and where the mask drops it are the answer
    series = ("token",) if held else ("token", "product", "truncate", "mask")
    chart(P.drift_figure(df, float(cap), fig_labels, series=series), "cf_drift_chart")
    if held:
        _left_out(tr("confusions.drift.left_out"))
    _ask("drift", q_state)
    with _explain("drift"):
        if held:
            held_note()
        else:
            f = X.fields_drift(q_state)
            st.markdown(
                tr(
                    "confusions.drift.reading",
                    L=X.REPORT_LENGTH,
                    w_L=f"{float(at['product'].iloc[0]):.3f}",
                    ratio=f["ratio"],
                    first=X.first_masked_length(float(drift), float(cap)),
                )
            )
    if not held:
        csv_download(df, "confusions-sequence-weight-drift", key="cf_drift_csv")


# ------------------------------------------------------------------------------------------ 11. GDPO vs GRPO
@fragment
def gdpo_section() -> None:
    _head("gdpo")
    c1, c2 = st.columns(2)
    first = c1.text_input(
        tr("confusions.gdpo.reward_1"),
        "1, 0, 0, 0; 1, 1, 0, 0",
        key="cf_gdpo_r1",
        help=tr("confusions.gdpo.rewards_help"),
        bind="query-params",
    )
    second = c2.text_input(
        tr("confusions.gdpo.reward_2"),
        "0, 1, 1, 0; 1, 1, 0, 0",
        key="cf_gdpo_r2",
        help=tr("confusions.gdpo.rewards_help"),
        bind="query-params",
    )
    fields = {
        "reward_1": tr("confusions.gdpo.reward_1"),
        "reward_2": tr("confusions.gdpo.reward_2"),
        "components": tr("confusions.gdpo.reward_2"),
    }
    try:
        components = X.parse_components(first, second)
        df = X.gdpo_vs_grpo(components)
    except ValueError as exc:
        show_bad_input(exc, fields)
        return
    q_state = {"components": tuple(tuple(tuple(r) for r in g) for g in components)}
    held = _held("gdpo", q_state)
    fig_labels = labels("confusions.gdpo", "grpo", "gdpo", "advantage", "tick")
    # before the commit only GRPO: GDPO's bars are the answer
    series = ("grpo",) if held else ("grpo", "gdpo")
    chart(P.gdpo_figure(df, fig_labels, series=series), "cf_gdpo_chart")
    if held:
        _left_out(fig_labels["gdpo"])
    _ask("gdpo", q_state)
    with _explain("gdpo"):
        if held:
            held_note()
        else:
            spread = X.group_spread(df)
            st.markdown(
                tr(
                    "confusions.gdpo.reading",
                    grpo_std=" · ".join(f"{v:.3f}" for v in spread.grpo),
                    gdpo_std=" · ".join(f"{v:.3f}" for v in spread.gdpo),
                )
            )
    if not held:
        csv_download(df, "confusions-gdpo-vs-grpo", key="cf_gdpo_csv")


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
