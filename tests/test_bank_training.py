"""The training topics of the interview bank (advantages, KL, length, sampling, MoE): hand values for
the numeric questions, the size of the data files, and answer functions that name a bad argument.

Every expected number is worked out by hand from the formula in the comment beside it, independently
of rlviz; tests/test_bank.py checks that every question and claim computes and formats."""

from __future__ import annotations

import math
import statistics
import tomllib
from collections import Counter

import pytest

from rlviz.teach import answers
from rlviz.teach.bank import BANK_DIR, load_bank

BANK = load_bank()
TOPICS = ("advantages", "kl", "length", "sampling", "moe")


def value(qid: str) -> float:
    return BANK.question(qid).compute()


def fact(qid: str, name: str) -> str:
    return BANK.question(qid).fields()[name]


def test_the_data_files_cover_every_training_topic():
    data = tomllib.loads((BANK_DIR / "training.toml").read_text(encoding="utf-8"))
    questions = data["question"]
    assert len(questions) >= 60
    per_topic = Counter(q["topic"] for q in questions)
    assert set(per_topic) == set(TOPICS) and min(per_topic.values()) >= 10
    assert sum(q["kind"] == "number" for q in questions) * 2 >= len(questions)
    assert all(q["id"].startswith(q["topic"] + "-") for q in questions)
    assert all(q["answer"].startswith("tr_") for q in questions if q["kind"] == "number")
    claims = tomllib.loads((BANK_DIR / "claims.toml").read_text(encoding="utf-8"))["claim"]
    assert len(claims) >= 16 and {c["topic"] for c in claims} == set(TOPICS)
    assert all(c["source"].strip() for c in claims)


def test_advantages_by_hand():
    # rewards 1,0,0,0: mean 0.25, unbiased std sqrt((0.75² + 3·0.25²) / 3) = 0.5; A = 0.75 / (0.5 + 1e-6)
    assert value("advantages-zscore-right") == pytest.approx(0.75 / (0.5 + 1e-6))
    assert float(fact("advantages-zscore-right", "wrong")) == pytest.approx(-0.5, abs=1e-4)  # -0.25 / 0.5
    # Dr.GRPO: A = R - mean = 1 - 0.25
    assert value("advantages-dr-grpo") == pytest.approx(0.75)
    # 1 of 8: mean 1/8, std sqrt((0.875² + 7·0.125²) / 7) = sqrt(0.125); A = 0.875 / (sqrt(0.125) + 1e-6)
    assert value("advantages-lone-right") == pytest.approx(0.875 / (math.sqrt(0.125) + 1e-6))
    # Σ|A| of 1-of-8 over Σ|A| of 4-of-8, GRPO: (1.75 / sqrt(1/8)) / (4 / sqrt(2/7)); Dr.GRPO: 1.75 / 4
    grpo = (1.75 / math.sqrt(1 / 8)) / (4 / math.sqrt(2 / 7))
    assert value("advantages-difficulty-groups") == pytest.approx(grpo, rel=1e-4)
    assert fact("advantages-difficulty-groups", "none") == "0.4375"
    # Optimal Token Baseline, w = 1 - 2 pi + Σπ²: first tokens w = 0.5, 1 - 1.6 + 0.68 = 0.08, 1 - 0.5 + 0.25 = 0.75
    # B_1 = (0 * 0.5 + 1 * 0.08 + 1 * 0.75) / (0.5 + 0.08 + 0.75) = 0.83 / 1.33; second token W = 1.0, 0.98:
    # B_2 = 0.98 / 1.98; third token: only the longest response, handle_zero_tail -> 0
    assert value("advantages-otb-baseline") == pytest.approx(0.83 / 1.33, abs=1e-7)
    assert float(fact("advantages-otb-baseline", "second")) == pytest.approx(0.98 / 1.98, abs=1e-5)
    assert fact("advantages-otb-baseline", "tail") == "0"
    # two right responses share B_2: w = 1 - 1.8 + 0.82 = 0.02 twice (first), 1 - 0.4 + 0.3 = 0.9 then 1 - 0.6 + 0.3
    # = 0.7 (second), 0.5 twice (third) -> W_2 = 0.04, 1.6, 1.0; B_2 = (0.04 + 1.6) / 2.64; both get 1 - B_2
    assert value("advantages-otb-shared-baseline") == "same"
    assert float(fact("advantages-otb-shared-baseline", "baseline")) == pytest.approx(1.64 / 2.64, abs=1e-5)


def test_gae_by_hand():
    # rewards 0,0,1, values 0.5,0.6,0.8, gamma 1: deltas 0.1, 0.2, 0.2 (V = 0 after the last token)
    assert value("advantages-gae-monte-carlo") == pytest.approx(0.5)  # λ=1: return 1 - V(s0) 0.5
    assert value("advantages-gae-td") == pytest.approx(0.1)  # λ=0: δ0 = 0 + 0.6 - 0.5
    a1 = 0.2 + 0.95 * 0.2  # A1 = δ1 + γλ A2
    assert value("advantages-gae-lambda") == pytest.approx(0.1 + 0.95 * a1)  # A0 = 0.4705
    assert fact("advantages-gae-lambda", "ret") == "0.9705"  # A0 + V(s0)


