"""The RL step on the tiny LM: every algorithm runs, shares step-1 rollouts, and degenerate cases hold."""

import copy
import json
import math

import pytest
import torch

from rlviz.cli import main as cli_main
from rlviz.cli import parse_setting
from rlviz.core.objectives import ALGORITHMS, TOKEN_STATES
from rlviz.experiments.live import LiveConfig, LiveRun
from rlviz.lm.model import load_policy
from rlviz.lm.trainer import METRICS, TrainConfig, Trainer
from rlviz.serving import STEPS

SMALL = dict(prompts_per_step=4, group_size=4, mu=2, mini_batches=2)


@pytest.fixture(scope="module")
def policy():
    return load_policy(device="cpu")


def make(policy, algorithm, **kw):
    model, tok = policy
    ref = copy.deepcopy(model).requires_grad_(False)
    return Trainer(TrainConfig(algorithm=algorithm, **{**SMALL, **kw}), copy.deepcopy(model), tok, ref)


@pytest.mark.parametrize("name", list(ALGORITHMS))
def test_every_algorithm_takes_a_step(policy, name):
    t = make(policy, name, settings={"dynamic_sampling": False} if name == "dapo" else {})
    m = t.step()
    assert set(METRICS) <= set(m)
    for key in ("pass_at_1", "response_length_mean", "entropy", "kl_ref", "ratio_mean", "grad_norm", "clip_fraction"):
        assert math.isfinite(m[key]), key
    assert m["rollouts"] == 16 and m["kept_groups"] == 4
    assert 0.0 <= m["clip_fraction"] <= 1.0
    assert math.isfinite(m["gate_weight_mean"]) == ("gated" in ALGORITHMS[name].trust_region)  # SAPO, VESPO
    assert math.isfinite(m["value_loss"]) == (name == "ppo")
    # on-policy at the first update: the first mini-batch sees ratio 1 up to float noise
    assert m["ratio_min"] <= 1.0 + 1e-5 and m["ratio_max"] >= 1.0 - 1e-5
    view = t.token_views[-1]
    if view is not None:
        assert len(view["rows"]) == 4
        # where the trust region acted: capped (gradient kept), clipped (zero), or either for an
        # objective with both (ASPO's soft dual clip and its band)
        hits = {k for k in ("capped", "clipped") if k in ALGORITHMS[name].trust_region} or {"clipped"}
        for row in view["rows"]:
            assert len(row["weight"]) == len(row["tokens"])
            # each token's state in the app's one vocabulary, as token_states decides it
            assert len(row["state"]) == len(row["state_first"]) == len(row["tokens"])
            assert set(row["state"]) | set(row["state_first"]) <= set(TOKEN_STATES)
            if not row["in_loss"]:
                assert set(row["state"]) == set(row["state_first"]) == {"masked"}
                continue
            assert [s in hits for s in row["state"]] == [bool(c) for c in row["clipped"]]
            # at the step's first update the ratio is 1: the trust region has not acted yet
            assert set(row["state_first"]) <= {"active", "masked"}


def test_ratio_is_one_before_the_first_update(policy):
    # The sampler is the policy itself (float32, fresh weights, no truncation): it does not score its
    # responses, and its rollout_log_prob becomes the trainer's old_log_prob, which is the training
    # forward of the policy before any update.
    t = make(policy, "grpo", settings={"beta": 0.0})
    batch = t._rollout()
    assert batch.rollout_log_prob is None
    from rlviz.lm.rollout import response_log_probs

    with torch.no_grad():
        lp, _ = response_log_probs(
            t.model, batch.input_ids, batch.attention_mask, batch.position_ids, batch.prompt_width, t.config.temperature
        )
    data = t._prepare(batch)
    real = batch.response_mask > 0
    assert torch.equal(lp[real], data.old_log_prob[real])
    assert torch.equal(batch.rollout_log_prob, data.old_log_prob * batch.response_mask)


