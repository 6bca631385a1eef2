"""The side-by-side runner: named arms, one step at a time, one lock, the same numbers as a bare trainer."""

from __future__ import annotations

import copy
import json
import math
import threading

import pandas as pd
import pytest
import torch

from rlviz.experiments.runner import Arm, RunConfig, SideBySideRun, train_config, validate
from rlviz.lm.model import load_policy
from rlviz.lm.trainer import TrainConfig, Trainer

TINY = {"prompts_per_step": 2, "group_size": 2, "mu": 1, "mini_batches": 1}


@pytest.fixture(scope="module", autouse=True)
def _one_thread():
    """One torch thread (see tests/test_sampling.py): fast and steady on a shared 2-core machine."""
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


@pytest.fixture(scope="module")
def policy():
    return load_policy(device="cpu")


def _run(policy, arms, steps=2, heldout=0, **train) -> SideBySideRun:
    return SideBySideRun(arms, RunConfig(steps=steps, heldout_samples=heldout, train={**TINY, **train}), policy=policy)


def test_an_arm_matches_a_bare_trainer(policy):
    # one copy per arm from the same checkpoint and seed: the arm's numbers are the trainer's own
    run = _run(policy, [Arm("a", "grpo"), Arm("b", "sapo")], steps=2, seed=4)
    run.step()
    run.step()
    model, tok = policy
    ref = copy.deepcopy(model).eval().requires_grad_(False)
    bare = Trainer(TrainConfig(algorithm="sapo", seed=4, **TINY), copy.deepcopy(model), tok, ref)
    expected = [bare.step(), bare.step()]
    got = run.metrics_frame()
    got = got[got.arm == "b"]
    for row, m in zip(got.to_dict("records"), expected):
        for key, value in m.items():
            if key != "seconds":
                assert row[key] == value or (math.isnan(row[key]) and math.isnan(value)), key


def test_an_arm_with_its_own_start_trains_from_it_and_measures_it(policy):
    # Arm.start: the shipped checkpoint named as an arm's own start gives that arm the same numbers as the
    # run's start (same weights, same seed), its held-out start is measured under its own key, and a
    # start whose tokenizer is not the run's is refused, naming ``start``
    from rlviz.lm.model import DEFAULT_MODEL_DIR
    from rlviz.lm.tasks import TASKS

    run = _run(policy, [Arm("a", "grpo"), Arm("b", "grpo", start=DEFAULT_MODEL_DIR)], steps=1, heldout=1)
    run.step()
    frame = run.metrics_frame().drop(columns=["arm", "seconds"])
    assert frame.iloc[0].equals(frame.iloc[1])
    key = SideBySideRun.start_key(DEFAULT_MODEL_DIR)
    assert set(run.heldout) == {"start", key, "a", "b"} and run.heldout["start"] == run.heldout[key]
    summary = run.summary_frame().set_index("arm")
    assert summary.loc["b", "heldout_pass_at_1_start"] == run.heldout[key]
    assert run.trainers["b"].ref_model is not run.trainers["a"].ref_model
    with pytest.raises(ValueError, match="^start: .* another tokenizer"):
        _run(policy, [Arm("c", "grpo", start=TASKS["make_sum"].model_dir)], steps=1)


