"""One update, slowly (issue 40): one real update of the shipped tiny LM, walked stage by stage with
Previous / Next, the first stop of the newcomer's path.

Widgets -> ``rlviz.experiments.step`` (the sample, drawn once per seed, G and prompt, and its replay under
the chosen objective, both kept in this session's ``st.session_state``) -> ``rlviz.plots.step`` ->
``app_common.chart``. The stage (``st_stage``) and the objective (``st_obj``) carry their keys in the URL, the
same in both languages (``app_common.seed_choice_from_url``); G, the prompt and the learning rate are bound.
Nothing here branches on an objective's name: the stages an entry changes come from
``rlviz.experiments.step.changes`` (its spec against GRPO's), the trust-region words from its spec.
"""

from __future__ import annotations

import math

import numpy as np
import streamlit as st

from app_common import (
    chart,
    csv_download,
    ensure_shell,
    lang,
    predict,
    seed_choice_from_url,
    show_bad_input,
    stop,
    tr,
    write_choice_to_url,
)
from app_common.predictions import answers_held, held_note
from app_common.template import lede, notes, page_top, practitioners
from rlviz.app_pages import page
from rlviz.core.objectives import ALGORITHMS, TOKEN_STATES
from rlviz.experiments import step as S
from rlviz.experiments.advantages import estimator_titles
from rlviz.experiments.weighting import parse_prompt
from rlviz.i18n import LIST_SEPARATOR
from rlviz.plots.step import ratio_figure, response_bars_figure, states_figure, token_strip_figure
from rlviz.teach.predict import PREDICTIONS, state_from_settings

ensure_shell()
L = lang()
state = st.session_state
titles = {n: spec.title for n, spec in ALGORITHMS.items()}
N = len(S.STAGES)
SAMPLES_KEPT, WALKS_KEPT = 3, 24  # this session's cache: the last few batches, the last few replays
FIELDS = {
    "prompt": tr("step.prompt"),
    "group_size": tr("step.group_size"),
    "lr": tr("step.lr"),
    "objective": tr("step.objective"),
}


def _join(items) -> str:
    return LIST_SEPARATOR[L].join(items)


def _move(by: int) -> None:
    """Previous / Next: the stage ``by`` places on (a callback: it runs before the stage list is drawn)."""
    at = state.get("st_stage", S.STAGES[0])
    i = S.STAGES.index(at) if at in S.STAGES else 0
    state["st_stage"] = S.STAGES[min(max(i + by, 0), N - 1)]


def _value(value, feature: str) -> str:
    """A spec field's value as the change list shows it."""
    if feature == "surrogate":
        return tr("step.value.baseline", title=titles.get(S.BASELINE, S.BASELINE)) if value is base_surrogate else ""
    if feature == "kl":
        beta, estimator = value
        return f"{beta:g}" if not beta else f"{beta:g} ({estimator})"
    if isinstance(value, bool):
        return tr("step.value.on" if value else "step.value.off")
    if value is None:
        return tr("step.value.none")
    if isinstance(value, tuple):
        return " + ".join(map(str, value)) or tr("step.value.none")
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _change_line(change: S.Change) -> str:
    key = f"step.feature.{change.feature}"
    from rlviz.i18n import STRINGS

    feature = tr(key) if key in STRINGS else f"`{change.feature}`"
    new = tr("step.value.own") if change.feature == "surrogate" else _value(change.value, change.feature)
    return tr("step.change_line", feature=feature, old=_value(change.baseline, change.feature), new=new)


