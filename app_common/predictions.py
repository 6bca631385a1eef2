"""Predict, then reveal (``rlviz.teach.predict``) on a page."""

from __future__ import annotations

import streamlit as st

from app_common.keys import ANSWERED_KEY, ASKING_KEY
from app_common.text import lang, tr


def predict(prediction, state: dict, result: dict | None = None, labels: dict[str, str] | None = None) -> None:
    """Predict, then reveal (``rlviz.teach.predict``): the question at the page's current ``state``,
    a committed guess (a form: typing does not rerun the page), then the answer ``rlviz`` computes for
    the same state, the verdict, the explanation and, where the prediction names one, the figure
    element that shows it. A committed guess is kept per session until the learner tries again or the
    settings change (then the question is asked afresh).

    ``result``: for a prediction with ``needs_result``, what the answer is read from beyond ``state``
    (a finished run's measurements), or ``None`` while the page has none: then a committed guess waits
    with a note. It is not part of the signature, so a guess committed before a run survives the run.
    ``labels``: the names of a line question's lines (default: their keys).
    Drawn in a container keyed ``pred_<prediction key>`` (CSS class ``st-key-pred_...``), so a lesson's
    presenter view can highlight the step's question and hide the page's others (:func:`present_lesson`).
    """
    with st.container(key=f"pred_{prediction.key}"):
        _predict(prediction, state, result, labels)


def _predict(prediction, state: dict, result: dict | None = None, labels: dict[str, str] | None = None) -> None:
    from rlviz.i18n import LIST_SEPARATOR
    from rlviz.teach.predict import reveal

    state_ = st.session_state
    key = prediction.key
    store = f"pr_{key}"
    fields = prediction.fields(state)
    signature = repr(sorted(state.items()))

    def name(choice: str) -> str:  # a choice's label, or a line's name in the view
        return tr(f"{key}.choice.{choice}") if prediction.kind == "choice" else (labels or {}).get(choice, choice)

    st.markdown(tr(f"{key}.q", **fields))
    committed = state_.get(store)
    # every answer committed in this session, by question and settings: back at settings answered
    # before (a presenter's Previous, a slider moved back) the answer stands again; a teacher found
    # Next then Previous asked the class the same question twice
    answered = state_.setdefault(ANSWERED_KEY, {})
    changed = committed is not None and committed["signature"] != signature
    if changed or committed is None:
        state_.pop(store, None)
        committed = None
        if (key, signature) in answered:
            committed = state_[store] = {"signature": signature, "guess": answered[(key, signature)]}
        elif changed:
            st.caption(tr("teach.changed"))
    if committed is None:
        if state_.get(ASKING_KEY) == key:  # a presenter's question: the page's answers wait for the class
            from rlviz.plots.lessons import hidden_answers_css

            st.html(hidden_answers_css())
            st.caption(tr("teach.answers_hidden"))
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
            if st.form_submit_button(tr("teach.commit")) and guess is not None:
                state_[store] = {"signature": signature, "guess": guess}
                answered[(key, signature)] = guess
                st.rerun()
        return
    if prediction.needs_result and result is None:  # committed before the run: kept until it has finished
        guess = committed["guess"]
        st.info(
            tr("teach.waiting", guess=f"{guess:.4g}" if prediction.kind == "number" else name(guess)),
            icon=":material/hourglass_empty:",
        )
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
        answered.pop((key, signature), None)
        st.rerun()
