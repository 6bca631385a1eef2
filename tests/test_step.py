"""One update, slowly (``rlviz.experiments.step``): one sampled group replayed under the registry's objectives
with the trainer's own update; hand-checked values, the trainer's own records, and the stages an entry
changes, read from its spec."""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rlviz.core.advantages import group_advantages
from rlviz.core.aggregation import token_weights
from rlviz.core.objectives import ALGORITHMS, TOKEN_STATES, trust_band
from rlviz.experiments import step as S
from rlviz.teach.predict import PREDICTIONS, reveal, state_from_settings

SEED, G = 0, 6


@pytest.fixture(scope="module")
def sample():
    return S.sample_group(SEED, G, "")


@pytest.fixture(scope="module")
def walks(sample):
    cache = {}

    def walk(name: str, lr: float = S.DEFAULT_LR) -> S.Walk:
        if (name, lr) not in cache:
            cache[name, lr] = S.replay(sample, name, lr)
        return cache[name, lr]

    return walk


# ------------------------------------------------------------------------------------------ the batch
def test_the_sample_is_one_group_with_mixed_rewards_and_is_deterministic(sample):
    b = sample.batch
    assert len(b.problems) == G and len({p.prompt for p in b.problems}) == 1
    assert sample.auto and sample.prompt == ""
    assert len(set(b.rewards.tolist())) > 1  # drawn: the first of the prompts whose answers are mixed
    again = S.sample_group(SEED, G, "")
    assert again.batch.texts == b.texts and torch.equal(again.batch.rewards, b.rewards)


def test_a_typed_prompt_is_the_groups_prompt():
    s = S.sample_group(3, 4, "12+7")
    assert not s.auto and s.prompt == "12+7=" and {p.prompt for p in s.batch.problems} == {"12+7="}
    assert {p.answer for p in s.batch.problems} == {"91"}  # 19, digits reversed


@pytest.mark.parametrize(
    "call,name",
    [
        (lambda: S.sample_group(0, 3, ""), "group_size"),
        (lambda: S.sample_group(0, 9, ""), "group_size"),
        (lambda: S.sample_group(0, 4, "12x"), "prompt"),
        (lambda: S.sample_group(-1, 4, ""), "seed"),
    ],
)
def test_bad_input_names_its_parameter(call, name):
    with pytest.raises(ValueError, match=rf"^{name}:"):
        call()


def test_a_replay_refuses_a_bad_learning_rate_or_objective(sample):
    with pytest.raises(ValueError, match="^lr:"):
        S.replay(sample, "grpo", 0.0)
    with pytest.raises(ValueError):
        S.replay(sample, "no_such_objective")


def test_every_objective_replays_the_same_batch(walks):
    base = walks("grpo")
    for name in ("dapo", "gspo", "sapo", "ppo", "dr_grpo"):
        w = walks(name)
        assert w.tokens == base.tokens and w.texts == base.texts
        assert np.array_equal(w.rewards, base.rewards)
        # the same weights compute the same pi_old: the ratio's denominator does not depend on the objective
        assert np.allclose(w.old_log_prob, base.old_log_prob, atol=1e-6)
        assert np.array_equal(w.response_mask, base.response_mask)


# ---------------------------------------------------------------------------- the trainer's own update
@pytest.mark.parametrize("name", ["grpo", "dapo", "gspo", "cispo"])
def test_the_first_step_is_on_policy_and_the_second_sees_what_the_walk_shows(walks, name):
    w = walks(name)
    assert w.first_update["ratio_min"] == w.first_update["ratio_max"] == 1.0  # exp(0): the same tensor
    real = w.in_loss
    assert np.abs(np.log(w.token_ratio[real])).max() > 1e-3  # the first step moved the policy
    # the trainer's record of its second optimizer step is what the walk shows
    assert w.ratio[real].mean() == pytest.approx(w.second_update["ratio_mean"], rel=1e-5)
    assert w.ratio[real].min() == pytest.approx(w.second_update["ratio_min"], rel=1e-5)
    hits = w.states[real] != "active"
    clip_like = np.isin(w.states[real], ["clipped", "capped"])
    assert clip_like.mean() == pytest.approx(w.second_update["clip_fraction"], abs=1e-9)
    assert set(w.states[real]) <= set(TOKEN_STATES) and hits.sum() >= clip_like.sum()


