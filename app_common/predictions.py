"""Predict, then reveal (``rlviz.teach.predict``) on a page."""

from __future__ import annotations

import contextlib

import streamlit as st

from app_common.keys import ANSWERED_KEY, ASKING_KEY
from app_common.text import lang, tr


def predict(
    prediction,
    state: dict,
    result: dict | None = None,
    labels: dict[str, str] | None = None,
    *,
    started: bool = False,
) -> None:
    """Predict, then reveal (``rlviz.teach.predict``): the question at the page's current ``state``,
    a committed guess (a form: typing does not rerun the page), then the answer ``rlviz`` computes for
    the same state, the verdict, the explanation and, where the prediction names one, the figure
    element that shows it. A committed guess is kept per session until the learner tries again or the
    settings change (then the question is asked afresh).

    ``result``: for a prediction with ``needs_result``, what the answer is read from beyond ``state``
    (a finished run's measurements), or ``None`` while the page has none: then a committed guess waits
    with a note. It is not part of the signature, so a guess committed before a run survives the run.
    ``labels``: the names of a line question's lines (default: their keys).
    ``started``: a run at ``state``'s settings has started (it may still be going). A question answered
    from a run (``needs_result``) and not yet committed is then closed: its run's curves already show the
    answer, so it offers no guess, says why, and shows the computed answer once the run has finished
    (the learner predicts the next run by changing a setting); not in a lesson's presenter view, which hides
    the step's figures until the class has answered.
    Drawn in a container keyed ``pred_<prediction key>`` (CSS class ``st-key-pred_...``), so a lesson's
    presenter view can highlight the step's question and hide the page's others (:func:`present_lesson`).
    The question a presented step asks is drawn at the top of the page, under its lede
    (``app_common.template.top_slot``), and an empty container keyed ``pred_moved_<key>`` marks the
    place it left, so that the presenter's style sheet hides what held it (its column, a section of
    questions left empty: ``rlviz.plots.lessons.presenter_css``).
    """
    from app_common.template import top_slot

    if not prediction.needs_result and prediction.applies(state):
        st.session_state.setdefault(ASKED_KEY, {})[prediction.key] = dict(state)  # read by tests/test_no_leak.py
    slot = top_slot() if asking() == prediction.key else None
    if slot is not None:  # where the page would have drawn it; with a placeholder in it, as an empty
        # container is not drawn at all and the presenter's style sheet could not find it
        st.container(key=f"pred_moved_{prediction.key}").empty()
    with slot if slot is not None else contextlib.nullcontext(), st.container(key=f"pred_{prediction.key}"):
        _predict(prediction, state, result, labels, started)  # a presenter's question: at the top of the page


def presenting() -> bool:
    """Whether this script run draws a step of a lesson's presenter view (``app_common.present_lesson``)."""
    return ASKING_KEY in st.session_state


def asking() -> str | None:
    """The key of the question the presented step asks, or None (no presentation, or a step that asks none)."""
    return st.session_state.get(ASKING_KEY)


def signature(state: dict) -> str:
    """The settings a guess is committed at (``state`` as one text): a guess stands while they do."""
    return repr(sorted(state.items()))


def waiting(prediction, state: dict) -> bool:
    """Whether ``prediction`` applies at ``state`` and this session has neither committed a guess nor
    skipped it at these settings (a question whose answer comes from a run never waits here: the
    answer does not exist before the run)."""
    if prediction.needs_result or not prediction.applies(state):
        return False
    return (prediction.key, signature(state)) not in st.session_state.get(ANSWERED_KEY, {})


HELD_KEY = "_rlviz_held"  # this session: the prediction keys whose evidence the page held back
ASKED_KEY = "_rlviz_asked"  # this session: prediction key -> the state it was last asked at (predict)


def answers_held(predictions, state: dict) -> bool:
    """True while one of ``predictions`` waits for the learner at ``state`` (:func:`waiting`): the page
    then draws :func:`held_note` in place of each element that would state its answer (a figure's
    value labels, a table, a sentence), so that nothing in view gives the answer away before the
    commit. Records the waiting keys under :data:`HELD_KEY` (read by the tests).

    In a lesson's presenter view only the question the step asks counts (:func:`asking`): the class
    sees no other (the view hides them), so no other could ever release what it holds; on a step that
    asks none, nothing is held."""
    if presenting():
        predictions = [p for p in predictions if p.key == asking()]
    keys = [p.key for p in predictions if waiting(p, state)]
    held = st.session_state.setdefault(HELD_KEY, set())
    held.update(keys)
    return bool(keys)


def questions_header(intro: str = "teach.intro") -> None:
    """The heading of a page's questions ("Predict, then check") and its one-line ``intro`` (a locale
    key); nothing in a lesson's presenter view, where the step's question stands at the top of the page
    and the others are hidden (a heading over no question would be left behind)."""
    if presenting():
        return
    st.subheader(tr("teach.header"))
    st.caption(tr(intro))


def held_note(where=None) -> None:
    """One line in place of an element held back by :func:`answers_held`; nothing in a lesson's presenter
    view, where the question stands at the top of the page and the class answers it first (a line per
    element held back would leave gaps down the projected page)."""
    if presenting():
        return
    (where or st).caption(":material/visibility_off: " + tr("teach.held"))


