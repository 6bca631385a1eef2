"""The "TRL & verl: eleven confusions" page through AppTest: both languages render every section with
finite figures drawn without what answers its question until the learner commits (or skips), and a
question is committed and answered with the value rlviz computes."""

from __future__ import annotations

import math
import re

import pytest
from apptools import assert_finite_figures, figures, no_exception, open_page, texts, torch_threads, trace_values

from app_common.keys import ANSWERED_KEY
from app_common.predictions import ASKED_KEY, signature
from rlviz.core.objectives import ALGORITHMS
from rlviz.experiments import confusions as X
from rlviz.i18n import t

PAGE = "pages/confusions.py"
SECTIONS = (
    "aggregation",
    "microbatch",
    "ratio_one",
    "sequence",
    "sampler",
    "kl",
    "difficulty",
    "clip",
    "window",
    "drift",
    "gdpo",
)
REPORTS = ("window", "drift", "gdpo")  # the sections from public reports (issue 43)


@pytest.fixture(scope="module", autouse=True)
def _one_thread():
    with torch_threads(1):
        yield


HELD_FIGURES = ("ratio_one", "sampler", "clip")  # sections whose whole figure is their question's answer


def _skip_button(at, name: str):
    """Section ``name``'s "Skip: show me" button (in its question's form)."""
    skip = t("teach.skip", at.session_state["lang"])
    return next(b for b in at.button if b.label == skip and b.proto.form_id == f"form_confusions.{name}")


def _skip_all(at) -> None:
    """Every question skipped in one run: the state a "Skip: show me" leaves (``app_common.predictions``:
    the guess None under the question's key and the settings it was asked at, ``ANSWERED_KEY``), set for
    each question the page asked (``ASKED_KEY``), then one run of the page instead of one per button."""
    asked = at.session_state[ASKED_KEY]
    answered = dict(at.session_state[ANSWERED_KEY]) if ANSWERED_KEY in at.session_state else {}
    at.session_state[ANSWERED_KEY] = answered | {(key, signature(state)): None for key, state in asked.items()}
    at.run()


def _renders(lang: str):
    at = open_page(PAGE, lang=lang)
    no_exception(at)
    assert at.title[0].value == t("confusions.title", lang)
    assert t("confusions.lede", lang) in re.sub(r"<[^>]+>", "", texts(at))
    # each section: a question as its heading, its figure (drawn without what answers the question),
    # the question, then its explanation on demand (full title, what people say, reading, threads)
    assert [s.value for s in at.subheader] == [t(f"confusions.{name}.ask", lang) for name in SECTIONS]
    figs = assert_finite_figures(at, at_least=len(SECTIONS) - len(HELD_FIGURES))
    assert len(figs) == len(SECTIONS) - len(HELD_FIGURES)
    text = texts(at)
    assert text.count(t("teach.held", lang)) == len(SECTIONS) + len(HELD_FIGURES)  # every reading, 3 figures
    for name in SECTIONS:
        assert t(f"confusions.{name}.header", lang) in text
        assert t(f"confusions.{name}.said", lang) in text
        assert t(f"confusions.{name}.sources", lang) in text  # the public threads, with their numbers
    assert "huggingface/trl#3120" in text and "verl-project/verl#5625" in text
    assert t("confusions.intro", lang) in text  # the old introduction, whole, in "How to read this"
    aggregation, microbatch, sequence, kl, difficulty, window, drift, gdpo = figs
    assert "token-mean" not in {x for tr in aggregation["data"] for x in tr["x"]}  # the mode asked about
    assert t("confusions.response", lang, i=1, n=200) in {tr["name"] for tr in aggregation["data"]}  # from #1
    assert len(microbatch["data"]) == 1 and len(difficulty["data"]) == 1
    # the reports' sections: the step's own tokens, each token's ratio, GRPO: their answers left out
    assert [tr["name"] for tr in window["data"]] == [t("confusions.window.tokens", lang)]
    assert [tr["name"] for tr in drift["data"]] == [t("confusions.drift.token", lang)]
    assert [tr["name"] for tr in gdpo["data"]] == [t("confusions.gdpo.grpo", lang)]
    token, seq = X.RATIO_PAIR
    assert {tr["name"] for tr in sequence["data"]} == {ALGORITHMS[token].title}
    for fig in figs:  # every legend under its plot, never over a panel's title
        assert fig["layout"]["legend"]["yref"] == "container" and fig["layout"]["legend"]["y"] == 0
    return at


