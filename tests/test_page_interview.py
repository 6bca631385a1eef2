"""The Interview prep page through AppTest: every mode in both languages, a practice answer judged,
a whole mock interview taken and scored, the claims deck judging wrong and true claims, bad input as a message.

Nothing here knows how many questions or claims the bank holds: the tests read the bank (the first
question of a topic, the mock's own draw from the session state) and compute the answers with
``Question.compute()``.
"""

from __future__ import annotations

import math

import pytest
from apptools import assert_finite_figures, no_exception, open_page, texts

from rlviz.i18n import t
from rlviz.teach.bank import TOPICS, load_bank
from rlviz.teach.interview import MOCK_SIZE, MOCK_TIME_LIMIT_S, format_duration

PAGE = "pages/interview.py"
BANK = load_bank()
MODES = ("practice", "mock", "claims", "scores")


def _mode(at, mode: str):
    at.button_group(key="iv_mode").set_value(mode).run()
    no_exception(at)
    return at


def _answer(at, key: str, question, value) -> None:
    """Put ``value`` in the answer widget ``key`` of ``question``."""
    widget = at.number_input(key=key) if question.kind == "number" else at.radio(key=key)
    widget.set_value(value)


def _wrong(question):
    """An answer the bank judges wrong: another choice, or a number far outside the tolerance."""
    if question.kind == "choice":
        return next(c for c in question.choices if c != question.compute())
    return question.compute() + 10 * question.tolerance + 1.0


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_every_mode_renders(lang):
    at = open_page(PAGE, lang=lang)
    no_exception(at)
    assert at.title[0].value == t("interview.title", lang)
    assert t("interview.intro", lang, questions=len(BANK.questions), claims=len(BANK.claims), size=MOCK_SIZE) in texts(
        at
    )
    for mode in MODES:
        _mode(at, mode)
    assert at.dataframe  # the scores table, every topic, answered or not
    assert len(at.dataframe[0].value) == len(TOPICS)


def _leaves(node) -> list[tuple[str, str, str]]:
    """The main column's elements in the order a reader meets them: (type, key, text)."""
    children = getattr(node, "children", None)
    if isinstance(children, dict):
        return [leaf for child in children.values() for leaf in _leaves(child)]
    value = getattr(node, "value", "")
    return [(node.type, str(getattr(node, "key", "") or ""), value if isinstance(value, str) else "")]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_page_opens_on_its_lede_then_the_question_card(lang):
    # issue 39: title and a short lede, then at once the mode, the topic and the question with its answer
    # field; how the bank works (the long introduction it replaces, kept whole) in the notes under the card
    import re

    at = open_page(PAGE, lang=lang)
    no_exception(at)
    order = _leaves(at.main)
    assert order[0] == ("title", "", t("interview.title", lang))
    assert order[1][0] == "markdown" and re.sub(r"<[^>]+>", "", order[1][2]) == t("interview.lede", lang)
    assert len(t("interview.lede", "en").split()) <= 40
    keys = [key for _, key, _ in order]
    q = BANK.by_topic(at.selectbox(key="iv_topic").value)[0]
    answer = keys.index(f"iv_in_{q.id}_{lang}")
    assert keys[2:4] == ["iv_mode", "iv_topic"] and answer < 12, order[:answer]
    assert q.question(lang) in [text for _, _, text in order[:answer]]
    intro = t("interview.intro", lang, questions=len(BANK.questions), claims=len(BANK.claims), size=MOCK_SIZE)
    assert [text for _, _, text in order].index(intro) > answer
    assert t("interview.notes", lang) in [e.label for e in at.expander]  # the sidebar has one too


def test_practice_reveals_the_computed_answer_and_scores_it():
    topic = BANK.questions[0].topic
    q = BANK.by_topic(topic)[0]
    at = open_page(PAGE, iv_topic=topic)
    no_exception(at)
    assert at.selectbox(key="iv_topic").value == topic
    assert q.question("en") in texts(at)
    _answer(at, f"iv_in_{q.id}_en", q, q.compute())
    at.button(key="iv_commit").click().run()
    no_exception(at)
    shown = q.choice_text[q.compute()]["en"] if q.kind == "choice" else f"{q.compute():.4g}"
    assert [s.value for s in at.success] == [t("interview.right", "en", answer=shown)]
    assert q.explanation("en", q.compute()) in texts(at)
    links = [link.proto for link in at.get("page_link")]
    assert any(link.label == t("interview.prove", "en", page=t(f"nav.{q.page}", "en")) for link in links)
    # the answer is in the session's per-topic score
    _mode(at, "scores")
    table = at.dataframe[0].value.set_index(t("interview.col_topic", "en"))
    row = table.loc[TOPICS[topic]["en"]]
    assert row[t("interview.col_answered", "en")] == 1 and row[t("interview.col_right", "en")] == 1
    assert_finite_figures(at, at_least=1)


