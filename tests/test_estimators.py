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
from rlviz.core.estimators import (
    ESTIMATORS,
    estimate_advantages,
    estimate_token_advantages,
    expected_group_weight,
    whiten,
)
from rlviz.core.objectives import OWN_ESTIMATOR, TRAINER_SETTINGS
from rlviz.experiments import advantages as A
from rlviz.lm.task import format_reward, make_problem
from rlviz.teach.predict import PREDICTIONS, state_from_settings

F64 = torch.float64
R = torch.tensor([[1.0, 0.0, 0.0, 0.0], [1.0, 1.0, 0.0, 1.0]], dtype=F64)  # two groups of G = 4
GREEDY = torch.tensor([0.0, 1.0], dtype=F64)


def adv(name, rewards=R, **kw):
    """[n, G]: an outcome estimator's advantages; a per-token one's (the registry's ``per_token``) at the token
    of one-token responses with equal statistics (pi = 1/2 of two tokens, Σπ² = 1/2)."""
    if ESTIMATORS[name].per_token:
        return token_adv(name, rewards, lengths=kw.get("lengths"))[..., 0]
    kw.setdefault("greedy_rewards", GREEDY if "greedy" in ESTIMATORS[name].needs else None)
    return estimate_advantages(name, rewards, **kw)


def token_adv(name, rewards, lengths=None, **kw):
    """[n, G, T] from :func:`estimate_token_advantages` with equal token statistics (pi = Σπ² = 1/2) over the
    responses' lengths (default: one token each)."""
    n, G = rewards.shape
    lengths = torch.ones(n, G) if lengths is None else lengths
    T = int(lengths.max())
    mask = (torch.arange(T) < lengths[..., None]).to(F64)  # (n, G, T)
    half = torch.full((n, G, T), 0.5, dtype=F64)
    return estimate_token_advantages(name, rewards, mask, old_log_probs=half.log(), sum_pi_squared=half, **kw)


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


