"""Skywork-OR1's adaptive entropy control (``rlviz.core.entropy_control``, ``TrainConfig.entropy_target``):
the update by hand, the authors' own ``EntController`` (``rlviz/data/parity/skywork_or1.json``), the
trainer's use of it, the CLI and the export."""

from __future__ import annotations

import copy
import json
import math

import pytest
import torch

from rlviz.cli import main as cli_main
from rlviz.core.entropy_control import adaptive_entropy_trajectory, adaptive_entropy_update, entropy_bonus
from rlviz.core.parity import PARITY_DIR
from rlviz.lm.model import load_policy
from rlviz.lm.trainer import TrainConfig, Trainer
from rlviz.teach.export import export_config

SMALL = dict(prompts_per_step=2, group_size=2, mu=1, mini_batches=1, max_new_tokens=6)


def test_update_by_hand_over_four_steps():
    # H_tgt = 0.5, delta = 0.1, bounds [0, 0.15], alpha_0 = 0.
    # e_1 = 0.4 < 0.5: alpha_1 = clip(0 + 0.1) = 0.1, on
    # e_2 = 0.3 < 0.5: alpha_2 = clip(0.1 + 0.1 = 0.2) = 0.15 (the cap), on
    # e_3 = 0.5, not < 0.5: alpha_3 = clip(0.15 - 0.1) = 0.05, off (strict comparison, the authors')
    # e_4 = 0.7: alpha_4 = clip(0.05 - 0.1 = -0.05) = 0 (the floor), off
    got = adaptive_entropy_trajectory([0.4, 0.3, 0.5, 0.7], target=0.5, delta=0.1, coef0=0.0, coef_max=0.15)
    assert [a for a, _ in got] == pytest.approx([0.1, 0.15, 0.05, 0.0], abs=1e-15)
    assert [on for _, on in got] == [True, True, False, False]
    assert adaptive_entropy_update(0.2, 0.1, 0.5, 0.1, coef_min=0.25, coef_max=1.0) == pytest.approx((0.3, True))


def test_matches_the_authors_controller():
    doc = json.loads((PARITY_DIR / "skywork_or1.json").read_text(encoding="utf-8"))
    assert doc["repository"] == "SkyworkAI/Skywork-OR1" and len(doc["commit"]) == 40
    assert "EntController.update" in doc["function"]
    for case in doc["cases"]:
        s = case["settings"]
        got = adaptive_entropy_trajectory(
            case["entropy"],
            target=s["target_ent"],
            delta=s["delta_ent_coef"],
            coef0=s["init_ent_coef"],
            coef_min=s["min_ent_coef"],
            coef_max=s["max_ent_coef"],
        )
        assert [a for a, _ in got] == pytest.approx(case["coef"], abs=1e-12), case["id"]
        assert [on for _, on in got] == case["active"], case["id"]
        assert case["initial"]["active"] is True  # the authors' controller starts with the bonus on
    # the vectors reach both bounds and both gates, so a wrong clip or comparison fails here
    first = doc["cases"][0]
    assert 0.0 in first["coef"] and first["settings"]["max_ent_coef"] in first["coef"]
    assert set(first["active"]) == {True, False}


def test_entropy_bonus_by_hand():
    # H = [[1, 2, pad], [3, pad, pad]] (the padding holds NaN and 9: never read), coef 0.1:
    # token-mean: 0.1 * (1 + 2 + 3) / 3 = 0.2; seq-mean-token-mean: 0.1 * ((1 + 2) / 2 + 3) / 2 = 0.225;
    # seq-mean-token-sum-norm, norm_length 4: 0.1 * (3 + 3) / (2 * 4) = 0.075 (verl's ppo_loss, agg_loss)
    h = torch.tensor([[1.0, 2.0, math.nan], [3.0, 9.0, 9.0]], dtype=torch.float64, requires_grad=True)
    mask = torch.tensor([[1.0, 1.0, 0.0], [1.0, 0.0, 0.0]], dtype=torch.float64)
    assert entropy_bonus(h, mask, 0.1, "token-mean").item() == pytest.approx(0.2, abs=1e-15)
    assert entropy_bonus(h, mask, 0.1, "seq-mean-token-mean").item() == pytest.approx(0.225, abs=1e-15)
    bonus = entropy_bonus(h, mask, 0.1, "seq-mean-token-sum-norm", norm_length=4)
    assert bonus.item() == pytest.approx(0.075, abs=1e-15)
    (grad,) = torch.autograd.grad(bonus, h)  # 0.1 / 8 per real token, 0 at padding
    assert grad.flatten().tolist() == pytest.approx([0.0125, 0.0125, 0.0, 0.0125, 0.0, 0.0], abs=1e-15)
    for coef in (-0.1, math.inf, True):
        with pytest.raises(ValueError, match="entropy_coef"):
            entropy_bonus(h, mask, coef, "token-mean")


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("entropy_target", -0.1),
        ("entropy_target", math.nan),
        ("entropy_coef_delta", 0.0),
        ("entropy_coef_min", -1.0),
        ("entropy_coef_max", math.inf),
    ],
)
def test_bad_settings_name_the_parameter(field, value):
    with pytest.raises(ValueError, match=field):
        TrainConfig(**{"entropy_target": 0.5, field: value}).validate()
    with pytest.raises(ValueError, match="entropy_coef_max"):
        TrainConfig(entropy_target=0.5, entropy_coef_min=0.2, entropy_coef_max=0.1).validate()
    with pytest.raises(ValueError, match="entropy"):
        adaptive_entropy_update(0.0, math.nan, 0.5, 0.1)


