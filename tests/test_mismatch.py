"""The rollout-training mismatch: truncated sampling's support and log-probs, the trainer's sampler
settings and rollout corrections (an identical sampler changes nothing; a mismatched one is measured
and corrected), the export of the corrections, and the mismatch experiment's readings. Hand values
carry their formula; the model runs are tiny (2 prompts x G 2) on one thread."""

from __future__ import annotations

import copy
import math

import pytest
import torch
from apptools import torch_threads

from rlviz.core.corrections import CORRECTIONS, PRESETS
from rlviz.experiments import mismatch as X
from rlviz.i18n import pct, t
from rlviz.lm.model import load_policy
from rlviz.lm.rollout import response_log_probs, sample_rollouts, truncate_logits
from rlviz.lm.task import sample_problems
from rlviz.lm.trainer import TrainConfig, Trainer
from rlviz.teach.export import export_config
from rlviz.teach.predict import PREDICTIONS

TINY = {"prompts_per_step": 2, "group_size": 2, "mu": 1, "mini_batches": 1}


@pytest.fixture(scope="module", autouse=True)
def _one_thread():
    with torch_threads(1):
        yield


@pytest.fixture(scope="module")
def policy():
    return load_policy(None, "cpu")


# -- truncated sampling -------------------------------------------------------------------------------


def test_truncate_logits_by_hand():
    # probabilities 0.5, 0.3, 0.2 (logits = their logs)
    logits = torch.tensor([0.5, 0.3, 0.2]).log()
    inf = float("-inf")
    # top-p 0.5: the first token alone holds 0.5 >= p, so the others go (mass before them >= p)
    assert truncate_logits(logits, top_p=0.5).isinf().tolist() == [False, True, True]
    # top-p 0.6: 0.5 < 0.6, so the second stays; the third has 0.8 before it -> dropped
    assert truncate_logits(logits, top_p=0.6).isinf().tolist() == [False, False, True]
    # top-k 2 keeps the two largest; top-p 1 and top-k 0 keep everything, values unchanged
    assert truncate_logits(logits, top_k=2)[2] == inf
    assert torch.equal(truncate_logits(logits), logits)
    # top-k first, then top-p on the renormalised rest: k = 2 gives 0.625, 0.375; p = 0.6 keeps one
    assert truncate_logits(logits, top_p=0.6, top_k=2).isinf().tolist() == [False, True, True]


@pytest.mark.parametrize(
    "kwargs, param", [({"top_p": 0.0}, "top_p"), ({"top_p": 1.5}, "top_p"), ({"top_k": -1}, "top_k")]
)
def test_truncation_refuses_bad_values(kwargs, param):
    with pytest.raises(ValueError, match=f"^{param}:"):
        truncate_logits(torch.zeros(3), **kwargs)


def test_top_p_sampler_log_prob_is_the_full_one_minus_the_kept_mass(policy):
    model, tok = policy
    problems = sample_problems(2, torch.Generator().manual_seed(0))
    batch = sample_rollouts(model, tok, problems, 3, 8, 1.0, torch.Generator().manual_seed(1), top_p=0.8)
    full, _ = response_log_probs(
        model, batch.input_ids, batch.attention_mask, batch.position_ids, batch.prompt_width, 1.0
    )
    real = batch.response_mask > 0
    gap = (full - batch.rollout_log_prob)[real]
    # the sampler renormalises over the kept tokens: pi_rollout = pi_train / kept mass >= pi_train
    assert bool((gap <= 1e-6).all()) and bool((gap < -1e-4).any())
    # and the kept mass at each position is at least p (the nucleus reaches p), so l >= log p
    assert bool((gap >= math.log(0.8) - 1e-5).all())


class _FixedLogits(torch.nn.Module):
    """A causal LM stub whose next-token logits are log([0.5, 0.3, 0.2]) at every position."""

    def forward(self, input_ids, **_):
        logits = torch.tensor([0.5, 0.3, 0.2]).log().expand(*input_ids.shape, 3)
        return type("Out", (), {"logits": logits})()


