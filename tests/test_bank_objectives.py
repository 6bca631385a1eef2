"""The objectives, clipping and aggregation questions of the interview bank: hand values (the formula
beside each expected number), coverage of every registry entry, the computed choice answers, the
claims' computed numbers, and answer functions that refuse bad input naming the parameter.

tests/test_bank.py already recomputes every question and formats both languages; this file checks
that what rlviz computes is what the formulas say."""

from __future__ import annotations

import math

import pytest

from rlviz.core.objectives import ALGORITHMS
from rlviz.teach import answers
from rlviz.teach.bank import load_bank

BANK = load_bank()
MINE = ("objectives", "clipping", "aggregation")
QUESTIONS = [q for q in BANK.questions if q.topic in MINE]


def value(qid: str) -> float:
    return BANK.question(qid).compute()


def fact(qid: str, name: str) -> str:
    return BANK.question(qid).fields()[name]


def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def test_hand_values_objectives():
    # PPO: J = min(r A, clip(r, 0.8, 1.2) A) = min(1.3, 1.2) = 1.2
    assert value("objectives-ppo-clipped-objective") == pytest.approx(1.2)
    # PPO, A = -1: J = min(-1.5, -1.2) = -1.5 (the unclipped branch is the pessimistic one)
    assert value("objectives-ppo-pessimistic-negative") == pytest.approx(-1.5)
    # on-policy: w = r A = 1 * 0.5
    assert value("objectives-on-policy-gradient") == pytest.approx(0.5)
    # SAPO at r = 1: J = (4 / tau) sigma(0) A = 4 * 0.5 = 2 (tau_pos = 1)
    assert value("objectives-sapo-value-on-policy") == pytest.approx(2.0)
    # SAPO: w = 4 sigma(x)(1 - sigma(x)) r A, x = tau (r - 1) = 0.5
    s = sigmoid(0.5)
    assert value("objectives-sapo-grad-weight") == pytest.approx(4 * s * (1 - s) * 1.5)
    # CISPO: w = min(r, 1 + eps_high) A = min(1.5, 1.2) * 1 = 1.2; PPO gives 0 there
    assert value("objectives-cispo-keeps-gradient") == pytest.approx(1.2)
    assert fact("objectives-cispo-keeps-gradient", "ppo") == "0"
    # CISPO, no floor (eps_low = 1): w = clip(0.5, 0, 1.2) * (-1) = -0.5
    assert value("objectives-cispo-no-floor") == pytest.approx(-0.5)
    # GSPO: s = (0.5 * 1 * 1 * 2)^(1/4) = 1; arithmetic mean (0.5 + 1 + 1 + 2) / 4 = 1.125
    assert value("objectives-gspo-geometric-mean") == pytest.approx(1.0)
    assert fact("objectives-gspo-geometric-mean", "mean") == "1.125"
    # GSPO, s = 1 inside the band: every token s A / |y| = 1/4; GRPO's r = 0.5 token: 0.5 / 4
    assert value("objectives-gspo-equal-push") == pytest.approx(0.25)
    assert fact("objectives-gspo-equal-push", "grpo") == "0.125"
    # GMPO, A > 0: log 4 clipped to 0.4, rho = exp((0 + 0 + 0 + 0.4) / 4) = exp(0.1)
    assert value("objectives-gmpo-outlier") == pytest.approx(math.exp(0.1))
    # GMPO, A < 0: nothing clipped from above, rho = 4^(1/4) = sqrt(2)
    assert value("objectives-gmpo-one-sided") == pytest.approx(math.sqrt(2))
    # GMPO: unclipped token gets rho A / |y| = exp(0.1) / 4
    assert value("objectives-gmpo-token-push") == pytest.approx(math.exp(0.1) / 4)
    # product of 100 token ratios 1.01: 1.01^100
    assert value("objectives-gspo-product-explodes") == pytest.approx(1.01**100)
    # r = 1.5, A = +1: only SAPO and CISPO keep a gradient (GMPO: log 1.5 > 0.4); at 1.45 GMPO too
    assert value("objectives-count-gradient-above") == 2
    assert value("objectives-count-gradient-log-band") == 3