def test_grpo_advantages_are_group_advantages_of_the_rewards(walks):
    w = walks("grpo")
    expected = group_advantages(torch.tensor(w.rewards)[None, :], "group")[0].numpy()
    assert np.allclose(w.adv_rows, expected, atol=1e-6)
    # by hand: (r - mean) / (unbiased std + 1e-6)
    r = w.rewards
    assert np.allclose(w.adv_rows, (r - r.mean()) / (r.std(ddof=1) + 1e-6), atol=1e-6)
    # Dr.GRPO divides by no std: r - mean
    assert np.allclose(walks("dr_grpo").adv_rows, r - r.mean(), atol=1e-6)
    assert not w.per_token_advantage and walks("ppo").per_token_advantage  # GAE: one per token


@pytest.mark.parametrize("name", ["grpo", "dapo", "dr_grpo", "gspo"])
def test_the_aggregation_shares_sum_to_one_and_make_the_loss(walks, name):
    w = walks(name)
    real = w.in_loss
    assert w.share[real].sum() == pytest.approx(1.0, abs=1e-12)
    assert (w.share[~real] == 0).all() and (w.share[real] > 0).all()
    expected = token_weights(torch.tensor(w.mask), w.loss_agg_mode, w.norm_length).double().numpy()
    assert np.allclose(w.token_weight, expected, rtol=1e-6)
    assert float((w.token_weight * w.per_token_loss).sum()) == pytest.approx(w.loss, rel=1e-5, abs=1e-9)


def test_seq_mean_token_mean_gives_every_response_the_same_share(walks):
    w = walks("grpo")  # seq-mean-token-mean: each response 1/G, shared by its tokens
    assert w.loss_agg_mode == "seq-mean-token-mean"
    assert np.allclose(w.share.sum(axis=1), 1 / G)
    long_, short = int(np.argmax(w.lengths)), int(np.argmin(w.lengths))
    assert w.share[short, 0] / w.share[long_, 0] == pytest.approx(w.lengths[long_] / w.lengths[short])


@pytest.mark.parametrize("name", ["dapo", "dr_grpo"])
def test_each_tokens_push_by_hand(walks, name):
    # PPO's clipped surrogate without a KL term: loss_t = -min(r A, clip(r) A) weighted by w_t, so
    # -d loss / d log pi = w_t r A where the clip is inactive and 0 where it clipped
    w = walks(name)
    assert (ALGORITHMS[name].defaults["beta"] or 0) == 0
    real = w.in_loss
    active, clipped = real & (w.states == "active"), real & (w.states == "clipped")
    expected = w.token_weight * w.token_ratio * w.advantages
    assert np.allclose(w.push[active], expected[active], rtol=1e-5, atol=1e-9)
    assert (w.push[clipped] == 0).all()
    low, high = trust_band(name)
    # clipped only where r left the band in the direction A pushes
    a, r = w.advantages[clipped], w.token_ratio[clipped]
    assert (((a > 0) & (r > high)) | ((a < 0) & (r < low))).all()


def test_the_second_step_moves_the_policy_and_the_walk_measures_it(walks):
    w = walks("grpo")
    real = w.response_mask > 0
    assert np.abs(w.delta_log_prob[real]).max() > 1e-4
    assert np.allclose(w.delta_log_prob[real], (w.new_log_prob - w.log_prob)[real])
    agree, pushed = w.moved_as_pushed
    assert 0 <= agree <= pushed == int((w.in_loss & (w.push != 0)).sum())
    assert math.isfinite(w.loss_after) and math.isfinite(w.first_order)


def test_a_larger_learning_rate_moves_the_ratios_further(walks):
    small, large = walks("grpo", 1e-5), walks("grpo", 1e-3)
    real = small.in_loss
    assert np.abs(np.log(large.token_ratio[real])).mean() > np.abs(np.log(small.token_ratio[real])).mean()


def test_the_frame_has_one_row_per_token(walks):
    w = walks("dapo")
    frame = w.frame()
    assert len(frame) == sum(len(t) for t in w.tokens)
    assert frame["response"].min() == 1 and frame["response"].max() == G
    assert frame["share"].sum() == pytest.approx(1.0)
    assert frame[["old_prob", "prob", "new_prob"]].apply(lambda c: c.between(0, 1)).all().all()


