"""Sampler ≠ trainer: the rollout-training mismatch measured for each sampler choice, how each rollout
correction weighs a token, and a live side-by-side run of the corrections.

Widgets -> ``rlviz.experiments.mismatch`` (``measure_mismatch``, ``correction_curves``,
``MismatchLiveRun``) -> ``rlviz.plots.mismatch`` figures. The corrections come from the registry
``rlviz.core.corrections.CORRECTIONS``; the page never branches on a correction's name. The page opens
with its title, lede, the measurement's few controls in one row and its figure (the log-ratio per token
and per response, one row per sampler); the measurement is cached by its inputs and shows its progress.
Its two questions hold back what would answer them (``answers_held``): the bf16 and fp16 rows while the
precision question waits, the top-p and top-k rows while the truncation question waits (in the figure,
the table, the readings and the corrections' effect). The live run is a later section on the run-page
skeleton (``app_common.runpage.RunPage``), like the live and sampling pages. Every number in the text is
read from a result. Widget keys start with ``mm_``.
"""

from __future__ import annotations

import dataclasses
import math

import pandas as pd
import streamlit as st

from app_common import (
    cell,
    chart,
    csv_download,
    ensure_shell,
    export_configs,
    formula,
    labels,
    lang,
    live_reading,
    num,
    pct,
    predict,
    run_size_input,
    show_bad_input,
    stop,
    tr,
)
from app_common.predictions import answers_held, held_note
from app_common.runpage import RunPage
from app_common.template import notes, page_top, practitioners
from rlviz.core.corrections import CORRECTIONS
from rlviz.core.objectives import ALGORITHMS
from rlviz.core.parity import checked_against
from rlviz.experiments import mismatch as X
from rlviz.experiments.runner import COLLAPSE, train_config
from rlviz.i18n import LIST_SEPARATOR
from rlviz.lm.trainer import ROLLOUT_DTYPES
from rlviz.plots import mismatch as P
from rlviz.plots.live import SMOOTH_SPAN
from rlviz.plots.moe import live_arms_figure
from rlviz.teach.predict import PREDICTIONS, mismatch_state

ensure_shell()
L = lang()
state = st.session_state
seed = int(state.get("seed", 0))
device = state.get("device", "auto")
S = X.MismatchSettings()
D = X.MismatchLiveConfig()
LR_CHOICES = (1e-4, 3e-4, 1e-3, 3e-3)
LIVE_LR_CHOICES = (1e-4, 3e-4, 1e-3, 2e-3, 3e-3)
SIDEBAR_FIELDS = {"device": tr("side.device")}
# the samplers whose rows answer each question, held back while it waits
EVIDENCE = {"mismatch.q_precision": ("bfloat16", "float16"), "mismatch.q_truncation": ("top_p", "top_k")}


def _times(x: float) -> str:
    """A ratio between two measurements: 3 significant digits, whole numbers from 100 on."""
    return f"{x:,.0f}" if math.isfinite(x) and x >= 100 else num(x, 2)


model_names = {m: tr(f"mismatch.model_code.{m}") for m in X.MODELS}
correction_names = {name: spec.label(L) for name, spec in CORRECTIONS.items()}

page_top("mismatch")  # title, lede; the measurement's controls and figure follow at once


# ---------------------------------------------------------------------------------------- 1. measured
@st.cache_data(show_spinner=False, max_entries=16)
def _measure(settings: X.MismatchSettings):
    """Plain data, cached by the settings; the progress bar lives inside (replayed on a hit)."""
    bar = st.empty()

    def on_progress(done: int, total: int) -> None:
        bar.progress(done / max(total, 1), text=tr("mismatch.computing", done=done, total=total))

    result = X.measure_mismatch(settings, on_progress=on_progress)
    bar.empty()
    return result


