"""Token vs sequence weighting: how each objective spreads one group's gradient over its tokens.

Four sections, each a fragment (its widgets rerun only its part): a hand-made group under the four
aggregation modes and every objective of the registry (on-policy); one response with a few off-policy
tokens; token-ratio noise vs GSPO's sequence ratio as length grows; a real group from the tiny LM after
one optimizer step. Widgets -> one call into ``rlviz.experiments.weighting`` -> figure builders in
``rlviz.plots.weighting`` (and ``rlviz.plots.token_weight_figure``).

The page template (CONTRIBUTING.md): the first section opens with the title and lede, the two fields
of the group, then its figure; the questions come after it, and while one waits for the learner
(``answers_held``) nothing states its answer (the figure has no value labels, the table of weights and
the sentence of the token-mean weight are a note). Each later section: a lead line, its controls and
figure, its explanation in a "How to read this" block.

Nothing here branches on an algorithm's name: the choices offered, counts, lists and the sentences
that read the figures come from ``ALGORITHMS`` (read on every run) and from each spec's
``trust_region`` / ``ratio_level``, so an entry added to the registry shows up here as it is.
"""

from __future__ import annotations

import json
import math

import numpy as np
import streamlit as st

from app_common import (
    chart,
    csv_download,
    ensure_shell,
    escape_markdown,
    export_configs,
    figure_cache,
    fragment,
    labels,
    lang,
    predict,
    show_bad_input,
    tr,
)
from app_common.predictions import answers_held, held_note
from app_common.template import notes, page_top, practitioners
from rlviz.core.aggregation import LOSS_AGG_MODES
from rlviz.core.objectives import ALGORITHMS, TOKEN_STATES
from rlviz.experiments import weighting as W
from rlviz.plots import ordered, token_weight_figure
from rlviz.plots.weighting import aggregation_figure, format_number, noise_figure, offpolicy_figure
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
# how a list of names and a list of groups are joined in running text, per language
SEPARATORS = {"en": (", ", "; "), "zh": ("、", "；")}


def _join(names, level: int = 0) -> str:
    """``names`` joined as running text in the session's language (level 0: names, 1: groups)."""
    return SEPARATORS.get(L, SEPARATORS["en"])[level].join(names) or tr("word.none")


def _defaults(names) -> list[str]:
    """The default choices that the registry still holds (a multiselect default must be an option)."""
    return [n for n in names if n in ALGORITHMS]


def _registry() -> str:
    """What the cached results below read from the registry, as one short key: each entry's name,
    identity and title, in registry order. An entry added, removed, replaced or reordered
    (``monkeypatch.setitem(ALGORITHMS, ...)``) changes the key, so a cache never answers for another
    registry. One string, because ``st.cache_data`` hashes a string at once and a tuple item by item."""
    return "|".join(f"{n}:{id(spec)}:{spec.title}" for n, spec in ALGORITHMS.items())


def _words(words) -> str:
    """A figure's ``labels`` (or a list of texts) as one JSON text: the cache key of the words a
    figure shows (one string hashes at once); the cached function gets them back with ``json.loads``."""
    return json.dumps(words, ensure_ascii=False)


def _share(x: float) -> str:
    """A share as a whole percentage that never reads 0% or 100% when it is neither."""
    if 0 < x < 0.01:
        return "<1%"
    if 0.99 < x < 1:
        return ">99%"
    return f"{x:.0%}"


# the parameter each library error starts with -> the label of the widget that sets it, per section
AGG_FIELDS = {
    "lengths": tr("weighting.lengths"),
    "advantages": tr("weighting.advantages"),
    "norm_length": tr("weighting.lmax"),
}
OFF_FIELDS = {
    "length": tr("weighting.length"),
    "n_outliers": tr("weighting.n_outliers"),
    "outlier_ratio": tr("weighting.outlier_ratio"),
    "advantage": tr("weighting.sign"),
    "noise_std": tr("weighting.noise"),
}
NOISE_FIELDS = {"sigma": tr("weighting.sigma"), "n_responses": tr("weighting.n_samples")}
REAL_FIELDS = {
    "prompt": tr("weighting.prompt"),
    "group_size": tr("weighting.group_size"),
    "lr": tr("weighting.lr"),
    "device": tr("side.device"),
    "model_dir": tr("side.model", model=state.get("model_dir") or tr("side.model_tiny")),
}