def test_hand_values_clipping():
    # pi_new <= pi_old (1 + eps_high): 0.2 * 1.2 = 0.24 (GRPO), 0.2 * 1.28 = 0.256 (DAPO)
    assert value("clipping-grpo-pi-ceiling") == pytest.approx(0.24)
    assert value("clipping-dapo-pi-ceiling") == pytest.approx(0.256)
    # pi_old = 0.9: min(1, 0.9 * 1.2) - 0.9 = 0.1
    assert value("clipping-likely-token-room") == pytest.approx(0.1)
    # dual clip: loss = min(max(-A r, -A clip(r)), -A c) = min(4, 3) = 3
    assert value("clipping-dual-clip-cap") == pytest.approx(3.0)
    assert fact("clipping-dual-clip-cap", "plain") == "4"
    # below c the unclipped branch: w = r A = -2.5
    assert value("clipping-dual-clip-below-c") == pytest.approx(-2.5)
    # clip fraction: A>0 & r>1.2 (1.25, 1.3) and A<0 & r<0.8 (0.75) -> 3 of 6; DAPO (1.28): 2 of 6
    assert value("clipping-clip-fraction-grpo") == pytest.approx(3 / 6)
    assert value("clipping-clip-fraction-dapo") == pytest.approx(2 / 6)
    assert value("clipping-clip-fraction-low") == pytest.approx(1 / 6)
    assert fact("clipping-clip-fraction-grpo", "outside") == "0.83333"  # 5 of 6 outside [0.8, 1.2]
    # GMPO band: (e^-0.4, e^0.4)
    assert value("clipping-gmpo-log-band") == pytest.approx(math.exp(0.4))
    # GSPO band width: (1 + 4e-4) - (1 - 3e-4) = 7e-4
    assert value("clipping-gspo-band-width") == pytest.approx(7e-4)
    # GSPO: s = 1.01^(1/4) > 1 + 4e-4 with A > 0 -> all 4 tokens clipped
    assert value("clipping-gspo-one-token-sinks-response") == 1.0
    # 50 tokens, 2 at 0.5, A < 0: s = 0.5^(2/50) < 1 - 3e-4 -> all clipped; GRPO clips 2 / 50
    assert value("clipping-gspo-offpolicy-response") == 1.0
    assert fact("clipping-gspo-offpolicy-response", "s") == f"{0.5 ** (2 / 50):.5g}"
    assert fact("clipping-gspo-offpolicy-response", "grpo") == "0.04"
    # SAPO outlier: push / on-policy push = 4 sigma(x)(1 - sigma(x)) r, x = tau_neg (r - 1)
    s = sigmoid(1.05 * (0.5 - 1))
    assert value("clipping-sapo-damps-outliers") == pytest.approx(4 * s * (1 - s) * 0.5)
    # SAPO gate with tau = 10 at r = 1.5: 4 sigma(5)(1 - sigma(5))
    assert value("clipping-sapo-hot-gate") == pytest.approx(4 * sigmoid(5) * (1 - sigmoid(5)))
    # GMPO clips only the outlier's log-ratio: 1 of 4 tokens
    assert value("clipping-gmpo-vs-gspo-outlier") == pytest.approx(0.25)


