"""The interview page: drawing a mock interview from the bank, scoring answers per topic, summing a
mock up, and the order and score of the "claims to judge" deck.

Nothing here types an answer: every verdict comes from :meth:`rlviz.teach.bank.Question.check`,
which computes the answer with ``rlviz`` at that moment. Draws are deterministic given the seed (a
``numpy`` generator seeded with ``(seed, attempt)``, never the global RNG), so a shared seed gives
the same mock, and a second mock of the same session (``attempt`` + 1) a different one.

Legend: n questions in the bank, k questions in a mock (``MOCK_SIZE``, fewer if n < k), t seconds.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from rlviz.i18n import t
from rlviz.teach.bank import TOPICS, Claim, Question, format_answer

__all__ = [
    "CLAIM_VERDICTS",
    "MOCK_SIZE",
    "MOCK_TIME_LIMIT_S",
    "SCORE_COLUMNS",
    "VERDICT_COLUMNS",
    "MockSummary",
    "clock",
    "deck_order",
    "deck_score",
    "draw_mock",
    "format_duration",
    "next_open",
    "review_table",
    "score_table",
    "scores_view",
    "shown_answer",
    "summarise_mock",
    "url_value",
]

MOCK_SIZE = 10  # questions in a mock interview (fewer when the bank holds fewer)
MOCK_TIME_LIMIT_S = 15 * 60.0  # a mock interview's time limit, seconds
CLAIM_VERDICTS = ("agree", "push_back")  # what a learner answers to a claim of the deck
SCORE_COLUMNS = ("topic", "in_bank", "answered", "right", "wrong", "score")
VERDICT_COLUMNS = ("position", "id", "topic", "kind", "answered", "guess", "answer", "correct", "credit")


def _whole(value: Any, name: str, low: int) -> int:
    """``value`` as an int >= ``low``; else ``ValueError`` naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
        raise ValueError(f"{name}: must be a whole number >= {low}, got {value!r}")
    return int(value)