def test_kl_by_hand():
    assert value("kl-k1-value") == pytest.approx(-0.5)  # k1 = x
    assert value("kl-k3-value") == pytest.approx(math.exp(-0.5) + 0.5 - 1)  # k3 = e^-x + x - 1
    assert value("kl-k3-gradient") == pytest.approx(1 - math.e)  # d k3 / dx = 1 - e^-x at x = -1
    assert value("kl-k2-gradient") == pytest.approx(-1.0)  # d k2 / dx = x
    assert value("kl-k1-gradient") == pytest.approx(1.0)  # d k1 / dx = 1
    # p = (0.7, 0.2, 0.1), q = (0.4, 0.4, 0.2): KL = Σ p log(p/q)
    p, q = (0.7, 0.2, 0.1), (0.4, 0.4, 0.2)
    kl = sum(a * math.log(a / b) for a, b in zip(p, q))
    assert value("kl-k3-expectation") == pytest.approx(kl)
    # d KL / d logit_0 = p0 (log(p0/q0) - KL); the k3 loss term's expectation: p0 - q0; k1's: 0
    true = p[0] * (math.log(p[0] / q[0]) - kl)
    assert value("kl-k2-loss-gradient") == pytest.approx(true)
    assert value("kl-k3-loss-gradient") == pytest.approx(p[0] - q[0])
    assert value("kl-k1-loss-gradient") == 0.0
    # KL in the reward: R_i = 1 - 0.04 Σ_t k3(x_t), then (R - mean) / (unbiased std + 1e-6)
    k3 = lambda x: math.exp(-x) + x - 1  # noqa: E731
    xs = [[0.1, 0.2], [0.0, 0.0], [0.3, -0.1], [0.5, 0.4]]
    r = [1 - 0.04 * sum(k3(x) for x in row) for row in xs]
    expected = (r[3] - statistics.mean(r)) / (statistics.stdev(r) + 1e-6)
    assert value("kl-in-reward-advantage") == pytest.approx(expected, rel=1e-6)
    assert value("kl-grpo-beta") == pytest.approx(0.04)  # DeepSeekMath §4.2


def test_length_by_hand():
    assert value("length-dapo-ramp") == pytest.approx(-(14 - 8) / 8)  # -(L - (Lmax - Lcache)) / Lcache
    assert value("length-dapo-paper") == pytest.approx(-(18432 - 16384) / 4096)
    assert value("length-dapo-free") == 12  # Lmax - Lcache = 16 - 4
    assert value("length-dapo-factor") == pytest.approx(-0.5 * (12 - 8) / 8)
    assert value("length-dapo-right-reward") == pytest.approx(1 - (15 - 8) / 8)  # task 1 + penalty
    assert value("length-filter-share") == pytest.approx((4 + 9) / (4 + 16 + 9 + 16))
    assert value("length-kimi-short-right") == pytest.approx(0.5)  # 0.5 - (4 - 4) / (12 - 4)
    assert value("length-kimi-short-wrong") == 0.0  # min(0, 0.5)
    # cosine: rL + (r0 - rL)(1 + cos(πL/T)) / 2
    assert value("length-cosine-right") == pytest.approx(1 + (2 - 1) * (1 + math.cos(math.pi / 2)) / 2)
    assert value("length-cosine-wrong") == pytest.approx(-10 * (1 + math.cos(math.pi / 4)) / 2, rel=1e-6)
    # rewards 1 + penalty of lengths 6,10,14,16 (Lmax 16, Lcache 8): 1, 0.75, 0.25, 0; z-score of the last
    r = [1.0, 0.75, 0.25, 0.0]
    expected = (r[3] - statistics.mean(r)) / (statistics.stdev(r) + 1e-6)
    assert value("length-dapo-advantage") == pytest.approx(expected)


def test_sampling_by_hand():
    assert value("sampling-signal-half") == pytest.approx(1 - 2 * 0.5**8, rel=1e-6)  # 1 - p^G - (1-p)^G
    assert value("sampling-signal-hard") == pytest.approx(1 - 0.95**8 - 0.05**8, rel=1e-6)
    assert value("sampling-zero-share-easy") == pytest.approx(0.9**4 + 0.1**4, rel=1e-6)
    # smallest G with 1 - 0.95^G - 0.05^G >= 0.5: 0.95^13 = 0.513, 0.95^14 = 0.488
    assert value("sampling-min-group-size") == 14
    assert value("sampling-beta-uniform") == pytest.approx(7 / 9)  # (G - 1) / (G + 1)
    assert value("sampling-mixture") == pytest.approx(0.4 * (1 - 2 * 0.5**8))  # only p = 0.5 mixes
    assert value("sampling-filter-only") == pytest.approx(16 * 0.4)  # one round: n q
    assert value("sampling-informative-count") == 1  # only the 1-of-4 group is not all-equal