# the few controls of the figure, in one row above it; the others in a popover at its end
controls = st.container(horizontal=True, vertical_alignment="bottom", key="mm_measure_settings")
with controls:
    model = st.radio(
        tr("mismatch.model"),
        list(X.MODELS),
        index=list(X.MODELS).index(S.model),
        format_func=model_names.get,
        horizontal=True,
        key="mm_model",
        help=tr("mismatch.model_help"),
        bind="query-params",
        width="content",
    )
    stale = st.slider(
        tr("mismatch.stale_steps"),
        1,
        8,
        S.stale_steps,
        key="mm_k",
        help=tr("mismatch.stale_steps_help"),
        bind="query-params",
        width=180,
    )
    top_p = st.slider(
        tr("mismatch.top_p"),
        0.5,
        1.0,
        S.top_p,
        0.05,
        key="mm_top_p",
        help=tr("mismatch.top_p_help"),
        bind="query-params",
        width=160,
    )
    with st.popover(tr("mismatch.measure_more"), icon=":material/tune:"):
        stale_lr = st.select_slider(
            tr("mismatch.stale_lr"),
            LR_CHOICES,
            value=S.stale_lr,
            format_func="{:g}".format,
            key="mm_lr",
            help=tr("mismatch.stale_lr_help"),
            bind="query-params",
        )
        top_k = st.number_input(
            tr("mismatch.top_k"), 1, 64, S.top_k, key="mm_top_k", help=tr("mismatch.top_k_help"), bind="query-params"
        )
        prompts = st.number_input(tr("mismatch.prompts"), 1, 64, S.prompts, key="mm_n", bind="query-params")
        group_size = st.number_input(tr("mismatch.group_size"), 1, 16, S.group_size, key="mm_G", bind="query-params")
MEASURE_FIELDS = {
    "model": tr("mismatch.model"),
    "stale_steps": tr("mismatch.stale_steps"),
    "stale_lr": tr("mismatch.stale_lr"),
    "top_p": tr("mismatch.top_p"),
    "top_k": tr("mismatch.top_k"),
    "prompts": tr("mismatch.prompts"),
    "group_size": tr("mismatch.group_size"),
    "seed": tr("side.seed"),
    **SIDEBAR_FIELDS,
}

result = None
try:
    settings = X.MismatchSettings(
        prompts=int(prompts),
        group_size=int(group_size),
        stale_steps=int(stale),
        stale_lr=float(stale_lr),
        top_p=round(float(top_p), 4),
        top_k=int(top_k),
        model=model,
        seed=seed,
        device=None if device == "auto" else device,
    )
    result = _measure(settings)
except ValueError as exc:  # under the row whose fields it names
    show_bad_input(exc, MEASURE_FIELDS)


def _page_notes(k: int, lr: float) -> None:
    """The measurement's explanations, collapsed: today's intro, the formula, what each sampler is."""
    with notes():
        st.markdown(tr("mismatch.intro"))
        formula(
            r"l_{i,t} = \log \pi_\text{train}(y_{i,t}\mid\cdot) - \log \pi_\text{rollout}(y_{i,t}\mid\cdot),\qquad "
            r"\rho_{i,t} = e^{\,l_{i,t}},\qquad \rho_i = e^{\sum_t l_{i,t}}",
            small=True,
        )
        st.caption(tr("mismatch.formula_caption"))
        st.markdown(f"**{tr('mismatch.measure_header')}** {tr('mismatch.measure_text', k=k, lr=f'{lr:g}')}")


hidden: set[str] = set()  # the samplers whose rows are held back (a question they answer waits)
if result is None:
    _page_notes(int(stale), float(stale_lr))
