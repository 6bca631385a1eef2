"""MoE routing: how far routing moves after an update, what that does to the token ratio, and what
routing replay (verl R2 / R3) and GSPO's sequence ratio do about it (teaching claim 12).

Widgets -> ``rlviz.experiments.moe`` -> ``rlviz.plots.moe`` -> ``app_common.chart``. The page opens with
its title, lede, the one-batch experiment's few controls in one row and its figure (the token log-ratios
after the k-th update); the one-batch experiment (``routing_shift``) is cached by its inputs and shows its
progress while it computes. Its questions are asked at its result, and each holds back what would answer
it (``answers_held``): the replayed and GSPO distributions, the share of changed routes, the clip. The live
run (a ``MoeLiveRun``) is a later section on the run-page skeleton (``app_common.runpage.RunPage``), like
the live and sampling pages. Every number in the text is read from a result. Widget keys start with
``mo_``; the model radios carry the keys of ``MODELS`` in the URL, the same in both languages
(``app_common.seed_choice_from_url``).
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
    formula,
    labels,
    lang,
    live_reading,
    num,
    pct,
    predict,
    run_size_input,
    seed_choice_from_url,
    show_bad_input,
    stop,
    tr,
    write_choice_to_url,
)
from app_common.predictions import answers_held, held_note
from app_common.runpage import RunPage
from app_common.template import notes, page_top
from rlviz.core.objectives import ALGORITHMS
from rlviz.experiments.moe import (
    ARTICLE_ROUTE_CHANGE,
    LIVE_ARMS,
    MODEL_URL_ALIASES,
    MODELS,
    REPLAY_VISIBLE,
    MoeLiveConfig,
    MoeLiveRun,
    RoutingShiftSettings,
    routing_shift,
)
from rlviz.experiments.runner import COLLAPSE
from rlviz.lm.task import HELDOUT_SIZE
from rlviz.plots.live import SMOOTH_SPAN
from rlviz.plots.moe import (
    arm_metrics_figure,
    live_arms_figure,
    log_ratio_figure,
    route_change_figure,
    token_strip_figure,
)
from rlviz.teach.predict import PREDICTIONS, shift_state

ensure_shell()
L = lang()
state = st.session_state
seed = int(state.get("seed", 0))
device = state.get("device", "auto")
S = RoutingShiftSettings()  # the experiment's own defaults
D = MoeLiveConfig()
LR_CHOICES = (0.0, 1e-4, 3e-4, 1e-3, 3e-3)
LIVE_LR_CHOICES = (1e-4, 2e-4, 3e-4, 5e-4, 1e-3, 2e-3, 3e-3, 5e-3, 1e-2)
REPLAY_ARMS = {a.name for a in LIVE_ARMS if a.settings.get("routing_replay", "none") != "none"}
SIDEBAR_FIELDS = {"device": tr("side.device")}


@st.cache_data(show_spinner=False)
def _architecture() -> dict[str, int]:
    """Layers, experts and experts per token of the shipped MoE, read from its config."""
    from transformers import AutoConfig

    config = AutoConfig.from_pretrained(MODELS["moe"])
    experts = getattr(config, "num_experts", None) or getattr(config, "num_local_experts", 0)
    return {"layers": config.num_hidden_layers, "experts": experts, "top_k": config.num_experts_per_tok}


ARCH = _architecture()
model_names = {m: tr(f"moe.model_code.{m}") for m in MODELS}
DEFAULT_MODEL = next(iter(MODELS))  # each model radio's first option
arm_names = {a.name: tr(f"moe.arm.{a.name}") for a in LIVE_ARMS}
legend_names = {f"name.{arm}": text for arm, text in arm_names.items()}

page_top("moe")  # title, lede; the one-batch experiment's controls and figure follow at once


# ---------------------------------------------------------------------------------------- 1. one batch
@st.cache_data(show_spinner=False, max_entries=16)
def _shift(model: str, updates: int, lr: float, prompts: int, group_size: int, seed: int, device: str):
    """Plain data, cached by the settings. The progress bar is made, moved and removed in here: a
    cache hit replays those three (and so shows nothing), and Streamlit refuses to replay an element
    drawn into a block made outside the function."""
    bar = st.empty()

    def on_update(done: int, total: int) -> None:
        bar.progress(done / max(total, 1), text=tr("moe.computing", done=done, total=total))

    settings = RoutingShiftSettings(
        model=model, updates=updates, lr=lr, prompts=prompts, group_size=group_size, seed=seed, device=device
    )
    result = routing_shift(settings, on_update=on_update)
    bar.empty()
    return result


# the few controls of the figure, in one row above it (they wrap onto a second row in a narrow window);
# the batch's size in a popover at its end
controls = st.container(horizontal=True, vertical_alignment="bottom", key="mo_shift_settings")
with controls:
    # the model radios' URL values are keys of MODELS, the same in both languages (a bound radio writes
    # the label it shows); the labels older links carried ("MoE", "Dense") still open their model
    seed_choice_from_url("mo_model", list(MODELS), DEFAULT_MODEL, aliases=MODEL_URL_ALIASES)
    model = st.radio(
        tr("moe.model"),
        list(MODELS),
        format_func=model_names.get,
        horizontal=True,
        key="mo_model",
        help=tr("moe.model_help", **ARCH),
        width="content",
    )
    write_choice_to_url("mo_model", DEFAULT_MODEL)
    lr = st.select_slider(
        tr("moe.lr"),
        LR_CHOICES,
        value=S.lr,
        format_func="{:g}".format,
        key="mo_lr",
        help=tr("moe.lr_help"),
        bind="query-params",
        width=200,
    )
    updates = st.slider(
        tr("moe.updates"), 1, 8, S.updates, key="mo_k", help=tr("moe.updates_help"), bind="query-params", width=160
    )
    with st.popover(tr("moe.batch"), icon=":material/tune:"):
        prompts = st.number_input(
            tr("moe.prompts"), 1, 64, S.prompts, key="mo_n", help=tr("moe.prompts_help"), bind="query-params"
        )
        group_size = st.number_input(
            tr("moe.group_size"), 2, 16, S.group_size, key="mo_G", help=tr("moe.group_size_help"), bind="query-params"
        )
        st.caption(tr("moe.seed_note"))
SHIFT_FIELDS = {
    "model": tr("moe.model"),
    "updates": tr("moe.updates"),
    "lr": tr("moe.lr"),
    "prompts": tr("moe.prompts"),
    "group_size": tr("moe.group_size"),
    **SIDEBAR_FIELDS,
}

result = None
try:
    result = _shift(model, int(updates), float(lr), int(prompts), int(group_size), seed, device)
except ValueError as exc:  # under the row whose popover holds the field: the message names it
    show_bad_input(exc, SHIFT_FIELDS)


def _page_notes() -> None:
    """The one-batch experiment's explanations, collapsed (today's intro, the models, the formula)."""
    with notes():
        st.markdown(tr("moe.intro", article=f"{ARTICLE_ROUTE_CHANGE:.0%}", **ARCH))
        st.markdown(tr("moe.models", **ARCH))
        formula(
            r"r_{i,t} = \frac{\pi_\theta(y_{i,t} \mid \cdot\,;\, e_\theta)}"
            r"{\pi_\text{old}(y_{i,t} \mid \cdot\,;\, e_\text{old})},\quad "
            r"r^\text{replay}_{i,t} = \frac{\pi_\theta(y_{i,t} \mid \cdot\,;\, e_\text{old})}"
            r"{\pi_\text{old}(y_{i,t} \mid \cdot\,;\, e_\text{old})},\quad "
            r"\log s_i = \frac{1}{|y_i|} \sum_t \log r_{i,t}",
            small=True,
        )
        st.caption(tr("moe.formula_caption"))
        st.markdown(f"**{tr('moe.shift_header')}** {tr('moe.shift_text')}")


if result is None:
    _page_notes()
else:
    k, shift_lr = result.settings.updates, result.settings.lr
    summary = result.summary()
    shift_arms = list(dict.fromkeys(result.arms["arm"]))
    # predict, then check: each question asked at this result holds back what would answer it until the
    # learner commits (or skips): the replayed and GSPO distributions, the share of changed routes, the clip
    asked = shift_state(result)
    questions = [p for p in PREDICTIONS["moe"] if p.applies(asked)]
    held = {p.key: answers_held([p], asked) for p in questions}
    hold_route = held.get("teach.moe_route", False)
    hold_replay = held.get("teach.moe_replay", False)
    hold_sequence = held.get("teach.moe_sequence", False)
    hold_clip = held.get("teach.moe_clip", False)

    # ------------------------------------------------------------------ the main figure: the ratios
    ratio_labels = labels(
        "moe",
        *(f"kind.{kind}" for kind in ("token_own", "token_replay", "sequence", "routing")),
        "log_ratio",
        "routing_axis",
        "panel.routing",
        share=tr("moe.token_share"),
        title=tr("moe.ratio_header"),  # the name the questions' reveal points at
        **{"panel.ratios": tr("moe.panel.ratios", k=k)},
    )
    kinds = ["token_own"] + ["token_replay"] * (not hold_replay) + ["sequence"] * (not hold_sequence)
    fig = log_ratio_figure(result.log_ratios, k, ratio_labels, kinds=kinds, routing=not hold_replay)
    chart(fig, "moe-log-ratios")
    st.caption(tr("moe.ratio_caption" if result.moe else "moe.ratio_caption_dense", k=k))
    if (hold_replay and result.moe) or hold_sequence:
        held_note()  # the replayed and the sequence distributions answer two questions below
    own, seq = summary["token_std_own"], summary["sequence_std"]
    if shift_lr == 0:
        st.markdown(tr("moe.read_lr0"))
    elif result.moe and not hold_replay:
        rep, routing = summary["token_std_replay"], summary["routing_only_std"]
        change = summary["replay_spread_change"] if math.isfinite(summary["replay_spread_change"]) else 0.0
        if abs(change) < 0.005:
            effect = tr("moe.effect.same")
        elif change < 0:
            effect = tr("moe.effect.narrowed", pct=pct(-change))
        else:
            effect = tr("moe.effect.widened", pct=pct(change))
        share_of_own = summary["routing_share_of_own"]
        # replay narrows the spread by a tenth or more: routing adds to it; else it only reshuffles tokens
        verdict = tr("moe.verdict.routing" if change <= -REPLAY_VISIBLE else "moe.verdict.update")
        st.markdown(
            tr(
                "moe.read_replay",
                k=k,
                own=num(own),
                rep=num(rep),
                effect=effect,
                routing=num(routing),
                pct=pct(share_of_own),
                verdict=verdict,
            )
        )
    elif not result.moe and not hold_sequence:
        st.markdown(tr("moe.read_dense", k=k, own=num(own), seq=num(seq)))
    if shift_lr != 0 and result.moe and not hold_replay and math.isfinite(summary["abs_own_changed"]):
        own_c, own_u, rep_c = summary["abs_own_changed"], summary["abs_own_unchanged"], summary["abs_replay_changed"]
        numbers = dict(
            share=pct(summary["tokens_changed_share"]),
            own_changed=num(own_c, 4),
            own_unchanged=num(own_u, 4),
            rep_changed=num(rep_c, 4),
        )
        if not math.isfinite(own_u):  # every token's experts changed: nothing to compare with
            st.markdown(tr("moe.changed.all", **numbers))
        elif own_c <= own_u:
            st.markdown(tr("moe.changed.not_more", **numbers))
        elif rep_c >= own_c:  # replay did not calm them
            st.markdown(tr("moe.read_changed_up", **numbers))
        else:
            removed = summary["replay_removed_share"]  # share of the extra swing that replay takes away
            verdict = tr("moe.changed.mostly_routing" if removed >= 0.5 else "moe.changed.mostly_update")
            st.markdown(tr("moe.read_changed", removed=pct(removed), verdict=verdict, **numbers))
    if shift_lr != 0 and result.moe and not hold_sequence:
        if 0 < seq < own:
            st.markdown(tr("moe.read_sequence", seq=num(seq), own=num(own), pct=pct(seq / own)))
        else:
            st.markdown(tr("moe.read_sequence_not", seq=num(seq), own=num(own)))
    _page_notes()

    # ------------------------------------------------------------------ predict, then check
    st.markdown(f"#### {tr('teach.header')}")
    st.caption(tr("teach.intro"))
    for row in range(0, len(questions), 2):
        for col, prediction in zip(st.columns(2, border=True), questions[row : row + 2]):
            with col:
                predict(prediction, asked, labels=arm_names)

    # ------------------------------------------------------------------ the batch's numbers
    if result.moe:
        cols = st.columns(4)
        if hold_route:  # the share of changed routes is a question's answer
            held_note(cols[0])
        else:
            cols[0].metric(tr("moe.m_first"), pct(summary["route_change_first"]), help=tr("moe.m_first_help"))
            if k > 1:  # after one update the two are the same number
                cols[1].metric(tr("moe.m_last", k=k), pct(summary["route_change_last"]), help=tr("moe.m_first_help"))
        cols[2].metric(
            tr("moe.m_article"),
            tr("moe.m_article_value", share=f"{ARTICLE_ROUTE_CHANGE:.0%}"),
            help=tr("moe.m_article_help"),
        )
        cols[3].metric(tr("moe.m_sampler"), pct(result.sampler_mismatch), help=tr("moe.m_sampler_help"))
    else:
        st.info(tr("moe.dense_note"), icon=":material/info:")
    if not hold_clip:
        cols = st.columns(3)
        for col, arm in zip(cols, shift_arms):
            clip = pct(summary[f"clip_{arm}"])
            col.metric(tr("moe.m_clip", arm=arm_names.get(arm, arm), k=k), clip, help=tr("moe.m_clip_help", k=k))
    st.caption(
        tr(
            "moe.batch_note",
            reward=f"{result.reward_mean:.2f}",
            signal=result.signal_groups,
            groups=result.settings.prompts,
        )
    )

    # ------------------------------------------------------------------ which routes changed
    if result.moe:
        st.markdown(f"#### {tr('moe.route_header')}")
        if hold_route:
            held_note()
        else:
            rc = result.route_change
            if shift_lr == 0:
                reading = tr("moe.read_lr0")
            else:
                first, last = summary["route_change_first"], summary["route_change_last"]
                gap = first - ARTICLE_ROUTE_CHANGE
                cmp = "equal" if abs(gap) < 0.005 else ("above" if gap > 0 else "below")
                reading = tr(
                    "moe.read_share",
                    lr=f"{shift_lr:g}",
                    first=pct(first),
                    cmp=tr(f"moe.cmp.{cmp}"),
                    article=f"{ARTICLE_ROUTE_CHANGE:.0%}",
                )
                at_k = rc[rc["update"] == k]
                top = at_k.loc[at_k["share"].idxmax()] if len(at_k) else None
                if top is not None and k > 1:
                    reading += tr(
                        "moe.read_share_more",
                        k=k,
                        last=pct(last),
                        layer=int(top["layer"]),
                        layer_share=pct(float(top["share"])),
                    )
                elif top is not None:
                    reading += tr("moe.read_share_layer", layer=int(top["layer"]), layer_share=pct(float(top["share"])))
            if shift_lr != 0:  # at learning rate 0 the ratios' reading has said it already
                st.markdown(reading)
            route_labels = labels(
                "moe",
                "update",
                "share",
                "all_layers",
                article=tr("moe.article_line", share=f"{ARTICLE_ROUTE_CHANGE:.0%}"),
                **{f"layer.{i}": tr("moe.layer", i=i) for i in range(1, result.layers + 1)},
            )
            chart(route_change_figure(rc, route_labels, article=ARTICLE_ROUTE_CHANGE), "moe-route-change")
            st.caption(tr("moe.route_caption", article=f"{ARTICLE_ROUTE_CHANGE:.0%}"))

    # ------------------------------------------------------------------ what each arm's clip saw
    st.markdown(f"#### {tr('moe.arms_header')}")
    # the clip fraction panel answers "which arm clips the most": held back until then
    arm_panels = (
        ("ratio_var", "token_log_ratio_std") if hold_clip else ("clip_fraction", "ratio_var", "token_log_ratio_std")
    )
    arms_labels = labels(
        "moe",
        *(f"metric.{m}" for m in arm_panels),
        "update",
        "collapse",
        **legend_names,
    )
    arms_labels |= {m: arms_labels[f"metric.{m}"] for m in arm_panels}
    chart(arm_metrics_figure(result.arms, arm_panels, arms_labels, x="update", cols=3), "moe-arms")
    gspo = ALGORITHMS["gspo"].defaults
    st.caption(tr("moe.arms_caption", eps_low=f"{gspo['epsilon_low']:g}", eps_high=f"{gspo['epsilon_high']:g}"))
    if hold_clip:
        held_note()
    else:
        parts = [
            tr("moe.read_clip_part", share=pct(summary[f"clip_{arm}"]), arm=arm_names.get(arm, arm))
            for arm in shift_arms
        ]
        st.markdown(tr("moe.read_clip", k=k) + "\n" + "".join(f"\n- {part}" for part in parts))

    # ------------------------------------------------------------------ one response
    if result.moe and any(result.token.get("layers_changed") or ()):  # a response where some route changed
        st.markdown(f"#### {tr('moe.strip_header')}")
        if hold_route:  # its colours count the changed routes
            held_note()
        else:
            strip_labels = labels(
                "moe.strip",
                "layers_changed",
                "own",
                "replay",
                "routing",
                token=tr("word.token"),
                position=tr("word.position"),
            )
            chart(token_strip_figure(result.token, result.layers, strip_labels), "moe-token-strip")
            st.caption(tr("moe.strip_caption", k=k, prompt=result.token["prompt"], layers=result.layers))

    downloads = st.container(horizontal=True)
    with downloads:
        if not hold_clip:
            csv_download(result.arms, "moe-arms", key="mo_dl_arms", label=tr("moe.dl_arms"))
        if result.moe and not hold_route:
            csv_download(result.route_change, "moe-route-change", key="mo_dl_routes", label=tr("moe.dl_routes"))

# ---------------------------------------------------------------------------------------- 2. live
st.subheader(tr("moe.live_header"))
st.caption(tr("moe.live_lede"))
# the run page's places (app_common.runpage): the main settings and Run, the figure, the run's reading, the
# other settings, the run's table, notes, practitioners, downloads
rp = RunPage(
    "moe",
    run_key="moe_run",
    flag_key="moe_running",
    buttons=("mo_run", "mo_stop", "mo_continue", "mo_reset"),
    # the run Run starts, as its widgets say (their values are in the session before they are drawn)
    starting=lambda: (
        {a: arm_names[a] for a in state.get("mo_arms", D.arms) if a in arm_names},
        int(state.get("mo_steps", D.steps)),
    ),
)
running = rp.running  # True from the Run click's own script run: widgets disabled
with rp.settings:  # one row: the arms, the model, the steps, the learning rate
    live_arms = st.multiselect(
        tr("moe.arms"),
        [a.name for a in LIVE_ARMS],
        default=list(D.arms),
        format_func=lambda name: tr(f"moe.arm_code.{name}"),
        key="mo_arms",
        help=tr("moe.arms_help"),
        bind="query-params",
        disabled=running,
        placeholder=tr("common.choose"),
    )
    seed_choice_from_url("mo_lmodel", list(MODELS), DEFAULT_MODEL, aliases=MODEL_URL_ALIASES)
    live_model = st.radio(
        tr("moe.model"),
        list(MODELS),
        format_func=model_names.get,
        horizontal=True,
        key="mo_lmodel",
        help=tr("moe.model_help", **ARCH),
        disabled=running,
        width="content",
    )
    write_choice_to_url("mo_lmodel", DEFAULT_MODEL)
    steps = run_size_input(
        st, "steps", tr("moe.steps"), 1, D.steps, key="mo_steps", bind="query-params", disabled=running, width=120
    )
    live_lr = st.select_slider(
        tr("moe.lr"),
        LIVE_LR_CHOICES,
        value=D.lr,
        format_func="{:g}".format,
        key="mo_llr",
        help=tr("moe.lr_help"),
        bind="query-params",
        disabled=running,
        width=220,
    )
with rp.details, st.expander(tr("moe.live_more"), expanded=rp.presenting):
    c1, c2, c3, c4, c5 = st.columns(5)
    live_prompts = run_size_input(
        c1,
        "prompts",
        tr("moe.prompts"),
        1,
        D.prompts_per_step,
        key="mo_lp",
        help=tr("moe.prompts_help"),
        bind="query-params",
        disabled=running,
    )
    live_G = run_size_input(
        c2,
        "group_size",
        tr("moe.group_size"),
        2,
        D.group_size,
        key="mo_lG",
        help=tr("moe.group_size_help"),
        bind="query-params",
        disabled=running,
    )
    mu = c3.number_input(
        tr("moe.mu"), 1, 16, D.mu, key="mo_mu", help=tr("moe.mu_help"), bind="query-params", disabled=running
    )
    mini_batches = c4.number_input(
        tr("moe.mini_batches"), 1, 64, D.mini_batches, key="mo_mb", bind="query-params", disabled=running
    )
    heldout = c5.number_input(
        tr("moe.heldout"),
        0,
        32,
        D.heldout_samples,
        key="mo_heldout",
        help=tr("moe.heldout_help"),
        bind="query-params",
        disabled=running,
    )
if live_model == "dense" and REPLAY_ARMS & set(live_arms):  # said before Run, next to it
    with rp.buttons:
        st.warning(tr("moe.dense_no_replay_now"), icon=":material/warning:")
SETTINGS_KEYS = ("mo_arms", "mo_lmodel", "mo_steps", "mo_llr", "mo_lp", "mo_lG", "mo_mu", "mo_mb", "mo_heldout")
LIVE_FIELDS = {
    "arms": tr("moe.arms"),
    "model": tr("moe.model"),
    "steps": tr("moe.steps"),
    "lr": tr("moe.lr"),
    "prompts_per_step": tr("moe.prompts"),
    "group_size": tr("moe.group_size"),
    "mu": tr("moe.mu"),
    "mini_batches": tr("moe.mini_batches"),
    "heldout_samples": tr("moe.heldout"),
    **SIDEBAR_FIELDS,
}


def _config() -> MoeLiveConfig:
    return MoeLiveConfig(
        arms=tuple(live_arms),
        steps=int(steps),
        lr=float(live_lr),
        mu=int(mu),
        mini_batches=int(mini_batches),
        prompts_per_step=int(live_prompts),
        group_size=int(live_G),
        seed=seed,
        heldout_samples=int(heldout),
        model=live_model,
        device=device,
    )


def _make_run() -> MoeLiveRun:
    """The run the widgets describe (loads the model); a replay arm on the dense model is refused
    in the session's language before the library refuses it."""
    config = _config()
    if config.model == "dense" and REPLAY_ARMS & set(config.arms):
        raise ValueError(f"arms: {tr('moe.dense_no_replay')}")
    return MoeLiveRun(config)