def test_the_token_note_says_what_the_dots_and_eos_are(walks):
    from rlviz.i18n import t
    from rlviz.lm.rollout import EOS_DISPLAY
    from rlviz.lm.task import make_problem, reward
    from rlviz.lm.tokenizer import FILLER

    w = walks("grpo")
    frame = w.frame()
    assert (frame["token"] == FILLER).any()  # this group holds filler dots (".231⏎", ".....231⏎")
    # what the note says, checked: a filler is a sampled token in the loss like its response's digits and EOS
    assert all(rows["in_loss"].nunique() == 1 for _, rows in frame.groupby("response"))
    assert frame.loc[frame["token"] == FILLER, "in_loss"].all()
    # the verifier skips leading fillers (and only those): 37+5= -> "24"
    problem = make_problem(37, 5, 1)
    assert (
        reward(problem, FILLER * 3 + problem.answer, True) == 1.0 and reward(problem, "2" + FILLER + "4", True) == 0.0
    )
    # no padding drawn: a response's rows are its real tokens, the last one EOS
    for n, (_, rows) in zip(w.lengths, frame.groupby("response"), strict=True):
        assert len(rows) == n and rows["token"].iloc[-1] == EOS_DISPLAY
    for lang in ("en", "zh"):
        eos = t("step.tokens_eos", lang, eos=EOS_DISPLAY)
        note = S.token_note(w, lang)
        assert note.startswith(t("step.tokens_filler", lang, filler=FILLER)) and note.endswith(eos)
        # a group without a filler: the note names EOS only
        plain = dataclasses.replace(w, tokens=[[x for x in tokens if x != FILLER] for tokens in w.tokens])
        assert S.token_note(plain, lang) == eos


# ------------------------------------------------------------------------ what an entry changes
def test_grpo_changes_nothing_and_no_entry_changes_the_optimizer_step():
    assert S.changes(S.BASELINE) == {}
    for name in ALGORITHMS:
        found = S.changes(name)
        assert list(found) == [s for s in S.STAGES if s in found]  # in stage order
        assert "update" not in found
        assert all(c.stage == stage for stage, cs in found.items() for c in cs)


# Each spec field and the stage it decides, as the page promises (independent of FEATURES): a GRPO whose
# one field takes another entry's value changes exactly that stage, if the value differs.
def _with_loss_default(spec, other, name):
    mine = {s.name: s for s in spec.loss_settings}
    theirs = {s.name: s for s in other.loss_settings}
    if name not in theirs or name not in mine:
        return None
    return dataclasses.replace(
        spec, loss_settings=tuple(theirs[name] if s.name == name else s for s in spec.loss_settings)
    )


def _with_train_default(spec, other, name):
    mine = {s.name for s in spec.train_settings}
    theirs = {s.name: s for s in other.train_settings}
    if name not in theirs or name not in mine:
        return None
    return dataclasses.replace(
        spec, train_settings=tuple(theirs[name] if s.name == name else s for s in spec.train_settings)
    )


FIELDS = {
    "ratio_level": ("ratio", lambda spec, other: dataclasses.replace(spec, ratio_level=other.ratio_level)),
    "trust_region": ("clip", lambda spec, other: dataclasses.replace(spec, trust_region=other.trust_region)),
    "clip_space": ("clip", lambda spec, other: dataclasses.replace(spec, clip_space=other.clip_space)),
    "epsilon_high": ("clip", lambda spec, other: _with_loss_default(spec, other, "epsilon_high")),
    "epsilon_low": ("clip", lambda spec, other: _with_loss_default(spec, other, "epsilon_low")),
    "surrogate": ("weights", lambda spec, other: dataclasses.replace(spec, surrogate=other.surrogate)),
    "beta": ("weights", lambda spec, other: _with_loss_default(spec, other, "beta")),
    "loss_agg_mode": ("aggregation", lambda spec, other: _with_loss_default(spec, other, "loss_agg_mode")),
    "overlong_filtering": ("aggregation", lambda spec, other: _with_train_default(spec, other, "overlong_filtering")),
    "dynamic_sampling": ("responses", lambda spec, other: _with_train_default(spec, other, "dynamic_sampling")),
    "overlong_shaping": ("rewards", lambda spec, other: _with_train_default(spec, other, "overlong_shaping")),
    "scale_rewards": ("advantages", lambda spec, other: _with_train_default(spec, other, "scale_rewards")),
    "advantage": ("advantages", lambda spec, other: _with_train_default(spec, other, "advantage")),
}


def _field_value(spec, field):
    """The value of ``field`` that the stage reads: the attribute, or the setting's default."""
    if hasattr(spec, field):
        value = getattr(spec, field)
        return tuple(sorted(value)) if isinstance(value, frozenset) else value
    return {**spec.defaults, **spec.train_defaults}.get(field)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(entry=st.sampled_from(sorted(ALGORITHMS)), field=st.sampled_from(sorted(FIELDS)))