def test_practice_bad_answer_is_a_message():
    q = BANK.questions[0]
    at = open_page(PAGE, iv_topic=q.topic)
    first = BANK.by_topic(q.topic)[0]
    # commit with nothing entered, then (a number question) with a NaN: a message, never a verdict
    bad = [None] + ([math.nan] if first.kind == "number" else [])
    for value in bad:
        _answer(at, f"iv_in_{first.id}_en", first, value)
        at.button(key="iv_commit").click().run()
        no_exception(at)
        assert [w.value for w in at.warning] == [t("interview.enter_first", "en")]
        assert not at.success and "iv_results" not in at.session_state


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_whole_mock_interview(lang):
    at = _mode(open_page(PAGE, lang=lang), "mock")
    at.button(key="iv_start").click().run()
    no_exception(at)
    mock = at.session_state["iv_mock"]
    ids = list(mock["ids"])
    assert len(ids) == min(MOCK_SIZE, len(BANK.questions)) and len(set(ids)) == len(ids)
    wrong_one = ids[0]  # one deliberately wrong answer, the rest computed
    for _ in ids:
        mock = at.session_state["iv_mock"]
        qid = mock["ids"][mock["pos"]]
        q = BANK.question(qid)
        assert q.question(lang) in texts(at)
        assert not at.success and not at.warning  # nothing is revealed before the end
        _answer(at, f"iv_mock_in_{mock['attempt']}_{qid}_{lang}", q, _wrong(q) if qid == wrong_one else q.compute())
        at.button(key="iv_mock_commit").click().run()
        no_exception(at)
    assert at.session_state["iv_mock"]["finished"] is not None
    right = len(ids) - 1
    metrics = {m.label: m.value for m in at.metric}
    assert metrics[t("interview.score", lang)] == t("interview.score_value", lang, right=right, total=len(ids))
    assert metrics[t("interview.answered", lang)] == f"{len(ids)} / {len(ids)}"
    assert len(at.success) == right and len(at.warning) == 1  # each question's verdict
    assert len(at.get("page_link")) >= len(ids)  # each question links to its proving page
    # the answers went into the per-topic score
    _mode(at, "scores")
    table = at.dataframe[0].value
    assert table[t("interview.col_answered", lang)].sum() == len(ids)
    assert table[t("interview.col_right", lang)].sum() == right
    # a second mock is a new draw (a different attempt), and starts unanswered
    _mode(at, "mock")
    at.button(key="iv_start").click().run()
    assert at.session_state["iv_mock"]["attempt"] == 1 and not at.session_state["iv_mock"]["guesses"]


def test_finishing_a_mock_early_counts_the_rest_as_missed():
    at = _mode(open_page(PAGE), "mock")
    at.button(key="iv_start").click().run()
    at.button(key="iv_finish").click().run()
    no_exception(at)
    n = len(at.session_state["iv_mock"]["ids"])
    metrics = {m.label: m.value for m in at.metric}
    assert metrics[t("interview.score", "en")] == t("interview.score_value", "en", right=0, total=n)
    assert metrics[t("interview.answered", "en")] == f"0 / {n}"


def _shown_claim(at):
    shown = [c for c in BANK.claims if c.claim["zh"] in texts(at)]
    assert len(shown) == 1
    return shown[0]


@pytest.mark.skipif(not BANK.claims, reason="the deck holds no claims")
def test_the_claims_deck_judges_wrong_and_true_claims():
    at = _mode(open_page(PAGE, lang="zh"), "claims")
    first = _shown_claim(at)
    assert first.corrected("zh") not in texts(at)  # not before the learner commits
    at.button(key="iv_push_back").click().run()
    no_exception(at)
    assert first.corrected("zh") in texts(at)
    if first.true:  # pushing back on a true claim is judged wrong: "this one was true, because ..."
        assert [w.value for w in at.warning] == [t("interview.claim_missed_true", "zh")]
    else:
        assert [s.value for s in at.success] == [t("interview.claim_right_wrong", "zh")]
    assert t("interview.deck_right", "zh", right=int(not first.true), seen=1, n=len(BANK.claims)) in texts(at)
    assert at.button(key="iv_agree").proto.disabled
    # the next card of the other kind (true after a wrong one, or wrong after a true one): agree with it
    for _ in range(len(BANK.claims)):
        at.button(key="iv_claim_next").click().run()
        other = _shown_claim(at)
        if other.true != first.true:
            break
    assert other.true != first.true, "the deck holds only one kind of claim"
    at.button(key="iv_agree").click().run()
    no_exception(at)
    assert other.corrected("zh") in texts(at)
    if other.true:
        assert [s.value for s in at.success] == [t("interview.claim_right_true", "zh")]
    else:
        assert [w.value for w in at.warning] == [t("interview.claim_missed_wrong", "zh")]
    # both verdicts right (push back on a wrong claim, then agree with a true one) or both wrong
    right = 2 * int(not first.true)
    assert t("interview.deck_right", "zh", right=right, seen=2, n=len(BANK.claims)) in texts(at)


