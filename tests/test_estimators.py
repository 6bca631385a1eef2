"""The advantage-estimator registry (rlviz.core.estimators): hand values, properties over every entry,
bad input, the difficulty-bias weight, the format reward and greedy decoding, and one real training
step with every estimator (adv_estimator)."""

from __future__ import annotations

import copy
import math

import pytest
import torch
from apptools import torch_threads
from hypothesis import given, settings
from hypothesis import strategies as st

from rlviz.core.advantages import group_advantages
from rlviz.core.estimators import ESTIMATORS, estimate_advantages, expected_group_weight, whiten
from rlviz.core.objectives import OWN_ESTIMATOR, TRAINER_SETTINGS
from rlviz.experiments import advantages as A
from rlviz.lm.task import format_reward, make_problem
from rlviz.teach.predict import PREDICTIONS, state_from_settings

F64 = torch.float64
R = torch.tensor([[1.0, 0.0, 0.0, 0.0], [1.0, 1.0, 0.0, 1.0]], dtype=F64)  # two groups of G = 4
GREEDY = torch.tensor([0.0, 1.0], dtype=F64)


def adv(name, rewards=R, **kw):
    kw.setdefault("greedy_rewards", GREEDY if "greedy" in ESTIMATORS[name].needs else None)
    return estimate_advantages(name, rewards, **kw)


# -- hand values ---------------------------------------------------------------------------------


def test_group_estimators_by_hand():
    # group 1: mean 0.25, std (Bessel) sqrt(0.25) = 0.5 -> GRPO (1 - 0.25) / 0.5 = 1.5, (0 - 0.25) / 0.5 = -0.5
    assert torch.allclose(adv("grpo")[0], torch.tensor([1.5, -0.5, -0.5, -0.5], dtype=F64), atol=1e-5)
    assert torch.equal(adv("grpo"), group_advantages(R, "group"))  # the one GRPO rule, reused
    # Dr.GRPO: R - mean = 0.75, -0.25; group 2: mean 0.75 -> 0.25, -0.75
    assert torch.allclose(
        adv("dr_grpo"), torch.tensor([[0.75, -0.25, -0.25, -0.25], [0.25, 0.25, -0.75, 0.25]], dtype=F64)
    )
    # RLOO: R_i - mean of the other three = 1 - 0 = 1 and 0 - 1/3 = -1/3 (= 4/3 x Dr.GRPO)
    assert torch.allclose(adv("rloo")[0], torch.tensor([1.0, -1 / 3, -1 / 3, -1 / 3], dtype=F64))
    # batch std: all 8 rewards, 4 ones, 4 zeros: std (Bessel) = sqrt(8 * 0.25 / 7) = 0.5345 -> 0.75 / 0.5345
    assert float(adv("batch_std")[0, 0]) == pytest.approx(0.75 / math.sqrt(2 / 7), rel=1e-5)
    # MaxRL: (R - mean) / mean: 0.75 / 0.25 = 3 (= 1/p - 1 with p = 1/4), -0.25 / 0.25 = -1
    assert torch.allclose(adv("maxrl")[0], torch.tensor([3.0, -1.0, -1.0, -1.0], dtype=F64), atol=1e-4)
    # ReMax: R - R(greedy): group 1 greedy 0 -> the rewards themselves; group 2 greedy 1 -> 0, 0, -1, 0
    assert torch.equal(adv("remax"), torch.tensor([[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, -1.0, 0.0]], dtype=F64))