@pytest.mark.parametrize("mu,mini_batches", [(1, 1), (3, 1), (2, 2)])
def test_the_first_update_gives_its_rows_old_log_prob(policy, mu, mini_batches):
    # The first update runs its rows through the unchanged policy, so its log-probs are their
    # old_log_prob (no forward of their own, as TRL at num_iterations = 1); only the other
    # mini-batches' rows get a forward before the update. The first update then sees ratio exactly
    # 1, and every row's old_log_prob is the policy's before the step.
    t = make(policy, "grpo", mu=mu, mini_batches=mini_batches)
    before = copy.deepcopy(t.model)
    batch = t._rollout()
    assert t._defer_old(t._loss_mask(batch), torch.arange(4))
    _, _, data = t._update(batch)
    from rlviz.lm.rollout import response_log_probs

    with torch.no_grad():
        lp, _ = response_log_probs(
            before, batch.input_ids, batch.attention_mask, batch.position_ids, batch.prompt_width, t.config.temperature
        )
    real = batch.response_mask > 0
    assert torch.allclose(lp[real], data.old_log_prob[real], atol=1e-5)
    assert data.old_pending is None
    assert torch.equal(batch.rollout_log_prob, data.old_log_prob * batch.response_mask)
    assert t.last_updates[0]["ratio_min"] == t.last_updates[0]["ratio_max"] == 1.0  # exp(0): the same tensor
    assert len(t.last_updates) == mu * mini_batches


def test_old_log_prob_is_computed_first_where_something_reads_it_before_the_update(policy):
    batch = make(policy, "grpo")._rollout()
    mask, first = batch.response_mask, torch.arange(4)
    for kw in (
        {"rollout_correction": "token_tis"},  # the correction's weights read it
        {"kl_in_reward": True},  # beta x KL(old || ref) goes into the reward
        {"rollout_dtype": "bfloat16"},  # the sampler scores its own responses
    ):
        assert not make(policy, "grpo", **kw)._defer_old(mask, first), kw
    assert not make(policy, "ppo")._defer_old(mask, first)  # GAE's critic and KL read it
    assert not make(policy, "grpo")._defer_old(torch.zeros_like(mask), first)  # no loss token: no update


def test_reference_runs_only_where_something_reads_it(policy):
    # beta = 0 with measure_kl_ref off: no reference forward (TRL and verl skip it), kl_ref NaN
    lean = make(policy, "grpo", settings={"beta": 0.0}, measure_kl_ref=False)
    m = lean.step()
    assert math.isnan(m["kl_ref"]) and lean.phase_seconds[-1]["ref_log_prob"] == 0.0
    # the app's default measures it at beta = 0 too; beta > 0 always runs it
    for kw in ({"settings": {"beta": 0.0}}, {"settings": {"beta": 0.04}, "measure_kl_ref": False}):
        t = make(policy, "grpo", **kw)
        m = t.step()
        assert math.isfinite(m["kl_ref"]) and t.phase_seconds[-1]["ref_log_prob"] > 0
    with pytest.raises(ValueError, match="measure_kl_ref"):
        TrainConfig(measure_kl_ref="yes").validate()


def test_phase_seconds_split_the_step(policy):
    t = make(policy, "dapo", settings={"dynamic_sampling": False})
    t.step()
    phases = t.phase_seconds[-1]
    from rlviz.lm.trainer import PHASES

    assert list(phases) == list(PHASES)
    assert all(v >= 0 for v in phases.values())
    assert phases["sample"] > 0 and phases["update"] > 0 and phases["old_log_prob"] > 0  # two mini-batches


def test_same_seed_same_first_step_across_algorithms(policy):
    texts = []
    for name in ("grpo", "gspo", "sapo"):
        t = make(policy, name)
        m = t.step()
        texts.append((m["pass_at_1"], m["response_length_mean"], m["zero_adv_group_fraction"]))
    assert texts[0] == texts[1] == texts[2]


def test_deterministic_given_seed(policy):
    a = make(policy, "dapo", seed=3)
    b = make(policy, "dapo", seed=3)
    for _ in range(2):
        ma, mb = a.step(), b.step()
        for key in ("pass_at_1", "loss", "grad_norm", "ratio_max", "rollouts"):
            assert ma[key] == mb[key] or (math.isnan(ma[key]) and math.isnan(mb[key]))


