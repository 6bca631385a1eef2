"""Interview prep: practice the bank by topic, take a timed mock interview, go through a deck of
claims to judge (wrong and true ones mixed), and see the session's score per topic.

The page template (``app_common.template``): title and lede, then the working area of the mode
(practice: the question card and its answer field), the notes on how the bank works under it.

Widgets -> ``rlviz.teach.bank`` (the questions and claims, every answer computed by ``rlviz`` when it
is revealed) and ``rlviz.teach.interview`` (drawing a mock, judging it, scoring per topic)
-> ``rlviz.plots.interview``. Everything the learner does lives in this session only (keys ``iv_*``);
the mode and the topic are in the URL. The widget helpers the modes share and the callbacks that keep the
learner's answers are in ``app_common.parts.interview``.
"""

from __future__ import annotations

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
from app_common.parts import interview as parts
from app_common.template import notes, page_top
from rlviz.plots.interview import score_figure
from rlviz.teach.bank import TOPICS, load_bank
from rlviz.teach.interview import (
    MOCK_SIZE,
    MOCK_TIME_LIMIT_S,
    clock,
    deck_order,
    deck_score,
    format_duration,
    review_table,
    score_table,
    scores_view,
    summarise_mock,
)

ensure_shell()
L = lang()
state = st.session_state
bank = load_bank()
MODES = ("practice", "mock", "claims", "scores")
FIELDS = parts.fields()


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
    parts.nav("iv", tr("interview.position", i=i + 1, n=n), n, "iv_pos", topic)
    with st.container(border=True, key=f"iv_card_{q.id}"):
        st.caption(tr(f"interview.kind_{q.kind}"))
        st.markdown(q.question(L))
        committed = state.get("iv_practice", {})
        if q.id not in committed and q.kind == "explain":
            parts.explain_card(q, f"iv_ex_{q.id}_{L}", "practice")
            parts.error_slot("iv_practice_problem")
            return
        if q.id not in committed:
            key = f"iv_in_{q.id}_{L}"
            with st.form(key=f"iv_form_{q.id}", border=False):
                parts.answer_input(q, key)
                st.form_submit_button(
                    tr("interview.commit"),
                    key="iv_commit",
                    type="primary",
                    on_click=parts.commit_practice,
                    args=(q, key),
                )
            parts.error_slot("iv_practice_problem")
            return
        guess = committed[q.id]
        verdict = q.check(guess)
        parts.reveal(q, guess, verdict.answer, verdict.correct)
        if st.button(tr("interview.again"), key="iv_again", icon=":material/replay:"):
            committed.pop(q.id, None)
            state.get("iv_revealed", {}).pop(q.id, None)
            st.rerun()


# ------------------------------------------------------------------------------------------ mock
def _new_mock_button(label_key: str) -> None:
    # its key written here: the lesson builder offers the keys written in the page's script
    st.button(tr(label_key), key="iv_start", type="primary", icon=":material/timer:", on_click=parts.start_mock)


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
        parts.finish_mock()
        st.rerun(scope="app")


def mock_interview() -> None:
    mock = state.get("iv_mock")
    if mock and mock["finished"] is None and time.time() >= mock["started"] + MOCK_TIME_LIMIT_S:
        parts.finish_mock()  # the time ran out while the page was away
    if not mock:
        n = min(MOCK_SIZE, len(bank.questions))
        st.markdown(tr("interview.mock_intro", n=n, minutes=f"{MOCK_TIME_LIMIT_S / 60:g}"))
        _new_mock_button("interview.start")
        parts.error_slot("iv_mock_problem")
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
            if q.kind == "explain":
                parts.explain_card(q, key, "mock")
            else:
                with st.form(key=f"iv_mock_form_{q.id}", border=False):
                    parts.answer_input(q, key)
                    st.form_submit_button(
                        tr("interview.commit_mock"),
                        key="iv_mock_commit",
                        type="primary",
                        on_click=parts.commit_mock,
                        args=(q.id, key),
                    )
            parts.error_slot("iv_mock_problem")
        row = st.container(horizontal=True)
        row.button(
            tr("interview.skip"),
            key="iv_skip",
            icon=":material/skip_next:",
            on_click=parts.skip_mock,
            disabled=len(mock["guesses"]) >= len(ids) - 1,
        )
        row.button(tr("interview.finish"), key="iv_finish", icon=":material/flag:", on_click=parts.finish_mock)
        return
    # ------------------------------------------------------------------ the review
    summary = summarise_mock(mock["ids"], mock["guesses"], mock["started"], mock["finished"], bank.questions)
    st.subheader(tr("interview.review"))
    if summary.timed_out:
        st.warning(tr("interview.timed_out"), icon=":material/timer_off:")
    m1, m2, m3 = st.columns(3)
    points = f"{summary.points:.3g}"  # an explain question adds the share of its checklist ticked
    m1.metric(tr("interview.score"), tr("interview.score_value", right=points, total=summary.total))
    m2.metric(tr("interview.time_taken"), format_duration(summary.elapsed_s))
    m3.metric(tr("interview.answered"), f"{summary.answered} / {summary.total}")
    for row in summary.verdicts.itertuples(index=False):
        q = bank.question(row.id)
        with st.container(border=True, key=f"iv_review_{row.id}"):
            mark = "✓" if row.correct else "✗"
            st.markdown(f"**{row.position}. {mark}** {q.question(L)}")
            st.caption(f"{TOPICS[q.topic][L]} · {tr(f'interview.kind_{q.kind}')}")
            parts.reveal(q, row.guess if row.answered else None, row.answer, row.correct)
    table = review_table(summary, bank.questions, L)
    csv_download(table, "interview-mock", key="iv_csv_mock", label=tr("interview.csv_mock"))
    _new_mock_button("interview.start_another")
    parts.error_slot("iv_mock_problem")


