"""rlviz.teach.interview: the mock interview's draw (deterministic, spread over the topics,
fewer questions than asked when the bank holds fewer), its summary, the per-topic score table by
hand, the claims deck, the score figure, and bad input naming the parameter.

The draw and the tables are checked on small synthetic banks (the real bank grows; nothing here
depends on its size), the summary on the real bank's questions with answers they compute."""

from __future__ import annotations

import math
from collections import Counter

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rlviz.i18n import t
from rlviz.plots.interview import score_figure
from rlviz.teach.bank import TOPICS, Claim, Question, load_bank
from rlviz.teach.interview import (
    MOCK_SIZE,
    MOCK_TIME_LIMIT_S,
    SCORE_COLUMNS,
    clock,
    deck_order,
    deck_score,
    draw_mock,
    format_duration,
    score_table,
    shown_answer,
    summarise_mock,
)

BANK = load_bank()
TOPIC_KEYS = list(TOPICS)


def _question(qid: str, topic: str, correct: str = "a") -> Question:
    """A choice question with stored answer ``correct`` (no answer function: nothing to compute)."""
    text = {"en": qid, "zh": qid}
    return Question(
        id=qid,
        topic=topic,
        kind="choice",
        page="curves",
        text=text,
        why=text,
        choices=("a", "b"),
        choice_text={"a": text, "b": text},
        correct=correct,
    )


def _bank(counts: dict[str, int]) -> list[Question]:
    return [_question(f"{topic}-{i}", topic) for topic, n in counts.items() for i in range(n)]


# ------------------------------------------------------------------------------------ the draw
def test_draw_is_deterministic_and_differs_between_attempts():
    questions = _bank(dict.fromkeys(TOPIC_KEYS, 4))
    first = draw_mock(questions, seed=3)
    assert first == draw_mock(questions, seed=3)
    assert len(first) == MOCK_SIZE and len(set(first)) == MOCK_SIZE
    assert draw_mock(questions, seed=3, attempt=1) != first
    assert draw_mock(questions, seed=4) != first


def test_draw_spreads_over_the_topics():
    # 8 topics with plenty each: 10 questions -> every topic once, two of them twice
    questions = _bank(dict.fromkeys(TOPIC_KEYS, 5))
    counts = Counter(q.split("-")[0] for q in draw_mock(questions, seed=0))
    assert set(counts) == set(TOPIC_KEYS) and sorted(counts.values()) == [1] * 6 + [2] * 2


@settings(max_examples=25, deadline=None)
@given(
    counts=st.lists(st.integers(0, 6), min_size=len(TOPIC_KEYS), max_size=len(TOPIC_KEYS)),
    seed=st.integers(0, 2**31 - 1),
    size=st.integers(1, 15),
)
def test_draw_properties(counts, seed, size):
    questions = _bank(dict(zip(TOPIC_KEYS, counts)))
    if not questions:
        with pytest.raises(ValueError, match="^questions"):
            draw_mock(questions, seed, size=size)
        return
    ids = draw_mock(questions, seed, size=size)
    assert len(ids) == min(size, len(questions)) and len(set(ids)) == len(ids)
    assert set(ids) <= {q.id for q in questions}
    drawn = Counter(i.split("-")[0] for i in ids)
    available = dict(zip(TOPIC_KEYS, counts))
    for a in available:  # a topic with fewer than another's count - 1 gave everything it had
        for b in available:
            if drawn[a] < drawn[b] - 1:
                assert drawn[a] == available[a]


def test_fewer_questions_than_a_mock():
    questions = _bank({"kl": 2, "moe": 1})
    ids = draw_mock(questions, seed=0)
    assert sorted(ids) == sorted(q.id for q in questions)
    assert len(draw_mock(BANK.questions, seed=0)) == min(MOCK_SIZE, len(BANK.questions))


@pytest.mark.parametrize(
    ("kwargs", "name"),
    [
        ({"seed": -1}, "seed"),
        ({"seed": 1.5}, "seed"),
        ({"seed": True}, "seed"),
        ({"seed": 0, "attempt": -1}, "attempt"),
        ({"seed": 0, "size": 0}, "size"),
    ],
)
def test_bad_draw_input_names_the_parameter(kwargs, name):
    with pytest.raises(ValueError, match=f"^{name}:"):
        draw_mock(_bank({"kl": 3}), **kwargs)


