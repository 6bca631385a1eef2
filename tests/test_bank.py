"""The interview bank: every file loads, every text exists in both languages and formats, every
answer is computed by rlviz now (a stored choice that disagrees with the computation fails), every
page link exists, and bad guesses or malformed entries name what is wrong."""

from __future__ import annotations

import math

import pytest

from rlviz.i18n import LANGS
from rlviz.teach import answers
from rlviz.teach.bank import TOPICS, load_bank

BANK = load_bank()
QUESTIONS = BANK.questions


@pytest.mark.parametrize("question", QUESTIONS, ids=lambda q: q.id)
def test_every_answer_is_computed_and_every_text_formats(question):
    answer = question.compute()
    if question.kind == "number":
        assert isinstance(answer, float) and math.isfinite(answer)
        assert question.check(answer).correct
        assert not question.check(answer + 2 * question.tolerance + 1e-6).correct
    else:
        assert answer in question.choices
        if question.answer_fn is not None:  # the stored correct choice is what rlviz computes now
            assert answers.compute(question.answer_fn, question.args) == question.correct
        assert question.check(question.correct).correct
        wrong = next(c for c in question.choices if c != question.correct)
        assert not question.check(wrong).correct
    for lang in LANGS:  # both languages, every placeholder filled
        assert "{" not in question.question(lang) and "{" not in question.explanation(lang, answer)


@pytest.mark.parametrize("claim", BANK.claims, ids=lambda c: c.id)
def test_every_claim_correction_formats(claim):
    for lang in LANGS:
        text = claim.corrected(lang)
        assert text and "{" not in text and claim.claim[lang]


def test_hand_values_of_the_first_questions():
    # DAPO clip-higher: 1 + eps_high = 1 + 0.28 = 1.28 (DAPO arXiv 2503.14476 §3.1)
    assert BANK.question("clipping-dapo-band").compute() == pytest.approx(1.28)
    # token-mean over lengths 2 and 8: every token weighs 1 / (2 + 8) = 0.1
    assert BANK.question("aggregation-token-mean-weight").fields()["w"] == "0.1"


def test_bad_guess_names_guess():
    q = BANK.question("clipping-dapo-band")
    with pytest.raises(ValueError, match="^guess"):
        q.check(float("nan"))
    with pytest.raises(ValueError, match="^qid"):
        BANK.question("nope")
    with pytest.raises(ValueError, match="^topic"):
        BANK.by_topic("nope")
    with pytest.raises(ValueError, match="^answer"):
        answers.compute("no_such_function")


def test_malformed_files_are_refused_with_the_entry_named(tmp_path):
    (tmp_path / "a.toml").write_text(
        '[[question]]\nid = "x"\ntopic = "kl"\nkind = "number"\npage = "curves"\nq_en = "?"\nq_zh = "？"\n'
        'why_en = "."\nwhy_zh = "。"\nanswer = "band_high"\nargs = { algorithm = "ppo" }\n',
        encoding="utf-8",
    )
    with pytest.raises(ValueError, match="a.toml question x: tolerance"):
        load_bank(tmp_path)
    (tmp_path / "a.toml").write_text('[[question]]\nid = "x"\ntopic = "kl"\nkind = "choice"\npage = "nope"\n')
    with pytest.raises(ValueError, match="page 'nope'"):
        load_bank(tmp_path)


def test_topics_have_names_in_every_language():
    for names in TOPICS.values():
        assert set(names) == set(LANGS) and all(names.values())


def test_the_bank_covers_every_objective_and_topic():
    from rlviz.core.objectives import ALGORITHMS

    assert len(QUESTIONS) >= 120
    for topic in TOPICS:  # numeric and conceptual questions in every topic
        kinds = [q.kind for q in BANK.by_topic(topic)]
        assert len(kinds) >= 10 and "number" in kinds and "choice" in kinds, topic
    about = {a for q in QUESTIONS for a in q.algorithms}
    assert about >= set(ALGORITHMS), sorted(set(ALGORITHMS) - about)
    assert len(BANK.claims) >= 20 and {c.topic for c in BANK.claims} == set(TOPICS)
