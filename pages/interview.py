"""Interview prep: practice the bank by topic, take a timed mock interview, go through a deck of
common wrong claims, and see the session's score per topic.

The page template (``app_common.template``): title and lede, then the working area of the mode
(practice: the question card and its answer field), the notes on how the bank works under it.

Widgets -> ``rlviz.teach.bank`` (the questions and claims, every answer computed by ``rlviz`` when it
is revealed) and ``rlviz.teach.interview`` (drawing a mock, judging it, scoring per topic)
-> ``rlviz.plots.interview``. Everything the learner does lives in this session only (keys ``iv_*``);
the mode and the topic are in the URL.
"""

from __future__ import annotations

import math
import time

import streamlit as st

from app_common import (
    chart,
    csv_download,
    ensure_shell,
    fragment,
    labels,
    lang,
    seed_choice_from_url,
    show_bad_input,
    tr,
    write_choice_to_url,
)
from app_common.template import notes, page_top
from rlviz.app_pages import page
from rlviz.plots.interview import score_figure
from rlviz.teach.bank import TOPICS, Question, format_answer, load_bank
from rlviz.teach.interview import (
    MOCK_SIZE,
    MOCK_TIME_LIMIT_S,
    clock,
    deck_order,
    deck_score,
    draw_mock,
    format_duration,
    score_table,
    summarise_mock,
)

ensure_shell()
L = lang()
state = st.session_state
bank = load_bank()
MODES = ("practice", "mock", "claims", "scores")
FIELDS = {"guess": tr("interview.your_answer"), "seed": tr("side.seed")}


def _seed() -> int:
    return int(state.get("seed", 0) or 0)


def _shown(q: Question, value) -> str:
    """An answer or a guess as the learner reads it: a number with 4 significant digits, a choice
    by its label."""
    if value is None:
        return tr("interview.no_answer")
    return q.choice_text[value][L] if q.kind == "choice" else format_answer(float(value))


def _record(qid: str, correct: bool, mode: str) -> None:
    state.setdefault("iv_results", []).append((qid, bool(correct), mode))


def _answer_input(q: Question, key: str):
    """The answer widget of ``q`` (inside a form): a number input, or one radio button per choice."""
    if q.kind == "number":
        # enough decimals to tell a right answer from a wrong one (a tolerance of 0.005 -> 4)
        places = min(max(math.ceil(-math.log10(q.tolerance)) + 1, 2), 8) if q.tolerance > 0 else 6
        return st.number_input(
            tr("interview.your_answer"), value=None, step=10.0 ** -(places - 1), format=f"%.{places}f", key=key
        )
    return st.radio(
        tr("interview.your_answer"),
        list(q.choices),
        index=None,
        format_func={c: q.choice_text[c][L] for c in q.choices}.get,
        key=key,
    )


def _prove_link(entry_key: str, query: dict) -> None:
    """A link to the page that proves it, opened at the settings of ``query``."""
    entry = page(entry_key)
    st.page_link(
        entry.file,
        label=tr("interview.prove", page=tr(f"nav.{entry_key}")),
        icon=entry.icon,
        query_params={k: _url_value(v) for k, v in query.items()} or None,
    )


def _url_value(value):
    """A setting as the proving page's bound widget reads it from the URL (``true``, ``0.5``, a list)."""
    if isinstance(value, (list, tuple)):
        return [_url_value(v) for v in value]
    return str(value).lower() if isinstance(value, bool) else str(value)


def _reveal(q: Question, guess, answer, correct: bool) -> None:
    """The verdict, the computed answer, the explanation and the link to the proving page."""
    if guess is None:
        st.info(tr("interview.unanswered", answer=_shown(q, answer)), icon=":material/help:")
    elif correct:
        st.success(tr("interview.right", answer=_shown(q, answer)), icon=":material/check_circle:")
    else:
        st.warning(tr("interview.wrong", guess=_shown(q, guess), answer=_shown(q, answer)), icon=":material/lightbulb:")
    st.markdown(q.explanation(L, answer))
    _prove_link(q.page, q.query)


def _error_slot(key: str) -> None:
    """Show (once) a message a callback left under ``key``: a bad answer, or none given."""
    problem = state.pop(key, None)
    if isinstance(problem, ValueError):
        show_bad_input(problem, FIELDS)
    elif problem == "empty":
        st.warning(tr("interview.enter_first"), icon=":material/edit:")


page_top("interview")  # title and lede; the question card and its answer field follow at once
seed_choice_from_url("iv_mode", MODES, "practice")  # the URL carries the mode's key, not its label
mode = st.segmented_control(
    tr("interview.mode"),
    MODES,
    format_func={m: tr(f"interview.mode_{m}") for m in MODES}.get,
    required=True,
    key="iv_mode",
)
mode = mode if mode in MODES else "practice"
write_choice_to_url("iv_mode", "practice")