def test_a_start_outside_the_bounds_is_refused_with_a_target_only():
    """TRL clips only on the side it moves toward, the authors on both: from alpha_0 = 0.5 with max 0.1 the two
    runs differ (0.49, 0.48, ... against 0.1, 0.09), so rlviz refuses that start when a target is set; without a
    target the coefficient is a constant bonus and no bound applies."""
    with pytest.raises(ValueError, match=r"entropy_coef: .*\[0, 0.1\]"):
        TrainConfig(entropy_target=0.5, entropy_coef=0.5, entropy_coef_max=0.1).validate()
    with pytest.raises(ValueError, match="entropy_coef"):
        TrainConfig(entropy_target=0.5, entropy_coef=0.01, entropy_coef_min=0.02).validate()
    TrainConfig(entropy_target=0.5, entropy_coef=0.1, entropy_coef_max=0.1).validate()  # on the bound: accepted
    TrainConfig(entropy_coef=0.5, entropy_coef_max=0.1).validate()  # no target: a constant bonus, no bounds


@pytest.fixture(scope="module")
def policy():
    return load_policy(device="cpu")


def _trainer(policy, **kw):
    model, tok = policy
    return Trainer(TrainConfig(algorithm="grpo", seed=3, **{**SMALL, **kw}), copy.deepcopy(model), tok)


def test_trainer_applies_and_logs_the_controller(policy):
    # A target above any entropy of this model (5 nats; its entropy is ~0.6): every step is below it.
    # Step 1 uses alpha_0 = 0.3 with the bonus on (the authors' start): the same gradient as a constant
    # 0.3, another than without the bonus (the "loss" metric is the policy loss alone).
    adaptive = _trainer(policy, entropy_coef=0.3, entropy_target=5.0, entropy_coef_delta=0.25, entropy_coef_max=0.6)
    constant = _trainer(policy, entropy_coef=0.3)
    plain = _trainer(policy)
    a, c, p = adaptive.step(), constant.step(), plain.step()
    assert a["grad_norm"] == pytest.approx(c["grad_norm"], rel=1e-6)
    assert abs(a["grad_norm"] - p["grad_norm"]) > 1e-3 * max(p["grad_norm"], 1e-3)
    assert (a["entropy_coef"], a["entropy_bonus_active"]) == (0.3, 1.0)
    assert (c["entropy_coef"], c["entropy_bonus_active"], p["entropy_bonus_active"]) == (0.3, 1.0, 0.0)
    # the controller's entropy: -mean log pi_old over the response tokens, in nats
    assert 0.1 < a["entropy_sampled"] < 5.0
    # step 2 uses 0.3 + 0.25 = 0.55; after it, step 3 would use 0.55 + 0.25 = 0.8, capped at 0.6
    assert adaptive.step()["entropy_coef"] == pytest.approx(0.55)
    assert adaptive.entropy_weight() == pytest.approx(0.6)


def test_cli_rejects_a_bad_target(capsys):
    assert cli_main(["compare", "--steps", "1", "--entropy-target", "-1"]) == 2
    assert "entropy_target" in capsys.readouterr().err


def test_export_trl_has_it_and_verl_says_it_has_none():
    out = export_config("dapo", train_config={"entropy_target": 0.75, "entropy_coef_delta": 0.005})
    assert out.trl["use_adaptive_entropy"] is True and out.trl["entropy_target"] == 0.75
    # TRL's own defaults differ (delta 0.005, max 1.0): the export writes rlviz's bounds
    assert (out.trl["entropy_coef_delta"], out.trl["entropy_coef_max"]) == (0.005, 0.5)
    assert not any("entropy" in key or "ent_coef" in key for key in out.verl)
    assert out.unmapped["verl"]["entropy_target"] == 0.75
    assert any(n["framework"] == "verl" and "adaptive_entropy" in n["en"] for n in out.notes)
    assert "entropy_target" not in export_config("dapo", train_config={"entropy_coef": 0.01}).trl
