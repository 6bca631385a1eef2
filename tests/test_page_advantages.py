"""The advantages page through AppTest: one run per language (defaults, bars read back against the
registry, a prediction answered, bad input as a message, an all-equal group); and the live page offers
every estimator as each objective's adv_estimator."""

from __future__ import annotations

import pytest
from apptools import assert_finite_figures, no_exception, open_page, texts, trace_values

from rlviz.core.estimators import ESTIMATORS, estimate_advantages
from rlviz.core.objectives import OWN_ESTIMATOR
from rlviz.experiments import advantages as A
from rlviz.i18n import t

PAGE = "pages/advantages.py"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_page_in_each_language(lang):
    at = open_page(PAGE, lang=lang)
    no_exception(at)
    assert at.title[0].value == t("advantages.title", lang)
    bars, bias = assert_finite_figures(at, at_least=2)
    # one bar trace per estimator, in registry order, each the registry's own advantages of the group
    assert [tr["name"] for tr in bars["data"]] == [s.title for s in ESTIMATORS.values()]
    inputs = A.parse_inputs(A.DEFAULT_REWARDS, A.DEFAULT_SECOND, A.DEFAULT_GREEDY)
    tensors = inputs.tensors()
    for name, trace in zip(ESTIMATORS, bars["data"]):
        expected = estimate_advantages(
            name,
            tensors["rewards"],
            components=tensors["components"],
            greedy_rewards=tensors["greedy_rewards"],
        )[0]
        assert trace_values(trace, "y") == pytest.approx(expected.tolist(), abs=1e-9), name
    assert {tr["name"] for tr in bias["data"]} == {s.title for s in ESTIMATORS.values()}
    assert t("advantages.bias_header", lang) in texts(at)
    if lang == "zh":
        return
    # predict, then reveal: RLOO's advantage of the right answer in 1, 0, 0, 0 is 1 - 0 = 1
    at.number_input(key="pr_advantages.predict_rloo_in").set_value(1.0)
    [b for b in at.button if b.label == t("teach.commit", "en")][0].click().run()
    no_exception(at)
    assert at.success and t("teach.right", "en", answer="1") in at.success[0].value
    # bad input: the message names the field
    at.text_input(key="ad_r").set_value("1, x").run()
    assert at.error and t("advantages.rewards", "en") in at.error[0].value
    # an all-equal group: zero under the group baselines, not under ReMax's greedy one (greedy reward 0) nor
    # GDPO's (its second reward differs); the page's batch is this group, so REINFORCE++'s whitening sees no spread
    at.text_input(key="ad_r").set_value("1, 1, 1, 1").run()
    no_exception(at)
    note = at.info[0].value
    assert ESTIMATORS["remax"].title in note and ESTIMATORS["gdpo"].title in note
    assert ESTIMATORS["grpo"].title not in note and ESTIMATORS["rloo"].title not in note
    zero = assert_finite_figures(at, at_least=2)[0]
    assert all(v == 0 for v in trace_values(zero["data"][0], "y"))


def test_live_page_offers_every_estimator():
    at = open_page("pages/live.py")
    no_exception(at)
    box = at.selectbox(key="lv_grpo.adv_estimator")
    assert box.value == OWN_ESTIMATOR and box.options == [OWN_ESTIMATOR, *ESTIMATORS]
    assert not [w for w in at.selectbox if w.key and w.key.endswith(".routing_replay")]  # MoE only: not here