def test_moe_by_hand():
    # top-2 of logits 2, 1, 0.5, -1 renormalised: e² / (e² + e¹)
    assert value("moe-gate-weight") == pytest.approx(1 / (1 + math.exp(-1)), rel=1e-6)
    raw = math.exp(2) / sum(math.exp(z) for z in (2, 1, 0.5, -1))  # plain softmax
    assert float(fact("moe-gate-weight", "raw")) == pytest.approx(raw, abs=1e-4)
    assert value("moe-route-change-share") == pytest.approx(2 / 4)  # tokens 3 and 4; 1 and 2 only reorder
    assert value("moe-token-ratio") == pytest.approx(math.e)  # exp(δ)
    assert value("moe-sequence-ratio") == pytest.approx(math.exp(1 / 100))  # exp(δ / |y|)
    assert value("moe-grpo-clip-fraction") == pytest.approx(1 / 10)  # one token of ten above 1 + ε
    assert fact("moe-grpo-clip-fraction", "gspo") == "1"  # log s = 0.1 > log(1 + 4e-4): all clipped
    assert value("moe-expert-load") == pytest.approx(3 / 8)  # expert 0 in 3 of 8 (token, slot) pairs
    # Switch loss E Σ f_i P_i, f per slot: balanced f = 1/2, P = 1/4 for each of 4 experts -> 4·4·(1/8) = k
    assert value("moe-balance-loss-balanced") == pytest.approx(2.0, abs=1e-4)
    # near-uniform P = softmax(0.01, 0.01, 0, 0), f = (1, 1, 0, 0): 4 · 2 · P_0
    p0 = math.exp(0.01) / (2 * math.exp(0.01) + 2)
    assert value("moe-balance-loss-blind") == pytest.approx(8 * p0, rel=1e-5)


@pytest.mark.parametrize(
    ("name", "args", "named"),
    [
        ("tr_group_advantage", {"rewards": [1, 0], "index": 5}, "index"),
        ("tr_group_advantage", {"rewards": [[1, 0], [1]], "index": 0}, "rewards"),
        ("tr_kl_expected", {"probs": [0.5, 0.6], "ref_probs": [0.5, 0.5], "estimator": "k1"}, "probs"),
        ("tr_kl_loss_gradient", {"probs": [0.5, 0.5], "ref_probs": [0.5, 0.5], "estimator": "k4"}, "estimator"),
        ("tr_min_group_size", {"pass_rate": 0.0, "target": 0.5}, "target"),
        (
            "tr_fill_cost",
            {"signal_prob": 0.5, "prompts_per_round": 4, "target_groups": 4, "group_size": 2, "field": "x"},
            "field",
        ),
        ("tr_setting_name", {"algorithm": "grpo", "setting": "beta", "framework": "openrlhf"}, "framework"),
        ("tr_setting_name", {"algorithm": "dapo", "setting": "overlong_filtering", "framework": "verl"}, "framework"),
        ("tr_kimi_reward", {"lengths": [1, 2], "correct": [1, 2], "index": 0}, "correct"),
        ("tr_dapo_reward", {"length": 3, "correct": 2, "max_length": 8, "buffer_length": 4}, "correct"),
        ("tr_route_change_share", {"before": [[0, 1]], "after": [[0, 1], [2, 3]]}, "after"),
        ("tr_gae_advantage", {"rewards": [0, 1], "values": [0.5]}, "values"),
        ("tr_mass_ratio", {"pass_rate": 0.5, "reference_rate": 0.0, "group_size": 4}, "reference_rate"),
        ("tr_otb_baseline", {"rewards": [1, 0], "probs": [[0.5]], "sum_pi_squared": [[0.5]], "token": 0}, "probs"),
        (
            "tr_otb_baseline",
            {"rewards": [1, 0], "probs": [[0.5], [1.5]], "sum_pi_squared": [[0.5], [0.5]], "token": 0},
            "probs",
        ),
        (
            "tr_otb_baseline",
            {"rewards": [1, 0], "probs": [[0.5], [0.5]], "sum_pi_squared": [[0.5], [0.5]], "token": 3},
            "token",
        ),
        (
            "tr_otb_larger",
            {
                "rewards": [1, 0],
                "probs": [[0.5], [0.5, 0.5]],
                "sum_pi_squared": [[0.5], [0.5, 0.5]],
                "first": 0,
                "second": 1,
                "token": 1,
            },
            "first",  # the first response ends before the token asked about
        ),
    ],
)
def test_bad_arguments_name_the_parameter(name, args, named):
    with pytest.raises(ValueError, match=f"^{named}:"):
        answers.compute(name, args)