# ---------------------------------------------------------------------------------------- 1. aggregation
@st.cache_data(show_spinner=False, max_entries=64)
def _aggregation(lengths: tuple, advantages: tuple, lmax: int, registry: str):
    return W.aggregation_table(list(lengths), list(advantages), lmax)


@st.cache_data(show_spinner=False, max_entries=64)
def _aggregation_view(lengths: tuple, advantages: tuple, lmax: int, registry: str, rows: str):
    """What the section writes out from the table: the per-token weights as a table, responses
    (``rows``, their labels as JSON) x modes (the numbers of the upper panel); the claim's
    per-response weights under seq-mean-token-mean; token-mean's weight."""
    modes = _aggregation(lengths, advantages, lmax, registry)
    modes = modes[modes["kind"] == "mode"]
    pivot = modes.pivot(index="response", columns="name", values="token_weight")[list(LOSS_AGG_MODES)]
    pivot.index = [json.loads(rows)[i] for i in pivot.index]
    smtm = modes[modes["name"] == "seq-mean-token-mean"]
    per_response = "; ".join(
        f"#{int(r.response)}: (1/{int(r.length)})·(1/{len(lengths)}) = {r.token_weight:.3g}" for r in smtm.itertuples()
    )
    tm = float(modes.loc[modes["name"] == "token-mean", "token_weight"].iloc[0])
    return pivot.map(lambda v: format_number(v, ".4g")), per_response, tm


@figure_cache
def _aggregation_chart(
    lengths: tuple, advantages: tuple, lmax: int, kind: str, words: str, registry: str, show_text: bool = False
):
    table = _aggregation(lengths, advantages, lmax, registry)
    # stacked: each panel over the page's width (a 1024 px window has no room for two of them side by side)
    return aggregation_figure(table, kind, json.loads(words), show_text=show_text, stacked=True)


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
        table = _aggregation(*setting, _registry())
    except ValueError as exc:
        with figure:  # in the figure's place, under the fields: the rest of the page is drawn
            show_bad_input(exc, AGG_FIELDS)
        return
    B, N = len(lengths), sum(lengths)
    asked = state_from_settings("weighting", state)
    # before the commit nothing in view states the answers: no value labels, table or claim
    held = answers_held(PREDICTIONS["weighting"], asked)
    responses = {
        i: tr("weighting.response_label", i=i, n=n, adv=format_number(a, "+g"))
        for i, (n, a) in enumerate(zip(lengths, advantages))
    }
    agg_labels = labels(
        "weighting",
        "per_token",
        "per_response",
        push=tr("word.grad_weight"),
        advantage=tr("word.advantage"),
        **{f"response.{i}": text for i, text in responses.items()},
    )
    words = _words(agg_labels)
    lmax_note.markdown(tr("weighting.lmax_note", lmax=int(lmax), B=B, w=f"{1 / (B * int(lmax)):.3g}"))
    with figure:
        chart(_aggregation_chart(*setting, "mode", words, _registry(), not held), "wt_modes_chart")
    # predict, then check: the figure above has no value labels until the learner commits
    with st.expander(tr("teach.header"), expanded=True):
        st.caption(tr("teach.intro"))
        cols = st.columns(len(PREDICTIONS["weighting"]), border=True)
        for col, prediction in zip(cols, PREDICTIONS["weighting"]):
            with col:
                predict(prediction, asked)
    with notes():
        st.markdown(f"**{tr('weighting.agg_header')}**")
        st.markdown(tr("weighting.intro"))
        st.markdown(tr("weighting.agg_intro"))
    left, right = st.columns(2, gap="medium")
    with left:
        # each mode's name on its own line above its weight: narrow enough for a 1024 px window
        st.latex(
            r"\small\begin{aligned}"
            r"&\text{token-mean:}\\ &\quad w_{i,t}=\frac{1}{\sum_j L_j}\\"
            r"&\text{seq-mean-token-mean:}\\ &\quad w_{i,t}=\frac{1}{B\,L_i}\\"
            r"&\text{seq-mean-token-sum:}\\ &\quad w_{i,t}=\frac{1}{B}\\"
            r"&\text{seq-mean-token-sum-norm:}\\ &\quad w_{i,t}=\frac{1}{B\,L_\text{max}}"
            r"\end{aligned}"
        )
    with right:
        # the loss, the push g of a token, and the push on-policy: one short line each
        st.latex(
            r"\small\begin{aligned}\mathcal L&=\sum_{i,t} w_{i,t}\,\lambda_{i,t}\\"
            r"g_{i,t}&=-\frac{\partial\mathcal L}{\partial\log\pi_{i,t}}\\"
            r"g_{i,t}\big|_{r=1}&=A_i\,w_{i,t}\end{aligned}"
        )
    if held:  # the table of weights and the sentence that states the token-mean answer
        held_note()
    else:
        shown, per_response, tm = _aggregation_view(*setting, _registry(), _words(list(responses.values())))
        st.dataframe(shown)
        with st.container(key="answers_wt_claim"):  # a sentence that states an answer (rlviz.plots.lessons)
            st.markdown(tr("weighting.claim5", per_response=per_response, N=N, tm=f"{tm:.3g}"))
    st.markdown(tr("weighting.length_bias"))

    groups = []
    for mode in LOSS_AGG_MODES:
        names = [titles[n] for n, spec in ALGORITHMS.items() if spec.defaults.get("loss_agg_mode") == mode]
        if names:
            groups.append(tr("weighting.mode_group", mode=mode, names=_join(names)))
    st.markdown(tr("weighting.algos_intro", n=len(ALGORITHMS), groups=_join(groups, 1)))
    # names: the registry titles; no value labels
    chart(_aggregation_chart(*setting, "algorithm", words, _registry()), "wt_algos_chart")
    sequence = [titles[n] for n, spec in ALGORITHMS.items() if spec.ratio_level == "sequence"]
    st.caption(tr("weighting.algos_caption", sequence=_join(sequence)))
    csv_download(table, "weighting-aggregation", key="wt_agg_csv")
    with practitioners():
        st.markdown(tr("weighting.practitioners"))
        group = {"prompts_per_step": 1, "group_size": B, "mini_batches": 1} if B > 1 else {}
        export_configs(  # GRPO with each aggregation, on the page's group and L_max: one tab each
            {m: ("grpo", {"loss_agg_mode": m}, None, {"max_new_tokens": int(lmax), **group}) for m in LOSS_AGG_MODES},
            key="wt_export",
        )


