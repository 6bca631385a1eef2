"""The interview page's Streamlit-bound support: the widget helpers its modes share (an answer field, the
previous / next row, the reveal with its link to the proving page, the message slot a callback fills) and
the callbacks that keep the learner's answers, mock and deck in this session (keys ``iv_*``)."""

from __future__ import annotations

import math
import time

import streamlit as st

from app_common.feedback import show_bad_input
from app_common.text import lang, tr
from rlviz.app_pages import page
from rlviz.teach.bank import Question, load_bank
from rlviz.teach.interview import MOCK_TIME_LIMIT_S, draw_mock, next_open, shown_answer, summarise_mock, url_value


def fields() -> dict[str, str]:
    """The parameters a bank error names -> the widget to change."""
    return {"guess": tr("interview.your_answer"), "seed": tr("side.seed")}


def seed() -> int:
    """The sidebar's seed."""
    return int(st.session_state.get("seed", 0) or 0)


def record(qid: str, credit: bool | float, mode: str) -> None:
    """Add one answer to the session's per-topic score: right or wrong (a bool), or the ticked share of
    an explain question's checklist (a float)."""
    credit = float(credit) if isinstance(credit, float) else bool(credit)
    st.session_state.setdefault("iv_results", []).append((qid, credit, mode))


def answer_input(q: Question, key: str):
    """The answer widget of ``q`` (inside a form): a number input, or one radio button per choice."""
    if q.kind == "number":
        # enough decimals to tell a right answer from a wrong one (a tolerance of 0.005 -> 4)
        places = min(max(math.ceil(-math.log10(q.tolerance)) + 1, 2), 8) if q.tolerance > 0 else 6
        return st.number_input(
            tr("interview.your_answer"), value=None, step=10.0 ** -(places - 1), format=f"%.{places}f", key=key
        )
    L = lang()
    return st.radio(
        tr("interview.your_answer"),
        list(q.choices),
        index=None,
        format_func={c: q.choice_text[c][L] for c in q.choices}.get,
        key=key,
    )


def prove_link(entry_key: str, query: dict) -> None:
    """A link to the page that proves it, opened at the settings of ``query``."""
    entry = page(entry_key)
    st.page_link(
        entry.file,
        label=tr("interview.prove", page=tr(f"nav.{entry_key}")),
        icon=entry.icon,
        query_params={k: url_value(v) for k, v in query.items()} or None,
    )


def model_answer(q: Question, ticks=None) -> None:
    """An explain question's model answer (its numbers computed now) and its checklist, each point
    marked ticked or not when ``ticks`` (the ticked points) is given."""
    L = lang()
    st.markdown(f"**{tr('interview.model_answer')}**")
    st.markdown(q.explanation(L, None))
    if ticks is not None:
        st.markdown("\n".join(f"- {'✓' if i in ticks else '✗'} {p}" for i, p in enumerate(q.checklist[L])))


def explain_card(q: Question, key: str, where: str) -> None:
    """An explain question not yet scored: a text box and the Reveal button; once revealed, the
    learner's text, the model answer and the checklist to tick, and the Score button. ``where``:
    ``"practice"`` or ``"mock"`` (which store the revealed texts and the ticks go to)."""
    L = lang()
    revealed = _revealed(where)
    if q.id not in revealed:  # the model answer stays out of view until the learner has written
        with st.form(key=f"{key}_form", border=False):
            st.text_area(tr("interview.your_explanation"), key=f"{key}_text")
            st.form_submit_button(
                tr("interview.reveal_model"),
                key=f"iv_{where}_reveal",
                type="primary",
                on_click=reveal_explain,
                args=(where, q.id, f"{key}_text"),
            )
        return
    st.caption(tr("interview.you_wrote"))
    st.markdown("> " + revealed[q.id].replace("\n", "\n> "))
    model_answer(q)
    st.markdown(tr("interview.checklist"))
    for i, point in enumerate(q.checklist[L]):
        st.checkbox(point, key=f"{key}_tick_{i}")
    st.button(
        tr("interview.score_ticks"),
        key=f"iv_{where}_score",
        type="primary",
        on_click=score_explain,
        args=(where, q.id, key),
    )


def _revealed(where: str) -> dict:
    state = st.session_state
    return state.setdefault("iv_revealed", {}) if where == "practice" else state["iv_mock"].setdefault("revealed", {})


def reveal_explain(where: str, qid: str, text_key: str) -> None:
    """The Reveal button of an explain question: keep the learner's text (or ask for one first)."""
    text = (st.session_state.get(text_key) or "").strip()
    if not text:
        st.session_state[f"iv_{where}_problem"] = "empty"
        return
    _revealed(where)[qid] = text


def score_explain(where: str, qid: str, key: str) -> None:
    """The Score button of an explain question: the ticked checklist points are its answer."""
    q = load_bank().question(qid)
    ticks = tuple(i for i in range(len(q.checklist["en"])) if st.session_state.get(f"{key}_tick_{i}"))
    if where == "practice":
        st.session_state.setdefault("iv_practice", {})[qid] = ticks
        record(qid, q.credit(ticks), "practice")
    else:
        _keep_mock_guess(qid, ticks)