def test_a_mock_whose_time_ran_out_is_reviewed():
    at = _mode(open_page(PAGE), "mock")
    at.button(key="iv_start").click().run()
    at.session_state["iv_mock"]["started"] -= MOCK_TIME_LIMIT_S + 1  # as if the page had been left open
    at.run()
    no_exception(at)
    assert at.session_state["iv_mock"]["finished"] is not None
    assert [w.value for w in at.warning] == [t("interview.timed_out", "en")]
    metrics = {m.label: m.value for m in at.metric}
    assert metrics[t("interview.time_taken", "en")] == format_duration(MOCK_TIME_LIMIT_S)


def test_a_link_names_the_topic_and_the_mode_by_their_keys_in_both_languages():
    topics = [k for k in TOPICS if BANK.by_topic(k)]
    first, other = topics[0], topics[-1]
    at = open_page(PAGE, iv_topic=other, lang="zh")  # a link made in English opens in Chinese
    no_exception(at)
    assert at.selectbox(key="iv_topic").value == other
    at.selectbox(key="iv_topic").set_value(first).run()  # the default topic: no parameter
    assert "iv_topic" not in at.query_params
    at.selectbox(key="iv_topic").set_value(other).run()
    assert at.query_params["iv_topic"] == other  # the key, not the Chinese label
    at.button_group(key="iv_mode").set_value("mock").run()
    assert at.query_params["iv_mode"] == "mock"
    assert open_page(PAGE, iv_mode="mock").button_group(key="iv_mode").value == "mock"


# ------------------------------------------------------------------------------------ "explain why" questions
EXPLAIN = next((q for q in BANK.questions if q.kind == "explain"), None)


def _explain_steps(at, q, key: str, where: str, ticks) -> None:
    """Write an answer to explain question ``q``, reveal the model answer, tick ``ticks`` and score it;
    the model answer must stay out of view until the reveal (the no-leak rule)."""
    model = q.explanation("zh", None)
    assert q.question("zh") in texts(at) and model not in texts(at)
    at.button(key=f"iv_{where}_reveal").click().run()  # nothing written yet: a message, still no answer
    no_exception(at)
    assert t("interview.enter_first", "zh") in [w.value for w in at.warning] and model not in texts(at)
    at.text_area(key=f"{key}_text").set_value("裁剪让同一批数据可以多步更新。")
    at.button(key=f"iv_{where}_reveal").click().run()
    no_exception(at)
    assert model in texts(at) and "裁剪让同一批数据可以多步更新。" in texts(at)
    assert [c.label for c in at.checkbox] == list(q.checklist["zh"])
    for i in ticks:
        at.checkbox(key=f"{key}_tick_{i}").check()
    at.button(key=f"iv_{where}_score").click().run()
    no_exception(at)


@pytest.mark.skipif(EXPLAIN is None, reason="the bank holds no explain questions")
def test_an_explain_question_is_revealed_ticked_and_scored_in_practice():
    q = EXPLAIN
    at = open_page(PAGE, lang="zh")
    at.selectbox(key="iv_topic").set_value(q.topic).run()
    at.session_state["iv_pos"] = {q.topic: BANK.by_topic(q.topic).index(q)}
    at.run()
    _explain_steps(at, q, f"iv_ex_{q.id}_zh", "practice", ticks=(0, 2))
    n = len(q.checklist["zh"])
    assert t("interview.ticked", "zh", k=2, n=n) in [i.value for i in at.info]
    # the score counts the ticks: 2 of n points, 2/n of an answer
    assert at.session_state["iv_results"][-1] == (q.id, 2 / n, "practice")


@pytest.mark.skipif(EXPLAIN is None, reason="the bank holds no explain questions")
def test_a_mock_with_an_explain_question_counts_its_ticks():
    q = EXPLAIN
    number = next(x for x in BANK.questions if x.kind == "number")
    at = _mode(open_page(PAGE, lang="zh"), "mock")
    at.button(key="iv_start").click().run()
    at.session_state["iv_mock"] = dict(at.session_state["iv_mock"], ids=[q.id, number.id], pos=0)
    at.run()
    key = f"iv_mock_in_{at.session_state['iv_mock']['attempt']}_{q.id}_zh"
    _explain_steps(at, q, key, "mock", ticks=range(len(q.checklist["zh"])))  # every point made
    assert at.session_state["iv_mock"]["pos"] == 1  # on to the number question
    at.button(key="iv_finish").click().run()
    no_exception(at)
    metrics = {m.label: m.value for m in at.metric}
    # 1 point for the fully ticked explain question + 0 for the unanswered number question
    assert metrics[t("interview.score", "zh")] == t("interview.score_value", "zh", right="1", total=2)
    n = len(q.checklist["zh"])
    assert t("interview.ticked", "zh", k=n, n=n) in [s.value for s in at.success]