# ---------------------------------------------------------------------------------------- 2. off-policy tokens
@st.cache_data(show_spinner=False, max_entries=64)
def _offpolicy(setting: tuple, registry: str):
    df = W.offpolicy_response(*setting)
    return df, W.offpolicy_summary(df)


@figure_cache
def _offpolicy_chart(setting: tuple, words: str, registry: str):
    return offpolicy_figure(_offpolicy(setting, registry)[0], json.loads(words))


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
        default=_defaults(W.OFFPOLICY_ALGORITHMS),
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
        df, summary = _offpolicy(setting, _registry())
    except ValueError as exc:
        show_bad_input(exc, OFF_FIELDS)
        return
    parts = _split(df)
    panel_notes = {r.algorithm: _panel_note(parts[r.algorithm], r.total_relative) for r in summary.itertuples()}
    off_labels = labels(
        "weighting",
        "relative",
        "ratio_used",
        position=tr("word.position"),
        push=tr("word.grad_weight"),
        **{f"state.{s}": tr(f"weighting.state_{s}") for s in TOKEN_STATES},
        **{f"note.{a}": note for a, note in panel_notes.items()},
    )
    # panel names: the registry titles; the figure at the page's width (a panel's title whole at 1024 px)
    chart(_offpolicy_chart(setting, _words(off_labels), _registry()), "wt_off_chart")
    st.caption(tr("weighting.off_notes_caption"))
    left, right = st.columns(2, gap="medium")
    with left:  # short lines: each column is about 265 px wide on a 1024 px window with the sidebar open
        st.latex(r"r_t=\frac{\pi_\theta(y_t)}{\pi_\text{old}(y_t)}")
        st.latex(r"s=\Big(\prod_t r_t\Big)^{1/|y|}")
        st.latex(
            r"\small\begin{aligned}"
            r"g_t&=-\frac{\partial\mathcal L}{\partial\log\pi_t}\\"
            r"\text{GRPO: }g_t&=\frac{A\,r_t}{|y|}\\"
            r"\text{GSPO: }g_t&=\frac{A\,s}{|y|}\\"
            r"\text{SAPO: }g_t&=\frac{A\,f'_\tau(r_t)\,r_t}{|y|}"
            r"\end{aligned}"
        )
    with right:
        st.latex(
            r"\small\begin{gathered}f'_\tau(r)=4\,\sigma_\tau\,(1-\sigma_\tau)\\"
            r"\sigma_\tau=\sigma\big(\tau(r-1)\big)\end{gathered}"
        )
    st.caption(tr("weighting.off_formula_caption"))  # under both columns: a paragraph, not a narrow column
    st.markdown(_offpolicy_reading(parts, summary, int(length), int(k)))
    with notes():
        st.markdown(tr("weighting.off_intro"))
        st.markdown(tr("weighting.off_try"))
    table = summary.assign(algorithm=summary["algorithm"].map(titles))
    st.dataframe(
        W.no_negative_zero(table.round(4)).rename(columns={c: tr(f"weighting.col_{c}") for c in table.columns}),
        hide_index=True,
    )
    csv_download(df, "weighting-offpolicy", key="wt_off_csv")


