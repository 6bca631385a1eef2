"""The KL page through AppTest: one run per language (every section, finite figures, the questions,
the live links; a bad input shown as a message naming the widget)."""

from __future__ import annotations

import pytest
from apptools import assert_finite_figures, no_exception, open_page, texts, torch_threads

from rlviz.i18n import t

PAGE = "pages/kl.py"


@pytest.fixture(scope="module", autouse=True)
def _one_thread():
    with torch_threads(1):
        yield


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_page_in_each_language(lang):
    at = open_page(PAGE, lang=lang, kl_x=["-12.0", "12.0"], kl_shift="0.5")
    no_exception(at)
    assert at.title[0].value == t("kl.title", lang)
    figs = assert_finite_figures(at, at_least=4, gaps=True)  # curves (the unclamped k3 in runs), dist., grads, errors
    curves = figs[0]
    assert curves["layout"]["xaxis"]["title"]["text"] == t("kl.x", lang)
    assert any(a["text"] == t("kl.clamp", lang) for a in curves["layout"]["annotations"])  # the clamp shows
    assert [s.value for s in at.subheader][:2] == [t("kl.curves_header", lang), t("kl.cat_header", lang)]
    page_text = texts(at)
    assert t("kl.route_header", lang) in page_text and t("kl.live_header", lang) in page_text
    # the expectations table speaks the page's language: its columns and its words, not the library's keys
    table = next(d.value for d in at.dataframe if t("kl.tcol.norm_ratio", lang) in d.value.columns)
    assert "norm_ratio" not in table.columns and "rel_error" not in table.columns
    assert set(table[t("kl.tcol.route", lang)]) == {t("kl.tval.loss", lang), t("kl.tval.reward", lang)}
    assert set(table[t("kl.tcol.direction", lang)]) <= {
        t(f"kl.tval.{d}", lang) for d in ("reverse", "forward", "neither")
    }
    submit = [b for b in at.button if b.label == t("teach.commit", lang)]
    assert len(submit) == 2  # two predictions, asked before the figures answer them
    at.number_input(key="pr_kl.k1_loss_in").set_value(-1.0)  # a length is never negative: wrong
    submit[0].click().run()
    no_exception(at)
    assert at.warning and not at.success
    if lang == "en":  # AppTest formats a radio's options in the test's language
        at.radio(key="pr_kl.k3_direction_in_en").set_value("neither")
        [b for b in at.button if b.label == t("teach.commit", lang)][0].click().run()
        no_exception(at)
        assert at.success  # off-policy (s = 0.5): neither direction
    else:  # bad input: a message naming the widget, never a traceback
        at.text_input(key="kl_pol").set_value("1, two, 3").run()
        assert not at.exception
        assert at.error and t("kl.policy_logits", lang) in at.error[0].value