def test_chinese():
    at = _renders("zh")
    assert all(_skip_button(at, name) for name in SECTIONS)  # each section's question can be skipped
    # one real click: the first section's skip shows its figure whole (the mode asked about) and its reading
    _skip_button(at, "aggregation").click().run()
    no_exception(at)
    assert "token-mean" in {x for tr in figures(at)[0]["data"] for x in tr["x"]}
    assert texts(at).count(t("teach.held", "zh")) == len(SECTIONS) + len(HELD_FIGURES) - 1
    _skip_all(at)  # every other question skipped as its button would: every figure, every reading
    no_exception(at)
    figs = assert_finite_figures(at, at_least=len(SECTIONS))
    assert len(figs) == len(SECTIONS) and t("teach.held", "zh") not in texts(at)
    assert "token-mean" in {x for tr in figs[0]["data"] for x in tr["x"]}
    assert len(figs[1]["data"]) == 2
    window, drift, gdpo = figs[-3:]
    assert len(window["data"]) == 3 and len(drift["data"]) == 4 and len(gdpo["data"]) == 2


def test_english_and_a_committed_question():
    at = _renders("en")
    # every section asks: one commit button per section
    buttons = [b for b in at.button if b.label == t("teach.commit", "en")]
    assert len(buttons) == len(SECTIONS)
    # section 8 at its defaults, A < 0 at r = 2: between 1 + ε_high and c, so no setting stops the gradient
    at.radio(key="pr_confusions.clip_in_en").set_value("eps_high")
    buttons[SECTIONS.index("clip")].click().run()
    no_exception(at)
    guess, answer = t("confusions.clip.choice.eps_high", "en"), t("confusions.clip.choice.none", "en")
    assert at.warning and t("teach.wrong", "en", guess=guess, answer=answer) in at.warning[0].value
    assert t("confusions.clip.why.none", "en", r="2", sign="< 0", low="0.8", high="1.28", c="3") in texts(at)
    # its figure and reading now shown; the other sections still hold theirs
    figs = assert_finite_figures(at, at_least=len(SECTIONS) - len(HELD_FIGURES) + 1)
    assert len(figs) == len(SECTIONS) - len(HELD_FIGURES) + 1
    assert texts(at).count(t("teach.held", "en")) == len(SECTIONS) + len(HELD_FIGURES) - 2


def test_the_reports_sections_follow_their_controls_and_name_bad_input():
    at = open_page(PAGE, lang="zh")

    def last_three():
        return [[trace_values(tr, "y") for tr in fig["data"]] for fig in figures(at)[-3:]]

    held = last_three()  # before any answer: the steps' tokens, each token's ratio, GRPO's advantages
    at.text_input(key="cf_win_len").set_value("10, 10, 10, 10, 10, 10, 10, 10")
    at.slider(key="cf_drift").set_value(0.02)
    at.text_input(key="cf_gdpo_r2").set_value("0, 1, 1, 0; 0, 0, 1, 1")
    at.run()
    no_exception(at)
    moved = last_three()
    assert all(m != h for m, h in zip(moved, held, strict=True))  # each section's numbers follow its control
    window, drift, gdpo = moved
    assert window == [pytest.approx([20] * 4)]  # 4 steps of 2 responses of 10 tokens
    assert drift[0] == pytest.approx([math.exp(0.02)] * len(drift[0]))  # each token's ratio e^d
    # group 2 now sums to (1 + 0, 1 + 0, 0 + 1, 0 + 1): all equal, GRPO gives each 0
    assert gdpo[0][4:] == pytest.approx([0.0] * 4, abs=1e-9)
    # bad input: a message under the field, in Chinese, naming it; every other section still drawn
    drawn = len(figures(at))
    at.number_input(key="cf_win_w").set_value(9)  # 9 responses counted of 8
    at.text_input(key="cf_gdpo_r1").set_value("1, 0; 1")  # groups of different sizes
    at.run()
    assert not at.exception and len(at.error) == 2, [e.value for e in at.error]
    for error, field in zip(at.error, ("confusions.window.window", "confusions.gdpo.reward_1"), strict=True):
        assert f"“**{t(field, 'zh')}**”" in error.value and "请检查" in error.value, error.value
    assert len(assert_finite_figures(at, at_least=drawn - 2)) == drawn - 2