else:
    s = result.settings
    sampler_names = {name: tr(f"mismatch.sampler.{name}", k=s.stale_steps, p=f"{s.top_p:g}") for name in X.SAMPLERS} | {
        "top_k": tr("mismatch.sampler.top_k", k=s.top_k)
    }
    # predict, then check: each question holds back the samplers' rows that answer it until the commit
    asked = mismatch_state(result)
    for prediction in PREDICTIONS["mismatch"]:
        if answers_held([prediction], asked):
            hidden |= set(EVIDENCE[prediction.key])
    shown = [x for x in X.SAMPLERS if x not in hidden]

    # ------------------------------------------------------------------ the main figure
    grid_labels = labels(
        "mismatch",
        "panel.token",
        "panel.sequence",
        "share",
        "log_ratio",
        title=tr("mismatch.grid_header"),
        **{f"sampler.{k}": v for k, v in sampler_names.items()},
    )
    tokens = result.tokens[result.tokens["sampler"].isin(shown)]
    sequences = result.sequences[result.sequences["sampler"].isin(shown)]
    chart(P.log_ratio_grid(tokens, sequences, grid_labels), "mismatch-log-ratios")
    st.caption(tr("mismatch.grid_caption"))
    if hidden:
        held_note()  # the other samplers' rows answer the questions below
    _page_notes(s.stale_steps, s.stale_lr)

    # ------------------------------------------------------------------ predict, then check
    st.markdown(f"#### {tr('teach.header')}")
    st.caption(tr("teach.intro"))
    for col, prediction in zip(st.columns(2, border=True), PREDICTIONS["mismatch"]):
        with col:
            predict(prediction, asked, labels=sampler_names)

    # ------------------------------------------------------------------ the table and its readings
    summary = result.summary[result.summary["sampler"].isin(shown)]
    table = pd.DataFrame(
        {
            tr("mismatch.col.sampler"): [sampler_names[x] for x in summary["sampler"]],
            tr("mismatch.col.kl"): [num(v) for v in summary["kl"]],
            tr("mismatch.col.abs_mean"): [num(v) for v in summary["abs_mean"]],
            tr("mismatch.col.abs_p99"): [num(v) for v in summary["abs_p99"]],
            tr("mismatch.col.abs_max"): [num(v) for v in summary["abs_max"]],
            tr("mismatch.col.seq_abs_max"): [num(v) for v in summary["seq_abs_max"]],
            tr("mismatch.col.below_one"): [pct(v) for v in summary["ratio_below_one"]],
            tr("mismatch.col.tokens"): [str(int(v)) for v in summary["tokens"]],
        }
    )
    st.table(table, hide_index=True, border="horizontal")
    first = result.row("float32")
    st.caption(
        tr(
            "mismatch.table_caption",
            sequences=int(first["sequences"]),
            reward=f"{result.reward_mean:.2f}",
        )
    )
    if hidden:
        held_note()
    bf16, fp16, stale_row = result.row("bfloat16"), result.row("float16"), result.row("stale")
    readings = []
    if "float16" not in hidden:
        if fp16["kl"] < bf16["kl"]:
            verdict = tr("mismatch.verdict.fp16_closer", times=_times(bf16["kl"] / max(fp16["kl"], 1e-300)))
        else:
            verdict = tr("mismatch.verdict.not_closer")
        readings.append(tr("mismatch.read_precision", bf16=num(bf16["kl"]), fp16=num(fp16["kl"]), verdict=verdict))
    if stale_row["kl"] > bf16["kl"]:
        readings.append(
            tr(
                "mismatch.read_stale",
                k=s.stale_steps,
                kl=num(stale_row["kl"]),
                seq=num(stale_row["seq_abs_max"]),
                times=_times(stale_row["kl"] / max(bf16["kl"], 1e-300)),
                by_step=" → ".join(num(v) for v in result.stale_kl),
            )
        )
    else:
        readings.append(tr("mismatch.read_stale_small", k=s.stale_steps, kl=num(stale_row["kl"])))
    tok = result.tokens
    seqs = result.sequences
    if s.top_p < 1 and "top_p" not in hidden:
        tp = tok[tok["sampler"] == "top_p"]
        seq_tp = seqs[seqs["sampler"] == "top_p"]
        readings.append(
            tr(
                "mismatch.read_top_p",
                p=f"{s.top_p:g}",
                below=pct(result.row("top_p")["ratio_below_one"]),
                max_l=num(float(tp["log_ratio"].max())),
                mass=num(float(tp["kept_mass"].mean())),
                seq_weight=num(float(seq_tp["log_ratio_sum"].map(math.exp).mean())),
            )
        )
    if "top_k" not in hidden:
        tk = tok[tok["sampler"] == "top_k"]
        readings.append(
            tr(
                "mismatch.read_top_k",
                k=s.top_k,
                below=pct(result.row("top_k")["ratio_below_one"]),
                mass=num(float(tk["kept_mass"].mean())),
            )
        )
    for text in readings:
        st.markdown(text)

# ---------------------------------------------------------------------------------------- 2. corrections
st.subheader(tr("mismatch.corr_header"))
st.markdown(tr("mismatch.corr_text"))


@st.cache_data(show_spinner=False)
def _curves() -> tuple[pd.DataFrame, pd.DataFrame]:
    return X.correction_curves(), X.trust_region_curves()