# ------------------------------------------------------------------------------------------ practice
def _commit_practice(q: Question, key: str) -> None:
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
    _record(q.id, verdict.correct, "practice")


def _move(store: str, name: str, step: int, n: int) -> None:
    positions = state.setdefault(store, {})
    positions[name] = (positions.get(name, 0) + step) % n


def _nav(prefix: str, position: str, n: int, store: str, name: str) -> None:
    """Previous / position / next over ``n`` cards; the position is kept in ``state[store][name]``."""
    nav = st.container(horizontal=True, vertical_alignment="center")
    for step, word, icon, pos in ((-1, "previous", "arrow_back", "prev"), (1, "next", "arrow_forward", "next")):
        nav.button(
            tr(f"interview.{word}"),
            key=f"{prefix}_{pos}",
            icon=f":material/{icon}:",
            on_click=_move,
            args=(store, name, step, n),
            disabled=n < 2,
        )
        if step < 0:
            nav.markdown(position)


def practice() -> None:
    topics = [k for k in TOPICS if bank.by_topic(k)]
    if not topics:
        st.info(tr("interview.bank_empty"), icon=":material/info:")
        return
    seed_choice_from_url("iv_topic", topics, topics[0])  # the URL carries the topic's key, not its label
    if state.get("iv_topic") not in topics:
        state["iv_topic"] = topics[0]  # a topic with no questions yet
    topic = st.selectbox(
        tr("interview.topic"),
        topics,
        format_func={k: TOPICS[k][L] for k in topics}.get,
        key="iv_topic",
    )
    write_choice_to_url("iv_topic", topics[0])
    questions = bank.by_topic(topic)
    n = len(questions)
    i = state.get("iv_pos", {}).get(topic, 0) % n
    q = questions[i]
    _nav("iv", tr("interview.position", i=i + 1, n=n), n, "iv_pos", topic)
    with st.container(border=True, key=f"iv_card_{q.id}"):
        st.caption(tr(f"interview.kind_{q.kind}"))
        st.markdown(q.question(L))
        committed = state.get("iv_practice", {})
        if q.id not in committed:
            key = f"iv_in_{q.id}_{L}"
            with st.form(key=f"iv_form_{q.id}", border=False):
                _answer_input(q, key)
                st.form_submit_button(
                    tr("interview.commit"), key="iv_commit", type="primary", on_click=_commit_practice, args=(q, key)
                )
            _error_slot("iv_practice_problem")
            return
        guess = committed[q.id]
        verdict = q.check(guess)
        _reveal(q, guess, verdict.answer, verdict.correct)
        if st.button(tr("interview.again"), key="iv_again", icon=":material/replay:"):
            committed.pop(q.id, None)
            st.rerun()


# ------------------------------------------------------------------------------------------ mock
def _start_mock() -> None:
    attempt = state.get("iv_mock_count", 0)
    try:
        ids = draw_mock(bank.questions, _seed(), attempt=attempt)
    except ValueError as exc:
        state["iv_mock_problem"] = exc
        return
    state["iv_mock_count"] = attempt + 1
    state["iv_mock"] = {
        "ids": list(ids),
        "seed": _seed(),
        "attempt": attempt,
        "started": time.time(),
        "guesses": {},
        "pos": 0,
        "finished": None,
    }


def _finish_mock(now: float | None = None) -> None:
    """End the mock in progress (at ``now``, held at the time limit) and add its answers to the
    session's per-topic score, once."""
    mock = state.get("iv_mock")
    if not mock or mock["finished"] is not None:
        return
    now = time.time() if now is None else now
    mock["finished"] = min(now, mock["started"] + MOCK_TIME_LIMIT_S)
    summary = summarise_mock(mock["ids"], mock["guesses"], mock["started"], mock["finished"], bank.questions)
    for qid, correct in summary.results():
        _record(qid, correct, "mock")


def _next_open(mock: dict, after: int) -> int | None:
    """The position of the next question without an answer after ``after`` (wrapping), if any."""
    ids = mock["ids"]
    for step in range(1, len(ids) + 1):
        pos = (after + step) % len(ids)
        if ids[pos] not in mock["guesses"]:
            return pos
    return None