def _finite(value: Any, name: str) -> float:
    """``value`` as a finite float; else ``ValueError`` naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.number)) or not math.isfinite(value):
        raise ValueError(f"{name}: must be a finite number, got {value!r}")
    return float(value)


def _by_id(questions: Sequence[Question]) -> dict[str, Question]:
    return {q.id: q for q in questions}


# ------------------------------------------------------------------------------------ the mock
def draw_mock(questions: Sequence[Question], seed: int, attempt: int = 0, size: int = MOCK_SIZE) -> tuple[str, ...]:
    """The question ids of one mock interview: ``min(size, n)`` distinct questions spread over the
    topics, in a shuffled order.

    Spread: the topics take turns (in a shuffled order), each giving one of its questions (picked at
    random) per turn, so two topics' counts differ by at most one unless the smaller one ran out of
    questions.

    Args:
        questions: the bank's questions (``load_bank().questions``), n of them.
        seed: the session's seed (the sidebar's), a whole number >= 0.
        attempt: which mock of the session this is (0, 1, ...): a second mock with the same seed
            differs from the first.
        size: questions wanted (``MOCK_SIZE``), >= 1.

    Returns:
        the ids, a tuple of ``min(size, n)`` strings; the same for the same arguments.

    Raises:
        ValueError: naming ``seed``, ``attempt`` or ``size`` (not a whole number in range), or
            ``questions`` (empty).
    """
    seed, attempt, size = _whole(seed, "seed", 0), _whole(attempt, "attempt", 0), _whole(size, "size", 1)
    if not questions:
        raise ValueError("questions: the bank holds no questions")
    rng = np.random.default_rng([seed, attempt])
    pools: dict[str, list[str]] = {}
    for q in questions:  # topics in the order they first appear, questions in file order
        pools.setdefault(q.topic, []).append(q.id)
    pools = {topic: [ids[i] for i in rng.permutation(len(ids))] for topic, ids in pools.items()}
    topics = [list(pools)[i] for i in rng.permutation(len(pools))]
    wanted = min(size, len(questions))
    picked: list[str] = []
    while len(picked) < wanted:
        for topic in topics:
            if pools[topic] and len(picked) < wanted:
                picked.append(pools[topic].pop())
    return tuple(picked[i] for i in rng.permutation(len(picked)))


def clock(started: float, now: float, time_limit_s: float = MOCK_TIME_LIMIT_S) -> tuple[float, float]:
    """``(elapsed, left)`` of a mock started at ``started`` (seconds, e.g. ``time.time()``) at time
    ``now``: elapsed held in ``[0, time_limit_s]``, left = ``time_limit_s`` - elapsed.

    Raises:
        ValueError: naming ``started``, ``now`` (not finite) or ``time_limit_s`` (not > 0).
    """
    started, now, limit = _finite(started, "started"), _finite(now, "now"), _finite(time_limit_s, "time_limit_s")
    if limit <= 0:
        raise ValueError(f"time_limit_s: must be > 0, got {limit}")
    elapsed = min(max(now - started, 0.0), limit)
    return elapsed, limit - elapsed


def format_duration(seconds: float) -> str:
    """``seconds`` as ``m:ss`` (rounded down to whole seconds), e.g. ``754.9 -> "12:34"``.

    Raises:
        ValueError: naming ``seconds`` (negative or not finite).
    """
    seconds = _finite(seconds, "seconds")
    if seconds < 0:
        raise ValueError(f"seconds: must be >= 0, got {seconds}")
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"


@dataclass(frozen=True)
class MockSummary:
    """How a mock interview went.

    Attributes:
        right: questions answered right; ``total``: questions in the mock; ``answered``: questions
            given an answer (an unanswered one counts as not right).
        elapsed_s: the time taken, seconds, at most ``time_limit_s``; ``timed_out``: the time ran out.
        verdicts: one row per question in the mock's order, columns ``VERDICT_COLUMNS``:
            ``position`` (1, 2, ...), ``id``, ``topic``, ``kind``, ``answered`` (bool), ``guess``
            (the committed answer, ``None`` if none), ``answer`` (computed now by ``rlviz``: a float
            or a choice key; for an explain question the number of checklist points), ``correct``
            (bool), ``credit`` (the score in [0, 1]: 1 or 0, or for an explain question the share of
            checklist points the learner ticked).
    """

    right: int
    total: int
    answered: int
    elapsed_s: float
    time_limit_s: float
    timed_out: bool
    verdicts: pd.DataFrame

    @property
    def points(self) -> float:
        """The mock's points: one per right answer, the share of ticked checklist points per explain
        question (``credit`` summed)."""
        return float(self.verdicts["credit"].sum())

    @property
    def score(self) -> float:
        """The share of the mock's points earned, in [0, 1] (``points / total``)."""
        return self.points / self.total

    def results(self) -> list[tuple[str, bool | float]]:
        """``(question id, credit)`` of each answered question: what the per-topic score counts
        (a bool for a number or choice question, the ticked share for an explain question; a
        question left unanswered is the mock's loss, not a measured answer)."""
        rows = self.verdicts[self.verdicts["answered"]]
        return [
            (str(i), float(c) if k == "explain" else bool(ok))
            for i, k, ok, c in zip(rows["id"], rows["kind"], rows["correct"], rows["credit"])
        ]