# ------------------------------------------------------------------------------------------ the top
page_top("step")
# the URL carries the stage's and the objective's keys (a bound radio would write the label it shows);
# a stage's number (?st_stage=3) and an objective's title open them too
seed_choice_from_url("st_stage", list(S.STAGES), S.STAGES[0], aliases={str(k): s for k, s in enumerate(S.STAGES, 1)})
seed_choice_from_url("st_obj", list(ALGORITHMS), S.BASELINE, aliases={spec.title: n for n, spec in ALGORITHMS.items()})
stage = state["st_stage"] if state.get("st_stage") in S.STAGES else S.STAGES[0]
k = S.STAGES.index(stage) + 1
base_surrogate = ALGORITHMS[S.BASELINE].surrogate if S.BASELINE in ALGORITHMS else None
# the navigator, one row above the figure: the objective, Previous, "stage k / n" (the list), Next
nav = st.container(horizontal=True, gap="small", vertical_alignment="bottom", key="st_nav")
with nav:
    objective = st.selectbox(
        tr("step.objective"),
        list(ALGORITHMS),
        format_func=titles.get,
        key="st_obj",
        help=tr("step.objective_help"),
        width=220,
    )
write_choice_to_url("st_obj", S.BASELINE)
marks = S.changes(objective) if S.BASELINE in ALGORITHMS else {}


def _stage_item(key: str) -> str:
    item = tr("step.stage_item", k=S.STAGES.index(key) + 1, name=tr(f"step.stage.{key}"))
    return tr("step.changed_mark", item=item) if key in marks else item


# the stage list's labels in this run's language (a dict: the radio reads it when drawn, not later)
stage_items = {key: _stage_item(key) for key in S.STAGES}


with nav:
    st.button(tr("step.prev"), icon=":material/arrow_back:", key="st_prev", disabled=k == 1, on_click=_move, args=(-1,))
    with st.popover(tr("step.stage_button", k=k, n=N) + (" ●" if stage in marks else "")):
        st.radio(tr("step.stages_label"), list(S.STAGES), format_func=stage_items.get, key="st_stage")
    st.button(
        tr("step.next"), icon=":material/arrow_forward:", key="st_next", disabled=k == N, on_click=_move, args=(1,)
    )
write_choice_to_url("st_stage", S.STAGES[0])
st.progress(k / N)

# the figure, then its card (beside it on a wide screen, under it on a narrow one), then the batch's settings
figure_box, card = st.columns([2.3, 1], gap="medium")
c1, c2, c3 = st.columns(3, gap="medium")
c1.slider(
    tr("step.group_size"),
    S.GROUP_SIZES[0],
    S.GROUP_SIZES[1],
    S.DEFAULT_GROUP_SIZE,
    key="st_G",
    help=tr("step.group_size_help"),
    bind="query-params",
)
prompt_text = c2.text_input(
    tr("step.prompt"),
    "",
    key="st_prompt",
    placeholder="37+5=",
    help=tr("step.prompt_help", n=S.AUTO_PROMPTS),
    bind="query-params",
)
prompt_box = c2.container()
c3.select_slider(
    tr("step.lr"),
    S.LRS,
    value=S.DEFAULT_LR,
    format_func="{:g}".format,
    key="st_lr",
    help=tr("step.lr_help", default=f"{S.DEFAULT_LR:g}"),
    bind="query-params",
)
try:  # a prompt that cannot be read: said under its field; the page goes on with a drawn prompt
    parse_prompt(prompt_text)
except ValueError as exc:
    show_bad_input(exc, FIELDS, where=prompt_box)

# the page's settings, as its predictions read them: one path (rlviz.experiments.step.prediction_state)
asked = state_from_settings("step", state)


# ------------------------------------------------------------------------------- sample and replay
def _walk(settings: dict) -> S.Walk:
    """The batch of (seed, G, prompt), sampled once per session, replayed under the objective (kept too)."""
    samples = state.setdefault("_st_samples", {})
    walks = state.setdefault("_st_walks", {})
    batch_key = (settings["seed"], settings["group_size"], settings["prompt"])
    spec = ALGORITHMS[settings["objective"]]
    walk_key = (*batch_key, settings["lr"], settings["objective"], id(spec))
    if walk_key in walks:
        walks[walk_key] = walks.pop(walk_key)  # most recent last
        return walks[walk_key]
    if batch_key not in samples:
        samples[batch_key] = S.sample_group(*batch_key)
        while len(samples) > SAMPLES_KEPT:
            samples.pop(next(iter(samples)))
    walks[walk_key] = S.replay(samples[batch_key], settings["objective"], settings["lr"])
    while len(walks) > WALKS_KEPT:
        walks.pop(next(iter(walks)))
    return walks[walk_key]


