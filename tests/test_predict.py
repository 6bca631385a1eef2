"""Predict, then reveal: every answer computed by rlviz at the page's settings (hand values beside),
guesses judged, bad guesses refused, and the component on the curves page through AppTest."""

from __future__ import annotations

import dataclasses
import math

import pytest
from apptools import no_exception, open_page

from rlviz.experiments.curves import CurveSettings, variant_overrides
from rlviz.i18n import STRINGS, t
from rlviz.teach.predict import PREDICTIONS, Prediction, rank_lines, reveal

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
    # the weight shown, in the page's convention: J = -loss = r A for one token, the gradient weight
    # w = dJ / d log pi = r A = 1.5 x (-1) = -1.5 (0 when capped, never "-0")
    assert NEGATIVE.fields(dict(PPO, dual_clip_c=c))["weight"] == ("-1.5" if expected == "flows" else "0")
    assert reveal(NEGATIVE, dict(PPO, dual_clip_c=c), expected).correct


def test_curves_questions_follow_the_sliders_the_cases_table_follows():
    # found by a new user: with the page's default curves (Dual-clip PPO, not PPO) the table followed
    # Dual-clip PPO's sliders while the questions read PPO's hidden defaults (eps 0.2, c off)
    from rlviz.teach.predict import state_from_settings

    state = state_from_settings("curves", {"c_ppo_dual_epsilon_high": "0.3"})  # c_algos: the defaults
    # pi_old x (1 + eps_high) = 0.2 x 1.3 = 0.26; Dual-clip PPO's c = 3 is on: r = 1.5 < 3, the gradient flows
    assert CEILING.compute(state) == pytest.approx(0.26) and CEILING.fields(state)["eps_high"] == "0.3"
    assert NEGATIVE.fields(state)["c"] == "3" and NEGATIVE.compute(state) == "flows"
    # with PPO itself chosen, its own sliders (c off by default), as before
    ppo = state_from_settings("curves", {"c_algos": ["PPO", "Dual-clip PPO"], "c_ppo_dual_epsilon_high": "0.3"})
    assert CEILING.fields(ppo)["eps_high"] == "0.2" and NEGATIVE.fields(ppo)["c"] == "∞"


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
    for bad in (-0.1, 1.0, math.nan):
        with pytest.raises(ValueError, match="^relative_tolerance"):
            Prediction("x", "number", lambda s: 0, relative_tolerance=bad)


@pytest.mark.parametrize("prediction", [p for ps in PREDICTIONS.values() for p in ps], ids=lambda p: p.key)
def test_every_prediction_has_its_texts(prediction):
    assert f"{prediction.key}.q" in STRINGS
    if prediction.kind == "number":
        assert f"{prediction.key}.why" in STRINGS
    for c in prediction.choices:
        assert f"{prediction.key}.choice.{c}" in STRINGS and f"{prediction.key}.why.{c}" in STRINGS
    if prediction.kind == "line":  # one line highest beyond the noise, or several tied
        assert f"{prediction.key}.why.apart" in STRINGS and f"{prediction.key}.why.tied" in STRINGS
    if prediction.figure:
        assert prediction.figure in STRINGS


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


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_commit_with_nothing_typed_says_what_to_do_and_reveals_nothing(lang):
    # found by a learner: an empty "Commit and reveal" did nothing, silently
    at = open_page("pages/curves.py", lang=lang)
    [b for b in at.button if b.label == t("teach.commit", lang)][0].click().run()
    no_exception(at)
    assert any(t("teach.enter_first", lang) in c.value for c in at.caption)
    assert not at.warning and not at.success  # no verdict
    assert at.number_input(key="pr_teach.curves_ceiling_in").value is None  # still asked


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
    first, second = [p for p in PREDICTIONS["length"] if p.applies(state)]  # the sliders' two
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
    # two at the page's settings; the length page asks a third at its foot, on its measured record
    assert len(submit) == {"length": 3, "sampling": 2}[page] == len(PREDICTIONS[page])
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


# -- "which line": the tie rule ---------------------------------------------------------------