def test_a_replayed_sampling_mask_renormalises_the_log_probs_by_hand():
    # one prompt token, responses "1" and "2"; the sampler kept tokens {0, 1} (mass 0.8) at the position
    ids, ones = torch.tensor([[0, 1], [0, 2]]), torch.ones(2, 2, dtype=torch.long)
    kept = torch.tensor([True, True, False]).expand(2, 1, 3)
    lp, ent = response_log_probs(_FixedLogits(), ids, ones, ones.cumsum(-1) - 1, 1, 1.0, True, kept)
    # token 1: log(0.3 / 0.8) = log 0.375; token 2 is outside the kept set: -inf (a sampler never draws it)
    assert lp[0, 0].item() == pytest.approx(math.log(0.375)) and lp[1, 0].item() == float("-inf")
    # entropy over the kept set: -(0.625 ln 0.625 + 0.375 ln 0.375) = 0.6616, finite (p ln p = 0 off the set)
    assert ent[0, 0].item() == pytest.approx(-(0.625 * math.log(0.625) + 0.375 * math.log(0.375)))
    full, _ = response_log_probs(_FixedLogits(), ids, ones, ones.cumsum(-1) - 1, 1, 1.0)
    assert full[0, 0].item() == pytest.approx(math.log(0.3))  # without it, the whole vocabulary
    for bad in (kept[:, :, :2], kept.long(), torch.zeros(2, 1, 3, dtype=torch.bool)):
        with pytest.raises(ValueError, match="^sampling_mask:"):
            response_log_probs(_FixedLogits(), ids, ones, ones.cumsum(-1) - 1, 1, 1.0, sampling_mask=bad)


def test_a_truncating_sampler_records_what_it_kept(policy):
    from rlviz.lm.batching import concat_batches, select_rows

    model, tok = policy
    problems = sample_problems(2, torch.Generator().manual_seed(0))
    batch = sample_rollouts(model, tok, problems, 2, 8, 1.0, torch.Generator().manual_seed(1), top_k=3)
    real = batch.response_mask > 0
    B, T = batch.response_ids.shape
    assert batch.sampling_mask.shape == (B, T, len(tok)) and batch.sampling_mask.dtype == torch.bool
    assert (batch.sampling_mask[real].sum(-1) == 3).all()  # top-k 3: exactly three kept (no ties here)
    assert batch.sampling_mask[~real].all()  # padding keeps every token: a replayed softmax stays finite
    drawn = batch.sampling_mask.gather(-1, batch.response_ids.unsqueeze(-1)).squeeze(-1)
    assert drawn[real].all()  # the drawn token is always in the kept set
    plain = sample_rollouts(model, tok, problems, 2, 8, 1.0, torch.Generator().manual_seed(1))
    assert plain.sampling_mask is None  # only a truncating sampler records one
    # rows selected and batches joined keep each row's sets, padding with "keep all"
    joined = concat_batches([select_rows(batch, [1]), plain], tok.pad_token_id)
    assert joined.sampling_mask is None  # not every batch has one
    joined = concat_batches([select_rows(batch, [1]), batch], tok.pad_token_id)
    assert torch.equal(joined.sampling_mask[1:], batch.sampling_mask)
    n = int(real[1].sum())
    assert torch.equal(joined.sampling_mask[0, :n], batch.sampling_mask[1, :n]) and joined.sampling_mask[0, n:].all()


# -- the trainer --------------------------------------------------------------------------------------


def _run(policy, steps=1, **kw):
    model, tok = policy
    trainer = Trainer(TrainConfig(algorithm="grpo", seed=0, **(TINY | kw)), copy.deepcopy(model), tok)
    return trainer, [trainer.step() for _ in range(steps)]