def test_one_field_of_another_entry_changes_its_stage_only(entry, field):
    base, other = ALGORITHMS[S.BASELINE], ALGORITHMS[entry]
    stage, make = FIELDS[field]
    mixed = make(base, other)
    if mixed is None:  # the entry has no such setting
        return
    mixed = dataclasses.replace(mixed, name="grpo_one_field", title="GRPO, one field")
    saved = ALGORITHMS.get("grpo_one_field")
    ALGORITHMS["grpo_one_field"] = mixed
    try:
        found = S.changes("grpo_one_field")
    finally:
        if saved is None:
            del ALGORITHMS["grpo_one_field"]
        else:
            ALGORITHMS["grpo_one_field"] = saved
    differs = _field_value(other, field) != _field_value(base, field)
    assert set(found) == ({stage} if differs else set()), (entry, field, found)


@pytest.mark.parametrize("name", sorted(ALGORITHMS))
def test_each_entrys_marks_follow_from_its_spec(name):
    spec, base = ALGORITHMS[name], ALGORITHMS[S.BASELINE]
    found = S.changes(name)
    assert ("ratio" in found) == (spec.ratio_level != base.ratio_level)
    # a trust-region setting that is off (None) is as good as absent
    surrogate = {s.name: s.default for s in spec.surrogate_settings if s.default is not None}
    base_surrogate = {s.name: s.default for s in base.surrogate_settings if s.default is not None}
    clip = spec.trust_region != base.trust_region or spec.clip_space != base.clip_space or surrogate != base_surrogate
    assert ("clip" in found) == clip
    train, base_train = spec.train_defaults, base.train_defaults
    assert ("responses" in found) == (train["dynamic_sampling"] != base_train["dynamic_sampling"])
    assert ("rewards" in found) == (train["overlong_shaping"] != base_train["overlong_shaping"])
    keys = ("advantage", "scale_rewards", "adv_estimator")
    assert ("advantages" in found) == any(train[k] != base_train[k] for k in keys)
    aggregation = (
        spec.defaults.get("loss_agg_mode") != base.defaults.get("loss_agg_mode")
        or train.get("overlong_filtering") != base_train.get("overlong_filtering")
        or spec.defaults.get("norm_length") != base.defaults.get("norm_length")
    )
    assert ("aggregation" in found) == aggregation


def test_dapos_changes_read_from_its_spec():
    found = S.changes("dapo")
    assert [c.feature for c in found["clip"]] == ["epsilon_high"]
    assert (found["clip"][0].baseline, found["clip"][0].value) == (0.2, ALGORITHMS["dapo"].defaults["epsilon_high"])
    assert {c.feature for c in found["aggregation"]} == {"loss_agg_mode"}
    assert set(found) == {"responses", "rewards", "clip", "weights", "aggregation"}


# --------------------------------------------------------------------------------- the predictions
def test_prediction_state_reads_the_page_settings_and_falls_back():
    state = state_from_settings(
        "step", {"st_obj": "dapo", "st_G": "5", "st_prompt": "12+7", "st_lr": "0.001", "seed": "3"}
    )
    assert state == {"objective": "dapo", "group_size": 5, "prompt": "12+7=", "lr": 1e-3, "seed": 3}
    bad = state_from_settings(
        "step", {"st_obj": "nope", "st_G": "99", "st_prompt": "12x", "st_lr": "0.5", "seed": "-2"}
    )
    assert bad == {"objective": "grpo", "group_size": S.DEFAULT_GROUP_SIZE, "prompt": "", "lr": S.DEFAULT_LR, "seed": 0}


def test_the_questions_answers_come_from_the_same_walk():
    q_adv, q_clip = PREDICTIONS["step"]
    state = {"objective": "grpo", "group_size": G, "prompt": "", "lr": S.DEFAULT_LR, "seed": SEED}
    walk = S.walk_at(state)
    assert q_adv.compute(state) == pytest.approx(float(walk.adv_rows[0]))
    share = float((walk.states[walk.in_loss] == "clipped").mean())
    assert q_clip.compute(state) == pytest.approx(share)
    assert reveal(q_adv, state, float(walk.adv_rows[0]) + 0.04).correct
    assert not reveal(q_adv, state, float(walk.adv_rows[0]) + 0.2).correct
    explained = q_adv.why_fields(state)
    assert explained["mean"] == f"{walk.shaped.mean():.3g}"
    assert q_clip.why_fields(state)["n"] == str(int(walk.in_loss.sum()))


def test_the_questions_are_asked_where_the_spec_makes_them_meaningful():
    q_adv, q_clip = PREDICTIONS["step"]
    for name, spec in ALGORITHMS.items():
        state = {"objective": name, "group_size": G, "prompt": "", "lr": S.DEFAULT_LR, "seed": SEED}
        assert q_adv.applies(state) == (spec.train_defaults["advantage"] != "gae")
        assert q_clip.applies(state) == ("clipped" in spec.trust_region)