# ------------------------------------------------------------------------------------------ claims deck
def claims_deck() -> None:
    if not bank.claims:
        st.info(tr("interview.deck_empty"), icon=":material/info:")
        return
    st.markdown(tr("interview.deck_intro"))
    try:
        order = deck_order(bank.claims, parts.seed())
    except ValueError as exc:
        show_bad_input(exc, FIELDS)
        return
    verdicts = state.setdefault("iv_claims", {})
    n = len(order)
    i = state.get("iv_claim_pos", {}).get("deck", 0) % n
    claim = next(c for c in bank.claims if c.id == order[i])
    right, seen = deck_score(verdicts, bank.claims)
    parts.nav("iv_claim", tr("interview.card_position", i=i + 1, n=n), n, "iv_claim_pos", "deck")
    st.caption(tr("interview.deck_right", right=right, seen=seen, n=n))
    with st.container(border=True, key=f"iv_claim_card_{claim.id}"):
        st.caption(TOPICS[claim.topic][L])
        st.markdown("> " + claim.claim[L])
        verdict = verdicts.get(claim.id)
        row = st.container(horizontal=True)
        row.button(
            tr("interview.agree"),
            key="iv_agree",
            icon=":material/thumb_up:",
            on_click=parts.judge_claim,
            args=(claim.id, "agree"),
            disabled=verdict is not None,
        )
        row.button(
            tr("interview.push_back"),
            key="iv_push_back",
            icon=":material/front_hand:",
            on_click=parts.judge_claim,
            args=(claim.id, "push_back"),
            disabled=verdict is not None,
        )
        if verdict is None:
            return
        truth = "true" if claim.true else "wrong"
        if verdict == claim.right_verdict:
            st.success(tr(f"interview.claim_right_{truth}"), icon=":material/check_circle:")
        else:
            st.warning(tr(f"interview.claim_missed_{truth}"), icon=":material/lightbulb:")
        st.markdown(claim.corrected(L))
        st.caption(tr("interview.source", source=claim.source))
        parts.prove_link(claim.page, claim.query)
    st.button(tr("interview.deck_reset"), key="iv_deck_reset", icon=":material/restart_alt:", on_click=parts.reset_deck)


# ------------------------------------------------------------------------------------------ scores
def scores() -> None:
    results = state.get("iv_results", [])
    frame = score_table([(qid, correct) for qid, correct, _ in results], bank.questions)
    answered, right = int(frame["answered"].sum()), float(frame["right"].sum())  # right: points (ticks count)
    m1, m2, m3 = st.columns(3)
    m1.metric(tr("interview.answered"), answered)
    m2.metric(tr("interview.right_count"), f"{right:.3g}")
    m3.metric(tr("interview.score"), f"{right / answered:.0%}" if answered else "–")
    if not answered:
        st.info(tr("interview.no_scores"), icon=":material/info:")
    names = {k: v[L] for k, v in TOPICS.items()}
    st.dataframe(scores_view(frame, L), hide_index=True)
    if answered:
        fig_labels = labels("interview", "bar_right", "bar_wrong", "bar_answers", "bar_score")
        fig_labels = {k.removeprefix("bar_"): v for k, v in fig_labels.items()}
        fig_labels |= {f"topic.{k}": v for k, v in names.items()}
        chart(score_figure(frame, fig_labels), "iv_scores")
    csv_download(frame.assign(topic_name=frame["topic"].map(names)), "interview-scores", key="iv_csv_scores")
    st.button(tr("interview.reset_scores"), key="iv_reset", icon=":material/delete:", on_click=parts.reset_scores)


{"practice": practice, "mock": mock_interview, "claims": claims_deck, "scores": scores}[mode]()
with notes("interview.notes"):  # how the bank works, under the working area
    st.markdown(tr("interview.intro", questions=len(bank.questions), claims=len(bank.claims), size=MOCK_SIZE))
