"""The sampler-trainer mismatch page through AppTest: both languages with the numbers read from the
measurement, the corrections' curves from the registry, bad input as a message naming the widget,
and a tiny live run (2 arms, 2 steps, 2 prompts x G 2). Small measurement settings throughout
(2 prompts x G 2, one stale step)."""

from __future__ import annotations

import pytest
from apptools import assert_finite_figures, figures, no_exception, open_page, texts, torch_threads

from rlviz.core.corrections import CORRECTIONS
from rlviz.experiments.mismatch import SAMPLERS, MismatchSettings, load_measured, measure_mismatch, measured_consistency
from rlviz.i18n import t

PAGE = "pages/mismatch.py"
SMALL = {"mm_n": 2, "mm_G": 2, "mm_k": 1}
LIVE_SMALL = {"mm_steps": 2, "mm_lp": 2, "mm_lG": 2, "mm_mu": 1, "mm_mb": 1, "mm_heldout": 0, "mm_stale": 1}


@pytest.fixture(scope="module", autouse=True)
def _one_thread():
    with torch_threads(1):
        yield


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_both_languages_read_the_measurement(lang):
    at = open_page(PAGE, lang=lang, **SMALL)
    no_exception(at)
    assert at.title[0].value == t("mismatch.title", lang)
    grid, curves = assert_finite_figures(at, at_least=2)[:2]
    # one histogram row per sampler, two columns; one curve per correction, in registry order
    assert len(grid["data"]) == 2 * len(SAMPLERS)
    names = [tr["name"] for tr in curves["data"]]
    assert names == [spec.label(lang) for spec in CORRECTIONS.values()] + [
        t("mismatch.adv.pos", lang),
        t("mismatch.adv.neg", lang),
    ]
    # the trust region beside them: GRPO's clip, gradient weight 0 past 1 + ε for A > 0 (ε = 0.2)
    pos = curves["data"][len(CORRECTIONS)]
    assert [w for r, w in zip(pos["x"], pos["y"]) if r > 1.25] == [0.0] * sum(r > 1.25 for r in pos["x"])
    # the numbers in the table are the measurement's (deterministic given the seed)
    result = measure_mismatch(MismatchSettings(prompts=2, group_size=2, stale_steps=1))
    table = at.table[0].value
    assert len(table) == len(SAMPLERS)
    assert table.iloc[:, 1].tolist() == [f"{v:.3g}" for v in result.summary["kl"]]
    text = texts(at)
    bf16, fp16 = result.row("bfloat16")["kl"], result.row("float16")["kl"]
    assert f"{bf16:.3g}" in text and f"{fp16:.3g}" in text
    # one effect cell per sampler and correction, a header per correction
    titles = [spec.label(lang) for spec in CORRECTIONS.values()]
    (effect,) = [tb.value for tb in at.table if list(tb.value.columns[1:]) == titles]
    assert len(effect) == len(SAMPLERS)
    # before any run: the stored run of benchmarks/mismatch_effect.py, with its verdict from the numbers
    stored = load_measured()
    together = measured_consistency(stored)
    stored_table = at.table[-1].value
    assert len(stored_table) == len(stored["runs"][0]["arms"])
    assert len(stored_table.columns) == 1 + 3 * len(stored["runs"])  # held-out, KL, collapse per seed
    for reading in together["readings"]:
        assert reading["fields"]["matched"] in text and reading["fields"]["none"] in text
    assert (t("mismatch.measured_seeds.agree", lang) in text) == together["agree"]


def test_bad_input_is_a_message_naming_the_widget():
    at = open_page(PAGE, **SMALL)
    at.number_input(key="mm_lG").set_value(2).run()
    at.multiselect(key="mm_arms").set_value(["none", "r3"]).run()
    assert t("mismatch.dense_no_r3", "en") in "\n".join(w.value for w in at.warning)  # said before Run
    at.button(key="mm_run").click().run()
    assert not at.exception
    (error,) = [e.value for e in at.error]  # the run refused, in the page's words, naming the widget
    assert t("mismatch.dense_no_r3", "en") in error and t("mismatch.arms", "en") in error
    assert "mismatch_run" not in at.session_state


def test_tiny_live_run():
    at = open_page(PAGE, **SMALL, **LIVE_SMALL)
    n_before = len(figures(at))
    at.multiselect(key="mm_arms").set_value(["matched", "token_tis"])
    at.button(key="mm_run").click().run()
    no_exception(at)
    run = at.session_state["mismatch_run"]
    assert run.done and run.progress == {"matched": 2, "token_tis": 2}
    assert at.success[0].value == t("mismatch.finished", "en", total=2)
    live = assert_finite_figures(at, at_least=n_before + 1)[-1]
    titles = [a["text"] for a in live["layout"]["annotations"]]
    assert t("metric.rollout_kl", "en") in titles and t("metric.correction_masked_fraction", "en") in titles
    frame = run.metrics_frame()
    matched = frame[frame.arm == "matched"]
    assert (matched["rollout_kl"] == 0).all()  # the control: the sampler is the trainer
    names = {tr["name"] for tr in live["data"]} - {t("mismatch.collapse", "en")}
    assert names == {t("mismatch.arm.matched", "en"), CORRECTIONS["token_tis"].title}
    at.radio(key="lang").set_value("zh").run()
    no_exception(at)
    at.button(key="mm_reset").click().run()
    no_exception(at)
    assert "mismatch_run" not in at.session_state