@pytest.mark.parametrize("name", list(CORRECTIONS))
def test_an_identical_sampler_leaves_training_unchanged(policy, name):
    base, _ = _run(policy)
    trainer, history = _run(policy, rollout_correction=name)
    assert history[0]["rollout_kl"] == 0.0 and history[0]["correction_weight_mean"] == 1.0
    assert history[0]["correction_masked_fraction"] == 0.0
    for p, q in zip(base.model.parameters(), trainer.model.parameters()):
        assert torch.equal(p, q)  # every weight bit-identical


def test_a_stale_sampler_differs_from_the_second_step_on(policy):
    _, history = _run(policy, steps=2, rollout_stale_steps=1, lr=1e-3, prompts_per_step=4, group_size=4)
    # step 1: the sampler holds the starting weights, which are the policy's: no mismatch at all
    assert history[0]["rollout_kl"] == 0.0 and history[0]["grad_norm"] > 0  # and the policy moved
    # step 2: it still holds them while the policy took one update
    assert history[1]["rollout_kl"] > 0


def test_a_bf16_sampler_is_measured_and_corrected(policy):
    _, (m,) = _run(policy, rollout_dtype="bfloat16", rollout_correction="token_tis")
    assert m["rollout_kl"] > 0 and m["correction_weight_mean"] != 1.0


def test_a_rejection_filter_takes_responses_out_of_the_loss(policy):
    # top-k 2 keeps a small share of the mass: the geometric mean of pi_rollout / pi_train is far
    # above verl's default band [0.999, 1.001], so every response is dropped and nothing is trained
    trainer, (m,) = _run(policy, top_k=2, rollout_correction="geo_mean_rs")
    assert m["correction_masked_fraction"] == 1.0 and m["correction_weight_mean"] == 0.0
    model, _ = policy
    for p, q in zip(model.parameters(), trainer.model.parameters()):
        assert torch.equal(p, q)


@pytest.mark.parametrize("rollout_dtype, reads", [("bfloat16", "rollout"), ("float32", "old")])
def test_the_off_policy_mask_reads_the_samplers_log_probs(policy, monkeypatch, rollout_dtype, reads):
    # DeepSeek-V3.2's mask compares the policy with the policy that sampled: with a bf16 sampler that
    # is rollout_log_prob, not the trainer's old_log_prob; with the policy sampling, the old log-prob
    import rlviz.lm.trainer as trainer_module

    seen, prepared = [], []
    real_prepare = trainer_module.Trainer._prepare

    def spy(advantages, log_prob, behaviour, mask, delta):
        seen.append(behaviour.detach().clone())
        return torch.ones_like(mask, dtype=torch.bool)

    def prepare(self, batch, *rest):
        prepared.append(real_prepare(self, batch, *rest))
        return prepared[-1]

    monkeypatch.setattr(trainer_module, "off_policy_sequence_mask", spy)
    monkeypatch.setattr(trainer_module.Trainer, "_prepare", prepare)
    _run(policy, rollout_dtype=rollout_dtype, settings={"off_policy_mask_threshold": 0.5})
    (data,) = prepared
    (behaviour,) = seen  # one update (mu = 1, one mini-batch): rows in a shuffled order

    def rows_of(x, of):  # every row of x is a row of `of` (the update takes rows in a shuffled order)
        return all(any(torch.equal(row, other) for other in of) for row in x)

    expected = data.batch.rollout_log_prob if reads == "rollout" else data.old_log_prob
    assert len(behaviour) == len(expected) and rows_of(behaviour, expected)
    if reads == "rollout":
        assert not rows_of(behaviour, data.old_log_prob)  # the two differ here


@pytest.mark.parametrize(
    "kwargs, param",
    [
        ({"rollout_stale_steps": -1}, "rollout_stale_steps"),
        ({"top_p": 0.0}, "top_p"),
        ({"top_k": 1.5}, "top_k"),
        ({"top_p": 0.9, "replay_sampling_mask": 1}, "replay_sampling_mask"),
        ({"rollout_correction": "magic"}, "rollout_correction"),
        ({"rollout_correction": "token_mis", "rollout_correction_low": -1.0}, "rollout_correction_low"),
        ({"rollout_correction_low": 3.0, "rollout_correction_high": 2.0}, "rollout_correction_low"),
    ],
)
def test_bad_sampler_settings_name_the_parameter(kwargs, param):
    with pytest.raises(ValueError, match=f"^{param}:"):
        TrainConfig(**kwargs).validate()