def test_hand_values_aggregation():
    # seq-mean-token-mean: 1 / (G |o_i|) = 1 / (2 * 200); short 1 / (2 * 10); ratio 20
    assert value("aggregation-seq-mean-long-token") == pytest.approx(1 / 400)
    assert value("aggregation-short-vs-long") == pytest.approx(20.0)
    # token-mean share of the long response: 200 / 210
    assert value("aggregation-token-mean-response-share") == pytest.approx(200 / 210)
    # Dr.GRPO: 1 / (G L_max) = 1 / (2 * 256); default constant = padded width: 1 / (2 * 5)
    assert value("aggregation-dr-grpo-weight") == pytest.approx(1 / 512)
    assert value("aggregation-dr-grpo-default-constant") == pytest.approx(1 / 10)
    # seq-mean-token-sum: 1 / G
    assert value("aggregation-seq-mean-token-sum") == pytest.approx(0.5)
    # on-policy loss = -sum_i A_i w_i L_i: token-mean (200 - 10) / 210, seq-mean 0, Dr.GRPO 190 / 512
    assert value("aggregation-loss-token-mean") == pytest.approx(190 / 210)
    assert value("aggregation-loss-seq-mean") == 0.0
    assert value("aggregation-loss-dr-grpo") == pytest.approx(190 / 512)
    # push = A_i / (G |o_i|): -1 / 400 for the long wrong response, +1 / 20 for the short right one
    assert value("aggregation-length-bias") == pytest.approx(-1 / 400)
    assert fact("aggregation-length-bias", "short") == "0.05"
    # a fully masked row leaves G: 1 / (2 * 4)
    assert value("aggregation-filtered-response") == pytest.approx(1 / 8)
    # token-mean: 8 / 10 of the weight on the 8-token response; 1 / 30 per token beside 20 tokens
    assert value("aggregation-gspo-under-token-mean") == pytest.approx(0.8)
    assert value("aggregation-token-mean-batch-dependence") == pytest.approx(1 / 30)


def test_every_registry_entry_is_asked_about_several_times():
    counts = {name: sum(name in q.algorithms for q in QUESTIONS) for name in ALGORITHMS}
    assert all(n >= 3 for n in counts.values()), counts


def test_size_and_mix_of_my_topics():
    assert len(QUESTIONS) >= 66
    assert all(len([q for q in QUESTIONS if q.topic == t]) >= 20 for t in MINE)
    numeric = [q for q in QUESTIONS if q.kind == "number"]
    assert len(numeric) * 2 >= len(QUESTIONS)
    assert all(q.id.startswith(q.topic + "-") for q in QUESTIONS)
    assert len([c for c in BANK.claims if c.topic in MINE]) >= 8


def test_computed_choice_answers():
    # the choice answers rlviz computes, read from the registry and the losses
    assert answers.compute("obj_framework_name", {"algorithm": "sapo", "setting": "tau_neg", "framework": "trl"}) == (
        "sapo_temperature_neg"
    )
    assert answers.compute("obj_default", {"algorithm": "dapo", "setting": "loss_agg_mode"}) == "token-mean"
    assert answers.compute("obj_token_state", {"algorithm": "cispo", "ratio": 1.5, "advantage": 1}) == "capped"
    assert answers.compute("obj_token_state", {"algorithm": "sapo", "ratio": 3, "advantage": 1}) == "gated"
    assert answers.compute("obj_token_state", {"algorithm": "ppo", "ratio": 1.5, "advantage": -1}) == "active"
    assert answers.compute("obj_smaller_gate", {"ratio": 2}) == "negative"  # tau_neg > tau_pos
    assert answers.compute("obj_smaller_gate", {"ratio": 1}) == "same"  # both gates are 1 at r = 1
    assert answers.compute("obj_clip_space", {"algorithm": "sapo"}) == "none"
    # GSPO and GSPO-token agree for a constant advantage, not for per-token ones
    ratios = [1.0002, 0.9999, 1.0001]
    assert answers.compute("obj_gspo_token_check", {"ratios": ratios}) == "same"
    assert answers.compute("obj_gspo_token_check", {"ratios": ratios, "advantages": [1, 0.5, -1]}) == "different"


def test_claim_numbers():
    claims = {c.id: c for c in BANK.claims}
    # CISPO keeps min(1.5, 1.2) = 1.2 where PPO's weight is 0
    assert "1.2" in claims["claim-cispo-is-ppo-with-another-range"].corrected("en")
    # clip fraction 3 / 6 vs 5 / 6 outside the band
    text = claims["claim-clip-fraction-out-of-band"].corrected("zh")
    assert "0.5" in text and "0.8333" in text