def test_the_highest_line_and_the_lines_within_the_margin_count_as_right():
    values = {"a": 0.50, "b": 0.45, "c": 0.30, "d": math.nan}
    # a is highest; b is 0.05 below it: tied within a margin of 0.06, apart with 0.04; c never; d not measured
    assert rank_lines(values, 0.06).top == ("a", "b")
    assert rank_lines(values, 0.04).top == ("a",) and not rank_lines(values, 0.04).tied
    assert rank_lines(values).top == ("a",)  # margin 0: only exact ties tie
    assert rank_lines({"x": 0.0, "y": 0.0, "z": 0.0}).top == ("x", "y", "z")  # nothing moved: all tied
    # a margin that depends on the pair: half the higher value here (0.25 for a vs b and a vs c)
    lines = rank_lines(values, lambda best, other: best / 2)
    assert lines.top == ("a", "b", "c") and lines.margins == {"a": 0.0, "b": 0.25, "c": 0.25}
    with pytest.raises(ValueError, match="^values"):
        rank_lines({"a": math.nan})
    with pytest.raises(ValueError, match="^margin"):
        rank_lines(values, -0.1)
    with pytest.raises(ValueError, match="^lines"):
        Prediction("x", "line", lambda s: rank_lines({"a": 1.0}))


# -- the live page: answers read from the finished run (hand-made measurements here) -----------


def _live_state(algorithms=("sapo", "grpo"), heldout_total=96, clip=0.125, **config):
    """The live predictions' state as the page builds it (the settings) plus a finished run's
    measurements (live_result's layout), with values chosen by hand."""
    import dataclasses

    from rlviz.experiments.live import LiveConfig

    settings = dataclasses.asdict(LiveConfig(algorithms=algorithms, group_size=4, mu=2, mini_batches=3, **config))
    step1 = {
        "sapo": {"zero_adv_group_fraction": 0.375, "pass_at_1": 0.25, "clip_fraction": 0.0},
        "grpo": {"zero_adv_group_fraction": 0.375, "pass_at_1": 0.25, "clip_fraction": clip},
    }
    step1["grpo"] |= {"ratio_min": 0.7, "ratio_max": 1.3}
    heldout = {"start": 0.40, "sapo": 0.45, "grpo": 0.55}
    return settings | {"step1": step1, "heldout": heldout, "heldout_total": heldout_total}


LIVE = {p.key.removeprefix("teach.live_"): p for p in PREDICTIONS["live"]}


def test_live_zero_advantage_share_beside_the_uniform_pass_rate():
    state = _live_state()
    zero = LIVE["zero_adv"]
    # read from the first arm's step 1 (SAPO here)
    assert zero.compute(state) == 0.375 and zero.fields(state) == {"arm": "SAPO", "G": "4", "n": "16"}
    assert reveal(zero, state, 0.3).correct and not reveal(zero, state, 0.2).correct  # tolerance 0.1
    # every prompt at p = 0.25, G = 4: all equal with 0.25^4 + 0.75^4 = 0.00390625 + 0.31640625 = 0.3203125
    assert zero.why_fields(state)["uniform"] == "0.32" and zero.why_fields(state)["p"] == "0.25"
    assert zero.needs_result and zero.figure == "teach.live_zero_adv.where"