def reveal(q: Question, guess, answer, correct: bool) -> None:
    """The verdict, the computed answer, the explanation and the link to the proving page (for an
    explain question: the points made, the model answer and the ticked checklist)."""
    L = lang()
    if q.kind == "explain":
        if guess is None:
            st.info(tr("interview.unanswered_explain"), icon=":material/help:")
        else:
            k, n = len(guess), len(q.checklist[L])
            (st.success if k == n else st.info)(tr("interview.ticked", k=k, n=n), icon=":material/checklist:")
        model_answer(q, () if guess is None else guess)
        prove_link(q.page, q.query)
        return
    if guess is None:
        st.info(tr("interview.unanswered", answer=shown_answer(q, answer, L)), icon=":material/help:")
    elif correct:
        st.success(tr("interview.right", answer=shown_answer(q, answer, L)), icon=":material/check_circle:")
    else:
        wrong = tr("interview.wrong", guess=shown_answer(q, guess, L), answer=shown_answer(q, answer, L))
        st.warning(wrong, icon=":material/lightbulb:")
    st.markdown(q.explanation(L, answer))
    prove_link(q.page, q.query)


def error_slot(key: str) -> None:
    """Show (once) a message a callback left under ``key``: a bad answer, or none given."""
    problem = st.session_state.pop(key, None)
    if isinstance(problem, ValueError):
        show_bad_input(problem, fields())
    elif problem == "empty":
        st.warning(tr("interview.enter_first"), icon=":material/edit:")


def _move(store: str, name: str, step: int, n: int) -> None:
    positions = st.session_state.setdefault(store, {})
    positions[name] = (positions.get(name, 0) + step) % n


def nav(prefix: str, position: str, n: int, store: str, name: str) -> None:
    """Previous / position / next over ``n`` cards; the position is kept in ``state[store][name]``."""
    row = st.container(horizontal=True, vertical_alignment="center")
    for step, word, icon, pos in ((-1, "previous", "arrow_back", "prev"), (1, "next", "arrow_forward", "next")):
        row.button(
            tr(f"interview.{word}"),
            key=f"{prefix}_{pos}",
            icon=f":material/{icon}:",
            on_click=_move,
            args=(store, name, step, n),
            disabled=n < 2,
        )
        if step < 0:
            row.markdown(position)


# ------------------------------------------------------------------------------------------ practice
def commit_practice(q: Question, key: str) -> None:
    """The Commit button of a practice card: judge the guess under ``key`` (or leave a message)."""
    state = st.session_state
    guess = state.get(key)
    if guess is None:
        state["iv_practice_problem"] = "empty"
        return
    try:
        verdict = q.check(guess)
    except ValueError as exc:
        state["iv_practice_problem"] = exc
        return
    state.setdefault("iv_practice", {})[q.id] = verdict.guess
    record(q.id, verdict.correct, "practice")


# ------------------------------------------------------------------------------------------ mock
def start_mock() -> None:
    """Draw a new mock interview (the next attempt at this seed) and start its clock."""
    state = st.session_state
    attempt = state.get("iv_mock_count", 0)
    try:
        ids = draw_mock(load_bank().questions, seed(), attempt=attempt)
    except ValueError as exc:
        state["iv_mock_problem"] = exc
        return
    state["iv_mock_count"] = attempt + 1
    state["iv_mock"] = {
        "ids": list(ids),
        "seed": seed(),
        "attempt": attempt,
        "started": time.time(),
        "guesses": {},
        "pos": 0,
        "finished": None,
    }


def finish_mock(now: float | None = None) -> None:
    """End the mock in progress (at ``now``, held at the time limit) and add its answers to the
    session's per-topic score, once."""
    mock = st.session_state.get("iv_mock")
    if not mock or mock["finished"] is not None:
        return
    now = time.time() if now is None else now
    mock["finished"] = min(now, mock["started"] + MOCK_TIME_LIMIT_S)
    summary = summarise_mock(mock["ids"], mock["guesses"], mock["started"], mock["finished"], load_bank().questions)
    for qid, correct in summary.results():
        record(qid, correct, "mock")


def commit_mock(qid: str, key: str) -> None:
    """The Commit button of a mock card: keep a valid guess (judged at the end) and move to the next open
    question, or end the mock when none is left or the time ran out."""
    state = st.session_state
    mock = state["iv_mock"]
    if mock["finished"] is not None:
        return
    if time.time() >= mock["started"] + MOCK_TIME_LIMIT_S:
        finish_mock()  # too late: the time ran out before this answer arrived
        return
    guess = state.get(key)
    if guess is None:
        state["iv_mock_problem"] = "empty"
        return
    try:
        load_bank().question(qid).check(guess)  # a valid answer (the verdict waits for the end)
    except ValueError as exc:
        state["iv_mock_problem"] = exc
        return
    _keep_mock_guess(qid, guess)


def _keep_mock_guess(qid: str, guess) -> None:
    """Keep a mock answer and move to the next open question, or end the mock when none is left or
    the time ran out."""
    mock = st.session_state["iv_mock"]
    if mock["finished"] is not None:
        return
    if time.time() >= mock["started"] + MOCK_TIME_LIMIT_S:
        finish_mock()
        return
    mock["guesses"][qid] = guess
    nxt = next_open(mock["ids"], mock["guesses"], mock["pos"])
    if nxt is None:
        finish_mock()
    else:
        mock["pos"] = nxt


def skip_mock() -> None:
    """Skip to the next open question of the mock."""
    mock = st.session_state["iv_mock"]
    nxt = next_open(mock["ids"], mock["guesses"], mock["pos"])
    if nxt is not None:
        mock["pos"] = nxt


# ------------------------------------------------------------------------------------------ claims deck, scores
def judge_claim(cid: str, verdict: str) -> None:
    st.session_state.setdefault("iv_claims", {})[cid] = verdict


def reset_deck() -> None:
    st.session_state.pop("iv_claims", None)
    st.session_state.pop("iv_claim_pos", None)


def reset_scores() -> None:
    st.session_state.pop("iv_results", None)
    st.session_state.pop("iv_practice", None)
    st.session_state.pop("iv_revealed", None)
