"""The "TRL & verl: eight confusions" page through AppTest: both languages render every section with
finite figures, and a question is committed and answered with the value rlviz computes."""

from __future__ import annotations

import pytest
from apptools import assert_finite_figures, no_exception, open_page, texts, torch_threads

from rlviz.i18n import t

PAGE = "pages/confusions.py"
SECTIONS = ("aggregation", "microbatch", "ratio_one", "sequence", "sampler", "kl", "difficulty", "clip")


@pytest.fixture(scope="module", autouse=True)
def _one_thread():
    with torch_threads(1):
        yield


def _renders(lang: str):
    at = open_page(PAGE, lang=lang)
    no_exception(at)
    assert at.title[0].value == t("confusions.title", lang)
    assert_finite_figures(at, at_least=len(SECTIONS))
    text = texts(at)
    for name in SECTIONS:
        assert t(f"confusions.{name}.header", lang) in text
        assert t(f"confusions.{name}.sources", lang) in text  # the public threads, with their numbers
    assert "huggingface/trl#3120" in text and "verl-project/verl#5625" in text
    return at


def test_chinese():
    _renders("zh")


def test_english_and_a_committed_question():
    at = _renders("en")
    # every section asks before it shows: one commit button per section
    buttons = [b for b in at.button if b.label == t("teach.commit", "en")]
    assert len(buttons) == len(SECTIONS)
    # section 8 at its defaults, A < 0 at r = 2: between 1 + ε_high and c, so no setting stops the gradient
    at.radio(key="pr_confusions.clip_in_en").set_value("eps_high")
    buttons[-1].click().run()
    no_exception(at)
    guess, answer = t("confusions.clip.choice.eps_high", "en"), t("confusions.clip.choice.none", "en")
    assert at.warning and t("teach.wrong", "en", guess=guess, answer=answer) in at.warning[0].value
    assert t("confusions.clip.why.none", "en", r="2", sign="< 0", low="0.8", high="1.28", c="3") in texts(at)
    assert_finite_figures(at, at_least=len(SECTIONS))