def test_live_clip_question_is_about_the_first_objective_that_clips():
    state = _live_state()
    clip = LIVE["clip"]
    # SAPO has a gate, no band (trust_band None): the question is about GRPO, band [1 - 0.2, 1 + 0.2]
    fields = clip.fields(state)
    assert fields["arm"] == "GRPO" and (fields["low"], fields["high"]) == ("0.8", "1.2")
    assert (fields["updates"], fields["later"]) == ("6", "5")  # mu x mini-batches = 2 x 3, the first on-policy
    assert clip.compute(state) == 0.125 and clip.why_fields(state)["rmax"] == "1.3"
    # right within 0.005 + 0.5 x |answer| = 0.005 + 0.0625 = 0.0675 of 0.125: 0.06 and 0.19 are, 0.05 and 0.2 not
    assert [reveal(clip, state, g).correct for g in (0.06, 0.19, 0.05, 0.2, 0.0)] == [True, True, False, False, False]
    # the lesson's run measured 0.0375: a guess of 0 ("the first update is on-policy, so nothing is
    # clipped") is off by 0.0375 > 0.005 + 0.01875 = 0.02375, wrong; 0.02 is right
    small = _live_state(clip=0.0375)
    assert not reveal(clip, small, 0.0).correct and reveal(clip, small, 0.02).correct
    # an answer of exactly 0 (mu = 1, one mini-batch): 0 and 0.005 are right, 0.01 is not
    none = _live_state(clip=0.0)
    assert [reveal(clip, none, g).correct for g in (0.0, 0.005, 0.01)] == [True, True, False]
    assert clip.applies(state) and not clip.applies(_live_state(algorithms=("sapo",)))
    with pytest.raises(ValueError, match="^run"):  # a step 1 that made no update (dynamic sampling)
        clip.compute(_live_state(clip=math.nan))


@pytest.mark.parametrize(
    "total, top",
    [
        # GRPO 0.55, SAPO 0.45: two standard errors of the difference at their middle p = 0.5,
        # 2 sqrt(2 x 0.5 x 0.5 / 96) = 0.1443 > 0.10: tied, either guess is right
        (96, ("grpo", "sapo")),
        # on 768 samples each: 2 sqrt(0.5 / 768) = 0.0510 < 0.10: apart, only GRPO is right
        (768, ("grpo",)),
    ],
)
def test_live_heldout_line_ties_within_two_standard_errors(total, top):
    state = _live_state(heldout_total=total)
    heldout = LIVE["heldout"]
    assert heldout.options(state) == ("sapo", "grpo")  # the run's arms, in its order
    lines = heldout.compute(state)
    assert lines.best == "grpo" and lines.top == top
    assert lines.margins["sapo"] == pytest.approx(2 * math.sqrt(2 * 0.25 / total))
    assert reveal(heldout, state, "grpo").correct
    assert reveal(heldout, state, "sapo").correct == (len(top) == 2)
    why = heldout.why_fields(state)
    assert (why["best"], why["second"], why["gap"], why["start"]) == ("GRPO", "SAPO", "0.100", "0.400")
    with pytest.raises(ValueError, match="^guess"):
        reveal(heldout, state, "ppo")  # not a line of this run
    assert not heldout.applies(_live_state(heldout_samples=0))  # no held-out evaluation, no question


# -- the MoE page: answers read from the one-batch result (a hand-made summary here) ----------


def _moe_state(**summary):
    base = {
        "route_change_first": 0.125,
        "route_change_last": 0.22,
        "token_std_own": 2.0,
        "token_std_replay": 1.9,
        "sequence_std": 1.5,
        "replay_spread_change": -0.05,
        "routing_share_of_own": 0.2,
        "clip_grpo": 0.18,
        "clip_grpo_r2": 0.19,
        "clip_gspo": 0.38,
    }
    arms = ("grpo", "grpo_r2", "gspo")
    return {"updates": 4, "lr": 1e-3, "moe": True, "layers": 4, "arms": arms, "summary": base | summary}


MOE = {p.key.removeprefix("teach.moe_"): p for p in PREDICTIONS["moe"]}


def test_moe_predictions_read_the_summary():
    state = _moe_state()
    assert MOE["route"].compute(state) == 0.22 and reveal(MOE["route"], state, 0.2).correct  # within 0.03
    # replay narrows sigma by 5% (< 10%): the update makes the spread; by 15% (>= 10%): routing adds to it
    assert MOE["replay"].compute(state) == "update"
    assert MOE["replay"].compute(_moe_state(replay_spread_change=-0.15)) == "routing"
    assert MOE["replay"].why_fields(state)["change"] == "-5.0%"
    # GSPO's sigma 1.5 < the tokens' 2.0: yes (75% of it)
    assert MOE["sequence"].compute(state) == "yes" and MOE["sequence"].why_fields(state)["pct"] == "75.0%"
    assert MOE["sequence"].compute(_moe_state(sequence_std=2.5)) == "no"
    clip = MOE["clip"].compute(state)
    assert clip.best == "gspo" and clip.top == ("gspo",)  # one batch shared by the arms: exact ties only
    assert MOE["clip"].compute(_moe_state(clip_grpo=0.0, clip_grpo_r2=0.0, clip_gspo=0.0)).top == state["arms"]