with rp.notes():
    st.markdown(
        tr(
            "moe.live_text",
            window=COLLAPSE["window"],
            drop=f"{COLLAPSE['reward_drop']:g}",
            se=f"{COLLAPSE['noise_se']:g}",
            jump=f"{COLLAPSE['jump']:g}",
            kl_floor=f"{COLLAPSE['kl_floor']:g}",
            var_floor=f"{COLLAPSE['ratio_var_floor']:g}",
        )
    )
with rp.practitioners():
    from app_common import export_configs
    from rlviz.experiments.runner import train_config

    st.markdown(tr("moe.replay_frameworks"))
    export_configs(
        lambda: {
            tr(f"moe.arm_code.{a.name}"): (a.objective, None, None, train_config(a, _config().run_config()))
            for a in _config().arm_list()
        },
        key="mo_export",
        fields=LIVE_FIELDS,
    )

rp.controls(_make_run, fields=LIVE_FIELDS, settings_keys=SETTINGS_KEYS)

PANELS = ("reward_mean", "pass_at_1", "token_ratio_var", "clip_fraction", "kl_ref", "route_change_fraction")
live_labels = labels("metric", "reward_mean", "pass_at_1", "clip_fraction", "kl_ref", step=tr("word.step"))
live_labels |= {m: tr(f"moe.metric.{m}") for m in ("token_ratio_var", "route_change_fraction")}
live_labels |= {"collapse": tr("moe.collapse"), "smoothed": tr("moe.smoothed"), **legend_names}