curve_labels = labels(
    "mismatch",
    "ratio",
    "weight",
    "trust_ratio",
    "trust_weight",
    "adv.pos",
    "adv.neg",
    "panel.corrections",
    **{f"name.{k}": v for k, v in correction_names.items()},
    **{"panel.trust": tr("mismatch.panel.trust", objective=ALGORITHMS[X.TRUST_REGION_OBJECTIVE].title)},
)
correction_frame, trust_frame = _curves()
chart(P.correction_figure(correction_frame, curve_labels, trust_frame), "mismatch-corrections")
st.caption(tr("mismatch.corr_caption"))


def _band(spec) -> str:
    low = "0" if spec.low is None else f"{spec.low:g}"
    high = "∞" if spec.high is None else f"{spec.high:g}"
    return "—" if spec.kind == "none" else f"[{low}, {high}]"


st.markdown(
    "\n".join(
        f"- **{spec.label(L)}** ({tr(f'mismatch.level.{spec.level}')}, {_band(spec)}): {spec.summary[L]}"
        for spec in CORRECTIONS.values()
    )
)
with practitioners():  # each correction's TRL and verl names, and the frameworks it was checked against
    checked = checked_against("correction")
    registry = pd.DataFrame(
        {
            tr("mismatch.reg.col.name"): [spec.label(L) for spec in CORRECTIONS.values()],
            tr("mismatch.reg.col.checked"): [
                LIST_SEPARATOR[L].join(f"{fw} {version}" for fw, version in checked.get(name, ())) or "—"
                for name in CORRECTIONS
            ],
            tr("mismatch.reg.col.trl"): [spec.trl or tr("mismatch.none_framework") for spec in CORRECTIONS.values()],
            tr("mismatch.reg.col.verl"): [spec.verl or tr("mismatch.none_framework") for spec in CORRECTIONS.values()],
        }
    )
    st.table(registry, hide_index=True, border="horizontal")

if result is not None:
    st.markdown(f"#### {tr('mismatch.effect_header')}")
    effect = pd.DataFrame(
        {
            tr("mismatch.col.sampler"): [sampler_names[x] for x in shown],
            **{
                correction_names[c]: [
                    f"{pct(row['tokens_dropped'])} · {pct(row['sequences_touched'])} ({num(row['weight_mean'])})"
                    for row in (result.correction(x, c) for x in shown)
                ]
                for c in CORRECTIONS
            },
        }
    )
    st.table(effect, hide_index=True, border="horizontal")
    st.caption(tr("mismatch.effect_caption"))
    if hidden:  # the held samplers' rows, and the reading that quotes them, come with the answers
        held_note()
    else:
        geo = [name for name, spec in CORRECTIONS.items() if spec.kind == "reject"]
        for name in geo:  # the rejection filters' reading, from the registry
            spec = CORRECTIONS[name]
            st.markdown(
                tr(
                    "mismatch.read_geo",
                    low=f"{spec.low:g}",
                    high=f"{spec.high:g}",
                    bf16=pct(result.correction("bfloat16", name)["tokens_dropped"]),
                    top_p=pct(result.correction("top_p", name)["tokens_dropped"]),
                    p=f"{s.top_p:g}",
                )
            )
        csv_download(result.corrections, "mismatch-corrections", key="mm_dl_corr")