def test_moe_questions_that_do_not_apply():
    dense = _moe_state(route_change_last=math.nan, replay_spread_change=math.nan) | {"moe": False}
    dense["arms"] = ("grpo", "gspo")
    # the dense control has no routes and no replay arm: the sequence and the clip questions remain
    assert [p.key for p in PREDICTIONS["moe"] if p.applies(dense)] == ["teach.moe_sequence", "teach.moe_clip"]
    with pytest.raises(ValueError, match="^model"):
        MOE["route"].compute(dense)
    still = _moe_state() | {"lr": 0.0}  # nothing moves: no spread to compare
    assert [p.key for p in PREDICTIONS["moe"] if p.applies(still)] == ["teach.moe_route", "teach.moe_clip"]


# -- the live and MoE pages through AppTest ----------------------------------------------------


def _commit(at, key: str) -> None:
    """Press the commit button of question ``key``'s form."""
    [b for b in at.button if str(b.key).startswith(f"FormSubmitter:form_{key}-")][0].click().run()


def test_live_page_asks_before_the_run_and_reveals_from_the_finished_run():
    from apptools import texts, torch_threads

    from rlviz.teach.predict import live_result

    with torch_threads(1):
        at = open_page("pages/live.py")
        no_exception(at)
        at.multiselect(key="lv_algos").set_value(["grpo", "gspo"])
        small = {"lv_steps": 1, "lv_prompts": 1, "lv_G": 2, "lv_mu": 1, "lv_mb": 1, "lv_heldout": 1}
        for key, value in small.items():  # the smallest run the page accepts, two arms
            at.number_input(key=key).set_value(value)
        at.run()
        assert t("teach.live_heldout.q", "en", steps=1, n=96) in texts(at)
        # committed before Run: each guess waits for the run
        at.number_input(key="pr_teach.live_zero_adv_in").set_value(-1.0)  # a share is never negative: wrong
        _commit(at, "teach.live_zero_adv")
        at.number_input(key="pr_teach.live_clip_in").set_value(0.0)
        _commit(at, "teach.live_clip")
        at.radio(key="pr_teach.live_heldout_in_en").set_value("gspo")
        _commit(at, "teach.live_heldout")
        no_exception(at)
        waiting = [i.value for i in at.info if i.value.startswith("Your answer")]
        assert waiting == [t("teach.waiting", "en", guess=g) for g in ("-1", "0", "GSPO")]
        at.button(key="lv_run").click().run()  # the guesses survive the run
        no_exception(at)
    run = at.session_state["live_run"]
    assert run.done
    measured = live_result(run)
    zero = measured["step1"]["grpo"]["zero_adv_group_fraction"]
    assert t("teach.wrong", "en", guess="-1", answer=f"{zero:.4g}") in [w.value for w in at.warning]
    # mu = 1, one mini-batch: step 1's only update is on-policy, every ratio 1, nothing clipped
    assert measured["step1"]["grpo"]["clip_fraction"] == 0.0
    assert t("teach.right", "en", answer="0") in [s.value for s in at.success]
    # the held-out line: whatever the run measured, judged by the tie rule, named and pointed at
    state = dataclasses.asdict(run.live_config) | measured
    heldout = PREDICTIONS["live"][2]
    lines, verdict = heldout.compute(state), reveal(heldout, state, "gspo")
    answer = ", ".join({"grpo": "GRPO", "gspo": "GSPO"}[line] for line in lines.top)
    shown = t("teach.right", "en", answer=answer) if verdict.correct else None
    shown = shown or t("teach.wrong", "en", guess="GSPO", answer=answer)
    assert shown in [m.value for m in list(at.success) + list(at.warning)]
    where = t("teach.live_heldout.where", "en", answer=answer, **heldout.why_fields(state))
    assert any(where in m.value for m in at.markdown)