# -- export ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "name, trl_mode, verl",
    [
        ("token_tis", "token_truncate", {"rollout_is": "token", "rollout_is_threshold": 2.0}),
        ("sequence_tis", "sequence_truncate", {"rollout_is": "sequence", "rollout_is_threshold": 2.0}),
        ("token_mis", "token_mask", {"rollout_is": "token", "rollout_is_threshold": "0.5_2.0"}),
        # verl's mask band needs a lower bound > 0: 1e-9 never binds (log-ratios are clamped to ±20);
        # each bound keeps its point or exponent: Hydra reads "0.5_2" as 0.52 and "1e-09_3" as 1e-93
        ("sequence_mis", "sequence_mask", {"rollout_is": "sequence", "rollout_is_threshold": "1e-09_3.0"}),
        ("geo_mean_rs", None, {"rollout_rs": "seq_mean_k1", "rollout_rs_threshold": "0.999_1.001"}),
        ("seq_ratio_rs", None, {"rollout_rs": "seq_sum_k1", "rollout_rs_threshold": "0.5_2.0"}),
        ("k3_rs", None, {"rollout_rs": "seq_mean_k3", "rollout_rs_threshold": 0.01}),  # an upper bound alone
    ],
)
def test_each_correction_exports_under_the_frameworks_names(name, trl_mode, verl):
    e = export_config("grpo", None, None, TrainConfig(rollout_correction=name))
    assert e.trl.get("vllm_importance_sampling_mode") == trl_mode
    if trl_mode:
        assert e.trl["vllm_importance_sampling_correction"] is True
    else:
        assert "rollout_correction" in e.unmapped["trl"]
    got = {k.removeprefix("algorithm.rollout_correction."): v for k, v in e.verl.items() if "rollout_correction" in k}
    assert got == verl
    plain = export_config("grpo", None, None, TrainConfig())
    assert not any("importance_sampling" in k or "rollout_correction" in k for k in plain.trl | plain.verl)


def test_an_uncorrected_mismatched_run_switches_trls_default_correction_off():
    # TRL corrects by default on its vLLM path; an rlviz run with a bf16 sampler and no correction is
    # vllm_importance_sampling_correction=False, and so is one with a filter TRL does not have
    for name in ("none", "geo_mean_rs"):
        e = export_config("grpo", None, None, TrainConfig(rollout_correction=name, rollout_dtype="bfloat16"))
        assert e.trl["vllm_importance_sampling_correction"] is False


# -- the experiment ---------------------------------------------------------------------------------


def test_correction_curves_by_hand():
    c = X.correction_curves(0.25, 4.0, 9)
    w = {(row.correction, round(row.ratio, 6)): row.weight for row in c.itertuples()}
    assert all(w[(name, 1.0)] == 1.0 for name in CORRECTIONS)  # no mismatch: weight 1 everywhere
    assert w[("token_tis", 4.0)] == 2.0 and w[("token_tis", 0.25)] == 0.25  # min(r, 2); TIS has no floor
    assert w[("token_mis", 4.0)] == 0.0 and w[("token_mis", 0.25)] == 0.0  # outside [0.5, 2]: dropped
    assert w[("token_mis", 0.5)] == pytest.approx(0.5)  # on the band's edge: kept with weight r
    assert w[("sequence_mis", 2.0)] == pytest.approx(2.0) and w[("sequence_mis", 4.0)] == 0.0  # C_max 3
    with pytest.raises(ValueError, match="^r_min:"):
        X.correction_curves(1.5, 4.0)