def test_gspo_weighs_every_token_of_a_response_alike_on_real_text(policy):
    # Claim 9: under GSPO (seq-mean-token-mean) each token of response i gets -A_i s_i / (B |y_i|),
    # the same for all its tokens (or 0 for all of them if the sequence is clipped).
    t = make(policy, "gspo")
    t.step()
    view = t.token_views[-1]
    assert view is not None
    B = SMALL["prompts_per_step"] * SMALL["group_size"]
    for row in view["rows"]:
        w = torch.tensor(row["weight"])
        assert torch.allclose(w, w[0].expand_as(w), atol=1e-9)
        # at the step's first (on-policy) update s = 1: every token gets exactly -A / (B |y|)
        first = torch.tensor(row["weight_first"])
        expected = -row["advantage"] / (B * len(row["tokens"]))
        assert torch.allclose(first, torch.full_like(first, expected), atol=1e-7)


def test_dynamic_sampling_is_bounded_and_filters(policy):
    # The fresh policy at temperature 0.05 answers almost deterministically, so groups are
    # all-equal; dynamic sampling must stop after max_resample_rounds.
    t = make(policy, "dapo", temperature=0.05, max_resample_rounds=2)
    m = t.step()
    assert m["rollouts"] <= 2 * 16
    assert m["kept_groups"] <= 4
    if m["kept_groups"] == 0:
        assert math.isnan(m["grad_norm"]) and t.token_views[-1] is None
    # without it, every group is trained on
    t2 = make(policy, "dapo", temperature=0.05, settings={"dynamic_sampling": False})
    m2 = t2.step()
    assert m2["kept_groups"] == 4 and m2["rollouts"] == 16


def test_overlong_filtering_masks_truncated_responses(policy):
    t = make(
        policy,
        "dapo",
        max_new_tokens=3,
        overlong_buffer_length=1,
        settings={"dynamic_sampling": False, "overlong_filtering": True},
    )
    batch, _ = t._collect()
    _, _, data = t._update(batch)  # what the step's updates held fixed
    batch, mask = data.batch, data.mask
    assert bool(batch.truncated.any())
    assert torch.all(mask[batch.truncated] == 0)
    assert torch.all(mask[~batch.truncated] == batch.response_mask[~batch.truncated])


@pytest.mark.parametrize(
    "kw, param",
    [
        ({"group_size": 0}, "group_size"),
        ({"temperature": -1.0}, "temperature"),
        ({"lr": float("nan")}, "lr"),
        ({"overlong_buffer_length": 99, "settings": {"overlong_shaping": True}}, "overlong_buffer_length"),
        ({"group_size": 1}, "group_size"),
        ({"settings": {"advantage": "gae"}}, "advantage"),
        ({"settings": {"dynamic_sampling": "no"}}, "dynamic_sampling"),
        ({"settings": {"epsilon_high": "abc"}}, "epsilon_high"),
        ({"settings": {"epsilon_low": True}}, "epsilon_low"),
        ({"settings": {"beta": float("nan")}}, "beta"),
        ({"settings": {"epsilon_low": -0.1}}, "epsilon_low"),
        ({"settings": {"tau_pos": 1.0}}, "tau_pos"),
    ],
)
def test_bad_config_raises_value_error(policy, kw, param):
    with pytest.raises(ValueError, match=param):
        make(policy, "grpo", **kw)


def test_settings_of_other_algorithms_do_not_block_a_run(policy):
    # the overlong buffer only matters where overlong shaping is on (DAPO by default)
    make(policy, "grpo", max_new_tokens=2)
    with pytest.raises(ValueError, match="overlong_buffer_length"):
        make(policy, "dapo", max_new_tokens=2)
    with pytest.raises(ValueError, match="lam"):
        make(policy, "ppo", settings={"lam": -0.5})
    make(policy, "ppo", group_size=1)  # GAE needs no group


