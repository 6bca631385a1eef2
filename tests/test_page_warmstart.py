"""The "Why SFT before RL?" page through AppTest: both languages, the weak start's bars held back until its
question is answered, a tiny live run with a question committed before it and judged on it, and a run
size over the server's limit shown as a message naming the field."""

from __future__ import annotations

import dataclasses

import pytest
from apptools import assert_finite_figures, figures, no_exception, open_page, torch_threads

from app_common.predictions import HELD_KEY
from rlviz.experiments import warmstart as X
from rlviz.i18n import t

PAGE = "pages/warmstart.py"
SMALL = {"ws_n": "4"}  # 4 prompts x 32 answers from each start: the outcome figure in a second


@pytest.fixture(scope="module", autouse=True)
def _one_thread():
    with torch_threads(1):
        yield


def _button(at, label: str, form: str):
    return next(b for b in at.button if b.label == label and b.proto.form_id == form)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_weak_start_waits_for_the_guess_then_shows(lang):
    at = open_page(PAGE, lang=lang, **SMALL)
    no_exception(at)
    assert at.title[0].value == t("warmstart.title", lang)
    groups = assert_finite_figures(at, at_least=2)[0]  # the outcome figure, then the run's empty panels
    # before the guess: the warm start's bars (three outcomes); the weak start's panel empty but for its line
    assert "warmstart.q_zero" in at.session_state[HELD_KEY]
    names = [tr["name"] for tr in groups["data"] if tr["xaxis"] == "x"]
    assert names == [t(f"warmstart.outcome.{o}", lang) for o in X.OUTCOMES]
    assert [max(tr["y"]) for tr in groups["data"] if tr["xaxis"] == "x2"] == [0.0]
    assert t("warmstart.hidden", lang) in [a["text"] for a in groups["layout"]["annotations"]]
    assert groups["layout"]["xaxis"]["title"]["text"] == t("warmstart.group_axis", lang)
    assert t("teach.held", lang) in " ".join(c.value for c in at.caption)
    _button(at, t("teach.skip", lang), "form_warmstart.q_zero").click().run()
    no_exception(at)
    groups = figures(at)[0]
    assert len([tr for tr in groups["data"] if tr["xaxis"] == "x2"]) == 3  # now the weak start's bars too
    m = X.measure_starts(4, X.SAMPLES, 1.0, 0, device="cpu")  # the page's measurement (seed 0, temperature 1)
    assert X.measured_caption(m, 8, lang, hold_weak=False) in [c.value for c in at.caption]
    weak_mixed = [tr for tr in groups["data"] if tr["xaxis"] == "x2"][1]["y"]
    assert weak_mixed == pytest.approx([m.share("weak", g, "mixed") for g in X.GROUP_SIZES])


def test_a_tiny_run_judges_the_guess_committed_before_it():
    at = open_page(PAGE, **SMALL)
    for key, value in (("ws_steps", 1), ("ws_lp", 2), ("ws_lG", 4), ("ws_heldout", 0)):
        at.number_input(key=key).set_value(value)
    at.run()
    empty = figures(at)[-1]
    assert all(tr["x"] == [] for tr in empty["data"]) and empty["layout"]["title"]["text"] == t(
        "warmstart.empty_figure", "en"
    )
    # the held-out gain question does not apply without held-out samples; the zero-advantage one is asked
    assert not [b for b in at.button if b.proto.form_id == "form_warmstart.q_gain"]
    at.number_input(key="pr_warmstart.q_live_zero_in").set_value(0.9)
    _button(at, t("teach.commit", "en"), "form_warmstart.q_live_zero").click().run()
    at.button(key="ws_run").click().run()
    no_exception(at)
    assert at.success and at.success[0].value == t("warmstart.finished", "en", total=1)
    run = at.session_state["warmstart_run"]
    assert run.done and run.progress == {"warm": 1, "weak": 1}
    live = assert_finite_figures(at, at_least=2)[-1]
    assert {tr["name"] for tr in live["data"] if tr.get("showlegend", True)} == set(X.arm_labels("en").values())
    # the run's reading and the verdict: numbers read from this run
    metrics, summary = run.metrics_frame(), run.summary_frame()
    markdown = [m.value for m in at.markdown]
    assert X.run_reading(metrics, summary, "en") in markdown
    state = {**dataclasses.asdict(run.ws_config), **X.live_result(run)}
    answer = X.answer_live_zero(state)
    assert answer == pytest.approx(float(metrics[metrics["arm"] == "weak"]["zero_adv_group_fraction"].mean()))
    why = t("warmstart.q_live_zero.why", "en", answer=f"{answer:.4g}", **X.explain_live_zero(state))
    assert why in markdown
    assert len(at.table[-1].value) == 2  # one row per start


def test_a_run_over_the_servers_size_is_a_message_naming_the_field():
    at = open_page(PAGE, lang="zh", ws_lp="64", ws_lG="16", **SMALL)  # 64 x 16 = 1024 responses a step > 512
    at.button(key="ws_run").click().run()
    assert not at.exception
    assert at.error and t("warmstart.live_prompts", "zh") in at.error[0].value
    assert "prompts_per_step" in at.error[0].value and "warmstart_run" not in at.session_state
    assert not at.number_input(key="ws_lp").disabled  # the field can be fixed
