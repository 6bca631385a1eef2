"""Interview questions on GPG, OPO and Pass@k advantages and the cap shares of truncated IS
(rlviz/teach/bank/estimators.toml): hand values with the formula beside each, at least two questions per
estimator, and bad input naming the parameter."""

from __future__ import annotations

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