try:
    with figure_box, st.spinner(tr("step.sampling")):
        walk = _walk(asked)
except ValueError as exc:
    show_bad_input(exc, FIELDS, where=figure_box)
    stop()

frame = walk.frame()
spec = ALGORITHMS[objective]
title = titles[objective]
questions = [p for p in PREDICTIONS["step"] if p.applies(asked)]
# before the commit nothing in view states an answer: the advantages (stage 3) and the clip states (stage 5)
held = {p.key: answers_held([p], asked) for p in questions}
hold_adv, hold_clip = held.get("step.q_advantage", False), held.get("step.q_clip", False)
past_adv = S.STAGES.index(stage) >= S.STAGES.index("advantages")
marks_of = ["✓" if r > 0 else "✗" for r in walk.rewards]
rows = {
    i + 1: (
        tr("step.row_adv", i=i + 1, mark=marks_of[i], adv=f"{walk.adv_rows[i]:+.2f}")
        if past_adv and not hold_adv
        else tr("step.row", i=i + 1, mark=marks_of[i])
    )
    for i in range(walk.group_size)
}
h = {key: tr(f"step.h.{key}") for key in ("old_prob", "prob", "new_prob", "ratio", "token_ratio", "advantage")}
h |= {key: tr(f"step.h.{key}") for key in ("push", "loss", "weight", "share", "state")}
state_words = {f"state.{s}": tr(f"step.state.{s}") for s in TOKEN_STATES}
adv_hover = [] if hold_adv else [(h["advantage"], "advantage", "+.3g")]
frame = frame.assign(state_word=frame["state"].map(lambda s: tr(f"step.state.{s}")))


def _pct(x: float) -> str:
    return "—" if not math.isfinite(x) else f"{x:.0%}" if x == 0 or x >= 0.01 else "<1%"


def _bars(values, signed: bool, text, colors=None, x_title: str = "", fig_title: str | None = None):
    return response_bars_figure(
        values,
        {},
        row_labels=[rows[i + 1] for i in range(walk.group_size)],
        title=fig_title,
        signed=signed,
        colors=colors,
        text=text,
        x_title=x_title,
    )


def _rewards_figure():
    shaped = walk.shaped
    colors = ["#009E73" if r > 0 else "#bbbbbb" for r in walk.rewards]
    return _bars(
        shaped,
        bool((shaped < 0).any()),
        [f"{v:g}" for v in shaped],
        colors,
        tr("step.axis.reward"),
        tr("step.fig.rewards"),
    )


def _ratio_figure():
    return ratio_figure(
        frame,
        {"position": tr("word.position"), "colorbar": tr("step.cb.ratio")},
        band=walk.band,
        row_labels=rows,
        title=tr("step.fig.ratio"),
        hover=[(h["ratio"], "ratio", ".4f"), (h["token_ratio"], "token_ratio", ".4f"), *adv_hover],
    )


def _strip(value: str, colorbar: str, fig_title: str, hover, scale="diverging", zmin=None, zmax=None):
    return token_strip_figure(
        frame,
        value,
        {"position": tr("word.position"), "colorbar": colorbar},
        row_labels=rows,
        title=fig_title,
        scale=scale,
        zmin=zmin,
        zmax=zmax,
        hover=hover,
    )


# ------------------------------------------------------------------------------ the stage's figure
figure = None
figure_held = False
numbers: list[str] = []
real = walk.in_loss
n_loss = int(real.sum())
if stage == "responses":
    figure = _strip(
        "old_prob",
        tr("step.cb.old_prob"),
        tr("step.fig.responses", prompt=walk.prompt, G=walk.group_size),
        [(h["old_prob"], "old_prob", ".3f")],
        scale="sequential",
        zmin=0.0,
        zmax=1.0,
    )
    numbers.append(tr("step.num.responses", answer=walk.answer, lengths=", ".join(map(str, walk.lengths))))
    if walk.auto:
        numbers.append(tr("step.num.auto", n=S.AUTO_PROMPTS))
    if spec.train_defaults.get("dynamic_sampling"):
        numbers.append(tr("step.num.dynamic_kept" if walk.informative else "step.num.dynamic_dropped", title=title))
