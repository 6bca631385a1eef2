"""Predict, then reveal: every answer computed by rlviz at the page's settings (hand values beside),
guesses judged, bad guesses refused, and the component on the curves page through AppTest."""

from __future__ import annotations

import math

import pytest
from apptools import no_exception, open_page

from rlviz.experiments.curves import CurveSettings, variant_overrides
from rlviz.i18n import STRINGS, t
from rlviz.teach.predict import PREDICTIONS, Prediction, reveal

PPO = variant_overrides("ppo", CurveSettings({}))
CEILING, NEGATIVE = PREDICTIONS["curves"]


@pytest.mark.parametrize("eps_high, expected", [(0.2, 0.24), (0.28, 0.256), (0.0, 0.2)])
def test_ceiling_is_pi_old_times_one_plus_eps_high(eps_high, expected):
    # pi_max = pi_old (1 + eps_high) = 0.2 x 1.2 = 0.24; 0.2 x 1.28 = 0.256; no room at eps_high = 0
    state = dict(PPO, epsilon_high=eps_high)
    assert CEILING.compute(state) == pytest.approx(expected, abs=1e-12)
    assert reveal(CEILING, state, expected + 0.001).correct  # within the tolerance 0.002
    assert not reveal(CEILING, state, expected + 0.01).correct


@pytest.mark.parametrize("c, expected", [(None, "flows"), (3.0, "flows"), (1.2, "zero")])
def test_negative_advantage_far_above_the_band(c, expected):
    # A < 0, r = 1.5 > 1 + eps: min(rA, clip(r)A) = rA, gradient A r != 0; the dual clip caps the loss
    # at cA once r > c, so with c = 1.2 < 1.5 the gradient is zero, with c = 3 > 1.5 it is not
    assert NEGATIVE.compute(dict(PPO, dual_clip_c=c)) == expected
    # the weight shown: loss = -r A = 1.5 r for one token, d loss / d log pi = -A r = 1.5 (0 when capped)
    assert NEGATIVE.fields(dict(PPO, dual_clip_c=c))["weight"] == ("1.5" if expected == "flows" else "0")
    assert reveal(NEGATIVE, dict(PPO, dual_clip_c=c), expected).correct


def test_bad_guesses_and_bad_predictions_name_the_parameter():
    for bad in (float("nan"), math.inf, "0.24", None, True):
        with pytest.raises(ValueError, match="^guess"):
            reveal(CEILING, PPO, bad)
    with pytest.raises(ValueError, match="^guess"):
        reveal(NEGATIVE, PPO, "maybe")
    with pytest.raises(ValueError, match="^epsilon_high"):
        reveal(CEILING, dict(PPO, epsilon_high=-0.1), 0.2)  # a bad setting of the page
    with pytest.raises(ValueError, match="^kind"):
        Prediction("x", "essay", lambda s: 0)
    with pytest.raises(ValueError, match="^choices"):
        Prediction("x", "choice", lambda s: "a", choices=("a",))
    with pytest.raises(ValueError, match="^tolerance"):
        Prediction("x", "number", lambda s: 0, tolerance=-1)


@pytest.mark.parametrize("prediction", [p for ps in PREDICTIONS.values() for p in ps], ids=lambda p: p.key)
def test_every_prediction_has_its_texts(prediction):
    assert f"{prediction.key}.q" in STRINGS
    if prediction.kind == "number":
        assert f"{prediction.key}.why" in STRINGS
    for c in prediction.choices:
        assert f"{prediction.key}.choice.{c}" in STRINGS and f"{prediction.key}.why.{c}" in STRINGS


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_curves_page_asks_then_reveals_the_computed_answer(lang):
    at = open_page("pages/curves.py", lang=lang)
    no_exception(at)
    assert t("teach.header", lang) in [s.value for s in at.subheader]
    at.number_input(key="pr_teach.curves_ceiling_in").set_value(0.3)
    submit = [b for b in at.button if b.label == t("teach.commit", lang)]
    assert len(submit) == 2  # one per question
    submit[0].click().run()
    no_exception(at)
    # wrong: 0.3 against the computed 0.24 (PPO's default eps_high = 0.2)
    assert at.warning and t("teach.wrong", lang, guess="0.3", answer="0.24") in at.warning[0].value
    assert any(
        t("teach.curves_ceiling.why", lang, answer="0.24", eps_high="0.2", band_high="1.2", band_low="0.8") == m.value
        for m in at.markdown
    )
    at.button(key="pr_teach.curves_ceiling_again").click().run()
    no_exception(at)
    assert not at.warning
    at.number_input(key="pr_teach.curves_ceiling_in").set_value(0.24)
    [b for b in at.button if b.label == t("teach.commit", lang)][0].click().run()
    assert at.success and t("teach.right", lang, answer="0.24") in at.success[0].value


