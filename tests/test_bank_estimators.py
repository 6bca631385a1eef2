"""Interview questions on GPG, OPO and Pass@k advantages, the cap shares of truncated IS, and the
rollout-correction entries of issue 43 (seq_ratio_rs, k3_rs, the presets) (rlviz/teach/bank/estimators.toml):
hand values with the formula beside each, at least two questions per estimator or entry, and bad input naming
the parameter."""

from __future__ import annotations

import math

import pytest

from rlviz.teach import answers
from rlviz.teach.bank import load_bank

BANK = load_bank()
MINE = [q for q in BANK.questions if q.answer_fn and q.answer_fn.startswith(("est_", "is_cap"))]


def value(qid: str) -> float:
    return BANK.question(qid).compute()


def test_hand_values():
    # GPG: alpha = B / #non-zero rewards = 8 / 1 = 8 with an all-wrong group, 8 / 5 = 1.6 with an all-right one
    assert value("advantages-gpg-scale-hard-batch") == pytest.approx(8.0)
    assert value("advantages-gpg-scale-solved-group") == pytest.approx(1.6)
    # ... and the right answer's advantage alpha (1 - 1/4) = 6
    assert answers.compute(
        "est_advantage", {"estimator": "gpg", "rewards": [[1, 0, 0, 0], [0, 0, 0, 0]], "index": 0}
    ) == (pytest.approx(6.0))
    # OPO: (10 x 1 + 30 x 0 + 20 x 0 + 40 x 0) / (10 + 30 + 20 + 40) = 0.1; both wrong answers get 0 - 0.1
    assert value("advantages-opo-baseline") == pytest.approx(0.1)
    assert value("advantages-opo-long-wrong") == "same"
    # Pass@k: (1 - 0) / (std(1, 0, 0, 0; ddof 1) = 0.5 + 1e-6) = 1.999996; a tie at the top gives 0
    assert value("advantages-passk-lone-right") == pytest.approx(1 / (0.5 + 1e-6))
    assert value("advantages-passk-two-right") == "zero"
    # token TIS at C = 2 over ratios (2.5, 1.2, 0.8, 3.0), (1.1, 0.9), (1.5, 1.4, 1.3): 2 of 9 tokens above C
    assert value("clipping-tis-cap-share-tokens") == pytest.approx(2 / 9)
    # sequence TIS: products 7.2, 0.99, 2.73 -> 2 of 3 responses (4 + 3 = 7 of 9 tokens) above C = 2
    assert value("clipping-tis-cap-share-sequences") == pytest.approx(2 / 3)
    assert BANK.question("clipping-tis-cap-share-sequences").fields()["tokens"] == "0.77778"


def test_two_questions_per_new_estimator():
    about = {}
    for q in MINE:
        estimator = q.args.get("estimator") or {"est_gpg_scale": "gpg", "est_opo_baseline": "opo"}.get(
            q.answer_fn, "grpo_passk" if q.answer_fn == "est_passk_advantage" else "is"
        )
        about[estimator] = about.get(estimator, 0) + 1
    assert all(about.get(name, 0) >= 2 for name in ("gpg", "opo", "grpo_passk", "is")), about


@pytest.mark.parametrize(
    "name, args, param",
    [
        ("est_gpg_scale", {"rewards": [[1, 1], [0, 0]]}, "rewards"),  # no response off its group mean
        ("est_advantage", {"estimator": "opo", "rewards": [1, 0], "index": 0, "lengths": [1, 2, 3]}, "lengths"),
        ("est_advantage", {"estimator": "nope", "rewards": [1, 0], "index": 0}, "adv_estimator"),
        ("est_passk_advantage", {"rewards": [1, 0], "index": 2}, "index"),
        ("is_cap_share", {"ratios": [[1.0, -2.0]]}, "ratios"),
        ("is_cap_share", {"ratios": [[1.0]], "share": "all"}, "share"),
        ("is_cap_share", {"ratios": [[1.0]], "correction": "token_mis"}, "correction"),
    ],
)
def test_bad_input_names_the_parameter(name, args, param):
    with pytest.raises(ValueError, match=f"^{param}"):
        answers.compute(name, args)


# ---------------------------------------------------------------------------- rollout-correction entries
RS = [q for q in BANK.questions if q.answer_fn and q.answer_fn.startswith(("rs_", "preset_"))]