@pytest.fixture(scope="module")
def measured(policy):
    settings = X.MismatchSettings(prompts=2, group_size=2, stale_steps=1, stale_lr=1e-3, top_p=0.8, top_k=4)
    return X.measure_mismatch(settings, policy=policy)


def test_measure_mismatch(measured):
    assert list(measured.summary["sampler"]) == list(X.SAMPLERS)
    f32 = measured.row("float32")
    assert f32["kl"] == 0 and f32["abs_max"] == 0  # the policy scored by itself
    tp = measured.tokens[measured.tokens["sampler"] == "top_p"]
    assert (tp["log_ratio"] <= 1e-6).all() and (tp["kept_mass"] >= 0.8 - 1e-5).all()
    assert (measured.corrections.query("correction == 'none'")["weight_mean"] == 1.0).all()
    assert measured.correction("float32", "token_mis")["tokens_dropped"] == 0.0
    for replay, truncation in X.MASK_REPLAYS.items():
        # the same responses, the trainer renormalising over the sampler's kept set: l = 0 on every token
        # (both sides are log p_y - log(kept mass)); the kept mass is still measured, the truncation's
        assert measured.row(replay)["abs_max"] <= 1e-6 and measured.row(truncation)["abs_max"] > 1e-3
        mass = [measured.tokens.query("sampler == @x")["kept_mass"].to_numpy() for x in (replay, truncation)]
        assert mass[0] == pytest.approx(mass[1])
        assert measured.correction(replay, "token_tis")["weight_mean"] == pytest.approx(1.0, abs=1e-6)
    # how often a TIS cap binds: top-p's ratio is the kept mass <= 1, never above C = 2; NaN for other kinds
    assert measured.correction("top_p", "token_tis")["tokens_capped"] == 0.0
    assert math.isnan(measured.correction("top_p", "token_mis")["tokens_capped"])


def test_verls_presets_on_the_measured_batch(measured):
    # each preset's correction part is measured beside the corrections it composes: Token-TIS at its default
    # C = 2 is token_tis; Geo-RS + Token-TIS drops what Geo-RS drops; bypass PPO-clip weighs nothing
    for x in X.SAMPLERS:
        tis, preset = measured.correction(x, "token_tis"), measured.correction(x, "decoupled_token_is")
        assert preset["weight_mean"] == pytest.approx(tis["weight_mean"], abs=1e-12)
        geo, both = measured.correction(x, "geo_mean_rs"), measured.correction(x, "decoupled_geo_rs_token_tis")
        assert both["tokens_dropped"] == geo["tokens_dropped"]
        assert measured.correction(x, "bypass_ppo_clip")["weight_mean"] == 1.0
    names = X.sampler_names(measured.settings, "zh")
    for lang in ("en", "zh"):
        registry = X.preset_table(lang)
        assert len(registry) == len(PRESETS) and registry.notna().all().all()
        effect = X.preset_effect_table(measured, ["float32", "top_p"], names, lang)
        assert effect.shape == (len(PRESETS), 3)
    f32 = X.preset_effect_table(measured, ["float32"], names, "en").iloc[:, 1]
    assert all(cell.startswith(f"{pct(0.0)} · {pct(0.0)}") for cell in f32)  # scored by itself: nothing dropped


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_preset_rows_read_consistently(lang):
    # plain cells (a table cell shows markdown as typed); every IS weight in its column, the bypass one the
    # objective holds marked as such; every REINFORCE bypass row names verl's loss_type the same way; a
    # preset with nothing outside its loss shows its loss's parity check, not a bare dash; a short header
    table = X.preset_table(lang)
    cells = table.astype(str).to_numpy().ravel().tolist()
    assert not [c for c in cells if "**" in c or "`" in c]
    rows = dict(zip(PRESETS, table.to_dict("records")))
    name, mode, weight, reject, checked = table.columns
    pg_is = rows["bypass_pg_is"]
    assert pg_is[weight] == t(
        "mismatch.preset.in_loss", lang, weight=f"{CORRECTIONS['sequence_tis'].label(lang)} [0, 2]"
    )
    assert rows["decoupled_seq_is_rs"][reject] == f"{CORRECTIONS['seq_ratio_rs'].label(lang)} [0.5, 2]"
    for key, spec in PRESETS.items():
        assert rows[key][name] == f"{spec.label(lang)} ({key})"
        if spec.mode == "bypass":
            assert f"loss_type = {spec.loss_type}" in rows[key][mode], key
    assert "—" not in table[checked].tolist()
    from rlviz.core.parity import checked_against
    from rlviz.i18n import LIST_SEPARATOR

    ppo = LIST_SEPARATOR[lang].join(f"{fw} {v}" for fw, v in checked_against("policy")["ppo"])
    assert rows["bypass_ppo_clip"][checked] == t("mismatch.preset.checked_loss", lang, checked=ppo)
    assert len(checked) <= 16


