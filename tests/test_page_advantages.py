"""The advantages page through AppTest: one run per language (defaults, bars read back against the
registry, a prediction answered, bad input as a message, an all-equal group); every estimator named in
each language (the names keyed by the registry) and the estimator choice's URL (registry keys, older
links' titles); and the live page offers every estimator as each objective's adv_estimator."""

from __future__ import annotations

import json
import re

import pytest
from apptools import assert_finite_figures, figures, no_exception, open_page, texts, trace_values

from rlviz.core.estimators import ESTIMATORS, estimate_advantages
from rlviz.core.objectives import OWN_ESTIMATOR
from rlviz.experiments import advantages as A
from rlviz.i18n import STRINGS, t

PAGE = "pages/advantages.py"
# the method names a Chinese estimator name keeps as written (GRPO, RLOO, REINFORCE++, z-score: terms)
TERMS = ("REINFORCE++-baseline", "REINFORCE++", "Dr.GRPO", "GRPO", "RLOO", "ReMax", "MaxRL", "GDPO", "z-score")


def _note(at) -> str:
    """The page's note about URL parameters it did not use ("" when none)."""
    leads = tuple(t("url.ignored", lang, params="|").split("|")[0] for lang in ("en", "zh"))
    return next((w.value for w in at.warning if str(w.value).startswith(leads)), "")


@pytest.mark.parametrize("name", list(ESTIMATORS))
def test_every_estimator_is_named_in_each_language(name):
    # keyed by the registry: an entry added without its names fails here (the page would show its
    # English title in Chinese)
    key = A.NAME_KEY.format(name)
    assert key in STRINGS, f"{name}: add {key!r} to rlviz/locale/advantages.py"
    assert STRINGS[key]["en"] == ESTIMATORS[name].title  # the English name is the registry's title
    words = STRINGS[key]["zh"]
    for term in TERMS:
        words = words.replace(term, "")
    assert not re.search(r"[A-Za-z]{2,}", words), f"{name}: English words in its Chinese name {STRINGS[key]['zh']!r}"
    assert A.estimator_titles("zh")[name] == STRINGS[key]["zh"] and A.estimator_titles("en")[name] == STRINGS[key]["en"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_page_in_each_language(lang):
    at = open_page(PAGE, lang=lang)
    no_exception(at)
    assert at.title[0].value == t("advantages.title", lang)
    bars, bias = assert_finite_figures(at, at_least=2)
    names = A.estimator_titles(lang)
    # one bar trace per estimator, in registry order, named in the page's language, each the registry's
    # own advantages of the group
    assert [tr["name"] for tr in bars["data"]] == list(names.values())
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
    assert {tr["name"] for tr in bias["data"]} == set(names.values())
    assert t("advantages.bias_header", lang) in texts(at)
    assert at.multiselect(key="ad_est").options == list(names.values())
    assert list(names.values()) == at.table[0].value.iloc[:, 0].tolist()  # the table of estimators
    if lang == "zh":
        # no estimator's English title anywhere on the Chinese page (options, legends, table, captions)
        shown = texts(at) + json.dumps([f["data"] for f in figures(at)], ensure_ascii=False)
        assert "批次标准差" in shown and names["batch_std"] == "批次标准差"
        assert "Batch std" not in shown and "mean only" not in shown
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
    assert names["remax"] in note and names["gdpo"] in note
    assert names["grpo"] not in note and names["rloo"] not in note
    zero = assert_finite_figures(at, at_least=2)[0]
    assert all(v == 0 for v in trace_values(zero["data"][0], "y"))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_estimator_choice_url_holds_registry_keys(lang):
    # the same link in both languages: the URL names registry keys, not the labels the widget shows
    at = open_page(PAGE, lang=lang, ad_est=["batch_std", "grpo"])
    no_exception(at)
    assert at.multiselect(key="ad_est").value == ["grpo", "batch_std"] and _note(at) == ""
    assert [tr["name"] for tr in figures(at)[0]["data"]] == [A.estimator_titles(lang)[n] for n in ("grpo", "batch_std")]
    assert at.query_params["ad_est"] == ["grpo", "batch_std"]
    # a change goes back into the URL as keys; every estimator chosen (the default) leaves no parameter
    at.multiselect(key="ad_est").select("rloo").run()
    assert at.query_params["ad_est"] == ["grpo", "batch_std", "rloo"]
    at.multiselect(key="ad_est").set_value(list(ESTIMATORS)).run()
    assert "ad_est" not in at.query_params


def test_the_estimator_choice_shows_in_the_new_language_after_a_switch():
    # the browser holds the labels it showed: the server sends the choice again in the new labels
    at = open_page(PAGE, ad_est=["grpo", "batch_std"])
    at.radio(key="lang").set_value("zh").run()
    no_exception(at)
    chosen = at.multiselect(key="ad_est")
    assert chosen.value == ["grpo", "batch_std"] and chosen.proto.set_value
    assert list(chosen.proto.raw_values) == [A.estimator_titles("zh")[n] for n in ("grpo", "batch_std")]


def test_older_estimator_links_still_open_their_choice():
    # before the URL carried keys it carried the registry titles (the widget's label, in both languages)
    at = open_page(PAGE, lang="zh", ad_est=[ESTIMATORS["batch_std"].title, ESTIMATORS["rloo"].title])
    no_exception(at)
    assert at.multiselect(key="ad_est").value == ["batch_std", "rloo"] and _note(at) == ""
    assert at.query_params["ad_est"] == ["batch_std", "rloo"]  # rewritten as keys


def test_a_bad_estimator_in_the_url_falls_back_with_a_note():
    at = open_page(PAGE, lang="zh", ad_est=["grpo", "nope"])
    assert not at.exception
    assert at.multiselect(key="ad_est").value == list(ESTIMATORS)
    assert "`ad_est`" in _note(at) and "ad_est" not in at.query_params
    at = open_page(PAGE, ad_est="")  # an empty parameter: none chosen, which the page says
    assert at.multiselect(key="ad_est").value == [] and _note(at) == ""
    assert at.error and t("advantages.estimators", "en") in at.error[0].value


def test_live_page_offers_every_estimator():
    at = open_page("pages/live.py")
    no_exception(at)
    box = at.selectbox(key="lv_grpo.adv_estimator")
    assert box.value == OWN_ESTIMATOR and box.options == [OWN_ESTIMATOR, *ESTIMATORS]
    assert not [w for w in at.selectbox if w.key and w.key.endswith(".routing_replay")]  # MoE only: not here