def _live_figure(run: MoeLiveRun | None):
    """The run's curves: each arm's per-step points under their moving average, the x axes over the run's
    steps (before a run: the panels the widgets' run would fill, empty). The dense model has no router: no
    route-change panel."""
    if run is None:
        frame = pd.DataFrame(columns=["arm", "step", *PANELS])
        shown = [m for m in PANELS if live_model != "dense" or m != "route_change_fraction"]
        words = {**live_labels, "empty": tr("moe.empty_figure")}
        return live_arms_figure(frame, shown, words, steps=int(steps), smooth=SMOOTH_SPAN, cols=2, panel_height=170)
    frame = run.metrics_frame()
    # a panel no arm measures (the route change of the dense model) is left out
    if run.moe_config.model == "dense":
        shown = [m for m in PANELS if m != "route_change_fraction"]
    else:
        shown = [m for m in PANELS if frame.empty or pd.to_numeric(frame[m], errors="coerce").notna().any()]
    words = {**live_labels, "empty": tr("moe.first_step")}
    return live_arms_figure(frame, shown, words, steps=run.config.steps, smooth=SMOOTH_SPAN, cols=2, panel_height=170)


def _changed(run: MoeLiveRun) -> bool:
    return dataclasses.asdict(_config()) != dataclasses.asdict(run.moe_config)