def test_optimal_token_baseline_by_hand():
    # one group of three responses; w_t = 1 - 2 pi_t + Σπ², W_t its running sum over the response's tokens
    #   response 1, R = 0, 2 tokens: (pi, Σπ²) = (0.5, 0.5), (0.5, 0.5) -> w = 0.5, 0.5 -> W = 0.5, 1.0
    #   response 2, R = 1, 3 tokens: (0.8, 0.68), (0.2, 0.3), (0.5, 0.5) -> w = 0.08, 0.9, 0.5 -> W = 0.08, 0.98, 1.48
    #   response 3, R = 1, 1 token:  (0.25, 0.25) -> w = 0.75 -> W = 0.75
    # B_t = Σ_i R_i W_i,t / Σ_i W_i,t over the responses that reach t:
    #   B_1 = (0 * 0.5 + 1 * 0.08 + 1 * 0.75) / (0.5 + 0.08 + 0.75) = 0.83 / 1.33 = 0.624060
    #   B_2 = (0 * 1.0 + 1 * 0.98) / (1.0 + 0.98) = 0.98 / 1.98 = 0.494949
    #   B_3 = 1 * 1.48 / 1.48 = 1, but response 2 is the one longest, past the second longest (2 tokens): verl's
    #         handle_zero_tail sets its baseline there to 0 -> A = R = 1
    # A_i,t = R_i - B_t: response 1 (-0.624060, -0.494949), response 2 (0.375940, 0.505051, 1), response 3 (0.375940)
    nan = math.nan  # padding: junk that must reach no statistic
    pi = torch.tensor([[[0.5, 0.5, nan], [0.8, 0.2, 0.5], [0.25, nan, nan]]], dtype=F64)
    s2 = torch.tensor([[[0.5, 0.5, nan], [0.68, 0.3, 0.5], [0.25, nan, nan]]], dtype=F64)
    mask = torch.tensor([[[1, 1, 0], [1, 1, 1], [1, 0, 0]]], dtype=F64)
    r = torch.tensor([[0.0, 1.0, 1.0]], dtype=F64)
    a = estimate_token_advantages("optimal_token_baseline", r, mask, old_log_probs=pi.log(), sum_pi_squared=s2)
    b1, b2 = 0.83 / 1.33, 0.98 / 1.98
    expected = torch.tensor([[[-b1, -b2, 0.0], [1 - b1, 1 - b2, 1.0], [1 - b1, 0.0, 0.0]]], dtype=F64)
    assert torch.allclose(a, expected, atol=1e-7), a  # verl's eps = 1e-8 in the denominator
    # Dr.GRPO gives every token of a response one value, R - mean = -2/3, 1/3, 1/3: the per-token baseline differs
    assert float(adv("dr_grpo", r)[0, 0]) == pytest.approx(-2 / 3)
    # rollout IS weights scale each w_t by rho^2: rho = 2 on response 1's first token -> w = 2, W = 2, 2.5;
    # B_1 = 0.83 / (2 + 0.08 + 0.75) = 0.293286, so response 2's first token gets 1 - 0.293286
    rho = torch.ones_like(mask)
    rho[0, 0, 0] = 2.0
    weighted = estimate_token_advantages(
        "optimal_token_baseline", r, mask, old_log_probs=pi.log(), sum_pi_squared=s2, rollout_is_weights=rho
    )
    assert float(weighted[0, 1, 0]) == pytest.approx(1 - 0.83 / 2.83, abs=1e-7)
    # equal statistics and lengths: the baseline is the group mean at every token (Dr.GRPO per token)
    same = token_adv("optimal_token_baseline", R, lengths=torch.full((2, 4), 3.0))
    assert torch.allclose(same, adv("dr_grpo")[..., None].expand(2, 4, 3), atol=1e-7)
    # an outcome estimator through the same entry point: broadcast over its tokens, 0 on padding
    grpo = estimate_token_advantages("grpo", r, mask)
    assert torch.equal(grpo, adv("grpo", r)[..., None] * mask)


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
    spec = ESTIMATORS[name]

    def call(name, rewards, lengths=None, **kw):  # a per-token estimator: equal token statistics, [n, G, T]
        return (
            token_adv(name, rewards, lengths)
            if spec.per_token
            else estimate_advantages(name, rewards, lengths=lengths, **kw)
        )

    a = call(name, rewards, components=comps, lengths=lengths, **kw)
    assert a.shape[:2] == (n, G) and a.dtype == F64 and bool(torch.isfinite(a).all())
    if spec.baseline == "group" and not with_lengths:
        # a group whose rewards (all of them) are equal carries no signal under a group baseline
        same = torch.full((n, G), 1.0, dtype=F64)
        zero = call(name, same, components=torch.stack([same, same], dim=-1), **kw)
        assert float(zero.abs().max()) < 1e-9
    if not spec.batch_statistics:
        # a group-local estimator: each group's advantages ignore the other groups
        alone = call(
            name,
            rewards[:1],
            components=comps[:1],
            lengths=None if lengths is None else lengths[:1],  # OPO reads the lengths of its own group
            **({"greedy_rewards": rewards[:1, 0]} if kw else {}),
        )
        if a.dim() == 3:  # per token: the group alone is padded to its own longest response only
            assert not a[:1, :, alone.shape[-1] :].any()
            a = a[..., : alone.shape[-1]]
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
        (lambda: estimate_advantages("optimal_token_baseline", R), "adv_estimator"),  # per token: not from R alone
        (lambda: estimate_token_advantages("optimal_token_baseline", R, torch.ones(2, 4)), "response_mask"),
        (lambda: estimate_token_advantages("optimal_token_baseline", R, torch.full((2, 4, 3), 0.5)), "response_mask"),
        (lambda: estimate_token_advantages("optimal_token_baseline", R, torch.ones(2, 4, 3)), "old_log_probs"),
        (
            lambda: estimate_token_advantages(
                "optimal_token_baseline", R, torch.ones(2, 4, 3), old_log_probs=torch.zeros(2, 4, 2), sum_pi_squared=1
            ),
            "old_log_probs",  # of another shape than the mask
        ),
        (
            lambda: estimate_token_advantages(
                "optimal_token_baseline",
                R,
                torch.ones(2, 4, 1),
                old_log_probs=torch.full((2, 4, 1), 0.5),
                sum_pi_squared=torch.ones(2, 4, 1),
            ),
            "old_log_probs",  # a log-prob above 0
        ),
        (
            lambda: estimate_token_advantages(
                "optimal_token_baseline",
                R,
                torch.ones(2, 4, 1),
                old_log_probs=torch.zeros(2, 4, 1),
                sum_pi_squared=torch.full((2, 4, 1), 1.5),
            ),
            "sum_pi_squared",  # Σπ² above 1
        ),
        (lambda: token_adv("optimal_token_baseline", R, rollout_is_weights=-torch.ones(2, 4, 1)), "rollout_is_weights"),
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
    # the page's group holds rewards only: a per-token estimator (the registry says which) is left out
    assert list(dict.fromkeys(table["estimator"])) == [n for n, s in ESTIMATORS.items() if not s.per_token]
    assert A.per_token() == [n for n, s in ESTIMATORS.items() if s.per_token] == ["optimal_token_baseline"]
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
    assert A.readers("lengths") == [n for n, s in ESTIMATORS.items() if s.length_note and not s.per_token]
    assert A.readers("rewards") == [n for n, s in ESTIMATORS.items() if not s.per_token]
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
    from rlviz.lm.rollout import response_log_probs
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
            per_token = name != OWN_ESTIMATOR and ESTIMATORS[name].per_token
            assert t._needs_token_stats() == per_token  # Σπ² only where the estimator reads it
            if per_token:  # the old policy's statistics of the sampled tokens, from the policy before the update
                with torch.no_grad():
                    args = (batch.input_ids, batch.attention_mask, batch.position_ids, batch.prompt_width, 1.0)
                    old, _, s2 = response_log_probs(t.model, *args, with_sum_pi_squared=True)
                cells = (-1, 4, old.shape[-1])
                expected = estimate_token_advantages(
                    name,
                    rewards,
                    batch.response_mask.view(cells),
                    old_log_probs=old.view(cells),
                    sum_pi_squared=s2.view(cells),
                )
            elif name == OWN_ESTIMATOR:
                expected = group_advantages(rewards, "group")
            else:
                expected = estimate_advantages(name, rewards, **kw)
            metrics, _, data = t._update(batch)  # one real optimizer step
            assert data.advantages.shape == (tuple(batch.response_mask.shape) if per_token else (8,)), name
            assert torch.allclose(data.advantages.float(), expected.reshape(data.advantages.shape).float(), atol=1e-5)
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