def test_rejection_filter_and_preset_hand_values():
    # k3 = e^l - 1 - l: (0.005171 + 0.018731 + 0.001271 + 0.011834) / 4 = 0.0092518 <= 0.01 -> kept (weight 1)
    assert value("clipping-k3-rs-mean") == pytest.approx(0.0092518, abs=1e-6)
    assert BANK.question("clipping-k3-rs-mean").fields()["weight"] == "1"
    # (0.01 x 4): mean k3 = e^0.01 - 1.01 = 5.0167e-05, kept; (+-0.3): ((e^0.3 - 1.3) + (e^-0.3 - 0.7)) / 2
    # = (0.049859 + 0.040818) / 2 = 0.045339 > 0.01, rejected. Geo-RS: e^-0.01 = 0.99005 < 0.999 rejects the
    # first, e^0 = 1 keeps the second
    assert value("clipping-k3-rs-which") == "second"
    facts = BANK.question("clipping-k3-rs-which").fields()
    assert (facts["k3_first"], facts["k3_second"], facts["geo_first"]) == ("5.0167e-05", "0.045339", "0.99005")
    assert (
        answers.compute(
            "rs_which_rejected", {"correction": "geo_mean_rs", "log_ratios": [[0.01] * 4, [0.3, -0.3, 0.3, -0.3]]}
        )
        == "first"
    )
    # seq_sum_k1: pi_rollout / pi_train = 1 / (0.8 x 0.6 x 0.9) = 1 / 0.432 = 2.3148 > 2 -> weight 0
    assert value("clipping-seq-ratio-rs-value") == pytest.approx(1 / 0.432)
    assert BANK.question("clipping-seq-ratio-rs-value").fields()["weight"] == "0"
    # 1 / (2.5 x 0.5 x 1.2) = 1 / 1.5 = 0.66667 in [0.5, 2] -> kept
    assert value("clipping-seq-ratio-rs-cancel") == "kept"
    # Geo-RS: e^-0.0008 = 0.9992 in [0.999, 1.001], kept; Seq-TIS: min(e^(500 x 0.0008) = e^0.4 = 1.4918, 2);
    # over 1000 tokens e^0.8 = 2.2255 -> the cap 2
    assert value("clipping-preset-geo-rs-seq-tis") == pytest.approx(math.exp(0.4))
    assert BANK.question("clipping-preset-geo-rs-seq-tis").fields()["long"] == "2"
    # Seq-MIS: 1.5 x 1.2 x 1.25 = 2.25, pi_rollout / pi_old = 0.44444 < 0.5 -> 0; Seq-TIS alone min(2.25, 2) = 2;
    # inside the band (1.5 x 1.2 x 1.0 = 1.8) the weight is the ratio itself
    assert value("clipping-preset-seq-is-rs-reject") == 0.0
    assert BANK.question("clipping-preset-seq-is-rs-reject").fields()["tis"] == "2"
    assert answers.compute(
        "preset_weight", {"preset": "decoupled_seq_is_rs", "ratios": [1.5, 1.2, 1.0]}
    ) == pytest.approx(1.8)


def test_two_questions_per_new_correction_entry():
    about = {}
    for q in RS:
        entry = "presets" if q.answer_fn.startswith("preset_") else q.args["correction"]
        about[entry] = about.get(entry, 0) + 1
    assert all(about.get(name, 0) >= 2 for name in ("k3_rs", "seq_ratio_rs", "presets")), about


@pytest.mark.parametrize(
    "name, args, param",
    [
        ("rs_statistic", {"correction": "k3_rs"}, "log_ratios"),  # neither log_ratios nor ratios
        ("rs_statistic", {"correction": "k3_rs", "log_ratios": [0.1], "ratios": [1.1]}, "log_ratios"),  # both
        ("rs_statistic", {"correction": "token_tis", "ratios": [1.1]}, "correction"),  # no per-response value
        ("rs_weight", {"correction": "seq_ratio_rs", "ratios": [1.0, 0.0]}, "ratios"),
        ("rs_verdict", {"correction": "k3_rs", "log_ratios": [0.1, float("nan")]}, "log_ratios"),
        ("rs_which_rejected", {"correction": "k3_rs", "log_ratios": [[0.1]]}, "log_ratios"),  # one response
        ("preset_weight", {"preset": "nope", "ratios": [1.0]}, "preset"),
        ("preset_weight", {"preset": "decoupled_seq_is", "ratios": [1.0], "repeat": 0}, "repeat"),
        ("preset_weight", {"preset": "decoupled_seq_is", "ratios": [1.0], "token": 1}, "token"),
        ("rs_band", {"correction": "k3_rs", "side": "low"}, "side"),  # K3-RS has no lower end
        ("preset_band", {"preset": "decoupled_k3_rs", "part": "both"}, "part"),
    ],
)
def test_rejection_filter_bad_input_names_the_parameter(name, args, param):
    with pytest.raises(ValueError, match=f"^{param}"):
        answers.compute(name, args)