def test_gpg_opo_and_pass_at_k_by_hand():
    # GPG: alpha = B / #(R != 0) = 8 / 4 = 2 over the batch R; A = 2 (R - mean): group 1 mean 0.25 -> 1.5, -0.5
    assert torch.allclose(
        adv("gpg"), 2 * torch.tensor([[0.75, -0.25, -0.25, -0.25], [0.25, 0.25, -0.75, 0.25]], dtype=F64)
    )
    # one right answer in the whole batch of 8: alpha = 8, A = 8 (1 - 1/4) = 6 for it
    lone = torch.tensor([[1.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]], dtype=F64)
    assert float(estimate_advantages("gpg", lone)[0, 0]) == pytest.approx(6.0)
    # OPO: baseline sum(L R) / sum(L); lengths 3, 5, 8, 2 and R = 1, 0, 0, 1: b = (3 + 2) / 18 -> A = 13/18, -5/18
    lengths = torch.tensor([[3.0, 5.0, 8.0, 2.0], [1.0, 1.0, 1.0, 1.0]], dtype=F64)
    opo = estimate_advantages("opo", torch.tensor([[1.0, 0.0, 0.0, 1.0], R[1].tolist()], dtype=F64), lengths=lengths)
    assert torch.allclose(opo[0], torch.tensor([13 / 18, -5 / 18, -5 / 18, 13 / 18], dtype=F64))
    assert torch.allclose(opo[1], adv("dr_grpo")[1])  # equal lengths: the plain mean, Dr.GRPO
    assert torch.equal(adv("opo"), adv("dr_grpo"))  # no lengths: every response counts once
    # pass@k: only the best response gets (R_max - R_second) / (std + 1e-6); group 1: (1 - 0) / 0.5 = 2 for the
    # first, 0 for the rest; group 2 has three 1s: R_max - R_second = 0, nobody gets anything
    passk = adv("grpo_passk")
    assert torch.allclose(passk[0], torch.tensor([2.0, 0.0, 0.0, 0.0], dtype=F64), atol=1e-5)
    assert torch.equal(passk[1], torch.zeros(4, dtype=F64))
    # rewards 0.5, 0.25, 0, 0.75: the last leads by 0.25, std (Bessel) sqrt(0.3125 / 3) -> 0.25 / 0.3227 = 0.7746
    graded = estimate_advantages("grpo_passk", torch.tensor([[0.5, 0.25, 0.0, 0.75]], dtype=F64))
    assert float(graded[0, 3]) == pytest.approx(0.25 / math.sqrt(0.3125 / 3), rel=1e-5)
    assert float(graded[0, :3].abs().max()) == 0.0


def test_batch_whitening_by_hand():
    # REINFORCE++: mean 0.5 over 8 rewards, var (Bessel) 2/7 -> (1 - 0.5) / sqrt(2/7 + 1e-8) = 0.9354
    a = adv("reinforce_pp")
    assert float(a[0, 0]) == pytest.approx(0.5 / math.sqrt(2 / 7), rel=1e-6)
    assert float(a[0, 1]) == pytest.approx(-0.5 / math.sqrt(2 / 7), rel=1e-6)
    # REINFORCE++-baseline: whiten the Dr.GRPO values (mean 0, sum of squares 4 * 0.1875 * 2 = 1.5 -> var 1.5/7)
    b = adv("reinforce_pp_baseline")
    assert float(b[0, 0]) == pytest.approx(0.75 / math.sqrt(1.5 / 7), rel=1e-6)
    # token-weighted (verl masked_whiten): values 1, 0 with lengths 3, 1 -> mean 3/4, var (3/16 * 4/4) * 4/3 = 1/4
    w = whiten(torch.tensor([[1.0, 0.0]], dtype=F64), torch.tensor([[3.0, 1.0]], dtype=F64))
    assert torch.allclose(w, torch.tensor([[0.25 / 0.5, -0.75 / 0.5]], dtype=F64), atol=1e-6)
    # and with it an all-equal group in a batch is no longer exactly 0 under REINFORCE++-baseline
    lengths = torch.tensor([[1.0, 1.0, 1.0, 9.0], [2.0, 2.0, 2.0, 2.0]], dtype=F64)
    same = torch.tensor([[1.0, 0.0, 0.0, 0.0], [1.0, 1.0, 1.0, 1.0]], dtype=F64)
    assert float(estimate_advantages("reinforce_pp_baseline", same, lengths=lengths)[1].abs().max()) > 0.01
    assert float(estimate_advantages("reinforce_pp_baseline", same)[1].abs().max()) < 1e-9