@pytest.mark.parametrize(
    ("name", "args", "param"),
    [
        ("obj_grad_weight", {"algorithm": "ppo", "ratio": 0, "advantage": 1}, "ratio"),
        ("obj_grad_weight", {"algorithm": "ppo", "ratio": 1, "advantage": math.nan}, "advantage"),
        ("obj_grad_weight", {"algorithm": "nope", "ratio": 1, "advantage": 1}, "algorithm"),
        ("obj_band_width", {"algorithm": "nope"}, "algorithm"),
        ("obj_default", {"algorithm": "ppo", "setting": "tau"}, "setting"),
        ("obj_gate_weight", {"ratio": 1, "advantage": 1, "algorithm": "ppo"}, "algorithm"),
        ("obj_pi_ceiling", {"algorithm": "grpo", "pi_old": 1.5}, "pi_old"),
        ("obj_band_width", {"algorithm": "sapo"}, "algorithm"),
        ("obj_ratio_used", {"algorithm": "gspo", "ratios": []}, "ratios"),
        ("obj_ratio_used", {"algorithm": "gspo", "ratios": [1], "log_ratios": [0]}, "ratios"),
        ("obj_token_push", {"algorithm": "gspo", "ratios": [1, 1], "position": 2}, "position"),
        ("obj_clip_fraction", {"algorithm": "grpo", "ratios": [1, 1], "advantages": [1, 1, 1]}, "advantages"),
        ("obj_clip_fraction", {"algorithm": "grpo", "ratios": [1], "side": "middle"}, "side"),
        ("obj_clip_fraction", {"algorithm": "grpo", "ratios": [1, 1], "lengths": [1, 2]}, "lengths"),
        ("obj_batch_loss", {"lengths": [2, -1], "advantages": [1, 1], "mode": "token-mean"}, "lengths"),
        ("obj_batch_loss", {"lengths": [2, 1], "advantages": [1, 1], "mode": "sum"}, "mode"),
        ("obj_batch_push", {"lengths": [2, 0], "advantages": [1, 1], "mode": "token-mean", "row": 1}, "row"),
        ("obj_weight_ratio", {"lengths": [2, 1], "mode": "token-mean", "first": 5, "second": 0}, "first"),
        ("obj_framework_name", {"algorithm": "ppo", "setting": "epsilon_low", "framework": "jax"}, "framework"),
        ("obj_default", {"algorithm": "ppo", "setting": "dual_clip_c"}, "setting"),
        (
            "obj_offpolicy",
            {"algorithm": "gspo", "length": 4, "n_outliers": 1, "outlier_ratio": 2, "advantage": 1, "quantity": "mean"},
            "quantity",
        ),  # fmt: skip
    ],
)
def test_bad_input_names_the_parameter(name, args, param):
    with pytest.raises(ValueError, match=f"^{param}"):
        answers.compute(name, args)


def test_query_keys_belong_to_the_linked_page():
    # each page's URL-bound widgets share a prefix (curves c_, weighting wt_, live lv_, confusions cf_)
    prefix = {"curves": "c_", "weighting": "wt_", "live": "lv_", "confusions": "cf_"}
    for entry in [*QUESTIONS, *(c for c in BANK.claims if c.topic in MINE)]:
        for key in entry.query:
            assert key.startswith(prefix[entry.page]), (entry.id, key)