elif stage == "rewards":
    figure = _rewards_figure()
    right_ = int((walk.rewards > 0).sum())
    numbers.append(tr("step.num.rewards", right=right_, G=walk.group_size, mean=f"{float(walk.rewards.mean()):.3g}"))
    if not np.allclose(walk.shaped, walk.rewards):
        numbers.append(tr("step.num.shaped", title=title, shaped=", ".join(f"{v:.3g}" for v in walk.shaped)))
elif stage == "advantages":
    if hold_adv:
        figure, figure_held = _rewards_figure(), True
    else:
        figure = _bars(
            walk.adv_rows,
            True,
            [f"{a:+.3g}" for a in walk.adv_rows],
            x_title=tr("step.axis.advantage"),
            fig_title=tr("step.fig.advantages"),
        )
        r = walk.shaped
        numbers.append(
            tr(
                "step.num.advantages",
                rewards=", ".join(f"{x:g}" for x in r),
                mean=f"{float(np.mean(r)):.3g}",
                std=f"{float(np.std(r, ddof=1)):.3g}",
                values=", ".join(f"{a:+.3g}" for a in walk.adv_rows),
            )
        )
elif stage == "ratio":
    figure = _ratio_figure()
    ratios = walk.ratio[real] if n_loss else np.ones(1)
    first = walk.first_update
    numbers.append(
        tr(
            "step.num.ratio",
            low=f"{float(ratios.min()):.3g}",
            high=f"{float(ratios.max()):.3g}",
            first_low=f"{first.get('ratio_min', math.nan):.3g}",
            first_high=f"{first.get('ratio_max', math.nan):.3g}",
        )
    )
    if walk.band is not None:
        numbers.append(tr("step.num.band", low=f"{walk.band[0]:.4g}", high=f"{walk.band[1]:.4g}"))
    else:
        numbers.append(tr("step.num.no_band", title=title))
    if spec.ratio_level == "sequence":
        numbers.append(tr("step.num.sequence", title=title))
elif stage == "clip":
    if hold_clip:
        figure, figure_held = _ratio_figure(), True
    else:
        figure = states_figure(
            frame,
            {"position": tr("word.position"), **state_words},
            row_labels=rows,
            title=tr("step.fig.clip"),
            hover=[(h["ratio"], "ratio", ".4f"), *adv_hover, (h["state"], "state_word", "")],
        )
        parts = [
            tr("step.num.clip_part", state=tr(f"step.state.{s}"), share=_pct(walk.state_share(s)))
            for s in TOKEN_STATES
            if s != "masked" and (s == "active" or s in spec.trust_region)
        ]
        fraction = walk.second_update.get("clip_fraction", math.nan)
        numbers.append(tr("step.num.clip", n=n_loss, parts=_join(parts), fraction=_pct(fraction)))
elif stage == "weights":
    state_hover = [] if hold_clip else [(h["state"], "state_word", "")]
    figure = _strip(
        "push",
        tr("step.cb.push"),
        tr("step.fig.weights"),
        [(h["push"], "push", ".3g"), (h["ratio"], "ratio", ".4f"), *adv_hover, *state_hover],
    )
    if not hold_clip:
        push = walk.push[real]
        top = float(np.abs(push).max()) if n_loss else 0.0
        numbers.append(tr("step.num.weights", zero=int((push == 0).sum()), n=n_loss, top=f"{top:.3g}"))
    beta = float(spec.defaults.get("beta") or 0.0)
    if beta > 0:
        numbers.append(tr("step.num.kl", beta=f"{beta:g}", estimator=spec.defaults.get("kl_estimator", "")))
