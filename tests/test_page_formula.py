"""The Formula diff page through AppTest: both languages render with finite figures; another pair
and another token change the numbers; a token past the response's end is a message, not a crash."""

from __future__ import annotations

from apptools import assert_finite_figures, no_exception, open_page, texts

from rlviz.experiments import formula as F
from rlviz.i18n import t

PAGE = "pages/formula.py"


def _values(at) -> list[list[str]]:
    """The cells of the values table (the page's last st.table)."""
    return at.table[-1].value.astype(str).to_numpy().tolist()


def test_english_defaults():
    at = open_page(PAGE)
    no_exception(at)
    assert at.title[0].value == t("formula.title", "en")
    assert_finite_figures(at, at_least=1)
    text = texts(at)
    assert t("formula.summary", "en", n=3, total=5, names="Importance ratio, Trust region, KL term") in text
    # five term rows and the gradient row, A and B each: twelve formulas, the differing ones boxed
    latex = [el.proto.body for el in at.get("latex")]
    assert len(latex) == 12 and sum(r"\fcolorbox" in body for body in latex) == 6
    assert len(at.table) == 2 and len(_values(at)) == len(F.QUANTITIES)


def test_chinese_and_another_pair_and_token():
    at = open_page(PAGE, lang="zh")
    no_exception(at)
    assert at.title[0].value == t("formula.title", "zh")
    assert_finite_figures(at, at_least=1)
    before = _values(at)
    at.selectbox(key="fd_b").set_value("cispo").run()
    no_exception(at)
    after_pair = _values(at)
    assert after_pair != before
    assert "CISPO" in at.table[-1].value.columns[1]
    at.number_input(key="fd_tok").set_value(0).run()
    at.selectbox(key="fd_resp").set_value(1).run()
    no_exception(at)
    assert _values(at) != after_pair
    # a token past the end of the (shortest) response: the message names the widget, nothing crashes
    lengths = F.example_batch(0, 0.1).lengths
    shortest = lengths.index(min(lengths))
    at.selectbox(key="fd_resp").set_value(shortest).run()
    at.number_input(key="fd_tok").set_value(F.MAX_LENGTH - 1).run()
    assert not at.exception
    assert at.error and t("formula.token", "zh") in at.error[0].value