def test_hand_values_objectives_after_gspo():
    # GPPO, A = 1, r = 1.5 > 1.28: w = (1 + 0.28) A = 1.28 (PPO: 0); J = 1.28 as DAPO's clipped value
    assert value("objectives-gppo-keeps-gradient") == pytest.approx(1.28)
    assert fact("objectives-gppo-keeps-gradient", "ppo") == "0"
    assert value("objectives-gppo-same-value") == pytest.approx(1.28)
    # CE-GPPO, A = -1, r = 0.5 < 0.8: w = beta1 (1 - 0.2) A = 0.75 x 0.8 x (-1) = -0.6 (GPPO: -0.8)
    assert value("objectives-ce-gppo-low-side") == pytest.approx(-0.6)
    assert value("objectives-ce-gppo-high-side") == pytest.approx(1.28)  # beta2 = 1
    # DPPO-TV, pi_old = 0.2, r = 1.5: pi - pi_old = 0.1 <= 0.15, kept: w = min(r, c) A = 1.5
    assert value("clipping-dppo-tv-kept") == pytest.approx(1.5)
    # rare token pi_old = 0.01, r = 5: shift 0.04 <= 0.15; binary KL 0.01 ln 0.2 + 0.99 ln(0.99/0.95) = 0.0247
    # <= 0.05: both keep w = 5
    assert value("clipping-dppo-rare-token") == pytest.approx(5.0)
    assert float(fact("clipping-dppo-rare-token", "kl")) == pytest.approx(5.0)
    # DPPO-KL, A = -1, r = 2: the move is against the push, kept: w = min(r, c) A = -2
    assert value("clipping-dppo-kl-against-the-push") == pytest.approx(-2.0)
    # KL-Cov, the top token: w = r A - coef sign(l) = 1.5 - 1 = 0.5 and -0.5 + 1 = 0.5
    assert value("objectives-kl-cov-pull") == pytest.approx(0.5)
    assert value("objectives-kl-cov-negative") == pytest.approx(0.5)
    # VESPO: phi(2) = e^3 2^2 e^-6 = 4 e^-3; on-policy w = phi(1) A = 0.5
    assert value("objectives-vespo-weight") == pytest.approx(4 * math.exp(-3))
    assert value("objectives-vespo-on-policy") == pytest.approx(0.5)
    # LUSPO, lengths 2 and 8: totals 2/B : 8/B = 4; GSPO 1 : 1; its ratio s = sqrt(0.5 x 2) = 1
    assert value("aggregation-luspo-long-response") == pytest.approx(4.0)
    assert fact("aggregation-luspo-long-response", "gspo") == "1"
    assert value("objectives-luspo-sequence-ratio") == pytest.approx(1.0)
    # M2PO, one pushed token: (ln 1.5)^2 = 0.164 > 0.04, masked; ln(1.1)^2 = 0.0091 kept: w = 1.1;
    # A = -1 at r = 1.5 is never masked: w = r A = -1.5
    assert value("clipping-m2po-lone-token") == 0.0
    assert float(fact("clipping-m2po-lone-token", "kept")) == pytest.approx(1.1)
    assert value("clipping-m2po-against-the-push") == pytest.approx(-1.5)


def test_hand_values_of_the_verl_objectives():
    # GPG: w = A = 1 at r = 3, where PPO's clip gives 0
    assert value("objectives-gpg-no-clip") == pytest.approx(1.0)
    assert fact("objectives-gpg-no-clip", "ppo") == "0"
    # DRO (beta = 1): w = A - beta log r = 1 - log 2 = 0.3069; A = 0.5 at r = 3: 0.5 - log 3 = -0.5986 (pulled back)
    assert value("objectives-dro-gradient") == pytest.approx(1 - math.log(2))
    assert value("objectives-dro-pulls-back") == pytest.approx(0.5 - math.log(3))
    # DRO's J = A - (beta / 2)(log r)^2 = 1 - (log 2)^2 / 2 = 0.7598
    assert value("objectives-dro-objective") == pytest.approx(1 - math.log(2) ** 2 / 2)
    # bypass REINFORCE (C = 2): w = min(3, 2) * 1 = 2; below the band min(0.5, 2) * (-1) = -0.5, PPO 0
    assert value("objectives-bypass-capped-weight") == pytest.approx(2.0)
    assert value("objectives-bypass-below-band") == pytest.approx(-0.5)
    assert fact("objectives-bypass-below-band", "ppo") == "0"