def test_gdpo_by_hand():
    # two rewards: correctness [1, 0, 0, 0] -> z (1.5, -0.5, -0.5, -0.5); format [1, 1, 0, 1] -> (0.5, 0.5, -1.5, 0.5)
    # sum (2, 0, -2, 0), then whitening over the group (mean 0, var 8/3): 2 / sqrt(8/3) = 1.2247
    comps = torch.tensor([[[1.0, 1.0], [0.0, 1.0], [0.0, 0.0], [0.0, 1.0]]], dtype=F64)
    a = estimate_advantages("gdpo", comps[..., 0], components=comps)
    assert torch.allclose(a, torch.tensor([[1, 0, -1, 0]], dtype=F64) * 2 / math.sqrt(8 / 3), atol=1e-5)
    # GRPO on the sum (2, 1, 0, 1) gives the same order here; without components GDPO is whitened GRPO
    one = estimate_advantages("gdpo", R)
    assert torch.allclose(one, whiten(group_advantages(R, "group")), atol=1e-9)


def test_difficulty_weight_by_hand():
    p = torch.tensor([0.0, 0.1, 0.5, 0.9, 1.0], dtype=F64)
    G = 6
    # Dr.GRPO: sum |R - mean| = 2k(G-k)/G -> E = 2 (G - 1) p (1 - p)
    assert torch.allclose(expected_group_weight("dr_grpo", p, G), 2 * (G - 1) * p * (1 - p), atol=1e-12)
    # RLOO = G/(G-1) x Dr.GRPO -> 2 G p (1 - p); ReMax (greedy right with chance p): p(G - Gp) + (1 - p) G p, the same
    assert torch.allclose(expected_group_weight("rloo", p, G), 2 * G * p * (1 - p), atol=1e-12)
    assert torch.allclose(expected_group_weight("remax", p, G), 2 * G * p * (1 - p), atol=1e-12)
    # MaxRL: k right get G/k - 1, the rest -1 -> 2(G - k) for k >= 1 -> E = 2G(1 - p - (1 - p)^G)
    assert torch.allclose(expected_group_weight("maxrl", p, G), 2 * G * (1 - p - (1 - p) ** G), atol=1e-4)
    with pytest.raises(ValueError, match="^group_size"):
        expected_group_weight("grpo", p, 1)
    with pytest.raises(ValueError, match="^pass_rate"):
        expected_group_weight("grpo", [1.5], 4)


# -- properties over every entry ---------------------------------------------------------------------

groups = st.integers(1, 3).flatmap(
    lambda n: st.integers(1, 5).flatmap(
        lambda G: st.lists(st.sampled_from([0.0, 0.5, 1.0, 2.0]), min_size=n * G, max_size=n * G).map(
            lambda xs: torch.tensor(xs, dtype=F64).view(n, G)
        )
    )
)


@pytest.mark.parametrize("name", list(ESTIMATORS))
@settings(max_examples=15, deadline=None)
@given(rewards=groups, with_lengths=st.booleans())
def test_every_estimator_is_finite_and_shaped(name, rewards, with_lengths):
    n, G = rewards.shape
    lengths = torch.arange(1, n * G + 1, dtype=F64).view(n, G) if with_lengths else None
    kw = {"greedy_rewards": rewards[:, 0]} if "greedy" in ESTIMATORS[name].needs else {}
    comps = torch.stack([rewards, rewards.flip(1)], dim=-1)
    a = estimate_advantages(name, rewards, components=comps, lengths=lengths, **kw)
    assert a.shape == (n, G) and a.dtype == F64 and bool(torch.isfinite(a).all())
    spec = ESTIMATORS[name]
    if spec.baseline == "group" and not with_lengths:
        # a group whose rewards (all of them) are equal carries no signal under a group baseline
        same = torch.full((n, G), 1.0, dtype=F64)
        zero = estimate_advantages(name, same, components=torch.stack([same, same], dim=-1), **kw)
        assert float(zero.abs().max()) < 1e-9
    if not spec.batch_statistics:
        # a group-local estimator: each group's advantages ignore the other groups
        alone = estimate_advantages(
            name,
            rewards[:1],
            components=comps[:1],
            lengths=None if lengths is None else lengths[:1],  # OPO reads the lengths of its own group
            **({"greedy_rewards": rewards[:1, 0]} if kw else {}),
        )
        assert torch.allclose(alone, a[:1])


