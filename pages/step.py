"""One update, slowly (issue 40): one real update of the shipped tiny LM, walked stage by stage with
Previous / Next, the first stop of the newcomer's path.

Widgets -> ``rlviz.experiments.step`` (the sample, drawn once per seed, G and prompt, and its replay under
the chosen objective, both kept in this session's ``st.session_state``) -> ``rlviz.plots.step`` ->
``app_common.chart``. The stage (``st_stage``) and the objective (``st_obj``) carry their keys in the URL, the
same in both languages (``app_common.seed_choice_from_url``); G, the prompt and the learning rate are bound.
Nothing here branches on an objective's name: the stages an entry changes come from
``rlviz.experiments.step.changes`` (its spec against GRPO's), the trust-region words from its spec. The stage's figure and this session's replays are in
``app_common.parts.step``; the card's numbers and the change list are built by ``rlviz.experiments.step``.
"""

from __future__ import annotations

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
from app_common.parts import step as parts
from app_common.predictions import answers_held, held_note
from app_common.template import lede, notes, page_top, practitioners
from rlviz.app_pages import page
from rlviz.core.objectives import ALGORITHMS
from rlviz.experiments import step as S
from rlviz.experiments.advantages import estimator_titles
from rlviz.experiments.weighting import parse_prompt
from rlviz.teach.predict import PREDICTIONS, state_from_settings

ensure_shell()
L = lang()
state = st.session_state
titles = {n: spec.title for n, spec in ALGORITHMS.items()}
N = len(S.STAGES)
FIELDS = S.fields(L)


def _move(by: int) -> None:
    """Previous / Next: the stage ``by`` places on (a callback: it runs before the stage list is drawn)."""
    at = state.get("st_stage", S.STAGES[0])
    i = S.STAGES.index(at) if at in S.STAGES else 0
    state["st_stage"] = S.STAGES[min(max(i + by, 0), N - 1)]


# ------------------------------------------------------------------------------------------ the top
page_top("step")
# the URL carries the stage's and the objective's keys (a bound radio would write the label it shows);
# a stage's number (?st_stage=3) and an objective's title open them too
seed_choice_from_url("st_stage", list(S.STAGES), S.STAGES[0], aliases={str(k): s for k, s in enumerate(S.STAGES, 1)})
seed_choice_from_url("st_obj", list(ALGORITHMS), S.BASELINE, aliases={spec.title: n for n, spec in ALGORITHMS.items()})
stage = state["st_stage"] if state.get("st_stage") in S.STAGES else S.STAGES[0]
k = S.STAGES.index(stage) + 1
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
try:
    with figure_box, st.spinner(tr("step.sampling")):
        walk = parts.walk(asked)  # sampled once per session, replayed under the objective (kept too)
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
rows = S.row_labels(walk, past_adv and not hold_adv, L)
frame = frame.assign(state_word=frame["state"].map(lambda s: tr(f"step.state.{s}")))

# ------------------------------------------------------------------------------ the stage's figure
figure, figure_held = parts.stage_figure(walk, frame, stage, rows, hold_adv, hold_clip)
numbers = S.stage_numbers(walk, stage, objective, {"advantages": hold_adv, "clip": hold_clip}, L)
with figure_box:
    chart(figure, f"step-{stage}")
    if stage in S.TOKEN_STAGES:  # what the token cells' marks are: the task's filler dots, EOS, no padding
        st.caption(S.token_note(walk, L))

# ------------------------------------------------------------------------------- the stage's card
with card:
    st.markdown(f"**{k}. {tr(f'step.stage.{stage}')}**")
    if objective == S.BASELINE:
        st.caption(tr("step.baseline_note", title=title))
    elif stage in marks:
        st.badge(tr("step.changed_badge", title=title), icon=":material/difference:", color="orange")
        st.caption("  \n".join(S.change_line(c, L) for c in marks[stage]))
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
    st.markdown(S.selectors_text(objective, L))
    if not (hold_adv or hold_clip):
        csv_download(frame.drop(columns=["state_word"]), f"step-{objective}", key="st_csv", label=tr("step.csv"))
