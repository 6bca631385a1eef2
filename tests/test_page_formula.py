"""The Formula diff page through AppTest: both languages render with finite figures; another pair
and another token change the numbers; a token past the response's end is a message, not a crash; the
page's shape (lede, the pair, then the token strips; the pick, the notes and the practitioners'
block under them)."""

from __future__ import annotations

import re

from apptools import assert_finite_figures, no_exception, open_page, texts

from rlviz.core.objectives import ALGORITHMS
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
    # the responses numbered from #1 as on every page: the pick, the strips' rows, the formulas' heading
    assert at.selectbox(key="fd_resp").options[0].startswith("#1 · ")
    i = at.selectbox(key="fd_resp").value  # 0-based in the URL and the library
    assert any(f"of response #{i + 1} bound in" in s.value for s in at.subheader)


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


def _leaves(at) -> list[tuple[str, str, str]]:
    """The main column's elements in the order a reader meets them: (type, key, text)."""
    out = []

    def walk(node) -> None:
        children = getattr(node, "children", None)
        if isinstance(children, dict):
            for child in children.values():
                walk(child)
            return
        value = getattr(node, "value", "")
        out.append((node.type, str(getattr(node, "key", "") or ""), value if isinstance(value, str) else ""))

    walk(at.main)
    return out


def test_the_page_opens_on_its_lede_then_the_pair_and_the_token_strips():
    # issue 39: title and lede, the two objectives just above the figure, the figure; how to pick a token
    # (the spread, the response, the token), the explanations and the papers under it
    for lang in ("en", "zh"):
        at = open_page(PAGE, lang=lang)
        no_exception(at)
        order = [row for row in _leaves(at) if row[0] != "html"]  # the page's style sheet draws nothing
        assert order[0] == ("title", "", t("formula.title", lang))
        assert order[1][0] == "markdown" and re.sub(r"<[^>]+>", "", order[1][2]) == t("formula.lede", lang)
        assert [(kind, key) for kind, key, _ in order[2:4]] == [("selectbox", "fd_a"), ("selectbox", "fd_b")]
        assert order[4][0] == "plotly_chart" and order[4][1].startswith("fd_strip_")
        keys = [key for _, key, _ in order]
        assert keys.index("fd_spread") > 4 and keys.index("fd_resp") > 4 and keys.index("fd_tok") > 4
        assert len(t("formula.lede", "en").split()) <= 40
        # the intro it replaces, whole, in the notes; the papers of the pair for practitioners
        assert [e.label for e in at.expander][:2] == [t("page.notes", lang), t("page.practitioners", lang)]
        shown = texts(at)
        assert t("formula.intro", lang) in shown
        for name in F.DEFAULT_PAIR:
            assert f"arXiv:{ALGORITHMS[name].arxiv}" in shown
