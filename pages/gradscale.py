"""Gradient scale and the learning rate (issue 41): the gradient norm of one real batch under every registry
objective (each on its own aggregation or all on one, at the first update or the second), then what a
constant factor c on the loss does to the first update under AdamW and under SGD, clipping on and off.

Widgets -> ``rlviz.experiments.gradscale`` (the trainer's own update on the step page's batch; results cached
by their inputs in ``app_common.parts.gradscale``) -> ``rlviz.plots.gradscale`` -> ``app_common.chart``. The
aggregation (``gs_agg``), the update (``gs_step``) and the objective (``gs_obj``) carry their keys in the URL,
the same in both languages; G, the prompt, the learning rate and c are bound. Nothing here branches on an
objective's name. The second figure answers the page's two questions, so it (and its reading) is held back
until the learner commits or skips (``answers_held``): it is computed only then.
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
from app_common.parts import gradscale as parts
from app_common.predictions import answers_held, held_note, questions_header
from app_common.template import notes, page_top, practitioners
from rlviz.core.objectives import ALGORITHMS
from rlviz.experiments import gradscale as X
from rlviz.experiments.step import AUTO_PROMPTS
from rlviz.experiments.weighting import parse_prompt
from rlviz.teach.predict import PREDICTIONS, state_from_settings

ensure_shell()
L = lang()
state = st.session_state
titles = {n: spec.title for n, spec in ALGORITHMS.items()}
FIELDS = X.fields(L)
STEPS = ("first", "second")

page_top("gradscale")
# the URL carries the keys (a bound selectbox would write the label it shows, which differs by language)
seed_choice_from_url("gs_agg", list(X.AGGREGATION_CHOICES), X.OWN)
seed_choice_from_url("gs_step", list(STEPS), STEPS[0])

# ------------------------------------------------------------------------------- 1. the norms figure
controls = st.container(horizontal=True, gap="small", vertical_alignment="bottom", key="gs_controls")
with controls:
    aggregation = st.selectbox(
        tr("gradscale.aggregation"),
        list(X.AGGREGATION_CHOICES),
        format_func=lambda m: tr("gradscale.agg.own") if m == X.OWN else m,
        key="gs_agg",
        help=tr("gradscale.aggregation_help"),
        width=250,
    )
    step = st.segmented_control(
        tr("gradscale.step"),
        list(STEPS),
        format_func=lambda s: tr(f"gradscale.step.{s}"),
        key="gs_step",
        help=tr("gradscale.step_help"),
        required=True,
    )
write_choice_to_url("gs_agg", X.OWN)
write_choice_to_url("gs_step", STEPS[0])
second = step == "second"

figure_box, card = st.columns([2.3, 1], gap="medium")
c1, c2 = st.columns(2, gap="medium")
c1.slider(
    tr("gradscale.group_size"),
    X.GROUP_SIZES[0],
    X.GROUP_SIZES[1],
    X.DEFAULT_GROUP_SIZE,
    key="gs_G",
    help=tr("gradscale.group_size_help"),
    bind="query-params",
)
# the box shows the prompt in use: empty, or still the one drawn before G or the seed changed, it is filled
# with the one drawn now (read back as the drawn batch by the predictions' state: one path)
typed = state.get("gs_prompt") or ""
if not typed or typed == state.get("gs_prompt_drawn"):
    try:
        drawn = X.prediction_state({"gs_G": state.get("gs_G"), "seed": state.get("seed"), "gs_prompt": ""})
        state["gs_prompt"] = state["gs_prompt_drawn"] = X.drawn_prompt(drawn["seed"], drawn["group_size"])
    except ValueError:  # a bad seed or G: said where the batch is sampled below
        pass
prompt_text = c2.text_input(
    tr("gradscale.prompt"),
    key="gs_prompt",
    help=tr("gradscale.prompt_help", n=AUTO_PROMPTS),
    bind="query-params",
)
prompt_box = c2.container()
try:  # a prompt that cannot be read: said under its field; the page goes on with a drawn prompt
    parse_prompt(prompt_text)
except ValueError as exc:
    show_bad_input(exc, FIELDS, where=prompt_box)

# the page's settings as its predictions read them (seed, G, prompt, objective, lr): one path
asked = state_from_settings("gradscale", state)
seed, G, prompt = asked["seed"], asked["group_size"], asked["prompt"]
registry = parts.registry_key()
try:
    with figure_box, st.spinner(tr("gradscale.computing")):
        sample = X.batch_at(seed, G, prompt)
        frame = parts.norms(seed, G, prompt, aggregation, second, registry)
        figure = parts.norms_figure(seed, G, prompt, aggregation, second, registry, sample.batch.problems[0].prompt, L)
except ValueError as exc:
    show_bad_input(exc, FIELDS, where=figure_box)
    stop()

with figure_box:
    chart(figure, "gradscale-norms")
with card:
    for line in X.norms_reading(frame, sample, second, L):
        st.markdown(line)

with notes(key="gs_notes_norms"):
    st.markdown(tr("gradscale.notes.norms"))

# ---------------------------------------------------------------------- 2. a constant factor c
st.subheader(tr("gradscale.scale_header"))
seed_choice_from_url("gs_obj", list(ALGORITHMS), X.BASELINE, aliases={s.title: n for n, s in ALGORITHMS.items()})
s1, s2, s3 = st.columns(3, gap="medium")
objective = s1.selectbox(
    tr("gradscale.objective"),
    list(ALGORITHMS),
    format_func=titles.get,
    key="gs_obj",
    help=tr("gradscale.objective_help"),
)
write_choice_to_url("gs_obj", X.BASELINE)
s2.select_slider(
    tr("gradscale.lr"),
    X.LRS,
    value=X.DEFAULT_LR,
    format_func="{:g}".format,
    key="gs_lr",
    help=tr("gradscale.lr_help", default=f"{X.DEFAULT_LR:g}"),
    bind="query-params",
)
scale = s3.select_slider(
    tr("gradscale.scale"),
    X.SCALES,
    value=X.DEFAULT_SCALE,
    format_func="{:g}".format,
    key="gs_c",
    help=tr("gradscale.scale_help"),
    bind="query-params",
)
asked = state_from_settings("gradscale", state)  # the objective and lr just drawn
st.caption(tr("gradscale.scale_intro", title=titles[asked["objective"]], clip=f"{X.grad_clip():g}"))
questions = [p for p in PREDICTIONS["gradscale"] if p.applies(asked)]
held = answers_held(questions, asked)  # the figure below gives both answers: drawn after the commit
if questions:
    questions_header()
    for col, prediction in zip(st.columns(len(questions), border=True), questions):
        with col:
            predict(prediction, asked)
sweep = None
if held:
    held_note()
else:
    lr = float(asked["lr"])
    try:
        with st.spinner(tr("gradscale.sweeping")):
            sweep = parts.sweep(seed, G, prompt, asked["objective"], lr, registry)
            chart(parts.scale_figure(seed, G, prompt, asked["objective"], lr, float(scale), registry, L), "gradscale-c")
    except ValueError as exc:
        show_bad_input(exc, FIELDS)
    else:
        for line in X.scale_reading(sweep, float(scale), L):
            st.markdown(line)
settings = X.optimizer_settings()
with notes(key="gs_notes_scale"):
    st.markdown(tr("gradscale.notes.scale", eps=f"{settings['eps']:g}"))
    st.markdown(tr("gradscale.notes.limits", wd=f"{settings['weight_decay']:g}"))

with practitioners(key="gs_practitioners"):
    st.markdown(tr("gradscale.practitioners"))
    csv_download(frame, f"gradscale-norms-{aggregation}", key="gs_csv_norms", label=tr("gradscale.csv_norms"))
    if sweep is not None:
        csv_download(sweep, f"gradscale-c-{asked['objective']}", key="gs_csv_c", label=tr("gradscale.csv_scale"))