def test_dr_grpo_constant_is_the_generation_budget(policy):
    t = make(policy, "dr_grpo", max_new_tokens=12)
    assert t.loss_params["norm_length"] == 12
    batch, _ = t._collect()
    mask = t._update(batch)[2].mask
    from rlviz.core.aggregation import token_weights

    w = token_weights(mask, "seq-mean-token-sum-norm", 12)
    assert torch.allclose(w[mask > 0], torch.full_like(w[mask > 0], 1 / (mask.shape[0] * 12)))


def test_a_step_without_update_still_observes_the_policy(policy):
    # near-greedy sampling of 4 prompts x G=4: every group all-equal, so DAPO makes no update
    t = make(policy, "dapo", temperature=0.01, max_resample_rounds=1)
    m = t.step()
    assert m["kept_groups"] == 0 and math.isnan(m["grad_norm"])
    assert math.isfinite(m["entropy"]) and m["kl_ref"] == 0.0  # the policy is still the reference


def test_live_run_and_exports(policy):
    run = LiveRun(LiveConfig(algorithms=("grpo", "cispo"), steps=2, heldout_samples=1, **SMALL), policy=policy)
    assert run.progress == {"grpo": 0, "cispo": 0}
    while not run.done:
        run.step()
    df = run.metrics_frame()
    assert len(df) == 4 and set(df.algorithm) == {"grpo", "cispo"}
    hist = run.ratio_histogram(2)
    assert hist.groupby("algorithm")["fraction"].sum().round(6).tolist() == [1.0, 1.0]
    summary = run.summary_frame()
    assert list(summary.arm) == list(summary.algorithm) == ["grpo", "cispo"]  # one row per algorithm, in order
    data = json.loads(run.to_json())
    assert len(data["metrics"]["grpo"]) == 2 and "start" in data["heldout_pass_at_1"]
    assert [a["objective"] for a in data["arms"]] == ["grpo", "cispo"] and data["config"]["steps"] == 2
    with pytest.raises(ValueError, match="step"):
        run.token_view(3, "grpo")


def test_cli_compare_writes_json(tmp_path, capsys):
    out = tmp_path / "run.json"
    code = cli_main(
        [
            "compare",
            "--algorithms",
            "grpo,gspo",
            "--steps",
            "2",
            "--group-size",
            "4",
            "--prompts-per-step",
            "4",
            "--heldout-samples",
            "1",
            "--device",
            "cpu",
            "--set",
            "gspo.epsilon_high=0.001",
            "--out",
            str(out),
        ]
    )
    assert code == 0
    data = json.loads(out.read_text())
    assert [m["step"] for m in data["metrics"]["gspo"]] == [1, 2]
    assert [a["settings"] for a in data["arms"]] == [{}, {"epsilon_high": 0.001}]  # grpo, gspo
    assert "GSPO" in capsys.readouterr().out
    assert cli_main(["compare", "--algorithms", "grpo", "--group-size", "0"]) == 2
    assert cli_main(["compare", "--algorithms", "grpo", "--workers", "0"]) == 2
    assert "--workers" in capsys.readouterr().err
    # the run's torch threads and step queue are put back for the rest of the process
    threads, capacity = torch.get_num_threads(), STEPS.capacity
    one = tmp_path / "one.json"
    small = ["compare", "--algorithms", "grpo,gspo", "--steps", "1", "--group-size", "2", "--prompts-per-step", "2"]
    assert cli_main([*small, "--heldout-samples", "0", "--workers", "1", "--out", str(one)]) == 0
    assert (torch.get_num_threads(), STEPS.capacity) == (threads, capacity)
    two = tmp_path / "two.json"
    assert cli_main([*small, "--heldout-samples", "0", "--workers", "2", "--out", str(two)]) == 0
    # (the same numbers as one after another: tests/test_runner.py, at one torch thread both ways)
    a, b = json.loads(one.read_text()), json.loads(two.read_text())
    assert [len(v) for v in a["metrics"].values()] == [len(v) for v in b["metrics"].values()] == [1, 1]
    assert parse_setting("ppo.dual_clip_c=none") == ("ppo", "dual_clip_c", None)
    assert parse_setting("dapo.dynamic_sampling=False") == ("dapo", "dynamic_sampling", False)


