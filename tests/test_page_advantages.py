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
from rlviz.i18n import LIST_SEPARATOR, STRINGS, t
from rlviz.teach.predict import PREDICTIONS

PAGE = "pages/advantages.py"
# the method names a Chinese estimator name keeps as written (GRPO, RLOO, REINFORCE++, z-score: terms)
TERMS = (
    "REINFORCE++-baseline",
    "REINFORCE++",
    "Dr.GRPO",
    "GRPO",
    "RLOO",
    "ReMax",
    "MaxRL",
    "GDPO",
    "GPG",
    "OPO",
    "Pass@k",
    "z-score",
    "OTB",
    "token",
)


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


def _skip(at, key: str) -> None:
    """Press the question ``key``'s "Skip: show me" (its answer shown, no verdict)."""
    skip = t("teach.skip", at.session_state["lang"])
    next(b for b in at.button if b.label == skip and b.proto.form_id == f"form_{key}").click().run()


def _bars(at) -> dict:
    return next(
        f
        for f in figures(at)
        if f["layout"]["xaxis"]["title"]["text"] in {t("advantages.response_axis", g) for g in ("en", "zh")}
    )


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_page_in_each_language(lang):
    at = open_page(PAGE, lang=lang)
    no_exception(at)
    assert at.title[0].value == t("advantages.title", lang)
    # the template: the lede under the title, the explanations and the framework names on demand
    assert t("advantages.lede", lang) in re.sub(r"<[^>]+>", "", texts(at))  # glossary terms wrapped in <abbr>
    assert t("page.practitioners", lang) in [e.label for e in at.expander]
    assert t("advantages.intro", lang) in texts(at)  # the old introduction, whole, in "How to read this"
    bars, bias = assert_finite_figures(at, at_least=2)
    names = A.estimator_titles(lang)
    # before the commit the bars of the estimators the questions ask about (RLOO, MaxRL) are held back:
    # they are the answers; the others show, one trace each, in registry order, named in the page's language
    held = [A.QUESTION_ESTIMATOR[p.key] for p in PREDICTIONS["advantages"]]
    assert set(held) == {"rloo", "maxrl"}
    # a per-token estimator (the registry's per_token) cannot be drawn from typed rewards: not chosen by
    # default (nor its note), the choice starts with the ones the page draws; a reader may add it
    tokenwise = A.per_token()
    drawable = [n for n in ESTIMATORS if n not in tokenwise]
    assert tokenwise and at.multiselect(key="ad_est").value == drawable == A.default_choice()
    joined = LIST_SEPARATOR[lang].join(names[n] for n in tokenwise)
    assert t("advantages.per_token", lang, names=joined, where=t("page.practitioners", lang)) not in texts(at)
    # section 2 draws it, and says what its curve is; lines on top of one another are named per panel
    assert t("advantages.bias_per_token", lang, names=joined) in texts(at)
    curves = A.difficulty_bias(A.BIAS_GROUP_SIZE)
    same = A.coinciding(curves)
    # equal token statistics: OTB's baseline is the group mean, A_i = R_i - mean(R), Dr.GRPO's advantage;
    # GDPO with one reward is GRPO (its component is the reward itself)
    assert any({"optimal_token_baseline", "dr_grpo"} <= set(g) for g in same) and ["grpo", "gdpo"] in same
    groups = LIST_SEPARATOR[lang].join(" = ".join(names[n] for n in g) for g in same)
    panel = t("advantages.relative_axis", lang)
    assert t("advantages.bias_coincide", lang, panel=panel, groups=groups) in texts(at)
    assert [tr["name"] for tr in bars["data"]] == [names[n] for n in drawable if n not in held]
    assert t("advantages.held", lang, names=LIST_SEPARATOR[lang].join(names[n] for n in held)) in texts(at)
    inputs = A.parse_inputs(A.DEFAULT_REWARDS, A.DEFAULT_SECOND, A.DEFAULT_GREEDY)
    tensors = inputs.tensors()

    def check(trace, name):  # each trace is the registry's own advantages of the group
        expected = estimate_advantages(
            name, tensors["rewards"], components=tensors["components"], greedy_rewards=tensors["greedy_rewards"]
        )[0]
        assert trace_values(trace, "y") == pytest.approx(expected.tolist(), abs=1e-9), name

    for name, trace in zip([n for n in drawable if n not in held], bars["data"]):
        check(trace, name)
    assert {tr["name"] for tr in bias["data"]} == set(names.values())
    assert t("advantages.bias_header", lang) in texts(at)
    assert at.multiselect(key="ad_est").options == list(names.values())
    assert list(names.values()) == at.table[0].value.iloc[:, 0].tolist()  # the table of estimators
    # both questions skipped: every estimator's bars, the held ones included
    _skip(at, "advantages.predict_rloo")
    _skip(at, "advantages.predict_maxrl")
    no_exception(at)
    bars = _bars(at)
    assert [tr["name"] for tr in bars["data"]] == [names[n] for n in drawable]
    for name, trace in zip(drawable, bars["data"]):
        check(trace, name)
    assert t("advantages.held", lang, names=LIST_SEPARATOR[lang].join(names[n] for n in held)) not in texts(at)
    if lang == "zh":
        # no estimator's English title anywhere on the Chinese page (options, legends, table, captions)
        shown = texts(at) + json.dumps([f["data"] for f in figures(at)], ensure_ascii=False)
        assert "批次标准差" in shown and names["batch_std"] == "批次标准差"
        assert "Batch std" not in shown and "mean only" not in shown
        return
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
    zero = _bars(at)
    assert all(v == 0 for v in trace_values(zero["data"][0], "y"))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_per_token_estimator_alone_keeps_the_figures_place(lang):
    # only the Optimal Token Baseline chosen: no bars, its note in the figure's place (an info box, which
    # says where its formula is: the collapsed practitioners' block); the rest of the page stays
    at = open_page(PAGE, lang=lang, ad_est=A.per_token())
    no_exception(at)
    names = A.estimator_titles(lang)
    where = t("page.practitioners", lang)
    note = t(
        "advantages.per_token", lang, names=LIST_SEPARATOR[lang].join(names[n] for n in A.per_token()), where=where
    )
    assert [i.value for i in at.info] == [note] and f"“{where}”" in note
    assert len(figures(at)) == 1 and t("advantages.bias_header", lang) in texts(at)  # the bias figure only