@pytest.mark.parametrize(
    "call, parameter",
    [
        (lambda: estimate_advantages("nope", R), "adv_estimator"),
        (lambda: estimate_advantages("grpo", torch.zeros(2, 0)), "rewards"),
        (lambda: estimate_advantages("grpo", torch.zeros(4)), "rewards"),
        (lambda: estimate_advantages("grpo", torch.tensor([[1.0, math.nan]])), "rewards"),
        (lambda: estimate_advantages("gdpo", R, components=torch.zeros(2, 4)), "components"),
        (lambda: estimate_advantages("gdpo", R, components=torch.full((2, 4, 1), math.inf)), "components"),
        (lambda: estimate_advantages("remax", R), "greedy_rewards"),
        (lambda: estimate_advantages("remax", R, greedy_rewards=torch.zeros(3)), "greedy_rewards"),
        (lambda: estimate_advantages("reinforce_pp", R, lengths=torch.zeros(2, 4)), "lengths"),
        (lambda: estimate_advantages("maxrl", -R), "rewards"),
    ],
)
def test_bad_input_names_the_parameter(call, parameter):
    with pytest.raises(ValueError, match=f"^{parameter}:"):
        call()


def test_trainer_setting_offers_the_registry():
    setting = next(s for s in TRAINER_SETTINGS if s.name == "adv_estimator")
    assert setting.default == OWN_ESTIMATOR and setting.choices == (OWN_ESTIMATOR, *ESTIMATORS)


# -- the page's library code and predictions ---------------------------------------------------------


def test_page_table_and_predictions():
    inputs = A.parse_inputs("1, 0, 0, 0", "1, 1, 0, 1", "0")
    table = A.advantage_table(inputs)
    assert list(dict.fromkeys(table["estimator"])) == list(ESTIMATORS)
    rloo = table[table["estimator"] == "rloo"]["advantage"].tolist()
    assert rloo == pytest.approx([1.0, -1 / 3, -1 / 3, -1 / 3])
    state = state_from_settings("advantages", {"ad_r": "1, 0, 0, 0"})
    rloo_q, maxrl_q = PREDICTIONS["advantages"]
    assert rloo_q.compute(state) == pytest.approx(1.0)  # 1 - mean(0, 0, 0)
    assert maxrl_q.compute(state) == pytest.approx(3.0, abs=1e-4)  # 1 / 0.25 - 1
    assert not maxrl_q.applies(state_from_settings("advantages", {"ad_r": "-1, 1", "ad_r2": "0, 0"}))
    for text, field in (("1", "rewards"), ("1, x", "rewards"), ("", "rewards")):
        with pytest.raises(ValueError, match=f"^{field}:"):
            A.parse_inputs(text)
    with pytest.raises(ValueError, match="^second_reward:"):
        A.parse_inputs("1, 0", "1")
    with pytest.raises(ValueError, match="^lengths:"):
        A.parse_inputs("1, 0", "1, 1", "0", "3")
    # MaxRL is left out of the page's table for negative rewards (its formula needs R >= 0)
    assert "maxrl" not in set(A.advantage_table(A.parse_inputs("-1, 1", "0, 0"))["estimator"])


