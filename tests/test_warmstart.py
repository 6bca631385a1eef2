"""The "Why SFT before RL?" experiment (rlviz.experiments.warmstart) on tiny sizes: the group split by hand,
the measurement of both starts, the run's arms and numbers, the questions' answers and the bank's answer
functions by hand, and bad input naming its parameter."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pandas as pd
import pytest
import torch
from apptools import torch_threads

from rlviz.experiments import warmstart as X
from rlviz.i18n import t
from rlviz.lm.tasks import TASKS
from rlviz.teach import answers
from rlviz.teach.predict import PREDICTIONS


@pytest.fixture(scope="module", autouse=True)
def _one_thread():
    with torch_threads(1):
        yield


def test_the_two_starts_come_from_the_task_registry():
    spec = TASKS["reversed_addition"]
    assert X.start_dirs() == {"warm": spec.model_dir, "weak": spec.weak_model_dir}
    assert X.start_steps() == {"warm": spec.pretrain_steps, "weak": spec.weak_pretrain_steps}
    assert X.warm_tasks() == ("reversed_addition",)  # make_sum ships no weak start
    with pytest.raises(ValueError, match="^task: 'make_sum' ships no weak warm start"):
        X.start_dirs("make_sum")
    with pytest.raises(ValueError, match="^task"):
        X.WarmStartConfig(task="make_sum").validate()


def test_group_outcomes_by_hand():
    # two prompts x 4 answers; groups of 2: [1,1] [0,0] | [1,0] [0,0] -> 1 all right, 2 all wrong, 1 mixed;
    # groups of 4: [1,1,0,0] mixed, [1,0,0,0] mixed
    rewards = torch.tensor([[1.0, 1.0, 0.0, 0.0], [1.0, 0.0, 0.0, 0.0]])
    assert X.group_outcomes(rewards, 2) == {"all_wrong": 2, "mixed": 1, "all_correct": 1}
    assert X.group_outcomes(rewards, 4) == {"all_wrong": 0, "mixed": 2, "all_correct": 0}
    with pytest.raises(ValueError, match="^group_size: 3 does not divide"):
        X.group_outcomes(rewards, 3)
    with pytest.raises(ValueError, match="^rewards"):
        X.group_outcomes(rewards[0], 2)


@pytest.fixture(scope="module")
def measured():
    return X.measure_starts(n_prompts=3, samples=4, group_sizes=(2, 4), seed=0, device="cpu")


def test_measure_starts_counts_real_groups(measured):
    o = measured.outcomes
    assert set(o["start"]) == set(X.ARMS) and measured.group_sizes == (2, 4)
    for (_start, G), part in o.groupby(["start", "group_size"]):
        assert part["groups"].sum() == 3 * 4 // G  # n S / G disjoint groups per start
        assert part["share"].sum() == pytest.approx(1.0)
    # the shares agree with the prompts' right answers: a prompt with k = 0 of 4 gives 2 all-wrong pairs
    p = measured.prompts
    assert len(p) == 6 and (p["samples"] == 4).all()
    for start in X.ARMS:
        k = p[p["start"] == start]["correct"]
        assert measured.pass_at_1(start) == pytest.approx(k.sum() / 12)  # right answers / (3 x 4)
        # groups of 4 are whole prompts: all wrong = prompts with k = 0, all right = prompts with k = 4
        assert measured.share(start, 4, "all_wrong") == pytest.approx((k == 0).mean())
        assert measured.share(start, 4, "all_correct") == pytest.approx((k == 4).mean())
    # both starts answered the same prompts
    assert p[p["start"] == "warm"]["prompt"].tolist() == p[p["start"] == "weak"]["prompt"].tolist()
    with pytest.raises(ValueError, match="^group_size: 8 was not measured"):
        measured.share("warm", 8, "mixed")


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({"n_prompts": 0}, "n_prompts"),
        ({"n_prompts": 2.5}, "n_prompts"),
        ({"samples": 1}, "samples"),
        ({"samples": 6, "group_sizes": (4,)}, "group_size"),
        ({"group_sizes": ()}, "group_size"),
        ({"temperature": float("nan")}, "temperature"),
        ({"temperature": 0.0}, "temperature"),
        ({"task": "make_sum"}, "task"),
    ],
)
def test_bad_measurement_settings_name_their_parameter(kwargs, name):
    with pytest.raises(ValueError, match=f"^{name}"):
        X.measure_starts(**kwargs)  # refused before any model is loaded


def test_the_first_question_reads_the_measurement(measured):
    state = X.question_state(measured, 2)
    zero = measured.share("weak", 2, "all_wrong") + measured.share("weak", 2, "all_correct")
    assert X.answer_zero(state) == pytest.approx(zero)
    p = measured.pass_at_1("weak")
    # a uniform pass rate p leaves p^G + (1 - p)^G of the groups of G = 2 all-equal
    assert X.explain_zero(state)["uniform"] == f"{p**2 + (1 - p) ** 2:.0%}"
    assert X.fields_zero(state) == {"G": "2", "n": "3", "S": "4"}


def test_the_caption_holds_the_weak_start_back(measured):
    held = X.measured_caption(measured, 2, "en", hold_weak=True)
    shown = X.measured_caption(measured, 2, "en", hold_weak=False)

    def shares(start):
        return {
            "wrong": f"{measured.share(start, 2, 'all_wrong'):.0%}",
            "mixed": f"{measured.share(start, 2, 'mixed'):.0%}",
            "right": f"{measured.share(start, 2, 'all_correct'):.0%}",
            "p": f"{measured.pass_at_1(start):.3f}",
        }

    assert held == t("warmstart.measured_warm", "en", G=2, n=3, S=4, **shares("warm"))  # the warm start alone
    assert shown.startswith(held + t("warmstart.measured_weak", "en", **shares("weak")))
    assert X.measured_caption(measured, 2, "zh", hold_weak=False) != shown


def _frame(rows):
    cols = ["arm", "step", "zero_adv_group_fraction", "pass_at_1", "grad_norm"]
    return pd.DataFrame(rows, columns=cols)


def test_run_numbers_by_hand():
    metrics = _frame(
        [
            ("warm", 1, 0.25, 0.5, 2.0),
            ("warm", 2, 0.5, 0.7, 4.0),
            ("weak", 1, 1.0, 0.0, 0.5),
            ("weak", 2, 0.75, 0.1, 1.5),
        ]
    )
    summary = pd.DataFrame(
        {"arm": ["warm", "weak"], "heldout_pass_at_1_start": [0.5, 0.0], "heldout_pass_at_1_end": [0.6, 0.02]}
    )
    n = X.run_numbers(metrics, summary)
    assert n["steps"] == 2 and n["window"] == 1  # at most half the steps: 2 // 2 = 1
    assert n["zero_weak"] == pytest.approx((1.0 + 0.75) / 2) and n["zero_warm"] == pytest.approx(0.375)
    assert (n["p_first_weak"], n["p_last_weak"]) == (0.0, 0.1)
    assert n["grad_warm"] == pytest.approx(3.0) and n["end_weak"] == 0.02
    assert X.run_numbers(metrics[metrics["arm"] == "warm"], summary) is None  # one arm only: nothing to compare
    reading = X.run_reading(metrics, summary, "en")
    assert "88%" in reading and "0.100" in reading  # the weak arm's mean share (0.875) and its last pass@1
    assert t("warmstart.read_heldout", "en", start_weak="0.000", end_weak="0.020", start_warm="0.500",
             end_warm="0.600") in reading  # fmt: skip


def test_the_gain_question_by_hand():
    numbers = {"start_warm": 0.5, "end_warm": 0.6, "start_weak": 0.0, "end_weak": 0.02}
    state = {"numbers": numbers, "heldout_total": 100, "steps": 3, "heldout_samples": 1}
    gain = next(p for p in PREDICTIONS["warmstart"] if p.key == "warmstart.q_gain")
    lines = gain.compute(state)
    # gains 0.1 and 0.02; two SE = 2 sqrt((0.25 + 0.24 + 0 + 0.0196) / 100) = 2 sqrt(0.005096) = 0.14277
    assert lines.values == pytest.approx({"warm": 0.1, "weak": 0.02})
    assert lines.margins["weak"] == pytest.approx(2 * math.sqrt(0.005096))
    assert lines.top == ("warm", "weak")  # a gap of 0.08 is within the noise: both count
    state["heldout_total"] = 10_000  # two SE 0.0143: now apart
    assert gain.compute(state).top == ("warm",)
    assert X.explain_gain(state)["gain_weak"] == "+0.020"
    with pytest.raises(ValueError, match="^run"):
        gain.compute({"numbers": None})
    with pytest.raises(ValueError, match="^heldout_samples"):
        X.heldout_gains({**state, "heldout_total": 0})
    assert not X.gain_applies({"heldout_samples": 0})


def test_the_config_builds_two_grpo_arms_from_the_two_starts():
    config = X.WarmStartConfig(steps=2, prompts_per_step=2, group_size=2, seed=3)
    warm, weak = config.arms()
    assert (warm.name, warm.objective, warm.start) == ("warm", "grpo", None)
    assert (weak.name, weak.objective, weak.start) == ("weak", "grpo", TASKS["reversed_addition"].weak_model_dir)
    assert config.train_config("warm") == config.train_config("weak")  # the same training settings
    with pytest.raises(ValueError, match="^arm"):
        config.train_config("other")
    with pytest.raises(ValueError, match="^steps"):
        X.WarmStartConfig(steps=0).validate()
    with pytest.raises(ValueError, match="^temperature"):
        X.WarmStartConfig(temperature=-1.0).validate()


def test_a_one_step_run_starts_each_arm_from_its_own_checkpoint():
    from rlviz.lm.model import load_policy

    run = X.WarmStartRun(X.WarmStartConfig(steps=1, prompts_per_step=2, group_size=2, heldout_samples=0, device="cpu"))
    weak, _ = load_policy(X.start_dirs()["weak"], "cpu")
    name, param = next(iter(weak.named_parameters()))
    # before the step: the weak arm's policy and its frozen reference are the weak checkpoint, not the warm one
    assert torch.equal(dict(run.trainers["weak"].model.named_parameters())[name], param)
    assert torch.equal(dict(run.trainers["weak"].ref_model.named_parameters())[name], param)
    assert not torch.equal(dict(run.trainers["warm"].model.named_parameters())[name], param)
    run.step()
    metrics, summary = run.metrics_frame(), run.summary_frame()
    assert run.done and list(metrics["arm"]) == ["warm", "weak"]
    for m in X.LIVE_METRICS:
        assert metrics[m].notna().all(), m
    result = X.live_result(run)
    assert result["numbers"]["steps"] == 1 and result["heldout_total"] == 0
    assert X.summary_table(summary, X.arm_labels("en"), "en").iloc[:, 1].tolist() == ["— → —", "— → —"]


# -- the bank's answer functions (rlviz/teach/answers/warmstart.py) -------------------------------------------


def _card(start: str) -> dict:
    path = Path(X.start_dirs()[start]) / "rlviz_card.json"
    return json.loads(path.read_text())["figures"]["heldout"]


def test_bank_answers_by_hand():
    p = _card("weak")["pass_at_1"]
    assert answers.compute("ws_card", {"start": "weak"}) == p
    # 1 - p^8 - (1 - p)^8 at the card's pass@1
    assert answers.compute("ws_signal", {"start": "weak", "group_size": 8}) == pytest.approx(
        1 - p**8 - (1 - p) ** 8, rel=1e-5
    )  # float32, the default dtype
    # the smallest G with 1 - p^G - (1 - p)^G >= 0.5: about ln 2 / p, found by counting
    G = next(g for g in range(1, 5000) if 1 - p**g - (1 - p) ** g >= 0.5)
    assert answers.compute("ws_group_size_for", {"start": "weak", "share": 0.5}) == G
    card = _card("warm")
    assert answers.compute("ws_card_zero", {"start": "warm"}) == pytest.approx(card["all_wrong"] + card["all_correct"])
    assert answers.compute("ws_all_wrong_gradient", {"group_size": 4}) == "zero"
    assert answers.compute("ws_all_wrong_gradient", {"group_size": 4, "beta": 0.04}) == "nonzero"  # the KL term
    # uncapped dynamic sampling: at least G / q answers per mixed group (the last round's surplus is dropped)
    q = 1 - p**8 - (1 - p) ** 8
    assert answers.compute("ws_fill_per_group", {"start": "weak", "group_size": 8, "prompts": 16}) >= 8 / q
    for fn, args, name in [
        ("ws_card", {"start": "other"}, "start"),
        ("ws_card", {"start": "weak", "figure": "x"}, "figure"),
        ("ws_group_size_for", {"start": "weak", "share": 1.5}, "share"),
        ("ws_signal", {"start": "weak", "group_size": 0}, "group_size"),
    ]:
        with pytest.raises(ValueError, match=f"^{name}"):
            answers.compute(fn, args)
