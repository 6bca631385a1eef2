"""KL estimators: value and gradient against x, exact expectations on a small vocabulary (in the loss
and in the reward), and links that run each placement on the live model.

Widgets -> ``rlviz.experiments.kl`` (``estimator_curves``, ``categorical_view``, ``live_query``,
``load_measured``) -> ``rlviz.plots.kl`` figures. Every estimator comes from the registry
``rlviz.core.kl.KL_SPECS``; the page never branches on an estimator's name. Widget keys start with
``kl_``. Figures are cached by their inputs (``figure_cache``): moving the x range leaves the
categorical figures as they were, and moving the sampler's shift leaves the curves. The curves are the
page's main figure, under its lede; the expected gradients, their errors, their table and the reading
of sections 2 and 3 answer the page's questions, so they are held back until the learner commits
(``answers_held``).
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from app_common import (
    chart,
    csv_download,
    ensure_shell,
    figure_cache,
    formula,
    fragment,
    labels,
    lang,
    predict,
    show_bad_input,
    tr,
)
from app_common.predictions import answers_held, held_note
from app_common.template import notes, page_top, practitioners
from rlviz.app_pages import page
from rlviz.core.kl import KL_SPECS
from rlviz.experiments import kl as X
from rlviz.plots import kl as P
from rlviz.teach.predict import PREDICTIONS, state_from_settings

ensure_shell()
L = lang()
state = st.session_state

page_top("kl")
CURVE_POINTS = 161


@st.cache_data(max_entries=32, show_spinner=False)
def _curves(x_min: float, x_max: float):
    """``estimator_curves`` over [x_min, x_max], cached by its inputs."""
    return X.estimator_curves(x_min, x_max, CURVE_POINTS)


@figure_cache
def _curves_figure(x_min: float, x_max: float, lang: str):
    return P.curves_figure(
        _curves(x_min, x_max), labels("kl", "value_panel", "grad_panel", "x", "value", "grad", "raw", "clamp")
    )


@figure_cache
def _view_figure(which: str, policy: str, ref: str, shift: float, lang: str):
    """One of the categorical view's figures (``which``: dist, gradients, errors); the view itself
    is memoised by ``categorical_view``."""
    view = X.categorical_view(policy, ref, shift)
    if which == "dist":
        return P.distribution_figure(
            view.tokens, labels("kl", "pi", "pi_ref", "pi_old", "token", "prob", title=tr("kl.dist_title"))
        )
    if which == "gradients":
        grad_labels = labels(
            "kl", "loss_panel", "reward_panel", "token", "true_reverse", "true_forward", grad=tr("kl.grad_theta")
        )
        return P.gradient_figure(view.gradients, grad_labels)
    return P.error_figure(
        view.table, labels("kl", "loss", "reward", "rel_error", "std", "estimator", "error_panel", "std_panel")
    )


# ------------------------------------------------------------------------------------------- 1. curves
@fragment
def curves_section() -> None:
    # the page's main figure, its one control just above it; the explanations on demand below it
    x_min, x_max = st.slider(
        tr("kl.x_range"),
        -20.0,
        20.0,
        (-3.0, 3.0),
        0.5,
        key="kl_x",
        help=tr("kl.x_range_help"),
        bind="query-params",
    )
    try:
        curves = _curves(float(x_min), float(x_max))
    except ValueError as exc:
        show_bad_input(exc, {"x_max": tr("kl.x_range"), "x_min": tr("kl.x_range")})
        return
    chart(_curves_figure(float(x_min), float(x_max), L), "kl-curves")
    with notes(key="kl_notes_curves"):
        st.markdown(f"**{tr('kl.curves_header')}**")
        st.markdown(tr("kl.intro"))
        st.markdown(tr("kl.curves_text"))
    csv_download(curves, "kl-curves", key="kl_dl_curves")


curves_section()

with practitioners(key="kl_practitioners"):
    st.markdown(f"**{tr('kl.registry_header')}**")
    formula(r"x=\log\pi_\theta(y)-\log\pi_\text{ref}(y),\quad \rho=\pi_\theta(y)/\pi_\text{old}(y)", small=True)
    st.table(  # a table wraps its cells: every column shows at 1400 px (a dataframe cut the last three)
        pd.DataFrame(
            {
                tr("kl.col.estimator"): list(KL_SPECS),
                tr("kl.col.formula"): [s.help.get(L, s.name) for s in KL_SPECS.values()],
                tr("kl.col.verl"): [s.verl or "—" for s in KL_SPECS.values()],
                tr("kl.col.trl"): [s.trl or "—" for s in KL_SPECS.values()],
                tr("kl.col.source"): [s.source for s in KL_SPECS.values()],
            }
        ),
        hide_index=True,
        border="horizontal",
    )
    st.caption(tr("kl.verl_plus_note"))
    st.markdown(tr("kl.paper_note"))
    st.caption(tr("kl.sources"))


# ------------------------------------------------------------------------------------- 2. categorical
st.subheader(tr("kl.cat_header"))
FIELDS = {
    "policy_logits": tr("kl.policy_logits"),
    "ref_logits": tr("kl.ref_logits"),
    "old_shift": tr("kl.old_shift"),
}
controls, dist_box = st.columns([1, 2], gap="medium")
with controls:
    st.text_input(
        tr("kl.policy_logits"), X.DEFAULT_POLICY, key="kl_pol", help=tr("kl.policy_logits_help"), bind="query-params"
    )
    st.text_input(
        tr("kl.ref_logits"), X.DEFAULT_REF, key="kl_ref", help=tr("kl.policy_logits_help"), bind="query-params"
    )
    st.slider(
        tr("kl.old_shift"), 0.0, 1.0, 0.0, 0.05, key="kl_shift", help=tr("kl.old_shift_help"), bind="query-params"
    )
    error_box = st.container()
with notes(key="kl_notes_cat"):
    st.markdown(tr("kl.cat_text"))

view = None
try:
    question_state = state_from_settings("kl", state)
    view = X.categorical_view(
        question_state["policy_logits"], question_state["ref_logits"], question_state["old_shift"]
    )
except ValueError as exc:
    show_bad_input(exc, FIELDS, where=error_box)  # under the fields; the rest of the page stays drawn

if view is not None:
    inputs = (question_state["policy_logits"], question_state["ref_logits"], float(question_state["old_shift"]), L)
    with dist_box:  # the three distributions: no answer in them
        chart(_view_figure("dist", *inputs), "kl-dist")
        st.markdown(tr("kl.kl_values", kl=f"{view.kl:.4f}", kl_forward=f"{view.kl_forward:.4f}"))
    # predict, then check: the gradients, the errors, their table and the reading below answer both
    # questions, so they are held back until the learner commits (or skips)
    held = answers_held(PREDICTIONS["kl"], question_state)
    with st.expander(tr("teach.header"), expanded=True):
        st.caption(tr("teach.intro"))
        for col, prediction in zip(st.columns(len(PREDICTIONS["kl"]), border=True), PREDICTIONS["kl"]):
            with col:
                predict(prediction, question_state)

    if held:
        held_note()
    else:
        chart(_view_figure("gradients", *inputs), "kl-gradients")
        chart(_view_figure("errors", *inputs), "kl-errors")
        shown = view.table.round(4)
        for column in ("route", "direction"):  # the words of these columns, in the session's language
            shown[column] = shown[column].map(lambda v: tr(f"kl.tval.{v}"))
        st.dataframe(shown.rename(columns={c: tr(f"kl.tcol.{c}") for c in shown.columns}), hide_index=True)
        st.caption(tr("kl.table_caption"))
        csv_download(view.table, "kl-expectations", key="kl_dl_table")

    # ------------------------------------------------------------------------------ 3. reward vs loss
    st.subheader(tr("kl.route_header"))
    if held:
        held_note()
    else:
        on_policy = (
            view
            if view.old_shift == 0
            else X.categorical_view(question_state["policy_logits"], question_state["ref_logits"], 0.0)
        )

        def r(v, e: str, route: str, column: str = "rel_error") -> str:
            x = float(v.row(e, route)[column])
            return "0" if abs(x) < X.EXACT else f"{x:.3g}"

        st.markdown(
            tr(
                "kl.route_text",
                shift=f"{view.old_shift:g}",
                k1_loss=r(on_policy, "k1", "loss", "norm_ratio"),
                k1_loss_std=r(on_policy, "k1", "loss", "std"),
                k1_reward=r(on_policy, "k1", "reward"),
                k2_loss=r(on_policy, "k2", "loss"),
                k3p_loss=r(on_policy, "k3+", "loss"),
                k3_loss=r(on_policy, "k3", "loss"),
                k3_loss_forward=r(on_policy, "k3", "loss", "rel_error_forward"),
                k3_value=f"{on_policy.row('k3', 'loss')['expected_value']:.4f}",
                kl=f"{on_policy.kl:.4f}",
                k3_reward=r(on_policy, "k3", "reward"),
                bc_loss=r(on_policy, "k3_bc", "loss"),
                bc_off=r(view, "k3_bc", "loss"),
                k3_off=r(view, "k3", "loss"),
                k2_off=r(view, "k2", "loss"),
                k1_reward_off=r(view, "k1", "reward"),
            )
        )

# ------------------------------------------------------------------------------------------- 4. live
st.subheader(tr("kl.live_header"))
s = X.LIVE_SETTINGS
st.markdown(
    tr("kl.live_text", beta=f"{s['beta']:g}", steps=s["steps"], prompts=s["prompts_per_step"], lr=f"{s['lr']:g}")
)
live = page("live")
cols = st.columns(2)  # two links a row: each label names the estimator and the framework setting in full
for i, (arm, _, _) in enumerate(X.LIVE_ARMS):
    with cols[i % 2]:
        st.page_link(
            live.file,
            label=tr(f"kl.arm.{arm}"),
            icon=live.icon,
            query_params=X.live_query(arm) | ({"lang": L} if L != "en" else {}),
        )
st.markdown(f"**{tr('kl.measured_header')}**")
try:
    measured = X.load_measured()
except ValueError as exc:
    show_bad_input(exc)
    measured = {}
if measured:
    taken = measured["settings"]
    st.markdown(
        tr(
            "kl.measured_text",
            seed=taken["seed"],
            steps=taken["steps"],
            device=taken.get("device", "cpu"),
            window=measured.get("window", X.LIVE_WINDOW),
        )
    )
    st.dataframe(
        pd.DataFrame(
            {
                tr("kl.col.arm"): [tr(f"kl.arm.{a}") for a in measured["arms"]],
                tr("kl.col.kl_ref"): [round(v["kl_ref_last"], 4) for v in measured["arms"].values()],
                tr("kl.col.reward"): [round(v["reward_last"], 3) for v in measured["arms"].values()],
            }
        ),
        hide_index=True,
    )
    reading = X.measured_reading(measured)
    st.markdown(
        tr(
            "kl.measured_reading",
            steps=taken["steps"],
            low=f"{reading['low']:.3f}",
            high=f"{reading['high']:.3f}",
            no_kl=f"{reading['no_kl']:.3f}",
            verdict=tr(f"kl.verdict.{reading['verdict']}"),
        )
    )
else:
    st.caption(tr("kl.measured_none"))
