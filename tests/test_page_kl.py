"""The KL page through AppTest: one run per language (every section, finite figures, the questions,
the live links; a bad input shown as a message naming the widget)."""

from __future__ import annotations

import re

import pytest
from apptools import assert_finite_figures, figures, no_exception, open_page, texts, torch_threads

from rlviz.i18n import t

PAGE = "pages/kl.py"


@pytest.fixture(scope="module", autouse=True)
def _one_thread():
    with torch_threads(1):
        yield


def _skip(at, key: str) -> None:
    """Press the question ``key``'s "Skip: show me" (its answer shown, no verdict)."""
    skip = t("teach.skip", at.session_state["lang"])
    next(b for b in at.button if b.label == skip and b.proto.form_id == f"form_{key}").click().run()


def _expectations(at, lang: str):
    return next((d.value for d in at.dataframe if t("kl.tcol.norm_ratio", lang) in d.value.columns), None)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_page_in_each_language(lang):
    at = open_page(PAGE, lang=lang, kl_x=["-12.0", "12.0"], kl_shift="0.5")
    no_exception(at)
    assert at.title[0].value == t("kl.title", lang)
    assert t("kl.lede", lang) in re.sub(r"<[^>]+>", "", texts(at))  # the lede (glossary terms in <abbr>)
    # the main figure first, its legend under the panels (never over their titles); the old introduction
    # and the section's text in "How to read this", the framework names and papers for practitioners
    figs = assert_finite_figures(at, at_least=2, gaps=True)  # curves (the unclamped k3 in runs), distributions
    curves = figs[0]
    assert curves["layout"]["xaxis"]["title"]["text"] == t("kl.x", lang)
    assert curves["layout"]["legend"]["yref"] == "container" and curves["layout"]["legend"]["y"] == 0
    assert any(a["text"] == t("kl.clamp", lang) for a in curves["layout"]["annotations"])  # the clamp shows
    page_text = texts(at)
    assert t("kl.intro", lang) in page_text and t("kl.curves_text", lang) in page_text
    assert t("kl.paper_note", lang) in page_text and t("kl.sources", lang) in page_text
    assert t("page.practitioners", lang) in [e.label for e in at.expander]
    assert [s.value for s in at.subheader][:2] == [t("kl.cat_header", lang), t("kl.route_header", lang)]
    assert t("kl.live_header", lang) in page_text
    # before the commit the gradients, the errors, their table and the reading are held back: they
    # answer both questions
    submit = [b for b in at.button if b.label == t("teach.commit", lang)]
    assert len(submit) == 2  # two predictions, asked before the figures answer them
    assert len(figs) == 2 and _expectations(at, lang) is None
    assert page_text.count(t("teach.held", lang)) == 2
    at.number_input(key="pr_kl.k1_loss_in").set_value(-1.0)  # a length is never negative: wrong
    submit[0].click().run()
    no_exception(at)
    assert at.warning and not at.success
    assert len(figures(at)) == 2  # the other question still waits: still held
    if lang == "en":  # AppTest formats a radio's options in the test's language
        at.radio(key="pr_kl.k3_direction_in_en").set_value("neither")
        [b for b in at.button if b.label == t("teach.commit", lang)][0].click().run()
        no_exception(at)
        assert at.success  # off-policy (s = 0.5): neither direction
    else:
        _skip(at, "kl.k3_direction")
        no_exception(at)
    # both answered: every figure, the table and the reading
    assert_finite_figures(at, at_least=4, gaps=True)  # curves, distributions, gradients, errors
    assert t("teach.held", lang) not in texts(at)
    table = _expectations(at, lang)  # it speaks the page's language: its columns and words, not the library's keys
    assert "norm_ratio" not in table.columns and "rel_error" not in table.columns
    assert set(table[t("kl.tcol.route", lang)]) == {t("kl.tval.loss", lang), t("kl.tval.reward", lang)}
    assert set(table[t("kl.tcol.direction", lang)]) <= {
        t(f"kl.tval.{d}", lang) for d in ("reverse", "forward", "neither")
    }
    # bad input: a message naming the widget, never a traceback; the page above and below stays drawn
    at.text_input(key="kl_pol").set_value("1, two, 3").run()
    assert not at.exception
    assert at.error and t("kl.policy_logits", lang) in at.error[0].value
    assert len(figures(at)) == 1 and t("kl.live_header", lang) in texts(at)


def test_the_figures_fit_a_narrow_window():
    # at 1024 px with the sidebar open the figures are about 640 px wide: every legend under its panels,
    # and the panels' titles short enough not to run into each other (checked in a browser by
    # tests/test_browser_layout.py); here: where the legend goes, in every figure of the page
    at = open_page(PAGE)
    _skip(at, "kl.k1_loss")
    _skip(at, "kl.k3_direction")
    for fig in figures(at):
        legend = fig["layout"]["legend"]
        assert legend["yref"] == "container" and legend["y"] == 0 and legend["yanchor"] == "bottom"