# ---------------------------------------------------------------------------------------- 3. live
st.subheader(tr("mismatch.live_header"))
st.caption(tr("mismatch.live_lede"))
arm_names = {
    key: tr(f"mismatch.arm.{key}") if key in ("matched", "none", "float16", "r3") else correction_names[key]
    for key in X.LIVE_ARM_KEYS
}
# the run page's places (app_common.runpage): the main settings and Run, the figure, the run's reading, the
# other settings, the run's table and the stored runs, notes, practitioners, downloads
rp = RunPage(
    "mismatch",
    run_key="mismatch_run",
    flag_key="mismatch_running",
    buttons=("mm_run", "mm_stop", "mm_continue", "mm_reset"),
    # the run Run starts, as its widgets say (their values are in the session before they are drawn)
    starting=lambda: (
        {a: arm_names[a] for a in state.get("mm_arms", D.arms) if a in arm_names},
        int(state.get("mm_steps", D.steps)),
    ),
)
running = rp.running  # True from the Run click's own script run: widgets disabled
with rp.settings:  # one row: the arms, the mismatched sampler (precision, staleness), the steps
    live_arms = st.multiselect(
        tr("mismatch.arms"),
        list(X.LIVE_ARM_KEYS),
        default=list(D.arms),
        format_func=arm_names.get,
        key="mm_arms",
        help=tr("mismatch.arms_help"),
        bind="query-params",
        disabled=running,
        placeholder=tr("common.choose"),
    )
    live_dtype = st.radio(
        tr("mismatch.live_dtype"),
        list(ROLLOUT_DTYPES),
        index=list(ROLLOUT_DTYPES).index(D.rollout_dtype),
        horizontal=True,
        key="mm_dtype",
        help=tr("mismatch.live_dtype_help"),
        bind="query-params",
        disabled=running,
        width="content",
    )
    live_stale = st.number_input(
        tr("mismatch.live_stale"),
        0,
        8,
        D.rollout_stale_steps,
        key="mm_stale",
        help=tr("mismatch.live_stale_help"),
        bind="query-params",
        disabled=running,
        width=150,
    )
    steps = run_size_input(
        st, "steps", tr("mismatch.steps"), 1, D.steps, key="mm_steps", bind="query-params", disabled=running, width=120
    )
with rp.details, st.expander(tr("mismatch.live_more"), expanded=rp.presenting):
    c1, c2, c3 = st.columns([1.2, 1, 1.6])
    live_model = c1.radio(
        tr("mismatch.model"),
        list(X.MODELS),
        index=list(X.MODELS).index(D.model),
        format_func=model_names.get,
        horizontal=True,
        key="mm_lmodel",
        help=tr("mismatch.model_help"),
        bind="query-params",
        disabled=running,
    )
    live_top_p = c2.slider(
        tr("mismatch.live_top_p"), 0.5, 1.0, D.top_p, 0.05, key="mm_ltop_p", bind="query-params", disabled=running
    )
    live_lr = c3.select_slider(
        tr("mismatch.lr"),
        LIVE_LR_CHOICES,
        value=D.lr,
        format_func="{:g}".format,
        key="mm_llr",
        bind="query-params",
        disabled=running,
    )
    c1, c2, c3, c4, c5 = st.columns(5)
    live_prompts = run_size_input(
        c1, "prompts", tr("mismatch.prompts"), 1, D.prompts_per_step, key="mm_lp", bind="query-params", disabled=running
    )
    live_G = run_size_input(
        c2, "group_size", tr("mismatch.group_size"), 2, D.group_size, key="mm_lG", bind="query-params", disabled=running
    )
    mu = c3.number_input(tr("mismatch.mu"), 1, 16, D.mu, key="mm_mu", bind="query-params", disabled=running)
    mini_batches = c4.number_input(
        tr("mismatch.mini_batches"), 1, 64, D.mini_batches, key="mm_mb", bind="query-params", disabled=running
    )
    heldout = c5.number_input(
        tr("mismatch.heldout"),
        0,
        32,
        D.heldout_samples,
        key="mm_heldout",
        help=tr("mismatch.heldout_help"),
        bind="query-params",
        disabled=running,
    )
if live_model == "dense" and "r3" in live_arms:  # said before Run, next to it
    with rp.buttons:
        st.warning(tr("mismatch.dense_no_r3"), icon=":material/warning:")
SETTINGS_KEYS = (
    "mm_arms",
    "mm_lmodel",
    "mm_dtype",
    "mm_stale",
    "mm_ltop_p",
    "mm_steps",
    "mm_llr",
    "mm_lp",
    "mm_lG",
    "mm_mu",
    "mm_mb",
    "mm_heldout",
)
LIVE_FIELDS = {
    "arms": tr("mismatch.arms"),
    "model": tr("mismatch.model"),
    "rollout_dtype": tr("mismatch.live_dtype"),
    "rollout_stale_steps": tr("mismatch.live_stale"),
    "top_p": tr("mismatch.live_top_p"),
    "steps": tr("mismatch.steps"),
    "lr": tr("mismatch.lr"),
    "prompts_per_step": tr("mismatch.prompts"),
    "group_size": tr("mismatch.group_size"),
    "mu": tr("mismatch.mu"),
    "mini_batches": tr("mismatch.mini_batches"),
    "heldout_samples": tr("mismatch.heldout"),
    **SIDEBAR_FIELDS,
}