def test_arms_of_one_objective_with_different_settings(policy):
    # DAPO twice: clip-higher on and off (epsilon_high 0.28 vs 0.2), with their own learning rates
    arms = [
        Arm("dapo", "dapo", {"dynamic_sampling": False}),
        Arm("dapo_sym", "dapo", {"dynamic_sampling": False, "epsilon_high": 0.2}, train={"lr": 2e-4}),
    ]
    run = _run(policy, arms, steps=2)
    assert run.trainers["dapo"].loss_params["epsilon_high"] == 0.28
    assert run.trainers["dapo_sym"].loss_params["epsilon_high"] == 0.2
    assert run.trainers["dapo_sym"].config.lr == 2e-4 and run.trainers["dapo"].config.lr == TrainConfig.lr
    while not run.done:
        run.step()
    df = run.metrics_frame()
    assert list(df.arm) == ["dapo", "dapo", "dapo_sym", "dapo_sym"] and set(df.algorithm) == {"dapo"}
    first = df[df.step == 1]
    # the same prompts and answers at step 1 (same seed, same checkpoint): only the update differs
    assert first.pass_at_1.nunique() == 1 and first.response_length_mean.nunique() == 1
    summary = run.summary_frame()
    assert list(summary.arm) == ["dapo", "dapo_sym"] and list(summary.steps) == [2, 2]
    hist = run.ratio_histogram(1)
    assert set(hist.arm) == {"dapo", "dapo_sym"}
    assert hist.groupby("arm")["fraction"].sum().round(6).tolist() == [1.0, 1.0]
    assert run.token_view(1, "dapo_sym") is None or len(run.token_view(1, "dapo_sym")["rows"]) == 2
    data = json.loads(run.to_json())
    assert [a["name"] for a in data["arms"]] == ["dapo", "dapo_sym"] and data["arms"][1]["train"] == {"lr": 2e-4}


def test_signal_groups_follow_the_arms_dynamic_sampling_setting(policy):
    # the same objective with dynamic sampling on and off: the effective batch is derived from the
    # setting, never from the arm's name
    arms = [Arm("x", "grpo", {"dynamic_sampling": True}), Arm("y", "grpo", {"dynamic_sampling": False})]
    run = _run(policy, arms, steps=2, prompts_per_step=3, group_size=4, max_resample_rounds=2)
    while not run.done:
        run.step()
    df = run.metrics_frame()
    on, off = df[df.arm == "x"], df[df.arm == "y"]
    assert (on.signal_groups == on.kept_groups).all()
    assert (off.signal_groups == 3 - (off.zero_adv_group_fraction * 3).round()).all()
    assert (off.rounds == 1).all() and on.rounds.between(1, 2).all()
    assert df.groupby("arm").rollouts_cum.last().to_dict() == df.groupby("arm").rollouts.sum().to_dict()