def test_cap_readings_say_where_c_binds(measured):
    import dataclasses

    names = X.sampler_names(measured.settings, "en")
    shown = ["float32", "stale", "top_p"]
    frame = measured.corrections.copy()
    frame.loc[frame["correction"].isin(["token_tis", "sequence_tis"]), ["tokens_capped", "sequences_capped"]] = 0.0
    at = (frame["sampler"] == "stale") & (frame["correction"] == "token_tis")
    frame.loc[at, ["tokens_capped", "sequences_capped"]] = [0.25, 0.5]  # 1 of 4 tokens, 1 of 2 responses
    token_line, sequence_line = X.cap_readings(dataclasses.replace(measured, corrections=frame), shown, names, "en")
    assert (
        "Token TIS (C = 2)" in token_line
        and f"{names['stale']} (25.0% of the tokens, 50.0% of the responses)" in token_line
    )
    assert "other 2 samplers never" in token_line and names["top_p"] not in token_line
    assert sequence_line == t("mismatch.read_cap_none", "en", correction="Sequence TIS", band="C = 2")
    zh = X.cap_readings(
        dataclasses.replace(measured, corrections=frame), shown, X.sampler_names(measured.settings, "zh"), "zh"
    )
    assert "25.0%" in zh[0] and "其余 2 种采样端" in zh[0]


def test_predictions_read_the_measurement(measured):
    state = X.mismatch_state(measured)
    precision, truncation = PREDICTIONS["mismatch"]
    kl = {s: measured.row(s)["kl"] for s in ("bfloat16", "float16")}
    expected = "float16" if kl["float16"] < kl["bfloat16"] else "bfloat16"
    assert precision.compute(state) == (expected if kl["float16"] != kl["bfloat16"] else "same")
    assert truncation.compute(state) == "below"  # top-p never puts the ratio above 1


def _stored(matched, none, fp16):
    arm = {"rollout_kl": 0.1}
    return {
        "settings": {"heldout_samples": 4},
        "window": 5,
        "arms": {
            "matched": arm | {"heldout_end": matched},
            "none": arm | {"heldout_end": none},
            "float16": arm | {"heldout_end": fp16},
        },
    }


def test_measured_reading_against_noise():
    # n = 96 x 4 = 384; p = 0.45: 2 sqrt(2 x 0.2475 / 384) = 0.0718
    assert X.measured_reading(_stored(0.5, 0.4, 0.5))["verdict"] == "uncorrected_worse"
    assert X.measured_reading(_stored(0.5, 0.4, 0.42))["verdict"] == "gap_uncorrected"
    assert X.measured_reading(_stored(0.45, 0.44, 0.45))["verdict"] == "no_gap"


def test_measured_consistency_across_seeds():
    one, two = _stored(0.5, 0.4, 0.5), _stored(0.45, 0.44, 0.45)
    for run, seed, kl in ((one, 0, 0.1), (two, 1, 0.2)):
        run["settings"]["seed"] = seed
        run["arms"]["token_tis"] = {"rollout_kl": kl / 2, "heldout_end": 0.45}  # below none's KL in both
        run["arms"]["none"]["rollout_kl"] = kl
    together = X.measured_consistency({"runs": [one, two]})
    assert [r["verdict"] for r in together["readings"]] == ["uncorrected_worse", "no_gap"]
    assert not together["agree"] and together["kl_lower"] == {"token_tis": [0.05, 0.1]}
    assert X.measured_consistency({"runs": [one, one]})["agree"]