# ------------------------------------------------------------------------------------ scores
def test_score_table_by_hand():
    questions = _bank({"kl": 2, "moe": 3, "length": 1})
    results = [("kl-0", True), ("kl-1", False), ("kl-0", True), ("moe-2", False)]
    table = score_table(results, questions).set_index("topic")
    assert list(table.reset_index().columns) == list(SCORE_COLUMNS)
    assert list(table.index) == TOPIC_KEYS  # every topic, in TOPICS order
    # kl: 3 answers (one question twice), 2 right -> 2/3
    assert table.loc["kl", ["in_bank", "answered", "right", "wrong"]].tolist() == [2, 3, 2, 1]
    assert table.loc["kl", "score"] == pytest.approx(2 / 3)
    assert table.loc["moe", ["in_bank", "answered", "right", "wrong"]].tolist() == [3, 1, 0, 1]
    assert table.loc["moe", "score"] == 0.0
    # answered nothing: no score (NaN), never 0
    assert table.loc["length", ["in_bank", "answered"]].tolist() == [1, 0] and math.isnan(table.loc["length", "score"])
    assert table["in_bank"].sum() == len(questions)


def test_bad_results_name_the_parameter():
    questions = _bank({"kl": 1})
    with pytest.raises(ValueError, match="^results:"):
        score_table([("nope", True)], questions)
    with pytest.raises(ValueError, match="^results:"):
        score_table([("kl-0", 1)], questions)
    with pytest.raises(ValueError, match="^results:"):
        score_table([("kl-0", 1.5)], questions)  # a ticked share lies in [0, 1]


def test_an_explain_question_scores_its_ticks_in_a_mock_and_the_table():
    explain = next(q for q in BANK.questions if q.kind == "explain")
    number = next(q for q in BANK.questions if q.kind == "number" and q.topic == explain.topic)
    n = len(explain.checklist["en"])
    # the explain question with 2 of its n points ticked, the number question right
    summary = summarise_mock(
        [explain.id, number.id], {explain.id: [1, 0], number.id: number.compute()}, 0, 60, BANK.questions
    )
    rows = summary.verdicts.set_index("id")
    assert rows.loc[explain.id, "credit"] == 2 / n and not rows.loc[explain.id, "correct"]
    assert rows.loc[explain.id, "guess"] == (0, 1) and rows.loc[explain.id, "answer"] == n
    # points = 2/n + 1; score = points / 2 questions
    assert summary.points == pytest.approx(2 / n + 1) and summary.score == pytest.approx((2 / n + 1) / 2)
    assert summary.right == 1  # only the number question is fully right
    assert summary.results() == [(explain.id, 2 / n), (number.id, True)]
    table = score_table(summary.results(), BANK.questions).set_index("topic")
    # that topic: 2 answers, right = 2/n + 1 points, wrong = 2 - right
    assert table.loc[explain.topic, "answered"] == 2
    assert table.loc[explain.topic, "right"] == pytest.approx(2 / n + 1)
    assert table.loc[explain.topic, "wrong"] == pytest.approx(1 - 2 / n)
    assert shown_answer(explain, (0, 1), "en") == t("interview.points", "en", k=2, n=n)


def test_score_figure_shows_answered_topics_only():
    questions = _bank({"kl": 2, "moe": 1})
    table = score_table([("kl-0", True), ("kl-1", False), ("moe-0", False)], questions)
    labels = {"right": "right", "wrong": "wrong", "topic.kl": "KL", "topic.moe": "MoE"}
    fig = score_figure(table, labels)
    right, wrong = fig.data
    assert list(right.y) == ["KL", "MoE"] and list(right.x) == [1, 0] and list(wrong.x) == [1, 1]
    assert fig.layout.barmode == "stack"
    empty = score_figure(score_table([], questions), labels)
    assert len(empty.data) == 0


# ------------------------------------------------------------------------------------ the mock's summary
def _wrong(q: Question):
    if q.kind == "choice":
        return next(c for c in q.choices if c != q.compute())
    return q.compute() + 10 * q.tolerance + 1.0


def test_summary_of_a_mock():
    ids = draw_mock(BANK.questions, seed=0)
    guesses = {qid: BANK.question(qid).compute() for qid in ids}
    guesses[ids[0]] = _wrong(BANK.question(ids[0]))
    if len(ids) > 1:
        del guesses[ids[-1]]  # left unanswered
    summary = summarise_mock(ids, guesses, started=100.0, finished=160.5, questions=BANK.questions)
    unanswered = 1 if len(ids) > 1 else 0
    assert summary.total == len(ids) and summary.answered == len(ids) - unanswered
    assert summary.right == len(ids) - 1 - unanswered
    assert summary.score == pytest.approx(summary.right / len(ids))
    assert summary.elapsed_s == 60.5 and not summary.timed_out
    verdicts = summary.verdicts
    assert list(verdicts["id"]) == list(ids) and list(verdicts["position"]) == list(range(1, len(ids) + 1))
    assert not verdicts.loc[0, "correct"] and verdicts.loc[0, "answered"]
    # the per-topic score counts the answered questions only
    assert [qid for qid, _ in summary.results()] == [i for i in ids if i in guesses]
    assert sum(c for _, c in summary.results()) == summary.right


