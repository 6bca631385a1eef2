"""The interview bank: every file loads, every text exists in both languages and formats, every
answer is computed by rlviz now (a stored choice that disagrees with the computation fails), every
page link exists, and bad guesses or malformed entries name what is wrong."""

from __future__ import annotations

import math

import pytest

from rlviz.core.aggregation import LOSS_AGG_MODES
from rlviz.i18n import LANGS
from rlviz.teach import answers
from rlviz.teach.bank import TOPICS, format_answer, load_bank

BANK = load_bank()
QUESTIONS = BANK.questions


@pytest.mark.parametrize("question", QUESTIONS, ids=lambda q: q.id)
def test_every_answer_is_computed_and_every_text_formats(question):
    answer = question.compute()
    if question.kind == "number":
        assert isinstance(answer, float) and math.isfinite(answer)
        assert question.check(answer).correct
        assert not question.check(answer + 2 * question.tolerance + 1e-6).correct
    elif question.kind == "explain":  # self-scored: the full score is the checklist's length
        assert answer == len(question.checklist["en"]) == len(question.checklist["zh"])
        assert question.check(list(range(answer))).correct and not question.check([0]).correct
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


# Conventions a numeric answer depends on: answer function -> (what it depends on, words of which the
# question must name one in English, in Chinese). A candidate cannot be marked wrong for the other
# convention (the population std, log base 2, another loss aggregation, the reverse KL) unless the
# question says which one it wants.
_STD = (("sample std", "unbiased std", "ddof = 1"), ("样本标准差", "无偏", "ddof = 1"))
_LOG = (("natural log", "nats"), ("自然对数", "nats"))
_KL = (("KL(π ‖ π_ref)",), ("KL(π ‖ π_ref)",))
_AGG = (LOSS_AGG_MODES, LOSS_AGG_MODES)
_DIR = (("π_rollout / π_", "π_train / π_rollout", "π_old / π_rollout", "log π_train − log π_rollout"),) * 2
_NEXT = (("the next step uses",), ("下一步使用",))  # which α a step uses: the update after step k sets step k + 1's
CONVENTIONS = {
    # the group's std: sample (ddof = 1, torch.std) vs population (ddof = 0, numpy.std)
    **dict.fromkeys(
        ("tr_group_advantage", "tr_group_mass_ratio", "tr_mass_ratio", "tr_advantage_mass", "tr_group_abs_sum")
        + ("tr_dapo_group_advantage", "tr_kl_reward_advantage", "cf_gdpo_advantage", "cf_group_std", "cr_whitened")
        + ("est_passk_advantage",),
        (_STD,),
    ),
    # KL estimators: the log's base and the direction of the KL
    **dict.fromkeys(
        ("tr_kl_value", "tr_kl_grad", "tr_kl_expected", "tr_kl_loss_gradient", "tr_kl_true_gradient"), (_LOG, _KL)
    ),
    # a change of log-probability read as a ratio: e^d needs the natural log
    **dict.fromkeys(("tr_token_ratio", "tr_sequence_ratio", "cf_sequence_weight", "cf_first_masked"), (_LOG,)),
    # rollout corrections: which way the ratio points (a rejection band on pi_rollout / pi_train, a TIS cap
    # on pi_train / pi_rollout) and, for k3 and e^(sum of l), the natural log
    "rs_statistic": (_LOG, _DIR),
    "preset_weight": (_LOG, _DIR),
    # token weights and losses: the aggregation (token-mean, seq-mean-token-mean, ...)
    **dict.fromkeys(
        ("token_weight", "obj_row_weight", "obj_weight_ratio", "obj_batch_loss", "obj_batch_push", "gs_norm_ratio"),
        (_AGG,),
    ),
    # the entropy bonus: the aggregation and the entropy's unit; the adaptive controller: the unit of the
    # entropy and its target, and which α a step uses (the update after step k sets the next step's)
    **dict.fromkeys(("ent_bonus", "ent_token_weight", "ent_loss_gradient"), (_AGG, _LOG)),
    **dict.fromkeys(("ent_adaptive_coef", "ent_applied_coef"), (_LOG, _NEXT)),
}