def test_live_config_refuses_r3_on_the_dense_model():
    with pytest.raises(ValueError, match="^arms:"):
        X.MismatchLiveConfig(arms=("none", "r3"), model="dense").validate()
    arms = X.MismatchLiveConfig(arms=tuple(X.LIVE_ARM_KEYS), model="moe").arm_list()
    assert [a.name for a in arms] == list(X.LIVE_ARM_KEYS)  # one arm per correction, and the others
    assert {a.train.get("rollout_correction") for a in arms} >= set(CORRECTIONS)


def test_the_mask_replay_arm_trains_over_the_samplers_kept_set():
    # a float32 sampler, fresh weights, top-p 0.8: the only mismatch is the truncation, which the replay
    # arm removes (KL 0) and the uncorrected arm keeps (KL > 0)
    config = X.MismatchLiveConfig(
        arms=("none", "mask_replay"), rollout_dtype="float32", rollout_stale_steps=0, top_p=0.8, steps=1,
        prompts_per_step=2, group_size=2, mu=1, mini_batches=1, heldout_samples=0, device="cpu",
    )  # fmt: skip
    run = X.MismatchLiveRun(config)
    out = run.step()
    assert run.trainers["mask_replay"].config.replay_sampling_mask
    assert out["mask_replay"]["rollout_kl"] <= 1e-6 < out["none"]["rollout_kl"]
    # said before Run: the arm is No correction with an untruncated sampler; R3 needs the MoE model
    assert X.live_warnings(("mask_replay",), "dense", 1.0, "en") == [t("mismatch.replay_no_truncation", "en")]
    assert X.live_warnings(("mask_replay", "r3"), "dense", 0.9, "zh") == [t("mismatch.dense_no_r3", "zh")]
    assert X.live_warnings(("none",), "moe", 1.0, "en") == []


def test_r3_joins_the_live_run_on_the_moe():
    config = X.MismatchLiveConfig(
        arms=("none", "r3"), model="moe", steps=1, prompts_per_step=2, group_size=2, mu=1, mini_batches=1,
        heldout_samples=0, rollout_stale_steps=0, device="cpu",
    )  # fmt: skip
    run = X.MismatchLiveRun(config)
    out = run.step()
    assert set(out) == {"none", "r3"} and run.trainers["r3"].routing_replay == "R3"
    # the bf16 sampler's routing is what R3 replays; both arms measure the sampler-trainer gap
    assert all(m["rollout_kl"] >= 0 for m in out.values())


def test_the_corrections_figure_keeps_its_titles_and_legend_apart_at_1024_px():
    # found at 1024 px: the legend covered the two panel titles and the right one ran off the figure
    from rlviz.experiments.mismatch import correction_curves, trust_region_curves
    from rlviz.plots.mismatch import correction_figure
    from rlviz.plots.moe import LEGEND_ROW_PX, TITLE_LINE_PX, legend_rows, text_px

    words = {"panel.corrections": "rollout corrections: fixed when the batch is sampled"}
    words |= {"panel.trust": "GRPO's trust region: moves during the updates"}
    fig = correction_figure(correction_curves(points=21), words, trust_region_curves(points=21))
    titles = [a.text for a in fig.layout.annotations]
    assert [t.replace("<br>", " ") for t in titles] == list(words.values())
    assert all(text_px(line) <= 200 for t in titles for line in t.split("<br>"))  # each fits its panel
    lines = max(t.count("<br>") + 1 for t in titles)
    assert fig.layout.margin.t >= legend_rows([tr.name for tr in fig.data]) * LEGEND_ROW_PX + lines * TITLE_LINE_PX