def _split(df) -> dict[str, dict[str, np.ndarray]]:
    """The columns of an off-policy frame that the notes and the reading use, split once per
    algorithm (in the frame's order): ``{algorithm: {column: array}}``."""
    names = df["algorithm"].to_numpy()
    columns = {c: df[c].to_numpy() for c in ("state", "push", "ratio_used", "gate")}
    return {a: {c: v[names == a] for c, v in columns.items()} for a in dict.fromkeys(names)}


def _panel_note(d, total: float) -> str:
    """The short note after an algorithm's name in its off-policy panel: the share of its tokens in
    each state other than active (``TOKEN_STATES``), and its total push relative to on-policy.
    ``d``: that algorithm's columns (:func:`_split`)."""
    states = d["state"]
    shares = {s: float((states == s).mean()) for s in TOKEN_STATES if s != "active" and (states == s).any()}
    parts = [tr(f"weighting.note_{s}", share=_share(share)) for s, share in shares.items()]
    return tr(
        "weighting.panel_note",
        states=" · ".join(parts) or tr("weighting.note_active"),
        total=format_number(total, ".2f"),
    )


def _same_as(parts, algos) -> dict[str, tuple[str, float]]:
    """For each algorithm (in the order of ``algos``) whose push equals, token by token and to
    rounding, that of an earlier one: ``{name: (the earlier one, largest difference)}``."""
    pushes = {a: parts[a]["push"] for a in algos}
    same: dict[str, tuple[str, float]] = {}
    for i, a in enumerate(algos):
        for b in algos[:i]:
            if b not in same and np.allclose(pushes[a], pushes[b], rtol=1e-9, atol=1e-15):
                same[a] = (b, float(np.abs(pushes[a] - pushes[b]).max(initial=0.0)))
                break
    return same


def _offpolicy_reading(parts, summary, length: int, k: int) -> str:
    """What the numbers say, one sentence per algorithm on screen, chosen by what its spec says
    (``ratio_level``, ``trust_region``) and what its tokens did (their states), never by its name;
    an algorithm that pushes every token exactly as an earlier one does is said to match it."""
    by = {r.algorithm: r for r in summary.itertuples()}
    rest = length - k
    same = _same_as(parts, ordered(by))
    lines = []
    for algo in ordered(by):
        spec, r = ALGORITHMS[algo], by[algo]
        if algo in same:  # one sentence per distinct behaviour: this one repeats an earlier one
            first, diff = same[algo]
            lines.append(
                tr(
                    "weighting.read_same",
                    name=titles.get(algo, algo),
                    first=titles.get(first, first),
                    diff=f"{diff:.1e}",
                )
            )
            continue
        d = parts[algo]
        name = titles.get(algo, algo)
        rel = {"out": format_number(r.outlier_relative, ".2f"), "other": format_number(r.other_relative, ".2f")}
        n_clipped = int((d["state"] == "clipped").sum())
        s = f"{float(d['ratio_used'][0]):.4f}"
        free = d["push"][d["state"] != "clipped"]
        shared = len(free) > 0 and bool(np.allclose(free, free[0], rtol=1e-9, atol=1e-15))
        if spec.ratio_level == "sequence" and n_clipped == length:
            key = "weighting.read_seq_clipped" if k else "weighting.read_seq_clipped_none"
            lines.append(tr(key, name=name, s=s, k=k, rest=rest, L=length))
        elif spec.ratio_level == "sequence" and n_clipped == 0 and shared:
            key = "weighting.read_seq_kept" if k else "weighting.read_seq_kept_none"
            lines.append(tr(key, name=name, s=s, k=k, rest=rest, L=length))
        elif spec.ratio_level == "sequence" and shared:
            lines.append(tr("weighting.read_seq_mixed", name=name, n=n_clipped, L=length, s=s))
        elif "gated" in spec.trust_region and not np.isnan(d["gate"]).any():
            key = "weighting.read_gated" if k else "weighting.read_gated_none"
            lines.append(tr(key, name=name, gmin=f"{d['gate'].min():.3f}", gmax=f"{d['gate'].max():.3f}", **rel))
        elif "capped" in spec.trust_region and k:
            n_capped = int((d["state"] == "capped").sum())
            lines.append(
                tr("weighting.read_capped", name=name, n=n_capped, L=length, grad=_share(r.grad_tokens), **rel)
            )
        elif k:
            lines.append(tr("weighting.read_token", name=name, **rel))
    return "\n".join(f"- {line}" for line in lines)