elif stage == "aggregation":
    figure = _strip(
        "share",
        tr("step.cb.share"),
        tr("step.fig.aggregation", mode=walk.loss_agg_mode),
        [(h["share"], "share", ".3f"), (h["weight"], "token_weight", ".3g"), (h["loss"], "per_token_loss", ".3g")],
        scale="sequential",
        zmin=0.0,
    )
    share = walk.share.sum(axis=1)
    lengths = np.where(real.any(axis=1), walk.lengths, 0)
    long_i, short_i = int(np.argmax(lengths)), int(np.argmin(np.where(lengths > 0, lengths, 10**9)))
    rule = tr(
        f"step.agg.{walk.loss_agg_mode}",
        N=n_loss,
        G=walk.group_size,
        lmax="" if walk.norm_length is None else f"{walk.norm_length:g}",
    )
    numbers.append(
        tr(
            "step.num.aggregation",
            loss=f"{walk.loss:.4g}",
            rule=rule,
            long=_pct(float(share[long_i])),
            short=_pct(float(share[short_i])),
        )
    )
else:  # update
    figure = _strip(
        "delta_log_prob",
        tr("step.cb.delta"),
        tr("step.fig.update"),
        [(h["prob"], "prob", ".3f"), (h["new_prob"], "new_prob", ".3f"), (h["push"], "push", ".3g")],
    )
    agree, pushed = walk.moved_as_pushed
    numbers.append(
        tr(
            "step.num.update" if pushed else "step.num.update_none",
            before=f"{walk.loss:.4g}",
            after=f"{walk.loss_after:.4g}",
            first=f"{walk.first_order:+.3g}",
            agree=agree,
            pushed=pushed,
        )
    )

with figure_box:
    chart(figure, f"step-{stage}")

# ------------------------------------------------------------------------------- the stage's card
with card:
    st.markdown(f"**{k}. {tr(f'step.stage.{stage}')}**")
    if objective == S.BASELINE:
        st.caption(tr("step.baseline_note", title=title))
    elif stage in marks:
        st.badge(tr("step.changed_badge", title=title), icon=":material/difference:", color="orange")
        st.caption("  \n".join(_change_line(c) for c in marks[stage]))
    stage_fields = {"title": title, "prompt": walk.prompt, "G": walk.group_size, "mode": walk.loss_agg_mode}
    if stage == "advantages":
        rule_key = S.advantage_rule(objective)
        estimator = estimator_titles(L).get(spec.train_defaults.get("adv_estimator"), "")
        stage_fields["rule"] = tr(f"step.rule.{rule_key}", estimator=estimator)
    lede(tr(f"step.lede.{stage}", **stage_fields))
    if figure_held:
        held_note()
        st.caption(tr("step.held_advantages" if stage == "advantages" else "step.held_clip"))
    elif stage == "weights" and hold_clip:  # its count of unpushed tokens would tell the clip's share
        held_note()
    for line in numbers:
        st.markdown(line)
    target = page(S.STAGE_PAGES[stage])
    st.page_link(target.file, label=tr("step.explore", title=tr(f"nav.{target.key}")), icon=":material/explore:")

# --------------------------------------------------------------------------- predict, then check
if questions:
    with st.expander(tr("teach.header"), expanded=True):
        st.caption(tr("teach.intro"))
        for col, prediction in zip(st.columns(len(questions), border=True), questions):
            with col:
                at = S.QUESTION_STAGE[prediction.key]
                st.caption(tr("step.q_at", k=S.STAGES.index(at) + 1, stage=tr(f"step.stage.{at}")))
                predict(prediction, asked)

with notes():
    st.markdown(tr("step.notes_intro"))
    st.markdown(f"**{k}. {tr(f'step.stage.{stage}')}.** " + tr(f"step.notes.{stage}"))

with practitioners():
    selectors = []
    for framework, args in (("TRL", spec.trl), ("verl", spec.verl)):
        shown = [f"`{key}={value!r}`" for key, value in (args or {}).items() if not callable(value)]
        if shown:
            selectors.append(f"{framework} " + ", ".join(shown))
    st.markdown(tr("step.practitioners", selector=_join(selectors) or tr("step.selector_none")))
    if not (hold_adv or hold_clip):
        csv_download(frame.drop(columns=["state_word"]), f"step-{objective}", key="st_csv", label=tr("step.csv"))
