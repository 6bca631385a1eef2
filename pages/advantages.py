"""Advantage estimators side by side: every entry of ``rlviz.core.estimators.ESTIMATORS`` on one group
of rewards the user types, the difficulty bias each carries, and where response length enters.

Widgets -> ``rlviz.experiments.advantages`` -> ``rlviz.plots.advantages`` -> ``app_common.chart``.
Nothing here branches on an estimator's name: the choices, the table, the notes and the caption's
numbers come from the registry and the experiment's frames; each estimator's name in the page's
language from ``A.estimator_titles``. Widget keys start with ``ad_``; the estimator choice (``ad_est``)
carries registry keys in the URL, the same in both languages (``app_common.seed_choices_from_url``).

Each text field is read on its own (``A.parse_fields``): a field that cannot be read gets its message
under it, in the page's language, and only the estimators that read it (``A.readers``) leave the figure;
the rest of the page stays drawn. While a question waits, the bars of the estimator it asks about
(``A.QUESTION_ESTIMATOR``) are held back (``answers_held``).
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
    seed_choices_from_url,
    show_bad_input,
    tr,
    write_choices_to_url,
)
from app_common.predictions import answers_held
from app_common.template import notes, page_top, practitioners
from rlviz.core.estimators import ESTIMATORS
from rlviz.experiments import advantages as A
from rlviz.i18n import LIST_SEPARATOR
from rlviz.numbering import response_number
from rlviz.plots.advantages import advantage_bars_figure, difficulty_bias_figure
from rlviz.teach.predict import PREDICTIONS

ensure_shell()
L = lang()
state = st.session_state
titles = A.estimator_titles(L)  # registry key -> its name in the page's language
names = {f"name.{n}": title for n, title in titles.items()}
BIAS_AT = 0.1  # the pass rate the bias caption reads the curves at

FIELDS = {
    "rewards": tr("advantages.rewards"),
    "second_reward": tr("advantages.second"),
    "greedy_reward": tr("advantages.greedy"),
    "lengths": tr("advantages.lengths"),
    "adv_estimator": tr("advantages.estimators"),
}


# ------------------------------------------------------------------ cached results and figure specs
# Pure functions of their arguments, shared by every session (``figure_cache``: the figure's spec;
# ``words``: the labels it shows, so the language is part of the key).
@st.cache_data(show_spinner=False, max_entries=32)
def _group(texts: tuple[str, str, str, str], chosen: tuple[str, ...]):
    """The parsed inputs and every chosen estimator's advantages: (inputs, advantage table). Each field
    is read on its own (``parse_fields``): the page has named any field that could not be read and
    left out the estimators that read it."""
    inputs = A.parse_fields(*texts)[0]
    return inputs, A.advantage_table(inputs, list(chosen))


@figure_cache
def _bars_figure(texts: tuple[str, str, str, str], chosen: tuple[str, ...], words: tuple):
    return advantage_bars_figure(_group(texts, chosen)[1], dict(words))


@st.cache_data(show_spinner=False, max_entries=32)
def _bias(group_size: int):
    return A.difficulty_bias(group_size)


@figure_cache
def _bias_figure(group_size: int, words: tuple):
    return difficulty_bias_figure(_bias(group_size), dict(words))


page_top("advantages")


def _names(keys) -> str:
    """Estimators' names in the page's language, as running text."""
    return LIST_SEPARATOR[L].join(titles[n] for n in keys)


def _field_error(exc: ValueError, where, left_out=()) -> None:
    """A field's error under the field (``where``): the message names it in the page's language (the
    library's English detail after it, :func:`show_bad_input`), then which estimators the figure
    leaves out until it is fixed (the rest of the page stays drawn)."""
    show_bad_input(exc, FIELDS, where=where)
    if left_out:
        where.caption(tr("advantages.left_out", names=_names(left_out)))


# ---------------------------------------------------------------------------------------- 1. one group
@fragment
def group_section() -> None:
    # the rewards just above the figure they drive; the inputs only some estimators read (second reward,
    # greedy reward, lengths) and the choice of estimators under it; each field's error under that field
    rewards_col, _ = st.columns([1, 1])
    with rewards_col:
        rewards_text = st.text_input(
            tr("advantages.rewards"),
            A.DEFAULT_REWARDS,
            key="ad_r",
            help=tr("advantages.rewards_help"),
            bind="query-params",
        )
        rewards_box = st.container()
    figure_box = st.container()
    c2, c3, c4 = st.columns(3)
    with c2:
        second_text = st.text_input(
            tr("advantages.second"),
            A.DEFAULT_SECOND,
            key="ad_r2",
            help=tr("advantages.second_help"),
            bind="query-params",
        )
        second_box = st.container()
    with c3:
        greedy_text = st.text_input(
            tr("advantages.greedy"),
            A.DEFAULT_GREEDY,
            key="ad_greedy",
            help=tr("advantages.greedy_help"),
            bind="query-params",
        )
        greedy_box = st.container()
    with c4:
        lengths_text = st.text_input(
            tr("advantages.lengths"),
            A.DEFAULT_LENGTHS,
            key="ad_len",
            help=tr("advantages.lengths_help"),
            bind="query-params",
        )
        lengths_box = st.container()
    # the URL carries registry keys (a bound widget writes the label it shows: a link copied in Chinese
    # chose nothing in English); the registry titles older links carried still open their estimators
    seed_choices_from_url("ad_est", list(ESTIMATORS), A.default_choice(), aliases=A.estimator_url_aliases())
    chosen = st.multiselect(
        tr("advantages.estimators"),
        list(ESTIMATORS),
        format_func=titles.get,
        key="ad_est",
        placeholder=tr("common.choose"),
    )
    chosen_box = st.container()
    write_choices_to_url("ad_est", A.default_choice())
    texts = (rewards_text, second_text, greedy_text, lengths_text)
    inputs, errors = A.parse_fields(*texts)
    boxes = {"rewards": rewards_box, "second_reward": second_box, "greedy_reward": greedy_box, "lengths": lengths_box}
    left_out: set[str] = set()
    for field, exc in errors.items():
        lost = [] if field == "rewards" else A.readers(field, chosen)
        _field_error(exc, boxes[field], lost)
        left_out.update(lost)
    if not chosen:
        show_bad_input(ValueError(f"adv_estimator: {tr('advantages.need_estimator')}"), FIELDS, where=chosen_box)
    if inputs is None or not chosen:
        return
    # the registry says which estimators need token statistics the typed group lacks: named, not drawn
    tokenwise = A.per_token(chosen)
    shown = [n for n in chosen if n not in left_out and n not in tokenwise]
    prediction_state = A.state_from_inputs(inputs)  # what state_from_settings("advantages", ...) gives
    asked = [p for p in PREDICTIONS["advantages"] if p.applies(prediction_state)]
    # while a question waits, the bars of the estimator it asks about are held back: they are its answer
    held = [A.QUESTION_ESTIMATOR[p.key] for p in asked if answers_held([p], prediction_state)]
    drawn = [n for n in shown if n not in held]
    try:
        table = _group(texts, tuple(drawn))[1] if drawn else None
    except ValueError as exc:  # what the estimators themselves refuse (e.g. rewards too large)
        show_bad_input(exc, FIELDS, where=figure_box)
        return
    responses = {  # the estimators' frames number responses from 1, as every page shows them
        f"response.{response_number(i)}": tr("advantages.response_label", i=response_number(i), r=f"{r:g}")
        for i, r in enumerate(inputs.rewards)
    }
    bar_labels = labels(
        "advantages", "response_axis", "advantage_axis", "reward", "second_reward", **responses, **names
    )
    with figure_box:
        if table is not None:
            chart(_bars_figure(texts, tuple(drawn), tuple(bar_labels.items())), "advantages-group")
        if tokenwise:  # in the figure's place when nothing else is drawn, so the page keeps its shape
            note = tr("advantages.per_token", names=_names(tokenwise), where=tr("page.practitioners"))
            if table is not None:
                st.caption(":material/info: " + note)
            else:
                st.info(note, icon=":material/info:")
        held_shown = [n for n in held if n in shown]
        if held_shown:
            st.caption(":material/visibility_off: " + tr("advantages.held", names=_names(held_shown)))
    if table is not None and len(set(inputs.rewards)) == 1:  # an all-equal group: which estimators still move
        moving = table[table["advantage"].abs() > 1e-9]["estimator"].unique()
        if len(moving):
            st.info(tr("advantages.zero_note", nonzero=_names(moving)))
    # predict, then check: the held bars come back once a question is answered (or skipped)
    if asked:
        with st.expander(tr("teach.header"), expanded=True):
            st.caption(tr("teach.intro"))
            for col, prediction in zip(st.columns(len(asked), border=True), asked):
                with col:
                    predict(prediction, prediction_state)
    with notes(key="ad_notes_group"):
        st.markdown(tr("advantages.intro"))
        st.markdown(tr("advantages.bars_caption"))
    if table is not None:
        csv_download(table, "advantages-group", key="ad_dl_group")


group_section()

with practitioners(key="ad_practitioners"):
    st.markdown(f"**{tr('advantages.table_header')}**")
    for name, spec in ESTIMATORS.items():
        st.markdown(f"**{titles[name]}** · {spec.paper} (arXiv {spec.arxiv}, {spec.equation}) — {spec.summary[L]}")
        formula(spec.latex, small=True)
    st.table(
        pd.DataFrame(
            {
                tr("advantages.col_estimator"): list(titles.values()),
                tr("advantages.col_changes"): [s.changes[L] for s in ESTIMATORS.values()],
                tr("advantages.col_trl"): [s.trl or tr("word.none") for s in ESTIMATORS.values()],
                tr("advantages.col_verl"): [s.verl or tr("word.none") for s in ESTIMATORS.values()],
            }
        ),
        hide_index=True,
        border="horizontal",
    )


# ---------------------------------------------------------------------------------------- 2. difficulty bias
@fragment
def bias_section() -> None:
    st.subheader(tr("advantages.bias_header"))
    G = st.slider(tr("advantages.bias_group_size"), 2, 32, A.BIAS_GROUP_SIZE, key="ad_bG", bind="query-params")
    try:
        df = _bias(int(G))
    except ValueError as exc:
        show_bad_input(exc, {"group_size": tr("advantages.bias_group_size")})
        return
    bias_labels = labels("advantages", "pass_rate", "weight_axis", "relative_axis", **names)
    chart(_bias_figure(int(G), tuple(bias_labels.items())), "advantages-bias")
    values = A.bias_at(df, BIAS_AT)
    reading = LIST_SEPARATOR[L].join(f"{titles.get(n, n)} {v:.0%}" for n, v in values.items())
    st.caption(tr("advantages.bias_reading", G=int(G), p=f"{BIAS_AT:g}", values=reading))
    tokenwise = A.per_token(df["estimator"].unique())
    if tokenwise:  # drawn here, not in section 1: what its curve is
        st.caption(tr("advantages.bias_per_token", names=_names(tokenwise)))
    for column, panel in (("weight", "weight_axis"), ("relative", "relative_axis")):  # lines on one another
        same = A.coinciding(df, column)  # hide each other: named, per panel
        if same:
            groups = LIST_SEPARATOR[L].join(" = ".join(titles.get(n, n) for n in g) for g in same)
            st.caption(tr("advantages.bias_coincide", panel=bias_labels[panel], groups=groups))
    with notes(key="ad_notes_bias"):
        st.markdown(tr("advantages.bias_text"))
        formula(  # full width: the sum does not fit a side column
            r"\mathbb{E}\Big[\sum_i |A_i|\Big] = \sum_{k=0}^{G} \binom{G}{k} p^k (1-p)^{G-k}\, a(k),\quad "
            r"a(k) = \sum_i |A_i|,\quad k = \#\{i: R_i = 1\}",
            small=True,
        )
        st.markdown(tr("advantages.bias_caption"))
    csv_download(df, "advantages-bias", key="ad_dl_bias")


bias_section()

# ---------------------------------------------------------------------------------------- 3. length
st.markdown(f"#### {tr('advantages.length_header')}")
st.markdown(tr("advantages.length_text"))
length_notes = [f"- **{titles[n]}**: {s.length_note[L]}" for n, s in ESTIMATORS.items() if s.length_note]
st.markdown("\n".join(length_notes) if length_notes else tr("advantages.length_none"))