def test_entropy_bonus_keeps_entropy_up(policy):
    # Same first rollouts; after one step the run with a large entropy bonus has a more uncertain
    # policy, which the next step's entropy (measured before its updates) shows.
    plain = make(policy, "grpo", seed=5)
    bonus = make(policy, "grpo", seed=5, entropy_coef=0.5)
    for t in (plain, bonus):
        t.step()
        t.step()
    assert bonus.history[0]["pass_at_1"] == plain.history[0]["pass_at_1"]  # same first rollouts
    assert bonus.history[1]["entropy"] > plain.history[1]["entropy"] + 0.02


def test_kl_in_reward_moves_beta_out_of_the_loss(policy):
    t = make(policy, "grpo", kl_in_reward=True, settings={"beta": 0.5})
    for _ in range(2):
        m = t.step()
    assert math.isfinite(m["loss"]) and math.isfinite(m["kl_ref"])
    with pytest.raises(ValueError, match="entropy_coef"):
        make(policy, "grpo", entropy_coef=-1.0)


def test_a_positive_beta_without_a_reference_builds_one(policy):
    # beta = 0.04 (GRPO's default) and no ref_model: the trainer builds the reference as TRL's
    # GRPOTrainer does for beta != 0 (a frozen copy of the starting policy) instead of training with
    # beta silently 0 and a NaN KL; beta = 0 (DAPO): no reference, as in TRL and verl
    model, tok = policy
    t = Trainer(TrainConfig(algorithm="grpo", **SMALL), copy.deepcopy(model), tok)
    assert t.ref_model is not None and t.ref_model is not t.model and t._needs_ref()
    assert not any(p.requires_grad for p in t.ref_model.parameters())
    assert all(torch.equal(a, b) for a, b in zip(t.ref_model.parameters(), t.model.parameters()))
    t = Trainer(TrainConfig(algorithm="grpo", kl_in_reward=True, **SMALL), copy.deepcopy(model), tok)
    assert t.ref_model is not None  # the KL in the reward reads it too
    assert Trainer(TrainConfig(algorithm="dapo", **SMALL), copy.deepcopy(model), tok).ref_model is None
    assert Trainer(TrainConfig(algorithm="grpo", settings={"beta": 0.0}, **SMALL), model, tok).ref_model is None


def test_last_updates_records_each_optimizer_step():
    """Trainer.last_updates: mu x mini_batches records; the first update of a step is on-policy
    (pi_old = the same weights), so its ratio is exactly 1 and nothing is clipped."""
    from rlviz.lm.model import load_policy
    from rlviz.lm.trainer import TrainConfig, Trainer

    model, tokenizer = load_policy(None, "cpu")
    trainer = Trainer(TrainConfig(prompts_per_step=4, group_size=4, mu=2, mini_batches=2, lr=1e-3), model, tokenizer)
    trainer.step()
    # GRPO's beta = 0.04 with no reference given: the trainer built one (issue 43), so the KL to it is measured
    assert math.isfinite(trainer.history[-1]["kl_ref"])
    ups = trainer.last_updates
    assert [u["update"] for u in ups] == [1, 2, 3, 4] and [u["epoch"] for u in ups] == [1, 1, 2, 2]
    assert ups[0]["ratio_min"] == ups[0]["ratio_max"] == 1.0 and ups[0]["clip_fraction"] == 0.0
    assert max(abs(ups[-1]["ratio_max"] - 1), abs(ups[-1]["ratio_min"] - 1)) > 0  # the policy has moved
    # each pass covers the whole batch once: the same number of response tokens in both epochs
    assert ups[0]["tokens"] + ups[1]["tokens"] == ups[2]["tokens"] + ups[3]["tokens"] > 0