def _commit_mock(qid: str, key: str) -> None:
    mock = state["iv_mock"]
    if mock["finished"] is not None:
        return
    if time.time() >= mock["started"] + MOCK_TIME_LIMIT_S:
        _finish_mock()  # too late: the time ran out before this answer arrived
        return
    guess = state.get(key)
    if guess is None:
        state["iv_mock_problem"] = "empty"
        return
    try:
        bank.question(qid).check(guess)  # a valid answer (the verdict waits for the end)
    except ValueError as exc:
        state["iv_mock_problem"] = exc
        return
    mock["guesses"][qid] = guess
    nxt = _next_open(mock, mock["pos"])
    if nxt is None:
        _finish_mock()
    else:
        mock["pos"] = nxt


def _skip_mock() -> None:
    mock = state["iv_mock"]
    nxt = _next_open(mock, mock["pos"])
    if nxt is not None:
        mock["pos"] = nxt


@fragment(run_every=1)
def _mock_clock() -> None:
    """The clock, redrawn every second; when the time is up it ends the mock and reruns the page."""
    mock = state.get("iv_mock")
    if not mock or mock["finished"] is not None:
        return
    elapsed, left = clock(mock["started"], time.time(), MOCK_TIME_LIMIT_S)
    c1, c2 = st.columns(2)
    c1.metric(tr("interview.elapsed"), format_duration(elapsed))
    c2.metric(tr("interview.left"), format_duration(left))
    st.progress(elapsed / MOCK_TIME_LIMIT_S)
    if left <= 0:
        _finish_mock()
        st.rerun(scope="app")


def _new_mock_button(label_key: str) -> None:
    st.button(tr(label_key), key="iv_start", type="primary", icon=":material/timer:", on_click=_start_mock)


def mock_interview() -> None:
    mock = state.get("iv_mock")
    if mock and mock["finished"] is None and time.time() >= mock["started"] + MOCK_TIME_LIMIT_S:
        _finish_mock()  # the time ran out while the page was away
    if not mock:
        n = min(MOCK_SIZE, len(bank.questions))
        st.markdown(tr("interview.mock_intro", n=n, minutes=f"{MOCK_TIME_LIMIT_S / 60:g}"))
        _new_mock_button("interview.start")
        _error_slot("iv_mock_problem")
        return
    if mock["finished"] is None:
        ids = mock["ids"]
        _mock_clock()
        q = bank.question(ids[mock["pos"]])
        st.markdown(
            tr("interview.mock_position", i=mock["pos"] + 1, n=len(ids), answered=len(mock["guesses"]), total=len(ids))
        )
        with st.container(border=True, key=f"iv_mock_card_{q.id}"):
            st.caption(f"{TOPICS[q.topic][L]} · {tr(f'interview.kind_{q.kind}')}")
            st.markdown(q.question(L))
            key = f"iv_mock_in_{mock['attempt']}_{q.id}_{L}"
            with st.form(key=f"iv_mock_form_{q.id}", border=False):
                _answer_input(q, key)
                st.form_submit_button(
                    tr("interview.commit_mock"),
                    key="iv_mock_commit",
                    type="primary",
                    on_click=_commit_mock,
                    args=(q.id, key),
                )
            _error_slot("iv_mock_problem")
        row = st.container(horizontal=True)
        row.button(
            tr("interview.skip"),
            key="iv_skip",
            icon=":material/skip_next:",
            on_click=_skip_mock,
            disabled=len(mock["guesses"]) >= len(ids) - 1,
        )
        row.button(tr("interview.finish"), key="iv_finish", icon=":material/flag:", on_click=_finish_mock)
        return
    # ------------------------------------------------------------------ the review
    summary = summarise_mock(mock["ids"], mock["guesses"], mock["started"], mock["finished"], bank.questions)
    st.subheader(tr("interview.review"))
    if summary.timed_out:
        st.warning(tr("interview.timed_out"), icon=":material/timer_off:")
    m1, m2, m3 = st.columns(3)
    m1.metric(tr("interview.score"), tr("interview.score_value", right=summary.right, total=summary.total))
    m2.metric(tr("interview.time_taken"), format_duration(summary.elapsed_s))
    m3.metric(tr("interview.answered"), f"{summary.answered} / {summary.total}")
    for row in summary.verdicts.itertuples(index=False):
        q = bank.question(row.id)
        with st.container(border=True, key=f"iv_review_{row.id}"):
            mark = "✓" if row.correct else "✗"
            st.markdown(f"**{row.position}. {mark}** {q.question(L)}")
            st.caption(f"{TOPICS[q.topic][L]} · {tr(f'interview.kind_{q.kind}')}")
            _reveal(q, row.guess if row.answered else None, row.answer, row.correct)
    table = summary.verdicts.assign(
        question=[bank.question(i).question(L) for i in summary.verdicts["id"]],
        guess=[
            _shown(bank.question(i), g) if a else ""
            for i, g, a in summary.verdicts[["id", "guess", "answered"]].itertuples(index=False)
        ],
        answer=[_shown(bank.question(i), a) for i, a in zip(summary.verdicts["id"], summary.verdicts["answer"])],
    )
    csv_download(table, "interview-mock", key="iv_csv_mock", label=tr("interview.csv_mock"))
    _new_mock_button("interview.start_another")
    _error_slot("iv_mock_problem")