def test_a_committed_answer_shows_the_held_bars():
    # predict, then reveal: RLOO's advantage of the right answer in 1, 0, 0, 0 is 1 - 0 = 1; its bars
    # come back, MaxRL's stay held while its question waits
    at = open_page(PAGE)
    at.number_input(key="pr_advantages.predict_rloo_in").set_value(1.0)
    [b for b in at.button if b.label == t("teach.commit", "en")][0].click().run()
    no_exception(at)
    assert at.success and t("teach.right", "en", answer="1") in at.success[0].value
    names = A.estimator_titles("en")
    shown = [tr["name"] for tr in _bars(at)["data"]]
    assert names["rloo"] in shown and names["maxrl"] not in shown
    assert t("advantages.held", "en", names=names["maxrl"]) in texts(at)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_bad_field_stays_local(lang):
    # eight rewards typed with the second reward still at its four values: the message names GDPO's field
    # (in the page's language), GDPO alone is left out, every other estimator and the rest of the page stay
    at = open_page(PAGE, lang=lang)
    at.text_input(key="ad_r").set_value("1, 0, 0, 0, 1, 0, 1, 0").run()
    assert not at.exception
    names = A.estimator_titles(lang)
    assert len(at.error) == 1
    message = at.error[0].value
    lead = t("common.bad_field", lang, field=t("advantages.second", lang), error="|").split("|")[0]
    assert message.startswith(lead)  # the field named first, in the page's language
    assert t("advantages.rewards", lang) not in message
    assert t("advantages.left_out", lang, names=names["gdpo"]) in texts(at)
    bars = _bars(at)
    held = {A.QUESTION_ESTIMATOR[p.key] for p in PREDICTIONS["advantages"]}
    assert [tr["name"] for tr in bars["data"]] == [
        names[n] for n in ESTIMATORS if n not in held | {"gdpo"} | set(A.per_token())
    ]
    assert all(len(tr["x"]) == 8 for tr in bars["data"])  # the eight responses
    assert t("advantages.bias_header", lang) in texts(at) and len(figures(at)) == 2  # the rest of the page
    # each optional field the same way: the estimators that read it are left out, the others drawn
    for key, text, field, lost in (
        ("ad_greedy", "0, 1", "greedy_reward", "remax"),
        ("ad_len", "3, x", "lengths", None),
    ):
        at = open_page(PAGE, lang=lang, **{key: text})
        assert not at.exception and len(at.error) == 1
        param = {"greedy_reward": "advantages.greedy", "lengths": "advantages.lengths"}[field]
        assert at.error[0].value.startswith(t("common.bad_field", lang, field=t(param, lang), error="|").split("|")[0])
        gone = set(A.readers(field))
        assert (lost is None and gone) or gone == {lost}
        drawn = {tr["name"] for tr in _bars(at)["data"]}
        assert drawn and not drawn & {names[n] for n in gone}


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_estimator_choice_url_holds_registry_keys(lang):
    # the same link in both languages: the URL names registry keys, not the labels the widget shows
    at = open_page(PAGE, lang=lang, ad_est=["batch_std", "grpo"])
    no_exception(at)
    assert at.multiselect(key="ad_est").value == ["grpo", "batch_std"] and _note(at) == ""
    assert [tr["name"] for tr in _bars(at)["data"]] == [A.estimator_titles(lang)[n] for n in ("grpo", "batch_std")]
    assert at.query_params["ad_est"] == ["grpo", "batch_std"]
    # a change goes back into the URL as keys; every estimator chosen (the default) leaves no parameter
    at.multiselect(key="ad_est").select("rloo").run()
    assert at.query_params["ad_est"] == ["grpo", "batch_std", "rloo"]
    at.multiselect(key="ad_est").set_value(A.default_choice()).run()
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
    assert at.multiselect(key="ad_est").value == A.default_choice()
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