@pytest.mark.parametrize("question", [q for q in QUESTIONS if q.kind == "number"], ids=lambda q: q.id)
def test_every_numeric_question_names_the_convention_its_answer_depends_on(question):
    needs = CONVENTIONS.get(question.answer_fn, ())
    if question.args.get("scale") == "none":  # Dr.GRPO divides by no std: no std convention to name
        needs = tuple(n for n in needs if n is not _STD)
    if "ratios" in question.args and question.args.get("correction") != "k3_rs":  # a product of ratios: no log
        needs = tuple(n for n in needs if n is not _LOG)
    for words_en, words_zh in needs:
        for lang, words in (("en", words_en), ("zh", words_zh)):
            text = question.question(lang)
            assert any(w in text for w in words), f"{question.id} ({lang}) names none of {words}"


def test_explain_questions_quote_computed_numbers_and_score_the_ticks():
    explain = [q for q in QUESTIONS if q.kind == "explain"]
    assert len(explain) >= 30 and {q.topic for q in explain} == set(TOPICS)
    for q in explain:  # every computed fact is quoted in both languages' model answer
        for lang in LANGS:
            missing = [name for name in q.facts if "{" + name + "}" not in q.why[lang]]
            assert not missing, (q.id, lang, missing)
    q = BANK.question("clipping-why-clip")  # 4 points: ticking points 0 and 2 scores 2/4 = 0.5
    assert q.credit([2, 0]) == 0.5 and q.check([2, 0]).guess == (0, 2) and not q.check([2, 0]).correct
    assert q.credit([]) == 0.0 and q.credit([0, 1, 2, 3]) == 1.0
    for bad in ([4], [0, 0], [True], "0"):
        with pytest.raises(ValueError, match="^guess:"):
            q.check(bad)
    number = next(x for x in QUESTIONS if x.kind == "number")
    with pytest.raises(ValueError, match="^guess:"):
        number.ticks([0])


def test_the_claims_deck_mixes_true_claims_with_computed_evidence():
    """About a third of the deck is true (so "push back" on every card no longer scores), and each true
    claim is sourced and quotes the number rlviz computes for it, as the wrong claims' corrections do."""
    true = [c for c in BANK.claims if c.true]
    assert 0.25 <= len(true) / len(BANK.claims) <= 0.45, (len(true), len(BANK.claims))
    assert len({c.topic for c in true}) >= 6  # spread over the topics, not one corner
    for claim in true:
        assert claim.answer_fn is not None and claim.source.strip(), claim.id
        shown = format_answer(answers.compute(claim.answer_fn, claim.args))
        for lang in LANGS:
            assert shown in claim.corrected(lang), (claim.id, lang)
    assert {c.right_verdict for c in BANK.claims} == {"agree", "push_back"}


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
    explain = (
        '[[question]]\nid = "x"\ntopic = "kl"\nkind = "explain"\npage = "kl"\nq_en = "?"\nq_zh = "？"\n'
        'why_en = "{h}"\nwhy_zh = "{h}"\n'
    )
    facts = 'facts = { h = { answer = "band_high", args = { algorithm = "ppo" } } }\n'
    (tmp_path / "a.toml").write_text(explain + 'checklist_en = ["a", "b", "c"]\n', encoding="utf-8")
    with pytest.raises(ValueError, match="a.toml question x: an explain question's model answer needs"):
        load_bank(tmp_path)  # a model answer with no computed number
    (tmp_path / "a.toml").write_text(explain + facts + 'checklist_en = ["a", "b"]\n', encoding="utf-8")
    with pytest.raises(ValueError, match="a.toml question x: checklist_en must hold 3 to 5"):
        load_bank(tmp_path)
    two_lengths = 'checklist_en = ["a", "b", "c"]\nchecklist_zh = ["甲", "乙", "丙", "丁"]\n'
    (tmp_path / "a.toml").write_text(explain + facts + two_lengths, encoding="utf-8")
    with pytest.raises(ValueError, match="as many points"):
        load_bank(tmp_path)
    claim = '[[claim]]\nid = "c"\ntopic = "kl"\npage = "kl"\nclaim_en = "x"\nclaim_zh = "x"\n'
    claim += 'correction_en = "y"\ncorrection_zh = "y"\nsource = "s"\ntrue = "yes"\n'
    (tmp_path / "a.toml").write_text(claim, encoding="utf-8")
    with pytest.raises(ValueError, match="a.toml claim c: true must be true or false"):
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