def test_each_field_of_the_page_is_read_on_its_own():
    # one bad field leaves the others' work standing: the group keeps every good field; a bad optional
    # field is None in it and the estimators that read it (the registry says which) are left out
    group, errors = A.parse_fields("1, 0, 0, 0, 1, 0, 1, 0", "1, 1, 0, 1", "0", "")
    assert set(errors) == {"second_reward"} and str(errors["second_reward"]).startswith("second_reward: 4 values")
    assert group.rewards == (1, 0, 0, 0, 1, 0, 1, 0) and group.second is None and group.greedy == 0.0
    assert A.readers("second_reward") == [n for n, s in ESTIMATORS.items() if "components" in s.needs] == ["gdpo"]
    table = A.advantage_table(group)
    assert "gdpo" not in set(table["estimator"]) and "grpo" in set(table["estimator"])
    group, errors = A.parse_fields("1, 0", "1, 1", "x", "3, 4, 5")
    assert set(errors) == {"greedy_reward", "lengths"} and group.greedy is None and group.lengths is None
    assert "remax" not in set(A.advantage_table(group)["estimator"])
    assert A.readers("greedy_reward") == ["remax"]
    assert A.readers("lengths") == [n for n, s in ESTIMATORS.items() if s.length_note]
    assert A.readers("rewards") == list(ESTIMATORS)
    with pytest.raises(ValueError, match="^field:"):
        A.readers("temperature")
    group, errors = A.parse_fields("1, y", "1", "0")  # no rewards: no group, and every bad field named
    assert group is None and list(errors) == ["rewards"]
    # every field good: parse_inputs's group, no error
    assert A.parse_fields("1, 0", "1, 1", "0", "3, 4") == (A.parse_inputs("1, 0", "1, 1", "0", "3, 4"), {})


def test_the_page_figures_validate():
    # the builders skip plotly's validation for speed (rlviz.plots._assemble): validate here, where a
    # bad property raises; one bar per estimator and response, and two panels per estimator line
    import plotly.graph_objects as go

    from rlviz.plots.advantages import advantage_bars_figure, difficulty_bias_figure

    table = A.advantage_table(A.parse_inputs("1, 0, 0, 0", "1, 1, 0, 1", "0"))
    bars = advantage_bars_figure(table, {})
    bias = difficulty_bias_figure(A.difficulty_bias(8), {})
    for fig in (bars, bias):
        go.Figure(fig.to_dict())
    assert len(bars.data) == table["estimator"].nunique() and bars.layout.barmode == "group"
    assert sum(len(t.x) for t in bars.data) == len(table)
    assert len(bias.data) == 2 * len({t.legendgroup for t in bias.data})  # value and relative, per estimator


# -- the task's second reward and greedy decoding -------------------------------------------------------


def test_format_reward_by_hand():
    p = make_problem(37, 5, 2)  # answer "24"
    assert format_reward(p, "24", True) == 1.0 and format_reward(p, "..31", True) == 1.0  # well formed, even wrong
    assert format_reward(p, "24", False) == 0.0  # no EOS
    assert format_reward(p, "", True) == format_reward(p, "2.4", True) == format_reward(p, "4+", True) == 0.0


# -- training with every estimator --------------------------------------------------------------------


@pytest.fixture(scope="module")
def policy():
    from rlviz.lm.model import load_policy

    with torch_threads(1):
        yield load_policy(device="cpu")


TINY = dict(prompts_per_step=2, group_size=4, mu=1, mini_batches=1, max_new_tokens=8)