def test_the_sampler_scores_its_responses_only_where_it_is_not_the_policy(policy):
    # the sampler is the policy itself (float32, fresh weights, untruncated): its log-probs would be
    # old_log_prob, so it does not spend a forward on them
    assert not make(policy, "grpo")._sampler_scores()
    assert not make(policy, "dapo", settings={"dynamic_sampling": True})._sampler_scores()
    # another precision, stale weights or truncated sampling: rollout_log_prob is the sampler's own
    for kw in ({"rollout_dtype": "bfloat16"}, {"rollout_stale_steps": 1}, {"top_p": 0.9}, {"top_k": 4}):
        t = make(policy, "grpo", **kw)
        assert t._sampler_scores(), kw
        batch = t._rollout(t._sync_sampler())
        assert batch.rollout_log_prob is not None


@pytest.mark.parametrize("truncation", [{"top_p": 0.8}, {"top_k": 4}])
def test_replay_sampling_mask_renormalises_the_trainer_over_the_samplers_kept_set(policy, truncation):
    # the same float32 weights sample and train; the sampler draws from the truncated distribution, so its
    # log-prob is log p_y - log(kept mass) (kept mass = sum of p over the kept set S). Without replay the
    # trainer's is log p_y: old - rollout = log(kept mass) < 0 wherever the truncation dropped something.
    # With replay the trainer's is log softmax over S, log p_y - log(sum_S p): the same number, l = 0.
    model, tok = policy
    tiny = {"prompts_per_step": 2, "group_size": 2, "mu": 1, "mini_batches": 1, "seed": 0}
    gaps = {}
    for replay in (False, True):
        cfg = TrainConfig(replay_sampling_mask=replay, settings={"beta": 0.0}, **tiny, **truncation)
        trainer = Trainer(cfg, copy.deepcopy(model), tok)
        batch = trainer._rollout(trainer._sync_sampler())
        old, *_ = trainer._recompute_log_probs(batch)  # (old, ref, routes[, sum_pi_squared])
        real = batch.response_mask > 0
        gaps[replay] = (old - batch.rollout_log_prob)[real]
        m = trainer.step()  # a whole step trains with it: the sampler-trainer KL it reports
        assert (m["rollout_kl"] <= 1e-6) == replay, (replay, m["rollout_kl"])
    assert float(gaps[True].abs().max()) <= 1e-6  # every token
    assert float(gaps[False].min()) < -1e-3 and float(gaps[False].max()) <= 1e-6  # kept mass < 1, never above
    with pytest.raises(ValueError, match="^replay_sampling_mask:"):
        TrainConfig(replay_sampling_mask="yes", **truncation).validate()


def test_a_step_measures_length_by_outcome_and_log_ratio_noise_by_response(policy):
    from rlviz.lm.length_stats import length_noise

    t = make(policy, "grpo", seed=3)  # 4 prompts x G 4, mu 2 x 2 mini-batches
    m = t.step()
    p = m["pass_at_1"]  # the step's share of right responses, of 16
    assert 0 < p < 1, "seed 3 gives a mixed step on the shipped tiny LM"
    # the step's mean length is the mix, by pass@1, of the right and the wrong responses' means
    assert p * m["response_length_right"] + (1 - p) * m["response_length_wrong"] == pytest.approx(
        m["response_length_mean"]
    )
    # three off-policy updates (the first is on-policy), each over a mini-batch of 8 rows
    rec = t.last_log_ratios
    assert rec.shape[1] == 3 and 0 < rec.shape[0] <= 3 * 8
    assert int(rec[:, 0].max()) <= m["response_length_max"]
    noise = length_noise(rec)
    assert noise == pytest.approx({k: m[k] for k in noise})
    assert m["seq_log_ratio_var"] > 0  # the policy moved between updates

    one = make(policy, "grpo", seed=3, mu=1, mini_batches=1)
    m1 = one.step()
    assert one.last_log_ratios.shape == (0, 3)  # its one update is on-policy: nothing to measure
    assert math.isnan(m1["seq_log_ratio_var"]) and math.isnan(m1["log_ratio_length_corr"])