def _config() -> X.MismatchLiveConfig:
    return X.MismatchLiveConfig(
        arms=tuple(live_arms),
        rollout_dtype=live_dtype,
        rollout_stale_steps=int(live_stale),
        top_p=round(float(live_top_p), 4),
        steps=int(steps),
        lr=float(live_lr),
        mu=int(mu),
        mini_batches=int(mini_batches),
        prompts_per_step=int(live_prompts),
        group_size=int(live_G),
        seed=seed,
        heldout_samples=int(heldout),
        model=live_model,
        device=None if device == "auto" else device,
    )


def _make_run() -> X.MismatchLiveRun:
    config = _config()
    if config.model == "dense" and "r3" in config.arms:
        raise ValueError(f"arms: {tr('mismatch.dense_no_r3')}")
    return X.MismatchLiveRun(config)


def _exported() -> dict:
    """The arms' configs for the export (an R3 arm on the dense model is left out: the warning says why)."""
    config = _config()
    if config.model == "dense":
        config = dataclasses.replace(config, arms=tuple(a for a in config.arms if a != "r3"))
    return {
        arm_names[a.name]: (a.objective, None, None, train_config(a, config.run_config())) for a in config.arm_list()
    }


with rp.notes():
    st.markdown(
        tr(
            "mismatch.live_text",
            window=COLLAPSE["window"],
            drop=f"{COLLAPSE['reward_drop']:g}",
            se=f"{COLLAPSE['noise_se']:g}",
            jump=f"{COLLAPSE['jump']:g}",
        )
    )
with rp.practitioners():
    export_configs(_exported, key="mm_export", fields=LIVE_FIELDS)

rp.controls(_make_run, fields=LIVE_FIELDS, settings_keys=SETTINGS_KEYS)


def _stored_reading() -> None:
    """The stored runs of ``benchmarks/mismatch_effect.py`` (the page's defaults, one per seed)."""
    measured = X.load_measured()
    if measured is None:
        return
    runs = measured["runs"]
    st.markdown(f"#### {tr('mismatch.measured_header')}")
    m = runs[0]["settings"]
    st.markdown(
        tr(
            "mismatch.measured_text",
            arms=LIST_SEPARATOR[L].join(arm_names.get(a, a) for a in m["arms"]),
            dtype=m["rollout_dtype"],
            stale=m["rollout_stale_steps"],
            lr=f"{m['lr']:g}",
            steps=m["steps"],
            seeds=LIST_SEPARATOR[L].join(str(run["settings"]["seed"]) for run in runs),
            window=runs[0]["window"],
        )
    )
    columns = {tr("mismatch.col.arm"): [arm_names.get(a, a) for a in runs[0]["arms"]]}
    for run in runs:
        seed, rows = run["settings"]["seed"], run["arms"].values()
        columns[f"{tr('mismatch.col.heldout')} · {seed}"] = [cell(r["heldout_end"]) for r in rows]
        columns[f"{tr('mismatch.col.rollout_kl')} · {seed}"] = [num(r["rollout_kl"]) for r in rows]
        columns[f"{tr('mismatch.col.collapse_step')} · {seed}"] = [
            "—" if r["collapse_step"] is None else str(r["collapse_step"]) for r in rows
        ]
    st.table(pd.DataFrame(columns), hide_index=True, border="horizontal")
    for run in runs:
        flagged = [a for a, r in run["arms"].items() if r["collapse_step"] is not None]
        if flagged:
            key = "mismatch.measured_collapse_control" if "matched" in flagged else "mismatch.measured_collapse"
            arms = LIST_SEPARATOR[L].join(arm_names.get(a, a) for a in flagged)
            st.markdown(tr(key, seed=run["settings"]["seed"], arms=arms))
    together = X.measured_consistency(measured)
    for reading in together["readings"]:
        fields = reading["fields"] | {"best": arm_names.get(reading["best"], reading["best"]), "seed": reading["seed"]}
        st.markdown(tr(f"mismatch.measured.{reading['verdict']}", **fields))
    if together["agree"]:
        st.markdown(tr("mismatch.measured_seeds.agree"))
    else:
        if together["kl_lower"]:
            ranges = LIST_SEPARATOR[L].join(
                f"{arm_names.get(a, a)} {' / '.join(num(v) for v in values)}"
                for a, values in together["kl_lower"].items()
            )
            none = " / ".join(num(v) for v in together["none_kl"])
            consistent = tr("mismatch.measured_consistent.kl", ranges=ranges, none=none)
        else:
            consistent = tr("mismatch.measured_consistent.none")
        st.markdown(tr("mismatch.measured_seeds.disagree", consistent=consistent))