def summarise_mock(
    ids: Sequence[str],
    guesses: Mapping[str, Any],
    started: float,
    finished: float,
    questions: Sequence[Question],
    time_limit_s: float = MOCK_TIME_LIMIT_S,
) -> MockSummary:
    """Judge a mock interview: each committed guess against the answer ``rlviz`` computes now.

    Args:
        ids: the mock's question ids (:func:`draw_mock`), in the order asked.
        guesses: question id -> the committed answer (a number, a choice key, or for an explain
            question the ticked checklist points); questions without one were not answered.
        started, finished: when the mock started and ended (seconds, e.g. ``time.time()``).
        questions: the bank's questions.
        time_limit_s: the mock's time limit (``MOCK_TIME_LIMIT_S``); the time taken is held at it.

    Raises:
        ValueError: naming ``ids`` (empty, repeated or unknown), ``guesses`` (for a question not in
            the mock), ``started`` / ``finished`` (not finite, or ``finished`` before ``started``),
            ``time_limit_s``, or ``guess`` (not a finite number, or not one of the choices:
            :meth:`~rlviz.teach.bank.Question.check`).
    """
    if not ids:
        raise ValueError("ids: a mock needs at least one question")
    if len(set(ids)) != len(ids):
        raise ValueError("ids: a question appears twice")
    known = _by_id(questions)
    unknown = [i for i in ids if i not in known]
    if unknown:
        raise ValueError(f"ids: no question {unknown[0]!r} in the bank")
    extra = sorted(set(guesses) - set(ids))
    if extra:
        raise ValueError(f"guesses: {extra[0]!r} is not a question of this mock")
    if _finite(finished, "finished") < _finite(started, "started"):
        raise ValueError(f"finished: {finished} is before started {started}")
    elapsed, _ = clock(started, finished, time_limit_s)
    rows = []
    for position, qid in enumerate(ids, start=1):
        q = known[qid]
        guess = guesses.get(qid)
        if guess is None:
            rows.append((position, qid, q.topic, q.kind, False, None, q.compute(), False, 0.0))
        else:
            verdict = q.check(guess)
            credit = q.credit(guess)
            rows.append(
                (position, qid, q.topic, q.kind, True, verdict.guess, verdict.answer, bool(verdict.correct), credit)
            )
    verdicts = pd.DataFrame(rows, columns=list(VERDICT_COLUMNS))
    verdicts[["answered", "correct"]] = verdicts[["answered", "correct"]].astype(bool)
    return MockSummary(
        right=int(verdicts["correct"].sum()),
        total=len(ids),
        answered=int(verdicts["answered"].sum()),
        elapsed_s=elapsed,
        time_limit_s=float(time_limit_s),
        timed_out=finished - started >= time_limit_s,
        verdicts=verdicts,
    )


# ------------------------------------------------------------------------------------ scores
def score_table(results: Iterable[tuple[str, bool]], questions: Sequence[Question]) -> pd.DataFrame:
    """The per-topic score of a session: one row per topic of ``TOPICS``, in its order.

    Args:
        results: ``(question id, credit)`` of every answer given (practice and mocks): ``credit`` a
            bool (right or wrong), or for an explain question a float in [0, 1] (the share of checklist
            points ticked); a question answered twice counts twice.
        questions: the bank's questions.

    Returns:
        columns ``SCORE_COLUMNS``: ``topic`` (a key of ``TOPICS``), ``in_bank`` (the bank's questions
        on it), ``answered`` (count of answers), ``right``, ``wrong`` (points: an explain answer adds
        its ticked share to ``right`` and the rest to ``wrong``), ``score`` (right / answered, NaN where
        nothing was answered).

    Raises:
        ValueError: naming ``results`` (an id not in the bank, or a credit that is neither a bool nor a
            float in [0, 1]).
    """
    topic_of = {q.id: q.topic for q in questions}
    answered = dict.fromkeys(TOPICS, 0)
    right = dict.fromkeys(TOPICS, 0.0)
    for qid, credit in results:
        if qid not in topic_of:
            raise ValueError(f"results: no question {qid!r} in the bank")
        is_share = isinstance(credit, float) and 0.0 <= credit <= 1.0
        if not isinstance(credit, (bool, np.bool_)) and not is_share:
            raise ValueError(f"results: credit must be True, False or a share in [0, 1], got {credit!r} for {qid!r}")
        answered[topic_of[qid]] += 1
        right[topic_of[qid]] += float(credit)
    in_bank = dict.fromkeys(TOPICS, 0)
    for topic in topic_of.values():
        in_bank[topic] += 1
    frame = pd.DataFrame(
        {
            "topic": list(TOPICS),
            "in_bank": [in_bank[t] for t in TOPICS],
            "answered": [answered[t] for t in TOPICS],
            "right": [right[t] for t in TOPICS],
        }
    )
    frame["wrong"] = frame["answered"] - frame["right"]
    frame["score"] = (frame["right"] / frame["answered"].where(frame["answered"] > 0)).astype(float)
    return frame[list(SCORE_COLUMNS)]