# ------------------------------------------------------------------------------------------ claims deck
def _judge_claim(cid: str, verdict: str) -> None:
    state.setdefault("iv_claims", {})[cid] = verdict


def _reset_deck() -> None:
    state.pop("iv_claims", None)
    state.pop("iv_claim_pos", None)


def claims_deck() -> None:
    if not bank.claims:
        st.info(tr("interview.deck_empty"), icon=":material/info:")
        return
    st.markdown(tr("interview.deck_intro"))
    try:
        order = deck_order(bank.claims, _seed())
    except ValueError as exc:
        show_bad_input(exc, FIELDS)
        return
    verdicts = state.setdefault("iv_claims", {})
    n = len(order)
    i = state.get("iv_claim_pos", {}).get("deck", 0) % n
    claim = next(c for c in bank.claims if c.id == order[i])
    caught, seen = deck_score(verdicts)
    _nav("iv_claim", tr("interview.card_position", i=i + 1, n=n), n, "iv_claim_pos", "deck")
    st.caption(tr("interview.caught", caught=caught, seen=seen, n=n))
    with st.container(border=True, key=f"iv_claim_card_{claim.id}"):
        st.caption(TOPICS[claim.topic][L])
        st.markdown("> " + claim.claim[L])
        verdict = verdicts.get(claim.id)
        row = st.container(horizontal=True)
        row.button(
            tr("interview.agree"),
            key="iv_agree",
            icon=":material/thumb_up:",
            on_click=_judge_claim,
            args=(claim.id, "agree"),
            disabled=verdict is not None,
        )
        row.button(
            tr("interview.push_back"),
            key="iv_push_back",
            icon=":material/front_hand:",
            on_click=_judge_claim,
            args=(claim.id, "push_back"),
            disabled=verdict is not None,
        )
        if verdict is None:
            return
        if verdict == "push_back":
            st.success(tr("interview.claim_caught"), icon=":material/check_circle:")
        else:
            st.warning(tr("interview.claim_missed"), icon=":material/lightbulb:")
        st.markdown(claim.corrected(L))
        st.caption(tr("interview.source", source=claim.source))
        _prove_link(claim.page, claim.query)
    st.button(tr("interview.deck_reset"), key="iv_deck_reset", icon=":material/restart_alt:", on_click=_reset_deck)


# ------------------------------------------------------------------------------------------ scores
def _reset_scores() -> None:
    state.pop("iv_results", None)
    state.pop("iv_practice", None)


def scores() -> None:
    results = state.get("iv_results", [])
    frame = score_table([(qid, correct) for qid, correct, _ in results], bank.questions)
    answered, right = int(frame["answered"].sum()), int(frame["right"].sum())
    m1, m2, m3 = st.columns(3)
    m1.metric(tr("interview.answered"), answered)
    m2.metric(tr("interview.right_count"), right)
    m3.metric(tr("interview.score"), f"{right / answered:.0%}" if answered else "–")
    if not answered:
        st.info(tr("interview.no_scores"), icon=":material/info:")
    names = {k: v[L] for k, v in TOPICS.items()}
    shown = frame.assign(
        topic=frame["topic"].map(names),
        score=[f"{s:.0%}" if n else "–" for s, n in zip(frame["score"], frame["answered"])],  # no score: a dash
    )
    st.dataframe(shown.rename(columns={c: tr(f"interview.col_{c}") for c in frame.columns}), hide_index=True)
    if answered:
        fig_labels = labels("interview", "bar_right", "bar_wrong", "bar_answers", "bar_score")
        fig_labels = {k.removeprefix("bar_"): v for k, v in fig_labels.items()}
        fig_labels |= {f"topic.{k}": v for k, v in names.items()}
        chart(score_figure(frame, fig_labels), "iv_scores")
    csv_download(frame.assign(topic_name=frame["topic"].map(names)), "interview-scores", key="iv_csv_scores")
    st.button(tr("interview.reset_scores"), key="iv_reset", icon=":material/delete:", on_click=_reset_scores)


{"practice": practice, "mock": mock_interview, "claims": claims_deck, "scores": scores}[mode]()
with notes("interview.notes"):  # how the bank works, under the working area
    st.markdown(tr("interview.intro", questions=len(bank.questions), claims=len(bank.claims), size=MOCK_SIZE))