run = rp.watch(_live_figure, names=arm_names, chart_key="moe-live", changed=_changed, no_run=tr("moe.no_run"))
if run is None:
    stop()

summary_frame = run.summary_frame()
reading = live_reading(summary_frame, arm_names, "moe", run.config.heldout_samples)
if reading:
    rp.read(reading)
with rp.reading:
    st.caption(tr("moe.live_caption") + " " + tr("moe.smooth_caption", span=SMOOTH_SPAN))

table = pd.DataFrame(
    {
        tr("moe.col.arm"): [arm_names.get(a, a) for a in summary_frame["arm"]],
        tr("moe.col.heldout"): [
            f"{cell(a)} → {cell(b)}"
            for a, b in zip(summary_frame["heldout_pass_at_1_start"], summary_frame["heldout_pass_at_1_end"])
        ],
        tr("moe.col.gain"): [cell(v, signed=True) for v in summary_frame["heldout_gain"]],
        tr("moe.col.collapse_step"): [cell(v, 0) for v in summary_frame["collapse_step"]],
        tr("moe.col.route_change_mean"): [pct(v) for v in summary_frame["route_change_mean"]],
        tr("moe.col.token_ratio_var_mean"): [num(v) for v in summary_frame["token_ratio_var_mean"]],
        tr("moe.col.clip_fraction_mean"): [pct(v) for v in summary_frame["clip_fraction_mean"]],
        tr("moe.col.steps"): [str(int(v)) for v in summary_frame["steps"]],
    }
)
with rp.sections:
    st.markdown(f"#### {tr('moe.summary_header')}")
    st.table(table, hide_index=True, border="horizontal")  # headers wrap: no column hides at 1400 px
    st.caption(tr("moe.summary_caption", n=HELDOUT_SIZE))
with rp.downloads:
    csv_download(run.metrics_frame(), "moe-live", key="mo_dl_live", label=tr("moe.download_csv"))