# ------------------------------------------------------------------------------------ the claims deck
def deck_order(claims: Sequence[Claim], seed: int) -> tuple[str, ...]:
    """The claim ids of the "claims to judge" deck in the order shown: shuffled by ``seed`` (a
    whole number >= 0), the same for the same seed. Raises ``ValueError`` naming ``seed``."""
    seed = _whole(seed, "seed", 0)
    rng = np.random.default_rng([seed])
    return tuple(claims[i].id for i in rng.permutation(len(claims)))


def deck_score(verdicts: Mapping[str, str], claims: Sequence[Claim]) -> tuple[int, int]:
    """``(right, seen)`` of the deck: a claim is judged right when the learner pushes back on a wrong
    claim or agrees with a true one (:attr:`~rlviz.teach.bank.Claim.right_verdict`).

    Args:
        verdicts: claim id -> one of ``CLAIM_VERDICTS``, for the claims judged so far.
        claims: the deck (``load_bank().claims``).

    Raises:
        ValueError: naming ``verdicts`` (a value not in ``CLAIM_VERDICTS``, or an id not in the deck).
    """
    by_id = {c.id: c for c in claims}
    for cid, verdict in verdicts.items():
        if verdict not in CLAIM_VERDICTS:
            raise ValueError(f"verdicts: {verdict!r} for {cid!r} is not one of {', '.join(CLAIM_VERDICTS)}")
        if cid not in by_id:
            raise ValueError(f"verdicts: no claim {cid!r} in the deck")
    return sum(v == by_id[cid].right_verdict for cid, v in verdicts.items()), len(verdicts)


# -- the page's words and tables, in a language (the page draws them; no Streamlit here) ----------------


def shown_answer(q: Question, value: Any, lang: str) -> str:
    """An answer or a guess as the learner reads it, in ``lang``: a number with 4 significant digits
    (``rlviz.teach.bank.format_answer``), a choice by its label, "no answer" for ``None``; for an
    explain question "k of n points" (``value``: the ticked points, or the full score n)."""
    if value is None:
        return t("interview.no_answer", lang)
    if q.kind == "explain":
        n = len(q.checklist[lang])
        return t("interview.points", lang, k=len(value) if isinstance(value, (list, tuple)) else int(value), n=n)
    return q.choice_text[value][lang] if q.kind == "choice" else format_answer(float(value))


def url_value(value: Any) -> Any:
    """A setting as the proving page's bound widget reads it from the URL (``true``, ``0.5``, a list)."""
    if isinstance(value, (list, tuple)):
        return [url_value(v) for v in value]
    return str(value).lower() if isinstance(value, bool) else str(value)


def next_open(ids: Sequence[str], guesses: Mapping[str, Any], after: int) -> int | None:
    """The position in ``ids`` of the next question without a guess after ``after`` (wrapping), if any."""
    for step in range(1, len(ids) + 1):
        pos = (after + step) % len(ids)
        if ids[pos] not in guesses:
            return pos
    return None


def review_table(summary: MockSummary, questions: Sequence[Question], lang: str) -> pd.DataFrame:
    """A finished mock's verdicts (:func:`summarise_mock`) with each question's text, the guess and the
    answer as the learner reads them, in ``lang`` (the mock's CSV)."""
    by_id = _by_id(questions)
    verdicts = summary.verdicts
    return verdicts.assign(
        question=[by_id[i].question(lang) for i in verdicts["id"]],
        guess=[
            shown_answer(by_id[i], g, lang) if a else ""
            for i, g, a in verdicts[["id", "guess", "answered"]].itertuples(index=False)
        ],
        answer=[shown_answer(by_id[i], a, lang) for i, a in zip(verdicts["id"], verdicts["answer"])],
    )


def scores_view(frame: pd.DataFrame, lang: str) -> pd.DataFrame:
    """:func:`score_table`'s ``frame`` as the page shows it: topics by name and columns named in ``lang``,
    scores as whole percentages (a dash for a topic not answered)."""
    names = {k: v[lang] for k, v in TOPICS.items()}
    shown = frame.assign(
        topic=frame["topic"].map(names),
        score=[f"{s:.0%}" if n else "–" for s, n in zip(frame["score"], frame["answered"])],
    )
    return shown.rename(columns={c: t(f"interview.col_{c}", lang) for c in frame.columns})