# ---------------------------------------------------------------------------------------- 3. noise vs length
# the spinner shows only while a result is computed, never for one the cache holds
@st.cache_data(show_spinner=tr("weighting.noise_running"), max_entries=64)
def _noise(sigma: float, n: int, seed: int, registry: str):
    return W.noise_sweep(sigma, n, W.NOISE_LENGTHS, seed)


@st.cache_data(show_spinner=False, max_entries=64)
def _noise_numbers(sigma: float, n: int, seed: int, registry: str) -> dict[str, str]:
    """The numbers the section writes out from the sweep, formatted (no words: any language):
    each pair member's default ε (``eps.<algorithm>``) and those of the reading below the figure."""
    df = _noise(sigma, n, seed, registry)
    last = df.iloc[-1]
    return {
        **{f"eps.{a}": f"{df[f'{a}_epsilon_high'].iloc[0]:g}" for a in W.NOISE_PAIR},
        "slope": f"{W.fitted_slope(df):.2f}",
        "varl": f"{df['var_log_s_times_length'].mean():.2g}",
        "L": int(last.length),
        "std": f"{math.sqrt(last.var_log_s):.1e}",
        "gspo": f"{last.gspo_clip_fraction:.0%}",
        "grpo": f"{last.grpo_clip_fraction:.2%}",
        "eps_gspo": f"{last.gspo_epsilon_high:g}",
        "eps_grpo": f"{last.grpo_epsilon_high:g}",
        "product": f"{math.sqrt(last.var_log_product):.2g}",
    }


@figure_cache
def _noise_chart(sigma: float, n: int, seed: int, words: str, registry: str):
    return noise_figure(_noise(sigma, n, seed, registry), json.loads(words))


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
        df = _noise(float(sigma), int(n), SEED, _registry())
    except ValueError as exc:
        show_bad_input(exc, NOISE_FIELDS)
        return
    numbers = _noise_numbers(float(sigma), int(n), SEED, _registry())
    left, right = st.columns([2, 1], gap="medium")
    with left:
        noise_labels = labels(
            "weighting",
            "var_title",
            "clip_title",
            "length_axis",
            "var_s",
            "var_product",
            **{
                f"clip.{a}": tr(
                    f"weighting.clip_line.{ALGORITHMS[a].ratio_level}",
                    title=titles[a],
                    eps=numbers[f"eps.{a}"],
                )
                for a in W.NOISE_PAIR
            },
        )
        chart(_noise_chart(float(sigma), int(n), SEED, _words(noise_labels), _registry()), "wt_noise_chart")
    with right:  # the narrowest formula column: about 215 px on a 1024 px window with the sidebar open
        st.latex(r"\small\log s=\frac{1}{|y|}\sum_t\log r_t")
        st.latex(r"\small\begin{aligned}\log\prod_t r_t&=\sum_t\log r_t\\&=|y|\,\log s\end{aligned}")
        st.latex(r"\small\begin{gathered}\log r_t\sim\mathcal N(0,\sigma^2)\\\text{i.i.d.}\end{gathered}")
    reading = {k: v for k, v in numbers.items() if not k.startswith("eps.")}
    st.markdown(tr("weighting.noise_reading", sigma2=f"{sigma**2:.2g}", **reading))
    with notes():
        st.markdown(tr("weighting.noise_intro"))
        st.caption(tr("weighting.noise_caption"))
    csv_download(df, "weighting-noise", key="wt_noise_csv")