def test_every_estimator_trains_a_step(policy):
    from rlviz.lm.trainer import TrainConfig, Trainer

    model, tok = policy
    rollouts = {}
    with torch_threads(1):
        for name in (OWN_ESTIMATOR, *ESTIMATORS):
            config = TrainConfig(algorithm="grpo", **TINY, settings={"adv_estimator": name})
            t = Trainer(config, copy.deepcopy(model), tok)
            batch, _ = t._collect()
            rollouts[name] = (batch.rewards.tolist(), batch.response_lengths.tolist())
            # what the registry gives on this batch (ReMax's greedy baseline and GDPO's format reward come
            # from the trainer's own sampler and task), before the update changes the model
            kw = {"lengths": batch.response_lengths.view(-1, 4).float()}
            if name == "remax":
                kw["greedy_rewards"] = t._greedy_rewards(batch)
            if name == "gdpo":
                kw["components"] = torch.stack([batch.rewards, batch.format_rewards], -1).view(-1, 4, 2)
            rewards = batch.rewards.view(-1, 4)
            expected = (
                group_advantages(rewards, "group")
                if name == OWN_ESTIMATOR
                else estimate_advantages(name, rewards, **kw)
            )
            metrics, _, data = t._update(batch)  # one real optimizer step
            assert torch.allclose(data.advantages.float(), expected.reshape(-1).float(), atol=1e-5), name
            assert math.isfinite(metrics["loss"]) and math.isfinite(metrics["grad_norm"]), name
    # the same rollouts whatever the estimator: ReMax's greedy decoding never draws from the run's generator
    assert all(r == rollouts[OWN_ESTIMATOR] for r in rollouts.values())


def test_estimator_settings_are_checked():
    from rlviz.lm.trainer import TrainConfig, split_settings

    with pytest.raises(ValueError, match="^adv_estimator"):
        split_settings("grpo", {"adv_estimator": "nope"})
    with pytest.raises(ValueError, match="^adv_estimator"):
        split_settings("ppo", {"adv_estimator": "rloo"})  # PPO's GAE path has no group estimator
    assert split_settings("ppo", {"adv_estimator": "rloo", "advantage": "group"})[1]["adv_estimator"] == "rloo"
    with pytest.raises(ValueError, match="^adv_estimator"):
        TrainConfig(algorithm="dapo", settings={"adv_estimator": "maxrl"}).validate()  # overlong shaping: R < 0


def test_the_config_export_writes_each_estimators_framework_arguments():
    from rlviz.teach.export import export_config

    rloo = export_config("grpo", None, {"adv_estimator": "rloo"})
    assert rloo.verl["algorithm.adv_estimator"] == "rloo" and "algorithm.norm_adv_by_std_in_grpo" not in rloo.verl
    assert "scale_rewards" not in rloo.trl and rloo.unmapped["trl"] == {"adv_estimator": "rloo"}  # TRL: no RLOO here
    dr = export_config("grpo", None, {"adv_estimator": "dr_grpo"})
    assert dr.trl["scale_rewards"] == "none" and dr.verl["algorithm.norm_adv_by_std_in_grpo"] is False
    gdpo = export_config("grpo", None, {"adv_estimator": "gdpo"})
    assert gdpo.trl["multi_objective_aggregation"] == "normalize_then_sum" and "adv_estimator" in gdpo.unmapped["verl"]


@pytest.mark.parametrize("name", list(ESTIMATORS))
def test_every_estimator_keeps_the_signs_of_a_nearly_equal_float32_group(name):
    # seven rewards of 0.35 and one a float32 step above: a float32 mean rounds below 0.35 and would
    # make every deviation positive; every statistic is float64, the advantages come back in float32
    r = torch.full((1, 8), 0.35, dtype=torch.float32)
    r[0, 7] = torch.nextafter(r[0, 7], torch.tensor(1.0))
    a = adv(name, r, greedy_rewards=r[:, 0] if "greedy" in ESTIMATORS[name].needs else None)
    assert a.dtype == torch.float32
    assert bool((a[0, :7] <= 0).all()) and float(a[0, 7]) > 0, a


@pytest.mark.parametrize("name", [n for n, s in ESTIMATORS.items() if s.baseline == "group"])
def test_an_all_equal_group_gets_exactly_zero_from_every_group_baseline(name):
    # the first group is all equal: no signal, exactly 0 (no 0 / 0), next to a mixed group
    r = torch.tensor([[0.35, 0.35, 0.35, 0.35], [1.0, 0.0, 0.0, 0.0]])
    a = adv(name, r)
    if not ESTIMATORS[name].batch_statistics or name == "batch_std":  # whitening moves an equal group off 0
        assert torch.equal(a[0], torch.zeros(4)), a
    assert bool(torch.isfinite(a).all())