def test_moe_page_asks_before_its_numbers_and_reveals_in_chinese():
    from apptools import texts, torch_threads

    from rlviz.experiments.moe import RoutingShiftSettings, routing_shift
    from rlviz.teach.predict import shift_state

    with torch_threads(1):
        at = open_page("pages/moe.py", lang="zh", mo_n=4, mo_G=4, mo_k=2)  # the MoE page test's small batch
        no_exception(at)
        result = routing_shift(RoutingShiftSettings(updates=2, prompts=4, group_size=4, device="auto"))
    state = shift_state(result)
    asked = [p for p in PREDICTIONS["moe"] if p.applies(state)]
    assert len(asked) == 4  # the MoE at lr > 0: every question applies
    text = texts(at)
    assert all(t(f"{p.key}.q", "zh", **p.fields(state)) in text for p in asked)
    assert text.index(t("teach.moe_route.q", "zh", **asked[0].fields(state))) < text.index(t("moe.route_header", "zh"))
    route = result.summary()["route_change_last"]
    at.number_input(key="pr_teach.moe_route_in").set_value(route)
    _commit(at, "teach.moe_route")
    at.radio(key="pr_teach.moe_clip_in_zh").set_value("grpo")
    _commit(at, "teach.moe_clip")
    no_exception(at)
    assert t("teach.right", "zh", answer=f"{route:.4g}") in [s.value for s in at.success]
    clip = MOE["clip"].compute(state)
    answer = "、".join(t(f"moe.arm.{arm}", "zh") for arm in clip.top)
    if "grpo" in clip.top:
        assert t("teach.right", "zh", answer=answer) in [s.value for s in at.success]
    else:
        assert t("teach.wrong", "zh", guess=t("moe.arm.grpo", "zh"), answer=answer) in [w.value for w in at.warning]
    where = t("teach.moe_clip.where", "zh", answer=answer, **MOE["clip"].why_fields(state))
    assert any(where in m.value for m in at.markdown)


def test_a_run_started_before_the_guess_closes_its_questions():
    """Issue 39, found by a fresh learner: after a run at the page's settings, its curves show the answers of the
    questions asked before Run (the share of zero-advantage groups, the clip fraction at step 1), so a guess then
    would be read off the page. A question not committed when its run started offers no guess, says why, and
    shows the computed answer once the run has finished; with a setting changed it is asked afresh."""
    from apptools import torch_threads

    from rlviz.teach.predict import live_result

    with torch_threads(1):
        at = open_page("pages/live.py")
        at.multiselect(key="lv_algos").set_value(["grpo"])
        small = {"lv_steps": 1, "lv_prompts": 1, "lv_G": 2, "lv_mu": 1, "lv_mb": 1, "lv_heldout": 1}
        for key, value in small.items():
            at.number_input(key=key).set_value(value)
        at.run()
        live_forms = {f"form_{p.key}" for p in PREDICTIONS["live"]}
        asked = [b for b in at.button if getattr(b, "form_id", None) in live_forms]
        assert asked  # before Run: each question offers a guess
        at.button(key="lv_run").click().run()  # no guess committed
        no_exception(at)
        run = at.session_state["live_run"]
        assert run.done
        assert not [b for b in at.button if getattr(b, "form_id", None) in live_forms]
        closed = [c.value for c in at.caption if t("teach.too_late", "en") in c.value]
        assert len(closed) == len([p for p in PREDICTIONS["live"] if p.applies(dataclasses.asdict(run.live_config))])
        zero = live_result(run)["step1"]["grpo"]["zero_adv_group_fraction"]
        assert t("teach.skipped", "en", answer=f"{zero:.4g}") in [i.value for i in at.info]
        at.number_input(key="lv_prompts").set_value(2).run()  # another setting: the next run's question is open
        assert [b for b in at.button if getattr(b, "form_id", None) in live_forms]