def test_a_mock_past_its_time_limit():
    q = BANK.questions[0]
    summary = summarise_mock([q.id], {}, 0.0, MOCK_TIME_LIMIT_S + 30, BANK.questions)
    assert summary.timed_out and summary.elapsed_s == MOCK_TIME_LIMIT_S
    assert summary.right == 0 and summary.answered == 0 and summary.results() == []
    assert summary.verdicts.loc[0, "answer"] == q.compute()  # the computed answer is still shown


def test_bad_summary_input_names_the_parameter():
    q = BANK.questions[0]
    with pytest.raises(ValueError, match="^ids:"):
        summarise_mock([], {}, 0.0, 1.0, BANK.questions)
    with pytest.raises(ValueError, match="^ids:"):
        summarise_mock(["nope"], {}, 0.0, 1.0, BANK.questions)
    with pytest.raises(ValueError, match="^guesses:"):
        summarise_mock([q.id], {"other": 1.0}, 0.0, 1.0, BANK.questions)
    with pytest.raises(ValueError, match="^finished:"):
        summarise_mock([q.id], {}, 10.0, 1.0, BANK.questions)
    with pytest.raises(ValueError, match="^started:"):
        summarise_mock([q.id], {}, math.nan, 1.0, BANK.questions)
    with pytest.raises(ValueError, match="^guess:"):
        summarise_mock([q.id], {q.id: math.nan if q.kind == "number" else "no-such-choice"}, 0.0, 1.0, BANK.questions)


def test_clock_and_duration():
    assert clock(100.0, 130.0, 60.0) == (30.0, 30.0)
    assert clock(100.0, 200.0, 60.0) == (60.0, 0.0)  # held at the limit
    assert clock(100.0, 90.0, 60.0) == (0.0, 60.0)  # a clock behind the start: nothing elapsed
    assert format_duration(754.9) == "12:34" and format_duration(0) == "0:00"
    assert format_duration(MOCK_TIME_LIMIT_S) == f"{int(MOCK_TIME_LIMIT_S) // 60}:00"
    with pytest.raises(ValueError, match="^time_limit_s:"):
        clock(0.0, 1.0, 0.0)
    with pytest.raises(ValueError, match="^now:"):
        clock(0.0, math.inf)
    with pytest.raises(ValueError, match="^seconds:"):
        format_duration(-1)


# ------------------------------------------------------------------------------------ the claims deck
def test_deck_order_and_score():
    text = {"en": "x", "zh": "x"}
    # c0, c2, c4 are true claims, c1, c3, c5 wrong ones
    claims = [Claim(f"c{i}", "kl", "curves", text, text, "src", true=i % 2 == 0) for i in range(6)]
    order = deck_order(claims, seed=1)
    assert sorted(order) == sorted(c.id for c in claims) and order == deck_order(claims, seed=1)
    # right: agreeing with true c0, pushing back on wrong c1; wrong: pushing back on true c2, agreeing with wrong c3
    verdicts = {"c0": "agree", "c1": "push_back", "c2": "push_back", "c3": "agree"}
    assert deck_score(verdicts, claims) == (2, 4)
    # "push back" on everything no longer scores everything: 3 of 6 (only the wrong claims)
    assert deck_score(dict.fromkeys((c.id for c in claims), "push_back"), claims) == (3, 6)
    assert deck_score({}, claims) == (0, 0)
    with pytest.raises(ValueError, match="^verdicts:"):
        deck_score({"c0": "maybe"}, claims)
    with pytest.raises(ValueError, match="^verdicts:"):
        deck_score({"zz": "agree"}, claims)
    with pytest.raises(ValueError, match="^seed:"):
        deck_order(claims, seed=-1)


def test_score_table_of_the_real_bank_is_complete():
    table = score_table([(q.id, True) for q in BANK.questions], BANK.questions)
    assert isinstance(table, pd.DataFrame)
    assert table["answered"].sum() == len(BANK.questions) == table["in_bank"].sum()
    assert (table.loc[table["answered"] > 0, "score"] == 1.0).all()