# ---------------------------------------------------------------------------------------- 4. a real group
@st.cache_data(show_spinner=tr("weighting.sampling"), max_entries=16)
def _real_group(seed: int, prompt: str, group_size: int, lr: float, model_dir: str | None, device: str):
    # loads its own model copy and returns plain arrays: nothing mutable is shared between sessions
    return W.real_group(seed, prompt, group_size, lr, model_dir, device)


@st.cache_data(show_spinner=False, max_entries=32)
def _real_weights(setting: tuple, algos: tuple, after: bool, registry: str):
    """Each algorithm's push per token and the summary on the group of ``setting`` (plain frames);
    the largest |push| (``None`` when all are 0: each figure's own scale); per algorithm, each
    response's first ``ratio_used`` (the sequence ratio s its tokens share, for a sequence-level one)."""
    group = _real_group(*setting)
    weights = W.real_group_weights(group, algos, after)
    finite = weights["weight"].abs()
    zmax = float(finite.max()) if len(finite) and float(finite.max()) > 0 else None
    firsts = weights.drop_duplicates(["algorithm", "response"])
    ratios = {
        a: list(zip(d["response"].tolist(), d["ratio_used"].tolist()))
        for a, d in firsts.groupby("algorithm", sort=False)
    }
    return weights, W.real_group_summary(group, algos).set_index("algorithm"), zmax, ratios


@figure_cache
def _real_chart(setting: tuple, algos: tuple, after: bool, algo: str, zmax, words: str, registry: str):
    weights = _real_weights(setting, algos, after, registry)[0]
    return token_weight_figure(weights[weights["algorithm"] == algo], json.loads(words), zmax=zmax)


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
        default=_defaults(W.REAL_ALGORITHMS),
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
        group = _real_group(*setting)
    except ValueError as exc:
        show_bad_input(exc, REAL_FIELDS)
        return
    except Exception as exc:  # noqa: BLE001 -- the page boundary: a message, never a traceback
        st.error(tr("weighting.real_failed", error=escape_markdown(f"{type(exc).__name__}: {exc}")))
        return
    right = int(group.rewards.sum())
    st.markdown(
        tr(
            "weighting.real_prompt",
            prompt=group.prompt,
            answer=group.answer,
            right=right,
            G=len(group.rewards),
            auto=tr("weighting.auto_note") if group.auto_prompt else "",
            lr=f"{group.lr:g}",
            sigma=f"{group.log_ratio_std:.3f}",
        )
    )
    if not (group.advantages != 0).any():
        st.info(tr("weighting.no_signal"))
    if not algos:
        st.info(tr("weighting.pick_algorithm"))
        return
    algos = tuple(algos)
    weights, summary, zmax, ratios = _real_weights(setting, algos, bool(after), _registry())
    rows = [
        tr("weighting.row_label", i=i, mark="✓" if group.rewards[i] > 0 else "✗", adv=format_number(a, "+.2f"))
        for i, a in enumerate(group.advantages)
    ]
    for algo in algos:
        row_labels = {f"row.{i}": label for i, label in enumerate(rows)}
        if ALGORITHMS[algo].ratio_level == "sequence":  # the sequence ratio s a response's tokens share
            for i, s in ratios.get(algo, []):
                row_labels[f"row.{i}"] += f" · s={s:.4f}"
        note = (
            tr(
                "weighting.real_note",
                clip=f"{summary.loc[algo, 'clip_fraction']:.0%}",
                grad=f"{summary.loc[algo, 'grad_tokens']:.0%}",
            )
            if after
            else tr("weighting.real_note_first")
        )
        st.markdown(f"**{titles[algo]}** · {note}")
        token_labels = labels("word", "token", "grad_weight", "advantage", "position", "push", **row_labels)
        words = _words(token_labels)
        chart(_real_chart(setting, algos, bool(after), algo, zmax, words, _registry()), f"wt_real_{algo}")
    with notes():
        st.markdown(tr("weighting.real_intro"))
        st.caption(tr("weighting.real_caption"))
    csv_download(weights, "weighting-real-group", key="wt_real_csv")


aggregation_section()
offpolicy_section()
noise_section()
real_section()