PANELS = ("reward_mean", "pass_at_1", "rollout_kl", "correction_masked_fraction", "kl_ref", "token_ratio_var")
live_labels = labels("metric", *PANELS[:5], step=tr("word.step"))
live_labels |= {"token_ratio_var": tr("moe.metric.token_ratio_var"), "collapse": tr("mismatch.collapse")}
live_labels |= {"smoothed": tr("mismatch.smoothed"), **{f"name.{k}": v for k, v in arm_names.items()}}


def _live_figure(run: X.MismatchLiveRun | None):
    """The run's curves: each arm's per-step points under their moving average, in the corrections'
    styles, the x axes over the run's steps (before a run: the empty panels over the widgets' steps)."""
    if run is None:
        frame = pd.DataFrame(columns=["arm", "step", *PANELS])
        words = {**live_labels, "empty": tr("mismatch.empty_figure")}
        total = int(steps)
    else:
        frame, words, total = run.metrics_frame(), {**live_labels, "empty": tr("mismatch.first_step")}, run.config.steps
    return live_arms_figure(
        frame, PANELS, words, steps=total, smooth=SMOOTH_SPAN, styles=P.ARM_STYLES, cols=2, panel_height=170
    )


def _changed(run: X.MismatchLiveRun) -> bool:
    return dataclasses.asdict(_config()) != dataclasses.asdict(run.mismatch_config)


run = rp.watch(_live_figure, names=arm_names, chart_key="mismatch-live", changed=_changed, no_run=tr("mismatch.no_run"))
if run is None:
    with rp.sections:  # before a run: what a stored run of the page's defaults showed
        _stored_reading()
    stop()

frame = run.metrics_frame()
summary_frame = run.summary_frame()
reading = live_reading(summary_frame, arm_names, "mismatch", run.config.heldout_samples)
if reading:
    rp.read(reading)
with rp.reading:
    st.caption(tr("mismatch.smooth_caption", span=SMOOTH_SPAN))


def _arm_mean(arm: str, column: str) -> float:
    values = pd.to_numeric(frame.loc[frame["arm"] == arm, column], errors="coerce")
    return float(values.mean()) if values.notna().any() else math.nan


with rp.sections:
    st.markdown(f"#### {tr('mismatch.summary_header')}")
    st.table(
        pd.DataFrame(
            {
                tr("mismatch.col.arm"): [arm_names.get(a, a) for a in summary_frame["arm"]],
                tr("mismatch.col.heldout"): [
                    f"{cell(a)} → {cell(b)}"
                    for a, b in zip(summary_frame["heldout_pass_at_1_start"], summary_frame["heldout_pass_at_1_end"])
                ],
                tr("mismatch.col.gain"): [cell(v, signed=True) for v in summary_frame["heldout_gain"]],
                tr("mismatch.col.collapse_step"): [cell(v, 0) for v in summary_frame["collapse_step"]],
                tr("mismatch.col.rollout_kl"): [num(_arm_mean(a, "rollout_kl")) for a in summary_frame["arm"]],
                tr("mismatch.col.masked"): [
                    pct(_arm_mean(a, "correction_masked_fraction")) for a in summary_frame["arm"]
                ],
                tr("mismatch.col.steps"): [str(int(v)) for v in summary_frame["steps"]],
            }
        ),
        hide_index=True,
        border="horizontal",
    )
    _stored_reading()
with rp.downloads:
    csv_download(frame, "mismatch-live", key="mm_dl_live", label=tr("mismatch.download_csv"))