@pytest.mark.parametrize("lengths, ratio", [((200, 10), 20.0), ((10, 200, 50), 20.0), ((7,), 1.0), ((8, 4, 4), 2.0)])
def test_weighting_predictions_by_hand(lengths, ratio):
    # token-mean: every token 1/sum(L), a response totals L/sum(L): long/short = L_long/L_short (200/10 = 20)
    # seq-mean-token-mean: a token weighs 1/(B L): short token / long token = L_long/L_short again
    token_mean, seq_mean = PREDICTIONS["weighting"]
    state = {"lengths": lengths}
    assert token_mean.compute(state) == pytest.approx(ratio, rel=1e-12)
    assert seq_mean.compute(state) == pytest.approx(ratio, rel=1e-12)
    assert reveal(token_mean, state, ratio + 0.04).correct and not reveal(token_mean, state, ratio + 1).correct
    with pytest.raises(ValueError, match="^lengths"):
        token_mean.compute({"lengths": (0, 5)})


def test_weighting_page_asks_before_it_shows():
    at = open_page("pages/weighting.py")
    no_exception(at)
    at.number_input(key="pr_teach.weighting_token_mean_in").set_value(20.0)
    [b for b in at.button if b.label == t("teach.commit", "en")][0].click().run()
    no_exception(at)
    assert at.success and t("teach.right", "en", answer="20") in at.success[0].value


@pytest.mark.parametrize(
    "lmax, lcache, factor, in_buffer, at_limit",
    [
        # L_max 20, L_cache 4: 0 up to 16 tokens; at 18: -(18 - 16)/4 = -0.5; at 20: -1
        (20, 4, 1.0, -0.5, -1.0),
        # factor 2 doubles both; L_cache 3: n = 20 - 1 = 19, -(19 - 17)/3 x 2 = -4/3
        (20, 3, 2.0, -4 / 3, -2.0),
        # no buffer: n = L_max, and a response of exactly L_max tokens is not punished
        (20, 0, 1.0, 0.0, 0.0),
    ],
)
def test_length_predictions_by_hand(lmax, lcache, factor, in_buffer, at_limit):
    state = {"max_length": lmax, "buffer_length": lcache, "penalty_factor": factor}
    first, second = PREDICTIONS["length"]
    assert first.compute(state) == pytest.approx(in_buffer, abs=1e-6)
    assert second.compute(state) == pytest.approx(at_limit, abs=1e-6)


@pytest.mark.parametrize("G", [2, 8, 16])
def test_sampling_predictions_by_hand(G):
    # a group carries a signal unless all right (p^G) or all wrong ((1 - p)^G)
    easy, hard = PREDICTIONS["sampling"]
    assert easy.compute({"group_size": G}) == pytest.approx(1 - 0.9**G - 0.1**G, abs=1e-6)
    assert hard.compute({"group_size": G}) == pytest.approx(1 - 0.05**G - 0.95**G, abs=1e-6)


@pytest.mark.parametrize("page", ["length", "sampling"])
def test_length_and_sampling_pages_ask_two(page):
    at = open_page(f"pages/{page}.py")
    no_exception(at)
    submit = [b for b in at.button if b.label == t("teach.commit", "en")]
    assert len(submit) == 2
    first = PREDICTIONS[page][0]
    if page == "length":  # the page's own sliders are the state
        lmax, lcache = at.slider(key="l_max").value, at.slider(key="l_cache").value
        state = {"max_length": lmax, "buffer_length": min(lcache, lmax), "penalty_factor": at.slider(key="l_pen").value}
    else:  # the largest group size chosen
        state = {"group_size": max(at.multiselect(key="s_Gs").value)}
    at.number_input(key=f"pr_{first.key}_in").set_value(-5.0)  # wrong on both pages
    submit[0].click().run()
    no_exception(at)
    expected = t("teach.wrong", "en", guess="-5", answer=f"{first.compute(state):.4g}")
    assert [w.value for w in at.warning] == [expected]