def _answer(prediction, merged: dict, name) -> None:
    """The computed answer at ``merged`` (a question's state and its run's result) and why, with no verdict."""
    from rlviz.i18n import LIST_SEPARATOR

    key = prediction.key
    try:
        answer = prediction.compute(merged)
    except ValueError as exc:
        st.warning(tr("teach.no_answer", error=str(exc)), icon=":material/info:")
        return
    if prediction.kind == "number":
        shown, why = f"{float(answer):.4g}", f"{key}.why"
    elif prediction.kind == "choice":
        shown, why = name(answer), f"{key}.why.{answer}"
    else:
        shown = LIST_SEPARATOR[lang()].join(name(line) for line in answer.top)
        why = f"{key}.why.{'tied' if answer.tied else 'apart'}"
    st.info(tr("teach.skipped", answer=shown), icon=":material/visibility:")
    st.markdown(tr(why, answer=shown, **prediction.why_fields(merged)))


def _predict(
    prediction,
    state: dict,
    result: dict | None = None,
    labels: dict[str, str] | None = None,
    started: bool = False,
) -> None:
    from rlviz.i18n import LIST_SEPARATOR
    from rlviz.teach.predict import reveal

    state_ = st.session_state
    key = prediction.key
    store = f"pr_{key}"
    fields = prediction.fields(state)
    signature_ = signature(state)

    def name(choice: str) -> str:  # a choice's label, or a line's name in the view
        return tr(f"{key}.choice.{choice}") if prediction.kind == "choice" else (labels or {}).get(choice, choice)

    st.markdown(tr(f"{key}.q", **fields))
    committed = state_.get(store)
    # every answer committed in this session, by question and settings: back at settings answered
    # before (a presenter's Previous, a slider moved back) the answer stands again; a teacher found
    # Next then Previous asked the class the same question twice
    answered = state_.setdefault(ANSWERED_KEY, {})
    changed = committed is not None and committed["signature"] != signature_
    if changed or committed is None:
        state_.pop(store, None)
        committed = None
        if (key, signature_) in answered:
            committed = state_[store] = {"signature": signature_, "guess": answered[(key, signature_)]}
        elif changed:
            st.caption(tr("teach.changed"))
    if committed is None and prediction.needs_result and (started or result is not None) and not presenting():
        # the run at these settings has started without a guess: its curves show the answer already, so
        # the question is closed for this run (a guess now would be read off the page). Not in a lesson's
        # presenter view: it hides the step's figures until the class has answered (a lesson may ask a
        # second question of the run an earlier step made)
        st.caption(":material/lock: " + tr("teach.too_late"))
        if result is not None:
            _answer(prediction, {**state, **result}, name)
        return
    if committed is None:
        if asking() == key:  # a presenter's question: the page's sentences keyed answers_<name> wait for the class
            from rlviz.plots.lessons import hidden_answers_css

            st.html(hidden_answers_css())
        with st.form(key=f"form_{key}", border=False):
            if prediction.kind == "number":
                guess = st.number_input(tr("teach.your_guess"), value=None, step=0.01, format="%.4f", key=f"{store}_in")
            else:
                guess = st.radio(
                    tr("teach.your_guess"),
                    list(prediction.options(state)),
                    index=None,
                    format_func=name,
                    key=f"{store}_in_{lang()}",
                )
            buttons = st.container(horizontal=True)
            with buttons:
                committing = st.form_submit_button(tr("teach.commit"))
                skipping = st.form_submit_button(tr("teach.skip"), type="tertiary")
            if committing and guess is None:  # a commit with nothing typed or chosen: say so, next to it
                st.caption(":material/edit: " + tr("teach.enter_first"))
            if (committing and guess is not None) or skipping:
                guess = None if skipping else guess  # skipped: the answer shown without a verdict
                state_[store] = {"signature": signature_, "guess": guess}
                answered[(key, signature_)] = guess
                st.rerun()
        return
    if prediction.needs_result and result is None:  # committed before the run: kept until it has finished
        guess = committed["guess"]
        if guess is None:
            st.info(tr("teach.skipped_wait"), icon=":material/hourglass_empty:")
        else:
            st.info(
                tr("teach.waiting", guess=f"{guess:.4g}" if prediction.kind == "number" else name(guess)),
                icon=":material/hourglass_empty:",
            )
    elif committed["guess"] is None:  # skipped: the computed answer and why, no verdict
        _answer(prediction, {**state, **(result or {})}, name)
    else:
        merged = {**state, **(result or {})}
        try:
            verdict = reveal(prediction, merged, committed["guess"])
        except ValueError as exc:  # the measurement holds no answer (e.g. a step that made no update)
            st.warning(tr("teach.no_answer", error=str(exc)), icon=":material/info:")
            verdict = None
        if verdict is not None:
            if prediction.kind == "number":
                answer, guess = f"{verdict.answer:.4g}", f"{verdict.guess:.4g}"
                why = f"{key}.why"
            elif prediction.kind == "choice":
                answer, guess = name(verdict.answer), name(verdict.guess)
                why = f"{key}.why.{verdict.answer}"
            else:  # a line: the highest, and any line the measurement cannot tell from it
                answer = LIST_SEPARATOR[lang()].join(name(line) for line in verdict.answer.top)
                guess = name(verdict.guess)
                why = f"{key}.why.{'tied' if verdict.answer.tied else 'apart'}"
            if verdict.correct:
                st.success(tr("teach.right", answer=answer), icon=":material/check_circle:")
            else:
                st.warning(tr("teach.wrong", guess=guess, answer=answer), icon=":material/lightbulb:")
            why_fields = prediction.why_fields(merged)
            st.markdown(tr(why, answer=answer, **why_fields))
            if prediction.figure:
                st.markdown(":material/arrow_downward: " + tr(prediction.figure, answer=answer, **why_fields))
    if st.button(tr("teach.again"), key=f"{store}_again"):
        state_.pop(store, None)
        answered.pop((key, signature_), None)
        st.rerun()