def test_two_threads_stepping_one_run_never_step_at_once(policy):
    # a Streamlit rerun (language switch) starts a second script run while the first is mid-step;
    # both call step(): the lock lets one finish before the other starts, and no step is torn
    run = _run(policy, [Arm("grpo", "grpo"), Arm("gspo", "gspo"), Arm("sapo", "sapo")], steps=4)
    inside = threading.Semaphore(1)
    overlaps = []
    for trainer in run.trainers.values():
        original = trainer.step

        def guarded(original=original):
            if not inside.acquire(blocking=False):
                overlaps.append(True)  # another step is in progress right now
                return original()
            try:
                return original()
            finally:
                inside.release()

        trainer.step = guarded
    errors = []

    def worker():
        try:
            run.step()
        except Exception as exc:  # noqa: BLE001 -- collected and asserted below
            errors.append(exc)

    threads = [threading.Thread(target=worker) for _ in range(2)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(120)
    assert not errors and not overlaps
    assert run.progress == {"grpo": 2, "gspo": 2, "sapo": 2}  # every arm at the same step count
    assert len(run.metrics_frame()) == 6


def test_step_next_is_round_robin_and_catches_up(policy):
    run = _run(policy, [Arm("a", "grpo"), Arm("b", "gspo"), Arm("c", "cispo")], steps=2)
    assert run.pending() == ["a", "b", "c"]
    assert run.step_next()[0] == "a"
    assert run.pending() == ["b", "c"]  # a round cut short: only the arms behind
    run.step()  # brings them level
    assert run.progress == {"a": 1, "b": 1, "c": 1}
    order = []
    while (stepped := run.step_next()) is not None:
        order.append(stepped[0])
    assert order == ["a", "b", "c"] and run.done and run.pending() == []
    assert run.step_arm("a") is None and run.step() == {}  # a finished run stays as it is


def _without_seconds(run) -> dict:
    data = run.to_dict()
    for rows in data["metrics"].values():
        for m in rows:
            m.pop("seconds")  # wall time: the one field that depends on the threads
    return data


def test_step_parallel_gives_what_one_arm_after_another_gives(policy):
    # three arms on two threads: the caller's thread and a helper take the arms in turn; every
    # metric, histogram, token view and held-out figure equals that of stepping them one at a time
    arms = [Arm("a", "grpo"), Arm("b", "dapo", {"dynamic_sampling": True}), Arm("c", "gspo")]
    one = _run(policy, arms, steps=2, heldout=1, seed=3)
    while not one.done:
        one.step()
    par = _run(policy, arms, steps=2, heldout=1, seed=3)
    threads, steps = set(), []

    def on_step(name, metrics):
        threads.add(threading.get_ident())
        steps.append((name, metrics["step"]))

    rounds = []
    while (stepped := par.step_parallel(2, on_step=on_step)) is not None:
        rounds.append([(name, m["step"]) for name, m in stepped])
    assert rounds == [[("a", 1), ("b", 1), ("c", 1)], [("a", 2), ("b", 2), ("c", 2)]]  # in arm order
    assert sorted(steps) == sorted(x for r in rounds for x in r) and len(threads) >= 2  # a helper stepped some
    assert _without_seconds(par) == _without_seconds(one)
    assert set(par.heldout) == {"start", "a", "b", "c"}


def test_step_parallel_catches_up_an_arm_behind_and_checks_workers(policy):
    run = _run(policy, [Arm("a", "grpo"), Arm("b", "sapo"), Arm("c", "cispo")], steps=2)
    run.step_next()  # a round cut short: a is a step ahead
    assert [name for name, _ in run.step_parallel(4)] == ["b", "c"]  # only the arms behind
    assert run.progress == {"a": 1, "b": 1, "c": 1}
    for bad in (0, -1, 1.5, True, "2"):
        with pytest.raises(ValueError, match="workers"):
            run.step_parallel(bad)
    assert run.step_parallel(1) is not None and run.step_parallel(3) is None and run.done


def test_step_parallel_hands_an_arms_error_to_the_caller_after_the_others_stop(policy):
    run = _run(policy, [Arm("a", "grpo"), Arm("b", "gspo")], steps=2)

    def broken():
        raise RuntimeError("b broke")

    run.trainers["b"].step = broken
    with pytest.raises(RuntimeError, match="b broke"):
        run.step_parallel(2)
    assert run.progress == {"a": 1, "b": 0}  # a's step is kept; b is the one behind
    assert run.pending() == ["b"]


def test_heldout_before_and_after(policy):
    run = _run(policy, [Arm("grpo", "grpo")], steps=1, heldout=1)
    assert run.heldout == {}
    run.step()
    assert set(run.heldout) == {"start", "grpo"}
    s = run.summary_frame().iloc[0]
    assert s.heldout_gain == pytest.approx(s.heldout_pass_at_1_end - s.heldout_pass_at_1_start)


@pytest.mark.parametrize(
    "arms, config, param",
    [
        ([], RunConfig(), "arms"),
        ([Arm("a", "grpo"), Arm("a", "gspo")], RunConfig(), "arms"),
        ([Arm("a", "no_such")], RunConfig(), "objective"),
        ([Arm("a", "grpo")], RunConfig(steps=0), "steps"),
        ([Arm("a", "grpo")], RunConfig(heldout_samples=-1), "heldout_samples"),
        ([Arm("a", "grpo")], RunConfig(train={"learning_rate": 1.0}), "learning_rate"),
        ([Arm("a", "grpo", train={"algorithm": "ppo"})], RunConfig(), "algorithm"),
        ([Arm("a", "grpo")], RunConfig(train={"temperature": 0.0}), "temperature"),
        ([Arm("a", "grpo", {"epsilon_high": -1.0})], RunConfig(), "epsilon_high"),
        ([Arm("a", "grpo", train={"group_size": 1})], RunConfig(), "group_size"),
    ],
)
def test_bad_runs_name_the_parameter(arms, config, param):
    with pytest.raises(ValueError, match=rf"^{param}:"):
        validate(arms, config)


def test_train_config_layers_shared_and_own_settings():
    arm = Arm("x", "dapo", {"epsilon_high": 0.3}, train={"lr": 3e-4})
    c = train_config(arm, RunConfig(train={"lr": 1e-4, "group_size": 4}))
    assert (c.algorithm, c.lr, c.group_size, c.settings) == ("dapo", 3e-4, 4, {"epsilon_high": 0.3})


def test_frames_of_a_fresh_run_are_empty_but_typed(policy):
    run = _run(policy, [Arm("grpo", "grpo")], steps=1)
    assert run.metrics_frame().empty and "signal_groups" in run.metrics_frame().columns
    assert run.ratio_histogram(1).empty
    summary = run.summary_frame()
    assert summary.steps.tolist() == [0] and math.isnan(summary.entropy_last.iloc[0])
    with pytest.raises(ValueError, match="step"):
        run.token_view(1, "grpo")
    assert isinstance(run.metrics_frame(), pd.DataFrame)


def test_entropy_frame_reads_the_metrics(policy):
    # each number is the metrics frame's own: entropy at the first and last step, their difference,
    # the mean upper / lower clip fractions and groups with a signal
    run = _run(policy, [Arm("g", "grpo"), Arm("d", "dapo", {"dynamic_sampling": False})], steps=3)
    assert run.entropy_frame().empty  # nothing run yet
    while not run.done:
        run.step()
    frame = run.entropy_frame().set_index("arm")
    metrics = run.metrics_frame()
    for arm in ("g", "d"):
        m = metrics[metrics.arm == arm]
        row = frame.loc[arm]
        assert row["entropy_first"] == m.entropy.iloc[0] and row["entropy_last"] == m.entropy.iloc[-1]
        assert row["entropy_change"] == pytest.approx(m.entropy.iloc[-1] - m.entropy.iloc[0])
        assert row["clip_high_mean"] == pytest.approx(m.clip_fraction_high.mean())
        assert row["signal_groups_mean"] == pytest.approx(m.signal_groups.mean())
        assert math.isnan(row["heldout_gain"])  # heldout 0: never measured
    assert list(frame.algorithm) == ["grpo", "dapo"]


def test_collapse_flag_by_hand():
    from rlviz.experiments.runner import COLLAPSE, collapse_flags

    assert COLLAPSE["kl_floor"] == 0.1 and COLLAPSE["ratio_var_floor"] == 0.05 and COLLAPSE["jump"] == 3.0
    # trailing means (window 3): .6 .6 .6 .6 .5 .367 .233; best .6 first reached at step 0
    reward = [0.6, 0.6, 0.6, 0.6, 0.3, 0.2, 0.2]
    kl = [0.05, 0.05, 0.05, 0.05, 0.2, 0.2, 0.1]  # jumps when > 3 x 0.05 and > 0.1
    var = [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 5.0]  # jumps when > 3 x 1.0 (and > 0.05)
    # step 4: drop .1 < .15; step 5: drop .233 and KL .2 > .15; step 6: KL .1 no, variance 5 > 3
    assert collapse_flags(reward, kl, var) == [False] * 5 + [True, True]
    var[6] = 1.0
    assert collapse_flags(reward, kl, var) == [False] * 5 + [True, False]
    # a falling reward alone (nothing jumps) is not a collapse, nor is NaN
    assert not any(collapse_flags(reward, [0.05] * 7, [1.0] * 7))
    assert not any(collapse_flags(reward, [float("nan")] * 7, [float("nan")] * 7))
    # a tiny KL tripling (0.001 -> 0.004) stays under the floor: not a collapse
    assert not any(collapse_flags(reward, [0.001] * 4 + [0.004] * 3, [0.001] * 7))
    # the reward drop must also exceed 3 standard errors of the difference of the two means: the best
    # (step 0) has one step of responses, step 5's window three. With 64 a step:
    # 3 sqrt(.6 x .4 x (1/192 + 1/64)) = 0.212 < 0.233 (flagged); with 16 a step,
    # 3 sqrt(.24 x (1/48 + 1/16)) = 0.424 > 0.233 (noise, not flagged)
    assert collapse_flags(reward, kl, var, [64] * 7) == [False] * 5 + [True, False]
    assert not any(collapse_flags(reward, kl, var, [16] * 7))
    with pytest.raises(ValueError, match="kl"):
        collapse_flags([0.1], [], [])
    with pytest.raises(ValueError, match="kl"):
        collapse_flags([0.1], [0.1], [0.1], [])
