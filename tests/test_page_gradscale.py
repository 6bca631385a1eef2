"""The gradient-scale page through AppTest: one bar per registry objective from the trainer, in each language,
finite figures; the second figure held back until both questions are answered, then drawn with its reading;
the second update and one aggregation for every objective from the URL; a bad prompt as a message beside
its field while the page goes on."""

from __future__ import annotations

import math

import pytest
from apptools import assert_finite_figures, figures, no_exception, open_page, texts, torch_threads, trace_values

from rlviz.core.objectives import ALGORITHMS
from rlviz.experiments import gradscale as X
from rlviz.i18n import t
from rlviz.teach.predict import PREDICTIONS  # loaded with the whole registry (other pages' modules read it)

PAGE = "pages/gradscale.py"
# the page runs one trainer update per registry entry (two more for the second update): these tests keep four
# entries (two aggregations, a sequence-level entry, a std-free advantage); every entry runs where the page
# opens at its defaults (tests/test_no_leak.py, tests/test_url_params.py, tests/test_browser.py)
SUBSET = ("grpo", "gspo", "dapo", "dr_grpo")


@pytest.fixture
def few_entries(monkeypatch):
    for name in [n for n in ALGORITHMS if n not in SUBSET]:
        monkeypatch.delitem(ALGORITHMS, name)


@pytest.fixture(scope="module", autouse=True)
def _one_thread():
    with torch_threads(1):
        yield


def _skip(at, key: str) -> None:
    """Press question ``key``'s "Skip: show me" (its answer shown, no verdict)."""
    skip = t("teach.skip", at.session_state["lang"])
    next(b for b in at.button if b.label == skip and b.proto.form_id == f"form_{key}").click().run()


def _title(fig: dict) -> str:
    title = fig["layout"].get("title") or {}
    return title.get("text", "") if isinstance(title, dict) else str(title)


def test_english_held_until_both_questions_then_the_scale_figure(few_entries):
    at = open_page(PAGE)
    no_exception(at)
    assert at.title[0].value == t("gradscale.title", "en")
    figs = assert_finite_figures(at, at_least=1)
    assert len(figs) == 1  # the scale figure answers both questions: not drawn before the commit
    bars = figs[0]["data"][0]
    assert trace_values(bars, "y") == [s.title for s in ALGORITHMS.values()]  # every registry entry, in order
    assert all(v > 0 for v in trace_values(bars, "x"))
    assert t("gradscale.fig.norms", "en", k=1, G=8, prompt="")[:30] in _title(figs[0])
    # the Prompt box shows the prompt in use as its value, the one the title names; the drawn batch is kept
    shown = at.text_input(key="gs_prompt").value
    assert shown == X.drawn_prompt(0, 8) and f"({shown})" in _title(figs[0])
    assert X.prediction_state({"gs_prompt": shown, "gs_G": 8})["prompt"] == ""  # read back as the drawn batch
    # each bar's value sits right of the plot (paper x >= 1), clear of the first-update marks and the
    # max_grad_norm line inside it; one per bar, the bar's own value
    values = [a for a in figs[0]["layout"]["annotations"] if a.get("xref") == "paper" and a.get("yref") == "y"]
    assert [a["y"] for a in values] == trace_values(bars, "y") and all(a["x"] >= 1.0 for a in values)
    assert [float(a["text"]) for a in values] == pytest.approx(trace_values(bars, "x"), rel=5e-3)
    assert "text" not in bars or not bars["text"]
    assert texts(at).count(t("teach.held", "en")) == 1
    assert len([b for b in at.button if b.label == t("teach.commit", "en")]) == len(PREDICTIONS["gradscale"]) == 2
    _skip(at, "gradscale.q_adam")
    assert len(figures(at)) == 1  # the SGD question still waits
    _skip(at, "gradscale.q_sgd")
    no_exception(at)
    figs = assert_finite_figures(at, at_least=2)
    scale = figs[1]
    assert _title(scale) == t("gradscale.fig.scale", "en", title="GRPO", lr="0.0001")
    names = {tr.get("name") for tr in scale["data"]}
    assert {t(f"gradscale.series.{o}.{c}", "en") for o in X.OPTIMIZERS for c in ("on", "off")} <= names
    # the AdamW line without clipping is flat across c, the SGD one without clipping is not
    adam = next(tr for tr in scale["data"] if tr.get("name") == t("gradscale.series.adamw.off", "en"))
    sgd = next(tr for tr in scale["data"] if tr.get("name") == t("gradscale.series.sgd.off", "en"))
    ys = trace_values(adam, "y")
    # (AdamW moves less only at the smallest c, where |c g| nears eps for more parameters)
    assert max(ys) / min(ys) < 1.2 and trace_values(sgd, "y")[-1] / trace_values(sgd, "y")[0] > 1000
    page = texts(at)
    assert "At c = 10 the update is" in page and "lr·√n" in page  # the reading under the figure
    assert t("teach.held", "en") not in page


def test_chinese_second_update_on_one_aggregation_from_the_url(few_entries):
    at = open_page(PAGE, lang="zh", gs_step="second", gs_agg="token-mean")
    no_exception(at)
    assert at.title[0].value == t("gradscale.title", "zh")
    assert at.session_state["gs_step"] == "second" and at.session_state["gs_agg"] == "token-mean"
    fig = assert_finite_figures(at, at_least=1)[0]
    assert "第 2 次更新" in _title(fig)
    marks = next(tr for tr in fig["data"] if tr.get("name") == t("gradscale.first_marker", "zh"))
    first, second = trace_values(marks, "x"), trace_values(fig["data"][0], "x")
    assert len(first) == len(second) == len(ALGORITHMS) and all(math.isfinite(v) for v in first + second)
    assert first != second  # the second update is not the first
    hover = fig["data"][0]["customdata"]
    assert {row[0] for row in hover} == {"token-mean"}  # every objective on the chosen aggregation
    assert "第 2 次更新时信任域开始起作用" in texts(at)


def test_a_bad_prompt_is_a_message_beside_its_field_and_the_page_goes_on(few_entries):
    at = open_page(PAGE, gs_prompt="12x")
    assert not at.exception
    assert len(at.error) == 1 and t("gradscale.prompt", "en") in at.error[0].value
    assert figures(at)  # a drawn prompt meanwhile


def test_a_group_without_signal_is_said_in_words(few_entries):
    # 1+1= : the model answers every one of G = 4 right (seed 0), so every group-relative advantage is 0
    at = open_page(PAGE, gs_prompt="1+1=", gs_G="4")
    no_exception(at)
    assert X.batch_at(0, 4, "1+1=").batch.rewards.tolist() == [1.0] * 4
    fig = assert_finite_figures(at, at_least=1)[0]
    assert fig["layout"]["yaxis"]["categoryarray"] == [s.title for s in ALGORITHMS.values()]  # every row kept
    assert t("gradscale.read.zero_alike", "en", titles="GRPO, Dr.GRPO, DAPO, GSPO", k=4) in texts(at)
